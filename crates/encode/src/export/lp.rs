//! CPLEX LP, the text format of integer programs that HiGHS, CBC, GLPK and
//! SCIP read. rustsat has no LP writer, so it is written here.
//!
//! The [`crate::export::Provenance`] comes first as `\` comment lines; then the objective
//! (`Minimize` or `Maximize` the pieces, or for a bound an empty
//! objective: a feasibility problem), `Subject To` with one named row per
//! constraint of [`crate::linear::Model`] (`row_3`, `cover_2_5`,
//! `attack_0_0_1_2`, `pieces`, see [`crate::linear::Part::name`]), every
//! variable `x1 … xN` under `Binary`, and `End`. Long sums continue on
//! the next line, a few terms to a line, so no line comes near the 255
//! characters some readers allow.

use std::io::{self, Write};

use rustsat::types::Lit;

use crate::{
    bound::Bound,
    export::comment_lines,
    linear::{Goal, Model, Sense},
};

/// Terms written on one line.
const TERMS_PER_LINE: usize = 10;

/// Writes `model` as CPLEX LP with the provenance lines `comments` (see
/// [`crate::export::Provenance::lines`]).
///
/// # Errors
///
/// The writer's I/O errors.
pub fn write<W: Write + ?Sized>(out: &mut W, model: &Model, comments: &[String]) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    for line in comment_lines(comments) {
        writeln!(out, "\\ {line}")?;
    }
    let board = model.problem.board_lits();
    match model.goal {
        Goal::Optimum(sense) => {
            let word = match sense {
                Sense::Minimise => "Minimize",
                Sense::Maximise => "Maximize",
            };
            writeln!(out, "{word}")?;
            write!(out, " pieces:")?;
            write_sum(&mut out, &board)?;
            writeln!(out)?;
        }
        Goal::Bound(_) => writeln!(out, "Minimize\n obj:")?,
    }
    writeln!(out, "Subject To")?;
    for c in &model.constraints {
        write!(out, " {}:", c.part.name())?;
        write_sum(&mut out, &c.lits)?;
        let (relation, k) = match c.bound {
            Bound::AtMost(k) => ("<=", k),
            Bound::AtLeast(k) => (">=", k),
            Bound::Exactly(k) => ("=", k),
        };
        writeln!(out, " {relation} {k}")?;
    }
    writeln!(out, "Binary")?;
    for chunk in board.chunks(TERMS_PER_LINE) {
        for &x in chunk {
            write!(out, " x{}", x.vidx32() + 1)?;
        }
        writeln!(out)?;
    }
    writeln!(out, "End")?;
    out.flush()
}

/// ` x1 + x2 + …`, a line break every few terms.
fn write_sum<W: Write>(out: &mut W, lits: &[Lit]) -> io::Result<()> {
    for (i, x) in lits.iter().enumerate() {
        if i > 0 && i % TERMS_PER_LINE == 0 {
            write!(out, "\n   ")?;
        }
        let plus = if i > 0 { " +" } else { "" };
        write!(out, "{plus} x{}", x.vidx32() + 1)?;
    }
    Ok(())
}
