//! The score sheet (RULES.md §4): each hand's result per line as the players
//! write it, checked against the rules, scored, totalled and turned into VP.
//!
//! The checker never fixes a sheet: it computes what the numbers as written
//! are worth and lists every inconsistency (a [`Violation`] with a stable
//! code), for a referee to settle. Raw numbers stay `i64` so that a negative
//! entry is reported as `NEGATIVE_FIELD` rather than refused at parsing, and
//! all arithmetic saturates: no input can make the checker overflow or panic.

use super::profile::{BurracoType, RuleProfile};
use super::vp::VpScale;
use crate::i18n::{t, tf, Lang};
use serde::{Deserialize, Serialize, Serializer};
use std::fmt;

/// A line at the table: North–South or East–West.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum Line {
    Ns,
    Ew,
}

impl Line {
    pub const BOTH: [Line; 2] = [Line::Ns, Line::Ew];

    /// `ns` or `ew`.
    pub fn code(self) -> &'static str {
        match self {
            Line::Ns => "ns",
            Line::Ew => "ew",
        }
    }

    pub fn other(self) -> Line {
        match self {
            Line::Ns => Line::Ew,
            Line::Ew => Line::Ns,
        }
    }

    /// The line's short name in a language (`NS`, `EO` in Italian).
    pub fn label(self, lang: Lang) -> &'static str {
        t(lang, &format!("rules.line.{}", self.code()))
    }
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Line::Ns => "NS",
            Line::Ew => "EW",
        })
    }
}

/// A value for each line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PerLine<T> {
    pub ns: T,
    pub ew: T,
}

impl<T> PerLine<T> {
    pub fn get(&self, line: Line) -> &T {
        match line {
            Line::Ns => &self.ns,
            Line::Ew => &self.ew,
        }
    }
}

/// How a hand ended (RULES.md §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum HandEnd {
    /// Exactly one line closed; it gets the closing bonus.
    Closure,
    /// Two cards left in the stock; no closing bonus.
    StockExhausted,
    /// The time-out lap finished without a closing.
    TimeOut,
    /// Play no longer progresses (stallo).
    Stalemate,
}

impl HandEnd {
    pub fn code(self) -> &'static str {
        match self {
            HandEnd::Closure => "closure",
            HandEnd::StockExhausted => "stock_exhausted",
            HandEnd::TimeOut => "time_out",
            HandEnd::Stalemate => "stalemate",
        }
    }
}

/// One line's entries for one hand, as written on the sheet. Missing fields
/// are 0 / false. `hand_points` are the points of the cards left in hand
/// (an untaken-but-unplayed pozzetto included), written as a positive number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct LineHand {
    pub clean: i64,
    pub semi_clean: i64,
    pub dirty: i64,
    #[serde(rename = "super")]
    pub super_: i64,
    pub royal: i64,
    pub melded_points: i64,
    pub hand_points: i64,
    pub closed: bool,
    pub took_pozzetto: bool,
}

impl LineHand {
    /// The number of burrachi of a type written on the sheet.
    pub fn count(&self, t: BurracoType) -> i64 {
        match t {
            BurracoType::Royal => self.royal,
            BurracoType::Super => self.super_,
            BurracoType::Clean => self.clean,
            BurracoType::SemiClean => self.semi_clean,
            BurracoType::Dirty => self.dirty,
        }
    }

    /// Burrachi declared (negative counts ignored).
    pub fn burrachi(&self) -> i64 {
        BurracoType::ALL
            .iter()
            .fold(0i64, |acc, &t| acc.saturating_add(self.count(t).max(0)))
    }

    /// Every numeric field with its name, for the field checks.
    fn numeric_fields(&self) -> [(&'static str, i64); 7] {
        [
            ("clean", self.clean),
            ("semi_clean", self.semi_clean),
            ("dirty", self.dirty),
            ("super", self.super_),
            ("royal", self.royal),
            ("melded_points", self.melded_points),
            ("hand_points", self.hand_points),
        ]
    }
}

/// One hand of the round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Hand {
    pub end: HandEnd,
    pub ns: LineHand,
    pub ew: LineHand,
}

impl Hand {
    pub fn line(&self, line: Line) -> &LineHand {
        match line {
            Line::Ns => &self.ns,
            Line::Ew => &self.ew,
        }
    }
}

/// How a sheet was written: in full (every burraco, melded and in-hand
/// points, pozzetto, closer) or as per-hand totals only (see
/// [`super::totals`]): such a sheet carries each line's hand total in
/// `melded_points` (a negative total as `hand_points`), and the burraco
/// checks cannot be made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum SheetMode {
    #[default]
    Full,
    Totals,
}

impl SheetMode {
    /// `full` or `totals`.
    pub fn code(self) -> &'static str {
        match self {
            SheetMode::Full => "full",
            SheetMode::Totals => "totals",
        }
    }

    pub fn parse(text: &str) -> Option<SheetMode> {
        match text.trim() {
            "full" => Some(SheetMode::Full),
            "totals" => Some(SheetMode::Totals),
            _ => None,
        }
    }

    /// For serde: a full sheet writes no `mode`.
    pub fn is_full(&self) -> bool {
        *self == SheetMode::Full
    }
}

