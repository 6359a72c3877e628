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
//! | [`layout`] | the names in a split directory, and what `--force` may remove |
//! | [`read_manifest`], [`merge`], [`JobResult`] | the answers read back and summed, every cube checked answered |
//! | [`estimate::estimate`] | a random sample of cubes solved as their jobs would, and the projected CPU time |
//! | [`report`] | the JSON of `cubes`, `merge` and `cubes --estimate` |
//!
//! ## Layers
//!
//! Each module imports only from modules on its own line or a line above
//! (checked by `tests/tests/layers.rs`):
//!
//! 1. `split` — what a split is
//! 2. `layout` — the names in a split directory
//! 3. this one — the split written, merged
//! 4. `job`, `estimate`, `report` — running one job; sizing a split; the JSON reports
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
//! The files carry the provenance and projection lines of
//! [`boardsat_encode::dimacs`], so an external projected model counter can
//! do the jobs as well.

use std::{
    fmt::Write as _,
    fs,
    io::{self, Write as _},
    path::Path,
};

use boardsat_encode::dimacs::{self, Format, Header};
use rustsat::instances::Cnf;
use serde::{Deserialize, Serialize};

use boardsat_solve::{
    files::{self, write_atomically, FileError},
    formula::dimacs::digest,
    search::count::Proofs,
    stop::Interrupter,
};

use crate::{
    layout::{LayoutError, MANIFEST_HEADER},
    split::{CubeJob, Split, SplitSpec},
};

pub mod estimate;
pub mod job;
pub mod layout;
pub mod report;
pub mod split;

pub use crate::{
    layout::{JOBS, MANIFEST, PROOFS, RESULTS},
    split::ICNF,
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
    /// Some cubes have no complete answer.
    #[error("{unanswered} of {cubes} cubes have no complete answer (missing: {missing}; incomplete: {incomplete})")]
    Unanswered {
        /// Cubes without a complete answer.
        unanswered: usize,
        /// Cubes in all.
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
}

impl JobLines {
    /// The command of cube `id`.
    fn line(&self, id: &str) -> String {
        format!("{} job . {id}", self.program)
    }
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
            match jobs.proofs {
                Proofs::On => format!("# proofs {PROOFS}\n"),
                Proofs::Off => String::new(),
            }
        ),
        jobs: String::new(),
    };
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
    files.text(MANIFEST, &listing.manifest)?;
    files.text(JOBS, &listing.jobs)?;
    Ok(())
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
}

/// The merged answer of a split.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Merged {
    /// The weighted sum of every cube's count.
    pub count: u128,
    /// Cubes answered.
    pub cubes: usize,
}

/// One cube of a manifest.
#[derive(Clone, Debug, PartialEq, Eq)]
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
            [first, ..] if first.starts_with('#') => {}
            [id, weight, description, file, rest @ ..] => {
                let (index, digest) = match rest {
                    [digest] => (None, *digest),
                    [index, digest] => (
                        Some(index.parse::<usize>().map_err(|_| {
                            bad(format!("line {}: bad cube index '{index}'", i + 1))
                        })?),
                        *digest,
                    ),
                    _ => return Err(bad(format!("line {}: '{line}'", i + 1))),
                };
                let weight = weight
                    .parse::<u64>()
                    .ok()
                    .filter(|&w| w > 0)
                    .ok_or_else(|| {
                        bad(format!(
                            "line {}: the weight '{weight}' is not a positive integer",
                            i + 1
                        ))
                    })?;
                if entries.iter().any(|e| e.id == *id) {
                    return Err(bad(format!("line {}: cube {id} is listed twice", i + 1)));
                }
                // One cube under two ids would be counted twice.
                if let Some(same) = entries.iter().find(|e| e.file == *file && e.index == index) {
                    let what = match index {
                        Some(index) => format!("cube {index} of {file}"),
                        None => (*file).to_string(),
                    };
                    return Err(bad(format!(
                        "line {}: cube {id} counts {what}, which {} already counts",
                        i + 1,
                        same.id
                    )));
                }
                entries.push(Entry {
                    id: (*id).to_string(),
                    weight,
                    description: (*description).to_string(),
                    file: (*file).to_string(),
                    index,
                    digest: digest.to_string(),
                });
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
    Ok(Manifest {
        split,
        spec,
        proofs,
        entries,
    })
}

/// Sums the answers of a split directory with their weights, after checking
/// that every cube of the manifest has a complete answer, and that each
/// answer is the count of that cube of this split: the result names the
/// split, the cube, and the digest of the very file the manifest lists.
///
/// # Errors
///
/// [`JobsError::Manifest`] for a directory without a sound manifest,
/// [`JobsError::Unanswered`] naming the cubes without a valid answer, and
/// [`JobsError::Manifest`] when the total overflows.
pub fn merge(dir: &Path) -> Result<Merged, JobsError> {
    let Manifest { split, entries, .. } = read_manifest(dir)?;
    let mut total: u128 = 0;
    let mut missing = Vec::new();
    let mut incomplete = Vec::new();
    let mut foreign = Vec::new();
    for entry in &entries {
        let result = dir.join(RESULTS).join(layout::result_name(&entry.id));
        let Ok(text) = fs::read_to_string(&result) else {
            missing.push(entry.id.clone());
            continue;
        };
        let Ok(answer) = serde_json::from_str::<JobResult>(text.trim()) else {
            incomplete.push(entry.id.clone());
            continue;
        };
        if let Err(what) = entry.answered_by(&split, &answer) {
            foreign.push(format!("{} answers {what}", entry.id));
            continue;
        }
        if !answer.complete {
            incomplete.push(entry.id.clone());
            continue;
        }
        total = u128::from(answer.count)
            .checked_mul(u128::from(entry.weight))
            .and_then(|c| total.checked_add(c))
            .ok_or_else(|| JobsError::Manifest("the weighted total overflows".to_string()))?;
    }
    if !missing.is_empty() || !incomplete.is_empty() || !foreign.is_empty() {
        let mut foreign_text = String::new();
        if !foreign.is_empty() {
            foreign_text = format!("; not this split's cube: {}", summary(&foreign));
        }
        return Err(JobsError::Unanswered {
            unanswered: missing.len() + incomplete.len() + foreign.len(),
            cubes: entries.len(),
            missing: summary(&missing),
            incomplete: format!("{}{foreign_text}", summary(&incomplete)),
        });
    }
    Ok(Merged {
        count: total,
        cubes: entries.len(),
    })
}

fn summary(ids: &[String]) -> String {
    match ids.len() {
        0 => "none".to_string(),
        1..=5 => ids.join(", "),
        n => format!("{}, … ({n} in all)", ids[..5].join(", ")),
    }
}
