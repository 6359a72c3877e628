//! CaDiCaL 3, embedded through `cadical-sys`.
//!
//! Why `cadical-sys` rather than `rustsat-cadical`: it builds CaDiCaL from
//! vendored source with only a C++ compiler (its bridge is `cxx`, no
//! bindgen, so no libclang on the build machine), and it exposes the whole
//! C++ API, including the terminator used for time limits and interrupts,
//! and the external-propagator interface.
//!
//! Time limits and interrupts both go through one terminator callback that
//! CaDiCaL polls during search: it fires when the deadline has passed or the
//! [`Interrupter`] is triggered, and the call returns [`Status::Unknown`].
//! The solver stays usable afterwards.

use std::time::{Duration, Instant};

use cadical_sys::{CaDiCal, State, Status as CStatus, Terminator};

/// Options of [`Cadical::for_enumeration`].
const ENUMERATION_OPTIONS: [(&str, i32); 6] = [
    ("lucky", 0),
    ("ilb", 1),
    ("elim", 0),
    ("probe", 0),
    ("subsume", 0),
    ("vivify", 0),
];
use rustsat::types::{Lit, Var};

use crate::{Backend, Interrupt, Interrupter, SolveError, Status, TimeLimit};

/// CaDiCaL behind the [`Backend`] trait.
pub struct Cadical {
    solver: CaDiCal,
    has_model: bool,
    time_limit: Option<Duration>,
    interrupter: Interrupter,
    wants_terminator: bool,
}

impl std::fmt::Debug for Cadical {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cadical")
            .field("has_model", &self.has_model)
            .finish_non_exhaustive()
    }
}

impl Default for Cadical {
    fn default() -> Self {
        Cadical::new()
    }
}

struct Stop {
    deadline: Option<Instant>,
    interrupter: Interrupter,
}

impl Terminator for Stop {
    fn terminated(&mut self) -> bool {
        self.interrupter.is_interrupted() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

impl Cadical {
    /// A new solver with CaDiCaL's default options.
    #[must_use]
    pub fn new() -> Self {
        Cadical {
            solver: CaDiCal::new(),
            has_model: false,
            time_limit: None,
            interrupter: Interrupter::new(),
            wants_terminator: false,
        }
    }

    /// A new solver tuned for enumeration by blocking clauses: thousands of
    /// short incremental calls, where CaDiCaL's per-call work (the "lucky"
    /// phases, and preprocessing and inprocessing passes that the next
    /// blocking clause undoes) dominates. Measured on counting the 4860
    /// minimum dominating queen sets of 8×8 and the 14200 solutions of
    /// 12-queens, this is about 5× faster than the defaults (BENCHMARKS.md).
    #[must_use]
    pub fn for_enumeration() -> Self {
        let mut solver = Cadical::new();
        for (name, value) in ENUMERATION_OPTIONS {
            solver.set_option(name, value);
        }
        solver
    }

    /// Sets a CaDiCaL option by name (`seed`, `phase`, …). CaDiCaL takes
    /// options only before the first clause; false when it is too late or
    /// the name is invalid.
    pub fn set_option(&mut self, name: &str, value: i32) -> bool {
        self.solver.state() == State::CONFIGURING
            && CaDiCal::is_valid_option(name)
            && self.solver.set(name, value)
    }

    /// Direct access to the solver, for callers that need more of the API.
    pub fn raw(&mut self) -> &mut CaDiCal {
        &mut self.solver
    }
}

impl Backend for Cadical {
    fn add_clause(&mut self, clause: &[Lit]) -> Result<(), SolveError> {
        self.has_model = false;
        for &lit in clause {
            self.solver.add(lit.to_ipasir());
        }
        self.solver.add(0);
        Ok(())
    }

    fn solve(&mut self, assumptions: &[Lit]) -> Result<Status, SolveError> {
        self.has_model = false;
        // A call that finds the flag already set does not start: CaDiCaL
        // polls the terminator only during search, which a short call may
        // never reach.
        if self.interrupter.is_interrupted() {
            return Ok(Status::Unknown);
        }
        let needs_terminator = self.time_limit.is_some() || self.wants_terminator;
        if needs_terminator {
            self.solver.connect_terminator(Stop {
                deadline: self.time_limit.map(|l| Instant::now() + l),
                interrupter: self.interrupter.clone(),
            });
            self.wants_terminator = true;
        }
        for &lit in assumptions {
            self.solver.assume(lit.to_ipasir());
        }
        let status = match self.solver.solve() {
            CStatus::SATISFIABLE => {
                self.has_model = true;
                Status::Sat
            }
            CStatus::UNSATISFIABLE => Status::Unsat,
            _ => Status::Unknown,
        };
        Ok(status)
    }

    fn value(&mut self, var: Var) -> Result<bool, SolveError> {
        if !self.has_model {
            return Err(SolveError::NoModel);
        }
        // Variables the solver never saw come back false.
        Ok(self.solver.val(var.pos_lit().to_ipasir()) > 0)
    }

    fn signature(&self) -> String {
        format!("CaDiCaL {}", CaDiCal::version())
    }

    fn time_limit(&mut self) -> Option<&mut dyn TimeLimit> {
        Some(self)
    }

    fn interrupt(&mut self) -> Option<&mut dyn Interrupt> {
        Some(self)
    }
}

impl TimeLimit for Cadical {
    fn set_time_limit(&mut self, limit: Option<Duration>) {
        self.time_limit = limit;
    }
}

impl Interrupt for Cadical {
    fn interrupter(&mut self) -> Interrupter {
        // Connected lazily at the next solve so calls without a limit or an
        // interrupter pay nothing for the callback.
        self.wants_terminator = true;
        self.interrupter.clone()
    }
}
