//! What is done, split, running, failed and left in a split directory,
//! and the next round's job list (`boardsat jobs DIR`).
//!
//! A *round* is one job list handed to an engine: round 0 is `jobs.txt`,
//! which `cubes` writes; round R ≥ 1 is `rounds/R.txt`, which
//! [`write_round`] writes once round R − 1 has run, listing every job
//! left then: the pieces that the jobs split in the rounds before wrote,
//! and any job that failed or never ran. A list is written once and never
//! changed (asking again while nothing ran names the same list), so an
//! engine may resume it (GNU parallel's `--resume`, a Slurm array
//! submitted again).
//!
//! Each job of the tree ([`Tree`]) is in one [`State`]:
//!
//! | state | what the directory shows |
//! |---|---|
//! | done | a count of its cube to the end (in a split with proofs, and its proof manifest) |
//! | split | its pieces, listed in its answer: jobs themselves |
//! | running | its lock, held now ([`crate::job::trace`]) |
//! | failed | a trace and no answer: stopped (a time limit, a signal), killed (its lock or temporary left), an answer that is not its own, a count without its proof |
//! | left | nothing: never run, or it failed before it could claim its lock (a job line whose program is missing) |

use std::{
    collections::BTreeSet,
    fs,
    path::{Path, PathBuf},
};

use boardsat_solve::{files::write_atomically, search::count::Proofs, stop::Interrupter};

use crate::{
    error::JobsError,
    job::{self, Trace},
    layout::{self, JOBS, PROOFS, ROUNDS},
    tree::{JobAnswer, Tree, Unanswered},
};

/// How many more rounds a job that failed is listed in, unless the
/// caller says (`jobs --run --retries`, Python's `retries=`): none.
pub const RETRIES: usize = 0;

/// The state of one job (see the module doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum State {
    /// Counted to the end.
    Done,
    /// Split into pieces.
    Split,
    /// Running now, in the process named if its lock says.
    Running(Option<u32>),
    /// Ran and left no answer: why, in words.
    Failed(String),
    /// No trace.
    Left,
}

/// Every job of a split directory with its state.
#[derive(Clone, Debug)]
pub struct SplitStatus {
    /// The tree of jobs.
    pub tree: Tree,
    /// The state of each node of `tree`, in its order.
    pub states: Vec<State>,
}

impl SplitStatus {
    /// The status of the split in `dir` (see the module doc): its tree
    /// read and checked, and the lock of every job without an answer
    /// probed.
    ///
    /// # Errors
    ///
    /// [`JobsError::Manifest`] for a directory without a sound manifest,
    /// [`JobsError::Round`] for a round that is not the spec's,
    /// [`JobsError::Layout`] for a link or special file in a job's place.
    pub fn read(dir: &Path) -> Result<SplitStatus, JobsError> {
        let tree = Tree::read(dir)?;
        let proofs = tree.manifest.proofs;
        let mut states = Vec::with_capacity(tree.nodes.len());
        for node in &tree.nodes {
            let id = &node.entry.id;
            let state = match &node.answer {
                JobAnswer::Counted(_) => {
                    let proof = dir
                        .join(PROOFS)
                        .join(id)
                        .join(boardsat_solve::files::proof_dir::MANIFEST);
                    if proofs == Proofs::On && !layout::real_file(&proof)? {
                        State::Failed("counted, without its proof".to_string())
                    } else {
                        State::Done
                    }
                }
                JobAnswer::Split(_) => State::Split,
                JobAnswer::Unanswered(why) => match (job::trace(dir, id)?, why) {
                    (Trace::Running(pid), _) => State::Running(pid),
                    (_, Unanswered::Incomplete(reason)) => State::Failed(format!(
                        "stopped ({})",
                        reason.as_deref().unwrap_or("no reason given")
                    )),
                    (_, Unanswered::Foreign(what)) => {
                        State::Failed(format!("its answer answers {what}"))
                    }
                    (_, Unanswered::Unreadable) => {
                        State::Failed("its answer is not a job's answer".to_string())
                    }
                    (Trace::Killed, Unanswered::Missing) => {
                        State::Failed("killed (its lock or temporary is left)".to_string())
                    }
                    (Trace::None, Unanswered::Missing) => State::Left,
                },
            };
            states.push(state);
        }
        Ok(SplitStatus { tree, states })
    }

    /// The ids of the jobs in states that `pick` accepts, in the tree's
    /// order.
    #[must_use]
    pub fn ids(&self, pick: impl Fn(&State) -> bool) -> Vec<String> {
        self.tree
            .nodes
            .iter()
            .zip(&self.states)
            .filter(|(_, s)| pick(s))
            .map(|(n, _)| n.entry.id.clone())
            .collect()
    }

