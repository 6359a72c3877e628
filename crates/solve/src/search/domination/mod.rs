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
//! [`crate::search::rings`] holds the geometry of the split (the rings,
//! orbits of cubes, stabilizers); the lex-leader orders are
//! [`crate::search::lex`]'s. Every cube's solver gets the same base
//! formula, encoded once per split ([`Base`]), then its own lex-leader
//! constraints and cube.
//!
//! **Re-splitting.** With [`SplitOptions::budget`], a cube whose solver
//! runs past the budget is stopped and replaced by its refinements by the
//! next ring (one per orbit under its stabilizer, [`representatives`]),
//! queued after the other cubes, so that no single cube keeps one core
//! busy while the other idles. The count stays exact: the refinements
//! partition the cube as the cubes partition the board, and what the
//! stopped solver had found is dropped with it.
//!
//! **Certification** ([`crate::search::certify`]): each cube's solver
//! traces an LRAT proof of its own answer, blocking clauses included, which
//! the context's [`Certify`] records; a re-split cube's trace is dropped, its refinements certify
//! themselves.

use std::time::{Duration, Instant};

use boardsat_encode::{Bound, Config, Encoding, Placement, Problem, Symmetry};

use crate::{
    backend::{recorder::Recorder, Backend, Mode, Status},
    error::SolveError,
    search::{
        certify::{Certify, CubeProof, ProvenCube, Purpose, SplitEnd, SplitInfo, Ticket},
        context::Context,
        count::{Blocking, End},
        lex::LexOrder,
        optimise::{optimise_refuting, Observe, Optimum, Refuted, Strategy},
        pool::{run_queue, CubeCount, CubeStop, Cubes, CubesDone, FirstEncoding, Splitting, Step},
        rings::{representatives, ring_lines, split, LineCube, Representative},
        session::{Base, Fix, Session},
    },
    stop::{thread_cpu, Interrupter},
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

/// How [`count_split`] and [`decide_split`] split and solve (on the
/// context's threads).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitOptions {
    /// At most `k` pieces.
    pub k: usize,
    /// The blocking clauses of a count: [`Blocking::Short`] when every
    /// solution has exactly `k` pieces (k is the proven optimum).
    pub blocking: Blocking,
    /// Outer rings fixed per cube.
    pub depth: usize,
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
    pub fn decision(k: usize, symmetry: Option<LexOrder>) -> Self {
        Self::count(k, Blocking::Full, DEFAULT_DEPTH, symmetry)
    }

    /// The options of the optimiser's decisions ([`decide_split`]) and of
    /// `solve -k`: [`REFUTATION_DEPTH`] rings, cubes' solvers in
    /// [`Mode::Refute`], a cube split again past [`REFUTATION_BUDGET`].
    /// Measured faster than [`Self::decision`]'s race on the satisfiable
    /// bounds too (docs/bench/frontier.md, "Splitting from the edge").
    #[must_use]
    pub fn refutation(k: usize, symmetry: Option<LexOrder>) -> Self {
        Self {
            mode: Mode::Refute,
            budget: Some(REFUTATION_BUDGET),
            ..Self::count(k, Blocking::Full, REFUTATION_DEPTH, symmetry)
        }
    }

    /// The options of a count of at most `k` pieces over `depth` outer
    /// rings, one cube per orbit of cubes.
    #[must_use]
    pub fn count(k: usize, blocking: Blocking, depth: usize, symmetry: Option<LexOrder>) -> Self {
        Self {
            k,
            blocking,
            depth,
            symmetry,
            cubes: Cubes::OnePerOrbit,
            budget: None,
            mode: Mode::Enumerate,
        }
    }

    /// Which cubes are solved: one per orbit of cubes only under the
    /// lex-leader constraints that keep one placement per orbit.
    fn solved(&self) -> Cubes {
        match (self.cubes, self.symmetry) {
            (Cubes::OnePerOrbit, Some(LexOrder::LinesFirst)) => Cubes::OnePerOrbit,
            _ => Cubes::All,
        }
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

impl Question {
    /// What the cubes' answers prove together, when certified.
    fn purpose(self) -> Purpose {
        match self {
            Question::Count(blocking) => Purpose::Count(blocking),
            Question::Decide => Purpose::Refute,
        }
    }
}

/// A split being solved: everything a worker needs besides its cube.
struct Run<'a> {
    ctx: &'a Context<'a>,
    /// The context's encodings, the lines in clauses when certified.
    config: Config,
    options: &'a SplitOptions,
    question: Question,
    /// The certifier and the split's number, when certified.
    certify: Option<(&'a dyn Certify, usize)>,
    /// The formula every cube's solver starts with.
    base: Base,
    first: FirstEncoding,
}

/// What a worker keeps of a cube solved to the end.
type Kept = Option<Placement>;

/// A cube's trace that its certifier keeps for the cube's proof: taken
/// for the proof, or forgotten when the cube ends otherwise (split again,
/// stopped, failed), so that no trace outlives its cube.
struct Pending<'a> {
    certify: &'a dyn Certify,
    ticket: Option<Ticket>,
}

impl Pending<'_> {
    /// The ticket, for the cube's proof.
    fn take(&mut self) -> Option<Ticket> {
        self.ticket.take()
    }
}

