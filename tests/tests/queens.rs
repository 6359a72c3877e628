//! N-queens solution counts against OEIS A000170: every AMO encoding × both
//! formulations × every embedded backend for n ≤ 10, every cardinality
//! encoding for n ≤ 7, and n = 11, 12 on the defaults.

use std::ops::RangeInclusive;

use boardsat_encode::{Amo, Bound, Card, Config, Formulation, Problem};
use boardsat_solve::{End, Session, SolverKind};
use boardsat_tests::backend;

/// OEIS A000170: the number of ways to place n non-attacking queens on an
/// n × n board, for n = 0..=12.
const A000170: [u64; 13] = [1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200];

/// The cited value for `n`.
fn queens_count(n: usize) -> u64 {
    A000170[n]
}

/// Counts the solutions of n-queens, checking that counting ran to the end
/// and that the formulation asked for was the one used.
fn count(n: usize, config: Config, kind: SolverKind) -> u64 {
    let problem = Problem::queens(n).unwrap();
    let mut session = Session::fixed(&problem, n, config, backend(kind)).unwrap();
    assert_eq!(session.bound(), Some(Bound::Exactly(n)));
    assert_eq!(session.encoding().config.formulation, config.formulation);
    let count = session.count(None, |_| {}).unwrap();
    assert_eq!(count.end, End::Exhausted, "n = {n}, {config:?}, {kind}");
    count.count
}

fn every_amo(formulation: Formulation, kind: SolverKind, sizes: RangeInclusive<usize>) {
    for n in sizes {
        // The lazy AMO needs CaDiCaL's propagator (tests/lazy.rs).
        let amos = Amo::ALL
            .into_iter()
            .filter(|amo| kind == SolverKind::Cadical || !amo.is_lazy());
        for amo in amos {
            let config = Config {
                amo,
                formulation,
                ..Config::default()
            };
            assert_eq!(
                count(n, config, kind),
                queens_count(n),
                "n = {n}, amo = {amo}, formulation = {formulation}, backend = {kind}"
            );
        }
    }
}

#[test]
fn every_amo_lines_varisat() {
    every_amo(Formulation::Lines, SolverKind::Varisat, 1..=10);
}

#[test]
fn every_amo_cardinality_varisat() {
    every_amo(Formulation::Cardinality, SolverKind::Varisat, 1..=10);
}

#[cfg(feature = "cadical")]
#[test]
fn every_amo_lines_cadical() {
    every_amo(Formulation::Lines, SolverKind::Cadical, 1..=10);
}

#[cfg(feature = "cadical")]
#[test]
fn every_amo_cardinality_cadical() {
    every_amo(Formulation::Cardinality, SolverKind::Cadical, 1..=10);
}

#[test]
fn every_cardinality_encoding_every_backend_up_to_7() {
    for kind in SolverKind::embedded() {
        for n in 1..=7 {
            for card in Card::ALL {
                let config = Config {
                    card,
                    formulation: Formulation::Cardinality,
                    ..Config::default()
                };
                assert_eq!(
                    count(n, config, kind),
                    queens_count(n),
                    "n = {n}, card = {card}, backend = {kind}"
                );
            }
        }
    }
}

#[test]
fn eleven_and_twelve_queens_on_the_defaults() {
    for n in [11, 12] {
        assert_eq!(
            count(n, Config::default(), SolverKind::default_embedded()),
            queens_count(n),
            "n = {n}"
        );
    }
}
