//! The job protocol under kills (issue 53): a job killed at any instant
//! (SIGKILL, so no handler runs) and run again leads to an exact, verified
//! merge, and leaves nothing of the killed run behind; and random
//! interleavings of jobs, kills, jobs run twice at once, `jobs` reports,
//! rounds and merges end in the in-process count.
//!
//! The kill loop kills `BOARDSAT_KILLS` jobs (100 by default;
//! `scripts/bench-kills.sh` runs 1,000): each at a random instant of its
//! run, or at the moment a condition shows it is inside a step (its
//! prover's temporary is there, its proof is being written, its pieces
//! are being written), up to three times in a row, then runs it again.
//! Nothing here races a time limit: a kill that comes after the job ended
//! is a kill like any other (the next run keeps the answer), and the
//! conditions are waited for, never slept for. `BOARDSAT_KILL_SEED`
//! repeats a loop's random choices.
//!
//! The property test runs `PROPTEST_CASES` cases (24 by default).

mod common;

use std::{
    collections::{BTreeMap, BTreeSet},
    path::{Path, PathBuf},
    process::Child,
    time::{Duration, Instant},
};

use common::{copy_dir, in_process, run_in, stderr, stdout, verified};
use proptest::prelude::*;
use serde_json::Value;

/// The names in `dir` (none when it is missing).
fn names(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .map(|list| {
            list.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default()
}

/// Whether `id` is `job` or one of its pieces, however deep.
fn in_subtree(id: &str, job: &str) -> bool {
    id == job
        || id
            .strip_prefix(job)
            .is_some_and(|rest| rest.starts_with('.'))
}

/// Takes job `job`'s subtree out of a finished split, as if it had never
/// run: its answer and its pieces' answers, proofs and files.
fn unrun(dir: &Path, job: &str) {
    for name in names(&dir.join("results")) {
        if name
            .strip_suffix(".json")
            .is_some_and(|id| in_subtree(id, job))
        {
            std::fs::remove_file(dir.join("results").join(name)).unwrap();
        }
    }
    for name in names(&dir.join("proofs")) {
        if in_subtree(&name, job) {
            std::fs::remove_dir_all(dir.join("proofs").join(name)).unwrap();
        }
    }
    for name in names(dir) {
        let piece = name
            .strip_suffix(".cnf")
            .is_some_and(|id| id != job && in_subtree(id, job));
        if piece {
            std::fs::remove_file(dir.join(name)).unwrap();
        }
    }
}

/// The jobs a split directory knows: its MANIFEST's cubes and the pieces
/// its answers list, with the file each counts.
fn known_jobs(dir: &Path) -> BTreeMap<String, String> {
    let manifest = std::fs::read_to_string(dir.join("MANIFEST")).unwrap();
    let mut jobs: BTreeMap<String, String> = manifest
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            Some((words.first()?.to_string(), words.get(3)?.to_string()))
        })
        .collect();
    for name in names(&dir.join("results")) {
        if !name.ends_with(".json") {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(dir.join("results").join(&name)) else {
            continue;
        };
        let Ok(answer) = serde_json::from_str::<Value>(&text) else {
            continue;
        };
        for piece in answer["pieces"].as_array().into_iter().flatten() {
            if let (Some(id), Some(file)) = (piece["id"].as_str(), piece["file"].as_str()) {
                jobs.insert(id.to_string(), file.to_string());
            }
        }
    }
    jobs
}

/// Nothing of a killed run is left in the split `dir`, whose jobs have
/// all ended: no temporary (but the proof directories' locks, which stay),
/// no partial answer, no job lock, no cube file that no job counts.
fn assert_clean(dir: &Path, context: &str) {
    let files: BTreeSet<String> = known_jobs(dir).into_values().collect();
    for name in names(dir) {
        assert!(!name.starts_with(".boardsat-"), "{context}: {name} is left");
        if name.ends_with(".cnf") {
            assert!(files.contains(&name), "{context}: {name} is no job's file");
        }
    }
    for name in names(&dir.join("results")) {
        assert!(name.ends_with(".json"), "{context}: results/{name} is left");
    }
    for job in names(&dir.join("proofs")) {
        for name in names(&dir.join("proofs").join(&job)) {
            assert!(
                !name.starts_with(".boardsat-") || name == ".boardsat-lock",
                "{context}: proofs/{job}/{name} is left"
            );
        }
    }
}

/// `boardsat job . ID` in `dir`, started.
fn spawn_job(dir: &Path, id: &str) -> Child {
    common::boardsat()
        .args(["job", ".", id])
        .current_dir(dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap()
}

/// When a kill comes.
#[derive(Clone, Copy, Debug)]
enum Moment {
    /// After this long.
    After(Duration),
    /// As soon as a temporary of the job is seen: its prover's (in its
    /// proof directory) or a piece's (in the split's directory).
    Temporary,
    /// As soon as a claim's proof is seen in its proof directory.
    Proof,
    /// As soon as one of its pieces' files is seen.
    Pieces,
}

/// Whether job `id` of `dir` has reached `moment` (never, for a delay).
fn reached(dir: &Path, id: &str, moment: Moment) -> bool {
    let proofs = dir.join("proofs").join(id);
    let piece = |name: &str| {
        name.strip_suffix(".cnf")
            .and_then(|p| p.rsplit_once('.'))
            .is_some_and(|(parent, nn)| parent == id && nn.len() == 2)
    };
    match moment {
        Moment::After(_) => false,
        Moment::Temporary => {
            names(&proofs)
                .iter()
                .any(|n| n.starts_with(".boardsat-") && n != ".boardsat-lock")
                || names(dir)
                    .iter()
                    .any(|n| n.starts_with(&format!(".boardsat-{id}.")))
        }
        Moment::Proof => names(&proofs).iter().any(|n| n.ends_with(".lrat")),
        Moment::Pieces => names(dir).iter().any(|n| piece(n)),
    }
}

/// Runs job `id` of `dir` and kills it at `moment`: whether the kill came
/// while it ran.
fn kill_at(dir: &Path, id: &str, moment: Moment) -> bool {
    let mut child = spawn_job(dir, id);
    let start = Instant::now();
    let landed = loop {
        if child.try_wait().unwrap().is_some() {
            break false;
        }
        let now = match moment {
            Moment::After(delay) => start.elapsed() >= delay,
            other => reached(dir, id, other),
        };
        if now {
            child.kill().unwrap();
            break true;
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    let status = child.wait().unwrap();
    // Killed, or ended on its own (then whole, with exit 0).
    assert!(
        landed || status.success(),
        "{id}: the job failed before the kill ({status})"
    );
    landed
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// `cubes WORDS -o NAME` in `t`, which must succeed: the split.
fn cubes(t: &Path, words: &str, name: &str) -> PathBuf {
    let mut args: Vec<&str> = std::iter::once("cubes").chain(words.split(' ')).collect();
    args.extend(["-o", name]);
    let out = run_in(t, &args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    t.join(name)
}

/// The split the kill loop kills jobs of: every round-0 job is split (no
/// solver counts a cube within a millisecond), its pieces count to their
/// end, each with its proof.
const KILLED: &str = "domination 7 -k 4 --depth 1 --job-budget 0.001 --max-depth 2 --proof";

/// Runs the rounds of `dir` on this machine to the end.
fn run_rounds(dir: &Path, context: &str) {
    let out = run_in(dir, &["jobs", ".", "--run", "local"]);
    assert_eq!(out.status.code(), Some(0), "{context}: {}", stderr(&out));
}

#[cfg(unix)]
#[test]
fn a_job_killed_at_any_instant_then_run_again_verifies_exactly() {
    let kills = env_number("BOARDSAT_KILLS", 100);
    let seed = env_number("BOARDSAT_KILL_SEED", fastrand::u64(..));
    let mut rng = fastrand::Rng::with_seed(seed);
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let expected = in_process("7", "4");
    // The whole split run once; each kill takes one job out of a copy.
    let fixture = cubes(t, KILLED, "fixture");
    run_rounds(&fixture, "the fixture");
    assert_eq!(verified(&fixture, "the fixture"), expected);
    let jobs: Vec<String> = known_jobs(&fixture).into_keys().collect();
    let (roots, pieces): (Vec<&String>, Vec<&String>) = jobs.iter().partition(|j| !j.contains('.'));
    assert!(!roots.is_empty() && !pieces.is_empty(), "{jobs:?}");
    // The last whole run of a root and of a piece, timed: random kills
    // come within it (and a little after).
    let mut last = [roots[0], pieces[0]].map(|job| {
        let dir = t.join("calibration");
        copy_dir(&fixture, &dir);
        unrun(&dir, job);
        let start = Instant::now();
        assert!(run_in(&dir, &["job", ".", job]).status.success());
        std::fs::remove_dir_all(&dir).unwrap();
        start.elapsed()
    });
    let mut landed: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
    let mut killed = 0;
    let mut iteration = 0;
    while killed < kills {
        let context = format!("seed {seed}, iteration {iteration}");
        let dir = t.join(format!("kill-{iteration}"));
        copy_dir(&fixture, &dir);
        let round = usize::from(rng.bool());
        let victim = match round {
            0 => roots[rng.usize(..roots.len())],
            _ => pieces[rng.usize(..pieces.len())],
        };
        unrun(&dir, victim);
        for _ in 0..rng.u64(1..=3).min(kills - killed) {
            let moment = match rng.u8(..10) {
                0..=5 => Moment::After(last[round].mul_f64(1.2 * rng.f64())),
                6 => Moment::Temporary,
                7 => Moment::Proof,
                _ if round == 0 => Moment::Pieces,
                _ => Moment::Temporary,
            };
            let name = match moment {
                Moment::After(_) => "at a random instant",
                Moment::Temporary => "at a temporary",
                Moment::Proof => "while proving",
                Moment::Pieces => "while writing pieces",
            };
            let during = kill_at(&dir, victim, moment);
            let tally = landed.entry(name).or_default();
            tally.0 += u64::from(during);
            tally.1 += 1;
            killed += 1;
        }
        let start = Instant::now();
        let out = run_in(&dir, &["job", ".", victim]);
        assert!(
            out.status.success(),
            "{context}: {victim} run again: {}",
            stderr(&out)
        );
        last[round] = start.elapsed();
        run_rounds(&dir, &context);
        assert_eq!(
            verified(&dir, &format!("{context}, job {victim}")),
            expected,
            "{context}"
        );
        assert_clean(&dir, &format!("{context}, job {victim}"));
        std::fs::remove_dir_all(&dir).unwrap();
        iteration += 1;
    }
    let during: u64 = landed.values().map(|t| t.0).sum();
    eprintln!(
        "{killed} kills (seed {seed}) in {iteration} runs again, {during} while the job ran: {landed:?}"
    );
    // Most kills come while the job runs: the loop tests what it says.
    assert!(during * 4 >= killed, "{landed:?}");
}

/// One step of a property case.
#[derive(Clone, Debug)]
enum Step {
    /// Run a job (the index picks among the jobs known then) to its end.
    Run(usize),
    /// Run a job and kill it after this many milliseconds.
    Kill(usize, u64),
    /// Run a job twice at once.
    Twice(usize),
    /// `jobs DIR --json`.
    Report,
    /// `jobs DIR --run local`.
    Rounds,
    /// Plain `merge`.
    Merge,
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        3 => any::<usize>().prop_map(Step::Run),
        3 => (any::<usize>(), 0u64..400).prop_map(|(i, ms)| Step::Kill(i, ms)),
        1 => any::<usize>().prop_map(Step::Twice),
        2 => Just(Step::Report),
        1 => Just(Step::Rounds),
        1 => Just(Step::Merge),
    ]
}

/// The splits the property test runs, and what each must merge to.
const SPLITS: [(&str, (&str, &str)); 3] = [
    (
        "domination 6 -k 3 --depth 1 --job-budget 0.001 --max-depth 2 --proof",
        ("6", "3"),
    ),
    (
        "domination 7 -k 4 --depth 1 --lex-leader --proof",
        ("7", "4"),
    ),
    ("domination 6 -k 3 --depth 1 --no-halve", ("6", "3")),
];

/// The in-process counts of [`SPLITS`], counted once.
fn expected(split: usize) -> String {
    static COUNTS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    COUNTS.get_or_init(|| SPLITS.iter().map(|(_, (n, k))| in_process(n, k)).collect())[split]
        .clone()
}

/// Runs `steps` on a new split of kind `split`, then the rounds to the
/// end, then once more each job whose lock is left: every report holds
/// together, every merge that succeeds is exact, so is the last one, and
/// nothing of a killed run is left.
fn protocol_case(split: usize, steps: &[Step]) -> Result<(), TestCaseError> {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let (words, _) = SPLITS[split];
    let dir = cubes(t, words, "split");
    let expected = expected(split);
    let pick = |i: usize| {
        let jobs: Vec<String> = known_jobs(&dir).into_keys().collect();
        jobs[i % jobs.len()].clone()
    };
    for (i, step) in steps.iter().enumerate() {
        let context = format!("step {i} ({step:?})");
        match *step {
            Step::Run(j) => {
                let id = pick(j);
                let out = run_in(&dir, &["job", ".", &id]);
                prop_assert!(out.status.success(), "{context}: {}", stderr(&out));
            }
            Step::Kill(j, ms) => {
                kill_at(&dir, &pick(j), Moment::After(Duration::from_millis(ms)));
            }
            Step::Twice(j) => {
                let id = pick(j);
                let (mut one, mut two) = (spawn_job(&dir, &id), spawn_job(&dir, &id));
                let (one, two) = (one.wait().unwrap(), two.wait().unwrap());
                // One runs it; the other finds it running (exit 2) or
                // answered (exit 0).
                prop_assert!(one.success() || two.success(), "{context}: {one}, {two}");
                for status in [one, two] {
                    prop_assert!(matches!(status.code(), Some(0 | 2)), "{context}: {status}");
                }
            }
            Step::Report => {
                let out = run_in(&dir, &["jobs", ".", "--json"]);
                let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
                let n = |key: &str| report[key].as_u64().unwrap();
                prop_assert_eq!(
                    n("done") + n("split") + n("running") + n("failed") + n("left"),
                    n("jobs"),
                    "{}: {}",
                    context,
                    report
                );
                prop_assert_eq!(n("running"), 0, "{}: {}", context, report);
                let finished = report["finished"].as_bool().unwrap();
                prop_assert_eq!(out.status.code(), Some(if finished { 0 } else { 3 }));
                prop_assert_eq!(finished, n("failed") + n("left") == 0);
            }
            Step::Rounds => run_rounds(&dir, &context),
            Step::Merge => {
                let out = run_in(&dir, &["merge", "."]);
                if out.status.success() {
                    let total = stdout(&out);
                    prop_assert_eq!(total.trim(), expected.as_str(), "{}", context);
                } else {
                    common::one_line_error(&out, "jobs have no complete answer");
                }
            }
        }
    }
    run_rounds(&dir, "the last rounds");
    // A job killed after its answer was written, before it let go of its
    // lock, is done: the rounds do not run it again, and its lock file
    // stays (inert) until its next run, which keeps the answer and
    // removes the lock.
    for name in names(&dir.join("results")) {
        if let Some(id) = name.strip_suffix(".lock") {
            let out = run_in(&dir, &["job", ".", id]);
            prop_assert!(out.status.success(), "{}", stderr(&out));
            prop_assert!(stderr(&out).contains("kept as it is"), "{}", stderr(&out));
        }
    }
    assert_clean(&dir, "after the last rounds");
    let out = run_in(&dir, &["merge", "."]);
    prop_assert!(out.status.success(), "{}", stderr(&out));
    let total = stdout(&out);
    prop_assert_eq!(total.trim(), expected.as_str());
    if words.contains("--proof") {
        prop_assert_eq!(verified(&dir, "the last merge"), expected);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: u32::try_from(env_number("PROPTEST_CASES", 24)).unwrap_or(24),
        // Each case runs dozens of processes: shrink little.
        max_shrink_iters: 16,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_interleavings_of_jobs_kills_and_reports_merge_exactly(
        split in 0..SPLITS.len(),
        steps in prop::collection::vec(step(), 1..12),
    ) {
        protocol_case(split, &steps)?;
    }
}
