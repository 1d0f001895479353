//! The skeleton of a tournament file `burraco-td/tournament@1` (FORMAT.md),
//! the same for every kind of entrant: the pieces every kind shares (the
//! `format` tag, status, payout, players, score sheets, adjusted scores,
//! penalty kinds, the `bye` and `HH:MM` encodings) and the shapes every kind
//! fills in with its own parts: `tournament_file!` (header, settings,
//! money, plan, status, entrants, rounds, penalties), `entrant_file!`,
//! `table_file!`, `round_file!` and `penalty_file!`. A kind (pairs:
//! `pairs.rs`, teams: `teams.rs`) names its entrants' list and gives only
//! its own fields, each in a slot at its place in the export order; the
//! shapes implement [`Tournament`], [`Entrant`], [`Round`] and [`Penalty`],
//! the one view the validator (and any shared code) has of every kind.
//!
//! A new kind is one more small part: an individual tournament (FORMAT.md
//! "Individual tournaments", `individual.rs`) fills `kind` with its tag,
//! names its entrants `players` (each one player flattened beside its
//! number), seats two player numbers a line (`line: [u32; 2]`), writes its
//! `bye` as a list and gives its penalties a `player`; groups (FORMAT.md
//! "Plans, groups and prizes per group") add their settings to a pairs
//! file's slots and a table's `group` to its `own` slot. The validator
//! takes each through its `KindChecks` part (`validate/skeleton.rs`).
//!
//! Field order in the structs is the order written on export, so that
//! `serialize(parse(x))` is deterministic. Optional fields that FORMAT.md does
//! not list are written only when present.

use super::pieces::{PenaltyKind, Player, Status};

/// A tournament file of any kind as shared code (the validator, the
/// standings) sees it: its entrants, rounds, penalties and status.
pub trait Tournament {
    type Entrant: Entrant;
    type Round: Round;
    type Penalty: Penalty;
    fn entrants(&self) -> &[Self::Entrant];
    fn rounds(&self) -> &[Self::Round];
    fn penalties(&self) -> &[Self::Penalty];
    fn status(&self) -> Option<Status>;
}

/// A round of any kind: its number and the entrants resting.
pub trait Round {
    fn number(&self) -> u32;
    fn byes(&self) -> &[u32];
}

/// A penalty of any kind: its round, whom it is given to and the fields
/// every penalty has.
pub trait Penalty {
    fn round(&self) -> u32;
    /// The number of the pair (team…) it is given to.
    fn entrant(&self) -> u32;
    fn kind(&self) -> PenaltyKind;
    fn amount(&self) -> Option<i64>;
    fn reason(&self) -> &str;
    fn by(&self) -> Option<&str>;
    fn at(&self) -> Option<chrono::DateTime<chrono::Utc>>;
    fn withdrawn(&self) -> bool;
    fn withdrawn_by(&self) -> Option<&str>;
    fn withdrawn_at(&self) -> Option<chrono::DateTime<chrono::Utc>>;
    fn withdrawn_reason(&self) -> &str;
}

/// An entrant of any kind (a pair, a team) as the shared code sees it.
pub trait Entrant {
    fn number(&self) -> u32;
    fn players(&self) -> &[Player];
    fn withdrawn_from_round(&self) -> Option<u32>;
    fn no_show(&self) -> bool;

    /// Whether the entrant is an entry (RULES.md §10): not a no-show and
    /// not withdrawn before round 1.
    fn is_entry(&self) -> bool {
        !self.no_show() && self.withdrawn_from_round() != Some(1)
    }
}

