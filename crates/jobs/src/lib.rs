//! # boardsat-jobs
//!
//! Counting beyond one machine: a count split into cube jobs that any
//! scheduler can run (GNU parallel, Slurm array jobs), the merge of their
//! answers, and an estimate of what running them costs. Proving a split
//! run as jobs is `boardsat-proof`'s (`jobs::verify_jobs`).
//!
//! | item | role |
//! |---|---|
//! | [`split::Split`], [`split::SplitSpec`] | a split: the base formula, the cubes and their weights; what it is made of |
//! | [`write_split`], [`JobLines`] | the split written: cube files (or one iCNF file), `MANIFEST`, `jobs.txt` |
//! | [`job::Job`] | one cube's job: run once, its answer written whole, kept when it is there |
//! | [`layout`] | the names in a split directory, and what `--replace` may remove |
//! | [`Budget`], [`write_pieces`] | a job's budget, and the pieces of a job split past it (the jobs of the next round) |
//! | [`read_manifest`], [`tree::Tree`], [`merge`], [`JobResult`] | the answers read back as a tree of jobs and their pieces, summed, every cube checked answered |
//! | [`rounds`] | what is done, split, running, failed and left, and the next round's job list (`boardsat jobs`) |
//! | [`engine`] | the rounds handed to an engine — this machine's cores, GNU parallel, Slurm — until every job is answered |
//! | [`estimate::estimate`] | a random sample of cubes solved as their jobs would, and the projected CPU time |
//! | [`report`] | the JSON of `cubes`, `merge`, `cubes --estimate` and `jobs` |
//!
//! ## Layers
//!
//! Each module imports only from modules on its own line or a line above
//! (checked by `tests/tests/layers.rs`):
//!
//! 1. `split` — what a split is
//! 2. `layout` — the names in a split directory
//! 3. this one, `tree` — the split written; its answers read back as a tree, merged
//! 4. `job`, `estimate` — running one job; sizing a split
//! 5. `rounds` — the state of every job, the next round's list
//! 6. `engine` — the rounds run by an engine
//! 7. `report` — the JSON reports
//!
//! [`write_split`] writes a directory: the cubes, one DIMACS file each
//! (the cube's literals as unit clauses) or one iCNF file for them all
//! ([`Format::Inccnf`]: the base formula once, `p inccnf`, a `c cube` line
//! per cube with its id and weight, then one `a` line per cube); a
//! `MANIFEST` with each cube's id, weight, description and file; a
//! `jobs.txt` with one `boardsat job . <id>` command per cube; and
//! `results/`, where each job writes its JSON answer ([`JobResult`])
//! itself, whole or not at all ([`job`]). [`merge`] sums the weighted
//! answers and checks that every cube was answered in full.
//!
//! **Rounds.** With a [`Budget`] (`cubes --job-budget SECONDS`, on the
//! manifest's `# budget` line), a domination job whose solver runs past
//! it is stopped and split as the in-process re-split splits a cube: its
//! pieces are the cubes of the next ring, one per orbit under its
//! stabilizer ([`split::SplitSpec::pieces`]), each written as a cube file
//! `<id>.<NN>.cnf` ([`write_pieces`]) and listed with its weight and
//! digest in the job's answer, which counts nothing itself. The pieces
//! are the jobs of the next round; a job's share of the count is its
//! pieces' ([`tree`]). [`rounds`] tells what is left and writes the next
//! round's job list; [`engine`] hands the rounds to an engine.
//!
//! **Lex-leader constraints.** A domination split one per orbit with
//! [`split::SplitSpec::lex`] (`cubes --lex-leader`) ends each cube's file
//! with the lines-first lex-leader constraints under the cube's
//! stabilizer, as the in-process count's cubes have them: a job counts
//! orbit representatives, and its answer states the placements they stand
//! for ([`JobResult::placements`], weighed by [`job::Weigher`]), which is
//! its share.
//!
//! The files carry the provenance and projection lines of
//! [`boardsat_encode::dimacs`], so an external projected model counter can
//! do the jobs as well.

use std::{
    fmt::Write as _,
    fs,
    io::{self, Write as _},
    path::Path,
    time::Duration,
};

