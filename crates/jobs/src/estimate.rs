//! Sizing a split before running it: solve a random sample of its cubes,
//! each as its job would (the cube's own formula, counted by blocking
//! clauses on a fresh solver), and project the total CPU time.
//!
//! The sample is drawn without replacement, uniformly over the cubes (a
//! seeded generator, so a run can be repeated). With `n` of `N` cubes
//! sampled, mean time `m` and sample standard deviation `s`, the
//! projected total is `N·m`; its interval is `N·m ± t·N·s/√n·√((N−n)/(N−1))`
//! (Student's t at 95 % for `n − 1` degrees of freedom, with the finite
//! population correction), so a sample of every cube projects exactly the
//! measured total — unless a cube was projected from a piece (below),
//! which is an estimate itself: the interval then has no correction. A
//! sample of one cube (of several, or projected from a piece) has no
//! interval: one time measures no spread, and Student's t has no degree
//! of freedom. A cube stopped by the per-cube limit counts with the
//! limit as its time: the projection is then a lower bound and says so.
//!
//! A domination cube stopped by the limit is not left at the limit: it is
//! split by the next ring of rows and columns, one of its pieces is drawn
//! at random and solved the same way (split again if it too is stopped),
//! and the cube is projected as the piece's time and models times the
//! number of pieces it was drawn from (Knuth's estimator of a tree's
//! size). That is an unbiased estimate of the cube's pieces run as jobs
//! of a deeper split (`--depth` one ring more for that cube), the way a
//! cluster would run a cube too long for one job: what [`estimate`]
//! projects for an exported split. The in-process run solves such a cube
//! whole on one solver instead, which learns across its pieces and costs
//! less than the pieces on fresh solvers; [`estimate_in_process`] measures
//! that difference one ring below the piece it solved (a few of the
//! piece's own pieces against the piece) and divides the projection by it
//! once per ring ([`INFLATION_SAMPLE`]). Only when the rings run out
//! (every row and column fixed) does the limit stand in, and the
//! projection become a lower bound. N-queens splits are not refined.
//!
//! The times are CPU times of each cube's solver (its thread's, from the
//! kernel: [`boardsat_solve::stop::thread_cpu`]), and the per-cube limit
//! is CPU time too, so a sample drawn on a loaded machine measures and
//! refines the same cubes as on an idle one (where the kernel gives no
//! thread CPU time, both are wall time: use no more `threads` than free
//! cores there).
//!
//! A refutation (`refute`: the split's bound is below the optimum, so
//! every cube should hold no placement) is sampled as its jobs would
//! solve it, each cube on a solver in [`Mode::Refute`]. A bound that
//! cannot be refuted is caught, not projected: a placement of the bound
//! is first searched for as `solve` searches (for up to [`PROBE`]), and
//! any sampled cube's first model ends the estimate too; either placement
//! is accepted by the independent checker before the error says so.

use std::{
    sync::Mutex,
    time::{Duration, Instant},
};

use boardsat_encode::{
    card::Bound,
    check::{check, Placement},
    Config, Problem,
};
use boardsat_solve::{
    backend::{spec::SolverSpec, Backend, Mode, Status},
    error::SolveError,
    formula::dimacs::Formula,
    search::{
        count::End,
        domination::{cube_clauses, REFUTATION_DEPTH},
        lex::LexOrder,
        pool::{run_cubes, Cubes},
        rings::{representatives, ring_lines, split as split_cubes, LineCube, Representative},
    },
    stop::{thread_cpu, Interrupter, StopReason},
    task::{
        solve::{solve, Optimiser},
        Instance,
    },
};

use crate::{
    error::{EstimateError, JobsError},
    run::{CountProof, Counting},
    split::{Split, SplitError},
};

/// How long a refutation's first search for a placement runs: a minute,
/// short next to a refutation worth estimating, and long enough for
/// `solve` to place γ(Q_n) queens on the boards up to n = 22
/// (BENCHMARKS.md, "Refutation estimates that refuse a bound").
pub const PROBE: Duration = Duration::from_secs(60);

/// How [`estimate`] samples.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EstimateOptions {
    /// Cubes to solve (all of them when the split has fewer).
    pub sample: usize,
    /// A cube's solver stops after this long; `None`: never.
    pub cube_limit: Option<Duration>,
    /// The seed of the random choice.
    pub seed: u64,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// `Some(probe)`: the split is a refutation of its bound (a domination
    /// split); the whole formula is searched for a placement for up to
    /// `probe` first (zero: no first search), and a placement found there
    /// or in a sampled cube ends the estimate (see the module doc).
    pub refute: Option<Duration>,
}

/// One sampled cube.
#[derive(Clone, Debug, PartialEq)]
pub struct Sampled {
    /// The cube's id (`cube-00042`).
    pub id: String,
    /// Its projected time: its solver's CPU time when it was solved
    /// whole, else the piece's times `pieces`, divided by `deflation`.
    pub seconds: f64,
    /// Projected models found.
    pub count: u64,
    /// Whether the cube, or the piece it is projected from, was solved to
    /// the end (not stopped by the limit).
    pub complete: bool,
    /// How many pieces the piece solved stands for: 1 when the cube was
    /// solved whole (see the module doc).
    pub pieces: u64,
    /// The piece solved (`r9+c9-r8+…`, the cube's own description when it
    /// was solved whole).
    pub piece: String,
    /// The wall time spent on the cube: its solver's, and its pieces'.
    pub spent: f64,
    /// What the pieces' projection was divided by to stand for the cube
    /// solved whole, as the in-process run solves it (1: not deflated;
    /// see [`INFLATION_SAMPLE`]).
    pub deflation: f64,
}

