//! Domination counts split into cubes over threads.
//!
//! A *cube* fixes which of the `depth` central rings of rows and columns
//! are occupied (ring 0: the middle row and column, two of each on an
//! even side; each further ring adds the next line on both sides). The
//! `2^lines` cubes are disjoint and together exhaustive, so the count is
//! the sum of the cube counts. Each cube is counted by a fresh solver:
//!
//! - the bound as unit clauses, and in the `lines` formulation the implied
//!   line bounds ("k pieces occupy at most k lines of each direction") as
//!   unit clauses too ([`Fix::BoundAndImplied`]) — sound for counting,
//!   since every placement of at most k pieces satisfies them, and the
//!   reason a fresh solver counts much faster than the optimiser's
//!   session, which leaves them out of enumeration (BENCHMARKS.md);
//! - lex-leader constraints under the board's whole group with orbit
//!   weights ([`Session::break_symmetry`]): exact for any partition into
//!   cubes, since each orbit's leader lies in exactly one cube; a cube
//!   without leaders is refuted, and the models are the orbits;
//! - the cube as clauses over the board variables ("some square of this
//!   line", or "no square of it").
//!
//! The prototype of issue 12 also measured lex-leader orders that read line
//! occupancy first and one cube per orbit of cubes under each cube's
//! stabilizer; both need the encoder's line variables and are not ported
//! here (BENCHMARKS.md has what each gave).

use std::{
    sync::{
        atomic::{AtomicU64, AtomicUsize, Ordering},
        Mutex,
    },
    time::Instant,
};

use boardsat_encode::{
    dimacs::{Format, Header},
    Board, Config, Family, Formulation, Kind, Piece, Problem, Square, Symmetry,
};
use rustsat::{
    instances::{Cnf, ManageVars},
    types::Lit,
};

use crate::{
    cubes::CubeCount,
    jobs::{CubeJob, Split},
    Breaking, End, Fix, Interrupter, Mode, Search, Session, SolveError, SolverSpec,
};

/// The central rings fixed per cube by default: one (8 cubes on an odd
/// side, 16 on an even one), measured against 0 and 2 (BENCHMARKS.md).
pub const DEFAULT_DEPTH: usize = 1;

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
    /// `lines[j]` is occupied in cube `i`.
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

/// How [`count_split`] counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitOptions {
    /// At most `k` pieces.
    pub k: usize,
    /// Every solution has exactly `k` pieces (k is the proven optimum), so
    /// the short blocking clause is exact.
    pub uniform: bool,
    /// Central rings fixed per cube.
    pub depth: usize,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Lex-leader symmetry breaking with orbit weights.
    pub symmetry: bool,
}

/// Loads `problem` with at most `k` pieces for counting on a solver of
/// its own: the bound and, in the `lines` formulation, the implied line
/// bounds as unit clauses (see the module doc).
///
/// # Errors
///
/// Encoding and backend errors.
pub fn counting_session(
    problem: &Problem,
    k: usize,
    config: Config,
    backend: Box<dyn crate::Backend>,
) -> Result<Session, SolveError> {
    if problem.kind.dominating()
        && problem.effective_formulation(config.formulation, k) == Formulation::Lines
    {
        let mut session = Session::open(problem, k, config, backend)?;
        session.set_bound(problem.kind.bound(k))?;
        session.fix_bound(Fix::BoundAndImplied)?;
        return Ok(session);
    }
    Session::fixed(problem, k, config, backend)
}

