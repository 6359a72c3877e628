//! Any DIMACS solver binary, run through files.
//!
//! Each [`Backend::solve`] call writes every clause added so far, plus the
//! assumptions as unit clauses, to a fresh temporary CNF file with an honest
//! `p cnf <n_vars> <n_clauses>` header (`n_vars` is the largest of
//! [`Backend::reserve_vars`] and every variable used), runs the command on
//! it, parses the answer and checks any model against every clause sent.
//! Nothing persists in the solver between calls, so incremental use is
//! correct but each call pays for the whole formula again.
//!
//! ## The command line
//!
//! Split on whitespace; `'…'` is literal, `"…"` honours `\"` and `\\`, and a
//! backslash outside quotes escapes the next character. The program is
//! looked up on `PATH` when [`External::new`] runs, so a missing or
//! non-executable solver fails before any encoding work. In the arguments:
//!
//! - `{input}` is replaced by the CNF path; without it the path is appended.
//! - `{result}` is replaced by the path of a result file, and the answer is
//!   read from that file instead of stdout ([`OutputStyle::ResultFile`]).
//!
//! ## Output styles (the detection rule)
//!
//! - [`OutputStyle::ResultFile`], minisat style, when the arguments contain
//!   `{result}`, or when the program's file name is `minisat` or starts with
//!   `minisat` followed by a non-letter (`minisat2`, `minisat_static`,
//!   `minisat-2.2`; not `cryptominisat5`). For a detected minisat without
//!   `{result}` the result path is appended after the input path
//!   (`minisat in.cnf out.txt`). The file holds `SAT`, `UNSAT` or `INDET`,
//!   then the model as DIMACS literals ending in `0`
//!   ([`parse_result_file`]).
//! - [`OutputStyle::Competition`] otherwise: SAT-competition stdout with
//!   `s` and `v` lines ([`parse_output`]).
//!
//! In both styles exit code 10 means SAT and 20 UNSAT; a status that
//! contradicts the exit code is an error. Exit code 0 needs a status
//! (`s UNKNOWN` is fine); any other exit code without a status is a crash.
//! A solver killed by a signal has crashed, whatever it printed.
//!
//! ## Time limits and interrupts
//!
//! Both kill the solver process (SIGKILL) and return [`Status::Unknown`], as
//! the [`crate::backend::TimeLimit`] contract says; there is no time-out error,
//! because without a limit the call waits as long as an embedded solver
//! would. Only the process itself is killed: a wrapper script should `exec`
//! its solver. The solver runs in a process group of its own, so a
//! terminal's Ctrl-C (which signals the foreground group) reaches boardsat
//! only, and boardsat stops the solver; a solver that dies of a signal
//! while boardsat is being stopped counts as stopped, not crashed. Its stdout and stderr go to files, not pipes, so a leftover
//! grandchild cannot block the call. The handle stays usable afterwards.

use std::{
    ffi::OsString,
    fs::{self, File},
    io::{self, BufWriter, Write},
    path::{Path, PathBuf},
    process::{Child, Command, ExitStatus, Stdio},
    thread,
    time::{Duration, Instant},
};

use rustsat::types::{Lit, Var};

pub use crate::error::external::{ExternalError, OutputStyle};
use crate::{
    backend::Backend, backend::Interrupt, backend::Status, backend::TimeLimit, error::SolveError,
    stop::Interrupter,
};

/// The first and the longest pause between two looks at a running solver.
/// Enumeration runs thousands of short calls, so the first looks are quick.
const FIRST_POLL: Duration = Duration::from_micros(200);
const LAST_POLL: Duration = Duration::from_millis(10);

/// How much of a solver's stderr an error message quotes.
const STDERR_LINES: usize = 5;
const STDERR_CHARS: usize = 400;

/// A parsed solver answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalAnswer {
    /// What the solver said.
    pub status: Status,
    /// For [`Status::Sat`], the value of each variable `0..n_vars`
    /// (variables the solver did not print are `false`); otherwise `None`.
    pub model: Option<Vec<bool>>,
}

/// Any DIMACS solver binary.
#[derive(Debug)]
pub struct External {
    command_line: String,
    program: PathBuf,
    args: Vec<String>,
    style: OutputStyle,
    input_placeholder: bool,
    result_placeholder: bool,
    clauses: Vec<Vec<Lit>>,
    n_vars: u32,
    model: Option<Vec<bool>>,
    time_limit: Option<Duration>,
    interrupter: Interrupter,
}

