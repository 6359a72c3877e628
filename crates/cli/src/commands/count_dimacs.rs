//! `boardsat count-dimacs`: the projected models of any DIMACS file, or of
//! one cube of an iCNF file, by blocking clauses; and `boardsat job`, the
//! same count run as one job of a `cubes` directory, which writes its own
//! answer (`boardsat_jobs::job`).

use std::path::Path;

use anyhow::{bail, Context, Result};
use boardsat_encode::{
    dimacs::{CubeKind, CubeTag},
    words::plural,
};
use boardsat_jobs::{job::Job, JobResult};
use boardsat_proof::{
    prover::{DimacsSource, Prover},
    tasks::{begin_dimacs_proof, prove_dimacs_count, record_models, DimacsProof},
    witness::Witnesses,
};
use boardsat_solve::{
    backend::{spec::SolverSpec, Mode},
    formula::dimacs::{Format, Formula},
    search::count::{count_projected, End, Witness},
    stop::{Interrupter, StopReason},
};

use boardsat_report::Ending;

use crate::{
    commands::solve_dimacs::read,
    flags::{CountDimacsArgs, CubeJobArgs, ProofArgs},
    hiargs,
    outcome::Outcome,
    output::{note, ProgressLine, Proven, Stdout},
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
    let prover = hiargs::prover(&args.formula.proof, &stop)?;
    let counting = Counting {
        file: &args.formula.file,
        name,
        cube: args.cube,
        limit: args.limit,
        solver: &solver,
        stop: &stop,
    };
    let counted = counting.count(formula, digest, prover)?;
    let mut out = Stdout::new();
    if args.formula.json {
        out.json(&counted.result)?;
    } else {
        out.line(format!(
            "{}{}",
            counted.result.count,
            counted.end.mark(counted.reason)
        ))?;
    }
    out.flush()?;
    if let Some(outcome) = counted.proven.finish()? {
        return Ok(outcome);
    }
    Ok(Outcome::of_end(counted.end, counted.reason))
}

/// Runs `job DIR ID`: the count of cube ID of the split in DIR, written
/// to its `results/` whole, once (see `boardsat_jobs::job`). The answer
/// is the file; stdout has it only with `--json`, stderr says what was
/// done.
pub fn job(args: &CubeJobArgs) -> Result<Outcome> {
    let solver = hiargs::solver(&args.solver)?;
    let stop = hiargs::stop(&args.solver);
    let job = Job::open(&args.dir, &args.id)?;
    let claimed = job.claim()?;
    let result_path = job.result_path();
    let mut out = Stdout::new();
    if let Some(answer) = claimed.answer()? {
        note(format!(
            "{}: already answered in {} ({} models); kept as it is",
            job.entry.id,
            result_path.display(),
            answer.count
        ));
        if args.json {
            out.json(&answer)?;
        }
        out.flush()?;
        return Ok(Outcome::Done);
    }
    claimed.prepare()?;
    let source = job.source();
    let expect = match job.entry.index {
        Some(_) => Format::Inccnf,
        None => Format::Cnf,
    };
    let (mut formula, digest) = read(&source, Some(expect), &stop)?;
    job.check_digest(&digest)?;
    if let Some(cube) = job.entry.index {
        formula = formula
            .with_cube(cube)
            .with_context(|| source.display().to_string())?;
    }
    // A previous attempt's proof files are this job's to replace.
    let proof = ProofArgs {
        proof: job.proof_dir(),
        replace: true,
    };
    let prover = hiargs::prover(&proof, &stop)?;
    let counting = Counting {
        file: &source,
        name: job.entry.file.clone(),
        cube: job.entry.index,
        limit: None,
        solver: &solver,
        stop: &stop,
    };
    let Counted {
        result,
        end,
        reason,
        proven,
    } = counting.count(formula, digest, prover)?;
    // No answer without its proof: a job whose proof failed runs again.
    let stopped = proven.finish()?;
    claimed.write(&result)?;
    drop(claimed);
    note(format!(
        "{}: {} models{}; answer written to {}",
        job.entry.id,
        result.count,
        end.mark(reason),
        result_path.display()
    ));
    if args.json {
        out.json(&result)?;
    }
    out.flush()?;
    Ok(stopped.unwrap_or(Outcome::of_end(end, reason)))
}

/// One count of a formula file, as `count-dimacs` and `job` run it.
struct Counting<'a> {
    /// The file read, and the source its proof names.
    file: &'a Path,
    /// Its name in the result.
    name: String,
    /// The iCNF cube counted, if any.
    cube: Option<usize>,
    /// Stop after this many models.
    limit: Option<u64>,
    solver: &'a SolverSpec,
    stop: &'a Interrupter,
}

/// What a count produced.
struct Counted {
    /// The answer, as `--json` prints it and a job writes it.
    result: JobResult,
    /// How counting ended.
    end: End,
    /// Why it stopped, if it did.
    reason: Option<StopReason>,
    /// Its proof, when one was asked for and the count is complete.
    proven: Proven,
}

impl Counting<'_> {
    /// Counts `formula` (read with `digest`), proving the count with
    /// `prover` when it is complete.
    fn count(&self, formula: Formula, digest: String, prover: Option<Prover>) -> Result<Counted> {
        let mut backend = self.solver.create(Mode::Enumerate, self.stop)?;
        // The counting solver traces its own proof when it can.
        let how = match prover {
            Some(_) => Some(begin_dimacs_proof(backend.as_mut())?),
            None => None,
        };
        // The blocking clauses are over the projection: a traced solver keeps
        // those variables (an LRAT proof cannot state restored clauses).
        if let (Some(DimacsProof::Traced(_)), Some(tracer)) = (&how, backend.trace_proof()) {
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
        let count = count_projected(&formula, backend.as_mut(), self.limit, witness, |p| {
            progress.update(|| {
                format!(
                    "counting: {}  {:.0}/s",
                    plural(p.count, "model", "models"),
                    p.rate()
                )
            });
        })
        .with_context(|| self.name.clone())?;
        progress.finish();
        let reason = self.stop.reason();
        let proven = Proven::make(prover, self.stop, |p| {
            let how = how.unwrap_or(DimacsProof::Rerun);
            let Some(found) = witnesses.as_mut() else {
                return Ok(None);
            };
            let source = DimacsSource {
                path: self.file,
                digest: &digest,
                icnf_cube: self.cube,
            };
            match count.end {
                End::Exhausted => {
                    prove_dimacs_count(p, how, backend.as_mut(), &formula, &source, found)
                }
                // The models found are their own certificate.
                End::Limit => record_models(p, &source, found),
                End::Stopped => Ok(None),
            }
        });
        let result = JobResult {
            command: "count-dimacs".to_string(),
            file: self.name.clone(),
            cube: self.cube,
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
            split: formula.tag("split").map(str::to_string),
            cube_id: formula
                .tag("cube")
                .and_then(|t| CubeTag::parse(t, CubeKind::Job))
                .and_then(|tag| match tag {
                    CubeTag::Job { id, .. } => Some(id),
                    _ => None,
                }),
            digest,
        };
        Ok(Counted {
            result,
            end: count.end,
            reason,
            proven,
        })
    }
}
