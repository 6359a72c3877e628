//! Writing claims: each claim a formula that must be unsatisfiable, built
//! canonically from what was found (never copied from a solver's state),
//! with CaDiCaL's LRAT proof of it.

use std::{
    fs::{self, File, OpenOptions, TryLockError},
    io,
    path::{Path, PathBuf},
};

use boardsat_encode::{
    dimacs::{CubeTag, Header},
    setting::{LibraryWords, Names, Setting},
    symmetry, Config, Placement, Problem, Square,
};
use boardsat_report::ProofSummary;
use boardsat_solve::{
    backend::Status,
    error::SolveError,
    files::{self, write_atomically, FileError},
    formula::dimacs::Formula,
    search::{
        count::{Blocking, Reduction},
        queens::QueenCube,
        session::blocking_clause,
    },
    stop::{Interrupter, StopReason},
    task::{count::CountPlan, Instance},
};
use rustsat::instances::Cnf;

use crate::{
    manifest::{
        bound_tag, ClaimEntry, ClaimKind, Cover, ProofManifest, RunResult, RunStatus, SplitEntry,
        SplitPurpose, LOCK, MANIFEST_JSON,
    },
    sentences,
    trace::{Compression, LratTrace, ProofFormat},
    witness::Witnesses,
};

/// Why proofs could not be written or checked.
#[derive(Debug, thiserror::Error)]
pub enum ProofError {
    /// The directory cannot be used: not a directory, locked by another
    /// run, or it cannot be made.
    #[error("{0}")]
    Dir(String),
    /// The directory is not empty, and replacing a previous proof
    /// directory's files was not asked for.
    #[error("{}", not_empty(.0, &LibraryWords))]
    NotEmpty(PathBuf),
    /// A traced proof that derives no empty clause (of what, in words).
    #[error("the proof of {0} derives no empty clause")]
    NoRefutation(String),
    /// A file could not be written.
    #[error(transparent)]
    File(#[from] FileError),
    /// The re-solve did not refute the formula: a SAT answer means the
    /// original UNSAT answer was wrong.
    #[error("the claim '{claim}' was not refuted when proven again ({status}): {}", if *status == Status::Sat { "the original UNSAT answer was wrong" } else { "the proof run stopped" })]
    NotRefuted {
        /// The claim.
        claim: String,
        /// What the proof run answered.
        status: Status,
    },
    /// Proofs need the embedded CaDiCaL.
    #[error("proofs need the embedded CaDiCaL (this build has no feature 'cadical')")]
    Unavailable,
    /// Encoding or solving failed.
    #[error(transparent)]
    Solve(#[from] SolveError),
}

impl From<boardsat_encode::EncodeError> for ProofError {
    fn from(e: boardsat_encode::EncodeError) -> Self {
        ProofError::Solve(e.into())
    }
}

impl ProofError {
    /// The message, with the settings it names worded by `names` (its
    /// `Display` is the library's words).
    #[must_use]
    pub fn message(&self, names: &dyn Names) -> String {
        match self {
            ProofError::NotEmpty(dir) => not_empty(dir, names),
            ProofError::Solve(e) => e.message(names),
            other => other.to_string(),
        }
    }
}

fn not_empty(dir: &Path, names: &dyn Names) -> String {
    format!(
        "{} is not empty; choose a new directory for the proofs, or {} to replace a previous proof directory's files",
        dir.display(),
        names.name(Setting::Replace, None)
    )
}

/// What a run proves: the question, the problem and its bound, and the
/// options that change what is counted, in words
/// (`count domination of queens on 10x10 at the optimum, lex-leader
/// symmetry breaking with orbit weights`). A prover records it in its
/// manifest ([`ProofManifest::task`]) when it starts; a run that resumes
/// the directory ([`Prover::resume`]) must prove the same, whatever stage
/// the earlier run had reached. What only changes how the work is cut or
/// run (the split depth, threads, budgets, time limits, proof formats)
/// is not part of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Task(String);

impl Task {
    /// `solve`: the optimum, or whether k pieces can be placed.
    #[must_use]
    pub fn solve(instance: &Instance) -> Task {
        Task(format!("solve {}", board_task(instance)))
    }

    /// `count`, as `plan` counts.
    #[must_use]
    pub fn count(instance: &Instance, plan: &CountPlan) -> Task {
        let reduction = match plan.reduction {
            Reduction::None => "no symmetry reduction",
            other => other.name(),
        };
        let mut words = format!("count {}, {reduction}", board_task(instance));
        if let Some(limit) = plan.limit {
            words.push_str(&format!(", up to {limit} placements"));
        }
        Task(words)
    }

    /// `enumerate`, up to `limit` placements.
    #[must_use]
    pub fn enumerate(instance: &Instance, limit: Option<u64>) -> Task {
        let mut words = format!("enumerate {}", board_task(instance));
        if let Some(limit) = limit {
            words.push_str(&format!(", up to {limit} placements"));
        }
        Task(words)
    }

    /// `solve-dimacs` of the file `source`.
    #[must_use]
    pub fn solve_dimacs(source: &Path) -> Task {
        Task(format!("solve-dimacs {}", absolute(source)))
    }

    /// `count-dimacs` of the file `source` (its iCNF cube `cube`), up to
    /// `limit` models.
    #[must_use]
    pub fn count_dimacs(source: &Path, cube: Option<usize>, limit: Option<u64>) -> Task {
        let mut words = format!("count-dimacs {}", absolute(source));
        if let Some(cube) = cube {
            words.push_str(&format!(" cube {cube}"));
        }
        if let Some(limit) = limit {
            words.push_str(&format!(", up to {limit} models"));
        }
        Task(words)
    }

    /// The task in words, as the manifest records it.
    #[must_use]
    pub fn words(&self) -> &str {
        &self.0
    }
}

/// A board problem and its bound, in a task's words.
fn board_task(instance: &Instance) -> String {
    match instance.k {
        Some(k) => format!(
            "{} with {} pieces",
            instance.problem,
            instance.problem.kind.bound(k)
        ),
        None => format!("{} at the optimum", instance.problem),
    }
}

/// A path as a task names it: absolute, so that a resume from another
/// directory names the same file the same way.
fn absolute(path: &Path) -> String {
    std::path::absolute(path)
        .unwrap_or_else(|_| path.to_path_buf())
        .display()
        .to_string()
}

/// Writes claims with their proofs into a directory, which it holds
/// locked ([`LOCK`]) until it is dropped.
#[derive(Debug)]
pub struct Prover {
    dir: PathBuf,
    manifest: ProofManifest,
    stop: Interrupter,
    /// The number of the next claim's files.
    next: usize,
    /// How the proofs traced by a solver are written.
    format: ProofFormat,
    /// How the proofs traced by a solver are stored.
    compression: Compression,
    /// The count split an earlier run left unfinished, whose proven cubes
    /// this run takes over ([`Prover::resume`]), until its split begins.
    resumed: Option<String>,
    /// The refutation splits of the optimum an earlier run proved, whole
    /// or in part, that this run's optimum may take over
    /// ([`Prover::resume`]), until its count begins.
    resumed_refutes: Vec<String>,
    /// Held while the directory is written.
    _lock: File,
}

/// How a prover's run ended ([`Prover::conclude`]).
#[derive(Debug)]
pub struct Concluded {
    /// What the directory holds.
    pub summary: ProofSummary,
    /// How the run ended, as the manifest says.
    pub status: RunStatus,
    /// Why the proofs failed (not for a run that was stopped: its
    /// manifest says so, and the stop is the command's outcome).
    pub error: Option<ProofError>,
}

impl Prover {
    /// A prover writing into `dir`, which must be empty or new (`replace`
    /// clears a previous proof directory's files there) and not written
    /// by another run (its lock, [`LOCK`], is taken here and held until
    /// the prover is dropped). `command` and `task` are recorded in the
    /// manifest, which is written at once with the status `running`;
    /// `stop` stops the proof runs.
    ///
    /// # Errors
    ///
    /// [`ProofError::Dir`] for a directory that is not empty, locked by
    /// another run, or cannot be made.
    pub fn create(
        dir: &Path,
        replace: bool,
        command: String,
        task: &Task,
        stop: Interrupter,
    ) -> Result<Self, ProofError> {
        let problem = |e: io::Error| {
            ProofError::Dir(format!(
                "cannot use {}: {}",
                dir.display(),
                files::describe(&e)
            ))
        };
        match fs::metadata(dir) {
            Ok(m) if !m.is_dir() => {
                return Err(ProofError::Dir(format!(
                    "{} is not a directory",
                    dir.display()
                )))
            }
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                fs::create_dir_all(dir).map_err(problem)?;
            }
            Err(e) => return Err(problem(e)),
        }
        let lock = take_lock(dir)?;
        let names: Vec<String> = fs::read_dir(dir)
            .map_err(problem)?
            .filter_map(Result::ok)
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n != LOCK)
            .collect();
        if !names.is_empty() && !replace {
            return Err(ProofError::NotEmpty(dir.to_path_buf()));
        }
        // What a run told to replace a previous one's files removes.
        remove_run_files(dir, &[LOCK]).map_err(problem)?;
        let prover = Prover {
            dir: dir.to_path_buf(),
            manifest: ProofManifest {
                tool: format!("boardsat {}", env!("CARGO_PKG_VERSION")),
                command,
                task: Some(task.words().to_string()),
                status: RunStatus::Running,
                ..ProofManifest::default()
            },
            stop,
            next: 0,
            format: ProofFormat::LratText,
            compression: Compression::None,
            resumed: None,
            resumed_refutes: Vec::new(),
            _lock: lock,
        };
        prover.save()?;
        Ok(prover)
    }

