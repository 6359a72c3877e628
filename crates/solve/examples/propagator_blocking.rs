//! A measurement, not a mode: counts the projected models of a DIMACS file
//! (its `c p show` projection) two ways on the same CaDiCaL, to see whether
//! blocking each model from inside the search beats the blocking-clause
//! loop that `count` uses (issue 33, item 3; BENCHMARKS.md, "The dense
//! regime: two more designs measured").
//!
//! - `loop`: solve, add the clause that blocks the model on the projection,
//!   solve again (what [`boardsat_solve::Session::count`] does);
//! - `prop`: one call of the library's in-search blocking
//!   ([`boardsat_solve::backend::reject::RejectModels`], what `count` does
//!   since it was measured here), which rejects each model inside the
//!   search with its blocking clause, so the search goes on from where it
//!   stood.
//!
//! The blocking clause lists the projected variables that are true (the
//! short clause of `count`, exact when every model has the same number of
//! them, as for minimum dominating sets). `loop` checks each model against
//! every clause; `prop`'s propagator sees the projection only, so its
//! count is to be compared with `loop`'s.
//!
//! ```text
//! cargo run --release -p boardsat-solve --example propagator_blocking -- FILE loop|prop [SECONDS]
//! ```
//!
//! With SECONDS, the count stops there and says how many models it had
//! found (for the rate of finding them on cubes too big to finish).

use std::{
    fs::File,
    io::BufReader,
    process::ExitCode,
    time::{Duration, Instant},
};

use boardsat_solve::{
    backend::{Blocking, TimeLimit},
    dimacs,
    formula::falsified,
    Backend, Cadical, Status,
};

fn run(path: &str, mode: &str, limit: Option<Duration>) -> Result<String, String> {
    let file = File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let formula = dimacs::parse(BufReader::new(file)).map_err(|e| format!("{path}: {e:?}"))?;
    let projection = formula.projection_or_all();
    let mut solver = Cadical::new();
    for clause in &formula.clauses {
        solver.add_clause(clause).map_err(|e| e.to_string())?;
    }
    let start = Instant::now();
    let mut models = 0u64;
    let status = match mode {
        "loop" => loop {
            // The backend's limit is per call: what is left of the run's.
            solver.set_time_limit(limit.map(|l| l.saturating_sub(start.elapsed())));
            let status = solver.solve(&[]).map_err(|e| e.to_string())?;
            if status != Status::Sat {
                break status;
            }
            let values = (0..formula.n_vars)
                .map(|v| solver.value(rustsat::types::Var::new(v)))
                .collect::<Result<Vec<bool>, _>>()
                .map_err(|e| e.to_string())?;
            if let Some(i) = falsified(&formula.clauses, &values) {
                return Err(format!("model {} falsifies clause {}", models + 1, i + 1));
            }
            models += 1;
            let block: Vec<_> = projection
                .iter()
                .filter(|v| values[v.idx()])
                .map(|v| v.neg_lit())
                .collect();
            solver.add_clause(&block).map_err(|e| e.to_string())?;
        },
        "prop" => {
            solver.set_time_limit(limit);
            let reject = solver
                .reject_models()
                .ok_or("CaDiCaL cannot reject models")?;
            if !reject
                .observe(&projection, Blocking::Short)
                .map_err(|e| e.to_string())?
            {
                return Err("the propagator slot is taken".to_string());
            }
            // One call: no quota, a window longer than any run.
            let (status, rejected) = reject
                .solve_rejecting(&[], u64::MAX, Duration::MAX)
                .map_err(|e| e.to_string())?;
            models = rejected.len() as u64;
            status
        }
        other => return Err(format!("unknown mode '{other}' (loop or prop)")),
    };
    let stopped = match status {
        Status::Unsat => "",
        Status::Unknown => " (stopped)",
        Status::Sat => return Err("the count ended on a model".to_string()),
    };
    Ok(format!(
        "{mode}: {models} models{stopped}, {:.2} s, {} conflicts, {} decisions",
        start.elapsed().as_secs_f64(),
        solver.raw().get_statistic_value("conflicts"),
        solver.raw().get_statistic_value("decisions")
    ))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = || {
        eprintln!("usage: propagator_blocking FILE loop|prop [SECONDS]");
        ExitCode::from(2)
    };
    let (path, mode, limit) = match args.as_slice() {
        [path, mode] => (path, mode, None),
        [path, mode, seconds] => match seconds
            .parse::<f64>()
            .ok()
            .and_then(|s| Duration::try_from_secs_f64(s).ok())
        {
            Some(limit) => (path, mode, Some(limit)),
            None => return usage(),
        },
        _ => return usage(),
    };
    match run(path, mode, limit) {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("propagator_blocking: {e}");
            ExitCode::from(1)
        }
    }
}
