//! Checking a proof directory: each claim's LRAT proof by
//! `boardsat-lrat`, which shares no code with CaDiCaL or the encoder, each
//! claim's formula tied to its problem (see the crate doc), and then the
//! run's whole result derived from the verified claims alone
//! ([`Verification::result`]).
//!
//! Only regular files are opened: a symbolic link, a FIFO or a directory
//! in place of a manifest, formula, proof or witness file is a reasoned
//! failure, never followed and never waited on.

use std::{
    collections::{BTreeMap, BTreeSet},
    fs::{self, File, TryLockError},
    io::{BufReader, Read},
    path::Path,
};

use boardsat_encode::{
    check,
    dimacs::{CubeKind, CubeTag},
    setting::{LibraryWords, Names, Setting},
    symmetry,
    words::plural,
    Board, Bound, Card, Config, Formulation, Placement, Problem, Square,
};
use boardsat_lrat::Location;
use boardsat_solve::{
    files,
    formula::{
        dimacs::{self, Formula},
        falsified,
    },
    search::{count::Reduction, queens::queen_cubes},
    stop::Interrupter,
};
use rustsat::{
    instances::Cnf,
    types::{Lit, Var},
};

use crate::{
    cover::{check_split_cube, verify_split, CubeRecord, SplitFact},
    manifest::{
        parse_bound_tag, placement_of, Answer, ClaimEntry, ClaimKind, Cover, ProblemName,
        ProofManifest, RunStatus, SplitCube, SplitEntry, SplitPurpose, LOCK, MANIFEST_JSON,
    },
    trace::LratFormat,
    witness, words,
};

/// The verdict on one claim (or on the cover of a split).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The claim's name (`cover` for the split; the file's for
    /// [`verify_files`]).
    pub name: String,
    /// What the check found.
    pub outcome: Finding,
}

/// What checking a claim found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    /// The LRAT proof derives the empty clause in `steps` steps (none for
    /// a cover) and the formula is what the claim says (`what`).
    Verified {
        /// Proof steps checked.
        steps: Option<u64>,
        /// What the formula was tied to, in words.
        what: String,
    },
    /// It did not verify, for this reason.
    Rejected(Rejection),
}

impl Finding {
    /// Whether the claim verified.
    #[must_use]
    pub fn verified(&self) -> bool {
        matches!(self, Finding::Verified { .. })
    }
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Finding::Verified {
                steps: Some(steps),
                what,
            } => write!(
                f,
                "LRAT proof of {steps} steps derives the empty clause; {what}"
            ),
            Finding::Verified { steps: None, what } => f.write_str(what),
            Finding::Rejected(why) => write!(f, "{why}"),
        }
    }
}

impl From<Rejection> for Finding {
    fn from(why: Rejection) -> Self {
        Finding::Rejected(why)
    }
}

/// Why a claim, a split, a cover or a run's result does not verify: the
/// verifier's error, decided where the failure is found. Its message is
/// the reason in words; a [`Verdict`] pairs it with the claim.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Rejection {
    /// A file could not be read (or has an unknown format).
    #[error("{0}")]
    Unreadable(String),
    /// The LRAT checker rejected the proof, at this line (or byte) of the
    /// proof when the error is in a step.
    #[error("{message}")]
    ProofRejected {
        /// Where in the proof.
        at: Option<Location>,
        /// The checker's message.
        message: String,
    },
    /// The formula is not what the claim says: its encoding, its
    /// constraints, its blocking clauses, its witnesses or its count.
    #[error("{0}")]
    FormulaMismatch(String),
    /// The claims do not cover the split, or their total is not the count.
    #[error("{0}")]
    CoverMismatch(String),
    /// The run's result does not follow from the verified claims: what is
    /// missing or does not agree.
    #[error("not proven: {0}")]
    NotProven(String),
}

impl Rejection {
    /// [`Rejection::Unreadable`].
    pub(crate) fn unreadable(why: impl Into<String>) -> Self {
        Rejection::Unreadable(why.into())
    }

    /// [`Rejection::FormulaMismatch`].
    pub(crate) fn mismatch(why: impl Into<String>) -> Self {
        Rejection::FormulaMismatch(why.into())
    }

    /// [`Rejection::CoverMismatch`].
    pub(crate) fn cover(why: impl Into<String>) -> Self {
        Rejection::CoverMismatch(why.into())
    }

    /// [`Rejection::NotProven`] (its message says "not proven: " first).
    pub(crate) fn not_proven(why: impl Into<String>) -> Self {
        Rejection::NotProven(why.into())
    }

    /// The same reason, its message naming `what` it is about first.
    #[must_use]
    pub fn about(self, what: &str) -> Self {
        let named = |why: String| format!("{what}: {why}");
        match self {
            Rejection::Unreadable(why) => Rejection::Unreadable(named(why)),
            Rejection::ProofRejected { at, message } => Rejection::ProofRejected {
                at,
                message: named(message),
            },
            Rejection::FormulaMismatch(why) => Rejection::FormulaMismatch(named(why)),
            Rejection::CoverMismatch(why) => Rejection::CoverMismatch(named(why)),
            Rejection::NotProven(why) => Rejection::NotProven(named(why)),
        }
    }
}

/// Why a proof directory could not be verified at all (bad input).
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    /// The directory has no readable manifest.
    #[error("{0}")]
    Manifest(String),
    /// A split directory written without proofs: its jobs prove nothing.
    #[error("{}", self.message(&LibraryWords))]
    WithoutProofs(std::path::PathBuf),
}

impl VerifyError {
    /// The message, with the settings it names worded by `names` (its
    /// `Display` is the library's words).
    #[must_use]
    pub fn message(&self, names: &dyn Names) -> String {
        match self {
            VerifyError::Manifest(why) => why.clone(),
            VerifyError::WithoutProofs(dir) => format!(
                "{}: the split was written without {}: its jobs prove nothing",
                dir.display(),
                names.name(Setting::Proof, None)
            ),
        }
    }
}

/// What `verify` found: a verdict per claim (and per split or cover), and
/// the run's whole result — its sentence, derived from what was checked,
/// or why it is not proven.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verification {
    /// One verdict per claim, then the splits and the cover.
    pub verdicts: Vec<Verdict>,
    /// The result's sentence, or what is missing.
    pub result: Result<String, Rejection>,
}

impl Verification {
    /// Whether the whole result is proven (every verdict verified too).
    #[must_use]
    pub fn verified(&self) -> bool {
        self.result.is_ok() && self.verdicts.iter().all(|v| v.outcome.verified())
    }

    /// Nothing checked: the reason alone.
    fn failed(why: Rejection) -> Self {
        Verification {
            verdicts: Vec::new(),
            result: Err(why),
        }
    }
}

/// Opens `path` for reading when it is a regular file, not a symbolic
/// link, a FIFO, a device or a directory (which could hang a reader or
/// lead it outside the directory).
///
/// # Errors
///
/// [`Rejection::Unreadable`], naming the file and what it is.
pub fn open_regular(path: &Path) -> Result<File, Rejection> {
    let meta = fs::symlink_metadata(path).map_err(|e| {
        let why = match e.kind() {
            std::io::ErrorKind::NotFound => "missing".to_string(),
            _ => files::describe(&e),
        };
        Rejection::unreadable(format!("cannot read {}: {why}", path.display()))
    })?;
    not_special(path, &meta)?;
    let file = File::open(path).map_err(|e| cannot_read(path, &e))?;
    // Replaced between the look and the open: look again at what is open.
    let meta = file.metadata().map_err(|e| cannot_read(path, &e))?;
    not_special(path, &meta)?;
    Ok(file)
}