/// A round's score sheet: its hands and, optionally, the round totals the
/// players wrote.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ScoreSheet {
    pub hands: Vec<Hand>,
    #[serde(default)]
    pub declared: Option<PerLine<i64>>,
    /// `totals` for a sheet of hand totals only; absent for a full sheet.
    #[serde(default, skip_serializing_if = "SheetMode::is_full")]
    pub mode: SheetMode,
}

/// A line's score for one hand, broken down (RULES.md §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LineScore {
    /// Melded points − points left in hand.
    pub card_points: i64,
    /// Burraco bonuses.
    pub bonuses: i64,
    /// Closing bonus (0 or the profile's bonus).
    pub closing: i64,
    /// Pozzetto penalty (0 or minus the profile's penalty).
    pub pozzetto: i64,
    /// The sum of the four.
    pub total: i64,
}

/// The stable codes of RULES.md §4's consistency checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ViolationCode {
    NotMultipleOf5,
    NegativeField,
    ClosureWithoutCloser,
    TwoClosers,
    ClosedButNotClosure,
    ClosedWithoutBurraco,
    ClosedWithoutPozzetto,
    TypeNotInProfile,
    BurracoPointsTooLow,
    TooManyWildBurrachi,
    TooManyBurrachi,
    CardPointsExceedDeck,
    DeclaredTotalMismatch,
    TooManyHands,
    MissingHands,
    TimeOutNotLast,
    /// Totals mode: a line's hand total no hand can reach.
    HandTotalOutOfBounds,
    /// Totals mode: the closer's total is below what a closing line scores at least.
    CloserTotalTooLow,
}

impl ViolationCode {
    pub const ALL: [ViolationCode; 18] = [
        ViolationCode::NotMultipleOf5,
        ViolationCode::NegativeField,
        ViolationCode::ClosureWithoutCloser,
        ViolationCode::TwoClosers,
        ViolationCode::ClosedButNotClosure,
        ViolationCode::ClosedWithoutBurraco,
        ViolationCode::ClosedWithoutPozzetto,
        ViolationCode::TypeNotInProfile,
        ViolationCode::BurracoPointsTooLow,
        ViolationCode::TooManyWildBurrachi,
        ViolationCode::TooManyBurrachi,
        ViolationCode::CardPointsExceedDeck,
        ViolationCode::DeclaredTotalMismatch,
        ViolationCode::TooManyHands,
        ViolationCode::MissingHands,
        ViolationCode::TimeOutNotLast,
        ViolationCode::HandTotalOutOfBounds,
        ViolationCode::CloserTotalTooLow,
    ];

    /// The stable string (`NOT_MULTIPLE_OF_5`…).
    pub fn code(self) -> &'static str {
        match self {
            ViolationCode::NotMultipleOf5 => "NOT_MULTIPLE_OF_5",
            ViolationCode::NegativeField => "NEGATIVE_FIELD",
            ViolationCode::ClosureWithoutCloser => "CLOSURE_WITHOUT_CLOSER",
            ViolationCode::TwoClosers => "TWO_CLOSERS",
            ViolationCode::ClosedButNotClosure => "CLOSED_BUT_NOT_CLOSURE",
            ViolationCode::ClosedWithoutBurraco => "CLOSED_WITHOUT_BURRACO",
            ViolationCode::ClosedWithoutPozzetto => "CLOSED_WITHOUT_POZZETTO",
            ViolationCode::TypeNotInProfile => "TYPE_NOT_IN_PROFILE",
            ViolationCode::BurracoPointsTooLow => "BURRACO_POINTS_TOO_LOW",
            ViolationCode::TooManyWildBurrachi => "TOO_MANY_WILD_BURRACHI",
            ViolationCode::TooManyBurrachi => "TOO_MANY_BURRACHI",
            ViolationCode::CardPointsExceedDeck => "CARD_POINTS_EXCEED_DECK",
            ViolationCode::DeclaredTotalMismatch => "DECLARED_TOTAL_MISMATCH",
            ViolationCode::TooManyHands => "TOO_MANY_HANDS",
            ViolationCode::MissingHands => "MISSING_HANDS",
            ViolationCode::TimeOutNotLast => "TIME_OUT_NOT_LAST",
            ViolationCode::HandTotalOutOfBounds => "HAND_TOTAL_OUT_OF_BOUNDS",
            ViolationCode::CloserTotalTooLow => "CLOSER_TOTAL_TOO_LOW",
        }
    }

    pub fn catalog_key(self) -> String {
        format!("rules.violation.{}", self.code())
    }
}

impl fmt::Display for ViolationCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl Serialize for ViolationCode {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

/// A value filling a violation message's placeholder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Param {
    Int(i64),
    /// A sheet field name (`melded_points`…), shown translated.
    Field(&'static str),
    /// A burraco type, shown translated.
    Type(BurracoType),
}

impl Param {
    /// The value in words, for a message.
    pub fn render(&self, lang: Lang) -> String {
        match self {
            Param::Int(n) => n.to_string(),
            Param::Field(f) => t(lang, &format!("rules.field.{f}")).to_string(),
            Param::Type(ty) => t(lang, &ty.catalog_key()).to_string(),
        }
    }
}

impl Serialize for Param {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Param::Int(n) => s.serialize_i64(*n),
            Param::Field(f) => s.serialize_str(f),
            Param::Type(ty) => s.serialize_str(ty.code()),
        }
    }
}

