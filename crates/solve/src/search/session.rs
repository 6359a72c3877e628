//! A problem loaded into one solver: solve, enumerate and count by blocking
//! clauses.
//!
//! Every model is decoded on the board variables and checked with
//! [`boardsat_encode::check()`], which shares no code with the encoder; a
//! failed check is an error, never a solution. Blocking clauses mention board
//! variables only: auxiliaries of encodings such as the sequential counter
//! are not functionally determined by the board, and blocking them would
//! count one placement several times.

use std::{
    collections::VecDeque,
    time::{Duration, Instant},
};

use boardsat_encode::{
    card::Counter, check, symmetry, Board, Bound, Config, EncodeError, Encoding, Formulation,
    LazyLines, Placement, Problem, Square, Symmetry,
};
use rustsat::{
    instances::{BasicVarManager, Cnf, ManageVars},
    types::{Lit, Var},
};

use crate::{
    backend::{recorder::Recorder, Backend, Mode, Status},
    error::SolveError,
    search::{
        count::{count_models, Blocking, Count, End, Models, Progress, Tally},
        lex::{self, LexOrder},
        sink::Load,
    },
    stop::Interrupter,
};

/// A problem encoded into a backend.
pub struct Session {
    backend: Box<dyn Backend>,
    problem: Problem,
    encoding: Encoding,
    vars: BasicVarManager,
    bound: BoundState,
    symmetry: SymmetryState,
    calls: u64,
    /// With [`Session::record_blocked`]: every placement blocked so far.
    blocked: Option<Vec<Placement>>,
    /// Placements found and blocked by a call of [`Session::solutions`]
    /// but not yet handed out (a call that blocks models inside its search
    /// finds many): the next iterator hands them out first, and a count
    /// counts them, so none is lost when an iterator is dropped.
    pending: VecDeque<Placement>,
}

/// The bound placements are solved and checked under, and what enforces it.
#[derive(Clone, Debug, Default)]
struct BoundState {
    bound: Option<Bound>,
    /// The counter's assumptions (empty once fixed as units).
    assumptions: Vec<Lit>,
    /// The implied line bounds' assumptions, for decision calls only (see
    /// [`boardsat_encode::Formulation::Lines`]; empty once fixed).
    implied: Vec<Lit>,
    /// Whether every solution has the same number of pieces, so that the
    /// short blocking clause is exact.
    uniform: bool,
}

/// Lex-leader symmetry breaking: none, for good (in an order, under a
/// group), or behind a selector literal that decides per call (the board
/// order under the whole group).
#[derive(Clone, Debug, PartialEq, Eq)]
enum SymmetryState {
    Off,
    Hard(Leaders),
    Switchable { selector: Lit, on: bool },
}

/// Which member of each orbit the lex-leader constraints keep: the least
/// in `order` under the symmetries `group`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Leaders {
    order: LexOrder,
    group: Vec<Symmetry>,
}

impl SymmetryState {
    /// The leaders the next call's models must be, if symmetry breaking is
    /// in force.
    fn leaders(&self, board: &Board) -> Option<Leaders> {
        match self {
            SymmetryState::Off | SymmetryState::Switchable { on: false, .. } => None,
            SymmetryState::Hard(leaders) => Some(leaders.clone()),
            SymmetryState::Switchable { on: true, .. } => Some(Leaders {
                order: LexOrder::Board,
                group: Symmetry::of(board),
            }),
        }
    }
}

/// How lex-leader constraints are added (see [`Session::break_symmetry`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Breaking {
    /// For every later call.
    Hard,
    /// Guarded by a selector, switched per call with
    /// [`Session::set_symmetry`] (starts off).
    Switchable,
}

/// What [`Session::fix_bound`] turns into unit clauses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fix {
    /// The counter's bound only; decision calls keep assuming the implied
    /// line bounds and enumeration leaves them out.
    Bound,
    /// The bound and the implied line bounds.
    BoundAndImplied,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("problem", &self.problem)
            .field("bound", &self.bound.bound)
            .field("backend", &self.backend.signature())
            .finish_non_exhaustive()
    }
}

