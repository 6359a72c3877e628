//! `boardsat cubes` writes a count as independent cube jobs, or estimates
//! what running them costs; `boardsat merge` sums their answers, and with
//! `--verify` checks the whole split and its proofs (see
//! `boardsat_jobs`, `boardsat_proof::verify::jobs`).

use std::path::Path;

use anyhow::{bail, Result};
use boardsat_encode::words::plural;
use boardsat_jobs::{
    self as jobs,
    estimate::{estimate, estimate_in_process, EstimateOptions, Sampled},
    report::{CubesReport, EstimateReport, MergeReport},
    split::{Split, SplitSpec},
    Budget, JobLines,
};
use boardsat_proof::verify::{jobs::verify_jobs, json::VerifyReport, Checks, Finding};
use boardsat_solve::{
    backend::spec::SolverSpec,
    search::{count::Proofs, pool::Cubes},
    stop::{seconds, Interrupter},
};

use crate::{
    flags::{CubesArgs, MergeArgs},
    outcome::Outcome,
    output::{note, Stdout},
    signals,
};

/// Runs `cubes queens N --depth D -o DIR` (or `cubes domination N -k K`),
/// with `--estimate N` solving a sample of the cubes first.
pub fn run(args: &CubesArgs) -> Result<Outcome> {
    let stop = signals::job();
    let a = args;
    refuse_unused_with_in_process(a)?;
    let depth = a
        .depth
        .unwrap_or(boardsat_solve::search::pool::EXPORT_DEPTH);
    let cubes = if a.no_halve {
        Cubes::All
    } else {
        Cubes::OnePerOrbit
    };
    let spec = SplitSpec {
        family: a.family,
        n: a.n,
        k: a.k,
        depth,
        cubes,
        amo: a.amo,
        card: a.card,
        format: a.format,
        lex: a.lex_leader,
    };
    let budget = match args.job_budget.and_then(seconds) {
        Some(time) => {
            if let Some(max) = args.max_depth.filter(|&max| max <= depth) {
                bail!(
                    "--max-depth {max} is not deeper than --depth {depth}: no job could be split"
                );
            }
            Some(Budget {
                time,
                max_depth: args.max_depth,
            })
        }
        None => None,
    };
    let split = Split::of(&spec)?;
    if let Some(dir) = &args.output {
        write(args, dir, &split, budget, &stop)?;
    }
    let mut out = Stdout::new();
    match args.estimate {
        Some(sample) => run_estimate(args, sample, &split, &stop, &mut out)?,
        None if args.json => out.json(&CubesReport {
            command: "cubes",
            dir: args
                .output
                .as_ref()
                .map_or(String::new(), |d| d.display().to_string()),
            cubes: split.cubes.len(),
            format: args.format.name(),
        })?,
        None => {}
    }
    out.flush()?;
    Ok(Outcome::Done)
}

/// `--in-process` sizes the in-process run, whose cubes are one per
/// orbit with the lex-leader constraints under their stabilizers, and
/// with `--refute` two outer rings deep: without `-o` (a split written as
/// well), an option that shapes only the exported cubes would do nothing,
/// and is refused rather than ignored.
fn refuse_unused_with_in_process(a: &CubesArgs) -> Result<()> {
    if !a.in_process || a.output.is_some() {
        return Ok(());
    }
    let unused = [
        (a.no_halve, "--no-halve", "its cubes are one per orbit"),
        (
            a.lex_leader,
            "--lex-leader",
            "its cubes carry the lex-leader constraints anyway",
        ),
        (
            a.refute && a.depth.is_some(),
            "--depth",
            "with --refute its cubes are two outer rings deep",
        ),
    ];
    if let Some((_, flag, why)) = unused.into_iter().find(|(given, _, _)| *given) {
        bail!("{flag} does not apply to --in-process estimates ({why}); it shapes only a split written with -o");
    }
    Ok(())
}

/// Writes the split into `dir` with its job lines, and says how to run it.
fn write(
    args: &CubesArgs,
    dir: &Path,
    split: &Split,
    budget: Option<Budget>,
    stop: &Interrupter,
) -> Result<()> {
    let exe = std::env::current_exe()?;
    let lines = JobLines {
        program: jobs::job_program(&exe.to_string_lossy())?,
        proofs: if args.proof { Proofs::On } else { Proofs::Off },
        proof_format: args.proof_format.of(),
        proof_compression: args.proof_compression.of(),
        budget,
    };
    jobs::write_split(dir, split, &lines, args.replace, Some(stop))?;
    let shown = dir.display();
    let verify = if args.proof { "--verify " } else { "" };
    let cubes = plural(split.cubes.len(), "cube", "cubes");
    note(match budget {
        None => format!(
            "{cubes} in {shown}; run the lines of {} from inside it with any scheduler (e.g. 'cd {shown} && parallel < {}'), then 'boardsat merge {verify}{shown}'",
            jobs::JOBS,
            jobs::JOBS,
        ),
        Some(_) => format!(
            "{cubes} in {shown}, each split again past its budget; run the rounds with 'boardsat jobs {shown} --run local|parallel|slurm' (or the lines of {} from inside it, then of each round 'boardsat jobs {shown}' lists), then 'boardsat merge {verify}{shown}'",
            jobs::JOBS,
        ),
    });
    Ok(())
}

