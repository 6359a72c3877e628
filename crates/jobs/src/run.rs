//! Running one job, the whole protocol in one call ([`run_job`]): claim
//! the job with its lock, keep a finished answer, clean what an earlier
//! attempt left, read and check the cube's file, count it (with its
//! proof when the split has proofs), and write its answer, or its pieces
//! when it runs past the split's budget (see [`crate::job`]). The
//! command line's `job`, Python's `boardsat.jobs.run_job` and the
//! estimator's sampled cubes ([`Counting::count`]) all count this way.
//!
//! Proofs are made by a crate above this one (`boardsat-proof`): a count
//! is proven through the [`CountProof`] its caller hands in, and a job
//! asks its caller's [`ProveJob`] for one when its split has proofs.

use std::{fs::File, path::Path, time::Duration};

use boardsat_encode::dimacs::{CubeKind, CubeTag};
use boardsat_report::Ending;
use boardsat_solve::{
    backend::{spec::SolverSpec, Backend, Mode},
    error::SolveError,
    formula::dimacs::{self, Format, Formula},
    search::count::{count_projected, End, ModelSink, Progress},
    stop::{Interrupter, StopReason},
};

use crate::{
    error::JobsError,
    job::{Job, Weigher},
    manifest::{Entry, JobResult},
};

/// The proof of one count, made alongside it: the caller's prover.
pub trait CountProof {
    /// What the proof ends with, for the caller to report.
    type Proven;
    /// Before counting, on the backend that will count `formula`.
    ///
    /// # Errors
    ///
    /// The backend's.
    fn begin(&mut self, backend: &mut dyn Backend, formula: &Formula) -> Result<(), SolveError>;
    /// A model the count found.
    fn model(&mut self, model: &[bool]);
    /// After counting, which ended with `end`: the proof of the count.
    ///
    /// # Errors
    ///
    /// When the proof could not be made ([`JobsError::Proof`]): a job
    /// then writes no answer, and runs again.
    fn finish(
        self,
        end: End,
        backend: &mut dyn Backend,
        formula: &Formula,
        digest: &str,
    ) -> Result<Self::Proven, JobsError>;
}

/// A count without a proof.
impl CountProof for () {
    type Proven = ();
    fn begin(&mut self, _: &mut dyn Backend, _: &Formula) -> Result<(), SolveError> {
        Ok(())
    }
    fn model(&mut self, _: &[bool]) {}
    fn finish(self, _: End, _: &mut dyn Backend, _: &Formula, _: &str) -> Result<(), JobsError> {
        Ok(())
    }
}

/// Where a job's proof comes from, when its split has proofs: the
/// caller's prover, started for the job's proof directory (an earlier
/// attempt's files there are the job's to replace).
pub trait ProveJob {
    /// The proof of one job's count.
    type Proof: CountProof;
    /// The proof of `job`'s count, into `dir`.
    ///
    /// # Errors
    ///
    /// When the prover cannot start (its own error, kept whole).
    fn start(&self, job: &Job, dir: &Path) -> Result<Self::Proof, JobsError>;
}

/// Jobs of splits without proofs: asking for one is an error.
impl ProveJob for () {
    type Proof = ();
    fn start(&self, job: &Job, _: &Path) -> Result<(), JobsError> {
        Err(JobsError::NoProver(job.entry.id.clone()))
    }
}

/// One count of a formula, as a job and `count-dimacs` run it.
pub struct Counting<'a> {
    /// The file's name in the answer.
    pub name: String,
    /// The iCNF cube counted, if any.
    pub cube: Option<usize>,
    /// Stop after this many models.
    pub limit: Option<u64>,
    /// How the solver runs: [`Mode::Enumerate`], or [`Mode::Refute`]
    /// for a cube expected to hold no model.
    pub mode: Mode,
    /// The solver.
    pub solver: &'a SolverSpec,
    /// What stops the count.
    pub stop: &'a Interrupter,
    /// A job's models stand for this many placements each, in a split
    /// with lex-leader constraints: their sum is the answer's
    /// `placements`.
    pub weigher: Option<Weigher>,
    /// Sees the count as it goes.
    pub progress: &'a dyn Fn(&Progress),
}

/// What a count produced.
pub struct Counted<P> {
    /// The answer, as `count-dimacs --json` prints it and a job writes it.
    pub result: JobResult,
    /// How counting ended.
    pub end: End,
    /// Why it stopped, if it did.
    pub reason: Option<StopReason>,
    /// Its proof's end, when one was made, or why it could not be.
    pub proven: Option<Result<P, JobsError>>,
}

impl Counting<'_> {
    /// Counts `formula` (read with `digest`), proving the count with
    /// `proof` when there is one.
    ///
    /// # Errors
    ///
    /// The backend's errors.
    pub fn count<P: CountProof>(
        &self,
        formula: &Formula,
        digest: String,
        mut proof: Option<P>,
    ) -> Result<Counted<P::Proven>, SolveError> {
        let mut backend = self.solver.create(self.mode, self.stop)?;
        if let Some(p) = proof.as_mut() {
            p.begin(backend.as_mut(), formula)?;
        }
        let mut placements: u64 = 0;
        let mut record = |model: &[bool]| {
            if let Some(p) = proof.as_mut() {
                p.model(model);
            }
            if let Some(weigher) = &self.weigher {
                placements = placements.saturating_add(weigher.weigh(model));
            }
        };
        let witness: Option<ModelSink<'_>> = Some(&mut record);
        let count = count_projected(formula, backend.as_mut(), self.limit, witness, |p| {
            (self.progress)(p);
        })?;
        let reason = self.stop.reason();
        let proven = proof.map(|p| p.finish(count.end, backend.as_mut(), formula, &digest));
        let result = JobResult {
            command: "count-dimacs".to_string(),
            file: self.name.clone(),
            cube: self.cube,
            status: Ending::of(count.end, reason).status().to_string(),
            count: count.count,
            complete: count.end == End::Exhausted,
            projected_vars: formula
                .projection
                .as_ref()
                .map_or(formula.n_vars as usize, Vec::len),
            stopped: (count.end == End::Stopped).then(|| StopReason::words(reason).to_string()),
            backend: backend.signature(),
            elapsed: count.elapsed.as_secs_f64(),
            split: formula.tag("split").map(str::to_string),
            cube_id: job_tag(formula),
            digest,
            pieces: None,
            placements: self
                .weigher
                .filter(|_| count.end == End::Exhausted)
                .map(|_| placements),
        };
        Ok(Counted {
            result,
            end: count.end,
            reason,
            proven,
        })
    }
}

