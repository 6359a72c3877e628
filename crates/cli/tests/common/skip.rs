//! A test that cannot run here says so where `scripts/test.sh` counts it.
//!
//! libtest has no run-time skip: a test that returns early reports `ok`.
//! So a skip is written twice: on stderr (`skipped: …`, seen with
//! `--nocapture`), and as one line appended to the file that the
//! environment variable `BOARDSAT_SKIPPED` names, which `scripts/test.sh`
//! sets, lists and counts in its closing line (`N passed, N failed, N
//! skipped`), taking those tests out of the passed ones.

use std::io::Write;

/// Records that the running test is skipped, and why.
pub fn skipped(reason: &str) {
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("a test");
    eprintln!("skipped: {reason}");
    if let Some(path) = std::env::var_os("BOARDSAT_SKIPPED") {
        let line = format!("{} {test}: {reason}\n", env!("CARGO_CRATE_NAME"));
        let written = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .and_then(|mut f| f.write_all(line.as_bytes()));
        // A skip that cannot be counted would be a silent one.
        if let Err(e) = written {
            panic!("cannot record the skip in {}: {e}", path.to_string_lossy());
        }
    }
}
