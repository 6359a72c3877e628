//! # boardsat-python
//!
//! The `boardsat` Python module: chessboard placement puzzles (N-queens,
//! independence, domination) solved, counted, enumerated, encoded and
//! checked by `boardsat-encode` and `boardsat-solve`, with the command
//! line's options as keyword arguments and its `--json` reports as dicts.
//!
//! | item | role |
//! |---|---|
//! | `solve`, `count` | [`boardsat_solve::task::solve::solve`] / [`boardsat_solve::task::count::count`], reported as [`boardsat_report`] dicts |
//! | `enumerate`, [`placements::Placements`] | a lazy iterator over [`boardsat_solve::task::enumerate::enumerate`] |
//! | `encode`, [`encoding::PyEncoding`] (Python's `Encoding`) | the CNF for PySAT and other tools, DIMACS with provenance; OPB, WCNF and LP |
//! | `check` | the independent checker, [`boardsat_encode::check()`] |
//! | `Placement`, `draw` | a placement that draws itself (`_repr_svg_`), [`boardsat_encode::draw`] |
//! | `proof=`, `verify` | [`proofs`]: the command line's `--proof DIR` and `verify DIR`, through `boardsat-proof` |
//! | `jobs` ([`jobs`]) | the `boardsat.jobs` submodule: a split written, a job run, the rounds run on this machine's cores, the answers merged (and verified), as `cubes`, `job`, `jobs --run local` and `merge` do |
//! | [`args`] | keyword arguments to library objects, checked as the command line checks flags |
//! | [`errors`] | library errors to Python exceptions, messages in this package's keywords |
//! | [`wait`] | solving on a worker thread with the GIL released, Ctrl-C obeyed |
//!
//! Built by maturin (`pip install ./python`); the tests are pytest's, in
//! `python/tests`.
//!
//! ## Layers
//!
//! Each module imports only from modules on its own line or a line above
//! (checked by `tests/tests/layers.rs`):
//!
//! 1. `errors`, `json`, `wait` — exceptions, dicts, the worker thread
//! 2. `args`, `encoding`, `placements`, `proofs` — keywords to library objects, the CNF class, the lazy iterator and the placement that draws itself, proofs
//! 3. `jobs` — a count as cube jobs, the `boardsat.jobs` submodule

// User input must not reach a panic: no unwrap or expect outside tests.
#![cfg_attr(not(test), warn(clippy::unwrap_used, clippy::expect_used))]

pub mod args;
pub mod encoding;
pub mod errors;
pub mod jobs;
pub mod json;
pub mod placements;
pub mod proofs;
pub mod wait;

use std::{
    sync::{Mutex, PoisonError},
    time::{Duration, Instant},
};

use std::path::{Path, PathBuf};

use boardsat_encode::{check as check_placement, Amo, Card, Family, Formulation, Piece, Problem};
use boardsat_proof::{
    external::{ExternalChecker, DEFAULT_TIMEOUT},
    proven_count::{self, CountTask, ProvenCount},
    prover::{Prover, Task},
    split_prover::SplitProver,
    tasks::prove_solved,
    verify::{
        json::VerifyReport,
        record::{self, Record},
        verify_directory, Checks, Verification,
    },
};
use boardsat_report::{CountReport, SolveReport, StoppedReport};
use boardsat_solve::{
    backend::spec::SolverKind,
    error::SolveError,
    search::{certify::Certify, count::Progress, pool::CubesDone},
    stop::{Interrupter, StopReason},
    task::solve::{solve as solve_task, traces_proofs, Optimiser},
};
use pyo3::{
    exceptions::{PyTypeError, PyValueError},
    prelude::*,
    types::PyTuple,
};

use crate::{
    args::{ProblemKeywords, SolverKeywords},
    errors::{encode_error, solve_error, SolverError},
    placements::{placement, placement_class, placement_of, render},
};

/// How often a count's `progress` callback is called at most (the first
/// call comes at once).
const PROGRESS_EVERY: Duration = Duration::from_millis(100);

