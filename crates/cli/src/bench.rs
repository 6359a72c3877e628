//! `boardsat bench`: the encodings × backends × sizes × tasks matrix.
//!
//! A *cell* is one problem size, one task, one effective encoding and one
//! backend. Each cell is run R times; its sizes come from the encoder's own
//! statistics and its times are the median, min and max over the runs.
//!
//! ## Which cells are run
//!
//! Only choices that change the CNF multiply the matrix; a choice that does
//! not is shown as `-` and its cell is run once:
//! - `--amo` matters only when pieces may not attack each other
//!   (independence, queens, independent domination);
//! - `--formulation` matters only where `lines` applies: queens, and rooks
//!   with k = min(rows, cols), for the tasks first and count; domination by
//!   queens, rooks and bishops for every task. Elsewhere `lines` falls back
//!   to `cardinality`;
//! - `--card` matters only where a cardinality encoding is built: the
//!   `cardinality` formulation, domination, the optimum, and counting the
//!   optimal placements.
//!
//! ## What is timed
//!
//! - encode: building the CNF in memory (a separate encoding into a `Cnf`,
//!   as `boardsat dimacs` does);
//! - solve: the task's solver calls, with decoding and checking each model
//!   (and, for count, adding the blocking clauses); not loading the clauses
//!   into the solver. For optimum it is the sum of the search's calls
//!   (searched as `boardsat solve` does, [`Strategy::fastest`], refutations
//!   on fresh solvers included), the last of which is the UNSAT proof;
//!   counting without -k is the optimum and then the count of optimal
//!   placements.
//!
//! ## Time limit
//!
//! Each run has a wall-clock deadline, enforced by the backend's
//! interrupter from a timer thread. A run that reaches it makes the cell a
//! "timeout" and the cell's remaining runs are skipped. varisat cannot stop
//! inside a call: a timed-out varisat run leaves its worker thread to finish
//! that call in the background (it ends at the latest when the process
//! does), which can slow the cells after it on a machine with few cores.

use std::{
    io::{self, IsTerminal, Write},
    process::ExitCode,
    sync::{
        atomic::{AtomicBool, Ordering},
        mpsc::{self, RecvTimeoutError},
        Arc,
    },
    thread,
    time::{Duration, Instant},
};

use anyhow::{bail, Result};
use boardsat_encode::{
    card::Counter, Amo, Board, Card, Config, Formulation, Kind, Piece, Problem, Stats,
};
use boardsat_solve::{
    optimise_with, End, Interrupter, Options, Profile, Session, SolverKind, Status, Strategy,
};
use rustsat::instances::Cnf;
use serde_json::{json, Value};

use crate::{
    args::{BenchArgs, BenchFormat, BenchTask, Family, SolverArg},
    interrupt::{self, Stop},
    output,
};

/// Runs `boardsat bench`.
pub fn bench(args: &BenchArgs) -> Result<ExitCode> {
    let cells = plan(args)?;
    let meta = Meta::collect(args);
    let limit = Duration::from_secs_f64(args.cell_time_limit);
    let mut progress = Bar::new(cells.len());
    let started = Instant::now();
    let mut results = Vec::with_capacity(cells.len());
    for (i, cell) in cells.iter().enumerate() {
        progress.draw(i, cell);
        results.push(run_cell(cell, args.runs, limit));
        if interrupt::stopped() == Some(Stop::Interrupted) {
            break;
        }
    }
    progress.finish();
    let stop = interrupt::stopped();
    let format = if args.json {
        BenchFormat::Json
    } else {
        args.format
    };
    let text = match format {
        BenchFormat::Markdown => markdown(&meta, &cells, &results),
        BenchFormat::Csv => csv(&meta, &cells, &results),
        BenchFormat::Json => format!("{}\n", to_json(&meta, &cells, &results)),
    };
    match &args.output {
        Some(path) => output::write_atomically(path, |w| {
            w.write_all(text.as_bytes())?;
            Ok(())
        })?,
        None => {
            let stdout = io::stdout();
            let mut out = stdout.lock();
            out.write_all(text.as_bytes())?;
            out.flush()?;
        }
    }
    let timeouts = results
        .iter()
        .filter(|r| matches!(r.status, CellStatus::Timeout))
        .count();
    let errors = results
        .iter()
        .filter(|r| matches!(r.status, CellStatus::Error(_)))
        .count();
    eprintln!(
        "c {} of {} cells in {:.1} s, {timeouts} timed out, {errors} failed{}",
        results.len(),
        cells.len(),
        started.elapsed().as_secs_f64(),
        match stop {
            Some(Stop::Interrupted) => " (interrupted)",
            _ => "",
        }
    );
    Ok(match stop {
        Some(Stop::Interrupted) => ExitCode::from(130),
        _ => ExitCode::SUCCESS,
    })
}

