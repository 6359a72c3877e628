//! Hand-written proofs: a valid one accepted, each kind of broken one
//! rejected with its reason and place, and no input makes the checker
//! panic. Proofs written by CaDiCaL are checked in
//! `crates/solve/tests/lrat.rs`.

mod oracle;

use boardsat_lrat::{
    check, Checker, EmptyClause, Error, FormulaProblem, Limits, Location, StepProblem, Syntax,
};
use proptest::prelude::*;

/// (x1 ∨ x2) ∧ (¬x1 ∨ x2) ∧ (x1 ∨ ¬x2) ∧ (¬x1 ∨ ¬x2), and an unneeded
/// (x1 ∨ x2 ∨ x3).
fn formula() -> Vec<Vec<i32>> {
    vec![
        vec![1, 2],
        vec![-1, 2],
        vec![1, -2],
        vec![-1, -2],
        vec![1, 2, 3],
    ]
}

/// Derives x2 (from 1 and 2), deletes 2 and 5, derives the empty clause.
const PROOF: &str = "c derive x2, then the empty clause\n6 2 0 1 2 0\n6 d 2 5 0\n7 0 6 3 4 0\n";

fn text(proof: &str) -> Result<boardsat_lrat::Summary, Error> {
    check(formula(), proof.as_bytes(), Syntax::Text)
}

/// The problem and line of a rejected proof.
fn rejected(proof: &str) -> (u64, StepProblem) {
    match text(proof) {
        Err(Error::Step {
            at: Location::Line(line),
            problem,
        }) => (line, problem),
        other => panic!("expected a step error, got {other:?}"),
    }
}

#[test]
fn a_valid_proof_is_accepted_with_its_counts() {
    let summary = text(PROOF).unwrap();
    assert_eq!(summary.n_formula_clauses, 5);
    assert_eq!(summary.n_steps, 3);
    assert_eq!(summary.n_additions, 2);
    assert_eq!(summary.n_deletion_steps, 1);
    assert_eq!(summary.n_deleted_clauses, 2);
    assert_eq!(summary.n_hints, 5);
    assert_eq!(summary.max_live, 6);
    assert_eq!(
        summary.empty_clause,
        EmptyClause::Derived {
            id: 7,
            step: 3,
            at: Location::Line(4)
        }
    );
    oracle::check(&formula(), PROOF).unwrap();
}

#[test]
fn a_proof_with_a_step_removed_is_rejected() {
    let proof = PROOF.replace("6 2 0 1 2 0\n", "");
    assert_eq!(rejected(&proof), (3, StepProblem::UnknownHint { hint: 6 }));
    assert_eq!(
        text(&proof).unwrap_err().to_string(),
        "line 3: hint 6 names no live clause (never added, or deleted)"
    );
}

#[test]
fn wrong_hints_are_rejected_with_what_is_wrong() {
    let cases = [
        ("6 2 0 1 3 0", StepProblem::NotUnit { hint: 3 }),
        ("6 2 0 5 1 2 0", StepProblem::NotUnit { hint: 5 }),
        ("6 2 0 1 0", StepProblem::NoConflict { last: "1".into() }),
        (
            "6 2 0 0",
            StepProblem::NoConflict {
                last: "none".into(),
            },
        ),
        ("6 2 0 1 9 0", StepProblem::UnknownHint { hint: 9 }),
        ("6 2 0 -1 2 0", StepProblem::Rat { hint: -1 }),
    ];
    for (step, problem) in cases {
        let proof = PROOF.replace("6 2 0 1 2 0", step);
        assert_eq!(rejected(&proof), (2, problem), "{step}");
    }
    assert_eq!(
        rejected(&PROOF.replace("6 2 0 1 2 0", "6 2 0 5 1 2 0")).1.to_string(),
        "hint 5 is not unit under the lemma's negation and the hints before it (two or more literals not false)"
    );
}

