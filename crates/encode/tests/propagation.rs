//! The propagation claims of the module docs, checked: for every partial
//! assignment of the inputs (n ≤ 7, every k, every direction an encoding
//! supports), unit propagation on the encoding with the bound enforced
//! fixes exactly what arc consistency requires, and nothing else:
//!
//! - "at most k" with k inputs true: every other input false; with k + 1
//!   true: a conflict;
//! - "at least k" with n − k inputs false: every other input true; with
//!   n − k + 1 false: a conflict;
//! - "exactly k": both;
//! - otherwise no input fixed and no conflict.
//!
//! The unit propagator is written here, sharing nothing with the encoders.
//! Where the docs claim arc consistency (sequential counter, totalizer,
//! cardinality network, the AMO encodings) every partial assignment must
//! pass; where they deny it (modulo totalizer) a counterexample must exist.

mod common;

use boardsat_encode::{card::Direction, Amo, Bound, Card};
use common::inputs;
use rustsat::{
    instances::Cnf,
    types::{Clause, Lit},
};

/// A clause database with occurrence lists, propagated from scratch for
/// every query.
struct Propagator {
    clauses: Vec<Vec<Lit>>,
    /// `occurrences[2·v + s]`: the clauses holding variable v with sign s
    /// (0 positive, 1 negative).
    occurrences: Vec<Vec<usize>>,
    n_vars: usize,
}

fn index(l: Lit) -> usize {
    2 * l.var().idx() + usize::from(l.is_neg())
}

/// The outcome of unit propagation.
#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    Conflict,
    /// The value of every variable after propagation, `None` when open.
    Fixed(Vec<Option<bool>>),
}

impl Propagator {
    fn new<'a>(clauses: impl IntoIterator<Item = &'a Clause>) -> Self {
        let clauses: Vec<Vec<Lit>> = clauses
            .into_iter()
            .map(|cl| cl.iter().copied().collect())
            .collect();
        let n_vars = clauses
            .iter()
            .flatten()
            .map(|l| l.var().idx() + 1)
            .max()
            .unwrap_or(0);
        let mut occurrences = vec![Vec::new(); 2 * n_vars];
        for (i, clause) in clauses.iter().enumerate() {
            for &l in clause {
                occurrences[index(l)].push(i);
            }
        }
        Propagator {
            clauses,
            occurrences,
            n_vars,
        }
    }

    /// Unit propagation from the literals `given`, to a fixpoint.
    fn propagate(&self, given: &[Lit], n_vars: usize) -> Outcome {
        let mut value: Vec<Option<bool>> = vec![None; n_vars.max(self.n_vars)];
        let mut queue: Vec<Lit> = Vec::new();
        let assign = |l: Lit, value: &mut Vec<Option<bool>>, queue: &mut Vec<Lit>| -> bool {
            match value[l.var().idx()] {
                Some(v) => v == l.is_pos(),
                None => {
                    value[l.var().idx()] = Some(l.is_pos());
                    queue.push(l);
                    true
                }
            }
        };
        for &l in given {
            if !assign(l, &mut value, &mut queue) {
                return Outcome::Conflict;
            }
        }
        // Clauses can be unit (or empty) from the start.
        let mut pending: Vec<usize> = (0..self.clauses.len()).collect();
        loop {
            for i in pending.drain(..) {
                let mut open = None;
                let mut n_open = 0;
                let mut satisfied = false;
                for &l in &self.clauses[i] {
                    match value[l.var().idx()] {
                        Some(v) if v == l.is_pos() => {
                            satisfied = true;
                            break;
                        }
                        Some(_) => {}
                        None => {
                            n_open += 1;
                            open = Some(l);
                        }
                    }
                }
                if satisfied {
                    continue;
                }
                match (n_open, open) {
                    (0, _) => return Outcome::Conflict,
                    (1, Some(l)) => {
                        assign(l, &mut value, &mut queue);
                    }
                    _ => {}
                }
            }
            // Clauses that hold the negation of a newly true literal may
            // have become unit.
            let Some(l) = queue.pop() else {
                return Outcome::Fixed(value);
            };
            let falsified = index(!l);
            if falsified < self.occurrences.len() {
                pending.extend(&self.occurrences[falsified]);
            }
        }
    }
}

/// The inputs a partial assignment `digits` (base 3: 0 open, 1 true,
/// 2 false) fixes, as literals.
fn partial(lits: &[Lit], mut digits: usize) -> Vec<Lit> {
    let mut out = Vec::new();
    for &l in lits {
        match digits % 3 {
            1 => out.push(l),
            2 => out.push(!l),
            _ => {}
        }
        digits /= 3;
    }
    out
}

