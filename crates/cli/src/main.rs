//! `boardsat`: chessboard placement puzzles as SAT, from the command line.
//!
//! Data goes to stdout, statistics and progress to stderr. Exit codes: 0 on
//! success, 10 / 20 for SAT / UNSAT in `solve-dimacs` (SAT-competition
//! style), 20 when `solve` proves no placement exists, 2 for bad input or a
//! failure, 3 when a time limit stopped the work, 130 when interrupted.
//! Every error is one line on stderr, command-line errors included.

mod args;
mod bench;
mod cubes_cmd;
mod draw;
mod interrupt;
mod output;
mod queens_count;
mod run;
mod size;

use std::process::ExitCode;

use clap::{error::ErrorKind, Parser};

fn main() -> ExitCode {
    let cli = match args::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(&e),
    };
    match run::run(cli) {
        Ok(code) => code,
        Err(e) => {
            if is_broken_pipe(&e) {
                return ExitCode::SUCCESS;
            }
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// A closed pipe (`boardsat enumerate … | head`) is the reader's choice,
/// not an error.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Command-line errors in one line, like every other error: clap's first
/// line states the problem (`error: invalid value '-3' for '<N>': …`); its
/// tip, if any, joins that line, and the usage block and the "try --help"
/// line are left out. Help and version requests print as clap has them.
fn usage_error(e: &clap::Error) -> ExitCode {
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        let _ = e.print();
        return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
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
    eprintln!("{line}");
    ExitCode::from(2)
}