/// The skeleton of a whole tournament file, one definition for every kind:
/// header, settings, money, plan, status, then the entrants, rounds and
/// penalties. A kind fills the slots with its own fields, each at its place
/// in the export order: `kind` (after `format`), `scoring` (after
/// `bye_vp`), `seating` (after `movements`) and `sheets` (after
/// `draw_seed`); it names its movement type, its entrants' list and its
/// round and penalty types. Every own field is `Default` in
/// [`new`](TournamentFile::new).
///
/// Required in JSON: `format`, `name`, `date`, `hands_per_round`,
/// `entry_fee`, `prize_share_percent`, `payout`, the entrants, `rounds`.
/// Defaults when absent: `profile` `codice`, `bye_vp` 14, `guaranteed_pool`
/// 0, `penalties` empty; `vp_scale` absent means the preset of
/// `hands_per_round`.
macro_rules! tournament_file {
    (
        $(#[$meta:meta])*
        pub struct $File:ident {
            kind { $( $(#[$kind_meta:meta])* pub $kind:ident: $kind_ty:ty, )* }
            scoring { $( $(#[$scoring_meta:meta])* pub $scoring:ident: $scoring_ty:ty, )* }
            movements: $Movement:ty,
            seating { $( $(#[$seating_meta:meta])* pub $seating:ident: $seating_ty:ty, )* }
            sheets { $( $(#[$sheets_meta:meta])* pub $sheets:ident: $sheets_ty:ty, )* }
            $(#[$entrants_meta:meta])*
            pub $entrants:ident: Vec<$Entrant:ty>,
            rounds: $Round:ty,
            penalties: $Penalty:ty,
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
        #[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
        pub struct $File {
            /// Always `"burraco-td/tournament@1"`.
            #[cfg_attr(feature = "openapi", schema(value_type = String))]
            pub format: $crate::tournament_file::FormatTag,
            $( $(#[$kind_meta])* pub $kind: $kind_ty, )*
            pub name: String,
            pub date: chrono::NaiveDate,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub venue: Option<String>,
            /// `"HH:MM"`.
            #[serde(
                default,
                skip_serializing_if = "Option::is_none",
                with = "crate::tournament_file::pieces::hhmm"
            )]
            #[cfg_attr(feature = "openapi", schema(value_type = Option<String>))]
            pub start_time: Option<chrono::NaiveTime>,
            #[serde(default = "crate::tournament_file::pieces::default_profile")]
            pub profile: String,
            pub hands_per_round: i64,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub minutes_per_round: Option<u32>,
            /// The pairs' scale each table's MP difference converts on.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub vp_scale: Option<Vec<i64>>,
            /// The award of a resting pair (a team's derives from it).
            #[serde(default = "crate::tournament_file::pieces::default_bye_vp")]
            pub bye_vp: i64,
            $( $(#[$scoring_meta])* pub $scoring: $scoring_ty, )*
            pub entry_fee: rust_decimal::Decimal,
            pub prize_share_percent: rust_decimal::Decimal,
            #[serde(default)]
            pub guaranteed_pool: rust_decimal::Decimal,
            pub payout: Vec<$crate::tournament_file::PayoutTierFile>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub planned_rounds: Option<u32>,
            /// The planned movement of each round (round 1 first).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub movements: Option<Vec<$Movement>>,
            $( $(#[$seating_meta])* pub $seating: $seating_ty, )*
            /// Suit order of the seat draw, e.g. `"HDCS"`.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub suit_order: Option<String>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub draw_seed: Option<u64>,
            $( $(#[$sheets_meta])* pub $sheets: $sheets_ty, )*
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub status: Option<$crate::tournament_file::Status>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub declared_closed_at: Option<chrono::DateTime<chrono::Utc>>,
            $(#[$entrants_meta])*
            pub $entrants: Vec<$Entrant>,
            pub rounds: Vec<$Round>,
            #[serde(default)]
            pub penalties: Vec<$Penalty>,
        }

        impl $crate::tournament_file::Tournament for $File {
            type Entrant = $Entrant;
            type Round = $Round;
            type Penalty = $Penalty;
            fn entrants(&self) -> &[$Entrant] {
                &self.$entrants
            }
            fn rounds(&self) -> &[$Round] {
                &self.rounds
            }
            fn penalties(&self) -> &[$Penalty] {
                &self.penalties
            }
            fn status(&self) -> Option<$crate::tournament_file::Status> {
                self.status
            }
        }

        impl $File {
            /// An empty tournament with the defaults (3 hands, preset scale,
            /// bye 14 VP, no money, one scheme paying the winner) and the
            /// kind's own defaults.
            pub fn new(name: impl Into<String>, date: chrono::NaiveDate) -> $File {
                $File {
                    format: $crate::tournament_file::FormatTag,
                    $( $kind: Default::default(), )*
                    name: name.into(),
                    date,
                    venue: None,
                    start_time: None,
                    profile: $crate::tournament_file::pieces::default_profile(),
                    hands_per_round: 3,
                    minutes_per_round: None,
                    vp_scale: None,
                    bye_vp: $crate::tournament_file::pieces::default_bye_vp(),
                    $( $scoring: Default::default(), )*
                    entry_fee: rust_decimal::Decimal::ZERO,
                    prize_share_percent: rust_decimal::Decimal::ZERO,
                    guaranteed_pool: rust_decimal::Decimal::ZERO,
                    payout: vec![$crate::tournament_file::PayoutTierFile {
                        min_entries: 1,
                        scheme: vec![rust_decimal::Decimal::ONE_HUNDRED],
                    }],
                    planned_rounds: None,
                    movements: None,
                    $( $seating: Default::default(), )*
                    suit_order: None,
                    draw_seed: None,
                    $( $sheets: Default::default(), )*
                    status: None,
                    declared_closed_at: None,
                    $entrants: Vec::new(),
                    rounds: Vec::new(),
                    penalties: Vec::new(),
                }
            }

            /// The settings every kind has, as the shared checks take them
            /// (a kind adds its own, e.g. `mitchell_advance`).
            pub(crate) fn common_settings(
                &self,
            ) -> $crate::tournament_file::validate::settings::Settings<'_> {
                $crate::tournament_file::validate::settings::Settings {
                    name: &self.name,
                    venue: self.venue.as_deref(),
                    profile: &self.profile,
                    hands_per_round: self.hands_per_round,
                    vp_scale: self.vp_scale.as_deref(),
                    bye_vp: self.bye_vp,
                    entry_fee: self.entry_fee,
                    prize_share_percent: self.prize_share_percent,
                    guaranteed_pool: self.guaranteed_pool,
                    payout: &self.payout,
                    minutes_per_round: self.minutes_per_round,
                    planned_rounds: self.planned_rounds,
                    movements: self.movements.as_ref().map(Vec::len),
                    mitchell_advance: None,
                    suit_order: self.suit_order.as_deref(),
                    registered: self.$entrants.len(),
                    entries_field: stringify!($entrants),
                    started: !self.rounds.is_empty(),
                }
            }
        }
    };
}
pub(crate) use tournament_file;

/// An entrant's players as the shared code reads them: a list (a pair's
/// two, a team's four to six) or one player (an individual tournament's
/// entrant is the player).
pub trait AsPlayers {
    fn as_players(&self) -> &[Player];
}

impl AsPlayers for Vec<Player> {
    fn as_players(&self) -> &[Player] {
        self
    }
}

impl AsPlayers for Player {
    fn as_players(&self) -> &[Player] {
        std::slice::from_ref(self)
    }
}

/// The shape of an entrant of any kind: its number, then the kind's own
/// fields (`own`, e.g. a team's `name`), its players (`players: Vec<Player>`,
/// or one player flattened into the entrant: `player: Player`), and whether
/// it played ([`Entrant`]).
macro_rules! entrant_file {
    (
        $(#[$meta:meta])*
        pub struct $Entrant:ident {
            own { $( $(#[$own_meta:meta])* pub $own:ident: $own_ty:ty, )* }
            $(#[$players_meta:meta])*
            pub $players:ident: $Players:ty,
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
        #[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
        pub struct $Entrant {
            pub number: u32,
            $( $(#[$own_meta])* pub $own: $own_ty, )*
            $(#[$players_meta])*
            pub $players: $Players,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub checked_in: Option<bool>,
            /// It no longer plays from this round on (it stays in the
            /// standings and counts as an entry for the prize pool once it
            /// played; withdrawn from round 1, before the start, it never
            /// played and is no entry).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub withdrawn_from_round: Option<u32>,
            /// Registered but never played (marked no-show, withdrawn before
            /// the start, or not checked in when the tournament started): not
            /// seated, not in the standings, not an entry (RULES.md §10).
            #[serde(default, skip_serializing_if = "std::ops::Not::not")]
            pub no_show: bool,
        }

        impl $Entrant {
            /// Whether it is an entry (RULES.md §10): not a no-show and not
            /// withdrawn before round 1.
            pub fn is_entry(&self) -> bool {
                $crate::tournament_file::Entrant::is_entry(self)
            }
        }

        impl $crate::tournament_file::Entrant for $Entrant {
            fn number(&self) -> u32 {
                self.number
            }
            fn players(&self) -> &[$crate::tournament_file::Player] {
                $crate::tournament_file::skeleton::AsPlayers::as_players(&self.$players)
            }
            fn withdrawn_from_round(&self) -> Option<u32> {
                self.withdrawn_from_round
            }
            fn no_show(&self) -> bool {
                self.no_show
            }
        }
    };
}
pub(crate) use entrant_file;

/// The shape of a table of any kind: its number, the kind's own fields
/// (`own`: a group's label, FORMAT.md "Plans, groups and prizes per group"),
/// the two lines (`line`: a pair's number, a team's line-up, two players'
/// numbers…, with the attributes given before it), then at most one of `sheet`/`adjusted`; neither means the
/// table has not been scored yet.
macro_rules! table_file {
    (
        $(#[$meta:meta])*
        pub struct $Table:ident {
            own { $( $(#[$own_meta:meta])* pub $own:ident: $own_ty:ty, )* }
            $(#[$line_meta:meta])*
            line: $Line:ty,
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
        #[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
        pub struct $Table {
            pub table: u32,
            $( $(#[$own_meta])* pub $own: $own_ty, )*
            $(#[$line_meta])*
            pub ns: $Line,
            $(#[$line_meta])*
            pub ew: $Line,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub sheet: Option<$crate::tournament_file::SheetFile>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub adjusted: Option<$crate::tournament_file::Adjusted>,
        }

        impl $Table {
            /// Scored (sheet or adjusted score).
            pub fn is_scored(&self) -> bool {
                self.sheet.is_some() || self.adjusted.is_some()
            }
        }
    };
}
pub(crate) use table_file;

/// The shape of a round of any kind: its number and movement, what is
/// played (`tables`, `matches`…), and the entrants resting, written as
/// `bye_serde` writes them unless the kind names its own encoding (`bye:
/// "path"`; individual tournaments always write a list).
macro_rules! round_file {
    (
        $(#[$meta:meta])*
        pub struct $Round:ident {
            movement: $Movement:ty,
            $(#[$played_meta:meta])*
            pub $played:ident: $played_ty:ty,
        }
    ) => {
        $crate::tournament_file::skeleton::round_file! {
            $(#[$meta])*
            pub struct $Round {
                movement: $Movement,
                $(#[$played_meta])*
                pub $played: $played_ty,
                bye: "crate::tournament_file::pieces::bye_serde",
            }
        }
    };
    (
        $(#[$meta:meta])*
        pub struct $Round:ident {
            movement: $Movement:ty,
            $(#[$played_meta:meta])*
            pub $played:ident: $played_ty:ty,
            bye: $bye_with:literal,
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
        #[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
        pub struct $Round {
            pub number: u32,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub movement: Option<$Movement>,
            $(#[$played_meta])*
            pub $played: $played_ty,
            /// The entrants resting this round. JSON `bye`: `null` (none), a
            /// number (one, the usual case) or a list of numbers (several:
            /// after a withdrawal, or one per group). Written the same way.
            #[serde(
                rename = "bye",
                default,
                with = $bye_with
            )]
            #[cfg_attr(
                feature = "openapi",
                schema(schema_with = crate::tournament_file::pieces::bye_schema)
            )]
            pub byes: Vec<u32>,
        }

        impl $crate::tournament_file::Round for $Round {
            fn number(&self) -> u32 {
                self.number
            }
            fn byes(&self) -> &[u32] {
                &self.byes
            }
        }
    };
}
pub(crate) use round_file;

/// The shape of a penalty of any kind (RULES.md §9): its round, whom it is
/// given to (`pair`, `team`…), its kind and amount (required and positive
/// for `mp` and `vp`, absent for `warning`), reason, withdrawal and who gave
/// or withdrew it. The table it concerns sits where the kind puts it
/// (`table_before` the kind, or `table_after` the withdrawal). A withdrawn
/// penalty keeps its record and counts for nothing.
macro_rules! penalty_file {
    (
        $(#[$meta:meta])*
        pub struct $Penalty:ident {
            pub $who:ident: u32,
            table_before { $( $(#[$before_meta:meta])* pub $before:ident: $before_ty:ty, )* }
            table_after { $( $(#[$after_meta:meta])* pub $after:ident: $after_ty:ty, )* }
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
        #[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
        pub struct $Penalty {
            pub round: u32,
            pub $who: u32,
            $( $(#[$before_meta])* pub $before: $before_ty, )*
            pub kind: $crate::tournament_file::PenaltyKind,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub amount: Option<i64>,
            #[serde(default)]
            pub reason: String,
            #[serde(default, skip_serializing_if = "crate::tournament_file::pieces::is_false")]
            pub withdrawn: bool,
            $( $(#[$after_meta])* pub $after: $after_ty, )*
            /// Who gave it (referee or director).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub by: Option<String>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub at: Option<chrono::DateTime<chrono::Utc>>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub withdrawn_by: Option<String>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub withdrawn_at: Option<chrono::DateTime<chrono::Utc>>,
            /// Why it was withdrawn (RULES.md §9: a withdrawal gives its reason).
            #[serde(default, skip_serializing_if = "String::is_empty")]
            pub withdrawn_reason: String,
        }

        impl $crate::tournament_file::Penalty for $Penalty {
            fn round(&self) -> u32 {
                self.round
            }
            fn entrant(&self) -> u32 {
                self.$who
            }
            fn kind(&self) -> $crate::tournament_file::PenaltyKind {
                self.kind
            }
            fn amount(&self) -> Option<i64> {
                self.amount
            }
            fn reason(&self) -> &str {
                &self.reason
            }
            fn by(&self) -> Option<&str> {
                self.by.as_deref()
            }
            fn at(&self) -> Option<chrono::DateTime<chrono::Utc>> {
                self.at
            }
            fn withdrawn(&self) -> bool {
                self.withdrawn
            }
            fn withdrawn_by(&self) -> Option<&str> {
                self.withdrawn_by.as_deref()
            }
            fn withdrawn_at(&self) -> Option<chrono::DateTime<chrono::Utc>> {
                self.withdrawn_at
            }
            fn withdrawn_reason(&self) -> &str {
                &self.withdrawn_reason
            }
        }
    };
}
pub(crate) use penalty_file;
