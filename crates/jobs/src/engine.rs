//! The rounds of a split handed to an engine until every job has its
//! answer (`boardsat jobs DIR --run ENGINE`). boardsat schedules nothing
//! itself beyond this machine: it lists a round ([`crate::rounds`]),
//! hands the list to the engine, waits for the engine to finish it, and
//! lists the next round from what the jobs wrote.
//!
//! | engine | a round is run by |
//! |---|---|
//! | [`Engine::Local`] | this machine's cores: `sh -c LINE` for each line, `--max-tasks` at a time (default: one per core); the jobs' output in `rounds/R.out` |
//! | [`Engine::Parallel`] | GNU parallel, from the split's directory: `parallel --joblog rounds/R.log --resume-failed [-j N] [--sshloginfile FILE --workdir DIR --env BOARDSAT] < LIST`; its output in `rounds/R.out` |
//! | [`Engine::Slurm`] | Slurm job arrays of `slurm.sbatch`, one task per line (`sbatch --array=0-(N-1)%CAP … slurm.sbatch LIST OFFSET`, split into arrays of at most the cluster's `MaxArraySize`), polled with `squeue` until they end; each task's output in `rounds/slurm-R-C-T.out`, its exit in `rounds/slurm-R-C-T.exit` |
//!
//! The same protocol runs under every engine: the jobs are the lines,
//! each job writes its own answer, and the driver reads the directory
//! after each round ([`SplitStatus`]). A job that ends a round without an
//! answer has failed; it is listed again in the next round up to
//! `retries` more times, and then given up (the driver ends saying which,
//! with what the engine reported). Only one driver runs a split at a time
//! (`rounds/driver.lock`). Stopped (a signal), the driver stops the
//! engine's round (the local jobs and GNU parallel are sent SIGTERM, the
//! Slurm arrays `scancel`led), and the jobs write what they have, marked
//! incomplete, for the next run to redo.
//!
//! **Adding an engine** (HTCondor, Kubernetes) takes, today: a variant of
//! [`Engine`] with its arms in [`Engine::name`], [`Engine::named`] and
//! the program it needs, its name in [`Engine::NAMES`], and the function
//! that runs a round (its submission, and what it says of the tasks that
//! failed), called from `run_round`. The command line takes its choices
//! from [`Engine::NAMES`] and the engine from [`Engine::named`], so it
//! needs no change. (Issue 54 asks for one module per engine behind one
//! interface; that step is not made yet.)

use std::{
    collections::BTreeMap,
    fs::{self, File, OpenOptions, TryLockError},
    io::{Read as _, Write as _},
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    sync::{
        atomic::{AtomicUsize, Ordering},
        Mutex,
    },
    time::{Duration, Instant},
};

use boardsat_solve::stop::{Interrupter, StopReason};

use crate::{
    error::{EngineError, JobsError},
    layout::{self, DRIVER_LOCK, ROUNDS, SLURM_SCRIPT},
    rounds::{write_round, Round, SplitStatus, State},
    tree::summary,
};

/// Where a round runs (see the module doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Engine {
    /// This machine's cores.
    Local,
    /// GNU parallel, over the machines of an `--sshloginfile` when given.
    Parallel {
        /// GNU parallel's list of machines (`4/host`, `:` for this one).
        sshloginfile: Option<PathBuf>,
    },
    /// Slurm job arrays.
    Slurm,
}

impl Engine {
    /// The engines' names, as `--run` takes them.
    pub const NAMES: [&'static str; 3] = ["local", "parallel", "slurm"];

    /// The engine's name.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            Engine::Local => "local",
            Engine::Parallel { .. } => "parallel",
            Engine::Slurm => "slurm",
        }
    }

    /// The engine named `name` (one of [`Engine::NAMES`]), with GNU
    /// parallel's list of machines when it is that engine; `None` for a
    /// name no engine has.
    #[must_use]
    pub fn named(name: &str, sshloginfile: Option<PathBuf>) -> Option<Engine> {
        match name {
            "local" => Some(Engine::Local),
            "parallel" => Some(Engine::Parallel { sshloginfile }),
            "slurm" => Some(Engine::Slurm),
            _ => None,
        }
    }

    /// The program the engine needs on the `PATH`, if any.
    fn program(&self) -> Option<&'static str> {
        match self {
            Engine::Local => None,
            Engine::Parallel { .. } => Some("parallel"),
            Engine::Slurm => Some("sbatch"),
        }
    }
}

