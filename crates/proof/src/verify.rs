//! Checking a proof directory: each claim's LRAT proof by
//! `boardsat-lrat`, which shares no code with CaDiCaL or the encoder, and
//! each claim's formula tied to its problem (see the crate doc).

use std::{
    collections::{BTreeMap, BTreeSet},
    fs,
    io::BufReader,
    path::Path,
};

use boardsat_encode::{
    check, symmetry, Board, Bound, Card, Config, Formulation, Placement, Problem, Square,
};
use boardsat_lrat::Location;
use boardsat_solve::{
    files,
    formula::dimacs::{self, Formula},
    search::{count::Reduction, queens::queen_cubes},
    stop::Interrupter,
};
use rustsat::{
    instances::Cnf,
    types::{Lit, Var},
};

use crate::{
    cover::{check_split_cube, verify_split, CubeRecord},
    manifest::{
        parse_bound_tag, ClaimEntry, ClaimKind, Cover, ProofManifest, SplitCube, MANIFEST_JSON,
    },
    words,
};

/// The verdict on one claim (or on the cover of a split).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The claim's name (`cover` for the split; the file's for
    /// [`verify_files`]).
    pub name: String,
    /// What the check found.
    pub outcome: Outcome,
}

/// What checking a claim found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The LRAT proof derives the empty clause in `steps` steps (none for
    /// a cover) and the formula is what the claim says (`what`).
    Verified {
        /// Proof steps checked.
        steps: Option<u64>,
        /// What the formula was tied to, in words.
        what: String,
    },
    /// A file of the claim could not be read (or has an unknown format).
    Unreadable(String),
    /// The LRAT checker rejected the proof, at this line (or byte) of the
    /// proof when the error is in a step.
    ProofRejected {
        /// Where in the proof.
        at: Option<Location>,
        /// The checker's message.
        message: String,
    },
    /// The formula is not what the claim says: its encoding, its
    /// constraints, its blocking clauses or its count.
    FormulaMismatch(String),
    /// The claims do not cover the split, or their total is not the count.
    CoverMismatch(String),
}

impl Outcome {
    /// Whether the claim verified.
    #[must_use]
    pub fn verified(&self) -> bool {
        matches!(self, Outcome::Verified { .. })
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Outcome::Verified {
                steps: Some(steps),
                what,
            } => write!(
                f,
                "LRAT proof of {steps} steps derives the empty clause; {what}"
            ),
            Outcome::Verified { steps: None, what } => f.write_str(what),
            Outcome::Unreadable(why)
            | Outcome::FormulaMismatch(why)
            | Outcome::CoverMismatch(why) => f.write_str(why),
            Outcome::ProofRejected { message, .. } => f.write_str(message),
        }
    }
}

/// Why a proof directory could not be verified at all.
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    /// The directory has no readable manifest.
    #[error("{0}")]
    Manifest(String),
}

