//! Modulo totalizer (Ogawa, Liu, Hasegawa, Koshimura and Fujita 2013).
//!
//! ## Definition
//! A totalizer tree whose nodes count in base `p`, with
//! `p = max(2, ⌈√(max_bound + 1)⌉)`. The leaves are the inputs; the inputs
//! below a node are split in halves (left ⌊n/2⌋). A node over `t` true
//! inputs out of `n` holds the digits of `t = p·T + R` in unary:
//!
//! - lower digit `l_j` ↔ R ≥ j for `1 ≤ j ≤ L = min(p − 1, n)`,
//! - upper digit `u_i` ↔ T ≥ i for `1 ≤ i ≤ U = min(⌊n/p⌋, C)`, with the
//!   cap `C = ⌊max_bound/p⌋ + 1` (so `u_C` means "T ≥ C", enough to tell
//!   every bound up to `max_bound` apart),
//! - carry `c` ↔ Rα + Rβ ≥ p for children α, β, only when `Lα + Lβ ≥ p`.
//!
//! A leaf is its input: `l_1 = x`, no upper digit. With `l_0 = u_0 = ⊤`,
//! upward clauses (Ogawa et al.'s, needed for "at most") for
//! `i ≤ Lα, j ≤ Lβ` and `i' ≤ Uα, j' ≤ Uβ`:
//!
//! - lα_i ∧ lβ_j → c ∨ l_{i+j} when i + j < p,
//! - lα_i ∧ lβ_j → c and lα_i ∧ lβ_j → l_{i+j−p} when i + j ≥ p,
//! - uα_i' ∧ uβ_j' → u_{i'+j'} and uα_i' ∧ uβ_j' ∧ c → u_{i'+j'+1},
//!
//! where a head above `U` becomes `u_C` when the node is capped and is
//! dropped (the clause forbids its body) when `U = ⌊n/p⌋`. Downward clauses
//! (needed for "at least"; the paper gives only the upward half, these are
//! derived here) for `i ≤ Lα, j ≤ Lβ` and `i' ≤ Uα, j' ≤ Uβ`, where a body
//! literal beyond a child's range is true and left out:
//!
//! - ¬lα_{i+1} ∧ ¬lβ_{j+1} ∧ ¬c → ¬l_{i+j+1},
//! - ¬lα_{i+1} ∧ ¬lβ_{j+1} ∧ c → ¬l_{i+j+1−p},
//! - ¬lα_{i+1} ∧ ¬lβ_{j+1} → ¬c when i + j = p − 1,
//! - ¬uα_{i'+1} ∧ ¬uβ_{j'+1} ∧ ¬c → ¬u_{i'+j'+1} and
//!   ¬uα_{i'+1} ∧ ¬uβ_{j'+1} → ¬u_{i'+j'+2},
//!
//! each only where its head is in range. For `k = p·q + s`, "Σ ≤ k" is
//! ¬u_{q+1} ∧ (¬u_q ∨ ¬l_{s+1}) and "Σ ≥ k" is u_q ∧ (u_{q+1} ∨ l_s); the
//! two-literal clause is guarded by a fresh selector (plain assumptions when
//! `q = 0` or a literal is out of range).
//!
//! ## Size
//! Per node with children (Lα, Uα), (Lβ, Uβ): `L + U + [carry]` auxiliary
//! variables, and upward
//! `(Lα+1)(Lβ+1) − 1 + #{i+j > p} + (Uα+1)(Uβ+1)(1 + [carry]) − 1`
//! clauses. Summed over the tree that is O(n·p) variables and
//! O(n·p + n·C²) = O(n·k) clauses for a bound k with p ≈ √k: fewer
//! variables than the totalizer (O(n·k)), which is the encoding's point.
//! The exact per-node counts are pinned by the tests.
//!
//! ## Propagation
//! The encoding is exact (every model of the inputs extends), but unit
//! propagation does not enforce arc consistency: a carry that is not yet
//! decided blocks the lower digit from being propagated (at most 2 of 3
//! with x₀ and x₁ true leaves x₂ open). With one half of the clauses only
//! (a counter for "at most" or for "at least"), unit propagation does not
//! even refute every complete input assignment that violates the bound:
//! at most 2 of 5 with x₁, x₂ and x₄ true leaves the carries open, and the
//! solver has to decide them to find the conflict. With both halves it
//! refutes every such assignment the propagation test tries (up to 7
//! inputs, every bound). The paper trades propagation for the smaller
//! variable count.
//!
//! rustsat 0.7.5 has only the plain totalizer, which is why the modulo
//! variant is written here.
//!
//! ## Incremental use
//! The modulus follows the largest bound, so a larger bound or more inputs
//! need a new tree: [`ModuloTotalizer`] implements rustsat's plain traits
//! (`BoundUpper`, `BoundLower`, `BoundBoth`) but not the incremental ones.
//! Asking for the other direction writes only its half over the same
//! digits; a larger bound builds a new tree for every bound asked so far
//! (the old clauses stay valid and only cost space). rustsat's
//! `enforce_ub`/`enforce_lb` return literals only, so on that path the
//! two-literal clause of each bound in the range is written up front,
//! guarded by a selector, instead of when the bound is enforced.
//!
//! ## References
//! - Toru Ogawa, YangYang Liu, Ryuzo Hasegawa, Miyuki Koshimura and Hiroshi
//!   Fujita: *Modulo Based CNF Encoding of Cardinality Constraints and Its
//!   Application to MaxSAT Solvers*, ICTAI 2013.
//! - Olivier Bailleux and Yacine Boufkhad: *Efficient CNF Encoding of
//!   Boolean Cardinality Constraints*, CP 2003 (the totalizer).

