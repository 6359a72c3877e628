//! Command-line flags (clap derive): what the user typed, validated for
//! form only. [`crate::hiargs`] turns them into library objects. Each
//! subcommand takes only the options it uses, so `--help` lists exactly
//! those and anything else is an error.

use std::path::PathBuf;

use boardsat_bench::{plan::Task, plot::Measure};
use boardsat_encode::{
    dimacs::Format,
    setting::{Names, Setting},
    Amo, Card, Family, Formulation, Piece,
};
use boardsat_proof::trace::{Compression, ProofFormat as Written};
use boardsat_solve::backend::spec::SolverKind;
use clap::{
    builder::PossibleValuesParser, builder::TypedValueParser, Args, Parser, Subcommand, ValueEnum,
};

/// A parser for one of a library type's names (its name table), with
/// clap's list of possible values and its "did you mean" tips.
macro_rules! one_of {
    ($type:ty) => {
        one_of!($type, <$type>::NAMES)
    };
    ($type:ty, $names:expr) => {
        PossibleValuesParser::new($names)
            .try_map(|name| <$type>::from_name(&name).ok_or("not a known name"))
    };
}

/// Chessboard placement puzzles as SAT: N-queens, independence and
/// domination for queens, rooks, bishops, knights and kings.
#[derive(Debug, Parser)]
#[command(name = "boardsat", version, about, propagate_version = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
    /// Progress lines (`c progress: …`) on stderr even when it is not a
    /// terminal, at most one a second: for logs of long runs.
    #[arg(long, global = true)]
    pub progress: bool,
}

/// The command line's definition, with the version line (`--version`):
/// boardsat's version, the commit it was built from and the solver built
/// in. Parsing, `--help`, the completions and the man pages all use it.
pub fn command() -> clap::Command {
    use clap::CommandFactory;
    let solver = if cfg!(feature = "cadical") {
        format!(
            "{} embedded",
            boardsat_solve::backend::spec::SolverSpec::new(SolverKind::Cadical).signature()
        )
    } else {
        "pure Rust, varisat only".to_string()
    };
    // A short hash, as git log prints it, and whether the tree was dirty.
    let commit = boardsat_bench::run::COMMIT;
    let (hash, dirty) = commit.split_once('-').unwrap_or((commit, ""));
    let short = hash.get(..12).unwrap_or(hash);
    let dirty = if dirty.is_empty() { "" } else { "-dirty" };
    let version = format!(
        "{} (commit {short}{dirty}, {solver})",
        env!("CARGO_PKG_VERSION")
    );
    // clap keeps the version for the process's life.
    Cli::command().version(&*Box::leak(version.into_boxed_str()))
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Find one placement; without -k, the optimum with its proof.
    Solve(SolveArgs),
    /// Count placements by blocking clauses; without -k, the optimal ones.
    Count(CountArgs),
    /// Print every placement, one per line.
    Enumerate(EnumerateArgs),
    /// Write a problem as DIMACS CNF, or (--format) as OPB, WCNF or LP.
    Dimacs(DimacsArgs),
    /// Check an outside solver's solution of an OPB, WCNF or LP file that
    /// `dimacs --format` wrote.
    CheckSolution(CheckSolutionArgs),
    /// Solve any DIMACS CNF file; SAT-competition output and exit codes.
    SolveDimacs(SolveDimacsArgs),
    /// Benchmark encodings × solvers × sizes × tasks: sizes and times per cell.
    Bench(BenchArgs),
    /// Split a count — N-queens, or dominating sets with -k — into
    /// independent cube jobs (one DIMACS file per cube, or one iCNF file
    /// with `--format icnf`); with --estimate, project their CPU time from
    /// a sample.
    Cubes(CubesArgs),
    /// Count the projected models of any DIMACS file (or of one cube of an
    /// iCNF file, `--cube I`) by blocking clauses.
    CountDimacs(CountDimacsArgs),
    /// Run one job of a `cubes` directory (what each line of jobs.txt
    /// calls): count cube ID and write its answer to results/ID.json
    /// itself; a finished job is kept, a killed one runs again.
    Job(CubeJobArgs),
    /// Say what is done, split, running, failed and left in a `cubes`
    /// directory and list the next round's jobs; with --run, hand the
    /// rounds to an engine (this machine, GNU parallel, Slurm) until every
    /// job has its answer.
    Jobs(JobsArgs),
    /// Sum the answers of a `cubes` directory, checking every cube answered.
    Merge(MergeArgs),
    /// Check a `--proof` directory whole: every LRAT proof with boardsat's
    /// own checker, and the run's result derived from them (or one formula
    /// and its proof).
    Verify(VerifyArgs),
    /// Check the placements a published result file (docs/results/*.json)
    /// holds with the independent checker, in seconds; its proof is
    /// rebuilt by the file's command and checked by `verify`.
    Check(CheckArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish,
    /// powershell) for boardsat on stdout.
    Completions(CompletionsArgs),
    /// Write boardsat's man pages: boardsat(1) on stdout, or with -o DIR
    /// one page per command into DIR.
    Man(ManArgs),
}

/// `check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// A result file, as docs/results/ holds them.
    #[arg(value_name = "RESULT.json")]
    pub file: PathBuf,
    /// One JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

/// `completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// `man`.
#[derive(Debug, Args)]
pub struct ManArgs {
    /// Write boardsat.1 and one page per command (boardsat-solve.1, …)
    /// into this directory instead of boardsat.1 on stdout.
    #[arg(short = 'o', long = "output", value_name = "DIR")]
    pub output: Option<PathBuf>,
}

/// `verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// A directory written by `--proof DIR`, or a DIMACS formula followed
    /// by its LRAT proof.
    #[arg(num_args = 1..=2, required = true, value_name = "DIR | FORMULA.cnf PROOF.lrat")]
    pub paths: Vec<PathBuf>,
    /// One JSON object on stdout.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub checker: CheckerArgs,
    /// Claims checked at once (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// Keep a record in FILE of every proof accepted (by the SHA-256 of
    /// its formula, its proof and the checkers), and take from it the
    /// proofs an earlier `verify --record FILE` accepted, unchanged and
    /// with the same checkers (this boardsat binary, the same --checker),
    /// instead of checking them again: a check of many hours that is
    /// stopped goes on where it stood. Everything else is checked anew,
    /// and the last line says how many proofs came from the record
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
}

