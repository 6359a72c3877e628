//! What a split's `MANIFEST` says (its cubes, spec, proofs and budget),
//! read back and checked; and what a job answers ([`JobResult`]).

use std::{fmt::Write as _, fs, path::Path, time::Duration};

use boardsat_solve::files::proof_dir::ProofFormat;
use serde::{Deserialize, Serialize};

use boardsat_solve::{files::proof_dir::Compression, search::count::Proofs};

use crate::{
    error::{JobsError, LineProblem, ManifestProblem},
    layout::{self, MANIFEST, PROOFS},
    split::SplitSpec,
};

/// How long a job's solver may run before the job is split into the
/// pieces of its next ring (`cubes --job-budget`), and how deep pieces
/// may go: the manifest's `# budget SECONDS [max-depth D]` line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// The solver's time before the job splits.
    pub time: Duration,
    /// The most rings a piece fixes; a job that deep runs to its end.
    /// `None`: until every row and column is fixed.
    pub max_depth: Option<usize>,
}

impl Budget {
    /// The manifest's line.
    #[must_use]
    pub fn line(&self) -> String {
        let mut line = format!("# budget {}", self.time.as_secs_f64());
        if let Some(depth) = self.max_depth {
            let _ = write!(line, " max-depth {depth}");
        }
        line
    }

    /// The budget of a manifest line's words after `# budget`.
    fn parse(words: &[&str]) -> Result<Budget, LineProblem> {
        let (seconds, rest) = words.split_first().ok_or(LineProblem::NoSeconds)?;
        let time = seconds
            .parse::<f64>()
            .ok()
            .and_then(boardsat_solve::stop::seconds)
            .ok_or_else(|| LineProblem::BudgetSeconds((*seconds).to_string()))?;
        let max_depth = match rest {
            [] => None,
            ["max-depth", d] => Some(
                d.parse::<usize>()
                    .map_err(|_| LineProblem::MaxDepth((*d).to_string()))?,
            ),
            _ => return Err(LineProblem::AfterBudget(rest.join(" "))),
        };
        Ok(Budget { time, max_depth })
    }
}

/// What one job answers: the JSON object `count-dimacs --json` prints.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct JobResult {
    /// `count-dimacs`.
    pub command: String,
    /// The file counted.
    pub file: String,
    /// The iCNF cube counted, if any.
    pub cube: Option<usize>,
    /// `complete`, `limit` (`--limit` reached) or `unknown` (stopped), as
    /// `count --json` says it.
    #[serde(default)]
    pub status: String,
    /// Projected models found.
    pub count: u64,
    /// Whether the count is exact (the solver proved there are no more).
    pub complete: bool,
    /// The number of projection variables.
    pub projected_vars: usize,
    /// Why counting stopped early, if it did.
    pub stopped: Option<String>,
    /// The solver.
    pub backend: String,
    /// Wall time in seconds.
    #[serde(default)]
    pub elapsed: f64,
    /// The SHA-256 digest of the file as read.
    #[serde(default)]
    pub digest: String,
    /// The split the file belongs to (its `c boardsat-split` line).
    #[serde(default)]
    pub split: Option<String>,
    /// The cube the file is (its `c boardsat-cube` line's id).
    #[serde(default)]
    pub cube_id: Option<String>,
    /// When the job ran past its budget: the pieces it was split into,
    /// the jobs of the next round, whose counts make its share; `count`
    /// is then what it had found when stopped, and counts for nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pieces: Option<Vec<Entry>>,
    /// In a split with lex-leader constraints ([`crate::split::SplitSpec::lex`]),
    /// a job counted to its end: the placements its models (orbit
    /// representatives) stand for, each model's orbit under the board's
    /// symmetries summed. That is the job's share of the count; its
    /// weight is already in it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placements: Option<u64>,
}

impl JobResult {
    /// Whether the job answered: counted to the end, or split into
    /// pieces.
    #[must_use]
    pub fn answered(&self) -> bool {
        self.complete || self.pieces.is_some()
    }
}

/// One cube of a manifest, or one piece of a job split past its budget.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// The cube's id (`cube-00000`).
    pub id: String,
    /// Its weight.
    pub weight: u64,
    /// Its description (the split's words for the cube).
    pub description: String,
    /// The file its job counts.
    pub file: String,
    /// Its index in an iCNF file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
    /// The digest of the file.
    pub digest: String,
}