impl External {
    /// A solver run as `command_line` (see the module docs for quoting,
    /// placeholders and output styles).
    ///
    /// # Errors
    ///
    /// [`SolveError::MissingCommand`] for an empty line;
    /// [`ExternalError::BadCommand`], [`ExternalError::NotFound`] or
    /// [`ExternalError::NotExecutable`] otherwise.
    pub fn new(command_line: &str) -> Result<Self, SolveError> {
        let command = command_line.trim().to_string();
        let mut words = split_command_line(&command)
            .map_err(|reason| ExternalError::BadCommand {
                command: command.clone(),
                reason,
            })?
            .into_iter();
        let program = words.next().ok_or(SolveError::MissingCommand)?;
        let args: Vec<String> = words.collect();
        let resolved = resolve(&command, &program)?;
        let result_placeholder = args.iter().any(|a| a.contains("{result}"));
        let style = if result_placeholder || is_minisat(&program) {
            OutputStyle::ResultFile
        } else {
            OutputStyle::Competition
        };
        Ok(External {
            input_placeholder: args.iter().any(|a| a.contains("{input}")),
            result_placeholder,
            command_line: command,
            program: resolved,
            args,
            style,
            clauses: Vec::new(),
            n_vars: 0,
            model: None,
            time_limit: None,
            interrupter: Interrupter::new(),
        })
    }

    /// Where answers are read from.
    #[must_use]
    pub fn output_style(&self) -> OutputStyle {
        self.style
    }

    /// The command line as given (trimmed).
    #[must_use]
    pub fn command_line(&self) -> &str {
        &self.command_line
    }

    fn io_error(&self, action: &'static str) -> impl FnOnce(io::Error) -> ExternalError + '_ {
        move |source| ExternalError::Io {
            command: self.command_line.clone(),
            action,
            source,
        }
    }

    fn write_cnf(&self, path: &Path, assumptions: &[Lit], n_vars: u32) -> io::Result<()> {
        let mut out = BufWriter::new(File::create(path)?);
        let n_clauses = self.clauses.len() + assumptions.len();
        writeln!(out, "p cnf {n_vars} {n_clauses}")?;
        for clause in &self.clauses {
            for &lit in clause {
                write!(out, "{} ", dimacs(lit))?;
            }
            writeln!(out, "0")?;
        }
        for &lit in assumptions {
            writeln!(out, "{} 0", dimacs(lit))?;
        }
        out.into_inner()
            .map_err(io::IntoInnerError::into_error)?
            .sync_all()
    }

    fn arguments(&self, input: &Path, result: &Path) -> Vec<OsString> {
        let mut args: Vec<OsString> = self
            .args
            .iter()
            .map(|a| substitute(a, input, result))
            .collect();
        if !self.input_placeholder {
            args.push(input.into());
        }
        if self.style == OutputStyle::ResultFile && !self.result_placeholder {
            args.push(result.into());
        }
        args
    }

    /// Waits for `child`; `None` when the time limit or an interrupt
    /// killed it.
    fn wait(&self, child: &mut Child) -> io::Result<Option<ExitStatus>> {
        let deadline = self.time_limit.map(|limit| Instant::now() + limit);
        let mut pause = FIRST_POLL;
        loop {
            match child.try_wait() {
                Ok(Some(status)) => return Ok(Some(status)),
                Ok(None) => {}
                Err(e) => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(e);
                }
            }
            let now = Instant::now();
            if deadline.is_some_and(|d| now >= d) || self.interrupter.is_interrupted() {
                // kill fails only when the child has already exited, which
                // the wait below then collects.
                let _ = child.kill();
                child.wait()?;
                return Ok(None);
            }
            let sleep = match deadline {
                Some(d) => pause.min(d.saturating_duration_since(now)),
                None => pause,
            };
            thread::sleep(sleep);
            pause = (pause * 2).min(LAST_POLL);
        }
    }

