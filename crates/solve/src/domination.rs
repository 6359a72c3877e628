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

use boardsat_encode::{Board, Config, Formulation, Problem};
use rustsat::types::Lit;

use crate::{
    cubes::CubeCount, Breaking, End, Fix, Interrupter, Mode, Search, Session, SolveError,
    SolverSpec,
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
                .map(|c| board.lit(boardsat_encode::Square::new(r, c)))
                .collect(),
            Line::Column(c) => (0..board.rows())
                .map(|r| board.lit(boardsat_encode::Square::new(r, c)))
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
}