/// Solves a cube's formula, given how many rings its cube fixes: what the
/// solver did, or `None` when it was stopped from outside.
type SolveCube<'a> = dyn Fn(&Formula, usize) -> Result<Option<Solved>, SolveError> + 'a;

/// Samples cube `i` with a seed, solving each formula by the given call
/// ([`sample`], or an in-process cube's [`knuth`]).
type SampleOne<'a> =
    dyn Fn(usize, u64, &SolveCube<'_>) -> Result<Option<Sampled>, SolveError> + Sync + 'a;

/// What one solver did with one formula.
struct Solved {
    seconds: f64,
    count: u64,
    complete: bool,
}

/// What [`estimate`] projects.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// Cubes of the split.
    pub cubes: usize,
    /// The cubes solved, in the order they were drawn.
    pub sampled: Vec<Sampled>,
    /// The projected total CPU time of every cube, in seconds.
    pub total: f64,
    /// The 95 % interval of the projection (equal to `total` when every
    /// cube was sampled); `None` from a sample of one cube that stands
    /// for more than itself, whose spread is unknown.
    pub interval: Option<(f64, f64)>,
    /// Whether a sampled cube reached the per-cube limit, which makes
    /// `total` and the interval lower bounds.
    pub lower_bound: bool,
}

impl Estimate {
    /// The longest sampled cube.
    #[must_use]
    pub fn longest(&self) -> Option<&Sampled> {
        self.sampled
            .iter()
            .max_by(|a, b| a.seconds.total_cmp(&b.seconds))
    }

    /// The projection from sampled times `seconds` out of `cubes` cubes
    /// (see the module doc).
    fn project(cubes: usize, sampled: Vec<Sampled>) -> Estimate {
        let times: Vec<f64> = sampled.iter().map(|s| s.seconds).collect();
        let n = times.len() as f64;
        let big_n = cubes as f64;
        let mean = times.iter().sum::<f64>() / n.max(1.0);
        let total = big_n * mean;
        // A cube projected from a random piece is itself an estimate: the
        // finite population correction, which makes a sample of every
        // cube exact, no longer applies.
        let pieced = sampled.iter().any(|s| s.pieces > 1);
        let half = if times.len() >= cubes && !pieced {
            Some(0.0)
        } else if times.len() < 2 {
            None
        } else {
            let variance = times.iter().map(|t| (t - mean).powi(2)).sum::<f64>() / (n - 1.0);
            let correction = if pieced {
                1.0
            } else {
                ((big_n - n) / (big_n - 1.0)).sqrt()
            };
            Some(t_95(times.len() - 1) * big_n * variance.sqrt() / n.sqrt() * correction)
        };
        let lower_bound = sampled.iter().any(|s| !s.complete);
        Estimate {
            cubes,
            sampled,
            total,
            interval: half.map(|half| ((total - half).max(0.0), total + half)),
            lower_bound,
        }
    }
}

/// Student's t quantile at 97.5 % (a two-sided 95 % interval) for `df`
/// degrees of freedom.
fn t_95(df: usize) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    match df {
        0 => f64::INFINITY,
        1..=30 => TABLE[df - 1],
        31..=60 => 2.000,
        61..=120 => 1.980,
        _ => 1.960,
    }
}

/// An estimate's own refusal, raised from inside the solving it drives:
/// taken back whole by [`taken_back`] at its public functions.
fn refusal(e: EstimateError) -> SolveError {
    SolveError::Caller(Box::new(e))
}

/// A solving error as the estimate's: its own refusals taken back.
fn taken_back(e: SolveError) -> EstimateError {
    match e {
        SolveError::Caller(inner) => match inner.downcast::<EstimateError>() {
            Ok(own) => *own,
            Err(other) => EstimateError::Solve(SolveError::Caller(other)),
        },
        other => EstimateError::Solve(other),
    }
}

/// A split's error inside the solving: the solving error it carries, or
/// the split's own, kept whole.
fn split_error(e: SplitError) -> SolveError {
    match e {
        SplitError::Solve(e) => e,
        other => SolveError::Caller(Box::new(other)),
    }
}

/// The problem a refutation's split is about and its bound.
fn refuted(split: &Split) -> Result<(Problem, usize), SolveError> {
    match split.spec.map(|spec| (spec.problem(), spec.k)) {
        Some((problem, Some(k))) => Ok((problem?, k)),
        _ => Err(refusal(EstimateError::NotRefutable)),
    }
}

/// With a refutation of `k` pieces for `problem`: the error that ends it
/// when `placement` (found by `found_by`) places them, once the independent checker has
/// accepted it; an internal error if it does not.
fn nothing_to_refute(
    (problem, k): &(Problem, usize),
    placement: &Placement,
    found_by: &str,
) -> SolveError {
    match check(problem, Some(Bound::AtMost(*k)), placement) {
        Ok(()) => refusal(EstimateError::NothingToRefute {
            found_by: found_by.to_string(),
            pieces: boardsat_encode::words::plural(placement.len(), "piece", "pieces"),
            problem: problem.to_string(),
            placement: placement.to_string(),
        }),
        Err(_) => SolveError::Internal(
            "a placement found for a split's bound is not one the checker accepts",
        ),
    }
}

