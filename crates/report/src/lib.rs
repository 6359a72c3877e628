//! # boardsat-report
//!
//! The JSON schema of every result, as typed structs: what `boardsat …
//! --json` prints and what the Python package returns as dicts, and the
//! text the command line prints for them. Every field that states a result
//! is derived from the result's status (an answer the solver did not give
//! is `null`, never a guess). The command line, the Python package and
//! `boardsat-proof` (whose proofs the reports' `proof` field summarises)
//! report with these, so they report the same fields; the results are
//! `boardsat-solve`'s (`task`).
//!
//! | type | role |
//! |---|---|
//! | [`SolveReport`], [`CountReport`], [`SolveDimacsReport`] | `solve`, `count` and `enumerate`, `solve-dimacs` |
//! | [`DimacsReport`], [`CheckSolutionReport`] | a formula exported (`dimacs`); an outside solver's answer checked |
//! | [`EncodingReport`], [`LinearReport`], [`CallReport`], [`SplitReport`], [`Ending`] | the parts the reports share: sizes, the optimiser's calls, the cubes of a split, how a count ended |
//! | [`ProofSummary`], [`StoppedReport`] | the `proof` field; a job stopped before it had a result |
//! | [`solve_text`], [`check_solution_text`], [`squares`] | the text results; a placement as `[row, col]` pairs |
//!
//! ## Layers
//!
//! One module (checked by `tests/tests/layers.rs`):
//!
//! 1. `this one` — the reports and their text
//!
//! ```
//! use boardsat_report::StoppedReport;
//! use boardsat_solve::stop::StopReason;
//!
//! let report = StoppedReport::new(StopReason::TimeLimit);
//! assert_eq!((report.status, report.stopped), ("unknown", "time limit"));
//! ```

// User input must not reach a panic: no unwrap or expect outside tests.
#![cfg_attr(not(test), warn(clippy::unwrap_used, clippy::expect_used))]

use boardsat_encode::{
    export::{
        solution::{CheckedSolution, SolutionVerdict},
        Provenance,
    },
    linear::{Goal, Sense},
    words::plural,
    Encoding, Placement,
};
use boardsat_solve::{
    backend::Status,
    search::{
        count::{Count, End, Reduction},
        optimise::Optimum,
    },
    stop::StopReason,
    task::{
        count::{Counted, CubeReport},
        export::Exported,
        solve::Solved,
        Instance,
    },
};
use serde::Serialize;

/// Where a proof directory is and what it holds (written by
/// `boardsat-proof`): the `proof` field of the reports.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProofSummary {
    /// The directory.
    pub dir: String,
    /// Claims proven.
    pub claims: usize,
    /// Bytes of proof files.
    pub bytes: u64,
}

/// A placement as `[row, col]` pairs.
pub type Squares = Vec<[usize; 2]>;

/// A placement as `[row, col]` pairs.
#[must_use]
pub fn squares(placement: &Placement) -> Squares {
    placement.squares().iter().map(|s| [s.row, s.col]).collect()
}

/// The problem and the encoding's sizes and choices.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EncodingReport {
    /// `independence`, `domination`, `independent-domination`.
    pub problem: &'static str,
    /// Board rows.
    pub rows: usize,
    /// Board columns.
    pub cols: usize,
    /// The piece.
    pub piece: &'static str,
    /// The AMO encoding.
    pub amo: &'static str,
    /// The cardinality encoding.
    pub card: &'static str,
    /// The effective formulation.
    pub formulation: &'static str,
    /// Variables.
    pub vars: u32,
    /// Auxiliary variables.
    pub aux_vars: u32,
    /// Clauses.
    pub clauses: usize,
    /// Literal occurrences.
    pub lits: usize,
}

impl From<&Encoding> for EncodingReport {
    fn from(encoding: &Encoding) -> Self {
        let s = encoding.stats;
        EncodingReport {
            problem: encoding.problem.kind.name(),
            rows: encoding.problem.board.rows(),
            cols: encoding.problem.board.cols(),
            piece: encoding.problem.piece.name(),
            amo: encoding.config.amo.name(),
            card: encoding.config.card.name(),
            formulation: encoding.config.formulation.name(),
            vars: s.n_vars,
            aux_vars: s.n_aux_vars,
            clauses: s.n_clauses,
            lits: s.n_lits,
        }
    }
}

