//! The two routes by which the frontier terms of A002564 are published
//! (issue 52): route 1 counts with the totalizer and a depth-2 split,
//! route 2 with the sequential counter and a depth-3 split, so the two
//! formulas differ (other auxiliary variables and clauses) and no cube is
//! shared. On every board where OEIS has the term and it is cheap, both
//! routes give it; on one, both proofs verify, with cake_lpr too.

mod common;

use common::{run_in, text};

/// A002564(n), n = 1..13 (OEIS): minimum dominating sets of queens.
const A002564: [u64; 13] = [1, 4, 1, 12, 186, 4, 86, 4860, 114, 8, 2, 8, 288];

/// Route 1's and route 2's arguments beyond the problem.
const ROUTES: [&[&str]; 2] = [
    &["--depth", "2", "--card", "totalizer"],
    &[
        "--depth",
        "3",
        "--card",
        "seqcounter",
        "--cube-budget",
        "30",
    ],
];

#[test]
fn both_routes_give_every_known_term() {
    let tmp = tempfile::tempdir().unwrap();
    for n in 4..=12 {
        let expected = A002564[n - 1];
        for route in ROUTES {
            let mut args = vec!["count".to_string(), "domination".into(), n.to_string()];
            args.extend(route.iter().map(|a| a.to_string()));
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let o = run_in(tmp.path(), &args);
            assert_eq!(o.status.code(), Some(0), "{args:?}: {}", text(&o.stderr));
            assert_eq!(
                text(&o.stdout).trim(),
                expected.to_string(),
                "{args:?}: A002564({n})"
            );
        }
    }
}

#[test]
fn both_routes_prove_a_term_with_formulas_of_their_own() {
    let tmp = tempfile::tempdir().unwrap();
    let mut formulas = Vec::new();
    for (i, route) in ROUTES.iter().enumerate() {
        let dir = format!("route{}", i + 1);
        let mut args = vec!["count", "domination", "8", "--proof", &dir];
        args.extend(["--proof-format", "binary", "--proof-compression", "zstd"]);
        args.extend(route.iter());
        let o = run_in(tmp.path(), &args);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
        assert!(text(&o.stdout).starts_with("4860 "), "{}", text(&o.stdout));
        let path = tmp.path().join(&dir);
        let mut verify = vec!["verify".to_string(), path.display().to_string()];
        if let Some(cake) = common::cake_lpr() {
            verify.extend(["--checker".to_string(), cake.display().to_string()]);
        }
        let verify: Vec<&str> = verify.iter().map(String::as_str).collect();
        let o = common::run(&verify);
        let out = text(&o.stdout);
        assert_eq!(o.status.code(), Some(0), "{out}");
        assert!(
            out.lines()
                .last()
                .unwrap()
                .starts_with("verified: domination of queens on 8x8 has exactly 4860 placements"),
            "{out}"
        );
        // The claim of the count's first cube: its encoding is the route's.
        let first = std::fs::read_dir(&path)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "cnf"))
            .map(|p| std::fs::read_to_string(p).unwrap())
            .find(|f| f.contains("c card: "))
            .unwrap();
        let card = first
            .lines()
            .find(|l| l.starts_with("c card: "))
            .unwrap()
            .to_string();
        formulas.push(card);
    }
    assert_eq!(formulas, ["c card: totalizer", "c card: seqcounter"]);
}
