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
//!   that boardsat's own checker accepts; every blocking clause has its
//!   witness, a model of the cube's file whose projection it excludes and
//!   whose placement the independent checker accepts for the split's
//!   problem.
//! - **The total**: the weighted sum of the verified counts, which must be
//!   what `merge` sums from the results; its sentence is derived here.
//! - **Nothing else**: a directory that also holds a proof directory's
//!   `MANIFEST.json`, or a proof under `proofs/` for no cube of the
//!   split, is a mixed directory and proves nothing as a whole.

use std::path::Path;

use boardsat_encode::{
    check::attacks, words::plural, Board, Family, Kind, Piece, Problem, Square, Symmetry,
};
use boardsat_jobs::{
    self as jobs,
    split::{Split, SplitSpec},
    JobResult, Manifest, PROOFS, RESULTS,
};
use boardsat_solve::{
    search::{
        count::Proofs,
        pool::Cubes,
        rings::{ring_lines, LineCube},
    },
    stop::Interrupter,
};

use crate::{
    manifest::{Answer, ClaimKind, ProofManifest, MANIFEST_JSON},
    verify::{
        check_lrat, check_source_at, check_words, inside, open_regular, read_formula, read_regular,
        BoardCheck, Outcome, Rejection, Verdict, Verification, VerifyError,
    },
    words,
};

/// Verifies the proof directory `dir`, or the split directory written
/// with proofs (`cubes --proof`, its `MANIFEST` beside its results): what
/// `boardsat verify DIR` checks, for any caller.
///
/// # Errors
///
/// As [`verify_jobs`] and [`crate::verify::verify`].
pub fn verify_directory(
    dir: &Path,
    stop: Option<&Interrupter>,
) -> Result<Verification, VerifyError> {
    // A split written by `cubes --proof` (with a proof directory's
    // manifest beside it too: a mixed directory, which it rejects).
    if std::fs::symlink_metadata(dir.join(jobs::MANIFEST)).is_ok() {
        verify_jobs(dir, stop)
    } else {
        crate::verify::verify(dir, stop)
    }
}

/// The verdicts on a split directory: one per cube, then `split` for the
/// cover and the total, and the split's whole result (see the module doc).
///
/// # Errors
///
/// [`VerifyError::Manifest`] when the directory is not a split written
/// with `--proof` (no readable `MANIFEST`, no `# spec` or `# proofs`
/// line); every other failure is a verdict or the result's reason.
pub fn verify_jobs(dir: &Path, stop: Option<&Interrupter>) -> Result<Verification, VerifyError> {
    if let Err(why) = open_regular(&dir.join(jobs::MANIFEST)) {
        return Err(VerifyError::Manifest(why.to_string()));
    }
    let manifest = jobs::read_manifest(dir).map_err(|e| VerifyError::Manifest(e.to_string()))?;
    let spec = manifest.spec.ok_or_else(|| {
        VerifyError::Manifest(format!(
            "{}: the MANIFEST has no '# spec' line, so the split cannot be rebuilt (written by an older boardsat)",
            dir.display()
        ))
    })?;
    if manifest.proofs != Proofs::On {
        return Err(VerifyError::WithoutProofs(dir.to_path_buf()));
    }
    let split = Split::of(&spec).map_err(|e| VerifyError::Manifest(e.to_string()))?;
    let (problem, k) = spec_problem(&spec)?;
    let board = Some((problem, problem.kind.bound(k)));
    let mut verdicts = Vec::new();
    let mut counts = Vec::new();
    for (i, entry) in manifest.entries.iter().enumerate() {
        let checked = verify_cube(dir, &split, &manifest, i, board, stop);
        let outcome = match checked {
            Ok((steps, count, what)) => {
                counts.push(Some(count));
                Outcome::Verified {
                    steps: Some(steps),
                    what,
                }
            }
            Err(why) => {
                counts.push(None);
                Outcome::Rejected(why)
            }
        };
        verdicts.push(Verdict {
            name: entry.id.clone(),
            outcome,
        });
    }
    let checked = check_split(dir, &spec, &split, &manifest, &counts);
    let result = match &checked {
        Ok((_, total)) => whole(dir, &manifest).map(|()| {
            words::counted(
                &problem,
                k,
                u64::try_from(*total).unwrap_or(u64::MAX),
                None,
                None,
            )
        }),
        Err(why) => Err(Rejection::not_proven(format!(
            "the split is not verified: {why}"
        ))),
    };
    let outcome = match checked {
        Ok((what, _)) => Outcome::Verified { steps: None, what },
        Err(why) => Outcome::Rejected(why),
    };
    verdicts.push(Verdict {
        name: "split".to_string(),
        outcome,
    });
    Ok(Verification { verdicts, result })
}