/// One placement with ``k`` pieces, or without ``k`` the optimum with the
/// solver's proof: the keys and values of ``boardsat solve --json``.
///
/// ``family`` is ``"queens"`` (n queens on an n x n board), ``"independence"``
/// (k pieces, no two attacking; without ``k`` the maximum) or
/// ``"domination"`` (at most k pieces covering every square; without ``k``
/// the minimum). The keywords are the command line's options, with its
/// defaults: ``amo``, ``card`` and ``formulation`` left at ``None`` are
/// boardsat's choice (lazy lines inside CaDiCaL for N-queens, ``"auto"``
/// elsewhere; ``"totalizer"``; ``"lines"``).
///
/// The result says what was proven: ``status`` is ``"sat"`` (a placement;
/// for an optimum, proven optimal), ``"unsat"`` (no placement with k pieces
/// exists) or ``"unknown"`` (the solver stopped first, e.g. at
/// ``time_limit``: nothing is proven, ``stopped`` says why, and a
/// placement, if any, is only the best found).
///
/// With ``proof`` (a directory, new or empty unless ``replace``), every
/// UNSAT answer the result rests on is proven into it as ``boardsat solve
/// --proof`` proves it; ``boardsat.verify(proof)`` checks it, and the
/// result's ``proof`` says where it is. ``resume=True`` writes into the
/// directory of a run that stopped, as ``--resume`` does;
/// ``proof_format="binary"`` and ``proof_compression="zstd"`` write the
/// traced proofs as ``--proof-format binary`` and ``--proof-compression
/// zstd`` do. The ``placement`` draws itself
/// (a :class:`Placement`).
///
/// Raises ``ValueError`` for bad arguments, ``boardsat.SolverError`` (a
/// ``RuntimeError``) when a solver fails, ``KeyboardInterrupt`` on Ctrl-C
/// (with the solver stopped). The GIL is released while the solver runs.
#[pyfunction]
#[pyo3(signature = (
    family, n, *, cols=None, piece=None, k=None, independent=false,
    amo=None, card=None, formulation=None,
    solver=None, solver_cmd=None, seed=None, time_limit=None,
    portfolio=false, force=false, proof=None, replace=false, resume=false,
    proof_format=None, proof_compression=None
))]
#[allow(clippy::too_many_arguments)]
fn solve(
    py: Python<'_>,
    family: &str,
    n: i64,
    cols: Option<i64>,
    piece: Option<&str>,
    k: Option<i64>,
    independent: bool,
    amo: Option<&str>,
    card: Option<&str>,
    formulation: Option<&str>,
    solver: Option<&str>,
    solver_cmd: Option<&str>,
    seed: Option<i64>,
    time_limit: Option<f64>,
    portfolio: bool,
    force: bool,
    proof: Option<PathBuf>,
    replace: bool,
    resume: bool,
    proof_format: Option<&str>,
    proof_compression: Option<&str>,
) -> PyResult<Py<PyAny>> {
    let solver_args = SolverKeywords {
        solver,
        solver_cmd,
        seed,
        time_limit,
    };
    let spec = solver_args.spec()?;
    let instance = ProblemKeywords {
        family,
        n,
        cols,
        piece,
        k,
        independent,
        amo,
        card,
        formulation,
        force,
    }
    .instance(Some(&spec))?;
    let optimiser = if portfolio {
        Optimiser::Portfolio
    } else {
        Optimiser::Split
    };
    let stop = solver_args.stop()?;
    let call = format!("boardsat.solve({family:?}, {n}, k={k:?}) from Python");
    let mut prover = proofs::ProofKeywords {
        dir: proof.as_deref(),
        replace,
        resume,
        format: proof_format,
        compression: proof_compression,
    }
    .prover(call, &Task::solve(&instance), &stop)?;
    let traced = traces_proofs(&instance, optimiser);
    let solved = wait::run(py, &stop, || {
        // Domination refutations are proven cube by cube as they are found.
        let splits = prover.as_mut().filter(|_| traced).map(SplitProver::new);
        let certify = splits.as_ref().map(|s| s as &dyn Certify);
        solve_task(
            &instance,
            &spec,
            optimiser,
            &stop,
            &|_: boardsat_encode::Bound| {},
            certify,
        )
    })?;
    let solved = match solved {
        Ok(solved) => solved,
        Err(e) => {
            let unproven = serde_json::json!({
                "command": "solve",
                "value": null,
                "optimal": k.is_none().then_some(false),
                "placement": null,
            });
            return stopped_before_a_solver(py, &e, unproven);
        }
    };
    let proved = prover.as_mut().map(|p| prove_solved(p, &instance, &solved));
    let summary = match proved {
        Some(proved) => proofs::conclude(prover, proved, &stop)?,
        None => None,
    };
    let report = SolveReport::new(&solved, spec.signature(), stop.reason()).with_proof(summary);
    let result = json::to_python(py, &report)?;
    // The report's `[row, col]` lists, as the command line's JSON has
    // them, in a placement that draws itself.
    let dict = result.bind(py);
    if report.placement.is_some() {
        let squares = dict.get_item("placement")?;
        dict.set_item("placement", placement(py, &instance.problem, squares)?)?;
    }
    Ok(result)
}

