//! The lazy AMO (lines as a propagator inside CaDiCaL) against the eager
//! encodings, the brute-force oracle and OEIS A000170; every clause the
//! propagator hands CaDiCaL checked to be implied by the eager encoding;
//! time limits and interrupts inside the propagator's callbacks; and the
//! backends that cannot propagate refusing the lazy AMO.
#![cfg(feature = "cadical")]

use std::time::{Duration, Instant};

use boardsat_encode::{Amo, Board, Config, Formulation, Kind, LazyLines, Piece, Problem};
use boardsat_solve::{
    Backend, Cadical, Decide, End, LinesOptions, LinesStats, Mode, Session, SolveError, SolverKind,
    Status,
};
use boardsat_tests::{backend, Graph};

/// OEIS A000170, n = 0..=10.
const A000170: [u64; 11] = [1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724];

/// Square boards up to 6 × 6 and rectangles both ways.
const BOARDS: [(usize, usize); 11] = [
    (1, 1),
    (2, 2),
    (3, 3),
    (4, 4),
    (5, 5),
    (6, 6),
    (3, 5),
    (5, 3),
    (4, 6),
    (6, 4),
    (2, 7),
];

fn lazy(formulation: Formulation) -> Config {
    Config {
        amo: Amo::Lazy,
        formulation,
        ..Config::default()
    }
}

/// A CaDiCaL backend whose line propagator records every clause it hands
/// over, deciding as `decide` says.
fn recording(decide: Decide) -> Box<dyn Backend> {
    let mut solver = Cadical::new();
    solver.set_lines_options(LinesOptions {
        decide,
        record_clauses: true,
    });
    Box::new(solver)
}

fn stats(session: &mut Session) -> LinesStats {
    session
        .backend()
        .propagate_lines()
        .and_then(|p| p.lines_stats())
        .expect("the line propagator is connected")
}

/// Counts `problem` with `k` pieces under `config` to the end; with the
/// lazy AMO, also checks every clause the propagator handed over.
fn count(
    problem: &Problem,
    k: usize,
    config: Config,
    backend: Box<dyn Backend>,
) -> (u64, LinesStats) {
    let mut session = Session::fixed(problem, k, config, backend).unwrap();
    let c = session.count(None, |_| {}).unwrap();
    assert_eq!(c.end, End::Exhausted, "{problem} k={k} {config:?}");
    let mut lines = LinesStats::default();
    if let Some(record) = session.encoding().lazy.clone() {
        lines = stats(&mut session);
        assert_implied(&record, &lines, problem);
    }
    (c.count, lines)
}

fn assert_implied(record: &LazyLines, lines: &LinesStats, problem: &Problem) {
    assert!(
        lines.clauses.len() as u64 >= lines.reasons,
        "{problem}: every reason is recorded"
    );
    for clause in &lines.clauses {
        assert!(
            record.implies(clause),
            "{problem}: {clause:?} is not implied"
        );
    }
}

#[test]
fn queens_counts_are_a000170_and_equal_the_eager_counts() {
    let mut reasons = 0;
    for (n, &known) in A000170.iter().enumerate().skip(1) {
        let problem = Problem::queens(n).unwrap();
        for decide in [Decide::FirstFail, Decide::Solver] {
            let (got, lines) = count(&problem, n, lazy(Formulation::Lines), recording(decide));
            assert_eq!(got, known, "n = {n}, {decide:?}");
            reasons += lines.reasons;
            if decide == Decide::Solver {
                assert_eq!(lines.decisions, 0, "n = {n}: the solver decides");
            }
        }
        let eager = Config::default();
        let (want, _) = count(&problem, n, eager, backend(SolverKind::Cadical));
        assert_eq!(want, known);
    }
    assert!(
        reasons > 100,
        "the propagator explained only {reasons} steps"
    );
}

#[test]
fn independence_counts_match_the_oracle_and_the_eager_encoding() {
    for piece in [Piece::Queen, Piece::Rook, Piece::Bishop] {
        for (rows, cols) in BOARDS {
            let problem = Problem::new(Board::new(rows, cols).unwrap(), piece, Kind::Independence);
            let graph = Graph::new(rows, cols, piece);
            let alpha = graph.independence_number();
            for k in 1..=alpha {
                let want = graph.count_independent_sets(k);
                for formulation in Formulation::ALL {
                    let (got, _) =
                        count(&problem, k, lazy(formulation), recording(Decide::FirstFail));
                    assert_eq!(got, want, "{problem} k={k} {formulation}");
                }
                if k == alpha {
                    let (eager, _) =
                        count(&problem, k, Config::default(), backend(SolverKind::Cadical));
                    assert_eq!(eager, want, "{problem} k={k} eager");
                }
            }
        }
    }
}

