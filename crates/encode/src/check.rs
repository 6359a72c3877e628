//! An independent checker for placements.
//!
//! It decides attacks from plain coordinate arithmetic and shares no code
//! with the encoder (no line iterators, no attack sets, no variables), so a
//! bug in the geometry the encoder uses cannot hide a wrong model.

use std::fmt;

use crate::{board::Square, card::Bound, piece::Piece, problem::Problem};

/// A set of occupied squares, sorted and without repeats.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Placement(Vec<Square>);

impl Placement {
    /// A placement from squares in any order (repeats are kept, so that
    /// [`check`] can report them).
    #[must_use]
    pub fn new(mut squares: Vec<Square>) -> Self {
        squares.sort_unstable();
        Placement(squares)
    }

    /// The occupied squares, sorted.
    #[must_use]
    pub fn squares(&self) -> &[Square] {
        &self.0
    }

    /// Number of pieces.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether no piece is placed.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Display for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for sq in &self.0 {
            if !first {
                f.write_str(" ")?;
            }
            first = false;
            write!(f, "{},{}", sq.row, sq.col)?;
        }
        Ok(())
    }
}

/// Why a placement is not a solution.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Violation {
    /// A piece stands off the board.
    #[error("square {0} is off the board")]
    OffBoard(Square),
    /// Two pieces on one square.
    #[error("square {0} holds two pieces")]
    Repeated(Square),
    /// Two pieces attack each other where the problem forbids it.
    #[error("the pieces on {0} and {1} attack each other")]
    Attack(Square, Square),
    /// A square is neither occupied nor attacked.
    #[error("square {0} is neither occupied nor attacked")]
    Uncovered(Square),
    /// The number of pieces breaks the bound.
    #[error("{found} pieces placed, the bound is {bound}")]
    Count {
        /// The bound.
        bound: Bound,
        /// The number of pieces.
        found: usize,
    },
}

/// Whether a `piece` on `a` attacks `b`, from coordinates alone.
#[must_use]
pub fn attacks(piece: Piece, a: Square, b: Square) -> bool {
    if a == b {
        return false;
    }
    let dr = a.row.abs_diff(b.row);
    let dc = a.col.abs_diff(b.col);
    let straight = dr == 0 || dc == 0;
    let diagonal = dr == dc;
    match piece {
        Piece::Queen => straight || diagonal,
        Piece::Rook => straight,
        Piece::Bishop => diagonal,
        Piece::Knight => (dr == 1 && dc == 2) || (dr == 2 && dc == 1),
        Piece::King => dr <= 1 && dc <= 1,
    }
}

/// Checks `placement` against `problem` with the piece count bounded by
/// `bound` (`None`: any count).
///
/// # Errors
///
/// The first [`Violation`] found.
pub fn check(
    problem: &Problem,
    bound: Option<Bound>,
    placement: &Placement,
) -> Result<(), Violation> {
    let (rows, cols) = (problem.board.rows(), problem.board.cols());
    let squares = placement.squares();
    for (i, &sq) in squares.iter().enumerate() {
        if sq.row >= rows || sq.col >= cols {
            return Err(Violation::OffBoard(sq));
        }
        if i > 0 && squares[i - 1] == sq {
            return Err(Violation::Repeated(sq));
        }
    }
    if let Some(bound) = bound {
        let found = squares.len();
        let ok = match bound {
            Bound::AtMost(k) => found <= k,
            Bound::AtLeast(k) => found >= k,
            Bound::Exactly(k) => found == k,
        };
        if !ok {
            return Err(Violation::Count { bound, found });
        }
    }
    if problem.kind.independent() {
        for (i, &a) in squares.iter().enumerate() {
            for &b in &squares[i + 1..] {
                if attacks(problem.piece, a, b) {
                    return Err(Violation::Attack(a, b));
                }
            }
        }
    }
    if problem.kind.dominating() {
        for row in 0..rows {
            for col in 0..cols {
                let sq = Square::new(row, col);
                let covered = squares
                    .iter()
                    .any(|&p| p == sq || attacks(problem.piece, p, sq));
                if !covered {
                    return Err(Violation::Uncovered(sq));
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{board::Board, problem::Kind};

    #[test]
    fn eight_queens_solution_passes_and_a_broken_one_fails() {
        let problem = Problem::queens(8).unwrap();
        let cols = [0, 4, 7, 5, 2, 6, 1, 3];
        let good = Placement::new(
            cols.iter()
                .enumerate()
                .map(|(r, &c)| Square::new(r, c))
                .collect(),
        );
        assert_eq!(check(&problem, Some(Bound::Exactly(8)), &good), Ok(()));
        // Corner diagonal: (8, 0)-style short diagonals must count.
        let bad = Placement::new(vec![Square::new(0, 1), Square::new(1, 0)]);
        assert_eq!(
            check(&problem, None, &bad),
            Err(Violation::Attack(Square::new(0, 1), Square::new(1, 0)))
        );
        assert!(matches!(
            check(&problem, Some(Bound::Exactly(8)), &bad),
            Err(Violation::Count { .. })
        ));
    }

    #[test]
    fn domination_needs_every_square() {
        let board = Board::square(3).unwrap();
        let problem = Problem::new(board, Piece::Queen, Kind::Domination);
        let centre = Placement::new(vec![Square::new(1, 1)]);
        assert_eq!(check(&problem, Some(Bound::AtMost(1)), &centre), Ok(()));
        let corner = Placement::new(vec![Square::new(0, 0)]);
        assert_eq!(
            check(&problem, None, &corner),
            Err(Violation::Uncovered(Square::new(1, 2)))
        );
    }
}
