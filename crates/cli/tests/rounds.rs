//! Exported splits that re-split themselves (`cubes --job-budget`): a job
//! past its budget writes its pieces as the jobs of the next round,
//! `jobs DIR` says what is left and lists the next round, `jobs DIR --run
//! local` runs the rounds on this machine, and `merge` walks the tree to
//! the in-process count. Rounds edited by hand, bad budgets and
//! directories that are no split are one-line errors; a failed job is
//! named and the merge refuses. (GNU parallel and Slurm run the same
//! protocol in `engines.rs`.)

mod common;

use std::{path::Path, process::Output};

use common::{in_process, one_line_error, run_in, stderr, stdout};
use serde_json::Value;

/// `cubes domination N -k K --depth 0 --job-budget 0.001 --max-depth 2
/// -o split` in `tmp` (with `extra`, which may give another --depth and
/// --max-depth): every job that can be split is (no solver counts a cube
/// within a millisecond), two rounds of pieces deep.
fn budget_split(tmp: &Path, n: &str, k: &str, extra: &[&str]) -> std::path::PathBuf {
    let mut args = vec![
        "cubes",
        "domination",
        n,
        "-k",
        k,
        "--job-budget",
        "0.001",
        "-o",
        "split",
    ];
    args.extend(extra);
    if !extra.contains(&"--depth") {
        args.extend(["--depth", "0", "--max-depth", "2"]);
    }
    let out = run_in(tmp, &args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    tmp.join("split")
}

/// `merge split` in `tmp`, which must succeed: the total.
fn merged(tmp: &Path) -> String {
    let out = run_in(tmp, &["merge", "split"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    stdout(&out).trim().to_string()
}

/// `jobs split --json` (and extra) in `tmp`: the exit code and report.
fn jobs(tmp: &Path, extra: &[&str]) -> (Option<i32>, Value, Output) {
    let mut args = vec!["jobs", "split", "--json"];
    args.extend(extra);
    let out = run_in(tmp, &args);
    let report = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (out.status.code(), report, out)
}

/// The lines of a round's list run with `sh` from inside `dir`, as any
/// scheduler would; each must succeed.
fn run_lines(dir: &Path, list: &str) {
    let text = std::fs::read_to_string(dir.join(list)).unwrap();
    for line in text.lines() {
        let out = std::process::Command::new("sh")
            .args(["-c", line])
            .current_dir(dir)
            .output()
            .unwrap();
        assert!(out.status.success(), "{line}: {}", stderr(&out));
    }
}

/// The round-0 domination counts on 9 × 9 and 10 × 10, run by the local
/// engine through two rounds of re-splits, equal the in-process counts;
/// the reports say how many rounds ran and what was split.
#[test]
fn rounds_on_this_machine_merge_to_the_in_process_count() {
    for (n, k) in [("9", "5"), ("10", "5")] {
        let tmp = tempfile::tempdir().unwrap();
        let dir = budget_split(tmp.path(), n, k, &[]);
        let manifest = std::fs::read_to_string(dir.join("MANIFEST")).unwrap();
        assert!(
            manifest.contains("\n# budget 0.001 max-depth 2\n"),
            "{manifest}"
        );
        assert!(dir.join("slurm.sbatch").is_file());
        let (code, report, out) = jobs(tmp.path(), &["--run", "local"]);
        assert_eq!(code, Some(0), "{}", stderr(&out));
        let driven = report["driven"].as_array().unwrap();
        assert!(driven.len() >= 3, "{report}");
        assert_eq!(report["depth"], 3, "two rounds of pieces: {report}");
        assert_eq!(report["finished"], true, "{report}");
        assert!(report["split"].as_u64() >= Some(2), "{report}");
        assert_eq!(driven[0]["round"]["file"], "jobs.txt", "{report}");
        assert_eq!(driven[1]["round"]["file"], "rounds/1.txt", "{report}");
        let err = stderr(&out);
        assert!(err.contains("round 1 (rounds/1.txt)"), "{err}");
        assert_eq!(merged(tmp.path()), in_process(n, k), "{n}");
        let out = run_in(tmp.path(), &["merge", "split", "--json"]);
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["depth"], 3, "{v}");
        assert_eq!(v["jobs"], report["jobs"], "{v}");
        assert_eq!(v["cubes"], 1, "{v}");
        // Asked again, the finished split has nothing left.
        let (code, again, _) = jobs(tmp.path(), &[]);
        assert_eq!(code, Some(0));
        assert_eq!(again["next"], Value::Null, "{again}");
        assert_eq!(again["left"], 0, "{again}");
    }
}

/// The protocol by hand, as with any scheduler: run jobs.txt, ask `jobs`
/// for the next round (exit 3 while jobs are left; asked twice, the same
/// list), run its lines, until `jobs` exits 0; a split job run again
/// keeps its pieces.
#[test]
fn rounds_by_hand_list_what_is_left() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = budget_split(tmp.path(), "9", "5", &["--format", "icnf"]);
    run_lines(&dir, "jobs.txt");
    let mut list = "jobs.txt".to_string();
    for round in 1.. {
        let (code, report, out) = jobs(tmp.path(), &[]);
        if code == Some(0) {
            assert!(round >= 3, "{report}");
            break;
        }
        assert_eq!(code, Some(3), "{}", stderr(&out));
        assert_eq!(report["next"]["round"], round, "{report}");
        assert_eq!(report["next"]["written"], true, "{report}");
        let (_, again, _) = jobs(tmp.path(), &[]);
        assert_eq!(again["next"]["round"], round, "{again}");
        assert_eq!(again["next"]["written"], false, "{again}");
        let plain = run_in(tmp.path(), &["jobs", "split"]);
        assert!(stdout(&plain).contains("(unchanged)"), "{}", stdout(&plain));
        list = report["next"]["file"].as_str().unwrap().to_string();
        run_lines(&dir, &list);
        assert!(round < 5, "the rounds never end: {report}");
    }
    assert_eq!(merged(tmp.path()), in_process("9", "5"));
    // The split job of round 0, run again, keeps its pieces.
    let out = run_in(&dir, &["job", ".", "cube-00000", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("already answered"),
        "{}",
        stderr(&out)
    );
    assert!(
        stderr(&out).contains("split into 6 pieces"),
        "{}",
        stderr(&out)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["pieces"].as_array().map(Vec::len), Some(6), "{v}");
    // A piece of the last round, by hand; ids that are no job.
    let last = std::fs::read_to_string(dir.join(&list)).unwrap();
    let id = last
        .lines()
        .next()
        .unwrap()
        .split_whitespace()
        .last()
        .unwrap();
    let out = run_in(&dir, &["job", ".", id]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    for bad in ["cube-00000.99", "cube-00001.00", "cube-00000.00.00.00"] {
        let out = run_in(&dir, &["job", ".", bad]);
        one_line_error(&out, "has no cube");
    }
}

/// Bad budgets, depths, engines and directories: one line, exit 2,
/// nothing written.
#[test]
fn bad_budgets_engines_and_directories_are_one_line_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    for (budget, what) in [
        ("0", "is not a positive number of seconds"),
        ("-1", "is not a positive number of seconds"),
        ("abc", "is not a positive number of seconds"),
        ("nan", "is not a positive number of seconds"),
        ("inf", "is not a positive number of seconds"),
    ] {
        let out = run_in(
            t,
            &[
                "cubes",
                "domination",
                "8",
                "-k",
                "5",
                "--job-budget",
                budget,
                "-o",
                "d",
            ],
        );
        one_line_error(&out, what);
        assert!(!t.join("d").exists(), "{budget}");
    }
    for (args, what) in [
        (
            &["cubes", "queens", "8", "--job-budget", "5", "-o", "d"][..],
            "re-splits the cubes of domination splits only",
        ),
        (
            &[
                "cubes",
                "domination",
                "8",
                "-k",
                "5",
                "--depth",
                "2",
                "--job-budget",
                "5",
                "--max-depth",
                "2",
                "-o",
                "d",
            ][..],
            "--max-depth 2 is not deeper than --depth 2",
        ),
        (
            &[
                "cubes",
                "domination",
                "8",
                "-k",
                "5",
                "--max-depth",
                "3",
                "-o",
                "d",
            ][..],
            "--job-budget",
        ),
        (
            &["cubes", "domination", "8", "-k", "5", "--job-budget", "5"][..],
            "--output",
        ),
        (&["jobs", "nowhere"][..], "not a 'boardsat cubes' directory"),
        (&["jobs", ".", "--run", "pbs"][..], "invalid value 'pbs'"),
        (&["jobs", ".", "--max-tasks", "2"][..], "--run"),
    ] {
        let out = run_in(t, args);
        one_line_error(&out, what);
        assert!(!t.join("d").exists(), "{args:?}");
    }
    let dir = budget_split(t, "8", "5", &[]);
    for (args, what) in [
        (
            &["jobs", "split", "--run", "local", "--max-tasks", "0"][..],
            "0",
        ),
        (
            &["jobs", "split", "--run", "local", "--sshloginfile", "hosts"][..],
            "--sshloginfile is GNU parallel's",
        ),
        (
            &[
                "jobs",
                "split",
                "--run",
                "parallel",
                "--sshloginfile",
                "nowhere",
            ][..],
            "is not a readable file",
        ),
    ] {
        let out = run_in(t, args);
        one_line_error(&out, what);
    }
    // A directory of files that is no split, and a split's MANIFEST with
    // a budget broken by hand.
    std::fs::create_dir(t.join("notes")).unwrap();
    std::fs::write(t.join("notes/jobs.txt"), "echo hi\n").unwrap();
    one_line_error(
        &run_in(t, &["jobs", "notes", "--run", "local"]),
        "not a 'boardsat cubes' directory",
    );
    assert!(!t.join("notes/rounds").exists());
    let manifest = std::fs::read_to_string(dir.join("MANIFEST")).unwrap();
    std::fs::write(
        dir.join("MANIFEST"),
        manifest.replace("# budget 0.001", "# budget -3"),
    )
    .unwrap();
    one_line_error(&run_in(t, &["jobs", "split"]), "is not a positive number");
    one_line_error(&run_in(t, &["merge", "split"]), "is not a positive number");
}

/// The answer file of job `id`.
fn answer(dir: &Path, id: &str) -> std::path::PathBuf {
    dir.join("results").join(format!("{id}.json"))
}

/// A round edited by hand — a piece's weight, cube or digest changed, a
/// piece missing, listed twice or added — is refused by `merge` and
/// `jobs`: one line, exit 2, nothing merged; restored, it merges again.
#[test]
fn rounds_edited_by_hand_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let dir = budget_split(t, "9", "5", &[]);
    let (code, _, out) = jobs(t, &["--run", "local"]);
    assert_eq!(code, Some(0), "{}", stderr(&out));
    let total = merged(t);
    let path = answer(&dir, "cube-00000");
    let saved = std::fs::read_to_string(&path).unwrap();
    let v: Value = serde_json::from_str(&saved).unwrap();
    let edit = |change: &dyn Fn(&mut Vec<Value>)| {
        let mut v = v.clone();
        let pieces = v["pieces"].as_array_mut().unwrap();
        change(pieces);
        std::fs::write(&path, v.to_string()).unwrap();
    };
    let refused = |what: &str| {
        for command in ["merge", "jobs"] {
            let out = run_in(t, &[command, "split"]);
            one_line_error(&out, what);
            assert!(out.stdout.is_empty(), "{command}: {}", stdout(&out));
        }
    };
    edit(&|p| p[1]["weight"] = Value::from(p[1]["weight"].as_u64().unwrap() + 1));
    refused("job cube-00000: piece cube-00000.08 has weight");
    edit(&|p| p[1]["description"] = Value::from("r0+r8-c0-c8-"));
    refused("piece cube-00000.08 is the cube r0+r8-c0-c8-");
    edit(&|p| {
        p.remove(2);
    });
    refused("job cube-00000: its pieces lack cube-00000.10");
    edit(&|p| {
        let first = p[0].clone();
        p.push(first);
    });
    refused("piece cube-00000.00 is listed twice");
    edit(&|p| {
        let mut extra = p[0].clone();
        extra["id"] = Value::from("cube-00000.01");
        extra["file"] = Value::from("cube-00000.01.cnf");
        p.push(extra);
    });
    refused("cube-00000.01 is not a piece of its cube");
    edit(&|p| p[0]["file"] = Value::from("cube-00000.08.cnf"));
    refused("piece cube-00000.00's file is 'cube-00000.08.cnf'");
    // A piece's digest changed: its answer is not that piece's any more.
    edit(&|p| p[0]["digest"] = Value::from("0".repeat(64)));
    let out = run_in(t, &["merge", "split"]);
    one_line_error(
        &out,
        "cube-00000.00 answers a file whose digest is not the manifest's",
    );
    std::fs::write(&path, &saved).unwrap();
    assert_eq!(merged(t), total);
    // A piece's answer of another piece.
    let other = std::fs::read(answer(&dir, "cube-00000.08.00")).unwrap();
    let kept = std::fs::read(answer(&dir, "cube-00000.00.00")).unwrap();
    std::fs::write(answer(&dir, "cube-00000.00.00"), other).unwrap();
    one_line_error(&run_in(t, &["merge", "split"]), "cube-00000.00.00 answers");
    std::fs::write(answer(&dir, "cube-00000.00.00"), kept).unwrap();
    assert_eq!(merged(t), total);
}

/// Waits (up to a minute) until `ready` holds.
fn wait_until(what: &str, ready: impl Fn() -> bool) {
    let start = std::time::Instant::now();
    while !ready() {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(60),
            "never: {what}"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// While a job runs, `jobs` reports it running and lists only the others;
/// a second driver is refused; the driver stopped by SIGINT stops its
/// round (exit 130), the stopped job is reported failed, the merge
/// refuses, and the next run finishes the split exactly.
#[cfg(unix)]
#[test]
fn running_stopped_and_failed_jobs_are_reported_and_run_again() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let dir = budget_split(t, "9", "5", &[]);
    // A leaf of round 2: it runs to its end, with the solver that hangs.
    let wrapper = common::hanging_wrapper(t, "cube-00000.00.00", 120);
    let mut driver = common::boardsat()
        .args(["jobs", "split", "--run", "local", "--max-tasks", "2"])
        .current_dir(t)
        .env("BOARDSAT", &wrapper)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    wait_until("the hanging job runs", || t.join("solver.pid").is_file());
    wait_until("its lock is taken", || {
        let (_, v, _) = jobs(t, &[]);
        v["running"] == 1
    });
    let (code, report, _) = jobs(t, &[]);
    assert_eq!(code, Some(3), "{report}");
    assert_eq!(
        report["running_jobs"][0]["id"], "cube-00000.00.00",
        "{report}"
    );
    let plain = stdout(&run_in(t, &["jobs", "split"]));
    assert!(plain.contains("running: cube-00000.00.00 (pid "), "{plain}");
    let out = run_in(t, &["jobs", "split", "--run", "local"]);
    one_line_error(&out, "drives the split in");
    // Once every other job of the round is done, stop the driver.
    wait_until("the round's other jobs end", || {
        let (_, v, _) = jobs(t, &[]);
        v["done"].as_u64().unwrap_or(0) + 1
            == v["jobs"].as_u64().unwrap_or(0) - v["split"].as_u64().unwrap_or(0)
    });
    let (code, _, _) = common::interrupt(&mut driver, &mut std::io::empty(), 1);
    assert_eq!(code, Some(130));
    let mut err = String::new();
    std::io::Read::read_to_string(driver.stderr.as_mut().unwrap(), &mut err).unwrap();
    let pid = std::fs::read_to_string(t.join("solver.pid")).unwrap();
    let _ = std::process::Command::new("kill")
        .args(["-KILL", pid.trim()])
        .status();
    assert!(
        err.contains("1 without an answer: cube-00000.00.00"),
        "{err}"
    );
    // Stopped by its signal, the job wrote its count marked incomplete
    // (failed), or its solver died first and it wrote nothing (left).
    let (code, report, _) = jobs(t, &[]);
    assert_eq!(code, Some(3), "{report}");
    assert_eq!(report["done"], 54, "{report}");
    assert_eq!(
        report["failed"].as_u64().unwrap() + report["left"].as_u64().unwrap(),
        1,
        "{report}"
    );
    assert_eq!(report["next"]["jobs"], 1, "{report}");
    let next = std::fs::read_to_string(dir.join(report["next"]["file"].as_str().unwrap())).unwrap();
    assert!(
        next.trim_end().ends_with("job . cube-00000.00.00"),
        "{next}"
    );
    one_line_error(&run_in(t, &["merge", "split"]), "cube-00000.00.00");
    let (code, report, out) = jobs(t, &["--run", "local"]);
    assert_eq!(code, Some(0), "{}", stderr(&out));
    assert_eq!(
        report["driven"].as_array().map(Vec::len),
        Some(1),
        "{report}"
    );
    assert_eq!(merged(t), in_process("9", "5"));
}

/// A job line whose program is missing (BOARDSAT names nothing) fails
/// every job: the driver names them, gives them up after their retries,
/// exits 2, and the merge refuses; the driver run again finishes.
#[test]
fn jobs_that_cannot_start_are_given_up_and_the_merge_refuses() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    budget_split(t, "8", "5", &[]);
    let out = common::boardsat()
        .args(["jobs", "split", "--run", "local", "--retries", "1"])
        .current_dir(t)
        .env("BOARDSAT", "/nonexistent/boardsat")
        .output()
        .unwrap();
    one_line_error(&out, "1 job failed in 2 rounds and was given up");
    let err = stderr(&out);
    assert!(
        err.contains("cube-00000 (no trace of it: it did not start; exit 127"),
        "{err}"
    );
    assert_eq!(
        err.matches("round 0 (jobs.txt): 1 job on local").count(),
        2,
        "retried once: {err}"
    );
    let out = run_in(t, &["merge", "split"]);
    one_line_error(&out, "missing: cube-00000");
    let (code, report, _) = jobs(t, &["--run", "local"]);
    assert_eq!(code, Some(0), "{report}");
    assert_eq!(merged(t), in_process("8", "5"));
}

/// A job stopped by its time limit wrote its count marked incomplete:
/// `jobs` reports it failed and why; one killed (its lock left) is
/// reported killed; both are listed in the next round with the jobs never
/// run, and run again there.
#[cfg(unix)]
#[test]
fn stopped_and_killed_jobs_are_failed_and_listed_again() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let out = run_in(
        t,
        &[
            "cubes",
            "domination",
            "8",
            "-k",
            "5",
            "--depth",
            "1",
            "-o",
            "split",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let dir = t.join("split");
    let ids: Vec<String> = std::fs::read_to_string(dir.join("jobs.txt"))
        .unwrap()
        .lines()
        .map(|l| l.split_whitespace().last().unwrap().to_string())
        .collect();
    common::hanging_wrapper(t, "none", 120);
    let solver = t.join("hang.sh").display().to_string();
    let out = run_in(
        &dir,
        &[
            "job",
            ".",
            &ids[0],
            "--solver-cmd",
            &solver,
            "--time-limit",
            "0.5",
        ],
    );
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    std::fs::write(
        dir.join("results").join(format!("{}.lock", ids[1])),
        "12345",
    )
    .unwrap();
    let (code, report, _) = jobs(t, &[]);
    assert_eq!(code, Some(3), "{report}");
    assert_eq!(report["failed"], 2, "{report}");
    assert_eq!(report["failures"][0]["id"], ids[0], "{report}");
    assert_eq!(
        report["failures"][0]["why"], "stopped (time limit)",
        "{report}"
    );
    assert_eq!(
        report["failures"][1]["why"], "killed (its lock or temporary is left)",
        "{report}"
    );
    assert_eq!(report["left"], ids.len() - 2, "{report}");
    assert_eq!(report["next"]["jobs"], ids.len(), "{report}");
    assert_eq!(
        report["next"]["file"], "jobs.txt",
        "every job is left: round 0 still: {report}"
    );
    let plain = stdout(&run_in(t, &["jobs", "split"]));
    assert!(
        plain.contains(&format!("failed: {} (stopped (time limit))", ids[0])),
        "{plain}"
    );
    let (code, _, out) = jobs(t, &["--run", "local"]);
    assert_eq!(code, Some(0), "{}", stderr(&out));
    assert_eq!(merged(t), in_process("8", "5"));
}

/// `merge --verify` and `verify` check a split with rounds whole: every
/// leaf's proof, every split job's pieces rebuilt from the spec and
/// covering it, the total; a round tampered with — a piece's weight, file,
/// proof or count, a piece dropped, a stray proof of a split job — is not
/// verified (exit 1, nothing merged), and verifies again once restored.
#[test]
fn rounds_with_proofs_verify_whole_and_tampering_is_rejected() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let dir = budget_split(t, "9", "5", &["--proof"]);
    let (code, report, out) = jobs(t, &["--run", "local"]);
    assert_eq!(code, Some(0), "{}", stderr(&out));
    let leaves = report["done"].as_u64().unwrap();
    let verified = |t: &Path| {
        let out = run_in(t, &["merge", "--verify", "split"]);
        assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
        assert_eq!(stdout(&out).trim(), in_process("9", "5"));
        let err = stderr(&out);
        assert!(
            err.contains(&format!("{leaves} jobs' LRAT proofs verified")),
            "{err}"
        );
        assert!(
            err.contains("61 pieces of jobs split past their budget"),
            "{err}"
        );
    };
    verified(t);
    let out = run_in(t, &["verify", "split"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let text = stdout(&out);
    assert!(text.contains("cube-00000: verified (split past its budget into 6 pieces, rebuilt from the spec, whose orbits under its stabilizer hold its 16 refinements"), "{text}");
    assert!(
        text.contains("cube-00000.00.00: verified (LRAT proof of"),
        "{text}"
    );
    assert!(
        !dir.join("proofs/cube-00000").exists(),
        "a split job has no proof"
    );
    let rejected = |what: &str| {
        for command in [&["merge", "--verify", "split"][..], &["verify", "split"]] {
            let out = run_in(t, command);
            let text = stdout(&out);
            assert_eq!(
                out.status.code(),
                Some(1),
                "{command:?} {what}: {text}{}",
                stderr(&out)
            );
            assert!(text.contains(what), "{command:?} {what}: {text}");
            assert!(
                text.lines().last().unwrap().starts_with("NOT verified"),
                "{text}"
            );
            assert!(!text.lines().any(|l| l.trim() == "114"), "merged: {text}");
        }
    };
    let parent = answer(&dir, "cube-00000.08");
    let saved = std::fs::read_to_string(&parent).unwrap();
    let mut v: Value = serde_json::from_str(&saved).unwrap();
    let n = v["pieces"].as_array().unwrap().len();
    let weight = v["pieces"][0]["weight"].as_u64().unwrap();
    v["pieces"][0]["weight"] = Value::from(weight * 2);
    std::fs::write(&parent, v.to_string()).unwrap();
    rejected(&format!("job cube-00000.08, split past its budget: its {n} pieces are not the {n} pieces rebuilt from the spec"));
    let mut v: Value = serde_json::from_str(&saved).unwrap();
    v["pieces"].as_array_mut().unwrap().pop();
    std::fs::write(&parent, v.to_string()).unwrap();
    rejected(&format!(
        "its {} pieces are not the {n} pieces rebuilt from the spec",
        n - 1
    ));
    std::fs::write(&parent, &saved).unwrap();
    verified(t);
    // A piece's file, a leaf's proof, a leaf's count.
    let leaf = "cube-00000.08.00";
    let file = dir.join(format!("{leaf}.cnf"));
    let bytes = std::fs::read(&file).unwrap();
    std::fs::copy(dir.join("cube-00000.08.02.cnf"), &file).unwrap();
    rejected(&format!(
        "{leaf}.cnf is not the piece's formula as rebuilt from the manifest's spec"
    ));
    std::fs::write(&file, &bytes).unwrap();
    let proof = dir.join(format!("proofs/{leaf}/MANIFEST.json"));
    let kept = std::fs::read(&proof).unwrap();
    std::fs::remove_file(&proof).unwrap();
    rejected("missing: no proof");
    std::fs::write(&proof, &kept).unwrap();
    let result = answer(&dir, leaf);
    let kept = std::fs::read_to_string(&result).unwrap();
    let mut v: Value = serde_json::from_str(&kept).unwrap();
    v["count"] = Value::from(v["count"].as_u64().unwrap() + 1);
    std::fs::write(&result, v.to_string()).unwrap();
    rejected("the job's result counts");
    std::fs::write(&result, &kept).unwrap();
    // A split of every cube (no orbits) with rounds verifies too.
    let every = tempfile::tempdir().unwrap();
    budget_split(
        every.path(),
        "8",
        "5",
        &["--proof", "--no-halve", "--depth", "0", "--max-depth", "1"],
    );
    let (code, _, out) = jobs(every.path(), &["--run", "local"]);
    assert_eq!(code, Some(0), "{}", stderr(&out));
    let out = run_in(every.path(), &["merge", "--verify", "split"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(stdout(&out).trim(), in_process("8", "5"));
    // A proof for a split job, which counts nothing: a stray claim.
    let stray = dir.join("proofs/cube-00000.08");
    std::fs::create_dir_all(&stray).unwrap();
    for name in ["MANIFEST.json", "claim-0000.cnf", "claim-0000.lrat"] {
        std::fs::copy(dir.join(format!("proofs/{leaf}/{name}")), stray.join(name)).unwrap();
    }
    rejected("holds 1 proof for no cube of the split (cube-00000.08)");
    std::fs::remove_dir_all(&stray).unwrap();
    verified(t);
}

/// `cubes --proof --proof-format binary --proof-compression zstd`: the
/// MANIFEST says so, every job (pieces of split jobs too) writes CaDiCaL's
/// binary LRAT, zstd-compressed, and the split verifies to the in-process
/// count; a bad format or compression line is refused.
#[test]
fn jobs_write_the_proof_format_the_split_names() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let dir = budget_split(
        t,
        "8",
        "5",
        &[
            "--proof",
            "--proof-format",
            "binary",
            "--proof-compression",
            "zstd",
        ],
    );
    let manifest = std::fs::read_to_string(dir.join("MANIFEST")).unwrap();
    assert!(
        manifest.contains("\n# proof-format lrat-binary\n# proof-compression zstd\n"),
        "{manifest}"
    );
    let (code, _, out) = jobs(t, &["--run", "local"]);
    assert_eq!(code, Some(0), "{}", stderr(&out));
    let out = run_in(t, &["merge", "--verify", "split"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), in_process("8", "5"));
    let mut formats = Vec::new();
    for job in std::fs::read_dir(dir.join("proofs")).unwrap() {
        let claims: Value = serde_json::from_str(
            &std::fs::read_to_string(job.unwrap().path().join("MANIFEST.json")).unwrap(),
        )
        .unwrap();
        for claim in claims["claims"].as_array().unwrap() {
            formats.push(claim["format"].as_str().unwrap().to_string());
            let proof = claim["proof"].as_str().unwrap();
            assert!(proof.ends_with(".lrat.zst"), "{claim}");
        }
    }
    assert!(!formats.is_empty());
    assert!(formats.iter().all(|f| f == "lrat-binary"), "{formats:?}");
    // A format or a compression nobody writes: one line, exit 2, nothing
    // merged.
    for (from, to, error) in [
        ("lrat-binary", "lrat-zip", "proof format 'lrat-zip'"),
        (
            "compression zstd",
            "compression xz",
            "proof compression 'xz'",
        ),
    ] {
        std::fs::write(dir.join("MANIFEST"), manifest.replace(from, to)).unwrap();
        let out = run_in(t, &["merge", "split"]);
        one_line_error(&out, error);
    }
    // Without --proof the format means nothing.
    let out = run_in(
        t,
        &[
            "cubes",
            "domination",
            "8",
            "-k",
            "5",
            "--proof-format",
            "binary",
            "-o",
            "other",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
}

/// The sum of the job counts (models) of a finished split in `dir`.
fn models(dir: &Path) -> u64 {
    std::fs::read_dir(dir.join("results"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| {
            let v: Value = serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
            if v["pieces"].is_array() {
                0
            } else {
                v["count"].as_u64().unwrap()
            }
        })
        .sum()
}

/// `cubes --lex-leader`: each cube's file carries the lex-leader
/// constraints under its stabilizer, so its jobs count orbit
/// representatives, fewer models than the split without; each answer says
/// how many placements its models stand for, and the merge of those (with
/// rounds of pieces too) is A002564(n) (OEIS: 4860 for 8×8, 114 for 9×9,
/// 8 for 10×10), as the split without the constraints merges, and its
/// orbit representatives add up to A002563(n) (638, 21, 1), which `merge`
/// reports as `orbits` (absent without the constraints). `merge
/// --verify` checks each leaf's models against its proof: a result whose
/// placements were edited is not verified, one without them is no answer.
/// Not with --format icnf or --no-halve: one-line errors.
#[test]
fn lex_leader_splits_count_orbit_representatives_and_verify() {
    // The 8×8 split with the constraints, kept for the tampering below.
    let mut eight = None;
    for (n, k, want, orbits, extra) in [
        ("8", "5", "4860", 638, &["--depth", "1"][..]),
        ("9", "5", "114", 21, &[][..]),
        ("10", "5", "8", 1, &[][..]),
    ] {
        let plain = tempfile::tempdir().unwrap();
        let lexed = tempfile::tempdir().unwrap();
        for (tmp, lex) in [(plain.path(), false), (lexed.path(), true)] {
            let mut args = vec!["--proof"];
            args.extend(extra);
            if lex {
                args.push("--lex-leader");
            }
            let dir = if extra.is_empty() {
                budget_split(tmp, n, k, &args)
            } else {
                let mut all = vec!["cubes", "domination", n, "-k", k, "-o", "split"];
                all.extend(&args);
                let out = run_in(tmp, &all);
                assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
                tmp.join("split")
            };
            let spec = std::fs::read_to_string(dir.join("MANIFEST")).unwrap();
            assert_eq!(spec.contains(" lex=lines-first\n"), lex, "{spec}");
            let (code, _, out) = jobs(tmp, &["--run", "local"]);
            assert_eq!(code, Some(0), "{}", stderr(&out));
            let out = run_in(tmp, &["merge", "--verify", "split"]);
            assert_eq!(out.status.code(), Some(0), "{n} {lex}: {}", stdout(&out));
            assert_eq!(stdout(&out).trim(), want, "{n} {lex}");
            let up_to_symmetry = format!("weighted total {want} ({orbits} up to symmetry)");
            assert_eq!(
                stderr(&out).contains(&up_to_symmetry),
                lex,
                "{}",
                stderr(&out)
            );
            let out = run_in(tmp, &["merge", "--json", "split"]);
            let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
            assert_eq!(v["count"].to_string(), want, "{v}");
            let expected = if lex {
                Value::from(orbits)
            } else {
                Value::Null
            };
            assert_eq!(v["orbits"], expected, "{n} {lex}: {v}");
        }
        let (few, all) = (
            models(&lexed.path().join("split")),
            models(&plain.path().join("split")),
        );
        assert!(
            few < all,
            "{n}: {few} orbit representatives, {all} models without"
        );
        if n == "8" {
            eight = Some(lexed);
        }
    }
    // Tampering with the 8×8 split's answers.
    let tmp = eight.unwrap();
    let t = tmp.path();
    let dir = t.join("split");
    let result = answer(&dir, "cube-00001");
    let kept = std::fs::read_to_string(&result).unwrap();
    let mut v: Value = serde_json::from_str(&kept).unwrap();
    let placements = v["placements"].as_u64().unwrap();
    assert!(placements > v["count"].as_u64().unwrap(), "{v}");
    v["placements"] = Value::from(placements + 8);
    std::fs::write(&result, v.to_string()).unwrap();
    let out = run_in(t, &["merge", "--verify", "split"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains(&format!(
            "cube-00001: NOT verified: the job's result says {} placements",
            placements + 8
        )),
        "{text}"
    );
    assert!(!text.lines().any(|l| l.trim() == "4860"), "merged: {text}");
    v.as_object_mut().unwrap().remove("placements");
    std::fs::write(&result, v.to_string()).unwrap();
    let out = run_in(t, &["merge", "split"]);
    one_line_error(&out, "incomplete: cube-00001");
    std::fs::write(&result, &kept).unwrap();
    let out = run_in(t, &["merge", "--verify", "split"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    for bad in [&["--format", "icnf"][..], &["--no-halve"]] {
        let mut args = vec![
            "cubes",
            "domination",
            "8",
            "-k",
            "5",
            "--lex-leader",
            "-o",
            "bad",
        ];
        args.extend(bad);
        let out = run_in(t, &args);
        one_line_error(&out, "--lex-leader");
        assert!(!t.join("bad").exists(), "{bad:?}");
    }
}

/// A `--lex-leader` split whose MANIFEST lost ` lex=lines-first` (or a
/// split without the constraints whose MANIFEST gained it) cannot be
/// reconciled — its cube files say otherwise — and nothing is summed: a
/// job refuses to count it, and plain `merge` refuses, one line each,
/// whether the answers came from the jobs (which weighed their orbit
/// representatives) or from `count-dimacs --json` run on each cube file
/// by another scheduler (which did not). Issue 53: plain `merge` once
/// printed 44 for A002564(7) = 86.
#[test]
fn a_manifest_that_disagrees_with_its_cube_files_on_lex_leader_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let cubes = |name: &str, lex: bool| {
        let mut args: Vec<&str> = "cubes domination 7 -k 4 --depth 1 -o".split(' ').collect();
        args.push(name);
        if lex {
            args.push("--lex-leader");
        }
        let out = run_in(t, &args);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        t.join(name)
    };
    let edit = |dir: &Path, from: &str, to: &str| {
        let path = dir.join("MANIFEST");
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "{text}");
        std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    };
    let spec_end = "format=cnf\n";
    let lex_end = "format=cnf lex=lines-first\n";
    // Run as jobs, then the word lost.
    let split = cubes("split", true);
    let (code, _, out) = jobs(t, &["--run", "local"]);
    assert_eq!(code, Some(0), "{}", stderr(&out));
    assert_eq!(merged(t), in_process("7", "4"));
    edit(&split, lex_end, spec_end);
    one_line_error(&run_in(t, &["merge", "split"]), "lex-leader constraints");
    // Lost before the jobs ran: the job refuses.
    let fresh = cubes("fresh", true);
    edit(&fresh, lex_end, spec_end);
    one_line_error(
        &run_in(&fresh, &["job", ".", "cube-00001"]),
        "cube-00001.cnf ends with lex-leader constraints",
    );
    // Counted by count-dimacs as another scheduler would: each answer a
    // count of orbit representatives, which the merge must not weigh as
    // placements.
    for id in ["00000", "00001", "00002", "00003", "00004", "00005"] {
        let out = run_in(
            &fresh,
            &["count-dimacs", &format!("cube-{id}.cnf"), "--json"],
        );
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        std::fs::create_dir_all(fresh.join("results")).unwrap();
        std::fs::write(answer(&fresh, &format!("cube-{id}")), stdout(&out)).unwrap();
    }
    one_line_error(
        &run_in(t, &["merge", "fresh"]),
        "cube-00000.cnf ends with lex-leader constraints",
    );
    // The word gained by a split without the constraints.
    let plain = cubes("plain", false);
    edit(&plain, spec_end, lex_end);
    one_line_error(
        &run_in(&plain, &["job", ".", "cube-00001"]),
        "cube-00001.cnf carries no lex-leader constraints",
    );
}