/// One broken rule on a sheet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    pub code: ViolationCode,
    /// 1-based hand number; `None` when it concerns the whole sheet.
    pub hand: Option<usize>,
    /// `None` when it concerns both lines or the whole sheet.
    pub line: Option<Line>,
    /// Placeholder values of the message, by name.
    pub params: Vec<(&'static str, Param)>,
}

impl Violation {
    pub(crate) fn new(code: ViolationCode, hand: Option<usize>, line: Option<Line>) -> Violation {
        Violation {
            code,
            hand,
            line,
            params: Vec::new(),
        }
    }

    pub(crate) fn with(mut self, name: &'static str, value: Param) -> Violation {
        self.params.push((name, value));
        self
    }

    pub(crate) fn int(self, name: &'static str, value: i64) -> Violation {
        self.with(name, Param::Int(value))
    }

    /// A parameter by name.
    pub fn param(&self, name: &str) -> Option<&Param> {
        self.params.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
    }

    /// The violation in words, without where it is (shown where it is:
    /// beside a hand's line on the phone), from the catalog.
    pub fn body(&self, lang: Lang) -> String {
        let rendered: Vec<(&'static str, String)> = self
            .params
            .iter()
            .map(|(n, v)| (*n, v.render(lang)))
            .collect();
        let args: Vec<(&str, &dyn fmt::Display)> = rendered
            .iter()
            .map(|(n, v)| (*n, v as &dyn fmt::Display))
            .collect();
        tf(lang, &self.code.catalog_key(), &args)
    }

    /// The violation in words, with where it is (hand, line), from the catalog.
    pub fn message(&self, lang: Lang) -> String {
        let body = self.body(lang);
        let place = match (self.hand, self.line) {
            (Some(h), Some(l)) => Some(tf(
                lang,
                "rules.where.hand_line",
                &[("hand", &h), ("line", &l.label(lang))],
            )),
            (Some(h), None) => Some(tf(lang, "rules.where.hand", &[("hand", &h)])),
            (None, Some(l)) => Some(tf(lang, "rules.where.line", &[("line", &l.label(lang))])),
            (None, None) => None,
        };
        match place {
            Some(p) => format!("{p}: {body}"),
            None => body,
        }
    }
}

/// The checked and scored sheet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SheetReport {
    /// Per hand, each line's score.
    pub hands: Vec<PerLine<LineScore>>,
    /// Round MP per line (sum of the hands).
    pub totals: PerLine<i64>,
    /// Round VP per line, from the MP difference.
    pub vp: PerLine<u8>,
    /// Every broken rule, hands in order, then the whole sheet.
    pub violations: Vec<Violation>,
}

impl SheetReport {
    pub fn has_violations(&self) -> bool {
        !self.violations.is_empty()
    }

    /// True when there are violations and every one is a
    /// `DECLARED_TOTAL_MISMATCH` (the hands are consistent, only the totals
    /// the players wrote are wrong): a referee may accept the computed totals.
    pub fn only_declared_mismatch(&self) -> bool {
        self.has_violations()
            && self
                .violations
                .iter()
                .all(|v| v.code == ViolationCode::DeclaredTotalMismatch)
    }

    /// Whether a violation with this code was found.
    pub fn has(&self, code: ViolationCode) -> bool {
        self.violations.iter().any(|v| v.code == code)
    }
}

/// Scores one line's hand. `other` is the opposing line (time-out rule).
pub fn score_line(
    me: &LineHand,
    other: &LineHand,
    end: HandEnd,
    profile: &RuleProfile,
) -> LineScore {
    let card_points = me.melded_points.saturating_sub(me.hand_points);
    let bonuses = BurracoType::ALL.iter().fold(0i64, |acc, &t| {
        acc.saturating_add(me.count(t).saturating_mul(profile.bonus(t)))
    });
    let closing = if end == HandEnd::Closure && me.closed {
        profile.closing_bonus
    } else {
        0
    };
    // An untaken pozzetto costs the penalty, except at time-out when the
    // other line did not take its own either (RULES.md §4).
    let penalised = !me.took_pozzetto && (end != HandEnd::TimeOut || other.took_pozzetto);
    let pozzetto = if penalised {
        profile.pozzetto_penalty.saturating_neg()
    } else {
        0
    };
    let total = card_points
        .saturating_add(bonuses)
        .saturating_add(closing)
        .saturating_add(pozzetto);
    LineScore {
        card_points,
        bonuses,
        closing,
        pozzetto,
        total,
    }
}

/// Checks and scores a full sheet (hands in full) for a round of
/// `hands_per_round` hands; [`super::check::check`] sends a sheet here or to
/// [`super::totals`] by its mode.
pub fn check_full(
    sheet: &ScoreSheet,
    profile: &RuleProfile,
    hands_per_round: usize,
    vp_scale: &VpScale,
) -> SheetReport {
    let mut violations = Vec::new();
    let mut hands = Vec::with_capacity(sheet.hands.len());
    let mut totals = PerLine { ns: 0i64, ew: 0i64 };

    for (i, hand) in sheet.hands.iter().enumerate() {
        let number = i.saturating_add(1);
        check_hand(hand, number, profile, &mut violations);
        let ns = score_line(&hand.ns, &hand.ew, hand.end, profile);
        let ew = score_line(&hand.ew, &hand.ns, hand.end, profile);
        totals.ns = totals.ns.saturating_add(ns.total);
        totals.ew = totals.ew.saturating_add(ew.total);
        hands.push(PerLine { ns, ew });
    }

    let ends: Vec<HandEnd> = sheet.hands.iter().map(|h| h.end).collect();
    finish(
        &ends,
        hands,
        totals,
        sheet.declared.as_ref(),
        hands_per_round,
        vp_scale,
        violations,
    )
}

