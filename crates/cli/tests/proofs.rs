//! `--proof DIR` and `boardsat verify`: every UNSAT claim behind a result
//! carries an LRAT proof that boardsat's own checker accepts and ties to
//! its problem; tampered proofs, formulas and manifests are rejected with
//! their reason, never with a panic.

mod common;

use common::{assert_no_repeated_cause, run, text};

use std::path::Path;

/// Runs `args` with `--proof DIR` (exit `code`), then `verify DIR`, which
/// must accept every claim; returns the verify output.
fn proven(dir: &Path, args: &[&str], code: i32) -> String {
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--proof", dir.to_str().unwrap()]);
    let o = run(&all);
    assert_eq!(o.status.code(), Some(code), "{args:?}: {}", text(&o.stderr));
    let v = run(&["verify", dir.to_str().unwrap()]);
    let out = text(&v.stdout);
    assert_eq!(
        v.status.code(),
        Some(0),
        "{args:?}: {out}{}",
        text(&v.stderr)
    );
    assert!(!out.contains("NOT verified"), "{out}");
    out
}

/// OEIS A075458: γ(Q_n), n = 1..10.
const GAMMA: [usize; 10] = [1, 1, 1, 2, 3, 3, 4, 5, 5, 5];
/// OEIS A002564: minimum dominating sets of Q_n, n = 1..8.
const A002564: [u64; 8] = [1, 4, 1, 12, 186, 4, 86, 4860];

#[test]
fn queens_without_placements_are_proven() {
    let tmp = tempfile::tempdir().unwrap();
    for n in ["2", "3"] {
        let dir = tmp.path().join(n);
        let out = proven(&dir, &["solve", "queens", n], 20);
        assert!(out.contains("claim-0000: verified"), "{out}");
        assert!(
            out.contains(&format!(
                "independence of queens on {n}x{n} with exactly {n}"
            )),
            "{out}"
        );
    }
}

#[test]
fn queen_domination_numbers_are_proven_optimal() {
    let tmp = tempfile::tempdir().unwrap();
    for n in 2..=10 {
        let dir = tmp.path().join(n.to_string());
        let n_text = n.to_string();
        let o = run(&[
            "solve",
            "domination",
            &n_text,
            "--json",
            "--proof",
            dir.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(0), "n = {n}");
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["value"].as_u64(), Some(GAMMA[n - 1] as u64), "n = {n}");
        // One claim per cube of the refutation that proves the optimum.
        assert!(v["proof"]["claims"].as_u64() >= Some(1), "n = {n}: {v}");
        let check = run(&["verify", dir.to_str().unwrap()]);
        let out = text(&check.stdout);
        assert_eq!(check.status.code(), Some(0), "n = {n}: {out}");
        let bound = format!("with at most {}", GAMMA[n - 1] - 1);
        assert!(out.contains(&bound), "n = {n}: {out}");
    }
}

#[test]
fn minimum_dominating_set_counts_are_proven_complete() {
    let tmp = tempfile::tempdir().unwrap();
    for n in 4..=8 {
        let dir = tmp.path().join(n.to_string());
        let out = proven(&dir, &["count", "domination", &n.to_string()], 0);
        // The optimum (γ − 1 refuted), then the count, A002564.
        let refuted = format!("with at most {},", GAMMA[n - 1] - 1);
        let refuted_split = format!("{} queens cannot dominate", GAMMA[n - 1] - 1);
        assert!(
            out.contains(&refuted) || out.contains(&refuted_split),
            "{out}"
        );
        assert!(
            out.contains(&format!(
                "has exactly {} placements with at most",
                A002564[n - 1]
            )),
            "n = {n}: {out}"
        );
    }
    // Cube counts: every cube's claim, and that the cubes cover the board.
    let dir = tmp.path().join("q8");
    let out = proven(&dir, &["count", "queens", "8", "--depth", "2"], 0);
    assert!(out.contains("cover: verified"), "{out}");
    assert!(out.contains("weighted total 92"), "{out}");
    let dir = tmp.path().join("q9");
    let out = proven(
        &dir,
        &["count", "queens", "9", "--halve", "--depth", "1"],
        0,
    );
    assert!(out.contains("weighted total 352"), "{out}");
    // An enumeration's listing, with k fixed.
    let dir = tmp.path().join("e6");
    let out = proven(&dir, &["enumerate", "queens", "6"], 0);
    assert!(out.contains("4 in all"), "{out}");
}

/// Certified splits beyond queens on squares: every piece, rectangles,
/// independent domination, counts and optima (their refutations split
/// too), and splits refined again at the tail (`--cube-budget`): each
/// verified, each answer the one found without proofs.
#[test]
fn split_proofs_of_every_piece_and_board_verify() {
    let tmp = tempfile::tempdir().unwrap();
    for (i, args) in [
        &["count", "domination", "9"][..],
        &["count", "domination", "6", "--cols", "8", "--piece", "rook"][..],
        &["count", "domination", "6", "--piece", "king"][..],
        &[
            "count",
            "domination",
            "5",
            "--cols",
            "7",
            "--piece",
            "knight",
        ][..],
        &[
            "count",
            "domination",
            "7",
            "--piece",
            "bishop",
            "--independent",
        ][..],
        &["count", "domination", "7", "--independent"][..],
        &["count", "domination", "6", "--cols", "9", "-k", "5"][..],
        &["solve", "domination", "9", "--piece", "knight"][..],
        &["solve", "domination", "8", "--cols", "9", "--independent"][..],
        &["count", "domination", "9", "--cube-budget", "0.001"][..],
        &[
            "count",
            "domination",
            "8",
            "--piece",
            "bishop",
            "--cube-budget",
            "0.001",
            "--no-symmetry",
        ][..],
    ]
    .into_iter()
    .enumerate()
    {
        let mut json = args.to_vec();
        json.push("--json");
        let plain = run(&json);
        assert_eq!(plain.status.code(), Some(0), "{args:?}");
        let plain: serde_json::Value = serde_json::from_slice(&plain.stdout).unwrap();
        let dir = tmp.path().join(i.to_string());
        let mut proving = json.clone();
        proving.extend(["--proof", dir.to_str().unwrap()]);
        let o = run(&proving);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", text(&o.stderr));
        let proved: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let answer = if args[0] == "count" { "count" } else { "value" };
        assert_eq!(proved[answer], plain[answer], "{args:?}");
        assert!(proved["proof"]["claims"].as_u64() >= Some(1), "{args:?}");
        let v = run(&["verify", dir.to_str().unwrap()]);
        let out = text(&v.stdout);
        assert_eq!(v.status.code(), Some(0), "{args:?}: {out}");
        assert!(out.contains("split-"), "{args:?}: a split: {out}");
        assert!(!out.contains("NOT verified"), "{args:?}: {out}");
    }
}

