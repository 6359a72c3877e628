//! The `local` engine: a round run on this machine's cores, `sh -c LINE`
//! for each line from the split's directory, `--max-tasks` at a time
//! (default: one per core), each in a process group of its own that is
//! sent SIGTERM when the driver is stopped. Each job's output is appended
//! to `rounds/R.out` under a `== <id>: <how it ended>` line; a task's end
//! is its exit status as data, with its last line of output when it did
//! not end well.

use std::{
    fs::OpenOptions,
    io::{Read as _, Write as _},
    path::Path,
    process::{Child, Command, Stdio},
    sync::{
        atomic::{AtomicUsize, Ordering},
        Arc, Mutex,
    },
};

use boardsat_solve::stop::Interrupter;

use crate::error::JobsError;

use super::{
    line_id, output, wait_stopping, Exit, Registration, RoundRunner, RoundTasks, TaskEnd, TaskEnds,
};

/// The engine's registration.
pub(super) const ENGINE: Registration = Registration {
    name: "local",
    make: |_| Arc::new(Local),
};

/// This machine's cores.
#[derive(Debug)]
struct Local;

impl RoundRunner for Local {
    fn name(&self) -> &'static str {
        ENGINE.name
    }

    fn program(&self) -> Option<&'static str> {
        None
    }

    fn run(&self, round: &RoundTasks<'_>, stop: &Interrupter) -> Result<TaskEnds, JobsError> {
        Ok(local(
            round.dir,
            round.round.number,
            round.lines,
            round.max_tasks,
            stop,
        ))
    }
}

/// Runs `lines` with `sh -c` from `dir`, `max_tasks` at a time (default:
/// one per core); each job's output appended to `rounds/R.out`.
fn local(
    dir: &Path,
    number: usize,
    lines: &[String],
    max_tasks: Option<usize>,
    stop: &Interrupter,
) -> TaskEnds {
    let workers = max_tasks
        .or_else(|| std::thread::available_parallelism().ok().map(usize::from))
        .unwrap_or(1)
        .max(1)
        .min(lines.len().max(1));
    let next = AtomicUsize::new(0);
    let said = Mutex::new(TaskEnds::new());
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
