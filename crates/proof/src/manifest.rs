//! What a proof directory holds: `MANIFEST.json`, the claims with their
//! formulas and proofs, and for a split count the split they cover.

use boardsat_encode::Bound;
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
