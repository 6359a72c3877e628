//! Checking a proof directory: each claim's proof by the checker of its
//! format (boardsat's own LRAT checker, `boardsat-lrat`, which shares no
//! code with CaDiCaL or the encoder, and an external one when asked), each
//! claim's formula tied to what it claims, by the module of its kind, and
//! then the run's whole result derived from the verified claims alone
//! ([`Verification::result`]).
//!
//! | claim kind | module |
//! |---|---|
//! | no placement, or a complete count, of a board problem (an N-queens cube among them) | `board`, and `queens_cover` for the cubes of an N-queens count |
//! | a cube of a certified domination split, and the split's cover | `certified_split` |
//! | a DIMACS file unsatisfiable, or its projected models counted | `source` |
//! | a split run as jobs (`cubes --proof`), verified whole | [`jobs`] |
//!
//! A claim's proof is checked by `proof_check` whatever its kind, and the
//! run's result derived by `result`; [`verdict`] holds what a
//! verification finds, [`json`] its report.
//!
//! Only regular files are opened ([`files`]): a symbolic link, a FIFO or a
//! directory in place of a manifest, formula, proof or witness file is a
//! reasoned failure, never followed and never waited on.
//!
//! ## Layers
//!
//! Each module imports only from modules on its own line or a line above
//! (checked by `tests/tests/layers.rs`):
//!
//! 1. `record` — the proofs an earlier verification accepted, kept for the next one (`verify --record`)
//! 2. `verdict` — the checks' context, a verdict per claim, why a claim does not verify
//! 3. `files`, `json` — regular files and names inside the directory, formulas read; `verify`'s JSON report
//! 4. `proof_check` — a claim's proof checked by its format's checker and the external one
//! 5. `board`, `source`, `certified_split` — the claim kinds: board claims, DIMACS claims, certified splits' cubes and covers
//! 6. `queens_cover`, `jobs` — the cover of an N-queens cube count; a split run as jobs
//! 7. `result` — the run's result from the verified claims
//! 8. this one — a proof directory verified, claim by claim

mod board;
mod certified_split;
pub mod files;
pub mod jobs;
pub mod json;
mod proof_check;
mod queens_cover;
pub mod record;
mod result;
mod source;
pub mod verdict;

use std::{fs, path::Path};

use boardsat_solve::formula::dimacs::Formula;

pub use self::record::{Record, RecordError};
pub use self::verdict::{
    Checks, ExternalUse, Finding, RecordUse, Rejection, Verdict, Verification, VerifyError,
};
use crate::{
    manifest::{ClaimEntry, ClaimKind, ProofManifest, SplitEntry, SplitPurpose, MANIFEST_JSON},
    sentences,
    verify::{
        board::{check_board, BoardFact},
        certified_split::{check_split_cube, verify_split, Bases, CubeRecord},
        files::{read_formula_at, read_regular},
        proof_check::{check_claim, check_proof_at, Checked},
        queens_cover::verify_cover,
        result::{derive, Facts},
        source::{check_source, SourceFact},
        verdict::in_parallel,
    },
};

/// Verifies the proof directory `dir`, or the split directory written
/// with proofs (`cubes --proof`, its `MANIFEST` beside its results): what
/// `boardsat verify DIR` checks, for any caller.
///
/// # Errors
///
/// As [`jobs::verify_jobs`] and [`verify`].
pub fn verify_directory(dir: &Path, checks: Checks<'_>) -> Result<Verification, VerifyError> {
    // A split written by `cubes --proof` (with a proof directory's
    // manifest beside it too: a mixed directory, which it rejects).
    if fs::symlink_metadata(dir.join(boardsat_jobs::MANIFEST)).is_ok() {
        jobs::verify_jobs(dir, checks)
    } else {
        verify(dir, checks)
    }
}

