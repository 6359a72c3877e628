//! `boardsat bench`: runs the matrix the library plans
//! (`boardsat_bench::plan`) and formats it as markdown, CSV or JSON.

use std::{
    fs,
    path::{Path, PathBuf},
};

use anyhow::{bail, Result};
use boardsat_bench::{
    plan::{plan, Matrix},
    plot,
    report::{self, BenchReport},
    run::{run_cell, summary, Meta},
};
use boardsat_solve::{
    files::{check_writable, write_text},
    stop::seconds,
};

use crate::{
    flags::{BenchArgs, BenchFormat},
    outcome::Outcome,
    output::{note, ProgressLine, Stdout},
    signals,
};

/// Runs `bench`.
pub fn run(args: &BenchArgs) -> Result<Outcome> {
    let cells = plan(&matrix(args))?;
    check_outputs(args)?;
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
        results.push(run_cell(cell, args.runs, limit, &stop));
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
        BenchFormat::Csv => report::csv(&meta, &cells, &results)?,
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
    note(summary(cells.len(), &results, reason.is_some()));
    Ok(reason.map_or(Outcome::Done, |r| Outcome::Stopped(Some(r))))
}

/// The table's and the chart's files can be written, and are not one
/// file (also through `./` or a symbolic link).
fn check_outputs(args: &BenchArgs) -> Result<()> {
    if let (Some(table), Some(chart)) = (&args.output, &args.plot) {
        if resolved(table) == resolved(chart) {
            bail!(
                "-o {} and --plot {} are the same file: the chart would overwrite the table",
                table.display(),
                chart.display()
            );
        }
    }
    for path in [&args.output, &args.plot].into_iter().flatten() {
        check_writable(path)?;
    }
    Ok(())
}

/// The file `path` names once written: symbolic links followed, `.` and
/// `..` resolved, also for a file that does not exist yet (its
/// directory resolved) or a dangling link (where it points).
fn resolved(path: &Path) -> PathBuf {
    if let Ok(full) = fs::canonicalize(path) {
        return full;
    }
    let dir_of = |p: &Path| match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let target = match fs::read_link(path) {
        Ok(link) if link.is_relative() => dir_of(path).join(link),
        Ok(link) => link,
        Err(_) => path.to_path_buf(),
    };
    match (fs::canonicalize(dir_of(&target)), target.file_name()) {
        (Ok(dir), Some(name)) => dir.join(name),
        _ => target,
    }
}

/// The matrix the flags span.
fn matrix(args: &BenchArgs) -> Matrix {
    Matrix {
        family: args.family,
        piece: args.piece,
        independent: args.independent,
        k: args.k,
        sizes: args.sizes.clone(),
        tasks: args.task.clone(),
        amos: args.amo.0.clone(),
        cards: args.card.0.clone(),
        formulations: args.formulation.0.clone(),
        solvers: args.solver.clone(),
    }
}
