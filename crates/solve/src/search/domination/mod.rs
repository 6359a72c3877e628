//! Domination counts split into cubes over threads.
//!
//! A *cube* fixes which of the `depth` outer rings of rows and columns
//! are occupied (ring 0: the first and last row and column; each further
//! ring adds the next line inwards on both sides). The
//! `2^lines` cubes are disjoint and together exhaustive, so the count is
//! the sum of the cube counts. Each cube is counted by a fresh solver:
//!
//! - the bound as unit clauses, and in the `lines` formulation the implied
//!   line bounds ("k pieces occupy at most k lines of each direction") as
//!   unit clauses too ([`crate::search::session::Fix::BoundAndImplied`]) — sound for counting,
//!   since every placement of at most k pieces satisfies them, and the
//!   reason a fresh solver counts much faster than the optimiser's
//!   session, which leaves them out of enumeration (BENCHMARKS.md);
//! - lex-leader constraints under the board's whole group with orbit
//!   weights, reading the occupancy of the rows and columns first
//!   ([`crate::search::lex::LexOrder`]): exact for any partition into cubes, since each
//!   orbit's leader lies in exactly one cube; a cube without leaders is
//!   refuted, and the models are the orbits;
//! - the cube as clauses over the board variables ("some square of this
//!   line", or "no square of it").
//!
//! With [`SplitOptions::cubes`] at [`Cubes::OnePerOrbit`] only one cube per orbit of cubes is
//! solved, with lex-leader constraints under that cube's stabilizer (the
//! symmetries mapping it onto itself) instead of the whole group: an orbit
//! of placements meets the cubes of one orbit of cubes, and meets the
//! representative cube in exactly one orbit of its stabilizer, so each
//! orbit of placements still has exactly one model. The exported split
//! (`boardsat_jobs::split::Split::domination`) also reduces to one cube per
//! orbit, without symmetry breaking inside the cubes.
//!
//! [`lines`] holds the geometry of the split (the rings, orbits of
//! cubes, stabilizers); the lex-leader orders are
//! [`crate::search::lex`]'s.
//!
//! **Re-splitting.** With [`SplitOptions::budget`], a cube whose solver
//! runs past the budget is stopped and replaced by its refinements by the
//! next ring (one per orbit under its stabilizer, [`lines::representatives`]),
//! queued after the other cubes, so that no single cube keeps one core
//! busy while the other idles. The count stays exact: the refinements
//! partition the cube as the cubes partition the board, and what the
//! stopped solver had found is dropped with it.
//!
//! **Certification** ([`certify`]): each cube's solver traces an LRAT proof
//! of its own answer, blocking clauses included, which a [`certify::Certify`]
//! records; a re-split cube's trace is dropped, its refinements certify
//! themselves.

pub mod certify;
pub mod lines;

use std::time::Duration;

use boardsat_encode::{Bound, Config, Encoding, Placement, Problem, Symmetry};

use crate::{
    backend::{recorder::Recorder, spec::SolverSpec, Backend, Mode, Status},
    error::SolveError,
    search::{
        count::{Blocking, End},
        lex::LexOrder,
        optimise::{optimise_refuting, Optimum, Refuted, Strategy},
        pool::{run_queue, CubeCount, CubeStop, Cubes, FirstEncoding, Splitting, Step},
        session::{Fix, Session},
    },
    stop::Interrupter,
};

use self::{
    certify::{Certify, CubeProof, Purpose, SplitEnd, SplitInfo},
    lines::{representatives, ring_lines, split, Representative},
};

/// The rings fixed per cube by default for counts and for
/// [`SplitOptions::decision`]: one (16 cubes before orbits of cubes), measured
/// against 0 and 2 (BENCHMARKS.md).
pub const DEFAULT_DEPTH: usize = 1;

/// The rings fixed per cube of a refutation ([`SplitOptions::refutation`]):
/// two, measured against one and three (BENCHMARKS.md, "Splitting from
/// the edge").
pub const REFUTATION_DEPTH: usize = 2;

/// A refutation's cube budget ([`SplitOptions::budget`]): a heavy cube is
/// split again while the other core idles (BENCHMARKS.md, "Certified
/// domination at the frontier").
pub const REFUTATION_BUDGET: Duration = Duration::from_secs(10);

