//! Queen domination against OEIS: the domination number γ(Q_n) (A075458)
//! for every cardinality encoding, the independent domination number
//! i(Q_n) (A075324) and the number of minimum dominating sets (A002564),
//! each cross-checked with the brute-force oracle where it is cheap.

use std::collections::HashSet;

use boardsat_encode::{Board, Bound, Card, Config, Formulation, Kind, Piece, Problem};
use boardsat_solve::Mode;
use boardsat_solve::{optimise, End, Session, Status};
use boardsat_tests::{default_backend, Graph};

/// OEIS A075458: domination number of the n × n queen graph, n = 1..=13.
const A075458: [usize; 13] = [1, 1, 1, 2, 3, 3, 4, 5, 5, 5, 5, 6, 7];

/// OEIS A075324: independent domination number of the n × n queen graph,
/// n = 1..=8.
const A075324: [usize; 8] = [1, 1, 1, 3, 3, 4, 4, 5];

/// OEIS A002564: number of minimum dominating sets of queens on an n × n
/// board, n = 1..=8.
const A002564: [u64; 8] = [1, 4, 1, 12, 186, 4, 86, 4860];

fn queens(n: usize, kind: Kind) -> Problem {
    Problem::new(Board::square(n).unwrap(), Piece::Queen, kind)
}

fn status(problem: &Problem, k: usize, card: Card, formulation: Formulation) -> Status {
    let config = Config {
        card,
        formulation,
        ..Config::default()
    };
    let mut session = Session::fixed(problem, k, config, default_backend()).unwrap();
    assert_eq!(session.bound(), Some(Bound::AtMost(k)));
    let (status, placement) = session.solve(Mode::Decide).unwrap();
    if let Some(placement) = placement {
        let n = problem.board.rows();
        // The session checked the model already; the oracle (at most 64
        // squares) checks it again, independently of the encoder crate.
        if n <= 8 {
            let g = Graph::new(n, n, Piece::Queen);
            assert!(
                g.dominates(g.mask(&placement)),
                "{placement} does not dominate"
            );
        }
        assert!(placement.len() <= k);
    }
    status
}

#[test]
fn gamma_is_sat_and_one_less_is_unsat_for_every_cardinality_encoding() {
    for n in 1..=9 {
        let gamma = A075458[n - 1];
        let problem = queens(n, Kind::Domination);
        for card in Card::ALL {
            for formulation in Formulation::ALL {
                let what = format!("n = {n}, {card}, {formulation}");
                assert_eq!(
                    status(&problem, gamma, card, formulation),
                    Status::Sat,
                    "{what}"
                );
                assert_eq!(
                    status(&problem, gamma - 1, card, formulation),
                    Status::Unsat,
                    "{what}"
                );
                assert_eq!(
                    status(&problem, 0, card, formulation),
                    Status::Unsat,
                    "{what}"
                );
            }
        }
    }
}

/// γ(Q_n) for n = 10..=13 proven by the optimiser in the default (lines)
/// formulation: n = 13 is the first size where γ = 7 needs the solver to
/// refute 6 queens, a classic hard instance.
#[test]
fn optimise_proves_larger_domination_numbers() {
    for n in 10..=13 {
        let problem = queens(n, Kind::Domination);
        let (optimum, _) = optimise(&problem, Config::default(), default_backend()).unwrap();
        assert_eq!(optimum.value, A075458[n - 1], "n = {n}");
        assert!(optimum.proven, "n = {n}");
        let proof = optimum.proof().expect("a proof call");
        assert_eq!(proof.status, Status::Unsat);
        assert_eq!(proof.bound, Bound::AtMost(optimum.value - 1));
        let board = problem.board;
        let placement = &optimum.witness;
        // Checked by the session already; again by hand here: every square
        // shares a line with a queen.
        for sq in board.squares() {
            assert!(
                placement.squares().iter().any(|q| q.row == sq.row
                    || q.col == sq.col
                    || q.row + sq.col == sq.row + q.col
                    || q.row + q.col == sq.row + sq.col),
                "n = {n}: {sq} is not dominated by {placement}"
            );
        }
    }
}

#[test]
fn optimise_proves_the_domination_number() {
    for n in 1..=8 {
        let problem = queens(n, Kind::Domination);
        let (optimum, _) = optimise(&problem, Config::default(), default_backend()).unwrap();
        assert_eq!(optimum.value, A075458[n - 1], "n = {n}");
        assert!(optimum.proven, "n = {n}");
        assert_eq!(optimum.witness.len(), optimum.value);
        let g = Graph::new(n, n, Piece::Queen);
        assert!(g.dominates(g.mask(&optimum.witness)), "n = {n}");
        if let Some(proof) = optimum.proof() {
            assert_eq!(proof.status, Status::Unsat);
            assert_eq!(proof.bound, Bound::AtMost(optimum.value - 1));
        } else {
            // No proof call only when one queen dominates.
            assert_eq!(optimum.value, 1, "n = {n}: proven without a proof call");
        }
    }
}

