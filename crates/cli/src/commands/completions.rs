//! `boardsat completions SHELL` and `boardsat man`: the shell completion
//! script and the man pages, generated from the command line's own
//! definition ([`crate::flags::command`]) by clap_complete and
//! clap_mangen, so they never disagree with `--help`.

use anyhow::{Context, Result};

use crate::{
    flags::{command, CompletionsArgs, ManArgs},
    outcome::Outcome,
    output::Stdout,
};

/// Runs `completions SHELL`: the script on stdout.
pub fn run(args: &CompletionsArgs) -> Result<Outcome> {
    let mut cli = command();
    let mut out = Stdout::new();
    clap_complete::generate(args.shell, &mut cli, "boardsat", out.writer());
    out.flush()?;
    Ok(Outcome::Done)
}

/// Runs `man [-o DIR]`: boardsat(1) on stdout, or every page into DIR.
pub fn man(args: &ManArgs) -> Result<Outcome> {
    let mut cli = command();
    cli.build();
    match &args.output {
        Some(dir) => {
            let mut pages = vec![page(&cli)?];
            for sub in cli.get_subcommands().filter(|s| !s.is_hide_set()) {
                pages.push(page(sub)?);
            }
            for (name, text) in pages {
                let path = dir.join(name);
                std::fs::write(&path, text).with_context(|| {
                    format!("cannot write the man pages into {}", dir.display())
                })?;
            }
        }
        None => {
            let mut out = Stdout::new();
            out.text(&page(&cli)?.1)?;
            out.flush()?;
        }
    }
    Ok(Outcome::Done)
}

/// The man page of `cmd` (built): its file name (`boardsat-solve.1`) and
/// its roff text, every character beyond ASCII written as groff's
/// `\[uXXXX]`, which every troff reads.
fn page(cmd: &clap::Command) -> Result<(String, String)> {
    let name = cmd.get_display_name().unwrap_or(cmd.get_name()).to_string();
    let mut roff = Vec::new();
    clap_mangen::Man::new(cmd.clone())
        .render(&mut roff)
        .context("cannot render the man page")?;
    let text = String::from_utf8_lossy(&roff)
        .chars()
        .map(|c| match c.is_ascii() {
            true => c.to_string(),
            false => format!("\\[u{:04X}]", u32::from(c)),
        })
        .collect();
    Ok((format!("{name}.1"), text))
}
