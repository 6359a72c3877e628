//! Everything that can go wrong while encoding, in one error type. A
//! message that names a user's choice names it as a
//! [`crate::setting::Setting`], so the caller words it
//! ([`EncodeError::message`]).

use std::fmt;

use crate::{
    bound::Bound,
    setting::{LibraryWords, Names, Setting},
};

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
    #[error("a {rows}x{cols} board is too large (at most {max} squares)")]
    BoardTooLarge {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
        /// The most squares a board may have ([`crate::board::MAX_SQUARES`]).
        max: usize,
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
        /// The encoding's name ([`crate::amo::Amo::name`]).
        encoding: &'static str,
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
    #[error("{}", lazy_not_in_clauses(*.groups, &LibraryWords))]
    LazyNotInClauses {
        /// The constraints left out.
        groups: u64,
    },
    /// The clause sink ran out of memory.
    #[error("out of memory while encoding")]
    OutOfMemory,
    /// The encoding is estimated too large to build ([`crate::size::check_fits`]).
    #[error("{0}")]
    TooLarge(Box<TooLarge>),
    /// An exported file's provenance lines do not say what it is
    /// ([`crate::export::Provenance::parse`]).
    #[error("the file's provenance: {0}")]
    Provenance(String),
    /// A request that does not describe a problem ([`crate::request::Request::problem`]).
    #[error("{0}")]
    Request(RequestError),
}

impl EncodeError {
    /// The message, with the settings it names worded by `names` (its
    /// `Display` is the library's words).
    #[must_use]
    pub fn message(&self, names: &dyn Names) -> String {
        match self {
            EncodeError::LazyNotInClauses { groups } => lazy_not_in_clauses(*groups, names),
            EncodeError::TooLarge(e) => e.message(names),
            EncodeError::Request(e) => e.message(names),
            other => other.to_string(),
        }
    }
}

fn lazy_not_in_clauses(groups: u64, names: &dyn Names) -> String {
    format!(
        "{} leaves {groups} at-most-one constraints to the solver's propagator, which a CNF cannot carry; choose a clause encoding ({}, pairwise, ladder, ...)",
        names.name(Setting::Amo, Some("lazy")),
        names.name(Setting::Amo, Some("auto"))
    )
}

/// An encoding estimated above the size limit, and what would fit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooLarge {
    /// The estimate against the limit, in words.
    pub estimate: String,
    /// The cheapest single change of encoding that would fit: the
    /// setting, its value, and the clauses it would have (in words).
    pub fits: Option<(Setting, &'static str, String)>,
}

impl TooLarge {
    /// The message, with the settings worded by `names`.
    #[must_use]
    pub fn message(&self, names: &dyn Names) -> String {
        let force = names.name(Setting::Force, None);
        let hint = match &self.fits {
            Some((setting, value, clauses)) => format!(
                "try {} (about {clauses} clauses), or {force} to go on",
                names.name(*setting, Some(value))
            ),
            None => format!("no other encoding fits either; a smaller board, or {force} to go on"),
        };
        format!("{}; {hint}", self.estimate)
    }
}

impl fmt::Display for TooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(&LibraryWords))
    }
}

/// A request that does not describe a problem, or a problem a format
/// cannot state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RequestError {
    /// A family name nobody knows, with the names accepted.
    UnknownFamily {
        /// The name given.
        name: String,
        /// The names accepted.
        expected: String,
    },
    /// Independence asked of another family than domination.
    IndependentNotDomination,
    /// N-queens with another piece.
    QueensPiece(&'static str),
    /// N-queens on a rectangle.
    QueensSquare,
    /// N-queens with another number of queens than n.
    QueensPieces,
    /// More pieces than squares.
    TooManyPieces {
        /// The pieces asked for.
        k: usize,
        /// The board, e.g. `8x8`.
        board: String,
        /// Its squares.
        squares: usize,
    },
    /// A CNF file without a fixed number of pieces.
    CnfNeedsPieces,
    /// An iCNF file outside a split.
    IcnfOutsideSplit,
    /// A WCNF file with a fixed number of pieces.
    WcnfWithPieces(usize),
}

impl RequestError {
    /// The message, with the settings worded by `names`.
    #[must_use]
    pub fn message(&self, names: &dyn Names) -> String {
        let name = |setting: Setting| names.name(setting, None);
        match self {
            RequestError::UnknownFamily { name, expected } => {
                format!("unknown family '{name}' (expected one of: {expected})")
            }
            RequestError::IndependentNotDomination => {
                format!("{} applies to domination only", name(Setting::Independent))
            }
            RequestError::QueensPiece(piece) => format!(
                "queens places queens; use independence with {} for other pieces",
                names.name(Setting::Piece, Some(piece))
            ),
            RequestError::QueensSquare => format!(
                "queens needs a square board; use independence with {} for rectangular boards",
                name(Setting::Cols)
            ),
            RequestError::QueensPieces => format!(
                "queens places exactly n queens; use independence with {} for another number",
                name(Setting::Pieces)
            ),
            RequestError::TooManyPieces { k, board, squares } => format!(
                "k = {k} is more pieces than the {board} board has squares ({squares})"
            ),
            RequestError::CnfNeedsPieces => format!(
                "a cnf file states a decision and needs {} to fix the bound; opb, wcnf and lp can state the optimum",
                name(Setting::Pieces)
            ),
            RequestError::IcnfOutsideSplit => format!(
                "icnf holds the cubes of a split: a split written with {} has it",
                names.name(Setting::Format, Some("icnf"))
            ),
            RequestError::WcnfWithPieces(k) => format!(
                "wcnf states an optimum (its soft clauses count the pieces), not a fixed number of pieces ({k} here): ask for the optimum without {}, or write cnf, opb or lp",
                name(Setting::Pieces)
            ),
        }
    }
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(&LibraryWords))
    }
}

impl From<rustsat::OutOfMemory> for EncodeError {
    fn from(_: rustsat::OutOfMemory) -> Self {
        EncodeError::OutOfMemory
    }
}