/// A count's `progress` callback, called from the solver's threads.
struct ProgressCallback {
    callback: Option<Py<PyAny>>,
    last: Mutex<Option<Instant>>,
    raised: Mutex<Option<PyErr>>,
    stop: Interrupter,
}

impl ProgressCallback {
    /// `progress=`, which must be callable, not yet watching a count.
    ///
    /// # Errors
    ///
    /// `TypeError` for a callback that cannot be called.
    fn check(py: Python<'_>, callback: Option<&Py<PyAny>>) -> PyResult<()> {
        match callback {
            Some(callback) if !callback.bind(py).is_callable() => {
                Err(PyTypeError::new_err("progress must be callable"))
            }
            _ => Ok(()),
        }
    }

    /// A watcher calling `callback` (checked by [`ProgressCallback::check`])
    /// that stops `stop` when it raises.
    fn new(callback: Option<Py<PyAny>>, stop: &Interrupter) -> Self {
        ProgressCallback {
            callback,
            last: Mutex::new(None),
            raised: Mutex::new(None),
            stop: stop.clone(),
        }
    }

    /// The exception the callback raised, if it did.
    fn raised(&self) -> Option<PyErr> {
        self.raised
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
    }

    /// Calls the callback with the count so far and the seconds elapsed (at
    /// most every [`PROGRESS_EVERY`]); an exception it raises stops the
    /// count and is kept for the caller.
    fn report(&self, p: &Progress) {
        let Some(callback) = &self.callback else {
            return;
        };
        {
            let mut last = self.last.lock().unwrap_or_else(PoisonError::into_inner);
            if last.is_some_and(|t| t.elapsed() < PROGRESS_EVERY) || self.stop.is_interrupted() {
                return;
            }
            *last = Some(Instant::now());
        }
        Python::attach(|py| {
            if let Err(e) = callback.call1(py, (p.count, p.elapsed.as_secs_f64())) {
                self.raised
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .get_or_insert(e);
                self.stop.interrupt();
            }
        });
    }
}