/// One call of the optimiser.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CallReport {
    /// The bound, e.g. `at most 4`.
    pub bound: String,
    /// `sat`, `unsat` or `unknown`.
    pub status: String,
    /// Wall time.
    pub seconds: f64,
}

fn calls(optimum: &Optimum) -> Vec<CallReport> {
    optimum
        .calls
        .iter()
        .map(|c| CallReport {
            bound: c.bound.to_string(),
            status: c.status.to_string(),
            seconds: c.elapsed.as_secs_f64(),
        })
        .collect()
}

/// `solve`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SolveReport {
    /// `solve`.
    pub command: &'static str,
    /// `sat` (a placement; for an optimum, proven), `unsat` (no placement
    /// with k pieces exists, proven), `unknown` (nothing proven).
    pub status: String,
    /// The number of pieces of the placement, if any.
    pub value: Option<usize>,
    /// Without k: whether the value is proven optimal.
    pub optimal: Option<bool>,
    /// The checked placement, if any.
    pub placement: Option<Squares>,
    /// The solver.
    pub backend: String,
    /// Wall time in seconds.
    pub elapsed: f64,
    /// Without k: the optimiser's calls.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub calls: Option<Vec<CallReport>>,
    /// Why the work stopped early, if it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<&'static str>,
    /// With `--proof`: where the proofs of the UNSAT answers are.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proof: Option<ProofSummary>,
    /// Whether an UNSAT answer the result depends on came from an external
    /// solver and carries no proof.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub unverified: bool,
    /// The problem and encoding.
    #[serde(flatten)]
    pub encoding: EncodingReport,
}

impl SolveReport {
    /// The report of `solved` by `backend`, stopped by `stop` if at all.
    #[must_use]
    pub fn new(solved: &Solved, backend: String, stop: Option<StopReason>) -> Self {
        SolveReport {
            command: "solve",
            status: solved.status.to_string(),
            value: solved.placement.as_ref().map(Placement::len),
            optimal: solved.optimum.as_ref().map(|o| o.proven),
            placement: solved.placement.as_ref().map(squares),
            backend,
            elapsed: solved.elapsed.as_secs_f64(),
            calls: solved.optimum.as_ref().map(calls),
            stopped: stopped(solved.status != Status::Sat, stop),
            proof: None,
            unverified: solved.unverified,
            encoding: EncodingReport::from(&solved.encoding),
        }
    }

    /// The report with its proofs (`proof`): an answer they back is
    /// verified.
    #[must_use]
    pub fn with_proof(self, proof: Option<ProofSummary>) -> Self {
        SolveReport {
            unverified: self.unverified && proof.is_none(),
            proof,
            ..self
        }
    }
}

/// The stop reason's word, when the result is incomplete.
fn stopped(incomplete: bool, stop: Option<StopReason>) -> Option<&'static str> {
    stop.filter(|_| incomplete).map(StopReason::word)
}

/// `count` and `enumerate`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CountReport {
    /// `count` or `enumerate`.
    pub command: &'static str,
    /// `complete` (the count is exact), `limit` (the `--limit` stopped
    /// it: a lower bound, as asked) or `unknown` (stopped: a lower bound;
    /// nothing is proven about the rest), from the `ending`.
    pub status: &'static str,
    /// Placements found (weighted by orbit size under symmetry breaking):
    /// the answer when `complete`, a lower bound otherwise.
    pub count: u64,
    /// How the count ended: the JSON's `complete` (the solver proved there
    /// are no more), `limit_reached` (the `--limit` stopped it) and
    /// `stopped` (why the work stopped early, if it did).
    #[serde(flatten)]
    pub ending: Ending,
    /// Without k: the optimum whose placements were counted (`null` when it
    /// was not proven).
    pub optimum: Option<usize>,
    /// The solver.
    pub backend: String,
    /// Wall time in seconds.
    pub elapsed: f64,
    /// Placements up to symmetry (orbits), when symmetry breaking counted
    /// one placement per orbit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fundamental: Option<u64>,
    /// Solver models.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub models: Option<u64>,
    /// Split counts: the JSON's `cubes`, `cubes_done`, `depth`, `threads`,
    /// `symmetry` and `halve`.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub split: Option<SplitReport>,
    /// `enumerate`: the placements listed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placements: Option<Vec<Squares>>,
    /// With `--proof`: where the proofs of the UNSAT answers are.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proof: Option<ProofSummary>,
    /// Whether an UNSAT answer the result depends on came from an external
    /// solver and carries no proof.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub unverified: bool,
    /// The problem and encoding.
    #[serde(flatten)]
    pub encoding: EncodingReport,
}