    /// The jobs left to run: failed, or never run.
    #[must_use]
    pub fn left(&self) -> Vec<String> {
        self.ids(|s| matches!(s, State::Failed(_) | State::Left))
    }

    /// Whether every job has its answer: the split can be merged.
    #[must_use]
    pub fn finished(&self) -> bool {
        self.states
            .iter()
            .all(|s| matches!(s, State::Done | State::Split))
    }

    /// How many jobs are in states that `pick` accepts.
    #[must_use]
    pub fn count(&self, pick: impl Fn(&State) -> bool) -> usize {
        self.states.iter().filter(|s| pick(s)).count()
    }
}

/// A round's job list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    /// Its number: 0 for `jobs.txt`.
    pub number: usize,
    /// Its file, relative to the split's directory (`jobs.txt`,
    /// `rounds/3.txt`).
    pub file: PathBuf,
    /// The jobs it lists, in order.
    pub ids: Vec<String>,
    /// Whether this call wrote it (else it was there, listing the same
    /// jobs).
    pub written: bool,
}

/// The job id a line of a job list runs: its last word.
fn line_id(line: &str) -> Option<&str> {
    line.split_whitespace().last()
}

/// The rounds written in `dir`, by number: `jobs.txt` and `rounds/R.txt`.
fn rounds(dir: &Path) -> Result<Vec<(usize, PathBuf)>, JobsError> {
    let mut out = vec![(0, PathBuf::from(JOBS))];
    let folder = dir.join(ROUNDS);
    if !layout::real_dir(&folder)? {
        return Ok(out);
    }
    let list = fs::read_dir(&folder).map_err(|e| dir_error("read", &folder, &e))?;
    for entry in list {
        let entry = entry.map_err(|e| dir_error("read", &folder, &e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if let Some(number) = name
            .strip_suffix(".txt")
            .and_then(|n| n.parse::<usize>().ok())
            .filter(|&n| n > 0 && layout::round_list(n) == name)
        {
            out.push((number, Path::new(ROUNDS).join(name)));
        }
    }
    out.sort();
    Ok(out)
}

/// The number of rounds listed in `dir` so far (1: only `jobs.txt`).
///
/// # Errors
///
/// [`JobsError`] when `rounds/` cannot be read.
pub fn rounds_listed(dir: &Path) -> Result<usize, JobsError> {
    Ok(rounds(dir)?.last().map_or(0, |(n, _)| n + 1))
}

/// The job ids a round file lists, in order.
fn listed(dir: &Path, file: &Path) -> Result<Vec<String>, JobsError> {
    let path = dir.join(file);
    layout::real_file(&path)?;
    let text = fs::read_to_string(&path).map_err(|e| dir_error("read", &path, &e))?;
    Ok(text
        .lines()
        .filter_map(line_id)
        .map(str::to_string)
        .collect())
}

/// The round that runs `ids` (in order), with `program` in its lines
/// ([`crate::job_program`]): the latest round when it lists exactly these
/// jobs, else a new one, `rounds/<latest + 1>.txt`, written whole (see
/// the module doc).
///
/// # Errors
///
/// [`JobsError`] for files that cannot be read or written; an empty
/// `ids` is an error (a round of nothing).
pub fn write_round(
    dir: &Path,
    ids: &[String],
    program: &str,
    stop: Option<&Interrupter>,
) -> Result<Round, JobsError> {
    if ids.is_empty() {
        return Err(JobsError::NothingToRun);
    }
    let written = rounds(dir)?;
    let (latest, file) = written.last().cloned().unwrap_or((0, PathBuf::from(JOBS)));
    let want: BTreeSet<&str> = ids.iter().map(String::as_str).collect();
    let have = listed(dir, &file)?;
    if have.len() == want.len() && have.iter().all(|id| want.contains(id.as_str())) {
        return Ok(Round {
            number: latest,
            file,
            ids: have,
            written: false,
        });
    }
    let number = latest + 1;
    let folder = dir.join(ROUNDS);
    if !layout::real_dir(&folder)? {
        fs::create_dir_all(&folder).map_err(|e| dir_error("create", &folder, &e))?;
    }
    let file = Path::new(ROUNDS).join(layout::round_list(number));
    let text: String = ids
        .iter()
        .map(|id| format!("{}\n", crate::write::job_line(program, id)))
        .collect();
    let path = dir.join(&file);
    write_atomically(&path, stop, |w| {
        w.write_all(text.as_bytes())
            .map_err(|e| boardsat_solve::files::FileError::io(&path, e))
    })?;
    Ok(Round {
        number,
        file,
        ids: ids.to_vec(),
        written: true,
    })
}

fn dir_error(action: &'static str, path: &Path, e: &std::io::Error) -> JobsError {
    JobsError::Dir {
        action,
        path: path.display().to_string(),
        reason: boardsat_solve::files::describe(e),
    }
}