/// How [`drive`] runs the rounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Drive {
    /// The engine.
    pub engine: Engine,
    /// The most jobs running at once (`None`: the engine's default; for
    /// Slurm, no cap).
    pub max_tasks: Option<usize>,
    /// How many more rounds a job that failed is listed in.
    pub retries: usize,
    /// How the job lines call boardsat ([`crate::job_program`]).
    pub program: String,
}

/// What one round did.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundRun {
    /// The round's list.
    pub round: Round,
    /// The engine's name.
    pub engine: &'static str,
    /// Its jobs now counted.
    pub done: usize,
    /// Its jobs now split.
    pub split: usize,
    /// The pieces those wrote, the next round's new jobs.
    pub pieces: usize,
    /// Its jobs without an answer, and why, with what the engine said.
    pub failed: Vec<(String, String)>,
    /// Wall seconds.
    pub seconds: f64,
}

/// What [`drive`] did.
#[derive(Clone, Debug)]
pub struct Driven {
    /// The rounds run, in order.
    pub rounds: Vec<RoundRun>,
    /// The split's status at the end.
    pub status: SplitStatus,
    /// The jobs given up after failing more than `retries` times more,
    /// with why they last failed.
    pub given_up: Vec<(String, String)>,
    /// Why the driver stopped before the end, if it did.
    pub stopped: Option<StopReason>,
}

/// What is reported while the rounds run.
#[derive(Clone, Debug)]
pub enum RoundEvent<'a> {
    /// A round is handed to the engine.
    Started(&'a Round),
    /// A round ended.
    Ended(&'a RoundRun),
}

/// How a task of a round ended, as its engine reports it: data, worded
/// ([`TaskEnd::words`]) only when the task's job has no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskEnd {
    /// Who ran it (`GNU parallel on HOST`, `Slurm task JOB_TASK`); `None`
    /// for this machine's cores.
    pub by: Option<String>,
    /// How it ended, when the engine says.
    pub exit: Option<Exit>,
    /// What it said last (its last line of output, without an `error: `),
    /// or why it did not run.
    pub said: Option<String>,
}

/// A task's exit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// It exited with this code.
    Code(i32),
    /// This signal ended it.
    Signal(i32),
}

impl TaskEnd {
    /// The end in words: `GNU parallel on :: exit 127`, `exit 2: <its
    /// last line>`, `Slurm task 12_0: <its last line>`.
    #[must_use]
    pub fn words(&self) -> String {
        let exit = self.exit.map(|exit| match exit {
            Exit::Code(c) => format!("exit {c}"),
            Exit::Signal(s) => format!("killed by signal {s}"),
        });
        let parts: Vec<String> = [self.by.clone(), exit, self.said.clone()]
            .into_iter()
            .flatten()
            .collect();
        match parts.is_empty() {
            true => "no exit code".to_string(),
            false => parts.join(": "),
        }
    }

    /// Whether the task ended well (exit 0).
    fn ok(&self) -> bool {
        self.exit == Some(Exit::Code(0))
    }
}

