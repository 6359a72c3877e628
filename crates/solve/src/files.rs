//! Writing output files safely: whole or not at all, never replacing
//! anything but a regular file, with the permissions a shell redirection
//! would give.
//!
//! [`write_atomically`] writes a regular file through a temporary file in
//! the same directory, renamed into place only when complete, so an
//! interrupted or failed run never leaves a truncated file. What the path
//! names decides how:
//!
//! | the path is | what happens |
//! |---|---|
//! | missing, or a regular file | temporary file, then rename; a replaced file keeps its permissions, a new one gets `0666` less the umask |
//! | a symbolic link | followed: its target is written as above (the link stays a link) |
//! | a device, FIFO or socket (`/dev/null`, `/dev/stdout`) | written in place, never renamed over |
//! | a directory | refused |
//!
//! A temporary file is named after the file it stands for,
//! `.boardsat-<name>.<6 random letters or digits>` ([`temporary_target`]
//! reads the name back), so that whoever owns `<name>` can tell a
//! temporary that a killed process left of it from anything else.
//! Temporary files are registered while they exist, so that a process that
//! must exit at once (a second Ctrl-C) can remove them first
//! ([`remove_temporaries`]).

use std::{
    fs::{self, File, OpenOptions},
    io::{self, BufWriter, Write},
    path::{Path, PathBuf},
    sync::Mutex,
};

use crate::stop::Interrupter;

/// The names of the files a proof directory's run writes
/// (`boardsat-proof`'s prover writes them): the one list of them, which
/// the prover replacing a previous run and a split's jobs clearing their
/// proofs both read.
pub mod proof_dir {
    /// The manifest.
    pub const MANIFEST: &str = "MANIFEST.json";

    /// The lock file: held by the run that writes the directory (a
    /// second run into it refuses at once).
    pub const LOCK: &str = ".boardsat-lock";

    /// The models found by a run whose result needs no proof.
    pub const FOUND_MODELS: &str = "found.models";

    /// How a claim's proof is written: the names a claim's manifest entry
    /// and a split's `MANIFEST` (`# proof-format`) give it. What each
    /// format means — how it is written, which checker reads it — is
    /// `boardsat-proof`'s (`trace` writes it, `verify::proof_check` checks
    /// it); it is declared here, beside [`Compression`], because a split's
    /// `MANIFEST` (`boardsat-jobs`, below `boardsat-proof`) carries it
    /// too. A second format (VeriPB, an external checker's own) is a new
    /// variant and its name.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
    pub enum ProofFormat {
        /// Text LRAT, one step per line: `lrat`.
        #[default]
        LratText,
        /// CaDiCaL's binary LRAT (`a`/`d` steps of varints), about half
        /// the size: `lrat-binary`.
        LratBinary,
    }

    impl ProofFormat {
        /// Every format, for choices and tests.
        pub const ALL: [ProofFormat; 2] = [ProofFormat::LratText, ProofFormat::LratBinary];

        /// The format's name in a manifest: `lrat` or `lrat-binary`.
        #[must_use]
        pub const fn name(self) -> &'static str {
            match self {
                ProofFormat::LratText => "lrat",
                ProofFormat::LratBinary => "lrat-binary",
            }
        }