#[test]
fn optimise_proves_the_independent_domination_number() {
    for n in 1..=8 {
        let problem = queens(n, Kind::IndependentDomination);
        let (optimum, _) = optimise(&problem, Config::default(), default_backend()).unwrap();
        assert_eq!(optimum.value, A075324[n - 1], "n = {n}");
        assert!(optimum.proven, "n = {n}");
        let g = Graph::new(n, n, Piece::Queen);
        let mask = g.mask(&optimum.witness);
        assert!(g.dominates(mask) && g.is_independent(mask), "n = {n}");
    }
}

#[test]
fn oracle_agrees_with_the_oeis_values() {
    // Ties the cited values to a search that shares nothing with the
    // encoder or the solver, as far as it is cheap.
    for n in 1..=7 {
        let g = Graph::new(n, n, Piece::Queen);
        assert_eq!(g.domination_number(false), A075458[n - 1], "gamma, n = {n}");
        assert_eq!(g.domination_number(true), A075324[n - 1], "i, n = {n}");
        let sets = g.minimum_dominating_sets(false);
        assert_eq!(sets.len() as u64, A002564[n - 1], "count, n = {n}");
    }
}

/// Optimises, then counts every optimal placement on the session the
/// optimiser left behind, checking each against the oracle.
fn minimum_sets(n: usize, kind: Kind, formulation: Formulation) -> HashSet<u64> {
    let problem = queens(n, kind);
    let config = Config {
        formulation,
        ..Config::default()
    };
    let (optimum, mut session) = optimise(&problem, config, default_backend()).unwrap();
    assert!(optimum.proven);
    let g = Graph::new(n, n, Piece::Queen);
    let mut sets = HashSet::new();
    let mut solutions = session.solutions(None);
    for placement in solutions.by_ref() {
        let placement = placement.unwrap();
        let mask = g.mask(&placement);
        assert_eq!(placement.len(), optimum.value, "n = {n}: {placement}");
        assert!(g.dominates(mask), "n = {n}: {placement}");
        if kind == Kind::IndependentDomination {
            assert!(g.is_independent(mask), "n = {n}: {placement}");
        }
        assert!(sets.insert(mask), "n = {n}: {placement} found twice");
    }
    assert_eq!(solutions.end(), Some(End::Exhausted));
    sets
}

#[test]
fn minimum_dominating_sets_match_a002564() {
    for formulation in Formulation::ALL {
        for n in 1..=8 {
            let sets = minimum_sets(n, Kind::Domination, formulation);
            assert_eq!(sets.len() as u64, A002564[n - 1], "n = {n}, {formulation}");
            if n <= 6 {
                assert_eq!(
                    sets,
                    Graph::new(n, n, Piece::Queen).minimum_dominating_sets(false),
                    "n = {n}, {formulation}"
                );
            }
        }
    }
}

#[test]
fn count_after_optimise_matches_enumeration() {
    for n in 1..=7 {
        let problem = queens(n, Kind::Domination);
        let (_, mut session) = optimise(&problem, Config::default(), default_backend()).unwrap();
        let count = session.count(None, |_| {}).unwrap();
        assert_eq!(count.end, End::Exhausted);
        assert_eq!(count.count, A002564[n - 1], "n = {n}");
    }
}

#[test]
fn minimum_independent_dominating_sets_match_the_oracle() {
    for formulation in Formulation::ALL {
        for n in 1..=7 {
            let sets = minimum_sets(n, Kind::IndependentDomination, formulation);
            assert_eq!(
                sets,
                Graph::new(n, n, Piece::Queen).minimum_dominating_sets(true),
                "n = {n}, {formulation}"
            );
        }
    }
}

/// One open session, many bounds in any order (as the optimiser moves
/// them): each answer must depend on the current bound only, so guarded
/// clauses of earlier bounds must not leak into later calls.
#[test]
fn bounds_on_one_open_session_do_not_leak() {
    let order = [8, 2, 5, 3, 0, 6, 4, 1, 3, 2, 8];
    for (card, formulation) in Card::ALL
        .into_iter()
        .flat_map(|c| Formulation::ALL.map(|f| (c, f)))
    {
        let config = Config {
            card,
            formulation,
            ..Config::default()
        };
        for (kind, direction_bound) in [
            (Kind::Domination, Bound::AtMost as fn(usize) -> Bound),
            (Kind::Independence, Bound::AtLeast as fn(usize) -> Bound),
        ] {
            let n = 6;
            let g = Graph::new(n, n, Piece::Queen);
            let problem = queens(n, kind);
            let mut session = Session::open(&problem, 8, config, default_backend()).unwrap();
            for k in order {
                let bound = direction_bound(k);
                session.set_bound(bound).unwrap();
                let expected = match kind {
                    Kind::Domination => k >= g.domination_number(false),
                    _ => k <= g.independence_number(),
                };
                let (status, placement) = session.solve(Mode::Decide).unwrap();
                let expected_status = if expected { Status::Sat } else { Status::Unsat };
                assert_eq!(status, expected_status, "{card}, {formulation}, {bound}");
                if let Some(placement) = placement {
                    let mask = g.mask(&placement);
                    match kind {
                        Kind::Domination => assert!(g.dominates(mask) && placement.len() <= k),
                        _ => assert!(g.is_independent(mask) && placement.len() >= k),
                    }
                }
            }
        }
    }
}