/// Runs the rounds of the split in `dir` with `how` until no job is left
/// but those given up (see the module doc); `progress` sees each round
/// start and end.
///
/// # Errors
///
/// [`JobsError::Running`] when another driver runs the split;
/// [`JobsError::Engine`] when the engine's program is missing or fails
/// to take a round; the errors of reading the split ([`SplitStatus::read`]).
pub fn drive(
    dir: &Path,
    how: &Drive,
    stop: &Interrupter,
    progress: &dyn Fn(RoundEvent<'_>),
) -> Result<Driven, JobsError> {
    check_engine(&how.engine)?;
    let dir = fs::canonicalize(dir).map_err(|e| JobsError::Dir {
        action: "read",
        path: dir.display().to_string(),
        reason: boardsat_solve::files::describe(&e),
    })?;
    let dir = dir.as_path();
    // Read before anything is written: a directory that is no split is
    // refused as it is.
    let mut status = SplitStatus::read(dir)?;
    let _lock = DriverLock::take(dir)?;
    let mut attempts: BTreeMap<String, usize> = BTreeMap::new();
    let mut why: BTreeMap<String, String> = BTreeMap::new();
    let mut rounds = Vec::new();
    let mut stopped = None;
    loop {
        if let Some(reason) = stop.reason() {
            stopped = Some(reason);
            break;
        }
        let runnable: Vec<String> = status
            .left()
            .into_iter()
            .filter(|id| attempts.get(id).copied().unwrap_or(0) <= how.retries)
            .collect();
        if runnable.is_empty() {
            break;
        }
        let round = write_round(dir, &runnable, &how.program, Some(stop))?;
        progress(RoundEvent::Started(&round));
        let start = Instant::now();
        let said = run_round(dir, how, &round, stop)?;
        for id in &round.ids {
            *attempts.entry(id.clone()).or_default() += 1;
        }
        status = SplitStatus::read(dir)?;
        let run = summarise(&status, round, how.engine.name(), &said, start.elapsed());
        for (id, reason) in &run.failed {
            why.insert(id.clone(), reason.clone());
        }
        progress(RoundEvent::Ended(&run));
        rounds.push(run);
        if let Some(reason) = stop.reason() {
            stopped = Some(reason);
            break;
        }
    }
    let given_up = status
        .left()
        .into_iter()
        .filter(|id| attempts.get(id).copied().unwrap_or(0) > how.retries)
        .map(|id| {
            let reason = why.get(&id).cloned().unwrap_or_default();
            (id, reason)
        })
        .collect();
    Ok(Driven {
        rounds,
        status,
        given_up,
        stopped,
    })
}

/// Checks that `engine` can run here: its program on the `PATH`, GNU
/// parallel's ssh login file readable.
fn check_engine(engine: &Engine) -> Result<(), JobsError> {
    if let Some(program) = engine.program() {
        if !on_path(program) {
            return Err(EngineError::NotOnPath {
                engine: engine.name(),
                program,
            }
            .into());
        }
    }
    if let Engine::Parallel {
        sshloginfile: Some(file),
    } = engine
    {
        if !file.is_file() {
            return Err(EngineError::SshLoginFile(file.display().to_string()).into());
        }
    }
    Ok(())
}

/// What round `round` did, from the status read after it and what the
/// engine `said` of its failed lines.
fn summarise(
    status: &SplitStatus,
    round: Round,
    engine: &'static str,
    said: &BTreeMap<String, TaskEnd>,
    elapsed: Duration,
) -> RoundRun {
    let mut run = RoundRun {
        round,
        engine,
        done: 0,
        split: 0,
        pieces: 0,
        failed: Vec::new(),
        seconds: elapsed.as_secs_f64(),
    };
    for id in &run.round.ids {
        let Some(i) = status.tree.nodes.iter().position(|n| n.entry.id == *id) else {
            continue;
        };
        match (&status.states[i], &status.tree.nodes[i].answer) {
            (State::Done, _) => run.done += 1,
            (State::Split, crate::tree::JobAnswer::Split(n)) => {
                run.split += 1;
                run.pieces += n;
            }
            (state, _) => {
                let mut reason = match state {
                    State::Failed(why) => why.clone(),
                    State::Running(pid) => format!(
                        "still running in another process{}",
                        pid.map_or(String::new(), |p| format!(" (pid {p})"))
                    ),
                    _ => "no trace of it: it did not start".to_string(),
                };
                if let Some(end) = said.get(id) {
                    reason = format!("{reason}; {}", end.words());
                }
                run.failed.push((id.clone(), reason));
            }
        }
    }
    run
}

/// Runs the lines of `round` on the engine; what it said of the lines
/// that failed, by job id.
fn run_round(
    dir: &Path,
    how: &Drive,
    round: &Round,
    stop: &Interrupter,
) -> Result<BTreeMap<String, TaskEnd>, JobsError> {
    let text = fs::read_to_string(dir.join(&round.file)).map_err(|e| JobsError::Dir {
        action: "read",
        path: dir.join(&round.file).display().to_string(),
        reason: boardsat_solve::files::describe(&e),
    })?;
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    match &how.engine {
        Engine::Local => Ok(local(dir, round.number, &lines, how.max_tasks, stop)),
        Engine::Parallel { sshloginfile } => {
            parallel(dir, round, how.max_tasks, sshloginfile.as_deref(), stop)
        }
        Engine::Slurm => slurm(dir, round, lines.len(), how.max_tasks, stop),
    }
}

/// The job id a line runs: its last word.
fn line_id(line: &str) -> String {
    line.split_whitespace()
        .last()
        .unwrap_or_default()
        .to_string()
}

/// The engine's output file of round `number`, in `rounds/`.
fn output(dir: &Path, number: usize) -> PathBuf {
    dir.join(ROUNDS).join(format!("{number}.out"))
}

/// Runs `lines` with `sh -c` from `dir`, `max_tasks` at a time (default:
/// one per core); each job's output appended to `rounds/R.out`.
fn local(
    dir: &Path,
    number: usize,
    lines: &[String],
    max_tasks: Option<usize>,
    stop: &Interrupter,
) -> BTreeMap<String, TaskEnd> {
    let workers = max_tasks
        .or_else(|| std::thread::available_parallelism().ok().map(usize::from))
        .unwrap_or(1)
        .max(1)
        .min(lines.len().max(1));
    let next = AtomicUsize::new(0);
    let said = Mutex::new(BTreeMap::new());
    let log = Mutex::new(
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(output(dir, number))
            .ok(),
    );
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(line) = lines.get(i) else { break };
                if stop.is_interrupted() {
                    break;
                }
                let id = line_id(line);
                let (mut end, bytes) = run_local(dir, line, stop);
                if let Ok(mut log) = log.lock() {
                    if let Some(file) = log.as_mut() {
                        let _ = writeln!(file, "== {id}: {}", end.words());
                        let _ = file.write_all(&bytes);
                    }
                }
                if !end.ok() {
                    let last = String::from_utf8_lossy(&bytes)
                        .lines()
                        .last()
                        .map(|l| l.trim().to_string());
                    end.said = end.said.or(last);
                    if let Ok(mut said) = said.lock() {
                        said.insert(id, end);
                    }
                }
            });
        }
    });
    said.into_inner().unwrap_or_default()
}

