//! The external backend against fake solvers (scripts in `tests/fake/`) and
//! against the real ones from Debian: cadical, minisat, picosat and
//! cryptominisat5. A real solver missing from `PATH` fails its tests unless
//! `BOARDSAT_SKIP_EXTERNAL=1`, which is then counted as a skip.

// The binary's tests' skip record, shared rather than copied.
#[path = "../../cli/tests/common/skip.rs"]
mod skip;

use std::{
    path::PathBuf,
    thread,
    time::{Duration, Instant},
};

use boardsat_encode::{Config, Problem};
use boardsat_solve::{
    backend::external::{parse_output, parse_result_file, ExternalAnswer, OutputStyle},
    Backend, External, ExternalError, Session, SolveError, Status,
};
use rustsat::types::{Lit, Var};

fn lit(dimacs: i32) -> Lit {
    Lit::from_ipasir(dimacs).expect("a valid literal")
}

fn var(dimacs: u32) -> Var {
    Var::new(dimacs - 1)
}

// ---------------------------------------------------------------- fakes

/// The path of a fake solver, quoted for the command line. The scripts are
/// run in place: writing an executable at run time races with other test
/// threads' forks (ETXTBSY).
fn fake(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fake")
        .join(name);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .permissions()
            .mode();
        assert!(
            mode & 0o111 != 0,
            "{} lost its executable bit (chmod +x tests/fake/*.sh)",
            path.display()
        );
    }
    format!("'{}'", path.display())
}

/// Runs `command` once on the formula x1 (a unit clause).
fn run_once(command: &str) -> (Result<Status, SolveError>, External) {
    let mut solver = External::new(command).unwrap_or_else(|e| panic!("{command}: {e}"));
    solver.add_clause(&[lit(1)]).unwrap();
    (solver.solve(&[]), solver)
}

/// The error of a call, which must name the command.
fn external_error(result: Result<Status, SolveError>, command: &str) -> ExternalError {
    match result {
        Err(SolveError::External(e)) => {
            assert!(
                e.to_string().contains(command),
                "the message does not name '{command}': {e}"
            );
            e
        }
        other => panic!("{command}: expected an external error, got {other:?}"),
    }
}

#[test]
fn a_solver_killed_by_a_signal_crashed() {
    let command = fake("crash.sh");
    let error = external_error(run_once(&command).0, &command);
    assert!(
        matches!(&error, ExternalError::Crashed { how, .. } if how.contains("SIGSEGV")),
        "{error}"
    );
    assert!(
        error.to_string().contains("about to crash"),
        "stderr is quoted: {error}"
    );
}

#[test]
fn an_odd_exit_code_without_status_crashed() {
    let command = fake("exit3.sh");
    let error = external_error(run_once(&command).0, &command);
    assert!(
        matches!(&error, ExternalError::Crashed { how, .. } if how.contains("exit code 3")),
        "{error}"
    );
    assert!(error.to_string().contains("cannot parse"), "{error}");
}

#[test]
fn exit_zero_and_silence_is_no_answer() {
    let command = fake("silent.sh");
    let error = external_error(run_once(&command).0, &command);
    assert!(matches!(error, ExternalError::NoAnswer { .. }), "{error}");
}

#[test]
fn garbage_is_reported_with_its_line() {
    let command = fake("garbage.sh");
    let error = external_error(run_once(&command).0, &command);
    assert!(
        matches!(&error, ExternalError::Garbage { line: 3, text, .. } if text == "s PROBABLY"),
        "{error}"
    );
}

#[test]
fn a_status_against_the_exit_code_is_a_contradiction() {
    let command = fake("contradiction.sh");
    let error = external_error(run_once(&command).0, &command);
    assert!(
        matches!(error, ExternalError::Contradiction { .. }),
        "{error}"
    );
}

#[test]
fn a_wrong_model_is_caught_by_the_model_check() {
    let command = fake("wrong_model.sh");
    let mut solver = External::new(&command).unwrap();
    solver.add_clause(&[lit(-2), lit(-3)]).unwrap();
    solver.add_clause(&[lit(1), lit(3)]).unwrap();
    let error = external_error(solver.solve(&[]), &command);
    assert!(
        matches!(&error, ExternalError::WrongModel { number: 2, clause, .. } if clause == "1 3 0"),
        "{error}"
    );
    // An assumption is checked too.
    let mut solver = External::new(&command).unwrap();
    solver.add_clause(&[lit(-1)]).unwrap();
    let error = external_error(solver.solve(&[lit(2)]), &command);
    assert!(
        matches!(&error, ExternalError::WrongModel { number: 2, clause, .. } if clause.contains("assumption")),
        "{error}"
    );
    assert!(matches!(solver.value(var(1)), Err(SolveError::NoModel)));
}

