//! Cardinality encodings ("at most k", "at least k", "exactly k" of a set of
//! literals), chosen at run time.
//!
//! Every encoding builds a *counter* over its inputs once, for every bound up
//! to a maximum, and then enforces a particular bound with assumptions (and,
//! for the modulo totalizer, a clause guarded by a fresh selector). That is
//! what lets the optimiser move the bound on one solver without re-encoding;
//! a hard constraint is the same enforcement added as unit clauses.
//!
//! | encoding | module | from |
//! |---|---|---|
//! | sequential counter | [`sequential_counter`] | own (Sinz 2005) |
//! | totalizer | rustsat's `Totalizer` | rustsat |
//! | modulo totalizer | [`modulo_totalizer`] | own (Ogawa et al. 2013) |
//! | cardinality network | [`cardinality_network`] | own (Asín et al. 2011) |
//!
//! rustsat 0.7 has only the totalizer among these, so the other three are
//! written here; each module documents its size and propagation strength.

use std::fmt;

use rustsat::{
    encodings::{
        card::{BoundLower, BoundUpper, Totalizer},
        CollectClauses,
    },
    instances::ManageVars,
    types::{Clause, Lit},
};

use crate::EncodeError;

pub mod cardinality_network;
pub mod modulo_totalizer;
pub mod sequential_counter;

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
        if crate::Amo::from_name(name).is_some() {
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
        // Outputs beyond n + 1 never matter: "at most n" is always true.
        let max_bound = max_bound.min(lits.len());
        Ok(match self {
            Card::SequentialCounter => Box::new(sequential_counter::build(
                lits, direction, max_bound, sink, vars,
            )?),
            Card::Totalizer => Box::new(RustsatTotalizer::build(
                lits, direction, max_bound, sink, vars,
            )?),
            Card::ModuloTotalizer => Box::new(modulo_totalizer::build(
                lits, direction, max_bound, sink, vars,
            )?),
            Card::CardinalityNetwork => Box::new(cardinality_network::build(
                lits, direction, max_bound, sink, vars,
            )?),
        })
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

/// Which bounds a counter must be able to enforce.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// "At most k": inputs propagate up to the outputs.
    Upper,
    /// "At least k": outputs propagate down to the inputs.
    Lower,
    /// Both.
    Both,
}

impl Direction {
    /// Whether upper bounds can be enforced.
    #[must_use]
    pub const fn upper(self) -> bool {
        matches!(self, Direction::Upper | Direction::Both)
    }

    /// Whether lower bounds can be enforced.
    #[must_use]
    pub const fn lower(self) -> bool {
        matches!(self, Direction::Lower | Direction::Both)
    }
}

/// A cardinality bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    /// Σ ≤ k.
    AtMost(usize),
    /// Σ ≥ k.
    AtLeast(usize),
    /// Σ = k.
    Exactly(usize),
}

impl Bound {
    /// The bound's `k`.
    #[must_use]
    pub const fn k(self) -> usize {
        match self {
            Bound::AtMost(k) | Bound::AtLeast(k) | Bound::Exactly(k) => k,
        }
    }

    /// The direction a counter needs for this bound.
    #[must_use]
    pub const fn direction(self) -> Direction {
        match self {
            Bound::AtMost(_) => Direction::Upper,
            Bound::AtLeast(_) => Direction::Lower,
            Bound::Exactly(_) => Direction::Both,
        }
    }

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

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bound::AtMost(k) => write!(f, "at most {k}"),
            Bound::AtLeast(k) => write!(f, "at least {k}"),
            Bound::Exactly(k) => write!(f, "exactly {k}"),
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

/// A built cardinality counter whose bound is chosen afterwards.
///
/// Implementations provide [`Counter::shape`] and the two raw enforcements;
/// the provided methods handle what every encoding shares: trivial bounds,
/// impossible ones, and bounds the counter was not built for.
pub trait Counter: fmt::Debug + Send {
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
        let shape = self.shape();
        if k >= shape.n_inputs {
            return Ok(Enforcement::default());
        }
        if !shape.direction.upper() || k > shape.max_bound {
            return Err(EncodeError::NotEncoded {
                bound: Bound::AtMost(k),
            });
        }
        self.upper(k, vars)
    }

