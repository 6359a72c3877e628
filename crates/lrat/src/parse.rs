//! Streaming readers for text and binary LRAT: one step at a time into
//! reused buffers, never the whole text and never a whole line.

use std::io::{ErrorKind, Read};

use crate::error::{Error, Location, StepProblem};

/// The largest clause id accepted (CaDiCaL's ids are `int64_t`).
const MAX_ID: u64 = i64::MAX as u64;

/// Longest token text kept for an error message.
const SHOWN: usize = 40;

/// What a step does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum StepKind {
    /// Adds a clause with this id, proved by the hints.
    Add(u64),
    /// Deletes the clauses whose ids are listed.
    Delete,
}

/// One step, in buffers reused from step to step.
#[derive(Debug)]
pub(crate) struct Step {
    pub(crate) kind: StepKind,
    /// The added clause's literals (empty for deletions).
    pub(crate) lits: Vec<i32>,
    /// The hints of an addition, or the ids a deletion lists.
    pub(crate) ids: Vec<i64>,
    pub(crate) at: Location,
}

impl Step {
    pub(crate) fn new() -> Self {
        Step {
            kind: StepKind::Delete,
            lits: Vec::new(),
            ids: Vec::new(),
            at: Location::Line(0),
        }
    }
}

/// A byte source with its own buffer and position.
pub(crate) struct Input<R> {
    inner: R,
    buf: Box<[u8]>,
    pos: usize,
    len: usize,
    /// Bytes consumed before `buf`.
    before: u64,
    /// Lines started so far (text only), from 1.
    line: u64,
}

impl<R: Read> Input<R> {
    pub(crate) fn new(inner: R) -> Self {
        Input {
            inner,
            buf: vec![0; 1 << 16].into_boxed_slice(),
            pos: 0,
            len: 0,
            before: 0,
            line: 1,
        }
    }

    fn offset(&self) -> u64 {
        self.before + self.pos as u64
    }

    #[inline]
    fn peek(&mut self, at: Location) -> Result<Option<u8>, Error> {
        if self.pos < self.len {
            return Ok(Some(self.buf[self.pos]));
        }
        self.refill(at)
    }

    #[cold]
    fn refill(&mut self, at: Location) -> Result<Option<u8>, Error> {
        self.before += self.len as u64;
        self.pos = 0;
        self.len = 0;
        loop {
            match self.inner.read(&mut self.buf) {
                Ok(0) => return Ok(None),
                Ok(n) => {
                    self.len = n;
                    return Ok(Some(self.buf[0]));
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(source) => return Err(Error::Io { at, source }),
            }
        }
    }

    #[inline]
    fn bump(&mut self) {
        self.pos += 1;
    }

    /// Whether the input starts like binary LRAT: its first byte is `a` or
    /// `d`, which no text LRAT proof starts with (text steps start with an
    /// id, comments with `c`).
    pub(crate) fn looks_binary(&mut self) -> Result<bool, Error> {
        Ok(matches!(self.peek(Location::Byte(0))?, Some(b'a' | b'd')))
    }
}

fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r')
}

/// A token of a text step.
enum Token {
    /// The line (or the input) ended.
    End,
    /// `d`.
    Delete,
    /// An integer with its sign.
    Int(i64),
}

impl<R: Read> Input<R> {
    fn skip_blanks(&mut self, at: Location) -> Result<Option<u8>, Error> {
        while let Some(b) = self.peek(at)? {
            if !is_blank(b) {
                return Ok(Some(b));
            }
            self.bump();
        }
        Ok(None)
    }

    /// The rest of a bad token, for the error message.
    fn rest_of_token(&mut self, mut shown: String, at: Location) -> Result<String, Error> {
        while let Some(b) = self.peek(at)? {
            if is_blank(b) || b == b'\n' {
                break;
            }
            if shown.len() < SHOWN {
                shown.push(char::from(b));
            }
            self.bump();
        }
        Ok(shown)
    }

    /// The next token on the current line; `End` at a newline (not
    /// consumed) or at the end of the input. A number is `-`? digits,
    /// followed by a blank, a newline or the end.
    fn token(&mut self, expected: &'static str, at: Location) -> Result<Token, Error> {
        if let Some(token) = self.buffered_number() {
            return Ok(token);
        }
        self.token_slow(expected, at)
    }

