//! One placement with k pieces, or without k the optimum with the solver's
//! proof.

use std::time::{Duration, Instant};

use boardsat_encode::{Bound, Card, Config, Encoding, Placement, Problem};

use crate::{
    backend::{
        spec::{SolverKind, SolverSpec},
        Mode, Status,
    },
    error::SolveError,
    search::{
        detach::detached,
        domination::{self, certify::Certify, SplitOptions},
        lex::LexOrder,
        optimise::{optimise_portfolio, Optimum, Strategy},
        pool::default_threads,
        session::Session,
    },
    stop::{Interrupter, StopReason},
    task::Instance,
};

/// How an optimum is searched.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Optimiser {
    /// One solver; for domination the refutations split into cubes over
    /// every core ([`domination::refuter`]).
    #[default]
    Split,
    /// Two cardinality encodings racing on two threads, the first proof
    /// winning ([`optimise_portfolio`]); for the optimum only.
    Portfolio,
}

/// What [`solve`] found.
#[derive(Debug)]
pub struct Solved {
    /// [`Status::Sat`]: a placement (and, for an optimum, its proof);
    /// [`Status::Unsat`]: no placement with k pieces exists (proven);
    /// [`Status::Unknown`]: the solver stopped first — a placement may
    /// still be there (the best found), but nothing is proven.
    pub status: Status,
    /// The checked placement, if any.
    pub placement: Option<Placement>,
    /// The optimiser's account, when no k was given.
    pub optimum: Option<Optimum>,
    /// The encoding the solvers ran on (sizes, the effective formulation).
    pub encoding: Encoding,
    /// Solver calls, those on fresh solvers included.
    pub calls: u64,
    /// With [`Optimiser::Portfolio`]: the two cardinality encodings that
    /// raced.
    pub portfolio: Option<[Card; 2]>,
    /// Whether the UNSAT answers it rests on were proven as they were
    /// found, by the traced cubes of a certified split (the claims are
    /// written already).
    pub certified: bool,
    /// Wall time.
    pub elapsed: Duration,
}

impl Solved {
    /// Whether the result rests on an UNSAT answer: no placement with k
    /// pieces, or the bound one step past a proven optimum.
    #[must_use]
    pub fn rests_on_unsat(&self) -> bool {
        self.status == Status::Unsat || self.optimum.as_ref().is_some_and(|o| o.proof().is_some())
    }
}

/// One placement with k pieces, or without k the optimum with the solver's
/// proof ([`Strategy::fastest`]), searched by `optimiser`. A dominating
/// problem with k is decided by [`domination::decide_split`] over every
/// core, as the optimiser decides its bounds. With `certify`, the split refutations of domination prove each
/// cube's answer (see [`crate::search::domination::certify`]).
/// `observe` is told each bound before its call; with k, the one bound
/// before any encoding.
///
/// Any other problem with k is one call on an embedded solver of its own,
/// run [`detached`]: a stop is answered within
/// [`crate::search::detach::GRACE`] even while CaDiCaL is being sized for
/// a big board (seconds at n = 5000, which cannot be polled), and the
/// solver is torn down on its own thread after the answer.
///
/// # Errors
///
/// [`SolveError::Unsupported`] for [`Optimiser::Portfolio`] with k;
/// backend and encoding errors; wrong placements.
pub fn solve(
    instance: &Instance,
    solver: &SolverSpec,
    optimiser: Optimiser,
    stop: &Interrupter,
    observe: &(dyn Fn(Bound) + Sync),
    certify: Option<&dyn Certify>,
) -> Result<Solved, SolveError> {
    let start = Instant::now();
    let Instance { problem, k, config } = *instance;
    if optimiser == Optimiser::Portfolio && k.is_some() {
        // N-queens fixes k = n without -k being typed.
        let queens = if instance.is_n_queens() {
            " (queens N places exactly N queens)"
        } else {
            ""
        };
        return Err(SolveError::Unsupported(format!(
            "--portfolio races encodings for an optimum; it does not apply with -k{queens}"
        )));
    }
    if let Some(k) = k {
        observe(problem.kind.bound(k));
    }
    if let Some(k) = k.filter(|_| problem.kind.dominating()) {
        // A bound of unknown status, decided as the optimiser decides its
        // theorem's start.
        let options = SplitOptions::refutation(k, default_threads(), Some(LexOrder::LinesFirst));
        let decided = domination::decide_split(&problem, config, options, solver, stop, certify)?;
        return Ok(Solved {
            status: decided.status,
            placement: decided.placement,
            optimum: None,
            calls: 1,
            encoding: decided.encoding.ok_or_else(|| stopped(stop))?,
            portfolio: None,
            certified: certify.is_some(),
            elapsed: start.elapsed(),
        });
    }
    if let Some(k) = k {
        let answer = match solver.kind {
            // An external solver's files and process are cleaned up by its
            // own polling, which must not be left behind.
            SolverKind::External => one_call(&problem, k, config, solver, stop)?.0,
            // Sizing CaDiCaL for a big board cannot be polled, nor can its
            // teardown: both stay on a thread of their own.
            _ => {
                let (spec, flag) = (solver.clone(), stop.clone());
                detached(stop, move || one_call(&problem, k, config, &spec, &flag))?
            }
        };
        return Ok(Solved {
            status: answer.status,
            placement: answer.placement,
            optimum: None,
            calls: answer.calls,
            encoding: answer.encoding,
            portfolio: None,
            certified: false,
            elapsed: start.elapsed(),
        });
    }
    let (optimum, encoding, raced) = optimum(instance, solver, optimiser, stop, observe, certify)?;
    let certified = optimum.proof().is_some_and(|c| c.certified);
    Ok(Solved {
        status: if optimum.proven {
            Status::Sat
        } else {
            Status::Unknown
        },
        placement: Some(optimum.witness.clone()),
        calls: optimum.calls.len() as u64,
        optimum: Some(optimum),
        encoding,
        certified,
        portfolio: raced,
        elapsed: start.elapsed(),
    })
}