/// How a count or a listing ended, with why it stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The solver proved there are no more.
    Complete,
    /// The `--limit` was reached.
    LimitReached,
    /// The solver stopped without an answer: for this reason, or `None`
    /// when nothing stopped it from outside (it gave up).
    Stopped(Option<StopReason>),
}

impl Ending {
    /// The `status` word of a count that ended so: `complete`, `limit`
    /// or `unknown`.
    #[must_use]
    pub const fn status(self) -> &'static str {
        match self {
            Ending::Complete => "complete",
            Ending::LimitReached => "limit",
            Ending::Stopped(_) => "unknown",
        }
    }

    /// The ending of a count that ended with `end`, stopped by `stop` if
    /// at all.
    #[must_use]
    pub fn of(end: End, stop: Option<StopReason>) -> Self {
        match end {
            End::Exhausted => Ending::Complete,
            End::Limit => Ending::LimitReached,
            End::Stopped => Ending::Stopped(stop),
        }
    }
}

impl Serialize for Ending {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Fields {
            complete: bool,
            limit_reached: bool,
            stopped: Option<&'static str>,
        }
        Fields {
            complete: *self == Ending::Complete,
            limit_reached: *self == Ending::LimitReached,
            stopped: match self {
                Ending::Stopped(stop) => stop.map(StopReason::word),
                _ => None,
            },
        }
        .serialize(serializer)
    }
}

/// The cubes of a split count, for its report.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SplitReport {
    /// Cubes in all.
    pub cubes: usize,
    /// Cubes counted to the end.
    pub cubes_done: usize,
    /// Rows (or outer rings) fixed per cube.
    pub depth: usize,
    /// Worker threads.
    pub threads: usize,
    /// Domination: the budget (seconds) after which a cube still running
    /// at the tail is split again, if any (`cubes` then counts the pieces).
    pub cube_budget: Option<f64>,
    /// The reduction: the JSON's `symmetry` (lex-leader symmetry breaking)
    /// and `halve` (mirror halving).
    #[serde(flatten)]
    pub reduction: ReductionReport,
}

/// A [`Reduction`] as the JSON's two booleans, `symmetry` and `halve`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReductionReport(pub Reduction);

impl Serialize for ReductionReport {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Fields {
            symmetry: bool,
            halve: bool,
        }
        Fields {
            symmetry: self.0 == Reduction::Symmetry,
            halve: self.0 == Reduction::Halve,
        }
        .serialize(serializer)
    }
}

impl From<&CubeReport> for SplitReport {
    fn from(cubes: &CubeReport) -> Self {
        SplitReport {
            cubes: cubes.total,
            cubes_done: cubes.done,
            depth: cubes.split.depth,
            threads: cubes.split.threads,
            cube_budget: cubes.split.budget.map(|b| b.as_secs_f64()),
            reduction: ReductionReport(cubes.reduction),
        }
    }
}

impl CountReport {
    /// The report of `counted` by `backend`, stopped by `stop` if at all.
    #[must_use]
    pub fn new(counted: &Counted, backend: String, stop: Option<StopReason>) -> Self {
        let mut report = CountReport::of(
            &counted.count,
            counted.optimum.as_ref(),
            &counted.encoding,
            backend,
            stop,
        );
        report.elapsed = counted.elapsed.as_secs_f64();
        if let Some(cubes) = &counted.cubes {
            report.models = Some(counted.count.models);
            report.split = Some(SplitReport::from(cubes));
        }
        report.fundamental = counted.fundamental;
        report.unverified = counted.unverified;
        report
    }

    /// The report with its proofs (`proof`): an answer they back is
    /// verified.
    #[must_use]
    pub fn with_proof(self, proof: Option<ProofSummary>) -> Self {
        CountReport {
            unverified: self.unverified && proof.is_none(),
            proof,
            ..self
        }
    }

