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
//! | [`TimeLimit`], [`Interrupt`], [`SearchEnumerate`], [`PropagateLines`] | optional capabilities |
//! | [`lines`] | the lazy AMO's line propagator inside CaDiCaL: first-fail decisions, reasons on demand; [`default_amo`] |
//! | [`Interrupter`], [`StopReason`] | one stop flag per job, with a deadline: signals and time limits |
//! | [`SolverKind`], [`SolverSpec`], [`Mode`] | run-time choice of backend; building solvers for a task |
//! | [`Varisat`], `Cadical`, [`External`] | the backends |
//! | [`Session`], [`Solutions`] | a problem loaded into a solver; enumeration by blocking clauses |
//! | [`enumerate`], [`count_projected`] | the one counting loop; projected model counts of any formula |
//! | [`optimise()`], [`optimise_with`], [`Strategy`], [`Optimum`] | minimum domination / maximum independence with the solver's proof (refutations on fresh solvers with the bound as units) |
//! | [`optimise_portfolio`] | the same, encodings racing on threads |
//! | [`cubes`] | N-queens counts split into cubes over threads, with halving or symmetry breaking |
//! | [`domination`] | domination counts split into cubes on the central rows and columns, over threads |
//! | [`task`] | the jobs users ask for: [`task::solve`], [`task::count`], [`task::enumerate`], optimum then count |
//! | [`jobs`] | a count split into cube jobs for any scheduler (DIMACS or iCNF, MANIFEST, jobs.txt), and their merge |
//! | [`bench`](mod@bench) | the benchmark matrix and the timed run of one cell |
//! | [`report`] | the JSON schema of every result, as typed structs |
//! | [`plot`] | a bench matrix drawn as an SVG chart (plotters) |
//! | [`proof`] | certified answers: the claims behind a result as standalone formulas with CaDiCaL's LRAT proofs, and [`proof::verify`] (the checker is `boardsat-lrat`) |
//! | [`dimacs`] | one strict reader for DIMACS and iCNF with projections, errors with line numbers |
//! | [`files`], [`sink`] | output files written whole and safely; encoding that obeys a stop flag |
//!
//! The command line, the benchmark and the Python package are thin callers
//! of [`task`], [`jobs`], [`bench`](mod@bench) and [`report`], so they do the same
//! thing and report it with the same fields.
//!
//! ```
//! use boardsat_encode::{Config, Problem};
//! use boardsat_solve::{Interrupter, Mode, Search, Session, SolverKind, SolverSpec};
//!
//! let problem = Problem::queens(6)?;
//! let solver = SolverSpec::new(SolverKind::Varisat).create(Mode::Enumerate, &Interrupter::new())?;
//! let mut session = Session::fixed(&problem, 6, Config::default(), solver)?;
//! let count = session.count(None, Search::PerModel, |_| {})?;
//! assert_eq!(count.count, 4);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

// User input must not reach a panic: no unwrap or expect outside tests.
#![cfg_attr(not(test), warn(clippy::unwrap_used, clippy::expect_used))]

mod backend;
pub mod bench;
#[cfg(feature = "cadical")]
mod cadical_backend;
pub mod cubes;
pub mod dimacs;
pub mod domination;
pub mod enumerate;
pub mod external;
pub mod files;
pub mod jobs;
pub mod lines;
mod optimise;
pub mod plot;
pub mod proof;
pub mod report;
mod session;
pub mod sink;
mod spec;
pub mod task;
mod varisat_backend;

pub use backend::{
    Backend, Interrupt, Interrupter, SearchEnumerate, Status, StopReason, TimeLimit, Visitor,
};
#[cfg(feature = "cadical")]
pub use cadical_backend::Cadical;
pub use enumerate::{count_projected, Count, End, Progress};
pub use external::{External, ExternalError};
pub use lines::{default_amo, Decide, LinesOptions, LinesStats, PropagateLines};
pub use optimise::{
    optimise, optimise_observed, optimise_portfolio, optimise_split, optimise_with, Call, Optimum,
    PortfolioResult, Sense, Strategy,
};
pub use session::{blocking_clause, Breaking, Fix, Search, Session, Solutions};
pub use spec::{seconds, Mode, SolverKind, SolverSpec, UnknownSolver};
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
