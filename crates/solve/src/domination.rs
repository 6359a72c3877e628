//! Domination counts split into cubes over threads.
//!
//! A *cube* fixes which of the `depth` central rings of rows and columns
//! are occupied (ring 0: the middle row and column, two of each on an
//! even side; each further ring adds the next line on both sides). The
//! `2^lines` cubes are disjoint and together exhaustive, so the count is
//! the sum of the cube counts. Each cube is counted by a fresh solver:
//!
//! - the bound as unit clauses, and in the `lines` formulation the implied
//!   line bounds ("k pieces occupy at most k lines of each direction") as
//!   unit clauses too ([`Fix::BoundAndImplied`]) — sound for counting,
//!   since every placement of at most k pieces satisfies them, and the
//!   reason a fresh solver counts much faster than the optimiser's
//!   session, which leaves them out of enumeration (BENCHMARKS.md);
//! - lex-leader constraints under the board's whole group with orbit
//!   weights, reading the occupancy of the rows and columns first
//!   ([`LexOrder`]): exact for any partition into cubes, since each
//!   orbit's leader lies in exactly one cube; a cube without leaders is
//!   refuted, and the models are the orbits;
//! - the cube as clauses over the board variables ("some square of this
//!   line", or "no square of it").
//!
//! With [`SplitOptions::cube_orbits`] only one cube per orbit of cubes is
//! solved, with lex-leader constraints under that cube's stabilizer (the
//! symmetries mapping it onto itself) instead of the whole group: an orbit
//! of placements meets the cubes of one orbit of cubes, and meets the
//! representative cube in exactly one orbit of its stabilizer, so each
//! orbit of placements still has exactly one model. The exported split
//! ([`split`]) also reduces to one cube per orbit, without symmetry
//! breaking inside the cubes.

use boardsat_encode::{
    dimacs::{Format, Header},
    symmetry, Amo, Board, Config, Family, Formulation, Kind, Piece, Placement, Problem, Square,
    Symmetry,
};
use rustsat::{
    instances::{Cnf, ManageVars},
    types::Lit,
};

use crate::{
    cubes::{run_cubes, CubeCount},
    jobs::{CubeJob, Split},
    Breaking, End, Fix, Interrupter, Mode, Search, Session, SolveError, SolverSpec, Status,
};

/// The central rings fixed per cube by default, for counts and decisions:
/// one (4 cubes on an odd side, 16 on an even one, before orbits of
/// cubes), measured against 0 and 2 (BENCHMARKS.md).
pub const DEFAULT_DEPTH: usize = 1;

/// A row or a column of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Line {
    /// Row `r`.
    Row(usize),
    /// Column `c`.
    Column(usize),
}

impl Line {
    /// The literals of the line's squares.
    #[must_use]
    pub fn lits(self, board: &Board) -> Vec<Lit> {
        match self {
            Line::Row(r) => (0..board.cols())
                .map(|c| board.lit(Square::new(r, c)))
                .collect(),
            Line::Column(c) => (0..board.rows())
                .map(|r| board.lit(Square::new(r, c)))
                .collect(),
        }
    }
}

impl std::fmt::Display for Line {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Line::Row(r) => write!(f, "r{r}"),
            Line::Column(c) => write!(f, "c{c}"),
        }
    }
}

