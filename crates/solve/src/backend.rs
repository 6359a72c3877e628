//! The small core every solver offers, and the optional extras.
//!
//! ## Contract (CaDiCaL style)
//! - [`Backend::add_clause`] may be called at any time; clauses persist
//!   across calls to [`Backend::solve`] (incremental use).
//! - [`Backend::solve`] takes assumptions that hold for that call only.
//! - [`Backend::value`] requires the last `solve` to have returned
//!   [`Status::Sat`] with no clause added since; otherwise it returns
//!   [`SolveError::NoModel`]. Variables the solver never saw are `false`.

use std::{fmt, time::Duration};

use rustsat::types::{Lit, Var};

use crate::{Profile, SolveError};

/// The answer of one solver call, with SAT-competition exit codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// A model exists (exit code 10).
    Sat,
    /// No model exists under the assumptions (exit code 20).
    Unsat,
    /// The solver gave up: time limit or interrupt (exit code 0).
    Unknown,
}

impl Status {
    /// The SAT-competition exit code.
    #[must_use]
    pub const fn exit_code(self) -> u8 {
        match self {
            Status::Sat => 10,
            Status::Unsat => 20,
            Status::Unknown => 0,
        }
    }

    /// The SAT-competition status line, without the leading `s `.
    #[must_use]
    pub const fn competition(self) -> &'static str {
        match self {
            Status::Sat => "SATISFIABLE",
            Status::Unsat => "UNSATISFIABLE",
            Status::Unknown => "UNKNOWN",
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Status::Sat => "sat",
            Status::Unsat => "unsat",
            Status::Unknown => "unknown",
        })
    }
}

/// A SAT solver behind the smallest interface boardsat needs.
pub trait Backend {
    /// Adds a clause, kept for every later call.
    ///
    /// # Errors
    ///
    /// A backend-specific failure (for example, a solver left unusable by an
    /// abandoned time-limited call).
    fn add_clause(&mut self, clause: &[Lit]) -> Result<(), SolveError>;

    /// Solves under `assumptions`.
    ///
    /// # Errors
    ///
    /// A backend-specific failure; giving up is [`Status::Unknown`], not an
    /// error.
    fn solve(&mut self, assumptions: &[Lit]) -> Result<Status, SolveError>;

    /// The value of `var` in the last model.
    ///
    /// # Errors
    ///
    /// [`SolveError::NoModel`] unless the last call returned [`Status::Sat`]
    /// and nothing was added since.
    fn value(&mut self, var: Var) -> Result<bool, SolveError>;

    /// The solver's name and version, e.g. `varisat 0.2.2`.
    fn signature(&self) -> String;

    /// Declares that variables `0..n_vars` exist, even those no clause
    /// mentions (only an external solver's DIMACS header cares).
    fn reserve_vars(&mut self, _n_vars: u32) {}

    /// The time-limit capability, if the backend has one.
    fn time_limit(&mut self) -> Option<&mut dyn TimeLimit> {
        None
    }

    /// The interrupt capability, if the backend has one.
    fn interrupt(&mut self) -> Option<&mut dyn Interrupt> {
        None
    }

    /// The in-search enumeration capability, if the backend has one.
    fn search_enumerate(&mut self) -> Option<&mut dyn SearchEnumerate> {
        None
    }

    /// A new, empty solver of the same kind, with the same options (tuned
    /// for `profile` where the backend has profiles), the same time limit
    /// and the same interrupt flag: for a call best made on a solver of its
    /// own, such as the optimiser's refutations with the bound as unit
    /// clauses. `None` when the backend cannot make one.
    fn fresh(&self, _profile: Profile) -> Option<Box<dyn Backend>> {
        None
    }
}

/// What an in-search visitor says about a model.
pub type Visitor = Box<dyn FnMut(&[bool]) -> Option<Vec<Lit>>>;

/// Backends that can enumerate models inside one search, without a solver
/// call per model (CaDiCaL's external-propagator interface: a found model is
/// rejected and its blocking clause handed over; the search goes on).
pub trait SearchEnumerate {
    /// Whether [`SearchEnumerate::enumerate_in_search`] can run now.
    fn can_enumerate_in_search(&self) -> bool;

    /// Runs one search under `assumptions`. Each model found is passed to
    /// `visit` as the values of `project`, in order. When `visit` returns a
    /// clause (over `project` only), the model is rejected, the clause is
    /// added for good, and the search goes on; when it returns `None`, the
    /// search stops with [`Status::Sat`] and that model is the current one
    /// (readable by [`Backend::value`]). [`Status::Unsat`] means every model
    /// was visited and blocked.
    ///
    /// # Errors
    ///
    /// Backend failures.
    fn enumerate_in_search(
        &mut self,
        project: &[Var],
        assumptions: &[Lit],
        visit: Visitor,
    ) -> Result<Status, SolveError>;
}

/// Backends whose calls can be bounded in wall-clock time. A call that hits
/// the limit returns [`Status::Unknown`].
pub trait TimeLimit {
    /// Sets (or clears) the limit for each later `solve` call.
    fn set_time_limit(&mut self, limit: Option<Duration>);
}

/// Backends that can be asked, from another thread, to stop the current
/// call. An interrupted call returns [`Status::Unknown`].
pub trait Interrupt {
    /// A handle that interrupts the running (or next) call when triggered.
    fn interrupter(&mut self) -> Interrupter;

    /// Makes the backend obey `interrupter` (instead of its own flag), so
    /// that one flag stops many solvers, e.g. every worker of a cube run.
    fn use_interrupter(&mut self, interrupter: Interrupter);
}

/// A cloneable, thread-safe interrupt flag.
#[derive(Clone, Debug, Default)]
pub struct Interrupter(std::sync::Arc<std::sync::atomic::AtomicBool>);

impl Interrupter {
    /// A fresh, untriggered flag.
    #[must_use]
    pub fn new() -> Self {
        Interrupter::default()
    }

    /// Asks the solver to stop.
    pub fn interrupt(&self) {
        self.0.store(true, std::sync::atomic::Ordering::SeqCst);
    }

    /// Whether an interrupt was asked for.
    #[must_use]
    pub fn is_interrupted(&self) -> bool {
        self.0.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Clears the flag.
    pub fn reset(&self) {
        self.0.store(false, std::sync::atomic::Ordering::SeqCst);
    }
}
