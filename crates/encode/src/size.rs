//! Encoding sizes estimated before encoding, so that a problem whose CNF
//! would not fit in memory is refused up front instead of after minutes of
//! swapping.
//!
//! [`Problem::estimate`] (a fixed bound) and [`Problem::estimate_open`] (a
//! counter built for every bound up to a maximum, as the optimiser uses)
//! add up closed forms, in O(√n) arithmetic for a board of n squares:
//!
//! | part | clauses | auxiliary variables |
//! |---|---|---|
//! | lines of a slider | Σ over lines of the AMO cost of its length L | likewise |
//! | `lines` formulation | + one at-least-one clause per row or column | 0 |
//! | leapers | one binary clause per attacking pair: Σ over leaps (r−\|dr\|)(c−\|dc\|) / 2 | 0 |
//! | domination, `cardinality` formulation | one coverage clause per square | 0 |
//! | domination, `lines` formulation | per line of length L: L + 1 clauses (`w ↔ ∨ L`); one coverage clause per square; the implied counters over the lines of each direction | one per line, plus the counters' |
//! | cardinality over N = r·c squares, K = min(k + 1, N) | per direction, below | |
//!
//! Line lengths come in closed form: an r × c board has r rows of length c
//! and c columns of length r; with a = min(r, c) and b = max(r, c) each
//! diagonal direction has two lines of every length 1 … a − 1 and
//! b − a + 1 lines of length a.
//!
//! AMO over L literals (L ≥ 2; the formulas of [`crate::amo`], rounded up):
//! pairwise L(L−1)/2; ladder 3L; bitwise L·⌈log₂ L⌉; commander (groups of
//! 4, g = ⌈L/4⌉) 11g + g(g−1)/2; product (p = ⌈√L⌉, q = ⌈L/p⌉)
//! 2L + p(p−1)/2 + q(q−1)/2; bimander (g = ⌈L/4⌉) 6g + L·⌈log₂ g⌉.
//!
//! Cardinality, per direction ("exactly" counts both):
//! - sequential counter: 2·N·K clauses, N·K variables;
//! - totalizer: on a balanced tree, a node with children of `a` and `b`
//!   inputs (o(x) = min(x, K) outputs each) has one clause per pair
//!   (i, j) ≠ (0, 0) with i ≤ o(a), j ≤ o(b), i + j ≤ K, counted in closed
//!   form, and o(a + b) variables;
//! - modulo totalizer (p = max(2, ⌈√K⌉), C = ⌊(K − 1)/p⌋ + 1): per node
//!   (Lα + 1)(Lβ + 1)·3/2 + 2(Uα + 1)(Uβ + 1) clauses and L + U + 1
//!   variables, with L = min(p − 1, n) and U = min(⌊n/p⌋, C);
//! - cardinality network (m = K rounded up to a power of two 2ᵗ,
//!   b = ⌈N/m⌉): b·HSort(m) + (b − 1)·SMerge(m) comparators, scaled by
//!   5N/(4·b·m) for the padding (at most the unscaled count), 3 clauses and 2 variables each, with
//!   HSort(m) = m·t(t − 1)/4 + m − 1 and SMerge(m) = m + t·m/2.
//!
//! Literals: 2 per binary clause, 3 per clause of the ladder, counters and
//! networks, 4 in the modulo totalizer, the exact lengths for line and
//! coverage clauses. The tests hold every estimate between the real count
//! and twice it for small boards of every piece, kind and encoding (the
//! bitwise, bimander and totalizer estimates are closest; the product and
//! commander ones round up most).
//!
//! [`SizeEstimate::bytes`] turns sizes into memory: a clause held twice (once
//! in the CNF built, once in the solver), about 48 bytes of overhead per
//! clause and 8 per literal, and CaDiCaL's per-variable tables. With the
//! lazy AMO ([`Amo::Lazy`]) the lines cost no clause, literal or variable:
//! the estimate is the at-least-one clauses and the board.

use std::collections::HashMap;

