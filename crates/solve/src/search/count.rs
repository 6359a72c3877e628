//! Enumeration by blocking clauses: the one counting loop, for boards and
//! for any DIMACS formula.
//!
//! The loop asks the solver for a model, reads it (decoding and checking
//! it), counts it with its weight, and adds a clause that blocks it; it ends
//! when the solver proves there is nothing left ([`End::Exhausted`]), at a
//! limit on the number of models ([`End::Limit`]), or when the solver gives
//! up ([`End::Stopped`]) — and then the count so far is a lower bound, not
//! an answer. What a model is, how it is checked and what clause blocks it
//! is the `Models` implementation's business: [`crate::search::session::Session`] blocks
//! placements on the board variables; [`count_projected`] blocks any
//! formula's models on its projection.
//!
//! Where the model is the board's squares alone and the backend can
//! ([`crate::backend::reject::RejectModels`], CaDiCaL with its propagator
//! slot free), the solver blocks each model inside its search with the same
//! clause and goes on from where it stood; its calls then end after
//! a second (or at the limit) with one model read as above, and
//! the models it rejected meanwhile are decoded, checked and counted after
//! the call, in the order they were blocked. A DIMACS formula's model is
//! its whole assignment, which the propagator does not see: where the
//! formula has a projection, the solver blocks on it inside the search and
//! a second solver of the same kind, holding the formula alone, extends
//! each rejected projection to a whole model under assumptions (mostly
//! propagation), which is then checked clause by clause as a returned
//! model would be.

use std::time::{Duration, Instant};

use rustsat::types::{Lit, Var};

/// How a found placement is blocked (defined with the backends, which
/// block models inside their search).
pub use crate::backend::Blocking;
use crate::{
    backend::{read_model, Backend, Mode, Status},
    error::SolveError,
    formula::{dimacs::Formula, falsified},
    stop::{Interrupter, StopReason},
};

/// How a count or an enumeration ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum End {
    /// The solver proved there are no more models: the count is exact.
    Exhausted,
    /// The limit on the number of models was reached.
    Limit,
    /// The solver stopped without an answer (an interrupt, a time limit,
    /// or a solver that gave up): the count is a lower bound.
    Stopped,
}

impl End {
    /// How a partial result is marked after its number: nothing when
    /// complete, ` (limit reached)`, or why it stopped (` (interrupted)`,
    /// ` (time limit)`, ` (the solver gave up)`).
    #[must_use]
    pub fn mark(self, stop: Option<StopReason>) -> String {
        match self {
            End::Exhausted => String::new(),
            End::Limit => " (limit reached)".to_string(),
            End::Stopped => format!(" ({})", StopReason::words(stop)),
        }
    }
}

/// How a count is reduced by the board's symmetries (see the module doc).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Reduction {
    /// Every placement is counted.
    None,
    /// Mirror halving: the left half of the first row, doubled.
    Halve,
    /// Lex-leader symmetry breaking: one placement per orbit, weighted by
    /// the orbit's size.
    #[default]
    Symmetry,
}

impl Reduction {
    /// Lower-case name for reports.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Reduction::None => "none",
            Reduction::Halve => "mirror halving",
            Reduction::Symmetry => "lex-leader symmetry breaking with orbit weights",
        }
    }
}

/// Whether a count is to be proven (in process, or by the jobs of a
/// split).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Proofs {
    /// No.
    #[default]
    Off,
    /// Yes: the claims behind it, with LRAT proofs.
    On,
}

/// What a count keeps besides the count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Keep {
    /// The count only.
    #[default]
    Count,
    /// Every placement blocked, for a proof that the count is complete
    /// made afterwards (a second solver run on the claim's formula).
    Placements,
    /// Every cube's proof, traced by the solver that counts it as it
    /// counts (domination splits, [`crate::search::certify`]).
    Traced,
}