    fn run(&mut self, assumptions: &[Lit]) -> Result<Status, ExternalError> {
        let n_vars = assumptions
            .iter()
            .map(|l| l.vidx32() + 1)
            .fold(self.n_vars, u32::max);
        let dir = tempfile::Builder::new()
            .prefix("boardsat-external-")
            .tempdir()
            .map_err(self.io_error("create a temporary directory"))?;
        let input = dir.path().join("input.cnf");
        let result = dir.path().join("result.txt");
        let stdout_path = dir.path().join("stdout.txt");
        let stderr_path = dir.path().join("stderr.txt");
        self.write_cnf(&input, assumptions, n_vars)
            .map_err(self.io_error("write the CNF file"))?;
        let stdout = File::create(&stdout_path).map_err(self.io_error("create the stdout file"))?;
        let stderr = File::create(&stderr_path).map_err(self.io_error("create the stderr file"))?;

        let mut command = Command::new(&self.program);
        command
            .args(self.arguments(&input, &result))
            .stdin(Stdio::null())
            .stdout(stdout)
            .stderr(stderr);
        // A process group of its own: Ctrl-C in a terminal signals the
        // whole foreground group, and the solver must not die of the signal
        // boardsat is handling; boardsat stops it itself (`wait`).
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command.spawn().map_err(|source| match source.kind() {
            io::ErrorKind::NotFound => ExternalError::NotFound {
                command: self.command_line.clone(),
                program: self.program.display().to_string(),
            },
            io::ErrorKind::PermissionDenied => ExternalError::NotExecutable {
                command: self.command_line.clone(),
                path: self.program.clone(),
            },
            _ => ExternalError::Spawn {
                command: self.command_line.clone(),
                source,
            },
        })?;
        let Some(exit) = self
            .wait(&mut child)
            .map_err(self.io_error("wait for the solver"))?
        else {
            return Ok(Status::Unknown);
        };

        let stderr_tail = tail(&read_lossy(&stderr_path));
        let exit_code = exit.code();
        // Killed by a signal while boardsat was being stopped (a signal that
        // reached the solver too): an interruption, not a crash.
        if exit_code.is_none() && self.interrupter.is_interrupted() {
            return Ok(Status::Unknown);
        }
        if exit_code.is_none() {
            return Err(ExternalError::Crashed {
                command: self.command_line.clone(),
                how: describe_signal(exit),
                stderr: stderr_tail,
            });
        }
        let answer = match self.style {
            OutputStyle::Competition => parse_output(
                &read_lossy(&stdout_path),
                exit_code,
                n_vars,
                &self.command_line,
            ),
            OutputStyle::ResultFile => {
                parse_result_file(&read_lossy(&result), exit_code, n_vars, &self.command_line)
            }
        }
        .map_err(|e| e.with_stderr(&stderr_tail))?;

        if let Some(model) = answer.model {
            if let Some((number, clause)) = falsified(&self.clauses, assumptions, &model) {
                return Err(ExternalError::WrongModel {
                    command: self.command_line.clone(),
                    number,
                    clause,
                });
            }
            self.model = Some(model);
        }
        Ok(answer.status)
    }
}

impl Backend for External {
    fn add_clause(&mut self, clause: &[Lit]) -> Result<(), SolveError> {
        self.model = None;
        self.n_vars = clause
            .iter()
            .map(|l| l.vidx32() + 1)
            .fold(self.n_vars, u32::max);
        self.clauses.push(clause.to_vec());
        Ok(())
    }

    fn solve(&mut self, assumptions: &[Lit]) -> Result<Status, SolveError> {
        self.model = None;
        Ok(self.run(assumptions)?)
    }

    fn value(&mut self, var: Var) -> Result<bool, SolveError> {
        let model = self.model.as_ref().ok_or(SolveError::NoModel)?;
        Ok(model.get(var.idx()).copied().unwrap_or(false))
    }

    fn signature(&self) -> String {
        format!("external: {}", self.command_line)
    }

    fn reserve_vars(&mut self, n_vars: u32) {
        self.n_vars = self.n_vars.max(n_vars);
    }

    fn time_limit(&mut self) -> Option<&mut dyn TimeLimit> {
        Some(self)
    }

    fn interrupt(&mut self) -> Option<&mut dyn Interrupt> {
        Some(self)
    }