/// Runs one line with `sh -c` in `dir`, in a process group of its own
/// which is sent SIGTERM when `stop` is raised: how it ended, and its
/// output.
fn run_local(dir: &Path, line: &str, stop: &Interrupter) -> (TaskEnd, Vec<u8>) {
    let end = |exit: Option<Exit>, said: Option<String>| TaskEnd {
        by: None,
        exit,
        said,
    };
    let mut command = Command::new("sh");
    command
        .args(["-c", line])
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }
    let child = command.spawn();
    let mut child = match child {
        Ok(child) => child,
        Err(e) => return (end(None, Some(format!("cannot run sh: {e}"))), Vec::new()),
    };
    let output = collect(&mut child);
    let status = wait_stopping(&mut child, stop, cfg!(unix));
    let bytes = output.join().unwrap_or_default();
    match status {
        Some(status) => (end(exit_of(status), None), bytes),
        None => (
            end(None, Some("could not be waited for".to_string())),
            bytes,
        ),
    }
}

/// Reads a child's stdout and stderr to their ends on threads of their
/// own, so that neither pipe fills: both, joined.
fn collect(child: &mut Child) -> Collector {
    let mut out = child.stdout.take();
    let mut err = child.stderr.take();
    let stdout = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(pipe) = out.as_mut() {
            let _ = pipe.read_to_end(&mut bytes);
        }
        bytes
    });
    let stderr = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(pipe) = err.as_mut() {
            let _ = pipe.read_to_end(&mut bytes);
        }
        bytes
    });
    Collector { stdout, stderr }
}

