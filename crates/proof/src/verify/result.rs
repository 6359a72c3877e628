//! The run's result derived from the verified claims alone: every claim
//! it needs present and verified, a split's cover complete, totals
//! recomputed, placements and models found checked again, no claim left
//! that the result does not account for, and the run complete. The
//! result's sentence is `verify`'s own, never read from the manifest.

use std::{
    collections::{BTreeMap, BTreeSet},
    fs::{self, TryLockError},
    path::Path,
};

use boardsat_encode::{check, words::plural, Bound, Problem};

use crate::{
    manifest::{placement_of, Answer, ProblemName, ProofManifest, RunStatus, LOCK, MANIFEST_JSON},
    sentences,
    verify::{
        board::BoardFact,
        certified_split::{CubeRecord, SplitFact},
        files::{inside, open_regular},
        queens_cover::CoverFact,
        source::{board_of, check_witnesses, read_source, SourceFact},
        verdict::{summary, Rejection},
    },
};

/// What the verified claims of a directory establish, for its result.
#[derive(Default)]
pub(crate) struct Facts {
    /// Verified board claims outside splits.
    pub boards: BTreeMap<String, BoardFact>,
    /// Verified DIMACS claims.
    pub sources: BTreeMap<String, SourceFact>,
    /// Verified cubes of certified splits, for their splits' checks.
    pub cubes: BTreeMap<String, CubeRecord>,
    /// Verified splits.
    pub splits: BTreeMap<String, SplitFact>,
    /// A verified cover of an N-queens cube count: its total and claims.
    pub cover: Option<CoverFact>,
    /// The names of the claims and splits that verified.
    pub verified: BTreeSet<String>,
    /// The names of what did not verify.
    pub failed: Vec<String>,
}

/// The run's result, derived from the verified claims alone: the run
/// complete, every claim verified, the claims the answer needs present,
/// totals and placements checked again, nothing left over. Its sentence,
/// or what is missing.
pub(crate) fn derive(
    dir: &Path,
    manifest: &ProofManifest,
    facts: &Facts,
) -> Result<String, Rejection> {
    if manifest.status != RunStatus::Complete {
        return Err(Rejection::not_proven(not_complete(dir, manifest)));
    }
    let Some(result) = &manifest.result else {
        return Err(Rejection::not_proven("the MANIFEST states no result, so there is nothing to check (written by an older boardsat?)"));
    };
    if !facts.failed.is_empty() {
        return Err(Rejection::not_proven(format!(
            "{} not verified ({}), and the result needs every claim",
            plural(facts.failed.len(), "claim", "claims"),
            summary(&facts.failed)
        )));
    }
    let stray = stray_files(dir, manifest);
    if !stray.is_empty() {
        return Err(Rejection::not_proven(format!(
            "the directory holds {} the MANIFEST does not list ({}): files of another run, or a mixed directory",
            plural(stray.len(), "claim file", "claim files"),
            summary(&stray)
        )));
    }
    let mut used = BTreeSet::new();
    let sentence = answer(dir, &result.answer, facts, &mut used)?;
    let left: Vec<String> = manifest
        .claims
        .iter()
        .map(|c| c.name.clone())
        .chain(manifest.splits.iter().map(|s| s.name.clone()))
        .chain(manifest.cover.iter().map(|_| "cover".to_string()))
        .filter(|name| !used.contains(name))
        .collect();
    if !left.is_empty() {
        return Err(Rejection::not_proven(format!(
            "the result does not account for {} ({}): claims of another run, or a mixed directory",
            plural(left.len(), "claim", "claims"),
            summary(&left)
        )));
    }
    if sentence != result.sentence {
        return Err(Rejection::not_proven(format!(
            "the MANIFEST's result is not what was verified: it says '{}', the claims prove '{sentence}'",
            result.sentence
        )));
    }
    Ok(sentence)
}

/// The files of `dir` that look like a proof directory's (claims,
/// proofs, witnesses, a split's `MANIFEST`) but that `manifest` does not
/// name. Other files (a user's notes) are not the proofs' business.
fn stray_files(dir: &Path, manifest: &ProofManifest) -> Vec<String> {
    let mut named: BTreeSet<&str> = [MANIFEST_JSON, LOCK].into_iter().collect();
    for claim in &manifest.claims {
        named.extend([claim.cnf.as_str(), claim.proof.as_str()]);
        named.extend(claim.models.as_deref());
    }
    if let Some(Answer::Models { models, .. }) = manifest.result.as_ref().map(|r| &r.answer) {
        named.insert(models.as_str());
    }
    let Ok(list) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut stray: Vec<String> = list
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| {
            let looks = name.starts_with("claim-")
                || [".lrat", ".lrat.zst", ".models"]
                    .iter()
                    .any(|e| name.ends_with(e))
                || name == "MANIFEST";
            looks && !named.contains(name.as_str())
        })
        .collect();
    stray.sort();
    stray
}

