//! Counts that keep one placement per orbit of the board's symmetries
//! (lex-leader constraints, orbit weights) against brute force: the
//! weighted count must equal the number of placements, and the number of
//! orbits (`count --unique`, the JSON's `fundamental`) must equal the
//! number of canonical forms, computed here under the board's symmetries
//! (8 on a square, 4 on a rectangle) by coordinate arithmetic that shares
//! nothing with the encoder.

use std::collections::HashSet;

use boardsat_encode::{Board, Bound, Config, Kind, Piece, Problem};
use boardsat_solve::{
    search::count::{Proofs, Reduction},
    task::{
        count::{count as count_task, CountFlags},
        Instance,
    },
    End, Interrupter, SolverKind, SolverSpec,
};
use boardsat_tests::Graph;

/// OEIS A002564: minimum dominating sets of queens on the n × n board,
/// n = 1..=10.
const A002564: [u64; 10] = [1, 4, 1, 12, 186, 4, 86, 4860, 114, 8];

const PIECES: [Piece; 5] = [
    Piece::Queen,
    Piece::Rook,
    Piece::Bishop,
    Piece::Knight,
    Piece::King,
];

/// The images of square `i` of a `rows × cols` board (index
/// `row * cols + col`) under the board's symmetries.
fn maps(rows: usize, cols: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let at = |r: usize, c: usize| r * cols + c;
    let square = rows == cols;
    let transforms: Vec<Box<dyn Fn(usize, usize) -> usize>> = {
        let mut t: Vec<Box<dyn Fn(usize, usize) -> usize>> = vec![
            Box::new(at),
            Box::new(move |r, c| at(r, cols - 1 - c)),
            Box::new(move |r, c| at(rows - 1 - r, c)),
            Box::new(move |r, c| at(rows - 1 - r, cols - 1 - c)),
        ];
        if square {
            t.push(Box::new(move |r, c| at(c, r)));
            t.push(Box::new(move |r, c| at(cols - 1 - c, rows - 1 - r)));
            t.push(Box::new(move |r, c| at(c, rows - 1 - r)));
            t.push(Box::new(move |r, c| at(cols - 1 - c, r)));
        }
        t
    };
    for f in &transforms {
        out.push(
            (0..rows * cols)
                .map(|i| f(i / cols, i % cols))
                .collect::<Vec<_>>(),
        );
    }
    out
}

/// The number of orbits of `sets` (bitmasks) under `maps`.
fn orbits(sets: &HashSet<u64>, maps: &[Vec<usize>]) -> u64 {
    let canonical: HashSet<u64> = sets
        .iter()
        .map(|&m| {
            maps.iter()
                .map(|map| {
                    (0..map.len())
                        .filter(|&i| m >> i & 1 == 1)
                        .fold(0u64, |acc, i| acc | 1 << map[i])
                })
                .min()
                .unwrap_or(m)
        })
        .collect();
    canonical.len() as u64
}

/// `task::count` with symmetry reduction: (count, orbits, symmetry used).
fn count(problem: Problem, k: Option<usize>) -> (u64, Option<u64>, bool) {
    let instance = Instance {
        problem,
        k,
        config: Config::default(),
    };
    let flags = CountFlags {
        threads: instance.splits().then_some(1),
        ..CountFlags::default()
    };
    let plan = flags.plan(&instance, Proofs::Off).unwrap();
    let counted = count_task(
        &instance,
        &SolverSpec::new(SolverKind::Cadical),
        &plan,
        &Interrupter::new(),
        &|_, _| {},
        &|_: Bound| {},
        None,
    )
    .unwrap();
    assert_eq!(counted.count.end, End::Exhausted, "{problem}");
    (
        counted.count.count,
        counted.fundamental,
        counted.reduction == Reduction::Symmetry,
    )
}

/// Every subset of a board of at most 20 squares that `keep` accepts.
fn subsets(g: &Graph, keep: impl Fn(u64) -> bool) -> HashSet<u64> {
    assert!(g.n_squares() <= 20);
    (0..1u64 << g.n_squares()).filter(|&m| keep(m)).collect()
}

