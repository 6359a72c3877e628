//! # boardsat-bench
//!
//! boardsat's benchmark methodology: the matrix of encodings × backends ×
//! sizes × tasks, each cell run R times on one solver and timed, its
//! answer checked; the results as markdown, CSV, JSON and SVG charts, with
//! the machine and the commit they were measured on. `boardsat bench`
//! formats what this measures.
//!
//! | type | role |
//! |---|---|
//! | [`plan::Matrix`], [`plan::plan()`], [`plan::Cell`], [`plan::Task`] | what is run: only choices that change the CNF multiply the matrix |
//! | [`run::run_cell`], [`run::CellResult`], [`run::Spread`], [`run::Meta`] | one cell timed, its answer checked; where and when |
//! | [`report::CellReport`], [`report::BenchReport`], [`report::markdown`], [`report::csv`] | the results as rows, tables and JSON |
//! | [`plot::svg`], [`plot::Measure`] | the matrix as an SVG chart (plotters) |
//!
//! The commit and compiler are stamped at build time (`build.rs`); only
//! this crate rebuilds when HEAD moves.
//!
//! ## Layers
//!
//! Each module imports only from modules on its own line or a line above
//! (checked by `tests/tests/layers.rs`):
//!
//! 1. `plan` — the matrix and its cells
//! 2. `run` — a cell timed
//! 3. `report` — rows, tables, CSV
//! 4. `plot` — charts
//!
//! ```
//! use boardsat_bench::plan::{plan, Matrix, Task};
//! use boardsat_encode::{Amo, Card, Family, Formulation};
//!
//! let matrix = Matrix {
//!     family: Family::Queens,
//!     piece: None,
//!     independent: false,
//!     k: None,
//!     sizes: vec![6, 8],
//!     tasks: vec![Task::First],
//!     amos: vec![Amo::Pairwise, Amo::Ladder],
//!     cards: vec![Card::Totalizer],
//!     formulations: vec![Formulation::Lines],
//!     solvers: Vec::new(),
//! };
//! assert_eq!(plan(&matrix)?.len(), 4);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

// User input must not reach a panic: no unwrap or expect outside tests.
#![cfg_attr(not(test), warn(clippy::unwrap_used, clippy::expect_used))]

pub mod plan;
pub mod plot;
pub mod report;
pub mod run;
