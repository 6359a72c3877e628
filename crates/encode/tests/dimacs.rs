//! DIMACS output read back with rustsat's parser.

use boardsat_encode::{dimacs, Amo, Config, Problem};
use proptest::prelude::*;
use rustsat::{
    instances::{BasicVarManager, Cnf, ManageVars, SatInstance},
    types::{Clause, Lit},
};

fn write(cnf: &Cnf, header: &dimacs::Header, n_vars: u32) -> String {
    let mut out = Vec::new();
    dimacs::write(&mut out, header, cnf, n_vars).unwrap();
    String::from_utf8(out).unwrap()
}

fn parse(text: &str) -> (Vec<Clause>, u32) {
    let inst = SatInstance::<BasicVarManager>::from_dimacs(&mut text.as_bytes()).unwrap();
    let n_vars = inst.n_vars();
    let (cnf, _) = inst.into_cnf();
    (cnf.into_iter().collect(), n_vars)
}

#[test]
fn an_encoded_problem_round_trips_with_its_header() {
    let problem = Problem::queens(5).unwrap();
    let mut vars = problem.var_manager();
    let mut cnf = Cnf::new();
    let config = Config {
        amo: Amo::Ladder,
        ..Config::default()
    };
    let encoding = problem.encode(5, config, &mut cnf, &mut vars).unwrap();
    let mut header = dimacs::Header::new();
    header.comments.extend(encoding.describe());
    header.show = Some(encoding.stats.n_board_vars);
    let text = write(&cnf, &header, encoding.stats.n_vars);

    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("c generator: boardsat "),
        "{}",
        lines[0]
    );
    let p = lines.iter().position(|l| l.starts_with("p ")).unwrap();
    let show: String = (1..=25).map(|v| format!(" {v}")).collect();
    assert_eq!(lines[p - 3], "c t pmc");
    assert_eq!(lines[p - 2], format!("c p show{show} 0"));
    assert_eq!(lines[p - 1], format!("c ind{show} 0"));
    assert_eq!(lines[p], format!("p cnf {} {}", vars.n_used(), cnf.len()));
    assert!(lines[1..p - 3].iter().all(|l| l.starts_with("c ")));
    assert!(lines.contains(&"c amo: ladder"));

    let (clauses, n_vars) = parse(&text);
    assert_eq!(n_vars, encoding.stats.n_vars);
    assert_eq!(clauses, cnf.into_iter().collect::<Vec<_>>());
}

#[test]
fn long_projections_are_split_across_lines() {
    let mut header = dimacs::Header::new();
    header.show = Some(130);
    let text = write(&Cnf::new(), &header, 140);
    let shows: Vec<&str> = text.lines().filter(|l| l.starts_with("c p show")).collect();
    assert_eq!(shows.len(), 3);
    let listed: Vec<u32> = shows
        .iter()
        .flat_map(|l| {
            l["c p show".len()..]
                .split_whitespace()
                .map(|t| t.parse::<u32>().unwrap())
        })
        .filter(|&v| v != 0)
        .collect();
    assert_eq!(listed, (1..=130).collect::<Vec<_>>());
    assert!(text.ends_with("p cnf 140 0\n"));
}

fn clause_strategy(max_var: i32) -> impl Strategy<Value = Vec<i32>> {
    prop::collection::vec((1..=max_var, any::<bool>()), 1..6).prop_map(|lits| {
        lits.into_iter()
            .map(|(v, pos)| if pos { v } else { -v })
            .collect()
    })
}

proptest! {
    #[test]
    fn random_cnfs_round_trip(
        clauses in prop::collection::vec(clause_strategy(30), 0..40),
        extra_vars in 0u32..5,
        show in prop::option::of(0u32..30),
    ) {
        let cnf: Cnf = clauses
            .iter()
            .map(|c| c.iter().map(|&l| Lit::from_ipasir(l).unwrap()).collect::<Clause>())
            .collect();
        let n_vars = 30 + extra_vars;
        let mut header = dimacs::Header::new();
        header.show = show;
        header.comments.push("multi\nline comment".to_string());
        let text = write(&cnf, &header, n_vars);
        let (parsed, parsed_vars) = parse(&text);
        prop_assert_eq!(parsed_vars, n_vars);
        prop_assert_eq!(parsed, cnf.into_iter().collect::<Vec<_>>());
        let p_line = format!("p cnf {} {}\n", n_vars, clauses.len());
        prop_assert!(text.contains(&p_line));
        prop_assert!(text.lines().take_while(|l| !l.starts_with("p ")).all(|l| l.starts_with("c ")));
    }
}
