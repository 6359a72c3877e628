//! The puzzle families as pure CNF builders.
//!
//! A [`Problem`] is a board, a piece and a [`Kind`]; encoding it with a
//! [`Config`] (which AMO and cardinality encodings, which formulation)
//! writes clauses into any rustsat `CollectClauses` sink, so the same code
//! fills a `Cnf` for DIMACS or streams straight into a solver.

use std::fmt;

use rustsat::{
    clause,
    encodings::CollectClauses,
    instances::{BasicVarManager, ManageVars},
    types::{Clause, Lit, Var},
};

use crate::{
    amo::Amo,
    board::{Board, LineKind, Square},
    bound::{Bound, Direction},
    card::{Card, Counter},
    error::EncodeError,
    lazy::LazyLines,
    piece::Piece,
};

crate::name_table! {
    /// Which puzzle.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum Kind {
        /// k pieces, no two attacking (N-queens for k = n queens on n × n).
        Independence = "independence",
        /// At most k pieces such that every square is occupied or attacked.
        Domination = "domination",
        /// Domination by pieces no two of which attack each other.
        IndependentDomination = "independent-domination",
    }
}

impl Kind {
    /// Whether pieces may not attack each other.
    #[must_use]
    pub const fn independent(self) -> bool {
        matches!(self, Kind::Independence | Kind::IndependentDomination)
    }

    /// Whether every square must be covered.
    #[must_use]
    pub const fn dominating(self) -> bool {
        matches!(self, Kind::Domination | Kind::IndependentDomination)
    }

    /// The bound "k" means for this kind: exactly k pieces for independence,
    /// at most k for domination.
    #[must_use]
    pub const fn bound(self, k: usize) -> Bound {
        match self {
            Kind::Independence => Bound::Exactly(k),
            Kind::Domination | Kind::IndependentDomination => Bound::AtMost(k),
        }
    }
}

crate::name_table! {
    /// How independence constraints are stated.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
    pub enum Formulation {
        /// Reason on lines where the problem allows it.
        ///
        /// Independence of queens and rooks with k = min(rows, cols): every row
        /// and column exactly one (an at-least-one clause plus an AMO), every
        /// diagonal at most one, no global counter.
        ///
        /// Domination and independent domination by queens, rooks and bishops:
        /// one *line variable* per line of the piece ("a piece stands on this
        /// line", defined by `w ↔ ∨ line`), a coverage clause per square over
        /// the line variables through it (4 literals for a queen instead of
        /// about 4n), the global "at most k" counter, and the implied "at most
        /// k" on the line variables of each direction (k pieces occupy at most k
        /// rows; see [`Encoding::implied`]). The implied bounds remove no
        /// solution and turn the lower-bound proofs into counting arguments the
        /// solver propagates, which is why this is the default (BENCHMARKS.md,
        /// "γ(Q_13) = 7, the `lines` formulation of domination").
        ///
        /// Other problems (leapers, independence with another k) fall back to
        /// `cardinality`.
        #[default]
        Lines = "lines",
        /// At most one on every line plus one global cardinality constraint
        /// (the integer-programming model); domination by closed-neighbourhood
        /// clauses over the board variables.
        Cardinality = "cardinality",
    }
    parse_error: EncodeError = |name: &str| EncodeError::UnknownEncoding {
        name: name.to_string(),
        expected: Formulation::NAMES.join(", "),
    };
}

/// The encodings a problem is built with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Config {
    /// AMO encoding for lines.
    pub amo: Amo,
    /// Cardinality encoding for the global bound.
    pub card: Card,
    /// Formulation of independence.
    pub formulation: Formulation,
}

/// A puzzle: a board, a piece and a kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Problem {
    /// The board.
    pub board: Board,
    /// The piece placed.
    pub piece: Piece,
    /// The puzzle.
    pub kind: Kind,
}