#[test]
fn dimacs_answers_are_proven_against_their_source() {
    let tmp = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let unsat = root.join("cnf/domination-8-k4-totalizer.cnf");
    let out = proven(
        &tmp.path().join("u"),
        &["solve-dimacs", unsat.to_str().unwrap()],
        20,
    );
    assert!(out.contains("the formula is"), "{out}");
    let sat = root.join("cnf/queens-8-ladder-lines.cnf");
    let out = proven(
        &tmp.path().join("c"),
        &["count-dimacs", sat.to_str().unwrap()],
        0,
    );
    assert!(out.contains("92 blocked projected models"), "{out}");
    // stdin has no source to re-read.
    let o = run(&[
        "solve-dimacs",
        "-",
        "--proof",
        tmp.path().join("s").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("--proof needs a file"));
}

/// `verify DIR` must exit 1 with a line naming `what`.
fn rejected(dir: &Path, what: &str) {
    let o = run(&["verify", dir.to_str().unwrap()]);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{what}: {out}{}", text(&o.stderr));
    assert!(!text(&o.stderr).contains("panicked"));
    assert!(
        out.contains("NOT verified") && out.contains(what),
        "{what}: {out}"
    );
}

#[test]
fn tampered_proofs_formulas_and_manifests_are_rejected() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("q8");
    proven(&dir, &["count", "queens", "8", "--depth", "1"], 0);
    // The claim with the longest proof, and another.
    let size =
        |i: usize| std::fs::metadata(dir.join(format!("claim-{i:04}.lrat"))).map_or(0, |m| m.len());
    let longest = (0..8).max_by_key(|&i| size(i)).unwrap();
    let name = format!("claim-{longest:04}");
    let other = format!("claim-{:04}", (longest + 1) % 8);
    let lrat = dir.join(format!("{name}.lrat"));
    let cnf = dir.join(format!("{name}.cnf"));
    let manifest = dir.join("MANIFEST.json");
    let (proof, formula, listed) = (
        std::fs::read_to_string(&lrat).unwrap(),
        std::fs::read_to_string(&cnf).unwrap(),
        std::fs::read_to_string(&manifest).unwrap(),
    );
    let restore = || {
        std::fs::write(&lrat, &proof).unwrap();
        std::fs::write(&cnf, &formula).unwrap();
        std::fs::write(&manifest, &listed).unwrap();
    };
    let lines: Vec<&str> = proof.lines().collect();
    let additions: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].split_whitespace().nth(1).is_none_or(|t| t != "d"))
        .collect();
    // One step removed: a later hint names a clause that was never added.
    let mut edited = lines.clone();
    edited.remove(additions[0]);
    std::fs::write(&lrat, edited.join("\n") + "\n").unwrap();
    rejected(&dir, &name);
    // A wrong hint.
    let mut edited = lines.clone();
    let last = *additions.last().unwrap();
    let step: Vec<&str> = edited[last].split(' ').collect();
    let zero = step.iter().position(|t| *t == "0").unwrap();
    let mut changed: Vec<String> = step.iter().map(|t| (*t).to_string()).collect();
    changed[zero + 1] = "1".to_string();
    edited[last] = changed.join(" ").leak();
    std::fs::write(&lrat, edited.join("\n") + "\n").unwrap();
    rejected(&dir, "hint");
    // A clause id reused.
    let mut edited = lines.clone();
    let id = edited[additions[0]].split(' ').next().unwrap().to_string();
    let second = additions[1];
    let rest: Vec<&str> = edited[second].split(' ').skip(1).collect();
    edited[second] = format!("{id} {}", rest.join(" ")).leak();
    std::fs::write(&lrat, edited.join("\n") + "\n").unwrap();
    rejected(&dir, "reused");
    // A truncated file.
    std::fs::write(&lrat, &proof[..proof.len() / 2]).unwrap();
    rejected(&dir, &name);
    restore();
    // The proof of another formula, and a formula changed.
    std::fs::copy(dir.join(format!("{other}.lrat")), &lrat).unwrap();
    rejected(&dir, &name);
    restore();
    let changed = formula.replacen("\n1 ", "\n2 ", 1);
    assert_ne!(changed, formula);
    std::fs::write(&cnf, changed).unwrap();
    rejected(&dir, &name);
    restore();
    // A manifest that claims another total, or names a missing file.
    std::fs::write(&manifest, listed.replace("\"count\": 92", "\"count\": 93")).unwrap();
    rejected(&dir, "claims 93");
    std::fs::write(
        &manifest,
        listed.replace(&format!("{other}.lrat"), "claim-0099.lrat"),
    )
    .unwrap();
    rejected(&dir, "cannot read");
    restore();
    assert_eq!(
        run(&["verify", dir.to_str().unwrap()]).status.code(),
        Some(0)
    );
    // No manifest: bad input, exit 2.
    let o = run(&["verify", tmp.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("MANIFEST.json"));
}

