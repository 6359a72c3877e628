//! The own counters used through rustsat's encoding traits, as a rustsat
//! user would use them, accept exactly the assignments the existing path
//! ([`Card::build`] and [`Counter`]) and brute force accept. Exhaustive for
//! small n and k; varisat is the oracle solver.

mod common;

use boardsat_encode::{
    card::{CardinalityNetwork, Counter, Direction, ModuloTotalizer, SequentialCounter},
    Bound, Card,
};
use common::{add_clauses, assignment, inputs, sat_under, solver_of};
use rustsat::{
    encodings::{
        card::{
            encode_cardinality_constraint, BoundBoth, BoundBothIncremental, BoundLower,
            BoundLowerIncremental, BoundUpper, BoundUpperIncremental, EncodeIncremental,
        },
        EncodeStats, EnforceError, NotEncoded,
    },
    instances::{Cnf, ManageVars},
    types::{constraints::CardConstraint, Lit},
};

fn holds(bound: Bound, count: usize) -> bool {
    match bound {
        Bound::AtMost(k) => count <= k,
        Bound::AtLeast(k) => count >= k,
        Bound::Exactly(k) => count == k,
    }
}

/// For every assignment of the inputs: whether it extends to a model of
/// `cnf` under `assumptions`.
fn accepted(cnf: &Cnf, lits: &[Lit], assumptions: &[Lit]) -> Vec<bool> {
    let mut solver = solver_of(cnf);
    (0..1u32 << lits.len())
        .map(|mask| {
            let mut all = assignment(lits, mask);
            all.extend(assumptions);
            sat_under(&mut solver, &all)
        })
        .collect()
}

fn brute_force(n: usize, bound: Bound) -> Vec<bool> {
    (0..1u32 << n)
        .map(|mask| holds(bound, mask.count_ones() as usize))
        .collect()
}

/// The existing path: [`Card::build`] for exactly `bound`, enforced as
/// [`Counter`] enforces it.
fn counter_path(card: Card, n: usize, bound: Bound) -> Vec<bool> {
    let (lits, mut vars) = inputs(n);
    let mut cnf = Cnf::new();
    let counter = card
        .build(&lits, bound.direction(), bound.k(), &mut cnf, &mut vars)
        .unwrap();
    let enforcement = counter.enforce(bound, &mut vars).unwrap();
    cnf.extend(enforcement.clauses);
    accepted(&cnf, &lits, &enforcement.assumptions)
}

/// The rustsat path for one bound on a fresh encoding; checks the
/// encoding's statistics against the collector on the way.
fn rustsat_path<E>(n: usize, bound: Bound) -> Result<Vec<bool>, EnforceError>
where
    E: BoundBoth + EncodeStats + From<Vec<Lit>>,
{
    let (lits, mut vars) = inputs(n);
    let before = vars.n_used();
    let mut encoding = E::from(lits.clone());
    let mut cnf = Cnf::new();
    let k = bound.k();
    let assumptions = match bound {
        Bound::AtMost(_) => {
            encoding.encode_ub(k..=k, &mut cnf, &mut vars).unwrap();
            encoding.enforce_ub(k).map_err(EnforceError::from)
        }
        Bound::AtLeast(_) => {
            encoding.encode_lb(k..=k, &mut cnf, &mut vars).unwrap();
            encoding.enforce_lb(k)
        }
        Bound::Exactly(_) => {
            encoding.encode_both(k..=k, &mut cnf, &mut vars).unwrap();
            encoding.enforce_eq(k)
        }
    }?;
    assert_eq!(
        encoding.n_clauses(),
        cnf.len(),
        "n_clauses for {bound} of {n}"
    );
    assert_eq!(
        encoding.n_vars(),
        vars.n_used() - before,
        "n_vars for {bound} of {n}"
    );
    Ok(accepted(&cnf, &lits, &assumptions))
}

fn same_models_as_the_counter_path<E>(card: Card)
where
    E: BoundBoth + EncodeStats + From<Vec<Lit>>,
{
    for n in 0..=7 {
        for k in 0..=n + 1 {
            for bound in [Bound::AtMost(k), Bound::AtLeast(k), Bound::Exactly(k)] {
                let got = rustsat_path::<E>(n, bound);
                if k > n && !matches!(bound, Bound::AtMost(_)) {
                    assert_eq!(got, Err(EnforceError::Unsat), "{card} {bound} of {n}");
                    continue;
                }
                let got = got.unwrap();
                assert_eq!(got, brute_force(n, bound), "{card} {bound} of {n}");
                assert_eq!(got, counter_path(card, n, bound), "{card} {bound} of {n}");
            }
        }
    }
}

#[test]
fn sequential_counter_through_rustsat_matches_the_counter_path() {
    same_models_as_the_counter_path::<SequentialCounter>(Card::SequentialCounter);
}

