//! Counts: the placements with k pieces, or without k the optimal ones —
//! split into cubes over threads where that pays ([`CountPlan`] says
//! where), one placement per orbit of the board's symmetries with orbit
//! weights unless told otherwise.

use std::time::{Duration, Instant};

use boardsat_encode::{setting::Setting, Config, Encoding, Placement, Problem};

use crate::{
    backend::{
        spec::{SolverKind, SolverSpec},
        Backend, Mode,
    },
    error::{Inapplicable, SolveError},
    search::{
        certify::Certify,
        context::Context,
        count::{Blocking, Count, End, Keep, Progress, Proofs, Reduction},
        domination::{self, SplitOptions},
        lex::LexOrder,
        optimise::{optimise_with, Observe, Optimum, Strategy},
        pool::{default_threads, CubeCount, CubesDone},
        queens::{count_queens, CubeOptions, QueenCube},
        session::{Breaking, Session},
    },
    stop::Interrupter,
    task::{
        solve::{encoding_or_facts, optimum, Optimiser},
        Instance,
    },
};

/// The count options as a user gives them (the command line's `--limit`,
/// `--unique`, `--depth`, `--threads`, `--no-symmetry`, `--halve`; the
/// Python keywords of the same names), before [`CountFlags::plan`] checks
/// that they apply.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CountFlags {
    /// Stop after this many placements (solver models).
    pub limit: Option<u64>,
    /// Report the fundamental solutions (needs symmetry breaking).
    pub unique: bool,
    /// Rows (N-queens) or outer rings (domination) fixed per cube.
    pub depth: Option<usize>,
    /// Worker threads (default: every core).
    pub threads: Option<usize>,
    /// Count every placement, without lex-leader symmetry breaking.
    pub no_symmetry: bool,
    /// Mirror halving instead of symmetry breaking (N-queens).
    pub halve: bool,
    /// Domination: a cube whose solver runs longer is split again by the
    /// next ring ([`SplitOptions::budget`]); `None`: never.
    pub budget: Option<Duration>,
    /// End the count once this many cubes have their answer, as an
    /// interrupt would: a sitting measured in cubes, not in time (a count
    /// with a proof goes on with `--resume`).
    pub stop_after_cubes: Option<usize>,
}

/// How [`count`] counts: decided once, by [`CountFlags::plan`], for every
/// caller.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CountPlan {
    /// Stop after this many solver models.
    pub limit: Option<u64>,
    /// What the count keeps ([`Keep::Placements`] for a proof).
    pub keep: Keep,
    /// How the count is reduced by the board's symmetries.
    pub reduction: Reduction,
    /// Whether the count reports its orbits (`--unique`).
    pub unique: bool,
    /// How the count is split into cubes over threads, if it is.
    pub split: Option<CountSplit>,
}

/// How a count is split into cubes over threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CountSplit {
    /// Rows (N-queens) or outer rings (domination) fixed per cube.
    pub depth: usize,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Domination: the budget of a cube before it is split again.
    pub budget: Option<Duration>,
    /// The count ends, as an interrupt ends it, once this many cubes have
    /// their answer ([`CountFlags::stop_after_cubes`]).
    pub stop_after_cubes: Option<usize>,
}

impl CountPlan {
    /// The line a count prints before it starts, when it splits:
    /// `cubes of depth 2 over 2 threads, lex-leader symmetry breaking …`.
    #[must_use]
    pub fn describe(&self) -> Option<String> {
        self.split.map(|s| {
            format!(
                "cubes of depth {} over {}, {}",
                s.depth,
                boardsat_encode::words::plural(s.threads, "thread", "threads"),
                self.reduction.name()
            )
        })
    }
}

impl CountFlags {
    /// The plan of a count of `instance`, with `proofs` asked for or not:
    /// a flag that is given must apply, and the reductions must agree.
    /// Proofs of domination counts are traced by the cubes' own solvers
    /// ([`Keep::Traced`], split as without proofs); other counts keep their
    /// placements for a proof made afterwards ([`Keep::Placements`]). `--unique` and
    /// `--no-symmetry` apply to every count without a limit (each keeps
    /// one placement per orbit of the board's symmetries unless told not
    /// to: every piece attacks alike from symmetric squares); `--depth`
    /// and `--threads` to the counts split into cubes
    /// ([`Instance::splits`]), `--cube-budget` to those of domination (the
    /// only cubes split again), `--halve` to N-queens and not with
    /// `--no-symmetry` (which would drop it).
    ///
    /// # Errors
    ///
    /// [`SolveError::Inapplicable`], naming the setting.
    pub fn plan(&self, instance: &Instance, proofs: Proofs) -> Result<CountPlan, SolveError> {
        let limit = self.limit;
        let keep = match proofs {
            Proofs::Off => Keep::Count,
            Proofs::On if instance.problem.kind.dominating() && limit.is_none() => Keep::Traced,
            Proofs::On => Keep::Placements,
        };
        let splits = instance.splits() && limit.is_none();
        self.applicable(instance, splits)
            .map_err(SolveError::Inapplicable)?;
        let reduction = match (limit, self.no_symmetry, self.halve) {
            // A count to a limit counts placements, not orbits.
            (Some(_), _, _) | (None, true, _) => Reduction::None,
            (None, false, true) => Reduction::Halve,
            (None, false, false) => Reduction::Symmetry,
        };
        let depth = self.depth.unwrap_or_else(|| instance.default_depth());
        Ok(CountPlan {
            limit,
            keep,
            reduction,
            unique: self.unique,
            split: splits.then(|| CountSplit {
                depth,
                threads: self.threads.unwrap_or_else(default_threads).max(1),
                budget: self.budget,
                stop_after_cubes: self.stop_after_cubes,
            }),
        })
    }