/// A certified split, tampered with each way its check guards against:
/// every change is rejected with its reason, exit 1, no panic.
#[test]
fn tampered_splits_are_rejected_with_their_reason() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("d7");
    proven(&dir, &["count", "domination", "7"], 0);
    let manifest_path = dir.join("MANIFEST.json");
    let listed = std::fs::read_to_string(&manifest_path).unwrap();
    let manifest: serde_json::Value = serde_json::from_str(&listed).unwrap();
    let claims = manifest["claims"].as_array().unwrap().clone();
    let count_split = manifest["splits"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["purpose"] == "count")
        .unwrap()
        .clone();
    let split_name = count_split["name"].as_str().unwrap().to_string();
    let cubes: Vec<&serde_json::Value> = claims
        .iter()
        .filter(|c| c["split"]["split"].as_str() == Some(split_name.as_str()))
        .collect();
    // A cube with placements, and one whose stabilizer is not the whole
    // group.
    let with_models = cubes
        .iter()
        .find(|c| c["count"].as_u64() > Some(0))
        .unwrap();
    let small = cubes
        .iter()
        .find(|c| c["split"]["stabilizer"].as_array().unwrap().len() < 8)
        .unwrap();
    let file = |c: &serde_json::Value| dir.join(c["cnf"].as_str().unwrap());
    let write_manifest = |m: &serde_json::Value| {
        std::fs::write(&manifest_path, serde_json::to_string_pretty(m).unwrap()).unwrap();
    };
    let restore_manifest = || std::fs::write(&manifest_path, &listed).unwrap();

    // A cube's claim removed: the split no longer covers the board.
    let mut m = manifest.clone();
    let name = small["name"].clone();
    m["claims"]
        .as_array_mut()
        .unwrap()
        .retain(|c| c["name"] != name);
    write_manifest(&m);
    rejected(&dir, "no claim covers the cube");
    restore_manifest();

    // Weights that do not sum to the split's count.
    let mut m = manifest.clone();
    for s in m["splits"].as_array_mut().unwrap() {
        if s["name"] == split_name.as_str() {
            s["count"] = serde_json::json!(s["count"].as_u64().unwrap() + 1);
        }
    }
    write_manifest(&m);
    rejected(&dir, "weighted total");
    restore_manifest();

    // The split's words, or a cube's, not what was proven.
    let edited = listed.replacen(
        "cannot dominate the 7x7 board",
        "cannot dominate the 8x8 board",
        1,
    );
    assert_ne!(edited, listed);
    std::fs::write(&manifest_path, edited).unwrap();
    rejected(&dir, "words");
    restore_manifest();

    // An interrupted split: the cubes not proven are missing.
    let mut m = manifest.clone();
    for s in m["splits"].as_array_mut().unwrap() {
        if s["name"] == split_name.as_str() {
            s["status"] = serde_json::json!("stopped");
        }
    }
    write_manifest(&m);
    rejected(&dir, "missing");
    restore_manifest();

    // A stabilizer that does not fix its cube, in the manifest and the
    // formula alike: the lex-leader constraints re-derived differ.
    let cnf = file(small);
    let formula = std::fs::read_to_string(&cnf).unwrap();
    let whole = "Identity,MirrorColumns,MirrorRows,HalfTurn,Transpose,AntiTranspose,QuarterTurn,ThreeQuarterTurn";
    let line = formula
        .lines()
        .find(|l| l.starts_with("c boardsat-stabilizer "))
        .unwrap();
    std::fs::write(
        &cnf,
        formula.replace(line, &format!("c boardsat-stabilizer {whole}")),
    )
    .unwrap();
    let mut m = manifest.clone();
    for c in m["claims"].as_array_mut().unwrap() {
        if c["name"] == small["name"] {
            c["split"]["stabilizer"] = serde_json::json!(whole.split(',').collect::<Vec<_>>());
        }
    }
    write_manifest(&m);
    rejected(&dir, "is not the cube's formula");
    // In the manifest only.
    std::fs::write(&cnf, &formula).unwrap();
    rejected(&dir, "stabilizer is not the manifest's");
    restore_manifest();

    // A cube's units edited.
    let units: Vec<&str> = formula
        .lines()
        .filter(|l| l.starts_with('-') && l.split(' ').count() == 2)
        .collect();
    let unit = units.last().unwrap();
    std::fs::write(
        &cnf,
        formula.replacen(&format!("\n{unit}\n"), &format!("\n{}\n", &unit[1..]), 1),
    )
    .unwrap();
    rejected(&dir, "is not the cube's formula");
    std::fs::write(&cnf, &formula).unwrap();

    // A blocking clause duplicated, or one that blocks no solution.
    let cnf = file(with_models);
    let formula = std::fs::read_to_string(&cnf).unwrap();
    let last = formula.lines().last().unwrap();
    let header = formula.lines().find(|l| l.starts_with("p cnf ")).unwrap();
    let words: Vec<&str> = header.split(' ').collect();
    let more = format!(
        "p cnf {} {}",
        words[2],
        words[3].parse::<u64>().unwrap() + 1
    );
    std::fs::write(&cnf, formula.replace(header, &more) + last + "\n").unwrap();
    rejected(&dir, "blocks a placement twice");
    let lone = formula.replacen(&format!("\n{last}\n"), "\n-1 -2 -3 -4 0\n", 1);
    std::fs::write(&cnf, lone).unwrap();
    rejected(&dir, "not a solution");
    std::fs::write(&cnf, &formula).unwrap();

    assert_eq!(
        run(&["verify", dir.to_str().unwrap()]).status.code(),
        Some(0)
    );
}

#[test]
fn proof_directories_are_not_overwritten_by_accident() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("p");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("keep.txt"), "mine").unwrap();
    let o = run(&["solve", "queens", "3", "--proof", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("is not empty"));
    // --force is the size limit's, one meaning: it replaces no proofs.
    let o = run(&[
        "solve",
        "queens",
        "3",
        "--proof",
        dir.to_str().unwrap(),
        "--force",
    ]);
    common::one_line_error(
        &o,
        "is not empty; choose a new directory for the proofs, or --replace to replace a previous proof directory's files",
    );
    let o = run(&[
        "solve",
        "queens",
        "3",
        "--proof",
        dir.to_str().unwrap(),
        "--replace",
    ]);
    assert_eq!(o.status.code(), Some(20), "{}", text(&o.stderr));
    assert_eq!(
        std::fs::read_to_string(dir.join("keep.txt")).unwrap(),
        "mine"
    );
    assert_eq!(
        run(&["verify", dir.to_str().unwrap()]).status.code(),
        Some(0)
    );
}