/// With a refutation: searches for a placement of the split's bound as
/// `solve` does ([`boardsat_solve::task::solve::solve`] with k), for up
/// to `limit`; a placement found is the error of [`nothing_to_refute`].
fn probe(
    config: Config,
    refuted: &(Problem, usize),
    solver: &SolverSpec,
    stop: &Interrupter,
    limit: Duration,
) -> Result<(), SolveError> {
    if limit.is_zero() {
        return Ok(());
    }
    let instance = Instance {
        problem: refuted.0,
        k: Some(refuted.1),
        config,
    };
    let probe_stop = stop.child(Some(limit));
    let solved = match solve(
        &instance,
        solver,
        Optimiser::Split,
        &probe_stop,
        &|_| {},
        None,
    ) {
        Err(SolveError::Interrupted(_)) if !stop.is_interrupted() => return Ok(()),
        solved => solved?,
    };
    if let (Status::Sat, Some(placement)) = (solved.status, &solved.placement) {
        let within = format!(
            "a search as 'solve' makes it ({:.1} s)",
            solved.elapsed.as_secs_f64()
        );
        return Err(nothing_to_refute(refuted, placement, &within));
    }
    if stop.is_interrupted() {
        return Err(SolveError::Interrupted(
            stop.reason().unwrap_or(StopReason::Interrupted),
        ));
    }
    Ok(())
}

/// Solves `options.sample` cubes of `split` drawn at random, each as its
/// job would, and projects the total (see the module doc). `progress`
/// sees each cube solved.
///
/// # Errors
///
/// [`EstimateError::EmptySample`] for a sample of 0, [`EstimateError::NothingSplit`] for a split of one cube
/// (nothing to project); backend errors; [`SolveError::Interrupted`] when
/// `stop` ends the sample before every cube was solved.
pub fn estimate(
    split: &Split,
    options: EstimateOptions,
    solver: &SolverSpec,
    stop: &Interrupter,
    progress: &(dyn Fn(&Sampled) + Sync),
) -> Result<Estimate, EstimateError> {
    something_to_sample(options)?;
    if split.cubes.len() < 2 {
        return Err(EstimateError::NothingSplit(split.cubes.len()));
    }
    let refuted = options
        .refute
        .map(|_| refuted(split))
        .transpose()
        .map_err(taken_back)?;
    if let (Some(limit), Some(refuted), Some(spec)) = (options.refute, &refuted, split.spec) {
        probe(spec.config(), refuted, solver, stop, limit).map_err(taken_back)?;
    }
    let id = |i: usize| split.cubes[i].id.clone();
    let one = |i: usize, seed: u64, solve: &SolveCube<'_>| sample(split, i, seed, solve);
    run_sample(
        split.cubes.len(),
        options,
        refuted.as_ref(),
        solver,
        stop,
        progress,
        &id,
        &one,
    )
    .map_err(taken_back)
}

/// A sample of 0 cubes is refused: there is nothing to project.
fn something_to_sample(options: EstimateOptions) -> Result<(), EstimateError> {
    if options.sample == 0 {
        return Err(EstimateError::EmptySample);
    }
    Ok(())
}

/// The cubes the in-process run solves, sized the way [`estimate`] sizes
/// an exported split: one per orbit, each with the lex-leader constraints
/// under its stabilizer ([`cube_clauses`]); a cube stopped by the limit
/// is projected from a random piece of its next ring as the in-process
/// run re-splits it (one per orbit under the cube's stabilizer,
/// [`representatives`]). With `options.refute` they are the refutation of
/// `k` pieces that `solve` runs: [`REFUTATION_DEPTH`] rings, each cube
/// solved in [`Mode::Refute`]. Without, they are the count of `k` pieces
/// that `count -k K --depth D` runs at the split's depth: each cube's
/// placements counted by blocking clauses over the board's squares, so a
/// sampled cube's models are its orbit representatives (the run's
/// `models`, not its weighted count). Exported cubes carry no symmetry
/// breaking unless written with [`crate::split::SplitSpec::lex`], so
/// their estimate projects more work than the in-process run does
/// (BENCHMARKS.md, "γ(Q_n) for n = 20..25" and "Lex-leader constraints in
/// exported cubes").
///
/// The problem and bound are `split`'s, with its encodings (its cubes are
/// the exported split's and do not apply).
///
/// # Errors
///
/// As [`estimate`]; [`EstimateError::NotInProcess`] for a split that is not
/// of domination on a square board with k.
pub fn estimate_in_process(
    split: &Split,
    options: EstimateOptions,
    solver: &SolverSpec,
    stop: &Interrupter,
    progress: &(dyn Fn(&Sampled) + Sync),
) -> Result<Estimate, EstimateError> {
    let unsupported = || EstimateError::NotInProcess;
    let spec = split.spec.ok_or_else(unsupported)?;
    let (Some(k), Ok(problem)) = (spec.k, spec.problem()) else {
        return Err(unsupported());
    };
    if !problem.kind.dominating() || !problem.board.is_square() {
        return Err(unsupported());
    }
    something_to_sample(options)?;
    let tree = InProcess {
        problem: &problem,
        k,
        config: spec.config(),
    };
    let (depth, refuted) = match options.refute {
        Some(limit) => {
            let refuted = (problem, k);
            probe(tree.config, &refuted, solver, stop, limit).map_err(taken_back)?;
            (REFUTATION_DEPTH, Some(refuted))
        }
        None => (spec.depth, None),
    };
    let cubes = split_cubes(&problem.board, depth, Cubes::OnePerOrbit);
    let id = |i: usize| format!("cube-{i:05}");
    let one = |i: usize, seed: u64, solve: &SolveCube<'_>| {
        knuth(id(i), &tree, cubes[i].clone(), seed, solve, true)
    };
    run_sample(
        cubes.len(),
        options,
        refuted.as_ref(),
        solver,
        stop,
        progress,
        &id,
        &one,
    )
    .map_err(taken_back)
}

