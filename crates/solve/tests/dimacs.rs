//! The strict DIMACS and iCNF reader: what it accepts, the errors with
//! their lines, projections, tags and digests, and stopping.

use boardsat_solve::{formula::dimacs::*, stop::Interrupter};
use rustsat::types::Var;

fn parse_str(s: &str) -> Result<Formula, ReadError> {
    parse(s.as_bytes())
}

fn line_and_message(e: &ReadError) -> (usize, String) {
    match e {
        ReadError::Syntax { line, message } => (*line, message.clone()),
        other => panic!("not a syntax error: {other}"),
    }
}

#[test]
fn accepts_comments_anywhere_and_clauses_across_lines() {
    let d = parse_str("c hi\np cnf 3 2\n1 -2\nc mid\n 0 3 0\n").unwrap();
    assert_eq!(d.n_vars, 3);
    assert_eq!(d.clauses.len(), 2);
    assert_eq!(d.clauses[0][1], Var::new(1).neg_lit());
    assert_eq!(d.projection, None);
}

#[test]
fn errors_carry_lines() {
    let cases = [
        ("", 1, "empty input"),
        ("1 2 0\n", 1, "before the"),
        ("p cnf x 1\n", 1, "malformed header"),
        ("P CNF 3 1\n", 1, "case-sensitive"),
        ("p cnf 2 1\n1 3 0\n", 2, "beyond the 2 variables"),
        ("p cnf 2 1\n1 a 0\n", 2, "'a' is not an integer"),
        ("p cnf 2 1\n1 2\n", 2, "no terminating 0"),
        (
            "p cnf 2 2\n1 2 0\n",
            1,
            "declares 2 clauses but the file has 1",
        ),
        ("p cnf 2 1\np cnf 2 1\n", 2, "second"),
        ("p cnf 2 1\n99999999999999999999 0\n", 2, "out of range"),
        ("p cnf 2 1\n1 0 c x\n", 2, "comment after literals"),
        ("p cnf 2 1\n1 1.5 0\n", 2, "'1.5' is not an integer"),
        (
            "p cnf 2 1\n1 0\n2 0\n",
            1,
            "declares 1 clause but the file has 2",
        ),
        ("p cnf 2147483647 1\n1 0\n", 1, "beyond boardsat's limit"),
        ("\u{feff}p cnf 1 1\n1 0\n", 1, "byte-order mark"),
        ("p cnf 2 1\n1\0 0\n", 2, "'1\\0' is not an integer"),
        ("c p show 1 x 0\np cnf 2 1\n1 0\n", 1, "bad projection"),
        ("c ind 1 2\np cnf 2 1\n1 0\n", 1, "no terminating 0"),
        (
            "p cnf 2 1\nc p show 3 0\n1 0\n",
            2,
            "beyond the 2 variables",
        ),
    ];
    for (input, line, text) in cases {
        let e = parse_str(input).unwrap_err();
        let (l, message) = line_and_message(&e);
        assert_eq!(l, line, "{input:?}: {e}");
        assert!(message.contains(text), "{input:?}: {e}");
    }
    let e = parse(&b"p cnf 1 1\n\xff 0\n"[..]).unwrap_err();
    let (line, message) = line_and_message(&e);
    assert_eq!((line, message.contains("UTF-8")), (2, true));
}

#[test]
fn satlib_percent_ends_the_input() {
    let d = parse_str("p cnf 1 1\n1 0\n%\n0\n").unwrap();
    assert_eq!(d.clauses.len(), 1);
}

#[test]
fn projection_lines_are_whole_words() {
    let d = parse_str("c individual\nc p showing\nc ind 2 0\np cnf 3 1\n1 0\n").unwrap();
    assert_eq!(d.projection, Some(vec![Var::new(1)]));
    let d = parse_str("c ind 2 0\nc p show 1 0\nc p show 3 0\np cnf 3 1\n1 0\n").unwrap();
    assert_eq!(d.projection, Some(vec![Var::new(0), Var::new(2)]));
    let d = parse_str("c p show 0\np cnf 3 1\n1 0\n").unwrap();
    assert_eq!(d.projection, Some(vec![]));
}

