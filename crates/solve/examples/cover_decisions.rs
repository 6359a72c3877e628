//! A measurement, not a mode: counts the projected models of a DIMACS file
//! with models rejected inside the search (as `count` does), once with
//! CaDiCaL's own decisions and once with covering decisions, to see whether
//! the branching of dedicated dominating-set searches ("which piece covers
//! the square with the fewest candidates left") helps CDCL enumerate
//! minimum dominating sets (issue 33, item 3), and their covering bound.
//! Measured and not adopted: docs/bench/blocked-models.md, "Covering decisions".
//!
//! The covering clauses are read off the file: every clause whose literals
//! are all positive and all projected (for a domination file, "this square
//! is occupied or attacked"). Modes:
//!
//! - `solver`: the propagator only observes and rejects models;
//! - `mrv`: each decision places a piece on a candidate of the open
//!   covering clause with the fewest unassigned literals (ties: the first),
//!   the candidate that appears in the most open covering clauses;
//! - `mrv-first`: the same clause, its first unassigned candidate;
//! - `mrv-top`: `mrv` for the first three decision levels, CaDiCaL's own
//!   decisions below them;
//! - `bound`: CaDiCaL's decisions, and the covering bound of dedicated
//!   searches added as clauses (see [`State::bound`]).
//!
//! ```text
//! cargo run --release -p boardsat-solve --example cover_decisions -- FILE solver|mrv|mrv-first|mrv-top|bound [SECONDS]
//! ```

use std::{
    cell::RefCell,
    fs::File,
    io::BufReader,
    process::ExitCode,
    rc::Rc,
    time::{Duration, Instant},
};

use boardsat_solve::{backend::TimeLimit, dimacs, Backend, Cadical};
use cadical_sys::ExternalPropagator;

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Solver,
    Mrv,
    MrvFirst,
    MrvTop,
    Bound,
}

struct State {
    mode: Mode,
    /// Per variable (1-based): 0 unassigned, 1 true, 2 false.
    value: Vec<u8>,
    /// Covering clauses (1-based variables).
    clauses: Vec<Vec<usize>>,
    /// Covering clauses of each variable.
    occurs: Vec<Vec<usize>>,
    satisfied: Vec<u32>,
    free: Vec<u32>,
    trail: Vec<i32>,
    levels: Vec<usize>,
    projection: Vec<usize>,
    models: u64,
    pending: Vec<i32>,
    deadline: Option<Instant>,
    decisions: u64,
    /// The squares each square attacks (itself included), as bit sets over
    /// the squares (square i is variable i + 1).
    attack: Vec<Vec<u64>>,
    /// At most this many pieces (the file's `c bound:` line).
    k: usize,
    bound_clauses: u64,
}

impl State {
    /// The covering bound: with `r` pieces left, if the `r` free squares
    /// that cover the most open squares cannot cover them all, the clause
    /// "one placed piece goes, or a false square that would beat the `r`-th
    /// best comes back" (implied by the covering clauses and the bound on
    /// the pieces, not by resolution).
    fn bound(&self) -> Option<Vec<i32>> {
        let n = self.attack.len();
        let words = self.attack[0].len();
        let mut covered = vec![0u64; words];
        let mut placed = Vec::new();
        for q in 0..n {
            if self.value[q + 1] == 1 {
                placed.push(q);
                for (w, a) in covered.iter_mut().zip(&self.attack[q]) {
                    *w |= a;
                }
            }
        }
        if placed.len() >= self.k {
            return None;
        }
        let r = self.k - placed.len();
        let open = n as u32 - covered.iter().map(|w| w.count_ones()).sum::<u32>();
        if open == 0 {
            return None;
        }
        let gain = |q: usize| -> u32 {
            self.attack[q]
                .iter()
                .zip(&covered)
                .map(|(a, c)| (a & !c).count_ones())
                .sum()
        };
        let mut best = vec![0u32; r];
        let mut gains = vec![0u32; n];
        for (q, g) in gains.iter_mut().enumerate() {
            *g = gain(q);
            if self.value[q + 1] == 0 && *g > best[r - 1] {
                best[r - 1] = *g;
                best.sort_unstable_by(|a, b| b.cmp(a));
            }
        }
        if best.iter().sum::<u32>() >= open {
            return None;
        }
        let threshold = best[r - 1];
        let mut clause: Vec<i32> = placed.iter().map(|&q| -(q as i32 + 1)).collect();
        clause.extend(
            (0..n)
                .filter(|&q| self.value[q + 1] == 2 && gains[q] > threshold)
                .map(|q| q as i32 + 1),
        );
        Some(clause)
    }

