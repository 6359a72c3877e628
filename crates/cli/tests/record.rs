//! `verify --record FILE`: the proofs a check accepted are kept in a
//! record, and the next check with the same record takes them from it
//! instead of checking them again — a check of many hours that stops goes
//! on where it stood. Only unchanged files checked by the same checkers
//! are taken; the last line says how many were.

mod common;

use std::path::{Path, PathBuf};

use common::{one_line_error, run, script, text};

/// `verify DIR [more]`: exit code, last line and the JSON report of a
/// second run is not needed here.
fn verify(dir: &Path, more: &[&str]) -> (Option<i32>, String) {
    let mut args = vec!["verify", dir.to_str().unwrap()];
    args.extend(more);
    let o = run(&args);
    let out = text(&o.stdout);
    (
        o.status.code(),
        out.lines().last().unwrap_or("").to_string(),
    )
}

/// The claims of a proof directory.
fn claims(dir: &Path) -> usize {
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("MANIFEST.json")).unwrap()).unwrap();
    manifest["claims"].as_array().unwrap().len()
}

/// Lines of a file (0 when it is missing).
fn lines(path: &Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |t| t.lines().count())
}

/// A checker that logs each run to `log` and hands it to cake_lpr, failing
/// instead while the file `fail` exists: the same bytes either way, so the
/// record knows it as one checker.
fn logging_checker(tmp: &Path, cake: &Path) -> PathBuf {
    let (log, fail) = (tmp.join("runs.log"), tmp.join("fail"));
    script(
        tmp,
        "logging-checker",
        &format!(
            "echo \"$1\" >> '{}'\n[ -e '{}' ] && exit 1\nexec '{}' \"$@\"",
            log.display(),
            fail.display(),
            cake.display()
        ),
    )
}

/// A binary proof directory (in a temporary one), its number of claims
/// (at least 3) and cake_lpr; `None` when cake_lpr is skipped.
fn binary_dir_and_cake() -> Option<(tempfile::TempDir, PathBuf, usize, PathBuf)> {
    let cake = common::cake_lpr()?;
    let tmp = tempfile::tempdir().unwrap();
    let dir = common::binary_proof_dir(tmp.path());
    let n = claims(&dir);
    assert!(n >= 3, "{n} claims");
    Some((tmp, dir, n, cake))
}

#[test]
fn a_stopped_check_goes_on_from_its_record_and_checks_only_what_it_lacks() {
    let Some((tmp, dir, n, cake)) = binary_dir_and_cake() else {
        return;
    };
    let checker = logging_checker(tmp.path(), &cake);
    let (record, log) = (tmp.path().join("record"), tmp.path().join("runs.log"));
    let args = [
        "--checker",
        checker.to_str().unwrap(),
        "--record",
        record.to_str().unwrap(),
        "--threads",
        "1",
    ];
    // The checker fails on every claim: nothing is recorded as accepted.
    std::fs::write(tmp.path().join("fail"), "").unwrap();
    let (code, last) = verify(&dir, &args);
    assert_eq!(code, Some(1), "{last}");
    assert!(last.starts_with("NOT verified"), "{last}");
    assert_eq!(lines(&record), 1, "only the header: nothing was accepted");
    std::fs::remove_file(tmp.path().join("fail")).unwrap();
    // Now it accepts: every claim is checked and recorded.
    let before = lines(&log);
    let (code, last) = verify(&dir, &args);
    assert_eq!(code, Some(0), "{last}");
    assert!(
        last.starts_with("verified: ") && !last.contains("taken from the record"),
        "{last}"
    );
    assert_eq!(lines(&log) - before, n, "each claim checked once");
    assert_eq!(lines(&record), n + 1);
    // Again: every proof comes from the record, none is checked, and the
    // last line says so; the JSON counts them.
    let before = lines(&log);
    let (code, last) = verify(&dir, &args);
    assert_eq!(code, Some(0), "{last}");
    assert!(
        last.contains(&format!(
            "{n} proofs taken from the record {}",
            record.display()
        )),
        "{last}"
    );
    assert!(
        last.contains(&format!(
            "by logging-checker ({}): {n} proofs",
            checker.display()
        )),
        "{last}"
    );
    assert_eq!(lines(&log), before, "a recorded proof was checked again");
    let mut json_args = args.to_vec();
    json_args.push("--json");
    let o = run(&[&["verify", dir.to_str().unwrap()][..], &json_args].concat());
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(report["verified"], true);
    assert_eq!(report["record"]["reused"], n);
    assert_eq!(report["record"]["added"], 0);
    assert_eq!(report["external_checker"]["accepted"], n);
}

