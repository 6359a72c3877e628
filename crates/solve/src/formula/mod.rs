//! Formulas read from outside: the strict DIMACS and iCNF reader
//! ([`dimacs`]), and the one check that a model satisfies a formula
//! ([`falsified`]). Outside solvers' answers to the OPB, WCNF and LP files
//! boardsat writes are read where those files are written
//! (`boardsat_encode::export::solution`).

pub mod dimacs;

use rustsat::types::Lit;

/// The first clause of `clauses` that `model` (the value of each variable,
/// by index) falsifies, as its index; `None` when the model satisfies them
/// all. Variables beyond the model count as false. This is the one check
/// that a model satisfies a formula: `solve-dimacs`, `count-dimacs` and the
/// external backend all use it.
#[must_use]
pub fn falsified(clauses: &[Vec<Lit>], model: &[bool]) -> Option<usize> {
    clauses.iter().position(|clause| {
        !clause
            .iter()
            .any(|l| model.get(l.vidx()).copied().unwrap_or(false) == l.is_pos())
    })
}
