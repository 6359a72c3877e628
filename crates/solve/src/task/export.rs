//! An instance written as a file for other solvers: DIMACS CNF, or beyond
//! CNF an OPB, WCNF or LP file ([`boardsat_encode::export`]). The one road
//! from an instance to a file, for the command line (`boardsat dimacs
//! --format`) and the Python package (`Encoding.to_dimacs`, `to_opb`,
//! `to_wcnf`, `to_lp`): which format fits which question, what is built
//! for it, with which provenance.

use std::io::{self, Write};

use boardsat_encode::{
    dimacs::{self, Format},
    export::{self, check_fit, Provenance},
    linear::Model,
    words::plural,
    Encoding,
};
use rustsat::instances::Cnf;

use crate::{error::SolveError, search::sink::Checked, stop::Interrupter, task::Instance};

/// The formats written from clauses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClauseFormat {
    /// DIMACS CNF of a fixed k ([`Format::Cnf`]).
    Cnf,
    /// The hard clauses of the optimum's MaxSAT instance ([`Format::Wcnf`]).
    Wcnf,
}

/// The formats written from the linear model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LinearFormat {
    /// OPB ([`Format::Opb`]).
    Opb,
    /// CPLEX LP ([`Format::Lp`]).
    Lp,
}

/// What a file is written from. Each shape names its formats by an enum
/// of its own, so that every match below lists them and a new format is
/// a compile error here, not a file silently written as another.
#[derive(Debug)]
pub enum Exported {
    /// Clauses: the CNF of a fixed k, or the hard clauses of the
    /// optimum's MaxSAT instance.
    Clauses {
        /// Cnf or Wcnf.
        format: ClauseFormat,
        /// The encoding's facts (its counter is not kept).
        encoding: Encoding,
        /// The clauses.
        cnf: Cnf,
    },
    /// The linear model.
    Linear {
        /// Opb or Lp.
        format: LinearFormat,
        /// The model.
        model: Model,
    },
}

/// Builds what `format` needs to state `instance`: the clauses of the CNF
/// (k fixed) or of the WCNF (the optimum), or the linear model (OPB, LP).
/// Building the clauses stops when `stop` is raised.
///
/// # Errors
///
/// A format that does not fit the question
/// ([`boardsat_encode::export::check_fit`]); the encoding's errors;
/// [`SolveError::Interrupted`].
pub fn export(
    instance: &Instance,
    format: Format,
    stop: &Interrupter,
) -> Result<Exported, SolveError> {
    let problem = &instance.problem;
    let mut vars = problem.var_manager();
    let mut cnf = Cnf::new();
    let linear = |format| -> Result<Exported, SolveError> {
        Ok(Exported::Linear {
            format,
            model: Model::new(problem, instance.k)?,
        })
    };
    match (format, instance.k) {
        (Format::Cnf, Some(k)) => {
            let encoding = Checked::run(stop, &mut cnf, |sink| {
                problem.encode(k, instance.config, sink, &mut vars)
            })?;
            Ok(Exported::Clauses {
                format: ClauseFormat::Cnf,
                encoding,
                cnf,
            })
        }
        (Format::Wcnf, None) => {
            let encoding = Checked::run(stop, &mut cnf, |sink| {
                problem.encode_unbounded(instance.config, sink, &mut vars)
            })?;
            Ok(Exported::Clauses {
                format: ClauseFormat::Wcnf,
                encoding,
                cnf,
            })
        }
        (Format::Opb, _) => linear(LinearFormat::Opb),
        (Format::Lp, _) => linear(LinearFormat::Lp),
        (Format::Cnf, None) | (Format::Wcnf, Some(_)) | (Format::Inccnf, _) => {
            // check_fit says why in the words of the question asked.
            check_fit(format, instance.k)?;
            Err(SolveError::Internal(
                "check_fit accepted a format export cannot write",
            ))
        }
    }
}

impl Exported {
    /// The encoding and the clauses of a CNF or WCNF (`None` for the linear
    /// formats).
    #[must_use]
    pub fn into_clauses(self) -> Option<(Encoding, Cnf)> {
        match self {
            Exported::Clauses { encoding, cnf, .. } => Some((encoding, cnf)),
            Exported::Linear { .. } => None,
        }
    }

    /// The format it is written in.
    #[must_use]
    pub fn format(&self) -> Format {
        match self {
            Exported::Clauses { format, .. } => match format {
                ClauseFormat::Cnf => Format::Cnf,
                ClauseFormat::Wcnf => Format::Wcnf,
            },
            Exported::Linear { format, .. } => match format {
                LinearFormat::Opb => Format::Opb,
                LinearFormat::Lp => Format::Lp,
            },
        }
    }

    /// The provenance an answer is checked by (`None` for DIMACS CNF,
    /// whose header is [`dimacs::Header::for_encoding`]'s).
    #[must_use]
    pub fn provenance(&self) -> Option<Provenance> {
        match self {
            Exported::Clauses {
                format: ClauseFormat::Wcnf,
                encoding,
                ..
            } => Some(Provenance::wcnf(&encoding.problem, encoding.stats.n_vars)),
            Exported::Clauses {
                format: ClauseFormat::Cnf,
                ..
            } => None,
            Exported::Linear { model, .. } => Some(Provenance::linear(model, self.format())),
        }
    }

    /// Writes the file, with `command_line` (the arguments after
    /// `boardsat`) in its provenance.
    ///
    /// # Errors
    ///
    /// The writer's I/O errors.
    pub fn write<W: Write + ?Sized>(
        &self,
        out: &mut W,
        command_line: Option<&str>,
    ) -> io::Result<()> {
        let comments = self
            .provenance()
            .map(|p| p.lines(command_line))
            .unwrap_or_default();
        match self {
            Exported::Clauses {
                format: ClauseFormat::Wcnf,
                encoding,
                cnf,
            } => export::wcnf::write(out, encoding, cnf, &comments),
            Exported::Clauses {
                format: ClauseFormat::Cnf,
                encoding,
                cnf,
            } => {
                let header = dimacs::Header::for_encoding(encoding, command_line);
                let mut out = io::BufWriter::new(out);
                dimacs::write(&mut out, &header, cnf, encoding.stats.n_vars)?;
                out.flush()
            }
            Exported::Linear {
                format: LinearFormat::Lp,
                model,
            } => export::lp::write(out, model, &comments),
            Exported::Linear {
                format: LinearFormat::Opb,
                model,
            } => export::opb::write(out, model, &comments),
        }
    }

    /// The sizes in one line, for a `c` note: the encoding's summary, or
    /// the linear model's variables, constraints and terms.
    #[must_use]
    pub fn summary(&self) -> String {
        match self {
            Exported::Clauses {
                format: ClauseFormat::Wcnf,
                encoding,
                ..
            } => format!(
                // No counter: the file holds the lines and coverage alone,
                // as its own comment says.
                "hard clauses: {}; amo {}, formulation {}; {}",
                encoding.sizes(),
                encoding.config.amo,
                encoding.config.formulation,
                plural(encoding.stats.n_board_vars, "soft unit", "soft units")
            ),
            Exported::Clauses {
                format: ClauseFormat::Cnf,
                encoding,
                ..
            } => encoding.summary(),
            Exported::Linear { model, .. } => format!(
                "{}, {}, {}; {}",
                plural(model.n_vars(), "variable", "variables"),
                plural(
                    model.constraints.len(),
                    "linear constraint",
                    "linear constraints"
                ),
                plural(model.n_terms(), "term", "terms"),
                self.format()
            ),
        }
    }
}