impl Drop for Pending<'_> {
    fn drop(&mut self) {
        if let Some(ticket) = self.ticket.take() {
            self.certify.forget(ticket);
        }
    }
}

impl<'a> Run<'a> {
    /// A split of `ctx`'s problem with `options`, asking `question`: its
    /// base formula encoded, and begun with the certifier when certified.
    ///
    /// # Errors
    ///
    /// [`SolveError::NotSplit`] for a problem that is not domination;
    /// encoding errors; the certifier's.
    fn begin(
        ctx: &'a Context<'a>,
        options: &'a SplitOptions,
        question: Question,
    ) -> Result<Self, SolveError> {
        if !ctx.problem.kind.dominating() {
            return Err(SolveError::NotSplit {
                problem: ctx.problem.to_string(),
                split: "the rings of rows and columns (domination only)",
            });
        }
        let config = split_config(ctx.config, ctx.certify);
        let fix = Fix::BoundAndImplied;
        let base = Base::new(&ctx.problem, options.k, config, fix)?;
        let info = SplitInfo {
            problem: ctx.problem,
            config,
            k: options.k,
            purpose: question.purpose(),
            symmetry: options.symmetry,
        };
        let certify = ctx
            .certify
            .map(|c| c.begin(&info).map(|split| (c, split)))
            .transpose()?;
        Ok(Run {
            ctx,
            config,
            options,
            question,
            certify,
            base,
            first: FirstEncoding::default(),
        })
    }

    /// Ends a certified split as `end` says.
    fn end(&self, end: SplitEnd) -> Result<(), SolveError> {
        match self.certify {
            Some((c, split)) => c.end(split, end),
            None => Ok(()),
        }
    }

    /// `cube`'s solver, obeying `stop`, loaded with the base formula, the
    /// cube's lex-leader constraints and the cube, tracing its proof when
    /// certified (the ticket of its trace).
    fn load(
        &self,
        cube: &Representative,
        stop: &Interrupter,
    ) -> Result<(Session, Option<Pending<'a>>), SolveError> {
        let mut backend = self.ctx.solver.create(self.options.mode, stop)?;
        let mut pending = None;
        if let Some((certify, _)) = self.certify {
            let backend_name = backend.signature();
            let tracer = backend.trace_proof().ok_or(SolveError::NoTracer {
                backend: backend_name,
            })?;
            let (ticket, sink) = certify.sink()?;
            let given = Pending {
                certify,
                ticket: Some(ticket),
            };
            tracer.start_trace(sink)?;
            pending = Some(given);
        }
        let session = cube_session(&self.base, backend, self.options.symmetry, cube)?;
        self.first.offer(session.encoding());
        Ok((session, pending))
    }

