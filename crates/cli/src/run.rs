//! The subcommands.

use std::{
    fs::File,
    io::{self, BufReader, Write},
    process::ExitCode,
    time::{Duration, Instant},
};

use anyhow::{bail, Context, Result};
use boardsat_encode::{dimacs, Board, Card, Config, Encoding, Kind, Piece, Placement, Problem};
use boardsat_solve::{
    optimise_portfolio, optimise_with, Backend, End, Optimum, Options, Profile, Session,
    SolveError, SolverKind, Status, Strategy,
};
use rustsat::instances::Cnf;
use serde_json::json;

use crate::{
    args::{Cli, Command, CountArgs, DimacsArgs, Family, ProblemArgs, SolveDimacsArgs, SolverArgs},
    draw,
    interrupt::{self, Stop},
    output::{self, encoding_json, merge, placement_json, stats_line},
};

/// Runs one command and returns its exit code.
pub fn run(cli: Cli) -> Result<ExitCode> {
    interrupt::install();
    match cli.command {
        Command::Solve(args) => solve(&args),
        Command::Count(args) => count(&args, false),
        Command::Enumerate(args) => count(&args, true),
        Command::Dimacs(args) => write_dimacs(&args),
        Command::SolveDimacs(args) => solve_dimacs(&args),
        Command::Bench(args) => crate::bench::bench(&args),
        Command::Cubes(args) => crate::cubes_cmd::cubes(&args),
        Command::CountDimacs(args) => crate::cubes_cmd::count_dimacs(&args),
        Command::Merge(args) => crate::cubes_cmd::merge(&args),
    }
}

/// The problem the arguments describe, and the fixed k if any.
fn problem(args: &ProblemArgs) -> Result<(Problem, Option<usize>)> {
    let board = Board::new(args.n, args.cols.unwrap_or(args.n))?;
    let piece: Piece = args.piece.map_or(Piece::Queen, Into::into);
    if args.independent && args.family != Family::Domination {
        bail!("--independent applies to domination only");
    }
    let (problem, k) = match args.family {
        Family::Queens => {
            if args.piece.is_some_and(|p| Piece::from(p) != Piece::Queen) {
                bail!(
                    "queens places queens; use 'independence --piece {}' for other pieces",
                    piece
                );
            }
            if args.cols.is_some_and(|c| c != args.n) {
                bail!("queens needs a square board; use 'independence' with --cols for rectangular boards");
            }
            if args.k.is_some_and(|k| k != args.n) {
                bail!("queens places exactly n queens; use 'independence -k' for another number");
            }
            (
                Problem::new(board, Piece::Queen, Kind::Independence),
                Some(args.n),
            )
        }
        Family::Independence => (Problem::new(board, piece, Kind::Independence), args.k),
        Family::Domination => {
            let kind = if args.independent {
                Kind::IndependentDomination
            } else {
                Kind::Domination
            };
            (Problem::new(board, piece, kind), args.k)
        }
    };
    if let Some(k) = k {
        if k > board.n_squares() {
            bail!(
                "k = {k} is more pieces than the {} board has squares ({})",
                board,
                board.n_squares()
            );
        }
    }
    crate::size::check(&problem, k, config(args), args.force)?;
    Ok((problem, k))
}

fn config(args: &ProblemArgs) -> Config {
    Config {
        amo: args.encoding.amo,
        card: args.encoding.card,
        formulation: args.encoding.formulation,
    }
}

/// Builds the backend the arguments ask for, registered for interrupts.
/// The backend kind the arguments ask for.
pub(crate) fn solver_kind(args: &SolverArgs) -> Result<SolverKind> {
    Ok(match (args.solver, &args.solver_cmd) {
        (Some(s), Some(_)) if SolverKind::from(s) != SolverKind::External => {
            bail!("--solver-cmd needs --solver external (or no --solver)")
        }
        (Some(s), _) => SolverKind::from(s),
        (None, Some(_)) => SolverKind::External,
        (None, None) => SolverKind::default_embedded(),
    })
}

