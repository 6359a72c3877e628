//! OPB, the input format of the pseudo-Boolean competitions (Roussel and
//! Manquinho), for solvers such as Exact, RoundingSat, minisat+ and SCIP.
//!
//! The first line is the competition header `* #variable= N
//! #constraint= M`; the [`crate::export::Provenance`] follows as `*` comments; then, for
//! an optimum, the objective `min: …;` (the format only minimises: the
//! most pieces is `min: -1 x1 -1 x2 …`, so a solver's `o` value is minus
//! the pieces); then one line per linear constraint of
//! [`crate::linear::Model`], in its order. rustsat's OPB writer writes the
//! lines, without negated literals, as the format's `>=` and `=` only: at
//! most one piece on a line is `-1 x1 -1 x2 … >= -1 ;`, a square's
//! coverage `1 x1 1 x2 … >= 1 ;`.

use std::io::{self, Write};

use rustsat::{
    instances::fio::opb::{write_opb_lines, FileLine, Options},
    types::{constraints::CardConstraint, Lit},
};

use crate::{
    bound::Bound,
    export::comment_lines,
    linear::{Goal, Model, Sense},
};

/// Writes `model` as OPB with the provenance lines `comments` (see
/// [`crate::export::Provenance::lines`]).
///
/// # Errors
///
/// The writer's I/O errors.
pub fn write<W: Write + ?Sized>(out: &mut W, model: &Model, comments: &[String]) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    let header = format!(
        "#variable= {} #constraint= {}",
        model.n_vars(),
        model.constraints.len()
    );
    let comments = std::iter::once(header.as_str())
        .chain(comment_lines(comments))
        .map(|c| FileLine::Comment(c.to_string()));
    let objective = match model.goal {
        Goal::Optimum(sense) => {
            let board = model.problem.board_lits();
            // rustsat writes a negated literal with weight 1 as `-1 x`.
            let terms: Vec<(Lit, usize)> = match sense {
                Sense::Minimise => board.into_iter().map(|l| (l, 1)).collect(),
                Sense::Maximise => board.into_iter().map(|l| (!l, 1)).collect(),
            };
            Some(FileLine::Objective(terms))
        }
        Goal::Bound(_) => None,
    };
    let constraints = model.constraints.iter().map(|c| {
        let lits = c.lits.iter().copied();
        FileLine::Card(match c.bound {
            Bound::AtMost(k) => CardConstraint::new_ub(lits, k),
            Bound::AtLeast(k) => CardConstraint::new_lb(lits, k),
            Bound::Exactly(k) => CardConstraint::new_eq(lits, k),
        })
    });
    write_opb_lines(
        &mut out,
        comments.chain(objective).chain(constraints),
        Options::default(),
    )?;
    out.flush()
}
