//! `boardsat verify`: checks a `--proof` directory (or one formula and its
//! proof) with boardsat's own LRAT checker, ties every claim to its
//! problem and derives the run's whole result from them
//! (`boardsat_proof::verify`); a split directory written by `cubes
//! --proof` is checked whole (`boardsat_proof::jobs`). The last line is
//! the result's sentence, or what is missing; exit 0 only for a result
//! proven whole.

use anyhow::Result;
use boardsat_jobs as jobs;
use boardsat_proof::{
    jobs::verify_directory, manifest::MANIFEST_JSON, report::VerifyReport, verify,
};

use crate::{flags::VerifyArgs, outcome::Outcome, output::Stdout, signals};

/// Runs `verify DIR` or `verify FORMULA.cnf PROOF.lrat`.
pub fn run(args: &VerifyArgs) -> Result<Outcome> {
    let stop = signals::job();
    let verification = match args.paths.as_slice() {
        [dir]
            if dir.is_dir()
                || std::fs::symlink_metadata(dir.join(MANIFEST_JSON)).is_ok()
                || std::fs::symlink_metadata(dir.join(jobs::MANIFEST)).is_ok() =>
        {
            verify_directory(dir, Some(&stop))?
        }
        [file] => anyhow::bail!(
            "{} is not a proof directory: verify takes a directory, or a formula and its proof",
            file.display()
        ),
        [cnf, lrat] => verify::verify_files(cnf, lrat, Some(&stop)),
        _ => anyhow::bail!("verify takes a directory, or a formula and its proof"),
    };
    if let Some(reason) = stop.reason() {
        return Ok(Outcome::Stopped(Some(reason)));
    }
    let report = VerifyReport::new(&verification);
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