/// The indices of the lines in the `depth` innermost rings of a side of
/// `n` lines: ring 0 the middle one (two when n is even), each further
/// ring one more on both sides.
fn rings(n: usize, depth: usize) -> Vec<usize> {
    let (low, high) = ((n - 1) / 2, n / 2);
    let mut out = Vec::new();
    for i in 0..depth {
        if let Some(l) = low.checked_sub(i) {
            out.push(l);
        }
        if high + i < n && high + i != low.wrapping_sub(i) {
            out.push(high + i);
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// A split of a domination count: the lines whose occupancy the cubes
/// fix, and the cubes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineSplit {
    /// The rows and columns of the `depth` central rings.
    pub lines: Vec<Line>,
    /// One cube per occupancy pattern: `cubes[i][j]` says whether line
    /// `lines[j]` is occupied in cube `i`, which is bit `j` of `i`.
    pub cubes: Vec<Vec<bool>>,
}

impl LineSplit {
    /// The split of `board` on its `depth` central rings of rows and
    /// columns (every pattern of their occupancy; `depth` 0 is one cube).
    ///
    /// # Errors
    ///
    /// [`SolveError::Unsupported`] for more than 16 lines (65,536 cubes).
    pub fn central(board: &Board, depth: usize) -> Result<Self, SolveError> {
        let mut lines: Vec<Line> = rings(board.rows(), depth)
            .into_iter()
            .map(Line::Row)
            .collect();
        lines.extend(rings(board.cols(), depth).into_iter().map(Line::Column));
        if lines.len() > 16 {
            return Err(SolveError::Unsupported(format!(
                "--depth {depth} fixes {} lines, 2^{} cubes; at most 16 lines",
                lines.len(),
                lines.len()
            )));
        }
        let cubes = (0..1u32 << lines.len())
            .map(|m| (0..lines.len()).map(|j| m >> j & 1 == 1).collect())
            .collect();
        Ok(LineSplit { lines, cubes })
    }

    /// Cube `i` as clauses over the board variables: an occupied line is
    /// one clause (some square of it), an empty one a unit per square.
    #[must_use]
    pub fn clauses(&self, board: &Board, i: usize) -> Vec<Vec<Lit>> {
        let mut out = Vec::new();
        let Some(cube) = self.cubes.get(i) else {
            return out;
        };
        for (&line, &occupied) in self.lines.iter().zip(cube) {
            let lits = line.lits(board);
            if occupied {
                out.push(lits);
            } else {
                out.extend(lits.into_iter().map(|l| vec![!l]));
            }
        }
        out
    }

    /// Cube `i` in words without spaces: `r5+c6-` (row 5 occupied, column
    /// 6 empty), `-` for the whole problem.
    #[must_use]
    pub fn describe(&self, i: usize) -> String {
        let Some(cube) = self.cubes.get(i) else {
            return "-".to_string();
        };
        if cube.is_empty() {
            return "-".to_string();
        }
        self.lines
            .iter()
            .zip(cube)
            .map(|(line, &on)| format!("{line}{}", if on { '+' } else { '-' }))
            .collect()
    }
}

/// The order in which lex-leader constraints read a placement: which
/// member of each orbit they keep. Both keep exactly one per orbit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum LexOrder {
    /// The board variables in row-major order
    /// ([`boardsat_encode::symmetry::lex_leader`], what `boardsat verify`
    /// re-derives).
    Board,
    /// The occupancy of the rows, then of the columns, then the board
    /// row-major: measured about twice as fast for queen domination counts
    /// (BENCHMARKS.md, issue 12), so the default.
    #[default]
    LinesFirst,
}

/// One position of the [`LexOrder::LinesFirst`] order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Item {
    Line(Line),
    Square(Square),
}

fn lines_first(board: &Board) -> Vec<Item> {
    let mut items: Vec<Item> = (0..board.rows())
        .map(|r| Item::Line(Line::Row(r)))
        .collect();
    items.extend((0..board.cols()).map(|c| Item::Line(Line::Column(c))));
    items.extend(board.squares().map(Item::Square));
    items
}

fn item_image(board: &Board, sym: Symmetry, item: Item) -> Item {
    match item {
        Item::Line(line) => Item::Line(line_image(board, sym, line)),
        Item::Square(sq) => Item::Square(sym.apply(board, sq)),
    }
}