use boardsat_encode::dimacs::{self, Format, Header};
use boardsat_lrat::LratFormat;
use rustsat::instances::Cnf;
use serde::{Deserialize, Serialize};

use boardsat_solve::{
    files::{self, proof_dir::Compression, write_atomically, FileError},
    formula::dimacs::digest,
    search::count::Proofs,
    stop::Interrupter,
};

use crate::{
    layout::{LayoutError, MANIFEST_HEADER, SLURM_SCRIPT},
    split::{CubeJob, Split, SplitSpec},
};

pub mod engine;
pub mod estimate;
pub mod job;
pub mod layout;
pub mod report;
pub mod rounds;
pub mod split;
pub mod tree;

pub use crate::{
    layout::{JOBS, MANIFEST, PROOFS, RESULTS},
    split::ICNF,
    tree::{merge, Merged},
};

/// Why a split could not be written or merged.
#[derive(Debug, thiserror::Error)]
pub enum JobsError {
    /// A file could not be written.
    #[error(transparent)]
    File(#[from] FileError),
    /// A directory could not be created or read.
    #[error("cannot {action} {path}: {reason}")]
    Dir {
        /// What was being done.
        action: &'static str,
        /// The directory.
        path: String,
        /// Why it failed.
        reason: String,
    },
    /// The manifest is not one `cubes` wrote.
    #[error("{0}")]
    Manifest(String),
    /// The directory cannot take a split, or something in it is not what
    /// a split writes.
    #[error(transparent)]
    Layout(#[from] LayoutError),
    /// A job cannot run: its cube is not the split's, or its file changed.
    #[error("{0}")]
    Job(String),
    /// Another process runs the same job now.
    #[error("job {id} in {dir} is already running in another process{}; nothing was done", holder.map_or(String::new(), |pid| format!(" (pid {pid})")))]
    Running {
        /// The cube's id.
        id: String,
        /// The split's directory.
        dir: String,
        /// The process holding the job's lock, when it says.
        holder: Option<u32>,
    },
    /// A round is not what the split's spec makes: a job's pieces
    /// changed, missing or added by hand.
    #[error("the rounds are not the split's: {0}")]
    Round(String),
    /// An engine could not run a round.
    #[error("{0}")]
    Engine(String),
    /// Some cubes have no complete answer.
    #[error("{unanswered} of {cubes} jobs have no complete answer (missing: {missing}; incomplete: {incomplete})")]
    Unanswered {
        /// Jobs without a complete answer.
        unanswered: usize,
        /// Jobs in all (the split's cubes and the pieces of those split).
        cubes: usize,
        /// The missing ones, summarised.
        missing: String,
        /// The incomplete ones, summarised.
        incomplete: String,
    },
}

impl From<io::Error> for JobsError {
    fn from(e: io::Error) -> Self {
        JobsError::Dir {
            action: "write",
            path: String::new(),
            reason: files::describe(&e),
        }
    }
}

/// Makes `dir` ready for a new split: a new or empty directory as it
/// is; one that is not empty only with `force` and when it holds a
/// previous split, whose own files are then removed and nothing else
/// ([`layout::Clearing`]).
fn prepare(dir: &Path, force: bool) -> Result<(), JobsError> {
    layout::Clearing::plan(dir, force)?.clear()?;
    let create = |path: &Path| {
        fs::create_dir_all(path).map_err(|e| JobsError::Dir {
            action: "create",
            path: path.display().to_string(),
            reason: files::describe(&e),
        })
    };
    create(dir)?;
    let results = dir.join(RESULTS);
    // Checked by the plan: a directory, or nothing.
    if !layout::real_dir(&results)? {
        create(&results)?;
    }
    Ok(())
}

/// A name for this split, different for every `write_split`: the digest of
/// its content, the time and the process.
fn split_id(split: &Split) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let mut text = format!("{nanos} {} {}", std::process::id(), split.n_vars);
    for cube in &split.cubes {
        let _ = write!(text, " {} {} {}", cube.id, cube.weight, cube.description);
    }
    digest(text.as_bytes())[..16].to_string()
}

/// How the job lines call boardsat: `"${BOARDSAT:-<program>}"`, so the jobs
/// run the binary that wrote them unless `BOARDSAT` names another.
///
/// # Errors
///
/// [`JobsError::Manifest`] for a program path the shell could not take
/// inside double quotes.
pub fn job_program(program: &str) -> Result<String, JobsError> {
    if program.contains(['"', '$', '`', '\\', '\n', '}']) {
        return Err(JobsError::Manifest(format!(
            "the path '{program}' has characters jobs.txt cannot quote; set BOARDSAT when running the jobs"
        )));
    }
    Ok(format!("\"${{BOARDSAT:-{program}}}\""))
}

/// How long a job's solver may run before the job is split into the
/// pieces of its next ring (`cubes --job-budget`), and how deep pieces
/// may go: the manifest's `# budget SECONDS [max-depth D]` line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// The solver's time before the job splits.
    pub time: Duration,
    /// The most rings a piece fixes; a job that deep runs to its end.
    /// `None`: until every row and column is fixed.
    pub max_depth: Option<usize>,
}

