//! # boardsat-solve
//!
//! Runs SAT solvers on boardsat's encodings: embedded varisat (pure Rust)
//! and CaDiCaL (C++, feature `cadical`), or any external DIMACS solver;
//! enumerates and counts placements with blocking clauses on the board
//! variables; finds optima with a solver-proven bound; checks every model
//! with the independent checker of `boardsat-encode`.
//!
//! | type | role |
//! |---|---|
//! | [`Backend`], [`Status`] | the small core trait: clauses, solve under assumptions, values, a fresh solver of the same kind |
//! | [`TimeLimit`], [`Interrupt`], [`Interrupter`], [`SearchEnumerate`] | optional capabilities |
//! | [`SolverKind`], [`Options`], [`Profile`] | run-time choice of backend and its tuning |
//! | [`Varisat`], `Cadical`, [`External`] | the backends |
//! | [`Session`], [`Solutions`] | a problem loaded into a solver; enumeration by blocking clauses |
//! | [`optimise()`], [`optimise_with`], [`Strategy`], [`Optimum`] | minimum domination / maximum independence with the solver's proof (refutations on fresh solvers with the bound as units) |
//! | [`optimise_portfolio`] | the same, encodings racing on threads |
//! | [`cubes`] | N-queens counts split into cubes over threads, with halving or symmetry breaking |
//! | [`dimacs`] | a strict DIMACS reader with line numbers |
//!
//! ```
//! use boardsat_encode::{Config, Problem};
//! use boardsat_solve::{Session, SolverKind};
//!
//! let problem = Problem::queens(6)?;
//! let mut session = Session::fixed(&problem, 6, Config::default(), SolverKind::Varisat.create(None)?)?;
//! let count = session.count(None, |_| {})?;
//! assert_eq!(count.count, 4);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

// User input must not reach a panic: no unwrap or expect outside tests.
#![cfg_attr(not(test), warn(clippy::unwrap_used, clippy::expect_used))]

mod backend;
#[cfg(feature = "cadical")]
mod cadical_backend;
pub mod cubes;
pub mod dimacs;
pub mod external;
mod kind;
mod optimise;
mod session;
mod varisat_backend;

pub use backend::{Backend, Interrupt, Interrupter, SearchEnumerate, Status, TimeLimit, Visitor};
#[cfg(feature = "cadical")]
pub use cadical_backend::Cadical;
pub use external::{External, ExternalError};
pub use kind::{Options, Profile, SolverKind};
pub use optimise::{
    optimise, optimise_portfolio, optimise_with, Call, Direction, Optimum, PortfolioResult,
    Strategy,
};
pub use session::{Count, End, Progress, Session, Solutions};
pub use varisat_backend::Varisat;

use boardsat_encode::{EncodeError, Violation};

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
    /// The solver answered UNKNOWN (time limit or interrupt) where an answer
    /// was needed.
    #[error("the solver gave up (time limit or interrupt) after {found} solutions")]
    Unknown {
        /// Solutions found before giving up.
        found: u64,
    },
    /// Encoding failed.
    #[error(transparent)]
    Encode(#[from] EncodeError),
    /// This build has no such backend.
    #[error("backend {0} is not built in (rebuild with the feature of that name)")]
    Unavailable(&'static str),
    /// The external backend needs a command.
    #[error("the external backend needs a solver command (e.g. --solver-cmd minisat)")]
    MissingCommand,
}
