//! An LRAT proof of everything a solver derives, traced by the solver that
//! does the work (it reports each step into a
//! [`boardsat_solve::backend::ProofSink`]), against the formula of every
//! clause it was given — in incremental use too.
//!
//! CaDiCaL numbers original and derived clauses from one counter. When
//! clauses are added between calls (a count's blocking clauses), their ids
//! interleave with derived ones, so CaDiCaL's own LRAT file matches no
//! DIMACS file. [`LratTrace`] is a proof tracer (CaDiCaL's `Tracer`
//! interface, with antecedents) that keeps the original clauses in the
//! order they arrive — the formula, exactly what the solver got — and
//! streams the derived steps to a temporary file; [`LratTrace::finish`]
//! writes the formula as DIMACS and a standard LRAT proof of it: original
//! clause i (from 1, in the file's order) has id i, the derived clauses
//! the refutation needs m + 1, m + 2, … in the order they were derived,
//! every hint and deletion renumbered. Any LRAT checker checks the pair
//! (`boardsat-lrat`, cake_lpr).
//!
//! The proof is trimmed, as `lrat-trim` trims CaDiCaL's proofs: a pass
//! backwards over the steps (each is stored with its length after it)
//! marks the empty clause and every derived clause a marked clause cites;
//! the others — what a count's search learned and never used — are left
//! out with their deletions. A derived id's new number is m + 1 + the
//! marked ids below it (a bit set with ranks, one bit per CaDiCaL id);
//! an original's is found by binary search over the originals' ids, which
//! arrive in increasing order. What trimming saves is measured in
//! docs/bench/lrat.md ("Proof size").
//!
//! What the trace refuses, with an error at [`LratTrace::finish`] rather
//! than a wrong proof:
//! - a *restored* original clause (clause elimination put back): it cannot
//!   be stated against a fixed formula; elimination is off in the options
//!   the tracing solvers use (`Cadical::for_enumeration`);
//! - RAT steps (a witness literal) and assumption clauses: the solvers
//!   traced here neither add variables nor solve under assumptions.
//!
//! Weakened clauses need nothing (they are only ever deleted from the
//! proof's point of view, and the trace never deletes originals, so a
//! restore would find them anyway); deletions of derived clauses are kept,
//! so a checker's memory stays bounded.

use std::{
    fs::File,
    io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write},
    path::Path,
    sync::{Arc, Mutex, PoisonError},
};

use boardsat_solve::{backend::ProofSink, error::SolveError};

pub use crate::compress::Compression;
use crate::compress::ProofWriter;
pub use boardsat_solve::files::proof_dir::ProofFormat;

/// What a finished trace wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TraceSummary {
    /// Clauses of the formula.
    pub n_clauses: u64,
    /// Its variables (the `p cnf` line's).
    pub n_vars: u32,
    /// Derived clauses in the proof (those the refutation needs).
    pub n_derived: u64,
    /// Bytes of the proof file (compressed, when it is).
    pub proof_bytes: u64,
    /// Whether the proof derives the empty clause.
    pub refutes: bool,
}

/// A proof tracer that records a solver's formula and its LRAT proof (see
/// the module doc).
pub struct LratTrace {
    /// The original clauses, in the order they arrived.
    formula: Vec<Vec<i32>>,
    /// CaDiCaL's id of each original clause, increasing.
    original_ids: Vec<i64>,
    /// The derived steps, with CaDiCaL's ids, as binary LRAT.
    steps: BufWriter<File>,
    n_derived: u64,
    /// CaDiCaL's id of the first empty clause derived.
    empty_id: Option<u64>,
    /// The largest derived id.
    max_id: u64,
    /// The first event the trace cannot express, if any.
    refused: Option<String>,
    /// The first I/O error writing the steps, if any.
    failed: Option<io::Error>,
}

impl std::fmt::Debug for LratTrace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LratTrace")
            .field("originals", &self.formula.len())
            .field("derived", &self.n_derived)
            .finish_non_exhaustive()
    }
}

