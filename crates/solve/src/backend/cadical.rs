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
//! The solver stays usable afterwards. The line propagator
//! ([`crate::backend::propagator`]) looks at the same flag inside its callbacks.
//!
//! [`Cadical::trace_proof`] writes a text LRAT proof of a fresh solver;
//! the ids CaDiCaL gives to original clauses are documented there.

use std::cell::{Cell, RefCell};
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::rc::Rc;
use std::time::{Duration, Instant};

use boardsat_encode::LazyLines;
use cadical_sys::{CaDiCal, ProofTracer, State, Status as CStatus, Terminator};

use crate::backend::propagator::{self, LinesOptions, LinesStats, PropagateLines};
use crate::backend::reject::{RejectModels, Rejecter, Rejections};
use crate::backend::Blocking;

/// Options [`Cadical::for_refutation`] adds to enumeration's: CaDiCaL's
/// `unsat` configuration.
const REFUTATION_OPTIONS: [(&str, i32); 2] = [("stabilize", 0), ("walk", 0)];

/// Options of [`Cadical::for_enumeration`]. The last two reduce the learned
/// clauses more often and further than CaDiCaL's defaults (`reduceint` 25,
/// `reducetarget` 75 %): less propagation per conflict, which made split
/// refutations and domination counts faster and left N-queens counts
/// unchanged (docs/bench/frontier.md, "Learned clauses reduced harder").
const ENUMERATION_OPTIONS: [(&str, i32); 8] = [
    ("lucky", 0),
    ("ilb", 1),
    ("elim", 0),
    ("probe", 0),
    ("subsume", 0),
    ("vivify", 0),
    ("reduceint", 15),
    ("reducetarget", 90),
];
use rustsat::types::{Lit, Var};

use crate::{
    backend::{Backend, ConflictLimit, Interrupt, ProofSink, Status, TimeLimit, TraceProof},
    error::SolveError,
    stop::Interrupter,
};

/// `CaDiCaL <version>`.
pub(crate) fn signature() -> String {
    format!("CaDiCaL {}", CaDiCal::version())
}

/// CaDiCaL behind the [`Backend`] trait.
pub struct Cadical {
    solver: CaDiCal,
    has_model: bool,
    time_limit: Option<Duration>,
    /// The conflicts each call may take ([`ConflictLimit`]).
    conflict_limit: Option<u32>,
    interrupter: Interrupter,
    wants_terminator: bool,
    /// Whether variables may have been eliminated: observing an eliminated
    /// variable aborts CaDiCaL, so in-search enumeration is refused then.
    may_have_eliminated: bool,
    elimination_on: bool,
    /// CaDiCaL's one external-propagator slot.
    propagator: Slot,
    /// Options set through [`Cadical::set_option`], replayed by
    /// [`Backend::fresh`].
    options: Vec<(String, i32)>,
    proof: ProofTrace,
    /// The deadline of the running call, shared with the terminator and the
    /// line propagator.
    deadline: Rc<Cell<Option<Instant>>>,
    lines_options: LinesOptions,
    /// Reused by [`Backend::add_clause`].
    clause_buffer: Vec<i32>,
}

/// An error of the embedded CaDiCaL.
fn fail(message: String) -> SolveError {
    SolveError::Solver {
        backend: signature(),
        message,
    }
}

/// Fails when a comment before the `p` line of the DIMACS file at `path`
/// would set a CaDiCaL option (see [`Cadical::read_dimacs`]).
fn refuse_embedded_options(path: &Path) -> Result<(), SolveError> {
    let file = File::open(path).map_err(|e| fail(format!("{}: {e}", path.display())))?;
    let mut input = BufReader::new(file);
    let mut line = Vec::new();
    for number in 1u64.. {
        line.clear();
        let read = input
            .read_until(b'\n', &mut line)
            .map_err(|e| fail(format!("{}: {e}", path.display())))?;
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_start();
        if read == 0 || !(text.is_empty() || text.starts_with('c')) {
            return Ok(());
        }
        let Some(dash) = text.find('-') else {
            continue;
        };
        let option = text[dash..].trim_end_matches(['\n', '\r']);
        let Some(rest) = option.strip_prefix("--") else {
            continue;
        };
        let rest = rest.strip_prefix("no-").unwrap_or(rest);
        let name = rest.split('=').next().unwrap_or(rest);
        if CaDiCal::is_valid_option(name) {
            return Err(fail(format!(
                "{} line {number}: CaDiCaL would read `{option}` in this comment as an option; \
                 move the comment after the `p cnf` line or reword it",
                path.display()
            )));
        }
    }
    Ok(())
}