/// Why a run that is not complete proves nothing as a whole.
fn not_complete(dir: &Path, manifest: &ProofManifest) -> String {
    let how = match manifest.status {
        RunStatus::Running if locked(dir) => "is still running (its lock is held)".to_string(),
        RunStatus::Running => {
            "ended without saying how (killed, or written by an older boardsat)".to_string()
        }
        status => status.words().to_string(),
    };
    let why = manifest
        .reason
        .as_ref()
        .map_or(String::new(), |r| format!(" ({r})"));
    let found = manifest.found.map_or(String::new(), |f| {
        format!(
            "; it had found {}, which its claims prove only in part",
            plural(f, "placement", "placements")
        )
    });
    if manifest.claims.is_empty() {
        return format!("the run {how}{why} before any claim was written: nothing to check{found}");
    }
    let claims = match manifest.claims.len() {
        1 => "its 1 claim proves".to_string(),
        n => format!("its {n} claims prove"),
    };
    format!("the run {how}{why}; {claims} parts of the result, not the whole{found}")
}

/// Whether a run holds the directory's lock now.
fn locked(dir: &Path) -> bool {
    let Ok(file) = open_regular(&dir.join(LOCK)) else {
        return false;
    };
    matches!(file.try_lock_shared(), Err(TryLockError::WouldBlock))
}

/// The bound one step past an optimum `value` (fewer pieces for
/// domination, more for independence), none when no placement can lie
/// past it.
fn step_past(problem: &Problem, value: usize) -> Option<usize> {
    if problem.kind.dominating() {
        value.checked_sub(1)
    } else {
        (value < problem.board.n_squares()).then_some(value + 1)
    }
}

/// A verified refutation of `problem` with `k` pieces: the claims it
/// rests on.
fn refutation(facts: &Facts, problem: &Problem, k: usize) -> Option<Vec<String>> {
    let single = facts.boards.iter().find_map(|(name, b)| {
        (b.count.is_none() && !b.cube && b.problem == *problem && b.k == k)
            .then(|| vec![name.clone()])
    });
    single.or_else(|| {
        facts.splits.iter().find_map(|(name, split)| {
            (split.count.is_none() && split.problem == *problem && split.k == k).then(|| {
                let mut names = split.claims.clone();
                names.push(name.clone());
                names
            })
        })
    })
}

/// The verified refutations of `problem` that an optimum refuted at
/// `refuted` implies (fewer pieces still for domination, more for
/// independence): found on the optimiser's way, accounted for.
fn implied_refutations(facts: &Facts, problem: &Problem, refuted: usize) -> Vec<String> {
    let beyond = |k: usize| {
        if problem.kind.dominating() {
            k < refuted
        } else {
            k > refuted
        }
    };
    let mut names = Vec::new();
    for (name, b) in &facts.boards {
        if b.count.is_none() && !b.cube && b.problem == *problem && beyond(b.k) {
            names.push(name.clone());
        }
    }
    for (name, split) in &facts.splits {
        if split.count.is_none() && split.problem == *problem && beyond(split.k) {
            names.extend(split.claims.iter().cloned());
            names.push(name.clone());
        }
    }
    names
}

/// A verified count of `problem` with bound `k`.
struct Complete {
    count: u64,
    orbits: Option<u64>,
    short: bool,
    names: Vec<String>,
}

/// Every verified count of `problem` with bound `k`.
fn completes(facts: &Facts, problem: &Problem, k: usize) -> Vec<Complete> {
    let mut out = Vec::new();
    for (name, b) in &facts.boards {
        if let Some(count) = b
            .count
            .filter(|_| !b.cube && b.problem == *problem && b.k == k)
        {
            out.push(Complete {
                count,
                orbits: b.symmetric.then_some(b.models),
                short: b.short,
                names: vec![name.clone()],
            });
        }
    }
    if let Some(cover) = facts
        .cover
        .as_ref()
        .filter(|c| c.problem == *problem && c.k == k)
    {
        let mut names = cover.claims.clone();
        names.push("cover".to_string());
        // An N-queens count has exactly n queens: short clauses miss none.
        out.push(Complete {
            count: cover.count,
            orbits: cover.orbits,
            short: false,
            names,
        });
    }
    for (name, split) in &facts.splits {
        if let Some(count) = split
            .count
            .filter(|_| split.problem == *problem && split.k == k)
        {
            let mut names = split.claims.clone();
            names.push(name.clone());
            out.push(Complete {
                count,
                orbits: split.symmetric.then_some(split.models),
                short: false,
                names,
            });
        }
    }
    out
}

