//! Cardinality encodings ("at most k", "at least k", "exactly k" of a set of
//! literals), chosen at run time.
//!
//! Every encoding builds a *counter* over its inputs once, for every bound up
//! to a maximum, and then enforces a particular bound with assumptions (and,
//! for the modulo totalizer, a clause guarded by a fresh selector). That is
//! what lets the optimiser move the bound on one solver without re-encoding;
//! a hard constraint is the same enforcement added as unit clauses.
//!
//! | encoding | type | from | arc consistent |
//! |---|---|---|---|
//! | sequential counter | [`SequentialCounter`] | own (Sinz 2005) | yes |
//! | totalizer | [`Totalizer`] (rustsat's, behind [`Counter`]) | rustsat | yes |
//! | modulo totalizer | [`ModuloTotalizer`] | own (Ogawa et al. 2013) | no |
//! | cardinality network | [`CardinalityNetwork`] | own (Asín et al. 2011) | yes |
//!
//! | trait | role |
//! |---|---|
//! | [`BuildCounter`] | build a counter for bounds up to a maximum in one call |
//! | [`Counter`] | enforce a bound on a built counter ([`Enforcement`]) |
//!
//! rustsat 0.7.5 has only the totalizer among these, so the other three are
//! written here; each module documents its size and propagation strength
//! ("arc consistent": unit propagation fixes every input the bound
//! decides, and conflicts as soon as it is violated; `tests/propagation.rs`
//! checks the column). The three
//! own counters also implement rustsat's encoding traits (`Encode`,
//! `BoundUpper`, `BoundLower`, `BoundBoth`, `EncodeStats`, `Monotone`,
//! `From<Vec<Lit>>`, `FromIterator<Lit>`, `Extend<Lit>`; the sequential
//! counter also the incremental ones), so a rustsat user can use them like
//! rustsat's `Totalizer`.

use std::{
    fmt,
    ops::{Bound as Bound_, RangeBounds},
};

use rustsat::{
    encodings::CollectClauses,
    instances::ManageVars,
    types::{Clause, Lit},
};

pub use crate::bound::{Bound, Direction};
use crate::error::EncodeError;

pub mod cardinality_network;
pub mod modulo_totalizer;
pub mod sequential_counter;
pub mod totalizer;

pub use cardinality_network::CardinalityNetwork;
pub use modulo_totalizer::ModuloTotalizer;
pub use sequential_counter::SequentialCounter;
pub use totalizer::Totalizer;

crate::name_table! {
    /// A cardinality encoding.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
    pub enum Card {
        /// Sinz's sequential counter (`seqcounter`).
        SequentialCounter = "seqcounter" | "sequential-counter" | "seqc" | "sinz",
        /// Bailleux and Boufkhad's totalizer, from rustsat.
        #[default]
        Totalizer = "totalizer" | "tot",
        /// Ogawa et al.'s modulo totalizer.
        ModuloTotalizer = "mtotalizer" | "modulo-totalizer" | "mtot" | "kmtotalizer",
        /// Asín et al.'s cardinality network (simplified merge networks).
        CardinalityNetwork = "cardnetwork" | "cardinality-network" | "cardnet" | "sortnetwrk",
    }
    parse_error: EncodeError = |name: &str| {
        if crate::amo::Amo::from_name(name).is_some() {
            EncodeError::NotACardinality(name.to_string())
        } else {
            EncodeError::UnknownEncoding {
                name: name.to_string(),
                expected: Card::NAMES.join(", "),
            }
        }
    };
}