    /// Solves `cube` under `stops` (see the module doc for the budget and
    /// the certification).
    fn cube(
        &self,
        cube: &Representative,
        stops: &CubeStop,
    ) -> Result<Step<Representative, Kept>, SolveError> {
        let start = (Instant::now(), thread_cpu());
        let (mut session, mut pending) = self.load(cube, &stops.cube)?;
        let (count, models, end) = match self.question {
            Question::Count(blocking) => self.count(&mut session, blocking)?,
            Question::Decide => match session.solve(Mode::Decide)? {
                (Status::Sat, Some(placement)) => {
                    // One model answers the question: stop the others.
                    stops.workers.interrupt();
                    return Ok(Step::Done(1, 1, End::Exhausted, Some(placement)));
                }
                (Status::Unsat, _) => (0, 0, End::Exhausted),
                _ => (0, 0, End::Stopped),
            },
        };
        if end == End::Stopped && stops.asked_to_split() {
            return Ok(Step::Split(self.refine(cube)));
        }
        if end == End::Exhausted {
            if let Some(ticket) = pending.as_mut().and_then(Pending::take) {
                // The cube's solver ran on this thread: its CPU time too.
                let cpu = start.1.zip(thread_cpu()).map(|(a, b)| b.saturating_sub(a));
                self.certified(cube, &mut session, count, ticket, (start.0.elapsed(), cpu))?;
            }
        }
        Ok(Step::Done(count, models, end, None))
    }

    /// Counts a cube's placements on `session`, blocked as said, recording
    /// them for its proof when certified: the weighted count, the models,
    /// how it ended.
    fn count(
        &self,
        session: &mut Session,
        blocking: Blocking,
    ) -> Result<(u64, u64, End), SolveError> {
        if blocking == Blocking::Short {
            session.assume_uniform_size();
        }
        if self.certify.is_some() {
            session.record_blocked();
            // The blocking clauses are over the board's squares.
            let board = self.ctx.problem.board;
            let squares: Vec<rustsat::types::Var> =
                board.squares().map(|sq| board.lit(sq).var()).collect();
            if let Some(tracer) = session.backend().trace_proof() {
                tracer.keep(&squares)?;
            }
        }
        let c = session.count(None, |_| {})?;
        Ok((c.count, c.models, c.end))
    }

