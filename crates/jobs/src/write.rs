//! A split written: the cube files (or one iCNF file), the `MANIFEST`,
//! `jobs.txt` and `slurm.sbatch`, each whole or not at all; and the
//! pieces of a job split past its budget (see the crate doc).

use std::{fmt::Write as _, fs, io::Write as _, path::Path};

use boardsat_encode::dimacs::{self, Format, Header};
use boardsat_solve::files::proof_dir::ProofFormat;
use rustsat::instances::Cnf;

use boardsat_solve::{
    files::{self, proof_dir::Compression, write_atomically, FileError},
    formula::dimacs::digest,
    search::count::Proofs,
    stop::Interrupter,
};

use crate::{
    error::JobsError,
    layout::{self, JOBS, MANIFEST, MANIFEST_HEADER, PROOFS, RESULTS, SLURM_SCRIPT},
    manifest::{Budget, Entry},
    slurm_script,
    split::{CubeJob, Split, ICNF},
};

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
/// [`JobsError::Unquotable`] for a program path the shell could not take
/// inside double quotes.
pub fn job_program(program: &str) -> Result<String, JobsError> {
    if program.contains(['"', '$', '`', '\\', '\n', '}']) {
        return Err(JobsError::Unquotable {
            program: program.to_string(),
        });
    }
    Ok(format!("\"${{BOARDSAT:-{program}}}\""))
}

/// How the lines of `jobs.txt` run a cube: `<program> job . <id>`, from
/// inside the split's directory ([`crate::job`] says what a job does).
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
    pub proof_format: ProofFormat,
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
        return Err(JobsError::BudgetNotDomination);
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
        other => return Err(JobsError::CubeFormat(other)),
    }
    files.text(SLURM_SCRIPT, slurm_script::SCRIPT)?;
    files.text(MANIFEST, &listing.manifest)?;
    files.text(JOBS, &listing.jobs)?;
    Ok(())
}

/// Writes the files of `pieces`, the pieces of job `parent` of split
/// `split_id` ([`crate::split::SplitSpec::piece_split`]), into `dir`: one DIMACS file
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

/// The manifest's lines saying whether and how the jobs prove their
/// counts (none when they do not; the defaults, text LRAT stored as
/// written, go unsaid).
fn proof_lines(jobs: &JobLines) -> String {
    if jobs.proofs == Proofs::Off {
        return String::new();
    }
    let mut lines = format!("# proofs {PROOFS}\n");
    if jobs.proof_format != ProofFormat::LratText {
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
