//! One job of a split directory: the count of one cube, run so that no
//! answer is ever lost or corrupted, whatever a scheduler does with it
//! (retry it, run it twice at once, kill it).
//!
//! A job owns its files (see [`crate::layout`]): its answer
//! `results/<id>.json`, the temporary `results/<id>.json.partial` it is
//! written into, its lock `results/<id>.lock`, and, in a split with
//! proofs, its proof directory `proofs/<id>`. The protocol:
//!
//! 1. **Claim** ([`Job::claim`]): take the job's lock (`flock`), or fail
//!    at once when another process holds it ([`JobsError::Running`]);
//!    nothing of the other run is touched. The kernel drops the lock of a
//!    killed process, so a killed job never blocks its next run. (A
//!    status reader probes the lock for an instant, [`trace`]; a claim
//!    meeting a probe tries again for a quarter of a second.)
//! 2. **Finished?** ([`Claimed::answer`]): a complete answer to this very
//!    cube of this very split (and, with proofs, its proof manifest), or
//!    its split into pieces, is kept as it is; the job is done.
//! 3. **Clean** ([`Claimed::prepare`]): everything a previous attempt of
//!    this job left, killed at any instant, is removed, and nothing else:
//!    its temporary answer, its proof directory's files (the prover's
//!    temporaries among them), and the files of pieces it was writing when
//!    it was killed while splitting (with their temporaries), which no
//!    answer lists.
//! 4. **Answer** ([`Claimed::write`]): the answer is written into the
//!    temporary, flushed to disk, and renamed over `results/<id>.json`,
//!    so the file is whole or absent. A stopped count is written too,
//!    marked incomplete, and counts as unfinished.
//!
//! A job of a split with a budget ([`crate::Budget`]) whose solver runs
//! past it is **split** instead ([`Claimed::split`]): its pieces' files
//! are written first, then its answer listing them, the same way (step
//! 4), so a job killed in between leaves no answer and splits again on
//! its next run, rewriting the same files. Its proof directory, if any,
//! is removed before its answer is written: its pieces prove their own
//! counts.
//!
//! Every path a job writes or removes must be a regular file or a
//! directory, never a symbolic link ([`crate::layout::real_file`]).