/// The formula an in-process cube `rep` is solved on, with
/// the board's squares as its projection.
fn in_process_formula(
    problem: &Problem,
    k: usize,
    config: Config,
    rep: &Representative,
) -> Result<Formula, SolveError> {
    let symmetry = Some(LexOrder::LinesFirst);
    let (clauses, n_vars) = cube_clauses(problem, config, k, symmetry, &rep.cube, &rep.stabilizer)?;
    let squares = problem.board.squares().count() as u32;
    let projection = (0..squares).map(rustsat::types::Var::new).collect();
    Ok(Formula::of_clauses(
        clauses,
        n_vars,
        Some(projection),
        Vec::new(),
    ))
}

/// Solves `cubes` cubes chosen by `options` (each by `one`, given its
/// index, a seed and the solver call) on `options.threads` workers, and
/// projects the total; with `refuted`, a model ends it (see the module
/// doc).
#[allow(clippy::too_many_arguments)]
fn run_sample(
    cubes: usize,
    options: EstimateOptions,
    refuted: Option<&(Problem, usize)>,
    solver: &SolverSpec,
    stop: &Interrupter,
    progress: &(dyn Fn(&Sampled) + Sync),
    id: &(dyn Fn(usize) -> String + Sync),
    one: &SampleOne<'_>,
) -> Result<Estimate, SolveError> {
    let chosen = choose(cubes, options.sample, options.seed);
    let solved: Mutex<Vec<Option<Sampled>>> = Mutex::new(vec![None; chosen.len()]);
    let (counted, _) = run_cubes(
        chosen.len(),
        options.threads,
        stop,
        &|_, _| {},
        |slot, workers| {
            let i = chosen[slot];
            let solve = |formula: &Formula, _depth: usize| {
                solve_sampled(formula, options, solver, workers, refuted, &|| id(i))
            };
            let seed = options.seed ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            let Some(sampled) = one(i, seed, &solve)? else {
                return Ok((0, 0, End::Stopped, ()));
            };
            progress(&sampled);
            if let Ok(mut list) = solved.lock() {
                list[slot] = Some(sampled);
            }
            Ok((0, 0, End::Exhausted, ()))
        },
    )?;
    if counted.end != End::Exhausted {
        return Err(SolveError::Interrupted(
            stop.reason().unwrap_or(StopReason::Interrupted),
        ));
    }
    let sampled: Vec<Sampled> = solved
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .flatten()
        .collect();
    Ok(Estimate::project(cubes, sampled))
}

/// Counts one sampled formula as its job counts it, stopped by the
/// per-cube CPU limit under `workers`: what it did, or `None` when it was
/// stopped from outside; with `refuted`, a model ends the estimate
/// (`name` says which cube found it).
fn solve_sampled(
    formula: &Formula,
    options: EstimateOptions,
    solver: &SolverSpec,
    workers: &Interrupter,
    refuted: Option<&(Problem, usize)>,
    name: &dyn Fn() -> String,
) -> Result<Option<Solved>, SolveError> {
    let cube_stop = workers.child_cpu(options.cube_limit);
    let mode = match options.refute {
        Some(_) => Mode::Refute,
        None => Mode::Enumerate,
    };
    // The cube is counted as its job counts it.
    let counting = Counting {
        name: String::new(),
        cube: None,
        limit: options.refute.map(|_| 1),
        mode,
        solver,
        stop: &cube_stop,
        weigher: None,
        progress: &|_| {},
    };
    let start = (Instant::now(), thread_cpu());
    let counted = counting.count(formula, String::new(), Some(LastModel::default()))?;
    let found = match counted.proven {
        Some(Ok(model)) => model,
        _ => Vec::new(),
    };
    let count = (counted.result.count, counted.end);
    // The solver ran on this thread: its CPU time is the
    // cube's (wall time where the kernel does not say).
    let seconds = match (start.1, thread_cpu()) {
        (Some(before), Some(after)) => after.saturating_sub(before),
        _ => start.0.elapsed(),
    }
    .as_secs_f64();
    if let Some(refuted) = refuted.filter(|_| count.0 > 0) {
        let placement = boardsat_encode::dimacs::placement(&refuted.0.board, &found);
        return Err(nothing_to_refute(
            refuted,
            &placement,
            &format!("sampled {}", name()),
        ));
    }
    let by_limit = cube_stop.reason() == Some(StopReason::TimeLimit);
    // Stopped from outside, or a solver that gave up: no time
    // to project.
    Ok((count.1 == End::Exhausted || by_limit).then_some(Solved {
        seconds,
        count: count.0,
        complete: count.1 == End::Exhausted,
    }))
}

