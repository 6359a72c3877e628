//! The benchmark plan: the matrix of encodings × backends × sizes × tasks,
//! and the cells it spans.
//!
//! A *cell* is one problem size, one task, one effective encoding and one
//! backend. Each cell is run R times; its sizes come from the encoder's own
//! statistics and its times are the median, min and max over the runs.
//!
//! ## Which cells are run ([`plan()`])
//!
//! Only choices that change the CNF multiply the matrix; a choice that does
//! not is `None` in the cell (shown as `-`) and its cell is run once:
//! - the AMO encoding matters only when pieces may not attack each other
//!   (independence, queens, independent domination); `lazy` (lines
//!   propagated inside CaDiCaL, [`boardsat_solve::backend::propagator`]) runs with CaDiCaL only,
//!   so `--amo auto,lazy` gives the rows "eager encodings vs lazy
//!   propagation", and a matrix of `lazy` without CaDiCaL is an error
//!   saying so, not an empty table;
//! - the formulation matters only where `lines` applies: queens, and rooks
//!   with k = min(rows, cols), for the tasks first and count; domination by
//!   queens, rooks and bishops for every task. Elsewhere `lines` falls back
//!   to `cardinality`;
//! - the cardinality encoding matters only where one is built: the
//!   `cardinality` formulation, domination, the optimum, and counting the
//!   optimal placements;
//! - `-k` matters only to the tasks first and count (the optimum finds
//!   it): with the optimum alone it is an error.

use boardsat_encode::{
    setting::{LibraryWords, Names, Setting},
    Amo, Card, Config, EncodeError, Family, Formulation, Kind, Piece, Problem, Request,
};
use boardsat_solve::{backend::spec::SolverKind, task::Encodings};

boardsat_encode::name_table! {
    /// A benchmark task.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum Task {
        /// One placement with k pieces.
        First = "first",
        /// Every placement with k pieces; without k, every optimal one.
        Count = "count",
        /// The optimum with its proof.
        Optimum = "optimum",
    }
}

/// One cell of the matrix, with choices that do not change the CNF set to
/// `None`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell {
    /// The task.
    pub task: Task,
    /// The problem.
    pub problem: Problem,
    /// The fixed number of pieces (first and count), or `None` for the
    /// optimum (and for counting the optimal placements).
    pub k: Option<usize>,
    /// The AMO encoding, where it matters.
    pub amo: Option<Amo>,
    /// The cardinality encoding, where it matters.
    pub card: Option<Card>,
    /// The effective formulation, where it matters.
    pub formulation: Option<Formulation>,
    /// The backend.
    pub solver: SolverKind,
}

impl Cell {
    /// The encoder's configuration; irrelevant choices take the defaults,
    /// which by construction do not change the CNF.
    #[must_use]
    pub fn config(&self) -> Config {
        Config {
            amo: self.amo.unwrap_or_default(),
            card: self.card.unwrap_or_default(),
            formulation: self.formulation.unwrap_or(Formulation::Cardinality),
        }
    }

    /// The request of the cell's problem and k, as a user would type it
    /// (N-queens as independence of n queens, the optimum without k): what
    /// [`boardsat_solve::task::Instance::new`] builds the cell's instance
    /// from, as it builds every command's.
    #[must_use]
    pub fn request(&self) -> Request {
        let board = self.problem.board;
        let family = if self.problem.kind.dominating() {
            Family::Domination
        } else {
            Family::Independence
        };
        Request {
            family,
            n: board.rows(),
            cols: Some(board.cols()),
            piece: Some(self.problem.piece),
            k: self.k,
            independent: self.problem.kind == Kind::IndependentDomination,
        }
    }

    /// The encodings the cell asks for: those that matter, the rest left
    /// to boardsat's choice (which does not change the CNF).
    #[must_use]
    pub fn encodings(&self) -> Encodings {
        Encodings {
            amo: self.amo,
            card: self.card,
            formulation: self.formulation,
        }
    }