/// `--checker`: a second LRAT checker, not boardsat's, on every claim.
#[derive(Debug, Args, Clone)]
pub struct CheckerArgs {
    /// Also check every claim's formula and proof with this LRAT checker
    /// (e.g. cake_lpr, the formally verified one), run as `PROGRAM
    /// FORMULA.cnf PROOF`; it must exit 0 and print a line starting with
    /// `s VERIFIED`. Binary and compressed proofs reach it as text LRAT on
    /// its standard input (`/dev/stdin`). It adds to boardsat's checks,
    /// never replaces them, and the last line names it.
    #[arg(long, value_name = "PROGRAM")]
    pub checker: Option<PathBuf>,
    /// With --checker: the most it may take on one claim before the claim
    /// is rejected (default 3600).
    #[arg(long, value_name = "SECONDS", requires = "checker", value_parser = parse_seconds)]
    pub checker_timeout: Option<f64>,
}

/// `--proof`.
#[derive(Debug, Args, Clone)]
pub struct ProofArgs {
    /// Write an LRAT proof of every UNSAT answer the result depends on into
    /// DIR (with the formulas, the witnesses of DIMACS counts, and
    /// MANIFEST.json stating the result and how the run ended), checked by
    /// `boardsat verify DIR`. DIR must be new or empty (--replace replaces
    /// a previous proof directory's files) and is locked while the run
    /// writes it.
    #[arg(long, value_name = "DIR")]
    pub proof: Option<PathBuf>,
    /// Replace a previous proof directory's files in the --proof DIR
    /// (its manifest, claims, proofs and witnesses; nothing else).
    #[arg(long, requires = "proof")]
    pub replace: bool,
    /// Go on with the run that stopped in the --proof DIR (killed,
    /// interrupted, out of time): the cubes of its count that it proved
    /// stay as they are and are not solved again (with the same split:
    /// the same command, --cube-budget re-splits included); everything
    /// else is proven anew. A complete run is refused.
    #[arg(long, requires = "proof", conflicts_with = "replace")]
    pub resume: bool,
    /// With --proof: write the proofs that solvers trace as they answer
    /// (split cubes, DIMACS counts) as text LRAT or as CaDiCaL's binary
    /// LRAT, about half the size (for runs whose proofs take gigabytes).
    #[arg(long, value_name = "FORMAT", value_enum, default_value_t = ProofFormat::Text, requires = "proof")]
    pub proof_format: ProofFormat,
    /// With --proof: store the proofs that solvers trace as they are
    /// (NAME.lrat) or zstd-compressed (NAME.lrat.zst, about half the size
    /// again for binary LRAT; `verify` reads either, `zstd -d` gives other
    /// checkers the plain file).
    #[arg(long, value_name = "HOW", value_enum, default_value_t = ProofCompression::None, requires = "proof")]
    pub proof_compression: ProofCompression,
}

