//! `boardsat count-dimacs`: the projected models of any DIMACS file, or of
//! one cube of an iCNF file, by blocking clauses.

use anyhow::{bail, Context, Result};
use boardsat_encode::words::plural;
use boardsat_jobs::JobResult;
use boardsat_proof::tasks::{begin_dimacs_proof, prove_dimacs_count, DimacsProof};
use boardsat_report::Ending;
use boardsat_solve::{
    backend::Mode,
    formula::dimacs::Format,
    search::count::{count_projected, End},
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
    let mut blocked = Vec::new();
    let record = (how == Some(DimacsProof::Rerun)).then_some(&mut blocked);
    let count = count_projected(&formula, backend.as_mut(), args.limit, record, |p| {
        progress.update(|| {
            format!(
                "counting: {}  {:.0}/s",
                plural(p.count, "model", "models"),
                p.rate()
            )
        });
    })
    .with_context(|| name.clone())?;
    progress.finish();
    let reason = stop.reason();
    let prover = prover.take().filter(|_| count.end == End::Exhausted);
    let proven = Proven::make(prover, |p| {
        let how = how.unwrap_or(DimacsProof::Rerun);
        let source = &args.formula.file;
        prove_dimacs_count(
            p,
            how,
            backend.as_mut(),
            &formula,
            source,
            &digest,
            args.cube,
            &blocked,
            count.count,
        )
    });
    let result = JobResult {
        command: "count-dimacs".to_string(),
        file: name,
        cube: args.cube,
        status: Ending::of(count.end, reason).status().to_string(),
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
    proven.finish()?;
    Ok(Outcome::of_end(count.end, reason))
}