use crate::{
    amo::Amo,
    board::LineKind,
    bound::Direction,
    card::Card,
    error::TooLarge,
    problem::{Config, Formulation, Kind, Problem},
    setting::Setting,
};

/// Estimated encoding sizes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SizeEstimate {
    /// Variables, board and auxiliary.
    pub n_vars: u64,
    /// Clauses.
    pub n_clauses: u64,
    /// Literal occurrences.
    pub n_lits: u64,
}

impl SizeEstimate {
    /// Bytes to hold the encoding, once in a CNF and once in CaDiCaL: a
    /// cost per clause, per literal and per variable (CaDiCaL's tables,
    /// which dominate for the lazy AMO), calibrated on the peak resident
    /// memory of `boardsat solve queens N` with eager and lazy encodings;
    /// the calibration runs and the formula's error are in BENCHMARKS.md
    /// ("Memory estimate calibration").
    #[must_use]
    pub fn bytes(&self) -> u64 {
        self.n_clauses
            .saturating_mul(160)
            .saturating_add(self.n_lits.saturating_mul(16))
            .saturating_add(self.n_vars.saturating_mul(166))
    }

    fn add(&mut self, other: SizeEstimate) {
        self.n_vars = self.n_vars.saturating_add(other.n_vars);
        self.n_clauses = self.n_clauses.saturating_add(other.n_clauses);
        self.n_lits = self.n_lits.saturating_add(other.n_lits);
    }

    /// `count` copies of `self`.
    fn times(self, count: u64) -> SizeEstimate {
        SizeEstimate {
            n_vars: self.n_vars.saturating_mul(count),
            n_clauses: self.n_clauses.saturating_mul(count),
            n_lits: self.n_lits.saturating_mul(count),
        }
    }
}

fn u(x: usize) -> u64 {
    u64::try_from(x).unwrap_or(u64::MAX)
}

fn pairs(n: u64) -> u64 {
    n.saturating_mul(n.saturating_sub(1)) / 2
}

fn ceil_log2(n: u64) -> u64 {
    if n <= 1 {
        0
    } else {
        u64::from(64 - (n - 1).leading_zeros())
    }
}

fn ceil_sqrt(n: u64) -> u64 {
    let mut r = n.isqrt();
    if r * r < n {
        r += 1;
    }
    r
}

/// Binary digits of `x`, with rustsat's convention that 0 has one digit.
fn digits(x: u64) -> u64 {
    u64::from(u64::BITS - x.leading_zeros()).max(1)
}

/// Pairs inside the groups of 4 that `l` inputs are cut into, and the
/// number of groups (rustsat's commander and bimander split).
fn groups_of_four(l: u64) -> (u64, u64) {
    let g = l.div_ceil(4);
    let last = l - 4 * (g - 1);
    ((g - 1) * 6 + pairs(last), g)
}

/// The AMO cost of one line of `len` literals: exact, from rustsat's
/// constructions (pinned by the size tests).
#[must_use]
pub fn amo(amo: Amo, len: usize) -> SizeEstimate {
    let l = u(len);
    if l <= 1 {
        return SizeEstimate::default();
    }
    let (clauses, vars) = match amo.for_len(len) {
        // `for_len` never returns `Auto`; counted as pairwise for the match.
        Amo::Pairwise | Amo::Auto => (pairs(l), 0),
        // The lines go to a propagator (LazyLines), not into clauses.
        Amo::Lazy => (0, 0),
        Amo::Ladder => (3 * l - 4, l - 1),
        Amo::Bitwise => {
            let b = digits(l - 1);
            (l * b, b)
        }
        Amo::Commander => {
            let (inside, g) = groups_of_four(l);
            (l + inside + pairs(g), g)
        }
        Amo::Product => {
            let p = l.isqrt();
            let q = l.div_ceil(p);
            (2 * l + pairs(p) + pairs(q), p + q)
        }
        Amo::Bimander => {
            let (inside, g) = groups_of_four(l);
            let b = digits(g - 1);
            (l.saturating_mul(b) + inside, b)
        }
    };
    // Every clause of these encodings is binary.
    SizeEstimate {
        n_vars: vars,
        n_clauses: clauses,
        n_lits: clauses.saturating_mul(2),
    }
}

