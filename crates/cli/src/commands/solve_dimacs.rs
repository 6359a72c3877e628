//! `boardsat solve-dimacs`: any DIMACS CNF file, SAT-competition output.

use std::{fs::File, io, path::Path, time::Instant};

use anyhow::{Context, Result};
use boardsat_solve::{
    dimacs::{self, Format, Formula},
    enumerate::{falsified, read_model},
    report::SolveDimacsReport,
    Interrupter, Mode, SolveError, Status,
};

use crate::{
    flags::SolveDimacsArgs,
    hiargs,
    outcome::Outcome,
    output::{why_stopped, Stdout},
};

/// Reads a formula and its digest from `path` ("-" for stdin), polling
/// `stop`; errors name the file and the line.
pub fn read(path: &Path, expect: Option<Format>, stop: &Interrupter) -> Result<(Formula, String)> {
    let name = path.display().to_string();
    let formula = if name == "-" {
        dimacs::read_with_digest(io::stdin().lock(), expect, Some(stop))
    } else {
        let file = File::open(path).with_context(|| format!("cannot open {name}"))?;
        dimacs::read_with_digest(file, expect, Some(stop))
    };
    formula.with_context(|| name)
}

/// Runs `solve-dimacs`.
pub fn run(args: &SolveDimacsArgs) -> Result<Outcome> {
    let solver = hiargs::solver(&args.solver)?;
    let stop = hiargs::stop(&args.solver);
    let name = args.file.display().to_string();
    let (formula, _) = read(&args.file, Some(Format::Cnf), &stop)?;
    let start = Instant::now();
    let mut backend = solver.create(Mode::Decide, &stop)?;
    backend.reserve_vars(formula.max_var);
    for clause in &formula.clauses {
        backend.add_clause(clause)?;
    }
    let status = backend.solve(&[])?;
    let elapsed = start.elapsed();
    let signature = backend.signature();
    let reason = stop.reason();
    let mut model = Vec::new();
    if status == Status::Sat {
        model = read_model(backend.as_mut(), formula.max_var)?;
        // Every answer is checked: the model must satisfy every clause.
        if let Some(i) = falsified(&formula.clauses, &model) {
            return Err(SolveError::WrongModel {
                backend: signature,
                clause: i + 1,
            })
            .with_context(|| name);
        }
    }
    let mut out = Stdout::new();
    if args.json {
        out.json(&SolveDimacsReport {
            command: "solve-dimacs",
            file: name,
            status: status.to_string(),
            vars: formula.n_vars,
            clauses: formula.clauses.len(),
            model: (status == Status::Sat).then(|| dimacs::model_literals(&model, formula.n_vars)),
            backend: signature,
            elapsed: elapsed.as_secs_f64(),
            stopped: (status == Status::Unknown).then(|| why_stopped(reason)),
        })?;
    } else {
        out.line(format!(
            "c boardsat {} with {signature}",
            env!("CARGO_PKG_VERSION")
        ))?;
        out.line(format!(
            "c {} vars, {} clauses, {:.3} s",
            formula.n_vars,
            formula.clauses.len(),
            elapsed.as_secs_f64()
        ))?;
        if status == Status::Unknown {
            out.line(format!("c stopped: {}", why_stopped(reason)))?;
        }
        out.line(format!("s {}", status.competition()))?;
        if status == Status::Sat {
            // Variables no clause names are free; they are printed false.
            for (i, line) in dimacs::model_lines(&model, formula.n_vars).enumerate() {
                if i % 4096 == 0 && stop.is_interrupted() {
                    return Ok(Outcome::Stopped(stop.reason()));
                }
                out.line(line)?;
            }
        }
    }
    out.flush()?;
    Ok(match status {
        Status::Sat => Outcome::Sat,
        Status::Unsat => Outcome::Unsat,
        Status::Unknown => Outcome::Stopped(reason),
    })
}
