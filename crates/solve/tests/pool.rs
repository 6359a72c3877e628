//! The cube worker pool (`search::pool`): a cube split again when a
//! worker runs dry, and errors stopping the pool.

use std::time::{Duration, Instant};

use boardsat_solve::{
    error::SolveError,
    search::{
        count::End,
        pool::{run_queue, Splitting, Step},
    },
    stop::Interrupter,
};

/// A cube that runs until it is asked to split is split when the
/// other worker runs dry, and its pieces are counted; the others are
/// counted as they are.
#[test]
fn an_idle_worker_asks_the_long_cube_to_split() {
    let can_split = |cube: &u64| *cube == 100;
    let splitting = Splitting {
        budget: Duration::ZERO,
        can_split: &can_split,
    };
    let (counted, kept) = run_queue(
        vec![100u64, 1, 2, 3],
        2,
        &Interrupter::new(),
        &|_, _| {},
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
                return Err(SolveError::Unsupported("cube 2".to_string()));
            }
            Ok(Step::<u64, ()>::Done(cube, 1, End::Exhausted, ()))
        },
    );
    assert!(matches!(result, Err(SolveError::Unsupported(m)) if m == "cube 2"));
}
