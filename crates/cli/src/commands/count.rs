//! `boardsat count` and `boardsat enumerate`: every placement by blocking
//! clauses, counted or listed; without -k, the optimal ones.

use anyhow::{bail, Result};
use boardsat_solve::{
    cubes::{CubeOptions, Reduction},
    proof,
    report::{squares, CountReport},
    task::{self, CountOptions, Instance},
    End, SolveError, SolverKind,
};

use crate::{
    flags::{CountArgs, EnumerateArgs},
    hiargs,
    outcome::Outcome,
    output::{backing, mark, note, note_proofs, stats_line, why_stopped, ProgressLine, Stdout},
};

/// The cube options of a count, after checking that the flags apply.
fn cube_options(args: &CountArgs, instance: &Instance) -> Result<CubeOptions> {
    let cubes = instance.is_n_queens() && args.limit.is_none();
    let given = [
        ("--unique", args.unique),
        ("--depth", args.depth.is_some()),
        ("--threads", args.threads.is_some()),
        ("--no-symmetry", args.no_symmetry),
        ("--halve", args.halve),
    ];
    if let Some((flag, _)) = given.iter().find(|(_, set)| *set).filter(|_| !cubes) {
        bail!("{flag} applies to 'count queens N' without --limit");
    }
    if args.unique && (args.no_symmetry || args.halve) {
        bail!(
            "--unique counts orbits, which needs symmetry breaking: drop --no-symmetry and --halve"
        );
    }
    Ok(CubeOptions {
        depth: args.depth.unwrap_or(2),
        threads: args
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |t| t.get()))
            .max(1),
        reduction: if args.no_symmetry {
            Reduction::None
        } else if args.halve {
            Reduction::Halve
        } else {
            Reduction::Symmetry
        },
        record: false,
    })
}

/// Runs `count`.
pub fn run(args: &CountArgs) -> Result<Outcome> {
    let instance = hiargs::instance(&args.problem)?;
    let solver = hiargs::solver(&args.solver)?;
    let cubes = cube_options(args, &instance)?;
    let stop = hiargs::stop(&args.solver);
    let mut prover = hiargs::prover(&args.proof, args.problem.force, &stop)?;
    let backend = solver.signature();
    if instance.is_n_queens() && args.limit.is_none() {
        note(format!(
            "cubes of depth {} over {} threads, {}",
            cubes.depth,
            cubes.threads,
            cubes.reduction.name()
        ));
    }
    let progress = std::sync::Mutex::new(ProgressLine::new());
    let counted = task::count(
        &instance,
        &solver,
        CountOptions {
            limit: args.limit,
            cubes,
            record: prover.is_some(),
        },
        &stop,
        &|p, done| {
            if let Ok(mut line) = progress.lock() {
                line.update(|| match done {
                    Some(d) => format!("counting: {} solutions, {d} cubes done", p.count),
                    None => format!("counting: {} solutions  {:.0}/s", p.count, p.rate()),
                });
            }
        },
    )?;
    drop(progress);
    let reason = stop.reason();
    let c = &counted.count;
    note(stats_line(&counted.encoding));
    if let Some(o) = &counted.optimum {
        match o.proven {
            true => note(format!(
                "optimum {} (proven); its placements counted",
                o.value
            )),
            false => note(format!(
                "the optimum was not proven ({}), so the optimal placements were not counted",
                why_stopped(reason)
            )),
        }
    }
    note(format!(
        "{} solutions ({} solver models) in {:.3} s by {backend}{}{}",
        c.count,
        c.models,
        counted.elapsed.as_secs_f64(),
        counted
            .cubes
            .map(|k| format!("; {}/{} cubes", k.done, k.total))
            .unwrap_or_default(),
        mark(c.end, reason)
    ));
    let proven = prover
        .take()
        .map(|mut p| proof::prove_counted(&mut p, &instance, &counted).map(|()| p.finish()));
    let summary = proven.as_ref().and_then(|r| r.as_ref().ok()).cloned();
    let external = solver.kind == SolverKind::External && summary.is_none();
    let mut out = Stdout::new();
    if args.json {
        let mut report = CountReport::new(&counted, backend, reason);
        report.proof = summary.clone();
        report.unverified = external && c.end == End::Exhausted;
        out.json(&report)?;
    } else {
        let answer = if args.unique { c.models } else { c.count };
        let backed = if c.end == End::Exhausted {
            backing(summary.as_ref(), external)
        } else {
            String::new()
        };
        match backed.strip_prefix("; ") {
            Some(how) => out.line(format!("{answer} ({how})"))?,
            None => out.line(format!("{answer}{}", mark(c.end, reason)))?,
        }
    }
    out.flush()?;
    note_proofs(summary.as_ref());
    if let Some(Err(e)) = proven {
        return Err(e.into());
    }
    Ok(match c.end {
        End::Exhausted | End::Limit => Outcome::Done,
        End::Stopped => Outcome::Stopped(reason),
    })
}

