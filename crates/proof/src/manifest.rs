//! What a proof directory holds: `MANIFEST.json`, the claims with their
//! formulas and proofs, and for a split count the split they cover.

use boardsat_encode::{Bound, Placement, Problem, Square, Symmetry};
use boardsat_solve::files::proof_dir;
use serde::{Deserialize, Serialize};

/// The manifest's name inside a proof directory.
pub const MANIFEST_JSON: &str = proof_dir::MANIFEST;

/// The lock file of a proof directory: held by the run that writes it
/// (a second run into the same directory refuses at once); never a claim,
/// and never a reason to call the directory not empty.
pub const LOCK: &str = proof_dir::LOCK;

/// The models found by a run whose result needs no proof (a satisfiable
/// `solve-dimacs`, a `count-dimacs` that reached its limit), one per line
/// as a witness file is.
pub const FOUND_MODELS: &str = proof_dir::FOUND_MODELS;

/// What a proof directory holds: how the run ended, what it claims as a
/// whole, the claims and, for a cube count, the split whose cubes they
/// cover.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ProofManifest {
    /// `boardsat <version>`.
    pub tool: String,
    /// The command that made the proofs.
    pub command: String,
    /// What the run proves, in words ([`crate::prover::Task`]): a run
    /// that resumes the directory must prove the same. Absent in
    /// manifests written before runs recorded it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<String>,
    /// How the run ended (`running` while it writes).
    #[serde(default)]
    pub status: RunStatus,
    /// Why the run stopped or failed, when it did; for a complete run
    /// without claims, why nothing needed a proof.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// A count stopped before its end: the placements (orbit-weighted)
    /// it had found and printed, a lower bound that its claims prove only
    /// in part (a stopped split's sentence says what its proven cubes
    /// hold).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub found: Option<u64>,
    /// The claims, in the order they were proven.
    pub claims: Vec<ClaimEntry>,
    /// For a count split into cubes: what the cubes are and the total.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cover: Option<Cover>,
    /// Domination splits whose cubes' claims prove one answer together.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub splits: Vec<SplitEntry>,
    /// What the run claims as a whole, once it is complete.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<RunResult>,
}

/// How the run that wrote a proof directory ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RunStatus {
    /// The run ended with its result, every claim it needs written.
    Complete,
    /// The run is writing the directory (or was killed before it could
    /// say how it ended).
    #[default]
    Running,
    /// Stopped by `--time-limit`.
    TimeLimit,
    /// Stopped by a signal.
    Interrupted,
    /// Ended without a result: an error, or a solver that gave up.
    Failed,
}

impl RunStatus {
    /// How the run ended, after "the run": `is complete`, `was stopped
    /// by the time limit`, ….
    #[must_use]
    pub fn words(self) -> &'static str {
        match self {
            RunStatus::Complete => "is complete",
            RunStatus::Running => "is running",
            RunStatus::TimeLimit => "was stopped by the time limit",
            RunStatus::Interrupted => "was interrupted",
            RunStatus::Failed => "failed",
        }
    }
}

/// What a run claims as a whole: the answer, and its sentence as the
/// prover wrote it (`verify` derives the sentence again from what it
/// checked and never prints this one).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunResult {
    /// The answer.
    #[serde(flatten)]
    pub answer: Answer,
    /// The answer in words.
    pub sentence: String,
}