/// Counts the (independent) dominating sets of at most `options.k` pieces
/// over the cubes of [`LineSplit::central`], one fresh solver per cube on
/// `options.threads` workers. `progress` is called after each cube with
/// the weighted count so far and the cubes done. With symmetry breaking
/// the models are the orbits.
///
/// # Errors
///
/// [`SolveError::Unsupported`] for a problem that is not domination; the
/// first error of any worker (the others stop at their next cube).
pub fn count_split(
    problem: &Problem,
    config: Config,
    options: SplitOptions,
    solver: &SolverSpec,
    stop: &Interrupter,
    progress: &(dyn Fn(u64, usize) + Sync),
) -> Result<CubeCount, SolveError> {
    if !problem.kind.dominating() {
        return Err(SolveError::Unsupported(
            "line cubes split domination counts only".to_string(),
        ));
    }
    let start = Instant::now();
    let split = LineSplit::central(&problem.board, options.depth)?;
    let next = AtomicUsize::new(0);
    let count = AtomicU64::new(0);
    let models = AtomicU64::new(0);
    let done = AtomicUsize::new(0);
    let failure: Mutex<Option<SolveError>> = Mutex::new(None);
    // Errors stop the other workers without touching the caller's flag.
    let workers = stop.child(None);
    let worker = || loop {
        if workers.is_interrupted() {
            return;
        }
        let i = next.fetch_add(1, Ordering::SeqCst);
        if i >= split.cubes.len() {
            return;
        }
        let counted = solver
            .create(Mode::Enumerate, &workers)
            .and_then(|backend| {
                let mut session = counting_session(problem, options.k, config, backend)?;
                if options.uniform {
                    session.assume_uniform_size();
                }
                if options.symmetry {
                    session.break_symmetry(Breaking::Hard)?;
                }
                for clause in split.clauses(&problem.board, i) {
                    session.backend().add_clause(&clause)?;
                }
                session.count(None, Search::PerModel, |_| {})
            });
        match counted {
            Ok(c) => {
                let total = count.fetch_add(c.count, Ordering::SeqCst) + c.count;
                models.fetch_add(c.models, Ordering::SeqCst);
                let finished = if c.end == End::Exhausted {
                    done.fetch_add(1, Ordering::SeqCst) + 1
                } else {
                    done.load(Ordering::SeqCst)
                };
                progress(total, finished);
            }
            Err(e) => {
                if let Ok(mut slot) = failure.lock() {
                    slot.get_or_insert(e);
                }
                workers.interrupt();
                return;
            }
        }
    };
    std::thread::scope(|scope| {
        for _ in 0..options.threads.max(1) {
            scope.spawn(worker);
        }
    });
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(e);
    }
    let cubes_done = done.load(Ordering::SeqCst);
    Ok(CubeCount {
        count: count.load(Ordering::SeqCst),
        models: models.load(Ordering::SeqCst),
        cubes_done,
        cubes_total: split.cubes.len(),
        end: if cubes_done == split.cubes.len() {
            End::Exhausted
        } else {
            End::Stopped
        },
        elapsed: start.elapsed(),
        placements: Vec::new(),
    })
}