fn backend(args: &SolverArgs, profile: Profile) -> Result<Box<dyn Backend>> {
    let kind = solver_kind(args)?;
    let mut backend = kind.create_with(&Options {
        command: args.solver_cmd.as_deref(),
        seed: args.seed,
        profile,
    })?;
    if let Some(i) = backend.interrupt() {
        interrupt::register(i.interrupter());
    } else if let (Some(t), Some(secs)) = (backend.time_limit(), args.time_limit) {
        t.set_time_limit(Some(Duration::from_secs_f64(secs)));
    }
    interrupt::watchdog(args.time_limit);
    Ok(backend)
}

// ---------------------------------------------------------------- solve

fn solve(args: &ProblemArgs) -> Result<ExitCode> {
    let (problem, k) = problem(args)?;
    let start = Instant::now();
    let backend = backend(&args.solver, Profile::Single)?;
    let signature = backend.signature();
    let (status, placement, optimum, encoding, calls) = match k {
        Some(k) => {
            let mut session = Session::fixed(&problem, k, config(args), backend)?;
            let (status, placement) = session.solve()?;
            let calls = session.calls();
            (status, placement, None, session.into_encoding(), calls)
        }
        None => {
            let strategy = Strategy::fastest(&problem);
            let (optimum, encoding, calls) = if args.portfolio {
                drop(backend);
                portfolio(args, &problem, strategy)?
            } else {
                let (optimum, session) = optimise_with(&problem, config(args), backend, strategy)?;
                // Every call, those on fresh solvers included.
                let calls = optimum.calls.len() as u64;
                (optimum, session.into_encoding(), calls)
            };
            let status = if optimum.proven {
                Status::Sat
            } else {
                Status::Unknown
            };
            (
                status,
                Some(optimum.witness.clone()),
                Some(optimum),
                encoding,
                calls,
            )
        }
    };
    let elapsed = start.elapsed();
    eprintln!("c {}", stats_line(&encoding));
    eprintln!(
        "c solver {signature}, {} calls, {:.3} s",
        calls,
        elapsed.as_secs_f64()
    );
    if let (Some(path), Some(p)) = (&args.svg, &placement) {
        output::write_atomically(path, |w| {
            w.write_all(draw::svg(&problem.board, problem.piece, p).as_bytes())?;
            Ok(())
        })?;
    }
    let stop = interrupt::stopped();
    if args.json {
        let mut value = json!({
            "command": "solve",
            "status": status.to_string(),
            "value": placement.as_ref().map(Placement::len),
            "optimal": optimum.as_ref().map(|o| o.proven),
            "placement": placement.as_ref().map(placement_json),
            "backend": signature,
            "elapsed": elapsed.as_secs_f64(),
        });
        if let Some(o) = &optimum {
            value = merge(value, json!({ "calls": calls_json(o) }));
        }
        if let Some(s) = stop {
            value = merge(value, json!({ "stopped": s.word() }));
        }
        println!("{}", merge(value, encoding_json(&encoding)));
    } else {
        print_solution(
            &problem,
            k,
            placement.as_ref(),
            optimum.as_ref(),
            &signature,
        );
    }
    Ok(match (status, placement.is_some(), stop) {
        (_, _, Some(s)) if status != Status::Sat => ExitCode::from(s.exit_code()),
        (Status::Unsat, _, _) => ExitCode::from(20),
        (Status::Unknown, _, _) => ExitCode::from(3),
        _ => ExitCode::SUCCESS,
    })
}

