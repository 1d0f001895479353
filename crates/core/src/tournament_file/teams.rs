//! The serde types of a team tournament (`"kind": "teams"`, FORMAT.md "Team
//! tournaments in the same file", RULES.md §12).
//!
//! A separate type from [`TournamentFile`](super::TournamentFile): the pairs
//! type, its JSON and its callers stay as they are. The pieces are the pairs
//! file's own: [`Player`], [`SheetFile`], [`Adjusted`], [`PayoutTierFile`],
//! [`Status`], [`PenaltyKind`], money as decimals, the `bye` and `HH:MM`
//! encodings. Field order is the export order; optional fields are written
//! only when present, so export → import → export gives the same text.
//!
//! Decisions where FORMAT.md is silent:
//! - `team_scoring` is always written (absent on import means `tables`);
//!   `team_bye_vp` only when the file gave it (absent: 2 × `bye_vp` with
//!   `tables`, `bye_vp` with `scale`, see `rules::teams`).
//! - A team has a `name` (required, not empty), 4–6 `players` and the same
//!   `checked_in`, `withdrawn_from_round` and `no_show` as a pair.
//! - A penalty names its `team` and, for `mp`, the `table` whose MP it
//!   reduces (required); a `warning` or `vp` may name a table or not.
//! - `movements` (the planned movement of each round) and a round's
//!   `movement` take `round_robin` or `danish`.

use super::types::{
    bye_serde, default_bye_vp, default_profile, hhmm, is_false, Adjusted, FormatTag,
    PayoutTierFile, PenaltyKind, Player, SheetFile, Status,
};
use chrono::{DateTime, NaiveDate, NaiveTime, Utc};
use rust_decimal::Decimal;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// What a tournament file holds: pairs (absent `kind`) or teams.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FileKind {
    #[default]
    Pairs,
    Teams,
}

impl FileKind {
    /// `pairs` or `teams`.
    pub fn code(self) -> &'static str {
        match self {
            FileKind::Pairs => "pairs",
            FileKind::Teams => "teams",
        }
    }
}

impl TryFrom<String> for FileKind {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        match s.as_str() {
            "pairs" => Ok(FileKind::Pairs),
            "teams" => Ok(FileKind::Teams),
            _ => Err(format!("FileKind: unknown value {s:?}")),
        }
    }
}

impl fmt::Display for FileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// The `kind` tag of a team file: always `"teams"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TeamsTag;

impl Serialize for TeamsTag {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(FileKind::Teams.code())
    }
}

impl<'de> Deserialize<'de> for TeamsTag {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<TeamsTag, D::Error> {
        match FileKind::deserialize(d)? {
            FileKind::Teams => Ok(TeamsTag),
            other => Err(serde::de::Error::custom(format_args!(
                "kind `{other}` is not a team tournament, expected `teams`"
            ))),
        }
    }
}

/// How a team round was made (RULES.md §12).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TeamMovementKind {
    RoundRobin,
    Danish,
}

/// `team_scoring` as written: `{"method": "tables"}` or `{"method":
/// "scale", "scale": [10 bounds]}` (the bounds are checked by validation).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(tag = "method", rename_all = "snake_case")]
pub enum TeamScoringFile {
    #[default]
    Tables,
    Scale {
        scale: Vec<i64>,
    },
}

/// A registered team: 4 to 6 players, kept for the whole session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamFile {
    pub number: u32,
    #[serde(default)]
    pub name: String,
    pub players: Vec<Player>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checked_in: Option<bool>,
    /// The team no longer plays from this round on (it stays in the
    /// standings and, once it played, is an entry).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub withdrawn_from_round: Option<u32>,
    /// Registered but never played: no standings row, not an entry.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_show: bool,
}

impl TeamFile {
    /// Whether the team is an entry (RULES.md §10): not a no-show and not
    /// withdrawn before round 1.
    pub fn is_entry(&self) -> bool {
        !self.no_show && self.withdrawn_from_round != Some(1)
    }
}

/// One line at a table: a team and the two of its players (indexes into
/// the team's `players`) who form the pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LineRef {
    pub team: u32,
    #[serde(deserialize_with = "two_players")]
    pub players: [u32; 2],
}

/// Exactly two player indexes (a field error naming the place otherwise).
fn two_players<'de, D: Deserializer<'de>>(d: D) -> Result<[u32; 2], D::Error> {
    let list = Vec::<u32>::deserialize(d)?;
    match list.as_slice() {
        [a, b] => Ok([*a, *b]),
        other => Err(serde::de::Error::invalid_length(
            other.len(),
            &"the two players of the line",
        )),
    }
}

/// One of the two tables of a match. At most one of `sheet`/`adjusted`;
/// neither means the table has not been scored yet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchTableFile {
    pub table: u32,
    pub ns: LineRef,
    pub ew: LineRef,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sheet: Option<SheetFile>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adjusted: Option<Adjusted>,
}