impl Card {
    /// Builds a counter over `lits` that can later enforce any bound up to
    /// `max_bound` in `direction`.
    ///
    /// # Errors
    ///
    /// [`EncodeError::OutOfMemory`] when the sink cannot grow.
    pub fn build<C: CollectClauses>(
        self,
        lits: &[Lit],
        direction: Direction,
        max_bound: usize,
        sink: &mut C,
        vars: &mut dyn ManageVars,
    ) -> Result<Box<dyn Counter>, EncodeError> {
        fn boxed<T: BuildCounter + 'static, C: CollectClauses>(
            lits: &[Lit],
            direction: Direction,
            max_bound: usize,
            sink: &mut C,
            vars: &mut dyn ManageVars,
        ) -> Result<Box<dyn Counter>, EncodeError> {
            Ok(Box::new(T::build(lits, direction, max_bound, sink, vars)?))
        }
        match self {
            Card::SequentialCounter => {
                boxed::<SequentialCounter, C>(lits, direction, max_bound, sink, vars)
            }
            Card::Totalizer => boxed::<Totalizer, C>(lits, direction, max_bound, sink, vars),
            Card::ModuloTotalizer => {
                boxed::<ModuloTotalizer, C>(lits, direction, max_bound, sink, vars)
            }
            Card::CardinalityNetwork => {
                boxed::<CardinalityNetwork, C>(lits, direction, max_bound, sink, vars)
            }
        }
    }

    /// Adds the hard constraint `bound` over `lits` to `sink`.
    ///
    /// # Errors
    ///
    /// [`EncodeError::Infeasible`] for "at least k" with `k > lits.len()`;
    /// [`EncodeError::OutOfMemory`] when the sink cannot grow.
    pub fn encode<C: CollectClauses>(
        self,
        lits: &[Lit],
        bound: Bound,
        sink: &mut C,
        vars: &mut dyn ManageVars,
    ) -> Result<(), EncodeError> {
        bound.check(lits.len())?;
        let counter = self.build(lits, bound.direction(), bound.k(), sink, vars)?;
        let enforcement = counter.enforce(bound, vars)?;
        enforcement.add_hard(sink)
    }
}

// `Bound` and `Direction` sit below the error type (which names bounds);
// the feasibility check, which returns that error, stays here.
impl Bound {
    /// Whether some assignment of `n` inputs satisfies the bound.
    ///
    /// # Errors
    ///
    /// [`EncodeError::Infeasible`] when none does.
    pub fn check(self, n: usize) -> Result<(), EncodeError> {
        match self {
            Bound::AtLeast(k) | Bound::Exactly(k) if k > n => {
                Err(EncodeError::Infeasible { bound: self, n })
            }
            _ => Ok(()),
        }
    }
}

/// What enforcing a bound on a built counter takes: literals to assume, and
/// clauses to add first (only ever guarded by a fresh selector among the
/// assumptions, so they never constrain a later, different bound).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Enforcement {
    /// Literals to assume (or add as unit clauses for a hard bound).
    pub assumptions: Vec<Lit>,
    /// Clauses to add before solving.
    pub clauses: Vec<Clause>,
}

impl Enforcement {
    /// Adds the enforcement to `sink` as hard clauses.
    ///
    /// # Errors
    ///
    /// [`EncodeError::OutOfMemory`] when the sink cannot grow.
    pub fn add_hard<C: CollectClauses>(self, sink: &mut C) -> Result<(), EncodeError> {
        sink.extend_clauses(self.clauses)?;
        sink.extend_clauses(self.assumptions.into_iter().map(|l| rustsat::clause![l]))?;
        Ok(())
    }

    fn merge(mut self, other: Enforcement) -> Enforcement {
        self.assumptions.extend(other.assumptions);
        self.clauses.extend(other.clauses);
        self
    }
}

/// What a counter was built for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    /// Number of input literals.
    pub n_inputs: usize,
    /// The largest bound the counter supports.
    pub max_bound: usize,
    /// The direction the counter was built for.
    pub direction: Direction,
}

impl Shape {
    /// The shape of a counter over `n_inputs` literals for bounds up to
    /// `max_bound`, which is clamped to `n_inputs` (no bound above needs a
    /// counter).
    #[must_use]
    pub fn new(n_inputs: usize, max_bound: usize, direction: Direction) -> Self {
        Shape {
            n_inputs,
            max_bound: max_bound.min(n_inputs),
            direction,
        }
    }
}

/// A built cardinality counter whose bound is chosen afterwards.
///
/// Implementations provide [`Counter::shape`] and the two raw enforcements;
/// the provided methods handle what every encoding shares: trivial bounds,
/// impossible ones, and bounds the counter was not built for.
pub trait Counter: fmt::Debug + Send + Sync {
    /// What the counter was built for.
    fn shape(&self) -> Shape;

