//! The problems as 0-1 linear programs over the board variables: the model
//! that the OPB and LP files state ([`crate::export`]), for solvers that
//! reason on linear constraints natively (pseudo-Boolean and
//! integer-programming solvers) instead of on their CNF encodings.
//!
//! One binary variable per square, numbered as in DIMACS (square `(r, c)`
//! is variable `r·cols + c + 1`), no auxiliary variables, every
//! coefficient 1. The constraints, in this order:
//!
//! - independence of a sliding piece: at most one piece on each of its
//!   lines of two or more squares; where the `lines` formulation makes a
//!   direction exact (n queens or rooks with k = min(rows, cols), see
//!   [`crate::problem::Formulation::Lines`]) exactly one on each line of
//!   that direction, which implies the count;
//! - independence of a leaper: `x_a + x_b ≤ 1` for each attacking pair;
//! - domination: at least one piece in each square's closed neighbourhood;
//! - the count `Σ x = k` (independence) or `Σ x ≤ k` (domination) when k
//!   is given and not implied; without k the objective, the fewest pieces
//!   for domination and the most for independence ([`Goal`]).
//!
//! This is the integer program of the N-queens and domination literature
//! (rows and columns equal one and diagonals at most one; a covering
//! constraint per square and a minimised sum); the CNF encodings of
//! [`crate::problem`] are encodings of the same constraints.

use rustsat::types::Lit;

use crate::{
    board::{LineKind, Square},
    bound::Bound,
    error::EncodeError,
    problem::{Formulation, Kind, Problem},
};

/// Which way an objective goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sense {
    /// The fewest pieces (domination).
    Minimise,
    /// The most pieces (independence).
    Maximise,
}

impl Sense {
    /// The optimum of a problem of `kind`: the fewest dominating pieces,
    /// the most independent ones.
    #[must_use]
    pub const fn of(kind: Kind) -> Sense {
        if kind.dominating() {
            Sense::Minimise
        } else {
            Sense::Maximise
        }
    }
}

/// What a file asks a solver for: a placement with a bound on the number
/// of pieces, or the optimum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    /// A placement within the bound (exactly k for independence, at most k
    /// for domination).
    Bound(Bound),
    /// The optimal number of pieces.
    Optimum(Sense),
}

impl Goal {
    /// The goal of `problem` with `k` pieces: the kind's bound, or without
    /// k its optimum (the fewest dominating pieces, the most independent
    /// ones).
    #[must_use]
    pub const fn of(problem: &Problem, k: Option<usize>) -> Goal {
        match k {
            Some(k) => Goal::Bound(problem.kind.bound(k)),
            None => Goal::Optimum(Sense::of(problem.kind)),
        }
    }

    /// The bound a placement must meet (`None` for an optimum: any count).
    #[must_use]
    pub const fn bound(self) -> Option<Bound> {
        match self {
            Goal::Bound(bound) => Some(bound),
            Goal::Optimum(_) => None,
        }
    }
}

/// What a constraint stands for; its name in an LP file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Part {
    /// At most (or exactly) one piece on line `index` of this kind.
    Line(LineKind, usize),
    /// Two squares a leaper attacks from one another.
    Attack(Square, Square),
    /// The square is occupied or attacked.
    Cover(Square),
    /// The number of pieces.
    Pieces,
}

impl Part {
    /// A name for LP files: letters, digits and `_`, never starting with a
    /// digit or `e` (which LP readers could take for an exponent).
    #[must_use]
    pub fn name(self) -> String {
        match self {
            Part::Line(kind, index) => {
                let kind = match kind {
                    LineKind::Row => "row",
                    LineKind::Column => "column",
                    LineKind::Diagonal => "diagonal",
                    LineKind::AntiDiagonal => "antidiagonal",
                };
                format!("{kind}_{index}")
            }
            Part::Attack(a, b) => format!("attack_{}_{}_{}_{}", a.row, a.col, b.row, b.col),
            Part::Cover(sq) => format!("cover_{}_{}", sq.row, sq.col),
            Part::Pieces => "pieces".to_string(),
        }
    }
}