/// Verifies every claim of the proof directory `dir` (see the crate doc),
/// and for a cube count that the claims cover the split.
///
/// # Errors
///
/// [`VerifyError`] when the manifest cannot be read; each claim's failure
/// is its [`Verdict`].
pub fn verify(dir: &Path, stop: Option<&Interrupter>) -> Result<Vec<Verdict>, VerifyError> {
    let path = dir.join(MANIFEST_JSON);
    let text = fs::read_to_string(&path).map_err(|e| {
        VerifyError::Manifest(format!(
            "cannot read {}: {}",
            path.display(),
            files::describe(&e)
        ))
    })?;
    let manifest: ProofManifest = serde_json::from_str(&text).map_err(|e| {
        VerifyError::Manifest(format!("{}: not a proof manifest ({e})", path.display()))
    })?;
    // A split stopped before its first cube was proven has no claims,
    // and is reported missing below, not as an empty directory.
    if manifest.claims.is_empty() && manifest.splits.is_empty() {
        return Err(VerifyError::Manifest(format!(
            "{}: no claims",
            path.display()
        )));
    }
    let mut verdicts = Vec::new();
    let mut records = BTreeMap::new();
    let mut verified = BTreeSet::new();
    for entry in &manifest.claims {
        let outcome = match &entry.split {
            Some(sc) => outcome(
                verify_cube(dir, entry, sc, stop).map(|(steps, what, record)| {
                    records.insert(entry.name.clone(), record);
                    (steps, what)
                }),
            ),
            None => outcome(verify_claim(dir, entry, stop)),
        };
        if outcome.verified() {
            verified.insert(entry.name.clone());
        }
        verdicts.push(Verdict {
            name: entry.name.clone(),
            outcome,
        });
    }
    for split in &manifest.splits {
        let outcome = verify_split(split, &manifest, &records, &verified);
        if outcome.verified() {
            verified.insert(split.name.clone());
        }
        verdicts.push(Verdict {
            name: split.name.clone(),
            outcome,
        });
    }
    if let Some(cover) = &manifest.cover {
        verdicts.push(Verdict {
            name: "cover".to_string(),
            outcome: match verify_cover(cover, &manifest.claims) {
                Ok(what) => Outcome::Verified { steps: None, what },
                Err(why) => Outcome::CoverMismatch(why),
            },
        });
    }
    Ok(verdicts)
}

/// A claim's checks as a verdict's outcome.
fn outcome(checked: Result<(u64, String), Outcome>) -> Outcome {
    match checked {
        Ok((steps, what)) => Outcome::Verified {
            steps: Some(steps),
            what,
        },
        Err(outcome) => outcome,
    }
}

/// Verifies `proof` against `cnf` (and, when the formula carries a board
/// claim's provenance, re-derives it as [`verify`] does).
#[must_use]
pub fn verify_files(cnf: &Path, proof: &Path, stop: Option<&Interrupter>) -> Verdict {
    let checked = read_formula(cnf, stop).and_then(|formula| {
        let steps = check_lrat(&formula, proof)?;
        let what = if formula.provenance("problem").is_some() {
            check_board(&formula, None).map_err(Outcome::FormulaMismatch)?
        } else {
            "the formula as given".to_string()
        };
        Ok((steps, what))
    });
    Verdict {
        name: cnf.display().to_string(),
        outcome: outcome(checked),
    }
}

pub(crate) fn read_formula(path: &Path, stop: Option<&Interrupter>) -> Result<Formula, Outcome> {
    let file = fs::File::open(path).map_err(|e| {
        Outcome::Unreadable(format!(
            "cannot read {}: {}",
            path.display(),
            files::describe(&e)
        ))
    })?;
    dimacs::read(BufReader::new(file), None, stop)
        .map_err(|e| Outcome::Unreadable(format!("{}: {e}", path.display())))
}

/// A cube claim of a split: the proof, and the formula tied to its cube.
fn verify_cube(
    dir: &Path,
    entry: &ClaimEntry,
    sc: &SplitCube,
    stop: Option<&Interrupter>,
) -> Result<(u64, String, CubeRecord), Outcome> {
    if entry.format != "lrat" {
        return Err(Outcome::Unreadable(format!(
            "unknown proof format '{}'",
            entry.format
        )));
    }
    let formula = read_formula(&dir.join(&entry.cnf), stop)?;
    // The formula first: what it says is cheaper to check than its proof.
    let (what, record) = check_split_cube(&formula, entry, sc).map_err(Outcome::FormulaMismatch)?;
    let steps = check_lrat(&formula, &dir.join(&entry.proof))?;
    Ok((steps, what, record))
}