    /// The fast path of [`Input::token`]: a number of at most 18 digits
    /// (so no overflow) that ends inside the buffer, or `None` for
    /// everything else, left to the slow path.
    #[inline]
    fn buffered_number(&mut self) -> Option<Token> {
        let rest = &self.buf[self.pos..self.len];
        let mut i = 0;
        while i < rest.len() && rest[i] == b' ' {
            i += 1;
        }
        let negative = rest.get(i) == Some(&b'-');
        let start = i + usize::from(negative);
        let mut value: i64 = 0;
        let mut j = start;
        while j < rest.len() && rest[j].is_ascii_digit() {
            if j - start == 18 {
                return None;
            }
            value = value * 10 + i64::from(rest[j] - b'0');
            j += 1;
        }
        let ends = matches!(rest.get(j), Some(b' ' | b'\n' | b'\t' | b'\r'));
        if j == start || !ends || (negative && value == 0) {
            return None;
        }
        self.pos += j;
        Some(Token::Int(if negative { -value } else { value }))
    }

    fn token_slow(&mut self, expected: &'static str, at: Location) -> Result<Token, Error> {
        let Some(first) = self.skip_blanks(at)? else {
            return Ok(Token::End);
        };
        if first == b'\n' {
            return Ok(Token::End);
        }
        if first == b'd' {
            self.bump();
            return match self.peek(at)? {
                None => Ok(Token::Delete),
                Some(b) if is_blank(b) || b == b'\n' => Ok(Token::Delete),
                Some(_) => {
                    let found = self.rest_of_token("d".to_string(), at)?;
                    Err(Error::Step {
                        at,
                        problem: StepProblem::BadToken { expected, found },
                    })
                }
            };
        }
        let negative = first == b'-';
        if negative {
            self.bump();
        }
        let mut value: u64 = 0;
        let mut digits = 0usize;
        // The digits of a number too large, for the message.
        let mut overflow: Option<String> = None;
        while let Some(b) = self.peek(at)? {
            if !b.is_ascii_digit() {
                break;
            }
            digits += 1;
            if let Some(shown) = &mut overflow {
                if shown.len() < SHOWN {
                    shown.push(char::from(b));
                }
            } else {
                match value
                    .checked_mul(10)
                    .and_then(|v| v.checked_add(u64::from(b - b'0')))
                {
                    Some(v) if v <= MAX_ID => value = v,
                    _ => overflow = Some(format!("{value}{}", char::from(b))),
                }
            }
            self.bump();
        }
        let ends = match self.peek(at)? {
            None => true,
            Some(b) => is_blank(b) || b == b'\n',
        };
        if digits == 0 || !ends || (negative && value == 0 && overflow.is_none()) {
            let shown = if negative { "-" } else { "" }.to_string();
            let shown = if digits > 0 {
                format!("{shown}{value}")
            } else {
                shown
            };
            let found = self.rest_of_token(shown, at)?;
            return Err(Error::Step {
                at,
                problem: StepProblem::BadToken { expected, found },
            });
        }
        if let Some(shown) = overflow {
            let cut = if shown.len() < digits { "…" } else { "" };
            return Err(Error::Step {
                at,
                problem: StepProblem::NumberTooLarge {
                    found: format!("{}{shown}{cut}", if negative { "-" } else { "" }),
                    what: "a clause id",
                },
            });
        }
        // `value <= i64::MAX`, so the conversion and the negation are exact.
        let value = i64::try_from(value).unwrap_or(i64::MAX);
        Ok(Token::Int(if negative { -value } else { value }))
    }

    /// Consumes the newline ending a step (or nothing at the end).
    fn end_of_line(&mut self, at: Location) -> Result<(), Error> {
        match self.skip_blanks(at)? {
            None => Ok(()),
            Some(b'\n') => {
                self.bump();
                self.line += 1;
                Ok(())
            }
            Some(_) => {
                let found = self.rest_of_token(String::new(), at)?;
                Err(Error::Step {
                    at,
                    problem: StepProblem::Trailing { found },
                })
            }
        }
    }

