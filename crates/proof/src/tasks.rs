//! The claims behind what the tasks found — an optimum, a decision, a
//! count, a listing, a count of a DIMACS file — and the run's whole
//! result ([`RunResult`]) that they prove, for [`Prover::conclude`].

use boardsat_encode::{symmetry, Placement, Problem};
use boardsat_solve::{
    backend::{Backend, Status},
    error::SolveError,
    formula::dimacs::Formula,
    search::{
        count::{End, Keep, Reduction},
        optimise::Optimum,
    },
    task::{count::Counted, enumerate::Enumeration, solve::Solved, Instance},
};

use crate::{
    manifest::{pairs, Answer, Cover, ProblemName, RunResult},
    prover::{BoardClaim, ClaimSymmetry, DimacsSource, ProofError, Prover},
    sentences,
    trace::SharedTrace,
    witness::Witnesses,
};

const SYMMETRY: &str = "lex-leader symmetry breaking: every placement has an image under the board's symmetries that the lex-leader constraints keep, with as many pieces";
const ORBITS: &str = "orbit weights: each placement kept by the lex-leader constraints stands for the placements of its orbit (their number is its orbit size)";
const HEREDITARY: &str = "independence is hereditary: without a placement of exactly k non-attacking pieces there is none of more";

/// The claim about `instance`'s problem with `k` pieces, in `words`.
fn claim(instance: &Instance, k: usize, symmetry: ClaimSymmetry, words: String) -> BoardClaim<'_> {
    BoardClaim {
        problem: &instance.problem,
        k,
        config: instance.config,
        symmetry,
        words,
    }
}

/// The result `answer` with its sentence.
fn result(answer: Answer, sentence: String) -> Option<RunResult> {
    Some(RunResult { answer, sentence })
}

/// The optimum of `problem` with `value` pieces and the `witness`.
fn optimum_result(problem: &Problem, value: usize, witness: &Placement) -> Option<RunResult> {
    let refuted = if problem.kind.dominating() {
        value.checked_sub(1)
    } else {
        (value < problem.board.n_squares()).then_some(value + 1)
    };
    result(
        Answer::Optimum {
            problem: ProblemName::of(problem),
            value,
            placement: pairs(witness),
        },
        sentences::optimum(problem, value, refuted),
    )
}

/// The placements found, each its own certificate.
fn placements_result(problem: &Problem, k: usize, list: &[Placement]) -> Option<RunResult> {
    result(
        Answer::Placements {
            problem: ProblemName::of(problem),
            k,
            placements: list.iter().map(pairs).collect(),
        },
        sentences::found(problem, k, list.len()),
    )
}

/// A complete count: `count` placements with bound `k`, `orbits` of them
/// up to symmetry; `optimal` when k is the optimum.
fn count_result(
    problem: &Problem,
    k: usize,
    count: u64,
    orbits: Option<u64>,
    optimal: bool,
) -> Option<RunResult> {
    let past = optimal.then(|| {
        if problem.kind.dominating() {
            k.checked_sub(1)
        } else {
            (k < problem.board.n_squares()).then_some(k + 1)
        }
    });
    result(
        Answer::Count {
            problem: ProblemName::of(problem),
            k,
            count,
            orbits,
            optimal,
        },
        sentences::counted(problem, k, count, orbits, past),
    )
}

/// Proves what [`boardsat_solve::task::solve::solve`] found: that no
/// placement with k pieces exists, or the bound one step past the optimum
/// (nothing more to prove when the domination splits proved their cubes
/// as they were found, or the optimum needs no proof). The run's result:
/// no placement, the optimum, or the placement found with k fixed (its
/// own certificate); none when nothing was found.
///
/// # Errors
///
/// [`ProofError`].
pub fn prove_solved(
    prover: &mut Prover,
    instance: &Instance,
    solved: &Solved,
) -> Result<Option<RunResult>, ProofError> {
    let problem = &instance.problem;
    match (instance.k, &solved.optimum) {
        (Some(k), _) if solved.status == Status::Unsat => {
            if !solved.certified {
                let words = sentences::no_placement(problem, k);
                prover.no_placement(claim(instance, k, ClaimSymmetry::Off, words), Vec::new())?;
            }
            Ok(result(
                Answer::NoPlacement {
                    problem: ProblemName::of(problem),
                    k,
                },
                sentences::no_placement(problem, k),
            ))
        }
        (Some(k), _) => Ok(solved
            .placement
            .as_ref()
            .filter(|_| solved.status == Status::Sat)
            .and_then(|p| placements_result(problem, k, std::slice::from_ref(p)))),
        (None, Some(optimum)) if optimum.proven => {
            if !solved.certified {
                prove_optimum(prover, instance, optimum)?;
            }
            Ok(optimum_result(problem, optimum.value, &optimum.witness))
        }
        _ => Ok(None),
    }
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
    let words = sentences::no_placement(problem, k);
    prover.no_placement(
        claim(instance, k, ClaimSymmetry::LexLeader, words),
        relies_on,
    )?;
    Ok(())
}

