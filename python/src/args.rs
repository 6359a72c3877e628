//! From keyword arguments to library objects, as the command line's
//! `hiargs` does: the problem with its bound and encodings (checked by
//! [`Request::checked_problem`], so the messages are the command line's),
//! the solver spec, and the job's stop flag with the time limit.

use boardsat_encode::{Amo, Card, Config, Family, Formulation, Piece, Request};
use boardsat_solve::{
    backend::spec::{SolverKind, SolverSpec},
    stop::{seconds, Interrupter},
    task::{count::CountFlags, Encodings, Instance},
};
use pyo3::PyResult;

use crate::errors::{encode_error, invalid, solve_error};

/// The problem keywords.
pub struct ProblemKeywords<'a> {
    /// `queens`, `independence`, `domination`.
    pub family: &'a str,
    /// Rows (and columns unless `cols`).
    pub n: i64,
    /// Columns.
    pub cols: Option<i64>,
    /// The piece's name.
    pub piece: Option<&'a str>,
    /// The number of pieces.
    pub k: Option<i64>,
    /// Independent domination.
    pub independent: bool,
    /// The AMO encoding's name (`None`: boardsat's choice).
    pub amo: Option<&'a str>,
    /// The cardinality encoding's name (`None`: the default).
    pub card: Option<&'a str>,
    /// The formulation's name (`None`: the default).
    pub formulation: Option<&'a str>,
    /// Build even an encoding estimated too large.
    pub force: bool,
}

impl ProblemKeywords<'_> {
    /// The request, with every name parsed.
    ///
    /// # Errors
    ///
    /// `ValueError` for an unknown name or a negative number.
    pub fn request(&self) -> PyResult<Request> {
        Ok(Request {
            family: self
                .family
                .parse::<Family>()
                .map_err(|e| encode_error(&e))?,
            n: size(self.n, "the board size must be a positive integer")?,
            cols: self
                .cols
                .map(|c| size(c, "the board size must be a positive integer"))
                .transpose()?,
            piece: self
                .piece
                .map(|p| p.parse::<Piece>().map_err(|e| invalid(e.to_string())))
                .transpose()?,
            k: self
                .k
                .map(|k| size(k, "the number of pieces must be a non-negative integer"))
                .transpose()?,
            independent: self.independent,
        })
    }

    /// The encodings asked for (`None` left to boardsat).
    ///
    /// # Errors
    ///
    /// `ValueError` for an unknown encoding (or one of the wrong kind).
    pub fn encodings(&self) -> PyResult<Encodings> {
        Ok(Encodings {
            amo: self
                .amo
                .map(|name| name.parse::<Amo>().map_err(|e| encode_error(&e)))
                .transpose()?,
            card: self
                .card
                .map(|name| name.parse::<Card>().map_err(|e| encode_error(&e)))
                .transpose()?,
            formulation: self
                .formulation
                .map(|name| name.parse::<Formulation>().map_err(|e| encode_error(&e)))
                .transpose()?,
        })
    }

    /// The instance for `solver` (`None`: the clauses alone, as `encode`
    /// writes them), built as the command line builds it
    /// ([`Instance::new`]: the same defaults), its size checked unless
    /// `force`.
    ///
    /// # Errors
    ///
    /// `ValueError` with the library's message.
    pub fn instance(&self, solver: Option<&SolverSpec>) -> PyResult<Instance> {
        Instance::new(&self.request()?, self.encodings()?, solver, self.force)
            .map_err(|e| solve_error(&e))
    }

    /// The `boardsat dimacs` command line that writes the same file: the
    /// provenance line of `Encoding::to_dimacs` (`encoding.rs`).
    pub fn dimacs_command_line(&self, request: &Request, config: Config) -> String {
        let mut words = vec![
            "dimacs".to_string(),
            request.family.name().to_string(),
            request.n.to_string(),
        ];
        let mut option = |flag: &str, value: String| {
            words.push(flag.to_string());
            words.push(value);
        };
        if let Some(cols) = request.cols {
            option("--cols", cols.to_string());
        }
        if let Some(piece) = request.piece {
            option("--piece", piece.name().to_string());
        }
        if let Some(k) = request.k {
            option("-k", k.to_string());
        }
        let defaults = Config::default();
        if config.amo != defaults.amo {
            option("--amo", config.amo.name().to_string());
        }
        if config.card != defaults.card {
            option("--card", config.card.name().to_string());
        }
        if config.formulation != defaults.formulation {
            option("--formulation", config.formulation.name().to_string());
        }
        if request.independent {
            words.push("--independent".to_string());
        }
        if self.force {
            words.push("--force".to_string());
        }
        words.join(" ")
    }
}

