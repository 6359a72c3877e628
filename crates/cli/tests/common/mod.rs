//! What every end-to-end test of the binary needs: running it, reading its
//! output, the fake solvers, and the shape of a one-line error. Each test
//! file takes what it uses (`mod common;`).
#![allow(dead_code)]

mod skip;

pub use skip::skipped;

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

/// The in-process count of queen domination on n × n with at most k:
/// what an exported split of it must merge to.
pub fn in_process(n: &str, k: &str) -> String {
    let out = run(&["count", "domination", n, "-k", k]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    stdout(&out).trim().to_string()
}

/// Copies the directory `from` to `to`, recursively.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// `merge --verify DIR`, which must verify (`context` says where, when
/// it does not): the total.
pub fn verified(dir: &Path, context: &str) -> String {
    let out = run(&["merge", "--verify", dir.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{context}: {}{}",
        stdout(&out),
        stderr(&out)
    );
    stdout(&out).trim().to_string()
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
    assert_no_repeated_cause(last);
}

/// `line` says no part twice in a row ("X: Y: Y", a cause given in its
/// error's text and again as its source).
pub fn assert_no_repeated_cause(line: &str) {
    let parts: Vec<&str> = line.split(": ").collect();
    for len in 1..=parts.len() / 2 {
        for start in 0..=parts.len() - 2 * len {
            assert_ne!(
                parts[start..start + len],
                parts[start + len..start + 2 * len],
                "a cause said twice: {line}"
            );
        }
    }
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
        skipped(&format!(
            "{binary} is not installed and BOARDSAT_SKIP_EXTERNAL=1"
        ));
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
    signalled(child, err, "-INT", times)
}

/// Sends `signal` (`-INT`, `-USR1`) to `child` `times` times, then reads
/// the rest of its output: its exit code, stdout and the rest of stderr.
pub fn signalled(
    child: &mut std::process::Child,
    err: &mut impl std::io::Read,
    signal: &str,
    times: usize,
) -> (Option<i32>, String, String) {
    use std::io::Read;
    for _ in 0..times {
        assert!(Command::new("kill")
            .args([signal, &child.id().to_string()])
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

/// cake_lpr, the formally verified LRAT checker (a peer, not part of
/// boardsat): `BOARDSAT_CAKE_LPR` when set, else built once with gcc from
/// its published sources in `../shared/peers/cake_lpr` beside the
/// workspace (`BOARDSAT_PEERS` names another peers folder). `None`, said
/// on stderr, when they are missing and `BOARDSAT_SKIP_EXTERNAL=1`;
/// otherwise a missing checker fails the test saying what to do.
pub fn cake_lpr() -> Option<PathBuf> {
    static BUILT: std::sync::OnceLock<Result<PathBuf, String>> = std::sync::OnceLock::new();
    let built = BUILT.get_or_init(|| {
        if let Some(path) = std::env::var_os("BOARDSAT_CAKE_LPR") {
            return Ok(PathBuf::from(path));
        }
        let peers = std::env::var_os("BOARDSAT_PEERS").map_or_else(
            || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/peers"),
            PathBuf::from,
        );
        let source = peers.join("cake_lpr");
        if !source.join("cake_lpr.S").is_file() {
            return Err(format!(
                "cake_lpr's sources are not in {} (set BOARDSAT_PEERS or BOARDSAT_CAKE_LPR)",
                source.display()
            ));
        }
        // Built under a name of its own, then renamed: test binaries
        // running at once never see half a file.
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
        let out = dir.join("cake_lpr");
        let partial = dir.join(format!("cake_lpr.{}", std::process::id()));
        let built = Command::new("gcc")
            .args(["-O2", "-std=c99", "-w"])
            .arg(source.join("basis_ffi.c"))
            .arg(source.join("cake_lpr.S"))
            .arg("-o")
            .arg(&partial)
            .output()
            .map_err(|e| format!("gcc cannot run: {e}"))?;
        if !built.status.success() {
            return Err(format!("gcc failed on cake_lpr: {}", text(&built.stderr)));
        }
        std::fs::rename(&partial, &out).map_err(|e| e.to_string())?;
        Ok(out)
    });
    match built {
        Ok(path) => Some(path.clone()),
        Err(why) if std::env::var("BOARDSAT_SKIP_EXTERNAL").as_deref() == Ok("1") => {
            skipped(&format!("{why}, and BOARDSAT_SKIP_EXTERNAL=1"));
            None
        }
        Err(why) => panic!("{why}; or set BOARDSAT_SKIP_EXTERNAL=1"),
    }
}

/// An executable shell script `name` in `dir` running `body`: a stand-in
/// checker or solver.
pub fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// `count domination 5` with its proof in `root/p`: a split and binary,
/// compressed proofs, claims of every way a proof is stored.
pub fn binary_proof_dir(root: &Path) -> PathBuf {
    let o = run_in(
        root,
        &[
            "count",
            "domination",
            "5",
            "--proof",
            "p",
            "--proof-format",
            "binary",
            "--proof-compression",
            "zstd",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    root.join("p")
}