#[test]
fn a_hanging_solver_is_killed_by_the_time_limit() {
    let command = fake("hang.sh");
    let mut solver = External::new(&command).unwrap();
    solver.add_clause(&[lit(1)]).unwrap();
    solver
        .time_limit()
        .expect("external solvers take time limits")
        .set_time_limit(Some(Duration::from_secs(1)));
    let start = Instant::now();
    assert_eq!(solver.solve(&[]).unwrap(), Status::Unknown);
    let elapsed = start.elapsed();
    assert!(elapsed >= Duration::from_secs(1), "{elapsed:?}");
    assert!(elapsed < Duration::from_secs(4), "took {elapsed:?}");
    assert!(matches!(solver.value(var(1)), Err(SolveError::NoModel)));
}

#[test]
fn a_hanging_solver_is_killed_by_an_interrupt() {
    let command = fake("hang.sh");
    let mut solver = External::new(&command).unwrap();
    let interrupter = solver.interrupt().expect("interruptible").interrupter();
    let start = Instant::now();
    let trigger = thread::spawn(move || {
        thread::sleep(Duration::from_millis(200));
        interrupter.interrupt();
    });
    assert_eq!(solver.solve(&[]).unwrap(), Status::Unknown);
    assert!(
        start.elapsed() < Duration::from_secs(4),
        "{:?}",
        start.elapsed()
    );
    trigger.join().unwrap();
}

#[test]
fn a_missing_binary_is_not_found() {
    for command in ["boardsat-no-such-solver --flag", "/nonexistent/dir/solver"] {
        match External::new(command) {
            Err(SolveError::External(e @ ExternalError::NotFound { .. })) => {
                assert!(e.to_string().contains(command), "{e}");
            }
            other => panic!("{command}: {other:?}"),
        }
    }
}

#[test]
fn a_file_without_execute_permission_is_not_executable() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("solver.sh");
    std::fs::write(&path, "#!/bin/sh\necho 's SATISFIABLE'\n").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    let command = path.display().to_string();
    match External::new(&command) {
        Err(SolveError::External(e @ ExternalError::NotExecutable { .. })) => {
            assert!(e.to_string().contains(&command), "{e}");
        }
        other => panic!("{command}: {other:?}"),
    }
}

#[test]
fn placeholders_put_the_paths_anywhere() {
    let command = format!("{} -i {{input}} -o {{result}}", fake("placeholder.sh"));
    let (result, mut solver) = run_once(&command);
    assert_eq!(solver.output_style(), OutputStyle::ResultFile);
    assert_eq!(result.unwrap(), Status::Sat);
    assert!(solver.value(var(1)).unwrap());
    assert!(
        !solver.value(var(7)).unwrap(),
        "variables never seen are false"
    );
    assert!(solver.signature().contains("placeholder.sh"));
}

#[cfg(unix)]
#[test]
fn quoted_paths_with_spaces_work() {
    let dir = tempfile::tempdir().unwrap();
    let spaced = dir.path().join("a solver dir");
    std::fs::create_dir(&spaced).unwrap();
    let link = spaced.join("silent solver");
    let target = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fake/silent.sh");
    std::os::unix::fs::symlink(target, &link).unwrap();
    let command = format!("\"{}\"", link.display());
    // It ran, and said nothing.
    let error = external_error(run_once(&command).0, &link.display().to_string());
    assert!(matches!(error, ExternalError::NoAnswer { .. }), "{error}");
}

// ---------------------------------------------------------- real solvers

/// The solver `binary`, or `None` (after saying so) when it is missing and
/// `BOARDSAT_SKIP_EXTERNAL=1`; a missing solver otherwise fails the test.
fn real(binary: &str, package: &str) -> Option<External> {
    match External::new(binary) {
        Ok(solver) => Some(solver),
        Err(SolveError::External(ExternalError::NotFound { .. })) => {
            if std::env::var("BOARDSAT_SKIP_EXTERNAL").as_deref() == Ok("1") {
                skip::skipped(&format!(
                    "{binary} is not on PATH (BOARDSAT_SKIP_EXTERNAL=1)"
                ));
                None
            } else {
                panic!(
                    "{binary} is not on PATH: install it (Debian: apt-get install {package}), \
                     or set BOARDSAT_SKIP_EXTERNAL=1 to skip the real-solver tests"
                )
            }
        }
        Err(e) => panic!("{binary}: {e}"),
    }
}

