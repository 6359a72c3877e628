//! Pictures of placements: a text board for the terminal and an SVG figure
//! (for files, and for notebooks that display SVG).

use std::fmt::Write as _;

use crate::{
    board::Board, board::Square, check::Placement, piece::Piece, problem::Kind, problem::Problem,
};

/// One letter per piece, as in chess notation.
#[must_use]
pub fn letter(piece: Piece) -> char {
    match piece {
        Piece::Queen => 'Q',
        Piece::Rook => 'R',
        Piece::Bishop => 'B',
        Piece::Knight => 'N',
        Piece::King => 'K',
    }
}

/// The board as text, one row per line: the piece letter on occupied
/// squares, `*` on attacked ones when `mark_attacked`, `.` elsewhere.
#[must_use]
pub fn text(board: &Board, piece: Piece, placement: &Placement, mark_attacked: bool) -> String {
    // The attacks only where they are drawn, and the pieces as a table by
    // square: at n = 5000 the queens attack 100 million squares, and a
    // hashed lookup per square was most of the two seconds a solved board
    // took to print.
    let cover = mark_attacked.then(|| coverage(board, piece, placement));
    let mut occupied = vec![false; board.n_squares()];
    for &sq in placement.squares() {
        if board.contains(sq) {
            occupied[board.index(sq)] = true;
        }
    }
    let mut out = String::with_capacity(2 * board.n_squares());
    for row in 0..board.rows() {
        for col in 0..board.cols() {
            let index = board.index(Square::new(row, col));
            let c = if occupied[index] {
                letter(piece)
            } else if cover.as_ref().is_some_and(|cover| cover[index] > 0) {
                '*'
            } else {
                '.'
            };
            if col > 0 {
                out.push(' ');
            }
            out.push(c);
        }
        out.push('\n');
    }
    out
}

/// How many pieces of the placement attack each square, by board index
/// (a piece does not count for its own square).
#[must_use]
pub fn coverage(board: &Board, piece: Piece, placement: &Placement) -> Vec<usize> {
    let mut out = vec![0; board.n_squares()];
    for &from in placement.squares() {
        for to in piece.attacks(board, from) {
            out[board.index(to)] += 1;
        }
    }
    out
}

/// The side of a square in the SVG figure, in pixels.
const CELL: usize = 40;
/// The band above and left of the board that holds the coordinates.
const MARGIN: usize = 24;

/// The placement as an SVG figure, like the figures in puzzle books:
/// pieces as dark discs with their letter, and 0-based row numbers down the
/// left and column numbers along the top, the coordinates of the text
/// output's `placement: row,col` (row 0 at the top). What the other squares
/// show depends on the puzzle:
/// - independence: a dot on every attacked square;
/// - domination: how many pieces attack the square (its coverage, the
///   `coverage` class with `data-row` and `data-col`), since on a dominated
///   board every square is attacked and a dot everywhere says nothing. A
///   square no piece covers stays blank (none does on a dominating
///   placement).
#[must_use]
pub fn svg(problem: &Problem, placement: &Placement) -> String {
    let (board, piece) = (&problem.board, problem.piece);
    let (w, h) = (MARGIN + board.cols() * CELL, MARGIN + board.rows() * CELL);
    let cover = coverage(board, piece, placement);
    let occupied: std::collections::HashSet<Square> = placement.squares().iter().copied().collect();
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">"#
    );
    let verb = match problem.kind {
        Kind::Independence => "independent",
        Kind::Domination => "dominating",
        Kind::IndependentDomination => "independent dominating",
    };
    let _ = writeln!(
        out,
        "<title>{} {verb} {}s on the {} board</title>",
        placement.len(),
        piece,
        board
    );
    let marks = if problem.kind.dominating() {
        "numbers: how many pieces attack the square"
    } else {
        "dots: attacked squares"
    };
    let _ = writeln!(
        out,
        "<desc>rows and columns numbered from 0, row 0 at the top; {marks}</desc>"
    );
    let coord = r##"font-family="sans-serif" font-size="12" fill="#555" class="coord""##;
    for col in 0..board.cols() {
        let x = MARGIN + col * CELL + CELL / 2;
        let _ = writeln!(
            out,
            r#"<text x="{x}" y="{}" {coord} text-anchor="middle">{col}</text>"#,
            MARGIN - 8
        );
    }
    for row in 0..board.rows() {
        let y = MARGIN + row * CELL + CELL / 2 + 4;
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{y}" {coord} text-anchor="end">{row}</text>"#,
            MARGIN - 6
        );
    }
    for row in 0..board.rows() {
        for col in 0..board.cols() {
            let fill = if (row + col) % 2 == 0 {
                "#f0d9b5"
            } else {
                "#b58863"
            };
            let (x, y) = (MARGIN + col * CELL, MARGIN + row * CELL);
            let _ = writeln!(
                out,
                r#"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}"/>"#
            );
            let sq = Square::new(row, col);
            let count = cover[board.index(sq)];
            if occupied.contains(&sq) || count == 0 {
                continue;
            }
            let (cx, cy) = (x + CELL / 2, y + CELL / 2);
            if problem.kind.dominating() {
                let _ = writeln!(
                    out,
                    r##"<text x="{cx}" y="{}" font-family="sans-serif" font-size="14" text-anchor="middle" fill="#222" class="coverage" data-row="{row}" data-col="{col}">{count}</text>"##,
                    cy + 5
                );
            } else {
                let _ = writeln!(
                    out,
                    r##"<circle cx="{cx}" cy="{cy}" r="3" fill="#333" class="attacked"/>"##
                );
            }
        }
    }
    for sq in placement.squares() {
        let cx = MARGIN + sq.col * CELL + CELL / 2;
        let cy = MARGIN + sq.row * CELL + CELL / 2;
        let _ = writeln!(
            out,
            r##"<circle cx="{cx}" cy="{cy}" r="{}" fill="#111" class="piece"/>"##,
            CELL * 3 / 8
        );
        let _ = writeln!(
            out,
            r##"<text x="{cx}" y="{}" font-family="sans-serif" font-size="18" text-anchor="middle" fill="#fff">{}</text>"##,
            cy + 6,
            letter(piece)
        );
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_marks_pieces_and_only_where_asked_the_attacked_squares() {
        let board = Board::square(4).unwrap();
        let placement = Placement::new(vec![Square::new(0, 1), Square::new(3, 3)]);
        assert_eq!(
            text(&board, Piece::Rook, &placement, false),
            ". R . .\n. . . .\n. . . .\n. . . R\n"
        );
        assert_eq!(
            text(&board, Piece::Rook, &placement, true),
            "* R * *\n. * . *\n. * . *\n* * * R\n"
        );
    }
}
