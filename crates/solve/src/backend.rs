//! The small core every solver offers, and the optional extras.
//!
//! ## Contract (CaDiCaL style)
//! - [`Backend::add_clause`] may be called at any time; clauses persist
//!   across calls to [`Backend::solve`] (incremental use).
//! - [`Backend::solve`] takes assumptions that hold for that call only.
//! - [`Backend::value`] requires the last `solve` to have returned
//!   [`Status::Sat`] with no clause added since; otherwise it returns
//!   [`SolveError::NoModel`]. Variables the solver never saw are `false`.

use std::{
    fmt,
    sync::atomic::{AtomicU8, Ordering},
    time::{Duration, Instant},
};

use rustsat::types::{Lit, Var};

use crate::{Mode, SolveError};

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

    /// The line-propagator capability ([`boardsat_encode::Amo::Lazy`]), if
    /// the backend has one.
    fn propagate_lines(&mut self) -> Option<&mut dyn crate::PropagateLines> {
        None
    }

    /// A new, empty solver of the same kind, with the same options (tuned
    /// for `mode` where the backend has options), the same time limit
    /// and the same interrupt flag: for a call best made on a solver of its
    /// own, such as the optimiser's refutations with the bound as unit
    /// clauses. `None` when the backend cannot make one.
    fn fresh(&self, _mode: Mode) -> Option<Box<dyn Backend>> {
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

/// Why work was stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StopReason {
    /// [`Interrupter::interrupt`] was called: a signal (Ctrl-C, SIGTERM),
    /// or a caller that wanted the work to end.
    Interrupted,
    /// The deadline of an [`Interrupter::with_deadline`] passed.
    TimeLimit,
}

impl StopReason {
    /// How a partial result is marked: `interrupted` or `time limit`.
    #[must_use]
    pub const fn word(self) -> &'static str {
        match self {
            StopReason::Interrupted => "interrupted",
            StopReason::TimeLimit => "time limit",
        }
    }
}

impl StopReason {
    /// Why work without an answer stopped, in words: the reason, or `the
    /// solver gave up` when nothing stopped it from outside.
    #[must_use]
    pub fn words(stop: Option<StopReason>) -> &'static str {
        stop.map_or("the solver gave up", StopReason::word)
    }
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// A cloneable, thread-safe stop flag with an optional deadline.
///
/// One interrupter is meant to stop a whole job: every solver of the job
/// obeys it ([`Interrupt::use_interrupter`]), and every long loop outside
/// the solvers (encoding, writing, reading, printing) polls
/// [`Interrupter::is_interrupted`]. A deadline needs no timer thread: the
/// flag reads as set once the deadline has passed. A *child*
/// ([`Interrupter::child`]) stops when its parent does or at its own
/// deadline, so a benchmark cell can have a time limit of its own while
/// Ctrl-C still stops everything, and the reason tells the two apart.
#[derive(Clone, Debug, Default)]
pub struct Interrupter(std::sync::Arc<Flag>);

#[derive(Debug, Default)]
struct Flag {
    /// 0: running; 1: interrupted; 2: time limit.
    state: AtomicU8,
    deadline: Option<Instant>,
    parent: Option<Interrupter>,
}

const RUNNING: u8 = 0;
const INTERRUPTED: u8 = 1;
const TIMED_OUT: u8 = 2;

impl Interrupter {
    /// A fresh, untriggered flag without a deadline.
    #[must_use]
    pub fn new() -> Self {
        Interrupter::default()
    }

    /// A flag that triggers by itself once `limit` has passed from now.
    #[must_use]
    pub fn with_deadline(limit: Option<Duration>) -> Self {
        Interrupter(std::sync::Arc::new(Flag {
            state: AtomicU8::new(RUNNING),
            deadline: limit.map(deadline_after),
            parent: None,
        }))
    }

    /// A flag that is triggered when `self` is, or when `limit` (if any)
    /// has passed from now; triggering the child leaves `self` alone.
    #[must_use]
    pub fn child(&self, limit: Option<Duration>) -> Self {
        Interrupter(std::sync::Arc::new(Flag {
            state: AtomicU8::new(RUNNING),
            deadline: limit.map(deadline_after),
            parent: Some(self.clone()),
        }))
    }

    /// Asks every solver and loop that obeys this flag to stop.
    pub fn interrupt(&self) {
        let _ =
            self.0
                .state
                .compare_exchange(RUNNING, INTERRUPTED, Ordering::SeqCst, Ordering::SeqCst);
    }

    /// Whether work should stop: interrupted, deadline passed, or the
    /// parent stopped.
    #[must_use]
    pub fn is_interrupted(&self) -> bool {
        self.reason().is_some()
    }

    /// Why work should stop, if it should.
    #[must_use]
    pub fn reason(&self) -> Option<StopReason> {
        match self.0.state.load(Ordering::SeqCst) {
            INTERRUPTED => return Some(StopReason::Interrupted),
            TIMED_OUT => return Some(StopReason::TimeLimit),
            _ => {}
        }
        if self.0.deadline.is_some_and(|d| Instant::now() >= d) {
            let _ = self.0.state.compare_exchange(
                RUNNING,
                TIMED_OUT,
                Ordering::SeqCst,
                Ordering::SeqCst,
            );
            return Some(StopReason::TimeLimit);
        }
        self.0.parent.as_ref().and_then(Interrupter::reason)
    }

    /// The time left before the deadline (this flag's or a parent's),
    /// `None` without one.
    #[must_use]
    pub fn remaining(&self) -> Option<Duration> {
        let own = self
            .0
            .deadline
            .map(|d| d.saturating_duration_since(Instant::now()));
        let parent = self.0.parent.as_ref().and_then(Interrupter::remaining);
        match (own, parent) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Clears this flag (not its deadline, nor a parent's state).
    pub fn reset(&self) {
        self.0.state.store(RUNNING, Ordering::SeqCst);
    }
}

/// `limit` from now, saturating far in the future instead of overflowing
/// (`--time-limit 1e20` means "no limit in practice", not a panic).
fn deadline_after(limit: Duration) -> Instant {
    let now = Instant::now();
    now.checked_add(limit)
        .unwrap_or_else(|| now + Duration::from_secs(100 * 365 * 24 * 3600))
}
