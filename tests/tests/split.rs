//! Domination decided by cube-and-conquer ([`decide_split`]) and the
//! optimiser whose refutations run on it ([`optimise_split`]), against the
//! brute-force oracle for every piece on square boards up to 6 × 6 and on
//! rectangles, and against OEIS A075458 for queens up to 13 × 13.

use boardsat_encode::{Board, Bound, Config, Formulation, Kind, Piece, Problem};
use boardsat_solve::{
    search::{
        context::Context,
        count::Blocking,
        domination::{count_split, decide_race, decide_split, optimise_split, SplitOptions},
        lex::LexOrder,
        pool::Cubes,
    },
    Interrupter, Observe, SolverSpec, Status, Strategy,
};
use boardsat_tests::Graph;

const PIECES: [Piece; 5] = [
    Piece::Queen,
    Piece::Rook,
    Piece::Bishop,
    Piece::Knight,
    Piece::King,
];

const BOARDS: [(usize, usize); 9] = [
    (1, 1),
    (2, 2),
    (3, 3),
    (4, 4),
    (5, 5),
    (6, 6),
    (3, 5),
    (5, 3),
    (4, 6),
];

/// OEIS A075458: domination number of the n × n queen graph, n = 1..=13.
const A075458: [usize; 13] = [1, 1, 1, 2, 3, 3, 4, 5, 5, 5, 5, 6, 7];

fn problem(rows: usize, cols: usize, piece: Piece, kind: Kind) -> Problem {
    Problem::new(Board::new(rows, cols).unwrap(), piece, kind)
}

/// The default solver, for contexts.
static SOLVER: std::sync::LazyLock<SolverSpec> = std::sync::LazyLock::new(SolverSpec::default);

/// The context of `p` with `config` on `threads` workers, stopped by
/// `stop`.
fn context<'a>(p: &Problem, config: Config, threads: usize, stop: &'a Interrupter) -> Context<'a> {
    Context::new(*p, config, &SOLVER, stop).with_threads(threads)
}

fn options(k: usize, depth: usize, symmetry: Option<LexOrder>) -> SplitOptions {
    SplitOptions {
        cubes: Cubes::All,
        ..SplitOptions::count(k, Blocking::Full, depth, symmetry)
    }
}

/// As [`options`], one cube per orbit of cubes.
fn per_orbit(k: usize, depth: usize) -> SplitOptions {
    SplitOptions {
        cubes: Cubes::OnePerOrbit,
        ..options(k, depth, Some(LexOrder::LinesFirst))
    }
}

/// The split decision at `k` on two workers, its model (if any) checked
/// by the oracle.
fn decide(p: &Problem, config: Config, options: SplitOptions, g: &Graph) -> Status {
    let stop = Interrupter::new();
    let decided = decide_split(&context(p, config, 2, &stop), options).unwrap();
    let (status, placement) = (decided.status, decided.placement);
    assert_eq!(status == Status::Sat, placement.is_some(), "{p}");
    if let Some(placement) = placement {
        let mask = g.mask(&placement);
        assert!(placement.len() <= options.k, "{p}: {placement}");
        assert!(g.dominates(mask), "{p}: {placement}");
        if p.kind.independent() {
            assert!(g.is_independent(mask), "{p}: {placement}");
        }
    }
    status
}

/// SAT at the oracle's optimum and UNSAT one below, for every piece,
/// board, kind, formulation, depth and symmetry order.
#[test]
fn split_decisions_match_the_oracle() {
    for piece in PIECES {
        for (rows, cols) in BOARDS {
            let g = Graph::new(rows, cols, piece);
            for kind in [Kind::Domination, Kind::IndependentDomination] {
                let gamma = g.domination_number(kind.independent());
                let p = problem(rows, cols, piece, kind);
                for formulation in [Formulation::Lines, Formulation::Cardinality] {
                    let config = Config {
                        formulation,
                        ..Config::default()
                    };
                    for (depth, symmetry, orbits) in [
                        (1, Some(LexOrder::LinesFirst), false),
                        (0, Some(LexOrder::LinesFirst), false),
                        (2, None, false),
                        (1, Some(LexOrder::Board), false),
                        (1, Some(LexOrder::LinesFirst), true),
                        (2, Some(LexOrder::LinesFirst), true),
                    ] {
                        let at = |k| {
                            let o = if orbits {
                                per_orbit(k, depth)
                            } else {
                                options(k, depth, symmetry)
                            };
                            decide(&p, config, o, &g)
                        };
                        let what = format!(
                            "{p}, {formulation:?}, depth {depth}, {symmetry:?}, orbits {orbits}"
                        );
                        assert_eq!(at(gamma), Status::Sat, "{what} at {gamma}");
                        if gamma > 0 {
                            assert_eq!(at(gamma - 1), Status::Unsat, "{what} at {}", gamma - 1);
                        }
                    }
                }
            }
        }
    }
}