impl Budget {
    /// The manifest's line.
    #[must_use]
    pub fn line(&self) -> String {
        let mut line = format!("# budget {}", self.time.as_secs_f64());
        if let Some(depth) = self.max_depth {
            let _ = write!(line, " max-depth {depth}");
        }
        line
    }

    /// The budget of a manifest line's words after `# budget`.
    fn parse(words: &[&str]) -> Result<Budget, String> {
        let (seconds, rest) = words.split_first().ok_or("no seconds")?;
        let time = seconds
            .parse::<f64>()
            .ok()
            .and_then(boardsat_solve::stop::seconds)
            .ok_or_else(|| format!("the budget '{seconds}' is not a positive number of seconds"))?;
        let max_depth = match rest {
            [] => None,
            ["max-depth", d] => Some(
                d.parse::<usize>()
                    .map_err(|_| format!("the max depth '{d}' is not a number"))?,
            ),
            _ => return Err(format!("'{}' after the budget", rest.join(" "))),
        };
        Ok(Budget { time, max_depth })
    }
}

/// How the lines of `jobs.txt` run a cube: `<program> job . <id>`, from
/// inside the split's directory ([`job`] says what a job does).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobLines {
    /// How they call boardsat ([`job_program`]).
    pub program: String,
    /// Whether each job proves its count (into `proofs/<cube id>`), for
    /// `boardsat merge --verify`; recorded in the manifest, where the
    /// jobs read it.
    pub proofs: Proofs,
    /// How those proofs are written (text unless the manifest says
    /// `# proof-format lrat-binary`).
    pub proof_format: LratFormat,
    /// How those proofs are stored (as written unless the manifest says
    /// `# proof-compression zstd`).
    pub proof_compression: Compression,
    /// The jobs' budget, if they have one; recorded in the manifest.
    pub budget: Option<Budget>,
}

impl JobLines {
    /// The command of job `id`.
    #[must_use]
    pub fn line(&self, id: &str) -> String {
        job_line(&self.program, id)
    }
}

/// The line of a job list that runs job `id` with `program`
/// ([`job_program`]): `<program> job . <id>`, run from inside the split's
/// directory.
#[must_use]
pub fn job_line(program: &str, id: &str) -> String {
    format!("{program} job . {id}")
}

