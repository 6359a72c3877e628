//! Placeholder until the real encoding lands: delegates to the sequential counter.
#![allow(missing_docs)]
use rustsat::{encodings::CollectClauses, instances::ManageVars, types::Lit};

use super::{Direction, UnaryCounter};
use crate::EncodeError;

pub fn build<C: CollectClauses>(
    lits: &[Lit],
    direction: Direction,
    max_bound: usize,
    sink: &mut C,
    vars: &mut dyn ManageVars,
) -> Result<UnaryCounter, EncodeError> {
    super::sequential_counter::build(lits, direction, max_bound, sink, vars)
}
