//! The backend contract (see `boardsat_solve::Backend`) for every embedded
//! backend: values need a current model, assumptions last one call, clauses
//! persist across calls, signatures name the solver, and time limits answer
//! UNKNOWN quickly.

use std::time::{Duration, Instant};

use boardsat_solve::{Backend, Mode, SolveError, SolverKind, Status};
use boardsat_tests::{backend, pigeonhole};
use rustsat::types::{Lit, Var};

fn lit(i: u32) -> Lit {
    Var::new(i).pos_lit()
}

fn no_model(b: &mut dyn Backend, var: u32) -> bool {
    matches!(b.value(Var::new(var)), Err(SolveError::NoModel))
}

#[test]
fn value_before_any_solve_is_no_model() {
    for kind in SolverKind::embedded() {
        let mut b = backend(kind);
        assert!(no_model(b.as_mut(), 0), "{kind}");
        b.add_clause(&[lit(0)]).unwrap();
        assert!(no_model(b.as_mut(), 0), "{kind}");
    }
}

#[test]
fn value_after_unsat_is_no_model() {
    for kind in SolverKind::embedded() {
        let mut b = backend(kind);
        b.add_clause(&[lit(0)]).unwrap();
        assert_eq!(b.solve(&[]).unwrap(), Status::Sat, "{kind}");
        assert!(b.value(Var::new(0)).unwrap(), "{kind}");
        b.add_clause(&[!lit(0)]).unwrap();
        assert_eq!(b.solve(&[]).unwrap(), Status::Unsat, "{kind}");
        assert!(no_model(b.as_mut(), 0), "{kind}");
    }
}

#[test]
fn adding_a_clause_discards_the_model() {
    for kind in SolverKind::embedded() {
        let mut b = backend(kind);
        b.add_clause(&[lit(0), lit(1)]).unwrap();
        assert_eq!(b.solve(&[]).unwrap(), Status::Sat, "{kind}");
        assert!(b.value(Var::new(0)).is_ok(), "{kind}");
        b.add_clause(&[lit(2)]).unwrap();
        assert!(no_model(b.as_mut(), 0), "{kind}");
    }
}

#[test]
fn unseen_variables_are_false() {
    for kind in SolverKind::embedded() {
        let mut b = backend(kind);
        b.add_clause(&[lit(0)]).unwrap();
        assert_eq!(b.solve(&[]).unwrap(), Status::Sat, "{kind}");
        assert!(!b.value(Var::new(1000)).unwrap(), "{kind}");
    }
}

#[test]
fn assumptions_hold_for_one_call_only() {
    for kind in SolverKind::embedded() {
        let mut b = backend(kind);
        b.add_clause(&[lit(0), lit(1)]).unwrap();
        assert_eq!(b.solve(&[]).unwrap(), Status::Sat, "{kind}");
        assert_eq!(
            b.solve(&[!lit(0), !lit(1)]).unwrap(),
            Status::Unsat,
            "{kind}"
        );
        assert!(no_model(b.as_mut(), 0), "{kind}");
        assert_eq!(b.solve(&[]).unwrap(), Status::Sat, "{kind}");
        // An assumption is honoured by the model.
        assert_eq!(b.solve(&[!lit(0)]).unwrap(), Status::Sat, "{kind}");
        assert!(!b.value(Var::new(0)).unwrap(), "{kind}");
        assert!(b.value(Var::new(1)).unwrap(), "{kind}");
        assert_eq!(b.solve(&[!lit(1)]).unwrap(), Status::Sat, "{kind}");
        assert!(b.value(Var::new(0)).unwrap(), "{kind}");
        assert!(!b.value(Var::new(1)).unwrap(), "{kind}");
    }
}

#[test]
fn clauses_added_after_a_solve_persist() {
    for kind in SolverKind::embedded() {
        let mut b = backend(kind);
        b.add_clause(&[lit(0), lit(1), lit(2)]).unwrap();
        assert_eq!(b.solve(&[]).unwrap(), Status::Sat, "{kind}");
        b.add_clause(&[!lit(0)]).unwrap();
        assert_eq!(b.solve(&[]).unwrap(), Status::Sat, "{kind}");
        assert!(!b.value(Var::new(0)).unwrap(), "{kind}");
        b.add_clause(&[!lit(1)]).unwrap();
        assert_eq!(b.solve(&[]).unwrap(), Status::Sat, "{kind}");
        assert!(b.value(Var::new(2)).unwrap(), "{kind}");
        assert_eq!(b.solve(&[!lit(2)]).unwrap(), Status::Unsat, "{kind}");
        b.add_clause(&[!lit(2)]).unwrap();
        assert_eq!(b.solve(&[]).unwrap(), Status::Unsat, "{kind}");
        assert_eq!(b.solve(&[]).unwrap(), Status::Unsat, "{kind}");
    }
}

