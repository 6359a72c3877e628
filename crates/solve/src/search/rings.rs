//! The rows and columns a domination split fixes, as a tree: a cube fixes
//! which lines of the `depth` outer rings of rows and columns are occupied
//! (ring 0: the first and last row and column, each further ring the next
//! line inwards on both sides), and refines into the cubes of the next
//! ring. The board's symmetries map rings onto rings, so they act on
//! cubes: orbits of cubes, a cube's stabilizer. Splits from the edge in
//! were measured faster than splits from the middle out, for refutations
//! and counts alike (docs/bench/frontier.md, "Splitting from the edge"); the middle
//! out order ([`Rings::Central`]) is still read, to verify proofs and jobs
//! written before.
//!
//! A split solves one cube per orbit of cubes ([`representatives`]): the
//! children of a cube `c` are refined one per orbit under `c`'s
//! stabilizer, so the leaves are one cube per orbit under the whole group,
//! and each leaf's own stabilizer is its stabilizer in the whole group (a
//! symmetry fixing a refinement fixes the cube it refines). A split
//! deeper in one branch than in another — a cube split again because it
//! ran long — is a tree of the same kind.

use std::{collections::BTreeSet, fmt};

use boardsat_encode::{Board, Symmetry};
use rustsat::types::Lit;

use crate::{
    error::SolveError,
    search::{
        count::Cubes,
        lex::{line_image, Line},
    },
};

/// The order in which a split takes the rings of rows and columns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rings {
    /// From the edge in: ring 0 the first and last line of a side. What
    /// boardsat splits by.
    #[default]
    Outer,
    /// From the middle out: ring 0 the middle line (two when the side is
    /// even). What boardsat split by before; read to verify older proofs.
    Central,
}

/// The indices of the lines in the `depth` first rings of a side of `n`
/// lines, in `order`, sorted.
fn rings(n: usize, order: Rings, depth: usize) -> Vec<usize> {
    let mut out = Vec::new();
    match order {
        Rings::Outer => {
            for i in 0..depth.min(n.div_ceil(2)) {
                out.extend([i, n - 1 - i]);
            }
        }
        Rings::Central => {
            let (low, high) = ((n - 1) / 2, n / 2);
            for i in 0..depth {
                if let Some(l) = low.checked_sub(i) {
                    out.push(l);
                }
                if high + i < n && high + i != low.wrapping_sub(i) {
                    out.push(high + i);
                }
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The rows and columns of the `depth` first rings of `board` in `order`,
/// rows first, each in order.
#[must_use]
pub fn ring_lines(board: &Board, order: Rings, depth: usize) -> Vec<Line> {
    let mut lines: Vec<Line> = rings(board.rows(), order, depth)
        .into_iter()
        .map(Line::Row)
        .collect();
    lines.extend(
        rings(board.cols(), order, depth)
            .into_iter()
            .map(Line::Column),
    );
    lines
}

/// A cube of a domination split: whether each line of the `depth` first
/// rings (in `order`) is occupied.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LineCube {
    /// The order of the rings.
    pub order: Rings,
    /// The rings fixed.
    pub depth: usize,
    /// The lines of those rings (as [`ring_lines`] lists them) and whether
    /// each is occupied.
    pub lines: Vec<(Line, bool)>,
}

impl LineCube {
    /// The whole problem: no line fixed, refined in `order`.
    #[must_use]
    pub const fn root(order: Rings) -> Self {
        LineCube {
            order,
            depth: 0,
            lines: Vec::new(),
        }
    }

    /// Every refinement by the next ring: the lines it adds, occupied or
    /// not in every combination, in order (bit j of the index is the new
    /// line j).
    #[must_use]
    pub fn children(&self, board: &Board) -> Vec<LineCube> {
        let all = ring_lines(board, self.order, self.depth + 1);
        let new: Vec<Line> = all
            .iter()
            .copied()
            .filter(|l| !self.lines.iter().any(|(m, _)| m == l))
            .collect();
        (0..1u32 << new.len())
            .map(|mask| {
                let mut lines = self.lines.clone();
                lines.extend(
                    new.iter()
                        .enumerate()
                        .map(|(j, &l)| (l, mask >> j & 1 == 1)),
                );
                lines.sort_unstable_by_key(|&(l, _)| position(&all, l));
                LineCube {
                    order: self.order,
                    depth: self.depth + 1,
                    lines,
                }
            })
            .collect()
    }

    /// The image of the cube under `sym` (its lines mapped, in order).
    #[must_use]
    pub fn image(&self, board: &Board, sym: Symmetry) -> LineCube {
        let all = ring_lines(board, self.order, self.depth);
        let mut lines: Vec<(Line, bool)> = self
            .lines
            .iter()
            .map(|&(l, on)| (line_image(board, sym, l), on))
            .collect();
        lines.sort_unstable_by_key(|&(l, _)| position(&all, l));
        LineCube {
            order: self.order,
            depth: self.depth,
            lines,
        }
    }

    /// The symmetries of `group` that map the cube onto itself, in the
    /// order of `group` (identity first when it is).
    #[must_use]
    pub fn stabilizer(&self, board: &Board, group: &[Symmetry]) -> Vec<Symmetry> {
        group
            .iter()
            .copied()
            .filter(|&sym| self.image(board, sym) == *self)
            .collect()
    }

    /// The cube as clauses over the board variables: an occupied line is
    /// one clause (some square of it), an empty one a unit per square.
    #[must_use]
    pub fn clauses(&self, board: &Board) -> Vec<Vec<Lit>> {
        let mut out = Vec::new();
        for &(line, occupied) in &self.lines {
            let lits = line.lits(board);
            if occupied {
                out.push(lits);
            } else {
                out.extend(lits.into_iter().map(|l| vec![!l]));
            }
        }
        out
    }

    /// The cube `depth` rings deep of a description ([`LineCube`]'s
    /// `Display`: `r0+c14-`, `-` for none) on `board`: its lines must be
    /// exactly those rings', in order — the outer rings', or the central
    /// rings' of a split written before boardsat split from the edge.
    ///
    /// # Errors
    ///
    /// [`SolveError::BadCube`] for text that is not such a cube.
    pub fn parse(board: &Board, depth: usize, text: &str) -> Result<LineCube, SolveError> {
        let bad = || SolveError::BadCube(text.to_string());
        let mut lines = Vec::new();
        let mut rest = text;
        while !rest.is_empty() && rest != "-" {
            let kind = rest.chars().next().ok_or_else(bad)?;
            let digits: String = rest[1..].chars().take_while(char::is_ascii_digit).collect();
            let index: usize = digits.parse().map_err(|_| bad())?;
            let sign = rest[1 + digits.len()..].chars().next().ok_or_else(bad)?;
            let line = match kind {
                'r' => Line::Row(index),
                'c' => Line::Column(index),
                _ => return Err(bad()),
            };
            let on = match sign {
                '+' => true,
                '-' => false,
                _ => return Err(bad()),
            };
            lines.push((line, on));
            rest = &rest[2 + digits.len()..];
        }
        let have: Vec<Line> = lines.iter().map(|&(l, _)| l).collect();
        let order = [Rings::Outer, Rings::Central]
            .into_iter()
            .find(|&order| ring_lines(board, order, depth) == have)
            .ok_or_else(bad)?;
        Ok(LineCube {
            order,
            depth,
            lines,
        })
    }
}

/// Where `line` stands in `lines` (last when it is not there, which a
/// ring line never is).
fn position(lines: &[Line], line: Line) -> usize {
    lines.iter().position(|&l| l == line).unwrap_or(lines.len())
}

impl fmt::Display for LineCube {
    /// `r0+c14-` (row 0 occupied, column 14 empty), `-` for the root.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.lines.is_empty() {
            return f.write_str("-");
        }
        for (line, on) in &self.lines {
            write!(f, "{line}{}", if *on { '+' } else { '-' })?;
        }
        Ok(())
    }
}

/// A cube a split solves: the cube, the size of its orbit under the
/// board's whole group, and its stabilizer there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Representative {
    /// The cube.
    pub cube: LineCube,
    /// How many cubes its orbit holds under the board's symmetries.
    pub orbit: u64,
    /// The symmetries of the board that map it onto itself.
    pub stabilizer: Vec<Symmetry>,
}