    /// A prover that goes on with the run that stopped in `dir` (killed,
    /// interrupted, out of time) before its count split was done: the
    /// cubes of that split it proved stay — their claims and files, as
    /// they are — and this run's split of the same count solves only the
    /// others ([`boardsat_solve::search::certify::Certify::proven_before`]).
    /// So do the cubes of the optimum's refutation splits (those whose
    /// manifest entry records their key; each cube's claim was written
    /// only once its proof was): a refutation this run's optimum begins
    /// with the same bound and key takes them and solves only the rest,
    /// and one it does not begin is removed when the count begins — on a
    /// frontier board the optimum's refutation cost each sitting up to
    /// two thousand CPU seconds. Everything else of the earlier run is
    /// removed. The resumed split may
    /// cut deeper or shallower than the stopped one: a kept cube stands for
    /// its pieces, and a cube some of whose pieces were kept is cut down to
    /// them. `command` replaces the manifest's; the status is `running`
    /// again. The earlier run must have proved the same `task`, at
    /// whatever stage it stopped; a manifest written before runs recorded
    /// their task is checked when the count split begins.
    ///
    /// # Errors
    ///
    /// [`ProofError::Dir`] for a directory without an earlier run's
    /// manifest, one whose run is complete or proved another task, held
    /// by another run, or whose kept claims' files are missing; nothing
    /// in the directory is changed then.
    pub fn resume(
        dir: &Path,
        command: String,
        task: &Task,
        stop: Interrupter,
    ) -> Result<Self, ProofError> {
        let refuse = |why: String| {
            ProofError::Dir(format!(
                "cannot resume the proofs in {}: {why}",
                dir.display()
            ))
        };
        match fs::metadata(dir) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => return Err(refuse("not a directory".to_string())),
            Err(e) => return Err(refuse(files::describe(&e))),
        }
        let lock = take_lock(dir)?;
        let text = fs::read_to_string(dir.join(MANIFEST_JSON))
            .map_err(|e| refuse(format!("{MANIFEST_JSON}: {}", files::describe(&e))))?;
        let old: ProofManifest = serde_json::from_str(&text)
            .map_err(|e| refuse(format!("{MANIFEST_JSON} is not a proof manifest ({e})")))?;
        if old.status == RunStatus::Complete {
            return Err(refuse(
                "its run is complete, nothing is left to prove (check it with 'boardsat verify')"
                    .to_string(),
            ));
        }
        if let Some(earlier) = old.task.as_deref().filter(|t| *t != task.words()) {
            return Err(refuse(format!(
                "its run proves another task ({earlier}), this one {}",
                task.words()
            )));
        }
        let refutes: Vec<SplitEntry> = old
            .splits
            .iter()
            .filter(|s| s.purpose == SplitPurpose::Refute && s.key.is_some())
            .cloned()
            .collect();
        let mut counts = old
            .splits
            .into_iter()
            .filter(|s| s.purpose == SplitPurpose::Count);
        let split = counts.next();
        if counts.next().is_some() {
            return Err(refuse("it holds more than one count split".to_string()));
        }
        let claims: Vec<ClaimEntry> = old
            .claims
            .into_iter()
            .filter(|c| {
                let Some(sc) = c.split.as_ref() else {
                    return false;
                };
                match c.kind {
                    ClaimKind::Complete => split.as_ref().is_some_and(|s| s.name == sc.split),
                    ClaimKind::NoPlacement => refutes.iter().any(|s| s.name == sc.split),
                    _ => false,
                }
            })
            .collect();
        let mut keep: Vec<&str> = vec![MANIFEST_JSON, LOCK];
        for claim in &claims {
            for file in [&claim.cnf, &claim.proof] {
                if !fs::symlink_metadata(dir.join(file)).is_ok_and(|m| m.is_file()) {
                    return Err(refuse(format!(
                        "{file} of the proven claim {} is missing",
                        claim.name
                    )));
                }
                keep.push(file);
            }
        }
        // The earlier run's other files.
        remove_run_files(dir, &keep).map_err(|e| refuse(files::describe(&e)))?;
        let next = claims
            .iter()
            .filter_map(|c| c.name.strip_prefix("claim-")?.parse::<usize>().ok())
            .max()
            .map_or(0, |n| n + 1);
        let resumed = split.as_ref().map(|s| s.name.clone());
        let resumed_refutes = refutes.iter().map(|s| s.name.clone()).collect();
        let prover = Prover {
            dir: dir.to_path_buf(),
            manifest: ProofManifest {
                tool: format!("boardsat {}", env!("CARGO_PKG_VERSION")),
                command,
                // This task, or none: a manifest that never recorded one
                // stays checked by its split (and resumable as before when
                // that check refuses this run).
                task: old.task,
                status: RunStatus::Running,
                claims,
                splits: refutes.into_iter().chain(split).collect(),
                ..ProofManifest::default()
            },
            stop,
            next,
            format: ProofFormat::LratText,
            compression: Compression::None,
            resumed,
            resumed_refutes,
            _lock: lock,
        };
        prover.save()?;
        Ok(prover)
    }

    /// The directory.
    #[must_use]
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Writes the proofs that solvers trace as they answer (split cubes,
    /// DIMACS files) in `format` from now on; text by default. Proofs of
    /// claims solved again after the fact stay text.
    pub fn set_proof_format(&mut self, format: ProofFormat) {
        self.format = format;
    }

    /// How traced proofs are written ([`Self::set_proof_format`]).
    #[must_use]
    pub fn proof_format(&self) -> ProofFormat {
        self.format
    }

    /// Stores the proofs that solvers trace with `compression` from now on
    /// (`NAME.lrat.zst` for zstd; `verify` reads either); uncompressed by
    /// default. Proofs of claims solved again after the fact stay
    /// uncompressed.
    pub fn set_compression(&mut self, compression: Compression) {
        self.compression = compression;
    }

    /// How traced proofs are stored ([`Self::set_compression`]).
    #[must_use]
    pub fn compression(&self) -> Compression {
        self.compression
    }

    /// The next claim's name and the files of its traced formula and proof
    /// ([`Self::set_proof_format`], [`Self::set_compression`]).
    pub(crate) fn next_traced(&mut self) -> (String, String, String) {
        let name = self.next_name();
        let (cnf, proof) = (format!("{name}.cnf"), self.compression.proof_file(&name));
        (name, cnf, proof)
    }

    /// Proves that no placement of the claim's problem with k pieces
    /// exists (the bound of [`boardsat_encode::Kind::bound`]); under lex-leader constraints
    /// with [`ClaimSymmetry::LexLeader`] (a smallest orbit member of a placement
    /// would survive them, so the claim is the same).
    ///
    /// # Errors
    ///
    /// [`ProofError`].
    pub fn no_placement(
        &mut self,
        claim: BoardClaim<'_>,
        relies_on: Vec<String>,
    ) -> Result<&ClaimEntry, ProofError> {
        let built = board_formula(&claim, &[], &[], Blocking::Full)?;
        let i = self.prove(
            built,
            ClaimKind::NoPlacement,
            claim.words,
            relies_on,
            None,
            None,
        )?;
        Ok(&self.manifest.claims[i])
    }

    /// Proves that `placements` are all the placements of the claim's
    /// problem with k pieces (under lex-leader constraints with
    /// [`ClaimSymmetry::LexLeader`], within a cube's queens with `cube`),
    /// blocked as the count blocked them. `count` is the claimed count.
    ///
    /// # Errors
    ///
    /// [`ProofError`].
    pub fn complete(
        &mut self,
        claim: BoardClaim<'_>,
        placements: &[Placement],
        blocking: Blocking,
        count: u64,
        cube: Option<&QueenCube>,
        relies_on: Vec<String>,
    ) -> Result<&ClaimEntry, ProofError> {
        let squares = cube.map(QueenCube::squares).unwrap_or_default();
        let built = board_formula(&claim, &squares, placements, blocking)?;
        let cube = cube.map(|c| (c.columns.clone(), c.weight));
        let i = self.prove(
            built,
            ClaimKind::Complete,
            claim.words,
            relies_on,
            Some(count),
            cube,
        )?;
        Ok(&self.manifest.claims[i])
    }

    /// Proves that `formula`, read from `source`, is unsatisfiable; with
    /// `witnesses`, that the projected models they hold, each blocked by a
    /// clause over the projection, are all there are (the witnesses are
    /// written beside the claim for `verify`).
    ///
    /// # Errors
    ///
    /// [`ProofError`].
    pub fn formula(
        &mut self,
        formula: &Formula,
        source: &DimacsSource<'_>,
        mut witnesses: Option<&mut Witnesses>,
    ) -> Result<&ClaimEntry, ProofError> {
        let mut cnf = Cnf::new();
        for clause in &formula.clauses {
            cnf.add_clause(clause.iter().copied().collect());
        }
        let count = witnesses.as_ref().map(|w| w.len());
        if let Some(witnesses) = witnesses.as_deref_mut() {
            let projection = formula.projection_or_all();
            let models = witnesses
                .models(formula.n_vars)
                .map_err(|e| FileError::io(Path::new("the witnesses' temporary file"), e))?;
            for model in models {
                cnf.add_clause(
                    projection
                        .iter()
                        .map(|&v| {
                            if model.get(v.idx()).copied().unwrap_or(false) {
                                v.neg_lit()
                            } else {
                                v.pos_lit()
                            }
                        })
                        .collect(),
                );
            }
        }
        let about = SourceClaim::new(source, count);
        let mut header = Header::new();
        header.comments.extend(about.comments());
        let built = Built {
            header,
            cnf,
            n_vars: formula.n_vars,
        };
        let i = self.prove(
            built,
            about.kind,
            about.claim.clone(),
            Vec::new(),
            about.count,
            None,
        )?;
        about.record(&mut self.manifest.claims[i]);
        if let Some(witnesses) = witnesses {
            let name = self.manifest.claims[i].name.clone();
            self.manifest.claims[i].models = Some(self.write_witnesses(&name, witnesses)?);
        }
        self.save()?;
        Ok(&self.manifest.claims[i])
    }

    /// As [`Prover::formula`], with the formula and its proof written from
    /// `trace`, traced by the solver that did the work (every clause it
    /// got, in order: the source's, then the blocking clauses, so no
    /// second solver run is needed). `n_vars`: the source's variables.
    ///
    /// # Errors
    ///
    /// [`ProofError`]; a trace that derives no empty clause.
    pub fn traced_formula(
        &mut self,
        trace: LratTrace,
        n_vars: u32,
        source: &DimacsSource<'_>,
        witnesses: Option<&mut Witnesses>,
    ) -> Result<&ClaimEntry, ProofError> {
        let count = witnesses.as_ref().map(|w| w.len());
        let about = SourceClaim::new(source, count);
        let (name, cnf, proof) = self.next_traced();
        let mut header = Header::new().comments;
        header.extend(about.comments());
        let trace = trace.finish(
            &self.dir.join(&cnf),
            &self.dir.join(&proof),
            &header,
            n_vars,
            self.format,
            self.compression,
        )?;
        if !trace.refutes {
            return Err(ProofError::NoRefutation(format!("'{}'", about.claim)));
        }
        let models = match witnesses {
            Some(w) => Some(self.write_witnesses(&name, w)?),
            None => None,
        };
        let mut entry = ClaimEntry {
            name,
            claim: about.claim.clone(),
            kind: about.kind,
            cnf,
            proof,
            format: self.format.name().to_string(),
            relies_on: Vec::new(),
            count: about.count,
            cube: None,
            source: None,
            icnf_cube: None,
            split: None,
            models,
            proof_bytes: trace.proof_bytes,
        };
        about.record(&mut entry);
        self.add_claim(entry)?;
        Ok(&self.manifest.claims[self.manifest.claims.len() - 1])
    }

    /// Writes `witnesses` as claim `name`'s witness file: its name.
    fn write_witnesses(&self, name: &str, witnesses: &mut Witnesses) -> Result<String, ProofError> {
        let file = format!("{name}.models");
        witnesses.write(&self.dir.join(&file), Some(&self.stop))?;
        Ok(file)
    }

    /// Writes models found by a run whose result needs no proof, for
    /// `verify` to check: the file's name ([`crate::manifest::FOUND_MODELS`]).
    ///
    /// # Errors
    ///
    /// The file cannot be written.
    pub fn found_models(&mut self, witnesses: &mut Witnesses) -> Result<String, ProofError> {
        let file = crate::manifest::FOUND_MODELS.to_string();
        witnesses.write(&self.dir.join(&file), Some(&self.stop))?;
        Ok(file)
    }

    /// Records the placements (orbit-weighted) a count found before it was
    /// stopped, beside its claims, which prove only what their cubes hold.
    pub fn set_found(&mut self, found: u64) {
        self.manifest.found = Some(found);
    }

    /// Records the split a cube count's claims cover.
    ///
    /// # Errors
    ///
    /// The manifest cannot be written.
    pub fn set_cover(&mut self, cover: Cover) -> Result<(), ProofError> {
        self.manifest.cover = Some(cover);
        self.save()
    }

    /// What the directory holds now: its claims and the bytes of their
    /// proofs, as the manifest lists them (claims removed since, such as a
    /// refutation split that met a placement, are not counted).
    #[must_use]
    pub fn summary(&self) -> ProofSummary {
        ProofSummary {
            dir: self.dir.display().to_string(),
            claims: self.manifest.claims.len(),
            bytes: self.manifest.claims.iter().map(|c| c.proof_bytes).sum(),
        }
    }

    /// Ends the run: `proved` is what proving the run's answer gave (its
    /// result, none when there was none to prove, or an error), `stop`
    /// whether the run was stopped. The manifest is written with the
    /// result and the status — `complete` with a result, otherwise how
    /// the run stopped or that it failed — and the lock released.
    #[must_use]
    pub fn conclude(
        mut self,
        proved: Result<Option<RunResult>, ProofError>,
        stop: Option<StopReason>,
    ) -> Concluded {
        let stopped = |stop: StopReason| match stop {
            StopReason::TimeLimit => RunStatus::TimeLimit,
            StopReason::Interrupted => RunStatus::Interrupted,
        };
        let (status, reason, error) = match (proved, stop) {
            (Ok(Some(result)), _) => {
                self.manifest.result = Some(result);
                let why = self.manifest.claims.is_empty().then(|| {
                    "nothing to prove: no UNSAT answer, the result found is its own certificate"
                        .to_string()
                });
                (RunStatus::Complete, why, None)
            }
            (Ok(None), Some(stop)) => (
                stopped(stop),
                Some(format!("{} before the result was found", stop_words(stop))),
                None,
            ),
            (Ok(None), None) => (
                RunStatus::Failed,
                Some("the run ended without a result (the solver gave up)".to_string()),
                None,
            ),
            (Err(e), Some(stop)) => (
                stopped(stop),
                Some(format!(
                    "{} while the claims were proven ({e})",
                    stop_words(stop)
                )),
                None,
            ),
            (Err(e), None) => (RunStatus::Failed, Some(e.to_string()), Some(e)),
        };
        self.manifest.status = status;
        self.manifest.reason = reason;
        let saved = self.save();
        Concluded {
            summary: self.summary(),
            status,
            error: error.or(saved.err()),
        }
    }

    /// The manifest being written.
    pub(crate) fn manifest_mut(&mut self) -> &mut ProofManifest {
        &mut self.manifest
    }

    /// The count split of an earlier run that this one resumes, once
    /// ([`Self::resume`]).
    pub(crate) fn take_resumed(&mut self) -> Option<String> {
        self.resumed.take()
    }

    /// The refutation split of an earlier run that this one's refutation
    /// with bound `k` and key `key` takes over, once ([`Self::resume`]).
    pub(crate) fn take_resumed_refute(&mut self, k: usize, key: &str) -> Option<String> {
        let splits = &self.manifest.splits;
        let at = self.resumed_refutes.iter().position(|name| {
            splits
                .iter()
                .any(|s| s.name == *name && s.k == k && s.key.as_deref() == Some(key))
        })?;
        Some(self.resumed_refutes.remove(at))
    }

    /// The refutation splits of an earlier run that this one did not take
    /// over (the count begins: the optimum is settled), taken off the list.
    pub(crate) fn untaken_refutes(&mut self) -> Vec<String> {
        std::mem::take(&mut self.resumed_refutes)
    }

    /// The name of a new claim's files (`claim-0007`).
    pub(crate) fn next_name(&mut self) -> String {
        let name = format!("claim-{:04}", self.next);
        self.next += 1;
        name
    }

    /// Adds a claim whose files are written (a traced cube), and saves the
    /// manifest.
    ///
    /// # Errors
    ///
    /// The manifest cannot be written.
    pub(crate) fn add_claim(&mut self, claim: ClaimEntry) -> Result<(), ProofError> {
        self.manifest.claims.push(claim);
        self.save()
    }

    /// Writes the manifest as it stands.
    ///
    /// # Errors
    ///
    /// The manifest cannot be written.
    pub(crate) fn save(&self) -> Result<(), ProofError> {
        let path = self.dir.join(MANIFEST_JSON);
        let text = serde_json::to_string_pretty(&self.manifest).unwrap_or_default();
        write_atomically(&path, None, |w| {
            w.write_all(text.as_bytes())
                .and_then(|()| w.write_all(b"\n"))
                .map_err(|e| FileError::io(&path, e))
        })?;
        Ok(())
    }

    fn prove(
        &mut self,
        built: Built,
        kind: ClaimKind,
        claim: String,
        relies_on: Vec<String>,
        count: Option<u64>,
        cube: Option<(Vec<usize>, u64)>,
    ) -> Result<usize, ProofError> {
        let name = self.next_name();
        let cnf = format!("{name}.cnf");
        let proof = format!("{name}.lrat");
        let mut header = built.header;
        header
            .comments
            .insert(1, format!("claim: {claim} ({name}, {})", kind_word(kind)));
        let cnf_path = self.dir.join(&cnf);
        write_atomically(&cnf_path, Some(&self.stop), |w| {
            boardsat_encode::dimacs::write(w, &header, &built.cnf, built.n_vars)
                .map_err(|e| FileError::io(&cnf_path, e))
        })?;
        let proof_path = self.dir.join(&proof);
        refute(&cnf_path, &proof_path, &self.stop, &claim)?;
        let proof_bytes = fs::metadata(&proof_path).map_or(0, |m| m.len());
        self.manifest.claims.push(ClaimEntry {
            name,
            claim,
            kind,
            cnf,
            proof,
            format: ProofFormat::LratText.name().to_string(),
            relies_on,
            count,
            cube,
            source: None,
            icnf_cube: None,
            split: None,
            models: None,
            proof_bytes,
        });
        self.save()?;
        Ok(self.manifest.claims.len() - 1)
    }
}

