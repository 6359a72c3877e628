//! The `slurm` engine: a round run as Slurm job arrays of the split's
//! `slurm.sbatch` ([`crate::slurm_script`]), one task per line: `sbatch
//! --array=0-(N-1)%CAP … slurm.sbatch LIST OFFSET EXIT`, split into arrays
//! of at most the cluster's `MaxArraySize`, polled with `squeue` until
//! they end, `scancel`led when the driver is stopped. Each task's output
//! is `rounds/slurm-R-C-T.out` (round R, array C, task T); its end is
//! read back as data: the exit status the script wrote to
//! `rounds/slurm-R-C-T.exit`, with the task's last line of output.

use std::{
    fs,
    path::{Path, PathBuf},
    process::{Command, Stdio},
    sync::Arc,
    time::{Duration, Instant},
};

use boardsat_solve::stop::Interrupter;

use crate::{
    error::{EngineError, JobsError},
    layout::{self, ROUNDS, SLURM_SCRIPT},
    rounds::Round,
    slurm_script,
};

use super::{line_id, Exit, Registration, RoundRunner, RoundTasks, TaskEnd, TaskEnds};

/// The engine's registration.
pub(super) const ENGINE: Registration = Registration {
    name: "slurm",
    make: |_| Arc::new(Slurm),
};

/// Slurm job arrays.
#[derive(Debug)]
struct Slurm;

impl RoundRunner for Slurm {
    fn name(&self) -> &'static str {
        ENGINE.name
    }

    fn program(&self) -> Option<&'static str> {
        Some("sbatch")
    }

    fn run(&self, round: &RoundTasks<'_>, stop: &Interrupter) -> Result<TaskEnds, JobsError> {
        let script = round.dir.join(SLURM_SCRIPT);
        if !layout::real_file(&script)? {
            return Err(EngineError::NoScript(script.display().to_string()).into());
        }
        let n = round.lines.len();
        let arrays = submit(round.dir, &script, round.round, n, round.max_tasks)?;
        wait_round(&arrays, stop);
        Ok(slurm_said(round, &arrays))
    }
}

/// The exit prefix of array `c` of round `number` ([`slurm_script::exit_file`]):
/// `rounds/slurm-R-C`, beside the tasks' output.
fn exit_prefix(dir: &Path, number: usize, c: usize) -> PathBuf {
    dir.join(ROUNDS).join(format!("slurm-{number}-{c}"))
}

/// The most tasks one array may have: the cluster's `MaxArraySize` less
/// one (indices from 0), from `scontrol show config`; Slurm's default
/// (1001) when it does not say.
fn max_array_size() -> usize {
    let said = Command::new("scontrol")
        .args(["show", "config"])
        .stderr(Stdio::null())
        .output();
    said.ok()
        .and_then(|o| {
            String::from_utf8_lossy(&o.stdout).lines().find_map(|l| {
                let (key, value) = l.split_once('=')?;
                (key.trim() == "MaxArraySize")
                    .then(|| value.trim().parse::<usize>().ok())
                    .flatten()
            })
        })
        .unwrap_or(1001)
        .saturating_sub(1)
        .max(1)
}

/// Submits round `round` of `n` lines as Slurm arrays of `script`, each
/// of at most the cluster's `MaxArraySize` tasks: their ids, first lines
/// and sizes. A refusal cancels the arrays already submitted.
fn submit(
    dir: &Path,
    script: &Path,
    round: &Round,
    n: usize,
    max_tasks: Option<usize>,
) -> Result<Vec<(String, usize, usize)>, JobsError> {
    let chunk = max_array_size();
    let mut arrays: Vec<(String, usize, usize)> = Vec::new();
    let mut offset = 0;
    while offset < n {
        let size = chunk.min(n - offset);
        let mut array = format!("--array=0-{}", size - 1);
        if let Some(cap) = max_tasks {
            array.push_str(&format!("%{cap}"));
        }
        let c = arrays.len();
        let out = dir
            .join(ROUNDS)
            .join(format!("slurm-{}-{c}-%a.out", round.number));
        let said = Command::new("sbatch")
            .arg("--parsable")
            .arg(array)
            .arg(format!("--job-name={}", slurm_name(dir, round.number)))
            .arg(format!("--output={}", out.display()))
            .arg(format!("--chdir={}", dir.display()))
            .arg(script)
            .arg(&round.file)
            .arg(offset.to_string())
            // Each task's exit, recorded beside its output.
            .arg(exit_prefix(dir, round.number, c))
            .current_dir(dir)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| EngineError::Spawn {
                program: "sbatch",
                reason: e.to_string(),
            })?;
        let text = String::from_utf8_lossy(&said.stdout);
        let id = text.trim().split(';').next().unwrap_or("").to_string();
        if !said.status.success() || id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) {
            cancel(&arrays);
            let err = String::from_utf8_lossy(&said.stderr);
            return Err(EngineError::Refused {
                round: round.number,
                reason: err
                    .lines()
                    .next()
                    .unwrap_or("no reason given")
                    .trim()
                    .to_string(),
            }
            .into());
        }
        arrays.push((id, offset, size));
        offset += size;
    }
    Ok(arrays)
}