/// The hints as CaDiCaL's own checker, `lrat-check` and cake_lpr read
/// them: a hint whose one literal that is not false is true already is a
/// unit that changes nothing, and the hints after the conflict are not
/// read. CaDiCaL writes both (found in proofs of cube counts that this
/// checker used to reject); the naive oracle accepts the same proofs.
#[test]
fn redundant_hints_are_read_as_the_standard_checkers_read_them() {
    for step in [
        // x1 from hint 1, hint 1 again (its unit true), then the conflict.
        "6 2 0 1 1 2 0",
        // Hints after the conflict (hint 2 falsified).
        "6 2 0 1 2 3 4 0",
    ] {
        let proof = PROOF.replace("6 2 0 1 2 0", step);
        assert!(text(&proof).is_ok(), "{step}: {:?}", text(&proof));
        oracle::check(&formula(), &proof).unwrap();
    }
}

#[test]
fn a_hint_naming_a_deleted_clause_is_rejected() {
    let proof = PROOF.replace("7 0 6 3 4 0", "7 0 6 2 4 0");
    assert_eq!(rejected(&proof), (4, StepProblem::UnknownHint { hint: 2 }));
}

#[test]
fn reused_and_out_of_order_ids_are_rejected() {
    assert_eq!(
        rejected(&PROOF.replace("6 2 0 1 2 0", "5 2 0 1 2 0")),
        (2, StepProblem::IdReused { id: 5 })
    );
    assert_eq!(
        text(&PROOF.replace("6 2 0 1 2 0", "1 2 0 1 2 0"))
            .unwrap_err()
            .to_string(),
        "line 2: clause id 1 is reused: a clause with that id is live"
    );
    // Clause 2 is deleted, so its id is free, but ids must increase.
    assert_eq!(
        rejected(&PROOF.replace("7 0 6 3 4 0", "2 0 6 3 4 0")),
        (4, StepProblem::IdNotIncreasing { id: 2, previous: 6 })
    );
    assert_eq!(
        rejected(&PROOF.replace("6 d 2 5 0", "6 d 2 5 2 0")),
        (3, StepProblem::DeleteUnknown { id: 2 })
    );
}

#[test]
fn truncated_proofs_are_rejected() {
    // Inside a step.
    let cut = &PROOF[..PROOF.len() - 4];
    assert_eq!(rejected(cut), (4, StepProblem::Truncated { at_end: true }));
    assert_eq!(
        text(cut).unwrap_err().to_string(),
        "line 4: the proof ends inside this step (truncated file?)"
    );
    // At a line end.
    let cut = PROOF.replace("7 0 6 3 4 0\n", "");
    assert!(matches!(text(&cut), Err(Error::NoEmptyClause { steps: 2 })));
    assert_eq!(
        text(&cut).unwrap_err().to_string(),
        "the proof ends without deriving the empty clause (2 steps checked)"
    );
    // A step broken over two lines.
    assert_eq!(
        rejected(&PROOF.replace("6 2 0 1 2 0", "6 2 0 1\n2 0")),
        (2, StepProblem::Truncated { at_end: false })
    );
    assert!(matches!(text(""), Err(Error::NoEmptyClause { steps: 0 })));
}

#[test]
fn the_proof_of_another_formula_is_rejected() {
    let mut other = formula();
    other.swap(1, 2);
    assert!(matches!(
        check(&other, PROOF.as_bytes(), Syntax::Text),
        Err(Error::Step {
            at: Location::Line(2),
            problem: StepProblem::NotUnit { hint: 2 }
        })
    ));
    // Fewer clauses: the proof's first id is then not new.
    let short = &formula()[..4];
    let long: Vec<Vec<i32>> = formula().into_iter().chain([vec![3, 4]]).collect();
    assert!(check(short, PROOF.as_bytes(), Syntax::Text).is_err());
    assert_eq!(
        check(&long, PROOF.as_bytes(), Syntax::Text)
            .unwrap_err()
            .to_string(),
        "line 2: clause id 6 is reused: a clause with that id is live"
    );
}

