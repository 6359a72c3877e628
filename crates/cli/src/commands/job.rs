//! `boardsat job DIR ID`: one job of a `cubes` directory, run by the
//! library in one call ([`boardsat_jobs::run::run_job`]: claim, keep a
//! finished answer, clean, count, answer or split into pieces); this
//! command parses its arguments, hands in the prover of a split with
//! proofs, and prints what was done.

use std::{cell::RefCell, path::Path};

use anyhow::Result;
use boardsat_encode::words::plural;
use boardsat_jobs::{
    error::JobsError,
    job::Job,
    run::{run_job, CountProof, JobRun, ProveJob, RunJob},
    JobResult,
};
use boardsat_proof::prover::Task;
use boardsat_solve::{
    backend::Backend,
    error::SolveError,
    formula::dimacs::Formula,
    search::count::{End, Progress},
    stop::Interrupter,
};

use crate::{
    commands::count_dimacs::DimacsProving,
    flags::{CubeJobArgs, ProofArgs, ProofCompression, ProofFormat},
    hiargs,
    outcome::Outcome,
    output::{note, ProgressLine, Stdout},
};

/// Runs `job DIR ID`: the count of job ID of the split in DIR, written
/// to its `results/` whole, once (see `boardsat_jobs::job`), or its
/// pieces when it runs past the split's budget. The answer is the file;
/// stdout has it only with `--json`, stderr says what was done.
pub fn run(args: &CubeJobArgs) -> Result<Outcome> {
    let solver = hiargs::solver(&args.solver)?;
    let stop = hiargs::stop(&args.solver);
    let progress = RefCell::new(ProgressLine::new());
    let tell = |p: &Progress| {
        progress.borrow_mut().update(|| {
            format!(
                "counting: {}  {:.0}/s",
                plural(p.count, "model", "models"),
                p.rate()
            )
        });
    };
    let prove = JobProofs { stop: &stop };
    let how = RunJob {
        solver: &solver,
        stop: &stop,
        prove: &prove,
        progress: &tell,
    };
    let ran = run_job(&args.dir, &args.id, &how);
    progress.borrow_mut().finish();
    let result_path = args
        .dir
        .join(boardsat_jobs::RESULTS)
        .join(boardsat_jobs::layout::result_name(&args.id))
        .display()
        .to_string();
    let (answer, outcome) = told(&args.id, ran?, &result_path);
    let mut out = Stdout::new();
    if args.json {
        out.json(&answer)?;
    }
    out.flush()?;
    Ok(outcome)
}

/// Says on stderr what the job did: its answer and the command's outcome.
fn told(id: &str, ran: JobRun<Option<Outcome>>, result_path: &str) -> (JobResult, Outcome) {
    match ran {
        JobRun::Kept(answer) => {
            let what = match &answer.pieces {
                Some(pieces) => format!("split into {} pieces", pieces.len()),
                None => format!("{} models", answer.count),
            };
            note(format!(
                "{}: already answered in {result_path} ({what}); kept as it is",
                id
            ));
            (answer, Outcome::Done)
        }
        JobRun::Split { answer, budget } => {
            let pieces = answer.pieces.as_deref().unwrap_or_default();
            let shown: Vec<&str> = pieces.iter().take(3).map(|p| p.id.as_str()).collect();
            note(format!(
                "{}: past its {} s budget after {} models; split into {} pieces for the next round ({}{}); answer written to {result_path}",
                id,
                budget.as_secs_f64(),
                answer.count,
                pieces.len(),
                shown.join(", "),
                if pieces.len() > 3 { ", …" } else { "" },
            ));
            (answer, Outcome::Done)
        }
        JobRun::Counted(counted) => {
            let stopped = counted.proven.and_then(Result::ok).flatten();
            note(counted_note(
                id,
                &counted.result,
                counted.end.mark(counted.reason),
                result_path,
            ));
            let outcome = stopped.unwrap_or(Outcome::of_end(counted.end, counted.reason));
            (counted.result, outcome)
        }
    }
}

/// What a counted job says on stderr.
fn counted_note(id: &str, result: &JobResult, mark: String, result_path: &str) -> String {
    format!(
        "{id}: {} models{}{mark}; answer written to {result_path}",
        result.count,
        result.placements.map_or(String::new(), |p| format!(
            " (standing for {})",
            plural(p, "placement", "placements")
        )),
    )
}

/// The proofs of a job of a split with proofs: the prover of its proof
/// directory (a previous attempt's files there are the job's to
/// replace), in the split's proof format.
struct JobProofs<'a> {
    stop: &'a Interrupter,
}

impl<'a> ProveJob for JobProofs<'a> {
    type Proof = JobProving<'a>;

    fn start(&self, job: &Job, dir: &Path) -> Result<JobProving<'a>, JobsError> {
        let proof = ProofArgs {
            proof: Some(dir.to_path_buf()),
            replace: true,
            resume: false,
            proof_format: ProofFormat::from(job.proof_format),
            proof_compression: ProofCompression::from(job.proof_compression),
        };
        let source = job.source();
        let task = Task::count_dimacs(&source, job.entry.index, None);
        let started = hiargs::prover(&proof, self.stop, &task)
            .and_then(|prover| DimacsProving::new(prover, &source, job.entry.index, self.stop));
        started
            .map(JobProving)
            .map_err(|e| JobsError::Proof(e.into()))
    }
}

/// A job's proof: its count's, whose end is settled (noted, and an error
/// when it failed) before the job writes its answer.
struct JobProving<'a>(DimacsProving<'a>);

impl CountProof for JobProving<'_> {
    type Proven = Option<Outcome>;

    fn begin(&mut self, backend: &mut dyn Backend, formula: &Formula) -> Result<(), SolveError> {
        self.0.begin(backend, formula)
    }

    fn model(&mut self, model: &[bool]) {
        self.0.model(model);
    }

    fn finish(
        self,
        end: End,
        backend: &mut dyn Backend,
        formula: &Formula,
        digest: &str,
    ) -> Result<Option<Outcome>, JobsError> {
        let proven = self.0.finish(end, backend, formula, digest)?;
        proven.finish().map_err(|e| JobsError::Proof(e.into()))
    }
}