/// Counts the placements with ``k`` pieces, or without ``k`` the optimal
/// ones: the keys and values of ``boardsat count --json``.
///
/// ``count`` is the answer when ``complete`` is true, and only a lower
/// bound otherwise (``limit_reached``, or ``stopped`` says ``"time limit"``).
/// N-queens and domination counts without a limit are split into cubes
/// over ``threads`` (default: every core), ``depth`` rows (queens, default
/// 2) or outer rings of rows and columns (domination, default 1) fixed
/// per cube. Every count without a limit keeps one placement per orbit of
/// the board's symmetries (``fundamental`` is then the number of solutions
/// up to symmetry) unless ``no_symmetry`` (or, for N-queens, ``halve``).
/// With ``cube_budget`` (seconds), a domination cube that runs longer is
/// split again by the next ring of rows and columns. ``stop_after_cubes``
/// ends a split count, as an interrupt would, once that many cubes have
/// their answer (a sitting measured in cubes; ``resume=True`` goes on).
///
/// ``progress``, if given, is called as ``progress(count, seconds)`` with
/// the count so far, at once and then at most every 0.1 s, from a solver
/// thread; an exception it raises stops the count and is raised here.
///
/// With ``proof`` (a directory, new or empty unless ``replace``), the count
/// is proven into it as ``boardsat count --proof`` proves it (domination
/// cube by cube as it is counted); ``boardsat.verify(proof)`` checks it.
/// ``resume=True`` goes on with a count that stopped there (``boardsat
/// count --resume``): the cubes it proved are kept, the others counted.
/// ``proof_format="binary"`` and ``proof_compression="zstd"`` write the
/// traced proofs as ``--proof-format binary`` and ``--proof-compression
/// zstd`` do.
///
/// Raises as :func:`solve` does.
#[pyfunction]
#[pyo3(signature = (
    family, n, *, cols=None, piece=None, k=None, independent=false,
    amo=None, card=None, formulation=None,
    solver=None, solver_cmd=None, seed=None, time_limit=None,
    limit=None, depth=None, threads=None, no_symmetry=false, halve=false,
    cube_budget=None, progress=None, force=false, proof=None, replace=false,
    resume=false, proof_format=None, proof_compression=None, stop_after_cubes=None
))]
#[allow(clippy::too_many_arguments)]
fn count(
    py: Python<'_>,
    family: &str,
    n: i64,
    cols: Option<i64>,
    piece: Option<&str>,
    k: Option<i64>,
    independent: bool,
    amo: Option<&str>,
    card: Option<&str>,
    formulation: Option<&str>,
    solver: Option<&str>,
    solver_cmd: Option<&str>,
    seed: Option<i64>,
    time_limit: Option<f64>,
    limit: Option<i64>,
    depth: Option<i64>,
    threads: Option<i64>,
    no_symmetry: bool,
    halve: bool,
    cube_budget: Option<f64>,
    progress: Option<Py<PyAny>>,
    force: bool,
    proof: Option<PathBuf>,
    replace: bool,
    resume: bool,
    proof_format: Option<&str>,
    proof_compression: Option<&str>,
    stop_after_cubes: Option<i64>,
) -> PyResult<Py<PyAny>> {
    let solver_args = SolverKeywords {
        solver,
        solver_cmd,
        seed,
        time_limit,
    };
    let spec = solver_args.spec()?;
    let instance = ProblemKeywords {
        family,
        n,
        cols,
        piece,
        k,
        independent,
        amo,
        card,
        formulation,
        force,
    }
    .instance(Some(&spec))?;
    let flags = args::CountKeywords {
        limit,
        depth,
        threads,
        no_symmetry,
        halve,
        cube_budget,
        stop_after_cubes,
    }
    .flags()?;
    let plan =
        proven_count::plan(&flags, &instance, proof.as_deref()).map_err(|e| solve_error(&e))?;
    ProgressCallback::check(py, progress.as_ref())?;
    let stop = solver_args.stop()?;
    let call = format!("boardsat.count({family:?}, {n}, k={k:?}) from Python");
    let prover = proofs::ProofKeywords {
        dir: proof.as_deref(),
        replace,
        resume,
        format: proof_format,
        compression: proof_compression,
    }
    .prover(call, &Task::count(&instance, &plan), &stop)?;
    let watcher = ProgressCallback::new(progress, &stop);
    let show = |p: &Progress, _: Option<CubesDone>| watcher.report(p);
    let task = CountTask {
        instance: &instance,
        solver: &spec,
        plan: &plan,
        stop: &stop,
        progress: &show,
        observe: &|_: boardsat_encode::Bound| {},
    };
    run_count(py, &task, &watcher, prover)
}

/// Runs `task` on the count's worker thread, proving into `prover`, and
/// returns its report, or the exception its `watcher` raised.
fn run_count(
    py: Python<'_>,
    task: &CountTask<'_>,
    watcher: &ProgressCallback,
    prover: Option<Prover>,
) -> PyResult<Py<PyAny>> {
    let done = wait::run(py, task.stop, || task.run(prover, |_| {}))?;
    if let Some(raised) = watcher.raised() {
        return Err(raised);
    }
    let ProvenCount { counted, proof } = match done {
        Ok(done) => done,
        Err(failed) => {
            let unproven = serde_json::json!({
                "command": "count",
                "count": 0,
                "optimum": null,
                "placements": null,
            });
            return stopped_before_a_solver(py, &failed.error, unproven);
        }
    };
    let summary = proofs::summary(proof)?;
    let report =
        CountReport::new(&counted, task.solver.signature(), task.stop.reason()).with_proof(summary);
    json::to_python(py, &report)
}

