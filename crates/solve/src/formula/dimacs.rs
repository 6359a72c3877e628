//! One strict reader for DIMACS CNF and incremental CNF (iCNF), with the
//! projection lines of model counters, whose errors carry the line number.
//!
//! rustsat's parser reports what went wrong but not where, and it knows
//! neither iCNF nor projections; `solve-dimacs`, `count-dimacs` and the
//! corpus tests need all three, so this reader is written here.
//!
//! ## What is accepted
//! - Comment lines (`c …`) anywhere, before or after the header and between
//!   clauses; blank lines anywhere.
//! - Exactly one header before the first clause: `p cnf <vars> <clauses>`
//!   ([`Format::Cnf`]) or `p inccnf` ([`Format::Inccnf`], no counts).
//! - Clauses as whitespace-separated integers ending in `0`, which may span
//!   lines or share one.
//! - In iCNF only: cube lines `a <literals> 0`, each on one line, after
//!   every clause (the cubes of a cube-and-conquer file share one base
//!   formula).
//! - Projection: comment lines whose first words are exactly `c p show`
//!   (model-counting competition) or `c ind` (ApproxMC, Ganak), then
//!   variables ending in `0`. `c p show` wins when both appear; `c p show
//!   0` alone is the empty projection (a satisfiable formula then has one
//!   projected model). A variable named twice (on one line or on two) is
//!   projected on once, in the order of its first naming. Other comments
//!   that merely start with these letters (`c individual …`, `c p showing
//!   …`) are comments.
//! - Leniently, as solvers customarily do: a line holding only `%` ends the
//!   input (the SATLIB benchmarks end with `%` and `0`); CRLF line ends,
//!   tabs and leading or trailing whitespace; `+1` and `-0` (Rust's integer
//!   syntax); the empty clause (a line `0`); fewer variables used than
//!   declared, up to [`MAX_UNNAMED_VARS`] more.
//!
//! ## What is an error
//! Each with the line it is on (the header's line for a clause-count
//! mismatch, the clause's first line for a missing `0`, line 1 for an empty
//! input); `cnf/malformed/` holds one file per case, pinned by the CLI
//! tests:
//!
//! - an empty input, or no header at all (only comments), or a clause
//!   before the header; a UTF-8 byte-order mark;
//! - a malformed header: not `p cnf <vars> <clauses>` with two unsigned
//!   integers (missing fields, `p dnf`, `P CNF`, negative counts), or more
//!   variables than a DIMACS literal can name (2³¹ − 1), or more than
//!   [`MAX_VARS`], or more than [`MAX_UNNAMED_VARS`] beyond the largest
//!   variable the file names (reported at the header's line once the
//!   file is read);
//! - a second header;
//! - a token that is not an integer (`two`, `2.5`), a number too large for
//!   a literal, or a comment after literals on the same line (solvers
//!   disagree on that, so it is refused rather than guessed);
//! - a literal beyond the declared variables;
//! - a last clause without its terminating `0`;
//! - a number of clauses other than the header declares (strict: some
//!   solvers accept a mismatch, but a truncated file looks exactly like
//!   one, and `solve-dimacs` must not answer for a formula it did not see);
//! - an `a` line in a `p cnf` file; in iCNF, an `a` line inside a clause, a
//!   clause after the first `a` line, a cube line without its `0`;
//! - a malformed projection line, or a projection variable beyond the
//!   declared variables (also on a projection line before the header);
//! - bytes that are not UTF-8; a line longer than [`MAX_LINE_BYTES`].
//!
//! ## Bounds
//! Memory grows with the clauses read, never with a number a tiny file
//! merely states: nothing is allocated for the declared variable count,
//! which is capped at [`MAX_VARS`] and at [`MAX_UNNAMED_VARS`] beyond the
//! largest variable the file names ([`Formula::max_var`]), so that what
//! is sized by [`Formula::n_vars`] (a counter's projection over every
//! variable, a model) stays within what the file holds (`p cnf 134217728
//! 1` with one unit clause is an error, not gigabytes of solver tables);
//! solvers are sized by the largest variable actually used; and a line is
//! read up to [`MAX_LINE_BYTES`] (`/dev/zero` is an error, not an endless
//! allocation). A stop flag, when given, is polled between lines.

