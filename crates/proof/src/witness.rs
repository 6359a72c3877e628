//! Witness files: the full models behind a DIMACS claim's blocking
//! clauses, so that `verify` checks every blocked projected assignment as
//! a model of the source formula instead of taking it on trust.
//!
//! A witness file (`claim-NNNN.models`, or [`crate::manifest::FOUND_MODELS`])
//! holds one model per line, in the order of the blocking clauses: the
//! variables true in it, as positive DIMACS numbers in increasing order,
//! ending in `0`; every other variable is false. Lines starting with `c`
//! are comments. A model of 2,000 variables with 300 true takes about
//! 1.5 KB.
//!
//! The models are streamed to an anonymous temporary file while a count
//! runs ([`Witnesses`]) and copied into the proof directory when the
//! claim is written, so memory does not grow with the count.

use std::{
    fs::File,
    io::{self, BufRead, BufReader, BufWriter, Read, Seek, SeekFrom, Write},
    path::Path,
};

use boardsat_solve::{
    files::{write_atomically, FileError},
    stop::Interrupter,
};

/// The first line of every witness file.
const HEADER: &str = "c boardsat witnesses: one model per line, in the order of the blocking clauses: the variables true in it, every other variable false\n";

/// Models recorded while a count runs (see the module doc).
pub struct Witnesses {
    file: BufWriter<File>,
    n_models: u64,
    /// The first I/O error, reported when the witnesses are written.
    failed: Option<io::Error>,
}

impl std::fmt::Debug for Witnesses {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Witnesses")
            .field("n_models", &self.n_models)
            .finish_non_exhaustive()
    }
}

impl Witnesses {
    /// No model yet; the lines go to an anonymous temporary file.
    ///
    /// # Errors
    ///
    /// The temporary file cannot be made.
    pub fn new() -> io::Result<Self> {
        let mut file = BufWriter::new(tempfile::tempfile()?);
        file.write_all(HEADER.as_bytes())?;
        Ok(Witnesses {
            file,
            n_models: 0,
            failed: None,
        })
    }

    /// Records a model (`model[v]`: the value of variable v + 1).
    pub fn push(&mut self, model: &[bool]) {
        if self.failed.is_some() {
            return;
        }
        let mut line = String::new();
        for (i, _) in model.iter().enumerate().filter(|(_, &on)| on) {
            line.push_str(&(i + 1).to_string());
            line.push(' ');
        }
        line.push_str("0\n");
        match self.file.write_all(line.as_bytes()) {
            Ok(()) => self.n_models += 1,
            Err(e) => self.failed = Some(e),
        }
    }

    /// The models recorded.
    #[must_use]
    pub fn len(&self) -> u64 {
        self.n_models
    }

    /// Whether none was recorded.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.n_models == 0
    }

    /// The recorded lines, from the start, to read back.
    fn rewound(&mut self) -> io::Result<&mut File> {
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        self.file.flush()?;
        let file = self.file.get_mut();
        file.seek(SeekFrom::Start(0))?;
        Ok(file)
    }

    /// Each model recorded, over `n_vars` variables, in order.
    ///
    /// # Errors
    ///
    /// The temporary file cannot be read.
    pub fn models(&mut self, n_vars: u32) -> io::Result<Vec<Vec<bool>>> {
        let file = self.rewound()?;
        let mut out = Vec::new();
        for line in read_lines(BufReader::new(&mut *file), n_vars) {
            out.push(line.map_err(io::Error::other)?.model);
        }
        file.seek(SeekFrom::End(0))?;
        Ok(out)
    }

    /// Writes the models to `path` (atomically): its size in bytes.
    ///
    /// # Errors
    ///
    /// [`FileError`] naming `path`.
    pub fn write(&mut self, path: &Path, stop: Option<&Interrupter>) -> Result<u64, FileError> {
        let file = self.rewound().map_err(|e| FileError::io(path, e))?;
        let mut bytes = 0;
        write_atomically(path, stop, |w| {
            bytes = io::copy(file, w).map_err(|e| FileError::io(path, e))?;
            Ok(())
        })?;
        Ok(bytes)
    }
}

/// One model of a witness file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Witness {
    /// The line of the file it is on (from 1).
    pub line: usize,
    /// The value of each variable (`model[v]`: variable v + 1).
    pub model: Vec<bool>,
}

/// A line of a witness file that is not a model.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {why}")]
pub struct WitnessError {
    /// The line (from 1).
    pub line: usize,
    /// What is wrong with it.
    pub why: String,
}

/// The models of a witness file over `n_vars` variables, in order; a
/// line that is not one (a variable out of range or out of order, no
/// final `0`) is an error naming it.
pub fn read_lines(
    reader: impl Read,
    n_vars: u32,
) -> impl Iterator<Item = Result<Witness, WitnessError>> {
    let mut lines = BufReader::new(reader).lines().enumerate();
    std::iter::from_fn(move || loop {
        let (i, line) = lines.next()?;
        let at = i + 1;
        let line = match line {
            Ok(line) => line,
            Err(e) => {
                return Some(Err(WitnessError {
                    line: at,
                    why: e.to_string(),
                }))
            }
        };
        let text = line.trim();
        if text.is_empty() || text.starts_with('c') {
            continue;
        }
        return Some(parse(text, at, n_vars));
    })
}

fn parse(text: &str, at: usize, n_vars: u32) -> Result<Witness, WitnessError> {
    let bad = |why: &str| WitnessError {
        line: at,
        why: why.to_string(),
    };
    let mut model = vec![false; n_vars as usize];
    let mut words = text.split_ascii_whitespace().peekable();
    let mut last = 0u32;
    let mut ended = false;
    while let Some(word) = words.next() {
        let v: u32 = word
            .parse()
            .map_err(|_| bad(&format!("'{word}' is not a variable")))?;
        if v == 0 {
            ended = words.peek().is_none();
            if !ended {
                return Err(bad("words after the final 0"));
            }
            break;
        }
        if v > n_vars {
            return Err(bad(&format!(
                "variable {v} is beyond the formula's {n_vars}"
            )));
        }
        if v <= last {
            return Err(bad("the variables are not in increasing order"));
        }
        last = v;
        model[v as usize - 1] = true;
    }
    if !ended {
        return Err(bad("no final 0"));
    }
    Ok(Witness { line: at, model })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn models_round_trip_and_bad_lines_are_named() {
        let mut w = Witnesses::new().unwrap();
        w.push(&[true, false, true]);
        w.push(&[false, false, false]);
        assert_eq!(w.len(), 2);
        assert_eq!(
            w.models(3).unwrap(),
            vec![vec![true, false, true], vec![false, false, false]]
        );
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("w.models");
        w.write(&path, None).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.ends_with("1 3 0\n0\n"), "{text}");
        let read: Vec<Witness> = read_lines(text.as_bytes(), 3)
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(read[1].line, 3);
        for (bad, why) in [
            ("4 0", "beyond"),
            ("2 1 0", "increasing"),
            ("1 2", "no final 0"),
            ("1 0 2", "after the final 0"),
            ("x 0", "not a variable"),
        ] {
            let err = read_lines(bad.as_bytes(), 3).next().unwrap().unwrap_err();
            assert!(err.why.contains(why) && err.line == 1, "{bad}: {err}");
            assert!(err.to_string().starts_with("line 1: "), "{bad}: {err}");
        }
    }
}