    fn fresh(&self, _mode: crate::backend::Mode) -> Option<Box<dyn Backend>> {
        Some(Box::new(External {
            command_line: self.command_line.clone(),
            program: self.program.clone(),
            args: self.args.clone(),
            style: self.style,
            input_placeholder: self.input_placeholder,
            result_placeholder: self.result_placeholder,
            clauses: Vec::new(),
            n_vars: 0,
            model: None,
            time_limit: self.time_limit,
            interrupter: self.interrupter.clone(),
        }))
    }
}

impl TimeLimit for External {
    fn set_time_limit(&mut self, limit: Option<Duration>) {
        self.time_limit = limit;
    }
}

impl Interrupt for External {
    fn interrupter(&mut self) -> Interrupter {
        self.interrupter.clone()
    }

    fn use_interrupter(&mut self, interrupter: Interrupter) {
        self.interrupter = interrupter;
    }
}

/// The DIMACS integer of `lit`; `i64` because rustsat's largest variable
/// does not fit an `i32` once shifted to 1-based.
fn dimacs(lit: Lit) -> i64 {
    let var = i64::from(lit.vidx32()) + 1;
    if lit.is_pos() {
        var
    } else {
        -var
    }
}

fn clause_text(clause: &[Lit]) -> String {
    let mut text = String::new();
    for &lit in clause {
        text.push_str(&dimacs(lit).to_string());
        text.push(' ');
    }
    text.push('0');
    text
}

/// The first clause (1-based, in file order) or assumption `model`
/// falsifies, rendered in DIMACS.
fn falsified(clauses: &[Vec<Lit>], assumptions: &[Lit], model: &[bool]) -> Option<(usize, String)> {
    if let Some(i) = crate::formula::falsified(clauses, model) {
        return Some((i + 1, clause_text(&clauses[i])));
    }
    let units: Vec<Vec<Lit>> = assumptions.iter().map(|&l| vec![l]).collect();
    let i = crate::formula::falsified(&units, model)?;
    Some((
        clauses.len() + i + 1,
        format!("{}, an assumption", clause_text(&assumptions[i..=i])),
    ))
}

fn read_lossy(path: &Path) -> String {
    // A missing file (a solver that never wrote its result) reads as empty:
    // the parser then reports the missing answer.
    fs::read(path)
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        .unwrap_or_default()
}

/// The last few non-empty lines of `text`, joined, shortened.
fn tail(text: &str) -> String {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let start = lines.len().saturating_sub(STDERR_LINES);
    shorten(&lines[start..].join(" | "), STDERR_CHARS)
}

fn shorten(text: &str, max_chars: usize) -> String {
    if text.chars().count() <= max_chars {
        text.to_string()
    } else {
        let mut short: String = text.chars().take(max_chars).collect();
        short.push('…');
        short
    }
}

#[cfg(unix)]
fn describe_signal(exit: ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match exit.signal() {
        Some(signal) => {
            let name = match signal {
                1 => " (SIGHUP)",
                2 => " (SIGINT)",
                4 => " (SIGILL)",
                6 => " (SIGABRT)",
                7 => " (SIGBUS)",
                8 => " (SIGFPE)",
                9 => " (SIGKILL)",
                11 => " (SIGSEGV)",
                13 => " (SIGPIPE)",
                15 => " (SIGTERM)",
                24 => " (SIGXCPU)",
                _ => "",
            };
            format!("killed by signal {signal}{name}")
        }
        None => exit.to_string(),
    }
}

#[cfg(not(unix))]
fn describe_signal(exit: ExitStatus) -> String {
    exit.to_string()
}

/// Whether `program`'s file name is `minisat`, or `minisat` followed by a
/// non-letter.
fn is_minisat(program: &str) -> bool {
    let name = Path::new(program)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(program);
    name.strip_prefix("minisat")
        .is_some_and(|rest| !rest.starts_with(|c: char| c.is_ascii_alphabetic()))
}

