//! Sequential counter (Sinz 2005).
//!
//! ## Definition
//! For inputs x₀…xₙ₋₁ and `m = min(max_bound + 1, n)` counter bits per
//! prefix, register `s[i][j]` (`j ≤ i`, `j < m`) stands for "at least `j + 1`
//! of x₀…xᵢ are true". Upward clauses (needed for "at most"):
//!
//! - `xᵢ → s[i][0]`
//! - `s[i−1][j] → s[i][j]`
//! - `xᵢ ∧ s[i−1][j−1] → s[i][j]`
//!
//! Downward clauses (needed for "at least"):
//!
//! - `s[i][j] → s[i−1][j] ∨ xᵢ`
//! - `s[i][j] → s[i−1][j] ∨ s[i−1][j−1]`
//!
//! The outputs are the last register, `s[n−1][·]`; "Σ ≤ k" is the assumption
//! `¬s[n−1][k]`, "Σ ≥ k" the assumption `s[n−1][k−1]`.
//!
//! ## Size
//! At most n·m auxiliary variables (registers with `j > i` are omitted as
//! always false) and at most 2·n·m clauses per direction: O(n·k).
//!
//! ## Propagation
//! Unit propagation enforces arc consistency in both directions: with the
//! upper bound assumed, once k inputs are true every other input is
//! propagated false (Sinz's theorem for the LTseq encoding).
//!
//! Sinz's original forbids the (k+1)-th bit with clauses specific to k;
//! exposing the bits as outputs instead lets one counter serve every bound
//! up to `max_bound`, which the optimiser needs. With only the upward
//! clauses the registers are not functionally determined by the inputs:
//! never block on them when enumerating.
//!
//! ## References
//! - Carsten Sinz: *Towards an Optimal CNF Encoding of Boolean Cardinality
//!   Constraints*, CP 2005.

use rustsat::{clause, encodings::CollectClauses, instances::ManageVars, types::Lit};

use super::{Direction, UnaryCounter};
use crate::EncodeError;

/// Builds a sequential counter over `lits` for bounds up to `max_bound`.
///
/// # Errors
///
/// [`EncodeError::OutOfMemory`] when the sink cannot grow.
pub fn build<C: CollectClauses>(
    lits: &[Lit],
    direction: Direction,
    max_bound: usize,
    sink: &mut C,
    vars: &mut dyn ManageVars,
) -> Result<UnaryCounter, EncodeError> {
    let n = lits.len();
    let m = (max_bound + 1).min(n);
    // prev[j]: register of the previous prefix.
    let mut prev: Vec<Lit> = Vec::with_capacity(m);
    let mut clauses = Vec::new();
    for (i, &x) in lits.iter().enumerate() {
        let width = (i + 1).min(m);
        let cur: Vec<Lit> = (0..width).map(|_| vars.new_lit()).collect();
        for (j, &s) in cur.iter().enumerate() {
            let same = prev.get(j).copied();
            let below = j.checked_sub(1).map(|j1| prev[j1]);
            if direction.upper() {
                match below {
                    None => clauses.push(clause![!x, s]),
                    Some(b) => clauses.push(clause![!x, !b, s]),
                }
                if let Some(p) = same {
                    clauses.push(clause![!p, s]);
                }
            }
            if direction.lower() {
                match same {
                    // s → prev_j ∨ x and s → prev_j ∨ prev_{j−1}
                    Some(p) => {
                        clauses.push(clause![!s, p, x]);
                        if let Some(b) = below {
                            clauses.push(clause![!s, p, b]);
                        }
                    }
                    // No earlier register j: needs x and (for j > 0) prev_{j−1}.
                    None => {
                        clauses.push(clause![!s, x]);
                        if let Some(b) = below {
                            clauses.push(clause![!s, b]);
                        }
                    }
                }
            }
        }
        if clauses.len() > 4096 {
            sink.extend_clauses(clauses.drain(..))?;
        }
        prev = cur;
    }
    sink.extend_clauses(clauses)?;
    Ok(UnaryCounter {
        outputs: prev,
        n_inputs: n,
        max_bound,
        direction,
    })
}

#[cfg(test)]
mod tests {
    use rustsat::{instances::BasicVarManager, instances::Cnf, types::Var};

    use super::*;

    #[test]
    fn size_is_quadratic_in_the_bound() {
        // n = 5, max_bound = 1 (m = 2): registers 1 + 2·4 = 9,
        // upward clauses: i = 0: 1; i = 1: 2 for j = 0 and 1 for j = 1 (no
        // s[0][1]); i ≥ 2: 2 + 2.
        let mut vars = BasicVarManager::default();
        vars.increase_next_free(Var::new(5));
        let lits: Vec<Lit> = (0..5).map(|i| Var::new(i).pos_lit()).collect();
        let mut cnf = Cnf::new();
        let counter = build(&lits, Direction::Upper, 1, &mut cnf, &mut vars).unwrap();
        assert_eq!(vars.n_used() - 5, 9);
        assert_eq!(cnf.len(), 1 + 3 + 3 * 4);
        assert_eq!(counter.outputs.len(), 2);
    }
}