#[test]
fn external_unsat_answers_are_marked_unverified() {
    if !common::external("minisat", "minisat") {
        return;
    }
    let o = run(&["solve", "queens", "3", "--solver-cmd", "minisat"]);
    assert_eq!(o.status.code(), Some(20));
    assert!(
        text(&o.stdout).contains("unverified"),
        "{}",
        text(&o.stdout)
    );
    let o = run(&["solve", "queens", "3", "--solver-cmd", "minisat", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["unverified"], true);
    // With --proof the claim is proven again, and verified.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("m");
    let o = run(&[
        "solve",
        "queens",
        "3",
        "--solver-cmd",
        "minisat",
        "--proof",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(20));
    assert!(!text(&o.stdout).contains("unverified"));
    assert_eq!(
        run(&["verify", dir.to_str().unwrap()]).status.code(),
        Some(0)
    );
}

#[test]
fn results_found_with_the_lazy_amo_are_proven_on_the_eager_encoding() {
    // The search ran on CaDiCaL's line propagator, whose reasons an LRAT
    // proof cannot cite: every claim's formula is the `auto` encoding.
    let tmp = tempfile::tempdir().unwrap();
    let jobs: [(&[&str], i32); 5] = [
        (&["solve", "queens", "3", "--amo", "lazy"], 20),
        (&["count", "queens", "6", "--amo", "lazy"], 0),
        (&["enumerate", "queens", "5", "--amo", "lazy"], 0),
        (
            &[
                "count",
                "independence",
                "4",
                "--cols",
                "5",
                "--piece",
                "rook",
                "-k",
                "4",
                "--amo",
                "lazy",
            ],
            0,
        ),
        (
            &["count", "domination", "4", "--independent", "--amo", "lazy"],
            0,
        ),
    ];
    for (i, (args, code)) in jobs.into_iter().enumerate() {
        let dir = tmp.path().join(i.to_string());
        let out = proven(&dir, args, code);
        assert!(out.contains("claim-0000: verified"), "{args:?}: {out}");
        let mut formulas = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "cnf") {
                let cnf = std::fs::read_to_string(&path).unwrap();
                assert!(
                    cnf.contains("c amo: auto\n"),
                    "{args:?}: {}",
                    path.display()
                );
                formulas += 1;
            }
        }
        assert!(formulas > 0, "{args:?}");
    }
}

/// A split proof interrupted while it runs: its MANIFEST says, while it
/// runs and after the stop, that the split is not proven (never the
/// sentence of a finished count, nor a total), and `verify` reports the
/// cubes not proven as missing, exit 1.
#[test]
fn an_interrupted_split_proof_says_it_is_not_proven() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("proof");
    let mut child = common::boardsat()
        .args([
            "--progress",
            "count",
            "domination",
            "13",
            "-k",
            "7",
            "--json",
            "--proof",
        ])
        .arg(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    assert!(err.read_line(&mut line).unwrap() > 0, "no output");
    let manifest = |dir: &Path| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(dir.join("MANIFEST.json")).unwrap()).unwrap()
    };
    // Ready when the split is in the manifest (it is written when the
    // split begins, atomically).
    let running = (0..12_000)
        .find_map(|_| {
            let m = dir
                .join("MANIFEST.json")
                .exists()
                .then(|| manifest(&dir))
                .filter(|m| m["splits"].as_array().is_some_and(|s| !s.is_empty()));
            if m.is_none() {
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            m
        })
        .expect("no split in the manifest after 2 minutes");
    let split = &running["splits"][0];
    assert_eq!(split["status"], "running", "{split}");
    let claim = split["claim"].as_str().unwrap();
    assert!(claim.starts_with("not proven (running)"), "{claim}");
    assert!(split.get("count").is_none(), "{split}");
    let (code, out, rest) = common::interrupt(&mut child, &mut err, 1);
    assert_eq!(code, Some(130), "{out}{rest}");
    let stopped = manifest(&dir);
    assert_eq!(stopped["status"], "interrupted", "{stopped}");
    // The figures printed are the MANIFEST's: the count found, and the
    // bytes of the proofs it lists, which are the directory's.
    let printed: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(stopped["found"], printed["count"], "{out}");
    let listed: u64 = stopped["claims"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["proof_bytes"].as_u64().unwrap())
        .sum();
    let on_disk: u64 = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "lrat"))
        .map(|p| std::fs::metadata(p).unwrap().len())
        .sum();
    assert_eq!(listed, on_disk);
    assert!(
        rest.contains(&format!("({:.1} MB of LRAT)", listed as f64 / 1e6)),
        "{rest}"
    );
    let split = &stopped["splits"][0];
    assert_eq!(split["status"], "stopped", "{split}");
    let claim = split["claim"].as_str().unwrap();
    let proven = stopped["claims"].as_array().unwrap().len();
    assert!(
        claim.starts_with(&format!("not proven (stopped): the {proven} cubes proven")),
        "{claim}"
    );
    assert!(!claim.contains("has exactly"), "{claim}");
    assert!(split.get("count").is_none(), "{split}");
    let v = run(&["verify", dir.to_str().unwrap()]);
    assert_eq!(
        v.status.code(),
        Some(1),
        "{}{}",
        text(&v.stdout),
        text(&v.stderr)
    );
    assert!(
        text(&v.stdout).contains(&format!(
            "stopped with {proven} cubes proven: the rest are missing"
        )),
        "{}",
        text(&v.stdout)
    );
}

