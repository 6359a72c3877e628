//! The floor under any N-queens mode that gives CaDiCaL one variable per
//! square: the embedded CaDiCaL, sized for the n² variables up front as
//! `--amo lazy` sizes it, loading only the 2n at-least-one clauses of the
//! rows and columns (no attack constraints, no propagator) and solving
//! that trivial formula. Its time and peak memory bound `--amo lazy` from
//! below; `scripts/bench-lazy.sh --tools floor` runs it beside the lazy
//! mode and the CP solver (BENCHMARKS.md, issue 14).
//!
//! ```text
//! cargo run --release -p boardsat-solve --example alo_floor -- N
//! ```

use std::process::ExitCode;
use std::time::Instant;

use boardsat_solve::{Backend, Cadical};
use rustsat::types::Lit;

fn main() -> ExitCode {
    let n = std::env::args().nth(1).and_then(|a| a.parse::<u32>().ok());
    let Some((n, max_var)) = n.and_then(|n| Some((n, i32::try_from(n.checked_mul(n)?).ok()?)))
    else {
        eprintln!("usage: alo_floor N (N² a CaDiCaL variable index)");
        return ExitCode::from(2);
    };
    let start = Instant::now();
    let mut solver = Cadical::new();
    solver.raw().resize(max_var);
    let square = |r: u32, c: u32| Lit::positive(r * n + c);
    let mut clause = Vec::with_capacity(n as usize);
    for line in 0..n {
        for row in [true, false] {
            clause.clear();
            clause.extend((0..n).map(|i| {
                if row {
                    square(line, i)
                } else {
                    square(i, line)
                }
            }));
            if let Err(e) = solver.add_clause(&clause) {
                eprintln!("alo_floor: {e}");
                return ExitCode::from(1);
            }
        }
    }
    let loaded = start.elapsed();
    match solver.solve(&[]) {
        Ok(status) => {
            println!(
                "n = {n}: {max_var} variables, loaded in {:.2} s, {status:?} after {:.2} s",
                loaded.as_secs_f64(),
                start.elapsed().as_secs_f64()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("alo_floor: {e}");
            ExitCode::from(1)
        }
    }
}