fn verify_claim(
    dir: &Path,
    entry: &ClaimEntry,
    stop: Option<&Interrupter>,
) -> Result<(u64, String), Outcome> {
    if entry.format != "lrat" {
        return Err(Outcome::Unreadable(format!(
            "unknown proof format '{}'",
            entry.format
        )));
    }
    let formula = read_formula(&dir.join(&entry.cnf), stop)?;
    let tied = match entry.kind {
        ClaimKind::NoPlacement if formula.tag("blocking").is_some() => {
            Err("a no-placement claim whose formula blocks placements".to_string())
        }
        ClaimKind::NoPlacement | ClaimKind::Complete => check_board(&formula, Some(entry)),
        ClaimKind::Formula | ClaimKind::ProjectedComplete => check_source(&formula, entry),
    }
    .and_then(|what| check_words(&formula, entry).map(|()| what))
    .map_err(Outcome::FormulaMismatch)?;
    let steps = check_lrat(&formula, &dir.join(&entry.proof))?;
    Ok((steps, tied))
}

/// The claim's words must be what its formula proves: derived again from
/// the provenance and the claim's count, cube or source.
fn check_words(formula: &Formula, entry: &ClaimEntry) -> Result<(), String> {
    let expected = match (entry.kind, &entry.source) {
        (ClaimKind::Formula, Some((path, _))) => words::formula(path),
        (ClaimKind::ProjectedComplete, Some((path, _))) => {
            words::projected(path, entry.count.unwrap_or(0))
        }
        (ClaimKind::Formula | ClaimKind::ProjectedComplete, None) => {
            return Err("the claim names no source file".to_string())
        }
        (kind, _) => {
            let (problem, k, _, _) = provenance(formula)?;
            match (kind, entry.count, &entry.cube) {
                (ClaimKind::NoPlacement, ..) => words::no_placement(&problem, k),
                (_, Some(count), Some((columns, _))) => {
                    words::queens_cube(&problem, k, count, columns)
                }
                (_, Some(count), None) => words::complete(&problem, k, count),
                (_, None, _) => return Err("a completeness claim without a count".to_string()),
            }
        }
    };
    if expected == entry.claim {
        Ok(())
    } else {
        Err(format!(
            "the claim's words are not what its formula proves ('{expected}')"
        ))
    }
}

/// The LRAT check of `proof` against `formula`: the steps checked.
pub(crate) fn check_lrat(formula: &Formula, proof: &Path) -> Result<u64, Outcome> {
    let file = fs::File::open(proof).map_err(|e| {
        Outcome::Unreadable(format!(
            "cannot read {}: {}",
            proof.display(),
            files::describe(&e)
        ))
    })?;
    let clauses = formula
        .clauses
        .iter()
        .map(|c| c.iter().map(|l| l.to_ipasir()).collect::<Vec<i32>>());
    let summary =
        boardsat_lrat::check(clauses, file, boardsat_lrat::Format::Text).map_err(|e| {
            Outcome::ProofRejected {
                at: e.location(),
                message: format!("{}: {e}", proof.display()),
            }
        })?;
    Ok(summary.n_steps)
}

/// The problem, bound and encodings a board claim's provenance names.
pub(crate) fn provenance(formula: &Formula) -> Result<(Problem, usize, Bound, Config), String> {
    let line = |key: &str| {
        formula
            .provenance(key)
            .ok_or_else(|| format!("the formula has no '{key}:' provenance line"))
    };
    let name = |key: &str| -> Result<String, String> { Ok(line(key)?.to_string()) };
    let problem = boardsat_encode::export::problem_from(|key| formula.provenance(key))
        .map_err(|e| format!("the formula's provenance: {e}"))?;
    let tag = formula
        .tag("bound")
        .ok_or("the formula has no 'boardsat-bound' line")?;
    let bound = parse_bound_tag(tag).ok_or_else(|| format!("bad bound '{tag}'"))?;
    let k = bound.k();
    let config = Config {
        amo: name("amo")?.parse().map_err(|e| format!("{e}"))?,
        card: name("card")?.parse::<Card>().map_err(|e| format!("{e}"))?,
        formulation: name("formulation")?
            .parse::<Formulation>()
            .map_err(|e| format!("{e}"))?,
    };
    if problem.kind.bound(k) != bound {
        return Err(format!("the bound '{bound}' is not the bound of {problem}"));
    }
    Ok((problem, k, bound, config))
}

