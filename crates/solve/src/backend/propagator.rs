//! At-most-one lines as a propagator inside the solver's search
//! ([`boardsat_encode::Amo::Lazy`]).
//!
//! An encoding with the lazy AMO writes no clause for "at most one piece on
//! this line"; it records the lines ([`LazyLines`]) and this propagator
//! enforces them through CaDiCaL's external-propagator interface
//! (IPASIR-UP), while CaDiCaL keeps its CDCL search, clause learning and
//! restarts:
//!
//! - **Propagation.** When a square becomes true, every other square of its
//!   lines (and, for leapers, the squares a leap away) becomes false, one
//!   literal per `cb_propagate` call. A square that is already true there
//!   is a conflict.
//! - **Explanation on demand.** Each propagation and each conflict is
//!   explained, only when CaDiCaL asks, by the binary clause `¬x ∨ ¬y` of
//!   the square `x` that caused it and the square `y` it falsified: a clause
//!   of the pairwise encoding, so nothing is added that the eager encodings
//!   do not imply ([`LinesOptions::record_clauses`] logs them for tests).
//! - **Decisions** ([`Decide::FirstFail`]): on the *exact* lines (N-queens'
//!   rows, whose at-least-one clauses stay in the CNF; the columns of a
//!   board with more rows than columns), the line with the fewest free
//!   squares (ties: the first), then its free square nearest the centre
//!   (ties: the first), placed — the classic constraint-programming
//!   heuristic for N-queens (first fail, centre value), with learning and
//!   restarts underneath. Problems without exact lines leave decisions to
//!   CaDiCaL. The variants measured (BENCHMARKS.md): rows and columns as
//!   candidates, deciding squares false, leaving every decision to
//!   CaDiCaL were slower or heavy-tailed; random tie-breaking and the
//!   centre of the free squares instead of the line's changed little.
//! - **Backtracking.** The propagator keeps its own trail with one mark per
//!   decision level; `notify_backtrack` undoes everything notified above
//!   the level, and CaDiCaL notifies again what it keeps out of order. A
//!   true square is processed at the level it was notified on, so every
//!   square it falsified lives at most as long as it does.
//! - **Interrupts.** The time limit and the interrupt flag are checked
//!   every [`STOP_CHECK_INTERVAL`] propagations, so a long propagation (a
//!   huge board, a chain of forced placements) stops promptly: the
//!   propagator then answers "nothing to propagate" and CaDiCaL's own
//!   terminator, polled on the same flag, ends the call with UNKNOWN.
//! - **Models** are checked line by line in `cb_check_found_model`; a
//!   violation (which the propagation above rules out unless the call was
//!   stopped half way) is repaired with its binary clause.
//!
//! The propagator holds 9 bytes per board square (value, reason, trail
//! entry) and O(rows + cols) for the line counts: the lines themselves are
//! geometry, never lists.

// Without CaDiCaL nothing connects the propagator: only the public types
// and the default choice are used then.
#![cfg_attr(not(feature = "cadical"), allow(dead_code))]

use std::{cell::RefCell, rc::Rc};

use boardsat_encode::{LazyLines, LineKind};
use rustsat::types::Lit;

/// Propagations between two looks at the time limit and interrupt flag.
pub const STOP_CHECK_INTERVAL: u32 = 1024;

/// Values in [`Core`]'s state words.
const UNASSIGNED: u32 = 0;
const TRUE: u32 = 1;
const FALSE: u32 = 2;
const VALUE: u32 = 3;

/// How the propagator answers the solver's decisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Decide {
    /// Every decision is the solver's own (VSIDS, phases).
    Solver,
    /// First fail on the exact lines, the free square nearest the centre,
    /// placed (see the module docs); the solver's own choice where there
    /// are no exact lines.
    #[default]
    FirstFail,
}

/// Options of the line propagator.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LinesOptions {
    /// Who decides.
    pub decide: Decide,
    /// Keep a copy of every clause handed to the solver (reasons, conflicts,
    /// model repairs) in [`LinesStats::clauses`], for tests that check each
    /// is implied by the eager encoding. Costs memory per clause.
    pub record_clauses: bool,
}

