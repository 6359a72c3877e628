//! The jobs of a split as a tree, read back from `results/`: the round-0
//! jobs are the manifest's cubes, and a job split past its budget
//! ([`crate::Budget`]) has the pieces its answer lists as children, the
//! jobs of the next round. A job's share of the count is its own count
//! times its weight when it counted to the end (in a split with
//! lex-leader constraints, the placements its answer says its orbit
//! representatives stand for), its pieces' shares when it was split;
//! [`merge`] sums the leaves.
//!
//! Every split is checked against the split's spec before anything is
//! summed: a job's pieces must be exactly the pieces of its cube
//! ([`SplitSpec::pieces`]: the same ids, cubes and weights, each in its
//! own `<id>.cnf`), and its cube must have had a ring left to split, no
//! deeper than the budget's `max-depth`. A round edited by hand — a
//! piece's weight or cube changed, a piece missing, added or listed twice
//! — is refused whole ([`JobsError::Round`]). Each answer must name the
//! split, the job and the digest of the very file its entry lists
//! ([`Entry::answered_by`]), so a piece file changed after its parent
//! listed it is not this job's either. (`boardsat merge --verify`
//! rebuilds every file from the spec as well.)

use std::{
    collections::{BTreeSet, VecDeque},
    fs,
    io::{BufRead as _, BufReader, Read as _},
    path::Path,
};

use crate::{
    error::{JobsError, RoundProblem},
    layout::{self, RESULTS},
    manifest::{read_manifest, Entry, JobResult, Manifest},
    split::{PieceCube, SplitSpec, LEX_LEADER_COMMENT},
};

/// The most bytes of a cube file's header comments read for
/// [`carries_lex_leader`]: its provenance and projection lines.
const HEADER_LIMIT: u64 = 1 << 20;

/// Whether the header comments of a formula (the lines before its `p`
/// line, without their `c `) say it ends with lex-leader constraints
/// ([`LEX_LEADER_COMMENT`]).
pub fn lex_leader_in<'a>(comments: impl IntoIterator<Item = &'a str>) -> bool {
    comments.into_iter().any(|c| c.trim() == LEX_LEADER_COMMENT)
}

/// Whether the cube file `path` (a regular file) says in its header
/// comments that it ends with lex-leader constraints; nothing past its
/// `p` line (or its first MiB) is read.
///
/// # Errors
///
/// [`JobsError::Layout`] for a path that is not a regular file,
/// [`JobsError::Dir`] for one that cannot be read.
pub fn carries_lex_leader(path: &Path) -> Result<bool, JobsError> {
    let unreadable = |e: std::io::Error| JobsError::Dir {
        action: "read",
        path: path.display().to_string(),
        reason: boardsat_solve::files::describe(&e),
    };
    if !layout::real_file(path)? {
        return Err(unreadable(std::io::ErrorKind::NotFound.into()));
    }
    let file = fs::File::open(path).map_err(unreadable)?;
    let mut comments = Vec::new();
    for line in BufReader::new(file.take(HEADER_LIMIT)).lines() {
        let line = line.map_err(unreadable)?;
        match line.strip_prefix('c') {
            Some(rest) if rest.is_empty() || rest.starts_with([' ', '\t']) => {
                comments.push(rest.trim().to_string());
            }
            _ => break,
        }
    }
    Ok(lex_leader_in(comments.iter().map(String::as_str)))
}

/// A job's file `file` and the split's spec must agree on lex-leader
/// constraints (`spec_lex`: the spec's `lex=lines-first`; `carries`: the
/// file's header): a job of such a file counts orbit representatives,
/// which only the spec's weighing turns into placements. A MANIFEST that
/// lost or gained the word would merge to a wrong total.
///
/// # Errors
///
/// [`JobsError::LexLeader`] saying which way they disagree.
pub fn reconcile_lex_leader(spec_lex: bool, file: &str, carries: bool) -> Result<(), JobsError> {
    match (spec_lex, carries) {
        (false, true) | (true, false) => Err(JobsError::LexLeader {
            file: file.to_string(),
            carries,
        }),
        _ => Ok(()),
    }
}

