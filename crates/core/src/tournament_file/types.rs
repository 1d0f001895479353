//! The serde types of `burraco-td/tournament@1` (FORMAT.md).
//!
//! Field order in the structs is the order written on export, so that
//! `serialize(parse(x))` is deterministic. Optional fields that FORMAT.md does
//! not list are written only when present.

use crate::rules::score_sheet::{Hand, PerLine, ScoreSheet, SheetMode};
use chrono::{DateTime, NaiveDate, NaiveTime, Utc};
use rust_decimal::Decimal;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// The one format this module reads and writes.
pub const FORMAT: &str = "burraco-td/tournament@1";

/// Default rule profile when the file does not say.
pub const DEFAULT_PROFILE: &str = "codice";

/// The `format` tag: always [`FORMAT`]; reading any other value is an error
/// naming `format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FormatTag;

impl Serialize for FormatTag {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(FORMAT)
    }
}

impl<'de> Deserialize<'de> for FormatTag {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<FormatTag, D::Error> {
        let text = String::deserialize(d)?;
        if text == FORMAT {
            Ok(FormatTag)
        } else {
            Err(serde::de::Error::custom(format_args!(
                "unknown format `{}`, expected `{FORMAT}`",
                text.chars().take(64).collect::<String>()
            )))
        }
    }
}

/// How a round's seating was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum MovementKind {
    Mitchell,
    Danish,
    DanishModified,
}

/// Where the tournament stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Draft,
    Running,
    Finished,
}

/// A penalty's kind (RULES.md §9). An adjusted score is not a penalty kind:
/// it is a table's `adjusted`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum PenaltyKind {
    Warning,
    Mp,
    Vp,
}

impl PenaltyKind {
    pub const ALL: [PenaltyKind; 3] = [PenaltyKind::Warning, PenaltyKind::Mp, PenaltyKind::Vp];

    /// `warning`, `mp` or `vp`.
    pub fn code(self) -> &'static str {
        match self {
            PenaltyKind::Warning => "warning",
            PenaltyKind::Mp => "mp",
            PenaltyKind::Vp => "vp",
        }
    }

    /// The stored word (the same as [`PenaltyKind::code`]).
    pub fn as_str(self) -> &'static str {
        self.code()
    }

    pub fn parse(s: &str) -> Option<PenaltyKind> {
        PenaltyKind::ALL.into_iter().find(|k| k.as_str() == s)
    }

    /// The largest amount a referee may give (none for a warning).
    pub fn max_amount(self) -> Option<i64> {
        match self {
            PenaltyKind::Warning => None,
            PenaltyKind::Mp => Some(super::MAX_MP_AMOUNT),
            PenaltyKind::Vp => Some(super::MAX_VP_AMOUNT),
        }
    }
}

/// A stored word read back (a typed column): an unknown one is an error.
impl TryFrom<String> for PenaltyKind {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        PenaltyKind::parse(&s).ok_or_else(|| format!("PenaltyKind: unknown value {s:?}"))
    }
}

impl fmt::Display for PenaltyKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A payout scheme and the least number of entries it applies from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PayoutTierFile {
    pub min_entries: u32,
    /// Percentages of the pool for place 1, 2, 3… (decimal strings).
    pub scheme: Vec<Decimal>,
}

/// One player of a pair.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Player {
    pub surname: String,
    pub name: String,
    /// Federation card number, read trimmed (RULES.md §11 compares cards
    /// trimmed and case-insensitive): `" FB100037 "` is `FB100037`, and a
    /// card of spaces only is no card.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "trimmed_card"
    )]
    pub card: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub club: Option<String>,
}

/// A card number as a file gives it: trimmed, and `None` when empty.
fn trimmed_card<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    let card: Option<String> = Option::deserialize(d)?;
    Ok(card.map(|c| c.trim().to_string()).filter(|c| !c.is_empty()))
}

/// A registered pair.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PairFile {
    pub number: u32,
    /// Exactly two players (checked by validation).
    pub players: Vec<Player>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checked_in: Option<bool>,
    /// The pair no longer plays from this round on (it stays in the standings
    /// and counts as an entry for the prize pool once it played; withdrawn
    /// from round 1, before the start, it never played and is no entry).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub withdrawn_from_round: Option<u32>,
    /// Registered but never played (marked no-show, withdrawn before the
    /// start, or not checked in when the tournament started): not seated,
    /// not in the standings, not an entry (RULES.md §10).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_show: bool,
}

impl PairFile {
    /// Whether the pair is an entry (RULES.md §10): not a no-show and not
    /// withdrawn before round 1.
    pub fn is_entry(&self) -> bool {
        !self.no_show && self.withdrawn_from_round != Some(1)
    }
}

