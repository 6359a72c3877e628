//! Board claims: no placement with k pieces, or the placements blocked
//! are all there are. The formula is tied to its problem: the encoding is
//! re-derived from the provenance lines and must be the formula's first
//! clauses, exactly; lex-leader constraints and an N-queens cube's units
//! must follow, re-derived too; and every other clause must block a
//! distinct placement that the independent checker accepts, whose
//! (orbit-weighted) number is the claimed count. So a proof of another
//! formula, or of a weaker one, is rejected.

use boardsat_encode::{
    check,
    dimacs::{CubeKind, CubeTag},
    symmetry,
    words::plural,
    Board, Bound, Card, Config, Formulation, Placement, Problem, Square,
};
use boardsat_solve::formula::dimacs::Formula;
use rustsat::{instances::Cnf, types::Lit};

use crate::{
    manifest::{parse_bound_tag, ClaimEntry, ClaimKind},
    sentences,
    verify::verdict::Rejection,
};

/// A verified board claim: no placement with `k` pieces, or the blocked
/// placements are all there are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BoardFact {
    /// The problem.
    pub problem: Problem,
    /// Its bound's k.
    pub k: usize,
    /// `None`: no placement; otherwise the placements, orbit-weighted.
    pub count: Option<u64>,
    /// The blocked placements (orbits with lex-leader constraints).
    pub models: u64,
    /// Whether lex-leader constraints kept one placement per orbit.
    pub symmetric: bool,
    /// Whether its blocking clauses are short.
    pub short: bool,
    /// A cube of an N-queens count.
    pub cube: bool,
}

