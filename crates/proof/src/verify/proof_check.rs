//! A claim's proof checked: by the checker of its format (boardsat's own
//! LRAT checker, `boardsat-lrat`, which shares no code with CaDiCaL or the
//! encoder), then, when it accepts, by the external checker of the
//! verification too ([`crate::external`]). Each claim kind ties its
//! formula to what it claims first ([`check_claim`]): what a formula says
//! is cheaper to check than its proof.

use std::path::Path;

use boardsat_lrat::Syntax;
use boardsat_solve::formula::dimacs::Formula;

use crate::{
    external::ExternalChecker,
    manifest::ClaimEntry,
    trace::ProofFormat,
    verify::{
        files::{cannot_read, inside, open_file, read_formula},
        record::Record,
        verdict::{Checks, Rejection},
    },
};

/// The proof format a claim's manifest entry names (`lrat`,
/// `lrat-binary`).
pub(crate) fn proof_format(entry: &ClaimEntry) -> Result<ProofFormat, Rejection> {
    ProofFormat::from_name(&entry.format)
        .ok_or_else(|| Rejection::unreadable(format!("unknown proof format '{}'", entry.format)))
}

/// How the LRAT checkers read a proof in `format`; `None`, a proof the
/// user named: text or binary LRAT, told by its first byte. (A format
/// that is not LRAT would have its own checker here.)
fn lrat_syntax(format: Option<ProofFormat>) -> Syntax {
    match format {
        Some(ProofFormat::LratText) => Syntax::Text,
        Some(ProofFormat::LratBinary) => Syntax::Binary,
        None => Syntax::Detect,
    }
}

/// The check of `proof` (a regular file, in `format`) against the
/// claim's `formula`, read from the file `cnf`: by boardsat's checker,
/// then, when it accepts, by the external checker of `checks` too. The
/// steps checked, and the external checker's acceptance in words (empty
/// without one).
pub(crate) fn check_proof(
    checks: Checks<'_>,
    formula: (&Formula, &Path),
    proof: &Path,
    format: ProofFormat,
) -> Result<(u64, String), Rejection> {
    check_proof_at(checks, formula, proof, true, Some(format))
}

/// [`check_proof`], of a file the user named when not `strict` (a link
/// to a regular file is followed; `format` none: detected).
pub(crate) fn check_proof_at(
    checks: Checks<'_>,
    (formula, cnf): (&Formula, &Path),
    proof: &Path,
    strict: bool,
    format: Option<ProofFormat>,
) -> Result<(u64, String), Rejection> {
    let lrat = lrat_syntax(format);
    // Hashed before they are checked: the record holds the bytes checked.
    let key = match checks.record {
        Some(record) => {
            open_file(proof, strict)?;
            let key = record
                .key(cnf, proof, checks.external.map(ExternalChecker::sha256))
                .map_err(|e| cannot_read(proof, &e))?;
            if let Some(steps) = record.recorded(&key) {
                return Ok((steps, reused(record, checks.external)));
            }
            Some((record, key))
        }
        None => None,
    };
    let steps = check_lrat_at(formula, proof, strict, lrat)?;
    let also = match checks.external {
        None => String::new(),
        Some(external) => {
            let line = external
                .check(cnf, proof, lrat, checks.stop)
                .map_err(|message| Rejection::ExternalRejected { message })?;
            format!("; {} accepts it too ('{line}')", external.name())
        }
    };
    if let Some((record, key)) = key {
        record
            .add(&key, steps)
            .map_err(|e| Rejection::unreadable(e.to_string()))?;
    }
    Ok((steps, also))
}

/// A proof taken from `record`, in words.
fn reused(record: &Record, external: Option<&ExternalChecker>) -> String {
    let by = match external {
        Some(external) => format!("boardsat's checker and {}", external.name()),
        None => "boardsat's checker".to_string(),
    };
    format!(
        "; accepted by {by} in an earlier check, as the record {} holds (its files unchanged)",
        record.path().display()
    )
}

fn check_lrat_at(
    formula: &Formula,
    proof: &Path,
    strict: bool,
    lrat: Syntax,
) -> Result<u64, Rejection> {
    let file = open_file(proof, strict)?;
    let file = crate::compress::open_proof(file).map_err(|e| cannot_read(proof, &e))?;
    let clauses = formula
        .clauses
        .iter()
        .map(|c| c.iter().map(|l| l.to_ipasir()).collect::<Vec<i32>>());
    let summary =
        boardsat_lrat::check(clauses, file, lrat).map_err(|e| Rejection::ProofRejected {
            at: e.location(),
            message: format!("{}: {e}", proof.display()),
        })?;
    Ok(summary.n_steps)
}

/// A claim that verified: the proof's steps, what was checked in words,
/// and what the claim establishes.
#[derive(Debug)]
pub(crate) struct Checked<T> {
    /// Proof steps checked.
    pub steps: u64,
    /// What the formula was tied to, and who accepted its proof.
    pub what: String,
    /// What the claim establishes, for the run's result.
    pub fact: T,
}

/// The claim `entry` of the directory `dir`: its formula read and tied to
/// what it claims by `tie` (its kind's check: what was checked, and what
/// it establishes), then its proof checked ([`check_proof`]).
pub(crate) fn check_claim<T>(
    dir: &Path,
    entry: &ClaimEntry,
    checks: Checks<'_>,
    tie: impl FnOnce(&Formula) -> Result<(String, T), Rejection>,
) -> Result<Checked<T>, Rejection> {
    let format = proof_format(entry)?;
    let cnf = inside(dir, &entry.cnf)?;
    let formula = read_formula(&cnf, checks.stop)?;
    let (what, fact) = tie(&formula)?;
    let (steps, also) = check_proof(
        checks,
        (&formula, &cnf),
        &inside(dir, &entry.proof)?,
        format,
    )?;
    Ok(Checked {
        steps,
        what: what + &also,
        fact,
    })
}
