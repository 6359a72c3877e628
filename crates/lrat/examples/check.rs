//! Checks an LRAT proof against a DIMACS formula and prints what was
//! checked and how fast, for the measurements in BENCHMARKS.md:
//!
//! ```text
//! cargo run --release -p boardsat-lrat --example check -- FORMULA.cnf PROOF.lrat [text|binary|detect]
//! ```
//!
//! The DIMACS reading here is deliberately minimal (comments, header,
//! clauses); `boardsat verify` uses the project's strict reader.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::process::ExitCode;
use std::time::Instant;

use boardsat_lrat::{Checker, Limits, Syntax};

fn read_formula(path: &str) -> Result<Vec<Vec<i32>>, Box<dyn std::error::Error>> {
    let mut clauses = Vec::new();
    let mut clause = Vec::new();
    for line in BufReader::new(File::open(path)?).lines() {
        let line = line?;
        let line = line.trim();
        if line.starts_with('c') || line.starts_with('p') || line.is_empty() {
            continue;
        }
        for token in line.split_whitespace() {
            let lit: i32 = token.parse()?;
            if lit == 0 {
                clauses.push(std::mem::take(&mut clause));
            } else {
                clause.push(lit);
            }
        }
    }
    Ok(clauses)
}

fn main() -> Result<ExitCode, Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(cnf), Some(proof)) = (args.first(), args.get(1)) else {
        eprintln!("usage: check FORMULA.cnf PROOF.lrat [text|binary|detect]");
        return Ok(ExitCode::from(2));
    };
    let format: Syntax = args.get(2).map_or(Ok(Syntax::Detect), |f| f.parse())?;
    let start = Instant::now();
    let formula = read_formula(cnf)?;
    let mut checker = Checker::new(Limits::default());
    for clause in &formula {
        checker.add_formula_clause(clause)?;
    }
    let loaded = start.elapsed();
    let size = std::fs::metadata(proof)?.len();
    let start = Instant::now();
    let result = checker.check(File::open(proof)?, format);
    let seconds = start.elapsed().as_secs_f64();
    match result {
        Ok(summary) => {
            println!("verified: {summary:?}");
            println!(
                "formula {:.3} s; proof {size} bytes checked in {seconds:.3} s: {:.0} steps/s, {:.0} additions/s, {:.1} MB/s",
                loaded.as_secs_f64(),
                summary.n_steps as f64 / seconds,
                summary.n_additions as f64 / seconds,
                size as f64 / seconds / 1e6,
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(error) => {
            println!("rejected: {error}");
            Ok(ExitCode::from(1))
        }
    }
}
