//! Checking a certified domination split: each cube's formula re-derived
//! from its provenance (the solver's clauses for that cube, recorded
//! without solving, then distinct blocking clauses of placements the
//! independent checker accepts, inside the cube, leaders under the cube's
//! stabilizer), and the cubes of a split covering the board: one per orbit
//! of cubes, ring by ring as the split refines them, each with the
//! stabilizer it claims, their weighted counts summing to the split's.

use std::{
    collections::{BTreeMap, BTreeSet, HashSet},
    sync::{Arc, Mutex, PoisonError},
};

use boardsat_encode::{
    check,
    dimacs::{CubeKind, CubeTag},
    symmetry::orbit_size,
    words::plural,
    Board, Bound, Config, Kind, Problem, Symmetry,
};
use boardsat_solve::{
    formula::dimacs::Formula,
    search::{
        domination::{cube_base, cube_clauses_on},
        lex::{is_lines_first_leader_under, LexOrder},
        rings::{representatives, LineCube},
        session::Base,
    },
};
use rustsat::types::Lit;

use crate::{
    manifest::{
        symmetry_name, ClaimEntry, ClaimKind, ProofManifest, SplitCube, SplitEntry, SplitPurpose,
        LINES_FIRST,
    },
    sentences,
    verify::{
        board::{blocked_placement, blocking_style, provenance},
        verdict::Rejection,
    },
};

/// What a verified cube claim says, for its split's check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CubeRecord {
    problem: Problem,
    k: usize,
    symmetric: bool,
    short: bool,
    cube: LineCube,
    orbit: u64,
    stabilizer: Vec<Symmetry>,
    count: u64,
    models: u64,
}

/// The bases of the certified splits a verification meets, each encoded
/// once for all the cubes that start from it (a directory of 700 cubes
/// has two: the refuted bound's and the counted one's), not once per
/// cube: what a cube's formula must start with is its base's clauses,
/// then its own ([`cube_clauses_on`]).
#[derive(Debug, Default)]
pub(crate) struct Bases {
    encoded: Mutex<Vec<(BaseKey, Arc<Base>)>>,
}

/// What a base is encoded from: the problem, its bound and encodings.
type BaseKey = (Problem, usize, Config);

impl Bases {
    /// The base of `problem` with at most `k` pieces in `config`, encoded
    /// by the first cube that needs it (the others wait for it).
    fn of(&self, problem: &Problem, k: usize, config: Config) -> Result<Arc<Base>, Rejection> {
        let mut encoded = self.encoded.lock().unwrap_or_else(PoisonError::into_inner);
        let key = (*problem, k, config);
        if let Some((_, base)) = encoded.iter().find(|(of, _)| *of == key) {
            return Ok(Arc::clone(base));
        }
        let base = cube_base(problem, k, config).map_err(|e| Rejection::mismatch(e.to_string()))?;
        let base = Arc::new(base);
        encoded.push((key, Arc::clone(&base)));
        Ok(base)
    }
}

/// The symmetries named by a cube's formula (its stabilizer).
fn parse_stabilizer(board: &Board, text: &str) -> Result<Vec<Symmetry>, Rejection> {
    let group = Symmetry::of(board);
    text.split(',')
        .map(|name| {
            group
                .iter()
                .copied()
                .find(|&s| symmetry_name(s) == name)
                .ok_or_else(|| {
                    Rejection::mismatch(format!("'{name}' is not a symmetry of the {board} board"))
                })
        })
        .collect()
}

/// The cube of a formula's `boardsat-cube` line, which must be the
/// manifest's.
fn formula_cube(formula: &Formula, board: &Board, sc: &SplitCube) -> Result<LineCube, Rejection> {
    let tag = formula
        .tag("cube")
        .ok_or_else(|| Rejection::mismatch("the formula names no cube"))?;
    let Some(CubeTag::Rings { depth, cube: text }) = CubeTag::parse(tag, CubeKind::Rings) else {
        return Err(Rejection::mismatch(format!(
            "'{tag}' is not a cube of rings with its depth"
        )));
    };
    let cube =
        LineCube::parse(board, depth, &text).map_err(|e| Rejection::mismatch(e.to_string()))?;
    if depth != sc.depth || text != sc.cube {
        return Err(Rejection::mismatch(format!(
            "the formula's cube {text} (depth {depth}) is not the manifest's {} (depth {})",
            sc.cube, sc.depth
        )));
    }
    Ok(cube)
}