/// Runs `enumerate`: each placement on its own line as soon as it is
/// found (or all of them in one JSON object).
pub fn enumerate(args: &EnumerateArgs) -> Result<Outcome> {
    let instance = hiargs::instance(&args.problem)?;
    let solver = hiargs::solver(&args.solver)?;
    let stop = hiargs::stop(&args.solver);
    let mut prover = hiargs::prover(&args.proof, args.problem.force, &stop)?;
    let backend = solver.signature();
    let start = std::time::Instant::now();
    let mut enumeration = task::enumerate(&instance, &solver, &stop)?;
    if prover.is_some() {
        enumeration.record();
    }
    note(stats_line(enumeration.session().encoding()));
    let mut out = Stdout::new();
    let mut found = 0u64;
    let mut listed = Vec::new();
    let mut failure = None;
    let mut solutions = enumeration.solutions(args.limit);
    for result in solutions.by_ref() {
        match result {
            Ok(placement) => {
                found += 1;
                if args.json {
                    listed.push(squares(&placement));
                } else {
                    out.line(&placement)?;
                }
            }
            Err(SolveError::Stopped { .. }) => break,
            Err(e) => {
                failure = Some(e);
                break;
            }
        }
    }
    let end = solutions.end().unwrap_or(End::Stopped);
    let reason = stop.reason();
    if let Some(e) = failure {
        if reason.is_none() {
            return Err(e.into());
        }
    }
    let end = if enumeration.ready() {
        end
    } else {
        End::Stopped
    };
    if let Some(o) = enumeration.optimum().filter(|o| !o.proven) {
        note(format!(
            "the optimum was not proven ({}; best found {}), so the optimal placements were not listed",
            why_stopped(reason),
            o.value
        ));
    }
    note(format!(
        "{found} placements in {:.3} s by {backend}, {} solver calls{}",
        start.elapsed().as_secs_f64(),
        enumeration.session().calls(),
        mark(end, reason)
    ));
    let proven = prover
        .take()
        .filter(|_| end == End::Exhausted)
        .map(|mut p| proof::prove_listed(&mut p, &instance, &enumeration).map(|()| p.finish()));
    let summary = proven.as_ref().and_then(|r| r.as_ref().ok()).cloned();
    if args.json {
        let count = boardsat_solve::Count {
            count: found,
            models: found,
            end,
            elapsed: start.elapsed(),
        };
        let mut report = CountReport::of(
            &count,
            enumeration.optimum(),
            enumeration.session().encoding(),
            backend,
            reason,
        );
        report.command = "enumerate";
        report.placements = Some(listed);
        report.proof = summary.clone();
        report.unverified = solver.kind == SolverKind::External && end == End::Exhausted;
        out.json(&report)?;
    }
    out.flush()?;
    note_proofs(summary.as_ref());
    if let Some(Err(e)) = proven {
        return Err(e.into());
    }
    Ok(match end {
        End::Exhausted | End::Limit => Outcome::Done,
        End::Stopped => Outcome::Stopped(reason),
    })
}