/// What a board claim's formula must start with, re-derived from its
/// provenance: the encoding, lex-leader constraints, a cube's units.
struct Fixed {
    problem: Problem,
    bound: Bound,
    /// Lex-leader constraints follow the encoding.
    symmetric: bool,
    /// The cube's squares, each a unit clause after them.
    cube: Vec<Square>,
    /// The clauses, in order.
    clauses: Cnf,
    /// How many of them are the encoding.
    n_encoding: usize,
}

/// Re-derives the fixed part of a board claim's formula; the cube must be
/// `entry`'s.
fn fixed_part(formula: &Formula, entry: Option<&ClaimEntry>) -> Result<Fixed, String> {
    let (problem, k, bound, config) = provenance(formula)?;
    let board = problem.board;
    let mut vars = problem.var_manager();
    let mut clauses = Cnf::new();
    problem
        .encode(k, config, &mut clauses, &mut vars)
        .map_err(|e| e.to_string())?;
    let n_encoding = clauses.len();
    let symmetric = formula.tag("symmetry") == Some("lex-leader");
    if symmetric {
        symmetry::lex_leader(&board, &mut clauses, &mut vars).map_err(|e| e.to_string())?;
    }
    let mut cube = Vec::new();
    if let Some(cols) = formula.tag("cube") {
        for (row, col) in cols.split(',').enumerate() {
            let col: usize = col.parse().map_err(|_| format!("bad cube '{cols}'"))?;
            let sq = Square::new(row, col);
            if !board.contains(sq) {
                return Err(format!("the cube '{cols}' is off the board"));
            }
            cube.push(sq);
            clauses.add_unit(board.lit(sq));
        }
    }
    if let Some(entry) = entry {
        let claimed: Option<&Vec<usize>> = entry.cube.as_ref().map(|(c, _)| c);
        let found: Vec<usize> = cube.iter().map(|s| s.col).collect();
        if claimed.map_or(!found.is_empty(), |c| *c != found) {
            return Err("the formula's cube is not the manifest's".to_string());
        }
    }
    Ok(Fixed {
        problem,
        bound,
        symmetric,
        cube,
        clauses,
        n_encoding,
    })
}

/// The formula starts with exactly the fixed part.
fn compare_fixed(formula: &Formula, fixed: &Fixed) -> Result<(), String> {
    let n_fixed = fixed.clauses.len();
    if formula.clauses.len() < n_fixed {
        return Err(format!(
            "the formula has {} clauses, fewer than the {n_fixed} of {} with {} pieces",
            formula.clauses.len(),
            fixed.problem,
            fixed.bound
        ));
    }
    for (i, (got, want)) in formula.clauses.iter().zip(fixed.clauses.iter()).enumerate() {
        let want: Vec<Lit> = want.iter().copied().collect();
        if *got != want {
            let part = if i < fixed.n_encoding {
                "the encoding of the problem"
            } else {
                "the lex-leader constraints or the cube"
            };
            return Err(format!(
                "clause {} is not {part} as re-derived from the provenance lines",
                i + 1
            ));
        }
    }
    Ok(())
}

