//! Verifying a split run as jobs (`boardsat cubes … --proof`, then any
//! scheduler, then `boardsat merge --verify`): the whole count, not only
//! its parts.
//!
//! - **The split**: rebuilt from the manifest's `# spec` line
//!   ([`boardsat_jobs::split::Split::of`]); every cube's id, weight
//!   and description must be the rebuilt one's, and every cube's file
//!   must hold exactly the rebuilt cube's clauses (whatever its comments).
//! - **The cover**, checked without the code that built the split: for
//!   domination, each cube's orbit under the board's symmetries is
//!   computed from its description, its weight must be the orbit's size,
//!   and the orbits must be disjoint and hold every occupancy pattern of
//!   the split's lines; for N-queens, the cubes and their mirror images
//!   must be every non-attacking placement of the first rows, found by
//!   brute force here.
//! - **Each cube's count**: its job's proof directory holds one claim, the
//!   cube's file followed by distinct blocking clauses over the
//!   projection, as many as the job's result counts, with an LRAT proof
//!   that boardsat's own checker accepts.
//! - **The total**: the weighted sum of the verified counts, which must be
//!   what `merge` sums from the results.

use std::path::Path;

use boardsat_encode::{check::attacks, Board, Family, Piece, Square, Symmetry};
use boardsat_jobs::{
    self as jobs,
    split::{Split, SplitSpec},
    JobResult, Manifest, PROOFS, RESULTS,
};
use boardsat_solve::{
    search::{
        count::Proofs,
        domination::lines::{ring_lines, LineCube},
        pool::Cubes,
    },
    stop::Interrupter,
};

use crate::{
    manifest::{ClaimKind, ProofManifest, MANIFEST_JSON},
    verify::{check_lrat, check_source_at, read_formula, Outcome, Verdict, VerifyError},
};

/// The verdicts on a split directory: one per cube, then `split` for the
/// cover and the total (see the module doc).
///
/// # Errors
///
/// [`VerifyError::Manifest`] when the directory is not a split written
/// with `--proof` (no readable `MANIFEST`, no `# spec` or `# proofs`
/// line); every other failure is a verdict.
pub fn verify_jobs(dir: &Path, stop: Option<&Interrupter>) -> Result<Vec<Verdict>, VerifyError> {
    let manifest = jobs::read_manifest(dir).map_err(|e| VerifyError::Manifest(e.to_string()))?;
    let spec = manifest.spec.ok_or_else(|| {
        VerifyError::Manifest(format!(
            "{}: the MANIFEST has no '# spec' line, so the split cannot be rebuilt (written by an older boardsat)",
            dir.display()
        ))
    })?;
    if manifest.proofs != Proofs::On {
        return Err(VerifyError::Manifest(format!(
            "{}: the split was written without --proof: its jobs prove nothing",
            dir.display()
        )));
    }
    let split = Split::of(&spec).map_err(|e| VerifyError::Manifest(e.to_string()))?;
    let mut verdicts = Vec::new();
    let mut counts = Vec::new();
    for (i, entry) in manifest.entries.iter().enumerate() {
        let checked = verify_cube(dir, &split, &manifest, i, stop);
        let outcome = match checked {
            Ok((steps, count, what)) => {
                counts.push(Some(count));
                Outcome::Verified {
                    steps: Some(steps),
                    what,
                }
            }
            Err(outcome) => {
                counts.push(None);
                outcome
            }
        };
        verdicts.push(Verdict {
            name: entry.id.clone(),
            outcome,
        });
    }
    let outcome = match check_split(dir, &spec, &split, &manifest, &counts) {
        Ok(what) => Outcome::Verified { steps: None, what },
        Err(why) => Outcome::CoverMismatch(why),
    };
    verdicts.push(Verdict {
        name: "split".to_string(),
        outcome,
    });
    Ok(verdicts)
}