/// Derives `answer` from `facts` (see [`derive`]): its sentence; the
/// claims it rests on go into `used`.
fn answer(
    dir: &Path,
    answer: &Answer,
    facts: &Facts,
    used: &mut BTreeSet<String>,
) -> Result<String, Rejection> {
    let named = |problem: &ProblemName| problem.problem().map_err(Rejection::unreadable);
    match answer {
        Answer::NoPlacement { problem, k } => {
            let problem = named(problem)?;
            let what = format!("refutes {} for {problem}", sentences::bounded(&problem, *k));
            used.extend(refutation(facts, &problem, *k).ok_or_else(|| missing(&what))?);
            Ok(sentences::no_placement(&problem, *k))
        }
        Answer::Optimum {
            problem,
            value,
            placement,
        } => optimum_answer(&named(problem)?, *value, placement, facts, used),
        Answer::Count {
            problem,
            k,
            count,
            orbits,
            optimal,
        } => {
            let problem = named(problem)?;
            let stated = Stated {
                k: *k,
                count: *count,
                orbits: *orbits,
                optimal: *optimal,
            };
            count_answer(&problem, stated, facts, used)
        }
        Answer::Placements {
            problem,
            k,
            placements,
        } => placements_answer(&named(problem)?, *k, placements),
        Answer::Unsatisfiable { source } => {
            let what = format!("proves {} unsatisfiable", source.0);
            let name = source_claim(facts, source, None, None).ok_or_else(|| missing(&what))?;
            used.insert(name);
            Ok(sentences::formula(&source.0))
        }
        Answer::ProjectedCount {
            source,
            icnf_cube,
            count,
        } => projected_answer(source, *icnf_cube, *count, facts, used),
        Answer::Models {
            source,
            icnf_cube,
            count,
            models,
        } => models_answer(dir, source, *icnf_cube, *count, models),
    }
}

/// `count` projected models of `source` (cube `icnf_cube`): the verified
/// DIMACS claim that counts them goes into `used`.
fn projected_answer(
    source: &(String, String),
    icnf_cube: Option<usize>,
    count: u64,
    facts: &Facts,
    used: &mut BTreeSet<String>,
) -> Result<String, Rejection> {
    let shown = sentences::source(&source.0, icnf_cube);
    let what = format!("proves that {shown} has exactly {count} projected models");
    let name = source_claim(facts, source, icnf_cube, Some(count)).ok_or_else(|| missing(&what))?;
    used.insert(name);
    Ok(sentences::projected(&shown, count))
}

/// The models found of `source` (cube `icnf_cube`), `count` of them in
/// the file `models` of `dir`, each its own certificate: checked again
/// against the source.
fn models_answer(
    dir: &Path,
    source: &(String, String),
    icnf_cube: Option<usize>,
    count: u64,
    models: &str,
) -> Result<String, Rejection> {
    let shown = sentences::source(&source.0, icnf_cube);
    let formula = read_source(Path::new(&source.0), &source.1, icnf_cube)?;
    let path = inside(dir, models)?;
    let found = check_witnesses(&formula, &path, None, board_of(&formula), 0)?;
    if found != count || found == 0 {
        return Err(Rejection::not_proven(format!(
            "{} holds {}, the MANIFEST's result {count}",
            path.display(),
            plural(found, "model", "models")
        )));
    }
    Ok(sentences::models_found(&shown, found))
}

/// No verified claim does `what`.
fn missing(what: &str) -> Rejection {
    Rejection::not_proven(format!("no verified claim {what}"))
}

/// The claims that refute the bound one step past `k` (none when there
/// is no such step), put into `used`: the step refuted. `why` ends the
/// sentence of a missing claim ("refutes at most 4 queens…`why`").
fn refute_past(
    facts: &Facts,
    problem: &Problem,
    k: usize,
    used: &mut BTreeSet<String>,
    why: &str,
) -> Result<Option<usize>, Rejection> {
    let refuted = step_past(problem, k);
    if let Some(r) = refuted {
        let what = format!("refutes {}{why}", sentences::bounded(problem, r));
        used.extend(refutation(facts, problem, r).ok_or_else(|| missing(&what))?);
        used.extend(implied_refutations(facts, problem, r));
    }
    Ok(refuted)
}

