//! Counting N-queens placements by cubes, on every core.
//!
//! A *cube* fixes the queens of the first `depth` rows (a non-attacking
//! prefix). The cubes are disjoint and, together, exhaustive: every
//! placement has exactly one prefix. Each cube is counted by a fresh
//! solver, so the blocking clauses of one cube never slow down another, and
//! the cubes are spread over worker threads. Totals are sums, so they do
//! not depend on the order in which the cubes finish.
//!
//! Two exact reductions:
//! - **Mirror halving**: the left–right mirror maps placements whose
//!   first-row queen is in column c onto those with it in column n−1−c, one
//!   to one. Only cubes with c < n/2 are counted, with weight 2, plus, for
//!   odd n, the middle column with weight 1.
//! - **Symmetry breaking**: lex-leader constraints keep one placement per
//!   orbit of the 8 symmetries, and each counts for its orbit size
//!   ([`Session::break_symmetry`]). It subsumes halving; the two are not
//!   combined ([`Reduction`] is one of the three).

use std::{
    sync::{
        atomic::{AtomicU64, AtomicUsize, Ordering},
        Mutex,
    },
    time::{Duration, Instant},
};

use boardsat_encode::{check::attacks, Config, Piece, Placement, Problem, Square};

use crate::{Breaking, End, Interrupter, Mode, Search, Session, SolveError, SolverSpec};

/// A fixed prefix: the queen's column in each of the first rows, and how
/// many placements each placement found under it stands for.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cube {
    /// Column of the queen in rows `0..columns.len()`.
    pub columns: Vec<usize>,
    /// Weight of each placement found (2 for a mirrored half, else 1).
    pub weight: u64,
}

impl Cube {
    /// The occupied squares the cube fixes.
    #[must_use]
    pub fn squares(&self) -> Vec<Square> {
        self.columns
            .iter()
            .enumerate()
            .map(|(r, &c)| Square::new(r, c))
            .collect()
    }
}

/// How a count is reduced by the board's symmetries (see the module doc).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Reduction {
    /// Every placement is counted.
    None,
    /// Mirror halving: the left half of the first row, doubled.
    Halve,
    /// Lex-leader symmetry breaking: one placement per orbit, weighted by
    /// the orbit's size.
    #[default]
    Symmetry,
}

impl Reduction {
    /// Lower-case name for reports.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Reduction::None => "none",
            Reduction::Halve => "mirror halving",
            Reduction::Symmetry => "lex-leader symmetry breaking with orbit weights",
        }
    }
}

/// How to split and reduce a count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CubeOptions {
    /// Rows fixed per cube (0: one cube, the whole problem).
    pub depth: usize,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// The symmetry reduction.
    pub reduction: Reduction,
    /// Keep every cube's placements ([`CubeCount::placements`]), for a
    /// proof that each cube's count is complete.
    pub record: bool,
}

impl Default for CubeOptions {
    fn default() -> Self {
        CubeOptions::with(None, None, Reduction::Symmetry)
    }
}

impl CubeOptions {
    /// The options with `reduction`, `depth` rows per cube (default 2) and
    /// `threads` workers (default every core), not recording placements.
    #[must_use]
    pub fn with(depth: Option<usize>, threads: Option<usize>, reduction: Reduction) -> Self {
        CubeOptions {
            depth: depth.unwrap_or(2),
            threads: threads
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
                .max(1),
            reduction,
            record: false,
        }
    }
}

/// The non-attacking prefixes of `depth` rows on an n × n board, in
/// lexicographic order, weighted for mirror halving when `halve` (which
/// fixes at least the first row).
#[must_use]
pub fn queen_cubes(n: usize, depth: usize, halve: bool) -> Vec<Cube> {
    // Halving splits on the first row, so it needs at least one fixed row.
    let depth = if halve { depth.max(1) } else { depth }.min(n);
    let mut out = Vec::new();
    let mut prefix = Vec::new();
    extend(n, depth, halve, &mut prefix, &mut out);
    out
}

fn extend(n: usize, depth: usize, halve: bool, prefix: &mut Vec<usize>, out: &mut Vec<Cube>) {
    if prefix.len() == depth {
        let weight = match prefix.first() {
            Some(&c) if halve && 2 * c + 1 < n => 2,
            Some(&c) if halve && 2 * c + 1 > n => return,
            _ => 1,
        };
        out.push(Cube {
            columns: prefix.clone(),
            weight,
        });
        return;
    }
    let row = prefix.len();
    for col in 0..n {
        let here = Square::new(row, col);
        let free = prefix
            .iter()
            .enumerate()
            .all(|(r, &c)| !attacks(Piece::Queen, Square::new(r, c), here));
        if free {
            prefix.push(col);
            extend(n, depth, halve, prefix, out);
            prefix.pop();
        }
    }
}

/// The result of a cube count.
#[derive(Clone, Debug, PartialEq)]
pub struct CubeCount {
    /// Placements, weighted (the answer).
    pub count: u64,
    /// Solver models (fundamental solutions under symmetry breaking).
    pub models: u64,
    /// Cubes counted to the end.
    pub cubes_done: usize,
    /// Cubes in all.
    pub cubes_total: usize,
    /// Whether every cube was exhausted, or how the count stopped.
    pub end: End,
    /// Wall time.
    pub elapsed: Duration,
    /// With [`CubeOptions::record`]: each cube counted to the end, with the
    /// placements its solver found (one per orbit under symmetry breaking).
    pub placements: Vec<(Cube, Vec<Placement>)>,
}