/// The last model a count found: what a refutation's sampled cube
/// shows when it holds one.
#[derive(Default)]
struct LastModel(Vec<bool>);

impl CountProof for LastModel {
    type Proven = Vec<bool>;
    fn begin(&mut self, _: &mut dyn Backend, _: &Formula) -> Result<(), SolveError> {
        Ok(())
    }
    fn model(&mut self, model: &[bool]) {
        model.clone_into(&mut self.0);
    }
    fn finish(
        self,
        _: End,
        _: &mut dyn Backend,
        _: &Formula,
        _: &str,
    ) -> Result<Vec<bool>, JobsError> {
        Ok(self.0)
    }
}

/// A cube and the pieces it is refined into when its solver is stopped:
/// what [`knuth`] walks.
trait Refined {
    /// A cube or one of its pieces.
    type Node: Clone;
    /// The formula `node` is solved on.
    fn formula(&self, node: &Self::Node) -> Result<Formula, SolveError>;
    /// The rings `node` fixes.
    fn depth(&self, node: &Self::Node) -> usize;
    /// The pieces of `node`'s next ring (none when no ring is left, or
    /// the cube is not refined).
    fn children(&self, node: &Self::Node) -> Result<Vec<Self::Node>, SolveError>;
    /// `node` in words (`r9+c9-…`).
    fn name(&self, node: &Self::Node) -> String;
}

/// An exported split's job cubes: the whole job, or a piece of its cube.
struct Exported<'a> {
    split: &'a Split,
    i: usize,
}

impl Refined for Exported<'_> {
    /// `None`: the job's cube itself.
    type Node = Option<LineCube>;

    fn formula(&self, node: &Self::Node) -> Result<Formula, SolveError> {
        match node {
            None => Ok(self.split.cube_formula(self.i)),
            Some(piece) => match self.split.piece(piece).map_err(split_error)? {
                Some(one) => Ok(one.cube_formula(0)),
                None => Err(SolveError::Internal("a piece of a split without its spec")),
            },
        }
    }

    fn depth(&self, node: &Self::Node) -> usize {
        node.as_ref()
            .map_or_else(|| self.split.spec.map_or(0, |s| s.depth), |c| c.depth)
    }

    fn children(&self, node: &Self::Node) -> Result<Vec<Self::Node>, SolveError> {
        let Some(spec) = self.split.spec.filter(|s| s.k.is_some()) else {
            return Ok(Vec::new());
        };
        let board = boardsat_encode::Board::square(spec.n)?;
        let parent = match node {
            Some(piece) => piece.clone(),
            None => {
                match LineCube::parse(&board, spec.depth, &self.split.cubes[self.i].description) {
                    Ok(cube) => cube,
                    Err(_) => return Ok(Vec::new()),
                }
            }
        };
        if ring_lines(&board, parent.order, parent.depth + 1).len() == parent.lines.len() {
            return Ok(Vec::new());
        }
        Ok(parent.children(&board).into_iter().map(Some).collect())
    }

    fn name(&self, node: &Self::Node) -> String {
        node.as_ref().map_or_else(
            || self.split.cubes[self.i].description.clone(),
            ToString::to_string,
        )
    }
}

/// The cubes of an in-process refutation or count of `k` pieces.
struct InProcess<'a> {
    problem: &'a Problem,
    k: usize,
    config: Config,
}

impl Refined for InProcess<'_> {
    type Node = Representative;

    fn formula(&self, node: &Representative) -> Result<Formula, SolveError> {
        in_process_formula(self.problem, self.k, self.config, node)
    }

    fn depth(&self, node: &Representative) -> usize {
        node.cube.depth
    }

    fn children(&self, node: &Representative) -> Result<Vec<Representative>, SolveError> {
        let board = self.problem.board;
        let cube = &node.cube;
        if ring_lines(&board, cube.order, cube.depth + 1).len() == cube.lines.len() {
            return Ok(Vec::new());
        }
        Ok(representatives(&board, cube, &node.stabilizer, node.orbit))
    }

    fn name(&self, node: &Representative) -> String {
        node.cube.to_string()
    }
}

/// Cube `i` of `split` solved by `solve`, or when the limit stopped it,
/// projected from a random piece of it (see the module doc), drawn with
/// `seed`; `None` when `solve` was stopped from outside.
fn sample(
    split: &Split,
    i: usize,
    seed: u64,
    solve: &SolveCube<'_>,
) -> Result<Option<Sampled>, SolveError> {
    let id = split.cubes[i].id.clone();
    knuth(id, &Exported { split, i }, None, seed, solve, false)
}

/// How many pieces of the last piece solved (Knuth's estimator, `knuth`) also solves, for a
/// cube the run solves whole, to measure what one ring of splitting costs
/// over solving whole. Pieces on fresh solvers cost more than their cube
/// on one solver, which learns across them; a projection from the pieces
/// of `j` rings is divided by that measured ratio to the power `j`
/// (never multiplied: a ratio below 1 counts as 1). Why, and what it
/// changed against the certified runs: docs/bench/estimates.md, "The
/// pieces' overshoot".
pub const INFLATION_SAMPLE: usize = 3;