/// The clauses after the fixed part must each block a distinct placement
/// the independent checker accepts (in the cube, a lex leader where the
/// constraints are): their number, orbit-weighted where they are.
fn count_blocked(formula: &Formula, fixed: &Fixed) -> Result<u64, String> {
    let n_fixed = fixed.clauses.len();
    let board = fixed.problem.board;
    let uniform = match formula.tag("blocking") {
        Some("short") => true,
        Some("full") | None => false,
        Some(other) => return Err(format!("unknown blocking style '{other}'")),
    };
    let mut seen = std::collections::HashSet::new();
    let mut count = 0u64;
    for (i, clause) in formula.clauses[n_fixed..].iter().enumerate() {
        let at = n_fixed + i + 1;
        let placement = blocked_placement(&board, clause, uniform).ok_or_else(|| {
            format!("clause {at} is neither part of the problem nor a blocking clause")
        })?;
        check(&fixed.problem, Some(fixed.bound), &placement)
            .map_err(|v| format!("clause {at} blocks a placement that is not a solution ({v})"))?;
        if !fixed.cube.iter().all(|sq| placement.squares().contains(sq)) {
            return Err(format!("clause {at} blocks a placement outside the cube"));
        }
        if fixed.symmetric && !symmetry::is_lex_leader(&board, &placement) {
            return Err(format!(
                "clause {at} blocks a placement that is not the leader of its orbit"
            ));
        }
        if !seen.insert(placement.clone()) {
            return Err(format!("clause {at} blocks a placement twice"));
        }
        count += if fixed.symmetric {
            symmetry::orbit_size(&board, &placement)
        } else {
            1
        };
    }
    Ok(count)
}

/// Ties a board claim's formula to its problem (see the crate doc); the
/// count of a completeness claim must be `entry`'s.
fn check_board(formula: &Formula, entry: Option<&ClaimEntry>) -> Result<String, String> {
    let fixed = fixed_part(formula, entry)?;
    compare_fixed(formula, &fixed)?;
    let count = count_blocked(formula, &fixed)?;
    let n_blocked = formula.clauses.len() - fixed.clauses.len();
    let what = format!(
        "the formula is the encoding of {} with {}{}{}",
        fixed.problem,
        fixed.bound,
        if fixed.symmetric {
            ", lex-leader constraints"
        } else {
            ""
        },
        if fixed.cube.is_empty() {
            ""
        } else {
            ", a cube"
        }
    );
    match entry.and_then(|e| e.count) {
        Some(claimed) if claimed != count => Err(format!(
            "the formula blocks {count} placements (orbit-weighted), the manifest claims {claimed}"
        )),
        Some(_) => Ok(format!(
            "{what} and {n_blocked} blocked placements: {count} in all"
        )),
        None if n_blocked > 0 && entry.is_some() => {
            Err("blocking clauses in a claim without a count".to_string())
        }
        None => Ok(what),
    }
}

/// The placement a blocking clause excludes: the short clause (every
/// literal a negated board variable) or the full one (every board
/// variable once).
pub(crate) fn blocked_placement(board: &Board, clause: &[Lit], uniform: bool) -> Option<Placement> {
    let n = board.n_squares();
    if clause.iter().any(|l| l.vidx() >= n) {
        return None;
    }
    let squares: Vec<Square> = if uniform {
        if clause.iter().any(|l| l.is_pos()) {
            return None;
        }
        clause
            .iter()
            .filter_map(|l| board.square_of(l.var()))
            .collect()
    } else {
        if clause.len() != n {
            return None;
        }
        let mut vars: Vec<usize> = clause.iter().map(|l| l.vidx()).collect();
        vars.sort_unstable();
        vars.dedup();
        if vars.len() != n {
            return None;
        }
        clause
            .iter()
            .filter(|l| l.is_neg())
            .filter_map(|l| board.square_of(l.var()))
            .collect()
    };
    Some(Placement::new(squares))
}

/// Ties a DIMACS claim to its source file: its digest, and its clauses as
/// the formula's first ones; the rest must block distinct projected
/// assignments, as many as claimed.
fn check_source(formula: &Formula, entry: &ClaimEntry) -> Result<String, String> {
    let Some((path, _)) = &entry.source else {
        return Err("the claim names no source file".to_string());
    };
    check_source_at(formula, entry, Path::new(path))
}