/// Σ over the lines of `kind` on a `rows × cols` board of `f(length)`:
/// O(1) for rows and columns, O(min(rows, cols)) for diagonals.
fn sum_over_lines(
    kind: LineKind,
    rows: u64,
    cols: u64,
    f: impl Fn(u64) -> SizeEstimate,
) -> SizeEstimate {
    match kind {
        LineKind::Row => f(cols).times(rows),
        LineKind::Column => f(rows).times(cols),
        LineKind::Diagonal | LineKind::AntiDiagonal => {
            // Two lines of every length 1 … a − 1 and b − a + 1 of length a.
            let (a, b) = (rows.min(cols), rows.max(cols));
            let mut total = f(a).times(b - a + 1);
            for len in 1..a {
                total.add(f(len).times(2));
            }
            total
        }
    }
}

/// Σ over lines of L(L − 1): ordered attacking pairs along lines.
fn ordered_pairs_on_lines(kind: LineKind, rows: u64, cols: u64) -> u64 {
    sum_over_lines(kind, rows, cols, |l| SizeEstimate {
        n_clauses: l.saturating_mul(l.saturating_sub(1)),
        ..SizeEstimate::default()
    })
    .n_clauses
}

/// A cardinality counter over `n` inputs able to tell bounds up to
/// `max_bound` apart, in `direction`.
#[must_use]
pub fn cardinality(card: Card, n: usize, max_bound: usize, direction: Direction) -> SizeEstimate {
    let n = u(n);
    if n == 0 {
        return SizeEstimate::default();
    }
    let max_bound = u(max_bound).min(n);
    let directional = |upper: bool| -> SizeEstimate {
        // "At most k" tells k + 1 true inputs apart, "at least k" only k.
        let k = if upper { max_bound + 1 } else { max_bound }.min(n);
        match card {
            Card::SequentialCounter => {
                let cells = n.saturating_mul((max_bound + 1).min(n));
                SizeEstimate {
                    n_vars: cells,
                    n_clauses: cells.saturating_mul(2),
                    n_lits: cells.saturating_mul(5),
                }
            }
            Card::Totalizer if k == 0 => SizeEstimate::default(),
            Card::Totalizer => tree(n, &mut HashMap::new(), &|a, b| totalizer_node(a, b, k)),
            Card::ModuloTotalizer => {
                let top = (max_bound + 1).min(n);
                let p = ceil_sqrt(top).max(2);
                let cap = max_bound / p + 1;
                let up = tree(n, &mut HashMap::new(), &|a, b| {
                    modulo_totalizer_node(a, b, p, cap)
                });
                if upper {
                    up
                } else {
                    // The downward clauses are about half as many.
                    SizeEstimate {
                        n_clauses: (up.n_clauses * 2).div_ceil(3),
                        n_lits: (up.n_lits * 2).div_ceil(3),
                        ..up
                    }
                }
            }
            Card::CardinalityNetwork => cardinality_network(n, (max_bound + 1).min(n)),
        }
    };
    let up = if direction.upper() {
        directional(true)
    } else {
        SizeEstimate::default()
    };
    let down = if direction.lower() {
        directional(false)
    } else {
        SizeEstimate::default()
    };
    SizeEstimate {
        // The variables are shared between directions.
        n_vars: up.n_vars.max(down.n_vars),
        n_clauses: up.n_clauses.saturating_add(down.n_clauses),
        n_lits: up.n_lits.saturating_add(down.n_lits),
    }
}

/// Sums `node(a, b)` over the inner nodes of a balanced tree over `n`
/// leaves (left ⌊n/2⌋), memoised by size: O(log n) distinct sizes.
fn tree(
    n: u64,
    memo: &mut HashMap<u64, SizeEstimate>,
    node: &dyn Fn(u64, u64) -> SizeEstimate,
) -> SizeEstimate {
    if n <= 1 {
        return SizeEstimate::default();
    }
    if let Some(&e) = memo.get(&n) {
        return e;
    }
    let (a, b) = (n / 2, n - n / 2);
    let mut total = node(a, b);
    total.add(tree(a, memo, node));
    total.add(tree(b, memo, node));
    memo.insert(n, total);
    total
}

