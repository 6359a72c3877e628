//! Pictures of placements: a text board for the terminal and an SVG figure
//! (for files, and for notebooks that display SVG).

use std::fmt::Write as _;

use crate::{Board, Piece, Placement, Square};

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

/// Which squares the placement attacks (occupied squares excluded).
fn attacked(board: &Board, piece: Piece, placement: &Placement) -> Vec<bool> {
    let mut out = vec![false; board.n_squares()];
    for &from in placement.squares() {
        for to in piece.attacks(board, from) {
            out[board.index(to)] = true;
        }
    }
    for &sq in placement.squares() {
        out[board.index(sq)] = false;
    }
    out
}

/// The board as text, one row per line: the piece letter on occupied
/// squares, `*` on attacked ones when `mark_attacked`, `.` elsewhere.
#[must_use]
pub fn text(board: &Board, piece: Piece, placement: &Placement, mark_attacked: bool) -> String {
    let hit = attacked(board, piece, placement);
    let occupied: std::collections::HashSet<Square> = placement.squares().iter().copied().collect();
    let mut out = String::new();
    for row in 0..board.rows() {
        for col in 0..board.cols() {
            let sq = Square::new(row, col);
            let c = if occupied.contains(&sq) {
                letter(piece)
            } else if mark_attacked && hit[board.index(sq)] {
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

/// The board as an SVG figure: pieces as dark discs, attacked squares
/// dotted, like the figures in puzzle books.
#[must_use]
pub fn svg(board: &Board, piece: Piece, placement: &Placement) -> String {
    const CELL: usize = 40;
    let (w, h) = (board.cols() * CELL, board.rows() * CELL);
    let hit = attacked(board, piece, placement);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">"#
    );
    let _ = writeln!(
        out,
        "<title>{} {}s on {}</title>",
        placement.len(),
        piece,
        board
    );
    for row in 0..board.rows() {
        for col in 0..board.cols() {
            let fill = if (row + col) % 2 == 0 {
                "#f0d9b5"
            } else {
                "#b58863"
            };
            let (x, y) = (col * CELL, row * CELL);
            let _ = writeln!(
                out,
                r#"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}"/>"#
            );
            if hit[board.index(Square::new(row, col))] {
                let (cx, cy) = (x + CELL / 2, y + CELL / 2);
                let _ = writeln!(
                    out,
                    r##"<circle cx="{cx}" cy="{cy}" r="3" fill="#333" class="attacked"/>"##
                );
            }
        }
    }
    for sq in placement.squares() {
        let (cx, cy) = (sq.col * CELL + CELL / 2, sq.row * CELL + CELL / 2);
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