/// `path` could not be read: why.
fn cannot_read(path: &Path, e: &std::io::Error) -> Rejection {
    Rejection::unreadable(format!(
        "cannot read {}: {}",
        path.display(),
        files::describe(e)
    ))
}

fn not_special(path: &Path, meta: &fs::Metadata) -> Result<(), Rejection> {
    use std::os::unix::fs::FileTypeExt;
    let kind = meta.file_type();
    let what = if kind.is_file() {
        return Ok(());
    } else if kind.is_symlink() {
        "a symbolic link"
    } else if kind.is_dir() {
        "a directory"
    } else if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "a device"
    };
    Err(Rejection::unreadable(format!(
        "{} is {what}, not a regular file: not read",
        path.display()
    )))
}

/// The text of the regular file `path` ([`open_regular`]).
///
/// # Errors
///
/// [`Rejection::Unreadable`], naming the file.
pub fn read_regular(path: &Path) -> Result<String, Rejection> {
    let mut text = String::new();
    open_regular(path)?
        .read_to_string(&mut text)
        .map_err(|e| cannot_read(path, &e))?;
    Ok(text)
}

/// What the verified claims of a directory establish, for its result.
#[derive(Default)]
struct Facts {
    /// Verified claims outside splits and covers.
    claims: BTreeMap<String, Fact>,
    /// Verified splits.
    splits: BTreeMap<String, SplitFact>,
    /// A verified cover of an N-queens cube count: its total and claims.
    cover: Option<CoverFact>,
    /// The names of what did not verify.
    failed: Vec<String>,
}

/// What one verified claim establishes.
#[derive(Clone, Debug)]
enum Fact {
    /// About a board problem.
    Board(BoardFact),
    /// About a DIMACS file.
    Source(SourceFact),
}

/// A verified board claim: no placement with `k` pieces, or the blocked
/// placements are all there are.
#[derive(Clone, Debug, PartialEq, Eq)]
struct BoardFact {
    problem: Problem,
    k: usize,
    /// `None`: no placement; otherwise the placements, orbit-weighted.
    count: Option<u64>,
    /// The blocked placements (orbits with lex-leader constraints).
    models: u64,
    symmetric: bool,
    short: bool,
    /// A cube of an N-queens count.
    cube: bool,
}

/// A verified DIMACS claim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SourceFact {
    source: (String, String),
    icnf_cube: Option<usize>,
    /// `None`: unsatisfiable; otherwise the projected models.
    count: Option<u64>,
}

/// A verified N-queens cover.
#[derive(Clone, Debug)]
struct CoverFact {
    problem: Problem,
    k: usize,
    count: u64,
    orbits: Option<u64>,
    claims: Vec<String>,
}

/// Verifies every claim of the proof directory `dir` (see the crate doc),
/// every split and cover, and derives the run's result from them.
///
/// # Errors
///
/// [`VerifyError`] when the directory has no manifest or the manifest is
/// not one (bad input); every other failure is a verdict or the result's
/// reason.
pub fn verify(dir: &Path, stop: Option<&Interrupter>) -> Result<Verification, VerifyError> {
    let path = dir.join(MANIFEST_JSON);
    if fs::symlink_metadata(&path).is_err() {
        return Err(VerifyError::Manifest(format!(
            "cannot read {}: missing (not a proof directory)",
            path.display()
        )));
    }
    let text = match read_regular(&path) {
        Ok(text) => text,
        Err(why) => return Ok(Verification::failed(why)),
    };
    let manifest: ProofManifest = serde_json::from_str(&text).map_err(|e| {
        VerifyError::Manifest(format!("{}: not a proof manifest ({e})", path.display()))
    })?;
    let mut verdicts = Vec::new();
    let mut facts = Facts::default();
    let mut records = BTreeMap::new();
    let mut verified = BTreeSet::new();
    for entry in &manifest.claims {
        let outcome = match &entry.split {
            Some(sc) => outcome(
                verify_cube(dir, entry, sc, stop).map(|(steps, what, record)| {
                    records.insert(entry.name.clone(), record);
                    (steps, what)
                }),
            ),
            None => outcome(verify_claim(dir, entry, stop).map(|(steps, what, fact)| {
                facts.claims.insert(entry.name.clone(), fact);
                (steps, what)
            })),
        };
        if outcome.verified() {
            verified.insert(entry.name.clone());
        } else {
            facts.failed.push(entry.name.clone());
        }
        verdicts.push(Verdict {
            name: entry.name.clone(),
            outcome,
        });
    }
    // Refutations first: a count's short blocking clauses lean on the
    // refutation of one piece fewer, wherever the manifest lists it (a
    // resumed run lists its kept count split before its new refutation).
    let mut splits: Vec<&SplitEntry> = manifest.splits.iter().collect();
    splits.sort_by_key(|s| s.purpose != SplitPurpose::Refute);
    for split in splits {
        let outcome = match verify_split(split, &manifest, &records, &verified) {
            Ok((what, fact)) => {
                verified.insert(split.name.clone());
                facts.splits.insert(split.name.clone(), fact);
                Finding::Verified { steps: None, what }
            }
            Err(why) => {
                facts.failed.push(split.name.clone());
                Finding::Rejected(why)
            }
        };
        verdicts.push(Verdict {
            name: split.name.clone(),
            outcome,
        });
    }
    if let Some(cover) = &manifest.cover {
        let checked = verify_cover(cover, &manifest.claims, &verified, &facts.claims);
        let outcome = match checked {
            Ok((what, fact)) => {
                facts.cover = Some(fact);
                Finding::Verified { steps: None, what }
            }
            Err(why) => {
                facts.failed.push("cover".to_string());
                Finding::Rejected(why)
            }
        };
        verdicts.push(Verdict {
            name: "cover".to_string(),
            outcome,
        });
    }
    let result = derive(dir, &manifest, &facts);
    Ok(Verification { verdicts, result })
}

/// A claim's checks as a verdict's outcome.
fn outcome(checked: Result<(u64, String), Rejection>) -> Finding {
    match checked {
        Ok((steps, what)) => Finding::Verified {
            steps: Some(steps),
            what,
        },
        Err(why) => Finding::Rejected(why),
    }
}

/// Verifies `proof` against the formula `cnf` (any DIMACS file; both
/// named by the user, so a link to a regular file is followed). A formula
/// with a board claim's markers (a `c boardsat-bound` line, as the
/// prover writes, outside a split) is tied to its problem as [`verify`]
/// does; any other, boardsat's own DIMACS files included, is checked as
/// given. The result says what was proven.
#[must_use]
pub fn verify_files(cnf: &Path, proof: &Path, stop: Option<&Interrupter>) -> Verification {
    let name = cnf.display().to_string();
    let checked = (|| -> Result<(u64, String, String), Rejection> {
        let formula = read_formula_at(cnf, stop, false)?;
        // A proof named by the user may be text or binary LRAT.
        let steps = check_lrat_at(&formula, proof, false, boardsat_lrat::Syntax::Detect)?;
        let tied = formula.tag("bound").is_some() && formula.tag("split").is_none();
        if !tied {
            let what = format!("the formula as given ({} clauses)", formula.clauses.len());
            return Ok((steps, what, words::formula(&name)));
        }
        let (what, fact) = check_board(&formula, None)?;
        let sentence = match fact.count {
            None => words::no_placement(&fact.problem, fact.k),
            Some(count) => format!(
                "{} ({} blocked in {name} are all there are)",
                words::counted(&fact.problem, fact.k, count, None, None),
                fact.models
            ),
        };
        Ok((steps, what, sentence))
    })();
    match checked {
        Ok((steps, what, sentence)) => Verification {
            verdicts: vec![Verdict {
                name,
                outcome: Finding::Verified {
                    steps: Some(steps),
                    what,
                },
            }],
            result: Ok(sentence),
        },
        Err(why) => Verification {
            result: Err(why.clone().about(&name)),
            verdicts: vec![Verdict {
                name,
                outcome: Finding::Rejected(why),
            }],
        },
    }
}

