//! Counting beyond one machine: `cubes` writes independent jobs, one DIMACS
//! file per cube, `count-dimacs` counts one file's projected models, and
//! `merge` sums the answers and checks that every cube was answered.
//!
//! A cube fixes the queens of the first `--depth` rows. With mirror halving
//! (the default) only first-row columns in the left half are written, with
//! weight 2, plus the middle column of odd n with weight 1; the weights are
//! in the manifest, so any projected model counter can do the jobs.

use std::{
    fmt::Write as _,
    fs,
    io::{self, BufReader, Write},
    process::ExitCode,
    time::Instant,
};

use anyhow::{bail, Context, Result};
use boardsat_encode::{dimacs, Problem};
use boardsat_solve::{cubes::queen_cubes, Options, Profile, Status};
use rustsat::{
    instances::Cnf,
    types::{Lit, Var},
};
use serde_json::{json, Value};

use crate::{
    args::{CountDimacsArgs, CubesArgs, Family, MergeArgs},
    interrupt,
    output::write_atomically,
};

/// The manifest's name inside the cube directory.
const MANIFEST: &str = "MANIFEST";
/// The job list, one shell command per line (for GNU parallel, Slurm arrays).
const JOBS: &str = "jobs.txt";

/// `boardsat cubes queens N --depth D -o DIR`.
pub fn cubes(args: &CubesArgs) -> Result<ExitCode> {
    if args.family != Family::Queens {
        bail!("cubes splits N-queens counts only ('cubes queens N')");
    }
    let n = args.n;
    let problem = Problem::queens(n)?;
    let config = boardsat_encode::Config {
        amo: args.amo,
        ..boardsat_encode::Config::default()
    };
    let dir = &args.output;
    fs::create_dir_all(dir.join("results"))
        .with_context(|| format!("cannot create {}", dir.display()))?;
    let halve = !args.no_halve;
    let cubes = queen_cubes(n, args.depth, halve);
    let mut vars = problem.var_manager();
    let mut base = Cnf::new();
    let encoding = problem.encode(n, config, &mut base, &mut vars)?;
    let mut manifest = String::from("# id weight columns file\n");
    let mut jobs = String::new();
    for (i, cube) in cubes.iter().enumerate() {
        let id = format!("cube-{i:05}");
        let mut cnf = base.clone();
        for sq in cube.squares() {
            cnf.add_unit(problem.board.lit(sq));
        }
        let columns: Vec<String> = cube.columns.iter().map(ToString::to_string).collect();
        let mut header = dimacs::Header::new();
        header.comments.extend(encoding.describe());
        header.comments.push(format!(
            "cube {id}: queens of rows 0..{} in columns {}, weight {}",
            cube.columns.len(),
            columns.join(","),
            cube.weight
        ));
        header.show = Some(encoding.stats.n_board_vars);
        let file = dir.join(format!("{id}.cnf"));
        write_atomically(&file, |w| {
            dimacs::write(w, &header, &cnf, encoding.stats.n_vars)?;
            Ok(())
        })?;
        let _ = writeln!(
            manifest,
            "{id} {} {} {id}.cnf",
            cube.weight,
            if columns.is_empty() {
                "-".to_string()
            } else {
                columns.join(",")
            }
        );
        // Paths relative to DIR: run the jobs from inside it.
        let _ = writeln!(
            jobs,
            "boardsat count-dimacs {id}.cnf --json > results/{id}.json"
        );
    }
    write_atomically(&dir.join(MANIFEST), |w| {
        Ok(w.write_all(manifest.as_bytes())?)
    })?;
    write_atomically(&dir.join(JOBS), |w| Ok(w.write_all(jobs.as_bytes())?))?;
    eprintln!(
        "c {} cubes of depth {} for {n}-queens in {} ({}); run the lines of {JOBS} from inside it with any scheduler (e.g. 'cd {} && parallel < {JOBS}'), then 'boardsat merge {}'",
        cubes.len(),
        args.depth,
        dir.display(),
        if halve { "mirror halving" } else { "no reduction" },
        dir.display(),
        dir.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// The projection of a DIMACS file: its `c p show` (or else `c ind`)
/// variables, or every variable when it has neither.
fn projection(text: &str, n_vars: u32) -> Result<Vec<Var>> {
    let mut show = Vec::new();
    let mut ind = Vec::new();
    for line in text.lines() {
        let (target, rest) = if let Some(rest) = line.strip_prefix("c p show") {
            (&mut show, rest)
        } else if let Some(rest) = line.strip_prefix("c ind") {
            (&mut ind, rest)
        } else {
            continue;
        };
        for token in rest.split_whitespace() {
            let v: u32 = token
                .parse()
                .with_context(|| format!("bad projection variable '{token}'"))?;
            if v > n_vars {
                bail!("projection variable {v} is beyond the {n_vars} variables");
            }
            if v > 0 {
                target.push(Var::new(v - 1));
            }
        }
    }
    let chosen = if show.is_empty() { ind } else { show };
    Ok(if chosen.is_empty() {
        (0..n_vars).map(Var::new).collect()
    } else {
        chosen
    })
}

/// `boardsat count-dimacs FILE`: projected model count by blocking clauses.
pub fn count_dimacs(args: &CountDimacsArgs) -> Result<ExitCode> {
    let name = args.file.display().to_string();
    let text = fs::read(&args.file).with_context(|| format!("cannot open {name}"))?;
    let parsed =
        boardsat_solve::dimacs::parse(BufReader::new(&text[..])).with_context(|| name.clone())?;
    let text = String::from_utf8_lossy(&text);
    let project = projection(&text, parsed.n_vars).with_context(|| name.clone())?;
    let kind = crate::run::solver_kind(&args.solver)?;
    let mut backend = kind.create_with(&Options {
        command: args.solver.solver_cmd.as_deref(),
        seed: args.solver.seed,
        profile: Profile::Enumerate,
    })?;
    if let Some(i) = backend.interrupt() {
        interrupt::register(i.interrupter());
    }
    interrupt::watchdog(args.solver.time_limit);
    backend.reserve_vars(parsed.n_vars);
    for clause in &parsed.clauses {
        backend.add_clause(clause)?;
    }
    let start = Instant::now();
    let mut count = 0u64;
    let complete = loop {
        match backend.solve(&[])? {
            Status::Sat => {
                // Every model is checked against the file's clauses.
                let mut values = Vec::with_capacity(parsed.n_vars as usize);
                for v in 0..parsed.n_vars {
                    values.push(backend.value(Var::new(v))?);
                }
                if let Some(i) = parsed
                    .clauses
                    .iter()
                    .position(|c| !c.iter().any(|l| values[l.vidx()] == l.is_pos()))
                {
                    bail!(
                        "{} returned a model that falsifies clause {} of {name}",
                        backend.signature(),
                        i + 1
                    );
                }
                count += 1;
                let blocking: Vec<Lit> = project
                    .iter()
                    .map(|&v| {
                        if values[v.idx()] {
                            v.neg_lit()
                        } else {
                            v.pos_lit()
                        }
                    })
                    .collect();
                backend.add_clause(&blocking)?;
            }
            Status::Unsat => break true,
            Status::Unknown => break false,
        }
    };
    let stopped = interrupt::stopped();
    let value = json!({
        "command": "count-dimacs",
        "file": name,
        "count": count,
        "complete": complete,
        "projected_vars": project.len(),
        "stopped": stopped.map(|s| s.word()),
        "backend": backend.signature(),
        "elapsed": start.elapsed().as_secs_f64(),
    });
    let stdout = io::stdout();
    let mut out = stdout.lock();
    if args.json {
        writeln!(out, "{value}")?;
    } else if complete {
        writeln!(out, "{count}")?;
    } else {
        writeln!(
            out,
            "{count} ({})",
            stopped.map_or("solver gave up", |s| s.word())
        )?;
    }
    out.flush()?;
    Ok(match (complete, stopped) {
        (true, _) => ExitCode::SUCCESS,
        (false, Some(s)) => ExitCode::from(s.exit_code()),
        (false, None) => ExitCode::from(3),
    })
}

/// `boardsat merge DIR`: the weighted sum over every cube's answer.
pub fn merge(args: &MergeArgs) -> Result<ExitCode> {
    let dir = &args.dir;
    let manifest = fs::read_to_string(dir.join(MANIFEST)).with_context(|| {
        format!(
            "{} has no {MANIFEST} (not a 'boardsat cubes' directory)",
            dir.display()
        )
    })?;
    let mut total = 0u64;
    let mut cubes = 0usize;
    let mut missing = Vec::new();
    let mut incomplete = Vec::new();
    for line in manifest
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let (Some(id), Some(weight)) = (fields.first(), fields.get(1)) else {
            bail!("malformed {MANIFEST} line: '{line}'");
        };
        let weight: u64 = weight
            .parse()
            .with_context(|| format!("malformed weight in {MANIFEST} line '{line}'"))?;
        cubes += 1;
        let result = dir.join("results").join(format!("{id}.json"));
        let Ok(text) = fs::read_to_string(&result) else {
            missing.push((*id).to_string());
            continue;
        };
        let answer: Value = match serde_json::from_str(text.trim()) {
            Ok(v) => v,
            Err(_) => {
                incomplete.push((*id).to_string());
                continue;
            }
        };
        match (answer["complete"].as_bool(), answer["count"].as_u64()) {
            (Some(true), Some(count)) => total += count * weight,
            _ => incomplete.push((*id).to_string()),
        }
    }
    if !missing.is_empty() || !incomplete.is_empty() {
        bail!(
            "{} of {cubes} cubes have no complete answer (missing: {}; incomplete: {})",
            missing.len() + incomplete.len(),
            summary(&missing),
            summary(&incomplete)
        );
    }
    if args.json {
        println!(
            "{}",
            json!({ "command": "merge", "count": total, "cubes": cubes })
        );
    } else {
        println!("{total}");
    }
    eprintln!("c {cubes} cubes answered; weighted total {total}");
    Ok(ExitCode::SUCCESS)
}

fn summary(ids: &[String]) -> String {
    match ids.len() {
        0 => "none".to_string(),
        1..=5 => ids.join(", "),
        n => format!("{}, … ({n} in all)", ids[..5].join(", ")),
    }
}
