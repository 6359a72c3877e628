//! Counting beyond one machine: `cubes` writes independent jobs, one DIMACS
//! file per cube or one iCNF file for them all (`--format icnf`),
//! `count-dimacs` counts the projected models of one file or of one cube of
//! the iCNF file (`--cube I`), and `merge` sums the answers and checks that
//! every cube was answered.
//!
//! A cube fixes the queens of the first `--depth` rows. With mirror halving
//! (the default) only first-row columns in the left half are written, with
//! weight 2, plus the middle column of odd n with weight 1; the weights are
//! in the manifest (and in the iCNF file's `c cube` lines), so any
//! projected model counter can do the jobs.
//!
//! The iCNF file is the incremental CNF of cube-and-conquer solvers
//! (march_cu writes it, iLingeling and CaDiCaL read it): comments with the
//! provenance and projection lines, `p inccnf`, the base clauses, and one
//! `a <literals> 0` line per cube; each cube is counted as the base
//! formula with the cube's literals as unit clauses.

use std::{
    fmt::Write as _,
    fs,
    io::{self, Write},
    path::Path,
    process::ExitCode,
    time::Instant,
};

use anyhow::{anyhow, bail, Context, Result};
use boardsat_encode::{dimacs, Problem};
use boardsat_solve::{cubes::queen_cubes, dimacs::Dimacs, Options, Profile, Status};
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
/// The single file of `--format icnf`.
const ICNF: &str = "cubes.icnf";
/// The largest variable a DIMACS literal can name (`i32::MAX`).
const MAX_VAR: u64 = i32::MAX as u64;

/// How `cubes` writes its cubes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum CubeFormat {
    /// One DIMACS CNF file per cube (`cube-00000.cnf`, …), the cube's
    /// queens as unit clauses.
    #[default]
    Cnf,
    /// One incremental CNF file, `cubes.icnf`: `p inccnf`, the base
    /// clauses, then one `a <lits> 0` line per cube (march_cu, iLingeling,
    /// CaDiCaL).
    Icnf,
}