impl Session {
    /// Loads `problem` with its bound fixed to `k` pieces (exactly k for
    /// independence, at most k for domination) into `backend`.
    ///
    /// The clauses are those of [`Problem::encode`] (what `boardsat dimacs`
    /// writes), except with [`boardsat_encode::Amo::Lazy`], whose lines go
    /// to the backend's line propagator ([`crate::backend::propagator::PropagateLines`]; a
    /// backend without one is refused with [`SolveError::NoPropagator`]),
    /// and except for domination in the `lines` formulation: there the
    /// implied line bounds stay assumptions of decision calls rather than
    /// unit clauses, so that enumeration can leave them out;
    /// [`Session::fix_bound`] with [`Fix::BoundAndImplied`] makes them units.
    ///
    /// # Errors
    ///
    /// Encoding errors (an impossible k) and backend errors.
    pub fn fixed(
        problem: &Problem,
        k: usize,
        config: Config,
        backend: Box<dyn Backend>,
    ) -> Result<Self, SolveError> {
        Session::with_bound(problem, k, config, backend, Fix::Bound)
    }

    /// As [`Session::fixed`], choosing with `fix` what becomes unit clauses
    /// in the `lines` formulation of domination: [`Fix::BoundAndImplied`]
    /// makes the implied line bounds units too, for a solver of its own that
    /// counts or refutes (every placement of at most k pieces satisfies
    /// them, so they remove none).
    ///
    /// # Errors
    ///
    /// As [`Session::fixed`].
    pub fn with_bound(
        problem: &Problem,
        k: usize,
        config: Config,
        backend: Box<dyn Backend>,
        fix: Fix,
    ) -> Result<Self, SolveError> {
        if problem.kind.dominating()
            && problem.effective_formulation(config.formulation, k) == Formulation::Lines
        {
            let mut session = Session::open(problem, k, config, backend)?;
            session.set_bound(problem.kind.bound(k))?;
            // The main bound holds for good: as unit clauses it propagates
            // once at level 0 (measured faster than by assumptions,
            // BENCHMARKS.md).
            session.fix_bound(fix)?;
            return Ok(session);
        }
        // An impossible bound fails before the solver is sized for the
        // board, not after.
        problem.kind.bound(k).check(problem.board.n_squares())?;
        let lines = problem.lazy_lines_bounded(k, config);
        let mut session = Session::load(problem, lines, backend, |sink, vars| {
            problem.encode_lazy(k, config, sink, vars)
        })?;
        let bound = session.encoding.bound;
        session.bound = BoundState {
            bound,
            uniform: matches!(bound, Some(Bound::Exactly(_))),
            ..BoundState::default()
        };
        Ok(session)
    }

    /// Loads `problem` with the number of pieces left open, to be set later
    /// by [`Session::set_bound`] up to `max_bound`.
    ///
    /// # Errors
    ///
    /// Encoding errors and backend errors.
    pub fn open(
        problem: &Problem,
        max_bound: usize,
        config: Config,
        backend: Box<dyn Backend>,
    ) -> Result<Self, SolveError> {
        let lines = problem.lazy_lines_open(max_bound, config);
        Session::load(problem, lines, backend, |sink, vars| {
            problem.encode_open_lazy(max_bound, config, sink, vars)
        })
    }

