//! A record of the proofs a verification accepted (`verify --record
//! FILE`), so that a check of many hours is not lost when it is stopped:
//! the next `verify --record FILE` of the same directory checks again only
//! the proofs the record does not hold.
//!
//! Each line names one proof that every checker of the verification
//! accepted, by the SHA-256 of its formula file, of its proof file and of
//! the checkers (the identity of the boardsat that checked it, given by
//! the caller, and the SHA-256 of the external checker's executable, or
//! none): a proof whose files or checkers changed in any byte is checked
//! again. Only the proof checks are taken from the record; everything else
//! a verification does (reading each formula and tying it to its claim,
//! the cover of the splits, the whole result) is done again each time.
//!
//! What the record adds to what is trusted: the record file itself, as
//! written by an earlier run on the same machine. A referee checks a
//! directory without one; a verification that used a record says so in its
//! last line and its JSON (how many proofs came from it).
//!
//! Written here because nothing maintained keeps such a record: it is a
//! few lines of text over `sha2`.

use std::{
    collections::HashMap,
    fs::{self, File, OpenOptions},
    io::{BufRead, BufReader, Read, Write},
    path::{Path, PathBuf},
    sync::{
        atomic::{AtomicU64, Ordering},
        Mutex,
    },
};

use sha2::{Digest, Sha256};

/// The first line of every record file.
const HEADER: &str = "c boardsat verify record 1";

/// Why a record cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The path is there but is not a regular file (a directory, a
    /// device, a link): a record never replaces anything else.
    #[error("the record {0} is not a regular file")]
    NotAFile(PathBuf),
    /// It cannot be read, created or written.
    #[error("cannot use the record {path}: {reason}")]
    Io {
        /// The record.
        path: PathBuf,
        /// The I/O error, in words.
        reason: String,
    },
    /// A line is not one a record holds.
    #[error("{path} line {line}: not a line of a boardsat verify record")]
    Malformed {
        /// The record.
        path: PathBuf,
        /// The line's number, from 1.
        line: usize,
    },
}

/// An open record: the proofs it holds, and the file new ones are added to.
#[derive(Debug)]
pub struct Record {
    path: PathBuf,
    identity: String,
    /// Steps of each recorded proof, by its key.
    held: Mutex<HashMap<String, u64>>,
    file: Mutex<File>,
    reused: AtomicU64,
    added: AtomicU64,
}

impl Record {
    /// The record at `path` (created when missing) for checks made by
    /// `identity`: the words that name the boardsat that checks (its
    /// version line and the SHA-256 of its executable, for the command
    /// line).
    ///
    /// # Errors
    ///
    /// [`RecordError`] when `path` is not a regular file, cannot be read
    /// or created, or holds a line that is not a record's.
    pub fn open(path: &Path, identity: &str) -> Result<Record, RecordError> {
        let io = |e: std::io::Error| RecordError::Io {
            path: path.to_path_buf(),
            reason: e.to_string(),
        };
        let held = match fs::symlink_metadata(path) {
            Ok(meta) if !meta.is_file() => return Err(RecordError::NotAFile(path.to_path_buf())),
            Ok(_) => read_lines(path)?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => HashMap::new(),
            Err(e) => return Err(io(e)),
        };
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(io)?;
        if file.metadata().map_err(io)?.len() == 0 {
            writeln!(file, "{HEADER}")
                .and_then(|()| file.sync_data())
                .map_err(io)?;
        }
        Ok(Record {
            path: path.to_path_buf(),
            identity: identity.to_string(),
            held: Mutex::new(held),
            file: Mutex::new(file),
            reused: AtomicU64::new(0),
            added: AtomicU64::new(0),
        })
    }

    /// The record's path.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Proofs taken from the record instead of being checked.
    #[must_use]
    pub fn reused(&self) -> u64 {
        self.reused.load(Ordering::Relaxed)
    }

    /// Proofs checked and added to the record.
    #[must_use]
    pub fn added(&self) -> u64 {
        self.added.load(Ordering::Relaxed)
    }

    /// The key of the proof at `proof` for the formula file `cnf`, checked
    /// by boardsat and the external checker whose SHA-256 is `external`.
    pub(crate) fn key(
        &self,
        cnf: &Path,
        proof: &Path,
        external: Option<&str>,
    ) -> std::io::Result<String> {
        let checkers =
            digest_bytes(format!("{}\n{}", self.identity, external.unwrap_or("none")).as_bytes());
        Ok(format!(
            "{} {} {checkers}",
            digest_file(cnf)?,
            digest_file(proof)?
        ))
    }

    /// The steps of the proof `key` names, when the record holds it
    /// (counted as reused).
    pub(crate) fn recorded(&self, key: &str) -> Option<u64> {
        let steps = self.held.lock().ok()?.get(key).copied();
        if steps.is_some() {
            self.reused.fetch_add(1, Ordering::Relaxed);
        }
        steps
    }

