//! The LRAT checker on a small formula and an arbitrary proof: never a
//! panic, and never "verified" for a formula that has a model (found by
//! trying every assignment of its at most 5 variables).
//!
//! The input: a first byte choosing the syntax (binary, text, detect), a
//! byte with the number of formula clauses (up to 8), then per clause a
//! length byte (1 to 4 literals) and one byte per literal (variable 1 to
//! 5, its sign), then the proof.
#![no_main]

use boardsat_lrat::{Checker, Limits, Syntax};
use libfuzzer_sys::fuzz_target;

const VARS: u32 = 5;

fn formula(bytes: &[u8]) -> (Vec<Vec<i32>>, &[u8]) {
    let Some((&n, mut rest)) = bytes.split_first() else {
        return (Vec::new(), bytes);
    };
    let mut clauses = Vec::new();
    for _ in 0..n % 9 {
        let Some((&len, tail)) = rest.split_first() else {
            break;
        };
        let len = usize::from(len % 4) + 1;
        let take = len.min(tail.len());
        let clause = tail[..take]
            .iter()
            .map(|&b| {
                let var = i32::try_from(u32::from(b & 0x7f) % VARS + 1).unwrap_or(1);
                if b & 0x80 == 0 {
                    var
                } else {
                    -var
                }
            })
            .collect();
        clauses.push(clause);
        rest = &tail[take..];
    }
    (clauses, rest)
}

fn satisfiable(clauses: &[Vec<i32>]) -> bool {
    (0u32..1 << VARS).any(|a| {
        clauses.iter().all(|c| {
            c.iter()
                .any(|&l| (a >> (l.unsigned_abs() - 1) & 1 == 1) == (l > 0))
        })
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&syntax, rest)) = data.split_first() else {
        return;
    };
    let syntax = [Syntax::Binary, Syntax::Text, Syntax::Detect][usize::from(syntax % 3)];
    let (clauses, proof) = formula(rest);
    // Small limits: the defaults let a proof naming variable 2^26 allocate
    // 64 MiB, by design, and each such input would cost the fuzzer a
    // page-fault storm instead of an execution.
    let mut checker = Checker::new(Limits {
        max_var: 1 << 12,
        max_step_len: 1 << 12,
    });
    for clause in &clauses {
        if checker.add_formula_clause(clause).is_err() {
            return;
        }
    }
    if let Ok(summary) = checker.check(proof, syntax) {
        assert!(
            !satisfiable(&clauses),
            "verified a satisfiable formula {clauses:?}: {summary:?}"
        );
    }
});
