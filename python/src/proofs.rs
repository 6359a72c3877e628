//! Proofs from Python, on the command line's road: `proof=DIR` on `solve`
//! and `count` writes what `--proof DIR` writes (the claims behind the
//! result, their LRAT proofs, `MANIFEST.json` with the whole result),
//! through `boardsat-proof`'s prover and tasks; `verify(dir)` checks a
//! directory as `boardsat verify DIR` does.

use std::path::Path;

use boardsat_proof::{
    manifest::{RunResult, RunStatus},
    prover::{Concluded, ProofError, Prover, Task},
    trace::{Compression, ProofFormat},
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

/// The proof keywords of `solve` and `count`: `proof=`, `replace=`,
/// `resume=`, `proof_format=` and `proof_compression=` (the command line's
/// `--proof`, `--replace`, `--resume`, `--proof-format`,
/// `--proof-compression`, with the same defaults).
pub struct ProofKeywords<'a> {
    /// `proof=`: the directory.
    pub dir: Option<&'a Path>,
    /// `replace=`.
    pub replace: bool,
    /// `resume=`.
    pub resume: bool,
    /// `proof_format=`: `"text"` (the default) or `"binary"`.
    pub format: Option<&'a str>,
    /// `proof_compression=`: `"none"` (the default) or `"zstd"`.
    pub compression: Option<&'a str>,
}

impl ProofKeywords<'_> {
    /// The prover of `proof=dir` for `task`, ready before any work (a
    /// directory that is not empty fails now, unless `replace`; with
    /// `resume`, one whose run proved another task); `call` is recorded in
    /// the manifest.
    ///
    /// # Errors
    ///
    /// `ValueError` for a directory that cannot be used, or a keyword
    /// that is not one of its choices or needs `proof=`.
    pub fn prover(
        &self,
        call: String,
        task: &Task,
        stop: &Interrupter,
    ) -> Result<Option<Prover>, PyErr> {
        let format = match self.format {
            None | Some("text") => ProofFormat::LratText,
            Some("binary") => ProofFormat::LratBinary,
            Some(other) => {
                return Err(invalid(format!(
                    "proof_format must be \"text\" or \"binary\", not {other:?}"
                )))
            }
        };
        let compression = match self.compression {
            None => Compression::None,
            Some(name) => Compression::from_name(name).ok_or_else(|| {
                invalid(format!(
                    "proof_compression must be \"none\" or \"zstd\", not {name:?}"
                ))
            })?,
        };
        let Some(dir) = self.dir else {
            for (given, what) in [
                (self.replace, "replace=True replaces a proof directory"),
                (
                    self.resume,
                    "resume=True goes on with the proofs in a directory",
                ),
                (
                    self.format.is_some(),
                    "proof_format says how proofs are written",
                ),
                (
                    self.compression.is_some(),
                    "proof_compression says how proofs are stored",
                ),
            ] {
                if given {
                    return Err(invalid(format!("{what}: give proof=…")));
                }
            }
            return Ok(None);
        };
        let prover = if self.resume {
            if self.replace {
                return Err(invalid("replace=True and resume=True exclude each other"));
            }
            Prover::resume(dir, call, task, stop.clone())
        } else {
            Prover::create(dir, self.replace, call, task, stop.clone())
        };
        let mut prover = prover.map_err(|e| proof_error(&e))?;
        prover.set_proof_format(format);
        prover.set_compression(compression);
        Ok(Some(prover))
    }
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
    summary(prover.map(|prover| prover.conclude(proved, stop.reason())))
}

/// What a concluded prover's directory holds when it proves the whole
/// result (none without a prover, or when it does not).
///
/// # Errors
///
/// The proofs failed (the directory's manifest says so too).
pub fn summary(concluded: Option<Concluded>) -> Result<Option<ProofSummary>, PyErr> {
    let Some(concluded) = concluded else {
        return Ok(None);
    };
    if let Some(e) = &concluded.error {
        return Err(proof_error(e));
    }
    Ok((concluded.status == RunStatus::Complete).then_some(concluded.summary))
}