/// The threads reading a child's output.
struct Collector {
    stdout: std::thread::JoinHandle<Vec<u8>>,
    stderr: std::thread::JoinHandle<Vec<u8>>,
}

impl Collector {
    fn join(self) -> Option<Vec<u8>> {
        let mut bytes = self.stdout.join().ok()?;
        bytes.extend(self.stderr.join().ok()?);
        Some(bytes)
    }
}

/// Waits for `child`, signalled once when `stop` is raised: its process
/// group sent SIGTERM when `group` (the child leads one), else it is sent
/// SIGINT (GNU parallel).
fn wait_stopping(
    child: &mut Child,
    stop: &Interrupter,
    group: bool,
) -> Option<std::process::ExitStatus> {
    let mut signalled = false;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) => {}
            Err(_) => return None,
        }
        if stop.is_interrupted() && !signalled {
            let pid = child.id().to_string();
            match group {
                true => terminate("-TERM", &format!("-{pid}")),
                // GNU parallel stops its jobs on SIGINT (with its
                // --termseq) and ends; on SIGTERM it would only stop
                // starting new ones.
                false => terminate("-INT", &pid),
            }
            signalled = true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Sends `signal` (`-TERM`) to `target`, a pid or (`-pid`) a process
/// group (boardsat's code has no `unsafe`, so through `kill`).
fn terminate(signal: &str, target: &str) {
    let _ = Command::new("kill")
        .args([signal, "--", target])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

/// An exit status as data: its code, or the signal that ended it.
fn exit_of(status: std::process::ExitStatus) -> Option<Exit> {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return Some(Exit::Signal(signal));
        }
    }
    status.code().map(Exit::Code)
}

/// Runs round `round` with GNU parallel from `dir` (see the module doc).
fn parallel(
    dir: &Path,
    round: &Round,
    max_tasks: Option<usize>,
    sshloginfile: Option<&Path>,
    stop: &Interrupter,
) -> Result<BTreeMap<String, TaskEnd>, JobsError> {
    let joblog = dir.join(ROUNDS).join(format!("{}.log", round.number));
    let mut command = Command::new("parallel");
    command.arg("--joblog").arg(&joblog).arg("--resume-failed");
    if let Some(n) = max_tasks {
        command.arg("-j").arg(n.to_string());
    }
    if let Some(file) = sshloginfile {
        command.arg("--sshloginfile").arg(file);
        // The remote jobs run in the split's directory (a shared file
        // system), with the caller's BOARDSAT if it set one.
        command.arg("--workdir").arg(dir);
        if std::env::var_os("BOARDSAT").is_some() {
            command.args(["--env", "BOARDSAT"]);
        }
    }
    let list =
        File::open(dir.join(&round.file)).map_err(|e| engine_error("read", &round.file, &e))?;
    let out = output(dir, round.number);
    let log = File::create(&out).map_err(|e| engine_error("write", &out, &e))?;
    let err = log
        .try_clone()
        .map_err(|e| engine_error("write", &out, &e))?;
    let mut child = command
        .current_dir(dir)
        .stdin(list)
        .stdout(log)
        .stderr(err)
        .spawn()
        .map_err(|e| EngineError::Spawn {
            program: "GNU parallel",
            reason: e.to_string(),
        })?;
    let status = wait_stopping(&mut child, stop, false);
    let mut said = BTreeMap::new();
    // The joblog: Seq Host Starttime JobRuntime Send Receive Exitval
    // Signal Command.
    if let Ok(text) = fs::read_to_string(&joblog) {
        for line in text.lines().skip(1) {
            let fields: Vec<&str> = line.splitn(9, '\t').collect();
            if let [_, host, _, _, _, _, exit, signal, command] = fields.as_slice() {
                let exit = match (exit.parse::<i32>(), signal.parse::<i32>()) {
                    (_, Ok(signal)) if signal != 0 => Some(Exit::Signal(signal)),
                    (Ok(code), _) => Some(Exit::Code(code)),
                    _ => None,
                };
                let end = TaskEnd {
                    by: Some(format!("GNU parallel on {host}")),
                    exit,
                    said: None,
                };
                if !end.ok() {
                    said.insert(line_id(command), end);
                }
            }
        }
    }
    if status.is_none() && !stop.is_interrupted() {
        return Err(EngineError::NotWaited("GNU parallel").into());
    }
    Ok(said)
}

