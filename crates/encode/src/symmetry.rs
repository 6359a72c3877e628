//! The symmetries of the board, and lex-leader constraints that keep one
//! placement per orbit.
//!
//! A square board has the 8 symmetries of the square (the dihedral group
//! D4); a rectangular one has 4 (identity, both mirrors, the half turn).
//! Every problem here is invariant under them: a symmetric image of a
//! solution is a solution with as many pieces.
//!
//! ## Lex-leader constraints
//! Reading the board variables in row-major order as a bit string `x`, the
//! constraint `x ≤lex σ(x)` for every symmetry σ keeps exactly the
//! lexicographically smallest member of each orbit (Crawford, Ginsberg,
//! Luks & Roy 1996). With a chain variable `e_i` ("x and σ(x) agree on the
//! first i positions"), per symmetry and position:
//!
//! - `e_{i−1} → (x_i → y_i)`, where `y = σ(x)`
//! - `e_{i−1} ∧ x_i ∧ y_i → e_i` and `e_{i−1} ∧ ¬x_i ∧ ¬y_i → e_i`
//!
//! Positions where `y_i` is `x_i` itself need nothing and reuse the chain
//! variable. Cost: at most 3 clauses and 1 auxiliary variable per position and
//! symmetry, O(8·n²) for an n × n board. The constraints keep an optimum (a
//! smallest orbit member has the same size) but change counts: each
//! surviving placement stands for its orbit, of size
//! [`orbit_size`], so the full count is the sum of the orbit sizes.

use rustsat::{encodings::CollectClauses, instances::ManageVars, types::Lit};

use crate::{
    board::{Board, Square},
    check::Placement,
    error::EncodeError,
};

/// One symmetry of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// (r, c) → (r, c).
    Identity,
    /// Mirror left–right: (r, c) → (r, m−1−c).
    MirrorColumns,
    /// Mirror top–bottom: (r, c) → (n−1−r, c).
    MirrorRows,
    /// Half turn: (r, c) → (n−1−r, m−1−c).
    HalfTurn,
    /// Transpose (square boards): (r, c) → (c, r).
    Transpose,
    /// Anti-transpose (square boards): (r, c) → (n−1−c, n−1−r).
    AntiTranspose,
    /// Quarter turn clockwise (square boards): (r, c) → (c, n−1−r).
    QuarterTurn,
    /// Quarter turn anticlockwise (square boards): (r, c) → (n−1−c, r).
    ThreeQuarterTurn,
}

impl Symmetry {
    /// The symmetries of `board`, identity first: 8 for a square board, 4
    /// for a rectangular one.
    #[must_use]
    pub fn of(board: &Board) -> Vec<Symmetry> {
        let mut out = vec![
            Symmetry::Identity,
            Symmetry::MirrorColumns,
            Symmetry::MirrorRows,
            Symmetry::HalfTurn,
        ];
        if board.is_square() {
            out.extend([
                Symmetry::Transpose,
                Symmetry::AntiTranspose,
                Symmetry::QuarterTurn,
                Symmetry::ThreeQuarterTurn,
            ]);
        }
        out
    }

    /// The image of `sq` (the symmetry must belong to the board).
    #[must_use]
    pub fn apply(self, board: &Board, sq: Square) -> Square {
        let (n, m) = (board.rows(), board.cols());
        let (r, c) = (sq.row, sq.col);
        let (r2, c2) = match self {
            Symmetry::Identity => (r, c),
            Symmetry::MirrorColumns => (r, m - 1 - c),
            Symmetry::MirrorRows => (n - 1 - r, c),
            Symmetry::HalfTurn => (n - 1 - r, m - 1 - c),
            Symmetry::Transpose => (c, r),
            Symmetry::AntiTranspose => (n - 1 - c, n - 1 - r),
            Symmetry::QuarterTurn => (c, n - 1 - r),
            Symmetry::ThreeQuarterTurn => (n - 1 - c, r),
        };
        Square::new(r2, c2)
    }