/// How [`count_split`] and [`decide_split`] split and solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitOptions {
    /// At most `k` pieces.
    pub k: usize,
    /// The blocking clauses of a count: [`Blocking::Short`] when every
    /// solution has exactly `k` pieces (k is the proven optimum).
    pub blocking: Blocking,
    /// Central rings fixed per cube.
    pub depth: usize,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Lex-leader symmetry breaking in this order with orbit weights;
    /// `None` for none.
    pub symmetry: Option<LexOrder>,
    /// Which cubes are solved.
    pub cubes: Cubes,
    /// A cube whose solver runs longer is split again by the next ring
    /// (see the module doc); `None`: never.
    pub budget: Option<Duration>,
    /// The mode of the cubes' solvers: [`Mode::Enumerate`] for counts
    /// and decisions, [`Mode::Refute`] for refutations.
    pub mode: Mode,
}

impl SplitOptions {
    /// The options of a decision at most `k` in enumeration's mode
    /// ([`decide_split`], [`decide_race`]): the default depth, one cube per
    /// orbit of cubes, and lines-first lex-leader constraints unless
    /// `symmetry` is `None`. The optimiser and `solve -k` decide with
    /// [`Self::refutation`] instead.
    #[must_use]
    pub fn decision(k: usize, threads: usize, symmetry: Option<LexOrder>) -> Self {
        Self::count(k, Blocking::Full, DEFAULT_DEPTH, threads, symmetry)
    }

    /// The options of the optimiser's decisions ([`decide_split`]) and of
    /// `solve -k`: [`REFUTATION_DEPTH`] rings, cubes' solvers in
    /// [`Mode::Refute`], a cube split again past [`REFUTATION_BUDGET`].
    /// Measured faster than [`Self::decision`]'s race on the satisfiable
    /// bounds too (BENCHMARKS.md, "Splitting from the edge").
    #[must_use]
    pub fn refutation(k: usize, threads: usize, symmetry: Option<LexOrder>) -> Self {
        Self {
            mode: Mode::Refute,
            budget: Some(REFUTATION_BUDGET),
            ..Self::count(k, Blocking::Full, REFUTATION_DEPTH, threads, symmetry)
        }
    }

    /// The options of a count of at most `k` pieces over `depth` central
    /// rings on `threads` workers, one cube per orbit of cubes.
    #[must_use]
    pub fn count(
        k: usize,
        blocking: Blocking,
        depth: usize,
        threads: usize,
        symmetry: Option<LexOrder>,
    ) -> Self {
        Self {
            k,
            blocking,
            depth,
            threads,
            symmetry,
            cubes: Cubes::OnePerOrbit,
            budget: None,
            mode: Mode::Enumerate,
        }
    }

    /// Whether only one cube per orbit of cubes is solved.
    fn per_orbit(&self) -> bool {
        self.cubes == Cubes::OnePerOrbit && self.symmetry == Some(LexOrder::LinesFirst)
    }
}

/// What a cube's solver is asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Question {
    /// Every placement, blocked as said.
    Count(Blocking),
    /// One placement, or that there is none.
    Decide,
}

/// A split being solved: everything a worker needs besides its cube.
struct Run<'a> {
    problem: &'a Problem,
    config: Config,
    options: &'a SplitOptions,
    solver: &'a SolverSpec,
    question: Question,
    certify: Option<(&'a dyn Certify, usize)>,
    first: FirstEncoding,
}

/// What a worker keeps of a cube solved to the end.
type Kept = Option<Placement>;

