//! One module per command. Each parses nothing and decides nothing a
//! library user would need: it builds the library objects from the flags
//! ([`crate::hiargs`]), calls the library, and prints.

pub mod bench;
pub mod check;
pub mod check_solution;
pub mod completions;
pub mod count;
pub mod count_dimacs;
pub mod cubes;
pub mod dimacs;
pub mod job;
pub mod jobs;
pub mod solve;
pub mod solve_dimacs;
pub mod verify;
