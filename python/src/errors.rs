//! The library's errors as Python exceptions: what the caller asked wrong is
//! a `ValueError`, what a solver did wrong is a `SolverError` (a
//! `RuntimeError`), a stop is `KeyboardInterrupt` or `TimeoutError`
//! (`solve` and `count` return an unknown result at a time limit instead,
//! whenever it comes: `stopped_before_a_solver` in `lib.rs`). The
//! message is the library's one line, with the choices it names worded as
//! this package's keywords ([`Keywords`]).

use boardsat_encode::{
    setting::{Names, Setting},
    EncodeError,
};
use boardsat_solve::{
    error::{external::ExternalError, SolveError},
    stop::StopReason,
};
use pyo3::{
    create_exception,
    exceptions::{
        PyKeyboardInterrupt, PyMemoryError, PyRuntimeError, PyTimeoutError, PyValueError,
    },
    PyErr,
};

create_exception!(
    boardsat,
    SolverError,
    PyRuntimeError,
    "A solver failed: it crashed, could not be started, or returned a wrong model."
);

/// This package's names for the library's settings: its keywords
/// (`depth=…`, `halve=True`, `amo='lazy'`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Keywords;

impl Keywords {
    /// The keyword of `setting`, and whether it is a switch (`True`).
    const fn keyword(setting: Setting) -> (&'static str, bool) {
        match setting {
            Setting::Cols => ("cols", false),
            Setting::Piece => ("piece", false),
            Setting::Pieces => ("k", false),
            Setting::Independent => ("independent", true),
            Setting::Amo => ("amo", false),
            Setting::Card => ("card", false),
            Setting::Formulation => ("formulation", false),
            Setting::Force => ("force", true),
            Setting::Limit => ("limit", false),
            Setting::Unique => ("unique", true),
            Setting::Depth => ("depth", false),
            Setting::Threads => ("threads", false),
            Setting::CubeBudget => ("cube_budget", false),
            Setting::StopAfterCubes => ("stop_after_cubes", false),
            Setting::NoSymmetry => ("no_symmetry", true),
            Setting::Halve => ("halve", true),
            Setting::Portfolio => ("portfolio", true),
            Setting::Solver => ("solver", false),
            Setting::SolverCommand => ("solver_cmd", false),
            Setting::Seed => ("seed", false),
            Setting::Cube => ("cube", false),
            Setting::Format => ("format", false),
            Setting::Task => ("task", false),
            Setting::Proof => ("proof", false),
            Setting::Replace => ("replace", true),
            Setting::JobBudget => ("job_budget", false),
            Setting::LexLeader => ("lex_leader", true),
            Setting::Split => ("boardsat.jobs.write_split()", false),
            Setting::Rounds => ("boardsat.jobs.run_rounds()", false),
        }
    }
}

impl Names for Keywords {
    fn name(&self, setting: Setting, value: Option<&str>) -> String {
        if matches!(setting, Setting::Split | Setting::Rounds) {
            // Functions, not keywords.
            return Keywords::keyword(setting).0.to_string();
        }
        match (Keywords::keyword(setting), value) {
            ((keyword, _), Some(value)) => format!("{keyword}='{value}'"),
            ((keyword, true), None) => format!("{keyword}=True"),
            ((keyword, false), None) => format!("{keyword}=…"),
        }
    }
}

/// A bad argument, with `message`.
pub fn invalid(message: impl Into<String>) -> PyErr {
    PyValueError::new_err(message.into())
}

/// The exception for an encoding error.
pub fn encode_error(e: &EncodeError) -> PyErr {
    match e {
        EncodeError::OutOfMemory => PyMemoryError::new_err(e.to_string()),
        _ => invalid(e.message(&Keywords)),
    }
}

/// The exception for a solving error.
pub fn solve_error(e: &SolveError) -> PyErr {
    match e {
        SolveError::Encode(e) => encode_error(e),
        SolveError::Inapplicable(_)
        | SolveError::Unavailable(_)
        | SolveError::MissingCommand
        | SolveError::NotSplit { .. }
        | SolveError::External(ExternalError::BadCommand { .. }) => invalid(e.message(&Keywords)),
        SolveError::Interrupted(StopReason::TimeLimit) => PyTimeoutError::new_err(e.to_string()),
        SolveError::Interrupted(StopReason::Interrupted) => {
            PyKeyboardInterrupt::new_err(e.to_string())
        }
        _ => SolverError::new_err(e.message(&Keywords)),
    }
}