/// What a run answered, with what `verify` needs to derive it again.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Answer {
    /// No placement with `k` pieces (`solve -k K`, unsatisfiable).
    NoPlacement {
        /// The problem.
        problem: ProblemName,
        /// The bound's k.
        k: usize,
    },
    /// The optimum: `value` pieces, a placement with that many, and (for
    /// the claims) the bound one step past it refuted.
    Optimum {
        /// The problem.
        problem: ProblemName,
        /// The optimal number of pieces.
        value: usize,
        /// A placement with `value` pieces, `[row, col]` pairs.
        placement: Vec<[usize; 2]>,
    },
    /// The number of placements with bound `k`.
    Count {
        /// The problem.
        problem: ProblemName,
        /// The bound's k.
        k: usize,
        /// The placements.
        count: u64,
        /// With symmetry breaking: the orbits counted.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        orbits: Option<u64>,
        /// Whether `k` is the optimum (a count without -k): the bound one
        /// step past it must be refuted too.
        optimal: bool,
    },
    /// Placements found, each its own certificate (a satisfiable `solve`,
    /// a count or listing that reached its limit): at least these.
    Placements {
        /// The problem.
        problem: ProblemName,
        /// The bound's k.
        k: usize,
        /// The placements, `[row, col]` pairs each.
        placements: Vec<Vec<[usize; 2]>>,
    },
    /// A DIMACS file is unsatisfiable.
    Unsatisfiable {
        /// The file (absolute path) and its digest.
        source: (String, String),
    },
    /// The projected models of a DIMACS file (one cube of an iCNF file).
    ProjectedCount {
        /// The file (absolute path) and its digest.
        source: (String, String),
        /// The iCNF cube.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        icnf_cube: Option<usize>,
        /// The projected models.
        count: u64,
    },
    /// Models of a DIMACS file found, each its own certificate (a
    /// satisfiable `solve-dimacs`, a `count-dimacs` that reached its
    /// limit): at least this many projected models, witnessed in
    /// [`FOUND_MODELS`].
    Models {
        /// The file (absolute path) and its digest.
        source: (String, String),
        /// The iCNF cube.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        icnf_cube: Option<usize>,
        /// The models found.
        count: u64,
        /// The witness file, relative to the directory.
        models: String,
    },
}

/// A problem as a claim formula's provenance lines name it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProblemName {
    /// `domination`, `independence`, `independent-domination`.
    pub problem: String,
    /// `8x8`.
    pub board: String,
    /// `queen`, ….
    pub piece: String,
}

impl ProblemName {
    /// The name of `problem`.
    #[must_use]
    pub fn of(problem: &Problem) -> Self {
        ProblemName {
            problem: problem.kind.to_string(),
            board: problem.board.to_string(),
            piece: problem.piece.to_string(),
        }
    }

    /// The problem it names.
    ///
    /// # Errors
    ///
    /// A message naming the field that names no problem.
    pub fn problem(&self) -> Result<Problem, String> {
        boardsat_encode::export::problem_from(|key| match key {
            "problem" => Some(self.problem.as_str()),
            "board" => Some(self.board.as_str()),
            "piece" => Some(self.piece.as_str()),
            _ => None,
        })
    }
}

/// A placement as `[row, col]` pairs.
#[must_use]
pub fn pairs(placement: &Placement) -> Vec<[usize; 2]> {
    placement
        .squares()
        .iter()
        .map(|sq| [sq.row, sq.col])
        .collect()
}

/// The placement of `[row, col]` pairs.
#[must_use]
pub fn placement_of(pairs: &[[usize; 2]]) -> Placement {
    Placement::new(pairs.iter().map(|&[r, c]| Square::new(r, c)).collect())
}

/// A domination split: its cubes' claims (each naming it) together prove
/// that no placement exists, or that the placements they block are all
/// there are.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SplitEntry {
    /// `split-0`, …
    pub name: String,
    /// What the cubes prove together.
    pub purpose: SplitPurpose,
    /// At most k pieces.
    pub k: usize,
    /// `complete` (every cube proven), `running`, or `stopped` (the
    /// cubes proven so far are listed).
    pub status: String,
    /// The claim of the whole split, in words (verify derives it again).
    pub claim: String,
    /// For a count: the placements of all cubes, orbit-weighted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u64>,
    /// For a count with symmetry breaking: the orbits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fundamental: Option<u64>,
    /// What makes two runs' splits the same split, so that a resumed run
    /// takes over this one's cubes only for the same problem, bound,
    /// purpose and symmetry breaking (`count --resume`); not part of any
    /// claim, and absent from manifests written before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
}

/// What a split's cubes prove together.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SplitPurpose {
    /// No placement with at most k pieces.
    Refute,
    /// The count of the placements with at most k pieces.
    Count,
}