impl LratTrace {
    /// A trace with nothing recorded; the derived steps go to an anonymous
    /// temporary file (removed by the system however the process ends).
    ///
    /// # Errors
    ///
    /// [`SolveError::Solver`] when the temporary file cannot be made.
    pub fn new() -> Result<Self, SolveError> {
        let file =
            tempfile::tempfile().map_err(|e| trace_error(&format!("temporary file: {e}")))?;
        Ok(LratTrace {
            formula: Vec::new(),
            original_ids: Vec::new(),
            steps: BufWriter::new(file),
            n_derived: 0,
            empty_id: None,
            max_id: 0,
            refused: None,
            failed: None,
        })
    }

    /// Records an original clause with CaDiCaL's id.
    pub fn original(&mut self, id: i64, clause: &[i32], restored: bool) {
        if restored {
            self.refuse(format!(
                "clause {id} was restored after elimination, which an LRAT proof against a fixed formula cannot state (trace with elimination off)"
            ));
            return;
        }
        if self.original_ids.last().is_some_and(|&last| id <= last) {
            self.refuse(format!("original clause ids out of order at {id}"));
            return;
        }
        self.original_ids.push(id);
        self.formula.push(clause.to_vec());
    }

    /// Records a derived clause with its antecedents (CaDiCaL's ids).
    pub fn derived(&mut self, id: i64, witness: i32, clause: &[i32], antecedents: &[i64]) {
        if witness != 0 {
            self.refuse(format!("clause {id} is a RAT step"));
            return;
        }
        let Ok(unsigned) = u64::try_from(id) else {
            self.refuse(format!("a derived clause with id {id}"));
            return;
        };
        self.n_derived += 1;
        self.max_id = self.max_id.max(unsigned);
        if clause.is_empty() && self.empty_id.is_none() {
            self.empty_id = Some(unsigned);
        }
        let mut buf = vec![b'a'];
        put_id(&mut buf, id);
        for &lit in clause {
            put_lit(&mut buf, lit);
        }
        buf.push(0);
        for &hint in antecedents {
            put_id(&mut buf, hint);
        }
        buf.push(0);
        self.write_record(buf);
    }

    /// Records the deletion of a clause (derived ones only reach the
    /// proof).
    pub fn deleted(&mut self, id: i64) {
        if self.original_ids.binary_search(&id).is_ok() {
            return;
        }
        let mut buf = vec![b'd'];
        put_id(&mut buf, id);
        buf.push(0);
        self.write_record(buf);
    }

    /// Records an event the trace cannot express.
    pub fn refuse(&mut self, why: String) {
        self.refused.get_or_insert(why);
    }

    /// Appends one step with its length after it (so that the steps can
    /// be read backwards, [`Backwards`]).
    fn write_record(&mut self, mut record: Vec<u8>) {
        if self.failed.is_some() {
            return;
        }
        let Ok(len) = u32::try_from(record.len()) else {
            self.refuse("a step of over 4 GiB".to_string());
            return;
        };
        record.extend_from_slice(&len.to_le_bytes());
        if let Err(e) = self.steps.write_all(&record) {
            self.failed = Some(e);
        }
    }

    /// Writes the formula (with `header` as `c` lines above `p cnf`, and at
    /// least `n_vars` variables) to `formula` and its LRAT proof to `proof`
    /// in `format`, stored with `compression`.
    ///
    /// # Errors
    ///
    /// [`SolveError::Solver`] for an event the trace refused, or a file
    /// that cannot be written.
    pub fn finish(
        mut self,
        formula: &Path,
        proof: &Path,
        header: &[String],
        n_vars: u32,
        format: ProofFormat,
        compression: Compression,
    ) -> Result<TraceSummary, SolveError> {
        if let Some(why) = self.refused.take() {
            return Err(trace_error(&why));
        }
        let n_vars = self
            .formula
            .iter()
            .flatten()
            .map(|l| l.unsigned_abs())
            .max()
            .unwrap_or(0)
            .max(n_vars);
        write_formula(formula, header, &self.formula, n_vars)
            .map_err(|e| trace_error(&format!("{}: {e}", formula.display())))?;
        let (proof_bytes, n_derived) = self
            .write_proof(proof, format, compression)
            .map_err(|e| trace_error(&format!("{}: {e}", proof.display())))??;
        Ok(TraceSummary {
            n_clauses: self.formula.len() as u64,
            n_vars,
            n_derived,
            proof_bytes,
            refutes: self.empty_id.is_some(),
        })
    }

