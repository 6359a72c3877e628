//! Everything that can go wrong in a split, its jobs, its rounds and
//! their engines, as data: each case its own variant, worded once here.
//! A message that names a user's choice names it as a
//! [`boardsat_encode::setting::Setting`], so the caller words it
//! ([`JobsError::message`]: the command line's flags, the Python
//! package's keywords; `Display` is the library's words).

use boardsat_encode::{
    dimacs::Format,
    setting::{LibraryWords, Names, Setting},
};
use boardsat_solve::{error::SolveError, files::FileError, formula::dimacs::ReadError};

use crate::{
    layout::{LayoutError, MANIFEST},
    split::SplitError,
};

/// Why a split could not be written, a job run, its rounds driven, or
/// its answers merged.
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
    /// The directory cannot take a split, or something in it is not what
    /// a split writes.
    #[error(transparent)]
    Layout(#[from] LayoutError),
    /// A split that cannot be made, or a spec that cannot be read.
    #[error(transparent)]
    Split(#[from] SplitError),
    /// A count, or the formula it reads, failed.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// A job's cube file could not be read.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// The directory has no manifest: it is no split.
    #[error("{}", self.message(&LibraryWords))]
    NoManifest {
        /// The directory.
        dir: String,
    },
    /// The manifest is not one a split writes.
    #[error("{MANIFEST} of {dir}: {problem}")]
    Manifest {
        /// The split's directory.
        dir: String,
        /// What is wrong.
        problem: ManifestProblem,
    },
    /// A cube file and the manifest's spec disagree on lex-leader
    /// constraints.
    #[error("{}", lex_leader(file, *carries))]
    LexLeader {
        /// The cube file.
        file: String,
        /// Whether the file carries the constraints (the spec says the
        /// opposite).
        carries: bool,
    },
    /// The weighted total does not fit 64 bits.
    #[error("the weighted total overflows")]
    Overflow,
    /// A program path `jobs.txt` cannot quote.
    #[error("the path '{program}' has characters jobs.txt cannot quote; set BOARDSAT when running the jobs")]
    Unquotable {
        /// The path.
        program: String,
    },
    /// A job budget for a split that is not of domination.
    #[error("{}", self.message(&LibraryWords))]
    BudgetNotDomination,
    /// Cubes asked in a format that is not cnf or icnf.
    #[error("cubes are written as cnf or icnf, not {0}")]
    CubeFormat(Format),
    /// A job id that is neither a cube of the manifest nor a piece of an
    /// answered job.
    #[error("the split in {dir} has no cube '{id}' (its MANIFEST lists the cubes, and a split job's answer its pieces)")]
    UnknownJob {
        /// The split's directory.
        dir: String,
        /// The id.
        id: String,
    },
    /// A piece whose parent has no valid answer.
    #[error("job {id} is a piece of {parent}, which has no valid answer in {dir}")]
    NoParentAnswer {
        /// The piece's id.
        id: String,
        /// Its parent's.
        parent: String,
        /// The split's directory.
        dir: String,
    },
    /// A cube whose id or file is not a plain name inside the split.
    #[error("{dir}: the cube '{id}' of file '{file}' is not a name inside the split")]
    NotAName {
        /// The split's directory.
        dir: String,
        /// The cube's id.
        id: String,
        /// Its file.
        file: String,
    },
    /// A job's cube cannot be made from its description or spec.
    #[error("job {id}: {}", error.message(&LibraryWords))]
    JobCube {
        /// The job's id.
        id: String,
        /// Why.
        error: SplitError,
    },
    /// A job split past its budget in a split without a spec.
    #[error("job {0}: the split has no spec")]
    NoSpec(String),
    /// A cube file that is not the one the manifest lists.
    #[error("{source_file} is not the file the MANIFEST lists for {id} (its digest differs): the split changed after it was written")]
    ChangedFile {
        /// The file.
        source_file: String,
        /// The job's id.
        id: String,
    },
    /// A job's cube file is missing.
    #[error("{source_file}: the cube file of {id} is missing")]
    MissingCubeFile {
        /// The file.
        source_file: String,
        /// The job's id.
        id: String,
    },
    /// An answer that could not be turned into JSON.
    #[error("cannot write {path}: {reason}")]
    Serialize {
        /// The answer's file.
        path: String,
        /// Why.
        reason: String,
    },
    /// A job's cube file could not be read (its name).
    #[error("{file}: {}", error.message(&LibraryWords))]
    ReadCube {
        /// The file.
        file: String,
        /// Why.
        error: ReadError,
    },
    /// A job of a split with proofs, run without a prover.
    #[error("job {0} proves its count, and no prover was given")]
    NoProver(String),
    /// A job's proof could not be made (the prover's error, kept whole).
    #[error(transparent)]
    Proof(Box<dyn std::error::Error + Send + Sync>),
    /// A round of no job.
    #[error("no job is left to run")]
    NothingToRun,
    /// Another process runs the same job now.
    #[error("job {id} in {dir} is already running in another process{}; nothing was done", pid(*holder))]
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
    #[error("the rounds are not the split's: job {id}: {problem}")]
    Round {
        /// The job whose pieces are wrong.
        id: String,
        /// What is wrong.
        problem: RoundProblem,
    },
    /// An engine could not run a round.
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// A split could not be estimated.
    #[error(transparent)]
    Estimate(#[from] EstimateError),
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

impl JobsError {
    /// The message, with the settings it names worded by `names` (its
    /// `Display` is the library's words).
    #[must_use]
    pub fn message(&self, names: &dyn Names) -> String {
        match self {
            JobsError::Layout(e) => e.message(names),
            JobsError::Split(e) => e.message(names),
            JobsError::Solve(e) => e.message(names),
            JobsError::Read(e) => e.message(names),
            JobsError::NoManifest { dir } => format!(
                "{dir} has no {MANIFEST} (not a {} directory)",
                names.name(Setting::Split, None)
            ),
            JobsError::BudgetNotDomination => format!(
                "a job budget re-splits the cubes of domination splits only ({} domination N {} K {})",
                names.name(Setting::Split, None),
                names.name(Setting::Pieces, None),
                names.name(Setting::JobBudget, Some("SECONDS")),
            ),
            JobsError::JobCube { id, error } => format!("job {id}: {}", error.message(names)),
            JobsError::ReadCube { file, error } => format!("{file}: {}", error.message(names)),
            JobsError::Engine(e) => e.message(names),
            JobsError::Estimate(e) => e.message(names),
            other => other.to_string(),
        }
    }

    /// Whether the job asked for is run by another process now: the
    /// error a caller may report as "busy" rather than as a failure.
    #[must_use]
    pub fn is_running(&self) -> bool {
        matches!(self, JobsError::Running { .. })
    }
}

impl From<std::io::Error> for JobsError {
    fn from(e: std::io::Error) -> Self {
        JobsError::Dir {
            action: "write",
            path: String::new(),
            reason: boardsat_solve::files::describe(&e),
        }
    }
}

impl From<boardsat_encode::EncodeError> for JobsError {
    fn from(e: boardsat_encode::EncodeError) -> Self {
        JobsError::Solve(e.into())
    }
}

/// ` (pid N)` when the holder of a lock says who it is.
fn pid(holder: Option<u32>) -> String {
    holder.map_or(String::new(), |pid| format!(" (pid {pid})"))
}

fn lex_leader(file: &str, carries: bool) -> String {
    if carries {
        format!("{file} ends with lex-leader constraints (its models are orbit representatives), but the MANIFEST's spec has no 'lex=lines-first': the split and its MANIFEST disagree, and no total can be summed")
    } else {
        format!("the MANIFEST's spec says 'lex=lines-first', but {file} carries no lex-leader constraints: the split and its MANIFEST disagree, and no total can be summed")
    }
}

/// What is wrong with a manifest.
#[derive(Debug, thiserror::Error)]
pub enum ManifestProblem {
    /// One line is wrong (numbered from 1).
    #[error("line {line}: {problem}")]
    Line {
        /// The line's number.
        line: usize,
        /// What is wrong with it.
        problem: LineProblem,
    },
    /// No `# split` line.
    #[error("no '# split' line (written by an older boardsat?)")]
    NoSplitLine,
    /// No `# cubes` line.
    #[error("no '# cubes' line")]
    NoCubesLine,
    /// The cubes listed are not the number declared, or none.
    #[error("it declares {declared} cubes and lists {listed}")]
    Declared {
        /// The `# cubes` line's number.
        declared: usize,
        /// The cube lines.
        listed: usize,
    },
    /// A budget in a split that is not of domination.
    #[error("a '# budget' line without a domination split's '# spec' line")]
    BudgetWithoutSpec,
}

/// What is wrong with one line of a manifest.
#[derive(Debug, thiserror::Error)]
pub enum LineProblem {
    /// A line of no known shape (the line).
    #[error("'{0}'")]
    Unknown(String),
    /// A `# spec` line that is not a spec.
    #[error("{0}")]
    Spec(SplitError),
    /// No such proof format (the name).
    #[error("no proof format '{0}' (lrat or lrat-binary)")]
    ProofFormat(String),
    /// No such proof compression (the name).
    #[error("no proof compression '{0}' (none or zstd)")]
    Compression(String),
    /// A `# budget` line without its seconds.
    #[error("no seconds")]
    NoSeconds,
    /// A budget that is not a positive number of seconds (the word).
    #[error("the budget '{0}' is not a positive number of seconds")]
    BudgetSeconds(String),
    /// A max depth that is not a number (the word).
    #[error("the max depth '{0}' is not a number")]
    MaxDepth(String),
    /// Words after the budget (the words).
    #[error("'{0}' after the budget")]
    AfterBudget(String),
    /// A cube index that is not a number (the word).
    #[error("bad cube index '{0}'")]
    CubeIndex(String),
    /// A weight that is not a positive integer (the word).
    #[error("the weight '{0}' is not a positive integer")]
    Weight(String),
    /// A cube listed twice (its id).
    #[error("cube {0} is listed twice")]
    Twice(String),
    /// A piece's id as a cube's (the id).
    #[error("the id {0} is a piece's (an id and '.NN'), not a cube's")]
    PieceId(String),
    /// One cube under two ids.
    #[error("cube {id} counts {what}, which {other} already counts")]
    SameCube {
        /// The cube's id.
        id: String,
        /// What it counts (`cube 3 of cubes.icnf`, a file).
        what: String,
        /// The cube listed before that counts it.
        other: String,
    },
}

/// What is wrong with the pieces a job's answer lists.
#[derive(Debug, thiserror::Error)]
pub enum RoundProblem {
    /// Pieces in a split without a budget.
    #[error("its answer lists pieces, but the split has no job budget")]
    NoBudget,
    /// The job's cube cannot be made.
    #[error("{0}")]
    Cube(SolveError),
    /// Pieces of a job that is never split.
    #[error("only domination jobs are split")]
    NotDomination,
    /// A cube with no ring left to split (within the max depth).
    #[error("its cube {cube} has no ring left to split{}", max_depth.map_or(String::new(), |d| format!(" within the max depth {d}")))]
    NoRingLeft {
        /// The cube.
        cube: String,
        /// The budget's max depth.
        max_depth: Option<usize>,
    },
    /// A piece listed twice (its id).
    #[error("piece {0} is listed twice")]
    Twice(String),
    /// A piece that is not one of the cube's (its id).
    #[error("{0} is not a piece of its cube")]
    NotAPiece(String),
    /// A piece with another cube than the spec's.
    #[error("piece {piece} is the cube {listed}, the spec's is {expected}")]
    WrongCube {
        /// The piece's id.
        piece: String,
        /// Its cube as listed.
        listed: String,
        /// The spec's.
        expected: String,
    },
    /// A piece with another weight than the spec's.
    #[error("piece {piece} has weight {listed}, the spec's {expected}")]
    Weight {
        /// The piece's id.
        piece: String,
        /// Its weight as listed.
        listed: u64,
        /// The spec's.
        expected: u64,
    },
    /// A piece with another file than its own.
    #[error("piece {piece}'s file is '{file}', not {piece}.cnf")]
    File {
        /// The piece's id.
        piece: String,
        /// Its file as listed.
        file: String,
    },
    /// A piece missing.
    #[error("its pieces lack {missing} (its cube has {pieces} pieces)")]
    Lacks {
        /// The first piece missing.
        missing: String,
        /// The pieces of the cube.
        pieces: usize,
    },
}

/// Why an engine could not run a round.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The engine's program is not on the `PATH`.
    #[error("the {engine} engine needs '{program}' on the PATH")]
    NotOnPath {
        /// The engine's name.
        engine: &'static str,
        /// Its program.
        program: &'static str,
    },
    /// GNU parallel's ssh login file is not a readable file.
    #[error("the ssh login file {0} is not a readable file")]
    SshLoginFile(String),
    /// The engine's program could not be started.
    #[error("cannot run {program}: {reason}")]
    Spawn {
        /// The program, in words.
        program: &'static str,
        /// Why.
        reason: String,
    },
    /// The engine's program could not be waited for.
    #[error("{0} could not be waited for")]
    NotWaited(&'static str),
    /// The split's Slurm script is missing.
    #[error("{}", self.message(&LibraryWords))]
    NoScript(String),
    /// The scheduler refused a round.
    #[error("sbatch did not take round {round}: {reason}")]
    Refused {
        /// The round.
        round: usize,
        /// The scheduler's first line.
        reason: String,
    },
    /// A file of the engine's could not be written, read or locked.
    #[error("cannot {action} {path}: {reason}")]
    Io {
        /// What was being done.
        action: &'static str,
        /// The path.
        path: String,
        /// Why.
        reason: String,
    },
    /// Another process drives the split's rounds now.
    #[error("{}", self.message(&LibraryWords))]
    Driven {
        /// The split's directory.
        dir: String,
        /// The process that drives it, when it says.
        holder: Option<u32>,
    },
}

impl EngineError {
    /// The message, with the settings it names worded by `names`.
    #[must_use]
    pub fn message(&self, names: &dyn Names) -> String {
        match self {
            EngineError::NoScript(path) => format!(
                "{path} is missing: {} writes it with the split",
                names.name(Setting::Split, None)
            ),
            EngineError::Driven { dir, holder } => format!(
                "another {}{} drives the split in {dir} now; nothing was done",
                names.name(Setting::Rounds, None),
                pid(*holder)
            ),
            other => other.to_string(),
        }
    }
}

/// Why a split could not be estimated.
#[derive(Debug, thiserror::Error)]
pub enum EstimateError {
    /// A split of one cube.
    #[error("nothing is split: the split has {0} cube; a deeper split has more")]
    NothingSplit(usize),
    /// A sample of 0.
    #[error("an estimate needs at least one cube to solve (a sample of 0)")]
    EmptySample,
    /// A refutation of a split that has no bound.
    #[error("only a domination split (with its bound k) refutes anything")]
    NotRefutable,
    /// An in-process estimate of a split that is not run in-process.
    #[error("only domination with its bound k on a square board is split in-process")]
    NotInProcess,
    /// A refutation of a bound that a placement the checker accepts
    /// meets.
    #[error("there is nothing to refute: {found_by} found a placement of {pieces} for {problem} that the checker accepts ({placement})")]
    NothingToRefute {
        /// What found it.
        found_by: String,
        /// Its pieces, in words.
        pieces: String,
        /// The problem.
        problem: String,
        /// The placement.
        placement: String,
    },
    /// Solving a cube failed.
    #[error(transparent)]
    Solve(#[from] SolveError),
}

impl EstimateError {
    /// The message, with the settings it names worded by `names`.
    #[must_use]
    pub fn message(&self, names: &dyn Names) -> String {
        match self {
            EstimateError::Solve(e) => e.message(names),
            other => other.to_string(),
        }
    }
}