    /// The board size.
    #[must_use]
    pub fn n(&self) -> usize {
        self.problem.board.rows()
    }

    /// The cell in one line: task, size, formulation, encodings, backend
    /// (`-` for choices that do not matter).
    #[must_use]
    pub fn label(&self) -> String {
        let dash = |name: Option<&'static str>| name.unwrap_or("-");
        format!(
            "{} n={} {} {} {} {}",
            self.task,
            self.n(),
            dash(self.formulation.map(Formulation::name)),
            dash(self.amo.map(Amo::name)),
            dash(self.card.map(Card::name)),
            self.solver
        )
    }

    /// The problem as tables name it: `queens`, or the kind and piece.
    #[must_use]
    pub fn problem_name(&self) -> String {
        match (self.problem.kind, self.problem.piece) {
            (Kind::Independence, Piece::Queen) => "queens".to_string(),
            (kind, piece) => format!("{kind} {piece}"),
        }
    }
}

/// What the matrix spans: the family as users name it and the lists to
/// multiply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Matrix {
    /// The problem family.
    pub family: Family,
    /// The piece (default queen).
    pub piece: Option<Piece>,
    /// Independent domination.
    pub independent: bool,
    /// k for first and count (queens: always n).
    pub k: Option<usize>,
    /// Board sizes.
    pub sizes: Vec<usize>,
    /// Tasks.
    pub tasks: Vec<Task>,
    /// AMO encodings.
    pub amos: Vec<Amo>,
    /// Cardinality encodings.
    pub cards: Vec<Card>,
    /// Formulations.
    pub formulations: Vec<Formulation>,
    /// Embedded backends (none: the default one).
    pub solvers: Vec<SolverKind>,
}

/// Why a matrix has no cells to run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// A size's request contradicts itself (the command line's and the
    /// library's message: [`Request::problem`]).
    #[error(transparent)]
    Request(#[from] EncodeError),
    /// An external backend: the bench times the embedded ones.
    #[error("bench runs the embedded backends only (varisat, cadical)")]
    External,
    /// `first` or `count` without k for a family that needs one.
    #[error("{}", self.message(&LibraryWords))]
    NoK,
    /// An encoding list (the setting) without a name.
    #[error("{}", self.message(&LibraryWords))]
    Empty(Setting),
    /// `-k` with no task that uses it.
    #[error("{}", self.message(&LibraryWords))]
    UnusedK,
    /// The matrix spans no cell: the lazy AMO without CaDiCaL (the
    /// backends of the matrix), or no size or no task.
    #[error("{}", self.message(&LibraryWords))]
    NoCells(Option<String>),
}

impl PlanError {
    /// The message, with the settings it names worded by `names` (its
    /// `Display` is the library's words).
    #[must_use]
    pub fn message(&self, names: &dyn Names) -> String {
        let task = |t: &str| names.name(Setting::Task, Some(t));
        let k = names.name(Setting::Pieces, None);
        match self {
            PlanError::Request(e) => e.message(names),
            PlanError::External => self.to_string(),
            PlanError::NoK => format!(
                "{} needs {k} for independence and domination (or use {})",
                task("first"),
                task("optimum")
            ),
            PlanError::Empty(setting) => {
                format!("{} names no encoding", names.name(*setting, None))
            }
            PlanError::UnusedK => format!(
                "{k} applies to the tasks first and count; {} finds the optimum itself",
                task("optimum")
            ),
            PlanError::NoCells(Some(solvers)) => format!(
                "nothing to run: {} runs with {} only (CaDiCaL propagates the lines), and the matrix has {solvers}",
                names.name(Setting::Amo, Some("lazy")),
                names.name(Setting::Solver, Some("cadical"))
            ),
            PlanError::NoCells(None) => {
                "nothing to run: the matrix spans no cell (no size or no task)".to_string()
            }
        }
    }
}

fn push_unique<T: PartialEq>(list: &mut Vec<T>, item: T) {
    if !list.contains(&item) {
        list.push(item);
    }
}