    /// The report of a count (or a listing) of placements of `encoding`,
    /// optimal ones when `optimum` is given.
    #[must_use]
    pub fn of(
        count: &Count,
        optimum: Option<&Optimum>,
        encoding: &Encoding,
        backend: String,
        stop: Option<StopReason>,
    ) -> Self {
        let ending = Ending::of(count.end, stop);
        CountReport {
            command: "count",
            status: ending.status(),
            count: count.count,
            ending,
            optimum: optimum.filter(|o| o.proven).map(|o| o.value),
            backend,
            elapsed: count.elapsed.as_secs_f64(),
            fundamental: None,
            models: None,
            split: None,
            placements: None,
            proof: None,
            unverified: false,
            encoding: EncodingReport::from(encoding),
        }
    }
}

/// `dimacs`: the file written and its sizes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DimacsReport {
    /// `dimacs`.
    pub command: &'static str,
    /// The file written.
    pub output: Option<String>,
    /// `cnf`, `opb`, `wcnf` or `lp`.
    pub format: &'static str,
    /// The bound (`null`: the file states the optimum).
    pub k: Option<usize>,
    /// The problem and the encoding of the clauses (cnf, wcnf).
    #[serde(flatten)]
    pub encoding: Option<EncodingReport>,
    /// The problem and the linear model's sizes (opb, lp).
    #[serde(flatten)]
    pub linear: Option<LinearReport>,
}

/// The problem and the sizes of its linear model (OPB, LP).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LinearReport {
    /// `independence`, `domination`, `independent-domination`.
    pub problem: &'static str,
    /// Board rows.
    pub rows: usize,
    /// Board columns.
    pub cols: usize,
    /// The piece.
    pub piece: &'static str,
    /// Variables (one per square).
    pub vars: u32,
    /// Linear constraints.
    pub constraints: usize,
    /// Terms over all constraints.
    pub terms: usize,
    /// `minimise`, `maximise`, or `null` for a bound.
    pub objective: Option<&'static str>,
}

impl DimacsReport {
    /// The report of `exported`, written to `output` (`None`: stdout) for
    /// `k` pieces.
    #[must_use]
    pub fn new(exported: &Exported, output: Option<String>, k: Option<usize>) -> Self {
        let (encoding, linear) = match exported {
            Exported::Clauses { encoding, .. } => (Some(EncodingReport::from(encoding)), None),
            Exported::Linear { model, .. } => {
                let p = &model.problem;
                let objective = match model.goal {
                    Goal::Optimum(Sense::Minimise) => Some("minimise"),
                    Goal::Optimum(Sense::Maximise) => Some("maximise"),
                    Goal::Bound(_) => None,
                };
                let linear = LinearReport {
                    problem: p.kind.name(),
                    rows: p.board.rows(),
                    cols: p.board.cols(),
                    piece: p.piece.name(),
                    vars: model.n_vars(),
                    constraints: model.constraints.len(),
                    terms: model.n_terms(),
                    objective,
                };
                (None, Some(linear))
            }
        };
        DimacsReport {
            command: "dimacs",
            output,
            format: exported.format().name(),
            k,
            encoding,
            linear,
        }
    }
}

/// `check-solution`: an outside solver's answer to an OPB, WCNF or LP file,
/// decoded and checked.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CheckSolutionReport {
    /// `check-solution`.
    pub command: &'static str,
    /// The model file.
    pub file: String,
    /// The solution file.
    pub solution: String,
    /// The model file's format.
    pub format: &'static str,
    /// `accepted` (the independent checker accepts the placement),
    /// `rejected`, `unsat-claimed` (the solver claims there is none,
    /// unverified), `unknown` (no answer).
    pub status: &'static str,
    /// Why the solution was rejected.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// What the solver claims: `optimum`, `satisfiable`, `unsatisfiable`,
    /// `unknown`.
    pub claim: &'static str,
    /// `unverified` when the solver claims the optimum of a file that asks
    /// for it (nothing here proves it), else `null`.
    pub optimal: Option<&'static str>,
    /// The number of pieces of the placement.
    pub value: Option<usize>,
    /// The solver's objective value, as it printed it.
    pub objective: Option<f64>,
    /// The placement the solver's assignment decodes to.
    pub placement: Option<Squares>,
    /// The problem.
    pub problem: &'static str,
    /// Board rows.
    pub rows: usize,
    /// Board columns.
    pub cols: usize,
    /// The piece.
    pub piece: &'static str,
}