/// Verifies every claim of the proof directory `dir` (see the crate doc),
/// every split and cover, and derives the run's result from them.
///
/// # Errors
///
/// [`VerifyError`] when the directory has no manifest or the manifest is
/// not one (bad input); every other failure is a verdict or the result's
/// reason.
pub fn verify(dir: &Path, checks: Checks<'_>) -> Result<Verification, VerifyError> {
    let manifest = match read_manifest(dir)? {
        Ok(manifest) => manifest,
        Err(why) => return Ok(Verification::failed(why)),
    };
    let mut facts = Facts::default();
    let mut verdicts = verify_claims(dir, &manifest, checks, &mut facts);
    verdicts.extend(verify_splits(&manifest, &mut facts));
    verdicts.extend(manifest.cover.as_ref().map(|cover| {
        let outcome = match verify_cover(cover, &manifest.claims, &facts.verified, &facts.boards) {
            Ok((what, fact)) => {
                facts.cover = Some(fact);
                Finding::Verified { steps: None, what }
            }
            Err(why) => {
                facts.failed.push("cover".to_string());
                Finding::Rejected(why)
            }
        };
        Verdict {
            name: "cover".to_string(),
            outcome,
        }
    }));
    let result = derive(dir, &manifest, &facts);
    Ok(Verification {
        verdicts,
        result,
        external: None,
        record: None,
    }
    .checked_by(checks))
}

/// The manifest of the proof directory `dir`: an error for a directory
/// that has none or whose manifest is not one (bad input), a rejection
/// for one that cannot be read.
fn read_manifest(dir: &Path) -> Result<Result<ProofManifest, Rejection>, VerifyError> {
    let path = dir.join(MANIFEST_JSON);
    if fs::symlink_metadata(&path).is_err() {
        return Err(VerifyError::Manifest(format!(
            "cannot read {}: missing (not a proof directory)",
            path.display()
        )));
    }
    let text = match read_regular(&path) {
        Ok(text) => text,
        Err(why) => return Ok(Err(why)),
    };
    serde_json::from_str(&text).map(Ok).map_err(|e| {
        VerifyError::Manifest(format!("{}: not a proof manifest ({e})", path.display()))
    })
}

/// What a verified claim establishes, by its kind.
enum ClaimFact {
    /// A cube of a certified split.
    Cube(CubeRecord),
    /// A board claim.
    Board(BoardFact),
    /// A DIMACS claim.
    Source(SourceFact),
}

/// The verdicts on the claims of `manifest`, checked on `checks.threads`
/// workers (they are independent) and taken in the manifest's order; what
/// they establish goes into `facts`. The base of a certified split is
/// encoded once for all its cubes ([`Bases`]).
fn verify_claims(
    dir: &Path,
    manifest: &ProofManifest,
    checks: Checks<'_>,
    facts: &mut Facts,
) -> Vec<Verdict> {
    let bases = Bases::default();
    let checked = in_parallel(&manifest.claims, checks.threads, |entry| {
        verify_claim(dir, entry, checks, &bases)
    });
    let mut verdicts = Vec::new();
    for (entry, checked) in manifest.claims.iter().zip(checked) {
        let name = entry.name.clone();
        let outcome = match checked {
            Ok(Checked { steps, what, fact }) => {
                match fact {
                    ClaimFact::Cube(record) => facts.cubes.insert(name.clone(), record).map(|_| ()),
                    ClaimFact::Board(fact) => facts.boards.insert(name.clone(), fact).map(|_| ()),
                    ClaimFact::Source(fact) => facts.sources.insert(name.clone(), fact).map(|_| ()),
                };
                facts.verified.insert(name.clone());
                Finding::Verified {
                    steps: Some(steps),
                    what,
                }
            }
            Err(why) => {
                facts.failed.push(name.clone());
                Finding::Rejected(why)
            }
        };
        verdicts.push(Verdict { name, outcome });
    }
    verdicts
}

