//! The failures of an external solver ([`crate::backend::external`]),
//! each naming the command: part of [`crate::error::SolveError`], so they
//! sit with it, below the backends that raise them.

use std::{fmt, io, path::PathBuf};

/// Where a solver's answer was read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OutputStyle {
    /// SAT-competition `s` / `v` lines on stdout.
    Competition,
    /// minisat's result file: `SAT` / `UNSAT` / `INDET`, then the model.
    ResultFile,
}

impl fmt::Display for OutputStyle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OutputStyle::Competition => "output",
            OutputStyle::ResultFile => "result file",
        })
    }
}

/// Failures of an external solver, each naming the command.
#[derive(Debug, thiserror::Error)]
pub enum ExternalError {
    /// The command line cannot be split (an unterminated quote).
    #[error("solver command '{command}': {reason}")]
    BadCommand {
        /// The command line.
        command: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The program is neither a path to a file nor on `PATH`.
    #[error("solver '{command}': program '{program}' not found (not a file, and not on PATH)")]
    NotFound {
        /// The command line.
        command: String,
        /// The program as written.
        program: String,
    },
    /// The program exists but is not executable.
    #[error("solver '{command}': '{}' is not executable", .path.display())]
    NotExecutable {
        /// The command line.
        command: String,
        /// The file found.
        path: PathBuf,
    },
    /// The operating system refused to start the program.
    #[error("solver '{command}': cannot start it: {source}")]
    Spawn {
        /// The command line.
        command: String,
        /// Why.
        source: io::Error,
    },
    /// Writing the CNF or reading the output failed.
    #[error("solver '{command}': cannot {action}: {source}")]
    Io {
        /// The command line.
        command: String,
        /// What was being done.
        action: &'static str,
        /// Why it failed.
        source: io::Error,
    },
    /// Killed by a signal, or an exit code other than 0, 10 and 20 without
    /// a status.
    #[error("solver '{command}' crashed ({how}){}", stderr_note(.stderr))]
    Crashed {
        /// The command line.
        command: String,
        /// `killed by signal 11 (SIGSEGV)` or `exit code 3`.
        how: String,
        /// The end of its stderr.
        stderr: String,
    },
    /// A line that is not what its first word promises.
    #[error(
        "solver '{command}': garbage on line {line} of its {source_kind} ('{text}'): {reason}"
    )]
    Garbage {
        /// The command line.
        command: String,
        /// Stdout or the result file.
        source_kind: OutputStyle,
        /// 1-based line number.
        line: usize,
        /// The line, shortened.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// An answer that contradicts itself or the exit code.
    #[error("solver '{command}' contradicts itself: {reason}")]
    Contradiction {
        /// The command line.
        command: String,
        /// What disagrees with what, with line numbers.
        reason: String,
    },
    /// Exit code 0 (or unknown) and no status at all.
    #[error("solver '{command}' gave no answer ({exit}, no status in its {source_kind}){}", stderr_note(.stderr))]
    NoAnswer {
        /// The command line.
        command: String,
        /// `exit code 0`.
        exit: String,
        /// Stdout or the result file.
        source_kind: OutputStyle,
        /// The end of its stderr.
        stderr: String,
    },
    /// SAT without any model line.
    #[error("solver '{command}' answered SAT but printed no model (does it need a flag such as -model?)")]
    MissingModel {
        /// The command line.
        command: String,
    },
    /// The model falsifies a clause that was sent.
    #[error("solver '{command}' returned a wrong model: it falsifies clause {number} of the CNF file ({clause})")]
    WrongModel {
        /// The command line.
        command: String,
        /// 1-based position of the clause in the CNF file (assumptions come
        /// last, as unit clauses).
        number: usize,
        /// The clause in DIMACS, marked when it is an assumption.
        clause: String,
    },
}

fn stderr_note(stderr: &str) -> String {
    if stderr.is_empty() {
        String::new()
    } else {
        format!("; stderr: {stderr}")
    }
}

impl ExternalError {
    /// Attaches the end of the solver's stderr where the message uses it.
    pub(crate) fn with_stderr(mut self, tail: &str) -> Self {
        if let ExternalError::Crashed { stderr, .. } | ExternalError::NoAnswer { stderr, .. } =
            &mut self
        {
            tail.clone_into(stderr);
        }
        self
    }
}