/// What the propagator has done so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinesStats {
    /// Squares falsified by propagation.
    pub propagations: u64,
    /// Conflicts found (a second square of a line already true).
    pub conflicts: u64,
    /// Reason clauses handed over (conflicts included).
    pub reasons: u64,
    /// Decisions answered.
    pub decisions: u64,
    /// Models rejected with a repair clause.
    pub repairs: u64,
    /// With [`LinesOptions::record_clauses`]: every clause handed over.
    pub clauses: Vec<Vec<Lit>>,
}

/// Whether the current call should stop (time limit or interrupt), as the
/// backend tells it.
pub(crate) trait StopCheck {
    fn stopped(&self) -> bool;
}

/// The board geometry the propagator reasons on.
#[derive(Clone, Debug)]
struct Grid {
    rows: usize,
    cols: usize,
    /// Row, column, diagonal, anti-diagonal: whether lines of that kind are
    /// at most one.
    kinds: [bool; 4],
    leaps: Vec<(isize, isize)>,
}

fn kind_index(kind: LineKind) -> usize {
    match kind {
        LineKind::Row => 0,
        LineKind::Column => 1,
        LineKind::Diagonal => 2,
        LineKind::AntiDiagonal => 3,
    }
}

impl Grid {
    fn n_squares(&self) -> usize {
        self.rows * self.cols
    }

    /// The DIMACS variable of `(r, c)`.
    fn var(&self, r: usize, c: usize) -> i32 {
        // The board has at most MAX_SQUARES < i32::MAX squares.
        (r * self.cols + c + 1) as i32
    }

    /// `(row, col)` of board variable `var` (1-based).
    fn square(&self, var: usize) -> (usize, usize) {
        ((var - 1) / self.cols, (var - 1) % self.cols)
    }

    /// Pushes every square sharing a line with `(r, c)` or a leap away
    /// from it.
    fn neighbours(&self, r: usize, c: usize, out: &mut Vec<i32>) {
        let mut push = |rr: usize, cc: usize| {
            if (rr, cc) != (r, c) {
                out.push(self.var(rr, cc));
            }
        };
        if self.kinds[0] {
            (0..self.cols).for_each(|cc| push(r, cc));
        }
        if self.kinds[1] {
            (0..self.rows).for_each(|rr| push(rr, c));
        }
        if self.kinds[2] {
            let d = r.min(c);
            let (r0, c0) = (r - d, c - d);
            let len = (self.rows - r0).min(self.cols - c0);
            (0..len).for_each(|i| push(r0 + i, c0 + i));
        }
        if self.kinds[3] {
            let d = r.min(self.cols - 1 - c);
            let (r0, c0) = (r - d, c + d);
            let len = (self.rows - r0).min(c0 + 1);
            (0..len).for_each(|i| push(r0 + i, c0 - i));
        }
        for &(dr, dc) in &self.leaps {
            if let (Some(rr), Some(cc)) = (r.checked_add_signed(dr), c.checked_add_signed(dc)) {
                if rr < self.rows && cc < self.cols {
                    push(rr, cc);
                }
            }
        }
    }

    /// The index of the line of kind `k` (0..4) through `(r, c)`.
    fn line_id(&self, k: usize, r: usize, c: usize) -> usize {
        match k {
            0 => r,
            1 => c,
            2 => c + self.rows - 1 - r,
            _ => r + c,
        }
    }

    fn n_lines(&self, k: usize) -> usize {
        match k {
            0 => self.rows,
            1 => self.cols,
            _ => self.rows + self.cols - 1,
        }
    }
}

/// Free and occupied counts of the exact lines of one direction, for
/// first-fail decisions: the rows when they are exact, else the columns.
/// (Branching on rows only is the constraint-programming model, one
/// variable per row; adding the columns as candidates made the search
/// heavy-tailed, BENCHMARKS.md.)
#[derive(Clone, Debug)]
struct Exact {
    /// Whether the lines are rows (else columns).
    rows: bool,
    /// Per line: unassigned squares.
    free: Vec<u32>,
    /// Per line: true squares.
    placed: Vec<u32>,
}

impl Exact {
    fn new(grid: &Grid, lines: &LazyLines) -> Option<Exact> {
        let (rows, count, len) = if lines.exact.contains(&LineKind::Row) {
            (true, grid.rows, grid.cols)
        } else if lines.exact.contains(&LineKind::Column) {
            (false, grid.cols, grid.rows)
        } else {
            return None;
        };
        Some(Exact {
            rows,
            free: vec![len as u32; count],
            placed: vec![0; count],
        })
    }