/// One claim of a proof directory, checked by the module of its kind.
fn verify_claim(
    dir: &Path,
    entry: &ClaimEntry,
    checks: Checks<'_>,
    bases: &Bases,
) -> Result<Checked<ClaimFact>, Rejection> {
    check_claim(dir, entry, checks, |formula: &Formula| match &entry.split {
        Some(cube) => check_split_cube(formula, entry, cube, bases)
            .map(|(what, record)| (what, ClaimFact::Cube(record))),
        None => match entry.kind {
            ClaimKind::NoPlacement | ClaimKind::Complete => board::check_claim(formula, entry)
                .map(|(what, fact)| (what, ClaimFact::Board(fact))),
            ClaimKind::Formula | ClaimKind::ProjectedComplete => check_source(dir, formula, entry)
                .map(|(what, fact)| (what, ClaimFact::Source(fact))),
        },
    })
}

/// The verdicts on the splits of `manifest`, refutations first: a count's
/// short blocking clauses lean on the refutation of one piece fewer,
/// wherever the manifest lists it (a resumed run lists its kept count
/// split before its new refutation).
fn verify_splits(manifest: &ProofManifest, facts: &mut Facts) -> Vec<Verdict> {
    let mut splits: Vec<&SplitEntry> = manifest.splits.iter().collect();
    splits.sort_by_key(|s| s.purpose != SplitPurpose::Refute);
    let mut verdicts = Vec::new();
    for split in splits {
        let outcome = match verify_split(split, manifest, &facts.cubes, &facts.verified) {
            Ok((what, fact)) => {
                facts.verified.insert(split.name.clone());
                facts.splits.insert(split.name.clone(), fact);
                Finding::Verified { steps: None, what }
            }
            Err(why) => {
                facts.failed.push(split.name.clone());
                Finding::Rejected(why)
            }
        };
        verdicts.push(Verdict {
            name: split.name.clone(),
            outcome,
        });
    }
    verdicts
}

/// Verifies `proof` against the formula `cnf` (any DIMACS file; both
/// named by the user, so a link to a regular file is followed). A formula
/// with a board claim's markers (a `c boardsat-bound` line, as the
/// prover writes, outside a split) is tied to its problem as [`verify`]
/// does; any other, boardsat's own DIMACS files included, is checked as
/// given. The result says what was proven.
#[must_use]
pub fn verify_files(cnf: &Path, proof: &Path, checks: Checks<'_>) -> Verification {
    let name = cnf.display().to_string();
    let checked = (|| -> Result<(u64, String, String), Rejection> {
        let formula = read_formula_at(cnf, checks.stop, false)?;
        // A proof named by the user may be text or binary LRAT.
        let (steps, also) = check_proof_at(checks, (&formula, cnf), proof, false, None)?;
        let tied = formula.tag("bound").is_some() && formula.tag("split").is_none();
        if !tied {
            let what = format!("the formula as given ({} clauses)", formula.clauses.len());
            return Ok((steps, what + &also, sentences::formula(&name)));
        }
        let (what, fact) = check_board(&formula, None)?;
        let what = what + &also;
        let sentence = match fact.count {
            None => sentences::no_placement(&fact.problem, fact.k),
            Some(count) => format!(
                "{} ({} blocked in {name} are all there are)",
                sentences::counted(&fact.problem, fact.k, count, None, None),
                fact.models
            ),
        };
        Ok((steps, what, sentence))
    })();
    match checked {
        Ok((steps, what, sentence)) => Verification {
            verdicts: vec![Verdict {
                name,
                outcome: Finding::Verified {
                    steps: Some(steps),
                    what,
                },
            }],
            result: Ok(sentence),
            external: None,
            record: None,
        },
        Err(why) => Verification {
            result: Err(why.clone().about(&name)),
            verdicts: vec![Verdict {
                name,
                outcome: Finding::Rejected(why),
            }],
            external: None,
            record: None,
        },
    }
    .checked_by(checks)
}