    /// The refinements of `cube` by the next ring that the split solves.
    fn refine(&self, cube: &Representative) -> Vec<Representative> {
        let board = self.ctx.problem.board;
        if self.options.solved() == Cubes::OnePerOrbit {
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

    /// Hands the proof of `cube`'s answer, its solver's trace (`ticket`),
    /// to the certifier, when certified.
    fn certified(
        &self,
        cube: &Representative,
        session: &mut Session,
        count: u64,
        ticket: Ticket,
        (elapsed, cpu): (Duration, Option<Duration>),
    ) -> Result<(), SolveError> {
        let Some((certify, split)) = self.certify else {
            return Ok(());
        };
        let placements = session.blocked().to_vec();
        let encoding = session.encoding().facts();
        let backend = session.backend();
        let backend_name = backend.signature();
        backend
            .trace_proof()
            .ok_or(SolveError::NoTracer {
                backend: backend_name,
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
                trace: ticket,
                elapsed,
                cpu,
            },
        )
    }

    /// Solves every cube of the split on the context's workers, taking
    /// the answers of the cubes an earlier run proved ([`settle`]).
    fn all(
        &self,
        progress: &(dyn Fn(u64, CubesDone) + Sync),
    ) -> Result<(CubeCount, Vec<(Representative, Kept)>), SolveError> {
        let board = self.ctx.problem.board;
        let mut cubes = split(&board, self.options.depth, self.options.solved());
        let mut before = Settled::default();
        if let Some((certify, index)) = self.certify {
            let proven = certify.proven_before(index);
            if !proven.is_empty() {
                (cubes, before) = settle(cubes, &proven, |cube| self.refine(cube))?;
            }
        }
        let can_split = |cube: &Representative| {
            ring_lines(&board, cube.cube.order, cube.cube.depth + 1).len() > cube.cube.lines.len()
        };
        let splitting = self.options.budget.map(|budget| Splitting {
            budget,
            can_split: &can_split,
        });
        let (mut counted, kept) = run_queue(
            cubes,
            self.ctx.threads,
            self.ctx.stop,
            &|count, cubes: CubesDone| {
                let cubes = CubesDone {
                    done: cubes.done + before.cubes,
                    known: cubes.known + before.cubes,
                };
                progress(count + before.count, cubes);
            },
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
        )?;
        counted.count += before.count;
        counted.models += before.models;
        counted.cubes_done += before.cubes;
        counted.cubes_total += before.cubes;
        Ok((counted, kept))
    }
}

/// What the cubes an earlier run proved add to a resumed split.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Settled {
    count: u64,
    models: u64,
    cubes: usize,
}

/// Whether the cube `outer` (its text and depth) holds the deeper cube
/// `inner`: every line `outer` fixes, `inner` fixes the same way.
fn holds(outer: (&str, usize), inner: (&str, usize)) -> bool {
    let lines = fixed_lines(inner.0);
    outer.1 < inner.1 && fixed_lines(outer.0).iter().all(|l| lines.contains(l))
}

/// The lines a cube fixes, as [`LineCube`]'s text writes them (`r0-`,
/// `c14+`).
fn fixed_lines(cube: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut start = 0;
    for (i, ch) in cube.char_indices() {
        if (ch == '+' || ch == '-') && i > start {
            lines.push(&cube[start..=i]);
            start = i + 1;
        }
    }
    lines
}

/// The cubes of a resumed split: each cube an earlier run proved is taken
/// as answered, and so are the refinements of a cube it proved whole (a
/// run resumed with a deeper split than the earlier one: its cubes under
/// a proven one are that cube's pieces, which the proof covers); a cube
/// some of whose refinements were proven (the earlier run split it again
/// past its budget, or split deeper) is replaced by its refinements
/// (`refine`, the same as the earlier run's), and so on down; the rest
/// are solved. A proven cube that is no cube of this split's tree is an
/// error: the directory's proofs belong to another split.
fn settle(
    cubes: Vec<Representative>,
    proven: &[ProvenCube],
    refine: impl Fn(&Representative) -> Vec<Representative>,
) -> Result<(Vec<Representative>, Settled), SolveError> {
    for p in proven {
        if let Some(q) = proven
            .iter()
            .find(|q| holds((&q.cube, q.depth), (&p.cube, p.depth)))
        {
            return Err(SolveError::NotResumable(format!(
                "the earlier run proved cube {} and also its piece {}",
                q.cube, p.cube
            )));
        }
    }
    let mut taken = vec![false; proven.len()];
    let mut settled = Settled::default();
    let mut todo: std::collections::VecDeque<Representative> = cubes.into();
    let mut queue = Vec::new();
    while let Some(cube) = todo.pop_front() {
        let name = cube.cube.to_string();
        let depth = cube.cube.depth;
        let exact = proven
            .iter()
            .position(|p| p.depth == depth && p.cube == name);
        if let Some(i) = exact {
            if std::mem::replace(&mut taken[i], true) {
                return Err(SolveError::NotResumable(format!(
                    "the earlier run proved cube {name} twice"
                )));
            }
        }
        // A piece of a cube proven whole (this split is deeper): counted
        // once, with the cube.
        let whole = exact.or_else(|| {
            proven
                .iter()
                .position(|p| holds((&p.cube, p.depth), (&name, depth)))
        });
        if let Some(i) = whole {
            if exact.is_some() || !std::mem::replace(&mut taken[i], true) {
                settled.count += proven[i].count;
                settled.models += proven[i].models;
                settled.cubes += 1;
            }
            continue;
        }
        // A cube some of whose pieces were proven: cut down to them.
        if proven
            .iter()
            .any(|p| holds((&name, depth), (&p.cube, p.depth)))
        {
            let pieces = refine(&cube);
            if pieces.is_empty() {
                return Err(SolveError::Internal("a cube without refinements"));
            }
            todo.extend(pieces);
        } else {
            queue.push(cube);
        }
    }
    if let Some(i) = taken.iter().position(|t| !t) {
        return Err(SolveError::NotResumable(format!(
            "the earlier run proved cube {} (depth {}), which this split does not have: its proofs belong to another split",
            proven[i].cube, proven[i].depth
        )));
    }
    Ok((queue, settled))
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

/// Counts the (independent) dominating sets of at most `options.k` pieces
/// of `ctx`'s problem over the cubes of [`split`], one fresh solver per
/// cube on the context's workers, re-splitting cubes past
/// [`SplitOptions::budget`]; with the context's certifier, each cube's
/// answer proven (see the module doc). `progress` is called after each
/// cube with the weighted count so far and the cubes done. With symmetry
/// breaking the models are the orbits. Returns the count and the encoding
/// the cubes' solvers ran on (`None` when no cube was loaded).
///
/// # Errors
///
/// [`SolveError::NotSplit`] for a problem that is not domination, or a
/// certified split on a solver that traces no proofs; the first error of
/// any worker (the others stop at their next cube).
pub fn count_split(
    ctx: &Context<'_>,
    options: SplitOptions,
    progress: &(dyn Fn(u64, CubesDone) + Sync),
) -> Result<(CubeCount, Option<Encoding>), SolveError> {
    let run = Run::begin(ctx, &options, Question::Count(options.blocking))?;
    let (counted, _) = run.all(progress)?;
    run.end(if counted.end == End::Exhausted {
        SplitEnd::Complete
    } else {
        SplitEnd::Stopped
    })?;
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

/// Cube `cube` on `backend`: the split's `base` formula (the problem with
/// at most k pieces, the bound and the implied line bounds as units,
/// [`Fix::BoundAndImplied`]), the lex-leader constraints of `symmetry`
/// under the cube's stabilizer (the whole group when every cube is
/// solved), and the cube's clauses.
fn cube_session(
    base: &Base,
    backend: Box<dyn Backend>,
    symmetry: Option<LexOrder>,
    cube: &Representative,
) -> Result<Session, SolveError> {
    let mut session = base.load(backend)?;
    if let Some(order) = symmetry {
        session.break_symmetry_under(order, cube.stabilizer.clone())?;
    }
    let board = session.problem().board;
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
    cube: &LineCube,
    stabilizer: &[Symmetry],
) -> Result<(Vec<Vec<rustsat::types::Lit>>, u32), SolveError> {
    let base = cube_base(problem, k, config)?;
    cube_clauses_on(&base, symmetry, cube, stabilizer)
}

/// The base every cube of a split of `problem` with at most `k` pieces
/// starts from: the problem with the bound and the implied line bounds as
/// units ([`Fix::BoundAndImplied`]). Encoded once, it serves every cube
/// ([`cube_clauses_on`]).
///
/// # Errors
///
/// Encoding errors.
pub fn cube_base(problem: &Problem, k: usize, config: Config) -> Result<Base, SolveError> {
    Base::new(problem, k, config, Fix::BoundAndImplied)
}

/// [`cube_clauses`] on a base already encoded ([`cube_base`]): a checker
/// of many cubes encodes their base once.
///
/// # Errors
///
/// Encoding errors.
pub fn cube_clauses_on(
    base: &Base,
    symmetry: Option<LexOrder>,
    cube: &LineCube,
    stabilizer: &[Symmetry],
) -> Result<(Vec<Vec<rustsat::types::Lit>>, u32), SolveError> {
    let (recorder, clauses) = Recorder::new();
    let rep = Representative {
        cube: cube.clone(),
        orbit: 1,
        stabilizer: stabilizer.to_vec(),
    };
    let session = cube_session(base, Box::new(recorder), symmetry, &rep)?;
    let n_vars = session.n_vars();
    drop(session);
    let clauses = clauses.take();
    Ok((clauses, n_vars))
}

/// The optimiser's refutations of `ctx`'s dominating problem split into
/// cubes on the context's workers (measured faster than one fresh solver,
/// BENCHMARKS.md) by [`decide_split`] with [`SplitOptions::refutation`],
/// the theorem's start included: with the split from the edge, that was
/// faster than racing a model search there even where the start is
/// satisfiable (γ(Q_17..19), BENCHMARKS.md); lines-first lex-leader
/// constraints with `symmetry`; each refutation certified by the
/// context's certifier. Each split's encoding is offered to `first`. Pass
/// it to [`crate::search::optimise::optimise_refuting`] as its
/// [`crate::search::optimise::Refuter`].
pub fn refuter<'a>(
    ctx: &'a Context<'a>,
    symmetry: bool,
    first: &'a FirstEncoding,
) -> impl Fn(Bound) -> Result<Refuted, SolveError> + Sync + 'a {
    observed_refuter(ctx, symmetry, first, &|_: usize| {})
}

/// As [`refuter`], telling `answered` how many cubes of the running split
/// have their answer after each one.
fn observed_refuter<'a>(
    ctx: &'a Context<'a>,
    symmetry: bool,
    first: &'a FirstEncoding,
    answered: &'a (dyn Fn(usize) + Sync),
) -> impl Fn(Bound) -> Result<Refuted, SolveError> + Sync + 'a {
    move |bound| {
        let symmetry = symmetry.then_some(LexOrder::LinesFirst);
        let options = SplitOptions::refutation(bound.k(), symmetry);
        let decided = decide_observed(ctx, options, answered)?;
        if let Some(encoding) = &decided.encoding {
            first.offer(encoding);
        }
        Ok(Refuted {
            certified: ctx.certify.is_some() && decided.status == Status::Unsat,
            status: decided.status,
            placement: decided.placement,
        })
    }
}

