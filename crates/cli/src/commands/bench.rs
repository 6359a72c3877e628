//! `boardsat bench`: runs the matrix the library plans
//! (`boardsat_solve::bench`) and formats it as markdown, CSV or JSON.

use anyhow::{bail, Result};
use boardsat_encode::{Amo, Card, Family, Formulation, Kind, Piece};
use boardsat_solve::{
    bench::{self, Answer, Cell, CellResult, CellStatus, Matrix, Meta, Spread, Task},
    files::{check_writable, write_atomically},
    report::{BenchReport, CellReport},
    seconds, SolverKind, StopReason,
};

use crate::{
    flags::{BenchArgs, BenchFormat, BenchTask, EmbeddedArg},
    outcome::Outcome,
    output::{note, ProgressLine, Stdout},
    signals,
};

/// Runs `bench`.
pub fn run(args: &BenchArgs) -> Result<Outcome> {
    let cells = bench::plan(&matrix(args)?)?;
    if let Some(path) = &args.output {
        check_writable(path)?;
    }
    let command: Vec<String> = std::env::args().skip(1).collect();
    let meta = Meta::collect(
        format!("boardsat {}", command.join(" ")),
        args.runs,
        args.cell_time_limit,
    );
    let stop = signals::job();
    let limit = seconds(args.cell_time_limit);
    let mut progress = ProgressLine::new();
    let mut results = Vec::with_capacity(cells.len());
    for (i, cell) in cells.iter().enumerate() {
        progress.update(|_| format!("bench: {i}/{} cells done; now {}", cells.len(), label(cell)));
        results.push(bench::run_cell(cell, args.runs, limit, &stop));
        if stop.is_interrupted() {
            break;
        }
    }
    progress.finish();
    let format = if args.json {
        BenchFormat::Json
    } else {
        args.format
    };
    let text = match format {
        BenchFormat::Markdown => markdown(&meta, &cells, &results),
        BenchFormat::Csv => csv(&meta, &cells, &results)?,
        BenchFormat::Json => {
            let report = BenchReport {
                meta,
                cells: cells
                    .iter()
                    .zip(&results)
                    .map(|(c, r)| CellReport::new(c, r))
                    .collect(),
            };
            format!("{}\n", serde_json::to_string(&report)?)
        }
    };
    match &args.output {
        Some(path) => write_atomically(path, None, |w| -> Result<()> {
            w.write_all(text.as_bytes())?;
            Ok(())
        })?,
        None => {
            let mut out = Stdout::new();
            out.text(&text)?;
            out.flush()?;
        }
    }
    let count = |status: &str| results.iter().filter(|r| r.status.word() == status).count();
    let reason = stop.reason();
    note(format!(
        "{} of {} cells, {} timed out, {} failed{}",
        results.len(),
        cells.len(),
        count("timeout"),
        count("error"),
        if reason.is_some() {
            " (interrupted)"
        } else {
            ""
        }
    ));
    Ok(match reason {
        Some(r) => Outcome::Stopped(Some(r)),
        None => Outcome::Done,
    })
}

/// The matrix the flags span.
fn matrix(args: &BenchArgs) -> Result<Matrix> {
    let family = Family::from(args.family);
    let piece: Piece = args.piece.map_or(Piece::Queen, Into::into);
    if args.independent && family != Family::Domination {
        bail!("--independent applies to domination only");
    }
    if family == Family::Queens {
        if piece != Piece::Queen {
            bail!("queens places queens; use 'independence --piece {piece}' for other pieces");
        }
        if args.k.is_some() {
            bail!("queens places exactly n queens; use 'independence -k' for another number");
        }
    }
    Ok(Matrix {
        kind: match family {
            Family::Queens | Family::Independence => Kind::Independence,
            Family::Domination if args.independent => Kind::IndependentDomination,
            Family::Domination => Kind::Domination,
        },
        piece,
        queens: family == Family::Queens,
        sizes: args.sizes.clone(),
        tasks: args
            .task
            .iter()
            .map(|t| match t {
                BenchTask::First => Task::First,
                BenchTask::Count => Task::Count,
                BenchTask::Optimum => Task::Optimum,
            })
            .collect(),
        k: args.k,
        amos: parse_list(&args.amo, &Amo::ALL, "amo")?,
        cards: parse_list(&args.card, &Card::ALL, "card")?,
        formulations: parse_list(&args.formulation, &Formulation::ALL, "formulation")?,
        solvers: args
            .solver
            .iter()
            .map(|s| match s {
                EmbeddedArg::Varisat => SolverKind::Varisat,
                EmbeddedArg::Cadical => SolverKind::Cadical,
            })
            .collect(),
    })
}

