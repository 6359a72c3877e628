//! The JSON of `boardsat cubes`, `cubes --estimate`, `merge` and `jobs`:
//! typed structs, one per report.

use serde::Serialize;

use crate::{
    engine::{Driven, RoundRun},
    rounds::{Round, SplitStatus, State},
    tree::JobAnswer,
};

/// `cubes`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CubesReport {
    /// `cubes`.
    pub command: &'static str,
    /// The split's directory.
    pub dir: String,
    /// Cubes written.
    pub cubes: usize,
    /// `cnf` (one DIMACS file per cube) or `icnf`.
    pub format: &'static str,
}

/// One cube `cubes --estimate` solved.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SampledReport {
    /// The cube's id.
    pub id: String,
    /// Its projected time in seconds: its solver's CPU time when solved
    /// whole, else its piece's times `pieces`, divided by `deflation`.
    pub seconds: f64,
    /// Projected models found.
    pub count: u64,
    /// Whether it, or the piece it is projected from, was solved to the
    /// end (not stopped by `--cube-limit`).
    pub complete: bool,
    /// How many pieces the piece solved stands for (1: solved whole).
    pub pieces: u64,
    /// The piece solved, as ring lines (`r0+r18-c0-c18+…`).
    pub piece: String,
    /// Wall seconds spent on the cube and its pieces.
    pub spent_seconds: f64,
    /// What the pieces' projection was divided by to stand for the cube
    /// solved whole (1: not deflated; in-process cubes only).
    pub deflation: f64,
}

impl From<&crate::estimate::Sampled> for SampledReport {
    fn from(s: &crate::estimate::Sampled) -> Self {
        SampledReport {
            id: s.id.clone(),
            seconds: s.seconds,
            count: s.count,
            complete: s.complete,
            pieces: s.pieces,
            piece: s.piece.clone(),
            spent_seconds: s.spent,
            deflation: s.deflation,
        }
    }
}

/// `cubes --estimate`: the projected CPU time of a split.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EstimateReport {
    /// `cubes`.
    pub command: &'static str,
    /// Cubes of the split.
    pub cubes: usize,
    /// The cubes solved, in the order drawn.
    pub sampled: Vec<SampledReport>,
    /// The projected CPU time of every cube, in seconds.
    pub projected_seconds: f64,
    /// Its 95 % interval; `null` from a sample of one cube, whose spread
    /// is unknown.
    pub interval: Option<[f64; 2]>,
    /// Whether a sampled cube, down to its last ring, reached
    /// `--cube-limit`: the projection and its interval are then lower
    /// bounds.
    pub lower_bound: bool,
    /// The longest cube sampled.
    pub longest: Option<SampledReport>,
    /// The seed of the random choice.
    pub seed: u64,
}

impl EstimateReport {
    /// The report of `estimate`, drawn with `seed`.
    #[must_use]
    pub fn new(estimate: &crate::estimate::Estimate, seed: u64) -> Self {
        EstimateReport {
            command: "cubes",
            cubes: estimate.cubes,
            sampled: estimate.sampled.iter().map(SampledReport::from).collect(),
            projected_seconds: estimate.total,
            interval: estimate.interval.map(|(low, high)| [low, high]),
            lower_bound: estimate.lower_bound,
            longest: estimate.longest().map(SampledReport::from),
            seed,
        }
    }
}

/// `merge`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MergeReport {
    /// `merge`.
    pub command: &'static str,
    /// The weighted total.
    pub count: u128,
    /// In a split with lex-leader constraints (`cubes --lex-leader`): the
    /// orbits under the board's symmetries ([`crate::tree::Merged::orbits`]);
    /// absent without them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub orbits: Option<u128>,
    /// The split's cubes.
    pub cubes: usize,
    /// Jobs answered: the cubes and the pieces of those split.
    pub jobs: usize,
    /// Rounds of pieces, plus one (1: no job was split).
    pub depth: usize,
    /// Whether the split and every cube's proof were verified
    /// (`--verify`).
    pub verified: bool,
}

impl MergeReport {
    /// The report of `merged`, `verified` when the split and every
    /// cube's proof were verified before it was summed.
    #[must_use]
    pub fn new(merged: &crate::tree::Merged, verified: bool) -> Self {
        MergeReport {
            command: "merge",
            count: merged.count,
            orbits: merged.orbits,
            cubes: merged.cubes,
            jobs: merged.jobs,
            depth: merged.rounds,
            verified,
        }
    }
}

/// One job named in a `jobs` report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct JobNote {
    /// The job's id.
    pub id: String,
    /// Why it is named: why it failed, the process running it.
    pub why: String,
}

/// A round's job list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RoundReport {
    /// Its number (0: `jobs.txt`).
    pub round: usize,
    /// Its file, relative to the split's directory.
    pub file: String,
    /// The jobs it lists.
    pub jobs: usize,
    /// Whether it was written now (else it was there, listing the same
    /// jobs).
    pub written: bool,
}

impl From<&Round> for RoundReport {
    fn from(r: &Round) -> Self {
        RoundReport {
            round: r.number,
            file: r.file.display().to_string(),
            jobs: r.ids.len(),
            written: r.written,
        }
    }
}