/// What holds CaDiCaL's one external-propagator slot.
enum Slot {
    /// Nothing.
    Empty,
    /// The line propagator ([`PropagateLines`]) for good, with its
    /// statistics and the models it accepted.
    Lines {
        stats: Rc<RefCell<LinesStats>>,
        model: Rc<RefCell<propagator::Model>>,
    },
    /// The rejection of a count's models ([`RejectModels`]).
    Reject(Rc<RefCell<Rejections>>),
}

/// Where a solver's proof goes.
enum ProofTrace {
    /// Nowhere yet.
    Off,
    /// CaDiCaL's own LRAT file ([`Cadical::trace_proof`]), being written.
    Open,
    /// That file, closed; CaDiCaL cannot open another.
    Closed,
    /// A [`ProofSink`] ([`TraceProof`]), fed as CaDiCaL goes.
    Traced(Rc<RefCell<Box<dyn ProofSink>>>),
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

/// The time limit and interrupt flag of the running call.
#[derive(Clone)]
struct Stop {
    deadline: Rc<Cell<Option<Instant>>>,
    interrupter: Interrupter,
}

impl Stop {
    fn now(&self) -> bool {
        self.interrupter.is_interrupted()
            || self.deadline.get().is_some_and(|d| Instant::now() >= d)
    }
}

impl Terminator for Stop {
    fn terminated(&mut self) -> bool {
        self.now()
    }
}

impl propagator::StopCheck for Stop {
    fn stopped(&self) -> bool {
        self.now()
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
            conflict_limit: None,
            interrupter: Interrupter::new(),
            wants_terminator: false,
            may_have_eliminated: false,
            elimination_on: true,
            propagator: Slot::Empty,
            options: Vec::new(),
            proof: ProofTrace::Off,
            deadline: Rc::new(Cell::new(None)),
            lines_options: LinesOptions::default(),
            clause_buffer: Vec::new(),
        }
    }

    /// Options for the line propagator of a later
    /// [`PropagateLines::connect_lines`] (kept by [`Backend::fresh`]).
    pub fn set_lines_options(&mut self, options: LinesOptions) {
        self.lines_options = options;
    }

    fn stop(&self) -> Stop {
        Stop {
            deadline: Rc::clone(&self.deadline),
            interrupter: self.interrupter.clone(),
        }
    }

    /// A new solver tuned for enumeration by blocking clauses: thousands of
    /// short incremental calls, where CaDiCaL's per-call work (the "lucky"
    /// phases, and preprocessing and inprocessing passes that the next
    /// blocking clause undoes) dominates; learned clauses reduced harder
    /// (`ENUMERATION_OPTIONS`). Chosen because it counted faster than the
    /// defaults (BENCHMARKS.md).
    #[must_use]
    pub fn for_enumeration() -> Self {
        let mut solver = Cadical::new();
        for (name, value) in ENUMERATION_OPTIONS {
            solver.apply_option(name, value);
        }
        solver
    }

    /// A new solver tuned for refutations on a fresh solver: enumeration's
    /// options and those of CaDiCaL's `unsat` configuration (no stable
    /// mode, no local search). Chosen because split refutations ran
    /// faster with them (BENCHMARKS.md).
    #[must_use]
    pub fn for_refutation() -> Self {
        let mut solver = Cadical::for_enumeration();
        for (name, value) in REFUTATION_OPTIONS {
            solver.apply_option(name, value);
        }
        solver
    }

    /// A new solver tuned for `mode` (see [`crate::backend::Mode`]).
    #[must_use]
    pub fn with_mode(mode: crate::backend::Mode) -> Self {
        match mode {
            crate::backend::Mode::Decide => Cadical::new(),
            crate::backend::Mode::Enumerate => Cadical::for_enumeration(),
            crate::backend::Mode::Refute => Cadical::for_refutation(),
        }
    }

    /// Sets a CaDiCaL option by name (`seed`, `phase`, …). CaDiCaL takes
    /// options only before the first clause.
    ///
    /// # Errors
    ///
    /// [`SolveError::Solver`] when it is too late, the name is not an
    /// option, or CaDiCaL refuses the value.
    pub fn set_option(&mut self, name: &str, value: i32) -> Result<(), SolveError> {
        if !self.apply_option(name, value) {
            let why = if self.solver.state() == State::CONFIGURING {
                "not a CaDiCaL option, or a value out of its range"
            } else {
                "options are set before the first clause"
            };
            return Err(fail(format!("cannot set option {name}={value}: {why}")));
        }
        self.options.push((name.to_string(), value));
        Ok(())
    }

