//! The JSON report of `boardsat verify`.

use serde::Serialize;

use crate::verify::Verdict;

/// `verify`: one claim.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VerdictReport {
    /// The claim (or the formula file).
    pub name: String,
    /// Whether it verified.
    pub verified: bool,
    /// What was checked, or why it failed.
    pub reason: String,
}

/// `verify`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VerifyReport {
    /// `verify`.
    pub command: &'static str,
    /// Whether every claim verified.
    pub verified: bool,
    /// One verdict per claim.
    pub claims: Vec<VerdictReport>,
}

impl VerifyReport {
    /// The report of `verdicts`.
    #[must_use]
    pub fn new(verdicts: &[Verdict]) -> Self {
        VerifyReport {
            command: "verify",
            verified: verdicts.iter().all(|v| v.outcome.verified()),
            claims: verdicts
                .iter()
                .map(|v| VerdictReport {
                    name: v.name.clone(),
                    verified: v.outcome.verified(),
                    reason: v.outcome.to_string(),
                })
                .collect(),
        }
    }

    /// One line per claim: `NAME: verified (…)` or `NAME: NOT verified: …`.
    #[must_use]
    pub fn lines(&self) -> Vec<String> {
        self.claims
            .iter()
            .map(|c| match c.verified {
                true => format!("{}: verified ({})", c.name, c.reason),
                false => format!("{}: NOT verified: {}", c.name, c.reason),
            })
            .collect()
    }
}