#[test]
fn modulo_totalizer_through_rustsat_matches_the_counter_path() {
    same_models_as_the_counter_path::<ModuloTotalizer>(Card::ModuloTotalizer);
}

#[test]
fn cardinality_network_through_rustsat_matches_the_counter_path() {
    same_models_as_the_counter_path::<CardinalityNetwork>(Card::CardinalityNetwork);
}

/// Growing requests on one encoding and one solver: upper bounds up to 1,
/// then up to `n` (a new network or tree, or new columns of the sequential
/// counter), then lower bounds; after each step every bound asked for so
/// far is exact under assumptions.
fn growing_requests<E>(name: &str)
where
    E: BoundBoth + EncodeStats + From<Vec<Lit>>,
{
    for n in 1..=7 {
        let (lits, mut vars) = inputs(n);
        let before = vars.n_used();
        let mut encoding = E::from(lits.clone());
        let mut cnf = Cnf::new();
        assert_eq!(
            encoding.enforce_ub(0),
            Err(NotEncoded),
            "{name}: nothing built yet"
        );
        let mut asked: Vec<Bound> = Vec::new();
        let steps: [(&str, usize); 3] = [("ub", 1), ("ub", n), ("lb", n)];
        for (what, top) in steps {
            if what == "ub" {
                encoding.encode_ub(0..=top, &mut cnf, &mut vars).unwrap();
                asked.extend((0..=top).map(Bound::AtMost));
            } else {
                encoding.encode_lb(0..=top, &mut cnf, &mut vars).unwrap();
                asked.extend((0..=top).map(Bound::AtLeast));
            }
            let mut solver = solver_of(&cnf);
            for &bound in &asked {
                let assumptions = match bound {
                    Bound::AtMost(k) => encoding.enforce_ub(k).unwrap(),
                    _ => encoding.enforce_lb(bound.k()).unwrap(),
                };
                for mask in 0..1u32 << n {
                    let mut all = assignment(&lits, mask);
                    all.extend(&assumptions);
                    assert_eq!(
                        sat_under(&mut solver, &all),
                        holds(bound, mask.count_ones() as usize),
                        "{name} n={n} after {what} {top}: {bound} mask={mask:b}"
                    );
                }
            }
            // Without assumptions nothing is excluded.
            for mask in 0..1u32 << n {
                assert!(sat_under(&mut solver, &assignment(&lits, mask)));
            }
        }
        assert_eq!(encoding.n_clauses(), cnf.len(), "{name} n={n}");
        assert_eq!(encoding.n_vars(), vars.n_used() - before, "{name} n={n}");
    }
}

#[test]
fn growing_requests_stay_exact() {
    growing_requests::<SequentialCounter>("seqcounter");
    growing_requests::<ModuloTotalizer>("mtotalizer");
    growing_requests::<CardinalityNetwork>("cardnetwork");
}

/// Inputs added after encoding make the old enforcement unavailable until
/// the encoding is written again.
fn extended_inputs<E>(name: &str)
where
    E: BoundBoth + From<Vec<Lit>> + Extend<Lit>,
{
    let (lits, mut vars) = inputs(6);
    let mut encoding = E::from(lits[..4].to_vec());
    let mut cnf = Cnf::new();
    encoding.encode_both(0..=2, &mut cnf, &mut vars).unwrap();
    assert!(encoding.enforce_eq(2).is_ok());
    encoding.extend(lits[4..].iter().copied());
    assert_eq!(encoding.n_lits(), 6);
    assert_eq!(
        encoding.enforce_eq(2),
        Err(EnforceError::NotEncoded),
        "{name}"
    );
    encoding.encode_both(0..=2, &mut cnf, &mut vars).unwrap();
    let assumptions = encoding.enforce_eq(2).unwrap();
    let got = accepted(&cnf, &lits, &assumptions);
    assert_eq!(got, brute_force(6, Bound::Exactly(2)), "{name}");
}

#[test]
fn extended_inputs_need_encoding_again() {
    extended_inputs::<SequentialCounter>("seqcounter");
    extended_inputs::<ModuloTotalizer>("mtotalizer");
    extended_inputs::<CardinalityNetwork>("cardnetwork");
}

