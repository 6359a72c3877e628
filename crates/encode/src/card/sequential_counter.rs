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
//! propagated false (Sinz's theorem for the LTseq encoding), and with the
//! lower bound assumed, once n − k inputs are false every other input is
//! propagated true. `tests/propagation.rs` checks both, and "exactly",
//! for every partial assignment up to 7 inputs.
//!
//! Sinz's original forbids the (k+1)-th bit with clauses specific to k;
//! exposing the bits as outputs instead lets one counter serve every bound
//! up to `max_bound`, which the optimiser needs. With only the upward
//! clauses the registers are not functionally determined by the inputs:
//! never block on them when enumerating.
//!
//! ## Incremental use
//! Every register's clauses mention only its own row and the row before,
//! so the counter grows in place: a larger bound adds columns, more inputs
//! (`Extend`) add rows, the other direction adds its half of the clauses,
//! each over the registers already there. That is why
//! [`SequentialCounter`] implements rustsat's incremental traits
//! (`EncodeIncremental`, `BoundUpperIncremental`, `BoundLowerIncremental`,
//! `BoundBothIncremental`) as well as the plain ones.
//!
//! ## References
//! - Carsten Sinz: *Towards an Optimal CNF Encoding of Boolean Cardinality
//!   Constraints*, CP 2005.

use rustsat::{
    clause,
    encodings::{
        card::{
            BoundBothIncremental, BoundLowerIncremental, BoundUpperIncremental, EncodeIncremental,
        },
        CollectClauses,
    },
    instances::ManageVars,
    types::{Clause, Lit},
};

use super::{
    encode_range, own_requests, rustsat_traits, unary_lower, unary_upper, Call, Direction,
    OwnCounter, Requests, Rewrite,
};

/// Sinz's sequential counter over a set of input literals (see the module
/// documentation).
///
/// Built in one call by [`Card::build`](super::Card::build) or
/// [`BuildCounter::build`](super::BuildCounter::build), with bounds then
/// enforced through [`Counter`](super::Counter); or used like rustsat's `Totalizer` through
/// rustsat's encoding traits, incremental ones included:
///
/// ```
/// use boardsat_encode::card::SequentialCounter;
/// use rustsat::{
///     encodings::card::{BoundUpper, BoundUpperIncremental},
///     instances::{BasicVarManager, Cnf, ManageVars},
///     lit, var,
/// };
///
/// let mut vars = BasicVarManager::default();
/// vars.increase_next_free(var![4]);
/// let mut counter = SequentialCounter::from(vec![lit![0], lit![1], lit![2]]);
/// let mut cnf = Cnf::new();
/// counter.encode_ub(0..=1, &mut cnf, &mut vars)?;
/// let at_most_one = counter.enforce_ub(1)?;
/// // One more input, and bounds up to 2: only the new clauses are written.
/// counter.extend([lit![3]]);
/// counter.encode_ub_change(0..=2, &mut cnf, &mut vars)?;
/// let at_most_two = counter.enforce_ub(2)?;
/// assert_eq!((at_most_one.len(), at_most_two.len()), (1, 1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct SequentialCounter {
    requests: Requests,
    /// `registers[i][j]` ↔ "at least `j + 1` of x₀…xᵢ are true"; row `i`
    /// holds `min(i + 1, width)` registers.
    registers: Vec<Vec<Lit>>,
    /// Registers per full row.
    width: usize,
    /// The registers whose upward clauses are written.
    upward: Written,
    /// The registers whose downward clauses are written.
    downward: Written,
}

/// A block of registers: rows `< rows`, columns `< cols`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Written {
    rows: usize,
    cols: usize,
}

impl Written {
    fn contains(self, row: usize, col: usize) -> bool {
        row < self.rows && col < self.cols
    }
}

impl SequentialCounter {
    /// Creates the registers missing for every input and `width` columns.
    fn allocate(&mut self, width: usize, vars: &mut dyn ManageVars) {
        let n = self.requests.inputs.len();
        self.width = self.width.max(width.min(n));
        for i in 0..n {
            if i == self.registers.len() {
                self.registers.push(Vec::new());
            }
            let row = &mut self.registers[i];
            while row.len() < (i + 1).min(self.width) {
                row.push(vars.new_lit());
            }
        }
    }

    /// The upward clauses of register `(i, j)`: Σ ≥ j+1 on x₀…xᵢ → s[i][j].
    fn upward_clauses(&self, i: usize, j: usize, out: &mut Vec<Clause>) {
        let (x, s) = (self.requests.inputs[i], self.registers[i][j]);
        let prev = i.checked_sub(1).map(|i1| &self.registers[i1]);
        match j.checked_sub(1) {
            None => out.push(clause![!x, s]),
            Some(j1) => {
                if let Some(&below) = prev.and_then(|p| p.get(j1)) {
                    out.push(clause![!x, !below, s]);
                }
            }
        }
        if let Some(&same) = prev.and_then(|p| p.get(j)) {
            out.push(clause![!same, s]);
        }
    }

