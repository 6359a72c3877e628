//! Proof directories written before a change still verify after it: the
//! directories under `fixtures/written-559286c` (see its README) were
//! written by boardsat at 559286c — board claims, certified splits of
//! domination counts in binary LRAT stored zstd-compressed, an N-queens
//! cube count, a DIMACS projected count with its witnesses, and a split
//! run as jobs with lex-leader constraints whose MANIFEST names its proof
//! format — and each must verify with the same sentence.

mod common;

use std::{fs, path::Path};

use common::{run, stdout};

/// Where the fixtures were written, as their manifests record it.
const WRITTEN_IN: &str = "/tmp/wt54/runs/fx2";

/// Copies the regular files and directories under `from` into `to`.
fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

#[test]
fn directories_written_at_559286c_verify() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/written-559286c");
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(&fixtures, tmp.path());
    // The DIMACS claim names its source by its absolute path: moved here.
    let manifest = tmp.path().join("count-dimacs-kings/MANIFEST.json");
    let moved = fs::read_to_string(&manifest)
        .unwrap()
        .replace(WRITTEN_IN, &tmp.path().display().to_string());
    fs::write(&manifest, moved).unwrap();
    let source = tmp.path().join("kings-4-3.cnf").display().to_string();
    let cases = [
        ("count-domination-4-binary-zstd", "domination of queens on 4x4 has exactly 12 placements with at most 2 queens (3 up to symmetry), the minimum (1 queen cannot dominate the 4x4 board)".to_string()),
        ("count-kings-4", "independence of kings on 4x4 has exactly 79 placements with exactly 4 kings (14 up to symmetry)".to_string()),
        ("count-queens-4", "independence of queens on 4x4 has exactly 2 placements with exactly 4 queens (1 up to symmetry)".to_string()),
        ("jobs-domination-4-lex", "domination of queens on 4x4 has exactly 12 placements with at most 2 queens".to_string()),
        ("solve-domination-4", "domination of queens on 4x4: the minimum is 2 queens (a placement checked; 1 queen cannot dominate the 4x4 board)".to_string()),
        ("solve-queens-3", "3 queens cannot stand on the 3x3 board without attacking each other".to_string()),
        ("count-dimacs-kings", format!("{source} has exactly 140 projected models")),
    ];
    for (dir, sentence) in cases {
        let dir = tmp.path().join(dir);
        let out = run(&["verify", &dir.display().to_string()]);
        let shown = stdout(&out);
        assert!(out.status.success(), "{}: {shown}", dir.display());
        assert_eq!(
            shown.lines().last(),
            Some(format!("verified: {sentence}").as_str()),
            "{}",
            dir.display()
        );
    }
}
