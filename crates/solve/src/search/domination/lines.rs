//! The rows and columns a domination split fixes: the central rings, the
//! cubes of their occupancy patterns, and how the board's symmetries act
//! on them (orbits of cubes, a cube's stabilizer).

use boardsat_encode::{Board, Symmetry};
use rustsat::types::Lit;

use crate::{
    error::SolveError,
    search::lex::{line_image, Line},
};

/// The indices of the lines in the `depth` innermost rings of a side of
/// `n` lines: ring 0 the middle one (two when n is even), each further
/// ring one more on both sides.
fn rings(n: usize, depth: usize) -> Vec<usize> {
    let (low, high) = ((n - 1) / 2, n / 2);
    let mut out = Vec::new();
    for i in 0..depth {
        if let Some(l) = low.checked_sub(i) {
            out.push(l);
        }
        if high + i < n && high + i != low.wrapping_sub(i) {
            out.push(high + i);
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// A split of a domination count: the lines whose occupancy the cubes
/// fix, and the cubes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineSplit {
    /// The rows and columns of the `depth` central rings.
    pub lines: Vec<Line>,
    /// One cube per occupancy pattern: `cubes[i][j]` says whether line
    /// `lines[j]` is occupied in cube `i`, which is bit `j` of `i`.
    pub cubes: Vec<Vec<bool>>,
}

impl LineSplit {
    /// The split of `board` on its `depth` central rings of rows and
    /// columns (every pattern of their occupancy; `depth` 0 is one cube).
    ///
    /// # Errors
    ///
    /// [`SolveError::Unsupported`] for more than 16 lines (65,536 cubes).
    pub fn central(board: &Board, depth: usize) -> Result<Self, SolveError> {
        let mut lines: Vec<Line> = rings(board.rows(), depth)
            .into_iter()
            .map(Line::Row)
            .collect();
        lines.extend(rings(board.cols(), depth).into_iter().map(Line::Column));
        if lines.len() > 16 {
            return Err(SolveError::Unsupported(format!(
                "--depth {depth} fixes {} lines, 2^{} cubes; at most 16 lines",
                lines.len(),
                lines.len()
            )));
        }
        let cubes = (0..1u32 << lines.len())
            .map(|m| (0..lines.len()).map(|j| m >> j & 1 == 1).collect())
            .collect();
        Ok(LineSplit { lines, cubes })
    }

    /// Cube `i` as clauses over the board variables: an occupied line is
    /// one clause (some square of it), an empty one a unit per square.
    #[must_use]
    pub fn clauses(&self, board: &Board, i: usize) -> Vec<Vec<Lit>> {
        let mut out = Vec::new();
        let Some(cube) = self.cubes.get(i) else {
            return out;
        };
        for (&line, &occupied) in self.lines.iter().zip(cube) {
            let lits = line.lits(board);
            if occupied {
                out.push(lits);
            } else {
                out.extend(lits.into_iter().map(|l| vec![!l]));
            }
        }
        out
    }

    /// Cube `i` in words without spaces: `r5+c6-` (row 5 occupied, column
    /// 6 empty), `-` for the whole problem.
    #[must_use]
    pub fn describe(&self, i: usize) -> String {
        let Some(cube) = self.cubes.get(i) else {
            return "-".to_string();
        };
        if cube.is_empty() {
            return "-".to_string();
        }
        self.lines
            .iter()
            .zip(cube)
            .map(|(line, &on)| format!("{line}{}", if on { '+' } else { '-' }))
            .collect()
    }
}

impl LineSplit {
    /// The image of cube `i` under `sym`, as an index into
    /// [`LineSplit::cubes`]. The lines of [`LineSplit::central`] are closed
    /// under the symmetries of the board (a line outside them would be a
    /// bug, kept in place).
    fn cube_image(&self, board: &Board, sym: Symmetry, i: usize) -> usize {
        let Some(cube) = self.cubes.get(i) else {
            return i;
        };
        let mut image = vec![false; cube.len()];
        for (j, &on) in cube.iter().enumerate() {
            let to = self
                .lines
                .iter()
                .position(|&l| l == line_image(board, sym, self.lines[j]))
                .unwrap_or(j);
            image[to] = on;
        }
        // Cube m occupies line j exactly when bit j of m is set
        // (LineSplit::central).
        image
            .iter()
            .enumerate()
            .fold(0, |m, (j, &on)| m | usize::from(on) << j)
    }

    /// One cube per orbit of cubes under the board's symmetries (the
    /// least in the order of [`LineSplit::cubes`]), with the orbit's size:
    /// a symmetry maps the placements of one cube onto those of its image
    /// one to one, so the weighted sum over the representatives is the
    /// count.
    #[must_use]
    pub fn orbits(&self, board: &Board) -> Vec<(usize, u64)> {
        let mut out = Vec::new();
        for i in 0..self.cubes.len() {
            let images: std::collections::BTreeSet<usize> = Symmetry::of(board)
                .into_iter()
                .map(|sym| self.cube_image(board, sym, i))
                .collect();
            if images.first() == Some(&i) {
                out.push((i, images.len() as u64));
            }
        }
        out
    }

    /// The symmetries of `board` that map cube `i` onto itself, identity
    /// first.
    #[must_use]
    pub fn stabilizer(&self, board: &Board, i: usize) -> Vec<Symmetry> {
        Symmetry::of(board)
            .into_iter()
            .filter(|&sym| self.cube_image(board, sym, i) == i)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rings_are_central_and_symmetric() {
        assert_eq!(rings(13, 1), vec![6]);
        assert_eq!(rings(13, 2), vec![5, 6, 7]);
        assert_eq!(rings(12, 1), vec![5, 6]);
        assert_eq!(rings(12, 2), vec![4, 5, 6, 7]);
        assert_eq!(rings(1, 3), vec![0]);
        assert_eq!(rings(2, 3), vec![0, 1]);
        for n in 1..12 {
            for d in 0..7 {
                let r = rings(n, d);
                assert!(r.iter().all(|&i| r.contains(&(n - 1 - i))), "{n} {d}");
            }
        }
    }

    #[test]
    fn cube_orbits_cover_every_cube_once() {
        for n in 1..=9 {
            let board = Board::square(n).unwrap();
            for depth in 0..=3 {
                let split = LineSplit::central(&board, depth).unwrap();
                let orbits = split.orbits(&board);
                let total: u64 = orbits.iter().map(|&(_, w)| w).sum();
                assert_eq!(total, split.cubes.len() as u64, "n = {n}, depth {depth}");
                assert!(orbits.iter().all(|&(_, w)| [1, 2, 4, 8].contains(&w)));
                if depth > 0 && n > 1 {
                    assert!(orbits.len() < split.cubes.len(), "n = {n}, depth {depth}");
                }
            }
        }
    }

    #[test]
    fn a_stabilizer_fixes_its_cube_and_has_the_orbit_s_index() {
        for (rows, cols) in [(5, 5), (6, 6), (7, 7), (4, 6), (5, 7)] {
            let board = Board::new(rows, cols).unwrap();
            let group = Symmetry::of(&board).len() as u64;
            for depth in 0..=2 {
                let split = LineSplit::central(&board, depth).unwrap();
                for (i, size) in split.orbits(&board) {
                    let stabilizer = split.stabilizer(&board, i);
                    assert_eq!(stabilizer.first(), Some(&Symmetry::Identity));
                    assert_eq!(stabilizer.len() as u64 * size, group, "{rows}x{cols} {i}");
                    for sym in stabilizer {
                        assert_eq!(split.cube_image(&board, sym, i), i);
                    }
                }
            }
        }
    }
}
