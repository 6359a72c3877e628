//! `boardsat count` and `boardsat enumerate`: every placement by blocking
//! clauses, counted or listed; without -k, the optimal ones.

use std::sync::Mutex;

use anyhow::Result;
use boardsat_encode::words::plural;
use boardsat_proof::{
    proven_count::{self, CountTask, ProvenCount},
    prover::Task,
    tasks::prove_listed,
};
use boardsat_report::{squares, CountReport};
use boardsat_solve::{
    search::{
        count::{Count, End, Progress},
        pool::CubesDone,
    },
    stop::StopReason,
    task::{
        count::{CountFlags, Counted},
        enumerate::{enumerate as list_placements, Enumeration},
    },
};

use crate::{
    flags::{CountArgs, EnumerateArgs},
    hiargs,
    outcome::Outcome,
    output::{abandon, backing, note, Observer, ProgressLine, Proven, Stdout, Step},
};

/// Runs `count`: the count and its proof by the library's one road
/// ([`CountTask`]); here its progress, notes and answer.
pub fn run(args: &CountArgs) -> Result<Outcome> {
    let (instance, solver, stop) = hiargs::job(&args.job)?;
    let plan = proven_count::plan(&flags(args), &instance, args.job.proof.proof.as_deref())?;
    let prover = hiargs::prover(&args.job.proof, &stop, &Task::count(&instance, &plan))?;
    let backend = solver.signature();
    if let Some(line) = plan.describe() {
        note(line);
    }
    let progress = Mutex::new(ProgressLine::new());
    let show = |p: &Progress, done: Option<CubesDone>| show_count(&progress, p, done);
    // A count without k proves its optimum first, split into cubes.
    let observe = Observer::new("optimum", &progress);
    let task = CountTask {
        instance: &instance,
        solver: &solver,
        plan: &plan,
        stop: &stop,
        progress: &show,
        observe: &observe,
    };
    let clear = || progress.lock().map(|mut line| line.finish()).unwrap_or(());
    // How the count ended, as it ended (not as its proof did).
    let mut reason = None;
    let ProvenCount { counted, proof } = task
        .run(prover, |counted| {
            clear();
            reason = stop.reason();
            note_counted(counted, &backend, reason);
        })
        .map_err(|failed| {
            clear();
            abandon(failed.prover, &stop, failed.error)
        })?;
    let proven = Proven::of(proof, &stop);
    let c = &counted.count;
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

/// The count's flags as the library takes them.
fn flags(args: &CountArgs) -> CountFlags {
    CountFlags {
        limit: args.limit,
        unique: args.unique,
        depth: args.depth,
        threads: args.threads,
        budget: args.cube_budget.and_then(boardsat_solve::stop::seconds),
        stop_after_cubes: args.stop_after_cubes,
        no_symmetry: args.no_symmetry,
        halve: args.halve,
    }
}

/// The count so far on the progress line: the solutions, and the cubes
/// done of those known (or the rate, without cubes).
fn show_count(progress: &Mutex<ProgressLine>, p: &Progress, done: Option<CubesDone>) {
    if let Ok(mut line) = progress.lock() {
        line.update(|| match done {
            Some(c) => Step::from(format!(
                "counting: {}",
                plural(p.count, "solution", "solutions")
            ))
            .of(c.done as u64, c.known as u64, ("cube", "cubes")),
            None => Step::from(format!(
                "counting: {}  {:.0}/s",
                plural(p.count, "solution", "solutions"),
                p.rate()
            )),
        });
    }
}

/// The notes on a finished count, before its proof: the encoding, an
/// optimum that was not proven, and the count with its time, backend and
/// cubes.
fn note_counted(counted: &Counted, backend: &str, reason: Option<StopReason>) {
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
}

/// Runs `enumerate`: each placement on its own line as soon as it is
/// found (or all of them in one JSON object).
pub fn enumerate(args: &EnumerateArgs) -> Result<Outcome> {
    let (instance, solver, stop) = hiargs::job(&args.job)?;
    let task = Task::enumerate(&instance, args.limit);
    let mut prover = hiargs::prover(&args.job.proof, &stop, &task)?;
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
    note_listed(
        &enumeration,
        &backend,
        (found, end),
        start.elapsed(),
        reason,
    );
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

/// The notes on a finished enumeration, before its proof: an optimum
/// that was not proven, and the placements `listed` (how many, how it
/// ended) with their time, backend and solver calls.
fn note_listed(
    enumeration: &Enumeration,
    backend: &str,
    listed: (u64, End),
    elapsed: std::time::Duration,
    reason: Option<StopReason>,
) {
    let (found, end) = listed;
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
        elapsed.as_secs_f64(),
        plural(enumeration.session().calls(), "solver call", "solver calls"),
        end.mark(reason)
    ));
}
