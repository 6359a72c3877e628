//! `boardsat count-dimacs`: the projected models of any DIMACS file, or of
//! one cube of an iCNF file, by blocking clauses.

use anyhow::{bail, Context, Result};
use boardsat_jobs::JobResult;
use boardsat_proof::{
    tasks::{begin_dimacs_proof, prove_dimacs_count, record_models, DimacsProof},
    witness::Witnesses,
};
use boardsat_solve::{
    backend::Mode,
    formula::dimacs::Format,
    search::count::{count_projected, End, Witness},
    stop::StopReason,
};

use crate::{
    commands::solve_dimacs::read,
    flags::CountDimacsArgs,
    hiargs,
    outcome::Outcome,
    output::{ProgressLine, Proven, Stdout},
};

/// Runs `count-dimacs`.
pub fn run(args: &CountDimacsArgs) -> Result<Outcome> {
    let solver = hiargs::solver(&args.formula.solver)?;
    let stop = hiargs::stop(&args.formula.solver);
    let name = args.formula.file.display().to_string();
    let expect = if args.cube.is_some() {
        Format::Inccnf
    } else {
        Format::Cnf
    };
    let (mut formula, digest) = read(&args.formula.file, Some(expect), &stop)?;
    if let Some(cube) = args.cube {
        formula = formula.with_cube(cube).with_context(|| name.clone())?;
    }
    if args.formula.proof.proof.is_some() && args.formula.file.as_os_str() == "-" {
        bail!("--proof needs a file, not stdin: 'boardsat verify' re-reads the source");
    }
    let mut prover = hiargs::prover(&args.formula.proof, args.formula.force, &stop)?;
    let mut backend = solver.create(Mode::Enumerate, &stop)?;
    // The counting solver traces its own proof when it can.
    let how = match prover {
        Some(_) => Some(begin_dimacs_proof(backend.as_mut())?),
        None => None,
    };
    // The blocking clauses are over the projection: a traced solver keeps
    // those variables (an LRAT proof cannot state restored clauses).
    if let (Some(DimacsProof::Traced), Some(tracer)) = (how, backend.trace_proof()) {
        tracer.keep(&formula.projection_or_all())?;
    }
    let mut progress = ProgressLine::new();
    // Every model found, for the proof's witnesses.
    let mut witnesses = match prover {
        Some(_) => Some(Witnesses::new().context("cannot make a temporary file")?),
        None => None,
    };
    let mut record = |model: &[bool]| {
        if let Some(w) = witnesses.as_mut() {
            w.push(model);
        }
    };
    let witness: Option<Witness<'_>> = Some(&mut record);
    let count = count_projected(&formula, backend.as_mut(), args.limit, witness, |p| {
        progress.update(|| format!("counting: {} models  {:.0}/s", p.count, p.rate()));
    })
    .with_context(|| name.clone())?;
    progress.finish();
    let reason = stop.reason();
    let proven = Proven::make(prover.take(), &stop, |p| {
        let how = how.unwrap_or(DimacsProof::Rerun);
        let source = &args.formula.file;
        let Some(found) = witnesses.as_mut() else {
            return Ok(None);
        };
        match count.end {
            End::Exhausted => prove_dimacs_count(
                p,
                how,
                backend.as_mut(),
                &formula,
                source,
                &digest,
                args.cube,
                found,
            ),
            // The models found are their own certificate.
            End::Limit => record_models(p, source, &digest, args.cube, found),
            End::Stopped => Ok(None),
        }
    });
    let result = JobResult {
        command: "count-dimacs".to_string(),
        file: name,
        cube: args.cube,
        count: count.count,
        complete: count.end == End::Exhausted,
        projected_vars: formula
            .projection
            .as_ref()
            .map_or(formula.n_vars as usize, Vec::len),
        stopped: (count.end == End::Stopped).then(|| StopReason::words(reason).to_string()),
        backend: backend.signature(),
        elapsed: count.elapsed.as_secs_f64(),
        digest: digest.clone(),
        split: formula.tag("split").map(str::to_string),
        cube_id: formula
            .tag("cube")
            .and_then(|t| t.split_whitespace().next())
            .map(str::to_string),
    };
    let mut out = Stdout::new();
    if args.formula.json {
        out.json(&result)?;
    } else {
        out.line(format!("{}{}", count.count, count.end.mark(reason)))?;
    }
    out.flush()?;
    if let Some(outcome) = proven.finish()? {
        return Ok(outcome);
    }
    Ok(Outcome::of_end(count.end, reason))
}
