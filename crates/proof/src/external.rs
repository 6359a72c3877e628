//! A second LRAT checker that boardsat did not write (cake_lpr, the
//! CakeML-verified checker, or any program that takes a formula and a
//! proof): run on every claim's formula and proof *in addition to*
//! boardsat's own checks, never instead of them. A claim verifies only
//! when both accept it; the verdict names the checker.
//!
//! The program is called as `PROGRAM FORMULA.cnf PROOF` and accepts when
//! it exits 0 *and* prints a line starting with `s VERIFIED` on standard
//! output (cake_lpr prints `s VERIFIED UNSAT`; drat-trim `s VERIFIED`).
//! Anything else — another exit code, a signal, no such line, no answer
//! within the timeout, a program that cannot be started — is a rejection
//! naming the checker and what it did.
//!
//! A text proof stored as it was written is given by its path. A binary
//! or compressed proof is written out as text LRAT
//! ([`boardsat_lrat::write_text`]) into the checker's standard input,
//! which it reads as `/dev/stdin`: streamed, never a second copy on
//! disk. The conversion adds nothing to what must be trusted: the checker
//! checks whatever steps it is given against the claim's formula, which
//! it reads itself from the file boardsat checked.
//!
//! The checker is identified by its path and the SHA-256 of its
//! executable ([`ExternalChecker::sha256`]), which results record.

use std::{
    fs,
    io::{BufWriter, Read},
    os::unix::fs::PermissionsExt,
    path::{Path, PathBuf},
    process::{Child, Command, ExitStatus, Stdio},
    sync::{
        atomic::{AtomicU64, Ordering},
        mpsc,
    },
    thread,
    time::{Duration, Instant},
};

use boardsat_lrat::Syntax;
use boardsat_solve::{formula::dimacs::digest, stop::Interrupter};

/// How long a checker may take on one claim unless told otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(3600);

/// The line an accepting checker prints.
const ACCEPTS: &str = "s VERIFIED";

/// Why a program cannot be used as a checker at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CheckerError {
    /// No file at the path.
    #[error("the checker {0} does not exist")]
    Missing(PathBuf),
    /// Not a regular file (a directory, a device).
    #[error("the checker {0} is not a regular file")]
    NotAFile(PathBuf),
    /// No execute permission.
    #[error("the checker {0} is not executable")]
    NotExecutable(PathBuf),
    /// It could not be read (to identify it).
    #[error("cannot read the checker {path}: {reason}")]
    Unreadable {
        /// The checker.
        path: PathBuf,
        /// The I/O error, in words.
        reason: String,
    },
}

/// An external LRAT checker (see the module doc), and how many proofs it
/// has accepted.
#[derive(Debug)]
pub struct ExternalChecker {
    program: PathBuf,
    name: String,
    sha256: String,
    timeout: Duration,
    accepted: AtomicU64,
}

