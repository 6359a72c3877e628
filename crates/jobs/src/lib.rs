//! # boardsat-jobs
//!
//! Counting beyond one machine: a count split into cube jobs that any
//! scheduler can run (GNU parallel, Slurm array jobs), the merge of their
//! answers, and an estimate of what running them costs. Proving a split
//! run as jobs is `boardsat-proof`'s (`jobs::verify_jobs`).
//!
//! | item | role |
//! |---|---|
//! | [`split::Split`], [`split::SplitSpec`] | a split: the base formula, the cubes and their weights; what it is made of |
//! | [`write_split`], [`JobLines`] | the split written: cube files (or one iCNF file), `MANIFEST`, `jobs.txt` |
//! | [`job::Job`], [`run::run_job`] | one cube's job: run once, its answer written whole, kept when it is there; the whole protocol in one call |
//! | [`JobsError`] | every error, as data; messages that name a setting worded by the caller ([`JobsError::message`]) |
//! | [`layout`] | the names in a split directory, and what `--replace` may remove |
//! | [`Budget`], [`write_pieces`] | a job's budget, and the pieces of a job split past it (the jobs of the next round) |
//! | [`read_manifest`], [`parse_manifest`], [`tree::Tree`], [`merge`], [`JobResult`] | the answers read back as a tree of jobs and their pieces, summed, every cube checked answered |
//! | [`rounds`] | what is done, split, running, failed and left, and the next round's job list (`boardsat jobs`) |
//! | [`engine`], [`engine::RoundRunner`] | the rounds handed to an engine — this machine's cores, GNU parallel, Slurm — until every job is answered; one module per engine behind one trait, each task's end reported as data ([`engine::TaskEnd`]); adding an engine is one new module and its line in the registry (see [`engine`]) |
//! | [`slurm_script`] | `slurm.sbatch`, the Slurm engine's array script, which every split carries, and the exit files its tasks write |
//! | [`in_process::run_rounds`] | the rounds run in this process on this machine's cores, without a `boardsat` binary (Python's `boardsat.jobs.run_rounds`) |
//! | [`estimate::estimate`] | a random sample of cubes solved as their jobs would, and the projected CPU time |
//! | [`report`] | the JSON of `cubes`, `merge`, `cubes --estimate` and `jobs` |
//!
//! ## Layers
//!
//! Each module imports only from modules on its own line or a line above
//! (checked by `tests/tests/layers.rs`):
//!
//! 1. `split` — what a split is
//! 2. `layout`, `slurm_script` — the names in a split directory; the Slurm array script every split carries (the Slurm engine's, low so that `write` can write it)
//! 3. `error` — what can go wrong, as data
//! 4. `manifest` — what a split's MANIFEST and a job's answer say
//! 5. `write`, `tree` — the split written; its answers read back as a tree, merged
//! 6. `job`, `run`, `estimate` — one job's files and lock; running it; sizing a split
//! 7. `rounds` — the state of every job, the next round's list
//! 8. `engine`, `in_process` — the rounds run by an engine, or in this process
//! 9. `report` — the JSON reports
//!
//! [`write_split`] writes a directory: the cubes, one DIMACS file each
//! (the cube's literals as unit clauses) or one iCNF file for them all
//! ([`boardsat_encode::dimacs::Format::Inccnf`]: the base formula once, `p inccnf`, a `c cube` line
//! per cube with its id and weight, then one `a` line per cube); a
//! `MANIFEST` with each cube's id, weight, description and file; a
//! `jobs.txt` with one `boardsat job . <id>` command per cube; and
//! `results/`, where each job writes its JSON answer ([`JobResult`])
//! itself, whole or not at all ([`job`]). [`merge`] sums the weighted
//! answers and checks that every cube was answered in full.
//!
//! **Rounds.** With a [`Budget`] (`cubes --job-budget SECONDS`, on the
//! manifest's `# budget` line), a domination job whose solver runs past
//! it is stopped and split as the in-process re-split splits a cube: its
//! pieces are the cubes of the next ring, one per orbit under its
//! stabilizer ([`split::SplitSpec::pieces`]), each written as a cube file
//! `<id>.<NN>.cnf` ([`write_pieces`]) and listed with its weight and
//! digest in the job's answer, which counts nothing itself. The pieces
//! are the jobs of the next round; a job's share of the count is its
//! pieces' ([`tree`]). [`rounds`] tells what is left and writes the next
//! round's job list; [`engine`] hands the rounds to an engine.
//!
//! **Lex-leader constraints.** A domination split one per orbit with
//! [`split::SplitSpec::lex`] (`cubes --lex-leader`) ends each cube's file
//! with the lines-first lex-leader constraints under the cube's
//! stabilizer, as the in-process count's cubes have them: a job counts
//! orbit representatives, and its answer states the placements they stand
//! for ([`JobResult::placements`], weighed by [`job::Weigher`]), which is
//! its share.
//!
//! The files carry the provenance and projection lines of
//! [`boardsat_encode::dimacs`], so an external projected model counter can
//! do the jobs as well.

pub mod engine;
pub mod error;
pub mod estimate;
pub mod in_process;
pub mod job;
pub mod layout;
pub mod manifest;
pub mod report;
pub mod rounds;
pub mod run;
pub mod slurm_script;
pub mod split;
pub mod tree;
pub mod write;

pub use crate::{
    error::JobsError,
    layout::{JOBS, MANIFEST, PROOFS, RESULTS},
    manifest::{parse_manifest, read_manifest, Budget, Entry, JobResult, Manifest},
    split::ICNF,
    tree::{merge, Merged},
    write::{job_line, job_program, write_pieces, write_split, JobLines},
};
