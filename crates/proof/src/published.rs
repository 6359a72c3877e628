//! A published result (`docs/results/*.json`) checked without its proof:
//! every placement the file holds decoded and checked by the independent
//! checker, and their number, distinctness and orbits set against what the
//! file claims. Seconds, not hours: what it cannot check — that there are
//! no other placements, that no fewer pieces dominate — is what the proof
//! shows, which the file's command rebuilds and `boardsat verify` checks.
//!
//! | sequence | what the file claims | what is checked here |
//! |---|---|---|
//! | A075458 | γ(Q_n) = value | one placement of `value` queens that dominates the n×n board |
//! | A002564 | the minimum dominating sets number `value` | `value` distinct placements, all of one size, each dominating; their classes under the board's symmetries number `orbits` |
//!
//! A file that cannot be read, is not JSON, or names a sequence, piece or
//! problem this module has no check for is a [`PublishedError`] (bad
//! input); a placement that fails is a [`Checked`] that is not accepted,
//! with the reason.

use std::{collections::BTreeSet, path::Path};

use boardsat_encode::{
    check, symmetry::Symmetry, Board, Bound, Kind, Piece, Placement, Problem, Square,
};
use serde::Deserialize;

/// The fields of a result file this check reads (the file holds more:
/// times, sizes, the machine).
#[derive(Clone, Debug, Deserialize)]
pub struct Published {
    /// The OEIS sequence: `A075458` (γ(Q_n)) or `A002564` (the number of
    /// minimum dominating sets).
    pub sequence: String,
    /// The board's side.
    pub n: usize,
    /// The term: γ(Q_n), or the number of minimum dominating sets.
    pub value: u64,
    /// For a count, its classes under the board's symmetries.
    #[serde(default)]
    pub orbits: Option<u64>,
    /// The piece (`queen`).
    pub piece: String,
    /// The problem (`domination`).
    pub problem: String,
    /// The placements, each as `[row, col]` pairs from 0.
    pub placements: Vec<Vec<[usize; 2]>>,
    /// The command that made the run (and rebuilds its proof).
    #[serde(default)]
    pub command: Option<String>,
    /// The commit of the binary that ran it.
    #[serde(default)]
    pub commit: Option<String>,
}

/// Why a result file cannot be checked: bad input.
#[derive(Debug, thiserror::Error)]
pub enum PublishedError {
    /// The file cannot be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not a result file.
    #[error("{path} is not a result file: {source}")]
    Json {
        /// The file.
        path: String,
        /// Why.
        source: serde_json::Error,
    },
    /// The file claims something this check does not know.
    #[error("{path}: no check for {what}")]
    Unknown {
        /// The file.
        path: String,
        /// What is not known (`sequence A000001`).
        what: String,
    },
}

/// What the check found (and `boardsat check --json`'s object).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Checked {
    /// Whether every placement was accepted and the numbers agree.
    pub accepted: bool,
    /// The sentence: what was accepted, or the first reason it was not.
    #[serde(rename = "result")]
    pub sentence: String,
    /// What the proof, not this check, establishes.
    pub rests_on_proof: String,
}

/// Reads and checks the result file at `path`.
///
/// # Errors
///
/// [`PublishedError`] when the file cannot be read, is not a result file,
/// or claims what no check here knows.
pub fn check_file(path: &Path) -> Result<Checked, PublishedError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| PublishedError::Read {
        path: shown.clone(),
        source,
    })?;
    let published: Published =
        serde_json::from_str(&text).map_err(|source| PublishedError::Json {
            path: shown.clone(),
            source,
        })?;
    published.check(&shown)
}

impl Published {
    /// Checks the placements against the claim; `name` names the file in
    /// errors.
    ///
    /// # Errors
    ///
    /// [`PublishedError::Unknown`] for a sequence, piece or problem this
    /// check does not know.
    pub fn check(&self, name: &str) -> Result<Checked, PublishedError> {
        let unknown = |what: String| PublishedError::Unknown {
            path: name.to_string(),
            what,
        };
        let piece = Piece::from_name(&self.piece)
            .ok_or_else(|| unknown(format!("the piece '{}'", self.piece)))?;
        let kind = Kind::from_name(&self.problem)
            .filter(|&k| k == Kind::Domination)
            .ok_or_else(|| unknown(format!("the problem '{}'", self.problem)))?;
        let board = Board::square(self.n)
            .map_err(|e| unknown(format!("a board of side {}: {e}", self.n)))?;
        let claim = Claim {
            published: self,
            problem: Problem::new(board, piece, kind),
            board,
            piece,
            placements: self.placements(),
        };
        match self.sequence.as_str() {
            "A075458" => Ok(claim.minimum()),
            "A002564" => Ok(claim.count()),
            other => Err(unknown(format!("sequence {other}"))),
        }
    }

    /// The placements as the file lists them.
    fn placements(&self) -> Vec<Placement> {
        self.placements
            .iter()
            .map(|squares| {
                Placement::new(
                    squares
                        .iter()
                        .map(|&[row, col]| Square { row, col })
                        .collect(),
                )
            })
            .collect()
    }
}

