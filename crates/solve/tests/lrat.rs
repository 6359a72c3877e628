//! LRAT proofs written by the embedded CaDiCaL, checked by boardsat-lrat:
//! which ids CaDiCaL gives original clauses, which options keep proofs
//! checkable, and random UNSAT formulas (with corrupted proofs checked
//! against a naive oracle that ignores hints).
#![cfg(feature = "cadical")]

#[path = "../../lrat/tests/oracle/mod.rs"]
mod oracle;

use std::path::{Path, PathBuf};

use boardsat_encode::{Config, Problem};
use boardsat_lrat::{check, EmptyClause, Error, StepProblem, Summary, Syntax};
use boardsat_solve::{Backend, Cadical, Status};
use proptest::prelude::*;
use rustsat::instances::Cnf;
use rustsat::types::Lit;

/// How the formula reaches the solver.
#[derive(Clone, Copy, Debug)]
enum Load {
    /// `Backend::add_clause`, one clause at a time.
    Clauses,
    /// `Cadical::read_dimacs` of a file written here.
    Dimacs,
}

/// The solvers of both profiles.
fn profiles() -> [fn() -> Cadical; 2] {
    [Cadical::new, Cadical::for_enumeration]
}

fn write_dimacs(path: &Path, formula: &[Vec<i32>], comments: &str) {
    let n_vars = formula.iter().flatten().map(|l| l.abs()).max().unwrap_or(0);
    let mut text = format!("{comments}p cnf {n_vars} {}\n", formula.len());
    for clause in formula {
        for lit in clause {
            text += &format!("{lit} ");
        }
        text += "0\n";
    }
    std::fs::write(path, text).unwrap();
}

/// Solves `formula` on `solver` (fresh), traced; the answer and the proof.
fn prove(formula: &[Vec<i32>], mut solver: Cadical, load: Load) -> (Status, String) {
    let dir = tempfile::tempdir().unwrap();
    let proof = dir.path().join("proof.lrat");
    solver.trace_proof(&proof).unwrap();
    match load {
        Load::Clauses => {
            for clause in formula {
                let lits: Vec<Lit> = clause
                    .iter()
                    .map(|&l| Lit::from_ipasir(l).unwrap())
                    .collect();
                solver.add_clause(&lits).unwrap();
            }
        }
        Load::Dimacs => {
            let cnf = dir.path().join("formula.cnf");
            write_dimacs(&cnf, formula, "c a formula\n");
            solver.read_dimacs(&cnf).unwrap();
        }
    }
    let status = solver.solve(&[]).unwrap();
    solver.close_proof().unwrap();
    (status, std::fs::read_to_string(&proof).unwrap())
}

/// Proves `formula` unsatisfiable on `solver` and checks the proof.
fn proved(formula: &[Vec<i32>], solver: Cadical, load: Load) -> Summary {
    let (status, proof) = prove(formula, solver, load);
    assert_eq!(status, Status::Unsat);
    check(formula, proof.as_bytes(), Syntax::Text)
        .unwrap_or_else(|e| panic!("{e}\n{load:?}\n{proof}"))
}

/// A solver with CaDiCaL's option `name` set to `value`.
fn with_option(name: &str, value: i32) -> Cadical {
    let mut solver = Cadical::new();
    solver
        .set_option(name, value)
        .unwrap_or_else(|e| panic!("{name}={value}: {e}"));
    solver
}

/// The pigeonhole formula: n + 1 pigeons, n holes.
fn pigeonhole(n: i32) -> Vec<Vec<i32>> {
    let var = |pigeon: i32, hole: i32| pigeon * n + hole + 1;
    let mut formula: Vec<Vec<i32>> = (0..=n)
        .map(|p| (0..n).map(|h| var(p, h)).collect())
        .collect();
    for h in 0..n {
        for a in 0..=n {
            for b in a + 1..=n {
                formula.push(vec![-var(a, h), -var(b, h)]);
            }
        }
    }
    formula
}

fn to_dimacs(cnf: &Cnf) -> Vec<Vec<i32>> {
    cnf.iter()
        .map(|clause| clause.iter().map(|l| l.to_ipasir()).collect())
        .collect()
}