/// A table's score sheet: the sheet `burraco-td rules check-sheet` reads,
/// without `profile`/`hands_per_round` (they come from the tournament).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SheetFile {
    pub hands: Vec<Hand>,
    /// The totals the players wrote; the computed totals win when they differ.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declared: Option<PerLine<i64>>,
    /// `"totals"` for a sheet of hand totals only (each line's hand total in
    /// `melded_points`, or in `hand_points` when negative); absent when full.
    #[serde(default, skip_serializing_if = "SheetMode::is_full")]
    pub mode: SheetMode,
}

impl SheetFile {
    /// The sheet as the rules engine takes it.
    pub fn to_score_sheet(&self) -> ScoreSheet {
        ScoreSheet {
            hands: self.hands.clone(),
            declared: self.declared,
            mode: self.mode,
        }
    }
}

impl From<ScoreSheet> for SheetFile {
    fn from(s: ScoreSheet) -> SheetFile {
        SheetFile {
            hands: s.hands,
            declared: s.declared,
            mode: s.mode,
        }
    }
}

/// A referee's adjusted score (punteggio arbitrale, RULES.md §9): replaces
/// the sheet. VP need not add up to 20; an absent MP difference counts 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Adjusted {
    pub ns_vp: i64,
    pub ew_vp: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ns_mp_diff: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ew_mp_diff: Option<i64>,
}

/// One table of a round. `ns` is the fixed line, `ew` the moving line in
/// Mitchell rounds. At most one of `sheet`/`adjusted`; neither means the
/// table has not played yet (only in the last round).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TableFile {
    pub table: u32,
    pub ns: u32,
    pub ew: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sheet: Option<SheetFile>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adjusted: Option<Adjusted>,
}

/// One round: its tables and the pairs resting (byes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RoundFile {
    pub number: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub movement: Option<MovementKind>,
    pub tables: Vec<TableFile>,
    /// The pairs resting this round. JSON `bye`: `null` (none), a pair
    /// number (one, the usual case) or a list of pair numbers (several: a
    /// withdrawn pair's seat became a phantom). Written the same way.
    #[serde(rename = "bye", default, with = "bye_serde")]
    #[cfg_attr(feature = "openapi", schema(schema_with = bye_schema))]
    pub byes: Vec<u32>,
}

/// A penalty (RULES.md §9). `amount` is required (and positive) for `mp` and
/// `vp`, absent for `warning`. A withdrawn penalty keeps its record and counts
/// for nothing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PenaltyFile {
    pub round: u32,
    pub pair: u32,
    pub kind: PenaltyKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amount: Option<i64>,
    #[serde(default)]
    pub reason: String,
    #[serde(default, skip_serializing_if = "is_false")]
    pub withdrawn: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<u32>,
    /// Who gave it (referee or director).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<DateTime<Utc>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub withdrawn_by: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub withdrawn_at: Option<DateTime<Utc>>,
    /// Why it was withdrawn (RULES.md §9: a withdrawal gives its reason).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub withdrawn_reason: String,
}

pub(super) fn is_false(b: &bool) -> bool {
    !*b
}

pub(super) fn default_profile() -> String {
    DEFAULT_PROFILE.to_string()
}

pub(super) fn default_bye_vp() -> i64 {
    i64::from(crate::rules::vp::DEFAULT_BYE_VP)
}

/// A whole tournament: settings, pairs, rounds, penalties.
///
/// Required in JSON: `format`, `name`, `date`, `hands_per_round`,
/// `entry_fee`, `prize_share_percent`, `payout`, `pairs`, `rounds`.
/// Defaults when absent: `profile` `codice`, `bye_vp` 14, `guaranteed_pool`
/// 0, `penalties` empty; `vp_scale` absent means the preset of
/// `hands_per_round`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TournamentFile {
    /// Always `"burraco-td/tournament@1"`.
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub format: FormatTag,
    pub name: String,
    pub date: NaiveDate,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub venue: Option<String>,
    /// `"HH:MM"`.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "hhmm")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>))]
    pub start_time: Option<NaiveTime>,
    #[serde(default = "default_profile")]
    pub profile: String,
    pub hands_per_round: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minutes_per_round: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vp_scale: Option<Vec<i64>>,
    #[serde(default = "default_bye_vp")]
    pub bye_vp: i64,
    pub entry_fee: Decimal,
    pub prize_share_percent: Decimal,
    #[serde(default)]
    pub guaranteed_pool: Decimal,
    pub payout: Vec<PayoutTierFile>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub planned_rounds: Option<u32>,
    /// The planned movement of each round (round 1 first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub movements: Option<Vec<MovementKind>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mitchell_advance: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allow_repeats: Option<bool>,
    /// Suit order of the seat draw, e.g. `"HDCS"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suit_order: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw_seed: Option<u64>,
    /// How the tables enter their sheets: `"totals"` when hand totals only
    /// (absent: the whole card).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sheet_mode: Option<SheetMode>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<Status>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declared_closed_at: Option<DateTime<Utc>>,
    pub pairs: Vec<PairFile>,
    pub rounds: Vec<RoundFile>,
    #[serde(default)]
    pub penalties: Vec<PenaltyFile>,
}

