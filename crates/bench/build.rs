//! Embeds the provenance of the build for benchmark metadata: the commit
//! the library was built from (`BOARDSAT_COMMIT`, with `-dirty` when
//! tracked files had changes) and the compiler (`BOARDSAT_RUSTC_VERSION`).
//! Recorded at build time, so `boardsat bench` reports the commit of the
//! binary, not of whatever directory it runs in.

use std::{path::Path, process::Command};

fn output(program: &str, args: &[&str]) -> Option<String> {
    Command::new(program)
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
}

fn main() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let version = output(&rustc, &["--version"]).unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=BOARDSAT_RUSTC_VERSION={version}");
    let commit = match output("git", &["rev-parse", "HEAD"]) {
        Some(hash) if !hash.is_empty() => {
            let dirty = output("git", &["status", "--porcelain", "--untracked-files=no"])
                .is_some_and(|s| !s.is_empty());
            if dirty {
                format!("{hash}-dirty")
            } else {
                hash
            }
        }
        _ => "unknown".to_string(),
    };
    println!("cargo:rustc-env=BOARDSAT_COMMIT={commit}");
    println!("cargo:rerun-if-env-changed=RUSTC");
    // Rebuild when HEAD moves or the index changes (a commit, a checkout).
    if let Some(git_dir) = output("git", &["rev-parse", "--git-dir"]) {
        let git_dir = Path::new(&git_dir);
        for file in ["HEAD", "index"] {
            println!("cargo:rerun-if-changed={}", git_dir.join(file).display());
        }
        if let Some(head) = output("git", &["symbolic-ref", "-q", "HEAD"]) {
            println!("cargo:rerun-if-changed={}", git_dir.join(head).display());
        }
    }
}