fn kind_word(kind: ClaimKind) -> &'static str {
    match kind {
        ClaimKind::NoPlacement => "no-placement",
        ClaimKind::Complete => "complete",
        ClaimKind::Formula => "formula",
        ClaimKind::ProjectedComplete => "projected-complete",
    }
}

/// A claim's formula before it is written.
struct Built {
    header: Header,
    cnf: Cnf,
    n_vars: u32,
}

/// What a board claim is about: a problem with k pieces, its encodings,
/// whether lex-leader constraints restrict it, and the claim in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardClaim<'a> {
    /// The problem.
    pub problem: &'a Problem,
    /// The number of pieces (the bound of [`boardsat_encode::Kind::bound`]).
    pub k: usize,
    /// The encodings (the AMO is made eager, see [`boardsat_encode::Amo::in_clauses`]).
    pub config: Config,
    /// Lex-leader constraints or none.
    pub symmetry: ClaimSymmetry,
    /// The claim in words.
    pub words: String,
}

/// Whether a claim's formula carries lex-leader constraints (in the board
/// order, under the board's whole group).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClaimSymmetry {
    /// None: every placement.
    Off,
    /// One placement per orbit survives.
    LexLeader,
}

/// The canonical formula of a board claim: the fixed encoding, lex-leader
/// constraints, a cube's units, then one blocking clause per placement.
///
/// The encoding is always eager: a result found with the lazy AMO (lines
/// propagated inside CaDiCaL) is proven on the same problem with
/// [`boardsat_encode::Amo::in_clauses`] (`auto`), since an LRAT proof can
/// only cite clauses of its formula, and the propagator's reasons are not
/// in it. The claim is about the problem, not the encoding the search
/// used, so the proof stands; its provenance names `amo: auto`.
fn board_formula(
    claim: &BoardClaim<'_>,
    cube: &[Square],
    placements: &[Placement],
    blocking: Blocking,
) -> Result<Built, ProofError> {
    let (problem, k) = (claim.problem, claim.k);
    let config = Config {
        amo: claim.config.amo.in_clauses(),
        ..claim.config
    };
    let mut vars = problem.var_manager();
    let mut cnf = Cnf::new();
    let encoding = problem.encode(k, config, &mut cnf, &mut vars)?;
    let mut header = Header::for_encoding(&encoding, None);
    header.comments.push(format!(
        "boardsat-bound {}",
        bound_tag(problem.kind.bound(k))
    ));
    if claim.symmetry == ClaimSymmetry::LexLeader {
        symmetry::lex_leader(&problem.board, &mut cnf, &mut vars)?;
        header
            .comments
            .push("boardsat-symmetry lex-leader".to_string());
    }
    if !cube.is_empty() {
        let columns = cube.iter().map(|s| s.col).collect();
        header.comments.push(CubeTag::Queens { columns }.line());
        for &sq in cube {
            cnf.add_unit(problem.board.lit(sq));
        }
    }
    if !placements.is_empty() {
        header.comments.push(format!(
            "boardsat-blocking {}",
            match blocking {
                Blocking::Short => "short",
                Blocking::Full => "full",
            }
        ));
    }
    for placement in placements {
        cnf.add_clause(
            blocking_clause(&problem.board, placement, blocking)
                .into_iter()
                .collect(),
        );
    }
    Ok(Built {
        header,
        cnf,
        n_vars: rustsat::instances::ManageVars::n_used(&vars),
    })
}

