//! Board geometry: squares, the square ↔ variable bijection and the lines a
//! sliding piece attacks along.
//!
//! Board variables come first: square `(r, c)` of a `rows × cols` board is the
//! rustsat variable with index `r·cols + c`, which is DIMACS variable
//! `r·cols + c + 1`. Every auxiliary variable of an encoding comes after them,
//! so projecting a model onto the board is "the first `rows·cols` variables".

use std::fmt;

use rustsat::types::{Lit, Var};

use crate::error::EncodeError;

/// The largest number of squares a board may have: variables must fit in a
/// DIMACS literal (`i32`) with room left for auxiliary variables (2²⁸
/// squares leave 7/8 of the range to them). Enough for `queens 16384`
/// with the lazy AMO, which needs no auxiliaries; the size estimate
/// refuses the eager encodings of such boards long before.
pub const MAX_SQUARES: usize = 1 << 28;

/// One square of a board, `row` and `col` counted from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square {
    /// Row index, from 0 at the top.
    pub row: usize,
    /// Column index, from 0 at the left.
    pub col: usize,
}

impl Square {
    /// The square at `row`, `col`.
    #[must_use]
    pub const fn new(row: usize, col: usize) -> Self {
        Square { row, col }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.row, self.col)
    }
}

/// The four directions a sliding piece attacks along.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LineKind {
    /// Horizontal: `r` constant.
    Row,
    /// Vertical: `c` constant.
    Column,
    /// Diagonal: `r − c` constant.
    Diagonal,
    /// Anti-diagonal: `r + c` constant.
    AntiDiagonal,
}

impl LineKind {
    /// Every line kind.
    pub const ALL: [LineKind; 4] = [
        LineKind::Row,
        LineKind::Column,
        LineKind::Diagonal,
        LineKind::AntiDiagonal,
    ];
}

/// The position of `(x, y)` along the Hilbert curve that fills a
/// `side × side` grid (`side` a power of two): the classic rotate-and-flip
/// walk from the largest quadrant down.
fn hilbert_index(side: usize, x: usize, y: usize) -> u64 {
    let (mut x, mut y) = (x as u64, y as u64);
    let mut d = 0u64;
    let mut s = (side as u64) / 2;
    while s > 0 {
        let rx = u64::from(x & s > 0);
        let ry = u64::from(y & s > 0);
        d += s * s * ((3 * rx) ^ ry);
        // Rotate the quadrant so that the curve inside it starts and ends
        // where the next level expects.
        if ry == 0 {
            if rx == 1 {
                x = s - 1 - (x & (s - 1));
                y = s - 1 - (y & (s - 1));
            }
            std::mem::swap(&mut x, &mut y);
        }
        s /= 2;
    }
    d
}

/// A rectangular board of `rows × cols` squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    rows: usize,
    cols: usize,
}

impl Board {
    /// A `rows × cols` board.
    ///
    /// # Errors
    ///
    /// [`EncodeError::EmptyBoard`] when a side is 0, [`EncodeError::BoardTooLarge`]
    /// when the board has more than [`MAX_SQUARES`] squares.
    pub fn new(rows: usize, cols: usize) -> Result<Self, EncodeError> {
        if rows == 0 || cols == 0 {
            return Err(EncodeError::EmptyBoard { rows, cols });
        }
        match rows.checked_mul(cols) {
            Some(n) if n <= MAX_SQUARES => Ok(Board { rows, cols }),
            _ => Err(EncodeError::BoardTooLarge {
                rows,
                cols,
                max: MAX_SQUARES,
            }),
        }
    }

    /// An `n × n` board.
    ///
    /// # Errors
    ///
    /// As [`Board::new`].
    pub fn square(n: usize) -> Result<Self, EncodeError> {
        Board::new(n, n)
    }

    /// Number of rows.
    #[must_use]
    pub const fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    #[must_use]
    pub const fn cols(&self) -> usize {
        self.cols
    }

    /// Whether the board is square.
    #[must_use]
    pub const fn is_square(&self) -> bool {
        self.rows == self.cols
    }

    /// Number of squares, which is also the number of board variables.
    #[must_use]
    pub const fn n_squares(&self) -> usize {
        self.rows * self.cols
    }