/// The solver keywords.
pub struct SolverKeywords<'a> {
    /// `cadical`, `varisat`, `external`; `None`: external with a command,
    /// else the default embedded solver.
    pub solver: Option<&'a str>,
    /// An external solver's command line.
    pub solver_cmd: Option<&'a str>,
    /// CaDiCaL's seed.
    pub seed: Option<i64>,
    /// Seconds for the whole call.
    pub time_limit: Option<f64>,
}

impl SolverKeywords<'_> {
    /// The solver spec, validated.
    ///
    /// # Errors
    ///
    /// `ValueError`: an unknown solver, a backend not built in, an external
    /// solver without a command, a seed for another solver than CaDiCaL.
    pub fn spec(&self) -> PyResult<SolverSpec> {
        let kind = self
            .solver
            .map(|name| {
                name.parse::<SolverKind>()
                    .map_err(|e| invalid(e.to_string()))
            })
            .transpose()?;
        let seed = self
            .seed
            .map(|s| i32::try_from(s).map_err(|_| invalid(format!("the seed {s} is out of range"))))
            .transpose()?;
        SolverSpec::choose(kind, self.solver_cmd.map(str::to_string), seed)
            .map_err(|e| solve_error(&e))
    }

    /// The call's stop flag, with the time limit's deadline from now.
    ///
    /// # Errors
    ///
    /// `ValueError` for a time limit that is not a positive number.
    pub fn stop(&self) -> PyResult<Interrupter> {
        Ok(Interrupter::with_deadline(duration(self.time_limit)?))
    }
}

/// A number of seconds from Python (a time limit, a cube budget).
///
/// # Errors
///
/// `ValueError` for a value that is not a positive number of seconds.
pub fn duration(value: Option<f64>) -> PyResult<Option<std::time::Duration>> {
    value
        .map(|v| {
            seconds(v).ok_or_else(|| invalid(format!("'{v}' is not a positive number of seconds")))
        })
        .transpose()
}

/// A size or count from Python, which has no unsigned integers.
///
/// # Errors
///
/// `ValueError` with `message` for a negative value.
pub fn size(value: i64, message: &str) -> PyResult<usize> {
    usize::try_from(value).map_err(|_| invalid(message))
}

/// A `limit` on placements.
///
/// # Errors
///
/// `ValueError` for a negative limit.
pub fn limit(value: Option<i64>) -> PyResult<Option<u64>> {
    value
        .map(|l| u64::try_from(l).map_err(|_| invalid("the limit must be a non-negative integer")))
        .transpose()
}

/// The keywords of `count` that shape the count: `limit`, `depth`,
/// `threads`, `no_symmetry`, `halve` and `cube_budget` (the command
/// line's `--limit`, `--depth`, `--threads`, `--no-symmetry`, `--halve`
/// and `--cube-budget`).
pub struct CountKeywords {
    /// `limit=`: the most placements.
    pub limit: Option<i64>,
    /// `depth=`: the split's depth.
    pub depth: Option<i64>,
    /// `threads=`.
    pub threads: Option<i64>,
    /// `no_symmetry=`.
    pub no_symmetry: bool,
    /// `halve=`.
    pub halve: bool,
    /// `cube_budget=`: seconds.
    pub cube_budget: Option<f64>,
    /// `stop_after_cubes=`: the cubes of a sitting.
    pub stop_after_cubes: Option<i64>,
}

impl CountKeywords {
    /// The count's flags, checked as the command line checks them.
    ///
    /// # Errors
    ///
    /// `ValueError` for a negative number or a budget that is not a
    /// positive number of seconds.
    pub fn flags(&self) -> PyResult<CountFlags> {
        Ok(CountFlags {
            limit: limit(self.limit)?,
            unique: false,
            depth: self
                .depth
                .map(|d| size(d, "the depth must be a non-negative integer"))
                .transpose()?,
            threads: self
                .threads
                .map(|t| size(t, "the number of threads must be a non-negative integer"))
                .transpose()?,
            no_symmetry: self.no_symmetry,
            halve: self.halve,
            budget: duration(self.cube_budget)?,
            stop_after_cubes: self
                .stop_after_cubes
                .map(|n| size(n, "the cubes of a sitting must be a non-negative integer"))
                .transpose()?,
        })
    }
}
