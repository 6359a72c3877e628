//! The rounds of a split handed to an engine until every job has its
//! answer (`boardsat jobs DIR --run ENGINE`). boardsat schedules nothing
//! itself beyond this machine: it lists a round ([`crate::rounds`]),
//! hands the list to the engine, waits for the engine to finish it, and
//! lists the next round from what the jobs wrote.
//!
//! | engine | its module | a round is run by |
//! |---|---|---|
//! | `local` | `engine/local.rs` | this machine's cores: `sh -c LINE` for each line, `--max-tasks` at a time (default: one per core); the jobs' output in `rounds/R.out` |
//! | `parallel` | `engine/parallel.rs` | GNU parallel, from the split's directory: `parallel --joblog rounds/R.log --resume-failed [-j N] [--sshloginfile FILE --workdir DIR --env BOARDSAT] < LIST`; its output in `rounds/R.out` |
//! | `slurm` | `engine/slurm.rs` | Slurm job arrays of `slurm.sbatch`, one task per line (`sbatch --array=0-(N-1)%CAP … slurm.sbatch LIST OFFSET`, split into arrays of at most the cluster's `MaxArraySize`), polled with `squeue` until they end; each task's output in `rounds/slurm-R-C-T.out`, its exit in `rounds/slurm-R-C-T.exit` |
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
//! **One interface.** Each engine is one module that implements
//! [`RoundRunner`]: its name, the program it needs on the `PATH`, what
//! else it checks before the first round, whether it takes a list of
//! machines, and [`RoundRunner::run`], which runs one round — submits
//! it, waits for it, stops it when the driver is stopped — and reports
//! how each task that did not end well ended, as data ([`TaskEnd`]: who
//! ran it, its exit code or signal, its last line), never as a sentence
//! for the driver to parse again. The driver words those ends only for
//! the jobs left without an answer ([`TaskEnd::words`]). Everything an
//! engine knows stays in its module: its command line, its logs and
//! their reading, its polling; the one exception is Slurm's array script,
//! which every split carries and so is written by [`crate::write`], a
//! layer below the engines: its text and the exit files it writes are in
//! [`crate::slurm_script`] (layer 2), which the Slurm engine submits and
//! reads back.
//!
//! **Adding an engine** (HTCondor, Kubernetes) takes one new module,
//! `engine/NAME.rs`, with a type implementing [`RoundRunner`] and its
//! registration (`pub(super) const ENGINE: Registration`, its name and
//! how it is made from the `--sshloginfile` it may take), and one line:
//! `NAME::ENGINE` in the registry, `ENGINES` in this file (beside its
//! `mod NAME;`). [`Engine::NAMES`] and [`Engine::named`] read the
//! registry, the command line takes its choices from them, and the
//! driver calls the engine through the trait, so nothing else changes.
//! An engine whose rounds need a file in every split (as Slurm's script)
//! puts it in a low module that [`crate::write`] writes, as
//! [`crate::slurm_script`] does.

use std::{
    collections::BTreeMap,
    fmt,
    fs::{self, File, OpenOptions, TryLockError},
    io::{Read as _, Write as _},
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    sync::Arc,
    time::{Duration, Instant},
};

use boardsat_solve::stop::{Interrupter, StopReason};

use crate::{
    error::{EngineError, JobsError},
    layout::{self, DRIVER_LOCK, ROUNDS},
    rounds::{write_round, Round, SplitStatus, State},
    tree::summary,
};

mod local;
mod parallel;
mod slurm;

pub use slurm::slurm_name;

/// The engines, in the order `--run` lists them: one line per engine
/// (see the module doc).
const ENGINES: [Registration; 3] = [local::ENGINE, parallel::ENGINE, slurm::ENGINE];

/// An engine as the registry lists it: its name, and how it is made from
/// the list of machines it may take (`--sshloginfile`).
#[derive(Clone, Copy)]
struct Registration {
    name: &'static str,
    make: fn(Option<PathBuf>) -> Arc<dyn RoundRunner>,
}

