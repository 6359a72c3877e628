//! The timed run of one cell: its answer checked, its sizes from the
//! encoder, its times over R runs.
//!
//! ## What is timed ([`run_cell`])
//!
//! Each run is what the command line runs: the cell's instance built by
//! [`Instance::new`] and the task of [`boardsat_solve::task`] —
//! [`solve`] for first (one placement with k; domination decided by its
//! split refutation over every core) and the optimum (with its proof, the
//! refutations of domination split into cubes), [`count`] for count (split
//! into cubes over every core where the command line splits, one
//! placement per orbit with orbit weights, without k the optimum first).
//! The problem is encoded once, inside the task:
//!
//! - encode: building the clauses (streamed into the solver, or a split's
//!   base formula encoded once for every cube), as the task measured it
//!   ([`boardsat_encode::Encoding::time`]);
//! - solve: for first, the task's time without its encoding; for the
//!   optimum, the sum of the search's calls, the last of which is the
//!   UNSAT proof; for count, the counting (and, without k, the optimum's
//!   calls before it).
//!
//! ## Time limit
//!
//! Each run has a wall-clock deadline: a child of the caller's
//! [`Interrupter`] ([`Interrupter::child`]), so a run that reaches it is a
//! [`CellStatus::Timeout`] and an interrupt is [`CellStatus::Interrupted`],
//! never confused. A timed-out cell's remaining runs are skipped. varisat
//! cannot stop inside a call: a timed-out varisat run leaves its worker
//! thread to finish that call in the background (it ends at the latest
//! when the process does), which can slow the cells after it on a machine
//! with few cores.

use std::{fmt, time::Duration};

use boardsat_encode::{Bound, Stats};
use boardsat_solve::{
    backend::{spec::SolverSpec, Status},
    error::SolveError,
    search::count::{End, Proofs},
    stop::{Interrupter, StopReason},
    task::{
        count::{count, CountFlags},
        solve::{solve, Optimiser},
        Instance,
    },
};

use crate::plan::{Cell, Task};

/// What one run found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellAnswer {
    /// A placement exists.
    Sat,
    /// No placement exists (proven).
    Unsat,
    /// The exact number of placements.
    Count(u64),
    /// The optimum, proven.
    Optimum(usize),
}

impl fmt::Display for CellAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CellAnswer::Sat => f.write_str("sat"),
            CellAnswer::Unsat => f.write_str("unsat"),
            CellAnswer::Count(c) => write!(f, "{c}"),
            CellAnswer::Optimum(v) => write!(f, "{v} (proven)"),
        }
    }
}

/// How a cell ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CellStatus {
    /// Every run answered, and the answers agree.
    Ok,
    /// A run reached the cell's time limit.
    Timeout,
    /// The whole benchmark was interrupted during this cell.
    Interrupted,
    /// A run failed, or two runs disagreed.
    Error(String),
}

impl CellStatus {
    /// One word: `ok`, `timeout`, `interrupted`, `error`.
    #[must_use]
    pub fn word(&self) -> &str {
        match self {
            CellStatus::Ok => "ok",
            CellStatus::Timeout => "timeout",
            CellStatus::Interrupted => "interrupted",
            CellStatus::Error(_) => "error",
        }
    }
}

/// The closing line of a run: cells done of `planned`, time-outs and
/// failures, and whether it was interrupted.
#[must_use]
pub fn summary(planned: usize, results: &[CellResult], interrupted: bool) -> String {
    let count = |status: &str| results.iter().filter(|r| r.status.word() == status).count();
    format!(
        "{} of {}, {} timed out, {} failed{}",
        results.len(),
        boardsat_encode::words::plural(planned, "cell", "cells"),
        count("timeout"),
        count("error"),
        if interrupted { " (interrupted)" } else { "" }
    )
}

/// Median, min and max of some seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spread {
    /// The median (the mean of the middle two for an even count).
    pub median: f64,
    /// The least.
    pub min: f64,
    /// The greatest.
    pub max: f64,
}

