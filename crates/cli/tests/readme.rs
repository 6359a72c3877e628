//! The README's transcripts, run: every ```` ```console ```` block of
//! README.md is a trycmd case (`$ ` a command, `? N` its exit code when
//! not 0, then stdout and stderr as they interleave), so a transcript that
//! drifts from what the binary prints fails the suite. What varies from
//! run to run or machine to machine is elided in the README itself, with
//! trycmd's `[..]` (any text on a line) and `...` (any lines). Blocks that
//! are not transcripts are `sh` or `text`, which trycmd does not run; the
//! README says of each long example that is not run here how long it
//! takes and which benchmark script runs it.
//!
//! To see what the commands print now: `TRYCMD=overwrite cargo test -p
//! boardsat --test readme` rewrites README.md with the new output (keeping
//! the elisions where it can); review the diff before committing it.

mod common;

use std::path::Path;

/// The programs other than boardsat that the transcripts run, with their
/// Debian packages: GNU parallel (`jobs --run parallel`) and CBC (the LP
/// file solved in "Beyond CNF").
const EXTERNAL: [(&str, &str); 2] = [("parallel", "parallel"), ("cbc", "coinor-cbc")];

#[test]
fn readme_transcripts_are_what_the_commands_print() {
    let readme = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md");
    if !EXTERNAL
        .iter()
        .all(|(binary, package)| common::external(binary, package))
    {
        eprintln!("skipped: the README's transcripts (they need parallel and cbc)");
        return;
    }
    // trycmd runs a case's commands in a fresh directory of their own only
    // when a `NAME.out` directory stands beside it (otherwise in the
    // working directory: the examples would write into the tree), so the
    // README is checked as a copy with an empty `README.out` beside it.
    let dir = tempfile::tempdir().expect("a temporary directory");
    let case = dir.path().join("README.md");
    std::fs::copy(&readme, &case).expect("README.md copied");
    std::fs::create_dir(dir.path().join("README.out")).expect("README.out");

    let cases = trycmd::TestCases::new();
    cases.register_bin("boardsat", Path::new(env!("CARGO_BIN_EXE_boardsat")));
    for (binary, _) in EXTERNAL {
        if let Some(path) = common::which(binary) {
            cases.register_bin(binary, path);
        }
    }
    cases.case(&case);
    cases.run();

    if std::env::var("TRYCMD").as_deref() == Ok("overwrite") {
        std::fs::copy(&case, &readme).expect("README.md written back");
    }
}