use rustsat::{
    clause,
    encodings::CollectClauses,
    instances::ManageVars,
    types::{Clause, Lit},
};

use super::{
    own_requests, rustsat_traits, Bound, Enforcement, Halves, OwnCounter, Requests, Rewrite,
};
use crate::error::EncodeError;

/// Ogawa et al.'s modulo totalizer over a set of input literals (see the
/// module documentation).
///
/// Built in one call by [`Card::build`](super::Card::build) or
/// [`BuildCounter::build`](super::BuildCounter::build), with bounds then
/// enforced through [`Counter`](super::Counter); or used like rustsat's `Totalizer` through
/// rustsat's (non-incremental) encoding traits:
///
/// ```
/// use boardsat_encode::card::ModuloTotalizer;
/// use rustsat::{
///     encodings::{card::BoundUpper, EncodeStats},
///     instances::{BasicVarManager, Cnf, ManageVars},
///     lit, var,
/// };
///
/// let mut vars = BasicVarManager::default();
/// vars.increase_next_free(var![9]);
/// let mut mtot = ModuloTotalizer::from((0..9).map(|i| lit![i]).collect::<Vec<_>>());
/// let mut cnf = Cnf::new();
/// mtot.encode_ub(..=5, &mut cnf, &mut vars)?;
/// let at_most_five = mtot.enforce_ub(5)?;
/// assert!(!at_most_five.is_empty());
/// assert_eq!(mtot.n_clauses(), cnf.len());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct ModuloTotalizer {
    requests: Requests,
    tree: Option<Tree>,
}

/// The modulus for bounds up to `max_bound`: `⌈√(max_bound + 1)⌉`, at least 2.
#[must_use]
pub fn modulus(max_bound: usize) -> usize {
    let target = max_bound.saturating_add(1);
    let mut p = 2;
    while p * p < target {
        p += 1;
    }
    p
}

/// The digits of one tree node.
#[derive(Clone, Debug)]
struct Node {
    n: usize,
    lower: Vec<Lit>,
    upper: Vec<Lit>,
}

/// An inner node: the children and the output node, as indices into
/// [`Tree::nodes`], and the carry.
#[derive(Clone, Copy, Debug)]
struct Merge {
    a: usize,
    b: usize,
    out: usize,
    carry: Option<Lit>,
}

