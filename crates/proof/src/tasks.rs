//! The claims behind what the tasks found: an optimum, a decision, a
//! count, a listing, a count of a DIMACS file.

use std::path::Path;

use boardsat_encode::{symmetry, Placement};
use boardsat_solve::{
    backend::{Backend, Status},
    error::SolveError,
    formula::dimacs::Formula,
    search::{
        count::{Blocking, End, Keep, Reduction},
        optimise::Optimum,
    },
    task::{count::Counted, enumerate::Enumeration, solve::Solved, Instance},
};

use rustsat::types::Lit;

use crate::{
    manifest::Cover,
    prover::{BoardClaim, ProofError, Prover, Symmetry},
    trace::LratTrace,
    words,
};

const SYMMETRY: &str = "lex-leader symmetry breaking: every placement has an image under the board's symmetries that the lex-leader constraints keep, with as many pieces";
const ORBITS: &str = "orbit weights: each placement kept by the lex-leader constraints stands for the placements of its orbit (their number is its orbit size)";
const HEREDITARY: &str = "independence is hereditary: without a placement of exactly k non-attacking pieces there is none of more";

/// The claim about `instance`'s problem with `k` pieces, in `words`.
fn claim(instance: &Instance, k: usize, symmetry: Symmetry, words: String) -> BoardClaim<'_> {
    BoardClaim {
        problem: &instance.problem,
        k,
        config: instance.config,
        symmetry,
        words,
    }
}

/// Proves what [`boardsat_solve::task::solve::solve`] found: that no
/// placement with k pieces exists, or the bound one step past the optimum.
/// Nothing to prove when a placement was found with k fixed, or the
/// optimum needs no proof.
///
/// # Errors
///
/// [`ProofError`].
pub fn prove_solved(
    prover: &mut Prover,
    instance: &Instance,
    solved: &Solved,
) -> Result<(), ProofError> {
    let problem = &instance.problem;
    if solved.certified {
        // Its refutations were proven cube by cube as they were found.
        return Ok(());
    }
    match (instance.k, &solved.optimum) {
        (Some(k), _) if solved.status == Status::Unsat => {
            let words = words::no_placement(problem, k);
            prover.no_placement(claim(instance, k, Symmetry::Off, words), Vec::new())?;
        }
        (None, Some(optimum)) if optimum.proven => prove_optimum(prover, instance, optimum)?,
        _ => {}
    }
    Ok(())
}

/// The claim behind a proven optimum: no placement one step better.
fn prove_optimum(
    prover: &mut Prover,
    instance: &Instance,
    optimum: &Optimum,
) -> Result<(), ProofError> {
    let problem = &instance.problem;
    let Some(call) = optimum.proof() else {
        return Ok(());
    };
    let k = call.bound.k();
    let mut relies_on = vec![SYMMETRY.to_string()];
    if !problem.kind.dominating() {
        relies_on.push(HEREDITARY.to_string());
    }
    let words = words::no_placement(problem, k);
    prover.no_placement(claim(instance, k, Symmetry::LexLeader, words), relies_on)?;
    Ok(())
}

/// Proves what [`boardsat_solve::task::count::count`] found (counted with
/// [`boardsat_solve::search::count::Keep::Placements`]): without k the
/// optimum first, then that the placements counted are all there are — one
/// claim per cube for a cube count, with the split the cubes cover.
///
/// # Errors
///
/// [`ProofError`]; a count that is not complete has nothing to prove.
pub fn prove_counted(
    prover: &mut Prover,
    instance: &Instance,
    counted: &Counted,
) -> Result<(), ProofError> {
    if counted.count.end != End::Exhausted {
        return Ok(());
    }
    if counted.keep == Keep::Traced {
        // Proven cube by cube as it was counted; the optimum too, unless
        // its proof came from a call outside the certified splits.
        if let Some(optimum) = &counted.optimum {
            if optimum.proof().is_some_and(|c| !c.certified) {
                prove_optimum(prover, instance, optimum)?;
            }
        }
        return Ok(());
    }
    let problem = &instance.problem;
    let k = match (instance.k, &counted.optimum) {
        (Some(k), _) => k,
        (None, Some(optimum)) => {
            prove_optimum(prover, instance, optimum)?;
            optimum.value
        }
        (None, None) => return Ok(()),
    };
    let orbits = counted.reduction == Reduction::Symmetry;
    let mut relies_on = Vec::new();
    if orbits {
        relies_on.push(ORBITS.to_string());
    }
    if instance.k.is_none() && problem.kind.dominating() {
        relies_on.push(format!(
            "the optimum claim before this one: no placement has fewer than {k} pieces, so every solution has exactly {k} and the short blocking clauses miss none"
        ));
    }
    let weight = |list: &[Placement]| -> u64 {
        list.iter()
            .map(|p| {
                if orbits {
                    symmetry::orbit_size(&problem.board, p)
                } else {
                    1
                }
            })
            .sum()
    };
    let symmetry = if orbits {
        Symmetry::LexLeader
    } else {
        Symmetry::Off
    };
    for (cube, list) in &counted.placements {
        let count = weight(list);
        let words = match cube {
            Some(c) => words::queens_cube(problem, k, count, &c.columns),
            None => words::complete(problem, k, count),
        };
        let mut relies = relies_on.clone();
        if cube.is_some() {
            relies.push(
                "the cubes cover every placement (checked by 'boardsat verify' against the split)"
                    .to_string(),
            );
        }
        let claim = claim(instance, k, symmetry, words);
        prover.complete(claim, list, counted.blocking, count, cube.as_ref(), relies)?;
    }
    if let Some(cubes) = &counted.cubes {
        prover.set_cover(Cover {
            n: problem.board.rows(),
            depth: cubes.split.depth,
            halve: cubes.reduction == Reduction::Halve,
            count: counted.count.count,
        })?;
    }
    Ok(())
}