    /// Each setting given applies to this count of `instance` (split into
    /// cubes when `splits`), or the first one that does not.
    fn applicable(&self, instance: &Instance, splits: bool) -> Result<(), Inapplicable> {
        let split_settings = [
            (Setting::Depth, self.depth.is_some()),
            (Setting::Threads, self.threads.is_some()),
            (Setting::StopAfterCubes, self.stop_after_cubes.is_some()),
        ];
        if let Some(&(setting, _)) = split_settings.iter().find(|(_, set)| *set) {
            if !splits {
                return Err(Inapplicable::NotSplit(setting));
            }
        }
        // Only domination cubes are split again: elsewhere a budget would
        // be carried and ignored. (Any positive budget acts on domination:
        // a tiny one splits every cube still running at the tail.)
        if self.budget.is_some() && !(splits && instance.problem.kind.dominating()) {
            return Err(Inapplicable::CubeBudget);
        }
        if self.halve && !(instance.is_n_queens() && self.limit.is_none()) {
            return Err(Inapplicable::Halve);
        }
        if self.halve && self.no_symmetry {
            return Err(Inapplicable::HalveWithoutSymmetry);
        }
        let orbits = [
            (Setting::Unique, self.unique),
            (Setting::NoSymmetry, self.no_symmetry),
        ];
        if let Some(&(setting, _)) = orbits.iter().find(|(_, set)| *set) {
            if self.limit.is_some() {
                return Err(Inapplicable::OrbitsWithLimit(setting));
            }
        }
        if self.unique && (self.no_symmetry || self.halve) {
            return Err(Inapplicable::UniqueWithoutSymmetry);
        }
        Ok(())
    }
}

/// The cubes of a split count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CubeReport {
    /// How the count was split.
    pub split: CountSplit,
    /// How it was reduced.
    pub reduction: Reduction,
    /// Cubes counted to the end.
    pub done: usize,
    /// Cubes in all.
    pub total: usize,
}

/// What [`count`] found.
#[derive(Debug)]
pub struct Counted {
    /// The count and how it ended (its `elapsed`: the counting alone);
    /// [`End::Stopped`] with no models when the optimum itself was not
    /// proven.
    pub count: Count,
    /// Without k: the optimum whose placements were counted.
    pub optimum: Option<Optimum>,
    /// The encoding the counting solvers ran on.
    pub encoding: Encoding,
    /// Solver calls of the count (cube counts: none recorded).
    pub calls: u64,
    /// For split counts: the cubes.
    pub cubes: Option<CubeReport>,
    /// Wall time of the whole task (the optimum included).
    pub elapsed: Duration,
    /// With [`Keep::Placements`]: the placements counted, one group per
    /// cube for cube counts (a single group, without a cube, otherwise).
    pub placements: Vec<(Option<QueenCube>, Vec<Placement>)>,
    /// How the count blocked placements.
    pub blocking: Blocking,
    /// How the count was reduced by the board's symmetries.
    pub reduction: Reduction,
    /// What the count kept: with [`Keep::Traced`], its proofs (and its
    /// optimum's) are written already.
    pub keep: Keep,
    /// With [`Reduction::Symmetry`]: the placements counted up to the
    /// board's symmetries (the orbits; `boardsat count --unique`, the
    /// JSON's `fundamental`).
    pub fundamental: Option<u64>,
    /// Whether the count is complete by an external solver's UNSAT
    /// answer, which carries no proof (a proof made afterwards backs it).
    pub unverified: bool,
}

impl Counted {
    /// The answer a user asked for: the orbits with `--unique`, else the
    /// placements.
    #[must_use]
    pub fn answer(&self, plan: &CountPlan) -> u64 {
        self.fundamental
            .filter(|_| plan.unique)
            .unwrap_or(self.count.count)
    }
}

