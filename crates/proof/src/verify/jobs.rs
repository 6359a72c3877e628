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
//!   problem. In a split with lex-leader constraints (`lex=lines-first`),
//!   each blocked placement must also be the leader of its orbit under
//!   the cube's stabilizer (computed here from its description), and the
//!   job's share is their orbits under the board's symmetries, summed,
//!   which must be the `placements` its result states.
//! - **Rounds** (a split with `--job-budget`): a job split past its
//!   budget counts nothing itself; its answer must answer its very cube
//!   (the split, the job, the digest of its file), its cube must have had
//!   a ring left within the budget's max depth, and its pieces must be
//!   exactly the pieces rebuilt from the spec
//!   ([`SplitSpec::pieces`]: ids, cubes, weights, each in its own file
//!   holding exactly the rebuilt piece's clauses). Their cover of the
//!   parent is checked here without the code that built them: each
//!   piece refines the parent by the next ring, its orbit under the
//!   parent's stabilizer (computed from the descriptions) has the piece's
//!   weight over the parent's as size, and the orbits are disjoint and
//!   hold every refinement. A parent's share is its pieces' shares, down
//!   to the leaves, whose proofs are checked as any cube's.
//! - **The total**: the weighted sum of the verified counts, which must be
//!   what `merge` sums from the results; its sentence is derived here.
//! - **Nothing else**: a directory that also holds a proof directory's
//!   `MANIFEST.json`, or a proof under `proofs/` for no counted job of
//!   the split (a cube, or a piece counted to its end), is a mixed
//!   directory and proves nothing as a whole.

use std::path::{Path, PathBuf};

use boardsat_encode::{
    check::attacks, symmetry::orbit_size, words::plural, Board, Family, Kind, Piece, Problem,
    Square, Symmetry,
};
use boardsat_jobs::{
    self as jobs,
    split::{Split, SplitSpec},
    Entry, JobResult, Manifest, PROOFS, RESULTS,
};
use boardsat_solve::search::{
    count::Proofs,
    lex::is_lines_first_leader_under,
    pool::Cubes,
    rings::{ring_lines, LineCube},
};

use crate::{
    manifest::{Answer, ClaimEntry, ClaimKind, ProofManifest, MANIFEST_JSON},
    sentences,
    verify::{
        board::blocked_placement,
        files::{inside, open_regular, read_formula, read_regular},
        proof_check::{check_claim, proof_format, Checked},
        source::{check_source_at, check_words, BoardCheck},
        verdict::{summary, Checks, Finding, Rejection, Verdict, Verification, VerifyError},
    },
};

/// The verdicts on a split directory: one per cube, then `split` for the
/// cover and the total, and the split's whole result (see the module doc).
///
/// # Errors
///
/// [`VerifyError::Manifest`] when the directory is not a split written
/// with `--proof` (no readable `MANIFEST`, no `# spec` or `# proofs`
/// line); every other failure is a verdict or the result's reason.
pub fn verify_jobs(dir: &Path, checks: Checks<'_>) -> Result<Verification, VerifyError> {
    let (manifest, spec) = read_split(dir)?;
    let split = Split::of(&spec).map_err(|e| VerifyError::Manifest(e.to_string()))?;
    let (problem, k) = spec_problem(&spec)?;
    let mut walk = Walk {
        dir,
        manifest: &manifest,
        spec,
        board: Some((problem, problem.kind.bound(k))),
        checks,
        verdicts: Vec::new(),
        counted: std::collections::BTreeSet::new(),
    };
    let shares = verify_cubes(&mut walk, &split);
    let Walk {
        mut verdicts,
        counted,
        ..
    } = walk;
    let checked = check_split(dir, &spec, &split, &manifest, &shares);
    let result = match &checked {
        Ok((_, total)) => whole(dir, &counted).map(|()| {
            let total = u64::try_from(*total).unwrap_or(u64::MAX);
            sentences::counted(&problem, k, total, None, None)
        }),
        Err(why) => Err(Rejection::not_proven(format!(
            "the split is not verified: {why}"
        ))),
    };
    let pieces = verdicts.len() - manifest.entries.len();
    let outcome = match checked {
        Ok((mut what, _)) => {
            if pieces > 0 {
                what.push_str(&format!(
                    "; and {} of jobs split past their budget, each job's pieces rebuilt from the spec and covering it",
                    plural(pieces, "piece", "pieces")
                ));
            }
            Finding::Verified { steps: None, what }
        }
        Err(why) => Finding::Rejected(why),
    };
    verdicts.push(Verdict {
        name: "split".to_string(),
        outcome,
    });
    Ok(Verification {
        verdicts,
        result,
        external: None,
        record: None,
    }
    .checked_by(checks))
}

