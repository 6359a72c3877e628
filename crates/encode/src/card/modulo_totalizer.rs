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
//! propagation does not enforce arc consistency in general: a carry that
//! is not yet decided blocks the lower digit from being propagated. The
//! paper trades that for the smaller variable count.
//!
//! rustsat 0.7.5 has only the plain totalizer, which is why the modulo
//! variant is written here.
//!
//! ## References
//! - Toru Ogawa, YangYang Liu, Ryuzo Hasegawa, Miyuki Koshimura and Hiroshi
//!   Fujita: *Modulo Based CNF Encoding of Cardinality Constraints and Its
//!   Application to MaxSAT Solvers*, ICTAI 2013.
//! - Olivier Bailleux and Yacine Boufkhad: *Efficient CNF Encoding of
//!   Boolean Cardinality Constraints*, CP 2003 (the totalizer).

use rustsat::{
    encodings::CollectClauses,
    instances::ManageVars,
    types::{Clause, Lit},
};

use super::{Counter, Direction, Enforcement, Shape};
use crate::EncodeError;

/// A built modulo totalizer: the digits of the root node.
#[derive(Clone, Debug)]
pub struct ModuloTotalizer {
    /// The modulus `p ≥ 2`.
    pub modulus: usize,
    /// Root lower digits: `lower[j − 1]` ↔ (Σ mod p) ≥ j.
    pub lower: Vec<Lit>,
    /// Root upper digits: `upper[i − 1]` ↔ ⌊Σ / p⌋ ≥ i.
    pub upper: Vec<Lit>,
    n_inputs: usize,
    max_bound: usize,
    direction: Direction,
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
struct Node {
    n: usize,
    lower: Vec<Lit>,
    upper: Vec<Lit>,
}

struct Builder<'a> {
    p: usize,
    cap: usize,
    direction: Direction,
    vars: &'a mut dyn ManageVars,
    clauses: Vec<Clause>,
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

impl Builder<'_> {
    fn node(&mut self, lits: &[Lit]) -> Node {
        if let [x] = lits {
            return Node {
                n: 1,
                lower: vec![*x],
                upper: vec![],
            };
        }
        let mid = lits.len() / 2;
        let a = self.node(&lits[..mid]);
        let b = self.node(&lits[mid..]);
        self.merge(&a, &b)
    }

    fn merge(&mut self, a: &Node, b: &Node) -> Node {
        let p = self.p;
        let n = a.n + b.n;
        let natural_upper = n / p;
        let n_lower = (p - 1).min(n);
        let n_upper = natural_upper.min(self.cap);
        let capped = natural_upper > self.cap;
        let lower: Vec<Lit> = (0..n_lower).map(|_| self.vars.new_lit()).collect();
        let upper: Vec<Lit> = (0..n_upper).map(|_| self.vars.new_lit()).collect();
        let carry = (a.lower.len() + b.lower.len() >= p).then(|| self.vars.new_lit());
        // Digit 0 is the constant true and is left out of clause bodies.
        let digit = |d: &[Lit], i: usize| i.checked_sub(1).map(|i| d[i]);
        let body = |xs: &[Option<Lit>]| xs.iter().flatten().copied().collect::<Vec<Lit>>();
        let upper_head = |i: usize| -> Option<Lit> {
            match i {
                0 => None,
                _ if i <= n_upper => Some(upper[i - 1]),
                _ if capped => upper.last().copied(),
                _ => None,
            }
        };
        if self.direction.upper() {
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
                        self.clauses.push(cl);
                    } else {
                        // i + j ≥ p implies a carry variable exists.
                        self.clauses.push(clause_of(&bd, carry));
                        if i + j > p {
                            self.clauses
                                .push(clause_of(&bd, Some(lower[i + j - p - 1])));
                        }
                    }
                }
            }
            for i in 0..=a.upper.len() {
                for j in 0..=b.upper.len() {
                    let bd = body(&[digit(&a.upper, i), digit(&b.upper, j)]);
                    if i + j > 0 {
                        self.clauses.push(clause_of(&bd, upper_head(i + j)));
                    }
                    if let Some(c) = carry {
                        let mut bd = bd;
                        bd.push(c);
                        self.clauses.push(clause_of(&bd, upper_head(i + j + 1)));
                    }
                }
            }
        }
        if self.direction.lower() {
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
                        self.clauses.push(clause_of(&bd, Some(!lower[i + j])));
                    }
                    if let Some(c) = carry {
                        if i + j >= p && i + j - p < n_lower {
                            let bd = guarded(Some(c));
                            self.clauses.push(clause_of(&bd, Some(!lower[i + j - p])));
                        }
                        if i + j == p - 1 {
                            self.clauses.push(clause_of(&small, Some(!c)));
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
                        self.clauses.push(clause_of(&bd, Some(!upper[i + j])));
                    }
                    if carry.is_some() && i + j + 1 < n_upper {
                        self.clauses
                            .push(clause_of(&small, Some(!upper[i + j + 1])));
                    }
                }
            }
        }
        Node { n, lower, upper }
    }
}

