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
//!
//! ## Proof formats ([`trace::ProofFormat`])
//!
//! A claim's manifest entry names its proof's format (`lrat`,
//! `lrat-binary`; a split's `MANIFEST` carries it as `# proof-format`).
//! The enum is declared in `boardsat_solve::files::proof_dir`, beside
//! `Compression`, because the jobs crate, which sits below this one, reads
//! and writes split manifests; what a format means is this crate's, and it
//! is used through [`trace::ProofFormat`]. The LRAT checker knows only the
//! syntaxes it reads (`boardsat_lrat::Syntax`), never a format. Adding a
//! second format (VeriPB, say) takes:
//!
//! 1. a variant and its manifest name in `ProofFormat` (`ALL`, `name`):
//!    names already written keep their meaning, so directories written
//!    before it still verify (`crates/cli/tests/fixtures/written-559286c`);
//! 2. its writer in [`trace`] (`Output`, the one match on the format per
//!    traced step), or the prover's own run when the solver writes it;
//! 3. its checker in `verify::proof_check` (`check_proof_at`, today
//!    `lrat_syntax`): a checker of its own, since `boardsat-lrat` reads LRAT
//!    only — every claim kind checks its proof there, so no claim kind's
//!    module changes;
//! 4. its choice in the CLI (`--proof-format`) and Python (`proof_format=`).
//!
//! An external checker ([`external::ExternalChecker`], `verify --checker`)
//! runs after boardsat's on every claim whatever its kind, fed the proof
//! as written (plain, or streamed when binary or compressed); it is told
//! the proof's syntax, so an external checker of a new format is a new
//! case there, not a change to any claim kind.

//! | module | what |
//! |---|---|
//! | [`manifest`] | `MANIFEST.json`: the claims and the split they cover |
//! | [`prover`] | [`prover::Prover`]: claims written with their proofs |
//! | [`tasks`] | the claims behind what `boardsat_solve::task` found |
//! | [`proven_count`] | [`proven_count::CountTask`]: a count with its proof, the one road of `boardsat count` and Python's `boardsat.count` |
//! | [`job_proof`] | [`job_proof::DimacsProving`]: a DIMACS count's proof; [`job_proof::JobProofs`]: the proofs of a split's jobs, the one prover of `count-dimacs --proof`, `job` and Python's `boardsat.jobs.run_job` |
//! | [`verify`] | [`verify::verify`]: every claim checked by the module of its kind, with a [`verify::Verdict`] each; [`verify::jobs::verify_jobs`]: a split run as jobs (`cubes --proof`), verified whole; [`verify::json`]: its JSON report |
//! | [`split_prover`] | [`split_prover::SplitProver`]: certified domination splits, the prover as the split solvers' `Certify` |
//! | [`sentences`] | every claim's sentence, written and derived again |
//! | [`trace`] | [`trace::LratTrace`]: a solver's traced steps written as its formula and a standard LRAT proof |
//! | [`compress`] | proof files stored zstd-compressed (`--proof-compression zstd`) and read back |
//! | [`witness`] | [`witness::Witnesses`]: the models behind a DIMACS claim's blocking clauses, written and read |
//! | [`external`] | [`external::ExternalChecker`]: a checker boardsat did not write (cake_lpr), run on every claim besides boardsat's |
//! | [`published`] | a published result file (`docs/results/*.json`): its placements checked without its proof (`boardsat check`) |
//!
//! ## Layers
//!
//! Each module imports only from modules on its own line or a line above
//! (checked by `tests/tests/layers.rs`):
//!
//! 1. `manifest`, `sentences`, `compress`, `trace`, `witness`, `published` — what a proof directory holds; every claim's sentence; proof files compressed; traced proofs written as LRAT; witness files; published result files
//! 2. `external` — a second LRAT checker, not boardsat's, run on every claim too
//! 3. `prover`, `verify` — claims written; claims checked, by their kind
//! 4. `split_prover` — certified splits: each proven cube a claim
//! 5. `tasks` — the claims behind the tasks
//! 6. `proven_count`, `job_proof` — a count with its proof, for every caller; a DIMACS count's and a job's proof

// User input must not reach a panic: no unwrap or expect outside tests.
#![cfg_attr(not(test), warn(clippy::unwrap_used, clippy::expect_used))]

pub mod compress;
pub mod external;
pub mod job_proof;
pub mod manifest;
pub mod proven_count;
pub mod prover;
pub mod published;
pub mod sentences;
pub mod split_prover;
pub mod tasks;
pub mod trace;
pub mod verify;
pub mod witness;
