//! A backend that only records the clauses it is given, in order: what a
//! solver would have received, re-derived without solving (the proofs'
//! verifier compares it with a traced formula), or encoded once for many
//! solvers ([`crate::search::session::Base`]).

use std::{cell::RefCell, rc::Rc};

use boardsat_encode::LazyLines;
use rustsat::types::{Lit, Var};

use crate::{
    backend::{
        propagator::{LinesStats, PropagateLines},
        Backend, Interrupt, Status,
    },
    error::SolveError,
    stop::Interrupter,
};

/// Records every clause into a list its maker keeps
/// ([`Recorder::new`]); every call is UNKNOWN and has no model. It takes
/// the lines a propagator would be given (the encoding lists them), and
/// obeys a stop flag like any backend. It obeys a stop flag like any
/// backend, so that what records into it can poll it.
#[derive(Clone, Debug, Default)]
pub struct Recorder {
    clauses: Rc<RefCell<Vec<Vec<Lit>>>>,
    stop: Interrupter,
}

impl Recorder {
    /// A recorder, and the list its clauses go to.
    #[must_use]
    pub fn new() -> (Self, Rc<RefCell<Vec<Vec<Lit>>>>) {
        let recorder = Recorder::default();
        let clauses = Rc::clone(&recorder.clauses);
        (recorder, clauses)
    }
}

impl Backend for Recorder {
    fn add_clause(&mut self, clause: &[Lit]) -> Result<(), SolveError> {
        self.clauses.borrow_mut().push(clause.to_vec());
        Ok(())
    }

    fn solve(&mut self, _assumptions: &[Lit]) -> Result<Status, SolveError> {
        Ok(Status::Unknown)
    }

    fn value(&mut self, _var: Var) -> Result<bool, SolveError> {
        Err(SolveError::NoModel)
    }

    fn signature(&self) -> String {
        "recorder".to_string()
    }

    fn interrupt(&mut self) -> Option<&mut dyn Interrupt> {
        Some(self)
    }

    fn propagate_lines(&mut self) -> Option<&mut dyn PropagateLines> {
        Some(self)
    }
}

impl Interrupt for Recorder {
    fn interrupter(&mut self) -> Interrupter {
        self.stop.clone()
    }

    fn use_interrupter(&mut self, interrupter: Interrupter) {
        self.stop = interrupter;
    }
}

impl PropagateLines for Recorder {
    /// Takes `lines`: the encoding that leaves them out lists them
    /// ([`boardsat_encode::Encoding::lazy`]), for a solver loaded with the
    /// recorded clauses to be connected to.
    fn connect_lines(&mut self, _lines: &LazyLines) -> Result<(), SolveError> {
        Ok(())
    }

    fn lines_stats(&self) -> Option<LinesStats> {
        None
    }
}
