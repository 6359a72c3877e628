//! The names in a split directory, and what a forced rewrite
//! (`cubes -o DIR --replace`) may remove: only regular files a split itself
//! writes, under the exact names it writes them, never through a
//! symbolic link.
//!
//! | path | written by |
//! |---|---|
//! | `MANIFEST`, `jobs.txt` | `cubes` |
//! | `cube-00000.cnf`, … or `cubes.icnf` | `cubes` |
//! | `results/<id>.json` | the job of cube `<id>` (`boardsat job`) |
//! | `results/<id>.json.partial`, `results/<id>.lock` | that job while it runs (a killed job leaves them; its next run removes them) |
//! | `proofs/<id>/MANIFEST.json`, `.boardsat-lock`, `found.models`, `claim-*.cnf`, `claim-*.lrat`, `claim-*.models` and their temporaries | that job's prover (`cubes --proof`); the job's next run removes them unless it is finished |
//! | `<id>.<NN>.cnf` | the job of cube `<id>`, split past its budget: its pieces, the jobs of the next round |
//! | `.boardsat-<name>.<random>` | the temporary of `<name>` while it is written whole (`boardsat_solve::files`); a killed writer leaves it, and the owner of `<name>` removes it |
//! | `slurm.sbatch` | `cubes`: the Slurm array script of a round |
//! | `rounds/<R>.txt` | `boardsat jobs`: the job list of round R ≥ 1 (round 0 is `jobs.txt`) |
//! | `rounds/<R>.log`, `rounds/<R>.out`, `rounds/slurm-<R>-<C>-<T>.out`, `.exit` | `boardsat jobs --run`: the engine's log and output of round R, a Slurm task's exit |
//! | `rounds/driver.lock` | `boardsat jobs --run` while it drives the rounds |
//!
//! A cube's id is a name a split wrote: `cube-` and at least five digits,
//! or an id its previous `MANIFEST` lists, followed by one `.NN` (two
//! digits) per round for a piece. A forced rewrite first gathers
//! everything it would remove and checks it ([`Clearing::plan`]); anything
//! in the way that is not what a split writes — `results` or `proofs` a
//! symbolic link, a cube file that is a link or a FIFO — is an error and
//! nothing is removed. A directory whose `MANIFEST` is not one `cubes`
//! wrote never held a split, and is refused even with `--replace`.

use std::{
    collections::BTreeSet,
    fs, io,
    path::{Path, PathBuf},
};

use boardsat_solve::files;

use boardsat_encode::setting::{LibraryWords, Names, Setting};

use crate::split::ICNF;

/// The manifest's name inside a split directory.
pub const MANIFEST: &str = "MANIFEST";
/// The first line of every manifest a split writes.
pub const MANIFEST_HEADER: &str = "# boardsat cubes MANIFEST";
/// The job list, one shell command per line.
pub const JOBS: &str = "jobs.txt";
/// Where the jobs write their answers.
pub const RESULTS: &str = "results";
/// Where the jobs of a split written with proofs write them: one
/// directory per cube, named by its id (`proofs/cube-00000`).
pub const PROOFS: &str = "proofs";
/// The Slurm array script `cubes` writes: one task per line of a round's
/// job list.
pub const SLURM_SCRIPT: &str = "slurm.sbatch";
/// Where the rounds after the first have their job lists, and the
/// engines their logs.
pub const ROUNDS: &str = "rounds";
/// The lock `boardsat jobs --run` holds while it drives the rounds, in
/// `rounds/`.
pub const DRIVER_LOCK: &str = "driver.lock";

/// The job list of round `round` (≥ 1), in `rounds/`.
#[must_use]
pub fn round_list(round: usize) -> String {
    format!("{round}.txt")
}

/// Whether `name` is a file `boardsat jobs` or its engines write in
/// `rounds/`: `<R>.txt`, `<R>.log`, `<R>.out`, `slurm-<R>-<C>-<T>.out`
/// and `.exit`, the driver's lock.
#[must_use]
pub fn is_round_file(name: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if name == DRIVER_LOCK {
        return true;
    }
    if let Some(rest) = name
        .strip_prefix("slurm-")
        .and_then(|n| n.strip_suffix(".out").or_else(|| n.strip_suffix(".exit")))
    {
        let parts: Vec<&str> = rest.split('-').collect();
        return parts.len() == 3 && parts.iter().all(|p| digits(p));
    }
    [".txt", ".log", ".out"]
        .iter()
        .any(|ext| name.strip_suffix(ext).is_some_and(digits))
}

