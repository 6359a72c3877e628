//! The bench matrix as reports: one typed row per cell for JSON and
//! charts, CSV rows, and a markdown table with the machine above it.

use boardsat_encode::words::plural;
use serde::Serialize;

use crate::{
    plan::Cell,
    run::{CellResult, CellStatus, Meta, Spread},
};

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
        use crate::run::CellAnswer;
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
                Some(CellAnswer::Sat) => Some(true),
                Some(CellAnswer::Unsat) => Some(false),
                _ => None,
            },
            count: match r.answer {
                Some(CellAnswer::Count(c)) => Some(c),
                _ => None,
            },
            optimum: match r.answer {
                Some(CellAnswer::Optimum(v)) => Some(v),
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
        use crate::run::CellAnswer;
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
                (_, Some(CellAnswer::Count(c))) => c.to_string(),
                (_, Some(CellAnswer::Optimum(v))) => v.to_string(),
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

/// A bench matrix as a markdown table, with the machine above it.
#[must_use]
pub fn markdown(meta: &Meta, cells: &[Cell], results: &[CellResult]) -> String {
    use std::fmt::Write as _;
    let dash = |name: Option<&'static str>| name.unwrap_or("-");
    let mut s = String::new();
    let _ = write!(
        s,
        "`{}`\n\n- boardsat {}, commit {}, {}\n- {}, {}, {} memory; {}\n- times: median (min–max) of {}; cell time limit {} s\n\n",
        meta.command,
        meta.boardsat,
        meta.commit,
        meta.rustc,
        meta.cpu,
        plural(meta.cores, "core", "cores"),
        meta.memory,
        meta.date,
        plural(meta.runs, "run", "runs"),
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

/// The matrix as CSV: [`CellReport::CSV_COLUMNS`], then one row per cell
/// run.
///
/// # Errors
///
/// The CSV writer's errors (none in memory but a bug).
pub fn csv(meta: &Meta, cells: &[Cell], results: &[CellResult]) -> Result<String, csv::Error> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(CellReport::CSV_COLUMNS)?;
    for (cell, r) in cells.iter().zip(results) {
        w.write_record(CellReport::csv_record(meta, cell, r))?;
    }
    let bytes = w
        .into_inner()
        .map_err(|e| csv::Error::from(e.into_error()))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}
