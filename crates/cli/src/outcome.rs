//! How a command ended, and the one mapping to exit codes.
//!
//! | code | meaning |
//! |---|---|
//! | 0 | success: the answer asked for (a count that reached `--limit` included) |
//! | 1 | `verify`: the result is not proven whole (a claim that does not verify or is missing, a run stopped, a foreign or mixed directory, nothing to check); `check-solution`: the solution is rejected; `check`: a published placement is rejected |
//! | 2 | bad input or a failure (one line on stderr) |
//! | 3 | no (complete) answer: the time limit was reached, or the solver gave up; `jobs`: jobs are left |
//! | 10 | `solve-dimacs`: satisfiable |
//! | 20 | `solve-dimacs`: unsatisfiable; `solve`: no placement with k pieces exists (proven); `check-solution`: the solver claims there is none (unverified) |
//! | 130 | interrupted (Ctrl-C, SIGTERM, `count --stop-after-cubes`) |

use std::process::ExitCode;

use boardsat_solve::{search::count::End, stop::StopReason};

/// How a command ended (errors are the `Err` of the command).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The answer asked for.
    Done,
    /// `solve-dimacs`: a model.
    Sat,
    /// Proven unsatisfiable; for `check-solution`, an outside solver's
    /// claim of it.
    Unsat,
    /// `verify`: the result is not proven whole; `check-solution`: the
    /// solution is wrong.
    Rejected,
    /// Stopped before a complete answer: by a signal, the time limit, or
    /// (`None`) a solver that gave up.
    Stopped(Option<StopReason>),
    /// `jobs`: some jobs of the split have no answer yet.
    Unfinished,
}

impl Outcome {
    /// How a count or a listing ended: its answer (a limit reached
    /// included), or stopped.
    pub fn of_end(end: End, stop: Option<StopReason>) -> Self {
        match end {
            End::Exhausted | End::Limit => Outcome::Done,
            End::Stopped => Outcome::Stopped(stop),
        }
    }

    /// The exit code.
    pub fn code(self) -> ExitCode {
        ExitCode::from(match self {
            Outcome::Done => 0,
            Outcome::Sat => 10,
            Outcome::Unsat => 20,
            Outcome::Rejected => 1,
            Outcome::Stopped(Some(StopReason::Interrupted)) => 130,
            Outcome::Stopped(Some(StopReason::TimeLimit) | None) | Outcome::Unfinished => 3,
        })
    }
}

/// Exit code 2: bad input or a failure.
pub const FAILURE: u8 = 2;
