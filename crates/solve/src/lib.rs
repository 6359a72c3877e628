//! # boardsat-solve
//!
//! Runs SAT solvers on boardsat's encodings: embedded varisat (pure Rust)
//! and CaDiCaL (C++, feature `cadical`), or any external DIMACS solver;
//! enumerates and counts placements with blocking clauses on the board
//! variables; finds optima with a solver-proven bound; splits counts and
//! decisions into cubes over threads;
//! checks every model with the independent checker of `boardsat-encode`.
//! Certified answers are `boardsat-proof`'s, splits run as jobs
//! `boardsat-jobs`'s, benchmarks `boardsat-bench`'s.
//!
//! | type | role |
//! |---|---|
//! | [`backend::Backend`], [`backend::Status`], [`backend::Mode`] | the small core trait: clauses, solve under assumptions, values, a fresh solver of the same kind |
//! | [`backend::TimeLimit`], [`backend::ConflictLimit`], [`backend::Interrupt`], [`backend::propagator::PropagateLines`] | optional capabilities |
//! | [`backend::spec::SolverKind`], [`backend::spec::SolverSpec`] | run-time choice of backend; building solvers for many threads |
//! | [`stop::Interrupter`], [`stop::StopReason`] | one stop flag per job, with a deadline: signals and time limits |
//! | [`formula::dimacs`], [`formula::falsified`] | one strict reader for DIMACS and iCNF with projections; the one model check |
//! | [`search::session::Session`] | a problem loaded into a solver; enumeration by blocking clauses |
//! | [`search::count`] | the one counting loop ([`search::count::count_projected`] for any formula) |
//! | [`search::optimise`] | minimum domination / maximum independence with the solver's proof |
//! | [`search::queens`], [`search::domination`] | counts and decisions split into cubes over threads |
//! | [`task`] | the jobs users ask for, with one set of defaults: [`task::Instance::new`], [`task::solve::solve`], [`task::count::count`], [`task::enumerate::enumerate`], [`task::export::export`] |
//! | [`files`] | output files written whole and safely |
//! | [`error::SolveError`], [`error::external::ExternalError`] | everything that can go wrong while solving; an external solver's failures |
//!
//! The command line, the benchmark and the Python package are thin callers
//! of [`task`], reported by `boardsat-report`, so they do the same thing and
//! report it with the same fields.
//!
//! ## Layers
//!
//! Each module imports only from modules on its own line or a line above,
//! by its path (`crate::search::session::Session`), never through the
//! re-exports below, which are for outside users (checked by
//! `tests/tests/layers.rs`):
//!
//! 1. `stop`, `files` — stop flags, safe output files
//! 2. `formula` — formulas read from outside, the model check
//! 3. `error` — the error type, an external solver's failures among them
//! 4. `backend` — solvers behind one trait
//! 5. `search` — sessions, counting, optimisation, cubes over threads
//! 6. `task` — what users ask for, with one set of defaults
//!
//! ```
//! use boardsat_encode::{Config, Problem};
//! use boardsat_solve::{
//!     backend::{spec::{SolverKind, SolverSpec}, Mode},
//!     search::session::{Session},
//!     stop::Interrupter,
//! };
//!
//! let problem = Problem::queens(6)?;
//! let solver = SolverSpec::new(SolverKind::Varisat).create(Mode::Enumerate, &Interrupter::new())?;
//! let mut session = Session::fixed(&problem, 6, Config::default(), solver)?;
//! let count = session.count(None, |_| {})?;
//! assert_eq!(count.count, 4);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

// User input must not reach a panic: no unwrap or expect outside tests.
#![cfg_attr(not(test), warn(clippy::unwrap_used, clippy::expect_used))]

pub mod backend;
pub mod error;
pub mod files;
pub mod formula;
pub mod search;
pub mod stop;
pub mod task;

#[cfg(feature = "cadical")]
pub use backend::cadical::Cadical;
pub use backend::{
    external::External,
    propagator::{Decide, LinesOptions, LinesStats, PropagateLines},
    spec::{SolverKind, SolverSpec, UnknownSolver},
    varisat::Varisat,
    Backend, ConflictLimit, Interrupt, Mode, Status, TimeLimit,
};
pub use error::{external::ExternalError, stop_reason, SolveError};
pub use formula::dimacs;
pub use search::{
    count::{count_projected, Count, End, Progress},
    optimise::{
        optimise, optimise_observed, optimise_portfolio, optimise_with, Observe, Optimum, Strategy,
    },
    session::{blocking_clause, Breaking, Fix, Session, Solutions},
};
pub use stop::{seconds, Interrupter, StopReason};
pub use task::default_amo;