/// The bits of `placement` in the order `items`.
fn item_bits(items: &[Item], placement: &Placement) -> Vec<bool> {
    let on: std::collections::HashSet<Square> = placement.squares().iter().copied().collect();
    items
        .iter()
        .map(|&item| match item {
            Item::Square(sq) => on.contains(&sq),
            Item::Line(Line::Row(r)) => on.iter().any(|sq| sq.row == r),
            Item::Line(Line::Column(c)) => on.iter().any(|sq| sq.col == c),
        })
        .collect()
}

/// Whether `placement` is the one member of its orbit that the
/// [`LexOrder::LinesFirst`] constraints keep.
#[must_use]
pub fn is_lines_first_leader(board: &Board, placement: &Placement) -> bool {
    is_lines_first_leader_under(board, &Symmetry::of(board), placement)
}

/// As [`is_lines_first_leader`] under the symmetries `group` only (a
/// subgroup of the board's, such as a cube's stabilizer).
#[must_use]
pub fn is_lines_first_leader_under(
    board: &Board,
    group: &[Symmetry],
    placement: &Placement,
) -> bool {
    let items = lines_first(board);
    let own = item_bits(&items, placement);
    group
        .iter()
        .all(|s| own <= item_bits(&items, &s.apply_placement(board, placement)))
}

/// Adds the [`LexOrder::LinesFirst`] lex-leader constraints under the
/// symmetries `group`: a variable per row and column defined as its
/// occupancy, then `x ≤lex σ(x)` for every non-identity σ of `group`, as
/// a chain of "equal so far" variables.
fn break_lines_first(
    board: &Board,
    group: &[Symmetry],
    cnf: &mut Cnf,
    vars: &mut dyn ManageVars,
) -> Result<(), SolveError> {
    let items = lines_first(board);
    let mut lits = Vec::with_capacity(items.len());
    for &item in &items {
        lits.push(match item {
            Item::Square(sq) => board.lit(sq),
            Item::Line(line) => {
                let w = vars.new_lit();
                let squares = line.lits(board);
                let mut some = vec![!w];
                some.extend(&squares);
                cnf.add_clause(some.into_iter().collect());
                for s in squares {
                    cnf.add_binary(!s, w);
                }
                w
            }
        });
    }
    let position: std::collections::HashMap<Item, usize> = items
        .iter()
        .enumerate()
        .map(|(i, &item)| (item, i))
        .collect();
    for &sym in group.iter().filter(|&&s| s != Symmetry::Identity) {
        let mut equal: Option<Lit> = None;
        for (i, &item) in items.iter().enumerate() {
            let j = position
                .get(&item_image(board, sym, item))
                .copied()
                .ok_or_else(|| SolveError::Unsupported("a symmetry left the board".to_string()))?;
            if j == i {
                continue;
            }
            let (x, y) = (lits[i], lits[j]);
            let guard: Vec<Lit> = equal.map(|e| vec![!e]).unwrap_or_default();
            let mut less = guard.clone();
            less.extend([!x, y]);
            cnf.add_clause(less.into_iter().collect());
            let next = vars.new_lit();
            let mut both = guard.clone();
            both.extend([!x, !y, next]);
            cnf.add_clause(both.into_iter().collect());
            let mut neither = guard;
            neither.extend([x, y, next]);
            cnf.add_clause(neither.into_iter().collect());
            equal = Some(next);
        }
    }
    Ok(())
}

/// Counts the placements of one cube on `session`: (weighted count,
/// models, end). With `order` [`LexOrder::LinesFirst`] the session holds
/// those constraints under `group`, so every model must be its leader
/// under `group` in that order and counts for its orbit under the whole
/// group.
fn count_cube(
    session: &mut Session,
    order: Option<LexOrder>,
    group: &[Symmetry],
) -> Result<(u64, u64, End), SolveError> {
    if order != Some(LexOrder::LinesFirst) {
        let c = session.count(None, Search::PerModel, |_| {})?;
        return Ok((c.count, c.models, c.end));
    }
    let board = session.problem().board;
    let (mut count, mut models) = (0u64, 0u64);
    let mut solutions = session.solutions(None);
    for result in solutions.by_ref() {
        let placement = match result {
            Ok(p) => p,
            Err(SolveError::Stopped { .. }) => break,
            Err(e) => return Err(e),
        };
        if !is_lines_first_leader_under(&board, group, &placement) {
            return Err(SolveError::NotLexLeader {
                placement: placement.to_string(),
            });
        }
        models += 1;
        count += symmetry::orbit_size(&board, &placement);
    }
    Ok((count, models, solutions.end().unwrap_or(End::Stopped)))
}

