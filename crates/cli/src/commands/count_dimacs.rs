//! `boardsat count-dimacs`: the projected models of any DIMACS file, or of
//! one cube of an iCNF file, by blocking clauses, proven with `--proof` by
//! the library's [`DimacsProving`] (which `boardsat job` uses too).

use std::path::Path;

use anyhow::{bail, Context, Result};
use boardsat_encode::words::plural;
use boardsat_jobs::JobResult;
use boardsat_proof::{
    job_proof::DimacsProving,
    prover::{Prover, Task},
};
use boardsat_solve::{
    backend::{spec::SolverSpec, Mode},
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

/// One count of a formula file, as `count-dimacs` runs it: the
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
            Some(Ok(concluded)) => Proven::of(concluded, self.stop),
            Some(Err(e)) => return Err(e.into()),
            None => Proven::of(None, self.stop),
        };
        Ok(Counted {
            result: counted.result,
            end: counted.end,
            reason: counted.reason,
            proven,
        })
    }
}
