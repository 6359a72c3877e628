//! The context of a count or an optimisation: what every part of the
//! search reads and none changes — the problem with its encodings, the
//! solvers to build, the worker threads of its splits, the stop flag and
//! the certifier of its split answers. The task builds it once
//! ([`crate::task`]); the search borrows it (varisat's `Context`), so a
//! new reader takes it from here instead of a longer parameter list.

use boardsat_encode::{Config, Problem};

use crate::{
    backend::spec::SolverSpec,
    error::SolveError,
    search::{certify::Certify, pool::default_threads},
    stop::{Interrupter, StopReason},
};

/// What a count or an optimisation runs with (see the module doc).
#[derive(Clone, Copy)]
pub struct Context<'a> {
    /// The problem.
    pub problem: Problem,
    /// Its encodings.
    pub config: Config,
    /// The solvers to build: one per cube of a split, or the optimiser's.
    pub solver: &'a SolverSpec,
    /// Worker threads of the splits (at least 1).
    pub threads: usize,
    /// Stops every solver of the search.
    pub stop: &'a Interrupter,
    /// With proofs traced as the splits run: where each cube's proof goes
    /// ([`crate::search::certify`]); `None`: no proofs.
    pub certify: Option<&'a dyn Certify>,
}

impl std::fmt::Debug for Context<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Context")
            .field("problem", &self.problem)
            .field("config", &self.config)
            .field("solver", &self.solver)
            .field("threads", &self.threads)
            .field("certified", &self.certify.is_some())
            .finish_non_exhaustive()
    }
}

impl<'a> Context<'a> {
    /// The context of `problem` with `config`, solved by `solver` on every
    /// core, stopped by `stop`, without proofs.
    #[must_use]
    pub fn new(
        problem: Problem,
        config: Config,
        solver: &'a SolverSpec,
        stop: &'a Interrupter,
    ) -> Self {
        Context {
            problem,
            config,
            solver,
            threads: default_threads(),
            stop,
            certify: None,
        }
    }

    /// The same context on `threads` workers (at least one).
    #[must_use]
    pub fn with_threads(self, threads: usize) -> Self {
        Context {
            threads: threads.max(1),
            ..self
        }
    }

    /// The same context, its split answers proven into `certify`.
    #[must_use]
    pub fn with_certify(self, certify: Option<&'a dyn Certify>) -> Self {
        Context { certify, ..self }
    }

    /// The error of work stopped before any solver was loaded: nothing to
    /// report but the stop.
    #[must_use]
    pub fn stopped(&self) -> SolveError {
        SolveError::Interrupted(self.stop.reason().unwrap_or(StopReason::Interrupted))
    }
}
