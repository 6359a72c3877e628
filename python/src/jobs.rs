//! `boardsat.jobs`: a count run as cube jobs, from Python, on the command
//! line's road: `write_split` writes what `boardsat cubes -o DIR` writes,
//! `run_job` runs one job as `boardsat job DIR ID` does (the same library
//! call, [`boardsat_jobs::run::run_job`], with the same prover,
//! [`boardsat_proof::job_proof::JobProofs`]), `run_rounds` runs every
//! round on this machine's cores without a binary
//! ([`boardsat_jobs::in_process::run_rounds`]), and `merge` sums the
//! answers as `boardsat merge [--verify]` does. Each returns the dict of
//! the command's `--json`; an error is the command's one line, in this
//! package's keywords.

use std::path::{Path, PathBuf};

use boardsat_encode::{dimacs::Format, Amo, Card, Family};
use boardsat_jobs::{
    self as jobs,
    in_process::{default_workers, run_rounds as rounds_in_process, InProcess},
    report::{CubesReport, JobsReport, MergeReport},
    rounds::{rounds_listed, RETRIES},
    run::{run_job as job_in_process, JobRun, RunJob},
    split::{Split, SplitSpec},
    Budget, JobLines, JobsError,
};
use boardsat_proof::{
    job_proof::JobProofs,
    prover::ProofError,
    trace::{Compression, ProofFormat},
    verify::{jobs::verify_jobs, json::VerifyReport, Checks},
};
use boardsat_solve::{
    search::{
        count::{Progress, Proofs},
        pool::{Cubes, EXPORT_DEPTH},
    },
    stop::Interrupter,
};
use pyo3::{
    exceptions::{PyBlockingIOError, PyOSError},
    prelude::*,
};

use crate::{
    args::{duration, size, SolverKeywords},
    errors::{encode_error, invalid, solve_error, Keywords, SolverError},
    json, proofs, wait,
};

/// How the job lines of a split written from Python call boardsat: the
/// `boardsat` on the `PATH` (or `$BOARDSAT`), as the wheel ships no
/// binary.
const PROGRAM: &str = "boardsat";

/// The exception for a jobs error, with the command line's words in this
/// package's keywords: a job another process runs now is a
/// `BlockingIOError`; a file that cannot be read or written an `OSError`;
/// a solver's or a proof's failure theirs; anything else (a directory
/// that is no split, an unknown job, a bad split) a `ValueError`.
pub fn jobs_error(e: &JobsError) -> PyErr {
    let message = e.message(&Keywords);
    match e {
        JobsError::Running { .. } => PyBlockingIOError::new_err(message),
        JobsError::File(_) | JobsError::Dir { .. } => PyOSError::new_err(message),
        JobsError::Solve(e) => solve_error(e),
        JobsError::Proof(e) => match e.downcast_ref::<ProofError>() {
            Some(e) => proofs::proof_error(e),
            None => SolverError::new_err(message),
        },
        _ => invalid(message),
    }
}

