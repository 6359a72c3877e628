//! The small core every solver offers, and the optional extras.
//!
//! ## Contract (CaDiCaL style)
//! - [`Backend::add_clause`] may be called at any time; clauses persist
//!   across calls to [`Backend::solve`] (incremental use).
//! - [`Backend::solve`] takes assumptions that hold for that call only.
//! - [`Backend::value`] requires the last `solve` to have returned
//!   [`Status::Sat`] with no clause added since; otherwise it returns
//!   [`SolveError::NoModel`]. Variables the solver never saw are `false`.

//!
//! | module | what |
//! |---|---|
//! | this one | [`Backend`], [`Status`], [`Mode`]; the capabilities [`TimeLimit`], [`Interrupt`], [`TraceProof`] (into a [`ProofSink`]: `boardsat-proof` writes the LRAT), [`propagator::PropagateLines`] |
//! | [`spec`] | [`spec::SolverKind`], [`spec::SolverSpec`]: which backend, built for many threads |
//! | [`varisat`] | varisat, pure Rust |
//! | [`cadical`] | CaDiCaL (feature `cadical`) |
//! | [`propagator`] | the lazy AMO's line propagator inside CaDiCaL |
//! | [`reject`] | [`reject::RejectModels`]: a count's models blocked inside CaDiCaL's search |
//! | [`external`] | any DIMACS solver binary, run through files |
//! | [`recorder`] | a backend that only records its clauses (a formula re-derived without solving) |

#[cfg(feature = "cadical")]
pub mod cadical;
pub mod external;
pub mod propagator;
pub mod recorder;
pub mod reject;
pub mod spec;
pub mod varisat;

use std::{fmt, time::Duration};

use rustsat::types::{Lit, Var};

use crate::{error::SolveError, stop::Interrupter};

/// What a solver will mostly be asked to do. It tunes the backends that
/// have options (CaDiCaL), and it tells a
/// [`crate::search::session::Session`] whether a call decides (the implied
/// line bounds help) or enumerates (they are left out).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Mode {
    /// A few hard calls: one solution, an optimum and its proof.
    #[default]
    Decide,
    /// Many short incremental calls: enumeration by blocking clauses.
    Enumerate,
    /// One call expected to be UNSAT on a fresh solver: a cube of a split
    /// refutation (CaDiCaL: enumeration's options, and its `unsat`
    /// configuration's — no stable mode, no local search; BENCHMARKS.md).
    Refute,
}

/// How a found placement is blocked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Blocking {
    /// The whole board assignment negated: exact whatever the sizes.
    #[default]
    Full,
    /// "Not all of these squares occupied": exact when every solution has
    /// the same number of pieces (an exact bound, or a proven minimum).
    Short,
}

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

    /// The conflict-limit capability, if the backend has one.
    fn conflict_limit(&mut self) -> Option<&mut dyn ConflictLimit> {
        None
    }

    /// The proof-tracing capability ([`TraceProof`]), if the backend has
    /// one.
    fn trace_proof(&mut self) -> Option<&mut dyn TraceProof> {
        None
    }

    /// The line-propagator capability ([`boardsat_encode::Amo::Lazy`]), if
    /// the backend has one.
    fn propagate_lines(&mut self) -> Option<&mut dyn propagator::PropagateLines> {
        None
    }

    /// The capability of blocking a count's models inside the search
    /// ([`reject::RejectModels`]), if the backend has it.
    fn reject_models(&mut self) -> Option<&mut dyn reject::RejectModels> {
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

/// Where a traced proof goes, step by step, as the solver derives it
/// (CaDiCaL's proof tracer with antecedents): every clause the solver was
/// given, in order, and every clause it derived or deleted, with its ids.
/// `boardsat-proof`'s `SharedTrace` hands a solver a sink into an
/// `LratTrace` it keeps, which writes them as a formula and its LRAT
/// proof; the solver only reports.
pub trait ProofSink {
    /// An original clause with the solver's id (`restored`: put back after
    /// clause elimination).
    fn original(&mut self, id: i64, clause: &[i32], restored: bool);
    /// A derived clause with its antecedents (`witness` non-zero for a RAT
    /// step).
    fn derived(&mut self, id: i64, witness: i32, clause: &[i32], antecedents: &[i64]);
    /// A clause deleted.
    fn deleted(&mut self, id: i64);
    /// An event the sink cannot state (a constraint, an assumption
    /// clause): the trace must end in an error, never in a wrong proof.
    fn refuse(&mut self, why: String);
}

/// Backends that trace a proof of what they derive, against the formula
/// of every clause they were given, in order, into a [`ProofSink`].
///
/// ## Contract
/// - [`TraceProof::start_trace`] before the first clause;
/// - [`TraceProof::stop_trace`] after the call that answered UNSAT (or
///   any time, to keep what was traced so far): it ends the trace and
///   drops the sink, so whoever gave it holds what it fed alone.
pub trait TraceProof {
    /// Starts tracing into `sink`.
    ///
    /// # Errors
    ///
    /// [`SolveError::Solver`] when clauses were added already or tracing
    /// cannot start.
    fn start_trace(&mut self, sink: Box<dyn ProofSink>) -> Result<(), SolveError>;

    /// Ends the trace and drops the sink.
    ///
    /// # Errors
    ///
    /// [`SolveError::Solver`] when nothing was traced.
    fn stop_trace(&mut self) -> Result<(), SolveError>;

    /// Keeps `vars` in the formula for clauses added later (a count's
    /// blocking clauses): the solver must not eliminate or substitute them,
    /// since a clause over such a variable makes it restore clauses, which
    /// an LRAT proof against a fixed formula cannot state. Call it after
    /// [`Self::start_trace`], before the first search.
    ///
    /// # Errors
    ///
    /// [`SolveError::Solver`] when the solver cannot keep them.
    fn keep(&mut self, vars: &[Var]) -> Result<(), SolveError>;
}

/// Backends whose calls can be bounded in wall-clock time. A call that hits
/// the limit returns [`Status::Unknown`].
pub trait TimeLimit {
    /// Sets (or clears) the limit for each later `solve` call.
    fn set_time_limit(&mut self, limit: Option<Duration>);
}

/// Backends whose calls can be bounded in conflicts: a bound that, unlike
/// wall-clock time, does not depend on the machine's load, so the same call
/// gives the same answer on an idle machine and on a busy one. A call that
/// reaches the limit returns [`Status::Unknown`].
pub trait ConflictLimit {
    /// Sets (or clears) the limit for each later `solve` call.
    fn set_conflict_limit(&mut self, limit: Option<u32>);
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

/// The values of variables `0..n_vars` in the backend's current model.
///
/// # Errors
///
/// [`SolveError::NoModel`] without a current model.
pub fn read_model(backend: &mut dyn Backend, n_vars: u32) -> Result<Vec<bool>, SolveError> {
    (0..n_vars).map(|v| backend.value(Var::new(v))).collect()
}