impl Entry {
    /// Whether `answer` is an answer to this cube of split `split`: it
    /// names the split, the cube, and the digest of the very file the
    /// manifest lists; if not, what it answers instead, in words.
    ///
    /// # Errors
    ///
    /// What `answer` answers instead (`another split (…)`, `cube …`).
    pub fn answered_by(&self, split: &str, answer: &JobResult) -> Result<(), String> {
        if answer.split.as_deref() != Some(split) {
            Err(format!(
                "another split ({})",
                answer.split.as_deref().unwrap_or("none")
            ))
        } else if answer.digest != self.digest {
            Err("a file whose digest is not the manifest's".to_string())
        } else if self.index.is_none() && answer.cube_id.as_deref() != Some(self.id.as_str()) {
            Err(format!(
                "cube {}",
                answer.cube_id.as_deref().unwrap_or("none")
            ))
        } else if self.index.is_some() && answer.cube != self.index {
            Err(format!("cube index {:?}", answer.cube))
        } else {
            Ok(())
        }
    }
}

/// A split directory's `MANIFEST`, read and checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Manifest {
    /// The split's id.
    pub split: String,
    /// What it was made of (its `# spec` line), when recorded.
    pub spec: Option<SplitSpec>,
    /// Whether its jobs prove their counts (its `# proofs` line).
    pub proofs: Proofs,
    /// How they write their proofs (its `# proof-format` line; text
    /// without one).
    pub proof_format: ProofFormat,
    /// How they store their proofs (its `# proof-compression` line; as
    /// written without one).
    pub proof_compression: Compression,
    /// The jobs' budget (its `# budget` line).
    pub budget: Option<Budget>,
    /// The cubes, in order.
    pub entries: Vec<Entry>,
}

/// The manifest of the split in `dir`, checked: the header is there,
/// every line is whole, ids are unique, no file (or cube of an iCNF file)
/// is listed twice, weights are positive, and there are as many cubes as
/// the header declares.
///
/// # Errors
///
/// [`JobsError::NoManifest`] without one, [`JobsError::Manifest`]
/// naming what is wrong; [`JobsError::Layout`]
/// for a `MANIFEST` that is a link or a special file.
pub fn read_manifest(dir: &Path) -> Result<Manifest, JobsError> {
    // A FIFO would be waited on forever: only a regular file is read.
    layout::real_file(&dir.join(MANIFEST))?;
    let text = fs::read_to_string(dir.join(MANIFEST)).map_err(|_| JobsError::NoManifest {
        dir: dir.display().to_string(),
    })?;
    parse_manifest(&text, dir)
}

/// The manifest `text` of the split in `dir` (which errors name), checked
/// as [`read_manifest`] checks it.
///
/// # Errors
///
/// [`JobsError::Manifest`] naming what is wrong.
pub fn parse_manifest(text: &str, dir: &Path) -> Result<Manifest, JobsError> {
    let bad = |problem: ManifestProblem| JobsError::Manifest {
        dir: dir.display().to_string(),
        problem,
    };
    let at = |i: usize, problem: LineProblem| {
        bad(ManifestProblem::Line {
            line: i + 1,
            problem,
        })
    };
    let mut split = None;
    let mut spec = None;
    let mut proofs = Proofs::Off;
    let mut proof_format = ProofFormat::LratText;
    let mut proof_compression = Compression::None;
    let mut budget = None;
    let mut declared = None;
    let mut entries: Vec<Entry> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        match fields.as_slice() {
            [] => {}
            ["#", "split", id] => split = Some((*id).to_string()),
            ["#", "cubes", n] => {
                declared = Some(
                    n.parse::<usize>()
                        .map_err(|_| at(i, LineProblem::Unknown(line.to_string())))?,
                );
            }
            ["#", "spec", words @ ..] => {
                spec = Some(
                    SplitSpec::parse(&words.join(" ")).map_err(|e| at(i, LineProblem::Spec(e)))?,
                );
            }
            ["#", "proofs", PROOFS] => proofs = Proofs::On,
            ["#", "proof-format", name] => {
                proof_format = ProofFormat::from_name(name)
                    .ok_or_else(|| at(i, LineProblem::ProofFormat((*name).to_string())))?;
            }
            ["#", "proof-compression", name] => {
                proof_compression = Compression::from_name(name)
                    .ok_or_else(|| at(i, LineProblem::Compression((*name).to_string())))?;
            }
            ["#", "budget", words @ ..] => {
                budget = Some(Budget::parse(words).map_err(|e| at(i, e))?);
            }
            [first, ..] if first.starts_with('#') => {}
            [id, weight, description, file, rest @ ..] => {
                let entry = cube_entry([id, weight, description, file], rest, line, &entries)
                    .map_err(|e| at(i, e))?;
                entries.push(entry);
            }
            _ => return Err(at(i, LineProblem::Unknown(line.to_string()))),
        }
    }
    let split = split.ok_or_else(|| bad(ManifestProblem::NoSplitLine))?;
    let declared = declared.ok_or_else(|| bad(ManifestProblem::NoCubesLine))?;
    if entries.len() != declared || declared == 0 {
        return Err(bad(ManifestProblem::Declared {
            declared,
            listed: entries.len(),
        }));
    }
    if budget.is_some() && spec.is_none_or(|s| s.family != boardsat_encode::Family::Domination) {
        return Err(bad(ManifestProblem::BudgetWithoutSpec));
    }
    Ok(Manifest {
        split,
        spec,
        proofs,
        proof_format,
        proof_compression,
        budget,
        entries,
    })
}