/// The most tasks one array may have: the cluster's `MaxArraySize` less
/// one (indices from 0), from `scontrol show config`; Slurm's default
/// (1001) when it does not say.
fn max_array_size() -> usize {
    let said = Command::new("scontrol")
        .args(["show", "config"])
        .stderr(Stdio::null())
        .output();
    said.ok()
        .and_then(|o| {
            String::from_utf8_lossy(&o.stdout).lines().find_map(|l| {
                let (key, value) = l.split_once('=')?;
                (key.trim() == "MaxArraySize")
                    .then(|| value.trim().parse::<usize>().ok())
                    .flatten()
            })
        })
        .unwrap_or(1001)
        .saturating_sub(1)
        .max(1)
}

/// Runs round `round` of `n` lines as Slurm arrays of `slurm.sbatch`
/// (see the module doc), polling `squeue` until they end.
fn slurm(
    dir: &Path,
    round: &Round,
    n: usize,
    max_tasks: Option<usize>,
    stop: &Interrupter,
) -> Result<BTreeMap<String, TaskEnd>, JobsError> {
    let script = dir.join(SLURM_SCRIPT);
    if !layout::real_file(&script)? {
        return Err(EngineError::NoScript(script.display().to_string()).into());
    }
    let arrays = submit(dir, &script, round, n, max_tasks)?;
    wait_round(&arrays, stop);
    Ok(slurm_said(dir, round, &arrays))
}

/// Submits round `round` of `n` lines as Slurm arrays of `script`, each
/// of at most the cluster's `MaxArraySize` tasks: their ids, first lines
/// and sizes. A refusal cancels the arrays already submitted.
fn submit(
    dir: &Path,
    script: &Path,
    round: &Round,
    n: usize,
    max_tasks: Option<usize>,
) -> Result<Vec<(String, usize, usize)>, JobsError> {
    let chunk = max_array_size();
    let mut arrays: Vec<(String, usize, usize)> = Vec::new();
    let mut offset = 0;
    while offset < n {
        let size = chunk.min(n - offset);
        let mut array = format!("--array=0-{}", size - 1);
        if let Some(cap) = max_tasks {
            array.push_str(&format!("%{cap}"));
        }
        let c = arrays.len();
        let out = dir
            .join(ROUNDS)
            .join(format!("slurm-{}-{c}-%a.out", round.number));
        let said = Command::new("sbatch")
            .arg("--parsable")
            .arg(array)
            .arg(format!("--job-name={}", slurm_name(dir, round.number)))
            .arg(format!("--output={}", out.display()))
            .arg(format!("--chdir={}", dir.display()))
            .arg(script)
            .arg(&round.file)
            .arg(offset.to_string())
            // Each task's exit, recorded beside its output.
            .arg(dir.join(ROUNDS).join(format!("slurm-{}-{c}", round.number)))
            .current_dir(dir)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| EngineError::Spawn {
                program: "sbatch",
                reason: e.to_string(),
            })?;
        let text = String::from_utf8_lossy(&said.stdout);
        let id = text.trim().split(';').next().unwrap_or("").to_string();
        if !said.status.success() || id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) {
            cancel(&arrays);
            let err = String::from_utf8_lossy(&said.stderr);
            return Err(EngineError::Refused {
                round: round.number,
                reason: err
                    .lines()
                    .next()
                    .unwrap_or("no reason given")
                    .trim()
                    .to_string(),
            }
            .into());
        }
        arrays.push((id, offset, size));
        offset += size;
    }
    Ok(arrays)
}

