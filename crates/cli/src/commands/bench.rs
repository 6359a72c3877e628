//! `boardsat bench`: runs the matrix the library plans
//! (`boardsat_solve::bench`) and formats it as markdown, CSV or JSON.

use anyhow::{bail, Result};
use boardsat_encode::{Amo, Card, Family, Formulation, Kind, Piece};
use boardsat_solve::{
    bench::{self, Cell, CellResult, CellStatus, Matrix, Meta},
    files::{check_writable, write_atomically},
    plot,
    report::{BenchReport, CellReport},
    seconds, StopReason,
};

use crate::{
    flags::{BenchArgs, BenchFormat},
    outcome::Outcome,
    output::{note, ProgressLine, Stdout},
    signals,
};

/// Runs `bench`.
pub fn run(args: &BenchArgs) -> Result<Outcome> {
    let cells = bench::plan(&matrix(args)?)?;
    for path in [&args.output, &args.plot].into_iter().flatten() {
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
        progress.update(|| format!("bench: {i}/{} cells done; now {}", cells.len(), label(cell)));
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
        BenchFormat::Json => format!(
            "{}\n",
            serde_json::to_string(&report(&meta, &cells, &results))?
        ),
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
    // The figure after the table: a drawing error loses no measurement.
    if let Some(path) = &args.plot {
        let figure = plot::svg(&report(&meta, &cells, &results), args.plot_y)?;
        write_atomically(path, None, |w| -> Result<()> {
            w.write_all(figure.as_bytes())?;
            Ok(())
        })?;
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

/// The typed report of the cells run (those before an interrupt).
fn report(meta: &Meta, cells: &[Cell], results: &[CellResult]) -> BenchReport {
    BenchReport {
        meta: meta.clone(),
        cells: cells
            .iter()
            .zip(results)
            .map(|(c, r)| CellReport::new(c, r))
            .collect(),
    }
}

/// The matrix the flags span.
fn matrix(args: &BenchArgs) -> Result<Matrix> {
    let family = args.family;
    let piece = args.piece.unwrap_or_default();
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
        tasks: args.task.clone(),
        k: args.k,
        amos: parse_list(&args.amo, &Amo::ALL, "amo")?,
        cards: parse_list(&args.card, &Card::ALL, "card")?,
        formulations: parse_list(&args.formulation, &Formulation::ALL, "formulation")?,
        solvers: args.solver.clone(),
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
            (_, Some(t)) => t.to_string(),
            _ => "-".to_string(),
        };
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            cell.problem_name(),
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
            r.encode.map_or("-".to_string(), |e| e.to_string()),
            solve,
            result_text(r, meta.cell_time_limit).replace('|', "/"),
        ));
    }
    s
}

fn csv(meta: &Meta, cells: &[Cell], results: &[CellResult]) -> Result<String> {
    let mut w = ::csv::Writer::from_writer(Vec::new());
    w.write_record(CellReport::CSV_COLUMNS)?;
    for (cell, r) in cells.iter().zip(results) {
        w.write_record(CellReport::csv_record(meta, cell, r))?;
    }
    Ok(String::from_utf8(w.into_inner()?)?)
}