/// One linear constraint: the sum of the board literals within the bound
/// (every coefficient 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constraint {
    /// What it stands for.
    pub part: Part,
    /// The board literals summed (positive, one per square).
    pub lits: Vec<Lit>,
    /// `≤`, `≥` or `=` its right-hand side.
    pub bound: Bound,
}

/// A problem as a 0-1 linear program over its board variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Model {
    /// The problem.
    pub problem: Problem,
    /// A bound on the pieces (then the count is a constraint, or implied by
    /// exact lines), or the objective.
    pub goal: Goal,
    /// The constraints, in the order of the module docs.
    pub constraints: Vec<Constraint>,
}

impl Model {
    /// The linear model of `problem` with exactly k (independence) or at
    /// most k (domination) pieces, or without k its optimum.
    ///
    /// # Errors
    ///
    /// [`EncodeError::Infeasible`] when k exceeds the number of squares for
    /// independence.
    pub fn new(problem: &Problem, k: Option<usize>) -> Result<Model, EncodeError> {
        let board = &problem.board;
        if let Some(k) = k {
            problem.kind.bound(k).check(board.n_squares())?;
        }
        let exact = |kind: LineKind| {
            problem.kind == Kind::Independence
                && k.is_some_and(|k| {
                    problem.effective_formulation(Formulation::Lines, k) == Formulation::Lines
                })
                && problem.exact_line(kind)
        };
        let mut constraints = Vec::new();
        if problem.kind.independent() {
            for &kind in problem.piece.line_kinds() {
                let bound = if exact(kind) {
                    Bound::Exactly(1)
                } else {
                    Bound::AtMost(1)
                };
                for (index, line) in board.lines(kind).enumerate() {
                    if line.len() < 2 && bound == Bound::AtMost(1) {
                        continue;
                    }
                    constraints.push(Constraint {
                        part: Part::Line(kind, index),
                        lits: line.iter().map(|&sq| board.lit(sq)).collect(),
                        bound,
                    });
                }
            }
            if !problem.piece.leaps().is_empty() {
                for from in board.squares() {
                    for to in problem.piece.attacks(board, from) {
                        if board.index(to) > board.index(from) {
                            constraints.push(Constraint {
                                part: Part::Attack(from, to),
                                lits: vec![board.lit(from), board.lit(to)],
                                bound: Bound::AtMost(1),
                            });
                        }
                    }
                }
            }
        }
        if problem.kind.dominating() {
            constraints.extend(board.squares().map(|sq| {
                Constraint {
                    part: Part::Cover(sq),
                    lits: problem
                        .piece
                        .closed_neighbourhood(board, sq)
                        .into_iter()
                        .map(|s| board.lit(s))
                        .collect(),
                    bound: Bound::AtLeast(1),
                }
            }));
        }
        let goal = Goal::of(problem, k);
        let implied = LineKind::ALL
            .iter()
            .any(|&kind| problem.piece.line_kinds().contains(&kind) && exact(kind));
        if let (Goal::Bound(bound), false) = (goal, implied) {
            constraints.push(Constraint {
                part: Part::Pieces,
                lits: problem.board_lits(),
                bound,
            });
        }
        Ok(Model {
            problem: *problem,
            goal,
            constraints,
        })
    }

    /// The variables: one per square.
    #[must_use]
    pub fn n_vars(&self) -> u32 {
        u32::try_from(self.problem.board.n_squares()).unwrap_or(u32::MAX)
    }

    /// The terms of every constraint together.
    #[must_use]
    pub fn n_terms(&self) -> usize {
        self.constraints.iter().map(|c| c.lits.len()).sum()
    }

    /// The first constraint the 0-1 assignment `value` (of the board
    /// variables, from variable 1) violates.
    #[must_use]
    pub fn violated(&self, value: &[bool]) -> Option<&Constraint> {
        self.constraints.iter().find(|c| {
            let sum = c
                .lits
                .iter()
                .filter(|l| value.get(l.vidx()).copied().unwrap_or(false))
                .count();
            match c.bound {
                Bound::AtMost(k) => sum > k,
                Bound::AtLeast(k) => sum < k,
                Bound::Exactly(k) => sum != k,
            }
        })
    }
}