    /// Connects `lines` (the lines `encode` will leave to a propagator) to
    /// the backend, which sizes it for the board before the first clause,
    /// then streams `encode`'s clauses straight into it, the stop flag
    /// polled all the way ([`Load`]).
    fn load(
        problem: &Problem,
        lines: Option<LazyLines>,
        mut backend: Box<dyn Backend>,
        encode: impl FnOnce(&mut Load<'_>, &mut BasicVarManager) -> Result<Encoding, EncodeError>,
    ) -> Result<Self, SolveError> {
        let stop = stop_flag(backend.as_mut());
        // The lines the lazy AMO leaves out of the clauses go to the
        // backend's propagator, or the problem cannot be solved there.
        if let Some(lines) = lines.as_ref().filter(|l| !l.is_empty()) {
            let signature = backend.signature();
            backend
                .propagate_lines()
                .ok_or(SolveError::NoPropagator { backend: signature })?
                .connect_lines(lines)?;
        }
        let mut vars = problem.var_manager();
        let start = Instant::now();
        let mut encoding = Load::run(&stop, backend.as_mut(), |sink| encode(sink, &mut vars))?;
        encoding.time = start.elapsed();
        if encoding.lazy != lines {
            return Err(SolveError::Solver {
                backend: backend.signature(),
                message: "the encoding left other lines to the propagator than were connected"
                    .to_string(),
            });
        }
        backend.reserve_vars(vars.n_used());
        Ok(Session {
            backend,
            problem: *problem,
            encoding,
            vars,
            bound: BoundState::default(),
            symmetry: SymmetryState::Off,
            calls: 0,
            blocked: None,
            pending: VecDeque::new(),
        })
    }

    /// Sets the bound of an open session (see [`Session::open`]); later calls
    /// solve under it, by assumptions.
    ///
    /// # Errors
    ///
    /// [`boardsat_encode::EncodeError::NotEncoded`] when the counter was not
    /// built for it, or `Infeasible`; backend errors.
    pub fn set_bound(&mut self, bound: Bound) -> Result<(), SolveError> {
        let counter: &dyn Counter = self
            .encoding
            .counter
            .as_deref()
            .ok_or(boardsat_encode::EncodeError::NotEncoded { bound })?;
        let enforcement = counter.enforce(bound, &mut self.vars)?;
        let mut implied = Vec::new();
        if let Bound::AtMost(k) | Bound::Exactly(k) = bound {
            for counter in &self.encoding.implied {
                implied.push(counter.at_most(k, &mut self.vars)?);
            }
        }
        self.backend.reserve_vars(self.vars.n_used());
        for clause in enforcement
            .clauses
            .iter()
            .chain(implied.iter().flat_map(|e| &e.clauses))
        {
            self.backend.add_clause(&clause[..])?;
        }
        self.bound = BoundState {
            bound: Some(bound),
            assumptions: enforcement.assumptions,
            implied: implied.into_iter().flat_map(|e| e.assumptions).collect(),
            uniform: matches!(bound, Bound::Exactly(_)),
        };
        Ok(())
    }

    /// Makes the current bound permanent: its assumptions (and with
    /// [`Fix::BoundAndImplied`] the implied bounds') become unit clauses,
    /// which the solver simplifies with once at level 0 instead of
    /// re-deciding them on every call. The bound cannot be moved afterwards
    /// (a looser bound would still be cut by the units). A refutation on a
    /// solver of its own measured faster this way (BENCHMARKS.md).
    ///
    /// # Errors
    ///
    /// Backend errors.
    pub fn fix_bound(&mut self, fix: Fix) -> Result<(), SolveError> {
        let mut units = std::mem::take(&mut self.bound.assumptions);
        if fix == Fix::BoundAndImplied {
            units.append(&mut self.bound.implied);
        }
        for lit in units {
            self.backend.add_clause(&[lit])?;
        }
        Ok(())
    }

    /// Declares that every solution under the current bound has the same
    /// number of pieces — true for an exact bound, and for "at most k" when
    /// k is a proven minimum — so that the short blocking clause (not all of
    /// these squares occupied) is exact.
    pub fn assume_uniform_size(&mut self) {
        self.bound.uniform = true;
    }

    /// Adds lex-leader constraints for the board's symmetries (see
    /// [`boardsat_encode::symmetry`]): one placement per orbit survives.
    /// Optima are unchanged; [`Session::count`] then weighs each model by
    /// its orbit size, so counts stay exact, and every model is checked to
    /// be the leader of its orbit. [`Breaking::Switchable`] guards every
    /// clause by a selector that [`Session::set_symmetry`] turns on and off
    /// between calls (it starts off): symmetry breaking tends to make UNSAT
    /// proofs cheaper and SAT answers dearer, so the optimiser uses it only
    /// for the calls it expects to be UNSAT. A second call does nothing.
    ///
    /// # Errors
    ///
    /// Backend errors.
    pub fn break_symmetry(&mut self, how: Breaking) -> Result<(), SolveError> {
        if self.symmetry != SymmetryState::Off {
            return Ok(());
        }
        let selector = (how == Breaking::Switchable).then(|| self.vars.new_lit());
        let mut cnf = Cnf::new();
        symmetry::lex_leader(&self.problem.board, &mut cnf, &mut self.vars)?;
        self.backend.reserve_vars(self.vars.n_used());
        for clause in &cnf {
            let mut lits: Vec<Lit> = clause.iter().copied().collect();
            lits.extend(selector.map(|g| !g));
            self.backend.add_clause(&lits)?;
        }
        self.symmetry = match selector {
            Some(selector) => SymmetryState::Switchable {
                selector,
                on: false,
            },
            None => SymmetryState::Hard(Leaders {
                order: LexOrder::Board,
                group: Symmetry::of(&self.problem.board),
            }),
        };
        Ok(())
    }

    /// Adds lex-leader constraints in `order` under the symmetries `group`
    /// (the board's whole group, or a subgroup such as a cube's
    /// stabilizer) for every later call: one placement per orbit of
    /// `group` survives. Every model is checked to be that leader and
    /// counts for its orbit under the board's whole group, so a count over
    /// cubes that a subgroup maps onto themselves, one cube per orbit of
    /// cubes, stays exact (see [`crate::search::domination`]). A second
    /// call does nothing.
    ///
    /// # Errors
    ///
    /// As [`crate::search::lex::break_symmetry`]; backend errors.
    pub fn break_symmetry_under(
        &mut self,
        order: LexOrder,
        group: Vec<Symmetry>,
    ) -> Result<(), SolveError> {
        if self.symmetry != SymmetryState::Off {
            return Ok(());
        }
        let board = self.problem.board;
        self.add_clauses_with(|cnf, vars| lex::break_symmetry(order, &board, &group, cnf, vars))?;
        self.symmetry = SymmetryState::Hard(Leaders { order, group });
        Ok(())
    }

    /// Switches switchable symmetry breaking (see [`Session::break_symmetry`])
    /// on or off for later calls; without it, this does nothing and returns
    /// false.
    pub fn set_symmetry(&mut self, on: bool) -> bool {
        match &mut self.symmetry {
            SymmetryState::Switchable { on: current, .. } => {
                *current = on;
                true
            }
            _ => false,
        }
    }

    /// The assumptions of the next call: the bound's, the implied bounds'
    /// (decision calls only) and the symmetry selector when switched on.
    fn call_assumptions(&self, mode: Mode) -> Vec<Lit> {
        let mut out = self.bound.assumptions.clone();
        if mode == Mode::Decide {
            out.extend(&self.bound.implied);
        }
        if let SymmetryState::Switchable { selector, on: true } = self.symmetry {
            out.push(selector);
        }
        out
    }

    /// Fixes pieces on `squares` for every later call (unit clauses): a
    /// cube of a split search.
    ///
    /// # Errors
    ///
    /// Backend errors.
    pub fn fix_occupied(&mut self, squares: &[Square]) -> Result<(), SolveError> {
        for &sq in squares {
            let lit = self.problem.board.lit(sq);
            self.backend.add_clause(&[lit])?;
        }
        Ok(())
    }

    /// Adds the clauses `build` writes, with fresh variables from the
    /// session's own manager, for every later call: constraints a caller
    /// owns (definitions, symmetry breaking in an order of its own). The
    /// session's checks and weights do not know about them.
    ///
    /// # Errors
    ///
    /// `build`'s errors; backend errors.
    pub fn add_clauses_with(
        &mut self,
        build: impl FnOnce(&mut Cnf, &mut dyn ManageVars) -> Result<(), SolveError>,
    ) -> Result<(), SolveError> {
        let mut cnf = Cnf::new();
        build(&mut cnf, &mut self.vars)?;
        self.backend.reserve_vars(self.vars.n_used());
        for clause in &cnf {
            self.backend.add_clause(&clause[..])?;
        }
        Ok(())
    }

    /// Whether symmetry breaking is in force for the next call.
    #[must_use]
    pub fn symmetry_broken(&self) -> bool {
        self.symmetry.leaders(&self.problem.board).is_some()
    }

    /// The problem.
    #[must_use]
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// The encoding (sizes, provenance).
    #[must_use]
    pub fn encoding(&self) -> &Encoding {
        &self.encoding
    }

    /// The encoding, giving up the session.
    #[must_use]
    pub fn into_encoding(self) -> Encoding {
        self.encoding
    }

    /// The bound placements are checked against.
    #[must_use]
    pub fn bound(&self) -> Option<Bound> {
        self.bound.bound
    }

    /// The backend.
    pub fn backend(&mut self) -> &mut dyn Backend {
        self.backend.as_mut()
    }

    /// The variables the session's clauses use (board and auxiliary).
    #[must_use]
    pub fn n_vars(&self) -> u32 {
        self.vars.n_used()
    }

    /// Number of solver calls so far.
    #[must_use]
    pub fn calls(&self) -> u64 {
        self.calls
    }

    /// An interrupter for the backend, when it has one.
    pub fn interrupter(&mut self) -> Option<Interrupter> {
        self.backend.interrupt().map(|i| i.interrupter())
    }

    /// Bounds each later solver call in time, when the backend can.
    /// Returns false when it cannot.
    pub fn set_time_limit(&mut self, limit: Option<Duration>) -> bool {
        match self.backend.time_limit() {
            Some(t) => {
                t.set_time_limit(limit);
                true
            }
            None => false,
        }
    }

    /// One solver call under the current bound: the status and, when SAT, the
    /// checked placement. `mode` says whether the call decides (the implied
    /// line bounds are assumed) or enumerates (they are left out).
    ///
    /// # Errors
    ///
    /// Backend errors; [`SolveError::WrongPlacement`] when the model fails
    /// the checker.
    pub fn solve(&mut self, mode: Mode) -> Result<(Status, Option<Placement>), SolveError> {
        self.calls += 1;
        let assumptions = self.call_assumptions(mode);
        let status = self.backend.solve(&assumptions)?;
        if status != Status::Sat {
            return Ok((status, None));
        }
        let placement = self.rules().read(self.backend.as_mut())?;
        Ok((status, Some(placement)))
    }

    fn rules(&self) -> Rules {
        Rules {
            problem: self.problem,
            bound: self.bound.bound,
            leaders: self.symmetry.leaders(&self.problem.board),
            blocking: self.blocking(),
        }
    }

    /// Forbids `placement` in every later call.
    ///
    /// # Errors
    ///
    /// Backend errors.
    pub fn block(&mut self, placement: &Placement) -> Result<(), SolveError> {
        let clause = self.rules().blocking_clause(placement);
        self.backend.add_clause(&clause)?;
        if let Some(list) = &mut self.blocked {
            list.push(placement.clone());
        }
        Ok(())
    }

    /// Keeps every placement blocked from now on ([`Session::blocked`]):
    /// what a proof that a count is complete needs.
    pub fn record_blocked(&mut self) {
        self.blocked.get_or_insert_with(Vec::new);
    }

    /// The placements blocked since [`Session::record_blocked`].
    #[must_use]
    pub fn blocked(&self) -> &[Placement] {
        self.blocked.as_deref().unwrap_or(&[])
    }

    /// How placements are blocked: by the short clauses when every
    /// solution has the same size, else by the whole board assignment.
    #[must_use]
    pub fn blocking(&self) -> Blocking {
        if self.bound.uniform {
            Blocking::Short
        } else {
            Blocking::Full
        }
    }

    /// The placements, one per solver call, each blocked before the next;
    /// at most `limit` of them.
    pub fn solutions(&mut self, limit: Option<u64>) -> Solutions<'_> {
        Solutions {
            session: self,
            limit,
            found: 0,
            end: None,
            last: None,
        }
    }

