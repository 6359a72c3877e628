//! `boardsat count` and `boardsat enumerate`: every placement by blocking
//! clauses, counted or listed; without -k, the optimal ones.

use anyhow::Result;
use boardsat_encode::words::plural;
use boardsat_proof::{
    split::SplitProver,
    tasks::{prove_counted, prove_listed},
};
use boardsat_report::{squares, CountReport};
use boardsat_solve::{
    search::{
        certify::Certify,
        count::{Count, End, Keep, Progress, Proofs},
        pool::CubesDone,
    },
    stop::StopReason,
    task::{
        count::{count, CountFlags},
        enumerate::enumerate as list_placements,
    },
};

use crate::{
    flags::{CountArgs, EnumerateArgs},
    hiargs,
    outcome::Outcome,
    output::{abandon, backing, note, Observer, ProgressLine, Proven, Stdout},
};

/// Runs `count`.
pub fn run(args: &CountArgs) -> Result<Outcome> {
    let (instance, solver, stop, mut prover) = hiargs::job(&args.job)?;
    let flags = CountFlags {
        limit: args.limit,
        unique: args.unique,
        depth: args.depth,
        threads: args.threads,
        budget: args.cube_budget.and_then(boardsat_solve::stop::seconds),
        no_symmetry: args.no_symmetry,
        halve: args.halve,
    };
    let proofs = if prover.is_some() {
        Proofs::On
    } else {
        Proofs::Off
    };
    let plan = flags.plan(&instance, proofs)?;
    let backend = solver.signature();
    if let Some(line) = plan.describe() {
        note(line);
    }
    let progress = std::sync::Mutex::new(ProgressLine::new());
    let show = |p: &Progress, done: Option<CubesDone>| {
        if let Ok(mut line) = progress.lock() {
            line.update(|| match done {
                Some(c) => format!(
                    "counting: {}, {} of {} done",
                    plural(p.count, "solution", "solutions"),
                    c.done,
                    plural(c.known, "cube", "cubes")
                ),
                None => format!(
                    "counting: {}  {:.0}/s",
                    plural(p.count, "solution", "solutions"),
                    p.rate()
                ),
            });
        }
    };
    // Domination counts are proven cube by cube as they are counted.
    let traced = plan.keep == Keep::Traced;
    let splits = prover.as_mut().filter(|_| traced).map(SplitProver::new);
    let certify = splits.as_ref().map(|s| s as &dyn Certify);
    // A count without k proves its optimum first, split into cubes.
    let observe = Observer::new("optimum", &progress);
    let counted = count(&instance, &solver, &plan, &stop, &show, &observe, certify);
    drop(splits);
    drop(progress);
    let counted = counted.map_err(|e| abandon(prover.take(), &stop, e))?;
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
        "{} ({}){} in {:.3} s by {backend}{}{}",
        plural(c.count, "solution", "solutions"),
        plural(c.models, "solver model", "solver models"),
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
    let proven = Proven::make(prover.take(), &stop, |p| {
        prove_counted(p, &instance, &counted)
    });
    let summary = proven.summary.clone();
    let mut out = Stdout::new();
    if args.job.json {
        let report = CountReport::new(&counted, backend, reason).with_proof(summary);
        out.json(&report)?;
    } else {
        let answer = counted.answer(&plan);
        let unverified = counted.unverified && summary.is_none();
        let backed = backing(summary.as_ref(), unverified);
        match backed
            .strip_prefix("; ")
            .filter(|_| c.end == End::Exhausted)
        {
            Some(how) => out.line(format!("{answer} ({how})"))?,
            None => out.line(format!("{answer}{}", c.end.mark(reason)))?,
        }
    }
    out.flush()?;
    if let Some(outcome) = proven.finish()? {
        return Ok(outcome);
    }
    Ok(Outcome::of_end(c.end, reason))
}

/// Runs `enumerate`: each placement on its own line as soon as it is
/// found (or all of them in one JSON object).
pub fn enumerate(args: &EnumerateArgs) -> Result<Outcome> {
    let (instance, solver, stop, mut prover) = hiargs::job(&args.job)?;
    let backend = solver.signature();
    let start = std::time::Instant::now();
    let mut enumeration =
        list_placements(&instance, &solver, &stop).map_err(|e| abandon(prover.take(), &stop, e))?;
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
        "{} in {:.3} s by {backend}, {}{}",
        plural(found, "placement", "placements"),
        start.elapsed().as_secs_f64(),
        plural(enumeration.session().calls(), "solver call", "solver calls"),
        end.mark(reason)
    ));
    let proven = Proven::make(prover.take(), &stop, |p| {
        prove_listed(p, &instance, &enumeration, end)
    });
    let summary = proven.summary.clone();
    if args.job.json {
        let count = Count {
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
        report.unverified = enumeration.unverified(end);
        let report = report.with_proof(summary);
        out.json(&report)?;
    }
    out.flush()?;
    if let Some(outcome) = proven.finish()? {
        return Ok(outcome);
    }
    Ok(Outcome::of_end(end, reason))
}
