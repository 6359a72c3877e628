//! The `parallel` engine: a round run by GNU parallel from the split's
//! directory, `parallel --joblog rounds/R.log --resume-failed [-j N] <
//! LIST`, over the machines of an `--sshloginfile` when given (then with
//! `--workdir DIR`, the split's directory on a shared file system, and
//! `--env BOARDSAT` when the caller set it). Its output goes to
//! `rounds/R.out`; a task's end is read from its joblog, a table GNU
//! parallel writes (its host, exit value and signal), never from its
//! messages. Stopped, GNU parallel is sent SIGINT, on which it stops its
//! jobs and ends.

use std::{
    fs::{self, File},
    path::{Path, PathBuf},
    process::Command,
    sync::Arc,
};

use boardsat_solve::stop::Interrupter;

use crate::{
    error::{EngineError, JobsError},
    layout::ROUNDS,
};

use super::{
    engine_error, line_id, output, wait_stopping, Exit, Registration, RoundRunner, RoundTasks,
    TaskEnd, TaskEnds,
};

/// The engine's registration.
pub(super) const ENGINE: Registration = Registration {
    name: "parallel",
    make: |sshloginfile| Arc::new(Parallel { sshloginfile }),
};

/// GNU parallel, over the machines of an `--sshloginfile` when given.
#[derive(Debug)]
struct Parallel {
    /// GNU parallel's list of machines (`4/host`, `:` for this one).
    sshloginfile: Option<PathBuf>,
}

impl RoundRunner for Parallel {
    fn name(&self) -> &'static str {
        ENGINE.name
    }

    fn program(&self) -> Option<&'static str> {
        Some("parallel")
    }

    fn takes_hosts(&self) -> bool {
        true
    }

    fn check(&self) -> Result<(), JobsError> {
        match &self.sshloginfile {
            Some(file) if !file.is_file() => {
                Err(EngineError::SshLoginFile(file.display().to_string()).into())
            }
            _ => Ok(()),
        }
    }

    fn run(&self, round: &RoundTasks<'_>, stop: &Interrupter) -> Result<TaskEnds, JobsError> {
        let (dir, number) = (round.dir, round.round.number);
        let joblog = dir.join(ROUNDS).join(format!("{number}.log"));
        let mut command = self.command(dir, &joblog, round.max_tasks);
        let file = &round.round.file;
        let list = File::open(dir.join(file)).map_err(|e| engine_error("read", file, &e))?;
        let out = output(dir, number);
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
        let ends = joblog_ends(&joblog);
        if status.is_none() && !stop.is_interrupted() {
            return Err(EngineError::NotWaited("GNU parallel").into());
        }
        Ok(ends)
    }
}

impl Parallel {
    /// GNU parallel's command line for a round of the split in `dir`,
    /// logging to `joblog`.
    fn command(&self, dir: &Path, joblog: &Path, max_tasks: Option<usize>) -> Command {
        let mut command = Command::new("parallel");
        command.arg("--joblog").arg(joblog).arg("--resume-failed");
        if let Some(n) = max_tasks {
            command.arg("-j").arg(n.to_string());
        }
        if let Some(file) = &self.sshloginfile {
            command.arg("--sshloginfile").arg(file);
            // The remote jobs run in the split's directory (a shared file
            // system), with the caller's BOARDSAT if it set one.
            command.arg("--workdir").arg(dir);
            if std::env::var_os("BOARDSAT").is_some() {
                command.args(["--env", "BOARDSAT"]);
            }
        }
        command
    }
}

/// The tasks of a round that did not end well, as GNU parallel's joblog
/// records them: `Seq Host Starttime JobRuntime Send Receive Exitval
/// Signal Command`, tab-separated, after a header.
fn joblog_ends(joblog: &Path) -> TaskEnds {
    let mut ends = TaskEnds::new();
    let Ok(text) = fs::read_to_string(joblog) else {
        return ends;
    };
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
                ends.insert(line_id(command), end);
            }
        }
    }
    ends
}