    /// Counts placements without storing them, calling `progress` after each.
    ///
    /// # Errors
    ///
    /// Backend errors and wrong placements. A solver that gives up ends the
    /// count with [`End::Stopped`], not an error, so the partial count
    /// survives.
    pub fn count(
        &mut self,
        limit: Option<u64>,
        mut progress: impl FnMut(&Progress),
    ) -> Result<Count, SolveError> {
        let mut tally = Tally::since(Instant::now());
        // Placements an iterator's call found but did not hand out.
        let rules = self.rules();
        while limit.is_none_or(|l| tally.models < l) {
            let Some(placement) = self.pending.pop_front() else {
                break;
            };
            progress(&tally.add(rules.weight(&placement)));
        }
        let end = self.count_into(&mut tally, (limit, None), |_, p| progress(p));
        Ok(tally.count(end?))
    }

    /// The counting loop on this session, up to `limit` models or
    /// `max_calls` calls: `seen` gets each placement as it is blocked (and
    /// recorded, where [`Session::record_blocked`] asked for it).
    fn count_into(
        &mut self,
        tally: &mut Tally,
        limits: (Option<u64>, Option<u64>),
        mut seen: impl FnMut(Placement, &Progress),
    ) -> Result<End, SolveError> {
        let assumptions = self.call_assumptions(Mode::Enumerate);
        let mut rules = self.rules();
        let blocked = &mut self.blocked;
        let calls = tally.calls;
        let end = count_models(
            self.backend.as_mut(),
            &assumptions,
            &mut rules,
            limits,
            tally,
            |placement, p| {
                if let Some(list) = blocked.as_mut() {
                    list.push(placement.clone());
                }
                seen(placement, p);
            },
        );
        self.calls += tally.calls - calls;
        end
    }
}