use std::{
    fs::{self, File, OpenOptions, TryLockError},
    io::{self, Read as _, Write as _},
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

use boardsat_encode::{dimacs::placement, symmetry::orbit_size, Board};
use boardsat_solve::{
    files::{
        self,
        proof_dir::{Compression, ProofFormat},
    },
    search::count::Proofs,
    search::rings::LineCube,
    stop::Interrupter,
};

use crate::{
    error::JobsError,
    layout::{self, PROOFS, RESULTS},
    manifest::{read_manifest, Budget, Entry, JobResult},
    split::{SplitError, SplitSpec},
    tree,
    write::write_pieces,
};

/// One job of a split directory: its cube in the manifest (or, for a
/// piece, in its parent's answer), and where its files are.
#[derive(Clone, Debug)]
pub struct Job {
    /// The split's directory.
    pub dir: PathBuf,
    /// The split's id.
    pub split: String,
    /// The cube, as the manifest or its parent's answer lists it.
    pub entry: Entry,
    /// 0 for a cube of the manifest, one more per split above it.
    pub round: usize,
    /// Whether the split's jobs prove their counts.
    pub proofs: Proofs,
    /// How they write their proofs.
    pub proof_format: ProofFormat,
    /// How they store their proofs.
    pub proof_compression: Compression,
    /// What the split was made of, when the manifest says.
    pub spec: Option<SplitSpec>,
    /// The jobs' budget, if they have one.
    pub budget: Option<Budget>,
}

impl Job {
    /// Job `id` of the split in `dir`: a cube of its manifest, or a
    /// piece of a job split past its budget.
    ///
    /// # Errors
    ///
    /// [`JobsError::Manifest`] for a directory without a sound manifest,
    /// [`JobsError::UnknownJob`] for an id that is no job of the split.
    pub fn open(dir: &Path, id: &str) -> Result<Job, JobsError> {
        let manifest = read_manifest(dir)?;
        let (entry, round) = tree::locate(dir, &manifest, id)?;
        if !layout::is_plain_name(&entry.id) || !layout::is_plain_name(&entry.file) {
            return Err(JobsError::NotAName {
                dir: dir.display().to_string(),
                id: entry.id,
                file: entry.file,
            });
        }
        Ok(Job {
            dir: dir.to_path_buf(),
            split: manifest.split,
            entry,
            round,
            proofs: manifest.proofs,
            proof_format: manifest.proof_format,
            proof_compression: manifest.proof_compression,
            spec: manifest.spec,
            budget: manifest.budget,
        })
    }

    /// The job's budget and its cube, when it would be split past the
    /// budget: the split has one, and the job's cube has a ring left
    /// within the budget's max depth. `None`: the job counts to its end.
    ///
    /// # Errors
    ///
    /// [`JobsError::JobCube`] for a description that is not a cube of the
    /// job's round.
    pub fn splitting(&self) -> Result<Option<(Duration, Board, LineCube)>, JobsError> {
        let (Some(budget), Some(spec)) = (self.budget, self.spec) else {
            return Ok(None);
        };
        let Some((board, cube)) = spec
            .job_cube(self.round, &self.entry.description)
            .map_err(|e| self.cube_error(e))?
        else {
            return Ok(None);
        };
        Ok(
            SplitSpec::splits(&board, &cube, budget.max_depth).then_some((
                budget.time,
                board,
                cube,
            )),
        )
    }

    /// In a split with lex-leader constraints ([`SplitSpec::lex`]): what
    /// weighs each of the job's models by the placements it stands for;
    /// `None` elsewhere, where a model is one placement of the cube.
    ///
    /// # Errors
    ///
    /// [`JobsError::JobCube`] for a spec whose board cannot be built.
    pub fn weigher(&self) -> Result<Option<Weigher>, JobsError> {
        let Some(spec) = self.spec.filter(|s| s.lex) else {
            return Ok(None);
        };
        let board = Board::square(spec.n).map_err(|e| self.cube_error(e))?;
        Ok(Some(Weigher { board }))
    }

    /// Checks that the job's file, whose header comments are `comments`
    /// (without their `c `), agrees with the split's spec on lex-leader
    /// constraints ([`tree::reconcile_lex_leader`]): a job must not count
    /// orbit representatives as placements, nor weigh placements as
    /// orbits.
    ///
    /// # Errors
    ///
    /// [`JobsError::LexLeader`] when they disagree.
    pub fn check_header(&self, comments: &[String]) -> Result<(), JobsError> {
        tree::reconcile_lex_leader(
            self.spec.is_some_and(|s| s.lex),
            &self.entry.file,
            tree::lex_leader_in(comments.iter().map(String::as_str)),
        )
    }

    /// The file the job counts (with [`Entry::index`], one cube of it).
    #[must_use]
    pub fn source(&self) -> PathBuf {
        self.dir.join(&self.entry.file)
    }

    /// Where the job proves its count, in a split with proofs.
    #[must_use]
    pub fn proof_dir(&self) -> Option<PathBuf> {
        match self.proofs {
            Proofs::On => Some(self.dir.join(PROOFS).join(&self.entry.id)),
            Proofs::Off => None,
        }
    }

    /// The job's answer file.
    #[must_use]
    pub fn result_path(&self) -> PathBuf {
        self.dir
            .join(RESULTS)
            .join(layout::result_name(&self.entry.id))
    }

    /// Checks that the file read, with `digest`, is the one the manifest
    /// lists.
    ///
    /// # Errors
    ///
    /// [`JobsError::ChangedFile`] when it is not.
    pub fn check_digest(&self, digest: &str) -> Result<(), JobsError> {
        if digest == self.entry.digest {
            return Ok(());
        }
        Err(JobsError::ChangedFile {
            source_file: self.source().display().to_string(),
            id: self.entry.id.clone(),
        })
    }

    /// The error of a cube of this job that cannot be made.
    fn cube_error(&self, error: impl Into<SplitError>) -> JobsError {
        JobsError::JobCube {
            id: self.entry.id.clone(),
            error: error.into(),
        }
    }

    /// Takes the job's lock, creating `results/` if it is missing. The
    /// lock is released when the [`Claimed`] is dropped (or the process
    /// ends, however it ends).
    ///
    /// # Errors
    ///
    /// [`JobsError::Running`] when another process holds it;
    /// [`JobsError::Layout`] when `results/` or the lock is not a
    /// directory or a regular file; [`JobsError::Dir`] for I/O errors.
    pub fn claim(&self) -> Result<Claimed<'_>, JobsError> {
        let results = self.dir.join(RESULTS);
        if !layout::real_dir(&results)? {
            match fs::create_dir(&results) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                    layout::real_dir(&results)?;
                }
                Err(e) => return Err(dir_error("create", &results, &e)),
            }
        }
        let path = results.join(layout::lock_name(&self.entry.id));
        let start = Instant::now();
        loop {
            layout::real_file(&path)?;
            let mut file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
                .map_err(|e| dir_error("open", &path, &e))?;
            match file.try_lock() {
                Ok(()) => {}
                // A status reader's probe holds the lock for an instant.
                Err(TryLockError::WouldBlock) if start.elapsed() < PROBE_WAIT => {
                    std::thread::sleep(Duration::from_millis(10));
                    continue;
                }
                Err(TryLockError::WouldBlock) => {
                    let mut text = String::new();
                    let _ = file.read_to_string(&mut text);
                    return Err(JobsError::Running {
                        id: self.entry.id.clone(),
                        dir: self.dir.display().to_string(),
                        holder: text.trim().parse().ok(),
                    });
                }
                Err(TryLockError::Error(e)) => return Err(dir_error("lock", &path, &e)),
            }
            // The run before may have removed the file between our open
            // and our lock: a lock on a removed file locks nothing.
            if !still_there(&file, &path) {
                continue;
            }
            file.set_len(0)
                .and_then(|()| write!(file, "{}", std::process::id()))
                .map_err(|e| dir_error("write", &path, &e))?;
            return Ok(Claimed {
                job: self,
                _lock: file,
                lock_path: path,
            });
        }
    }
}