/// Appends `clause` to the DIMACS file `cnf` (its header raised by one),
/// proves the bigger formula again with `solve-dimacs --proof` and puts
/// that proof in `lrat`'s place: a forged blocking clause with a valid
/// proof.
fn forge(cnf: &Path, lrat: &Path, clause: &str) {
    let formula = std::fs::read_to_string(cnf).unwrap();
    let header = formula.lines().find(|l| l.starts_with("p cnf ")).unwrap();
    let words: Vec<&str> = header.split(' ').collect();
    let more = format!(
        "p cnf {} {}",
        words[2],
        words[3].parse::<u64>().unwrap() + 1
    );
    std::fs::write(cnf, formula.replace(header, &more) + clause + "\n").unwrap();
    let again = tempfile::tempdir().unwrap();
    let proof = again.path().join("p");
    let o = run(&[
        "solve-dimacs",
        cnf.to_str().unwrap(),
        "--proof",
        proof.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(20), "{}", text(&o.stderr));
    std::fs::copy(proof.join("claim-0000.lrat"), lrat).unwrap();
}

/// Raises every `"count": N` of a JSON file by one, and every sentence
/// that says "exactly N" with it.
fn raise_counts(path: &Path, n: u64) {
    let text = std::fs::read_to_string(path).unwrap();
    let raised = text
        .replace(&format!("\"count\": {n}"), &format!("\"count\": {}", n + 1))
        .replace(&format!("\"count\":{n}"), &format!("\"count\":{}", n + 1))
        .replace(&format!("exactly {n} "), &format!("exactly {} ", n + 1));
    assert_ne!(raised, text, "{}", path.display());
    std::fs::write(path, raised).unwrap();
}

/// D1: a clause that blocks a non-model appended to a claim's formula,
/// proven again, with the counts raised — in a `count-dimacs --proof`
/// directory and in one cube job of an exported split — is rejected: the
/// blocked assignment has no witness model.
#[test]
fn a_forged_blocking_clause_proven_again_is_rejected() {
    let tmp = tempfile::tempdir().unwrap();
    let cnf = tmp.path().join("q6.cnf");
    common::ok(&["dimacs", "queens", "6", "-o", cnf.to_str().unwrap()]);
    let dir = tmp.path().join("c");
    proven(&dir, &["count-dimacs", cnf.to_str().unwrap()], 0);
    // Every board square empty: not a model.
    let clause: Vec<String> = (1..=36).map(|v| v.to_string()).collect();
    forge(
        &dir.join("claim-0000.cnf"),
        &dir.join("claim-0000.lrat"),
        &(clause.join(" ") + " 0"),
    );
    raise_counts(&dir.join("MANIFEST.json"), 4);
    rejected(&dir, "no witness");

    // An exported split's cube: the forgery, its proof, its result.
    let out = common::run_in(
        tmp.path(),
        &["cubes", "queens", "6", "--depth", "1", "--proof", "-o", "s"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let split = tmp.path().join("s");
    common::run_jobs(&split);
    let ok = run(&["verify", split.to_str().unwrap()]);
    assert_eq!(ok.status.code(), Some(0), "{}", text(&ok.stdout));
    let id = (0..3)
        .map(|i| format!("cube-{i:05}"))
        .find(|id| {
            let r = std::fs::read_to_string(split.join(format!("results/{id}.json"))).unwrap();
            !r.contains("\"count\":0")
        })
        .unwrap();
    let proofs = split.join("proofs").join(&id);
    forge(
        &proofs.join("claim-0000.cnf"),
        &proofs.join("claim-0000.lrat"),
        &(clause.join(" ") + " 0"),
    );
    let result = split.join(format!("results/{id}.json"));
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&result).unwrap()).unwrap();
    let n = r["count"].as_u64().unwrap();
    raise_counts(&result, n);
    raise_counts(&proofs.join("MANIFEST.json"), n);
    for args in [&["verify"][..], &["merge", "--verify"][..]] {
        let mut all = args.to_vec();
        all.push(split.to_str().unwrap());
        let o = run(&all);
        let out = text(&o.stdout);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {out}");
        assert!(out.contains("no witness"), "{args:?}: {out}");
        assert!(!out.contains("split: verified"), "{args:?}: {out}");
    }
}

fn manifest_of(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("MANIFEST.json")).unwrap()).unwrap()
}

/// D2, D16: an N-queens cube count stopped by its time limit — while it
/// counts or while its claims are proven — exits 3, leaves a MANIFEST
/// that says it stopped, and `verify` reports it not proven (exit 1).
#[test]
fn a_time_limited_proof_run_exits_3_and_is_not_proven() {
    let tmp = tempfile::tempdir().unwrap();
    for (i, limit) in ["0.5", "2"].into_iter().enumerate() {
        let dir = tmp.path().join(i.to_string());
        let o = run(&[
            "count",
            "queens",
            "12",
            "--threads",
            "1",
            "--time-limit",
            limit,
            "--proof",
            dir.to_str().unwrap(),
        ]);
        let err = text(&o.stderr);
        if o.status.code() == Some(0) {
            // A machine fast enough to prove it all in time.
            assert_eq!(manifest_of(&dir)["status"], "complete");
            continue;
        }
        assert_eq!(o.status.code(), Some(3), "--time-limit {limit}: {err}");
        assert!(!err.contains("error:"), "{err}");
        assert_eq!(manifest_of(&dir)["status"], "time-limit", "{err}");
        let v = run(&["verify", dir.to_str().unwrap()]);
        let out = text(&v.stdout);
        assert_eq!(v.status.code(), Some(1), "{out}");
        let last = out.lines().last().unwrap();
        assert!(
            last.starts_with("NOT verified: not proven: the run was stopped by the time limit"),
            "{out}"
        );
    }
}

/// A stop that comes before any solver was loaded (a millisecond's time
/// limit while the split encodes) ends the run on an error, not a partial
/// answer: its MANIFEST still says how it stopped, never "running" (CI
/// caught an interrupt landing there), and the proof directory is noted.
#[test]
fn a_run_stopped_before_its_first_solver_says_so_in_its_manifest() {
    let tmp = tempfile::tempdir().unwrap();
    for (i, args) in [
        &["count", "domination", "13", "-k", "7"][..],
        &["solve", "domination", "13"][..],
        &["enumerate", "domination", "9"][..],
    ]
    .into_iter()
    .enumerate()
    {
        let dir = tmp.path().join(i.to_string());
        let mut all = args.to_vec();
        all.extend(["--time-limit", "0.001", "--proof", dir.to_str().unwrap()]);
        let o = run(&all);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(3), "{args:?}: {err}");
        assert_eq!(manifest_of(&dir)["status"], "time-limit", "{args:?}: {err}");
        assert!(err.contains("not the whole result"), "{args:?}: {err}");
        let v = run(&["verify", dir.to_str().unwrap()]);
        assert_eq!(v.status.code(), Some(1), "{}", text(&v.stdout));
    }
}