/// The formula of the regular file `path`.
pub(crate) fn read_formula(path: &Path, stop: Option<&Interrupter>) -> Result<Formula, Rejection> {
    read_formula_at(path, stop, true)
}

/// The formula at `path`; `strict`: a regular file itself, not through a
/// link.
fn read_formula_at(
    path: &Path,
    stop: Option<&Interrupter>,
    strict: bool,
) -> Result<Formula, Rejection> {
    let file = open_file(path, strict)?;
    dimacs::read(BufReader::new(file), None, stop)
        .map_err(|e| Rejection::unreadable(format!("{}: {e}", path.display())))
}

/// Opens `path`: strictly ([`open_regular`]), or through a link to a
/// regular file (a path the user named).
fn open_file(path: &Path, strict: bool) -> Result<File, Rejection> {
    if strict {
        return open_regular(path);
    }
    let meta = fs::metadata(path).map_err(|e| cannot_read(path, &e))?;
    not_special(path, &meta)?;
    open_regular(&fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()))
}

/// A cube claim of a split: the proof, and the formula tied to its cube.
fn verify_cube(
    dir: &Path,
    entry: &ClaimEntry,
    sc: &SplitCube,
    stop: Option<&Interrupter>,
) -> Result<(u64, String, CubeRecord), Rejection> {
    let lrat = proof_format(entry)?;
    let formula = read_formula(&inside(dir, &entry.cnf)?, stop)?;
    // The formula first: what it says is cheaper to check than its proof.
    let (what, record) = check_split_cube(&formula, entry, sc)?;
    let steps = check_lrat(&formula, &inside(dir, &entry.proof)?, lrat)?;
    Ok((steps, what, record))
}

/// A file of the directory a manifest names: a plain name inside it,
/// never a path that leads elsewhere.
pub(crate) fn inside(dir: &Path, name: &str) -> Result<std::path::PathBuf, Rejection> {
    let plain = !name.is_empty()
        && name != "."
        && name != ".."
        && !name.contains('/')
        && !name.contains('\\');
    if plain {
        Ok(dir.join(name))
    } else {
        Err(Rejection::unreadable(format!(
            "the manifest names '{name}', not a file of the directory"
        )))
    }
}

fn verify_claim(
    dir: &Path,
    entry: &ClaimEntry,
    stop: Option<&Interrupter>,
) -> Result<(u64, String, Fact), Rejection> {
    let lrat = proof_format(entry)?;
    let formula = read_formula(&inside(dir, &entry.cnf)?, stop)?;
    let tied = match entry.kind {
        ClaimKind::NoPlacement if formula.tag("blocking").is_some() => Err(Rejection::mismatch(
            "a no-placement claim whose formula blocks placements",
        )),
        ClaimKind::NoPlacement | ClaimKind::Complete => {
            check_board(&formula, Some(entry)).map(|(what, fact)| (what, Fact::Board(fact)))
        }
        ClaimKind::Formula | ClaimKind::ProjectedComplete => {
            check_source(dir, &formula, entry).map(|(what, fact)| (what, Fact::Source(fact)))
        }
    }
    .and_then(|tied| check_words(&formula, entry).map(|()| tied))?;
    let steps = check_lrat(&formula, &inside(dir, &entry.proof)?, lrat)?;
    Ok((steps, tied.0, tied.1))
}

/// The claim's words must be what its formula proves: derived again from
/// the provenance and the claim's count, cube or source.
pub(crate) fn check_words(formula: &Formula, entry: &ClaimEntry) -> Result<(), Rejection> {
    let expected = match (entry.kind, &entry.source) {
        (ClaimKind::Formula, Some((path, _))) => words::formula(path),
        (ClaimKind::ProjectedComplete, Some((path, _))) => {
            words::projected(path, entry.count.unwrap_or(0))
        }
        (ClaimKind::Formula | ClaimKind::ProjectedComplete, None) => {
            return Err(Rejection::mismatch("the claim names no source file"))
        }
        (kind, _) => {
            let (problem, k, _, _) = provenance(formula)?;
            match (kind, entry.count, &entry.cube) {
                (ClaimKind::NoPlacement, ..) => words::no_placement(&problem, k),
                (_, Some(count), Some((columns, _))) => {
                    words::queens_cube(&problem, k, count, columns)
                }
                (_, Some(count), None) => words::complete(&problem, k, count),
                (_, None, _) => {
                    return Err(Rejection::mismatch("a completeness claim without a count"))
                }
            }
        }
    };
    if expected == entry.claim {
        Ok(())
    } else {
        Err(Rejection::mismatch(format!(
            "the claim's words are not what its formula proves ('{expected}')"
        )))
    }
}

/// The LRAT format a claim's manifest entry names (`lrat`, `lrat-binary`).
pub(crate) fn proof_format(entry: &ClaimEntry) -> Result<boardsat_lrat::Syntax, Rejection> {
    LratFormat::from_name(&entry.format)
        .map(boardsat_lrat::Syntax::from)
        .ok_or_else(|| Rejection::unreadable(format!("unknown proof format '{}'", entry.format)))
}

/// The LRAT check of `proof` (a regular file, in `lrat`) against
/// `formula`: the steps checked.
pub(crate) fn check_lrat(
    formula: &Formula,
    proof: &Path,
    lrat: boardsat_lrat::Syntax,
) -> Result<u64, Rejection> {
    check_lrat_at(formula, proof, true, lrat)
}

fn check_lrat_at(
    formula: &Formula,
    proof: &Path,
    strict: bool,
    lrat: boardsat_lrat::Syntax,
) -> Result<u64, Rejection> {
    let file = open_file(proof, strict)?;
    let file = crate::compress::open_proof(file).map_err(|e| cannot_read(proof, &e))?;
    let clauses = formula
        .clauses
        .iter()
        .map(|c| c.iter().map(|l| l.to_ipasir()).collect::<Vec<i32>>());
    let summary =
        boardsat_lrat::check(clauses, file, lrat).map_err(|e| Rejection::ProofRejected {
            at: e.location(),
            message: format!("{}: {e}", proof.display()),
        })?;
    Ok(summary.n_steps)
}