/// How [`count_split`] counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitOptions {
    /// At most `k` pieces.
    pub k: usize,
    /// Every solution has exactly `k` pieces (k is the proven optimum), so
    /// the short blocking clause is exact.
    pub uniform: bool,
    /// Central rings fixed per cube.
    pub depth: usize,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Lex-leader symmetry breaking in this order with orbit weights;
    /// `None` for none.
    pub symmetry: Option<LexOrder>,
    /// With `symmetry` [`LexOrder::LinesFirst`]: one cube per orbit of
    /// cubes, the lex-leader constraints under its stabilizer only (see
    /// the module doc); ignored otherwise.
    pub cube_orbits: bool,
}

impl SplitOptions {
    /// The options of a decision at most `k` ([`decide_split`],
    /// [`decide_race`]) as the optimiser and `solve -k` make it: the
    /// default depth, one cube per orbit of cubes, and lines-first
    /// lex-leader constraints when `symmetry` is set.
    #[must_use]
    pub fn decision(k: usize, threads: usize, symmetry: bool) -> Self {
        Self {
            k,
            uniform: false,
            depth: DEFAULT_DEPTH,
            threads,
            symmetry: symmetry.then_some(LexOrder::LinesFirst),
            cube_orbits: true,
        }
    }

    /// Whether only one cube per orbit of cubes is solved.
    fn per_orbit(&self) -> bool {
        self.cube_orbits && self.symmetry == Some(LexOrder::LinesFirst)
    }
}

/// Loads `problem` with at most `k` pieces for counting on a solver of
/// its own: the bound and, in the `lines` formulation, the implied line
/// bounds as unit clauses (see the module doc).
///
/// # Errors
///
/// Encoding and backend errors.
pub fn counting_session(
    problem: &Problem,
    k: usize,
    config: Config,
    backend: Box<dyn crate::Backend>,
) -> Result<Session, SolveError> {
    if problem.kind.dominating()
        && problem.effective_formulation(config.formulation, k) == Formulation::Lines
    {
        let mut session = Session::open(problem, k, config, backend)?;
        session.set_bound(problem.kind.bound(k))?;
        session.fix_bound(Fix::BoundAndImplied)?;
        return Ok(session);
    }
    Session::fixed(problem, k, config, backend)
}

/// Counts the (independent) dominating sets of at most `options.k` pieces
/// over the cubes of [`LineSplit::central`], one fresh solver per cube on
/// `options.threads` workers. `progress` is called after each cube with
/// the weighted count so far and the cubes done. With symmetry breaking
/// the models are the orbits.
///
/// # Errors
///
/// [`SolveError::Unsupported`] for a problem that is not domination; the
/// first error of any worker (the others stop at their next cube).
pub fn count_split(
    problem: &Problem,
    config: Config,
    options: SplitOptions,
    solver: &SolverSpec,
    stop: &Interrupter,
    progress: &(dyn Fn(u64, usize) + Sync),
) -> Result<CubeCount, SolveError> {
    let (split, picked) = domination_split(problem, &options)?;
    let (counted, _) = run_cubes(
        picked.len(),
        options.threads,
        stop,
        progress,
        |i, workers| {
            let backend = solver.create(Mode::Enumerate, workers)?;
            let (mut session, group) =
                cube_session(problem, config, &options, backend, &split, picked[i])?;
            if options.uniform {
                session.assume_uniform_size();
            }
            let (c, m, end) = count_cube(&mut session, options.symmetry, &group)?;
            Ok((c, m, end, ()))
        },
    )?;
    Ok(counted)
}

