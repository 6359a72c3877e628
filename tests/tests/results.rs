//! The published results under `docs/results/` (issue 33) hold what they
//! claim, checked here by the independent checker alone: every placement
//! dominates its board with exactly the stated number of pieces (an
//! optimum's value), every placement of a count is distinct and minimum,
//! their number is the count, and the orbits are the classes of those
//! placements under the board's eight symmetries. The proofs themselves
//! are too big to keep; each file says how its proof was made and what
//! `boardsat verify` said of it, which must be "verified: …".

use std::{collections::BTreeSet, path::PathBuf};

use boardsat_encode::{check, Board, Bound, Kind, Piece, Placement, Problem, Square};
use serde_json::Value;

fn results() -> Vec<(PathBuf, Value)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/results");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let v = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
            (p, v)
        })
        .collect()
}

fn placement(n: usize, squares: &Value) -> Placement {
    Placement::new(
        squares
            .as_array()
            .unwrap()
            .iter()
            .map(|rc| {
                let row = usize::try_from(rc[0].as_u64().unwrap()).unwrap();
                let col = usize::try_from(rc[1].as_u64().unwrap()).unwrap();
                assert!(row < n && col < n, "{rc} off the {n}x{n} board");
                Square { row, col }
            })
            .collect(),
    )
}

/// A symmetry of the n×n board: (n, row, col) to the image square.
type Map = fn(usize, usize, usize) -> (usize, usize);

/// The placement's orbit representative: the least of its eight images.
fn canonical(n: usize, p: &Placement) -> Vec<(usize, usize)> {
    let maps: [Map; 8] = [
        |_, r, c| (r, c),
        |n, r, c| (c, n - 1 - r),
        |n, r, c| (n - 1 - r, n - 1 - c),
        |n, r, c| (n - 1 - c, r),
        |n, r, c| (r, n - 1 - c),
        |n, r, c| (n - 1 - r, c),
        |_, r, c| (c, r),
        |n, r, c| (n - 1 - c, n - 1 - r),
    ];
    maps.iter()
        .map(|f| {
            let mut image: Vec<_> = p.squares().iter().map(|s| f(n, s.row, s.col)).collect();
            image.sort_unstable();
            image
        })
        .min()
        .unwrap()
}

#[test]
fn every_published_result_holds_on_its_board() {
    let all = results();
    assert!(!all.is_empty(), "docs/results/ holds no result");
    for (path, r) in all {
        let name = path.display();
        let n = usize::try_from(r["n"].as_u64().unwrap()).unwrap();
        assert_eq!(r["piece"], "queen", "{name}");
        assert_eq!(r["problem"], "domination", "{name}");
        let problem = Problem::new(Board::square(n).unwrap(), Piece::Queen, Kind::Domination);
        let value = usize::try_from(r["value"].as_u64().unwrap()).unwrap();
        let placements: Vec<Placement> = r["placements"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| placement(n, p))
            .collect();
        assert!(
            r["verify"].as_str().unwrap().starts_with("verified: "),
            "{name}: {}",
            r["verify"]
        );
        match r["sequence"].as_str().unwrap() {
            // γ(Q_n): a placement of `value` queens that dominates.
            "A075458" => {
                assert_eq!(placements.len(), 1, "{name}");
                check(&problem, Some(Bound::Exactly(value)), &placements[0])
                    .unwrap_or_else(|v| panic!("{name}: {v}"));
                assert!(r["verify"]
                    .as_str()
                    .unwrap()
                    .contains(&format!("the minimum is {value} queens")));
            }
            // The minimum dominating sets: `value` distinct ones, all of
            // one size, and `orbits` classes under the symmetries.
            "A002564" => {
                let distinct: BTreeSet<&Placement> = placements.iter().collect();
                assert_eq!(distinct.len(), placements.len(), "{name}: repeats");
                assert_eq!(placements.len(), value, "{name}");
                let size = placements[0].len();
                for p in &placements {
                    check(&problem, Some(Bound::Exactly(size)), p)
                        .unwrap_or_else(|v| panic!("{name}: {v}"));
                }
                let orbits: BTreeSet<_> = placements.iter().map(|p| canonical(n, p)).collect();
                assert_eq!(orbits.len() as u64, r["orbits"].as_u64().unwrap(), "{name}");
            }
            other => panic!("{name}: no check for sequence {other}"),
        }
    }
}

/// γ(Q_26) ≤ 14 by boardsat's own placement (found by local search, issue
/// 52): 14 distinct queens that dominate the 26×26 board. With the proof
/// that 13 cannot (docs/results/gamma-26.md), γ(Q_26) = 14.
#[test]
fn the_placement_of_14_queens_dominates_26x26() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../docs/results/gamma-26/placement-14.json");
    let r: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(r["n"], 26);
    assert_eq!(r["queens"], 14);
    let p = placement(26, &r["placement"]);
    let distinct: BTreeSet<_> = p.squares().iter().map(|s| (s.row, s.col)).collect();
    assert_eq!(distinct.len(), 14, "repeated squares");
    let problem = Problem::new(Board::square(26).unwrap(), Piece::Queen, Kind::Domination);
    check(&problem, Some(Bound::Exactly(14)), &p).unwrap_or_else(|v| panic!("{v}"));
}
