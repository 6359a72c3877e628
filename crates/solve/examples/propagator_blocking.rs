//! A measurement, not a mode: counts the projected models of a DIMACS file
//! (its `c p show` projection) two ways on the same CaDiCaL, to see whether
//! blocking each model from inside the search beats the blocking-clause
//! loop that `count` uses (issue 33, item 3; BENCHMARKS.md, "The dense
//! regime: two more designs measured").
//!
//! - `loop`: solve, add the clause that blocks the model on the projection,
//!   solve again (what [`boardsat_solve::Session::count`] does);
//! - `prop`: one solve with an external propagator that observes the
//!   projection, rejects each model in `cb_check_found_model` and hands its
//!   blocking clause back, so the search goes on from where it stood.
//!
//! The blocking clause lists the projected variables that are true (the
//! short clause of `count`, exact when every model has the same number of
//! them, as for minimum dominating sets). `loop` checks each model against
//! every clause; `prop`'s propagator sees the projection only, so its
//! count is to be compared with `loop`'s.
//!
//! ```text
//! cargo run --release -p boardsat-solve --example propagator_blocking -- FILE loop|prop [SECONDS]
//! ```
//!
//! With SECONDS, the count stops there and says how many models it had
//! found (for the rate of finding them on cubes too big to finish).
//!
//! Kept as an example rather than a mode: the in-search blocking was no
//! faster where it matters (the tight and the loose frontier boards).

use std::{
    cell::RefCell,
    fs::File,
    io::BufReader,
    process::ExitCode,
    rc::Rc,
    time::{Duration, Instant},
};

use boardsat_solve::{dimacs, formula::falsified};
use cadical_sys::{CaDiCal, ExternalPropagator, Status, Terminator};

/// Rejects every model with its blocking clause.
struct Reject {
    /// Models rejected so far.
    found: Rc<RefCell<u64>>,
    /// The blocking clause being handed over, in reverse.
    pending: Vec<i32>,
}

impl ExternalPropagator for Reject {
    fn is_lazy(&mut self) -> bool {
        true
    }

    fn are_reasons_forgettable(&mut self) -> bool {
        false
    }

    fn notify_assignment(&mut self, _lits: &[i32]) {}

    fn notify_new_decision_level(&mut self) {}

    fn notify_backtrack(&mut self, _new_level: usize) {}

    fn cb_check_found_model(&mut self, model: &[i32]) -> bool {
        // The model holds the observed (projected) variables only.
        *self.found.borrow_mut() += 1;
        self.pending = model
            .iter()
            .filter(|&&l| l > 0)
            .map(|&l| -l)
            .rev()
            .collect();
        false
    }

    fn cb_has_external_clause(&mut self, is_forgettable: &mut bool) -> bool {
        *is_forgettable = false;
        !self.pending.is_empty()
    }

    fn cb_add_external_clause_lit(&mut self) -> i32 {
        self.pending.pop().unwrap_or(0)
    }
}

/// Ends the search at a deadline.
struct Deadline(Option<Instant>);

impl Terminator for Deadline {
    fn terminated(&mut self) -> bool {
        self.0.is_some_and(|d| Instant::now() >= d)
    }
}

fn lit(l: rustsat::types::Lit) -> i32 {
    let v = i32::try_from(l.var().idx32() + 1).unwrap_or(i32::MAX);
    if l.is_neg() {
        -v
    } else {
        v
    }
}

fn run(path: &str, mode: &str, limit: Option<Duration>) -> Result<String, String> {
    let file = File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let formula = dimacs::parse(BufReader::new(file)).map_err(|e| format!("{path}: {e:?}"))?;
    let projection: Vec<i32> = formula
        .projection_or_all()
        .iter()
        .map(|v| i32::try_from(v.idx32() + 1).unwrap_or(i32::MAX))
        .collect();
    let mut solver = CaDiCal::new();
    for clause in &formula.clauses {
        let c: Vec<i32> = clause.iter().map(|&l| lit(l)).collect();
        solver.clause6(&c);
    }
    let start = Instant::now();
    solver.connect_terminator(Deadline(limit.map(|l| start + l)));
    let mut stopped = false;
    let models = match mode {
        "loop" => {
            let mut models = 0u64;
            loop {
                match solver.solve() {
                    Status::SATISFIABLE => {}
                    Status::UNSATISFIABLE => break,
                    _ => {
                        stopped = true;
                        break;
                    }
                }
                let values: Vec<bool> = (1..=formula.n_vars)
                    .map(|v| solver.val(i32::try_from(v).unwrap_or(i32::MAX)) > 0)
                    .collect();
                if let Some(i) = falsified(&formula.clauses, &values) {
                    return Err(format!("model {} falsifies clause {}", models + 1, i + 1));
                }
                models += 1;
                let block: Vec<i32> = projection
                    .iter()
                    .filter(|&&v| values[v as usize - 1])
                    .map(|&v| -v)
                    .collect();
                solver.clause6(&block);
            }
            models
        }
        "prop" => {
            let found = Rc::new(RefCell::new(0));
            solver.connect_external_propagator(Reject {
                found: Rc::clone(&found),
                pending: Vec::new(),
            });
            for &v in &projection {
                solver.add_observed_var(v);
            }
            match solver.solve() {
                Status::UNSATISFIABLE => {}
                Status::UNKNOWN if limit.is_some() => stopped = true,
                _ => return Err("the enumerating solve did not end UNSAT".to_string()),
            }
            let models = *found.borrow();
            models
        }
        other => return Err(format!("unknown mode '{other}' (loop or prop)")),
    };
    Ok(format!(
        "{mode}: {models} models{}, {:.2} s, {} conflicts, {} decisions",
        if stopped { " (stopped)" } else { "" },
        start.elapsed().as_secs_f64(),
        solver.get_statistic_value("conflicts"),
        solver.get_statistic_value("decisions")
    ))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = || {
        eprintln!("usage: propagator_blocking FILE loop|prop [SECONDS]");
        ExitCode::from(2)
    };
    let (path, mode, limit) = match args.as_slice() {
        [path, mode] => (path, mode, None),
        [path, mode, seconds] => match seconds
            .parse::<f64>()
            .ok()
            .and_then(|s| Duration::try_from_secs_f64(s).ok())
        {
            Some(limit) => (path, mode, Some(limit)),
            None => return usage(),
        },
        _ => return usage(),
    };
    match run(path, mode, limit) {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("propagator_blocking: {e}");
            ExitCode::from(1)
        }
    }
}
