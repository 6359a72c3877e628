//! Shared helpers: varisat as a small complete oracle solver.
#![allow(dead_code)]

use rustsat::{
    instances::{BasicVarManager, Cnf, ManageVars},
    types::{Clause, Lit, Var},
};
use varisat::ExtendFormula;

/// The varisat literal of a rustsat literal.
pub fn lit(l: Lit) -> varisat::Lit {
    varisat::Lit::from_index(l.var().idx(), l.is_pos())
}

/// Adds rustsat clauses to a varisat solver.
pub fn add_clauses<'a>(
    solver: &mut varisat::Solver<'_>,
    clauses: impl IntoIterator<Item = &'a Clause>,
) {
    for clause in clauses {
        let lits: Vec<varisat::Lit> = clause.iter().map(|&l| lit(l)).collect();
        solver.add_clause(&lits);
    }
}

/// A solver holding `cnf`.
pub fn solver_of(cnf: &Cnf) -> varisat::Solver<'static> {
    let mut solver = varisat::Solver::new();
    add_clauses(&mut solver, cnf.iter());
    solver
}

/// Whether the solver is satisfiable under `assumptions`.
pub fn sat_under(solver: &mut varisat::Solver<'_>, assumptions: &[Lit]) -> bool {
    let assumptions: Vec<varisat::Lit> = assumptions.iter().map(|&l| lit(l)).collect();
    solver.assume(&assumptions);
    solver.solve().expect("varisat failed")
}

/// `n` input literals (variables 0..n) and a manager with them taken.
pub fn inputs(n: usize) -> (Vec<Lit>, BasicVarManager) {
    let mut vars = BasicVarManager::default();
    vars.increase_next_free(Var::new(u32::try_from(n).unwrap()));
    let lits = (0..n)
        .map(|i| Var::new(u32::try_from(i).unwrap()).pos_lit())
        .collect();
    (lits, vars)
}

/// The literals fixing `lits` to the bits of `mask`.
pub fn assignment(lits: &[Lit], mask: u32) -> Vec<Lit> {
    lits.iter()
        .enumerate()
        .map(|(i, &l)| if mask >> i & 1 == 1 { l } else { !l })
        .collect()
}

/// Clauses and auxiliary variables one call adds, measured as deltas.
pub fn delta<F>(n: usize, f: F) -> (usize, u32)
where
    F: FnOnce(&[Lit], &mut Cnf, &mut BasicVarManager),
{
    let (lits, mut vars) = inputs(n);
    let mut cnf = Cnf::new();
    let before = vars.n_used();
    f(&lits, &mut cnf, &mut vars);
    (cnf.len(), vars.n_used() - before)
}
