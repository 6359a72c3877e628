//! A bounded local search for k queens that dominate the n×n board: the
//! placement probe of γ(Q_26) (issue 52). Not part of the workspace (an
//! experiment, std only); build and run it with
//!
//!     rustc -O -o target/queens-local-search scripts/queens-local-search.rs
//!     target/queens-local-search N K SECONDS SEED
//!
//! It keeps k queens on the board and the number of queens covering each
//! square (a queen covers its own square and every square it attacks).
//! Each step picks an uncovered square at random and makes the best move
//! that covers it: one queen moved onto a square of that square's row,
//! column or diagonals, scored by the uncovered squares after the move,
//! the queen moved last kept still for a few steps (tabu), ties broken at
//! random; after many steps without improvement it restarts from a random
//! placement. It prints a placement found as `row col` pairs and checks
//! it by recounting from scratch; a search that finds none proves
//! nothing (and says so).

use std::time::{Duration, Instant};

/// xorshift64*: a small, seeded generator (no crates outside the workspace).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The squares a queen on `s` covers (itself included), for each square.
fn coverage(n: usize) -> Vec<Vec<u32>> {
    let mut out = Vec::with_capacity(n * n);
    for r in 0..n {
        for c in 0..n {
            let mut v = Vec::new();
            for r2 in 0..n {
                for c2 in 0..n {
                    let (dr, dc) = (r.abs_diff(r2), c.abs_diff(c2));
                    if r == r2 || c == c2 || dr == dc {
                        v.push((r2 * n + c2) as u32);
                    }
                }
            }
            out.push(v);
        }
    }
    out
}

struct State<'a> {
    cover: &'a [Vec<u32>],
    queens: Vec<usize>,
    count: Vec<u32>,
    uncovered: usize,
}

impl<'a> State<'a> {
    fn random(cover: &'a [Vec<u32>], k: usize, rng: &mut Rng) -> Self {
        let squares = cover.len();
        let mut s = State {
            cover,
            queens: Vec::new(),
            count: vec![0; squares],
            uncovered: squares,
        };
        for _ in 0..k {
            s.add(rng.below(squares));
        }
        s
    }
    fn add(&mut self, q: usize) {
        for &t in &self.cover[q] {
            if self.count[t as usize] == 0 {
                self.uncovered -= 1;
            }
            self.count[t as usize] += 1;
        }
        self.queens.push(q);
    }
    fn remove(&mut self, i: usize) -> usize {
        let q = self.queens.swap_remove(i);
        for &t in &self.cover[q] {
            self.count[t as usize] -= 1;
            if self.count[t as usize] == 0 {
                self.uncovered += 1;
            }
        }
        q
    }
    /// Squares left uncovered when queen `i` leaves: those it alone covers.
    fn loss(&self, i: usize) -> usize {
        self.cover[self.queens[i]]
            .iter()
            .filter(|&&t| self.count[t as usize] == 1)
            .count()
    }
    /// Squares newly covered by a queen on `q` once queen `i` has left.
    fn gain(&self, q: usize, i: usize) -> usize {
        let gone = &self.cover[self.queens[i]];
        self.cover[q]
            .iter()
            .filter(|&&t| {
                let c = self.count[t as usize];
                c == 0 || (c == 1 && gone.binary_search(&t).is_ok())
            })
            .count()
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: queens-local-search N K SECONDS SEED";
    let [n, k, seconds, seed] = [1, 2, 3, 4].map(|i| {
        args.get(i)
            .and_then(|a| a.parse::<u64>().ok())
            .unwrap_or_else(|| {
                eprintln!("{usage}");
                std::process::exit(2)
            })
    });
    let (n, k) = (n as usize, k as usize);
    let cover = coverage(n);
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let start = Instant::now();
    let limit = Duration::from_secs(seconds);
    let (mut steps, mut restarts, mut best_ever) = (0u64, 0u64, usize::MAX);
    'restart: while start.elapsed() < limit {
        restarts += 1;
        let mut s = State::random(&cover, k, &mut rng);
        let (mut best, mut stale, mut tabu) = (s.uncovered, 0u64, vec![0u64; n * n]);
        while start.elapsed() < limit {
            for _ in 0..1000 {
                if s.uncovered == 0 {
                    report(n, &cover, &s.queens, steps, restarts, start);
                    return;
                }
                steps += 1;
                // An uncovered square, at random.
                let pick = rng.below(s.uncovered);
                let u = (0..n * n).filter(|&t| s.count[t] == 0).nth(pick).unwrap_or(0);
                let mut best_move = None;
                let mut best_score = usize::MAX;
                let mut ties = 0;
                let losses: Vec<usize> = (0..k).map(|i| s.loss(i)).collect();
                for &q in &cover[u] {
                    let q = q as usize;
                    for i in 0..k {
                        if tabu[s.queens[i]] > steps {
                            continue;
                        }
                        let after = s.uncovered + losses[i] - s.gain(q, i);
                        if after < best_score {
                            (best_score, best_move, ties) = (after, Some((q, i)), 1);
                        } else if after == best_score {
                            ties += 1;
                            if rng.below(ties) == 0 {
                                best_move = Some((q, i));
                            }
                        }
                    }
                }
                if let Some((q, i)) = best_move {
                    let old = s.remove(i);
                    tabu[old] = steps + 3 + rng.below(4) as u64;
                    s.add(q);
                    tabu[q] = steps + 2;
                }
                if s.uncovered < best {
                    (best, stale) = (s.uncovered, 0);
                    best_ever = best_ever.min(best);
                } else {
                    stale += 1;
                    if stale > 200_000 {
                        continue 'restart;
                    }
                }
            }
        }
    }
    println!(
        "none found: {k} queens on {n}x{n}, {steps} steps, {restarts} restarts, {:.0} s, fewest squares left uncovered {best_ever} (a search that finds none proves nothing)",
        start.elapsed().as_secs_f64()
    );
    std::process::exit(1);
}

fn report(n: usize, cover: &[Vec<u32>], queens: &[usize], steps: u64, restarts: u64, start: Instant) {
    // Checked from scratch, sharing nothing with the search's counts.
    let mut covered = vec![false; n * n];
    for &q in queens {
        for &t in &cover[q] {
            covered[t as usize] = true;
        }
    }
    let all = covered.iter().all(|&c| c);
    let mut squares: Vec<(usize, usize)> = queens.iter().map(|&q| (q / n, q % n)).collect();
    squares.sort_unstable();
    let mut out = format!(
        "found: {} queens dominate {n}x{n} ({}), {steps} steps, {restarts} restarts, {:.1} s\n",
        queens.len(),
        if all { "checked" } else { "CHECK FAILED" },
        start.elapsed().as_secs_f64()
    );
    for (r, c) in squares {
        out.push_str(&format!("{r} {c}\n"));
    }
    // A closed pipe is no error here: the placement was found.
    let _ = std::io::Write::write_all(&mut std::io::stdout(), out.as_bytes());
}
