//! Counting beyond one machine: a count split into cube jobs that any
//! scheduler can run (GNU parallel, Slurm array jobs), and the merge of
//! their answers.
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

use std::{fmt::Write as _, fs, io, path::Path};

use boardsat_encode::dimacs::{self, Format, Header};
use rustsat::{instances::Cnf, types::Lit};
use serde::{Deserialize, Serialize};

use crate::{
    files::{write_atomically, FileError},
    Interrupter,
};

/// The manifest's name inside a split directory.
pub const MANIFEST: &str = "MANIFEST";
/// The job list, one shell command per line.
pub const JOBS: &str = "jobs.txt";
/// The single file of an iCNF split.
pub const ICNF: &str = "cubes.icnf";
/// Where the jobs write their answers.
pub const RESULTS: &str = "results";

/// One cube of a split.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CubeJob {
    /// `cube-00000`, …: the manifest id and the result's file name.
    pub id: String,
    /// How many solutions each model found under the cube stands for.
    pub weight: u64,
    /// A short description without spaces (for queens, the columns of the
    /// fixed rows joined by commas, `-` for none).
    pub description: String,
    /// The cube's literals.
    pub lits: Vec<Lit>,
}

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
            reason: crate::files::describe(&e),
        }
    }
}

/// A count split into cubes, ready to be written.
#[derive(Clone, Debug)]
pub struct Split {
    /// Comments and projection of every file.
    pub header: Header,
    /// The formula every cube shares.
    pub base: Cnf,
    /// Its variables.
    pub n_vars: u32,
    /// The cubes, disjoint and together exhaustive.
    pub cubes: Vec<CubeJob>,
    /// One DIMACS file per cube, or one iCNF file.
    pub format: Format,
}

impl Split {
    /// An N-queens count split on the queens of the first `depth` rows
    /// ([`crate::cubes::queen_cubes`]), with mirror halving when `halve`.
    ///
    /// # Errors
    ///
    /// Encoding errors.
    pub fn queens(
        n: usize,
        depth: usize,
        halve: bool,
        config: boardsat_encode::Config,
        format: Format,
    ) -> Result<Split, crate::SolveError> {
        let problem = boardsat_encode::Problem::queens(n)?;
        let cubes: Vec<CubeJob> = crate::cubes::queen_cubes(n, depth, halve)
            .iter()
            .enumerate()
            .map(|(i, cube)| CubeJob {
                id: format!("cube-{i:05}"),
                weight: cube.weight,
                description: columns(&cube.columns),
                lits: cube
                    .squares()
                    .into_iter()
                    .map(|sq| problem.board.lit(sq))
                    .collect(),
            })
            .collect();
        let mut vars = problem.var_manager();
        let mut base = Cnf::new();
        let encoding = problem.encode(n, config, &mut base, &mut vars)?;
        let mut header = Header::for_encoding(&encoding, None);
        let reduction = if halve {
            "mirror halving"
        } else {
            "no reduction"
        };
        header.comments.push(format!(
            "{} cubes of depth {depth} for {n}-queens ({reduction}), queens of the first rows fixed",
            cubes.len()
        ));
        if format == Format::Inccnf {
            header.comments.push(format!(
                "one 'a' line per cube after the clauses; the 'c cube <id> weight <w> columns <cols>' lines above the 'a' lines list them in the same order; count cube I (from 0) with: boardsat count-dimacs {ICNF} --cube I"
            ));
        }
        Ok(Split {
            header,
            base,
            n_vars: encoding.stats.n_vars,
            cubes,
            format,
        })
    }
}

/// Columns joined by commas, or `-` when there are none (depth 0).
fn columns(columns: &[usize]) -> String {
    if columns.is_empty() {
        return "-".to_string();
    }
    let columns: Vec<String> = columns.iter().map(ToString::to_string).collect();
    columns.join(",")
}

