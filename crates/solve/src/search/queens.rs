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
//!   ([`crate::search::session::Session::break_symmetry`]). It subsumes halving; the two are not
//!   combined ([`Reduction`] is one of the three).

use boardsat_encode::{check::attacks, Encoding, Piece, Placement, Square};

use crate::{
    backend::Mode,
    error::SolveError,
    search::{
        context::Context,
        count::{End, Keep, Reduction},
        pool::{run_cubes, CubeCount, CubesDone, FirstEncoding},
        session::{Base, Breaking, Fix},
    },
    stop::Interrupter,
};

/// The rows fixed per cube by default: two (BENCHMARKS.md).
pub const DEFAULT_DEPTH: usize = 2;

/// A fixed prefix: the queen's column in each of the first rows, and how
/// many placements each placement found under it stands for.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct QueenCube {
    /// Column of the queen in rows `0..columns.len()`.
    pub columns: Vec<usize>,
    /// Weight of each placement found (2 for a mirrored half, else 1).
    pub weight: u64,
}

impl QueenCube {
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

/// How to split and reduce a count (on the context's threads).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CubeOptions {
    /// Rows fixed per cube (0: one cube, the whole problem).
    pub depth: usize,
    /// The symmetry reduction.
    pub reduction: Reduction,
    /// What each cube's count keeps ([`Keep::Placements`]: for a proof
    /// that each cube's count is complete).
    pub keep: Keep,
}

impl Default for CubeOptions {
    fn default() -> Self {
        CubeOptions {
            depth: DEFAULT_DEPTH,
            reduction: Reduction::Symmetry,
            keep: Keep::Count,
        }
    }
}

/// The non-attacking prefixes of `depth` rows on an n × n board, in
/// lexicographic order, weighted for [`Reduction::Halve`] (which fixes at
/// least the first row); the other reductions keep every prefix with
/// weight 1.
#[must_use]
pub fn queen_cubes(n: usize, depth: usize, reduction: Reduction) -> Vec<QueenCube> {
    // Halving splits on the first row, so it needs at least one fixed row.
    let depth = match reduction {
        Reduction::Halve => depth.max(1),
        Reduction::None | Reduction::Symmetry => depth,
    }
    .min(n);
    let mut out = Vec::new();
    let mut prefix = Vec::new();
    extend(n, depth, reduction, &mut prefix, &mut out);
    out
}

fn extend(
    n: usize,
    depth: usize,
    reduction: Reduction,
    prefix: &mut Vec<usize>,
    out: &mut Vec<QueenCube>,
) {
    if prefix.len() == depth {
        let halve = reduction == Reduction::Halve;
        let weight = match prefix.first() {
            Some(&c) if halve && 2 * c + 1 < n => 2,
            Some(&c) if halve && 2 * c + 1 > n => return,
            _ => 1,
        };
        out.push(QueenCube {
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
            extend(n, depth, reduction, prefix, out);
            prefix.pop();
        }
    }
}

/// The result of an N-queens cube count.
#[derive(Debug)]
pub struct QueensCount {
    /// The count over the cubes.
    pub counted: CubeCount,
    /// With [`Keep::Placements`]: each cube counted to the end, in the
    /// order of [`queen_cubes`], with the placements its solver found (one
    /// per orbit under symmetry breaking).
    pub placements: Vec<(QueenCube, Vec<Placement>)>,
    /// The encoding the cubes' solvers ran on (without a cube's queens),
    /// `None` when no cube was loaded.
    pub encoding: Option<Encoding>,
}

/// Counts the placements of `ctx`'s problem, N-queens, with `options`
/// on the context's workers, each cube's solver built from the context's
/// spec and loaded with the base formula, encoded once. The context's
/// stop flag stops every worker; `progress` is called after each cube
/// with the weighted count so far and the cubes done.
///
/// # Errors
///
/// [`SolveError::NotSplit`] for a problem that is not N-queens; the
/// first error of any worker (the others stop at their next cube).
pub fn count_queens(
    ctx: &Context<'_>,
    options: CubeOptions,
    progress: &(dyn Fn(u64, CubesDone) + Sync),
) -> Result<QueensCount, SolveError> {
    let problem = ctx.problem;
    let n = problem.board.rows();
    if problem.kind != boardsat_encode::Kind::Independence
        || problem.piece != Piece::Queen
        || !problem.board.is_square()
    {
        return Err(SolveError::NotSplit {
            problem: problem.to_string(),
            split: "queen cubes (N-queens only)",
        });
    }
    let base = Base::new(&problem, n, ctx.config, Fix::Bound)?;
    let cubes = queen_cubes(n, options.depth, options.reduction);
    let first = FirstEncoding::default();
    let (counted, mut kept) =
        run_cubes(cubes.len(), ctx.threads, ctx.stop, progress, |i, stop| {
            let cube = &cubes[i];
            let (c, m, end, placements) = count_cube(ctx, &base, options, cube, stop, &first)?;
            Ok((c.saturating_mul(cube.weight), m, end, placements))
        })?;
    kept.sort_by(|a, b| cubes[a.0].columns.cmp(&cubes[b.0].columns));
    let placements = match options.keep {
        Keep::Count | Keep::Traced => Vec::new(),
        Keep::Placements => kept
            .into_iter()
            .map(|(i, list)| (cubes[i].clone(), list))
            .collect(),
    };
    // A split without cubes (2 × 2, 3 × 3) loads no solver; its encoding
    // is the base's all the same.
    let encoding = first
        .into_inner()
        .or_else(|| cubes.is_empty().then(|| base.encoding().facts()));
    Ok(QueensCount {
        counted,
        placements,
        encoding,
    })
}

/// Counts one cube on a fresh solver obeying `stop`, loaded with `base`:
/// (weighted-by-orbit count, models, end, and with [`Keep::Placements`]
/// the placements found).
fn count_cube(
    ctx: &Context<'_>,
    base: &Base,
    options: CubeOptions,
    cube: &QueenCube,
    stop: &Interrupter,
    first: &FirstEncoding,
) -> Result<(u64, u64, End, Vec<Placement>), SolveError> {
    let backend = ctx.solver.create(Mode::Enumerate, stop)?;
    let mut session = base.load(backend)?;
    first.offer(session.encoding());
    if options.reduction == Reduction::Symmetry {
        session.break_symmetry(Breaking::Hard)?;
    }
    session.fix_occupied(&cube.squares())?;
    if options.keep == Keep::Placements {
        session.record_blocked();
    }
    let c = session.count(None, |_| {})?;
    Ok((c.count, c.models, c.end, session.blocked().to_vec()))
}
