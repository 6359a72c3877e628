//! Everything that can go wrong while solving, in one error type.

use boardsat_encode::{EncodeError, Violation};

use crate::{backend::external::ExternalError, formula::dimacs, stop::StopReason};

/// Everything that can go wrong while solving.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// A value was asked for without a current model.
    #[error("no model: the last solve call did not return SAT, or clauses were added since")]
    NoModel,
    /// The embedded solver failed.
    #[error("{backend}: {message}")]
    Solver {
        /// The backend's signature.
        backend: String,
        /// What it said.
        message: String,
    },
    /// An external solver failed.
    #[error(transparent)]
    External(#[from] ExternalError),
    /// A model's placement broke the problem's rules: a bug in an encoding
    /// or a solver.
    #[error("the solver returned a wrong placement ({placement}): {violation}")]
    WrongPlacement {
        /// The placement, as `row,col` pairs.
        placement: String,
        /// What the checker found.
        violation: Violation,
    },
    /// With symmetry breaking on, a model that is not the leader of its
    /// orbit: a bug in the lex-leader encoding or a solver.
    #[error("the solver returned a placement that is not the leader of its orbit ({placement})")]
    NotLexLeader {
        /// The placement, as `row,col` pairs.
        placement: String,
    },
    /// The solver stopped without an answer (a time limit, an interrupt,
    /// or a solver that gave up) where an answer was needed.
    #[error("the solver stopped without an answer after {found} solutions")]
    Stopped {
        /// Solutions found before it stopped.
        found: u64,
    },
    /// A model that falsifies a clause of the formula it answers: a bug in
    /// a solver.
    #[error("{backend} returned a model that falsifies clause {clause}")]
    WrongModel {
        /// The backend's signature.
        backend: String,
        /// The clause, numbered from 1 in the order of the formula.
        clause: usize,
    },
    /// Work was stopped (a signal or the time limit) outside a solver
    /// call, e.g. while encoding.
    #[error("stopped ({0})")]
    Interrupted(StopReason),
    /// An option that does not apply.
    #[error("{0}")]
    Unsupported(String),
    /// A formula could not be read.
    #[error(transparent)]
    Read(#[from] dimacs::ReadError),
    /// Encoding failed.
    #[error(transparent)]
    Encode(#[from] EncodeError),
    /// This build has no such backend.
    #[error("backend {0} is not built in (rebuild with the feature of that name)")]
    Unavailable(&'static str),
    /// The encoding leaves lines to a propagator ([`boardsat_encode::Amo::Lazy`])
    /// that the backend does not have.
    #[error(
        "the lazy AMO needs a solver with an external propagator (cadical); {backend} has none"
    )]
    NoPropagator {
        /// The backend's signature.
        backend: String,
    },
    /// The external backend needs a command.
    #[error("the external backend needs a solver command (e.g. --solver-cmd minisat)")]
    MissingCommand,
}

/// The stop reason behind an error, if a stop (a signal, a time limit)
/// caused it: work stopped while encoding or reading is stopped, not
/// failed. Look at each cause of an error chain.
#[must_use]
pub fn stop_reason(cause: &(dyn std::error::Error + 'static)) -> Option<StopReason> {
    match cause.downcast_ref::<SolveError>() {
        Some(SolveError::Interrupted(r) | SolveError::Read(dimacs::ReadError::Stopped(r))) => {
            Some(*r)
        }
        _ => match cause.downcast_ref::<dimacs::ReadError>() {
            Some(dimacs::ReadError::Stopped(r)) => Some(*r),
            _ => None,
        },
    }
}