    /// Enforces Σ ≥ k.
    ///
    /// # Errors
    ///
    /// [`EncodeError::Infeasible`] for `k > n`; [`EncodeError::NotEncoded`]
    /// when the counter was not built for lower bounds up to `k`.
    fn at_least(&self, k: usize, vars: &mut dyn ManageVars) -> Result<Enforcement, EncodeError> {
        let shape = self.shape();
        Bound::AtLeast(k).check(shape.n_inputs)?;
        if k == 0 {
            return Ok(Enforcement::default());
        }
        if !shape.direction.lower() || k > shape.max_bound {
            return Err(EncodeError::NotEncoded {
                bound: Bound::AtLeast(k),
            });
        }
        self.lower(k, vars)
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

/// A counter with unary outputs: `outputs[j]` stands for "at least `j + 1`
/// inputs are true". With [`Direction::Upper`] the clauses give
/// Σ ≥ j+1 → `outputs[j]`; with [`Direction::Lower`], `outputs[j]` → Σ ≥ j+1.
/// The sequential counter and the cardinality network produce one.
#[derive(Clone, Debug)]
pub struct UnaryCounter {
    /// The unary outputs, at least `min(max_bound + 1, n)` of them.
    pub outputs: Vec<Lit>,
    /// Number of inputs.
    pub n_inputs: usize,
    /// The largest bound the counter supports.
    pub max_bound: usize,
    /// The direction the counter was built for.
    pub direction: Direction,
}

impl Counter for UnaryCounter {
    fn shape(&self) -> Shape {
        Shape {
            n_inputs: self.n_inputs,
            max_bound: self.max_bound,
            direction: self.direction,
        }
    }

    fn upper(&self, k: usize, _vars: &mut dyn ManageVars) -> Result<Enforcement, EncodeError> {
        let out = self.outputs.get(k).ok_or(EncodeError::NotEncoded {
            bound: Bound::AtMost(k),
        })?;
        Ok(Enforcement {
            assumptions: vec![!*out],
            clauses: vec![],
        })
    }

    fn lower(&self, k: usize, _vars: &mut dyn ManageVars) -> Result<Enforcement, EncodeError> {
        let out = self.outputs.get(k - 1).ok_or(EncodeError::NotEncoded {
            bound: Bound::AtLeast(k),
        })?;
        Ok(Enforcement {
            assumptions: vec![*out],
            clauses: vec![],
        })
    }
}

/// rustsat's totalizer (Bailleux & Boufkhad 2003), built lazily for the
/// bounds asked for: O(n·k) clauses and O(n log n) auxiliary variables for
/// bounds up to k; unit propagation enforces arc consistency.
#[derive(Debug)]
struct RustsatTotalizer {
    inner: Totalizer,
    n_inputs: usize,
    max_bound: usize,
    direction: Direction,
}

impl RustsatTotalizer {
    fn build<C: CollectClauses>(
        lits: &[Lit],
        direction: Direction,
        max_bound: usize,
        sink: &mut C,
        vars: &mut dyn ManageVars,
    ) -> Result<Self, EncodeError> {
        let mut inner = Totalizer::from(lits.to_vec());
        if !lits.is_empty() {
            if direction.upper() {
                inner.encode_ub(0..=max_bound, sink, vars)?;
            }
            if direction.lower() {
                inner.encode_lb(0..=max_bound, sink, vars)?;
            }
        }
        Ok(RustsatTotalizer {
            inner,
            n_inputs: lits.len(),
            max_bound,
            direction,
        })
    }
}

impl Counter for RustsatTotalizer {
    fn shape(&self) -> Shape {
        Shape {
            n_inputs: self.n_inputs,
            max_bound: self.max_bound,
            direction: self.direction,
        }
    }

    fn upper(&self, k: usize, _vars: &mut dyn ManageVars) -> Result<Enforcement, EncodeError> {
        let assumptions = self
            .inner
            .enforce_ub(k)
            .map_err(|_| EncodeError::NotEncoded {
                bound: Bound::AtMost(k),
            })?;
        Ok(Enforcement {
            assumptions,
            clauses: vec![],
        })
    }

    fn lower(&self, k: usize, _vars: &mut dyn ManageVars) -> Result<Enforcement, EncodeError> {
        let assumptions = self
            .inner
            .enforce_lb(k)
            .map_err(|_| EncodeError::NotEncoded {
                bound: Bound::AtLeast(k),
            })?;
        Ok(Enforcement {
            assumptions,
            clauses: vec![],
        })
    }
}