/// Why a job has no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unanswered {
    /// No answer file.
    Missing,
    /// An answer file that is not a job's answer (not JSON, not a
    /// regular file).
    Unreadable,
    /// A count stopped before its end (by a signal, a time limit, a
    /// solver that gave up): why, as the answer says.
    Incomplete(Option<String>),
    /// The answer of another split, job or file: what it answers, in
    /// words.
    Foreign(String),
}

/// What a job of the tree answered.
#[derive(Clone, Debug, PartialEq)]
pub enum JobAnswer {
    /// Counted to the end: its count (of its own cube, before its
    /// weight).
    Counted(u64),
    /// Split past its budget: its pieces are the next nodes of the tree.
    Split(usize),
    /// Nothing yet, or nothing valid.
    Unanswered(Unanswered),
}

/// One job of the tree.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// Its cube, as the manifest or its parent's answer lists it.
    pub entry: Entry,
    /// 0 for the manifest's cubes, one more per split.
    pub round: usize,
    /// What it answered.
    pub answer: JobAnswer,
    /// The wall time of its solver, from its answer (0 without one).
    pub seconds: f64,
    /// Its share of the count when it counted to the end (else 0): its
    /// count times its weight, or in a split with lex-leader constraints
    /// the placements its answer says its models stand for.
    pub share: u128,
}

/// Every job of a split directory known so far: the manifest's cubes,
/// then the pieces of those split, round by round.
#[derive(Clone, Debug)]
pub struct Tree {
    /// The split's manifest.
    pub manifest: Manifest,
    /// The jobs, round 0 first.
    pub nodes: Vec<Node>,
}

impl Tree {
    /// The tree of the split in `dir`, every split checked against the
    /// spec (see the module doc).
    ///
    /// # Errors
    ///
    /// [`JobsError::Manifest`] for a directory without a sound manifest;
    /// [`JobsError::Round`] for a round that is not the spec's.
    pub fn read(dir: &Path) -> Result<Tree, JobsError> {
        let manifest = read_manifest(dir)?;
        let mut queue: VecDeque<(Entry, usize)> =
            manifest.entries.iter().map(|e| (e.clone(), 0)).collect();
        let mut nodes = Vec::new();
        let lex = manifest.spec.is_some_and(|s| s.lex);
        while let Some((entry, round)) = queue.pop_front() {
            let mut share = 0;
            let (answer, seconds) = match read_answer(dir, &manifest.split, &entry) {
                Ok(result) if result.complete => match (lex, result.placements) {
                    (false, None) => {
                        share = u128::from(result.count) * u128::from(entry.weight);
                        (JobAnswer::Counted(result.count), result.elapsed)
                    }
                    // Orbit representatives weighed by a job that read
                    // lex-leader constraints the spec does not have.
                    (false, Some(_)) => (
                        JobAnswer::Unanswered(Unanswered::Foreign(
                            "a count of orbit representatives, in a split whose MANIFEST's spec has no lex-leader constraints".to_string(),
                        )),
                        result.elapsed,
                    ),
                    (true, Some(placements)) => {
                        share = u128::from(placements);
                        (JobAnswer::Counted(result.count), result.elapsed)
                    }
                    (true, None) => (
                        JobAnswer::Unanswered(Unanswered::Incomplete(Some(
                            "its count does not say how many placements its orbit representatives stand for".to_string(),
                        ))),
                        result.elapsed,
                    ),
                },
                Ok(JobResult {
                    pieces: Some(pieces),
                    elapsed,
                    ..
                }) => {
                    check_pieces(&manifest, &entry, round, &pieces)?;
                    let n = pieces.len();
                    queue.extend(pieces.into_iter().map(|p| (p, round + 1)));
                    (JobAnswer::Split(n), elapsed)
                }
                Ok(result) => (
                    JobAnswer::Unanswered(Unanswered::Incomplete(result.stopped)),
                    result.elapsed,
                ),
                Err(why) => (JobAnswer::Unanswered(why), 0.0),
            };
            nodes.push(Node {
                entry,
                round,
                answer,
                seconds,
                share,
            });
        }
        Ok(Tree { manifest, nodes })
    }

    /// The deepest round reached, plus one: 1 when no job was split.
    #[must_use]
    pub fn rounds(&self) -> usize {
        self.nodes.iter().map(|n| n.round + 1).max().unwrap_or(0)
    }
}

