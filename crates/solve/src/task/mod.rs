//! The jobs users ask for — one placement or the optimum, a count, an
//! enumeration — each as one call that picks the machinery: a fixed bound
//! or the optimiser, cubes over threads, "find the optimum, then count the
//! optimal placements". The command line, the benchmark and the Python
//! package all build their [`Instance`] with [`Instance::new`] and call
//! these, so they make the same choices with the same defaults.
//!
//! ## Layers
//!
//! Each module imports only from modules on its own line or a line above
//! (checked by `tests/tests/layers.rs`):
//!
//! 1. this one — [`Instance`], [`Encodings`], [`default_amo`]
//! 2. `solve`, `export` — one placement, or the optimum with its proof; the files for other solvers
//! 3. `count` — counts, split or not, and the plan that says which
//! 4. `enumerate` — every placement, listed

pub mod count;
pub mod enumerate;
pub mod export;
pub mod solve;

use boardsat_encode::{Amo, Card, Config, Formulation, Kind, Piece, Problem, Request};

use crate::{
    backend::spec::{SolverKind, SolverSpec},
    error::{Inapplicable, SolveError},
};

/// The encodings a user asks for; `None` is boardsat's choice
/// ([`Instance::new`] resolves it, the same for every caller).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Encodings {
    /// The at-most-one encoding: `None` is [`default_amo`] for the solver.
    pub amo: Option<Amo>,
    /// The cardinality encoding: `None` is [`Card::default`].
    pub card: Option<Card>,
    /// The formulation: `None` is [`Formulation::default`].
    pub formulation: Option<Formulation>,
}

/// A problem with its bound and encodings: what a task runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instance {
    /// The problem.
    pub problem: Problem,
    /// Exactly k pieces (independence) or at most k (domination); `None`
    /// asks for the optimum.
    pub k: Option<usize>,
    /// The encodings.
    pub config: Config,
}

impl Instance {
    /// The instance `request` describes with these encodings, its size
    /// checked ([`boardsat_encode::size::check_fits`]) unless `force`:
    /// the one road from what a user typed (flags, Python keywords, a
    /// benchmark cell) to what is solved. Encodings left open are
    /// boardsat's choice: [`default_amo`] for the problem solved by
    /// `solver` ([`Amo::Lazy`] for N-queens with CaDiCaL), [`Amo::Auto`]
    /// without a solver (the clauses alone, as DIMACS needs them).
    ///
    /// # Errors
    ///
    /// A request that contradicts itself; [`SolveError::Inapplicable`] for
    /// an encoding asked for that nothing would be built from (a
    /// cardinality encoding where no piece is counted, an at-most-one
    /// encoding where pieces may attack each other); an encoding estimated
    /// too large; [`SolveError::NoPropagator`] for lines left to a
    /// propagator that `solver` does not have (before any work, not after
    /// the first encoding).
    pub fn new(
        request: &Request,
        encodings: Encodings,
        solver: Option<&SolverSpec>,
        force: bool,
    ) -> Result<Instance, SolveError> {
        let (problem, k) = request.problem()?;
        let formulation = encodings.formulation.unwrap_or_default();
        refuse_unused(&problem, k, formulation, encodings)?;
        let amo = encodings.amo.unwrap_or_else(|| {
            solver.map_or(Amo::Auto, |s| default_amo(&problem, k, formulation, s.kind))
        });
        let config = Config {
            amo,
            card: encodings.card.unwrap_or_default(),
            formulation,
        };
        let propagates = solver.is_none_or(|s| s.kind.propagates_lines());
        let lazy = problem.lazy_lines(amo, formulation);
        if let (false, Some(s)) = (propagates || lazy.is_none_or(|l| l.is_empty()), solver) {
            return Err(SolveError::NoPropagator {
                backend: s.signature(),
            });
        }
        let (problem, k) = request.checked_problem(config, force)?;
        Ok(Instance { problem, k, config })
    }

    /// Whether this is N-queens: n queens on an n × n board, the problem
    /// the cube-and-conquer count splits on its first rows.
    #[must_use]
    pub fn is_n_queens(&self) -> bool {
        let p = &self.problem;
        p.kind == Kind::Independence
            && p.piece == Piece::Queen
            && p.board.is_square()
            && self.k == Some(p.board.rows())
    }

    /// The rows (N-queens) or outer rings (domination) a split count of
    /// this instance fixes per cube unless told otherwise.
    #[must_use]
    pub fn default_depth(&self) -> usize {
        if self.is_n_queens() {
            crate::search::queens::DEFAULT_DEPTH
        } else {
            crate::search::domination::DEFAULT_DEPTH
        }
    }

    /// Whether a count of this instance (without a limit) is split into
    /// cubes over threads: N-queens ([`crate::search::queens`]), and
    /// domination ([`crate::search::domination`]).
    #[must_use]
    pub fn splits(&self) -> bool {
        self.is_n_queens() || self.problem.kind.dominating()
    }
}

/// Refuses an encoding asked for that nothing of `problem` with `k`
/// pieces in `formulation` would be built from: a cardinality encoding
/// where no piece is counted (independence with exactly k pieces in the
/// lines formulation, whose exact lines count them), an at-most-one
/// encoding where pieces may attack each other (domination).
fn refuse_unused(
    problem: &Problem,
    k: Option<usize>,
    formulation: Formulation,
    encodings: Encodings,
) -> Result<(), SolveError> {
    let counted = problem.kind.dominating()
        || k.is_none_or(|k| problem.effective_formulation(formulation, k) != Formulation::Lines);
    if encodings.card.is_some() && !counted {
        return Err(SolveError::Inapplicable(Inapplicable::UncountedCard));
    }
    if encodings.amo.is_some() && !problem.kind.independent() {
        return Err(SolveError::Inapplicable(Inapplicable::AttacksAllowed));
    }
    Ok(())
}

/// The AMO choice for `problem` with `k` pieces (`None`: the optimum)
/// solved in-process by `solver` when none is asked for: [`Amo::Lazy`]
/// where the line propagator measured faster, [`Amo::Auto`] elsewhere
/// (docs/bench/lazy-propagation.md, "Eager encodings vs lazy propagation").
///
/// Lazy needs CaDiCaL; it is chosen where the exact lines of the `lines`
/// formulation give its first-fail decisions something to branch on
/// (N-queens, and rooks with k = min(rows, cols)). Without exact lines
/// (bishops, other k, independent domination, optima) it measured as fast
/// or slower, so those keep the clauses.
#[must_use]
pub fn default_amo(
    problem: &Problem,
    k: Option<usize>,
    formulation: Formulation,
    solver: SolverKind,
) -> Amo {
    let propagates = solver.propagates_lines();
    let exact_lines = problem.kind == Kind::Independence
        && k.is_some_and(|k| problem.effective_formulation(formulation, k) == Formulation::Lines);
    if propagates && exact_lines {
        Amo::Lazy
    } else {
        Amo::Auto
    }
}
