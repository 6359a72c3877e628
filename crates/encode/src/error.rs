//! Everything that can go wrong while encoding, in one error type.

use crate::{amo::Amo, card::Bound};

/// Everything that can go wrong while encoding.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    /// A board side is zero.
    #[error("the board must have at least one row and one column (got {rows}x{cols})")]
    EmptyBoard {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
    },
    /// The board has too many squares for DIMACS variables.
    #[error(
        "a {rows}x{cols} board is too large (at most {} squares)",
        crate::board::MAX_SQUARES
    )]
    BoardTooLarge {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
    },
    /// No assignment satisfies the bound.
    #[error("impossible bound: {bound} of {n} literals")]
    Infeasible {
        /// The bound.
        bound: Bound,
        /// Number of literals.
        n: usize,
    },
    /// An AMO encoding was asked for a bound above one.
    #[error("the at-most-one encoding {encoding} cannot express at most {k}; use a cardinality encoding")]
    AmoBound {
        /// The encoding.
        encoding: Amo,
        /// The bound asked for.
        k: usize,
    },
    /// A counter was asked for a bound it was not built for.
    #[error("the counter was not built to enforce {bound}")]
    NotEncoded {
        /// The bound asked for.
        bound: Bound,
    },
    /// An encoding name nobody knows.
    #[error("unknown encoding '{name}' (expected one of: {expected})")]
    UnknownEncoding {
        /// The name given.
        name: String,
        /// The names accepted.
        expected: String,
    },
    /// A cardinality encoding where an AMO encoding is needed.
    #[error("'{0}' is a cardinality encoding, not an at-most-one encoding")]
    NotAnAmo(String),
    /// An AMO encoding where a cardinality encoding is needed.
    #[error("'{0}' is an at-most-one encoding; a cardinality encoding is needed (seqcounter, totalizer, mtotalizer, cardnetwork)")]
    NotACardinality(String),
    /// The lazy AMO asked for clauses.
    #[error("the lazy at-most-one has no clauses: its lines are recorded by Problem::encode_lazy for a propagator")]
    LazyAmo,
    /// The clauses alone were asked for (DIMACS, cube files, proofs), but
    /// the encoding leaves lines to a propagator.
    #[error("--amo lazy leaves {groups} at-most-one constraints to the solver's propagator, which a CNF cannot carry; choose a clause encoding (--amo auto, pairwise, ladder, ...)")]
    LazyNotInClauses {
        /// The constraints left out.
        groups: u64,
    },
    /// The clause sink ran out of memory.
    #[error("out of memory while encoding")]
    OutOfMemory,
    /// The encoding is estimated too large to build ([`crate::estimate::check_fits`]).
    #[error("{0}")]
    TooLarge(String),
    /// An exported file's provenance lines do not say what it is
    /// ([`crate::export::Provenance::parse`]).
    #[error("the file's provenance: {0}")]
    Provenance(String),
    /// A request that does not describe a problem ([`crate::request::Request::problem`]).
    #[error("{0}")]
    Request(String),
}

impl From<rustsat::OutOfMemory> for EncodeError {
    fn from(_: rustsat::OutOfMemory) -> Self {
        EncodeError::OutOfMemory
    }
}