/// Cube `i`: its file is the rebuilt cube's formula, its job's proof is
/// a verified count of it, equal to the job's result. The proof's steps,
/// the count, and what was checked.
fn verify_cube(
    dir: &Path,
    split: &Split,
    manifest: &Manifest,
    i: usize,
    stop: Option<&Interrupter>,
) -> Result<(u64, u64, String), Outcome> {
    let entry = &manifest.entries[i];
    let Some(job) = split.cubes.get(i) else {
        return Err(Outcome::CoverMismatch(
            "the rebuilt split has fewer cubes".to_string(),
        ));
    };
    if job.id != entry.id || job.weight != entry.weight || job.description != entry.description {
        return Err(Outcome::CoverMismatch(format!(
            "the manifest lists {} weight {} ({}), the rebuilt split {} weight {} ({})",
            entry.id, entry.weight, entry.description, job.id, job.weight, job.description
        )));
    }
    let source = dir.join(&entry.file);
    let file = read_formula(&source, stop)?;
    let file = match entry.index {
        Some(index) => file
            .with_cube(index)
            .map_err(|e| Outcome::Unreadable(format!("{}: {e}", source.display())))?,
        None => file,
    };
    let rebuilt: Vec<Vec<rustsat::types::Lit>> = split
        .cube_cnf(i)
        .iter()
        .map(|clause| clause.iter().copied().collect())
        .collect();
    let projection: Vec<rustsat::types::Var> = (0..split.header.show.unwrap_or(0))
        .map(rustsat::types::Var::new)
        .collect();
    if file.clauses != rebuilt || file.projection_or_all() != projection {
        return Err(Outcome::FormulaMismatch(format!(
            "{} is not the cube's formula as rebuilt from the manifest's spec",
            entry.file
        )));
    }
    let result = read_result(dir, &entry.id)?;
    let proofs = dir.join(PROOFS).join(&entry.id);
    let (steps, count, what) = verify_count(&proofs, &source, stop)?;
    if !result.complete || result.count != count {
        return Err(Outcome::FormulaMismatch(format!(
            "the job's result counts {}{}, its proof {count}",
            result.count,
            if result.complete { "" } else { " (incomplete)" }
        )));
    }
    Ok((steps, count, what))
}

/// The job's answer in `results/`.
fn read_result(dir: &Path, id: &str) -> Result<JobResult, Outcome> {
    let path = dir.join(RESULTS).join(format!("{id}.json"));
    let text = std::fs::read_to_string(&path)
        .map_err(|_| Outcome::Unreadable(format!("missing: no result {}", path.display())))?;
    serde_json::from_str(text.trim())
        .map_err(|e| Outcome::Unreadable(format!("{}: not a job's result ({e})", path.display())))
}

/// The one claim of a job's proof directory `proofs`: a complete
/// projected count of `source`, verified. Its steps, count and words.
fn verify_count(
    proofs: &Path,
    source: &Path,
    stop: Option<&Interrupter>,
) -> Result<(u64, u64, String), Outcome> {
    let path = proofs.join(MANIFEST_JSON);
    let text = std::fs::read_to_string(&path)
        .map_err(|_| Outcome::Unreadable(format!("missing: no proof {}", path.display())))?;
    let manifest: ProofManifest = serde_json::from_str(&text).map_err(|e| {
        Outcome::Unreadable(format!("{}: not a proof manifest ({e})", path.display()))
    })?;
    let [claim] = manifest.claims.as_slice() else {
        return Err(Outcome::FormulaMismatch(format!(
            "{} holds {} claims, not the one count of its cube",
            path.display(),
            manifest.claims.len()
        )));
    };
    if claim.kind != ClaimKind::ProjectedComplete || claim.format != "lrat" {
        return Err(Outcome::FormulaMismatch(format!(
            "{}: the claim is not a complete projected count with an LRAT proof",
            path.display()
        )));
    }
    let formula = read_formula(&proofs.join(&claim.cnf), stop)?;
    let what = check_source_at(&formula, claim, source).map_err(Outcome::FormulaMismatch)?;
    let count = claim
        .count
        .ok_or_else(|| Outcome::FormulaMismatch("a count claim without a count".to_string()))?;
    let steps = check_lrat(&formula, &proofs.join(&claim.proof))?;
    Ok((steps, count, what))
}

/// The split as a whole: its cubes cover the problem (checked apart from
/// the code that built them), every cube verified, and the weighted total
/// what `merge` sums.
fn check_split(
    dir: &Path,
    spec: &SplitSpec,
    split: &Split,
    manifest: &Manifest,
    counts: &[Option<u64>],
) -> Result<String, String> {
    if split.cubes.len() != manifest.entries.len() {
        return Err(format!(
            "the manifest lists {} cubes, the rebuilt split has {}",
            manifest.entries.len(),
            split.cubes.len()
        ));
    }
    let covered = match spec.family {
        Family::Domination => domination_cover(spec, manifest)?,
        _ => queens_cover(spec, manifest)?,
    };
    let missing: Vec<&str> = manifest
        .entries
        .iter()
        .zip(counts)
        .filter(|(_, c)| c.is_none())
        .map(|(e, _)| e.id.as_str())
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "{} of {} cubes are not verified ({})",
            missing.len(),
            counts.len(),
            summary(&missing)
        ));
    }
    let total = manifest
        .entries
        .iter()
        .zip(counts)
        .try_fold(0u128, |t, (e, c)| {
            u128::from(c.unwrap_or(0))
                .checked_mul(u128::from(e.weight))
                .and_then(|x| t.checked_add(x))
        })
        .ok_or("the weighted total overflows")?;
    let merged = jobs::merge(dir).map_err(|e| e.to_string())?;
    if merged.count != total {
        return Err(format!(
            "the verified cubes' weighted total is {total}, the results sum to {}",
            merged.count
        ));
    }
    Ok(format!(
        "{} cubes rebuilt from the spec ({}) {covered}; weighted total {total}",
        manifest.entries.len(),
        spec.line()
    ))
}