/// Sizes of an encoding, measured as deltas on the sink and the variable
/// manager.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Stats {
    /// All variables, board and auxiliary.
    pub n_vars: u32,
    /// Board variables (`rows · cols`).
    pub n_board_vars: u32,
    /// Auxiliary variables introduced by the encodings.
    pub n_aux_vars: u32,
    /// Clauses.
    pub n_clauses: usize,
    /// Literal occurrences over all clauses.
    pub n_lits: usize,
}

/// The result of encoding a problem into a sink.
#[derive(Debug)]
pub struct Encoding {
    /// The problem encoded.
    pub problem: Problem,
    /// The bound on the number of pieces, when fixed in the clauses.
    pub bound: Option<Bound>,
    /// The encodings used; its formulation is the one actually used
    /// (`lines` falls back to `cardinality` where it does not apply).
    pub config: Config,
    /// Sizes.
    pub stats: Stats,
    /// The counter over the board, left open so a bound can be chosen by
    /// assumptions (see [`Problem::encode_open`]).
    pub counter: Option<Box<dyn Counter>>,
    /// With the bound open and the lines formulation of domination: one
    /// counter per line direction over its line variables, for the implied
    /// bound "k pieces occupy at most k lines of each direction" (enforce
    /// "at most k" on each next to the main counter's; see
    /// [`Formulation::Lines`]). Empty otherwise; a fixed bound adds them as
    /// hard clauses instead.
    pub implied: Vec<Box<dyn Counter>>,
    /// With [`Amo::Lazy`] ([`Problem::encode_lazy`]): the at-most-one
    /// constraints left out of the clauses, which a solver must enforce by
    /// propagation; the clauses alone are then not the problem. `None` for
    /// every eager encoding, and where the lazy AMO has no lines to leave
    /// out (domination, leapers).
    pub lazy: Option<LazyLines>,
    /// How long the clauses took to build, when it was measured (zero
    /// otherwise): a solver's session measures its encoding streamed into
    /// the solver, a split its base encoded once for every cube.
    pub time: std::time::Duration,
}

impl Encoding {
    /// The facts of this encoding — problem, bound, encodings, sizes, the
    /// lines left to a propagator — without its counters: what a report
    /// needs of an encoding a solver holds.
    #[must_use]
    pub fn facts(&self) -> Encoding {
        Encoding {
            problem: self.problem,
            bound: self.bound,
            config: self.config,
            stats: self.stats,
            counter: None,
            implied: Vec::new(),
            lazy: self.lazy.clone(),
            time: self.time,
        }
    }

    /// The sizes and choices in one line: `64 vars (0 auxiliary), 744
    /// clauses, 1584 literals; amo auto, card totalizer, formulation lines`.
    #[must_use]
    pub fn summary(&self) -> String {
        format!(
            "{}; amo {}, card {}, formulation {}",
            self.sizes(),
            self.config.amo,
            self.config.card,
            self.config.formulation
        )
    }

    /// The sizes alone: variables (auxiliary among them), clauses,
    /// literals.
    #[must_use]
    pub fn sizes(&self) -> String {
        let s = self.stats;
        format!(
            "{} ({} auxiliary), {}, {}",
            crate::words::plural(s.n_vars, "var", "vars"),
            s.n_aux_vars,
            crate::words::plural(s.n_clauses, "clause", "clauses"),
            crate::words::plural(s.n_lits, "literal", "literals"),
        )
    }

    /// Provenance lines for DIMACS comments and reports.
    #[must_use]
    pub fn describe(&self) -> Vec<String> {
        let p = &self.problem;
        let mut out = vec![
            format!("problem: {}", p.kind),
            format!("board: {}", p.board),
            format!("piece: {}", p.piece),
        ];
        match self.bound {
            Some(b) => out.push(format!("bound: {b} pieces")),
            None => out.push("bound: open (set by assumptions)".to_string()),
        }
        out.push(format!("formulation: {}", self.config.formulation));
        match &self.lazy {
            Some(lazy) => out.push(format!(
                "amo: lazy ({} at-most-one constraints over {} literals left to a propagator, not in these clauses)",
                lazy.n_groups(),
                lazy.n_lits()
            )),
            None => out.push(format!("amo: {}", self.config.amo)),
        }
        out.push(format!("card: {}", self.config.card));
        out
    }
}

