//! Movement engine: who sits where, round by round. Pure Rust: no web,
//! database or template code here.
//!
//! - [`draw`]: the random first-round draw (seeded, reproducible).
//! - [`mitchell`]: the Mitchell movement (fixed line stays, moving line
//!   advances), with plan validation, withdrawn and late pairs.
//! - [`danish`]: the Danish movement (pairs matched by standings), pure or
//!   modified.
//! - [`teams`]: team tournaments: round robin (in groups or not), Danish
//!   for teams, line-ups.
//! - [`cli`]: the JSON printed by `burraco-td movement mitchell`.
//!
//! Vocabulary (RULES.md §7): NS is the fixed line of a Mitchell, EW the moving
//! line. A seat holding `None` is the phantom pair (coppia fantasma): the real
//! pair facing it rests that round (riposo) and gets the bye award. The
//! decisions taken where the rules are silent are listed in each module's
//! documentation.

pub mod cli;
pub mod clubs;
pub mod danish;
pub mod draw;
pub mod groups;
pub mod mitchell;
pub mod teams;

#[cfg(test)]
mod proptests;

use serde::{Deserialize, Serialize};
use std::fmt;

pub use cli::{mitchell_json, MitchellJson, MitchellJsonRound, MitchellJsonTable};
pub use danish::{danish_round, ensure_previous_round_complete, entries_from_history, DanishEntry};
pub use draw::{ensure_redraw_allowed, first_round_draw, new_seed, seat_of, tables_for, Layout};
pub use mitchell::{max_rounds, round_seating, schedule, MitchellPlan, RosterChange};
pub use teams::{
    check_lineup, default_lineup, draw_order, drop_withdrawn, group_name, lineup_in, match_tables,
    round_robin, round_robin_groups, round_robin_rounds, seat_match, split_into_groups,
    team_danish_round, team_entries_from_history, Group, LineUp, TeamDanishEntry, TeamDanishRound,
    TeamMatch, TeamMovementError, TeamNo, TeamRoundPlan,
};

/// A pair's number in the tournament (1, 2, …).
pub type PairNo = u32;
/// A table's number (1, 2, …).
pub type TableNo = u32;

/// Fewest pairs a draw accepts: 3 pairs make 2 tables, one with the phantom.
pub const MIN_PAIRS: usize = 3;
/// Most pairs the engine accepts (the largest events have 600; this bound
/// only keeps a mistyped command line from allocating without limit).
pub const MAX_PAIRS: usize = 2000;
/// Most rounds in a plan (same reason as [`MAX_PAIRS`]).
pub const MAX_ROUNDS: u32 = 1000;

/// A line at a table: NS (the fixed line in a Mitchell) or EW (the moving
/// line). The same type the score sheet uses.
pub use crate::rules::Line;

/// One table in one round. `None` is the phantom pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    pub table: TableNo,
    /// NS: the fixed line in a Mitchell.
    pub ns: Option<PairNo>,
    /// EW: the moving line in a Mitchell.
    pub ew: Option<PairNo>,
}

impl Seat {
    /// Both lines are real pairs: a score sheet is expected.
    pub fn is_played(&self) -> bool {
        self.ns.is_some() && self.ew.is_some()
    }

    /// The real pair facing the phantom, which rests.
    pub fn resting(&self) -> Option<PairNo> {
        match (self.ns, self.ew) {
            (Some(p), None) | (None, Some(p)) => Some(p),
            _ => None,
        }
    }

    /// The line `pair` holds at this table, if it sits here.
    pub fn line_of(&self, pair: PairNo) -> Option<Line> {
        if self.ns == Some(pair) {
            Some(Line::Ns)
        } else if self.ew == Some(pair) {
            Some(Line::Ew)
        } else {
            None
        }
    }
}

/// The seating of one round.
///
/// `tables` lists every table of the movement in table order, including a
/// table where a real pair faces the phantom (that pair is also in `byes`) or
/// where two phantoms meet (both seats `None`: the table is empty).
/// `byes` lists the resting pairs, in table order (Danish: at most one).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundSeating {
    pub round: u32,
    pub tables: Vec<Seat>,
    pub byes: Vec<PairNo>,
}

impl RoundSeating {
    /// The tables where two real pairs play.
    pub fn played(&self) -> impl Iterator<Item = &Seat> {
        self.tables.iter().filter(|s| s.is_played())
    }