/// Checks one cube claim of a split (see the module doc): what was
/// checked, and what the split's check needs of it.
pub(crate) fn check_split_cube(
    formula: &Formula,
    entry: &ClaimEntry,
    sc: &SplitCube,
    bases: &Bases,
) -> Result<(String, CubeRecord), Rejection> {
    let (record, bound, n_fixed) = cube_record(formula, sc, bases)?;
    let rest = &formula.clauses[n_fixed..];
    let count = count_cube_blocked(&record, bound, rest, n_fixed)?;
    let models = rest.len() as u64;
    let claimed = claimed_count(entry, sc, count, models)?;
    let (problem, k) = (record.problem, record.k);
    let sentence = sentences::split_cube(&problem, k, &sc.cube, claimed);
    if sentence != entry.claim {
        return Err(Rejection::mismatch(format!(
            "the claim's words are not what its formula proves ('{sentence}')"
        )));
    }
    let what = format!(
        "the formula is cube {} of {problem} with {bound}{} and {models} blocked placements: {count} in all",
        sc.cube,
        if record.symmetric {
            ", lex-leader constraints under its stabilizer"
        } else {
            ""
        }
    );
    Ok((
        what,
        CubeRecord {
            count,
            models,
            ..record
        },
    ))
}

/// What a cube's formula fixes before its blocking clauses, re-derived
/// from its provenance and checked against the manifest's cube `sc`: the
/// cube's record (its count still 0), its bound, and how many clauses
/// the fixed part has.
fn cube_record(
    formula: &Formula,
    sc: &SplitCube,
    bases: &Bases,
) -> Result<(CubeRecord, Bound, usize), Rejection> {
    let (problem, k, bound, config) = provenance(formula)?;
    let board = problem.board;
    if !problem.kind.dominating() {
        return Err(Rejection::mismatch(format!(
            "{problem} is not split by lines"
        )));
    }
    let cube = formula_cube(formula, &board, sc)?;
    let stabilizer = parse_stabilizer(&board, formula.tag("stabilizer").unwrap_or(""))?;
    let named: Vec<String> = stabilizer.iter().map(|&s| symmetry_name(s)).collect();
    if named != sc.stabilizer {
        return Err(Rejection::mismatch(
            "the formula's stabilizer is not the manifest's",
        ));
    }
    let symmetric = match formula.tag("symmetry") {
        Some(LINES_FIRST) => true,
        None => false,
        Some(other) => {
            return Err(Rejection::mismatch(format!(
                "unknown lex-leader order '{other}'"
            )))
        }
    };
    let order = symmetric.then_some(LexOrder::LinesFirst);
    let base = bases.of(&problem, k, config)?;
    let (fixed, _) = cube_clauses_on(&base, order, &cube, &stabilizer)
        .map_err(|e| Rejection::mismatch(e.to_string()))?;
    compare_prefix(formula, &fixed)?;
    let record = CubeRecord {
        problem,
        k,
        symmetric,
        short: blocking_style(formula)?,
        cube,
        orbit: sc.orbit,
        stabilizer,
        count: 0,
        models: 0,
    };
    Ok((record, bound, fixed.len()))
}

