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
//! With [`SplitOptions::cube_orbits`] only one cube per orbit of cubes is
//! solved, with lex-leader constraints under that cube's stabilizer (the
//! symmetries mapping it onto itself) instead of the whole group: an orbit
//! of placements meets the cubes of one orbit of cubes, and meets the
//! representative cube in exactly one orbit of its stabilizer, so each
//! orbit of placements still has exactly one model. The exported split
//! ([`crate::jobs::split::Split::domination`]) also reduces to one cube per
//! orbit, without symmetry breaking inside the cubes.
//!
//! [`lines`] holds the geometry of the split (the central rings, orbits of
//! cubes, stabilizers); the lex-leader orders are
//! [`crate::search::lex`]'s.

pub mod lines;

use boardsat_encode::{Bound, Config, Encoding, Placement, Problem};

use crate::{
    backend::{spec::SolverSpec, Backend, Mode, Status},
    error::SolveError,
    search::{
        count::{Blocking, End},
        lex::LexOrder,
        optimise::{optimise_refuting, Expect, Optimum, Strategy},
        pool::{run_cubes, CubeCount, Cubes, FirstEncoding},
        session::{Fix, Session},
    },
    stop::Interrupter,
};

use self::lines::{split, Representative};

/// The central rings fixed per cube by default, for counts and decisions:
/// one (4 cubes on an odd side, 16 on an even one, before orbits of
/// cubes), measured against 0 and 2 (BENCHMARKS.md).
pub const DEFAULT_DEPTH: usize = 1;

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
}

impl SplitOptions {
    /// The options of a decision at most `k` ([`decide_split`],
    /// [`decide_race`]) as the optimiser and `solve -k` make it: the
    /// default depth, one cube per orbit of cubes, and lines-first
    /// lex-leader constraints unless `symmetry` is `None`.
    #[must_use]
    pub fn decision(k: usize, threads: usize, symmetry: Option<LexOrder>) -> Self {
        Self::count(k, Blocking::Full, DEFAULT_DEPTH, threads, symmetry)
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
        }
    }

    /// Whether only one cube per orbit of cubes is solved.
    fn per_orbit(&self) -> bool {
        self.cubes == Cubes::OnePerOrbit && self.symmetry == Some(LexOrder::LinesFirst)
    }
}

/// Counts the (independent) dominating sets of at most `options.k` pieces
/// over the cubes of [`lines::split`], one fresh solver per cube on
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
) -> Result<(CubeCount, Option<Encoding>), SolveError> {
    let cubes = domination_cubes(problem, &options)?;
    let first = FirstEncoding::default();
    let (counted, _) = run_cubes(
        cubes.len(),
        options.threads,
        stop,
        progress,
        |i, workers| {
            let backend = solver.create(Mode::Enumerate, workers)?;
            let mut session = cube_session(problem, config, &options, backend, &cubes[i])?;
            first.offer(session.encoding());
            if options.blocking == Blocking::Short {
                session.assume_uniform_size();
            }
            let c = session.count(None, |_| {})?;
            Ok((c.count, c.models, c.end, ()))
        },
    )?;
    Ok((counted, first.into_inner()))
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

/// The optimiser's refutations of a dominating problem split into cubes
/// on `threads` workers of `solver` (measured faster than one fresh
/// solver, BENCHMARKS.md): a bound expected to be UNSAT by
/// [`decide_split`], a theorem's start, whose status is unknown, by
/// [`decide_race`]; lines-first lex-leader constraints with `symmetry`.
/// `stop` stops every worker. Pass it to
/// [`crate::search::optimise::optimise_refuting`] as its
/// [`crate::search::optimise::Refuter`].
pub fn refuter<'a>(
    problem: &'a Problem,
    config: Config,
    solver: &'a SolverSpec,
    threads: usize,
    symmetry: bool,
    stop: &'a Interrupter,
) -> impl Fn(Bound, Expect) -> Result<(Status, Option<Placement>), SolveError> + Sync + 'a {
    move |bound, expect| {
        let options =
            SplitOptions::decision(bound.k(), threads, symmetry.then_some(LexOrder::LinesFirst));
        let decided = match expect {
            Expect::Unknown => decide_race(problem, config, options, solver, stop),
            Expect::Unsat => decide_split(problem, config, options, solver, stop),
        }?;
        Ok((decided.status, decided.placement))
    }
}