/// How `--proof` stores the proofs solvers trace (`--proof-compression`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ProofCompression {
    /// As written.
    #[default]
    None,
    /// zstd-compressed.
    Zstd,
}

impl ProofCompression {
    /// How the prover stores proofs.
    #[must_use]
    pub fn of(self) -> Compression {
        match self {
            ProofCompression::None => Compression::None,
            ProofCompression::Zstd => Compression::Zstd,
        }
    }
}

impl From<Compression> for ProofCompression {
    fn from(c: Compression) -> Self {
        match c {
            Compression::None => ProofCompression::None,
            Compression::Zstd => ProofCompression::Zstd,
        }
    }
}

/// How `--proof` writes the proofs solvers trace (`--proof-format`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ProofFormat {
    /// Text LRAT, one step per line.
    #[default]
    Text,
    /// CaDiCaL's binary LRAT.
    Binary,
}

impl ProofFormat {
    /// The format the prover writes.
    #[must_use]
    pub fn of(self) -> Written {
        match self {
            ProofFormat::Text => Written::LratText,
            ProofFormat::Binary => Written::LratBinary,
        }
    }
}

impl From<Written> for ProofFormat {
    fn from(format: Written) -> Self {
        match format {
            Written::LratText => ProofFormat::Text,
            Written::LratBinary => ProofFormat::Binary,
        }
    }
}

/// The problem: family, board, piece, k.
#[derive(Debug, Args, Clone)]
pub struct ProblemArgs {
    /// Puzzle family: queens (n queens on an n×n board, no two attacking),
    /// independence (k pieces, no two attacking; without -k the maximum),
    /// domination (at most k pieces covering every square; without -k the
    /// minimum).
    #[arg(value_parser = one_of!(Family))]
    pub family: Family,
    /// Board size: rows (and columns unless --cols is given).
    #[arg(allow_negative_numbers = true, value_parser = parse_size)]
    pub n: usize,
    /// Columns, for a rectangular board.
    #[arg(long, allow_negative_numbers = true, value_parser = parse_size)]
    pub cols: Option<usize>,
    /// The piece (queens always places queens).
    #[arg(long, value_parser = one_of!(Piece))]
    pub piece: Option<Piece>,
    /// Number of pieces: exactly k for independence, at most k for domination.
    #[arg(short = 'k', long = "pieces", allow_negative_numbers = true, value_parser = parse_pieces)]
    pub k: Option<usize>,
    /// Independent domination: the dominating pieces may not attack each other.
    #[arg(long)]
    pub independent: bool,
    #[command(flatten)]
    pub encoding: EncodingArgs,
    /// Build the encoding even when its estimated size is above the limit
    /// (200 million clauses or 8 GiB).
    #[arg(long)]
    pub force: bool,
}

/// Encoding choices.
#[derive(Debug, Args, Clone, Copy)]
pub struct EncodingArgs {
    /// At-most-one encoding: pairwise, ladder, bitwise, commander, product,
    /// bimander, auto (pairwise on short lines, product on long ones), or
    /// lazy (no clauses: CaDiCaL propagates the lines). Default: lazy to
    /// solve or count N-queens (and n rooks) with CaDiCaL, auto otherwise.
    #[arg(long, value_parser = parse::<Amo>)]
    pub amo: Option<Amo>,
    /// Cardinality encoding: seqcounter, totalizer (default), mtotalizer,
    /// cardnetwork.
    #[arg(long, value_parser = parse::<Card>)]
    pub card: Option<Card>,
    /// Formulation: lines (default) or cardinality.
    #[arg(long, value_parser = parse::<Formulation>)]
    pub formulation: Option<Formulation>,
}

