//! One placement with k pieces, or without k the optimum with the solver's
//! proof.

use std::time::{Duration, Instant};

use boardsat_encode::{Card, Config, Encoding, Placement, Problem};

use crate::{
    backend::{
        spec::{SolverKind, SolverSpec},
        Mode, Status,
    },
    error::{Inapplicable, SolveError},
    search::{
        certify::Certify,
        context::Context,
        detach::detached,
        domination::{self, SplitOptions},
        lex::LexOrder,
        optimise::{optimise_portfolio, Observe, Optimum, Strategy},
        session::Session,
    },
    stop::Interrupter,
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
    /// Whether it rests on an external solver's UNSAT answer, which
    /// carries no proof (a proof made afterwards backs it).
    pub unverified: bool,
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
/// core, as the optimiser decides its bounds. Where [`traces_proofs`]
/// says so, the split refutations of domination prove each cube's answer
/// into `certify` (see [`crate::search::certify`]); elsewhere `certify`
/// is not used.
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
/// [`SolveError::Inapplicable`] for [`Optimiser::Portfolio`] with k;
/// backend and encoding errors; wrong placements.
pub fn solve(
    instance: &Instance,
    solver: &SolverSpec,
    optimiser: Optimiser,
    stop: &Interrupter,
    observe: &dyn Observe,
    certify: Option<&dyn Certify>,
) -> Result<Solved, SolveError> {
    let start = Instant::now();
    let Instance { problem, k, config } = *instance;
    if optimiser == Optimiser::Portfolio && k.is_some() {
        // N-queens fixes k = n without -k being typed.
        let queens = instance.is_n_queens();
        return Err(SolveError::Inapplicable(
            Inapplicable::PortfolioWithPieces { queens },
        ));
    }
    let certify = certify.filter(|_| traces_proofs(instance, optimiser));
    let ctx = Context::new(problem, config, solver, stop).with_certify(certify);
    let solved = match k {
        Some(k) => {
            observe.bound(problem.kind.bound(k));
            if problem.kind.dominating() {
                decide(&ctx, k)?
            } else {
                one_placement(&ctx, k)?
            }
        }
        None => optimal(&ctx, optimiser, observe)?,
    };
    let unverified = solver.kind == SolverKind::External && solved.rests_on_unsat();
    Ok(Solved {
        elapsed: start.elapsed(),
        unverified,
        ..solved
    })
}

/// A dominating problem with `k` pieces, a bound of unknown status,
/// decided as the optimiser decides its theorem's start.
fn decide(ctx: &Context<'_>, k: usize) -> Result<Solved, SolveError> {
    let options = SplitOptions::refutation(k, Some(LexOrder::LinesFirst));
    let decided = domination::decide_split(ctx, options)?;
    Ok(Solved {
        status: decided.status,
        placement: decided.placement,
        optimum: None,
        calls: 1,
        encoding: decided.encoding.ok_or_else(|| ctx.stopped())?,
        portfolio: None,
        certified: ctx.certify.is_some(),
        unverified: false,
        elapsed: Duration::ZERO,
    })
}

/// Any other problem with `k` pieces: one call on a solver of its own.
fn one_placement(ctx: &Context<'_>, k: usize) -> Result<Solved, SolveError> {
    let (problem, config) = (ctx.problem, ctx.config);
    let answer = match ctx.solver.kind {
        // An external solver's files and process are cleaned up by its
        // own polling, which must not be left behind.
        SolverKind::External => one_call(&problem, k, config, ctx.solver, ctx.stop)?.0,
        // Sizing CaDiCaL for a big board cannot be polled, nor can its
        // teardown: both stay on a thread of their own.
        _ => {
            let (spec, flag) = (ctx.solver.clone(), ctx.stop.clone());
            detached(ctx.stop, move || {
                one_call(&problem, k, config, &spec, &flag)
            })?
        }
    };
    Ok(Solved {
        status: answer.status,
        placement: answer.placement,
        optimum: None,
        calls: answer.calls,
        encoding: answer.encoding,
        portfolio: None,
        certified: false,
        unverified: false,
        elapsed: Duration::ZERO,
    })
}

/// The optimum, searched by `optimiser`.
fn optimal(
    ctx: &Context<'_>,
    optimiser: Optimiser,
    observe: &dyn Observe,
) -> Result<Solved, SolveError> {
    let (optimum, encoding, raced) = optimum(ctx, optimiser, observe)?;
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
        unverified: false,
        elapsed: Duration::ZERO,
    })
}

/// Whether [`solve`] with `optimiser` proves its UNSAT answers as it
/// finds them — the cubes of a domination split trace their own proofs
/// ([`crate::search::certify`]), so a certifier is used — rather than
/// leaving them to be proven afterwards: the one place this is decided.
#[must_use]
pub fn traces_proofs(instance: &Instance, optimiser: Optimiser) -> bool {
    instance.problem.kind.dominating() && optimiser == Optimiser::Split
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

/// The optimum of `ctx`'s problem with its proof, as `solve` and
/// `count` find it: the encoding the solvers ran on, and with a portfolio
/// the encodings that raced (never certified).
///
/// # Errors
///
/// As [`solve`].
pub fn optimum(
    ctx: &Context<'_>,
    optimiser: Optimiser,
    observe: &dyn Observe,
) -> Result<(Optimum, Encoding, Option<[Card; 2]>), SolveError> {
    let (problem, config) = (ctx.problem, ctx.config);
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
        let configs = [config, second];
        let won = optimise_portfolio(&problem, &configs, ctx.solver, strategy, ctx.stop, observe)?;
        return Ok((won.optimum, won.encoding, Some([config.card, second.card])));
    }
    let (optimum, encoding) = domination::optimise_split(ctx, strategy, observe)?;
    let encoding = encoding_or_facts(encoding, ctx, optimum.value)?;
    Ok((optimum, encoding, None))
}

/// The encoding the solvers ran on, or, when none was loaded (a split
/// without cubes, such as N-queens on 2 × 2; an optimum that needed no
/// call), the facts of the encoding with `k` pieces — encoded for them
/// alone, only then.
///
/// # Errors
///
/// [`SolveError::Interrupted`] when no solver was loaded because the work
/// was stopped; encoding errors.
pub(crate) fn encoding_or_facts(
    found: Option<Encoding>,
    ctx: &Context<'_>,
    k: usize,
) -> Result<Encoding, SolveError> {
    match found {
        Some(encoding) => Ok(encoding),
        None if ctx.stop.is_interrupted() => Err(ctx.stopped()),
        None => {
            let problem = &ctx.problem;
            let mut vars = problem.var_manager();
            let cnf = &mut rustsat::instances::Cnf::new();
            Ok(problem.encode_lazy(k, ctx.config, cnf, &mut vars)?)
        }
    }
}