impl Run<'_> {
    /// Solves `cube` under `workers` (see the module doc for the budget
    /// and the certification).
    fn cube(
        &self,
        cube: &Representative,
        stops: &CubeStop,
    ) -> Result<Step<Representative, Kept>, SolveError> {
        let mut backend = self.solver.create(self.options.mode, &stops.cube)?;
        if let Some((certify, _)) = self.certify {
            let signature = backend.signature();
            backend
                .trace_proof()
                .ok_or_else(|| {
                    SolveError::Unsupported(format!(
                        "proofs of split answers need CaDiCaL ({signature} traces none)"
                    ))
                })?
                .start_trace(certify.sink()?)?;
        }
        let mut session = cube_session(self.problem, self.config, self.options, backend, cube)?;
        self.first.offer(session.encoding());
        let (count, models, end, found) = match self.question {
            Question::Count(blocking) => {
                if blocking == Blocking::Short {
                    session.assume_uniform_size();
                }
                if self.certify.is_some() {
                    session.record_blocked();
                    // The blocking clauses are over the board's squares.
                    let board = self.problem.board;
                    let squares: Vec<rustsat::types::Var> =
                        board.squares().map(|sq| board.lit(sq).var()).collect();
                    if let Some(tracer) = session.backend().trace_proof() {
                        tracer.keep(&squares)?;
                    }
                }
                let c = session.count(None, |_| {})?;
                (c.count, c.models, c.end, None)
            }
            Question::Decide => match session.solve(Mode::Decide)? {
                (Status::Sat, Some(placement)) => {
                    // One model answers the question: stop the others.
                    stops.workers.interrupt();
                    return Ok(Step::Done(1, 1, End::Exhausted, Some(placement)));
                }
                (Status::Unsat, _) => (0, 0, End::Exhausted, None),
                _ => (0, 0, End::Stopped, None),
            },
        };
        if end == End::Stopped && stops.asked_to_split() {
            return Ok(Step::Split(self.refine(cube)));
        }
        if end == End::Exhausted {
            if let Some((certify, split)) = self.certify {
                self.certified(certify, split, cube, &mut session, count)?;
            }
        }
        Ok(Step::Done(count, models, end, found))
    }

    /// The refinements of `cube` by the next ring that the split solves.
    fn refine(&self, cube: &Representative) -> Vec<Representative> {
        let board = self.problem.board;
        if self.options.per_orbit() {
            return representatives(&board, &cube.cube, &cube.stabilizer, cube.orbit);
        }
        cube.cube
            .children(&board)
            .into_iter()
            .map(|child| Representative {
                cube: child,
                orbit: cube.orbit,
                stabilizer: cube.stabilizer.clone(),
            })
            .collect()
    }

    /// Hands the proof of `cube`'s answer, its solver's trace, to
    /// `certify`.
    fn certified(
        &self,
        certify: &dyn Certify,
        split: usize,
        cube: &Representative,
        session: &mut Session,
        count: u64,
    ) -> Result<(), SolveError> {
        let placements = session.blocked().to_vec();
        let encoding = session.encoding().facts();
        let trace = session
            .backend()
            .trace_proof()
            .ok_or_else(|| {
                SolveError::Unsupported("the cube's solver traced no proof".to_string())
            })?
            .stop_trace()?;
        certify.proven(
            split,
            CubeProof {
                cube: cube.cube.clone(),
                orbit: cube.orbit,
                stabilizer: cube.stabilizer.clone(),
                placements,
                count,
                encoding,
                trace,
            },
        )
    }

    /// Solves every cube of the split on `threads` workers.
    fn all(
        &self,
        stop: &Interrupter,
        progress: &(dyn Fn(u64, usize) + Sync),
    ) -> Result<(CubeCount, Vec<(Representative, Kept)>), SolveError> {
        let cubes = domination_cubes(self.problem, self.options)?;
        let board = self.problem.board;
        let can_split = |cube: &Representative| {
            ring_lines(&board, cube.cube.order, cube.cube.depth + 1).len() > cube.cube.lines.len()
        };
        let splitting = self.options.budget.map(|budget| Splitting {
            budget,
            can_split: &can_split,
        });
        run_queue(
            cubes,
            self.options.threads,
            stop,
            progress,
            splitting,
            |cube, stops| {
                let answer = self.cube(cube, stops);
                // A worker stopped by another's model, or asked to split,
                // while loading its cube leaves the cube unfinished, or
                // splits it; that is not an error.
                match answer {
                    Err(_) if stops.asked_to_split() => Ok(Step::Split(self.refine(cube))),
                    Err(_)
                        if self.question == Question::Decide && stops.workers.is_interrupted() =>
                    {
                        Ok(Step::Done(0, 0, End::Stopped, None))
                    }
                    other => other,
                }
            },
        )
    }

    /// Begins the certified split, if certified.
    fn begin(
        certify: Option<&dyn Certify>,
        info: SplitInfo,
    ) -> Result<Option<(&dyn Certify, usize)>, SolveError> {
        certify
            .map(|c| c.begin(&info).map(|split| (c, split)))
            .transpose()
    }
}

/// The encodings a split runs on: `config`, with the lines always in
/// clauses when certified (an LRAT proof can only cite clauses, and a line
/// propagator's reasons are none).
fn split_config(config: Config, certify: Option<&dyn Certify>) -> Config {
    match certify {
        Some(_) => Config {
            amo: config.amo.in_clauses(),
            ..config
        },
        None => config,
    }
}

