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

/// What a file is written from.
#[derive(Debug)]
pub enum Exported {
    /// Clauses: the CNF of a fixed k ([`Format::Cnf`]), or the hard
    /// clauses of the optimum's MaxSAT instance ([`Format::Wcnf`]).
    Clauses {
        /// Cnf or Wcnf.
        format: Format,
        /// The encoding's facts (its counter is not kept).
        encoding: Encoding,
        /// The clauses.
        cnf: Cnf,
    },
    /// The linear model ([`Format::Opb`] or [`Format::Lp`]).
    Linear {
        /// Opb or Lp.
        format: Format,
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
    check_fit(format, instance.k)?;
    let problem = &instance.problem;
    let mut vars = problem.var_manager();
    let mut cnf = Cnf::new();
    match (format, instance.k) {
        (Format::Cnf, Some(k)) => {
            let encoding = Checked::run(stop, &mut cnf, |sink| {
                problem.encode(k, instance.config, sink, &mut vars)
            })?;
            Ok(Exported::Clauses {
                format,
                encoding,
                cnf,
            })
        }
        (Format::Wcnf, None) => {
            let encoding = Checked::run(stop, &mut cnf, |sink| {
                problem.encode_unbounded(instance.config, sink, &mut vars)
            })?;
            Ok(Exported::Clauses {
                format,
                encoding,
                cnf,
            })
        }
        _ => Ok(Exported::Linear {
            format,
            model: Model::new(problem, instance.k)?,
        }),
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
            Exported::Clauses { format, .. } | Exported::Linear { format, .. } => *format,
        }
    }

    /// The provenance an answer is checked by (`None` for DIMACS CNF,
    /// whose header is [`dimacs::Header::for_encoding`]'s).
    #[must_use]
    pub fn provenance(&self) -> Option<Provenance> {
        match self {
            Exported::Clauses {
                format: Format::Wcnf,
                encoding,
                ..
            } => Some(Provenance::wcnf(&encoding.problem, encoding.stats.n_vars)),
            Exported::Clauses { .. } => None,
            Exported::Linear { format, model } => Some(Provenance::linear(model, *format)),
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
                format: Format::Wcnf,
                encoding,
                cnf,
            } => export::wcnf::write(out, encoding, cnf, &comments),
            Exported::Clauses { encoding, cnf, .. } => {
                let header = dimacs::Header::for_encoding(encoding, command_line);
                let mut out = io::BufWriter::new(out);
                dimacs::write(&mut out, &header, cnf, encoding.stats.n_vars)?;
                out.flush()
            }
            Exported::Linear {
                format: Format::Lp,
                model,
            } => export::lp::write(out, model, &comments),
            Exported::Linear { model, .. } => export::opb::write(out, model, &comments),
        }
    }

    /// The sizes in one line, for a `c` note: the encoding's summary, or
    /// the linear model's variables, constraints and terms.
    #[must_use]
    pub fn summary(&self) -> String {
        match self {
            Exported::Clauses {
                format: Format::Wcnf,
                encoding,
                ..
            } => format!(
                "hard clauses: {}; {}",
                encoding.summary(),
                plural(encoding.stats.n_board_vars, "soft unit", "soft units")
            ),
            Exported::Clauses { encoding, .. } => encoding.summary(),
            Exported::Linear { format, model } => format!(
                "{}, {}, {}; {format}",
                plural(model.n_vars(), "variable", "variables"),
                plural(
                    model.constraints.len(),
                    "linear constraint",
                    "linear constraints"
                ),
                plural(model.n_terms(), "term", "terms")
            ),
        }
    }
}
