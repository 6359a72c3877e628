//! `boardsat check RESULT.json`: the placements of a published result
//! file checked by the independent checker (`boardsat_proof::published`),
//! and what only its proof shows said so.

use anyhow::Result;

use crate::{flags::CheckArgs, outcome::Outcome, output::Stdout};

/// Runs `check RESULT.json`: exit 0 when every placement is accepted, 1
/// when one is not, 2 for a file that is not a result file.
pub fn run(args: &CheckArgs) -> Result<Outcome> {
    let checked = boardsat_proof::published::check_file(&args.file)?;
    let mut out = Stdout::new();
    if args.json {
        out.json(&checked)?;
    } else {
        out.line(&checked.sentence)?;
        if checked.accepted {
            out.line(format!(
                "not checked here: {}, which the proof shows: the file's command rebuilds it, 'boardsat verify DIR' checks it",
                checked.rests_on_proof
            ))?;
        }
    }
    out.flush()?;
    Ok(if checked.accepted {
        Outcome::Done
    } else {
        Outcome::Rejected
    })
}