impl ExternalChecker {
    /// The checker at `program` (a path; a bare name is looked up on
    /// `PATH`), allowed `timeout` per claim.
    ///
    /// # Errors
    ///
    /// [`CheckerError`] when `program` is missing, not a regular file, not
    /// executable or unreadable.
    pub fn new(program: &Path, timeout: Duration) -> Result<Self, CheckerError> {
        let program = resolve(program)?;
        let meta = fs::metadata(&program).map_err(|_| CheckerError::Missing(program.clone()))?;
        if !meta.is_file() {
            return Err(CheckerError::NotAFile(program));
        }
        if meta.permissions().mode() & 0o111 == 0 {
            return Err(CheckerError::NotExecutable(program));
        }
        let bytes = fs::read(&program).map_err(|e| CheckerError::Unreadable {
            path: program.clone(),
            reason: e.to_string(),
        })?;
        let name = program.file_name().map_or_else(
            || program.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        Ok(ExternalChecker {
            sha256: digest(&bytes),
            program,
            name,
            timeout,
            accepted: AtomicU64::new(0),
        })
    }

    /// The checker's file name (`cake_lpr`).
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The checker's path, as resolved.
    #[must_use]
    pub fn program(&self) -> &Path {
        &self.program
    }

    /// The SHA-256 of the checker's executable, lower-case hex: which
    /// build of it accepted the proofs.
    #[must_use]
    pub fn sha256(&self) -> &str {
        &self.sha256
    }

    /// The proofs it has accepted so far.
    #[must_use]
    pub fn accepted(&self) -> u64 {
        self.accepted.load(Ordering::Relaxed)
    }

    /// The checker in words, for a verdict: its name and path.
    #[must_use]
    pub fn describe(&self) -> String {
        format!("{} ({})", self.name, self.program.display())
    }

    /// The checker's command on `cnf` and the proof at `proof`: a plain
    /// text proof is named, any other streamed through its stdin.
    fn command(&self, cnf: &Path, proof: &Path, syntax: Syntax) -> Command {
        let streamed = syntax != Syntax::Text || is_compressed(proof);
        let mut command = Command::new(&self.program);
        command
            .arg(cnf)
            .arg(if streamed {
                Path::new("/dev/stdin")
            } else {
                proof
            })
            .stdin(if streamed {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        command
    }

    /// Runs the checker on `cnf` and the proof at `proof` (written in
    /// `syntax`, stored plain or zstd-compressed): its acceptance line, or
    /// why it did not accept, in words that name the checker.
    ///
    /// # Errors
    ///
    /// The reason, when the checker does not accept (see the module doc).
    pub fn check(
        &self,
        cnf: &Path,
        proof: &Path,
        syntax: Syntax,
        stop: Option<&Interrupter>,
    ) -> Result<String, String> {
        let started = Instant::now();
        let why = |what: String| format!("{}: {what}", self.describe());
        let mut child = self
            .command(cnf, proof, syntax)
            .spawn()
            .map_err(|e| why(format!("cannot be started: {e}")))?;
        // Its outputs are read while it runs (a talkative checker never
        // blocks on a full pipe); their closing at its end wakes the wait.
        let (closed, ends) = mpsc::channel();
        let stdout = child.stdout.take().map(|r| drain(r, closed.clone()));
        let stderr = child.stderr.take().map(|r| drain(r, closed));
        let feeder = child.stdin.take().map(|stdin| {
            let proof = proof.to_path_buf();
            thread::spawn(move || feed(&proof, syntax, stdin))
        });
        let status = wait(&mut child, &ends, started + self.timeout, stop);
        // The feeder ends once the checker is gone: its writes then fail.
        let fed = feeder.map(|f| f.join().unwrap_or_else(|_| Err("panicked".to_string())));
        let out = stdout.map(join).unwrap_or_default();
        let err = stderr.map(join).unwrap_or_default();
        let status = match status {
            Waited::Exited(status) => status,
            Waited::TimedOut => {
                return Err(why(format!(
                    "no answer within {} s (stopped)",
                    self.timeout.as_secs_f64()
                )))
            }
            Waited::Stopped => return Err(why("stopped before it answered".to_string())),
            Waited::Failed(e) => return Err(why(format!("cannot be waited for: {e}"))),
        };
        let accepted = out.lines().find(|l| l.starts_with(ACCEPTS));
        match (status.success(), accepted) {
            (true, Some(line)) => {
                self.accepted.fetch_add(1, Ordering::Relaxed);
                Ok(line.trim_end().to_string())
            }
            (ok, _) => {
                let said = last_words(&out, &err);
                let ended = ended(status);
                Err(why(match (ok, fed) {
                    (_, Some(Err(e))) if !ok => {
                        format!("{ended}{said} (the proof could not be written out: {e})")
                    }
                    (true, _) => format!("{ended} without a '{ACCEPTS}' line{said}"),
                    (false, _) => format!("{ended}{said}"),
                }))
            }
        }
    }
}

/// `program` as a path: a bare name is looked up on `PATH`.
fn resolve(program: &Path) -> Result<PathBuf, CheckerError> {
    if program.components().count() > 1 || program.is_absolute() {
        return Ok(program.to_path_buf());
    }
    std::env::var_os("PATH")
        .and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|dir| dir.join(program))
                .find(|candidate| candidate.is_file())
        })
        .ok_or_else(|| CheckerError::Missing(program.to_path_buf()))
}

/// Whether the file starts with a zstd frame.
fn is_compressed(proof: &Path) -> bool {
    let mut magic = [0u8; 4];
    fs::File::open(proof)
        .and_then(|mut f| f.read_exact(&mut magic))
        .is_ok()
        && magic == crate::compress::ZSTD_MAGIC
}

/// Writes the proof as text LRAT into the checker's input.
fn feed(proof: &Path, syntax: Syntax, stdin: std::process::ChildStdin) -> Result<(), String> {
    let file = fs::File::open(proof).map_err(|e| e.to_string())?;
    let reader = crate::compress::open_proof(file).map_err(|e| e.to_string())?;
    boardsat_lrat::write_text(reader, syntax, BufWriter::with_capacity(1 << 16, stdin))
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// A thread reading all of `from`, kept to its last 64 KiB; `closed`
/// hears when it ends.
fn drain<R: Read + Send + 'static>(
    mut from: R,
    closed: mpsc::Sender<()>,
) -> thread::JoinHandle<String> {
    thread::spawn(move || {
        let mut kept = Vec::new();
        let mut buf = [0u8; 8192];
        while let Ok(n) = from.read(&mut buf) {
            if n == 0 {
                break;
            }
            kept.extend_from_slice(&buf[..n]);
            if kept.len() > 1 << 17 {
                kept.drain(..kept.len() - (1 << 16));
            }
        }
        let _ = closed.send(());
        String::from_utf8_lossy(&kept).into_owned()
    })
}

fn join(handle: thread::JoinHandle<String>) -> String {
    handle.join().unwrap_or_default()
}

/// How waiting for the checker ended.
enum Waited {
    Exited(ExitStatus),
    TimedOut,
    Stopped,
    Failed(std::io::Error),
}