/// Pairs (i, j) ≠ (0, 0) with i ≤ oa, j ≤ ob, i + j ≤ k.
fn totalizer_node(a: u64, b: u64, k: u64) -> SizeEstimate {
    let (oa, ob) = (a.min(k), b.min(k));
    // For i ≤ k − ob every j ≤ ob fits; above that, j ≤ k − i.
    let full = if k >= ob { (k - ob).min(oa) + 1 } else { 0 };
    let mut clauses = full.saturating_mul(ob + 1);
    if full <= oa {
        // i from `full` to oa (all ≤ k): k − i + 1 values of j each.
        let (lo, hi) = (full, oa);
        let count = hi - lo + 1;
        let first = k - lo + 1;
        let last = k - hi + 1;
        clauses = clauses.saturating_add(count.saturating_mul(first + last) / 2);
    }
    let clauses = clauses.saturating_sub(1);
    SizeEstimate {
        n_vars: (a + b).min(k),
        n_clauses: clauses,
        n_lits: clauses.saturating_mul(3),
    }
}

fn modulo_totalizer_node(a: u64, b: u64, p: u64, cap: u64) -> SizeEstimate {
    let lower = |x: u64| (p - 1).min(x);
    let upper = |x: u64| (x / p).min(cap);
    let n = a + b;
    let lower_part = (lower(a) + 1) * (lower(b) + 1);
    let upper_part = (upper(a) + 1) * (upper(b) + 1);
    let clauses = (lower_part * 3).div_ceil(2) + 2 * upper_part;
    SizeEstimate {
        n_vars: lower(n) + upper(n) + 1,
        n_clauses: clauses,
        n_lits: clauses.saturating_mul(3),
    }
}

fn cardinality_network(n: u64, k: u64) -> SizeEstimate {
    let m = k.next_power_of_two();
    let t = ceil_log2(m);
    let blocks = n.div_ceil(m);
    let hsort = m * t * t.saturating_sub(1) / 4 + m - 1;
    let smerge = m + t * m / 2;
    let padded = blocks
        .saturating_mul(hsort)
        .saturating_add((blocks - 1).saturating_mul(smerge));
    // Padding to b·m inputs only removes comparators: scale by the share
    // of real inputs, with a quarter more for the simplified comparators
    // that survive (never above the padded count).
    let scaled =
        (u128::from(padded) * u128::from(n) * 5).div_ceil(u128::from(blocks) * u128::from(m) * 4);
    let comparators = u64::try_from(scaled).unwrap_or(u64::MAX).min(padded);
    // Two binary clauses and one ternary per comparator and direction.
    SizeEstimate {
        n_vars: comparators.saturating_mul(2),
        n_clauses: comparators.saturating_mul(3),
        n_lits: comparators.saturating_mul(7),
    }
}

impl Problem {
    /// The estimated size of [`Problem::encode`] with `k` pieces and
    /// `config` (see the module docs for the formulas). Cheap: no clause is
    /// built.
    #[must_use]
    pub fn estimate(&self, k: usize, config: Config) -> SizeEstimate {
        let lines = self.effective_formulation(config.formulation, k) == Formulation::Lines;
        let mut total = self.estimate_base(config.amo, lines);
        if lines && self.kind.dominating() {
            let mut implied = self.estimate_implied(config.card, k);
            // Their enforcements: a few unit clauses each.
            let kinds = u(self.piece.line_kinds().len());
            implied.n_clauses = implied.n_clauses.saturating_add(2 * kinds);
            implied.n_lits = implied.n_lits.saturating_add(2 * kinds);
            total.add(implied);
        }
        if !lines || self.kind.dominating() {
            let bound = self.kind.bound(k);
            let mut card = cardinality(
                config.card,
                self.board.n_squares(),
                bound.k(),
                bound.direction(),
            );
            // The enforcement: a few unit clauses.
            card.n_clauses = card.n_clauses.saturating_add(2);
            card.n_lits = card.n_lits.saturating_add(2);
            total.add(card);
        }
        total
    }

