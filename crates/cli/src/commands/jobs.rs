//! `boardsat jobs DIR`: what is done, split, running, failed and left in
//! a `cubes` directory, and the next round's job list
//! (`boardsat_jobs::rounds`); with `--run ENGINE`, the rounds handed to
//! an engine until every job has its answer (`boardsat_jobs::engine`).

use anyhow::{bail, Result};
use boardsat_encode::words::plural;
use boardsat_jobs::{
    self as jobs,
    engine::{drive, driving, given_up_line, Drive, Engine, RoundEvent},
    report::JobsReport,
    rounds::{rounds_listed, write_round, SplitStatus, State},
    tree::summary,
};

use crate::{
    flags::JobsArgs,
    outcome::Outcome,
    output::{note, ProgressLine, Stdout, Step},
    signals,
};

/// Runs `jobs DIR [--run ENGINE]`.
pub fn run(args: &JobsArgs) -> Result<Outcome> {
    let stop = signals::job();
    let program = jobs::job_program(&std::env::current_exe()?.to_string_lossy())?;
    let shown = args.dir.display().to_string();
    let engine = match args.run.as_deref() {
        None => {
            if args.sshloginfile.is_some() {
                bail!("--sshloginfile needs --run parallel");
            }
            return status(args, &program, &stop);
        }
        Some(name) => match Engine::named(name, args.sshloginfile.clone()) {
            Some(engine) => engine,
            None => bail!("no engine '{name}' ({})", Engine::NAMES.join(", ")),
        },
    };
    if args.sshloginfile.is_some() && !engine.takes_hosts() {
        bail!("--sshloginfile is GNU parallel's: it needs --run parallel");
    }
    let how = Drive {
        engine,
        max_tasks: args.max_tasks.map(|n| n as usize),
        retries: args.retries,
        program,
    };
    let watch = std::sync::Mutex::new(None::<Watch>);
    let driven = drive(&args.dir, &how, &stop, &|p| match p {
        RoundEvent::Started(round) => {
            note(format!(
                "round {} ({}): {} on {}",
                round.number,
                round.file.display(),
                jobs_word(round.ids.len()),
                how.engine.name()
            ));
            if let Ok(mut watch) = watch.lock() {
                *watch = Watch::start(&args.dir, round.number);
            }
        }
        RoundEvent::Ended(run) => {
            // The bar is cleared before the round's line.
            if let Ok(mut watch) = watch.lock() {
                drop(watch.take());
            }
            let mut line = format!(
                "round {} ended in {:.1} s: {} done, {} split into {} pieces",
                run.round.number, run.seconds, run.done, run.split, run.pieces
            );
            if !run.failed.is_empty() {
                line.push_str(&format!(
                    ", {} without an answer: {}",
                    run.failed.len(),
                    given_up_line(&run.failed)
                ));
            }
            note(line);
        }
    })?;
    let report = JobsReport::driven(&shown, &driven, rounds_listed(&args.dir)?);
    print(&report, &shown, args.json)?;
    if let Some(reason) = driven.stopped {
        return Ok(Outcome::Stopped(Some(reason)));
    }
    if !driven.given_up.is_empty() {
        bail!(
            "{} failed in {} and {} given up, so the split cannot be merged: {}; run 'boardsat jobs {shown} --run {}' again to retry",
            jobs_word(driven.given_up.len()),
            rounds_word(args.retries + 1),
            if driven.given_up.len() == 1 { "was" } else { "were" },
            given_up_line(&driven.given_up),
            how.engine.name()
        );
    }
    Ok(if report.finished {
        Outcome::Done
    } else {
        Outcome::Unfinished
    })
}

/// `jobs DIR`: the status, and the round of the jobs left.
fn status(
    args: &JobsArgs,
    program: &str,
    stop: &boardsat_solve::stop::Interrupter,
) -> Result<Outcome> {
    let status = SplitStatus::read(&args.dir)?;
    let left = status.left();
    // The next round is listed when this one has ended: no job runs, and
    // no driver is handing rounds to an engine.
    let driver = driving(&args.dir)?;
    let running = status.count(|s| matches!(s, State::Running(_)));
    let next = match left.is_empty() || running > 0 || driver.is_some() {
        true => None,
        false => Some(write_round(&args.dir, &left, program, Some(stop))?),
    };
    let shown = args.dir.display().to_string();
    let mut report = JobsReport::new(&shown, &status, rounds_listed(&args.dir)?, next.as_ref());
    report.driver = driver.map(|pid| pid.map_or("running".to_string(), |p| format!("pid {p}")));
    print(&report, &shown, args.json)?;
    Ok(if report.finished {
        Outcome::Done
    } else {
        Outcome::Unfinished
    })
}