    /// The line through `(r, c)`.
    fn id(&self, r: usize, c: usize) -> usize {
        if self.rows {
            r
        } else {
            c
        }
    }

    fn update(&mut self, r: usize, c: usize, value: bool, assign: bool) {
        let id = self.id(r, c);
        if assign {
            self.free[id] -= 1;
            self.placed[id] += u32::from(value);
        } else {
            self.free[id] += 1;
            self.placed[id] -= u32::from(value);
        }
    }

    /// The open line (no piece yet) with the fewest free squares; ties go
    /// to the lowest index.
    fn first_fail(&self) -> Option<usize> {
        let mut best: Option<(u32, usize)> = None;
        for (id, (&free, &placed)) in self.free.iter().zip(&self.placed).enumerate() {
            if placed == 0 && free > 0 && best.is_none_or(|(f, _)| free < f) {
                best = Some((free, id));
            }
        }
        best.map(|(_, id)| id)
    }
}

/// The propagator's state, independent of the solver it talks to.
pub(crate) struct Core<S> {
    grid: Grid,
    /// Per variable (1-based; index 0 unused): the value in the low two
    /// bits ([`UNASSIGNED`], [`TRUE`], [`FALSE`]) and above them the true
    /// square whose line falsified it. One word, so that falsifying a
    /// square touches one cache line of the propagator's memory.
    state: Vec<u32>,
    /// Assigned literals in notification order.
    trail: Vec<i32>,
    /// Trail length at the start of each decision level.
    levels: Vec<usize>,
    /// Next trail position to propagate from.
    head: usize,
    /// Squares the current source square still has to falsify.
    pending: Vec<i32>,
    /// The true square `pending` belongs to, and its trail position.
    source: i32,
    source_pos: usize,
    /// A conflict handed over as a propagation: (the true square, the
    /// square whose line it shares).
    conflict: Option<(i32, i32)>,
    /// The clause being handed over, reversed; `Some(empty)` ends it.
    reason_out: Option<Vec<i32>>,
    /// Repair clauses waiting, and the one being handed over.
    repairs: Vec<Vec<i32>>,
    repair_out: Option<Vec<i32>>,
    exact: Option<Exact>,
    options: LinesOptions,
    stop: S,
    until_check: u32,
    stopped: bool,
    stats: Rc<RefCell<LinesStats>>,
    /// The board part of the last model accepted.
    model: Rc<RefCell<Model>>,
}

/// The board variables of the last model the propagator accepted, as a
/// bitset: read by the backend instead of asking CaDiCaL square by square.
#[derive(Debug, Default)]
pub(crate) struct Model {
    /// Bit `v` for board variable `v` (1-based).
    bits: Vec<u64>,
    /// The board variables are 1 ..= `n_squares`.
    n_squares: usize,
    /// Whether `bits` is the current search's model; the backend clears it
    /// when a search starts.
    pub(crate) valid: bool,
}

impl Model {
    fn set(&mut self, placed: &[i32]) {
        self.bits.iter_mut().for_each(|w| *w = 0);
        for &var in placed {
            let var = var as usize;
            if let Some(word) = self.bits.get_mut(var / 64) {
                *word |= 1 << (var % 64);
            }
        }
        self.valid = true;
    }

    /// The value of board variable `var` (1-based), if the model has it.
    pub(crate) fn value(&self, var: usize) -> Option<bool> {
        if !self.valid || var == 0 || var > self.n_squares {
            return None;
        }
        let word = self.bits.get(var / 64)?;
        Some(word >> (var % 64) & 1 == 1)
    }

    fn for_board(n_squares: usize) -> Model {
        Model {
            bits: vec![0; n_squares / 64 + 1],
            n_squares,
            valid: false,
        }
    }
}

