//! Outside solvers' answers to the OPB, WCNF and LP files: every style
//! read, every lie caught — a wrong placement, an objective value that is
//! not the placement's, a status that contradicts itself — and claims
//! reported as claims.

use boardsat_encode::{
    dimacs::Format,
    export::{
        solution::{check, parse, read_provenance, Claim, SolutionError, SolutionVerdict, Style},
        Provenance,
    },
    linear::{Goal, Sense},
    Board, Bound, Kind, Piece, Problem, Request,
};
use boardsat_solve::{
    stop::Interrupter,
    task::{export::export, Encodings, Instance},
};
use proptest::prelude::*;

/// The file `dimacs family n [-k K] --format format` writes, and its
/// provenance read back.
fn exported(family: &str, n: usize, k: Option<usize>, format: Format) -> (String, Provenance) {
    let request = Request {
        k,
        ..Request::new(family.parse().unwrap(), n)
    };
    let instance = Instance::new(&request, Encodings::default(), None, false).unwrap();
    let mut out = Vec::new();
    export(&instance, format, &Interrupter::new())
        .unwrap()
        .write(&mut out, Some("test"))
        .unwrap();
    let text = String::from_utf8(out).unwrap();
    let provenance = read_provenance(text.as_bytes()).unwrap();
    (text, provenance)
}

/// Two queens dominating the 4×4 board (γ(Q_4) = 2, OEIS A075458), on
/// (0, 0) and (2, 2), as 0-based variable indices r·4 + c; the first test
/// has the checker confirm it rather than assume it.
const DOMINATING_4: [usize; 2] = [0, 10];

fn pb_line(n_vars: u32, on: &[usize]) -> String {
    let words: Vec<String> = (0..n_vars as usize)
        .map(|i| format!("{}x{}", if on.contains(&i) { "" } else { "-" }, i + 1))
        .collect();
    format!("v {}", words.join(" "))
}

fn bits(n_vars: u32, on: &[usize]) -> String {
    let bits: String = (0..n_vars as usize)
        .map(|i| if on.contains(&i) { '1' } else { '0' })
        .collect();
    format!("v {bits}")
}

#[test]
fn provenance_is_read_from_every_exported_format() {
    let (_, opb) = exported("domination", 8, None, Format::Opb);
    assert_eq!(opb.format, Format::Opb);
    assert_eq!(opb.goal, Goal::Optimum(Sense::Minimise));
    assert_eq!(opb.n_vars, 64);
    let (_, lp) = exported("queens", 8, None, Format::Lp);
    assert_eq!(lp.goal, Goal::Bound(Bound::Exactly(8)));
    let (_, wcnf) = exported("independence", 5, None, Format::Wcnf);
    assert_eq!(wcnf.goal, Goal::Optimum(Sense::Maximise));
    assert_eq!(wcnf.problem.kind, Kind::Independence);
    assert_eq!(wcnf.n_vars, 25, "pairwise lines: no auxiliaries");
    let (_, lines) = exported("domination", 4, None, Format::Wcnf);
    assert_eq!(
        lines.n_vars,
        16 + 22,
        "a line variable per line of the queen"
    );
    let cnf = exported_cnf();
    assert!(matches!(
        read_provenance(cnf.as_bytes()),
        Err(SolutionError::Provenance(_) | SolutionError::NotExported(_))
    ));
    assert!(read_provenance(&b"p cnf 1 1\n1 0\n"[..]).is_err());
}

