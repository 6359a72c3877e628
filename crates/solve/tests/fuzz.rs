//! Fuzzing the parsers that read untrusted text: the DIMACS and iCNF reader
//! (`solve-dimacs`, `count-dimacs`) and the external-solver output
//! parsers (the cube MANIFEST is fuzzed in `crates/jobs/tests/fuzz.rs`).
//! Arbitrary bytes and structured near misses; the property is "no
//! panic", and for the DIMACS reader also "an accepted input is
//! consistent with its header".
//!
//! CI runs 2,000 cases per property; set `PROPTEST_CASES` for a longer run
//! (the README's "Fuzzing" section records one of 100,000).

use boardsat_solve::{
    backend::external::{parse_output, parse_result_file},
    dimacs, Status,
};
use proptest::prelude::*;

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2_000)
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: cases(),
        // Failure persistence files would be written next to the sources.
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Tokens a DIMACS file is made of, with the near misses that break it.
fn dimacs_token() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (-12i64..=12).prop_map(|v| v.to_string()),
        2 => Just("0".to_string()),
        1 => Just("\n".to_string()),
        1 => Just("p cnf".to_string()),
        1 => (0u64..20, 0u64..20).prop_map(|(v, c)| format!("p cnf {v} {c}")),
        1 => Just("c comment".to_string()),
        1 => Just("c".to_string()),
        1 => Just("%".to_string()),
        1 => Just("p".to_string()),
        1 => Just("p dnf 3 1".to_string()),
        1 => Just("p cnf -1 2".to_string()),
        1 => Just("p cnf 2147483648 1".to_string()),
        1 => Just("p cnf 134217728 1".to_string()),
        1 => Just("p cnf 1048578 0".to_string()),
        1 => Just("\nc p show 1 13 0\n".to_string()),
        1 => Just("\nc ind 2 0\n".to_string()),
        1 => Just("\nc p show 1 1 0\n".to_string()),
        1 => Just("p cnf 18446744073709551616 1".to_string()),
        1 => Just("-0".to_string()),
        1 => Just("+1".to_string()),
        1 => Just("9223372036854775807".to_string()),
        1 => Just("-9223372036854775808".to_string()),
        1 => Just("99999999999999999999999".to_string()),
        1 => Just("2147483648".to_string()),
        1 => Just("x".to_string()),
        1 => Just("\r\n".to_string()),
        1 => Just("\t".to_string()),
        1 => Just("\u{feff}".to_string()),
        1 => Just("é".to_string()),
    ]
}

fn near_miss_dimacs() -> impl Strategy<Value = Vec<u8>> {
    (
        0u32..16,
        0usize..12,
        prop::collection::vec(prop::collection::vec(-17i32..=17, 0..6), 0..12),
        prop::collection::vec(dimacs_token(), 0..8),
        prop::collection::vec(any::<u8>(), 0..3),
    )
        .prop_map(|(vars, declared, clauses, noise, bytes)| {
            let mut text = format!("c near miss\np cnf {vars} {declared}\n");
            for clause in clauses {
                for lit in clause {
                    text.push_str(&format!("{lit} "));
                }
                text.push_str("0\n");
            }
            let mut out = text.into_bytes();
            // Splice the noise and raw bytes in at deterministic places.
            for (i, token) in noise.iter().enumerate() {
                let at = (i * 7 + token.len()) % (out.len() + 1);
                let mut piece = token.clone().into_bytes();
                piece.push(b' ');
                out.splice(at..at, piece);
            }
            for (i, byte) in bytes.into_iter().enumerate() {
                let at = (i * 13 + usize::from(byte)) % (out.len() + 1);
                out.insert(at, byte);
            }
            out
        })
}

fn token_soup() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(dimacs_token(), 0..40).prop_map(|tokens| tokens.join(" ").into_bytes())
}

/// What the DIMACS reader must guarantee on any input: every literal and
/// projection variable within the header, no projection variable twice,
/// and a header that declares at
/// most `MAX_UNNAMED_VARS` variables beyond those the file names.
fn check_dimacs(bytes: &[u8]) {
    if let Ok(d) = dimacs::parse(bytes) {
        for clause in &d.clauses {
            for lit in clause {
                assert!(lit.vidx32() < d.n_vars, "literal beyond the header");
            }
        }
        let mut projected = std::collections::HashSet::new();
        for var in d.projection.iter().flatten() {
            assert!(var.idx32() < d.n_vars, "projection beyond the header");
            assert!(projected.insert(*var), "a projection variable twice");
        }
        assert!(d.max_var <= d.n_vars);
        assert!(
            d.n_vars - d.max_var <= dimacs::MAX_UNNAMED_VARS,
            "declared far beyond the file"
        );
    }
}

/// iCNF lines and near misses.
fn icnf_line() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::collection::vec(-12i64..=12, 0..5).prop_map(|l| {
            let body: Vec<String> = l.iter().map(i64::to_string).collect();
            format!("{} 0", body.join(" "))
        }),
        3 => prop::collection::vec(-12i64..=12, 0..4).prop_map(|l| {
            let body: Vec<String> = l.iter().map(i64::to_string).collect();
            format!("a {} 0", body.join(" "))
        }),
        1 => Just("a".to_string()),
        1 => Just("a 1".to_string()),
        1 => Just("a 2147483647 0".to_string()),
        1 => Just("a -2147483648 0".to_string()),
        1 => Just("a x 0".to_string()),
        1 => Just("a 0 1".to_string()),
        1 => Just("p inccnf".to_string()),
        1 => Just("p cnf 3 1".to_string()),
        1 => Just("c p show 1 2 0".to_string()),
        1 => Just("c ind 3 0".to_string()),
        1 => Just("c p show x".to_string()),
        1 => Just("c boardsat-split zz".to_string()),
        1 => Just("1 2".to_string()),
        1 => Just("%".to_string()),
    ]
}