/// A variable named twice is projected on once (a projection with a
/// repeat once ended `count-dimacs` in an internal error).
#[test]
fn projection_repeats_are_read_once_in_first_order() {
    for text in [
        "c p show 1 1 0\np cnf 2 1\n1 2 0\n",
        "c p show 1 0\nc p show 1 0\np cnf 2 1\n1 2 0\n",
        "c ind 1 1 0\np cnf 2 1\n1 2 0\n",
    ] {
        let d = parse_str(text).unwrap();
        assert_eq!(d.projection, Some(vec![Var::new(0)]), "{text}");
    }
    let d = parse_str("c p show 3 1 3 0\nc p show 2 1 0\np cnf 3 0\n").unwrap();
    assert_eq!(
        d.projection,
        Some(vec![Var::new(2), Var::new(0), Var::new(1)])
    );
}

#[test]
fn icnf_keeps_the_cubes_and_sizes_by_use() {
    let d = parse_str("p inccnf\n1 2 0\na -1 0\na 5 0\n").unwrap();
    assert_eq!((d.format, d.n_vars, d.max_var), (Format::Inccnf, 5, 5));
    assert_eq!(d.cubes.len(), 2);
    let cube = d.with_cube(1).unwrap();
    assert_eq!(cube.clauses.len(), 2);
    assert_eq!(cube.format, Format::Cnf);
}

#[test]
fn solvers_are_sized_by_the_variables_used() {
    let d = parse_str("p cnf 1000000 1\n1 -2 0\n").unwrap();
    assert_eq!((d.n_vars, d.max_var), (1_000_000, 2));
    // Declared far beyond what the file names: refused, not sized.
    let e = parse_str("p cnf 100000000 1\n1 -2 0\n").unwrap_err();
    assert!(e.to_string().contains("may go unnamed"), "{e}");
}

#[test]
fn endless_lines_are_refused() {
    let zeros = std::io::repeat(0).take((MAX_LINE_BYTES + 10) as u64);
    let e = parse(std::io::BufReader::new(zeros)).unwrap_err();
    assert!(e.to_string().contains("longer than"), "{e}");
}

#[test]
fn a_raised_flag_stops_reading() {
    let stop = Interrupter::new();
    stop.interrupt();
    let e = read("p cnf 1 1\n1 0\n".as_bytes(), None, Some(&stop)).unwrap_err();
    assert!(matches!(e, ReadError::Stopped(_)), "{e}");
}

#[test]
fn tags_and_digests_identify_a_file() {
    let text = "c boardsat-split abc\nc boardsat-cube cube-00001 weight 2\np cnf 1 1\n1 0\n";
    let (f, d) = read_with_digest(text.as_bytes(), None, None).unwrap();
    assert_eq!(f.tag("split"), Some("abc"));
    assert_eq!(f.tag("cube"), Some("cube-00001 weight 2"));
    assert_eq!(d, digest(text.as_bytes()));
    assert_eq!(
        digest(b""),
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
}

#[test]
fn model_lines_wrap_and_end_in_zero() {
    let model = vec![true; 40];
    let lines: Vec<String> = model_lines(&model, 42).collect();
    assert!(lines.iter().all(|l| l.len() <= 78 && l.starts_with('v')));
    assert!(lines.last().is_some_and(|l| l.ends_with(" -42 0")));
    let values: Vec<i64> = lines
        .iter()
        .flat_map(|l| l[1..].split_whitespace().map(|t| t.parse::<i64>().unwrap()))
        .collect();
    let mut expected = model_literals(&model, 42);
    expected.push(0);
    assert_eq!(values, expected);
    assert_eq!(model_lines(&[], 0).collect::<Vec<_>>(), ["v 0"]);
}

use std::io::Read as _;