/// Writes `split` into `dir`: one DIMACS file per cube, or one iCNF file,
/// plus the manifest and the job list (see the module doc); `jobs` says
/// how the job lines run. A directory that is
/// not empty is refused unless `force` and it holds a previous split,
/// whose own files are then replaced, and only those
/// ([`layout::Clearing`]).
///
/// # Errors
///
/// [`JobsError`] for files and directories that cannot be written.
pub fn write_split(
    dir: &Path,
    split: &Split,
    jobs: &JobLines,
    force: bool,
    stop: Option<&Interrupter>,
) -> Result<(), JobsError> {
    let domination = split
        .spec
        .is_some_and(|s| s.family == boardsat_encode::Family::Domination);
    if jobs.budget.is_some() && !domination {
        return Err(JobsError::Manifest(
            "a job budget re-splits the cubes of domination splits only ('cubes domination N -k K --job-budget SECONDS')".to_string(),
        ));
    }
    prepare(dir, force)?;
    if jobs.proofs == Proofs::On {
        fs::create_dir_all(dir.join(PROOFS)).map_err(|e| JobsError::Dir {
            action: "create",
            path: dir.join(PROOFS).display().to_string(),
            reason: files::describe(&e),
        })?;
    }
    let id = split_id(split);
    let mut header = split.header.clone();
    header.comments.push(format!("boardsat-split {id}"));
    let files = Files {
        dir,
        n_vars: split.n_vars,
        stop,
    };
    let mut listing = Listing {
        manifest: format!(
            "{MANIFEST_HEADER}\n# split {id}\n# cubes {}\n{}{}",
            split.cubes.len(),
            split
                .spec
                .map_or(String::new(), |spec| format!("# spec {}\n", spec.line())),
            proof_lines(jobs)
        ),
        jobs: String::new(),
    };
    if let Some(budget) = jobs.budget {
        let _ = writeln!(listing.manifest, "{}", budget.line());
    }
    match split.format {
        Format::Cnf => files.cube_files(split, &header, jobs, &mut listing)?,
        Format::Inccnf => {
            header.format = Format::Inccnf;
            files.icnf_file(split, &header, jobs, &mut listing)?;
        }
        other => {
            return Err(JobsError::Manifest(format!(
                "cubes are written as cnf or icnf, not {other}"
            )))
        }
    }
    files.text(SLURM_SCRIPT, SLURM_ARRAY)?;
    files.text(MANIFEST, &listing.manifest)?;
    files.text(JOBS, &listing.jobs)?;
    Ok(())
}

/// `slurm.sbatch`: array task T runs line OFFSET + T + 1 of a round's job
/// list ([`engine`] submits it).
const SLURM_ARRAY: &str = r#"#!/bin/sh
# The Slurm array job of a boardsat split: array task T runs line
# OFFSET + T + 1 of the job list LIST (jobs.txt for round 0, rounds/R.txt
# after), from inside the split's directory. Usage: slurm.sbatch LIST [OFFSET]
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
exit $status
"#;

/// Writes the files of `pieces`, the pieces of job `parent` of split
/// `split_id` ([`SplitSpec::piece_split`]), into `dir`: one DIMACS file
/// each, `<id>.cnf`, carrying the split's id and the piece's as the cube
/// files of `write_split` do. Their entries, for the parent's answer.
///
/// # Errors
///
/// [`JobsError`] for files that cannot be written.
pub fn write_pieces(
    dir: &Path,
    split_id: &str,
    pieces: &Split,
    stop: Option<&Interrupter>,
) -> Result<Vec<Entry>, JobsError> {
    let mut header = pieces.header.clone();
    header.comments.push(format!("boardsat-split {split_id}"));
    let files = Files {
        dir,
        n_vars: pieces.n_vars,
        stop,
    };
    let mut entries = Vec::new();
    for (i, cube) in pieces.cubes.iter().enumerate() {
        let file = format!("{}.cnf", cube.id);
        let header = pieces.cube_header(i, &header);
        let digest = files.formula(&file, &header, &pieces.cube_cnf(i), &[])?;
        entries.push(Entry {
            id: cube.id.clone(),
            weight: cube.weight,
            description: cube.description.clone(),
            file,
            index: None,
            digest,
        });
    }
    Ok(entries)
}

/// The files of a split being written.
struct Files<'a> {
    dir: &'a Path,
    n_vars: u32,
    stop: Option<&'a Interrupter>,
}

/// The manifest and the job list of a split being written.
struct Listing {
    manifest: String,
    jobs: String,
}

