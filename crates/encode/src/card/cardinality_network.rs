//! Cardinality network (Asín, Nieuwenhuis, Oliveras and Rodríguez-Carbonell
//! 2011).
//!
//! ## Definition
//! A network of 2-comparators `(a, b) ↦ (a ∨ b, a ∧ b)` that outputs the
//! `m` largest of its inputs, sorted, where `m` is `min(max_bound + 1, n)`
//! rounded up to a power of two. Inputs are padded with the constant false
//! to a multiple of `m`, and a comparator with a constant-false input is
//! simplified away (`(a, ⊥) ↦ (a, ⊥)`), so no padding variable exists.
//! Built from (paper, Section 4):
//!
//! - `HMerge(a, b)` for two sorted lists of `n` (a power of two):
//!   one comparator for `n = 1`; otherwise merge the odd and the even
//!   positions recursively into `d` and `e`, and output
//!   `d₁, cmp(d₂, e₁), …, cmp(dₙ, eₙ₋₁), eₙ`;
//! - `HSort(a)` for `2n` inputs: `HMerge(HSort(a₁…aₙ), HSort(aₙ₊₁…a₂ₙ))`;
//! - `SMerge(a, b)`, the simplified merge: only the `n + 1` largest of the
//!   `2n` outputs, `d₁, cmp(d₂, e₁), …, cmp(d_{n/2+1}, e_{n/2})` over
//!   recursive `SMerge`s of the odd and even positions;
//! - `Card(a)` for `b·m` inputs: `HSort` for one block, otherwise the first
//!   `m` outputs of `SMerge(Card(a₁…aₘ), Card(aₘ₊₁…))`.
//!
//! A comparator `(a, b) ↦ (c₁, c₂)` has 2 variables and 3 clauses per
//! direction: a → c₁, b → c₁, a ∧ b → c₂ for "at most" (the paper's "≤"
//! half) and c₁ → a ∨ b, c₂ → a, c₂ → b for "at least". Output `j` stands for
//! "at least `j + 1` inputs are true", so bounds are single assumptions as in
//! the sequential counter.
//!
//! ## Size
//! Counted in comparators, without padding (n = b·m, m = 2ᵗ):
//! `HMerge(n) = n·log₂ n + 1`, `HSort(2ᵗ) = 2ᵗ·t(t − 1)/4 + 2ᵗ − 1`,
//! `SMerge(2ᵗ) = 2ᵗ + t·2ᵗ⁻¹`, and `Card = b·HSort(m) + (b − 1)·SMerge(m)`
//! comparators; each is 2 auxiliary variables and 3 clauses per direction
//! (6 for both). That is O(n·log² k). Padding only removes comparators.
//!
//! ## Propagation
//! Unit propagation enforces arc consistency for "at most", "at least" and
//! "exactly" (the paper's Theorems on cardinality networks).
//!
//! rustsat 0.7.5 has no sorting or cardinality networks, which is why this
//! encoding is written here.
//!
//! ## References
//! - Roberto Asín, Robert Nieuwenhuis, Albert Oliveras and Enric
//!   Rodríguez-Carbonell: *Cardinality Networks: a theoretical and empirical
//!   study*, Constraints 16(2), 2011.
//! - Kenneth E. Batcher: *Sorting networks and their applications*, AFIPS
//!   1968 (odd-even merging).

use rustsat::{
    clause,
    encodings::CollectClauses,
    instances::ManageVars,
    types::{Clause, Lit},
};

use super::{Direction, UnaryCounter};
use crate::EncodeError;

/// A wire of the network: a literal or the constant false of the padding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wire {
    False,
    Lit(Lit),
}

struct Network<'a> {
    direction: Direction,
    vars: &'a mut dyn ManageVars,
    clauses: Vec<Clause>,
}

fn odd(wires: &[Wire]) -> Vec<Wire> {
    wires.iter().step_by(2).copied().collect()
}

fn even(wires: &[Wire]) -> Vec<Wire> {
    wires.iter().skip(1).step_by(2).copied().collect()
}