/// The split directory `dir`'s `MANIFEST` and the spec it was made of,
/// when it was written with proofs.
fn read_split(dir: &Path) -> Result<(Manifest, SplitSpec), VerifyError> {
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
    Ok((manifest, spec))
}

/// Every cube of the split verified in turn, each cube's verdict before
/// its pieces': their weighted shares of the count (none for a cube that
/// did not verify).
fn verify_cubes(walk: &mut Walk<'_>, split: &Split) -> Vec<Option<u128>> {
    let mut shares = Vec::new();
    for i in 0..walk.manifest.entries.len() {
        let at = walk.open(&walk.manifest.entries[i].id);
        let (share, outcome) = match verify_cube(walk, split, i) {
            Ok((steps, share, what)) => (Some(share), Finding::Verified { steps, what }),
            Err(why) => (None, Finding::Rejected(why)),
        };
        shares.push(share);
        walk.verdicts[at].outcome = outcome;
    }
    shares
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
/// counted jobs `ids`: no proof directory's `MANIFEST.json`, no proof of
/// a job the split does not count.
fn whole(dir: &Path, ids: &std::collections::BTreeSet<String>) -> Result<(), Rejection> {
    if std::fs::symlink_metadata(dir.join(MANIFEST_JSON)).is_ok() {
        return Err(Rejection::not_proven(format!(
            "{} holds both a split's MANIFEST and a proof directory's {MANIFEST_JSON}: a mixed directory",
            dir.display()
        )));
    }
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
                .filter(|name| !ids.contains(name))
                .collect()
        })
        .unwrap_or_default();
    if !stray.is_empty() {
        return Err(Rejection::not_proven(format!(
            "{PROOFS}/ holds {} for no cube of the split ({}): claims the result does not account for",
            plural(stray.len(), "proof", "proofs"),
            summary(&stray)
        )));
    }
    Ok(())
}

/// What verifying the jobs of a split carries along.
struct Walk<'a> {
    dir: &'a Path,
    manifest: &'a Manifest,
    spec: SplitSpec,
    board: BoardCheck,
    checks: Checks<'a>,
    /// The verdicts so far, each job's before its pieces'.
    verdicts: Vec<Verdict>,
    /// The jobs counted to their end, whose proofs were checked.
    counted: std::collections::BTreeSet<String>,
}

impl Walk<'_> {
    /// A place for job `id`'s verdict, before its pieces': its index.
    fn open(&mut self, id: &str) -> usize {
        self.verdicts.push(Verdict {
            name: id.to_string(),
            outcome: Finding::Rejected(Rejection::unreadable("not checked")),
        });
        self.verdicts.len() - 1
    }
}

/// Cube `i`: its file is the rebuilt cube's formula, and its job is
/// verified ([`verify_job`]). The proof's steps, the cube's weighted
/// share of the count, and what was checked.
fn verify_cube(
    walk: &mut Walk<'_>,
    split: &Split,
    i: usize,
) -> Result<(Option<u64>, u128, String), Rejection> {
    let (dir, manifest, stop) = (walk.dir, walk.manifest, walk.checks.stop);
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
    if !is_rebuilt(split, i, &file) {
        return Err(Rejection::mismatch(format!(
            "{} is not the cube's formula as rebuilt from the manifest's spec",
            entry.file
        )));
    }
    verify_job(walk, entry, 0, &source)
}

