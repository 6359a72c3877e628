//! What a split is: the base formula every cube shares, the cubes with
//! their weights, and the header of every file — for N-queens counts
//! ([`Split::queens`]) and domination counts ([`Split::domination`]).

use boardsat_encode::{
    dimacs::{CubeTag, Format, Header},
    setting::{LibraryWords, Names, Setting},
    Amo, Board, Card, Config, Family, Kind, Piece, Problem, Symmetry,
};
use rustsat::{
    instances::{BasicVarManager, Cnf, ManageVars},
    types::{Lit, Var},
};

use boardsat_solve::{
    error::SolveError,
    formula::dimacs::Formula,
    search::{
        count::Reduction,
        lex::{break_symmetry, LexOrder, Line},
        pool::Cubes,
        queens::queen_cubes,
        rings::{representatives, ring_lines, split, LineCube, Rings},
    },
};

/// The single file of an iCNF split.
pub const ICNF: &str = "cubes.icnf";

/// Why a split could not be made or its spec read: the cases of a split's
/// own, a solving or encoding error otherwise. A message that names a
/// setting names it through [`SplitError::message`].
#[derive(Debug, thiserror::Error)]
pub enum SplitError {
    /// A split of a problem that is not domination on a square board.
    #[error("{}", self.message(&LibraryWords))]
    NotSquareDomination,
    /// A spec that is neither N-queens without k nor domination with k.
    #[error("cubes splits 'cubes queens N' and 'cubes domination N -k K' only")]
    NoSuchSplit,
    /// Lex-leader constraints in a split that cannot take them.
    #[error("{}", self.message(&LibraryWords))]
    LexLeaderNotApplicable,
    /// A cardinality encoding other than the default asked of an N-queens
    /// split, which has no bound k to encode.
    #[error("{}", self.message(&LibraryWords))]
    CardWithoutBound,
    /// Pieces asked of a split that is not a domination count.
    #[error("only the cubes of a domination split are split again")]
    NotSplitAgain,
    /// A `# spec` line with a word that is not a spec's (its key).
    #[error("the split's spec: bad {0}")]
    BadSpec(&'static str),
    /// Encoding or solving failed.
    #[error(transparent)]
    Solve(#[from] SolveError),
}

impl SplitError {
    /// The message, with the settings it names worded by `names`.
    #[must_use]
    pub fn message(&self, names: &dyn Names) -> String {
        let split = names.name(Setting::Split, None);
        let k = names.name(Setting::Pieces, None);
        match self {
            SplitError::NotSquareDomination => {
                format!("{split} splits domination counts on square boards ({split} domination N {k} K)")
            }
            SplitError::LexLeaderNotApplicable => format!(
                "lex-leader constraints go into the cube files of a domination split, one per orbit, one file per cube ({} with {split} domination N {k} K, one cube per orbit, {})",
                names.name(Setting::LexLeader, None),
                names.name(Setting::Format, Some("cnf")),
            ),
            SplitError::CardWithoutBound => format!(
                "{} encodes the bound of a domination split ({split} domination N {k} K): N-queens has no bound",
                names.name(Setting::Card, None),
            ),
            SplitError::Solve(e) => e.message(names),
            other => other.to_string(),
        }
    }
}

impl From<boardsat_encode::EncodeError> for SplitError {
    fn from(e: boardsat_encode::EncodeError) -> Self {
        SplitError::Solve(e.into())
    }
}

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
    /// In a split with lex-leader constraints ([`SplitSpec::lex`]): the
    /// constraints under the cube's stabilizer, after its literals, over
    /// variables of its own past the split's base; empty without.
    pub symmetry: Cnf,
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
                symmetry: Cnf::new(),
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
    /// symmetry breaking), so `merge` sums exact counts; [`Split::of`]
    /// adds lex-leader constraints to each cube with [`SplitSpec::lex`].
    ///
    /// # Errors
    ///
    /// [`SplitError::NotSquareDomination`] for a problem that is not domination on a
    /// square board; encoding errors.
    pub fn domination(
        problem: &Problem,
        k: usize,
        depth: usize,
        cubes: Cubes,
        config: Config,
        format: Format,
    ) -> Result<Split, SplitError> {
        if !problem.kind.dominating() || !problem.board.is_square() {
            return Err(SplitError::NotSquareDomination);
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
                symmetry: Cnf::new(),
            })
            .collect();
        let mut header = Header::for_encoding(&encoding, None);
        header.comments.push(format!(
            "{} cubes of depth {depth} for {problem} with at most {k} pieces ({}): {}",
            cubes.len(),
            if reduce {
                "one per orbit of the board's symmetries, weighted by its size"
            } else {
                "every cube"
            },
            line_variables(&encoding, n_vars, &lines),
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

/// The words of a header on the line variables: `variables a..=b are
/// the occupancy of the lines r0 r8 …`.
fn line_variables(encoding: &boardsat_encode::Encoding, n_vars: u32, lines: &[Line]) -> String {
    format!(
        "variables {}..={} are the occupancy of the lines {}",
        encoding.stats.n_vars + 1,
        n_vars,
        lines
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" "),
    )
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
    /// split that deep, weight 1 ([`SplitSpec::piece_split`]); `None` for
    /// a split of N-queens or one made without a spec.
    ///
    /// # Errors
    ///
    /// Encoding errors.
    pub fn piece(&self, piece: &LineCube) -> Result<Option<Split>, SplitError> {
        let Some(spec) = self
            .spec
            .filter(|s| s.family == Family::Domination && s.k.is_some())
        else {
            return Ok(None);
        };
        let one = PieceCube {
            id: piece.to_string(),
            weight: 1,
            cube: piece.clone(),
        };
        spec.piece_split(&one.id, std::slice::from_ref(&one))
            .map(Some)
    }
}

/// One piece of a job's cube split again past its budget: the cube one
/// ring deeper, its id, and its weight.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceCube {
    /// `<parent id>.<NN>`: NN is the piece's index among the parent's
    /// refinements ([`LineCube::children`]' order), two digits.
    pub id: String,
    /// How many cubes of the whole problem it stands for, as a root
    /// cube's weight does: its orbit's size under the board's symmetries
    /// (1 in a split of every cube).
    pub weight: u64,
    /// The cube.
    pub cube: LineCube,
}

impl SplitSpec {
    /// The cube of a job `round` rounds deep (a root cube in round 0, a
    /// piece of a round-0 job in round 1, …) from its description, and
    /// the board: `None` for an N-queens split, whose jobs are never split
    /// again.
    ///
    /// # Errors
    ///
    /// [`SolveError::BadCube`] for a description that is not a cube
    /// of that many rings.
    pub fn job_cube(
        &self,
        round: usize,
        description: &str,
    ) -> Result<Option<(Board, LineCube)>, SolveError> {
        if self.family != Family::Domination {
            return Ok(None);
        }
        let board = Board::square(self.n)?;
        let cube = LineCube::parse(&board, self.depth + round, description)?;
        Ok(Some((board, cube)))
    }

    /// Whether a job's `cube` on `board` can be split again: the next
    /// ring adds lines (some are left), and it is at most `max_depth`
    /// rings deep.
    #[must_use]
    pub fn splits(board: &Board, cube: &LineCube, max_depth: Option<usize>) -> bool {
        max_depth.is_none_or(|d| cube.depth < d)
            && ring_lines(board, cube.order, cube.depth + 1).len() > cube.lines.len()
    }

    /// The pieces of job `id`'s cube `parent` on `board`, of weight
    /// `weight`: the cubes of the next ring — every one, each of the
    /// parent's weight, in a split of every cube; else one per orbit under
    /// the parent's stabilizer in the board's symmetries, weighted by its
    /// orbit under the whole group, as the in-process re-split takes them
    /// ([`representatives`]).
    #[must_use]
    pub fn pieces(
        &self,
        board: &Board,
        id: &str,
        parent: &LineCube,
        weight: u64,
    ) -> Vec<PieceCube> {
        let children = parent.children(board);
        let index = |cube: &LineCube| children.iter().position(|c| c == cube).unwrap_or(0);
        let piece = |cube: LineCube, weight: u64| PieceCube {
            id: format!("{id}.{:02}", index(&cube)),
            weight,
            cube,
        };
        match self.cubes {
            Cubes::All => children
                .iter()
                .map(|cube| piece(cube.clone(), weight))
                .collect(),
            Cubes::OnePerOrbit => {
                let stabilizer = parent.stabilizer(board, &Symmetry::of(board));
                representatives(board, parent, &stabilizer, weight)
                    .into_iter()
                    .map(|r| piece(r.cube, r.orbit))
                    .collect()
            }
        }
    }

    /// The split that `pieces` of job `parent_id` make, one ring deeper
    /// than their parent: the base formula of that depth, each piece's
    /// literals, one DIMACS file each.
    ///
    /// # Errors
    ///
    /// [`SplitError::NotSplitAgain`] for a spec that is not a domination
    /// count or no pieces; encoding errors.
    pub fn piece_split(&self, parent_id: &str, pieces: &[PieceCube]) -> Result<Split, SplitError> {
        let (Some(k), Some(first)) = (
            self.k.filter(|_| self.family == Family::Domination),
            pieces.first(),
        ) else {
            return Err(SplitError::NotSplitAgain);
        };
        let problem = self.problem()?;
        let depth = first.cube.depth;
        let Lined {
            base,
            n_vars,
            encoding,
            lines,
            defined,
        } = lined(&problem, k, first.cube.order, depth, self.config())?;
        let mut header = Header::for_encoding(&encoding, None);
        header.comments.push(format!(
            "{} pieces of job {parent_id}, {depth} rings deep, for {problem} with at most {k} pieces: {}",
            pieces.len(),
            line_variables(&encoding, n_vars, &lines),
        ));
        let mut split = Split {
            header,
            base,
            n_vars,
            cubes: pieces
                .iter()
                .map(|p| CubeJob {
                    id: p.id.clone(),
                    weight: p.weight,
                    description: p.cube.to_string(),
                    lits: cube_lits(&p.cube, &lines, &defined),
                    symmetry: Cnf::new(),
                })
                .collect(),
            format: Format::Cnf,
            spec: Some(SplitSpec {
                depth,
                format: Format::Cnf,
                ..*self
            }),
        };
        if self.lex {
            break_in_cubes(&mut split, &problem.board, depth)?;
        }
        Ok(split)
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
    /// Domination: the cardinality encoding of the bound k (a second
    /// route's formulas differ from the first's by it).
    pub card: Card,
    /// One DIMACS file per cube, or one iCNF file.
    pub format: Format,
    /// Domination, one per orbit: each cube's file carries the
    /// lines-first lex-leader constraints under the cube's stabilizer, as
    /// the in-process count's cubes do, so a job's models are orbit
    /// representatives and its answer says how many placements they stand
    /// for ([`crate::JobResult::placements`]).
    pub lex: bool,
}

impl SplitSpec {
    /// The encoding's options: boardsat's defaults with the spec's
    /// at-most-one and cardinality encodings.
    pub(crate) fn config(&self) -> Config {
        Config {
            amo: self.amo,
            card: self.card,
            ..Config::default()
        }
    }

    /// The problem a domination split counts: queen domination on the
    /// n × n board.
    pub(crate) fn problem(&self) -> Result<Problem, SolveError> {
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
        // The cardinality encoding is written only when it is not the
        // default, so the spec lines of splits written before it keep
        // their meaning and their split ids.
        let card = if self.card == Card::default() {
            String::new()
        } else {
            format!(" card={}", self.card)
        };
        format!(
            "family={} n={} k={k} depth={} cubes={cubes} amo={}{card} format={}{}",
            self.family,
            self.n,
            self.depth,
            self.amo,
            self.format.name(),
            if self.lex { " lex=lines-first" } else { "" }
        )
    }

    /// The spec of a `# spec` line's words ([`SplitSpec::line`]).
    ///
    /// # Errors
    ///
    /// [`SplitError::BadSpec`] naming the word that is not a spec's.
    pub fn parse(words: &str) -> Result<SplitSpec, SplitError> {
        let bad = SplitError::BadSpec;
        let value = |key: &'static str| {
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
        let card = match value("card") {
            Ok(name) => name.parse().map_err(|_| bad("card"))?,
            Err(_) => Card::default(),
        };
        let format = Format::from_name(value("format")?).ok_or_else(|| bad("format"))?;
        // Written only when set: a spec without it breaks no symmetry.
        let lex = match value("lex") {
            Ok("lines-first") => true,
            Ok(_) => return Err(bad("lex")),
            Err(_) => false,
        };
        Ok(SplitSpec {
            family,
            n,
            k,
            depth,
            cubes,
            amo,
            card,
            format,
            lex,
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
    /// [`SplitError::NoSuchSplit`] for any other family or a missing or
    /// extra k; encoding errors.
    pub fn of(spec: &SplitSpec) -> Result<Split, SplitError> {
        let config = spec.config();
        let SplitSpec {
            n,
            depth,
            cubes,
            format,
            ..
        } = *spec;
        let mut split = match (spec.family, spec.k) {
            (Family::Queens, None) if spec.card != Card::default() => {
                Err(SplitError::CardWithoutBound)
            }
            (Family::Queens, None) => Ok(Split::queens(n, depth, cubes, config, format)?),
            (Family::Domination, Some(k)) => {
                Split::domination(&spec.problem()?, k, depth, cubes, config, format)
            }
            _ => Err(SplitError::NoSuchSplit),
        }?;
        if spec.lex {
            let board = spec.problem()?.board;
            let lexed = spec.family == Family::Domination
                && spec.cubes == Cubes::OnePerOrbit
                && format == Format::Cnf;
            if !lexed {
                return Err(SplitError::LexLeaderNotApplicable);
            }
            break_in_cubes(&mut split, &board, depth)?;
        }
        split.spec = Some(*spec);
        Ok(split)
    }
}

/// Adds to each cube of a domination split `depth` rings deep the
/// lines-first lex-leader constraints under the cube's stabilizer in the
/// board's symmetries, over fresh variables past the split's base; the
/// split's variables become the most any cube uses.
fn break_in_cubes(split: &mut Split, board: &Board, depth: usize) -> Result<(), SolveError> {
    let group = Symmetry::of(board);
    let base_vars = split.n_vars;
    for cube in &mut split.cubes {
        let stabilizer =
            LineCube::parse(board, depth, &cube.description)?.stabilizer(board, &group);
        let mut vars = BasicVarManager::default();
        vars.increase_next_free(Var::new(base_vars));
        let mut cnf = Cnf::new();
        break_symmetry(
            LexOrder::LinesFirst,
            board,
            &stabilizer,
            &mut cnf,
            &mut vars,
        )?;
        split.n_vars = split.n_vars.max(vars.n_used());
        cube.symmetry = cnf;
    }
    split.header.comments.push(LEX_LEADER_COMMENT.to_string());
    Ok(())
}

/// The header comment of every cube and piece file of a split with
/// lex-leader constraints ([`SplitSpec::lex`]): what a reader that is
/// given such a file without its spec (`merge`, a job) reconciles the
/// spec with.
pub const LEX_LEADER_COMMENT: &str = "each cube's file ends with the lines-first lex-leader constraints under the cube's stabilizer: its models are orbit representatives";

impl Split {
    /// The clauses of cube `i`'s own formula: the base clauses, then the
    /// cube's literals as units, then its lex-leader constraints, if any.
    #[must_use]
    pub fn cube_cnf(&self, i: usize) -> Cnf {
        let mut cnf = self.base.clone();
        for &lit in &self.cubes[i].lits {
            cnf.add_unit(lit);
        }
        for clause in self.cubes[i].symmetry.iter() {
            cnf.add_clause(clause.clone());
        }
        cnf
    }

    /// The formula job `i` reads from its DIMACS file (the cube's
    /// literals as units after the base clauses, the file's header and
    /// projection), made without writing the file.
    #[must_use]
    pub fn cube_formula(&self, i: usize) -> Formula {
        let header = self.cube_header(i, &self.header);
        let clauses = self
            .cube_cnf(i)
            .iter()
            .map(|clause| clause.iter().copied().collect())
            .collect();
        let projection = header.show.map(|show| (0..show).map(Var::new).collect());
        Formula::of_clauses(clauses, self.n_vars, projection, header.comments)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(n: usize, depth: usize, cubes: Cubes) -> SplitSpec {
        SplitSpec {
            family: Family::Domination,
            n,
            k: Some(5),
            depth,
            cubes,
            amo: Amo::default(),
            card: Card::default(),
            format: Format::Cnf,
            lex: false,
        }
    }

    /// The pieces of every cube of a split, one ring deeper: one per orbit
    /// of its refinements under its stabilizer, weighted so that the
    /// weights sum to the parent's times its refinements (every
    /// refinement stands in once), each the least of its orbit, with ids
    /// naming the refinement; a split of every cube has every refinement.
    #[test]
    fn pieces_are_the_refinements_one_per_orbit_of_the_stabilizer() {
        for (n, depth) in [(8, 0), (8, 1), (9, 1), (9, 2), (10, 1)] {
            for cubes in [Cubes::OnePerOrbit, Cubes::All] {
                let spec = spec(n, depth, cubes);
                let split = Split::of(&spec).unwrap();
                let board = Board::square(n).unwrap();
                let group = Symmetry::of(&board);
                for job in &split.cubes {
                    let (_, cube) = spec.job_cube(0, &job.description).unwrap().unwrap();
                    let pieces = spec.pieces(&board, &job.id, &cube, job.weight);
                    let children = cube.children(&board);
                    let total: u64 = pieces.iter().map(|p| p.weight).sum();
                    assert_eq!(
                        total,
                        job.weight * children.len() as u64,
                        "{n} {depth} {}",
                        job.id
                    );
                    let stabilizer = cube.stabilizer(&board, &group);
                    let mut covered = std::collections::BTreeSet::new();
                    for p in &pieces {
                        let index: usize = p.id.rsplit_once('.').unwrap().1.parse().unwrap();
                        assert_eq!(children[index], p.cube, "{}", p.id);
                        assert_eq!(p.cube.depth, cube.depth + 1);
                        let orbit: std::collections::BTreeSet<LineCube> = match cubes {
                            Cubes::All => [p.cube.clone()].into(),
                            Cubes::OnePerOrbit => stabilizer
                                .iter()
                                .map(|&s| p.cube.image(&board, s))
                                .collect(),
                        };
                        assert_eq!(orbit.first(), Some(&p.cube), "the least of its orbit");
                        assert_eq!(p.weight, job.weight * orbit.len() as u64, "{}", p.id);
                        for image in orbit {
                            assert!(covered.insert(image), "orbits meet at {}", p.id);
                        }
                    }
                    assert_eq!(covered.len(), children.len(), "every refinement once");
                }
            }
        }
    }

    /// The pieces' split: one DIMACS file each, the base formula of the
    /// deeper ring, each cube's literals; no rings left, no split.
    #[test]
    fn piece_splits_are_one_ring_deeper() {
        let spec = spec(8, 1, Cubes::OnePerOrbit);
        let board = Board::square(8).unwrap();
        let (_, cube) = spec.job_cube(0, "r0+r7-c0-c7+").unwrap().unwrap();
        let pieces = spec.pieces(&board, "cube-00003", &cube, 2);
        let split = spec.piece_split("cube-00003", &pieces).unwrap();
        assert_eq!(split.cubes.len(), pieces.len());
        assert_eq!(split.spec.map(|s| s.depth), Some(2));
        assert!(split.cubes.iter().all(|c| c.lits.len() == 8));
        assert!(split.header.comments.iter().any(|c| c.starts_with(&format!(
            "{} pieces of job cube-00003, 2 rings deep",
            pieces.len()
        ))));
        // The deeper split's base is the depth-2 split's.
        let deeper = Split::of(&SplitSpec { depth: 2, ..spec }).unwrap();
        assert_eq!(split.n_vars, deeper.n_vars);
        assert_eq!(split.base.len(), deeper.base.len());
        let every: String = (0..8)
            .map(|r| format!("r{r}+"))
            .chain((0..8).map(|c| format!("c{c}+")))
            .collect();
        let (_, last) = spec.job_cube(3, &every).unwrap().unwrap();
        assert!(!SplitSpec::splits(&board, &last, None));
        assert!(!SplitSpec::splits(&board, &cube, Some(1)));
        assert!(SplitSpec::splits(&board, &cube, Some(2)));
        assert!(SplitSpec::splits(&board, &cube, None));
        let queens = SplitSpec {
            family: Family::Queens,
            k: None,
            ..spec
        };
        assert!(queens.job_cube(0, "3,5").unwrap().is_none());
        assert!(queens.piece_split("cube-00000", &pieces).is_err());
    }

    /// A split's cardinality encoding is the spec's: the spec line names
    /// one that is not the default and reads back (a line without the word
    /// is the totalizer's, as every split written before it), each cube's
    /// formula is another formula than the totalizer's, and the pieces of
    /// a job split again keep it.
    #[test]
    fn a_split_in_another_cardinality_encoding_says_so_and_keeps_it() {
        let totalizer = SplitSpec {
            lex: true,
            ..spec(8, 1, Cubes::OnePerOrbit)
        };
        assert!(!totalizer.line().contains("card="));
        for card in [
            Card::SequentialCounter,
            Card::ModuloTotalizer,
            Card::CardinalityNetwork,
        ] {
            let other = SplitSpec { card, ..totalizer };
            let line = other.line();
            assert!(line.contains(&format!(" card={card} ")), "{line}");
            assert_eq!(SplitSpec::parse(&line).unwrap(), other);
            let (a, b) = (Split::of(&totalizer).unwrap(), Split::of(&other).unwrap());
            assert_eq!(a.cubes.len(), b.cubes.len());
            assert_ne!(a.base, b.base, "{card}");
            let board = Board::square(8).unwrap();
            let (_, cube) = other.job_cube(0, &b.cubes[1].description).unwrap().unwrap();
            let pieces = other.pieces(&board, &b.cubes[1].id, &cube, b.cubes[1].weight);
            let deeper = other.piece_split(&b.cubes[1].id, &pieces).unwrap();
            assert_eq!(deeper.spec.map(|s| s.card), Some(card));
        }
        assert!(SplitSpec::parse(&format!("{} card=nonsense", totalizer.line())).is_err());
        let queens = SplitSpec {
            family: Family::Queens,
            k: None,
            lex: false,
            card: Card::SequentialCounter,
            ..totalizer
        };
        let e = Split::of(&queens).unwrap_err();
        assert!(matches!(e, SplitError::CardWithoutBound), "{e}");
    }

    /// With lex-leader constraints, each cube's formula is the split's
    /// without them plus constraints under the stabilizer the in-process
    /// split gives that cube (the same symmetries, found from the cube's
    /// description), over variables past the base; pieces carry their
    /// own. The spec line says so and reads back; a spec without the word
    /// breaks nothing.
    #[test]
    fn lex_leader_cubes_end_with_constraints_under_their_stabilizers() {
        for (n, depth) in [(7, 1), (8, 1), (8, 2), (9, 2)] {
            let plain = spec(n, depth, Cubes::OnePerOrbit);
            let lexed = SplitSpec { lex: true, ..plain };
            assert_eq!(SplitSpec::parse(&lexed.line()).unwrap(), lexed);
            assert_eq!(SplitSpec::parse(&plain.line()).unwrap(), plain);
            assert!(lexed.line().ends_with(" lex=lines-first"));
            let (a, b) = (Split::of(&plain).unwrap(), Split::of(&lexed).unwrap());
            assert!(b.n_vars > a.n_vars);
            let board = Board::square(n).unwrap();
            let group = Symmetry::of(&board);
            let reps = split(&board, depth, Cubes::OnePerOrbit);
            assert_eq!(reps.len(), b.cubes.len());
            for (i, r) in reps.iter().enumerate() {
                let named = LineCube::parse(&board, depth, &b.cubes[i].description)
                    .unwrap()
                    .stabilizer(&board, &group);
                let (mut x, mut y) = (named.clone(), r.stabilizer.clone());
                x.sort_by_key(|s| format!("{s:?}"));
                y.sort_by_key(|s| format!("{s:?}"));
                assert_eq!(x, y, "{n} {depth} {}", r.cube);
                let (plain_cnf, lex_cnf) = (a.cube_cnf(i), b.cube_cnf(i));
                assert!(a.cubes[i].symmetry.is_empty());
                assert!(!b.cubes[i].symmetry.is_empty());
                assert_eq!(lex_cnf.len(), plain_cnf.len() + b.cubes[i].symmetry.len());
                assert!(plain_cnf.iter().zip(lex_cnf.iter()).all(|(p, l)| p == l));
            }
            let (_, cube) = lexed.job_cube(0, &b.cubes[0].description).unwrap().unwrap();
            let pieces = lexed.pieces(&board, &b.cubes[0].id, &cube, b.cubes[0].weight);
            let deeper = lexed.piece_split(&b.cubes[0].id, &pieces).unwrap();
            assert!(deeper.cubes.iter().all(|c| !c.symmetry.is_empty()));
            assert_eq!(deeper.spec.map(|s| s.lex), Some(true));
        }
        let icnf = SplitSpec {
            lex: true,
            format: Format::Inccnf,
            ..spec(8, 1, Cubes::OnePerOrbit)
        };
        assert!(Split::of(&icnf).is_err());
        let every = SplitSpec {
            lex: true,
            ..spec(8, 1, Cubes::All)
        };
        assert!(Split::of(&every).is_err());
    }
}
