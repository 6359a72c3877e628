//! `dimacs --format opb|wcnf|lp` and `check-solution` end to end: CBC
//! solves the LP files and its answers are checked against OEIS
//! (A075458 for γ(Q_n), N-queens feasibility), solvers that lie are
//! caught, and formats that do not fit the question are one-line errors.

mod common;

use std::{fs, path::Path, process::Command};

use common::{external, ok, one_line_error, run, stderr, stdout};

/// OEIS A075458, n = 1..: the queens' domination number γ(Q_n).
const GAMMA: [usize; 8] = [1, 1, 1, 2, 3, 3, 4, 5];

fn write(dir: &Path, name: &str, args: &[&str]) -> String {
    let path = dir.join(name).display().to_string();
    let mut all: Vec<&str> = vec!["dimacs"];
    all.extend(args);
    all.extend(["-o", &path]);
    ok(&all);
    path
}

/// `cbc FILE solve solu SOLUTION`: CBC's solution file.
fn cbc(lp: &str, solution: &str) {
    let o = Command::new("cbc")
        .args([lp, "solve", "solu", solution])
        .output()
        .expect("cbc runs");
    assert!(
        o.status.success(),
        "cbc: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

fn json(o: &std::process::Output) -> serde_json::Value {
    serde_json::from_str(&stdout(o)).unwrap_or_else(|e| panic!("{e}: {}", stdout(o)))
}

#[test]
fn cbc_finds_the_oeis_domination_numbers_on_the_lp_files() {
    if !external("cbc", "coinor-cbc") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for (i, &gamma) in GAMMA.iter().enumerate() {
        let n = (i + 1).to_string();
        let lp = write(
            dir.path(),
            &format!("d{n}.lp"),
            &["domination", &n, "--format", "lp"],
        );
        let solution = dir.path().join(format!("d{n}.sol")).display().to_string();
        cbc(&lp, &solution);
        let o = run(&["check-solution", &lp, &solution, "--json"]);
        assert_eq!(o.status.code(), Some(0), "n = {n}: {}", stderr(&o));
        let report = json(&o);
        assert_eq!(report["status"], "accepted", "n = {n}");
        assert_eq!(report["value"], gamma, "n = {n}: OEIS A075458");
        assert_eq!(report["claim"], "optimum");
        assert_eq!(report["optimal"], "unverified", "an outside solver's claim");
        assert_eq!(report["placement"].as_array().unwrap().len(), gamma);
    }
}

#[test]
fn cbc_places_eight_queens_from_the_lp_file_and_the_checker_accepts() {
    if !external("cbc", "coinor-cbc") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let lp = write(dir.path(), "q8.lp", &["queens", "8", "--format", "lp"]);
    let solution = dir.path().join("q8.sol").display().to_string();
    cbc(&lp, &solution);
    let text = ok(&["check-solution", &lp, &solution]);
    assert!(
        text.contains("8 independent queens on the 8x8 board: accepted by the independent checker"),
        "{text}"
    );
    assert!(
        !text.contains("optimal"),
        "a feasibility problem has no optimum: {text}"
    );
    // 4 dominating queens cannot exist on 8x8 (γ = 5): CBC says infeasible,
    // which check-solution reports as CBC's claim.
    let lp = write(
        dir.path(),
        "d8k4.lp",
        &["domination", "8", "-k", "4", "--format", "lp"],
    );
    let solution = dir.path().join("d8k4.sol").display().to_string();
    cbc(&lp, &solution);
    let o = run(&["check-solution", &lp, &solution]);
    assert_eq!(o.status.code(), Some(20), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("(the solver's claim, unverified)"),
        "{}",
        stdout(&o)
    );
}

/// A fake solver's output for a file, as a PB or MaxSAT solver prints it.
fn fake_output(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// `v` line of PB literals with `on` true among `n` variables.
fn pb_values(n: usize, on: &[usize]) -> String {
    let words: Vec<String> = (1..=n)
        .map(|v| format!("{}x{v}", if on.contains(&v) { "" } else { "-" }))
        .collect();
    format!("v {}", words.join(" "))
}

#[test]
fn solvers_that_lie_are_caught() {
    let dir = tempfile::tempdir().unwrap();
    let opb = write(
        dir.path(),
        "d5.opb",
        &["domination", "5", "--format", "opb"],
    );
    // Queens on (0, 0), (1, 1) and (3, 3) dominate 5x5 (γ(Q_5) = 3; the
    // honest answer below is accepted by the checker), but a solver
    // claiming the optimum 2 with them contradicts its own answer.
    let three = [1, 7, 19];
    let lie = fake_output(
        dir.path(),
        "lie.txt",
        &format!("s OPTIMUM FOUND\no 2\n{}\n", pb_values(25, &three)),
    );
    let o = run(&["check-solution", &opb, &lie]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stdout(&o).contains(
            "rejected: the solver's objective value 2 is not its own placement's (3, 3 pieces)"
        ),
        "{}",
        stdout(&o)
    );
    // Two queens that dominate nothing much, claimed optimal.
    let wrong = fake_output(
        dir.path(),
        "wrong.txt",
        &format!("s OPTIMUM FOUND\no 2\n{}\n", pb_values(25, &[1, 2])),
    );
    let o = run(&["check-solution", &opb, &wrong, "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let report = json(&o);
    assert_eq!(report["status"], "rejected");
    assert!(report["reason"]
        .as_str()
        .unwrap()
        .contains("neither occupied nor attacked"));
    assert_eq!(report["optimal"], serde_json::Value::Null);
    // The honest answer passes, read from stdin, its optimum a claim.
    let good = format!("s OPTIMUM FOUND\no 3\n{}\n", pb_values(25, &three));
    let mut child = common::boardsat()
        .args(["check-solution", &opb, "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), good.as_bytes()).unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stdout(&o).contains("optimal: the solver's claim, unverified"),
        "{}",
        stdout(&o)
    );
    // A MaxSAT solver that says UNKNOWN has no answer: exit 3.
    let wcnf = write(
        dir.path(),
        "d5.wcnf",
        &["domination", "5", "--format", "wcnf"],
    );
    let unknown = fake_output(dir.path(), "unknown.txt", "c gave up\ns UNKNOWN\n");
    assert_eq!(
        run(&["check-solution", &wcnf, &unknown]).status.code(),
        Some(3)
    );
}

#[test]
fn formats_that_do_not_fit_the_question_are_one_line_errors() {
    let o = run(&["dimacs", "domination", "8", "-k", "5", "--format", "wcnf"]);
    one_line_error(&o, "wcnf states an optimum");
    let o = run(&["dimacs", "queens", "8", "--format", "wcnf"]);
    one_line_error(&o, "not a fixed number of pieces (8 here)");
    let o = run(&["dimacs", "queens", "8", "--format", "icnf"]);
    one_line_error(&o, "invalid value 'icnf'");
    let o = run(&["dimacs", "domination", "8"]);
    one_line_error(&o, "needs -k (the number of pieces) to fix the bound");
    let o = run(&["dimacs", "queens", "8", "--format", "opb", "--amo", "lazy"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "the linear model has no AMO encoding: {}",
        stderr(&o)
    );
    let o = run(&[
        "dimacs",
        "independence",
        "8",
        "--format",
        "wcnf",
        "--amo",
        "lazy",
    ]);
    one_line_error(&o, "--amo lazy leaves");
}

#[test]
fn check_solution_refuses_files_it_cannot_read() {
    let dir = tempfile::tempdir().unwrap();
    let cnf = write(dir.path(), "q5.cnf", &["queens", "5"]);
    let answer = fake_output(dir.path(), "a.txt", "s SATISFIABLE\nv x1\n");
    one_line_error(&run(&["check-solution", &cnf, &answer]), "the model file");
    let lp = write(dir.path(), "q5.lp", &["queens", "5", "--format", "lp"]);
    let garbled = fake_output(dir.path(), "g.txt", "s SATISFIABLE\nv x1 x99\n");
    one_line_error(
        &run(&["check-solution", &lp, &garbled]),
        "line 2 of the solution",
    );
    one_line_error(
        &run(&["check-solution", &lp, "/nonexistent/answer"]),
        "cannot read /nonexistent/answer",
    );
    one_line_error(
        &run(&["check-solution", "/nonexistent/model.lp", &answer]),
        "cannot open /nonexistent/model.lp",
    );
}

/// D11: an objective that is not a number — CBC's `nan`, `four`, `inf`,
/// HiGHS's `Objective NaN` — is rejected (exit 1), even with a placement
/// the checker accepts; a number that is the placement's is accepted.
#[test]
fn objectives_that_are_not_numbers_are_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let lp = write(dir.path(), "d4.lp", &["domination", "4", "--format", "lp"]);
    // Queens on (0, 0) and (2, 2) dominate 4x4 (γ(Q_4) = 2).
    let placement = "      0 x1  1  0\n     10 x11  1  0\n";
    for (value, verdict) in [
        ("nan", Some("'nan' is not a number")),
        ("four", Some("'four' is not a number")),
        ("inf", Some("'inf' is not a number")),
        ("2.00000000", None),
    ] {
        let sol = fake_output(
            dir.path(),
            "cbc.sol",
            &format!("Optimal - objective value {value}\n{placement}"),
        );
        let o = run(&["check-solution", &lp, &sol, "--json"]);
        let report = json(&o);
        match verdict {
            Some(reason) => {
                assert_eq!(o.status.code(), Some(1), "{value}: {}", stderr(&o));
                assert_eq!(report["status"], "rejected", "{value}");
                assert!(
                    report["reason"].as_str().unwrap().contains(reason),
                    "{report}"
                );
            }
            None => assert_eq!(o.status.code(), Some(0), "{value}: {report}"),
        }
    }
    let highs = fake_output(
        dir.path(),
        "highs.sol",
        "Model status\nOptimal\n\n# Primal solution values\nFeasible\nObjective NaN\n# Columns 16\nx1 1\nx11 1\n",
    );
    let o = run(&["check-solution", &lp, &highs]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("rejected: the solver's objective value 'NaN' is not a number"),
        "{}",
        stdout(&o)
    );
}

/// D9: a provenance that declares more variables than its file holds
/// (`variables: 4294967295`, a 16000x16000 board in a few lines) is a
/// one-line error before anything is sized by it.
#[test]
fn provenances_larger_than_their_file_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let opb = write(dir.path(), "q4.opb", &["queens", "4", "--format", "opb"]);
    let lp = write(dir.path(), "d4.lp", &["domination", "4", "--format", "lp"]);
    let answer = fake_output(dir.path(), "a.txt", "s SATISFIABLE\nv x2 x8 x9 x15\n");
    for (file, from, to, says) in [
        (
            &opb,
            "variables: 16",
            "variables: 4294967295",
            "4294967295 variables (4x4 board)",
        ),
        (
            &lp,
            "variables: 16",
            "variables: 256000000",
            "256000000 variables (4x4 board)",
        ),
    ] {
        let text = fs::read_to_string(file).unwrap();
        assert!(text.contains(from));
        let forged = format!("{file}.forged");
        fs::write(&forged, text.replace(from, to)).unwrap();
        let o = run(&["check-solution", &forged, &answer]);
        one_line_error(&o, &format!("declares {says}, more than its"));
        assert!(stdout(&o).is_empty());
    }
    // A 16000x16000 board needs 256 million variables, which the file
    // must hold.
    let text = fs::read_to_string(&lp).unwrap();
    let forged = format!("{lp}.board");
    fs::write(
        &forged,
        text.replace("board: 4x4", "board: 16000x16000")
            .replace("variables: 16", "variables: 256000000"),
    )
    .unwrap();
    let o = run(&["check-solution", &forged, &answer]);
    one_line_error(&o, "declares 256000000 variables (16000x16000 board)");
    // A comment block beyond 1 MiB is an error, not a shorter header.
    let long = format!("{}{text}", "\\ padding\n".repeat(120_000));
    let padded = format!("{lp}.padded");
    fs::write(&padded, long).unwrap();
    one_line_error(
        &run(&["check-solution", &padded, &answer]),
        "the model file's comment block is longer than 1 MiB",
    );
}

/// D12: a solution past the reader's 256 MiB is an error (exit 2), not
/// read in part — here a valid `v` line, 257 MiB of comments, then a
/// wrong objective that the cut would have hidden.
#[test]
fn a_solution_past_the_limit_is_an_error() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let opb = write(
        dir.path(),
        "d5.opb",
        &["domination", "5", "--format", "opb"],
    );
    let mut child = common::boardsat()
        .args(["check-solution", &opb, "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let head = format!("s OPTIMUM FOUND\n{}\n", pb_values(25, &[1, 7, 19]));
        let comment = format!("c {}\n", "x".repeat(1022));
        // The reader stops at its limit and exits: a closed pipe ends this.
        let _ = stdin.write_all(head.as_bytes());
        for _ in 0..(257 << 10) {
            if stdin.write_all(comment.as_bytes()).is_err() {
                return;
            }
        }
        let _ = stdin.write_all(b"o 4\n");
    });
    let o = child.wait_with_output().unwrap();
    writer.join().unwrap();
    one_line_error(&o, "cannot read -: the solution is longer than 256 MiB");
    assert!(stdout(&o).is_empty());
}

#[test]
fn dimacs_json_reports_the_linear_model_and_the_wcnf_encoding() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("d8.opb").display().to_string();
    let o = run(&[
        "dimacs",
        "domination",
        "8",
        "--format",
        "opb",
        "-o",
        &path,
        "--json",
    ]);
    let report = json(&o);
    assert_eq!(report["format"], "opb");
    assert_eq!(report["k"], serde_json::Value::Null);
    assert_eq!(report["constraints"], 64);
    assert_eq!(report["objective"], "minimise");
    let path = dir.path().join("k8.wcnf").display().to_string();
    let o = run(&[
        "dimacs",
        "independence",
        "8",
        "--piece",
        "knight",
        "--format",
        "wcnf",
        "-o",
        &path,
        "--json",
    ]);
    let report = json(&o);
    assert_eq!(report["format"], "wcnf");
    assert_eq!(report["piece"], "knight");
    // 168 attacking pairs of knights on 8x8, one binary clause each.
    assert_eq!(report["clauses"], 168);
    let text = fs::read_to_string(&path).unwrap();
    assert_eq!(
        text.lines().filter(|l| l.starts_with("1 ")).count(),
        64,
        "a soft unit per square"
    );
    assert!(text
        .contains("c command line: boardsat dimacs independence 8 --piece knight --format wcnf"));
}