/// The file of cube `id`'s answer, in `results/`.
#[must_use]
pub fn result_name(id: &str) -> String {
    format!("{id}.json")
}

/// The temporary file a job writes its answer into before renaming it
/// to [`result_name`], in `results/`.
#[must_use]
pub fn partial_name(id: &str) -> String {
    format!("{id}.json.partial")
}

/// The lock a job holds while it runs, in `results/`.
#[must_use]
pub fn lock_name(id: &str) -> String {
    format!("{id}.lock")
}

/// Whether `id` is an id `cubes` writes, `cube-` and at least five
/// digits, or a piece of one ([`root_of`]).
#[must_use]
pub fn is_cube_id(id: &str) -> bool {
    root_of(id)
        .strip_prefix("cube-")
        .is_some_and(|n| n.len() >= 5 && n.bytes().all(|b| b.is_ascii_digit()))
}

/// The id of the round-0 job that piece `id` descends from: `id` without
/// its `.NN` suffixes (two digits each, one per round); `id` itself for a
/// round-0 job.
#[must_use]
pub fn root_of(id: &str) -> &str {
    let mut id = id;
    while let Some((parent, nn)) = id.rsplit_once('.') {
        if nn.len() != 2 || !nn.bytes().all(|b| b.is_ascii_digit()) {
            break;
        }
        id = parent;
    }
    id
}

/// The parent of piece `id` (`cube-00003.07` → `cube-00003`), `None` for
/// a round-0 job.
#[must_use]
pub fn parent_of(id: &str) -> Option<&str> {
    let (parent, nn) = id.rsplit_once('.')?;
    (nn.len() == 2 && nn.bytes().all(|b| b.is_ascii_digit())).then_some(parent)
}

/// Whether `name` names a file inside a directory, not a path: not empty,
/// no separator, not hidden, not `.` or `..`.
#[must_use]
pub fn is_plain_name(name: &str) -> bool {
    !name.is_empty() && !name.starts_with('.') && !name.contains(['/', '\\', '\0'])
}

/// Whether `name` is a file that `owned` names, or a temporary of one
/// that a killed writer left ([`files::temporary_target`]).
fn written(name: &str, owned: impl Fn(&str) -> bool) -> bool {
    owned(name) || files::temporary_target(name).is_some_and(owned)
}

/// Whether `name` is one a job's prover writes in its proof directory:
/// the manifest, its lock, the models found, and each claim's formula,
/// proof and witnesses (`boardsat_proof::prover` writes them).
fn is_proof_file(name: &str) -> bool {
    files::proof_dir::is_run_file(name)
}

/// Why a directory cannot take a split, or what is in the way.
#[derive(Debug, thiserror::Error)]
pub enum LayoutError {
    /// The split's path is no directory.
    #[error("{0} is not a directory")]
    NotADirectory(String),
    /// The directory is not empty, and replacing a previous split was
    /// not asked for.
    #[error("{}", self.message(&LibraryWords))]
    NotEmpty {
        /// The directory.
        dir: String,
        /// A few of its names.
        shown: String,
    },
    /// The directory is not empty and holds no previous split.
    #[error("{}", self.message(&LibraryWords))]
    NoPreviousSplit {
        /// The directory.
        dir: String,
        /// A few of its names.
        shown: String,
    },
    /// Something a forced rewrite would remove or walk into is not a
    /// regular file or directory of a split (a symbolic link, a FIFO, …).
    #[error("{path} is {what}, not what a split writes; nothing was removed")]
    InTheWay {
        /// The path.
        path: String,
        /// What it is, in words.
        what: &'static str,
    },
    /// A directory could not be read, or a file removed.
    #[error("cannot {action} {path}: {reason}")]
    Io {
        /// What was being done.
        action: &'static str,
        /// The path.
        path: String,
        /// Why it failed.
        reason: String,
    },
}