#[test]
fn original_clauses_get_the_ids_1_to_m_in_the_order_added() {
    // Pigeonhole 3 with, interleaved: a unit, a tautology, a clause the
    // unit satisfies, a repeated clause, clauses over fresh variables.
    let php = pigeonhole(3);
    let mut formula = vec![vec![20], vec![21, -21], php[0].clone()];
    formula.extend(php[1..6].iter().cloned());
    formula.push(vec![20, 1, 2]);
    formula.push(php[2].clone());
    formula.push(vec![22, 23]);
    formula.extend(php[6..].iter().cloned());
    let summary = proved(&formula, Cadical::new(), Load::Clauses);
    assert!(matches!(summary.empty_clause, EmptyClause::Derived { .. }));
    // The ids matter: without the unit in front every id is off by one,
    // and the same proof no longer checks.
    let (_, proof) = prove(&formula, Cadical::new(), Load::Clauses);
    assert!(check(&formula[1..], proof.as_bytes(), Syntax::Text).is_err());
}

#[test]
fn clauses_added_in_one_sequence_of_add_calls_are_numbered_alike() {
    let formula = pigeonhole(3);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("proof.lrat");
    let mut solver = Cadical::new();
    solver.trace_proof(&path).unwrap();
    for lit in formula.iter().flat_map(|c| c.iter().copied().chain([0])) {
        solver.raw().add(lit);
    }
    assert_eq!(solver.solve(&[]).unwrap(), Status::Unsat);
    solver.close_proof().unwrap();
    let proof = std::fs::read_to_string(&path).unwrap();
    check(&formula, proof.as_bytes(), Syntax::Text).unwrap();
}

#[test]
fn the_empty_clause_in_the_formula_takes_its_id_and_needs_no_proof() {
    let formula = vec![vec![1, 2], vec![], vec![-1]];
    for load in [Load::Clauses, Load::Dimacs] {
        let (status, proof) = prove(&formula, Cadical::new(), load);
        assert_eq!(status, Status::Unsat);
        let summary = check(&formula, proof.as_bytes(), Syntax::Text).unwrap();
        assert_eq!(summary.empty_clause, EmptyClause::InFormula { id: 2 });
    }
}

/// CaDiCaL shortens a clause with a repeated literal, or with a literal
/// that an earlier unit falsified, into a derived clause that takes the
/// next id: every later original clause moves up by one. Reading the
/// formula from DIMACS reserves 1..m for the original clauses instead.
#[test]
fn a_clause_shortened_on_addition_takes_the_next_id_unless_read_from_dimacs() {
    let shortened_by_unit = vec![vec![1], vec![-1, 2], vec![-2, 3], vec![-3, -2]];
    let repeated_literal = vec![vec![1, 1, 2], vec![-1, 2], vec![1, -2], vec![-1, -2]];
    for (formula, first_line) in [
        // (¬x1 ∨ x2) with x1 fixed: x2, derived from 1 and 2, as id 3.
        (&shortened_by_unit, "3 2 0 1 2 0"),
        // (x1 ∨ x1 ∨ x2) becomes (x1 ∨ x2), id 2.
        (&repeated_literal, "2 1 2 0 1 0"),
    ] {
        let (status, proof) = prove(formula, Cadical::new(), Load::Clauses);
        assert_eq!(status, Status::Unsat);
        assert_eq!(proof.lines().next(), Some(first_line), "{proof}");
        let error = check(formula, proof.as_bytes(), Syntax::Text).unwrap_err();
        assert!(
            matches!(
                error,
                Error::Step {
                    problem: StepProblem::IdNotIncreasing { .. } | StepProblem::IdReused { .. },
                    ..
                }
            ),
            "{error}"
        );
        proved(formula, Cadical::new(), Load::Dimacs);
    }
}

#[test]
fn pigeonhole_proofs_check_with_both_profiles_and_both_loads() {
    for n in 1..=6 {
        for solver in profiles() {
            for load in [Load::Clauses, Load::Dimacs] {
                let summary = proved(&pigeonhole(n), solver(), load);
                assert!(summary.n_additions >= 1);
            }
        }
    }
}

#[test]
fn proofs_check_with_options_that_change_the_search() {
    // Preprocessing, inprocessing and backtracking options, each away from
    // its default, on a formula big enough to reach them (pigeonhole 7,
    // ~0.1 s).
    let options: [(&str, i32); 12] = [
        ("block", 1),
        ("cover", 1),
        ("condition", 1),
        ("instantiate", 1),
        ("chrono", 2),
        ("ilb", 2),
        ("elim", 0),
        ("probe", 0),
        ("vivify", 0),
        ("shrink", 0),
        ("lucky", 0),
        ("inprocessing", 0),
    ];
    let formula = pigeonhole(7);
    for (name, value) in options {
        proved(&formula, with_option(name, value), Load::Dimacs);
    }
}

