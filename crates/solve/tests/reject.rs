//! Models blocked inside the search (`backend::reject`): a count whose
//! solver rejects models from inside its search stays exact, makes fewer
//! calls than it finds models, honours a limit exactly, and leaves the
//! loop of calls in place where its propagator slot is taken.

#![cfg(feature = "cadical")]

use boardsat_encode::{Board, Config, Kind, Piece, Problem};
use boardsat_solve::{Backend, Cadical, End, Fix, Session};

fn domination(n: usize) -> Problem {
    Problem::new(Board::square(n).unwrap(), Piece::Queen, Kind::Domination)
}

fn cadical() -> Box<dyn Backend> {
    Box::new(Cadical::for_enumeration())
}

/// Every dominating set of 8×8 with 5 queens, without symmetry breaking:
/// OEIS A002564(8) = 4860, found by fewer calls than models.
#[test]
fn a_dense_count_is_exact_with_fewer_calls_than_models() {
    let problem = domination(8);
    let mut session =
        Session::with_bound(&problem, 5, Config::default(), cadical(), Fix::Bound).unwrap();
    session.assume_uniform_size();
    session.record_blocked();
    let count = session.count(None, |_| {}).unwrap();
    assert_eq!(
        (count.count, count.models, count.end),
        (4860, 4860, End::Exhausted)
    );
    assert!(
        session.calls() < 4860,
        "{} calls for 4860 models: nothing was rejected inside the search",
        session.calls()
    );
    // Every blocked placement is a distinct one.
    let mut blocked = session.blocked().to_vec();
    blocked.sort();
    blocked.dedup();
    assert_eq!(blocked.len(), 4860);
}

#[test]
fn a_limit_stops_the_count_at_exactly_that_many_models() {
    for limit in [1, 2, 37, 1000] {
        let problem = domination(8);
        let mut session =
            Session::with_bound(&problem, 5, Config::default(), cadical(), Fix::Bound).unwrap();
        session.assume_uniform_size();
        let count = session.count(Some(limit), |_| {}).unwrap();
        assert_eq!(
            (count.models, count.end),
            (limit, End::Limit),
            "limit {limit}"
        );
    }
}

/// N-queens counts keep the line propagator in CaDiCaL's one slot: the
/// count goes by calls, one per model, and stays exact (A000170(8) = 92).
#[test]
fn a_count_whose_slot_is_taken_goes_by_calls() {
    use boardsat_encode::Amo;
    let problem = Problem::queens(8).unwrap();
    let config = Config {
        amo: Amo::Lazy,
        ..Config::default()
    };
    let mut session = Session::with_bound(&problem, 8, config, cadical(), Fix::Bound).unwrap();
    let count = session.count(None, |_| {}).unwrap();
    assert_eq!(count.count, 92);
    assert_eq!(session.calls(), 93);
}
