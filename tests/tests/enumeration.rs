//! Enumeration and counting by blocking clauses: distinct, checked
//! placements; `count` agrees with `solutions`; limits stop early; blocking
//! mentions board variables only, so encodings whose auxiliaries are not
//! determined by the board (the sequential counter) still count placements,
//! not models.

use std::collections::HashSet;

use boardsat_encode::{Board, Bound, Card, Config, EncodeError, Formulation, Kind, Piece, Problem};
use boardsat_solve::{End, Session, SolveError, SolverKind};
use boardsat_tests::{backend, Graph};

/// OEIS A000170: number of solutions of n-queens, n = 0..=8.
const A000170: [u64; 9] = [1, 1, 0, 0, 2, 10, 4, 40, 92];

/// The cited value for `n`.
fn queens_count(n: usize) -> u64 {
    A000170[n]
}

fn queens_session(n: usize, config: Config, kind: SolverKind) -> Session {
    Session::fixed(&Problem::queens(n).unwrap(), n, config, backend(kind)).unwrap()
}

#[test]
fn solutions_are_distinct_checked_and_as_many_as_count_says() {
    for kind in SolverKind::embedded() {
        for n in 1..=8 {
            let g = Graph::new(n, n, Piece::Queen);
            let mut session = queens_session(n, Config::default(), kind);
            let mut seen = HashSet::new();
            let mut solutions = session.solutions(None);
            for placement in solutions.by_ref() {
                let placement = placement.unwrap();
                let mask = g.mask(&placement);
                assert_eq!(placement.len(), n);
                assert!(g.is_independent(mask), "{kind}: {placement}");
                assert!(seen.insert(mask), "{kind}: {placement} twice");
            }
            assert_eq!(solutions.end(), Some(End::Exhausted));
            assert!(solutions.next().is_none(), "fused after the end");
            let count = queens_session(n, Config::default(), kind)
                .count(None, |_| {})
                .unwrap();
            assert_eq!(count.end, End::Exhausted);
            assert_eq!(count.count, seen.len() as u64, "{kind}, n = {n}");
            assert_eq!(count.count, queens_count(n), "{kind}, n = {n}");
        }
    }
}

#[test]
fn a_limit_stops_early_and_the_rest_can_still_be_counted() {
    for kind in SolverKind::embedded() {
        let mut session = queens_session(8, Config::default(), kind);
        let mut solutions = session.solutions(Some(10));
        let first: Vec<_> = solutions.by_ref().map(Result::unwrap).collect();
        assert_eq!(first.len(), 10, "{kind}");
        assert_eq!(solutions.end(), Some(End::Limit), "{kind}");
        // One call per placement, or fewer where the solver blocks them
        // inside its search; never one past the limit.
        let calls = session.calls();
        assert!(
            (1..=10).contains(&calls),
            "{kind}: {calls} calls for a limit of 10"
        );
        let count = session.count(Some(30), |_| {}).unwrap();
        assert_eq!((count.count, count.end), (30, End::Limit), "{kind}");
        let rest = session.count(None, |_| {}).unwrap();
        assert_eq!((rest.count, rest.end), (92 - 40, End::Exhausted), "{kind}");

        let mut session = queens_session(8, Config::default(), kind);
        assert_eq!(session.solutions(Some(0)).count(), 0, "{kind}");
        let count = session.count(Some(0), |_| {}).unwrap();
        assert_eq!((count.count, count.end), (0, End::Limit), "{kind}");
        let count = session.count(Some(1000), |_| {}).unwrap();
        assert_eq!((count.count, count.end), (92, End::Exhausted), "{kind}");
    }
}

#[test]
fn progress_is_reported_after_every_solution() {
    let mut session = queens_session(6, Config::default(), SolverKind::default_embedded());
    let mut reported = Vec::new();
    let count = session.count(None, |p| reported.push(p.count)).unwrap();
    assert_eq!(count.count, 4);
    assert_eq!(reported, vec![1, 2, 3, 4]);
}

