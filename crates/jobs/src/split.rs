//! What a split is: the base formula every cube shares, the cubes with
//! their weights, and the header of every file — for N-queens counts
//! ([`Split::queens`]) and domination counts ([`Split::domination`]).

use boardsat_encode::{
    dimacs::{CubeTag, Format, Header},
    Amo, Board, Config, Family, Kind, Piece, Problem,
};
use rustsat::{
    instances::{Cnf, ManageVars},
    types::Lit,
};

use boardsat_solve::{
    error::SolveError,
    search::{
        count::Reduction,
        lex::Line,
        pool::Cubes,
        queens::queen_cubes,
        rings::{ring_lines, split, LineCube, Rings},
    },
};

/// The single file of an iCNF split.
pub const ICNF: &str = "cubes.icnf";

/// One cube of a split.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CubeJob {
    /// `cube-00000`, …: the manifest id and the result's file name.
    pub id: String,
    /// How many solutions each model found under the cube stands for.
    pub weight: u64,
    /// A short description without spaces (for queens, the columns of the
    /// fixed rows joined by commas, `-` for none).
    pub description: String,
    /// The cube's literals.
    pub lits: Vec<Lit>,
}

/// A count split into cubes, ready to be written.
#[derive(Clone, Debug)]
pub struct Split {
    /// Comments and projection of every file.
    pub header: Header,
    /// The formula every cube shares.
    pub base: Cnf,
    /// Its variables.
    pub n_vars: u32,
    /// The cubes, disjoint and together exhaustive.
    pub cubes: Vec<CubeJob>,
    /// One DIMACS file per cube, or one iCNF file.
    pub format: Format,
    /// What it was made of, when [`Split::of`] made it.
    pub spec: Option<SplitSpec>,
}

impl Split {
    /// An N-queens count split on the queens of the first `depth` rows
    /// ([`queen_cubes`]); [`Cubes::OnePerOrbit`] is mirror halving (one
    /// cube per orbit of the left–right mirror, weighted by its size).
    ///
    /// # Errors
    ///
    /// Encoding errors.
    pub fn queens(
        n: usize,
        depth: usize,
        cubes: Cubes,
        config: Config,
        format: Format,
    ) -> Result<Split, SolveError> {
        let problem = Problem::queens(n)?;
        let halve = cubes == Cubes::OnePerOrbit;
        let reduction = if halve {
            Reduction::Halve
        } else {
            Reduction::None
        };
        let cubes: Vec<CubeJob> = queen_cubes(n, depth, reduction)
            .iter()
            .enumerate()
            .map(|(i, cube)| CubeJob {
                id: format!("cube-{i:05}"),
                weight: cube.weight,
                description: columns(&cube.columns),
                lits: cube
                    .squares()
                    .into_iter()
                    .map(|sq| problem.board.lit(sq))
                    .collect(),
            })
            .collect();
        let mut vars = problem.var_manager();
        let mut base = Cnf::new();
        let encoding = problem.encode(n, config, &mut base, &mut vars)?;
        let mut header = Header::for_encoding(&encoding, None);
        let reduced = if halve {
            "mirror halving"
        } else {
            "no reduction"
        };
        header.comments.push(format!(
            "{} cubes of depth {depth} for {n}-queens ({reduced}), queens of the first rows fixed",
            cubes.len()
        ));
        if format == Format::Inccnf {
            header.comments.push(format!(
                "one 'a' line per cube after the clauses; the 'c cube <id> weight <w> columns <cols>' lines above the 'a' lines list them in the same order; count cube I (from 0) with: boardsat count-dimacs {ICNF} --cube I"
            ));
        }
        Ok(Split {
            header,
            base,
            n_vars: encoding.stats.n_vars,
            cubes,
            format,
            spec: None,
        })
    }
}

/// Columns joined by commas, or `-` when there are none (depth 0).
fn columns(columns: &[usize]) -> String {
    if columns.is_empty() {
        return "-".to_string();
    }
    let columns: Vec<String> = columns.iter().map(ToString::to_string).collect();
    columns.join(",")
}

