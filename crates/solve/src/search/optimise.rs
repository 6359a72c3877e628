//! Optimisation: minimum domination and maximum independence, with the
//! optimum proven by the solver.
//!
//! One solver, one counter over the board built for every bound the search
//! can ask for; each bound is set by assumptions, so learnt clauses carry
//! over between calls. The search starts from a greedy placement (an upper
//! bound for domination, a lower bound for independence) and walks towards
//! the optimum with SAT answers, each one jumping to the size of the model
//! found; it ends with one UNSAT call at the next better bound — that call
//! is the proof. A known theorem may only choose a start, never replace the
//! proof.

use std::time::{Duration, Instant};

use boardsat_encode::{check, Bound, Config, Kind, Piece, Placement, Problem, Square};

use crate::{
    backend::{spec::SolverSpec, Backend, Mode, Status},
    error::SolveError,
    search::session::{Breaking, Fix, Session},
    stop::Interrupter,
};

/// Which way the optimum lies: the linear model's sense, one type for
/// both.
pub use boardsat_encode::linear::Sense;

/// One solver call of the search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Call {
    /// The bound tried.
    pub bound: Bound,
    /// The answer.
    pub status: Status,
    /// Wall time of the call.
    pub elapsed: Duration,
    /// Whether the answer was proven as it was found (a certified split's
    /// refutation: its claims are written already).
    pub certified: bool,
}

/// The result of an optimisation.
#[derive(Clone, Debug, PartialEq)]
pub struct Optimum {
    /// The best number of pieces found.
    pub value: usize,
    /// A checked placement with `value` pieces.
    pub witness: Placement,
    /// Whether the solver proved that no better value exists (UNSAT at the
    /// next better bound).
    pub proven: bool,
    /// Every call, in order.
    pub calls: Vec<Call>,
}

impl Optimum {
    /// The call that proved optimality: the UNSAT answer one step better
    /// than the optimum (none when the optimum needs no proof, e.g. every
    /// square occupied).
    #[must_use]
    pub fn proof(&self) -> Option<&Call> {
        if !self.proven {
            return None;
        }
        self.calls.iter().rev().find(|c| {
            c.status == Status::Unsat
                && match c.bound {
                    Bound::AtMost(k) => k + 1 == self.value,
                    Bound::AtLeast(k) => k == self.value + 1,
                    Bound::Exactly(_) => false,
                }
        })
    }
}

/// Finds the optimum of `problem` on `backend`, returning it with the
/// session left at the optimal bound ([`optimal_session`]: ready to
/// enumerate every optimal placement; sizes are uniform there, so short
/// blocking clauses are used).
///
/// A backend that answers UNKNOWN (time limit) ends the search with
/// `proven: false` and the best witness so far.
///
/// # Errors
///
/// Backend errors, wrong placements, or a problem with no solution at any
/// size (cannot happen for these families: the empty placement is
/// independent and the full board dominates).
pub fn optimise(
    problem: &Problem,
    config: Config,
    backend: Box<dyn Backend>,
) -> Result<(Optimum, Session), SolveError> {
    optimise_with(problem, config, backend, Strategy::default())
}

/// How [`optimise_with`] searches. The default keeps every optimal
/// placement in the returned session; [`Strategy::fastest`] is for when
/// only the optimum (or a count, which stays exact) is wanted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Strategy {
    /// Switchable lex-leader symmetry breaking (see
    /// [`Session::break_symmetry`]), on for the calls expected to
    /// be UNSAT: it keeps the optimum and makes UNSAT proofs cheaper. The
    /// returned session has it on, so it enumerates one placement per orbit
    /// (counts stay exact, weighted by orbit size).
    pub symmetry: bool,
    /// The first bound to try, when a theorem suggests one; the search goes
    /// on from there in whichever direction the answer points and still ends
    /// with the solver's UNSAT call next to the optimum.
    pub start: Option<usize>,
    /// Make the calls expected to be UNSAT on a fresh solver of their own
    /// ([`Backend::fresh`]) with the bound as unit clauses
    /// ([`Session::fix_bound`]) and, with `symmetry`, hard lex-leader
    /// constraints, instead of by assumptions on the session's solver: the
    /// solver can then simplify with the bound (measured faster,
    /// BENCHMARKS.md). Backends without `fresh` fall back to the session's
    /// solver.
    pub fresh_refutations: bool,
}