    /// Reads the next text step into `step`; false at the end of the input.
    pub(crate) fn text_step(&mut self, step: &mut Step, max_len: usize) -> Result<bool, Error> {
        if !self.skip_comments()? {
            return Ok(false);
        }
        let at = Location::Line(self.line);
        step.at = at;
        step.lits.clear();
        step.ids.clear();
        let id = match self.token("a clause id", at)? {
            Token::Int(id) if id >= 0 => id.unsigned_abs(),
            Token::Int(id) => return Err(bad_token(at, "a clause id", id.to_string())),
            Token::Delete => return Err(bad_token(at, "a clause id", "d".to_string())),
            Token::End => return Err(self.truncated(at)),
        };
        let first = self.token("a literal, 0 or `d`", at)?;
        if let Token::Delete = first {
            // The id before `d` carries no meaning (CaDiCaL writes the last
            // added id, or 0 before any).
            step.kind = StepKind::Delete;
            self.id_list(
                &mut step.ids,
                "a clause id",
                "clause ids",
                false,
                max_len,
                at,
            )?;
            self.end_of_line(at)?;
            return Ok(true);
        }
        if id == 0 {
            return Err(Error::Step {
                at,
                problem: StepProblem::ZeroId,
            });
        }
        step.kind = StepKind::Add(id);
        self.text_literals(first, &mut step.lits, max_len, at)?;
        self.id_list(&mut step.ids, "a hint or 0", "hints", true, max_len, at)?;
        self.end_of_line(at)?;
        Ok(true)
    }

    /// Skips blank lines and comment lines: false at the end of the proof.
    fn skip_comments(&mut self) -> Result<bool, Error> {
        loop {
            let at = Location::Line(self.line);
            match self.skip_blanks(at)? {
                None => return Ok(false),
                Some(b'\n') => {
                    self.bump();
                    self.line += 1;
                }
                Some(b'c') => {
                    while let Some(b) = self.peek(at)? {
                        self.bump();
                        if b == b'\n' {
                            self.line += 1;
                            break;
                        }
                    }
                }
                Some(_) => return Ok(true),
            }
        }
    }

    /// A lemma's literals up to its `0`, from `token` on.
    fn text_literals(
        &mut self,
        mut token: Token,
        lits: &mut Vec<i32>,
        max_len: usize,
        at: Location,
    ) -> Result<(), Error> {
        loop {
            match token {
                Token::Int(0) => return Ok(()),
                Token::Int(lit) => {
                    if lit.unsigned_abs() > i32::MAX as u64 {
                        return Err(Error::Step {
                            at,
                            problem: StepProblem::NumberTooLarge {
                                found: lit.to_string(),
                                what: "a literal",
                            },
                        });
                    }
                    if lits.len() >= max_len {
                        return Err(Error::Step {
                            at,
                            problem: StepProblem::TooLong {
                                what: "literals",
                                max: max_len,
                            },
                        });
                    }
                    // In range by the check above.
                    lits.push(i32::try_from(lit).unwrap_or(i32::MAX));
                }
                Token::Delete => return Err(bad_token(at, "a literal or 0", "d".to_string())),
                Token::End => return Err(self.truncated(at)),
            }
            token = self.token("a literal or 0", at)?;
        }
    }

    /// Integers up to a `0`: hints (`signed`) or deleted ids.
    fn id_list(
        &mut self,
        ids: &mut Vec<i64>,
        expected: &'static str,
        what: &'static str,
        signed: bool,
        max_len: usize,
        at: Location,
    ) -> Result<(), Error> {
        loop {
            match self.token(expected, at)? {
                Token::Int(0) => return Ok(()),
                Token::Int(id) if id > 0 || signed => {
                    if ids.len() >= max_len {
                        return Err(Error::Step {
                            at,
                            problem: StepProblem::TooLong { what, max: max_len },
                        });
                    }
                    ids.push(id);
                }
                Token::Int(id) => {
                    return Err(Error::Step {
                        at,
                        problem: StepProblem::BadToken {
                            expected,
                            found: id.to_string(),
                        },
                    })
                }
                Token::Delete => {
                    return Err(Error::Step {
                        at,
                        problem: StepProblem::BadToken {
                            expected,
                            found: "d".to_string(),
                        },
                    })
                }
                Token::End => return Err(self.truncated(at)),
            }
        }
    }

    fn truncated(&mut self, at: Location) -> Error {
        match self.peek(at) {
            Ok(next) => Error::Step {
                at,
                problem: StepProblem::Truncated {
                    at_end: next.is_none(),
                },
            },
            Err(e) => e,
        }
    }
}

