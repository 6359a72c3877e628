//! `boardsat job DIR ID`: one job of a `cubes` directory, run by the
//! library in one call ([`boardsat_jobs::run::run_job`]: claim, keep a
//! finished answer, clean, count, answer or split into pieces); this
//! command parses its arguments, hands in the prover of a split with
//! proofs, and prints what was done.

use std::cell::RefCell;

use anyhow::Result;
use boardsat_encode::words::plural;
use boardsat_jobs::{
    run::{run_job, JobRun, RunJob},
    JobResult,
};
use boardsat_proof::{job_proof::JobProofs, prover::Concluded};
use boardsat_solve::{search::count::Progress, stop::Interrupter};

use crate::{
    flags::CubeJobArgs,
    hiargs,
    outcome::Outcome,
    output::{note, ProgressLine, Proven, Stdout},
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
    let prove = JobProofs {
        stop: &stop,
        command: format!("boardsat {}", hiargs::command_line()),
    };
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
    let (answer, outcome) = told(&args.id, ran?, &result_path, &stop)?;
    let mut out = Stdout::new();
    if args.json {
        out.json(&answer)?;
    }
    out.flush()?;
    Ok(outcome)
}

/// Says on stderr what the job did: its answer and the command's outcome
/// (a stop of its proofs is the command's outcome).
fn told(
    id: &str,
    ran: JobRun<Option<Concluded>>,
    result_path: &str,
    stop: &Interrupter,
) -> Result<(JobResult, Outcome)> {
    Ok(match ran {
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
            let concluded = counted.proven.and_then(Result::ok).flatten();
            let stopped = Proven::of(concluded, stop).finish()?;
            note(counted_note(
                id,
                &counted.result,
                counted.end.mark(counted.reason),
                result_path,
            ));
            let outcome = stopped.unwrap_or(Outcome::of_end(counted.end, counted.reason));
            (counted.result, outcome)
        }
    })
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
