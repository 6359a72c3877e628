//! `boardsat job DIR ID`: one job of a `cubes` directory, the count of its
//! cube run as `count-dimacs` runs it, which writes its own answer whole,
//! once (`boardsat_jobs::job`); past the split's job budget, split into
//! the pieces of its next ring instead.

use anyhow::{Context, Result};
use boardsat_jobs::job::Job;
use boardsat_solve::{formula::dimacs::Format, search::count::End, stop::StopReason};

use crate::{
    commands::{
        count_dimacs::{Counted, Counting},
        solve_dimacs::read,
    },
    flags::{CubeJobArgs, ProofArgs},
    hiargs,
    outcome::Outcome,
    output::{note, Stdout},
};

/// Runs `job DIR ID`: the count of job ID of the split in DIR, written
/// to its `results/` whole, once (see `boardsat_jobs::job`), or its
/// pieces when it runs past the split's budget. The answer is the file;
/// stdout has it only with `--json`, stderr says what was done.
pub fn run(args: &CubeJobArgs) -> Result<Outcome> {
    let solver = hiargs::solver(&args.solver)?;
    let stop = hiargs::stop(&args.solver);
    let job = Job::open(&args.dir, &args.id)?;
    let claimed = job.claim()?;
    let result_path = job.result_path();
    let mut out = Stdout::new();
    if let Some(answer) = claimed.answer()? {
        let what = match &answer.pieces {
            Some(pieces) => format!("split into {} pieces", pieces.len()),
            None => format!("{} models", answer.count),
        };
        note(format!(
            "{}: already answered in {} ({what}); kept as it is",
            job.entry.id,
            result_path.display(),
        ));
        if args.json {
            out.json(&answer)?;
        }
        out.flush()?;
        return Ok(Outcome::Done);
    }
    claimed.prepare()?;
    let source = job.source();
    let (formula, digest) = cube_formula(&job, &source, &stop)?;
    // Past the budget, the solver is stopped and the job split.
    let splitting = job.splitting()?;
    let count_stop = match &splitting {
        Some((budget, _, _)) => stop.child(Some(*budget)),
        None => stop.clone(),
    };
    // A previous attempt's proof files are this job's to replace.
    let proof = ProofArgs {
        proof: job.proof_dir(),
        replace: true,
        resume: false,
        proof_format: crate::flags::ProofFormat::of(job.proof_format),
        proof_compression: crate::flags::ProofCompression::from(job.proof_compression),
    };
    let prover = hiargs::prover(&proof, &stop)?;
    let counting = Counting {
        file: &source,
        name: job.entry.file.clone(),
        cube: job.entry.index,
        limit: None,
        solver: &solver,
        stop: &count_stop,
        weigher: job.weigher()?,
    };
    let Counted {
        mut result,
        end,
        reason,
        proven,
    } = counting.count(formula, digest, prover)?;
    let past_budget = end == End::Stopped
        && stop.reason().is_none()
        && count_stop.reason() == Some(StopReason::TimeLimit);
    if let (true, Some((budget, board, cube))) = (past_budget, splitting) {
        result.stopped = Some(format!("past its budget of {} s", budget.as_secs_f64()));
        let pieces = claimed.split(&board, &cube, result.clone(), Some(&stop))?;
        drop(claimed);
        let shown: Vec<&str> = pieces.iter().take(3).map(|p| p.id.as_str()).collect();
        note(format!(
            "{}: past its {} s budget after {} models; split into {} pieces for the next round ({}{}); answer written to {}",
            job.entry.id,
            budget.as_secs_f64(),
            result.count,
            pieces.len(),
            shown.join(", "),
            if pieces.len() > 3 { ", …" } else { "" },
            result_path.display()
        ));
        if args.json {
            result.pieces = Some(pieces);
            result.complete = false;
            out.json(&result)?;
        }
        out.flush()?;
        return Ok(Outcome::Done);
    }
    // No answer without its proof: a job whose proof failed runs again.
    let stopped = proven.finish()?;
    claimed.write(&result)?;
    drop(claimed);
    note(format!(
        "{}: {} models{}{}; answer written to {}",
        job.entry.id,
        result.count,
        result.placements.map_or(String::new(), |p| format!(
            " (standing for {})",
            boardsat_encode::words::plural(p, "placement", "placements")
        )),
        end.mark(reason),
        result_path.display()
    ));
    if args.json {
        out.json(&result)?;
    }
    out.flush()?;
    Ok(stopped.unwrap_or(Outcome::of_end(end, reason)))
}

/// The job's formula, read from its cube file and checked against the
/// manifest's digest, restricted to its cube of an iCNF file.
fn cube_formula(
    job: &Job,
    source: &std::path::Path,
    stop: &boardsat_solve::stop::Interrupter,
) -> Result<(boardsat_solve::formula::dimacs::Formula, String)> {
    let expect = match job.entry.index {
        Some(_) => Format::Inccnf,
        None => Format::Cnf,
    };
    let (mut formula, digest) = read(source, Some(expect), stop)?;
    job.check_digest(&digest)?;
    if let Some(cube) = job.entry.index {
        formula = formula
            .with_cube(cube)
            .with_context(|| source.display().to_string())?;
    }
    Ok((formula, digest))
}
