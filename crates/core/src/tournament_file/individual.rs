//! The individual part of a tournament file (`"kind": "individual"`,
//! FORMAT.md "Individual tournaments", RULES.md §14): only what an
//! individual tournament has. Its entrants are `players` (each one player,
//! its number beside its names), its tables seat two player numbers a line,
//! its rounds are a `draw` or `danish`, its resting players are a list and
//! its penalties name a `player`. Everything else is the skeleton's
//! (`skeleton.rs`), the same as a pairs file's.
//!
//! Decisions where FORMAT.md is silent:
//! - `bye` is read as for pairs (null, a number or a list) and always
//!   written as a list (`[]` when nobody rests).
//! - A penalty may name the `table` of the player that round (as for
//!   pairs); an `mp` penalty needs the player at a table.
//! - `sheet_mode` as for pairs.

use super::skeleton::{entrant_file, penalty_file, round_file, table_file, tournament_file};
use super::teams::kind_tag;
use super::{FileKind, Player};
use crate::rules::score_sheet::SheetMode;
use serde::{Deserialize, Serialize};

kind_tag! {
    /// The `kind` tag of an individual file: always `"individual"`.
    IndividualTag = FileKind::Individual
}

/// How an individual round's seating was made (RULES.md §14).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum IndividualMovementKind {
    /// At random: partners, tables and lines.
    Draw,
    /// Foursomes in standings order, no partnership of the previous round
    /// repeated.
    Danish,
}

entrant_file! {
    /// A registered player: its number, names, card and club.
    pub struct IndividualPlayerFile {
        own {}
        #[serde(flatten)]
        pub player: Player,
    }
}

table_file! {
    /// One table of an individual round: two players a line (`[3, 17]`).
    pub struct IndividualTableFile {
        own {}
        #[serde(deserialize_with = "crate::tournament_file::teams::two_players")]
        line: [u32; 2],
    }
}

impl IndividualTableFile {
    /// The line (NS, EW) and the partner of `player` at this table.
    pub fn seat_of(&self, player: u32) -> Option<(crate::rules::Line, u32)> {
        use crate::rules::Line;
        [(Line::Ns, self.ns), (Line::Ew, self.ew)]
            .into_iter()
            .find_map(|(line, [a, b])| match player {
                p if p == a => Some((line, b)),
                p if p == b => Some((line, a)),
                _ => None,
            })
    }
}

round_file! {
    /// One round: its tables and the players resting.
    pub struct IndividualRoundFile {
        movement: IndividualMovementKind,
        pub tables: Vec<IndividualTableFile>,
        bye: "crate::tournament_file::pieces::bye_list",
    }
}

penalty_file! {
    /// A penalty to a player (RULES.md §9, §14); its `table`, when given, is
    /// the player's table that round.
    pub struct IndividualPenaltyFile {
        pub player: u32,
        table_before {}
        table_after {
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub table: Option<u32>,
        }
    }
}

tournament_file! {
    /// A whole individual tournament: `kind` `"individual"`, settings,
    /// players, rounds of tables of four, penalties.
    pub struct IndividualTournamentFile {
        kind {
            #[cfg_attr(feature = "openapi", schema(value_type = String))]
            pub kind: IndividualTag,
        }
        scoring {}
        movements: IndividualMovementKind,
        seating {}
        sheets {
            /// How the tables enter their sheets: `"totals"` when hand totals
            /// only (absent: the whole card).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub sheet_mode: Option<SheetMode>,
        }
        pub players: Vec<IndividualPlayerFile>,
        rounds: IndividualRoundFile,
        penalties: IndividualPenaltyFile,
    }
}