/// The answer of `entry`'s job in `dir`, if it is one: a regular file,
/// a job's JSON, answering that very cube of split `split`.
fn read_answer(dir: &Path, split: &str, entry: &Entry) -> Result<JobResult, Unanswered> {
    let path = dir.join(RESULTS).join(layout::result_name(&entry.id));
    match layout::real_file(&path) {
        Ok(true) => {}
        Ok(false) => return Err(Unanswered::Missing),
        Err(_) => return Err(Unanswered::Unreadable),
    }
    let text = fs::read_to_string(&path).map_err(|_| Unanswered::Unreadable)?;
    let answer: JobResult =
        serde_json::from_str(text.trim()).map_err(|_| Unanswered::Unreadable)?;
    entry
        .answered_by(split, &answer)
        .map_err(Unanswered::Foreign)?;
    Ok(answer)
}

/// The pieces `listed` by job `entry` of round `round` are exactly the
/// spec's pieces of its cube (see the module doc).
fn check_pieces(
    manifest: &Manifest,
    entry: &Entry,
    round: usize,
    listed: &[Entry],
) -> Result<(), JobsError> {
    let id = &entry.id;
    let bad = |problem: RoundProblem| JobsError::Round {
        id: id.clone(),
        problem,
    };
    let (Some(spec), Some(budget)) = (manifest.spec, manifest.budget) else {
        return Err(bad(RoundProblem::NoBudget));
    };
    let (board, cube) = spec
        .job_cube(round, &entry.description)
        .map_err(|e| bad(RoundProblem::Cube(e)))?
        .ok_or_else(|| bad(RoundProblem::NotDomination))?;
    if !SplitSpec::splits(&board, &cube, budget.max_depth) {
        return Err(bad(RoundProblem::NoRingLeft {
            cube: cube.to_string(),
            max_depth: budget.max_depth,
        }));
    }
    let expected = spec.pieces(&board, id, &cube, entry.weight);
    let mut seen = std::collections::BTreeSet::new();
    for piece in listed {
        if !seen.insert(piece.id.as_str()) {
            return Err(bad(RoundProblem::Twice(piece.id.clone())));
        }
        let Some(want) = expected.iter().find(|p| p.id == piece.id) else {
            return Err(bad(RoundProblem::NotAPiece(piece.id.clone())));
        };
        check_piece(piece, want).map_err(bad)?;
    }
    if let Some(missing) = expected.iter().find(|p| !seen.contains(p.id.as_str())) {
        return Err(bad(RoundProblem::Lacks {
            missing: missing.id.clone(),
            pieces: expected.len(),
        }));
    }
    Ok(())
}

/// Checks that `piece`, listed in a job's answer, is the piece `want`
/// the job's cube has: its cube, its weight, its file.
fn check_piece(piece: &Entry, want: &PieceCube) -> Result<(), RoundProblem> {
    let description = want.cube.to_string();
    if piece.description != description {
        return Err(RoundProblem::WrongCube {
            piece: piece.id.clone(),
            listed: piece.description.clone(),
            expected: description,
        });
    }
    if piece.weight != want.weight {
        return Err(RoundProblem::Weight {
            piece: piece.id.clone(),
            listed: piece.weight,
            expected: want.weight,
        });
    }
    if piece.file != format!("{}.cnf", piece.id) || piece.index.is_some() {
        return Err(RoundProblem::File {
            piece: piece.id.clone(),
            file: piece.file.clone(),
        });
    }
    Ok(())
}

/// The entry of job `id` of the split in `dir` with `manifest`, and its
/// round: a cube the manifest lists, or a piece that its parent's answer
/// lists (its parent's parent's, … up to a cube of the manifest).
///
/// # Errors
///
/// [`JobsError::UnknownJob`] for an id that is neither, [`JobsError::NoParentAnswer`]
/// for a piece whose parent has no valid answer.
pub fn locate(dir: &Path, manifest: &Manifest, id: &str) -> Result<(Entry, usize), JobsError> {
    if let Some(entry) = manifest.entries.iter().find(|e| e.id == id) {
        return Ok((entry.clone(), 0));
    }
    let unknown = || JobsError::UnknownJob {
        dir: dir.display().to_string(),
        id: id.to_string(),
    };
    let parent = layout::parent_of(id).ok_or_else(unknown)?;
    let (entry, round) = locate(dir, manifest, parent)?;
    let answer =
        read_answer(dir, &manifest.split, &entry).map_err(|_| JobsError::NoParentAnswer {
            id: id.to_string(),
            parent: parent.to_string(),
            dir: dir.display().to_string(),
        })?;
    answer
        .pieces
        .unwrap_or_default()
        .into_iter()
        .find(|p| p.id == id)
        .map(|p| (p, round + 1))
        .ok_or_else(unknown)
}