/// What every engine does (see the module doc): an engine is one module
/// implementing this, registered in the registry.
pub trait RoundRunner: fmt::Debug + Send + Sync {
    /// The engine's name, as `--run` takes it (its registration's).
    fn name(&self) -> &'static str;

    /// The program it needs on the `PATH`, if any.
    fn program(&self) -> Option<&'static str>;

    /// Whether it takes a list of machines (`--sshloginfile`).
    fn takes_hosts(&self) -> bool {
        false
    }

    /// Checks, before the first round and after its program was found,
    /// what else it needs (GNU parallel: its list of machines readable).
    ///
    /// # Errors
    ///
    /// [`JobsError::Engine`] saying what is missing.
    fn check(&self) -> Result<(), JobsError> {
        Ok(())
    }

    /// Runs `round` to its end: submits its lines, waits until every
    /// task ended, and stops them when `stop` is raised (the jobs write
    /// what they have). Returns how the tasks that did not end well
    /// ended, by job id (a line's last word); the driver reads each
    /// job's answer from the directory itself.
    ///
    /// # Errors
    ///
    /// [`JobsError::Engine`] when the engine fails to take the round or
    /// cannot be waited for.
    fn run(&self, round: &RoundTasks<'_>, stop: &Interrupter) -> Result<TaskEnds, JobsError>;
}

/// How the tasks of a round that did not end well ended, by job id.
pub type TaskEnds = BTreeMap<String, TaskEnd>;

/// A round as an engine runs it.
#[derive(Clone, Copy, Debug)]
pub struct RoundTasks<'a> {
    /// The split's directory (canonical).
    pub dir: &'a Path,
    /// The round: its number and list.
    pub round: &'a Round,
    /// The lines of its list, one task each.
    pub lines: &'a [String],
    /// The most tasks running at once (`None`: the engine's default).
    pub max_tasks: Option<usize>,
}

/// Where a round runs (see the module doc): one of the registered
/// engines.
#[derive(Clone)]
pub struct Engine {
    runner: Arc<dyn RoundRunner>,
}

impl fmt::Debug for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.runner.fmt(f)
    }
}

/// The names of `engines`, in their order.
const fn names<const N: usize>(engines: &[Registration; N]) -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = engines[i].name;
        i += 1;
    }
    out
}

impl Engine {
    /// The engines' names, as `--run` takes them.
    pub const NAMES: [&'static str; ENGINES.len()] = names(&ENGINES);

    /// The engine's name.
    #[must_use]
    pub fn name(&self) -> &'static str {
        self.runner.name()
    }

    /// The engine named `name` (one of [`Engine::NAMES`]), with GNU
    /// parallel's list of machines when it is an engine that takes one
    /// ([`Engine::takes_hosts`]); `None` for a name no engine has.
    #[must_use]
    pub fn named(name: &str, sshloginfile: Option<PathBuf>) -> Option<Engine> {
        ENGINES.iter().find(|e| e.name == name).map(|e| Engine {
            runner: (e.make)(sshloginfile),
        })
    }

    /// Whether the engine takes a list of machines (`--sshloginfile`):
    /// GNU parallel's.
    #[must_use]
    pub fn takes_hosts(&self) -> bool {
        self.runner.takes_hosts()
    }

    /// The program the engine needs on the `PATH`, if any.
    fn program(&self) -> Option<&'static str> {
        self.runner.program()
    }
}

/// How [`drive`] runs the rounds.
#[derive(Clone, Debug)]
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
    let mut attempts = Attempts::default();
    let mut rounds = Vec::new();
    let mut stopped = stop.reason();
    while stopped.is_none() {
        let runnable = attempts.runnable(&status, how.retries);
        if runnable.is_empty() {
            break;
        }
        let round = write_round(dir, &runnable, &how.program, Some(stop))?;
        progress(RoundEvent::Started(&round));
        let start = Instant::now();
        let said = run_round(dir, how, &round, stop)?;
        attempts.ran(&round);
        status = SplitStatus::read(dir)?;
        let run = summarise(
            &status,
            round,
            how.engine.name(),
            |id| said.get(id).map(TaskEnd::words),
            start.elapsed(),
        );
        attempts.failed(&run);
        progress(RoundEvent::Ended(&run));
        rounds.push(run);
        stopped = stop.reason();
    }
    Ok(Driven {
        rounds,
        given_up: attempts.given_up(&status, how.retries),
        status,
        stopped,
    })
}

