//! DIMACS claims: a file is unsatisfiable, or its projected models
//! blocked are all there are. The formula is tied to its source file by
//! its digest and by its clauses, and each of its blocking clauses to a
//! witness: a full model that satisfies every clause of the source, whose
//! projection is the assignment the clause excludes (decoded and checked
//! by the independent checker too when the source names a board problem).

use std::path::Path;

use boardsat_encode::{check, Bound, Problem};
use boardsat_solve::formula::{
    dimacs::{self, Formula},
    falsified,
};
use rustsat::types::{Lit, Var};

use crate::{
    manifest::{ClaimEntry, ClaimKind},
    sentences,
    verify::{
        files::{inside, open_regular},
        verdict::Rejection,
    },
    witness,
};

/// A verified DIMACS claim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SourceFact {
    /// The source file's path and digest.
    pub source: (String, String),
    /// Its cube, for an iCNF file.
    pub icnf_cube: Option<usize>,
    /// `None`: unsatisfiable; otherwise the projected models.
    pub count: Option<u64>,
}

/// Ties a DIMACS claim to its source file: its digest, and its clauses as
/// the formula's first ones; the rest must block distinct projected
/// assignments, each witnessed by a model of the source in the claim's
/// witness file (read from `dir`), as many as claimed; and the claim's
/// words are what the formula proves. What was checked, and what the
/// claim establishes.
pub(crate) fn check_source(
    dir: &Path,
    formula: &Formula,
    entry: &ClaimEntry,
) -> Result<(String, SourceFact), Rejection> {
    let Some((path, _)) = &entry.source else {
        return Err(Rejection::mismatch("the claim names no source file"));
    };
    let tied = check_source_at(dir, formula, entry, Path::new(path), None)?;
    check_words(entry)?;
    Ok(tied)
}

/// The claim's words must be what its formula proves: derived again from
/// its source and count.
pub(crate) fn check_words(entry: &ClaimEntry) -> Result<(), Rejection> {
    let expected = match (entry.kind, &entry.source) {
        (ClaimKind::Formula, Some((path, _))) => sentences::formula(path),
        (ClaimKind::ProjectedComplete, Some((path, _))) => {
            sentences::projected(path, entry.count.unwrap_or(0))
        }
        _ => return Err(Rejection::mismatch("the claim names no source file")),
    };
    if expected == entry.claim {
        Ok(())
    } else {
        Err(Rejection::mismatch(format!(
            "the claim's words are not what its formula proves ('{expected}')"
        )))
    }
}

/// A board problem a DIMACS source's models must each be a placement of
/// (checked by the independent checker), with its bound.
pub(crate) type BoardCheck = Option<(Problem, Bound)>;

/// [`check_source`] with the source read from `at` (a split directory
/// moved since its jobs ran names its cube files where they are now), and
/// the board problem its models must solve when the caller knows it
/// (else read from the source's provenance, when it names one).
pub(crate) fn check_source_at(
    dir: &Path,
    formula: &Formula,
    entry: &ClaimEntry,
    at: &Path,
    board: BoardCheck,
) -> Result<(String, SourceFact), Rejection> {
    let Some((_, digest)) = &entry.source else {
        return Err(Rejection::mismatch("the claim names no source file"));
    };
    let path = &at.display().to_string();
    let source = read_source(at, digest, entry.icnf_cube)?;
    let n = source.clauses.len();
    if formula.clauses.len() < n || formula.clauses[..n] != source.clauses[..] {
        return Err(Rejection::mismatch(format!(
            "the formula does not start with the clauses of {path}"
        )));
    }
    let rest = &formula.clauses[n..];
    let fact = SourceFact {
        source: entry.source.clone().unwrap_or_default(),
        icnf_cube: entry.icnf_cube,
        count: None,
    };
    match entry.kind {
        ClaimKind::Formula if rest.is_empty() => Ok((format!("the formula is {path}"), fact)),
        ClaimKind::Formula => Err(Rejection::mismatch(
            "the formula has clauses its source does not",
        )),
        _ => {
            let Some(models) = &entry.models else {
                return Err(Rejection::mismatch(format!(
                    "the claim has no witness file: its {} blocked projected assignments are not shown to be models of {path}",
                    rest.len()
                )));
            };
            let models = inside(dir, models)?;
            let board = board.or_else(|| board_of(&source));
            let count = check_witnesses(&source, &models, Some(rest), board, n)?;
            match entry.count {
                Some(c) if c == count => Ok((
                    format!(
                        "{path} and {count} blocked projected models, each a model of it witnessed in {}{}",
                        models.display(),
                        if board.is_some() { " and a placement the independent checker accepts" } else { "" }
                    ),
                    SourceFact {
                        count: Some(count),
                        ..fact
                    },
                )),
                Some(c) => Err(Rejection::mismatch(format!(
                    "the formula blocks {count} projected models, the manifest claims {c}"
                ))),
                None => Err(Rejection::mismatch("a projected count without a count")),
            }
        }
    }
}