/// Waits until the arrays end; stopped, cancels them and waits for their
/// tasks to write what they have.
fn wait_round(arrays: &[(String, usize, usize)], stop: &Interrupter) {
    let start = Instant::now();
    loop {
        if stop.is_interrupted() {
            cancel(arrays);
            // The tasks write what they have; wait for them to end.
            wait_arrays(arrays, &Interrupter::new(), start);
            break;
        }
        if !arrays.iter().any(|(id, _, _)| queued(id)) {
            break;
        }
        // Poll at a tenth of the round's time so far, between a quarter of
        // a second and five seconds.
        let pause =
            (start.elapsed() / 10).clamp(Duration::from_millis(250), Duration::from_secs(5));
        std::thread::sleep(pause);
    }
}

/// What the failed tasks of the arrays said last, by job.
fn slurm_said(round: &RoundTasks<'_>, arrays: &[(String, usize, usize)]) -> TaskEnds {
    let (dir, number, lines) = (round.dir, round.round.number, round.lines);
    let mut said = TaskEnds::new();
    for (c, (id, offset, size)) in arrays.iter().enumerate() {
        for task in 0..*size {
            let out = dir
                .join(ROUNDS)
                .join(format!("slurm-{number}-{c}-{task}.out"));
            let text = fs::read_to_string(&out).unwrap_or_default();
            let last = text.lines().rev().find(|l| !l.trim().is_empty());
            // The task's exit, as slurm.sbatch records it (a split
            // written before it did has none: every task is reported,
            // and only those whose job has no answer are shown).
            let exit = slurm_script::read_exit(&exit_prefix(dir, number, c), task).map(Exit::Code);
            let end = TaskEnd {
                by: Some(format!("Slurm task {id}_{task}")),
                exit,
                // The task's own message, quoted inside this one: without
                // its "error: ", so the line stays one error.
                said: Some(last.map_or("no output".to_string(), |l| {
                    let l = l.trim();
                    l.strip_prefix("error: ").unwrap_or(l).to_string()
                })),
            };
            if let (false, Some(line)) = (exit == Some(Exit::Code(0)), lines.get(offset + task)) {
                said.insert(line_id(line), end);
            }
        }
    }
    said
}

/// The Slurm job name of round `number` of the split in `dir`:
/// `boardsat-<the split's id, 8 digits>-r<number>`, so that `squeue
/// --name` finds one split's rounds.
#[must_use]
pub fn slurm_name(dir: &Path, number: usize) -> String {
    let split = crate::manifest::read_manifest(dir)
        .map(|m| m.split)
        .unwrap_or_default();
    format!("boardsat-{}-r{number}", split.get(..8).unwrap_or(&split))
}

/// Whether Slurm job `id` still has tasks queued or running.
fn queued(id: &str) -> bool {
    let said = Command::new("squeue")
        .args(["--noheader", "--format=%i", "--jobs", id])
        .stdin(Stdio::null())
        .output();
    match said {
        // A job Slurm no longer knows ("Invalid job id") has ended.
        Ok(o) => o.status.success() && !String::from_utf8_lossy(&o.stdout).trim().is_empty(),
        Err(_) => false,
    }
}

/// Waits for the arrays to end (after they were cancelled).
fn wait_arrays(arrays: &[(String, usize, usize)], stop: &Interrupter, start: Instant) {
    while !stop.is_interrupted() && arrays.iter().any(|(id, _, _)| queued(id)) {
        if start.elapsed() > Duration::from_secs(24 * 3600) {
            break;
        }
        std::thread::sleep(Duration::from_millis(500));
    }
}

/// Cancels the arrays submitted.
fn cancel(arrays: &[(String, usize, usize)]) {
    for (id, _, _) in arrays {
        let _ = Command::new("scancel")
            .arg(id)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
}
