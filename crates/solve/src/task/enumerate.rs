//! Every placement, listed as it is found.

use boardsat_encode::Placement;

use crate::{
    backend::{
        spec::{SolverKind, SolverSpec},
        Mode,
    },
    error::SolveError,
    search::{
        count::End,
        optimise::{optimise_with, Optimum, Strategy},
        session::{Session, Solutions},
    },
    stop::Interrupter,
    task::Instance,
};

/// A session ready to list every placement (see [`enumerate`]).
#[derive(Debug)]
pub struct Enumeration {
    session: Session,
    optimum: Option<Optimum>,
    /// Whether an external solver lists: its last UNSAT answer (that the
    /// listing is complete) carries no proof.
    external: bool,
}

impl Enumeration {
    /// Whether a listing that ended as `end` rests on an external
    /// solver's UNSAT answer, with no proof of it: a complete listing by
    /// an external solver.
    #[must_use]
    pub fn unverified(&self, end: End) -> bool {
        self.external && end == End::Exhausted
    }

    /// Without k: the optimum whose placements are listed (when it is not
    /// proven, nothing is listed).
    #[must_use]
    pub fn optimum(&self) -> Option<&Optimum> {
        self.optimum.as_ref()
    }

    /// Whether the placements can be listed: with k always, without k when
    /// the optimum was proven.
    #[must_use]
    pub fn ready(&self) -> bool {
        self.optimum.as_ref().is_none_or(|o| o.proven)
    }

    /// The placements, at most `limit` of them, each checked; nothing when
    /// not [`Enumeration::ready`].
    pub fn solutions(&mut self, limit: Option<u64>) -> Solutions<'_> {
        let limit = if self.ready() { limit } else { Some(0) };
        self.session.solutions(limit)
    }

    /// The session (sizes, calls, the placements blocked when recorded).
    #[must_use]
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// Lists the placements, at most `limit`, each to `each` as soon as it
    /// is found (an error of `each`, such as a closed output, ends the
    /// listing with that error). Returns how the listing ended and how many
    /// were listed; a solver that stops ends it as [`End::Stopped`], and
    /// nothing is listed without a proven optimum.
    ///
    /// # Errors
    ///
    /// Solver errors (unless the solver was being stopped, which ends the
    /// listing as stopped); `each`'s errors.
    pub fn list<E: From<SolveError>>(
        &mut self,
        limit: Option<u64>,
        stop: &Interrupter,
        mut each: impl FnMut(Placement) -> Result<(), E>,
    ) -> Result<(End, u64), E> {
        let ready = self.ready();
        let mut found = 0;
        let mut solutions = self.solutions(limit);
        for result in solutions.by_ref() {
            match result {
                Ok(placement) => {
                    found += 1;
                    each(placement)?;
                }
                Err(SolveError::Stopped { .. }) => break,
                Err(_) if stop.is_interrupted() => break,
                Err(e) => return Err(e.into()),
            }
        }
        let end = solutions.end().filter(|_| ready).unwrap_or(End::Stopped);
        Ok((end, found))
    }

    /// Keeps every placement listed from now on, for a proof that the
    /// listing is complete (`boardsat_proof::prove_listed`).
    pub fn record(&mut self) {
        self.session.record_blocked();
    }
}

/// Prepares the listing of every placement with k pieces, or without k of
/// every optimal one (after the optimum and its proof, without symmetry
/// breaking, so that every placement is seen).
///
/// # Errors
///
/// Backend and encoding errors; wrong placements.
pub fn enumerate(
    instance: &Instance,
    solver: &SolverSpec,
    stop: &Interrupter,
) -> Result<Enumeration, SolveError> {
    let Instance { problem, k, config } = *instance;
    let backend = solver.create(Mode::Enumerate, stop)?;
    let external = solver.kind == SolverKind::External;
    Ok(match k {
        Some(k) => Enumeration {
            session: Session::fixed(&problem, k, config, backend)?,
            optimum: None,
            external,
        },
        None => {
            let (optimum, session) = optimise_with(&problem, config, backend, Strategy::default())?;
            Enumeration {
                session,
                optimum: Some(optimum),
                external,
            }
        }
    })
}