    /// Σ ≤ k, called only with `k < n_inputs`, `k ≤ max_bound` and an upper
    /// direction.
    ///
    /// # Errors
    ///
    /// [`EncodeError::NotEncoded`] when the encoding lacks what `k` needs.
    fn upper(&self, k: usize, vars: &mut dyn ManageVars) -> Result<Enforcement, EncodeError>;

    /// Σ ≥ k, called only with `1 ≤ k ≤ min(n_inputs, max_bound)` and a
    /// lower direction.
    ///
    /// # Errors
    ///
    /// [`EncodeError::NotEncoded`] when the encoding lacks what `k` needs.
    fn lower(&self, k: usize, vars: &mut dyn ManageVars) -> Result<Enforcement, EncodeError>;

    /// Number of input literals.
    fn n_inputs(&self) -> usize {
        self.shape().n_inputs
    }

    /// The largest bound the counter was built for.
    fn max_bound(&self) -> usize {
        self.shape().max_bound
    }

    /// The direction the counter was built for.
    fn direction(&self) -> Direction {
        self.shape().direction
    }

    /// Enforces Σ ≤ k.
    ///
    /// # Errors
    ///
    /// [`EncodeError::NotEncoded`] when the counter was not built for upper
    /// bounds up to `k` (a bound of `n` or more needs nothing and never fails).
    fn at_most(&self, k: usize, vars: &mut dyn ManageVars) -> Result<Enforcement, EncodeError> {
        one_side(self, Bound::AtMost(k), vars)
    }

    /// Enforces Σ ≥ k.
    ///
    /// # Errors
    ///
    /// [`EncodeError::Infeasible`] for `k > n`; [`EncodeError::NotEncoded`]
    /// when the counter was not built for lower bounds up to `k`.
    fn at_least(&self, k: usize, vars: &mut dyn ManageVars) -> Result<Enforcement, EncodeError> {
        one_side(self, Bound::AtLeast(k), vars)
    }

    /// Enforces any bound.
    ///
    /// # Errors
    ///
    /// As [`Counter::at_most`] and [`Counter::at_least`].
    fn enforce(&self, bound: Bound, vars: &mut dyn ManageVars) -> Result<Enforcement, EncodeError> {
        bound.check(self.n_inputs())?;
        match bound {
            Bound::AtMost(k) => self.at_most(k, vars),
            Bound::AtLeast(k) => self.at_least(k, vars),
            Bound::Exactly(k) => Ok(self.at_most(k, vars)?.merge(self.at_least(k, vars)?)),
        }
    }
}

/// Which halves of a counter's clauses: the upward ones, which "at most"
/// needs, and the downward ones, which "at least" needs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Halves {
    upward: bool,
    downward: bool,
}

impl Halves {
    /// The halves of either.
    fn union(self, other: Halves) -> Halves {
        Halves {
            upward: self.upward || other.upward,
            downward: self.downward || other.downward,
        }
    }

    /// The halves that `requests` need and `written` lacks (or, with
    /// `rewrite`, needs again).
    fn wanted(requests: &Requests, written: Halves, rewrite: Rewrite) -> Halves {
        Halves {
            upward: requests.upper.is_some() && (rewrite.upper() || !written.upward),
            downward: requests.lower.is_some() && (rewrite.lower() || !written.downward),
        }
    }
}

/// [`Counter::at_most`] or [`Counter::at_least`]: nothing for a bound every
/// assignment meets, [`Counter::upper`] or [`Counter::lower`] for one the
/// counter was built for, an error otherwise.
fn one_side<C: Counter + ?Sized>(
    counter: &C,
    bound: Bound,
    vars: &mut dyn ManageVars,
) -> Result<Enforcement, EncodeError> {
    let shape = counter.shape();
    bound.check(shape.n_inputs)?;
    let (k, trivial, built) = match bound {
        Bound::AtMost(k) => (k, k >= shape.n_inputs, shape.direction.upper()),
        Bound::AtLeast(k) => (k, k == 0, shape.direction.lower()),
        Bound::Exactly(_) => return counter.enforce(bound, vars),
    };
    if trivial {
        return Ok(Enforcement::default());
    }
    if !built || k > shape.max_bound {
        return Err(EncodeError::NotEncoded { bound });
    }
    match bound {
        Bound::AtMost(k) => counter.upper(k, vars),
        _ => counter.lower(k, vars),
    }
}

