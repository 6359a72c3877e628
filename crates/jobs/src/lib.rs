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
//! 2. `this one` — the split written, merged
//! 3. `estimate`, `report` — sizing a split; the JSON reports
//!
//! [`write_split`] writes a directory: the cubes, one DIMACS file each
//! (the cube's literals as unit clauses) or one iCNF file for them all
//! ([`Format::Inccnf`]: the base formula once, `p inccnf`, a `c cube` line
//! per cube with its id and weight, then one `a` line per cube); a
//! `MANIFEST` with each cube's id, weight, description and file; a
//! `jobs.txt` with one `count-dimacs` command per cube; and `results/`,
//! where each job writes its JSON answer ([`JobResult`]). [`merge`] sums
//! the weighted answers and checks that every cube was answered in full.
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

use crate::split::{CubeJob, Split, SplitSpec};

pub mod estimate;
pub mod report;
pub mod split;

/// The manifest's name inside a split directory.
pub const MANIFEST: &str = "MANIFEST";
/// The job list, one shell command per line.
pub const JOBS: &str = "jobs.txt";
pub use crate::split::ICNF;
/// Where the jobs write their answers.
pub const RESULTS: &str = "results";
/// Where the jobs of a split written with proofs write them: one
/// directory per cube, named by its id (`proofs/cube-00000`).
pub const PROOFS: &str = "proofs";

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

/// Names a split owns in its directory (removed by a forced rewrite).
fn owned(name: &str) -> bool {
    name == MANIFEST
        || name == JOBS
        || name == ICNF
        || (name.starts_with("cube-") && name.ends_with(".cnf"))
}

/// Makes `dir` ready for a new split: refuses a non-empty directory unless
/// `force`, in which case exactly what a split owns (the manifest, the job
/// list, the cube files and the results) is removed and nothing else.
fn prepare(dir: &Path, force: bool) -> Result<(), JobsError> {
    let problem = |action: &'static str, e: io::Error| JobsError::Dir {
        action,
        path: dir.display().to_string(),
        reason: files::describe(&e),
    };
    let entries: Vec<String> = match fs::read_dir(dir) {
        Ok(list) => list
            .filter_map(Result::ok)
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect(),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(problem("read", e)),
    };
    if !entries.is_empty() && !force {
        let mut shown: Vec<&str> = entries.iter().map(String::as_str).take(3).collect();
        if entries.len() > 3 {
            shown.push("…");
        }
        return Err(JobsError::Manifest(format!(
            "{} is not empty ({}); write the split into a new directory, or add --force to replace a previous split there",
            dir.display(),
            shown.join(", ")
        )));
    }
    for name in entries.iter().filter(|n| owned(n)) {
        fs::remove_file(dir.join(name)).map_err(|e| problem("clear", e))?;
    }
    let results = dir.join(RESULTS);
    if let Ok(list) = fs::read_dir(&results) {
        for entry in list.filter_map(Result::ok) {
            if entry.file_name().to_string_lossy().ends_with(".json") {
                fs::remove_file(entry.path()).map_err(|e| problem("clear", e))?;
            }
        }
    }
    clear_proofs(&dir.join(PROOFS)).map_err(|e| problem("clear", e))?;
    fs::create_dir_all(&results).map_err(|e| problem("create", e))
}

/// Removes what the jobs' provers wrote under `proofs` (each cube's
/// `MANIFEST.json`, `claim-*` files, then its directory, when it is left
/// empty), and nothing else.
fn clear_proofs(proofs: &Path) -> io::Result<()> {
    let Ok(list) = fs::read_dir(proofs) else {
        return Ok(());
    };
    for cube in list.filter_map(Result::ok) {
        let name = cube.file_name().to_string_lossy().into_owned();
        if !name.starts_with("cube-") || !cube.file_type()?.is_dir() {
            continue;
        }
        for file in fs::read_dir(cube.path())?.filter_map(Result::ok) {
            let file_name = file.file_name().to_string_lossy().into_owned();
            if file_name == "MANIFEST.json" || file_name.starts_with("claim-") {
                fs::remove_file(file.path())?;
            }
        }
        // Anything else the user put there stays, and so does the folder.
        let _ = fs::remove_dir(cube.path());
    }
    let _ = fs::remove_dir(proofs);
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

/// How the lines of `jobs.txt` run a cube.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobLines {
    /// How they call boardsat ([`job_program`]).
    pub program: String,
    /// Whether each job proves its count (`--proof proofs/<cube id>`),
    /// for `boardsat merge --verify`.
    pub proofs: Proofs,
}

impl JobLines {
    /// The command of cube `id`, counting `file` (cube `index` of it, for
    /// an iCNF file).
    fn line(&self, id: &str, file: &str, index: Option<usize>) -> String {
        let cube = index.map_or(String::new(), |i| format!(" --cube {i}"));
        let proof = match self.proofs {
            Proofs::On => format!(" --proof {PROOFS}/{id}"),
            Proofs::Off => String::new(),
        };
        format!(
            "{} count-dimacs {file}{cube}{proof} --json > {RESULTS}/{id}.json",
            self.program
        )
    }
}

/// Writes `split` into `dir`: one DIMACS file per cube, or one iCNF file,
/// plus the manifest and the job list (see the module doc); `jobs` says
/// how the job lines run. A directory that is
/// not empty is refused unless `force`, which replaces a previous split's
/// files (and only those).
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
            "# boardsat cubes MANIFEST\n# split {id}\n# cubes {}\n{}{}",
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
            let _ = writeln!(listing.jobs, "{}", jobs.line(&cube.id, &file, None));
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
            let _ = writeln!(listing.jobs, "{}", jobs.line(&cube.id, ICNF, Some(i)));
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
/// every line is whole, ids are unique, weights positive, and there are as
/// many cubes as the header declares.
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
        let result = dir.join(RESULTS).join(format!("{}.json", entry.id));
        let Ok(text) = fs::read_to_string(&result) else {
            missing.push(entry.id.clone());
            continue;
        };
        let Ok(answer) = serde_json::from_str::<JobResult>(text.trim()) else {
            incomplete.push(entry.id.clone());
            continue;
        };
        let problem = if answer.split.as_deref() != Some(split.as_str()) {
            Some(format!(
                "another split ({})",
                answer.split.as_deref().unwrap_or("none")
            ))
        } else if answer.digest != entry.digest {
            Some("a file whose digest is not the manifest's".to_string())
        } else if entry.index.is_none() && answer.cube_id.as_deref() != Some(entry.id.as_str()) {
            Some(format!(
                "cube {}",
                answer.cube_id.as_deref().unwrap_or("none")
            ))
        } else if entry.index.is_some() && answer.cube != entry.index {
            Some(format!("cube index {:?}", answer.cube))
        } else {
            None
        };
        if let Some(what) = problem {
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