fn assert_satisfies(solver: &mut External, clauses: &[Vec<i32>]) {
    for clause in clauses {
        let holds = clause.iter().any(|&l| {
            let value = solver.value(var(l.unsigned_abs())).unwrap();
            value == (l > 0)
        });
        assert!(holds, "{}: clause {clause:?} is false", solver.signature());
    }
}

fn add(solver: &mut External, clauses: &[Vec<i32>]) {
    for clause in clauses {
        let lits: Vec<Lit> = clause.iter().map(|&l| lit(l)).collect();
        solver.add_clause(&lits).unwrap();
    }
}

fn check_sat(mut solver: External) {
    let clauses = vec![
        vec![1, 2, 3],
        vec![-1, -2],
        vec![-2, -3],
        vec![-1, -3],
        vec![2, 4],
        vec![-4, 5],
    ];
    solver.reserve_vars(8);
    add(&mut solver, &clauses);
    assert_eq!(solver.solve(&[]).unwrap(), Status::Sat);
    assert_satisfies(&mut solver, &clauses);
}

/// Pigeonhole 3 into 2: pigeon p in hole h is variable 2p + h + 1.
fn check_unsat(mut solver: External) {
    let mut clauses = Vec::new();
    for p in 0..3 {
        clauses.push(vec![2 * p + 1, 2 * p + 2]);
    }
    for h in 0..2 {
        for p in 0..3 {
            for q in p + 1..3 {
                clauses.push(vec![-(2 * p + h + 1), -(2 * q + h + 1)]);
            }
        }
    }
    add(&mut solver, &clauses);
    assert_eq!(solver.solve(&[]).unwrap(), Status::Unsat);
    assert!(matches!(solver.value(var(1)), Err(SolveError::NoModel)));
}

fn check_incremental(mut solver: External) {
    add(&mut solver, &[vec![1, 2]]);
    assert_eq!(solver.solve(&[]).unwrap(), Status::Sat);
    add(&mut solver, &[vec![-1]]);
    assert!(
        matches!(solver.value(var(1)), Err(SolveError::NoModel)),
        "adding a clause ends the model"
    );
    assert_eq!(solver.solve(&[]).unwrap(), Status::Sat);
    assert!(!solver.value(var(1)).unwrap());
    assert!(solver.value(var(2)).unwrap());
    add(&mut solver, &[vec![-2]]);
    assert_eq!(solver.solve(&[]).unwrap(), Status::Unsat);
}

fn check_assumptions(mut solver: External) {
    let clauses = vec![vec![1, 2], vec![-1, -2]];
    add(&mut solver, &clauses);
    assert_eq!(solver.solve(&[lit(1)]).unwrap(), Status::Sat);
    assert!(solver.value(var(1)).unwrap());
    assert!(!solver.value(var(2)).unwrap());
    assert_eq!(solver.solve(&[lit(1), lit(2)]).unwrap(), Status::Unsat);
    // Assumptions hold for one call only.
    assert_eq!(solver.solve(&[]).unwrap(), Status::Sat);
    assert_eq!(solver.solve(&[lit(-1)]).unwrap(), Status::Sat);
    assert!(solver.value(var(2)).unwrap());
    // An assumption on a variable no clause mentions.
    assert_eq!(solver.solve(&[lit(5)]).unwrap(), Status::Sat);
    assert!(solver.value(var(5)).unwrap());
    assert_satisfies(&mut solver, &clauses);
}

/// 6-queens has 4 solutions (OEIS A000170).
fn check_queens(solver: External) {
    let problem = Problem::queens(6).unwrap();
    let mut session = Session::fixed(&problem, 6, Config::default(), Box::new(solver)).unwrap();
    assert_eq!(session.count(None, |_| {}).unwrap().count, 4);
}