/// Finds `program` as the OS would: a name with a `/` is a path, anything
/// else is searched on `PATH`, skipping non-executable files.
fn resolve(command: &str, program: &str) -> Result<PathBuf, ExternalError> {
    let not_found = || ExternalError::NotFound {
        command: command.to_string(),
        program: program.to_string(),
    };
    let not_executable = |path: PathBuf| ExternalError::NotExecutable {
        command: command.to_string(),
        path,
    };
    if program.contains(std::path::MAIN_SEPARATOR) || program.contains('/') {
        let path = PathBuf::from(program);
        return match executable(&path) {
            Some(true) => Ok(path),
            Some(false) => Err(not_executable(path)),
            None => Err(not_found()),
        };
    }
    let Some(search) = std::env::var_os("PATH") else {
        return Err(not_found());
    };
    let mut first_file = None;
    for dir in std::env::split_paths(&search) {
        let candidate = dir.join(program);
        match executable(&candidate) {
            Some(true) => return Ok(candidate),
            Some(false) => {
                first_file.get_or_insert(candidate);
            }
            None => {}
        }
    }
    Err(first_file.map_or_else(not_found, not_executable))
}

/// `None` for no such file, else whether it may be executed.
fn executable(path: &Path) -> Option<bool> {
    let meta = fs::metadata(path).ok().filter(fs::Metadata::is_file)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        Some(meta.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        Some(true)
    }
}

/// Replaces `{input}` and `{result}` in `arg` by the paths, which need not
/// be UTF-8.
fn substitute(arg: &str, input: &Path, result: &Path) -> OsString {
    let mut out = OsString::new();
    let mut rest = arg;
    loop {
        let next = [("{input}", input), ("{result}", result)]
            .into_iter()
            .filter_map(|(key, path)| rest.find(key).map(|at| (at, key, path)))
            .min_by_key(|&(at, _, _)| at);
        match next {
            Some((at, key, path)) => {
                out.push(&rest[..at]);
                out.push(path);
                rest = &rest[at + key.len()..];
            }
            None => {
                out.push(rest);
                return out;
            }
        }
    }
}

/// Splits a command line into words, POSIX shell style (quotes and
/// backslashes) but without expansions, with the `shlex` crate.
fn split_command_line(line: &str) -> Result<Vec<String>, String> {
    shlex::split(line)
        .ok_or_else(|| "unterminated quote, or a backslash at the end of the line".to_string())
}

/// What a parse has seen so far, shared by both output styles.
struct Reading<'a> {
    command: &'a str,
    source_kind: OutputStyle,
    n_vars: u32,
    status: Option<(Status, usize)>,
    /// Per variable: `None` unset, else the value and the line that set it.
    values: Vec<Option<(bool, usize)>>,
    first_model_line: Option<usize>,
    closed_on: Option<usize>,
}

impl<'a> Reading<'a> {
    fn new(command: &'a str, source_kind: OutputStyle, n_vars: u32) -> Self {
        Reading {
            command,
            source_kind,
            n_vars,
            status: None,
            values: Vec::new(),
            first_model_line: None,
            closed_on: None,
        }
    }

    fn garbage(&self, line: usize, text: &str, reason: String) -> ExternalError {
        ExternalError::Garbage {
            command: self.command.to_string(),
            source_kind: self.source_kind,
            line,
            text: shorten(text.trim(), 80),
            reason,
        }
    }

    fn contradiction(&self, reason: String) -> ExternalError {
        ExternalError::Contradiction {
            command: self.command.to_string(),
            reason,
        }
    }

    fn status(&mut self, status: Status, line: usize) -> Result<(), ExternalError> {
        match self.status {
            Some((earlier, earlier_line)) if earlier != status => Err(self.contradiction(format!(
                "{} on line {earlier_line} and {} on line {line} of its {}",
                earlier.competition(),
                status.competition(),
                self.source_kind
            ))),
            Some(_) => Ok(()),
            None => {
                self.status = Some((status, line));
                Ok(())
            }
        }
    }