/// Waits for `child` until `deadline` or `stop`, kills it when either
/// comes first. `ends` hears its outputs close (at its end, as a rule),
/// so a quick checker is not waited for longer than it runs.
fn wait(
    child: &mut Child,
    ends: &mpsc::Receiver<()>,
    deadline: Instant,
    stop: Option<&Interrupter>,
) -> Waited {
    let (mut closed, mut pause) = (0, Duration::from_millis(1));
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Waited::Exited(status),
            Ok(None) => {}
            Err(e) => return Waited::Failed(e),
        }
        let now = Instant::now();
        let late = now >= deadline;
        let stopped = stop.is_some_and(Interrupter::is_interrupted);
        if late || stopped {
            let _ = child.kill();
            let _ = child.wait();
            return if stopped {
                Waited::Stopped
            } else {
                Waited::TimedOut
            };
        }
        if closed < 2 {
            // Both outputs open: wait for one to close (or a tenth of a
            // second, to look at the deadline and the stop again).
            let tick = Duration::from_millis(100).min(deadline - now);
            match ends.recv_timeout(tick) {
                Ok(()) => closed += 1,
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => closed = 2,
            }
        } else {
            // Outputs closed but still running: a short poll.
            thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(50));
        }
    }
}

/// How the process ended, in words.
fn ended(status: ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(0), _) => "exited 0".to_string(),
        (Some(code), _) => format!("rejected the proof (exit {code})"),
        (None, Some(signal)) => format!("crashed (signal {signal})"),
        (None, None) => "ended abnormally".to_string(),
    }
}

/// The checker's last line of output (standard error first), quoted, or
/// that it printed nothing.
fn last_words(out: &str, err: &str) -> String {
    let last = |text: &str| {
        text.lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .map(|l| l.trim().chars().take(200).collect::<String>())
    };
    match last(err).or_else(|| last(out)) {
        Some(line) => format!(": '{line}'"),
        None => ", printing nothing".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
        let path = dir.join(name);
        fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    #[test]
    fn a_checker_accepts_only_with_exit_0_and_its_line() {
        let tmp = tempfile::tempdir().unwrap();
        let (cnf, proof) = (tmp.path().join("f.cnf"), tmp.path().join("p.lrat"));
        fs::write(&cnf, "p cnf 1 2\n1 0\n-1 0\n").unwrap();
        fs::write(&proof, "3 0 1 2 0\n").unwrap();
        let run = |body: &str, timeout: u64| {
            let path = script(tmp.path(), "checker", body);
            ExternalChecker::new(&path, Duration::from_secs(timeout))
                .unwrap()
                .check(&cnf, &proof, Syntax::Text, None)
        };
        assert_eq!(
            run("echo 's VERIFIED UNSAT'", 60),
            Ok("s VERIFIED UNSAT".to_string())
        );
        let no = |body: &str, timeout: u64| run(body, timeout).unwrap_err();
        assert!(no("echo 's VERIFIED UNSAT'; exit 1", 60).contains("exit 1"));
        assert!(no("exit 0", 60).contains("without a 's VERIFIED' line, printing nothing"));
        assert!(no("echo bad proof >&2; exit 3", 60).contains("'bad proof'"));
        assert!(no("kill -SEGV $$", 60).contains("crashed (signal 11)"));
        assert!(no("exec sleep 600", 1).contains("no answer within 1 s"));
    }

    #[test]
    fn a_checker_that_cannot_run_is_refused_before_any_claim() {
        let tmp = tempfile::tempdir().unwrap();
        let missing = tmp.path().join("nothing");
        let refused = |path: &Path| ExternalChecker::new(path, DEFAULT_TIMEOUT).unwrap_err();
        assert_eq!(refused(&missing), CheckerError::Missing(missing.clone()));
        let plain = tmp.path().join("plain");
        fs::write(&plain, "").unwrap();
        assert_eq!(refused(&plain), CheckerError::NotExecutable(plain.clone()));
        assert_eq!(
            refused(tmp.path()),
            CheckerError::NotAFile(tmp.path().to_path_buf())
        );
        assert_eq!(
            refused(Path::new("no-such-checker-on-path")),
            CheckerError::Missing("no-such-checker-on-path".into())
        );
    }

    #[test]
    fn a_binary_proof_reaches_the_checker_as_text() {
        let tmp = tempfile::tempdir().unwrap();
        let (cnf, proof) = (tmp.path().join("f.cnf"), tmp.path().join("p.lrat"));
        fs::write(&cnf, "p cnf 1 2\n1 0\n-1 0\n").unwrap();
        // a 3 0 1 2 0 (varints: 3 → 6, 1 → 2, 2 → 4).
        fs::write(&proof, [b'a', 6, 0, 2, 4, 0]).unwrap();
        let seen = tmp.path().join("seen");
        let path = script(
            tmp.path(),
            "checker",
            &format!("cat \"$2\" > {}; echo 's VERIFIED UNSAT'", seen.display()),
        );
        let checker = ExternalChecker::new(&path, DEFAULT_TIMEOUT).unwrap();
        assert!(checker.check(&cnf, &proof, Syntax::Binary, None).is_ok());
        assert_eq!(fs::read_to_string(&seen).unwrap(), "3 0 1 2 0\n");
    }
}
