//! `boardsat dimacs`: the CNF of a problem as DIMACS, with its provenance
//! and projection lines.

use anyhow::{bail, Result};
use boardsat_encode::dimacs;
use boardsat_solve::{
    files::{write_atomically, FileError, Stoppable},
    report::{DimacsReport, EncodingReport},
    search::sink::Checked,
};
use rustsat::instances::Cnf;

use crate::{
    flags::DimacsArgs,
    hiargs,
    outcome::Outcome,
    output::{note, Stdout},
    signals,
};

/// Runs `dimacs`.
pub fn run(args: &DimacsArgs) -> Result<Outcome> {
    let p = &args.problem;
    let instance = hiargs::instance(p, None)?;
    // Only queens fix k by themselves.
    let Some(k) = instance.k else {
        bail!(
            "dimacs {} needs -k (the number of pieces) to fix the bound",
            p.family
        );
    };
    if args.json && args.output.is_none() {
        bail!("--json with dimacs needs -o FILE (stdout cannot hold both)");
    }
    if let Some(path) = &args.output {
        boardsat_solve::files::check_writable(path)?;
    }
    let stop = signals::job();
    let problem = &instance.problem;
    let mut vars = problem.var_manager();
    let mut cnf = Cnf::new();
    let encoding = Checked::run(&stop, &mut cnf, |sink| {
        problem.encode(k, instance.config, sink, &mut vars)
    })?;
    let header = dimacs::Header::for_encoding(&encoding, Some(&hiargs::command_line()));
    let n_vars = encoding.stats.n_vars;
    match &args.output {
        Some(path) => write_atomically(path, Some(&stop), |w| {
            dimacs::write(w, &header, &cnf, n_vars).map_err(|e| FileError::io(path, e))
        })?,
        None => {
            // A signal that stops the writing ends as stopped (main.rs).
            let mut out = Stdout::new();
            let mut w = std::io::BufWriter::new(Stoppable::new(out.writer(), Some(stop.clone())));
            dimacs::write(&mut w, &header, &cnf, n_vars)
                .and_then(|()| std::io::Write::flush(&mut w))
                .map_err(|e| FileError::io(std::path::Path::new("stdout"), e))?;
        }
    }
    note(encoding.summary());
    if args.json {
        let mut out = Stdout::new();
        out.json(&DimacsReport {
            command: "dimacs",
            output: args.output.as_ref().map(|o| o.display().to_string()),
            k,
            encoding: EncodingReport::from(&encoding),
        })?;
        out.flush()?;
    }
    Ok(Outcome::Done)
}