impl Strategy {
    /// Symmetry breaking, and for queen domination on a square board the
    /// start γ(Q_n) ≥ ⌈n/2⌉ (Weakley; n = 3 and 11 are the known
    /// exceptions, one lower).
    #[must_use]
    pub fn fastest(problem: &Problem) -> Self {
        let n = problem.board.rows();
        let start = (problem.kind == Kind::Domination
            && problem.piece == Piece::Queen
            && problem.board.is_square())
        .then(|| {
            if n == 3 || n == 11 {
                n / 2
            } else {
                n.div_ceil(2)
            }
        });
        Strategy {
            symmetry: true,
            start,
            fresh_refutations: true,
        }
    }
}

/// As [`optimise`], with a search [`Strategy`].
///
/// # Errors
///
/// As [`optimise`].
pub fn optimise_with(
    problem: &Problem,
    config: Config,
    backend: Box<dyn Backend>,
    strategy: Strategy,
) -> Result<(Optimum, Session), SolveError> {
    optimise_observed(problem, config, backend, strategy, &|_: Bound| {})
}

/// As [`optimise_with`], telling `observe` each bound before its call
/// (progress for a search that can take minutes).
///
/// # Errors
///
/// As [`optimise`].
pub fn optimise_observed(
    problem: &Problem,
    config: Config,
    backend: Box<dyn Backend>,
    strategy: Strategy,
    observe: &dyn Observe,
) -> Result<(Optimum, Session), SolveError> {
    let mut own = Own::new(problem, config, strategy, Box::new(move || Ok(backend)));
    let optimum = search(&mut own, strategy, observe, None)?;
    let session = optimal_session(own.into_session()?, &optimum)?;
    Ok((optimum, session))
}

/// What a search tells its caller as it goes, for searches that take
/// minutes or hours: each bound before its call and, while a call is
/// split into cubes, how many of them are answered. Any `Fn(Bound) + Sync`
/// closure observes the bounds alone.
pub trait Observe: Sync {
    /// `bound`, before its call.
    fn bound(&self, bound: Bound);

    /// `answered` cubes of the running call's split have their answer (the
    /// pieces of re-split cubes counted as they finish).
    fn cubes(&self, answered: usize) {
        let _ = answered;
    }
}

impl<F: Fn(Bound) + Sync + ?Sized> Observe for F {
    fn bound(&self, bound: Bound) {
        self(bound);
    }
}

/// What a [`Refuter`] answers about a bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refuted {
    /// SAT, UNSAT or UNKNOWN.
    pub status: Status,
    /// The checked placement, when SAT.
    pub placement: Option<Placement>,
    /// Whether an UNSAT answer was proven as it was found.
    pub certified: bool,
}

/// A call that answers a bound on solvers of its own: the optimiser's
/// calls expected to be UNSAT, for instance split into cubes
/// ([`crate::search::domination::refuter`]).
pub type Refuter<'a> = &'a (dyn Fn(Bound) -> Result<Refuted, SolveError> + Sync);

/// Where the optimiser's own solver comes from: made when a call first
/// needs it.
pub type MakeBackend<'a> = Box<dyn FnOnce() -> Result<Box<dyn Backend>, SolveError> + 'a>;

/// The search of [`optimise_observed`]; `refuter`, when given, answers the
/// calls expected to be UNSAT (and the theorem's start). The optimiser's
/// own solver is made by `backend` and loaded with the problem only when
/// a call needs it: a search whose every call the refuter answers loads
/// none, and returns none. A session returned is as the search left it:
/// [`optimal_session`] makes it ready to enumerate the optimal placements.
///
/// # Errors
///
/// As [`optimise`].
pub fn optimise_refuting(
    problem: &Problem,
    config: Config,
    backend: MakeBackend<'_>,
    strategy: Strategy,
    observe: &dyn Observe,
    refuter: Option<Refuter<'_>>,
) -> Result<(Optimum, Option<Session>), SolveError> {
    let mut own = Own::new(problem, config, strategy, backend);
    let optimum = search(&mut own, strategy, observe, refuter)?;
    Ok((optimum, own.session))
}

/// The optimiser's own solver and session, each made when first needed
/// (see [`optimise_refuting`]).
struct Own<'a> {
    problem: Problem,
    config: Config,
    /// Symmetry breaking, switchable (see [`Strategy::symmetry`]).
    symmetry: bool,
    /// The largest bound the session's counter is built for.
    max_bound: usize,
    make: Option<MakeBackend<'a>>,
    backend: Option<Box<dyn Backend>>,
    session: Option<Session>,
}

