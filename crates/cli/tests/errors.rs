//! Bad input through the CLI: each case one line on stderr naming the
//! problem, exit code 2, no panic. The messages are pinned.

mod common;

use common::{fake, run};

/// The whole of stderr, which must be one line, for a run that must fail
/// with exit code 2.
fn error_line(args: &[&str]) -> String {
    let o = run(args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: not one line: {err}");
    assert!(o.stdout.is_empty(), "{args:?}: stdout is not empty");
    err.trim_end().to_string()
}

#[test]
fn board_sizes() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["solve", "queens", "0"],
            "error: the board must have at least one row and one column (got 0x0)",
        ),
        (
            &["solve", "queens", "-3"],
            "error: invalid value '-3' for '<N>': the board size must be a positive integer",
        ),
        (
            &["count", "independence", "-3", "--piece", "rook"],
            "error: invalid value '-3' for '<N>': the board size must be a positive integer",
        ),
        (
            &["solve", "queens", "eight"],
            "error: invalid value 'eight' for '<N>': the board size must be a positive integer",
        ),
        (
            &["solve", "queens", "8.5"],
            "error: invalid value '8.5' for '<N>': the board size must be a positive integer",
        ),
        (
            &["solve", "domination", "4", "--cols", "-2"],
            "error: invalid value '-2' for '--cols <COLS>': the board size must be a positive integer",
        ),
        (
            &["solve", "domination", "4", "--cols", "0"],
            "error: the board must have at least one row and one column (got 4x0)",
        ),
        (
            &["solve", "domination", "100000", "--cols", "100000"],
            "error: a 100000x100000 board is too large (at most 268435456 squares)",
        ),
    ];
    for (args, message) in cases {
        assert_eq!(error_line(args), *message, "{args:?}");
    }
}

#[test]
fn piece_counts() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["solve", "independence", "3", "-k", "10"],
            "error: k = 10 is more pieces than the 3x3 board has squares (9)",
        ),
        (
            &["solve", "independence", "3", "-k", "-1"],
            "error: invalid value '-1' for '--pieces <K>': the number of pieces must be a non-negative integer",
        ),
        (
            &["solve", "independence", "3", "-k", "many"],
            "error: invalid value 'many' for '--pieces <K>': the number of pieces must be a non-negative integer",
        ),
        (
            &["solve", "queens", "8", "-k", "7"],
            "error: queens places exactly n queens; use independence with -k for another number",
        ),
        (
            &["dimacs", "domination", "8"],
            "error: dimacs domination needs -k (the number of pieces) to fix the bound (or --format opb, wcnf or lp for the optimum)",
        ),
    ];
    for (args, message) in cases {
        assert_eq!(error_line(args), *message, "{args:?}");
    }
}

#[test]
fn encodings_that_cannot_express_the_constraint() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["dimacs", "domination", "8", "-k", "4", "--card", "pairwise"],
            "error: invalid value 'pairwise' for '--card <CARD>': 'pairwise' is an at-most-one encoding; a cardinality encoding is needed (seqcounter, totalizer, mtotalizer, cardnetwork)",
        ),
        (
            &["dimacs", "queens", "8", "--amo", "totalizer"],
            "error: invalid value 'totalizer' for '--amo <AMO>': 'totalizer' is a cardinality encoding, not an at-most-one encoding",
        ),
        (
            &["dimacs", "queens", "8", "--amo", "lazy"],
            "error: --amo lazy leaves 42 at-most-one constraints to the solver's propagator, which a CNF cannot carry; choose a clause encoding (--amo auto, pairwise, ladder, ...)",
        ),
        (
            &["cubes", "queens", "8", "--amo", "lazy", "-o", "never-written"],
            "error: --amo lazy leaves 42 at-most-one constraints to the solver's propagator, which a CNF cannot carry; choose a clause encoding (--amo auto, pairwise, ladder, ...)",
        ),
        (
            &["solve", "queens", "8", "--amo", "lazy", "--solver", "varisat"],
            "error: the lazy AMO needs a solver with an external propagator (cadical); varisat 0.2.2 has none",
        ),
        (
            &["count", "queens", "6", "--amo", "lazy", "--solver-cmd", "minisat"],
            "error: the lazy AMO needs a solver with an external propagator (cadical); external: minisat has none",
        ),
        (
            &["solve", "queens", "8", "--formulation", "rows"],
            "error: invalid value 'rows' for '--formulation <FORMULATION>': unknown encoding 'rows' (expected one of: lines, cardinality)",
        ),
    ];
    for (args, message) in cases {
        assert_eq!(error_line(args), *message, "{args:?}");
    }
}