impl<S: StopCheck> Core<S> {
    /// A propagator for `lines`, sharing `stats` with whoever connected it.
    pub(crate) fn new(
        lines: &LazyLines,
        options: LinesOptions,
        stop: S,
        stats: Rc<RefCell<LinesStats>>,
    ) -> Self {
        let board = lines.board.n_squares();
        let mut kinds = [false; 4];
        for &kind in &lines.kinds {
            kinds[kind_index(kind)] = true;
        }
        let grid = Grid {
            rows: lines.board.rows(),
            cols: lines.board.cols(),
            kinds,
            leaps: lines.leaps.clone(),
        };
        let n = grid.n_squares();
        let exact = match options.decide {
            Decide::FirstFail => Exact::new(&grid, lines),
            Decide::Solver => None,
        };
        Core {
            state: vec![UNASSIGNED; n + 1],
            trail: Vec::new(),
            levels: Vec::new(),
            head: 0,
            pending: Vec::new(),
            source: 0,
            source_pos: 0,
            conflict: None,
            reason_out: None,
            repairs: Vec::new(),
            repair_out: None,
            exact,
            options,
            stop,
            until_check: STOP_CHECK_INTERVAL,
            stopped: false,
            stats,
            model: Rc::new(RefCell::new(Model::for_board(board))),
            grid,
        }
    }

    /// The accepted models' board part, shared with the backend.
    pub(crate) fn model(&self) -> Rc<RefCell<Model>> {
        Rc::clone(&self.model)
    }

    /// The board variables: 1 ..= n.
    pub(crate) fn n_vars(&self) -> usize {
        self.grid.n_squares()
    }

    /// 1 when `lit` is true, −1 when false, 0 when unassigned.
    fn value(&self, lit: i32) -> i8 {
        let v = match self.state[lit.unsigned_abs() as usize] & VALUE {
            TRUE => 1,
            FALSE => -1,
            _ => 0,
        };
        if lit < 0 {
            -v
        } else {
            v
        }
    }

    pub(crate) fn notify_assignment(&mut self, lits: &[i32]) {
        for &lit in lits {
            let var = lit.unsigned_abs() as usize;
            // Only board variables are observed; a literal seen twice is a
            // root-level one notified again after a restart of the trail.
            let Some(slot) = self.state.get_mut(var) else {
                continue;
            };
            if var == 0 || *slot & VALUE != UNASSIGNED {
                continue;
            }
            *slot |= if lit > 0 { TRUE } else { FALSE };
            self.trail.push(lit);
            if let Some(exact) = &mut self.exact {
                let (r, c) = self.grid.square(var);
                exact.update(r, c, lit > 0, true);
            }
        }
    }

    pub(crate) fn notify_new_decision_level(&mut self) {
        self.levels.push(self.trail.len());
    }

    pub(crate) fn notify_backtrack(&mut self, new_level: usize) {
        let Some(&keep) = self.levels.get(new_level) else {
            return;
        };
        self.levels.truncate(new_level);
        while self.trail.len() > keep {
            let Some(lit) = self.trail.pop() else { break };
            let var = lit.unsigned_abs() as usize;
            self.state[var] &= !VALUE;
            if let Some(exact) = &mut self.exact {
                let (r, c) = self.grid.square(var);
                exact.update(r, c, lit > 0, false);
            }
        }
        if !self.pending.is_empty() || self.source != 0 {
            // A square half processed and kept is processed again.
            self.head = self.head.min(self.source_pos);
        }
        self.head = self.head.min(keep);
        self.pending.clear();
        self.source = 0;
        self.conflict = None;
    }

    fn check_stop(&mut self) -> bool {
        // Once stopped, every call looks again: the flag may have been
        // cleared for the next solve (a time limit per call, a reset
        // interrupter), and that call must not stall its propagation.
        if self.stopped || self.until_check == 0 {
            self.until_check = STOP_CHECK_INTERVAL;
            self.stopped = self.stop.stopped();
        } else {
            self.until_check -= 1;
        }
        self.stopped
    }

    /// The next literal to propagate, or 0 when the lines are at a fixpoint
    /// (or the call is being stopped).
    pub(crate) fn cb_propagate(&mut self) -> i32 {
        loop {
            while let Some(y) = self.pending.pop() {
                match self.value(y) {
                    0 => {
                        if self.check_stop() {
                            self.pending.push(y);
                            return 0;
                        }
                        // The board has at most 2^28 squares: the reason
                        // fits above the two value bits.
                        let slot = &mut self.state[y.unsigned_abs() as usize];
                        *slot = (self.source as u32) << 2 | (*slot & VALUE);
                        self.stats.borrow_mut().propagations += 1;
                        return -y;
                    }
                    1 => {
                        self.conflict = Some((y, self.source));
                        self.stats.borrow_mut().conflicts += 1;
                        return -y;
                    }
                    _ => {}
                }
            }
            self.source = 0;
            if self.head >= self.trail.len() {
                return 0;
            }
            let pos = self.head;
            let lit = self.trail[pos];
            self.head += 1;
            if lit < 0 {
                continue;
            }
            self.source = lit;
            self.source_pos = pos;
            let (r, c) = self.grid.square(lit as usize);
            // Unfiltered: each square's state is read once, when popped.
            self.grid.neighbours(r, c, &mut self.pending);
        }
    }