/// What one call with k pieces answered.
struct OneCall {
    status: Status,
    placement: Option<Placement>,
    calls: u64,
    /// The encoding's facts (no counters: the session keeps those).
    encoding: Encoding,
}

/// One solver call with `k` pieces on a session of its own: the answer,
/// and the session, to be dropped once the answer is out.
fn one_call(
    problem: &Problem,
    k: usize,
    config: Config,
    solver: &SolverSpec,
    stop: &Interrupter,
) -> Result<(OneCall, Session), SolveError> {
    let backend = solver.create(Mode::Decide, stop)?;
    let mut session = Session::fixed(problem, k, config, backend)?;
    let (status, placement) = session.solve(Mode::Decide)?;
    let answer = OneCall {
        status,
        placement,
        calls: session.calls(),
        encoding: session.encoding().facts(),
    };
    Ok((answer, session))
}

/// The optimum of `instance` (without k) with its proof, as `solve` and
/// `count` find it: the encoding the optimiser ran on, and with a
/// portfolio the encodings that raced (never certified).
///
/// # Errors
///
/// As [`solve`].
pub fn optimum(
    instance: &Instance,
    solver: &SolverSpec,
    optimiser: Optimiser,
    stop: &Interrupter,
    observe: &(dyn Fn(Bound) + Sync),
    certify: Option<&dyn Certify>,
) -> Result<(Optimum, Encoding, Option<[Card; 2]>), SolveError> {
    let Instance {
        problem, config, ..
    } = *instance;
    let strategy = Strategy::fastest(&problem);
    if optimiser == Optimiser::Portfolio {
        let second = Config {
            card: if config.card == Card::SequentialCounter {
                Card::Totalizer
            } else {
                Card::SequentialCounter
            },
            ..config
        };
        let won = optimise_portfolio(&problem, &[config, second], solver, strategy, stop, observe)?;
        return Ok((won.optimum, won.encoding, Some([config.card, second.card])));
    }
    let threads = default_threads();
    let (optimum, session) = domination::optimise_split(
        &problem, config, solver, threads, strategy, stop, observe, certify,
    )?;
    Ok((optimum, session.into_encoding(), None))
}

/// The error of work stopped before any solver was loaded (nothing to
/// report but the stop).
pub(crate) fn stopped(stop: &Interrupter) -> SolveError {
    SolveError::Interrupted(stop.reason().unwrap_or(StopReason::Interrupted))
}