/// Proves that the placements listed by an enumeration (recorded with
/// [`boardsat_solve::search::session::Session::record_blocked`]) are all
/// there are; without k, the optimum first.
///
/// # Errors
///
/// [`ProofError`].
pub fn prove_listed(
    prover: &mut Prover,
    instance: &Instance,
    enumeration: &Enumeration,
) -> Result<(), ProofError> {
    let session = enumeration.session();
    let problem = &instance.problem;
    let k = match (instance.k, enumeration.optimum()) {
        (Some(k), _) => k,
        (None, Some(optimum)) if optimum.proven => {
            prove_optimum(prover, instance, optimum)?;
            optimum.value
        }
        _ => return Ok(()),
    };
    let list = session.blocked();
    let count = list.len() as u64;
    let mut relies_on = Vec::new();
    if instance.k.is_none() && problem.kind.dominating() {
        relies_on.push(format!(
            "the optimum claim before this one: every solution has exactly {k} pieces"
        ));
    }
    let words = words::complete(problem, k, count);
    let blocking = if session.uniform() {
        Blocking::Short
    } else {
        Blocking::Full
    };
    let claim = claim(instance, k, Symmetry::Off, words);
    prover.complete(claim, list, blocking, count, None, relies_on)?;
    Ok(())
}

/// How a count of a DIMACS file is proven.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DimacsProof {
    /// By the counting solver's own trace (CaDiCaL): no second run.
    Traced,
    /// By a fresh CaDiCaL run on the formula and the blocking clauses
    /// recorded by the count (solvers that trace nothing).
    Rerun,
}

/// Readies `backend`, before it gets any clause, for the proof of a count:
/// its own trace when it can trace one.
///
/// # Errors
///
/// The trace cannot start.
pub fn begin_dimacs_proof(backend: &mut dyn Backend) -> Result<DimacsProof, ProofError> {
    match backend.trace_proof() {
        Some(tracer) => {
            tracer.start_trace(Box::new(LratTrace::new()?))?;
            Ok(DimacsProof::Traced)
        }
        None => Ok(DimacsProof::Rerun),
    }
}

/// Proves that `count` projected models — blocked in `blocked` when the
/// proof is [`DimacsProof::Rerun`] — are all that `formula`, read from
/// `source` with `digest` (cube `icnf_cube` of it), has.
///
/// # Errors
///
/// [`ProofError`].
#[allow(clippy::too_many_arguments)]
pub fn prove_dimacs_count(
    prover: &mut Prover,
    how: DimacsProof,
    backend: &mut dyn Backend,
    formula: &Formula,
    source: &Path,
    digest: &str,
    icnf_cube: Option<usize>,
    blocked: &[Vec<Lit>],
    count: u64,
) -> Result<(), ProofError> {
    match (how, backend.trace_proof()) {
        (DimacsProof::Traced, Some(tracer)) => {
            let trace = LratTrace::from_sink(tracer.stop_trace()?)?;
            prover
                .traced_formula(
                    trace,
                    formula.n_vars,
                    source,
                    digest,
                    icnf_cube,
                    Some(count),
                )
                .map(|_| ())
        }
        (DimacsProof::Traced, None) => Err(ProofError::Solve(SolveError::Unsupported(
            "the counting solver traced no proof".to_string(),
        ))),
        (DimacsProof::Rerun, _) => prover
            .formula(formula, source, digest, icnf_cube, Some((blocked, count)))
            .map(|_| ()),
    }
}