// ---------------------------------------------------------------- the plan

/// One cell of the matrix, with irrelevant choices already set to `None`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cell {
    task: BenchTask,
    problem: Problem,
    /// The fixed number of pieces (first and count), or `None` for the
    /// optimum (and for counting the optimal placements).
    k: Option<usize>,
    amo: Option<Amo>,
    card: Option<Card>,
    formulation: Option<Formulation>,
    solver: SolverKind,
}

impl Cell {
    /// The encoder's configuration; irrelevant choices take the defaults,
    /// which by construction do not change the CNF.
    fn config(&self) -> Config {
        Config {
            amo: self.amo.unwrap_or_default(),
            card: self.card.unwrap_or_default(),
            formulation: self.formulation.unwrap_or(Formulation::Cardinality),
        }
    }

    fn n(&self) -> usize {
        self.problem.board.rows()
    }
}

fn parse_list<T: Copy + std::str::FromStr>(text: &str, all: &[T], what: &str) -> Result<Vec<T>>
where
    T::Err: std::fmt::Display,
{
    if text.trim().eq_ignore_ascii_case("all") {
        return Ok(all.to_vec());
    }
    let mut out = Vec::new();
    for name in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        match name.parse() {
            Ok(v) => out.push(v),
            Err(e) => bail!("--{what}: {e}"),
        }
    }
    if out.is_empty() {
        bail!("--{what} names no encoding");
    }
    Ok(out)
}

fn push_unique<T: PartialEq>(list: &mut Vec<T>, item: T) {
    if !list.contains(&item) {
        list.push(item);
    }
}