    /// The clause explaining `propagated` (a square made false, or, after a
    /// conflict, a true square), literal by literal, then 0.
    pub(crate) fn cb_add_reason_clause_lit(&mut self, propagated: i32) -> i32 {
        if self.reason_out.is_none() {
            let y = -propagated;
            let x = match self.conflict {
                Some((true_square, x)) if true_square == y => x,
                _ => (self.state[y.unsigned_abs() as usize] >> 2) as i32,
            };
            let clause = vec![propagated, -x];
            let mut stats = self.stats.borrow_mut();
            stats.reasons += 1;
            if self.options.record_clauses {
                stats.clauses.push(to_lits(&clause));
            }
            self.reason_out = Some(clause.into_iter().rev().collect());
        }
        match self.reason_out.as_mut().and_then(Vec::pop) {
            Some(lit) => lit,
            None => {
                self.reason_out = None;
                0
            }
        }
    }

    /// A decision: first fail on the exact lines, the free square nearest
    /// the centre; 0 leaves it to the solver.
    pub(crate) fn cb_decide(&mut self) -> i32 {
        if self.stopped {
            return 0;
        }
        let Some(exact) = &self.exact else {
            return 0;
        };
        let Some(index) = exact.first_fail() else {
            return 0;
        };
        let grid = &self.grid;
        let len = if exact.rows { grid.cols } else { grid.rows };
        let mut best: Option<(usize, i32)> = None;
        for i in 0..len {
            let var = if exact.rows {
                grid.var(index, i)
            } else {
                grid.var(i, index)
            };
            if self.state[var as usize] & VALUE != UNASSIGNED {
                continue;
            }
            // Twice the distance to the centre, in whole numbers; ties go
            // to the first.
            let distance = (2 * i).abs_diff(len - 1);
            if best.is_none_or(|(d, _)| distance < d) {
                best = Some((distance, var));
            }
        }
        match best {
            Some((_, var)) => {
                self.stats.borrow_mut().decisions += 1;
                var
            }
            None => 0,
        }
    }

    /// Checks a complete model line by line; a violation is queued as a
    /// repair clause and the model rejected.
    pub(crate) fn cb_check_found_model(&mut self, model: &[i32]) -> bool {
        let grid = &self.grid;
        let n = grid.n_squares();
        let mut placed: Vec<i32> = model
            .iter()
            .copied()
            .filter(|&lit| lit > 0 && (lit as usize) <= n)
            .collect();
        placed.sort_unstable();
        let mut first: [Vec<i32>; 4] = Default::default();
        for (k, slots) in first.iter_mut().enumerate() {
            if grid.kinds[k] {
                *slots = vec![0; grid.n_lines(k)];
            }
        }
        let mut repairs = Vec::new();
        for &var in &placed {
            let (r, c) = grid.square(var as usize);
            for k in 0..4 {
                if !grid.kinds[k] {
                    continue;
                }
                let slot = &mut first[k][grid.line_id(k, r, c)];
                if *slot == 0 {
                    *slot = var;
                } else {
                    repairs.push(vec![-*slot, -var]);
                }
            }
            for &(dr, dc) in &grid.leaps {
                if let (Some(rr), Some(cc)) = (r.checked_add_signed(dr), c.checked_add_signed(dc)) {
                    let other = grid.var(rr, cc);
                    if rr < grid.rows
                        && cc < grid.cols
                        && other > var
                        && placed.binary_search(&other).is_ok()
                    {
                        repairs.push(vec![-var, -other]);
                    }
                }
            }
        }
        if repairs.is_empty() {
            self.model.borrow_mut().set(&placed);
            return true;
        }
        let mut stats = self.stats.borrow_mut();
        stats.repairs += 1;
        if self.options.record_clauses {
            stats.clauses.extend(repairs.iter().map(|c| to_lits(c)));
        }
        self.repairs.extend(repairs);
        false
    }

