//! `boardsat verify`: checks a `--proof` directory (or one formula and its
//! proof) with boardsat's own LRAT checker and ties every claim to its
//! problem (`boardsat_proof::verify`); a split directory written by
//! `cubes --proof` is checked whole (`boardsat_proof::jobs`).

use anyhow::Result;
use boardsat_jobs as jobs;
use boardsat_proof::{
    jobs::verify_jobs,
    manifest::MANIFEST_JSON,
    report::VerifyReport,
    verify::{self, Verdict},
};

use crate::{flags::VerifyArgs, outcome::Outcome, output::Stdout, signals};

/// Runs `verify DIR` or `verify FORMULA.cnf PROOF.lrat`.
pub fn run(args: &VerifyArgs) -> Result<Outcome> {
    let stop = signals::job();
    let verdicts: Vec<Verdict> = match args.paths.as_slice() {
        // A split written by `cubes --proof`: the whole split.
        [dir] if dir.join(jobs::MANIFEST).is_file() && !dir.join(MANIFEST_JSON).exists() => {
            verify_jobs(dir, Some(&stop))?
        }
        [dir] => verify::verify(dir, Some(&stop))?,
        [cnf, lrat] => vec![verify::verify_files(cnf, lrat, Some(&stop))],
        _ => anyhow::bail!("verify takes a directory, or a formula and its proof"),
    };
    if let Some(reason) = stop.reason() {
        return Ok(Outcome::Stopped(Some(reason)));
    }
    let report = VerifyReport::new(&verdicts);
    let mut out = Stdout::new();
    if args.json {
        out.json(&report)?;
    } else {
        for line in report.lines() {
            out.line(line)?;
        }
    }
    out.flush()?;
    Ok(if report.verified {
        Outcome::Done
    } else {
        Outcome::Rejected
    })
}
