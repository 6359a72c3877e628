//! Answers of outside solvers to the OPB, WCNF and LP files boardsat
//! writes ([`crate::export`]), read back: decoded onto the board
//! through the file's provenance and checked by the independent checker.
//!
//! ## The model file
//!
//! Its comment lines before the first line that is not one are read
//! ([`read_provenance`]): `*` (OPB), `c` (WCNF) or `\` (LP), up to
//! [`MAX_HEADER_BYTES`] (more is an error, not a shorter header). They
//! name the format, the problem, the bound or the objective and the
//! number of variables ([`crate::export::Provenance`]). The rest of the
//! file is only measured: every variable of a file boardsat wrote is named
//! in it, so a file of `B` bytes has at most `B` variables, and a
//! provenance that declares more (`variables: 4294967295`, `board:
//! 16000x16000` in a file of a few lines) is refused before anything is
//! sized by it.
//!
//! ## Solutions ([`parse`]; the style is told by the first line that says
//! something)
//!
//! - The output of the pseudo-Boolean and MaxSAT evaluations: `s OPTIMUM
//!   FOUND`, `s SATISFIABLE`, `s UNSATISFIABLE`, `s UNKNOWN` (or
//!   `UNSUPPORTED`); `o <value>` lines (the last one counts); `v` lines
//!   with PB literals (`x3 -x4`, or `~x4`), DIMACS literals (`3 -4`, an
//!   ending `0` allowed) or, as MaxSAT from 2022 on, one string of `0`
//!   and `1` (variable i at position i). Other lines (`c …`) are ignored.
//! - CBC's solution file (`cbc FILE.lp solve solu OUT`): `Optimal -
//!   objective value 5.00000000` (or `Infeasible`, `Integer infeasible`,
//!   `Stopped on …`), then `index name value reduced-cost` lines.
//! - HiGHS's solution file (`writeSolution`, the raw style): `Model
//!   status`, the status, `# Primal solution values`, `Objective v`,
//!   `# Columns N` and `name value` lines.
//!
//! Variables are named `x<i>` or `<i>`, 1 ≤ i ≤ the file's variables; an
//! LP solution's values must be within 10⁻⁶ of 0 or 1. Variables a
//! solution does not name are false.
//!
//! ## The check ([`check`])
//!
//! The placement is the set of squares whose variable is true, checked by
//! [`crate::check::check`] against the file's bound (any count for an
//! optimum). A solver's objective value must be a number, and its own
//! placement's in the file's terms (OPB: the pieces, or minus them for the
//! most pieces; WCNF: the falsified soft clauses; LP: the pieces): CBC's
//! `objective value nan` or `four`, HiGHS's `Objective NaN`, is rejected. An optimum the solver
//! claims, and a claim that no placement exists, are its claims:
//! [`CheckedSolution`] reports them as such, never as proven.

use std::{
    collections::HashMap,
    io::{self, BufRead, Read},
};

use crate::{
    check::{check as check_placement, Placement},
    dimacs::Format,
    error::EncodeError,
    export::Provenance,
    linear::{Goal, Sense},
};

/// The most bytes of comment lines read for a model file's provenance
/// (1 MiB; boardsat writes about 500).
pub const MAX_HEADER_BYTES: u64 = 1 << 20;

/// The most bytes of a solution read (256 MiB: the `v` line of a
/// 10,000 × 10,000 board fits); a longer one is an error
/// ([`read_solution`]).
pub const MAX_SOLUTION_BYTES: u64 = 256 << 20;

/// How far an LP value may be from 0 or 1.
const TOLERANCE: f64 = 1e-6;

/// What a solver said about the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Claim {
    /// An optimal solution (`s OPTIMUM FOUND`, CBC's and HiGHS's
    /// `Optimal`; [`check`] reads it as a solution for a file without an
    /// objective).
    Optimum,
    /// A solution, not claimed optimal.
    Satisfiable,
    /// No solution exists.
    Unsatisfiable,
    /// No answer.
    Unknown,
}

