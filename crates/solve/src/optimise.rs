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

use boardsat_encode::{check, Board, Bound, Config, Kind, Piece, Placement, Problem, Square};

use crate::{Backend, Breaking, Fix, Interrupter, Mode, Session, SolveError, SolverSpec, Status};

/// Which way the optimum lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sense {
    /// Fewest pieces (domination).
    Minimise,
    /// Most pieces (independence).
    Maximise,
}

impl Sense {
    /// The sense of a problem kind.
    #[must_use]
    pub const fn of(kind: Kind) -> Self {
        if kind.dominating() {
            Sense::Minimise
        } else {
            Sense::Maximise
        }
    }
}

/// One solver call of the search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Call {
    /// The bound tried.
    pub bound: Bound,
    /// The answer.
    pub status: Status,
    /// Wall time of the call.
    pub elapsed: Duration,
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
/// session left at the optimal bound (ready to enumerate every optimal
/// placement; sizes are uniform there, so short blocking clauses are used).
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
    /// solver can then simplify with the bound (measured about twice as
    /// fast, BENCHMARKS.md). Backends without `fresh` fall back to the
    /// session's solver.
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
    optimise_observed(problem, config, backend, strategy, &|_| {})
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
    observe: &(dyn Fn(Bound) + Sync),
) -> Result<(Optimum, Session), SolveError> {
    optimise_refuting(problem, config, backend, strategy, observe, None)
}

/// A call that answers a bound on solvers of its own: the optimiser's
/// calls expected to be UNSAT, split into cubes.
/// The flag says whether the bound is a theorem's start (of unknown
/// status) rather than one step past a model.
type Refuter<'a> =
    &'a (dyn Fn(Bound, bool) -> Result<(Status, Option<Placement>), SolveError> + Sync);

/// As [`optimise_observed`] for (independent) domination, with the calls
/// expected to be UNSAT split into the cubes of
/// [`crate::domination::decide_split`] on `threads` workers of `solver`
/// (measured faster than one fresh solver, BENCHMARKS.md) — the
/// theorem's start, whose status is unknown, raced against a model search
/// ([`crate::domination::decide_race`]); the other
/// calls, and every call of other problems, run as in
/// [`optimise_observed`] on a solver created here. `stop` stops every
/// worker.
///
/// # Errors
///
/// As [`optimise`].
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
    if !problem.kind.dominating() {
        return optimise_observed(problem, config, backend, strategy, observe);
    }
    let refuter = |bound: Bound, theorem: bool| {
        let options =
            crate::domination::SplitOptions::decision(bound.k(), threads, strategy.symmetry);
        if theorem {
            crate::domination::decide_race(problem, config, options, solver, stop)
        } else {
            crate::domination::decide_split(problem, config, options, solver, stop)
        }
    };
    optimise_refuting(problem, config, backend, strategy, observe, Some(&refuter))
}