/// The split of a certified run, as its certifier sees it.
fn split_info(
    problem: &Problem,
    config: Config,
    options: &SplitOptions,
    purpose: Purpose,
) -> SplitInfo {
    SplitInfo {
        problem: *problem,
        config,
        k: options.k,
        purpose,
        symmetry: options.symmetry,
    }
}

/// Counts the (independent) dominating sets of at most `options.k` pieces
/// over the cubes of [`lines::split`], one fresh solver per cube on
/// `options.threads` workers, re-splitting cubes past
/// [`SplitOptions::budget`]; with `certify`, each cube's answer proven
/// (see the module doc). `progress` is called after each cube with the
/// weighted count so far and the cubes done. With symmetry breaking the
/// models are the orbits.
///
/// # Errors
///
/// [`SolveError::Unsupported`] for a problem that is not domination, or a
/// certified split on a solver that traces no proofs; the first error of
/// any worker (the others stop at their next cube).
pub fn count_split(
    problem: &Problem,
    config: Config,
    options: SplitOptions,
    solver: &SolverSpec,
    stop: &Interrupter,
    progress: &(dyn Fn(u64, usize) + Sync),
    certify: Option<&dyn Certify>,
) -> Result<(CubeCount, Option<Encoding>), SolveError> {
    let purpose = Purpose::Count(options.blocking);
    let config = split_config(config, certify);
    let run = Run {
        problem,
        config,
        options: &options,
        solver,
        question: Question::Count(options.blocking),
        certify: Run::begin(certify, split_info(problem, config, &options, purpose))?,
        first: FirstEncoding::default(),
    };
    let (counted, _) = run.all(stop, progress)?;
    if let Some((c, split)) = run.certify {
        let end = if counted.end == End::Exhausted {
            SplitEnd::Complete
        } else {
            SplitEnd::Stopped
        };
        c.end(split, end)?;
    }
    Ok((counted, run.first.into_inner()))
}

/// The answer of a split decision.
#[derive(Debug)]
pub struct Decided {
    /// SAT (a model of some cube), UNSAT (every cube refuted) or UNKNOWN.
    pub status: Status,
    /// The checked placement, when SAT.
    pub placement: Option<Placement>,
    /// The encoding the solvers ran on (without a cube's clauses), `None`
    /// when none was loaded.
    pub encoding: Option<Encoding>,
}

/// The cubes of a dominating problem's split on its `options.depth`
/// central rings: one per orbit of cubes, or every one.
fn domination_cubes(
    problem: &Problem,
    options: &SplitOptions,
) -> Result<Vec<Representative>, SolveError> {
    if !problem.kind.dominating() {
        return Err(SolveError::Unsupported(
            "line cubes split domination only".to_string(),
        ));
    }
    Ok(split(&problem.board, options.depth, !options.per_orbit()))
}

/// Cube `cube` on its own solver: the problem with at most `options.k`
/// pieces, the bound and the implied line bounds as units
/// ([`Fix::BoundAndImplied`]), the lex-leader constraints of
/// `options.symmetry` under the cube's stabilizer (the whole group when
/// every cube is solved), and the cube's clauses.
fn cube_session(
    problem: &Problem,
    config: Config,
    options: &SplitOptions,
    backend: Box<dyn Backend>,
    cube: &Representative,
) -> Result<Session, SolveError> {
    let board = problem.board;
    let mut session =
        Session::with_bound(problem, options.k, config, backend, Fix::BoundAndImplied)?;
    if let Some(order) = options.symmetry {
        session.break_symmetry_under(order, cube.stabilizer.clone())?;
    }
    for clause in cube.cube.clauses(&board) {
        session.backend().add_clause(&clause)?;
    }
    Ok(session)
}

/// The clauses a cube's solver gets, in order, before any blocking clause
/// (what a certified cube's formula must start with), and the variables
/// they use: `cube_session` run on a [`crate::backend::recorder::Recorder`].
///
/// # Errors
///
/// Encoding errors.
pub fn cube_clauses(
    problem: &Problem,
    config: Config,
    k: usize,
    symmetry: Option<LexOrder>,
    cube: &lines::LineCube,
    stabilizer: &[Symmetry],
) -> Result<(Vec<Vec<rustsat::types::Lit>>, u32), SolveError> {
    let (recorder, clauses) = Recorder::new();
    let options = SplitOptions::count(k, Blocking::Full, cube.depth, 1, symmetry);
    let rep = Representative {
        cube: cube.clone(),
        orbit: 1,
        stabilizer: stabilizer.to_vec(),
    };
    let session = cube_session(problem, config, &options, Box::new(recorder), &rep)?;
    let n_vars = session.n_vars();
    drop(session);
    let clauses = clauses.take();
    Ok((clauses, n_vars))
}