/// A counter built in one call, the way [`Card::build`] builds it.
///
/// Every encoding of this module implements it; [`Card`] chooses among them
/// at run time.
pub trait BuildCounter: Counter + Sized {
    /// Builds a counter over `lits` that can later enforce any bound up to
    /// `max_bound` (clamped to `lits.len()`) in `direction`.
    ///
    /// # Errors
    ///
    /// [`EncodeError::OutOfMemory`] when the sink cannot grow.
    fn build<C: CollectClauses>(
        lits: &[Lit],
        direction: Direction,
        max_bound: usize,
        sink: &mut C,
        vars: &mut dyn ManageVars,
    ) -> Result<Self, EncodeError>;
}

/// What the own counters keep besides their structure: the inputs, the
/// largest bound asked for in each direction, and their size so far. The
/// [`Shape`] of every own counter is derived from it, in one place.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Requests {
    /// Every input, encoded or not yet.
    inputs: Vec<Lit>,
    /// The largest upper bound asked for, clamped to the inputs.
    upper: Option<usize>,
    /// The largest lower bound asked for, clamped to the inputs.
    lower: Option<usize>,
    /// Clauses written so far.
    n_clauses: usize,
    /// Auxiliary variables created so far.
    n_vars: u32,
    /// Whether bounds must be enforceable by assumptions alone, as
    /// rustsat's `enforce_ub` and `enforce_lb` return them: an encoding
    /// that needs a clause per bound (the modulo totalizer) then writes it
    /// up front, guarded by a selector. Set by the rustsat traits only.
    by_literals: bool,
}

impl Requests {
    fn new(inputs: Vec<Lit>) -> Self {
        Requests {
            inputs,
            ..Requests::default()
        }
    }

    /// Asks for bounds up to `max_bound` in `direction`.
    fn ask(&mut self, direction: Direction, max_bound: usize) {
        let max_bound = max_bound.min(self.inputs.len());
        let grow = |old: Option<usize>| Some(old.map_or(max_bound, |old| old.max(max_bound)));
        if direction.upper() {
            self.upper = grow(self.upper);
        }
        if direction.lower() {
            self.lower = grow(self.lower);
        }
    }

    /// The largest bound asked for in either direction.
    fn max_bound(&self) -> Option<usize> {
        self.upper.max(self.lower)
    }

    /// The counter's [`Shape`]. Before any bound is asked for it reads
    /// "upper bounds up to 0", and every enforcement but the trivial ones
    /// answers [`EncodeError::NotEncoded`].
    fn shape(&self) -> Shape {
        Shape {
            n_inputs: self.inputs.len(),
            max_bound: self.max_bound().unwrap_or(0),
            direction: match (self.upper, self.lower) {
                (Some(_), Some(_)) => Direction::Both,
                (None, Some(_)) => Direction::Lower,
                _ => Direction::Upper,
            },
        }
    }

    /// The sink's clause count and the variable count, to measure a write.
    fn mark<C: CollectClauses>(sink: &C, vars: &dyn ManageVars) -> (usize, u32) {
        (sink.n_clauses(), vars.n_used())
    }

    /// Adds what was written since `mark` to the statistics.
    fn count_since<C: CollectClauses>(
        &mut self,
        mark: (usize, u32),
        sink: &C,
        vars: &dyn ManageVars,
    ) {
        self.n_clauses += sink.n_clauses().saturating_sub(mark.0);
        self.n_vars += vars.n_used().saturating_sub(mark.1);
    }
}

/// Which clauses an [`OwnCounter::write`] call writes again although an
/// earlier call wrote them: rustsat's `encode_ub` writes everything the
/// bounds need (the collector may be a fresh one), `encode_ub_change` only
/// what is new.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rewrite {
    /// Only what no earlier call wrote.
    Nothing,
    /// Everything the directions of `Direction` need, again.
    All(Direction),
}

impl Rewrite {
    fn upper(self) -> bool {
        matches!(self, Rewrite::All(d) if d.upper())
    }

