//! The guide's transcripts, run: every ```` ```console ```` block of
//! README.md and of every page under `docs/` is a trycmd case (`$ ` a
//! command, `? N` its exit code when not 0, then stdout and stderr as they
//! interleave), so a transcript that drifts from what the binary prints
//! fails the suite. What varies from run to run or machine to machine is
//! elided in the page itself, with trycmd's `[..]` (any text on a line)
//! and `...` (any lines). Blocks that are not transcripts are `sh` or
//! `text`, which trycmd does not run; the page says of each long example
//! that is not run here how long it takes and which script runs it.
//!
//! Each page runs in a fresh directory of its own that holds a copy of
//! `docs/results/` (so `boardsat check docs/results/…` works as in a
//! checkout). A page with a transcript must be listed in [`pages!`]: a
//! page added without it fails [`every_page_with_a_transcript_is_tested`],
//! and a transcript fenced as anything but `console` (a Python session as
//! anything but `pycon`) fails [`every_transcript_is_fenced_to_run`].
//!
//! To see what the commands print now: `TRYCMD=overwrite cargo test -p
//! boardsat --test guide` rewrites the pages with the new output (keeping
//! the elisions where it can); review the diff before committing it.

mod common;

use std::{
    collections::BTreeSet,
    path::{Path, PathBuf},
};

/// The programs other than boardsat that transcripts run, with their
/// Debian packages.
const EXTERNAL: [(&str, &str); 5] = [
    ("parallel", "parallel"),
    ("cbc", "coinor-cbc"),
    ("minisat", "minisat"),
    ("cadical", "cadical"),
    ("picosat", "picosat"),
];

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The pages with transcripts, each run by a test of its own.
macro_rules! pages {
    ($($test:ident => $page:literal),* $(,)?) => {
        /// Every page run here.
        const PAGES: &[&str] = &[$($page),*];
        $(
            #[test]
            fn $test() {
                transcripts($page);
            }
        )*
    };
}

pages! {
    readme => "README.md",
    solving => "docs/solving.md",
    counting => "docs/counting.md",
    proofs => "docs/proofs.md",
    jobs => "docs/jobs.md",
    encodings => "docs/encodings.md",
    solvers => "docs/solvers.md",
    cli => "docs/cli.md",
    results => "docs/results/README.md",
}

/// The fenced blocks of a Markdown text: (info string, body).
fn blocks(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut open: Option<(String, String)> = None;
    for line in text.lines() {
        match (&mut open, line.strip_prefix("```")) {
            (None, Some(info)) => open = Some((info.trim().to_string(), String::new())),
            (Some(_), Some(rest)) if rest.trim().is_empty() => out.extend(open.take()),
            (Some((_, body)), _) => {
                body.push_str(line);
                body.push('\n');
            }
            (None, None) => {}
        }
    }
    out
}

/// Every Markdown file a user reads: README.md, CONTRIBUTING.md,
/// BENCHMARKS.md, python/README.md and everything under docs/.
fn markdown() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("a directory entry").path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|x| x == "md") {
                out.push(path);
            }
        }
    }
    let root = root();
    let mut out: Vec<PathBuf> = [
        "README.md",
        "CONTRIBUTING.md",
        "BENCHMARKS.md",
        "python/README.md",
    ]
    .iter()
    .map(|p| root.join(p))
    .collect();
    walk(&root.join("docs"), &mut out);
    out
}

/// The page's name relative to the root.
fn relative(path: &Path) -> String {
    let root = root().canonicalize().expect("the root");
    let path = path.canonicalize().expect("the page");
    path.strip_prefix(&root)
        .expect("a page under the root")
        .display()
        .to_string()
}