    pub(crate) fn cb_has_external_clause(&mut self, is_forgettable: &mut bool) -> bool {
        *is_forgettable = true;
        if self.repair_out.is_some() {
            return true;
        }
        match self.repairs.pop() {
            Some(clause) => {
                self.repair_out = Some(clause.into_iter().rev().collect());
                true
            }
            None => false,
        }
    }

    pub(crate) fn cb_add_external_clause_lit(&mut self) -> i32 {
        match self.repair_out.as_mut().and_then(Vec::pop) {
            Some(lit) => lit,
            None => {
                self.repair_out = None;
                0
            }
        }
    }
}

fn to_lits(clause: &[i32]) -> Vec<Lit> {
    clause
        .iter()
        .filter_map(|&l| Lit::from_ipasir(l).ok())
        .collect()
}

/// Backends that can enforce [`LazyLines`] by propagation
/// ([`crate::backend::Backend::propagate_lines`]).
pub trait PropagateLines {
    /// Enforces `lines` in every later call. Call it once, before the first
    /// clause (the solver is then sized for the board once, exactly) or at
    /// least before the first solve; the board's variables are declared if
    /// they are not yet. The backend's stop flag is obeyed meanwhile.
    ///
    /// # Errors
    ///
    /// When the backend cannot (already connected, or in a state where the
    /// board variables may have been eliminated);
    /// [`crate::error::SolveError::Interrupted`] when its stop flag was
    /// raised, which leaves the backend unfit for solving (drop it).
    fn connect_lines(&mut self, lines: &LazyLines) -> Result<(), crate::error::SolveError>;

    /// What the propagator has done so far; `None` before
    /// [`PropagateLines::connect_lines`].
    fn lines_stats(&self) -> Option<LinesStats>;
}

#[cfg(feature = "cadical")]
pub(crate) use cadical::Propagator;

#[cfg(feature = "cadical")]
mod cadical {
    use cadical_sys::ExternalPropagator;

    use super::{Core, StopCheck};

    /// [`Core`] behind CaDiCaL's external-propagator interface.
    pub(crate) struct Propagator<S>(pub(crate) Core<S>);

    impl<S: StopCheck> ExternalPropagator for Propagator<S> {
        fn is_lazy(&mut self) -> bool {
            false
        }

        fn are_reasons_forgettable(&mut self) -> bool {
            // Every reason is a clause of the pairwise encoding, implied by
            // the propagator at any time: CaDiCaL may drop it.
            true
        }

        fn notify_assignment(&mut self, lits: &[i32]) {
            self.0.notify_assignment(lits);
        }

        fn notify_new_decision_level(&mut self) {
            self.0.notify_new_decision_level();
        }

        fn notify_backtrack(&mut self, new_level: usize) {
            self.0.notify_backtrack(new_level);
        }

        fn cb_check_found_model(&mut self, model: &[i32]) -> bool {
            self.0.cb_check_found_model(model)
        }

        fn cb_decide(&mut self) -> i32 {
            self.0.cb_decide()
        }

        fn cb_propagate(&mut self) -> i32 {
            self.0.cb_propagate()
        }

        fn cb_add_reason_clause_lit(&mut self, propagated_lit: i32) -> i32 {
            self.0.cb_add_reason_clause_lit(propagated_lit)
        }

        fn cb_has_external_clause(&mut self, is_forgettable: &mut bool) -> bool {
            self.0.cb_has_external_clause(is_forgettable)
        }

        fn cb_add_external_clause_lit(&mut self) -> i32 {
            self.0.cb_add_external_clause_lit()
        }
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use boardsat_encode::{Board, Piece, Square};

    use super::*;

    /// Stops once more than `after` checks have been made.
    struct After {
        checks: Cell<u32>,
        after: Cell<u32>,
    }

    impl StopCheck for Rc<After> {
        fn stopped(&self) -> bool {
            self.checks.set(self.checks.get() + 1);
            self.checks.get() > self.after.get()
        }
    }

    fn after(checks: u32) -> Rc<After> {
        Rc::new(After {
            checks: Cell::new(0),
            after: Cell::new(checks),
        })
    }

    fn never() -> Rc<After> {
        after(u32::MAX)
    }