/// A DIMACS formula's source: the file it was read from, the digest of
/// its bytes, and for an iCNF file the cube read with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DimacsSource<'a> {
    /// The file.
    pub path: &'a Path,
    /// The digest of its bytes.
    pub digest: &'a str,
    /// The iCNF cube read with the base clauses, if any.
    pub icnf_cube: Option<usize>,
}

/// What a DIMACS claim says about its source file: unsatisfiable, or
/// (with a count) that many projected models and no more.
struct SourceClaim {
    kind: ClaimKind,
    claim: String,
    count: Option<u64>,
    source: String,
    digest: String,
    icnf_cube: Option<usize>,
}

impl SourceClaim {
    fn new(source: &DimacsSource<'_>, count: Option<u64>) -> Self {
        let DimacsSource {
            path,
            digest,
            icnf_cube,
        } = *source;
        let absolute = fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        let shown = absolute.display().to_string();
        let (kind, claim) = match count {
            None => (ClaimKind::Formula, sentences::formula(&shown)),
            Some(count) => (
                ClaimKind::ProjectedComplete,
                sentences::projected(&shown, count),
            ),
        };
        SourceClaim {
            kind,
            claim,
            count,
            source: shown,
            digest: digest.to_string(),
            icnf_cube,
        }
    }

    /// The formula's comment lines.
    fn comments(&self) -> [String; 2] {
        [
            format!("claim: {}", self.claim),
            format!("source digest: {}", self.digest),
        ]
    }