    /// The table `pair` sits at (a resting pair sits at its phantom's table
    /// in a Mitchell; in a Danish round it has none).
    pub fn table_of(&self, pair: PairNo) -> Option<TableNo> {
        self.tables
            .iter()
            .find(|s| s.line_of(pair).is_some())
            .map(|s| s.table)
    }

    /// The real opponent of `pair` this round (`None` if it rests or is absent).
    pub fn opponent(&self, pair: PairNo) -> Option<PairNo> {
        self.tables.iter().find_map(|s| match (s.ns, s.ew) {
            (Some(a), Some(b)) if a == pair => Some(b),
            (Some(a), Some(b)) if b == pair => Some(a),
            _ => None,
        })
    }

    /// The line `pair` plays this round (`None` if it rests or is absent).
    pub fn line(&self, pair: PairNo) -> Option<Line> {
        self.played().find_map(|s| s.line_of(pair))
    }

    /// Whether `pair` rests this round.
    pub fn rests(&self, pair: PairNo) -> bool {
        self.byes.contains(&pair)
    }
}

/// Why the engine refuses a request. [`MovementError::code`] is stable (it
/// names the catalog key `movement.error.<CODE>`); `Display` is the plain
/// English reason, identical to the English catalog text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MovementError {
    #[error("{pairs} pairs are too few: at least {min} are needed")]
    TooFewPairs { pairs: usize, min: usize },
    #[error("{pairs} pairs are too many: at most {max} are allowed")]
    TooManyPairs { pairs: usize, max: usize },
    #[error("pair number 0 is not valid: pairs are numbered from 1")]
    InvalidPairNumber,
    #[error("pair {pair} is listed twice")]
    DuplicatePair { pair: PairNo },
    #[error("round {round} is not valid: rounds are numbered from 1")]
    InvalidRound { round: u32 },
    #[error("a Mitchell needs at least 2 tables, not {tables}")]
    TooFewTables { tables: u32 },
    #[error("the number of rounds must be between 1 and {max}, not {rounds}")]
    RoundsOutOfRange { rounds: u32, max: u32 },
    #[error("with {tables} tables the advance must be between 1 and {max} tables, not {advance}")]
    AdvanceOutOfRange { advance: u32, tables: u32, max: u32 },
    #[error(
        "too many rounds for the tables: with {tables} tables every moving pair has met every fixed pair after {tables} rounds, so {rounds} rounds would make pairs meet twice"
    )]
    TooManyRoundsForTables { rounds: u32, tables: u32 },
    #[error(
        "the advance of {advance} shares the factor {factor} with the {tables} tables: the moving pairs would meet the same fixed pairs again after {max_rounds} rounds, so {rounds} rounds would make pairs meet twice; choose an advance with no common factor with {tables} (1 always works)"
    )]
    AdvanceSharesFactor {
        advance: u32,
        tables: u32,
        factor: u32,
        max_rounds: u32,
        rounds: u32,
    },
    #[error("the plan is for {plan} tables but the draw has {layout} tables")]
    TablesMismatch { plan: u32, layout: u32 },
    #[error("the draw is damaged: {detail}")]
    InvalidLayout { detail: String },
    #[error("round {round} is outside the plan, which has rounds 1 to {rounds}")]
    RoundOutOfPlan { round: u32, rounds: u32 },
    #[error("pair {pair} is not playing in this movement")]
    UnknownPair { pair: PairNo },
    #[error("pair {pair} is already playing in this movement")]
    AlreadySeated { pair: PairNo },
    #[error(
        "there is no free place for the late pair {pair}: a late pair can take the place of the phantom or of a withdrawn pair; with an even number of pairs it can join at a Danish round"
    )]
    NoFreeSeat { pair: PairNo },
    #[error(
        "pair {pair} has pair {opponent} as previous opponent, but pair {opponent} does not have pair {pair}"
    )]
    InconsistentOpponents { pair: PairNo, opponent: PairNo },
    #[error(
        "no pairing keeps every pair away from its previous opponent: generate this round as pure Danish"
    )]
    NoLegalPairing,
    #[error(
        "the Danish round can be generated only when every score of the previous round is in: tables {tables} have none yet"
    )]
    PreviousRoundIncomplete { tables: String },
    #[error("the draw can no longer be repeated: a score has already been entered")]
    RedrawAfterScores,
    #[error("the operating system gave no random seed")]
    SeedUnavailable,
}

