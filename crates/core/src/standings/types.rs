//! The standings' types, one family for every kind of entrant: a row, a
//! card, a prize, the whole standings. They serialize with the kind's own
//! field for the entrant's number (`"pair": 3`, `"team": 3`).

use super::kind::Kind;
use super::pairs::Pair;
use crate::tournament_file::PenaltyKind;
use chrono::{DateTime, Utc};
use rust_decimal::Decimal;
use serde::ser::{SerializeStruct, Serializer};
use serde::Serialize;
use std::collections::HashMap;
use std::marker::PhantomData;

/// An entrant's line in the standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row<K: Kind = Pair> {
    /// 1-based; tied entrants share it (1, 2, 2, 4…).
    pub place: u32,
    /// The pair's (team's) number.
    pub number: u32,
    /// Net VP (after VP penalties).
    pub vp: i64,
    pub mp_diff: i64,
    pub mp: i64,
    /// Rounds played (pairs: sheet or adjusted score; teams: both tables
    /// scored).
    pub played: u32,
    /// Rounds rested with the bye award.
    pub byes: u32,
    /// VP taken by penalties (`vp` penalties and automatic warning VP), ≥ 0.
    pub penalty_vp: i64,
    /// Withdrawn (it stays in the standings).
    pub withdrawn: bool,
    /// Set on both entrants when head-to-head decided their order.
    pub tie_break: Option<TieBreak>,
    /// Its group (RULES.md §13), once the field is cut into groups; `None`
    /// without groups and for an entrant withdrawn before the cut.
    pub group: Option<String>,
    /// Its place inside its group (tied entrants of the group share it).
    pub group_place: Option<u32>,
    pub(crate) kind: PhantomData<K>,
}

impl<K: Kind> Row<K> {
    /// Its first seven fields, as the row and the CLI's row write them.
    pub(crate) fn write_head<S: SerializeStruct>(&self, s: &mut S) -> Result<(), S::Error> {
        s.serialize_field("place", &self.place)?;
        s.serialize_field(K::FIELD, &self.number)?;
        s.serialize_field("vp", &self.vp)?;
        s.serialize_field("mp_diff", &self.mp_diff)?;
        s.serialize_field("mp", &self.mp)?;
        s.serialize_field("played", &self.played)?;
        s.serialize_field("byes", &self.byes)
    }

    /// `group` and `group_place`, written only when the row has a group
    /// (a file without groups keeps its output).
    pub(crate) fn write_group<S: SerializeStruct>(&self, s: &mut S) -> Result<(), S::Error> {
        if self.group.is_some() {
            s.serialize_field("group", &self.group)?;
            s.serialize_field("group_place", &self.group_place)?;
        }
        Ok(())
    }
}

impl<K: Kind> Serialize for Row<K> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Row", 10)?;
        self.write_head(&mut s)?;
        s.serialize_field("penalty_vp", &self.penalty_vp)?;
        s.serialize_field("withdrawn", &self.withdrawn)?;
        s.serialize_field("tie_break", &self.tie_break)?;
        self.write_group(&mut s)?;
        s.end()
    }
}

/// Head-to-head decided the order of two tied entrants.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TieBreak {
    /// The other pair of the tie.
    pub other: u32,
    /// VP this pair and the other took in their meeting(s).
    pub vp_for: i64,
    pub vp_against: i64,
    /// This pair went first.
    pub won: bool,
    /// The note in words (`Davanti alla coppia 7 per lo scontro diretto…`).
    pub note: String,
}

/// What a pair did in a round; for teams, how a table of a match was
/// scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Played, scored from the sheet.
    Played,
    /// Played, the referee set the score.
    Adjusted,
    /// Rested (bye award).
    Bye,
    /// Seated, sheet not entered yet.
    Pending,
    /// Not seated this round (late arrival, withdrawn).
    Absent,
}

