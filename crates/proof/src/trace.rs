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
//! m + 1, m + 2, … in the order they were derived, every hint and deletion
//! renumbered. Any LRAT checker checks the pair (`boardsat-lrat`,
//! cake_lpr).
//!
//! Renumbering needs no map: CaDiCaL's ids are 1, 2, … over originals and
//! derived clauses together, and an original keeps its id, so a derived
//! id d becomes m + d − (originals with an id below d), found by binary
//! search over the originals' ids, which arrive in increasing order.
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

pub use boardsat_lrat::LratFormat;

/// What a finished trace wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TraceSummary {
    /// Clauses of the formula.
    pub n_clauses: u64,
    /// Its variables (the `p cnf` line's).
    pub n_vars: u32,
    /// Derived clauses in the proof.
    pub n_derived: u64,
    /// Bytes of the proof file.
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
    empty_clause: bool,
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
            empty_clause: false,
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
        self.n_derived += 1;
        self.empty_clause |= clause.is_empty();
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
        self.write(&buf);
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
        self.write(&buf);
    }

    /// Records an event the trace cannot express.
    pub fn refuse(&mut self, why: String) {
        self.refused.get_or_insert(why);
    }

    fn write(&mut self, bytes: &[u8]) {
        if self.failed.is_none() {
            if let Err(e) = self.steps.write_all(bytes) {
                self.failed = Some(e);
            }
        }
    }

    /// The output id of CaDiCaL's id `id`.
    fn renumber(&self, id: i64) -> Result<u64, SolveError> {
        let m = self.original_ids.len() as u64;
        match self.original_ids.binary_search(&id) {
            Ok(i) => Ok(i as u64 + 1),
            Err(below) => {
                let d = u64::try_from(id).map_err(|_| trace_error(&format!("bad id {id}")))?;
                Ok(m + d - below as u64)
            }
        }
    }

    /// Writes the formula (with `header` as `c` lines above `p cnf`, and at
    /// least `n_vars` variables) to `formula` and its LRAT proof to `proof`
    /// in `format`.
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
        format: LratFormat,
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
        let proof_bytes = self
            .write_proof(proof, format)
            .map_err(|e| trace_error(&format!("{}: {e}", proof.display())))??;
        Ok(TraceSummary {
            n_clauses: self.formula.len() as u64,
            n_vars,
            n_derived: self.n_derived,
            proof_bytes,
            refutes: self.empty_clause,
        })
    }

    /// Renumbers the recorded steps into `path`: the bytes written.
    fn write_proof(
        &mut self,
        path: &Path,
        format: LratFormat,
    ) -> io::Result<Result<u64, SolveError>> {
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        self.steps.flush()?;
        let mut file = self.steps.get_ref().try_clone()?;
        file.seek(SeekFrom::Start(0))?;
        let mut input = BufReader::new(file);
        let mut out = Output::new(File::create(path)?, format);
        let mut next = self.original_ids.len() as u64;
        while let Some(kind) = read_byte(&mut input)? {
            let step = match kind {
                b'a' => {
                    let id = get_id(&mut input)?;
                    let lits = get_list(&mut input, get_lit)?;
                    let hints = get_list(&mut input, get_id)?;
                    let hints: Result<Vec<u64>, SolveError> =
                        hints.iter().map(|&h| self.renumber(h)).collect();
                    let Ok(hints) = hints else {
                        return Ok(Err(trace_error("a hint out of range")));
                    };
                    next += 1;
                    match self.renumber(id) {
                        Ok(out_id) if out_id == next => {}
                        _ => return Ok(Err(trace_error(&format!("derived id {id} out of order")))),
                    }
                    Step::Add(next, lits, hints)
                }
                b'd' => {
                    let ids = get_list(&mut input, get_id)?;
                    let ids: Result<Vec<u64>, SolveError> =
                        ids.iter().map(|&i| self.renumber(i)).collect();
                    let Ok(ids) = ids else {
                        return Ok(Err(trace_error("a deletion out of range")));
                    };
                    Step::Delete(next, ids)
                }
                other => return Ok(Err(trace_error(&format!("bad step byte {other}")))),
            };
            out.step(&step)?;
        }
        Ok(Ok(out.finish()?))
    }
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
    out: BufWriter<File>,
    format: LratFormat,
    bytes: u64,
    text: String,
}

impl Output {
    fn new(file: File, format: LratFormat) -> Self {
        Output {
            out: BufWriter::new(file),
            format,
            bytes: 0,
            text: String::new(),
        }
    }

    fn step(&mut self, step: &Step) -> io::Result<()> {
        let mut buf = Vec::new();
        match (self.format, step) {
            (LratFormat::Binary, Step::Add(id, lits, hints)) => {
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
            (LratFormat::Binary, Step::Delete(_, ids)) => {
                buf.push(b'd');
                for &i in ids {
                    put_varint(&mut buf, 2 * i);
                }
                buf.push(0);
            }
            (LratFormat::Text, Step::Add(id, lits, hints)) => {
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
            (LratFormat::Text, Step::Delete(last, ids)) => {
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
        self.bytes += buf.len() as u64;
        self.out.write_all(&buf)
    }

    fn finish(mut self) -> io::Result<u64> {
        self.out.flush()?;
        self.out.get_ref().sync_all()?;
        Ok(self.bytes)
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