#[test]
fn small_pigeonholes_are_decided_correctly() {
    for kind in SolverKind::embedded() {
        for holes in 1..=5 {
            let mut b = backend(kind);
            for clause in pigeonhole(holes + 1, holes, Some(lit(1000))) {
                b.add_clause(&clause).unwrap();
            }
            assert_eq!(b.solve(&[lit(1000)]).unwrap(), Status::Unsat, "{kind}");
            assert_eq!(b.solve(&[]).unwrap(), Status::Sat, "{kind}");
            assert_pigeons_placed(b.as_mut(), holes, holes);
        }
    }
}

/// Checks the model seats the first `pigeons` pigeons, one per hole.
fn assert_pigeons_placed(b: &mut dyn Backend, pigeons: u32, holes: u32) {
    let mut used = vec![false; holes as usize];
    for p in 0..pigeons {
        let seats: Vec<u32> = (0..holes)
            .filter(|&h| b.value(Var::new(p * holes + h)).unwrap())
            .collect();
        assert!(!seats.is_empty(), "pigeon {p} has no hole");
        for h in seats {
            assert!(!used[h as usize], "hole {h} holds two pigeons");
            used[h as usize] = true;
        }
    }
}

#[test]
fn signatures_name_the_solver() {
    for kind in SolverKind::embedded() {
        let signature = backend(kind).signature();
        let prefix = match kind {
            SolverKind::Varisat => "varisat 0.2",
            SolverKind::Cadical => "CaDiCaL 3",
            SolverKind::External => unreachable!("not embedded"),
        };
        assert!(signature.starts_with(prefix), "{kind}: {signature}");
    }
}

#[test]
fn every_embedded_backend_has_a_time_limit_and_an_interrupt() {
    for kind in SolverKind::embedded() {
        let mut b = backend(kind);
        assert!(b.time_limit().is_some(), "{kind}");
        assert!(b.interrupt().is_some(), "{kind}");
    }
}

/// Pigeonhole 11 into 10 under the selector: far beyond any limit below.
fn hard(kind: SolverKind) -> (Box<dyn Backend>, Lit) {
    let selector = lit(10_000);
    let mut b = backend(kind);
    for clause in pigeonhole(11, 10, Some(selector)) {
        b.add_clause(&clause).unwrap();
    }
    (b, selector)
}

#[test]
fn varisat_time_limit_answers_unknown_and_abandons_the_solver() {
    let (mut b, selector) = hard(SolverKind::Varisat);
    b.time_limit()
        .unwrap()
        .set_time_limit(Some(Duration::from_millis(50)));
    let start = Instant::now();
    assert_eq!(b.solve(&[selector]).unwrap(), Status::Unknown);
    let elapsed = start.elapsed();
    assert!(elapsed < Duration::from_secs(3), "took {elapsed:?}");
    assert!(elapsed >= Duration::from_millis(50), "took {elapsed:?}");
    assert!(no_model(b.as_mut(), 0));
    // Documented: a varisat handle is unusable after giving up.
    assert!(matches!(b.solve(&[]), Err(SolveError::Solver { .. })));
    assert!(matches!(
        b.add_clause(&[lit(0)]),
        Err(SolveError::Solver { .. })
    ));
}

#[cfg(feature = "cadical")]
#[test]
fn cadical_time_limit_answers_unknown_and_the_solver_stays_usable() {
    let (mut b, selector) = hard(SolverKind::Cadical);
    b.time_limit()
        .unwrap()
        .set_time_limit(Some(Duration::from_millis(100)));
    let start = Instant::now();
    assert_eq!(b.solve(&[selector]).unwrap(), Status::Unknown);
    let elapsed = start.elapsed();
    assert!(elapsed < Duration::from_secs(3), "took {elapsed:?}");
    assert!(no_model(b.as_mut(), 0));
    b.time_limit().unwrap().set_time_limit(None);
    assert_eq!(b.solve(&[]).unwrap(), Status::Sat);
    assert_pigeons_placed(b.as_mut(), 10, 10);
    // Clauses still go in and count: pigeon 0 may not use hole 0 ... 8.
    for h in 0..9 {
        b.add_clause(&[!lit(h)]).unwrap();
    }
    assert_eq!(b.solve(&[]).unwrap(), Status::Sat);
    assert!(b.value(Var::new(9)).unwrap());
    assert_pigeons_placed(b.as_mut(), 10, 10);
}

