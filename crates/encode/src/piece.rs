//! Chess pieces as the classic placement puzzles use them.
//!
//! Sliders (queen, rook, bishop) attack every square of their lines, not
//! blocked by other pieces, as in N-queens and queen domination. Leapers
//! (knight, king) attack a fixed set of offsets.

use crate::board::{Board, LineKind, Square};

crate::name_table! {
    /// A chess piece.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
    pub enum Piece {
        /// Rows, columns and both diagonals.
        #[default]
        Queen = "queen",
        /// Rows and columns.
        Rook = "rook",
        /// Both diagonals.
        Bishop = "bishop",
        /// The eight (±1, ±2) / (±2, ±1) leaps.
        Knight = "knight",
        /// The eight neighbouring squares.
        King = "king",
    }
    parse_error: UnknownPiece = |name: &str| UnknownPiece(name.to_string());
}

const KNIGHT_LEAPS: [(isize, isize); 8] = [
    (-2, -1),
    (-2, 1),
    (-1, -2),
    (-1, 2),
    (1, -2),
    (1, 2),
    (2, -1),
    (2, 1),
];

const KING_LEAPS: [(isize, isize); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

impl Piece {
    /// The lines a slider attacks along; empty for leapers.
    #[must_use]
    pub const fn line_kinds(self) -> &'static [LineKind] {
        match self {
            Piece::Queen => &LineKind::ALL,
            Piece::Rook => &[LineKind::Row, LineKind::Column],
            Piece::Bishop => &[LineKind::Diagonal, LineKind::AntiDiagonal],
            Piece::Knight | Piece::King => &[],
        }
    }

    /// The offsets a leaper attacks; empty for sliders.
    #[must_use]
    pub const fn leaps(self) -> &'static [(isize, isize)] {
        match self {
            Piece::Knight => &KNIGHT_LEAPS,
            Piece::King => &KING_LEAPS,
            Piece::Queen | Piece::Rook | Piece::Bishop => &[],
        }
    }

    /// Whether the piece attacks along lines.
    #[must_use]
    pub const fn is_slider(self) -> bool {
        !self.line_kinds().is_empty()
    }

    /// The squares a piece on `from` attacks (never `from` itself).
    #[must_use]
    pub fn attacks(self, board: &Board, from: Square) -> Vec<Square> {
        let mut out = Vec::new();
        for &kind in self.line_kinds() {
            let line = board.line_index(kind, from);
            out.extend(board.line(kind, line).filter(|&sq| sq != from));
        }
        out.extend(self.leap_targets(board, from));
        out
    }

    /// The squares a piece on `from` reaches by its leaps alone (none for
    /// sliders): the attacks that no line holds, so a piece that both
    /// rides and leaps has its line attacks once, not again as leaps.
    pub fn leap_targets(self, board: &Board, from: Square) -> impl Iterator<Item = Square> + '_ {
        self.leaps()
            .iter()
            .filter_map(move |&(dr, dc)| board.offset(from, dr, dc))
    }

    /// The closed neighbourhood of `from`: the square itself and every square
    /// it attacks, each once and sorted. A square is dominated when a piece
    /// stands somewhere in its closed neighbourhood (attacks are symmetric).
    #[must_use]
    pub fn closed_neighbourhood(self, board: &Board, from: Square) -> Vec<Square> {
        let mut out = self.attacks(board, from);
        out.push(from);
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// An unknown piece name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown piece '{0}' (expected one of: {names})", names = Piece::NAMES.join(", "))]
pub struct UnknownPiece(pub String);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attack_counts_on_8x8() {
        let board = Board::square(8).unwrap();
        let corner = Square::new(0, 0);
        let centre = Square::new(3, 3);
        assert_eq!(Piece::Queen.attacks(&board, corner).len(), 21);
        assert_eq!(Piece::Queen.attacks(&board, centre).len(), 27);
        assert_eq!(Piece::Rook.attacks(&board, centre).len(), 14);
        assert_eq!(Piece::Bishop.attacks(&board, centre).len(), 13);
        assert_eq!(Piece::Knight.attacks(&board, corner).len(), 2);
        assert_eq!(Piece::Knight.attacks(&board, centre).len(), 8);
        assert_eq!(Piece::King.attacks(&board, corner).len(), 3);
    }

    #[test]
    fn names_round_trip() {
        for piece in Piece::ALL {
            assert_eq!(piece.to_string().parse::<Piece>(), Ok(piece));
        }
        assert!("pawn".parse::<Piece>().is_err());
    }
}
