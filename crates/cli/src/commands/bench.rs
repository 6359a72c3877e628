//! `boardsat bench`: runs the matrix the library plans
//! (`boardsat_solve::bench`) and formats it as markdown, CSV or JSON.

use anyhow::Result;
use boardsat_solve::{
    bench::{self, Cell, CellResult, Matrix, Meta, Names},
    files::{check_writable, write_text},
    plot,
    report::{self, BenchReport, CellReport},
    seconds,
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
    let meta = Meta::collect(
        format!("boardsat {}", crate::hiargs::command_line()),
        args.runs,
        args.cell_time_limit,
    );
    let stop = signals::job();
    let limit = seconds(args.cell_time_limit);
    let mut progress = ProgressLine::new();
    let mut results = Vec::with_capacity(cells.len());
    for (i, cell) in cells.iter().enumerate() {
        progress.show(|| {
            format!(
                "bench: {i}/{} cells done; now {}",
                cells.len(),
                cell.label()
            )
        });
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
        BenchFormat::Markdown => report::markdown(&meta, &cells, &results),
        BenchFormat::Csv => csv(&meta, &cells, &results)?,
        BenchFormat::Json => format!(
            "{}\n",
            serde_json::to_string(&BenchReport::new(&meta, &cells, &results))?
        ),
    };
    match &args.output {
        Some(path) => write_text(path, &text, None)?,
        None => {
            let mut out = Stdout::new();
            out.text(&text)?;
            out.flush()?;
        }
    }
    // The figure after the table: a drawing error loses no measurement.
    if let Some(path) = &args.plot {
        let figure = plot::svg(&BenchReport::new(&meta, &cells, &results), args.plot_y)?;
        write_text(path, &figure, None)?;
    }
    let reason = stop.reason();
    note(bench::summary(cells.len(), &results, reason.is_some()));
    Ok(reason.map_or(Outcome::Done, |r| Outcome::Stopped(Some(r))))
}

/// The matrix the flags span.
fn matrix(args: &BenchArgs) -> Result<Matrix> {
    Ok(Matrix::named(
        args.family,
        args.piece,
        args.independent,
        args.k,
        &Names {
            amo: &args.amo,
            card: &args.card,
            formulation: &args.formulation,
        },
        args.sizes.clone(),
        args.task.clone(),
        args.solver.clone(),
    )?)
}

fn csv(meta: &Meta, cells: &[Cell], results: &[CellResult]) -> Result<String> {
    let mut w = ::csv::Writer::from_writer(Vec::new());
    w.write_record(CellReport::CSV_COLUMNS)?;
    for (cell, r) in cells.iter().zip(results) {
        w.write_record(CellReport::csv_record(meta, cell, r))?;
    }
    Ok(String::from_utf8(w.into_inner()?)?)
}