/// How long a claim tries again when the lock is held: longer than any
/// probe holds it ([`trace`]), short enough to fail "at once" when a run
/// holds it.
const PROBE_WAIT: Duration = Duration::from_millis(250);

/// What a job without an answer left behind, without disturbing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trace {
    /// Nothing: never run (or it ended before claiming its lock).
    None,
    /// It holds its lock: it runs now, in the process named if it says.
    Running(Option<u32>),
    /// Its lock or temporary is there, and no process holds the lock:
    /// it was killed.
    Killed,
}

/// Weighs the models of a job whose cube carries lex-leader constraints
/// under its stabilizer. Each model is the leader of its placement's
/// orbit under the stabilizer, and a symmetry that fixes a placement fixes
/// its cube. So the model, with the cube's weight (its orbit under the
/// board's symmetries), stands for the placement's whole orbit under the
/// board's symmetries.
#[derive(Clone, Copy, Debug)]
pub struct Weigher {
    board: Board,
}

impl Weigher {
    /// The placements `model` (`model[v]`: the value of variable v + 1)
    /// stands for: its placement's orbit under the board's symmetries.
    #[must_use]
    pub fn weigh(&self, model: &[bool]) -> u64 {
        orbit_size(&self.board, &placement(&self.board, model))
    }
}

/// What job `id` of the split in `dir` left behind: its lock probed with
/// a shared lock held for an instant (a claim meanwhile tries again).
///
/// # Errors
///
/// [`JobsError::Layout`] for a lock or temporary that is not a regular
/// file; [`JobsError::Dir`] for I/O errors.
pub fn trace(dir: &Path, id: &str) -> Result<Trace, JobsError> {
    let results = dir.join(RESULTS);
    let lock = results.join(layout::lock_name(id));
    let partial = layout::real_file(&results.join(layout::partial_name(id)))?;
    if !layout::real_file(&lock)? {
        return Ok(if partial { Trace::Killed } else { Trace::None });
    }
    let mut file = match File::open(&lock) {
        Ok(file) => file,
        // Removed meanwhile: its job ended.
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Trace::None),
        Err(e) => return Err(dir_error("open", &lock, &e)),
    };
    match file.try_lock_shared() {
        Ok(()) => Ok(Trace::Killed),
        Err(TryLockError::WouldBlock) => {
            let mut text = String::new();
            let _ = file.read_to_string(&mut text);
            Ok(Trace::Running(text.trim().parse().ok()))
        }
        Err(TryLockError::Error(e)) => Err(dir_error("lock", &lock, &e)),
    }
}

/// Whether `path` still names the open `file`.
#[cfg(unix)]
fn still_there(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), fs::symlink_metadata(path)) {
        (Ok(open), Ok(named)) => open.dev() == named.dev() && open.ino() == named.ino(),
        _ => false,
    }
}