impl<'a> Own<'a> {
    fn new(problem: &Problem, config: Config, strategy: Strategy, make: MakeBackend<'a>) -> Self {
        Own {
            problem: *problem,
            config,
            symmetry: strategy.symmetry,
            max_bound: 0,
            make: Some(make),
            backend: None,
            session: None,
        }
    }

    /// The solver, made if it was not: the session's, once loaded.
    fn backend(&mut self) -> Result<&mut dyn Backend, SolveError> {
        if self.session.is_none() && self.backend.is_none() {
            self.backend = Some(self.make()?);
        }
        match (&mut self.session, &mut self.backend) {
            (Some(session), _) => Ok(session.backend()),
            (None, Some(backend)) => Ok(backend.as_mut()),
            (None, None) => Err(unloaded()),
        }
    }

    /// The session, loaded if it was not.
    fn session(&mut self) -> Result<&mut Session, SolveError> {
        if self.session.is_none() {
            let backend = match self.backend.take() {
                Some(backend) => backend,
                None => self.make()?,
            };
            let mut session = Session::open(&self.problem, self.max_bound, self.config, backend)?;
            if self.symmetry {
                session.break_symmetry(Breaking::Switchable)?;
            }
            self.session = Some(session);
        }
        self.session.as_mut().ok_or_else(unloaded)
    }

    fn make(&mut self) -> Result<Box<dyn Backend>, SolveError> {
        self.make.take().ok_or_else(unloaded)?()
    }

    /// The session, loaded if no call needed it.
    fn into_session(mut self) -> Result<Session, SolveError> {
        self.session()?;
        self.session.ok_or_else(unloaded)
    }
}

/// The optimiser's own solver could not be made: it was made already and
/// given up (a bug, never a user's error).
fn unloaded() -> SolveError {
    SolveError::Internal("the optimiser's own solver was made twice")
}

/// The walk of [`optimise_refuting`] over sizes, from the greedy placement
/// to the optimum, on `own`'s session or `refuter`.
fn search(
    own: &mut Own<'_>,
    strategy: Strategy,
    observe: &dyn Observe,
    refuter: Option<Refuter<'_>>,
) -> Result<Optimum, SolveError> {
    let problem = own.problem;
    let greedy = greedy(&problem);
    let walk = Walk::new(&problem, greedy.len());
    own.max_bound = walk.max_bound;
    // The greedy placement is an answer too (it is the witness when no
    // call improves on it), so it is checked like any model.
    check(&problem, Some(walk.bound_of(greedy.len())), &greedy).map_err(|violation| {
        SolveError::WrongPlacement {
            placement: greedy.to_string(),
            violation,
        }
    })?;
    let mut best = greedy;
    // Sizes strictly between `best` and `refuted` are open; `refuted` is the
    // nearest size the solver proved impossible (None: none yet).
    let mut refuted: Option<usize> = None;
    let theorem_start = strategy.start.filter(|&s| walk.open(s, best.len(), None));
    let mut next = theorem_start.or_else(|| walk.better(best.len()));
    let mut proven = next.is_none();
    let mut calls = Vec::new();
    // Calls one step better than a model just found are expected to be
    // UNSAT: those get the symmetry breaking (and, with
    // `fresh_refutations`, a solver of their own); the others, expected
    // SAT, search without it. A theorem's start is treated as a
    // refutation too, since a SAT answer there costs little either way and
    // a refutation without the breaking a lot (BENCHMARKS.md).
    let mut refutation = theorem_start.is_some();
    while let Some(k) = next {
        let bound = walk.bound_of(k);
        observe.bound(bound);
        let start = Instant::now();
        let call = match (refutation, refuter) {
            (true, Some(refute)) => refute(bound)?,
            _ => one_call(own, strategy, bound, refutation)?,
        };
        let Refuted {
            status,
            placement,
            certified,
        } = call;
        calls.push(Call {
            bound,
            status,
            elapsed: start.elapsed(),
            certified,
        });
        (next, refutation) = match (status, placement) {
            (Status::Sat, Some(placement)) => {
                best = placement;
                let next = walk.better(best.len());
                (next.filter(|&k| walk.open(k, best.len(), refuted)), true)
            }
            (Status::Unsat, _) => {
                refuted = Some(k);
                // From a start that was too good, walk back towards `best`.
                let back = walk.back(k);
                (back.filter(|&k| walk.open(k, best.len(), refuted)), false)
            }
            _ => break,
        };
        proven = next.is_none();
    }
    Ok(Optimum {
        value: best.len(),
        witness: best,
        proven,
        calls,
    })
}

