//! What every end-to-end test of the binary needs: running it, reading its
//! output, the fake solvers, and the shape of a one-line error. Each test
//! file takes what it uses (`mod common;`).
#![allow(dead_code)]

use std::{
    path::{Path, PathBuf},
    process::{Command, Output},
};

/// The `boardsat` binary under test.
pub fn boardsat() -> Command {
    Command::new(env!("CARGO_BIN_EXE_boardsat"))
}

/// Runs `boardsat args`.
pub fn run(args: &[&str]) -> Output {
    boardsat()
        .args(args)
        .output()
        .expect("the boardsat binary runs")
}

/// Runs `boardsat args` from inside `dir`.
pub fn run_in(dir: &Path, args: &[&str]) -> Output {
    boardsat()
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the boardsat binary runs")
}

/// Runs one line of a split's `jobs.txt` with `sh` from inside `dir`, as
/// `parallel` or a Slurm array task would.
pub fn shell(dir: &Path, line: &str) -> Output {
    Command::new("sh")
        .args(["-c", line])
        .current_dir(dir)
        .output()
        .expect("sh runs")
}

/// Runs every line of a split's `jobs.txt` from inside `dir`; each must
/// succeed. Their stderr, joined.
pub fn run_jobs(dir: &Path) -> String {
    let jobs = std::fs::read_to_string(dir.join("jobs.txt")).expect("jobs.txt");
    let mut notes = String::new();
    for line in jobs.lines() {
        let out = shell(dir, line);
        assert!(out.status.success(), "{line}: {}", stderr(&out));
        notes.push_str(&stderr(&out));
    }
    notes
}

/// Bytes as text (lossily).
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A run's stdout.
pub fn stdout(o: &Output) -> String {
    text(&o.stdout)
}

/// A run's stderr.
pub fn stderr(o: &Output) -> String {
    text(&o.stderr)
}

/// The stdout of `boardsat args`, which must exit 0.
pub fn ok(args: &[&str]) -> String {
    let o = run(args);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

/// The path of a fake solver script of the solve crate's tests.
pub fn fake(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../solve/tests/fake")
        .join(name)
        .display()
        .to_string()
}

/// Fails with exit 2 and one `error:` line containing `what`; no panic.
pub fn one_line_error(o: &Output, what: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{what}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    let last = err.lines().last().unwrap_or("");
    assert!(
        last.starts_with("error: ") && last.contains(what),
        "{what}: {err}"
    );
    assert_eq!(err.matches("error:").count(), 1, "{err}");
}

/// Whether `binary` is on the `PATH`.
pub fn on_path(binary: &str) -> bool {
    which(binary).is_some()
}

/// Where `binary` is on the `PATH`, if it is.
pub fn which(binary: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(binary))
        .find(|p| p.is_file())
}

/// Whether the external program `binary` (Debian package `package`) can
/// run: true when it is on the `PATH`; false, said on stderr, when it is
/// missing and `BOARDSAT_SKIP_EXTERNAL=1`; otherwise the test fails saying
/// what to install (a test never skips silently).
pub fn external(binary: &str, package: &str) -> bool {
    if on_path(binary) {
        return true;
    }
    if std::env::var("BOARDSAT_SKIP_EXTERNAL").as_deref() == Ok("1") {
        eprintln!("skipped: {binary} is not installed and BOARDSAT_SKIP_EXTERNAL=1");
        return false;
    }
    panic!("{binary} is not on PATH: install it (apt-get install {package}) or set BOARDSAT_SKIP_EXTERNAL=1");
}

/// Sends SIGINT `times` times at once to `child` (whose stderr the caller
/// read from through `err`), then returns its exit code, its stdout and
/// the rest of its stderr.
pub fn interrupt(
    child: &mut std::process::Child,
    err: &mut impl std::io::Read,
    times: usize,
) -> (Option<i32>, String, String) {
    use std::io::Read;
    for _ in 0..times {
        assert!(Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .unwrap()
            .success());
    }
    let mut out = String::new();
    if let Some(mut stdout) = child.stdout.take() {
        stdout.read_to_string(&mut out).unwrap();
    }
    let mut rest = String::new();
    err.read_to_string(&mut rest).unwrap();
    (child.wait().unwrap().code(), out, rest)
}

/// A wrapper for `BOARDSAT` that runs job `id` with a solver that never
/// answers for `seconds` (its pid in `tmp/solver.pid`, to be killed) and
/// every other job as usual.
#[cfg(unix)]
pub fn hanging_wrapper(tmp: &std::path::Path, id: &str, seconds: u32) -> String {
    use std::os::unix::fs::PermissionsExt;
    let solver = tmp.join("hang.sh");
    std::fs::write(
        &solver,
        format!(
            "#!/bin/sh\necho $$ > '{}'\nexec sleep {seconds}\n",
            tmp.join("solver.pid").display()
        ),
    )
    .unwrap();
    let wrapper = tmp.join("boardsat-wrapper.sh");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\nif [ \"$3\" = '{id}' ]; then exec '{b}' \"$@\" --solver-cmd '{s}'; fi\nexec '{b}' \"$@\"\n",
            b = env!("CARGO_BIN_EXE_boardsat"),
            s = solver.display()
        ),
    )
    .unwrap();
    for path in [&solver, &wrapper] {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    wrapper.display().to_string()
}
