//! Writing results: stdout lines that survive a closed pipe and report a
//! full disk, `c` notes on stderr that never fail the command, the stats
//! line, and the progress line of long work.

use std::{
    fmt::Display,
    io::{self, IsTerminal, Write},
    sync::{
        atomic::{AtomicUsize, Ordering},
        Mutex,
    },
    time::{Duration, Instant},
};

use anyhow::{Context, Result};
use boardsat_encode::{words::plural, Bound};
use boardsat_proof::{
    manifest::{RunResult, RunStatus},
    prover::{ProofError, Prover},
};
use boardsat_report::ProofSummary;
use boardsat_solve::{
    files::FileError,
    stop::{Interrupter, StopReason},
    Observe,
};

use crate::outcome::Outcome;

/// Stdout, line by line: each line is flushed, so what was printed before
/// an interrupt or a failure stays whole.
pub struct Stdout {
    out: io::LineWriter<io::StdoutLock<'static>>,
}

impl Stdout {
    /// The locked stdout.
    pub fn new() -> Self {
        Stdout {
            out: io::LineWriter::new(io::stdout().lock()),
        }
    }

    /// Prints one line.
    pub fn line(&mut self, text: impl Display) -> Result<()> {
        writeln!(self.out, "{text}").map_err(failed)
    }

    /// Prints text as it is (lines included).
    pub fn text(&mut self, text: &str) -> Result<()> {
        self.out.write_all(text.as_bytes()).map_err(failed)
    }

    /// Prints a value as one line of JSON.
    pub fn json(&mut self, value: &impl serde::Serialize) -> Result<()> {
        let text = serde_json::to_string(value).context("cannot encode the JSON report")?;
        self.line(text)
    }

    /// Flushes, reporting a full disk or a closed pipe.
    pub fn flush(&mut self) -> Result<()> {
        self.out.flush().map_err(failed)
    }

    /// The writer, for the DIMACS writer and the like.
    pub fn writer(&mut self) -> &mut dyn Write {
        &mut self.out
    }
}

/// A failed write to stdout, as one line (`cannot write to stdout: no space
/// left on device`); a closed pipe stays recognisable.
fn failed(e: io::Error) -> anyhow::Error {
    FileError::io(std::path::Path::new("stdout"), e).into()
}

/// A `c` note on stderr. A note is never worth failing the command for, so
/// a stderr that cannot be written (closed, full) is ignored.
pub fn note(text: impl Display) {
    let _ = writeln!(io::stderr(), "c {text}");
}

/// How an UNSAT answer the result depends on is backed, for the text
/// result: by a proof in a directory, or not at all (an external solver's
/// word), or by the embedded solver (nothing to add).
pub fn backing(proof: Option<&ProofSummary>, unverified: bool) -> String {
    match (proof, unverified) {
        (Some(p), _) => format!(
            "; proof in {}, verify with boardsat verify {}",
            p.dir, p.dir
        ),
        (None, true) => "; unverified: an external solver's answer".to_string(),
        (None, false) => String::new(),
    }
}

/// The proofs of a result (`--proof`): made after the result, reported
/// with it, and a failure to make them reported after it, which it must
/// not cost. The proof directory's manifest always ends saying how the
/// run ended and, when complete, its whole result.
pub struct Proven {
    /// What the proof directory holds, when it proves the whole result.
    pub summary: Option<ProofSummary>,
    /// What it holds whatever happened, and how the run ended.
    concluded: Option<(ProofSummary, RunStatus)>,
    error: Option<ProofError>,
    stop: Option<StopReason>,
}

/// Ends a proof run whose work ended in `error` before any result, so
/// that its MANIFEST never says "running" after the process is gone: the
/// status is how the run stopped (a signal, the time limit) or "failed"
/// with the error, the lock is released, and the proof directory is noted
/// as [`Proven::finish`] notes it. Returns the error to report.
pub fn abandon(
    prover: Option<Prover>,
    stop: &Interrupter,
    error: boardsat_solve::error::SolveError,
) -> anyhow::Error {
    if prover.is_none() {
        return error.into();
    }
    let stopped = stop.is_interrupted() || boardsat_solve::error::stop_reason(&error).is_some();
    // A stop is the error to report (its exit code); any other error is
    // the run's failure, recorded in the manifest.
    let (proved, kept) = if stopped {
        (Ok(None), Some(error))
    } else {
        (Err(ProofError::Solve(error)), None)
    };
    let finished = Proven::make(prover, stop, |_| proved).finish();
    match (kept, finished) {
        (Some(e), _) => e.into(),
        (None, Err(e)) => e,
        (None, Ok(_)) => anyhow::anyhow!("the run ended on an error before its result"),
    }
}

impl Proven {
    /// Runs `prove` with `prover`, if there is one: the claims behind the
    /// result, and the result they prove (none when there was none);
    /// `stop` says whether the run was stopped.
    pub fn make(
        prover: Option<Prover>,
        stop: &Interrupter,
        prove: impl FnOnce(&mut Prover) -> Result<Option<RunResult>, ProofError>,
    ) -> Self {
        let Some(mut prover) = prover else {
            return Proven {
                summary: None,
                concluded: None,
                error: None,
                stop: None,
            };
        };
        let proved = prove(&mut prover);
        let reason = stop.reason();
        let concluded = prover.conclude(proved, reason);
        Proven {
            summary: (concluded.status == RunStatus::Complete).then(|| concluded.summary.clone()),
            concluded: Some((concluded.summary, concluded.status)),
            error: concluded.error,
            stop: reason,
        }
    }