/// The optimiser with split refutations proves the oracle's optimum, on
/// one worker and on several.
#[test]
fn optimise_split_proves_the_oracle_optimum() {
    for piece in PIECES {
        for (rows, cols) in BOARDS {
            let g = Graph::new(rows, cols, piece);
            for kind in [Kind::Domination, Kind::IndependentDomination] {
                let p = problem(rows, cols, piece, kind);
                for threads in [1, 3] {
                    let stop = Interrupter::new();
                    let ctx = context(&p, Config::default(), threads, &stop);
                    let (optimum, encoding) =
                        optimise_split(&ctx, Strategy::fastest(&p), &|_: Bound| {}).unwrap();
                    assert!(encoding.is_some(), "{p}: the solvers ran on an encoding");
                    assert!(optimum.proven, "{p}");
                    assert_eq!(
                        optimum.value,
                        g.domination_number(kind.independent()),
                        "{p}"
                    );
                    assert!(g.dominates(g.mask(&optimum.witness)), "{p}");
                }
            }
        }
    }
}

/// γ(Q_n) for n up to 13 (OEIS A075458), each proven by split
/// refutations.
#[test]
fn optimise_split_proves_a075458() {
    for (i, &gamma) in A075458.iter().enumerate() {
        let n = i + 1;
        let p = problem(n, n, Piece::Queen, Kind::Domination);
        let stop = Interrupter::new();
        let ctx = context(&p, Config::default(), 2, &stop);
        let (optimum, _) = optimise_split(&ctx, Strategy::fastest(&p), &|_: Bound| {}).unwrap();
        assert!(optimum.proven, "n = {n}");
        assert_eq!(optimum.value, gamma, "n = {n}");
        assert_eq!(optimum.witness.len(), gamma, "n = {n}");
        let proof = optimum.proof().map(|c| c.status);
        assert_eq!(proof, Some(Status::Unsat), "n = {n}");
    }
}

/// The optimiser's observer hears each bound and, while the bound's
/// refutation runs as cubes, each cube's answer: the progress a
/// refutation of hours shows (`solve --progress`).
#[test]
fn optimise_split_reports_each_refuted_cube() {
    use std::sync::Mutex;

    /// Every event in order: a bound, or a count of answered cubes.
    #[derive(Default)]
    struct Heard(Mutex<Vec<(Option<Bound>, usize)>>);

    impl Observe for Heard {
        fn bound(&self, bound: Bound) {
            self.0.lock().unwrap().push((Some(bound), 0));
        }

        fn cubes(&self, answered: usize) {
            self.0.lock().unwrap().push((None, answered));
        }
    }

    let p = problem(8, 8, Piece::Queen, Kind::Domination);
    let stop = Interrupter::new();
    let ctx = context(&p, Config::default(), 2, &stop);
    let heard = Heard::default();
    let (optimum, _) = optimise_split(&ctx, Strategy::fastest(&p), &heard).unwrap();
    assert_eq!(optimum.value, 5);
    let heard = heard.0.into_inner().unwrap();
    let refuting = heard
        .iter()
        .position(|&(b, _)| b == Some(Bound::AtMost(4)))
        .expect("the bound 4 is announced");
    let answered: Vec<usize> = heard[refuting + 1..]
        .iter()
        .take_while(|(b, _)| b.is_none())
        .map(|&(_, n)| n)
        .collect();
    assert!(answered.len() >= 2, "one report per cube: {heard:?}");
    let mut sorted = answered.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(
        sorted.len(),
        answered.len(),
        "each count once: {answered:?}"
    );
    assert_eq!(
        sorted,
        (1..=answered.len()).collect::<Vec<_>>(),
        "{answered:?}"
    );
}

/// The first search of a decision: a placement a half turn keeps, checked
/// by the independent checker, found where one exists with a piece more
/// than the optimum (and the decision is SAT); none below the optimum,
/// where the split decides.
#[test]
fn a_decision_first_finds_a_placement_a_half_turn_keeps() {
    use boardsat_encode::{check, Symmetry};
    use boardsat_solve::search::domination::symmetric_placement;

    for n in [5, 7, 9, 11] {
        let gamma = A075458[n - 1];
        let p = problem(n, n, Piece::Queen, Kind::Domination);
        let stop = Interrupter::new();
        let ctx = context(&p, Config::default(), 2, &stop);
        let below = symmetric_placement(&ctx, gamma - 1).unwrap();
        assert!(below.is_none(), "n = {n}: below the optimum");
        let Some((placement, _)) = symmetric_placement(&ctx, gamma + 1).unwrap() else {
            panic!(
                "n = {n}: no placement a half turn keeps with {} queens",
                gamma + 1
            );
        };
        check(&p, Some(Bound::AtMost(gamma + 1)), &placement).unwrap();
        let turned = Symmetry::HalfTurn.apply_placement(&p.board, &placement);
        assert_eq!(turned, placement, "n = {n}");
        let decided = decide_split(&ctx, SplitOptions::refutation(gamma, None)).unwrap();
        assert_eq!(decided.status, Status::Sat, "n = {n}");
        check(&p, Some(Bound::AtMost(gamma)), &decided.placement.unwrap()).unwrap();
    }
}

