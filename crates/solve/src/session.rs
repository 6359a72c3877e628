//! A problem loaded into one solver: solve, enumerate and count by blocking
//! clauses.
//!
//! Every model is decoded on the board variables and checked with
//! [`boardsat_encode::check()`], which shares no code with the encoder; a
//! failed check is an error, never a solution. Blocking clauses mention board
//! variables only: auxiliaries of encodings such as the sequential counter
//! are not functionally determined by the board, and blocking them would
//! count one placement several times.

use std::time::{Duration, Instant};

use boardsat_encode::{
    card::Counter, check, symmetry, Bound, Config, Encoding, Formulation, Placement, Problem,
    Square,
};
use rustsat::{
    instances::{BasicVarManager, Cnf, ManageVars},
    types::{Lit, Var},
};

use std::{cell::RefCell, rc::Rc};

use crate::{Backend, Interrupter, SolveError, Status, Visitor};

/// A problem encoded into a backend.
pub struct Session {
    backend: Box<dyn Backend>,
    problem: Problem,
    encoding: Encoding,
    vars: BasicVarManager,
    bound: Option<Bound>,
    assumptions: Vec<Lit>,
    /// The implied line bounds' assumptions (see [`Session::set_implied`]).
    implied_assumptions: Vec<Lit>,
    implied: bool,
    uniform: bool,
    symmetry_broken: bool,
    /// With switchable symmetry breaking, the literal that turns it on.
    symmetry_selector: Option<Lit>,
    in_search: bool,
    calls: u64,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("problem", &self.problem)
            .field("bound", &self.bound)
            .field("backend", &self.backend.signature())
            .finish_non_exhaustive()
    }
}

/// How a count or enumeration ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum End {
    /// The solver proved there are no more solutions: the count is exact.
    Exhausted,
    /// The limit on the number of solutions was reached.
    Limit,
    /// The solver gave up (time limit or interrupt): the count is a lower
    /// bound.
    Unknown,
}

/// The result of counting.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Count {
    /// Solutions found: with symmetry breaking, each model counts for its
    /// whole orbit.
    pub count: u64,
    /// Models the solver returned: with symmetry breaking, the number of
    /// orbits (fundamental solutions); otherwise equal to `count`.
    pub models: u64,
    /// How counting ended.
    pub end: End,
    /// Wall time of the whole count.
    pub elapsed: Duration,
}

/// What a progress callback is told after each solution.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// Solutions so far.
    pub count: u64,
    /// Time since counting started.
    pub elapsed: Duration,
}

impl Progress {
    /// Solutions per second so far.
    #[must_use]
    pub fn rate(&self) -> f64 {
        let secs = self.elapsed.as_secs_f64();
        if secs > 0.0 {
            self.count as f64 / secs
        } else {
            0.0
        }
    }
}