impl MovementError {
    /// The stable code (upper snake case, like the rules engine's codes).
    pub fn code(&self) -> &'static str {
        match self {
            MovementError::TooFewPairs { .. } => "TOO_FEW_PAIRS",
            MovementError::TooManyPairs { .. } => "TOO_MANY_PAIRS",
            MovementError::InvalidPairNumber => "INVALID_PAIR_NUMBER",
            MovementError::DuplicatePair { .. } => "DUPLICATE_PAIR",
            MovementError::InvalidRound { .. } => "INVALID_ROUND",
            MovementError::TooFewTables { .. } => "TOO_FEW_TABLES",
            MovementError::RoundsOutOfRange { .. } => "ROUNDS_OUT_OF_RANGE",
            MovementError::AdvanceOutOfRange { .. } => "ADVANCE_OUT_OF_RANGE",
            MovementError::TooManyRoundsForTables { .. } => "TOO_MANY_ROUNDS_FOR_TABLES",
            MovementError::AdvanceSharesFactor { .. } => "ADVANCE_SHARES_FACTOR",
            MovementError::TablesMismatch { .. } => "TABLES_MISMATCH",
            MovementError::InvalidLayout { .. } => "INVALID_LAYOUT",
            MovementError::RoundOutOfPlan { .. } => "ROUND_OUT_OF_PLAN",
            MovementError::UnknownPair { .. } => "UNKNOWN_PAIR",
            MovementError::AlreadySeated { .. } => "ALREADY_SEATED",
            MovementError::NoFreeSeat { .. } => "NO_FREE_SEAT",
            MovementError::InconsistentOpponents { .. } => "INCONSISTENT_OPPONENTS",
            MovementError::NoLegalPairing => "NO_LEGAL_PAIRING",
            MovementError::PreviousRoundIncomplete { .. } => "PREVIOUS_ROUND_INCOMPLETE",
            MovementError::RedrawAfterScores => "REDRAW_AFTER_SCORES",
            MovementError::SeedUnavailable => "SEED_UNAVAILABLE",
        }
    }

    /// The catalog key of this error's message.
    pub fn catalog_key(&self) -> String {
        format!("movement.error.{}", self.code())
    }

    /// The values of the message's `{name}` placeholders.
    pub fn params(&self) -> Vec<(&'static str, String)> {
        use MovementError as E;
        match self {
            E::TooFewPairs { pairs, min } => {
                vec![("pairs", pairs.to_string()), ("min", min.to_string())]
            }
            E::TooManyPairs { pairs, max } => {
                vec![("pairs", pairs.to_string()), ("max", max.to_string())]
            }
            E::InvalidPairNumber
            | E::NoLegalPairing
            | E::RedrawAfterScores
            | E::SeedUnavailable => {
                vec![]
            }
            E::DuplicatePair { pair }
            | E::UnknownPair { pair }
            | E::AlreadySeated { pair }
            | E::NoFreeSeat { pair } => vec![("pair", pair.to_string())],
            E::InvalidRound { round } => vec![("round", round.to_string())],
            E::TooFewTables { tables } => vec![("tables", tables.to_string())],
            E::RoundsOutOfRange { rounds, max } => {
                vec![("rounds", rounds.to_string()), ("max", max.to_string())]
            }
            E::AdvanceOutOfRange {
                advance,
                tables,
                max,
            } => vec![
                ("advance", advance.to_string()),
                ("tables", tables.to_string()),
                ("max", max.to_string()),
            ],
            E::TooManyRoundsForTables { rounds, tables } => {
                vec![
                    ("rounds", rounds.to_string()),
                    ("tables", tables.to_string()),
                ]
            }
            E::AdvanceSharesFactor {
                advance,
                tables,
                factor,
                max_rounds,
                rounds,
            } => vec![
                ("advance", advance.to_string()),
                ("tables", tables.to_string()),
                ("factor", factor.to_string()),
                ("max_rounds", max_rounds.to_string()),
                ("rounds", rounds.to_string()),
            ],
            E::TablesMismatch { plan, layout } => {
                vec![("plan", plan.to_string()), ("layout", layout.to_string())]
            }
            E::InvalidLayout { detail } => vec![("detail", detail.clone())],
            E::RoundOutOfPlan { round, rounds } => {
                vec![("round", round.to_string()), ("rounds", rounds.to_string())]
            }
            E::InconsistentOpponents { pair, opponent } => {
                vec![
                    ("pair", pair.to_string()),
                    ("opponent", opponent.to_string()),
                ]
            }
            E::PreviousRoundIncomplete { tables } => vec![("tables", tables.clone())],
        }
    }

    /// The message in `lang`, from the catalog (`movement.*.json`).
    pub fn message(&self, lang: crate::i18n::Lang) -> String {
        let params = self.params();
        let args: Vec<(&str, &dyn fmt::Display)> = params
            .iter()
            .map(|(k, v)| (*k, v as &dyn fmt::Display))
            .collect();
        crate::i18n::tf(lang, &self.catalog_key(), &args)
    }
}