/// How many rounds each job was listed in, and why it last failed.
#[derive(Default)]
struct Attempts {
    rounds: BTreeMap<String, usize>,
    why: BTreeMap<String, String>,
}

impl Attempts {
    /// The rounds job `id` was listed in.
    fn of(&self, id: &str) -> usize {
        self.rounds.get(id).copied().unwrap_or(0)
    }

    /// The jobs left that may run again.
    fn runnable(&self, status: &SplitStatus, retries: usize) -> Vec<String> {
        status
            .left()
            .into_iter()
            .filter(|id| self.of(id) <= retries)
            .collect()
    }

    /// The jobs left that failed more than `retries` times more, with why
    /// they last failed.
    fn given_up(&self, status: &SplitStatus, retries: usize) -> Vec<(String, String)> {
        status
            .left()
            .into_iter()
            .filter(|id| self.of(id) > retries)
            .map(|id| {
                let reason = self.why.get(&id).cloned().unwrap_or_default();
                (id, reason)
            })
            .collect()
    }

    /// Counts the round's jobs listed once more.
    fn ran(&mut self, round: &Round) {
        for id in &round.ids {
            *self.rounds.entry(id.clone()).or_default() += 1;
        }
    }

    /// Keeps why the round's failed jobs failed.
    fn failed(&mut self, run: &RoundRun) {
        for (id, reason) in &run.failed {
            self.why.insert(id.clone(), reason.clone());
        }
    }
}

/// Checks that `engine` can run here: its program on the `PATH`, and
/// what the engine checks itself ([`RoundRunner::check`]).
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
    engine.runner.check()
}

/// What round `round` did, from the status read after it and what was
/// `said` of a failed job (by the engine of its task's end, or by the call
/// that ran it in-process), by id. Shared by every engine and
/// [`crate::in_process`].
pub(crate) fn summarise(
    status: &SplitStatus,
    round: Round,
    engine: &'static str,
    said: impl Fn(&str) -> Option<String>,
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
                if let Some(words) = said(id) {
                    reason = format!("{reason}; {words}");
                }
                run.failed.push((id.clone(), reason));
            }
        }
    }
    run
}

/// Runs the lines of `round` on the engine; how the tasks that did not
/// end well ended, by job id.
fn run_round(
    dir: &Path,
    how: &Drive,
    round: &Round,
    stop: &Interrupter,
) -> Result<TaskEnds, JobsError> {
    let text = fs::read_to_string(dir.join(&round.file)).map_err(|e| JobsError::Dir {
        action: "read",
        path: dir.join(&round.file).display().to_string(),
        reason: boardsat_solve::files::describe(&e),
    })?;
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    let tasks = RoundTasks {
        dir,
        round,
        lines: &lines,
        max_tasks: how.max_tasks,
    };
    how.engine.runner.run(&tasks, stop)
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
        for (name, program, hosts) in [
            ("local", None, false),
            ("parallel", Some("parallel"), true),
            ("slurm", Some("sbatch"), false),
        ] {
            let engine = Engine::named(name, None).expect("a registered name");
            assert_eq!(engine.name(), name);
            assert!(Engine::NAMES.contains(&name));
            assert_eq!(engine.program(), program);
            assert_eq!(engine.takes_hosts(), hosts);
        }
        for name in Engine::NAMES {
            let engine = Engine::named(name, None).expect("a registered name");
            assert_eq!(engine.name(), name);
        }
        assert!(Engine::named("htcondor", None).is_none());
        assert_eq!(
            format!("{:?}", Engine::named("parallel", None).expect("registered")),
            "Parallel { sshloginfile: None }"
        );
        assert_eq!(
            line_id("\"${BOARDSAT:-/b}\" job . cube-00003.07"),
            "cube-00003.07"
        );
    }
}