use std::io::BufRead;

use boardsat_encode::setting::{LibraryWords, Names, Setting};
use rustsat::types::{Lit, Var};

use crate::stop::Interrupter;

/// The largest variable a DIMACS literal can name (`i32::MAX`).
pub const MAX_LITERAL_VAR: u64 = i32::MAX as u64;

/// The most variables boardsat reads (2²⁷ = 134,217,728): enough for a
/// 10,000 × 10,000 board, and a bound on what a header can make a solver
/// allocate.
pub const MAX_VARS: u32 = 1 << 27;

/// The longest line read (64 MiB).
pub const MAX_LINE_BYTES: usize = 64 << 20;

/// The most variables a `p cnf` header may declare beyond the largest
/// variable the file names (2²⁰ = 1,048,576). Declared variables that no
/// clause or projection line names are free: a few are customary (a
/// formula whose last variables were eliminated), but every one of them
/// is sized by solvers and counters, and a count over them doubles with
/// each, so a header cannot make boardsat allocate more than this for
/// variables the file does not hold.
pub const MAX_UNNAMED_VARS: u32 = 1 << 20;

pub use boardsat_encode::dimacs::Format;

/// One `a` line of an iCNF file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cube {
    /// The line it is on.
    pub line: usize,
    /// Its literals.
    pub lits: Vec<Lit>,
}

/// A parsed DIMACS or iCNF formula.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Formula {
    /// The header's kind.
    pub format: Format,
    /// The variables of the formula: the header's count for DIMACS, the
    /// largest variable named anywhere for iCNF (which declares none).
    /// Models and projected counts are over these variables.
    pub n_vars: u32,
    /// The largest variable any clause, cube or projection line names (at
    /// most `n_vars`): what a solver must be sized for.
    pub max_var: u32,
    /// The clauses, in order.
    pub clauses: Vec<Vec<Lit>>,
    /// The projection (`c p show`, else `c ind`), if the file has one.
    pub projection: Option<Vec<Var>>,
    /// iCNF cubes, in order.
    pub cubes: Vec<Cube>,
    /// Provenance tags: comment lines `c boardsat-<key> <value>`, as
    /// `(key, value)` (at most [`MAX_TAGS`] are kept).
    pub tags: Vec<(String, String)>,
    /// The comment lines before the header, without `c ` (at most
    /// [`MAX_TAGS`] × 16 of them, each cut at 1,024 characters): the
    /// provenance of files boardsat wrote.
    pub comments: Vec<String>,
}

/// The most provenance tags a formula keeps.
pub const MAX_TAGS: usize = 16;

impl Formula {
    /// The formula of `clauses` over `n_vars` variables, projected onto
    /// `projection` (all variables when `None`), with the header comments
    /// `comments` (without `c `): what reading its DIMACS text would
    /// give, without writing the text — the provenance tags are the
    /// comments' `boardsat-<key> <value>` lines, as the reader keeps them.
    #[must_use]
    pub fn of_clauses(
        clauses: Vec<Vec<Lit>>,
        n_vars: u32,
        projection: Option<Vec<Var>>,
        comments: Vec<String>,
    ) -> Formula {
        let named = clauses
            .iter()
            .flatten()
            .map(|l| l.var().idx32() + 1)
            .chain(projection.iter().flatten().map(|v| v.idx32() + 1))
            .max()
            .unwrap_or(0);
        let tags = comments
            .iter()
            .filter_map(|c| {
                let mut words = c.split_ascii_whitespace();
                let key = words.next()?.strip_prefix("boardsat-")?;
                Some((key.to_string(), words.collect::<Vec<_>>().join(" ")))
            })
            .take(MAX_TAGS)
            .collect();
        Formula {
            format: Format::Cnf,
            n_vars,
            max_var: named.min(n_vars),
            clauses,
            projection,
            cubes: Vec::new(),
            tags,
            comments,
        }
    }
}