impl LayoutError {
    /// The message, with the settings it names worded by `names`.
    #[must_use]
    pub fn message(&self, names: &dyn Names) -> String {
        let replace = names.name(Setting::Replace, None);
        match self {
            LayoutError::NotEmpty { dir, shown } => format!(
                "{dir} is not empty ({shown}); write the split into a new directory, or add {replace} to replace a previous split there"
            ),
            LayoutError::NoPreviousSplit { dir, shown } => format!(
                "{dir} is not empty ({shown}) and holds no previous split (no {MANIFEST} written by {}); {replace} replaces only a split: write into a new directory",
                names.name(Setting::Split, None)
            ),
            other => other.to_string(),
        }
    }
}

fn io_error(action: &'static str, path: &Path, e: &io::Error) -> LayoutError {
    LayoutError::Io {
        action,
        path: path.display().to_string(),
        reason: files::describe(e),
    }
}

/// What a path is, without following a symbolic link: `None` when there
/// is nothing there.
fn kind(path: &Path) -> Result<Option<fs::FileType>, LayoutError> {
    match fs::symlink_metadata(path) {
        Ok(meta) => Ok(Some(meta.file_type())),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io_error("read", path, &e)),
    }
}

/// A file type in words.
fn words(kind: fs::FileType) -> &'static str {
    if kind.is_symlink() {
        "a symbolic link"
    } else if kind.is_dir() {
        "a directory"
    } else if kind.is_file() {
        "a regular file"
    } else {
        "a special file (FIFO, socket or device)"
    }
}

/// `path` must be a directory (not a link to one), or absent: whether it
/// is there.
///
/// # Errors
///
/// [`LayoutError::InTheWay`] for anything else.
pub fn real_dir(path: &Path) -> Result<bool, LayoutError> {
    match kind(path)? {
        None => Ok(false),
        Some(k) if k.is_dir() => Ok(true),
        Some(k) => Err(LayoutError::InTheWay {
            path: path.display().to_string(),
            what: words(k),
        }),
    }
}

/// `path` must be a regular file (not a link to one), or absent: whether
/// it is there.
///
/// # Errors
///
/// [`LayoutError::InTheWay`] for anything else.
pub fn real_file(path: &Path) -> Result<bool, LayoutError> {
    match kind(path)? {
        None => Ok(false),
        Some(k) if k.is_file() => Ok(true),
        Some(k) => Err(LayoutError::InTheWay {
            path: path.display().to_string(),
            what: words(k),
        }),
    }
}

/// Removes a job's proof directory `dir`: the files its prover writes
/// there (regular files only), then the directory if that leaves it
/// empty. Nothing there is nothing to do.
///
/// # Errors
///
/// [`LayoutError::InTheWay`] for a link or special file where the
/// directory or one of those files would be; [`LayoutError::Io`].
pub fn remove_proofs(dir: &Path) -> Result<(), LayoutError> {
    if !real_dir(dir)? {
        return Ok(());
    }
    let mut clearing = Clearing::default();
    for name in names(dir)?.into_iter().filter(|n| is_proof_file(n)) {
        clearing.file(dir.join(name))?;
    }
    clearing.dirs.push(dir.to_path_buf());
    clearing.clear()
}

/// Removes the piece files of job `id` from the split directory `dir`
/// (`<id>.<NN>.cnf`, and their temporaries): what a run of the job that
/// was killed while it split left, which no answer lists. Regular files
/// only.
///
/// # Errors
///
/// [`LayoutError::InTheWay`] for a link or special file of such a name;
/// [`LayoutError::Io`].
pub fn remove_pieces(dir: &Path, id: &str) -> Result<(), LayoutError> {
    let piece = |name: &str| {
        name.strip_suffix(".cnf")
            .is_some_and(|piece| parent_of(piece) == Some(id))
    };
    let mut clearing = Clearing::default();
    for name in names(dir)?.into_iter().filter(|n| written(n, piece)) {
        clearing.file(dir.join(name))?;
    }
    clearing.clear()
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Result<Vec<String>, LayoutError> {
    let list = fs::read_dir(dir).map_err(|e| io_error("read", dir, &e))?;
    let mut names = Vec::new();
    for entry in list {
        let entry = entry.map_err(|e| io_error("read", dir, &e))?;
        names.push(entry.file_name().to_string_lossy().into_owned());
    }
    names.sort();
    Ok(names)
}

/// The cube ids of a previous split in `dir`, when its `MANIFEST` is a
/// regular file that `cubes` wrote: every id its lines list that is a
/// plain file name. `None` when `dir` holds no previous split.
fn previous_ids(dir: &Path) -> Result<Option<BTreeSet<String>>, LayoutError> {
    let path = dir.join(MANIFEST);
    if !matches!(kind(&path)?, Some(k) if k.is_file()) {
        return Ok(None);
    }
    let text = fs::read(&path).map_err(|e| io_error("read", &path, &e))?;
    let text = String::from_utf8_lossy(&text);
    if text.lines().next() != Some(MANIFEST_HEADER) {
        return Ok(None);
    }
    Ok(Some(
        text.lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| l.split_whitespace().next())
            .filter(|id| is_plain_name(id))
            .map(str::to_string)
            .collect(),
    ))
}