/// `first` solved by `solve`, or when the limit stopped it, projected from
/// a random piece of it, drawn with `seed`, as many rings deeper as it
/// takes (Knuth's estimator, see the module doc); `None` when `solve` was
/// stopped from outside. With `whole` (the run solves the cube whole on
/// one solver, as in-process runs do) the projection is deflated by the
/// ring's measured overshoot ([`INFLATION_SAMPLE`]).
fn knuth<T: Refined>(
    id: String,
    tree: &T,
    first: T::Node,
    seed: u64,
    solve: &SolveCube<'_>,
    whole: bool,
) -> Result<Option<Sampled>, SolveError> {
    let Some(mut solved) = solve(&tree.formula(&first)?, tree.depth(&first))? else {
        return Ok(None);
    };
    let mut spent = solved.seconds;
    let mut pieces = 1u64;
    let mut rings = 0i32;
    let mut piece = tree.name(&first);
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut parent = first;
    while !solved.complete {
        let children = tree.children(&parent)?;
        if children.is_empty() {
            break;
        }
        let child = children[rng.usize(..children.len())].clone();
        let Some(next) = solve(&tree.formula(&child)?, tree.depth(&child))? else {
            return Ok(None);
        };
        spent += next.seconds;
        pieces *= children.len() as u64;
        rings += 1;
        piece = tree.name(&child);
        solved = next;
        parent = child;
    }
    let mut deflation = 1.0;
    if whole && rings > 0 && solved.complete {
        let Some((ratio, seconds)) = overshoot(tree, &parent, solved.seconds, &mut rng, solve)?
        else {
            return Ok(None);
        };
        spent += seconds;
        deflation = ratio.max(1.0).powi(rings);
    }
    Ok(Some(Sampled {
        id,
        seconds: solved.seconds * pieces as f64 / deflation,
        count: solved.count.saturating_mul(pieces),
        complete: solved.complete,
        pieces,
        piece,
        spent,
        deflation,
    }))
}

/// How much more `node`'s next ring of pieces costs, each on a fresh
/// solver, than `node` solved whole in `seconds`: up to
/// [`INFLATION_SAMPLE`] of its pieces drawn with `rng` and projected to
/// all of them, over `seconds`; 1 when it has no pieces, `seconds` is 0 or a piece was
/// stopped by the limit. With it, the seconds spent on the pieces; `None`
/// when `solve` was stopped from outside.
fn overshoot<T: Refined>(
    tree: &T,
    node: &T::Node,
    seconds: f64,
    rng: &mut fastrand::Rng,
    solve: &SolveCube<'_>,
) -> Result<Option<(f64, f64)>, SolveError> {
    let children = tree.children(node)?;
    if children.is_empty() || seconds <= 0.0 {
        return Ok(Some((1.0, 0.0)));
    }
    let mut drawn: Vec<usize> = (0..children.len()).collect();
    rng.shuffle(&mut drawn);
    drawn.truncate(INFLATION_SAMPLE);
    let mut spent = 0.0;
    for &i in &drawn {
        let Some(s) = solve(&tree.formula(&children[i])?, tree.depth(&children[i]))? else {
            return Ok(None);
        };
        spent += s.seconds;
        if !s.complete {
            return Ok(Some((1.0, spent)));
        }
    }
    let split = spent / drawn.len() as f64 * children.len() as f64;
    Ok(Some((split / seconds, spent)))
}

