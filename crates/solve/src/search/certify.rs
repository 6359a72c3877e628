//! Where the solvers of a domination split certify their answers: each
//! cube's solver traces a proof of its own work into a sink the certifier
//! gives it ([`crate::backend::TraceProof`], [`ProofSink`]) with a
//! [`Ticket`] naming it, and what it proved goes back to the [`Certify`]
//! with that ticket — `boardsat-proof`'s prover, which keeps the trace
//! behind each sink and writes the formula, its LRAT proof, the claims and
//! the split they cover. Search decides what is proven; the certifier
//! decides where and how it is written down.

use boardsat_encode::{Config, Encoding, Placement, Problem, Symmetry};

use crate::{
    backend::ProofSink,
    error::SolveError,
    search::{count::Blocking, lex::LexOrder, rings::LineCube},
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

/// Names the trace behind a sink a certifier gave ([`Certify::sink`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Ticket(pub u64);

/// A cube proven: its answer and the trace that proves it.
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
    /// The encoding the cube's solver ran on (its facts, for the
    /// formula's provenance).
    pub encoding: Encoding,
    /// The ticket of the sink [`Certify::sink`] gave the cube's solver,
    /// which traced into it every clause it got, in order, and what it
    /// derived (the solver has stopped tracing).
    pub trace: Ticket,
    /// How long the cube took, from loading its formula to its answer
    /// (an attempt abandoned to split the cube again is not in it: its
    /// pieces record their own).
    pub elapsed: std::time::Duration,
    /// The CPU time of the cube's solver, where the kernel gives it
    /// ([`crate::stop::thread_cpu`]): what the cube costs, whatever else
    /// ran beside it.
    pub cpu: Option<std::time::Duration>,
}

impl std::fmt::Debug for CubeProof {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CubeProof")
            .field("cube", &self.cube)
            .field("orbit", &self.orbit)
            .field("count", &self.count)
            .field("elapsed", &self.elapsed)
            .finish_non_exhaustive()
    }
}

/// A cube of a split that an earlier run proved, into the same directory,
/// before it was stopped ([`Certify::proven_before`]): a resumed split
/// takes its answer instead of solving it again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProvenCube {
    /// Rings fixed ([`LineCube::depth`]).
    pub depth: usize,
    /// The cube as [`LineCube`] writes it (`r0-r14-c0+c14-`).
    pub cube: String,
    /// Its weighted count (0 for a refutation).
    pub count: u64,
    /// Its solver models.
    pub models: u64,
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

    /// A fresh sink for one cube's solver to trace into, and the ticket
    /// its proof comes back with.
    ///
    /// # Errors
    ///
    /// The certifier's (a temporary file that cannot be made).
    fn sink(&self) -> Result<(Ticket, Box<dyn ProofSink>), SolveError>;

    /// The cube traced under `ticket` ended without a proof (split again,
    /// stopped, failed): its trace is not wanted.
    fn forget(&self, ticket: Ticket);

    /// A cube's answer, with the trace that proves it: the certifier
    /// writes it down (and fails when it derives no empty clause).
    ///
    /// # Errors
    ///
    /// The certifier's.
    fn proven(&self, split: usize, proof: CubeProof) -> Result<(), SolveError>;

    /// The cubes of `split` that an earlier, stopped run proved into the
    /// same place (a resumed run): the split takes their answers and
    /// solves the rest. None by default.
    fn proven_before(&self, split: usize) -> Vec<ProvenCube> {
        let _ = split;
        Vec::new()
    }

    /// The split ended.
    ///
    /// # Errors
    ///
    /// The certifier's.
    fn end(&self, split: usize, end: SplitEnd) -> Result<(), SolveError>;
}