    /// Whether `square` lies on the board.
    #[must_use]
    pub const fn contains(&self, square: Square) -> bool {
        square.row < self.rows && square.col < self.cols
    }

    /// Every square in row-major order, which is variable order.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        (0..self.rows).flat_map(move |row| (0..self.cols).map(move |col| Square { row, col }))
    }

    /// Every square in the order of a Hilbert curve over the smallest
    /// power-of-two square that holds the board (squares off the board
    /// skipped): neighbours on the board stay close in the order. The
    /// cardinality counter takes its inputs in this order, so that its
    /// subtrees count compact regions of the board rather than strips of
    /// rows; O(squares · log) time.
    #[must_use]
    pub fn hilbert_order(&self) -> Vec<Square> {
        let side = self.rows.max(self.cols).next_power_of_two();
        let mut keyed: Vec<(u64, Square)> = self
            .squares()
            .map(|sq| (hilbert_index(side, sq.row, sq.col), sq))
            .collect();
        keyed.sort_unstable_by_key(|&(key, _)| key);
        keyed.into_iter().map(|(_, sq)| sq).collect()
    }

    /// Row-major index of a square: its variable index.
    #[must_use]
    pub const fn index(&self, square: Square) -> usize {
        square.row * self.cols + square.col
    }

    /// The square with row-major index `index`, if on the board.
    #[must_use]
    pub const fn square_at(&self, index: usize) -> Option<Square> {
        if index < self.n_squares() {
            Some(Square {
                row: index / self.cols,
                col: index % self.cols,
            })
        } else {
            None
        }
    }

    /// The variable of a square.
    #[must_use]
    pub fn var(&self, square: Square) -> Var {
        // The constructor bounds the square count well below u32::MAX.
        Var::new(u32::try_from(self.index(square)).unwrap_or(u32::MAX))
    }

    /// The positive literal of a square: "a piece stands here".
    #[must_use]
    pub fn lit(&self, square: Square) -> Lit {
        self.var(square).pos_lit()
    }

    /// The square of a variable, or `None` for an auxiliary variable.
    #[must_use]
    pub fn square_of(&self, var: Var) -> Option<Square> {
        self.square_at(var.idx())
    }

    /// Number of lines of one kind: `rows`, `cols`, or `rows + cols − 1`
    /// diagonals (including the one-square corner diagonals).
    #[must_use]
    pub const fn n_lines(&self, kind: LineKind) -> usize {
        match kind {
            LineKind::Row => self.rows,
            LineKind::Column => self.cols,
            LineKind::Diagonal | LineKind::AntiDiagonal => self.rows + self.cols - 1,
        }
    }

    /// The squares of line `index` of `kind`, from the top.
    ///
    /// Diagonal `i` holds the squares with `c − r = i − (rows − 1)`;
    /// anti-diagonal `i` those with `r + c = i`. Computed directly, so all
    /// lines of a kind cost O(squares) together.
    pub fn line(&self, kind: LineKind, index: usize) -> impl Iterator<Item = Square> + '_ {
        let (start, len, step): ((usize, usize), usize, (isize, isize)) = match kind {
            LineKind::Row => ((index, 0), self.cols, (0, 1)),
            LineKind::Column => ((0, index), self.rows, (1, 0)),
            LineKind::Diagonal => {
                // Start on the left column for the lower diagonals, on the top
                // row for the upper ones.
                let (r0, c0) = if index < self.rows {
                    (self.rows - 1 - index, 0)
                } else {
                    (0, index + 1 - self.rows)
                };
                let len = (self.rows - r0).min(self.cols - c0);
                ((r0, c0), len, (1, 1))
            }
            LineKind::AntiDiagonal => {
                let (r0, c0) = if index < self.cols {
                    (0, index)
                } else {
                    (index + 1 - self.cols, self.cols - 1)
                };
                let len = (self.rows - r0).min(c0 + 1);
                ((r0, c0), len, (1, -1))
            }
        };
        (0..len).map(move |i| {
            let i = i as isize;
            Square {
                row: (start.0 as isize + i * step.0) as usize,
                col: (start.1 as isize + i * step.1) as usize,
            }
        })
    }

    /// Every line of `kind`, each as its squares.
    pub fn lines(&self, kind: LineKind) -> impl Iterator<Item = Vec<Square>> + '_ {
        (0..self.n_lines(kind)).map(move |i| self.line(kind, i).collect())
    }

    /// The index of the line of `kind` through `square`.
    #[must_use]
    pub const fn line_index(&self, kind: LineKind, square: Square) -> usize {
        match kind {
            LineKind::Row => square.row,
            LineKind::Column => square.col,
            LineKind::Diagonal => square.col + self.rows - 1 - square.row,
            LineKind::AntiDiagonal => square.row + square.col,
        }
    }

    /// The square `(row + dr, col + dc)` if it is on the board.
    #[must_use]
    pub fn offset(&self, square: Square, dr: isize, dc: isize) -> Option<Square> {
        let row = square.row.checked_add_signed(dr)?;
        let col = square.col.checked_add_signed(dc)?;
        let to = Square { row, col };
        self.contains(to).then_some(to)
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn hilbert_order_walks_to_a_neighbour_each_step() {
        for side in [1, 2, 4, 8, 16] {
            let board = Board::square(side).unwrap();
            let order = board.hilbert_order();
            assert_eq!(order.len(), side * side);
            assert_eq!(order[0], Square::new(0, 0));
            for w in order.windows(2) {
                let d = w[0].row.abs_diff(w[1].row) + w[0].col.abs_diff(w[1].col);
                assert_eq!(d, 1, "side {side}: {} then {}", w[0], w[1]);
            }
        }
    }

    #[test]
    fn hilbert_order_is_a_permutation_of_any_board() {
        for (rows, cols) in [(1, 1), (1, 7), (3, 5), (6, 6), (13, 13), (5, 20)] {
            let board = Board::new(rows, cols).unwrap();
            let mut order = board.hilbert_order();
            order.sort_unstable();
            let all: Vec<Square> = board.squares().collect();
            assert_eq!(order, all, "{rows}x{cols}");
        }
    }
    use super::*;

    #[test]
    fn lines_partition_the_board_for_every_kind() {
        for (rows, cols) in [(1, 1), (1, 5), (5, 1), (3, 7), (7, 3), (8, 8)] {
            let board = Board::new(rows, cols).unwrap();
            for kind in LineKind::ALL {
                let mut seen = vec![0usize; board.n_squares()];
                for (i, line) in board.lines(kind).enumerate() {
                    assert!(!line.is_empty(), "{board} {kind:?} line {i} is empty");
                    for sq in line {
                        assert!(board.contains(sq));
                        assert_eq!(board.line_index(kind, sq), i, "{board} {kind:?} {sq}");
                        seen[board.index(sq)] += 1;
                    }
                }
                assert!(seen.iter().all(|&n| n == 1), "{board} {kind:?}: {seen:?}");
            }
        }
    }

    #[test]
    fn corner_diagonals_are_present() {
        let board = Board::square(10).unwrap();
        assert_eq!(board.n_lines(LineKind::Diagonal), 19);
        let first: Vec<_> = board.line(LineKind::Diagonal, 0).collect();
        assert_eq!(first, vec![Square::new(9, 0)]);
        let second: Vec<_> = board.line(LineKind::Diagonal, 1).collect();
        assert_eq!(second, vec![Square::new(8, 0), Square::new(9, 1)]);
        let last: Vec<_> = board.line(LineKind::AntiDiagonal, 18).collect();
        assert_eq!(last, vec![Square::new(9, 9)]);
    }

    #[test]
    fn variables_are_row_major_and_invertible() {
        let board = Board::new(3, 4).unwrap();
        assert_eq!(board.var(Square::new(2, 1)).idx(), 9);
        for sq in board.squares() {
            assert_eq!(board.square_of(board.var(sq)), Some(sq));
        }
        assert_eq!(board.square_of(Var::new(12)), None);
    }

    #[test]
    fn empty_and_huge_boards_are_errors() {
        assert!(matches!(
            Board::new(0, 3),
            Err(EncodeError::EmptyBoard { .. })
        ));
        assert!(matches!(
            Board::new(usize::MAX, 2),
            Err(EncodeError::BoardTooLarge { .. })
        ));
    }
}
