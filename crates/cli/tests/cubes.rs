//! `cubes`, `job`, `count-dimacs` and `merge`: a count split into jobs,
//! run one by one here as a scheduler would, and merged, equals A000170;
//! a missing answer is an error naming the cube. Jobs re-run, killed or
//! run twice at once lose no answer; `--replace` removes only what a split
//! wrote.

mod common;

use std::{
    path::Path,
    process::{Command, Output},
};

use common::{run_in, run_jobs, shell, stderr, stdout};

/// Runs the jobs of `tmp/split` and merges them: the total `merge` prints.
fn run_and_merge(tmp: &Path) -> String {
    run_jobs(&tmp.join("split"));
    let out = run_in(tmp, &["merge", "split"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
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
        let out = run_in(tmp.path(), &args);
        assert!(
            out.status.success(),
            "{extra:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(run_and_merge(tmp.path()), "352", "{extra:?}");
    }
}

/// OEIS A002564: minimum dominating sets of queens, n = 8 (γ = 5) and
/// n = 9 (γ = 5): 4860 and 114. Each split's merge equals the in-process
/// count of the same problem.
#[test]
fn domination_split_run_and_merge_gives_a002564_and_the_in_process_count() {
    for (n, k, count, extra) in [
        ("8", "5", "4860", vec![]),
        ("8", "5", "4860", vec!["--no-halve", "--depth", "1"]),
        ("9", "5", "114", vec!["--format", "icnf", "--depth", "3"]),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let mut args = vec!["cubes", "domination", n, "-k", k, "-o", "split"];
        args.extend(&extra);
        let out = run_in(tmp.path(), &args);
        assert!(
            out.status.success(),
            "{extra:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(run_and_merge(tmp.path()), count, "n = {n} {extra:?}");
        let direct = run_in(tmp.path(), &["count", "domination", n, "-k", k]);
        assert_eq!(
            String::from_utf8_lossy(&direct.stdout).trim(),
            count,
            "n = {n}"
        );
    }
    // Without k, or with k for N-queens: one line, exit 2.
    for args in [
        &["cubes", "domination", "8", "-o", "x"][..],
        &["cubes", "queens", "8", "-k", "3", "-o", "x"][..],
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let out = run_in(tmp.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr)
            .contains("cubes splits 'cubes queens N' and 'cubes domination N -k K' only"));
    }
    // Another family is not among the choices `--help` offers.
    let tmp = tempfile::tempdir().unwrap();
    let out = run_in(
        tmp.path(),
        &["cubes", "independence", "8", "-k", "3", "-o", "x"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains(
        "invalid value 'independence' for '<FAMILY>' [possible values: queens, domination]"
    ));
}

#[test]
fn merge_names_missing_and_incomplete_cubes() {
    let tmp = tempfile::tempdir().unwrap();
    assert!(run_in(tmp.path(), &["cubes", "queens", "6", "-o", "d"])
        .status
        .success());
    let dir = tmp.path().join("d");
    run_jobs(&dir);
    std::fs::remove_file(dir.join("results/cube-00001.json")).unwrap();
    std::fs::write(dir.join("results/cube-00002.json"), "").unwrap();
    let out = run_in(tmp.path(), &["merge", "d"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("missing: cube-00001; incomplete: cube-00002"),
        "{err}"
    );
    let out = run_in(tmp.path(), &["merge", "nowhere"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn count_dimacs_projects_onto_the_show_variables() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    // Ladder lines have auxiliary variables; the projection counts boards.
    let out = run_in(&root, &["count-dimacs", "cnf/queens-8-ladder-lines.cnf"]);
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "92");
    // Without projection lines every variable counts: x1 ∨ x2 has 3 models.
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("or.cnf"), "p cnf 2 1\n1 2 0\n").unwrap();
    let out = run_in(tmp.path(), &["count-dimacs", "or.cnf", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["count"].as_u64(), v["complete"].as_bool()),
        (Some(3), Some(true))
    );
}

/// `cubes … --format icnf -o DIR` from inside `tmp`; panics on failure.
fn icnf_cubes(tmp: &Path, n: &str, extra: &[&str]) {
    let mut args = vec!["cubes", "queens", n, "--format", "icnf", "-o", "split"];
    args.extend(extra);
    let out = run_in(tmp, &args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The cube ids and weights of a MANIFEST, in order, with its other columns.
fn manifest(dir: &Path) -> Vec<Vec<String>> {
    std::fs::read_to_string(dir.join("MANIFEST"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect()
}

#[test]
fn icnf_split_run_and_merge_gives_a000170() {
    for (n, extra, expected) in [
        ("8", vec!["--depth", "2"], "92"),
        ("9", vec!["--depth", "2"], "352"),
        ("9", vec!["--depth", "2", "--no-halve"], "352"),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        icnf_cubes(tmp.path(), n, &extra);
        let dir = tmp.path().join("split");
        // One file for every cube, no per-cube DIMACS files.
        let names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(
            names.iter().all(|f| !f.ends_with(".cnf")),
            "{n} {extra:?}: {names:?}"
        );
        for (i, row) in manifest(&dir).iter().enumerate() {
            assert_eq!(row[3..5], [String::from("cubes.icnf"), i.to_string()]);
        }
        assert_eq!(run_and_merge(tmp.path()), expected, "{n} {extra:?}");
    }
}

#[test]
fn icnf_cubes_count_as_the_cnf_cubes() {
    // The same cubes in both formats: every cube's count agrees.
    let tmp = tempfile::tempdir().unwrap();
    icnf_cubes(tmp.path(), "8", &[]);
    assert!(run_in(tmp.path(), &["cubes", "queens", "8", "-o", "cnf"])
        .status
        .success());
    let (icnf, cnf) = (tmp.path().join("split"), tmp.path().join("cnf"));
    run_jobs(&icnf);
    run_jobs(&cnf);
    let rows = manifest(&icnf);
    let cnf_rows = manifest(&cnf);
    assert_eq!(rows.len(), cnf_rows.len());
    let mut positive = 0;
    for (row, cnf_row) in rows.iter().zip(&cnf_rows) {
        assert_eq!(row[..3], cnf_row[..3], "id, weight and columns");
        let count = |dir: &Path| {
            let text = std::fs::read(dir.join(format!("results/{}.json", row[0]))).unwrap();
            let v: serde_json::Value = serde_json::from_slice(&text).unwrap();
            assert_eq!(v["complete"].as_bool(), Some(true), "{}", row[0]);
            v["count"].as_u64().unwrap()
        };
        let n = count(&icnf);
        assert_eq!(n, count(&cnf), "{}", row[0]);
        positive += usize::from(n > 0);
    }
    assert!(positive > 1, "the cubes do not all count the same");
}

#[test]
fn icnf_file_has_the_header_the_cubes_and_their_weights() {
    let tmp = tempfile::tempdir().unwrap();
    icnf_cubes(tmp.path(), "9", &["--depth", "2"]);
    let dir = tmp.path().join("split");
    let text = std::fs::read_to_string(dir.join("cubes.icnf")).unwrap();
    let statements: Vec<&str> = text.lines().filter(|l| !l.starts_with('c')).collect();
    assert_eq!(statements[0], "p inccnf");
    assert!(text.contains("\nc p show 1 2 3 "), "projection lines");
    assert!(text.contains("\nc ind 1 2 3 "), "projection lines");
    let cubes: Vec<&str> = statements
        .iter()
        .copied()
        .filter(|l| l.starts_with("a "))
        .collect();
    let rows = manifest(&dir);
    assert_eq!(cubes.len(), rows.len());
    // Every clause comes before the first cube; every cube is one line of
    // two positive board literals (depth 2) ending in 0.
    let first = statements.iter().position(|l| l.starts_with("a ")).unwrap();
    assert!(statements[first..].iter().all(|l| l.starts_with("a ")));
    assert!(first > 1, "the base clauses");
    for (cube, row) in cubes.iter().zip(&rows) {
        let lits: Vec<i64> = cube[2..]
            .split_whitespace()
            .map(|t| t.parse().unwrap())
            .collect();
        assert_eq!(lits.len(), 3, "{cube}");
        assert_eq!(lits[2], 0, "{cube}");
        // Square (r, c) is variable 9r + c + 1.
        let columns: Vec<i64> = row[2].split(',').map(|c| c.parse().unwrap()).collect();
        assert_eq!(lits[..2], [columns[0] + 1, 9 + columns[1] + 1], "{cube}");
    }
    // The weights are in the file too, in the order of the `a` lines.
    let comments: Vec<Vec<&str>> = text
        .lines()
        .filter_map(|l| l.strip_prefix("c cube "))
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(comments.len(), rows.len());
    for (c, row) in comments.iter().zip(&rows) {
        assert_eq!(
            [c[0], c[1], c[2], c[3], c[4]],
            [row[0].as_str(), "weight", &row[1], "columns", &row[2]]
        );
    }
    // The jobs call the binary that wrote them, unless BOARDSAT says otherwise.
    let jobs = std::fs::read_to_string(dir.join("jobs.txt")).unwrap();
    let line = jobs.lines().nth(3).unwrap();
    let program = format!("\"${{BOARDSAT:-{}}}\"", env!("CARGO_BIN_EXE_boardsat"));
    assert_eq!(line, format!("{program} job . cube-00003"));
}

/// `merge` in `dir`: exit 2 and an error line containing `text`.
fn merge_fails(tmp: &Path, dir: &str, text: &str) {
    let out = run_in(tmp, &["merge", dir]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{text}: {err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(text), "{text}: {err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn merge_accepts_only_the_answers_of_its_own_cubes() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    for (dir, n) in [("q8", "8"), ("q9", "9")] {
        assert!(run_in(t, &["cubes", "queens", n, "-o", dir])
            .status
            .success());
        run_jobs(&t.join(dir));
    }
    // A second split into the same directory is refused, not mixed in.
    let out = run_in(t, &["cubes", "queens", "8", "-o", "q9"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not empty"));
    let (q8, q9) = (t.join("q8"), t.join("q9"));
    let result = |dir: &Path, id: &str| dir.join(format!("results/{id}.json"));
    let copy = |from: &Path, to: &Path| std::fs::copy(from, to).unwrap();
    // An answer of another split, and one of another cube of this split.
    let saved = std::fs::read(result(&q9, "cube-00000")).unwrap();
    copy(&result(&q8, "cube-00000"), &result(&q9, "cube-00000"));
    merge_fails(t, "q9", "cube-00000 answers another split");
    copy(&result(&q9, "cube-00001"), &result(&q9, "cube-00000"));
    merge_fails(t, "q9", "cube-00000 answers");
    std::fs::write(result(&q9, "cube-00000"), saved).unwrap();
    assert_eq!(run_in(t, &["merge", "q9"]).stdout, b"352\n");
    // A manifest line duplicated, deleted, or with weight 0; a header only.
    let manifest = std::fs::read_to_string(q9.join("MANIFEST")).unwrap();
    let lines: Vec<&str> = manifest.lines().collect();
    let edit = |text: String| std::fs::write(q9.join("MANIFEST"), text).unwrap();
    edit(format!("{manifest}{}\n", lines[5]));
    merge_fails(t, "q9", "is listed twice");
    edit(
        lines[..5]
            .iter()
            .chain(&lines[6..])
            .map(|l| format!("{l}\n"))
            .collect(),
    );
    merge_fails(t, "q9", "cubes and lists");
    edit(lines[..4].iter().map(|l| format!("{l}\n")).collect());
    merge_fails(t, "q9", "cubes and lists 0");
    edit(manifest.replacen(" 2 ", " 0 ", 1));
    merge_fails(t, "q9", "is not a positive integer");
    // --replace replaces the split, and merge counts the new one.
    assert!(
        run_in(t, &["cubes", "queens", "8", "-o", "q9", "--replace"])
            .status
            .success()
    );
    merge_fails(t, "q9", "missing: cube-00000");
    run_jobs(&q9);
    assert_eq!(run_in(t, &["merge", "q9"]).stdout, b"92\n");
}

/// Runs count-dimacs in `dir` and expects exit 2 with one `error:` line
/// containing `text`.
fn fails_with(dir: &Path, args: &[&str], text: &str) {
    let mut all = vec!["count-dimacs"];
    all.extend(args);
    let out = run_in(dir, &all);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.starts_with("error: "), "{args:?}: {err}");
    assert!(err.contains(text), "{args:?}: {err}");
    assert!(out.stdout.is_empty(), "{args:?}");
}

#[test]
fn count_dimacs_cube_errors_are_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    icnf_cubes(dir, "6", &[]);
    let n_cubes = manifest(&dir.join("split")).len();
    let out_of_range = n_cubes.to_string();
    fails_with(
        dir,
        &["split/cubes.icnf", "--cube", &out_of_range],
        &format!("--cube {n_cubes} is out of range: the file has {n_cubes} cubes"),
    );
    fails_with(dir, &["split/cubes.icnf"], "choose the cube");
    let files = [
        (
            "bad-lit.icnf",
            "p inccnf\n1 2 0\na 1 x 0\n",
            "line 3: 'x' is not an integer",
        ),
        (
            "no-zero.icnf",
            "p inccnf\n1 2 0\na 1 2\n",
            "line 3: the cube line has no terminating 0",
        ),
        (
            "clause.icnf",
            "p inccnf\n1 2 0\n1 x 0\na 1 0\n",
            "line 3: 'x' is not an integer",
        ),
        (
            "open.icnf",
            "p inccnf\n1 2\na 1 0\n",
            "line 3: an 'a' line inside a clause",
        ),
        (
            "late.icnf",
            "p inccnf\na 1 0\n1 2 0\n",
            "line 3: a clause after the first 'a' line",
        ),
        ("no-cubes.icnf", "p inccnf\n1 2 0\n", "no 'a' (cube) lines"),
        (
            "headerless.icnf",
            "c x\n1 2 0\na 1 0\n",
            "no 'p inccnf' header (line 2 is '1 2 0')",
        ),
    ];
    for (name, text, expected) in files {
        std::fs::write(dir.join(name), text).unwrap();
        fails_with(dir, &[name, "--cube", "0"], expected);
    }
    // An `a` line in plain DIMACS, and --cube on plain DIMACS.
    std::fs::write(dir.join("a.cnf"), "p cnf 2 1\n1 2 0\na 1 0\n").unwrap();
    fails_with(
        dir,
        &["a.cnf"],
        "line 3: an 'a' (cube) line in a DIMACS file",
    );
    std::fs::write(dir.join("or.cnf"), "p cnf 2 1\n1 2 0\n").unwrap();
    fails_with(dir, &["or.cnf", "--cube", "0"], "--cube needs an iCNF file");
}

#[test]
fn count_dimacs_reads_hand_written_icnf() {
    // x1 ∨ x2 under the cubes ∅, ¬x1 and x1 ∧ ¬x2, comments anywhere.
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(
        tmp.path().join("or.icnf"),
        "c hi\np inccnf\n1 2 0\nc between\na 0\nc and\na -1 0\na 1 -2 0\n",
    )
    .unwrap();
    for (cube, expected) in [("0", 3), ("1", 1), ("2", 1)] {
        let out = run_in(
            tmp.path(),
            &["count-dimacs", "or.icnf", "--cube", cube, "--json"],
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(
            (v["count"].as_u64(), v["complete"].as_bool()),
            (Some(expected), Some(true)),
            "cube {cube}"
        );
    }
}

#[test]
fn external_cadical_reads_the_icnf_file() {
    // CaDiCaL's cube mode: it must parse the file (Debian's CaDiCaL stops
    // at a comment between `a` lines) and solve the cubes.
    if !common::external("cadical", "cadical") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    icnf_cubes(tmp.path(), "8", &[]);
    let out = Command::new("cadical")
        .arg(tmp.path().join("split/cubes.icnf"))
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(!text.contains("error"), "{text}");
    // Some cube of 8-queens has a solution.
    assert_eq!(out.status.code(), Some(10), "{text}");
}

/// Writes a split with `args` into `tmp/split` and runs its jobs.
fn split_and_run(tmp: &Path, args: &[&str]) -> std::path::PathBuf {
    let mut all = vec!["cubes"];
    all.extend(args);
    all.extend(["-o", "split"]);
    let out = run_in(tmp, &all);
    assert!(out.status.success(), "{}", stderr(&out));
    let dir = tmp.join("split");
    run_jobs(&dir);
    dir
}

/// `cubes … --proof`: each job proves its count; `merge --verify` and
/// `verify DIR` check the whole split and print the total (A002564(8),
/// A000170(8)), for DIMACS and iCNF splits, every cube or one per orbit.
#[test]
fn proven_splits_verify_whole() {
    for (args, count) in [
        (
            &["domination", "8", "-k", "5", "--depth", "2", "--proof"][..],
            "4860",
        ),
        // A second route's formulas: another split, another cardinality
        // encoding, orbit representatives counted.
        (
            &[
                "domination",
                "8",
                "-k",
                "5",
                "--depth",
                "1",
                "--lex-leader",
                "--card",
                "seqcounter",
                "--proof",
            ][..],
            "4860",
        ),
        (
            &[
                "domination",
                "7",
                "-k",
                "4",
                "--no-halve",
                "--depth",
                "1",
                "--proof",
                "--format",
                "icnf",
            ][..],
            "86",
        ),
        (&["queens", "8", "--depth", "2", "--proof"][..], "92"),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        split_and_run(tmp.path(), args);
        let out = run_in(tmp.path(), &["merge", "--verify", "split"]);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        assert_eq!(stdout(&out).trim(), count, "{args:?}");
        assert!(stderr(&out).contains("split: verified"), "{}", stderr(&out));
        let out = run_in(tmp.path(), &["verify", "split", "--json"]);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        assert_eq!(v["verified"], true);
        let last = v["claims"].as_array().unwrap().last().unwrap().clone();
        assert!(
            last["reason"]
                .as_str()
                .unwrap()
                .ends_with(&format!("weighted total {count}")),
            "{last}"
        );
    }
}

/// What `merge --verify` rejects in a proven split, each with its reason
/// and exit 1: a missing proof, a proof of another cube, a cube file
/// changed (and its result rewritten to match), a weight changed, a
/// result that does not match its proof; and a split without proofs or
/// without its spec is a one-line error, exit 2.
#[test]
fn tampered_proven_splits_are_rejected() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = split_and_run(
        tmp.path(),
        &["domination", "6", "-k", "3", "--depth", "1", "--proof"],
    );
    let rejected = |what: &str| {
        let out = run_in(tmp.path(), &["merge", "--verify", "split"]);
        assert_eq!(out.status.code(), Some(1), "{what}: {}", stderr(&out));
        assert!(stdout(&out).contains(what), "{what}: {}", stdout(&out));
    };
    let ok = || {
        let out = run_in(tmp.path(), &["merge", "--verify", "split"]);
        assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    };
    ok();
    let proofs = dir.join("proofs");
    // A cube's proof missing: the cube and the split are reported.
    std::fs::rename(proofs.join("cube-00001"), tmp.path().join("kept")).unwrap();
    rejected("cube-00001: NOT verified: missing");
    rejected("not verified (cube-00001)");
    // Another cube's proof in its place.
    copy_dir(&proofs.join("cube-00000"), &proofs.join("cube-00001"));
    rejected("cube-00001: NOT verified");
    std::fs::remove_dir_all(proofs.join("cube-00001")).unwrap();
    std::fs::rename(tmp.path().join("kept"), proofs.join("cube-00001")).unwrap();
    ok();
    // A weight changed in the manifest.
    let manifest = dir.join("MANIFEST");
    let listed = std::fs::read_to_string(&manifest).unwrap();
    let line = listed
        .lines()
        .find(|l| l.starts_with("cube-00001 "))
        .unwrap();
    let mut words: Vec<&str> = line.split(' ').collect();
    let heavier = (words[1].parse::<u64>().unwrap() + 1).to_string();
    words[1] = &heavier;
    std::fs::write(&manifest, listed.replace(line, &words.join(" "))).unwrap();
    rejected("the rebuilt split");
    std::fs::write(&manifest, &listed).unwrap();
    // A result that counts more than its proof.
    let result = dir.join("results/cube-00001.json");
    let answer = std::fs::read_to_string(&result).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&answer).unwrap();
    v["count"] = serde_json::json!(v["count"].as_u64().unwrap() + 1);
    std::fs::write(&result, v.to_string()).unwrap();
    rejected("its proof");
    std::fs::write(&result, &answer).unwrap();
    // A cube file with a clause dropped.
    let file = dir.join("cube-00002.cnf");
    let text = std::fs::read_to_string(&file).unwrap();
    let last = text.lines().last().unwrap();
    std::fs::write(&file, text.replace(&format!("\n{last}"), "")).unwrap();
    rejected("cube-00002: NOT verified");
    std::fs::write(&file, &text).unwrap();
    ok();
    // A spec naming another cardinality encoding than the cubes were
    // written in: no cube is the rebuilt split's.
    assert!(listed.contains(" amo=auto format=cnf"), "{listed}");
    std::fs::write(
        &manifest,
        listed.replace(
            " amo=auto format=cnf",
            " amo=auto card=seqcounter format=cnf",
        ),
    )
    .unwrap();
    rejected("cubes are not verified");
    std::fs::write(&manifest, &listed).unwrap();
    ok();
    // Without proofs, or without a spec: nothing to verify.
    std::fs::write(&manifest, listed.replace("# proofs proofs\n", "")).unwrap();
    let out = run_in(tmp.path(), &["merge", "--verify", "split"]);
    common::one_line_error(&out, "written without --proof");
    std::fs::write(
        &manifest,
        listed
            .lines()
            .filter(|l| !l.starts_with("# spec"))
            .collect::<Vec<_>>()
            .join("\n")
            + "\n",
    )
    .unwrap();
    let out = run_in(tmp.path(), &["merge", "--verify", "split"]);
    common::one_line_error(&out, "no '# spec' line");
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
}

/// `--estimate N`: with N at least the number of cubes every cube is
/// solved, so the projection is the measured total (and the cubes'
/// weighted counts are A002564(8)); with fewer, the projection is the
/// cubes' number times the sample's mean, inside its interval; N = 0 or
/// a split of one cube is a one-line error, exit 2.
#[test]
fn estimates_project_the_sampled_cubes() {
    let tmp = tempfile::tempdir().unwrap();
    let all = run_in(
        tmp.path(),
        &[
            "cubes",
            "domination",
            "8",
            "-k",
            "5",
            "--depth",
            "2",
            "--estimate",
            "1000",
            "--json",
        ],
    );
    assert!(all.status.success(), "{}", stderr(&all));
    let v: serde_json::Value = serde_json::from_str(&stdout(&all)).unwrap();
    let cubes = v["cubes"].as_u64().unwrap();
    let sampled = v["sampled"].as_array().unwrap();
    assert_eq!(sampled.len() as u64, cubes);
    let measured: f64 = sampled.iter().map(|s| s["seconds"].as_f64().unwrap()).sum();
    let projected = v["projected_seconds"].as_f64().unwrap();
    assert!(
        (projected - measured).abs() < 1e-9 * measured.max(1.0),
        "{v}"
    );
    assert_eq!(v["interval"][0].as_f64(), Some(projected));
    assert_eq!(v["interval"][1].as_f64(), Some(projected));
    // Every cube solved as its job: the weights times the counts, read
    // from a written split's manifest, give A002564(8).
    split_and_run(tmp.path(), &["domination", "8", "-k", "5", "--depth", "2"]);
    let manifest = std::fs::read_to_string(tmp.path().join("split/MANIFEST")).unwrap();
    let weight = |id: &str| -> u64 {
        let line = manifest
            .lines()
            .find(|l| l.starts_with(&format!("{id} ")))
            .unwrap();
        line.split(' ').nth(1).unwrap().parse().unwrap()
    };
    let total: u64 = sampled
        .iter()
        .map(|s| weight(s["id"].as_str().unwrap()) * s["count"].as_u64().unwrap())
        .sum();
    assert_eq!(total, 4860);
    // A sample of 5: N times its mean, inside its interval, repeatable
    // cubes for a seed.
    let some = |seed: &str| {
        let out = run_in(
            tmp.path(),
            &[
                "cubes",
                "domination",
                "8",
                "-k",
                "5",
                "--depth",
                "2",
                "--estimate",
                "5",
                "--seed",
                seed,
                "--json",
            ],
        );
        assert!(out.status.success(), "{}", stderr(&out));
        serde_json::from_str::<serde_json::Value>(&stdout(&out)).unwrap()
    };
    let (a, b) = (some("7"), some("7"));
    let ids = |v: &serde_json::Value| -> Vec<String> {
        v["sampled"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["id"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(ids(&a), ids(&b));
    let times: Vec<f64> = a["sampled"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["seconds"].as_f64().unwrap())
        .collect();
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    let projected = a["projected_seconds"].as_f64().unwrap();
    assert!((projected - mean * cubes as f64).abs() < 1e-6 * projected.max(1.0));
    assert!(
        a["interval"][0].as_f64().unwrap() <= projected
            && projected <= a["interval"][1].as_f64().unwrap()
    );
    let longest = a["longest"]["seconds"].as_f64().unwrap();
    assert!(times.iter().all(|&t| t <= longest));
    // Without a limit every cube is solved whole.
    for s in a["sampled"].as_array().unwrap() {
        assert_eq!(s["pieces"].as_u64(), Some(1), "{s}");
        assert_eq!(s["seconds"].as_f64(), s["spent_seconds"].as_f64(), "{s}");
    }
    // With a limit that stops cubes, a stopped cube is projected from one
    // piece per further ring (16 on an even side): its pieces a power of
    // 16, its piece that many rings deeper.
    let limited = run_in(
        tmp.path(),
        &[
            "cubes",
            "domination",
            "10",
            "-k",
            "5",
            "--depth",
            "1",
            "--estimate",
            "3",
            "--cube-limit",
            "0.001",
            "--json",
        ],
    );
    assert!(limited.status.success(), "{}", stderr(&limited));
    let v: serde_json::Value = serde_json::from_str(&stdout(&limited)).unwrap();
    for s in v["sampled"].as_array().unwrap() {
        let pieces = s["pieces"].as_u64().unwrap();
        assert!(
            pieces.is_power_of_two() && pieces.trailing_zeros() % 4 == 0,
            "{s}"
        );
        let lines = s["piece"].as_str().unwrap().matches(['+', '-']).count() as u32;
        assert_eq!(lines, 4 + pieces.trailing_zeros(), "{s}");
        assert!(s["seconds"].as_f64().unwrap() >= 0.0);
        assert_eq!(
            s["complete"].as_bool(),
            Some(s["complete"].as_bool().unwrap())
        );
        // Exported cubes past the limit run as deeper jobs, on fresh
        // solvers as their pieces are: not deflated.
        assert_eq!(s["deflation"].as_f64(), Some(1.0), "{s}");
    }
    // Bad input.
    for (args, what) in [
        (
            &["cubes", "domination", "8", "-k", "5", "--estimate", "0"][..],
            "at least one cube",
        ),
        (
            &[
                "cubes",
                "domination",
                "8",
                "-k",
                "5",
                "--depth",
                "0",
                "--estimate",
                "3",
            ][..],
            "nothing is split",
        ),
    ] {
        let out = run_in(tmp.path(), args);
        common::one_line_error(&out, what);
    }
}

/// `--refute` samples a refutation: 4 queens cannot dominate 8×8, so its
/// cubes hold nothing; 5 can, and that is caught, with the placement
/// checked, instead of projected as if it were a refutation.
#[test]
fn a_refutation_estimate_refuses_a_bound_that_cannot_be_refuted() {
    let tmp = tempfile::tempdir().unwrap();
    let refutes = |k: &str| {
        run_in(
            tmp.path(),
            &[
                "cubes",
                "domination",
                "8",
                "-k",
                k,
                "--depth",
                "1",
                "--estimate",
                "4",
                "--refute",
                "--json",
            ],
        )
    };
    let four = refutes("4");
    assert!(four.status.success(), "{}", stderr(&four));
    let a: serde_json::Value = serde_json::from_slice(&four.stdout).unwrap();
    let sampled = a["sampled"].as_array().unwrap();
    assert_eq!(sampled.len(), 4, "{a}");
    assert!(
        sampled.iter().all(|s| s["count"].as_u64() == Some(0)),
        "{a}"
    );
    let five = refutes("5");
    common::one_line_error(&five, "there is nothing to refute");
    let err = stderr(&five);
    assert!(err.contains("the checker accepts"), "{err}");
    // The cubes `solve` refutes in-process: another split, its own cubes.
    let mut args = vec!["cubes", "domination", "8", "-k", "4"];
    args.extend(["--estimate", "4", "--refute", "--in-process", "--json"]);
    let inside = run_in(tmp.path(), &args);
    assert!(inside.status.success(), "{}", stderr(&inside));
    let b: serde_json::Value = serde_json::from_slice(&inside.stdout).unwrap();
    assert_eq!(b["sampled"].as_array().map(Vec::len), Some(4), "{b}");
    assert_ne!(b["cubes"], a["cubes"], "{a} {b}");
    // Queens splits have no bound to refute; the flags need --estimate
    // and --refute.
    for (args, what) in [
        (
            &["cubes", "queens", "8", "--estimate", "2", "--refute"][..],
            "only a domination split",
        ),
        (
            &["cubes", "domination", "8", "-k", "4", "-o", "s", "--refute"][..],
            "--estimate",
        ),
        (
            &["cubes", "domination", "8", "-k", "4", "--in-process"][..],
            "--estimate",
        ),
    ] {
        common::one_line_error(&run_in(tmp.path(), args), what);
    }
}

/// Without `--refute`, `--in-process` samples the cubes `count -k K
/// --depth D` counts: with every cube sampled, their models add up to the
/// in-process count's own, at both depths (the cubes differ, the orbit
/// representatives do not); queens are not split in-process.
#[test]
fn an_in_process_count_estimate_solves_the_cubes_the_count_solves() {
    let tmp = tempfile::tempdir().unwrap();
    let json = |args: &[&str]| -> serde_json::Value {
        let out = run_in(tmp.path(), args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let mut cubes_seen = Vec::new();
    for depth in ["1", "2"] {
        let base = ["domination", "8", "-k", "5", "--depth", depth];
        let counted = json(&[&["count"][..], &base, &["--json"]].concat());
        let mut args = vec!["cubes"];
        args.extend(base);
        args.extend(["--estimate", "1000", "--in-process", "--json"]);
        let sampled = json(&args);
        assert_eq!(sampled["cubes"], counted["cubes"], "{sampled} {counted}");
        let models: u64 = sampled["sampled"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["count"].as_u64().unwrap())
            .sum();
        assert!(models > 0);
        assert_eq!(Some(models), counted["models"].as_u64(), "{sampled}");
        cubes_seen.push(sampled["cubes"].clone());
    }
    assert_ne!(cubes_seen[0], cubes_seen[1]);
    let queens = run_in(
        tmp.path(),
        &["cubes", "queens", "8", "--estimate", "2", "--in-process"],
    );
    common::one_line_error(&queens, "only domination");
}

// ------------------------------------------- jobs that cannot lose data

/// `cubes ARGS -o split` in `tmp`, which must succeed.
fn cubes(tmp: &Path, args: &[&str]) -> std::path::PathBuf {
    let mut all = vec!["cubes"];
    all.extend(args);
    all.extend(["-o", "split"]);
    let out = run_in(tmp, &all);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    tmp.join("split")
}

/// The line of jobs.txt that runs `id`.
fn job_line(dir: &Path, id: &str) -> String {
    let jobs = std::fs::read_to_string(dir.join("jobs.txt")).unwrap();
    let line = jobs.lines().find(|l| l.ends_with(&format!(" job . {id}")));
    line.expect("a job line").to_string()
}

/// Every file under `dir` with its bytes and modification time, sorted.
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>, std::time::SystemTime)> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            let meta = std::fs::symlink_metadata(&path).unwrap();
            if meta.is_dir() {
                stack.push(path);
            } else {
                let name = path.strip_prefix(dir).unwrap().display().to_string();
                let bytes = std::fs::read(&path).unwrap_or_default();
                files.push((name, bytes, meta.modified().unwrap()));
            }
        }
    }
    files.sort();
    files
}

/// D5: a scheduler's retry of a finished `--proof` split (every line of
/// jobs.txt again) keeps every answer and every proof as they are, says
/// so, and the split still verifies.
#[test]
fn rerunning_a_finished_proven_split_keeps_every_answer() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = cubes(tmp.path(), &["queens", "8", "--depth", "2", "--proof"]);
    let first = run_jobs(&dir);
    assert!(first.contains("answer written to"), "{first}");
    let before = snapshot(&dir);
    let again = run_jobs(&dir);
    let n_cubes = manifest(&dir).len();
    assert_eq!(
        again.matches("already answered").count(),
        n_cubes,
        "{again}"
    );
    assert!(again.contains("kept as it is"), "{again}");
    assert_eq!(snapshot(&dir), before, "a re-run changed the split");
    let out = run_in(tmp.path(), &["merge", "--verify", "split"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "92");
    // A job run by hand prints its kept answer too.
    let out = run_in(&dir, &["job", ".", "cube-00000", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["complete"], true, "{v}");
    // An unknown cube, a directory that is no split: one line, exit 2.
    let out = run_in(&dir, &["job", ".", "cube-99999"]);
    common::one_line_error(&out, "has no cube 'cube-99999'");
    let out = run_in(tmp.path(), &["job", ".", "cube-00000"]);
    common::one_line_error(&out, "not a 'boardsat cubes' directory");
}

/// A fake external solver that records its pid in `dir/solver.pid` and
/// never answers: a job using it is certainly mid-run.
#[cfg(unix)]
fn hanging_solver(dir: &Path) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join("hang-forever.sh");
    let pid = dir.join("solver.pid");
    std::fs::write(
        &path,
        format!("#!/bin/sh\necho $$ > '{}'\nexec sleep 60\n", pid.display()),
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.display().to_string()
}

/// Starts job `id` of `dir` with the hanging solver in a process group
/// of its own, and waits until its solver runs (the job holds its lock
/// then). The child, and the solver's pid. Its temporary files go under
/// `tmp`: a SIGKILL leaves them (no process cleans up after one), and
/// the test's directory is removed with them.
#[cfg(unix)]
fn start_hanging_job(tmp: &Path, dir: &Path, id: &str) -> (std::process::Child, String) {
    use std::os::unix::process::CommandExt;
    let solver = hanging_solver(tmp);
    let child = common::boardsat()
        .args(["job", ".", id, "--solver-cmd", &solver])
        .env("TMPDIR", tmp)
        .current_dir(dir)
        .process_group(0)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    let pid_file = tmp.join("solver.pid");
    let pid = loop {
        if let Ok(pid) = std::fs::read_to_string(&pid_file) {
            if !pid.trim().is_empty() {
                break pid.trim().to_string();
            }
        }
        assert!(
            started.elapsed() < std::time::Duration::from_secs(30),
            "the job's solver never started"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    (child, pid)
}

/// `kill -KILL` to `pids` (a group when it starts with `-`).
#[cfg(unix)]
fn kill(pids: &[&str]) {
    for pid in pids {
        let _ = Command::new("kill").args(["-KILL", "--", pid]).status();
    }
}

/// A job killed mid-run (SIGKILL, as a scheduler's time limit or a lost
/// node does) leaves no answer; what it and a later stage of it leave
/// behind (its lock, a temporary answer, a half-written proof) does not
/// stop its next run, which answers and proves the cube.
#[cfg(unix)]
#[test]
fn a_killed_job_runs_again() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = cubes(
        tmp.path(),
        &["domination", "6", "-k", "3", "--depth", "1", "--proof"],
    );
    let id = "cube-00001";
    let (mut child, solver) = start_hanging_job(tmp.path(), &dir, id);
    kill(&[&format!("-{}", child.id()), &solver]);
    assert_eq!(child.wait().unwrap().code(), None, "killed by a signal");
    let results = dir.join("results");
    assert!(!results.join(format!("{id}.json")).exists());
    assert!(results.join(format!("{id}.lock")).exists(), "left behind");
    // What a kill while writing the proof and the answer would leave.
    std::fs::write(results.join(format!("{id}.json.partial")), "{\"cou").unwrap();
    let proof = dir.join("proofs").join(id);
    std::fs::write(proof.join("claim-0000.cnf"), "p cnf 3 1\n1 ").unwrap();
    std::fs::write(proof.join("claim-0000.lrat"), "7 1 0 ").unwrap();
    let out = shell(&dir, &job_line(&dir, id));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("answer written to"),
        "{}",
        stderr(&out)
    );
    let names: Vec<String> = std::fs::read_dir(&results)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, [format!("{id}.json")], "only the answer is left");
    run_jobs(&dir);
    let out = run_in(tmp.path(), &["merge", "--verify", "split"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}

/// Two runs of the same job at once: the second refuses at once (exit 2,
/// one line naming the first's pid) and touches nothing; run together
/// for real, one answers, the other refuses or keeps that answer, and the
/// answer is whole.
#[cfg(unix)]
#[test]
fn the_same_job_run_twice_at_once_keeps_one_whole_answer() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = cubes(tmp.path(), &["queens", "8", "--depth", "1", "--proof"]);
    let id = "cube-00002";
    let line = job_line(&dir, id);
    let (mut child, solver) = start_hanging_job(tmp.path(), &dir, id);
    let out = shell(&dir, &line);
    common::one_line_error(
        &out,
        &format!(
            "job {id} in . is already running in another process (pid {}); nothing was done",
            child.id()
        ),
    );
    assert!(out.stdout.is_empty());
    assert!(dir.join(format!("results/{id}.lock")).exists());
    kill(&[&format!("-{}", child.id()), &solver]);
    child.wait().unwrap();
    // Racing for real, three times over.
    for round in 0..3 {
        let _ = std::fs::remove_file(dir.join(format!("results/{id}.json")));
        let runs: Vec<std::process::Child> = (0..2)
            .map(|_| {
                Command::new("sh")
                    .args(["-c", &line])
                    .current_dir(&dir)
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        let outs: Vec<Output> = runs
            .into_iter()
            .map(|c| c.wait_with_output().unwrap())
            .collect();
        let ok = outs.iter().filter(|o| o.status.success()).count();
        assert!(ok >= 1, "round {round}: no run answered");
        for o in outs.iter().filter(|o| !o.status.success()) {
            common::one_line_error(o, "is already running in another process");
        }
        let text = std::fs::read_to_string(dir.join(format!("results/{id}.json"))).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["complete"], true, "round {round}: {text}");
        assert_eq!(v["cube_id"], id, "round {round}: {text}");
    }
    run_jobs(&dir);
    let out = run_in(tmp.path(), &["merge", "--verify", "split"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(stdout(&out).trim(), "92");
}

/// D4: `--replace` follows no symbolic link. A `results` link in a
/// directory that never held a split, and `results` or `proofs` links
/// (or a FIFO for a cube file) in a previous split: one line, exit 2,
/// nothing removed on either side of the link.
#[cfg(unix)]
#[test]
fn replace_follows_no_symbolic_link() {
    use std::os::unix::fs::symlink;
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    // The reproducer, as the issue has it.
    std::fs::create_dir_all(t.join("out")).unwrap();
    std::fs::create_dir_all(t.join("d")).unwrap();
    std::fs::write(t.join("out/data.json"), "{}").unwrap();
    symlink("../out", t.join("d/results")).unwrap();
    let out = run_in(t, &["cubes", "queens", "6", "-o", "d", "--replace"]);
    common::one_line_error(&out, "holds no previous split");
    assert_eq!(
        std::fs::read_to_string(t.join("out/data.json")).unwrap(),
        "{}"
    );
    // A previous split whose results and proofs are links to data that
    // looks like a split's own.
    let dir = cubes(t, &["queens", "6", "--proof"]);
    run_jobs(&dir);
    std::fs::create_dir_all(t.join("out/cube-00000")).unwrap();
    for name in [
        "cube-00000.json",
        "cube-00000/MANIFEST.json",
        "cube-00000/claim-0000.lrat",
    ] {
        std::fs::write(t.join("out").join(name), "precious").unwrap();
    }
    let before = snapshot(t);
    for (link, what) in [("results", "split/results"), ("proofs", "split/proofs")] {
        let real = dir.join(format!("{link}.real"));
        std::fs::rename(dir.join(link), &real).unwrap();
        symlink("../out", dir.join(link)).unwrap();
        let out = run_in(
            t,
            &[
                "cubes",
                "queens",
                "6",
                "--proof",
                "-o",
                "split",
                "--replace",
            ],
        );
        common::one_line_error(
            &out,
            &format!("{what} is a symbolic link, not what a split writes; nothing was removed"),
        );
        std::fs::remove_file(dir.join(link)).unwrap();
        std::fs::rename(&real, dir.join(link)).unwrap();
        assert_eq!(snapshot(t), before, "{link}: something was touched");
    }
    // A FIFO where a cube file was.
    std::fs::remove_file(dir.join("cube-00003.cnf")).unwrap();
    assert!(Command::new("mkfifo")
        .arg(dir.join("cube-00003.cnf"))
        .status()
        .unwrap()
        .success());
    let out = run_in(t, &["cubes", "queens", "6", "-o", "split", "--replace"]);
    common::one_line_error(&out, "cube-00003.cnf is a special file");
    assert!(dir.join("MANIFEST").is_file(), "nothing removed");
    // The jobs refuse a linked results or proofs directory too.
    std::fs::remove_file(dir.join("cube-00003.cnf")).unwrap();
    std::fs::rename(dir.join("proofs"), t.join("proofs.real")).unwrap();
    symlink("../out", dir.join("proofs")).unwrap();
    std::fs::remove_file(dir.join("results/cube-00000.json")).unwrap();
    let out = shell(&dir, &job_line(&dir, "cube-00000"));
    common::one_line_error(&out, "is a symbolic link");
    assert_eq!(
        std::fs::read_to_string(t.join("out/cube-00000/MANIFEST.json")).unwrap(),
        "precious"
    );
}

/// D18: `--replace` in a directory that never held a split is refused (its
/// files kept); in a previous split it removes that split's files and
/// keeps the user's, whatever their names look like.
#[test]
fn replace_replaces_only_a_previous_split() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    std::fs::create_dir_all(t.join("split/results")).unwrap();
    std::fs::write(t.join("split/results/mine.json"), "mine").unwrap();
    std::fs::write(t.join("split/cube-notes.cnf"), "notes").unwrap();
    let out = run_in(t, &["cubes", "queens", "6", "-o", "split", "--replace"]);
    common::one_line_error(&out, "holds no previous split");
    assert_eq!(
        std::fs::read_to_string(t.join("split/results/mine.json")).unwrap(),
        "mine"
    );
    assert_eq!(
        std::fs::read_to_string(t.join("split/cube-notes.cnf")).unwrap(),
        "notes"
    );
    std::fs::remove_dir_all(t.join("split")).unwrap();
    // A previous split with proofs, the user's files beside its own.
    let dir = cubes(t, &["queens", "6", "--proof", "--replace"]);
    run_jobs(&dir);
    for name in [
        "results/mine.json",
        "cube-notes.cnf",
        "notes.txt",
        "proofs/cube-00000/mine.txt",
        "proofs/README",
    ] {
        std::fs::write(dir.join(name), "mine").unwrap();
    }
    let out = run_in(t, &["cubes", "queens", "5", "-o", "split", "--replace"]);
    assert!(out.status.success(), "{}", stderr(&out));
    for name in [
        "results/mine.json",
        "cube-notes.cnf",
        "notes.txt",
        "proofs/cube-00000/mine.txt",
        "proofs/README",
    ] {
        assert_eq!(
            std::fs::read_to_string(dir.join(name)).unwrap(),
            "mine",
            "{name}"
        );
    }
    // The old split's answers and proofs are gone, and the new split's
    // jobs answer it.
    assert!(!dir.join("results/cube-00000.json").exists());
    assert!(!dir.join("proofs/cube-00000/MANIFEST.json").exists());
    assert!(!dir.join("proofs/cube-00001").exists());
    run_jobs(&dir);
    assert_eq!(run_in(t, &["merge", "split"]).stdout, b"10\n");
}

/// D6: a MANIFEST that lists one cube twice under two ids — the same
/// cube index of an iCNF file, or the same cube file — is refused by
/// `merge` naming the line, however the count line and results are
/// made to match.
#[test]
fn a_cube_listed_twice_under_two_ids_is_refused() {
    for (format, expected) in [
        (
            "icnf",
            "counts cube 3 of cubes.icnf, which cube-00003 already counts",
        ),
        (
            "cnf",
            "counts cube-00003.cnf, which cube-00003 already counts",
        ),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let dir = cubes(tmp.path(), &["queens", "10", "--format", format]);
        run_jobs(&dir);
        assert_eq!(run_in(tmp.path(), &["merge", "split"]).stdout, b"724\n");
        let listed = std::fs::read_to_string(dir.join("MANIFEST")).unwrap();
        let n = manifest(&dir).len();
        let line = listed
            .lines()
            .find(|l| l.starts_with("cube-00003 "))
            .unwrap();
        let forged = listed.replace(&format!("# cubes {n}\n"), &format!("# cubes {}\n", n + 1))
            + &line.replacen("cube-00003", "cube-00099", 1)
            + "\n";
        std::fs::write(dir.join("MANIFEST"), forged).unwrap();
        std::fs::copy(
            dir.join("results/cube-00003.json"),
            dir.join("results/cube-00099.json"),
        )
        .unwrap();
        let out = run_in(tmp.path(), &["merge", "split"]);
        let at = listed.lines().count() + 1;
        common::one_line_error(&out, &format!("line {at}: cube cube-00099 {expected}"));
        assert!(out.stdout.is_empty(), "{format}");
    }
}
