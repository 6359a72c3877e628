//! A strict DIMACS CNF reader whose errors carry the line number.
//!
//! rustsat's parser reports what went wrong but not where; `solve-dimacs`
//! users need the line, so this reader is written here.
//!
//! ## What is accepted
//! - Comment lines (`c …`) anywhere, before or after the header and between
//!   clauses; blank lines anywhere.
//! - Exactly one header `p cnf <vars> <clauses>` before the first clause.
//! - Clauses as whitespace-separated integers ending in `0`, which may span
//!   lines or share one.
//! - Leniently, as solvers customarily do: a line holding only `%` ends the
//!   input (the SATLIB benchmarks end with `%` and `0`); CRLF line ends,
//!   tabs and leading or trailing whitespace; any line whose first
//!   non-blank character is `c` is a comment;
//!   `+1` and `-0` (Rust's integer syntax); the empty clause (a line `0`);
//!   fewer variables used than declared.
//!
//! ## What is an error
//! Each with the line it is on (the header's line for a clause-count
//! mismatch, the clause's first line for a missing `0`, line 1 for an empty
//! input); `cnf/malformed/` holds one file per case, pinned by the CLI
//! tests:
//!
//! - an empty input, or no `p cnf` header at all (only comments), or a
//!   clause before the header;
//! - a malformed header: not `p cnf <vars> <clauses>` with two unsigned
//!   integers (missing fields, `p dnf`, negative counts), or more variables
//!   than a DIMACS literal can name (2³¹ − 1);
//! - a second header;
//! - a token that is not an integer (`two`, `2.5`), a number too large for
//!   a literal, or a comment after literals on the same line (solvers
//!   disagree on that, so it is refused rather than guessed);
//! - a literal beyond the declared variables;
//! - a last clause without its terminating `0`;
//! - a number of clauses other than the header declares (strict: some
//!   solvers accept a mismatch, but a truncated file looks exactly like
//!   one, and `solve-dimacs` must not answer for a formula it did not see);
//! - bytes that are not UTF-8.

use std::io::BufRead;

use rustsat::types::{Lit, Var};

/// A parsed DIMACS CNF.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dimacs {
    /// The variable count of the header.
    pub n_vars: u32,
    /// The clauses, in order.
    pub clauses: Vec<Vec<Lit>>,
}

/// A DIMACS error at a line (1-based; 0 for errors about the whole input).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct ParseError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

fn err(line: usize, message: impl Into<String>) -> ParseError {
    ParseError {
        line,
        message: message.into(),
    }
}

/// The largest variable a DIMACS literal can name (`i32::MAX`).
const MAX_VAR: u64 = i32::MAX as u64;

/// Parses DIMACS CNF from `input`.
///
/// # Errors
///
/// The first [`ParseError`], with its line.
pub fn parse<R: BufRead>(mut input: R) -> Result<Dimacs, ParseError> {
    let mut header: Option<(u32, usize, usize)> = None;
    let mut clauses: Vec<Vec<Lit>> = Vec::new();
    let mut current: Vec<Lit> = Vec::new();
    let mut current_start = 0;
    let mut buf = Vec::new();
    let mut line_no = 0;
    loop {
        buf.clear();
        let read = input
            .read_until(b'\n', &mut buf)
            .map_err(|e| err(line_no + 1, format!("cannot read input: {e}")))?;
        if read == 0 {
            break;
        }
        line_no += 1;
        let line =
            std::str::from_utf8(&buf).map_err(|_| err(line_no, "the line is not valid UTF-8"))?;
        let line = line.trim();
        if line.is_empty() || line.starts_with('c') {
            continue;
        }
        if line == "%" {
            break;
        }
        if line.starts_with('p') {
            if header.is_some() {
                return Err(err(line_no, "a second 'p' header"));
            }
            if !clauses.is_empty() || !current.is_empty() {
                return Err(err(line_no, "the 'p cnf' header comes after clauses"));
            }
            header = Some(parse_header(line, line_no)?);
            continue;
        }
        let Some((n_vars, _, _)) = header else {
            return Err(err(
                line_no,
                "clause before the 'p cnf <vars> <clauses>' header",
            ));
        };
        for token in line.split_ascii_whitespace() {
            let value: i64 = token.parse().map_err(|_| err(line_no, bad_token(token)))?;
            if value == 0 {
                clauses.push(std::mem::take(&mut current));
                continue;
            }
            let var = value.unsigned_abs();
            if var > u64::from(n_vars) {
                return Err(err(
                    line_no,
                    format!("literal {value} is beyond the {n_vars} variables of the header"),
                ));
            }
            if current.is_empty() {
                current_start = line_no;
            }
            // var ≤ n_vars ≤ MAX_VAR, so it fits.
            let var = Var::new(u32::try_from(var - 1).unwrap_or(u32::MAX));
            current.push(if value > 0 {
                var.pos_lit()
            } else {
                var.neg_lit()
            });
        }
    }
    let Some((_, declared, header_line)) = header else {
        return Err(err(
            line_no.max(1),
            if line_no == 0 {
                "empty input: no 'p cnf' header"
            } else {
                "no 'p cnf <vars> <clauses>' header"
            },
        ));
    };
    if !current.is_empty() {
        return Err(err(current_start, "the last clause has no terminating 0"));
    }
    if clauses.len() != declared {
        return Err(err(
            header_line,
            format!(
                "the header declares {declared} {} but the file has {}",
                if declared == 1 { "clause" } else { "clauses" },
                clauses.len()
            ),
        ));
    }
    let n_vars = header.map_or(0, |h| h.0);
    Ok(Dimacs { n_vars, clauses })
}

