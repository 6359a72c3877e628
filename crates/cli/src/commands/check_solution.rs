//! `boardsat check-solution FILE SOLUTION`: an outside solver's answer to
//! an OPB, WCNF or LP file that `dimacs --format` wrote, decoded onto the
//! board through the file's provenance and checked by the independent
//! checker. An optimum or an infeasibility the solver claims is printed as
//! its claim, unverified.

use std::{
    fs::File,
    io::{self, BufReader, Read},
    path::Path,
};

use anyhow::{Context, Result};
use boardsat_encode::export::solution::{check, parse, read_provenance, Verdict};
use boardsat_report::{check_solution_text, CheckSolutionReport};

use crate::{flags::CheckSolutionArgs, outcome::Outcome, output::Stdout};

/// The most bytes of a solution read (a `v` line of a large board included).
const MAX_SOLUTION_BYTES: u64 = 256 << 20;

/// Runs `check-solution`.
pub fn run(args: &CheckSolutionArgs) -> Result<Outcome> {
    let file = args.file.display().to_string();
    let model = File::open(&args.file).with_context(|| format!("cannot open {file}"))?;
    let provenance = read_provenance(BufReader::new(model)).with_context(|| file.clone())?;
    let name = args.solution.display().to_string();
    let text = read_solution(&args.solution).with_context(|| format!("cannot read {name}"))?;
    let answer = parse(&text, provenance.n_vars).with_context(|| name.clone())?;
    let checked = check(&provenance, &answer);
    let report = CheckSolutionReport::new(file, name, &provenance, &checked);
    let mut out = Stdout::new();
    if args.json {
        out.json(&report)?;
    } else {
        out.text(&check_solution_text(&provenance, &checked))?;
    }
    out.flush()?;
    Ok(match checked.verdict {
        Verdict::Accepted => Outcome::Done,
        Verdict::Rejected(_) => Outcome::Rejected,
        Verdict::ClaimsNone => Outcome::Unsat,
        Verdict::NoAnswer => Outcome::Stopped(None),
    })
}

/// The solution's text ("-": stdin), lossily decoded, up to a bound.
fn read_solution(path: &Path) -> io::Result<String> {
    let mut bytes = Vec::new();
    if path.as_os_str() == "-" {
        io::stdin()
            .lock()
            .take(MAX_SOLUTION_BYTES)
            .read_to_end(&mut bytes)?;
    } else {
        File::open(path)?
            .take(MAX_SOLUTION_BYTES)
            .read_to_end(&mut bytes)?;
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}