    fn core(n: usize, piece: Piece, stop: Rc<After>) -> Core<Rc<After>> {
        let board = Board::square(n).unwrap();
        let mut lines = LazyLines::new(board, piece);
        if piece == Piece::Queen {
            lines.exact = vec![LineKind::Row, LineKind::Column];
        }
        Core::new(&lines, LinesOptions::default(), stop, Rc::default())
    }

    fn var(n: usize, r: usize, c: usize) -> i32 {
        (r * n + c + 1) as i32
    }

    /// Plays the solver: every propagated literal is assigned and notified
    /// back, until the propagator has nothing left.
    fn drain<S: StopCheck>(core: &mut Core<S>) -> Vec<i32> {
        let mut out = Vec::new();
        loop {
            let lit = core.cb_propagate();
            if lit == 0 || core.value(lit) < 0 {
                if lit != 0 {
                    out.push(lit);
                }
                return out;
            }
            out.push(lit);
            core.notify_assignment(&[lit]);
        }
    }

    fn reason<S: StopCheck>(core: &mut Core<S>, lit: i32) -> Vec<i32> {
        let mut clause = Vec::new();
        loop {
            match core.cb_add_reason_clause_lit(lit) {
                0 => return clause,
                l => clause.push(l),
            }
        }
    }

    #[test]
    fn a_queen_falsifies_exactly_the_squares_it_attacks() {
        let n = 5;
        let board = Board::square(n).unwrap();
        let mut core = core(n, Piece::Queen, never());
        let queen = var(n, 1, 2);
        core.notify_assignment(&[queen]);
        let mut got = drain(&mut core);
        got.sort_unstable();
        let mut want: Vec<i32> = Piece::Queen
            .attacks(&board, Square::new(1, 2))
            .into_iter()
            .map(|sq| -(board.index(sq) as i32 + 1))
            .collect();
        want.sort_unstable();
        want.dedup();
        assert_eq!(got, want);
        for lit in got {
            assert_eq!(reason(&mut core, lit), vec![lit, -queen]);
        }
        assert_eq!(core.stats.borrow().propagations, want.len() as u64);
    }

    #[test]
    fn two_queens_on_a_diagonal_are_a_conflict_explained_by_their_pair() {
        let n = 6;
        let mut core = core(n, Piece::Bishop, never());
        let (a, b) = (var(n, 0, 0), var(n, 3, 3));
        core.notify_assignment(&[a, b]);
        let out = drain(&mut core);
        let last = *out.last().unwrap();
        assert_eq!(last, -b, "the second queen is propagated false: a conflict");
        assert_eq!(reason(&mut core, last), vec![-b, -a]);
        assert_eq!(core.stats.borrow().conflicts, 1);
    }

    #[test]
    fn backtracking_undoes_a_level_and_its_propagations() {
        let n = 6;
        let mut core = core(n, Piece::Queen, never());
        let root = var(n, 0, 0);
        core.notify_assignment(&[root]);
        let at_root = drain(&mut core).len();
        core.notify_new_decision_level();
        let decision = var(n, 2, 1);
        core.notify_assignment(&[decision]);
        let at_one = drain(&mut core).len();
        assert!(at_one > 0);
        core.notify_backtrack(0);
        assert_eq!(core.value(decision), 0);
        assert_eq!(core.value(root), 1);
        assert_eq!(core.trail.len(), 1 + at_root);
        assert!(
            drain(&mut core).is_empty(),
            "the root queen stays propagated"
        );
        // Decided again, the queen propagates again.
        core.notify_new_decision_level();
        core.notify_assignment(&[decision]);
        assert_eq!(drain(&mut core).len(), at_one);
        // The exact-line counts are back where the root left them.
        core.notify_backtrack(0);
        let exact = core.exact.as_ref().unwrap();
        assert_eq!(exact.placed, vec![1, 0, 0, 0, 0, 0], "the root queen's row");
        assert_eq!(
            exact.free[2],
            n as u32 - 2,
            "row 2 minus the root queen's lines"
        );
    }

    #[test]
    fn a_half_processed_square_kept_by_a_backtrack_is_processed_again() {
        let n = 8;
        let mut core = core(n, Piece::Rook, never());
        core.notify_new_decision_level();
        let rook = var(n, 3, 3);
        core.notify_assignment(&[rook]);
        // Three propagations, then the solver backtracks to level 0 and
        // notifies the rook again (an out-of-order assignment it keeps).
        for _ in 0..3 {
            let lit = core.cb_propagate();
            core.notify_assignment(&[lit]);
        }
        core.notify_backtrack(0);
        core.notify_assignment(&[rook]);
        assert_eq!(drain(&mut core).len(), 2 * (n - 1));
    }