/// Which cubes of a split are solved or written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Cubes {
    /// Every cube.
    All,
    /// One cube per orbit of cubes under the board's symmetries, weighted
    /// by the orbit's size or solved under its stabilizer
    /// ([`crate::search::domination`]); for N-queens jobs, mirror halving.
    #[default]
    OnePerOrbit,
}

/// The result of counting.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Count {
    /// Solutions found, each model counted with its weight (with symmetry
    /// breaking, a model stands for its whole orbit).
    pub count: u64,
    /// Models the solver returned: with symmetry breaking, the number of
    /// orbits; otherwise equal to `count`.
    pub models: u64,
    /// How counting ended.
    pub end: End,
    /// Wall time of the whole count.
    pub elapsed: Duration,
}

/// What a progress callback is told after each model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// Solutions so far (weighted).
    pub count: u64,
    /// Time since counting started.
    pub elapsed: Duration,
}

impl Progress {
    /// Solutions per second so far.
    #[must_use]
    pub fn rate(&self) -> f64 {
        let secs = self.elapsed.as_secs_f64();
        if secs > 0.0 {
            self.count as f64 / secs
        } else {
            0.0
        }
    }
}

/// Counts so far: models and weighted solutions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Tally {
    pub(crate) models: u64,
    pub(crate) count: u64,
    /// Solver calls made (fewer than models where models are blocked
    /// inside the search).
    pub(crate) calls: u64,
    /// When the count started.
    start: Instant,
}

impl Tally {
    /// Nothing counted yet, the count started at `start`.
    pub(crate) fn since(start: Instant) -> Self {
        Tally {
            models: 0,
            count: 0,
            calls: 0,
            start,
        }
    }

    /// One more model, standing for `weight` solutions: the progress.
    pub(crate) fn add(&mut self, weight: u64) -> Progress {
        self.models = self.models.saturating_add(1);
        self.count = self.count.saturating_add(weight);
        Progress {
            count: self.count,
            elapsed: self.start.elapsed(),
        }
    }

    /// The count, ended as `end` says.
    pub(crate) fn count(&self, end: End) -> Count {
        Count {
            count: self.count,
            models: self.models,
            end,
            elapsed: self.start.elapsed(),
        }
    }
}

/// What the counting loop needs to know about the models it enumerates.
pub(crate) trait Models {
    /// A decoded model.
    type Model;

    /// Reads the current model from `backend` and checks it.
    fn read(&mut self, backend: &mut dyn Backend) -> Result<Self::Model, SolveError>;

    /// How many solutions the model stands for.
    fn weight(&self, model: &Self::Model) -> u64;

    /// The clause that excludes the model from later calls.
    fn blocking_clause(&self, model: &Self::Model) -> Vec<Lit>;

    /// The variables a model is read from and how it is blocked over them,
    /// when the model is those variables' values alone (a placement on the
    /// board): then a backend may block models inside the search
    /// ([`crate::backend::reject::RejectModels`]). `None` by default.
    fn observed(&self) -> Option<(Vec<Var>, Blocking)> {
        None
    }

    /// Decodes and checks a model from the values of
    /// [`Models::observed`]'s variables, in order.
    ///
    /// # Errors
    ///
    /// As [`Models::read`]; [`SolveError::Internal`] where nothing is
    /// observed.
    fn read_values(&mut self, _values: &[bool]) -> Result<Self::Model, SolveError> {
        Err(SolveError::Internal(
            "a model read from values that are not observed",
        ))
    }
}

