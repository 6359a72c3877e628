//! Work on a thread of its own that a stop can leave behind.
//!
//! Some steps of a solve cannot poll a stop flag: CaDiCaL sizes its
//! per-variable tables in one call (seconds for the 25 million squares of
//! n = 5000), and tearing those tables down takes about a second more. A
//! caller that must answer within a second of a signal or its deadline
//! runs such work through [`detached`]: the work runs on a thread that
//! owns everything it builds, and the caller waits for its answer, or for
//! the stop and at most [`GRACE`] after it. Work left behind this way goes
//! on until its next look at the flag (the end of the step that could not
//! poll), then drops what it built on its own thread; a process that exits
//! meanwhile simply ends it. What the work keeps for after its answer (a
//! solver) is dropped on its thread once the answer is sent, so the
//! caller never waits for a teardown.
//!
//! Only work that holds nothing outside the process belongs here: an
//! external solver's temporary files and child process are cleaned up by
//! its own polling, which a process exit would cut short.

use std::{
    sync::mpsc::{self, RecvTimeoutError},
    time::{Duration, Instant},
};

use crate::{error::SolveError, stop::Interrupter};

/// How long the caller still waits for the work's own answer after the
/// stop: enough for a search stopped by its terminator to return its
/// (unknown) answer with the encoding's facts, short enough to keep the
/// whole response within a second on a loaded machine.
pub const GRACE: Duration = Duration::from_millis(200);

/// How often the waiting caller looks at the stop flag.
const POLL: Duration = Duration::from_millis(10);

/// Runs `work` on a thread of its own and returns its answer; or, once
/// `stop` is raised and the work has not answered within [`GRACE`],
/// [`SolveError::Interrupted`] with the stop's reason, leaving the work to
/// end by itself (see the module docs). The work returns its answer and
/// what it keeps until the answer is sent (`D`, dropped on its thread
/// after).
///
/// # Errors
///
/// The work's errors; [`SolveError::Interrupted`] as above;
/// [`SolveError::Solver`] when no thread could be started or the work
/// panicked.
pub fn detached<T, D, W>(stop: &Interrupter, work: W) -> Result<T, SolveError>
where
    T: Send + 'static,
    W: FnOnce() -> Result<(T, D), SolveError> + Send + 'static,
{
    let (answer, wait) = mpsc::sync_channel(1);
    std::thread::Builder::new()
        .name("boardsat-detached".to_string())
        .spawn(move || {
            let (result, keep) = match work() {
                Ok((value, keep)) => (Ok(value), Some(keep)),
                Err(e) => (Err(e), None),
            };
            // A caller that gave up has gone: nobody to tell.
            let _ = answer.send(result);
            drop(keep);
        })
        .map_err(|e| failed(format!("cannot start a thread: {e}")))?;
    let mut stopped: Option<Instant> = None;
    loop {
        match wait.recv_timeout(POLL) {
            Ok(result) => return result,
            Err(RecvTimeoutError::Disconnected) => {
                return Err(failed("the work panicked".to_string()))
            }
            Err(RecvTimeoutError::Timeout) => {}
        }
        if let Some(reason) = stop.reason() {
            if stopped.get_or_insert_with(Instant::now).elapsed() >= GRACE {
                return Err(SolveError::Interrupted(reason));
            }
        }
    }
}

fn failed(message: String) -> SolveError {
    SolveError::Solver {
        backend: "detached work".to_string(),
        message,
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{
        atomic::{AtomicBool, Ordering},
        Arc,
    };

    use super::*;
    use crate::stop::StopReason;

    #[test]
    fn the_answer_comes_back_and_the_kept_part_is_dropped_after_it() {
        struct Noisy(Arc<AtomicBool>);
        impl Drop for Noisy {
            fn drop(&mut self) {
                self.0.store(true, Ordering::SeqCst);
            }
        }
        let dropped = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&dropped);
        let answer = detached(&Interrupter::new(), move || Ok((42, Noisy(flag)))).unwrap();
        assert_eq!(answer, 42);
        let start = Instant::now();
        while !dropped.load(Ordering::SeqCst) {
            assert!(start.elapsed() < Duration::from_secs(20), "never dropped");
            std::thread::yield_now();
        }
    }

    #[test]
    fn errors_come_back_as_they_are() {
        let result: Result<(), _> = detached(&Interrupter::new(), || {
            Err::<((), ()), _>(SolveError::Internal("no"))
        });
        assert!(matches!(result, Err(SolveError::Internal(_))));
    }

    #[test]
    fn a_stop_leaves_work_that_does_not_poll_behind_within_the_grace() {
        let stop = Interrupter::new();
        let release = Arc::new(AtomicBool::new(false));
        let hold = Arc::clone(&release);
        let stopper = stop.clone();
        let start = Instant::now();
        let result: Result<(), _> = detached(&stop, move || {
            // Work that never looks at the flag until it is released.
            stopper.interrupt();
            while !hold.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(1));
            }
            Ok(((), ()))
        });
        assert!(matches!(
            result,
            Err(SolveError::Interrupted(StopReason::Interrupted))
        ));
        assert!(start.elapsed() < GRACE + Duration::from_secs(5));
        release.store(true, Ordering::SeqCst);
    }

    #[test]
    fn a_deadline_is_a_time_limit() {
        let stop = Interrupter::with_deadline(Some(Duration::from_millis(1)));
        let release = Arc::new(AtomicBool::new(false));
        let hold = Arc::clone(&release);
        let result: Result<(), _> = detached(&stop, move || {
            while !hold.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(1));
            }
            Ok(((), ()))
        });
        assert!(matches!(
            result,
            Err(SolveError::Interrupted(StopReason::TimeLimit))
        ));
        release.store(true, Ordering::SeqCst);
    }

    #[test]
    fn a_panic_is_an_error() {
        let result: Result<(), _> = detached(&Interrupter::new(), || -> Result<((), ()), _> {
            panic!("on purpose")
        });
        assert!(matches!(result, Err(SolveError::Solver { .. })));
    }
}