/// A penalty on an entrant's card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CardPenalty {
    /// Position in the file's `penalties`; `None` for an automatic one.
    pub index: Option<usize>,
    pub kind: PenaltyKind,
    pub amount: Option<i64>,
    pub reason: String,
    pub withdrawn: bool,
    /// Added by the program (−1 VP for every second warning).
    pub automatic: bool,
    /// For a counted warning: its number for this pair (1, 2, 3…).
    pub warning_no: Option<u32>,
    /// It changes the standings now (not withdrawn; an `mp` penalty only on a
    /// table scored from its sheet).
    pub counts: bool,
    pub table: Option<u32>,
    pub by: Option<String>,
    pub at: Option<DateTime<Utc>>,
    pub withdrawn_by: Option<String>,
    pub withdrawn_at: Option<DateTime<Utc>>,
}

/// An entrant's card: its rounds, one per round of the tournament.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Card<K: Kind = Pair> {
    /// The pair's (team's) number.
    pub number: u32,
    pub rounds: Vec<K::Round>,
}

impl<K: Kind> Card<K> {
    pub(crate) fn new(number: u32, rounds: impl Iterator<Item = K::Round>) -> Card<K> {
        Card {
            number,
            rounds: rounds.collect(),
        }
    }
}

impl<K: Kind> Serialize for Card<K> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Card", 2)?;
        s.serialize_field(K::FIELD, &self.number)?;
        s.serialize_field("rounds", &self.rounds)?;
        s.end()
    }
}

/// An entrant that wins money.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prize<K: Kind = Pair> {
    /// The pair's (team's) number.
    pub number: u32,
    pub place: u32,
    pub amount: Decimal,
    /// The prize split among the players (pairs: the two players, odd cent
    /// to the first; teams: all its players, odd cents to the first ones).
    pub per_player: K::Split,
    /// The group whose prize it is (RULES.md §13, prizes per group).
    pub group: Option<String>,
}

impl<K: Kind> Serialize for Prize<K> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Prize", 4)?;
        s.serialize_field(K::FIELD, &self.number)?;
        s.serialize_field("place", &self.place)?;
        s.serialize_field("amount", &self.amount)?;
        s.serialize_field("per_player", &self.per_player)?;
        if self.group.is_some() {
            s.serialize_field("group", &self.group)?;
        }
        s.end()
    }
}

/// A sheet (round, table) whose declared totals were wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SheetRef {
    pub round: u32,
    pub table: u32,
}

/// The computed standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(bound = "")]
pub struct Standings<K: Kind = Pair> {
    /// Best first.
    pub rows: Vec<Row<K>>,
    /// One per entry, in the order of the file's entrants.
    pub cards: Vec<Card<K>>,
    /// Every entrant in the file but the no-shows.
    pub entries: u32,
    pub pool: Decimal,
    /// Entries × fee − pool (negative when a guarantee tops the pool up).
    pub organiser_fee: Decimal,
    /// The payout scheme that applied (empty when none).
    pub scheme: Vec<Decimal>,
    /// The entrants that win money, best first.
    pub prizes: Vec<Prize<K>>,
    /// Sheets scored from the computed totals because the declared ones
    /// were wrong.
    pub declared_mismatches: Vec<SheetRef>,
    /// What the kind's standings carry of their own (teams: the scoring and
    /// the match results).
    #[serde(flatten)]
    pub extra: K::Extra,
    #[serde(skip)]
    pub(crate) card_index: HashMap<u32, usize>,
    #[serde(skip)]
    pub(crate) row_index: HashMap<u32, usize>,
}

impl<K: Kind> Standings<K> {
    /// An entrant's card.
    pub fn card(&self, number: u32) -> Option<&Card<K>> {
        self.card_index
            .get(&number)
            .and_then(|&i| self.cards.get(i))
    }

    /// An entrant's row.
    pub fn row(&self, number: u32) -> Option<&Row<K>> {
        self.row_index.get(&number).and_then(|&i| self.rows.get(i))
    }

    /// An entrant's prize, if it wins money.
    pub fn prize(&self, number: u32) -> Option<&Prize<K>> {
        self.prizes.iter().find(|p| p.number == number)
    }
}