/// The optimiser's refutations of a dominating problem split into cubes
/// on `threads` workers of `solver` (measured faster than one fresh
/// solver, BENCHMARKS.md) by [`decide_split`] with
/// [`SplitOptions::refutation`], the theorem's start included: with the
/// split from the edge, that was faster than racing a model search there
/// even where the start is satisfiable (γ(Q_17..19),
/// BENCHMARKS.md); lines-first lex-leader constraints with `symmetry`;
/// each refutation certified with `certify`. `stop` stops every worker.
/// Pass it to [`crate::search::optimise::optimise_refuting`] as its
/// [`crate::search::optimise::Refuter`].
pub fn refuter<'a>(
    problem: &'a Problem,
    config: Config,
    solver: &'a SolverSpec,
    threads: usize,
    symmetry: bool,
    stop: &'a Interrupter,
    certify: Option<&'a dyn Certify>,
) -> impl Fn(Bound) -> Result<Refuted, SolveError> + Sync + 'a {
    move |bound| {
        let symmetry = symmetry.then_some(LexOrder::LinesFirst);
        let options = SplitOptions::refutation(bound.k(), threads, symmetry);
        let decided = decide_split(problem, config, options, solver, stop, certify)?;
        Ok(Refuted {
            certified: certify.is_some() && decided.status == Status::Unsat,
            status: decided.status,
            placement: decided.placement,
        })
    }
}

/// The optimum of `problem` with its proof ([`optimise_refuting`]), the
/// calls expected to be UNSAT of a dominating problem split into cubes on
/// `threads` workers of `solver` ([`refuter`], certified with
/// `certify`); other problems, and the calls expected to be SAT, on one
/// solver created here. `stop` stops every worker.
///
/// # Errors
///
/// As [`optimise_refuting`].
#[allow(clippy::too_many_arguments)]
pub fn optimise_split(
    problem: &Problem,
    config: Config,
    solver: &SolverSpec,
    threads: usize,
    strategy: Strategy,
    stop: &Interrupter,
    observe: &(dyn Fn(Bound) + Sync),
    certify: Option<&dyn Certify>,
) -> Result<(Optimum, Session), SolveError> {
    let backend = solver.create(Mode::Decide, stop)?;
    let refute = refuter(
        problem,
        config,
        solver,
        threads,
        strategy.symmetry,
        stop,
        certify,
    );
    let refuter = problem.kind.dominating().then_some(&refute as _);
    optimise_refuting(problem, config, backend, strategy, observe, refuter)
}

/// Decides whether `problem` has an (independent) dominating set of at
/// most `options.k` pieces, by cube-and-conquer: one fresh solver per cube
/// of [`lines::split`] on `options.threads` workers, each with the bound
/// and the implied line bounds as unit clauses and the lex-leader
/// constraints of `options.symmetry` (every orbit keeps its leader, which
/// lies in exactly one cube, so the cubes are SAT together exactly when
/// the problem is), re-splitting cubes past [`SplitOptions::budget`]. The
/// first model found stops the other workers and is the answer (checked
/// like any model); UNSAT needs every cube refuted — each refutation
/// proven with `certify`; a search stopped by `stop` is UNKNOWN. The
/// optimiser's refutations run here ([`refuter`]): split over the cores
/// they measured faster than one solver even on one core (BENCHMARKS.md).
///
/// # Errors
///
/// [`SolveError::Unsupported`] for a problem that is not domination; the
/// first error of any worker.
pub fn decide_split(
    problem: &Problem,
    config: Config,
    options: SplitOptions,
    solver: &SolverSpec,
    stop: &Interrupter,
    certify: Option<&dyn Certify>,
) -> Result<Decided, SolveError> {
    let config = split_config(config, certify);
    let info = split_info(problem, config, &options, Purpose::Refute);
    let certify = Run::begin(certify, info)?;
    let decided = decide_cubes(problem, config, &options, solver, stop, certify)?;
    end_refutation(certify, decided.status)?;
    Ok(decided)
}