    /// Writes the steps the refutation needs into `path`, renumbered: the
    /// bytes it takes and the steps written.
    ///
    /// Trimmed as `lrat-trim` trims: a backward pass from the empty clause
    /// marks every derived clause its hints reach, and only those are
    /// written (with their deletions), numbered m + 1, m + 2, … in their
    /// order; what a count's search derived on the way and never used is
    /// left out. Without an empty clause every step is written.
    fn write_proof(
        &mut self,
        path: &Path,
        format: ProofFormat,
        compression: Compression,
    ) -> io::Result<Result<(u64, u64), SolveError>> {
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        self.steps.flush()?;
        let file = self.steps.get_ref().try_clone()?;
        let needed = match self.needed(&file)? {
            Ok(needed) => needed,
            Err(e) => return Ok(Err(e)),
        };
        let mut file = file;
        file.seek(SeekFrom::Start(0))?;
        let mut input = BufReader::new(file);
        let mut out = Output::new(
            crate::compress::writer(compression, File::create(path)?)?,
            format,
        );
        let m = self.original_ids.len() as u64;
        let (mut next, mut written) = (m, 0u64);
        let renumber = |id: i64| -> Result<u64, SolveError> {
            if let Ok(i) = self.original_ids.binary_search(&id) {
                return Ok(i as u64 + 1);
            }
            match u64::try_from(id) {
                Ok(d) if needed.get(d) => Ok(m + needed.rank(d) + 1),
                _ => Err(trace_error(&format!("clause {id} is cited but not kept"))),
            }
        };
        while let Some(kind) = read_byte(&mut input)? {
            let step = match kind {
                b'a' => {
                    let id = get_id(&mut input)?;
                    let lits = get_list(&mut input, get_lit)?;
                    let hints = get_list(&mut input, get_id)?;
                    skip_trailer(&mut input)?;
                    if !u64::try_from(id).is_ok_and(|d| needed.get(d)) {
                        continue;
                    }
                    let hints: Result<Vec<u64>, SolveError> =
                        hints.iter().map(|&h| renumber(h)).collect();
                    let hints = match hints {
                        Ok(hints) => hints,
                        Err(e) => return Ok(Err(e)),
                    };
                    next += 1;
                    match renumber(id) {
                        Ok(out_id) if out_id == next => {}
                        _ => return Ok(Err(trace_error(&format!("derived id {id} out of order")))),
                    }
                    written += 1;
                    let empty = lits.is_empty();
                    out.step(&Step::Add(next, lits, hints))?;
                    if empty {
                        break;
                    }
                    continue;
                }
                b'd' => {
                    let ids = get_list(&mut input, get_id)?;
                    skip_trailer(&mut input)?;
                    let kept: Result<Vec<u64>, SolveError> = ids
                        .iter()
                        .filter(|&&i| u64::try_from(i).is_ok_and(|d| needed.get(d)))
                        .map(|&i| renumber(i))
                        .collect();
                    let kept = match kept {
                        Ok(kept) => kept,
                        Err(e) => return Ok(Err(e)),
                    };
                    if kept.is_empty() {
                        continue;
                    }
                    Step::Delete(next, kept)
                }
                other => return Ok(Err(trace_error(&format!("bad step byte {other}")))),
            };
            out.step(&step)?;
        }
        Ok(Ok((out.finish()?, written)))
    }