/// The image of `line` under `sym` (a row of a square board may become a
/// column).
fn line_image(board: &Board, sym: Symmetry, line: Line) -> Line {
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

impl LineSplit {
    /// One cube per orbit of cubes under the board's symmetries (the
    /// least in the order of [`LineSplit::cubes`]), with the orbit's size:
    /// a symmetry maps the placements of one cube onto those of its image
    /// one to one, so the weighted sum over the representatives is the
    /// count. The lines of [`LineSplit::central`] are closed under the
    /// symmetries of the board.
    #[must_use]
    pub fn orbits(&self, board: &Board) -> Vec<(usize, u64)> {
        let index: std::collections::HashMap<&Vec<bool>, usize> =
            self.cubes.iter().enumerate().map(|(i, c)| (c, i)).collect();
        let position: std::collections::HashMap<Line, usize> = self
            .lines
            .iter()
            .enumerate()
            .map(|(j, &l)| (l, j))
            .collect();
        let mut out = Vec::new();
        for (i, cube) in self.cubes.iter().enumerate() {
            let mut images = std::collections::BTreeSet::new();
            for sym in Symmetry::of(board) {
                let mut image = vec![false; cube.len()];
                for (j, &on) in cube.iter().enumerate() {
                    // The lines are closed under the symmetries; a line
                    // outside them would be a bug, kept as the identity.
                    let to = position
                        .get(&line_image(board, sym, self.lines[j]))
                        .copied()
                        .unwrap_or(j);
                    image[to] = on;
                }
                images.insert(index.get(&image).copied().unwrap_or(i));
            }
            if images.first() == Some(&i) {
                out.push((i, images.len() as u64));
            }
        }
        out
    }
}

/// A domination count of at most `k` pieces split for the jobs pipeline
/// ([`crate::jobs::write_split`], `boardsat merge`): the encoding of
/// `boardsat dimacs` (the implied line bounds included as clauses), one
/// variable per split line defined as "some square of the line is
/// occupied", and one cube per occupancy pattern of the `depth` central
/// rings — with `reduce`, one per orbit of patterns, weighted by the
/// orbit's size. Each job counts every placement of its cube (no
/// symmetry breaking), so `merge` sums exact counts.
///
/// # Errors
///
/// [`SolveError::Unsupported`] for a problem that is not domination on a
/// square board; encoding errors.
pub fn split(
    problem: &Problem,
    k: usize,
    depth: usize,
    reduce: bool,
    config: Config,
    format: Format,
) -> Result<Split, SolveError> {
    if !problem.kind.dominating() || !problem.board.is_square() {
        return Err(SolveError::Unsupported(
            "cubes splits domination counts on square boards ('cubes domination N -k K')"
                .to_string(),
        ));
    }
    let board = problem.board;
    let lines = LineSplit::central(&board, depth)?;
    let mut vars = problem.var_manager();
    let mut base = Cnf::new();
    let encoding = problem.encode(k, config, &mut base, &mut vars)?;
    let mut defined = Vec::new();
    for line in &lines.lines {
        let w = vars.new_lit();
        let squares = line.lits(&board);
        let mut some: Vec<Lit> = vec![!w];
        some.extend(&squares);
        base.add_clause(some.into_iter().collect());
        for s in squares {
            base.add_binary(!s, w);
        }
        defined.push(w);
    }
    let picked: Vec<(usize, u64)> = if reduce {
        lines.orbits(&board)
    } else {
        (0..lines.cubes.len()).map(|i| (i, 1)).collect()
    };
    let cubes: Vec<CubeJob> = picked
        .iter()
        .enumerate()
        .map(|(id, &(i, weight))| CubeJob {
            id: format!("cube-{id:05}"),
            weight,
            description: lines.describe(i),
            lits: defined
                .iter()
                .zip(&lines.cubes[i])
                .map(|(&w, &on)| if on { w } else { !w })
                .collect(),
        })
        .collect();
    let mut header = Header::for_encoding(&encoding, None);
    header.comments.push(format!(
        "{} cubes of depth {depth} for {problem} with at most {k} pieces ({}): variables {}..={} are the occupancy of the lines {}",
        cubes.len(),
        if reduce { "one per orbit of the board's symmetries, weighted by its size" } else { "every cube" },
        encoding.stats.n_vars + 1,
        vars.n_used(),
        lines.lines.iter().map(ToString::to_string).collect::<Vec<_>>().join(" "),
    ));
    if format == Format::Inccnf {
        header.comments.push(format!(
            "one 'a' line per cube after the clauses, in the order of the 'c cube' lines; count cube I (from 0) with: boardsat count-dimacs {} --cube I",
            crate::jobs::ICNF
        ));
    }
    Ok(Split {
        header,
        base,
        n_vars: vars.n_used(),
        cubes,
        format,
    })
}

impl Split {
    /// The split `boardsat cubes` writes: `cubes queens N` without `k`
    /// ([`Split::queens`], `reduce` halving), `cubes domination N -k K`
    /// with it ([`split`] of queen domination on the n × n board, `reduce`
    /// one cube per orbit).
    ///
    /// # Errors
    ///
    /// [`SolveError::Unsupported`] for any other family or a missing or
    /// extra k; encoding errors.
    pub fn of(
        family: Family,
        n: usize,
        k: Option<usize>,
        depth: usize,
        reduce: bool,
        config: Config,
        format: Format,
    ) -> Result<Split, SolveError> {
        match (family, k) {
            (Family::Queens, None) => Split::queens(n, depth, reduce, config, format),
            (Family::Domination, Some(k)) => {
                let problem = Problem::new(Board::square(n)?, Piece::Queen, Kind::Domination);
                split(&problem, k, depth, reduce, config, format)
            }
            _ => Err(SolveError::Unsupported(
                "cubes splits 'cubes queens N' and 'cubes domination N -k K' only".to_string(),
            )),
        }
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
}