    /// The downward clauses of register `(i, j)`: s[i][j] → Σ ≥ j+1.
    fn downward_clauses(&self, i: usize, j: usize, out: &mut Vec<Clause>) {
        let (x, s) = (self.requests.inputs[i], self.registers[i][j]);
        let prev = i.checked_sub(1).map(|i1| &self.registers[i1]);
        let below = j
            .checked_sub(1)
            .and_then(|j1| prev.and_then(|p| p.get(j1)).copied());
        match prev.and_then(|p| p.get(j)).copied() {
            // s → prev_j ∨ x and s → prev_j ∨ prev_{j−1}
            Some(same) => {
                out.push(clause![!s, same, x]);
                if let Some(b) = below {
                    out.push(clause![!s, same, b]);
                }
            }
            // No earlier register j: needs x and (for j > 0) prev_{j−1}.
            None => {
                out.push(clause![!s, x]);
                if let Some(b) = below {
                    out.push(clause![!s, b]);
                }
            }
        }
    }

    /// The outputs: the registers of the last row.
    fn outputs(&self) -> &[Lit] {
        self.registers.last().map_or(&[], Vec::as_slice)
    }
}

impl OwnCounter for SequentialCounter {
    own_requests!();

    fn write<C: CollectClauses>(
        &mut self,
        rewrite: Rewrite,
        sink: &mut C,
        vars: &mut dyn ManageVars,
    ) -> Result<(), rustsat::OutOfMemory> {
        let n = self.requests.inputs.len();
        // Bounds up to k need the registers j ≤ k (j < n).
        let width = |bound: Option<usize>| bound.map_or(0, |k| (k + 1).min(n));
        let (up_cols, down_cols) = (width(self.requests.upper), width(self.requests.lower));
        let mark = Requests::mark(sink, vars);
        self.allocate(up_cols.max(down_cols), vars);
        let mut clauses = Vec::new();
        for i in 0..n {
            for j in 0..self.registers[i].len() {
                if j < up_cols && (rewrite.upper() || !self.upward.contains(i, j)) {
                    self.upward_clauses(i, j, &mut clauses);
                }
                if j < down_cols && (rewrite.lower() || !self.downward.contains(i, j)) {
                    self.downward_clauses(i, j, &mut clauses);
                }
            }
            if clauses.len() > 4096 {
                sink.extend_clauses(clauses.drain(..))?;
            }
        }
        sink.extend_clauses(clauses)?;
        self.requests.count_since(mark, sink, vars);
        if up_cols > 0 {
            self.upward = Written {
                rows: n,
                cols: up_cols,
            };
        }
        if down_cols > 0 {
            self.downward = Written {
                rows: n,
                cols: down_cols,
            };
        }
        Ok(())
    }

    fn assume_upper(&self, k: usize) -> Option<Vec<Lit>> {
        let n = self.requests.inputs.len();
        (self.upward.rows == n && k < self.upward.cols).then(|| unary_upper(self.outputs(), k))?
    }

    fn assume_lower(&self, k: usize) -> Option<Vec<Lit>> {
        let n = self.requests.inputs.len();
        (self.downward.rows == n && k <= self.downward.cols)
            .then(|| unary_lower(self.outputs(), k))?
    }
}

rustsat_traits!(SequentialCounter);

impl EncodeIncremental for SequentialCounter {
    /// Creates every register a bound up to the number of inputs needs.
    fn reserve(&mut self, vars: &mut dyn ManageVars) {
        let before = vars.n_used();
        self.allocate(self.requests.inputs.len(), vars);
        self.requests.n_vars += vars.n_used().saturating_sub(before);
    }
}

impl BoundUpperIncremental for SequentialCounter {
    fn encode_ub_change<Col, R>(
        &mut self,
        range: R,
        collector: &mut Col,
        var_manager: &mut dyn ManageVars,
    ) -> Result<(), rustsat::OutOfMemory>
    where
        Col: CollectClauses,
        R: std::ops::RangeBounds<usize>,
    {
        encode_range(
            self,
            Direction::Upper,
            &range,
            Call::Change,
            collector,
            var_manager,
        )
    }
}

impl BoundLowerIncremental for SequentialCounter {
    fn encode_lb_change<Col, R>(
        &mut self,
        range: R,
        collector: &mut Col,
        var_manager: &mut dyn ManageVars,
    ) -> Result<(), rustsat::OutOfMemory>
    where
        Col: CollectClauses,
        R: std::ops::RangeBounds<usize>,
    {
        encode_range(
            self,
            Direction::Lower,
            &range,
            Call::Change,
            collector,
            var_manager,
        )
    }
}

impl BoundBothIncremental for SequentialCounter {}

#[cfg(test)]
mod tests {
    use rustsat::{instances::BasicVarManager, instances::Cnf, types::Var};

    use super::*;
    use crate::card::BuildCounter;

    #[test]
    fn size_is_quadratic_in_the_bound() {
        // n = 5, max_bound = 1 (m = 2): registers 1 + 2·4 = 9,
        // upward clauses: i = 0: 1; i = 1: 2 for j = 0 and 1 for j = 1 (no
        // s[0][1]); i ≥ 2: 2 + 2.
        let mut vars = BasicVarManager::default();
        vars.increase_next_free(Var::new(5));
        let lits: Vec<Lit> = (0..5).map(|i| Var::new(i).pos_lit()).collect();
        let mut cnf = Cnf::new();
        let counter =
            SequentialCounter::build(&lits, Direction::Upper, 1, &mut cnf, &mut vars).unwrap();
        assert_eq!(vars.n_used() - 5, 9);
        assert_eq!(cnf.len(), 1 + 3 + 3 * 4);
        assert_eq!(counter.outputs().len(), 2);
    }
}