/// One cube as the writers need it.
struct CubeJob {
    /// `cube-00000`, …: the manifest id and the result's file name.
    id: String,
    /// The queen's column in each fixed row.
    columns: Vec<usize>,
    /// Mirror-halving weight.
    weight: u64,
    /// The fixed queens as positive board literals.
    lits: Vec<Lit>,
}

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
    let cubes: Vec<CubeJob> = queen_cubes(n, args.depth, halve)
        .iter()
        .enumerate()
        .map(|(i, cube)| CubeJob {
            id: format!("cube-{i:05}"),
            columns: cube.columns.clone(),
            weight: cube.weight,
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
    let n_vars = encoding.stats.n_vars;
    let (manifest, jobs) = match args.format {
        CubeFormat::Cnf => write_cnf_cubes(dir, &header, &base, n_vars, &cubes)?,
        CubeFormat::Icnf => {
            header.comments.push(format!(
                "{} cubes of depth {} ({}), one 'a' line each after the clauses; the 'c cube <id> weight <w> columns <cols>' lines above the 'a' lines list them in the same order; base formula: {n_vars} vars, {} clauses",
                cubes.len(),
                args.depth,
                if halve { "mirror halving" } else { "no reduction" },
                base.len()
            ));
            header.comments.push(format!(
                "count cube I (from 0) with: boardsat count-dimacs {ICNF} --cube I"
            ));
            write_icnf_cubes(dir, &header, &base, n_vars, &cubes)?
        }
    };
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

/// Columns joined by commas, or `none` when there are none (depth 0).
fn join(columns: &[usize], none: &str) -> String {
    if columns.is_empty() {
        return none.to_string();
    }
    let columns: Vec<String> = columns.iter().map(ToString::to_string).collect();
    columns.join(",")
}

/// `--format cnf`: one DIMACS file per cube; returns the manifest and the
/// job list.
fn write_cnf_cubes(
    dir: &Path,
    header: &dimacs::Header,
    base: &Cnf,
    n_vars: u32,
    cubes: &[CubeJob],
) -> Result<(String, String)> {
    let mut manifest = String::from("# id weight columns file\n");
    let mut jobs = String::new();
    for cube in cubes {
        let CubeJob {
            id,
            columns,
            weight,
            lits,
        } = cube;
        let mut cnf = base.clone();
        for &lit in lits {
            cnf.add_unit(lit);
        }
        let mut header = header.clone();
        header.comments.push(format!(
            "cube {id}: queens of rows 0..{} in columns {}, weight {weight}",
            lits.len(),
            join(columns, ""),
        ));
        write_atomically(&dir.join(format!("{id}.cnf")), |w| {
            dimacs::write(w, &header, &cnf, n_vars)?;
            Ok(())
        })?;
        let _ = writeln!(manifest, "{id} {weight} {} {id}.cnf", join(columns, "-"));
        // Paths relative to DIR: run the jobs from inside it.
        let _ = writeln!(
            jobs,
            "boardsat count-dimacs {id}.cnf --json > results/{id}.json"
        );
    }
    Ok((manifest, jobs))
}

/// `--format icnf`: the base formula once, with its provenance and
/// projection lines, as `p inccnf`; then one `c cube` line per cube with
/// its id, weight and columns, and then one `a` line per cube in the same
/// order. Returns the manifest (whose last column is the cube's position
/// among the `a` lines) and the job list.
///
/// The `c cube` lines come as one block before the first `a` line, not
/// one before each: CaDiCaL before 2.0 (Debian's `cadical`) reads nothing
/// but `a` lines after the first one, and stops at a comment there with
/// "expected 'a' or end-of-file after zero".
fn write_icnf_cubes(
    dir: &Path,
    header: &dimacs::Header,
    base: &Cnf,
    n_vars: u32,
    cubes: &[CubeJob],
) -> Result<(String, String)> {
    // The DIMACS writer's output with its `p cnf` line swapped, so the
    // comments and projection lines are exactly those of a cube file.
    let mut text = Vec::new();
    dimacs::write(&mut text, header, base, n_vars)?;
    let p_line = text
        .split_inclusive(|&b| b == b'\n')
        .take_while(|line| !line.starts_with(b"p "))
        .map(<[u8]>::len)
        .sum::<usize>();
    let p_end = text[p_line..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(text.len(), |i| p_line + i + 1);
    let mut manifest = String::from("# id weight columns file cube\n");
    let mut jobs = String::new();
    let mut comments = String::new();
    let mut assumptions = String::new();
    for (i, cube) in cubes.iter().enumerate() {
        let CubeJob {
            id,
            columns,
            weight,
            lits,
        } = cube;
        let columns = join(columns, "-");
        let _ = writeln!(comments, "c cube {id} weight {weight} columns {columns}");
        assumptions.push('a');
        for lit in lits {
            let _ = write!(assumptions, " {}", lit.to_ipasir());
        }
        assumptions.push_str(" 0\n");
        let _ = writeln!(manifest, "{id} {weight} {columns} {ICNF} {i}");
        let _ = writeln!(
            jobs,
            "boardsat count-dimacs {ICNF} --cube {i} --json > results/{id}.json"
        );
    }
    write_atomically(&dir.join(ICNF), |w| {
        w.write_all(&text[..p_line])?;
        w.write_all(b"p inccnf\n")?;
        w.write_all(&text[p_end..])?;
        w.write_all(comments.as_bytes())?;
        w.write_all(assumptions.as_bytes())?;
        Ok(())
    })?;
    Ok((manifest, jobs))
}

/// The projection of a DIMACS or iCNF file: its `c p show` (or else
/// `c ind`) variables; empty when it has neither (every variable counts).
fn projection(text: &str) -> Result<Vec<Var>> {
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
                .ok()
                .filter(|&v| u64::from(v) <= MAX_VAR)
                .with_context(|| format!("bad projection variable '{token}'"))?;
            if v > 0 {
                target.push(Var::new(v - 1));
            }
        }
    }
    Ok(if show.is_empty() { ind } else { show })
}

/// The first line that is neither blank nor a comment, with its number
/// (from 1), as the DIMACS reader sees lines; `Err` for a line that is not
/// UTF-8 (the reader reports it), `None` when there is no such line.
fn first_statement(bytes: &[u8]) -> Option<(usize, Result<&str, ()>)> {
    for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
        let Ok(line) = std::str::from_utf8(line) else {
            return Some((i + 1, Err(())));
        };
        let line = line.trim();
        if !line.is_empty() && !line.starts_with('c') {
            return Some((i + 1, Ok(line)));
        }
    }
    None
}