/// Solver choices.
#[derive(Debug, Args, Clone)]
pub struct SolverArgs {
    /// Backend (default: cadical when built in, else varisat; external when
    /// --solver-cmd is given).
    #[arg(long, value_parser = one_of!(SolverKind))]
    pub solver: Option<SolverKind>,
    /// Command line of an external DIMACS solver, e.g. "minisat" or "cadical -q".
    #[arg(long, value_name = "COMMAND")]
    pub solver_cmd: Option<String>,
    /// Stop after this many seconds (the whole command).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = parse_seconds)]
    pub time_limit: Option<f64>,
    /// Random seed (CaDiCaL's `seed` option; cadical only).
    #[arg(long, allow_negative_numbers = true)]
    pub seed: Option<i32>,
}

impl Command {
    /// Whether the command prints JSON (`--json`), also when stopped early.
    pub fn json(&self) -> bool {
        match self {
            Command::Solve(a) => a.job.json,
            Command::Count(a) => a.job.json,
            Command::Enumerate(a) => a.job.json,
            Command::SolveDimacs(a) => a.formula.json,
            Command::CountDimacs(a) => a.formula.json,
            Command::Job(a) => a.json,
            Command::Jobs(a) => a.json,
            Command::CheckSolution(a) => a.json,
            Command::Check(a) => a.json,
            _ => false,
        }
    }
}

/// What `solve`, `count` and `enumerate` share: the problem, the solver,
/// proofs, JSON.
#[derive(Debug, Args)]
pub struct JobArgs {
    #[command(flatten)]
    pub problem: ProblemArgs,
    #[command(flatten)]
    pub proof: ProofArgs,
    #[command(flatten)]
    pub solver: SolverArgs,
    /// One JSON object on stdout instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    #[command(flatten)]
    pub job: JobArgs,
    /// Also draw the placement as an SVG picture into FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Without -k: race the --card encoding against a second one (the
    /// sequential counter, or the totalizer when --card is the sequential
    /// counter) on another thread; the first proof wins.
    #[arg(long)]
    pub portfolio: bool,
}

/// `count`.
#[derive(Debug, Args)]
pub struct CountArgs {
    #[command(flatten)]
    pub job: JobArgs,
    /// Stop after this many placements.
    #[arg(long)]
    pub limit: Option<u64>,
    /// Print the number of placements up to the board's symmetries (8 on a
    /// square, 4 on a rectangle; for N-queens OEIS A002562).
    #[arg(long)]
    pub unique: bool,
    /// Queens: rows fixed per cube; domination: outer rings of rows and
    /// columns fixed per cube (cubes are counted by fresh solvers, in parallel).
    #[arg(long)]
    pub depth: Option<usize>,
    /// Queens, domination: worker threads (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Domination: a cube whose solver runs longer than this many seconds
    /// is stopped and split again by the next ring of rows and columns,
    /// its pieces queued after the other cubes (the count stays exact).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub cube_budget: Option<f64>,
    /// End the count, as Ctrl-C would (exit 130), once this many cubes
    /// have their answer: a sitting measured in cubes rather than time
    /// (with --proof, --resume goes on where it stopped).
    #[arg(long, value_name = "CUBES")]
    pub stop_after_cubes: Option<usize>,
    /// No lex-leader symmetry breaking: the solver sees every placement.
    #[arg(long)]
    pub no_symmetry: bool,
    /// Queens: count the left half of the first row and double (exact; a
    /// reduction of its own, instead of lex-leader symmetry breaking: not
    /// with --no-symmetry).
    #[arg(long)]
    pub halve: bool,
}

/// `enumerate`.
#[derive(Debug, Args)]
pub struct EnumerateArgs {
    #[command(flatten)]
    pub job: JobArgs,
    /// Stop after this many placements.
    #[arg(long)]
    pub limit: Option<u64>,
}

/// `dimacs`.
#[derive(Debug, Args)]
pub struct DimacsArgs {
    #[command(flatten)]
    pub problem: ProblemArgs,
    /// Write to FILE (atomically) instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Also print a JSON object with the sizes (needs -o).
    #[arg(long)]
    pub json: bool,
    /// The file format: cnf (DIMACS, needs -k), opb (pseudo-Boolean
    /// competition), wcnf (MaxSAT evaluation 2022, the optimum: no -k) or
    /// lp (CPLEX LP, an integer program). Without -k, opb and lp state the
    /// optimum as an objective.
    #[arg(long, default_value = "cnf", value_parser = one_of!(Format, ["cnf", "opb", "wcnf", "lp"]))]
    pub format: Format,
}