#[test]
fn boards_and_pieces_the_problem_cannot_take() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["solve", "queens", "8", "--cols", "6"],
            "error: queens needs a square board; use independence with --cols for rectangular boards",
        ),
        (
            &["solve", "queens", "8", "--piece", "knight"],
            "error: queens places queens; use independence with --piece knight for other pieces",
        ),
    ];
    for (args, message) in cases {
        assert_eq!(error_line(args), *message, "{args:?}");
    }
}

#[test]
fn contradicting_flags() {
    let cases: &[(&[&str], &str)] = &[
        (
            &[
                "solve",
                "queens",
                "8",
                "--solver",
                "varisat",
                "--solver-cmd",
                "minisat",
            ],
            "error: --solver-cmd needs --solver external (or no --solver)",
        ),
        (
            &["dimacs", "queens", "8", "--json"],
            "error: --json with dimacs needs -o FILE (stdout cannot hold both)",
        ),
        (
            &["solve", "queens", "8", "--independent"],
            "error: --independent applies to domination only",
        ),
        (
            &["count", "independence", "5", "--independent"],
            "error: --independent applies to domination only",
        ),
        (
            &["solve", "queens", "8", "--solver", "external"],
            "error: the external backend needs a solver command (e.g. --solver-cmd minisat)",
        ),
    ];
    for (args, message) in cases {
        assert_eq!(error_line(args), *message, "{args:?}");
    }
}