    #[test]
    fn a_stop_ends_a_long_propagation_and_the_work_resumes_after() {
        let n = 2000;
        let stop = after(1);
        let mut core = core(n, Piece::Queen, Rc::clone(&stop));
        core.notify_assignment(&[var(n, 1000, 1000)]);
        let first = drain(&mut core);
        // The second look at the flag stops it.
        assert_eq!(first.len() as u32, 2 * STOP_CHECK_INTERVAL + 1);
        assert_eq!(core.cb_propagate(), 0, "still stopped");
        assert_eq!(core.cb_decide(), 0, "no decisions while stopped");
        // The next call (the flag cleared) does the rest, nothing twice.
        stop.after.set(u32::MAX);
        core.stopped = false;
        let rest = drain(&mut core);
        let board = Board::square(n).unwrap();
        let attacked = Piece::Queen.attacks(&board, Square::new(1000, 1000)).len();
        assert_eq!(first.len() + rest.len(), attacked);
        let mut all: Vec<i32> = first.into_iter().chain(rest).collect();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), attacked);
    }

    #[test]
    fn first_fail_places_the_centre_of_the_fullest_row() {
        let n = 5;
        let mut core = core(n, Piece::Queen, never());
        // Nothing assigned: row 0 (the first of the ties), its centre.
        assert_eq!(core.cb_decide(), var(n, 0, 2));
        // Row 3 loses three squares: it becomes the first fail; of its free
        // squares (3, 2) and (3, 3), the centre one.
        core.notify_assignment(&[-var(n, 3, 0), -var(n, 3, 1), -var(n, 3, 4)]);
        assert_eq!(core.cb_decide(), var(n, 3, 2));
        // Columns are never candidates: column 4 losing four squares
        // changes nothing.
        core.notify_assignment(&[-var(n, 0, 4), -var(n, 1, 4), -var(n, 2, 4), -var(n, 4, 4)]);
        assert_eq!(core.cb_decide(), var(n, 3, 2));
        // A row with a queen is done.
        core.notify_assignment(&[var(n, 3, 2)]);
        assert_eq!(core.cb_decide(), var(n, 0, 2));
        assert_eq!(core.stats.borrow().decisions, 4);
    }

    #[test]
    fn on_a_tall_board_the_columns_are_the_exact_lines() {
        let board = Board::new(6, 3).unwrap();
        let mut lines = LazyLines::new(board, Piece::Rook);
        lines.exact = vec![LineKind::Column];
        let mut core = Core::new(&lines, LinesOptions::default(), never(), Rc::default());
        // Column 0, the middle of its 6 squares (rows 2 and 3 tie: 2).
        assert_eq!(core.cb_decide(), 2 * 3 + 1);
        // Squares (1..=4, 1) false: column 1 has two free squares left,
        // rows 0 and 5, equally far from the centre: the first.
        core.notify_assignment(&[-5, -8, -11, -14]);
        assert_eq!(core.cb_decide(), 2);
    }

    #[test]
    fn a_model_breaking_a_line_is_rejected_with_its_pair() {
        let n = 4;
        let mut core = core(n, Piece::Queen, never());
        let (a, b) = (var(n, 0, 1), var(n, 2, 3));
        let model: Vec<i32> = (1..=(n * n) as i32)
            .map(|v| if v == a || v == b { v } else { -v })
            .collect();
        assert!(!core.cb_check_found_model(&model));
        let mut forgettable = false;
        assert!(core.cb_has_external_clause(&mut forgettable));
        let clause: Vec<i32> = std::iter::from_fn(|| match core.cb_add_external_clause_lit() {
            0 => None,
            l => Some(l),
        })
        .collect();
        assert_eq!(clause, vec![-a, -b]);
        assert!(!core.cb_has_external_clause(&mut forgettable));
        let fine: Vec<i32> = (1..=(n * n) as i32)
            .map(|v| if v == a { v } else { -v })
            .collect();
        assert!(core.cb_check_found_model(&fine));
    }
}