    /// The derived clauses to write: those the empty clause's derivation
    /// reaches, found backwards (every one without an empty clause).
    fn needed(&self, file: &File) -> io::Result<Result<Bits, SolveError>> {
        let mut needed = Bits::new(self.max_id);
        let mut steps = Backwards::new(file.try_clone()?)?;
        let root = self.empty_id;
        if let Some(root) = root {
            needed.set(root);
        }
        while let Some(mut record) = steps.next()? {
            let kind = record.first().copied();
            record = &record[1..];
            if kind != Some(b'a') {
                continue;
            }
            let input: &mut dyn Read = &mut record;
            let Ok(id) = u64::try_from(get_id(input)?) else {
                return Ok(Err(trace_error("a negative clause id")));
            };
            if root.is_none() {
                needed.set(id);
                continue;
            }
            if !needed.get(id) {
                continue;
            }
            get_list(input, get_lit)?;
            for hint in get_list(input, get_id)? {
                match u64::try_from(hint) {
                    Ok(h) if h < id => {
                        if self.original_ids.binary_search(&hint).is_err() {
                            needed.set(h);
                        }
                    }
                    _ => return Ok(Err(trace_error(&format!("clause {id} cites {hint}")))),
                }
            }
        }
        needed.finish_ranks();
        Ok(Ok(needed))
    }
}

/// A set of clause ids with ranks: how many members lie below an id.
struct Bits {
    words: Vec<u64>,
    /// Members below each block of [`BLOCK`] words.
    blocks: Vec<u64>,
}

/// Words per rank block.
const BLOCK: usize = 8;

impl Bits {
    fn new(max: u64) -> Self {
        let n = usize::try_from(max / 64 + 1).unwrap_or(usize::MAX);
        Bits {
            words: vec![0; n],
            blocks: Vec::new(),
        }
    }

    fn set(&mut self, i: u64) {
        if let Some(w) = usize::try_from(i / 64)
            .ok()
            .and_then(|w| self.words.get_mut(w))
        {
            *w |= 1 << (i % 64);
        }
    }

    fn get(&self, i: u64) -> bool {
        usize::try_from(i / 64)
            .ok()
            .and_then(|w| self.words.get(w))
            .is_some_and(|w| w >> (i % 64) & 1 == 1)
    }

    fn finish_ranks(&mut self) {
        let mut below = 0u64;
        self.blocks = self
            .words
            .chunks(BLOCK)
            .map(|block| {
                let at = below;
                below += block.iter().map(|w| u64::from(w.count_ones())).sum::<u64>();
                at
            })
            .collect();
    }

    /// Members below `i` ([`Self::finish_ranks`] first).
    fn rank(&self, i: u64) -> u64 {
        let w = (i / 64) as usize;
        let block = w / BLOCK;
        let whole: u64 = self.words[block * BLOCK..w]
            .iter()
            .map(|x| u64::from(x.count_ones()))
            .sum();
        let part = self.words[w] & ((1u64 << (i % 64)) - 1);
        self.blocks[block] + whole + u64::from(part.count_ones())
    }
}

/// The trace's steps, last first: each step is followed by its length
/// ([`LratTrace::write_record`]).
struct Backwards {
    file: File,
    /// The steps not yet read end here.
    pos: u64,
    /// File bytes from `at` on, up to `pos` or beyond.
    buf: Vec<u8>,
    at: u64,
}

/// Bytes read at once, backwards.
const CHUNK: u64 = 1 << 20;

impl Backwards {
    fn new(mut file: File) -> io::Result<Self> {
        let pos = file.seek(SeekFrom::End(0))?;
        Ok(Backwards {
            file,
            pos,
            buf: Vec::new(),
            at: pos,
        })
    }

    /// Makes `buf` hold the bytes from `from` to `pos`.
    fn hold(&mut self, from: u64) -> io::Result<()> {
        if from >= self.at {
            return Ok(());
        }
        let start = from.min(self.pos.saturating_sub(CHUNK));
        let len = usize::try_from(self.pos - start).map_err(|_| io::ErrorKind::InvalidData)?;
        self.buf.resize(len, 0);
        self.file.seek(SeekFrom::Start(start))?;
        self.file.read_exact(&mut self.buf)?;
        self.at = start;
        Ok(())
    }

    /// The step before the last one read (with its kind byte), if any.
    fn next(&mut self) -> io::Result<Option<&[u8]>> {
        if self.pos == 0 {
            return Ok(None);
        }
        let bad = || io::Error::from(io::ErrorKind::InvalidData);
        let trailer = self.pos.checked_sub(4).ok_or_else(bad)?;
        self.hold(trailer)?;
        let t = (trailer - self.at) as usize;
        let len = u32::from_le_bytes(self.buf[t..t + 4].try_into().map_err(|_| bad())?);
        let start = trailer.checked_sub(u64::from(len)).ok_or_else(bad)?;
        self.hold(start)?;
        self.pos = start;
        let (from, to) = ((start - self.at) as usize, (trailer - self.at) as usize);
        Ok(Some(&self.buf[from..to]))
    }
}