/// `check-solution`.
#[derive(Debug, Args)]
pub struct CheckSolutionArgs {
    /// The OPB, WCNF or LP file written by `boardsat dimacs --format`.
    pub file: PathBuf,
    /// The solver's answer ("-" for stdin): `s`/`o`/`v` lines of the PB and
    /// MaxSAT evaluations, or a CBC or HiGHS solution file.
    pub solution: PathBuf,
    /// One JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

/// What `solve-dimacs` and `count-dimacs` share.
#[derive(Debug, Args)]
pub struct FormulaArgs {
    /// The DIMACS file ("-" for stdin); for count-dimacs `c p show` (or `c
    /// ind`) lines give the projection, and with --cube an iCNF file.
    pub file: PathBuf,
    #[command(flatten)]
    pub proof: ProofArgs,
    #[command(flatten)]
    pub solver: SolverArgs,
    /// One JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

/// `solve-dimacs`.
#[derive(Debug, Args)]
pub struct SolveDimacsArgs {
    #[command(flatten)]
    pub formula: FormulaArgs,
}

/// `cubes`.
#[derive(Debug, Args)]
pub struct CubesArgs {
    /// Puzzle family: queens (N queens on an N×N board), or domination
    /// with -k (at most k queens covering every square). Independence
    /// counts do not split into cube jobs.
    #[arg(value_parser = one_of!(Family, ["queens", "domination"]))]
    pub family: Family,
    /// Board size.
    #[arg(allow_negative_numbers = true, value_parser = parse_size)]
    pub n: usize,
    /// Domination: at most k queens (needed; e.g. the optimum from `solve`).
    #[arg(short = 'k', long = "pieces", allow_negative_numbers = true, value_parser = parse_pieces)]
    pub k: Option<usize>,
    /// Rows (queens) or outer rings of rows and columns (domination) per
    /// cube [default: 2].
    #[arg(long)]
    pub depth: Option<usize>,
    /// Write every cube, not the left half (queens) or one per orbit (domination).
    #[arg(long)]
    pub no_halve: bool,
    /// Domination: each cube's file also carries the lex-leader
    /// constraints under the cube's stabilizer, as the in-process count's
    /// cubes do, so a job counts orbit representatives and its answer
    /// records the placements they stand for (what `merge` sums; not with
    /// --no-halve or --format icnf).
    #[arg(long, conflicts_with = "no_halve")]
    pub lex_leader: bool,
    /// At-most-one encoding.
    #[arg(long, default_value = "auto", value_parser = parse::<Amo>)]
    pub amo: Amo,
    /// Domination: the cardinality encoding of the bound k: seqcounter,
    /// totalizer, mtotalizer, cardnetwork (recorded in the MANIFEST, so
    /// `merge --verify` re-derives the same formulas; a second route to a
    /// count takes another one).
    #[arg(long, default_value = "totalizer", value_parser = parse::<Card>)]
    pub card: Card,
    /// The directory for the cube files, MANIFEST, jobs.txt and results/
    /// (needed unless --estimate is given).
    #[arg(
        short = 'o',
        long = "output",
        value_name = "DIR",
        required_unless_present = "estimate"
    )]
    pub output: Option<PathBuf>,
    /// Each job also proves its count: an LRAT proof per cube in
    /// `proofs/<cube id>`, checked with the whole split by `boardsat merge
    /// --verify DIR` (needs -o).
    #[arg(long, requires = "output")]
    pub proof: bool,
    /// With --proof: the jobs write their proofs as text LRAT or as
    /// CaDiCaL's binary LRAT, about half the size (recorded in the
    /// MANIFEST, where the jobs read it).
    #[arg(long, value_name = "FORMAT", value_enum, default_value_t = ProofFormat::Text, requires = "proof")]
    pub proof_format: ProofFormat,
    /// With --proof: the jobs store their proofs as they are or
    /// zstd-compressed (recorded in the MANIFEST, where the jobs read it).
    #[arg(long, value_name = "HOW", value_enum, default_value_t = ProofCompression::None, requires = "proof")]
    pub proof_compression: ProofCompression,
    /// Solve N cubes chosen at random, each as its job would, and print
    /// the projected CPU time of every cube with a 95 % interval and the
    /// longest cube seen (with -o, the split is written too).
    #[arg(long, value_name = "N")]
    pub estimate: Option<usize>,
    /// With --estimate: stop a cube's solver after this many seconds; a
    /// domination cube is then projected from a random piece of it split
    /// by the next ring (the time of its pieces as jobs), and only when
    /// the rings run out is the projection a lower bound, saying so.
    #[arg(long, value_name = "SECONDS", requires = "estimate", value_parser = parse_seconds)]
    pub cube_limit: Option<f64>,
    /// With --estimate: the seed of the random choice of cubes.
    #[arg(long, default_value_t = 1, requires = "estimate")]
    pub seed: u64,
    /// With --estimate: worker threads (default 1); each cube's time is
    /// its own solver's wall time, so use no more threads than free cores.
    #[arg(long, requires = "estimate")]
    pub threads: Option<usize>,
    /// With --estimate: the split refutes -k (fewer pieces than the
    /// optimum, so no cube holds a placement): each cube is solved as a
    /// refutation, and a placement found — by a search as `solve -k` makes
    /// it for up to a minute first, or in a sampled cube — ends with exit 2,
    /// since there is nothing to refute (best effort: a bound whose
    /// placement neither finds is projected).
    #[arg(long, requires = "estimate")]
    pub refute: bool,
    /// With --estimate: sample the cubes the in-process run solves instead
    /// of the exported ones, one per orbit, each with the lex-leader
    /// constraints under its stabilizer: with --refute, those `solve
    /// domination N` refutes (two outer rings deep; --depth does not
    /// apply), else those `count domination N -k K --depth D` counts
    /// (their models are orbit representatives); --no-halve does not
    /// apply. A cube past --cube-limit is projected from a random piece of
    /// its next ring, as the in-process run re-splits it.
    #[arg(long, requires = "estimate")]
    pub in_process: bool,
    /// Domination: a job whose solver runs longer is stopped and split
    /// into the pieces of its next ring (one per orbit under its
    /// stabilizer), written as the jobs of the next round (`boardsat jobs
    /// DIR` lists them).
    #[arg(long, value_name = "SECONDS", requires = "output", allow_negative_numbers = true, value_parser = parse_seconds)]
    pub job_budget: Option<f64>,
    /// With --job-budget: split no deeper than this many rings (a job
    /// that deep runs to its end); default: until every row and column
    /// is fixed.
    #[arg(long, value_name = "RINGS", requires = "job_budget")]
    pub max_depth: Option<usize>,
    /// Replace a previous split in DIR (needs -o): only the regular files a
    /// split writes are removed, no symbolic link is followed, and a
    /// directory that holds no split is refused.
    #[arg(long, requires = "output")]
    pub replace: bool,
    /// Also print a JSON summary on stdout.
    #[arg(long)]
    pub json: bool,
    /// How to write the cubes: one DIMACS file each (cnf), or one
    /// incremental CNF file for them all (icnf: `p inccnf`, the base
    /// clauses, then one `a <lits> 0` line per cube; needs -o).
    #[arg(long, default_value = "cnf", requires = "output", value_parser = one_of!(Format, ["cnf", "icnf"]))]
    pub format: Format,
}