    fn literals<'w>(
        &mut self,
        words: impl Iterator<Item = &'w str>,
        line: usize,
        text: &str,
    ) -> Result<(), ExternalError> {
        self.first_model_line.get_or_insert(line);
        if self.values.is_empty() {
            // Sized from the caller's variable count, not from the output,
            // so garbage cannot make it allocate.
            self.values = vec![None; self.n_vars as usize];
        }
        for word in words {
            let lit: i64 = word
                .parse()
                .map_err(|_| self.garbage(line, text, format!("'{word}' is not an integer")))?;
            if let Some(closed) = self.closed_on {
                return Err(self.garbage(
                    line,
                    text,
                    format!("literal {lit} after the model's closing 0 on line {closed}"),
                ));
            }
            if lit == 0 {
                self.closed_on = Some(line);
                continue;
            }
            let var = lit.unsigned_abs();
            let slot = usize::try_from(var - 1)
                .ok()
                .filter(|_| var <= u64::from(self.n_vars))
                .and_then(|i| self.values.get_mut(i));
            let Some(slot) = slot else {
                return Err(self.contradiction(format!(
                    "model literal {lit} on line {line} of its {} is beyond the {} variables of the CNF",
                    self.source_kind, self.n_vars
                )));
            };
            match *slot {
                Some((value, earlier)) if value != (lit > 0) => {
                    return Err(self.contradiction(format!(
                        "the model sets variable {var} both ways (line {earlier} and line {line} of its {})",
                        self.source_kind
                    )))
                }
                Some(_) => {}
                None => *slot = Some((lit > 0, line)),
            }
        }
        Ok(())
    }

    fn finish(self, exit_code: Option<i32>) -> Result<ExternalAnswer, ExternalError> {
        let from_exit = match exit_code {
            Some(10) => Some(Status::Sat),
            Some(20) => Some(Status::Unsat),
            _ => None,
        };
        let status = match (self.status, from_exit) {
            (Some((printed, line)), Some(exit)) if printed != exit => {
                return Err(self.contradiction(format!(
                    "exit code {} says {} but line {line} of its {} says {}",
                    exit.exit_code(),
                    exit.competition(),
                    self.source_kind,
                    printed.competition()
                )))
            }
            (Some((printed, _)), _) => printed,
            (None, Some(exit)) => exit,
            (None, None) => {
                return Err(match exit_code {
                    Some(code) if code != 0 => ExternalError::Crashed {
                        command: self.command.to_string(),
                        how: format!("exit code {code} and no status"),
                        stderr: String::new(),
                    },
                    _ => ExternalError::NoAnswer {
                        command: self.command.to_string(),
                        exit: exit_code.map_or_else(
                            || "exit code unknown".to_string(),
                            |c| format!("exit code {c}"),
                        ),
                        source_kind: self.source_kind,
                        stderr: String::new(),
                    },
                })
            }
        };
        match (status, self.first_model_line) {
            (Status::Sat, None) => Err(ExternalError::MissingModel {
                command: self.command.to_string(),
            }),
            (Status::Sat, Some(_)) => Ok(ExternalAnswer {
                status,
                model: Some(
                    self.values
                        .iter()
                        .map(|v| v.is_some_and(|(value, _)| value))
                        .collect(),
                ),
            }),
            (Status::Unsat, Some(line)) => Err(self.contradiction(format!(
                "UNSATISFIABLE, yet line {line} of its {} gives a model",
                self.source_kind
            ))),
            (_, _) => Ok(ExternalAnswer {
                status,
                model: None,
            }),
        }
    }
}

/// Parses SAT-competition output: `s SATISFIABLE` / `s UNSATISFIABLE` /
/// `s UNKNOWN`, and `v` lines holding the model (over any number of lines,
/// ending in `0`; variables not printed are `false`). Other lines (`c`
/// comments, chatter) are ignored. `exit_code` is the solver's (10 SAT,
/// 20 UNSAT), `None` when unknown (say, a saved log); `n_vars` is the CNF's
/// variable count; `command` names the solver in errors.
///
/// # Errors
///
/// [`ExternalError::Garbage`], [`ExternalError::Contradiction`],
/// [`ExternalError::Crashed`] (an exit code other than 0, 10, 20 and no
/// status), [`ExternalError::NoAnswer`], [`ExternalError::MissingModel`].
pub fn parse_output(
    stdout: &str,
    exit_code: Option<i32>,
    n_vars: u32,
    command: &str,
) -> Result<ExternalAnswer, ExternalError> {
    let mut reading = Reading::new(command, OutputStyle::Competition, n_vars);
    for (i, text) in stdout.lines().enumerate() {
        let line = i + 1;
        let mut words = text.split_whitespace();
        match words.next() {
            Some("s") => {
                let rest: Vec<&str> = words.collect();
                let status = match rest.as_slice() {
                    ["SATISFIABLE"] => Status::Sat,
                    ["UNSATISFIABLE"] => Status::Unsat,
                    ["UNKNOWN"] => Status::Unknown,
                    _ => {
                        return Err(reading.garbage(
                            line,
                            text,
                            "expected SATISFIABLE, UNSATISFIABLE or UNKNOWN after 's'".to_string(),
                        ))
                    }
                };
                reading.status(status, line)?;
            }
            Some("v") => reading.literals(words, line, text)?,
            _ => {}
        }
    }
    reading.finish(exit_code)
}