/// The merged answer of a split.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Merged {
    /// The sum of every counted job's share.
    pub count: u128,
    /// In a split with lex-leader constraints: the orbits of the board's
    /// symmetries the placements fall into, the sum of the counted jobs'
    /// own counts (each job counts one representative per orbit of its
    /// cube's stabilizer, and a split's cubes and pieces are one per orbit
    /// of their patterns, so every orbit is counted once). `None` without
    /// the constraints, where a job counts placements.
    pub orbits: Option<u128>,
    /// The split's cubes (round 0).
    pub cubes: usize,
    /// Jobs in all: the cubes and the pieces of those split.
    pub jobs: usize,
    /// The rounds of pieces, plus one (1: no job was split).
    pub rounds: usize,
}

/// Sums the answers of a split directory with their weights, after
/// checking its rounds (see the module doc), that every job of the tree
/// has an answer — a count to the end of that job of this split, or its
/// pieces — and that the files of the jobs summed agree with the spec on
/// lex-leader constraints ([`reconcile_lex_leader`]).
///
/// # Errors
///
/// [`JobsError::Manifest`] for a directory without a sound manifest,
/// [`JobsError::Round`] for a round that is not the spec's,
/// [`JobsError::Unanswered`] naming the jobs without a valid answer, and
/// [`JobsError::Overflow`] when the total overflows.
pub fn merge(dir: &Path) -> Result<Merged, JobsError> {
    let tree = Tree::read(dir)?;
    let mut total: u128 = 0;
    let mut representatives: u128 = 0;
    let mut missing = Vec::new();
    let mut incomplete = Vec::new();
    let mut foreign = Vec::new();
    for node in &tree.nodes {
        let id = node.entry.id.clone();
        match &node.answer {
            JobAnswer::Counted(own) => {
                total = total.checked_add(node.share).ok_or(JobsError::Overflow)?;
                representatives += u128::from(*own);
            }
            JobAnswer::Split(_) => {}
            JobAnswer::Unanswered(Unanswered::Missing) => missing.push(id),
            JobAnswer::Unanswered(Unanswered::Foreign(what)) => {
                foreign.push(format!("{id} answers {what}"));
            }
            JobAnswer::Unanswered(_) => incomplete.push(id),
        }
    }
    if !missing.is_empty() || !incomplete.is_empty() || !foreign.is_empty() {
        let mut foreign_text = String::new();
        if !foreign.is_empty() {
            foreign_text = format!("; not this split's cube: {}", summary(&foreign));
        }
        return Err(JobsError::Unanswered {
            unanswered: missing.len() + incomplete.len() + foreign.len(),
            cubes: tree.nodes.len(),
            missing: summary(&missing),
            incomplete: format!("{}{foreign_text}", summary(&incomplete)),
        });
    }
    // The files of the jobs summed must agree with the spec on lex-leader
    // constraints (a file no longer there is not read: its answer's own
    // weighing is checked against the spec, Tree::read).
    let lex = tree.manifest.spec.is_some_and(|s| s.lex);
    let files: BTreeSet<&str> = tree
        .nodes
        .iter()
        .filter(|n| matches!(n.answer, JobAnswer::Counted(_)))
        .map(|n| n.entry.file.as_str())
        .collect();
    for file in files {
        let path = dir.join(file);
        if layout::real_file(&path)? {
            reconcile_lex_leader(lex, file, carries_lex_leader(&path)?)?;
        }
    }
    Ok(Merged {
        count: total,
        orbits: lex.then_some(representatives),
        cubes: tree.manifest.entries.len(),
        jobs: tree.nodes.len(),
        rounds: tree.rounds(),
    })
}

/// Ids in a line: all of them up to five, else the first five and how
/// many in all.
#[must_use]
pub fn summary(ids: &[String]) -> String {
    match ids.len() {
        0 => "none".to_string(),
        1..=5 => ids.join(", "),
        n => format!("{}, … ({n} in all)", ids[..5].join(", ")),
    }
}