/// The split of a dominating problem on its `options.depth` central
/// rings, and the cubes to solve: every one, or one per orbit of cubes.
fn domination_split(
    problem: &Problem,
    options: &SplitOptions,
) -> Result<(LineSplit, Vec<usize>), SolveError> {
    if !problem.kind.dominating() {
        return Err(SolveError::Unsupported(
            "line cubes split domination only".to_string(),
        ));
    }
    let split = LineSplit::central(&problem.board, options.depth)?;
    let picked = if options.per_orbit() {
        split
            .orbits(&problem.board)
            .into_iter()
            .map(|(i, _)| i)
            .collect()
    } else {
        (0..split.cubes.len()).collect()
    };
    Ok((split, picked))
}

/// Cube `i` of `split` on its own solver: [`counting_session`] with the
/// lex-leader constraints of `options.symmetry` (under the cube's
/// stabilizer with [`SplitOptions::cube_orbits`], else the whole group)
/// and the cube's clauses; and that group.
fn cube_session(
    problem: &Problem,
    config: Config,
    options: &SplitOptions,
    backend: Box<dyn crate::Backend>,
    split: &LineSplit,
    i: usize,
) -> Result<(Session, Vec<Symmetry>), SolveError> {
    let board = problem.board;
    let group = if options.per_orbit() {
        split.stabilizer(&board, i)
    } else {
        Symmetry::of(&board)
    };
    let mut session = counting_session(problem, options.k, config, backend)?;
    match options.symmetry {
        Some(LexOrder::Board) => session.break_symmetry(Breaking::Hard)?,
        Some(LexOrder::LinesFirst) => {
            session.add_clauses_with(|cnf, vars| break_lines_first(&board, &group, cnf, vars))?;
        }
        None => {}
    }
    for clause in split.clauses(&board, i) {
        session.backend().add_clause(&clause)?;
    }
    Ok((session, group))
}

/// Decides whether `problem` has an (independent) dominating set of at
/// most `options.k` pieces, by cube-and-conquer: one fresh solver per cube
/// of [`LineSplit::central`] on `options.threads` workers, each with the
/// bound and the implied line bounds as unit clauses and the lex-leader
/// constraints of `options.symmetry` (every orbit keeps its leader, which
/// lies in exactly one cube, so the cubes are SAT together exactly when
/// the problem is). The first model found stops the other workers and is
/// the answer (checked like any model); UNSAT needs every cube refuted;
/// a search stopped by `stop` is UNKNOWN. The optimiser's refutations
/// run here when they can ([`crate::optimise_split`]): split over the
/// cores they measured faster than one solver even on one core
/// (BENCHMARKS.md).
///
/// # Errors
///
/// [`SolveError::Unsupported`] for a problem that is not domination; the
/// first error of any worker.
pub fn decide_split(
    problem: &Problem,
    config: Config,
    options: SplitOptions,
    solver: &SolverSpec,
    stop: &Interrupter,
) -> Result<(Status, Option<Placement>), SolveError> {
    let (split, picked) = domination_split(problem, &options)?;
    let (counted, found) = run_cubes(
        picked.len(),
        options.threads,
        stop,
        &|_, _| {},
        |i, workers| {
            let cube = || -> Result<(u64, u64, End, Option<Placement>), SolveError> {
                // CaDiCaL's options for enumeration (no elimination,
                // probing, subsumption or vivification) refute these small
                // formulas faster than its defaults (BENCHMARKS.md).
                let backend = solver.create(Mode::Enumerate, workers)?;
                let (mut session, _) =
                    cube_session(problem, config, &options, backend, &split, picked[i])?;
                Ok(match session.solve(Mode::Decide)? {
                    (Status::Sat, Some(placement)) => {
                        // One model answers the question: stop the others.
                        workers.interrupt();
                        (1, 1, End::Exhausted, Some(placement))
                    }
                    (Status::Unsat, _) => (0, 0, End::Exhausted, None),
                    _ => (0, 0, End::Stopped, None),
                })
            };
            // A worker stopped by another's model while loading its cube
            // leaves the cube unfinished; that is not an error.
            cube().or_else(|e| {
                if workers.is_interrupted() {
                    Ok((0, 0, End::Stopped, None))
                } else {
                    Err(e)
                }
            })
        },
    )?;
    if let Some(placement) = found.into_iter().find_map(|(_, p)| p) {
        return Ok((Status::Sat, Some(placement)));
    }
    Ok(if counted.end == End::Exhausted {
        (Status::Unsat, None)
    } else {
        (Status::Unknown, None)
    })
}