/// The progress of a running round, on the progress bar or `c progress:`
/// lines: the split's jobs done (counted or split) of those known, read
/// from the split directory every second while the engine runs them.
struct Watch {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Watch {
    /// Watches round `number` of the split in `dir`, when progress is
    /// shown at all.
    fn start(dir: &std::path::Path, number: usize) -> Option<Watch> {
        let mut line = ProgressLine::new();
        if !line.shown() {
            return None;
        }
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let stopped = stop.clone();
        let dir = dir.to_path_buf();
        let thread = std::thread::spawn(move || loop {
            // A directory caught mid-write is read again next time; the
            // round's state is shown at least once, however short it is.
            if let Ok(status) = SplitStatus::read(&dir) {
                let done = status.count(|s| matches!(s, State::Done | State::Split));
                let running = status.count(|s| matches!(s, State::Running(_)));
                line.update(|| {
                    Step::from(format!("round {number}: {running} running")).of(
                        done as u64,
                        status.states.len() as u64,
                        ("job", "jobs"),
                    )
                });
            }
            if stopped.load(std::sync::atomic::Ordering::Relaxed) {
                line.finish();
                break;
            }
            std::thread::park_timeout(std::time::Duration::from_millis(500));
        });
        Some(Watch {
            stop,
            thread: Some(thread),
        })
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            thread.thread().unpark();
            let _ = thread.join();
        }
    }
}

fn jobs_word(n: usize) -> String {
    plural(n, "job", "jobs")
}

fn rounds_word(n: usize) -> String {
    plural(n, "round", "rounds")
}

/// The report in words: the jobs by state, what failed and runs, and
/// what to do next.
fn lines(report: &JobsReport, dir: &str) -> Vec<String> {
    let pieces = match report.depth.saturating_sub(1) {
        0 => "none split yet".to_string(),
        n => plural(n, "round of pieces", "rounds of pieces"),
    };
    let mut out = vec![format!(
        "{} ({pieces}): {} done, {} split, {} running, {} failed, {} left",
        jobs_word(report.jobs),
        report.done,
        report.split,
        report.running,
        report.failed,
        report.left
    )];
    if let Some(longest) = &report.longest {
        out.push(format!(
            "solver time: {:.1} s in all, the longest job {} {:.1} s",
            report.job_seconds, longest.id, longest.seconds
        ));
    }
    let named = |notes: &[boardsat_jobs::report::JobNote]| {
        let shown: Vec<String> = notes
            .iter()
            .map(|n| format!("{} ({})", n.id, n.why))
            .collect();
        summary(&shown)
    };
    if !report.failures.is_empty() {
        out.push(format!("failed: {}", named(&report.failures)));
    }
    if !report.running_jobs.is_empty() {
        out.push(format!("running: {}", named(&report.running_jobs)));
    }
    if report.finished {
        out.push(format!(
            "every job has its answer: 'boardsat merge {}{dir}' sums them",
            if report.proofs { "--verify " } else { "" }
        ));
    } else if let Some(next) = &report.next {
        out.push(format!(
            "round {} lists the {} left in {dir}/{}{}: run its lines from inside {dir} (or 'boardsat jobs {dir} --run ENGINE'), then 'boardsat jobs {dir}' again",
            next.round,
            jobs_word(next.jobs),
            next.file,
            if next.written { "" } else { " (unchanged)" }
        ));
    } else if let Some(driver) = &report.driver {
        out.push(format!(
            "a driver ('boardsat jobs {dir} --run', {driver}) runs the rounds: it lists the next one itself"
        ));
    } else if report.running > 0 {
        out.push(format!(
            "the next round is listed once the running jobs end: 'boardsat jobs {dir}' again then"
        ));
    }
    out
}

/// The report on stdout: JSON, or its lines.
fn print(report: &JobsReport, shown: &str, json: bool) -> Result<()> {
    let mut out = Stdout::new();
    if json {
        out.json(report)?;
    } else {
        for line in lines(report, shown) {
            out.line(line)?;
        }
    }
    out.flush()?;
    Ok(())
}
