//! The pairs part of a tournament file (FORMAT.md): what only a pairs
//! tournament has. Its entrants are `pairs` (two players each), its tables
//! seat two pair numbers, its rounds are Mitchell or Danish, its penalties
//! name a `pair`; it may set the Mitchell advance, repeats and the sheet
//! mode. Everything else is the skeleton's (`skeleton.rs`).

use super::groups::{GroupFile, GroupPrizeFile};
use super::skeleton::{entrant_file, penalty_file, round_file, table_file, tournament_file};
use super::Player;
use crate::movement::groups::GroupPlan;
use crate::rules::score_sheet::SheetMode;
use serde::{Deserialize, Serialize};

/// How a round's seating was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum MovementKind {
    Mitchell,
    Danish,
    DanishModified,
    /// Danish in groups (RULES.md §13), pure.
    DanishGroups,
    /// Danish in groups, modified.
    DanishGroupsModified,
}

impl MovementKind {
    /// A round in groups (RULES.md §13).
    pub fn in_groups(self) -> bool {
        matches!(
            self,
            MovementKind::DanishGroups | MovementKind::DanishGroupsModified
        )
    }

    /// A Danish round that forbids the previous opponent.
    pub fn is_modified(self) -> bool {
        matches!(
            self,
            MovementKind::DanishModified | MovementKind::DanishGroupsModified
        )
    }
}

entrant_file! {
    /// A registered pair.
    pub struct PairFile {
        own {}
        /// Exactly two players (checked by validation).
        pub players: Vec<Player>,
    }
}

table_file! {
    /// One table of a round. `ns` is the fixed line, `ew` the moving line in
    /// Mitchell rounds. At most one of `sheet`/`adjusted`; neither means the
    /// table has not played yet (only in the last round).
    pub struct TableFile {
        own {
            /// The group of a round in groups (RULES.md §13).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub group: Option<String>,
        }
        line: u32,
    }
}

round_file! {
    /// One round: its tables and the pairs resting (byes).
    pub struct RoundFile {
        movement: MovementKind,
        pub tables: Vec<TableFile>,
    }
}

penalty_file! {
    /// A penalty to a pair (RULES.md §9); its `table`, when given, is the
    /// pair's table that round.
    pub struct PenaltyFile {
        pub pair: u32,
        table_before {}
        table_after {
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub table: Option<u32>,
        }
    }
}

tournament_file! {
    /// A whole pairs tournament: settings, pairs, rounds, penalties.
    pub struct TournamentFile {
        kind {}
        scoring {}
        movements: MovementKind,
        seating {
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub mitchell_advance: Option<u32>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub allow_repeats: Option<bool>,
            /// How the groups are made (RULES.md §13).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub group_plan: Option<GroupPlan>,
            /// Club separation in the Mitchell draw (RULES.md §13).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub separate_clubs: Option<bool>,
            /// The groups as cut, once a round in groups exists.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub groups: Option<Vec<GroupFile>>,
            /// Prizes per group (then `payout` is not used).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub group_prizes: Option<Vec<GroupPrizeFile>>,
        }
        sheets {
            /// How the tables enter their sheets: `"totals"` when hand totals
            /// only (absent: the whole card).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub sheet_mode: Option<SheetMode>,
        }
        pub pairs: Vec<PairFile>,
        rounds: RoundFile,
        penalties: PenaltyFile,
    }
}