/// A stopped split search proves nothing: UNKNOWN, never UNSAT.
#[test]
fn a_stopped_split_decision_is_unknown() {
    let p = problem(12, 12, Piece::Queen, Kind::Domination);
    let stop = Interrupter::new();
    stop.interrupt();
    let ctx = context(&p, Config::default(), 2, &stop);
    let decided = decide_split(&ctx, options(5, 1, Some(LexOrder::LinesFirst))).unwrap();
    assert_eq!((decided.status, decided.placement), (Status::Unknown, None));
}

/// The race of a split refutation and a model search answers as the
/// oracle on both sides of the optimum, with a checked model.
#[test]
fn raced_decisions_match_the_oracle() {
    for piece in PIECES {
        for (rows, cols) in BOARDS {
            let g = Graph::new(rows, cols, piece);
            for kind in [Kind::Domination, Kind::IndependentDomination] {
                let gamma = g.domination_number(kind.independent());
                let p = problem(rows, cols, piece, kind);
                for k in gamma.saturating_sub(1)..=gamma {
                    let stop = Interrupter::new();
                    let o = options(k, 1, Some(LexOrder::LinesFirst));
                    let ctx = context(&p, Config::default(), 2, &stop);
                    let decided = decide_race(&ctx, o).unwrap();
                    let (status, placement) = (decided.status, decided.placement);
                    let expected = if k >= gamma {
                        Status::Sat
                    } else {
                        Status::Unsat
                    };
                    assert_eq!(status, expected, "{p} at {k}");
                    if let Some(placement) = placement {
                        assert!(placement.len() <= k, "{p}: {placement}");
                        assert!(g.dominates(g.mask(&placement)), "{p}: {placement}");
                        if kind.independent() {
                            assert!(g.is_independent(g.mask(&placement)), "{p}: {placement}");
                        }
                    }
                }
            }
        }
    }
}

/// A stopped race proves nothing either.
#[test]
fn a_stopped_race_is_unknown() {
    let p = problem(12, 12, Piece::Queen, Kind::Domination);
    let stop = Interrupter::new();
    stop.interrupt();
    let o = options(5, 1, Some(LexOrder::LinesFirst));
    let answer = decide_race(&context(&p, Config::default(), 2, &stop), o).unwrap();
    assert_eq!((answer.status, answer.placement), (Status::Unknown, None));
}

/// Counts over one cube per orbit of cubes (lex-leader constraints under
/// each cube's stabilizer) equal the oracle's minimum dominating sets, and
/// have as many models as counts with whole-group constraints in every
/// cube: one per orbit of placements either way.
#[test]
fn per_orbit_cube_counts_match_the_oracle_and_the_whole_group() {
    for piece in PIECES {
        for (rows, cols) in [(4, 4), (5, 5), (6, 6), (4, 6), (5, 3)] {
            let g = Graph::new(rows, cols, piece);
            for kind in [Kind::Domination, Kind::IndependentDomination] {
                let sets = g.minimum_dominating_sets(kind.independent());
                let gamma = g.domination_number(kind.independent());
                let p = problem(rows, cols, piece, kind);
                let count = |o: SplitOptions| {
                    let stop = Interrupter::new();
                    let ctx = context(&p, Config::default(), 2, &stop);
                    let o = SplitOptions {
                        blocking: Blocking::Short,
                        ..o
                    };
                    let (c, _) = count_split(&ctx, o, &|_, _| {}).unwrap();
                    assert_eq!(c.cubes_done, c.cubes_total, "{p}");
                    (c.count, c.models, c.cubes_total)
                };
                for depth in [1, 2] {
                    let whole = count(options(gamma, depth, Some(LexOrder::LinesFirst)));
                    let orbits = count(per_orbit(gamma, depth));
                    let what = format!("{p}, depth {depth}");
                    assert_eq!(orbits.0, sets.len() as u64, "{what}");
                    assert_eq!(orbits.0, whole.0, "{what}");
                    assert_eq!(orbits.1, whole.1, "{what}: models are orbits");
                    // A square board's transposes swap rows and columns:
                    // fewer cubes. A rectangle's mirrors may fix them all.
                    assert!(orbits.2 <= whole.2, "{what}");
                    if rows == cols {
                        assert!(orbits.2 < whole.2, "{what}: fewer cubes");
                    }
                }
            }
        }
    }
}