/// A built tree.
#[derive(Clone, Debug)]
struct Tree {
    /// The number of inputs below the root.
    n_inputs: usize,
    /// The largest bound the tree was built for.
    max_bound: usize,
    /// The modulus `p ≥ 2`.
    p: usize,
    /// The cap `C` on upper digits.
    cap: usize,
    /// Leaves and inner nodes.
    nodes: Vec<Node>,
    /// Inner nodes, children before parents.
    merges: Vec<Merge>,
    /// The halves written so far.
    written: Halves,
    /// For rustsat's `enforce_ub`: `upper_selectors[k]` → the two-literal
    /// clause of "Σ ≤ k", where that bound has one.
    upper_selectors: Vec<Option<Lit>>,
    /// The same for `enforce_lb` and "Σ ≥ k".
    lower_selectors: Vec<Option<Lit>>,
}

/// The disjunctive part of a bound's enforcement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Either {
    /// Always true: nothing to enforce.
    True,
    /// One literal to assume.
    One(Lit),
    /// A clause of two literals, guarded by a selector.
    Two(Lit, Lit),
}

/// One inner node's merge as its clauses read it: the two children, the
/// output node, the carry, and whether the output's upper digit is capped.
struct Inner<'a> {
    p: usize,
    a: &'a Node,
    b: &'a Node,
    node: &'a Node,
    carry: Option<Lit>,
    capped: bool,
}

/// The literals of a clause body, the constant-true digits left out.
fn body(xs: &[Option<Lit>]) -> Vec<Lit> {
    xs.iter().flatten().copied().collect()
}

impl Inner<'_> {
    /// The upward half: the children's digits imply the output's.
    fn upward(&self, out: &mut Vec<Clause>) {
        let (p, a, b, carry) = (self.p, self.a, self.b, self.carry);
        let (lower, upper) = (&self.node.lower, &self.node.upper);
        let n_upper = upper.len();
        // Digit 0 is the constant true and is left out of clause bodies.
        let digit = |d: &[Lit], i: usize| i.checked_sub(1).map(|i| d[i]);
        let upper_head = |i: usize| -> Option<Lit> {
            match i {
                0 => None,
                _ if i <= n_upper => Some(upper[i - 1]),
                _ if self.capped => upper.last().copied(),
                _ => None,
            }
        };
        for i in 0..=a.lower.len() {
            for j in 0..=b.lower.len() {
                if i + j == 0 {
                    continue;
                }
                let bd = body(&[digit(&a.lower, i), digit(&b.lower, j)]);
                if i + j < p {
                    let mut cl = clause_of(&bd, Some(lower[i + j - 1]));
                    if let Some(c) = carry {
                        cl.add(c);
                    }
                    out.push(cl);
                } else {
                    // i + j ≥ p implies a carry variable exists.
                    out.push(clause_of(&bd, carry));
                    if i + j > p {
                        out.push(clause_of(&bd, Some(lower[i + j - p - 1])));
                    }
                }
            }
        }
        for i in 0..=a.upper.len() {
            for j in 0..=b.upper.len() {
                let bd = body(&[digit(&a.upper, i), digit(&b.upper, j)]);
                if i + j > 0 {
                    out.push(clause_of(&bd, upper_head(i + j)));
                }
                if let Some(c) = carry {
                    let mut bd = bd;
                    bd.push(c);
                    out.push(clause_of(&bd, upper_head(i + j + 1)));
                }
            }
        }
    }

    /// The downward half: the children's small digits bound the output's.
    fn downward(&self, out: &mut Vec<Clause>) {
        let (p, a, b, carry) = (self.p, self.a, self.b, self.carry);
        let (lower, upper) = (&self.node.lower, &self.node.upper);
        let (n_lower, n_upper) = (lower.len(), upper.len());
        // "Child digit ≤ i": the negation of its digit i + 1, true (and
        // left out) beyond the child's range.
        let at_most = |d: &[Lit], i: usize| d.get(i).map(|&l| !l);
        for i in 0..=a.lower.len() {
            for j in 0..=b.lower.len() {
                let small = body(&[at_most(&a.lower, i), at_most(&b.lower, j)]);
                let guarded = |c: Option<Lit>| {
                    let mut bd = small.clone();
                    bd.extend(c);
                    bd
                };
                if i + j < n_lower {
                    let bd = guarded(carry.map(|c| !c));
                    out.push(clause_of(&bd, Some(!lower[i + j])));
                }
                if let Some(c) = carry {
                    if i + j >= p && i + j - p < n_lower {
                        let bd = guarded(Some(c));
                        out.push(clause_of(&bd, Some(!lower[i + j - p])));
                    }
                    if i + j == p - 1 {
                        out.push(clause_of(&small, Some(!c)));
                    }
                }
            }
        }
        for i in 0..=a.upper.len() {
            for j in 0..=b.upper.len() {
                let small = body(&[at_most(&a.upper, i), at_most(&b.upper, j)]);
                if i + j < n_upper {
                    let mut bd = small.clone();
                    bd.extend(carry.map(|c| !c));
                    out.push(clause_of(&bd, Some(!upper[i + j])));
                }
                if carry.is_some() && i + j + 1 < n_upper {
                    out.push(clause_of(&small, Some(!upper[i + j + 1])));
                }
            }
        }
    }
}

