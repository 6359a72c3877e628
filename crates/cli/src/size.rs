//! Refusing encodings that would not fit in memory, before building them.
//!
//! [`check`] estimates the encoding with `boardsat_encode::Estimate`
//! (closed forms, within 2× of the real sizes) and refuses above
//! [`MAX_CLAUSES`] clauses or [`MAX_BYTES`] of memory, naming the estimate
//! and the cheapest encoding choice that would fit; `--force` goes on
//! regardless.

use anyhow::{bail, Result};
use boardsat_encode::{Amo, Card, Config, Estimate, Problem};

/// The most clauses boardsat builds without `--force`.
pub const MAX_CLAUSES: u64 = 200_000_000;

/// The most memory (estimated) boardsat uses without `--force`: 8 GiB.
pub const MAX_BYTES: u64 = 8 << 30;

fn estimate(problem: &Problem, k: Option<usize>, config: Config) -> Estimate {
    match k {
        Some(k) => problem.estimate(k, config),
        None => problem.estimate_open(problem.open_bound_guess(), config),
    }
}

fn fits(e: &Estimate) -> bool {
    e.n_clauses <= MAX_CLAUSES && e.bytes() <= MAX_BYTES
}

/// A count in words: `1.7 billion`, `312.5 million`, `48213`.
fn count(n: u64) -> String {
    let x = n as f64;
    let text = if x >= 1e12 {
        format!("{:.1} trillion", x / 1e12)
    } else if x >= 1e9 {
        format!("{:.1} billion", x / 1e9)
    } else if x >= 1e6 {
        format!("{:.1} million", x / 1e6)
    } else {
        n.to_string()
    };
    text.replace(".0 ", " ")
}

/// Refuses a problem whose encoding is estimated above the limits, unless
/// `force`.
///
/// # Errors
///
/// One line: the estimate, the limit, and a hint.
pub fn check(problem: &Problem, k: Option<usize>, config: Config, force: bool) -> Result<()> {
    let e = estimate(problem, k, config);
    if force || fits(&e) {
        return Ok(());
    }
    // The cheapest single change of encoding that fits, if any.
    let mut options: Vec<(String, Estimate)> = Vec::new();
    for amo in Amo::ALL.into_iter().filter(|&a| a != config.amo) {
        let c = Config { amo, ..config };
        options.push((format!("--amo {amo}"), estimate(problem, k, c)));
    }
    for card in Card::ALL.into_iter().filter(|&c| c != config.card) {
        let c = Config { card, ..config };
        options.push((format!("--card {card}"), estimate(problem, k, c)));
    }
    let best = options
        .into_iter()
        .filter(|(_, e)| fits(e))
        .min_by_key(|(_, e)| e.bytes());
    let hint = match best {
        Some((flag, alt)) => format!(
            "try {flag} (about {} clauses), or --force to go on",
            count(alt.n_clauses)
        ),
        None => "no other encoding fits either; a smaller board, or --force to go on".to_string(),
    };
    bail!(
        "the encoding of {problem} would have about {} clauses and {} literals (about {:.1} GiB), above the limit of {} clauses or {} GiB; {hint}",
        count(e.n_clauses),
        count(e.n_lits),
        e.bytes() as f64 / f64::from(1u32 << 30),
        count(MAX_CLAUSES),
        MAX_BYTES >> 30,
    )
}
