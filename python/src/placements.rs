//! `boardsat.enumerate`: a lazy iterator of placements.
//!
//! The solver session lives on a worker thread of the iterator's own (a
//! session is not `Send`), built on the first `next()`. Each `next()` asks
//! the worker for one placement and waits for it as every call does
//! ([`crate::wait`]); between calls the worker is idle, so nothing is
//! solved ahead of the caller. Dropping the iterator (a `break`, `close()`,
//! garbage collection) ends the worker and frees the solver.

use std::{
    sync::{mpsc, Arc},
    thread::JoinHandle,
};

use boardsat_report::squares;
use boardsat_solve::{
    backend::spec::SolverSpec,
    error::SolveError,
    search::count::End,
    stop::{Interrupter, StopReason},
    task::{
        enumerate::{enumerate, Enumeration},
        Instance,
    },
};
use pyo3::{exceptions::PyRuntimeError, prelude::*};

use crate::{
    errors::solve_error,
    wait::{wait, Slot},
};

/// What the worker answers to one request.
enum Reply {
    /// The next placement, as (row, col) pairs.
    Placement(Vec<(usize, usize)>),
    /// No more: exhausted, the limit, or stopped (with the optimum, when
    /// the optimum was being enumerated).
    End(End, Option<usize>),
    /// A failure.
    Failed(SolveError),
}

/// The worker: builds the enumeration on the first request, then answers
/// one placement per request, until the requests end.
struct Worker {
    instance: Instance,
    solver: SolverSpec,
    stop: Interrupter,
    limit: Option<u64>,
    found: u64,
}

impl Worker {
    fn serve(mut self, requests: &mpsc::Receiver<()>, replies: &Slot<Reply>) {
        // Built here, on the first request: a session never leaves this
        // thread.
        let mut enumeration = None;
        while requests.recv().is_ok() {
            let reply = self.next(&mut enumeration);
            let last = !matches!(reply, Reply::Placement(_));
            replies.put(reply);
            if last {
                break;
            }
        }
    }

    fn next(&mut self, state: &mut Option<Enumeration>) -> Reply {
        let enumeration = match state.take() {
            Some(e) => e,
            None => match enumerate(&self.instance, &self.solver, &self.stop) {
                Ok(e) => e,
                Err(e) => return Reply::Failed(e),
            },
        };
        let enumeration = state.insert(enumeration);
        let optimum = enumeration.optimum().map(|o| o.value);
        if !enumeration.ready() {
            return Reply::End(End::Stopped, None);
        }
        if self.limit.is_some_and(|l| self.found >= l) {
            return Reply::End(End::Limit, optimum);
        }
        match enumeration.solutions(None).next() {
            Some(Ok(placement)) => {
                self.found += 1;
                Reply::Placement(
                    squares(&placement)
                        .into_iter()
                        .map(|[row, col]| (row, col))
                        .collect(),
                )
            }
            None => Reply::End(End::Exhausted, optimum),
            Some(Err(SolveError::Stopped { .. })) if self.stop.reason().is_some() => {
                Reply::End(End::Stopped, optimum)
            }
            Some(Err(SolveError::Stopped { .. })) => Reply::Failed(SolveError::Solver {
                backend: self.solver.signature(),
                message: format!(
                    "the solver stopped without an answer after {} placements",
                    self.found
                ),
            }),
            Some(Err(e)) => Reply::Failed(e),
        }
    }
}

/// A lazy iterator of placements, each a list of ``(row, col)`` tuples,
/// made by :func:`boardsat.enumerate`.
///
/// Each placement is found by one solver call when it is asked for, and
/// checked by the independent checker; breaking out of the loop stops the
/// search. After the iteration, ``complete`` says whether every placement
/// was listed: it is ``False`` when ``limit`` or ``time_limit`` ended it
/// (``stopped`` says ``"time limit"``), and then the placements seen are
/// only some of them.
#[pyclass(module = "boardsat", name = "Placements")]
pub struct Placements {
    requests: Option<mpsc::Sender<()>>,
    replies: Arc<Slot<Reply>>,
    worker: Option<JoinHandle<()>>,
    stop: Interrupter,
    count: u64,
    end: Option<End>,
    optimum: Option<usize>,
    stopped: Option<StopReason>,
}

