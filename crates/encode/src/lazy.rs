//! At-most-one constraints left out of the CNF for a propagator
//! ([`Amo::Lazy`](crate::Amo::Lazy)).
//!
//! With the lazy AMO, an encoding writes no clause for "at most one piece on
//! this line": it records the lines in [`crate::Encoding::lazy`] as a
//! [`LazyLines`], and a solver-side propagator (boardsat-solve's `lines`
//! module, inside CaDiCaL) enforces them during search, explaining each
//! step with a binary clause `¬a ∨ ¬b` over two squares of one line. The
//! record is geometry, not literal lists: a board of N squares costs O(1)
//! here, where the lists would cost 4N literals for queens.
//!
//! The at-least-one clauses of exact lines (N-queens' rows and columns) stay
//! in the CNF; [`LazyLines::exact`] names those kinds, so that a propagator
//! can branch on them first-fail.
//!
//! The CNF of a lazy encoding is *not* the problem on its own: writing it
//! as DIMACS would silently drop constraints. So only
//! [`Problem::encode_lazy`](crate::Problem::encode_lazy) (and its open
//! twin) records lines here; [`Problem::encode`](crate::Problem::encode),
//! which every consumer of the clauses alone calls (DIMACS, cube files,
//! proofs), refuses the lazy AMO where it would leave lines out.

use rustsat::types::Lit;

use crate::{
    board::{Board, LineKind, Square},
    piece::Piece,
};

/// The at-most-one constraints an encoding left to a propagator.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LazyLines {
    /// The board; its squares' literals ([`Board::lit`]) are the only ones
    /// the constraints mention.
    pub board: Board,
    /// Every line of these kinds holds at most one piece.
    pub kinds: Vec<LineKind>,
    /// Of [`LazyLines::kinds`], those whose lines also have an at-least-one
    /// clause in the CNF (exactly one piece per line).
    pub exact: Vec<LineKind>,
    /// Leaper offsets: no two pieces `(dr, dc)` apart (each attacking pair
    /// an at-most-one of two squares). Empty unless an encoding leaves its
    /// attack pairs to the propagator.
    pub leaps: Vec<(isize, isize)>,
}

impl LazyLines {
    /// The lines of `piece` on `board`, none exact, no leaps.
    #[must_use]
    pub fn new(board: Board, piece: Piece) -> Self {
        LazyLines {
            board,
            kinds: piece.line_kinds().to_vec(),
            exact: Vec::new(),
            leaps: Vec::new(),
        }
    }

    /// Whether there is nothing to enforce.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty() && self.leaps.is_empty()
    }

    /// Every constraint as the set of literals of which at most one may be
    /// true: the lines of at least two squares, then the attacking pairs.
    /// For tests and small boards: it materialises what the record avoids.
    pub fn groups(&self) -> impl Iterator<Item = Vec<Lit>> + '_ {
        let board = &self.board;
        let lines = self.kinds.iter().flat_map(move |&kind| {
            board
                .lines(kind)
                .filter(|line| line.len() >= 2)
                .map(move |line| line.iter().map(|&sq| board.lit(sq)).collect())
        });
        let pairs = board.squares().flat_map(move |from| {
            self.leaps
                .iter()
                .filter_map(move |&(dr, dc)| board.offset(from, dr, dc))
                .filter(move |&to| board.index(to) > board.index(from))
                .map(move |to| vec![board.lit(from), board.lit(to)])
        });
        lines.chain(pairs)
    }

    /// Whether squares `a` and `b` (distinct) may not both hold a piece:
    /// they share a line of [`LazyLines::kinds`] or are a leap apart.
    #[must_use]
    pub fn conflict(&self, a: Square, b: Square) -> bool {
        if a == b || !self.board.contains(a) || !self.board.contains(b) {
            return false;
        }
        let on_line = self
            .kinds
            .iter()
            .any(|&kind| self.board.line_index(kind, a) == self.board.line_index(kind, b));
        let leap = self
            .leaps
            .iter()
            .any(|&(dr, dc)| self.board.offset(a, dr, dc) == Some(b));
        on_line || leap
    }

    /// Whether `clause` follows from these constraints alone: it is
    /// `¬a ∨ ¬b` (in either order) for two squares in [`conflict`].
    /// Every reason and conflict clause a propagator of these lines hands
    /// a solver must pass this test.
    ///
    /// [`conflict`]: LazyLines::conflict
    #[must_use]
    pub fn implies(&self, clause: &[Lit]) -> bool {
        let [x, y] = clause else {
            return false;
        };
        if x.is_pos() || y.is_pos() {
            return false;
        }
        match (self.board.square_of(x.var()), self.board.square_of(y.var())) {
            (Some(a), Some(b)) => self.conflict(a, b),
            _ => false,
        }
    }

    /// Number of constraints ([`LazyLines::groups`]), in closed form.
    #[must_use]
    pub fn n_groups(&self) -> u64 {
        self.sizes().0
    }

    /// Literal occurrences over all constraints, in closed form: what the
    /// record saves against literal lists.
    #[must_use]
    pub fn n_lits(&self) -> u64 {
        self.sizes().1
    }

    fn sizes(&self) -> (u64, u64) {
        let (rows, cols) = (self.board.rows() as u64, self.board.cols() as u64);
        let mut groups = 0u64;
        let mut lits = 0u64;
        for &kind in &self.kinds {
            let count = |len: u64, times: u64, groups: &mut u64, lits: &mut u64| {
                if len >= 2 {
                    *groups += times;
                    *lits += len * times;
                }
            };
            match kind {
                LineKind::Row => count(cols, rows, &mut groups, &mut lits),
                LineKind::Column => count(rows, cols, &mut groups, &mut lits),
                LineKind::Diagonal | LineKind::AntiDiagonal => {
                    let (a, b) = (rows.min(cols), rows.max(cols));
                    count(a, b - a + 1, &mut groups, &mut lits);
                    for len in 2..a {
                        count(len, 2, &mut groups, &mut lits);
                    }
                }
            }
        }
        let pairs: u64 = self
            .leaps
            .iter()
            .map(|&(dr, dc)| {
                rows.saturating_sub(dr.unsigned_abs() as u64)
                    * cols.saturating_sub(dc.unsigned_abs() as u64)
            })
            .sum::<u64>()
            / 2;
        (groups + pairs, lits + 2 * pairs)
    }
}
