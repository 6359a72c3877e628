//! Certified answers: an LRAT proof for every UNSAT claim a result depends
//! on, and their independent verification.
//!
//! ## Writing ([`prover::Prover`])
//! Each claim is a formula that must be unsatisfiable, built canonically
//! from what was found, never copied from a solver's state:
//!
//! | claim | formula |
//! |---|---|
//! | no placement with k pieces (`solve -k`, an optimum's bound) | the encoding `boardsat dimacs … -k k` writes, plus lex-leader constraints when they were used |
//! | a count is complete | that encoding, lex-leader constraints, a cube's queens as units, and one blocking clause per placement counted |
//! | a DIMACS file is unsatisfiable | the file's clauses |
//! | a projected count of a DIMACS file is complete | the file's clauses and one blocking clause per projected model |
//!
//! Board claims are always encoded eagerly: with the lazy AMO the search
//! ran on a line propagator whose reasons no LRAT proof can cite, so the
//! claim's formula uses `auto` clauses instead (see `board_formula`).
//!
//! The formula is written as `NAME.cnf` (provenance comments, then the
//! clauses in order), read back by a fresh CaDiCaL through its own DIMACS
//! parser (so that LRAT clause ids are the file's clause numbers) and
//! solved with an LRAT trace into `NAME.lrat` — or written from the trace
//! of the solver that did the work; a projected count of a DIMACS file
//! also writes `NAME.models`, the full model behind every blocking clause
//! ([`witness`]). `MANIFEST.json` states the run's status and its whole
//! result ([`manifest::RunResult`]: no placement, an optimum, a count, the
//! placements or models found, a DIMACS file unsatisfiable or counted) and
//! lists the claims with what each relies on; the directory is locked
//! ([`manifest::LOCK`]) while a run writes it.
//!
//! ## Checking ([`verify::verify`], [`verify::verify_files`])
//! The LRAT checker is `boardsat-lrat`, which shares no code with CaDiCaL
//! or the encoder. Beyond the proof, each board claim's formula is tied to
//! its problem: the encoding is re-derived from the provenance lines and
//! must be the formula's first clauses, exactly; lex-leader constraints and
//! a cube's units must follow, re-derived too; and every other clause must
//! block a distinct placement that the independent checker accepts, whose
//! (orbit-weighted) number is the claimed count. So a proof of another
//! formula, or of a weaker one, is rejected. For cube counts the claims'
//! cubes must be exactly the cubes of the split, and their weighted total
//! the claimed count. DIMACS claims are tied to their source file by its
//! digest and by its clauses, and each of its blocking clauses to a
//! witness: a full model that satisfies every clause of the source, whose
//! projection is the assignment the clause excludes (decoded and checked by
//! the independent checker too when the source names a board problem).
//!
//! Then the run's result is derived from the verified claims alone: every
//! claim it needs present and verified, a split's cover complete, totals
//! recomputed, placements and models found checked again, no claim left
//! that the result does not account for, and the run complete. The
//! result's sentence is `verify`'s own, never read from the manifest.

//! | module | what |
//! |---|---|
//! | [`manifest`] | `MANIFEST.json`: the claims and the split they cover |
//! | [`prover`] | [`prover::Prover`]: claims written with their proofs |
//! | [`tasks`] | the claims behind what `boardsat_solve::task` found |
//! | [`verify`] | [`verify::verify`]: every claim checked, with a [`verify::Verdict`] each |
//! | [`split`] | certified domination splits: the prover as the split solvers' `Certify` |
//! | [`words`] | every claim's sentence, written and derived again |
//! | [`jobs`] | [`jobs::verify_jobs`]: a split run as jobs (`cubes --proof`), verified whole |
//! | [`trace`] | [`trace::LratTrace`]: a solver's traced steps written as its formula and a standard LRAT proof |
//! | [`compress`] | proof files stored zstd-compressed (`--proof-compression zstd`) and read back |
//! | [`witness`] | [`witness::Witnesses`]: the models behind a DIMACS claim's blocking clauses, written and read |
//! | [`report`] | the JSON report of `boardsat verify` |
//!
//! ## Layers
//!
//! Each module imports only from modules on its own line or a line above
//! (checked by `tests/tests/layers.rs`):
//!
//! 1. `manifest`, `words`, `compress`, `trace`, `witness` — what a proof directory holds; every claim's sentence; proof files compressed; traced proofs written as LRAT; witness files
//! 2. `prover`, `verify`, `cover` — claims written; claims checked; certified splits checked
//! 3. `tasks`, `split`, `jobs`, `report` — the claims behind the tasks; certified splits; splits run as jobs; `verify`'s report

// User input must not reach a panic: no unwrap or expect outside tests.
#![cfg_attr(not(test), warn(clippy::unwrap_used, clippy::expect_used))]

pub mod compress;
mod cover;
pub mod jobs;
pub mod manifest;
pub mod prover;
pub mod report;
pub mod split;
pub mod tasks;
pub mod trace;
pub mod verify;
pub mod witness;
pub mod words;
