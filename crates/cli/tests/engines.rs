//! The rounds of a re-splitting split run by the engines researchers
//! have: GNU parallel (its joblog, over an `--sshloginfile`) and Slurm job
//! arrays, on a one-node Slurm (`scripts/slurm-local.sh`, which
//! `scripts/test.sh` starts). Domination counts on 9 × 9 and 10 × 10 with
//! a budget that forces two rounds of re-splits equal the in-process
//! counts and verify whole; a Slurm task cancelled mid-run (`scancel`) is
//! named, and the round run again is still exact; jobs that cannot start
//! (a bad binary path) are named, and the merge refuses.
//!
//! Without GNU parallel the parallel tests fail saying what to install,
//! unless `BOARDSAT_SKIP_EXTERNAL=1`; without a Slurm that answers, the
//! Slurm test fails saying how to start one, unless
//! `BOARDSAT_SKIP_SLURM=1` (or `BOARDSAT_SKIP_EXTERNAL=1`): a skip is
//! always said on stderr.

mod common;

use std::{
    path::{Path, PathBuf},
    process::{Command, Output},
    time::{Duration, Instant},
};

use common::{in_process, one_line_error, run, stderr, stdout, verified};
use serde_json::Value;

/// The configuration the Slurm commands read: `SLURM_CONF`, else the one
/// `scripts/slurm-local.sh` writes, if it is there.
fn slurm_conf() -> Option<PathBuf> {
    if let Some(conf) = std::env::var_os("SLURM_CONF") {
        return Some(PathBuf::from(conf));
    }
    let state = std::env::var_os("BOARDSAT_SLURM_DIR")
        .map_or_else(|| PathBuf::from("/tmp/boardsat-slurm"), PathBuf::from);
    let conf = state.join("slurm.conf");
    conf.is_file().then_some(conf)
}

/// `program` with the Slurm configuration in its environment.
fn command(program: &str) -> Command {
    let mut c = Command::new(program);
    if let Some(conf) = slurm_conf() {
        c.env("SLURM_CONF", conf);
    }
    c
}

/// `boardsat` with the Slurm configuration in its environment.
fn boardsat() -> Command {
    command(env!("CARGO_BIN_EXE_boardsat"))
}

/// Whether a Slurm node answers and takes jobs; a skip is said, and a
/// missing Slurm without a skip fails the test saying how to start one.
fn slurm() -> bool {
    let up = command("sinfo")
        .args(["--noheader", "--format=%T"])
        .output()
        .is_ok_and(|o| {
            o.status.success()
                && String::from_utf8_lossy(&o.stdout)
                    .lines()
                    .any(|l| ["idle", "mixed", "allocated", "completing"].contains(&l.trim()))
        });
    if up {
        return true;
    }
    for skip in ["BOARDSAT_SKIP_SLURM", "BOARDSAT_SKIP_EXTERNAL"] {
        if std::env::var(skip).as_deref() == Ok("1") {
            common::skipped(&format!("no Slurm node answers and {skip}=1"));
            return false;
        }
    }
    panic!(
        "no Slurm node answers: start one with scripts/slurm-local.sh (as root; it installs slurm-wlm and munge) and export SLURM_CONF as it says, or set BOARDSAT_SKIP_SLURM=1"
    );
}