/// Counts the n-queens placements with `options`, building each cube's
/// solver from `solver`. `stop` stops every worker; `progress` is called
/// after each cube with the weighted count so far and the cubes done.
///
/// # Errors
///
/// The first error of any worker (the others stop at their next cube).
pub fn count_queens(
    n: usize,
    config: Config,
    options: CubeOptions,
    solver: &SolverSpec,
    stop: &Interrupter,
    progress: &(dyn Fn(u64, usize) + Sync),
) -> Result<CubeCount, SolveError> {
    let problem = Problem::queens(n)?;
    let cubes = queen_cubes(n, options.depth, options.reduction == Reduction::Halve);
    let symmetry = options.reduction == Reduction::Symmetry;
    let (mut counted, mut recorded) = run_cubes(
        cubes.len(),
        options.threads,
        stop,
        progress,
        |i, workers| {
            let cube = &cubes[i];
            let (c, m, end, placements) = count_cube(
                &problem,
                config,
                symmetry,
                cube,
                solver,
                workers,
                options.record,
            )?;
            Ok((c.saturating_mul(cube.weight), m, end, placements))
        },
    )?;
    recorded.sort_by(|a, b| cubes[a.0].columns.cmp(&cubes[b.0].columns));
    if options.record {
        counted.placements = recorded
            .into_iter()
            .map(|(i, list)| (cubes[i].clone(), list))
            .collect();
    }
    Ok(counted)
}

/// Counts `total` cubes on `threads` workers: `work(i, stop)` counts cube
/// `i` (its weighted count, the solver models, how it ended, and what the
/// caller keeps of it) under a stop flag that the first error raises for
/// every worker. `progress` sees the weighted count so far and the cubes
/// done after each cube. Returns the count (without placements) and what
/// `work` kept of each cube counted to the end, with its index.
///
/// # Errors
///
/// The first error of any worker (the others stop at their next cube).
pub(crate) fn run_cubes<T: Send>(
    total: usize,
    threads: usize,
    stop: &Interrupter,
    progress: &(dyn Fn(u64, usize) + Sync),
    work: impl Fn(usize, &Interrupter) -> Result<(u64, u64, End, T), SolveError> + Sync,
) -> Result<(CubeCount, Vec<(usize, T)>), SolveError> {
    let start = Instant::now();
    let next = AtomicUsize::new(0);
    let count = AtomicU64::new(0);
    let models = AtomicU64::new(0);
    let done = AtomicUsize::new(0);
    let failure: Mutex<Option<SolveError>> = Mutex::new(None);
    let kept: Mutex<Vec<(usize, T)>> = Mutex::new(Vec::new());
    // Errors stop the other workers without touching the caller's flag.
    let workers = stop.child(None);
    let worker = || loop {
        if workers.is_interrupted() {
            return;
        }
        let i = next.fetch_add(1, Ordering::SeqCst);
        if i >= total {
            return;
        }
        match work(i, &workers) {
            Ok((c, m, end, extra)) => {
                let sum = count.fetch_add(c, Ordering::SeqCst).saturating_add(c);
                models.fetch_add(m, Ordering::SeqCst);
                let finished = if end == End::Exhausted {
                    if let Ok(mut list) = kept.lock() {
                        list.push((i, extra));
                    }
                    done.fetch_add(1, Ordering::SeqCst) + 1
                } else {
                    done.load(Ordering::SeqCst)
                };
                progress(sum, finished);
            }
            // Stopped by the caller (a signal, the time limit) while this
            // cube was being loaded: the cube is unfinished, the count so
            // far stands.
            Err(_) if stop.is_interrupted() => return,
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
        for _ in 0..threads.max(1) {
            scope.spawn(worker);
        }
    });
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(e);
    }
    let cubes_done = done.load(Ordering::SeqCst);
    let counted = CubeCount {
        count: count.load(Ordering::SeqCst),
        models: models.load(Ordering::SeqCst),
        cubes_done,
        cubes_total: total,
        placements: Vec::new(),
        end: if cubes_done == total {
            End::Exhausted
        } else {
            End::Stopped
        },
        elapsed: start.elapsed(),
    };
    Ok((counted, kept.into_inner().unwrap_or_default()))
}

/// Counts one cube on a fresh solver: (weighted-by-orbit count, models,
/// end, and with `record` the placements found).
fn count_cube(
    problem: &Problem,
    config: Config,
    symmetry: bool,
    cube: &Cube,
    solver: &SolverSpec,
    stop: &Interrupter,
    record: bool,
) -> Result<(u64, u64, End, Vec<Placement>), SolveError> {
    let backend = solver.create(Mode::Enumerate, stop)?;
    let n = problem.board.rows();
    let mut session = Session::fixed(problem, n, config, backend)?;
    if symmetry {
        session.break_symmetry(Breaking::Hard)?;
    }
    session.fix_occupied(&cube.squares())?;
    if record {
        session.record_blocked();
    }
    let c = session.count(None, Search::PerModel, |_| {})?;
    Ok((c.count, c.models, c.end, session.blocked().to_vec()))
}