/// A claim's cube in a domination split.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SplitCube {
    /// The split's name.
    pub split: String,
    /// The rings the cube fixes (from the edge in; from the middle out in proofs written before).
    pub depth: usize,
    /// Which of their lines are occupied (`r8+c8-`).
    pub cube: String,
    /// How many cubes its orbit holds under the board's symmetries.
    pub orbit: u64,
    /// The symmetries its lex-leader constraints break (its stabilizer).
    pub stabilizer: Vec<String>,
    /// Solver models (orbits) it counted.
    #[serde(default)]
    pub models: u64,
    /// Milliseconds its solver took, from loading the cube to its answer
    /// (absent in proofs written before it was recorded): where a split's
    /// time went, for planning the next one. Not part of any claim.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub millis: Option<u64>,
    /// Milliseconds of CPU time its solver took (where the kernel gives a
    /// thread's CPU time; absent before it was recorded): the cube's cost
    /// on a machine shared with other work, which `millis` is not. Not
    /// part of any claim.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_millis: Option<u64>,
}

/// The cubes of an N-queens count: the claims' cubes must be exactly these.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cover {
    /// The board size.
    pub n: usize,
    /// Rows fixed per cube.
    pub depth: usize,
    /// Whether mirror halving chose the cubes (and their weights).
    pub halve: bool,
    /// The claimed total: Σ cube weight × cube count.
    pub count: u64,
}

/// What a claim says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ClaimKind {
    /// No placement with the formula's bound exists.
    NoPlacement,
    /// The placements blocked in the formula are all there are.
    Complete,
    /// The source DIMACS file is unsatisfiable.
    Formula,
    /// The projected models blocked in the formula are all there are.
    ProjectedComplete,
}

/// One claim of a [`ProofManifest`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClaimEntry {
    /// `claim-0000`, …: the stem of its files.
    pub name: String,
    /// The claim in words.
    pub claim: String,
    /// What it is.
    pub kind: ClaimKind,
    /// The formula, relative to the directory.
    pub cnf: String,
    /// The proof, relative to the directory.
    pub proof: String,
    /// `lrat`.
    pub format: String,
    /// What the proof alone does not establish.
    pub relies_on: Vec<String>,
    /// For completeness claims: the count (weighted by orbit size under
    /// symmetry breaking).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u64>,
    /// For a cube of a cube count: its queens' columns, and its weight.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cube: Option<(Vec<usize>, u64)>,
    /// For DIMACS claims: the source file (absolute path) and its digest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<(String, String)>,
    /// For a DIMACS claim on one cube of an iCNF source: the cube's index.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icnf_cube: Option<usize>,
    /// For a projected count of a DIMACS file: the witness file, one
    /// model per blocking clause, in their order (`claim-NNNN.models`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub models: Option<String>,
    /// The size of the proof file in bytes.
    pub proof_bytes: u64,
    /// For a cube of a domination split: which.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub split: Option<SplitCube>,
}

/// A bound as a claim formula's structured `c boardsat-bound` line reads
/// it: `at-most 4`, `at-least 5`, `exactly 8`.
#[must_use]
pub fn bound_tag(bound: Bound) -> String {
    match bound {
        Bound::AtMost(k) => format!("at-most {k}"),
        Bound::AtLeast(k) => format!("at-least {k}"),
        Bound::Exactly(k) => format!("exactly {k}"),
    }
}

/// The bound of a `c boardsat-bound` line ([`bound_tag`]).
#[must_use]
pub fn parse_bound_tag(tag: &str) -> Option<Bound> {
    let (kind, k) = tag.split_once(' ')?;
    let k = k.parse().ok()?;
    match kind {
        "at-most" => Some(Bound::AtMost(k)),
        "at-least" => Some(Bound::AtLeast(k)),
        "exactly" => Some(Bound::Exactly(k)),
        _ => None,
    }
}

/// The tag of the lex-leader order a cube's formula holds.
pub const LINES_FIRST: &str = "lines-first";

/// A symmetry's name in a cube's formula and the manifest.
#[must_use]
pub fn symmetry_name(sym: Symmetry) -> String {
    format!("{sym:?}")
}