impl Claim {
    /// `optimum`, `satisfiable`, `unsatisfiable`, `unknown`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Claim::Optimum => "optimum",
            Claim::Satisfiable => "satisfiable",
            Claim::Unsatisfiable => "unsatisfiable",
            Claim::Unknown => "unknown",
        }
    }
}

/// Which tool's output a solution is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Style {
    /// `s`, `o` and `v` lines of the PB and MaxSAT evaluations.
    Competition,
    /// CBC's solution file.
    Cbc,
    /// HiGHS's solution file.
    Highs,
}

/// A solution as read.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// Whose output.
    pub style: Style,
    /// What the solver claims.
    pub claim: Claim,
    /// Its objective value, if it printed one.
    pub objective: Option<Objective>,
    /// The value of each variable `1..=n_vars` (index 0 is variable 1),
    /// when the solution gives an assignment.
    pub values: Option<Vec<bool>>,
}

/// A solver's objective value, as it printed it.
#[derive(Clone, Debug, PartialEq)]
pub enum Objective {
    /// A finite number.
    Value(f64),
    /// Anything else (`nan`, `inf`, `four`): the text, shortened.
    NotANumber(String),
}

impl Objective {
    /// The objective value that `text` states.
    fn read(text: &str) -> Objective {
        let text = text.trim();
        match text.parse::<f64>() {
            Ok(value) if value.is_finite() => Objective::Value(value),
            _ => Objective::NotANumber(text.chars().take(40).collect()),
        }
    }

    /// The value, when it is a number.
    #[must_use]
    pub fn value(&self) -> Option<f64> {
        match self {
            Objective::Value(v) => Some(*v),
            Objective::NotANumber(_) => None,
        }
    }
}

/// What the check found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolutionVerdict {
    /// The independent checker accepts the placement, and the objective
    /// value (if any) is the placement's.
    Accepted,
    /// The placement is not a solution, or the solver's objective value is
    /// not its own placement's: why.
    Rejected(String),
    /// The solver claims that no placement exists (its claim, unverified).
    ClaimsNone,
    /// The solver gave no answer.
    NoAnswer,
}

/// A solution checked against its file.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckedSolution {
    /// What the solver claims.
    pub claim: Claim,
    /// The solver's objective value, when it is a number.
    pub objective: Option<f64>,
    /// The placement its assignment decodes to.
    pub placement: Option<Placement>,
    /// The verdict.
    pub verdict: SolutionVerdict,
}

impl CheckedSolution {
    /// Whether the solver claims the placement optimal for a file that asks
    /// for the optimum: its claim, which nothing here verifies.
    #[must_use]
    pub fn claims_optimum(&self, provenance: &Provenance) -> bool {
        self.claim == Claim::Optimum
            && matches!(provenance.goal, Goal::Optimum(_))
            && self.verdict == SolutionVerdict::Accepted
    }
}