    /// The estimated size of [`Problem::encode_open`] with a counter for
    /// bounds up to `max_bound`.
    #[must_use]
    pub fn estimate_open(&self, max_bound: usize, config: Config) -> SizeEstimate {
        let lines = self.kind.dominating()
            && self.effective_formulation(config.formulation, max_bound) == Formulation::Lines;
        let mut total = self.estimate_base(config.amo, lines);
        if lines {
            total.add(self.estimate_implied(config.card, max_bound));
        }
        let direction = if self.kind.dominating() {
            Direction::Upper
        } else {
            Direction::Lower
        };
        total.add(cardinality(
            config.card,
            self.board.n_squares(),
            max_bound,
            direction,
        ));
        total
    }

    fn estimate_base(&self, amo_encoding: Amo, lines: bool) -> SizeEstimate {
        let (rows, cols) = (u(self.board.rows()), u(self.board.cols()));
        let squares = rows.saturating_mul(cols);
        let mut total = SizeEstimate {
            n_vars: squares,
            ..SizeEstimate::default()
        };
        let leap_pairs: u64 = self
            .piece
            .leaps()
            .iter()
            .map(|&(dr, dc)| {
                rows.saturating_sub(u(dr.unsigned_abs()))
                    .saturating_mul(cols.saturating_sub(u(dc.unsigned_abs())))
            })
            .sum::<u64>()
            / 2;
        if self.kind.independent() {
            for &kind in self.piece.line_kinds() {
                total.add(sum_over_lines(kind, rows, cols, |l| {
                    amo(amo_encoding, usize::try_from(l).unwrap_or(usize::MAX))
                }));
            }
            if lines {
                // One at-least-one clause per row (rows ≤ cols) and per
                // column (cols ≤ rows).
                if rows <= cols {
                    total.n_clauses += rows;
                    total.n_lits = total.n_lits.saturating_add(squares);
                }
                if cols <= rows {
                    total.n_clauses += cols;
                    total.n_lits = total.n_lits.saturating_add(squares);
                }
            }
            total.n_clauses = total.n_clauses.saturating_add(leap_pairs);
            total.n_lits = total.n_lits.saturating_add(leap_pairs.saturating_mul(2));
        }
        if self.kind.dominating() && lines {
            // Per line of length L: w → ∨ L (L + 1 literals) and L binary
            // clauses x → w; then one clause per square over the lines
            // through it.
            let kinds = u(self.piece.line_kinds().len());
            for &kind in self.piece.line_kinds() {
                total.add(sum_over_lines(kind, rows, cols, |l| SizeEstimate {
                    n_vars: 1,
                    n_clauses: l + 1,
                    n_lits: 3 * l + 1,
                }));
            }
            total.n_clauses = total.n_clauses.saturating_add(squares);
            total.n_lits = total.n_lits.saturating_add(squares.saturating_mul(kinds));
        } else if self.kind.dominating() {
            let attacked: u64 = self
                .piece
                .line_kinds()
                .iter()
                .map(|&kind| ordered_pairs_on_lines(kind, rows, cols))
                .sum::<u64>()
                .saturating_add(leap_pairs.saturating_mul(2));
            total.n_clauses = total.n_clauses.saturating_add(squares);
            total.n_lits = total
                .n_lits
                .saturating_add(squares.saturating_add(attacked));
        }
        total
    }

    /// The implied "at most `max_bound`" counters over the line variables
    /// of each direction (lines formulation of domination).
    fn estimate_implied(&self, card: Card, max_bound: usize) -> SizeEstimate {
        let mut total = SizeEstimate::default();
        for &kind in self.piece.line_kinds() {
            total.add(cardinality(
                card,
                self.board.n_lines(kind),
                max_bound,
                Direction::Upper,
            ));
        }
        total
    }

