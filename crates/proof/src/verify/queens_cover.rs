//! The cover of an N-queens cube count: its cube claims must be exactly
//! the cubes of its split, each with its weight and verified, and their
//! weighted total the claimed count.

use std::collections::{BTreeMap, BTreeSet};

use boardsat_encode::Problem;
use boardsat_solve::search::{count::Reduction, queens::queen_cubes};

use crate::{
    manifest::{ClaimEntry, ClaimKind, Cover},
    verify::{board::BoardFact, verdict::Rejection},
};

/// A verified N-queens cover.
#[derive(Clone, Debug)]
pub(crate) struct CoverFact {
    /// The N-queens problem.
    pub problem: Problem,
    /// Its n.
    pub k: usize,
    /// The cubes' weighted total.
    pub count: u64,
    /// Their orbits, when every cube counted orbits.
    pub orbits: Option<u64>,
    /// The cube claims.
    pub claims: Vec<String>,
}

/// The claims of a cube count must be exactly the split's cubes, each with
/// its weight and verified (`boards`: the verified board claims), and
/// their weighted total the claimed count.
pub(crate) fn verify_cover(
    cover: &Cover,
    claims: &[ClaimEntry],
    verified: &BTreeSet<String>,
    boards: &BTreeMap<String, BoardFact>,
) -> Result<(String, CoverFact), Rejection> {
    let cubes: Vec<&ClaimEntry> = claims
        .iter()
        .filter(|c| c.kind == ClaimKind::Complete && c.cube.is_some())
        .collect();
    let unverified: Vec<&str> = cubes
        .iter()
        .filter(|c| !verified.contains(&c.name))
        .map(|c| c.name.as_str())
        .collect();
    if !unverified.is_empty() {
        return Err(Rejection::cover(format!(
            "cubes not verified: {} (the cover rests on every cube)",
            unverified.join(", ")
        )));
    }
    let (total, n_cubes) = cover_total(cover, &cubes)?;
    let boards: Vec<&BoardFact> = cubes.iter().filter_map(|c| boards.get(&c.name)).collect();
    let Some(first) = boards.first() else {
        return Err(Rejection::cover("a cover without cubes"));
    };
    if boards.len() != cubes.len()
        || boards
            .iter()
            .any(|b| b.problem != first.problem || b.k != first.k)
        || first.problem.board.rows() != cover.n
    {
        return Err(Rejection::cover(format!(
            "the cubes are not all cubes of one {}-queens count",
            cover.n
        )));
    }
    let orbits = boards
        .iter()
        .all(|b| b.symmetric)
        .then(|| boards.iter().map(|b| b.models).sum());
    let fact = CoverFact {
        problem: first.problem,
        k: first.k,
        count: total,
        orbits,
        claims: cubes.iter().map(|c| c.name.clone()).collect(),
    };
    Ok((
        format!(
            "the {n_cubes} cubes of depth {} cover every placement; weighted total {total}",
            cover.depth
        ),
        fact,
    ))
}

/// The cube claims `cubes` are exactly the cubes of `cover`'s split, each
/// with its weight, and their weighted total is its count: the total and
/// the number of cubes.
fn cover_total(cover: &Cover, cubes: &[&ClaimEntry]) -> Result<(u64, usize), Rejection> {
    let reduction = if cover.halve {
        Reduction::Halve
    } else {
        Reduction::None
    };
    let expected = queen_cubes(cover.n, cover.depth, reduction);
    let mut found: Vec<(Vec<usize>, u64, u64)> = cubes
        .iter()
        .filter_map(|c| {
            c.cube
                .as_ref()
                .map(|(cols, w)| (cols.clone(), *w, c.count.unwrap_or(0)))
        })
        .collect();
    found.sort();
    let mut want: Vec<(Vec<usize>, u64)> = expected
        .iter()
        .map(|c| (c.columns.clone(), c.weight))
        .collect();
    want.sort();
    let got: Vec<(Vec<usize>, u64)> = found.iter().map(|(c, w, _)| (c.clone(), *w)).collect();
    if got != want {
        let missing = want.iter().filter(|w| !got.contains(w)).count();
        return Err(Rejection::cover(format!(
            "the claims cover {} cubes, the split has {} ({missing} missing{})",
            got.len(),
            want.len(),
            if missing == 0 {
                ", or their weights differ"
            } else {
                ""
            }
        )));
    }
    let total = found
        .iter()
        .try_fold(0u64, |t, (_, w, c)| {
            c.checked_mul(*w).and_then(|x| t.checked_add(x))
        })
        .ok_or_else(|| Rejection::cover("the total overflows"))?;
    if total != cover.count {
        return Err(Rejection::cover(format!(
            "the cubes' weighted total is {total}, the manifest claims {}",
            cover.count
        )));
    }
    Ok((total, want.len()))
}
