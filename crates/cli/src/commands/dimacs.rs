//! `boardsat dimacs`: a problem as DIMACS CNF with its provenance and
//! projection lines, or (`--format`) as OPB, WCNF or LP with the
//! provenance that `check-solution` reads back.

use anyhow::{bail, Result};
use boardsat_encode::dimacs::Format;
use boardsat_report::DimacsReport;
use boardsat_solve::{
    files::{write_atomically, FileError, Stoppable},
    task::export::export,
};

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
    if args.format == Format::Cnf && instance.k.is_none() {
        bail!(
            "dimacs {} needs -k (the number of pieces) to fix the bound (or --format opb, wcnf or lp for the optimum)",
            p.family
        );
    }
    if args.json && args.output.is_none() {
        bail!("--json with dimacs needs -o FILE (stdout cannot hold both)");
    }
    if let Some(path) = &args.output {
        boardsat_solve::files::check_writable(path)?;
    }
    let stop = signals::job();
    let exported = export(&instance, args.format, &stop)?;
    let command_line = hiargs::command_line();
    match &args.output {
        Some(path) => write_atomically(path, Some(&stop), |w| {
            exported
                .write(w, Some(&command_line))
                .map_err(|e| FileError::io(path, e))
        })?,
        None => {
            // A signal that stops the writing ends as stopped (main.rs).
            let mut out = Stdout::new();
            let mut w = std::io::BufWriter::new(Stoppable::new(out.writer(), Some(stop.clone())));
            exported
                .write(&mut w, Some(&command_line))
                .and_then(|()| std::io::Write::flush(&mut w))
                .map_err(|e| FileError::io(std::path::Path::new("stdout"), e))?;
        }
    }
    note(exported.summary());
    if args.json {
        let mut out = Stdout::new();
        let output = args.output.as_ref().map(|o| o.display().to_string());
        out.json(&DimacsReport::new(&exported, output, instance.k))?;
        out.flush()?;
    }
    Ok(Outcome::Done)
}
