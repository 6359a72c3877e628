//! LRAT proofs traced by the solver that does the work (`trace`, fed by
//! CaDiCaL through `backend::TraceProof`):
//! the formula it writes is every clause the solver got, in order, and the
//! proof checks against it with boardsat's own checker — after a single
//! call, and after a count that added blocking clauses between calls.
#![cfg(feature = "cadical")]

use std::path::Path;

use boardsat_encode::{Board, Config, Kind, Piece, Problem};
use boardsat_lrat::{check, Syntax};
use boardsat_proof::{
    compress::open_proof,
    trace::{Compression, ProofFormat, SharedTrace, TraceSummary},
};
use boardsat_solve::{
    backend::{cadical::Cadical, Backend, Status, TraceProof},
    formula::dimacs,
    search::session::{Breaking, Session},
};
use rustsat::types::Lit;

/// A fresh LRAT trace for a solver to feed, kept by the test.
fn trace() -> SharedTrace {
    SharedTrace::new().unwrap()
}

fn lit(l: i32) -> Lit {
    Lit::from_ipasir(l).expect("a literal")
}

/// The pigeonhole formula: n + 1 pigeons, n holes.
fn pigeonhole(n: i32) -> Vec<Vec<i32>> {
    let var = |pigeon: i32, hole: i32| pigeon * n + hole + 1;
    let mut formula: Vec<Vec<i32>> = (0..=n)
        .map(|p| (0..n).map(|h| var(p, h)).collect())
        .collect();
    for h in 0..n {
        for p in 0..=n {
            for q in p + 1..=n {
                formula.push(vec![-var(p, h), -var(q, h)]);
            }
        }
    }
    formula
}

/// The formula file's clauses, as DIMACS literals.
fn formula_of(path: &Path) -> Vec<Vec<i32>> {
    let text = std::fs::read(path).unwrap();
    let f = dimacs::parse(text.as_slice()).unwrap();
    f.clauses
        .iter()
        .map(|c| c.iter().map(|l| l.to_ipasir()).collect())
        .collect()
}

/// Checks `proof` (compressed or not) against `formula` with
/// boardsat-lrat.
fn verified(formula: &Path, proof: &Path, format: ProofFormat) -> u64 {
    let clauses = formula_of(formula);
    let file = open_proof(std::fs::File::open(proof).unwrap()).unwrap();
    let format = match format {
        ProofFormat::LratText => Syntax::Text,
        ProofFormat::LratBinary => Syntax::Binary,
    };
    check(clauses, file, format)
        .unwrap_or_else(|e| panic!("{}: {e}", proof.display()))
        .n_steps
}

fn finish(
    solver: &mut dyn Backend,
    trace: SharedTrace,
    dir: &Path,
    format: ProofFormat,
) -> (TraceSummary, std::path::PathBuf, std::path::PathBuf) {
    finish_stored(solver, trace, dir, format, Compression::None)
}

fn finish_stored(
    solver: &mut dyn Backend,
    trace: SharedTrace,
    dir: &Path,
    format: ProofFormat,
    compression: Compression,
) -> (TraceSummary, std::path::PathBuf, std::path::PathBuf) {
    let (cnf, lrat) = (dir.join("f.cnf"), dir.join("f.lrat"));
    let header = vec!["traced by a test".to_string()];
    solver
        .trace_proof()
        .expect("CaDiCaL traces")
        .stop_trace()
        .unwrap();
    let summary = trace
        .take()
        .unwrap()
        .finish(&cnf, &lrat, &header, 0, format, compression)
        .unwrap();
    (summary, cnf, lrat)
}

#[test]
fn a_refutation_checks_in_both_formats_with_either_option_set() {
    for (format, compression) in [ProofFormat::LratText, ProofFormat::LratBinary]
        .into_iter()
        .flat_map(|f| Compression::ALL.map(|c| (f, c)))
    {
        for make in [Cadical::new, Cadical::for_enumeration] {
            for n in [3, 4, 5] {
                let dir = tempfile::tempdir().unwrap();
                let mut solver = make();
                let trace = trace();
                solver.start_trace(trace.sink()).unwrap();
                let formula = pigeonhole(n);
                for clause in &formula {
                    let c: Vec<Lit> = clause.iter().map(|&l| lit(l)).collect();
                    solver.add_clause(&c).unwrap();
                }
                assert_eq!(solver.solve(&[]).unwrap(), Status::Unsat);
                let (summary, cnf, lrat) =
                    finish_stored(&mut solver, trace, dir.path(), format, compression);
                assert!(summary.refutes);
                let on_disk = std::fs::metadata(&lrat).unwrap().len();
                assert_eq!(summary.proof_bytes, on_disk, "{format:?} {compression:?}");
                assert_eq!(
                    formula_of(&cnf),
                    formula,
                    "the formula is what the solver got"
                );
                assert!(verified(&cnf, &lrat, format) > 0);
            }
        }
    }
}

