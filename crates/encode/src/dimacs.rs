//! DIMACS CNF and incremental CNF (iCNF) output with provenance and
//! projection.
//!
//! The header says what the file is (cnfgen style): generator and version,
//! the command line when given, and the problem with its encodings. Then
//! projection lines, so that projected model counters (`c t pmc`, `c p show`
//! as in the model-counting competition, `c ind` as in ApproxMC and Ganak)
//! count placements, not assignments of auxiliary variables. The `p cnf`
//! line takes its variable count from the variable manager, never from the
//! largest literal seen: an auxiliary variable no clause mentions is still a
//! variable.

use std::io::{self, Write};

use rustsat::{instances::Cnf, types::Lit};

/// Board variables per projection line, to keep lines readable.
const SHOW_PER_LINE: usize = 64;

crate::name_table! {
    /// The file formats boardsat writes a problem in: DIMACS CNF and iCNF
    /// (this module), and beyond CNF the pseudo-Boolean, MaxSAT and
    /// integer-programming formats of [`crate::export`].
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
    pub enum Format {
        /// `p cnf <vars> <clauses>`.
        #[default]
        Cnf = "cnf",
        /// `p inccnf`: the base formula, then `a` (cube) lines
        /// ([`write_cube`]), the format of cube-and-conquer tools (march_cu
        /// writes it; iLingeling and CaDiCaL read it).
        Inccnf = "icnf" | "inccnf",
        /// OPB, the pseudo-Boolean competition format: the linear model
        /// ([`crate::linear`]) as native constraints
        /// ([`crate::export::opb`]).
        Opb = "opb",
        /// WCNF, the MaxSAT evaluation format of 2022 on: the clauses as
        /// hard clauses (`h`), one soft unit clause per square
        /// ([`crate::export::wcnf`]).
        Wcnf = "wcnf",
        /// CPLEX LP, read by HiGHS, CBC, GLPK and SCIP: the linear model as
        /// an integer program ([`crate::export::lp`]).
        Lp = "lp",
    }
}

impl Format {
    /// Whether this is DIMACS CNF or iCNF, what [`write()`] writes.
    #[must_use]
    pub const fn is_dimacs(self) -> bool {
        matches!(self, Format::Cnf | Format::Inccnf)
    }
}

/// What goes above the clauses.
#[derive(Clone, Debug, Default)]
pub struct Header {
    /// Comment lines, without the leading `c `.
    pub comments: Vec<String>,
    /// Project onto DIMACS variables `1..=show`, if set.
    pub show: Option<u32>,
    /// The `p` line's format.
    pub format: Format,
}

impl Header {
    /// A header with the generator line first.
    #[must_use]
    pub fn new() -> Self {
        Header {
            comments: vec![format!("generator: boardsat {}", env!("CARGO_PKG_VERSION"))],
            show: None,
            format: Format::Cnf,
        }
    }
}

impl Header {
    /// The provenance of `encoding`: the generator line, the command line
    /// that made it (written as `boardsat …`, never the path the program
    /// was run from, so that a file regenerated elsewhere has the same
    /// bytes), the problem and its encodings, and the projection onto the
    /// board variables.
    #[must_use]
    pub fn for_encoding(encoding: &crate::problem::Encoding, command_line: Option<&str>) -> Self {
        let mut header = Header::new();
        if let Some(line) = command_line {
            header
                .comments
                .push(format!("command line: boardsat {line}"));
        }
        header.comments.extend(encoding.describe());
        let n = encoding.stats.n_board_vars;
        header.comments.push(format!(
            "projection: the {n} board variables 1..{n} (square (r, c) is r*{} + c + 1)",
            encoding.problem.board.cols()
        ));
        header.show = Some(n);
        header
    }
}

/// Writes `cnf` over `n_vars` variables as DIMACS (or, with
/// [`Format::Inccnf`], as the base formula of an iCNF file, whose cubes
/// [`write_cube`] adds).
///
/// # Errors
///
/// The writer's I/O errors; [`io::ErrorKind::InvalidInput`] for a header
/// of a format that is not DIMACS ([`crate::export`] writes those).
pub fn write<W: Write + ?Sized>(
    out: &mut W,
    header: &Header,
    cnf: &Cnf,
    n_vars: u32,
) -> io::Result<()> {
    for line in &header.comments {
        for part in line.lines() {
            writeln!(out, "c {part}")?;
        }
    }
    if let Some(show) = header.show {
        writeln!(out, "c t pmc")?;
        for prefix in ["c p show", "c ind"] {
            let vars: Vec<u32> = (1..=show).collect();
            for chunk in vars.chunks(SHOW_PER_LINE) {
                write!(out, "{prefix}")?;
                for v in chunk {
                    write!(out, " {v}")?;
                }
                writeln!(out, " 0")?;
            }
        }
    }
    match header.format {
        Format::Cnf => writeln!(out, "p cnf {} {}", n_vars, cnf.len())?,
        Format::Inccnf => writeln!(out, "p inccnf")?,
        other => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{other} is not DIMACS: boardsat_encode::export writes it"),
            ))
        }
    }
    let mut line = String::new();
    for clause in cnf {
        line.clear();
        for &lit in clause {
            push_lit(&mut line, lit);
            line.push(' ');
        }
        line.push_str("0\n");
        out.write_all(line.as_bytes())?;
    }
    Ok(())
}

/// Writes one iCNF cube line, `a <literals> 0`.
///
/// # Errors
///
/// The writer's I/O errors.
pub fn write_cube<W: Write + ?Sized>(out: &mut W, cube: &[Lit]) -> io::Result<()> {
    let mut line = String::from("a");
    for &lit in cube {
        line.push(' ');
        push_lit(&mut line, lit);
    }
    line.push_str(" 0\n");
    out.write_all(line.as_bytes())
}

fn push_lit(line: &mut String, lit: Lit) {
    use std::fmt::Write as _;
    let _ = write!(line, "{}", lit.to_ipasir());
}

#[cfg(test)]
mod tests {
    use rustsat::{clause, lit};

    use super::*;

    #[test]
    fn header_counts_come_from_the_caller() {
        let mut cnf = Cnf::new();
        cnf.add_clause(clause![lit![0], !lit![1]]);
        let mut header = Header::new();
        header.show = Some(2);
        let mut out = Vec::new();
        write(&mut out, &header, &cnf, 5).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("c generator: boardsat "), "{text}");
        assert!(text.contains("c t pmc\nc p show 1 2 0\nc ind 1 2 0\np cnf 5 1\n1 -2 0\n"));
    }
}