/// The problem and bound a split's spec counts.
fn spec_problem(spec: &SplitSpec) -> Result<(Problem, usize), VerifyError> {
    let board = Board::square(spec.n).map_err(|e| VerifyError::Manifest(e.to_string()))?;
    match (spec.family, spec.k) {
        (Family::Queens, None) => Ok((
            Problem::new(board, Piece::Queen, Kind::Independence),
            spec.n,
        )),
        (Family::Domination, Some(k)) => {
            Ok((Problem::new(board, Piece::Queen, Kind::Domination), k))
        }
        _ => Err(VerifyError::Manifest(format!(
            "the spec '{}' names no split of boardsat's",
            spec.line()
        ))),
    }
}

/// The split directory holds nothing a result must account for beyond its
/// cubes: no proof directory's `MANIFEST.json`, no proof of a cube the
/// split does not have.
fn whole(dir: &Path, manifest: &Manifest) -> Result<(), Rejection> {
    if std::fs::symlink_metadata(dir.join(MANIFEST_JSON)).is_ok() {
        return Err(Rejection::not_proven(format!(
            "{} holds both a split's MANIFEST and a proof directory's {MANIFEST_JSON}: a mixed directory",
            dir.display()
        )));
    }
    let ids: std::collections::BTreeSet<&str> =
        manifest.entries.iter().map(|e| e.id.as_str()).collect();
    // A folder left with nothing but a lock (a previous split's, cleared)
    // holds no claim.
    let holds_claims = |path: &Path| {
        std::fs::read_dir(path).is_ok_and(|list| {
            list.filter_map(Result::ok)
                .any(|e| e.file_name() != crate::manifest::LOCK)
        })
    };
    let stray: Vec<String> = std::fs::read_dir(dir.join(PROOFS))
        .map(|list| {
            list.filter_map(Result::ok)
                .filter(|e| holds_claims(&e.path()))
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|name| !ids.contains(name.as_str()))
                .collect()
        })
        .unwrap_or_default();
    if !stray.is_empty() {
        return Err(Rejection::not_proven(format!(
            "{PROOFS}/ holds {} for no cube of the split ({}): claims the result does not account for",
            plural(stray.len(), "proof", "proofs"),
            summary(&stray.iter().map(String::as_str).collect::<Vec<_>>())
        )));
    }
    Ok(())
}

