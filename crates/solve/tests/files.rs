//! Output files written whole and safely: replaced atomically, links
//! followed, devices written in place, directories refused, a stop leaves
//! nothing.

use std::{fs, path::Path};

use boardsat_solve::{files::*, stop::Interrupter};

fn write(path: &Path, text: &str) -> Result<(), FileError> {
    write_atomically(path, None, |w| {
        w.write_all(text.as_bytes())
            .map_err(|e| FileError::io(path, e))
    })
}

#[test]
fn regular_files_are_replaced_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.txt");
    write(&path, "one").unwrap();
    write(&path, "two").unwrap();
    assert_eq!(fs::read_to_string(&path).unwrap(), "two");
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[cfg(unix)]
#[test]
fn symlinks_are_followed_not_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real.txt");
    let link = dir.path().join("link.txt");
    fs::write(&real, "old").unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();
    write(&link, "new").unwrap();
    assert!(fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(fs::read_to_string(&real).unwrap(), "new");
}

#[cfg(unix)]
#[test]
fn devices_are_written_in_place() {
    write(Path::new("/dev/null"), "nothing").unwrap();
    let meta = fs::metadata("/dev/null").unwrap();
    assert!(!meta.is_file());
}

#[test]
fn directories_and_missing_directories_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let e = write(dir.path(), "x").unwrap_err();
    assert!(e.to_string().ends_with("it is a directory"), "{e}");
    let e = write(&dir.path().join("no/such.txt"), "x").unwrap_err();
    assert!(e.to_string().contains("does not exist"), "{e}");
}

#[test]
fn a_raised_flag_stops_the_write_and_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.txt");
    let stop = Interrupter::new();
    stop.interrupt();
    let e = write_atomically(&path, Some(&stop), |w| {
        w.write_all(&[b'x'; 100_000])
            .map_err(|e| FileError::io(&path, e))
    })
    .unwrap_err();
    assert!(e.to_string().contains("interrupted"), "{e}");
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// The names manifests give proof formats are the ones directories
/// written before carry: `lrat` (text) and `lrat-binary`, read back as
/// written, and nothing else is a format.
#[test]
fn proof_formats_keep_their_manifest_names() {
    use boardsat_solve::files::proof_dir::ProofFormat;
    assert_eq!(ProofFormat::LratText.name(), "lrat");
    assert_eq!(ProofFormat::LratBinary.name(), "lrat-binary");
    assert_eq!(ProofFormat::default(), ProofFormat::LratText);
    for format in ProofFormat::ALL {
        assert_eq!(ProofFormat::from_name(format.name()), Some(format));
    }
    for other in ["", "text", "binary", "LRAT", "drat", "lrat-text"] {
        assert_eq!(ProofFormat::from_name(other), None, "{other}");
    }
}

/// A temporary is named after its file, so that a killed writer's
/// leftover can be told apart from anything else in the directory.
#[test]
fn temporaries_are_named_after_their_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cube-00003.07.cnf");
    let mut seen = Vec::new();
    write_atomically(&path, None, |w| {
        seen = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        w.write_all(b"x").map_err(|e| FileError::io(&path, e))
    })
    .unwrap();
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert!(seen[0].starts_with(TEMPORARY_PREFIX), "{seen:?}");
    assert_eq!(temporary_target(&seen[0]), Some("cube-00003.07.cnf"));
    for (name, target) in [
        (".boardsat-MANIFEST.json.a1B2c3", Some("MANIFEST.json")),
        (".boardsat-x.y.cnf.ZZZZZZ", Some("x.y.cnf")),
        (".boardsat-lock", None),
        (".boardsat-i2MmHU", None),
        (".boardsat-.a1B2c3", None),
        (".boardsat-x.a1B2c", None),
        (".boardsat-x.a1B2c-", None),
        ("boardsat-x.a1B2c3", None),
        ("notes.txt", None),
    ] {
        assert_eq!(temporary_target(name), target, "{name}");
    }
    assert!(proof_dir::is_run_file(".boardsat-claim-0001.lrat.Ab12Cd"));
    assert!(proof_dir::is_run_file(".boardsat-MANIFEST.json.Ab12Cd"));
    assert!(!proof_dir::is_run_file(".boardsat-notes.txt.Ab12Cd"));
    assert!(!proof_dir::is_run_file(
        ".boardsat-.boardsat-lock.Ab12Cd.Ab12Cd"
    ));
}