/// D2: one SIGINT while the claims of a finished N-queens count are
/// being proven: exit 130, a MANIFEST that says so, and `verify` exit 1.
#[test]
fn an_interrupted_queens_proof_is_not_proven() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("p");
    let mut child = common::boardsat()
        .args([
            "--progress",
            "count",
            "queens",
            "12",
            "--threads",
            "1",
            "--proof",
        ])
        .arg(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    assert!(err.read_line(&mut line).unwrap() > 0, "no output");
    // The proof phase has begun when the first claim is listed.
    let proving = (0..12_000).any(|_| {
        let listed = std::fs::read_to_string(dir.join("MANIFEST.json"))
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .is_some_and(|m| m["claims"].as_array().is_some_and(|c| !c.is_empty()));
        if !listed {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        listed
    });
    assert!(proving, "no claim after 2 minutes");
    let (code, out, rest) = common::interrupt(&mut child, &mut err, 1);
    if code == Some(0) {
        // The proofs ended before the signal came.
        assert_eq!(manifest_of(&dir)["status"], "complete");
        return;
    }
    assert_eq!(code, Some(130), "{out}{rest}");
    assert_eq!(manifest_of(&dir)["status"], "interrupted");
    let v = run(&["verify", dir.to_str().unwrap()]);
    let out = text(&v.stdout);
    assert_eq!(v.status.code(), Some(1), "{out}");
    assert!(
        out.lines()
            .last()
            .unwrap()
            .contains("not proven: the run was interrupted"),
        "{out}"
    );
}

/// D13: a proof directory is locked while a run writes it: a second run
/// into it refuses at once (one line, exit 2); the lock file is no claim
/// and does not make the directory "not empty" afterwards.
#[test]
fn a_proof_directory_is_locked_while_written() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("same");
    let mut child = common::boardsat()
        .args([
            "--progress",
            "count",
            "domination",
            "13",
            "-k",
            "7",
            "--proof",
        ])
        .arg(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    assert!(err.read_line(&mut line).unwrap() > 0, "no output");
    // The manifest is written once the lock is held.
    let started = (0..12_000).any(|_| {
        let there = dir.join("MANIFEST.json").exists();
        if !there {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        there
    });
    assert!(started, "no MANIFEST after 2 minutes");
    let second = run(&[
        "count",
        "queens",
        "6",
        "--proof",
        dir.to_str().unwrap(),
        "--replace",
    ]);
    common::one_line_error(&second, "is being written by another boardsat run");
    let v = run(&["verify", dir.to_str().unwrap()]);
    assert_eq!(v.status.code(), Some(1));
    assert!(
        text(&v.stdout).contains("still running"),
        "{}",
        text(&v.stdout)
    );
    let (code, out, rest) = common::interrupt(&mut child, &mut err, 1);
    assert_eq!(code, Some(130), "{out}{rest}");
    // The lock stays, and is neither a claim nor content.
    assert!(dir.join(".boardsat-lock").is_file());
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if !path.ends_with(".boardsat-lock") {
            std::fs::remove_file(path).unwrap();
        }
    }
    let out = proven(&dir, &["count", "queens", "6"], 0);
    assert!(!out.contains("boardsat-lock"), "{out}");
}

/// D19: a FIFO, a symbolic link or a directory in place of a claim's
/// proof or formula, or of the MANIFEST, is a reasoned failure (exit 1),
/// never a hang.
#[test]
fn verify_opens_only_regular_files() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("d");
    proven(&dir, &["solve", "queens", "3"], 20);
    let keep = tmp.path().join("keep");
    for (file, what) in [
        ("claim-0000.lrat", "fifo"),
        ("claim-0000.lrat", "link"),
        ("claim-0000.cnf", "dir"),
        ("MANIFEST.json", "fifo"),
        ("MANIFEST.json", "link"),
    ] {
        let path = dir.join(file);
        std::fs::rename(&path, &keep).unwrap();
        match what {
            "fifo" => assert!(std::process::Command::new("mkfifo")
                .arg(&path)
                .status()
                .unwrap()
                .success()),
            "link" => std::os::unix::fs::symlink(&keep, &path).unwrap(),
            _ => std::fs::create_dir(&path).unwrap(),
        }
        let o = within(&["verify", dir.to_str().unwrap()], 60);
        let out = text(&o.stdout);
        assert_eq!(o.status.code(), Some(1), "{file} {what}: {out}");
        assert!(out.contains("not a regular file"), "{file} {what}: {out}");
        if what == "dir" {
            std::fs::remove_dir(&path).unwrap();
        } else {
            std::fs::remove_file(&path).unwrap();
        }
        std::fs::rename(&keep, &path).unwrap();
    }
    assert_eq!(
        run(&["verify", dir.to_str().unwrap()]).status.code(),
        Some(0)
    );
}

/// Runs `boardsat args`, killed (and the test failed) after `seconds`.
fn within(args: &[&str], seconds: u64) -> std::process::Output {
    let child = common::boardsat()
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let id = child.id();
    let (done, waiting) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        if waiting
            .recv_timeout(std::time::Duration::from_secs(seconds))
            .is_err()
        {
            let _ = std::process::Command::new("kill")
                .args(["-KILL", &id.to_string()])
                .status();
        }
    });
    let out = child.wait_with_output().unwrap();
    let _ = done.send(());
    assert!(
        out.status.code().is_some(),
        "{args:?}: killed after {seconds} s"
    );
    out
}

/// D20: a foreign `MANIFEST.json` with its claims copied into a split
/// directory makes it a mixed directory: `verify DIR` and `merge
/// --verify` fail (exit 1), not check the foreign claim alone.
#[test]
fn a_split_directory_with_foreign_claims_is_rejected() {
    let tmp = tempfile::tempdir().unwrap();
    let out = common::run_in(
        tmp.path(),
        &["cubes", "queens", "5", "--depth", "1", "--proof", "-o", "s"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let split = tmp.path().join("s");
    common::run_jobs(&split);
    let foreign = tmp.path().join("f");
    proven(&foreign, &["solve", "queens", "3"], 20);
    for entry in std::fs::read_dir(&foreign).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), split.join(entry.file_name())).unwrap();
    }
    for args in [&["verify"][..], &["merge", "--verify"][..]] {
        let mut all = args.to_vec();
        all.push(split.to_str().unwrap());
        let o = run(&all);
        let out = text(&o.stdout);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {out}");
        assert!(out.contains("mixed directory"), "{args:?}: {out}");
    }
}