    fn assign(&mut self, lit: i32) {
        let var = lit.unsigned_abs() as usize;
        if self.value[var] != 0 {
            return;
        }
        self.value[var] = if lit > 0 { 1 } else { 2 };
        self.trail.push(lit);
        for &c in &self.occurs[var] {
            self.free[c] -= 1;
            if lit > 0 {
                self.satisfied[c] += 1;
            }
        }
    }

    fn unassign(&mut self, lit: i32) {
        let var = lit.unsigned_abs() as usize;
        self.value[var] = 0;
        for &c in &self.occurs[var] {
            self.free[c] += 1;
            if lit > 0 {
                self.satisfied[c] -= 1;
            }
        }
    }

    fn decide(&mut self) -> i32 {
        if matches!(self.mode, Mode::Solver | Mode::Bound)
            || (self.mode == Mode::MrvTop && self.levels.len() > 2)
        {
            return 0;
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return 0;
        }
        let mut best: Option<(u32, usize)> = None;
        for c in 0..self.clauses.len() {
            if self.satisfied[c] == 0
                && self.free[c] > 0
                && best.is_none_or(|(f, _)| self.free[c] < f)
            {
                best = Some((self.free[c], c));
            }
        }
        let Some((_, c)) = best else { return 0 };
        let mut pick: Option<(usize, usize)> = None;
        for &v in &self.clauses[c] {
            if self.value[v] != 0 {
                continue;
            }
            if self.mode == Mode::MrvFirst {
                pick = Some((0, v));
                break;
            }
            let open = self.occurs[v]
                .iter()
                .filter(|&&d| self.satisfied[d] == 0)
                .count();
            if pick.is_none_or(|(o, _)| open > o) {
                pick = Some((open, v));
            }
        }
        match pick {
            Some((_, v)) => {
                self.decisions += 1;
                v as i32
            }
            None => 0,
        }
    }
}

struct Prop(Rc<RefCell<State>>);

impl ExternalPropagator for Prop {
    fn notify_assignment(&mut self, lits: &[i32]) {
        let mut s = self.0.borrow_mut();
        for &lit in lits {
            s.assign(lit);
        }
    }

    fn notify_new_decision_level(&mut self) {
        let mut s = self.0.borrow_mut();
        let len = s.trail.len();
        s.levels.push(len);
    }

    fn notify_backtrack(&mut self, new_level: usize) {
        let mut s = self.0.borrow_mut();
        let Some(&keep) = s.levels.get(new_level) else {
            return;
        };
        s.levels.truncate(new_level);
        while s.trail.len() > keep {
            let lit = s.trail.pop().expect("above keep");
            s.unassign(lit);
        }
    }

    fn cb_check_found_model(&mut self, model: &[i32]) -> bool {
        let mut s = self.0.borrow_mut();
        let mut clause: Vec<i32> = model.iter().filter(|&&l| l > 0).map(|&l| -l).collect();
        clause.retain(|l| {
            s.projection
                .binary_search(&(l.unsigned_abs() as usize))
                .is_ok()
        });
        s.models += 1;
        clause.reverse();
        s.pending = clause;
        s.pending.insert(0, 0);
        false
    }

    fn cb_decide(&mut self) -> i32 {
        self.0.borrow_mut().decide()
    }

    fn cb_has_external_clause(&mut self, is_forgettable: &mut bool) -> bool {
        let mut s = self.0.borrow_mut();
        if !s.pending.is_empty() {
            *is_forgettable = false;
            return true;
        }
        if s.mode != Mode::Bound {
            return false;
        }
        let Some(mut clause) = s.bound() else {
            return false;
        };
        s.bound_clauses += 1;
        *is_forgettable = true;
        clause.reverse();
        clause.insert(0, 0);
        s.pending = clause;
        true
    }

    fn cb_add_external_clause_lit(&mut self) -> i32 {
        self.0.borrow_mut().pending.pop().unwrap_or(0)
    }
}

/// The board of a file written by `boardsat` (its `c board: RxC` line);
/// square (r, c) is variable r * C + c + 1 and the pieces are queens.
fn board_of(path: &str) -> Result<(usize, usize), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("c board: "))
        .ok_or("no 'c board:' line")?;
    let (r, c) = line.split_once('x').ok_or("bad board line")?;
    Ok((
        r.trim().parse().map_err(|_| "bad rows")?,
        c.trim().parse().map_err(|_| "bad cols")?,
    ))
}

