//! The size estimator against real encodings: every estimate lies between
//! the real count and twice it, for every piece, kind, AMO and cardinality
//! encoding on small and medium boards.

use boardsat_encode::{
    card::Direction, size, Amo, Board, Card, Config, Formulation, Kind, Piece, Problem,
};
use rustsat::{
    instances::{BasicVarManager, Cnf, ManageVars},
    types::{Lit, Var},
};

/// Tiny encodings (a few clauses) are allowed a constant above 2×.
const SLACK: u64 = 8;

fn within(what: &str, real: u64, estimate: u64) {
    if !(estimate >= real && estimate <= 2 * real + SLACK) {
        FAILURES.with(|f| {
            f.borrow_mut()
                .push(format!("{what}: estimate {estimate}, real {real}"))
        });
    }
}

thread_local! {
    static FAILURES: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn no_failures() {
    FAILURES.with(|f| {
        let f = f.borrow();
        let shown: Vec<&String> = f.iter().take(40).collect();
        assert!(f.is_empty(), "{} failures:\n{shown:#?}", f.len());
    });
}

/// Literal counts are estimated per clause shape, so a looser floor.
fn lits_within(what: &str, real: u64, estimate: u64) {
    if !(estimate * 10 >= real * 7 && estimate <= 2 * real + SLACK) {
        FAILURES.with(|f| {
            f.borrow_mut()
                .push(format!("{what}: literal estimate {estimate}, real {real}"))
        });
    }
}

#[test]
fn amo_estimates_per_line() {
    for amo in Amo::EAGER {
        for len in 2..=200 {
            let lits: Vec<Lit> = (0..len).map(|i| Var::new(i).pos_lit()).collect();
            let mut vars = BasicVarManager::default();
            vars.increase_next_free(Var::new(len));
            let mut cnf = Cnf::new();
            amo.encode(&lits, &mut cnf, &mut vars).unwrap();
            let e = size::amo(amo, len as usize);
            let what = format!("{amo} over {len}");
            within(&what, cnf.len() as u64, e.n_clauses);
            assert!(e.n_vars >= u64::from(vars.n_used() - len), "{what} vars");
        }
    }
}

#[test]
fn cardinality_estimates() {
    for card in Card::ALL {
        for n in [1usize, 2, 3, 5, 8, 17, 64, 100, 333] {
            for k in [0usize, 1, 2, 5, 16, 50, 200] {
                for direction in [Direction::Upper, Direction::Lower, Direction::Both] {
                    let lits: Vec<Lit> = (0..n as u32).map(|i| Var::new(i).pos_lit()).collect();
                    let mut vars = BasicVarManager::default();
                    vars.increase_next_free(Var::new(n as u32));
                    let mut cnf = Cnf::new();
                    card.build(&lits, direction, k, &mut cnf, &mut vars)
                        .unwrap();
                    let e = size::cardinality(card, n, k, direction);
                    let what = format!("{card} n={n} k={k} {direction:?}");
                    within(&what, cnf.len() as u64, e.n_clauses);
                }
            }
        }
    }
    no_failures();
}

fn real(problem: &Problem, k: Option<usize>, config: Config) -> (u64, u64, u64) {
    let mut vars = problem.var_manager();
    let mut cnf = Cnf::new();
    let e = match k {
        // The lazy AMO's clauses too: the estimate must know them.
        Some(k) => problem.encode_lazy(k, config, &mut cnf, &mut vars),
        None => problem.encode_open_lazy(problem.open_bound_guess(), config, &mut cnf, &mut vars),
    }
    .unwrap();
    (
        u64::from(e.stats.n_vars),
        e.stats.n_clauses as u64,
        e.stats.n_lits as u64,
    )
}

#[test]
fn problem_estimates_against_real_encodings() {
    let mut checked = 0;
    for (rows, cols) in [(1, 1), (1, 5), (3, 3), (4, 7), (8, 8), (13, 10), (20, 20)] {
        let board = Board::new(rows, cols).unwrap();
        for piece in Piece::ALL {
            for kind in Kind::ALL {
                let problem = Problem::new(board, piece, kind);
                let ks = [
                    Some(rows.min(cols)),
                    Some(1),
                    Some(board.n_squares() / 3),
                    None,
                ];
                for amo in Amo::ALL {
                    for card in Card::ALL {
                        for formulation in Formulation::ALL {
                            let config = Config {
                                amo,
                                card,
                                formulation,
                            };
                            for k in ks {
                                let (vars, clauses, lits) = real(&problem, k, config);
                                let e = match k {
                                    Some(k) => problem.estimate(k, config),
                                    None => {
                                        problem.estimate_open(problem.open_bound_guess(), config)
                                    }
                                };
                                let what = format!("{problem} k={k:?} {config:?}");
                                within(&what, clauses, e.n_clauses);
                                lits_within(&what, lits, e.n_lits);
                                assert!(e.n_vars >= u64::from(rows as u32 * cols as u32), "{what}");
                                if e.n_vars > 2 * vars + 64 {
                                    FAILURES.with(|f| {
                                        f.borrow_mut()
                                            .push(format!("{what}: vars {} vs {vars}", e.n_vars))
                                    });
                                }
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    no_failures();
    assert!(checked > 10_000, "{checked}");
}

#[test]
fn huge_boards_are_estimated_without_overflow_or_delay() {
    let problem = Problem::queens(8000).unwrap();
    let pairwise = Config {
        amo: Amo::Pairwise,
        ..Config::default()
    };
    let e = problem.estimate(8000, pairwise);
    // Pairwise lines: about 5/3·n³ clauses.
    assert!(e.n_clauses > 800_000_000_000, "{e:?}");
    let start = std::time::Instant::now();
    for card in Card::ALL {
        let problem = Problem::new(
            Board::new(8000, 8000).unwrap(),
            Piece::Knight,
            Kind::Independence,
        );
        let config = Config {
            card,
            ..Config::default()
        };
        let e = problem.estimate_open(problem.open_bound_guess(), config);
        assert!(e.n_clauses > 64_000_000, "{card}: {e:?}");
        assert!(e.bytes() > e.n_clauses);
    }
    assert!(start.elapsed().as_secs() < 2);
}