/// The count a cube claim states, which must be what its formula blocks
/// (`count` placements, `models` solver models): none for a refuted cube.
fn claimed_count(
    entry: &ClaimEntry,
    sc: &SplitCube,
    count: u64,
    models: u64,
) -> Result<Option<u64>, Rejection> {
    match (entry.kind, entry.count) {
        (ClaimKind::NoPlacement, None) if models == 0 => Ok(None),
        (ClaimKind::NoPlacement, _) => Err(Rejection::mismatch(
            "a refuted cube whose formula blocks placements",
        )),
        (ClaimKind::Complete, Some(c)) if c == count && models == sc.models => Ok(Some(c)),
        (ClaimKind::Complete, c) => Err(Rejection::mismatch(format!(
            "the formula blocks {} ({}), the manifest claims {} ({})",
            plural(count, "placement", "placements"),
            plural(models, "model", "models"),
            c.map_or("none".to_string(), |c| c.to_string()),
            plural(sc.models, "model", "models")
        ))),
        _ => Err(Rejection::mismatch("a cube claim of the wrong kind")),
    }
}

/// The clauses of a cube's formula after its fixed part (`offset`
/// clauses) each block a distinct placement with `bound` that the
/// independent checker accepts, inside `cube`'s cube, a leader under its
/// stabilizer where the cube breaks symmetry: their number,
/// orbit-weighted where it does.
fn count_cube_blocked(
    cube: &CubeRecord,
    bound: boardsat_encode::Bound,
    rest: &[Vec<Lit>],
    offset: usize,
) -> Result<u64, Rejection> {
    let board = cube.problem.board;
    let mut seen = HashSet::new();
    let mut count = 0u64;
    for (i, clause) in rest.iter().enumerate() {
        let at = offset + i + 1;
        let bad = |why: &str| Rejection::mismatch(format!("clause {at} {why}"));
        let placement = blocked_placement(&board, clause, cube.short)
            .ok_or_else(|| bad("is neither the cube's formula nor a blocking clause"))?;
        check(&cube.problem, Some(bound), &placement)
            .map_err(|v| bad(&format!("blocks a placement that is not a solution ({v})")))?;
        let occupied = |line: boardsat_solve::search::lex::Line| {
            line.lits(&board).iter().any(|l| {
                board
                    .square_of(l.var())
                    .is_some_and(|sq| placement.squares().contains(&sq))
            })
        };
        if cube
            .cube
            .lines
            .iter()
            .any(|&(line, on)| occupied(line) != on)
        {
            return Err(bad("blocks a placement outside the cube"));
        }
        if cube.symmetric && !is_lines_first_leader_under(&board, &cube.stabilizer, &placement) {
            return Err(bad(
                "blocks a placement that is not the leader of its orbit under the cube's stabilizer",
            ));
        }
        if !seen.insert(placement.clone()) {
            return Err(bad("blocks a placement twice"));
        }
        count += if cube.symmetric {
            orbit_size(&board, &placement)
        } else {
            1
        };
    }
    Ok(count)
}

/// The formula starts with exactly `fixed`.
fn compare_prefix(formula: &Formula, fixed: &[Vec<Lit>]) -> Result<(), Rejection> {
    if let Some(i) = formula
        .clauses
        .iter()
        .zip(fixed)
        .position(|(got, want)| got != want)
    {
        return Err(Rejection::mismatch(format!(
            "clause {} is not the cube's formula as re-derived from the provenance lines",
            i + 1
        )));
    }
    if formula.clauses.len() < fixed.len() {
        return Err(Rejection::mismatch(format!(
            "the formula has {} clauses, fewer than the {} of the cube's formula",
            formula.clauses.len(),
            fixed.len()
        )));
    }
    Ok(())
}

/// What a verified split proves, for the run's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SplitFact {
    /// The problem.
    pub problem: Problem,
    /// At most k pieces.
    pub k: usize,
    /// A refutation (none) or a count: the placements, orbit-weighted.
    pub count: Option<u64>,
    /// The solver models (orbits with symmetry breaking).
    pub models: u64,
    /// Whether the cubes' lex-leader constraints counted orbits.
    pub symmetric: bool,
    /// The split's cube claims.
    pub claims: Vec<String>,
}