impl Split {
    /// A domination count of at most `k` pieces split for the jobs pipeline
    /// ([`crate::write_split`], `boardsat merge`): the encoding of
    /// `boardsat dimacs` (the implied line bounds included as clauses), one
    /// variable per split line defined as "some square of the line is
    /// occupied", and one cube per occupancy pattern of the `depth` outer
    /// rings — with [`Cubes::OnePerOrbit`], one per orbit of patterns, weighted by the
    /// orbit's size. Each job counts every placement of its cube (no
    /// symmetry breaking), so `merge` sums exact counts.
    ///
    /// # Errors
    ///
    /// [`SolveError::Unsupported`] for a problem that is not domination on a
    /// square board; encoding errors.
    pub fn domination(
        problem: &Problem,
        k: usize,
        depth: usize,
        cubes: Cubes,
        config: Config,
        format: Format,
    ) -> Result<Split, SolveError> {
        if !problem.kind.dominating() || !problem.board.is_square() {
            return Err(SolveError::Unsupported(
                "cubes splits domination counts on square boards ('cubes domination N -k K')"
                    .to_string(),
            ));
        }
        let board = problem.board;
        let Lined {
            base,
            n_vars,
            encoding,
            lines,
            defined,
        } = lined(problem, k, Rings::Outer, depth, config)?;
        let reduce = cubes == Cubes::OnePerOrbit;
        let cubes: Vec<CubeJob> = split(&board, depth, cubes)
            .iter()
            .enumerate()
            .map(|(id, r)| CubeJob {
                id: format!("cube-{id:05}"),
                weight: r.orbit,
                description: r.cube.to_string(),
                lits: cube_lits(&r.cube, &lines, &defined),
            })
            .collect();
        let mut header = Header::for_encoding(&encoding, None);
        header.comments.push(format!(
            "{} cubes of depth {depth} for {problem} with at most {k} pieces ({}): variables {}..={} are the occupancy of the lines {}",
            cubes.len(),
            if reduce { "one per orbit of the board's symmetries, weighted by its size" } else { "every cube" },
            encoding.stats.n_vars + 1,
            n_vars,
            lines.iter().map(ToString::to_string).collect::<Vec<_>>().join(" "),
        ));
        if format == Format::Inccnf {
            header.comments.push(format!(
                "one 'a' line per cube after the clauses, in the order of the 'c cube' lines; count cube I (from 0) with: boardsat count-dimacs {} --cube I",
                ICNF
            ));
        }
        Ok(Split {
            header,
            base,
            n_vars,
            cubes,
            format,
            spec: None,
        })
    }
}

/// A domination split's base formula `depth` rings deep: the encoding,
/// and one variable per ring line defined as "some square of the line is
/// occupied".
struct Lined {
    base: Cnf,
    n_vars: u32,
    encoding: boardsat_encode::Encoding,
    lines: Vec<Line>,
    defined: Vec<Lit>,
}

/// The base formula of a domination split of at most `k` pieces `depth`
/// rings deep in `order` ([`Lined`]).
fn lined(
    problem: &Problem,
    k: usize,
    order: Rings,
    depth: usize,
    config: Config,
) -> Result<Lined, SolveError> {
    let board = problem.board;
    let lines = ring_lines(&board, order, depth);
    let mut vars = problem.var_manager();
    let mut base = Cnf::new();
    let encoding = problem.encode(k, config, &mut base, &mut vars)?;
    let mut defined = Vec::new();
    for line in &lines {
        let w = vars.new_lit();
        let squares = line.lits(&board);
        let mut some: Vec<Lit> = vec![!w];
        some.extend(&squares);
        base.add_clause(some.into_iter().collect());
        for s in squares {
            base.add_binary(!s, w);
        }
        defined.push(w);
    }
    Ok(Lined {
        base,
        n_vars: vars.n_used(),
        encoding,
        lines,
        defined,
    })
}

/// The literals of `cube` over the line variables `defined` of `lines`.
fn cube_lits(cube: &LineCube, lines: &[Line], defined: &[Lit]) -> Vec<Lit> {
    cube.lines
        .iter()
        .map(|&(line, on)| {
            let w = defined[lines.iter().position(|&l| l == line).unwrap_or(0)];
            if on {
                w
            } else {
                !w
            }
        })
        .collect()
}

impl Split {
    /// The split of a single piece of a domination split made by
    /// [`Split::of`]: `piece`, a cube of ring lines of any depth (a
    /// refinement of one of the split's cubes, say), as the one job of a
    /// split that deep, weight 1; `None` for a split of N-queens or one
    /// made without a spec.
    ///
    /// # Errors
    ///
    /// Encoding errors.
    pub fn piece(&self, piece: &LineCube) -> Result<Option<Split>, SolveError> {
        let Some(spec) = self.spec.filter(|s| s.family == Family::Domination) else {
            return Ok(None);
        };
        let Some(k) = spec.k else { return Ok(None) };
        let problem = spec.problem()?;
        let Lined {
            base,
            n_vars,
            lines,
            defined,
            ..
        } = lined(&problem, k, piece.order, piece.depth, spec.config())?;
        Ok(Some(Split {
            header: self.header.clone(),
            base,
            n_vars,
            cubes: vec![CubeJob {
                id: piece.to_string(),
                weight: 1,
                description: piece.to_string(),
                lits: cube_lits(piece, &lines, &defined),
            }],
            format: self.format,
            spec: Some(SplitSpec {
                depth: piece.depth,
                cubes: Cubes::All,
                ..spec
            }),
        }))
    }
}

