//! Reading what a proof directory holds: only regular files are opened —
//! a symbolic link, a FIFO or a directory in place of a manifest, formula,
//! proof or witness file is a reasoned failure, never followed and never
//! waited on — and only the plain names of files inside it.

use std::{
    fs::{self, File},
    io::{BufReader, Read},
    path::Path,
};

use boardsat_solve::{
    files,
    formula::dimacs::{self, Formula},
    stop::Interrupter,
};

use crate::verify::verdict::Rejection;

/// Opens `path` for reading when it is a regular file, not a symbolic
/// link, a FIFO, a device or a directory (which could hang a reader or
/// lead it outside the directory).
///
/// # Errors
///
/// [`Rejection::Unreadable`], naming the file and what it is.
pub fn open_regular(path: &Path) -> Result<File, Rejection> {
    let meta = fs::symlink_metadata(path).map_err(|e| {
        let why = match e.kind() {
            std::io::ErrorKind::NotFound => "missing".to_string(),
            _ => files::describe(&e),
        };
        Rejection::unreadable(format!("cannot read {}: {why}", path.display()))
    })?;
    not_special(path, &meta)?;
    let file = File::open(path).map_err(|e| cannot_read(path, &e))?;
    // Replaced between the look and the open: look again at what is open.
    let meta = file.metadata().map_err(|e| cannot_read(path, &e))?;
    not_special(path, &meta)?;
    Ok(file)
}

/// `path` could not be read: why.
pub(crate) fn cannot_read(path: &Path, e: &std::io::Error) -> Rejection {
    Rejection::unreadable(format!(
        "cannot read {}: {}",
        path.display(),
        files::describe(e)
    ))
}

fn not_special(path: &Path, meta: &fs::Metadata) -> Result<(), Rejection> {
    use std::os::unix::fs::FileTypeExt;
    let kind = meta.file_type();
    let what = if kind.is_file() {
        return Ok(());
    } else if kind.is_symlink() {
        "a symbolic link"
    } else if kind.is_dir() {
        "a directory"
    } else if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "a device"
    };
    Err(Rejection::unreadable(format!(
        "{} is {what}, not a regular file: not read",
        path.display()
    )))
}

/// The text of the regular file `path` ([`open_regular`]).
///
/// # Errors
///
/// [`Rejection::Unreadable`], naming the file.
pub fn read_regular(path: &Path) -> Result<String, Rejection> {
    let mut text = String::new();
    open_regular(path)?
        .read_to_string(&mut text)
        .map_err(|e| cannot_read(path, &e))?;
    Ok(text)
}

/// The formula of the regular file `path`.
pub(crate) fn read_formula(path: &Path, stop: Option<&Interrupter>) -> Result<Formula, Rejection> {
    read_formula_at(path, stop, true)
}

/// The formula at `path`; `strict`: a regular file itself, not through a
/// link.
pub(crate) fn read_formula_at(
    path: &Path,
    stop: Option<&Interrupter>,
    strict: bool,
) -> Result<Formula, Rejection> {
    let file = open_file(path, strict)?;
    dimacs::read(BufReader::new(file), None, stop)
        .map_err(|e| Rejection::unreadable(format!("{}: {e}", path.display())))
}

/// Opens `path`: strictly ([`open_regular`]), or through a link to a
/// regular file (a path the user named).
pub(crate) fn open_file(path: &Path, strict: bool) -> Result<File, Rejection> {
    if strict {
        return open_regular(path);
    }
    let meta = fs::metadata(path).map_err(|e| cannot_read(path, &e))?;
    not_special(path, &meta)?;
    open_regular(&fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()))
}

/// A file of the directory a manifest names: a plain name inside it,
/// never a path that leads elsewhere.
pub(crate) fn inside(dir: &Path, name: &str) -> Result<std::path::PathBuf, Rejection> {
    let plain = !name.is_empty()
        && name != "."
        && name != ".."
        && !name.contains('/')
        && !name.contains('\\');
    if plain {
        Ok(dir.join(name))
    } else {
        Err(Rejection::unreadable(format!(
            "the manifest names '{name}', not a file of the directory"
        )))
    }
}
