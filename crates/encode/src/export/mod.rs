//! Beyond CNF: a problem written for solvers that reason on its
//! constraints natively — a pseudo-Boolean program ([`opb`]), a MaxSAT
//! instance ([`wcnf`]), an integer program ([`lp`]) — from the same
//! [`Problem`]: the linear model of [`crate::linear`] for OPB and LP, the
//! clauses of [`Problem::encode_unbounded`] for WCNF.
//!
//! Every file opens with its [`Provenance`] as comment lines (`*` in OPB,
//! `c` in WCNF, `\` in LP): the generator, the command line, the format,
//! the problem, the bound or the objective, and the board-variable map, so
//! that a solver's answer read back is decoded onto the board and checked
//! by the independent checker ([`Provenance::parse`] reads them again;
//! [`solution`] reads the answers).
//!
//! Which format fits which question ([`check_fit`]): DIMACS CNF states a
//! decision (a fixed k); WCNF an optimum (its soft clauses count the
//! pieces); OPB and LP either. iCNF holds the cubes of a split and is
//! written by `boardsat cubes`.
//!
//! ## Layers
//!
//! Each module imports only from modules on its own line or a line above
//! (checked by `tests/tests/layers.rs`):
//!
//! 1. this one — [`Provenance`], [`check_fit`], [`problem_from`]
//! 2. `opb`, `wcnf`, `lp` — the writers
//! 3. `solution` — outside solvers' answers read back, decoded and checked

pub mod lp;
pub mod opb;
pub mod solution;
pub mod wcnf;

use crate::{
    board::Board,
    bound::Bound,
    dimacs::Format,
    error::{EncodeError, RequestError},
    linear::{Goal, Model, Sense},
    piece::Piece,
    problem::{Kind, Problem},
};

/// Whether `format` can state a problem with `k` pieces (`None`: the
/// optimum).
///
/// # Errors
///
/// [`EncodeError::Request`] saying why not: CNF without k, WCNF with k,
/// iCNF at all.
pub fn check_fit(format: Format, k: Option<usize>) -> Result<(), EncodeError> {
    let refused = match (format, k) {
        (Format::Cnf, None) => RequestError::CnfNeedsPieces,
        (Format::Inccnf, _) => RequestError::IcnfOutsideSplit,
        (Format::Wcnf, Some(k)) => RequestError::WcnfWithPieces(k),
        (Format::Cnf, Some(_)) | (Format::Opb | Format::Lp, _) | (Format::Wcnf, None) => {
            return Ok(())
        }
    };
    Err(EncodeError::Request(refused))
}

/// What an exported file says about itself: enough to decode a solver's
/// assignment onto the board and check it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Provenance {
    /// The file's format.
    pub format: Format,
    /// The problem.
    pub problem: Problem,
    /// The bound, or the objective.
    pub goal: Goal,
    /// The variables of the file: the board's first, then auxiliaries.
    pub n_vars: u32,
}

impl Provenance {
    /// The provenance of the linear `model` written as `format` (OPB or
    /// LP): no auxiliary variables.
    #[must_use]
    pub fn linear(model: &Model, format: Format) -> Provenance {
        Provenance {
            format,
            problem: model.problem,
            goal: model.goal,
            n_vars: model.n_vars(),
        }
    }

    /// The provenance of the WCNF of `problem` ([`wcnf`]) over `n_vars`
    /// variables.
    #[must_use]
    pub fn wcnf(problem: &Problem, n_vars: u32) -> Provenance {
        Provenance {
            format: Format::Wcnf,
            problem: *problem,
            goal: Goal::of(problem, None),
            n_vars,
        }
    }

    /// The comment lines of a file, without the comment character: the
    /// generator, `command_line` (written as `boardsat …`), then the facts
    /// [`Provenance::parse`] reads back and the board-variable map.
    #[must_use]
    pub fn lines(&self, command_line: Option<&str>) -> Vec<String> {
        let p = &self.problem;
        let mut out = vec![format!("generator: boardsat {}", env!("CARGO_PKG_VERSION"))];
        if let Some(line) = command_line {
            out.push(format!("command line: boardsat {line}"));
        }
        out.push(format!("format: {}", self.format));
        out.push(format!("problem: {}", p.kind));
        out.push(format!("board: {}", p.board));
        out.push(format!("piece: {}", p.piece));
        out.push(match self.goal {
            Goal::Bound(bound) => format!("bound: {bound} pieces"),
            Goal::Optimum(Sense::Minimise) => "objective: minimise the number of pieces".into(),
            Goal::Optimum(Sense::Maximise) => "objective: maximise the number of pieces".into(),
        });
        out.push(format!("variables: {}", self.n_vars));
        let n = p.board.n_squares();
        let cols = p.board.cols();
        let mut map = match self.format {
            Format::Opb | Format::Lp => {
                format!("board variables: x1..x{n}, square (r, c) is x{{r*{cols} + c + 1}}")
            }
            Format::Cnf | Format::Inccnf | Format::Wcnf => {
                format!("board variables: 1..{n}, square (r, c) is r*{cols} + c + 1")
            }
        };
        if u64::from(self.n_vars) > n as u64 {
            map.push_str(&format!("; auxiliary {}..{}", n + 1, self.n_vars));
        }
        out.push(map);
        out
    }

