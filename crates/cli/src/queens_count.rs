//! `boardsat count queens N`: cube-and-conquer over every core, with
//! symmetry breaking (default) or mirror halving.

use std::{io::Write, process::ExitCode, sync::Mutex, time::Instant};

use anyhow::{bail, Result};
use boardsat_encode::{Config, Problem};
use boardsat_solve::{
    cubes::{count_queens, CubeOptions},
    End, Interrupter, Options, Profile, SolverKind,
};
use rustsat::instances::Cnf;
use serde_json::json;

use crate::{
    args::CountArgs,
    interrupt::{self, Stop},
    output::{self, encoding_json, merge, stats_line},
};

/// Counts the n-queens placements; the caller has checked that the problem
/// is N-queens and that no `--limit` was given.
pub fn count(
    args: &CountArgs,
    problem: &Problem,
    config: Config,
    kind: SolverKind,
) -> Result<ExitCode> {
    if args.unique && (args.no_symmetry || args.halve) {
        bail!(
            "--unique counts orbits, which needs symmetry breaking: drop --no-symmetry and --halve"
        );
    }
    let n = problem.board.rows();
    let options = CubeOptions {
        depth: args.depth,
        threads: args
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |t| t.get()))
            .max(1),
        halve: args.halve,
        symmetry: !args.no_symmetry && !args.halve,
    };
    let solver = &args.problem.solver;
    let make = || {
        kind.create_with(&Options {
            command: solver.solver_cmd.as_deref(),
            seed: solver.seed,
            profile: Profile::Enumerate,
        })
    };
    // One probe backend for the signature; the encoding sizes for the report.
    let signature = make()?.signature();
    let mut vars = problem.var_manager();
    let encoding = problem.encode(n, config, &mut Cnf::new(), &mut vars)?;
    eprintln!("c {}", stats_line(&encoding));
    eprintln!(
        "c cubes of depth {} over {} threads, {}",
        options.depth,
        options.threads,
        if options.symmetry {
            "lex-leader symmetry breaking with orbit weights"
        } else if options.halve {
            "mirror halving"
        } else {
            "no symmetry reduction"
        }
    );
    let stop = Interrupter::new();
    interrupt::register(stop.clone());
    interrupt::watchdog(solver.time_limit);
    let start = Instant::now();
    let progress = Mutex::new(output::ProgressLine::new());
    let result = count_queens(n, config, options, &make, &stop, &|total| {
        if let Ok(mut line) = progress.lock() {
            line.update(total, start.elapsed());
        }
    });
    if let Ok(mut line) = progress.lock() {
        line.finish();
    }
    let stopped = interrupt::stopped();
    let counted = result?;
    let complete = counted.end == End::Exhausted;
    let elapsed = start.elapsed();
    eprintln!(
        "c {} solutions ({} solver models) in {:.3} s by {signature}; {}/{} cubes{}",
        counted.count,
        counted.models,
        elapsed.as_secs_f64(),
        counted.cubes_done,
        counted.cubes_total,
        match (complete, stopped) {
            (true, _) => String::new(),
            (false, Some(s)) => format!(" ({})", s.word()),
            (false, None) => " (solver gave up)".to_string(),
        }
    );
    let answer = if args.unique {
        counted.models
    } else {
        counted.count
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if args.problem.json {
        let value = json!({
            "command": "count",
            "count": counted.count,
            "fundamental": options.symmetry.then_some(counted.models),
            "models": counted.models,
            "complete": complete,
            "stopped": stopped.map(Stop::word),
            "cubes": counted.cubes_total,
            "cubes_done": counted.cubes_done,
            "depth": options.depth,
            "threads": options.threads,
            "symmetry": options.symmetry,
            "halve": options.halve,
            "backend": signature,
            "elapsed": elapsed.as_secs_f64(),
        });
        writeln!(out, "{}", merge(value, encoding_json(&encoding)))?;
    } else {
        match stopped {
            Some(s) if !complete => writeln!(out, "{answer} ({})", s.word())?,
            _ => writeln!(out, "{answer}")?,
        }
    }
    out.flush()?;
    Ok(match stopped {
        Some(s) if !complete => ExitCode::from(s.exit_code()),
        _ if complete => ExitCode::SUCCESS,
        _ => ExitCode::from(3),
    })
}