/// The optimum of `problem` with its proof ([`optimise_refuting`]), the
/// calls expected to be UNSAT of a dominating problem split into cubes on
/// `threads` workers of `solver` ([`refuter`]); other problems, and the
/// calls expected to be SAT, on one solver created here. `stop` stops
/// every worker.
///
/// # Errors
///
/// As [`optimise_refuting`].
pub fn optimise_split(
    problem: &Problem,
    config: Config,
    solver: &SolverSpec,
    threads: usize,
    strategy: Strategy,
    stop: &Interrupter,
    observe: &(dyn Fn(Bound) + Sync),
) -> Result<(Optimum, Session), SolveError> {
    let backend = solver.create(Mode::Decide, stop)?;
    let refute = refuter(problem, config, solver, threads, strategy.symmetry, stop);
    let refuter = problem.kind.dominating().then_some(&refute as _);
    optimise_refuting(problem, config, backend, strategy, observe, refuter)
}

/// Decides whether `problem` has an (independent) dominating set of at
/// most `options.k` pieces, by cube-and-conquer: one fresh solver per cube
/// of [`lines::split`] on `options.threads` workers, each with the
/// bound and the implied line bounds as unit clauses and the lex-leader
/// constraints of `options.symmetry` (every orbit keeps its leader, which
/// lies in exactly one cube, so the cubes are SAT together exactly when
/// the problem is). The first model found stops the other workers and is
/// the answer (checked like any model); UNSAT needs every cube refuted;
/// a search stopped by `stop` is UNKNOWN. The optimiser's refutations
/// run here ([`refuter`]): split over the
/// cores they measured faster than one solver even on one core
/// (BENCHMARKS.md).
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
) -> Result<Decided, SolveError> {
    let cubes = domination_cubes(problem, &options)?;
    let first = FirstEncoding::default();
    let (counted, found) = run_cubes(
        cubes.len(),
        options.threads,
        stop,
        &|_, _| {},
        |i, workers| {
            let cube = || -> Result<(u64, u64, End, Option<Placement>), SolveError> {
                // CaDiCaL's options for enumeration (no elimination,
                // probing, subsumption or vivification) refute these small
                // formulas faster than its defaults (BENCHMARKS.md).
                let backend = solver.create(Mode::Enumerate, workers)?;
                let mut session = cube_session(problem, config, &options, backend, &cubes[i])?;
                first.offer(session.encoding());
                Ok(match session.solve(Mode::Decide)? {
                    (Status::Sat, Some(placement)) => {
                        // One model answers the question: stop the others.
                        workers.interrupt();
                        (1, 1, End::Exhausted, Some(placement))
                    }
                    (Status::Unsat, _) => (0, 0, End::Exhausted, None),
                    _ => (0, 0, End::Stopped, None),
                })
            };
            // A worker stopped by another's model while loading its cube
            // leaves the cube unfinished; that is not an error.
            cube().or_else(|e| {
                if workers.is_interrupted() {
                    Ok((0, 0, End::Stopped, None))
                } else {
                    Err(e)
                }
            })
        },
    )?;
    let placement = found.into_iter().find_map(|(_, p)| p);
    let status = match (&placement, counted.end) {
        (Some(_), _) => Status::Sat,
        (None, End::Exhausted) => Status::Unsat,
        (None, _) => Status::Unknown,
    };
    Ok(Decided {
        status,
        placement,
        encoding: first.into_inner(),
    })
}

/// As [`decide_split`], racing one more solver that searches for a model
/// without symmetry breaking or cubes (the bound by assumptions, as a
/// call expected to be SAT): for a bound of unknown status, such as the
/// start a theorem gives the optimiser. Lex-leader constraints and cubes
/// make refutations cheap and models dear (BENCHMARKS.md): the first
/// definite answer stops the other side.
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
) -> Result<Decided, SolveError> {
    let race = stop.child(None);
    let (split, seek) = std::thread::scope(|scope| {
        let seeker = scope.spawn(|| {
            let backend = solver.create(Mode::Decide, &race)?;
            let mut session = Session::fixed(problem, options.k, config, backend)?;
            let (status, placement) = session.solve(Mode::Decide)?;
            if status != Status::Unknown {
                race.interrupt();
            }
            Ok(Decided {
                status,
                placement,
                encoding: Some(session.into_encoding()),
            })
        });
        let split = decide_split(problem, config, options, solver, &race);
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
    match (split, seek) {
        (Ok(split), seek) if split.status != Status::Unknown => Ok(Decided {
            encoding: split
                .encoding
                .or_else(|| seek.ok().and_then(|s| s.encoding)),
            ..split
        }),
        (_, seek) if definite(&seek) => seek,
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
    }
}