/// Options that cannot combine, or that would be carried and ignored, are
/// refused: none is silently dropped (issue 36 item 2; issue 32 D21).
#[test]
fn options_that_would_be_dropped_are_refused() {
    let cases: &[(&[&str], &str)] = &[
        // Reported `"halve": false` and counted without any reduction.
        (
            &["count", "queens", "10", "--halve", "--no-symmetry", "--json"],
            "error: --halve is a symmetry reduction (the left half of the first row, doubled), which --no-symmetry turns off: choose one",
        ),
        // N-queens cubes are never split again: the budget did nothing.
        (
            &["count", "queens", "8", "--cube-budget", "0.001"],
            "error: --cube-budget applies to domination counts without --limit (N-queens cubes are never split again)",
        ),
        (
            &["count", "independence", "6", "--piece", "knight", "--cube-budget", "1"],
            "error: --cube-budget applies to domination counts without --limit (N-queens cubes are never split again)",
        ),
        (
            &["count", "domination", "6", "--limit", "3", "--cube-budget", "1"],
            "error: --cube-budget applies to domination counts without --limit (N-queens cubes are never split again)",
        ),
        // Queens fix k = n: the message says so, not "with -k".
        (
            &["solve", "queens", "8", "--portfolio"],
            "error: --portfolio races encodings for an optimum; it does not apply with -k (queens N places exactly N queens)",
        ),
        // Without -o nothing is written, so these did nothing.
        (
            &["cubes", "queens", "6", "--estimate", "2", "--replace"],
            "error: the following required arguments were not provided: --output <DIR>",
        ),
        (
            &["cubes", "queens", "6", "--estimate", "2", "--proof"],
            "error: the following required arguments were not provided: --output <DIR>",
        ),
        (
            &["cubes", "queens", "6", "--estimate", "2", "--format", "icnf"],
            "error: the following required arguments were not provided: --output <DIR>",
        ),
        // Encodings nothing would be built from are refused, not ignored.
        (
            &["solve", "queens", "6", "--card", "seqcounter"],
            "error: --card applies where pieces are counted (domination, optima, --formulation cardinality); exactly k pieces in the lines formulation are counted by the lines themselves",
        ),
        (
            &["dimacs", "independence", "5", "--piece", "rook", "-k", "5", "--card", "totalizer"],
            "error: --card applies where pieces are counted (domination, optima, --formulation cardinality); exactly k pieces in the lines formulation are counted by the lines themselves",
        ),
        (
            &["count", "domination", "5", "--amo", "ladder"],
            "error: --amo applies where pieces may not attack each other (independence, queens, independent domination); dominating pieces may",
        ),
        // --replace replaces a proof directory: without --proof, nothing.
        (
            &["solve-dimacs", "x.cnf", "--replace"],
            "error: the following required arguments were not provided: --proof <DIR>",
        ),
        (
            &["count-dimacs", "x.cnf", "--replace"],
            "error: the following required arguments were not provided: --proof <DIR>",
        ),
        (
            &["solve", "queens", "8", "--replace"],
            "error: the following required arguments were not provided: --proof <DIR>",
        ),
        // --json is a format: two formats, one output.
        (
            &["bench", "queens", "--n", "4", "--json", "--format", "csv"],
            "error: the argument '--json' cannot be used with '--format <FORMAT>'",
        ),
        // -k is for first and count; the optimum finds it.
        (
            &["bench", "domination", "--n", "5", "--task", "optimum", "-k", "3"],
            "error: -k applies to the tasks first and count; --task optimum finds the optimum itself",
        ),
        // The families a split takes, and no other.
        (
            &["cubes", "independence", "6", "-o", "d"],
            "error: invalid value 'independence' for '<FAMILY>' [possible values: queens, domination]",
        ),
    ];
    for (args, message) in cases {
        assert_eq!(error_line(args), *message, "{args:?}");
    }
    // Each alone is fine.
    for args in [
        &["count", "queens", "8", "--halve"][..],
        &["count", "queens", "8", "--no-symmetry"],
        &["count", "domination", "5", "--cube-budget", "0.001"],
    ] {
        assert_eq!(run(args).status.code(), Some(0), "{args:?}");
    }
}

/// Help texts say what a command does and offer only what it takes:
/// `cubes` splits N-queens and domination counts (issue 36 item 4).
#[test]
fn help_texts_say_what_the_command_does() {
    let help = |args: &[&str]| {
        let o = run(args);
        assert_eq!(o.status.code(), Some(0), "{args:?}");
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let top = help(&["--help"]);
    let cubes = top
        .lines()
        .find(|l| l.trim_start().starts_with("cubes"))
        .unwrap_or_default();
    assert!(
        cubes.contains("Split a count") && !cubes.contains("an N-queens count"),
        "{cubes}"
    );
    let own = help(&["cubes", "--help"]);
    assert!(own.contains("dominating sets with -k"), "{own}");
    assert!(
        own.contains("[possible values: queens, domination]"),
        "{own}"
    );
    assert!(!own.contains("independence]"), "{own}");
}

/// Clap's own errors, reduced to their first line (plus clap's tip).
#[test]
fn clap_errors_are_one_line() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["solve", "queens"],
            "error: the following required arguments were not provided: <N>",
        ),
        (
            &["solve", "queenz", "8"],
            "error: invalid value 'queenz' for '<FAMILY>' [possible values: queens, independence, domination] (tip: a similar value exists: 'queens')",
        ),
        (
            &["solve", "queens", "8", "--frobnicate"],
            "error: unexpected argument '--frobnicate' found (tip: to pass '--frobnicate' as a value, use '-- --frobnicate')",
        ),
        (
            &["solve", "queens", "8", "--time-limit", "-1"],
            "error: invalid value '-1' for '--time-limit <SECONDS>': '-1' is not a positive number of seconds",
        ),
        (
            &["solve", "queens", "8", "--time-limit", "soon"],
            "error: invalid value 'soon' for '--time-limit <SECONDS>': 'soon' is not a positive number of seconds",
        ),
        (&["frobnicate"], "error: unrecognized subcommand 'frobnicate'"),
    ];
    for (args, message) in cases {
        assert_eq!(error_line(args), *message, "{args:?}");
    }
    // Help and version are not errors.
    assert_eq!(run(&["--version"]).status.code(), Some(0));
    assert_eq!(run(&["solve", "--help"]).status.code(), Some(0));
}