/// What arc consistency requires of the inputs under `given`: a conflict,
/// or the value of every input.
fn required(bound: Bound, lits: &[Lit], given: &[Lit]) -> Outcome {
    let n = lits.len();
    let n_true = given.iter().filter(|l| l.is_pos()).count();
    let n_false = given.len() - n_true;
    let (too_many, too_few) = match bound {
        Bound::AtMost(k) => (n_true > k, false),
        Bound::AtLeast(k) => (false, k > n || n_false > n - k),
        Bound::Exactly(k) => (n_true > k, k > n || n_false > n - k),
    };
    if too_many || too_few {
        return Outcome::Conflict;
    }
    // Open inputs are forced false once the upper bound is tight, true once
    // the lower bound is.
    let forced = match bound {
        Bound::AtMost(k) => (n_true == k).then_some(false),
        Bound::AtLeast(k) => (n_false == n - k).then_some(true),
        Bound::Exactly(k) => (n_true == k)
            .then_some(false)
            .or((n_false == n - k).then_some(true)),
    };
    let mut value = vec![forced; n];
    for l in given {
        value[l.var().idx()] = Some(l.is_pos());
    }
    Outcome::Fixed(value)
}

/// Unit propagation restricted to the inputs (variables 0..n).
fn on_inputs(outcome: Outcome, n: usize) -> Outcome {
    match outcome {
        Outcome::Conflict => Outcome::Conflict,
        Outcome::Fixed(mut value) => {
            value.truncate(n);
            Outcome::Fixed(value)
        }
    }
}

/// The first partial assignment on which unit propagation over `clauses`
/// with the units `enforced` differs from what `bound` requires, or `None`
/// when it is arc consistent on every one.
fn counterexample(
    clauses: &Cnf,
    enforced: &[Lit],
    lits: &[Lit],
    bound: Bound,
) -> Option<(Vec<Lit>, Outcome, Outcome)> {
    let n = lits.len();
    let propagator = Propagator::new(clauses.iter());
    for digits in 0..3usize.pow(u32::try_from(n).unwrap()) {
        let given = partial(lits, digits);
        let mut all = given.clone();
        all.extend(enforced);
        let got = on_inputs(propagator.propagate(&all, n), n);
        let want = required(bound, lits, &given);
        if got != want {
            return Some((given, got, want));
        }
    }
    None
}

/// How a counter is built for a bound: hard (for exactly that bound, as
/// [`Card::encode`]) or open (for every bound up to n in `direction`, the
/// bound then enforced by assumptions, as the optimiser does).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Build {
    Hard,
    Open(Direction),
}

/// The clauses and the units enforcing `bound` over `n` inputs.
fn encoded(card: Card, n: usize, bound: Bound, build: Build) -> (Vec<Lit>, Cnf, Vec<Lit>) {
    let (lits, mut vars) = inputs(n);
    let mut cnf = Cnf::new();
    let units = match build {
        Build::Hard => {
            card.encode(&lits, bound, &mut cnf, &mut vars).unwrap();
            Vec::new()
        }
        Build::Open(direction) => {
            let counter = card
                .build(&lits, direction, n, &mut cnf, &mut vars)
                .unwrap();
            let enforcement = counter.enforce(bound, &mut vars).unwrap();
            cnf.extend(enforcement.clauses);
            enforcement.assumptions
        }
    };
    (lits, cnf, units)
}

/// Every bound over up to `max_n` inputs, with every build that supports it.
fn cases(max_n: usize) -> Vec<(usize, Bound, Build)> {
    let mut out = Vec::new();
    for n in 0..=max_n {
        for k in 0..=n {
            for bound in [Bound::AtMost(k), Bound::AtLeast(k), Bound::Exactly(k)] {
                out.push((n, bound, Build::Hard));
                out.push((n, bound, Build::Open(Direction::Both)));
                if bound.direction() != Direction::Both {
                    out.push((n, bound, Build::Open(bound.direction())));
                }
            }
        }
    }
    out
}

fn failures(card: Card, max_n: usize) -> Vec<String> {
    cases(max_n)
        .into_iter()
        .filter_map(|(n, bound, build)| {
            let (lits, cnf, units) = encoded(card, n, bound, build);
            counterexample(&cnf, &units, &lits, bound).map(|(given, got, want)| {
                format!(
                    "{card} {bound} of {n} ({build:?}): given {given:?}, \
                     propagation {got:?}, arc consistency {want:?}"
                )
            })
        })
        .collect()
}

