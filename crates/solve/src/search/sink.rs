//! Clause sinks that obey a stop flag, so that building and loading a
//! large encoding ends promptly on Ctrl-C or the time limit instead of
//! running on for seconds or minutes: [`Checked`] into any collection,
//! [`Load`] straight into a solver.

use boardsat_encode::EncodeError;
use rustsat::{encodings::CollectClauses, types::Clause, OutOfMemory};

use crate::{backend::Backend, error::SolveError, stop::Interrupter};

/// Clauses passed on in batches of this many, the flag polled between.
const BATCH: usize = 4096;

/// Literals between two looks at the flag: clauses of every length (the
/// n literals of an N-queens row as much as binary clauses) are polled by
/// the work they make. At n = 5000, 2¹⁶ literals are about 4 ms of
/// CaDiCaL's loading on a loaded 2-core machine.
const CHECK_LITERALS: usize = 1 << 16;

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
        let mut literals = 0;
        for clause in cl_iter {
            literals += clause.len();
            batch.push(clause);
            if batch.len() == BATCH || literals >= CHECK_LITERALS {
                if self.stop.is_interrupted() {
                    return Err(OutOfMemory::ExternalApi);
                }
                self.inner.extend_clauses(batch.drain(..))?;
                literals = 0;
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

/// Adds clauses to a backend as an encoder writes them, polling `stop`
/// every 2^16 literals: the clauses are never held twice
/// (at n = 5000 the N-queens rows and columns are 50 million literals,
/// 200 MB as a copy), and loading them stops within milliseconds.
/// A stop or a backend error fails the encoder (as out-of-memory, the only
/// error a rustsat sink has); [`Load::run`] returns the real cause.
pub struct Load<'a> {
    backend: &'a mut dyn Backend,
    stop: &'a Interrupter,
    n_clauses: usize,
    /// Literals added since the last look at the flag.
    unchecked: usize,
    /// The first backend error.
    error: Option<SolveError>,
}

impl Load<'_> {
    fn add(&mut self, clause: &Clause) -> Result<(), OutOfMemory> {
        if self.unchecked >= CHECK_LITERALS {
            self.unchecked = 0;
            if self.stop.is_interrupted() {
                return Err(OutOfMemory::ExternalApi);
            }
        }
        if let Err(e) = self.backend.add_clause(&clause[..]) {
            self.error = Some(e);
            return Err(OutOfMemory::ExternalApi);
        }
        self.n_clauses += 1;
        // An empty clause is work too.
        self.unchecked += clause.len().max(1);
        Ok(())
    }
}

impl CollectClauses for Load<'_> {
    fn n_clauses(&self) -> usize {
        self.n_clauses
    }

    fn extend_clauses<T>(&mut self, cl_iter: T) -> Result<(), OutOfMemory>
    where
        T: IntoIterator<Item = Clause>,
    {
        cl_iter.into_iter().try_for_each(|clause| self.add(&clause))
    }
}

impl<'a> Load<'a> {
    /// Runs `encode` with its clauses going straight into `backend`.
    ///
    /// # Errors
    ///
    /// [`SolveError::Interrupted`] when `stop` was raised (checked before
    /// the first clause too); the backend's error; `encode`'s other errors.
    pub fn run<T>(
        stop: &'a Interrupter,
        backend: &'a mut dyn Backend,
        encode: impl FnOnce(&mut Load<'a>) -> Result<T, EncodeError>,
    ) -> Result<T, SolveError> {
        if let Some(reason) = stop.reason() {
            return Err(SolveError::Interrupted(reason));
        }
        let mut load = Load {
            backend,
            stop,
            n_clauses: 0,
            unchecked: 0,
            error: None,
        };
        let result = encode(&mut load);
        if let Some(error) = load.error {
            return Err(error);
        }
        match (result, stop.reason()) {
            (Err(_), Some(reason)) => Err(SolveError::Interrupted(reason)),
            (result, _) => Ok(result?),
        }
    }
}
