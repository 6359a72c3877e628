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

use boardsat_encode::{card::Counter, check, Bound, Config, Encoding, Placement, Problem, Square};
use rustsat::{
    instances::{BasicVarManager, Cnf, ManageVars},
    types::{Lit, Var},
};

use crate::{Backend, Interrupter, SolveError, Status};

/// A problem encoded into a backend.
pub struct Session {
    backend: Box<dyn Backend>,
    problem: Problem,
    encoding: Encoding,
    vars: BasicVarManager,
    bound: Option<Bound>,
    assumptions: Vec<Lit>,
    uniform: bool,
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
    /// Solutions found.
    pub count: u64,
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
    /// # Errors
    ///
    /// Encoding errors (an impossible k) and backend errors.
    pub fn fixed(
        problem: &Problem,
        k: usize,
        config: Config,
        backend: Box<dyn Backend>,
    ) -> Result<Self, SolveError> {
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
            uniform: false,
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
        self.backend.reserve_vars(self.vars.n_used());
        for clause in &enforcement.clauses {
            self.backend.add_clause(&clause[..])?;
        }
        self.assumptions = enforcement.assumptions;
        self.bound = Some(bound);
        self.uniform = matches!(bound, Bound::Exactly(_));
        Ok(())
    }

    /// Declares that every solution under the current bound has the same
    /// number of pieces — true for an exact bound, and for "at most k" when
    /// k is a proven minimum — so that the short blocking clause (not all of
    /// these squares occupied) is exact.
    pub fn assume_uniform_size(&mut self) {
        self.uniform = true;
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
        self.calls += 1;
        let status = self.backend.solve(&self.assumptions)?;
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
        check(&self.problem, self.bound, &placement).map_err(|violation| {
            SolveError::WrongPlacement {
                placement: placement.to_string(),
                violation,
            }
        })?;
        Ok(placement)
    }

    /// Forbids `placement` in every later call.
    ///
    /// # Errors
    ///
    /// Backend errors.
    pub fn block(&mut self, placement: &Placement) -> Result<(), SolveError> {
        let board = self.problem.board;
        let clause: Vec<Lit> = if self.uniform {
            placement
                .squares()
                .iter()
                .map(|&sq| !board.lit(sq))
                .collect()
        } else {
            let occupied: std::collections::HashSet<Square> =
                placement.squares().iter().copied().collect();
            board
                .squares()
                .map(|sq| {
                    let lit = board.lit(sq);
                    if occupied.contains(&sq) {
                        !lit
                    } else {
                        lit
                    }
                })
                .collect()
        };
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
        let mut count = 0u64;
        let end = loop {
            if limit.is_some_and(|l| count >= l) {
                break End::Limit;
            }
            match self.solve()? {
                (Status::Sat, Some(placement)) => {
                    count += 1;
                    self.block(&placement)?;
                    progress(&Progress {
                        count,
                        elapsed: start.elapsed(),
                    });
                }
                (Status::Unsat, _) => break End::Exhausted,
                _ => break End::Unknown,
            }
        };
        Ok(Count {
            count,
            end,
            elapsed: start.elapsed(),
        })
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
        let result = self.session.solve().and_then(|answer| match answer {
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