/// `count-dimacs`.
#[derive(Debug, Args)]
pub struct CountDimacsArgs {
    #[command(flatten)]
    pub formula: FormulaArgs,
    /// For an iCNF file (`p inccnf` header): count the base clauses with
    /// the I-th `a` line, counted from 0 (in a `cubes --format icnf`
    /// directory, `--cube 7` is cube-00007).
    #[arg(long, value_name = "I")]
    pub cube: Option<usize>,
    /// Stop after this many models.
    #[arg(long)]
    pub limit: Option<u64>,
}

/// `job`.
#[derive(Debug, Args)]
pub struct CubeJobArgs {
    /// A directory written by `boardsat cubes` (`.` in jobs.txt, which
    /// runs from inside it).
    pub dir: PathBuf,
    /// The cube's id, as the MANIFEST lists it (`cube-00007`).
    pub id: String,
    #[command(flatten)]
    pub solver: SolverArgs,
    /// Also print the answer on stdout: the JSON object of results/ID.json.
    #[arg(long)]
    pub json: bool,
}

/// `jobs`.
#[derive(Debug, Args)]
pub struct JobsArgs {
    /// A directory written by `boardsat cubes`.
    pub dir: PathBuf,
    /// Run the rounds on an engine until every job has its answer: local
    /// (this machine's cores), parallel (GNU parallel), slurm (Slurm job
    /// arrays of the split's slurm.sbatch).
    #[arg(long, value_name = "ENGINE", value_parser = PossibleValuesParser::new(boardsat_jobs::engine::Engine::NAMES))]
    pub run: Option<String>,
    /// With --run: the most jobs running at once (local and parallel:
    /// default one per core; slurm: the array's cap, default none).
    #[arg(long, value_name = "N", requires = "run", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_tasks: Option<u32>,
    /// With --run parallel: GNU parallel's list of machines to run the
    /// jobs on over ssh (the split's directory on a shared file system).
    #[arg(long, value_name = "FILE", requires = "run")]
    pub sshloginfile: Option<PathBuf>,
    /// With --run: list a job that failed in this many more rounds before
    /// giving it up.
    #[arg(long, value_name = "N", default_value_t = boardsat_jobs::rounds::RETRIES, requires = "run")]
    pub retries: usize,
    /// One JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

/// `merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// A directory written by `boardsat cubes`.
    pub dir: PathBuf,
    /// One JSON object on stdout.
    #[arg(long)]
    pub json: bool,
    /// Also verify the split (written with `cubes --proof`): every cube's
    /// formula re-derived from the manifest's spec, the cubes covering the
    /// board, and each job's LRAT proof of its count checked.
    #[arg(long)]
    pub verify: bool,
    #[command(flatten)]
    pub checker: CheckerArgs,
}