/// The optimum by a portfolio of two cardinality encodings (`--portfolio`).
fn portfolio(
    args: &ProblemArgs,
    problem: &Problem,
    strategy: Strategy,
) -> Result<(Optimum, Encoding, u64)> {
    let first = config(args);
    let second = Config {
        card: if first.card == Card::SequentialCounter {
            Card::Totalizer
        } else {
            Card::SequentialCounter
        },
        ..first
    };
    let kind = solver_kind(&args.solver)?;
    let make = || {
        kind.create_with(&Options {
            command: args.solver.solver_cmd.as_deref(),
            seed: args.solver.seed,
            profile: Profile::Single,
        })
    };
    let stop = boardsat_solve::Interrupter::new();
    interrupt::register(stop.clone());
    interrupt::watchdog(args.solver.time_limit);
    let won = optimise_portfolio(problem, &[first, second], &make, strategy, &stop)?;
    eprintln!(
        "c portfolio: {} and {}; {} answered first",
        first.card, second.card, won.encoding.config.card
    );
    Ok((won.optimum, won.encoding, won.calls))
}

fn calls_json(optimum: &Optimum) -> serde_json::Value {
    serde_json::Value::Array(
        optimum
            .calls
            .iter()
            .map(|c| {
                json!({
                    "bound": c.bound.to_string(),
                    "status": c.status.to_string(),
                    "seconds": c.elapsed.as_secs_f64(),
                })
            })
            .collect(),
    )
}

fn print_solution(
    problem: &Problem,
    k: Option<usize>,
    placement: Option<&Placement>,
    optimum: Option<&Optimum>,
    signature: &str,
) {
    let Some(placement) = placement else {
        let what = match problem.kind {
            Kind::Independence => format!("{} non-attacking {}s", k.unwrap_or(0), problem.piece),
            _ => format!("{} {}s", k.unwrap_or(0), problem.piece),
        };
        println!(
            "no placement of {what} on the {} board exists",
            problem.board
        );
        return;
    };
    let mark = problem.kind.dominating();
    print!(
        "{}",
        draw::text(&problem.board, problem.piece, placement, mark)
    );
    let is_queens = problem.kind == Kind::Independence
        && problem.piece == Piece::Queen
        && problem.board.is_square()
        && placement.len() == problem.board.rows();
    if is_queens {
        let cols: Vec<String> = placement
            .squares()
            .iter()
            .map(|s| s.col.to_string())
            .collect();
        println!("columns: {}", cols.join(" "));
    } else {
        println!("placement: {placement}");
    }
    let verb = match problem.kind {
        Kind::Independence => "independent",
        Kind::Domination => "dominating",
        Kind::IndependentDomination => "independent dominating",
    };
    println!(
        "{} {} {}s on the {} board",
        placement.len(),
        verb,
        problem.piece,
        problem.board
    );
    if let Some(o) = optimum {
        match o.proof() {
            Some(call) => println!(
                "optimal: {} is unsatisfiable ({signature}, {:.3} s)",
                call.bound.k(),
                call.elapsed.as_secs_f64()
            ),
            None if o.proven => println!("optimal: every square holds a piece"),
            None => println!("not proven optimal: the solver gave up"),
        }
    }
}

// ---------------------------------------------------------------- count