/// What the reader must guarantee on an iCNF input: every cube and clause
/// within the variables, and a cube formula that adds exactly its units.
fn check_icnf(text: &str) {
    if let Ok(d) = dimacs::read(text.as_bytes(), Some(dimacs::Format::Inccnf), None) {
        assert!(!d.cubes.is_empty());
        assert!(d.max_var <= d.n_vars);
        for cube in &d.cubes {
            assert!(cube.lits.iter().all(|l| l.vidx32() < d.n_vars));
        }
        let base = d.clauses.len();
        let first = d.cubes[0].lits.len();
        let cube = d.with_cube(0).expect("cube 0 exists");
        assert_eq!(cube.clauses.len(), base + first);
    }
}

/// Solver-output tokens and near misses.
fn output_line() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("s SATISFIABLE".to_string()),
        Just("s UNSATISFIABLE".to_string()),
        Just("s UNKNOWN".to_string()),
        Just("s".to_string()),
        Just("s MAYBE".to_string()),
        Just("SAT".to_string()),
        Just("UNSAT".to_string()),
        Just("INDET".to_string()),
        Just("c chatter".to_string()),
        Just("".to_string()),
        prop::collection::vec(-12i64..=12, 0..8).prop_map(|lits| {
            let body: Vec<String> = lits.iter().map(i64::to_string).collect();
            format!("v {}", body.join(" "))
        }),
        prop::collection::vec(-12i64..=12, 0..8).prop_map(|lits| {
            let body: Vec<String> = lits.iter().map(i64::to_string).collect();
            body.join(" ")
        }),
        Just("v 99999999999999999999 0".to_string()),
        Just("v -9223372036854775808 0".to_string()),
        Just("v 2147483648 0".to_string()),
        Just("v x 0".to_string()),
        "[ -~]{0,20}".prop_map(|s| s),
    ]
}

fn output_text() -> impl Strategy<Value = String> {
    prop::collection::vec(output_line(), 0..10).prop_map(|lines| lines.join("\n"))
}

fn exit_code() -> impl Strategy<Value = Option<i32>> {
    prop_oneof![
        Just(Some(10)),
        Just(Some(20)),
        Just(Some(0)),
        Just(None),
        any::<i32>().prop_map(Some),
    ]
}

/// What both output parsers must guarantee: no panic, and a SAT answer
/// carries a model of exactly `n_vars` values.
fn check_answer(
    result: Result<
        boardsat_solve::backend::external::ExternalAnswer,
        boardsat_solve::ExternalError,
    >,
    n_vars: u32,
) {
    if let Ok(answer) = result {
        match answer.status {
            Status::Sat => {
                let model = answer.model.expect("SAT carries a model");
                assert_eq!(model.len(), n_vars as usize);
            }
            _ => assert!(answer.model.is_none()),
        }
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn dimacs_survives_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        check_dimacs(&bytes);
    }

    #[test]
    fn dimacs_survives_arbitrary_bytes_after_a_header(
        vars in 0u32..40,
        declared in 0usize..20,
        bytes in prop::collection::vec(any::<u8>(), 0..256),
    ) {
        let mut input = format!("p cnf {vars} {declared}\n").into_bytes();
        input.extend(bytes);
        check_dimacs(&input);
    }

    #[test]
    fn dimacs_survives_near_misses(bytes in near_miss_dimacs()) {
        check_dimacs(&bytes);
    }

    #[test]
    fn dimacs_survives_token_soup(bytes in token_soup()) {
        check_dimacs(&bytes);
    }

    #[test]
    fn icnf_survives_near_misses(lines in prop::collection::vec(icnf_line(), 0..12)) {
        check_icnf(&lines.join("\n"));
    }

    #[test]
    fn icnf_survives_arbitrary_bytes_after_its_header(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        let mut text = b"p inccnf\n".to_vec();
        text.extend(bytes);
        if let Ok(text) = std::str::from_utf8(&text) {
            check_icnf(text);
        }
        let _ = dimacs::read(&text[..], Some(dimacs::Format::Inccnf), None);
    }

    #[test]
    fn solver_output_survives_arbitrary_text(
        bytes in prop::collection::vec(any::<u8>(), 0..256),
        exit in exit_code(),
        n_vars in 0u32..16,
    ) {
        let text = String::from_utf8_lossy(&bytes);
        check_answer(parse_output(&text, exit, n_vars, "fuzz"), n_vars);
        check_answer(parse_result_file(&text, exit, n_vars, "fuzz"), n_vars);
    }

    #[test]
    fn solver_output_survives_near_misses(text in output_text(), exit in exit_code(), n_vars in 0u32..16) {
        let result = parse_output(&text, exit, n_vars, "fuzz");
        if let Err(e) = &result {
            prop_assert!(e.to_string().contains("fuzz"), "{e}");
        }
        check_answer(result, n_vars);
        let result = parse_result_file(&text, exit, n_vars, "fuzz");
        if let Err(e) = &result {
            prop_assert!(e.to_string().contains("fuzz"), "{e}");
        }
        check_answer(result, n_vars);
    }
}