/// Whether a header line is the iCNF one, `p inccnf`.
fn is_icnf_header(line: &str) -> bool {
    line.split_ascii_whitespace().eq(["p", "inccnf"])
}

/// Reads a DIMACS CNF file, refusing `a` lines with a pointer to iCNF.
fn read_dimacs(bytes: &[u8]) -> Result<Dimacs> {
    for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
        let Ok(line) = std::str::from_utf8(line) else {
            break;
        };
        let line = line.trim();
        if line == "%" {
            break;
        }
        if line.starts_with('a') {
            bail!(
                "line {}: an 'a' (cube) line in a DIMACS file; an iCNF file starts with 'p inccnf', and count-dimacs counts one of its cubes with --cube I",
                i + 1
            );
        }
    }
    Ok(boardsat_solve::dimacs::parse(bytes)?)
}

/// Reads the base clauses of an iCNF file and its `cube`-th `a` line
/// (from 0) as unit clauses; the variables are those the clauses, the
/// cubes and `project` name (iCNF declares no count).
///
/// Every clause must come before the first `a` line: the cubes of a
/// cube-and-conquer file share one base formula. The clauses themselves
/// are read by the strict DIMACS reader, with the same line numbers: the
/// `p inccnf` line becomes a `p cnf` line with the counts found here and
/// every `a` line a blank one.
fn read_icnf(bytes: &[u8], cube: usize, project: &[Var]) -> Result<Dimacs> {
    let mut lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    let mut header_line = None;
    let mut n_clauses = 0usize;
    let mut max_var = project
        .iter()
        .map(|v| u64::from(v.idx32()) + 1)
        .max()
        .unwrap_or(0);
    // Where the clause still open (no terminating 0 yet) began.
    let mut open_clause: Option<usize> = None;
    let mut cubes: Vec<(usize, Vec<Lit>)> = Vec::new();
    for (i, line) in lines.iter_mut().enumerate() {
        let line_no = i + 1;
        let Ok(text) = std::str::from_utf8(line) else {
            // The DIMACS reader names it.
            continue;
        };
        let text = text.trim();
        if text.is_empty() || text.starts_with('c') {
            continue;
        }
        if text == "%" {
            break;
        }
        if text.starts_with('p') {
            if header_line.is_some() {
                bail!("line {line_no}: a second 'p' header");
            }
            header_line = Some(i);
            continue;
        }
        if text.starts_with('a') {
            if let Some(start) = open_clause {
                bail!(
                    "line {line_no}: an 'a' line inside a clause (the clause of line {start} has no terminating 0)"
                );
            }
            let lits = parse_cube_line(text).map_err(|e| anyhow!("line {line_no}: {e}"))?;
            max_var = max_var.max(
                lits.iter()
                    .map(|l| u64::from(l.var().idx32()) + 1)
                    .max()
                    .unwrap_or(0),
            );
            cubes.push((line_no, lits));
            *line = b"";
            continue;
        }
        if let Some((first, _)) = cubes.first() {
            bail!(
                "line {line_no}: a clause after the first 'a' line (line {first}); every clause of an iCNF file must come before its cubes"
            );
        }
        for token in text.split_ascii_whitespace() {
            match token.parse::<i64>() {
                Ok(0) => {
                    n_clauses += 1;
                    open_clause = None;
                }
                Ok(value) => {
                    let var = value.unsigned_abs();
                    if var > MAX_VAR {
                        bail!("line {line_no}: literal {value} is out of range (a DIMACS variable is at most {MAX_VAR})");
                    }
                    max_var = max_var.max(var);
                    open_clause.get_or_insert(line_no);
                }
                // The DIMACS reader names the bad token.
                Err(_) => {
                    open_clause.get_or_insert(line_no);
                }
            }
        }
    }
    let Some(header_line) = header_line else {
        bail!("no 'p inccnf' header");
    };
    if cubes.is_empty() {
        bail!("the iCNF file has no 'a' (cube) lines");
    }
    let Some((_, lits)) = cubes.get(cube) else {
        bail!(
            "--cube {cube} is out of range: the file has {} cubes (0 to {})",
            cubes.len(),
            cubes.len() - 1
        );
    };
    let header = format!("p cnf {max_var} {n_clauses}");
    lines[header_line] = header.as_bytes();
    let text = lines.join(&b'\n');
    let mut parsed = boardsat_solve::dimacs::parse(&text[..])?;
    parsed.clauses.extend(lits.iter().map(|&l| vec![l]));
    Ok(parsed)
}

