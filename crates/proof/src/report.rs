//! The JSON report of `boardsat verify`, and its lines.

use serde::Serialize;

use crate::verify::Verification;

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

/// `verify`: the run's whole result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ResultReport {
    /// Whether it follows from what was checked.
    pub verified: bool,
    /// Its sentence, derived by `verify` (when verified).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sentence: Option<String>,
    /// What is missing (when not).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// `verify`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VerifyReport {
    /// `verify`.
    pub command: &'static str,
    /// Whether the whole result is proven: every claim verified, and the
    /// result derived from them.
    pub verified: bool,
    /// One verdict per claim (then the splits and the cover).
    pub claims: Vec<VerdictReport>,
    /// The whole result.
    pub result: ResultReport,
}

impl VerifyReport {
    /// The report of `verification`.
    #[must_use]
    pub fn new(verification: &Verification) -> Self {
        let (sentence, reason) = match &verification.result {
            Ok(sentence) => (Some(sentence.clone()), None),
            Err(why) => (None, Some(why.to_string())),
        };
        VerifyReport {
            command: "verify",
            verified: verification.verified(),
            claims: verification
                .verdicts
                .iter()
                .map(|v| VerdictReport {
                    name: v.name.clone(),
                    verified: v.outcome.verified(),
                    reason: v.outcome.to_string(),
                })
                .collect(),
            result: ResultReport {
                verified: verification.result.is_ok(),
                sentence,
                reason,
            },
        }
    }

    /// One line per claim (`NAME: verified (…)` or `NAME: NOT verified:
    /// …`), then the result: `verified: SENTENCE`, or `NOT verified:
    /// what is missing`.
    #[must_use]
    pub fn lines(&self) -> Vec<String> {
        let mut lines: Vec<String> = self
            .claims
            .iter()
            .map(|c| match c.verified {
                true => format!("{}: verified ({})", c.name, c.reason),
                false => format!("{}: NOT verified: {}", c.name, c.reason),
            })
            .collect();
        lines.push(match (&self.result.sentence, &self.result.reason) {
            (Some(sentence), _) if self.verified => format!("verified: {sentence}"),
            (_, Some(why)) => format!("NOT verified: {why}"),
            _ => "NOT verified: a claim did not verify".to_string(),
        });
        lines
    }
}