/// The cells, in output order: task, size, formulation, AMO, cardinality
/// encoding, backend; duplicates (a choice that does not change the CNF)
/// removed.
fn plan(args: &BenchArgs) -> Result<Vec<Cell>> {
    let amos = parse_list(&args.amo, &Amo::ALL, "amo")?;
    let cards = parse_list(&args.card, &Card::ALL, "card")?;
    let formulations = parse_list(&args.formulation, &Formulation::ALL, "formulation")?;
    let mut solvers: Vec<SolverKind> = Vec::new();
    for &s in &args.solver {
        if s == SolverArg::External {
            bail!("bench runs the embedded backends only (varisat, cadical)");
        }
        push_unique(&mut solvers, SolverKind::from(s));
    }
    if solvers.is_empty() {
        solvers.push(SolverKind::default_embedded());
    }
    let mut sizes = Vec::new();
    for &n in &args.sizes {
        push_unique(&mut sizes, n);
    }
    let mut tasks = Vec::new();
    for &t in &args.task {
        push_unique(&mut tasks, t);
    }
    let piece: Piece = args.piece.map_or(Piece::Queen, Into::into);
    if args.independent && args.family != Family::Domination {
        bail!("--independent applies to domination only");
    }
    if args.family == Family::Queens {
        if args.piece.is_some_and(|p| Piece::from(p) != Piece::Queen) {
            bail!("queens places queens; use 'independence --piece {piece}' for other pieces");
        }
        if args.k.is_some() {
            bail!("queens places exactly n queens; use 'independence -k' for another number");
        }
    } else if args.k.is_none() && tasks.contains(&BenchTask::First) {
        bail!("--task first needs -k for independence and domination (or use --task optimum)");
    }
    let mut cells = Vec::new();
    for &task in &tasks {
        for &n in &sizes {
            let board = Board::new(n, n)?;
            let kind = match args.family {
                Family::Queens | Family::Independence => Kind::Independence,
                Family::Domination if args.independent => Kind::IndependentDomination,
                Family::Domination => Kind::Domination,
            };
            let problem = Problem::new(board, piece, kind);
            let k = match (args.family, task) {
                (_, BenchTask::Optimum) => None,
                (Family::Queens, _) => Some(n),
                _ => args.k,
            };
            if let Some(k) = k {
                if k > board.n_squares() {
                    bail!("k = {k} is more pieces than the {board} board has squares");
                }
            }
            for &formulation in &formulations {
                for &amo in &amos {
                    for &card in &cards {
                        for &solver in &solvers {
                            // Without a k (the optimum task) only domination
                            // can use the lines formulation.
                            let k_or_open = k.unwrap_or(0);
                            let effective = problem.effective_formulation(formulation, k_or_open);
                            let formulation_matters = problem.lines_apply(k_or_open);
                            // Domination counts pieces in either formulation.
                            let counts = effective == Formulation::Cardinality || kind.dominating();
                            push_unique(
                                &mut cells,
                                Cell {
                                    task,
                                    problem,
                                    k,
                                    amo: kind.independent().then_some(amo),
                                    card: counts.then_some(card),
                                    formulation: formulation_matters.then_some(effective),
                                    solver,
                                },
                            );
                        }
                    }
                }
            }
        }
    }
    Ok(cells)
}

// ---------------------------------------------------------------- running

/// What one run found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Answer {
    Sat,
    Unsat,
    Count(u64),
    Optimum(usize),
}

impl std::fmt::Display for Answer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Answer::Sat => f.write_str("sat"),
            Answer::Unsat => f.write_str("unsat"),
            Answer::Count(c) => write!(f, "{c}"),
            Answer::Optimum(v) => write!(f, "{v} (proven)"),
        }
    }
}

struct Run {
    stats: Option<Stats>,
    encode: Duration,
    solve: Duration,
    /// `None` when the run timed out.
    answer: Option<Answer>,
}

#[derive(Clone, Debug, PartialEq)]
enum CellStatus {
    Ok,
    Timeout,
    Error(String),
}

impl CellStatus {
    fn word(&self) -> &str {
        match self {
            CellStatus::Ok => "ok",
            CellStatus::Timeout => "timeout",
            CellStatus::Error(_) => "error",
        }
    }
}

/// Median, min and max of some seconds.
#[derive(Clone, Copy, Debug)]
struct Spread {
    median: f64,
    min: f64,
    max: f64,
}