#[test]
fn encodings_too_large_are_refused_with_the_estimate_and_a_hint() {
    assert_eq!(
        error_line(&["solve", "queens", "1000", "--amo", "pairwise"]),
        "error: the encoding of independence of queens on 1000x1000 would have about 1.7 billion clauses and 3.3 billion literals (about 297.9 GiB), above the limit of 200 million clauses or 8 GiB; try --amo product (about 11.9 million clauses), or --force to go on"
    );
    assert_eq!(
        error_line(&["dimacs", "domination", "3000", "-k", "5"]),
        "error: the encoding of domination of queens on 3000x3000 would have about 131 million clauses and 402 million literals (about 31.8 GiB), above the limit of 200 million clauses or 8 GiB; no other encoding fits either; a smaller board, or --force to go on"
    );
    // --force passes the check: the next error is the one after it.
    assert_eq!(
        error_line(&["dimacs", "queens", "2000", "--force", "--json"]),
        "error: --json with dimacs needs -o FILE (stdout cannot hold both)"
    );
    // Sizes well inside the limit are not refused.
    let o = run(&["dimacs", "queens", "200", "--amo", "ladder"]);
    assert_eq!(o.status.code(), Some(0));
}

/// External-solver faults through the CLI: one line naming the command.
#[test]
fn external_solver_faults_name_the_command() {
    for (script, what) in [
        (
            "silent.sh",
            "gave no answer (exit code 0, no status in its output)",
        ),
        ("crash.sh", "crashed (killed by signal 11 (SIGSEGV))"),
        (
            "garbage.sh",
            "garbage on line 3 of its output ('s PROBABLY')",
        ),
    ] {
        let command = fake(script);
        let line = error_line(&["solve", "queens", "4", "--solver-cmd", &command]);
        assert!(
            line.starts_with(&format!("error: solver '{command}'")),
            "{script}: {line}"
        );
        assert!(line.contains(what), "{script}: {line}");
    }
    let line = error_line(&[
        "solve",
        "queens",
        "4",
        "--solver-cmd",
        "/nonexistent/solver",
    ]);
    assert_eq!(
        line,
        "error: solver '/nonexistent/solver': program '/nonexistent/solver' not found (not a file, and not on PATH)"
    );
    // A hanging solver is stopped by the time limit: exit 3, not an error.
    let o = run(&[
        "solve",
        "queens",
        "4",
        "--solver-cmd",
        &fake("hang.sh"),
        "--time-limit",
        "1",
    ]);
    assert_eq!(
        o.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn unwritable_outputs_are_one_line_errors() {
    let o = run(&["dimacs", "queens", "4", "-o", "/etc/passwd/x.cnf"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert_eq!(
        err.trim_end(),
        "error: cannot write to /etc/passwd/x.cnf: not a directory"
    );
    let o = run(&["dimacs", "queens", "4", "-o", "/proc/boardsat.cnf"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: cannot write to /proc/boardsat.cnf: "),
        "{err}"
    );
    // After the solver's statistics lines, the error is the last line.
    let o = run(&["solve", "queens", "4", "--svg", "/etc/passwd/x.svg"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        err.lines().last(),
        Some("error: cannot write to /etc/passwd/x.svg: not a directory"),
        "{err}"
    );
}
