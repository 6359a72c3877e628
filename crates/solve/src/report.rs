//! The JSON schema of every result, as typed structs: what `boardsat …
//! --json` prints and what the Python package returns as dicts. Every field
//! that states a result is derived from the result's status (an answer the
//! solver did not give is `null`, never a guess).

use boardsat_encode::{Encoding, Placement};
use serde::Serialize;

pub use crate::proof::ProofSummary;
use crate::{
    bench::{Cell, CellResult, CellStatus, Meta, Spread},
    task::{Counted, CubeReport, Solved},
    Count, End, Optimum, Status, StopReason,
};

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
            unverified: false,
            encoding: EncodingReport::from(&solved.encoding),
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
    /// Placements found (weighted by orbit size under symmetry breaking):
    /// the answer when `complete`, a lower bound otherwise.
    pub count: u64,
    /// Whether the solver proved there are no more.
    pub complete: bool,
    /// Whether the `--limit` stopped the count.
    pub limit_reached: bool,
    /// Why the work stopped early, if it did.
    pub stopped: Option<&'static str>,
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
    /// Cube counts: cubes in all.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cubes: Option<usize>,
    /// Cube counts: cubes counted to the end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cubes_done: Option<usize>,
    /// Cube counts: rows fixed per cube.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<usize>,
    /// Cube counts: worker threads.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threads: Option<usize>,
    /// Cube counts: lex-leader symmetry breaking.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symmetry: Option<bool>,
    /// Cube counts: mirror halving.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub halve: Option<bool>,
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
            report.add_cubes(cubes, counted.count.models);
        }
        report.fundamental = counted.fundamental;
        report
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
        let c = count;
        CountReport {
            command: "count",
            count: c.count,
            complete: c.end == End::Exhausted,
            limit_reached: c.end == End::Limit,
            stopped: stopped(c.end == End::Stopped, stop),
            optimum: optimum.filter(|o| o.proven).map(|o| o.value),
            backend,
            elapsed: c.elapsed.as_secs_f64(),
            fundamental: None,
            models: None,
            cubes: None,
            cubes_done: None,
            depth: None,
            threads: None,
            symmetry: None,
            halve: None,
            placements: None,
            proof: None,
            unverified: false,
            encoding: EncodingReport::from(encoding),
        }
    }

    fn add_cubes(&mut self, cubes: &CubeReport, models: u64) {
        use crate::cubes::Reduction;
        let symmetric = cubes.options.reduction == Reduction::Symmetry;
        self.fundamental = symmetric.then_some(models);
        self.models = Some(models);
        self.cubes = Some(cubes.total);
        self.cubes_done = Some(cubes.done);
        self.depth = Some(cubes.options.depth);
        self.threads = Some(cubes.options.threads);
        self.symmetry = Some(symmetric);
        self.halve = Some(cubes.options.reduction == Reduction::Halve);
    }
}

/// `dimacs`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DimacsReport {
    /// `dimacs`.
    pub command: &'static str,
    /// The file written.
    pub output: Option<String>,
    /// The bound.
    pub k: usize,
    /// The problem and encoding.
    #[serde(flatten)]
    pub encoding: EncodingReport,
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
                "c {} vars, {} clauses, {:.3} s",
                self.vars, self.clauses, self.elapsed
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

/// `cubes`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CubesReport {
    /// `cubes`.
    pub command: &'static str,
    /// The split's directory.
    pub dir: String,
    /// Cubes written.
    pub cubes: usize,
    /// `cnf` (one DIMACS file per cube) or `icnf`.
    pub format: &'static str,
}

/// `verify`: one claim.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VerdictReport {
    /// The claim (or the formula file).
    pub name: String,
    /// Whether it verified.
    pub verified: bool,
    /// What was checked, or why it failed.
    pub reason: String,
}

/// `verify`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VerifyReport {
    /// `verify`.
    pub command: &'static str,
    /// Whether every claim verified.
    pub verified: bool,
    /// One verdict per claim.
    pub claims: Vec<VerdictReport>,
}

impl VerifyReport {
    /// The report of `verdicts`.
    #[must_use]
    pub fn new(verdicts: &[crate::proof::Verdict]) -> Self {
        VerifyReport {
            command: "verify",
            verified: verdicts.iter().all(|v| v.result.is_ok()),
            claims: verdicts
                .iter()
                .map(|v| VerdictReport {
                    name: v.name.clone(),
                    verified: v.result.is_ok(),
                    reason: match &v.result {
                        Ok(what) | Err(what) => what.clone(),
                    },
                })
                .collect(),
        }
    }

    /// One line per claim: `NAME: verified (…)` or `NAME: NOT verified: …`.
    #[must_use]
    pub fn lines(&self) -> Vec<String> {
        self.claims
            .iter()
            .map(|c| match c.verified {
                true => format!("{}: verified ({})", c.name, c.reason),
                false => format!("{}: NOT verified: {}", c.name, c.reason),
            })
            .collect()
    }
}