/// Cube `i`: its file is the rebuilt cube's formula, its job's proof is
/// a verified count of it, equal to the job's result. The proof's steps,
/// the count, and what was checked.
fn verify_cube(
    dir: &Path,
    split: &Split,
    manifest: &Manifest,
    i: usize,
    board: BoardCheck,
    stop: Option<&Interrupter>,
) -> Result<(u64, u64, String), Rejection> {
    let entry = &manifest.entries[i];
    let Some(job) = split.cubes.get(i) else {
        return Err(Rejection::cover("the rebuilt split has fewer cubes"));
    };
    if job.id != entry.id || job.weight != entry.weight || job.description != entry.description {
        return Err(Rejection::cover(format!(
            "the manifest lists {} weight {} ({}), the rebuilt split {} weight {} ({})",
            entry.id, entry.weight, entry.description, job.id, job.weight, job.description
        )));
    }
    let own_file = match split.format {
        boardsat_encode::dimacs::Format::Inccnf => {
            entry.file == jobs::ICNF && entry.index == Some(i)
        }
        _ => entry.file == format!("{}.cnf", entry.id) && entry.index.is_none(),
    };
    if !own_file {
        return Err(Rejection::cover(format!(
            "the manifest gives {} the file {}{}, not its own",
            entry.id,
            entry.file,
            entry.index.map_or(String::new(), |c| format!(" cube {c}"))
        )));
    }
    let source = inside(dir, &entry.file)?;
    let file = read_formula(&source, stop)?;
    let file = match entry.index {
        Some(index) => file
            .with_cube(index)
            .map_err(|e| Rejection::unreadable(format!("{}: {e}", source.display())))?,
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
        return Err(Rejection::mismatch(format!(
            "{} is not the cube's formula as rebuilt from the manifest's spec",
            entry.file
        )));
    }
    let result = read_result(dir, &entry.id)?;
    let proofs = dir.join(PROOFS).join(&entry.id);
    let (steps, count, what) = verify_count(&proofs, &source, board, stop)?;
    if !result.complete || result.count != count {
        return Err(Rejection::mismatch(format!(
            "the job's result counts {}{}, its proof {count}",
            result.count,
            if result.complete { "" } else { " (incomplete)" }
        )));
    }
    Ok((steps, count, what))
}

/// The job's answer in `results/`.
fn read_result(dir: &Path, id: &str) -> Result<JobResult, Rejection> {
    let path = dir.join(RESULTS).join(format!("{id}.json"));
    if std::fs::symlink_metadata(&path).is_err() {
        return Err(Rejection::unreadable(format!(
            "missing: no result {}",
            path.display()
        )));
    }
    let text = read_regular(&path)?;
    serde_json::from_str(text.trim())
        .map_err(|e| Rejection::unreadable(format!("{}: not a job's result ({e})", path.display())))
}