/// What :func:`solve` and :func:`count` return when the time limit came
/// before a solver ran (while the board was encoded or loaded, which on a
/// loaded machine can outlast a short limit): the report `--json` prints
/// then ([`StoppedReport`]: unknown, not complete, `time limit`) with the
/// function's result keys as `unproven` has them, so that a time limit
/// returns the same keys whenever it comes and never raises. Any other
/// error (Ctrl-C included) raises as [`solve_error`] says.
fn stopped_before_a_solver(
    py: Python<'_>,
    e: &SolveError,
    unproven: serde_json::Value,
) -> PyResult<Py<PyAny>> {
    let SolveError::Interrupted(StopReason::TimeLimit) = e else {
        return Err(solve_error(e));
    };
    let mut report = serde_json::json!(StoppedReport::new(StopReason::TimeLimit));
    if let (Some(report), serde_json::Value::Object(keys)) = (report.as_object_mut(), unproven) {
        report.extend(keys);
    }
    json::to_python(py, &report)
}

/// Checks the proof directory ``dir`` written with ``proof=`` (or
/// ``boardsat … --proof``, or a split written by ``boardsat cubes
/// --proof``) as ``boardsat verify DIR --json`` does: the keys
/// ``verified`` (the whole result proven), ``claims`` (a verdict per
/// claim, split and cover) and ``result`` (its sentence, or what is
/// missing). ``checker`` names an LRAT checker boardsat did not write
/// (cake_lpr), run on every claim too (``--checker``), at most
/// ``checker_timeout`` seconds a claim (3600); ``external_checker`` then
/// says which it was and how many proofs it accepted. ``record`` names a
/// file (``--record``) that keeps every proof accepted and lends the next
/// ``verify(…, record=…)`` the ones it holds, unchanged and with the same
/// checkers (this module's build, the same ``checker``): a check of many
/// hours that is stopped goes on where it stood; ``record`` in the report
/// then says how many proofs came from it.
///
/// Raises ``ValueError`` for a directory that is not a proof directory or
/// a ``record`` that cannot be used, ``KeyboardInterrupt`` on Ctrl-C.
#[pyfunction]
#[pyo3(pass_module, signature = (dir, *, checker=None, checker_timeout=None, record=None))]
fn verify(
    module: &Bound<'_, PyModule>,
    dir: PathBuf,
    checker: Option<PathBuf>,
    checker_timeout: Option<f64>,
    record: Option<PathBuf>,
) -> PyResult<Py<PyAny>> {
    let py = module.py();
    let stop = Interrupter::new();
    let external = match checker {
        None => None,
        Some(program) => {
            let timeout = match checker_timeout {
                None => DEFAULT_TIMEOUT,
                Some(s) => boardsat_solve::stop::seconds(s).ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "checker_timeout={s} is not a positive number of seconds"
                    ))
                })?,
            };
            match ExternalChecker::new(&program, timeout) {
                Ok(external) => Some(external),
                Err(e) => {
                    let refused = Verification::failed(e.into());
                    return json::to_python(py, &VerifyReport::new(&refused));
                }
            }
        }
    };
    let record = match record {
        Some(path) => Some(open_record(module, &path)?),
        None => None,
    };
    let checks = Checks::new(Some(&stop))
        .with_external(external.as_ref())
        .with_record(record.as_ref());
    let verification = wait::run(py, &stop, || verify_directory(&dir, checks))?
        .map_err(|e| PyValueError::new_err(e.message(&errors::Keywords)))?;
    json::to_python(py, &VerifyReport::new(&verification))
}

/// The record at `path` for checks by this extension module: its version
/// and the SHA-256 of the file it was loaded from name it, so that another
/// build checks again.
fn open_record(module: &Bound<'_, PyModule>, path: &Path) -> PyResult<Record> {
    let unusable = |e: record::RecordError| PyValueError::new_err(e.to_string());
    let file: PathBuf = module.filename()?.extract()?;
    let identity = record::identity(
        concat!("boardsat-python ", env!("CARGO_PKG_VERSION")),
        &file,
    )
    .map_err(unusable)?;
    Record::open(path, &identity).map_err(unusable)
}