/// Waits until `path` exists (a condition, not a time), failing after
/// minutes.
fn wait_for(path: &Path) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(600);
    while !path.exists() {
        assert!(
            std::time::Instant::now() < deadline,
            "{} never appeared",
            path.display()
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Starts `verify DIR ARGS`, waits until `waiting` exists, interrupts it:
/// its exit code and stdout.
fn interrupted_verify(dir: &Path, args: &[&str], waiting: &Path) -> (Option<i32>, String) {
    let mut child = common::boardsat()
        .args(["verify", dir.to_str().unwrap()])
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    wait_for(waiting);
    let mut err = child.stderr.take().unwrap();
    let (code, out, _) = common::interrupt(&mut child, &mut err, 1);
    (code, out)
}

#[test]
fn a_stopped_check_says_how_far_it_got_and_what_its_record_holds() {
    let Some((tmp, dir, _, cake)) = binary_dir_and_cake() else {
        return;
    };
    // cake_lpr on the first claim; then, while the file `stall` exists,
    // it says it is waiting and waits until it is killed.
    let (first, stall, waiting) = (
        tmp.path().join("first"),
        tmp.path().join("stall"),
        tmp.path().join("waiting"),
    );
    let checker = script(
        tmp.path(),
        "stalling-checker",
        &format!(
            "if [ -e '{s}' ] && [ -e '{f}' ]; then : > '{w}'; exec sleep 600; fi\n: > '{f}'\nexec '{c}' \"$@\"",
            s = stall.display(),
            f = first.display(),
            w = waiting.display(),
            c = cake.display()
        ),
    );
    let record = tmp.path().join("record");
    let args = [
        "--checker",
        checker.to_str().unwrap(),
        "--record",
        record.to_str().unwrap(),
        "--threads",
        "1",
    ];
    std::fs::write(&stall, "").unwrap();
    let (code, out) = interrupted_verify(&dir, &args, &waiting);
    assert_eq!(code, Some(130), "{out}");
    let last = out.lines().last().unwrap_or("");
    assert!(
        last.starts_with("NOT verified: stopped (interrupted) with 1 of ")
            && last.contains(&format!(
                "the record {} holds the proofs accepted (0 taken from it, 1 added)",
                record.display()
            ))
            && last.ends_with("nothing is proven"),
        "{out}"
    );
    assert_eq!(lines(&record), 2, "the header and the one proof accepted");
    // Stopped again, with --json: the first proof now comes from the record.
    std::fs::remove_file(&waiting).unwrap();
    let mut json_args = args.to_vec();
    json_args.push("--json");
    let (code, out) = interrupted_verify(&dir, &json_args, &waiting);
    assert_eq!(code, Some(130), "{out}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["verified"], false, "{out}");
    assert_eq!(report["stopped"], "interrupted", "{out}");
    assert_eq!(report["record"]["reused"], 1, "{out}");
    assert_eq!(report["record"]["added"], 0, "{out}");
    // Unstalled, the check goes on from the record and verifies.
    std::fs::remove_file(&stall).unwrap();
    let (code, last) = verify(&dir, &args);
    assert_eq!(code, Some(0), "{last}");
    assert!(last.contains("1 proof taken from the record"), "{last}");
}

#[test]
fn a_changed_proof_or_another_checker_is_checked_again() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = common::binary_proof_dir(tmp.path());
    let n = claims(&dir);
    let record = tmp.path().join("record");
    let with_record = ["--record", record.to_str().unwrap()];
    assert_eq!(verify(&dir, &with_record).0, Some(0));
    assert_eq!(lines(&record), n + 1);
    // A checker that accepts everything, not the one recorded: every
    // proof is checked by boardsat again and by it.
    let yes = script(tmp.path(), "yes-checker", "echo 's VERIFIED'");
    let (code, last) = verify(
        &dir,
        &[&with_record[..], &["--checker", yes.to_str().unwrap()]].concat(),
    );
    assert_eq!(code, Some(0), "{last}");
    assert!(!last.contains("taken from the record"), "{last}");
    // One proof changed in one byte after it was recorded: checked again,
    // and refused, whatever the record says.
    let claim = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with(".lrat.zst"))
        .unwrap();
    let mut bytes = std::fs::read(&claim).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x55;
    std::fs::write(&claim, bytes).unwrap();
    let (code, last) = verify(&dir, &with_record);
    assert_eq!(code, Some(1), "{last}");
    assert!(last.starts_with("NOT verified"), "{last}");
}

#[test]
fn a_record_that_is_not_one_is_a_one_line_error() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = common::binary_proof_dir(tmp.path());
    let o = run(&[
        "verify",
        dir.to_str().unwrap(),
        "--record",
        tmp.path().to_str().unwrap(),
    ]);
    one_line_error(&o, "is not a regular file");
    let notes = tmp.path().join("notes.txt");
    std::fs::write(&notes, "my notes\n").unwrap();
    let o = run(&[
        "verify",
        dir.to_str().unwrap(),
        "--record",
        notes.to_str().unwrap(),
    ]);
    one_line_error(&o, "line 1: not a line of a boardsat verify record");
    assert_eq!(
        std::fs::read_to_string(&notes).unwrap(),
        "my notes\n",
        "the file was changed"
    );
}