impl Formula {
    /// The value of the provenance line `<key>: <value>` among the header
    /// comments (`problem: domination`), if present.
    #[must_use]
    pub fn provenance(&self, key: &str) -> Option<&str> {
        self.comments
            .iter()
            .find_map(|c| c.strip_prefix(key).and_then(|rest| rest.strip_prefix(": ")))
    }
}

impl Formula {
    /// The value of tag `key` (`c boardsat-<key> <value>`), if present.
    #[must_use]
    pub fn tag(&self, key: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The projection, or every variable when the file has none.
    #[must_use]
    pub fn projection_or_all(&self) -> Vec<Var> {
        match &self.projection {
            Some(p) => p.clone(),
            None => (0..self.n_vars).map(Var::new).collect(),
        }
    }

    /// The formula of cube `index` of an iCNF file: the base clauses with
    /// the cube's literals as unit clauses, as a DIMACS formula.
    ///
    /// # Errors
    ///
    /// [`ReadError::Syntax`] (line 0) when the file is not iCNF or has no
    /// such cube.
    pub fn with_cube(mut self, index: usize) -> Result<Formula, ReadError> {
        if self.format != Format::Inccnf {
            return Err(cube_error(0, CubeError::PlainCnf));
        }
        let cubes = self.cubes.len();
        let cube = std::mem::take(&mut self.cubes).into_iter().nth(index);
        let Some(cube) = cube else {
            return Err(cube_error(0, CubeError::OutOfRange { index, cubes }));
        };
        self.clauses.extend(cube.lits.iter().map(|&l| vec![l]));
        self.format = Format::Cnf;
        Ok(self)
    }
}

/// Why a formula could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The text is not a formula: the line (from 1; 0 for the whole input)
    /// and what is wrong.
    #[error("line {line}: {message}")]
    Syntax {
        /// The line, from 1.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// Reading failed.
    #[error("line {line}: cannot read input: {source}")]
    Io {
        /// The line being read.
        line: usize,
        /// The cause.
        source: std::io::Error,
    },
    /// A file read for one of its cubes that has none to give, or a cube
    /// where none belongs: the line (0 for the whole input) and what.
    #[error("line {line}: {}", .cube.message(&LibraryWords))]
    Cube {
        /// The line, from 1.
        line: usize,
        /// What is wrong.
        cube: CubeError,
    },
    /// The stop flag was raised while reading.
    #[error("reading was stopped ({0})")]
    Stopped(crate::stop::StopReason),
}

impl ReadError {
    /// The line of a syntax or I/O error.
    #[must_use]
    pub fn line(&self) -> Option<usize> {
        match self {
            ReadError::Syntax { line, .. }
            | ReadError::Io { line, .. }
            | ReadError::Cube { line, .. } => Some(*line),
            ReadError::Stopped(_) => None,
        }
    }

    /// The message, with the settings it names worded by `names` (its
    /// `Display` is the library's words).
    #[must_use]
    pub fn message(&self, names: &dyn Names) -> String {
        match self {
            ReadError::Cube { line, cube } => format!("line {line}: {}", cube.message(names)),
            other => other.to_string(),
        }
    }
}

/// What is wrong with the cubes of a file read for one of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CubeError {
    /// A cube asked of a file with a `p cnf` header.
    PlainCnf,
    /// A cube asked of a file without a `p inccnf` header (its first
    /// line, shown).
    NoIcnfHeader(String),
    /// A cube number past the file's cubes.
    OutOfRange {
        /// The number asked for.
        index: usize,
        /// The cubes the file has.
        cubes: usize,
    },
    /// An iCNF file read without a cube.
    NoneChosen,
    /// An `a` line in a DIMACS file.
    CubeLine,
}

