//! The committed corpus `cnf/`: regeneration is byte-identical, and every
//! file's status and projected model count agree with `cnf/MANIFEST` for the
//! embedded solver and an external one. Brute-force entries of the manifest
//! are re-derived by brute force here.

mod common;

use std::{path::PathBuf, process::Command};

use boardsat_solve::{count_projected, dimacs, End, Interrupter, Mode, SolverSpec, Status};

struct Entry {
    file: String,
    status: String,
    count: u64,
    source: String,
    args: Vec<String>,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn manifest() -> Vec<Entry> {
    let text = std::fs::read_to_string(root().join("cnf/MANIFEST")).expect("cnf/MANIFEST");
    let entries: Vec<Entry> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            Entry {
                file: f[0].to_string(),
                status: f[1].to_string(),
                count: f[2].parse().expect("a count"),
                source: f[3].to_string(),
                args: f[4..].iter().map(|s| s.to_string()).collect(),
            }
        })
        .collect();
    assert!(
        entries.len() >= 20,
        "the manifest lists {} files",
        entries.len()
    );
    entries
}

#[test]
fn regenerating_gives_byte_identical_files() {
    for e in manifest() {
        let out = Command::new(env!("CARGO_BIN_EXE_boardsat"))
            .arg("dimacs")
            .args(&e.args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", e.file);
        let committed = std::fs::read(root().join("cnf").join(&e.file)).unwrap();
        assert!(
            out.stdout == committed,
            "{} differs from a fresh `boardsat dimacs {}`",
            e.file,
            e.args.join(" ")
        );
    }
}

/// The projected count of a corpus file by the library's one counting
/// loop (with the enumeration tuning), and whether the file is
/// satisfiable (a count of at least one).
fn projected_count(text: &str) -> (Status, u64) {
    let formula = dimacs::parse(text.as_bytes()).unwrap();
    assert!(formula.projection.as_ref().is_some_and(|p| !p.is_empty()));
    let stop = Interrupter::new();
    let mut backend = SolverSpec::default()
        .create(Mode::Enumerate, &stop)
        .unwrap();
    let count = count_projected(&formula, backend.as_mut(), None, None, |_| {}).unwrap();
    assert_eq!(count.end, End::Exhausted, "the solver gave up");
    let status = if count.count > 0 {
        Status::Sat
    } else {
        Status::Unsat
    };
    (status, count.count)
}

#[test]
fn embedded_solver_agrees_with_the_manifest() {
    for e in manifest() {
        let text = std::fs::read_to_string(root().join("cnf").join(&e.file)).unwrap();
        let (status, count) = projected_count(&text);
        let expected = if e.status == "SAT" {
            Status::Sat
        } else {
            Status::Unsat
        };
        assert_eq!(status, expected, "{}", e.file);
        assert_eq!(count, e.count, "{}", e.file);
    }
}

#[test]
fn external_minisat_agrees_with_the_manifest() {
    if !common::external("minisat", "minisat") {
        return;
    }
    for e in manifest() {
        let path = root().join("cnf").join(&e.file);
        let out = Command::new(env!("CARGO_BIN_EXE_boardsat"))
            .args(["solve-dimacs", "--solver-cmd", "minisat"])
            .arg(&path)
            .output()
            .unwrap();
        let expected = if e.status == "SAT" { 10 } else { 20 };
        assert_eq!(
            out.status.code(),
            Some(expected),
            "{}: {}",
            e.file,
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

// ---------------------------------------------------------------- brute force

fn attacks(piece: &str, a: (usize, usize), b: (usize, usize)) -> bool {
    let (dr, dc) = (a.0.abs_diff(b.0), a.1.abs_diff(b.1));
    match piece {
        "queen" => dr == 0 || dc == 0 || dr == dc,
        "rook" => dr == 0 || dc == 0,
        "bishop" => dr == dc,
        "knight" => (dr, dc) == (1, 2) || (dr, dc) == (2, 1),
        "king" => dr.max(dc) == 1,
        other => panic!("piece {other}"),
    }
}

/// Counts placements by enumerating subsets: exactly k for independence,
/// at most k for domination.
fn brute_force(args: &[String]) -> u64 {
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .map(|i| args[i + 1].clone())
    };
    let family = args[0].as_str();
    let rows: usize = args[1].parse().unwrap();
    let cols: usize = value("--cols").map_or(rows, |c| c.parse().unwrap());
    let piece = value("--piece").unwrap_or_else(|| "queen".into());
    let k: usize = value("-k").unwrap().parse().unwrap();
    let independent = family == "independence" || args.iter().any(|a| a == "--independent");
    let dominating = family == "domination";
    let squares: Vec<(usize, usize)> = (0..rows)
        .flat_map(|r| (0..cols).map(move |c| (r, c)))
        .collect();
    let sizes: Vec<usize> = if dominating {
        (0..=k).collect()
    } else {
        vec![k]
    };
    let mut total = 0;
    for size in sizes {
        let search = Search {
            squares: &squares,
            piece: &piece,
            independent,
            dominating,
            size,
        };
        total += search.extend(0, &mut Vec::new());
    }
    total
}

/// What the brute force counts: subsets of `size` squares, pairwise
/// non-attacking when `independent`, covering the board when `dominating`.
#[derive(Clone, Copy)]
struct Search<'a> {
    squares: &'a [(usize, usize)],
    piece: &'a str,
    independent: bool,
    dominating: bool,
    size: usize,
}

impl Search<'_> {
    /// The subsets that extend `chosen` with squares from index `from` on.
    fn extend(&self, from: usize, chosen: &mut Vec<usize>) -> u64 {
        let Search {
            squares,
            piece,
            independent,
            dominating,
            size,
        } = *self;
        if chosen.len() == size {
            let covered = !dominating
                || squares.iter().all(|&s| {
                    chosen
                        .iter()
                        .any(|&i| squares[i] == s || attacks(piece, squares[i], s))
                });
            return u64::from(covered);
        }
        let mut total = 0;
        for i in from..squares.len() {
            if independent
                && chosen
                    .iter()
                    .any(|&j| attacks(piece, squares[j], squares[i]))
            {
                continue;
            }
            chosen.push(i);
            total += self.extend(i + 1, chosen);
            chosen.pop();
        }
        total
    }
}

#[test]
fn brute_force_entries_are_right() {
    let mut checked = 0;
    for e in manifest().into_iter().filter(|e| e.source == "brute-force") {
        assert_eq!(brute_force(&e.args), e.count, "{}", e.file);
        checked += 1;
    }
    assert!(checked >= 5);
}
