//! Exhaustive conformance of every AMO and cardinality encoding: the
//! assignments of the inputs that extend to a model are exactly the ones
//! brute force accepts. varisat is the oracle solver.

mod common;

use boardsat_encode::{card::Direction, Amo, Bound, Card, EncodeError};
use common::{add_clauses, assignment, inputs, sat_under, solver_of};
use rustsat::instances::Cnf;

fn holds(bound: Bound, count: usize) -> bool {
    match bound {
        Bound::AtMost(k) => count <= k,
        Bound::AtLeast(k) => count >= k,
        Bound::Exactly(k) => count == k,
    }
}

#[test]
fn amo_encodings_accept_exactly_the_assignments_with_at_most_one_true() {
    for amo in Amo::EAGER {
        for n in 0..=10 {
            let (lits, mut vars) = inputs(n);
            let mut cnf = Cnf::new();
            amo.encode(&lits, &mut cnf, &mut vars).unwrap();
            let mut solver = solver_of(&cnf);
            for mask in 0..1u32 << n {
                let want = mask.count_ones() <= 1;
                let got = sat_under(&mut solver, &assignment(&lits, mask));
                assert_eq!(got, want, "{amo} n={n} mask={mask:b}");
            }
        }
    }
}

fn bounds(k: usize) -> [Bound; 3] {
    [Bound::AtMost(k), Bound::AtLeast(k), Bound::Exactly(k)]
}

#[test]
fn hard_cardinality_constraints_accept_exactly_the_brute_force_set() {
    for card in Card::ALL {
        for n in 0..=8 {
            for k in 0..=n + 1 {
                for bound in bounds(k) {
                    let (lits, mut vars) = inputs(n);
                    let mut cnf = Cnf::new();
                    let result = card.encode(&lits, bound, &mut cnf, &mut vars);
                    if k > n && !matches!(bound, Bound::AtMost(_)) {
                        assert_eq!(result, Err(EncodeError::Infeasible { bound, n }));
                        continue;
                    }
                    result.unwrap();
                    let mut solver = solver_of(&cnf);
                    for mask in 0..1u32 << n {
                        let want = holds(bound, mask.count_ones() as usize);
                        let got = sat_under(&mut solver, &assignment(&lits, mask));
                        assert_eq!(got, want, "{card} {bound} n={n} mask={mask:b}");
                    }
                }
            }
        }
    }
}

/// Builds one counter per direction and enforces every bound it supports
/// on one solver, with assumptions only.
fn check_incremental(card: Card, n: usize, max_bound: usize) {
    for direction in [Direction::Upper, Direction::Lower, Direction::Both] {
        let (lits, mut vars) = inputs(n);
        let mut cnf = Cnf::new();
        let counter = card
            .build(&lits, direction, max_bound, &mut cnf, &mut vars)
            .unwrap();
        assert_eq!(counter.n_inputs(), n);
        let mut solver = solver_of(&cnf);
        for k in 0..=n + 1 {
            for bound in bounds(k) {
                let result = counter.enforce(bound, &mut vars);
                let needs_upper = matches!(bound, Bound::AtMost(_) | Bound::Exactly(_)) && k < n;
                let needs_lower = matches!(bound, Bound::AtLeast(_) | Bound::Exactly(_)) && k > 0;
                let enforcement = if k > n && !matches!(bound, Bound::AtMost(_)) {
                    assert_eq!(result, Err(EncodeError::Infeasible { bound, n }));
                    continue;
                } else if (needs_upper && !direction.upper())
                    || (needs_lower && !direction.lower())
                    || ((needs_upper || needs_lower) && k > max_bound)
                {
                    assert!(
                        matches!(result, Err(EncodeError::NotEncoded { .. })),
                        "{card} {direction:?} {bound} n={n} max={max_bound}: {result:?}"
                    );
                    continue;
                } else {
                    result.unwrap()
                };
                if matches!(bound, Bound::AtMost(_)) && k >= n {
                    assert_eq!(enforcement, Default::default(), "at most {k} of {n}");
                }
                // Guarded clauses only: they must not constrain later bounds.
                for clause in &enforcement.clauses {
                    assert!(
                        clause
                            .iter()
                            .any(|&l| enforcement.assumptions.contains(&!l)),
                        "{card}: unguarded clause {clause:?}"
                    );
                }
                add_clauses(&mut solver, &enforcement.clauses);
                for mask in 0..1u32 << n {
                    let mut assumptions = assignment(&lits, mask);
                    assumptions.extend(&enforcement.assumptions);
                    let want = holds(bound, mask.count_ones() as usize);
                    let got = sat_under(&mut solver, &assumptions);
                    assert_eq!(
                        got, want,
                        "{card} {direction:?} {bound} n={n} max={max_bound} mask={mask:b}"
                    );
                }
            }
        }
        // The counter without any enforcement allows everything.
        for mask in 0..1u32 << n {
            assert!(sat_under(&mut solver, &assignment(&lits, mask)));
        }
    }
}

#[test]
fn incremental_bounds_on_one_solver_accept_exactly_the_brute_force_set() {
    for card in Card::ALL {
        for n in 0..=8 {
            check_incremental(card, n, n);
        }
    }
}

#[test]
fn counters_built_for_small_bounds_are_exact_below_and_refuse_above() {
    for card in Card::ALL {
        for n in [5, 7, 8] {
            for max_bound in [0, 1, 2, 3, 5] {
                check_incremental(card, n, max_bound);
            }
        }
    }
}