/// Why `token` is not a literal.
fn bad_token(token: &str) -> String {
    let digits = token.strip_prefix(['-', '+']).unwrap_or(token);
    if token == "c" {
        "a comment after literals ('c' must start its own line)".to_string()
    } else if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        format!("literal {token} is out of range (a DIMACS variable is at most {MAX_VAR})")
    } else {
        format!("'{token}' is not an integer literal")
    }
}

fn parse_header(line: &str, line_no: usize) -> Result<(u32, usize, usize), ParseError> {
    let fields: Vec<&str> = line.split_ascii_whitespace().collect();
    let bad = || {
        err(
            line_no,
            format!("malformed header '{line}' (expected 'p cnf <vars> <clauses>')"),
        )
    };
    if fields.len() != 4 || fields[0] != "p" || fields[1] != "cnf" {
        return Err(bad());
    }
    let vars: u64 = fields[2].parse().map_err(|_| bad())?;
    let clauses: usize = fields[3].parse().map_err(|_| bad())?;
    if vars > MAX_VAR {
        return Err(err(
            line_no,
            format!("{vars} variables is more than a DIMACS literal can name"),
        ));
    }
    Ok((u32::try_from(vars).map_err(|_| bad())?, clauses, line_no))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(s: &str) -> Result<Dimacs, ParseError> {
        parse(s.as_bytes())
    }

    #[test]
    fn accepts_comments_anywhere_and_clauses_across_lines() {
        let d = parse_str("c hi\np cnf 3 2\n1 -2\nc mid\n 0 3 0\n").unwrap();
        assert_eq!(d.n_vars, 3);
        assert_eq!(d.clauses.len(), 2);
        assert_eq!(d.clauses[0][1], Var::new(1).neg_lit());
    }

    #[test]
    fn errors_carry_lines() {
        let cases = [
            ("", 1, "empty input"),
            ("1 2 0\n", 1, "before the"),
            ("p cnf x 1\n", 1, "malformed header"),
            ("p cnf 2 1\n1 3 0\n", 2, "beyond the 2 variables"),
            ("p cnf 2 1\n1 a 0\n", 2, "'a' is not an integer"),
            ("p cnf 2 1\n1 2\n", 2, "no terminating 0"),
            (
                "p cnf 2 2\n1 2 0\n",
                1,
                "declares 2 clauses but the file has 1",
            ),
            ("p cnf 2 1\np cnf 2 1\n", 2, "second"),
            ("p cnf 2 1\n99999999999999999999 0\n", 2, "out of range"),
            ("p cnf 2 1\n1 0 c x\n", 2, "comment after literals"),
            ("p cnf 2 1\n1 1.5 0\n", 2, "'1.5' is not an integer"),
            (
                "p cnf 2 1\n1 0\n2 0\n",
                1,
                "declares 1 clause but the file has 2",
            ),
        ];
        for (input, line, text) in cases {
            let e = parse_str(input).unwrap_err();
            assert_eq!(e.line, line, "{input:?}: {e}");
            assert!(e.message.contains(text), "{input:?}: {e}");
        }
        let e = parse(&b"p cnf 1 1\n\xff 0\n"[..]).unwrap_err();
        assert_eq!((e.line, e.message.contains("UTF-8")), (2, true));
    }

    #[test]
    fn satlib_percent_ends_the_input() {
        let d = parse_str("p cnf 1 1\n1 0\n%\n0\n").unwrap();
        assert_eq!(d.clauses.len(), 1);
    }
}
