//! The cube worker pool (`search::pool`): a cube split again when a
//! worker runs dry, and errors stopping the pool.

use std::{
    sync::Mutex,
    time::{Duration, Instant},
};

use boardsat_solve::{
    error::SolveError,
    search::{
        count::End,
        pool::{run_queue, CubesDone, Splitting, Step},
    },
    stop::Interrupter,
};

/// A cube that runs until it is asked to split is split when the
/// other worker runs dry, and its pieces are counted; the others are
/// counted as they are. Progress sees the cubes known grow by the split:
/// 4, then 5 once the pieces replace the long cube.
#[test]
fn an_idle_worker_asks_the_long_cube_to_split() {
    let seen: Mutex<Vec<CubesDone>> = Mutex::new(Vec::new());
    let can_split = |cube: &u64| *cube == 100;
    let splitting = Splitting {
        budget: Duration::ZERO,
        can_split: &can_split,
    };
    let (counted, kept) = run_queue(
        vec![100u64, 1, 2, 3],
        2,
        &Interrupter::new(),
        &|_, cubes| seen.lock().unwrap().push(cubes),
        Some(splitting),
        |&cube, stops| {
            if cube == 100 {
                let waited = Instant::now();
                while !stops.asked_to_split() {
                    assert!(waited.elapsed() < Duration::from_secs(60), "never asked");
                    std::thread::sleep(Duration::from_millis(1));
                }
                return Ok(Step::Split(vec![10, 20]));
            }
            Ok(Step::Done(cube, 1, End::Exhausted, cube))
        },
    )
    .unwrap();
    assert_eq!(counted.count, 1 + 2 + 3 + 10 + 20);
    assert_eq!(counted.cubes_total, 5);
    assert_eq!(counted.cubes_done, 5);
    assert_eq!(counted.end, End::Exhausted);
    let mut cubes: Vec<u64> = kept.into_iter().map(|(c, _)| c).collect();
    cubes.sort_unstable();
    assert_eq!(cubes, vec![1, 2, 3, 10, 20]);
    let seen = seen.into_inner().unwrap();
    assert_eq!(seen.len(), 5, "{seen:?}");
    assert!(seen.iter().all(|c| c.done <= c.known), "{seen:?}");
    assert!(
        seen.iter().all(|c| c.known == 4 || c.known == 5),
        "{seen:?}"
    );
    assert_eq!(
        seen.iter().map(|c| c.done).max(),
        Some(5),
        "the last cube counted is the fifth: {seen:?}"
    );
    let last = seen.iter().max_by_key(|c| c.done).unwrap();
    assert_eq!(last.known, 5, "{seen:?}");
}

/// Without splitting, nobody is asked, and the errors of a worker stop
/// the others.
#[test]
fn without_splitting_no_cube_is_asked_and_errors_stop_the_pool() {
    let result = run_queue(
        vec![1u64, 2, 3],
        2,
        &Interrupter::new(),
        &|_, _| {},
        None,
        |&cube, stops| {
            assert!(!stops.asked_to_split());
            if cube == 2 {
                return Err(SolveError::Caller("cube 2".into()));
            }
            Ok(Step::<u64, ()>::Done(cube, 1, End::Exhausted, ()))
        },
    );
    assert!(matches!(result, Err(SolveError::Caller(m)) if m.to_string() == "cube 2"));
}

/// A drain (`Interrupter::drain`) finishes the cubes running — nothing
/// tells their solvers to stop — and starts no more; the last one to
/// finish stops the work as an interrupt does. Both cubes run when the
/// drain comes (a barrier), so the count is exactly theirs.
#[test]
fn a_drain_finishes_the_cubes_running_and_starts_no_more() {
    let stop = Interrupter::new();
    let both = std::sync::Barrier::new(2);
    let (counted, kept) = run_queue(
        vec![1u64, 2, 3, 4, 5],
        2,
        &stop,
        &|_, _| {},
        None,
        |&cube, stops| {
            both.wait();
            if cube == 1 {
                stop.drain();
            }
            // The other cube is still running: give the pool a chance to
            // stop it if it (wrongly) did.
            std::thread::sleep(Duration::from_millis(50));
            assert!(!stops.cube.is_interrupted(), "cube {cube} was stopped");
            Ok(Step::Done(cube, 1, End::Exhausted, cube))
        },
    )
    .unwrap();
    assert_eq!((counted.count, counted.cubes_done), (1 + 2, 2));
    assert_eq!(counted.end, End::Stopped);
    assert_eq!(kept.len(), 2);
    assert_eq!(
        stop.reason(),
        Some(boardsat_solve::stop::StopReason::Interrupted)
    );
}

/// A drain that comes with no cube left to start ends nothing early: the
/// work is complete, and not reported interrupted.
#[test]
fn a_drain_with_nothing_left_to_start_is_a_complete_run() {
    let stop = Interrupter::new();
    let both = std::sync::Barrier::new(2);
    let (counted, _) = run_queue(vec![1u64, 2], 2, &stop, &|_, _| {}, None, |&cube, _| {
        both.wait();
        stop.drain();
        Ok(Step::Done(cube, 1, End::Exhausted, cube))
    })
    .unwrap();
    assert_eq!((counted.cubes_done, counted.end), (2, End::Exhausted));
    assert_eq!(stop.reason(), None);
}