/// What a split is made of, as `boardsat cubes` is asked for it: enough
/// to build the split again ([`Split::of`]), which `MANIFEST` records on
/// its `# spec` line ([`SplitSpec::line`], [`SplitSpec::parse`]) so that a
/// verifier can re-derive every cube's formula.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitSpec {
    /// `queens` or `domination`.
    pub family: Family,
    /// The board's side.
    pub n: usize,
    /// Domination: at most k queens.
    pub k: Option<usize>,
    /// Rows (queens) or outer rings (domination) per cube.
    pub depth: usize,
    /// Every cube, or one per orbit.
    pub cubes: Cubes,
    /// The at-most-one encoding.
    pub amo: Amo,
    /// One DIMACS file per cube, or one iCNF file.
    pub format: Format,
}

impl SplitSpec {
    /// The encoding's options: boardsat's defaults with the spec's
    /// at-most-one encoding.
    fn config(&self) -> Config {
        Config {
            amo: self.amo,
            ..Config::default()
        }
    }

    /// The problem a domination split counts: queen domination on the
    /// n × n board.
    fn problem(&self) -> Result<Problem, SolveError> {
        Ok(Problem::new(
            Board::square(self.n)?,
            Piece::Queen,
            Kind::Domination,
        ))
    }

    /// The `key=value` words of the manifest's `# spec` line.
    #[must_use]
    pub fn line(&self) -> String {
        let k = self.k.map_or("-".to_string(), |k| k.to_string());
        let cubes = match self.cubes {
            Cubes::All => "all",
            Cubes::OnePerOrbit => "one-per-orbit",
        };
        format!(
            "family={} n={} k={k} depth={} cubes={cubes} amo={} format={}",
            self.family,
            self.n,
            self.depth,
            self.amo,
            self.format.name()
        )
    }

    /// The spec of a `# spec` line's words ([`SplitSpec::line`]).
    ///
    /// # Errors
    ///
    /// [`SolveError::Unsupported`] naming the word that is not a spec's.
    pub fn parse(words: &str) -> Result<SplitSpec, SolveError> {
        let bad = |what: &str| SolveError::Unsupported(format!("the split's spec: bad {what}"));
        let value = |key: &str| {
            words
                .split_whitespace()
                .find_map(|w| w.strip_prefix(key).and_then(|v| v.strip_prefix('=')))
                .ok_or_else(|| bad(key))
        };
        let family = value("family")?;
        let family = Family::from_name(family).ok_or_else(|| bad("family"))?;
        let n = value("n")?.parse().map_err(|_| bad("n"))?;
        let k = match value("k")? {
            "-" => None,
            k => Some(k.parse().map_err(|_| bad("k"))?),
        };
        let depth = value("depth")?.parse().map_err(|_| bad("depth"))?;
        let cubes = match value("cubes")? {
            "all" => Cubes::All,
            "one-per-orbit" => Cubes::OnePerOrbit,
            _ => return Err(bad("cubes")),
        };
        let amo = value("amo")?.parse().map_err(|_| bad("amo"))?;
        let format = Format::from_name(value("format")?).ok_or_else(|| bad("format"))?;
        Ok(SplitSpec {
            family,
            n,
            k,
            depth,
            cubes,
            amo,
            format,
        })
    }
}

impl Split {
    /// The split `boardsat cubes` writes: `cubes queens N` without `k`
    /// ([`Split::queens`]), `cubes domination N -k K` with it
    /// ([`Split::domination`] of queen domination on the n × n board), with
    /// the at-most-one encoding `amo`; [`Cubes::OnePerOrbit`] by default
    /// (`--no-halve`: [`Cubes::All`]).
    ///
    /// # Errors
    ///
    /// [`SolveError::Unsupported`] for any other family or a missing or
    /// extra k; encoding errors.
    pub fn of(spec: &SplitSpec) -> Result<Split, SolveError> {
        let config = spec.config();
        let SplitSpec {
            n,
            depth,
            cubes,
            format,
            ..
        } = *spec;
        let mut split = match (spec.family, spec.k) {
            (Family::Queens, None) => Split::queens(n, depth, cubes, config, format),
            (Family::Domination, Some(k)) => {
                Split::domination(&spec.problem()?, k, depth, cubes, config, format)
            }
            _ => Err(SolveError::Unsupported(
                "cubes splits 'cubes queens N' and 'cubes domination N -k K' only".to_string(),
            )),
        }?;
        split.spec = Some(*spec);
        Ok(split)
    }
}

impl Split {
    /// The clauses of cube `i`'s own formula: the base clauses, then the
    /// cube's literals as units.
    #[must_use]
    pub fn cube_cnf(&self, i: usize) -> Cnf {
        let mut cnf = self.base.clone();
        for &lit in &self.cubes[i].lits {
            cnf.add_unit(lit);
        }
        cnf
    }

    /// The header of cube `i`'s own formula: `header` and the cube's
    /// `boardsat-cube` line.
    #[must_use]
    pub fn cube_header(&self, i: usize, header: &Header) -> Header {
        let cube = &self.cubes[i];
        let mut header = header.clone();
        let tag = CubeTag::Job {
            id: cube.id.clone(),
            weight: cube.weight,
            fixed: cube.lits.len(),
            description: cube.description.clone(),
        };
        header.comments.push(tag.line());
        header
    }
}