/// The cells, in output order: task, size, formulation, AMO, cardinality
/// encoding, backend; duplicates (a choice that does not change the CNF)
/// removed.
///
/// # Errors
///
/// [`PlanError`] for an external backend, a first/count task without k,
/// or a k larger than a board.
pub fn plan(matrix: &Matrix) -> Result<Vec<Cell>, PlanError> {
    let mut solvers = Vec::new();
    for &s in &matrix.solvers {
        if s == SolverKind::External {
            return Err(PlanError::External);
        }
        push_unique(&mut solvers, s);
    }
    if solvers.is_empty() {
        solvers.push(SolverKind::default_embedded());
    }
    let lists = [
        (Setting::Amo, matrix.amos.is_empty()),
        (Setting::Card, matrix.cards.is_empty()),
        (Setting::Formulation, matrix.formulations.is_empty()),
    ];
    if let Some(&(setting, _)) = lists.iter().find(|(_, empty)| *empty) {
        return Err(PlanError::Empty(setting));
    }
    let needs_k = matrix.family != Family::Queens && matrix.k.is_none();
    if needs_k && matrix.tasks.contains(&Task::First) {
        return Err(PlanError::NoK);
    }
    let uses_k = matrix.tasks.iter().any(|&t| t != Task::Optimum);
    if matrix.k.is_some() && !uses_k {
        return Err(PlanError::UnusedK);
    }
    let mut cells = Vec::new();
    for task in unique(&matrix.tasks) {
        for n in unique(&matrix.sizes) {
            // The same checks and messages as every other command.
            let request = Request {
                family: matrix.family,
                n,
                cols: None,
                piece: matrix.piece,
                k: matrix.k,
                independent: matrix.independent,
            };
            let (problem, k) = request.problem()?;
            let k = k.filter(|_| task != Task::Optimum);
            for cell in cells_of(matrix, task, problem, k, &solvers) {
                push_unique(&mut cells, cell);
            }
        }
    }
    if cells.is_empty() {
        let lazy_only = matrix.amos.iter().all(|a| a.is_lazy());
        let names: Vec<&str> = solvers.iter().map(|s| s.name()).collect();
        let lazy = lazy_only && !solvers.iter().any(|s| s.propagates_lines());
        return Err(PlanError::NoCells(lazy.then(|| names.join(", "))));
    }
    Ok(cells)
}

/// The distinct items of `list`, in order.
fn unique<T: PartialEq + Copy>(list: &[T]) -> Vec<T> {
    let mut out = Vec::new();
    for &item in list {
        push_unique(&mut out, item);
    }
    out
}

/// The cells of one task and size: every formulation, AMO, cardinality
/// encoding and backend, with the choices that do not change the CNF set
/// to `None` (duplicates follow, removed by the caller).
fn cells_of(
    matrix: &Matrix,
    task: Task,
    problem: Problem,
    k: Option<usize>,
    solvers: &[SolverKind],
) -> Vec<Cell> {
    let mut cells = Vec::new();
    // Without a k (the optimum task) only domination can use the lines
    // formulation.
    let k_or_open = k.unwrap_or(0);
    let formulation_matters = problem.lines_apply(k_or_open);
    for &formulation in &matrix.formulations {
        let effective = problem.effective_formulation(formulation, k_or_open);
        // Domination counts pieces in either formulation.
        let counts = effective == Formulation::Cardinality || problem.kind.dominating();
        for &amo in &matrix.amos {
            for &card in &matrix.cards {
                // The lazy AMO needs CaDiCaL's propagator, where an AMO
                // encoding is used at all.
                let lazy = amo.is_lazy() && problem.kind.independent();
                for &solver in solvers.iter().filter(|&&s| !lazy || s.propagates_lines()) {
                    cells.push(Cell {
                        task,
                        problem,
                        k,
                        amo: problem.kind.independent().then_some(amo),
                        card: counts.then_some(card),
                        formulation: formulation_matters.then_some(effective),
                        solver,
                    });
                }
            }
        }
    }
    cells
}