fn count(args: &CountArgs, print_each: bool) -> Result<ExitCode> {
    let p = &args.problem;
    let (problem, k) = problem(p)?;
    if p.family == Family::Queens && !print_each && args.limit.is_none() {
        return crate::queens_count::count(args, &problem, config(p), solver_kind(&p.solver)?);
    }
    if args.unique {
        bail!("--unique applies to 'count queens' without --limit");
    }
    let start = Instant::now();
    let backend = backend(&p.solver, Profile::Enumerate)?;
    let signature = backend.signature();
    let (mut session, optimum) = match k {
        Some(k) => (Session::fixed(&problem, k, config(p), backend)?, None),
        None => {
            // Counting stays exact under symmetry breaking (orbit weights);
            // enumerating must see every placement.
            let strategy = if print_each {
                Strategy::default()
            } else {
                Strategy::fastest(&problem)
            };
            let (optimum, session) = optimise_with(&problem, config(p), backend, strategy)?;
            if !optimum.proven {
                bail!("the optimum was not proven (time limit?), so the optimal placements cannot be counted");
            }
            eprintln!(
                "c optimum {} (proven); counting the optimal placements",
                optimum.value
            );
            (session, Some(optimum))
        }
    };
    eprintln!("c {}", stats_line(session.encoding()));
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut progress = output::ProgressLine::new();
    let mut found = 0u64;
    let mut placements = Vec::new();
    let mut failure = None;
    let end = if print_each {
        let mut solutions = session.solutions(args.limit);
        for result in solutions.by_ref() {
            match result {
                Ok(placement) => {
                    found += 1;
                    if p.json {
                        placements.push(placement_json(&placement));
                    } else {
                        writeln!(out, "{placement}")?;
                    }
                }
                Err(SolveError::Unknown { .. }) => break,
                Err(e) => {
                    failure = Some(e);
                    break;
                }
            }
        }
        solutions.end()
    } else {
        match session.count(args.limit, |pr| progress.update(pr.count, pr.elapsed)) {
            Ok(c) => {
                found = c.count;
                Some(c.end)
            }
            Err(e) => {
                failure = Some(e);
                None
            }
        }
    };
    progress.finish();
    out.flush()?;
    let stop = interrupt::stopped();
    if let Some(e) = failure {
        if stop.is_none() {
            return Err(e.into());
        }
    }
    let complete = end == Some(End::Exhausted);
    let limited = end == Some(End::Limit);
    let elapsed = start.elapsed();
    eprintln!(
        "c {found} solutions in {:.3} s by {signature}, {} solver calls{}",
        elapsed.as_secs_f64(),
        session.calls(),
        match (complete, limited, stop) {
            (true, _, _) => String::new(),
            (_, true, _) => " (limit reached)".to_string(),
            (_, _, Some(s)) => format!(" ({})", s.word()),
            _ => " (solver gave up)".to_string(),
        }
    );
    if p.json {
        let mut value = json!({
            "command": if print_each { "enumerate" } else { "count" },
            "count": found,
            "complete": complete,
            "limit_reached": limited,
            "stopped": stop.map(Stop::word),
            "optimum": optimum.as_ref().map(|o| o.value),
            "backend": signature,
            "elapsed": elapsed.as_secs_f64(),
        });
        if print_each {
            value = merge(value, json!({ "placements": placements }));
        }
        writeln!(out, "{}", merge(value, encoding_json(session.encoding())))?;
    } else if !print_each {
        match stop {
            Some(s) if !complete => writeln!(out, "{found} ({})", s.word())?,
            _ => writeln!(out, "{found}")?,
        }
    }
    out.flush()?;
    Ok(match stop {
        Some(s) if !complete && !limited => ExitCode::from(s.exit_code()),
        _ if complete || limited => ExitCode::SUCCESS,
        _ => ExitCode::from(3),
    })
}

// ---------------------------------------------------------------- dimacs

fn write_dimacs(args: &DimacsArgs) -> Result<ExitCode> {
    let p = &args.problem;
    let (problem, k) = problem(p)?;
    let Some(k) = k else {
        bail!(
            "dimacs {} needs -k (the number of pieces) to fix the bound",
            match p.family {
                Family::Domination => "domination",
                _ => "independence",
            }
        );
    };
    if p.json && args.output.is_none() {
        bail!("--json with dimacs needs -o FILE (stdout cannot hold both)");
    }
    let mut vars = problem.var_manager();
    let mut cnf = Cnf::new();
    let encoding = problem.encode(k, config(p), &mut cnf, &mut vars)?;
    let mut header = dimacs::Header::new();
    // The program name is written as `boardsat`, not the path it was run
    // from, so regenerating a file elsewhere gives the same bytes.
    let command_line: Vec<String> = std::env::args().skip(1).collect();
    header
        .comments
        .push(format!("command line: boardsat {}", command_line.join(" ")));
    header.comments.extend(encoding.describe());
    header.comments.push(format!(
        "projection: the {} board variables 1..{} (square (r, c) is r*{} + c + 1)",
        encoding.stats.n_board_vars,
        encoding.stats.n_board_vars,
        problem.board.cols()
    ));
    header.show = Some(encoding.stats.n_board_vars);
    let n_vars = encoding.stats.n_vars;
    match &args.output {
        Some(path) => output::write_atomically(path, |w| {
            dimacs::write(w, &header, &cnf, n_vars)?;
            Ok(())
        })?,
        None => {
            let stdout = io::stdout();
            let mut out = io::BufWriter::new(stdout.lock());
            dimacs::write(&mut out, &header, &cnf, n_vars)?;
            out.flush()?;
        }
    }
    eprintln!("c {}", stats_line(&encoding));
    if p.json {
        let value = json!({
            "command": "dimacs",
            "output": args.output.as_ref().map(|o| o.display().to_string()),
            "k": k,
        });
        println!("{}", merge(value, encoding_json(&encoding)));
    }
    Ok(ExitCode::SUCCESS)
}