/// The board with ``placement`` (a list of ``(row, col)`` pairs) as a
/// picture: ``format="svg"`` (the pieces and, for domination, the squares
/// they cover) or ``"text"`` (one row a line). The problem's keywords are
/// :func:`check`'s.
///
/// Raises ``ValueError`` for bad arguments or a square off the board,
/// ``TypeError`` for a placement that is not a list of pairs.
#[pyfunction]
#[pyo3(signature = (family, n, placement, *, cols=None, piece=None, k=None, independent=false, format="svg"))]
#[allow(clippy::too_many_arguments)]
fn draw(
    family: &str,
    n: i64,
    placement: &Bound<'_, PyAny>,
    cols: Option<i64>,
    piece: Option<&str>,
    k: Option<i64>,
    independent: bool,
    format: &str,
) -> PyResult<String> {
    let (problem, _) = placement_problem(family, n, cols, piece, k, independent)?;
    let placement = placement_of(placement)?
        .ok_or_else(|| PyValueError::new_err("a square of the placement is off the board"))?;
    render(&problem, &placement, format)
}

/// A lazy iterator over the placements with ``k`` pieces, or without ``k``
/// the optimal ones (the optimum is found and proven on the first
/// ``next()``), each a list of ``(row, col)`` tuples, at most ``limit``.
///
/// Nothing is solved before a placement is asked for; breaking out of the
/// loop stops the search and frees the solver (so does ``close()``, or a
/// ``with`` block). ``time_limit`` counts from this call and ends the
/// iteration quietly: afterwards the iterator's ``complete`` is ``False``
/// and ``stopped`` is ``"time limit"``.
///
/// Raises ``ValueError`` here for bad arguments; ``next()`` raises as
/// :func:`solve` does.
#[pyfunction]
#[pyo3(name = "enumerate", signature = (
    family, n, *, cols=None, piece=None, k=None, independent=false,
    amo=None, card=None, formulation=None,
    solver=None, solver_cmd=None, seed=None, time_limit=None,
    limit=None, force=false
))]
#[allow(clippy::too_many_arguments)]
fn enumerate_placements(
    family: &str,
    n: i64,
    cols: Option<i64>,
    piece: Option<&str>,
    k: Option<i64>,
    independent: bool,
    amo: Option<&str>,
    card: Option<&str>,
    formulation: Option<&str>,
    solver: Option<&str>,
    solver_cmd: Option<&str>,
    seed: Option<i64>,
    time_limit: Option<f64>,
    limit: Option<i64>,
    force: bool,
) -> PyResult<placements::Placements> {
    let solver_args = SolverKeywords {
        solver,
        solver_cmd,
        seed,
        time_limit,
    };
    let spec = solver_args.spec()?;
    let instance = ProblemKeywords {
        family,
        n,
        cols,
        piece,
        k,
        independent,
        amo,
        card,
        formulation,
        force,
    }
    .instance(Some(&spec))?;
    let limit = args::limit(limit)?;
    placements::Placements::new(instance, spec, limit, solver_args.stop()?)
}

/// The clauses of a problem: with a number of pieces ``k`` (exactly k for
/// independence, at most k for domination; queens: n) its CNF, as
/// ``boardsat dimacs`` writes it; without ``k`` the hard clauses of its
/// optimum as a MaxSAT instance. The :class:`Encoding` writes the same
/// problem as DIMACS (with ``k``), WCNF (without), OPB and LP.
///
/// Raises ``ValueError`` for bad arguments, ``KeyboardInterrupt`` on
/// Ctrl-C.
#[pyfunction]
#[pyo3(signature = (
    family, n, *, cols=None, piece=None, k=None, independent=false,
    amo=None, card=None, formulation=None, force=false
))]
#[allow(clippy::too_many_arguments)]
fn encode(
    py: Python<'_>,
    family: &str,
    n: i64,
    cols: Option<i64>,
    piece: Option<&str>,
    k: Option<i64>,
    independent: bool,
    amo: Option<&str>,
    card: Option<&str>,
    formulation: Option<&str>,
    force: bool,
) -> PyResult<encoding::PyEncoding> {
    let problem_args = ProblemKeywords {
        family,
        n,
        cols,
        piece,
        k,
        independent,
        amo,
        card,
        formulation,
        force,
    };
    let instance = problem_args.instance(None)?;
    let request = problem_args.request()?;
    let command_line = problem_args.dimacs_command_line(&request, instance.config);
    encoding::PyEncoding::new(py, instance, command_line)
}