/// A sink adapter that counts clauses and literals on their way through.
struct Measure<'a, C> {
    inner: &'a mut C,
    n_clauses: usize,
    n_lits: usize,
}

impl<C: CollectClauses> CollectClauses for Measure<'_, C> {
    fn n_clauses(&self) -> usize {
        self.inner.n_clauses()
    }

    fn extend_clauses<T>(&mut self, cl_iter: T) -> Result<(), rustsat::OutOfMemory>
    where
        T: IntoIterator<Item = Clause>,
    {
        let (n_clauses, n_lits) = (&mut self.n_clauses, &mut self.n_lits);
        self.inner.extend_clauses(cl_iter.into_iter().inspect(|cl| {
            *n_clauses += 1;
            *n_lits += cl.len();
        }))
    }
}

impl Problem {
    /// A problem over `board`.
    #[must_use]
    pub const fn new(board: Board, piece: Piece, kind: Kind) -> Self {
        Problem { board, piece, kind }
    }

    /// An upper bound on the number of pieces that do not attack each
    /// other: pieces per line for sliders (a queen or rook per row or
    /// column, a bishop per diagonal), one king per 2 × 2 block, the whole
    /// board for knights (no simple bound is used). The optimiser sizes its
    /// counter one past it, so that the solver proves it.
    #[must_use]
    pub fn independence_upper_bound(&self) -> usize {
        let (r, c) = (self.board.rows(), self.board.cols());
        match self.piece {
            crate::piece::Piece::Queen | crate::piece::Piece::Rook => r.min(c),
            crate::piece::Piece::Bishop => r + c - 1,
            crate::piece::Piece::King => r.div_ceil(2) * c.div_ceil(2),
            crate::piece::Piece::Knight => self.board.n_squares(),
        }
    }

    /// N-queens on an n × n board: independence of n queens.
    ///
    /// # Errors
    ///
    /// As [`Board::square`].
    pub fn queens(n: usize) -> Result<Self, EncodeError> {
        Ok(Problem::new(
            Board::square(n)?,
            Piece::Queen,
            Kind::Independence,
        ))
    }

    /// A variable manager with the board variables already taken, so that
    /// auxiliaries come after them.
    #[must_use]
    pub fn var_manager(&self) -> BasicVarManager {
        let mut vars = BasicVarManager::default();
        vars.increase_next_free(Var::new(board_vars(&self.board)));
        vars
    }

    /// Whether the `lines` formulation applies for `k` pieces (see
    /// [`Formulation::Lines`]): independence of n queens or rooks, or
    /// domination of any kind by a piece that only slides (any `k`).
    #[must_use]
    pub fn lines_apply(&self, k: usize) -> bool {
        if self.kind.dominating() {
            return self.piece.is_slider() && self.piece.leaps().is_empty();
        }
        matches!(self.piece, Piece::Queen | Piece::Rook)
            && k == self.board.rows().min(self.board.cols())
    }

    /// The formulation `requested` becomes for `k` pieces.
    #[must_use]
    pub fn effective_formulation(&self, requested: Formulation, k: usize) -> Formulation {
        if requested == Formulation::Lines && self.lines_apply(k) {
            Formulation::Lines
        } else {
            Formulation::Cardinality
        }
    }

    /// Encodes the problem with exactly `k` pieces (independence) or at most
    /// `k` (domination) into `sink`: the whole problem as clauses, what
    /// DIMACS output, cube files and proofs need.
    ///
    /// `vars` must come from [`Problem::var_manager`] (or otherwise have the
    /// board variables taken).
    ///
    /// # Errors
    ///
    /// [`EncodeError::Infeasible`] when k exceeds the number of squares for
    /// independence; [`EncodeError::OutOfMemory`] when the sink cannot grow;
    /// [`EncodeError::LazyNotInClauses`] when [`Amo::Lazy`] would leave
    /// lines out of the clauses (use [`Problem::encode_lazy`] for a solver
    /// that propagates them).
    pub fn encode<C: CollectClauses>(
        &self,
        k: usize,
        config: Config,
        sink: &mut C,
        vars: &mut BasicVarManager,
    ) -> Result<Encoding, EncodeError> {
        refuse_lazy(self.lazy_lines_bounded(k, config))?;
        self.encode_lazy(k, config, sink, vars)
    }

