//! Every claim's sentence, from what the claim is: written by the prover,
//! derived again by the verifier and compared, so that a reader of
//! `MANIFEST.json` cannot be told more than was proven.

use boardsat_encode::{words::plural, Bound, Kind, Problem};

use crate::manifest::SplitPurpose;

/// "5 queens", "1 rook": `k` pieces in words.
#[must_use]
pub fn pieces(problem: &Problem, k: usize) -> String {
    let piece = problem.piece.to_string();
    plural(k, &piece, &format!("{piece}s"))
}

/// "1 placement", "4 placements".
fn placements(count: u64) -> String {
    plural(count, "placement", "placements")
}

/// No placement with `k` pieces exists.
#[must_use]
pub fn no_placement(problem: &Problem, k: usize) -> String {
    let board = problem.board;
    match problem.kind {
        Kind::Domination => format!("{} cannot dominate the {board} board", pieces(problem, k)),
        Kind::IndependentDomination => format!(
            "{} that do not attack each other cannot dominate the {board} board",
            pieces(problem, k)
        ),
        Kind::Independence => format!(
            "{} cannot stand on the {board} board without attacking each other",
            pieces(problem, k)
        ),
    }
}

/// `count` placements with `k` pieces are all there are.
#[must_use]
pub fn complete(problem: &Problem, k: usize, count: u64) -> String {
    format!(
        "{problem} has exactly {} with {}",
        placements(count),
        pieces(problem, k)
    )
}

/// `count` placements with `k` pieces have queens in `columns` of the
/// first rows (a cube of an N-queens count).
#[must_use]
pub fn queens_cube(problem: &Problem, k: usize, count: u64, columns: &[usize]) -> String {
    format!(
        "{} of {} on the {} board {} queens in columns {columns:?} of the first rows",
        placements(count),
        pieces(problem, k),
        problem.board,
        if count == 1 { "has" } else { "have" }
    )
}

/// A cube of a domination split: no placement of at most `k` pieces in it
/// that the lex-leader constraints keep (`count` None), or exactly `count`
/// placements (orbit-weighted) are represented in it.
#[must_use]
pub fn split_cube(problem: &Problem, k: usize, cube: &str, count: Option<u64>) -> String {
    match count {
        None => format!(
            "no placement of at most {} on the {} board that its lex-leader constraints keep lies in the cube {cube}: {}",
            pieces(problem, k),
            problem.board,
            problem.kind
        ),
        Some(count) => format!(
            "the cube {cube} holds the leaders of exactly {} (orbit-weighted) of at most {} for {problem}",
            placements(count),
            pieces(problem, k)
        ),
    }
}

/// What a whole domination split proves.
#[must_use]
pub fn split(problem: &Problem, k: usize, count: Option<u64>) -> String {
    match count {
        None => no_placement(problem, k),
        Some(count) => format!(
            "{problem} has exactly {} with at most {}",
            placements(count),
            pieces(problem, k)
        ),
    }
}

/// A split still running: what it is for, and that it proves nothing
/// yet beyond its cubes' own claims — never the sentence of the whole,
/// which a reader could take for a result.
#[must_use]
pub fn split_running(problem: &Problem, k: usize, purpose: SplitPurpose) -> String {
    format!(
        "not proven (running): {} of at most {} for {problem}, split into cubes; each cube's own claim says what it proves",
        match purpose {
            SplitPurpose::Count => "a count of the placements",
            SplitPurpose::Refute => "a refutation of the placements",
        },
        pieces(problem, k)
    )
}

/// A split stopped before its end: what its `proven` cubes hold together
/// (`count` placements, orbit-weighted, for a count), and that the whole
/// is not proven.
#[must_use]
pub fn split_stopped(problem: &Problem, k: usize, proven: usize, count: Option<u64>) -> String {
    let what = match count {
        None => "no placement".to_string(),
        Some(count) => format!("{} (orbit-weighted)", placements(count)),
    };
    format!(
        "not proven (stopped): the {} proven before the stop {} {what} of at most {} for {problem}; the other cubes are missing",
        plural(proven, "cube", "cubes"),
        if proven == 1 { "holds" } else { "hold" },
        pieces(problem, k)
    )
}