/// `sample` distinct indices below `cubes` (all of them, in order, when
/// `sample` ≥ `cubes`), drawn with the seeded generator.
fn choose(cubes: usize, sample: usize, seed: u64) -> Vec<usize> {
    let mut all: Vec<usize> = (0..cubes).collect();
    if sample < cubes {
        let mut rng = fastrand::Rng::with_seed(seed);
        rng.shuffle(&mut all);
        all.truncate(sample);
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sampled(seconds: &[f64]) -> Vec<Sampled> {
        seconds
            .iter()
            .enumerate()
            .map(|(i, &s)| Sampled {
                id: format!("cube-{i:05}"),
                seconds: s,
                count: 0,
                complete: true,
                pieces: 1,
                piece: "-".to_string(),
                spent: s,
                deflation: 1.0,
            })
            .collect()
    }

    #[test]
    fn a_sample_of_every_cube_projects_the_measured_total() {
        let e = Estimate::project(4, sampled(&[1.0, 2.0, 3.0, 10.0]));
        assert!((e.total - 16.0).abs() < 1e-9);
        assert_eq!(e.interval, Some((e.total, e.total)));
        assert_eq!(e.longest().map(|s| s.seconds), Some(10.0));
    }

    #[test]
    fn a_partial_sample_projects_the_mean_with_an_interval() {
        let e = Estimate::project(100, sampled(&[1.0, 3.0]));
        assert!((e.total - 200.0).abs() < 1e-9);
        let (low, high) = e.interval.unwrap();
        assert!(low < 200.0 && high > 200.0);
        assert!(!e.lower_bound);
    }

    #[test]
    fn a_sample_of_one_cube_has_no_interval() {
        let e = Estimate::project(100, sampled(&[2.0]));
        assert!((e.total - 200.0).abs() < 1e-9);
        assert_eq!(e.interval, None);
    }

    /// A split of queen domination on 8×8 at most 5, one ring deep.
    fn eight() -> Split {
        Split::of(&crate::split::SplitSpec {
            family: boardsat_encode::Family::Domination,
            n: 8,
            k: Some(5),
            depth: 1,
            cubes: boardsat_solve::search::pool::Cubes::OnePerOrbit,
            amo: boardsat_encode::Amo::default(),
            card: boardsat_encode::Card::default(),
            format: boardsat_encode::dimacs::Format::Cnf,
            lex: false,
        })
        .unwrap()
    }

    /// A solver that is stopped by a 1-second limit above `solved_at`
    /// rings and answers in 2 seconds with one model from there.
    fn stopped_above(
        solved_at: usize,
    ) -> impl Fn(&Formula, usize) -> Result<Option<Solved>, SolveError> {
        move |_, depth| {
            Ok(Some(if depth >= solved_at {
                Solved {
                    seconds: 2.0,
                    count: 1,
                    complete: true,
                }
            } else {
                Solved {
                    seconds: 1.0,
                    count: 0,
                    complete: false,
                }
            }))
        }
    }

    #[test]
    fn a_cube_past_the_limit_is_projected_from_one_piece_per_ring() {
        let split = eight();
        // 8×8: each ring adds 2 rows and 2 columns, 16 pieces.
        let s = sample(&split, 0, 1, &stopped_above(3)).unwrap().unwrap();
        assert_eq!(s.pieces, 256);
        assert!(s.complete);
        assert!((s.seconds - 512.0).abs() < 1e-9, "{s:?}");
        assert_eq!(s.count, 256);
        assert!((s.spent - 4.0).abs() < 1e-9, "{s:?}");
        assert_eq!(s.piece.matches(['+', '-']).count(), 12, "{s:?}");
        // A cube solved whole is its own projection.
        let whole = sample(&split, 0, 1, &stopped_above(0)).unwrap().unwrap();
        assert_eq!((whole.pieces, whole.seconds, whole.count), (1, 2.0, 1));
        assert_eq!(whole.piece, split.cubes[0].description);
        // The same seed draws the same piece; the rings run out at 4 on
        // 8×8, and the limit then stands in: a lower bound.
        let again = sample(&split, 0, 1, &stopped_above(3)).unwrap().unwrap();
        assert_eq!(again.piece, s.piece);
        let never = sample(&split, 0, 1, &stopped_above(9)).unwrap().unwrap();
        assert!(!never.complete);
        assert_eq!(never.pieces, 16 * 16 * 16);
        assert!((never.seconds - 4096.0).abs() < 1e-9);
        assert!(Estimate::project(split.cubes.len(), vec![never.clone()]).lower_bound);
        // Every cube sampled, one projected from a piece: an interval.
        let e = Estimate::project(2, vec![whole.clone(), s.clone()]);
        let (low, high) = e.interval.unwrap();
        assert!(low < e.total && e.total < high, "{e:?}");
        let e = Estimate::project(2, vec![whole.clone(), whole.clone()]);
        assert_eq!(e.interval, Some((e.total, e.total)));
        // One piece alone measures no spread.
        assert_eq!(Estimate::project(1, vec![s.clone()]).interval, None);
        // N-queens cubes are not refined: a stopped one is a lower bound.
        let queens = Split::of(&crate::split::SplitSpec {
            family: boardsat_encode::Family::Queens,
            k: None,
            depth: 2,
            ..split.spec.unwrap()
        })
        .unwrap();
        let q = sample(&queens, 0, 1, &stopped_above(9)).unwrap().unwrap();
        assert_eq!((q.pieces, q.complete), (1, false));
    }

    /// With no first search, a sampled cube's placement ends a refutation
    /// of a bound that holds (5 queens dominate 8×8), naming the cube.
    #[test]
    fn a_sampled_placement_ends_a_refutation() {
        let options = EstimateOptions {
            sample: 1000,
            cube_limit: None,
            seed: 1,
            threads: 1,
            refute: Some(Duration::ZERO),
        };
        let solver = SolverSpec::choose(None, None, None).unwrap();
        let e = estimate(&eight(), options, &solver, &Interrupter::new(), &|_| {});
        let text = e.unwrap_err().to_string();
        assert!(
            text.contains("nothing to refute") && text.contains("sampled cube-"),
            "{text}"
        );
        // Without `refute` the same sample is a count.
        let counted = estimate(
            &eight(),
            EstimateOptions {
                refute: None,
                ..options
            },
            &solver,
            &Interrupter::new(),
            &|_| {},
        )
        .unwrap();
        assert_eq!(counted.sampled.len(), eight().cubes.len());
        assert!(counted.sampled.iter().any(|s| s.count > 0));
    }

    /// The in-process refutation's cubes: two rings, one per orbit, each
    /// with its lex-leader constraints; 4 queens cannot dominate 8×8, so
    /// none holds a placement, and 5 can, which a sampled cube finds.
    #[test]
    fn an_in_process_sample_solves_the_cubes_solve_refutes() {
        let options = EstimateOptions {
            sample: 1000,
            cube_limit: None,
            seed: 1,
            threads: 2,
            refute: Some(Duration::ZERO),
        };
        let solver = SolverSpec::choose(None, None, None).unwrap();
        let four = Split::of(&crate::split::SplitSpec {
            k: Some(4),
            ..eight().spec.unwrap()
        })
        .unwrap();
        let board = boardsat_encode::Board::square(8).unwrap();
        let cubes = split_cubes(&board, REFUTATION_DEPTH, Cubes::OnePerOrbit);
        let e = estimate_in_process(&four, options, &solver, &Interrupter::new(), &|_| {}).unwrap();
        assert_eq!(e.cubes, cubes.len());
        assert_ne!(e.cubes, four.cubes.len(), "not the exported split's cubes");
        assert_eq!(e.sampled.len(), cubes.len());
        assert!(e
            .sampled
            .iter()
            .all(|s| s.count == 0 && s.complete && s.pieces == 1));
        assert_eq!(e.interval, Some((e.total, e.total)));
        let five = estimate_in_process(&eight(), options, &solver, &Interrupter::new(), &|_| {});
        let text = five.unwrap_err().to_string();
        assert!(text.contains("nothing to refute"), "{text}");
        // Without a refutation, the cubes of the in-process count at the
        // split's depth: every one sampled, 4 queens place nothing and 5
        // place the 8×8 minimum dominating sets, in some cube.
        let counted = EstimateOptions {
            refute: None,
            ..options
        };
        let spec = eight().spec.unwrap();
        let at_depth = split_cubes(&board, spec.depth, Cubes::OnePerOrbit);
        assert_ne!(at_depth.len(), cubes.len(), "another depth");
        let none = estimate_in_process(&four, counted, &solver, &Interrupter::new(), &|_| {});
        let none = none.unwrap();
        assert_eq!(none.cubes, at_depth.len());
        assert!(none.sampled.iter().all(|s| s.count == 0 && s.complete));
        let some = estimate_in_process(&eight(), counted, &solver, &Interrupter::new(), &|_| {});
        let some = some.unwrap();
        assert_eq!(some.sampled.len(), at_depth.len());
        assert!(some.sampled.iter().any(|s| s.count > 0), "{some:?}");
        // Only domination with its bound is split in-process.
        let queens = Split::of(&crate::split::SplitSpec {
            family: boardsat_encode::Family::Queens,
            k: None,
            ..spec
        })
        .unwrap();
        let text = estimate_in_process(&queens, counted, &solver, &Interrupter::new(), &|_| {})
            .unwrap_err()
            .to_string();
        assert!(text.contains("only domination"), "{text}");
    }

    /// A stopped in-process cube is projected from one of the pieces the
    /// in-process run would re-split it into: one per orbit under its
    /// stabilizer, fewer than the exported split's every piece.
    #[test]
    fn an_in_process_cube_is_projected_from_its_representative_pieces() {
        let problem = eight().spec.unwrap().problem().unwrap();
        let tree = InProcess {
            problem: &problem,
            k: 4,
            config: Config::default(),
        };
        let board = problem.board;
        let cubes = split_cubes(&board, REFUTATION_DEPTH, Cubes::OnePerOrbit);
        let first = cubes[0].clone();
        let children = representatives(&board, &first.cube, &first.stabilizer, first.orbit);
        let all = first.cube.children(&board).len();
        assert!(children.len() < all, "{} of {all}", children.len());
        let s = knuth(
            "c".to_string(),
            &tree,
            first.clone(),
            1,
            &stopped_above(3),
            false,
        )
        .unwrap()
        .unwrap();
        assert_eq!(s.pieces, children.len() as u64);
        assert!(s.complete);
        assert_eq!(s.deflation, 1.0);
        let piece = children
            .iter()
            .find(|c| c.cube.to_string() == s.piece)
            .unwrap_or_else(|| panic!("{s:?}"));
        // Solved whole, as the in-process run solves it: the scripted
        // solver answers the piece's own pieces as it answers the piece,
        // so they cost their number times the piece, and the one ring's
        // projection is divided by that.
        let grandchildren = representatives(&board, &piece.cube, &piece.stabilizer, piece.orbit);
        let whole = knuth("c".to_string(), &tree, first, 1, &stopped_above(3), true)
            .unwrap()
            .unwrap();
        assert_eq!(whole.piece, s.piece, "the same piece drawn");
        assert!(
            (whole.deflation - grandchildren.len() as f64).abs() < 1e-9,
            "{whole:?}"
        );
        assert!((whole.seconds - s.seconds / whole.deflation).abs() < 1e-9);
        let sampled = INFLATION_SAMPLE.min(grandchildren.len()) as f64;
        assert!(
            (whole.spent - (s.spent + 2.0 * sampled)).abs() < 1e-9,
            "{whole:?}"
        );
        // A cube solved whole is not deflated.
        let at_once = knuth(
            "c".to_string(),
            &tree,
            cubes[0].clone(),
            1,
            &stopped_above(0),
            true,
        );
        assert_eq!(at_once.unwrap().unwrap().deflation, 1.0);
    }

    #[test]
    fn the_choice_is_distinct_and_repeatable() {
        let a = choose(50, 10, 7);
        let b = choose(50, 10, 7);
        assert_eq!(a, b);
        let mut sorted = a.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 10);
        assert!(a.iter().all(|&i| i < 50));
        assert_eq!(choose(3, 10, 1), vec![0, 1, 2]);
    }
}