impl Files<'_> {
    /// Writes `name` as DIMACS (or iCNF with `cubes`' lines): the digest of
    /// the bytes written.
    fn formula(
        &self,
        name: &str,
        header: &Header,
        cnf: &Cnf,
        cubes: &[CubeJob],
    ) -> Result<String, JobsError> {
        let path = self.dir.join(name);
        let mut bytes = Vec::new();
        dimacs::write(&mut bytes, header, cnf, self.n_vars)
            .and_then(|()| {
                // One block of `c cube` lines before the first `a` line:
                // CaDiCaL before 2.0 (Debian's `cadical`) reads nothing but
                // `a` lines after the first one.
                for cube in cubes {
                    writeln!(
                        bytes,
                        "c cube {} weight {} columns {}",
                        cube.id, cube.weight, cube.description
                    )?;
                }
                cubes
                    .iter()
                    .try_for_each(|cube| dimacs::write_cube(&mut bytes, &cube.lits))
            })
            .map_err(|e| FileError::io(&path, e))?;
        write_atomically(&path, self.stop, |w| {
            w.write_all(&bytes).map_err(|e| FileError::io(&path, e))
        })?;
        Ok(digest(&bytes))
    }

    /// One DIMACS file per cube (the cube's literals as units).
    fn cube_files(
        &self,
        split: &Split,
        header: &Header,
        jobs: &JobLines,
        listing: &mut Listing,
    ) -> Result<(), JobsError> {
        listing
            .manifest
            .push_str("# id weight columns file digest\n");
        for (i, cube) in split.cubes.iter().enumerate() {
            let file = format!("{}.cnf", cube.id);
            let header = split.cube_header(i, header);
            let digest = self.formula(&file, &header, &split.cube_cnf(i), &[])?;
            let _ = writeln!(
                listing.manifest,
                "{} {} {} {file} {digest}",
                cube.id, cube.weight, cube.description
            );
            let _ = writeln!(listing.jobs, "{}", jobs.line(&cube.id));
        }
        Ok(())
    }

    /// One iCNF file: the base formula once and an `a` line per cube.
    fn icnf_file(
        &self,
        split: &Split,
        header: &Header,
        jobs: &JobLines,
        listing: &mut Listing,
    ) -> Result<(), JobsError> {
        listing
            .manifest
            .push_str("# id weight columns file cube digest\n");
        let digest = self.formula(ICNF, header, &split.base, &split.cubes)?;
        for (i, cube) in split.cubes.iter().enumerate() {
            let _ = writeln!(
                listing.manifest,
                "{} {} {} {ICNF} {i} {digest}",
                cube.id, cube.weight, cube.description
            );
            let _ = writeln!(listing.jobs, "{}", jobs.line(&cube.id));
        }
        Ok(())
    }

    /// A text file written whole.
    fn text(&self, name: &str, content: &str) -> Result<(), FileError> {
        let path = self.dir.join(name);
        write_atomically(&path, self.stop, |w| {
            w.write_all(content.as_bytes())
                .map_err(|e| FileError::io(&path, e))
        })
    }
}

/// What one job answers: the JSON object `count-dimacs --json` prints.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct JobResult {
    /// `count-dimacs`.
    pub command: String,
    /// The file counted.
    pub file: String,
    /// The iCNF cube counted, if any.
    pub cube: Option<usize>,
    /// `complete`, `limit` (`--limit` reached) or `unknown` (stopped), as
    /// `count --json` says it.
    #[serde(default)]
    pub status: String,
    /// Projected models found.
    pub count: u64,
    /// Whether the count is exact (the solver proved there are no more).
    pub complete: bool,
    /// The number of projection variables.
    pub projected_vars: usize,
    /// Why counting stopped early, if it did.
    pub stopped: Option<String>,
    /// The solver.
    pub backend: String,
    /// Wall time in seconds.
    #[serde(default)]
    pub elapsed: f64,
    /// The SHA-256 digest of the file as read.
    #[serde(default)]
    pub digest: String,
    /// The split the file belongs to (its `c boardsat-split` line).
    #[serde(default)]
    pub split: Option<String>,
    /// The cube the file is (its `c boardsat-cube` line's id).
    #[serde(default)]
    pub cube_id: Option<String>,
    /// When the job ran past its budget: the pieces it was split into,
    /// the jobs of the next round, whose counts make its share; `count`
    /// is then what it had found when stopped, and counts for nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pieces: Option<Vec<Entry>>,
    /// In a split with lex-leader constraints ([`split::SplitSpec::lex`]),
    /// a job counted to its end: the placements its models (orbit
    /// representatives) stand for, each model's orbit under the board's
    /// symmetries summed. That is the job's share of the count; its
    /// weight is already in it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placements: Option<u64>,
}

impl JobResult {
    /// Whether the job answered: counted to the end, or split into
    /// pieces.
    #[must_use]
    pub fn answered(&self) -> bool {
        self.complete || self.pieces.is_some()
    }
}