/// The clause `body → head`; without a head (a digit beyond the range,
/// which is false) the clause forbids its body.
fn clause_of(body: &[Lit], head: Option<Lit>) -> Clause {
    let mut cl: Clause = body.iter().map(|&l| !l).collect();
    if let Some(h) = head {
        cl.add(h);
    }
    cl
}

/// Digit `index` (1-based) of `digits`; `None` beyond the range.
fn digit(digits: &[Lit], index: usize) -> Option<Lit> {
    index.checked_sub(1).and_then(|i| digits.get(i).copied())
}

/// Creates the tree's variables, children before parents.
struct Builder<'a> {
    p: usize,
    cap: usize,
    vars: &'a mut dyn ManageVars,
    nodes: Vec<Node>,
    merges: Vec<Merge>,
}

impl Builder<'_> {
    fn node(&mut self, lits: &[Lit]) -> usize {
        if let [x] = lits {
            self.nodes.push(Node {
                n: 1,
                lower: vec![*x],
                upper: vec![],
            });
            return self.nodes.len() - 1;
        }
        let mid = lits.len() / 2;
        let a = self.node(&lits[..mid]);
        let b = self.node(&lits[mid..]);
        let (na, nb) = (&self.nodes[a], &self.nodes[b]);
        let n = na.n + nb.n;
        let has_carry = na.lower.len() + nb.lower.len() >= self.p;
        let lower: Vec<Lit> = (0..(self.p - 1).min(n))
            .map(|_| self.vars.new_lit())
            .collect();
        let upper: Vec<Lit> = (0..(n / self.p).min(self.cap))
            .map(|_| self.vars.new_lit())
            .collect();
        let carry = has_carry.then(|| self.vars.new_lit());
        self.nodes.push(Node { n, lower, upper });
        let out = self.nodes.len() - 1;
        self.merges.push(Merge { a, b, out, carry });
        out
    }
}

impl Tree {
    /// The variables of a tree over `inputs` (not empty) for bounds up to
    /// `max_bound`, without clauses.
    fn allocate(inputs: &[Lit], max_bound: usize, vars: &mut dyn ManageVars) -> Tree {
        let p = modulus(max_bound);
        let mut builder = Builder {
            p,
            cap: max_bound / p + 1,
            vars,
            nodes: Vec::new(),
            merges: Vec::new(),
        };
        builder.node(inputs);
        Tree {
            n_inputs: inputs.len(),
            max_bound,
            p,
            cap: builder.cap,
            nodes: builder.nodes,
            merges: builder.merges,
            written: Halves::default(),
            upper_selectors: Vec::new(),
            lower_selectors: Vec::new(),
        }
    }

    /// The root node (the last one built).
    fn root(&self) -> &Node {
        // `allocate` builds at least one node.
        &self.nodes[self.nodes.len() - 1]
    }