    /// Adds the proof `key` names, accepted in `steps` steps, to the
    /// record, on disk before it returns.
    pub(crate) fn add(&self, key: &str, steps: u64) -> Result<(), RecordError> {
        let io = |e: std::io::Error| RecordError::Io {
            path: self.path.clone(),
            reason: e.to_string(),
        };
        let mut file = self.file.lock().map_err(|_| RecordError::Io {
            path: self.path.clone(),
            reason: "a checking thread panicked".to_string(),
        })?;
        writeln!(file, "accepted {steps} {key}")
            .and_then(|()| file.sync_data())
            .map_err(io)?;
        if let Ok(mut held) = self.held.lock() {
            held.insert(key.to_string(), steps);
        }
        self.added.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }
}

/// The identity of a checking boardsat for [`Record::open`]: `name` (its
/// version or commit, for a reader) and the SHA-256 of `program`, the file
/// its code was loaded from (the command line's executable, the Python
/// extension module), so that another build checks again.
///
/// # Errors
///
/// [`RecordError::Io`] when `program` cannot be read.
pub fn identity(name: &str, program: &Path) -> Result<String, RecordError> {
    let digest = digest_file(program).map_err(|e| RecordError::Io {
        path: program.to_path_buf(),
        reason: format!("cannot read the checking program: {e}"),
    })?;
    Ok(format!("{name} {digest}"))
}

/// The proofs a record file holds: steps by key.
fn read_lines(path: &Path) -> Result<HashMap<String, u64>, RecordError> {
    let file = File::open(path).map_err(|e| RecordError::Io {
        path: path.to_path_buf(),
        reason: e.to_string(),
    })?;
    let mut held = HashMap::new();
    for (i, line) in BufReader::new(file).lines().enumerate() {
        let malformed = || RecordError::Malformed {
            path: path.to_path_buf(),
            line: i + 1,
        };
        let line = line.map_err(|_| malformed())?;
        if i == 0 {
            if line != HEADER {
                return Err(malformed());
            }
            continue;
        }
        let fields: Vec<&str> = line.split(' ').collect();
        let [word, steps, cnf, proof, checkers] = fields.as_slice() else {
            return Err(malformed());
        };
        let steps: u64 = steps.parse().map_err(|_| malformed())?;
        if *word != "accepted" || ![cnf, proof, checkers].iter().all(|h| is_digest(h)) {
            return Err(malformed());
        }
        held.insert(format!("{cnf} {proof} {checkers}"), steps);
    }
    Ok(held)
}

fn is_digest(text: &str) -> bool {
    text.len() == 64
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

fn digest_bytes(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// The SHA-256 of the file at `path`, read in pieces.
fn digest_file(path: &Path) -> std::io::Result<String> {
    let mut file = File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        match file.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => hasher.update(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(hex(&hasher.finalize()))
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes.iter().fold(String::new(), |mut out, b| {
        let _ = write!(out, "{b:02x}");
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_proof_is_held_by_its_files_and_checkers_and_survives_a_reopening() {
        let dir = tempfile::tempdir().unwrap();
        let (cnf, proof) = (dir.path().join("a.cnf"), dir.path().join("a.lrat"));
        fs::write(&cnf, "p cnf 1 2\n1 0\n-1 0\n").unwrap();
        fs::write(&proof, "3 0 1 2 0\n").unwrap();
        let path = dir.path().join("record");
        let record = Record::open(&path, "boardsat X").unwrap();
        let key = record.key(&cnf, &proof, None).unwrap();
        assert_eq!(record.recorded(&key), None);
        record.add(&key, 1).unwrap();
        drop(record);
        let again = Record::open(&path, "boardsat X").unwrap();
        assert_eq!(again.recorded(&key), Some(1));
        assert_eq!((again.reused(), again.added()), (1, 0));
        // Another checker, another boardsat, another byte: another key.
        assert_ne!(again.key(&cnf, &proof, Some("ab")).unwrap(), key);
        let other = Record::open(&path, "boardsat Y").unwrap();
        assert_ne!(other.key(&cnf, &proof, None).unwrap(), key);
        fs::write(&proof, "3 0 2 1 0\n").unwrap();
        assert_ne!(again.key(&cnf, &proof, None).unwrap(), key);
    }

    #[test]
    fn a_record_that_is_not_one_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(
            Record::open(dir.path(), "b"),
            Err(RecordError::NotAFile(_))
        ));
        let path = dir.path().join("record");
        fs::write(&path, "some notes\n").unwrap();
        assert!(matches!(
            Record::open(&path, "b"),
            Err(RecordError::Malformed { line: 1, .. })
        ));
        let digest = "0".repeat(64);
        fs::write(
            &path,
            format!("{HEADER}\naccepted 3 {digest} {digest} {digest}\naccepted x\n"),
        )
        .unwrap();
        assert!(matches!(
            Record::open(&path, "b"),
            Err(RecordError::Malformed { line: 3, .. })
        ));
        assert_eq!(
            fs::read_to_string(&path).unwrap().lines().count(),
            3,
            "a refused record is left as it was"
        );
    }
}