macro_rules! real_solver {
    ($($module:ident: $binary:literal from $package:literal, $style:ident;)*) => {$(
        mod $module {
            use super::*;

            #[test]
            fn output_style() {
                if let Some(solver) = real($binary, $package) {
                    assert_eq!(solver.output_style(), OutputStyle::$style);
                }
            }

            #[test]
            fn sat() {
                if let Some(solver) = real($binary, $package) {
                    check_sat(solver);
                }
            }

            #[test]
            fn unsat() {
                if let Some(solver) = real($binary, $package) {
                    check_unsat(solver);
                }
            }

            #[test]
            fn incremental() {
                if let Some(solver) = real($binary, $package) {
                    check_incremental(solver);
                }
            }

            #[test]
            fn assumptions() {
                if let Some(solver) = real($binary, $package) {
                    check_assumptions(solver);
                }
            }

            #[test]
            fn six_queens() {
                if let Some(solver) = real($binary, $package) {
                    check_queens(solver);
                }
            }
        }
    )*};
}

real_solver! {
    cadical: "cadical" from "cadical", Competition;
    minisat: "minisat" from "minisat", ResultFile;
    picosat: "picosat" from "picosat", Competition;
    cryptominisat5: "cryptominisat5" from "cryptominisat", Competition;
}

// ------------------------------------------------------- output parsers

const CMD: &str = "fake";

fn sat(model: &[bool]) -> ExternalAnswer {
    ExternalAnswer {
        status: Status::Sat,
        model: Some(model.to_vec()),
    }
}

#[test]
fn sat_with_a_model_over_several_v_lines() {
    let out = "c hello\ns SATISFIABLE\nv 1 -2\nv 3\nv -4 0\n";
    let answer = parse_output(out, Some(10), 4, CMD).unwrap();
    assert_eq!(answer, sat(&[true, false, true, false]));
}

#[test]
fn partial_v_lines_leave_the_rest_false() {
    let answer = parse_output("s SATISFIABLE\nv 3 0\n", Some(10), 5, CMD).unwrap();
    assert_eq!(answer, sat(&[false, false, true, false, false]));
    // No closing 0, exit code unknown, CRLF line ends.
    let answer = parse_output("s SATISFIABLE\r\nv -1 2\r\n", None, 2, CMD).unwrap();
    assert_eq!(answer, sat(&[false, true]));
}

#[test]
fn unsat_and_unknown() {
    let answer = parse_output("c x\ns UNSATISFIABLE\n", Some(20), 3, CMD).unwrap();
    assert_eq!(answer.status, Status::Unsat);
    assert_eq!(answer.model, None);
    let answer = parse_output("s UNKNOWN\n", Some(0), 3, CMD).unwrap();
    assert_eq!(answer.status, Status::Unknown);
    // The exit code alone is an answer.
    assert_eq!(
        parse_output("", Some(20), 3, CMD).unwrap().status,
        Status::Unsat
    );
    // A status line overrides an odd exit code.
    assert_eq!(
        parse_output("s UNSATISFIABLE\n", Some(1), 3, CMD)
            .unwrap()
            .status,
        Status::Unsat
    );
}