impl Session {
    /// Loads `problem` with its bound fixed to `k` pieces (exactly k for
    /// independence, at most k for domination) into `backend`.
    ///
    /// The clauses are those of [`Problem::encode`] (what `boardsat dimacs`
    /// writes), except for domination in the `lines` formulation: there the
    /// implied line bounds are assumptions rather than unit clauses, so that
    /// enumeration can leave them out (see [`Session::set_implied`]);
    /// [`Session::fix_bound`] makes them units.
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
        if problem.kind.dominating()
            && problem.effective_formulation(config.formulation, k) == Formulation::Lines
        {
            // The bound by assumptions, so that enumeration can leave the
            // implied line bounds out (see `set_implied`).
            let mut session = Session::open(problem, k, config, backend)?;
            session.set_bound(problem.kind.bound(k))?;
            // The main bound holds for good: as unit clauses it propagates
            // once at level 0 (counting measured 2.6 s by assumptions, 1.9 s
            // as units, 8 × 8 at k = 5).
            session.harden(false)?;
            return Ok(session);
        }
        let mut vars = problem.var_manager();
        let mut cnf = Cnf::new();
        let encoding = problem.encode(k, config, &mut cnf, &mut vars)?;
        let bound = encoding.bound;
        let mut session = Session::load(problem, encoding, vars, &cnf, backend)?;
        session.bound = bound;
        session.uniform = matches!(bound, Some(Bound::Exactly(_)));
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
        let mut vars = problem.var_manager();
        let mut cnf = Cnf::new();
        let encoding = problem.encode_open(max_bound, config, &mut cnf, &mut vars)?;
        Session::load(problem, encoding, vars, &cnf, backend)
    }

    fn load(
        problem: &Problem,
        encoding: Encoding,
        vars: BasicVarManager,
        cnf: &Cnf,
        mut backend: Box<dyn Backend>,
    ) -> Result<Self, SolveError> {
        backend.reserve_vars(vars.n_used());
        for clause in cnf {
            backend.add_clause(&clause[..])?;
        }
        Ok(Session {
            backend,
            problem: *problem,
            encoding,
            vars,
            bound: None,
            assumptions: Vec::new(),
            implied_assumptions: Vec::new(),
            implied: true,
            uniform: false,
            symmetry_broken: false,
            symmetry_selector: None,
            in_search: false,
            calls: 0,
        })
    }

    /// Sets the bound of an open session (see [`Session::open`]); later calls
    /// solve under it.
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
        self.assumptions = enforcement.assumptions;
        self.implied_assumptions = implied.into_iter().flat_map(|e| e.assumptions).collect();
        self.bound = Some(bound);
        self.uniform = matches!(bound, Bound::Exactly(_));
        Ok(())
    }

    /// Makes the current bound permanent: its assumptions, and the implied
    /// bounds' (see [`Session::set_implied`]), become unit clauses, which
    /// the solver simplifies with once at level 0 instead of re-deciding
    /// them on every call. The bound cannot be moved afterwards (a looser
    /// bound would still be cut by the units). A refutation on a solver of
    /// its own measured twice as fast this way (γ(Q₁₄) > 7: 12.7 s against
    /// 25 s by assumptions, BENCHMARKS.md).
    ///
    /// # Errors
    ///
    /// Backend errors.
    pub fn fix_bound(&mut self) -> Result<(), SolveError> {
        self.harden(true)
    }

    /// Turns the bound's assumptions (and the implied ones with `implied`)
    /// into unit clauses.
    fn harden(&mut self, implied: bool) -> Result<(), SolveError> {
        let mut units = std::mem::take(&mut self.assumptions);
        if implied {
            units.append(&mut self.implied_assumptions);
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
        self.uniform = true;
    }

    /// Adds lex-leader constraints for the board's symmetries (see
    /// [`boardsat_encode::symmetry`]): one placement per orbit survives.
    /// Optima are unchanged; [`Session::count`] then weighs each model by
    /// its orbit size, so counts stay exact, and every model is checked to
    /// be the leader of its orbit.
    ///
    /// # Errors
    ///
    /// Backend errors.
    pub fn break_symmetry(&mut self) -> Result<(), SolveError> {
        if self.symmetry_broken || self.symmetry_selector.is_some() {
            return Ok(());
        }
        self.add_lex_leader(None)?;
        self.symmetry_broken = true;
        Ok(())
    }

    /// As [`Session::break_symmetry`], but every lex-leader clause is
    /// guarded by a selector, so that [`Session::set_symmetry`] can switch
    /// the breaking on and off between calls (it starts off). Symmetry
    /// breaking tends to make UNSAT proofs cheaper and SAT answers dearer;
    /// the optimiser uses it only for the calls it expects to be UNSAT.
    ///
    /// # Errors
    ///
    /// Backend errors.
    pub fn break_symmetry_switchable(&mut self) -> Result<(), SolveError> {
        if self.symmetry_broken || self.symmetry_selector.is_some() {
            return Ok(());
        }
        let selector = self.vars.new_lit();
        self.add_lex_leader(Some(selector))?;
        self.symmetry_selector = Some(selector);
        Ok(())
    }

    /// Switches symmetry breaking set up by
    /// [`Session::break_symmetry_switchable`] on or off for later calls;
    /// without it, this does nothing and returns false.
    pub fn set_symmetry(&mut self, on: bool) -> bool {
        if self.symmetry_selector.is_none() {
            return false;
        }
        self.symmetry_broken = on;
        true
    }

    fn add_lex_leader(&mut self, guard: Option<Lit>) -> Result<(), SolveError> {
        let mut cnf = Cnf::new();
        symmetry::lex_leader(&self.problem.board, &mut cnf, &mut self.vars)?;
        self.backend.reserve_vars(self.vars.n_used());
        for clause in &cnf {
            let mut lits: Vec<Lit> = clause.iter().copied().collect();
            lits.extend(guard.map(|g| !g));
            self.backend.add_clause(&lits)?;
        }
        Ok(())
    }

    /// Whether decision calls ([`Session::solve`]) assume the implied
    /// line bounds of domination in the lines formulation (see
    /// [`boardsat_encode::Formulation::Lines`]); on by default. Enumeration
    /// ([`Session::solutions`], [`Session::count`]) never assumes them:
    /// they make refutations cheap but counting slower (3.0 s against
    /// 1.0 s for the 4,860 minimum dominating sets of 8 × 8, BENCHMARKS.md);
    /// both ways the solutions are the same. Returns whether the encoding
    /// has implied bounds at all.
    pub fn set_implied(&mut self, on: bool) -> bool {
        self.implied = on;
        !self.encoding.implied.is_empty()
    }

    /// The assumptions of the next call: the bound's, the implied bounds'
    /// (decision calls only) and the symmetry selector when switched on.
    fn call_assumptions(&self, enumerating: bool) -> Vec<Lit> {
        let mut out = self.assumptions.clone();
        if self.implied && !enumerating {
            out.extend(&self.implied_assumptions);
        }
        if self.symmetry_broken {
            out.extend(self.symmetry_selector);
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

    /// Whether [`Session::count`] may enumerate inside one search on
    /// backends that can ([`crate::SearchEnumerate`]). Off by default: with
    /// CaDiCaL's enumeration options one call per model measured faster
    /// (BENCHMARKS.md); on, models are rejected inside the search.
    pub fn set_in_search(&mut self, on: bool) {
        self.in_search = on;
    }

    /// Whether symmetry breaking is in force for the next call.
    #[must_use]
    pub fn symmetry_broken(&self) -> bool {
        self.symmetry_broken
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
        self.bound
    }

    /// The backend.
    pub fn backend(&mut self) -> &mut dyn Backend {
        self.backend.as_mut()
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
    /// checked placement.
    ///
    /// # Errors
    ///
    /// Backend errors; [`SolveError::WrongPlacement`] when the model fails
    /// the checker.
    pub fn solve(&mut self) -> Result<(Status, Option<Placement>), SolveError> {
        self.solve_call(false)
    }

    /// One call; `enumerating` leaves out the implied bounds.
    fn solve_call(&mut self, enumerating: bool) -> Result<(Status, Option<Placement>), SolveError> {
        self.calls += 1;
        let assumptions = self.call_assumptions(enumerating);
        let status = self.backend.solve(&assumptions)?;
        if status != Status::Sat {
            return Ok((status, None));
        }
        let placement = self.decode()?;
        Ok((status, Some(placement)))
    }

    fn decode(&mut self) -> Result<Placement, SolveError> {
        let board = self.problem.board;
        let mut squares = Vec::new();
        for index in 0..board.n_squares() {
            let var = Var::new(u32::try_from(index).unwrap_or(u32::MAX));
            if self.backend.value(var)? {
                squares.extend(board.square_at(index));
            }
        }
        let placement = Placement::new(squares);
        self.rules().check(&placement)?;
        Ok(placement)
    }

    fn rules(&self) -> Rules {
        Rules {
            problem: self.problem,
            bound: self.bound,
            symmetry_broken: self.symmetry_broken,
            uniform: self.uniform,
        }
    }

    /// Forbids `placement` in every later call.
    ///
    /// # Errors
    ///
    /// Backend errors.
    pub fn block(&mut self, placement: &Placement) -> Result<(), SolveError> {
        let clause = self.rules().blocking_clause(placement);
        self.backend.add_clause(&clause)
    }

    /// The placements, one per solver call, each blocked before the next;
    /// at most `limit` of them.
    pub fn solutions(&mut self, limit: Option<u64>) -> Solutions<'_> {
        Solutions {
            session: self,
            limit,
            found: 0,
            end: None,
        }
    }

    /// Counts placements without storing them, calling `progress` after each.
    ///
    /// # Errors
    ///
    /// Backend errors and wrong placements. A solver that gives up ends the
    /// count with [`End::Unknown`], not an error, so the partial count
    /// survives.
    pub fn count(
        &mut self,
        limit: Option<u64>,
        mut progress: impl FnMut(&Progress),
    ) -> Result<Count, SolveError> {
        let start = Instant::now();
        let mut tally = Tally::default();
        let end = loop {
            if limit.is_some_and(|l| tally.models >= l) {
                break End::Limit;
            }
            let in_search = self.in_search
                && self
                    .backend
                    .search_enumerate()
                    .is_some_and(|s| s.can_enumerate_in_search());
            let (status, placement) = if in_search {
                // Up to CHUNK models inside one search, then one stops it
                // so that progress, limits and interrupts are seen.
                let room = limit.map_or(CHUNK, |l| (l - tally.models).saturating_sub(1).min(CHUNK));
                let (status, found) = self.count_in_search(room)?;
                tally.add(found);
                let placement = if status == Status::Sat {
                    Some(self.decode()?)
                } else {
                    None
                };
                (status, placement)
            } else {
                self.solve_call(true)?
            };
            match (status, placement) {
                (Status::Sat, Some(placement)) => {
                    tally.add(Tally {
                        models: 1,
                        count: self.rules().weight(&placement),
                    });
                    self.block(&placement)?;
                    progress(&Progress {
                        count: tally.count,
                        elapsed: start.elapsed(),
                    });
                }
                (Status::Unsat, _) => break End::Exhausted,
                _ => break End::Unknown,
            }
        };
        Ok(Count {
            count: tally.count,
            models: tally.models,
            end,
            elapsed: start.elapsed(),
        })
    }

    /// One in-search enumeration that blocks up to `room` models and stops
    /// (SAT) at the next one, leaving it to the caller.
    fn count_in_search(&mut self, room: u64) -> Result<(Status, Tally), SolveError> {
        let rules = self.rules();
        let board = self.problem.board;
        let shared = Rc::new(RefCell::new((Tally::default(), None::<SolveError>)));
        let inner = Rc::clone(&shared);
        let visit: Visitor = Box::new(move |values: &[bool]| {
            let mut state = inner.borrow_mut();
            if state.0.models >= room || state.1.is_some() {
                return None;
            }
            let placement = Placement::new(
                values
                    .iter()
                    .enumerate()
                    .filter(|(_, &v)| v)
                    .filter_map(|(i, _)| board.square_at(i))
                    .collect(),
            );
            if let Err(e) = rules.check(&placement) {
                state.1 = Some(e);
                return None;
            }
            state.0.add(Tally {
                models: 1,
                count: rules.weight(&placement),
            });
            Some(rules.blocking_clause(&placement))
        });
        let project: Vec<Var> = (0..board.n_squares())
            .map(|i| Var::new(u32::try_from(i).unwrap_or(u32::MAX)))
            .collect();
        self.calls += 1;
        let assumptions = self.call_assumptions(true);
        let status = match self.backend.search_enumerate() {
            Some(s) => s.enumerate_in_search(&project, &assumptions, visit)?,
            None => Status::Unknown,
        };
        let mut state = shared.borrow_mut();
        if let Some(e) = state.1.take() {
            return Err(e);
        }
        Ok((status, state.0))
    }
}

/// Models blocked inside one in-search enumeration before it stops to
/// report progress.
const CHUNK: u64 = 4096;

/// Counts so far.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    models: u64,
    count: u64,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        self.models += other.models;
        self.count += other.count;
    }
}

