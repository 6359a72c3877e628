//! # boardsat-encode
//!
//! Chessboard placement puzzles — N-queens, independence, domination and
//! independent domination for queens, rooks, bishops, knights and kings on
//! square and rectangular boards — turned into CNF with selectable
//! at-most-one and cardinality encodings. No solver lives here.
//!
//! | type | role |
//! |---|---|
//! | [`Board`], [`Square`], [`LineKind`] | geometry, lines, the square ↔ variable bijection |
//! | [`Piece`] | attack sets and closed neighbourhoods |
//! | [`Request`], [`Family`] | what a user asks for (the CLI's and Python's words), validated into a problem |
//! | [`Problem`], [`Kind`], [`Formulation`], [`Config`] | pure CNF builders |
//! | [`Amo`] | at-most-one encodings (rustsat), or lazy lines |
//! | [`LazyLines`] | the lines a lazy encoding leaves to a propagator |
//! | [`Card`], [`Bound`] | cardinality encodings chosen at run time, and bounds |
//! | [`card::BuildCounter`], [`card::Counter`] | build a counter once, enforce any bound by assumptions |
//! | [`card::SequentialCounter`], [`card::ModuloTotalizer`], [`card::CardinalityNetwork`] | the own counters, also usable through rustsat's encoding traits |
//! | [`card::Totalizer`] | rustsat's totalizer behind [`card::Counter`] |
//! | [`Encoding`], [`Stats`] | what an encoding produced and its sizes |
//! | [`check()`], [`Placement`], [`Violation`] | an independent checker, sharing no code with the encoder |
//! | [`dimacs`] | DIMACS and iCNF output with provenance and projection |
//! | [`draw`] | a placement as a text board or an SVG figure |
//! | [`Estimate`], [`estimate::check_fits`] | encoding sizes estimated before encoding ([`Problem::estimate`]); refusing what would not fit |
//! | [`Symmetry`], [`symmetry::lex_leader`] | board symmetries, lex-leader symmetry breaking, orbit sizes |
//! | [`name_table!`] | names, aliases, `ALL`, `Display`, `FromStr` of the run-time choices |
//! | [`EncodeError`] | everything that can go wrong while encoding |
//!
//! Board variables come first: square `(r, c)` is DIMACS variable
//! `r·cols + c + 1`; auxiliaries follow.
//!
//! ```
//! use boardsat_encode::{dimacs, Amo, Config, Problem};
//! use rustsat::instances::Cnf;
//!
//! let problem = Problem::queens(8)?;
//! let config = Config { amo: Amo::Ladder, ..Config::default() };
//! let mut vars = problem.var_manager();
//! let mut cnf = Cnf::new();
//! let encoding = problem.encode(8, config, &mut cnf, &mut vars)?;
//! assert_eq!(encoding.stats.n_board_vars, 64);
//! assert_eq!(encoding.stats.n_clauses, cnf.len());
//!
//! let mut header = dimacs::Header::new();
//! header.comments.extend(encoding.describe());
//! header.show = Some(encoding.stats.n_board_vars);
//! let mut out = Vec::new();
//! dimacs::write(&mut out, &header, &cnf, encoding.stats.n_vars)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

// User input must not reach a panic: no unwrap or expect outside tests.
#![cfg_attr(not(test), warn(clippy::unwrap_used, clippy::expect_used))]

mod names;

pub mod amo;
pub mod board;
pub mod card;
pub mod check;
pub mod dimacs;
pub mod draw;
pub mod estimate;
pub mod lazy;
pub mod piece;
pub mod problem;
pub mod request;
pub mod symmetry;

pub use amo::Amo;
pub use board::{Board, LineKind, Square};
pub use card::{Bound, Card};
pub use check::{check, Placement, Violation};
pub use estimate::Estimate;
pub use lazy::LazyLines;
pub use piece::Piece;
pub use problem::{Config, Encoding, Formulation, Kind, Problem, Stats};
pub use request::{Family, Request};
pub use symmetry::Symmetry;

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
        board::MAX_SQUARES
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
    /// The encoding is estimated too large to build ([`estimate::check_fits`]).
    #[error("{0}")]
    TooLarge(String),
    /// A request that does not describe a problem ([`Request::problem`]).
    #[error("{0}")]
    Request(String),
}

impl From<rustsat::OutOfMemory> for EncodeError {
    fn from(_: rustsat::OutOfMemory) -> Self {
        EncodeError::OutOfMemory
    }
}
