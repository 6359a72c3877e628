//! `boardsat cubes` writes a count as independent cube jobs; `boardsat
//! merge` sums their answers (see `boardsat_solve::jobs`).

use anyhow::{bail, Result};
use boardsat_encode::{dimacs, Config, Family, Problem};
use boardsat_solve::{
    cubes::queen_cubes,
    jobs::{self, CubeJob, Split},
    report::MergeReport,
};
use rustsat::instances::Cnf;

use crate::{
    flags::{CubesArgs, MergeArgs},
    outcome::Outcome,
    output::{note, Stdout},
    signals,
};

/// Columns joined by commas, or `-` when there are none (depth 0).
fn columns(columns: &[usize]) -> String {
    if columns.is_empty() {
        return "-".to_string();
    }
    let columns: Vec<String> = columns.iter().map(ToString::to_string).collect();
    columns.join(",")
}

/// Runs `cubes queens N --depth D -o DIR`.
pub fn run(args: &CubesArgs) -> Result<Outcome> {
    if Family::from(args.family) != Family::Queens {
        bail!("cubes splits N-queens counts only ('cubes queens N')");
    }
    let stop = signals::job();
    let n = args.n;
    let problem = Problem::queens(n)?;
    let config = Config {
        amo: args.amo,
        ..Config::default()
    };
    let halve = !args.no_halve;
    let cubes: Vec<CubeJob> = queen_cubes(n, args.depth, halve)
        .iter()
        .enumerate()
        .map(|(i, cube)| CubeJob {
            id: format!("cube-{i:05}"),
            weight: cube.weight,
            description: columns(&cube.columns),
            lits: cube
                .squares()
                .into_iter()
                .map(|sq| problem.board.lit(sq))
                .collect(),
        })
        .collect();
    let mut vars = problem.var_manager();
    let mut base = Cnf::new();
    let encoding = problem.encode(n, config, &mut base, &mut vars)?;
    let mut header = dimacs::Header::new();
    header.comments.extend(encoding.describe());
    header.show = Some(encoding.stats.n_board_vars);
    let reduction = if halve {
        "mirror halving"
    } else {
        "no reduction"
    };
    let format = args.format.into();
    if format == dimacs::Format::Inccnf {
        header.comments.push(format!(
            "{} cubes of depth {} ({reduction}), one 'a' line each after the clauses; the 'c cube <id> weight <w> columns <cols>' lines above the 'a' lines list them in the same order; base formula: {} vars, {} clauses",
            cubes.len(),
            args.depth,
            encoding.stats.n_vars,
            base.len()
        ));
        header.comments.push(format!(
            "count cube I (from 0) with: boardsat count-dimacs {} --cube I",
            jobs::ICNF
        ));
    }
    let split = Split {
        header: &header,
        base: &base,
        n_vars: encoding.stats.n_vars,
        cubes: &cubes,
        format,
    };
    jobs::write_split(&args.output, &split, "boardsat", Some(&stop))?;
    let dir = args.output.display();
    note(format!(
        "{} cubes of depth {} for {n}-queens in {dir} ({reduction}); run the lines of {} from inside it with any scheduler (e.g. 'cd {dir} && parallel < {}'), then 'boardsat merge {dir}'",
        cubes.len(),
        args.depth,
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