fn exported_cnf() -> String {
    let request = Request::new("queens".parse().unwrap(), 5);
    let instance = Instance::new(&request, Encodings::default(), None, false).unwrap();
    let mut out = Vec::new();
    export(&instance, Format::Cnf, &Interrupter::new())
        .unwrap()
        .write(&mut out, None)
        .unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn a_pb_optimum_is_checked_and_reported_as_the_solvers_claim() {
    let (_, p) = exported("domination", 4, None, Format::Opb);
    let text = format!(
        "c exact\ns OPTIMUM FOUND\no 2\n{}\n",
        pb_line(16, &DOMINATING_4)
    );
    let answer = parse(&text, p.n_vars).unwrap();
    assert_eq!(
        (answer.style, answer.claim),
        (Style::Competition, Claim::Optimum)
    );
    let checked = check(&p, &answer);
    let placement = checked.placement.clone().unwrap();
    let by_checker = boardsat_encode::check(&p.problem, None, &placement);
    assert_eq!(
        checked.verdict == SolutionVerdict::Accepted,
        by_checker.is_ok(),
        "{placement}"
    );
    assert_eq!(checked.verdict, SolutionVerdict::Accepted, "{placement}");
    assert!(checked.claims_optimum(&p));
}

#[test]
fn a_wrong_placement_is_rejected_with_the_checkers_reason() {
    let (_, p) = exported("domination", 4, None, Format::Opb);
    // Two queens in one corner cover nothing of the far side.
    let text = format!("s OPTIMUM FOUND\no 2\n{}\n", pb_line(16, &[0, 1]));
    let checked = check(&p, &parse(&text, p.n_vars).unwrap());
    let SolutionVerdict::Rejected(reason) = &checked.verdict else {
        panic!("{checked:?}");
    };
    assert!(reason.contains("neither occupied nor attacked"), "{reason}");
    assert!(!checked.claims_optimum(&p));
    // An N-queens answer with two queens on a diagonal.
    let (_, q) = exported("queens", 4, None, Format::Opb);
    let text = format!("s SATISFIABLE\n{}\n", pb_line(16, &[0, 5, 11, 14]));
    let checked = check(&q, &parse(&text, q.n_vars).unwrap());
    assert!(matches!(&checked.verdict, SolutionVerdict::Rejected(r) if r.contains("attack")));
}

#[test]
fn a_claimed_optimum_that_is_not_the_placements_value_is_rejected() {
    // The solver says 1 but its own assignment has two queens.
    let (_, p) = exported("domination", 4, None, Format::Opb);
    let text = format!("s OPTIMUM FOUND\no 1\n{}\n", pb_line(16, &DOMINATING_4));
    let checked = check(&p, &parse(&text, p.n_vars).unwrap());
    assert!(
        matches!(&checked.verdict, SolutionVerdict::Rejected(r) if r.contains("objective value 1 is not its own placement's (2, 2 pieces)")),
        "{checked:?}"
    );
}

#[test]
fn maxsat_costs_count_falsified_soft_clauses() {
    // Independence maximises: the cost is the empty squares.
    let (_, p) = exported("independence", 4, None, Format::Wcnf);
    let queens = [1, 7, 8, 14]; // (0,1) (1,3) (2,0) (3,2)
    let good = format!("s OPTIMUM FOUND\no 12\n{}\n", bits(p.n_vars, &queens));
    let checked = check(&p, &parse(&good, p.n_vars).unwrap());
    assert_eq!(checked.verdict, SolutionVerdict::Accepted);
    assert_eq!(checked.placement.unwrap().len(), 4);
    let lie = good.replace("o 12", "o 4");
    let checked = check(&p, &parse(&lie, p.n_vars).unwrap());
    assert!(matches!(checked.verdict, SolutionVerdict::Rejected(_)));
    // The same answer as old-style DIMACS literals, ending in 0.
    let literals: Vec<String> = (1..=p.n_vars as usize)
        .map(|v| {
            if queens.contains(&(v - 1)) {
                v.to_string()
            } else {
                format!("-{v}")
            }
        })
        .collect();
    let old = format!("s OPTIMUM FOUND\no 12\nv {}\nv 0\n", literals.join(" "));
    assert_eq!(
        check(&p, &parse(&old, p.n_vars).unwrap()).verdict,
        SolutionVerdict::Accepted
    );
}

#[test]
fn cbc_and_highs_solution_files_are_read() {
    let (_, p) = exported("queens", 4, None, Format::Lp);
    let cbc = "Optimal - objective value 0.00000000\n      1 x2   1   0\n      7 x8  1  0\n      8 x9 0.9999999999 0\n     14 x15  1 0\n";
    let answer = parse(cbc, p.n_vars).unwrap();
    assert_eq!(answer.style, Style::Cbc);
    let checked = check(&p, &answer);
    assert_eq!(checked.verdict, SolutionVerdict::Accepted);
    // A feasibility problem has no optimum: "Optimal" is a solution.
    assert_eq!(checked.claim, Claim::Satisfiable);
    let infeasible = "Infeasible - objective value 0.00000000\n      0 x1  1  0\n";
    let checked = check(&p, &parse(infeasible, p.n_vars).unwrap());
    assert_eq!(
        (checked.claim, checked.verdict),
        (Claim::Unsatisfiable, SolutionVerdict::ClaimsNone)
    );
    let (_, d) = exported("domination", 4, None, Format::Lp);
    let mut highs = String::from(
        "Model status\nOptimal\n\n# Primal solution values\nFeasible\nObjective 2\n# Columns 16\n",
    );
    for i in 0..16 {
        highs.push_str(&format!(
            "x{} {}\n",
            i + 1,
            u8::from(DOMINATING_4.contains(&i))
        ));
    }
    highs.push_str("# Rows 16\ncover_0_0 1\n");
    let answer = parse(&highs, d.n_vars).unwrap();
    assert_eq!((answer.style, answer.claim), (Style::Highs, Claim::Optimum));
    let checked = check(&d, &answer);
    assert_eq!(checked.verdict, SolutionVerdict::Accepted);
    assert!(checked.claims_optimum(&d));
    let fractional = highs.replace("x11 1", "x11 0.5");
    assert!(matches!(
        parse(&fractional, d.n_vars),
        Err(SolutionError::Garbage { .. })
    ));
    let infeasible = "Model status\nInfeasible\n\n# Primal solution values\nNone\n";
    let answer = parse(infeasible, d.n_vars).unwrap();
    assert_eq!(check(&d, &answer).verdict, SolutionVerdict::ClaimsNone);
}

#[test]
fn unknown_and_unsatisfiable_claims_are_no_placements() {
    let (_, p) = exported("domination", 4, Some(1), Format::Opb);
    let unsat = parse("s UNSATISFIABLE\n", p.n_vars).unwrap();
    assert_eq!(check(&p, &unsat).verdict, SolutionVerdict::ClaimsNone);
    let unknown = parse("c timeout\ns UNKNOWN\n", p.n_vars).unwrap();
    assert_eq!(check(&p, &unknown).verdict, SolutionVerdict::NoAnswer);
    // A placement of 2 queens breaks the bound of at most 1.
    let two = format!("s SATISFIABLE\n{}\n", pb_line(16, &DOMINATING_4));
    let checked = check(&p, &parse(&two, p.n_vars).unwrap());
    assert!(
        matches!(&checked.verdict, SolutionVerdict::Rejected(r) if r.contains("the bound is at most 1"))
    );
}

#[test]
fn self_contradicting_and_garbled_solutions_are_errors() {
    let n = 16;
    let cases = [
        ("s OPTIMUM FOUND\ns UNSATISFIABLE\n", "contradicts itself"),
        ("s SATISFIABLE\nv x1 -x1\n", "set both ways"),
        ("s UNSATISFIABLE\nv x1\n", "yet line 2 gives values"),
        ("s OPTIMUM FOUND\no 3\n", "without a 'v' line"),
        (
            "s SATISFIABLE\nv x17\n",
            "not among the file's 16 variables",
        ),
        ("s SATISFIABLE\nv y3\n", "'y3' is not a variable"),
        ("s MAYBE\n", "expected OPTIMUM FOUND"),
        ("s SATISFIABLE\no three\nv x1\n", "one integer after 'o'"),
        ("c only chatter\n", "no status"),
        ("", "no status"),
        ("Confused - objective value 3\n", "unknown CBC status"),
        (
            "Optimal - objective value 3\n 0 x1\n",
            "expected 'index name value",
        ),
        (
            "Optimal - objective value 3\n 0 x1 2 0\n",
            "is not a 0-1 value",
        ),
    ];
    for (text, message) in cases {
        let error = parse(text, n).unwrap_err().to_string();
        assert!(error.contains(message), "{text:?}: {error}");
    }
}

#[test]
fn a_rectangular_board_decodes_row_by_row() {
    let board = Board::new(2, 3).unwrap();
    let p = Provenance {
        format: Format::Opb,
        problem: Problem::new(board, Piece::Rook, Kind::Independence),
        goal: Goal::Bound(Bound::Exactly(2)),
        n_vars: 6,
    };
    // x2 = (0, 1), x6 = (1, 2)
    let checked = check(&p, &parse("s SATISFIABLE\nv -x1 x2 x6\n", 6).unwrap());
    let squares: Vec<(usize, usize)> = checked
        .placement
        .unwrap()
        .squares()
        .iter()
        .map(|s| (s.row, s.col))
        .collect();
    assert_eq!(squares, [(0, 1), (1, 2)]);
    assert_eq!(checked.verdict, SolutionVerdict::Accepted);
}

proptest! {
    #[test]
    fn any_text_is_parsed_or_refused_never_a_panic(text in ".{0,400}", n in 1u32..40) {
        if let Ok(answer) = parse(&text, n) {
            if let Some(values) = &answer.values {
                prop_assert_eq!(values.len(), n as usize);
            }
        }
    }

    #[test]
    fn competition_tokens_are_parsed_or_refused(
        lines in proptest::collection::vec(
            (prop::sample::select(vec!["s", "o", "v", "c", "x"]),
             proptest::collection::vec("-?x?[0-9]{1,3}|OPTIMUM|FOUND|SATISFIABLE|~x1|[01]{1,20}", 0..6)),
            0..8),
    ) {
        let text: String = lines
            .iter()
            .map(|(head, words)| format!("{head} {}\n", words.join(" ")))
            .collect();
        let _ = parse(&text, 20);
    }
}