/// Proves what [`boardsat_solve::task::count::count`] found (counted with
/// [`boardsat_solve::search::count::Keep::Placements`]): without k the
/// optimum first, then that the placements counted are all there are — one
/// claim per cube for a cube count, with the split the cubes cover.
///
/// The run's result: the count (with its orbits under symmetry breaking,
/// and whether it counts the optimal placements), or the placements
/// found when it reached its limit; none when it was stopped (a traced
/// count's manifest then records what it had found).
///
/// # Errors
///
/// [`ProofError`].
pub fn prove_counted(
    prover: &mut Prover,
    instance: &Instance,
    counted: &Counted,
) -> Result<Option<RunResult>, ProofError> {
    let problem = &instance.problem;
    let k = instance.k.or(counted.optimum.as_ref().map(|o| o.value));
    let orbits = counted.fundamental;
    let optimal = instance.k.is_none();
    if counted.count.end == End::Stopped && counted.keep == Keep::Traced {
        // What the count found, beside what its proven cubes hold.
        prover.set_found(counted.count.count);
    }
    match (counted.count.end, k) {
        (End::Limit, Some(k)) => {
            let list: Vec<Placement> = counted
                .placements
                .iter()
                .flat_map(|(_, list)| list.iter().cloned())
                .collect();
            return Ok(placements_result(problem, k, &list));
        }
        (End::Exhausted, Some(_)) => {}
        _ => return Ok(None),
    }
    let whole = count_result(
        problem,
        k.unwrap_or(0),
        counted.count.count,
        orbits,
        optimal,
    );
    if counted.keep == Keep::Traced {
        // Proven cube by cube as it was counted; the optimum too, unless
        // its proof came from a call outside the certified splits.
        if let Some(optimum) = &counted.optimum {
            if optimum.proof().is_some_and(|c| !c.certified) {
                prove_optimum(prover, instance, optimum)?;
            }
        }
        return Ok(whole);
    }
    let k = match (instance.k, &counted.optimum) {
        (Some(k), _) => k,
        (None, Some(optimum)) => {
            prove_optimum(prover, instance, optimum)?;
            optimum.value
        }
        (None, None) => return Ok(None),
    };
    prove_placements(prover, instance, counted, k)?;
    Ok(whole)
}

/// The claims of a count that was not proven as it ran, with bound `k`:
/// that its placements are all there are — one claim per cube for a cube
/// count, after the cover of the split the cubes make.
fn prove_placements(
    prover: &mut Prover,
    instance: &Instance,
    counted: &Counted,
    k: usize,
) -> Result<(), ProofError> {
    let problem = &instance.problem;
    let orbits = counted.reduction == Reduction::Symmetry;
    let relies_on = count_relies_on(instance, k, orbits);
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
        ClaimSymmetry::LexLeader
    } else {
        ClaimSymmetry::Off
    };
    // The cover first: a run stopped while its cubes are proven leaves a
    // MANIFEST that says which cubes are missing.
    if let Some(cubes) = &counted.cubes {
        prover.set_cover(Cover {
            n: problem.board.rows(),
            depth: cubes.split.depth,
            halve: cubes.reduction == Reduction::Halve,
            count: counted.count.count,
        })?;
    }
    for (cube, list) in &counted.placements {
        let count = weight(list);
        let words = match cube {
            Some(c) => sentences::queens_cube(problem, k, count, &c.columns),
            None => sentences::complete(problem, k, count),
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
    Ok(())
}

/// What the claims of a count with bound `k` rely on: orbit weights when
/// it counted `orbits`, and without k the optimum claim before them.
fn count_relies_on(instance: &Instance, k: usize, orbits: bool) -> Vec<String> {
    let mut relies_on = Vec::new();
    if orbits {
        relies_on.push(ORBITS.to_string());
    }
    if instance.k.is_none() && instance.problem.kind.dominating() {
        relies_on.push(format!(
            "the optimum claim before this one: no placement has fewer than {k} pieces, so every solution has exactly {k} and the short blocking clauses miss none"
        ));
    }
    relies_on
}

/// Proves that the placements listed by an enumeration (recorded with
/// [`boardsat_solve::search::session::Session::record_blocked`]) are all
/// there are; without k, the optimum first. The run's result: the count
/// of the listing, or (`end` [`End::Limit`]) the placements listed, their
/// own certificate; none when it was stopped.
///
/// # Errors
///
/// [`ProofError`].
pub fn prove_listed(
    prover: &mut Prover,
    instance: &Instance,
    enumeration: &Enumeration,
    end: End,
) -> Result<Option<RunResult>, ProofError> {
    let session = enumeration.session();
    let problem = &instance.problem;
    let optimum = enumeration.optimum().filter(|o| o.proven);
    let Some(k) = instance.k.or(optimum.map(|o| o.value)) else {
        return Ok(None);
    };
    let list = session.blocked();
    match end {
        End::Exhausted => {}
        End::Limit => return Ok(placements_result(problem, k, list)),
        End::Stopped => return Ok(None),
    }
    if let (None, Some(optimum)) = (instance.k, optimum) {
        prove_optimum(prover, instance, optimum)?;
    }
    let count = list.len() as u64;
    let mut relies_on = Vec::new();
    if instance.k.is_none() && problem.kind.dominating() {
        relies_on.push(format!(
            "the optimum claim before this one: every solution has exactly {k} pieces"
        ));
    }
    let words = sentences::complete(problem, k, count);
    let blocking = session.blocking();
    let claim = claim(instance, k, ClaimSymmetry::Off, words);
    prover.complete(claim, list, blocking, count, None, relies_on)?;
    Ok(count_result(problem, k, count, None, instance.k.is_none()))
}

/// How a count of a DIMACS file is proven.
#[derive(Clone, Debug)]
pub enum DimacsProof {
    /// By the counting solver's own trace (CaDiCaL), which it feeds: no
    /// second run.
    Traced(SharedTrace),
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
            let trace = SharedTrace::new()?;
            tracer.start_trace(trace.sink())?;
            Ok(DimacsProof::Traced(trace))
        }
        None => Ok(DimacsProof::Rerun),
    }
}