/// The problem (and k) a placement is drawn or checked on, from the
/// keywords `draw` and `check` share: no encoding is chosen.
fn placement_problem(
    family: &str,
    n: i64,
    cols: Option<i64>,
    piece: Option<&str>,
    k: Option<i64>,
    independent: bool,
) -> PyResult<(Problem, Option<usize>)> {
    let request = ProblemKeywords {
        family,
        n,
        cols,
        piece,
        k,
        independent,
        amo: None,
        card: None,
        formulation: None,
        force: false,
    }
    .request()?;
    request.problem().map_err(|e| encode_error(&e))
}

/// Whether ``placement`` (a list of ``(row, col)`` pairs, or ``[row, col]``
/// lists as in :func:`solve`'s result) solves the problem, by the
/// independent checker, which shares no code with the encoder: pieces on
/// the board, on distinct squares, none attacking another (independence),
/// every square covered (domination), and with ``k`` the number of pieces
/// (exactly k for independence and queens, at most k for domination).
/// Without ``k`` any number of pieces is accepted; optimality is not
/// checked.
///
/// Raises ``ValueError`` for bad arguments, ``TypeError`` for a placement
/// that is not a list of pairs of integers.
#[pyfunction]
#[pyo3(signature = (family, n, placement, *, cols=None, piece=None, k=None, independent=false))]
fn check(
    family: &str,
    n: i64,
    placement: &Bound<'_, PyAny>,
    cols: Option<i64>,
    piece: Option<&str>,
    k: Option<i64>,
    independent: bool,
) -> PyResult<bool> {
    let (problem, k) = placement_problem(family, n, cols, piece, k, independent)?;
    // A negative coordinate is off the board, like one past the edge.
    let Some(placement) = placement_of(placement)? else {
        return Ok(false);
    };
    let bound = k.map(|k| problem.kind.bound(k));
    Ok(check_placement(&problem, bound, &placement).is_ok())
}

/// Chessboard placement puzzles as SAT: N-queens, independence and
/// domination for queens, rooks, bishops, knights and kings.
///
/// ``solve``, ``count`` and ``enumerate`` run an embedded SAT solver
/// (CaDiCaL or varisat) or any external DIMACS solver; ``encode`` gives the
/// CNF for other tools (PySAT); ``check`` is the independent checker.
/// Keyword arguments are the ``boardsat`` command line's options, and
/// ``solve`` and ``count`` return the dicts its ``--json`` prints.
#[pymodule]
#[pyo3(name = "boardsat")]
fn boardsat_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(count, m)?)?;
    m.add_function(wrap_pyfunction!(enumerate_placements, m)?)?;
    m.add_function(wrap_pyfunction!(encode, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(draw, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add("Placement", placement_class(py)?)?;
    m.add_class::<encoding::PyEncoding>()?;
    m.add_class::<placements::Placements>()?;
    m.add("SolverError", py.get_type::<SolverError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    jobs::module(m)?;
    m.add("FAMILIES", PyTuple::new(py, Family::NAMES)?)?;
    m.add("PIECES", PyTuple::new(py, Piece::NAMES)?)?;
    m.add("AMO_ENCODINGS", PyTuple::new(py, Amo::NAMES)?)?;
    m.add("CARD_ENCODINGS", PyTuple::new(py, Card::NAMES)?)?;
    m.add("FORMULATIONS", PyTuple::new(py, Formulation::NAMES)?)?;
    let mut solvers: Vec<&str> = SolverKind::embedded().iter().map(|s| s.name()).collect();
    solvers.push(SolverKind::External.name());
    m.add("SOLVERS", PyTuple::new(py, solvers)?)?;
    Ok(())
}