/// The optimum of `ctx`'s problem with its proof ([`optimise_refuting`]):
/// the calls expected to be UNSAT of a dominating problem split into cubes
/// ([`refuter`], certified by the context's certifier); other problems,
/// and the calls expected to be SAT, on one solver of the context's kind,
/// made only when such a call comes. Returns the optimum and the encoding
/// the solvers ran on: the optimiser's own, or, when every call was split,
/// the first split's (`None` when no solver was loaded).
///
/// # Errors
///
/// As [`optimise_refuting`].
pub fn optimise_split(
    ctx: &Context<'_>,
    strategy: Strategy,
    observe: &dyn Observe,
) -> Result<(Optimum, Option<Encoding>), SolveError> {
    let first = FirstEncoding::default();
    let answered = |done: usize| observe.cubes(done);
    let refute = observed_refuter(ctx, strategy.symmetry, &first, &answered);
    let refuter = ctx.problem.kind.dominating().then_some(&refute as _);
    let backend = Box::new(|| ctx.solver.create(Mode::Decide, ctx.stop));
    let (optimum, session) = optimise_refuting(
        &ctx.problem,
        ctx.config,
        backend,
        strategy,
        observe,
        refuter,
    )?;
    let encoding = session.map(Session::into_encoding);
    Ok((optimum, encoding.or_else(|| first.take())))
}