    /// Notes what the proof directory holds; the error of making it, if
    /// any; and, when the proofs were stopped before the whole result was
    /// proven, the outcome that says so (the time limit's, a signal's),
    /// which the command returns instead of its own.
    pub fn finish(self) -> Result<Option<Outcome>> {
        let Some((p, status)) = &self.concluded else {
            return Ok(None);
        };
        let claims = plural(p.claims, "claim", "claims");
        let size = format!(
            "{claims} in {} ({:.1} MB of LRAT)",
            p.dir,
            p.bytes as f64 / 1e6
        );
        match status {
            RunStatus::Complete if p.claims == 0 => note(format!(
                "proofs: no UNSAT answer to prove, the result found is its own certificate; {}/MANIFEST.json records it for 'boardsat verify {}'",
                p.dir, p.dir
            )),
            RunStatus::Complete => note(format!(
                "proofs: {size}; check them with 'boardsat verify {}'",
                p.dir
            )),
            RunStatus::Failed if self.error.is_some() => {}
            status => note(format!(
                "proofs: {size}, not the whole result: the run {} (its MANIFEST.json says so; 'boardsat verify {}' names what is missing)",
                status.words(),
                p.dir
            )),
        }
        if let Some(e) = self.error {
            return Err(e.into());
        }
        Ok(match status {
            RunStatus::TimeLimit | RunStatus::Interrupted => Some(Outcome::Stopped(self.stop)),
            _ => None,
        })
    }
}

/// Whether `--progress` asked for progress lines on a stderr that is not
/// a terminal (a log).
pub static PROGRESS_LINES: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// Progress on stderr while long work runs: on a terminal one line, redrawn
/// at most five times a second and cleared at the end; with `--progress`
/// elsewhere, a `c progress:` line at most once a second.
pub struct ProgressLine {
    terminal: bool,
    lines: bool,
    start: Instant,
    last: Option<Instant>,
    drawn: bool,
}

impl ProgressLine {
    /// Enabled when stderr is a terminal, or with `--progress`.
    pub fn new() -> Self {
        let terminal = io::stderr().is_terminal();
        ProgressLine {
            terminal,
            lines: !terminal && PROGRESS_LINES.load(std::sync::atomic::Ordering::Relaxed),
            start: Instant::now(),
            last: None,
            drawn: false,
        }
    }

    /// Shows `what` (with the elapsed time) if due.
    pub fn update(&mut self, what: impl FnOnce() -> String) {
        let every = Duration::from_millis(if self.lines { 1000 } else { 200 });
        if self.last.is_none_or(|t| t.elapsed() >= every) {
            self.show(what);
        }
    }

    /// Shows `what` now: for a step that is rare and worth a line (a bench
    /// cell done).
    pub fn show(&mut self, what: impl FnOnce() -> String) {
        if !(self.terminal || self.lines) {
            return;
        }
        self.last = Some(Instant::now());
        let secs = self.start.elapsed().as_secs_f64();
        if self.lines {
            let _ = writeln!(io::stderr(), "c progress: {}  {secs:.1} s", what());
        } else {
            self.drawn = true;
            let _ = write!(io::stderr(), "\r\x1b[2K{}  {secs:.1} s", what());
        }
    }

    /// Clears the line.
    pub fn finish(&mut self) {
        if std::mem::take(&mut self.drawn) {
            let _ = write!(io::stderr(), "\r\x1b[2K");
        }
    }
}

impl Drop for ProgressLine {
    fn drop(&mut self) {
        self.finish();
    }
}

/// An optimum's progress on a [`ProgressLine`] (`solve`, and the optimum
/// that `count` proves first): each call as it starts, then, while a call
/// is split into cubes, how many have their answer (at most one line a
/// second).
pub struct Observer<'a> {
    search: &'static str,
    progress: &'a Mutex<ProgressLine>,
    calls: AtomicUsize,
    /// The running call, as its line said it.
    call: Mutex<String>,
}

impl<'a> Observer<'a> {
    /// An observer whose lines start with `search` (`optimum`, `solve`).
    pub fn new(search: &'static str, progress: &'a Mutex<ProgressLine>) -> Self {
        Observer {
            search,
            progress,
            calls: AtomicUsize::new(0),
            call: Mutex::new(String::new()),
        }
    }
}

impl Observe for Observer<'_> {
    fn bound(&self, bound: Bound) {
        let call = self.calls.fetch_add(1, Ordering::Relaxed) + 1;
        let relation = match bound {
            Bound::AtMost(_) => "at most",
            Bound::AtLeast(_) => "at least",
            Bound::Exactly(_) => "exactly",
        };
        let pieces = plural(bound.k(), "piece", "pieces");
        let what = format!("{}: call {call}, {relation} {pieces}", self.search);
        if let Ok(mut running) = self.call.lock() {
            running.clone_from(&what);
        }
        if let Ok(mut line) = self.progress.lock() {
            line.show(|| what);
        }
    }

    fn cubes(&self, answered: usize) {
        let call = self.call.lock().map(|c| c.clone()).unwrap_or_default();
        if let Ok(mut line) = self.progress.lock() {
            line.update(|| format!("{call}: {} answered", plural(answered, "cube", "cubes")));
        }
    }
}