impl Network<'_> {
    /// `(a ∨ b, a ∧ b)`.
    fn comparator(&mut self, a: Wire, b: Wire) -> (Wire, Wire) {
        let (a, b) = match (a, b) {
            (Wire::False, w) | (w, Wire::False) => return (w, Wire::False),
            (Wire::Lit(a), Wire::Lit(b)) => (a, b),
        };
        let high = self.vars.new_lit();
        let low = self.vars.new_lit();
        if self.direction.upper() {
            self.clauses.push(clause![!a, high]);
            self.clauses.push(clause![!b, high]);
            self.clauses.push(clause![!a, !b, low]);
        }
        if self.direction.lower() {
            self.clauses.push(clause![!high, a, b]);
            self.clauses.push(clause![!low, a]);
            self.clauses.push(clause![!low, b]);
        }
        (Wire::Lit(high), Wire::Lit(low))
    }

    /// Merges two sorted lists of equal power-of-two length.
    fn hmerge(&mut self, a: &[Wire], b: &[Wire]) -> Vec<Wire> {
        debug_assert!(a.len() == b.len() && a.len().is_power_of_two());
        let n = a.len();
        if n == 1 {
            let (high, low) = self.comparator(a[0], b[0]);
            return vec![high, low];
        }
        let d = self.hmerge(&odd(a), &odd(b));
        let e = self.hmerge(&even(a), &even(b));
        let mut out = Vec::with_capacity(2 * n);
        out.push(d[0]);
        for i in 1..n {
            let (high, low) = self.comparator(d[i], e[i - 1]);
            out.extend([high, low]);
        }
        out.push(e[n - 1]);
        out
    }

    /// Sorts a power-of-two number of wires.
    fn hsort(&mut self, a: &[Wire]) -> Vec<Wire> {
        debug_assert!(a.len().is_power_of_two());
        if a.len() == 1 {
            return a.to_vec();
        }
        let half = a.len() / 2;
        let left = self.hsort(&a[..half]);
        let right = self.hsort(&a[half..]);
        self.hmerge(&left, &right)
    }

    /// The `n + 1` largest of two sorted lists of power-of-two length `n`.
    fn smerge(&mut self, a: &[Wire], b: &[Wire]) -> Vec<Wire> {
        debug_assert!(a.len() == b.len() && a.len().is_power_of_two());
        let n = a.len();
        if n == 1 {
            let (high, low) = self.comparator(a[0], b[0]);
            return vec![high, low];
        }
        let d = self.smerge(&odd(a), &odd(b));
        let e = self.smerge(&even(a), &even(b));
        let mut out = Vec::with_capacity(n + 1);
        out.push(d[0]);
        for i in 1..=n / 2 {
            let (high, low) = self.comparator(d[i], e[i - 1]);
            out.extend([high, low]);
        }
        out
    }

    /// The `m` largest of `a`, sorted; `a.len()` is a multiple of `m`.
    fn card(&mut self, a: &[Wire], m: usize) -> Vec<Wire> {
        if a.len() == m {
            return self.hsort(a);
        }
        let first = self.card(&a[..m], m);
        let rest = self.card(&a[m..], m);
        let mut out = self.smerge(&first, &rest);
        out.truncate(m);
        out
    }
}

/// Builds a cardinality network over `lits` for bounds up to `max_bound`.
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
    let max_bound = max_bound.min(n);
    let needed = (max_bound + 1).min(n);
    let mut outputs = Vec::with_capacity(needed);
    if needed > 0 {
        let m = needed.next_power_of_two();
        let mut wires: Vec<Wire> = lits.iter().map(|&l| Wire::Lit(l)).collect();
        wires.resize(n.div_ceil(m) * m, Wire::False);
        let mut network = Network {
            direction,
            vars,
            clauses: Vec::new(),
        };
        let sorted = network.card(&wires, m);
        for &wire in &sorted[..needed] {
            match wire {
                Wire::Lit(l) => outputs.push(l),
                // Output j < n counts real inputs and is never constant;
                // should it be, a variable fixed false keeps the contract.
                Wire::False => {
                    let l = network.vars.new_lit();
                    network.clauses.push(clause![!l]);
                    outputs.push(l);
                }
            }
        }
        sink.extend_clauses(network.clauses)?;
    }
    Ok(UnaryCounter {
        outputs,
        n_inputs: n,
        max_bound,
        direction,
    })
}