/// Writes a count as cube jobs into ``out``, as ``boardsat cubes FAMILY N
/// -o OUT`` does: one DIMACS file per cube (or one iCNF file,
/// ``format="icnf"``), ``MANIFEST``, and ``jobs.txt`` with one ``boardsat
/// job . ID`` line per cube (calling the ``boardsat`` on the ``PATH``, or
/// ``$BOARDSAT``). Returns the dict of ``boardsat cubes … --json``.
///
/// ``family`` is ``"queens"`` (all n-queens placements) or
/// ``"domination"`` (with ``k``); the keywords are the command's options,
/// with its defaults: ``depth`` (the rings fixed per cube), ``no_halve``
/// (every cube, not one per orbit), ``lex_leader``, ``amo``, ``card`` (the
/// cardinality encoding of domination's bound), ``format``,
/// ``proof`` (each job proves its count, for ``merge(dir, verify=True)``)
/// with ``proof_format`` and ``proof_compression``, ``job_budget``
/// (seconds before a domination job is split into the next round's
/// pieces) with ``max_depth``, and ``replace`` (a previous split's files
/// in ``out`` replaced).
///
/// Raises ``ValueError`` for bad arguments or a directory that cannot
/// take the split, ``OSError`` when a file cannot be written.
#[pyfunction]
#[pyo3(signature = (
    family, n, out, *, k=None, depth=None, no_halve=false, lex_leader=false,
    amo=None, card=None, format="cnf", proof=false, proof_format=None, proof_compression=None,
    job_budget=None, max_depth=None, replace=false
))]
#[allow(clippy::too_many_arguments)]
fn write_split(
    py: Python<'_>,
    family: &str,
    n: i64,
    out: PathBuf,
    k: Option<i64>,
    depth: Option<i64>,
    no_halve: bool,
    lex_leader: bool,
    amo: Option<&str>,
    card: Option<&str>,
    format: &str,
    proof: bool,
    proof_format: Option<&str>,
    proof_compression: Option<&str>,
    job_budget: Option<f64>,
    max_depth: Option<i64>,
    replace: bool,
) -> PyResult<Py<PyAny>> {
    let family = family.parse::<Family>().map_err(|e| encode_error(&e))?;
    let n = size(n, "the board size must be a positive integer")?;
    let k = k
        .map(|k| size(k, "the number of pieces must be a non-negative integer"))
        .transpose()?;
    let depth = depth
        .map(|d| size(d, "the depth must be a non-negative integer"))
        .transpose()?
        .unwrap_or(EXPORT_DEPTH);
    let amo = amo
        .map(|a| a.parse::<Amo>().map_err(|e| encode_error(&e)))
        .transpose()?
        .unwrap_or_default();
    let card = card
        .map(|c| c.parse::<Card>().map_err(|e| encode_error(&e)))
        .transpose()?
        .unwrap_or_default();
    let format = match Format::from_name(format) {
        Some(f @ (Format::Cnf | Format::Inccnf)) => f,
        _ => {
            return Err(invalid(format!(
                "format must be \"cnf\" or \"icnf\", not {format:?}"
            )))
        }
    };
    let (proof_format, proof_compression) = proof_choices(proof, proof_format, proof_compression)?;
    let max_depth = max_depth
        .map(|d| size(d, "max_depth must be a non-negative integer"))
        .transpose()?;
    let budget = match duration(job_budget)? {
        Some(time) => {
            if let Some(max) = max_depth.filter(|&max| max <= depth) {
                return Err(invalid(format!(
                    "max_depth={max} is not deeper than depth={depth}: no job could be split"
                )));
            }
            Some(Budget { time, max_depth })
        }
        None if max_depth.is_some() => {
            return Err(invalid(
                "max_depth says how deep a job budget splits: give job_budget=…",
            ))
        }
        None => None,
    };
    let spec = SplitSpec {
        family,
        n,
        k,
        depth,
        cubes: if no_halve {
            Cubes::All
        } else {
            Cubes::OnePerOrbit
        },
        amo,
        card,
        format,
        lex: lex_leader,
    };
    let lines = JobLines {
        program: jobs::job_program(PROGRAM).map_err(|e| jobs_error(&e))?,
        proofs: if proof { Proofs::On } else { Proofs::Off },
        proof_format,
        proof_compression,
        budget,
    };
    let stop = Interrupter::new();
    let written = wait::run(py, &stop, || {
        let split = Split::of(&spec)?;
        jobs::write_split(&out, &split, &lines, replace, Some(&stop))?;
        Ok::<_, JobsError>(split.cubes.len())
    })?;
    let cubes = written.map_err(|e| jobs_error(&e))?;
    json::to_python(
        py,
        &CubesReport {
            command: "cubes",
            dir: out.display().to_string(),
            cubes,
            format: format.name(),
        },
    )
}