/// One cube of a manifest, or one piece of a job split past its budget.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// The cube's id (`cube-00000`).
    pub id: String,
    /// Its weight.
    pub weight: u64,
    /// Its description (the split's words for the cube).
    pub description: String,
    /// The file its job counts.
    pub file: String,
    /// Its index in an iCNF file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
    /// The digest of the file.
    pub digest: String,
}

impl Entry {
    /// Whether `answer` is an answer to this cube of split `split`: it
    /// names the split, the cube, and the digest of the very file the
    /// manifest lists; if not, what it answers instead, in words.
    ///
    /// # Errors
    ///
    /// What `answer` answers instead (`another split (…)`, `cube …`).
    pub fn answered_by(&self, split: &str, answer: &JobResult) -> Result<(), String> {
        if answer.split.as_deref() != Some(split) {
            Err(format!(
                "another split ({})",
                answer.split.as_deref().unwrap_or("none")
            ))
        } else if answer.digest != self.digest {
            Err("a file whose digest is not the manifest's".to_string())
        } else if self.index.is_none() && answer.cube_id.as_deref() != Some(self.id.as_str()) {
            Err(format!(
                "cube {}",
                answer.cube_id.as_deref().unwrap_or("none")
            ))
        } else if self.index.is_some() && answer.cube != self.index {
            Err(format!("cube index {:?}", answer.cube))
        } else {
            Ok(())
        }
    }
}

/// A split directory's `MANIFEST`, read and checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Manifest {
    /// The split's id.
    pub split: String,
    /// What it was made of (its `# spec` line), when recorded.
    pub spec: Option<SplitSpec>,
    /// Whether its jobs prove their counts (its `# proofs` line).
    pub proofs: Proofs,
    /// How they write their proofs (its `# proof-format` line; text
    /// without one).
    pub proof_format: LratFormat,
    /// How they store their proofs (its `# proof-compression` line; as
    /// written without one).
    pub proof_compression: Compression,
    /// The jobs' budget (its `# budget` line).
    pub budget: Option<Budget>,
    /// The cubes, in order.
    pub entries: Vec<Entry>,
}

/// The manifest of the split in `dir`, checked: the header is there,
/// every line is whole, ids are unique, no file (or cube of an iCNF file)
/// is listed twice, weights are positive, and there are as many cubes as
/// the header declares.
///
/// # Errors
///
/// [`JobsError::Manifest`] naming what is wrong.
pub fn read_manifest(dir: &Path) -> Result<Manifest, JobsError> {
    let bad = |message: String| {
        JobsError::Manifest(format!("{MANIFEST} of {}: {message}", dir.display()))
    };
    let text = fs::read_to_string(dir.join(MANIFEST)).map_err(|_| {
        JobsError::Manifest(format!(
            "{} has no {MANIFEST} (not a 'boardsat cubes' directory)",
            dir.display()
        ))
    })?;
    let mut split = None;
    let mut spec = None;
    let mut proofs = Proofs::Off;
    let mut proof_format = LratFormat::Text;
    let mut proof_compression = Compression::None;
    let mut budget = None;
    let mut declared = None;
    let mut entries: Vec<Entry> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        match fields.as_slice() {
            [] => {}
            ["#", "split", id] => split = Some((*id).to_string()),
            ["#", "cubes", n] => {
                declared = Some(
                    n.parse::<usize>()
                        .map_err(|_| bad(format!("line {}: '{line}'", i + 1)))?,
                );
            }
            ["#", "spec", words @ ..] => {
                spec = Some(
                    SplitSpec::parse(&words.join(" "))
                        .map_err(|e| bad(format!("line {}: {e}", i + 1)))?,
                );
            }
            ["#", "proofs", PROOFS] => proofs = Proofs::On,
            ["#", "proof-format", name] => {
                proof_format = LratFormat::from_name(name).ok_or_else(|| {
                    bad(format!(
                        "line {}: no proof format '{name}' (lrat or lrat-binary)",
                        i + 1
                    ))
                })?;
            }
            ["#", "proof-compression", name] => {
                proof_compression = Compression::from_name(name).ok_or_else(|| {
                    bad(format!(
                        "line {}: no proof compression '{name}' (none or zstd)",
                        i + 1
                    ))
                })?;
            }
            ["#", "budget", words @ ..] => {
                budget =
                    Some(Budget::parse(words).map_err(|e| bad(format!("line {}: {e}", i + 1)))?);
            }
            [first, ..] if first.starts_with('#') => {}
            [id, weight, description, file, rest @ ..] => {
                let entry = cube_entry([id, weight, description, file], rest, line, &entries)
                    .map_err(|m| bad(format!("line {}: {m}", i + 1)))?;
                entries.push(entry);
            }
            _ => return Err(bad(format!("line {}: '{line}'", i + 1))),
        }
    }
    let split = split
        .ok_or_else(|| bad("no '# split' line (written by an older boardsat?)".to_string()))?;
    let declared = declared.ok_or_else(|| bad("no '# cubes' line".to_string()))?;
    if entries.len() != declared || declared == 0 {
        return Err(bad(format!(
            "it declares {declared} cubes and lists {}",
            entries.len()
        )));
    }
    if budget.is_some() && spec.is_none_or(|s| s.family != boardsat_encode::Family::Domination) {
        return Err(bad(
            "a '# budget' line without a domination split's '# spec' line".to_string(),
        ));
    }
    Ok(Manifest {
        split,
        spec,
        proofs,
        proof_format,
        proof_compression,
        budget,
        entries,
    })
}

