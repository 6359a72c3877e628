//! The choices a user makes, as the library's messages name them.
//!
//! A message about a choice ("the split depth applies to split counts")
//! is written once, in the library, with each choice a [`Setting`]; the
//! caller names them: the library's own words ([`LibraryWords`], what
//! `Display` prints), the command line's flags (`--depth`), the Python
//! package's keywords (`depth=`). So a Python user never reads a flag,
//! and the command line's messages stay its own.
//!
//! ```
//! use boardsat_encode::setting::{LibraryWords, Names, Setting};
//!
//! assert_eq!(LibraryWords.name(Setting::Amo, Some("lazy")), "the at-most-one encoding lazy");
//! ```

/// A choice a user makes: a flag of the command line, a keyword of the
/// Python package.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Setting {
    /// The columns of a rectangular board.
    Cols,
    /// The piece.
    Piece,
    /// The number of pieces, k.
    Pieces,
    /// Independent domination.
    Independent,
    /// The at-most-one encoding.
    Amo,
    /// The cardinality encoding.
    Card,
    /// The formulation.
    Formulation,
    /// Building an encoding estimated too large all the same.
    Force,
    /// A limit on the placements counted.
    Limit,
    /// Counting orbits.
    Unique,
    /// The rows or rings fixed per cube of a split.
    Depth,
    /// The worker threads of a split.
    Threads,
    /// The time a cube runs before it is split again.
    CubeBudget,
    /// The cubes a sitting answers before it stops.
    StopAfterCubes,
    /// Counting without symmetry breaking.
    NoSymmetry,
    /// Mirror halving.
    Halve,
    /// Racing two cardinality encodings.
    Portfolio,
    /// The solver.
    Solver,
    /// An external solver's command line.
    SolverCommand,
    /// CaDiCaL's seed.
    Seed,
    /// One cube of an iCNF file.
    Cube,
    /// A file format.
    Format,
    /// A benchmark task.
    Task,
    /// Proofs of the result.
    Proof,
    /// Replacing a previous proof directory's or split's files.
    Replace,
    /// The time a split's job runs before it is split into the next
    /// round's pieces.
    JobBudget,
    /// Lex-leader constraints in a split's cube files.
    LexLeader,
    /// Writing a split as cube jobs (the command line's `cubes`).
    Split,
    /// Running a split's rounds on an engine until every job is
    /// answered (the command line's `jobs --run`).
    Rounds,
}

impl Setting {
    /// The setting in the library's words.
    #[must_use]
    pub const fn words(self) -> &'static str {
        match self {
            Setting::Cols => "a number of columns",
            Setting::Piece => "the piece",
            Setting::Pieces => "a number of pieces",
            Setting::Independent => "independent domination",
            Setting::Amo => "the at-most-one encoding",
            Setting::Card => "the cardinality encoding",
            Setting::Formulation => "the formulation",
            Setting::Force => "the force option",
            Setting::Limit => "a limit",
            Setting::Unique => "counting orbits",
            Setting::Depth => "the split depth",
            Setting::Threads => "the worker threads",
            Setting::CubeBudget => "the cube budget",
            Setting::StopAfterCubes => "a stop after a number of cubes",
            Setting::NoSymmetry => "turning symmetry breaking off",
            Setting::Halve => "mirror halving",
            Setting::Portfolio => "the portfolio",
            Setting::Solver => "the solver",
            Setting::SolverCommand => "an external solver's command",
            Setting::Seed => "the seed",
            Setting::Cube => "an iCNF cube",
            Setting::Format => "the format",
            Setting::Task => "the task",
            Setting::Proof => "proofs",
            Setting::Replace => "the replace option",
            Setting::JobBudget => "the job budget",
            Setting::LexLeader => "lex-leader constraints",
            Setting::Split => "the writing of a split",
            Setting::Rounds => "a run of the rounds",
        }
    }
}

/// How a caller names settings in the messages it shows: a setting
/// alone, or with the value it is given.
pub trait Names {
    /// `setting` (given `value`, if any) in the caller's terms.
    fn name(&self, setting: Setting, value: Option<&str>) -> String;
}

/// The library's own words ([`Setting::words`], the value after them):
/// what an error's `Display` says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LibraryWords;

impl Names for LibraryWords {
    fn name(&self, setting: Setting, value: Option<&str>) -> String {
        match value {
            Some(value) => format!("{} {value}", setting.words()),
            None => setting.words().to_string(),
        }
    }
}