    /// As [`Problem::encode`], except that with [`Amo::Lazy`] the lines are
    /// not refused but recorded in [`Encoding::lazy`], for a solver that
    /// enforces them by propagation (boardsat-solve's line propagator).
    /// The same as [`Problem::encode`] for every other AMO.
    ///
    /// # Errors
    ///
    /// [`EncodeError::Infeasible`], [`EncodeError::OutOfMemory`].
    pub fn encode_lazy<C: CollectClauses>(
        &self,
        k: usize,
        config: Config,
        sink: &mut C,
        vars: &mut BasicVarManager,
    ) -> Result<Encoding, EncodeError> {
        let bound = self.kind.bound(k);
        bound.check(self.board.n_squares())?;
        let formulation = self.effective_formulation(config.formulation, k);
        let before = vars.n_used();
        let mut sink = Measure {
            inner: sink,
            n_clauses: 0,
            n_lits: 0,
        };
        let line_vars = self.encode_base(config.amo, formulation, &mut sink, vars)?;
        let lazy = self.lazy_lines_bounded(k, config);
        // Independence in the lines formulation needs no counter: the exact
        // lines count for it.
        if formulation == Formulation::Cardinality || self.kind.dominating() {
            let lits = self.counter_inputs(formulation);
            config.card.encode(&lits, bound, &mut sink, vars)?;
            for lits in &line_vars {
                config
                    .card
                    .encode(lits, Bound::AtMost(k), &mut sink, vars)?;
            }
        }
        let config = Config {
            formulation,
            ..config
        };
        let mut encoding = self.finish(Some(bound), config, before, &sink, vars);
        encoding.lazy = lazy;
        Ok(encoding)
    }

    /// Encodes the problem with no bound on the number of pieces: the
    /// non-attack and coverage clauses alone, without a counter — the hard
    /// clauses of a MaxSAT instance whose soft clauses count the pieces
    /// ([`crate::export::wcnf`]). Without k independence has no exact lines
    /// and takes the `cardinality` formulation; domination keeps its
    /// formulation, without the implied bounds (which need a k).
    /// [`Encoding::bound`] is `None` and [`Encoding::counter`] too.
    ///
    /// # Errors
    ///
    /// [`EncodeError::OutOfMemory`] when the sink cannot grow;
    /// [`EncodeError::LazyNotInClauses`] as for [`Problem::encode`].
    pub fn encode_unbounded<C: CollectClauses>(
        &self,
        config: Config,
        sink: &mut C,
        vars: &mut BasicVarManager,
    ) -> Result<Encoding, EncodeError> {
        let formulation = self.open_formulation(config, self.board.n_squares());
        refuse_lazy(self.lazy_lines(config.amo, formulation))?;
        let before = vars.n_used();
        let mut sink = Measure {
            inner: sink,
            n_clauses: 0,
            n_lits: 0,
        };
        self.encode_base(config.amo, formulation, &mut sink, vars)?;
        let config = Config {
            formulation,
            ..config
        };
        Ok(self.finish(None, config, before, &sink, vars))
    }

    /// Encodes the problem with the number of pieces left open: a counter of
    /// `config.card` over the board is built for bounds up to `max_bound`
    /// (upper bounds for domination, lower bounds for independence) and
    /// returned in [`Encoding::counter`], to be enforced by assumptions.
    ///
    /// # Errors
    ///
    /// [`EncodeError::OutOfMemory`] when the sink cannot grow;
    /// [`EncodeError::LazyNotInClauses`] as for [`Problem::encode`].
    pub fn encode_open<C: CollectClauses>(
        &self,
        max_bound: usize,
        config: Config,
        sink: &mut C,
        vars: &mut BasicVarManager,
    ) -> Result<Encoding, EncodeError> {
        refuse_lazy(self.lazy_lines_open(max_bound, config))?;
        self.encode_open_lazy(max_bound, config, sink, vars)
    }