    /// The image of a placement.
    #[must_use]
    pub fn apply_placement(self, board: &Board, placement: &Placement) -> Placement {
        Placement::new(
            placement
                .squares()
                .iter()
                .map(|&sq| self.apply(board, sq))
                .collect(),
        )
    }
}

/// The number of distinct images of `placement` under the board's
/// symmetries (1, 2, 4 or 8).
#[must_use]
pub fn orbit_size(board: &Board, placement: &Placement) -> u64 {
    let mut images: Vec<Placement> = Symmetry::of(board)
        .into_iter()
        .map(|s| s.apply_placement(board, placement))
        .collect();
    images.sort_unstable();
    images.dedup();
    images.len() as u64
}

/// The board as a bit string in variable order.
fn bits(board: &Board, placement: &Placement) -> Vec<bool> {
    let mut out = vec![false; board.n_squares()];
    for &sq in placement.squares() {
        out[board.index(sq)] = true;
    }
    out
}

/// Whether `placement` is the lexicographic leader of its orbit (its bit
/// string, in variable order, is ≤ that of every image) — what
/// [`lex_leader`] keeps.
#[must_use]
pub fn is_lex_leader(board: &Board, placement: &Placement) -> bool {
    let own = bits(board, placement);
    Symmetry::of(board)
        .into_iter()
        .all(|s| own <= bits(board, &s.apply_placement(board, placement)))
}

/// Adds `x ≤lex σ(x)` over the board variables for every non-identity
/// symmetry of the board.
///
/// # Errors
///
/// [`EncodeError::OutOfMemory`] when the sink cannot grow.
pub fn lex_leader<C: CollectClauses>(
    board: &Board,
    sink: &mut C,
    vars: &mut dyn ManageVars,
) -> Result<(), EncodeError> {
    for sym in Symmetry::of(board).into_iter().skip(1) {
        let mut clauses = Vec::new();
        // `equal`: the chain literal "equal so far"; None means true.
        let mut equal: Option<Lit> = None;
        let squares: Vec<Square> = board.squares().collect();
        for (i, &sq) in squares.iter().enumerate() {
            let image = sym.apply(board, sq);
            if image == sq {
                continue;
            }
            let x = board.lit(sq);
            let y = board.lit(image);
            let guard: Vec<Lit> = equal.map(|e| vec![!e]).unwrap_or_default();
            // e → (x → y)
            let mut c = guard.clone();
            c.extend([!x, y]);
            clauses.push(c.into_iter().collect());
            if i + 1 == squares.len() {
                break;
            }
            let next = vars.new_lit();
            let mut both = guard.clone();
            both.extend([!x, !y, next]);
            clauses.push(both.into_iter().collect());
            let mut neither = guard;
            neither.extend([x, y, next]);
            clauses.push(neither.into_iter().collect());
            equal = Some(next);
        }
        sink.extend_clauses(clauses)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetries_are_bijections_of_the_board() {
        for board in [Board::square(5).unwrap(), Board::new(3, 6).unwrap()] {
            for sym in Symmetry::of(&board) {
                let mut images: Vec<Square> =
                    board.squares().map(|sq| sym.apply(&board, sq)).collect();
                assert!(images.iter().all(|&s| board.contains(s)), "{sym:?}");
                images.sort_unstable();
                images.dedup();
                assert_eq!(images.len(), board.n_squares(), "{sym:?}");
            }
        }
    }

    #[test]
    fn orbit_sizes() {
        let board = Board::square(3).unwrap();
        let centre = Placement::new(vec![Square::new(1, 1)]);
        assert_eq!(orbit_size(&board, &centre), 1);
        let corner = Placement::new(vec![Square::new(0, 0)]);
        assert_eq!(orbit_size(&board, &corner), 4);
        let knight_move = Placement::new(vec![Square::new(0, 0), Square::new(1, 2)]);
        assert_eq!(orbit_size(&board, &knight_move), 8);
    }
}