/// A count that never started: the optimum it needed was not proven.
fn not_counted() -> Count {
    Count {
        count: 0,
        models: 0,
        end: End::Stopped,
        elapsed: Duration::ZERO,
    }
}

/// Counts the placements with k pieces, or without k the optimal ones
/// (the optimum first, with its proof), as `plan` says: N-queens and
/// domination split into cubes over threads ([`crate::search::queens`],
/// [`crate::search::domination`]), other counts on one solver. `progress`
/// sees the count so far (and, for cubes, the cubes done of those known);
/// `observe` sees
/// the optimum that a domination count without k proves first (each bound
/// asked, each cube of its split answered). With
/// [`Keep::Traced`] (the plan's decision, [`CountFlags::plan`]) the
/// cubes' proofs go to `certify`, which is then needed; otherwise it is
/// not used.
///
/// # Errors
///
/// [`SolveError::NoCertifier`] for a traced count without a certifier;
/// backend and encoding errors; wrong placements.
pub fn count(
    instance: &Instance,
    solver: &SolverSpec,
    plan: &CountPlan,
    stop: &Interrupter,
    progress: &(dyn Fn(&Progress, Option<CubesDone>) + Sync),
    observe: &dyn Observe,
    certify: Option<&dyn Certify>,
) -> Result<Counted, SolveError> {
    let start = Instant::now();
    let certify = match (plan.keep, certify) {
        (Keep::Traced, None) => return Err(SolveError::NoCertifier),
        (Keep::Traced, certify) => certify,
        (Keep::Count | Keep::Placements, _) => None,
    };
    let threads = plan.split.map_or_else(default_threads, |s| s.threads);
    let ctx = Context::new(instance.problem, instance.config, solver, stop)
        .with_threads(threads)
        .with_certify(certify);
    let stop_after = plan.split.and_then(|s| s.stop_after_cubes);
    let cubes = |total: u64, done: CubesDone| {
        progress(
            &Progress {
                count: total,
                elapsed: start.elapsed(),
            },
            Some(done),
        );
        // The sitting is over: the count ends as an interrupted one does.
        if stop_after.is_some_and(|n| done.done >= n) {
            stop.interrupt();
        }
    };
    let counted = match plan.split {
        Some(split) if instance.is_n_queens() => count_n_queens(&ctx, plan, split, &cubes)?,
        Some(split) if instance.problem.kind.dominating() => {
            count_domination(&ctx, instance.k, plan, split, &cubes, observe)?
        }
        _ => count_one_solver(&ctx, instance.k, plan, &|p| progress(p, None))?,
    };
    let unverified = solver.kind == SolverKind::External && counted.count.end == End::Exhausted;
    Ok(Counted {
        elapsed: start.elapsed(),
        unverified,
        ..counted
    })
}

/// [`count`] of N-queens over the cubes of [`crate::search::queens`].
fn count_n_queens(
    ctx: &Context<'_>,
    plan: &CountPlan,
    split: CountSplit,
    progress: &(dyn Fn(u64, CubesDone) + Sync),
) -> Result<Counted, SolveError> {
    let n = ctx.problem.board.rows();
    let options = CubeOptions {
        depth: split.depth,
        reduction: plan.reduction,
        keep: plan.keep,
    };
    let counted = count_queens(ctx, options, progress)?;
    let encoding = encoding_or_facts(counted.encoding, ctx, n)?;
    Ok(Counted {
        count: cube_count(&counted.counted),
        optimum: None,
        encoding,
        calls: 0,
        cubes: Some(cube_report(&counted.counted, split, plan.reduction)),
        elapsed: Duration::ZERO,
        placements: counted
            .placements
            .into_iter()
            .map(|(cube, list)| (Some(cube), list))
            .collect(),
        blocking: Blocking::Short,
        reduction: plan.reduction,
        keep: plan.keep,
        fundamental: (plan.reduction == Reduction::Symmetry).then_some(counted.counted.models),
        unverified: false,
    })
}

fn cube_count(counted: &CubeCount) -> Count {
    Count {
        count: counted.count,
        models: counted.models,
        end: counted.end,
        elapsed: counted.elapsed,
    }
}

fn cube_report(counted: &CubeCount, split: CountSplit, reduction: Reduction) -> CubeReport {
    CubeReport {
        split,
        reduction,
        done: counted.cubes_done,
        total: counted.cubes_total,
    }
}