/// Whether `path` still names the open `file` (never removed elsewhere).
#[cfg(not(unix))]
fn still_there(_file: &File, _path: &Path) -> bool {
    true
}

fn dir_error(action: &'static str, path: &Path, e: &io::Error) -> JobsError {
    JobsError::Dir {
        action,
        path: path.display().to_string(),
        reason: files::describe(e),
    }
}

/// A job whose lock this process holds: only now may its files change.
#[derive(Debug)]
pub struct Claimed<'a> {
    job: &'a Job,
    /// Held open: the lock lives as long as the file.
    _lock: File,
    lock_path: PathBuf,
}

impl Claimed<'_> {
    /// The job's finished answer, when it has one: a complete answer to
    /// this cube of this split, and with proofs, its proof manifest there.
    /// Anything else (no answer, an incomplete or foreign one, a proof
    /// missing) is an unfinished job.
    ///
    /// # Errors
    ///
    /// [`JobsError::Layout`] when the answer is not a regular file.
    pub fn answer(&self) -> Result<Option<JobResult>, JobsError> {
        let path = self.job.result_path();
        if !layout::real_file(&path)? {
            return Ok(None);
        }
        let Ok(text) = fs::read_to_string(&path) else {
            return Ok(None);
        };
        let Ok(answer) = serde_json::from_str::<JobResult>(text.trim()) else {
            return Ok(None);
        };
        let proven = match self.job.proof_dir() {
            Some(dir) => layout::real_file(&dir.join(files::proof_dir::MANIFEST))?,
            None => true,
        };
        let finished = ((answer.complete && proven) || answer.pieces.is_some())
            && self.job.entry.answered_by(&self.job.split, &answer).is_ok();
        Ok(finished.then_some(answer))
    }

    /// Splits the job past its budget: writes the files of `cube`'s
    /// pieces (on `board`), then `answer` listing them, as the job's
    /// answer; removes the job's own proof directory if it holds nothing
    /// else (its pieces prove their counts). The pieces' entries.
    ///
    /// # Errors
    ///
    /// [`JobsError`] for a split without a spec, files that cannot be
    /// written.
    pub fn split(
        &self,
        board: &Board,
        cube: &LineCube,
        mut answer: JobResult,
        stop: Option<&Interrupter>,
    ) -> Result<Vec<Entry>, JobsError> {
        let job = self.job;
        let spec = job
            .spec
            .ok_or_else(|| JobsError::NoSpec(job.entry.id.clone()))?;
        let pieces = spec.pieces(board, &job.entry.id, cube, job.entry.weight);
        let split = spec
            .piece_split(&job.entry.id, &pieces)
            .map_err(|e| job.cube_error(e))?;
        for piece in &split.cubes {
            layout::real_file(&job.dir.join(format!("{}.cnf", piece.id)))?;
        }
        let entries = write_pieces(&job.dir, &job.split, &split, stop)?;
        // Before the answer: a split job leaves no proof of its own.
        if let Some(dir) = job.proof_dir() {
            layout::remove_proofs(&dir)?;
        }
        answer.pieces = Some(entries.clone());
        answer.complete = false;
        self.write(&answer)?;
        Ok(entries)
    }

    /// Removes what an earlier attempt of this unfinished job left,
    /// wherever it was killed (see the module doc): its temporary answer,
    /// its proof directory's files, the files of the pieces it was
    /// writing. Checks that its cube file is a regular file, and that its
    /// proof directory, if any, can be written: the proof directories are
    /// directories, not links. Creates `proofs/` if missing.
    ///
    /// # Errors
    ///
    /// [`JobsError::Layout`] for a link or special file in the way (a
    /// FIFO as the cube file, which a read would wait on forever);
    /// [`JobsError::Dir`] for I/O errors.
    pub fn prepare(&self) -> Result<(), JobsError> {
        let source = self.job.source();
        if !layout::real_file(&source)? {
            return Err(JobsError::MissingCubeFile {
                source_file: source.display().to_string(),
                id: self.job.entry.id.clone(),
            });
        }
        let partial = self.partial_path();
        if layout::real_file(&partial)? {
            fs::remove_file(&partial).map_err(|e| dir_error("remove", &partial, &e))?;
        }
        layout::real_file(&self.job.result_path())?;
        layout::remove_pieces(&self.job.dir, &self.job.entry.id)?;
        if let Some(dir) = self.job.proof_dir() {
            let proofs = self.job.dir.join(PROOFS);
            if !layout::real_dir(&proofs)? {
                match fs::create_dir(&proofs) {
                    Ok(()) => {}
                    Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                        layout::real_dir(&proofs)?;
                    }
                    Err(e) => return Err(dir_error("create", &proofs, &e)),
                }
            }
            // Only now, `proofs/` known to be no link to elsewhere.
            layout::remove_proofs(&dir)?;
        }
        Ok(())
    }

    /// Writes `answer` as the job's answer, whole or not at all: into the
    /// temporary, flushed to disk, then renamed into place.
    ///
    /// # Errors
    ///
    /// [`JobsError::Dir`] naming the file that could not be written.
    pub fn write(&self, answer: &JobResult) -> Result<(), JobsError> {
        let partial = self.partial_path();
        let path = self.job.result_path();
        let text = serde_json::to_string(answer).map_err(|e| JobsError::Serialize {
            path: path.display().to_string(),
            reason: e.to_string(),
        })?;
        if layout::real_file(&partial)? {
            fs::remove_file(&partial).map_err(|e| dir_error("remove", &partial, &e))?;
        }
        let written = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&partial)
            .and_then(|mut file| {
                file.write_all(text.as_bytes())?;
                file.write_all(b"\n")?;
                file.sync_all()
            });
        if let Err(e) = written {
            let _ = fs::remove_file(&partial);
            return Err(dir_error("write", &partial, &e));
        }
        layout::real_file(&path)?;
        fs::rename(&partial, &path).map_err(|e| dir_error("write", &path, &e))?;
        // The rename itself reaches the disk with its directory.
        if let Some(results) = path.parent() {
            let _ = File::open(results).and_then(|d| d.sync_all());
        }
        Ok(())
    }

    fn partial_path(&self) -> PathBuf {
        self.job
            .dir
            .join(RESULTS)
            .join(layout::partial_name(&self.job.entry.id))
    }
}

