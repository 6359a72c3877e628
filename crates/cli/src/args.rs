//! Command-line arguments (clap derive).

use std::path::PathBuf;

use boardsat_encode::{Amo, Card, Formulation, Piece};
use boardsat_solve::SolverKind;
use clap::{Args, Parser, Subcommand, ValueEnum};

/// Chessboard placement puzzles as SAT: N-queens, independence and
/// domination for queens, rooks, bishops, knights and kings.
#[derive(Debug, Parser)]
#[command(name = "boardsat", version, about, propagate_version = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Find one placement; without -k, the optimum with its proof.
    Solve(ProblemArgs),
    /// Count placements by blocking clauses; without -k, the optimal ones.
    Count(CountArgs),
    /// Print every placement, one per line.
    Enumerate(CountArgs),
    /// Write the CNF of a problem as DIMACS.
    Dimacs(DimacsArgs),
    /// Solve any DIMACS CNF file; SAT-competition output and exit codes.
    SolveDimacs(SolveDimacsArgs),
}

/// The puzzle families.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Family {
    /// n queens on an n×n board, no two attacking.
    Queens,
    /// k pieces, no two attacking (without -k: the maximum).
    Independence,
    /// At most k pieces covering every square (without -k: the minimum).
    Domination,
}

/// A piece, for clap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum PieceArg {
    /// Rows, columns and diagonals.
    #[default]
    Queen,
    /// Rows and columns.
    Rook,
    /// Diagonals.
    Bishop,
    /// (1, 2) leaps.
    Knight,
    /// One step in any direction.
    King,
}

impl From<PieceArg> for Piece {
    fn from(p: PieceArg) -> Self {
        match p {
            PieceArg::Queen => Piece::Queen,
            PieceArg::Rook => Piece::Rook,
            PieceArg::Bishop => Piece::Bishop,
            PieceArg::Knight => Piece::Knight,
            PieceArg::King => Piece::King,
        }
    }
}

/// A backend, for clap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SolverArg {
    /// varisat, pure Rust.
    Varisat,
    /// CaDiCaL, embedded.
    Cadical,
    /// An external DIMACS solver (--solver-cmd).
    External,
}

impl From<SolverArg> for SolverKind {
    fn from(s: SolverArg) -> Self {
        match s {
            SolverArg::Varisat => SolverKind::Varisat,
            SolverArg::Cadical => SolverKind::Cadical,
            SolverArg::External => SolverKind::External,
        }
    }
}

/// The problem and its encoding.
#[derive(Debug, Args)]
pub struct ProblemArgs {
    /// Puzzle family.
    #[arg(value_enum)]
    pub family: Family,
    /// Board size: rows (and columns unless --cols is given).
    pub n: usize,
    /// Columns, for a rectangular board.
    #[arg(long)]
    pub cols: Option<usize>,
    /// The piece (queens always places queens).
    #[arg(long, value_enum)]
    pub piece: Option<PieceArg>,
    /// Number of pieces: exactly k for independence, at most k for domination.
    #[arg(short = 'k', long = "pieces")]
    pub k: Option<usize>,
    /// Independent domination: the dominating pieces may not attack each other.
    #[arg(long)]
    pub independent: bool,
    /// Encodings.
    #[command(flatten)]
    pub encoding: EncodingArgs,
    /// Solver.
    #[command(flatten)]
    pub solver: SolverArgs,
    /// One JSON object on stdout instead of text.
    #[arg(long)]
    pub json: bool,
    /// Also draw the placement as an SVG picture into FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
}

/// Encoding choices.
#[derive(Debug, Args, Clone, Copy)]
pub struct EncodingArgs {
    /// At-most-one encoding: pairwise, ladder, bitwise, commander, product, bimander.
    #[arg(long, default_value = "pairwise", value_parser = parse_amo)]
    pub amo: Amo,
    /// Cardinality encoding: seqcounter, totalizer, mtotalizer, cardnetwork.
    #[arg(long, default_value = "totalizer", value_parser = parse_card)]
    pub card: Card,
    /// Formulation of independence: lines or cardinality.
    #[arg(long, default_value = "lines", value_parser = parse_formulation)]
    pub formulation: Formulation,
}

/// Solver choices.
#[derive(Debug, Args, Clone)]
pub struct SolverArgs {
    /// Backend (default: cadical when built in, else varisat; external when
    /// --solver-cmd is given).
    #[arg(long, value_enum)]
    pub solver: Option<SolverArg>,
    /// Command line of an external DIMACS solver, e.g. "minisat" or "cadical -q".
    #[arg(long, value_name = "COMMAND")]
    pub solver_cmd: Option<String>,
    /// Stop after this many seconds (for external solvers: each solver run).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub time_limit: Option<f64>,
    /// Random seed for the solver (CaDiCaL's `seed` option).
    #[arg(long)]
    pub seed: Option<i32>,
}

/// `count` and `enumerate`.
#[derive(Debug, Args)]
pub struct CountArgs {
    /// The problem.
    #[command(flatten)]
    pub problem: ProblemArgs,
    /// Stop after this many placements.
    #[arg(long)]
    pub limit: Option<u64>,
}

/// `dimacs`.
#[derive(Debug, Args)]
pub struct DimacsArgs {
    /// The problem.
    #[command(flatten)]
    pub problem: ProblemArgs,
    /// Write to FILE (atomically) instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// `solve-dimacs`.
#[derive(Debug, Args)]
pub struct SolveDimacsArgs {
    /// The DIMACS CNF file ("-" for stdin).
    pub file: PathBuf,
    /// Solver.
    #[command(flatten)]
    pub solver: SolverArgs,
    /// One JSON object on stdout instead of s / v lines.
    #[arg(long)]
    pub json: bool,
}

fn parse_amo(s: &str) -> Result<Amo, String> {
    s.parse()
        .map_err(|e: boardsat_encode::EncodeError| e.to_string())
}

fn parse_card(s: &str) -> Result<Card, String> {
    s.parse()
        .map_err(|e: boardsat_encode::EncodeError| e.to_string())
}

fn parse_formulation(s: &str) -> Result<Formulation, String> {
    s.parse()
        .map_err(|e: boardsat_encode::EncodeError| e.to_string())
}

fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err(format!("'{s}' is not a positive number of seconds")),
    }
}
