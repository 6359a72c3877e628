//! The rounds of a split run inside this process, on this machine's
//! cores, with no `boardsat` binary: for a library user (Python's
//! `boardsat.jobs.run_rounds`) that has the library and not the program
//! the job lines name.
//!
//! The protocol is the engines' ([`crate::engine`]): list the next round
//! ([`write_round`], so the directory holds the same round lists as under
//! `jobs --run`), run each of its jobs ([`run_job`], the call `boardsat
//! job` makes) on `workers` threads, read the directory again
//! ([`SplitStatus`]), and go on until no job is left but those that
//! failed in more than `retries` rounds. What a job's call returned
//! stands in for what an engine says of a task's end. A stop (a signal,
//! a deadline) stops the jobs running, which write what they have, marked
//! incomplete, and ends the rounds.
//!
//! Only the rounds' lock differs: an engine's driver holds
//! `rounds/driver.lock`; this one refuses a split that a driver drives
//! now ([`crate::engine::driving`]) and otherwise relies on each job's
//! own lock, which no two processes hold at once.

use std::{
    collections::BTreeMap,
    path::Path,
    sync::{
        atomic::{AtomicUsize, Ordering},
        Mutex, PoisonError,
    },
    time::Instant,
};

use boardsat_solve::{backend::spec::SolverSpec, search::count::Progress, stop::Interrupter};

use crate::{
    engine::{driving, summarise, Driven, RoundEvent},
    error::{EngineError, JobsError},
    rounds::{write_round, Round, SplitStatus},
    run::{run_job, ProveJob, RunJob},
};

/// The name of this road in a round's report (where an engine's name
/// goes).
pub const NAME: &str = "in-process";

/// How [`run_rounds`] runs the rounds.
pub struct InProcess<'a, H> {
    /// Jobs run at once, each on a thread of its own (at least one).
    pub workers: usize,
    /// How many more rounds a job that failed is listed in.
    pub retries: usize,
    /// How the round lists written call boardsat ([`crate::job_program`]):
    /// the lists are the engines', for anyone who runs them later.
    pub program: String,
    /// The jobs' solver.
    pub solver: &'a SolverSpec,
    /// The proofs of a split with proofs.
    pub prove: &'a H,
}

/// The number of jobs run at once by default: one per core.
#[must_use]
pub fn default_workers() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// Runs the rounds of the split in `dir` with `how` until no job is left
/// but those given up (see the module doc); `progress` sees each round
/// start and end.
///
/// # Errors
///
/// [`EngineError::Driven`] when a driver runs the split's rounds now;
/// the errors of reading the split ([`SplitStatus::read`]) and of
/// writing its round lists.
pub fn run_rounds<H: ProveJob + Sync>(
    dir: &Path,
    how: &InProcess<'_, H>,
    stop: &Interrupter,
    progress: &(dyn Fn(RoundEvent<'_>) + Sync),
) -> Result<Driven, JobsError> {
    // Read before anything is written: a directory that is no split is
    // refused as it is.
    let mut status = SplitStatus::read(dir)?;
    if let Some(holder) = driving(dir)? {
        return Err(EngineError::Driven {
            dir: dir.display().to_string(),
            holder,
        }
        .into());
    }
    let mut attempts: BTreeMap<String, usize> = BTreeMap::new();
    let mut why: BTreeMap<String, String> = BTreeMap::new();
    let mut rounds = Vec::new();
    let mut stopped = None;
    loop {
        if let Some(reason) = stop.reason() {
            stopped = Some(reason);
            break;
        }
        let runnable: Vec<String> = status
            .left()
            .into_iter()
            .filter(|id| attempts.get(id).copied().unwrap_or(0) <= how.retries)
            .collect();
        if runnable.is_empty() {
            break;
        }
        let round = write_round(dir, &runnable, &how.program, Some(stop))?;
        progress(RoundEvent::Started(&round));
        let start = Instant::now();
        let said = run_round(dir, how, &round, stop);
        for id in &round.ids {
            *attempts.entry(id.clone()).or_default() += 1;
        }
        status = SplitStatus::read(dir)?;
        let run = summarise(
            &status,
            round,
            NAME,
            |id| said.get(id).cloned(),
            start.elapsed(),
        );
        for (id, reason) in &run.failed {
            why.insert(id.clone(), reason.clone());
        }
        progress(RoundEvent::Ended(&run));
        rounds.push(run);
        if let Some(reason) = stop.reason() {
            stopped = Some(reason);
            break;
        }
    }
    let given_up = status
        .left()
        .into_iter()
        .filter(|id| attempts.get(id).copied().unwrap_or(0) > how.retries)
        .map(|id| {
            let reason = why.get(&id).cloned().unwrap_or_default();
            (id, reason)
        })
        .collect();
    Ok(Driven {
        rounds,
        status,
        given_up,
        stopped,
    })
}

/// Runs the jobs of `round` on `how.workers` threads, each taking the
/// next job listed until none is left or `stop` is set; returns the
/// errors of the jobs whose call failed, in words.
fn run_round<H: ProveJob + Sync>(
    dir: &Path,
    how: &InProcess<'_, H>,
    round: &Round,
    stop: &Interrupter,
) -> BTreeMap<String, String> {
    let next = AtomicUsize::new(0);
    let errors = Mutex::new(BTreeMap::new());
    let workers = how.workers.clamp(1, round.ids.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                let quiet = |_: &Progress| {};
                let job = RunJob {
                    solver: how.solver,
                    stop,
                    prove: how.prove,
                    progress: &quiet,
                };
                while !stop.is_interrupted() {
                    let Some(id) = round.ids.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        break;
                    };
                    // The answer is the job's file, read back with the
                    // rest of the split; only a failure is kept here.
                    if let Err(e) = run_job(dir, id, &job) {
                        errors
                            .lock()
                            .unwrap_or_else(PoisonError::into_inner)
                            .insert(id.clone(), e.to_string());
                    }
                }
            });
        }
    });
    errors.into_inner().unwrap_or_else(PoisonError::into_inner)
}