/// As [`decide_split`], racing one more solver that searches for a model
/// without symmetry breaking or cubes (the bound by assumptions, as a
/// call expected to be SAT): for a bound of unknown status, such as the
/// start a theorem gives the optimiser. Lex-leader constraints and cubes
/// make refutations cheap and models dear (BENCHMARKS.md): the first
/// definite answer stops the other side.
///
/// # Errors
///
/// As [`decide_split`]; an error of the side that lost the race is
/// dropped.
pub fn decide_race(
    problem: &Problem,
    config: Config,
    options: SplitOptions,
    solver: &SolverSpec,
    stop: &Interrupter,
) -> Result<(Status, Option<Placement>), SolveError> {
    let race = stop.child(None);
    let (split, seek) = std::thread::scope(|scope| {
        let seeker = scope.spawn(|| {
            let backend = solver.create(Mode::Decide, &race)?;
            let mut session = Session::fixed(problem, options.k, config, backend)?;
            let answer = session.solve(Mode::Decide)?;
            if answer.0 != Status::Unknown {
                race.interrupt();
            }
            Ok(answer)
        });
        let split = decide_split(problem, config, options, solver, &race);
        if split
            .as_ref()
            .is_ok_and(|(status, _)| *status != Status::Unknown)
        {
            race.interrupt();
        }
        let seek: Result<(Status, Option<Placement>), SolveError> =
            seeker.join().unwrap_or_else(|_| {
                Err(SolveError::Solver {
                    backend: solver.signature(),
                    message: "the model search of a race panicked".to_string(),
                })
            });
        (split, seek)
    });
    let definite = |r: &Result<(Status, Option<Placement>), SolveError>| {
        r.as_ref()
            .is_ok_and(|(status, _)| *status != Status::Unknown)
    };
    match (split, seek) {
        (split, _) if definite(&split) => split,
        (_, seek) if definite(&seek) => seek,
        // Neither side answered: stopped by the caller, or an error.
        _ if stop.is_interrupted() => Ok((Status::Unknown, None)),
        (Err(e), _) | (_, Err(e)) => Err(e),
        _ => Ok((Status::Unknown, None)),
    }
}

/// The image of `line` under `sym` (a row of a square board may become a
/// column).
fn line_image(board: &Board, sym: Symmetry, line: Line) -> Line {
    let swaps = board.cols() > 1
        && sym.apply(board, Square::new(0, 0)).row != sym.apply(board, Square::new(0, 1)).row;
    match line {
        Line::Row(r) => {
            let to = sym.apply(board, Square::new(r, 0));
            if swaps {
                Line::Column(to.col)
            } else {
                Line::Row(to.row)
            }
        }
        Line::Column(c) => {
            let to = sym.apply(board, Square::new(0, c));
            if swaps {
                Line::Row(to.row)
            } else {
                Line::Column(to.col)
            }
        }
    }
}