/// A conflict limit holds for every later call (CaDiCaL's own lasts one),
/// is kept by a fresh solver, and bounds search, not answers: an easy
/// refutation under the same limit still answers.
#[cfg(feature = "cadical")]
#[test]
fn cadical_conflict_limit_answers_unknown_for_every_call_until_cleared() {
    let (mut b, selector) = hard(SolverKind::Cadical);
    b.conflict_limit().unwrap().set_conflict_limit(Some(100));
    for call in 0..2 {
        assert_eq!(
            b.solve(&[selector]).unwrap(),
            Status::Unknown,
            "call {call}"
        );
        assert!(no_model(b.as_mut(), 0));
    }
    let mut fresh = b.fresh(Mode::Decide).unwrap();
    for clause in pigeonhole(11, 10, Some(selector)) {
        fresh.add_clause(&clause).unwrap();
    }
    assert_eq!(fresh.solve(&[selector]).unwrap(), Status::Unknown);
    b.conflict_limit().unwrap().set_conflict_limit(None);
    assert_eq!(b.solve(&[]).unwrap(), Status::Sat);
    assert_pigeons_placed(b.as_mut(), 10, 10);

    let mut easy = backend(SolverKind::Cadical);
    easy.conflict_limit()
        .unwrap()
        .set_conflict_limit(Some(1_000_000));
    for clause in pigeonhole(5, 4, None) {
        easy.add_clause(&clause).unwrap();
    }
    assert_eq!(easy.solve(&[]).unwrap(), Status::Unsat);
}

#[test]
fn an_interrupt_from_another_thread_answers_unknown() {
    for kind in SolverKind::embedded() {
        let (mut b, selector) = hard(kind);
        let interrupter = b.interrupt().unwrap().interrupter();
        let trigger = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            interrupter.interrupt();
        });
        let start = Instant::now();
        assert_eq!(b.solve(&[selector]).unwrap(), Status::Unknown, "{kind}");
        let elapsed = start.elapsed();
        assert!(elapsed < Duration::from_secs(3), "{kind}: took {elapsed:?}");
        trigger.join().unwrap();
    }
}

#[cfg(feature = "cadical")]
#[test]
fn cadical_is_usable_after_an_interrupt_once_the_flag_is_reset() {
    let (mut b, selector) = hard(SolverKind::Cadical);
    let interrupter = b.interrupt().unwrap().interrupter();
    interrupter.interrupt();
    assert_eq!(b.solve(&[selector]).unwrap(), Status::Unknown);
    interrupter.reset();
    assert_eq!(b.solve(&[]).unwrap(), Status::Sat);
    assert_pigeons_placed(b.as_mut(), 10, 10);
}

#[test]
fn a_fresh_solver_starts_empty_and_keeps_limits_and_the_interrupt_flag() {
    for kind in SolverKind::embedded() {
        for profile in [Mode::Decide, Mode::Enumerate] {
            let (mut b, selector) = hard(kind);
            b.add_clause(&[!lit(0)]).unwrap();
            let interrupter = b.interrupt().unwrap().interrupter();
            b.time_limit()
                .unwrap()
                .set_time_limit(Some(Duration::from_secs(30)));
            let mut fresh = b
                .fresh(profile)
                .expect("embedded backends make fresh solvers");
            // No clause of the original: the unit ¬x0 is not there.
            assert_eq!(fresh.solve(&[lit(0)]).unwrap(), Status::Sat, "{kind}");
            assert!(fresh.value(Var::new(0)).unwrap(), "{kind}");
            // The pigeonhole is not there either, until added.
            for clause in pigeonhole(11, 10, Some(selector)) {
                fresh.add_clause(&clause).unwrap();
            }
            // The shared flag stops the fresh solver's call.
            interrupter.interrupt();
            let start = Instant::now();
            assert_eq!(
                fresh.solve(&[selector]).unwrap(),
                Status::Unknown,
                "{kind} {profile:?}"
            );
            assert!(start.elapsed() < Duration::from_secs(3), "{kind}");
            // The original's clauses are untouched by the fresh solver.
            interrupter.reset();
            assert_eq!(b.solve(&[lit(0)]).unwrap(), Status::Unsat, "{kind}");
        }
    }
}

#[test]
fn a_fresh_solver_keeps_the_time_limit() {
    for kind in SolverKind::embedded() {
        let (b, selector) = hard(kind);
        let mut b = b;
        b.time_limit()
            .unwrap()
            .set_time_limit(Some(Duration::from_millis(100)));
        let mut fresh = b.fresh(Mode::Decide).unwrap();
        for clause in pigeonhole(11, 10, Some(selector)) {
            fresh.add_clause(&clause).unwrap();
        }
        let start = Instant::now();
        assert_eq!(fresh.solve(&[selector]).unwrap(), Status::Unknown, "{kind}");
        assert!(start.elapsed() < Duration::from_secs(3), "{kind}");
    }
}
