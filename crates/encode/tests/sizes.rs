//! Exact encoding sizes for small inputs, each computed from a formula
//! derived from the encoding's definition (rustsat's source for the AMO
//! encodings, the module docs for our own).

mod common;

use boardsat_encode::{
    card::{
        modulo_totalizer, BuildCounter, CardinalityNetwork, Direction, ModuloTotalizer,
        SequentialCounter,
    },
    Amo,
};
use common::delta;

/// Pairs among `n`.
fn pairwise(n: usize) -> usize {
    n * n.saturating_sub(1) / 2
}

/// Binary digits of `x`, with rustsat's convention that 0 has one digit.
fn digits(x: usize) -> usize {
    (usize::BITS - x.leading_zeros()).max(1) as usize
}

/// Group sizes when `n` is cut into groups of 4 (rustsat's commander and
/// bimander split).
fn groups(n: usize) -> Vec<usize> {
    (0..n.div_ceil(4)).map(|g| (n - 4 * g).min(4)).collect()
}

/// (clauses, auxiliary variables) of each AMO encoding over `n ≥ 2` inputs.
fn amo_size(amo: Amo, n: usize) -> (usize, usize) {
    match amo {
        // Pairwise up to 16 literals, product above.
        Amo::Auto if n <= 16 => amo_size(Amo::Pairwise, n),
        Amo::Auto => amo_size(Amo::Product, n),
        Amo::Pairwise => (pairwise(n), 0),
        // No clauses: the lines go to a propagator.
        Amo::Lazy => (0, 0),
        // n − 1 rungs; n − 2 rung implications; each input implies the
        // rung above it and the negated rung below it (ends: one each).
        Amo::Ladder => (3 * n - 4, n - 1),
        // ⌈log₂ n⌉ bits; each input fixes every bit.
        Amo::Bitwise => {
            let b = digits(n - 1);
            (n * b, b)
        }
        // One commander per group; input → commander; pairwise inside each
        // group and among the commanders.
        Amo::Commander => {
            let g = groups(n);
            let inside: usize = g.iter().map(|&s| pairwise(s)).sum();
            (n + inside + pairwise(g.len()), g.len())
        }
        // p = ⌊√n⌋ rows, q = ⌈n/p⌉ columns; input → row and column;
        // pairwise over rows and over columns.
        Amo::Product => {
            let p = (1..=n).take_while(|p| p * p <= n).last().unwrap();
            let q = n.div_ceil(p);
            (2 * n + pairwise(p) + pairwise(q), p + q)
        }
        // digits(groups − 1) bits; each input fixes its group's code;
        // pairwise inside each group.
        Amo::Bimander => {
            let g = groups(n);
            let b = digits(g.len() - 1);
            let inside: usize = g.iter().map(|&s| pairwise(s)).sum();
            (n * b + inside, b)
        }
    }
}

#[test]
fn amo_sizes_match_their_formulas() {
    for amo in Amo::EAGER {
        for n in 0..=17 {
            let (clauses, aux) = delta(n, |lits, cnf, vars| amo.encode(lits, cnf, vars).unwrap());
            let expected = if n <= 1 { (0, 0) } else { amo_size(amo, n) };
            assert_eq!((clauses, aux as usize), expected, "{amo} over {n}");
        }
    }
}

#[test]
fn spot_values_of_the_amo_formulas() {
    // Hand-computed, to catch a formula that is wrong in the same way as
    // the code: n = 9 with groups 4, 4, 1.
    assert_eq!(amo_size(Amo::Pairwise, 9), (36, 0));
    assert_eq!(amo_size(Amo::Ladder, 9), (23, 8));
    assert_eq!(amo_size(Amo::Bitwise, 9), (36, 4));
    assert_eq!(amo_size(Amo::Commander, 9), (9 + 12 + 3, 3));
    assert_eq!(amo_size(Amo::Product, 9), (18 + 3 + 3, 6));
    assert_eq!(amo_size(Amo::Bimander, 9), (18 + 12, 2));
}

fn directions() -> [Direction; 3] {
    [Direction::Upper, Direction::Lower, Direction::Both]
}

/// Sequential counter: register (i, j) exists for j < min(i + 1, m); it has
/// one upward clause from xᵢ plus one from s[i−1][j] when j < i, and one
/// downward clause plus a second when j > 0.
fn sequential_counter_size(n: usize, max_bound: usize, direction: Direction) -> (usize, usize) {
    let m = (max_bound + 1).min(n);
    let (mut clauses, mut vars) = (0, 0);
    for i in 0..n {
        for j in 0..(i + 1).min(m) {
            vars += 1;
            if direction.upper() {
                clauses += 1 + usize::from(j < i);
            }
            if direction.lower() {
                clauses += 1 + usize::from(j > 0);
            }
        }
    }
    (clauses, vars)
}

#[test]
fn sequential_counter_sizes_match_the_formula() {
    for direction in directions() {
        for n in 0..=12 {
            for max_bound in 0..=n {
                let got = delta(n, |lits, cnf, vars| {
                    SequentialCounter::build(lits, direction, max_bound, cnf, vars).unwrap();
                });
                let want = sequential_counter_size(n, max_bound, direction);
                assert_eq!(
                    (got.0, got.1 as usize),
                    want,
                    "{direction:?} n={n} k={max_bound}"
                );
            }
        }
    }
    // Closed form when m = 2 and n = 5, upward: 9 registers, 16 clauses.
    assert_eq!(sequential_counter_size(5, 1, Direction::Upper), (16, 9));
}