/// `--estimate SAMPLE`: solve that many cubes chosen at random and print
/// the projection.
fn run_estimate(
    args: &CubesArgs,
    sample: usize,
    split: &Split,
    stop: &Interrupter,
    out: &mut Stdout,
) -> Result<()> {
    let options = EstimateOptions {
        sample,
        cube_limit: args.cube_limit.and_then(seconds),
        seed: args.seed,
        threads: args.threads.unwrap_or(1).max(1),
        refute: args.refute.then_some(jobs::estimate::PROBE),
    };
    let solver = SolverSpec::choose(None, None, None)?;
    let tell = |s: &Sampled| {
        let how = match (s.pieces, s.complete) {
            (1, true) => String::new(),
            (1, false) => " (stopped by --cube-limit)".to_string(),
            (p, complete) => format!(
                " projected from one of its {p} pieces, {}, {} in {:.3} s{}{}",
                s.piece,
                if complete { "solved" } else { "stopped" },
                s.seconds * s.deflation / p as f64,
                if complete { "" } else { " (no ring left)" },
                if s.deflation > 1.0 {
                    format!(", divided by {:.2} for the cube solved whole", s.deflation)
                } else {
                    String::new()
                }
            ),
        };
        note(format!(
            "{}: {:.3} s, {}{how}",
            s.id,
            s.seconds,
            plural(s.count, "model", "models")
        ));
    };
    let estimated = if args.in_process {
        estimate_in_process(split, options, &solver, stop, &tell)?
    } else {
        estimate(split, options, &solver, stop, &tell)?
    };
    let report = EstimateReport::new(&estimated, args.seed);
    if args.json {
        out.json(&report)?;
    } else {
        out.line(estimate_line(&report, args.cube_limit))?;
    }
    Ok(())
}

/// The estimate in words: the projection, its interval, the sample and
/// the longest cube; "at least" when a cube reached the limit.
fn estimate_line(report: &EstimateReport, limit: Option<f64>) -> String {
    let stopped = report.sampled.iter().filter(|s| !s.complete).count();
    let pieced = report.sampled.iter().filter(|s| s.pieces > 1).count();
    let at_least = if report.lower_bound { "at least " } else { "" };
    let interval = match report.interval {
        Some([low, high]) => format!("95 % interval {low:.1} to {high:.1} s"),
        None => "no interval: one cube measures no spread".to_string(),
    };
    let mut line = format!(
        "projected CPU time: {at_least}{:.1} s for {} cubes ({interval}), from {} solved",
        report.projected_seconds,
        report.cubes,
        plural(report.sampled.len(), "cube", "cubes")
    );
    if let Some(longest) = &report.longest {
        line.push_str(&format!(
            "; longest {} {:.3} s",
            longest.id, longest.seconds
        ));
    }
    if pieced > 0 {
        line.push_str(&format!(
            "; {pieced} past the {} s limit projected from a random piece",
            limit.unwrap_or(0.0)
        ));
    }
    if stopped > 0 {
        line.push_str(&format!(
            "; {stopped} stopped by the {} s limit with no ring left to split",
            limit.unwrap_or(0.0)
        ));
    }
    line
}

/// Runs `merge DIR`, and with `--verify` the split's verification first.
pub fn merge(args: &MergeArgs) -> Result<Outcome> {
    let mut out = Stdout::new();
    if args.checker.checker.is_some() && !args.verify {
        bail!("--checker checks proofs: it goes with --verify");
    }
    let mut checked_by = String::new();
    if args.verify {
        let stop = signals::job();
        let external = match super::verify::external_checker(&args.checker) {
            Ok(external) => external,
            Err(e) => {
                let refused = boardsat_proof::verify::Verification::failed(e.into());
                return super::verify::report(&refused, args.json);
            }
        };
        let checks = Checks::new(Some(&stop)).with_external(external.as_ref());
        let verification = verify_jobs(&args.dir, checks)?;
        if let Some(reason) = stop.reason() {
            let report = VerifyReport::stopped(&verification, reason.word());
            super::verify::print(&report, args.json)?;
            return Ok(Outcome::Stopped(Some(reason)));
        }
        let report = VerifyReport::new(&verification);
        if !report.verified {
            super::verify::print(&report, args.json)?;
            return Ok(Outcome::Rejected);
        }
        if let Some(c) = &report.external_checker {
            checked_by = format!(
                ", every job's proof accepted by {} ({}) too",
                c.name, c.program
            );
        }
        let lines = report.lines();
        note(format!(
            "{} verified; {}",
            plural(
                verification
                    .verdicts
                    .iter()
                    .filter(|v| matches!(v.outcome, Finding::Verified { steps: Some(_), .. }))
                    .count(),
                "job's LRAT proof",
                "jobs' LRAT proofs"
            ),
            lines.iter().rev().nth(1).map_or("", String::as_str)
        ));
    }
    let merged = jobs::merge(&args.dir)?;
    if args.json {
        out.json(&MergeReport::new(&merged, args.verify))?;
    } else {
        out.line(merged.count)?;
    }
    out.flush()?;
    let pieces = match merged.jobs - merged.cubes {
        0 => String::new(),
        n => format!(
            " ({n} of them pieces of jobs split past their budget, {} deep)",
            plural(merged.rounds - 1, "round", "rounds")
        ),
    };
    let orbits = merged
        .orbits
        .map_or(String::new(), |o| format!(" ({o} up to symmetry)"));
    note(format!(
        "{} answered{pieces}; weighted total {}{orbits}{}{checked_by}",
        plural(merged.jobs, "job", "jobs"),
        merged.count,
        if args.verify {
            ", every cube's count proven and the split's cover checked"
        } else {
            ""
        }
    ));
    Ok(Outcome::Done)
}
