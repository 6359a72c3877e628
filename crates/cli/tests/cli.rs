//! End-to-end tests of the `boardsat` binary: outputs, exit codes, pinned
//! error messages, files, signals.

mod common;

use common::{boardsat, run, stderr, stdout};

use std::{
    path::Path,
    process::{Command, Stdio},
    time::{Duration, Instant},
};

/// Whether queens on (row, col) squares attack each other: from scratch.
fn queens_ok(squares: &[(usize, usize)]) -> bool {
    squares.iter().enumerate().all(|(i, a)| {
        squares[i + 1..]
            .iter()
            .all(|b| a.0 != b.0 && a.1 != b.1 && a.0.abs_diff(b.0) != a.1.abs_diff(b.1))
    })
}

#[test]
fn solve_queens_draws_a_valid_board_and_its_columns() {
    let o = run(&["solve", "queens", "8"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    let rows: Vec<&str> = text.lines().take(8).collect();
    let squares: Vec<(usize, usize)> = rows
        .iter()
        .enumerate()
        .map(|(r, line)| {
            let cells: Vec<&str> = line.split(' ').collect();
            assert_eq!(cells.len(), 8, "{line}");
            assert_eq!(cells.iter().filter(|c| **c == "Q").count(), 1, "{line}");
            (r, cells.iter().position(|c| *c == "Q").unwrap())
        })
        .collect();
    assert!(queens_ok(&squares), "{text}");
    let columns: Vec<usize> = text
        .lines()
        .find_map(|l| l.strip_prefix("columns: "))
        .expect("a columns line")
        .split(' ')
        .map(|c| c.parse().unwrap())
        .collect();
    assert_eq!(columns, squares.iter().map(|s| s.1).collect::<Vec<_>>());
}

fn amo_of(args: &[&str]) -> String {
    let o = run(args);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    v["amo"].as_str().unwrap().to_string()
}

#[test]
fn the_lazy_amo_is_the_default_for_n_queens_with_cadical_only() {
    assert_eq!(amo_of(&["solve", "queens", "12", "--json"]), "lazy");
    assert_eq!(amo_of(&["count", "queens", "8", "--json"]), "lazy");
    assert_eq!(amo_of(&["enumerate", "queens", "6", "--json"]), "lazy");
    let rooks = [
        "solve",
        "independence",
        "5",
        "--cols",
        "7",
        "--piece",
        "rook",
        "-k",
        "5",
        "--json",
    ];
    assert_eq!(amo_of(&rooks), "lazy");
    // No exact lines: measured as fast or slower lazily.
    let bishops = ["solve", "independence", "6", "--piece", "bishop", "--json"];
    assert_eq!(amo_of(&bishops), "auto");
    let seven = ["solve", "independence", "8", "-k", "7", "--json"];
    assert_eq!(amo_of(&seven), "auto");
    let cardinality = [
        "solve",
        "queens",
        "8",
        "--formulation",
        "cardinality",
        "--json",
    ];
    assert_eq!(amo_of(&cardinality), "auto");
    let varisat = ["solve", "queens", "12", "--solver", "varisat", "--json"];
    assert_eq!(amo_of(&varisat), "auto");
    let explicit = ["solve", "queens", "12", "--amo", "ladder", "--json"];
    assert_eq!(amo_of(&explicit), "ladder");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("q.cnf");
    let dimacs = [
        "dimacs",
        "queens",
        "8",
        "-o",
        file.to_str().unwrap(),
        "--json",
    ];
    assert_eq!(amo_of(&dimacs), "auto");
    // The size check knows the lazy AMO has no AMO clauses: N = 3000,
    // refused eagerly, is not refused and solves.
    let eager = run(&["solve", "queens", "3000", "--amo", "auto"]);
    assert_eq!(eager.status.code(), Some(2), "{}", stderr(&eager));
    let o = run(&["solve", "queens", "300", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (v["amo"].as_str(), v["value"].as_u64()),
        (Some("lazy"), Some(300))
    );
    assert_eq!(
        v["clauses"], 600,
        "the rows' and columns' at-least-one clauses"
    );
}

#[test]
fn solve_queens_without_solution_exits_20() {
    let o = run(&["solve", "queens", "3"]);
    assert_eq!(o.status.code(), Some(20));
    assert_eq!(
        stdout(&o).trim(),
        "no placement of 3 non-attacking queens on the 3x3 board exists"
    );
}

#[test]
fn count_queens_matches_a000170() {
    for (n, expected) in [("6", "4"), ("8", "92"), ("10", "724")] {
        let o = run(&["count", "queens", n]);
        assert_eq!(o.status.code(), Some(0));
        assert_eq!(stdout(&o).trim(), expected, "n = {n}");
    }
}

#[test]
fn count_queens_12_with_json() {
    let o = run(&["count", "queens", "12", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["count"], 14200);
    assert_eq!(v["complete"], true);
    assert_eq!(v["vars"], 144);
}

#[test]
fn enumerate_prints_distinct_valid_placements_and_respects_the_limit() {
    let o = run(&["enumerate", "queens", "6"]);
    assert_eq!(o.status.code(), Some(0));
    let lines: Vec<String> = stdout(&o).lines().map(String::from).collect();
    assert_eq!(lines.len(), 4);
    let mut unique = lines.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), 4);
    for line in &lines {
        let squares: Vec<(usize, usize)> = line
            .split(' ')
            .map(|rc| {
                let (r, c) = rc.split_once(',').unwrap();
                (r.parse().unwrap(), c.parse().unwrap())
            })
            .collect();
        assert_eq!(squares.len(), 6);
        assert!(queens_ok(&squares), "{line}");
    }
    let o = run(&["enumerate", "queens", "8", "--limit", "5"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o).lines().count(), 5);
}

#[test]
fn solve_domination_8_proves_4_unsatisfiable() {
    let o = run(&["solve", "domination", "8"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("5 dominating queens on the 8x8 board"),
        "{text}"
    );
    assert!(text.contains("optimal: 4 is unsatisfiable"), "{text}");
    let o = run(&["solve", "domination", "8", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["value"], 5);
    assert_eq!(v["optimal"], true);
    assert_eq!(v["placement"].as_array().unwrap().len(), 5);
    let last = v["calls"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["bound"], "at most 4");
    assert_eq!(last["status"], "unsat");
}

#[test]
fn optimum_of_other_families() {
    for (args, value) in [
        (
            vec!["solve", "domination", "8", "--independent", "--json"],
            5,
        ),
        (
            vec!["solve", "independence", "8", "--piece", "knight", "--json"],
            32,
        ),
        (
            vec!["solve", "domination", "8", "--piece", "king", "--json"],
            9,
        ),
        (
            vec!["solve", "independence", "8", "--piece", "bishop", "--json"],
            14,
        ),
        (
            vec![
                "solve",
                "domination",
                "4",
                "--cols",
                "6",
                "--piece",
                "rook",
                "--json",
            ],
            4,
        ),
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["value"], value, "{args:?}");
        assert_eq!(v["optimal"], true, "{args:?}");
    }
}

#[test]
fn count_domination_8_is_a002564() {
    let o = run(&["count", "domination", "8"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o).trim(), "4860");
}

/// Domination counts over cubes: the same count (A002564(7) = 86) with and
/// without symmetry reduction, at any depth; `--unique` prints the JSON's
/// `fundamental`, and fixed-k counts report it too.
#[test]
fn count_domination_unique_matches_fundamental_and_every_reduction_agrees() {
    for extra in [
        vec![],
        vec!["--no-symmetry"],
        vec!["--depth", "0", "--threads", "1"],
        vec!["--depth", "2"],
    ] {
        let mut args = vec!["count", "domination", "7"];
        args.extend(&extra);
        let o = run(&args);
        assert_eq!(o.status.code(), Some(0), "{extra:?}: {}", stderr(&o));
        assert_eq!(stdout(&o).trim(), "86", "{extra:?}");
    }
    for args in [
        &["count", "domination", "7"][..],
        &["count", "domination", "6", "-k", "5", "--piece", "king"][..],
    ] {
        let unique = run(&[args, &["--unique"]].concat());
        let json = run(&[args, &["--json"]].concat());
        let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
        assert_eq!(
            stdout(&unique).trim(),
            v["fundamental"].to_string(),
            "{args:?}"
        );
        assert!(v["fundamental"].as_u64().unwrap() < v["count"].as_u64().unwrap());
    }
}

#[test]
fn dimacs_header_projection_and_solve_dimacs_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("q.cnf");
    let o = run(&[
        "dimacs",
        "queens",
        "8",
        "--amo",
        "ladder",
        "-o",
        file.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("c generator: boardsat "));
    assert!(lines.contains(&"c amo: ladder"));
    assert!(lines.contains(&"c t pmc"));
    assert!(lines.iter().any(|l| l.starts_with("c p show 1 2 3")));
    assert!(lines.iter().any(|l| l.starts_with("c ind 1 2 3")));
    let header = lines.iter().find(|l| l.starts_with("p cnf")).unwrap();
    let n_clauses: usize = header.split(' ').nth(3).unwrap().parse().unwrap();
    assert_eq!(
        n_clauses,
        lines
            .iter()
            .filter(|l| !l.starts_with('c') && !l.starts_with('p'))
            .count()
    );
    let o = run(&["solve-dimacs", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(10));
    let out = stdout(&o);
    assert!(out.lines().any(|l| l == "s SATISFIABLE"));
    let model: Vec<i64> = out
        .lines()
        .filter_map(|l| l.strip_prefix("v"))
        .flat_map(|l| {
            l.split_whitespace()
                .map(|x| x.parse::<i64>().unwrap())
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(model.last(), Some(&0));
    let queens: Vec<(usize, usize)> = model
        .iter()
        .filter(|&&l| l > 0 && l <= 64)
        .map(|&l| (((l - 1) / 8) as usize, ((l - 1) % 8) as usize))
        .collect();
    assert_eq!(queens.len(), 8);
    assert!(queens_ok(&queens));

    let unsat = dir.path().join("d.cnf");
    let o = run(&[
        "dimacs",
        "domination",
        "8",
        "-k",
        "4",
        "--card",
        "totalizer",
        "-o",
        unsat.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    let o = run(&["solve-dimacs", unsat.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(20));
    assert!(stdout(&o).lines().any(|l| l == "s UNSATISFIABLE"));
}

#[test]
fn dimacs_json_reports_sizes() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("q.cnf");
    let o = run(&[
        "dimacs",
        "queens",
        "8",
        "-o",
        file.to_str().unwrap(),
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["vars"], 64);
    assert_eq!(v["aux_vars"], 0);
    // Pairwise lines: 8 rows and 8 columns (ALO + 28 pairs each), 15+15
    // diagonals with sum over lengths l of l(l-1)/2 pairs each family.
    let diag_pairs: u64 = (1..=8u64).map(|l| l * (l - 1) / 2).sum::<u64>() * 2 - 28;
    assert_eq!(v["clauses"], 16 * 29 + 2 * diag_pairs);
}

#[test]
fn nothing_is_written_to_the_working_directory_without_o() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        vec!["solve", "queens", "6"],
        vec!["count", "queens", "6"],
        vec!["enumerate", "queens", "6"],
        vec!["dimacs", "queens", "6"],
    ] {
        let o = boardsat()
            .args(&args)
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0));
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn svg_draws_pieces_and_coverage_or_attacked_squares() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("d.svg");
    let o = run(&["solve", "domination", "5", "--svg", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    let svg = std::fs::read_to_string(&file).unwrap();
    assert!(svg.starts_with("<svg"));
    let pieces = svg.matches("class=\"piece\"").count();
    // Domination: a coverage number on every empty square, no dots.
    let numbers = svg.matches("class=\"coverage\"").count();
    assert_eq!(pieces, 3);
    assert_eq!(pieces + numbers, 25);
    assert_eq!(svg.matches("class=\"attacked\"").count(), 0);
    // Row and column numbers.
    assert_eq!(svg.matches("class=\"coord\"").count(), 10);
    // Independence: a dot on every attacked square (all of them for 5
    // queens on 5x5).
    let o = run(&["solve", "queens", "5", "--svg", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    let svg = std::fs::read_to_string(&file).unwrap();
    assert_eq!(svg.matches("class=\"attacked\"").count(), 20);
    assert_eq!(svg.matches("class=\"coverage\"").count(), 0);
}

fn error_of(args: &[&str]) -> String {
    let o = run(args);
    assert_eq!(o.status.code(), Some(2), "{args:?} should fail with exit 2");
    let err = stderr(&o);
    assert!(!err.contains("panicked"), "{err}");
    err.lines().next().unwrap_or_default().to_string()
}

#[test]
fn bad_input_errors_are_pinned() {
    assert_eq!(
        error_of(&["solve", "queens", "0"]),
        "error: the board must have at least one row and one column (got 0x0)"
    );
    assert_eq!(
        error_of(&["solve", "independence", "3", "-k", "10"]),
        "error: k = 10 is more pieces than the 3x3 board has squares (9)"
    );
    assert_eq!(
        error_of(&["dimacs", "queens", "8", "--amo", "foo"]),
        "error: invalid value 'foo' for '--amo <AMO>': unknown encoding 'foo' (expected one of: pairwise, ladder, bitwise, commander, product, bimander, auto, lazy)"
    );
    assert_eq!(
        error_of(&["dimacs", "domination", "8", "-k", "4", "--card", "pairwise"]),
        "error: invalid value 'pairwise' for '--card <CARD>': 'pairwise' is an at-most-one encoding; a cardinality encoding is needed (seqcounter, totalizer, mtotalizer, cardnetwork)"
    );
    assert_eq!(
        error_of(&["dimacs", "domination", "8"]),
        "error: dimacs domination needs -k (the number of pieces) to fix the bound (or --format opb, wcnf or lp for the optimum)"
    );
    assert!(
        error_of(&["solve", "queens", "8", "--solver-cmd", "no-such-solver-xyz"])
            .contains("no-such-solver-xyz")
    );
    assert_eq!(
        error_of(&["solve", "queens", "8", "--piece", "knight"]),
        "error: queens places queens; use independence with --piece knight for other pieces"
    );
}

#[test]
fn malformed_dimacs_names_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.cnf");
    std::fs::write(&file, "c x\np cnf 2 1\n1 -3 0\n").unwrap();
    let err = error_of(&["solve-dimacs", file.to_str().unwrap()]);
    assert_eq!(
        err,
        format!(
            "error: {}: line 3: literal -3 is beyond the 2 variables of the header",
            file.display()
        )
    );
}

/// What to wait for before signalling: a condition, never a fixed sleep.
#[derive(Clone, Copy)]
enum Ready {
    /// The first line on stdout (a placement already printed).
    FirstLine,
    /// A `c progress:` line on stderr that reports at least one solution.
    Counted,
}

/// Runs boardsat, waits until `ready`, sends `signal`, and returns the exit
/// code, the whole stdout, and the time from the signal to the exit.
fn signal_during(args: &[&str], ready: Ready, signal: &str) -> (Option<i32>, String, Duration) {
    use std::io::{BufRead, BufReader, Read};
    let mut child = boardsat()
        .args(args)
        .arg("--progress")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut out = String::new();
    match ready {
        Ready::FirstLine => {
            stdout.read_line(&mut out).unwrap();
        }
        Ready::Counted => loop {
            let mut line = String::new();
            assert!(stderr.read_line(&mut line).unwrap() > 0, "no progress line");
            let counted = line
                .strip_prefix("c progress: counting: ")
                .and_then(|rest| rest.split(' ').next())
                .and_then(|n| n.parse::<u64>().ok());
            if counted.is_some_and(|n| n > 0) {
                break;
            }
        },
    }
    // Keep stderr drained so that the child never blocks on it.
    let drain = std::thread::spawn(move || {
        let mut rest = String::new();
        let _ = stderr.read_to_string(&mut rest);
    });
    let sent = Instant::now();
    let status = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    stdout.read_to_string(&mut out).unwrap();
    let code = child.wait().unwrap().code();
    let took = sent.elapsed();
    drain.join().unwrap();
    (code, out, took)
}

#[test]
fn sigint_during_count_prints_the_partial_count_and_exits_130() {
    for solver in ["cadical", "varisat"] {
        let (code, out, took) = signal_during(
            &["count", "queens", "16", "--solver", solver],
            Ready::Counted,
            "-INT",
        );
        assert_eq!(code, Some(130), "{solver}: {out}");
        let (n, mark) = out.trim().split_once(' ').unwrap();
        assert!(n.parse::<u64>().unwrap() > 0, "{out}");
        assert_eq!(mark, "(interrupted)");
        assert!(took < Duration::from_secs(5), "{took:?}");
    }
}

#[test]
fn sigterm_during_enumerate_keeps_every_printed_line_whole() {
    let (code, out, _) = signal_during(&["enumerate", "queens", "16"], Ready::FirstLine, "-TERM");
    assert_eq!(code, Some(130));
    assert!(out.ends_with('\n'));
    let lines: Vec<&str> = out.lines().collect();
    assert!(!lines.is_empty());
    for line in lines {
        assert_eq!(line.split(' ').count(), 16, "{line}");
    }
}

#[test]
fn time_limit_stops_a_count_with_exit_3() {
    let start = Instant::now();
    let o = run(&["count", "queens", "16", "--time-limit", "1"]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(stdout(&o).trim().ends_with("(time limit)"));
    assert!(start.elapsed() < Duration::from_secs(10));
}

#[test]
fn atomic_output_leaves_no_partial_file_on_error() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(&["dimacs", "queens", "4", "-o", dir.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("is a directory"));
    let missing = dir.path().join("no/such/dir/x.cnf");
    let o = run(&["dimacs", "queens", "4", "-o", missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!Path::new(&missing).exists());
}

#[test]
fn count_queens_unique_is_a002562_and_every_reduction_agrees() {
    // A002562: fundamental solutions, n = 8: 12, n = 10: 92.
    for (n, unique) in [("8", "12"), ("10", "92")] {
        let o = run(&["count", "queens", n, "--unique"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(stdout(&o).trim(), unique, "n = {n}");
    }
    // A000170 for n = 9 by every reduction and split.
    for extra in [
        vec![],
        vec!["--no-symmetry"],
        vec!["--halve"],
        vec!["--depth", "0", "--threads", "1"],
        vec!["--depth", "3", "--solver", "varisat"],
    ] {
        let mut args = vec!["count", "queens", "9"];
        args.extend(&extra);
        let o = run(&args);
        assert_eq!(o.status.code(), Some(0), "{extra:?}: {}", stderr(&o));
        assert_eq!(stdout(&o).trim(), "352", "{extra:?}");
    }
    assert_eq!(
        error_of(&["count", "queens", "8", "--unique", "--halve"]),
        "error: --unique counts orbits, which needs symmetry breaking: drop --no-symmetry and --halve"
    );
}

#[test]
fn portfolio_solve_reports_the_winner_and_the_proof() {
    let o = run(&["solve", "domination", "9", "--portfolio", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["value"], 5);
    assert_eq!(v["optimal"], true);
    assert!(["totalizer", "seqcounter"].contains(&v["card"].as_str().unwrap()));
    assert!(stderr(&o).contains("c portfolio: totalizer and seqcounter"));
}

/// SIGTERM during `count`, on both counting paths (the N-queens cube
/// counter and the generic blocking-clause counter).
#[test]
fn sigterm_during_count_prints_the_partial_count_and_exits_130() {
    for args in [
        &["count", "queens", "16"][..],
        &["count", "independence", "16", "--piece", "rook", "-k", "16"][..],
    ] {
        let (code, out, took) = signal_during(args, Ready::Counted, "-TERM");
        assert_eq!(code, Some(130), "{args:?}: {out}");
        let (n, mark) = out
            .trim()
            .split_once(' ')
            .unwrap_or_else(|| panic!("{args:?}: {out}"));
        assert!(n.parse::<u64>().is_ok(), "{args:?}: {out}");
        assert_eq!(mark, "(interrupted)", "{args:?}");
        assert!(took < Duration::from_secs(5), "{args:?}: {took:?}");
    }
}

/// A count without k proves its optimum first and says so: each bound the
/// optimiser asks is a `c progress: optimum:` line, all of them before the
/// first `counting:` line, and the count is A002564(8). A count's lines
/// give the cubes done of the cubes known (A002564(9) at depth 2).
#[test]
fn a_count_reports_its_optimum_before_counting() {
    let o = run(&["--progress", "count", "domination", "8", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["count"], 4860, "{v}");
    let err = stderr(&o);
    let lines: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("c progress:"))
        .collect();
    let first = lines.first().expect("progress lines");
    assert!(
        first.starts_with("c progress: optimum: call 1, at most "),
        "{err}"
    );
    let optimum = lines
        .iter()
        .rposition(|l| l.starts_with("c progress: optimum:"))
        .unwrap();
    let counting = lines
        .iter()
        .position(|l| l.starts_with("c progress: counting:"));
    assert!(counting.is_none_or(|c| c > optimum), "{err}");
    // A count's lines say the cubes done of those known: here no cube is
    // split again, so the known are the split's cubes from the first line.
    let args = [
        "--progress",
        "count",
        "domination",
        "9",
        "-k",
        "5",
        "--depth",
        "2",
    ];
    let o = run(&[&args[..], &["--json"]].concat());
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["count"], 114, "{v}");
    let err = stderr(&o);
    let mut seen = 0;
    for line in err
        .lines()
        .filter_map(|l| l.strip_prefix("c progress: counting: "))
    {
        let (_, cubes) = line.split_once(", ").expect("the cubes");
        let words: Vec<&str> = cubes.split_whitespace().collect();
        assert_eq!(&words[1..4], ["of", "55", "cubes"], "{err}");
        let done: u64 = words[0].parse().unwrap();
        assert!(done <= 55, "{err}");
        seen += 1;
    }
    assert!(seen > 0, "the first line is shown at once: {err}");
    assert_eq!(v["cubes"], 55, "{v}");
}