/// What a model must satisfy, and how it is blocked: everything the checker
/// and the blocking clause need, copyable into an in-search visitor.
#[derive(Clone, Copy, Debug)]
struct Rules {
    problem: Problem,
    bound: Option<Bound>,
    symmetry_broken: bool,
    uniform: bool,
}

impl Rules {
    fn check(&self, placement: &Placement) -> Result<(), SolveError> {
        check(&self.problem, self.bound, placement).map_err(|violation| {
            SolveError::WrongPlacement {
                placement: placement.to_string(),
                violation,
            }
        })?;
        if self.symmetry_broken && !symmetry::is_lex_leader(&self.problem.board, placement) {
            return Err(SolveError::NotLexLeader {
                placement: placement.to_string(),
            });
        }
        Ok(())
    }

    fn weight(&self, placement: &Placement) -> u64 {
        if self.symmetry_broken {
            symmetry::orbit_size(&self.problem.board, placement)
        } else {
            1
        }
    }

    /// Board variables only: the negated occupied squares when every
    /// solution has the same size, else the full board assignment negated.
    fn blocking_clause(&self, placement: &Placement) -> Vec<Lit> {
        let board = self.problem.board;
        if self.uniform {
            placement
                .squares()
                .iter()
                .map(|&sq| !board.lit(sq))
                .collect()
        } else {
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
    }
}

/// Iterator over placements by blocking clauses (see [`Session::solutions`]).
///
/// An UNKNOWN answer or an error ends the iteration with an `Err`; after an
/// `Err` or UNSAT it returns `None`.
pub struct Solutions<'a> {
    session: &'a mut Session,
    limit: Option<u64>,
    found: u64,
    end: Option<End>,
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
        if self.end.is_some() {
            return None;
        }
        if self.limit.is_some_and(|l| self.found >= l) {
            self.end = Some(End::Limit);
            return None;
        }
        let result = self
            .session
            .solve_call(true)
            .and_then(|answer| match answer {
                (Status::Sat, Some(placement)) => {
                    self.session.block(&placement)?;
                    Ok(Some(placement))
                }
                (Status::Unsat, _) => Ok(None),
                _ => Err(SolveError::Unknown { found: self.found }),
            });
        match result {
            Ok(Some(placement)) => {
                self.found += 1;
                Some(Ok(placement))
            }
            Ok(None) => {
                self.end = Some(End::Exhausted);
                None
            }
            Err(e) => {
                self.end = Some(End::Unknown);
                Some(Err(e))
            }
        }
    }
}
