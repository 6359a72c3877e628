//! Solving off the Python thread: the job runs on a thread of its own with
//! the GIL released, and the calling thread waits in short slices, running
//! Python's signal handlers between them. When a handler raises (Ctrl-C:
//! `KeyboardInterrupt`), the job's stop flag is raised — CaDiCaL, varisat
//! and external solvers all obey it — the job is waited for, and the
//! handler's exception goes to the caller with the solver stopped.
//!
//! A worker thread rather than the calling thread with the GIL released:
//! solver sessions are not `Send` (the backends hold raw solver handles), so
//! they are built and dropped on the worker, and only plain results cross.

use std::{
    panic::{catch_unwind, AssertUnwindSafe},
    sync::{Arc, Condvar, Mutex, PoisonError},
    time::Duration,
};

use boardsat_solve::Interrupter;
use pyo3::{exceptions::PyRuntimeError, prelude::*};

/// How often a waiting call runs Python's signal handlers: Ctrl-C is seen
/// within this time (the solver then stops at its next poll).
const POLL: Duration = Duration::from_millis(20);

/// A value one thread puts and another waits for; it can be filled again
/// once taken.
pub struct Slot<T> {
    value: Mutex<Option<T>>,
    filled: Condvar,
}

impl<T> Slot<T> {
    /// An empty slot.
    pub fn new() -> Arc<Self> {
        Arc::new(Slot {
            value: Mutex::new(None),
            filled: Condvar::new(),
        })
    }

    /// Fills the slot and wakes the waiter.
    pub fn put(&self, value: T) {
        *self.value.lock().unwrap_or_else(PoisonError::into_inner) = Some(value);
        self.filled.notify_all();
    }

    /// The value, once it is there, or `None` after `timeout`.
    fn take_within(&self, timeout: Duration) -> Option<T> {
        let guard = self.value.lock().unwrap_or_else(PoisonError::into_inner);
        let (mut guard, _) = self
            .filled
            .wait_timeout_while(guard, timeout, |v| v.is_none())
            .unwrap_or_else(PoisonError::into_inner);
        guard.take()
    }

    /// The value, however long it takes.
    fn take(&self) -> T {
        loop {
            if let Some(value) = self.take_within(Duration::from_secs(3600)) {
                return value;
            }
        }
    }
}

/// Waits for `slot` with the GIL released, running Python's signal
/// handlers every `POLL`. When one raises, raises `stop`, waits for the
/// job to fill the slot (it stops at its solver's next poll) and returns
/// the handler's exception.
///
/// # Errors
///
/// The exception a signal handler raised.
pub fn wait<T: Send>(py: Python<'_>, slot: &Slot<T>, stop: &Interrupter) -> PyResult<T> {
    loop {
        if let Some(value) = py.detach(|| slot.take_within(POLL)) {
            return Ok(value);
        }
        if let Err(raised) = py.check_signals() {
            stop.interrupt();
            py.detach(|| drop(slot.take()));
            return Err(raised);
        }
    }
}

/// Runs `job` on a thread of its own and waits for it as [`wait`] does.
///
/// # Errors
///
/// A signal handler's exception (the job stopped through `stop`); a panic
/// of the job as a `RuntimeError` (a bug: the libraries do not panic on
/// any input).
pub fn run<T, F>(py: Python<'_>, stop: &Interrupter, job: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce() -> T + Send,
{
    let slot = Slot::new();
    std::thread::scope(|scope| {
        let put = Arc::clone(&slot);
        std::thread::Builder::new()
            .name("boardsat".to_string())
            .spawn_scoped(scope, move || put.put(catch_unwind(AssertUnwindSafe(job))))
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start a solver thread: {e}")))?;
        let outcome = wait(py, &slot, stop)?;
        outcome.map_err(|panic| {
            let message = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            PyRuntimeError::new_err(format!("boardsat panicked (a bug): {message}"))
        })
    })
}
