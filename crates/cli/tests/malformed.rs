//! `boardsat solve-dimacs` on the malformed corpus `cnf/malformed/`: one
//! file per error, each a one-line error naming the file and the line, and
//! exit code 2. Every file in the directory must be listed here.

use std::{path::PathBuf, process::Command};

/// File, then the error after `error: cnf/malformed/<file>: `.
const EXPECTED: &[(&str, &str)] = &[
    ("empty.cnf", "line 1: empty input: no 'p cnf' header"),
    (
        "comments-only.cnf",
        "line 2: no 'p cnf <vars> <clauses>' header",
    ),
    (
        "missing-header.cnf",
        "line 2: clause before the 'p cnf <vars> <clauses>' header",
    ),
    (
        "malformed-header.cnf",
        "line 1: malformed header 'p cnf three 1' (expected 'p cnf <vars> <clauses>')",
    ),
    (
        "header-missing-field.cnf",
        "line 1: malformed header 'p cnf 2' (expected 'p cnf <vars> <clauses>')",
    ),
    (
        "header-not-cnf.cnf",
        "line 1: malformed header 'p dnf 2 1' (expected 'p cnf <vars> <clauses>')",
    ),
    (
        "header-negative.cnf",
        "line 1: malformed header 'p cnf -2 1' (expected 'p cnf <vars> <clauses>')",
    ),
    (
        "header-huge-vars.cnf",
        "line 1: 3000000000 variables is more than a DIMACS literal can name",
    ),
    ("second-header.cnf", "line 3: a second 'p' header"),
    (
        "too-few-clauses.cnf",
        "line 2: the header declares 3 clauses but the file has 2",
    ),
    (
        "too-many-clauses.cnf",
        "line 1: the header declares 1 clause but the file has 2",
    ),
    (
        "literal-beyond-vars.cnf",
        "line 3: literal -4 is beyond the 3 variables of the header",
    ),
    (
        "missing-terminating-zero.cnf",
        "line 3: the last clause has no terminating 0",
    ),
    ("not-an-integer.cnf", "line 2: 'two' is not an integer literal"),
    ("decimal-literal.cnf", "line 2: '2.5' is not an integer literal"),
    (
        "comment-after-literals.cnf",
        "line 2: a comment after literals ('c' must start its own line)",
    ),
    (
        "huge-literal.cnf",
        "line 2: literal 99999999999999999999 is out of range (a DIMACS variable is at most 2147483647)",
    ),
    (
        "huge-literal-i64.cnf",
        "line 2: literal 9223372036854775807 is beyond the 3 variables of the header",
    ),
    ("non-utf8.cnf", "line 3: the line is not valid UTF-8"),
    (
        "projection-beyond-vars.cnf",
        "line 1: projection variable 3 is beyond the 2 variables of the header",
    ),
    (
        "ind-beyond-vars.cnf",
        "line 1: projection variable 3 is beyond the 2 variables of the header",
    ),
    (
        "header-unnamed-vars.cnf",
        "line 1: the header declares 134217728 variables, but the file names none beyond 1: at most 1048576 declared variables may go unnamed",
    ),
];

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn every_malformed_file_gives_its_one_line_error_and_exit_2() {
    for (file, message) in EXPECTED {
        let relative = format!("cnf/malformed/{file}");
        let out = Command::new(env!("CARGO_BIN_EXE_boardsat"))
            .args(["solve-dimacs", &relative])
            .current_dir(workspace())
            .output()
            .expect("the boardsat binary runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{file}: {stderr}");
        assert_eq!(
            stderr,
            format!("error: {relative}: {message}\n"),
            "{file}: exactly one line"
        );
        assert!(out.stdout.is_empty(), "{file}: nothing on stdout");
    }
}

/// Every command that reads DIMACS reads it alike: the projection and
/// size errors of `count-dimacs` (which counts over the projection, and
/// with none over every declared variable) are `solve-dimacs`'s, with or
/// without a limit (issue 32, D3 and D10).
#[test]
fn count_dimacs_refuses_what_solve_dimacs_refuses() {
    for (file, message) in EXPECTED.iter().rev().take(3) {
        let relative = format!("cnf/malformed/{file}");
        for limit in [&["--limit", "10"][..], &[]] {
            let out = Command::new(env!("CARGO_BIN_EXE_boardsat"))
                .args(["count-dimacs", &relative])
                .args(limit)
                .current_dir(workspace())
                .output()
                .expect("the boardsat binary runs");
            assert_eq!(out.status.code(), Some(2), "{file} {limit:?}");
            assert_eq!(
                String::from_utf8_lossy(&out.stderr),
                format!("error: {relative}: {message}\n"),
                "{file} {limit:?}"
            );
            assert!(out.stdout.is_empty(), "{file}: no count");
        }
    }
}

#[test]
fn the_same_errors_come_through_stdin() {
    let (file, message) = EXPECTED[11];
    let bytes = std::fs::read(workspace().join("cnf/malformed").join(file)).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_boardsat"))
        .args(["solve-dimacs", "-"])
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), &bytes).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!("error: -: {message}\n")
    );
}

#[test]
fn every_file_in_the_directory_is_pinned() {
    let mut files: Vec<String> = std::fs::read_dir(workspace().join("cnf/malformed"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let mut pinned: Vec<String> = EXPECTED.iter().map(|(f, _)| f.to_string()).collect();
    pinned.sort();
    assert_eq!(files, pinned);
}
