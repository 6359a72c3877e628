//! `boardsat count-dimacs`: the projected models of any DIMACS file, or of
//! one cube of an iCNF file, by blocking clauses; [`Counting`] is the same
//! count for `boardsat job` too ([`crate::commands::job`]).

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use boardsat_encode::words::plural;
use boardsat_jobs::{error::JobsError, run::CountProof, JobResult};
use boardsat_proof::{
    prover::{DimacsSource, Prover, Task},
    tasks::{begin_dimacs_proof, prove_dimacs_count, record_models, DimacsProof},
    witness::Witnesses,
};
use boardsat_solve::{
    backend::{spec::SolverSpec, Backend, Mode},
    error::SolveError,
    formula::dimacs::{Format, Formula},
    search::count::{End, Progress},
    stop::{Interrupter, StopReason},
};
use std::cell::RefCell;

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
    let task = Task::count_dimacs(&args.formula.file, args.cube, args.limit);
    let prover = hiargs::prover(&args.formula.proof, &stop, &task)?;
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

/// One count of a formula file, as `count-dimacs` and `job` run it: the
/// library's count ([`boardsat_jobs::run::Counting`]) with the progress
/// line and, with `--proof`, the prover.
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
        let progress = RefCell::new(ProgressLine::new());
        let tell = |p: &Progress| {
            progress.borrow_mut().update(|| {
                format!(
                    "counting: {}  {:.0}/s",
                    plural(p.count, "model", "models"),
                    p.rate()
                )
            });
        };
        let counting = boardsat_jobs::run::Counting {
            name: self.name.clone(),
            cube: self.cube,
            limit: self.limit,
            mode: Mode::Enumerate,
            solver: self.solver,
            stop: self.stop,
            weigher: None,
            progress: &tell,
        };
        let proof = DimacsProving::new(prover, self.file, self.cube, self.stop)?;
        let counted = counting
            .count(&formula, digest, Some(proof))
            .with_context(|| self.name.clone())?;
        progress.borrow_mut().finish();
        let proven = match counted.proven {
            Some(Ok(proven)) => proven,
            Some(Err(e)) => return Err(e.into()),
            None => Proven::make(None, self.stop, |_| Ok(None)),
        };
        Ok(Counted {
            result: counted.result,
            end: counted.end,
            reason: counted.reason,
            proven,
        })
    }
}

/// The proof of a DIMACS count (`--proof`, or a job's in a split with
/// proofs): the counting solver's own trace when it makes one, else a
/// re-run, with every model as a witness.
pub struct DimacsProving<'a> {
    prover: Option<Prover>,
    how: Option<DimacsProof>,
    witnesses: Option<Witnesses>,
    file: PathBuf,
    cube: Option<usize>,
    stop: &'a Interrupter,
}

impl<'a> DimacsProving<'a> {
    /// The proof of the count of `file` (its iCNF `cube`) by `prover`, if
    /// any.
    pub fn new(
        prover: Option<Prover>,
        file: &Path,
        cube: Option<usize>,
        stop: &'a Interrupter,
    ) -> Result<Self> {
        let witnesses = match prover {
            Some(_) => Some(Witnesses::new().context("cannot make a temporary file")?),
            None => None,
        };
        Ok(DimacsProving {
            prover,
            how: None,
            witnesses,
            file: file.to_path_buf(),
            cube,
            stop,
        })
    }
}

impl CountProof for DimacsProving<'_> {
    type Proven = Proven;

    fn begin(&mut self, backend: &mut dyn Backend, formula: &Formula) -> Result<(), SolveError> {
        if self.prover.is_none() {
            return Ok(());
        }
        // The counting solver traces its own proof when it can.
        let how = begin_dimacs_proof(backend).map_err(|e| SolveError::Caller(Box::new(e)))?;
        // The blocking clauses are over the projection: a traced solver
        // keeps those variables (an LRAT proof cannot state restored
        // clauses).
        if let (DimacsProof::Traced(_), Some(tracer)) = (&how, backend.trace_proof()) {
            tracer.keep(&formula.projection_or_all())?;
        }
        self.how = Some(how);
        Ok(())
    }

    fn model(&mut self, model: &[bool]) {
        if let Some(w) = self.witnesses.as_mut() {
            w.push(model);
        }
    }

    fn finish(
        self,
        end: End,
        backend: &mut dyn Backend,
        formula: &Formula,
        digest: &str,
    ) -> Result<Proven, JobsError> {
        let DimacsProving {
            prover,
            how,
            mut witnesses,
            file,
            cube,
            stop,
        } = self;
        Ok(Proven::make(prover, stop, |p| {
            let how = how.unwrap_or(DimacsProof::Rerun);
            let Some(found) = witnesses.as_mut() else {
                return Ok(None);
            };
            let source = DimacsSource {
                path: &file,
                digest,
                icnf_cube: cube,
            };
            match end {
                End::Exhausted => prove_dimacs_count(p, how, backend, formula, &source, found),
                // The models found are their own certificate.
                End::Limit => record_models(p, &source, found),
                End::Stopped => Ok(None),
            }
        }))
    }
}