impl Spread {
    /// The spread of `values`, `None` for none.
    #[must_use]
    pub fn of(values: &[Duration]) -> Option<Spread> {
        let mut v: Vec<f64> = values.iter().map(Duration::as_secs_f64).collect();
        if v.is_empty() {
            return None;
        }
        v.sort_by(f64::total_cmp);
        let mid = v.len() / 2;
        let median = if v.len() % 2 == 1 {
            v[mid]
        } else {
            (v[mid - 1] + v[mid]) / 2.0
        };
        Some(Spread {
            median,
            min: v[0],
            max: v[v.len() - 1],
        })
    }
}

impl fmt::Display for Spread {
    /// `median (min–max)` in one unit chosen by the median (µs, ms or s),
    /// three significant digits; just the median when all runs agree.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (scale, unit) = if self.median < 1e-3 {
            (1e6, "µs")
        } else if self.median < 1.0 {
            (1e3, "ms")
        } else {
            (1.0, "s")
        };
        let digits = |v: f64| {
            let v = v * scale;
            if v >= 100.0 {
                format!("{v:.0}")
            } else if v >= 10.0 {
                format!("{v:.1}")
            } else {
                format!("{v:.2}")
            }
        };
        if self.min == self.max {
            write!(f, "{} {unit}", digits(self.median))
        } else {
            write!(
                f,
                "{} {unit} ({}–{})",
                digits(self.median),
                digits(self.min),
                digits(self.max)
            )
        }
    }
}

/// What a cell measured.
#[derive(Clone, Debug, PartialEq)]
pub struct CellResult {
    /// How the cell ended.
    pub status: CellStatus,
    /// The encoding's sizes.
    pub stats: Option<Stats>,
    /// Encoding times.
    pub encode: Option<Spread>,
    /// Solving times (only when every run answered).
    pub solve: Option<Spread>,
    /// The answer (only when every run answered alike).
    pub answer: Option<CellAnswer>,
    /// Runs that answered.
    pub runs: usize,
}

/// One run: sizes, times and the answer (`None`: stopped).
struct Run {
    stats: Option<Stats>,
    encode: Duration,
    solve: Duration,
    answer: Option<CellAnswer>,
}

/// Runs `cell` up to `runs` times, each within `limit`, stopping early
/// when `stop` is raised.
#[must_use]
pub fn run_cell(cell: &Cell, runs: u32, limit: Option<Duration>, stop: &Interrupter) -> CellResult {
    let mut done: Vec<Run> = Vec::new();
    let mut encodes: Vec<Duration> = Vec::new();
    let mut status = CellStatus::Ok;
    let mut stats = None;
    for _ in 0..runs {
        if stop.is_interrupted() {
            status = CellStatus::Interrupted;
            break;
        }
        let run_stop = stop.child(limit);
        match run_once(cell, &run_stop) {
            Ok(run) => {
                stats = stats.or(run.stats);
                if run.stats.is_some() {
                    encodes.push(run.encode);
                }
                let Some(answer) = run.answer else {
                    status = stopped_status(&run_stop);
                    break;
                };
                if let Some(first) = done.first().and_then(|r| r.answer) {
                    if first != answer {
                        status = CellStatus::Error(format!("runs disagree: {first} then {answer}"));
                        break;
                    }
                }
                done.push(run);
            }
            Err(_) if run_stop.is_interrupted() => {
                status = stopped_status(&run_stop);
                break;
            }
            Err(e) => {
                status = CellStatus::Error(e.to_string());
                break;
            }
        }
    }
    let ok = status == CellStatus::Ok;
    let solves: Vec<Duration> = done.iter().map(|r| r.solve).collect();
    CellResult {
        encode: Spread::of(&encodes),
        solve: if ok { Spread::of(&solves) } else { None },
        answer: if ok {
            done.first().and_then(|r| r.answer)
        } else {
            None
        },
        runs: done.len(),
        status,
        stats,
    }
}

