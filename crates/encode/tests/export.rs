//! Beyond CNF: the linear model against the independent checker by brute
//! force, and the OPB, WCNF and LP files read back — OPB and WCNF by
//! rustsat's parsers, LP by a small reader of this test — with the same
//! variables, constraints and objective, and their provenance parsed back.

use boardsat_encode::{
    check,
    dimacs::Format,
    export::{self, check_fit, Provenance},
    linear::{Goal, Model, Part, Sense},
    Amo, Board, Bound, Config, Formulation, Kind, Piece, Placement, Problem,
};
use rustsat::{
    instances::{BasicVarManager, Cnf, OptInstance, SatInstance},
    types::{Assignment, Lit, TernaryVal},
};

mod common;

const KINDS: [Kind; 3] = [
    Kind::Independence,
    Kind::Domination,
    Kind::IndependentDomination,
];

/// Every 0-1 assignment of the board's variables, as values.
fn assignments(board: &Board) -> impl Iterator<Item = Vec<bool>> {
    let n = board.n_squares();
    (0u32..1 << n).map(move |bits| (0..n).map(|i| bits >> i & 1 == 1).collect())
}

fn placement(board: &Board, values: &[bool]) -> Placement {
    Placement::new(
        board
            .squares()
            .filter(|&sq| values[board.index(sq)])
            .collect(),
    )
}

fn assignment(values: &[bool]) -> Assignment {
    values
        .iter()
        .map(|&b| {
            if b {
                TernaryVal::True
            } else {
                TernaryVal::False
            }
        })
        .collect()
}

/// Small problems of every kind and piece, with a k and without.
fn problems() -> Vec<(Problem, Option<usize>)> {
    let mut out = Vec::new();
    for (rows, cols) in [(3, 3), (4, 4), (3, 4), (2, 5)] {
        let board = Board::new(rows, cols).unwrap();
        for piece in Piece::ALL {
            for kind in KINDS {
                let problem = Problem::new(board, piece, kind);
                for k in [None, Some(1), Some(2), Some(rows.min(cols)), Some(5)] {
                    out.push((problem, k));
                }
            }
        }
    }
    out
}

#[test]
fn the_linear_model_accepts_exactly_what_the_checker_accepts() {
    for (problem, k) in problems() {
        let model = Model::new(&problem, k).unwrap();
        let bound = model.goal.bound();
        let mut solutions = 0;
        for values in assignments(&problem.board) {
            let by_model = model.violated(&values).is_none();
            let by_checker = check(&problem, bound, &placement(&problem.board, &values)).is_ok();
            assert_eq!(by_model, by_checker, "{problem}, k {k:?}, {values:?}");
            solutions += usize::from(by_model);
        }
        // The brute force must see both answers where both exist.
        assert!(solutions > 0 || k.is_some(), "{problem}: no solution");
    }
}

#[test]
fn n_queens_states_rows_and_columns_exactly_one_and_no_count() {
    let model = Model::new(&Problem::queens(8).unwrap(), Some(8)).unwrap();
    let rows: Vec<_> = model
        .constraints
        .iter()
        .filter(|c| matches!(c.part, Part::Line(_, _)) && c.bound == Bound::Exactly(1))
        .collect();
    assert_eq!(rows.len(), 16);
    assert!(model.constraints.iter().all(|c| c.part != Part::Pieces));
    // 2·15 diagonals of which 2·13 have two squares or more.
    assert_eq!(model.constraints.len(), 16 + 26);
    let domination = Problem::new(Board::square(8).unwrap(), Piece::Queen, Kind::Domination);
    let model = Model::new(&domination, None).unwrap();
    assert_eq!(model.goal, Goal::Optimum(Sense::Minimise));
    assert_eq!(model.constraints.len(), 64);
    let model = Model::new(&domination, Some(5)).unwrap();
    assert_eq!(model.constraints.last().unwrap().bound, Bound::AtMost(5));
}

fn text(write: impl FnOnce(&mut Vec<u8>) -> std::io::Result<()>) -> String {
    let mut out = Vec::new();
    write(&mut out).unwrap();
    String::from_utf8(out).unwrap()
}

fn comments(text: &str, prefix: &str) -> Vec<String> {
    text.lines()
        .map_while(|l| l.strip_prefix(prefix))
        .map(|l| l.trim().to_string())
        .collect()
}