/// [`decide_split`] of a certified split already begun.
fn decide_cubes(
    problem: &Problem,
    config: Config,
    options: &SplitOptions,
    solver: &SolverSpec,
    stop: &Interrupter,
    certify: Option<(&dyn Certify, usize)>,
) -> Result<Decided, SolveError> {
    let run = Run {
        problem,
        config,
        options,
        solver,
        question: Question::Decide,
        certify,
        first: FirstEncoding::default(),
    };
    let (counted, found) = run.all(stop, &|_, _| {})?;
    let placement = found.into_iter().find_map(|(_, p)| p);
    let status = match (&placement, counted.end) {
        (Some(_), _) => Status::Sat,
        (None, End::Exhausted) => Status::Unsat,
        (None, _) => Status::Unknown,
    };
    Ok(Decided {
        status,
        placement,
        encoding: run.first.into_inner(),
    })
}

/// Ends a certified refutation as its answer says: complete when UNSAT,
/// void when a placement was found (by it or by a race's other side).
fn end_refutation(
    certify: Option<(&dyn Certify, usize)>,
    status: Status,
) -> Result<(), SolveError> {
    let Some((c, split)) = certify else {
        return Ok(());
    };
    c.end(
        split,
        match status {
            Status::Unsat => SplitEnd::Complete,
            Status::Sat => SplitEnd::Satisfiable,
            Status::Unknown => SplitEnd::Stopped,
        },
    )
}

/// As [`decide_split`], racing one more solver that searches for a model
/// without symmetry breaking or cubes (the bound by assumptions, as a
/// call expected to be SAT): the first definite answer stops the other
/// side — with `certify`, only a model stops the split, whose refutations
/// are the proven ones. The optimiser raced its theorem's start this way
/// until the split from the edge found the models of γ(Q_17..19) sooner
/// on its own (BENCHMARKS.md, "Splitting from the edge"); kept for
/// library callers that want a model search beside the split.
///
/// # Errors
///
/// As [`decide_split`]; an error of the side that lost the race is
/// dropped.
pub fn decide_race(
    problem: &Problem,
    config: Config,
    options: SplitOptions,
    solver: &SolverSpec,
    stop: &Interrupter,
    certify: Option<&dyn Certify>,
) -> Result<Decided, SolveError> {
    let config = split_config(config, certify);
    let info = split_info(problem, config, &options, Purpose::Refute);
    let certify_split = Run::begin(certify, info)?;
    let race = stop.child(None);
    let (split, seek) = std::thread::scope(|scope| {
        let seeker = scope.spawn(|| {
            let backend = solver.create(Mode::Decide, &race)?;
            let mut session = Session::fixed(problem, options.k, config, backend)?;
            let (status, placement) = session.solve(Mode::Decide)?;
            // A model answers; with proofs asked for, an UNSAT answer of
            // this untraced solver does not: the split's proofs do.
            if status == Status::Sat || (status == Status::Unsat && certify.is_none()) {
                race.interrupt();
            }
            Ok(Decided {
                status,
                placement,
                encoding: Some(session.into_encoding()),
            })
        });
        let split = decide_cubes(problem, config, &options, solver, &race, certify_split);
        if split.as_ref().is_ok_and(|d| d.status != Status::Unknown) {
            race.interrupt();
        }
        let seek: Result<Decided, SolveError> = seeker.join().unwrap_or_else(|_| {
            Err(SolveError::Solver {
                backend: solver.signature(),
                message: "the model search of a race panicked".to_string(),
            })
        });
        (split, seek)
    });
    let definite =
        |r: &Result<Decided, SolveError>| r.as_ref().is_ok_and(|d| d.status != Status::Unknown);
    let decided = match (split, seek) {
        (Ok(split), seek) if split.status != Status::Unknown => Ok::<_, SolveError>(Decided {
            encoding: split
                .encoding
                .or_else(|| seek.ok().and_then(|s| s.encoding)),
            ..split
        }),
        (_, Ok(seek)) if seek.status == Status::Sat => Ok(seek),
        (_, seek) if definite(&seek) && certify.is_none() => seek,
        // Neither side answered: stopped by the caller, or an error.
        (split, seek) if stop.is_interrupted() => Ok(Decided {
            status: Status::Unknown,
            placement: None,
            encoding: split
                .ok()
                .and_then(|d| d.encoding)
                .or_else(|| seek.ok().and_then(|d| d.encoding)),
        }),
        (Err(e), _) | (_, Err(e)) => Err(e),
        (split, _) => split,
    }?;
    end_refutation(certify_split, decided.status)?;
    Ok(decided)
}