/// Checks a split: complete, its verified cubes covering the board one per
/// orbit of cubes with their stabilizers and orbits, its totals and its
/// words; a count with short blocking clauses resting on a verified
/// refutation one piece below. What was checked, and what it proves.
pub(crate) fn verify_split(
    entry: &SplitEntry,
    manifest: &ProofManifest,
    records: &BTreeMap<String, CubeRecord>,
    verified: &BTreeSet<String>,
) -> Result<(String, SplitFact), Rejection> {
    let claims = split_claims(entry, manifest, verified)?;
    let cubes: Vec<&CubeRecord> = claims.iter().filter_map(|c| records.get(&c.name)).collect();
    let (problem, k, symmetric) = one_problem(entry, &cubes)?;
    covers(&problem.board, &cubes, symmetric)?;
    let (claimed, models) = split_totals(entry, &cubes, symmetric)?;
    let sentence = sentences::split(&problem, k, claimed);
    if sentence != entry.claim {
        return Err(Rejection::cover(format!(
            "the split's words are not what its cubes prove ('{sentence}')"
        )));
    }
    if cubes.iter().any(|c| c.short) {
        rests_on_refutation(&problem, k, manifest, records, verified)?;
    }
    let what = format!(
        "{} cubes cover every placement, one per orbit of cubes: {sentence}",
        cubes.len()
    );
    let fact = SplitFact {
        problem,
        k,
        count: claimed,
        models,
        symmetric,
        claims: claims.iter().map(|c| c.name.clone()).collect(),
    };
    Ok((what, fact))
}

/// The cube claims of the split `entry`, which must be complete and whose
/// claims must all be verified.
fn split_claims<'a>(
    entry: &SplitEntry,
    manifest: &'a ProofManifest,
    verified: &BTreeSet<String>,
) -> Result<Vec<&'a ClaimEntry>, Rejection> {
    let claims: Vec<&ClaimEntry> = manifest
        .claims
        .iter()
        .filter(|c| c.split.as_ref().is_some_and(|s| s.split == entry.name))
        .collect();
    if entry.status != "complete" {
        return Err(Rejection::cover(format!(
            "the split is {} with {} proven: the rest are missing",
            entry.status,
            plural(claims.len(), "cube", "cubes")
        )));
    }
    let unverified: Vec<&str> = claims
        .iter()
        .filter(|c| !verified.contains(&c.name))
        .map(|c| c.name.as_str())
        .collect();
    if !unverified.is_empty() {
        return Err(Rejection::cover(format!(
            "cubes not verified: {}",
            unverified.join(", ")
        )));
    }
    Ok(claims)
}

/// The one problem, bound (the split's) and order the cubes of the split
/// `entry` share.
fn one_problem(
    entry: &SplitEntry,
    cubes: &[&CubeRecord],
) -> Result<(Problem, usize, bool), Rejection> {
    let first = cubes
        .first()
        .ok_or_else(|| Rejection::cover("a split without cubes"))?;
    let (problem, k) = (first.problem, first.k);
    if cubes
        .iter()
        .any(|c| c.problem != problem || c.k != k || c.symmetric != first.symmetric)
    {
        return Err(Rejection::cover(
            "the cubes are not of one problem, bound and order",
        ));
    }
    if k != entry.k {
        return Err(Rejection::cover(format!(
            "the cubes are bounded at {k}, the split at {}",
            entry.k
        )));
    }
    Ok((problem, k, first.symmetric))
}

/// The count the split `entry` claims (none for a refutation), which must
/// be its cubes' weighted total, and their solver models, which with
/// lex-leader constraints (`symmetric`) must be the orbits it claims.
fn split_totals(
    entry: &SplitEntry,
    cubes: &[&CubeRecord],
    symmetric: bool,
) -> Result<(Option<u64>, u64), Rejection> {
    let count: u64 = cubes.iter().map(|c| c.count).sum();
    let models: u64 = cubes.iter().map(|c| c.models).sum();
    let claimed = match entry.purpose {
        SplitPurpose::Refute => None,
        SplitPurpose::Count => Some(count),
    };
    if entry.count != claimed {
        return Err(Rejection::cover(format!(
            "the cubes' weighted total is {count}, the split claims {:?}",
            entry.count
        )));
    }
    if entry.purpose == SplitPurpose::Count && symmetric && entry.fundamental != Some(models) {
        return Err(Rejection::cover(format!(
            "the cubes hold {models} orbits, the split claims {:?}",
            entry.fundamental
        )));
    }
    Ok((claimed, models))
}

