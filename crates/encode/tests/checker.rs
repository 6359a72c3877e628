//! The checker against brute force, and model counts of the encoded
//! problems against the brute-force count of placements.

mod common;

use boardsat_encode::{
    check, Amo, Board, Bound, Card, Config, Formulation, Kind, Piece, Placement, Problem, Square,
};
use common::{lit, solver_of};
use rustsat::instances::Cnf;
use varisat::ExtendFormula;

/// Attack from coordinates, written from the rules of chess (sliders are
/// not blocked, as in the placement puzzles).
fn attacks(piece: Piece, a: (usize, usize), b: (usize, usize)) -> bool {
    if a == b {
        return false;
    }
    let dr = (a.0 as i64 - b.0 as i64).abs();
    let dc = (a.1 as i64 - b.1 as i64).abs();
    match piece {
        Piece::Queen => dr == 0 || dc == 0 || dr == dc,
        Piece::Rook => dr == 0 || dc == 0,
        Piece::Bishop => dr == dc,
        Piece::Knight => dr * dc == 2,
        Piece::King => dr.max(dc) == 1,
    }
}

fn squares_of(mask: u32, cols: usize, n: usize) -> Vec<(usize, usize)> {
    (0..n)
        .filter(|i| mask >> i & 1 == 1)
        .map(|i| (i / cols, i % cols))
        .collect()
}

fn independent(piece: Piece, set: &[(usize, usize)]) -> bool {
    set.iter()
        .all(|&a| set.iter().all(|&b| !attacks(piece, a, b)))
}

fn dominating(piece: Piece, set: &[(usize, usize)], rows: usize, cols: usize) -> bool {
    (0..rows).all(|r| {
        (0..cols).all(|c| {
            set.iter()
                .any(|&p| p == (r, c) || attacks(piece, p, (r, c)))
        })
    })
}

fn accepts(kind: Kind, piece: Piece, set: &[(usize, usize)], rows: usize, cols: usize) -> bool {
    (!kind.independent() || independent(piece, set))
        && (!kind.dominating() || dominating(piece, set, rows, cols))
}

fn placement(set: &[(usize, usize)]) -> Placement {
    Placement::new(set.iter().map(|&(r, c)| Square::new(r, c)).collect())
}

const BOARDS: [(usize, usize); 8] = [
    (1, 1),
    (1, 4),
    (2, 2),
    (2, 3),
    (3, 2),
    (3, 3),
    (3, 5),
    (4, 4),
];

#[test]
fn checker_agrees_with_brute_force_on_small_boards() {
    for (rows, cols) in BOARDS {
        let n = rows * cols;
        let board = Board::new(rows, cols).unwrap();
        for piece in Piece::ALL {
            for kind in Kind::ALL {
                let problem = Problem::new(board, piece, kind);
                let mut accepted = 0;
                for mask in 0..1u32 << n {
                    // 4×4: subsets of up to 6 squares (14 893 of them).
                    if n == 16 && mask.count_ones() > 6 {
                        continue;
                    }
                    let set = squares_of(mask, cols, n);
                    let want = accepts(kind, piece, &set, rows, cols);
                    let size = set.len();
                    let got = check(&problem, Some(Bound::Exactly(size)), &placement(&set));
                    assert_eq!(got.is_ok(), want, "{problem} {set:?}: {got:?}");
                    accepted += usize::from(want);
                    // A wrong count is always reported.
                    let wrong = check(&problem, Some(Bound::Exactly(size + 1)), &placement(&set));
                    assert!(wrong.is_err());
                }
                if kind == Kind::Independence {
                    assert!(accepted > n, "{problem}: the empty set and singletons pass");
                }
            }
        }
    }
}

#[test]
fn checker_rejects_off_board_and_repeated_squares() {
    let problem = Problem::new(Board::new(2, 3).unwrap(), Piece::King, Kind::Independence);
    let off = Placement::new(vec![Square::new(2, 0)]);
    assert!(check(&problem, None, &off).is_err());
    let off = Placement::new(vec![Square::new(0, 3)]);
    assert!(check(&problem, None, &off).is_err());
    let twice = Placement::new(vec![Square::new(0, 0), Square::new(0, 0)]);
    assert!(check(&problem, None, &twice).is_err());
}

/// Placements brute force accepts with the kind's bound on `k`.
fn brute_count(problem: &Problem, k: usize) -> usize {
    let (rows, cols) = (problem.board.rows(), problem.board.cols());
    let n = rows * cols;
    (0..1u32 << n)
        .filter(|&mask| {
            let count = mask.count_ones() as usize;
            let in_bound = if problem.kind == Kind::Independence {
                count == k
            } else {
                count <= k
            };
            in_bound
                && accepts(
                    problem.kind,
                    problem.piece,
                    &squares_of(mask, cols, n),
                    rows,
                    cols,
                )
        })
        .count()
}

/// Smallest k for which some placement passes.
fn brute_minimum(problem: &Problem) -> usize {
    (0..=problem.board.n_squares())
        .find(|&k| brute_count(problem, k) > 0)
        .unwrap()
}