/// Every cardinality encoding under an exact bound counts placements, not
/// models. With an exact bound the counters' auxiliaries happen to be fixed
/// by the board, so this alone does not catch blocking on auxiliaries
/// (checked by mutation); `at_most_k_domination_counts_every_dominating_set`
/// and `independence_counts_under_lower_and_exact_bounds` do.
#[test]
fn every_cardinality_encoding_counts_placements_not_models() {
    for kind in SolverKind::embedded() {
        for card in Card::ALL {
            let config = Config {
                card,
                formulation: Formulation::Cardinality,
                ..Config::default()
            };
            for n in 1..=8 {
                let count = queens_session(n, config, kind).count(None, |_| {}).unwrap();
                assert_eq!(count.count, queens_count(n), "{card}, {kind}, n = {n}");
            }
        }
    }
}

/// Regression test for blocking auxiliaries. "At most k" sessions hold
/// placements of different sizes, so blocking must use full clauses over
/// the board; a one-directional counter's auxiliaries are not determined by
/// the board, so blocking them too would count a placement several times
/// (a mutant of `Session::block` that does so fails here). Counts must
/// equal the number of dominating sets of at most k squares, by trying
/// every subset.
#[test]
fn at_most_k_domination_counts_every_dominating_set() {
    let cases = [
        (3, 3, Piece::Queen, 2),
        (4, 4, Piece::King, 5),
        (3, 4, Piece::Knight, 6),
        (4, 4, Piece::Rook, 5),
    ];
    for (rows, cols, piece, k) in cases {
        let g = Graph::new(rows, cols, piece);
        let expected = g.count_subsets(|m| m.count_ones() as usize <= k && g.dominates(m));
        let problem = Problem::new(Board::new(rows, cols).unwrap(), piece, Kind::Domination);
        for card in Card::ALL {
            let config = Config {
                card,
                ..Config::default()
            };
            for kind in SolverKind::embedded() {
                let mut fixed = Session::fixed(&problem, k, config, backend(kind)).unwrap();
                let count = fixed.count(None, |_| {}).unwrap();
                assert_eq!(count.count, expected, "{problem}, k = {k}, {card}, {kind}");

                let mut open = Session::open(&problem, k, config, backend(kind)).unwrap();
                open.set_bound(Bound::AtMost(k)).unwrap();
                let count = open.count(None, |_| {}).unwrap();
                assert_eq!(
                    count.count, expected,
                    "open: {problem}, k = {k}, {card}, {kind}"
                );
            }
        }
    }
}

/// Open independence sessions take lower bounds; "at least k" holds sets of
/// several sizes, and an exact bound on a fixed session only one.
#[test]
fn independence_counts_under_lower_and_exact_bounds() {
    let cases = [
        (4, 4, Piece::King),
        (3, 4, Piece::Knight),
        (4, 4, Piece::Bishop),
    ];
    for (rows, cols, piece) in cases {
        let g = Graph::new(rows, cols, piece);
        let alpha = g.independence_number();
        let problem = Problem::new(Board::new(rows, cols).unwrap(), piece, Kind::Independence);
        for card in Card::ALL {
            let config = Config {
                card,
                ..Config::default()
            };
            for k in 1..=alpha {
                let at_least: u64 = (k..=alpha).map(|j| g.count_independent_sets(j)).sum();
                let kind = SolverKind::default_embedded();
                let mut open = Session::open(&problem, alpha, config, backend(kind)).unwrap();
                open.set_bound(Bound::AtLeast(k)).unwrap();
                let count = open.count(None, |_| {}).unwrap();
                assert_eq!(count.count, at_least, "{problem}, at least {k}, {card}");

                let mut fixed = Session::fixed(&problem, k, config, backend(kind)).unwrap();
                let count = fixed.count(None, |_| {}).unwrap();
                let exactly = g.count_independent_sets(k);
                assert_eq!(count.count, exactly, "{problem}, exactly {k}, {card}");
            }
        }
    }
}

/// With the line propagator in CaDiCaL's one slot (`--amo lazy`) the
/// enumeration goes by one call per placement: an interrupt between two
/// ends it with an error that says how many were found, and the rest can
/// still be counted.
#[cfg(feature = "cadical")]
#[test]
fn an_interrupted_enumeration_ends_with_an_error() {
    let config = Config {
        amo: boardsat_encode::Amo::Lazy,
        ..Config::default()
    };
    let mut session = queens_session(8, config, SolverKind::Cadical);
    let interrupter = session.interrupter().unwrap();
    let mut solutions = session.solutions(None);
    for _ in 0..3 {
        solutions.next().unwrap().unwrap();
    }
    interrupter.interrupt();
    assert!(matches!(
        solutions.next(),
        Some(Err(SolveError::Stopped { found: 3 }))
    ));
    assert_eq!(solutions.end(), Some(End::Stopped));
    assert!(solutions.next().is_none());
    interrupter.reset();
    let count = session.count(None, |_| {}).unwrap();
    assert_eq!((count.count, count.end), (92 - 3, End::Exhausted));
}