/// The proof keywords of `write_split`: the format and compression of the
/// jobs' proofs, which need `proof=True`.
fn proof_choices(
    proof: bool,
    format: Option<&str>,
    compression: Option<&str>,
) -> PyResult<(ProofFormat, Compression)> {
    if !proof && (format.is_some() || compression.is_some()) {
        return Err(invalid(
            "proof_format and proof_compression say how the jobs' proofs are written: give proof=True",
        ));
    }
    let format = match format {
        None | Some("text") => ProofFormat::LratText,
        Some("binary") => ProofFormat::LratBinary,
        Some(other) => {
            return Err(invalid(format!(
                "proof_format must be \"text\" or \"binary\", not {other:?}"
            )))
        }
    };
    let compression = match compression {
        None => Compression::None,
        Some(name) => Compression::from_name(name).ok_or_else(|| {
            invalid(format!(
                "proof_compression must be \"none\" or \"zstd\", not {name:?}"
            ))
        })?,
    };
    Ok((format, compression))
}

/// The prover of a split's jobs run from Python: its calls are recorded
/// as `boardsat.jobs.run_job(…)`.
fn job_proofs<'a>(stop: &'a Interrupter, dir: &Path, what: &str) -> JobProofs<'a> {
    JobProofs {
        stop,
        command: format!("boardsat.jobs.{what}({:?})", dir.display().to_string()),
    }
}

/// Runs job ``id`` of the split in ``dir`` as ``boardsat job DIR ID``
/// does: claims it, keeps an answer it has already, counts its cube (and
/// proves the count in a split with proofs), and writes its answer to
/// ``results/``, or its pieces when it runs past the split's job budget.
/// Returns the answer, the dict of ``boardsat job DIR ID --json``. The
/// solver keywords are :func:`boardsat.count`'s.
///
/// Raises ``ValueError`` for a directory that is not a split or an
/// unknown job, ``BlockingIOError`` when another process runs the job
/// now, ``boardsat.SolverError`` when the solver or the proof fails,
/// ``KeyboardInterrupt`` on Ctrl-C (the job's answer then says it
/// stopped).
#[pyfunction]
#[pyo3(signature = (dir, id, *, solver=None, solver_cmd=None, seed=None, time_limit=None))]
fn run_job(
    py: Python<'_>,
    dir: PathBuf,
    id: &str,
    solver: Option<&str>,
    solver_cmd: Option<&str>,
    seed: Option<i64>,
    time_limit: Option<f64>,
) -> PyResult<Py<PyAny>> {
    let keywords = SolverKeywords {
        solver,
        solver_cmd,
        seed,
        time_limit,
    };
    let spec = keywords.spec()?;
    let stop = keywords.stop()?;
    let prove = job_proofs(&stop, &dir, "run_job");
    let quiet = |_: &Progress| {};
    let ran = wait::run(py, &stop, || {
        let how = RunJob {
            solver: &spec,
            stop: &stop,
            prove: &prove,
            progress: &quiet,
        };
        job_in_process(&dir, id, &how).map(|ran| match ran {
            JobRun::Kept(answer) | JobRun::Split { answer, .. } => answer,
            JobRun::Counted(counted) => counted.result,
        })
    })?;
    let answer = ran.map_err(|e| jobs_error(&e))?;
    json::to_python(py, &answer)
}