fn parse_list<T: Copy + std::str::FromStr>(text: &str, all: &[T], what: &str) -> Result<Vec<T>>
where
    T::Err: std::fmt::Display,
{
    if text.trim().eq_ignore_ascii_case("all") {
        return Ok(all.to_vec());
    }
    let mut out = Vec::new();
    for name in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        match name.parse() {
            Ok(v) => out.push(v),
            Err(e) => bail!("--{what}: {e}"),
        }
    }
    if out.is_empty() {
        bail!("--{what} names no encoding");
    }
    Ok(out)
}

fn dash(name: Option<&'static str>) -> &'static str {
    name.unwrap_or("-")
}

fn label(cell: &Cell) -> String {
    format!(
        "{} n={} {} {} {} {}",
        cell.task,
        cell.n(),
        dash(cell.formulation.map(Formulation::name)),
        dash(cell.amo.map(Amo::name)),
        dash(cell.card.map(Card::name)),
        cell.solver
    )
}

fn problem_name(cell: &Cell) -> String {
    match (cell.problem.kind, cell.problem.piece) {
        (Kind::Independence, Piece::Queen) => "queens".to_string(),
        (kind, piece) => format!("{kind} {piece}"),
    }
}

/// `median (min–max)` in one unit chosen by the median: µs, ms or s,
/// three significant digits.
fn spread(s: Spread) -> String {
    let (scale, unit) = if s.median < 1e-3 {
        (1e6, "µs")
    } else if s.median < 1.0 {
        (1e3, "ms")
    } else {
        (1.0, "s")
    };
    let f = |v: f64| {
        let v = v * scale;
        if v >= 100.0 {
            format!("{v:.0}")
        } else if v >= 10.0 {
            format!("{v:.1}")
        } else {
            format!("{v:.2}")
        }
    };
    if s.min == s.max {
        format!("{} {unit}", f(s.median))
    } else {
        format!("{} {unit} ({}–{})", f(s.median), f(s.min), f(s.max))
    }
}

fn result_text(r: &CellResult, limit: f64) -> String {
    match (&r.status, r.answer) {
        (CellStatus::Ok, Some(a)) => a.to_string(),
        (CellStatus::Timeout, _) => format!("timeout (> {limit} s)"),
        (CellStatus::Interrupted, _) => StopReason::Interrupted.word().to_string(),
        (CellStatus::Error(e), _) => format!("error: {e}"),
        (CellStatus::Ok, None) => "-".to_string(),
    }
}

fn markdown(meta: &Meta, cells: &[Cell], results: &[CellResult]) -> String {
    let mut s = String::new();
    s.push_str(&format!("`{}`\n\n", meta.command));
    s.push_str(&format!(
        "- boardsat {}, commit {}, {}\n",
        meta.boardsat, meta.commit, meta.rustc
    ));
    s.push_str(&format!(
        "- {}, {} cores, {} memory; {}\n",
        meta.cpu, meta.cores, meta.memory, meta.date
    ));
    s.push_str(&format!(
        "- times: median (min–max) of {} runs; cell time limit {} s\n\n",
        meta.runs, meta.cell_time_limit
    ));
    s.push_str("| problem | task | n | formulation | amo | card | solver | vars | aux | clauses | lits | encode | solve | result |\n");
    s.push_str("|---|---|---:|---|---|---|---|---:|---:|---:|---:|---:|---:|---|\n");
    for (cell, r) in cells.iter().zip(results) {
        let stat =
            |f: fn(&boardsat_encode::Stats) -> String| r.stats.as_ref().map_or("-".to_string(), f);
        let solve = match (&r.status, r.solve) {
            (CellStatus::Timeout, _) => "timeout".to_string(),
            (CellStatus::Interrupted, _) => "interrupted".to_string(),
            (_, Some(t)) => spread(t),
            _ => "-".to_string(),
        };
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            problem_name(cell),
            cell.task,
            cell.n(),
            dash(cell.formulation.map(Formulation::name)),
            dash(cell.amo.map(Amo::name)),
            dash(cell.card.map(Card::name)),
            cell.solver,
            stat(|s| s.n_vars.to_string()),
            stat(|s| s.n_aux_vars.to_string()),
            stat(|s| s.n_clauses.to_string()),
            stat(|s| s.n_lits.to_string()),
            r.encode.map_or("-".to_string(), spread),
            solve,
            result_text(r, meta.cell_time_limit).replace('|', "/"),
        ));
    }
    s
}

