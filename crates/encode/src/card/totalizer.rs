//! Totalizer (Bailleux and Boufkhad 2003), from rustsat.
//!
//! ## Definition
//! A binary tree over the inputs whose every node counts the true inputs
//! below it in unary: output `j` of a node stands for "at least `j + 1`
//! inputs below are true", and a node's outputs are the sums of its
//! children's.
//!
//! ## Size
//! rustsat builds the tree lazily for the bounds asked for: O(n·k) clauses
//! and O(n log n) auxiliary variables for bounds up to k (exact counts are
//! rustsat's; `size` predicts them).
//!
//! ## Propagation
//! Unit propagation enforces arc consistency for "at most", "at least" and
//! "exactly"; `tests/propagation.rs` checks all three for every partial
//! assignment up to 7 inputs.
//!
//! This module only puts rustsat's `Totalizer` behind [`Counter`]; use
//! rustsat's type directly for its own traits.
//!
//! ## References
//! - Olivier Bailleux and Yacine Boufkhad: *Efficient CNF Encoding of
//!   Boolean Cardinality Constraints*, CP 2003.
//! - rustsat's `encodings::card::totalizer`.

use rustsat::{
    encodings::{
        card::{BoundLower, BoundUpper},
        CollectClauses,
    },
    instances::ManageVars,
    types::Lit,
};

use super::{assumed, Bound, BuildCounter, Counter, Direction, Enforcement, Shape};
use crate::error::EncodeError;

/// rustsat's totalizer as a [`Counter`].
#[derive(Debug)]
pub struct Totalizer {
    inner: rustsat::encodings::card::Totalizer,
    shape: Shape,
}

impl Totalizer {
    /// The rustsat encoding inside.
    #[must_use]
    pub fn inner(&self) -> &rustsat::encodings::card::Totalizer {
        &self.inner
    }
}

impl BuildCounter for Totalizer {
    fn build<C: CollectClauses>(
        lits: &[Lit],
        direction: Direction,
        max_bound: usize,
        sink: &mut C,
        vars: &mut dyn ManageVars,
    ) -> Result<Self, EncodeError> {
        let shape = Shape::new(lits.len(), max_bound, direction);
        let mut inner = rustsat::encodings::card::Totalizer::from(lits.to_vec());
        if !lits.is_empty() {
            if direction.upper() {
                inner.encode_ub(0..=shape.max_bound, sink, vars)?;
            }
            if direction.lower() {
                inner.encode_lb(0..=shape.max_bound, sink, vars)?;
            }
        }
        Ok(Totalizer { inner, shape })
    }
}

impl Counter for Totalizer {
    fn shape(&self) -> Shape {
        self.shape
    }

    fn upper(&self, k: usize, _vars: &mut dyn ManageVars) -> Result<Enforcement, EncodeError> {
        assumed(self.inner.enforce_ub(k).ok(), Bound::AtMost(k))
    }

    fn lower(&self, k: usize, _vars: &mut dyn ManageVars) -> Result<Enforcement, EncodeError> {
        assumed(self.inner.enforce_lb(k).ok(), Bound::AtLeast(k))
    }
}
