//! `boardsat verify`: checks a `--proof` directory (or one formula and its
//! proof) with boardsat's own LRAT checker, ties every claim to its
//! problem and derives the run's whole result from them
//! (`boardsat_proof::verify`); a split directory written by `cubes
//! --proof` is checked whole (`boardsat_proof::verify::jobs`). With `--checker`,
//! an external LRAT checker checks every claim too
//! (`boardsat_proof::external`); with `--record FILE`, the proofs an earlier
//! check accepted are taken from its record (`boardsat_proof::verify::record`).
//! The last line is the result's sentence, or what is missing (for a check
//! stopped by a signal, how far it got: exit 130); exit 0 only for a result
//! proven whole.

use anyhow::Result;
use boardsat_jobs as jobs;
use boardsat_proof::{
    external::{CheckerError, ExternalChecker, DEFAULT_TIMEOUT},
    manifest::MANIFEST_JSON,
    verify::{self, json::VerifyReport, record, verify_directory, Checks, Record, Verification},
};

use crate::{
    flags::{CheckerArgs, VerifyArgs},
    outcome::Outcome,
    output::Stdout,
    signals,
};

/// Runs `verify DIR` or `verify FORMULA.cnf PROOF.lrat`.
pub fn run(args: &VerifyArgs) -> Result<Outcome> {
    let stop = signals::job();
    let external = match external_checker(&args.checker) {
        Ok(external) => external,
        Err(e) => return report(&Verification::failed(e.into()), args.json),
    };
    let record = match &args.record {
        Some(path) => Some(Record::open(path, &identity()?)?),
        None => None,
    };
    let checks = Checks::new(Some(&stop))
        .with_external(external.as_ref())
        .with_record(record.as_ref())
        .with_threads(args.threads.map(|t| t as usize));
    let verification = match args.paths.as_slice() {
        [dir]
            if dir.is_dir()
                || std::fs::symlink_metadata(dir.join(MANIFEST_JSON)).is_ok()
                || std::fs::symlink_metadata(dir.join(jobs::MANIFEST)).is_ok() =>
        {
            verify_directory(dir, checks)?
        }
        [file] => anyhow::bail!(
            "{} is not a proof directory: verify takes a directory, or a formula and its proof",
            file.display()
        ),
        [cnf, lrat] => verify::verify_files(cnf, lrat, checks),
        _ => anyhow::bail!("verify takes a directory, or a formula and its proof"),
    };
    if let Some(reason) = stop.reason() {
        print(
            &VerifyReport::stopped(&verification, reason.word()),
            args.json,
        )?;
        return Ok(Outcome::Stopped(Some(reason)));
    }
    report(&verification, args.json)
}

/// What names this boardsat in a record of accepted proofs: its commit and
/// the SHA-256 of its executable (another build checks again).
fn identity() -> Result<String> {
    let exe = std::env::current_exe()
        .map_err(|e| anyhow::anyhow!("cannot find this program's executable: {e}"))?;
    Ok(record::identity(
        &format!("boardsat {}", boardsat_bench::run::COMMIT),
        &exe,
    )?)
}

/// The external checker `--checker` names (one that cannot run fails the
/// verification before any claim is read: it accepts nothing).
pub fn external_checker(
    args: &CheckerArgs,
) -> std::result::Result<Option<ExternalChecker>, CheckerError> {
    let Some(program) = &args.checker else {
        return Ok(None);
    };
    let timeout = args
        .checker_timeout
        .and_then(boardsat_solve::stop::seconds)
        .unwrap_or(DEFAULT_TIMEOUT);
    ExternalChecker::new(program, timeout).map(Some)
}

/// Prints `verification` (JSON, or a line per claim and the result):
/// exit 0 when it is verified whole, 1 when not.
pub fn report(verification: &Verification, json: bool) -> Result<Outcome> {
    let report = VerifyReport::new(verification);
    print(&report, json)?;
    Ok(if report.verified {
        Outcome::Done
    } else {
        Outcome::Rejected
    })
}

/// Prints `report`: its JSON, or a line per claim and the result.
pub fn print(report: &VerifyReport, json: bool) -> Result<()> {
    let mut out = Stdout::new();
    if json {
        out.json(report)?;
    } else {
        for line in report.lines() {
            out.line(line)?;
        }
    }
    out.flush()?;
    Ok(())
}
