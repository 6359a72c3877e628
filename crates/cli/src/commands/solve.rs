//! `boardsat solve`: one placement, or without -k the optimum with the
//! solver's proof.

use anyhow::Result;
use boardsat_encode::{draw, words::plural};
use boardsat_proof::{prover::Task, split_prover::SplitProver, tasks::prove_solved};
use boardsat_report::{solve_text, SolveReport};
use boardsat_solve::{
    backend::Status,
    files::{check_writable, write_text},
    search::certify::Certify,
    task::solve::{solve, traces_proofs, Optimiser, Solved},
};

use crate::{
    flags::SolveArgs,
    hiargs,
    outcome::Outcome,
    output::{abandon, backing, note, Observer, ProgressLine, Proven, Stdout},
};

/// Runs `solve`.
pub fn run(args: &SolveArgs) -> Result<Outcome> {
    let (instance, solver, stop) = hiargs::job(&args.job)?;
    let mut prover = hiargs::prover(&args.job.proof, &stop, &Task::solve(&instance))?;
    // A path that cannot be written fails now, not after the search.
    if let Some(path) = &args.svg {
        check_writable(path)?;
    }
    let progress = std::sync::Mutex::new(ProgressLine::new());
    // With k, the one call is announced before the encoding: at n = 5000
    // loading takes seconds.
    let search = if instance.k.is_some() {
        "solve"
    } else {
        "optimum"
    };
    let observe = Observer::new(search, &progress);
    let optimiser = if args.portfolio {
        Optimiser::Portfolio
    } else {
        Optimiser::Split
    };
    // Domination refutations are proven cube by cube as they are found.
    let traced = traces_proofs(&instance, optimiser);
    let splits = prover.as_mut().filter(|_| traced).map(SplitProver::new);
    let certify = splits.as_ref().map(|s| s as &dyn Certify);
    let solved = solve(&instance, &solver, optimiser, &stop, &observe, certify);
    drop(splits);
    drop(progress);
    let solved = solved.map_err(|e| abandon(prover.take(), &stop, e))?;
    let reason = stop.reason();
    let backend = solver.signature();
    note_solved(&solved, &backend);
    // Proofs of the UNSAT answers; a failure here is reported after the
    // result, which it must not cost.
    let proven = Proven::make(prover.take(), &stop, |p| {
        prove_solved(p, &instance, &solved)
    });
    let summary = proven.summary.clone();
    // The result first: an output file that fails afterwards loses nothing.
    let mut out = Stdout::new();
    if args.job.json {
        let report = SolveReport::new(&solved, backend.clone(), reason).with_proof(summary);
        out.json(&report)?;
    } else {
        let unverified = solved.unverified && summary.is_none();
        let backed = backing(summary.as_ref(), unverified);
        out.text(&solve_text(&instance, &solved, &backend, reason, &backed))?;
    }
    out.flush()?;
    let stopped = proven.finish()?;
    if let (Some(path), Some(placement)) = (&args.svg, &solved.placement) {
        let problem = &instance.problem;
        write_text(path, &draw::svg(problem, placement), Some(&stop))?;
    }
    if let Some(outcome) = stopped {
        return Ok(outcome);
    }
    Ok(match solved.status {
        Status::Sat => Outcome::Done,
        Status::Unsat => Outcome::Unsat,
        Status::Unknown => Outcome::Stopped(reason),
    })
}

/// The notes on a finished search, before its proof: the encoding, the
/// solver's calls and time, and which encoding of a portfolio answered.
fn note_solved(solved: &Solved, backend: &str) {
    note(solved.encoding.summary());
    note(format!(
        "solver {backend}, {}, {:.3} s",
        plural(solved.calls, "call", "calls"),
        solved.elapsed.as_secs_f64()
    ));
    if let Some([first, second]) = solved.portfolio {
        note(format!(
            "portfolio: {first} and {second}; {} answered first",
            solved.encoding.config.card
        ));
    }
}