/// What a forced rewrite removes from a previous split: gathered and
/// checked whole before anything is removed ([`Clearing::plan`]).
#[derive(Debug, Default)]
pub struct Clearing {
    /// Regular files to remove.
    files: Vec<PathBuf>,
    /// Directories to remove afterwards if they are left empty, deepest
    /// first.
    dirs: Vec<PathBuf>,
}

impl Clearing {
    /// What making a split in `dir` must remove first. A missing or empty
    /// directory needs nothing; one that is not empty is refused unless
    /// `force` and it holds a previous split (a `MANIFEST` that `cubes`
    /// wrote), whose files — and only those, see the module doc — are
    /// then listed. Other files stay where they are.
    ///
    /// # Errors
    ///
    /// [`LayoutError::NotADirectory`] for a path that is no directory,
    /// [`LayoutError::NotEmpty`] for a directory that is not empty without
    /// `force`, [`LayoutError::NoPreviousSplit`] for one that holds no
    /// previous split; [`LayoutError::InTheWay`] for
    /// a symbolic link or special file where a split has its files.
    pub fn plan(dir: &Path, force: bool) -> Result<Clearing, LayoutError> {
        match fs::metadata(dir) {
            Ok(meta) if meta.is_dir() => {}
            Ok(_) => return Err(LayoutError::NotADirectory(dir.display().to_string())),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                // A dangling link is not nothing.
                if kind(dir)?.is_some() {
                    return Err(LayoutError::InTheWay {
                        path: dir.display().to_string(),
                        what: "a dangling symbolic link",
                    });
                }
                return Ok(Clearing::default());
            }
            Err(e) => return Err(io_error("read", dir, &e)),
        }
        let present = names(dir)?;
        if present.is_empty() {
            return Ok(Clearing::default());
        }
        let mut shown: Vec<&str> = present.iter().map(String::as_str).take(3).collect();
        if present.len() > 3 {
            shown.push("…");
        }
        let shown = shown.join(", ");
        if !force {
            return Err(LayoutError::NotEmpty {
                dir: dir.display().to_string(),
                shown,
            });
        }
        let Some(listed) = previous_ids(dir)? else {
            return Err(LayoutError::NoPreviousSplit {
                dir: dir.display().to_string(),
                shown,
            });
        };
        let is_id = |id: &str| is_cube_id(id) || listed.contains(root_of(id));
        let owned = |name: &str| {
            name == MANIFEST
                || name == JOBS
                || name == ICNF
                || name == SLURM_SCRIPT
                || name.strip_suffix(".cnf").is_some_and(is_id)
        };
        let mut clearing = Clearing::default();
        for name in present.iter().filter(|n| written(n, owned)) {
            clearing.file(dir.join(name))?;
        }
        let results = dir.join(RESULTS);
        if real_dir(&results)? {
            for name in names(&results)? {
                let id = name
                    .strip_suffix(".json")
                    .or_else(|| name.strip_suffix(".json.partial"))
                    .or_else(|| name.strip_suffix(".lock"));
                if id.is_some_and(is_id) {
                    clearing.file(results.join(&name))?;
                }
            }
        }
        let proofs = dir.join(PROOFS);
        if real_dir(&proofs)? {
            for id in names(&proofs)?.into_iter().filter(|n| is_id(n)) {
                let cube = proofs.join(&id);
                if !real_dir(&cube)? {
                    continue;
                }
                for name in names(&cube)?.into_iter().filter(|n| is_proof_file(n)) {
                    clearing.file(cube.join(name))?;
                }
                clearing.dirs.push(cube);
            }
            clearing.dirs.push(proofs);
        }
        let rounds = dir.join(ROUNDS);
        if real_dir(&rounds)? {
            for name in names(&rounds)?
                .into_iter()
                .filter(|n| written(n, is_round_file))
            {
                clearing.file(rounds.join(name))?;
            }
            clearing.dirs.push(rounds);
        }
        Ok(clearing)
    }

    /// Lists `path`, which must be a regular file.
    fn file(&mut self, path: PathBuf) -> Result<(), LayoutError> {
        match kind(&path)? {
            Some(k) if k.is_file() => {
                self.files.push(path);
                Ok(())
            }
            Some(k) => Err(LayoutError::InTheWay {
                path: path.display().to_string(),
                what: words(k),
            }),
            None => Ok(()),
        }
    }

    /// Removes the files listed, then the directories they leave empty
    /// (a directory that still holds something stays).
    ///
    /// # Errors
    ///
    /// [`LayoutError::Io`] for a file that cannot be removed.
    pub fn clear(self) -> Result<(), LayoutError> {
        for path in &self.files {
            match fs::remove_file(path) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => return Err(io_error("remove", path, &e)),
            }
        }
        for dir in &self.dirs {
            // Not empty: the user's files stay, and so does their folder.
            let _ = fs::remove_dir(dir);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cube_ids_are_cube_and_five_digits_or_more() {
        for (id, expected) in [
            ("cube-00000", true),
            ("cube-123456", true),
            ("cube-00003.07", true),
            ("cube-00003.07.15", true),
            ("cube-00003.7", false),
            ("cube-00003.007", false),
            ("cube-0001", false),
            ("cube-notes", false),
            ("cube-0000a", false),
            ("cubes", false),
        ] {
            assert_eq!(is_cube_id(id), expected, "{id}");
        }
        assert_eq!(root_of("cube-00003.07.15"), "cube-00003");
        assert_eq!(parent_of("cube-00003.07.15"), Some("cube-00003.07"));
        assert_eq!(parent_of("cube-00003"), None);
        assert_eq!(root_of("piece-a.x"), "piece-a.x");
        for (name, expected) in [
            ("1.txt", true),
            ("12.log", true),
            ("3.out", true),
            ("slurm-2-0-17.out", true),
            ("slurm-2-0-17.exit", true),
            ("driver.lock", true),
            ("notes.txt", false),
            ("slurm-2-17.out", false),
            (".txt", false),
        ] {
            assert_eq!(is_round_file(name), expected, "{name}");
        }
        for (name, expected) in [
            ("cube-00000", true),
            ("r0+r18-c0", true),
            ("../x", false),
            (".hidden", false),
            ("", false),
            ("a/b", false),
        ] {
            assert_eq!(is_plain_name(name), expected, "{name}");
        }
    }

    #[test]
    fn a_directory_without_a_split_is_refused_even_with_force() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("cube-notes.cnf"), "mine").unwrap();
        for force in [false, true] {
            let e = Clearing::plan(tmp.path(), force).unwrap_err();
            assert!(
                matches!(
                    e,
                    LayoutError::NotEmpty { .. } | LayoutError::NoPreviousSplit { .. }
                ),
                "{e}"
            );
        }
        // A MANIFEST someone else wrote is not a split's either.
        std::fs::write(tmp.path().join(MANIFEST), "my notes\n").unwrap();
        let e = Clearing::plan(tmp.path(), true).unwrap_err();
        assert!(e.to_string().contains("holds no previous split"), "{e}");
        // Nothing there, or an empty directory: nothing to clear.
        let empty = tmp.path().join("empty");
        assert!(Clearing::plan(&empty, false).unwrap().files.is_empty());
        std::fs::create_dir(&empty).unwrap();
        assert!(Clearing::plan(&empty, false).unwrap().files.is_empty());
    }

    #[test]
    fn force_lists_only_the_split_s_own_files() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        std::fs::write(
            d.join(MANIFEST),
            format!("{MANIFEST_HEADER}\n# split x\npiece-a 1 - piece-a.cnf 0 d\n"),
        )
        .unwrap();
        for name in [
            JOBS,
            SLURM_SCRIPT,
            "cube-00000.cnf",
            "cube-00000.03.cnf",
            "piece-a.cnf",
            "piece-a.01.cnf",
            "cube-notes.cnf",
            "x.cnf",
            ".boardsat-cube-00000.04.cnf.Ab12Cd",
            ".boardsat-notes.txt.Ab12Cd",
        ] {
            std::fs::write(d.join(name), "").unwrap();
        }
        std::fs::create_dir_all(d.join(ROUNDS)).unwrap();
        for name in ["1.txt", "1.log", "notes.txt", ".boardsat-2.txt.Ab12Cd"] {
            std::fs::write(d.join(ROUNDS).join(name), "").unwrap();
        }
        std::fs::create_dir_all(d.join("results")).unwrap();
        for name in [
            "cube-00000.json",
            "cube-00000.json.partial",
            "cube-00000.lock",
            "piece-a.json",
            "mine.json",
        ] {
            std::fs::write(d.join("results").join(name), "").unwrap();
        }
        std::fs::create_dir_all(d.join("proofs/cube-00000")).unwrap();
        std::fs::create_dir_all(d.join("proofs/notes")).unwrap();
        for name in [
            "MANIFEST.json",
            "claim-0000.cnf",
            "claim-0000.lrat",
            ".boardsat-claim-0001.lrat.Ab12Cd",
            "mine.txt",
        ] {
            std::fs::write(d.join("proofs/cube-00000").join(name), "").unwrap();
        }
        std::fs::write(d.join("proofs/notes/MANIFEST.json"), "").unwrap();
        let plan = Clearing::plan(d, true).unwrap();
        let mut listed: Vec<String> = plan
            .files
            .iter()
            .map(|p| p.strip_prefix(d).unwrap().display().to_string())
            .collect();
        listed.sort();
        assert_eq!(
            listed,
            [
                ".boardsat-cube-00000.04.cnf.Ab12Cd",
                "MANIFEST",
                "cube-00000.03.cnf",
                "cube-00000.cnf",
                "jobs.txt",
                "piece-a.01.cnf",
                "piece-a.cnf",
                "proofs/cube-00000/.boardsat-claim-0001.lrat.Ab12Cd",
                "proofs/cube-00000/MANIFEST.json",
                "proofs/cube-00000/claim-0000.cnf",
                "proofs/cube-00000/claim-0000.lrat",
                "results/cube-00000.json",
                "results/cube-00000.json.partial",
                "results/cube-00000.lock",
                "results/piece-a.json",
                "rounds/.boardsat-2.txt.Ab12Cd",
                "rounds/1.log",
                "rounds/1.txt",
                "slurm.sbatch",
            ]
        );
        plan.clear().unwrap();
        for kept in [
            ".boardsat-notes.txt.Ab12Cd",
            "cube-notes.cnf",
            "x.cnf",
            "results/mine.json",
            "proofs/cube-00000/mine.txt",
            "proofs/notes/MANIFEST.json",
            "rounds/notes.txt",
        ] {
            assert!(d.join(kept).is_file(), "{kept}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn links_and_special_files_in_the_way_stop_everything() {
        use std::os::unix::fs::symlink;
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path().join("d");
        let out = tmp.path().join("out");
        std::fs::create_dir_all(&d).unwrap();
        std::fs::create_dir_all(out.join("cube-00000")).unwrap();
        std::fs::write(d.join(MANIFEST), format!("{MANIFEST_HEADER}\n")).unwrap();
        std::fs::write(out.join("cube-00000.json"), "{}").unwrap();
        for link in [RESULTS, PROOFS, "cube-00000.cnf"] {
            symlink(&out, d.join(link)).unwrap();
            let e = Clearing::plan(&d, true).unwrap_err();
            assert!(matches!(e, LayoutError::InTheWay { .. }), "{link}: {e}");
            assert!(e.to_string().contains("a symbolic link"), "{e}");
            std::fs::remove_file(d.join(link)).unwrap();
        }
        std::fs::create_dir_all(d.join("proofs")).unwrap();
        symlink(out.join("cube-00000"), d.join("proofs/cube-00000")).unwrap();
        let e = Clearing::plan(&d, true).unwrap_err();
        assert!(e.to_string().contains("a symbolic link"), "{e}");
        assert!(out.join("cube-00000.json").is_file());
    }
}