/// Number of pairs (i, j) in [0, a] × [0, b] with `pred(i + j)`.
fn pairs(a: usize, b: usize, pred: impl Fn(usize) -> bool) -> usize {
    (0..=a)
        .flat_map(|i| (0..=b).map(move |j| i + j))
        .filter(|&s| pred(s))
        .count()
}

/// Digits (L, U), clauses and variables of a modulo totalizer node over `n`
/// inputs, from the module doc's definition.
fn mtot_node(n: usize, p: usize, cap: usize, direction: Direction) -> (usize, usize, usize, usize) {
    if n == 1 {
        return (1, 0, 0, 0);
    }
    let (la, ua, ca, va) = mtot_node(n / 2, p, cap, direction);
    let (lb, ub, cb, vb) = mtot_node(n - n / 2, p, cap, direction);
    let l = (p - 1).min(n);
    let u = (n / p).min(cap);
    let carry = usize::from(la + lb >= p);
    let mut clauses = ca + cb;
    if direction.upper() {
        clauses += (la + 1) * (lb + 1) - 1 + pairs(la, lb, |s| s > p);
        clauses += (ua + 1) * (ub + 1) * (1 + carry) - 1;
    }
    if direction.lower() {
        clauses += pairs(la, lb, |s| s < l);
        clauses += carry * (pairs(la, lb, |s| s >= p && s - p < l) + pairs(la, lb, |s| s + 1 == p));
        clauses += pairs(ua, ub, |s| s < u) + carry * pairs(ua, ub, |s| s + 1 < u);
    }
    (l, u, clauses, va + vb + l + u + carry)
}

fn mtot_size(n: usize, max_bound: usize, direction: Direction) -> (usize, usize) {
    if n == 0 {
        return (0, 0);
    }
    let max_bound = max_bound.min(n);
    // Smallest p ≥ 2 with p² ≥ max_bound + 1.
    let p = (2..).find(|p| p * p > max_bound).unwrap();
    let (_, _, clauses, vars) = mtot_node(n, p, max_bound / p + 1, direction);
    (clauses, vars)
}

#[test]
fn modulo_totalizer_sizes_match_the_formula() {
    for direction in directions() {
        for n in 0..=20 {
            for max_bound in 0..=n {
                let got = delta(n, |lits, cnf, vars| {
                    ModuloTotalizer::build(lits, direction, max_bound, cnf, vars).unwrap();
                });
                let want = mtot_size(n, max_bound, direction);
                assert_eq!(
                    (got.0, got.1 as usize),
                    want,
                    "{direction:?} n={n} k={max_bound}"
                );
            }
        }
    }
    assert_eq!(modulo_totalizer::modulus(0), 2);
    assert_eq!(modulo_totalizer::modulus(3), 2);
    assert_eq!(modulo_totalizer::modulus(4), 3);
    assert_eq!(modulo_totalizer::modulus(15), 4);
    // Two inputs, p = 2, upward: L = 1, U = 1 and a carry (3 variables);
    // x₀ → c ∨ l₁, x₁ → c ∨ l₁, x₀ ∧ x₁ → c, and c → u₁ (4 clauses).
    assert_eq!(mtot_size(2, 1, Direction::Upper), (4, 3));
}

/// Comparators of the network for n = b·m inputs, m = 2ᵗ, from the closed
/// forms in the module doc.
fn network_comparators(n: usize, m: usize) -> usize {
    assert!(m.is_power_of_two() && n.is_multiple_of(m));
    let t = m.trailing_zeros() as usize;
    let hsort = m * t * t.saturating_sub(1) / 4 + m - 1;
    let smerge = m + t * m / 2;
    let b = n / m;
    b * hsort + (b - 1) * smerge
}

#[test]
fn cardinality_network_sizes_match_the_formula() {
    // Recurrences of the paper, to check the closed forms.
    fn hmerge(n: usize) -> usize {
        if n == 1 {
            1
        } else {
            2 * hmerge(n / 2) + n - 1
        }
    }
    fn hsort(n: usize) -> usize {
        if n == 1 {
            0
        } else {
            2 * hsort(n / 2) + hmerge(n / 2)
        }
    }
    fn smerge(n: usize) -> usize {
        if n == 1 {
            1
        } else {
            2 * smerge(n / 2) + n / 2
        }
    }
    for t in 0..6 {
        let m = 1 << t;
        assert_eq!(hmerge(m), m * t + 1);
        assert_eq!(network_comparators(m, m), hsort(m));
        assert_eq!(network_comparators(2 * m, m), 2 * hsort(m) + smerge(m));
    }
    for direction in directions() {
        let per = if direction == Direction::Both { 6 } else { 3 };
        for n in 0..=24 {
            for max_bound in 0..=n {
                let (clauses, vars) = delta(n, |lits, cnf, vars| {
                    CardinalityNetwork::build(lits, direction, max_bound, cnf, vars).unwrap();
                });
                let vars = vars as usize;
                let needed = (max_bound + 1).min(n);
                if needed == 0 {
                    assert_eq!((clauses, vars), (0, 0));
                    continue;
                }
                let m = needed.next_power_of_two();
                let bound = network_comparators(n.div_ceil(m) * m, m);
                // Every comparator left after padding is 2 variables and
                // `per` clauses; padding only removes comparators.
                assert_eq!(vars % 2, 0, "n={n} k={max_bound}");
                assert_eq!(clauses, vars / 2 * per, "{direction:?} n={n} k={max_bound}");
                if n.is_multiple_of(m) {
                    assert_eq!(vars / 2, bound, "{direction:?} n={n} k={max_bound}");
                } else {
                    assert!(vars / 2 < bound, "{direction:?} n={n} k={max_bound}");
                }
            }
        }
    }
}