impl CubeError {
    /// The message, with the settings worded by `names`.
    #[must_use]
    pub fn message(&self, names: &dyn Names) -> String {
        let cube = names.name(Setting::Cube, None);
        match self {
            CubeError::PlainCnf => {
                format!("{cube} needs an iCNF file, and this one has a 'p cnf' header")
            }
            CubeError::NoIcnfHeader(first) => {
                format!("{cube} needs an iCNF file, and this one has no 'p inccnf' header ({first})")
            }
            CubeError::OutOfRange { index, cubes } => format!(
                "{} is out of range: the file has {cubes} cubes (0 to {})",
                names.name(Setting::Cube, Some(&index.to_string())),
                cubes.saturating_sub(1)
            ),
            CubeError::NoneChosen => format!(
                "an iCNF file ('p inccnf'): choose the cube to count with {} (from 0)",
                names.name(Setting::Cube, Some("I"))
            ),
            CubeError::CubeLine => format!(
                "an 'a' (cube) line in a DIMACS file; an iCNF file starts with 'p inccnf', and one of its cubes is counted with {}",
                names.name(Setting::Cube, Some("I"))
            ),
        }
    }
}

fn cube_error(line: usize, cube: CubeError) -> ReadError {
    ReadError::Cube { line, cube }
}

fn syntax(line: usize, message: impl Into<String>) -> ReadError {
    ReadError::Syntax {
        line,
        message: message.into(),
    }
}

/// Parses DIMACS CNF or iCNF from `input`.
///
/// # Errors
///
/// The first [`ReadError`], with its line.
pub fn parse<R: BufRead>(input: R) -> Result<Formula, ReadError> {
    read(input, None, None)
}

/// As [`parse`], refusing at its header a file of the other format than
/// `expect` (when given), and polling `stop` between lines.
///
/// # Errors
///
/// As [`parse`]; [`ReadError::Stopped`] when `stop` is raised.
pub fn read<R: BufRead>(
    mut input: R,
    expect: Option<Format>,
    stop: Option<&Interrupter>,
) -> Result<Formula, ReadError> {
    let mut reader = Reader {
        expect,
        ..Reader::default()
    };
    let mut buf = Vec::new();
    loop {
        if let Some(reason) = stop.and_then(Interrupter::reason) {
            return Err(ReadError::Stopped(reason));
        }
        buf.clear();
        let line_no = reader.line + 1;
        let read = read_bounded_line(&mut input, &mut buf).map_err(|e| match e {
            LineError::Io(source) => ReadError::Io {
                line: line_no,
                source,
            },
            LineError::TooLong => syntax(
                line_no,
                format!(
                    "the line is longer than {} MiB (a DIMACS line this long is not a formula)",
                    MAX_LINE_BYTES >> 20
                ),
            ),
        })?;
        if read == 0 {
            break;
        }
        reader.line = line_no;
        if line_no == 1 && buf.starts_with(b"\xef\xbb\xbf") {
            return Err(syntax(
                1,
                "the file starts with a UTF-8 byte-order mark; DIMACS is plain ASCII",
            ));
        }
        let line = std::str::from_utf8(&buf)
            .map_err(|_| syntax(line_no, "the line is not valid UTF-8"))?;
        if !reader.line(line.trim())? {
            break;
        }
    }
    reader.finish()
}

/// As [`read`], and the SHA-256 digest (lower-case hex) of every byte
/// read: what proves which file a count answers.
///
/// # Errors
///
/// As [`read`].
pub fn read_with_digest<R: std::io::Read>(
    input: R,
    expect: Option<Format>,
    stop: Option<&Interrupter>,
) -> Result<(Formula, String), ReadError> {
    let mut hashing = Hashing {
        inner: input,
        hasher: sha2::Sha256::default(),
    };
    let formula = read(std::io::BufReader::new(&mut hashing), expect, stop)?;
    // The reader stops at `%`; the digest covers the whole input.
    std::io::copy(&mut hashing, &mut std::io::sink())
        .map_err(|source| ReadError::Io { line: 0, source })?;
    Ok((formula, hex(&sha2::Digest::finalize(hashing.hasher))))
}