#[test]
fn opb_files_read_back_by_rustsat_state_the_model() {
    for (problem, k) in problems() {
        let model = Model::new(&problem, k).unwrap();
        let provenance = Provenance::linear(&model, Format::Opb);
        let opb = text(|out| export::opb::write(out, &model, &provenance.lines(Some("x"))));
        let first = opb.lines().next().unwrap();
        assert_eq!(
            first,
            format!(
                "* #variable= {} #constraint= {}",
                problem.board.n_squares(),
                model.constraints.len()
            )
        );
        assert_eq!(Provenance::parse(&comments(&opb, "*")).unwrap(), provenance);
        let opts = rustsat::instances::fio::opb::Options::default();
        let (constraints, objective) = match model.goal {
            Goal::Optimum(_) => {
                let inst =
                    OptInstance::<BasicVarManager>::from_opb(&mut opb.as_bytes(), opts).unwrap();
                let (constraints, objective) = inst.decompose();
                (constraints, Some(objective))
            }
            Goal::Bound(_) => (
                SatInstance::from_opb(&mut opb.as_bytes(), opts).unwrap(),
                None,
            ),
        };
        assert_eq!(
            constraints.n_constraints(),
            model.constraints.len(),
            "{problem}"
        );
        assert!(constraints.n_vars() <= model.n_vars());
        for values in assignments(&problem.board).step_by(7) {
            let a = assignment(&values);
            let sat = constraints.evaluate(&a) == TernaryVal::True;
            assert_eq!(
                sat,
                model.violated(&values).is_none(),
                "{problem} {values:?}"
            );
            if let (Some(objective), Goal::Optimum(sense)) = (&objective, model.goal) {
                let pieces = values.iter().filter(|&&v| v).count() as isize;
                // The most pieces is `min: -1 x1 …` (rustsat reads it as a
                // weight on ¬x with an offset, and evaluates both).
                let want = match sense {
                    Sense::Minimise => pieces,
                    Sense::Maximise => -pieces,
                };
                assert_eq!(objective.evaluate(&a), want, "{problem}");
            }
        }
    }
}

#[test]
fn wcnf_files_read_back_by_rustsat_have_the_hard_clauses_and_a_soft_unit_per_square() {
    let config = Config {
        amo: Amo::Ladder,
        ..Config::default()
    };
    for piece in Piece::ALL {
        for kind in KINDS {
            let problem = Problem::new(Board::new(4, 5).unwrap(), piece, kind);
            let mut vars = problem.var_manager();
            let mut cnf = Cnf::new();
            let encoding = problem
                .encode_unbounded(config, &mut cnf, &mut vars)
                .unwrap();
            assert!(encoding.bound.is_none() && encoding.counter.is_none());
            let provenance = Provenance::wcnf(&problem, encoding.stats.n_vars);
            let wcnf =
                text(|out| export::wcnf::write(out, &encoding, &cnf, &provenance.lines(None)));
            assert_eq!(
                Provenance::parse(&comments(&wcnf, "c")).unwrap(),
                provenance
            );
            assert!(
                !wcnf.lines().any(|l| l.starts_with("p ")),
                "no p line since 2022"
            );
            let inst = OptInstance::<BasicVarManager>::from_dimacs(&mut wcnf.as_bytes()).unwrap();
            let (hard, objective) = inst.decompose();
            let (hard, _) = hard.into_cnf();
            assert_eq!(
                hard.into_iter().collect::<Vec<_>>(),
                cnf.iter().cloned().collect::<Vec<_>>()
            );
            let mut softs: Vec<(Lit, usize)> =
                objective.iter_soft_lits().unwrap().into_iter().collect();
            softs.sort();
            let sense = Sense::of(problem.kind);
            let want: Vec<(Lit, usize)> = problem
                .board_lits()
                .into_iter()
                // A soft clause (x) is falsified when x is false: rustsat
                // stores the literal whose truth costs its weight.
                .map(|x| (if sense == Sense::Minimise { x } else { !x }, 1))
                .collect();
            assert_eq!(softs, want, "{problem}");
        }
    }
}

