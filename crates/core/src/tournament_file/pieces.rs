//! The pieces every kind of tournament file shares (FORMAT.md): the
//! `format` tag, status, penalty kinds, payout tiers, players, score
//! sheets, adjusted scores, the defaults, and the `bye` and `HH:MM`
//! encodings. The shapes that put them together are `skeleton.rs`.

use crate::rules::score_sheet::{Hand, PerLine, ScoreSheet, SheetMode};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The one format this module reads and writes.
pub const FORMAT: &str = "burraco-td/tournament@1";

/// Default rule profile when the file does not say.
pub const DEFAULT_PROFILE: &str = "codice";

/// A tag that is always the same text (`format`): writing gives `$text`,
/// reading any other text is an error naming the field. One definition for
/// every file format (tournaments, circuits).
macro_rules! fixed_tag {
    ($(#[$meta:meta])* $Tag:ident = $text:expr) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
        pub struct $Tag;

        impl serde::Serialize for $Tag {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str($text)
            }
        }

        impl<'de> serde::Deserialize<'de> for $Tag {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<$Tag, D::Error> {
                let text = <String as serde::Deserialize>::deserialize(d)?;
                if text == $text {
                    Ok($Tag)
                } else {
                    Err(serde::de::Error::custom(format_args!(
                        "unknown format `{}`, expected `{}`",
                        text.chars().take(64).collect::<String>(),
                        $text
                    )))
                }
            }
        }
    };
}
pub(crate) use fixed_tag;

fixed_tag! {
    /// The `format` tag: always [`FORMAT`]; reading any other value is an
    /// error naming `format`.
    FormatTag = FORMAT
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

pub(crate) fn is_false(b: &bool) -> bool {
    !*b
}

pub(crate) fn default_profile() -> String {
    DEFAULT_PROFILE.to_string()
}

pub(crate) fn default_bye_vp() -> i64 {
    i64::from(crate::rules::vp::DEFAULT_BYE_VP)
}

/// `"HH:MM"` for an optional time of day.
pub(crate) mod hhmm {
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
pub(crate) mod bye_serde {
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

/// `bye` of an individual tournament (FORMAT.md "Individual tournaments"):
/// read as [`bye_serde`] reads it (null, a number or a list), always written
/// as a list (`[]` when nobody rests).
pub(crate) mod bye_list {
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(byes: &[u32], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(byes.iter())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u32>, D::Error> {
        super::bye_serde::deserialize(d)
    }
}

/// `bye`'s schema: `null`, a pair number or a list of pair numbers.
#[cfg(feature = "openapi")]
pub(crate) fn bye_schema() -> utoipa::openapi::schema::Schema {
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
