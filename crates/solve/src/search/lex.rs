//! Lex-leader symmetry breaking in two orders: the board variables
//! row-major ([`LexOrder::Board`], [`boardsat_encode::symmetry`]'s), or the
//! occupancy of the rows and columns first ([`LexOrder::LinesFirst`]),
//! under a group of symmetries (the whole board's, or a cube's
//! stabilizer). Either keeps exactly one placement per orbit of the group.

use boardsat_encode::{Board, Placement, Square, Symmetry};
use rustsat::{
    instances::{Cnf, ManageVars},
    types::Lit,
};

use crate::error::SolveError;

/// A row or a column of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Line {
    /// Row `r`.
    Row(usize),
    /// Column `c`.
    Column(usize),
}

impl Line {
    /// The literals of the line's squares.
    #[must_use]
    pub fn lits(self, board: &Board) -> Vec<Lit> {
        match self {
            Line::Row(r) => (0..board.cols())
                .map(|c| board.lit(Square::new(r, c)))
                .collect(),
            Line::Column(c) => (0..board.rows())
                .map(|r| board.lit(Square::new(r, c)))
                .collect(),
        }
    }
}

impl std::fmt::Display for Line {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Line::Row(r) => write!(f, "r{r}"),
            Line::Column(c) => write!(f, "c{c}"),
        }
    }
}

/// The image of `line` under `sym` (a row of a square board may become a
/// column).
pub fn line_image(board: &Board, sym: Symmetry, line: Line) -> Line {
    let swaps = board.cols() > 1
        && sym.apply(board, Square::new(0, 0)).row != sym.apply(board, Square::new(0, 1)).row;
    match line {
        Line::Row(r) => {
            let to = sym.apply(board, Square::new(r, 0));
            if swaps {
                Line::Column(to.col)
            } else {
                Line::Row(to.row)
            }
        }
        Line::Column(c) => {
            let to = sym.apply(board, Square::new(0, c));
            if swaps {
                Line::Row(to.row)
            } else {
                Line::Column(to.col)
            }
        }
    }
}

/// The order in which lex-leader constraints read a placement: which
/// member of each orbit they keep. Both keep exactly one per orbit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum LexOrder {
    /// The board variables in row-major order
    /// ([`boardsat_encode::symmetry::lex_leader`], what `boardsat verify`
    /// re-derives).
    Board,
    /// The occupancy of the rows, then of the columns, then the board
    /// row-major: the default, as it counted queen domination faster
    /// (BENCHMARKS.md, issue 12).
    #[default]
    LinesFirst,
}

/// One position of the [`LexOrder::LinesFirst`] order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Item {
    Line(Line),
    Square(Square),
}

fn lines_first(board: &Board) -> Vec<Item> {
    let mut items: Vec<Item> = (0..board.rows())
        .map(|r| Item::Line(Line::Row(r)))
        .collect();
    items.extend((0..board.cols()).map(|c| Item::Line(Line::Column(c))));
    items.extend(board.squares().map(Item::Square));
    items
}

fn item_image(board: &Board, sym: Symmetry, item: Item) -> Item {
    match item {
        Item::Line(line) => Item::Line(line_image(board, sym, line)),
        Item::Square(sq) => Item::Square(sym.apply(board, sq)),
    }
}

/// The bits of `placement` in the order `items`.
fn item_bits(items: &[Item], placement: &Placement) -> Vec<bool> {
    let on: std::collections::HashSet<Square> = placement.squares().iter().copied().collect();
    items
        .iter()
        .map(|&item| match item {
            Item::Square(sq) => on.contains(&sq),
            Item::Line(Line::Row(r)) => on.iter().any(|sq| sq.row == r),
            Item::Line(Line::Column(c)) => on.iter().any(|sq| sq.col == c),
        })
        .collect()
}

/// Whether `placement` is the one member of its orbit that the
/// [`LexOrder::LinesFirst`] constraints keep.
#[must_use]
pub fn is_lines_first_leader(board: &Board, placement: &Placement) -> bool {
    is_lines_first_leader_under(board, &Symmetry::of(board), placement)
}

