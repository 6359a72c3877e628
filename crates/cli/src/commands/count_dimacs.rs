//! `boardsat count-dimacs`: the projected models of any DIMACS file, or of
//! one cube of an iCNF file, by blocking clauses.

use anyhow::{bail, Context, Result};
use boardsat_solve::{count_projected, dimacs::Format, jobs::JobResult, End, Mode};

use crate::{
    commands::solve_dimacs::read,
    flags::CountDimacsArgs,
    hiargs,
    outcome::Outcome,
    output::{mark, why_stopped, ProgressLine, Stdout},
};

/// Runs `count-dimacs`.
pub fn run(args: &CountDimacsArgs) -> Result<Outcome> {
    let solver = hiargs::solver(&args.solver)?;
    let stop = hiargs::stop(&args.solver);
    let name = args.file.display().to_string();
    let expect = if args.cube.is_some() {
        Format::Inccnf
    } else {
        Format::Cnf
    };
    let (mut formula, digest) = read(&args.file, Some(expect), &stop)?;
    if let Some(cube) = args.cube {
        formula = formula.with_cube(cube).with_context(|| name.clone())?;
    }
    if args.proof.proof.is_some() && args.file.as_os_str() == "-" {
        bail!("--proof needs a file, not stdin: 'boardsat verify' re-reads the source");
    }
    let mut prover = hiargs::prover(&args.proof, args.force, &stop)?;
    let mut backend = solver.create(Mode::Enumerate, &stop)?;
    let mut progress = ProgressLine::new();
    let mut blocked = Vec::new();
    let record = prover.is_some().then_some(&mut blocked);
    let count = count_projected(&formula, backend.as_mut(), args.limit, record, |p| {
        progress.update(|| format!("counting: {} models  {:.0}/s", p.count, p.rate()));
    })
    .with_context(|| name.clone())?;
    progress.finish();
    let reason = stop.reason();
    let proven = prover
        .take()
        .filter(|_| count.end == End::Exhausted)
        .map(|mut p| {
            p.formula(
                &formula,
                &args.file,
                &digest,
                args.cube,
                Some((&blocked, count.count)),
            )
            .map(|_| ())
            .map(|()| p.finish())
        });
    let summary = proven.as_ref().and_then(|r| r.as_ref().ok()).cloned();
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
        stopped: (count.end == End::Stopped).then(|| why_stopped(reason).to_string()),
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
    if args.json {
        out.json(&result)?;
    } else {
        out.line(format!("{}{}", count.count, mark(count.end, reason)))?;
    }
    out.flush()?;
    crate::output::note_proofs(summary.as_ref());
    if let Some(Err(e)) = proven {
        return Err(e.into());
    }
    Ok(match count.end {
        End::Exhausted | End::Limit => Outcome::Done,
        End::Stopped => Outcome::Stopped(reason),
    })
}