/// The problem, bound and encodings a board claim's provenance names.
pub(crate) fn provenance(formula: &Formula) -> Result<(Problem, usize, Bound, Config), Rejection> {
    let line = |key: &str| {
        formula.provenance(key).ok_or_else(|| {
            Rejection::mismatch(format!("the formula has no '{key}:' provenance line"))
        })
    };
    let bad = |e: &dyn std::fmt::Display| Rejection::mismatch(e.to_string());
    let problem = boardsat_encode::export::problem_from(|key| formula.provenance(key))
        .map_err(|e| Rejection::mismatch(format!("the formula's provenance: {e}")))?;
    let tag = formula
        .tag("bound")
        .ok_or_else(|| Rejection::mismatch("the formula has no 'boardsat-bound' line"))?;
    let bound =
        parse_bound_tag(tag).ok_or_else(|| Rejection::mismatch(format!("bad bound '{tag}'")))?;
    let k = bound.k();
    let config = Config {
        amo: line("amo")?.parse().map_err(|e| bad(&e))?,
        card: line("card")?.parse::<Card>().map_err(|e| bad(&e))?,
        formulation: line("formulation")?
            .parse::<Formulation>()
            .map_err(|e| bad(&e))?,
    };
    if problem.kind.bound(k) != bound {
        return Err(Rejection::mismatch(format!(
            "the bound '{bound}' is not the bound of {problem}"
        )));
    }
    Ok((problem, k, bound, config))
}

/// What a board claim's formula must start with, re-derived from its
/// provenance: the encoding, lex-leader constraints, a cube's units.
struct Fixed {
    problem: Problem,
    bound: Bound,
    /// Lex-leader constraints follow the encoding.
    symmetric: bool,
    /// The cube's squares, each a unit clause after them.
    cube: Vec<Square>,
    /// The clauses, in order.
    clauses: Cnf,
    /// How many of them are the encoding.
    n_encoding: usize,
}

/// Re-derives the fixed part of a board claim's formula; the cube must be
/// `entry`'s.
fn fixed_part(formula: &Formula, entry: Option<&ClaimEntry>) -> Result<Fixed, Rejection> {
    let (problem, k, bound, config) = provenance(formula)?;
    let board = problem.board;
    let mut vars = problem.var_manager();
    let mut clauses = Cnf::new();
    let bad = |e: boardsat_encode::EncodeError| Rejection::mismatch(e.to_string());
    problem
        .encode(k, config, &mut clauses, &mut vars)
        .map_err(bad)?;
    let n_encoding = clauses.len();
    let symmetric = formula.tag("symmetry") == Some("lex-leader");
    if symmetric {
        symmetry::lex_leader(&board, &mut clauses, &mut vars).map_err(bad)?;
    }
    let mut cube = Vec::new();
    if let Some(cols) = formula.tag("cube") {
        let Some(CubeTag::Queens { columns }) = CubeTag::parse(cols, CubeKind::Queens) else {
            return Err(Rejection::mismatch(format!("bad cube '{cols}'")));
        };
        for (row, col) in columns.into_iter().enumerate() {
            let sq = Square::new(row, col);
            if !board.contains(sq) {
                return Err(Rejection::mismatch(format!(
                    "the cube '{cols}' is off the board"
                )));
            }
            cube.push(sq);
            clauses.add_unit(board.lit(sq));
        }
    }
    if let Some(entry) = entry {
        let claimed: Option<&Vec<usize>> = entry.cube.as_ref().map(|(c, _)| c);
        let found: Vec<usize> = cube.iter().map(|s| s.col).collect();
        if claimed.map_or(!found.is_empty(), |c| *c != found) {
            return Err(Rejection::mismatch(
                "the formula's cube is not the manifest's",
            ));
        }
    }
    Ok(Fixed {
        problem,
        bound,
        symmetric,
        cube,
        clauses,
        n_encoding,
    })
}

/// The formula starts with exactly the fixed part.
fn compare_fixed(formula: &Formula, fixed: &Fixed) -> Result<(), Rejection> {
    let n_fixed = fixed.clauses.len();
    if formula.clauses.len() < n_fixed {
        return Err(Rejection::mismatch(format!(
            "the formula has {} clauses, fewer than the {n_fixed} of {} with {} pieces",
            formula.clauses.len(),
            fixed.problem,
            fixed.bound
        )));
    }
    for (i, (got, want)) in formula.clauses.iter().zip(fixed.clauses.iter()).enumerate() {
        let want: Vec<Lit> = want.iter().copied().collect();
        if *got != want {
            let part = if i < fixed.n_encoding {
                "the encoding of the problem"
            } else {
                "the lex-leader constraints or the cube"
            };
            return Err(Rejection::mismatch(format!(
                "clause {} is not {part} as re-derived from the provenance lines",
                i + 1
            )));
        }
    }
    Ok(())
}

/// The clauses after the fixed part must each block a distinct placement
/// the independent checker accepts (in the cube, a lex leader where the
/// constraints are): their number, orbit-weighted where they are.
fn count_blocked(formula: &Formula, fixed: &Fixed) -> Result<u64, Rejection> {
    let n_fixed = fixed.clauses.len();
    let board = fixed.problem.board;
    let uniform = blocking_style(formula)?;
    let mut seen = std::collections::HashSet::new();
    let mut count = 0u64;
    for (i, clause) in formula.clauses[n_fixed..].iter().enumerate() {
        let at = n_fixed + i + 1;
        let bad = |why: &str| Rejection::mismatch(format!("clause {at} {why}"));
        let placement = blocked_placement(&board, clause, uniform)
            .ok_or_else(|| bad("is neither part of the problem nor a blocking clause"))?;
        check(&fixed.problem, Some(fixed.bound), &placement)
            .map_err(|v| bad(&format!("blocks a placement that is not a solution ({v})")))?;
        if !fixed.cube.iter().all(|sq| placement.squares().contains(sq)) {
            return Err(bad("blocks a placement outside the cube"));
        }
        if fixed.symmetric && !symmetry::is_lex_leader(&board, &placement) {
            return Err(bad(
                "blocks a placement that is not the leader of its orbit",
            ));
        }
        if !seen.insert(placement.clone()) {
            return Err(bad("blocks a placement twice"));
        }
        count += if fixed.symmetric {
            symmetry::orbit_size(&board, &placement)
        } else {
            1
        };
    }
    Ok(count)
}

/// Whether a claim's formula blocks by short clauses (its
/// `boardsat-blocking` line; full ones without it).
pub(crate) fn blocking_style(formula: &Formula) -> Result<bool, Rejection> {
    match formula.tag("blocking") {
        Some("short") => Ok(true),
        Some("full") | None => Ok(false),
        Some(other) => Err(Rejection::mismatch(format!(
            "unknown blocking style '{other}'"
        ))),
    }
}