impl CheckSolutionReport {
    /// The report of `checked` against `provenance`.
    #[must_use]
    pub fn new(
        file: String,
        solution: String,
        provenance: &Provenance,
        checked: &CheckedSolution,
    ) -> Self {
        let p = &provenance.problem;
        let (status, reason) = match &checked.verdict {
            SolutionVerdict::Accepted => ("accepted", None),
            SolutionVerdict::Rejected(reason) => ("rejected", Some(reason.clone())),
            SolutionVerdict::ClaimsNone => ("unsat-claimed", None),
            SolutionVerdict::NoAnswer => ("unknown", None),
        };
        CheckSolutionReport {
            command: "check-solution",
            file,
            solution,
            format: provenance.format.name(),
            status,
            reason,
            claim: checked.claim.name(),
            optimal: checked.claims_optimum(provenance).then_some("unverified"),
            value: checked.placement.as_ref().map(Placement::len),
            objective: checked.objective,
            placement: checked.placement.as_ref().map(squares),
            problem: p.kind.name(),
            rows: p.board.rows(),
            cols: p.board.cols(),
            piece: p.piece.name(),
        }
    }
}

/// `solve-dimacs`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SolveDimacsReport {
    /// `solve-dimacs`.
    pub command: &'static str,
    /// The file.
    pub file: String,
    /// `sat`, `unsat`, `unknown`.
    pub status: String,
    /// The variables of the formula.
    pub vars: u32,
    /// Its clauses.
    pub clauses: usize,
    /// The model as DIMACS literals, when SAT.
    pub model: Option<Vec<i64>>,
    /// The solver.
    pub backend: String,
    /// Wall time in seconds.
    pub elapsed: f64,
    /// Why the work stopped early, if it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<&'static str>,
    /// With `--proof`: where the proofs of the UNSAT answers are.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proof: Option<ProofSummary>,
    /// Whether an UNSAT answer the result depends on came from an external
    /// solver and carries no proof.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub unverified: bool,
}

impl SolveDimacsReport {
    /// The `c` lines of the SAT-competition output above the `s` line:
    /// the solver, the sizes and time, and how an answer is backed.
    #[must_use]
    pub fn comment_lines(&self) -> Vec<String> {
        let mut lines = vec![
            format!(
                "c boardsat {} with {}",
                env!("CARGO_PKG_VERSION"),
                self.backend
            ),
            format!(
                "c {}, {}, {:.3} s",
                plural(self.vars, "var", "vars"),
                plural(self.clauses, "clause", "clauses"),
                self.elapsed
            ),
        ];
        if let Some(why) = self.stopped {
            lines.push(format!("c stopped: {why}"));
        }
        if self.unverified {
            lines.push(
                "c unverified: the UNSAT answer of an external solver (--proof proves it again)"
                    .to_string(),
            );
        }
        if let Some(p) = &self.proof {
            lines.push(format!(
                "c proof in {}, verify with boardsat verify {}",
                p.dir, p.dir
            ));
        }
        lines
    }
}

/// What `--json` prints for a job stopped (by the time limit or a signal)
/// before it had a result to report, e.g. while encoding or reading:
/// nothing is proven.
#[derive(Debug, Serialize)]
pub struct StoppedReport {
    /// Always `unknown`.
    pub status: &'static str,
    /// Always false.
    pub complete: bool,
    /// Why it stopped: `time limit` or `interrupted`.
    pub stopped: &'static str,
}

impl StoppedReport {
    /// The report of a job stopped for `reason`.
    #[must_use]
    pub fn new(reason: StopReason) -> Self {
        StoppedReport {
            status: "unknown",
            complete: false,
            stopped: reason.word(),
        }
    }

    /// The sentence the text output prints instead of a result.
    #[must_use]
    pub fn text(&self) -> String {
        format!(
            "no result: stopped ({}) before the solver answered, so nothing is proven\n",
            self.stopped
        )
    }
}

fn why(stop: Option<StopReason>) -> &'static str {
    StopReason::words(stop)
}

