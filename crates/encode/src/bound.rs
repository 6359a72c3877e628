//! Cardinality bounds — Σ ≤ k, Σ ≥ k, Σ = k — and the directions a
//! counter must enforce for them: plain data that the error type names
//! and every encoding uses, so it sits below both.

use std::fmt;

/// Which bounds a counter must be able to enforce.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// "At most k": inputs propagate up to the outputs.
    Upper,
    /// "At least k": outputs propagate down to the inputs.
    Lower,
    /// Both.
    Both,
}

impl Direction {
    /// Whether upper bounds can be enforced.
    #[must_use]
    pub const fn upper(self) -> bool {
        matches!(self, Direction::Upper | Direction::Both)
    }

    /// Whether lower bounds can be enforced.
    #[must_use]
    pub const fn lower(self) -> bool {
        matches!(self, Direction::Lower | Direction::Both)
    }
}

/// A cardinality bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    /// Σ ≤ k.
    AtMost(usize),
    /// Σ ≥ k.
    AtLeast(usize),
    /// Σ = k.
    Exactly(usize),
}

impl Bound {
    /// The bound's `k`.
    #[must_use]
    pub const fn k(self) -> usize {
        match self {
            Bound::AtMost(k) | Bound::AtLeast(k) | Bound::Exactly(k) => k,
        }
    }

    /// The direction a counter needs for this bound.
    #[must_use]
    pub const fn direction(self) -> Direction {
        match self {
            Bound::AtMost(_) => Direction::Upper,
            Bound::AtLeast(_) => Direction::Lower,
            Bound::Exactly(_) => Direction::Both,
        }
    }
}

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bound::AtMost(k) => write!(f, "at most {k}"),
            Bound::AtLeast(k) => write!(f, "at least {k}"),
            Bound::Exactly(k) => write!(f, "exactly {k}"),
        }
    }
}