/// Ties a board claim's formula to its problem (see the crate doc); the
/// count of a completeness claim must be `entry`'s. What was checked, and
/// what the claim establishes.
fn check_board(
    formula: &Formula,
    entry: Option<&ClaimEntry>,
) -> Result<(String, BoardFact), Rejection> {
    let fixed = fixed_part(formula, entry)?;
    compare_fixed(formula, &fixed)?;
    let count = count_blocked(formula, &fixed)?;
    let n_blocked = formula.clauses.len() - fixed.clauses.len();
    let what = format!(
        "the formula is the encoding of {} with {}{}{}",
        fixed.problem,
        fixed.bound,
        if fixed.symmetric {
            ", lex-leader constraints"
        } else {
            ""
        },
        if fixed.cube.is_empty() {
            ""
        } else {
            ", a cube"
        }
    );
    let kind = entry.map(|e| e.kind).unwrap_or(if n_blocked > 0 {
        ClaimKind::Complete
    } else {
        ClaimKind::NoPlacement
    });
    let mut fact = BoardFact {
        problem: fixed.problem,
        k: fixed.bound.k(),
        count: None,
        models: n_blocked as u64,
        symmetric: fixed.symmetric,
        short: formula.tag("blocking") == Some("short"),
        cube: !fixed.cube.is_empty() || entry.is_some_and(|e| e.cube.is_some()),
    };
    match (kind, entry.and_then(|e| e.count)) {
        (ClaimKind::Complete, Some(claimed)) if claimed != count => {
            Err(Rejection::mismatch(format!(
                "the formula blocks {} (orbit-weighted), the manifest claims {claimed}",
                plural(count, "placement", "placements")
            )))
        }
        (ClaimKind::Complete, _) => {
            fact.count = Some(count);
            Ok((
                format!("{what} and {n_blocked} blocked placements: {count} in all"),
                fact,
            ))
        }
        (_, None) if n_blocked > 0 => Err(Rejection::mismatch(
            "blocking clauses in a claim without a count",
        )),
        (_, None) => Ok((what, fact)),
        (_, Some(_)) => Err(Rejection::mismatch("a no-placement claim with a count")),
    }
}

/// The placement a blocking clause excludes: the short clause (every
/// literal a negated board variable) or the full one (every board
/// variable once).
pub(crate) fn blocked_placement(board: &Board, clause: &[Lit], uniform: bool) -> Option<Placement> {
    let n = board.n_squares();
    if clause.iter().any(|l| l.vidx() >= n) {
        return None;
    }
    let squares: Vec<Square> = if uniform {
        if clause.iter().any(|l| l.is_pos()) {
            return None;
        }
        clause
            .iter()
            .filter_map(|l| board.square_of(l.var()))
            .collect()
    } else {
        if clause.len() != n {
            return None;
        }
        let mut vars: Vec<usize> = clause.iter().map(|l| l.vidx()).collect();
        vars.sort_unstable();
        vars.dedup();
        if vars.len() != n {
            return None;
        }
        clause
            .iter()
            .filter(|l| l.is_neg())
            .filter_map(|l| board.square_of(l.var()))
            .collect()
    };
    Some(Placement::new(squares))
}

/// Ties a DIMACS claim to its source file: its digest, and its clauses as
/// the formula's first ones; the rest must block distinct projected
/// assignments, each witnessed by a model of the source in the claim's
/// witness file (read from `dir`), as many as claimed.
fn check_source(
    dir: &Path,
    formula: &Formula,
    entry: &ClaimEntry,
) -> Result<(String, SourceFact), Rejection> {
    let Some((path, _)) = &entry.source else {
        return Err(Rejection::mismatch("the claim names no source file"));
    };
    check_source_at(dir, formula, entry, Path::new(path), None)
}

/// A board problem a DIMACS source's models must each be a placement of
/// (checked by the independent checker), with its bound.
pub(crate) type BoardCheck = Option<(Problem, Bound)>;

/// [`check_source`] with the source read from `at` (a split directory
/// moved since its jobs ran names its cube files where they are now), and
/// the board problem its models must solve when the caller knows it
/// (else read from the source's provenance, when it names one).
pub(crate) fn check_source_at(
    dir: &Path,
    formula: &Formula,
    entry: &ClaimEntry,
    at: &Path,
    board: BoardCheck,
) -> Result<(String, SourceFact), Rejection> {
    let Some((_, digest)) = &entry.source else {
        return Err(Rejection::mismatch("the claim names no source file"));
    };
    let path = &at.display().to_string();
    let source = read_source(at, digest, entry.icnf_cube)?;
    let n = source.clauses.len();
    if formula.clauses.len() < n || formula.clauses[..n] != source.clauses[..] {
        return Err(Rejection::mismatch(format!(
            "the formula does not start with the clauses of {path}"
        )));
    }
    let rest = &formula.clauses[n..];
    let fact = SourceFact {
        source: entry.source.clone().unwrap_or_default(),
        icnf_cube: entry.icnf_cube,
        count: None,
    };
    match entry.kind {
        ClaimKind::Formula if rest.is_empty() => Ok((format!("the formula is {path}"), fact)),
        ClaimKind::Formula => Err(Rejection::mismatch(
            "the formula has clauses its source does not",
        )),
        _ => {
            let Some(models) = &entry.models else {
                return Err(Rejection::mismatch(format!(
                    "the claim has no witness file: its {} blocked projected assignments are not shown to be models of {path}",
                    rest.len()
                )));
            };
            let models = inside(dir, models)?;
            let board = board.or_else(|| board_of(&source));
            let count = check_witnesses(&source, &models, Some(rest), board, n)?;
            match entry.count {
                Some(c) if c == count => Ok((
                    format!(
                        "{path} and {count} blocked projected models, each a model of it witnessed in {}{}",
                        models.display(),
                        if board.is_some() { " and a placement the independent checker accepts" } else { "" }
                    ),
                    SourceFact {
                        count: Some(count),
                        ..fact
                    },
                )),
                Some(c) => Err(Rejection::mismatch(format!(
                    "the formula blocks {count} projected models, the manifest claims {c}"
                ))),
                None => Err(Rejection::mismatch("a projected count without a count")),
            }
        }
    }
}

/// The source file at `at`, which must have `digest`; its cube
/// `icnf_cube` for an iCNF file (the cube's literals as units).
fn read_source(at: &Path, digest: &str, icnf_cube: Option<usize>) -> Result<Formula, Rejection> {
    let path = at.display();
    let file = open_regular(at).map_err(|e| Rejection::unreadable(format!("the source: {e}")))?;
    let unreadable =
        |e: &dyn std::fmt::Display| Rejection::unreadable(format!("the source {path}: {e}"));
    let (source, found) = dimacs::read_with_digest(file, None, None).map_err(|e| unreadable(&e))?;
    if found != *digest {
        return Err(Rejection::mismatch(format!(
            "the source {path} has changed (its digest is not the claim's)"
        )));
    }
    match icnf_cube {
        Some(i) => source.with_cube(i).map_err(|e| unreadable(&e)),
        None => Ok(source),
    }
}

/// The board problem and bound a DIMACS file's provenance names, when its
/// projection is exactly that board's variables (a file `boardsat dimacs`
/// or `boardsat cubes` wrote with a fixed bound).
fn board_of(source: &Formula) -> BoardCheck {
    let problem = boardsat_encode::export::problem_from(|key| source.provenance(key)).ok()?;
    let text = source.provenance("bound")?.strip_suffix(" pieces")?;
    let (word, k) = text.rsplit_once(' ')?;
    let k: usize = k.parse().ok()?;
    let bound = match word {
        "at most" => Bound::AtMost(k),
        "at least" => Bound::AtLeast(k),
        "exactly" => Bound::Exactly(k),
        _ => return None,
    };
    let board: Vec<Var> = (0..problem.board.n_squares() as u32)
        .map(Var::new)
        .collect();
    (source.projection.as_deref() == Some(&board[..])).then_some((problem, bound))
}

