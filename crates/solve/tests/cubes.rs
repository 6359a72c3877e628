//! Cubes, mirror halving and symmetry breaking all give the same counts as
//! the plain one-solver count, and the known values.

use boardsat_encode::{Amo, Board, Config, Formulation, Kind, Piece, Problem};
use boardsat_solve::{
    search::{
        context::Context,
        count::{Keep, Reduction},
        queens::{count_queens, queen_cubes, CubeOptions},
    },
    Breaking, End, Interrupter, Mode, Session, SolverKind, SolverSpec,
};

/// OEIS A000170, n = 1..10.
const QUEENS: [u64; 10] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724];
/// OEIS A002562 (fundamental solutions), n = 1..10.
const FUNDAMENTAL: [u64; 10] = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92];

#[test]
fn cube_prefixes_are_the_non_attacking_ones() {
    // Depth 1: every column; depth 2 on 4×4: 6 non-attacking pairs.
    assert_eq!(queen_cubes(8, 1, Reduction::None).len(), 8);
    assert_eq!(queen_cubes(4, 2, Reduction::None).len(), 6);
    // Halving keeps the left half at weight 2 and the middle column at 1.
    let halved = queen_cubes(5, 1, Reduction::Halve);
    let weights: Vec<(usize, u64)> = halved.iter().map(|c| (c.columns[0], c.weight)).collect();
    assert_eq!(weights, vec![(0, 2), (1, 2), (2, 1)]);
}

#[test]
fn every_cube_mode_matches_a000170() {
    let stop = Interrupter::new();
    for kind in SolverKind::embedded() {
        for reduction in [Reduction::None, Reduction::Halve, Reduction::Symmetry] {
            let (halve, symmetry) = (
                reduction == Reduction::Halve,
                reduction == Reduction::Symmetry,
            );
            for depth in [0, 1, 2] {
                for n in 1..=9 {
                    let options = CubeOptions {
                        depth,
                        reduction,
                        keep: Keep::Count,
                    };
                    let spec = SolverSpec::new(kind);
                    let problem = Problem::queens(n).unwrap();
                    let ctx =
                        Context::new(problem, Config::default(), &spec, &stop).with_threads(2);
                    let c = count_queens(&ctx, options, &|_, _| {}).unwrap().counted;
                    assert_eq!(c.count, QUEENS[n - 1], "{kind} n={n} {options:?}");
                    assert_eq!(c.end, End::Exhausted);
                    assert_eq!(c.cubes_done, c.cubes_total);
                    if symmetry {
                        assert_eq!(c.models, FUNDAMENTAL[n - 1], "{kind} n={n} {options:?}");
                    }
                    if halve && n >= 4 {
                        assert!(c.models < c.count, "halving counts fewer models");
                    }
                }
            }
        }
    }
}

#[test]
fn symmetry_breaking_counts_orbits_for_every_amo() {
    // The lazy AMO needs CaDiCaL's propagator.
    let propagates = SolverKind::default_embedded() == SolverKind::Cadical;
    for amo in Amo::ALL.into_iter().filter(|a| propagates || !a.is_lazy()) {
        for formulation in Formulation::ALL {
            let config = Config {
                amo,
                formulation,
                ..Config::default()
            };
            for n in [6, 8, 10] {
                let problem = Problem::queens(n).unwrap();
                let backend = SolverKind::default_embedded().create().unwrap();
                let mut session = Session::fixed(&problem, n, config, backend).unwrap();
                session.break_symmetry(Breaking::Hard).unwrap();
                let c = session.count(None, |_| {}).unwrap();
                assert_eq!(
                    (c.count, c.models),
                    (QUEENS[n - 1], FUNDAMENTAL[n - 1]),
                    "{amo} {formulation} n={n}"
                );
            }
        }
    }
}

#[test]
fn symmetry_breaking_keeps_the_domination_optimum() {
    // A075458: γ(Q_n) for n = 1..8.
    let gamma = [1, 1, 1, 2, 3, 3, 4, 5];
    for n in 1..=8 {
        let problem = Problem::new(Board::square(n).unwrap(), Piece::Queen, Kind::Domination);
        for (k, sat) in [(gamma[n - 1], true), (gamma[n - 1] - 1, false)] {
            let backend = SolverKind::default_embedded().create().unwrap();
            let mut session = Session::fixed(&problem, k, Config::default(), backend).unwrap();
            session.break_symmetry(Breaking::Hard).unwrap();
            let (status, _) = session.solve(Mode::Decide).unwrap();
            assert_eq!(status == boardsat_solve::Status::Sat, sat, "n={n} k={k}");
        }
    }
}

#[test]
fn a_set_interrupter_stops_every_cube_worker() {
    let stop = Interrupter::new();
    stop.interrupt();
    let options = CubeOptions {
        depth: 1,
        reduction: Reduction::Symmetry,
        keep: Keep::Count,
    };
    let spec = SolverSpec::default();
    let problem = Problem::queens(10).unwrap();
    let ctx = Context::new(problem, Config::default(), &spec, &stop).with_threads(2);
    let c = count_queens(&ctx, options, &|_, _| {}).unwrap().counted;
    assert_eq!(c.end, End::Stopped);
    assert!(c.cubes_done < c.cubes_total);
}
