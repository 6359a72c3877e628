//! `boardsat solve-dimacs`: any DIMACS CNF file, SAT-competition output.

use std::{fs::File, io, path::Path, time::Instant};

use anyhow::{bail, Context, Result};
use boardsat_solve::{
    dimacs::{self, Format, Formula},
    enumerate::{falsified, read_model},
    report::SolveDimacsReport,
    Interrupter, Mode, SolveError, SolverKind, Status,
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
    if args.proof.proof.is_some() && args.file.as_os_str() == "-" {
        bail!("--proof needs a file, not stdin: 'boardsat verify' re-reads the source");
    }
    let mut prover = hiargs::prover(&args.proof, args.force, &stop)?;
    let (formula, digest) = read(&args.file, Some(Format::Cnf), &stop)?;
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
    let proven = prover
        .take()
        .filter(|_| status == Status::Unsat)
        .map(|mut p| {
            p.formula(&formula, &args.file, &digest, None, None)
                .map(|_| ())
                .map(|()| p.finish())
        });
    let summary = proven.as_ref().and_then(|r| r.as_ref().ok()).cloned();
    let unverified =
        status == Status::Unsat && solver.kind == SolverKind::External && summary.is_none();
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
            proof: summary.clone(),
            unverified,
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
        if unverified {
            out.line(
                "c unverified: the UNSAT answer of an external solver (--proof proves it again)",
            )?;
        }
        if let Some(p) = &summary {
            out.line(format!(
                "c proof in {}, verify with boardsat verify {}",
                p.dir, p.dir
            ))?;
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
    if let Some(Err(e)) = proven {
        return Err(e.into());
    }
    Ok(match status {
        Status::Sat => Outcome::Sat,
        Status::Unsat => Outcome::Unsat,
        Status::Unknown => Outcome::Stopped(reason),
    })
}
