//! `boardsat cubes` writes a count as independent cube jobs; `boardsat
//! merge` sums their answers (see `boardsat_solve::jobs`).

use anyhow::Result;
use boardsat_solve::{
    jobs::{self, split::Split},
    report::{CubesReport, MergeReport},
    search::pool::Cubes,
};

use crate::{
    flags::{CubesArgs, MergeArgs},
    outcome::Outcome,
    output::{note, Stdout},
    signals,
};

/// Runs `cubes queens N --depth D -o DIR` (or `cubes domination N -k K`).
pub fn run(args: &CubesArgs) -> Result<Outcome> {
    let stop = signals::job();
    let a = args;
    let cubes = if a.no_halve {
        Cubes::All
    } else {
        Cubes::OnePerOrbit
    };
    let split = Split::of(a.family, a.n, a.k, a.depth, cubes, a.amo, a.format)?;
    let exe = std::env::current_exe()?;
    let program = jobs::job_program(&exe.to_string_lossy())?;
    jobs::write_split(&args.output, &split, &program, args.force, Some(&stop))?;
    if args.json {
        let mut out = Stdout::new();
        out.json(&CubesReport {
            command: "cubes",
            dir: args.output.display().to_string(),
            cubes: split.cubes.len(),
            format: args.format.name(),
        })?;
        out.flush()?;
    }
    let dir = args.output.display();
    note(format!(
        "{} cubes in {dir}; run the lines of {} from inside it with any scheduler (e.g. 'cd {dir} && parallel < {}'), then 'boardsat merge {dir}'",
        split.cubes.len(),
        jobs::JOBS,
        jobs::JOBS,
    ));
    Ok(Outcome::Done)
}

/// Runs `merge DIR`.
pub fn merge(args: &MergeArgs) -> Result<Outcome> {
    let merged = jobs::merge(&args.dir)?;
    let mut out = Stdout::new();
    if args.json {
        out.json(&MergeReport {
            command: "merge",
            count: merged.count,
            cubes: merged.cubes,
        })?;
    } else {
        out.line(merged.count)?;
    }
    out.flush()?;
    note(format!(
        "{} cubes answered; weighted total {}",
        merged.cubes, merged.count
    ));
    Ok(Outcome::Done)
}
