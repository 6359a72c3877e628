//! Every claim's sentence, from what the claim is: written by the prover,
//! derived again by the verifier and compared, so that a reader of
//! `MANIFEST.json` cannot be told more than was proven.

use boardsat_encode::{Kind, Problem};

/// "5 queens", "1 rook": `k` pieces in words.
#[must_use]
pub fn pieces(problem: &Problem, k: usize) -> String {
    format!("{k} {}{}", problem.piece, if k == 1 { "" } else { "s" })
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
        "{problem} has exactly {count} placements with {}",
        pieces(problem, k)
    )
}

/// `count` placements with `k` pieces have queens in `columns` of the
/// first rows (a cube of an N-queens count).
#[must_use]
pub fn queens_cube(problem: &Problem, k: usize, count: u64, columns: &[usize]) -> String {
    format!(
        "{count} placements of {} on the {} board have queens in columns {columns:?} of the first rows",
        pieces(problem, k),
        problem.board
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
            "the cube {cube} holds the leaders of exactly {count} placements (orbit-weighted) of at most {} for {problem}",
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
            "{problem} has exactly {count} placements with at most {}",
            pieces(problem, k)
        ),
    }
}

/// A split still running: what it is for, and that it proves nothing
/// yet beyond its cubes' own claims — never the sentence of the whole,
/// which a reader could take for a result.
#[must_use]
pub fn split_running(problem: &Problem, k: usize, counting: bool) -> String {
    format!(
        "not proven (running): {} of at most {} for {problem}, split into cubes; each cube's own claim says what it proves",
        if counting { "a count of the placements" } else { "a refutation of the placements" },
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
        Some(count) => format!("{count} placements (orbit-weighted)"),
    };
    format!(
        "not proven (stopped): the {proven} cubes proven before the stop hold {what} of at most {} for {problem}; the other cubes are missing",
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
    format!("{source} has exactly {count} projected models")
}