/// Proves that the projected models in `witnesses` — each recorded as
/// the counting solver returned it — are all that `formula`, read from
/// `source`, has, the witnesses written beside the claim. The run's
/// result: the projected count.
///
/// # Errors
///
/// [`ProofError`].
pub fn prove_dimacs_count(
    prover: &mut Prover,
    how: DimacsProof,
    backend: &mut dyn Backend,
    formula: &Formula,
    source: &DimacsSource<'_>,
    witnesses: &mut Witnesses,
) -> Result<Option<RunResult>, ProofError> {
    let entry = match (how, backend.trace_proof()) {
        (DimacsProof::Traced(trace), Some(tracer)) => {
            tracer.stop_trace()?;
            let trace = trace.take()?;
            prover.traced_formula(trace, formula.n_vars, source, Some(witnesses))?
        }
        (DimacsProof::Traced(_), None) => {
            return Err(ProofError::Solve(SolveError::NoTracer {
                backend: backend.signature(),
            }))
        }
        (DimacsProof::Rerun, _) => prover.formula(formula, source, Some(witnesses))?,
    };
    let shown_source = entry.source.clone().unwrap_or_default();
    let count = entry.count.unwrap_or(0);
    let shown = sentences::source(&shown_source.0, source.icnf_cube);
    Ok(result(
        Answer::ProjectedCount {
            source: shown_source,
            icnf_cube: source.icnf_cube,
            count,
        },
        sentences::projected(&shown, count),
    ))
}

/// Proves that `formula`, read from `source`, is unsatisfiable
/// (`solve-dimacs`): the run's result.
///
/// # Errors
///
/// [`ProofError`].
pub fn prove_unsatisfiable(
    prover: &mut Prover,
    formula: &Formula,
    source: &DimacsSource<'_>,
) -> Result<Option<RunResult>, ProofError> {
    let entry = prover.formula(formula, source, None)?;
    let source = entry.source.clone().unwrap_or_default();
    let sentence = sentences::formula(&source.0);
    Ok(result(Answer::Unsatisfiable { source }, sentence))
}

/// Records the models found of `source`'s formula by a run whose result
/// needs no proof — a satisfiable `solve-dimacs`, a `count-dimacs` that
/// reached its limit —, each its own certificate: the run's result.
///
/// # Errors
///
/// The models cannot be written.
pub fn record_models(
    prover: &mut Prover,
    source: &DimacsSource<'_>,
    witnesses: &mut Witnesses,
) -> Result<Option<RunResult>, ProofError> {
    let models = prover.found_models(witnesses)?;
    let path = std::fs::canonicalize(source.path).unwrap_or_else(|_| source.path.to_path_buf());
    let shown = path.display().to_string();
    let count = witnesses.len();
    let sentence = sentences::models_found(&sentences::source(&shown, source.icnf_cube), count);
    Ok(result(
        Answer::Models {
            source: (shown, source.digest.to_string()),
            icnf_cube: source.icnf_cube,
            count,
            models,
        },
        sentence,
    ))
}