#[test]
fn the_sequential_counter_grows_in_place() {
    // Bounds up to 1 over 4 inputs, then one more input and bounds up to
    // 3, lower bounds too, all with the `_change` calls on one solver: the
    // later calls write only clauses over new registers or the new half.
    let (lits, mut vars) = inputs(7);
    let mut counter = SequentialCounter::from(lits[..4].to_vec());
    let mut cnf = Cnf::new();
    counter
        .encode_ub_change(0..=1, &mut cnf, &mut vars)
        .unwrap();
    let first = cnf.len();
    counter.extend(lits[4..].iter().copied());
    counter
        .encode_ub_change(0..=3, &mut cnf, &mut vars)
        .unwrap();
    counter
        .encode_lb_change(0..=3, &mut cnf, &mut vars)
        .unwrap();
    counter
        .encode_both_change(0..=3, &mut cnf, &mut vars)
        .unwrap();
    // Written once: the same clauses as one build for both directions.
    let (_, mut fresh_vars) = inputs(7);
    let mut fresh = Cnf::new();
    Card::SequentialCounter
        .build(&lits, Direction::Both, 3, &mut fresh, &mut fresh_vars)
        .unwrap();
    assert!(first > 0);
    assert_eq!(cnf.len(), fresh.len());
    assert_eq!(counter.n_clauses(), cnf.len());
    let mut solver = solver_of(&cnf);
    for k in 0..=3 {
        for (bound, assumptions) in [
            (Bound::AtMost(k), counter.enforce_ub(k).unwrap()),
            (Bound::AtLeast(k), counter.enforce_lb(k).unwrap()),
        ] {
            for mask in 0..1u32 << 7 {
                let mut all = assignment(&lits, mask);
                all.extend(&assumptions);
                assert_eq!(
                    sat_under(&mut solver, &all),
                    holds(bound, mask.count_ones() as usize),
                    "{bound} mask={mask:b}"
                );
            }
        }
    }
    // Bounds above 3 were not asked for.
    assert_eq!(counter.enforce_ub(4), Err(NotEncoded));
}

#[test]
fn reserve_creates_every_register_up_front() {
    let n = 5;
    let (lits, mut vars) = inputs(n);
    let before = vars.n_used();
    let mut counter = SequentialCounter::from(lits.clone());
    counter.reserve(&mut vars);
    let reserved = vars.n_used() - before;
    assert_eq!(reserved as usize, n * (n + 1) / 2);
    let mut cnf = Cnf::new();
    counter.encode_ub(0..=n, &mut cnf, &mut vars).unwrap();
    assert_eq!(
        vars.n_used() - before,
        reserved,
        "no variable after reserve"
    );
    let mut solver = solver_of(&cnf);
    for k in 0..n {
        let assumptions = counter.enforce_ub(k).unwrap();
        for mask in 0..1u32 << n {
            let mut all = assignment(&lits, mask);
            all.extend(&assumptions);
            let want = mask.count_ones() as usize <= k;
            assert_eq!(
                sat_under(&mut solver, &all),
                want,
                "at most {k} mask={mask:b}"
            );
        }
    }
}

#[test]
fn rustsats_generic_constraint_encoder_accepts_the_own_counters() {
    fn check<E: BoundBoth + FromIterator<Lit>>(name: &str) {
        for n in 0..=6 {
            for k in 0..=n {
                let constraints = [
                    (Bound::AtMost(k), CardConstraint::new_ub(inputs(n).0, k)),
                    (Bound::AtLeast(k), CardConstraint::new_lb(inputs(n).0, k)),
                    (Bound::Exactly(k), CardConstraint::new_eq(inputs(n).0, k)),
                ];
                for (bound, constraint) in constraints {
                    let (lits, mut vars) = inputs(n);
                    let mut cnf = Cnf::new();
                    encode_cardinality_constraint::<E, _>(constraint, &mut cnf, &mut vars).unwrap();
                    let got = accepted(&cnf, &lits, &[]);
                    assert_eq!(got, brute_force(n, bound), "{name} {bound} of {n}");
                }
            }
        }
    }
    check::<SequentialCounter>("seqcounter");
    check::<ModuloTotalizer>("mtotalizer");
    check::<CardinalityNetwork>("cardnetwork");
}

#[test]
fn the_counter_path_reuses_selectors_the_rustsat_path_wrote() {
    // A modulo totalizer encoded through rustsat already holds the guarded
    // clause of every bound in the range; Counter's enforcement then
    // assumes its selector instead of adding another clause.
    let (lits, mut vars) = inputs(9);
    let mut mtot = ModuloTotalizer::from(lits.clone());
    let mut cnf = Cnf::new();
    mtot.encode_both(0..=9, &mut cnf, &mut vars).unwrap();
    let mut solver = solver_of(&cnf);
    for k in 0..=9 {
        for bound in [Bound::AtMost(k), Bound::AtLeast(k), Bound::Exactly(k)] {
            let enforcement = mtot.enforce(bound, &mut vars).unwrap();
            assert!(enforcement.clauses.is_empty(), "{bound}");
            add_clauses(&mut solver, &enforcement.clauses);
            for mask in 0..1u32 << 9 {
                let mut all = assignment(&lits, mask);
                all.extend(&enforcement.assumptions);
                assert_eq!(
                    sat_under(&mut solver, &all),
                    holds(bound, mask.count_ones() as usize),
                    "{bound} mask={mask:b}"
                );
            }
        }
    }
}