/// Binary LRAT, as CaDiCaL writes it: `a` id literals 0 hints 0, `d` ids 0;
/// every number a little-endian base-128 varint, literals as 2·var + sign,
/// ids as 2·|id| + sign.
impl<R: Read> Input<R> {
    fn varint(&mut self, at: Location) -> Result<u64, Error> {
        let mut value: u64 = 0;
        let mut shift = 0u32;
        loop {
            let Some(b) = self.peek(at)? else {
                return Err(Error::Step {
                    at,
                    problem: StepProblem::Truncated { at_end: true },
                });
            };
            self.bump();
            let bits = u64::from(b & 0x7f);
            if shift >= 64 || (shift > 0 && bits >> (64 - shift) != 0) {
                return Err(Error::Step {
                    at,
                    problem: StepProblem::NumberTooLarge {
                        found: "a varint".to_string(),
                        what: "a clause id",
                    },
                });
            }
            value |= bits << shift;
            if b & 0x80 == 0 {
                return Ok(value);
            }
            shift += 7;
        }
    }

    /// A binary id: 2·|id| + sign.
    fn binary_id(&mut self, at: Location) -> Result<i64, Error> {
        let raw = self.varint(at)?;
        if raw == 1 {
            return Err(Error::Step {
                at,
                problem: StepProblem::BadToken {
                    expected: "a clause id or 0",
                    found: "-0".to_string(),
                },
            });
        }
        // raw >> 1 < 2^63, so the conversion is exact.
        let magnitude = i64::try_from(raw >> 1).unwrap_or(i64::MAX);
        Ok(if raw & 1 == 1 { -magnitude } else { magnitude })
    }

    /// Reads the next binary step into `step`; false at the end of the input.
    pub(crate) fn binary_step(&mut self, step: &mut Step, max_len: usize) -> Result<bool, Error> {
        let at = Location::Byte(self.offset());
        step.at = at;
        step.lits.clear();
        step.ids.clear();
        let Some(kind) = self.peek(at)? else {
            return Ok(false);
        };
        self.bump();
        match kind {
            b'a' => {
                let id = self.binary_id(at)?;
                if id <= 0 {
                    return Err(Error::Step {
                        at,
                        problem: if id == 0 {
                            StepProblem::ZeroId
                        } else {
                            StepProblem::BadToken {
                                expected: "a clause id",
                                found: id.to_string(),
                            }
                        },
                    });
                }
                step.kind = StepKind::Add(id.unsigned_abs());
                loop {
                    let raw = self.varint(at)?;
                    if raw == 0 {
                        break;
                    }
                    let var = raw >> 1;
                    if var == 0 || var > i32::MAX as u64 {
                        return Err(Error::Step {
                            at,
                            problem: StepProblem::NumberTooLarge {
                                found: format!("variable {var}"),
                                what: "a literal",
                            },
                        });
                    }
                    if step.lits.len() >= max_len {
                        return Err(Error::Step {
                            at,
                            problem: StepProblem::TooLong {
                                what: "literals",
                                max: max_len,
                            },
                        });
                    }
                    let var = i32::try_from(var).unwrap_or(i32::MAX);
                    step.lits.push(if raw & 1 == 1 { -var } else { var });
                }
                self.binary_ids(&mut step.ids, "hints", true, max_len, at)?;
            }
            b'd' => {
                step.kind = StepKind::Delete;
                self.binary_ids(&mut step.ids, "clause ids", false, max_len, at)?;
            }
            byte => {
                return Err(Error::Step {
                    at,
                    problem: StepProblem::BadStepByte { byte },
                })
            }
        }
        Ok(true)
    }

    fn binary_ids(
        &mut self,
        ids: &mut Vec<i64>,
        what: &'static str,
        signed: bool,
        max_len: usize,
        at: Location,
    ) -> Result<(), Error> {
        loop {
            let id = self.binary_id(at)?;
            if id == 0 {
                return Ok(());
            }
            if id < 0 && !signed {
                return Err(Error::Step {
                    at,
                    problem: StepProblem::BadToken {
                        expected: "a clause id",
                        found: id.to_string(),
                    },
                });
            }
            if ids.len() >= max_len {
                return Err(Error::Step {
                    at,
                    problem: StepProblem::TooLong { what, max: max_len },
                });
            }
            ids.push(id);
        }
    }
}

/// A step with an unexpected token.
fn bad_token(at: Location, expected: &'static str, found: String) -> Error {
    Error::Step {
        at,
        problem: StepProblem::BadToken { expected, found },
    }
}