/// Skips a step's length, which follows it.
fn skip_trailer(input: &mut dyn Read) -> io::Result<()> {
    let mut len = [0u8; 4];
    input.read_exact(&mut len)
}

impl ProofSink for LratTrace {
    fn original(&mut self, id: i64, clause: &[i32], restored: bool) {
        LratTrace::original(self, id, clause, restored);
    }

    fn derived(&mut self, id: i64, witness: i32, clause: &[i32], antecedents: &[i64]) {
        LratTrace::derived(self, id, witness, clause, antecedents);
    }

    fn deleted(&mut self, id: i64) {
        LratTrace::deleted(self, id);
    }

    fn refuse(&mut self, why: String) {
        LratTrace::refuse(self, why);
    }
}

/// An [`LratTrace`] that a solver feeds while its prover holds it: the
/// solver gets a handle as its sink ([`SharedTrace::sink`]); once the
/// solver has stopped tracing
/// ([`boardsat_solve::backend::TraceProof::stop_trace`], which drops the
/// handle) the prover takes the trace back whole ([`SharedTrace::take`]),
/// as the type it is.
#[derive(Clone, Debug)]
pub struct SharedTrace(Arc<Mutex<LratTrace>>);

impl SharedTrace {
    /// A fresh trace.
    ///
    /// # Errors
    ///
    /// The temporary file of its steps cannot be made.
    pub fn new() -> Result<Self, SolveError> {
        Ok(SharedTrace(Arc::new(Mutex::new(LratTrace::new()?))))
    }

    /// A sink feeding this trace, for a solver.
    #[must_use]
    pub fn sink(&self) -> Box<dyn ProofSink> {
        Box::new(self.clone())
    }

    /// The trace, once no solver holds a sink of it.
    ///
    /// # Errors
    ///
    /// [`SolveError::Solver`] while a sink of it is still held.
    pub fn take(self) -> Result<LratTrace, SolveError> {
        let lock = Arc::try_unwrap(self.0)
            .map_err(|_| trace_error("a solver still holds the proof trace"))?;
        Ok(lock.into_inner().unwrap_or_else(PoisonError::into_inner))
    }

    fn with(&self, step: impl FnOnce(&mut LratTrace)) {
        step(&mut self.0.lock().unwrap_or_else(PoisonError::into_inner));
    }
}

impl ProofSink for SharedTrace {
    fn original(&mut self, id: i64, clause: &[i32], restored: bool) {
        self.with(|t| t.original(id, clause, restored));
    }

    fn derived(&mut self, id: i64, witness: i32, clause: &[i32], antecedents: &[i64]) {
        self.with(|t| t.derived(id, witness, clause, antecedents));
    }

    fn deleted(&mut self, id: i64) {
        self.with(|t| t.deleted(id));
    }

    fn refuse(&mut self, why: String) {
        self.with(|t| t.refuse(why));
    }
}

/// An error of the proof trace.
fn trace_error(what: &str) -> SolveError {
    SolveError::Solver {
        backend: "LRAT trace".to_string(),
        message: what.to_string(),
    }
}

/// The formula as DIMACS: `header` as `c` lines, `p cnf`, one clause a line.
fn write_formula(
    path: &Path,
    header: &[String],
    clauses: &[Vec<i32>],
    n_vars: u32,
) -> io::Result<()> {
    let mut out = BufWriter::new(File::create(path)?);
    for line in header {
        writeln!(out, "c {line}")?;
    }
    writeln!(out, "p cnf {n_vars} {}", clauses.len())?;
    let mut text = String::new();
    for clause in clauses {
        text.clear();
        for lit in clause {
            text.push_str(&lit.to_string());
            text.push(' ');
        }
        text.push_str("0\n");
        out.write_all(text.as_bytes())?;
    }
    out.flush()
}