impl LineSplit {
    /// The image of cube `i` under `sym`, as an index into
    /// [`LineSplit::cubes`]. The lines of [`LineSplit::central`] are closed
    /// under the symmetries of the board (a line outside them would be a
    /// bug, kept in place).
    fn cube_image(&self, board: &Board, sym: Symmetry, i: usize) -> usize {
        let Some(cube) = self.cubes.get(i) else {
            return i;
        };
        let mut image = vec![false; cube.len()];
        for (j, &on) in cube.iter().enumerate() {
            let to = self
                .lines
                .iter()
                .position(|&l| l == line_image(board, sym, self.lines[j]))
                .unwrap_or(j);
            image[to] = on;
        }
        // Cube m occupies line j exactly when bit j of m is set
        // (LineSplit::central).
        image
            .iter()
            .enumerate()
            .fold(0, |m, (j, &on)| m | usize::from(on) << j)
    }

    /// One cube per orbit of cubes under the board's symmetries (the
    /// least in the order of [`LineSplit::cubes`]), with the orbit's size:
    /// a symmetry maps the placements of one cube onto those of its image
    /// one to one, so the weighted sum over the representatives is the
    /// count.
    #[must_use]
    pub fn orbits(&self, board: &Board) -> Vec<(usize, u64)> {
        let mut out = Vec::new();
        for i in 0..self.cubes.len() {
            let images: std::collections::BTreeSet<usize> = Symmetry::of(board)
                .into_iter()
                .map(|sym| self.cube_image(board, sym, i))
                .collect();
            if images.first() == Some(&i) {
                out.push((i, images.len() as u64));
            }
        }
        out
    }

    /// The symmetries of `board` that map cube `i` onto itself, identity
    /// first.
    #[must_use]
    pub fn stabilizer(&self, board: &Board, i: usize) -> Vec<Symmetry> {
        Symmetry::of(board)
            .into_iter()
            .filter(|&sym| self.cube_image(board, sym, i) == i)
            .collect()
    }
}