/// Checks the witness file `models` against `source`: each model satisfies
/// every clause of it, and their projections are distinct; with
/// `blocking`, model i's projection is exactly the assignment blocking
/// clause i excludes (clause `offset + i + 1` of the claim's formula), one
/// model per clause; with `board`, each model's board variables are a
/// placement the independent checker accepts. The number of models.
pub(crate) fn check_witnesses(
    source: &Formula,
    models: &Path,
    blocking: Option<&[Vec<Lit>]>,
    board: BoardCheck,
    offset: usize,
) -> Result<u64, Rejection> {
    let file = open_regular(models)?;
    let name = models.display();
    let projection = source.projection_or_all();
    let mut seen = std::collections::HashSet::new();
    let mut count = 0usize;
    for read in witness::read_lines(file, source.n_vars) {
        let witness = read.map_err(|e| Rejection::mismatch(format!("{name}: {e}")))?;
        let at = witness.line;
        let model = &witness.model;
        if let Some(i) = falsified(&source.clauses, model) {
            return Err(Rejection::mismatch(format!(
                "{name}, line {at}: the model falsifies clause {} of the source",
                i + 1
            )));
        }
        let excluded: Vec<Lit> = projection
            .iter()
            .map(|&v| {
                if model.get(v.idx()).copied().unwrap_or(false) {
                    v.neg_lit()
                } else {
                    v.pos_lit()
                }
            })
            .collect();
        if let Some(blocking) = blocking {
            let Some(clause) = blocking.get(count) else {
                return Err(Rejection::mismatch(format!(
                    "{name} holds more models than the formula has blocking clauses ({})",
                    blocking.len()
                )));
            };
            if *clause != excluded {
                return Err(Rejection::mismatch(format!(
                    "clause {} does not block the projection of the model on line {at} of {name}",
                    offset + count + 1
                )));
            }
        }
        if !seen.insert(excluded) {
            return Err(Rejection::mismatch(format!(
                "{name}, line {at}: the model's projection is another model's"
            )));
        }
        if let Some((problem, bound)) = &board {
            check(problem, Some(*bound), &boardsat_encode::dimacs::placement(&problem.board, model)).map_err(|v| {
                Rejection::mismatch(format!("{name}, line {at}: the model's placement is not a solution of {problem} with {bound} pieces ({v})"))
            })?;
        }
        count += 1;
    }
    if let Some(blocking) = blocking {
        if count < blocking.len() {
            return Err(Rejection::mismatch(format!(
                "clause {} blocks a projected assignment with no witness in {name} ({count} models for {} blocking clauses)",
                offset + count + 1,
                blocking.len()
            )));
        }
    }
    Ok(count as u64)
}

/// The claims of a cube count must be exactly the split's cubes, each with
/// its weight and verified, and their weighted total the claimed count.
fn verify_cover(
    cover: &Cover,
    claims: &[ClaimEntry],
    verified: &BTreeSet<String>,
    facts: &BTreeMap<String, Fact>,
) -> Result<(String, CoverFact), Rejection> {
    let cubes: Vec<&ClaimEntry> = claims
        .iter()
        .filter(|c| c.kind == ClaimKind::Complete && c.cube.is_some())
        .collect();
    let unverified: Vec<&str> = cubes
        .iter()
        .filter(|c| !verified.contains(&c.name))
        .map(|c| c.name.as_str())
        .collect();
    if !unverified.is_empty() {
        return Err(Rejection::cover(format!(
            "cubes not verified: {} (the cover rests on every cube)",
            unverified.join(", ")
        )));
    }
    let (total, n_cubes) = cover_total(cover, &cubes)?;
    let boards: Vec<&BoardFact> = cubes
        .iter()
        .filter_map(|c| match facts.get(&c.name) {
            Some(Fact::Board(b)) => Some(b),
            _ => None,
        })
        .collect();
    let Some(first) = boards.first() else {
        return Err(Rejection::cover("a cover without cubes"));
    };
    if boards.len() != cubes.len()
        || boards
            .iter()
            .any(|b| b.problem != first.problem || b.k != first.k)
        || first.problem.board.rows() != cover.n
    {
        return Err(Rejection::cover(format!(
            "the cubes are not all cubes of one {}-queens count",
            cover.n
        )));
    }
    let orbits = boards
        .iter()
        .all(|b| b.symmetric)
        .then(|| boards.iter().map(|b| b.models).sum());
    let fact = CoverFact {
        problem: first.problem,
        k: first.k,
        count: total,
        orbits,
        claims: cubes.iter().map(|c| c.name.clone()).collect(),
    };
    Ok((
        format!(
            "the {n_cubes} cubes of depth {} cover every placement; weighted total {total}",
            cover.depth
        ),
        fact,
    ))
}

/// The cube claims `cubes` are exactly the cubes of `cover`'s split, each
/// with its weight, and their weighted total is its count: the total and
/// the number of cubes.
fn cover_total(cover: &Cover, cubes: &[&ClaimEntry]) -> Result<(u64, usize), Rejection> {
    let reduction = if cover.halve {
        Reduction::Halve
    } else {
        Reduction::None
    };
    let expected = queen_cubes(cover.n, cover.depth, reduction);
    let mut found: Vec<(Vec<usize>, u64, u64)> = cubes
        .iter()
        .filter_map(|c| {
            c.cube
                .as_ref()
                .map(|(cols, w)| (cols.clone(), *w, c.count.unwrap_or(0)))
        })
        .collect();
    found.sort();
    let mut want: Vec<(Vec<usize>, u64)> = expected
        .iter()
        .map(|c| (c.columns.clone(), c.weight))
        .collect();
    want.sort();
    let got: Vec<(Vec<usize>, u64)> = found.iter().map(|(c, w, _)| (c.clone(), *w)).collect();
    if got != want {
        let missing = want.iter().filter(|w| !got.contains(w)).count();
        return Err(Rejection::cover(format!(
            "the claims cover {} cubes, the split has {} ({missing} missing{})",
            got.len(),
            want.len(),
            if missing == 0 {
                ", or their weights differ"
            } else {
                ""
            }
        )));
    }
    let total = found
        .iter()
        .try_fold(0u64, |t, (_, w, c)| {
            c.checked_mul(*w).and_then(|x| t.checked_add(x))
        })
        .ok_or_else(|| Rejection::cover("the total overflows"))?;
    if total != cover.count {
        return Err(Rejection::cover(format!(
            "the cubes' weighted total is {total}, the manifest claims {}",
            cover.count
        )));
    }
    Ok((total, want.len()))
}

/// At most five names, then how many in all.
pub(crate) fn summary(names: &[String]) -> String {
    match names.len() {
        0..=5 => names.join(", "),
        n => format!("{}, … ({n} in all)", names[..5].join(", ")),
    }
}

