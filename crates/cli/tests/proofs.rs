//! `--proof DIR` and `boardsat verify`: every UNSAT claim behind a result
//! carries an LRAT proof that boardsat's own checker accepts and ties to
//! its problem; tampered proofs, formulas and manifests are rejected with
//! their reason, never with a panic.

mod common;

use common::{run, text};

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
    let o = run(&[
        "solve",
        "queens",
        "3",
        "--proof",
        dir.to_str().unwrap(),
        "--force",
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
    let have = |b: &str| {
        std::env::var_os("PATH")
            .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(b).is_file()))
    };
    if !have("minisat") {
        assert!(
            std::env::var_os("BOARDSAT_SKIP_EXTERNAL").is_some(),
            "minisat is missing: apt-get install minisat (or BOARDSAT_SKIP_EXTERNAL=1)"
        );
        eprintln!("skipped: minisat is missing (BOARDSAT_SKIP_EXTERNAL)");
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