/// [`check_source`] with the source read from `at` (a split directory
/// moved since its jobs ran names its cube files where they are now).
pub(crate) fn check_source_at(
    formula: &Formula,
    entry: &ClaimEntry,
    at: &Path,
) -> Result<String, String> {
    let Some((_, digest)) = &entry.source else {
        return Err("the claim names no source file".to_string());
    };
    let path = &at.display().to_string();
    let file = fs::File::open(at)
        .map_err(|e| format!("cannot read the source {path}: {}", files::describe(&e)))?;
    let (source, found) = dimacs::read_with_digest(file, None, None)
        .map_err(|e| format!("the source {path}: {e}"))?;
    if found != *digest {
        return Err(format!(
            "the source {path} has changed (its digest is not the claim's)"
        ));
    }
    let source = match entry.icnf_cube {
        Some(i) => source
            .with_cube(i)
            .map_err(|e| format!("the source {path}: {e}"))?,
        None => source,
    };
    let n = source.clauses.len();
    if formula.clauses.len() < n || formula.clauses[..n] != source.clauses[..] {
        return Err(format!(
            "the formula does not start with the clauses of {path}"
        ));
    }
    let rest = &formula.clauses[n..];
    match entry.kind {
        ClaimKind::Formula if rest.is_empty() => Ok(format!("the formula is {path}")),
        ClaimKind::Formula => Err("the formula has clauses its source does not".to_string()),
        _ => {
            let projection = source.projection_or_all();
            let mut seen = std::collections::HashSet::new();
            for (i, clause) in rest.iter().enumerate() {
                let vars: Vec<Var> = clause.iter().map(|l| l.var()).collect();
                if vars != projection || !seen.insert(clause.clone()) {
                    return Err(format!(
                        "clause {} is not a new blocking clause over the projection",
                        n + i + 1
                    ));
                }
            }
            let count = rest.len() as u64;
            match entry.count {
                Some(c) if c == count => Ok(format!("{path} and {count} blocked projected models")),
                Some(c) => Err(format!(
                    "the formula blocks {count} projected models, the manifest claims {c}"
                )),
                None => Err("a projected count without a count".to_string()),
            }
        }
    }
}

/// The claims of a cube count must be exactly the split's cubes, each with
/// its weight, and their weighted total the claimed count.
fn verify_cover(cover: &Cover, claims: &[ClaimEntry]) -> Result<String, String> {
    let reduction = if cover.halve {
        Reduction::Halve
    } else {
        Reduction::None
    };
    let expected = queen_cubes(cover.n, cover.depth, reduction);
    let mut found: Vec<(Vec<usize>, u64, u64)> = claims
        .iter()
        .filter(|c| c.kind == ClaimKind::Complete)
        .filter_map(|c| {
            c.cube
                .as_ref()
                .map(|(cols, w)| (cols.clone(), *w, c.count.unwrap_or(0)))
        })
        .collect();
    found.sort();
    let mut want: Vec<(Vec<usize>, u64)> = expected
        .iter()
        .map(|c| (c.columns.clone(), c.weight))
        .collect();
    want.sort();
    let got: Vec<(Vec<usize>, u64)> = found.iter().map(|(c, w, _)| (c.clone(), *w)).collect();
    if got != want {
        return Err(format!(
            "the claims cover {} cubes, the split has {} (or their weights differ)",
            got.len(),
            want.len()
        ));
    }
    let total = found
        .iter()
        .try_fold(0u64, |t, (_, w, c)| {
            c.checked_mul(*w).and_then(|x| t.checked_add(x))
        })
        .ok_or("the total overflows")?;
    if total != cover.count {
        return Err(format!(
            "the cubes' weighted total is {total}, the manifest claims {}",
            cover.count
        ));
    }
    Ok(format!(
        "the {} cubes of depth {} cover every placement; weighted total {total}",
        want.len(),
        cover.depth
    ))
}
