//! Proofs from Python, on the command line's road: `proof=DIR` on `solve`
//! and `count` writes what `--proof DIR` writes (the claims behind the
//! result, their LRAT proofs, `MANIFEST.json` with the whole result),
//! through `boardsat-proof`'s prover and tasks; `verify(dir)` checks a
//! directory as `boardsat verify DIR` does.

use std::path::Path;

use boardsat_proof::{
    manifest::{RunResult, RunStatus},
    prover::{ProofError, Prover},
};
use boardsat_report::ProofSummary;
use boardsat_solve::stop::Interrupter;
use pyo3::PyErr;

use crate::errors::{invalid, solve_error, Keywords, SolverError};

/// The exception for a proof error: a directory that cannot be used is a
/// bad argument; anything else, the solver's or the prover's failure.
pub fn proof_error(e: &ProofError) -> PyErr {
    match e {
        ProofError::Solve(e) => solve_error(e),
        ProofError::Dir(_) | ProofError::NotEmpty(_) => invalid(e.message(&Keywords)),
        _ => SolverError::new_err(e.message(&Keywords)),
    }
}

/// The prover of `proof=dir`, ready before any work (a directory that is
/// not empty fails now, unless `replace`); `call` is recorded in the
/// manifest.
///
/// # Errors
///
/// `ValueError` for a directory that cannot be used.
pub fn prover(
    dir: Option<&Path>,
    replace: bool,
    resume: bool,
    call: String,
    stop: &Interrupter,
) -> Result<Option<Prover>, PyErr> {
    let Some(dir) = dir else {
        if replace {
            return Err(invalid(
                "replace=True replaces a proof directory: give proof=…",
            ));
        }
        if resume {
            return Err(invalid(
                "resume=True goes on with the proofs in a directory: give proof=…",
            ));
        }
        return Ok(None);
    };
    if resume {
        if replace {
            return Err(invalid("replace=True and resume=True exclude each other"));
        }
        return Prover::resume(dir, call, stop.clone())
            .map(Some)
            .map_err(|e| proof_error(&e));
    }
    Prover::create(dir, replace, call, stop.clone())
        .map(Some)
        .map_err(|e| proof_error(&e))
}

/// Ends a prover's run with what proving gave (`proved`), stopped by
/// `stop` or not: what the directory holds when it proves the whole
/// result (the report's `proof`).
///
/// # Errors
///
/// The proofs failed (the directory's manifest says so too).
pub fn conclude(
    prover: Option<Prover>,
    proved: Result<Option<RunResult>, ProofError>,
    stop: &Interrupter,
) -> Result<Option<ProofSummary>, PyErr> {
    let Some(prover) = prover else {
        return Ok(None);
    };
    let concluded = prover.conclude(proved, stop.reason());
    if let Some(e) = &concluded.error {
        return Err(proof_error(e));
    }
    Ok((concluded.status == RunStatus::Complete).then_some(concluded.summary))
}
