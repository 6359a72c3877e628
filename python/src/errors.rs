//! The library's errors as Python exceptions: what the caller asked wrong is
//! a `ValueError`, what a solver did wrong is a `SolverError` (a
//! `RuntimeError`), a stop is `KeyboardInterrupt` or `TimeoutError`. The
//! message is the library's one line, the same as the command line's.

use boardsat_encode::EncodeError;
use boardsat_solve::{backend::external::ExternalError, error::SolveError, stop::StopReason};
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

/// A bad argument, with `message`.
pub fn invalid(message: impl Into<String>) -> PyErr {
    PyValueError::new_err(message.into())
}

/// The exception for an encoding error.
pub fn encode_error(e: &EncodeError) -> PyErr {
    match e {
        EncodeError::OutOfMemory => PyMemoryError::new_err(e.to_string()),
        _ => invalid(e.to_string()),
    }
}

/// The exception for a solving error.
pub fn solve_error(e: &SolveError) -> PyErr {
    match e {
        SolveError::Encode(e) => encode_error(e),
        SolveError::Unsupported(_)
        | SolveError::Unavailable(_)
        | SolveError::MissingCommand
        | SolveError::External(ExternalError::BadCommand { .. }) => invalid(e.to_string()),
        SolveError::Interrupted(StopReason::TimeLimit) => PyTimeoutError::new_err(e.to_string()),
        SolveError::Interrupted(StopReason::Interrupted) => {
            PyKeyboardInterrupt::new_err(e.to_string())
        }
        _ => SolverError::new_err(e.to_string()),
    }
}
