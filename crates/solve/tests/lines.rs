//! The geometry of domination splits (`search::domination::lines`): the
//! central rings, and one cube per orbit covering every cube once.

use std::collections::BTreeSet;

use boardsat_encode::{Board, Symmetry};
use boardsat_solve::search::{
    domination::lines::{ring_lines, split, LineCube},
    lex::Line,
};

#[test]
fn rings_are_central_and_symmetric() {
    let rows = |n: usize, depth: usize| -> Vec<usize> {
        ring_lines(&Board::new(n, 1).unwrap(), depth)
            .into_iter()
            .filter_map(|l| match l {
                Line::Row(r) => Some(r),
                Line::Column(_) => None,
            })
            .collect()
    };
    assert_eq!(rows(13, 1), vec![6]);
    assert_eq!(rows(13, 2), vec![5, 6, 7]);
    assert_eq!(rows(12, 1), vec![5, 6]);
    assert_eq!(rows(12, 2), vec![4, 5, 6, 7]);
    assert_eq!(rows(1, 3), vec![0]);
    assert_eq!(rows(2, 3), vec![0, 1]);
    for n in 1..12 {
        for d in 0..7 {
            let r = rows(n, d);
            assert!(r.iter().all(|&i| r.contains(&(n - 1 - i))), "{n} {d}");
        }
    }
}

#[test]
fn orbits_of_a_split_cover_every_cube_once() {
    for (rows, cols) in [
        (1, 1),
        (4, 4),
        (5, 5),
        (6, 6),
        (7, 7),
        (9, 9),
        (4, 6),
        (5, 7),
    ] {
        let board = Board::new(rows, cols).unwrap();
        let group = Symmetry::of(&board);
        for depth in 0..=3 {
            let every = split(&board, depth, true);
            let reps = split(&board, depth, false);
            let total: u64 = reps.iter().map(|r| r.orbit).sum();
            assert_eq!(total, every.len() as u64, "{rows}x{cols} depth {depth}");
            for r in &reps {
                assert_eq!(r.stabilizer.first(), Some(&Symmetry::Identity));
                assert_eq!(r.stabilizer, r.cube.stabilizer(&board, &group));
                assert_eq!(r.stabilizer.len() as u64 * r.orbit, group.len() as u64);
                assert_eq!(
                    LineCube::parse(&board, depth, &r.cube.to_string()).unwrap(),
                    r.cube
                );
            }
            // Each orbit's images are distinct cubes of the full split.
            let mut seen = BTreeSet::new();
            for r in &reps {
                for &s in &group {
                    seen.insert(r.cube.image(&board, s));
                }
            }
            assert_eq!(seen.len(), every.len(), "{rows}x{cols} depth {depth}");
        }
    }
}
