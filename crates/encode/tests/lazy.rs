//! The lazy AMO: what `Problem::encode_lazy` leaves out of the clauses is
//! exactly what `LazyLines` records, nothing else changes, and
//! `Problem::encode` (the clauses alone) refuses to leave anything out.

use boardsat_encode::{
    Amo, Board, Config, EncodeError, Formulation, Kind, LazyLines, LineKind, Piece, Problem, Square,
};
use rustsat::{
    instances::{BasicVarManager, Cnf, ManageVars},
    types::{Lit, Var},
};

fn encode(
    problem: &Problem,
    k: usize,
    amo: Amo,
    formulation: Formulation,
) -> (Cnf, Option<LazyLines>, u32) {
    let mut vars = problem.var_manager();
    let mut cnf = Cnf::new();
    let config = Config {
        amo,
        formulation,
        ..Config::default()
    };
    let encoding = problem.encode_lazy(k, config, &mut cnf, &mut vars).unwrap();
    assert_eq!(encoding.stats.n_clauses, cnf.len());
    (cnf, encoding.lazy, encoding.stats.n_vars)
}

#[test]
fn lazy_amo_has_no_clauses_of_its_own() {
    let lits: Vec<Lit> = (0..5).map(|i| Var::new(i).pos_lit()).collect();
    let mut vars = BasicVarManager::default();
    vars.increase_next_free(Var::new(5));
    let mut cnf = Cnf::new();
    assert_eq!(
        Amo::Lazy.encode(&lits, &mut cnf, &mut vars),
        Err(EncodeError::LazyAmo)
    );
    // One literal needs nothing, lazy or not; at most 0 is units.
    Amo::Lazy.encode(&lits[..1], &mut cnf, &mut vars).unwrap();
    Amo::Lazy
        .encode_at_most(&lits, 0, &mut cnf, &mut vars)
        .unwrap();
    assert_eq!(cnf.len(), 5);
    assert!(Amo::Lazy.is_lazy() && !Amo::EAGER.iter().any(|a| a.is_lazy()));
    assert_eq!(Amo::ALL.len(), Amo::EAGER.len() + 1);
    assert_eq!("lazy".parse::<Amo>(), Ok(Amo::Lazy));
}

/// The clauses of `lazy` plus the pairwise clauses of its groups are the
/// pairwise encoding's clauses, as sets.
fn same_as_pairwise(problem: &Problem, k: usize, formulation: Formulation) {
    let (lazy_cnf, lazy, n_vars) = encode(problem, k, Amo::Lazy, formulation);
    let (eager_cnf, none, eager_vars) = encode(problem, k, Amo::Pairwise, formulation);
    assert!(none.is_none());
    assert_eq!(
        n_vars, eager_vars,
        "{problem}: pairwise has no auxiliaries either"
    );
    let lazy = lazy.unwrap_or_else(|| panic!("{problem}: no lazy lines"));
    let mut completed: Vec<Vec<Lit>> = lazy_cnf.iter().map(|c| sorted(&c[..])).collect();
    for group in lazy.groups() {
        for (i, &a) in group.iter().enumerate() {
            for &b in &group[i + 1..] {
                let clause = vec![!a, !b];
                assert!(lazy.implies(&clause), "{problem}: {clause:?}");
                completed.push(sorted(&clause));
            }
        }
    }
    let mut eager: Vec<Vec<Lit>> = eager_cnf.iter().map(|c| sorted(&c[..])).collect();
    completed.sort();
    eager.sort();
    assert_eq!(completed, eager, "{problem} k={k} {formulation}");
}

fn sorted(lits: &[Lit]) -> Vec<Lit> {
    let mut v = lits.to_vec();
    v.sort();
    v
}

#[test]
fn lazy_lines_complete_to_the_pairwise_encoding() {
    for (rows, cols) in [(1, 1), (3, 3), (4, 6), (6, 4), (5, 5), (8, 8)] {
        let board = Board::new(rows, cols).unwrap();
        for piece in [Piece::Queen, Piece::Rook, Piece::Bishop] {
            for kind in [Kind::Independence, Kind::IndependentDomination] {
                let problem = Problem::new(board, piece, kind);
                for formulation in Formulation::ALL {
                    for k in [1, rows.min(cols)] {
                        same_as_pairwise(&problem, k, formulation);
                    }
                }
            }
        }
    }
}

#[test]
fn exact_lines_are_rows_and_columns_of_n_queens_only() {
    let (cnf, lazy, _) = encode(
        &Problem::queens(8).unwrap(),
        8,
        Amo::Lazy,
        Formulation::Lines,
    );
    let lazy = lazy.unwrap();
    assert_eq!(lazy.kinds, LineKind::ALL.to_vec());
    assert_eq!(lazy.exact, vec![LineKind::Row, LineKind::Column]);
    // The 16 at-least-one clauses are all that is left.
    assert_eq!(cnf.len(), 16);
    assert!(cnf.iter().all(|c| c.len() == 8));
    let wide = Problem::new(Board::new(3, 5).unwrap(), Piece::Rook, Kind::Independence);
    let (_, lazy, _) = encode(&wide, 3, Amo::Lazy, Formulation::Lines);
    assert_eq!(lazy.unwrap().exact, vec![LineKind::Row]);
    let (_, lazy, _) = encode(&wide, 3, Amo::Lazy, Formulation::Cardinality);
    assert!(lazy.unwrap().exact.is_empty());
}

