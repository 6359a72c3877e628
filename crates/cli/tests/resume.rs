//! `count --proof DIR --resume`: a certified count that stopped goes on
//! where it stood — the cubes it proved are kept as they are, the others
//! solved — and the directory then verifies whole. Counts are checked
//! against OEIS A002564.

mod common;

use std::{
    collections::BTreeMap,
    fs,
    path::{Path, PathBuf},
};

use common::{one_line_error, run, stderr, stdout};
use serde_json::Value;

/// OEIS A002564(8) and A002564(12).
const A002564_8: u64 = 4860;
const A002564_12: u64 = 8;

fn manifest(dir: &Path) -> Value {
    serde_json::from_str(&fs::read_to_string(dir.join("MANIFEST.json")).unwrap()).unwrap()
}

fn count_claims(m: &Value) -> Vec<Value> {
    m["claims"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["kind"] == "complete")
        .cloned()
        .collect()
}

/// The files of `dir`'s count claims, by claim name: their bytes.
fn claim_files(dir: &Path, claims: &[Value]) -> BTreeMap<String, (Vec<u8>, Vec<u8>)> {
    claims
        .iter()
        .map(|c| {
            let read = |key: &str| fs::read(dir.join(c[key].as_str().unwrap())).unwrap();
            (
                c["name"].as_str().unwrap().to_string(),
                (read("cnf"), read("proof")),
            )
        })
        .collect()
}

/// How long each count claim's cube took, by claim name: every cube
/// records it.
fn cube_times(m: &Value) -> BTreeMap<String, u64> {
    count_claims(m)
        .iter()
        .map(|c| {
            let name = c["name"].as_str().unwrap().to_string();
            let millis = c["split"]["millis"].as_u64();
            (
                name.clone(),
                millis.unwrap_or_else(|| panic!("{name}: {c}")),
            )
        })
        .collect()
}