/// Where the solver blocks placements inside its search, one call finds
/// many: an interrupt after the first placement loses none of them — the
/// placements the call found are handed out, then the error (or the end,
/// when the call had found them all) — and none is handed out twice.
#[cfg(feature = "cadical")]
#[test]
fn an_interrupt_hands_out_what_the_call_found() {
    let mut session = queens_session(8, Config::default(), SolverKind::Cadical);
    let interrupter = session.interrupter().unwrap();
    let mut solutions = session.solutions(None);
    let mut seen = HashSet::new();
    assert!(seen.insert(solutions.next().unwrap().unwrap()));
    interrupter.interrupt();
    let mut stopped = None;
    for next in solutions.by_ref() {
        match next {
            Ok(placement) => assert!(seen.insert(placement), "handed out twice"),
            Err(SolveError::Stopped { found }) => stopped = Some(found),
            Err(e) => panic!("{e}"),
        }
    }
    match solutions.end() {
        Some(End::Stopped) => assert_eq!(stopped, Some(seen.len() as u64)),
        Some(End::Exhausted) => assert_eq!((stopped, seen.len()), (None, 92)),
        other => panic!("ended {other:?}"),
    }
    drop(solutions);
    interrupter.reset();
    let count = session.count(None, |_| {}).unwrap();
    assert_eq!(count.count + seen.len() as u64, 92);
    assert!(
        session.calls() < 93,
        "no placement was blocked inside the search"
    );
}

#[test]
fn the_empty_placement_is_one_solution() {
    // Zero independent pieces: exactly one placement, blocked by the empty
    // clause; zero dominating pieces: none.
    for kind in SolverKind::embedded() {
        for piece in Piece::ALL {
            let board = Board::new(3, 4).unwrap();
            let independence = Problem::new(board, piece, Kind::Independence);
            let mut session =
                Session::fixed(&independence, 0, Config::default(), backend(kind)).unwrap();
            let placements: Vec<_> = session.solutions(None).map(Result::unwrap).collect();
            assert_eq!(placements.len(), 1, "{piece}, {kind}");
            assert!(placements[0].is_empty());
            let domination = Problem::new(board, piece, Kind::Domination);
            let mut session =
                Session::fixed(&domination, 0, Config::default(), backend(kind)).unwrap();
            let count = session.count(None, |_| {}).unwrap();
            assert_eq!(
                (count.count, count.end),
                (0, End::Exhausted),
                "{piece}, {kind}"
            );
        }
    }
}

#[test]
fn more_pieces_than_squares_is_an_encoding_error() {
    let problem = Problem::new(Board::new(2, 3).unwrap(), Piece::King, Kind::Independence);
    let result = Session::fixed(&problem, 7, Config::default(), backend(SolverKind::Varisat));
    assert!(matches!(
        result,
        Err(SolveError::Encode(EncodeError::Infeasible { n: 6, .. }))
    ));
}

/// A fresh iterator per placement (as the Python binding pulls them) loses
/// nothing: the placements a call found beyond the one handed out wait in
/// the session for the next iterator, or for a count (A000170(8) = 92).
#[test]
fn placements_found_by_a_dropped_iterator_are_not_lost() {
    for kind in SolverKind::embedded() {
        let mut session = queens_session(8, Config::default(), kind);
        let mut seen = HashSet::new();
        while let Some(placement) = session.solutions(None).next() {
            assert!(seen.insert(placement.unwrap()), "{kind}: handed out twice");
        }
        assert_eq!(seen.len(), 92, "{kind}");

        let mut session = queens_session(8, Config::default(), kind);
        let first = session.solutions(None).next().unwrap().unwrap();
        let rest = session.count(None, |_| {}).unwrap();
        assert_eq!((rest.count, rest.end), (91, End::Exhausted), "{kind}");
        let mut limited = session.solutions(Some(5));
        assert!(limited.next().is_none(), "{kind}: {first} counted twice");
    }
}