// ---------------------------------------------------------------- solve-dimacs

fn solve_dimacs(args: &SolveDimacsArgs) -> Result<ExitCode> {
    let name = args.file.display().to_string();
    let parsed = if name == "-" {
        boardsat_solve::dimacs::parse(io::stdin().lock())
    } else {
        let file = File::open(&args.file).with_context(|| format!("cannot open {name}"))?;
        boardsat_solve::dimacs::parse(BufReader::new(file))
    }
    .with_context(|| name.clone())?;
    let start = Instant::now();
    let mut backend = backend(&args.solver, Profile::Single)?;
    backend.reserve_vars(parsed.n_vars);
    for clause in &parsed.clauses {
        backend.add_clause(clause)?;
    }
    let status = backend.solve(&[])?;
    let elapsed = start.elapsed();
    let signature = backend.signature();
    let mut model = Vec::new();
    if status == Status::Sat {
        for v in 0..parsed.n_vars {
            model.push(backend.value(rustsat::types::Var::new(v))?);
        }
        // Every answer is checked: the model must satisfy every clause.
        for (i, clause) in parsed.clauses.iter().enumerate() {
            let sat = clause.iter().any(|l| model[l.vidx()] == l.is_pos());
            if !sat {
                bail!(
                    "{signature} returned a model that falsifies clause {} of {name}",
                    i + 1
                );
            }
        }
    }
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    if args.json {
        let lits: Vec<i64> = model
            .iter()
            .enumerate()
            .map(|(i, &v)| if v { i as i64 + 1 } else { -(i as i64 + 1) })
            .collect();
        let value = json!({
            "command": "solve-dimacs",
            "file": name,
            "status": status.to_string(),
            "vars": parsed.n_vars,
            "clauses": parsed.clauses.len(),
            "model": if status == Status::Sat { Some(lits) } else { None },
            "backend": signature,
            "elapsed": elapsed.as_secs_f64(),
        });
        writeln!(out, "{value}")?;
    } else {
        writeln!(
            out,
            "c boardsat {} with {signature}",
            env!("CARGO_PKG_VERSION")
        )?;
        writeln!(
            out,
            "c {} vars, {} clauses, {:.3} s",
            parsed.n_vars,
            parsed.clauses.len(),
            elapsed.as_secs_f64()
        )?;
        writeln!(out, "s {}", status.competition())?;
        if status == Status::Sat {
            let mut line = String::from("v");
            for (i, &v) in model.iter().enumerate() {
                let lit = if v { i as i64 + 1 } else { -(i as i64 + 1) };
                let piece = format!(" {lit}");
                if line.len() + piece.len() > 78 {
                    writeln!(out, "{line}")?;
                    line = String::from("v");
                }
                line.push_str(&piece);
            }
            line.push_str(" 0");
            writeln!(out, "{line}")?;
        }
    }
    out.flush()?;
    Ok(match (status, interrupt::stopped()) {
        (Status::Unknown, Some(Stop::Interrupted)) => ExitCode::from(130),
        (s, _) => ExitCode::from(s.exit_code()),
    })
}