/// One cube line of a manifest (`id weight description file [index]
/// digest`), checked against the cubes listed before it; the error says
/// what is wrong with the line.
fn cube_entry(
    [id, weight, description, file]: [&str; 4],
    rest: &[&str],
    line: &str,
    entries: &[Entry],
) -> Result<Entry, LineProblem> {
    let (index, digest) = match rest {
        [digest] => (None, *digest),
        [index, digest] => (
            Some(
                index
                    .parse::<usize>()
                    .map_err(|_| LineProblem::CubeIndex((*index).to_string()))?,
            ),
            *digest,
        ),
        _ => return Err(LineProblem::Unknown(line.to_string())),
    };
    let weight = weight
        .parse::<u64>()
        .ok()
        .filter(|&w| w > 0)
        .ok_or_else(|| LineProblem::Weight(weight.to_string()))?;
    if entries.iter().any(|e| e.id == id) {
        return Err(LineProblem::Twice(id.to_string()));
    }
    if layout::parent_of(id).is_some() {
        return Err(LineProblem::PieceId(id.to_string()));
    }
    // One cube under two ids would be counted twice.
    if let Some(same) = entries.iter().find(|e| e.file == file && e.index == index) {
        let what = match index {
            Some(index) => format!("cube {index} of {file}"),
            None => file.to_string(),
        };
        return Err(LineProblem::SameCube {
            id: id.to_string(),
            what,
            other: same.id.clone(),
        });
    }
    Ok(Entry {
        id: id.to_string(),
        weight,
        description: description.to_string(),
        file: file.to_string(),
        index,
        digest: digest.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_round_trip_and_bad_ones_are_refused() {
        for budget in [
            Budget {
                time: Duration::from_millis(1),
                max_depth: None,
            },
            Budget {
                time: Duration::from_secs(600),
                max_depth: Some(4),
            },
        ] {
            let line = budget.line();
            let words: Vec<&str> = line.split_whitespace().skip(2).collect();
            assert_eq!(Budget::parse(&words).ok(), Some(budget), "{line}");
        }
        // Below a nanosecond, a budget is still a budget (fuzzing found
        // 4e-101 read as zero, written back as `# budget 0`).
        for tiny in ["4e-101", "1e-300", "0.0000000001"] {
            let budget = Budget::parse(&[tiny]).unwrap();
            assert!(!budget.time.is_zero(), "{tiny}");
            let line = budget.line();
            let words: Vec<&str> = line.split_whitespace().skip(2).collect();
            assert_eq!(Budget::parse(&words).ok(), Some(budget), "{line}");
        }
        for bad in [
            &["0"][..],
            &["-1"],
            &["nan"],
            &["inf"],
            &["x"],
            &[],
            &["5", "max-depth"],
            &["5", "max-depth", "-1"],
            &["5", "depth", "3"],
        ] {
            assert!(Budget::parse(bad).is_err(), "{bad:?}");
        }
    }
}