/// Parses a minisat result file: a first line `SAT`, `UNSAT` or `INDET`
/// (unknown), then the model as DIMACS literals ending in `0`. Blank lines
/// are ignored; an empty file is no answer. Arguments and errors as for
/// [`parse_output`].
///
/// # Errors
///
/// As [`parse_output`].
pub fn parse_result_file(
    text: &str,
    exit_code: Option<i32>,
    n_vars: u32,
    command: &str,
) -> Result<ExternalAnswer, ExternalError> {
    let mut reading = Reading::new(command, OutputStyle::ResultFile, n_vars);
    for (i, content) in text.lines().enumerate() {
        let line = i + 1;
        let mut words = content.split_whitespace().peekable();
        if words.peek().is_none() {
            continue;
        }
        if reading.status.is_none() {
            let status = match words.next() {
                Some("SAT") => Status::Sat,
                Some("UNSAT") => Status::Unsat,
                Some("INDET") => Status::Unknown,
                _ => {
                    return Err(reading.garbage(
                        line,
                        content,
                        "expected SAT, UNSAT or INDET".to_string(),
                    ))
                }
            };
            reading.status(status, line)?;
            if words.peek().is_none() {
                continue;
            }
        }
        reading.literals(words, line, content)?;
    }
    reading.finish(exit_code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines_split_with_quotes() {
        let split = |s: &str| split_command_line(s).unwrap();
        assert_eq!(split("  a  b\tc "), ["a", "b", "c"]);
        assert_eq!(
            split(r#"run 'a b' "c \"d\" \\" e\ f ''"#),
            ["run", "a b", r#"c "d" \"#, "e f", ""]
        );
        assert_eq!(split("--file={input}"), ["--file={input}"]);
        assert!(split_command_line("a 'b").is_err());
        assert!(split_command_line("a \"b").is_err());
        assert!(split_command_line("a \\").is_err());
        assert!(split("").is_empty());
    }

    #[test]
    fn minisat_is_detected_by_file_name() {
        for name in [
            "minisat",
            "/usr/bin/minisat",
            "minisat2",
            "minisat_static",
            "minisat-2.2",
        ] {
            assert!(is_minisat(name), "{name}");
        }
        for name in [
            "cryptominisat5",
            "minisatp",
            "cadical",
            "/opt/minisat/bin/glucose",
        ] {
            assert!(!is_minisat(name), "{name}");
        }
    }

    #[test]
    fn placeholders_are_substituted() {
        let input = Path::new("/tmp/x/input.cnf");
        let result = Path::new("/tmp/x/result.txt");
        assert_eq!(
            substitute("--in={input},out={result}{input}", input, result),
            OsString::from("--in=/tmp/x/input.cnf,out=/tmp/x/result.txt/tmp/x/input.cnf")
        );
        assert_eq!(substitute("-v", input, result), OsString::from("-v"));
    }

    #[test]
    fn model_check_finds_the_first_falsified_clause() {
        let lit = |i: i32| Lit::from_ipasir(i).unwrap();
        let clauses = vec![vec![lit(1), lit(2)], vec![lit(-1), lit(3)]];
        assert_eq!(falsified(&clauses, &[], &[true, false, true]), None);
        assert_eq!(
            falsified(&clauses, &[], &[true, false, false]),
            Some((2, "-1 3 0".to_string()))
        );
        assert_eq!(
            falsified(&clauses, &[lit(-2)], &[true, true, true]),
            Some((3, "-2 0, an assumption".to_string()))
        );
    }

    #[test]
    fn empty_and_broken_command_lines() {
        assert!(matches!(
            External::new("   "),
            Err(SolveError::MissingCommand)
        ));
        assert!(matches!(
            External::new("solver 'unterminated"),
            Err(SolveError::External(ExternalError::BadCommand { .. }))
        ));
    }
}