/// Job `entry` of round `round`, whose file `source` is checked to be
/// the rebuilt one: counted, its proof is a verified count of `source`,
/// equal to its result; split, its pieces are the spec's and cover it,
/// and each is verified in turn, its verdict recorded (see the module
/// doc). The proofs' steps, the job's weighted share of the count, and
/// what was checked.
fn verify_job(
    walk: &mut Walk<'_>,
    entry: &Entry,
    round: usize,
    source: &Path,
) -> Result<(Option<u64>, u128, String), Rejection> {
    let result = read_result(walk.dir, &entry.id)?;
    let Some(pieces) = &result.pieces else {
        return verify_counted(walk, entry, round, source, &result);
    };
    let (split, refinements) = split_pieces(walk, entry, round, &result, pieces)?;
    let mut share: u128 = 0;
    let mut failed = Vec::new();
    for (j, piece) in pieces.iter().enumerate() {
        let at = walk.open(&piece.id);
        let checked = piece_file(walk, &split, j, piece)
            .and_then(|file| verify_job(walk, piece, round + 1, &file));
        walk.verdicts[at].outcome = match checked {
            Ok((s, x, what)) => {
                share = share.saturating_add(x);
                Finding::Verified { steps: s, what }
            }
            Err(why) => {
                failed.push(piece.id.as_str());
                Finding::Rejected(why)
            }
        };
    }
    if !failed.is_empty() {
        return Err(Rejection::cover(format!(
            "{} of its {} not verified ({})",
            failed.len(),
            plural(pieces.len(), "piece is", "pieces are"),
            summary(&failed)
        )));
    }
    Ok((
        None,
        share,
        format!(
            "split past its budget into {} pieces, rebuilt from the spec, whose orbits under its stabilizer hold its {refinements} refinements by the next ring",
            pieces.len(),
        ),
    ))
}

/// Job `entry` of round `round`, counted to its end (its answer
/// `result`): its proof is a verified count of `source`, equal to its
/// result; its share is that count weighted, or with lex-leader
/// constraints its leaders' orbits ([`lex_share`]).
fn verify_counted(
    walk: &mut Walk<'_>,
    entry: &Entry,
    round: usize,
    source: &Path,
    result: &JobResult,
) -> Result<(Option<u64>, u128, String), Rejection> {
    let proofs = walk.dir.join(PROOFS).join(&entry.id);
    let CountProof {
        steps,
        count,
        what,
        blocked,
    } = verify_count(&proofs, source, walk.board, walk.checks)?;
    if !result.complete || result.count != count {
        return Err(Rejection::mismatch(format!(
            "the job's result counts {}{}, its proof {count}",
            result.count,
            if result.complete { "" } else { " (incomplete)" }
        )));
    }
    let (share, what) = if walk.spec.lex {
        let placements = lex_share(&walk.spec, entry, round, &blocked, result)?;
        (
            u128::from(placements),
            format!("{what}; each the leader of its orbit under the cube's stabilizer, standing for {placements} placements in all"),
        )
    } else {
        (u128::from(count) * u128::from(entry.weight), what)
    };
    walk.counted.insert(entry.id.clone());
    Ok((Some(steps), share, what))
}

/// The checks of job `entry`'s split answer `result` listing `pieces`
/// (see the module doc): the pieces rebuilt from the spec, and the number
/// of refinements they cover.
fn split_pieces(
    walk: &Walk<'_>,
    entry: &Entry,
    round: usize,
    result: &JobResult,
    pieces: &[Entry],
) -> Result<(Split, u64), Rejection> {
    let id = &entry.id;
    let bad = |why: String| Rejection::cover(format!("job {id}, split past its budget: {why}"));
    entry
        .answered_by(&walk.manifest.split, result)
        .map_err(|what| bad(format!("its answer answers {what}")))?;
    let budget = walk
        .manifest
        .budget
        .ok_or_else(|| bad("the split has no job budget".to_string()))?;
    let (board, cube) = walk
        .spec
        .job_cube(round, &entry.description)
        .map_err(|e| bad(e.to_string()))?
        .ok_or_else(|| bad("only domination jobs are split".to_string()))?;
    if !SplitSpec::splits(&board, &cube, budget.max_depth) {
        return Err(bad(format!("its cube {cube} has no ring left to split")));
    }
    let expected = walk.spec.pieces(&board, id, &cube, entry.weight);
    let listed: Vec<(&str, u64, &str, &str, Option<usize>)> = pieces
        .iter()
        .map(|p| {
            (
                p.id.as_str(),
                p.weight,
                p.description.as_str(),
                p.file.as_str(),
                p.index,
            )
        })
        .collect();
    let files: Vec<String> = expected.iter().map(|p| format!("{}.cnf", p.id)).collect();
    let descriptions: Vec<String> = expected.iter().map(|p| p.cube.to_string()).collect();
    let want: Vec<(&str, u64, &str, &str, Option<usize>)> = expected
        .iter()
        .zip(&files)
        .zip(&descriptions)
        .map(|((p, f), d)| (p.id.as_str(), p.weight, d.as_str(), f.as_str(), None))
        .collect();
    if listed != want {
        return Err(bad(format!(
            "its {} pieces are not the {} pieces rebuilt from the spec",
            listed.len(),
            want.len()
        )));
    }
    let refinements = piece_cover(&board, &cube, entry.weight, walk.spec.cubes, pieces)
        .map_err(|why| why.about(&format!("job {id}, split past its budget")))?;
    let split = walk
        .spec
        .piece_split(id, &expected)
        .map_err(|e| bad(e.to_string()))?;
    Ok((split, refinements))
}