/// The optimiser's session made ready to enumerate every optimal
/// placement: bounded at the optimum, symmetry breaking on where it was
/// added (counts stay exact with orbit weights), and with a proven optimum
/// the short blocking clauses (every optimal placement has the same size).
///
/// # Errors
///
/// Backend errors.
pub fn optimal_session(mut session: Session, optimum: &Optimum) -> Result<Session, SolveError> {
    let walk = Walk::new(session.problem(), optimum.value);
    session.set_bound(walk.bound_of(optimum.value))?;
    // Counting the optimal placements is cheaper one orbit at a time.
    session.set_symmetry(true);
    if optimum.proven {
        session.assume_uniform_size();
    }
    Ok(session)
}

/// Where the optimiser's walk over sizes can go: which way is better, and
/// how far.
#[derive(Clone, Copy, Debug)]
struct Walk {
    sense: Sense,
    /// The largest bound the counter is built for.
    max_bound: usize,
}

impl Walk {
    /// The walk of `problem` from a greedy placement of `greedy` pieces.
    fn new(problem: &Problem, greedy: usize) -> Self {
        let sense = Sense::of(problem.kind);
        let max_bound = match sense {
            Sense::Minimise => greedy,
            // One past the theorem's bound, so that the solver itself
            // proves it with an UNSAT call: the theorem only sizes the
            // counter.
            Sense::Maximise => {
                (problem.independence_upper_bound() + 1).min(problem.board.n_squares())
            }
        };
        Walk { sense, max_bound }
    }

    fn bound_of(self, k: usize) -> Bound {
        match self.sense {
            Sense::Minimise => Bound::AtMost(k),
            Sense::Maximise => Bound::AtLeast(k),
        }
    }

    /// One step better than `size`, if that is a size at all.
    fn better(self, size: usize) -> Option<usize> {
        match self.sense {
            Sense::Minimise => size.checked_sub(1),
            Sense::Maximise => Some(size + 1).filter(|&k| k <= self.max_bound),
        }
    }

    /// One step worse than a refuted `k`.
    fn back(self, k: usize) -> Option<usize> {
        match self.sense {
            Sense::Minimise => Some(k + 1),
            Sense::Maximise => k.checked_sub(1),
        }
    }

    /// Whether `k` is still open between `best` and `refuted`.
    fn open(self, k: usize, best: usize, refuted: Option<usize>) -> bool {
        match self.sense {
            Sense::Minimise => k < best && refuted.is_none_or(|r| k > r),
            Sense::Maximise => k > best && refuted.is_none_or(|r| k < r),
        }
    }
}

/// One call of the walk at `bound` on the optimiser's own solvers: on a
/// fresh solver with the bound as units when the call is a `refutation`
/// and [`Strategy::fresh_refutations`] asks for it (and the backend can
/// make one), else on the session, by assumptions.
fn one_call(
    own: &mut Own<'_>,
    strategy: Strategy,
    bound: Bound,
    refutation: bool,
) -> Result<Refuted, SolveError> {
    let fresh = if strategy.fresh_refutations && refutation {
        own.backend()?.fresh(Mode::Decide)
    } else {
        None
    };
    let (status, placement) = match fresh {
        Some(backend) => refute(&own.problem, bound, own.config, backend, strategy.symmetry)?,
        None => {
            let session = own.session()?;
            session.set_bound(bound)?;
            session.set_symmetry(refutation);
            session.solve(Mode::Decide)?
        }
    };
    Ok(Refuted {
        status,
        placement,
        certified: false,
    })
}

/// One call at `bound` on its own solver, with the bound (and the implied
/// bounds) as unit clauses and, with `symmetry`, hard lex-leader
/// constraints: a model found is checked as usual (it is a lex leader, any
/// placement of its size will do for the optimiser).
fn refute(
    problem: &Problem,
    bound: Bound,
    config: Config,
    backend: Box<dyn Backend>,
    symmetry: bool,
) -> Result<(Status, Option<Placement>), SolveError> {
    let mut session = Session::open(problem, bound.k(), config, backend)?;
    session.set_bound(bound)?;
    session.fix_bound(Fix::BoundAndImplied)?;
    if symmetry {
        session.break_symmetry(Breaking::Hard)?;
    }
    session.solve(Mode::Decide)
}