impl TournamentFile {
    /// An empty tournament with the defaults (3 hands, preset scale, bye 14
    /// VP, no money, one scheme paying the winner).
    pub fn new(name: impl Into<String>, date: NaiveDate) -> TournamentFile {
        TournamentFile {
            format: FormatTag,
            name: name.into(),
            date,
            venue: None,
            start_time: None,
            profile: default_profile(),
            hands_per_round: 3,
            minutes_per_round: None,
            vp_scale: None,
            bye_vp: default_bye_vp(),
            entry_fee: Decimal::ZERO,
            prize_share_percent: Decimal::ZERO,
            guaranteed_pool: Decimal::ZERO,
            payout: vec![PayoutTierFile {
                min_entries: 1,
                scheme: vec![Decimal::ONE_HUNDRED],
            }],
            planned_rounds: None,
            movements: None,
            mitchell_advance: None,
            allow_repeats: None,
            suit_order: None,
            draw_seed: None,
            sheet_mode: None,
            status: None,
            declared_closed_at: None,
            pairs: Vec::new(),
            rounds: Vec::new(),
            penalties: Vec::new(),
        }
    }
}

/// `"HH:MM"` for an optional time of day.
pub(super) mod hhmm {
    use chrono::NaiveTime;
    use serde::{Deserialize, Deserializer, Serializer};

    const FMT: &str = "%H:%M";

    pub fn serialize<S: Serializer>(t: &Option<NaiveTime>, s: S) -> Result<S::Ok, S::Error> {
        match t {
            Some(t) => s.serialize_str(&t.format(FMT).to_string()),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<NaiveTime>, D::Error> {
        let text: Option<String> = Option::deserialize(d)?;
        match text {
            None => Ok(None),
            Some(text) => NaiveTime::parse_from_str(&text, FMT)
                .map(Some)
                .map_err(|_| {
                    serde::de::Error::custom(format_args!(
                        "`{}` is not a time HH:MM",
                        text.chars().take(16).collect::<String>()
                    ))
                }),
        }
    }
}

/// `bye`: null, a pair (or team) number or a list of them.
pub(super) mod bye_serde {
    use serde::de::{SeqAccess, Visitor};
    use serde::{Deserializer, Serializer};
    use std::fmt;

    pub fn serialize<S: Serializer>(byes: &[u32], s: S) -> Result<S::Ok, S::Error> {
        match byes {
            [] => s.serialize_none(),
            [one] => s.serialize_u32(*one),
            many => s.collect_seq(many.iter()),
        }
    }

    struct ByeVisitor;

    impl<'de> Visitor<'de> for ByeVisitor {
        type Value = Vec<u32>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a number, null or a list of numbers")
        }

        fn visit_unit<E: serde::de::Error>(self) -> Result<Vec<u32>, E> {
            Ok(Vec::new())
        }

        fn visit_none<E: serde::de::Error>(self) -> Result<Vec<u32>, E> {
            Ok(Vec::new())
        }

        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Vec<u32>, D::Error> {
            d.deserialize_any(ByeVisitor)
        }

        fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Vec<u32>, E> {
            u32::try_from(v)
                .map(|n| vec![n])
                .map_err(|_| E::invalid_value(serde::de::Unexpected::Unsigned(v), &self))
        }

        fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Vec<u32>, E> {
            u32::try_from(v)
                .map(|n| vec![n])
                .map_err(|_| E::invalid_value(serde::de::Unexpected::Signed(v), &self))
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<u32>, A::Error> {
            let mut out = Vec::new();
            while let Some(n) = seq.next_element::<u32>()? {
                out.push(n);
            }
            Ok(out)
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u32>, D::Error> {
        d.deserialize_any(ByeVisitor)
    }
}

/// `bye`'s schema: `null`, a pair number or a list of pair numbers.
#[cfg(feature = "openapi")]
fn bye_schema() -> utoipa::openapi::schema::Schema {
    use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, OneOfBuilder, Type};
    OneOfBuilder::new()
        .item(ObjectBuilder::new().schema_type(Type::Null))
        .item(
            ObjectBuilder::new()
                .schema_type(Type::Integer)
                .minimum(Some(1)),
        )
        .item(
            ArrayBuilder::new().items(
                ObjectBuilder::new()
                    .schema_type(Type::Integer)
                    .minimum(Some(1)),
            ),
        )
        .description(Some(
            "The pairs resting this round: null (none), a pair number (the usual case) or a list.",
        ))
        .build()
        .into()
}