/// One renumbered step.
enum Step {
    /// A lemma: its id, literals and hints.
    Add(u64, Vec<i32>, Vec<u64>),
    /// Deletions, after the step with this id.
    Delete(u64, Vec<u64>),
}

/// The proof file being written.
struct Output {
    out: ProofWriter,
    format: ProofFormat,
    text: String,
}

impl Output {
    fn new(out: ProofWriter, format: ProofFormat) -> Self {
        Output {
            out,
            format,
            text: String::new(),
        }
    }

    fn step(&mut self, step: &Step) -> io::Result<()> {
        let mut buf = Vec::new();
        match (self.format, step) {
            (ProofFormat::LratBinary, Step::Add(id, lits, hints)) => {
                buf.push(b'a');
                put_varint(&mut buf, 2 * id);
                for &lit in lits {
                    put_lit(&mut buf, lit);
                }
                buf.push(0);
                for &h in hints {
                    put_varint(&mut buf, 2 * h);
                }
                buf.push(0);
            }
            (ProofFormat::LratBinary, Step::Delete(_, ids)) => {
                buf.push(b'd');
                for &i in ids {
                    put_varint(&mut buf, 2 * i);
                }
                buf.push(0);
            }
            (ProofFormat::LratText, Step::Add(id, lits, hints)) => {
                use std::fmt::Write as _;
                self.text.clear();
                let _ = write!(self.text, "{id}");
                for lit in lits {
                    let _ = write!(self.text, " {lit}");
                }
                self.text.push_str(" 0");
                for h in hints {
                    let _ = write!(self.text, " {h}");
                }
                self.text.push_str(" 0\n");
                buf.extend_from_slice(self.text.as_bytes());
            }
            (ProofFormat::LratText, Step::Delete(last, ids)) => {
                use std::fmt::Write as _;
                self.text.clear();
                let _ = write!(self.text, "{last} d");
                for i in ids {
                    let _ = write!(self.text, " {i}");
                }
                self.text.push_str(" 0\n");
                buf.extend_from_slice(self.text.as_bytes());
            }
        }
        self.out.write_all(&buf)
    }

    /// The file ended: the bytes it takes on disk.
    fn finish(self) -> io::Result<u64> {
        self.out.finish()
    }
}

fn put_varint(buf: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        buf.push((value & 0x7f) as u8 | 0x80);
        value >>= 7;
    }
    buf.push(value as u8);
}

/// A literal as binary LRAT writes it: 2·var + sign.
fn put_lit(buf: &mut Vec<u8>, lit: i32) {
    put_varint(buf, 2 * u64::from(lit.unsigned_abs()) + u64::from(lit < 0));
}

/// A (CaDiCaL) id as 2·|id| + sign.
fn put_id(buf: &mut Vec<u8>, id: i64) {
    put_varint(buf, 2 * id.unsigned_abs() + u64::from(id < 0));
}

fn read_byte(input: &mut dyn Read) -> io::Result<Option<u8>> {
    let mut b = [0u8];
    match input.read(&mut b)? {
        0 => Ok(None),
        _ => Ok(Some(b[0])),
    }
}

fn get_varint(input: &mut dyn Read) -> io::Result<u64> {
    let (mut value, mut shift) = (0u64, 0u32);
    loop {
        let b = read_byte(input)?.ok_or(io::ErrorKind::UnexpectedEof)?;
        value |= u64::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            return Ok(value);
        }
        shift += 7;
        if shift > 63 {
            return Err(io::ErrorKind::InvalidData.into());
        }
    }
}

fn get_id(input: &mut dyn Read) -> io::Result<i64> {
    let raw = get_varint(input)?;
    let magnitude =
        i64::try_from(raw >> 1).map_err(|_| io::Error::from(io::ErrorKind::InvalidData))?;
    Ok(if raw & 1 == 1 { -magnitude } else { magnitude })
}

fn get_lit(input: &mut dyn Read) -> io::Result<i32> {
    let raw = get_varint(input)?;
    let var = i32::try_from(raw >> 1).map_err(|_| io::Error::from(io::ErrorKind::InvalidData))?;
    Ok(if raw & 1 == 1 { -var } else { var })
}

