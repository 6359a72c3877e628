//! `verify --checker` and `merge --verify --checker`: an LRAT checker
//! boardsat did not write runs on every claim besides boardsat's own
//! checks. It adds to the verdict and never replaces it: a checker that
//! rejects makes a sound directory NOT verified; one that cannot run,
//! crashes, hangs past its timeout or prints nothing is a one-line
//! reason naming the claim and the checker, exit 1, and the proof
//! directory is left as it was. (Forged directories under a checker that
//! accepts everything are in `mutations.rs`.)

mod common;

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
};

use common::{run, run_in, script, text};

/// Every file under `dir` and its bytes.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.insert(path.clone(), std::fs::read(&path).unwrap());
            }
        }
    }
    out
}

/// `verify DIR --checker PROGRAM [more]`: exit code and last line.
fn verify_with(dir: &Path, program: &Path, more: &[&str]) -> (Option<i32>, String, String) {
    let mut args = vec![
        "verify",
        dir.to_str().unwrap(),
        "--checker",
        program.to_str().unwrap(),
    ];
    args.extend(more);
    let o = run(&args);
    let out = text(&o.stdout);
    let last = out.lines().last().unwrap_or("").to_string();
    (o.status.code(), last, text(&o.stderr))
}

#[test]
fn cake_lpr_accepts_text_binary_and_compressed_proofs_and_is_named() {
    let Some(cake) = common::cake_lpr() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let binary = common::binary_proof_dir(tmp.path());
    let o = run_in(tmp.path(), &["solve", "domination", "7", "--proof", "text"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    for dir in [binary, tmp.path().join("text")] {
        let (code, last, err) = verify_with(&dir, &cake, &[]);
        assert_eq!(code, Some(0), "{last}{err}");
        assert!(last.starts_with("verified: "), "{last}");
        assert!(
            last.contains(&format!(
                "every proof accepted by boardsat's checker and by cake_lpr ({})",
                cake.display()
            )),
            "{last}"
        );
        // The JSON names it, with its digest and the proofs it accepted.
        let o = run(&[
            "verify",
            dir.to_str().unwrap(),
            "--checker",
            cake.to_str().unwrap(),
            "--json",
        ]);
        let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let claims = report["claims"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["reason"].as_str().unwrap().contains("LRAT proof of"))
            .count() as u64;
        assert!(claims > 0);
        assert_eq!(report["external_checker"]["name"], "cake_lpr");
        assert_eq!(report["external_checker"]["accepted"], claims);
        assert_eq!(
            report["external_checker"]["sha256"].as_str().unwrap().len(),
            64
        );
    }
    // One formula and its proof.
    let dir = tmp.path().join("text");
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("MANIFEST.json")).unwrap()).unwrap();
    let claim = &manifest["claims"][0];
    let o = run(&[
        "verify",
        dir.join(claim["cnf"].as_str().unwrap()).to_str().unwrap(),
        dir.join(claim["proof"].as_str().unwrap()).to_str().unwrap(),
        "--checker",
        cake.to_str().unwrap(),
    ]);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.lines().last().unwrap().contains("cake_lpr ("), "{out}");
}

#[test]
fn a_checker_that_does_not_accept_makes_a_sound_directory_not_verified() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = common::binary_proof_dir(tmp.path());
    let before = snapshot(&dir);
    let bin = tmp.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let cases: [(&str, &str, &[&str], &str); 5] = [
        (
            "rejects",
            "echo 'c wrong hint' >&2; exit 1",
            &[],
            "rejected the proof (exit 1): 'c wrong hint'",
        ),
        ("crashes", "kill -SEGV $$", &[], "crashed (signal 11)"),
        (
            "silent",
            "exit 0",
            &[],
            "without a 's VERIFIED' line, printing nothing",
        ),
        (
            "hangs",
            "exec sleep 600",
            &["--checker-timeout", "0.5"],
            "no answer within 0.5 s",
        ),
        (
            "unsat-only",
            "echo 's UNSATISFIABLE'",
            &[],
            "without a 's VERIFIED' line: 's UNSATISFIABLE'",
        ),
    ];
    for (name, body, more, why) in cases {
        let program = script(&bin, name, body);
        let (code, last, err) = verify_with(&dir, &program, more);
        assert_eq!(code, Some(1), "{name}: {last}{err}");
        assert!(!err.contains("panicked"), "{err}");
        // The reason names the claim and the checker, on one line.
        assert!(last.starts_with("NOT verified: "), "{name}: {last}");
        assert!(last.starts_with("NOT verified: claim-0"), "{name}: {last}");
        assert!(
            last.contains(&format!("{name} ({})", program.display())),
            "{name}: {last}"
        );
        assert!(last.contains(why), "{name}: {last}");
    }
    // A checker that cannot run at all, before any claim is read.
    let plain = bin.join("plain");
    std::fs::write(&plain, "").unwrap();
    for (program, why) in [
        (bin.join("missing"), "does not exist"),
        (plain, "is not executable"),
        (bin.clone(), "is not a regular file"),
    ] {
        let (code, last, err) = verify_with(&dir, &program, &[]);
        assert_eq!(code, Some(1), "{last}{err}");
        assert_eq!(
            last,
            format!("NOT verified: the checker {} {why}", program.display())
        );
    }
    assert!(snapshot(&dir) == before, "the proof directory changed");
    // Without a checker it verifies, as it always did.
    let o = run(&["verify", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stdout));
}

#[test]
fn merge_verify_runs_the_checker_on_every_job() {
    let tmp = tempfile::tempdir().unwrap();
    let o = run_in(
        tmp.path(),
        &["cubes", "queens", "6", "--depth", "1", "--proof", "-o", "q"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let dir = tmp.path().join("q");
    common::run_jobs(&dir);
    let d = dir.to_str().unwrap();
    let rejects = script(tmp.path(), "rejects", "exit 1");
    let o = run(&[
        "merge",
        "--verify",
        d,
        "--checker",
        rejects.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert!(text(&o.stdout)
        .lines()
        .last()
        .unwrap()
        .starts_with("NOT verified: "));
    // --checker checks proofs: without --verify it is refused.
    let o = run(&["merge", d, "--checker", rejects.to_str().unwrap()]);
    common::one_line_error(&o, "--checker checks proofs: it goes with --verify");
    let Some(cake) = common::cake_lpr() else {
        return;
    };
    let o = run(&["merge", "--verify", d, "--checker", cake.to_str().unwrap()]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    // A(6) = 4 placements of six queens (OEIS A000170).
    assert_eq!(text(&o.stdout).trim(), "4");
    assert!(
        err.contains("every job's proof accepted by cake_lpr ("),
        "{err}"
    );
}
