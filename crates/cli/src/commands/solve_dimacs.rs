//! `boardsat solve-dimacs`: any DIMACS CNF file, SAT-competition output.

use std::{fs::File, io, path::Path, time::Instant};

use anyhow::{bail, Context, Result};
use boardsat_proof::{
    prover::{DimacsSource, Task},
    tasks::{prove_unsatisfiable, record_models},
    witness::Witnesses,
};
use boardsat_report::SolveDimacsReport;
use boardsat_solve::{
    backend::{
        read_model,
        spec::{SolverKind, SolverSpec},
        Mode, Status,
    },
    error::SolveError,
    formula::{
        dimacs::{self, Format, Formula},
        falsified,
    },
    stop::{unblocked, Interrupter, StopReason},
};

use crate::{
    flags::SolveDimacsArgs,
    hiargs,
    outcome::Outcome,
    output::{Proven, Stdout},
};

/// Reads a formula and its digest from `path` ("-" for stdin), polling
/// `stop`, also while the read waits (a FIFO no one writes, a silent
/// pipe: [`unblocked`]); errors name the file and the line.
pub fn read(path: &Path, expect: Option<Format>, stop: &Interrupter) -> Result<(Formula, String)> {
    let name = path.display().to_string();
    let (path, reading) = (path.to_path_buf(), stop.clone());
    let read = unblocked(stop, move || {
        if path.as_os_str() == "-" {
            return dimacs::read_with_digest(io::stdin().lock(), expect, Some(&reading))
                .map_err(anyhow::Error::from);
        }
        let name = path.display().to_string();
        let file = File::open(&path).with_context(|| format!("cannot open {name}"))?;
        dimacs::read_with_digest(file, expect, Some(&reading)).map_err(anyhow::Error::from)
    });
    let formula = read.unwrap_or_else(|reason| Err(dimacs::ReadError::Stopped(reason).into()));
    formula.with_context(|| name)
}

/// Runs `solve-dimacs`.
pub fn run(args: &SolveDimacsArgs) -> Result<Outcome> {
    let solver = hiargs::solver(&args.formula.solver)?;
    let stop = hiargs::stop(&args.formula.solver);
    let name = args.formula.file.display().to_string();
    if args.formula.proof.proof.is_some() && args.formula.file.as_os_str() == "-" {
        bail!("--proof needs a file, not stdin: 'boardsat verify' re-reads the source");
    }
    let task = Task::solve_dimacs(&args.formula.file);
    let mut prover = hiargs::prover(&args.formula.proof, &stop, &task)?;
    let (formula, digest) = read(&args.formula.file, Some(Format::Cnf), &stop)?;
    let Decided {
        status,
        model,
        elapsed,
        signature,
    } = decide(&solver, &stop, &formula, &name)?;
    let reason = stop.reason();
    let source = DimacsSource {
        path: &args.formula.file,
        digest: &digest,
        icnf_cube: None,
    };
    let proven = Proven::make(prover.take(), &stop, |p| match status {
        Status::Unsat => prove_unsatisfiable(p, &formula, &source),
        // The model is its own certificate: recorded for verify.
        Status::Sat => {
            let mut found = Witnesses::new().map_err(|e| {
                boardsat_solve::files::FileError::io(std::path::Path::new("a temporary file"), e)
            })?;
            found.push(&model);
            record_models(p, &source, &mut found)
        }
        Status::Unknown => Ok(None),
    });
    let summary = proven.summary.clone();
    let unverified =
        status == Status::Unsat && solver.kind == SolverKind::External && summary.is_none();
    let report = SolveDimacsReport {
        command: "solve-dimacs",
        file: name,
        status: status.to_string(),
        vars: formula.n_vars,
        clauses: formula.clauses.len(),
        model: (status == Status::Sat).then(|| dimacs::model_literals(&model, formula.n_vars)),
        backend: signature,
        elapsed: elapsed.as_secs_f64(),
        stopped: (status == Status::Unknown).then(|| StopReason::words(reason)),
        proof: summary,
        unverified,
    };
    let mut out = Stdout::new();
    if args.formula.json {
        out.json(&report)?;
    } else if !print_text(&mut out, &report, (status, &model), formula.n_vars, &stop)? {
        return Ok(Outcome::Stopped(stop.reason()));
    }
    out.flush()?;
    if let Some(outcome) = proven.finish()? {
        return Ok(outcome);
    }
    Ok(match status {
        Status::Sat => Outcome::Sat,
        Status::Unsat => Outcome::Unsat,
        Status::Unknown => Outcome::Stopped(reason),
    })
}

/// The formula decided: its status, its model when satisfiable (checked),
/// the solver's time and its signature.
struct Decided {
    status: Status,
    model: Vec<bool>,
    elapsed: std::time::Duration,
    signature: String,
}

/// Decides `formula` (the file `name`) with a fresh `solver`; every model
/// is checked against every clause.
fn decide(
    solver: &SolverSpec,
    stop: &Interrupter,
    formula: &Formula,
    name: &str,
) -> Result<Decided> {
    let start = Instant::now();
    let mut backend = solver.create(Mode::Decide, stop)?;
    backend.reserve_vars(formula.max_var);
    for clause in &formula.clauses {
        backend.add_clause(clause)?;
    }
    let status = backend.solve(&[])?;
    let elapsed = start.elapsed();
    let signature = backend.signature();
    let mut model = Vec::new();
    if status == Status::Sat {
        model = read_model(backend.as_mut(), formula.max_var)?;
        // Every answer is checked: the model must satisfy every clause.
        if let Some(i) = falsified(&formula.clauses, &model) {
            return Err(SolveError::WrongModel {
                backend: signature,
                clause: i + 1,
            })
            .with_context(|| name.to_string());
        }
    }
    Ok(Decided {
        status,
        model,
        elapsed,
        signature,
    })
}

/// The SAT-competition text: the report's comment lines, the `s` line
/// and a model's `v` lines; false when `stop` came while printing them.
fn print_text(
    out: &mut Stdout,
    report: &SolveDimacsReport,
    answer: (Status, &[bool]),
    n_vars: u32,
    stop: &Interrupter,
) -> Result<bool> {
    let (status, model) = answer;
    for line in report.comment_lines() {
        out.line(line)?;
    }
    out.line(format!("s {}", status.competition()))?;
    // Variables no clause names are free; they are printed false.
    let lines = dimacs::model_lines(model, n_vars);
    for (i, line) in lines.enumerate().filter(|_| status == Status::Sat) {
        if i % 4096 == 0 && stop.is_interrupted() {
            return Ok(false);
        }
        out.line(line)?;
    }
    Ok(true)
}
