//! SIGTERM during `count`, on both counting paths (the N-queens counter and
//! the generic blocking-clause counter): the partial count is printed,
//! marked as interrupted, and the exit code is 130.

use std::{
    process::{Command, Stdio},
    time::{Duration, Instant},
};

fn terminate_during(args: &[&str]) -> (Option<i32>, String, Duration) {
    let child = Command::new(env!("CARGO_BIN_EXE_boardsat"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    let sent = Instant::now();
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        sent.elapsed(),
    )
}

#[test]
fn sigterm_during_count_prints_the_partial_count_and_exits_130() {
    for args in [
        &["count", "queens", "16"][..],
        &["count", "independence", "16", "--piece", "rook", "-k", "16"][..],
    ] {
        let (code, out, took) = terminate_during(args);
        assert_eq!(code, Some(130), "{args:?}: {out}");
        let (n, mark) = out
            .trim()
            .split_once(' ')
            .unwrap_or_else(|| panic!("{args:?}: {out}"));
        assert!(n.parse::<u64>().is_ok(), "{args:?}: {out}");
        assert_eq!(mark, "(interrupted)", "{args:?}");
        assert!(took < Duration::from_secs(5), "{args:?}: {took:?}");
    }
}