#[test]
fn fixed_k_counts_and_orbits_match_brute_force_for_every_piece() {
    for (rows, cols) in [(4, 4), (3, 5), (4, 5), (2, 6)] {
        let board = Board::new(rows, cols).unwrap();
        let maps = maps(rows, cols);
        for piece in PIECES {
            let g = Graph::new(rows, cols, piece);
            for kind in [
                Kind::Domination,
                Kind::IndependentDomination,
                Kind::Independence,
            ] {
                let problem = Problem::new(board, piece, kind);
                let gamma = match kind {
                    Kind::Independence => 2,
                    _ => g.domination_number(kind == Kind::IndependentDomination),
                };
                for k in [gamma, gamma + 1] {
                    let sets = subsets(&g, |m| {
                        let size = m.count_ones() as usize;
                        match kind {
                            Kind::Domination => size <= k && g.dominates(m),
                            Kind::IndependentDomination => {
                                size <= k && g.dominates(m) && g.is_independent(m)
                            }
                            Kind::Independence => size == k && g.is_independent(m),
                        }
                    });
                    let what = format!("{rows}x{cols} {piece} {kind:?} k = {k}");
                    let (c, fundamental, symmetry) = count(problem, Some(k));
                    assert!(symmetry, "{what}");
                    assert_eq!(c, sets.len() as u64, "{what}");
                    assert_eq!(fundamental, Some(orbits(&sets, &maps)), "{what}");
                }
            }
        }
    }
}

#[test]
fn optimum_counts_and_orbits_match_brute_force_for_every_piece() {
    for (rows, cols) in [(5, 5), (6, 6), (4, 6), (5, 7)] {
        let board = Board::new(rows, cols).unwrap();
        let maps = maps(rows, cols);
        for piece in PIECES {
            let g = Graph::new(rows, cols, piece);
            for independent in [false, true] {
                let kind = if independent {
                    Kind::IndependentDomination
                } else {
                    Kind::Domination
                };
                let sets = g.minimum_dominating_sets(independent);
                let what = format!("{rows}x{cols} {piece} {kind:?}");
                let (c, fundamental, _) = count(Problem::new(board, piece, kind), None);
                assert_eq!(c, sets.len() as u64, "{what}");
                assert_eq!(fundamental, Some(orbits(&sets, &maps)), "{what}");
            }
        }
    }
}

#[test]
fn optimum_counts_of_queen_domination_are_a002564_and_orbits_match_brute_force() {
    for n in 1..=10 {
        let problem = Problem::new(Board::square(n).unwrap(), Piece::Queen, Kind::Domination);
        let (c, fundamental, symmetry) = count(problem, None);
        assert_eq!(c, A002564[n - 1], "n = {n}");
        assert!(symmetry, "n = {n}");
        if n <= 7 {
            let sets = Graph::new(n, n, Piece::Queen).minimum_dominating_sets(false);
            assert_eq!(fundamental, Some(orbits(&sets, &maps(n, n))), "n = {n}");
        }
    }
}

/// `task::count` with explicit count flags: (count, orbits, cubes in all).
fn count_with(
    problem: Problem,
    k: Option<usize>,
    flags: CountFlags,
) -> (u64, Option<u64>, Option<usize>) {
    let instance = Instance {
        problem,
        k,
        config: Config::default(),
    };
    let plan = flags.plan(&instance, Proofs::Off).unwrap();
    let counted = count_task(
        &instance,
        &SolverSpec::new(SolverKind::Cadical),
        &plan,
        &Interrupter::new(),
        &|_, _| {},
        &|_: Bound| {},
        None,
    )
    .unwrap();
    assert_eq!(counted.count.end, End::Exhausted, "{problem}");
    if let Some(c) = counted.cubes {
        assert_eq!(c.done, c.total, "{problem}");
    }
    (
        counted.count.count,
        counted.fundamental,
        counted.cubes.map(|c| c.total),
    )
}