/// A domination count of at most `k` pieces split for the jobs pipeline
/// ([`crate::jobs::write_split`], `boardsat merge`): the encoding of
/// `boardsat dimacs` (the implied line bounds included as clauses), one
/// variable per split line defined as "some square of the line is
/// occupied", and one cube per occupancy pattern of the `depth` central
/// rings — with `reduce`, one per orbit of patterns, weighted by the
/// orbit's size. Each job counts every placement of its cube (no
/// symmetry breaking), so `merge` sums exact counts.
///
/// # Errors
///
/// [`SolveError::Unsupported`] for a problem that is not domination on a
/// square board; encoding errors.
pub fn split(
    problem: &Problem,
    k: usize,
    depth: usize,
    reduce: bool,
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
    let lines = LineSplit::central(&board, depth)?;
    let mut vars = problem.var_manager();
    let mut base = Cnf::new();
    let encoding = problem.encode(k, config, &mut base, &mut vars)?;
    let mut defined = Vec::new();
    for line in &lines.lines {
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
    let picked: Vec<(usize, u64)> = if reduce {
        lines.orbits(&board)
    } else {
        (0..lines.cubes.len()).map(|i| (i, 1)).collect()
    };
    let cubes: Vec<CubeJob> = picked
        .iter()
        .enumerate()
        .map(|(id, &(i, weight))| CubeJob {
            id: format!("cube-{id:05}"),
            weight,
            description: lines.describe(i),
            lits: defined
                .iter()
                .zip(&lines.cubes[i])
                .map(|(&w, &on)| if on { w } else { !w })
                .collect(),
        })
        .collect();
    let mut header = Header::for_encoding(&encoding, None);
    header.comments.push(format!(
        "{} cubes of depth {depth} for {problem} with at most {k} pieces ({}): variables {}..={} are the occupancy of the lines {}",
        cubes.len(),
        if reduce { "one per orbit of the board's symmetries, weighted by its size" } else { "every cube" },
        encoding.stats.n_vars + 1,
        vars.n_used(),
        lines.lines.iter().map(ToString::to_string).collect::<Vec<_>>().join(" "),
    ));
    if format == Format::Inccnf {
        header.comments.push(format!(
            "one 'a' line per cube after the clauses, in the order of the 'c cube' lines; count cube I (from 0) with: boardsat count-dimacs {} --cube I",
            crate::jobs::ICNF
        ));
    }
    Ok(Split {
        header,
        base,
        n_vars: vars.n_used(),
        cubes,
        format,
    })
}

impl Split {
    /// The split `boardsat cubes` writes: `cubes queens N` without `k`
    /// ([`Split::queens`], `reduce` halving), `cubes domination N -k K`
    /// with it ([`split`] of queen domination on the n × n board, `reduce`
    /// one cube per orbit), with the at-most-one encoding `amo`.
    ///
    /// # Errors
    ///
    /// [`SolveError::Unsupported`] for any other family or a missing or
    /// extra k; encoding errors.
    pub fn of(
        family: Family,
        n: usize,
        k: Option<usize>,
        depth: usize,
        reduce: bool,
        amo: Amo,
        format: Format,
    ) -> Result<Split, SolveError> {
        let config = Config {
            amo,
            ..Config::default()
        };
        match (family, k) {
            (Family::Queens, None) => Split::queens(n, depth, reduce, config, format),
            (Family::Domination, Some(k)) => {
                let problem = Problem::new(Board::square(n)?, Piece::Queen, Kind::Domination);
                split(&problem, k, depth, reduce, config, format)
            }
            _ => Err(SolveError::Unsupported(
                "cubes splits 'cubes queens N' and 'cubes domination N -k K' only".to_string(),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rings_are_central_and_symmetric() {
        assert_eq!(rings(13, 1), vec![6]);
        assert_eq!(rings(13, 2), vec![5, 6, 7]);
        assert_eq!(rings(12, 1), vec![5, 6]);
        assert_eq!(rings(12, 2), vec![4, 5, 6, 7]);
        assert_eq!(rings(1, 3), vec![0]);
        assert_eq!(rings(2, 3), vec![0, 1]);
        for n in 1..12 {
            for d in 0..7 {
                let r = rings(n, d);
                assert!(r.iter().all(|&i| r.contains(&(n - 1 - i))), "{n} {d}");
            }
        }
    }

    #[test]
    fn cube_orbits_cover_every_cube_once() {
        for n in 1..=9 {
            let board = Board::square(n).unwrap();
            for depth in 0..=3 {
                let split = LineSplit::central(&board, depth).unwrap();
                let orbits = split.orbits(&board);
                let total: u64 = orbits.iter().map(|&(_, w)| w).sum();
                assert_eq!(total, split.cubes.len() as u64, "n = {n}, depth {depth}");
                assert!(orbits.iter().all(|&(_, w)| [1, 2, 4, 8].contains(&w)));
                if depth > 0 && n > 1 {
                    assert!(orbits.len() < split.cubes.len(), "n = {n}, depth {depth}");
                }
            }
        }
    }

    #[test]
    fn a_stabilizer_fixes_its_cube_and_has_the_orbit_s_index() {
        for (rows, cols) in [(5, 5), (6, 6), (7, 7), (4, 6), (5, 7)] {
            let board = Board::new(rows, cols).unwrap();
            let group = Symmetry::of(&board).len() as u64;
            for depth in 0..=2 {
                let split = LineSplit::central(&board, depth).unwrap();
                for (i, size) in split.orbits(&board) {
                    let stabilizer = split.stabilizer(&board, i);
                    assert_eq!(stabilizer.first(), Some(&Symmetry::Identity));
                    assert_eq!(stabilizer.len() as u64 * size, group, "{rows}x{cols} {i}");
                    for sym in stabilizer {
                        assert_eq!(split.cube_image(&board, sym, i), i);
                    }
                }
            }
        }
    }
}
