//! Rooks, bishops, knights and kings (and queens on rectangles): the
//! independence, domination and independent domination numbers found by
//! `optimise`, and solution counts, against the brute-force oracle of
//! `boardsat-tests` on square boards up to 6 × 6 and a few rectangles.

use boardsat_encode::{Board, Config, Formulation, Kind, Piece, Problem};
use boardsat_solve::{optimise, End, Session, SolverKind};
use boardsat_tests::{backend, default_backend, Graph};

const PIECES: [Piece; 4] = [Piece::Rook, Piece::Bishop, Piece::Knight, Piece::King];

/// Square boards 1..=6 and some rectangles in both orientations.
const BOARDS: [(usize, usize); 10] = [
    (1, 1),
    (2, 2),
    (3, 3),
    (4, 4),
    (5, 5),
    (6, 6),
    (3, 5),
    (5, 3),
    (4, 6),
    (2, 7),
];

fn problem(rows: usize, cols: usize, piece: Piece, kind: Kind) -> Problem {
    Problem::new(Board::new(rows, cols).unwrap(), piece, kind)
}

/// The proven optimum of `kind`, its witness checked against the oracle.
fn optimum(rows: usize, cols: usize, piece: Piece, kind: Kind) -> usize {
    let p = problem(rows, cols, piece, kind);
    let (optimum, _) = optimise(&p, Config::default(), default_backend()).unwrap();
    assert!(optimum.proven, "{p}");
    assert_eq!(optimum.witness.len(), optimum.value, "{p}");
    let g = Graph::new(rows, cols, piece);
    let mask = g.mask(&optimum.witness);
    if kind.independent() {
        assert!(g.is_independent(mask), "{p}: {}", optimum.witness);
    }
    if kind.dominating() {
        assert!(g.dominates(mask), "{p}: {}", optimum.witness);
    }
    optimum.value
}

fn compare(kind: Kind, oracle: impl Fn(&Graph) -> usize) {
    for piece in PIECES {
        for (rows, cols) in BOARDS {
            let expected = oracle(&Graph::new(rows, cols, piece));
            assert_eq!(
                optimum(rows, cols, piece, kind),
                expected,
                "{kind} of {piece}s on {rows}x{cols}"
            );
        }
    }
}

#[test]
fn independence_number_matches_the_oracle() {
    compare(Kind::Independence, Graph::independence_number);
}

#[test]
fn domination_number_matches_the_oracle() {
    compare(Kind::Domination, |g| g.domination_number(false));
}

#[test]
fn independent_domination_number_matches_the_oracle() {
    compare(Kind::IndependentDomination, |g| g.domination_number(true));
}

#[test]
fn maximum_independent_sets_are_counted_exactly() {
    let cases = [
        (4, 4, Piece::Rook),
        (3, 5, Piece::Rook),
        (4, 4, Piece::Bishop),
        (3, 5, Piece::Bishop),
        (4, 4, Piece::Knight),
        (3, 5, Piece::Knight),
        (4, 4, Piece::King),
        (3, 5, Piece::King),
        (4, 6, Piece::King),
    ];
    for (rows, cols, piece) in cases {
        let p = problem(rows, cols, piece, Kind::Independence);
        let g = Graph::new(rows, cols, piece);
        let alpha = g.independence_number();
        let (optimum, mut session) = optimise(&p, Config::default(), default_backend()).unwrap();
        assert_eq!(optimum.value, alpha, "{p}");
        let count = session.count(None, |_| {}).unwrap();
        assert_eq!(count.end, End::Exhausted);
        assert_eq!(count.count, g.count_independent_sets(alpha), "{p}");
    }
}

/// The lines formulation on rectangles: each row (rows ≤ cols) or each
/// column (cols ≤ rows) holds exactly one piece. Counts of min(rows, cols)
/// rooks or queens must not depend on the formulation or the orientation.
#[test]
fn lines_formulation_on_rectangles_counts_like_the_oracle() {
    for piece in [Piece::Rook, Piece::Queen] {
        for (rows, cols) in [(3, 5), (5, 3), (4, 6), (6, 4), (2, 7), (5, 5)] {
            let k = rows.min(cols);
            let p = problem(rows, cols, piece, Kind::Independence);
            let expected = Graph::new(rows, cols, piece).count_independent_sets(k);
            for formulation in Formulation::ALL {
                for kind in SolverKind::embedded() {
                    let config = Config {
                        formulation,
                        ..Config::default()
                    };
                    let mut session = Session::fixed(&p, k, config, backend(kind)).unwrap();
                    assert_eq!(session.encoding().config.formulation, formulation);
                    let count = session.count(None, |_| {}).unwrap();
                    assert_eq!(count.end, End::Exhausted);
                    assert_eq!(count.count, expected, "{p}, {formulation}, {kind}");
                }
            }
        }
    }
}

#[test]
fn rook_counts_are_permutations() {
    // Independent of the oracle: k non-attacking rooks on k × m (k ≤ m)
    // is m!/(m−k)!.
    for (rows, cols) in [(3, 5), (4, 6), (6, 6)] {
        let expected: u64 = (cols - rows + 1..=cols).map(|x| x as u64).product();
        assert_eq!(
            Graph::new(rows, cols, Piece::Rook).count_independent_sets(rows),
            expected
        );
    }
}

#[test]
fn oracle_agrees_with_known_sequences() {
    for n in 1..=6 {
        let knight = Graph::new(n, n, Piece::Knight);
        // OEIS A030978: maximum number of non-attacking knights on n × n.
        assert_eq!(knight.independence_number(), [1, 4, 5, 8, 13, 18][n - 1]);
        // OEIS A006075: minimum number of knights covering an n × n board.
        assert_eq!(knight.domination_number(false), [1, 4, 4, 4, 5, 8][n - 1]);
        let king = Graph::new(n, n, Piece::King);
        // Kings: ⌈n/2⌉² independent, ⌈n/3⌉² dominating (one per 2 × 2 / 3 × 3 block).
        assert_eq!(king.independence_number(), n.div_ceil(2).pow(2));
        assert_eq!(king.domination_number(false), n.div_ceil(3).pow(2));
        let bishop = Graph::new(n, n, Piece::Bishop);
        // Bishops: 2n − 2 independent for n ≥ 2 (Dudeney), n dominating.
        assert_eq!(bishop.independence_number(), (2 * n - 2).max(1));
        assert_eq!(bishop.domination_number(false), n);
        let rook = Graph::new(n, n, Piece::Rook);
        assert_eq!(rook.independence_number(), n);
        assert_eq!(rook.domination_number(false), n);
    }
}