/// One cube, one worker: the whole problem on one solver.
fn one_cube() -> CountFlags {
    CountFlags {
        depth: Some(0),
        threads: Some(1),
        ..CountFlags::default()
    }
}

#[test]
fn domination_cube_counts_equal_the_one_solver_count_at_every_depth() {
    for n in 1..=8 {
        let problem = Problem::new(Board::square(n).unwrap(), Piece::Queen, Kind::Domination);
        let one = count_with(problem, None, one_cube());
        assert_eq!(one.0, A002564[n - 1], "n = {n}");
        assert_eq!(one.2, Some(1), "n = {n}: depth 0 is one cube");
        for depth in 0..=2 {
            for reduction in [Reduction::Symmetry, Reduction::None] {
                let split = count_with(
                    problem,
                    None,
                    CountFlags {
                        depth: Some(depth),
                        threads: Some(2),
                        no_symmetry: reduction == Reduction::None,
                        ..CountFlags::default()
                    },
                );
                let what = format!("n = {n}, depth {depth}, {reduction:?}");
                assert_eq!(split.0, one.0, "{what}");
                assert!(split.2.is_some(), "{what}");
                if reduction == Reduction::Symmetry {
                    assert_eq!(split.1, one.1, "{what}");
                } else {
                    assert_eq!(split.1, None, "{what}");
                }
            }
        }
    }
    // Fixed k, other pieces, a rectangle, independent domination.
    for (rows, cols, piece, kind, k) in [
        (5, 6, Piece::Knight, Kind::Domination, 7),
        (6, 6, Piece::King, Kind::Domination, 5),
        (4, 6, Piece::Bishop, Kind::IndependentDomination, 5),
        (6, 5, Piece::Rook, Kind::Domination, 5),
    ] {
        let problem = Problem::new(Board::new(rows, cols).unwrap(), piece, kind);
        let one = count_with(problem, Some(k), one_cube());
        for depth in [0, 2] {
            let split = count_with(
                problem,
                Some(k),
                CountFlags {
                    depth: Some(depth),
                    threads: Some(2),
                    ..CountFlags::default()
                },
            );
            assert_eq!(
                (split.0, split.1),
                (one.0, one.1),
                "{problem} k = {k}, depth {depth}"
            );
        }
    }
}

/// Re-splitting at the tail ([`CountFlags::budget`], here nearly zero, so
/// a cube still running when a worker has nothing left is split by the
/// next ring at once): the same counts and orbits as the static split,
/// for queens, other pieces, a rectangle and independent domination.
#[test]
fn domination_counts_split_again_at_the_tail_equal_the_static_split() {
    let budget = Some(std::time::Duration::from_millis(1));
    let mut split_again = 0;
    for (rows, cols, piece, kind, k) in [
        (7, 7, Piece::Queen, Kind::Domination, None),
        (9, 9, Piece::Queen, Kind::Domination, None),
        (10, 10, Piece::Queen, Kind::Domination, None),
        (6, 6, Piece::King, Kind::Domination, Some(5)),
        (5, 7, Piece::Knight, Kind::Domination, Some(6)),
        (6, 6, Piece::Bishop, Kind::IndependentDomination, Some(6)),
    ] {
        let problem = Problem::new(Board::new(rows, cols).unwrap(), piece, kind);
        let fixed = count_with(
            problem,
            k,
            CountFlags {
                threads: Some(2),
                ..CountFlags::default()
            },
        );
        for no_symmetry in [false, true] {
            let again = count_with(
                problem,
                k,
                CountFlags {
                    threads: Some(2),
                    budget,
                    no_symmetry,
                    ..CountFlags::default()
                },
            );
            let what = format!("{problem} k = {k:?}, no_symmetry {no_symmetry}");
            assert_eq!(again.0, fixed.0, "{what}");
            if !no_symmetry {
                assert_eq!(again.1, fixed.1, "{what}");
            }
            split_again += usize::from(again.2 > fixed.2);
        }
    }
    // Whether a cube is still running when the other worker runs dry
    // depends on timing; over twelve counts, some are.
    eprintln!("{split_again} of 12 counts split a cube again");
}
