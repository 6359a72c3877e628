//! The proof of a DIMACS count, made alongside it ([`DimacsProving`]: the
//! counting solver's own trace when it makes one, else a re-run, with
//! every model as a witness), and the proofs of a split's jobs
//! ([`JobProofs`]: a prover per job, in the split's proof format).
//!
//! These are the [`CountProof`] and [`ProveJob`] that `boardsat-jobs`
//! asks its caller for: the command line's `count-dimacs --proof` and
//! `job`, and Python's `boardsat.jobs.run_job`, hand in the same ones, so
//! a job's proof is made one way whoever runs it.

use std::path::{Path, PathBuf};

use boardsat_jobs::{
    error::JobsError,
    job::Job,
    run::{CountProof, ProveJob},
};
use boardsat_solve::{
    backend::Backend, error::SolveError, formula::dimacs::Formula, search::count::End,
    stop::Interrupter,
};

use crate::{
    prover::{Concluded, DimacsSource, ProofError, Prover, Task},
    tasks::{begin_dimacs_proof, prove_dimacs_count, record_models, DimacsProof},
    witness::Witnesses,
};

/// The proof of a DIMACS count (`count-dimacs --proof`, or a job's in a
/// split with proofs): the counting solver's own trace when it makes one,
/// else a re-run, with every model as a witness. Its end is the prover's
/// conclusion (none without a prover), for the caller to report.
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
    /// any; `stop` says at the end whether the count was stopped.
    ///
    /// # Errors
    ///
    /// [`ProofError::Dir`] when the witnesses' temporary file cannot be
    /// made.
    pub fn new(
        prover: Option<Prover>,
        file: &Path,
        cube: Option<usize>,
        stop: &'a Interrupter,
    ) -> Result<Self, ProofError> {
        let witnesses = match prover {
            Some(_) => Some(
                Witnesses::new()
                    .map_err(|e| ProofError::Dir(format!("cannot make a temporary file: {e}")))?,
            ),
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
    type Proven = Option<Concluded>;

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
    ) -> Result<Option<Concluded>, JobsError> {
        let DimacsProving {
            prover,
            how,
            mut witnesses,
            file,
            cube,
            stop,
        } = self;
        Ok(prover.map(|mut prover| {
            let how = how.unwrap_or(DimacsProof::Rerun);
            let proved = match witnesses.as_mut() {
                None => Ok(None),
                Some(found) => {
                    let source = DimacsSource {
                        path: &file,
                        digest,
                        icnf_cube: cube,
                    };
                    match end {
                        End::Exhausted => {
                            prove_dimacs_count(&mut prover, how, backend, formula, &source, found)
                        }
                        // The models found are their own certificate.
                        End::Limit => record_models(&mut prover, &source, found),
                        End::Stopped => Ok(None),
                    }
                }
            };
            prover.conclude(proved, stop.reason())
        }))
    }
}

/// The proofs of the jobs of a split with proofs: the prover of each
/// job's proof directory (a previous attempt's files there are the job's
/// to replace), in the split's proof format and compression.
pub struct JobProofs<'a> {
    /// What stops the jobs.
    pub stop: &'a Interrupter,
    /// The call recorded in each proof manifest (`boardsat job . ID`,
    /// `boardsat.jobs.run_job(…)`).
    pub command: String,
}

impl<'a> ProveJob for JobProofs<'a> {
    type Proof = JobProving<'a>;

    fn start(&self, job: &Job, dir: &Path) -> Result<JobProving<'a>, JobsError> {
        let started = || {
            if !cfg!(feature = "cadical") {
                return Err(ProofError::Unavailable);
            }
            let source = job.source();
            let task = Task::count_dimacs(&source, job.entry.index, None);
            let mut prover =
                Prover::create(dir, true, self.command.clone(), &task, self.stop.clone())?;
            prover.set_proof_format(job.proof_format);
            prover.set_compression(job.proof_compression);
            DimacsProving::new(Some(prover), &source, job.entry.index, self.stop)
        };
        started()
            .map(JobProving)
            .map_err(|e| JobsError::Proof(e.into()))
    }
}

/// A job's proof: its count's, whose end is settled before the job
/// writes its answer: a proof that failed is an error (the job writes no
/// answer and runs again); else the prover's conclusion, which says
/// whether the proofs were stopped.
pub struct JobProving<'a>(DimacsProving<'a>);

impl CountProof for JobProving<'_> {
    type Proven = Option<Concluded>;

    fn begin(&mut self, backend: &mut dyn Backend, formula: &Formula) -> Result<(), SolveError> {
        self.0.begin(backend, formula)
    }

    fn model(&mut self, model: &[bool]) {
        self.0.model(model);
    }

    fn finish(
        self,
        end: End,
        backend: &mut dyn Backend,
        formula: &Formula,
        digest: &str,
    ) -> Result<Option<Concluded>, JobsError> {
        match self.0.finish(end, backend, formula, digest)? {
            Some(Concluded {
                error: Some(error), ..
            }) => Err(JobsError::Proof(error.into())),
            concluded => Ok(concluded),
        }
    }
}