/// The problem, bound and encodings a board claim's provenance names.
pub(crate) fn provenance(formula: &Formula) -> Result<(Problem, usize, Bound, Config), Rejection> {
    let line = |key: &str| {
        formula.provenance(key).ok_or_else(|| {
            Rejection::mismatch(format!("the formula has no '{key}:' provenance line"))
        })
    };
    let bad = |e: &dyn std::fmt::Display| Rejection::mismatch(e.to_string());
    let problem = boardsat_encode::export::problem_from(|key| formula.provenance(key))
        .map_err(|e| Rejection::mismatch(format!("the formula's provenance: {e}")))?;
    let tag = formula
        .tag("bound")
        .ok_or_else(|| Rejection::mismatch("the formula has no 'boardsat-bound' line"))?;
    let bound =
        parse_bound_tag(tag).ok_or_else(|| Rejection::mismatch(format!("bad bound '{tag}'")))?;
    let k = bound.k();
    let config = Config {
        amo: line("amo")?.parse().map_err(|e| bad(&e))?,
        card: line("card")?.parse::<Card>().map_err(|e| bad(&e))?,
        formulation: line("formulation")?
            .parse::<Formulation>()
            .map_err(|e| bad(&e))?,
    };
    if problem.kind.bound(k) != bound {
        return Err(Rejection::mismatch(format!(
            "the bound '{bound}' is not the bound of {problem}"
        )));
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
fn fixed_part(formula: &Formula, entry: Option<&ClaimEntry>) -> Result<Fixed, Rejection> {
    let (problem, k, bound, config) = provenance(formula)?;
    let board = problem.board;
    let mut vars = problem.var_manager();
    let mut clauses = Cnf::new();
    let bad = |e: boardsat_encode::EncodeError| Rejection::mismatch(e.to_string());
    problem
        .encode(k, config, &mut clauses, &mut vars)
        .map_err(bad)?;
    let n_encoding = clauses.len();
    let symmetric = formula.tag("symmetry") == Some("lex-leader");
    if symmetric {
        symmetry::lex_leader(&board, &mut clauses, &mut vars).map_err(bad)?;
    }
    let mut cube = Vec::new();
    if let Some(cols) = formula.tag("cube") {
        let Some(CubeTag::Queens { columns }) = CubeTag::parse(cols, CubeKind::Queens) else {
            return Err(Rejection::mismatch(format!("bad cube '{cols}'")));
        };
        for (row, col) in columns.into_iter().enumerate() {
            let sq = Square::new(row, col);
            if !board.contains(sq) {
                return Err(Rejection::mismatch(format!(
                    "the cube '{cols}' is off the board"
                )));
            }
            cube.push(sq);
            clauses.add_unit(board.lit(sq));
        }
    }
    if let Some(entry) = entry {
        let claimed: Option<&Vec<usize>> = entry.cube.as_ref().map(|(c, _)| c);
        let found: Vec<usize> = cube.iter().map(|s| s.col).collect();
        if claimed.map_or(!found.is_empty(), |c| *c != found) {
            return Err(Rejection::mismatch(
                "the formula's cube is not the manifest's",
            ));
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
fn compare_fixed(formula: &Formula, fixed: &Fixed) -> Result<(), Rejection> {
    let n_fixed = fixed.clauses.len();
    if formula.clauses.len() < n_fixed {
        return Err(Rejection::mismatch(format!(
            "the formula has {} clauses, fewer than the {n_fixed} of {} with {} pieces",
            formula.clauses.len(),
            fixed.problem,
            fixed.bound
        )));
    }
    for (i, (got, want)) in formula.clauses.iter().zip(fixed.clauses.iter()).enumerate() {
        let want: Vec<Lit> = want.iter().copied().collect();
        if *got != want {
            let part = if i < fixed.n_encoding {
                "the encoding of the problem"
            } else {
                "the lex-leader constraints or the cube"
            };
            return Err(Rejection::mismatch(format!(
                "clause {} is not {part} as re-derived from the provenance lines",
                i + 1
            )));
        }
    }
    Ok(())
}

/// The clauses after the fixed part must each block a distinct placement
/// the independent checker accepts (in the cube, a lex leader where the
/// constraints are): their number, orbit-weighted where they are.
fn count_blocked(formula: &Formula, fixed: &Fixed) -> Result<u64, Rejection> {
    let n_fixed = fixed.clauses.len();
    let board = fixed.problem.board;
    let uniform = blocking_style(formula)?;
    let mut seen = std::collections::HashSet::new();
    let mut count = 0u64;
    for (i, clause) in formula.clauses[n_fixed..].iter().enumerate() {
        let at = n_fixed + i + 1;
        let bad = |why: &str| Rejection::mismatch(format!("clause {at} {why}"));
        let placement = blocked_placement(&board, clause, uniform)
            .ok_or_else(|| bad("is neither part of the problem nor a blocking clause"))?;
        check(&fixed.problem, Some(fixed.bound), &placement)
            .map_err(|v| bad(&format!("blocks a placement that is not a solution ({v})")))?;
        if !fixed.cube.iter().all(|sq| placement.squares().contains(sq)) {
            return Err(bad("blocks a placement outside the cube"));
        }
        if fixed.symmetric && !symmetry::is_lex_leader(&board, &placement) {
            return Err(bad(
                "blocks a placement that is not the leader of its orbit",
            ));
        }
        if !seen.insert(placement.clone()) {
            return Err(bad("blocks a placement twice"));
        }
        count += if fixed.symmetric {
            symmetry::orbit_size(&board, &placement)
        } else {
            1
        };
    }
    Ok(count)
}

/// Whether a claim's formula blocks by short clauses (its
/// `boardsat-blocking` line; full ones without it).
pub(crate) fn blocking_style(formula: &Formula) -> Result<bool, Rejection> {
    match formula.tag("blocking") {
        Some("short") => Ok(true),
        Some("full") | None => Ok(false),
        Some(other) => Err(Rejection::mismatch(format!(
            "unknown blocking style '{other}'"
        ))),
    }
}

/// Ties a board claim's formula to its problem (see the crate doc); the
/// count of a completeness claim must be `entry`'s. What was checked, and
/// what the claim establishes.
pub(crate) fn check_board(
    formula: &Formula,
    entry: Option<&ClaimEntry>,
) -> Result<(String, BoardFact), Rejection> {
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
    let kind = entry.map(|e| e.kind).unwrap_or(if n_blocked > 0 {
        ClaimKind::Complete
    } else {
        ClaimKind::NoPlacement
    });
    let mut fact = BoardFact {
        problem: fixed.problem,
        k: fixed.bound.k(),
        count: None,
        models: n_blocked as u64,
        symmetric: fixed.symmetric,
        short: formula.tag("blocking") == Some("short"),
        cube: !fixed.cube.is_empty() || entry.is_some_and(|e| e.cube.is_some()),
    };
    match (kind, entry.and_then(|e| e.count)) {
        (ClaimKind::Complete, Some(claimed)) if claimed != count => {
            Err(Rejection::mismatch(format!(
                "the formula blocks {} (orbit-weighted), the manifest claims {claimed}",
                plural(count, "placement", "placements")
            )))
        }
        (ClaimKind::Complete, _) => {
            fact.count = Some(count);
            Ok((
                format!("{what} and {n_blocked} blocked placements: {count} in all"),
                fact,
            ))
        }
        (_, None) if n_blocked > 0 => Err(Rejection::mismatch(
            "blocking clauses in a claim without a count",
        )),
        (_, None) => Ok((what, fact)),
        (_, Some(_)) => Err(Rejection::mismatch("a no-placement claim with a count")),
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

/// Ties the board claim `entry` to its formula (see the module doc), and
/// its words to what the formula proves: what was checked, and what the
/// claim establishes.
pub(crate) fn check_claim(
    formula: &Formula,
    entry: &ClaimEntry,
) -> Result<(String, BoardFact), Rejection> {
    if entry.kind == ClaimKind::NoPlacement && formula.tag("blocking").is_some() {
        return Err(Rejection::mismatch(
            "a no-placement claim whose formula blocks placements",
        ));
    }
    let tied = check_board(formula, Some(entry))?;
    check_words(formula, entry)?;
    Ok(tied)
}

/// The claim's words must be what its formula proves: derived again from
/// the provenance and the claim's count or cube.
fn check_words(formula: &Formula, entry: &ClaimEntry) -> Result<(), Rejection> {
    let (problem, k, _, _) = provenance(formula)?;
    let expected = match (entry.kind, entry.count, &entry.cube) {
        (ClaimKind::NoPlacement, ..) => sentences::no_placement(&problem, k),
        (_, Some(count), Some((columns, _))) => sentences::queens_cube(&problem, k, count, columns),
        (_, Some(count), None) => sentences::complete(&problem, k, count),
        (_, None, _) => return Err(Rejection::mismatch("a completeness claim without a count")),
    };
    if expected == entry.claim {
        Ok(())
    } else {
        Err(Rejection::mismatch(format!(
            "the claim's words are not what its formula proves ('{expected}')"
        )))
    }
}