#[test]
fn the_propagator_is_a_propagator() {
    // x0 ∨ x1, ¬x1 ∨ x2, ¬x2: propagates x1 false, then x0 true.
    let (lits, _) = inputs(3);
    let [x0, x1, x2] = [lits[0], lits[1], lits[2]];
    let clauses = [
        rustsat::clause![x0, x1],
        rustsat::clause![!x1, x2],
        rustsat::clause![!x2],
    ];
    let propagator = Propagator::new(clauses.iter());
    assert_eq!(
        propagator.propagate(&[], 3),
        Outcome::Fixed(vec![Some(true), Some(false), Some(false)])
    );
    assert_eq!(propagator.propagate(&[!x0], 3), Outcome::Conflict);
    // Nothing to propagate: everything stays open.
    let open = Propagator::new([rustsat::clause![x0, x1, x2]].iter());
    assert_eq!(open.propagate(&[], 3), Outcome::Fixed(vec![None; 3]));
    // The arc-consistency oracle: at most 1 of 3 with x0 true forces the
    // rest false; at least 2 with x0 false forces the rest true.
    assert_eq!(
        required(Bound::AtMost(1), &lits, &[x0]),
        Outcome::Fixed(vec![Some(true), Some(false), Some(false)])
    );
    assert_eq!(
        required(Bound::AtLeast(2), &lits, &[!x0]),
        Outcome::Fixed(vec![Some(false), Some(true), Some(true)])
    );
    assert_eq!(
        required(Bound::Exactly(1), &lits, &[x0, x1]),
        Outcome::Conflict
    );
    assert_eq!(
        required(Bound::AtMost(2), &lits, &[x0]),
        Outcome::Fixed(vec![Some(true), None, None])
    );
}

#[test]
fn the_sequential_counter_is_arc_consistent() {
    let failures = failures(Card::SequentialCounter, 7);
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn the_totalizer_is_arc_consistent() {
    let failures = failures(Card::Totalizer, 7);
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn the_cardinality_network_is_arc_consistent() {
    let failures = failures(Card::CardinalityNetwork, 7);
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn the_modulo_totalizer_is_not_arc_consistent() {
    // The module doc's example: at most 2 of 3 with x0 and x1 true leaves
    // x2 open (its carry is undecided).
    let (lits, cnf, mut given) = encoded(Card::ModuloTotalizer, 3, Bound::AtMost(2), Build::Hard);
    given.extend(&lits[..2]);
    let got = on_inputs(Propagator::new(cnf.iter()).propagate(&given, 3), 3);
    assert_eq!(got, Outcome::Fixed(vec![Some(true), Some(true), None]));
    assert!(!failures(Card::ModuloTotalizer, 7).is_empty());
}

/// Whether unit propagation refutes every complete input assignment that
/// violates the bound, for every bound over up to `max_n` inputs built as
/// `build` says.
fn refutes_complete_assignments(card: Card, max_n: usize, build: impl Fn(Bound) -> Build) -> bool {
    cases(max_n)
        .into_iter()
        .filter(|&(_, bound, b)| b == build(bound))
        .all(|(n, bound, b)| {
            let (lits, cnf, units) = encoded(card, n, bound, b);
            let propagator = Propagator::new(cnf.iter());
            (0..1usize << n).all(|mask| {
                let given: Vec<Lit> = lits
                    .iter()
                    .enumerate()
                    .map(|(i, &l)| if mask >> i & 1 == 1 { l } else { !l })
                    .collect();
                let want = required(bound, &lits, &given);
                let mut all = given;
                all.extend(&units);
                want != Outcome::Conflict || propagator.propagate(&all, n) == Outcome::Conflict
            })
        })
}

#[test]
fn the_modulo_totalizer_refutes_complete_assignments_only_with_both_halves() {
    // The module doc's example: one half only (a hard "at most 2"), x1, x2
    // and x4 true of 5: the carries stay open and nothing conflicts.
    let (lits, cnf, mut given) = encoded(Card::ModuloTotalizer, 5, Bound::AtMost(2), Build::Hard);
    given.extend([!lits[0], lits[1], lits[2], !lits[3], lits[4]]);
    let got = Propagator::new(cnf.iter()).propagate(&given, 5);
    assert_ne!(got, Outcome::Conflict);
    assert!(!refutes_complete_assignments(
        Card::ModuloTotalizer,
        7,
        |b| { Build::Open(b.direction()) }
    ));
    // Both halves: every violating complete assignment is refuted.
    assert!(refutes_complete_assignments(
        Card::ModuloTotalizer,
        7,
        |_| { Build::Open(Direction::Both) }
    ));
}

#[test]
fn amo_encodings_are_arc_consistent() {
    for amo in Amo::EAGER {
        for n in 0..=9 {
            let (lits, mut vars) = inputs(n);
            let mut cnf = Cnf::new();
            amo.encode(&lits, &mut cnf, &mut vars).unwrap();
            let found = counterexample(&cnf, &[], &lits, Bound::AtMost(1));
            assert_eq!(found, None, "{amo} over {n}");
        }
    }
}