    /// As [`Problem::encode_open`], with the lines of [`Amo::Lazy`]
    /// recorded in [`Encoding::lazy`] (see [`Problem::encode_lazy`]).
    ///
    /// # Errors
    ///
    /// [`EncodeError::OutOfMemory`] when the sink cannot grow.
    pub fn encode_open_lazy<C: CollectClauses>(
        &self,
        max_bound: usize,
        config: Config,
        sink: &mut C,
        vars: &mut BasicVarManager,
    ) -> Result<Encoding, EncodeError> {
        let before = vars.n_used();
        let mut sink = Measure {
            inner: sink,
            n_clauses: 0,
            n_lits: 0,
        };
        let formulation = self.open_formulation(config, max_bound);
        let line_vars = self.encode_base(config.amo, formulation, &mut sink, vars)?;
        let direction = if self.kind.dominating() {
            Direction::Upper
        } else {
            Direction::Lower
        };
        let counter = config.card.build(
            &self.counter_inputs(formulation),
            direction,
            max_bound,
            &mut sink,
            vars,
        )?;
        let implied = line_vars
            .iter()
            .map(|lits| {
                config
                    .card
                    .build(lits, Direction::Upper, max_bound, &mut sink, vars)
            })
            .collect::<Result<_, _>>()?;
        let used = Config {
            formulation,
            ..config
        };
        let mut encoding = self.finish(None, used, before, &sink, vars);
        encoding.counter = Some(counter);
        encoding.implied = implied;
        encoding.lazy = self.lazy_lines_open(max_bound, config);
        Ok(encoding)
    }

    /// The formulation of an open encoding: with the bound open, the lines
    /// formulation applies only to domination (independence needs the
    /// exact k of the lines).
    fn open_formulation(&self, config: Config, max_bound: usize) -> Formulation {
        if self.kind.dominating() {
            self.effective_formulation(config.formulation, max_bound)
        } else {
            Formulation::Cardinality
        }
    }

    /// The lines [`Amo::Lazy`] leaves to a propagator in `formulation`:
    /// those of a sliding piece that may not attack (independence,
    /// independent domination), with N-queens' rows and columns marked
    /// exact in the `lines` formulation. `None` for other AMO choices and
    /// where there are no such lines (domination, leapers, whose attack
    /// pairs stay clauses: lazily they measured slower, BENCHMARKS.md).
    #[must_use]
    pub fn lazy_lines(&self, amo: Amo, formulation: Formulation) -> Option<LazyLines> {
        if !amo.is_lazy() || !self.kind.independent() || !self.piece.is_slider() {
            return None;
        }
        let mut lines = LazyLines::new(self.board, self.piece);
        lines.exact = lines
            .kinds
            .iter()
            .copied()
            .filter(|&kind| self.exact(formulation, kind))
            .collect();
        Some(lines)
    }

    /// The lines [`Problem::encode_lazy`] leaves to a propagator for `k`
    /// pieces (its [`Encoding::lazy`]), known before any clause: a solver
    /// is sized for the board and connected to its propagator first, and
    /// the clauses then stream into it.
    #[must_use]
    pub fn lazy_lines_bounded(&self, k: usize, config: Config) -> Option<LazyLines> {
        self.lazy_lines(
            config.amo,
            self.effective_formulation(config.formulation, k),
        )
    }

    /// As [`Problem::lazy_lines_bounded`], for [`Problem::encode_open_lazy`]
    /// up to `max_bound` pieces.
    #[must_use]
    pub fn lazy_lines_open(&self, max_bound: usize, config: Config) -> Option<LazyLines> {
        self.lazy_lines(config.amo, self.open_formulation(config, max_bound))
    }

