//! External DIMACS solvers (placeholder: being written).
#![allow(missing_docs, dead_code)]

use std::time::Duration;

use rustsat::types::{Lit, Var};

use crate::{Backend, SolveError, Status, TimeLimit};

/// Failures of an external solver, each naming the command.
#[derive(Debug, thiserror::Error)]
pub enum ExternalError {
    #[error("solver command '{command}' not found")]
    NotFound { command: String },
}

/// Any DIMACS solver binary.
#[derive(Debug)]
pub struct External {
    command: Vec<String>,
    clauses: Vec<Vec<Lit>>,
    n_vars: u32,
    model: Option<Vec<bool>>,
    time_limit: Option<Duration>,
}

impl External {
    pub fn new(command_line: &str) -> Result<Self, SolveError> {
        let command: Vec<String> = command_line.split_whitespace().map(String::from).collect();
        if command.is_empty() {
            return Err(SolveError::MissingCommand);
        }
        Ok(External {
            command,
            clauses: vec![],
            n_vars: 0,
            model: None,
            time_limit: None,
        })
    }
}

impl Backend for External {
    fn add_clause(&mut self, clause: &[Lit]) -> Result<(), SolveError> {
        self.model = None;
        self.clauses.push(clause.to_vec());
        Ok(())
    }
    fn solve(&mut self, _assumptions: &[Lit]) -> Result<Status, SolveError> {
        Err(ExternalError::NotFound {
            command: self.command.join(" "),
        }
        .into())
    }
    fn value(&mut self, var: Var) -> Result<bool, SolveError> {
        let model = self.model.as_ref().ok_or(SolveError::NoModel)?;
        Ok(model.get(var.idx()).copied().unwrap_or(false))
    }
    fn signature(&self) -> String {
        format!("external: {}", self.command.join(" "))
    }
    fn reserve_vars(&mut self, n_vars: u32) {
        self.n_vars = self.n_vars.max(n_vars);
    }
    fn time_limit(&mut self) -> Option<&mut dyn TimeLimit> {
        Some(self)
    }
}

impl TimeLimit for External {
    fn set_time_limit(&mut self, limit: Option<Duration>) {
        self.time_limit = limit;
    }
}
