//! Why standings cannot be computed, for every kind of entrant.

use crate::i18n::{tf, Lang};
use crate::rules::prize_pool::PrizeError;
use crate::rules::score_sheet::Violation;
use crate::tournament_file::FileProblem;
use std::fmt;

/// A sheet that breaks a rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrokenSheet {
    pub round: u32,
    pub table: u32,
    /// The entrants of the NS and EW lines (pairs; for teams, the teams).
    pub ns: u32,
    pub ew: u32,
    /// The partners of `ns` and `ew` (individual tournaments, where `ns`
    /// and `ew` are the first player of each line).
    pub partners: Option<[u32; 2]>,
    /// Every violation of the sheet (a `DECLARED_TOTAL_MISMATCH` among them
    /// is listed too).
    pub violations: Vec<Violation>,
    /// Catalog key naming the place (the kind's [`super::Kind::SHEET_PLACE`]).
    pub(crate) place_key: &'static str,
}

impl BrokenSheet {
    /// One line per violation: `Round 2, table 4 (NS 3, EW 8): …`, or
    /// `(NS team 3, EW team 8)` for teams.
    pub fn lines(&self, lang: Lang) -> Vec<String> {
        let [ns2, ew2] = self.partners.unwrap_or_default();
        let place = tf(
            lang,
            self.place_key,
            &[
                ("round", &self.round),
                ("table", &self.table),
                ("ns", &self.ns),
                ("ew", &self.ew),
                ("ns2", &ns2),
                ("ew2", &ew2),
            ],
        );
        self.violations
            .iter()
            .map(|v| format!("{place}: {} [{}]", v.message(lang), v.code.code()))
            .collect()
    }
}

/// Why standings cannot be computed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StandingsError {
    /// The file is not valid (CLI exit code 2).
    Invalid(Vec<FileProblem>),
    /// One or more sheets break a rule (CLI exit code 1).
    SheetRuleBroken(Vec<BrokenSheet>),
    /// The prizes cannot be computed (cannot happen for a validated file;
    /// CLI exit code 2).
    Prize(PrizeError),
}

impl StandingsError {
    /// CLI exit code: 1 for a broken sheet, 2 otherwise.
    pub fn exit_code(&self) -> i32 {
        match self {
            StandingsError::SheetRuleBroken(_) => 1,
            StandingsError::Invalid(_) | StandingsError::Prize(_) => 2,
        }
    }

    /// Stable code: `invalid_file`, `sheet_rule_broken`, `prize_error`.
    pub fn code(&self) -> &'static str {
        match self {
            StandingsError::Invalid(_) => "invalid_file",
            StandingsError::SheetRuleBroken(_) => "sheet_rule_broken",
            StandingsError::Prize(_) => "prize_error",
        }
    }

    /// The error in words: a heading, then one line per problem.
    pub fn message(&self, lang: Lang) -> String {
        let (key, count, lines): (_, _, Vec<String>) = match self {
            StandingsError::Invalid(problems) => (
                "file.cli.invalid_file",
                problems.len(),
                problems.iter().map(|p| p.line(lang)).collect(),
            ),
            StandingsError::SheetRuleBroken(sheets) => (
                "file.cli.sheet_rule_broken",
                sheets.len(),
                sheets.iter().flat_map(|s| s.lines(lang)).collect(),
            ),
            StandingsError::Prize(e) => {
                return tf(lang, "file.cli.prize_error", &[("detail", &e.to_string())])
            }
        };
        let mut out = tf(lang, key, &[("count", &count)]);
        for line in lines {
            out.push_str("\n  ");
            out.push_str(&line);
        }
        out
    }
}

impl fmt::Display for StandingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}

impl std::error::Error for StandingsError {}