/// Greatest common divisor.
pub(crate) fn gcd(mut a: u32, mut b: u32) -> u32 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

/// Checks a list of pair numbers: none is 0, none repeats.
pub(crate) fn check_pair_numbers(pairs: &[PairNo]) -> Result<(), MovementError> {
    let mut seen = std::collections::HashSet::with_capacity(pairs.len());
    for &p in pairs {
        if p == 0 {
            return Err(MovementError::InvalidPairNumber);
        }
        if !seen.insert(p) {
            return Err(MovementError::DuplicatePair { pair: p });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::{try_catalog, Lang};

    fn one_of_each() -> Vec<MovementError> {
        use MovementError as E;
        vec![
            E::TooFewPairs { pairs: 2, min: 3 },
            E::TooManyPairs {
                pairs: 2001,
                max: 2000,
            },
            E::InvalidPairNumber,
            E::DuplicatePair { pair: 7 },
            E::InvalidRound { round: 0 },
            E::TooFewTables { tables: 1 },
            E::RoundsOutOfRange {
                rounds: 0,
                max: 1000,
            },
            E::AdvanceOutOfRange {
                advance: 9,
                tables: 9,
                max: 8,
            },
            E::TooManyRoundsForTables {
                rounds: 10,
                tables: 9,
            },
            E::AdvanceSharesFactor {
                advance: 3,
                tables: 9,
                factor: 3,
                max_rounds: 3,
                rounds: 4,
            },
            E::TablesMismatch { plan: 8, layout: 9 },
            E::InvalidLayout { detail: "x".into() },
            E::RoundOutOfPlan {
                round: 5,
                rounds: 4,
            },
            E::UnknownPair { pair: 3 },
            E::AlreadySeated { pair: 3 },
            E::NoFreeSeat { pair: 3 },
            E::InconsistentOpponents {
                pair: 1,
                opponent: 2,
            },
            E::NoLegalPairing,
            E::PreviousRoundIncomplete {
                tables: "3, 7".into(),
            },
            E::RedrawAfterScores,
            E::SeedUnavailable,
        ]
    }

    #[test]
    fn every_error_has_a_catalog_entry_and_english_matches_display() {
        let it = try_catalog(Lang::It).expect("Italian catalog loads");
        let en = try_catalog(Lang::En).expect("English catalog loads");
        let errors = one_of_each();
        let mut codes: Vec<&str> = errors.iter().map(|e| e.code()).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), errors.len(), "codes are distinct");
        for e in &errors {
            let key = e.catalog_key();
            assert!(it.get(&key).is_some(), "Italian catalog lacks {key}");
            assert!(en.get(&key).is_some(), "English catalog lacks {key}");
            assert_eq!(e.message(Lang::En), e.to_string(), "English text of {key}");
            let italian = e.message(Lang::It);
            assert!(!italian.contains('{'), "unfilled placeholder in {italian}");
        }
        let movement_keys = it
            .keys()
            .filter(|k| k.starts_with("movement.error."))
            .count();
        assert_eq!(movement_keys, errors.len(), "no stale movement keys");
    }

    #[test]
    fn italian_message_is_filled() {
        let e = MovementError::TooManyRoundsForTables {
            rounds: 10,
            tables: 9,
        };
        let m = e.message(Lang::It);
        assert!(m.contains("10") && m.contains('9'), "{m}");
    }

    #[test]
    fn line_helpers() {
        assert_eq!(Line::Ns.other(), Line::Ew);
        assert_eq!(Line::Ew.other(), Line::Ns);
        assert_eq!(serde_json::to_string(&Line::Ns).unwrap(), "\"ns\"");
        assert_eq!(gcd(12, 18), 6);
        assert_eq!(gcd(7, 0), 7);
    }
}
