//! What a proof directory holds: `MANIFEST.json`, the claims with their
//! formulas and proofs, and for a split count the split they cover.

use boardsat_encode::{Bound, Symmetry};
use serde::{Deserialize, Serialize};

/// The manifest's name inside a proof directory.
pub const MANIFEST_JSON: &str = "MANIFEST.json";

/// What a proof directory holds: the claims and, for a cube count, the
/// split whose cubes they cover.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ProofManifest {
    /// `boardsat <version>`.
    pub tool: String,
    /// The command that made the proofs.
    pub command: String,
    /// The claims, in the order they were proven.
    pub claims: Vec<ClaimEntry>,
    /// For a count split into cubes: what the cubes are and the total.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cover: Option<Cover>,
    /// Domination splits whose cubes' claims prove one answer together.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub splits: Vec<SplitEntry>,
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