    /// The source and cube, into the claim's entry.
    fn record(&self, entry: &mut ClaimEntry) {
        entry.source = Some((self.source.clone(), self.digest.clone()));
        entry.icnf_cube = self.icnf_cube;
    }
}

/// Solves the formula of `cnf` on a fresh CaDiCaL that reads it with its
/// own parser, tracing an LRAT proof into `proof`; it must answer UNSAT.
#[cfg(feature = "cadical")]
fn refute(cnf: &Path, proof: &Path, stop: &Interrupter, claim: &str) -> Result<(), ProofError> {
    use boardsat_solve::backend::{cadical::Cadical, Backend, Interrupt};
    let mut solver = Cadical::new();
    solver.use_interrupter(stop.clone());
    solver.trace_proof(proof)?;
    solver.read_dimacs(cnf)?;
    let status = solver.solve(&[])?;
    solver.close_proof()?;
    if status != Status::Unsat {
        let _ = fs::remove_file(proof);
        return Err(ProofError::NotRefuted {
            claim: claim.to_string(),
            status,
        });
    }
    Ok(())
}

#[cfg(not(feature = "cadical"))]
fn refute(_: &Path, _: &Path, _: &Interrupter, _: &str) -> Result<(), ProofError> {
    Err(ProofError::Unavailable)
}