/// `merge`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MergeReport {
    /// `merge`.
    pub command: &'static str,
    /// The weighted total.
    pub count: u128,
    /// Cubes answered.
    pub cubes: usize,
}

/// One bench cell.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CellReport {
    /// The problem kind.
    pub problem: &'static str,
    /// The piece.
    pub piece: &'static str,
    /// The task.
    pub task: &'static str,
    /// Board size.
    pub n: usize,
    /// k, if fixed.
    pub k: Option<usize>,
    /// Formulation, where it matters.
    pub formulation: Option<&'static str>,
    /// AMO encoding, where it matters.
    pub amo: Option<&'static str>,
    /// Cardinality encoding, where it matters.
    pub card: Option<&'static str>,
    /// Backend.
    pub solver: &'static str,
    /// Variables.
    pub vars: Option<u32>,
    /// Auxiliary variables.
    pub aux_vars: Option<u32>,
    /// Clauses.
    pub clauses: Option<usize>,
    /// Literals.
    pub lits: Option<usize>,
    /// Encoding time in seconds.
    pub encode_s: Option<SpreadReport>,
    /// Solving time in seconds.
    pub solve_s: Option<SpreadReport>,
    /// Runs that answered.
    pub runs: usize,
    /// `ok`, `timeout`, `interrupted`, `error`.
    pub status: String,
    /// The error, if any.
    pub error: Option<String>,
    /// first: whether a placement exists.
    pub satisfiable: Option<bool>,
    /// count: the exact count.
    pub count: Option<u64>,
    /// optimum: the proven optimum.
    pub optimum: Option<usize>,
}

/// Median, min and max seconds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SpreadReport {
    /// Median.
    pub median: f64,
    /// Least.
    pub min: f64,
    /// Greatest.
    pub max: f64,
}

impl From<Spread> for SpreadReport {
    fn from(s: Spread) -> Self {
        SpreadReport {
            median: s.median,
            min: s.min,
            max: s.max,
        }
    }
}

impl CellReport {
    /// The report of `cell`'s `result`.
    #[must_use]
    pub fn new(cell: &Cell, r: &CellResult) -> Self {
        use crate::bench::Answer;
        CellReport {
            problem: cell.problem.kind.name(),
            piece: cell.problem.piece.name(),
            task: cell.task.name(),
            n: cell.n(),
            k: cell.k,
            formulation: cell.formulation.map(|f| f.name()),
            amo: cell.amo.map(|a| a.name()),
            card: cell.card.map(|c| c.name()),
            solver: cell.solver.name(),
            vars: r.stats.map(|s| s.n_vars),
            aux_vars: r.stats.map(|s| s.n_aux_vars),
            clauses: r.stats.map(|s| s.n_clauses),
            lits: r.stats.map(|s| s.n_lits),
            encode_s: r.encode.map(SpreadReport::from),
            solve_s: r.solve.map(SpreadReport::from),
            runs: r.runs,
            status: r.status.word().to_string(),
            error: match &r.status {
                CellStatus::Error(e) => Some(e.clone()),
                _ => None,
            },
            satisfiable: match r.answer {
                Some(Answer::Sat) => Some(true),
                Some(Answer::Unsat) => Some(false),
                _ => None,
            },
            count: match r.answer {
                Some(Answer::Count(c)) => Some(c),
                _ => None,
            },
            optimum: match r.answer {
                Some(Answer::Optimum(v)) => Some(v),
                _ => None,
            },
        }
    }
}

impl CellReport {
    /// The columns of `bench --format csv`: the cell, its sizes and times
    /// in seconds, its result, and the machine in every row.
    pub const CSV_COLUMNS: [&'static str; 27] = [
        "problem",
        "task",
        "n",
        "k",
        "formulation",
        "amo",
        "card",
        "solver",
        "vars",
        "aux_vars",
        "clauses",
        "lits",
        "encode_median_s",
        "encode_min_s",
        "encode_max_s",
        "solve_median_s",
        "solve_min_s",
        "solve_max_s",
        "runs",
        "status",
        "result",
        "commit",
        "rustc",
        "cpu",
        "cores",
        "memory",
        "date",
    ];