/// The SHA-256 digest of `bytes`, lower-case hex.
#[must_use]
pub fn digest(bytes: &[u8]) -> String {
    hex(&<sha2::Sha256 as sha2::Digest>::digest(bytes))
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes.iter().fold(String::new(), |mut out, b| {
        let _ = write!(out, "{b:02x}");
        out
    })
}

/// A reader that hashes what passes through it.
struct Hashing<R> {
    inner: R,
    hasher: sha2::Sha256,
}

impl<R: std::io::Read> std::io::Read for Hashing<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        sha2::Digest::update(&mut self.hasher, &buf[..n]);
        Ok(n)
    }
}

enum LineError {
    Io(std::io::Error),
    TooLong,
}

/// Reads one line (with its `\n`) into `buf`, refusing lines longer than
/// [`MAX_LINE_BYTES`] without holding more than that.
fn read_bounded_line<R: BufRead>(input: &mut R, buf: &mut Vec<u8>) -> Result<usize, LineError> {
    loop {
        let available = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(LineError::Io(e)),
        };
        if available.is_empty() {
            return Ok(buf.len());
        }
        let (taken, done) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (available.len(), false),
        };
        if buf.len() + taken > MAX_LINE_BYTES {
            return Err(LineError::TooLong);
        }
        buf.extend_from_slice(&available[..taken]);
        input.consume(taken);
        if done {
            return Ok(buf.len());
        }
    }
}

/// `vars` without repeats, each where it first stands: a projection
/// names each variable once (its models are assignments of distinct
/// variables).
fn distinct(vars: Vec<Var>) -> Vec<Var> {
    let mut seen = std::collections::HashSet::with_capacity(vars.len());
    vars.into_iter().filter(|v| seen.insert(*v)).collect()
}

/// A token as an error message shows it: control characters escaped, long
/// tokens cut.
fn shown(text: &str) -> String {
    const MAX: usize = 40;
    let escaped: String = text.chars().flat_map(char::escape_debug).collect();
    if escaped.chars().count() > MAX {
        let cut: String = escaped.chars().take(MAX).collect();
        format!("{cut}…")
    } else {
        escaped
    }
}

#[derive(Default)]
struct Reader {
    line: usize,
    expect: Option<Format>,
    format: Format,
    /// Header: declared variables, declared clauses (DIMACS), its line.
    header: Option<(u32, Option<usize>, usize)>,
    clauses: Vec<Vec<Lit>>,
    current: Vec<Lit>,
    current_start: usize,
    max_var: u32,
    show: Option<Vec<Var>>,
    ind: Option<Vec<Var>>,
    /// The largest projection variable and the first line naming it,
    /// checked against the header once the file is read (a projection
    /// line may come before the header).
    projection_max: Option<(usize, u32)>,
    cubes: Vec<Cube>,
    tags: Vec<(String, String)>,
    comments: Vec<String>,
}