/// D15: with one cube's count edited, the cover is not "verified".
#[test]
fn the_cover_is_not_verified_when_a_cube_fails() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("q6");
    proven(&dir, &["count", "queens", "6", "--depth", "1"], 0);
    let mut m = manifest_of(&dir);
    let claim = m["claims"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|c| c["count"].as_u64() > Some(0))
        .unwrap();
    claim["count"] = serde_json::json!(claim["count"].as_u64().unwrap() + 1);
    std::fs::write(
        dir.join("MANIFEST.json"),
        serde_json::to_string_pretty(&m).unwrap(),
    )
    .unwrap();
    let o = run(&["verify", dir.to_str().unwrap()]);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("cover: NOT verified: cubes not verified"),
        "{out}"
    );
    assert!(!out.contains("cover: verified"), "{out}");
}

/// D17: a run with nothing to prove (a placement found with k fixed)
/// still writes a MANIFEST, which says so and records the placement,
/// which `verify` checks again; a run stopped before any claim says
/// "nothing to check", exit 1, not 0.
#[test]
fn a_run_with_nothing_to_prove_says_why() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("q8");
    let o = run(&["solve", "queens", "8", "--proof", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        text(&o.stderr).contains("no UNSAT answer to prove"),
        "{}",
        text(&o.stderr)
    );
    let m = manifest_of(&dir);
    assert_eq!(m["status"], "complete");
    assert!(
        m["reason"]
            .as_str()
            .unwrap()
            .starts_with("nothing to prove"),
        "{m}"
    );
    assert_eq!(m["result"]["kind"], "placements");
    let v = run(&["verify", dir.to_str().unwrap()]);
    let out = text(&v.stdout);
    assert_eq!(v.status.code(), Some(0), "{out}");
    assert_eq!(
        out.trim(),
        "verified: independence of queens on 8x8 has a placement with exactly 8 queens (checked)"
    );
    // The placement edited into one that attacks.
    let mut edited = m.clone();
    edited["result"]["placements"][0][1] = serde_json::json!([0, 1]);
    std::fs::write(dir.join("MANIFEST.json"), edited.to_string()).unwrap();
    rejected_result(&dir, "not a solution");
    // Stopped before any claim.
    let mut stopped = m.clone();
    stopped["status"] = serde_json::json!("time-limit");
    stopped.as_object_mut().unwrap().remove("result");
    std::fs::write(dir.join("MANIFEST.json"), stopped.to_string()).unwrap();
    rejected_result(&dir, "nothing to check");
}

/// `verify DIR` exits 1 and its last line says `what` is missing.
fn rejected_result(dir: &Path, what: &str) {
    let o = run(&["verify", dir.to_str().unwrap()]);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{what}: {out}");
    let last = out.lines().last().unwrap_or("");
    assert!(
        last.starts_with("NOT verified: ") && last.contains(what),
        "{what}: {out}"
    );
}

/// Issue 36, item 1: `verify FORMULA PROOF` takes any DIMACS formula,
/// boardsat's own comments included, and says what it verified; only a
/// claim formula (its `c boardsat-bound` marker) is tied to its problem.
#[test]
fn verify_takes_any_formula_and_says_what_it_proved() {
    let tmp = tempfile::tempdir().unwrap();
    let cnf = tmp.path().join("unsat.cnf");
    common::ok(&[
        "dimacs",
        "domination",
        "6",
        "-k",
        "2",
        "--card",
        "totalizer",
        "-o",
        cnf.to_str().unwrap(),
    ]);
    let dir = tmp.path().join("u");
    let o = run(&[
        "solve-dimacs",
        cnf.to_str().unwrap(),
        "--proof",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(20));
    let lrat = dir.join("claim-0000.lrat");
    let v = run(&["verify", cnf.to_str().unwrap(), lrat.to_str().unwrap()]);
    let out = text(&v.stdout);
    assert_eq!(v.status.code(), Some(0), "{out}{}", text(&v.stderr));
    assert_eq!(
        out.lines().last().unwrap(),
        format!("verified: {} is unsatisfiable", cnf.display())
    );
    // A board claim's formula is tied to its problem.
    let claim = tmp.path().join("claim");
    proven(&claim, &["solve", "queens", "3"], 20);
    let v = run(&[
        "verify",
        claim.join("claim-0000.cnf").to_str().unwrap(),
        claim.join("claim-0000.lrat").to_str().unwrap(),
    ]);
    let out = text(&v.stdout);
    assert_eq!(v.status.code(), Some(0), "{out}");
    assert!(
        out.ends_with(
            "verified: 3 queens cannot stand on the 3x3 board without attacking each other\n"
        ),
        "{out}"
    );
    // The proof of another formula.
    let other = tmp.path().join("q4.cnf");
    common::ok(&["dimacs", "queens", "3", "-o", other.to_str().unwrap()]);
    let v = run(&["verify", other.to_str().unwrap(), lrat.to_str().unwrap()]);
    assert_eq!(v.status.code(), Some(1), "{}", text(&v.stdout));
}

/// `--proof-format binary` writes the traced proofs as binary LRAT, which
/// the manifest names and verify checks as such: the same count, about
/// half the bytes, and a binary proof cut short is rejected like a text
/// one. `verify FORMULA PROOF` tells the two apart by themselves.
#[test]
fn binary_proofs_verify_and_are_rejected_when_cut() {
    let tmp = tempfile::tempdir().unwrap();
    let (text_dir, binary_dir) = (tmp.path().join("text"), tmp.path().join("binary"));
    let args = ["count", "domination", "6"];
    let by_text = proven(&text_dir, &args, 0);
    let mut binary = args.to_vec();
    binary.extend(["--proof-format", "binary"]);
    let by_binary = proven(&binary_dir, &binary, 0);
    let last = |out: &str| out.lines().last().unwrap_or("").to_string();
    assert_eq!(last(&by_text), last(&by_binary));
    assert!(
        last(&by_binary).contains("exactly 4 placements"),
        "{by_binary}"
    );
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(binary_dir.join("MANIFEST.json")).unwrap())
            .unwrap();
    let claims = manifest["claims"].as_array().unwrap();
    assert!(
        claims.iter().all(|c| c["format"] == "lrat-binary"),
        "{manifest}"
    );
    let bytes = |dir: &Path| -> u64 {
        std::fs::read_dir(dir)
            .unwrap()
            .filter_map(Result::ok)
            .filter(|e| e.path().extension().is_some_and(|x| x == "lrat"))
            .map(|e| e.metadata().unwrap().len())
            .sum()
    };
    assert!(
        bytes(&binary_dir) * 3 < bytes(&text_dir) * 2,
        "binary LRAT is smaller"
    );
    // One file pair checked directly, whatever its format.
    let claim = claims[0]["name"].as_str().unwrap();
    let cnf = binary_dir.join(format!("{claim}.cnf"));
    let lrat = binary_dir.join(format!("{claim}.lrat"));
    let o = run(&["verify", cnf.to_str().unwrap(), lrat.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stdout));
    // A binary proof cut short: the claim fails, and with it the result.
    let full = std::fs::read(&lrat).unwrap();
    std::fs::write(&lrat, &full[..full.len() / 2]).unwrap();
    rejected(&binary_dir, claim);
    // --proof-format means nothing without --proof.
    let o = run(&["count", "domination", "6", "--proof-format", "binary"]);
    assert_eq!(o.status.code(), Some(2));
}