/// The run's result, derived from the verified claims alone: the run
/// complete, every claim verified, the claims the answer needs present,
/// totals and placements checked again, nothing left over. Its sentence,
/// or what is missing.
fn derive(dir: &Path, manifest: &ProofManifest, facts: &Facts) -> Result<String, Rejection> {
    if manifest.status != RunStatus::Complete {
        return Err(Rejection::not_proven(not_complete(dir, manifest)));
    }
    let Some(result) = &manifest.result else {
        return Err(Rejection::not_proven("the MANIFEST states no result, so there is nothing to check (written by an older boardsat?)"));
    };
    if !facts.failed.is_empty() {
        return Err(Rejection::not_proven(format!(
            "{} not verified ({}), and the result needs every claim",
            plural(facts.failed.len(), "claim", "claims"),
            summary(&facts.failed)
        )));
    }
    let stray = stray_files(dir, manifest);
    if !stray.is_empty() {
        return Err(Rejection::not_proven(format!(
            "the directory holds {} the MANIFEST does not list ({}): files of another run, or a mixed directory",
            plural(stray.len(), "claim file", "claim files"),
            summary(&stray)
        )));
    }
    let mut used = BTreeSet::new();
    let sentence = answer(dir, &result.answer, facts, &mut used)?;
    let left: Vec<String> = manifest
        .claims
        .iter()
        .map(|c| c.name.clone())
        .chain(manifest.splits.iter().map(|s| s.name.clone()))
        .chain(manifest.cover.iter().map(|_| "cover".to_string()))
        .filter(|name| !used.contains(name))
        .collect();
    if !left.is_empty() {
        return Err(Rejection::not_proven(format!(
            "the result does not account for {} ({}): claims of another run, or a mixed directory",
            plural(left.len(), "claim", "claims"),
            summary(&left)
        )));
    }
    if sentence != result.sentence {
        return Err(Rejection::not_proven(format!(
            "the MANIFEST's result is not what was verified: it says '{}', the claims prove '{sentence}'",
            result.sentence
        )));
    }
    Ok(sentence)
}

/// The files of `dir` that look like a proof directory's (claims,
/// proofs, witnesses, a split's `MANIFEST`) but that `manifest` does not
/// name. Other files (a user's notes) are not the proofs' business.
fn stray_files(dir: &Path, manifest: &ProofManifest) -> Vec<String> {
    let mut named: BTreeSet<&str> = [MANIFEST_JSON, LOCK].into_iter().collect();
    for claim in &manifest.claims {
        named.extend([claim.cnf.as_str(), claim.proof.as_str()]);
        named.extend(claim.models.as_deref());
    }
    if let Some(Answer::Models { models, .. }) = manifest.result.as_ref().map(|r| &r.answer) {
        named.insert(models.as_str());
    }
    let Ok(list) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut stray: Vec<String> = list
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| {
            let looks = name.starts_with("claim-")
                || [".lrat", ".lrat.zst", ".models"]
                    .iter()
                    .any(|e| name.ends_with(e))
                || name == "MANIFEST";
            looks && !named.contains(name.as_str())
        })
        .collect();
    stray.sort();
    stray
}

/// Why a run that is not complete proves nothing as a whole.
fn not_complete(dir: &Path, manifest: &ProofManifest) -> String {
    let how = match manifest.status {
        RunStatus::Running if locked(dir) => "is still running (its lock is held)".to_string(),
        RunStatus::Running => {
            "ended without saying how (killed, or written by an older boardsat)".to_string()
        }
        status => status.words().to_string(),
    };
    let why = manifest
        .reason
        .as_ref()
        .map_or(String::new(), |r| format!(" ({r})"));
    let found = manifest.found.map_or(String::new(), |f| {
        format!(
            "; it had found {}, which its claims prove only in part",
            plural(f, "placement", "placements")
        )
    });
    if manifest.claims.is_empty() {
        return format!("the run {how}{why} before any claim was written: nothing to check{found}");
    }
    let claims = match manifest.claims.len() {
        1 => "its 1 claim proves".to_string(),
        n => format!("its {n} claims prove"),
    };
    format!("the run {how}{why}; {claims} parts of the result, not the whole{found}")
}

/// Whether a run holds the directory's lock now.
fn locked(dir: &Path) -> bool {
    let Ok(file) = open_regular(&dir.join(LOCK)) else {
        return false;
    };
    matches!(file.try_lock_shared(), Err(TryLockError::WouldBlock))
}

/// The bound one step past an optimum `value` (fewer pieces for
/// domination, more for independence), none when no placement can lie
/// past it.
fn step_past(problem: &Problem, value: usize) -> Option<usize> {
    if problem.kind.dominating() {
        value.checked_sub(1)
    } else {
        (value < problem.board.n_squares()).then_some(value + 1)
    }
}

/// A verified refutation of `problem` with `k` pieces: the claims it
/// rests on.
fn refutation(facts: &Facts, problem: &Problem, k: usize) -> Option<Vec<String>> {
    let single = facts.claims.iter().find_map(|(name, fact)| match fact {
        Fact::Board(b) if b.count.is_none() && !b.cube && b.problem == *problem && b.k == k => {
            Some(vec![name.clone()])
        }
        _ => None,
    });
    single.or_else(|| {
        facts.splits.iter().find_map(|(name, split)| {
            (split.count.is_none() && split.problem == *problem && split.k == k).then(|| {
                let mut names = split.claims.clone();
                names.push(name.clone());
                names
            })
        })
    })
}

/// The verified refutations of `problem` that an optimum refuted at
/// `refuted` implies (fewer pieces still for domination, more for
/// independence): found on the optimiser's way, accounted for.
fn implied_refutations(facts: &Facts, problem: &Problem, refuted: usize) -> Vec<String> {
    let beyond = |k: usize| {
        if problem.kind.dominating() {
            k < refuted
        } else {
            k > refuted
        }
    };
    let mut names = Vec::new();
    for (name, fact) in &facts.claims {
        if let Fact::Board(b) = fact {
            if b.count.is_none() && !b.cube && b.problem == *problem && beyond(b.k) {
                names.push(name.clone());
            }
        }
    }
    for (name, split) in &facts.splits {
        if split.count.is_none() && split.problem == *problem && beyond(split.k) {
            names.extend(split.claims.iter().cloned());
            names.push(name.clone());
        }
    }
    names
}

/// A verified count of `problem` with bound `k`.
struct Complete {
    count: u64,
    orbits: Option<u64>,
    short: bool,
    names: Vec<String>,
}

/// Every verified count of `problem` with bound `k`.
fn completes(facts: &Facts, problem: &Problem, k: usize) -> Vec<Complete> {
    let mut out = Vec::new();
    for (name, fact) in &facts.claims {
        if let Fact::Board(b) = fact {
            if let Some(count) = b
                .count
                .filter(|_| !b.cube && b.problem == *problem && b.k == k)
            {
                out.push(Complete {
                    count,
                    orbits: b.symmetric.then_some(b.models),
                    short: b.short,
                    names: vec![name.clone()],
                });
            }
        }
    }
    if let Some(cover) = facts
        .cover
        .as_ref()
        .filter(|c| c.problem == *problem && c.k == k)
    {
        let mut names = cover.claims.clone();
        names.push("cover".to_string());
        // An N-queens count has exactly n queens: short clauses miss none.
        out.push(Complete {
            count: cover.count,
            orbits: cover.orbits,
            short: false,
            names,
        });
    }
    for (name, split) in &facts.splits {
        if let Some(count) = split
            .count
            .filter(|_| split.problem == *problem && split.k == k)
        {
            let mut names = split.claims.clone();
            names.push(name.clone());
            out.push(Complete {
                count,
                orbits: split.symmetric.then_some(split.models),
                short: false,
                names,
            });
        }
    }
    out
}