/// Waits until the arrays end; stopped, cancels them and waits for their
/// tasks to write what they have.
fn wait_round(arrays: &[(String, usize, usize)], stop: &Interrupter) {
    let start = Instant::now();
    loop {
        if stop.is_interrupted() {
            cancel(arrays);
            // The tasks write what they have; wait for them to end.
            wait_arrays(arrays, &Interrupter::new(), start);
            break;
        }
        if !arrays.iter().any(|(id, _, _)| queued(id)) {
            break;
        }
        // Poll at a tenth of the round's time so far, between a quarter of
        // a second and five seconds.
        let pause =
            (start.elapsed() / 10).clamp(Duration::from_millis(250), Duration::from_secs(5));
        std::thread::sleep(pause);
    }
}

/// What the failed tasks of the arrays said last, by job.
fn slurm_said(
    dir: &Path,
    round: &Round,
    arrays: &[(String, usize, usize)],
) -> BTreeMap<String, TaskEnd> {
    let lines = fs::read_to_string(dir.join(&round.file)).unwrap_or_default();
    let lines: Vec<&str> = lines.lines().collect();
    let mut said = BTreeMap::new();
    for (c, (id, offset, size)) in arrays.iter().enumerate() {
        for task in 0..*size {
            let out = dir
                .join(ROUNDS)
                .join(format!("slurm-{}-{c}-{task}.out", round.number));
            let text = fs::read_to_string(&out).unwrap_or_default();
            let last = text.lines().rev().find(|l| !l.trim().is_empty());
            // The task's exit, as slurm.sbatch records it (a split
            // written before it did has none: every task is reported,
            // and only those whose job has no answer are shown).
            let exit = fs::read_to_string(out.with_extension("exit"))
                .ok()
                .and_then(|t| t.trim().parse::<i32>().ok())
                .map(Exit::Code);
            let end = TaskEnd {
                by: Some(format!("Slurm task {id}_{task}")),
                exit,
                // The task's own message, quoted inside this one: without
                // its "error: ", so the line stays one error.
                said: Some(last.map_or("no output".to_string(), |l| {
                    let l = l.trim();
                    l.strip_prefix("error: ").unwrap_or(l).to_string()
                })),
            };
            if let (false, Some(line)) = (exit == Some(Exit::Code(0)), lines.get(offset + task)) {
                said.insert(line_id(line), end);
            }
        }
    }
    said
}

/// The Slurm job name of round `number` of the split in `dir`:
/// `boardsat-<the split's id, 8 digits>-r<number>`, so that `squeue
/// --name` finds one split's rounds.
#[must_use]
pub fn slurm_name(dir: &Path, number: usize) -> String {
    let split = crate::manifest::read_manifest(dir)
        .map(|m| m.split)
        .unwrap_or_default();
    format!("boardsat-{}-r{number}", split.get(..8).unwrap_or(&split))
}

/// Whether Slurm job `id` still has tasks queued or running.
fn queued(id: &str) -> bool {
    let said = Command::new("squeue")
        .args(["--noheader", "--format=%i", "--jobs", id])
        .stdin(Stdio::null())
        .output();
    match said {
        // A job Slurm no longer knows ("Invalid job id") has ended.
        Ok(o) => o.status.success() && !String::from_utf8_lossy(&o.stdout).trim().is_empty(),
        Err(_) => false,
    }
}

/// Waits for the arrays to end (after they were cancelled).
fn wait_arrays(arrays: &[(String, usize, usize)], stop: &Interrupter, start: Instant) {
    while !stop.is_interrupted() && arrays.iter().any(|(id, _, _)| queued(id)) {
        if start.elapsed() > Duration::from_secs(24 * 3600) {
            break;
        }
        std::thread::sleep(Duration::from_millis(500));
    }
}

