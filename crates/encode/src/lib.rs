//! # boardsat-encode
//!
//! Chessboard placement puzzles — N-queens, independence, domination and
//! independent domination for queens, rooks, bishops, knights and kings on
//! square and rectangular boards — turned into CNF with selectable
//! at-most-one and cardinality encodings. No solver lives here.
//!
//! | type | role |
//! |---|---|
//! | [`Board`], [`Square`], [`LineKind`] | geometry, lines, the square ↔ variable bijection |
//! | [`Piece`] | attack sets and closed neighbourhoods |
//! | [`Request`], [`Family`] | what a user asks for (the CLI's and Python's words), validated into a problem |
//! | [`Problem`], [`Kind`], [`Formulation`], [`Config`] | pure CNF builders |
//! | [`Amo`] | at-most-one encodings (rustsat), or lazy lines |
//! | [`LazyLines`] | the lines a lazy encoding leaves to a propagator |
//! | [`Card`], [`Bound`] | cardinality encodings chosen at run time, and bounds |
//! | [`card::BuildCounter`], [`card::Counter`] | build a counter once, enforce any bound by assumptions |
//! | [`card::SequentialCounter`], [`card::ModuloTotalizer`], [`card::CardinalityNetwork`] | the own counters, also usable through rustsat's encoding traits |
//! | [`card::Totalizer`] | rustsat's totalizer behind [`card::Counter`] |
//! | [`Encoding`], [`Stats`] | what an encoding produced and its sizes |
//! | [`check()`], [`Placement`], [`Violation`] | an independent checker, sharing no code with the encoder |
//! | [`dimacs`] | DIMACS and iCNF output with provenance and projection; [`dimacs::Format`], every format boardsat writes |
//! | [`linear::Model`], [`linear::Goal`] | the problems as 0-1 linear programs over the board variables |
//! | [`export`] | OPB, WCNF and LP output with the provenance an answer is checked by ([`export::Provenance`]) |
//! | [`draw`] | a placement as a text board or an SVG figure |
//! | [`SizeEstimate`], [`size::check_fits`] | encoding sizes estimated before encoding ([`Problem::estimate`]); refusing what would not fit |
//! | [`Symmetry`], [`symmetry::lex_leader`] | board symmetries, lex-leader symmetry breaking, orbit sizes |
//! | [`name_table!`] | names, aliases, `ALL`, `Display`, `FromStr` of the run-time choices |
//! | [`words::plural`] | a count with the noun that agrees with it, for every printed sentence |
//! | [`setting::Setting`], [`setting::Names`] | a user's choices, as messages name them: the library's words, the CLI's flags, Python's keywords |
//! | [`EncodeError`] | everything that can go wrong while encoding |
//!
//! Board variables come first: square `(r, c)` is DIMACS variable
//! `r·cols + c + 1`; auxiliaries follow.
//!
//! ## Layers
//!
//! Each module imports only from modules on its own line or a line above,
//! by its path (`crate::board::Board`), never through the re-exports below,
//! which are for outside users (checked by `tests/tests/layers.rs`):
//!
//! 1. `names`, `words`, `setting`, `bound` — the name tables of the run-time choices, counts in sentences, the user's choices as messages name them, cardinality bounds
//! 2. `error` — the error type (naming bounds and settings, it imports neither geometry nor encodings)
//! 3. `board`, `amo`, `card` — geometry, the encodings (the AMO and cardinality name tables each know the other's names, to say which kind a name is)
//! 4. `piece`, `lazy` — attacks and neighbourhoods, lines left to a propagator
//! 5. `problem` — the problems as CNF builders
//! 6. `check`, `symmetry`, `size`, `dimacs`, `linear` — the independent checker, symmetries, size estimates, DIMACS output, the linear model
//! 7. `request`, `draw`, `export` — what users ask for, pictures, OPB, WCNF and LP output
//!
//! ```
//! use boardsat_encode::{dimacs, Amo, Config, Problem};
//! use rustsat::instances::Cnf;
//!
//! let problem = Problem::queens(8)?;
//! let config = Config { amo: Amo::Ladder, ..Config::default() };
//! let mut vars = problem.var_manager();
//! let mut cnf = Cnf::new();
//! let encoding = problem.encode(8, config, &mut cnf, &mut vars)?;
//! assert_eq!(encoding.stats.n_board_vars, 64);
//! assert_eq!(encoding.stats.n_clauses, cnf.len());
//!
//! let mut header = dimacs::Header::new();
//! header.comments.extend(encoding.describe());
//! header.show = Some(encoding.stats.n_board_vars);
//! let mut out = Vec::new();
//! dimacs::write(&mut out, &header, &cnf, encoding.stats.n_vars)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

// User input must not reach a panic: no unwrap or expect outside tests.
#![cfg_attr(not(test), warn(clippy::unwrap_used, clippy::expect_used))]

mod names;

pub mod amo;
pub mod board;
pub mod bound;
pub mod card;
pub mod check;
pub mod dimacs;
pub mod draw;
pub mod error;
pub mod export;
pub mod lazy;
pub mod linear;
pub mod piece;
pub mod problem;
pub mod request;
pub mod setting;
pub mod size;
pub mod symmetry;
pub mod words;

pub use amo::Amo;
pub use board::{Board, LineKind, Square};
pub use bound::Bound;
pub use card::Card;
pub use check::{check, Placement, Violation};
pub use error::EncodeError;
pub use lazy::LazyLines;
pub use piece::Piece;
pub use problem::{Config, Encoding, Formulation, Kind, Problem, Stats};
pub use request::{Family, Request};
pub use size::SizeEstimate;
pub use symmetry::Symmetry;