/// Models of the encoding projected onto the board, each decoded and
/// checked; blocking clauses over board variables only.
fn model_count(problem: &Problem, k: usize, config: Config) -> usize {
    let mut vars = problem.var_manager();
    let mut cnf = Cnf::new();
    let encoding = problem.encode(k, config, &mut cnf, &mut vars).unwrap();
    let mut solver = solver_of(&cnf);
    let board_lits = problem.board_lits();
    let mut count = 0;
    while solver.solve().unwrap() {
        let model = solver.model().unwrap();
        let on: Vec<bool> = board_lits
            .iter()
            .map(|&l| model.contains(&lit(l)))
            .collect();
        let squares: Vec<Square> = problem
            .board
            .squares()
            .zip(&on)
            .filter(|(_, &on)| on)
            .map(|(sq, _)| sq)
            .collect();
        let placement = Placement::new(squares);
        assert_eq!(
            check(problem, encoding.bound, &placement),
            Ok(()),
            "{problem}: {placement}"
        );
        let block: Vec<varisat::Lit> = board_lits
            .iter()
            .zip(&on)
            .map(|(&l, &on)| if on { !lit(l) } else { lit(l) })
            .collect();
        solver.add_clause(&block);
        count += 1;
        assert!(count <= 1 << 16, "runaway enumeration");
    }
    count
}

/// N-queens solutions by brute force over one queen per row (nⁿ choices).
fn queens_brute(n: usize) -> usize {
    let total = n.pow(u32::try_from(n).unwrap());
    (0..total)
        .filter(|&code| {
            let set: Vec<(usize, usize)> = (0..n)
                .map(|r| (r, code / n.pow(u32::try_from(r).unwrap()) % n))
                .collect();
            independent(Piece::Queen, &set)
        })
        .count()
}

#[test]
fn queens_model_counts_are_the_known_ones_for_every_encoding() {
    for (n, known) in [(4, 2), (5, 10), (6, 4)] {
        let problem = Problem::queens(n).unwrap();
        assert_eq!(queens_brute(n), known);
        for formulation in Formulation::ALL {
            for amo in Amo::EAGER {
                let config = Config {
                    amo,
                    formulation,
                    ..Config::default()
                };
                assert_eq!(
                    model_count(&problem, n, config),
                    known,
                    "{n} {amo} {formulation}"
                );
            }
            for card in Card::ALL {
                let config = Config {
                    card,
                    formulation,
                    ..Config::default()
                };
                assert_eq!(
                    model_count(&problem, n, config),
                    known,
                    "{n} {card} {formulation}"
                );
            }
        }
    }
}

#[test]
fn independence_model_counts_match_brute_force() {
    for size in [3, 4] {
        let board = Board::square(size).unwrap();
        for piece in [Piece::Knight, Piece::King, Piece::Bishop, Piece::Rook] {
            let problem = Problem::new(board, piece, Kind::Independence);
            for k in 2..=4 {
                let want = brute_count(&problem, k);
                for amo in Amo::EAGER {
                    let config = Config {
                        amo,
                        ..Config::default()
                    };
                    assert_eq!(
                        model_count(&problem, k, config),
                        want,
                        "{problem} k={k} {amo}"
                    );
                }
                for card in Card::ALL {
                    let config = Config {
                        card,
                        formulation: Formulation::Cardinality,
                        ..Config::default()
                    };
                    assert_eq!(
                        model_count(&problem, k, config),
                        want,
                        "{problem} k={k} {card}"
                    );
                }
            }
        }
    }
}

#[test]
fn domination_model_counts_at_the_minimum_match_brute_force() {
    for size in [3, 4] {
        let board = Board::square(size).unwrap();
        for piece in Piece::ALL {
            for kind in [Kind::Domination, Kind::IndependentDomination] {
                let problem = Problem::new(board, piece, kind);
                let k = brute_minimum(&problem);
                let want = brute_count(&problem, k);
                assert!(want > 0);
                for card in Card::ALL {
                    for formulation in Formulation::ALL {
                        let config = Config {
                            card,
                            formulation,
                            ..Config::default()
                        };
                        let what = format!("{problem} k={k} {card} {formulation}");
                        assert_eq!(model_count(&problem, k, config), want, "{what}");
                        if k > 0 {
                            assert_eq!(model_count(&problem, k - 1, config), 0, "{what}");
                        }
                    }
                }
            }
        }
    }
    // Known minima: queens dominate 4×4 with 2, kings 3×3 with 1, knights
    // 4×4 with 4, rooks 4×4 with 4.
    let minimum = |n, piece| {
        brute_minimum(&Problem::new(
            Board::square(n).unwrap(),
            piece,
            Kind::Domination,
        ))
    };
    assert_eq!(minimum(4, Piece::Queen), 2);
    assert_eq!(minimum(3, Piece::King), 1);
    assert_eq!(minimum(4, Piece::Knight), 4);
    assert_eq!(minimum(4, Piece::Rook), 4);
}