/// Errors reading a model file's provenance or a solution.
#[derive(Debug, thiserror::Error)]
pub enum SolutionError {
    /// The model file could not be read.
    #[error("cannot read the model file: {0}")]
    Io(#[from] std::io::Error),
    /// The model file's comments do not say what it is.
    #[error("the model file: {0}")]
    Provenance(#[from] EncodeError),
    /// The model file is DIMACS CNF (whose answers `solve-dimacs` reads).
    #[error("the model file is {0}, not opb, wcnf or lp")]
    NotExported(Format),
    /// A line of the solution that is not what it should be.
    #[error("line {line} of the solution ('{text}'): {reason}")]
    Garbage {
        /// 1-based.
        line: usize,
        /// The line, shortened.
        text: String,
        /// What is wrong.
        reason: String,
    },
    /// A solution that contradicts itself.
    #[error("the solution contradicts itself: {0}")]
    Contradiction(String),
    /// Nothing that says what the solver found.
    #[error("the solution has no status: no 's' line, and not a CBC or HiGHS solution file")]
    NoStatus,
    /// An input longer than its reader's limit, which is refused rather
    /// than read in part.
    #[error("the {what} is longer than {} MiB (the most boardsat reads)", limit >> 20)]
    TooLong {
        /// `solution`, or `model file's comment block`.
        what: &'static str,
        /// The limit in bytes.
        limit: u64,
    },
    /// The provenance declares more variables than the model file holds.
    #[error("the model file declares {n_vars} variables ({rows}x{cols} board), more than its {bytes} bytes can name")]
    Oversized {
        /// Declared variables.
        n_vars: u32,
        /// The declared board's rows.
        rows: usize,
        /// The declared board's columns.
        cols: usize,
        /// The file's size.
        bytes: u64,
    },
}

/// The provenance of the OPB, WCNF or LP file `input`, from its leading
/// comment lines; the rest of the file is read only to measure it (see
/// the module doc).
///
/// # Errors
///
/// [`SolutionError::Io`], [`SolutionError::Provenance`],
/// [`SolutionError::NotExported`] for a DIMACS file,
/// [`SolutionError::TooLong`] for comment lines beyond
/// [`MAX_HEADER_BYTES`], [`SolutionError::Oversized`] for more variables
/// than the file's bytes.
pub fn read_provenance<R: BufRead>(mut input: R) -> Result<Provenance, SolutionError> {
    let too_long = SolutionError::TooLong {
        what: "model file's comment block",
        limit: MAX_HEADER_BYTES,
    };
    let mut comments = Vec::new();
    let mut header_bytes = 0u64;
    let mut line = Vec::new();
    loop {
        line.clear();
        // At most one byte past the limit, which tells a long block.
        let room = (MAX_HEADER_BYTES + 1).saturating_sub(header_bytes);
        let read = input.by_ref().take(room).read_until(b'\n', &mut line)?;
        if read == 0 {
            break;
        }
        header_bytes += read as u64;
        let text = String::from_utf8_lossy(&line);
        let text = text.trim();
        let comment = text.strip_prefix(['*', 'c', '\\']);
        if comment.is_none() && !text.is_empty() {
            break;
        }
        if header_bytes > MAX_HEADER_BYTES {
            return Err(too_long);
        }
        comments.extend(comment.map(|rest| rest.trim().to_string()));
    }
    let bytes = header_bytes + io::copy(&mut input, &mut io::sink())?;
    let provenance = Provenance::parse(&comments)?;
    if provenance.format.is_dimacs() {
        return Err(SolutionError::NotExported(provenance.format));
    }
    if u64::from(provenance.n_vars) > bytes {
        let board = provenance.problem.board;
        return Err(SolutionError::Oversized {
            n_vars: provenance.n_vars,
            rows: board.rows(),
            cols: board.cols(),
            bytes,
        });
    }
    Ok(provenance)
}

/// A solution's text from `input`, lossily decoded, up to
/// [`MAX_SOLUTION_BYTES`].
///
/// # Errors
///
/// [`SolutionError::Io`]; [`SolutionError::TooLong`] when `input` holds
/// more (a solution cut short could hide a line that rejects it).
pub fn read_solution<R: Read>(input: R) -> Result<String, SolutionError> {
    let mut bytes = Vec::new();
    input.take(MAX_SOLUTION_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_SOLUTION_BYTES {
        return Err(SolutionError::TooLong {
            what: "solution",
            limit: MAX_SOLUTION_BYTES,
        });
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Parses a solver's solution of a file with `n_vars` variables (see the
/// module docs for the styles).
///
/// # Errors
///
/// [`SolutionError::Garbage`], [`SolutionError::Contradiction`],
/// [`SolutionError::NoStatus`].
pub fn parse(text: &str, n_vars: u32) -> Result<Solution, SolutionError> {
    let first = text.lines().map(str::trim).find(|l| !l.is_empty());
    match first {
        Some("Model status") => parse_highs(text, n_vars),
        Some(line) if line.contains(" - objective value ") => parse_cbc(text, n_vars),
        _ => parse_competition(text, n_vars),
    }
}

/// The values being read, with the line that set each: only those the
/// solution names, so that what is held grows with the solution.
struct Values {
    n_vars: u32,
    values: HashMap<u32, (bool, usize)>,
}

impl Values {
    fn new(n_vars: u32) -> Self {
        Values {
            n_vars,
            values: HashMap::new(),
        }
    }

    /// Sets the variable `name` (`x12`, `12`) to `value` on `line`.
    fn set(
        &mut self,
        name: &str,
        value: bool,
        line: usize,
        text: &str,
    ) -> Result<(), SolutionError> {
        let digits = name.strip_prefix('x').unwrap_or(name);
        let var: u64 = digits
            .parse()
            .map_err(|_| garbage(line, text, format!("'{name}' is not a variable")))?;
        let Some(index) = u32::try_from(var)
            .ok()
            .filter(|&v| v >= 1 && v <= self.n_vars)
        else {
            return Err(garbage(
                line,
                text,
                format!(
                    "variable {var} is not among the file's {} variables",
                    self.n_vars
                ),
            ));
        };
        match self.values.get(&index) {
            Some(&(earlier, at)) if earlier != value => Err(SolutionError::Contradiction(format!(
                "variable {var} is set both ways (lines {at} and {line})"
            ))),
            Some(_) => Ok(()),
            None => {
                self.values.insert(index, (value, line));
                Ok(())
            }
        }
    }

    /// The words of a `v` line: one string of `0` and `1` (MaxSAT from
    /// 2022 on), or literals `x3`, `-x4`, `~x4`, `3`, `-4` (a `0` ends a
    /// DIMACS-style model and sets nothing).
    fn v_line(&mut self, words: &[&str], line: usize, text: &str) -> Result<(), SolutionError> {
        if let [bits] = words {
            if bits.len() > 1 && bits.bytes().all(|b| b == b'0' || b == b'1') {
                for (i, b) in bits.bytes().enumerate() {
                    self.set(&(i + 1).to_string(), b == b'1', line, text)?;
                }
                return Ok(());
            }
        }
        for word in words {
            let (positive, name) = match word.strip_prefix(['-', '~']) {
                Some(name) => (false, name),
                None => (true, *word),
            };
            if name != "0" {
                self.set(name, positive, line, text)?;
            }
        }
        Ok(())
    }

    /// The value of every variable of the file (bounded by its size,
    /// [`read_provenance`]); those not named are false.
    fn finish(self) -> Vec<bool> {
        let mut all = vec![false; self.n_vars as usize];
        for (var, (value, _)) in self.values {
            if let Some(slot) = all.get_mut(var as usize - 1) {
                *slot = value;
            }
        }
        all
    }
}

fn garbage(line: usize, text: &str, reason: String) -> SolutionError {
    let text = text.trim();
    let mut short: String = text.chars().take(80).collect();
    if text.chars().count() > 80 {
        short.push('…');
    }
    SolutionError::Garbage {
        line,
        text: short,
        reason,
    }
}

/// `s`, `o` and `v` lines.
fn parse_competition(text: &str, n_vars: u32) -> Result<Solution, SolutionError> {
    let mut claim: Option<(Claim, usize)> = None;
    let mut objective = None;
    let mut values = Values::new(n_vars);
    let mut first_value_line = None;
    for (i, content) in text.lines().enumerate() {
        let line = i + 1;
        let mut words = content.split_whitespace();
        match words.next() {
            Some("s") => {
                let status = words.collect::<Vec<_>>().join(" ");
                let said = match status.as_str() {
                    "OPTIMUM FOUND" => Claim::Optimum,
                    "SATISFIABLE" => Claim::Satisfiable,
                    "UNSATISFIABLE" => Claim::Unsatisfiable,
                    "UNKNOWN" | "UNSUPPORTED" => Claim::Unknown,
                    _ => return Err(garbage(
                        line,
                        content,
                        "expected OPTIMUM FOUND, SATISFIABLE, UNSATISFIABLE or UNKNOWN after 's'"
                            .into(),
                    )),
                };
                if let Some((earlier, at)) = claim.filter(|&(c, _)| c != said) {
                    return Err(SolutionError::Contradiction(format!(
                        "'{}' on line {at} and '{}' on line {line}",
                        earlier.name(),
                        said.name()
                    )));
                }
                claim = Some((said, line));
            }
            Some("o") => {
                let value = words.next().and_then(|w| w.parse::<i64>().ok());
                match (value, words.next()) {
                    // Exact enough: a count of pieces, far below 2^53.
                    #[allow(clippy::cast_precision_loss)]
                    (Some(v), None) => objective = Some(Objective::Value(v as f64)),
                    _ => {
                        return Err(garbage(
                            line,
                            content,
                            "expected one integer after 'o'".into(),
                        ))
                    }
                }
            }
            Some("v") => {
                first_value_line.get_or_insert(line);
                values.v_line(&words.collect::<Vec<_>>(), line, content)?;
            }
            _ => {}
        }
    }
    let (claim, _) = claim.ok_or(SolutionError::NoStatus)?;
    let values = match (claim, first_value_line) {
        (Claim::Optimum | Claim::Satisfiable, None) => {
            return Err(SolutionError::Contradiction(format!(
                "'{}' without a 'v' line",
                claim.name()
            )))
        }
        (Claim::Unsatisfiable, Some(line)) => {
            return Err(SolutionError::Contradiction(format!(
                "'unsatisfiable', yet line {line} gives values"
            )))
        }
        (_, Some(_)) => Some(values.finish()),
        (_, None) => None,
    };
    Ok(Solution {
        style: Style::Competition,
        claim,
        objective,
        values,
    })
}

/// A 0-1 value of an LP solution.
fn binary(word: &str, line: usize, text: &str) -> Result<bool, SolutionError> {
    let value: f64 = word
        .parse()
        .map_err(|_| garbage(line, text, format!("'{word}' is not a number")))?;
    if (value - 1.0).abs() <= TOLERANCE {
        Ok(true)
    } else if value.abs() <= TOLERANCE {
        Ok(false)
    } else {
        Err(garbage(line, text, format!("{value} is not a 0-1 value")))
    }
}

/// CBC's solution file.
fn parse_cbc(text: &str, n_vars: u32) -> Result<Solution, SolutionError> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let Some((i, head)) = lines.next() else {
        return Err(SolutionError::NoStatus);
    };
    let (status, value) = head
        .split_once(" - objective value ")
        .ok_or(SolutionError::NoStatus)?;
    let objective = Some(Objective::read(value));
    let status = status.trim();
    let claim = if status == "Optimal" {
        Claim::Optimum
    } else if status.contains("nfeasible") {
        Claim::Unsatisfiable
    } else if status.starts_with("Stopped") {
        Claim::Satisfiable
    } else {
        return Err(garbage(
            i + 1,
            head,
            format!("unknown CBC status '{status}'"),
        ));
    };
    let mut values = Values::new(n_vars);
    let mut any = false;
    // An infeasible run prints the point where it stopped: not a solution.
    let rows = lines.filter(|_| claim != Claim::Unsatisfiable);
    for (i, content) in rows {
        let line = i + 1;
        let words: Vec<&str> = content.split_whitespace().collect();
        // CBC marks a value that breaks a bound with `**`.
        let words = match words.first() {
            Some(&"**") => &words[1..],
            _ => &words[..],
        };
        let [_, name, value, ..] = words else {
            return Err(garbage(
                line,
                content,
                "expected 'index name value reduced-cost'".into(),
            ));
        };
        values.set(name, binary(value, line, content)?, line, content)?;
        any = true;
    }
    // A stopped run without a solution has no answer.
    let claim = match (claim, any) {
        (Claim::Satisfiable, false) => Claim::Unknown,
        (claim, _) => claim,
    };
    Ok(solver_file(Style::Cbc, claim, objective, values))
}

/// HiGHS's solution file (raw style).
fn parse_highs(text: &str, n_vars: u32) -> Result<Solution, SolutionError> {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty())
        .collect();
    let status = lines.get(1).map_or("", |&(_, l)| l);
    let feasible = lines
        .windows(2)
        .any(|w| w[0].1 == "# Primal solution values" && w[1].1 == "Feasible");
    let claim = match (status, feasible) {
        ("Optimal", true) => Claim::Optimum,
        ("Infeasible", _) => Claim::Unsatisfiable,
        (_, true) => Claim::Satisfiable,
        _ => Claim::Unknown,
    };
    let mut objective = None;
    let mut values = Values::new(n_vars);
    let columns = lines.iter().position(|(_, l)| l.starts_with("# Columns"));
    for &(_, content) in &lines {
        if let Some(v) = content.strip_prefix("Objective ") {
            objective = Some(Objective::read(v));
        }
    }
    if let (Some(start), true) = (columns, feasible) {
        for &(line, content) in &lines[start + 1..] {
            if content.starts_with('#') {
                break;
            }
            let words: Vec<&str> = content.split_whitespace().collect();
            let [name, value] = words.as_slice() else {
                return Err(garbage(line, content, "expected 'name value'".into()));
            };
            values.set(name, binary(value, line, content)?, line, content)?;
        }
    }
    Ok(solver_file(Style::Highs, claim, objective, values))
}

/// The answer of a MIP solver's solution file: the values and the
/// objective only with a solution (an infeasible or stopped run prints
/// where it stopped, which is no answer).
fn solver_file(
    style: Style,
    claim: Claim,
    objective: Option<Objective>,
    values: Values,
) -> Solution {
    let values = matches!(claim, Claim::Optimum | Claim::Satisfiable).then(|| values.finish());
    Solution {
        style,
        claim,
        objective: objective.filter(|_| values.is_some()),
        values,
    }
}

/// The objective value of a placement of `pieces` in the file's terms, if
/// the file has an objective.
#[allow(clippy::cast_precision_loss)]
fn objective_of(provenance: &Provenance, pieces: usize) -> Option<f64> {
    let Goal::Optimum(sense) = provenance.goal else {
        return None;
    };
    let squares = provenance.problem.board.n_squares();
    let pieces = pieces as f64;
    Some(match (provenance.format, sense) {
        (Format::Opb, Sense::Maximise) => -pieces,
        (Format::Wcnf, Sense::Maximise) => squares as f64 - pieces,
        // A minimum is the pieces in every format; LP states a maximum
        // as it is; DIMACS files have no objective.
        (Format::Opb | Format::Wcnf, Sense::Minimise)
        | (Format::Lp | Format::Cnf | Format::Inccnf, _) => pieces,
    })
}

/// Decodes `answer` onto the board of `provenance` and checks it (see the
/// module docs).
#[must_use]
pub fn check(provenance: &Provenance, answer: &Solution) -> CheckedSolution {
    let board = provenance.problem.board;
    let placement = answer.values.as_ref().map(|values| {
        Placement::new(
            board
                .squares()
                .filter(|&sq| values.get(board.index(sq)).copied().unwrap_or(false))
                .collect(),
        )
    });
    let verdict = match (&placement, answer.claim) {
        (None, Claim::Unsatisfiable) => SolutionVerdict::ClaimsNone,
        (None, _) => SolutionVerdict::NoAnswer,
        (Some(placement), _) => {
            match check_placement(&provenance.problem, provenance.goal.bound(), placement) {
                Err(violation) => SolutionVerdict::Rejected(violation.to_string()),
                Ok(()) => match (&answer.objective, objective_of(provenance, placement.len())) {
                    (Some(Objective::NotANumber(text)), _) => SolutionVerdict::Rejected(format!(
                        "the solver's objective value '{text}' is not a number"
                    )),
                    (Some(Objective::Value(said)), Some(own)) if (said - own).abs() > TOLERANCE => {
                        SolutionVerdict::Rejected(format!(
                            "the solver's objective value {said} is not its own placement's ({own}, {} pieces)",
                            placement.len()
                        ))
                    }
                    _ => SolutionVerdict::Accepted,
                },
            }
        }
    };
    // A file without objective has no optimum: "optimal" is a solution.
    let claim = match (answer.claim, provenance.goal) {
        (Claim::Optimum, Goal::Bound(_)) => Claim::Satisfiable,
        (claim, _) => claim,
    };
    CheckedSolution {
        claim,
        objective: answer.objective.as_ref().and_then(Objective::value),
        placement,
        verdict,
    }
}