/// The cubes cover the board: expanding from the whole board ring by ring,
/// every cube met is claimed or refined into one cube per orbit under its
/// stabilizer (every cube, without symmetry breaking), each claimed cube
/// with the orbit and stabilizer it should have, and no claim left over.
fn covers(board: &Board, cubes: &[&CubeRecord], symmetric: bool) -> Result<(), Rejection> {
    let group = Symmetry::of(board);
    let claimed: BTreeMap<&LineCube, &CubeRecord> = cubes.iter().map(|c| (&c.cube, *c)).collect();
    if claimed.len() != cubes.len() {
        return Err(Rejection::cover("a cube is claimed twice"));
    }
    let deepest = cubes.iter().map(|c| c.cube.depth).max().unwrap_or(0);
    // The rings' order of the split: its first cube's (every claim of
    // another order is left over below).
    let order = cubes.first().map(|c| c.cube.order).unwrap_or_default();
    let mut used = 0;
    let mut level = vec![(LineCube::root(order), 1u64, group.clone())];
    while let Some((cube, orbit, stabilizer)) = level.pop() {
        if let Some(record) = claimed.get(&cube) {
            if record.orbit != orbit || record.stabilizer != stabilizer {
                return Err(Rejection::cover(format!(
                    "cube {cube} claims orbit {} and stabilizer {:?}; it has {orbit} and {stabilizer:?}",
                    record.orbit, record.stabilizer
                )));
            }
            used += 1;
            continue;
        }
        if cube.depth >= deepest {
            return Err(Rejection::cover(format!(
                "no claim covers the cube {cube} (depth {})",
                cube.depth
            )));
        }
        if symmetric {
            for r in representatives(board, &cube, &stabilizer, orbit) {
                level.push((r.cube, r.orbit, r.stabilizer));
            }
        } else {
            for child in cube.children(board) {
                level.push((child, 1, group.clone()));
            }
        }
    }
    if used != cubes.len() {
        return Err(Rejection::cover(format!(
            "{} not cubes of the split",
            plural(cubes.len() - used, "claimed cube is", "claimed cubes are")
        )));
    }
    Ok(())
}

/// A count blocked by short clauses counts exactly only if no placement
/// has fewer pieces: a verified refutation of `k − 1` (a complete split or
/// a single claim) for the same problem must be in the manifest.
fn rests_on_refutation(
    problem: &Problem,
    k: usize,
    manifest: &ProofManifest,
    records: &BTreeMap<String, CubeRecord>,
    verified: &BTreeSet<String>,
) -> Result<(), Rejection> {
    let below = k.checked_sub(1);
    let by_split = manifest.splits.iter().any(|s| {
        s.purpose == SplitPurpose::Refute
            && Some(s.k) == below
            && verified.contains(&s.name)
            && records
                .values()
                .any(|r| r.problem == *problem && Some(r.k) == below)
    });
    let words = below.map(|b| sentences::no_placement(problem, b));
    let by_claim = manifest.claims.iter().any(|c| {
        c.kind == ClaimKind::NoPlacement
            && c.split.is_none()
            && verified.contains(&c.name)
            && Some(&c.claim) == words.as_ref()
    });
    if by_split || by_claim || k == 0 || problem.kind == Kind::Independence {
        Ok(())
    } else {
        Err(Rejection::cover(format!(
            "the short blocking clauses count exactly only with no placement of {}, which no verified claim here refutes",
            plural(below.unwrap_or(0), "piece", "pieces")
        )))
    }
}
