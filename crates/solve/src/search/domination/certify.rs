//! Where the solvers of a domination split certify their answers: each cube's solver
//! traces an LRAT proof of its own work ([`crate::backend::TraceProof`]),
//! and what it proved goes to a [`Certify`] — `boardsat-proof`'s prover,
//! which writes the claims and the split they cover. Search decides what
//! is proven; the certifier decides where and how it is written down.

use std::path::PathBuf;

use boardsat_encode::{Config, Encoding, Placement, Problem, Symmetry};

use crate::{
    backend::trace::{LratFormat, TraceSummary},
    error::SolveError,
    search::{count::Blocking, domination::lines::LineCube, lex::LexOrder},
};

/// What a split's cubes prove together.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Purpose {
    /// No placement exists: every cube refuted.
    Refute,
    /// The placements blocked, in every cube, are all there are.
    Count(Blocking),
}

/// A split whose cubes are certified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitInfo {
    /// The problem.
    pub problem: Problem,
    /// Its encodings.
    pub config: Config,
    /// At most `k` pieces.
    pub k: usize,
    /// What the cubes prove.
    pub purpose: Purpose,
    /// The lex-leader order under each cube's stabilizer, if any.
    pub symmetry: Option<LexOrder>,
}

/// Where one cube's formula and proof go, and the formula's header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CubeFiles {
    /// The formula (DIMACS).
    pub formula: PathBuf,
    /// Its LRAT proof.
    pub proof: PathBuf,
    /// The formula's `c` lines.
    pub header: Vec<String>,
    /// The proof's format.
    pub format: LratFormat,
}

/// A cube proven: its answer and the files that prove it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CubeProof {
    /// The cube.
    pub cube: LineCube,
    /// Its orbit's size under the board's symmetries.
    pub orbit: u64,
    /// Its stabilizer (the group its lex-leader constraints break).
    pub stabilizer: Vec<Symmetry>,
    /// The placements found (none for a refutation), each a lex leader
    /// under the stabilizer with symmetry breaking.
    pub placements: Vec<Placement>,
    /// The placements weighted by orbit size (with symmetry breaking).
    pub count: u64,
    /// The files.
    pub files: CubeFiles,
    /// What the trace wrote.
    pub trace: TraceSummary,
}

/// How a certified split ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SplitEnd {
    /// Every cube was proven.
    Complete,
    /// A refutation met a placement: its cubes' claims prove nothing.
    Satisfiable,
    /// Stopped (a signal, the time limit): the cubes proven so far stand.
    Stopped,
}

/// Takes the proofs of a split's cubes (see the module doc). Called from
/// the worker threads.
pub trait Certify: Sync {
    /// A split begins: its number, for the calls below.
    ///
    /// # Errors
    ///
    /// The certifier's (a manifest that cannot be written).
    fn begin(&self, split: &SplitInfo) -> Result<usize, SolveError>;

    /// The files cube `cube` of split `split` writes, its solver's
    /// encoding given.
    fn files(
        &self,
        split: usize,
        cube: &LineCube,
        stabilizer: &[Symmetry],
        encoding: &Encoding,
    ) -> CubeFiles;

    /// A cube's answer, proven by the files written.
    ///
    /// # Errors
    ///
    /// The certifier's.
    fn proven(&self, split: usize, proof: CubeProof) -> Result<(), SolveError>;

    /// The split ended.
    ///
    /// # Errors
    ///
    /// The certifier's.
    fn end(&self, split: usize, end: SplitEnd) -> Result<(), SolveError>;
}