/// A DIMACS file is unsatisfiable.
#[must_use]
pub fn formula(source: &str) -> String {
    format!("{source} is unsatisfiable")
}

/// A DIMACS file's projected models.
#[must_use]
pub fn projected(source: &str, count: u64) -> String {
    format!(
        "{source} has exactly {}",
        plural(count, "projected model", "projected models")
    )
}

/// `k` pieces with the bound's word for the problem: "at most 5 queens",
/// "exactly 8 queens".
#[must_use]
pub fn bounded(problem: &Problem, k: usize) -> String {
    let word = match problem.kind.bound(k) {
        Bound::AtMost(_) => "at most",
        Bound::AtLeast(_) => "at least",
        Bound::Exactly(_) => "exactly",
    };
    format!("{word} {}", pieces(problem, k))
}

/// Why an optimum is one: the refutation one step past it (its
/// sentence), or that no placement lies past it.
fn past(problem: &Problem, refuted: Option<usize>) -> String {
    match refuted {
        Some(k) => no_placement(problem, k),
        None if problem.kind.dominating() => "no placement has fewer pieces".to_string(),
        None => format!(
            "no placement has more pieces than the {} squares",
            problem.board.n_squares()
        ),
    }
}

/// The optimum `value` of a problem, a placement with that many pieces
/// checked, and the bound `refuted` one step past it.
#[must_use]
pub fn optimum(problem: &Problem, value: usize, refuted: Option<usize>) -> String {
    format!(
        "{problem}: the {} is {} (a placement checked; {})",
        if problem.kind.dominating() {
            "minimum"
        } else {
            "maximum"
        },
        pieces(problem, value),
        past(problem, refuted)
    )
}

/// A whole count: `count` placements with bound `k` (`orbits` of them up
/// to symmetry); with `optimal`, k is the optimum, proven by the bound
/// one step past it.
#[must_use]
pub fn counted(
    problem: &Problem,
    k: usize,
    count: u64,
    orbits: Option<u64>,
    optimal: Option<Option<usize>>,
) -> String {
    let mut text = format!(
        "{problem} has exactly {} with {}",
        placements(count),
        bounded(problem, k)
    );
    if let Some(orbits) = orbits {
        text.push_str(&format!(" ({orbits} up to symmetry)"));
    }
    if let Some(refuted) = optimal {
        text.push_str(&format!(
            ", the {} ({})",
            if problem.kind.dominating() {
                "minimum"
            } else {
                "maximum"
            },
            past(problem, refuted)
        ));
    }
    text
}

/// Placements found, each checked (a satisfiable `solve`; a count or a
/// listing that reached its limit).
#[must_use]
pub fn found(problem: &Problem, k: usize, n: usize) -> String {
    match n {
        1 => format!(
            "{problem} has a placement with {} (checked)",
            bounded(problem, k)
        ),
        n => format!(
            "{problem} has at least {n} placements with {} (each checked)",
            bounded(problem, k)
        ),
    }
}

/// A DIMACS file, or one cube of an iCNF file, by name.
#[must_use]
pub fn source(path: &str, icnf_cube: Option<usize>) -> String {
    match icnf_cube {
        Some(i) => format!("cube {i} of {path}"),
        None => path.to_string(),
    }
}

/// Models of a DIMACS file found, each checked against every clause.
#[must_use]
pub fn models_found(source: &str, n: u64) -> String {
    match n {
        1 => format!("{source} is satisfiable (a model checked against every clause)"),
        n => format!(
            "{source} has at least {n} projected models (each checked against every clause)"
        ),
    }
}