    fn lower(self) -> bool {
        matches!(self, Rewrite::All(d) if d.lower())
    }
}

/// The parts in which the own counters differ; [`Counter`],
/// [`BuildCounter`] and rustsat's encoding traits are written once on top
/// of them.
trait OwnCounter: fmt::Debug + Send + Sync + Default + Sized {
    /// What every own counter keeps ([`own_requests!`] writes these two).
    fn requests(&self) -> &Requests;

    fn requests_mut(&mut self) -> &mut Requests;

    /// An encoding of `inputs` with nothing built yet.
    fn with_inputs(inputs: Vec<Lit>) -> Self {
        let mut counter = Self::default();
        *counter.requests_mut() = Requests::new(inputs);
        counter
    }

    /// Writes what the bounds in [`OwnCounter::requests`] need and no
    /// earlier call wrote (and what `rewrite` asks for again).
    fn write<C: CollectClauses>(
        &mut self,
        rewrite: Rewrite,
        sink: &mut C,
        vars: &mut dyn ManageVars,
    ) -> Result<(), rustsat::OutOfMemory>;

    /// Assumptions for Σ ≤ `k`, `k < n`, when written.
    fn assume_upper(&self, k: usize) -> Option<Vec<Lit>>;

    /// Assumptions for Σ ≥ `k`, `1 ≤ k ≤ n`, when written.
    fn assume_lower(&self, k: usize) -> Option<Vec<Lit>>;

    /// [`Counter::upper`]: the assumptions of [`OwnCounter::assume_upper`]
    /// unless an encoding needs more.
    fn enforce_upper(
        &self,
        k: usize,
        _vars: &mut dyn ManageVars,
    ) -> Result<Enforcement, EncodeError> {
        assumed(self.assume_upper(k), Bound::AtMost(k))
    }

    /// [`Counter::lower`]: the assumptions of [`OwnCounter::assume_lower`]
    /// unless an encoding needs more.
    fn enforce_lower(
        &self,
        k: usize,
        _vars: &mut dyn ManageVars,
    ) -> Result<Enforcement, EncodeError> {
        assumed(self.assume_lower(k), Bound::AtLeast(k))
    }

    /// [`BuildCounter::build`] on an encoding made by `with_inputs`.
    fn build_from<C: CollectClauses>(
        mut self,
        direction: Direction,
        max_bound: usize,
        sink: &mut C,
        vars: &mut dyn ManageVars,
    ) -> Result<Self, EncodeError> {
        self.requests_mut().ask(direction, max_bound);
        self.write(Rewrite::Nothing, sink, vars)?;
        Ok(self)
    }
}

impl<T: OwnCounter> Counter for T {
    fn shape(&self) -> Shape {
        self.requests().shape()
    }

    fn upper(&self, k: usize, vars: &mut dyn ManageVars) -> Result<Enforcement, EncodeError> {
        self.enforce_upper(k, vars)
    }

    fn lower(&self, k: usize, vars: &mut dyn ManageVars) -> Result<Enforcement, EncodeError> {
        self.enforce_lower(k, vars)
    }
}

/// The [`OwnCounter`] accessors of a counter's `requests` field.
macro_rules! own_requests {
    () => {
        fn requests(&self) -> &$crate::card::Requests {
            &self.requests
        }

        fn requests_mut(&mut self) -> &mut $crate::card::Requests {
            &mut self.requests
        }
    };
}
pub(crate) use own_requests;

/// The largest bound of `range` for upper bounds over `n` inputs, `None`
/// when the range needs nothing (empty, or only bounds of `n` or more).
fn upper_end(range: &impl RangeBounds<usize>, n: usize) -> Option<usize> {
    let start = match range.start_bound() {
        Bound_::Included(&b) => b,
        Bound_::Excluded(&b) => b.checked_add(1)?,
        Bound_::Unbounded => 0,
    };
    let end = match range.end_bound() {
        Bound_::Included(&b) => b,
        Bound_::Excluded(&b) => b.checked_sub(1)?,
        Bound_::Unbounded => n,
    };
    (start <= end && start < n).then_some(end.min(n))
}