/// Decides whether `ctx`'s problem has an (independent) dominating set of
/// at most `options.k` pieces, by cube-and-conquer: one fresh solver per
/// cube of [`split`] on the context's workers, each with the bound and the
/// implied line bounds as unit clauses and the lex-leader constraints of
/// `options.symmetry` (every orbit keeps its leader, which lies in exactly
/// one cube, so the cubes are SAT together exactly when the problem is),
/// re-splitting cubes past [`SplitOptions::budget`]. The first model found
/// stops the other workers and is the answer (checked like any model);
/// UNSAT needs every cube refuted — each refutation proven by the
/// context's certifier; a search stopped by the context's stop flag is
/// UNKNOWN. The optimiser's refutations run here ([`refuter`]): split over
/// the cores they measured faster than one solver even on one core
/// (BENCHMARKS.md).
///
/// # Errors
///
/// [`SolveError::NotSplit`] for a problem that is not domination; the
/// first error of any worker.
pub fn decide_split(ctx: &Context<'_>, options: SplitOptions) -> Result<Decided, SolveError> {
    decide_observed(ctx, options, &|_| {})
}

/// [`decide_split`], telling `answered` how many cubes have their answer
/// after each one. A placement that a half turn maps onto itself is
/// searched for first, for up to [`SYMMETRIC_PROBE`]
/// ([`symmetric_placement`]); one found is the answer, and the split's
/// cubes are not solved (its proof entry ends as satisfiable, as when a
/// cube finds the model).
fn decide_observed(
    ctx: &Context<'_>,
    options: SplitOptions,
    answered: &(dyn Fn(usize) + Sync),
) -> Result<Decided, SolveError> {
    let run = Run::begin(ctx, &options, Question::Decide)?;
    let decided = match symmetric_placement(ctx, options.k)? {
        Some((placement, encoding)) => Decided {
            status: Status::Sat,
            placement: Some(placement),
            encoding: Some(encoding),
        },
        None => decide_cubes(&run, answered)?,
    };
    run.end(refutation_end(decided.status))?;
    Ok(decided)
}

