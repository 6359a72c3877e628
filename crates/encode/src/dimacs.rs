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

use crate::{board::Board, check::Placement};

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

/// What a formula's `c boardsat-cube` line says the formula is: one cube
/// of a split. [`CubeTag::line`] is the one writer of that line and
/// [`CubeTag::parse`] its one reader (the reader says which kind it
/// expects: the words alone do not tell a one-column N-queens cube from a
/// depth).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CubeTag {
    /// A job of an exported split: its id, its weight, how many literals
    /// it fixes, and the split's words for it.
    Job {
        /// The id, `cube-00007`.
        id: String,
        /// The weight.
        weight: u64,
        /// The literals the cube fixes.
        fixed: usize,
        /// The split's words for the cube.
        description: String,
    },
    /// A cube of rings of a domination split's claim: its depth and its
    /// words (`r0+c0-…`).
    Rings {
        /// The rings it fixes.
        depth: usize,
        /// Its words.
        cube: String,
    },
    /// A cube of an N-queens count's claim: the queens' columns in the
    /// first rows.
    Queens {
        /// The column of the queen in each of the first rows.
        columns: Vec<usize>,
    },
}

/// Which [`CubeTag`] a reader expects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CubeKind {
    /// [`CubeTag::Job`].
    Job,
    /// [`CubeTag::Rings`].
    Rings,
    /// [`CubeTag::Queens`].
    Queens,
}

impl CubeTag {
    /// The comment line, without the leading `c `.
    #[must_use]
    pub fn line(&self) -> String {
        match self {
            CubeTag::Job {
                id,
                weight,
                fixed,
                description,
            } => format!(
                "boardsat-cube {id} weight {weight} ({fixed} fixed literals: {description})"
            ),
            CubeTag::Rings { depth, cube } => format!("boardsat-cube {depth} {cube}"),
            CubeTag::Queens { columns } => {
                let words: Vec<String> = columns.iter().map(ToString::to_string).collect();
                format!("boardsat-cube {}", words.join(","))
            }
        }
    }

    /// The tag of the words after `boardsat-cube` (a formula's `cube`
    /// tag), read as `kind`; `None` when they are not one.
    #[must_use]
    pub fn parse(words: &str, kind: CubeKind) -> Option<CubeTag> {
        match kind {
            CubeKind::Job => {
                let (id, rest) = words.split_once(' ')?;
                let rest = rest.strip_prefix("weight ")?;
                let (weight, rest) = rest.split_once(" (")?;
                let (fixed, rest) = rest.split_once(" fixed literals: ")?;
                Some(CubeTag::Job {
                    id: id.to_string(),
                    weight: weight.parse().ok()?,
                    fixed: fixed.parse().ok()?,
                    description: rest.strip_suffix(')')?.to_string(),
                })
            }
            CubeKind::Rings => {
                let (depth, cube) = words.split_once(' ')?;
                Some(CubeTag::Rings {
                    depth: depth.parse().ok()?,
                    cube: cube.to_string(),
                })
            }
            CubeKind::Queens => {
                let columns = words
                    .split(',')
                    .map(|c| c.parse().ok())
                    .collect::<Option<Vec<usize>>>()?;
                Some(CubeTag::Queens { columns })
            }
        }
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

/// The placement a model sets on `board`: the squares whose variables
/// are true in `model` (indexed by variable, board variables first as
/// above; a model too short for a square leaves it empty).
#[must_use]
pub fn placement(board: &Board, model: &[bool]) -> Placement {
    Placement::new(
        board
            .squares()
            .filter(|&sq| model.get(board.var(sq).idx()).copied().unwrap_or(false))
            .collect(),
    )
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
    #[test]
    fn a_model_reads_as_the_squares_whose_variables_are_true() {
        let board = Board::new(2, 3).unwrap();
        // Variables 0..6 are the squares row by row; 6 and 7 are auxiliary.
        let model = [false, true, false, false, false, true, true, true];
        let found = super::placement(&board, &model);
        assert_eq!(
            found.squares(),
            &[
                crate::board::Square::new(0, 1),
                crate::board::Square::new(1, 2)
            ]
        );
        // A model that stops short leaves the rest of the board empty.
        assert_eq!(
            super::placement(&board, &model[..2]).squares(),
            &[crate::board::Square::new(0, 1)]
        );
        assert!(super::placement(&board, &[]).is_empty());
    }

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

    #[test]
    fn every_cube_line_reads_back_as_written() {
        let tags = [
            CubeTag::Job {
                id: "cube-00007".to_string(),
                weight: 8,
                fixed: 3,
                description: "r0+c0-".to_string(),
            },
            CubeTag::Rings {
                depth: 2,
                cube: "r0+c0-r1+c1-".to_string(),
            },
            CubeTag::Queens {
                columns: vec![1, 3, 0],
            },
            CubeTag::Queens { columns: vec![4] },
        ];
        for tag in tags {
            let kind = match tag {
                CubeTag::Job { .. } => CubeKind::Job,
                CubeTag::Rings { .. } => CubeKind::Rings,
                CubeTag::Queens { .. } => CubeKind::Queens,
            };
            let line = tag.line();
            let words = line.strip_prefix("boardsat-cube ").unwrap();
            assert_eq!(CubeTag::parse(words, kind), Some(tag), "{line}");
        }
        assert_eq!(CubeTag::parse("1,x", CubeKind::Queens), None);
        assert_eq!(CubeTag::parse("cube-1 weight", CubeKind::Job), None);
    }
}
