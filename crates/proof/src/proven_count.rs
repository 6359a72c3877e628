//! A count of a board problem with its proof: the one road that `boardsat
//! count` and Python's `boardsat.count` both take, with the same defaults.
//!
//! The plan proves when there is a proof directory ([`plan`]). The count
//! runs with the prover as its certifier when the plan traces its cubes
//! (domination, each cube proven as it is counted: [`SplitProver`]); then
//! the claims behind what it found are proven ([`prove_counted`]) and the
//! prover's run is concluded. A count that fails gives its prover back,
//! not concluded, for the caller to end as it ends any run that failed.
//!
//! Where a run's proofs go, and whether it resumes a stopped one, is the
//! prover's business ([`Prover::create`], [`Prover::resume`]), decided by
//! the caller before the count.

use std::path::Path;

use boardsat_solve::{
    backend::spec::SolverSpec,
    error::SolveError,
    search::{
        certify::Certify,
        count::{Keep, Progress, Proofs},
        optimise::Observe,
        pool::CubesDone,
    },
    stop::Interrupter,
    task::{
        count::{count, CountFlags, CountPlan, Counted},
        Instance,
    },
};

use crate::{
    prover::{Concluded, Prover},
    split_prover::SplitProver,
    tasks::prove_counted,
};

/// The plan of a count of `instance` with `flags`, proven when there is
/// a proof directory (`proof_dir`).
///
/// # Errors
///
/// As [`CountFlags::plan`].
pub fn plan(
    flags: &CountFlags,
    instance: &Instance,
    proof_dir: Option<&Path>,
) -> Result<CountPlan, SolveError> {
    let proofs = match proof_dir {
        Some(_) => Proofs::On,
        None => Proofs::Off,
    };
    flags.plan(instance, proofs)
}

/// A count and how it is watched: one context for [`CountTask::run`].
#[derive(Clone, Copy)]
pub struct CountTask<'a> {
    /// The problem, its bound and encodings.
    pub instance: &'a Instance,
    /// The solver.
    pub solver: &'a SolverSpec,
    /// The plan ([`plan`]).
    pub plan: &'a CountPlan,
    /// Ends the count early.
    pub stop: &'a Interrupter,
    /// Sees the count so far (and, for cubes, the cubes done of those
    /// known).
    pub progress: &'a (dyn Fn(&Progress, Option<CubesDone>) + Sync),
    /// Sees the optimum that a count without k proves first.
    pub observe: &'a dyn Observe,
}

/// A count, and the end of its prover's run when it had one.
#[derive(Debug)]
pub struct ProvenCount {
    /// What the count found.
    pub counted: Counted,
    /// What the proof directory holds and how its run ended (none
    /// without a prover).
    pub proof: Option<Concluded>,
}

/// A count that failed, and the prover it was proving into, not
/// concluded.
#[derive(Debug)]
pub struct CountFailed {
    /// Why the count failed.
    pub error: SolveError,
    /// The prover, for the caller to end the run with the error.
    pub prover: Option<Prover>,
}

impl CountTask<'_> {
    /// Counts ([`count`]), proving into `prover` when there is one (see
    /// the module doc). `counted` sees the count once it is done, before
    /// its claims are proven (a caller's report of it comes first).
    ///
    /// # Errors
    ///
    /// [`CountFailed`] when the count fails (boxed: it holds the prover).
    pub fn run(
        &self,
        mut prover: Option<Prover>,
        counted: impl FnOnce(&Counted),
    ) -> Result<ProvenCount, Box<CountFailed>> {
        let traced = self.plan.keep == Keep::Traced;
        let result = {
            let splits = prover.as_mut().filter(|_| traced).map(SplitProver::new);
            let certify = splits.as_ref().map(|s| s as &dyn Certify);
            count(
                self.instance,
                self.solver,
                self.plan,
                self.stop,
                self.progress,
                self.observe,
                certify,
            )
        };
        let found = match result {
            Ok(found) => found,
            Err(error) => return Err(Box::new(CountFailed { error, prover })),
        };
        counted(&found);
        let proof = prover.map(|mut prover| {
            let proved = prove_counted(&mut prover, self.instance, &found);
            prover.conclude(proved, self.stop.reason())
        });
        Ok(ProvenCount {
            counted: found,
            proof,
        })
    }
}