impl Placements {
    /// An iterator over the placements of `instance` (the optimal ones
    /// without k), at most `limit`, by `solver`, obeying `stop`.
    ///
    /// # Errors
    ///
    /// `RuntimeError` when no thread can be started.
    pub fn new(
        instance: Instance,
        solver: SolverSpec,
        limit: Option<u64>,
        stop: Interrupter,
    ) -> PyResult<Self> {
        let (requests, received) = mpsc::channel();
        let replies = Slot::new();
        let worker = Worker {
            instance,
            solver,
            stop: stop.clone(),
            limit,
            found: 0,
        };
        let put = Arc::clone(&replies);
        let handle = std::thread::Builder::new()
            .name("boardsat-enumerate".to_string())
            .spawn(move || worker.serve(&received, &put))
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start a solver thread: {e}")))?;
        Ok(Placements {
            requests: Some(requests),
            replies,
            worker: Some(handle),
            stop,
            count: 0,
            end: None,
            optimum: None,
            stopped: None,
        })
    }

    /// Ends the worker (it is idle: every request was answered).
    fn finish(&mut self, end: End) {
        self.end.get_or_insert(end);
        self.requests = None;
        self.worker = None;
    }
}

#[pymethods]
impl Placements {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Vec<(usize, usize)>>> {
        let Some(requests) = &self.requests else {
            return Ok(None);
        };
        if requests.send(()).is_err() {
            self.finish(End::Stopped);
            return Err(PyRuntimeError::new_err("the enumeration thread has ended"));
        }
        let reply = match wait(py, &self.replies, &self.stop) {
            Ok(reply) => reply,
            Err(raised) => {
                self.stopped = self.stop.reason();
                self.finish(End::Stopped);
                return Err(raised);
            }
        };
        match reply {
            Reply::Placement(placement) => {
                self.count += 1;
                Ok(Some(placement))
            }
            Reply::End(end, optimum) => {
                self.optimum = optimum;
                self.stopped = self.stop.reason().filter(|_| end == End::Stopped);
                self.finish(end);
                Ok(None)
            }
            Reply::Failed(e) => {
                self.stopped = self.stop.reason();
                self.finish(End::Stopped);
                Err(solve_error(&e))
            }
        }
    }

    /// Stops the enumeration and frees the solver; later ``next()`` calls
    /// end the iteration. Idempotent.
    fn close(&mut self, py: Python<'_>) {
        self.stop.interrupt();
        let worker = self.worker.take();
        self.finish(End::Stopped);
        if let Some(handle) = worker {
            py.detach(|| drop(handle.join()));
        }
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    #[pyo3(signature = (*_exc))]
    fn __exit__(&mut self, py: Python<'_>, _exc: &Bound<'_, pyo3::types::PyTuple>) {
        self.close(py);
    }

    /// Placements listed so far.
    #[getter]
    fn count(&self) -> u64 {
        self.count
    }

    /// ``None`` while placements may follow; then ``True`` when every
    /// placement was listed, ``False`` when ``limit``, ``time_limit``, an
    /// interrupt or ``close()`` ended the listing first.
    #[getter]
    fn complete(&self) -> Option<bool> {
        self.end.map(|e| e == End::Exhausted)
    }

    /// Whether ``limit`` ended the listing.
    #[getter]
    fn limit_reached(&self) -> bool {
        self.end == Some(End::Limit)
    }

    /// Why the listing stopped early: ``"time limit"``, ``"interrupted"``,
    /// or ``None``.
    #[getter]
    fn stopped(&self) -> Option<&'static str> {
        self.stopped.map(StopReason::word)
    }

    /// Without ``k``: the proven optimum whose placements are listed (known
    /// once the iteration has ended; ``None`` when it was not proven).
    #[getter]
    fn optimum(&self) -> Option<usize> {
        self.optimum
    }

    fn __repr__(&self) -> String {
        let state = match self.end {
            None => "running".to_string(),
            Some(End::Exhausted) => "complete".to_string(),
            Some(End::Limit) => "limit reached".to_string(),
            Some(End::Stopped) => format!(
                "stopped{}",
                self.stopped.map(|r| format!(" ({r})")).unwrap_or_default()
            ),
        };
        format!("<boardsat.Placements: {} listed, {state}>", self.count)
    }
}

impl Drop for Placements {
    fn drop(&mut self) {
        // The worker is idle (every request was answered): closing its
        // request channel ends it, and it drops the solver. Not joined: it
        // needs nothing from Python to end.
        self.stop.interrupt();
        self.requests = None;
    }
}