/// How long a decision searches first for a placement that a half turn
/// maps onto itself ([`symmetric_placement`]): CaDiCaL conflicts, so that
/// the search finds the same placements on a busy machine as on an idle
/// one (a bound in seconds had missed 25×25's beside the test suite).
/// Seconds on the boards where it pays, against the split's minutes to
/// hours (docs/bench/half-turn.md, "Placements a half turn keeps").
pub const SYMMETRIC_PROBE: u32 = 500_000;

/// A placement of at most `k` pieces for `ctx`'s problem that a half turn
/// maps onto itself, searched for on a solver of its own for up to
/// [`SYMMETRIC_PROBE`] conflicts (with its encoding), or `None` when there
/// is none, the search ran out of conflicts, or the solver cannot bound a
/// call in conflicts (an external one, varisat). The
/// restriction only narrows the search: a placement found is a placement
/// of the problem, read and checked like any model, and nothing is
/// concluded from its absence. On odd boards such placements are where
/// the optimal ones are quickest to find: 12 queens dominating 23×23 in
/// seconds, where the split searched for more than 20 minutes
/// (BENCHMARKS.md).
///
/// # Errors
///
/// Backend and encoding errors; a model that is not a placement.
pub fn symmetric_placement(
    ctx: &Context<'_>,
    k: usize,
) -> Result<Option<(Placement, Encoding)>, SolveError> {
    if ctx.stop.is_interrupted() {
        return Ok(None);
    }
    // Only a backend that bounds its calls in conflicts searches: the
    // capability, not the backend's name, decides (external solvers and
    // varisat have none).
    let mut backend = ctx.solver.create(Mode::Decide, ctx.stop)?;
    match backend.conflict_limit() {
        Some(limit) => limit.set_conflict_limit(Some(SYMMETRIC_PROBE)),
        None => return Ok(None),
    }
    let mut session = Session::fixed(&ctx.problem, k, ctx.config, backend)?;
    let board = ctx.problem.board;
    for square in board.squares() {
        let image = Symmetry::HalfTurn.apply(&board, square);
        if image != square {
            session
                .backend()
                .add_clause(&[!board.lit(square), board.lit(image)])?;
        }
    }
    match session.solve(Mode::Decide) {
        Ok((Status::Sat, Some(placement))) => Ok(Some((placement, session.into_encoding()))),
        Ok(_) => Ok(None),
        Err(SolveError::Interrupted(_)) if !ctx.stop.is_interrupted() => Ok(None),
        Err(e) => Err(e),
    }
}

/// [`decide_split`] of a split begun, telling `answered` how many cubes
/// have their answer after each one.
fn decide_cubes(run: &Run<'_>, answered: &(dyn Fn(usize) + Sync)) -> Result<Decided, SolveError> {
    let (counted, found) = run.all(&|_, cubes| answered(cubes.done))?;
    let placement = found.into_iter().find_map(|(_, p)| p);
    let status = match (&placement, counted.end) {
        (Some(_), _) => Status::Sat,
        (None, End::Exhausted) => Status::Unsat,
        (None, _) => Status::Unknown,
    };
    Ok(Decided {
        status,
        placement,
        encoding: run.first.take(),
    })
}

