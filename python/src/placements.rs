//! `boardsat.enumerate`: a lazy iterator of placements, each a
//! [`placement`] that draws itself.
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

use boardsat_encode::{draw, Placement, Problem, Square};
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
use pyo3::{
    exceptions::{PyRuntimeError, PyTypeError, PyValueError},
    prelude::*,
    sync::PyOnceLock,
    types::{PyCFunction, PyDict, PyTuple, PyType},
};

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
    /// The problem, for the placements to draw themselves.
    problem: Problem,
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
            problem: instance.problem,
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

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
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
            Reply::Placement(squares) => {
                self.count += 1;
                Ok(Some(placement(py, &self.problem, squares)?.unbind()))
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

/// The Python class of a placement: a list of `(row, col)` tuples that
/// draws itself (`_repr_svg_`, so a notebook shows the board).
const PLACEMENT_CLASS: &std::ffi::CStr = c"
class Placement(list):
    \"\"\"A placement: a list of ``(row, col)`` tuples, one per piece, that draws itself.

    In a notebook the board shows as a picture (``_repr_svg_``); ``svg()`` and
    ``text()`` give the picture and the text board as strings.
    \"\"\"

    __slots__ = ('_draw',)

    def __init__(self, squares=()):
        # Every square a tuple, wherever the placement came from (the
        # iterator, a report's [row, col] lists): equal placements compare
        # equal.
        super().__init__(tuple(square) for square in squares)

    def svg(self):
        \"\"\"The board as an SVG picture: the pieces and, for domination, the squares they cover.\"\"\"
        return self._draw(self, 'svg')

    def text(self):
        \"\"\"The board as text, one row a line.\"\"\"
        return self._draw(self, 'text')

    def _repr_svg_(self):
        return self.svg()
";

/// The `Placement` class, made once.
static PLACEMENT: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// The `Placement` class (its Python source is `PLACEMENT_CLASS`), for the module.
///
/// # Errors
///
/// The class cannot be made (a bug).
pub fn placement_class(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    let class = PLACEMENT.get_or_try_init(py, || -> PyResult<Py<PyType>> {
        let module = PyModule::from_code(
            py,
            PLACEMENT_CLASS,
            c"boardsat/placement.py",
            c"boardsat._placement",
        )?;
        let class = module.getattr("Placement")?.cast_into::<PyType>()?;
        class.setattr("__module__", "boardsat")?;
        Ok(class.unbind())
    })?;
    Ok(class.bind(py))
}

/// `squares` (any sequence of pairs: the iterator's tuples, a report's
/// `[row, col]` lists) as a `Placement`, drawing itself as a placement of
/// `problem`.
///
/// # Errors
///
/// The object cannot be made (a bug).
pub fn placement<'py>(
    py: Python<'py>,
    problem: &Problem,
    squares: impl IntoPyObject<'py>,
) -> PyResult<Bound<'py, PyAny>> {
    let problem = *problem;
    let draw = PyCFunction::new_closure(
        py,
        None,
        None,
        move |args: &Bound<'_, PyTuple>, _: Option<&Bound<'_, PyDict>>| -> PyResult<String> {
            let placement = args.get_item(0)?;
            let format: String = args.get_item(1)?.extract()?;
            let placement = placement_of(&placement)?.ok_or_else(|| {
                PyValueError::new_err("a square of the placement is off the board")
            })?;
            render(&problem, &placement, &format)
        },
    )?;
    let object = placement_class(py)?.call1((squares,))?;
    object.setattr("_draw", draw)?;
    Ok(object)
}

/// `placement` drawn as `format` says: `svg` or `text`.
///
/// # Errors
///
/// `ValueError` for another format, or a placement off the board.
pub fn render(problem: &Problem, placement: &Placement, format: &str) -> PyResult<String> {
    let board = problem.board;
    if placement.squares().iter().any(|&sq| !board.contains(sq)) {
        return Err(PyValueError::new_err(format!(
            "the placement {placement} is not on the {board} board"
        )));
    }
    match format {
        "svg" => Ok(draw::svg(problem, placement)),
        "text" => Ok(draw::text(
            &board,
            problem.piece,
            placement,
            problem.kind.dominating(),
        )),
        other => Err(PyValueError::new_err(format!(
            "format must be 'svg' or 'text', not {other:?}"
        ))),
    }
}

/// A placement from Python: a sequence of `(row, col)` pairs, or of
/// `[row, col]` lists; `None` when a coordinate is negative (off the
/// board, like one past the edge).
///
/// # Errors
///
/// `TypeError` for anything else.
pub fn placement_of(placement: &Bound<'_, PyAny>) -> PyResult<Option<Placement>> {
    let mut squares = Vec::new();
    for item in placement.try_iter()? {
        let item = item?;
        let (row, col) = item
            .extract::<(i64, i64)>()
            .or_else(|_| item.extract::<[i64; 2]>().map(|[r, c]| (r, c)))
            .map_err(|_| {
                PyTypeError::new_err(format!(
                    "a placement is a list of (row, col) pairs of integers, not {}",
                    item.repr()
                        .map_or_else(|_| "?".to_string(), |r| r.to_string())
                ))
            })?;
        let (Ok(row), Ok(col)) = (usize::try_from(row), usize::try_from(col)) else {
            return Ok(None);
        };
        squares.push(Square::new(row, col));
    }
    Ok(Some(Placement::new(squares)))
}