/// The one claim of a job's proof directory `proofs`: a complete
/// projected count of `source`, verified. Its steps, count and words.
fn verify_count(
    proofs: &Path,
    source: &Path,
    board: BoardCheck,
    stop: Option<&Interrupter>,
) -> Result<(u64, u64, String), Rejection> {
    let path = proofs.join(MANIFEST_JSON);
    if std::fs::symlink_metadata(&path).is_err() {
        return Err(Rejection::unreadable(format!(
            "missing: no proof {}",
            path.display()
        )));
    }
    if std::fs::symlink_metadata(proofs).is_ok_and(|m| !m.is_dir()) {
        return Err(Rejection::unreadable(format!(
            "{} is not a directory",
            proofs.display()
        )));
    }
    let text = read_regular(&path)?;
    let manifest: ProofManifest = serde_json::from_str(&text).map_err(|e| {
        Rejection::unreadable(format!("{}: not a proof manifest ({e})", path.display()))
    })?;
    let [claim] = manifest.claims.as_slice() else {
        return Err(Rejection::mismatch(format!(
            "{} holds {}, not the one count of its cube",
            path.display(),
            plural(manifest.claims.len(), "claim", "claims")
        )));
    };
    if claim.kind != ClaimKind::ProjectedComplete || claim.format != "lrat" {
        return Err(Rejection::mismatch(format!(
            "{}: the claim is not a complete projected count with an LRAT proof",
            path.display()
        )));
    }
    if manifest.status != crate::manifest::RunStatus::Complete {
        return Err(Rejection::mismatch(format!(
            "{}: the job's proof run {}",
            path.display(),
            manifest.status.words()
        )));
    }
    let formula = read_formula(&inside(proofs, &claim.cnf)?, stop)?;
    let (what, _) = check_source_at(proofs, &formula, claim, source, board)
        .and_then(|checked| check_words(&formula, claim).map(|()| checked))?;
    let count = claim
        .count
        .ok_or_else(|| Rejection::mismatch("a count claim without a count"))?;
    // The job's own result: the count its claim proves, in its words.
    let expected = claim
        .source
        .as_ref()
        .map(|(path, _)| words::projected(&words::source(path, claim.icnf_cube), count));
    let stated = match manifest.result.as_ref() {
        Some(r) => match &r.answer {
            Answer::ProjectedCount { count: c, .. } if *c == count => Some(&r.sentence),
            _ => None,
        },
        None => None,
    };
    if stated.is_none() || stated != expected.as_ref() {
        return Err(Rejection::mismatch(format!(
            "{}: the job's result is not the count its claim proves ({count})",
            path.display()
        )));
    }
    let steps = check_lrat(&formula, &inside(proofs, &claim.proof)?)?;
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
) -> Result<(String, u128), Rejection> {
    if split.cubes.len() != manifest.entries.len() {
        return Err(Rejection::cover(format!(
            "the manifest lists {}, the rebuilt split has {}",
            plural(manifest.entries.len(), "cube", "cubes"),
            split.cubes.len()
        )));
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
        return Err(Rejection::cover(format!(
            "{} of {} not verified ({})",
            missing.len(),
            plural(counts.len(), "cube is", "cubes are"),
            summary(&missing)
        )));
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
        .ok_or_else(|| Rejection::cover("the weighted total overflows"))?;
    let merged = jobs::merge(dir).map_err(|e| Rejection::cover(e.to_string()))?;
    if merged.count != total {
        return Err(Rejection::cover(format!(
            "the verified cubes' weighted total is {total}, the results sum to {}",
            merged.count
        )));
    }
    Ok((
        format!(
            "{} cubes rebuilt from the spec ({}) {covered}; weighted total {total}",
            manifest.entries.len(),
            spec.line()
        ),
        total,
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
fn domination_cover(spec: &SplitSpec, manifest: &Manifest) -> Result<String, Rejection> {
    let board = Board::square(spec.n).map_err(|e| Rejection::cover(e.to_string()))?;
    let group = Symmetry::of(&board);
    let mut seen = std::collections::BTreeSet::new();
    let mut order = None;
    for entry in &manifest.entries {
        let cube = LineCube::parse(&board, spec.depth, &entry.description)
            .map_err(|e| Rejection::cover(format!("{}: {e}", entry.id)))?;
        if *order.get_or_insert(cube.order) != cube.order {
            return Err(Rejection::cover(format!(
                "{}'s rings are not in the order of the first cube's",
                entry.id
            )));
        }
        let orbit: std::collections::BTreeSet<LineCube> = match spec.cubes {
            Cubes::All => [cube].into(),
            Cubes::OnePerOrbit => group.iter().map(|&s| cube.image(&board, s)).collect(),
        };
        if orbit.len() as u64 != entry.weight {
            return Err(Rejection::cover(format!(
                "{} has weight {}, its orbit {}",
                entry.id,
                entry.weight,
                plural(orbit.len(), "cube", "cubes")
            )));
        }
        for image in orbit {
            if !seen.insert(image) {
                return Err(Rejection::cover(format!(
                    "{}'s orbit meets another cube's",
                    entry.id
                )));
            }
        }
    }
    let lines = ring_lines(&board, order.unwrap_or_default(), spec.depth).len();
    let patterns = 1u128 << lines;
    if seen.len() as u128 != patterns {
        return Err(Rejection::cover(format!(
            "the cubes' orbits hold {} of the {patterns} occupancy patterns of the {lines} split lines",
            seen.len()
        )));
    }
    Ok(format!(
        "cover all {patterns} occupancy patterns of the {lines} split lines"
    ))
}

/// The cubes of an N-queens split are the non-attacking placements of
/// queens on the first rows, found here by brute force: every one once,
/// or (halved) every one whose first queen is left of the middle with
/// weight 2 and on it with weight 1, standing for its mirror image too.
fn queens_cover(spec: &SplitSpec, manifest: &Manifest) -> Result<String, Rejection> {
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
        return Err(Rejection::cover(format!(
            "the cubes are not the {} non-attacking placements of queens on the first {}{}",
            want.len(),
            plural(depth, "row", "rows"),
            if halve { " up to the mirror" } else { "" }
        )));
    }
    let all: u64 = want.iter().map(|(_, w)| w).sum();
    Ok(format!(
        "cover all {all} non-attacking placements of queens on the first {}",
        plural(depth, "row", "rows")
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