/// The counting loop: one solver call per model under `assumptions`, until
/// UNSAT, `limit` models, `max_calls` calls ([`End::Limit`] for both), or a
/// call that gives up, counted into `tally` (which keeps what was counted
/// when a call fails). `seen` gets each model (after it is blocked) and the
/// weighted count so far.
pub(crate) fn count_models<M: Models>(
    backend: &mut dyn Backend,
    assumptions: &[Lit],
    models: &mut M,
    (limit, max_calls): (Option<u64>, Option<u64>),
    tally: &mut Tally,
    mut seen: impl FnMut(M::Model, &Progress),
) -> Result<End, SolveError> {
    let rejecting = match (models.observed(), backend.reject_models()) {
        (Some((vars, blocking)), Some(reject)) => reject.observe(&vars, blocking)?,
        _ => false,
    };
    let first_call = tally.calls;
    loop {
        if limit.is_some_and(|l| tally.models >= l)
            || max_calls.is_some_and(|c| tally.calls - first_call >= c)
        {
            return Ok(End::Limit);
        }
        tally.calls += 1;
        let status = match backend.reject_models() {
            Some(reject) if rejecting => {
                let quota = limit.map_or(u64::MAX, |l| l - tally.models);
                let (status, rejected) =
                    reject.solve_rejecting(assumptions, quota, REJECT_WINDOW)?;
                for values in rejected {
                    let model = models.read_values(&values)?;
                    let progress = tally.add(models.weight(&model));
                    seen(model, &progress);
                }
                status
            }
            _ => backend.solve(assumptions)?,
        };
        match status {
            Status::Sat => {
                let model = models.read(backend)?;
                let progress = tally.add(models.weight(&model));
                backend.add_clause(&models.blocking_clause(&model))?;
                seen(model, &progress);
            }
            Status::Unsat => return Ok(End::Exhausted),
            Status::Unknown => return Ok(End::Stopped),
        }
    }
}

/// How long a call that rejects models inside the search goes on before
/// the next model ends it: the counting loop's progress and streaming
/// then lag the search by at most this.
const REJECT_WINDOW: Duration = Duration::from_secs(1);

/// The models of a formula, checked against its clauses and blocked on its
/// projection.
struct Projected<'a> {
    formula: &'a Formula,
    projection: Vec<Var>,
    signature: String,
    /// Where the formula has a projection and the backend can reject models
    /// inside its search: a second solver of the same kind holding the
    /// formula alone, which extends each rejected projection to a whole
    /// model (the witness a proof's verifier checks clause by clause).
    extender: Option<Box<dyn Backend>>,
}

impl Projected<'_> {
    /// Checks a whole model against every clause.
    fn check(&self, model: Vec<bool>) -> Result<Vec<bool>, SolveError> {
        if let Some(i) = falsified(&self.formula.clauses, &model) {
            return Err(SolveError::WrongModel {
                backend: self.signature.clone(),
                clause: i + 1,
            });
        }
        Ok(model)
    }
}

impl Models for Projected<'_> {
    type Model = Vec<bool>;

    fn read(&mut self, backend: &mut dyn Backend) -> Result<Vec<bool>, SolveError> {
        let model = read_model(backend, self.formula.n_vars)?;
        self.check(model)
    }

    fn weight(&self, _model: &Vec<bool>) -> u64 {
        1
    }

    fn blocking_clause(&self, model: &Vec<bool>) -> Vec<Lit> {
        blocking_clause(&self.projection, model)
    }

    fn observed(&self) -> Option<(Vec<Var>, Blocking)> {
        self.extender
            .as_ref()
            .map(|_| (self.projection.clone(), Blocking::Full))
    }

    /// Extends the projection's values to a whole model on the extender
    /// and checks it; the projection must stay as it was found.
    fn read_values(&mut self, values: &[bool]) -> Result<Vec<bool>, SolveError> {
        let extender = self.extender.as_deref_mut().ok_or(SolveError::Internal(
            "a projection rejected inside the search without an extender",
        ))?;
        let assumptions: Vec<Lit> = self
            .projection
            .iter()
            .zip(values)
            .map(|(v, &value)| if value { v.pos_lit() } else { v.neg_lit() })
            .collect();
        match extender.solve(&assumptions)? {
            Status::Sat => {}
            Status::Unsat => {
                return Err(SolveError::Internal(
                    "a projection rejected inside the search is not part of a model of the formula",
                ))
            }
            Status::Unknown => {
                return Err(SolveError::Internal(
                    "the solver that extends a rejected projection gave up",
                ))
            }
        }
        let model = read_model(extender, self.formula.n_vars)?;
        let kept = self
            .projection
            .iter()
            .zip(values)
            .all(|(v, &value)| model.get(v.idx()).copied().unwrap_or(false) == value);
        if !kept {
            return Err(SolveError::Internal(
                "a rejected projection's extension changed the projection",
            ));
        }
        self.check(model)
    }
}

