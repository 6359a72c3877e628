//! `boardsat count-dimacs`: the projected models of any DIMACS file, or of
//! one cube of an iCNF file, by blocking clauses; [`Counting`] is the same
//! count for `boardsat job` too ([`crate::commands::job`]).

use std::path::Path;

use anyhow::{bail, Context, Result};
use boardsat_encode::{
    dimacs::{CubeKind, CubeTag},
    words::plural,
};
use boardsat_jobs::{job::Weigher, JobResult};
use boardsat_proof::{
    prover::{DimacsSource, Prover},
    tasks::{begin_dimacs_proof, prove_dimacs_count, record_models, DimacsProof},
    witness::Witnesses,
};
use boardsat_solve::{
    backend::{spec::SolverSpec, Mode},
    formula::dimacs::{Format, Formula},
    search::count::{count_projected, End, ModelSink},
    stop::{Interrupter, StopReason},
};

use boardsat_report::Ending;

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
    let prover = hiargs::prover(&args.formula.proof, &stop)?;
    let counting = Counting {
        file: &args.formula.file,
        name,
        cube: args.cube,
        limit: args.limit,
        solver: &solver,
        stop: &stop,
        weigher: None,
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

/// One count of a formula file, as `count-dimacs` and `job` run it.
pub struct Counting<'a> {
    /// The file read, and the source its proof names.
    pub file: &'a Path,
    /// Its name in the result.
    pub name: String,
    /// The iCNF cube counted, if any.
    pub cube: Option<usize>,
    /// Stop after this many models.
    pub limit: Option<u64>,
    /// The solver.
    pub solver: &'a SolverSpec,
    /// What stops the count.
    pub stop: &'a Interrupter,
    /// A job's models stand for this many placements each, in a split
    /// with lex-leader constraints: their sum is the answer's
    /// `placements`.
    pub weigher: Option<Weigher>,
}

/// What a count produced.
pub struct Counted {
    /// The answer, as `--json` prints it and a job writes it.
    pub result: JobResult,
    /// How counting ended.
    pub end: End,
    /// Why it stopped, if it did.
    pub reason: Option<StopReason>,
    /// Its proof, when one was asked for and the count is complete.
    pub proven: Proven,
}

impl Counting<'_> {
    /// Counts `formula` (read with `digest`), proving the count with
    /// `prover` when it is complete.
    pub fn count(
        &self,
        formula: Formula,
        digest: String,
        prover: Option<Prover>,
    ) -> Result<Counted> {
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
        let mut placements: u64 = 0;
        let mut record = |model: &[bool]| {
            if let Some(w) = witnesses.as_mut() {
                w.push(model);
            }
            if let Some(weigher) = &self.weigher {
                placements = placements.saturating_add(weigher.weigh(model));
            }
        };
        let witness: Option<ModelSink<'_>> = Some(&mut record);
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
            pieces: None,
            placements: self
                .weigher
                .filter(|_| count.end == End::Exhausted)
                .map(|_| placements),
        };
        Ok(Counted {
            result,
            end: count.end,
            reason,
            proven,
        })
    }
}