/// Piece `j` of `split`, listed as `piece`: its file, which must hold
/// exactly the rebuilt piece's clauses and projection.
fn piece_file(
    walk: &Walk<'_>,
    split: &Split,
    j: usize,
    piece: &Entry,
) -> Result<std::path::PathBuf, Rejection> {
    let source = inside(walk.dir, &piece.file)?;
    let file = read_formula(&source, walk.checks.stop)?;
    if !is_rebuilt(split, j, &file) {
        return Err(Rejection::mismatch(format!(
            "{} is not the piece's formula as rebuilt from the manifest's spec",
            piece.file
        )));
    }
    Ok(source)
}

/// The pieces of a domination job's cube `parent` (of weight `weight`)
/// cover it, checked from their descriptions alone: each fixes the
/// parent's lines as the parent does and the next ring's lines; its orbit
/// under the parent's stabilizer in the board's symmetries (itself alone
/// in a split of every cube, `cubes`) has its weight over the parent's as
/// size; the orbits are disjoint and hold every refinement of the parent
/// by the next ring. How many those are.
fn piece_cover(
    board: &Board,
    parent: &LineCube,
    weight: u64,
    cubes: Cubes,
    pieces: &[Entry],
) -> Result<u64, Rejection> {
    let stabilizer: Vec<Symmetry> = match cubes {
        Cubes::All => vec![Symmetry::Identity],
        Cubes::OnePerOrbit => stabilizer(board, parent),
    };
    let depth = parent.depth + 1;
    let mut seen = std::collections::BTreeSet::new();
    for piece in pieces {
        let cube = LineCube::parse(board, depth, &piece.description)
            .map_err(|e| Rejection::cover(format!("{}: {e}", piece.id)))?;
        if cube.order != parent.order || !parent.lines.iter().all(|l| cube.lines.contains(l)) {
            return Err(Rejection::cover(format!(
                "{} does not refine its parent {parent}",
                piece.id
            )));
        }
        let orbit: std::collections::BTreeSet<LineCube> =
            stabilizer.iter().map(|&s| cube.image(board, s)).collect();
        if piece.weight != weight * orbit.len() as u64 {
            return Err(Rejection::cover(format!(
                "{} has weight {}, its parent's {weight} times its orbit's {}",
                piece.id,
                piece.weight,
                orbit.len()
            )));
        }
        for image in orbit {
            if !seen.insert(image) {
                return Err(Rejection::cover(format!(
                    "{}'s orbit meets another piece's",
                    piece.id
                )));
            }
        }
    }
    let new = ring_lines(board, parent.order, depth).len() - parent.lines.len();
    let refinements = 1u64 << new;
    if seen.len() as u64 != refinements {
        return Err(Rejection::cover(format!(
            "the pieces' orbits hold {} of the {refinements} refinements by the next ring",
            seen.len()
        )));
    }
    Ok(refinements)
}

/// The symmetries of `board` that map `cube` to itself, from its lines.
fn stabilizer(board: &Board, cube: &LineCube) -> Vec<Symmetry> {
    Symmetry::of(board)
        .into_iter()
        .filter(|&s| cube.image(board, s) == *cube)
        .collect()
}