/// A problem encoded once with its bound fixed, to be loaded into many
/// solvers: the cubes of a split share it, so that no cube encodes the
/// problem again (each gets the same clauses, in the same order, as
/// [`Session::with_bound`] would give it). A session loaded from it keeps
/// the encoding's facts, not its counters: its bound cannot be moved.
#[derive(Debug)]
pub struct Base {
    problem: Problem,
    clauses: Vec<Vec<Lit>>,
    vars: BasicVarManager,
    /// The encoding's facts (no counters).
    encoding: Encoding,
    bound: BoundState,
}

/// Clauses loaded between two looks at the stop flag.
const LOAD_BATCH: usize = 4096;

impl Base {
    /// Encodes `problem` with `k` pieces as [`Session::with_bound`] with
    /// `fix` would, into memory. The boards that are split are small next
    /// to their solving (a split's cubes are solved many times over): the
    /// base is encoded whole, a stop is answered by the loads.
    ///
    /// # Errors
    ///
    /// As [`Session::with_bound`].
    pub fn new(problem: &Problem, k: usize, config: Config, fix: Fix) -> Result<Self, SolveError> {
        let (recorder, clauses) = Recorder::new();
        let start = Instant::now();
        let session = Session::with_bound(problem, k, config, Box::new(recorder), fix)?;
        let time = start.elapsed();
        let Session {
            problem,
            encoding,
            vars,
            bound,
            ..
        } = session;
        let clauses = clauses.take();
        Ok(Base {
            problem,
            clauses,
            vars,
            encoding: Encoding {
                time,
                ..encoding.facts()
            },
            bound,
        })
    }