/// `--proof-compression zstd` stores the traced proofs as `NAME.lrat.zst`,
/// which verify reads: the same result in fewer bytes; a compressed proof
/// cut short is rejected; a proof compressed afterwards under its old name
/// is read by its content, not its name (a run resumed with the other
/// choice: `resume.rs`).
#[test]
fn compressed_proofs_verify_and_are_rejected_when_cut() {
    use boardsat_proof::compress::{writer, Compression};
    use std::io::Write;
    let tmp = tempfile::tempdir().unwrap();
    let (plain_dir, zstd_dir) = (tmp.path().join("plain"), tmp.path().join("zstd"));
    let args = ["count", "domination", "6", "--proof-format", "binary"];
    let by_plain = proven(&plain_dir, &args, 0);
    let mut zstd = args.to_vec();
    zstd.extend(["--proof-compression", "zstd"]);
    let by_zstd = proven(&zstd_dir, &zstd, 0);
    let last = |out: &str| out.lines().last().unwrap_or("").to_string();
    assert_eq!(last(&by_plain), last(&by_zstd));
    assert!(last(&by_zstd).contains("exactly 4 placements"), "{by_zstd}");
    let claims = |dir: &Path| -> Vec<serde_json::Value> {
        let text = std::fs::read_to_string(dir.join("MANIFEST.json")).unwrap();
        let manifest: serde_json::Value = serde_json::from_str(&text).unwrap();
        manifest["claims"].as_array().unwrap().clone()
    };
    let traced: Vec<serde_json::Value> = claims(&zstd_dir)
        .into_iter()
        .filter(|c| c["format"] == "lrat-binary")
        .collect();
    assert!(!traced.is_empty());
    for c in &traced {
        let name = c["proof"].as_str().unwrap();
        assert!(name.ends_with(".lrat.zst"), "{c}");
        let on_disk = std::fs::metadata(zstd_dir.join(name)).unwrap().len();
        assert_eq!(c["proof_bytes"].as_u64(), Some(on_disk), "{c}");
    }
    let bytes = |dir: &Path| -> u64 {
        claims(dir)
            .iter()
            .map(|c| c["proof_bytes"].as_u64().unwrap())
            .sum()
    };
    assert!(bytes(&zstd_dir) < bytes(&plain_dir), "zstd saves bytes");
    // One pair checked directly.
    let claim = traced[0]["name"].as_str().unwrap();
    let cnf = zstd_dir.join(format!("{claim}.cnf"));
    let proof = zstd_dir.join(traced[0]["proof"].as_str().unwrap());
    let o = run(&["verify", cnf.to_str().unwrap(), proof.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stdout));
    // A plain proof compressed afterwards, under its old name: still read.
    let plain_claim = claims(&plain_dir)
        .into_iter()
        .find(|c| c["format"] == "lrat-binary")
        .unwrap();
    let plain_proof = plain_dir.join(plain_claim["proof"].as_str().unwrap());
    let bytes_before = std::fs::read(&plain_proof).unwrap();
    let file = std::fs::File::create(&plain_proof).unwrap();
    let mut w = writer(Compression::Zstd, file).unwrap();
    w.write_all(&bytes_before).unwrap();
    w.finish().unwrap();
    let o = run(&["verify", plain_dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stdout));
    // A compressed proof cut short: the claim fails, and with it the result.
    let full = std::fs::read(&proof).unwrap();
    std::fs::write(&proof, &full[..full.len() / 2]).unwrap();
    rejected(&zstd_dir, claim);
    // --proof-compression means nothing without --proof.
    let o = run(&["count", "domination", "6", "--proof-compression", "zstd"]);
    assert_eq!(o.status.code(), Some(2));
}

/// A formula and proof that verify cannot read: its last line names the
/// formula once, with the reason (the claim's line and the result's once
/// said the path twice).
#[test]
fn a_file_pair_s_rejection_names_the_formula_once() {
    let tmp = tempfile::tempdir().unwrap();
    let (cnf, proof) = (tmp.path().join("bad.cnf"), tmp.path().join("bad.lrat"));
    std::fs::write(&cnf, "1 2 0\n").unwrap();
    std::fs::write(&proof, "").unwrap();
    let o = run(&["verify", cnf.to_str().unwrap(), proof.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let out = text(&o.stdout);
    let last = out.lines().last().unwrap_or("");
    let named = format!("NOT verified: {}: line 1: ", cnf.display());
    assert!(last.starts_with(&named), "{out}");
    assert_no_repeated_cause(last);
    assert_eq!(last.matches("bad.cnf").count(), 1, "{out}");
}
