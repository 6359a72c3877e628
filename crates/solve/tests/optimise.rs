//! Optimisation strategies: every start, with and without symmetry
//! breaking, ends at the known optimum with the solver's UNSAT proof next
//! to it.

use boardsat_encode::{Board, Bound, Config, Kind, Piece, Problem};
use boardsat_solve::{optimise_with, SolverKind, Status, Strategy};

/// OEIS A075458: γ(Q_n), n = 1..9.
const GAMMA: [usize; 9] = [1, 1, 1, 2, 3, 3, 4, 5, 5];

fn domination(n: usize) -> Problem {
    Problem::new(Board::square(n).unwrap(), Piece::Queen, Kind::Domination)
}

#[test]
fn every_start_reaches_gamma_with_a_proof() {
    for n in 1..=9 {
        let problem = domination(n);
        let mut strategies = vec![Strategy::default(), Strategy::fastest(&problem)];
        for start in [1, GAMMA[n - 1].saturating_sub(1), GAMMA[n - 1] + 1, n] {
            for symmetry in [false, true] {
                for fresh_refutations in [false, true] {
                    strategies.push(Strategy {
                        symmetry,
                        start: Some(start),
                        fresh_refutations,
                    });
                }
            }
        }
        for strategy in strategies {
            let backend = SolverKind::default_embedded().create().unwrap();
            let (optimum, _) =
                optimise_with(&problem, Config::default(), backend, strategy).unwrap();
            assert_eq!(optimum.value, GAMMA[n - 1], "n={n} {strategy:?}");
            assert!(optimum.proven, "n={n} {strategy:?}");
            let proof = optimum.proof().expect("an UNSAT call next to the optimum");
            assert_eq!(proof.status, Status::Unsat);
            assert_eq!(
                proof.bound,
                Bound::AtMost(GAMMA[n - 1] - 1),
                "n={n} {strategy:?}"
            );
            assert_eq!(optimum.witness.len(), GAMMA[n - 1]);
        }
    }
}

#[test]
fn maximisation_with_a_start_on_either_side() {
    // Knights on 6×6: 18 (half the squares), proven by UNSAT at 19.
    let problem = Problem::new(Board::square(6).unwrap(), Piece::Knight, Kind::Independence);
    for start in [None, Some(10), Some(18), Some(19), Some(25)] {
        for (symmetry, fresh_refutations) in [(false, false), (true, false), (true, true)] {
            for kind in SolverKind::embedded() {
                let backend = kind.create().unwrap();
                let strategy = Strategy {
                    symmetry,
                    start,
                    fresh_refutations,
                };
                let (optimum, _) =
                    optimise_with(&problem, Config::default(), backend, strategy).unwrap();
                assert_eq!(optimum.value, 18, "{kind} {strategy:?}");
                assert_eq!(
                    optimum.proof().map(|c| c.bound),
                    Some(Bound::AtLeast(19)),
                    "{kind} {strategy:?}"
                );
            }
        }
    }
}

#[test]
fn counting_optimal_sets_under_symmetry_stays_exact() {
    // A002564: minimum dominating sets of Q_n, n = 4..8.
    for (n, expected) in [(4, 12), (5, 186), (6, 4), (7, 86), (8, 4860)] {
        let problem = domination(n);
        let backend = SolverKind::default_embedded().create().unwrap();
        let (_, mut session) = optimise_with(
            &problem,
            Config::default(),
            backend,
            Strategy::fastest(&problem),
        )
        .unwrap();
        let count = session.count(None, |_| {}).unwrap();
        assert_eq!(count.count, expected, "n={n}");
        assert!(
            count.models < count.count,
            "symmetry breaking leaves fewer models"
        );
    }
}

#[test]
fn a_portfolio_proves_gamma_whoever_wins() {
    use boardsat_encode::Card;
    use boardsat_solve::{optimise_portfolio, Interrupter, SolverSpec};
    let solver = SolverSpec::default();
    for n in 1..=9 {
        let problem = domination(n);
        let configs: Vec<Config> = Card::ALL
            .iter()
            .map(|&card| Config {
                card,
                ..Config::default()
            })
            .collect();
        let stop = Interrupter::new();
        let won = optimise_portfolio(
            &problem,
            &configs,
            &solver,
            Strategy::fastest(&problem),
            &stop,
            &|_: Bound| {},
        )
        .unwrap();
        assert_eq!(won.optimum.value, GAMMA[n - 1], "n={n}");
        assert!(won.optimum.proven);
        assert_eq!(
            won.optimum.proof().map(|c| c.bound),
            Some(Bound::AtMost(GAMMA[n - 1] - 1))
        );
        assert!(configs.contains(&won.encoding.config));
    }
}