#[test]
fn queens_2_and_3_have_checked_proofs_that_no_placement_exists() {
    for n in [2, 3] {
        let problem = Problem::queens(n).unwrap();
        let mut vars = problem.var_manager();
        let mut cnf = Cnf::new();
        problem
            .encode(n, Config::default(), &mut cnf, &mut vars)
            .unwrap();
        let formula = to_dimacs(&cnf);
        for solver in profiles() {
            proved(&formula, solver(), Load::Dimacs);
        }
    }
}

#[test]
fn a_binary_proof_checks_like_the_text_one() {
    let formula = pigeonhole(5);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("proof.lrat");
    let mut solver = Cadical::new();
    // The raw API: `trace_proof` always writes text.
    assert!(solver.raw().set("lrat", 1) && solver.raw().set("binary", 1));
    assert!(solver.raw().trace_proof2(path.to_str().unwrap()));
    let cnf = dir.path().join("formula.cnf");
    write_dimacs(&cnf, &formula, "");
    solver.read_dimacs(&cnf).unwrap();
    assert_eq!(solver.solve(&[]).unwrap(), Status::Unsat);
    solver.raw().close_proof_trace(false);
    let bytes = std::fs::read(&path).unwrap();
    let binary = check(&formula, &bytes[..], Syntax::Detect).unwrap();
    let (_, text_proof) = prove(&formula, Cadical::new(), Load::Dimacs);
    let text = check(&formula, text_proof.as_bytes(), Syntax::Detect).unwrap();
    // The same search, so the same steps.
    assert_eq!(
        (binary.n_steps, binary.n_additions, binary.n_hints),
        (text.n_steps, text.n_additions, text.n_hints)
    );
    assert!(bytes.len() < text_proof.len());
}

#[test]
fn an_unsat_answer_under_assumptions_is_no_refutation() {
    // Pigeonhole 4 without the last pigeon's clause is satisfiable; with
    // the last pigeon assumed into hole 1 it is not, but the proof holds
    // no empty clause, and the checker says so.
    let mut formula = pigeonhole(4);
    let last = formula.remove(4);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("proof.lrat");
    let mut solver = Cadical::new();
    solver.trace_proof(&path).unwrap();
    let cnf = dir.path().join("formula.cnf");
    write_dimacs(&cnf, &formula, "");
    solver.read_dimacs(&cnf).unwrap();
    let assumption = Lit::from_ipasir(last[0]).unwrap();
    assert_eq!(solver.solve(&[assumption]).unwrap(), Status::Unsat);
    solver.close_proof().unwrap();
    let proof = std::fs::read_to_string(&path).unwrap();
    assert!(matches!(
        check(&formula, proof.as_bytes(), Syntax::Text),
        Err(Error::NoEmptyClause { .. })
    ));
}

#[test]
fn dropping_the_solver_closes_the_proof() {
    let formula = pigeonhole(4);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("proof.lrat");
    {
        let mut solver = Cadical::new();
        solver.trace_proof(&path).unwrap();
        let cnf = dir.path().join("formula.cnf");
        write_dimacs(&cnf, &formula, "");
        solver.read_dimacs(&cnf).unwrap();
        assert_eq!(solver.solve(&[]).unwrap(), Status::Unsat);
    }
    let proof = std::fs::read_to_string(&path).unwrap();
    check(&formula, proof.as_bytes(), Syntax::Text).unwrap();
}

#[test]
fn trace_proof_and_close_proof_refuse_misuse_without_panicking() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("proof.lrat");
    let message = |e: boardsat_solve::SolveError| e.to_string();

    let mut solver = Cadical::new();
    assert!(message(solver.close_proof().unwrap_err()).ends_with("no proof file is open"));
    let missing = PathBuf::from("/nonexistent/directory/proof.lrat");
    assert!(message(solver.trace_proof(&missing).unwrap_err()).contains("cannot write"));
    solver.trace_proof(&path).unwrap();
    assert!(message(solver.trace_proof(&path).unwrap_err()).contains("already traced"));
    solver.close_proof().unwrap();
    assert!(solver.close_proof().is_err());

    let mut late = Cadical::new();
    late.add_clause(&[Lit::from_ipasir(1).unwrap()]).unwrap();
    assert!(message(late.trace_proof(&path).unwrap_err()).contains("before any clause"));
    let cnf = dir.path().join("formula.cnf");
    write_dimacs(&cnf, &[vec![1]], "");
    assert!(late.read_dimacs(&cnf).is_err());
}