/// Every model of 6-queens blocked between calls until UNSAT: the formula
/// holds the blocking clauses in order, and the proof refutes it.
#[test]
fn a_count_by_blocking_clauses_is_refuted_with_its_blocking_clauses() {
    for make in [Cadical::new, Cadical::for_enumeration] {
        let dir = tempfile::tempdir().unwrap();
        let problem = Problem::queens(6).unwrap();
        let mut solver = Box::new(make());
        let trace = trace();
        solver.start_trace(trace.sink()).unwrap();
        let mut session = Session::fixed(&problem, 6, Config::default(), solver).unwrap();
        session.record_blocked();
        let count = session.count(None, |_| {}).unwrap();
        assert_eq!(count.count, 4);
        let blocked = session.blocked().len();
        let (summary, cnf, lrat) =
            finish(session.backend(), trace, dir.path(), ProofFormat::LratText);
        assert!(summary.refutes);
        let clauses = formula_of(&cnf);
        assert_eq!(summary.n_clauses as usize, clauses.len());
        // The last clauses are the blocking ones: each forbids a placement
        // of exactly 6 queens.
        for clause in &clauses[clauses.len() - blocked..] {
            assert!(
                clause.iter().all(|&l| l < 0) && clause.len() == 6,
                "{clause:?}"
            );
        }
        verified(&cnf, &lrat, ProofFormat::LratText);
    }
}

/// A minimum-dominating-set count under lex-leader constraints, as a cube
/// count runs it.
#[test]
fn a_domination_count_under_symmetry_breaking_is_refuted() {
    let dir = tempfile::tempdir().unwrap();
    let problem = Problem::new(Board::square(5).unwrap(), Piece::Queen, Kind::Domination);
    let mut solver = Box::new(Cadical::for_enumeration());
    let trace = trace();
    solver.start_trace(trace.sink()).unwrap();
    let mut session = Session::fixed(&problem, 3, Config::default(), solver).unwrap();
    session.break_symmetry(Breaking::Hard).unwrap();
    session.assume_uniform_size();
    let count = session.count(None, |_| {}).unwrap();
    assert_eq!(count.count, 186, "A002564(5)");
    let (summary, cnf, lrat) = finish(
        session.backend(),
        trace,
        dir.path(),
        ProofFormat::LratBinary,
    );
    assert!(summary.refutes);
    verified(&cnf, &lrat, ProofFormat::LratBinary);
}

/// The proof is really checked: one hint changed, or one clause of the
/// formula dropped, and the checker rejects it.
#[test]
fn a_changed_proof_or_formula_is_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let mut solver = Cadical::for_enumeration();
    let trace = trace();
    solver.start_trace(trace.sink()).unwrap();
    let formula = pigeonhole(4);
    for clause in &formula {
        let c: Vec<Lit> = clause.iter().map(|&l| lit(l)).collect();
        solver.add_clause(&c).unwrap();
    }
    assert_eq!(solver.solve(&[]).unwrap(), Status::Unsat);
    let (_, cnf, lrat) = finish(&mut solver, trace, dir.path(), ProofFormat::LratText);
    let text = std::fs::read_to_string(&lrat).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let line = lines.iter().position(|l| !l.contains(" d ")).unwrap();
    let mut words: Vec<String> = lines[line].split(' ').map(str::to_string).collect();
    let last_hint = words.len() - 2;
    words[last_hint] = "1".to_string();
    let mut changed = lines.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    changed[line] = words.join(" ");
    let clauses = formula_of(&cnf);
    assert!(check(clauses.clone(), changed.join("\n").as_bytes(), Syntax::Text).is_err());
    let fewer = clauses[1..].to_vec();
    assert!(check(fewer, text.as_bytes(), Syntax::Text).is_err());
}

/// Tracing starts before the first clause or not at all.
#[test]
fn tracing_after_a_clause_is_refused() {
    let mut solver = Cadical::new();
    solver.add_clause(&[lit(1)]).unwrap();
    assert!(solver.start_trace(trace().sink()).is_err());
    let mut fresh = Cadical::new();
    assert!(fresh.stop_trace().is_err());
}