/// The checks of the whole round (time-out last, hand count, written
/// totals) and the VP, for a full sheet and a totals sheet alike.
pub(crate) fn finish(
    ends: &[HandEnd],
    hands: Vec<PerLine<LineScore>>,
    totals: PerLine<i64>,
    declared: Option<&PerLine<i64>>,
    hands_per_round: usize,
    vp_scale: &VpScale,
    mut violations: Vec<Violation>,
) -> SheetReport {
    // A time-out ends the round: no hand may follow it.
    let count = ends.len();
    for (i, end) in ends.iter().enumerate() {
        if *end == HandEnd::TimeOut && i.saturating_add(1) < count {
            violations.push(Violation::new(
                ViolationCode::TimeOutNotLast,
                Some(i.saturating_add(1)),
                None,
            ));
        }
    }
    let count_i = i64::try_from(count).unwrap_or(i64::MAX);
    let expected_i = i64::try_from(hands_per_round).unwrap_or(i64::MAX);
    if count > hands_per_round {
        violations.push(
            Violation::new(ViolationCode::TooManyHands, None, None)
                .int("count", count_i)
                .int("max", expected_i),
        );
    }
    let ended_by_time_out = ends.last().is_some_and(|e| *e == HandEnd::TimeOut);
    if count < hands_per_round && !ended_by_time_out {
        violations.push(
            Violation::new(ViolationCode::MissingHands, None, None)
                .int("count", count_i)
                .int("expected", expected_i),
        );
    }
    if let Some(declared) = declared {
        for line in Line::BOTH {
            let written = *declared.get(line);
            let computed = *totals.get(line);
            if written != computed {
                violations.push(
                    Violation::new(ViolationCode::DeclaredTotalMismatch, None, Some(line))
                        .int("declared", written)
                        .int("computed", computed),
                );
            }
        }
    }

    let (ns_vp, ew_vp) = vp_scale.vp_for_difference(totals.ns.saturating_sub(totals.ew));
    SheetReport {
        hands,
        totals,
        vp: PerLine {
            ns: ns_vp,
            ew: ew_vp,
        },
        violations,
    }
}

