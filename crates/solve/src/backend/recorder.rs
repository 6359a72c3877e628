//! A backend that only records the clauses it is given, in order: what a
//! solver would have received, re-derived without solving (the proofs'
//! verifier compares it with a traced formula).

use std::{cell::RefCell, rc::Rc};

use rustsat::types::{Lit, Var};

use crate::{
    backend::{Backend, Status},
    error::SolveError,
};

/// Records every clause into a list its maker keeps
/// ([`Recorder::new`]); every call is UNKNOWN and has no model.
#[derive(Clone, Debug, Default)]
pub struct Recorder {
    clauses: Rc<RefCell<Vec<Vec<Lit>>>>,
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
}