    /// Whether the lines of `kind` get at-least-one clauses: N-queens'
    /// (independent domination in the lines formulation has line
    /// variables instead).
    fn exact(&self, formulation: Formulation, kind: LineKind) -> bool {
        formulation == Formulation::Lines
            && self.kind == Kind::Independence
            && self.exact_line(kind)
    }

    /// The encoding of this problem with `bound`, encoded with `config`
    /// (its formulation the one used) into `sink` from `vars_before`
    /// variables on: its sizes, no counter, no lazy lines.
    fn finish<C>(
        &self,
        bound: Option<Bound>,
        config: Config,
        vars_before: u32,
        sink: &Measure<'_, C>,
        vars: &BasicVarManager,
    ) -> Encoding {
        let n_board_vars = board_vars(&self.board);
        Encoding {
            problem: *self,
            bound,
            config,
            stats: Stats {
                n_vars: vars.n_used(),
                n_board_vars,
                n_aux_vars: vars.n_used().saturating_sub(vars_before.max(n_board_vars)),
                n_clauses: sink.n_clauses,
                n_lits: sink.n_lits,
            },
            counter: None,
            implied: Vec::new(),
            lazy: None,
            time: std::time::Duration::ZERO,
        }
    }

    /// The inputs of the counter over the board in `formulation`.
    ///
    /// In the `cardinality` formulation, the board literals along a Hilbert
    /// curve ([`Board::hilbert_order`]): it refuted domination bounds faster
    /// than row-major order with every counter measured. In the `lines`
    /// formulation the order measured neutral on refutations and mixed on
    /// SAT calls, so the inputs stay in variable order. Figures and commands:
    /// BENCHMARKS.md, "Spatial (Hilbert-curve) order of the counter's
    /// inputs".
    #[must_use]
    pub fn counter_inputs(&self, formulation: Formulation) -> Vec<Lit> {
        match formulation {
            Formulation::Cardinality => self
                .board
                .hilbert_order()
                .into_iter()
                .map(|sq| self.board.lit(sq))
                .collect(),
            Formulation::Lines => self.board_lits(),
        }
    }

    /// The board literals in variable order.
    #[must_use]
    pub fn board_lits(&self) -> Vec<Lit> {
        self.board.squares().map(|sq| self.board.lit(sq)).collect()
    }

    /// The binary clauses "not both" of every two squares a leap joins,
    /// each pair once. Built from the leaps alone
    /// ([`Piece::leap_targets`]): the lines have their AMO encodings, so
    /// a piece that both rode and leapt would otherwise repeat every line
    /// pair here.
    fn leap_pairs(&self) -> Vec<Clause> {
        let board = &self.board;
        let mut clauses = Vec::new();
        for from in board.squares() {
            for to in self.piece.leap_targets(board, from) {
                if board.index(to) > board.index(from) {
                    clauses.push(clause![!board.lit(from), !board.lit(to)]);
                }
            }
        }
        clauses
    }

    /// Non-attack and coverage clauses: everything but the global count.
    /// Returns the line variables of domination in the lines formulation,
    /// one list per line direction of the piece (empty otherwise).
    fn encode_base<C: CollectClauses>(
        &self,
        amo: Amo,
        formulation: Formulation,
        sink: &mut C,
        vars: &mut BasicVarManager,
    ) -> Result<Vec<Vec<Lit>>, EncodeError> {
        let board = &self.board;
        if self.kind.independent() {
            for &kind in self.piece.line_kinds() {
                let exact = self.exact(formulation, kind);
                // The lazy AMO leaves the lines to a propagator
                // ([`Problem::lazy_lines`]); only exact lines have clauses.
                if amo.is_lazy() && !exact {
                    continue;
                }
                for line in board.lines(kind) {
                    let lits: Vec<Lit> = line.iter().map(|&sq| board.lit(sq)).collect();
                    if exact {
                        sink.add_clause(lits.iter().copied().collect())?;
                    }
                    if !amo.is_lazy() {
                        amo.encode(&lits, sink, vars)?;
                    }
                }
            }
            if !self.piece.leaps().is_empty() {
                sink.extend_clauses(self.leap_pairs())?;
            }
        }
        if self.kind.dominating() && formulation == Formulation::Lines {
            return self.encode_line_coverage(sink, vars);
        }
        if self.kind.dominating() {
            let coverage: Vec<Clause> = board
                .squares()
                .map(|sq| {
                    self.piece
                        .closed_neighbourhood(board, sq)
                        .into_iter()
                        .map(|s: Square| board.lit(s))
                        .collect()
                })
                .collect();
            sink.extend_clauses(coverage)?;
        }
        Ok(Vec::new())
    }