#[test]
fn garbage_tokens_are_rejected() {
    let bad = |expected: &'static str, found: &str| StepProblem::BadToken {
        expected,
        found: found.to_string(),
    };
    let cases = [
        ("6 2 0 1 x 0", bad("a hint or 0", "x")),
        ("6 2 0 1 2.5 0", bad("a hint or 0", "2.5")),
        ("6 +2 0 1 2 0", bad("a literal, 0 or `d`", "+2")),
        ("6 2 -0 1 2 0", bad("a literal or 0", "-0")),
        ("x6 2 0 1 2 0", bad("a clause id", "x6")),
        ("-6 2 0 1 2 0", bad("a clause id", "-6")),
        ("d 2 0", bad("a clause id", "d")),
        ("6 dd 2 0", bad("a literal, 0 or `d`", "dd")),
        (
            "6 2 0 1 2 0 junk",
            StepProblem::Trailing {
                found: "junk".into(),
            },
        ),
        ("6 2 0 1 2 0 0", StepProblem::Trailing { found: "0".into() }),
        ("0 2 0 1 2 0", StepProblem::ZeroId),
        (
            "99999999999999999999 2 0 1 2 0",
            StepProblem::NumberTooLarge {
                found: "99999999999999999999".into(),
                what: "a clause id",
            },
        ),
        (
            "6 3000000000 0 1 2 0",
            StepProblem::NumberTooLarge {
                found: "3000000000".into(),
                what: "a literal",
            },
        ),
    ];
    for (step, problem) in cases {
        let proof = PROOF.replace("6 2 0 1 2 0", step);
        assert_eq!(rejected(&proof), (2, problem), "{step}");
    }
    assert_eq!(
        rejected(&PROOF.replace("6 d 2 5 0", "6 d -2 0")),
        (3, bad("a clause id", "-2"))
    );
    assert_eq!(
        text(&PROOF.replace("6 2 0 1 2 0", "6 2 0 1 x 0"))
            .unwrap_err()
            .to_string(),
        "line 2: expected a hint or 0, found `x`"
    );
}

#[test]
fn lenient_spellings_are_accepted() {
    // CRLF, tabs, blank lines, leading zeros, a final line without newline.
    let proof = "c x\r\n\r\n6\t2 0 01 2 0\r\n  6 d 2 5 0\r\n7 0 6 3 4 0";
    assert!(text(proof).is_ok());
    // Duplicate literals, a new variable, a tautology (kept, never unit).
    let proof = "6 2 2 0 1 2 0\n7 2 7 0 6 0\n8 1 -1 0 0\n9 0 6 3 4 0\n";
    assert!(text(proof).is_ok());
    oracle::check(&formula(), proof).unwrap();
}

#[test]
fn steps_after_the_empty_clause_are_still_checked() {
    let proof = format!("{PROOF}8 1 0 9 0\n");
    assert_eq!(rejected(&proof), (5, StepProblem::UnknownHint { hint: 9 }));
    let proof = format!("{PROOF}8 1 0 3 6 0\n");
    assert!(matches!(
        text(&proof).unwrap().empty_clause,
        EmptyClause::Derived { id: 7, .. }
    ));
}

#[test]
fn a_formula_with_the_empty_clause_needs_no_step() {
    let formula = vec![vec![1], vec![], vec![-1]];
    let summary = check(&formula, &b""[..], Syntax::Text).unwrap();
    assert_eq!(summary.empty_clause, EmptyClause::InFormula { id: 2 });
    assert_eq!(summary.n_steps, 0);
}

#[test]
fn bad_formula_clauses_and_absurd_numbers_are_errors_not_allocations() {
    let mut checker = Checker::new(Limits {
        max_var: 100,
        max_step_len: 3,
    });
    assert_eq!(checker.add_formula_clause(&[1, -100]).unwrap(), 1);
    assert!(matches!(
        checker.add_formula_clause(&[1, 0]),
        Err(Error::Formula {
            id: 2,
            problem: FormulaProblem::BadLiteral { literal: 0 }
        })
    ));
    assert!(matches!(
        checker.add_formula_clause(&[101]),
        Err(Error::Formula {
            id: 2,
            problem: FormulaProblem::VariableTooLarge { var: 101, max: 100 }
        })
    ));
    assert!(matches!(
        checker.add_formula_clause(&[1, 2, 3, 4]),
        Err(Error::Formula {
            id: 2,
            problem: FormulaProblem::TooLong { max: 3 }
        })
    ));
    let error = checker
        .check(&b"2 1 2 3 4 0 0\n"[..], Syntax::Text)
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "line 1: the step lists more than 3 literals"
    );
    // With default limits a literal of 2^30 is refused, not allocated for.
    assert_eq!(
        rejected(&PROOF.replace("6 2 0 1 2 0", "6 1073741824 0 1 2 0")),
        (
            2,
            StepProblem::VariableTooLarge {
                literal: 1 << 30,
                max: 1 << 26
            }
        )
    );
}