/// A solver of `backend`'s kind holding `formula` alone, without a time
/// limit or an interrupt (its calls are under a whole projection and end
/// by propagation), where the formula has a projection and `backend` can
/// reject models inside its search: `None` otherwise, and the count goes
/// by calls. Without a projection the model is the whole assignment, and
/// observing every variable would freeze them all.
fn extender(
    formula: &Formula,
    backend: &mut dyn Backend,
) -> Result<Option<Box<dyn Backend>>, SolveError> {
    if formula.projection.is_none() || backend.reject_models().is_none() {
        return Ok(None);
    }
    let Some(mut extender) = backend.fresh(Mode::Decide) else {
        return Ok(None);
    };
    if let Some(limit) = extender.time_limit() {
        limit.set_time_limit(None);
    }
    if let Some(interrupt) = extender.interrupt() {
        interrupt.use_interrupter(Interrupter::new());
    }
    extender.reserve_vars(formula.n_vars);
    for clause in &formula.clauses {
        extender.add_clause(clause)?;
    }
    Ok(Some(extender))
}

/// The clause that excludes `model`'s values on `projection`.
fn blocking_clause(projection: &[Var], model: &[bool]) -> Vec<Lit> {
    projection
        .iter()
        .map(|&v| {
            if model.get(v.idx()).copied().unwrap_or(false) {
                v.neg_lit()
            } else {
                v.pos_lit()
            }
        })
        .collect()
}

/// Where [`count_projected`] hands each model it finds, in the order of
/// its blocking clauses (`model[v]`: the value of variable v + 1).
pub type ModelSink<'a> = &'a mut dyn FnMut(&[bool]);

/// Counts the models of `formula` projected on its projection (every
/// variable when it has none) by blocking clauses on `backend`, which
/// should be fresh and tuned for enumeration ([`crate::backend::Mode::Enumerate`]).
/// Every model is checked against every clause of the formula. Where the
/// formula has a projection and the backend can, models are blocked inside
/// the search and each is extended to a whole model by a second solver
/// (the module's doc says how). With
/// `witness`, every model is handed to it as found, in the order of the
/// blocking clauses (for a proof that the count is complete, whose
/// verifier checks each blocked assignment as a model).
///
/// # Errors
///
/// Backend errors; [`SolveError::WrongModel`] for a model that falsifies a
/// clause. A solver that gives up ends the count with [`End::Stopped`], not
/// an error, so the partial count survives.
pub fn count_projected(
    formula: &Formula,
    backend: &mut dyn Backend,
    limit: Option<u64>,
    mut witness: Option<ModelSink<'_>>,
    mut progress: impl FnMut(&Progress),
) -> Result<Count, SolveError> {
    let start = Instant::now();
    backend.reserve_vars(formula.n_vars);
    for clause in &formula.clauses {
        backend.add_clause(clause)?;
    }
    let mut models = Projected {
        formula,
        projection: formula.projection_or_all(),
        signature: backend.signature(),
        extender: extender(formula, backend)?,
    };
    let mut tally = Tally::since(start);
    let end = count_models(
        backend,
        &[],
        &mut models,
        (limit, None),
        &mut tally,
        |model, p| {
            if let Some(witness) = witness.as_deref_mut() {
                witness(&model);
            }
            progress(p);
        },
    )?;
    Ok(tally.count(end))
}
