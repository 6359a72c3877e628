//! Solves a DIMACS formula with the embedded CaDiCaL, tracing a text LRAT
//! proof, for the measurements in BENCHMARKS.md:
//!
//! ```text
//! cargo run --release -p boardsat-solve --example prove -- FORMULA.cnf PROOF.lrat [option=value ...]
//! ```
//!
//! With `-` for the proof nothing is traced (the baseline); options are
//! CaDiCaL's (`check=1 checkproof=2` runs CaDiCaL's internal LRAT checker);
//! `binary=1` writes CaDiCaL's binary LRAT through the raw API instead of
//! `Cadical::trace_proof`, which always writes text.

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use boardsat_solve::{Backend, Cadical};

fn main() -> Result<ExitCode, Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(cnf), Some(proof)) = (args.first(), args.get(1)) else {
        eprintln!("usage: prove FORMULA.cnf PROOF.lrat|- [option=value ...]");
        return Ok(ExitCode::from(2));
    };
    let mut solver = Cadical::new();
    let mut binary = false;
    for option in &args[2..] {
        let (name, value) = option.split_once('=').ok_or("options are name=value")?;
        binary |= name == "binary" && value == "1";
        solver.set_option(name, value.parse()?)?;
    }
    let start = Instant::now();
    if binary && proof != "-" {
        if !(solver.raw().set("lrat", 1) && solver.raw().trace_proof2(proof)) {
            return Err(format!("cannot trace a binary proof into {proof}").into());
        }
    } else if proof != "-" {
        solver.trace_proof(Path::new(proof))?;
    }
    solver.read_dimacs(Path::new(cnf))?;
    let status = solver.solve(&[])?;
    if binary && proof != "-" {
        solver.raw().close_proof_trace(false);
    } else if proof != "-" {
        solver.close_proof()?;
    }
    println!("{status:?} in {:.3} s", start.elapsed().as_secs_f64());
    Ok(ExitCode::SUCCESS)
}
