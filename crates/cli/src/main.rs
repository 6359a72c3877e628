//! `boardsat`: chessboard placement puzzles as SAT, from the command line.
//!
//! Data goes to stdout, statistics and progress to stderr. Exit codes: 0 on
//! success, 10 / 20 for SAT / UNSAT in `solve-dimacs` (SAT-competition
//! style), 20 when `solve` proves no placement exists, 2 for bad input or a
//! failure, 3 when a time limit stopped the work, 130 when interrupted.

mod args;
mod draw;
mod interrupt;
mod output;
mod run;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = args::Cli::parse();
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
