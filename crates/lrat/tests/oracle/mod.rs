//! A naive LRAT oracle that shares nothing with the checker: it ignores
//! the hints and checks each lemma by full unit propagation over every
//! live clause. Slow, but an accepted proof is a valid proof. Also used by
//! `crates/solve/tests/lrat.rs` (through `#[path]`).

use std::collections::{BTreeMap, HashMap};

/// Whether unit propagation over `clauses` from the negation of `lemma`
/// reaches a conflict.
fn rup<'a>(clauses: impl Iterator<Item = &'a Vec<i32>> + Clone, lemma: &[i32]) -> bool {
    let mut value: HashMap<i32, bool> = HashMap::new();
    for &lit in lemma {
        match value.get(&lit.abs()) {
            Some(&v) if v == (lit > 0) => return true, // a tautology
            _ => {
                value.insert(lit.abs(), lit < 0);
            }
        }
    }
    loop {
        let mut changed = false;
        for clause in clauses.clone() {
            let mut open = Vec::new();
            let mut satisfied = false;
            for &lit in clause {
                match value.get(&lit.abs()) {
                    Some(&v) if v == (lit > 0) => satisfied = true,
                    Some(_) => {}
                    None => {
                        if !open.contains(&lit) {
                            open.push(lit);
                        }
                    }
                }
            }
            if satisfied {
                continue;
            }
            match open.as_slice() {
                [] => return true,
                // `x ∨ ¬x` is open twice, never unit.
                [lit] => {
                    value.insert(lit.abs(), *lit > 0);
                    changed = true;
                }
                _ => {}
            }
        }
        if !changed {
            return false;
        }
    }
}

/// Checks a text LRAT proof without its hints: `Ok` only when every lemma
/// is implied by unit propagation over the live clauses, deletions name
/// live clauses, ids are not live when added, and the empty clause is in
/// the formula or derived.
pub fn check(formula: &[Vec<i32>], proof: &str) -> Result<(), String> {
    let mut live: BTreeMap<i64, Vec<i32>> = BTreeMap::new();
    let mut refuted = false;
    for (i, clause) in formula.iter().enumerate() {
        live.insert(i as i64 + 1, clause.clone());
        refuted |= clause.is_empty();
    }
    for (n, line) in proof.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('c') {
            continue;
        }
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let number = |t: &str| -> Result<i64, String> {
            t.parse::<i64>()
                .map_err(|e| format!("line {}: {t}: {e}", n + 1))
        };
        let id = number(tokens[0])?;
        if tokens.get(1) == Some(&"d") {
            let ids: Vec<i64> = tokens[2..]
                .iter()
                .map(|t| number(t))
                .collect::<Result<_, _>>()?;
            let (last, ids) = ids.split_last().ok_or("empty deletion")?;
            if *last != 0 || ids.contains(&0) {
                return Err(format!("line {}: deletion not ended by one 0", n + 1));
            }
            for id in ids {
                live.remove(id)
                    .ok_or(format!("line {}: {id} not live", n + 1))?;
            }
            continue;
        }
        let numbers: Vec<i64> = tokens[1..]
            .iter()
            .map(|t| number(t))
            .collect::<Result<_, _>>()?;
        let zeros: Vec<usize> = (0..numbers.len()).filter(|&i| numbers[i] == 0).collect();
        if zeros.len() != 2 || zeros[1] != numbers.len() - 1 || id <= 0 {
            return Err(format!("line {}: not `id lits 0 hints 0`", n + 1));
        }
        let lemma: Vec<i32> = numbers[..zeros[0]]
            .iter()
            .map(|&l| i32::try_from(l).map_err(|e| e.to_string()))
            .collect::<Result<_, _>>()?;
        if live.contains_key(&id) {
            return Err(format!("line {}: id {id} is live", n + 1));
        }
        if !rup(live.values(), &lemma) {
            return Err(format!("line {}: lemma {lemma:?} is not RUP", n + 1));
        }
        refuted |= lemma.is_empty();
        live.insert(id, lemma);
    }
    if refuted {
        Ok(())
    } else {
        Err("no empty clause".to_string())
    }
}
