//! The SVG figures of `boardsat_encode::draw`: well-formed XML, coordinates
//! on both edges, and on domination boards each square's number equal to a
//! brute-force count of the pieces that attack it (the oracle of
//! `boardsat-tests`, coordinates only); on independence boards a dot on
//! exactly the attacked empty squares.

use boardsat_encode::{draw, Board, Kind, Piece, Placement, Problem};
use boardsat_tests::{xml_elements, Graph, XmlElement};

fn problem(rows: usize, cols: usize, piece: Piece, kind: Kind) -> Problem {
    Problem::new(Board::new(rows, cols).unwrap(), piece, kind)
}

fn with_class<'a>(elements: &'a [XmlElement], class: &str) -> Vec<&'a XmlElement> {
    elements
        .iter()
        .filter(|e| e.attribute("class") == Some(class))
        .collect()
}

/// The coordinate labels are the 0-based column numbers then the row
/// numbers, and one piece disc is drawn per piece.
fn check_frame(elements: &[XmlElement], p: &Problem, placement: &Placement) {
    let coords: Vec<String> = with_class(elements, "coord")
        .iter()
        .map(|e| e.text.clone())
        .collect();
    let expected: Vec<String> = (0..p.board.cols())
        .chain(0..p.board.rows())
        .map(|i| i.to_string())
        .collect();
    assert_eq!(coords, expected, "{p}");
    assert_eq!(with_class(elements, "piece").len(), placement.len(), "{p}");
    let squares = elements.iter().filter(|e| e.name == "rect").count();
    assert_eq!(squares, p.board.n_squares(), "{p}");
}

#[test]
fn domination_figures_show_brute_force_coverage() {
    let cases = [
        (4, 4, Piece::Queen),
        (5, 5, Piece::Queen),
        (3, 5, Piece::Queen),
        (5, 5, Piece::Rook),
        (5, 5, Piece::Bishop),
        (4, 4, Piece::Knight),
        (4, 5, Piece::King),
    ];
    for (rows, cols, piece) in cases {
        for kind in [Kind::Domination, Kind::IndependentDomination] {
            let p = problem(rows, cols, piece, kind);
            let g = Graph::new(rows, cols, piece);
            let sets = g.minimum_dominating_sets(kind.independent());
            assert!(!sets.is_empty(), "{p}");
            for &mask in sets.iter().take(5) {
                let placement = g.placement(mask);
                let svg = draw::svg(&p, &placement);
                let elements = xml_elements(&svg).unwrap_or_else(|e| panic!("{p}: {e}\n{svg}"));
                assert_eq!(elements[0].name, "svg");
                check_frame(&elements, &p, &placement);
                assert!(with_class(&elements, "attacked").is_empty(), "{p}");
                let cover = g.coverage(mask);
                let numbers = with_class(&elements, "coverage");
                // Dominated: every empty square is attacked, so numbered.
                assert_eq!(numbers.len(), g.n_squares() - placement.len(), "{p}");
                for e in numbers {
                    let row: usize = e.attribute("data-row").unwrap().parse().unwrap();
                    let col: usize = e.attribute("data-col").unwrap().parse().unwrap();
                    assert_eq!(mask >> (row * cols + col) & 1, 0, "{p}: number on a piece");
                    let shown: usize = e.text.trim().parse().unwrap();
                    assert_eq!(shown, cover[row * cols + col], "{p} at {row},{col}");
                }
            }
        }
    }
}

#[test]
fn an_uncovered_square_stays_blank() {
    // One rook at (0,0) on 3x3: (1,1), (1,2), (2,1), (2,2) are uncovered.
    let p = problem(3, 3, Piece::Rook, Kind::Domination);
    let g = Graph::new(3, 3, Piece::Rook);
    let svg = draw::svg(&p, &g.placement(1));
    let elements = xml_elements(&svg).unwrap();
    let numbered: Vec<(String, String)> = with_class(&elements, "coverage")
        .iter()
        .map(|e| {
            (
                e.attribute("data-row").unwrap().to_string(),
                e.attribute("data-col").unwrap().to_string(),
            )
        })
        .collect();
    let expected = [("0", "1"), ("0", "2"), ("1", "0"), ("2", "0")];
    let expected: Vec<(String, String)> = expected
        .iter()
        .map(|(r, c)| (r.to_string(), c.to_string()))
        .collect();
    assert_eq!(numbered, expected);
}

#[test]
fn independence_figures_dot_the_attacked_squares() {
    for (rows, cols, piece) in [
        (6, 6, Piece::Queen),
        (4, 6, Piece::Knight),
        (5, 3, Piece::King),
    ] {
        let p = problem(rows, cols, piece, Kind::Independence);
        let g = Graph::new(rows, cols, piece);
        // Some independent placement: greedily from the first square.
        let mut mask = 0u64;
        for i in 0..g.n_squares() {
            if g.is_independent(mask | 1 << i) {
                mask |= 1 << i;
            }
        }
        let placement = g.placement(mask);
        let svg = draw::svg(&p, &placement);
        let elements = xml_elements(&svg).unwrap_or_else(|e| panic!("{p}: {e}"));
        check_frame(&elements, &p, &placement);
        assert!(with_class(&elements, "coverage").is_empty(), "{p}");
        let attacked = g
            .coverage(mask)
            .iter()
            .enumerate()
            .filter(|&(i, &c)| c > 0 && mask >> i & 1 == 0)
            .count();
        assert!(attacked > 0, "{p}");
        assert_eq!(with_class(&elements, "attacked").len(), attacked, "{p}");
    }
}