    /// The clauses of one inner node, for the halves asked for.
    fn merge_clauses(&self, merge: Merge, halves: Halves, out: &mut Vec<Clause>) {
        let node = &self.nodes[merge.out];
        let inner = Inner {
            p: self.p,
            a: &self.nodes[merge.a],
            b: &self.nodes[merge.b],
            node,
            carry: merge.carry,
            capped: node.n / self.p > self.cap,
        };
        if halves.upward {
            inner.upward(out);
        }
        if halves.downward {
            inner.downward(out);
        }
    }

    /// Every clause of the halves asked for, children before parents.
    fn clauses(&self, halves: Halves) -> Vec<Clause> {
        let mut out = Vec::new();
        for &merge in &self.merges {
            self.merge_clauses(merge, halves, &mut out);
        }
        out
    }

    /// Σ ≤ k for `k < n`, `k ≤ max_bound`: ¬u_{q+1} ∧ (¬u_q ∨ ¬l_{s+1})
    /// for `k = p·q + s`, as a literal to assume (if any) and the rest. A
    /// digit beyond the range is false.
    fn at_most(&self, k: usize) -> (Option<Lit>, Either) {
        let root = self.root();
        let (q, s) = (k / self.p, k % self.p);
        let not_above = digit(&root.upper, q + 1).map(|l| !l);
        let not_lower = digit(&root.lower, s + 1).map(|l| !l);
        // u_0 is true, so q = 0 leaves ¬l_{s+1}.
        let not_q = if q == 0 {
            None
        } else {
            match digit(&root.upper, q) {
                Some(l) => Some(!l),
                // u_q beyond the range is false: the disjunction holds.
                None => return (not_above, Either::True),
            }
        };
        let either = match (not_q, not_lower) {
            (_, None) => Either::True,
            (None, Some(l)) => Either::One(l),
            (Some(a), Some(b)) => Either::Two(a, b),
        };
        (not_above, either)
    }

    /// Σ ≥ k for `1 ≤ k ≤ min(n, max_bound)`: u_q ∧ (u_{q+1} ∨ l_s).
    fn at_least(&self, k: usize) -> (Option<Lit>, Either) {
        let root = self.root();
        let (q, s) = (k / self.p, k % self.p);
        let at_q = digit(&root.upper, q);
        // l_0 is true, so s = 0 leaves u_q.
        let either = if s == 0 {
            Either::True
        } else {
            match (digit(&root.upper, q + 1), digit(&root.lower, s)) {
                (Some(a), Some(b)) => Either::Two(a, b),
                (Some(l), None) | (None, Some(l)) => Either::One(l),
                // Both false: k > n, which the callers rule out.
                (None, None) => Either::True,
            }
        };
        (at_q, either)
    }

    /// Creates a selector for every bound up to the ones asked for that
    /// needs one, and returns the guarded clauses (all of them for the
    /// directions `rewrite` asks for again, otherwise the new ones).
    fn selectors(
        &mut self,
        requests: &Requests,
        rewrite: Rewrite,
        vars: &mut dyn ManageVars,
    ) -> Vec<Clause> {
        let mut out = Vec::new();
        let n = self.n_inputs;
        if let (Some(upper), true) = (requests.upper, self.written.upward) {
            for k in 0..=upper.min(n - 1) {
                if let (_, Either::Two(a, b)) = self.at_most(k) {
                    let (selector, new) = slot(&mut self.upper_selectors, k, vars);
                    if new || rewrite.upper() {
                        out.push(clause![!selector, a, b]);
                    }
                }
            }
        }
        if let (Some(lower), true) = (requests.lower, self.written.downward) {
            for k in 1..=lower {
                if let (_, Either::Two(a, b)) = self.at_least(k) {
                    let (selector, new) = slot(&mut self.lower_selectors, k, vars);
                    if new || rewrite.lower() {
                        out.push(clause![!selector, a, b]);
                    }
                }
            }
        }
        out
    }
}

/// The selector at `slots[k]`, created when missing; whether it is new.
fn slot(slots: &mut Vec<Option<Lit>>, k: usize, vars: &mut dyn ManageVars) -> (Lit, bool) {
    if slots.len() <= k {
        slots.resize(k + 1, None);
    }
    match slots[k] {
        Some(selector) => (selector, false),
        None => {
            let selector = vars.new_lit();
            slots[k] = Some(selector);
            (selector, true)
        }
    }
}