impl Spread {
    fn of(values: &[Duration]) -> Option<Spread> {
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

    /// `median (min–max)` in one unit chosen by the median: µs, ms or s,
    /// three significant digits.
    fn text(self) -> String {
        let (scale, unit) = if self.median < 1e-3 {
            (1e6, "µs")
        } else if self.median < 1.0 {
            (1e3, "ms")
        } else {
            (1.0, "s")
        };
        let f = |v: f64| {
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
            format!("{} {unit}", f(self.median))
        } else {
            format!(
                "{} {unit} ({}–{})",
                f(self.median),
                f(self.min),
                f(self.max)
            )
        }
    }

    fn json(self) -> Value {
        json!({ "median": self.median, "min": self.min, "max": self.max })
    }
}

struct CellResult {
    status: CellStatus,
    stats: Option<Stats>,
    encode: Option<Spread>,
    solve: Option<Spread>,
    answer: Option<Answer>,
    runs: usize,
}

fn run_cell(cell: &Cell, runs: u32, limit: Duration) -> CellResult {
    let mut done: Vec<Run> = Vec::new();
    let mut encodes: Vec<Duration> = Vec::new();
    let mut status = CellStatus::Ok;
    let mut stats = None;
    for _ in 0..runs {
        if interrupt::stopped().is_some() {
            status = CellStatus::Error("interrupted".to_string());
            break;
        }
        match run_once(cell, limit) {
            Ok(run) => {
                stats = stats.or(run.stats);
                if run.stats.is_some() {
                    encodes.push(run.encode);
                }
                let Some(answer) = run.answer else {
                    status = CellStatus::Timeout;
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
            Err(e) => {
                status = CellStatus::Error(format!("{e:#}"));
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

/// A timer thread that triggers an interrupter when `limit` passes, unless
/// finished first.
struct Deadline {
    cancel: Option<mpsc::Sender<()>>,
    fired: Arc<AtomicBool>,
    timer: Option<thread::JoinHandle<()>>,
}

impl Deadline {
    fn start(interrupter: Option<Interrupter>, limit: Duration) -> Self {
        let (cancel, wait) = mpsc::channel::<()>();
        let fired = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&fired);
        let timer = thread::spawn(move || {
            if let Err(RecvTimeoutError::Timeout) = wait.recv_timeout(limit) {
                flag.store(true, Ordering::SeqCst);
                if let Some(i) = interrupter {
                    i.interrupt();
                }
            }
        });
        Deadline {
            cancel: Some(cancel),
            fired,
            timer: Some(timer),
        }
    }

    /// Stops the timer; whether it had fired.
    fn finish(mut self) -> bool {
        drop(self.cancel.take());
        if let Some(t) = self.timer.take() {
            let _ = t.join();
        }
        self.fired.load(Ordering::SeqCst)
    }
}

fn encode_fixed(problem: &Problem, k: usize, config: Config) -> Result<(Duration, Stats)> {
    let mut vars = problem.var_manager();
    let mut cnf = Cnf::new();
    let start = Instant::now();
    let encoding = problem.encode(k, config, &mut cnf, &mut vars)?;
    Ok((start.elapsed(), encoding.stats))
}

fn encode_open(problem: &Problem, max_bound: usize, config: Config) -> Result<(Duration, Stats)> {
    let mut vars = problem.var_manager();
    let mut cnf = Cnf::new();
    let start = Instant::now();
    let encoding = problem.encode_open(max_bound, config, &mut cnf, &mut vars)?;
    Ok((start.elapsed(), encoding.stats))
}

fn run_once(cell: &Cell, limit: Duration) -> Result<Run> {
    let config = cell.config();
    let profile = match cell.task {
        BenchTask::Count => Profile::Enumerate,
        BenchTask::First | BenchTask::Optimum => Profile::Single,
    };
    let mut backend = cell.solver.create_with(&Options {
        command: None,
        seed: None,
        profile,
    })?;
    let interrupter = backend.interrupt().map(|i| i.interrupter());
    match &interrupter {
        Some(i) => interrupt::register(i.clone()),
        None => {
            if let Some(t) = backend.time_limit() {
                t.set_time_limit(Some(limit));
            }
        }
    }
    if let Some(k) = cell.k {
        let (encode, stats) = encode_fixed(&cell.problem, k, config)?;
        let mut session = Session::fixed(&cell.problem, k, config, backend)?;
        let deadline = Deadline::start(interrupter, limit);
        let start = Instant::now();
        let answer = if cell.task == BenchTask::Count {
            session.count(None, |_| {}).map(|c| match c.end {
                End::Exhausted => Some(Answer::Count(c.count)),
                End::Limit | End::Unknown => None,
            })
        } else {
            session.solve().map(|(status, _)| match status {
                Status::Sat => Some(Answer::Sat),
                Status::Unsat => Some(Answer::Unsat),
                Status::Unknown => None,
            })
        };
        let solve = start.elapsed();
        let fired = deadline.finish();
        let answer = match answer {
            Ok(a) => a,
            Err(_) if fired => None,
            Err(e) => return Err(e.into()),
        };
        return Ok(Run {
            stats: Some(stats),
            encode,
            solve,
            answer,
        });
    }
    // The optimum (and for count, then every optimal placement), searched
    // as `boardsat solve` and `count` do.
    let deadline = Deadline::start(interrupter, limit);
    let strategy = Strategy::fastest(&cell.problem);
    let optimum = optimise_with(&cell.problem, config, backend, strategy);
    let (optimum, mut session) = match optimum {
        Ok(pair) => pair,
        Err(_) if deadline.fired.load(Ordering::SeqCst) => {
            deadline.finish();
            return Ok(Run {
                stats: None,
                encode: Duration::ZERO,
                solve: Duration::ZERO,
                answer: None,
            });
        }
        Err(e) => {
            deadline.finish();
            return Err(e.into());
        }
    };
    let mut solve: Duration = optimum.calls.iter().map(|c| c.elapsed).sum();
    let mut answer = optimum.proven.then_some(Answer::Optimum(optimum.value));
    if answer.is_some() && cell.task == BenchTask::Count {
        answer = match session.count(None, |_| {}) {
            Ok(c) => {
                solve += c.elapsed;
                (c.end == End::Exhausted).then_some(Answer::Count(c.count))
            }
            Err(_) if deadline.fired.load(Ordering::SeqCst) => None,
            Err(e) => {
                deadline.finish();
                return Err(e.into());
            }
        };
    }
    deadline.finish();
    let max_bound = session
        .encoding()
        .counter
        .as_deref()
        .map_or(optimum.value, Counter::max_bound);
    let (encode, stats) = encode_open(&cell.problem, max_bound, config)?;
    Ok(Run {
        stats: Some(stats),
        encode,
        solve,
        answer,
    })
}

// ---------------------------------------------------------------- progress

/// A progress bar on stderr, drawn only when stderr is a terminal.
struct Bar {
    enabled: bool,
    total: usize,
    drawn: bool,
}

impl Bar {
    fn new(total: usize) -> Self {
        Bar {
            enabled: io::stderr().is_terminal(),
            total,
            drawn: false,
        }
    }

    fn draw(&mut self, done: usize, cell: &Cell) {
        if !self.enabled {
            return;
        }
        const WIDTH: usize = 24;
        let filled = done * WIDTH / self.total.max(1);
        eprint!(
            "\r\x1b[2K[{}{}] {done}/{} {} n={} {} {} {} {}",
            "#".repeat(filled),
            ".".repeat(WIDTH - filled),
            self.total,
            task_name(cell.task),
            cell.n(),
            name_or_dash(cell.formulation.map(Formulation::name)),
            name_or_dash(cell.amo.map(Amo::name)),
            name_or_dash(cell.card.map(Card::name)),
            cell.solver
        );
        let _ = io::stderr().flush();
        self.drawn = true;
    }

    fn finish(&mut self) {
        if self.drawn {
            eprint!("\r\x1b[2K");
            let _ = io::stderr().flush();
        }
    }
}

// ---------------------------------------------------------------- metadata

/// Where and when the matrix ran.
struct Meta {
    command: String,
    version: &'static str,
    commit: String,
    rustc: &'static str,
    cpu: String,
    cores: usize,
    memory: String,
    date: String,
    runs: u32,
    cell_time_limit: f64,
}

impl Meta {
    fn collect(args: &BenchArgs) -> Meta {
        let command: Vec<String> = std::env::args().skip(1).collect();
        Meta {
            command: format!("boardsat {}", command.join(" ")),
            version: env!("CARGO_PKG_VERSION"),
            commit: commit(),
            rustc: env!("BOARDSAT_RUSTC_VERSION"),
            cpu: cpu_model(),
            cores: thread::available_parallelism().map_or(1, usize::from),
            memory: memory(),
            date: utc_now(),
            runs: args.runs,
            cell_time_limit: args.cell_time_limit,
        }
    }

    fn json(&self) -> Value {
        json!({
            "command": self.command,
            "boardsat": self.version,
            "commit": self.commit,
            "rustc": self.rustc,
            "cpu": self.cpu,
            "cores": self.cores,
            "memory": self.memory,
            "date": self.date,
            "runs": self.runs,
            "cell_time_limit": self.cell_time_limit,
        })
    }
}

/// `git rev-parse HEAD` of the working directory, marked `-dirty` when the
/// tree has changes; "unknown" outside a repository or without git.
fn commit() -> String {
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .stderr(std::process::Stdio::null())
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    match git(&["rev-parse", "HEAD"]) {
        Some(hash) if !hash.is_empty() => {
            let dirty = git(&["status", "--porcelain", "--untracked-files=no"])
                .is_some_and(|s| !s.is_empty());
            if dirty {
                format!("{hash}-dirty")
            } else {
                hash
            }
        }
        _ => "unknown".to_string(),
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

// ---------------------------------------------------------------- output

fn task_name(task: BenchTask) -> &'static str {
    match task {
        BenchTask::First => "first",
        BenchTask::Count => "count",
        BenchTask::Optimum => "optimum",
    }
}

fn name_or_dash(name: Option<&'static str>) -> &'static str {
    name.unwrap_or("-")
}

fn problem_name(problem: &Problem) -> String {
    match (problem.kind, problem.piece) {
        (Kind::Independence, Piece::Queen) => "queens".to_string(),
        (kind, piece) => format!("{kind} {piece}"),
    }
}

fn result_text(cell: &CellResult, limit: f64) -> String {
    match (&cell.status, cell.answer) {
        (CellStatus::Ok, Some(a)) => a.to_string(),
        (CellStatus::Timeout, _) => format!("timeout (> {limit} s)"),
        (CellStatus::Error(e), _) => format!("error: {e}"),
        (CellStatus::Ok, None) => "-".to_string(),
    }
}

fn markdown(meta: &Meta, cells: &[Cell], results: &[CellResult]) -> String {
    let mut s = String::new();
    s.push_str(&format!("`{}`\n\n", meta.command));
    s.push_str(&format!(
        "- boardsat {}, commit {}, {}\n",
        meta.version, meta.commit, meta.rustc
    ));
    s.push_str(&format!(
        "- {}, {} cores, {} memory; {}\n",
        meta.cpu, meta.cores, meta.memory, meta.date
    ));
    s.push_str(&format!(
        "- times: median (min–max) of {} runs; cell time limit {} s\n\n",
        meta.runs, meta.cell_time_limit
    ));
    s.push_str("| problem | task | n | formulation | amo | card | solver | vars | aux | clauses | lits | encode | solve | result |\n");
    s.push_str("|---|---|---:|---|---|---|---|---:|---:|---:|---:|---:|---:|---|\n");
    for (cell, r) in cells.iter().zip(results) {
        let stat = |f: fn(&Stats) -> String| r.stats.as_ref().map_or("-".to_string(), f);
        let encode = r.encode.map_or("-".to_string(), Spread::text);
        let solve = match (&r.status, r.solve) {
            (CellStatus::Timeout, _) => "timeout".to_string(),
            (_, Some(t)) => t.text(),
            _ => "-".to_string(),
        };
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            problem_name(&cell.problem),
            task_name(cell.task),
            cell.n(),
            name_or_dash(cell.formulation.map(Formulation::name)),
            name_or_dash(cell.amo.map(Amo::name)),
            name_or_dash(cell.card.map(Card::name)),
            cell.solver,
            stat(|s| s.n_vars.to_string()),
            stat(|s| s.n_aux_vars.to_string()),
            stat(|s| s.n_clauses.to_string()),
            stat(|s| s.n_lits.to_string()),
            encode,
            solve,
            result_text(r, meta.cell_time_limit).replace('|', "/"),
        ));
    }
    s
}

fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

fn csv(meta: &Meta, cells: &[Cell], results: &[CellResult]) -> String {
    let mut s = String::from(
        "problem,task,n,k,formulation,amo,card,solver,vars,aux_vars,clauses,lits,\
         encode_median_s,encode_min_s,encode_max_s,solve_median_s,solve_min_s,solve_max_s,\
         runs,status,result,commit,rustc,cpu,cores,memory,date\n",
    );
    let opt = |v: Option<String>| v.unwrap_or_default();
    for (cell, r) in cells.iter().zip(results) {
        let fields = [
            problem_name(&cell.problem),
            task_name(cell.task).to_string(),
            cell.n().to_string(),
            opt(cell.k.map(|k| k.to_string())),
            opt(cell.formulation.map(|f| f.name().to_string())),
            opt(cell.amo.map(|a| a.name().to_string())),
            opt(cell.card.map(|c| c.name().to_string())),
            cell.solver.to_string(),
            opt(r.stats.map(|s| s.n_vars.to_string())),
            opt(r.stats.map(|s| s.n_aux_vars.to_string())),
            opt(r.stats.map(|s| s.n_clauses.to_string())),
            opt(r.stats.map(|s| s.n_lits.to_string())),
            opt(r.encode.map(|e| format!("{:.6}", e.median))),
            opt(r.encode.map(|e| format!("{:.6}", e.min))),
            opt(r.encode.map(|e| format!("{:.6}", e.max))),
            opt(r.solve.map(|e| format!("{:.6}", e.median))),
            opt(r.solve.map(|e| format!("{:.6}", e.min))),
            opt(r.solve.map(|e| format!("{:.6}", e.max))),
            r.runs.to_string(),
            r.status.word().to_string(),
            match (&r.status, r.answer) {
                (CellStatus::Error(e), _) => e.clone(),
                (_, Some(Answer::Count(c))) => c.to_string(),
                (_, Some(Answer::Optimum(v))) => v.to_string(),
                (_, Some(a)) => a.to_string(),
                (_, None) => String::new(),
            },
            meta.commit.clone(),
            meta.rustc.to_string(),
            meta.cpu.clone(),
            meta.cores.to_string(),
            meta.memory.clone(),
            meta.date.clone(),
        ];
        let row: Vec<String> = fields.iter().map(|f| csv_field(f)).collect();
        s.push_str(&row.join(","));
        s.push('\n');
    }
    s
}

fn to_json(meta: &Meta, cells: &[Cell], results: &[CellResult]) -> Value {
    let rows: Vec<Value> = cells
        .iter()
        .zip(results)
        .map(|(cell, r)| {
            json!({
                "problem": cell.problem.kind.name(),
                "piece": cell.problem.piece.name(),
                "task": task_name(cell.task),
                "n": cell.n(),
                "k": cell.k,
                "formulation": cell.formulation.map(Formulation::name),
                "amo": cell.amo.map(Amo::name),
                "card": cell.card.map(Card::name),
                "solver": cell.solver.name(),
                "vars": r.stats.map(|s| s.n_vars),
                "aux_vars": r.stats.map(|s| s.n_aux_vars),
                "clauses": r.stats.map(|s| s.n_clauses),
                "lits": r.stats.map(|s| s.n_lits),
                "encode_s": r.encode.map(Spread::json),
                "solve_s": r.solve.map(Spread::json),
                "runs": r.runs,
                "status": r.status.word(),
                "error": match &r.status { CellStatus::Error(e) => Some(e.clone()), _ => None },
                "satisfiable": match r.answer {
                    Some(Answer::Sat) => Some(true),
                    Some(Answer::Unsat) => Some(false),
                    _ => None,
                },
                "count": match r.answer { Some(Answer::Count(c)) => Some(c), _ => None },
                "optimum": match r.answer { Some(Answer::Optimum(v)) => Some(v), _ => None },
            })
        })
        .collect();
    json!({ "meta": meta.json(), "cells": rows })
}