/// Cancels the arrays submitted.
fn cancel(arrays: &[(String, usize, usize)]) {
    for (id, _, _) in arrays {
        let _ = Command::new("scancel")
            .arg(id)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
}

fn engine_error(action: &'static str, path: &Path, e: &std::io::Error) -> JobsError {
    EngineError::Io {
        action,
        path: path.display().to_string(),
        reason: boardsat_solve::files::describe(e),
    }
    .into()
}

/// Whether `program` is on the `PATH`.
fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(program).is_file()))
}

/// The lock of the one driver of a split, `rounds/driver.lock`, held
/// while it lives.
struct DriverLock {
    _file: File,
}

/// Whether a driver runs the split in `dir` now: the process holding
/// `rounds/driver.lock` (its pid when it says), probed with a shared
/// lock held for an instant.
///
/// # Errors
///
/// [`JobsError::Layout`] for a lock that is not a regular file.
pub fn driving(dir: &Path) -> Result<Option<Option<u32>>, JobsError> {
    let path = dir.join(ROUNDS).join(DRIVER_LOCK);
    if !layout::real_file(&path)? {
        return Ok(None);
    }
    let Ok(mut file) = File::open(&path) else {
        return Ok(None);
    };
    match file.try_lock_shared() {
        Err(TryLockError::WouldBlock) => {
            let mut text = String::new();
            let _ = file.read_to_string(&mut text);
            Ok(Some(text.trim().parse().ok()))
        }
        _ => Ok(None),
    }
}

impl DriverLock {
    /// Takes the lock, or fails when another driver holds it (after a
    /// quarter of a second: a probe, [`driving`], holds it for an
    /// instant).
    fn take(dir: &Path) -> Result<DriverLock, JobsError> {
        let folder = dir.join(ROUNDS);
        if !layout::real_dir(&folder)? {
            fs::create_dir_all(&folder).map_err(|e| engine_error("create", &folder, &e))?;
        }
        let path = folder.join(DRIVER_LOCK);
        layout::real_file(&path)?;
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| engine_error("open", &path, &e))?;
        let start = Instant::now();
        let mut locked = file.try_lock();
        while matches!(locked, Err(TryLockError::WouldBlock))
            && start.elapsed() < Duration::from_millis(250)
        {
            std::thread::sleep(Duration::from_millis(10));
            locked = file.try_lock();
        }
        match locked {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let mut text = String::new();
                let _ = file.read_to_string(&mut text);
                return Err(EngineError::Driven {
                    dir: dir.display().to_string(),
                    holder: text.trim().parse::<u32>().ok(),
                }
                .into());
            }
            Err(TryLockError::Error(e)) => return Err(engine_error("lock", &path, &e)),
        }
        let _ = file
            .set_len(0)
            .and_then(|()| write!(file, "{}", std::process::id()));
        Ok(DriverLock { _file: file })
    }
}

/// The given-up jobs in one line: `cube-00003 (stopped (interrupted);
/// …), …`.
#[must_use]
pub fn given_up_line(given_up: &[(String, String)]) -> String {
    let shown: Vec<String> = given_up
        .iter()
        .map(|(id, why)| format!("{id} ({why})"))
        .collect();
    summary(&shown)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engines_have_their_names_and_programs() {
        for (engine, name, program) in [
            (Engine::Local, "local", None),
            (
                Engine::Parallel { sshloginfile: None },
                "parallel",
                Some("parallel"),
            ),
            (Engine::Slurm, "slurm", Some("sbatch")),
        ] {
            assert_eq!(engine.name(), name);
            assert!(Engine::NAMES.contains(&name));
            assert_eq!(engine.program(), program);
        }
        for name in Engine::NAMES {
            let engine = Engine::named(name, None).expect("a registered name");
            assert_eq!(engine.name(), name);
        }
        assert_eq!(Engine::named("htcondor", None), None);
        assert_eq!(
            line_id("\"${BOARDSAT:-/b}\" job . cube-00003.07"),
            "cube-00003.07"
        );
    }
}