fn summary(ids: &[&str]) -> String {
    match ids.len() {
        0..=5 => ids.join(", "),
        n => format!("{}, … ({n} in all)", ids[..5].join(", ")),
    }
}

/// The cubes of a domination split cover every occupancy pattern of its
/// lines once per orbit: each cube's orbit under the board's symmetries,
/// computed here from its description, has its weight as size (1 each
/// with every cube), and the orbits are disjoint and hold all patterns.
fn domination_cover(spec: &SplitSpec, manifest: &Manifest) -> Result<String, String> {
    let board = Board::square(spec.n).map_err(|e| e.to_string())?;
    let group = Symmetry::of(&board);
    let mut seen = std::collections::BTreeSet::new();
    let mut order = None;
    for entry in &manifest.entries {
        let cube = LineCube::parse(&board, spec.depth, &entry.description)
            .map_err(|e| format!("{}: {e}", entry.id))?;
        if *order.get_or_insert(cube.order) != cube.order {
            return Err(format!(
                "{}'s rings are not in the order of the first cube's",
                entry.id
            ));
        }
        let orbit: std::collections::BTreeSet<LineCube> = match spec.cubes {
            Cubes::All => [cube].into(),
            Cubes::OnePerOrbit => group.iter().map(|&s| cube.image(&board, s)).collect(),
        };
        if orbit.len() as u64 != entry.weight {
            return Err(format!(
                "{} has weight {}, its orbit {} cubes",
                entry.id,
                entry.weight,
                orbit.len()
            ));
        }
        for image in orbit {
            if !seen.insert(image) {
                return Err(format!("{}'s orbit meets another cube's", entry.id));
            }
        }
    }
    let lines = ring_lines(&board, order.unwrap_or_default(), spec.depth).len();
    let patterns = 1u128 << lines;
    if seen.len() as u128 != patterns {
        return Err(format!(
            "the cubes' orbits hold {} of the {patterns} occupancy patterns of the {lines} split lines",
            seen.len()
        ));
    }
    Ok(format!(
        "cover all {patterns} occupancy patterns of the {lines} split lines"
    ))
}

/// The cubes of an N-queens split are the non-attacking placements of
/// queens on the first rows, found here by brute force: every one once,
/// or (halved) every one whose first queen is left of the middle with
/// weight 2 and on it with weight 1, standing for its mirror image too.
fn queens_cover(spec: &SplitSpec, manifest: &Manifest) -> Result<String, String> {
    let n = spec.n;
    let halve = spec.cubes == Cubes::OnePerOrbit;
    let depth = if halve { spec.depth.max(1) } else { spec.depth }.min(n);
    let mut want: Vec<(String, u64)> = Vec::new();
    prefixes(n, depth, &mut Vec::new(), &mut |columns: &[usize]| {
        let weight = match columns.first() {
            Some(&c) if halve && 2 * c + 1 < n => 2,
            Some(&c) if halve && 2 * c + 1 > n => return,
            _ => 1,
        };
        let words: Vec<String> = columns.iter().map(ToString::to_string).collect();
        let text = if words.is_empty() {
            "-".to_string()
        } else {
            words.join(",")
        };
        want.push((text, weight));
    });
    let mut got: Vec<(String, u64)> = manifest
        .entries
        .iter()
        .map(|e| (e.description.clone(), e.weight))
        .collect();
    want.sort();
    got.sort();
    if got != want {
        return Err(format!(
            "the cubes are not the {} non-attacking placements of queens on the first {depth} rows{}",
            want.len(),
            if halve { " up to the mirror" } else { "" }
        ));
    }
    let all: u64 = want.iter().map(|(_, w)| w).sum();
    Ok(format!(
        "cover all {all} non-attacking placements of queens on the first {depth} rows"
    ))
}

/// Calls `found` with every non-attacking placement of one queen per row
/// on the first `depth` rows of the n × n board (column lists).
fn prefixes(n: usize, depth: usize, prefix: &mut Vec<usize>, found: &mut dyn FnMut(&[usize])) {
    if prefix.len() == depth {
        found(prefix);
        return;
    }
    let row = prefix.len();
    for col in 0..n {
        let free = prefix
            .iter()
            .enumerate()
            .all(|(r, &c)| !attacks(Piece::Queen, Square::new(r, c), Square::new(row, col)));
        if free {
            prefix.push(col);
            prefixes(n, depth, prefix, found);
            prefix.pop();
        }
    }
}
