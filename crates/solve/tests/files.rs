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