/// The literals of an `a <lits> 0` line (`a 0` is the empty cube).
fn parse_cube_line(text: &str) -> Result<Vec<Lit>> {
    let mut tokens = text.split_ascii_whitespace();
    if tokens.next() != Some("a") {
        bail!("malformed cube line '{text}' (expected 'a <literals> 0')");
    }
    let mut lits = Vec::new();
    let mut ended = false;
    for token in tokens {
        if ended {
            bail!("'{token}' after the 0 that ends the cube line");
        }
        let value: i64 = token
            .parse()
            .map_err(|_| anyhow!("'{token}' is not an integer literal in the cube line"))?;
        if value == 0 {
            ended = true;
            continue;
        }
        let var = value.unsigned_abs();
        if var > MAX_VAR {
            bail!("literal {value} is out of range (a DIMACS variable is at most {MAX_VAR})");
        }
        // var ≤ MAX_VAR, so it fits.
        let var = Var::new(u32::try_from(var - 1).unwrap_or(u32::MAX));
        lits.push(if value > 0 {
            var.pos_lit()
        } else {
            var.neg_lit()
        });
    }
    if !ended {
        bail!("the cube line has no terminating 0 (a cube is one line)");
    }
    Ok(lits)
}

/// The formula `count-dimacs` counts and its projection: a DIMACS file,
/// or with `cube` the base of an iCNF file with that cube. The format is
/// the header's: `p inccnf` is iCNF, anything else DIMACS.
fn read_formula(bytes: &[u8], cube: Option<usize>) -> Result<(Dimacs, Vec<Var>)> {
    let first = first_statement(bytes);
    let icnf = matches!(first, Some((_, Ok(line))) if is_icnf_header(line));
    let project = projection(&String::from_utf8_lossy(bytes))?;
    let parsed = match (icnf, cube) {
        (false, None) => read_dimacs(bytes)?,
        (true, Some(cube)) => read_icnf(bytes, cube, &project)?,
        (true, None) => {
            bail!("an iCNF file ('p inccnf'): choose the cube to count with --cube I (from 0)")
        }
        (false, Some(_)) => bail!(
            "--cube needs an iCNF file, and this one has no 'p inccnf' header{}",
            match first {
                Some((line_no, Ok(line))) => format!(" (line {line_no} is '{line}')"),
                Some((line_no, Err(()))) => format!(" (line {line_no} is not UTF-8)"),
                None => " (it has no clauses or header at all)".to_string(),
            }
        ),
    };
    if let Some(v) = project.iter().find(|v| v.idx32() >= parsed.n_vars) {
        bail!(
            "projection variable {} is beyond the {} variables",
            v.idx32() + 1,
            parsed.n_vars
        );
    }
    let project = if project.is_empty() {
        (0..parsed.n_vars).map(Var::new).collect()
    } else {
        project
    };
    Ok((parsed, project))
}

/// `boardsat count-dimacs FILE [--cube I]`: projected model count by
/// blocking clauses, of a DIMACS file or of one cube of an iCNF file.
pub fn count_dimacs(args: &CountDimacsArgs) -> Result<ExitCode> {
    let name = args.file.display().to_string();
    let bytes = fs::read(&args.file).with_context(|| format!("cannot open {name}"))?;
    let (parsed, project) = read_formula(&bytes, args.cube).with_context(|| name.clone())?;
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
        "cube": args.cube,
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