/// The source file at `at`, which must have `digest`; its cube
/// `icnf_cube` for an iCNF file (the cube's literals as units).
pub(crate) fn read_source(
    at: &Path,
    digest: &str,
    icnf_cube: Option<usize>,
) -> Result<Formula, Rejection> {
    let path = at.display();
    let file = open_regular(at).map_err(|e| Rejection::unreadable(format!("the source: {e}")))?;
    let unreadable =
        |e: &dyn std::fmt::Display| Rejection::unreadable(format!("the source {path}: {e}"));
    let (source, found) = dimacs::read_with_digest(file, None, None).map_err(|e| unreadable(&e))?;
    if found != *digest {
        return Err(Rejection::mismatch(format!(
            "the source {path} has changed (its digest is not the claim's)"
        )));
    }
    match icnf_cube {
        Some(i) => source.with_cube(i).map_err(|e| unreadable(&e)),
        None => Ok(source),
    }
}

/// The board problem and bound a DIMACS file's provenance names, when its
/// projection is exactly that board's variables (a file `boardsat dimacs`
/// or `boardsat cubes` wrote with a fixed bound).
pub(crate) fn board_of(source: &Formula) -> BoardCheck {
    let problem = boardsat_encode::export::problem_from(|key| source.provenance(key)).ok()?;
    let text = source.provenance("bound")?.strip_suffix(" pieces")?;
    let (word, k) = text.rsplit_once(' ')?;
    let k: usize = k.parse().ok()?;
    let bound = match word {
        "at most" => Bound::AtMost(k),
        "at least" => Bound::AtLeast(k),
        "exactly" => Bound::Exactly(k),
        _ => return None,
    };
    let board: Vec<Var> = (0..problem.board.n_squares() as u32)
        .map(Var::new)
        .collect();
    (source.projection.as_deref() == Some(&board[..])).then_some((problem, bound))
}

/// Checks the witness file `models` against `source`: each model satisfies
/// every clause of it, and their projections are distinct; with
/// `blocking`, model i's projection is exactly the assignment blocking
/// clause i excludes (clause `offset + i + 1` of the claim's formula), one
/// model per clause; with `board`, each model's board variables are a
/// placement the independent checker accepts. The number of models.
pub(crate) fn check_witnesses(
    source: &Formula,
    models: &Path,
    blocking: Option<&[Vec<Lit>]>,
    board: BoardCheck,
    offset: usize,
) -> Result<u64, Rejection> {
    let file = open_regular(models)?;
    let name = models.display();
    let projection = source.projection_or_all();
    let mut seen = std::collections::HashSet::new();
    let mut count = 0usize;
    for read in witness::read_lines(file, source.n_vars) {
        let witness = read.map_err(|e| Rejection::mismatch(format!("{name}: {e}")))?;
        let at = witness.line;
        let model = &witness.model;
        if let Some(i) = falsified(&source.clauses, model) {
            return Err(Rejection::mismatch(format!(
                "{name}, line {at}: the model falsifies clause {} of the source",
                i + 1
            )));
        }
        let excluded = excluded(&projection, model);
        if let Some(blocking) = blocking {
            let Some(clause) = blocking.get(count) else {
                return Err(Rejection::mismatch(format!(
                    "{name} holds more models than the formula has blocking clauses ({})",
                    blocking.len()
                )));
            };
            if *clause != excluded {
                return Err(Rejection::mismatch(format!(
                    "clause {} does not block the projection of the model on line {at} of {name}",
                    offset + count + 1
                )));
            }
        }
        if !seen.insert(excluded) {
            return Err(Rejection::mismatch(format!(
                "{name}, line {at}: the model's projection is another model's"
            )));
        }
        if let Some((problem, bound)) = &board {
            check(problem, Some(*bound), &boardsat_encode::dimacs::placement(&problem.board, model)).map_err(|v| {
                Rejection::mismatch(format!("{name}, line {at}: the model's placement is not a solution of {problem} with {bound} pieces ({v})"))
            })?;
        }
        count += 1;
    }
    if let Some(blocking) = blocking {
        if count < blocking.len() {
            return Err(Rejection::mismatch(format!(
                "clause {} blocks a projected assignment with no witness in {name} ({count} models for {} blocking clauses)",
                offset + count + 1,
                blocking.len()
            )));
        }
    }
    Ok(count as u64)
}

/// The clause that excludes `model`'s projection on `projection`: each
/// variable against its value.
fn excluded(projection: &[Var], model: &[bool]) -> Vec<Lit> {
    projection
        .iter()
        .map(|&v| {
            if model.get(v.idx()).copied().unwrap_or(false) {
                v.neg_lit()
            } else {
                v.pos_lit()
            }
        })
        .collect()
}