/// Items up to a 0.
fn get_list<T: PartialEq + Default>(
    input: &mut dyn Read,
    get: fn(&mut dyn Read) -> io::Result<T>,
) -> io::Result<Vec<T>> {
    let mut out = Vec::new();
    loop {
        let item = get(input)?;
        if item == T::default() {
            return Ok(out);
        }
        out.push(item);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A trace with an unused lemma and its deletion, and an original
    /// that arrives between derived clauses: only what the empty clause
    /// needs is written, renumbered, and it checks.
    #[test]
    fn unused_lemmas_are_trimmed_and_the_rest_renumbered() {
        let mut t = LratTrace::new().unwrap();
        t.original(1, &[1], false);
        t.original(2, &[-1, 2], false);
        t.derived(3, 0, &[2], &[1, 2]);
        t.derived(4, 0, &[1, 2], &[1]);
        t.original(5, &[-2], false);
        t.deleted(4);
        t.derived(6, 0, &[], &[3, 5]);
        let dir = tempfile::tempdir().unwrap();
        let (cnf, lrat) = (dir.path().join("f.cnf"), dir.path().join("f.lrat"));
        let summary = t
            .finish(
                &cnf,
                &lrat,
                &[],
                0,
                ProofFormat::LratText,
                Compression::None,
            )
            .unwrap();
        assert!(summary.refutes);
        assert_eq!((summary.n_clauses, summary.n_derived), (3, 2));
        assert_eq!(
            std::fs::read_to_string(&lrat).unwrap(),
            "4 2 0 1 2 0\n5 0 4 3 0\n"
        );
        let formula = [vec![1], vec![-1, 2], vec![-2]];
        let proof = std::fs::File::open(&lrat).unwrap();
        boardsat_lrat::check(formula, proof, boardsat_lrat::Syntax::Text).unwrap();
    }

    /// Without an empty clause nothing is trimmed.
    #[test]
    fn a_trace_without_a_refutation_keeps_every_step() {
        let mut t = LratTrace::new().unwrap();
        t.original(1, &[1, 2], false);
        t.derived(2, 0, &[1, 2, 3], &[1]);
        t.derived(3, 0, &[1, 2, 4], &[1]);
        t.deleted(2);
        let dir = tempfile::tempdir().unwrap();
        let (cnf, lrat) = (dir.path().join("f.cnf"), dir.path().join("f.lrat"));
        let summary = t
            .finish(
                &cnf,
                &lrat,
                &[],
                0,
                ProofFormat::LratText,
                Compression::None,
            )
            .unwrap();
        assert!(!summary.refutes);
        assert_eq!(
            std::fs::read_to_string(&lrat).unwrap(),
            "2 1 2 3 0 1 0\n3 1 2 4 0 1 0\n3 d 2 0\n"
        );
    }

    /// Steps read backwards across many chunks come out in reverse order.
    #[test]
    fn steps_read_backwards_across_chunks() {
        let mut t = LratTrace::new().unwrap();
        let mut records = Vec::new();
        for i in 0..40_000u32 {
            let len = 1 + (i as usize * 7919) % 300;
            let record: Vec<u8> = (0..len).map(|j| (i as usize + j) as u8).collect();
            t.write_record(record.clone());
            records.push(record);
        }
        t.steps.flush().unwrap();
        let mut back = Backwards::new(t.steps.get_ref().try_clone().unwrap()).unwrap();
        let mut seen = Vec::new();
        while let Some(r) = back.next().unwrap() {
            seen.push(r.to_vec());
        }
        records.reverse();
        assert_eq!(seen, records);
    }

    #[test]
    fn ranks_count_the_members_below() {
        let members: Vec<u64> = (0..5_000u64).filter(|i| i % 3 == 0 || i % 7 == 1).collect();
        let mut bits = Bits::new(5_000);
        for &m in &members {
            bits.set(m);
        }
        bits.finish_ranks();
        for i in 0..5_000u64 {
            assert_eq!(bits.get(i), members.contains(&i), "{i}");
            let below = members.iter().filter(|&&m| m < i).count() as u64;
            assert_eq!(bits.rank(i), below, "{i}");
        }
    }
}