fn verified(dir: &Path, count: u64) {
    let o = run(&["verify", dir.to_str().unwrap()]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    let last = out.lines().last().unwrap_or("");
    assert!(
        last.starts_with("verified: ") && last.contains(&format!("exactly {count} placements")),
        "{out}"
    );
}

/// A copy of the finished run in `from` as if it had been stopped half
/// way: every other cube claim of its count gone (files and entries), the
/// result gone, the status `interrupted`.
fn stopped_copy(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_file() {
            fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
    let mut m = manifest(to);
    let cubes = count_claims(&m);
    let gone: Vec<&Value> = cubes.iter().skip(1).step_by(2).collect();
    for c in &gone {
        for key in ["cnf", "proof"] {
            fs::remove_file(to.join(c[key].as_str().unwrap())).unwrap();
        }
    }
    let claims = m["claims"].as_array_mut().unwrap();
    claims.retain(|c| !gone.contains(&c));
    m["status"] = "interrupted".into();
    m.as_object_mut().unwrap().remove("result");
    fs::write(
        to.join("MANIFEST.json"),
        serde_json::to_string_pretty(&m).unwrap(),
    )
    .unwrap();
}

fn path(dir: &Path, name: &str) -> PathBuf {
    dir.join(name)
}

#[test]
fn a_resumed_count_solves_only_the_cubes_left_and_verifies() {
    let tmp = tempfile::tempdir().unwrap();
    let (full, cut) = (path(tmp.path(), "full"), path(tmp.path(), "cut"));
    // A 1 ms budget re-splits nearly every cube, so the kept claims
    // include pieces whose parents were never proven.
    let command = |dir: &Path, resume: bool| {
        let mut args = vec![
            "count",
            "domination",
            "8",
            "--cube-budget",
            "0.001",
            "--proof",
            dir.to_str().unwrap(),
        ];
        if resume {
            args.push("--resume");
        }
        run(&args)
    };
    let o = command(&full, false);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!cube_times(&manifest(&full)).is_empty());
    stopped_copy(&full, &cut);
    let kept = count_claims(&manifest(&cut));
    let kept_times = cube_times(&manifest(&cut));
    assert!(kept.len() >= 2, "{kept:?}");
    let before = claim_files(&cut, &kept);

    let o = command(&cut, true);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let first = stdout(&o);
    assert_eq!(
        first.split_whitespace().next(),
        Some(A002564_8.to_string().as_str()),
        "{first}"
    );
    verified(&cut, A002564_8);
    let after = manifest(&cut);
    assert_eq!(after["status"], "complete", "{after}");
    assert!(
        after["command"].as_str().unwrap().contains("--resume"),
        "{after}"
    );
    // The kept cubes were not solved again: same names, same bytes, the
    // same times.
    let times = cube_times(&after);
    for (name, millis) in &kept_times {
        assert_eq!(times.get(name), Some(millis), "claim {name}'s time changed");
    }
    let now = claim_files(&cut, &count_claims(&after));
    for (name, files) in &before {
        assert!(now.get(name) == Some(files), "claim {name} was rewritten");
    }
    let total: u64 = count_claims(&after)
        .iter()
        .map(|c| c["count"].as_u64().unwrap())
        .sum();
    assert_eq!(total, A002564_8);
}

#[test]
fn a_deeper_split_takes_the_cubes_proven_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let (full, cut) = (path(tmp.path(), "full"), path(tmp.path(), "cut"));
    let o = run(&[
        "count",
        "domination",
        "8",
        "--proof",
        full.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    stopped_copy(&full, &cut);
    let kept = count_claims(&manifest(&cut));
    assert!(kept.iter().all(|c| c["split"]["depth"] == 1), "{kept:?}");
    let before = claim_files(&cut, &kept);
    // Resumed two rings deep: the pieces of the kept cubes are theirs,
    // the other cubes are split finer, as a sitting shorter than a cube
    // needs; and its proofs compressed, which verify reads beside the
    // kept plain ones.
    let o = run(&[
        "count",
        "domination",
        "8",
        "--depth",
        "2",
        "--proof",
        cut.to_str().unwrap(),
        "--resume",
        "--proof-compression",
        "zstd",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o).split_whitespace().next(),
        Some(A002564_8.to_string().as_str())
    );
    verified(&cut, A002564_8);
    let after = count_claims(&manifest(&cut));
    let now = claim_files(&cut, &after);
    for (name, files) in &before {
        assert!(now.get(name) == Some(files), "claim {name} was rewritten");
    }
    let new: Vec<&Value> = after
        .iter()
        .filter(|c| !before.contains_key(c["name"].as_str().unwrap()))
        .collect();
    assert!(
        !new.is_empty() && new.iter().all(|c| c["split"]["depth"] == 2),
        "{new:?}"
    );
    let proof = |c: &Value| c["proof"].as_str().unwrap().to_string();
    assert!(
        new.iter().all(|c| proof(c).ends_with(".lrat.zst")),
        "{new:?}"
    );
    assert!(kept.iter().all(|c| proof(c).ends_with(".lrat")), "{kept:?}");
}

/// `count domination 12 --proof DIR` with `extra` arguments, running,
/// once its count has proven a cube (the manifest is written atomically
/// after each): the child and its stderr, whose first line was read.
fn count_12_with_a_cube_proven(
    dir: &Path,
    extra: &[&str],
) -> (
    std::process::Child,
    std::io::BufReader<std::process::ChildStderr>,
) {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let mut child = common::boardsat()
        .args(["--progress", "count", "domination", "12", "--proof"])
        .arg(dir)
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    assert!(err.read_line(&mut line).unwrap() > 0, "no output");
    let proven = (0..12_000).find_map(|_| {
        let m = dir
            .join("MANIFEST.json")
            .exists()
            .then(|| manifest(dir))
            .filter(|m| !count_claims(m).is_empty());
        if m.is_none() {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        m
    });
    assert!(proven.is_some(), "no cube of the count proven in 2 minutes");
    (child, err)
}

/// `count domination N --proof DIR --resume`, exit 0, and DIR then
/// verified to `count`: the run's output.
fn resumed_and_verified(dir: &Path, n: &str, count: u64) -> std::process::Output {
    let o = run(&[
        "count",
        "domination",
        n,
        "--proof",
        dir.to_str().unwrap(),
        "--resume",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    verified(dir, count);
    o
}

/// Resumes the count of 12x12 in `dir` to A002564(12), verified, its
/// earlier claims `before` kept as they were.
fn resumed_to_the_verified_count(dir: &Path, before: &BTreeMap<String, (Vec<u8>, Vec<u8>)>) {
    let o = resumed_and_verified(dir, "12", A002564_12);
    assert_eq!(
        stdout(&o).split_whitespace().next(),
        Some(A002564_12.to_string().as_str())
    );
    let now = claim_files(dir, &count_claims(&manifest(dir)));
    for (name, files) in before {
        assert!(now.get(name) == Some(files), "claim {name} was rewritten");
    }
}

#[test]
fn an_interrupted_count_resumes_to_the_verified_count() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = path(tmp.path(), "proof");
    let (mut child, mut err) = count_12_with_a_cube_proven(&dir, &[]);
    let (code, out, rest) = common::interrupt(&mut child, &mut err, 1);
    assert_eq!(code, Some(130), "{out}{rest}");
    let stopped = manifest(&dir);
    assert_eq!(stopped["status"], "interrupted", "{stopped}");
    let before = claim_files(&dir, &count_claims(&stopped));
    resumed_to_the_verified_count(&dir, &before);
}

/// SIGUSR1 drains a count: the cubes running are finished and proven, no
/// other is started, and the run then ends as an interrupted one (exit
/// 130, the MANIFEST "interrupted", every claim it had kept), to be
/// resumed. Without the handler SIGUSR1 would kill the process outright.
#[test]
fn sigusr1_finishes_the_cubes_running_and_stops() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = path(tmp.path(), "proof");
    let (mut child, mut err) =
        count_12_with_a_cube_proven(&dir, &["--depth", "2", "--threads", "1"]);
    let seen = count_claims(&manifest(&dir)).len();
    let (code, out, rest) = common::signalled(&mut child, &mut err, "-USR1", 1);
    assert_eq!(code, Some(130), "{out}{rest}");
    let stopped = manifest(&dir);
    assert_eq!(stopped["status"], "interrupted", "{stopped}");
    let kept = count_claims(&stopped);
    assert!(kept.len() >= seen, "{} claims, {seen} before", kept.len());
    let before = claim_files(&dir, &kept);
    resumed_to_the_verified_count(&dir, &before);
}

#[test]
fn what_cannot_be_resumed_is_refused_in_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let (full, cut) = (path(tmp.path(), "full"), path(tmp.path(), "cut"));
    let dir = |p: &Path| p.to_str().unwrap().to_string();
    let o = run(&["count", "domination", "8", "--proof", &dir(&full)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // A complete run.
    let again = |d: &Path, extra: &[&str]| {
        let d = dir(d);
        let mut args = vec!["count", "domination", "8", "--proof", &d, "--resume"];
        args.extend_from_slice(extra);
        run(&args)
    };
    one_line_error(&again(&full, &[]), "complete");
    // No earlier run there.
    one_line_error(&again(&path(tmp.path(), "nothing"), &[]), "cannot resume");
    // Proofs of cubes that are no cubes of this split's tree: a kept
    // claim's cube moved inwards, its sentence with it.
    stopped_copy(&full, &cut);
    let mut m = manifest(&cut);
    let claim = m["claims"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|c| c["kind"] == "complete")
        .unwrap();
    let cube = claim["split"]["cube"].as_str().unwrap().to_string();
    let inward = cube
        .replace("r0", "r1")
        .replace("r7", "r6")
        .replace("c0", "c1")
        .replace("c7", "c6");
    assert_ne!(cube, inward);
    let sentence = claim["claim"].as_str().unwrap().replace(&cube, &inward);
    claim["claim"] = sentence.into();
    claim["split"]["cube"] = inward.into();
    let other = path(tmp.path(), "other");
    fs::create_dir_all(&other).unwrap();
    for entry in fs::read_dir(&cut).unwrap() {
        let entry = entry.unwrap();
        fs::copy(entry.path(), other.join(entry.file_name())).unwrap();
    }
    fs::write(other.join("MANIFEST.json"), m.to_string()).unwrap();
    one_line_error(&again(&other, &[]), "another split");
    // Another bound, another problem, no symmetry breaking.
    one_line_error(&again(&cut, &["-k", "6"]), "with at most 6 pieces");
    one_line_error(&again(&cut, &["--independent"]), "another");
    one_line_error(&again(&cut, &["--no-symmetry"]), "another");
    // A manifest written before runs recorded their task and splits
    // their key: the claims' own sentences and formulas tell.
    let mut m = manifest(&cut);
    m.as_object_mut().unwrap().remove("task");
    for split in m["splits"].as_array_mut().unwrap() {
        split.as_object_mut().unwrap().remove("key");
    }
    fs::write(cut.join("MANIFEST.json"), m.to_string()).unwrap();
    one_line_error(
        &again(&cut, &["--no-symmetry"]),
        "otherwise than this count",
    );
    // Replacing and resuming at once.
    let o = again(&cut, &["--replace"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // Still resumable with the right command after all that.
    let o = again(&cut, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    verified(&cut, A002564_8);
}

/// Every file of `dir` and its bytes.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

/// A run stopped before its count split began (here before anything: a
/// time limit of a millisecond; any stage is the same) records what it
/// proves, and a resume that would prove anything else — another board,
/// bound, piece, kind, symmetry reduction, limit or question — is refused
/// in one line, the directory left as it was; the same count resumes,
/// with another depth, to the verified count (issue 53: a resume of
/// another problem once ran there).
#[test]
fn a_run_stopped_before_its_count_split_resumes_only_its_own_task() {
    let tmp = tempfile::tempdir().unwrap();
    let p = path(tmp.path(), "p");
    let p = p.to_str().unwrap();
    let count = ["count", "domination", "8"];
    let mut first = count.to_vec();
    first.extend(["--depth", "2", "--threads", "1", "--proof", p]);
    first.extend(["--time-limit", "0.001"]);
    let o = run(&first);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert_eq!(manifest(Path::new(p))["status"], "time-limit");
    let before = snapshot(Path::new(p));
    for other in [
        &["count", "domination", "9"][..],
        &["count", "domination", "8", "-k", "6"],
        &["count", "domination", "8", "--piece", "king"],
        &["count", "domination", "8", "--independent"],
        &["count", "domination", "8", "--no-symmetry"],
        &["count", "domination", "8", "--limit", "3"],
        &["solve", "domination", "8"],
        &["enumerate", "domination", "8"],
    ] {
        let mut args = other.to_vec();
        args.extend(["--proof", p, "--resume"]);
        one_line_error(&run(&args), "proves another task");
        assert_eq!(snapshot(Path::new(p)), before, "{other:?} changed it");
    }
    let mut again = count.to_vec();
    again.extend(["--proof", p, "--resume"]);
    let o = run(&again);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with(&A002564_8.to_string()),
        "{}",
        stdout(&o)
    );
    verified(Path::new(p), A002564_8);
}

fn refute_claims(m: &Value) -> Vec<Value> {
    m["claims"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["kind"] == "no-placement")
        .cloned()
        .collect()
}

/// Rewrites `dir`'s manifest with `edit`.
fn edit_manifest(dir: &Path, edit: impl FnOnce(&mut Value)) {
    let mut m = manifest(dir);
    edit(&mut m);
    fs::write(dir.join("MANIFEST.json"), m.to_string()).unwrap();
}

/// The optimum's refutation is not proven again by a resumed run: its
/// cubes are kept as they are — whole, or the half proven when the run
/// stopped inside it — and a refutation of another key (another run's
/// way of proving the optimum) is not taken, and is gone once the count
/// begins. Each directory then verifies to A002564(8).
#[test]
fn a_resumed_run_keeps_the_cubes_of_the_optimum_s_refutation() {
    let tmp = tempfile::tempdir().unwrap();
    let full = path(tmp.path(), "full");
    let o = run(&[
        "count",
        "domination",
        "8",
        "--proof",
        full.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let refutation = refute_claims(&manifest(&full));
    assert!(refutation.len() >= 4, "{refutation:?}");
    let resume = |dir: &Path| {
        resumed_and_verified(dir, "8", A002564_8);
        manifest(dir)
    };

    // Stopped in the count: the whole refutation kept.
    let cut = path(tmp.path(), "cut");
    stopped_copy(&full, &cut);
    let before = claim_files(&cut, &refutation);
    let after = resume(&cut);
    assert_eq!(claim_files(&cut, &refute_claims(&after)), before);

    // Stopped in the refutation: its count gone and half its cubes.
    let half = path(tmp.path(), "half");
    stopped_copy(&full, &half);
    let kept: Vec<Value> = refutation.iter().step_by(2).cloned().collect();
    let gone: Vec<String> = refutation
        .iter()
        .skip(1)
        .step_by(2)
        .map(|c| c["name"].as_str().unwrap().to_string())
        .collect();
    edit_manifest(&half, |m| {
        let counted: Vec<String> = m["splits"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["purpose"] == "count")
            .map(|s| s["name"].as_str().unwrap().to_string())
            .collect();
        m["splits"]
            .as_array_mut()
            .unwrap()
            .retain(|s| s["purpose"] != "count");
        for split in m["splits"].as_array_mut().unwrap() {
            split["status"] = "running".into();
        }
        m["claims"].as_array_mut().unwrap().retain(|c| {
            let split = c["split"]["split"].as_str().unwrap_or_default().to_string();
            !counted.contains(&split) && !gone.iter().any(|g| c["name"] == g.as_str())
        });
    });
    let before = claim_files(&half, &kept);
    let after = resume(&half);
    let now = claim_files(&half, &refute_claims(&after));
    for (name, files) in &before {
        assert!(now.get(name) == Some(files), "claim {name} was rewritten");
    }
    assert!(now.len() > before.len(), "the cubes left were not proven");

    // A refutation of another key: proven anew, the other one removed.
    let other = path(tmp.path(), "other");
    stopped_copy(&full, &other);
    edit_manifest(&other, |m| {
        for split in m["splits"].as_array_mut().unwrap() {
            if split["purpose"] == "refute" {
                split["key"] = "another way to refute".into();
            }
        }
    });
    let after = resume(&other);
    let names: Vec<&str> = refutation
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    let now = refute_claims(&after);
    assert!(!now.is_empty());
    assert!(
        now.iter()
            .all(|c| !names.contains(&c["name"].as_str().unwrap())),
        "{now:?}"
    );
    assert!(
        refutation
            .iter()
            .all(|c| !other.join(c["proof"].as_str().unwrap()).exists()),
        "the other refutation's files are still there"
    );
    assert!(
        !after["splits"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["key"] == "another way to refute"),
        "{after}"
    );
}