impl Reader {
    /// One trimmed line; false when the input ends here (`%`).
    fn line(&mut self, line: &str) -> Result<bool, ReadError> {
        let line_no = self.line;
        if line.is_empty() {
            return Ok(true);
        }
        if line.starts_with('c') {
            self.comment(line)?;
            return Ok(true);
        }
        if line == "%" {
            return Ok(false);
        }
        if line.starts_with(['p', 'P']) {
            if self.header.is_some() {
                return Err(syntax(line_no, "a second 'p' header"));
            }
            if !self.clauses.is_empty() || !self.current.is_empty() {
                return Err(syntax(line_no, "the 'p cnf' header comes after clauses"));
            }
            self.header(line)?;
            return Ok(true);
        }
        let Some((n_vars, _, _)) = self.header else {
            if self.expect == Some(Format::Inccnf) {
                return Err(not_icnf(line_no, line));
            }
            return Err(syntax(
                line_no,
                "clause before the 'p cnf <vars> <clauses>' header",
            ));
        };
        if line.starts_with('a') {
            self.cube(line)?;
            return Ok(true);
        }
        if let Some(first) = self.cubes.first() {
            return Err(syntax(
                line_no,
                format!(
                    "a clause after the first 'a' line (line {}); every clause of an iCNF file must come before its cubes",
                    first.line
                ),
            ));
        }
        for token in line.split_ascii_whitespace() {
            let value = self.literal(token, n_vars)?;
            match value {
                None => self.clauses.push(std::mem::take(&mut self.current)),
                Some(lit) => {
                    if self.current.is_empty() {
                        self.current_start = line_no;
                    }
                    self.current.push(lit);
                }
            }
        }
        Ok(true)
    }

    /// A literal token (`None` for the terminating 0), checked against the
    /// declared variables (`u32::MAX`: none declared, iCNF).
    fn literal(&mut self, token: &str, n_vars: u32) -> Result<Option<Lit>, ReadError> {
        let line_no = self.line;
        let value: i64 = token
            .parse()
            .map_err(|_| syntax(line_no, bad_token(token)))?;
        if value == 0 {
            return Ok(None);
        }
        let var = value.unsigned_abs();
        if self.format == Format::Cnf && var > u64::from(n_vars) {
            return Err(syntax(
                line_no,
                format!("literal {value} is beyond the {n_vars} variables of the header"),
            ));
        }
        if var > MAX_LITERAL_VAR {
            return Err(syntax(
                line_no,
                format!(
                    "literal {value} is out of range (a DIMACS variable is at most {MAX_LITERAL_VAR})"
                ),
            ));
        }
        if var > u64::from(MAX_VARS) {
            return Err(syntax(
                line_no,
                format!("variable {var} is beyond boardsat's limit of {MAX_VARS} variables"),
            ));
        }
        // var ≤ MAX_VARS, so it fits.
        let index = u32::try_from(var).unwrap_or(MAX_VARS);
        self.max_var = self.max_var.max(index);
        let var = Var::new(index - 1);
        Ok(Some(if value > 0 {
            var.pos_lit()
        } else {
            var.neg_lit()
        }))
    }

    fn header(&mut self, line: &str) -> Result<(), ReadError> {
        let line_no = self.line;
        let fields: Vec<&str> = line.split_ascii_whitespace().collect();
        let bad = || {
            syntax(
                line_no,
                format!(
                    "malformed header '{}' (expected 'p cnf <vars> <clauses>'{})",
                    shown(line),
                    if line.starts_with('P') || fields.get(1).is_some_and(|f| *f == "CNF") {
                        "; DIMACS is case-sensitive"
                    } else {
                        ""
                    }
                ),
            )
        };
        if fields == ["p", "inccnf"] {
            if self.expect == Some(Format::Cnf) {
                return Err(cube_error(line_no, CubeError::NoneChosen));
            }
            self.format = Format::Inccnf;
            self.header = Some((u32::MAX, None, line_no));
            return Ok(());
        }
        if self.expect == Some(Format::Inccnf) {
            return Err(not_icnf(line_no, line));
        }
        if fields.len() != 4 || fields[0] != "p" || fields[1] != "cnf" {
            return Err(bad());
        }
        let vars: u64 = fields[2].parse().map_err(|_| bad())?;
        let clauses: usize = fields[3].parse().map_err(|_| bad())?;
        if vars > MAX_LITERAL_VAR {
            return Err(syntax(
                line_no,
                format!("{vars} variables is more than a DIMACS literal can name"),
            ));
        }
        if vars > u64::from(MAX_VARS) {
            return Err(syntax(
                line_no,
                format!(
                    "the header declares {vars} variables, beyond boardsat's limit of {MAX_VARS}"
                ),
            ));
        }
        self.format = Format::Cnf;
        self.header = Some((
            u32::try_from(vars).map_err(|_| bad())?,
            Some(clauses),
            line_no,
        ));
        Ok(())
    }