    /// The provenance that comment lines `comments` (without the comment
    /// character, in any order, other lines ignored) state.
    ///
    /// # Errors
    ///
    /// [`EncodeError::Provenance`] naming the missing or malformed line.
    pub fn parse<S: AsRef<str>>(comments: &[S]) -> Result<Provenance, EncodeError> {
        let line = |key: &str| {
            comments.iter().find_map(|c| {
                let c = c.as_ref().trim();
                c.strip_prefix(key)?.strip_prefix(": ").map(str::trim)
            })
        };
        let missing = |key: &str| EncodeError::Provenance(format!("no '{key}:' line"));
        let format = line("format").ok_or_else(|| missing("format"))?;
        let format = Format::from_name(format)
            .ok_or_else(|| EncodeError::Provenance(format!("unknown format '{format}'")))?;
        let problem = problem_from(line).map_err(EncodeError::Provenance)?;
        let goal = match (line("bound"), line("objective")) {
            (Some(bound), _) => Goal::Bound(
                parse_bound(bound)
                    .ok_or_else(|| EncodeError::Provenance(format!("bad bound '{bound}'")))?,
            ),
            (None, Some("minimise the number of pieces")) => Goal::Optimum(Sense::Minimise),
            (None, Some("maximise the number of pieces")) => Goal::Optimum(Sense::Maximise),
            (None, Some(other)) => {
                return Err(EncodeError::Provenance(format!("bad objective '{other}'")))
            }
            (None, None) => return Err(missing("bound")),
        };
        let vars = line("variables").ok_or_else(|| missing("variables"))?;
        let n_vars: u32 = vars
            .parse()
            .map_err(|_| EncodeError::Provenance(format!("bad variable count '{vars}'")))?;
        if (n_vars as usize) < problem.board.n_squares() {
            return Err(EncodeError::Provenance(format!(
                "{n_vars} variables are fewer than the {} squares of the board",
                problem.board.n_squares()
            )));
        }
        Ok(Provenance {
            format,
            problem,
            goal,
            n_vars,
        })
    }
}

/// `at most 5 pieces`, `exactly 8 pieces` (as [`Bound`] displays, then
/// `pieces`).
fn parse_bound(text: &str) -> Option<Bound> {
    let text = text.strip_suffix(" pieces")?;
    let (make, k): (fn(usize) -> Bound, &str) = if let Some(k) = text.strip_prefix("at most ") {
        (Bound::AtMost, k)
    } else if let Some(k) = text.strip_prefix("at least ") {
        (Bound::AtLeast, k)
    } else {
        (Bound::Exactly, text.strip_prefix("exactly ")?)
    };
    k.parse().ok().map(make)
}

/// The problem that provenance lines name: `problem:` (the kind), `board:`
/// (`ROWSxCOLS`) and `piece:`, each looked up by `line(key)`.
///
/// # Errors
///
/// A message naming the missing or malformed line.
pub fn problem_from<'a>(line: impl Fn(&str) -> Option<&'a str>) -> Result<Problem, String> {
    let value = |key: &str| line(key).ok_or_else(|| format!("no '{key}:' line"));
    let kind = value("problem")?;
    let kind = Kind::from_name(kind).ok_or_else(|| format!("unknown problem kind '{kind}'"))?;
    let piece = value("piece")?;
    let piece = Piece::from_name(piece).ok_or_else(|| format!("unknown piece '{piece}'"))?;
    let board = value("board")?;
    let (rows, cols) = board
        .split_once('x')
        .and_then(|(r, c)| Some((r.parse().ok()?, c.parse().ok()?)))
        .ok_or_else(|| format!("bad board '{board}'"))?;
    let board = Board::new(rows, cols).map_err(|e| e.to_string())?;
    Ok(Problem::new(board, piece, kind))
}

/// Splits comment lines that hold line breaks, so each becomes whole
/// comment lines of a file.
fn comment_lines(lines: &[String]) -> impl Iterator<Item = &str> {
    lines.iter().flat_map(|l| l.lines())
}