        /// The format a manifest names ([`Self::name`]).
        #[must_use]
        pub fn from_name(name: &str) -> Option<Self> {
            Self::ALL.into_iter().find(|f| f.name() == name)
        }
    }

    /// How a traced proof file is stored (`boardsat-proof`'s `compress`
    /// module writes and reads it).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
    pub enum Compression {
        /// As written: `NAME.lrat`.
        #[default]
        None,
        /// zstd-compressed: `NAME.lrat.zst`.
        Zstd,
    }

    impl Compression {
        /// Every choice, for command lines and tests.
        pub const ALL: [Compression; 2] = [Compression::None, Compression::Zstd];

        /// The choice's name: `none` or `zstd`.
        #[must_use]
        pub const fn name(self) -> &'static str {
            match self {
                Compression::None => "none",
                Compression::Zstd => "zstd",
            }
        }

        /// The choice named `name` ([`Self::name`]).
        #[must_use]
        pub fn from_name(name: &str) -> Option<Self> {
            Self::ALL.into_iter().find(|c| c.name() == name)
        }

        /// The proof file of the claim `name`: `name.lrat`, or
        /// `name.lrat.zst`.
        #[must_use]
        pub fn proof_file(self, name: &str) -> String {
            match self {
                Compression::None => format!("{name}.lrat"),
                Compression::Zstd => format!("{name}.lrat.zst"),
            }
        }
    }

    /// Whether `name` is a file a proof directory's run writes: the
    /// manifest, the lock, the models found, and each claim's formula,
    /// proof and witnesses (`claim-NNNN.cnf`, `.lrat`, `.lrat.zst`,
    /// `.models`), and the temporary of any of them that a killed run left
    /// ([`super::temporary_target`]).
    #[must_use]
    pub fn is_run_file(name: &str) -> bool {
        is_written(name) || super::temporary_target(name).is_some_and(is_written)
    }

    /// Whether `name` is a file a proof directory's run writes under its
    /// own name.
    fn is_written(name: &str) -> bool {
        name == MANIFEST
            || name == LOCK
            || name == FOUND_MODELS
            || (name.starts_with("claim-")
                && [".cnf", ".lrat", ".lrat.zst", ".models"]
                    .iter()
                    .any(|e| name.ends_with(e)))
    }
}

/// Why a file could not be written.
#[derive(Debug, thiserror::Error)]
#[error("cannot write to {path}: {reason}")]
pub struct FileError {
    /// The path the caller asked for.
    pub path: PathBuf,
    /// What went wrong, in words.
    pub reason: String,
    /// The I/O error behind it, if any (not an error source: `reason`
    /// already says it, and a chain would say it twice).
    pub io: Option<io::Error>,
}

impl FileError {
    fn new(path: &Path, reason: impl Into<String>) -> Self {
        FileError {
            path: path.to_path_buf(),
            reason: reason.into(),
            io: None,
        }
    }

    /// The error of `source` while writing `path`.
    #[must_use]
    pub fn io(path: &Path, source: io::Error) -> Self {
        FileError {
            path: path.to_path_buf(),
            reason: describe(&source),
            io: Some(source),
        }
    }

    /// Whether the write failed because the reader went away (a closed
    /// pipe), which is the reader's choice rather than an error.
    #[must_use]
    pub fn is_broken_pipe(&self) -> bool {
        self.io
            .as_ref()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    }
}