impl MatchTableFile {
    /// Scored (sheet or adjusted score).
    pub fn is_scored(&self) -> bool {
        self.sheet.is_some() || self.adjusted.is_some()
    }
}

/// One match: two teams on exactly two tables, each team once NS and once EW.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchFile {
    pub home: u32,
    pub away: u32,
    /// The group (girone) of a round-robin match played in groups.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    pub tables: Vec<MatchTableFile>,
}

impl MatchFile {
    /// Whether `team` plays this match.
    pub fn has(&self, team: u32) -> bool {
        self.home == team || self.away == team
    }

    /// The other team of the match.
    pub fn opponent(&self, team: u32) -> Option<u32> {
        if self.home == team {
            Some(self.away)
        } else if self.away == team {
            Some(self.home)
        } else {
            None
        }
    }
}

/// One round: its matches and the teams resting.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamRoundFile {
    pub number: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub movement: Option<TeamMovementKind>,
    pub matches: Vec<MatchFile>,
    /// The teams resting: JSON `bye` is `null`, a team number or a list.
    #[serde(rename = "bye", default, with = "bye_serde")]
    pub byes: Vec<u32>,
}

/// A penalty to a team (RULES.md §9, §12).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamPenaltyFile {
    pub round: u32,
    pub team: u32,
    /// The table (of the team's match that round) it concerns; required
    /// for `mp`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<u32>,
    pub kind: PenaltyKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amount: Option<i64>,
    #[serde(default)]
    pub reason: String,
    #[serde(default, skip_serializing_if = "is_false")]
    pub withdrawn: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<DateTime<Utc>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub withdrawn_by: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub withdrawn_at: Option<DateTime<Utc>>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub withdrawn_reason: String,
}

/// A whole team tournament.
///
/// Required in JSON: `format`, `kind` (`"teams"`), `name`, `date`,
/// `hands_per_round`, `entry_fee`, `prize_share_percent`, `payout`, `teams`,
/// `rounds`. Defaults as in a pairs file, plus `team_scoring` `tables`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamTournamentFile {
    pub format: FormatTag,
    pub kind: TeamsTag,
    pub name: String,
    pub date: NaiveDate,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub venue: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none", with = "hhmm")]
    pub start_time: Option<NaiveTime>,
    #[serde(default = "default_profile")]
    pub profile: String,
    pub hands_per_round: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minutes_per_round: Option<u32>,
    /// The pairs' scale each table's MP difference converts on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vp_scale: Option<Vec<i64>>,
    /// The pairs' bye award (the team award derives from it).
    #[serde(default = "default_bye_vp")]
    pub bye_vp: i64,
    #[serde(default)]
    pub team_scoring: TeamScoringFile,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team_bye_vp: Option<i64>,
    pub entry_fee: Decimal,
    pub prize_share_percent: Decimal,
    #[serde(default)]
    pub guaranteed_pool: Decimal,
    pub payout: Vec<PayoutTierFile>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub planned_rounds: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub movements: Option<Vec<TeamMovementKind>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suit_order: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw_seed: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<Status>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declared_closed_at: Option<DateTime<Utc>>,
    pub teams: Vec<TeamFile>,
    pub rounds: Vec<TeamRoundFile>,
    #[serde(default)]
    pub penalties: Vec<TeamPenaltyFile>,
}

impl TeamTournamentFile {
    /// An empty team tournament with the defaults (3 hands, preset scale,
    /// method `tables`, no money, one scheme paying the winner).
    pub fn new(name: impl Into<String>, date: NaiveDate) -> TeamTournamentFile {
        TeamTournamentFile {
            format: FormatTag,
            kind: TeamsTag,
            name: name.into(),
            date,
            venue: None,
            start_time: None,
            profile: default_profile(),
            hands_per_round: 3,
            minutes_per_round: None,
            vp_scale: None,
            bye_vp: default_bye_vp(),
            team_scoring: TeamScoringFile::Tables,
            team_bye_vp: None,
            entry_fee: Decimal::ZERO,
            prize_share_percent: Decimal::ZERO,
            guaranteed_pool: Decimal::ZERO,
            payout: vec![PayoutTierFile {
                min_entries: 1,
                scheme: vec![Decimal::ONE_HUNDRED],
            }],
            planned_rounds: None,
            movements: None,
            suit_order: None,
            draw_seed: None,
            status: None,
            declared_closed_at: None,
            teams: Vec::new(),
            rounds: Vec::new(),
            penalties: Vec::new(),
        }
    }

    /// Index in `teams` of a team number (the first, if repeated).
    pub fn team_position(&self, number: u32) -> Option<usize> {
        self.teams.iter().position(|t| t.number == number)
    }
}