/// The largest bound of `range` for lower bounds over `n` inputs, `None`
/// when the range needs nothing (empty, or only bounds of 0 or above `n`).
fn lower_end(range: &impl RangeBounds<usize>, n: usize) -> Option<usize> {
    let start = match range.start_bound() {
        Bound_::Included(&b) => b.max(1),
        Bound_::Excluded(&b) => b.checked_add(1)?,
        Bound_::Unbounded => 1,
    };
    let end = match range.end_bound() {
        Bound_::Included(&b) => b,
        Bound_::Excluded(&b) => b.checked_sub(1)?,
        Bound_::Unbounded => n,
    };
    (start <= end && start <= n).then_some(end.min(n))
}

/// Implements rustsat's cardinality-encoding traits (`Encode`,
/// `BoundUpper`, `BoundLower`, `BoundBoth`, `EncodeStats`, `Monotone` and
/// the constructors) for an [`OwnCounter`], so that it is used like
/// rustsat's own `Totalizer`.
macro_rules! rustsat_traits {
    ($ty:ty) => {
        impl rustsat::encodings::card::Encode for $ty {
            fn n_lits(&self) -> usize {
                $crate::card::OwnCounter::requests(self).inputs.len()
            }
        }

        impl rustsat::encodings::card::BoundUpper for $ty {
            fn encode_ub<Col, R>(
                &mut self,
                range: R,
                collector: &mut Col,
                var_manager: &mut dyn rustsat::instances::ManageVars,
            ) -> Result<(), rustsat::OutOfMemory>
            where
                Col: rustsat::encodings::CollectClauses,
                R: std::ops::RangeBounds<usize>,
            {
                $crate::card::encode_range(
                    self,
                    $crate::bound::Direction::Upper,
                    &range,
                    $crate::card::Call::Plain,
                    collector,
                    var_manager,
                )
            }

            fn enforce_ub(
                &self,
                ub: usize,
            ) -> Result<Vec<rustsat::types::Lit>, rustsat::encodings::NotEncoded> {
                if ub >= rustsat::encodings::card::Encode::n_lits(self) {
                    return Ok(vec![]);
                }
                $crate::card::OwnCounter::assume_upper(self, ub)
                    .ok_or(rustsat::encodings::NotEncoded)
            }
        }

        impl rustsat::encodings::card::BoundLower for $ty {
            fn encode_lb<Col, R>(
                &mut self,
                range: R,
                collector: &mut Col,
                var_manager: &mut dyn rustsat::instances::ManageVars,
            ) -> Result<(), rustsat::OutOfMemory>
            where
                Col: rustsat::encodings::CollectClauses,
                R: std::ops::RangeBounds<usize>,
            {
                $crate::card::encode_range(
                    self,
                    $crate::bound::Direction::Lower,
                    &range,
                    $crate::card::Call::Plain,
                    collector,
                    var_manager,
                )
            }

            fn enforce_lb(
                &self,
                lb: usize,
            ) -> Result<Vec<rustsat::types::Lit>, rustsat::encodings::EnforceError> {
                if lb == 0 {
                    return Ok(vec![]);
                }
                if lb > rustsat::encodings::card::Encode::n_lits(self) {
                    return Err(rustsat::encodings::EnforceError::Unsat);
                }
                $crate::card::OwnCounter::assume_lower(self, lb)
                    .ok_or(rustsat::encodings::EnforceError::NotEncoded)
            }
        }

        impl rustsat::encodings::card::BoundBoth for $ty {
            fn encode_both<Col, R>(
                &mut self,
                range: R,
                collector: &mut Col,
                var_manager: &mut dyn rustsat::instances::ManageVars,
            ) -> Result<(), rustsat::OutOfMemory>
            where
                Col: rustsat::encodings::CollectClauses,
                R: std::ops::RangeBounds<usize> + Clone,
            {
                $crate::card::encode_range(
                    self,
                    $crate::bound::Direction::Both,
                    &range,
                    $crate::card::Call::Plain,
                    collector,
                    var_manager,
                )
            }
        }

        impl rustsat::encodings::EncodeStats for $ty {
            fn n_clauses(&self) -> usize {
                $crate::card::OwnCounter::requests(self).n_clauses
            }

            fn n_vars(&self) -> u32 {
                $crate::card::OwnCounter::requests(self).n_vars
            }
        }

        impl rustsat::encodings::Monotone for $ty {}

        impl $crate::card::BuildCounter for $ty {
            fn build<C: rustsat::encodings::CollectClauses>(
                lits: &[rustsat::types::Lit],
                direction: $crate::bound::Direction,
                max_bound: usize,
                sink: &mut C,
                vars: &mut dyn rustsat::instances::ManageVars,
            ) -> Result<Self, $crate::error::EncodeError> {
                <$ty as $crate::card::OwnCounter>::with_inputs(lits.to_vec())
                    .build_from(direction, max_bound, sink, vars)
            }
        }

        impl From<Vec<rustsat::types::Lit>> for $ty {
            fn from(lits: Vec<rustsat::types::Lit>) -> Self {
                $crate::card::OwnCounter::with_inputs(lits)
            }
        }

        impl FromIterator<rustsat::types::Lit> for $ty {
            fn from_iter<T: IntoIterator<Item = rustsat::types::Lit>>(iter: T) -> Self {
                $crate::card::OwnCounter::with_inputs(iter.into_iter().collect())
            }
        }

        impl Extend<rustsat::types::Lit> for $ty {
            fn extend<T: IntoIterator<Item = rustsat::types::Lit>>(&mut self, iter: T) {
                $crate::card::OwnCounter::requests_mut(self)
                    .inputs
                    .extend(iter);
            }
        }
    };
}
pub(crate) use rustsat_traits;