/// The file's bound on the pieces (its `c bound: at most K pieces` line).
fn bound_of(path: &str) -> Result<usize, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    text.lines()
        .find_map(|l| l.strip_prefix("c bound: at most "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|k| k.parse().ok())
        .ok_or_else(|| "no 'c bound: at most K' line".to_string())
}

fn run(path: &str, mode: Mode, limit: Option<Duration>) -> Result<String, String> {
    let file = File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let formula = dimacs::parse(BufReader::new(file)).map_err(|e| format!("{path}: {e:?}"))?;
    let projection: Vec<usize> = formula
        .projection_or_all()
        .iter()
        .map(|v| v.idx() + 1)
        .collect();
    let n = formula.n_vars as usize + 1;
    let (rows, cols) = board_of(path)?;
    let mut clauses = Vec::new();
    let mut occurs = vec![Vec::new(); n];
    for r in 0..rows {
        for c in 0..cols {
            let vars: Vec<usize> = (0..rows)
                .flat_map(|r2| (0..cols).map(move |c2| (r2, c2)))
                .filter(|&(r2, c2)| r2 == r || c2 == c || r2 + c == c2 + r || r2 + c2 == r + c)
                .map(|(r2, c2)| r2 * cols + c2 + 1)
                .collect();
            for &v in &vars {
                occurs[v].push(clauses.len());
            }
            clauses.push(vars);
        }
    }
    let free = clauses.iter().map(|c| c.len() as u32).collect();
    let words = (rows * cols).div_ceil(64);
    let attack: Vec<Vec<u64>> = clauses
        .iter()
        .map(|vars| {
            let mut set = vec![0u64; words];
            for &v in vars {
                set[(v - 1) / 64] |= 1 << ((v - 1) % 64);
            }
            set
        })
        .collect();
    let k = bound_of(path)?;
    let mut sorted = projection.clone();
    sorted.sort_unstable();
    let state = Rc::new(RefCell::new(State {
        mode,
        value: vec![0; n],
        satisfied: vec![0; clauses.len()],
        free,
        clauses,
        occurs,
        trail: Vec::new(),
        levels: Vec::new(),
        projection: sorted,
        models: 0,
        pending: Vec::new(),
        deadline: limit.map(|l| Instant::now() + l),
        decisions: 0,
        attack,
        k,
        bound_clauses: 0,
    }));
    let mut solver = Cadical::for_enumeration();
    for clause in &formula.clauses {
        solver.add_clause(clause).map_err(|e| e.to_string())?;
    }
    solver.set_time_limit(limit);
    let start = Instant::now();
    let n_cover = state.borrow().clauses.len();
    let raw = solver.raw();
    raw.connect_external_propagator(Prop(Rc::clone(&state)));
    for &v in &projection {
        raw.add_observed_var(v as i32);
    }
    let status = solver.solve(&[]).map_err(|e| e.to_string())?;
    let stopped = match status {
        boardsat_solve::Status::Unsat => "",
        boardsat_solve::Status::Unknown => " (stopped)",
        boardsat_solve::Status::Sat => return Err("the count ended on a model".to_string()),
    };
    let s = state.borrow();
    Ok(format!(
        "{}: {} models{stopped}, {:.2} s, {} conflicts, {} decisions ({} ours), {} covering clauses, {} bound clauses",
        match mode {
            Mode::Solver => "solver",
            Mode::Mrv => "mrv",
            Mode::MrvFirst => "mrv-first",
            Mode::MrvTop => "mrv-top",
            Mode::Bound => "bound",
        },
        s.models,
        start.elapsed().as_secs_f64(),
        solver.raw().get_statistic_value("conflicts"),
        solver.raw().get_statistic_value("decisions"),
        s.decisions,
        n_cover,
        s.bound_clauses,
    ))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = || {
        eprintln!("usage: cover_decisions FILE solver|mrv|mrv-first|mrv-top|bound [SECONDS]");
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
    let mode = match mode.as_str() {
        "solver" => Mode::Solver,
        "mrv" => Mode::Mrv,
        "mrv-first" => Mode::MrvFirst,
        "mrv-top" => Mode::MrvTop,
        "bound" => Mode::Bound,
        _ => return usage(),
    };
    match run(path, mode, limit) {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("cover_decisions: {e}");
            ExitCode::from(1)
        }
    }
}
