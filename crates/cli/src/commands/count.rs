//! `boardsat count` and `boardsat enumerate`: every placement by blocking
//! clauses, counted or listed; without -k, the optimal ones.

use anyhow::Result;
use boardsat_solve::{
    proof,
    report::{squares, CountReport},
    task::{self, CountOptions, CubeFlags},
    End, SolverKind, StopReason,
};

use crate::{
    flags::{CountArgs, EnumerateArgs},
    hiargs,
    outcome::Outcome,
    output::{backing, note, ProgressLine, Proven, Stdout},
};

/// Runs `count`.
pub fn run(args: &CountArgs) -> Result<Outcome> {
    let (instance, solver, stop, mut prover) = hiargs::job(&args.job)?;
    let flags = CubeFlags {
        unique: args.unique,
        depth: args.depth,
        threads: args.threads,
        no_symmetry: args.no_symmetry,
        halve: args.halve,
    };
    let cubes = flags.options_for(&instance, args.limit, prover.is_some())?;
    let backend = solver.signature();
    if args.limit.is_none() && (instance.is_n_queens() || instance.splits() && prover.is_none()) {
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
    note(counted.encoding.summary());
    if counted.optimum.as_ref().is_some_and(|o| !o.proven) {
        let why = StopReason::words(reason);
        note(format!(
            "the optimum was not proven ({why}), so the optimal placements were not counted"
        ));
    }
    note(format!(
        "{} solutions ({} solver models){} in {:.3} s by {backend}{}{}",
        c.count,
        c.models,
        counted
            .optimum
            .as_ref()
            .filter(|o| o.proven)
            .map(|o| format!(" of the proven optimum {}", o.value))
            .unwrap_or_default(),
        counted.elapsed.as_secs_f64(),
        counted
            .cubes
            .map(|k| format!("; {}/{} cubes", k.done, k.total))
            .unwrap_or_default(),
        c.end.mark(reason)
    ));
    let proven = Proven::make(prover.take(), |p| {
        proof::prove_counted(p, &instance, &counted)
    });
    let summary = proven.summary.clone();
    let external = solver.kind == SolverKind::External && summary.is_none();
    let mut out = Stdout::new();
    if args.job.json {
        let mut report = CountReport::new(&counted, backend, reason);
        report.proof = summary.clone();
        report.unverified = external && c.end == End::Exhausted;
        out.json(&report)?;
    } else {
        let answer = (counted.fundamental.filter(|_| args.unique)).unwrap_or(c.count);
        let backed = backing(summary.as_ref(), external);
        match backed
            .strip_prefix("; ")
            .filter(|_| c.end == End::Exhausted)
        {
            Some(how) => out.line(format!("{answer} ({how})"))?,
            None => out.line(format!("{answer}{}", c.end.mark(reason)))?,
        }
    }
    out.flush()?;
    proven.finish()?;
    Ok(Outcome::of_end(c.end, reason))
}

/// Runs `enumerate`: each placement on its own line as soon as it is
/// found (or all of them in one JSON object).
pub fn enumerate(args: &EnumerateArgs) -> Result<Outcome> {
    let (instance, solver, stop, mut prover) = hiargs::job(&args.job)?;
    let backend = solver.signature();
    let start = std::time::Instant::now();
    let mut enumeration = task::enumerate(&instance, &solver, &stop)?;
    if prover.is_some() {
        enumeration.record();
    }
    note(enumeration.session().encoding().summary());
    let mut out = Stdout::new();
    let mut listed = Vec::new();
    let (end, found) = enumeration.list(args.limit, &stop, |placement| {
        if args.job.json {
            listed.push(squares(&placement));
            return Ok(());
        }
        out.line(&placement)
    })?;
    let reason = stop.reason();
    if let Some(o) = enumeration.optimum().filter(|o| !o.proven) {
        note(format!(
            "the optimum was not proven ({}; best found {}), so the optimal placements were not listed",
            StopReason::words(reason),
            o.value
        ));
    }
    note(format!(
        "{found} placements in {:.3} s by {backend}, {} solver calls{}",
        start.elapsed().as_secs_f64(),
        enumeration.session().calls(),
        end.mark(reason)
    ));
    let prover = prover.take().filter(|_| end == End::Exhausted);
    let proven = Proven::make(prover, |p| proof::prove_listed(p, &instance, &enumeration));
    let summary = proven.summary.clone();
    if args.job.json {
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
    proven.finish()?;
    Ok(Outcome::of_end(end, reason))
}