/// Runs the rounds of the split in ``dir`` on this machine's cores until
/// every job has its answer, as ``boardsat jobs DIR --run local`` does,
/// but inside this process (no ``boardsat`` binary needed): ``workers``
/// jobs at once (default: one per core), a job that failed listed again
/// in ``retries`` more rounds. Returns the dict of ``boardsat jobs DIR
/// --run local --json``: ``finished`` says whether every job has its
/// answer, ``driven`` the rounds run, ``given_up`` the jobs that failed
/// past their retries. The solver keywords are :func:`run_job`'s;
/// ``time_limit`` bounds the whole run.
///
/// Raises ``ValueError`` for a directory that is not a split,
/// ``KeyboardInterrupt`` on Ctrl-C (the running jobs stop and write what
/// they have, marked incomplete, for the next run to redo).
#[pyfunction]
#[pyo3(signature = (
    dir, *, workers=None, retries=RETRIES, solver=None, solver_cmd=None, seed=None,
    time_limit=None
))]
#[allow(clippy::too_many_arguments)]
fn run_rounds(
    py: Python<'_>,
    dir: PathBuf,
    workers: Option<i64>,
    retries: usize,
    solver: Option<&str>,
    solver_cmd: Option<&str>,
    seed: Option<i64>,
    time_limit: Option<f64>,
) -> PyResult<Py<PyAny>> {
    let keywords = SolverKeywords {
        solver,
        solver_cmd,
        seed,
        time_limit,
    };
    let spec = keywords.spec()?;
    let stop = keywords.stop()?;
    let workers = match workers {
        None => default_workers(),
        Some(w) => match size(w, "workers must be a positive integer")? {
            0 => return Err(invalid("workers must be a positive integer")),
            w => w,
        },
    };
    let prove = job_proofs(&stop, &dir, "run_rounds");
    let how = InProcess {
        workers,
        retries,
        program: jobs::job_program(PROGRAM).map_err(|e| jobs_error(&e))?,
        solver: &spec,
        prove: &prove,
    };
    let driven = wait::run(py, &stop, || {
        let driven = rounds_in_process(&dir, &how, &stop, &|_| {})?;
        Ok::<_, JobsError>((driven, rounds_listed(&dir)?))
    })?;
    let (driven, rounds) = driven.map_err(|e| jobs_error(&e))?;
    json::to_python(
        py,
        &JobsReport::driven(&dir.display().to_string(), &driven, rounds),
    )
}

/// Sums the answers of the split in ``dir`` as ``boardsat merge DIR
/// --json`` does: ``count`` (the weighted total), ``orbits`` (in a split
/// written with ``lex_leader=True``: the orbits under the board's
/// symmetries), ``cubes``, ``jobs`` and ``depth``. With ``verify=True`` (a split written with ``proof=True``)
/// the split is verified first, as ``merge --verify`` does: every cube's
/// formula re-derived, the cover checked and every job's proof checked;
/// when that fails, the verification's report is returned instead (the
/// dict of :func:`boardsat.verify`, ``verified`` false).
///
/// Raises ``ValueError`` for a directory that is not a split or a split
/// with jobs left unanswered, ``KeyboardInterrupt`` on Ctrl-C.
#[pyfunction]
#[pyo3(signature = (dir, *, verify=false))]
fn merge(py: Python<'_>, dir: PathBuf, verify: bool) -> PyResult<Py<PyAny>> {
    let stop = Interrupter::new();
    if verify {
        let checks = Checks::new(Some(&stop));
        let verification = wait::run(py, &stop, || verify_jobs(&dir, checks))?
            .map_err(|e| invalid(e.message(&Keywords)))?;
        let report = VerifyReport::new(&verification);
        if !report.verified {
            return json::to_python(py, &report);
        }
    }
    let merged = jobs::merge(&dir).map_err(|e| jobs_error(&e))?;
    json::to_python(py, &MergeReport::new(&merged, verify))
}

/// The `boardsat.jobs` submodule, registered in `sys.modules` so that
/// `import boardsat.jobs` finds it.
///
/// # Errors
///
/// Python's, when the module cannot be built.
pub fn module(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = parent.py();
    let m = PyModule::new(py, "jobs")?;
    m.add_function(wrap_pyfunction!(write_split, &m)?)?;
    m.add_function(wrap_pyfunction!(run_job, &m)?)?;
    m.add_function(wrap_pyfunction!(run_rounds, &m)?)?;
    m.add_function(wrap_pyfunction!(merge, &m)?)?;
    m.add("RETRIES", RETRIES)?;
    m.add("DEPTH", EXPORT_DEPTH)?;
    m.setattr("__name__", "boardsat.jobs")?;
    parent.add_submodule(&m)?;
    py.import("sys")?
        .getattr("modules")?
        .set_item("boardsat.jobs", &m)?;
    Ok(())
}