#[test]
fn garbage_names_the_line() {
    let err = parse_output("c a\nc b\ns MAYBE\n", Some(10), 3, CMD).unwrap_err();
    assert!(
        matches!(err, ExternalError::Garbage { line: 3, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("line 3"), "{err}");
    assert!(err.to_string().contains("'fake'"), "{err}");

    let err = parse_output("s SATISFIABLE\nv 1 x2 0\n", Some(10), 3, CMD).unwrap_err();
    assert!(
        matches!(err, ExternalError::Garbage { line: 2, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("'x2' is not an integer"), "{err}");

    let err = parse_output("s SATISFIABLE\nv 1 0\nv 2 0\n", Some(10), 3, CMD).unwrap_err();
    assert!(
        matches!(err, ExternalError::Garbage { line: 3, .. }),
        "{err}"
    );

    let err = parse_output("s\n", None, 3, CMD).unwrap_err();
    assert!(
        matches!(err, ExternalError::Garbage { line: 1, .. }),
        "{err}"
    );

    let huge = "s SATISFIABLE\nv 99999999999999999999999 0\n";
    let err = parse_output(huge, Some(10), 3, CMD).unwrap_err();
    assert!(
        matches!(err, ExternalError::Garbage { line: 2, .. }),
        "{err}"
    );
}

#[test]
fn contradictions() {
    let cases = [
        ("s UNSATISFIABLE\n", Some(10), "exit code 10"),
        ("s SATISFIABLE\nv 1 0\n", Some(20), "exit code 20"),
        ("s UNKNOWN\n", Some(10), "exit code 10"),
        (
            "s SATISFIABLE\ns UNSATISFIABLE\n",
            None,
            "line 1 and UNSATISFIABLE on line 2",
        ),
        (
            "s SATISFIABLE\nv 1 4 0\n",
            Some(10),
            "beyond the 3 variables",
        ),
        (
            "s SATISFIABLE\nv -4 0\n",
            Some(10),
            "beyond the 3 variables",
        ),
        (
            "s SATISFIABLE\nv 2\nv -2 0\n",
            Some(10),
            "variable 2 both ways (line 2 and line 3",
        ),
        ("s UNSATISFIABLE\nv 1 0\n", Some(20), "line 2"),
    ];
    for (out, exit, needle) in cases {
        let err = parse_output(out, exit, 3, CMD).unwrap_err();
        assert!(
            matches!(err, ExternalError::Contradiction { .. }),
            "{out:?}: {err}"
        );
        assert!(err.to_string().contains(needle), "{out:?}: {err}");
    }
    // Repeating the same status is not a contradiction.
    assert!(parse_output("s UNSATISFIABLE\ns UNSATISFIABLE\n", Some(20), 1, CMD).is_ok());
}

#[test]
fn no_answer_crash_and_missing_model() {
    let err = parse_output("c thinking\n", Some(0), 3, CMD).unwrap_err();
    assert!(matches!(err, ExternalError::NoAnswer { .. }), "{err}");
    let err = parse_output("", None, 3, CMD).unwrap_err();
    assert!(matches!(err, ExternalError::NoAnswer { .. }), "{err}");
    let err = parse_output("oops\n", Some(134), 3, CMD).unwrap_err();
    assert!(matches!(err, ExternalError::Crashed { .. }), "{err}");
    assert!(err.to_string().contains("exit code 134"), "{err}");
    let err = parse_output("s SATISFIABLE\n", Some(10), 3, CMD).unwrap_err();
    assert!(matches!(err, ExternalError::MissingModel { .. }), "{err}");
    // minisat's stdout: a bare word is chatter, so exit 10 lacks a model.
    let err = parse_output("SATISFIABLE\n", Some(10), 3, CMD).unwrap_err();
    assert!(matches!(err, ExternalError::MissingModel { .. }), "{err}");
}

#[test]
fn minisat_result_files() {
    let answer = parse_result_file("SAT\n1 -2 3 0\n", Some(10), 4, CMD).unwrap();
    assert_eq!(answer, sat(&[true, false, true, false]));
    // minisat leaves the final newline out when the model is short.
    let answer = parse_result_file("SAT\n-1 0", Some(10), 2, CMD).unwrap();
    assert_eq!(answer, sat(&[false, false]));
    let answer = parse_result_file("UNSAT\n", Some(20), 4, CMD).unwrap();
    assert_eq!(answer.status, Status::Unsat);
    let answer = parse_result_file("INDET\n", Some(0), 4, CMD).unwrap();
    assert_eq!(answer.status, Status::Unknown);

    let err = parse_result_file("", Some(0), 4, CMD).unwrap_err();
    assert!(matches!(
        err,
        ExternalError::NoAnswer {
            source_kind: OutputStyle::ResultFile,
            ..
        }
    ));
    let err = parse_result_file("MAYBE\n", Some(10), 4, CMD).unwrap_err();
    assert!(
        matches!(err, ExternalError::Garbage { line: 1, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("result file"), "{err}");
    let err = parse_result_file("SAT\n1 two 0\n", Some(10), 4, CMD).unwrap_err();
    assert!(
        matches!(err, ExternalError::Garbage { line: 2, .. }),
        "{err}"
    );
    let err = parse_result_file("UNSAT\n", Some(10), 4, CMD).unwrap_err();
    assert!(matches!(err, ExternalError::Contradiction { .. }), "{err}");
    let err = parse_result_file("SAT\n1 -1 0\n", Some(10), 4, CMD).unwrap_err();
    assert!(matches!(err, ExternalError::Contradiction { .. }), "{err}");
    let err = parse_result_file("SAT\n", Some(10), 4, CMD).unwrap_err();
    assert!(matches!(err, ExternalError::MissingModel { .. }), "{err}");
}
