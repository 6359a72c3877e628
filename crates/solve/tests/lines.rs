//! The geometry of domination splits (`search::rings`): the
//! rings from the edge in (and from the middle out, as older proofs have
//! them), and one cube per orbit covering every cube once.

use std::collections::BTreeSet;

use boardsat_encode::{Board, Symmetry};
use boardsat_solve::search::{
    lex::Line,
    pool::Cubes,
    rings::{ring_lines, split, LineCube, Rings},
};

#[test]
fn rings_run_from_the_edge_in_and_are_symmetric() {
    let rows = |n: usize, order: Rings, depth: usize| -> Vec<usize> {
        ring_lines(&Board::new(n, 1).unwrap(), order, depth)
            .into_iter()
            .filter_map(|l| match l {
                Line::Row(r) => Some(r),
                Line::Column(_) => None,
            })
            .collect()
    };
    assert_eq!(rows(13, Rings::Outer, 1), vec![0, 12]);
    assert_eq!(rows(13, Rings::Outer, 2), vec![0, 1, 11, 12]);
    assert_eq!(rows(5, Rings::Outer, 3), vec![0, 1, 2, 3, 4]);
    assert_eq!(rows(13, Rings::Central, 1), vec![6]);
    assert_eq!(rows(13, Rings::Central, 2), vec![5, 6, 7]);
    assert_eq!(rows(12, Rings::Central, 1), vec![5, 6]);
    assert_eq!(rows(12, Rings::Central, 2), vec![4, 5, 6, 7]);
    for order in [Rings::Outer, Rings::Central] {
        assert_eq!(rows(1, order, 3), vec![0]);
        assert_eq!(rows(2, order, 3), vec![0, 1]);
        for n in 1..12 {
            for d in 0..7 {
                let r = rows(n, order, d);
                assert!(r.iter().all(|&i| r.contains(&(n - 1 - i))), "{n} {d}");
                if order == Rings::Outer {
                    assert_eq!(r.len(), (2 * d).min(n), "{n} {d}");
                }
            }
        }
    }
}

#[test]
fn a_cube_of_an_older_central_split_still_parses_and_refines_in_its_order() {
    let board = Board::square(15).unwrap();
    let old = LineCube::parse(&board, 1, "r7+c7-").unwrap();
    assert_eq!(old.order, Rings::Central);
    let children: Vec<String> = old
        .children(&board)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert!(
        children.contains(&"r6-r7+r8+c6+c7-c8-".to_string()),
        "{children:?}"
    );
    let new = LineCube::parse(&board, 1, "r0+r14-c0-c14-").unwrap();
    assert_eq!(new.order, Rings::Outer);
    assert!(LineCube::parse(&board, 1, "r0+r7-c0-c14-").is_err());
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
            let every = split(&board, depth, Cubes::All);
            let reps = split(&board, depth, Cubes::OnePerOrbit);
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
