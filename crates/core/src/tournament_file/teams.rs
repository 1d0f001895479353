//! The serde types of a team tournament (`"kind": "teams"`, FORMAT.md "Team
//! tournaments in the same file", RULES.md §12).
//!
//! The teams part of a tournament file: only what a team tournament has
//! (the `kind` tag, `team_scoring` and `team_bye_vp`, teams with a name,
//! matches of two tables with line-ups, team penalties); the rest is the
//! skeleton's (`skeleton.rs`), the same as a pairs file's. Field order is
//! the export order; optional fields are written only when present, so
//! export → import → export gives the same text.
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

use super::skeleton::{entrant_file, penalty_file, round_file, table_file, tournament_file};
use super::Player;
use serde::{Deserialize, Deserializer, Serialize};
use std::fmt;

/// What a tournament file holds: pairs (absent `kind`), teams or
/// individual players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FileKind {
    #[default]
    Pairs,
    Teams,
    /// Individual tournaments (RULES.md §14).
    Individual,
}

impl FileKind {
    /// `pairs`, `teams` or `individual`.
    pub fn code(self) -> &'static str {
        match self {
            FileKind::Pairs => "pairs",
            FileKind::Teams => "teams",
            FileKind::Individual => "individual",
        }
    }
}

impl TryFrom<String> for FileKind {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        match s.as_str() {
            "pairs" => Ok(FileKind::Pairs),
            "teams" => Ok(FileKind::Teams),
            "individual" => Ok(FileKind::Individual),
            _ => Err(format!("FileKind: unknown value {s:?}")),
        }
    }
}

impl fmt::Display for FileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// The `kind` tag of a file of one kind other than pairs: always writes
/// that kind's code, reads only it.
macro_rules! kind_tag {
    ($(#[$meta:meta])* $Tag:ident = $kind:expr) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
        pub struct $Tag;

        impl serde::Serialize for $Tag {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str($kind.code())
            }
        }

        impl<'de> serde::Deserialize<'de> for $Tag {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<$Tag, D::Error> {
                let found = <$crate::tournament_file::FileKind as serde::Deserialize>::deserialize(d)?;
                if found == $kind {
                    Ok($Tag)
                } else {
                    Err(serde::de::Error::custom(format_args!(
                        "kind `{found}` is not a {} tournament, expected `{}`",
                        $kind, $kind
                    )))
                }
            }
        }
    };
}
pub(crate) use kind_tag;

kind_tag! {
    /// The `kind` tag of a team file: always `"teams"`.
    TeamsTag = FileKind::Teams
}

/// How a team round was made (RULES.md §12).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum TeamMovementKind {
    RoundRobin,
    Danish,
}

/// `team_scoring` as written: `{"method": "tables"}` or `{"method":
/// "scale", "scale": [10 bounds]}` (the bounds are checked by validation).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "method", rename_all = "snake_case")]
pub enum TeamScoringFile {
    #[default]
    Tables,
    Scale {
        scale: Vec<i64>,
    },
}

entrant_file! {
    /// A registered team: 4 to 6 players, kept for the whole session.
    pub struct TeamFile {
        own {
            #[serde(default)]
            pub name: String,
        }
        pub players: Vec<Player>,
    }
}

/// One line at a table: a team and the two of its players (indexes into
/// the team's `players`) who form the pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LineRef {
    pub team: u32,
    #[serde(deserialize_with = "two_players")]
    pub players: [u32; 2],
}

/// Exactly two player indexes (a field error naming the place otherwise).
pub(crate) fn two_players<'de, D: Deserializer<'de>>(d: D) -> Result<[u32; 2], D::Error> {
    let list = Vec::<u32>::deserialize(d)?;
    match list.as_slice() {
        [a, b] => Ok([*a, *b]),
        other => Err(serde::de::Error::invalid_length(
            other.len(),
            &"the two players of the line",
        )),
    }
}

table_file! {
    /// One of the two tables of a match: a line of each team.
    pub struct MatchTableFile {
        own {}
        line: LineRef,
    }
}

/// One match: two teams on exactly two tables, each team once NS and once EW.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
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

round_file! {
    /// One round: its matches and the teams resting.
    pub struct TeamRoundFile {
        movement: TeamMovementKind,
        pub matches: Vec<MatchFile>,
    }
}

penalty_file! {
    /// A penalty to a team (RULES.md §9, §12).
    pub struct TeamPenaltyFile {
        pub team: u32,
        table_before {
            /// The table (of the team's match that round) it concerns;
            /// required for `mp`.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub table: Option<u32>,
        }
        table_after {}
    }
}

tournament_file! {
    /// A whole team tournament: `kind` `"teams"`, settings (plus
    /// `team_scoring`, absent meaning `tables`), teams, rounds of matches,
    /// penalties.
    pub struct TeamTournamentFile {
        kind {
            #[cfg_attr(feature = "openapi", schema(value_type = String))]
            pub kind: TeamsTag,
        }
        scoring {
            #[serde(default)]
            pub team_scoring: TeamScoringFile,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub team_bye_vp: Option<i64>,
        }
        movements: TeamMovementKind,
        seating {}
        sheets {}
        pub teams: Vec<TeamFile>,
        rounds: TeamRoundFile,
        penalties: TeamPenaltyFile,
    }
}

impl TeamTournamentFile {
    /// Index in `teams` of a team number (the first, if repeated).
    pub fn team_position(&self, number: u32) -> Option<usize> {
        self.teams.iter().position(|t| t.number == number)
    }
}