/// The binary encoding of a text proof, as CaDiCaL writes it.
fn binary(proof: &str) -> Vec<u8> {
    fn varint(out: &mut Vec<u8>, mut x: u64) {
        while x > 0x7f {
            out.push((x & 0x7f) as u8 | 0x80);
            x >>= 7;
        }
        out.push(x as u8);
    }
    let signed = |x: i64| 2 * x.unsigned_abs() + u64::from(x < 0);
    let mut out = Vec::new();
    for line in proof.lines().filter(|l| !l.starts_with('c')) {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        if tokens[1] == "d" {
            out.push(b'd');
            for t in &tokens[2..] {
                varint(&mut out, signed(t.parse().unwrap()));
            }
        } else {
            out.push(b'a');
            varint(&mut out, signed(tokens[0].parse().unwrap()));
            // Literals (2·var + sign) and hints (2·id + sign) alike.
            for t in &tokens[1..] {
                varint(&mut out, signed(t.parse().unwrap()));
            }
        }
    }
    out
}

#[test]
fn binary_proofs_are_checked_like_text_ones() {
    let bytes = binary(PROOF);
    let text_summary = text(PROOF).unwrap();
    for format in [Syntax::Binary, Syntax::Detect] {
        let summary = check(formula(), &bytes[..], format).unwrap();
        assert_eq!(summary.n_hints, text_summary.n_hints);
        assert!(matches!(
            summary.empty_clause,
            EmptyClause::Derived {
                id: 7,
                step: 3,
                at: Location::Byte(_)
            }
        ));
    }
    let error = check(formula(), &bytes[..bytes.len() - 1], Syntax::Detect).unwrap_err();
    assert!(matches!(
        error,
        Error::Step {
            at: Location::Byte(_),
            problem: StepProblem::Truncated { at_end: true }
        }
    ));
    let wrong = binary(&PROOF.replace("6 2 0 1 2 0", "6 2 0 1 3 0"));
    assert_eq!(
        check(formula(), &wrong[..], Syntax::Binary)
            .unwrap_err()
            .to_string(),
        "byte 0: hint 3 is not unit under the lemma's negation and the hints before it (two or more literals not false)"
    );
    let mut junk = bytes.clone();
    junk.push(b'x');
    assert!(check(formula(), &junk[..], Syntax::Binary)
        .unwrap_err()
        .to_string()
        .ends_with("expected a step (`a` or `d`), found byte 0x78"));
    // A text proof read as binary fails cleanly.
    assert!(check(formula(), PROOF.as_bytes(), Syntax::Binary).is_err());
}

#[test]
fn formats_round_trip_through_their_names() {
    for format in Syntax::ALL {
        assert_eq!(format.to_string().parse::<Syntax>().unwrap(), format);
    }
    assert!("lrat".parse::<Syntax>().is_err());
}

#[test]
fn read_errors_carry_the_place() {
    struct Failing;
    impl std::io::Read for Failing {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("disk on fire"))
        }
    }
    let error = check(formula(), Failing, Syntax::Text).unwrap_err();
    assert_eq!(
        error.to_string(),
        "line 1: reading the proof failed: disk on fire"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(512)
    ))]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        for format in Syntax::ALL {
            let _ = check(formula(), &bytes[..], format);
        }
    }

    /// One token replaced, dropped or duplicated: the checker rejects, or
    /// the naive oracle accepts too.
    #[test]
    fn corrupted_proofs_are_rejected_or_still_valid(
        index in 0usize..40,
        edit in 0u8..4,
        number in -12i64..12,
    ) {
        let mut tokens: Vec<String> = PROOF
            .lines()
            .skip(1)
            .flat_map(|l| l.split(' ').map(str::to_string).chain(["\n".to_string()]))
            .collect();
        let i = index % tokens.len();
        match edit {
            0 => tokens[i] = number.to_string(),
            1 => { tokens.remove(i); }
            2 => { let t = tokens[i].clone(); tokens.insert(i, t); }
            _ => tokens[i] = "d".to_string(),
        }
        let proof = tokens.join(" ");
        if text(&proof).is_ok() {
            prop_assert!(oracle::check(&formula(), &proof).is_ok(), "{proof}");
        }
    }
}
