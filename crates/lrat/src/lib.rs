//! # boardsat-lrat
//!
//! Checks LRAT proofs of unsatisfiability. No maintained LRAT checker is
//! published on crates.io, so this one is written here; it shares no code
//! with CaDiCaL (which writes the proofs) or with boardsat's encoder (which
//! writes the formulas), and depends on `std` and `thiserror` only.
//!
//! LRAT is defined by Cruz-Filipe, Heule, Hunt, Kaufmann and
//! Schneider-Kamp, "Efficient Certified RAT Verification" (CADE 2017). A
//! proof is a sequence of steps over clauses named by ids; the formula's
//! clause i (from 1) has id i.
//!
//! - `<id> <literals> 0 <hints> 0` adds a clause (a lemma). Its check
//!   assigns the negation of every literal, then walks the hints: each
//!   hint must name a live clause that is unit under the assignment so far
//!   (its last literal is then assigned), and the last hint must be
//!   falsified. A conflict before the last hint, a satisfied hint or one
//!   with two open literals is an error. The id must be new: larger than
//!   every id before it (the formula's included), so it is never live.
//! - `<id> d <ids> 0` deletes live clauses (the leading id means nothing).
//! - Negative hints start RAT steps; CaDiCaL never writes them, so they are
//!   rejected with an error saying so rather than checked.
//! - The proof must derive the empty clause (or the formula hold it);
//!   steps after it are still checked.
//! - Duplicate literals in a clause are dropped; a tautological lemma is
//!   accepted whatever its hints (they must still name live clauses).
//!
//! Text proofs hold one step per line, with `c` comment lines and blank
//! lines allowed; the binary form is CaDiCaL's (`a`/`d` steps of varints).
//! Errors carry the step's line (text) or byte offset (binary).
//!
//! ## Layers
//!
//! Each module imports only from modules on its own line or a line above
//! (checked by `tests/tests/layers.rs`):
//!
//! 1. `error` — what is wrong, and where
//! 2. `db`, `parse` — the clause database, reading proofs
//! 3. `checker`, `text` — the checks; a proof written out as text LRAT
//!
//! The proof is streamed: only the live clauses are held, in one flat
//! arena indexed by id, with a partial assignment and a trail undone after
//! each step. [`Limits`] cap the variables and the length of a step, so
//! absurd numbers are errors rather than huge allocations. Checking speed
//! is in BENCHMARKS.md.
//!
//! | item | role |
//! |---|---|
//! | [`check()`] | formula + proof → [`Summary`] or [`Error`] |
//! | [`Checker`], [`Limits`] | the same, loading the formula clause by clause |
//! | [`Syntax`] | text, binary or detect |
//! | [`write_text()`] | a proof (text or binary) written out as text LRAT, streamed |
//! | [`Summary`], [`EmptyClause`] | what was checked, where the empty clause is |
//! | [`Error`], [`StepProblem`], [`FormulaProblem`], [`Location`] | why a proof is rejected, and where |
//!
//! ```
//! use boardsat_lrat::{check, EmptyClause, Syntax};
//!
//! // x1 ∨ x2, ¬x1 ∨ x2, x1 ∨ ¬x2, ¬x1 ∨ ¬x2
//! let formula = [vec![1, 2], vec![-1, 2], vec![1, -2], vec![-1, -2]];
//! let proof = "5 2 0 1 2 0\n6 0 5 3 4 0\n";
//! let summary = check(&formula, proof.as_bytes(), Syntax::Text)?;
//! assert_eq!(summary.n_additions, 2);
//! assert!(matches!(summary.empty_clause, EmptyClause::Derived { id: 6, step: 2, .. }));
//!
//! let wrong = "5 2 0 1 3 0\n";
//! let error = check(&formula, wrong.as_bytes(), Syntax::Text).unwrap_err();
//! assert_eq!(
//!     error.to_string(),
//!     "line 1: hint 3 is not unit under the lemma's negation and the hints before it (two or more literals not false)"
//! );
//! # Ok::<(), boardsat_lrat::Error>(())
//! ```

// User input must not reach a panic: no unwrap or expect outside tests.
#![cfg_attr(not(test), warn(clippy::unwrap_used, clippy::expect_used))]

mod checker;
mod db;
mod error;
mod parse;
mod text;

pub use checker::{check, Checker, EmptyClause, Limits, Summary, Syntax, UnknownFormat};
pub use error::{Error, FormulaProblem, Location, StepProblem};
pub use text::write_text;