fn csv(meta: &Meta, cells: &[Cell], results: &[CellResult]) -> Result<String> {
    let mut w = ::csv::Writer::from_writer(Vec::new());
    w.write_record([
        "problem",
        "task",
        "n",
        "k",
        "formulation",
        "amo",
        "card",
        "solver",
        "vars",
        "aux_vars",
        "clauses",
        "lits",
        "encode_median_s",
        "encode_min_s",
        "encode_max_s",
        "solve_median_s",
        "solve_min_s",
        "solve_max_s",
        "runs",
        "status",
        "result",
        "commit",
        "rustc",
        "cpu",
        "cores",
        "memory",
        "date",
    ])?;
    let opt = |v: Option<String>| v.unwrap_or_default();
    let secs = |s: Option<Spread>, f: fn(Spread) -> f64| opt(s.map(|s| format!("{:.6}", f(s))));
    for (cell, r) in cells.iter().zip(results) {
        w.write_record([
            problem_name(cell),
            cell.task.to_string(),
            cell.n().to_string(),
            opt(cell.k.map(|k| k.to_string())),
            opt(cell.formulation.map(|f| f.name().to_string())),
            opt(cell.amo.map(|a| a.name().to_string())),
            opt(cell.card.map(|c| c.name().to_string())),
            cell.solver.to_string(),
            opt(r.stats.map(|s| s.n_vars.to_string())),
            opt(r.stats.map(|s| s.n_aux_vars.to_string())),
            opt(r.stats.map(|s| s.n_clauses.to_string())),
            opt(r.stats.map(|s| s.n_lits.to_string())),
            secs(r.encode, |s| s.median),
            secs(r.encode, |s| s.min),
            secs(r.encode, |s| s.max),
            secs(r.solve, |s| s.median),
            secs(r.solve, |s| s.min),
            secs(r.solve, |s| s.max),
            r.runs.to_string(),
            r.status.word().to_string(),
            match (&r.status, r.answer) {
                (CellStatus::Error(e), _) => e.clone(),
                (_, Some(Answer::Count(c))) => c.to_string(),
                (_, Some(Answer::Optimum(v))) => v.to_string(),
                (_, Some(a)) => a.to_string(),
                (_, None) => String::new(),
            },
            meta.commit.to_string(),
            meta.rustc.to_string(),
            meta.cpu.clone(),
            meta.cores.to_string(),
            meta.memory.clone(),
            meta.date.clone(),
        ])?;
    }
    Ok(String::from_utf8(w.into_inner()?)?)
}