#[test]
fn leapers_and_domination_keep_their_clauses() {
    let board = Board::square(5).unwrap();
    for piece in [Piece::Knight, Piece::King] {
        let problem = Problem::new(board, piece, Kind::Independence);
        let (lazy_cnf, lazy, _) = encode(&problem, 4, Amo::Lazy, Formulation::Lines);
        let (eager_cnf, _, _) = encode(&problem, 4, Amo::Pairwise, Formulation::Lines);
        assert!(lazy.is_none(), "{piece}: attack pairs stay clauses");
        assert_eq!(lazy_cnf.len(), eager_cnf.len());
    }
    let problem = Problem::new(board, Piece::Queen, Kind::Domination);
    let (_, lazy, _) = encode(&problem, 3, Amo::Lazy, Formulation::Lines);
    assert!(lazy.is_none(), "domination has no at-most-one lines");
}

#[test]
fn closed_form_sizes_match_the_groups() {
    for (rows, cols) in [(1, 1), (1, 4), (2, 2), (3, 7), (7, 3), (6, 6)] {
        let board = Board::new(rows, cols).unwrap();
        for piece in Piece::ALL {
            let mut lines = LazyLines::new(board, piece);
            lines.leaps = piece.leaps().to_vec();
            let groups: Vec<Vec<Lit>> = lines.groups().collect();
            assert_eq!(lines.n_groups(), groups.len() as u64, "{board} {piece}");
            let lits: usize = groups.iter().map(Vec::len).sum();
            assert_eq!(lines.n_lits(), lits as u64, "{board} {piece}");
            assert!(!lines.is_empty());
        }
        let nothing = LazyLines {
            kinds: Vec::new(),
            ..LazyLines::new(board, Piece::Knight)
        };
        assert!(nothing.is_empty() && nothing.groups().next().is_none());
    }
}

#[test]
fn implied_clauses_are_pairs_on_a_line_or_a_leap_apart() {
    let board = Board::square(6).unwrap();
    let mut lines = LazyLines::new(board, Piece::Bishop);
    let lit = |r, c| board.lit(Square::new(r, c));
    assert!(lines.implies(&[!lit(0, 0), !lit(5, 5)]));
    assert!(lines.implies(&[!lit(0, 5), !lit(5, 0)]));
    assert!(!lines.implies(&[!lit(0, 0), !lit(0, 5)]), "a rook's pair");
    assert!(!lines.implies(&[!lit(0, 0), !lit(0, 0)]), "one square");
    assert!(
        !lines.implies(&[lit(0, 0), !lit(5, 5)]),
        "a positive literal"
    );
    assert!(!lines.implies(&[!lit(0, 0)]), "a unit");
    assert!(
        !lines.implies(&[!lit(0, 0), !lit(1, 1), !lit(2, 2)]),
        "three literals"
    );
    assert!(
        !lines.implies(&[!lit(0, 0), !Var::new(36).pos_lit()]),
        "off the board"
    );
    lines.leaps = Piece::Knight.leaps().to_vec();
    assert!(lines.implies(&[!lit(0, 0), !lit(1, 2)]));
    assert!(!lines.implies(&[!lit(0, 0), !lit(1, 3)]));
}

#[test]
fn the_clauses_alone_never_drop_lines() {
    let config = Config {
        amo: Amo::Lazy,
        ..Config::default()
    };
    let queens = Problem::queens(8).unwrap();
    let mut vars = queens.var_manager();
    let mut cnf = Cnf::new();
    assert_eq!(
        queens.encode(8, config, &mut cnf, &mut vars).unwrap_err(),
        EncodeError::LazyNotInClauses { groups: 42 },
        "8 rows, 8 columns, 13 + 13 diagonals of two or more squares"
    );
    assert!(cnf.is_empty(), "refused before any clause");
    let bishops = Problem::new(Board::square(5).unwrap(), Piece::Bishop, Kind::Independence);
    assert!(matches!(
        bishops.encode_open(4, config, &mut Cnf::new(), &mut bishops.var_manager()),
        Err(EncodeError::LazyNotInClauses { .. })
    ));
    // Nothing to leave out: the clauses are the whole problem.
    let domination = Problem::new(Board::square(5).unwrap(), Piece::Queen, Kind::Domination);
    let knights = Problem::new(Board::square(5).unwrap(), Piece::Knight, Kind::Independence);
    for problem in [domination, knights] {
        let encoding = problem
            .encode(3, config, &mut Cnf::new(), &mut problem.var_manager())
            .unwrap();
        assert!(encoding.lazy.is_none(), "{problem}");
    }
    assert_eq!(Amo::Lazy.in_clauses(), Amo::Auto);
    assert!(Amo::EAGER.iter().all(|&a| a.in_clauses() == a));
}