/// One cube line of a manifest (`id weight description file [index]
/// digest`), checked against the cubes listed before it; the error says
/// what is wrong with the line.
fn cube_entry(
    [id, weight, description, file]: [&str; 4],
    rest: &[&str],
    line: &str,
    entries: &[Entry],
) -> Result<Entry, String> {
    let (index, digest) = match rest {
        [digest] => (None, *digest),
        [index, digest] => (
            Some(
                index
                    .parse::<usize>()
                    .map_err(|_| format!("bad cube index '{index}'"))?,
            ),
            *digest,
        ),
        _ => return Err(format!("'{line}'")),
    };
    let weight = weight
        .parse::<u64>()
        .ok()
        .filter(|&w| w > 0)
        .ok_or_else(|| format!("the weight '{weight}' is not a positive integer"))?;
    if entries.iter().any(|e| e.id == id) {
        return Err(format!("cube {id} is listed twice"));
    }
    if layout::parent_of(id).is_some() {
        return Err(format!(
            "the id {id} is a piece's (an id and '.NN'), not a cube's"
        ));
    }
    // One cube under two ids would be counted twice.
    if let Some(same) = entries.iter().find(|e| e.file == file && e.index == index) {
        let what = match index {
            Some(index) => format!("cube {index} of {file}"),
            None => file.to_string(),
        };
        return Err(format!(
            "cube {id} counts {what}, which {} already counts",
            same.id
        ));
    }
    Ok(Entry {
        id: id.to_string(),
        weight,
        description: description.to_string(),
        file: file.to_string(),
        index,
        digest: digest.to_string(),
    })
}

/// The manifest's lines saying whether and how the jobs prove their
/// counts (none when they do not; the defaults, text LRAT stored as
/// written, go unsaid).
fn proof_lines(jobs: &JobLines) -> String {
    if jobs.proofs == Proofs::Off {
        return String::new();
    }
    let mut lines = format!("# proofs {PROOFS}\n");
    if jobs.proof_format != LratFormat::Text {
        lines.push_str(&format!("# proof-format {}\n", jobs.proof_format.name()));
    }
    if jobs.proof_compression != Compression::None {
        lines.push_str(&format!(
            "# proof-compression {}\n",
            jobs.proof_compression.name()
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_round_trip_and_bad_ones_are_refused() {
        for budget in [
            Budget {
                time: Duration::from_millis(1),
                max_depth: None,
            },
            Budget {
                time: Duration::from_secs(600),
                max_depth: Some(4),
            },
        ] {
            let line = budget.line();
            let words: Vec<&str> = line.split_whitespace().skip(2).collect();
            assert_eq!(Budget::parse(&words), Ok(budget), "{line}");
        }
        for bad in [
            &["0"][..],
            &["-1"],
            &["nan"],
            &["inf"],
            &["x"],
            &[],
            &["5", "max-depth"],
            &["5", "max-depth", "-1"],
            &["5", "depth", "3"],
        ] {
            assert!(Budget::parse(bad).is_err(), "{bad:?}");
        }
    }
}
