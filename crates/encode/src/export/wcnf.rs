//! WCNF, the input format of the MaxSAT evaluations from 2022 on (no `p`
//! line; `h` before a hard clause, the weight before a soft one), for
//! solvers such as RC2 (PySAT), EvalMaxSAT and MaxHS.
//!
//! The hard clauses are the problem without a bound
//! ([`crate::problem::Problem::encode_unbounded`]: the chosen AMO encoding
//! and formulation, no counter); one soft unit clause of weight 1 per
//! square counts the pieces: `¬x` for domination (the cost is the number
//! of pieces, minimised), `x` for independence (the cost is the number of
//! empty squares, so pieces = squares − cost). The [`crate::export::Provenance`] comes
//! first as `c` lines; rustsat's writer then adds its own counts and the
//! clauses.

use std::io::{self, Write};

use rustsat::{
    clause,
    instances::{fio::dimacs::write_wcnf_annotated, Cnf},
    types::Clause,
};

use crate::{export::comment_lines, linear::Sense, problem::Encoding};

/// Writes the hard clauses `cnf` of `encoding` (from
/// [`crate::problem::Problem::encode_unbounded`]) and one soft unit clause
/// per square, with the provenance lines `comments` (see
/// [`crate::export::Provenance::lines`]) and a line naming the encodings.
///
/// # Errors
///
/// The writer's I/O errors.
pub fn write<W: Write + ?Sized>(
    out: &mut W,
    encoding: &Encoding,
    cnf: &Cnf,
    comments: &[String],
) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    for line in comment_lines(comments) {
        writeln!(out, "c {line}")?;
    }
    let config = encoding.config;
    writeln!(
        out,
        "c hard clauses: amo {}, formulation {}; soft clauses: one unit per square, weight 1",
        config.amo, config.formulation
    )?;
    let sense = Sense::of(encoding.problem.kind);
    let softs = encoding
        .problem
        .board_lits()
        .into_iter()
        .map(|x| -> (Clause, usize) {
            match sense {
                Sense::Minimise => (clause![!x], 1),
                Sense::Maximise => (clause![x], 1),
            }
        });
    write_wcnf_annotated(&mut out, cnf, (softs, 0), Some(encoding.stats.n_vars))?;
    out.flush()
}