    /// One CSV row, in the order of [`CellReport::CSV_COLUMNS`].
    #[must_use]
    pub fn csv_record(meta: &Meta, cell: &Cell, r: &CellResult) -> Vec<String> {
        use crate::bench::Answer;
        let opt = |v: Option<String>| v.unwrap_or_default();
        let secs = |s: Option<Spread>, f: fn(Spread) -> f64| opt(s.map(|s| format!("{:.6}", f(s))));
        vec![
            cell.problem_name(),
            cell.task.to_string(),
            cell.n().to_string(),
            opt(cell.k.map(|k| k.to_string())),
            opt(cell.formulation.map(|f| f.name().to_string())),
            opt(cell.amo.map(|a| a.name().to_string())),
            opt(cell.card.map(|c| c.name().to_string())),
            cell.solver.to_string(),
            opt(r.stats.map(|s| s.n_vars.to_string())),
            opt(r.stats.map(|s| s.n_aux_vars.to_string())),
            opt(r.stats.map(|s| s.n_clauses.to_string())),
            opt(r.stats.map(|s| s.n_lits.to_string())),
            secs(r.encode, |s| s.median),
            secs(r.encode, |s| s.min),
            secs(r.encode, |s| s.max),
            secs(r.solve, |s| s.median),
            secs(r.solve, |s| s.min),
            secs(r.solve, |s| s.max),
            r.runs.to_string(),
            r.status.word().to_string(),
            match (&r.status, r.answer) {
                (CellStatus::Error(e), _) => e.clone(),
                (_, Some(Answer::Count(c))) => c.to_string(),
                (_, Some(Answer::Optimum(v))) => v.to_string(),
                (_, Some(a)) => a.to_string(),
                (_, None) => String::new(),
            },
            meta.commit.to_string(),
            meta.rustc.to_string(),
            meta.cpu.clone(),
            meta.cores.to_string(),
            meta.memory.clone(),
            meta.date.clone(),
        ]
    }
}

/// `bench --format json`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BenchReport {
    /// Provenance.
    pub meta: Meta,
    /// One row per cell.
    pub cells: Vec<CellReport>,
}

impl BenchReport {
    /// The report of the cells run (those before an interrupt: `results`
    /// may be shorter than `cells`).
    #[must_use]
    pub fn new(meta: &Meta, cells: &[Cell], results: &[CellResult]) -> Self {
        BenchReport {
            meta: meta.clone(),
            cells: cells
                .iter()
                .zip(results)
                .map(|(c, r)| CellReport::new(c, r))
                .collect(),
        }
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
    pub fn new(reason: crate::StopReason) -> Self {
        StoppedReport {
            status: "unknown",
            complete: false,
            stopped: reason.word(),
        }
    }
}

/// A bench matrix as a markdown table, with the machine above it.
#[must_use]
pub fn markdown(meta: &Meta, cells: &[Cell], results: &[CellResult]) -> String {
    use std::fmt::Write as _;
    let dash = |name: Option<&'static str>| name.unwrap_or("-");
    let mut s = String::new();
    let _ = write!(
        s,
        "`{}`\n\n- boardsat {}, commit {}, {}\n- {}, {} cores, {} memory; {}\n- times: median (min–max) of {} runs; cell time limit {} s\n\n",
        meta.command,
        meta.boardsat,
        meta.commit,
        meta.rustc,
        meta.cpu,
        meta.cores,
        meta.memory,
        meta.date,
        meta.runs,
        meta.cell_time_limit
    );
    s.push_str("| problem | task | n | formulation | amo | card | solver | vars | aux | clauses | lits | encode | solve | result |\n");
    s.push_str("|---|---|---:|---|---|---|---|---:|---:|---:|---:|---:|---:|---|\n");
    for (cell, r) in cells.iter().zip(results) {
        let stat =
            |f: fn(&boardsat_encode::Stats) -> String| r.stats.as_ref().map_or("-".to_string(), f);
        let solve = match (&r.status, r.solve) {
            (CellStatus::Timeout | CellStatus::Interrupted, _) => r.status.word().to_string(),
            (_, Some(t)) => t.to_string(),
            _ => "-".to_string(),
        };
        let result = match (&r.status, r.answer) {
            (CellStatus::Ok, Some(a)) => a.to_string(),
            (CellStatus::Timeout, _) => format!("timeout (> {} s)", meta.cell_time_limit),
            (CellStatus::Interrupted, _) => "interrupted".to_string(),
            (CellStatus::Error(e), _) => format!("error: {e}"),
            (CellStatus::Ok, None) => "-".to_string(),
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            cell.problem_name(),
            cell.task,
            cell.n(),
            dash(cell.formulation.map(|f| f.name())),
            dash(cell.amo.map(|a| a.name())),
            dash(cell.card.map(|c| c.name())),
            cell.solver,
            stat(|s| s.n_vars.to_string()),
            stat(|s| s.n_aux_vars.to_string()),
            stat(|s| s.n_clauses.to_string()),
            stat(|s| s.n_lits.to_string()),
            r.encode.map_or("-".to_string(), |e| e.to_string()),
            solve,
            result.replace('|', "/"),
        );
    }
    s
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
    instance: &crate::task::Instance,
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
            Kind::Independence => format!("{} non-attacking {}s", k.unwrap_or(0), problem.piece),
            _ => format!("{} {}s", k.unwrap_or(0), problem.piece),
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
    let verb = match problem.kind {
        Kind::Independence => "independent",
        Kind::Domination => "dominating",
        Kind::IndependentDomination => "independent dominating",
    };
    text.push_str(&format!(
        "{} {verb} {}s on the {board} board\n",
        placement.len(),
        problem.piece
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
