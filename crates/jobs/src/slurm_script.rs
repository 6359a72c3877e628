//! `slurm.sbatch`, the Slurm array script every split carries (its name
//! is [`crate::layout::SLURM_SCRIPT`]), and the exit files its tasks
//! write: the part of the Slurm engine (`engine/slurm.rs`) that a split's
//! writer needs. Users submit the script by hand as well, so
//! [`crate::write::write_split`] writes it into every split; the writer
//! sits below the engines in the crate's layers, so the script sits here,
//! at the bottom, where both reach it. The Slurm engine submits it with
//! `LIST OFFSET EXIT` and reads each task's end back with [`read_exit`]:
//! a number in a file of its own, never a line of the task's output.

use std::{
    ffi::OsString,
    fs,
    path::{Path, PathBuf},
};

/// The text of `slurm.sbatch`: array task T runs line OFFSET + T + 1 of
/// a round's job list and, given an exit prefix, writes its exit status
/// to [`exit_file`].
pub const SCRIPT: &str = r#"#!/bin/sh
# The Slurm array job of a boardsat split: array task T runs line
# OFFSET + T + 1 of the job list LIST (jobs.txt for round 0, rounds/R.txt
# after), from inside the split's directory. Usage: slurm.sbatch LIST
# [OFFSET [EXIT]]: with EXIT, the task's exit status is written to
# EXIT-T.exit.
#
# 'boardsat jobs DIR --run slurm' submits it once per round, as
#   sbatch --wait --array=0-<N-1>%<cap> --chdir=DIR slurm.sbatch LIST OFFSET
# and lists the next round when the round ends. By hand, from inside DIR:
#   sbatch --array=0-$(( $(wc -l < jobs.txt) - 1 ))%64 slurm.sbatch jobs.txt
# then 'boardsat jobs .' for the next round's list, until none is left.
#
# Edit the #SBATCH lines for your cluster (partition, account, time,
# memory): each task is one single-threaded solver. A task's job may be
# run again at any time: a finished job keeps its answer.
#SBATCH --job-name=boardsat
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
set -u
list=$1
n=$(( ${2:-0} + SLURM_ARRAY_TASK_ID + 1 ))
line=$(sed -n "${n}p" "$list")
if [ -z "$line" ]; then
  echo "slurm.sbatch: $list has no line $n" >&2
  exit 2
fi
sh -c "$line"
status=$?
echo "slurm.sbatch: line $n of $list exited with $status" >&2
# The task's exit as data, beside its output, for the driver.
if [ -n "${3:-}" ]; then echo "$status" > "$3-$SLURM_ARRAY_TASK_ID.exit"; fi
exit $status
"#;

/// The file where task `task` of an array submitted with exit prefix
/// `prefix` (the script's third argument) writes its exit status:
/// `<prefix>-<task>.exit`.
#[must_use]
pub fn exit_file(prefix: &Path, task: usize) -> PathBuf {
    let mut name = OsString::from(prefix.as_os_str());
    name.push(format!("-{task}.exit"));
    PathBuf::from(name)
}

/// The exit status task `task` wrote ([`exit_file`]); `None` when it wrote
/// none (it never ran, or was killed before its end, or the split's
/// script predates the exit files) or not a number.
#[must_use]
pub fn read_exit(prefix: &Path, task: usize) -> Option<i32> {
    fs::read_to_string(exit_file(prefix, task))
        .ok()
        .and_then(|t| t.trim().parse::<i32>().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exit_is_read_back_as_the_script_writes_it() {
        let tmp = tempfile::tempdir().expect("a temporary directory");
        let prefix = tmp.path().join("slurm-1-0");
        assert_eq!(exit_file(&prefix, 3), tmp.path().join("slurm-1-0-3.exit"));
        assert_eq!(read_exit(&prefix, 3), None);
        fs::write(exit_file(&prefix, 3), "127\n").expect("written");
        assert_eq!(read_exit(&prefix, 3), Some(127));
        assert!(SCRIPT.contains(r#"echo "$status" > "$3-$SLURM_ARRAY_TASK_ID.exit""#));
    }
}