#[test]
fn independent_domination_counts_match_the_oracle() {
    for piece in [Piece::Queen, Piece::Rook, Piece::Bishop] {
        for (rows, cols) in BOARDS {
            let problem = Problem::new(
                Board::new(rows, cols).unwrap(),
                piece,
                Kind::IndependentDomination,
            );
            let graph = Graph::new(rows, cols, piece);
            let k = graph.domination_number(true);
            let want = graph.minimum_dominating_sets(true).len() as u64;
            for formulation in Formulation::ALL {
                let (got, _) = count(&problem, k, lazy(formulation), recording(Decide::FirstFail));
                assert_eq!(got, want, "{problem} k={k} {formulation}");
            }
        }
    }
}

#[test]
fn optima_with_the_lazy_amo_match_the_oracle() {
    for piece in [Piece::Queen, Piece::Bishop] {
        for (rows, cols) in [(4, 4), (5, 5), (3, 5), (6, 4)] {
            let graph = Graph::new(rows, cols, piece);
            let board = Board::new(rows, cols).unwrap();
            for (kind, want) in [
                (Kind::Independence, graph.independence_number()),
                (Kind::IndependentDomination, graph.domination_number(true)),
            ] {
                let problem = Problem::new(board, piece, kind);
                let (optimum, _) = boardsat_solve::optimise(
                    &problem,
                    lazy(Formulation::Lines),
                    backend(SolverKind::Cadical),
                )
                .unwrap();
                assert!(optimum.proven, "{problem}");
                assert_eq!(optimum.value, want, "{problem}");
            }
        }
    }
}

#[test]
fn backends_without_a_propagator_refuse_the_lazy_amo() {
    let problem = Problem::queens(6).unwrap();
    let result = Session::fixed(
        &problem,
        6,
        lazy(Formulation::Lines),
        backend(SolverKind::Varisat),
    );
    match result {
        Err(SolveError::NoPropagator { backend }) => assert!(backend.contains("varisat")),
        other => panic!("expected NoPropagator, got {other:?}"),
    }
}

/// A board whose first solution takes CaDiCaL far longer than the limits
/// below: almost all of it inside the propagator's callbacks.
fn big_queens() -> (Problem, usize) {
    (Problem::queens(1500).unwrap(), 1500)
}

#[test]
fn a_time_limit_stops_the_search_inside_propagation() {
    let (problem, n) = big_queens();
    let mut session = Session::fixed(
        &problem,
        n,
        lazy(Formulation::Lines),
        backend(SolverKind::Cadical),
    )
    .unwrap();
    let limit = Duration::from_millis(20);
    assert!(session.set_time_limit(Some(limit)));
    let start = Instant::now();
    let (status, placement) = session.solve(Mode::Decide).unwrap();
    let elapsed = start.elapsed();
    assert_eq!(status, Status::Unknown);
    assert!(placement.is_none());
    let lines = stats(&mut session);
    let squares = (n * n) as u64;
    // Stopped part way through the propagations a solution needs, and soon
    // after the limit.
    assert!(
        lines.propagations > 0 && lines.propagations < squares - n as u64,
        "{lines:?}"
    );
    assert!(
        elapsed < limit + Duration::from_millis(500),
        "took {elapsed:?}"
    );
    // The solver stays usable: without the limit the same session finds a
    // placement (checked by the independent checker inside `solve`).
    session.set_time_limit(None);
    let (status, placement) = session.solve(Mode::Decide).unwrap();
    assert_eq!(status, Status::Sat);
    assert_eq!(placement.map(|p| p.len()), Some(n));
}

#[test]
fn an_interrupt_from_another_thread_stops_the_search() {
    let (problem, n) = big_queens();
    let mut session = Session::fixed(
        &problem,
        n,
        lazy(Formulation::Lines),
        backend(SolverKind::Cadical),
    )
    .unwrap();
    let interrupter = session.interrupter().expect("CaDiCaL can be interrupted");
    let (started, wait) = std::sync::mpsc::channel::<()>();
    let stopper = std::thread::spawn({
        let interrupter = interrupter.clone();
        move || {
            // Interrupt as soon as the main thread is about to search.
            wait.recv().unwrap();
            interrupter.interrupt();
            Instant::now()
        }
    });
    started.send(()).unwrap();
    let (status, _) = session.solve(Mode::Decide).unwrap();
    let answered = Instant::now();
    let interrupted_at = stopper.join().unwrap();
    assert_eq!(status, Status::Unknown);
    let delay = answered.saturating_duration_since(interrupted_at);
    assert!(
        delay < Duration::from_millis(500),
        "answered {delay:?} after the interrupt"
    );
    interrupter.reset();
    assert_eq!(session.solve(Mode::Decide).unwrap().0, Status::Sat);
}