/// As [`is_lines_first_leader`] under the symmetries `group` only (a
/// subgroup of the board's, such as a cube's stabilizer).
#[must_use]
pub fn is_lines_first_leader_under(
    board: &Board,
    group: &[Symmetry],
    placement: &Placement,
) -> bool {
    let items = lines_first(board);
    let own = item_bits(&items, placement);
    group
        .iter()
        .all(|s| own <= item_bits(&items, &s.apply_placement(board, placement)))
}

/// Adds the [`LexOrder::LinesFirst`] lex-leader constraints under the
/// symmetries `group`: a variable per row and column defined as its
/// occupancy, then `x ≤lex σ(x)` for every non-identity σ of `group`, as
/// a chain of "equal so far" variables.
pub fn break_lines_first(
    board: &Board,
    group: &[Symmetry],
    cnf: &mut Cnf,
    vars: &mut dyn ManageVars,
) -> Result<(), SolveError> {
    let items = lines_first(board);
    let mut lits = Vec::with_capacity(items.len());
    for &item in &items {
        lits.push(match item {
            Item::Square(sq) => board.lit(sq),
            Item::Line(line) => {
                let w = vars.new_lit();
                let squares = line.lits(board);
                let mut some = vec![!w];
                some.extend(&squares);
                cnf.add_clause(some.into_iter().collect());
                for s in squares {
                    cnf.add_binary(!s, w);
                }
                w
            }
        });
    }
    let position: std::collections::HashMap<Item, usize> = items
        .iter()
        .enumerate()
        .map(|(i, &item)| (item, i))
        .collect();
    for &sym in group.iter().filter(|&&s| s != Symmetry::Identity) {
        let mut equal: Option<Lit> = None;
        for (i, &item) in items.iter().enumerate() {
            let j = position
                .get(&item_image(board, sym, item))
                .copied()
                .ok_or(SolveError::Internal("a symmetry left the board"))?;
            if j == i {
                continue;
            }
            let (x, y) = (lits[i], lits[j]);
            let guard: Vec<Lit> = equal.map(|e| vec![!e]).unwrap_or_default();
            let mut less = guard.clone();
            less.extend([!x, y]);
            cnf.add_clause(less.into_iter().collect());
            let next = vars.new_lit();
            let mut both = guard.clone();
            both.extend([!x, !y, next]);
            cnf.add_clause(both.into_iter().collect());
            let mut neither = guard;
            neither.extend([x, y, next]);
            cnf.add_clause(neither.into_iter().collect());
            equal = Some(next);
        }
    }
    Ok(())
}

/// The lex-leader constraints of `order` under `group`, as clauses with
/// fresh variables from `vars`. [`LexOrder::Board`] breaks the board's
/// whole group only (`group` must be it).
///
/// # Errors
///
/// [`SolveError::Internal`] for [`LexOrder::Board`] under a subgroup;
/// encoding errors.
pub fn break_symmetry(
    order: LexOrder,
    board: &Board,
    group: &[Symmetry],
    cnf: &mut Cnf,
    vars: &mut dyn ManageVars,
) -> Result<(), SolveError> {
    match order {
        LexOrder::Board if group.len() == Symmetry::of(board).len() => {
            Ok(boardsat_encode::symmetry::lex_leader(board, cnf, vars)?)
        }
        LexOrder::Board => Err(SolveError::Internal(
            "board-order lex-leader constraints break the whole group only",
        )),
        LexOrder::LinesFirst => break_lines_first(board, group, cnf, vars),
    }
}

/// Whether `placement` is the member of its orbit under `group` that the
/// constraints of `order` keep.
#[must_use]
pub fn is_leader(
    order: LexOrder,
    board: &Board,
    group: &[Symmetry],
    placement: &Placement,
) -> bool {
    match order {
        LexOrder::Board => boardsat_encode::symmetry::is_lex_leader(board, placement),
        LexOrder::LinesFirst => is_lines_first_leader_under(board, group, placement),
    }
}