/// Which of rustsat's calls [`encode_range`] answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Call {
    /// `encode_ub`, `encode_lb`, `encode_both`: everything the range
    /// needs, written again.
    Plain,
    /// `encode_ub_change`, `encode_lb_change`: only what no earlier call
    /// wrote.
    Change,
}

/// rustsat's `encode_ub`, `encode_lb`, `encode_both` and their `_change`
/// variants (`call`): asks for the range's largest bound in `direction`
/// and writes what it needs.
fn encode_range<E: OwnCounter, C: CollectClauses>(
    encoding: &mut E,
    direction: Direction,
    range: &impl RangeBounds<usize>,
    call: Call,
    sink: &mut C,
    vars: &mut dyn ManageVars,
) -> Result<(), rustsat::OutOfMemory> {
    let n = encoding.requests().inputs.len();
    let upper = direction.upper().then(|| upper_end(range, n)).flatten();
    let lower = direction.lower().then(|| lower_end(range, n)).flatten();
    let asked = match (upper, lower) {
        (Some(_), Some(_)) => Direction::Both,
        (Some(_), None) => Direction::Upper,
        (None, Some(_)) => Direction::Lower,
        (None, None) => return Ok(()),
    };
    let requests = encoding.requests_mut();
    requests.by_literals = true;
    if let Some(k) = upper {
        requests.ask(Direction::Upper, k);
    }
    if let Some(k) = lower {
        requests.ask(Direction::Lower, k);
    }
    let rewrite = match call {
        Call::Plain => Rewrite::All(asked),
        Call::Change => Rewrite::Nothing,
    };
    encoding.write(rewrite, sink, vars)
}

/// Σ ≤ k on unary outputs (`outputs[j]` ↔ "at least j + 1 true"), when
/// output `k` exists.
fn unary_upper(outputs: &[Lit], k: usize) -> Option<Vec<Lit>> {
    outputs.get(k).map(|&out| vec![!out])
}

/// Σ ≥ k on unary outputs, when output `k − 1` exists.
fn unary_lower(outputs: &[Lit], k: usize) -> Option<Vec<Lit>> {
    outputs.get(k.checked_sub(1)?).map(|&out| vec![out])
}

/// An [`Enforcement`] of assumptions only, or [`EncodeError::NotEncoded`].
fn assumed(assumptions: Option<Vec<Lit>>, bound: Bound) -> Result<Enforcement, EncodeError> {
    let assumptions = assumptions.ok_or(EncodeError::NotEncoded { bound })?;
    Ok(Enforcement {
        assumptions,
        clauses: vec![],
    })
}
