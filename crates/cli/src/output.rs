//! Writing results: atomic files, JSON pieces, stderr statistics.

use std::{
    io::Write,
    path::Path,
    time::{Duration, Instant},
};

use anyhow::{Context, Result};
use boardsat_encode::{Encoding, Placement};
use serde_json::{json, Value};

/// Writes a file through a temporary file in the same directory, renamed
/// into place only when complete: an interrupted or failed run never leaves
/// a truncated file.
pub fn write_atomically(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> Result<()>,
) -> Result<()> {
    if path.is_dir() {
        anyhow::bail!("cannot write to {}: it is a directory", path.display());
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    // tempfile's error names the random temporary path; the user asked
    // for `path`, so only the kind of failure is kept.
    let mut tmp = tempfile::Builder::new()
        .prefix(".boardsat-")
        .tempfile_in(dir)
        .map_err(|e| std::io::Error::from(e.kind()))
        .with_context(|| format!("cannot write to {}", path.display()))?;
    {
        let mut buffered = std::io::BufWriter::new(tmp.as_file_mut());
        fill(&mut buffered)?;
        buffered
            .flush()
            .with_context(|| format!("cannot write to {}", path.display()))?;
    }
    tmp.persist(path)
        .map_err(|e| e.error)
        .with_context(|| format!("cannot write to {}", path.display()))?;
    Ok(())
}

/// A placement as a JSON list of `[row, col]`.
pub fn placement_json(placement: &Placement) -> Value {
    Value::Array(
        placement
            .squares()
            .iter()
            .map(|s| json!([s.row, s.col]))
            .collect(),
    )
}

/// The encoding's sizes and choices as JSON fields.
pub fn encoding_json(encoding: &Encoding) -> Value {
    let s = encoding.stats;
    json!({
        "problem": encoding.problem.kind.name(),
        "rows": encoding.problem.board.rows(),
        "cols": encoding.problem.board.cols(),
        "piece": encoding.problem.piece.name(),
        "amo": encoding.config.amo.name(),
        "card": encoding.config.card.name(),
        "formulation": encoding.formulation.name(),
        "vars": s.n_vars,
        "aux_vars": s.n_aux_vars,
        "clauses": s.n_clauses,
        "lits": s.n_lits,
    })
}

/// Merges `extra` into the object `base`.
pub fn merge(mut base: Value, extra: Value) -> Value {
    if let (Some(b), Value::Object(e)) = (base.as_object_mut(), extra) {
        b.extend(e);
    }
    base
}

/// The encoding's sizes as one stderr line.
pub fn stats_line(encoding: &Encoding) -> String {
    let s = encoding.stats;
    format!(
        "{} vars ({} auxiliary), {} clauses, {} literals; amo {}, card {}, formulation {}",
        s.n_vars,
        s.n_aux_vars,
        s.n_clauses,
        s.n_lits,
        encoding.config.amo,
        encoding.config.card,
        encoding.formulation
    )
}

/// Progress on stderr while counting, when stderr is a terminal: the count,
/// the rate and the elapsed time, redrawn at most five times a second.
pub struct ProgressLine {
    enabled: bool,
    last: Instant,
    drawn: bool,
}

impl ProgressLine {
    /// Enabled only when stderr is a terminal.
    pub fn new() -> Self {
        use std::io::IsTerminal;
        ProgressLine {
            enabled: std::io::stderr().is_terminal(),
            last: Instant::now(),
            drawn: false,
        }
    }

    /// Redraws if due.
    pub fn update(&mut self, count: u64, elapsed: Duration) {
        if !self.enabled || self.last.elapsed() < Duration::from_millis(200) {
            return;
        }
        self.last = Instant::now();
        self.drawn = true;
        let secs = elapsed.as_secs_f64().max(1e-9);
        eprint!(
            "\r\x1b[2Kcounting: {count} solutions  {:.0}/s  {:.1} s",
            count as f64 / secs,
            secs
        );
        let _ = std::io::stderr().flush();
    }

    /// Clears the line.
    pub fn finish(&mut self) {
        if self.drawn {
            eprint!("\r\x1b[2K");
            let _ = std::io::stderr().flush();
            self.drawn = false;
        }
    }
}