/// The search of [`optimise_observed`]; `refuter`, when given, answers the
/// calls expected to be UNSAT.
fn optimise_refuting(
    problem: &Problem,
    config: Config,
    backend: Box<dyn Backend>,
    strategy: Strategy,
    observe: &(dyn Fn(Bound) + Sync),
    refuter: Option<Refuter<'_>>,
) -> Result<(Optimum, Session), SolveError> {
    let sense = Sense::of(problem.kind);
    let greedy = greedy(problem);
    let max_bound = match sense {
        Sense::Minimise => greedy.len(),
        // One past the theorem's bound, so that the solver itself proves it
        // with an UNSAT call: the theorem only sizes the counter.
        Sense::Maximise => (upper_bound(problem) + 1).min(problem.board.n_squares()),
    };
    let mut session = Session::open(problem, max_bound, config, backend)?;
    let mut calls = Vec::new();
    if strategy.symmetry {
        session.break_symmetry(Breaking::Switchable)?;
    }
    let bound_of = |k: usize| match sense {
        Sense::Minimise => Bound::AtMost(k),
        Sense::Maximise => Bound::AtLeast(k),
    };
    // The greedy placement is an answer too (it is the witness when no
    // call improves on it), so it is checked like any model.
    check(problem, Some(bound_of(greedy.len())), &greedy).map_err(|violation| {
        SolveError::WrongPlacement {
            placement: greedy.to_string(),
            violation,
        }
    })?;
    let mut best = greedy;
    // Sizes strictly between `best` and `refuted` are open; `refuted` is the
    // nearest size the solver proved impossible (None: none yet).
    let mut refuted: Option<usize> = None;
    // One step better than `size`, if that is a size at all.
    let better = |size: usize| match sense {
        Sense::Minimise => size.checked_sub(1),
        Sense::Maximise => Some(size + 1).filter(|&k| k <= max_bound),
    };
    let open = |k: usize, best: usize, refuted: Option<usize>| match sense {
        Sense::Minimise => k < best && refuted.is_none_or(|r| k > r),
        Sense::Maximise => k > best && refuted.is_none_or(|r| k < r),
    };
    let theorem_start = strategy.start.filter(|&s| open(s, best.len(), None));
    let mut next = theorem_start.or_else(|| better(best.len()));
    let mut proven = next.is_none();
    // Calls one step better than a model just found are expected to be
    // UNSAT: those get the symmetry breaking (and, with
    // `fresh_refutations`, a solver of their own); the others, expected
    // SAT, search without it. A theorem's start is a bound the theorem
    // cannot rule out, often the optimum itself but on larger boards often
    // not: it is treated as a refutation too, since a SAT answer there
    // costs little either way and a refutation without the breaking a lot
    // (BENCHMARKS.md: far cheaper on the boards where it matters).
    let mut expect_unsat = theorem_start.is_some();
    while let Some(k) = next {
        let bound = bound_of(k);
        observe(bound);
        let start = Instant::now();
        let fresh = (strategy.fresh_refutations && expect_unsat && refuter.is_none())
            .then(|| session.backend().fresh(Mode::Decide))
            .flatten();
        let (status, placement) = match (fresh, refuter.filter(|_| expect_unsat)) {
            (_, Some(refute_split)) => {
                refute_split(bound, theorem_start == Some(k) && calls.is_empty())?
            }
            (Some(backend), None) => refute(problem, bound, config, backend, strategy.symmetry)?,
            (None, None) => {
                session.set_bound(bound)?;
                session.set_symmetry(expect_unsat);
                session.solve(Mode::Decide)?
            }
        };
        calls.push(Call {
            bound,
            status,
            elapsed: start.elapsed(),
        });
        next = match (status, placement) {
            (Status::Sat, Some(placement)) => {
                best = placement;
                expect_unsat = true;
                better(best.len()).filter(|&k| open(k, best.len(), refuted))
            }
            (Status::Unsat, _) => {
                refuted = Some(k);
                expect_unsat = false;
                // From a start that was too good, walk back towards `best`.
                let back = match sense {
                    Sense::Minimise => k + 1,
                    Sense::Maximise => k.saturating_sub(1),
                };
                Some(back).filter(|&k| open(k, best.len(), refuted))
            }
            _ => break,
        };
        proven = next.is_none();
    }
    let value = best.len();
    session.set_bound(bound_of(value))?;
    // Counting the optimal placements is cheaper one orbit at a time.
    session.set_symmetry(true);
    if proven {
        session.assume_uniform_size();
    }
    Ok((
        Optimum {
            value,
            witness: best,
            proven,
            calls,
        },
        session,
    ))
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

/// An upper bound on the number of independent pieces: pieces per line for
/// sliders, a 2 × 2 block argument for kings, the board otherwise.
fn upper_bound(problem: &Problem) -> usize {
    let board: Board = problem.board;
    let (r, c) = (board.rows(), board.cols());
    match problem.piece {
        Piece::Queen | Piece::Rook => r.min(c),
        Piece::Bishop => r + c - 1,
        Piece::King => r.div_ceil(2) * c.div_ceil(2),
        Piece::Knight => board.n_squares(),
    }
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
    observe: &(dyn Fn(Bound) + Sync),
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