#[test]
fn wcnf_optima_equal_brute_force_optima() {
    // The hard clauses decide the same placements as the checker: the
    // fewest dominating and the most independent pieces agree with brute
    // force on a small board for every piece.
    let board = Board::new(3, 4).unwrap();
    for piece in Piece::ALL {
        for kind in KINDS {
            let problem = Problem::new(board, piece, kind);
            let mut vars = problem.var_manager();
            let mut cnf = Cnf::new();
            let encoding = problem
                .encode_unbounded(Config::default(), &mut cnf, &mut vars)
                .unwrap();
            assert!(
                encoding.stats.n_aux_vars > 0 || !problem.kind.dominating() || !piece.is_slider()
            );
            let best_checker = assignments(&board)
                .filter(|v| check(&problem, None, &placement(&board, v)).is_ok())
                .map(|v| v.iter().filter(|&&b| b).count());
            let best_checker = match Sense::of(problem.kind) {
                Sense::Minimise => best_checker.min(),
                Sense::Maximise => best_checker.max(),
            };
            // Whether some auxiliaries extend a board assignment to a model.
            let mut solver = common::solver_of(&cnf);
            let board_lits = problem.board_lits();
            let best_clauses = assignments(&board)
                .filter(|v| {
                    let units: Vec<Lit> = board_lits
                        .iter()
                        .zip(v)
                        .map(|(&x, &b)| if b { x } else { !x })
                        .collect();
                    common::sat_under(&mut solver, &units)
                })
                .map(|v| v.iter().filter(|&&b| b).count());
            let best_clauses = match Sense::of(problem.kind) {
                Sense::Minimise => best_clauses.min(),
                Sense::Maximise => best_clauses.max(),
            };
            assert_eq!(best_clauses, best_checker, "{problem}");
        }
    }
}

/// The rows of an LP file: (name, variables, relation, right-hand side),
/// and the objective's sense and variables, and the binaries.
struct Lp {
    objective: Option<(String, Vec<u32>)>,
    rows: Vec<(String, Vec<u32>, String, usize)>,
    binaries: Vec<u32>,
}

fn terms(text: &str) -> Vec<u32> {
    text.split('+')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| t.strip_prefix('x').unwrap().parse().unwrap())
        .collect()
}

/// A reader for the LP subset the writer uses: sections, named rows that
/// continue over lines, sums with coefficient 1.
fn read_lp(text: &str) -> Lp {
    let mut section = "";
    let mut statements: Vec<(String, String)> = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('\\')) {
        match line.trim() {
            s @ ("Minimize" | "Maximize" | "Subject To" | "Binary" | "End") => section = s,
            body if line.starts_with("   ") => statements.last_mut().unwrap().1.push_str(body),
            body => statements.push((section.to_string(), format!(" {body}"))),
        }
    }
    let mut lp = Lp {
        objective: None,
        rows: Vec::new(),
        binaries: Vec::new(),
    };
    for (section, body) in statements {
        match section.as_str() {
            "Minimize" | "Maximize" => {
                let (_, sum) = body.split_once(':').unwrap();
                lp.objective = Some((section, terms(sum)));
            }
            "Subject To" => {
                let (name, rest) = body.split_once(':').unwrap();
                let (relation, at) = ["<=", ">=", "="]
                    .iter()
                    .find_map(|r| rest.find(r).map(|i| (*r, i)))
                    .unwrap();
                let rhs = rest[at + relation.len()..].trim().parse().unwrap();
                lp.rows.push((
                    name.trim().to_string(),
                    terms(&rest[..at]),
                    relation.into(),
                    rhs,
                ));
            }
            "Binary" => lp.binaries.extend(
                body.split_whitespace()
                    .map(|x| x[1..].parse::<u32>().unwrap()),
            ),
            other => panic!("a statement in section '{other}'"),
        }
    }
    lp
}

#[test]
fn lp_files_state_the_model_row_by_row() {
    for (problem, k) in problems() {
        let model = Model::new(&problem, k).unwrap();
        let provenance = Provenance::linear(&model, Format::Lp);
        let lp_text = text(|out| export::lp::write(out, &model, &provenance.lines(None)));
        assert_eq!(
            Provenance::parse(&comments(&lp_text, "\\")).unwrap(),
            provenance
        );
        assert!(lp_text.lines().all(|l| l.len() < 255), "short lines");
        let lp = read_lp(&lp_text);
        let n = model.n_vars();
        assert_eq!(lp.binaries, (1..=n).collect::<Vec<_>>());
        let board: Vec<u32> = (1..=n).collect();
        match model.goal {
            Goal::Optimum(Sense::Minimise) => {
                assert_eq!(lp.objective, Some(("Minimize".into(), board)))
            }
            Goal::Optimum(Sense::Maximise) => {
                assert_eq!(lp.objective, Some(("Maximize".into(), board)))
            }
            Goal::Bound(_) => assert_eq!(lp.objective, Some(("Minimize".into(), vec![]))),
        }
        assert_eq!(lp.rows.len(), model.constraints.len());
        for (row, c) in lp.rows.iter().zip(&model.constraints) {
            let vars: Vec<u32> = c.lits.iter().map(|l| l.vidx32() + 1).collect();
            let (relation, k) = match c.bound {
                Bound::AtMost(k) => ("<=", k),
                Bound::AtLeast(k) => (">=", k),
                Bound::Exactly(k) => ("=", k),
            };
            assert_eq!(row, &(c.part.name(), vars, relation.to_string(), k));
        }
    }
}

