//! Models blocked inside the search (`backend::reject`): a count whose
//! solver rejects models from inside its search stays exact, makes fewer
//! calls than it finds models, honours a limit exactly, and leaves the
//! loop of calls in place where its propagator slot is taken; a DIMACS
//! count with a projection does the same and hands out whole models.

#![cfg(feature = "cadical")]

use boardsat_encode::{Board, Config, Kind, Piece, Problem};
use boardsat_solve::{
    backend::reject::RejectModels, count_projected, dimacs, Backend, Cadical, End, Fix, Mode,
    Session, SolveError, Status,
};

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

/// A backend that counts the plain calls (the counting loop's) it makes
/// for CaDiCaL; calls that reject models inside the search go to CaDiCaL
/// directly and are not counted.
struct PlainCalls {
    inner: Cadical,
    calls: u64,
}

impl Backend for PlainCalls {
    fn add_clause(&mut self, clause: &[rustsat::types::Lit]) -> Result<(), SolveError> {
        self.inner.add_clause(clause)
    }

    fn solve(&mut self, assumptions: &[rustsat::types::Lit]) -> Result<Status, SolveError> {
        self.calls += 1;
        self.inner.solve(assumptions)
    }

    fn value(&mut self, var: rustsat::types::Var) -> Result<bool, SolveError> {
        self.inner.value(var)
    }

    fn signature(&self) -> String {
        self.inner.signature()
    }

    fn reserve_vars(&mut self, n_vars: u32) {
        self.inner.reserve_vars(n_vars);
    }

    fn reject_models(&mut self) -> Option<&mut dyn RejectModels> {
        self.inner.reject_models()
    }

    fn fresh(&self, mode: Mode) -> Option<Box<dyn Backend>> {
        self.inner.fresh(mode)
    }
}

fn corpus(name: &str) -> dimacs::Formula {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../cnf")
        .join(name);
    dimacs::parse(std::fs::read(path).unwrap().as_slice()).unwrap()
}

/// Whether `model` (variable v + 1 at index v) satisfies every clause.
fn satisfies(formula: &dimacs::Formula, model: &[bool]) -> bool {
    formula
        .clauses
        .iter()
        .all(|clause| clause.iter().any(|l| model[l.var().idx()] != l.is_neg()))
}

/// A DIMACS count with a projection blocks its models inside the search
/// too (no plain call at all), and every model handed out is a whole
/// assignment that satisfies every clause — the auxiliary variables
/// (a sequential counter's) filled in by the second solver — distinct on
/// the projection: A002564(8) = 4860, and a limit is kept exactly.
#[test]
fn a_projected_dimacs_count_blocks_inside_the_search_with_whole_models() {
    let formula = corpus("domination-8-k5-seqcounter.cnf");
    let projection = formula.projection.clone().unwrap();
    assert!(projection.len() < formula.n_vars as usize);
    for limit in [None, Some(37)] {
        let mut backend = PlainCalls {
            inner: Cadical::for_enumeration(),
            calls: 0,
        };
        let mut models: Vec<Vec<bool>> = Vec::new();
        let mut sink = |m: &[bool]| models.push(m.to_vec());
        let count =
            count_projected(&formula, &mut backend, limit, Some(&mut sink), |_| {}).unwrap();
        let expected = limit.unwrap_or(4860);
        assert_eq!(count.count, expected);
        assert_eq!(
            count.end,
            if limit.is_some() {
                End::Limit
            } else {
                End::Exhausted
            }
        );
        assert_eq!(backend.calls, 0, "the count went by plain calls");
        assert_eq!(models.len() as u64, expected);
        assert!(models
            .iter()
            .all(|m| m.len() == formula.n_vars as usize && satisfies(&formula, m)));
        let mut shown: Vec<Vec<bool>> = models
            .iter()
            .map(|m| projection.iter().map(|v| m[v.idx()]).collect())
            .collect();
        shown.sort();
        shown.dedup();
        assert_eq!(shown.len() as u64, expected);
    }
}

/// Without a projection a model is the whole assignment, which the
/// propagator would have to freeze: the count goes by plain calls, one per
/// model and a last one (7 models of one clause over 3 variables).
#[test]
fn a_dimacs_count_without_a_projection_goes_by_calls() {
    let formula = dimacs::parse("p cnf 3 1\n1 2 3 0\n".as_bytes()).unwrap();
    let mut backend = PlainCalls {
        inner: Cadical::for_enumeration(),
        calls: 0,
    };
    let count = count_projected(&formula, &mut backend, None, None, |_| {}).unwrap();
    assert_eq!((count.count, count.end), (7, End::Exhausted));
    assert_eq!(backend.calls, 8);
}
