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
    prover::{Concluded, ProofError, Prover},
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
        let concluded = prover.map(|mut prover| {
            let proved = prove(&mut prover);
            prover.conclude(proved, stop.reason())
        });
        Proven::of(concluded, stop)
    }

    /// The proofs of a run that the library concluded (`concluded`, none
    /// without a prover); `stop` says whether the run was stopped.
    pub fn of(concluded: Option<Concluded>, stop: &Interrupter) -> Self {
        let Some(concluded) = concluded else {
            return Proven {
                summary: None,
                concluded: None,
                error: None,
                stop: None,
            };
        };
        Proven {
            summary: (concluded.status == RunStatus::Complete).then(|| concluded.summary.clone()),
            concluded: Some((concluded.summary, concluded.status)),
            error: concluded.error,
            stop: stop.reason(),
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

/// Where progress goes, chosen once for the whole command
/// ([`choose_progress`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProgressTo {
    /// Nowhere: stderr is not a terminal and `--progress` was not given.
    Nowhere,
    /// A progress bar, redrawn in place: stderr is a terminal and stdout
    /// is not JSON.
    Bar,
    /// `c progress:` lines, at most one a second (`--progress`): for logs
    /// and pipes.
    Lines,
}

static PROGRESS_TO: std::sync::OnceLock<ProgressTo> = std::sync::OnceLock::new();

/// Chooses where progress goes: a bar on a terminal (never with `--json`),
/// `c progress:` lines with `--progress` elsewhere, else nowhere.
pub fn choose_progress(lines: bool, json: bool) {
    let to = if io::stderr().is_terminal() && !json {
        ProgressTo::Bar
    } else if lines {
        ProgressTo::Lines
    } else {
        ProgressTo::Nowhere
    };
    let _ = PROGRESS_TO.set(to);
}

fn progress_to() -> ProgressTo {
    *PROGRESS_TO.get().unwrap_or(&ProgressTo::Nowhere)
}

/// One step of long work: what it is at (`counting: 60 solutions`) and,
/// when the work is a known number of parts, how many are done.
pub struct Step {
    what: String,
    of: Option<Of>,
}

/// `done` of `known` parts, named by `unit` (singular, plural).
struct Of {
    done: u64,
    known: u64,
    unit: (&'static str, &'static str),
}

impl Step {
    /// `done` of `known` parts (`cube`, `cubes`) are done; the number
    /// known may grow (cubes split again).
    pub fn of(mut self, done: u64, known: u64, unit: (&'static str, &'static str)) -> Step {
        self.of = Some(Of { done, known, unit });
        self
    }

    /// The step as a `c progress:` line says it.
    fn line(&self) -> String {
        match &self.of {
            Some(of) => format!(
                "{}, {} of {} done",
                self.what,
                of.done,
                plural(of.known, of.unit.0, of.unit.1)
            ),
            None => self.what.clone(),
        }
    }
}

impl From<String> for Step {
    fn from(what: String) -> Step {
        Step { what, of: None }
    }
}

/// Progress on stderr while long work runs: on a terminal a bar (parts
/// done of those known, what was found, the time elapsed and, from the
/// rate so far, the time left), redrawn at most five times a second and
/// cleared at the end; with `--progress` elsewhere, a `c progress:` line
/// at most once a second; otherwise nothing.
pub struct ProgressLine {
    to: ProgressTo,
    bar: Option<indicatif::ProgressBar>,
    start: Instant,
    last: Option<Instant>,
    /// When the first step with parts came (a count's cubes, after its
    /// optimum): the rate of parts done is measured from there.
    parts_since: Option<Instant>,
}

impl ProgressLine {
    /// Progress where [`choose_progress`] said.
    pub fn new() -> Self {
        ProgressLine {
            to: progress_to(),
            bar: None,
            start: Instant::now(),
            last: None,
            parts_since: None,
        }
    }

    /// Whether progress is shown at all.
    pub fn shown(&self) -> bool {
        self.to != ProgressTo::Nowhere
    }

    /// Shows `step` if due.
    pub fn update<S: Into<Step>>(&mut self, step: impl FnOnce() -> S) {
        let every = Duration::from_millis(if self.to == ProgressTo::Lines {
            1000
        } else {
            200
        });
        if self.last.is_none_or(|t| t.elapsed() >= every) {
            self.show(step);
        }
    }

    /// Shows `step` now: for a step that is rare and worth a line (a bench
    /// cell done).
    pub fn show<S: Into<Step>>(&mut self, step: impl FnOnce() -> S) {
        if self.to == ProgressTo::Nowhere {
            return;
        }
        self.last = Some(Instant::now());
        let step = step().into();
        if self.to == ProgressTo::Lines {
            let secs = self.start.elapsed().as_secs_f64();
            let _ = writeln!(io::stderr(), "c progress: {}  {secs:.1} s", step.line());
            return;
        }
        let start = self.start;
        let new = self.bar.is_none();
        // Made hidden, and shown once its first step is set in full.
        let bar = self.bar.get_or_insert_with(|| {
            let bar = indicatif::ProgressBar::with_draw_target(
                None,
                indicatif::ProgressDrawTarget::hidden(),
            );
            // The bar's clock starts with the work, not with its first step.
            bar.set_elapsed(start.elapsed());
            bar
        });
        bar.set_message(step.what);
        match &step.of {
            Some(of) => {
                let unit = if of.known == 1 { of.unit.0 } else { of.unit.1 };
                let since = *self.parts_since.get_or_insert_with(Instant::now);
                bar.set_style(bar_style(
                    &format!(
                        "{{elapsed_precise}} [{{bar:24}}] {{pos}}/{{len}} {unit}  {{msg}}{{left}}"
                    ),
                    since,
                ));
                bar.set_length(of.known);
                bar.set_position(of.done);
            }
            None => bar.set_style(bar_style("{spinner} {elapsed_precise}  {msg}", self.start)),
        }
        if new {
            bar.set_draw_target(indicatif::ProgressDrawTarget::stderr_with_hz(5));
            // The clock and the spinner move while a long cube runs.
            bar.enable_steady_tick(Duration::from_millis(200));
        }
    }

    /// Clears the bar.
    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

/// The bar's look: `template` with `{left}`, the time left at the rate so
/// far (the parts left at the time per part done since `since`), once a
/// part is done and a second has passed; the parts known may still grow.
fn bar_style(template: &str, since: Instant) -> indicatif::ProgressStyle {
    let style = indicatif::ProgressStyle::with_template(template)
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
    style.progress_chars("=> ").with_key(
        "left",
        move |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
            let (done, elapsed) = (state.pos(), since.elapsed());
            let left = state.len().unwrap_or(0).saturating_sub(done);
            if done > 0 && left > 0 && elapsed >= Duration::from_secs(1) {
                let eta = elapsed.mul_f64(left as f64 / done as f64);
                let _ = write!(w, "  about {} left", indicatif::HumanDuration(eta));
            }
        },
    )
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