/// Output formats of `bench`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BenchFormat {
    /// A markdown table with the machine above it.
    Markdown,
    /// CSV, one row per cell, the machine in every row.
    Csv,
    /// One JSON object: `meta` and `cells`.
    Json,
}

/// `bench`: a matrix of encodings × backends × sizes × tasks.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Puzzle family.
    #[arg(value_parser = one_of!(Family))]
    pub family: Family,
    /// Board sizes, comma-separated.
    #[arg(
        long = "n",
        value_name = "N,...",
        value_delimiter = ',',
        default_value = "8"
    )]
    pub sizes: Vec<usize>,
    /// Tasks, comma-separated: first (one placement), count (all placements;
    /// without -k the optimal ones), optimum (the optimum with its proof).
    #[arg(long, value_delimiter = ',', default_value = "first", value_parser = one_of!(Task))]
    pub task: Vec<Task>,
    /// The piece (queens always places queens).
    #[arg(long, value_parser = one_of!(Piece))]
    pub piece: Option<Piece>,
    /// Number of pieces for first and count (queens: always n).
    #[arg(short = 'k', long = "pieces")]
    pub k: Option<usize>,
    /// Independent domination.
    #[arg(long)]
    pub independent: bool,
    /// At-most-one encodings, comma-separated, or "all".
    #[arg(long, value_name = "AMO,...|all", default_value = "pairwise", value_parser = parse_list::<Amo>)]
    pub amo: NameList<Amo>,
    /// Cardinality encodings, comma-separated, or "all".
    #[arg(long, value_name = "CARD,...|all", default_value = "totalizer", value_parser = parse_list::<Card>)]
    pub card: NameList<Card>,
    /// Formulations, comma-separated, or "all".
    #[arg(long, value_name = "FORMULATION,...|all", default_value = "lines", value_parser = parse_list::<Formulation>)]
    pub formulation: NameList<Formulation>,
    /// Embedded backends, comma-separated (default: cadical when built in,
    /// else varisat).
    #[arg(long, value_delimiter = ',', value_parser = one_of!(SolverKind, ["varisat", "cadical"]))]
    pub solver: Vec<SolverKind>,
    /// Runs per cell; times are the median with min and max.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    pub runs: u32,
    /// Time limit for each run of a cell; a cell that reaches it is reported
    /// as "timeout" and not run again.
    #[arg(long, value_name = "SECONDS", default_value = "60", value_parser = parse_seconds)]
    pub cell_time_limit: f64,
    /// Output format.
    #[arg(long, value_enum, default_value = "markdown")]
    pub format: BenchFormat,
    /// Same as --format json.
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
    /// Write to FILE (atomically) instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Also draw the matrix as an SVG chart into FILE: x = n, one line per
    /// encoding or solver, y as --plot-y says.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// The plot's y axis: time (median solve time) or clauses.
    #[arg(long, value_name = "time|clauses", default_value = "time", value_parser = one_of!(Measure), requires = "plot")]
    pub plot_y: Measure,
}

