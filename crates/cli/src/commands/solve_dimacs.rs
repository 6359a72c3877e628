//! `boardsat solve-dimacs`: any DIMACS CNF file, SAT-competition output.

use std::{fs::File, io, path::Path, time::Instant};

use anyhow::{bail, Context, Result};
use boardsat_proof::{
    prover::DimacsSource,
    tasks::{prove_unsatisfiable, record_models},
    witness::Witnesses,
};
use boardsat_report::SolveDimacsReport;
use boardsat_solve::{
    backend::{read_model, spec::SolverKind, Mode, Status},
    error::SolveError,
    formula::{
        dimacs::{self, Format, Formula},
        falsified,
    },
    stop::{Interrupter, StopReason},
};

use crate::{
    flags::SolveDimacsArgs,
    hiargs,
    outcome::Outcome,
    output::{Proven, Stdout},
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
    let solver = hiargs::solver(&args.formula.solver)?;
    let stop = hiargs::stop(&args.formula.solver);
    let name = args.formula.file.display().to_string();
    if args.formula.proof.proof.is_some() && args.formula.file.as_os_str() == "-" {
        bail!("--proof needs a file, not stdin: 'boardsat verify' re-reads the source");
    }
    let mut prover = hiargs::prover(&args.formula.proof, &stop)?;
    let (formula, digest) = read(&args.formula.file, Some(Format::Cnf), &stop)?;
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
    } else {
        for line in report.comment_lines() {
            out.line(line)?;
        }
        out.line(format!("s {}", status.competition()))?;
        // Variables no clause names are free; they are printed false.
        let lines = dimacs::model_lines(&model, formula.n_vars);
        for (i, line) in lines.enumerate().filter(|_| status == Status::Sat) {
            if i % 4096 == 0 && stop.is_interrupted() {
                return Ok(Outcome::Stopped(stop.reason()));
            }
            out.line(line)?;
        }
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