/// [`count`] of a domination problem with at most `k` pieces (`None`: the
/// optimum) over the line cubes of [`crate::search::domination`]: the
/// optimum first when k is not given (split over the cores, with its
/// proof), then the placements; with the context's certifier, every
/// cube's answer proven.
fn count_domination(
    ctx: &Context<'_>,
    k: Option<usize>,
    plan: &CountPlan,
    split: CountSplit,
    progress: &(dyn Fn(u64, CubesDone) + Sync),
    observe: &dyn Observe,
) -> Result<Counted, SolveError> {
    let (optimum, optimiser_encoding) = match k {
        Some(_) => (None, None),
        None => {
            let (optimum, encoding, _) = optimum(ctx, Optimiser::Split, observe)?;
            (Some(optimum), Some(encoding))
        }
    };
    let calls = optimum.as_ref().map_or(0, |o| o.calls.len() as u64);
    let blocking = if k.is_none() {
        Blocking::Short
    } else {
        Blocking::Full
    };
    let symmetry = (plan.reduction == Reduction::Symmetry).then_some(LexOrder::LinesFirst);
    let counted = match (&optimum, k) {
        // An optimum that was not proven: its placements are not counted.
        (Some(o), _) if !o.proven => None,
        (Some(o), _) => Some(o.value),
        (None, k) => k,
    }
    .map(|k| {
        let options = SplitOptions {
            budget: split.budget,
            ..SplitOptions::count(k, blocking, split.depth, symmetry)
        };
        domination::count_split(ctx, options, progress)
    })
    .transpose()?;
    let (counted, cube_encoding) = counted.map_or((None, None), |(c, e)| (Some(c), e));
    let k = k.or(optimum.as_ref().map(|o| o.value)).unwrap_or(0);
    let encoding = encoding_or_facts(cube_encoding.or(optimiser_encoding), ctx, k)?;
    Ok(Counted {
        count: counted.as_ref().map_or_else(not_counted, cube_count),
        optimum,
        encoding,
        calls,
        cubes: counted
            .as_ref()
            .map(|c| cube_report(c, split, plan.reduction)),
        elapsed: Duration::ZERO,
        placements: Vec::new(),
        blocking,
        reduction: plan.reduction,
        keep: plan.keep,
        fundamental: counted
            .as_ref()
            .filter(|_| symmetry.is_some())
            .map(|c| c.models),
        unverified: false,
    })
}

/// [`count`] on one solver: with `k` a fixed bound, without k the optimum
/// then its placements on the optimiser's session.
fn count_one_solver(
    ctx: &Context<'_>,
    k: Option<usize>,
    plan: &CountPlan,
    progress: &dyn Fn(&Progress),
) -> Result<Counted, SolveError> {
    let (problem, config) = (ctx.problem, ctx.config);
    let backend = ctx.solver.create(Mode::Enumerate, ctx.stop)?;
    let (optimum, count, session) = match k {
        Some(k) => {
            let mut session = Session::fixed(&problem, k, config, backend)?;
            if plan.reduction == Reduction::Symmetry {
                session.break_symmetry(Breaking::Hard)?;
            }
            if plan.keep == Keep::Placements {
                session.record_blocked();
            }
            let count = session.count(plan.limit, progress)?;
            (None, Some(count), session)
        }
        None => {
            let (optimum, count, session) =
                optimum_then_count(&problem, config, backend, plan, progress)?;
            (Some(optimum), count, session)
        }
    };
    let placements = match plan.keep {
        Keep::Placements => vec![(None, session.blocked().to_vec())],
        Keep::Count | Keep::Traced => Vec::new(),
    };
    let blocking = session.blocking();
    let reduction = if session.symmetry_broken() {
        Reduction::Symmetry
    } else {
        Reduction::None
    };
    let fundamental = count
        .as_ref()
        .filter(|_| reduction == Reduction::Symmetry)
        .map(|c| c.models);
    Ok(Counted {
        count: count.unwrap_or_else(not_counted),
        calls: session.calls() + optimum.as_ref().map_or(0, |o| o.calls.len() as u64),
        optimum,
        encoding: session.into_encoding(),
        cubes: None,
        elapsed: Duration::ZERO,
        placements,
        blocking,
        reduction,
        keep: plan.keep,
        fundamental,
        unverified: false,
    })
}

/// The optimum ([`Strategy::fastest`], with its proof), then — when it is
/// proven — the count of the optimal placements on the same session as
/// `plan` says (its limit, what it keeps, one placement per orbit with
/// orbit weights unless [`Reduction::None`]): what [`count`] does without
/// k on one solver. `backend` should be tuned for enumeration.
fn optimum_then_count(
    problem: &Problem,
    config: Config,
    backend: Box<dyn Backend>,
    plan: &CountPlan,
    progress: impl FnMut(&Progress),
) -> Result<(Optimum, Option<Count>, Session), SolveError> {
    let (optimum, mut session) =
        optimise_with(problem, config, backend, Strategy::fastest(problem))?;
    if plan.reduction != Reduction::Symmetry {
        session.set_symmetry(false);
    }
    if plan.keep == Keep::Placements {
        session.record_blocked();
    }
    let counted = if optimum.proven {
        Some(session.count(plan.limit, progress)?)
    } else {
        None
    };
    Ok((optimum, counted, session))
}