/// Builds a modulo totalizer over `lits` for bounds up to `max_bound`.
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
) -> Result<ModuloTotalizer, EncodeError> {
    let max_bound = max_bound.min(lits.len());
    let p = modulus(max_bound);
    let mut builder = Builder {
        p,
        cap: max_bound / p + 1,
        direction,
        vars,
        clauses: Vec::new(),
    };
    let root = if lits.is_empty() {
        Node {
            n: 0,
            lower: vec![],
            upper: vec![],
        }
    } else {
        builder.node(lits)
    };
    debug_assert_eq!(root.n, lits.len());
    sink.extend_clauses(builder.clauses)?;
    Ok(ModuloTotalizer {
        modulus: p,
        lower: root.lower,
        upper: root.upper,
        n_inputs: lits.len(),
        max_bound,
        direction,
    })
}

impl ModuloTotalizer {
    /// Root digit `index` (1-based) of `digits`; `None` beyond the range.
    fn digit(digits: &[Lit], index: usize) -> Option<Lit> {
        index.checked_sub(1).and_then(|i| digits.get(i).copied())
    }

    /// `first ∧ (a ∨ b)` as an enforcement, where a `None` literal is false
    /// in the disjunction and true in the conjunction.
    fn enforcement(
        first: Option<Lit>,
        either: (Option<Lit>, Option<Lit>),
        vars: &mut dyn ManageVars,
    ) -> Enforcement {
        let mut out = Enforcement::default();
        out.assumptions.extend(first);
        match either {
            (Some(a), Some(b)) => {
                let selector = vars.new_lit();
                out.assumptions.push(selector);
                out.clauses.push(rustsat::clause![!selector, a, b]);
            }
            (Some(l), None) | (None, Some(l)) => out.assumptions.push(l),
            (None, None) => {}
        }
        out
    }
}

impl Counter for ModuloTotalizer {
    fn shape(&self) -> Shape {
        Shape {
            n_inputs: self.n_inputs,
            max_bound: self.max_bound,
            direction: self.direction,
        }
    }

    fn upper(&self, k: usize, vars: &mut dyn ManageVars) -> Result<Enforcement, EncodeError> {
        let (q, s) = (k / self.modulus, k % self.modulus);
        // ¬u_{q+1} ∧ (¬u_q ∨ ¬l_{s+1}); u_0 is true, so q = 0 leaves ¬l_{s+1}.
        let not_above = Self::digit(&self.upper, q + 1).map(|l| !l);
        let lower = Self::digit(&self.lower, s + 1).map(|l| !l);
        Ok(if q == 0 {
            Self::enforcement(not_above, (lower, None), vars)
        } else {
            let not_q = Self::digit(&self.upper, q).map(|l| !l);
            match (not_q, lower) {
                // u_q beyond the range is false: the disjunction holds.
                (None, _) | (_, None) => Self::enforcement(not_above, (None, None), vars),
                (a, b) => Self::enforcement(not_above, (a, b), vars),
            }
        })
    }

    fn lower(&self, k: usize, vars: &mut dyn ManageVars) -> Result<Enforcement, EncodeError> {
        let (q, s) = (k / self.modulus, k % self.modulus);
        // u_q ∧ (u_{q+1} ∨ l_s); l_0 is true, so s = 0 leaves u_q.
        let at_q = Self::digit(&self.upper, q);
        let either = if s == 0 {
            (None, None)
        } else {
            (Self::digit(&self.upper, q + 1), Self::digit(&self.lower, s))
        };
        Ok(Self::enforcement(at_q, either, vars))
    }
}