/// One child of `parent` per orbit of its children under `group` (the
/// least of each orbit), each with its stabilizer in `group` and the size
/// of its orbit under the board's whole group, given that `parent`'s orbit
/// under the whole group has `parent_orbit` cubes.
#[must_use]
pub fn representatives(
    board: &Board,
    parent: &LineCube,
    group: &[Symmetry],
    parent_orbit: u64,
) -> Vec<Representative> {
    let mut out = Vec::new();
    for child in parent.children(board) {
        let images: BTreeSet<LineCube> = group.iter().map(|&s| child.image(board, s)).collect();
        if images.first() == Some(&child) {
            out.push(Representative {
                orbit: parent_orbit * images.len() as u64,
                stabilizer: child.stabilizer(board, group),
                cube: child,
            });
        }
    }
    out
}

/// The cubes of a split `depth` outer rings deep, one per orbit under the
/// board's symmetries (expanded ring by ring from the root, as
/// [`representatives`] says, [`Cubes::OnePerOrbit`]), or with
/// [`Cubes::All`] all of them (orbit 1, the whole group as their
/// "stabilizer": lex-leader constraints under it keep one placement per
/// orbit in exactly one cube).
#[must_use]
pub fn split(board: &Board, depth: usize, cubes: Cubes) -> Vec<Representative> {
    let group = Symmetry::of(board);
    let mut level = vec![Representative {
        cube: LineCube::root(Rings::Outer),
        orbit: 1,
        stabilizer: group.clone(),
    }];
    for _ in 0..depth {
        level = level
            .iter()
            .flat_map(|r| {
                if cubes == Cubes::All {
                    r.cube
                        .children(board)
                        .into_iter()
                        .map(|cube| Representative {
                            cube,
                            orbit: 1,
                            stabilizer: group.clone(),
                        })
                        .collect()
                } else {
                    representatives(board, &r.cube, &r.stabilizer, r.orbit)
                }
            })
            .collect();
    }
    level
}