/// A greedy placement: for domination, repeatedly the square covering most
/// uncovered squares (independent domination: among squares not attacking a
/// placed piece); for independence, squares in order of fewest attacks. Only
/// a starting bound: the result is checked like any model.
fn greedy(problem: &Problem) -> Placement {
    let board = problem.board;
    let piece = problem.piece;
    let hoods: Vec<Vec<usize>> = board
        .squares()
        .map(|sq| {
            piece
                .closed_neighbourhood(&board, sq)
                .into_iter()
                .map(|s| board.index(s))
                .collect()
        })
        .collect();
    let n = board.n_squares();
    let mut blocked = vec![false; n];
    let mut chosen = Vec::new();
    let place = |i: usize, blocked: &mut Vec<bool>, chosen: &mut Vec<Square>| {
        chosen.extend(board.square_at(i));
        for &j in &hoods[i] {
            blocked[j] = true;
        }
    };
    if problem.kind.dominating() {
        let mut covered = vec![false; n];
        while covered.iter().any(|c| !c) {
            let best = (0..n)
                .filter(|&i| !problem.kind.independent() || !blocked[i])
                .max_by_key(|&i| (hoods[i].iter().filter(|&&j| !covered[j]).count(), n - i));
            // An uncovered square is neither occupied nor attacked, so it is
            // itself a candidate: `best` is never empty while one remains.
            let Some(i) = best else { break };
            for &j in &hoods[i] {
                covered[j] = true;
            }
            place(i, &mut blocked, &mut chosen);
        }
    } else {
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| (hoods[i].len(), i));
        for i in order {
            if !blocked[i] {
                place(i, &mut blocked, &mut chosen);
            }
        }
    }
    Placement::new(chosen)
}

/// What one member of a portfolio reports.
#[derive(Debug)]
pub struct PortfolioResult {
    /// The optimum it found (proven unless it was stopped).
    pub optimum: Optimum,
    /// Its encoding (sizes, the encodings used).
    pub encoding: boardsat_encode::Encoding,
}

/// Races [`optimise_with`] over `configs`, one thread and one solver each
/// (built from `solver`): the first member to prove its optimum stops the
/// others. SAT search times of these problems are heavy-tailed and differ by
/// encoding (BENCHMARKS.md), so the race pays where one fixed choice does
/// not. `stop` stops every member; every member's answer is checked as
/// usual, and the winner's proof is its own UNSAT call.
///
/// # Errors
///
/// The first member's error when no member proved an optimum.
pub fn optimise_portfolio(
    problem: &Problem,
    configs: &[Config],
    solver: &SolverSpec,
    strategy: Strategy,
    stop: &Interrupter,
    observe: &dyn Observe,
) -> Result<PortfolioResult, SolveError> {
    // The members' own flag: the winner raises it without stopping the
    // caller's other work; the caller's flag still stops every member.
    let race = stop.child(None);
    let results: Vec<Result<PortfolioResult, SolveError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = configs
            .iter()
            .map(|&config| {
                let race = &race;
                scope.spawn(move || {
                    let backend = solver.create(Mode::Decide, race)?;
                    let outcome = optimise_observed(problem, config, backend, strategy, observe);
                    if outcome.as_ref().is_ok_and(|(o, _)| o.proven) {
                        // First to a proof: stop the others.
                        race.interrupt();
                    }
                    outcome.map(|(optimum, session)| PortfolioResult {
                        optimum,
                        encoding: session.into_encoding(),
                    })
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join().unwrap_or_else(|_| {
                    Err(SolveError::Solver {
                        backend: "portfolio".to_string(),
                        message: "a portfolio member panicked".to_string(),
                    })
                })
            })
            .collect()
    });
    let sense = Sense::of(problem.kind);
    let mut best: Option<PortfolioResult> = None;
    let mut first_error = None;
    for result in results {
        match result {
            Ok(r) => {
                let better = match &best {
                    None => true,
                    Some(b) if r.optimum.proven != b.optimum.proven => r.optimum.proven,
                    Some(b) => match sense {
                        Sense::Minimise => r.optimum.value < b.optimum.value,
                        Sense::Maximise => r.optimum.value > b.optimum.value,
                    },
                };
                if better {
                    best = Some(r);
                }
            }
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    match (best, first_error) {
        (Some(b), _) => Ok(b),
        (None, Some(e)) => Err(e),
        (None, None) => Err(SolveError::Solver {
            backend: "portfolio".to_string(),
            message: "an empty portfolio".to_string(),
        }),
    }
}
