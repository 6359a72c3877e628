//! The JSON of `boardsat cubes`, `cubes --estimate` and `merge`: typed
//! structs, one per report.

use serde::Serialize;

/// `cubes`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CubesReport {
    /// `cubes`.
    pub command: &'static str,
    /// The split's directory.
    pub dir: String,
    /// Cubes written.
    pub cubes: usize,
    /// `cnf` (one DIMACS file per cube) or `icnf`.
    pub format: &'static str,
}

/// One cube `cubes --estimate` solved.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SampledReport {
    /// The cube's id.
    pub id: String,
    /// Its projected time in seconds: its solver's wall time when solved
    /// whole, else its piece's times `pieces`.
    pub seconds: f64,
    /// Projected models found.
    pub count: u64,
    /// Whether it, or the piece it is projected from, was solved to the
    /// end (not stopped by `--cube-limit`).
    pub complete: bool,
    /// How many pieces the piece solved stands for (1: solved whole).
    pub pieces: u64,
    /// The piece solved, as ring lines (`r0+r18-c0-c18+…`).
    pub piece: String,
    /// Wall seconds spent on the cube and its pieces.
    pub spent_seconds: f64,
}

impl From<&crate::estimate::Sampled> for SampledReport {
    fn from(s: &crate::estimate::Sampled) -> Self {
        SampledReport {
            id: s.id.clone(),
            seconds: s.seconds,
            count: s.count,
            complete: s.complete,
            pieces: s.pieces,
            piece: s.piece.clone(),
            spent_seconds: s.spent,
        }
    }
}

/// `cubes --estimate`: the projected CPU time of a split.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EstimateReport {
    /// `cubes`.
    pub command: &'static str,
    /// Cubes of the split.
    pub cubes: usize,
    /// The cubes solved, in the order drawn.
    pub sampled: Vec<SampledReport>,
    /// The projected CPU time of every cube, in seconds.
    pub projected_seconds: f64,
    /// Its 95 % interval; `null` from a sample of one cube, whose spread
    /// is unknown.
    pub interval: Option<[f64; 2]>,
    /// Whether a sampled cube, down to its last ring, reached
    /// `--cube-limit`: the projection and its interval are then lower
    /// bounds.
    pub lower_bound: bool,
    /// The longest cube sampled.
    pub longest: Option<SampledReport>,
    /// The seed of the random choice.
    pub seed: u64,
}

impl EstimateReport {
    /// The report of `estimate`, drawn with `seed`.
    #[must_use]
    pub fn new(estimate: &crate::estimate::Estimate, seed: u64) -> Self {
        EstimateReport {
            command: "cubes",
            cubes: estimate.cubes,
            sampled: estimate.sampled.iter().map(SampledReport::from).collect(),
            projected_seconds: estimate.total,
            interval: estimate.interval.map(|(low, high)| [low, high]),
            lower_bound: estimate.lower_bound,
            longest: estimate.longest().map(SampledReport::from),
            seed,
        }
    }
}

/// `merge`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MergeReport {
    /// `merge`.
    pub command: &'static str,
    /// The weighted total.
    pub count: u128,
    /// Cubes answered.
    pub cubes: usize,
    /// Whether the split and every cube's proof were verified
    /// (`--verify`).
    pub verified: bool,
}