/// A run without an answer: a time-out, unless the caller was interrupted.
fn stopped_status(run_stop: &Interrupter) -> CellStatus {
    match run_stop.reason() {
        Some(StopReason::Interrupted) => CellStatus::Interrupted,
        Some(StopReason::TimeLimit) => CellStatus::Timeout,
        // The solver gave up by itself.
        None => CellStatus::Error("the solver gave up".to_string()),
    }
}

fn run_once(cell: &Cell, stop: &Interrupter) -> Result<Run, SolveError> {
    let spec = SolverSpec::new(cell.solver);
    let instance = Instance::new(&cell.request(), cell.encodings(), Some(&spec), false)?;
    let (encoding, solve, answer) = match cell.task {
        Task::First | Task::Optimum => {
            let solved = solve(&instance, &spec, Optimiser::Split, stop, &|_| {}, None)?;
            let answer = match (solved.status, &solved.optimum) {
                (Status::Unknown, _) => None,
                (Status::Sat, Some(optimum)) => Some(CellAnswer::Optimum(optimum.value)),
                (Status::Sat, None) => Some(CellAnswer::Sat),
                (Status::Unsat, _) => Some(CellAnswer::Unsat),
            };
            let solve = match &solved.optimum {
                Some(optimum) => optimum.calls.iter().map(|c| c.elapsed).sum(),
                None => solved.elapsed.saturating_sub(solved.encoding.time),
            };
            (solved.encoding, solve, answer)
        }
        Task::Count => {
            let plan = CountFlags::default().plan(&instance, Proofs::Off)?;
            let counted = count(
                &instance,
                &spec,
                &plan,
                stop,
                &|_, _| {},
                &|_: Bound| {},
                None,
            )?;
            let proven = counted.optimum.as_ref().is_none_or(|o| o.proven);
            let answer = (proven && counted.count.end == End::Exhausted)
                .then_some(CellAnswer::Count(counted.count.count));
            let optimum: Duration = counted
                .optimum
                .iter()
                .flat_map(|o| &o.calls)
                .map(|c| c.elapsed)
                .sum();
            (counted.encoding, counted.count.elapsed + optimum, answer)
        }
    };
    Ok(Run {
        stats: Some(encoding.stats),
        encode: encoding.time,
        solve,
        answer,
    })
}

/// Where and when a matrix ran: the provenance every table carries.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Meta {
    /// The command line, as `boardsat …`.
    pub command: String,
    /// boardsat's version.
    pub boardsat: &'static str,
    /// The commit the library was built from (`-dirty` with local changes).
    pub commit: &'static str,
    /// The compiler that built it.
    pub rustc: &'static str,
    /// The CPU model.
    pub cpu: String,
    /// Cores available.
    pub cores: usize,
    /// Memory, e.g. `23.5 GiB`.
    pub memory: String,
    /// UTC time, ISO 8601.
    pub date: String,
    /// Runs per cell.
    pub runs: u32,
    /// The time limit of a run, in seconds.
    pub cell_time_limit: f64,
}

/// The commit the binary was built from (`git rev-parse HEAD` at build
/// time, `-dirty` when tracked files had changes; `unknown` outside git).
pub const COMMIT: &str = env!("BOARDSAT_COMMIT");

impl Meta {
    /// The provenance of a run of `command` now, on this machine.
    #[must_use]
    pub fn collect(command: String, runs: u32, cell_time_limit: f64) -> Meta {
        Meta {
            command,
            boardsat: env!("CARGO_PKG_VERSION"),
            commit: COMMIT,
            rustc: env!("BOARDSAT_RUSTC_VERSION"),
            cpu: cpu_model(),
            cores: std::thread::available_parallelism().map_or(1, usize::from),
            memory: memory(),
            date: utc_now(),
            runs,
            cell_time_limit,
        }
    }
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".to_string())
}

fn memory() -> String {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| {
            let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
            let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
            Some(format!("{:.1} GiB", kib / (1024.0 * 1024.0)))
        })
        .unwrap_or_else(|| "unknown".to_string())
}

/// The current UTC time as ISO 8601, without a date crate (Howard
/// Hinnant's civil-from-days).
fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}