/// A result file's claim, decoded: what [`Published::check`] checks.
struct Claim<'a> {
    published: &'a Published,
    problem: Problem,
    board: Board,
    piece: Piece,
    placements: Vec<Placement>,
}

impl Claim<'_> {
    /// The term, `A075458(23)`.
    fn term(&self) -> String {
        format!("{}({})", self.published.sequence, self.published.n)
    }

    /// `the 23x23 board`.
    fn board_name(&self) -> String {
        let n = self.published.n;
        format!("the {n}x{n} board")
    }

    /// `k` pieces in words (`1 queen`, `8 queens`).
    fn pieces(&self, k: usize) -> String {
        let name = self.piece.to_string();
        if k == 1 {
            format!("1 {name}")
        } else {
            format!("{k} {name}s")
        }
    }

    /// The claim rejected, for `why`.
    fn rejected(&self, why: String) -> Checked {
        Checked {
            accepted: false,
            sentence: format!(
                "NOT accepted: {} = {}: {why}",
                self.term(),
                self.published.value
            ),
            rests_on_proof: String::new(),
        }
    }

    /// A075458: one placement of `value` pieces that dominates the board.
    fn minimum(&self) -> Checked {
        let [placement] = self.placements.as_slice() else {
            return self.rejected(format!(
                "{} placements where one is published",
                self.placements.len()
            ));
        };
        let value = usize::try_from(self.published.value).unwrap_or(usize::MAX);
        if let Err(v) = check(&self.problem, Some(Bound::Exactly(value)), placement) {
            return self.rejected(format!("the placement {placement}: {v}"));
        }
        Checked {
            accepted: true,
            sentence: format!(
                "accepted: {} = {}: the placement of {} dominates {} (the independent checker)",
                self.term(),
                self.published.value,
                self.pieces(value),
                self.board_name()
            ),
            rests_on_proof: format!(
                "that {} cannot dominate it",
                self.pieces(value.saturating_sub(1))
            ),
        }
    }

    /// A002564: `value` distinct placements of one size, each dominating,
    /// in `orbits` classes under the board's symmetries.
    fn count(&self) -> Checked {
        let placements = &self.placements;
        let distinct: BTreeSet<&Placement> = placements.iter().collect();
        if distinct.len() != placements.len() {
            return self.rejected("a placement is listed twice".to_string());
        }
        if placements.len() as u64 != self.published.value {
            return self.rejected(format!("{} placements are published", placements.len()));
        }
        let size = placements.first().map_or(0, Placement::len);
        for p in placements {
            if let Err(v) = check(&self.problem, Some(Bound::Exactly(size)), p) {
                return self.rejected(format!("the placement {p}: {v}"));
            }
        }
        let found = self.orbits();
        if let Some(orbits) = self.published.orbits.filter(|&o| o != found) {
            return self.rejected(format!(
                "the placements fall into {found} classes under the board's symmetries, not {orbits}"
            ));
        }
        Checked {
            accepted: true,
            sentence: format!(
                "accepted: {} = {}: {} distinct placements of {} dominate {}, {found} up to symmetry (the independent checker)",
                self.term(),
                self.published.value,
                placements.len(),
                self.pieces(size),
                self.board_name()
            ),
            rests_on_proof: format!(
                "that there are no others, and that {} cannot dominate it",
                self.pieces(size.saturating_sub(1))
            ),
        }
    }

    /// The placements' classes under the board's symmetries.
    fn orbits(&self) -> u64 {
        let symmetries = Symmetry::of(&self.board);
        let orbits: BTreeSet<Placement> = self
            .placements
            .iter()
            .filter_map(|p| {
                symmetries
                    .iter()
                    .map(|s| s.apply_placement(&self.board, p))
                    .min()
            })
            .collect();
        orbits.len() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn queens5() -> Published {
        // γ(Q_5) = 3.
        Published {
            sequence: "A075458".to_string(),
            n: 5,
            value: 3,
            orbits: None,
            piece: "queen".to_string(),
            problem: "domination".to_string(),
            placements: vec![vec![[0, 0], [1, 3], [3, 2]]],
            command: None,
            commit: None,
        }
    }

    #[test]
    fn a_dominating_placement_is_accepted_and_a_broken_one_is_not() {
        let good = queens5().check("q5").unwrap();
        assert!(good.accepted, "{}", good.sentence);
        let mut moved = queens5();
        moved.placements[0][2] = [4, 4];
        let bad = moved.check("q5").unwrap();
        assert!(!bad.accepted && bad.sentence.starts_with("NOT accepted"));
        let mut fewer = queens5();
        fewer.value = 2;
        assert!(!fewer.check("q5").unwrap().accepted);
        let mut other = queens5();
        other.sequence = "A000001".to_string();
        assert!(matches!(
            other.check("q5"),
            Err(PublishedError::Unknown { .. })
        ));
    }
}