/// The optimum `value` of `problem` with its `placement`: the placement
/// checked, and the refutation one step past it verified.
fn optimum_answer(
    problem: &Problem,
    value: usize,
    placement: &[[usize; 2]],
    facts: &Facts,
    used: &mut BTreeSet<String>,
) -> Result<String, Rejection> {
    let placement = placement_of(placement);
    check(problem, Some(problem.kind.bound(value)), &placement).map_err(|v| {
        Rejection::not_proven(format!("the optimum's placement is not a solution ({v})"))
    })?;
    if placement.len() != value {
        return Err(Rejection::not_proven(format!(
            "the optimum's placement has {}, not {value}",
            plural(placement.len(), "piece", "pieces")
        )));
    }
    let refuted = refute_past(facts, problem, value, used, " one step past the optimum")?;
    Ok(sentences::optimum(problem, value, refuted))
}

/// A count as the MANIFEST's result states it.
#[derive(Clone, Copy, Debug)]
struct Stated {
    k: usize,
    count: u64,
    orbits: Option<u64>,
    optimal: bool,
}

/// The count `stated` of `problem`: one verified count of it, with the
/// same total (and orbits), the refutation its short blocking clauses
/// need, and with an optimum the refutation one step past it.
fn count_answer(
    problem: &Problem,
    stated: Stated,
    facts: &Facts,
    used: &mut BTreeSet<String>,
) -> Result<String, Rejection> {
    let Stated {
        k,
        count,
        orbits,
        optimal,
    } = stated;
    let found = completes(facts, problem, k);
    let [complete] = found.as_slice() else {
        return Err(match found.len() {
            0 => missing(&format!(
                "counts the placements with {} for {problem}",
                sentences::bounded(problem, k)
            )),
            n => Rejection::not_proven(format!(
                "{n} verified counts of {problem} with {}, not one",
                sentences::bounded(problem, k)
            )),
        });
    };
    if complete.count != count {
        return Err(Rejection::not_proven(format!(
            "the claims count {}, the MANIFEST's result {count}",
            plural(complete.count, "placement", "placements")
        )));
    }
    if orbits.is_some() && complete.orbits != orbits {
        return Err(Rejection::not_proven(format!(
            "the claims count {} orbits, the MANIFEST's result {}",
            complete.orbits.map_or("no".to_string(), |o| o.to_string()),
            orbits.unwrap_or(0)
        )));
    }
    used.extend(complete.names.iter().cloned());
    if complete.short && matches!(problem.kind.bound(k), Bound::AtMost(_)) && k > 0 {
        // "Not all of these squares" blocks only one placement each when
        // none has fewer pieces.
        let what = format!(
            "refutes {}, which the short blocking clauses of the count need",
            sentences::bounded(problem, k - 1)
        );
        used.extend(refutation(facts, problem, k - 1).ok_or_else(|| missing(&what))?);
    }
    let mut past = None;
    if optimal {
        let why = format!(", which makes {k} the optimum");
        past = Some(refute_past(facts, problem, k, used, &why)?);
    }
    Ok(sentences::counted(problem, k, count, orbits, past))
}

/// The placements found with `k` pieces, each its own certificate:
/// distinct, and each a solution.
fn placements_answer(
    problem: &Problem,
    k: usize,
    placements: &[Vec<[usize; 2]>],
) -> Result<String, Rejection> {
    let bound = problem.kind.bound(k);
    let mut seen = BTreeSet::new();
    for (i, pairs) in placements.iter().enumerate() {
        let placement = placement_of(pairs);
        check(problem, Some(bound), &placement).map_err(|v| {
            Rejection::not_proven(format!("placement {} is not a solution ({v})", i + 1))
        })?;
        if !seen.insert(placement) {
            return Err(Rejection::not_proven(format!(
                "placement {} is listed twice",
                i + 1
            )));
        }
    }
    if placements.is_empty() {
        return Err(Rejection::not_proven("the result lists no placement"));
    }
    Ok(sentences::found(problem, k, placements.len()))
}

/// The verified DIMACS claim about `source` (cube `icnf_cube`) with
/// `count` projected models (none: unsatisfiable).
fn source_claim(
    facts: &Facts,
    source: &(String, String),
    icnf_cube: Option<usize>,
    count: Option<u64>,
) -> Option<String> {
    facts.sources.iter().find_map(|(name, s)| {
        (s.source == *source && s.icnf_cube == icnf_cube && s.count == count).then(|| name.clone())
    })
}
