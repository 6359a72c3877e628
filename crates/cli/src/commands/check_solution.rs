//! `boardsat check-solution FILE SOLUTION`: an outside solver's answer to
//! an OPB, WCNF or LP file that `dimacs --format` wrote, decoded onto the
//! board through the file's provenance and checked by the independent
//! checker. An optimum or an infeasibility the solver claims is printed as
//! its claim, unverified.

use std::{
    fs::File,
    io::{self, BufReader},
    path::Path,
};

use anyhow::{Context, Result};
use boardsat_encode::export::solution::{
    check, parse, read_provenance, read_solution, SolutionError, SolutionVerdict,
};
use boardsat_report::{check_solution_text, CheckSolutionReport};

use crate::{flags::CheckSolutionArgs, outcome::Outcome, output::Stdout};

/// Runs `check-solution`.
pub fn run(args: &CheckSolutionArgs) -> Result<Outcome> {
    let file = args.file.display().to_string();
    let model = File::open(&args.file).with_context(|| format!("cannot open {file}"))?;
    let provenance = read_provenance(BufReader::new(model)).with_context(|| file.clone())?;
    let name = args.solution.display().to_string();
    let text = solution(&args.solution).with_context(|| format!("cannot read {name}"))?;
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
        SolutionVerdict::Accepted => Outcome::Done,
        SolutionVerdict::Rejected(_) => Outcome::Rejected,
        SolutionVerdict::ClaimsNone => Outcome::Unsat,
        SolutionVerdict::NoAnswer => Outcome::Stopped(None),
    })
}

/// The solution's text ("-": stdin), up to the reader's limit.
fn solution(path: &Path) -> Result<String, SolutionError> {
    if path.as_os_str() == "-" {
        read_solution(io::stdin().lock())
    } else {
        read_solution(File::open(path)?)
    }
}