    fn apply_option(&mut self, name: &str, value: i32) -> bool {
        let set = self.solver.state() == State::CONFIGURING
            && CaDiCal::is_valid_option(name)
            && self.solver.set(name, value);
        if set && name == "elim" {
            self.elimination_on = value != 0;
        }
        set
    }

    /// One search, with whatever propagator is connected.
    fn search(&mut self, assumptions: &[Lit]) -> Result<Status, SolveError> {
        self.has_model = false;
        // A call that finds the flag already set does not start: CaDiCaL
        // polls the terminator only during search, which a short call may
        // never reach.
        if self.interrupter.is_interrupted() {
            return Ok(Status::Unknown);
        }
        self.deadline
            .set(self.time_limit.map(|l| Instant::now() + l));
        let needs_terminator = self.time_limit.is_some() || self.wants_terminator;
        if needs_terminator {
            self.solver.connect_terminator(self.stop());
            self.wants_terminator = true;
        }
        if let Slot::Lines { model, .. } = &self.propagator {
            model.borrow_mut().valid = false;
        }
        if let Some(conflicts) = self.conflict_limit {
            // CaDiCaL's limits hold for the next call only.
            let conflicts = i32::try_from(conflicts).unwrap_or(i32::MAX);
            if !self.solver.limit("conflicts", conflicts) {
                return Err(fail("CaDiCaL refused a conflict limit".to_string()));
            }
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

    /// Writes a text LRAT proof of everything this solver derives into
    /// `path` (a `.gz`, `.bz2`, `.xz` or `.7z` suffix compresses through
    /// that program), so that an UNSAT answer of the next `solve` can be
    /// checked, e.g. by `boardsat-lrat`. Close the file with
    /// [`Cadical::close_proof`] after the solve (dropping the solver closes
    /// it too).
    ///
    /// Requires a solver that has not been given a clause, an assumption
    /// or a solve call yet (CaDiCaL's CONFIGURING state); options set
    /// before still apply, and more may be set after.
    ///
    /// # Clause ids
    ///
    /// LRAT names clauses by ids, and the formula the proof is checked
    /// against must give every clause the id CaDiCaL gave it. CaDiCaL
    /// numbers the clauses added through [`Backend::add_clause`] 1, 2, …
    /// in order, units, tautologies, satisfied and repeated clauses and
    /// the empty clause included, except that it draws those numbers from
    /// the same counter as the clauses it derives: a clause with a
    /// repeated literal, or with a literal that an earlier unit clause
    /// falsified, is shortened into a derived clause that takes the next
    /// id, and every later original clause's id moves up by one. A
    /// formula whose clauses have no repeated literal and no literal
    /// falsified by an earlier unit gets the ids 1..m; for any other, load
    /// the clauses from a DIMACS file with [`Cadical::read_dimacs`], which
    /// reserves 1..m for them (`crates/solve/tests/lrat.rs` pins both).
    ///
    /// Only the proof of a single `solve` after all clauses were added is
    /// checkable as a plain LRAT refutation: assumptions and clauses added
    /// between calls are not part of it.
    ///
    /// # Errors
    ///
    /// [`SolveError::Solver`] when the solver is past CONFIGURING, a proof
    /// file was already opened on it, the path is not UTF-8, or the file
    /// cannot be created.
    pub fn trace_proof(&mut self, path: &Path) -> Result<(), SolveError> {
        if !matches!(self.proof, ProofTrace::Off) {
            return Err(fail("this solver already traced a proof".to_string()));
        }
        if self.solver.state() != State::CONFIGURING {
            return Err(fail(
                "a proof can only be traced from the start, before any clause is added".to_string(),
            ));
        }
        let Some(name) = path.to_str() else {
            return Err(fail(format!(
                "the proof path {} is not UTF-8",
                path.display()
            )));
        };
        // `binary` defaults to 1 (CaDiCaL's compact binary LRAT).
        if !(self.solver.set("lrat", 1) && self.solver.set("binary", 0)) {
            return Err(fail(
                "CaDiCaL refused the options lrat=1 binary=0".to_string(),
            ));
        }
        if !self.solver.trace_proof2(name) {
            return Err(fail(format!("cannot write the proof file {name}")));
        }
        self.proof = ProofTrace::Open;
        Ok(())
    }

    /// Flushes and closes the proof file opened by
    /// [`Cadical::trace_proof`]. The solver stays usable, but traces no
    /// more.
    ///
    /// # Errors
    ///
    /// [`SolveError::Solver`] when no proof file is open.
    pub fn close_proof(&mut self) -> Result<(), SolveError> {
        if !matches!(self.proof, ProofTrace::Open) {
            return Err(fail("no proof file is open".to_string()));
        }
        self.solver.close_proof_trace(false);
        self.proof = ProofTrace::Closed;
        Ok(())
    }

    /// Adds the clauses of the DIMACS file at `path`, as CaDiCaL's own
    /// parser reads them (strict: the header must be honest). Unlike
    /// clauses given one by one, these get the ids 1..m of their order in
    /// the file whatever they hold, so a proof traced with
    /// [`Cadical::trace_proof`] checks against that very file.
    ///
    /// Requires a solver in CaDiCaL's CONFIGURING state, as
    /// [`Cadical::trace_proof`] does (trace first, then read).
    ///
    /// CaDiCaL's parser takes a comment line before the header whose first
    /// `-` starts `--<option>=<value>` (or ends the line as `--<option>`)
    /// as an option, so a provenance comment could silently retune the
    /// solver or make it print; such a file is refused instead.
    ///
    /// # Errors
    ///
    /// [`SolveError::Solver`] when the solver is past CONFIGURING, the
    /// path is not UTF-8, a header comment would set a CaDiCaL option, or
    /// CaDiCaL's parser fails (its message says why).
    pub fn read_dimacs(&mut self, path: &Path) -> Result<(), SolveError> {
        if self.solver.state() != State::CONFIGURING {
            return Err(fail(
                "a DIMACS file can only be read before any clause is added".to_string(),
            ));
        }
        let Some(name) = path.to_str() else {
            return Err(fail(format!("the path {} is not UTF-8", path.display())));
        };
        refuse_embedded_options(path)?;
        let mut n_vars = 0;
        self.has_model = false;
        // Strictness 1: CaDiCaL's default (the header must match).
        self.solver
            .read_dimacs2(name, &mut n_vars, 1)
            .map_err(|message| fail(format!("{name}: {message}")))
    }

    /// Direct access to the solver, for callers that need more of the API.
    pub fn raw(&mut self) -> &mut CaDiCal {
        &mut self.solver
    }
}

impl Backend for Cadical {
    fn add_clause(&mut self, clause: &[Lit]) -> Result<(), SolveError> {
        self.has_model = false;
        // One call for the whole clause: on long clauses (N-queens' rows
        // and columns) the per-literal calls were most of the loading time.
        self.clause_buffer.clear();
        self.clause_buffer
            .extend(clause.iter().map(|lit| lit.to_ipasir()));
        self.solver.clause6(&self.clause_buffer);
        Ok(())
    }

    fn solve(&mut self, assumptions: &[Lit]) -> Result<Status, SolveError> {
        // Board variables observed during in-search enumeration are frozen;
        // a plain search may eliminate them.
        self.may_have_eliminated |= self.elimination_on;
        self.search(assumptions)
    }

    fn value(&mut self, var: Var) -> Result<bool, SolveError> {
        if !self.has_model {
            return Err(SolveError::NoModel);
        }
        // A board square: from the model the line propagator accepted,
        // without a call into CaDiCaL per square.
        if let Slot::Lines { model, .. } = &self.propagator {
            if let Some(value) = model.borrow().value(var.idx() + 1) {
                return Ok(value);
            }
        }
        // Variables the solver never saw come back false.
        Ok(self.solver.val(var.pos_lit().to_ipasir()) > 0)
    }

    fn signature(&self) -> String {
        signature()
    }

    fn time_limit(&mut self) -> Option<&mut dyn TimeLimit> {
        Some(self)
    }

    fn interrupt(&mut self) -> Option<&mut dyn Interrupt> {
        Some(self)
    }

    fn conflict_limit(&mut self) -> Option<&mut dyn ConflictLimit> {
        Some(self)
    }

    fn fresh(&self, mode: crate::backend::Mode) -> Option<Box<dyn Backend>> {
        let mut solver = Cadical::with_mode(mode);
        for (name, value) in &self.options {
            // Options that took on this solver take on a new one too.
            let _ = solver.apply_option(name, *value);
            solver.options.push((name.clone(), *value));
        }
        solver.time_limit = self.time_limit;
        solver.conflict_limit = self.conflict_limit;
        solver.interrupter = self.interrupter.clone();
        solver.wants_terminator = self.wants_terminator;
        solver.lines_options = self.lines_options;
        Some(Box::new(solver))
    }

    fn reject_models(&mut self) -> Option<&mut dyn RejectModels> {
        Some(self)
    }

    fn propagate_lines(&mut self) -> Option<&mut dyn PropagateLines> {
        Some(self)
    }

    fn trace_proof(&mut self) -> Option<&mut dyn TraceProof> {
        Some(self)
    }
}

impl PropagateLines for Cadical {
    fn connect_lines(&mut self, lines: &LazyLines) -> Result<(), SolveError> {
        let refuse = |why: &str| fail(format!("cannot connect the line propagator: {why}"));
        if !matches!(self.propagator, Slot::Empty) {
            return Err(refuse("a propagator is connected already"));
        }
        if matches!(self.proof, ProofTrace::Traced(_)) {
            return Err(refuse(
                "a traced proof cannot cite its reasons, which are not clauses of the formula",
            ));
        }
        if self.may_have_eliminated {
            // Observing an eliminated variable would abort the process.
            return Err(refuse(
                "the solver has searched with variable elimination on",
            ));
        }
        let stats = Rc::new(RefCell::new(LinesStats::default()));
        let core = propagator::Core::new(lines, self.lines_options, self.stop(), Rc::clone(&stats));
        let Ok(max_var) = i32::try_from(core.n_vars()) else {
            return Err(refuse("the board has too many squares"));
        };
        let stopped = |solver: &Cadical| {
            solver
                .interrupter
                .reason()
                .map_or(Ok(()), |reason| Err(SolveError::Interrupted(reason)))
        };
        // Declared up front, CaDiCaL sizes its per-variable tables once and
        // exactly, instead of doubling them as variables are observed. It
        // is one call that cannot be polled (seconds at n = 5000), so a stop
        // that came before it is obeyed before it.
        stopped(self)?;
        if max_var > self.solver.vars() {
            self.has_model = false;
            self.solver.resize(max_var);
        }
        let model = core.model();
        self.solver
            .connect_external_propagator(propagator::Propagator(core));
        self.propagator = Slot::Lines { stats, model };
        // Highest first, so that CaDiCaL's observed and frozen tables grow
        // once; the flag polled every 2^16 variables (about 5 ms).
        for var in (1..=max_var).rev() {
            if var % (1 << 16) == 0 {
                stopped(self)?;
            }
            self.solver.add_observed_var(var);
        }
        Ok(())
    }

    fn lines_stats(&self) -> Option<LinesStats> {
        match &self.propagator {
            Slot::Lines { stats, .. } => Some(stats.borrow().clone()),
            _ => None,
        }
    }
}

impl RejectModels for Cadical {
    fn observe(&mut self, vars: &[Var], blocking: Blocking) -> Result<bool, SolveError> {
        if let Slot::Reject(rejections) = &self.propagator {
            if rejections.borrow().observed().len() == vars.len() {
                return Ok(true);
            }
        }
        // Observing an eliminated variable would abort the process.
        if !matches!(self.propagator, Slot::Empty) || self.may_have_eliminated {
            return Ok(false);
        }
        let rejections = Rc::new(RefCell::new(Rejections::new(vars, blocking)));
        let max_var = vars.iter().map(|v| v.idx32() + 1).max().unwrap_or(0);
        let max_var = i32::try_from(max_var)
            .map_err(|_| fail("too many variables to observe".to_string()))?;
        if max_var > self.solver.vars() {
            self.has_model = false;
            self.solver.resize(max_var);
        }
        self.solver
            .connect_external_propagator(Rejecter(Rc::clone(&rejections)));
        for &lit in rejections.borrow().observed() {
            self.solver.add_observed_var(lit);
        }
        self.propagator = Slot::Reject(rejections);
        Ok(true)
    }

    fn solve_rejecting(
        &mut self,
        assumptions: &[Lit],
        quota: u64,
        window: Duration,
    ) -> Result<(Status, Vec<Vec<bool>>), SolveError> {
        let Slot::Reject(rejections) = &self.propagator else {
            return Err(fail("no model is observed: call observe first".to_string()));
        };
        let rejections = Rc::clone(rejections);
        rejections.borrow_mut().start(quota, window);
        let status = self.search(assumptions);
        let rejected = rejections.borrow_mut().take();
        Ok((status?, rejected))
    }
}

impl TraceProof for Cadical {
    fn start_trace(&mut self, sink: Box<dyn ProofSink>) -> Result<(), SolveError> {
        if !matches!(self.proof, ProofTrace::Off) {
            return Err(fail("this solver already traced a proof".to_string()));
        }
        if self.solver.state() != State::CONFIGURING {
            return Err(fail(
                "a proof can only be traced from the start, before any clause is added".to_string(),
            ));
        }
        if !matches!(self.propagator, Slot::Empty) {
            return Err(fail(
                "a proof cannot be traced with the line propagator, whose reasons are not clauses of the formula"
                    .to_string(),
            ));
        }
        let trace = Rc::new(RefCell::new(sink));
        self.solver
            .connect_proof_tracer1(Tracer(Rc::clone(&trace)), true, false);
        self.proof = ProofTrace::Traced(trace);
        Ok(())
    }

    fn keep(&mut self, vars: &[Var]) -> Result<(), SolveError> {
        for var in vars {
            let lit = i32::try_from(var.idx() + 1).map_err(|_| {
                fail(format!(
                    "variable {} is out of CaDiCaL's range",
                    var.idx() + 1
                ))
            })?;
            self.solver.freeze(lit);
        }
        Ok(())
    }

    fn stop_trace(&mut self) -> Result<(), SolveError> {
        let ProofTrace::Traced(trace) = std::mem::replace(&mut self.proof, ProofTrace::Closed)
        else {
            return Err(fail("no proof is being traced".to_string()));
        };
        // Disconnecting drops the solver's handle on the trace; the sink
        // is dropped here, so whoever gave it holds the trace alone.
        self.solver.disconnect_proof_tracer1();
        Rc::try_unwrap(trace)
            .map(drop)
            .map_err(|_| fail("the proof trace is still shared".to_string()))
    }
}

/// CaDiCaL's proof tracer, feeding a [`ProofSink`].
struct Tracer(Rc<RefCell<Box<dyn ProofSink>>>);

impl ProofTracer for Tracer {
    fn add_original_clause(&mut self, id: i64, _redundant: bool, clause: &[i32], restored: bool) {
        self.0.borrow_mut().original(id, clause, restored);
    }

    fn add_derived_clause(
        &mut self,
        id: i64,
        _redundant: bool,
        witness: i32,
        clause: &[i32],
        antecedents: &[i64],
    ) {
        self.0
            .borrow_mut()
            .derived(id, witness, clause, antecedents);
    }

    fn delete_clause(&mut self, id: i64, _redundant: bool, _clause: &[i32]) {
        self.0.borrow_mut().deleted(id);
    }

    fn weaken_minus(&mut self, _id: i64, _clause: &[i32]) {}

    fn strengthen(&mut self, _id: i64) {}

    fn finalize_clause(&mut self, _id: i64, _clause: &[i32]) {}

    fn add_assumption(&mut self, _lit: i32) {}

    fn add_constraint(&mut self, _clause: &[i32]) {
        self.0
            .borrow_mut()
            .refuse("a constraint clause (CaDiCaL's `constrain`)".to_string());
    }

    fn reset_assumptions(&mut self) {}

    fn add_assumption_clause(&mut self, id: i64, _clause: &[i32], _antecedents: &[i64]) {
        self.0.borrow_mut().refuse(format!(
            "assumption clause {id}: proofs under assumptions are not traced"
        ));
    }

    fn conclude_sat(&mut self, _conclusion_type: i32, _model: &[i32]) {}

    fn conclude_unsat(&mut self, _conclusion_type: i32, _clause_ids: &[i64]) {}

    fn conclude_unknown(&mut self, _trail: &[i32]) {}
}

impl TimeLimit for Cadical {
    fn set_time_limit(&mut self, limit: Option<Duration>) {
        self.time_limit = limit;
    }
}

impl ConflictLimit for Cadical {
    fn set_conflict_limit(&mut self, limit: Option<u32>) {
        self.conflict_limit = limit;
    }
}

impl Interrupt for Cadical {
    fn interrupter(&mut self) -> Interrupter {
        // Connected lazily at the next solve so calls without a limit or an
        // interrupter pay nothing for the callback.
        self.wants_terminator = true;
        self.interrupter.clone()
    }

    fn use_interrupter(&mut self, interrupter: Interrupter) {
        self.wants_terminator = true;
        self.interrupter = interrupter;
    }
}