/// An I/O error in words, lower case, without the `(os error N)` tail:
/// `no space left on device`, `permission denied`, `not a directory`.
#[must_use]
pub fn describe(error: &io::Error) -> String {
    let text = error.to_string();
    let text = match text.find(" (os error") {
        Some(i) => &text[..i],
        None => &text,
    };
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

static TEMPORARIES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// How every temporary file's name begins.
pub const TEMPORARY_PREFIX: &str = ".boardsat-";

/// The random letters or digits that end a temporary file's name.
const TEMPORARY_RANDOM: usize = 6;

/// The longest file name a temporary is named after; a longer one's
/// temporary is `.boardsat-<random>` (a file name has at most 255 bytes).
const TEMPORARY_NAMED: usize = 200;

/// The name of the file that `name`, a temporary file's name, stands for
/// (`.boardsat-cube-00003.07.cnf.x1Y2z3` → `cube-00003.07.cnf`): `None`
/// when `name` is no temporary named after its file (the lock
/// `.boardsat-lock` among them).
#[must_use]
pub fn temporary_target(name: &str) -> Option<&str> {
    let (target, random) = name.strip_prefix(TEMPORARY_PREFIX)?.rsplit_once('.')?;
    let random_ok =
        random.len() == TEMPORARY_RANDOM && random.bytes().all(|b| b.is_ascii_alphanumeric());
    (random_ok && !target.is_empty()).then_some(target)
}

/// How the name of `path`'s temporary file begins: it is named after
/// `path` ([`temporary_target`]), unless that name is too long or hidden.
fn temporary_prefix(path: &Path) -> String {
    match path.file_name().and_then(|n| n.to_str()) {
        Some(name) if name.len() <= TEMPORARY_NAMED && !name.starts_with('.') => {
            format!("{TEMPORARY_PREFIX}{name}.")
        }
        _ => TEMPORARY_PREFIX.to_string(),
    }
}

/// Removes every temporary file a [`write_atomically`] call still holds:
/// for a process about to exit without unwinding.
pub fn remove_temporaries() {
    if let Ok(list) = TEMPORARIES.lock() {
        for path in list.iter() {
            let _ = fs::remove_file(path);
        }
    }
}

fn register(path: &Path) {
    if let Ok(mut list) = TEMPORARIES.lock() {
        list.push(path.to_path_buf());
    }
}

fn unregister(path: &Path) {
    if let Ok(mut list) = TEMPORARIES.lock() {
        list.retain(|p| p != path);
    }
}

/// A writer that fails once `stop` is raised (with the stop reason as its
/// message: `interrupted`, `time limit`), so that long writes end promptly
/// on Ctrl-C. Not with [`io::ErrorKind::Interrupted`], which `write_all`
/// retries forever.
pub struct Stoppable<W> {
    inner: W,
    stop: Option<Interrupter>,
}

impl<W: Write> Stoppable<W> {
    /// Wraps `inner`, obeying `stop` when given.
    pub fn new(inner: W, stop: Option<Interrupter>) -> Self {
        Stoppable { inner, stop }
    }

    fn check(&self) -> io::Result<()> {
        match self.stop.as_ref().and_then(Interrupter::reason) {
            Some(reason) => Err(io::Error::other(reason.word())),
            None => Ok(()),
        }
    }
}

impl<W: Write> Write for Stoppable<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.check()?;
        self.inner.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// What a path names, for writing.
enum Target {
    /// A regular file at this (symlink-resolved) path, or nothing there yet.
    Regular(PathBuf),
    /// Something to be written in place (device, FIFO, socket).
    InPlace(PathBuf),
}

fn target(path: &Path) -> Result<Target, FileError> {
    let resolved = match fs::canonicalize(path) {
        Ok(p) => p,
        // A dangling symlink or a missing file: write where it points.
        Err(_) => match fs::read_link(path) {
            Ok(link) => match path.parent() {
                Some(dir) if link.is_relative() => dir.join(link),
                _ => link,
            },
            Err(_) => path.to_path_buf(),
        },
    };
    match fs::metadata(&resolved) {
        Ok(meta) if meta.is_dir() => Err(FileError::new(path, "it is a directory")),
        Ok(meta) if meta.is_file() => Ok(Target::Regular(resolved)),
        Ok(_) => Ok(Target::InPlace(resolved)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let dir = parent(&resolved);
            match fs::metadata(dir) {
                Ok(meta) if meta.is_dir() => Ok(Target::Regular(resolved)),
                Ok(_) => Err(FileError::new(
                    path,
                    format!("{} is not a directory", dir.display()),
                )),
                Err(_) => Err(FileError::new(
                    path,
                    format!("the directory {} does not exist", dir.display()),
                )),
            }
        }
        Err(e) => Err(FileError::io(path, e)),
    }
}

fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Checks, before long work, that `path` could be written: not a
/// directory, in a directory that exists and takes a new file (a
/// temporary file is made there and removed at once, as the atomic write
/// will make one; a read-only directory fails now). Free space is only
/// known when writing; a device or FIFO is not opened.
///
/// # Errors
///
/// The [`FileError`] writing would give.
pub fn check_writable(path: &Path) -> Result<(), FileError> {
    match target(path)? {
        Target::InPlace(_) => Ok(()),
        Target::Regular(resolved) => tempfile::Builder::new()
            .prefix(&temporary_prefix(&resolved))
            .rand_bytes(TEMPORARY_RANDOM)
            .tempfile_in(parent(&resolved))
            .map(drop)
            .map_err(|e| FileError::io(path, io::Error::from(e.kind()))),
    }
}

/// Writes `text` to `path` whole or not at all ([`write_atomically`]).
///
/// # Errors
///
/// A [`FileError`] naming `path` and the reason.
pub fn write_text(path: &Path, text: &str, stop: Option<&Interrupter>) -> Result<(), FileError> {
    write_atomically(path, stop, |w| {
        w.write_all(text.as_bytes())
            .map_err(|e| FileError::io(path, e))
    })
}

/// Writes `path` whole or not at all (see the module doc); `fill` writes
/// the content into a buffered writer. With `stop`, writing fails promptly
/// once it is raised, and the temporary file is removed.
///
/// # Errors
///
/// A [`FileError`] naming `path` and the reason; `fill`'s own errors
/// (other than I/O) are returned as they are.
pub fn write_atomically<E>(
    path: &Path,
    stop: Option<&Interrupter>,
    fill: impl FnOnce(&mut dyn Write) -> Result<(), E>,
) -> Result<(), E>
where
    E: From<FileError>,
{
    match target(path)? {
        Target::InPlace(resolved) => {
            let file = OpenOptions::new()
                .write(true)
                .open(&resolved)
                .map_err(|e| FileError::io(path, e))?;
            let mut out = BufWriter::new(Stoppable::new(file, stop.cloned()));
            fill(&mut out)?;
            out.flush().map_err(|e| FileError::io(path, e))?;
            Ok(())
        }
        Target::Regular(resolved) => {
            let dir = parent(&resolved);
            let existing = fs::metadata(&resolved).ok().map(|m| m.permissions());
            let prefix = temporary_prefix(&resolved);
            let mut builder = tempfile::Builder::new();
            builder.prefix(&prefix).rand_bytes(TEMPORARY_RANDOM);
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                // open(2) applies the umask, as a shell redirection would.
                builder.permissions(fs::Permissions::from_mode(0o666));
            }
            let tmp = builder
                .tempfile_in(dir)
                .map_err(|e| FileError::io(path, io::Error::from(e.kind())))?;
            let tmp_path = tmp.path().to_path_buf();
            register(&tmp_path);
            let outcome = match fill_temporary(path, &tmp, stop, existing, fill) {
                Ok(()) => tmp
                    .persist(&resolved)
                    .map(|_| ())
                    .map_err(|e| FileError::io(path, e.error).into()),
                Err(e) => {
                    drop(tmp);
                    Err(e)
                }
            };
            // Persisted or removed: no longer ours to clean up.
            unregister(&tmp_path);
            outcome
        }
    }
}

fn fill_temporary<E: From<FileError>>(
    path: &Path,
    tmp: &tempfile::NamedTempFile,
    stop: Option<&Interrupter>,
    existing: Option<fs::Permissions>,
    fill: impl FnOnce(&mut dyn Write) -> Result<(), E>,
) -> Result<(), E> {
    let file: File = tmp.reopen().map_err(|e| FileError::io(path, e))?;
    let mut out = BufWriter::new(Stoppable::new(file, stop.cloned()));
    fill(&mut out)?;
    let file = out
        .into_inner()
        .map_err(|e| FileError::io(path, e.into_error()))?;
    file.inner.sync_all().map_err(|e| FileError::io(path, e))?;
    if let Some(permissions) = existing {
        fs::set_permissions(tmp.path(), permissions).map_err(|e| FileError::io(path, e))?;
    }
    Ok(())
}