/// How a certified refutation ends as its answer says: complete when
/// UNSAT, void when a placement was found (by it or by a race's other
/// side).
fn refutation_end(status: Status) -> SplitEnd {
    match status {
        Status::Unsat => SplitEnd::Complete,
        Status::Sat => SplitEnd::Satisfiable,
        Status::Unknown => SplitEnd::Stopped,
    }
}

/// As [`decide_split`], racing one more solver that searches for a model
/// without symmetry breaking or cubes (the bound by assumptions, as a
/// call expected to be SAT): the first definite answer stops the other
/// side — with the context's certifier, only a model stops the split,
/// whose refutations are the proven ones. The optimiser raced its
/// theorem's start this way until the split from the edge found the
/// models of γ(Q_17..19) sooner on its own (BENCHMARKS.md, "Splitting from
/// the edge"); kept for library callers that want a model search beside
/// the split.
///
/// # Errors
///
/// As [`decide_split`]; an error of the side that lost the race is
/// dropped.
pub fn decide_race(ctx: &Context<'_>, options: SplitOptions) -> Result<Decided, SolveError> {
    let race = ctx.stop.child(None);
    let raced = Context {
        stop: &race,
        ..*ctx
    };
    let run = Run::begin(&raced, &options, Question::Decide)?;
    let certified = ctx.certify.is_some();
    let (split, seek) = std::thread::scope(|scope| {
        let seeker = scope.spawn(|| seek_model(&run, &race, certified));
        let split = decide_cubes(&run, &|_| {});
        if split.as_ref().is_ok_and(|d| d.status != Status::Unknown) {
            race.interrupt();
        }
        let seek: Result<Decided, SolveError> = seeker.join().unwrap_or_else(|_| {
            Err(SolveError::Solver {
                backend: ctx.solver.signature(),
                message: "the model search of a race panicked".to_string(),
            })
        });
        (split, seek)
    });
    let decided = race_answer(split, seek, certified, ctx.stop.is_interrupted())?;
    run.end(refutation_end(decided.status))?;
    Ok(decided)
}

/// The model search of [`decide_race`]: one solver with the bound by
/// assumptions, stopping the race when it answers — with proofs asked
/// for, only with a model (its UNSAT answer is not traced: the split's
/// proofs are the proven ones).
fn seek_model(run: &Run<'_>, race: &Interrupter, certified: bool) -> Result<Decided, SolveError> {
    let backend = run.ctx.solver.create(Mode::Decide, race)?;
    let mut session = Session::fixed(&run.ctx.problem, run.options.k, run.config, backend)?;
    let (status, placement) = session.solve(Mode::Decide)?;
    if status == Status::Sat || (status == Status::Unsat && !certified) {
        race.interrupt();
    }
    Ok(Decided {
        status,
        placement,
        encoding: Some(session.into_encoding()),
    })
}

/// The answer of a race between the split and the model search: the
/// split's when definite, else a model found, else (without proofs) the
/// search's definite answer; UNKNOWN when the caller stopped both.
fn race_answer(
    split: Result<Decided, SolveError>,
    seek: Result<Decided, SolveError>,
    certified: bool,
    stopped: bool,
) -> Result<Decided, SolveError> {
    let definite =
        |r: &Result<Decided, SolveError>| r.as_ref().is_ok_and(|d| d.status != Status::Unknown);
    match (split, seek) {
        (Ok(split), seek) if split.status != Status::Unknown => Ok(Decided {
            encoding: split
                .encoding
                .or_else(|| seek.ok().and_then(|s| s.encoding)),
            ..split
        }),
        (_, Ok(seek)) if seek.status == Status::Sat => Ok(seek),
        (_, seek) if definite(&seek) && !certified => seek,
        // Neither side answered: stopped by the caller, or an error.
        (split, seek) if stopped => Ok(Decided {
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
