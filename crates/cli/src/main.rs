//! `boardsat`: chessboard placement puzzles as SAT, from the command line.
//!
//! The binary composes library calls and reports: [`flags`] is what the
//! user typed, [`hiargs`] turns it into library objects, one module per
//! command under [`commands`] calls the library and prints, and
//! [`outcome`] maps how a command ended to its exit code. Data goes to
//! stdout, statistics and progress to stderr. Every error is one line on
//! stderr, command-line errors included; a closed stdout pipe ends the
//! command quietly.
//!
//! ## Layers
//!
//! Each module imports only from modules on its own line or a line above
//! (checked by `tests/tests/layers.rs`):
//!
//! 1. `flags`, `outcome`, `output`, `signals` — what was typed, exit codes, writing, stopping
//! 2. `hiargs` — library objects from the flags
//! 3. `commands` — one module per command

mod commands;
mod flags;
mod hiargs;
mod outcome;
mod output;
mod signals;

use std::process::ExitCode;

use boardsat_report::StoppedReport;
use boardsat_solve::stop::StopReason;
use clap::{error::ErrorKind, FromArgMatches};

use crate::{
    flags::{Cli, Command},
    outcome::{Outcome, FAILURE},
};

fn main() -> ExitCode {
    let cli = match flags::command()
        .try_get_matches()
        .and_then(|mut m| Cli::from_arg_matches_mut(&mut m))
    {
        Ok(cli) => cli,
        Err(e) => return usage_error(&e),
    };
    signals::install();
    let json = cli.command.json();
    output::choose_progress(cli.progress, json);
    match run(cli) {
        Ok(outcome) => outcome.code(),
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            use std::io::Write;
            // Work a signal or the time limit cut short (while encoding,
            // reading or writing) ends as stopped, not as failed.
            let stopped = e
                .chain()
                .find_map(boardsat_solve::error::stop_reason)
                .or(signals::received().then_some(StopReason::Interrupted));
            let _ = writeln!(std::io::stderr(), "error: {}", one_line(&e));
            match stopped {
                Some(reason) => {
                    let stopped = StoppedReport::new(reason);
                    let _ = if json {
                        writeln!(std::io::stdout(), "{}", serde_json::json!(stopped))
                    } else {
                        write!(std::io::stdout(), "{}", stopped.text())
                    };
                    Outcome::Stopped(Some(reason)).code()
                }
                None => ExitCode::from(FAILURE),
            }
        }
    }
}

/// Runs one command.
fn run(cli: Cli) -> anyhow::Result<Outcome> {
    match cli.command {
        Command::Solve(args) => commands::solve::run(&args),
        Command::Count(args) => commands::count::run(&args),
        Command::Enumerate(args) => commands::count::enumerate(&args),
        Command::Dimacs(args) => commands::dimacs::run(&args),
        Command::CheckSolution(args) => commands::check_solution::run(&args),
        Command::SolveDimacs(args) => commands::solve_dimacs::run(&args),
        Command::Bench(args) => commands::bench::run(&args),
        Command::Cubes(args) => commands::cubes::run(&args),
        Command::CountDimacs(args) => commands::count_dimacs::run(&args),
        Command::Job(args) => commands::job::run(&args),
        Command::Jobs(args) => commands::jobs::run(&args),
        Command::Merge(args) => commands::cubes::merge(&args),
        Command::Verify(args) => commands::verify::run(&args),
        Command::Check(args) => commands::check::run(&args),
        Command::Completions(args) => commands::completions::run(&args),
        Command::Man(args) => commands::completions::man(&args),
    }
}

/// The error and its causes on one line, control characters escaped; the
/// library's errors name the settings they are about by their flags.
fn one_line(e: &anyhow::Error) -> String {
    let escape = |c: char| match c.is_control() {
        true => c.escape_debug().to_string(),
        false => c.to_string(),
    };
    // A cause that its error's own message already ends with (thiserror's
    // `{source}` in the text and as the source) is said once.
    let mut text = String::new();
    for cause in e.chain().map(in_flags) {
        if text.is_empty() {
            text = cause;
        } else if !text.ends_with(&format!(": {cause}")) {
            text = format!("{text}: {cause}");
        }
    }
    text.chars().map(escape).collect()
}

/// One cause of an error in the command line's words: a library error
/// that names settings, with their flags ([`flags::Flags`]).
fn in_flags(cause: &(dyn std::error::Error + 'static)) -> String {
    use boardsat_bench::plan::PlanError;
    use boardsat_encode::EncodeError;
    use boardsat_jobs::{
        error::{EstimateError, JobsError},
        layout::LayoutError,
        split::SplitError,
    };
    use boardsat_proof::{prover::ProofError, verify::VerifyError};
    use boardsat_solve::{error::SolveError, formula::dimacs::ReadError};
    let names = &flags::Flags;
    if let Some(e) = cause.downcast_ref::<SolveError>() {
        e.message(names)
    } else if let Some(e) = cause.downcast_ref::<EncodeError>() {
        e.message(names)
    } else if let Some(e) = cause.downcast_ref::<ReadError>() {
        e.message(names)
    } else if let Some(e) = cause.downcast_ref::<PlanError>() {
        e.message(names)
    } else if let Some(e) = cause.downcast_ref::<ProofError>() {
        e.message(names)
    } else if let Some(e) = cause.downcast_ref::<VerifyError>() {
        e.message(names)
    } else if let Some(e) = cause.downcast_ref::<JobsError>() {
        e.message(names)
    } else if let Some(e) = cause.downcast_ref::<SplitError>() {
        e.message(names)
    } else if let Some(e) = cause.downcast_ref::<EstimateError>() {
        e.message(names)
    } else if let Some(e) = cause.downcast_ref::<LayoutError>() {
        e.message(names)
    } else {
        cause.to_string()
    }
}

/// A closed pipe (`boardsat enumerate … | head`) is the reader's choice,
/// not an error.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            || cause
                .downcast_ref::<boardsat_solve::files::FileError>()
                .is_some_and(boardsat_solve::files::FileError::is_broken_pipe)
    })
}

/// Command-line errors in one line, like every other error: clap's first
/// line states the problem (`error: invalid value '-3' for '<N>': …`); its
/// tip, if any, joins that line, and the usage block and the "try --help"
/// line are left out. Help and version requests print as clap has them.
fn usage_error(e: &clap::Error) -> ExitCode {
    use std::io::Write;
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        let _ = e.print();
        return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(FAILURE));
    }
    let text = e.render().to_string();
    let mut line = String::new();
    for part in text
        .lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .filter(|l| !l.is_empty())
    {
        if line.is_empty() {
            line.push_str(part);
        } else if part.starts_with("tip:") {
            line.push_str(&format!(" ({part})"));
        } else {
            line.push(' ');
            line.push_str(part);
        }
    }
    let _ = writeln!(std::io::stderr(), "{line}");
    ExitCode::from(FAILURE)
}