    /// A comment: projection lines and provenance tags are read, the rest
    /// skipped.
    fn comment(&mut self, line: &str) -> Result<(), ReadError> {
        let mut words = line.split_ascii_whitespace();
        if words.next() != Some("c") {
            return Ok(());
        }
        if self.header.is_none() && self.comments.len() < MAX_TAGS * 16 {
            let text = line.strip_prefix('c').unwrap_or(line).trim();
            self.comments.push(text.chars().take(1024).collect());
        }
        if let Some(key) = words
            .clone()
            .next()
            .and_then(|w| w.strip_prefix("boardsat-"))
        {
            if self.tags.len() < MAX_TAGS {
                let value: Vec<&str> = words.skip(1).collect();
                self.tags.push((key.to_string(), value.join(" ")));
            }
            return Ok(());
        }
        let mut rest = words.clone();
        let show = matches!((rest.next(), rest.next()), (Some("p"), Some("show")));
        let (target, vars) = if show {
            (true, rest)
        } else if words.next() == Some("ind") {
            (false, words)
        } else {
            return Ok(());
        };
        let line_no = self.line;
        let mut found = Vec::new();
        let mut ended = false;
        for token in vars {
            if ended {
                return Err(syntax(
                    line_no,
                    format!(
                        "'{}' after the 0 that ends the projection line",
                        shown(token)
                    ),
                ));
            }
            let v: u64 = token.parse().map_err(|_| {
                syntax(
                    line_no,
                    format!("bad projection variable '{}'", shown(token)),
                )
            })?;
            if v == 0 {
                ended = true;
                continue;
            }
            if v > u64::from(MAX_VARS) {
                return Err(syntax(
                    line_no,
                    format!("projection variable {v} is beyond boardsat's limit of {MAX_VARS}"),
                ));
            }
            let index = u32::try_from(v).unwrap_or(MAX_VARS);
            if self.projection_max.is_none_or(|(_, max)| index > max) {
                self.projection_max = Some((line_no, index));
            }
            self.max_var = self.max_var.max(index);
            found.push(Var::new(index - 1));
        }
        if !ended {
            return Err(syntax(line_no, "the projection line has no terminating 0"));
        }
        let list = if target {
            &mut self.show
        } else {
            &mut self.ind
        };
        list.get_or_insert_with(Vec::new).extend(found);
        Ok(())
    }

    fn cube(&mut self, line: &str) -> Result<(), ReadError> {
        let line_no = self.line;
        if self.format != Format::Inccnf {
            return Err(cube_error(line_no, CubeError::CubeLine));
        }
        if !self.current.is_empty() {
            return Err(syntax(
                line_no,
                format!(
                    "an 'a' line inside a clause (the clause of line {} has no terminating 0)",
                    self.current_start
                ),
            ));
        }
        let mut tokens = line.split_ascii_whitespace();
        if tokens.next() != Some("a") {
            return Err(syntax(
                line_no,
                format!(
                    "malformed cube line '{}' (expected 'a <literals> 0')",
                    shown(line)
                ),
            ));
        }
        let mut lits = Vec::new();
        let mut ended = false;
        for token in tokens {
            if ended {
                return Err(syntax(
                    line_no,
                    format!("'{}' after the 0 that ends the cube line", shown(token)),
                ));
            }
            match self.literal(token, u32::MAX)? {
                None => ended = true,
                Some(lit) => lits.push(lit),
            }
        }
        if !ended {
            return Err(syntax(
                line_no,
                "the cube line has no terminating 0 (a cube is one line)",
            ));
        }
        self.cubes.push(Cube {
            line: line_no,
            lits,
        });
        Ok(())
    }

