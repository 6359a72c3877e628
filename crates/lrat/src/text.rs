//! Writing a proof out as text LRAT, step by step: what a checker that
//! reads only text (an external one, or a person) is given in place of
//! a binary proof, streamed, never a second copy on disk.
//!
//! The steps are read by the same streaming readers as [`crate::check`]
//! and written back unchanged, one per line; nothing is checked here. A
//! deletion's leading id, which means nothing, is the last added id (0
//! before the first addition).

use std::io::{Read, Write};

use crate::{
    checker::{Limits, Syntax},
    error::Error,
    parse::{Input, Step, StepKind},
};

/// Writes the proof `proof` (in `syntax`) to `out` as text LRAT, one step
/// per line: the number of steps written.
///
/// # Errors
///
/// [`Error::Step`] or [`Error::Io`] for a malformed or unreadable proof,
/// with its location; a failed write is an [`Error::Io`] at the step
/// being written.
pub fn write_text<R: Read, W: Write>(proof: R, syntax: Syntax, mut out: W) -> Result<u64, Error> {
    let mut input = Input::new(proof);
    let binary = match syntax {
        Syntax::Text => false,
        Syntax::Binary => true,
        Syntax::Detect => input.looks_binary()?,
    };
    let max_len = Limits::default().max_step_len;
    let mut step = Step::new();
    let mut line = String::new();
    let (mut steps, mut last_id) = (0u64, 0u64);
    loop {
        let more = if binary {
            input.binary_step(&mut step, max_len)?
        } else {
            input.text_step(&mut step, max_len)?
        };
        if !more {
            break;
        }
        steps += 1;
        line.clear();
        format_step(&step, &mut last_id, &mut line);
        out.write_all(line.as_bytes()).map_err(|source| Error::Io {
            at: step.at,
            source,
        })?;
    }
    out.flush().map_err(|source| Error::Io {
        at: step.at,
        source,
    })?;
    Ok(steps)
}

/// One step as a text line, `\n` included.
fn format_step(step: &Step, last_id: &mut u64, line: &mut String) {
    use std::fmt::Write as _;
    match step.kind {
        StepKind::Add(id) => {
            *last_id = id;
            let _ = write!(line, "{id}");
            for lit in &step.lits {
                let _ = write!(line, " {lit}");
            }
            line.push_str(" 0");
        }
        StepKind::Delete => {
            let _ = write!(line, "{last_id} d");
        }
    }
    for id in &step.ids {
        let _ = write!(line, " {id}");
    }
    line.push_str(" 0\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// CaDiCaL's binary encoding of one number (a literal or a signed id).
    fn varint(out: &mut Vec<u8>, value: i64) {
        let mut raw = (value.unsigned_abs() << 1) | u64::from(value < 0);
        loop {
            let byte = (raw & 0x7f) as u8;
            raw >>= 7;
            if raw == 0 {
                out.push(byte);
                return;
            }
            out.push(byte | 0x80);
        }
    }

    #[test]
    fn binary_steps_come_out_as_the_text_steps_they_are() {
        // 5 2 0 1 2 0 / 5 d 1 0 / 6 0 5 3 4 0, in binary.
        let mut bin = vec![b'a'];
        for v in [5, 2, 0, 1, 2, 0] {
            varint(&mut bin, v);
        }
        bin.push(b'd');
        for v in [1, 0] {
            varint(&mut bin, v);
        }
        bin.push(b'a');
        for v in [6, 0, 5, 3, 4, 0] {
            varint(&mut bin, v);
        }
        let mut text = Vec::new();
        assert_eq!(write_text(&bin[..], Syntax::Binary, &mut text).unwrap(), 3);
        let text = String::from_utf8(text).unwrap();
        assert_eq!(text, "5 2 0 1 2 0\n5 d 1 0\n6 0 5 3 4 0\n");
        // And the text checks as the binary does.
        let formula = [vec![1, 2], vec![-1, 2], vec![1, -2], vec![-1, -2]];
        let from_text = crate::check(&formula, text.as_bytes(), Syntax::Text).unwrap();
        let from_binary = crate::check(&formula, &bin[..], Syntax::Binary).unwrap();
        assert_eq!(from_text.n_steps, from_binary.n_steps);
        // Text comes out the same, comments and spacing aside.
        let mut again = Vec::new();
        write_text(
            "c a comment\n5  2 0 1 2 0\n\n5 d 1 0\n6 0 5 3 4 0\n".as_bytes(),
            Syntax::Detect,
            &mut again,
        )
        .unwrap();
        assert_eq!(String::from_utf8(again).unwrap(), text);
    }

    #[test]
    fn a_malformed_proof_is_an_error_with_its_place() {
        let e = write_text(&b"a\x0a\x04"[..], Syntax::Binary, std::io::sink()).unwrap_err();
        assert!(e.location().is_some(), "{e}");
        let e = write_text("5 2 x\n".as_bytes(), Syntax::Text, std::io::sink()).unwrap_err();
        assert_eq!(e.location(), Some(crate::Location::Line(1)), "{e}");
    }
}