/// What stopped a run, as the cause of a sentence.
fn stop_words(stop: StopReason) -> &'static str {
    match stop {
        StopReason::TimeLimit => "the time limit came",
        StopReason::Interrupted => "a signal, or a stop it was asked for, came",
    }
}

/// Removes the files a proof run writes in `dir` ([`files::proof_dir::is_run_file`])
/// except those named in `keep`: files and links only, never followed (a
/// directory of such a name is not the proofs' to remove).
fn remove_run_files(dir: &Path, keep: &[&str]) -> io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let name = entry?.file_name().to_string_lossy().into_owned();
        if !files::proof_dir::is_run_file(&name) || keep.contains(&name.as_str()) {
            continue;
        }
        let path = dir.join(&name);
        if fs::symlink_metadata(&path).is_ok_and(|m| !m.is_dir()) {
            fs::remove_file(&path)?;
        }
    }
    Ok(())
}

/// Takes the lock of proof directory `dir` (see [`LOCK`]).
fn take_lock(dir: &Path) -> Result<File, ProofError> {
    let path = dir.join(LOCK);
    let failed = |e: io::Error| {
        ProofError::Dir(format!(
            "cannot lock {}: {}",
            path.display(),
            files::describe(&e)
        ))
    };
    if fs::symlink_metadata(&path).is_ok_and(|m| !m.is_file()) {
        return Err(ProofError::Dir(format!(
            "{} is not a regular file: not a proof directory's lock",
            path.display()
        )));
    }
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(failed)?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(TryLockError::WouldBlock) => Err(ProofError::Dir(format!(
            "{} is being written by another boardsat run (its lock {LOCK} is held); choose another directory for the proofs",
            dir.display()
        ))),
        Err(TryLockError::Error(e)) => Err(failed(e)),
    }
}
