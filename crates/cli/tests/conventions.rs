//! What users of a Rust command-line tool expect of it: shell completions
//! and a man page generated from the clap definition, a `--version` that
//! names the build, a progress bar on a terminal (and never elsewhere),
//! and `boardsat check` on the published results.

mod common;

use std::{path::Path, process::Command};

use common::{boardsat, one_line_error, run, stderr, stdout};

/// The completions of `line` (a command line being typed, its last word
/// the one completed) by the generated bash script, one per line.
fn bash_completions(script: &Path, words: &[&str]) -> String {
    let program = format!(
        "source {} || exit 1\nCOMP_WORDS=({})\nCOMP_CWORD={}\nCOMP_LINE=\"${{COMP_WORDS[*]}}\"\nCOMP_POINT=${{#COMP_LINE}}\n_boardsat boardsat \"${{COMP_WORDS[-1]}}\" \"${{COMP_WORDS[-2]}}\"\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script.display(),
        words.join(" "),
        words.len() - 1
    );
    let o = Command::new("bash")
        .args(["--norc", "--noprofile", "-c", &program])
        .output()
        .expect("bash runs");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stderr(&o), "", "the script sources cleanly");
    stdout(&o)
}

#[test]
fn the_bash_completion_sources_cleanly_and_completes_subcommands_and_flags() {
    let o = run(&["completions", "bash"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let tmp = tempfile::tempdir().unwrap();
    let script = tmp.path().join("boardsat.bash");
    std::fs::write(&script, &o.stdout).unwrap();
    let subcommands = bash_completions(&script, &["boardsat", "so"]);
    let found: Vec<&str> = subcommands.lines().collect();
    assert_eq!(found, ["solve", "solve-dimacs"], "{subcommands}");
    let flags = bash_completions(&script, &["boardsat", "count", "--stop-a"]);
    assert_eq!(flags.trim(), "--stop-after-cubes", "{flags}");
}

#[test]
fn zsh_and_fish_completions_name_every_subcommand() {
    for shell in ["zsh", "fish"] {
        let text = stdout(&run(&["completions", shell]));
        for sub in ["solve", "count", "verify", "jobs", "completions", "man"] {
            assert!(text.contains(sub), "{shell}: {sub}");
        }
    }
}

#[test]
fn an_unknown_shell_is_one_line_naming_the_shells() {
    let o = run(&["completions", "tcsh"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    for shell in ["bash", "zsh", "fish"] {
        assert!(err.contains(shell), "{err}");
    }
}

/// groff's warnings (`-ww`: all of them) on `page`, rendered as a man page.
fn groff_warnings(page: &Path) -> String {
    let o = Command::new("groff")
        .args(["-man", "-Tutf8", "-ww", "-z"])
        .arg(page)
        .output()
        .expect("groff runs");
    assert!(o.status.success(), "{}", stderr(&o));
    stderr(&o)
}

#[test]
fn the_man_pages_render_without_warnings() {
    if !common::external("groff", "groff") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let page = tmp.path().join("boardsat.1");
    let o = run(&["man"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    std::fs::write(&page, &o.stdout).unwrap();
    assert_eq!(groff_warnings(&page), "");
    let text = stdout(&o);
    assert!(text.contains(".TH boardsat 1"), "{text}");
    // -o DIR: a page per command.
    let dir = tmp.path().join("man1");
    std::fs::create_dir(&dir).unwrap();
    let o = run(&["man", "-o", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for name in [
        "boardsat.1",
        "boardsat-solve.1",
        "boardsat-verify.1",
        "boardsat-jobs.1",
    ] {
        let page = dir.join(name);
        assert!(page.is_file(), "{name}");
        assert_eq!(groff_warnings(&page), "", "{name}");
    }
    let missing = run(&["man", "-o", tmp.path().join("none").to_str().unwrap()]);
    one_line_error(&missing, "cannot write the man pages");
}

#[test]
fn the_version_names_the_commit_and_the_solver_built_in() {
    let version = stdout(&run(&["--version"]));
    assert!(version.starts_with("boardsat 0.1.0 (commit "), "{version}");
    let expected = if cfg!(feature = "cadical") {
        "CaDiCaL "
    } else {
        "varisat only"
    };
    assert!(version.contains(expected), "{version}");
    // Every subcommand says the same.
    let solve = stdout(&run(&["solve", "--version"]));
    assert_eq!(
        solve.split_once(' ').map(|(_, v)| v),
        version.split_once(' ').map(|(_, v)| v)
    );
}

/// `boardsat args` under a pseudo-terminal (`script`): what the terminal
/// showed, stdout and stderr together.
fn on_a_terminal(args: &[&str]) -> String {
    let binary = env!("CARGO_BIN_EXE_boardsat");
    let command = std::iter::once(binary)
        .chain(args.iter().copied())
        .map(|w| format!("'{w}'"))
        .collect::<Vec<_>>()
        .join(" ");
    let o = Command::new("script")
        .args(["-qfec", &command, "/dev/null"])
        .env("COLUMNS", "100")
        .output()
        .expect("script runs");
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    stdout(&o)
}

#[test]
fn a_long_count_draws_a_bar_on_a_terminal_and_nowhere_else() {
    if !common::external("script", "bsdutils") {
        return;
    }
    // A count of a few seconds: its cubes are answered one by one.
    let args = ["count", "queens", "13", "--threads", "1"];
    let screen = on_a_terminal(&args);
    assert!(screen.contains("73712"), "{screen}");
    // The bar: cubes done of those known, what was found, the time.
    let bar = screen
        .split(['\r', '\n'])
        .find(|l| l.contains(" cubes ") && l.contains("counting: ") && l.contains('['))
        .unwrap_or_else(|| panic!("no bar drawn: {screen:?}"));
    assert!(bar.contains("solutions"), "{bar}");
    // Piped: no bar, no control characters.
    let o = run(&args);
    assert_eq!(stdout(&o), "73712\n");
    assert!(
        !stderr(&o).contains('\r') && !stderr(&o).contains('['),
        "{}",
        stderr(&o)
    );
    // JSON on a terminal: no bar either.
    let json = on_a_terminal(&["count", "queens", "13", "--threads", "1", "--json"]);
    // (The terminal ends its lines with \r\n; a bar would redraw with a
    // lone \r.)
    let lone_return = json.replace("\r\n", "\n").contains('\r');
    assert!(!json.contains("counting: ") && !lone_return, "{json:?}");
    // --progress elsewhere: lines for a log.
    let o = run(&["--progress", "count", "queens", "13", "--threads", "1"]);
    assert!(
        stderr(&o)
            .lines()
            .any(|l| l.starts_with("c progress: counting: ")),
        "{}",
        stderr(&o)
    );
}

#[test]
fn job_rounds_report_their_jobs_done_with_progress() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("q8");
    let o = run(&[
        "cubes",
        "queens",
        "8",
        "--depth",
        "2",
        "-o",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run(&[
        "--progress",
        "jobs",
        dir.to_str().unwrap(),
        "--run",
        "local",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    let line = err
        .lines()
        .find(|l| l.starts_with("c progress: round 0: "))
        .unwrap_or_else(|| panic!("no progress line: {err}"));
    assert!(line.contains(" jobs done"), "{line}");
    // Piped without --progress: nothing but the notes.
    let again = run(&["jobs", dir.to_str().unwrap()]);
    assert!(!stderr(&again).contains("progress"), "{}", stderr(&again));
}

#[test]
fn a_count_stops_after_its_cubes_as_an_interrupt_does() {
    let o = run(&[
        "count",
        "domination",
        "8",
        "--threads",
        "1",
        "--stop-after-cubes",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    assert!(stdout(&o).ends_with("(interrupted)\n"), "{}", stdout(&o));
    assert!(stderr(&o).contains("; 2/"), "{}", stderr(&o));
    let o = run(&[
        "count",
        "queens",
        "8",
        "--limit",
        "3",
        "--stop-after-cubes",
        "1",
    ]);
    one_line_error(&o, "--stop-after-cubes");
}

fn results() -> Vec<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/results");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_published_result_is_accepted_by_check() {
    let files = results();
    assert!(!files.is_empty());
    for file in files {
        let o = run(&["check", file.to_str().unwrap()]);
        let out = stdout(&o);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}: {out}{}",
            file.display(),
            stderr(&o)
        );
        assert!(out.starts_with("accepted: "), "{out}");
        assert!(out.contains("not checked here: "), "{out}");
    }
}

#[test]
fn a_tampered_result_is_rejected_and_a_foreign_file_is_bad_input() {
    let tmp = tempfile::tempdir().unwrap();
    let source = results()
        .into_iter()
        .find(|p| p.to_string_lossy().contains("A002564"))
        .expect("a count result");
    let mut value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&source).unwrap()).unwrap();
    // A queen moved, a placement listed twice, a count that is not theirs.
    type Tamper = fn(&mut serde_json::Value);
    let tampered: [(&str, Tamper); 3] = [
        ("a queen less", |v| {
            let placement = v["placements"][1].as_array_mut().unwrap();
            placement.pop();
        }),
        ("twice", |v| {
            let first = v["placements"][0].clone();
            v["placements"][1] = first;
        }),
        ("count", |v| {
            let n = v["value"].as_u64().unwrap();
            v["value"] = serde_json::json!(n + 1);
        }),
    ];
    for (name, tamper) in tampered {
        let mut copy = value.clone();
        tamper(&mut copy);
        let path = tmp.path().join(format!("{}.json", name.replace(' ', "-")));
        std::fs::write(&path, copy.to_string()).unwrap();
        let o = run(&["check", path.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(1), "{name}: {}", stdout(&o));
        assert!(
            stdout(&o).starts_with("NOT accepted: "),
            "{name}: {}",
            stdout(&o)
        );
        assert!(!stderr(&o).contains("panicked"));
    }
    value["sequence"] = serde_json::json!("A000001");
    let unknown = tmp.path().join("unknown.json");
    std::fs::write(&unknown, value.to_string()).unwrap();
    one_line_error(
        &run(&["check", unknown.to_str().unwrap()]),
        "no check for sequence A000001",
    );
    let foreign = tmp.path().join("foreign.json");
    std::fs::write(&foreign, "[1, 2]").unwrap();
    one_line_error(
        &run(&["check", foreign.to_str().unwrap()]),
        "is not a result file",
    );
    one_line_error(
        &run(&["check", tmp.path().join("none.json").to_str().unwrap()]),
        "cannot read",
    );
    let o = boardsat()
        .args(["check", source.to_str().unwrap(), "--json"])
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(report["accepted"], true);
}