/// Runs the transcripts of `page`.
fn transcripts(page: &str) {
    let source = root().join(page);
    let text = std::fs::read_to_string(&source).expect("the page");
    // The programs the page runs besides boardsat must be there (or the
    // page is skipped, said and counted, with BOARDSAT_SKIP_EXTERNAL=1).
    let programs: BTreeSet<&str> = blocks(&text)
        .iter()
        .filter(|(info, _)| info == "console")
        .flat_map(|(_, body)| {
            body.lines()
                .filter_map(|l| l.strip_prefix("$ "))
                .filter_map(|command| command.split_whitespace().next())
                .collect::<Vec<_>>()
        })
        .filter(|program| *program != "boardsat")
        .map(|program| {
            EXTERNAL
                .iter()
                .find(|(binary, _)| binary == &program)
                .unwrap_or_else(|| panic!("{page} runs {program}, which EXTERNAL does not list"))
                .0
        })
        .collect();
    let needs = |binary: &str| {
        let package = EXTERNAL.iter().find(|(b, _)| *b == binary).map(|(_, p)| *p);
        common::external(binary, package.unwrap_or(binary))
    };
    // The commands jobs.txt runs in `jobs --run parallel` are GNU parallel's.
    let parallel = text.contains("--run parallel");
    if !programs.iter().all(|p| needs(p)) || (parallel && !needs("parallel")) {
        return;
    }
    // trycmd runs a case's commands in a fresh directory of their own only
    // when a `NAME.out` directory stands beside it (otherwise in the
    // working directory: the examples would write into the tree); a
    // `NAME.in` directory is that directory's first content.
    let dir = tempfile::tempdir().expect("a temporary directory");
    let name = page.replace('/', "-").trim_end_matches(".md").to_string();
    let case = dir.path().join(format!("{name}.md"));
    std::fs::copy(&source, &case).expect("the page copied");
    std::fs::create_dir(dir.path().join(format!("{name}.out"))).expect("NAME.out");
    let results = dir.path().join(format!("{name}.in/docs/results"));
    std::fs::create_dir_all(&results).expect("NAME.in");
    for entry in std::fs::read_dir(root().join("docs/results")).expect("docs/results") {
        let path = entry.expect("an entry").path();
        if path.extension().is_some_and(|x| x == "json") {
            std::fs::copy(&path, results.join(path.file_name().expect("a name")))
                .expect("a result copied");
        }
    }

    let cases = trycmd::TestCases::new();
    cases.register_bin("boardsat", Path::new(env!("CARGO_BIN_EXE_boardsat")));
    for binary in &programs {
        if let Some(path) = common::which(binary) {
            cases.register_bin(*binary, path);
        }
    }
    cases.case(&case);
    cases.run();

    if std::env::var("TRYCMD").as_deref() == Ok("overwrite") {
        std::fs::copy(&case, &source).expect("the page written back");
    }
}

#[test]
fn every_page_with_a_transcript_is_tested() {
    let with: BTreeSet<String> = markdown()
        .iter()
        .filter(|p| {
            let text = std::fs::read_to_string(p).expect("a page");
            blocks(&text).iter().any(|(info, _)| info == "console")
        })
        .map(|p| relative(p))
        .collect();
    let listed: BTreeSet<String> = PAGES.iter().map(|p| (*p).to_string()).collect();
    assert_eq!(
        with, listed,
        "the pages with console blocks and the pages! list of crates/cli/tests/guide.rs differ"
    );
}

#[test]
fn every_transcript_is_fenced_to_run() {
    let mut wrong = Vec::new();
    for page in markdown() {
        let text = std::fs::read_to_string(&page).expect("a page");
        for (info, body) in blocks(&text) {
            let lines = |prefix: &str| body.lines().any(|l| l.starts_with(prefix));
            if lines("$ ") && info != "console" {
                wrong.push(format!(
                    "{}: a ```{info} block with `$ ` commands",
                    relative(&page)
                ));
            }
            if lines(">>> ") && info != "pycon" {
                wrong.push(format!(
                    "{}: a ```{info} block with `>>> `",
                    relative(&page)
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "transcripts the tests would not run (fence them console or pycon):\n{}",
        wrong.join("\n")
    );
}

/// The anchors of a page's headings, as GitHub makes them: lower case,
/// spaces to hyphens, punctuation dropped.
fn anchors(page: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(page).expect("a page");
    let mut fenced = false;
    let mut out = BTreeSet::new();
    for line in text.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        }
        let Some(heading) = line.trim_start_matches('#').strip_prefix(' ') else {
            continue;
        };
        if fenced || !line.starts_with('#') {
            continue;
        }
        let slug = heading
            .to_lowercase()
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                _ => None,
            })
            .collect();
        out.insert(slug);
    }
    out
}

#[test]
fn every_guide_page_is_linked_and_every_link_resolves() {
    let root = root().canonicalize().expect("the root");
    let mut broken = Vec::new();
    let mut linked = BTreeSet::new();
    for page in markdown() {
        let text = std::fs::read_to_string(&page).expect("a page");
        let dir = page.parent().expect("a directory").to_path_buf();
        let mut rest = text.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let Some(end) = rest.find(')') else { break };
            let target = &rest[..end];
            rest = &rest[end..];
            if target.contains("://") || target.starts_with('#') || target.contains(' ') {
                continue;
            }
            let (file, anchor) = target.split_once('#').unwrap_or((target, ""));
            match dir.join(file).canonicalize() {
                Ok(path) => {
                    let is_md = path.extension().is_some_and(|x| x == "md");
                    if !anchor.is_empty() && is_md && !anchors(&path).contains(anchor) {
                        broken.push(format!("{}: {target} (no such heading)", relative(&page)));
                    }
                    linked.insert(path);
                }
                Err(_) => broken.push(format!("{}: {target}", relative(&page))),
            }
        }
    }
    assert!(
        broken.is_empty(),
        "links to nothing:\n{}",
        broken.join("\n")
    );
    let unlinked: Vec<String> = markdown()
        .iter()
        .filter(|p| p.starts_with(root.join("docs")) || relative(p).starts_with("docs/"))
        .filter(|p| !linked.contains(&p.canonicalize().expect("a page")))
        .map(|p| relative(p))
        .collect();
    assert!(
        unlinked.is_empty(),
        "guide pages no page links to:\n{}",
        unlinked.join("\n")
    );
}