impl ModuloTotalizer {
    /// The tree, when built over every input.
    fn current(&self) -> Option<&Tree> {
        self.tree
            .as_ref()
            .filter(|tree| tree.n_inputs == self.requests.inputs.len())
    }

    /// Literals only: the first literal, and the selector of a two-literal
    /// clause, which must have been written.
    fn assume(
        (first, either): (Option<Lit>, Either),
        selector: impl FnOnce() -> Option<Lit>,
    ) -> Option<Vec<Lit>> {
        let mut out: Vec<Lit> = first.into_iter().collect();
        match either {
            Either::True => {}
            Either::One(l) => out.push(l),
            Either::Two(..) => out.push(selector()?),
        }
        Some(out)
    }

    /// [`Counter`]'s enforcement: a two-literal clause gets the selector
    /// written for rustsat, or a fresh one and the guarded clause.
    fn enforcement(
        (first, either): (Option<Lit>, Either),
        selector: Option<Lit>,
        vars: &mut dyn ManageVars,
    ) -> Enforcement {
        let mut out = Enforcement::default();
        out.assumptions.extend(first);
        match (either, selector) {
            (Either::True, _) => {}
            (Either::One(l), _) => out.assumptions.push(l),
            (Either::Two(..), Some(selector)) => out.assumptions.push(selector),
            (Either::Two(a, b), None) => {
                let selector = vars.new_lit();
                out.assumptions.push(selector);
                out.clauses.push(clause![!selector, a, b]);
            }
        }
        out
    }
}

impl OwnCounter for ModuloTotalizer {
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
        if inputs.is_empty() {
            return Ok(());
        }
        let mark = Requests::mark(sink, vars);
        let tree = match &mut self.tree {
            Some(tree) if tree.n_inputs == inputs.len() && tree.max_bound >= max_bound => tree,
            stale => stale.insert(Tree::allocate(inputs, max_bound, vars)),
        };
        let wanted = Halves::wanted(&self.requests, tree.written, rewrite);
        let mut clauses = tree.clauses(wanted);
        tree.written = tree.written.union(wanted);
        if self.requests.by_literals {
            clauses.extend(tree.selectors(&self.requests, rewrite, vars));
        }
        sink.extend_clauses(clauses)?;
        self.requests.count_since(mark, sink, vars);
        Ok(())
    }

    fn assume_upper(&self, k: usize) -> Option<Vec<Lit>> {
        let tree = self
            .current()
            .filter(|t| t.written.upward && k <= t.max_bound)?;
        Self::assume(tree.at_most(k), || {
            tree.upper_selectors.get(k).copied().flatten()
        })
    }

    fn assume_lower(&self, k: usize) -> Option<Vec<Lit>> {
        let tree = self
            .current()
            .filter(|t| t.written.downward && k <= t.max_bound)?;
        Self::assume(tree.at_least(k), || {
            tree.lower_selectors.get(k).copied().flatten()
        })
    }

    fn enforce_upper(
        &self,
        k: usize,
        vars: &mut dyn ManageVars,
    ) -> Result<Enforcement, EncodeError> {
        let not_encoded = EncodeError::NotEncoded {
            bound: Bound::AtMost(k),
        };
        let tree = self
            .current()
            .filter(|t| t.written.upward && k <= t.max_bound)
            .ok_or(not_encoded)?;
        let selector = tree.upper_selectors.get(k).copied().flatten();
        Ok(Self::enforcement(tree.at_most(k), selector, vars))
    }

    fn enforce_lower(
        &self,
        k: usize,
        vars: &mut dyn ManageVars,
    ) -> Result<Enforcement, EncodeError> {
        let not_encoded = EncodeError::NotEncoded {
            bound: Bound::AtLeast(k),
        };
        let tree = self
            .current()
            .filter(|t| t.written.downward && k <= t.max_bound)
            .ok_or(not_encoded)?;
        let selector = tree.lower_selectors.get(k).copied().flatten();
        Ok(Self::enforcement(tree.at_least(k), selector, vars))
    }
}

rustsat_traits!(ModuloTotalizer);