/// Every check of one hand (RULES.md §4 table), in a stable order.
fn check_hand(hand: &Hand, number: usize, profile: &RuleProfile, out: &mut Vec<Violation>) {
    let h = Some(number);
    for line in Line::BOTH {
        let lh = hand.line(line);
        let l = Some(line);
        for (field, value) in lh.numeric_fields() {
            if value < 0 {
                out.push(
                    Violation::new(ViolationCode::NegativeField, h, l)
                        .with("field", Param::Field(field))
                        .int("value", value),
                );
            }
        }
        for (field, value) in [
            ("melded_points", lh.melded_points),
            ("hand_points", lh.hand_points),
        ] {
            if profile.points_step > 0 && value % profile.points_step != 0 {
                out.push(
                    Violation::new(ViolationCode::NotMultipleOf5, h, l)
                        .with("field", Param::Field(field))
                        .int("value", value)
                        .int("step", profile.points_step),
                );
            }
        }
        if lh.closed {
            if hand.end != HandEnd::Closure {
                out.push(Violation::new(ViolationCode::ClosedButNotClosure, h, l));
            }
            if lh.burrachi() == 0 {
                out.push(Violation::new(ViolationCode::ClosedWithoutBurraco, h, l));
            }
            if !lh.took_pozzetto {
                out.push(Violation::new(ViolationCode::ClosedWithoutPozzetto, h, l));
            }
        }
        for ty in BurracoType::ALL {
            let n = lh.count(ty);
            if n > 0 && !profile.has_type(ty) {
                out.push(
                    Violation::new(ViolationCode::TypeNotInProfile, h, l)
                        .with("type", Param::Type(ty))
                        .int("count", n),
                );
            }
        }
        let minimum = BurracoType::ALL.iter().fold(0i64, |acc, &ty| {
            acc.saturating_add(
                lh.count(ty)
                    .max(0)
                    .saturating_mul(profile.rule(ty).min_points),
            )
        });
        if minimum > 0 && lh.melded_points < minimum {
            out.push(
                Violation::new(ViolationCode::BurracoPointsTooLow, h, l)
                    .int("melded", lh.melded_points)
                    .int("minimum", minimum),
            );
        }
    }

    if hand.end == HandEnd::Closure && !hand.ns.closed && !hand.ew.closed {
        out.push(Violation::new(ViolationCode::ClosureWithoutCloser, h, None));
    }
    if hand.ns.closed && hand.ew.closed {
        out.push(Violation::new(ViolationCode::TwoClosers, h, None));
    }

    let mut wild = 0i64;
    let mut cards = 0i64;
    let mut points = 0i64;
    for line in Line::BOTH {
        let lh = hand.line(line);
        for ty in BurracoType::ALL {
            let n = lh.count(ty).max(0);
            if profile.effective_type(ty).has_wild_card() {
                wild = wild.saturating_add(n);
            }
            cards = cards.saturating_add(n.saturating_mul(profile.rule(ty).min_cards));
        }
        points = points
            .saturating_add(lh.melded_points.max(0))
            .saturating_add(lh.hand_points.max(0));
    }
    if wild > profile.wild_cards {
        out.push(
            Violation::new(ViolationCode::TooManyWildBurrachi, h, None)
                .int("count", wild)
                .int("max", profile.wild_cards),
        );
    }
    if cards > profile.deck_cards {
        out.push(
            Violation::new(ViolationCode::TooManyBurrachi, h, None)
                .int("cards", cards)
                .int("max", profile.deck_cards),
        );
    }
    if points > profile.deck_points {
        out.push(
            Violation::new(ViolationCode::CardPointsExceedDeck, h, None)
                .int("points", points)
                .int("max", profile.deck_points),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::check::check;
    use crate::rules::profile::{CLASSIC, CODICE};
    use proptest::prelude::*;

    fn line(
        clean: i64,
        dirty: i64,
        melded: i64,
        in_hand: i64,
        closed: bool,
        took: bool,
    ) -> LineHand {
        LineHand {
            clean,
            dirty,
            melded_points: melded,
            hand_points: in_hand,
            closed,
            took_pozzetto: took,
            ..LineHand::default()
        }
    }

    /// The worked example's first hand: NS 545, EW −135.
    fn example_hand() -> Hand {
        Hand {
            end: HandEnd::Closure,
            ns: line(1, 0, 245, 0, true, true),
            ew: line(0, 0, 40, 75, false, false),
        }
    }

    fn quiet_hand() -> Hand {
        Hand {
            end: HandEnd::StockExhausted,
            ns: line(0, 1, 100, 20, false, true),
            ew: line(0, 0, 60, 10, false, true),
        }
    }

    /// A clean 3-hand sheet with no violations.
    fn good_sheet() -> ScoreSheet {
        ScoreSheet {
            hands: vec![example_hand(), quiet_hand(), quiet_hand()],
            declared: Some(PerLine {
                ns: 545 + 180 + 180,
                ew: -135 + 50 + 50,
            }),
            mode: SheetMode::Full,
        }
    }

    fn run(sheet: &ScoreSheet) -> SheetReport {
        check(sheet, &CODICE, 3, &VpScale::three_hands())
    }

    fn codes(sheet: &ScoreSheet) -> Vec<&'static str> {
        run(sheet)
            .violations
            .iter()
            .map(|v| v.code.code())
            .collect()
    }

    fn assert_has(sheet: &ScoreSheet, code: &str) -> Violation {
        let r = run(sheet);
        match r.violations.iter().find(|v| v.code.code() == code) {
            Some(v) => v.clone(),
            None => panic!("expected {code}, got {:?}", codes(sheet)),
        }
    }

    fn assert_lacks(sheet: &ScoreSheet, code: &str) {
        assert!(
            !codes(sheet).contains(&code),
            "unexpected {code}: {:?}",
            codes(sheet)
        );
    }

    /// A one-hand variant of the good sheet (hand 2 replaced).
    fn with_hand2(h: Hand) -> ScoreSheet {
        let mut s = good_sheet();
        s.hands[1] = h;
        s.declared = None;
        s
    }

    #[test]
    fn the_good_sheet_is_clean() {
        let r = run(&good_sheet());
        assert!(!r.has_violations(), "{:?}", r.violations);
        assert_eq!(r.totals, PerLine { ns: 905, ew: -35 });
        assert_eq!(r.vp, PerLine { ns: 17, ew: 3 });
    }

    #[test]
    fn worked_example_545_minus_135() {
        let sheet = ScoreSheet {
            hands: vec![example_hand()],
            declared: Some(PerLine { ns: 545, ew: -135 }),
            mode: SheetMode::Full,
        };
        let r = run(&sheet);
        let h = r.hands[0];
        assert_eq!(
            h.ns,
            LineScore {
                card_points: 245,
                bonuses: 200,
                closing: 100,
                pozzetto: 0,
                total: 545
            }
        );
        assert_eq!(
            h.ew,
            LineScore {
                card_points: -35,
                bonuses: 0,
                closing: 0,
                pozzetto: -100,
                total: -135
            }
        );
        assert_eq!(r.totals, PerLine { ns: 545, ew: -135 });
        assert_eq!(r.vp, PerLine { ns: 16, ew: 4 });
        assert_eq!(codes(&sheet), vec!["MISSING_HANDS"]);
        assert!(!r.only_declared_mismatch());
    }

    #[test]
    fn not_multiple_of_5() {
        let mut h = quiet_hand();
        h.ew.hand_points = 12;
        let v = assert_has(&with_hand2(h), "NOT_MULTIPLE_OF_5");
        assert_eq!((v.hand, v.line), (Some(2), Some(Line::Ew)));
        assert_eq!(v.param("field"), Some(&Param::Field("hand_points")));
        h.ew.hand_points = 15;
        assert_lacks(&with_hand2(h), "NOT_MULTIPLE_OF_5");
        h.ew.hand_points = -15; // negative, but a multiple of 5
        assert_lacks(&with_hand2(h), "NOT_MULTIPLE_OF_5");
    }

    #[test]
    fn negative_field() {
        let mut h = quiet_hand();
        h.ns.dirty = -1;
        let v = assert_has(&with_hand2(h), "NEGATIVE_FIELD");
        assert_eq!((v.hand, v.line), (Some(2), Some(Line::Ns)));
        assert_eq!(v.param("field"), Some(&Param::Field("dirty")));
        h.ns.dirty = 0;
        assert_lacks(&with_hand2(h), "NEGATIVE_FIELD");
        h.ns.melded_points = -5;
        assert_has(&with_hand2(h), "NEGATIVE_FIELD");
    }

    #[test]
    fn closure_without_closer() {
        let mut h = example_hand();
        h.ns.closed = false;
        let v = assert_has(&with_hand2(h), "CLOSURE_WITHOUT_CLOSER");
        assert_eq!((v.hand, v.line), (Some(2), None));
        h.ns.closed = true;
        assert_lacks(&with_hand2(h), "CLOSURE_WITHOUT_CLOSER");
    }

    #[test]
    fn two_closers() {
        let mut h = example_hand();
        h.ew = line(1, 0, 100, 0, true, true);
        let v = assert_has(&with_hand2(h), "TWO_CLOSERS");
        assert_eq!(v.line, None);
        h.ew.closed = false;
        assert_lacks(&with_hand2(h), "TWO_CLOSERS");
    }

    #[test]
    fn closed_but_not_closure() {
        let mut h = example_hand();
        h.end = HandEnd::StockExhausted;
        let v = assert_has(&with_hand2(h), "CLOSED_BUT_NOT_CLOSURE");
        assert_eq!(v.line, Some(Line::Ns));
        // No closing bonus outside a closure.
        assert_eq!(run(&with_hand2(h)).hands[1].ns.closing, 0);
        h.end = HandEnd::Closure;
        assert_lacks(&with_hand2(h), "CLOSED_BUT_NOT_CLOSURE");
    }

    #[test]
    fn closed_without_burraco() {
        let mut h = example_hand();
        h.ns.clean = 0;
        let v = assert_has(&with_hand2(h), "CLOSED_WITHOUT_BURRACO");
        assert_eq!(v.line, Some(Line::Ns));
        h.ns.dirty = 1;
        assert_lacks(&with_hand2(h), "CLOSED_WITHOUT_BURRACO");
    }

    #[test]
    fn closed_without_pozzetto() {
        let mut h = example_hand();
        h.ns.took_pozzetto = false;
        assert_has(&with_hand2(h), "CLOSED_WITHOUT_POZZETTO");
        h.ns.took_pozzetto = true;
        assert_lacks(&with_hand2(h), "CLOSED_WITHOUT_POZZETTO");
    }

    #[test]
    fn type_not_in_profile() {
        let mut h = quiet_hand();
        h.ns.royal = 1;
        h.ns.melded_points = 200;
        let sheet = with_hand2(h);
        let r = check(&sheet, &CLASSIC, 3, &VpScale::three_hands());
        let v = r
            .violations
            .iter()
            .find(|v| v.code == ViolationCode::TypeNotInProfile)
            .cloned()
            .unwrap();
        assert_eq!(v.param("type"), Some(&Param::Type(BurracoType::Royal)));
        // Counted as clean under `classic`: dirty 100 + clean 200.
        assert_eq!(r.hands[1].ns.bonuses, 300);
        // Under `codice` the same sheet is fine, and the royal is worth 300.
        assert_lacks(&sheet, "TYPE_NOT_IN_PROFILE");
        assert_eq!(run(&sheet).hands[1].ns.bonuses, 400);
        let mut h = quiet_hand();
        h.ns.super_ = 1;
        h.ns.melded_points = 200;
        let r = check(&with_hand2(h), &CLASSIC, 3, &VpScale::three_hands());
        assert!(r.has(ViolationCode::TypeNotInProfile));
    }

    #[test]
    fn burraco_points_too_low() {
        // One clean (35) + one dirty (50) need at least 85 melded points.
        let mut h = quiet_hand();
        h.ns.clean = 1;
        h.ns.melded_points = 80;
        let v = assert_has(&with_hand2(h), "BURRACO_POINTS_TOO_LOW");
        assert_eq!(v.param("minimum"), Some(&Param::Int(85)));
        h.ns.melded_points = 85;
        assert_lacks(&with_hand2(h), "BURRACO_POINTS_TOO_LOW");
        let mut h = quiet_hand();
        h.ns.dirty = 0;
        h.ns.royal = 1;
        h.ns.melded_points = 115;
        assert_has(&with_hand2(h), "BURRACO_POINTS_TOO_LOW");
        h.ns.melded_points = 120;
        assert_lacks(&with_hand2(h), "BURRACO_POINTS_TOO_LOW");
    }

    #[test]
    fn too_many_wild_burrachi() {
        let mut h = quiet_hand();
        h.ns.dirty = 7;
        h.ew.semi_clean = 6;
        h.ns.melded_points = 350;
        h.ew.melded_points = 330;
        let v = assert_has(&with_hand2(h), "TOO_MANY_WILD_BURRACHI");
        assert_eq!(v.param("count"), Some(&Param::Int(13)));
        h.ew.semi_clean = 5;
        h.ew.melded_points = 275;
        assert_lacks(&with_hand2(h), "TOO_MANY_WILD_BURRACHI");
    }

    #[test]
    fn too_many_burrachi() {
        // 8 royal (104 cards) + 1 clean (7) = 111 > 108.
        let mut h = quiet_hand();
        h.ns = line(1, 0, 155, 0, false, true);
        h.ns.royal = 4;
        h.ew = line(0, 0, 480, 0, false, true);
        h.ew.royal = 4;
        h.ns.melded_points = 515;
        let v = assert_has(&with_hand2(h), "TOO_MANY_BURRACHI");
        assert_eq!(v.param("cards"), Some(&Param::Int(111)));
        h.ns.clean = 0;
        h.ns.melded_points = 480;
        assert_lacks(&with_hand2(h), "TOO_MANY_BURRACHI");
    }

    #[test]
    fn card_points_exceed_deck() {
        let mut h = quiet_hand();
        h.ns.melded_points = 700;
        h.ew.melded_points = 360;
        h.ew.hand_points = 25;
        let v = assert_has(&with_hand2(h), "CARD_POINTS_EXCEED_DECK");
        assert_eq!(v.param("points"), Some(&Param::Int(1105)));
        h.ew.hand_points = 0;
        assert_lacks(&with_hand2(h), "CARD_POINTS_EXCEED_DECK");
    }

    #[test]
    fn declared_total_mismatch() {
        let mut s = good_sheet();
        s.declared = Some(PerLine { ns: 900, ew: -35 });
        let r = run(&s);
        let v = r
            .violations
            .iter()
            .find(|v| v.code == ViolationCode::DeclaredTotalMismatch)
            .unwrap();
        assert_eq!((v.hand, v.line), (None, Some(Line::Ns)));
        assert_eq!(v.param("declared"), Some(&Param::Int(900)));
        assert_eq!(v.param("computed"), Some(&Param::Int(905)));
        assert!(r.only_declared_mismatch());
        assert_eq!(r.violations.len(), 1);
        assert_lacks(&good_sheet(), "DECLARED_TOTAL_MISMATCH");
        s.declared = None;
        assert_lacks(&s, "DECLARED_TOTAL_MISMATCH");
    }

    #[test]
    fn too_many_hands() {
        let mut s = good_sheet();
        s.declared = None;
        s.hands.push(quiet_hand());
        let v = assert_has(&s, "TOO_MANY_HANDS");
        assert_eq!(v.param("count"), Some(&Param::Int(4)));
        assert_lacks(&good_sheet(), "TOO_MANY_HANDS");
        assert!(!check(&s, &CODICE, 4, &VpScale::four_hands()).has_violations());
    }

    #[test]
    fn missing_hands() {
        let mut s = good_sheet();
        s.declared = None;
        s.hands.pop();
        assert_has(&s, "MISSING_HANDS");
        // Ended by time-out: fewer hands are fine.
        s.hands[1].end = HandEnd::TimeOut;
        assert_lacks(&s, "MISSING_HANDS");
        assert!(!run(&s).has_violations(), "{:?}", codes(&s));
        assert_has(&ScoreSheet::default(), "MISSING_HANDS");
    }

    #[test]
    fn time_out_not_last() {
        let mut s = good_sheet();
        s.declared = None;
        s.hands[1].end = HandEnd::TimeOut;
        let v = assert_has(&s, "TIME_OUT_NOT_LAST");
        assert_eq!(v.hand, Some(2));
        s.hands[1].end = HandEnd::StockExhausted;
        s.hands[2].end = HandEnd::TimeOut;
        assert_lacks(&s, "TIME_OUT_NOT_LAST");
    }

    #[test]
    fn time_out_pozzetto_rule() {
        let mut h = quiet_hand();
        h.end = HandEnd::TimeOut;
        h.ns.took_pozzetto = false;
        h.ew.took_pozzetto = false;
        let s = ScoreSheet {
            hands: vec![h],
            declared: None,
            mode: SheetMode::Full,
        };
        let r = run(&s);
        assert_eq!((r.hands[0].ns.pozzetto, r.hands[0].ew.pozzetto), (0, 0));
        let mut s2 = s.clone();
        s2.hands[0].ew.took_pozzetto = true;
        let r = run(&s2);
        assert_eq!((r.hands[0].ns.pozzetto, r.hands[0].ew.pozzetto), (-100, 0));
        // Outside a time-out, an untaken pozzetto always costs 100.
        let mut s3 = s.clone();
        s3.hands[0].end = HandEnd::Stalemate;
        let r = run(&s3);
        assert_eq!(
            (r.hands[0].ns.pozzetto, r.hands[0].ew.pozzetto),
            (-100, -100)
        );
    }

    #[test]
    fn every_code_has_both_messages() {
        for code in ViolationCode::ALL {
            for lang in Lang::ALL {
                let v = Violation::new(code, Some(2), Some(Line::Ew))
                    .with("field", Param::Field("melded_points"))
                    .with("type", Param::Type(BurracoType::Royal));
                let text = v.message(lang);
                assert!(!text.contains("rules."), "{code} {lang}: {text}");
            }
        }
        let v = Violation::new(ViolationCode::NotMultipleOf5, Some(2), Some(Line::Ew))
            .with("field", Param::Field("melded_points"))
            .int("value", 12)
            .int("step", 5);
        let it = v.message(Lang::It);
        assert!(
            it.contains("EO") && it.contains("12") && it.contains('2'),
            "{it}"
        );
        assert!(!it.contains('{'), "{it}");
    }

    #[test]
    fn sheet_json_defaults() {
        let s: ScoreSheet = serde_json::from_str(
            r#"{"hands":[{"end":"time_out","ns":{"melded_points":10},"ew":{}}]}"#,
        )
        .unwrap();
        assert_eq!(s.hands[0].ns.melded_points, 10);
        assert_eq!(s.hands[0].ew, LineHand::default());
        assert_eq!(s.declared, None);
    }

    fn any_line(range: std::ops::RangeInclusive<i64>) -> impl Strategy<Value = LineHand> {
        (prop::array::uniform7(range), any::<bool>(), any::<bool>()).prop_map(
            |(n, closed, took)| LineHand {
                clean: n[0],
                semi_clean: n[1],
                dirty: n[2],
                super_: n[3],
                royal: n[4],
                melded_points: n[5],
                hand_points: n[6],
                closed,
                took_pozzetto: took,
            },
        )
    }

    fn any_end() -> impl Strategy<Value = HandEnd> {
        prop_oneof![
            Just(HandEnd::Closure),
            Just(HandEnd::StockExhausted),
            Just(HandEnd::TimeOut),
            Just(HandEnd::Stalemate)
        ]
    }

    fn any_sheet(range: std::ops::RangeInclusive<i64>) -> impl Strategy<Value = ScoreSheet> {
        (
            prop::collection::vec(
                (any_end(), any_line(range.clone()), any_line(range.clone()))
                    .prop_map(|(end, ns, ew)| Hand { end, ns, ew }),
                0..6,
            ),
            prop::option::of((range.clone(), range)),
        )
            .prop_map(|(hands, d)| ScoreSheet {
                hands,
                declared: d.map(|(ns, ew)| PerLine { ns, ew }),
                mode: SheetMode::Full,
            })
    }

    proptest! {
        #[test]
        fn no_sheet_makes_the_engine_panic(sheet in any_sheet(i64::MIN..=i64::MAX), hpr in 0usize..8) {
            for profile in [&CODICE, &CLASSIC] {
                let r = check(&sheet, profile, hpr, &VpScale::three_hands());
                prop_assert_eq!(r.vp.ns + r.vp.ew, 20);
                for v in &r.violations {
                    let _ = v.message(Lang::It);
                }
            }
        }

        #[test]
        fn hand_totals_are_the_sum_of_their_parts(sheet in any_sheet(-50..=2000)) {
            let r = run(&sheet);
            let (mut ns, mut ew) = (0i64, 0i64);
            for (hand, score) in sheet.hands.iter().zip(&r.hands) {
                for l in Line::BOTH {
                    let s = score.get(l);
                    let lh = hand.line(l);
                    prop_assert_eq!(s.total, s.card_points + s.bonuses + s.closing + s.pozzetto);
                    prop_assert_eq!(s.card_points, lh.melded_points - lh.hand_points);
                    let b: i64 = BurracoType::ALL.iter().map(|&t| lh.count(t) * CODICE.bonus(t)).sum();
                    prop_assert_eq!(s.bonuses, b);
                    prop_assert!(s.closing == 0 || (lh.closed && hand.end == HandEnd::Closure));
                }
                ns += score.ns.total;
                ew += score.ew.total;
            }
            prop_assert_eq!(r.totals, PerLine { ns, ew });
            let (a, b) = VpScale::three_hands().vp_for_difference(ns - ew);
            prop_assert_eq!(r.vp, PerLine { ns: a, ew: b });
        }
    }

    /// Micro-benchmark: `cargo test --release -- --ignored --nocapture bench_`.
    #[test]
    #[ignore]
    fn bench_check_sheets() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let mut sheets = Vec::with_capacity(200_000);
        for _ in 0..200_000 {
            let hands = (0..3)
                .map(|_| {
                    let mut side = || LineHand {
                        clean: rng.gen_range(0..3),
                        semi_clean: rng.gen_range(0..2),
                        dirty: rng.gen_range(0..3),
                        super_: rng.gen_range(0..2),
                        royal: 0,
                        melded_points: rng.gen_range(0..100) * 5,
                        hand_points: rng.gen_range(0..30) * 5,
                        closed: rng.gen_bool(0.3),
                        took_pozzetto: rng.gen_bool(0.8),
                    };
                    let ns = side();
                    let ew = side();
                    Hand {
                        end: if ns.closed || ew.closed {
                            HandEnd::Closure
                        } else {
                            HandEnd::StockExhausted
                        },
                        ns,
                        ew,
                    }
                })
                .collect();
            sheets.push(ScoreSheet {
                hands,
                declared: Some(PerLine {
                    ns: rng.gen_range(-50..300) * 5,
                    ew: 0,
                }),
                mode: SheetMode::Full,
            });
        }
        let scale = VpScale::three_hands();
        let start = std::time::Instant::now();
        let mut violations = 0usize;
        for s in &sheets {
            violations += std::hint::black_box(check(s, &CODICE, 3, &scale))
                .violations
                .len();
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "bench_check_sheets: {} sheets in {:.3} s = {:.0} sheets/s ({} violations)",
            sheets.len(),
            secs,
            sheets.len() as f64 / secs,
            violations
        );
    }
}