/// An encoding by name, with the library's own message (an AMO encoding
/// where a cardinality encoding is needed, and the like).
fn parse<T: std::str::FromStr>(s: &str) -> Result<T, String>
where
    T::Err: std::fmt::Display,
{
    s.parse().map_err(|e: T::Err| e.to_string())
}

/// A board side: a non-negative integer (zero reaches the board's own,
/// more specific error).
fn parse_size(s: &str) -> Result<usize, String> {
    s.trim()
        .parse()
        .map_err(|_| "the board size must be a positive integer".to_string())
}

fn parse_pieces(s: &str) -> Result<usize, String> {
    s.trim()
        .parse()
        .map_err(|_| "the number of pieces must be a non-negative integer".to_string())
}

/// A list of a run-time choice's names as typed: comma-separated names,
/// or `all` (its `ALL` list).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NameList<T>(pub Vec<T>);

/// Comma-separated names of `T`, or `all`.
fn parse_list<T: std::str::FromStr + AllNames + Clone + Send + Sync + 'static>(
    s: &str,
) -> Result<NameList<T>, String>
where
    T::Err: std::fmt::Display,
{
    if s.trim().eq_ignore_ascii_case("all") {
        return Ok(NameList(T::all().to_vec()));
    }
    let names = s
        .split(',')
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .map(|name| name.parse().map_err(|e: T::Err| e.to_string()))
        .collect::<Result<Vec<T>, String>>()?;
    if names.is_empty() {
        return Err("names no encoding".to_string());
    }
    Ok(NameList(names))
}

/// The run-time choices whose every value `all` names.
pub trait AllNames: Sized + 'static {
    /// Every value, in the library's order.
    fn all() -> &'static [Self];
}

impl AllNames for Amo {
    fn all() -> &'static [Self] {
        &Amo::ALL
    }
}

impl AllNames for Card {
    fn all() -> &'static [Self] {
        &Card::ALL
    }
}

impl AllNames for Formulation {
    fn all() -> &'static [Self] {
        &Formulation::ALL
    }
}

fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if boardsat_solve::stop::seconds(v).is_some() => Ok(v),
        _ => Err(format!("'{s}' is not a positive number of seconds")),
    }
}

/// The command line's names for the library's settings: its flags, so
/// that a library message reads in the terms the user typed.
#[derive(Clone, Copy, Debug, Default)]
pub struct Flags;

impl Flags {
    /// The flag of `setting`.
    pub const fn flag(setting: Setting) -> &'static str {
        match setting {
            Setting::Cols => "--cols",
            Setting::Piece => "--piece",
            Setting::Pieces => "-k",
            Setting::Independent => "--independent",
            Setting::Amo => "--amo",
            Setting::Card => "--card",
            Setting::Formulation => "--formulation",
            Setting::Force => "--force",
            Setting::Limit => "--limit",
            Setting::Unique => "--unique",
            Setting::Depth => "--depth",
            Setting::Threads => "--threads",
            Setting::CubeBudget => "--cube-budget",
            Setting::StopAfterCubes => "--stop-after-cubes",
            Setting::NoSymmetry => "--no-symmetry",
            Setting::Halve => "--halve",
            Setting::Portfolio => "--portfolio",
            Setting::Solver => "--solver",
            Setting::SolverCommand => "--solver-cmd",
            Setting::Seed => "--seed",
            Setting::Cube => "--cube",
            Setting::Format => "--format",
            Setting::Task => "--task",
            Setting::Proof => "--proof",
            Setting::Replace => "--replace",
            Setting::JobBudget => "--job-budget",
            Setting::LexLeader => "--lex-leader",
            Setting::Split => "'boardsat cubes'",
            Setting::Rounds => "'boardsat jobs --run'",
        }
    }
}

impl Names for Flags {
    fn name(&self, setting: Setting, value: Option<&str>) -> String {
        let flag = Flags::flag(setting);
        match value {
            Some(value) => format!("{flag} {value}"),
            None => flag.to_string(),
        }
    }
}