    fn finish(self) -> Result<Formula, ReadError> {
        let line_no = self.line;
        let Some((declared_vars, declared_clauses, header_line)) = self.header else {
            return Err(syntax(
                line_no.max(1),
                if line_no == 0 {
                    "empty input: no 'p cnf' header"
                } else {
                    "no 'p cnf <vars> <clauses>' header"
                },
            ));
        };
        if !self.current.is_empty() {
            return Err(syntax(
                self.current_start,
                "the last clause has no terminating 0",
            ));
        }
        if let Some(declared) = declared_clauses {
            if self.clauses.len() != declared {
                return Err(syntax(
                    header_line,
                    format!(
                        "the header declares {declared} {} but the file has {}",
                        if declared == 1 { "clause" } else { "clauses" },
                        self.clauses.len()
                    ),
                ));
            }
        }
        if let Some((line, v)) = self
            .projection_max
            .filter(|&(_, v)| self.format == Format::Cnf && v > declared_vars)
        {
            return Err(syntax(
                line,
                format!(
                    "projection variable {v} is beyond the {declared_vars} variables of the header"
                ),
            ));
        }
        if self.format == Format::Cnf
            && declared_vars.saturating_sub(self.max_var) > MAX_UNNAMED_VARS
        {
            return Err(syntax(
                header_line,
                format!(
                    "the header declares {declared_vars} variables, but the file names none beyond {}: at most {MAX_UNNAMED_VARS} declared variables may go unnamed",
                    self.max_var
                ),
            ));
        }
        // The reader sets only Cnf and Inccnf.
        let n_vars = match self.format {
            Format::Inccnf => self.max_var,
            _ => declared_vars,
        };
        if self.format == Format::Inccnf && self.cubes.is_empty() {
            return Err(syntax(0, "the iCNF file has no 'a' (cube) lines"));
        }
        Ok(Formula {
            format: self.format,
            n_vars,
            max_var: self.max_var,
            clauses: self.clauses,
            projection: self.show.or(self.ind).map(distinct),
            cubes: self.cubes,
            tags: self.tags,
            comments: self.comments,
        })
    }
}

/// The SAT-competition `v` lines of a model over variables `1..=n_vars`
/// (values beyond `model` are false), at most 78 characters each, the last
/// one ending in `0`.
pub fn model_lines(model: &[bool], n_vars: u32) -> impl Iterator<Item = String> + '_ {
    let mut v = 0u32;
    let mut done = false;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        let mut line = String::from("v");
        while v < n_vars {
            let value = model.get(v as usize).copied().unwrap_or(false);
            let lit = i64::from(v) + 1;
            let piece = format!(" {}", if value { lit } else { -lit });
            if line.len() + piece.len() > 78 {
                return Some(line);
            }
            line.push_str(&piece);
            v += 1;
        }
        line.push_str(" 0");
        done = true;
        Some(line)
    })
}

/// A model as DIMACS literals over variables `1..=n_vars`.
#[must_use]
pub fn model_literals(model: &[bool], n_vars: u32) -> Vec<i64> {
    (0..n_vars)
        .map(|v| {
            let lit = i64::from(v) + 1;
            if model.get(v as usize).copied().unwrap_or(false) {
                lit
            } else {
                -lit
            }
        })
        .collect()
}

/// The error for a file that should be iCNF but is not.
fn not_icnf(line_no: usize, line: &str) -> ReadError {
    let first = format!("line {line_no} is '{}'", shown(line));
    cube_error(line_no, CubeError::NoIcnfHeader(first))
}

/// Why `token` is not a literal.
fn bad_token(token: &str) -> String {
    let digits = token.strip_prefix(['-', '+']).unwrap_or(token);
    if token == "c" {
        "a comment after literals ('c' must start its own line)".to_string()
    } else if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        format!("literal {token} is out of range (a DIMACS variable is at most {MAX_LITERAL_VAR})")
    } else {
        format!("'{}' is not an integer literal", shown(token))
    }
}