/// The text result of `solve`: the board, the placement, and sentences
/// that each follow from the result's status — a claim of impossibility
/// only from an UNSAT answer, "nothing is proven" when the solver stopped.
/// `backed` (`; proof in …` or `; unverified: …`, or empty) says how an
/// UNSAT answer is backed.
#[must_use]
pub fn solve_text(
    instance: &Instance,
    solved: &Solved,
    backend: &str,
    stop: Option<StopReason>,
    backed: &str,
) -> String {
    use boardsat_encode::{draw, Kind, Piece};
    let (problem, k) = (&instance.problem, instance.k);
    let board = problem.board;
    let Some(placement) = &solved.placement else {
        let what = match problem.kind {
            Kind::Independence => pieces(k.unwrap_or(0), "non-attacking", problem.piece),
            Kind::Domination | Kind::IndependentDomination => {
                pieces(k.unwrap_or(0), "", problem.piece)
            }
        };
        return match (solved.status, backed.strip_prefix("; ")) {
            (Status::Unsat, None) => format!("no placement of {what} on the {board} board exists\n"),
            (Status::Unsat, Some(how)) => {
                format!("no placement of {what} on the {board} board exists ({how})\n")
            }
            _ => format!(
                "no placement of {what} on the {board} board was found: the solver stopped ({}) before an answer, so nothing is proven\n",
                why(stop)
            ),
        };
    };
    let mut text = draw::text(&board, problem.piece, placement, problem.kind.dominating());
    let is_queens = problem.kind == Kind::Independence
        && problem.piece == Piece::Queen
        && board.is_square()
        && placement.len() == board.rows();
    if is_queens {
        let cols: Vec<String> = placement
            .squares()
            .iter()
            .map(|s| s.col.to_string())
            .collect();
        text.push_str(&format!("columns: {}\n", cols.join(" ")));
    } else {
        text.push_str(&format!("placement: {placement}\n"));
    }
    text.push_str(&format!(
        "{} on the {board} board\n",
        pieces(placement.len(), adjective(problem.kind), problem.piece)
    ));
    if let Some(o) = &solved.optimum {
        text.push_str(&match o.proof() {
            Some(call) => format!(
                "optimal: {} is unsatisfiable ({backend}, {:.3} s{backed})\n",
                call.bound.k(),
                call.elapsed.as_secs_f64()
            ),
            None if o.proven => "optimal: every square holds a piece\n".to_string(),
            None => format!("not proven optimal: the solver stopped ({})\n", why(stop)),
        });
    }
    text
}

/// `n` pieces with an adjective (or none), agreeing in number:
/// `1 dominating queen`, `8 independent queens`.
fn pieces(n: usize, adjective: &str, piece: boardsat_encode::Piece) -> String {
    let one = format!("{adjective} {piece}");
    let one = one.trim_start();
    plural(n, one, &format!("{one}s"))
}

/// How a placement of `kind` is called: `independent`, `dominating`,
/// `independent dominating`.
fn adjective(kind: boardsat_encode::Kind) -> &'static str {
    use boardsat_encode::Kind;
    match kind {
        Kind::Independence => "independent",
        Kind::Domination => "dominating",
        Kind::IndependentDomination => "independent dominating",
    }
}

/// The text result of `check-solution`: the board and the placement the
/// solver's assignment decodes to, the checker's verdict, and what the
/// solver claims — an optimum or an infeasibility as its claim, unverified.
#[must_use]
pub fn check_solution_text(provenance: &Provenance, checked: &CheckedSolution) -> String {
    use boardsat_encode::draw;
    let p = &provenance.problem;
    let mut text = String::new();
    if let Some(placement) = &checked.placement {
        text.push_str(&draw::text(
            &p.board,
            p.piece,
            placement,
            p.kind.dominating(),
        ));
        text.push_str(&format!("placement: {placement}\n"));
    }
    let claim = format!("the solver claims {}", checked.claim.name());
    text.push_str(&match &checked.verdict {
        SolutionVerdict::Accepted => format!(
            "{} on the {} board: accepted by the independent checker ({claim})\n",
            pieces(
                checked.placement.as_ref().map_or(0, Placement::len),
                adjective(p.kind),
                p.piece
            ),
            p.board
        ),
        SolutionVerdict::Rejected(reason) => format!("rejected: {reason} ({claim})\n"),
        SolutionVerdict::ClaimsNone => {
            format!("{claim}: no placement exists for {p} (the solver's claim, unverified)\n")
        }
        SolutionVerdict::NoAnswer => format!("{claim}: no answer\n"),
    });
    if checked.claims_optimum(provenance) {
        text.push_str("optimal: the solver's claim, unverified\n");
    }
    text
}