/// The id of the job cube a formula is (its `c boardsat-cube` line).
fn job_tag(formula: &Formula) -> Option<String> {
    formula
        .tag("cube")
        .and_then(|t| CubeTag::parse(t, CubeKind::Job))
        .and_then(|tag| match tag {
            CubeTag::Job { id, .. } => Some(id),
            _ => None,
        })
}

/// How [`run_job`] runs a job.
pub struct RunJob<'a, H> {
    /// The solver.
    pub solver: &'a SolverSpec,
    /// What stops the job (a time limit, a signal).
    pub stop: &'a Interrupter,
    /// The proofs of a split with proofs.
    pub prove: &'a H,
    /// Sees the count as it goes.
    pub progress: &'a dyn Fn(&Progress),
}

/// What a job did.
pub enum JobRun<P> {
    /// It was answered already; its answer is kept as it is.
    Kept(JobResult),
    /// It ran past its budget and was split: its answer lists its pieces.
    Split {
        /// The answer written.
        answer: JobResult,
        /// The budget it ran past.
        budget: Duration,
    },
    /// It counted: its answer was written (complete or stopped).
    Counted(Counted<P>),
}

/// Runs job `id` of the split in `dir`: the whole protocol (see the
/// module doc and [`crate::job`]).
///
/// # Errors
///
/// [`JobsError::Running`] when another process runs it now; the errors
/// of a directory that is no split ([`JobsError::NoManifest`]), of an
/// unknown job ([`JobsError::UnknownJob`]), of its files, its count and
/// its proof's start.
pub fn run_job<H: ProveJob>(
    dir: &Path,
    id: &str,
    how: &RunJob<'_, H>,
) -> Result<JobRun<<H::Proof as CountProof>::Proven>, JobsError> {
    let job = Job::open(dir, id)?;
    let claimed = job.claim()?;
    if let Some(answer) = claimed.answer()? {
        return Ok(JobRun::Kept(answer));
    }
    claimed.prepare()?;
    let (formula, digest) = job_formula(&job, how.stop)?;
    // Past the budget, the solver is stopped and the job split.
    let splitting = job.splitting()?;
    let count_stop = match &splitting {
        Some((budget, _, _)) => how.stop.child(Some(*budget)),
        None => how.stop.clone(),
    };
    let proof = match job.proof_dir() {
        Some(proofs) => Some(how.prove.start(&job, &proofs)?),
        None => None,
    };
    let counting = Counting {
        name: job.entry.file.clone(),
        cube: job.entry.index,
        limit: None,
        mode: Mode::Enumerate,
        solver: how.solver,
        stop: &count_stop,
        weigher: job.weigher()?,
        progress: how.progress,
    };
    let mut counted = counting.count(&formula, digest, proof)?;
    let past_budget = counted.end == End::Stopped
        && how.stop.reason().is_none()
        && count_stop.reason() == Some(StopReason::TimeLimit);
    if let (true, Some((budget, board, cube))) = (past_budget, splitting) {
        let mut answer = counted.result;
        answer.stopped = Some(format!("past its budget of {} s", budget.as_secs_f64()));
        let pieces: Vec<Entry> = claimed.split(&board, &cube, answer.clone(), Some(how.stop))?;
        answer.pieces = Some(pieces);
        answer.complete = false;
        return Ok(JobRun::Split { answer, budget });
    }
    // No answer without its proof: a job whose proof failed runs again.
    let proven = counted.proven.take().transpose()?;
    claimed.write(&counted.result)?;
    Ok(JobRun::Counted(Counted {
        proven: proven.map(Ok),
        ..counted
    }))
}

/// The job's formula, read from its cube file and checked against the
/// manifest's digest and the spec, restricted to its cube of an iCNF
/// file.
fn job_formula(job: &Job, stop: &Interrupter) -> Result<(Formula, String), JobsError> {
    let source = job.source();
    let name = source.display().to_string();
    let expect = match job.entry.index {
        Some(_) => Format::Inccnf,
        None => Format::Cnf,
    };
    let read_error = |error| JobsError::ReadCube {
        file: name.clone(),
        error,
    };
    let file = File::open(&source).map_err(|e| JobsError::Dir {
        action: "open",
        path: name.clone(),
        reason: boardsat_solve::files::describe(&e),
    })?;
    let (mut formula, digest) =
        dimacs::read_with_digest(file, Some(expect), Some(stop)).map_err(read_error)?;
    job.check_digest(&digest)?;
    job.check_header(&formula.comments)?;
    if let Some(cube) = job.entry.index {
        formula = formula.with_cube(cube).map_err(read_error)?;
    }
    Ok((formula, digest))
}