/// The share of a job of round `round` whose cube carries lex-leader
/// constraints, from the placements its verified proof blocks
/// (`blocked`): each must be the leader of its orbit under the cube's
/// stabilizer (computed here from the job's description), and their
/// orbits under the board's symmetries, summed, must be the placements
/// its result claims. (A symmetry that fixes a placement fixes its cube,
/// so a leader with its cube's weight stands for its whole orbit.)
fn lex_share(
    spec: &SplitSpec,
    entry: &Entry,
    round: usize,
    blocked: &[Vec<rustsat::types::Lit>],
    result: &JobResult,
) -> Result<u64, Rejection> {
    let Some((board, cube)) = spec
        .job_cube(round, &entry.description)
        .map_err(|e| Rejection::cover(format!("{}: {e}", entry.id)))?
    else {
        return Err(Rejection::cover(
            "lex-leader constraints in a split that is not of domination",
        ));
    };
    let stabilizer = stabilizer(&board, &cube);
    let mut placements = 0u64;
    for clause in blocked {
        let placement = blocked_placement(&board, clause, false)
            .ok_or_else(|| Rejection::mismatch("a blocking clause that is not a placement's"))?;
        if !is_lines_first_leader_under(&board, &stabilizer, &placement) {
            return Err(Rejection::mismatch(
                "the proof blocks a placement that is not the leader of its orbit under the cube's stabilizer",
            ));
        }
        placements = placements.saturating_add(orbit_size(&board, &placement));
    }
    if result.placements != Some(placements) {
        return Err(Rejection::mismatch(format!(
            "the job's result says {} placements; its proof's {} orbit representatives stand for {placements}",
            result.placements.map_or("no".to_string(), |p| p.to_string()),
            blocked.len()
        )));
    }
    Ok(placements)
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

/// A job's verified count ([`verify_count`]).
struct CountProof {
    /// The LRAT proof's steps.
    steps: u64,
    /// The models counted.
    count: u64,
    /// What was checked, in words.
    what: String,
    /// The blocking clauses, one per model.
    blocked: Vec<Vec<rustsat::types::Lit>>,
}

/// The one claim of a job's proof directory `proofs`: a complete
/// projected count of `source`, verified. Its steps, count and words,
/// and its blocking clauses.
fn verify_count(
    proofs: &Path,
    source: &Path,
    board: BoardCheck,
    checks: Checks<'_>,
) -> Result<CountProof, Rejection> {
    let (path, manifest) = read_job_proofs(proofs)?;
    let [claim] = manifest.claims.as_slice() else {
        return Err(Rejection::mismatch(format!(
            "{} holds {}, not the one count of its cube",
            path.display(),
            plural(manifest.claims.len(), "claim", "claims")
        )));
    };
    proof_format(claim)?;
    if claim.kind != ClaimKind::ProjectedComplete {
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
    let checked = check_claim(proofs, claim, checks, |formula| {
        let (what, _) = check_source_at(proofs, formula, claim, source, board)
            .and_then(|checked| check_words(claim).map(|()| checked))?;
        let count = claim
            .count
            .ok_or_else(|| Rejection::mismatch("a count claim without a count"))?;
        states_its_count(&path, &manifest, claim, count)?;
        // The source's check counted exactly `count` blocking clauses after it.
        let first = formula.clauses.len().saturating_sub(count as usize);
        Ok((what, (count, formula.clauses[first..].to_vec())))
    })?;
    let Checked {
        steps,
        what,
        fact: (count, blocked),
    } = checked;
    Ok(CountProof {
        steps,
        count,
        what,
        blocked,
    })
}

/// The manifest of a job's proof directory `proofs`, and its path.
fn read_job_proofs(proofs: &Path) -> Result<(PathBuf, ProofManifest), Rejection> {
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
    let manifest = serde_json::from_str(&text).map_err(|e| {
        Rejection::unreadable(format!("{}: not a proof manifest ({e})", path.display()))
    })?;
    Ok((path, manifest))
}

/// The job's own result (in its proof `manifest` at `path`) must be the
/// `count` its claim proves, in its words.
fn states_its_count(
    path: &Path,
    manifest: &ProofManifest,
    claim: &ClaimEntry,
    count: u64,
) -> Result<(), Rejection> {
    let expected = claim
        .source
        .as_ref()
        .map(|(path, _)| sentences::projected(&sentences::source(path, claim.icnf_cube), count));
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
    Ok(())
}

/// The split as a whole: its cubes cover the problem (checked apart from
/// the code that built them), every cube verified, and the weighted total
/// what `merge` sums.
fn check_split(
    dir: &Path,
    spec: &SplitSpec,
    split: &Split,
    manifest: &Manifest,
    shares: &[Option<u128>],
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
        .zip(shares)
        .filter(|(_, c)| c.is_none())
        .map(|(e, _)| e.id.as_str())
        .collect();
    if !missing.is_empty() {
        return Err(Rejection::cover(format!(
            "{} of {} not verified ({})",
            missing.len(),
            plural(shares.len(), "cube is", "cubes are"),
            summary(&missing)
        )));
    }
    let total = shares
        .iter()
        .try_fold(0u128, |t, c| t.checked_add(c.unwrap_or(0)))
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

/// Whether `file` is cube `i`'s formula as rebuilt from the split's spec:
/// its clauses and its projection.
fn is_rebuilt(split: &Split, i: usize, file: &boardsat_solve::formula::dimacs::Formula) -> bool {
    let rebuilt: Vec<Vec<rustsat::types::Lit>> = split
        .cube_cnf(i)
        .iter()
        .map(|clause| clause.iter().copied().collect())
        .collect();
    let projection: Vec<rustsat::types::Var> = (0..split.header.show.unwrap_or(0))
        .map(rustsat::types::Var::new)
        .collect();
    file.clauses == rebuilt && file.projection_or_all() == projection
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cover of a parent by its pieces is checked from their
    /// descriptions alone: the spec's pieces pass; a weight doubled, a
    /// piece dropped or listed twice, a piece of another parent or one
    /// ring too deep fail.
    #[test]
    fn pieces_must_cover_their_parent_once_per_orbit() {
        let spec = SplitSpec {
            family: Family::Domination,
            n: 9,
            k: Some(5),
            depth: 1,
            cubes: Cubes::OnePerOrbit,
            amo: boardsat_encode::Amo::default(),
            card: boardsat_encode::Card::default(),
            format: boardsat_encode::dimacs::Format::Cnf,
            lex: false,
        };
        let board = Board::square(9).unwrap();
        let (_, parent) = spec.job_cube(0, "r0+r8-c0-c8-").unwrap().unwrap();
        let entries: Vec<Entry> = spec
            .pieces(&board, "cube-00001", &parent, 4)
            .into_iter()
            .map(|p| Entry {
                file: format!("{}.cnf", p.id),
                id: p.id,
                weight: p.weight,
                description: p.cube.to_string(),
                index: None,
                digest: String::new(),
            })
            .collect();
        assert_eq!(
            piece_cover(&board, &parent, 4, Cubes::OnePerOrbit, &entries),
            Ok(16)
        );
        let mut heavier = entries.clone();
        heavier[0].weight *= 2;
        let e = piece_cover(&board, &parent, 4, Cubes::OnePerOrbit, &heavier)
            .unwrap_err()
            .to_string();
        assert!(e.contains("has weight"), "{e}");
        let e = piece_cover(&board, &parent, 4, Cubes::OnePerOrbit, &entries[1..])
            .unwrap_err()
            .to_string();
        assert!(e.contains("refinements by the next ring"), "{e}");
        let mut twice = entries.clone();
        twice.push(entries[0].clone());
        let e = piece_cover(&board, &parent, 4, Cubes::OnePerOrbit, &twice)
            .unwrap_err()
            .to_string();
        assert!(e.contains("meets another piece's"), "{e}");
        let (_, other) = spec.job_cube(0, "r0-r8-c0-c8-").unwrap().unwrap();
        let e = piece_cover(&board, &other, 1, Cubes::OnePerOrbit, &entries)
            .unwrap_err()
            .to_string();
        assert!(e.contains("does not refine its parent"), "{e}");
        // In a split of every cube, every refinement is a piece of the
        // parent's weight.
        let every: Vec<Entry> = SplitSpec {
            cubes: Cubes::All,
            ..spec
        }
        .pieces(&board, "cube-00001", &parent, 1)
        .into_iter()
        .map(|p| Entry {
            file: format!("{}.cnf", p.id),
            id: p.id,
            weight: p.weight,
            description: p.cube.to_string(),
            index: None,
            digest: String::new(),
        })
        .collect();
        assert_eq!(every.len(), 16);
        assert_eq!(piece_cover(&board, &parent, 1, Cubes::All, &every), Ok(16));
        let e = piece_cover(&board, &parent, 4, Cubes::All, &entries)
            .unwrap_err()
            .to_string();
        assert!(e.contains("has weight"), "{e}");
        let mut deeper = entries.clone();
        deeper[0].description = "r0+r1-r2-r6-r7-r8-c0-c1-c2-c6-c7-c8-".to_string();
        let e = piece_cover(&board, &parent, 4, Cubes::OnePerOrbit, &deeper)
            .unwrap_err()
            .to_string();
        assert!(e.contains("is not a cube of rings of lines"), "{e}");
    }
}