#[test]
fn formats_fit_their_questions() {
    assert!(check_fit(Format::Cnf, Some(5)).is_ok());
    assert!(check_fit(Format::Cnf, None).is_err());
    assert!(check_fit(Format::Wcnf, None).is_ok());
    let wcnf = check_fit(Format::Wcnf, Some(8)).unwrap_err().to_string();
    assert!(wcnf.contains("wcnf states an optimum"), "{wcnf}");
    for format in [Format::Opb, Format::Lp] {
        assert!(check_fit(format, None).is_ok() && check_fit(format, Some(3)).is_ok());
    }
    assert!(check_fit(Format::Inccnf, Some(3)).is_err());
    // DIMACS has its own writer; the others are refused there.
    let mut header = boardsat_encode::dimacs::Header::new();
    header.format = Format::Lp;
    let error = boardsat_encode::dimacs::write(&mut Vec::new(), &header, &Cnf::new(), 0);
    assert_eq!(error.unwrap_err().kind(), std::io::ErrorKind::InvalidInput);
}

#[test]
fn provenance_names_what_is_missing_or_wrong() {
    let problem = Problem::new(Board::square(5).unwrap(), Piece::Knight, Kind::Independence);
    let model = Model::new(&problem, None).unwrap();
    let good = Provenance::linear(&model, Format::Lp).lines(None);
    assert!(good.contains(&"board variables: x1..x25, square (r, c) is x{r*5 + c + 1}".into()));
    for (key, message) in [
        ("format", "no 'format:' line"),
        ("board", "no 'board:' line"),
        ("objective", "no 'bound:' line"),
        ("variables", "no 'variables:' line"),
    ] {
        let lines: Vec<&String> = good
            .iter()
            .filter(|l| !l.starts_with(&format!("{key}:")))
            .collect();
        let error = Provenance::parse(&lines.iter().map(|s| s.as_str()).collect::<Vec<_>>());
        assert!(error.unwrap_err().to_string().contains(message), "{key}");
    }
    let bad = |from: &str, to: &str| {
        let lines: Vec<String> = good.iter().map(|l| l.replace(from, to)).collect();
        Provenance::parse(&lines).unwrap_err().to_string()
    };
    assert!(bad("piece: knight", "piece: camel").contains("unknown piece 'camel'"));
    assert!(bad("board: 5x5", "board: 5by5").contains("bad board"));
    assert!(bad("variables: 25", "variables: 24").contains("fewer than the 25 squares"));
    assert!(bad("maximise the", "maximize the").contains("bad objective"));
    let bounded = Provenance::linear(&Model::new(&problem, Some(3)).unwrap(), Format::Opb);
    assert!(bounded
        .lines(None)
        .contains(&"bound: exactly 3 pieces".to_string()));
    assert_eq!(
        Provenance::parse(&bounded.lines(None)).unwrap().goal,
        Goal::Bound(Bound::Exactly(3))
    );
}

#[test]
fn the_unbounded_encoding_refuses_lazy_lines_and_keeps_the_formulation() {
    let queens = Problem::new(Board::square(6).unwrap(), Piece::Queen, Kind::Independence);
    let lazy = Config {
        amo: Amo::Lazy,
        ..Config::default()
    };
    let mut vars = queens.var_manager();
    assert!(queens
        .encode_unbounded(lazy, &mut Cnf::new(), &mut vars)
        .is_err());
    let domination = Problem::new(Board::square(6).unwrap(), Piece::Queen, Kind::Domination);
    let mut vars = domination.var_manager();
    let encoding = domination
        .encode_unbounded(Config::default(), &mut Cnf::new(), &mut vars)
        .unwrap();
    assert_eq!(encoding.config.formulation, Formulation::Lines);
    let mut vars = queens.var_manager();
    let encoding = queens
        .encode_unbounded(Config::default(), &mut Cnf::new(), &mut vars)
        .unwrap();
    assert_eq!(encoding.config.formulation, Formulation::Cardinality);
}