#[test]
fn read_dimacs_refuses_comments_that_cadical_would_read_as_options() {
    let dir = tempfile::tempdir().unwrap();
    let cnf = dir.path().join("formula.cnf");
    for (comment, refused) in [
        ("c --elim=0\n", true),
        ("c   x --no-elim\n", true),
        ("c command line: boardsat solve --seed=3\n", true),
        (
            "c command line: boardsat dimacs queens 8 -k 4 --amo ladder\n",
            false,
        ),
        ("c command line: boardsat solve --seed 3\n", false),
        ("c --nonsense=1\n", false),
    ] {
        write_dimacs(&cnf, &pigeonhole(2), comment);
        let result = Cadical::new().read_dimacs(&cnf);
        assert_eq!(result.is_err(), refused, "{comment}: {result:?}");
        if let Err(e) = result {
            assert!(e.to_string().contains("line 1: CaDiCaL would read"), "{e}");
        }
    }
}

/// A random 3-CNF over `n_vars` variables (literals may repeat).
fn random_cnf(seed: u64, n_vars: i32, n_clauses: usize) -> Vec<Vec<i32>> {
    // xorshift64*: deterministic, no dependency.
    let mut state = seed | 1;
    let mut next = move || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33
    };
    (0..n_clauses)
        .map(|_| {
            (0..3)
                .map(|_| {
                    let var = (next() % n_vars as u64) as i32 + 1;
                    if next() % 2 == 0 {
                        var
                    } else {
                        -var
                    }
                })
                .collect()
        })
        .collect()
}

/// An UNSAT random formula and its proof: the first of a few seeds from
/// `seed` whose formula is UNSAT (at 6–7 clauses per variable nearly all).
fn random_refutation(seed: u64, n_vars: i32, load: Load) -> Option<(Vec<Vec<i32>>, String)> {
    (0..8).find_map(|i| {
        let formula = random_cnf(seed.wrapping_add(i), n_vars, 7 * n_vars as usize);
        match prove(&formula, Cadical::new(), load) {
            (Status::Unsat, proof) => Some((formula, proof)),
            _ => None,
        }
    })
}

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(64)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn random_unsat_formulas_have_proofs_that_check(seed in any::<u64>(), n_vars in 3i32..=12) {
        if let Some((formula, proof)) = random_refutation(seed, n_vars, Load::Dimacs) {
            let checked = check(&formula, proof.as_bytes(), Syntax::Text);
            prop_assert!(checked.is_ok(), "{checked:?}\n{formula:?}\n{proof}");
            prop_assert!(oracle::check(&formula, &proof).is_ok());
        }
    }

    /// One token of a CaDiCaL proof replaced, dropped, duplicated or made
    /// `d`: the checker rejects it, or the corrupted proof is still valid
    /// by the oracle.
    #[test]
    fn corrupted_proofs_are_rejected_or_still_valid(
        seed in any::<u64>(),
        n_vars in 3i32..=12,
        position in any::<prop::sample::Index>(),
        edit in 0u8..4,
        number in -40i64..40,
    ) {
        if let Some((formula, proof)) = random_refutation(seed, n_vars, Load::Dimacs) {
            let mut tokens: Vec<String> = proof
                .lines()
                .flat_map(|l| l.split(' ').map(str::to_string).chain(["\n".to_string()]))
                .collect();
            let i = position.index(tokens.len());
            match edit {
                0 => tokens[i] = number.to_string(),
                1 => {
                    tokens.remove(i);
                }
                2 => {
                    let token = tokens[i].clone();
                    tokens.insert(i, token);
                }
                _ => tokens[i] = "d".to_string(),
            }
            let corrupted = tokens.join(" ");
            if check(&formula, corrupted.as_bytes(), Syntax::Text).is_ok() {
                prop_assert!(
                    oracle::check(&formula, &corrupted).is_ok(),
                    "accepted an invalid proof:\n{corrupted}"
                );
            }
        }
    }
}