    /// A guess at the largest bound [`Problem::encode_open`] will be asked
    /// for when the optimum is searched, for [`Problem::estimate_open`]: the
    /// classic upper bounds for independence (pieces per line for sliders,
    /// 2 × 2 blocks for kings) plus one, as the optimiser uses, the whole board
    /// for knights; and for
    /// domination a dominating set of simple shape (one piece per row or
    /// column for sliders, 3 × 3 blocks for kings, a quarter of the board
    /// for knights).
    #[must_use]
    pub fn open_bound_guess(&self) -> usize {
        let (r, c) = (self.board.rows(), self.board.cols());
        let n = self.board.n_squares();
        let guess = match (self.kind, self.piece) {
            (Kind::Independence, _) => self.independence_upper_bound() + 1,
            (_, crate::piece::Piece::King) => r.div_ceil(3) * c.div_ceil(3),
            (_, crate::piece::Piece::Knight) => n.div_ceil(4),
            (_, _) => r.min(c),
        };
        guess.min(n)
    }
}

/// The most clauses boardsat builds unless asked to go on
/// ([`check_fits`]'s limit).
pub const MAX_CLAUSES: u64 = 200_000_000;

/// The most memory (estimated) boardsat uses unless asked to go on: 8 GiB.
pub const MAX_BYTES: u64 = 8 << 30;

impl SizeEstimate {
    /// Whether the estimate is within [`MAX_CLAUSES`] and [`MAX_BYTES`].
    #[must_use]
    pub fn fits(&self) -> bool {
        self.n_clauses <= MAX_CLAUSES && self.bytes() <= MAX_BYTES
    }
}

/// The estimate for `k` pieces, or for the open bound the optimiser would
/// build when `k` is `None`.
fn estimate_for(problem: &Problem, k: Option<usize>, config: Config) -> SizeEstimate {
    match k {
        Some(k) => problem.estimate(k, config),
        None => problem.estimate_open(problem.open_bound_guess(), config),
    }
}

/// A count in words: `1.7 billion`, `312.5 million`, `48213`.
fn in_words(n: u64) -> String {
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

/// Refuses a problem whose encoding (for `k` pieces, or the optimiser's
/// open bound) is estimated above [`MAX_CLAUSES`] or [`MAX_BYTES`], naming
/// the estimate and the cheapest single change of encoding that would fit.
///
/// # Errors
///
/// [`crate::EncodeError::TooLarge`] with that message.
pub fn check_fits(
    problem: &Problem,
    k: Option<usize>,
    config: Config,
) -> Result<(), crate::error::EncodeError> {
    let e = estimate_for(problem, k, config);
    if e.fits() {
        return Ok(());
    }
    let mut options: Vec<(Setting, &'static str, SizeEstimate)> = Vec::new();
    // Eager encodings only: the lazy AMO has no DIMACS form, and a solve
    // that can use it gets it by default.
    for amo in Amo::EAGER.into_iter().filter(|&a| a != config.amo) {
        let c = Config { amo, ..config };
        options.push((Setting::Amo, amo.name(), estimate_for(problem, k, c)));
    }
    for card in Card::ALL.into_iter().filter(|&c| c != config.card) {
        let c = Config { card, ..config };
        options.push((Setting::Card, card.name(), estimate_for(problem, k, c)));
    }
    let fits = options
        .into_iter()
        .filter(|(_, _, e)| e.fits())
        .min_by_key(|(_, _, e)| e.bytes())
        .map(|(setting, value, alt)| (setting, value, in_words(alt.n_clauses)));
    let estimate = format!(
        "the encoding of {problem} would have about {} clauses and {} literals (about {:.1} GiB), above the limit of {} clauses or {} GiB",
        in_words(e.n_clauses),
        in_words(e.n_lits),
        e.bytes() as f64 / f64::from(1u32 << 30),
        in_words(MAX_CLAUSES),
        MAX_BYTES >> 30,
    );
    Err(crate::error::EncodeError::TooLarge(Box::new(TooLarge {
        estimate,
        fits,
    })))
}
