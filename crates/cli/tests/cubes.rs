//! `cubes`, `count-dimacs` and `merge`: a count split into jobs, run one by
//! one here as a scheduler would, and merged, equals A000170; a missing
//! answer is an error naming the cube.

use std::{
    path::Path,
    process::{Command, Output},
};

fn boardsat(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_boardsat"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the boardsat binary runs")
}

/// Runs every line of jobs.txt from inside `dir`, as `parallel` would.
fn run_jobs(dir: &Path) {
    let jobs = std::fs::read_to_string(dir.join("jobs.txt")).unwrap();
    for line in jobs.lines() {
        let (command, output) = line.split_once(" > ").expect("a redirect");
        let args: Vec<&str> = command.split_whitespace().skip(1).collect();
        let out = boardsat(dir, &args);
        assert!(
            out.status.success(),
            "{line}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        std::fs::write(dir.join(output), &out.stdout).unwrap();
    }
}

#[test]
fn split_run_and_merge_gives_a000170() {
    for extra in [
        vec![],
        vec!["--no-halve"],
        vec!["--depth", "1", "--amo", "ladder"],
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let mut args = vec!["cubes", "queens", "9", "-o", "split"];
        args.extend(&extra);
        let out = boardsat(tmp.path(), &args);
        assert!(
            out.status.success(),
            "{extra:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let dir = tmp.path().join("split");
        run_jobs(&dir);
        let out = boardsat(tmp.path(), &["merge", "split"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            String::from_utf8_lossy(&out.stdout).trim(),
            "352",
            "{extra:?}"
        );
    }
}

#[test]
fn merge_names_missing_and_incomplete_cubes() {
    let tmp = tempfile::tempdir().unwrap();
    assert!(boardsat(tmp.path(), &["cubes", "queens", "6", "-o", "d"])
        .status
        .success());
    let dir = tmp.path().join("d");
    run_jobs(&dir);
    std::fs::remove_file(dir.join("results/cube-00001.json")).unwrap();
    std::fs::write(dir.join("results/cube-00002.json"), "").unwrap();
    let out = boardsat(tmp.path(), &["merge", "d"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("missing: cube-00001; incomplete: cube-00002"),
        "{err}"
    );
    let out = boardsat(tmp.path(), &["merge", "nowhere"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn count_dimacs_projects_onto_the_show_variables() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    // Ladder lines have auxiliary variables; the projection counts boards.
    let out = boardsat(&root, &["count-dimacs", "cnf/queens-8-ladder-lines.cnf"]);
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "92");
    // Without projection lines every variable counts: x1 ∨ x2 has 3 models.
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("or.cnf"), "p cnf 2 1\n1 2 0\n").unwrap();
    let out = boardsat(tmp.path(), &["count-dimacs", "or.cnf", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["count"].as_u64(), v["complete"].as_bool()),
        (Some(3), Some(true))
    );
}
