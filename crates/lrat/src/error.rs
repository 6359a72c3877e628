//! What can be wrong with a formula or a proof, and where.

use std::fmt;

/// Where in the proof a step starts: a line of a text proof (from 1), or
/// the byte offset of a binary one (from 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Location {
    /// A line of a text proof, from 1.
    Line(u64),
    /// A byte offset in a binary proof, from 0.
    Byte(u64),
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Line(line) => write!(f, "line {line}"),
            Location::Byte(offset) => write!(f, "byte {offset}"),
        }
    }
}

/// Everything that makes the checker reject a formula or a proof.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A clause of the formula is unusable.
    #[error("formula clause {id}: {problem}")]
    Formula {
        /// The clause's id (its position, from 1).
        id: u64,
        /// What is wrong with it.
        problem: FormulaProblem,
    },
    /// A step of the proof is malformed or does not check.
    #[error("{at}: {problem}")]
    Step {
        /// Where the step starts.
        at: Location,
        /// What is wrong with it.
        problem: StepProblem,
    },
    /// Reading the proof failed.
    #[error("{at}: reading the proof failed: {source}")]
    Io {
        /// Where reading stopped.
        at: Location,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// Every step checked, but none derived the empty clause.
    #[error("the proof ends without deriving the empty clause ({steps} steps checked)")]
    NoEmptyClause {
        /// Steps checked.
        steps: u64,
    },
}

impl Error {
    /// Where in the proof the error is, if it is in the proof.
    #[must_use]
    pub fn location(&self) -> Option<Location> {
        match self {
            Error::Step { at, .. } | Error::Io { at, .. } => Some(*at),
            Error::Formula { .. } | Error::NoEmptyClause { .. } => None,
        }
    }
}

/// What is wrong with a clause of the formula.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FormulaProblem {
    /// `0` (or `i32::MIN`) is not a literal.
    #[error("{literal} is not a literal")]
    BadLiteral {
        /// The value.
        literal: i32,
    },
    /// The variable is beyond [`crate::Limits::max_var`].
    #[error("variable {var} is beyond the limit of {max} variables")]
    VariableTooLarge {
        /// The variable.
        var: u64,
        /// The limit.
        max: u32,
    },
    /// The clause is longer than [`crate::Limits::max_step_len`].
    #[error("the clause has more than {max} literals")]
    TooLong {
        /// The limit.
        max: usize,
    },
}

/// What is wrong with a proof step.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StepProblem {
    /// A token that is not what the grammar allows here.
    #[error("expected {expected}, found `{found}`")]
    BadToken {
        /// What the grammar allows here.
        expected: &'static str,
        /// The token (cut to a few dozen characters).
        found: String,
    },
    /// In a binary proof, a step starting with a byte other than `a` or `d`.
    #[error("expected a step (`a` or `d`), found byte 0x{byte:02x}")]
    BadStepByte {
        /// The byte.
        byte: u8,
    },
    /// A number too large for a clause id (2⁶³ − 1) or a literal (2³¹ − 1).
    #[error("number {found} is too large for {what}")]
    NumberTooLarge {
        /// The digits (cut to a few dozen characters).
        found: String,
        /// `a literal` or `a clause id`.
        what: &'static str,
    },
    /// The step ends before its final `0`.
    #[error("{}", if *at_end { "the proof ends inside this step (truncated file?)" } else { "the line ends before the step's final 0 (truncated step?)" })]
    Truncated {
        /// Whether the input ended (rather than the line).
        at_end: bool,
    },
    /// Something follows the final `0` on the step's line.
    #[error("unexpected `{found}` after the step's final 0")]
    Trailing {
        /// The token (cut to a few dozen characters).
        found: String,
    },
    /// Clause id 0 is not an id.
    #[error("clause id 0 is not allowed")]
    ZeroId,
    /// A literal names a variable beyond [`crate::Limits::max_var`].
    #[error("literal {literal} is beyond the limit of {max} variables")]
    VariableTooLarge {
        /// The literal.
        literal: i64,
        /// The limit.
        max: u32,
    },
    /// A step lists more literals or ids than [`crate::Limits::max_step_len`].
    #[error("the step lists more than {max} {what}")]
    TooLong {
        /// `literals`, `hints` or `clause ids`.
        what: &'static str,
        /// The limit.
        max: usize,
    },
    /// An added clause takes the id of a clause that is live.
    #[error("clause id {id} is reused: a clause with that id is live")]
    IdReused {
        /// The id.
        id: u64,
    },
    /// An added clause's id is not larger than every id before it.
    #[error("clause id {id} is out of order: ids must increase, and {previous} came before")]
    IdNotIncreasing {
        /// The id.
        id: u64,
        /// The largest id so far.
        previous: u64,
    },
    /// A hint names no live clause.
    #[error("hint {hint} names no live clause (never added, or deleted)")]
    UnknownHint {
        /// The hint.
        hint: u64,
    },
    /// A hint clause has two or more literals that are not false under the
    /// lemma's negation and the units of the hints before it.
    #[error("hint {hint} is not unit under the lemma's negation and the hints before it (two or more literals not false)")]
    NotUnit {
        /// The hint.
        hint: u64,
    },
    /// The hints never falsify a clause.
    #[error("the hints do not yield a conflict, so the lemma is not implied (last hint: {last})")]
    NoConflict {
        /// The last hint, or `none` when there is none.
        last: String,
    },
    /// A negative hint: a RAT step.
    #[error("negative hint {hint} starts a RAT step, which this checker does not accept (CaDiCaL writes RUP steps only)")]
    Rat {
        /// The hint.
        hint: i64,
    },
    /// A deletion of an id that is not live.
    #[error("deletes clause id {id}, which is not live (never added, or deleted)")]
    DeleteUnknown {
        /// The id.
        id: u64,
    },
}
