//! A clause sink that obeys a stop flag, so that building a large encoding
//! ends promptly on Ctrl-C instead of running on for seconds or minutes.

use boardsat_encode::EncodeError;
use rustsat::{encodings::CollectClauses, types::Clause, OutOfMemory};

use crate::{error::SolveError, stop::Interrupter};

/// Clauses passed on in batches of this many, the flag polled between.
const BATCH: usize = 4096;

/// Passes clauses to `inner` in batches, failing (as out-of-memory, the
/// only error a rustsat sink has) once `stop` is raised; [`Checked::run`]
/// turns that into [`SolveError::Interrupted`].
pub struct Checked<'a, C> {
    inner: &'a mut C,
    stop: &'a Interrupter,
}

impl<C: CollectClauses> CollectClauses for Checked<'_, C> {
    fn n_clauses(&self) -> usize {
        self.inner.n_clauses()
    }

    fn extend_clauses<T>(&mut self, cl_iter: T) -> Result<(), OutOfMemory>
    where
        T: IntoIterator<Item = Clause>,
    {
        let mut batch = Vec::with_capacity(BATCH);
        for clause in cl_iter {
            batch.push(clause);
            if batch.len() == BATCH {
                if self.stop.is_interrupted() {
                    return Err(OutOfMemory::ExternalApi);
                }
                self.inner.extend_clauses(batch.drain(..))?;
            }
        }
        if self.stop.is_interrupted() {
            return Err(OutOfMemory::ExternalApi);
        }
        self.inner.extend_clauses(batch)
    }
}

impl<'a, C: CollectClauses> Checked<'a, C> {
    /// Runs `encode` into `sink` through a checked sink.
    ///
    /// # Errors
    ///
    /// [`SolveError::Interrupted`] when `stop` was raised; `encode`'s other
    /// errors.
    pub fn run<T>(
        stop: &'a Interrupter,
        sink: &'a mut C,
        encode: impl FnOnce(&mut Checked<'a, C>) -> Result<T, EncodeError>,
    ) -> Result<T, SolveError> {
        let mut checked = Checked { inner: sink, stop };
        let result = encode(&mut checked);
        match (result, stop.reason()) {
            (Err(_), Some(reason)) => Err(SolveError::Interrupted(reason)),
            (result, _) => Ok(result?),
        }
    }
}
