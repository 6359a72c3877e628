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
//! "exactly" (the paper's Theorems on cardinality networks);
//! `tests/propagation.rs` checks all three for every partial assignment up
//! to 7 inputs, for hard bounds and for counters built for every bound.
//!
//! rustsat 0.7.5 has no sorting or cardinality networks, which is why this
//! encoding is written here.
//!
//! ## Incremental use
//! The network's width `m` follows the largest bound, so a larger bound or
//! more inputs need a new network: [`CardinalityNetwork`] implements
//! rustsat's plain traits (`BoundUpper`, `BoundLower`, `BoundBoth`) but not
//! the incremental ones. Asking for a bound the network already covers, or
//! for the other direction, writes only the missing half of each
//! comparator; a larger bound builds a new network for every bound asked
//! so far (the old clauses stay valid and only cost space).
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

use super::{
    own_requests, rustsat_traits, unary_lower, unary_upper, Halves, OwnCounter, Requests, Rewrite,
};

/// Asín et al.'s cardinality network over a set of input literals (see the
/// module documentation).
///
/// Built in one call by [`Card::build`](super::Card::build) or
/// [`BuildCounter::build`](super::BuildCounter::build), with bounds then
/// enforced through [`Counter`](super::Counter); or used like rustsat's `Totalizer` through
/// rustsat's (non-incremental) encoding traits:
///
/// ```
/// use boardsat_encode::card::CardinalityNetwork;
/// use rustsat::{
///     encodings::card::{BoundBoth, BoundLower, BoundUpper},
///     instances::{BasicVarManager, Cnf, ManageVars},
///     lit, var,
/// };
///
/// let mut vars = BasicVarManager::default();
/// vars.increase_next_free(var![5]);
/// let mut network: CardinalityNetwork = (0..5).map(|i| lit![i]).collect();
/// let mut cnf = Cnf::new();
/// network.encode_both(2..=2, &mut cnf, &mut vars)?;
/// let exactly_two = network.enforce_eq(2)?;
/// assert_eq!(exactly_two.len(), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct CardinalityNetwork {
    requests: Requests,
    network: Option<Network>,
}

/// A built network: its comparators and sorted outputs.
#[derive(Clone, Debug)]
struct Network {
    /// The number of inputs the network sorts.
    n_inputs: usize,
    /// Comparators `(a, b, a ∨ b, a ∧ b)`, in the order they were built.
    comparators: Vec<[Lit; 4]>,
    /// Outputs that carry only padding, fixed false by unit clauses.
    fixed_false: Vec<Lit>,
    /// `outputs[j]` ↔ "at least `j + 1` inputs are true", for `j < min(m, n)`.
    outputs: Vec<Lit>,
    /// The halves of every comparator written so far: "at most" upward,
    /// "at least" downward.
    written: Halves,
}

/// A wire of the network: a literal or the constant false of the padding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wire {
    False,
    Lit(Lit),
}

/// Builds the comparators; the clauses come afterwards, per direction.
struct Builder<'a> {
    vars: &'a mut dyn ManageVars,
    comparators: Vec<[Lit; 4]>,
}

fn odd(wires: &[Wire]) -> Vec<Wire> {
    wires.iter().step_by(2).copied().collect()
}

fn even(wires: &[Wire]) -> Vec<Wire> {
    wires.iter().skip(1).step_by(2).copied().collect()
}

impl Builder<'_> {
    /// `(a ∨ b, a ∧ b)`.
    fn comparator(&mut self, a: Wire, b: Wire) -> (Wire, Wire) {
        let (a, b) = match (a, b) {
            (Wire::False, w) | (w, Wire::False) => return (w, Wire::False),
            (Wire::Lit(a), Wire::Lit(b)) => (a, b),
        };
        let high = self.vars.new_lit();
        let low = self.vars.new_lit();
        self.comparators.push([a, b, high, low]);
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

impl Network {
    /// The comparators of a network over `inputs` with the `needed` largest
    /// outputs (at least), without their clauses.
    fn allocate(inputs: &[Lit], needed: usize, vars: &mut dyn ManageVars) -> Network {
        let n = inputs.len();
        let m = needed.next_power_of_two();
        let mut wires: Vec<Wire> = inputs.iter().map(|&l| Wire::Lit(l)).collect();
        wires.resize(n.div_ceil(m) * m, Wire::False);
        let mut builder = Builder {
            vars,
            comparators: Vec::new(),
        };
        let sorted = builder.card(&wires, m);
        let mut fixed_false = Vec::new();
        let mut outputs = Vec::with_capacity(m.min(n));
        for &wire in &sorted[..m.min(n)] {
            match wire {
                Wire::Lit(l) => outputs.push(l),
                // Output j < n counts real inputs and is never constant;
                // should it be, a variable fixed false keeps the contract.
                Wire::False => {
                    let l = builder.vars.new_lit();
                    fixed_false.push(l);
                    outputs.push(l);
                }
            }
        }
        Network {
            n_inputs: n,
            comparators: builder.comparators,
            fixed_false,
            outputs,
            written: Halves::default(),
        }
    }

    /// The clauses of the halves asked for: a → c₁, b → c₁, a ∧ b → c₂ for
    /// "at most", c₁ → a ∨ b, c₂ → a, c₂ → b for "at least".
    fn clauses(&self, halves: Halves) -> Vec<Clause> {
        let mut out = Vec::new();
        for &[a, b, high, low] in &self.comparators {
            if halves.upward {
                out.extend([clause![!a, high], clause![!b, high], clause![!a, !b, low]]);
            }
            if halves.downward {
                out.extend([clause![!high, a, b], clause![!low, a], clause![!low, b]]);
            }
        }
        out
    }
}

impl OwnCounter for CardinalityNetwork {
    own_requests!();

    fn write<C: CollectClauses>(
        &mut self,
        rewrite: Rewrite,
        sink: &mut C,
        vars: &mut dyn ManageVars,
    ) -> Result<(), rustsat::OutOfMemory> {
        let inputs = &self.requests.inputs;
        let Some(max_bound) = self.requests.max_bound() else {
            return Ok(());
        };
        // Bounds up to k need the outputs j ≤ k (j < n).
        let needed = (max_bound + 1).min(inputs.len());
        if needed == 0 {
            return Ok(());
        }
        let mark = Requests::mark(sink, vars);
        let network = match &mut self.network {
            Some(network)
                if network.n_inputs == inputs.len() && network.outputs.len() >= needed =>
            {
                network
            }
            stale => stale.insert(Network::allocate(inputs, needed, vars)),
        };
        let fresh = network.written == Halves::default();
        let wanted = Halves::wanted(&self.requests, network.written, rewrite);
        let mut clauses = network.clauses(wanted);
        if fresh || rewrite != Rewrite::Nothing {
            clauses.extend(network.fixed_false.iter().map(|&l| clause![!l]));
        }
        network.written = network.written.union(wanted);
        sink.extend_clauses(clauses)?;
        self.requests.count_since(mark, sink, vars);
        Ok(())
    }

    fn assume_upper(&self, k: usize) -> Option<Vec<Lit>> {
        let network = self.network.as_ref()?;
        (network.n_inputs == self.requests.inputs.len() && network.written.upward)
            .then(|| unary_upper(&network.outputs, k))?
    }

    fn assume_lower(&self, k: usize) -> Option<Vec<Lit>> {
        let network = self.network.as_ref()?;
        (network.n_inputs == self.requests.inputs.len() && network.written.downward)
            .then(|| unary_lower(&network.outputs, k))?
    }
}

rustsat_traits!(CardinalityNetwork);