    /// The encoding's facts.
    #[must_use]
    pub fn encoding(&self) -> &Encoding {
        &self.encoding
    }

    /// A session of `backend` holding the base: its lines connected to the
    /// backend's propagator, its clauses added in order (the backend's
    /// stop flag polled between batches).
    ///
    /// # Errors
    ///
    /// [`SolveError::NoPropagator`] for lines left to a propagator the
    /// backend does not have; [`SolveError::Interrupted`] when stopped;
    /// backend errors.
    pub fn load(&self, mut backend: Box<dyn Backend>) -> Result<Session, SolveError> {
        let stop = stop_flag(backend.as_mut());
        if let Some(lines) = self.encoding.lazy.as_ref().filter(|l| !l.is_empty()) {
            let signature = backend.signature();
            backend
                .propagate_lines()
                .ok_or(SolveError::NoPropagator { backend: signature })?
                .connect_lines(lines)?;
        }
        for batch in self.clauses.chunks(LOAD_BATCH) {
            if let Some(reason) = stop.reason() {
                return Err(SolveError::Interrupted(reason));
            }
            for clause in batch {
                backend.add_clause(clause)?;
            }
        }
        backend.reserve_vars(self.vars.n_used());
        Ok(Session {
            backend,
            problem: self.problem,
            encoding: self.encoding.facts(),
            vars: self.vars.clone(),
            bound: self.bound.clone(),
            symmetry: SymmetryState::Off,
            calls: 0,
            blocked: None,
            pending: VecDeque::new(),
        })
    }
}

/// The stop flag the backend obeys (a fresh one, never raised, when it has
/// none): long loops outside solver calls poll it too.
fn stop_flag(backend: &mut dyn Backend) -> Interrupter {
    backend
        .interrupt()
        .map_or_else(Interrupter::new, |i| i.interrupter())
}

/// What a model must satisfy, and how it is blocked: everything the checker
/// and the blocking clause need.
#[derive(Clone, Debug)]
struct Rules {
    problem: Problem,
    bound: Option<Bound>,
    leaders: Option<Leaders>,
    blocking: Blocking,
}

impl Rules {
    fn check(&self, placement: &Placement) -> Result<(), SolveError> {
        check(&self.problem, self.bound, placement).map_err(|violation| {
            SolveError::WrongPlacement {
                placement: placement.to_string(),
                violation,
            }
        })?;
        let board = &self.problem.board;
        if let Some(Leaders { order, group }) = &self.leaders {
            if !lex::is_leader(*order, board, group, placement) {
                return Err(SolveError::NotLexLeader {
                    placement: placement.to_string(),
                });
            }
        }
        Ok(())
    }
}