/// Writes `split` into `dir`: one DIMACS file per cube, or one iCNF file,
/// plus the manifest and the job list (see the module doc). `program` is
/// how the job lines call boardsat.
///
/// # Errors
///
/// [`JobsError`] for files and directories that cannot be written.
pub fn write_split(
    dir: &Path,
    split: &Split,
    program: &str,
    stop: Option<&Interrupter>,
) -> Result<(), JobsError> {
    let Split {
        header,
        base,
        n_vars,
        cubes,
        format,
    } = split;
    let (n_vars, format) = (*n_vars, *format);
    fs::create_dir_all(dir.join(RESULTS)).map_err(|e| JobsError::Dir {
        action: "create",
        path: dir.display().to_string(),
        reason: crate::files::describe(&e),
    })?;
    let mut manifest = String::new();
    let mut jobs = String::new();
    match format {
        Format::Cnf => {
            manifest.push_str("# id weight columns file\n");
            for cube in cubes {
                let CubeJob {
                    id,
                    weight,
                    description,
                    lits,
                } = cube;
                let mut cnf = base.clone();
                for &lit in lits {
                    cnf.add_unit(lit);
                }
                let mut header = header.clone();
                header.comments.push(format!(
                    "cube {id}: {} fixed literals ({description}), weight {weight}",
                    lits.len()
                ));
                let path = dir.join(format!("{id}.cnf"));
                write_atomically(&path, stop, |w| {
                    dimacs::write(w, &header, &cnf, n_vars).map_err(|e| FileError::io(&path, e))
                })?;
                let _ = writeln!(manifest, "{id} {weight} {description} {id}.cnf");
                let _ = writeln!(
                    jobs,
                    "{program} count-dimacs {id}.cnf --json > {RESULTS}/{id}.json"
                );
            }
        }
        Format::Inccnf => {
            manifest.push_str("# id weight columns file cube\n");
            let mut header = header.clone();
            header.format = Format::Inccnf;
            let path = dir.join(ICNF);
            write_atomically(&path, stop, |w| {
                let io = |e: io::Error| FileError::io(&path, e);
                dimacs::write(w, &header, base, n_vars).map_err(io)?;
                // One block of `c cube` lines before the first `a` line:
                // CaDiCaL before 2.0 (Debian's `cadical`) reads nothing but
                // `a` lines after the first one.
                for cube in cubes {
                    writeln!(
                        w,
                        "c cube {} weight {} columns {}",
                        cube.id, cube.weight, cube.description
                    )
                    .map_err(io)?;
                }
                for cube in cubes {
                    dimacs::write_cube(w, &cube.lits).map_err(io)?;
                }
                Ok::<(), FileError>(())
            })?;
            for (i, cube) in cubes.iter().enumerate() {
                let _ = writeln!(
                    manifest,
                    "{} {} {} {ICNF} {i}",
                    cube.id, cube.weight, cube.description
                );
                let _ = writeln!(
                    jobs,
                    "{program} count-dimacs {ICNF} --cube {i} --json > {RESULTS}/{}.json",
                    cube.id
                );
            }
        }
    }
    let text = |path: &Path, content: &str| -> Result<(), FileError> {
        write_atomically(path, stop, |w| {
            w.write_all(content.as_bytes())
                .map_err(|e| FileError::io(path, e))
        })
    };
    text(&dir.join(MANIFEST), &manifest)?;
    text(&dir.join(JOBS), &jobs)?;
    Ok(())
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
}

/// The merged answer of a split.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Merged {
    /// The weighted sum of every cube's count.
    pub count: u128,
    /// Cubes answered.
    pub cubes: usize,
}

/// Sums the answers of a split directory with their weights, after checking
/// that every cube of the manifest has a complete answer.
///
/// # Errors
///
/// [`JobsError::Manifest`] for a directory without a readable manifest,
/// [`JobsError::Unanswered`] naming the cubes without a complete answer.
pub fn merge(dir: &Path) -> Result<Merged, JobsError> {
    let manifest = fs::read_to_string(dir.join(MANIFEST)).map_err(|_| {
        JobsError::Manifest(format!(
            "{} has no {MANIFEST} (not a 'boardsat cubes' directory)",
            dir.display()
        ))
    })?;
    let mut total: u128 = 0;
    let mut cubes = 0usize;
    let mut missing = Vec::new();
    let mut incomplete = Vec::new();
    for line in manifest
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let (Some(id), Some(weight)) = (fields.first(), fields.get(1)) else {
            return Err(JobsError::Manifest(format!(
                "malformed {MANIFEST} line: '{line}'"
            )));
        };
        let weight: u64 = weight.parse().map_err(|_| {
            JobsError::Manifest(format!("malformed weight in {MANIFEST} line '{line}'"))
        })?;
        cubes += 1;
        let result = dir.join(RESULTS).join(format!("{id}.json"));
        let Ok(text) = fs::read_to_string(&result) else {
            missing.push((*id).to_string());
            continue;
        };
        match serde_json::from_str::<JobResult>(text.trim()) {
            Ok(answer) if answer.complete => {
                total += u128::from(answer.count) * u128::from(weight);
            }
            _ => incomplete.push((*id).to_string()),
        }
    }
    if !missing.is_empty() || !incomplete.is_empty() {
        return Err(JobsError::Unanswered {
            unanswered: missing.len() + incomplete.len(),
            cubes,
            missing: summary(&missing),
            incomplete: summary(&incomplete),
        });
    }
    Ok(Merged {
        count: total,
        cubes,
    })
}

fn summary(ids: &[String]) -> String {
    match ids.len() {
        0 => "none".to_string(),
        1..=5 => ids.join(", "),
        n => format!("{}, … ({n} in all)", ids[..5].join(", ")),
    }
}