/// Derives `answer` from `facts` (see [`derive`]): its sentence; the
/// claims it rests on go into `used`.
fn answer(
    dir: &Path,
    answer: &Answer,
    facts: &Facts,
    used: &mut BTreeSet<String>,
) -> Result<String, Rejection> {
    let named = |problem: &ProblemName| problem.problem().map_err(Rejection::unreadable);
    match answer {
        Answer::NoPlacement { problem, k } => {
            let problem = named(problem)?;
            let what = format!("refutes {} for {problem}", words::bounded(&problem, *k));
            used.extend(refutation(facts, &problem, *k).ok_or_else(|| missing(&what))?);
            Ok(words::no_placement(&problem, *k))
        }
        Answer::Optimum {
            problem,
            value,
            placement,
        } => optimum_answer(&named(problem)?, *value, placement, facts, used),
        Answer::Count {
            problem,
            k,
            count,
            orbits,
            optimal,
        } => {
            let problem = named(problem)?;
            let stated = Stated {
                k: *k,
                count: *count,
                orbits: *orbits,
                optimal: *optimal,
            };
            count_answer(&problem, stated, facts, used)
        }
        Answer::Placements {
            problem,
            k,
            placements,
        } => placements_answer(&named(problem)?, *k, placements),
        Answer::Unsatisfiable { source } => {
            let what = format!("proves {} unsatisfiable", source.0);
            let name = source_claim(facts, source, None, None).ok_or_else(|| missing(&what))?;
            used.insert(name);
            Ok(words::formula(&source.0))
        }
        Answer::ProjectedCount {
            source,
            icnf_cube,
            count,
        } => {
            let shown = words::source(&source.0, *icnf_cube);
            let what = format!("proves that {shown} has exactly {count} projected models");
            let name = source_claim(facts, source, *icnf_cube, Some(*count))
                .ok_or_else(|| missing(&what))?;
            used.insert(name);
            Ok(words::projected(&shown, *count))
        }
        Answer::Models {
            source,
            icnf_cube,
            count,
            models,
        } => {
            let shown = words::source(&source.0, *icnf_cube);
            let formula = read_source(Path::new(&source.0), &source.1, *icnf_cube)?;
            let path = inside(dir, models)?;
            let found = check_witnesses(&formula, &path, None, board_of(&formula), 0)?;
            if found != *count || found == 0 {
                return Err(Rejection::not_proven(format!(
                    "{} holds {}, the MANIFEST's result {count}",
                    path.display(),
                    plural(found, "model", "models")
                )));
            }
            Ok(words::models_found(&shown, found))
        }
    }
}

/// No verified claim does `what`.
fn missing(what: &str) -> Rejection {
    Rejection::not_proven(format!("no verified claim {what}"))
}

/// The claims that refute the bound one step past `k` (none when there
/// is no such step), put into `used`: the step refuted. `why` ends the
/// sentence of a missing claim ("refutes at most 4 queens…`why`").
fn refute_past(
    facts: &Facts,
    problem: &Problem,
    k: usize,
    used: &mut BTreeSet<String>,
    why: &str,
) -> Result<Option<usize>, Rejection> {
    let refuted = step_past(problem, k);
    if let Some(r) = refuted {
        let what = format!("refutes {}{why}", words::bounded(problem, r));
        used.extend(refutation(facts, problem, r).ok_or_else(|| missing(&what))?);
        used.extend(implied_refutations(facts, problem, r));
    }
    Ok(refuted)
}

/// The optimum `value` of `problem` with its `placement`: the placement
/// checked, and the refutation one step past it verified.
fn optimum_answer(
    problem: &Problem,
    value: usize,
    placement: &[[usize; 2]],
    facts: &Facts,
    used: &mut BTreeSet<String>,
) -> Result<String, Rejection> {
    let placement = placement_of(placement);
    check(problem, Some(problem.kind.bound(value)), &placement).map_err(|v| {
        Rejection::not_proven(format!("the optimum's placement is not a solution ({v})"))
    })?;
    if placement.len() != value {
        return Err(Rejection::not_proven(format!(
            "the optimum's placement has {}, not {value}",
            plural(placement.len(), "piece", "pieces")
        )));
    }
    let refuted = refute_past(facts, problem, value, used, " one step past the optimum")?;
    Ok(words::optimum(problem, value, refuted))
}

/// A count as the MANIFEST's result states it.
#[derive(Clone, Copy, Debug)]
struct Stated {
    k: usize,
    count: u64,
    orbits: Option<u64>,
    optimal: bool,
}

/// The count `stated` of `problem`: one verified count of it, with the
/// same total (and orbits), the refutation its short blocking clauses
/// need, and with an optimum the refutation one step past it.
fn count_answer(
    problem: &Problem,
    stated: Stated,
    facts: &Facts,
    used: &mut BTreeSet<String>,
) -> Result<String, Rejection> {
    let Stated {
        k,
        count,
        orbits,
        optimal,
    } = stated;
    let found = completes(facts, problem, k);
    let [complete] = found.as_slice() else {
        return Err(match found.len() {
            0 => missing(&format!(
                "counts the placements with {} for {problem}",
                words::bounded(problem, k)
            )),
            n => Rejection::not_proven(format!(
                "{n} verified counts of {problem} with {}, not one",
                words::bounded(problem, k)
            )),
        });
    };
    if complete.count != count {
        return Err(Rejection::not_proven(format!(
            "the claims count {}, the MANIFEST's result {count}",
            plural(complete.count, "placement", "placements")
        )));
    }
    if orbits.is_some() && complete.orbits != orbits {
        return Err(Rejection::not_proven(format!(
            "the claims count {} orbits, the MANIFEST's result {}",
            complete.orbits.map_or("no".to_string(), |o| o.to_string()),
            orbits.unwrap_or(0)
        )));
    }
    used.extend(complete.names.iter().cloned());
    if complete.short && matches!(problem.kind.bound(k), Bound::AtMost(_)) && k > 0 {
        // "Not all of these squares" blocks only one placement each when
        // none has fewer pieces.
        let what = format!(
            "refutes {}, which the short blocking clauses of the count need",
            words::bounded(problem, k - 1)
        );
        used.extend(refutation(facts, problem, k - 1).ok_or_else(|| missing(&what))?);
    }
    let mut past = None;
    if optimal {
        let why = format!(", which makes {k} the optimum");
        past = Some(refute_past(facts, problem, k, used, &why)?);
    }
    Ok(words::counted(problem, k, count, orbits, past))
}

/// The placements found with `k` pieces, each its own certificate:
/// distinct, and each a solution.
fn placements_answer(
    problem: &Problem,
    k: usize,
    placements: &[Vec<[usize; 2]>],
) -> Result<String, Rejection> {
    let bound = problem.kind.bound(k);
    let mut seen = BTreeSet::new();
    for (i, pairs) in placements.iter().enumerate() {
        let placement = placement_of(pairs);
        check(problem, Some(bound), &placement).map_err(|v| {
            Rejection::not_proven(format!("placement {} is not a solution ({v})", i + 1))
        })?;
        if !seen.insert(placement) {
            return Err(Rejection::not_proven(format!(
                "placement {} is listed twice",
                i + 1
            )));
        }
    }
    if placements.is_empty() {
        return Err(Rejection::not_proven("the result lists no placement"));
    }
    Ok(words::found(problem, k, placements.len()))
}

/// The verified DIMACS claim about `source` (cube `icnf_cube`) with
/// `count` projected models (none: unsatisfiable).
fn source_claim(
    facts: &Facts,
    source: &(String, String),
    icnf_cube: Option<usize>,
    count: Option<u64>,
) -> Option<String> {
    facts.claims.iter().find_map(|(name, fact)| match fact {
        Fact::Source(s) if s.source == *source && s.icnf_cube == icnf_cube && s.count == count => {
            Some(name.clone())
        }
        _ => None,
    })
}