impl Models for Rules {
    type Model = Placement;

    /// Decodes the board variables and checks the placement.
    fn read(&mut self, backend: &mut dyn Backend) -> Result<Placement, SolveError> {
        let board = self.problem.board;
        let mut squares = Vec::new();
        for sq in board.squares() {
            if backend.value(board.var(sq))? {
                squares.push(sq);
            }
        }
        let placement = Placement::new(squares);
        self.check(&placement)?;
        Ok(placement)
    }

    fn observed(&self) -> Option<(Vec<Var>, Blocking)> {
        let board = &self.problem.board;
        Some((
            board.squares().map(|sq| board.var(sq)).collect(),
            self.blocking,
        ))
    }

    /// The squares' values in board order, checked.
    fn read_values(&mut self, values: &[bool]) -> Result<Placement, SolveError> {
        let placement = boardsat_encode::dimacs::placement(&self.problem.board, values);
        self.check(&placement)?;
        Ok(placement)
    }

    fn weight(&self, placement: &Placement) -> u64 {
        if self.leaders.is_some() {
            symmetry::orbit_size(&self.problem.board, placement)
        } else {
            1
        }
    }

    fn blocking_clause(&self, placement: &Placement) -> Vec<Lit> {
        blocking_clause(&self.problem.board, placement, self.blocking)
    }
}

/// The clause that blocks `placement`, over the board variables only:
/// [`Blocking::Short`] (every solution has the same size), "not all of
/// these squares occupied"; [`Blocking::Full`], the whole board assignment
/// negated.
#[must_use]
pub fn blocking_clause(board: &Board, placement: &Placement, blocking: Blocking) -> Vec<Lit> {
    if blocking == Blocking::Short {
        return placement
            .squares()
            .iter()
            .map(|&sq| !board.lit(sq))
            .collect();
    }
    let mut occupied = vec![false; board.n_squares()];
    for &sq in placement.squares() {
        occupied[board.index(sq)] = true;
    }
    board
        .squares()
        .map(|sq| {
            let lit = board.lit(sq);
            if occupied[board.index(sq)] {
                !lit
            } else {
                lit
            }
        })
        .collect()
}

/// Iterator over placements by blocking clauses (see [`Session::solutions`]).
///
/// A call that gives up or an error ends the iteration with an `Err`
/// ([`SolveError::Stopped`] for the former); after an `Err` or UNSAT it
/// returns `None`.
pub struct Solutions<'a> {
    session: &'a mut Session,
    limit: Option<u64>,
    found: u64,
    end: Option<End>,
    /// How the last call ended, acted on once its placements are out.
    last: Option<Result<End, SolveError>>,
}

impl Solutions<'_> {
    /// How the iteration ended, once it has.
    #[must_use]
    pub fn end(&self) -> Option<End> {
        self.end
    }
}

impl Iterator for Solutions<'_> {
    type Item = Result<Placement, SolveError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.end.is_some() {
                return None;
            }
            if self.limit.is_some_and(|l| self.found >= l) {
                self.end = Some(End::Limit);
                return None;
            }
            if let Some(placement) = self.session.pending.pop_front() {
                self.found += 1;
                return Some(Ok(placement));
            }
            match self.last.take() {
                Some(Ok(End::Exhausted)) => {
                    self.end = Some(End::Exhausted);
                    return None;
                }
                Some(Ok(End::Stopped)) => {
                    self.end = Some(End::Stopped);
                    return Some(Err(SolveError::Stopped { found: self.found }));
                }
                Some(Err(e)) => {
                    self.end = Some(End::Stopped);
                    return Some(Err(e));
                }
                Some(Ok(End::Limit)) | None => {}
            }
            // One solver call: one placement, or those it blocked inside
            // its search and the one it ended with.
            let left = self.limit.map(|l| l - self.found);
            let mut tally = Tally::since(Instant::now());
            let mut found = VecDeque::new();
            let end = self
                .session
                .count_into(&mut tally, (left, Some(1)), |placement, _| {
                    found.push_back(placement);
                });
            self.session.pending.append(&mut found);
            self.last = Some(end);
        }
    }
}