    /// Coverage through line variables (see [`Formulation::Lines`]): for
    /// each line `L` of the piece a variable `w ↔ ∨ L`, and for each square
    /// the clause "some line through it holds a piece". Only for pieces that
    /// just slide: a square is covered exactly when a piece shares one of
    /// those lines with it, the square itself included.
    fn encode_line_coverage<C: CollectClauses>(
        &self,
        sink: &mut C,
        vars: &mut BasicVarManager,
    ) -> Result<Vec<Vec<Lit>>, EncodeError> {
        let board = &self.board;
        let kinds = self.piece.line_kinds();
        let mut families = Vec::with_capacity(kinds.len());
        for &kind in kinds {
            let mut family = Vec::with_capacity(board.n_lines(kind));
            let mut clauses = Vec::new();
            for index in 0..board.n_lines(kind) {
                let w = vars.new_lit();
                let mut some: Clause = clause![!w];
                for sq in board.line(kind, index) {
                    let x = board.lit(sq);
                    some.add(x);
                    clauses.push(clause![!x, w]);
                }
                clauses.push(some);
                family.push(w);
            }
            sink.extend_clauses(clauses)?;
            families.push(family);
        }
        let coverage: Vec<Clause> = board
            .squares()
            .map(|sq| {
                kinds
                    .iter()
                    .zip(&families)
                    .map(|(&kind, family)| family[board.line_index(kind, sq)])
                    .collect()
            })
            .collect();
        sink.extend_clauses(coverage)?;
        Ok(families)
    }

    /// In the lines formulation, whether every line of `kind` holds exactly
    /// one piece: rows when rows ≤ cols, columns when cols ≤ rows.
    pub(crate) fn exact_line(&self, kind: LineKind) -> bool {
        let (rows, cols) = (self.board.rows(), self.board.cols());
        match kind {
            LineKind::Row => rows <= cols,
            LineKind::Column => cols <= rows,
            LineKind::Diagonal | LineKind::AntiDiagonal => false,
        }
    }
}

/// Refuses lines left to a propagator where the clauses must be the whole
/// problem.
fn refuse_lazy(lines: Option<LazyLines>) -> Result<(), EncodeError> {
    match lines {
        Some(lines) if !lines.is_empty() => Err(EncodeError::LazyNotInClauses {
            groups: lines.n_groups(),
        }),
        _ => Ok(()),
    }
}

fn board_vars(board: &Board) -> u32 {
    // Board::new bounds the square count by MAX_SQUARES < u32::MAX.
    u32::try_from(board.n_squares()).unwrap_or(u32::MAX)
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} of {}s on {}", self.kind, self.piece, self.board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pairs of a leaper are its attack graph's edges, once each, and
    /// a slider has none: no line pair is repeated as a leap pair.
    #[test]
    fn leap_pairs_are_the_leaps_once_each() {
        let problem = |piece| Problem::new(Board::square(8).unwrap(), piece, Kind::Independence);
        // The king graph on n × n: 2n(n − 1) orthogonal and 2(n − 1)²
        // diagonal edges; the knight graph: 4(n − 1)(n − 2).
        assert_eq!(
            problem(Piece::King).leap_pairs().len(),
            2 * 8 * 7 + 2 * 7 * 7
        );
        assert_eq!(problem(Piece::Knight).leap_pairs().len(), 4 * 7 * 6);
        for piece in [Piece::Queen, Piece::Rook, Piece::Bishop] {
            assert!(problem(piece).leap_pairs().is_empty());
        }
    }
}
