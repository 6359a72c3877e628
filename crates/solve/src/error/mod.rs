//! Everything that can go wrong while solving, in one error type. A
//! message that names a user's choice names it as a
//! [`boardsat_encode::setting::Setting`], so the caller words it
//! ([`SolveError::message`]).

use std::fmt;

use boardsat_encode::{
    setting::{LibraryWords, Names, Setting},
    EncodeError, Violation,
};

pub mod external;

use crate::{error::external::ExternalError, formula::dimacs, stop::StopReason};

/// Everything that can go wrong while solving.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// A value was asked for without a current model.
    #[error("no model: the last solve call did not return SAT, or clauses were added since")]
    NoModel,
    /// The embedded solver failed.
    #[error("{backend}: {message}")]
    Solver {
        /// The backend's signature.
        backend: String,
        /// What it said.
        message: String,
    },
    /// An external solver failed.
    #[error(transparent)]
    External(#[from] ExternalError),
    /// A model's placement broke the problem's rules: a bug in an encoding
    /// or a solver.
    #[error("the solver returned a wrong placement ({placement}): {violation}")]
    WrongPlacement {
        /// The placement, as `row,col` pairs.
        placement: String,
        /// What the checker found.
        violation: Violation,
    },
    /// With symmetry breaking on, a model that is not the leader of its
    /// orbit: a bug in the lex-leader encoding or a solver.
    #[error("the solver returned a placement that is not the leader of its orbit ({placement})")]
    NotLexLeader {
        /// The placement, as `row,col` pairs.
        placement: String,
    },
    /// The solver stopped without an answer (a time limit, an interrupt,
    /// or a solver that gave up) where an answer was needed.
    #[error("the solver stopped without an answer after {found} solutions")]
    Stopped {
        /// Solutions found before it stopped.
        found: u64,
    },
    /// A model that falsifies a clause of the formula it answers: a bug in
    /// a solver.
    #[error("{backend} returned a model that falsifies clause {clause}")]
    WrongModel {
        /// The backend's signature.
        backend: String,
        /// The clause, numbered from 1 in the order of the formula.
        clause: usize,
    },
    /// Work was stopped (a signal or the time limit) outside a solver
    /// call, e.g. while encoding.
    #[error("stopped ({0})")]
    Interrupted(StopReason),
    /// A choice that does not apply to what was asked.
    #[error("{0}")]
    Inapplicable(Inapplicable),
    /// Proofs traced by a split's solvers, and no certifier to take them.
    #[error("a count with traced proofs needs a certifier")]
    NoCertifier,
    /// Proofs of split answers from a backend that traces none.
    #[error("proofs of split answers need CaDiCaL ({backend} traces none)")]
    NoTracer {
        /// The backend's signature.
        backend: String,
    },
    /// A split of a problem it does not split.
    #[error("{problem} is not split by {split}")]
    NotSplit {
        /// The problem.
        problem: String,
        /// The split, e.g. `the rings of rows and columns (domination only)`.
        split: &'static str,
    },
    /// Text that is not a cube of a domination split.
    #[error("'{0}' is not a cube of rings of lines")]
    BadCube(String),
    /// The cubes an earlier run proved do not fit the split being resumed.
    #[error("cannot resume: {0}")]
    NotResumable(String),
    /// The certifier of a split failed (its own error, kept whole).
    #[error(transparent)]
    Certifier(Box<dyn std::error::Error + Send + Sync>),
    /// A broken invariant of boardsat's own: a bug, never a user's error.
    #[error("internal error: {0}")]
    Internal(&'static str),
    /// An error of the caller's own, raised from inside a search the
    /// caller drives (a sampled cube's placement that ends an estimate),
    /// kept whole for the caller to take back.
    #[error(transparent)]
    Caller(Box<dyn std::error::Error + Send + Sync>),
    /// A formula could not be read.
    #[error(transparent)]
    Read(#[from] dimacs::ReadError),
    /// Encoding failed.
    #[error(transparent)]
    Encode(#[from] EncodeError),
    /// This build has no such backend.
    #[error("backend {0} is not built in (rebuild with the feature of that name)")]
    Unavailable(&'static str),
    /// The encoding leaves lines to a propagator ([`boardsat_encode::Amo::Lazy`])
    /// that the backend does not have.
    #[error(
        "the lazy AMO needs a solver with an external propagator (cadical); {backend} has none"
    )]
    NoPropagator {
        /// The backend's signature.
        backend: String,
    },
    /// The external backend needs a command.
    #[error("{}", missing_command(&LibraryWords))]
    MissingCommand,
}

impl SolveError {
    /// The message, with the settings it names worded by `names` (its
    /// `Display` is the library's words).
    #[must_use]
    pub fn message(&self, names: &dyn Names) -> String {
        match self {
            SolveError::Inapplicable(e) => e.message(names),
            SolveError::Encode(e) => e.message(names),
            SolveError::Read(e) => e.message(names),
            SolveError::MissingCommand => missing_command(names),
            other => other.to_string(),
        }
    }
}

fn missing_command(names: &dyn Names) -> String {
    format!(
        "the external backend needs a solver command (e.g. {})",
        names.name(Setting::SolverCommand, Some("minisat"))
    )
}

/// A choice that does not apply to what was asked (the command line's
/// flags, the Python package's keywords, named by the caller).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inapplicable {
    /// The split depth or the worker threads (`setting`) of a count that
    /// is not split.
    NotSplit(Setting),
    /// A cube budget where no cube is split again.
    CubeBudget,
    /// Mirror halving of a count that is not an N-queens count without a
    /// limit.
    Halve,
    /// Mirror halving with symmetry breaking turned off.
    HalveWithoutSymmetry,
    /// Counting orbits or turning symmetry breaking off (`setting`) in a
    /// count to a limit.
    OrbitsWithLimit(Setting),
    /// Counting orbits without symmetry breaking.
    UniqueWithoutSymmetry,
    /// The portfolio with a number of pieces (`queens`: N-queens, whose
    /// number is n).
    PortfolioWithPieces {
        /// Whether the problem is N-queens.
        queens: bool,
    },
    /// A seed for a solver other than CaDiCaL (its name).
    Seed(String),
    /// An external solver's command with another solver.
    SolverCommand,
    /// A cardinality encoding where no piece is counted: independence of
    /// exactly k pieces in the lines formulation.
    UncountedCard,
    /// An at-most-one encoding where pieces may attack each other.
    AttacksAllowed,
}

impl Inapplicable {
    /// The message, with the settings worded by `names`.
    #[must_use]
    pub fn message(&self, names: &dyn Names) -> String {
        let name = |setting: Setting| names.name(setting, None);
        let limit = name(Setting::Limit);
        match self {
            Inapplicable::NotSplit(setting) => format!(
                "{} applies to N-queens and domination counts without {limit}",
                name(*setting)
            ),
            Inapplicable::CubeBudget => format!(
                "{} applies to domination counts without {limit} (N-queens cubes are never split again)",
                name(Setting::CubeBudget)
            ),
            Inapplicable::Halve => format!(
                "{} applies to N-queens counts without {limit}",
                name(Setting::Halve)
            ),
            Inapplicable::HalveWithoutSymmetry => format!(
                "{} is a symmetry reduction (the left half of the first row, doubled), which {} turns off: choose one",
                name(Setting::Halve),
                name(Setting::NoSymmetry)
            ),
            Inapplicable::OrbitsWithLimit(setting) => {
                format!("{} applies to counts without {limit}", name(*setting))
            }
            Inapplicable::UniqueWithoutSymmetry => format!(
                "{} counts orbits, which needs symmetry breaking: drop {} and {}",
                name(Setting::Unique),
                name(Setting::NoSymmetry),
                name(Setting::Halve)
            ),
            Inapplicable::PortfolioWithPieces { queens } => portfolio_with_pieces(names, *queens),
            Inapplicable::Seed(solver) => format!(
                "{} applies to cadical only ({solver} has no seed option)",
                name(Setting::Seed)
            ),
            Inapplicable::SolverCommand => format!(
                "{} needs {} (or no {})",
                name(Setting::SolverCommand),
                names.name(Setting::Solver, Some("external")),
                name(Setting::Solver)
            ),
            Inapplicable::UncountedCard => format!(
                "{} applies where pieces are counted (domination, optima, {}); exactly k pieces in the lines formulation are counted by the lines themselves",
                name(Setting::Card),
                names.name(Setting::Formulation, Some("cardinality"))
            ),
            Inapplicable::AttacksAllowed => format!(
                "{} applies where pieces may not attack each other (independence, queens, independent domination); dominating pieces may",
                name(Setting::Amo)
            ),
        }
    }
}

/// [`Inapplicable::PortfolioWithPieces`]'s message.
fn portfolio_with_pieces(names: &dyn Names, queens: bool) -> String {
    format!(
        "{} races encodings for an optimum; it does not apply with {}{}",
        names.name(Setting::Portfolio, None),
        names.name(Setting::Pieces, None),
        if queens {
            " (queens N places exactly N queens)"
        } else {
            ""
        }
    )
}

impl fmt::Display for Inapplicable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(&LibraryWords))
    }
}

/// The stop reason behind an error, if a stop (a signal, a time limit)
/// caused it: work stopped while encoding or reading is stopped, not
/// failed. Look at each cause of an error chain.
#[must_use]
pub fn stop_reason(cause: &(dyn std::error::Error + 'static)) -> Option<StopReason> {
    match cause.downcast_ref::<SolveError>() {
        Some(SolveError::Interrupted(r) | SolveError::Read(dimacs::ReadError::Stopped(r))) => {
            Some(*r)
        }
        _ => match cause.downcast_ref::<dimacs::ReadError>() {
            Some(dimacs::ReadError::Stopped(r)) => Some(*r),
            _ => None,
        },
    }
}
