//! Search: problems loaded into solvers, and everything that asks them for
//! placements — the one counting loop, sessions, optimisation, and counts
//! and decisions split into cubes over threads.
//!
//! ## Layers
//!
//! Each module imports only from modules on its own line or a line above
//! (checked by `tests/tests/layers.rs`):
//!
//! 1. `sink`, `detach` — encoding and loading that obey a stop flag; work on a thread of its own that a stop can leave behind
//! 2. `count` — the one counting loop ([`count::count_projected`] for any formula), how counts end, are reduced and block
//! 3. `lex`, `rings` — lex-leader symmetry breaking in two orders, under a group; the rings of rows and columns a domination split fixes
//! 4. `session`, `certify` — a problem loaded into one solver (or encoded once for many): solve, enumerate, count; where split solvers' proofs go
//! 5. `pool`, `context` — independent cubes counted on every core; what a count or an optimisation runs with
//! 6. `optimise` — optima with the solver's proof; refutations passed in
//! 7. `queens` — N-queens counts split on the first rows
//! 8. `domination` — domination counts and decisions split on the outer rings

pub mod certify;
pub mod context;
pub mod count;
pub mod detach;
pub mod domination;
pub mod lex;
pub mod optimise;
pub mod pool;
pub mod queens;
pub mod rings;
pub mod session;
pub mod sink;