/// `cubes domination N -k K --depth 0 --job-budget 0.001 --max-depth 2
/// --proof -o NAME` in `tmp`: every job that can be split is, two rounds
/// of pieces deep.
fn budget_split(tmp: &Path, name: &str, n: &str, k: &str) -> PathBuf {
    let out = run(&[
        "cubes",
        "domination",
        n,
        "-k",
        k,
        "--depth",
        "0",
        "--job-budget",
        "0.001",
        "--max-depth",
        "2",
        "--proof",
        "-o",
        tmp.join(name).to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    tmp.join(name)
}

/// `jobs DIR --json --run ENGINE extra`: the exit code, the report, and
/// the run.
fn drive(
    dir: &Path,
    engine: &str,
    extra: &[&str],
    env: &[(&str, &str)],
) -> (Option<i32>, Value, Output) {
    let mut c = boardsat();
    c.args(["jobs", dir.to_str().unwrap(), "--json", "--run", engine]);
    c.args(extra);
    for (key, value) in env {
        c.env(key, value);
    }
    let out = c.output().unwrap();
    let report = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (out.status.code(), report, out)
}

/// A driven split ran at least three rounds (two of re-splits) and
/// finished.
fn rounds_ran(report: &Value) {
    assert_eq!(report["finished"], true, "{report}");
    assert_eq!(report["depth"], 3, "two rounds of pieces: {report}");
    assert!(report["driven"].as_array().unwrap().len() >= 3, "{report}");
}

#[test]
fn gnu_parallel_runs_the_rounds_to_the_in_process_count() {
    if !common::external("parallel", "parallel") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    // Over an ssh login file naming this machine (`:`), two jobs at once.
    let hosts = t.join("hosts");
    std::fs::write(&hosts, "2/:\n").unwrap();
    let d9 = budget_split(t, "d9", "9", "5");
    let (code, report, out) = drive(
        &d9,
        "parallel",
        &["--sshloginfile", hosts.to_str().unwrap()],
        &[],
    );
    assert_eq!(code, Some(0), "{}", stderr(&out));
    rounds_ran(&report);
    let joblog = std::fs::read_to_string(d9.join("rounds/1.log")).unwrap();
    assert!(joblog.starts_with("Seq\tHost\t"), "{joblog}");
    assert_eq!(
        joblog.lines().count(),
        1 + report["driven"][1]["round"]["jobs"].as_u64().unwrap() as usize,
        "{joblog}"
    );
    assert_eq!(verified(&d9, ""), in_process("9", "5"));
    let d10 = budget_split(t, "d10", "10", "5");
    let (code, report, out) = drive(&d10, "parallel", &["--max-tasks", "2"], &[]);
    assert_eq!(code, Some(0), "{}", stderr(&out));
    rounds_ran(&report);
    assert_eq!(verified(&d10, ""), in_process("10", "5"));
    // A binary that is not there: every job fails, GNU parallel's exit
    // status is named, the merge refuses.
    let bad = budget_split(t, "bad", "8", "5");
    let (code, _, out) = drive(
        &bad,
        "parallel",
        &[],
        &[("BOARDSAT", "/nonexistent/boardsat")],
    );
    assert_eq!(code, Some(2));
    one_line_error(&out, "1 job failed in 1 round and was given up");
    assert!(
        stderr(&out).contains("GNU parallel on :: exit 127"),
        "{}",
        stderr(&out)
    );
    one_line_error(
        &run(&["merge", bad.to_str().unwrap()]),
        "missing: cube-00000",
    );
}

/// Waits (up to two minutes) until `ready` holds.
fn wait_until(what: &str, ready: impl Fn() -> bool) {
    let start = Instant::now();
    while !ready() {
        assert!(start.elapsed() < Duration::from_secs(120), "never: {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The Slurm job name of round `round` of the split in `dir`.
fn slurm_name(dir: &Path, round: usize) -> String {
    boardsat_jobs::engine::slurm_name(dir, round)
}

/// The state of Slurm job or task `id` (`RUNNING`, …), empty once it has
/// left the queue.
fn slurm_state(id: &str) -> String {
    let out = command("squeue")
        .args(["--noheader", "--format=%T", "--jobs", id])
        .output()
        .unwrap();
    stdout(&out).trim().to_string()
}

/// Slurm, one scenario after another on the one node: the counts on
/// 9 × 9 and 10 × 10 through two rounds of re-splits; a task cancelled
/// mid-run and the round run again; jobs that cannot start.
#[cfg(unix)]
#[test]
fn slurm_arrays_run_the_rounds_exactly_through_cancels_and_crashes() {
    if !slurm() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    for (n, k) in [("9", "5"), ("10", "5")] {
        let dir = budget_split(t, &format!("d{n}"), n, k);
        let (code, report, out) = drive(&dir, "slurm", &["--max-tasks", "2"], &[]);
        assert_eq!(code, Some(0), "{}", stderr(&out));
        rounds_ran(&report);
        let task = std::fs::read_to_string(dir.join("rounds/slurm-0-0-0.out")).unwrap();
        assert!(
            task.ends_with("slurm.sbatch: line 1 of jobs.txt exited with 0\n"),
            "{task}"
        );
        assert_eq!(verified(&dir, ""), in_process(n, k), "{n}");
    }

    // scancel: a leaf of round 2 hangs; its task is cancelled while it
    // runs; the driver names it and exits 2; run again, exact.
    let dir = budget_split(t, "cancel", "9", "5");
    let leaf = "cube-00000.00.00";
    let wrapper = common::hanging_wrapper(t, leaf, 300);
    let driver = boardsat()
        .args(["jobs", dir.to_str().unwrap(), "--run", "slurm"])
        .env("BOARDSAT", &wrapper)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    wait_until("the hanging job runs", || t.join("solver.pid").is_file());
    let list = std::fs::read_to_string(dir.join("rounds/2.txt")).unwrap();
    let index = list
        .lines()
        .position(|l| l.ends_with(&format!(" job . {leaf}")))
        .expect("the leaf is in round 2");
    let name = slurm_name(&dir, 2);
    let array = stdout(
        &command("squeue")
            .args(["--noheader", "--format=%F", "--name", &name])
            .output()
            .unwrap(),
    );
    let array = array
        .lines()
        .next()
        .expect("round 2's array is queued")
        .trim()
        .to_string();
    let task = format!("{array}_{index}");
    wait_until("its task is RUNNING", || slurm_state(&task) == "RUNNING");
    let cancel = command("scancel").arg(&task).status().unwrap();
    assert!(cancel.success());
    let out = driver.wait_with_output().unwrap();
    one_line_error(
        &out,
        &format!("1 job failed in 1 round and was given up, so the split cannot be merged: {leaf}"),
    );
    let err = stderr(&out);
    assert!(err.contains(&format!("Slurm task {task}")), "{err}");
    one_line_error(&run(&["merge", dir.to_str().unwrap()]), leaf);
    let (code, report, out) = drive(&dir, "slurm", &[], &[]);
    assert_eq!(code, Some(0), "{}", stderr(&out));
    assert_eq!(
        report["driven"].as_array().map(Vec::len),
        Some(1),
        "{report}"
    );
    assert_eq!(verified(&dir, ""), in_process("9", "5"));

    // A binary that is not there: the task's exit is named, the merge
    // refuses.
    let bad = budget_split(t, "bad", "8", "5");
    let (code, _, out) = drive(&bad, "slurm", &[], &[("BOARDSAT", "/nonexistent/boardsat")]);
    assert_eq!(code, Some(2));
    one_line_error(&out, "1 job failed in 1 round and was given up");
    assert!(
        stderr(&out).contains("slurm.sbatch: line 1 of jobs.txt exited with 127"),
        "{}",
        stderr(&out)
    );
    one_line_error(
        &run(&["merge", bad.to_str().unwrap()]),
        "missing: cube-00000",
    );
}