impl Drop for Claimed<'_> {
    /// Removes the lock file while still holding it (a run that opened it
    /// meanwhile sees it gone and opens it again), then releases it.
    fn drop(&mut self) {
        if cfg!(unix) {
            let _ = fs::remove_file(&self.lock_path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::MANIFEST_HEADER;

    /// A split directory with one cube, `cube-00000` of `f.cnf`.
    fn split(proofs: bool) -> tempfile::TempDir {
        let tmp = tempfile::tempdir().unwrap();
        let proofs = if proofs { "# proofs proofs\n" } else { "" };
        std::fs::write(
            tmp.path().join("MANIFEST"),
            format!("{MANIFEST_HEADER}\n# split s\n# cubes 1\n{proofs}cube-00000 1 - f.cnf d\n"),
        )
        .unwrap();
        std::fs::write(tmp.path().join("f.cnf"), "p cnf 1 0\n").unwrap();
        tmp
    }

    fn answer(complete: bool) -> JobResult {
        JobResult {
            command: "count-dimacs".to_string(),
            count: 7,
            complete,
            digest: "d".to_string(),
            split: Some("s".to_string()),
            cube_id: Some("cube-00000".to_string()),
            ..JobResult::default()
        }
    }

    #[test]
    fn an_answer_is_written_whole_and_kept_only_when_finished() {
        let tmp = split(false);
        let job = Job::open(tmp.path(), "cube-00000").unwrap();
        let claimed = job.claim().unwrap();
        assert_eq!(claimed.answer().unwrap(), None);
        // A stopped count is written, and is not finished.
        claimed.prepare().unwrap();
        claimed.write(&answer(false)).unwrap();
        assert_eq!(claimed.answer().unwrap(), None);
        claimed.write(&answer(true)).unwrap();
        assert_eq!(claimed.answer().unwrap(), Some(answer(true)));
        assert!(!tmp.path().join("results/cube-00000.json.partial").exists());
        // Another split's answer is not this job's.
        let mut foreign = answer(true);
        foreign.split = Some("t".to_string());
        claimed.write(&foreign).unwrap();
        assert_eq!(claimed.answer().unwrap(), None);
        drop(claimed);
        assert!(!tmp.path().join("results/cube-00000.lock").exists());
    }

    #[test]
    fn a_second_claim_of_a_running_job_fails_at_once() {
        let tmp = split(false);
        let job = Job::open(tmp.path(), "cube-00000").unwrap();
        let held = job.claim().unwrap();
        let e = job.claim().unwrap_err();
        let pid = std::process::id();
        assert!(
            e.to_string().contains(&format!(
                "is already running in another process (pid {pid})"
            )),
            "{e}"
        );
        drop(held);
        assert!(job.claim().is_ok());
    }

    #[test]
    fn with_proofs_an_answer_without_its_proof_is_unfinished() {
        let tmp = split(true);
        let job = Job::open(tmp.path(), "cube-00000").unwrap();
        let claimed = job.claim().unwrap();
        claimed.prepare().unwrap();
        claimed.write(&answer(true)).unwrap();
        assert_eq!(claimed.answer().unwrap(), None);
        std::fs::create_dir_all(tmp.path().join("proofs/cube-00000")).unwrap();
        std::fs::write(tmp.path().join("proofs/cube-00000/MANIFEST.json"), "{}").unwrap();
        assert_eq!(claimed.answer().unwrap(), Some(answer(true)));
    }

    /// A run killed anywhere leaves its temporary answer, its proof
    /// directory's files and temporaries, and the pieces it was writing;
    /// the next run removes those, and nothing else.
    #[test]
    fn a_killed_run_s_leftovers_are_removed_and_only_those() {
        let tmp = split(true);
        let d = tmp.path();
        std::fs::create_dir_all(d.join("results")).unwrap();
        std::fs::create_dir_all(d.join("proofs/cube-00000")).unwrap();
        let leftovers = [
            "results/cube-00000.json.partial",
            "proofs/cube-00000/MANIFEST.json",
            "proofs/cube-00000/.boardsat-lock",
            "proofs/cube-00000/claim-0000.cnf",
            "proofs/cube-00000/.boardsat-MANIFEST.json.Ab12Cd",
            "proofs/cube-00000/.boardsat-claim-0001.cnf.x9Y8z7",
            "cube-00000.03.cnf",
            ".boardsat-cube-00000.07.cnf.Qw3rT5",
        ];
        let others = [
            "proofs/cube-00000/notes.txt",
            "cube-00000.03.01.cnf",
            ".boardsat-cube-00000.03.01.cnf.Qw3rT5",
            ".boardsat-jobs.txt.Ab12Cd",
            ".boardsat-i2MmHU",
            "cube-00000.3.cnf",
            "notes.cnf",
        ];
        for name in leftovers.iter().chain(&others) {
            std::fs::write(d.join(name), "x").unwrap();
        }
        let job = Job::open(d, "cube-00000").unwrap();
        job.claim().unwrap().prepare().unwrap();
        for name in leftovers {
            assert!(!d.join(name).exists(), "{name} is left");
        }
        for name in others {
            assert!(d.join(name).is_file(), "{name} was removed");
        }
        // Nothing but the prover's files: the folder goes too.
        std::fs::remove_file(d.join("proofs/cube-00000/notes.txt")).unwrap();
        std::fs::write(
            d.join("proofs/cube-00000/.boardsat-MANIFEST.json.Ab12Cd"),
            "",
        )
        .unwrap();
        job.claim().unwrap().prepare().unwrap();
        assert!(!d.join("proofs/cube-00000").exists());
    }

    #[cfg(unix)]
    #[test]
    fn a_cube_file_that_is_a_fifo_or_missing_is_refused() {
        let tmp = split(false);
        let d = tmp.path();
        std::fs::remove_file(d.join("f.cnf")).unwrap();
        let job = Job::open(d, "cube-00000").unwrap();
        let e = job.claim().unwrap().prepare().unwrap_err();
        assert!(
            e.to_string()
                .contains("the cube file of cube-00000 is missing"),
            "{e}"
        );
        assert!(std::process::Command::new("mkfifo")
            .arg(d.join("f.cnf"))
            .status()
            .unwrap()
            .success());
        let e = job.claim().unwrap().prepare().unwrap_err();
        assert!(
            e.to_string()
                .contains("is a special file (FIFO, socket or device), not what a split writes"),
            "{e}"
        );
    }

    #[test]
    fn unknown_cubes_are_refused() {
        let tmp = split(false);
        let e = Job::open(tmp.path(), "cube-00001").unwrap_err();
        assert!(e.to_string().contains("has no cube 'cube-00001'"), "{e}");
    }
}