/// One round run by `jobs --run`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RoundRunReport {
    /// Its list.
    pub round: RoundReport,
    /// The engine.
    pub engine: &'static str,
    /// Its jobs now counted.
    pub done: usize,
    /// Its jobs now split.
    pub split: usize,
    /// The pieces they wrote.
    pub pieces: usize,
    /// Its jobs without an answer.
    pub failed: Vec<JobNote>,
    /// Wall seconds.
    pub seconds: f64,
}

impl From<&RoundRun> for RoundRunReport {
    fn from(r: &RoundRun) -> Self {
        RoundRunReport {
            round: RoundReport::from(&r.round),
            engine: r.engine,
            done: r.done,
            split: r.split,
            pieces: r.pieces,
            failed: notes(&r.failed),
            seconds: r.seconds,
        }
    }
}

fn notes(list: &[(String, String)]) -> Vec<JobNote> {
    list.iter()
        .map(|(id, why)| JobNote {
            id: id.clone(),
            why: why.clone(),
        })
        .collect()
}

/// `jobs`: the state of every job of a split (and, with `--run`, the
/// rounds run).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct JobsReport {
    /// `jobs`.
    pub command: &'static str,
    /// The split's directory.
    pub dir: String,
    /// Jobs known: the split's cubes and the pieces of those split.
    pub jobs: usize,
    /// Counted to the end.
    pub done: usize,
    /// Split into pieces.
    pub split: usize,
    /// Running now.
    pub running: usize,
    /// Ran and left no answer.
    pub failed: usize,
    /// Never ran.
    pub left: usize,
    /// Whether every job has its answer (`merge` can sum them).
    pub finished: bool,
    /// Whether the split's jobs prove their counts (`merge --verify`
    /// checks them).
    pub proofs: bool,
    /// Rounds listed so far (`jobs.txt` and `rounds/R.txt`).
    pub rounds: usize,
    /// Rounds of pieces, plus one (1: no job was split).
    pub depth: usize,
    /// The round listing the jobs left, when some are and the round
    /// before has ended (no job runs, no driver runs the rounds).
    pub next: Option<RoundReport>,
    /// The driver running the rounds now (`jobs --run`), if one does:
    /// its process.
    pub driver: Option<String>,
    /// The failed jobs and why.
    pub failures: Vec<JobNote>,
    /// The running jobs and their processes.
    pub running_jobs: Vec<JobNote>,
    /// The solver seconds of every answered job, summed (each job runs
    /// one single-threaded solver: its CPU seconds).
    pub job_seconds: f64,
    /// The answered job whose solver ran longest, and its seconds.
    pub longest: Option<JobTime>,
    /// With `--run`: the rounds run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub driven: Option<Vec<RoundRunReport>>,
    /// With `--run`: the jobs given up after their retries.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub given_up: Option<Vec<JobNote>>,
}

/// A job's solver time.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct JobTime {
    /// The job's id.
    pub id: String,
    /// Its solver's wall seconds.
    pub seconds: f64,
}

impl JobsReport {
    /// The report of `status` of the split in `dir`, with `rounds`
    /// listed and `next` the round of the jobs left.
    #[must_use]
    pub fn new(dir: &str, status: &SplitStatus, rounds: usize, next: Option<&Round>) -> Self {
        let count = |pick: fn(&State) -> bool| status.count(pick);
        let named = |pick: fn(&State) -> Option<String>| {
            status
                .tree
                .nodes
                .iter()
                .zip(&status.states)
                .filter_map(|(n, s)| {
                    pick(s).map(|why| JobNote {
                        id: n.entry.id.clone(),
                        why,
                    })
                })
                .collect()
        };
        let answered = status
            .tree
            .nodes
            .iter()
            .filter(|n| matches!(n.answer, JobAnswer::Counted(_) | JobAnswer::Split(_)));
        let longest = answered
            .clone()
            .max_by(|a, b| a.seconds.total_cmp(&b.seconds))
            .map(|n| JobTime {
                id: n.entry.id.clone(),
                seconds: n.seconds,
            });
        JobsReport {
            command: "jobs",
            dir: dir.to_string(),
            jobs: status.states.len(),
            done: count(|s| matches!(s, State::Done)),
            split: count(|s| matches!(s, State::Split)),
            running: count(|s| matches!(s, State::Running(_))),
            failed: count(|s| matches!(s, State::Failed(_))),
            left: count(|s| matches!(s, State::Left)),
            finished: status.finished(),
            proofs: status.tree.manifest.proofs == boardsat_solve::search::count::Proofs::On,
            rounds,
            depth: status.tree.rounds(),
            next: next.map(RoundReport::from),
            driver: None,
            failures: named(|s| match s {
                State::Failed(why) => Some(why.clone()),
                _ => None,
            }),
            running_jobs: named(|s| match s {
                State::Running(pid) => {
                    Some(pid.map_or("running".to_string(), |p| format!("pid {p}")))
                }
                _ => None,
            }),
            job_seconds: answered.map(|n| n.seconds).sum(),
            longest,
            driven: None,
            given_up: None,
        }
    }

    /// The report of a `jobs --run` that did `driven`.
    #[must_use]
    pub fn driven(dir: &str, driven: &Driven, rounds: usize) -> Self {
        JobsReport {
            driven: Some(driven.rounds.iter().map(RoundRunReport::from).collect()),
            given_up: Some(notes(&driven.given_up)),
            ..JobsReport::new(dir, &driven.status, rounds, None)
        }
    }
}
