//! The JSON contract shared by the CLI and the HTTP API.
//!
//! Every entry point takes the input (a JSON text, or already-split values)
//! and a language for messages, and returns an output that serializes to the
//! documented JSON, or an [`InputError`] when the input cannot be read.
//!
//! Exit codes for the CLI: 0 valid, 1 valid input that breaks a rule
//! ([`CheckSheetOutput::is_rule_break`], [`MeldOutput::is_rule_break`]),
//! 2 unreadable input ([`InputError::exit_code`]). HTTP: 200 for any output
//! (a sheet with violations is a successful check), [`InputError::http_status`]
//! otherwise: 400 for unreadable JSON, 422 for well-formed input with a bad value.
//!
//! Unknown JSON fields are ignored.

use super::cards::{parse_cards, Card, CardParseError};
use super::check::check;
use super::meld::{read_meld, MeldKind};
use super::prize_pool::{compute, PayoutTier, PrizeError, PrizeInput, MAX_ENTRIES};
use super::profile::{BurracoType, RuleProfile};
use super::score_sheet::{Hand, Line, LineScore, PerLine, ScoreSheet, SheetReport, ViolationCode};
use super::seat_draw::{seat_draw as draw_seats, SeatDraw, SuitOrder};
use super::vp::{ScaleError, VpScale};
use crate::i18n::{t, tf, Lang};
use rust_decimal::Decimal;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Default hands per round when a sheet does not say.
pub const DEFAULT_HANDS_PER_ROUND: u32 = 3;

/// Input that cannot be used. `code` is stable snake_case: `invalid_json`,
/// `invalid_field`, `invalid_card`, `invalid_profile`, `invalid_scale`,
/// `invalid_suit_order`, `invalid_scheme`, `invalid_places`, `invalid_amount`.
/// `message` is in the requested language and names the field path or the
/// bad token.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct InputError {
    pub code: &'static str,
    pub message: String,
}

impl InputError {
    /// 400 when the JSON itself is unreadable, 422 for a bad value.
    pub fn http_status(&self) -> u16 {
        if self.code == "invalid_json" {
            400
        } else {
            422
        }
    }

    /// CLI exit code for unreadable input: 2.
    pub fn exit_code(&self) -> i32 {
        2
    }

    fn new(
        code: &'static str,
        lang: Lang,
        key: &str,
        params: &[(&'static str, String)],
    ) -> InputError {
        let args: Vec<(&str, &dyn fmt::Display)> = params
            .iter()
            .map(|(k, v)| (*k, v as &dyn fmt::Display))
            .collect();
        InputError {
            code,
            message: tf(lang, key, &args),
        }
    }

    fn card(e: &CardParseError, lang: Lang) -> InputError {
        InputError::new(
            "invalid_card",
            lang,
            "rules.input.invalid_card",
            &[("token", e.token.clone())],
        )
    }

    fn scale(e: &ScaleError, field: &str, lang: Lang) -> InputError {
        let (key, mut params) = e.catalog();
        params.push(("field", field.to_string()));
        InputError::new("invalid_scale", lang, key, &params)
    }

    fn prize(e: &PrizeError, lang: Lang) -> InputError {
        let (key, params) = prize_catalog(e, lang);
        InputError::new(e.code(), lang, &key, &params)
    }

    fn profile(name: &str, lang: Lang) -> InputError {
        InputError::new(
            "invalid_profile",
            lang,
            "rules.input.invalid_profile",
            &[
                ("name", name.chars().take(32).collect()),
                ("known", RuleProfile::names().join(", ")),
            ],
        )
    }
}

/// Reads JSON into `T`; errors name the field path (`hands[0].ns.melded_points`).
pub fn parse_json<T: DeserializeOwned>(json: &str, lang: Lang) -> Result<T, InputError> {
    let mut de = serde_json::Deserializer::from_str(json);
    let value: Result<T, _> = serde_path_to_error::deserialize(&mut de);
    match value {
        Ok(v) => match de.end() {
            Ok(()) => Ok(v),
            Err(e) => Err(InputError::new(
                "invalid_json",
                lang,
                "rules.input.invalid_json",
                &[("detail", e.to_string())],
            )),
        },
        Err(e) => {
            let path = e.path().to_string();
            let inner = e.into_inner();
            let data = inner.classify() == serde_json::error::Category::Data;
            if data && path != "." {
                Err(InputError::new(
                    "invalid_field",
                    lang,
                    "rules.input.invalid_field",
                    &[("path", path), ("detail", inner.to_string())],
                ))
            } else if data {
                Err(InputError::new(
                    "invalid_field",
                    lang,
                    "rules.input.invalid_value",
                    &[("detail", inner.to_string())],
                ))
            } else {
                Err(InputError::new(
                    "invalid_json",
                    lang,
                    "rules.input.invalid_json",
                    &[("detail", inner.to_string())],
                ))
            }
        }
    }
}

/// A prize error in plain words.
pub fn prize_error_message(e: &PrizeError, lang: Lang) -> String {
    let (key, params) = prize_catalog(e, lang);
    let args: Vec<(&str, &dyn std::fmt::Display)> = params
        .iter()
        .map(|(k, v)| (*k, v as &dyn std::fmt::Display))
        .collect();
    tf(lang, &key, &args)
}

/// Catalog key and values of a prize error; a scheme is named "the payout
/// scheme" when it is the only one (`min_entries` 0), else "the payout scheme
/// from N entries".
fn prize_catalog(e: &PrizeError, lang: Lang) -> (String, Vec<(&'static str, String)>) {
    let (kind, mut params) = e.catalog();
    let names_scheme = matches!(
        kind,
        "empty_scheme" | "percent_not_positive" | "percent_too_precise" | "scheme_not_hundred"
    );
    if names_scheme {
        if let Some(pos) = params.iter().position(|(k, _)| *k == "min_entries") {
            let (_, n) = params.remove(pos);
            let scheme = if n == "0" {
                t(lang, "rules.input.prize.the_scheme").to_string()
            } else {
                tf(
                    lang,
                    "rules.input.prize.the_scheme_from",
                    &[("min_entries", &n)],
                )
            };
            params.push(("scheme", scheme));
        }
    }
    (format!("rules.input.prize.{kind}"), params)
}

fn profile_named(name: Option<&str>, lang: Lang) -> Result<&'static RuleProfile, InputError> {
    match name {
        None => Ok(RuleProfile::default_profile()),
        Some(n) => RuleProfile::by_name(n).ok_or_else(|| InputError::profile(n, lang)),
    }
}

/// The scale for `hands` hands: the one given, else the preset.
fn scale_for(
    hands: u32,
    given: Option<Vec<i64>>,
    field: &str,
    lang: Lang,
) -> Result<VpScale, InputError> {
    match given {
        Some(bounds) => VpScale::parse(bounds).map_err(|e| InputError::scale(&e, field, lang)),
        None => VpScale::preset(hands).ok_or_else(|| {
            InputError::new(
                "invalid_scale",
                lang,
                "rules.input.no_preset_scale",
                &[("hands", hands.to_string()), ("field", field.to_string())],
            )
        }),
    }
}

// ---------------------------------------------------------------- sheets --

/// The body of a sheet check. `profile` (default `codice`),
/// `hands_per_round` (default 3), `declared` and `vp_scale` (needed when
/// hands_per_round is not 3 or 4; when given it replaces the preset) are
/// optional.
#[derive(Debug, Clone, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CheckSheetInput {
    #[serde(default)]
    pub profile: Option<String>,
    #[serde(default)]
    pub hands_per_round: Option<u32>,
    pub hands: Vec<Hand>,
    #[serde(default)]
    pub declared: Option<PerLine<i64>>,
    #[serde(default)]
    pub vp_scale: Option<Vec<i64>>,
}

/// One violation, ready for JSON.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ViolationOutput {
    pub code: &'static str,
    /// 1-based; null for the whole sheet.
    pub hand: Option<usize>,
    /// `ns`/`ew`; null for both lines or the whole sheet.
    pub line: Option<Line>,
    pub message: String,
    /// The message's values by name (numbers, field names, burraco types).
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub params: serde_json::Map<String, serde_json::Value>,
}

/// The result of a sheet check.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CheckSheetOutput {
    pub profile: &'static str,
    pub hands_per_round: u32,
    /// Per hand, each line's breakdown: card_points, bonuses, closing, pozzetto, total.
    pub hands: Vec<PerLine<LineScore>>,
    pub totals: PerLine<i64>,
    pub vp: PerLine<u8>,
    pub violations: Vec<ViolationOutput>,
    /// The typed report, for callers that store it.
    #[serde(skip)]
    pub report: SheetReport,
}

impl CheckSheetOutput {
    /// Builds the output of a report already computed (web forms).
    pub fn from_report(
        report: SheetReport,
        profile: &RuleProfile,
        hands_per_round: u32,
        lang: Lang,
    ) -> CheckSheetOutput {
        let violations = report
            .violations
            .iter()
            .map(|v| ViolationOutput {
                code: v.code.code(),
                hand: v.hand,
                line: v.line,
                message: v.message(lang),
                params: v
                    .params
                    .iter()
                    .map(|(k, p)| {
                        (
                            k.to_string(),
                            serde_json::to_value(p).unwrap_or(serde_json::Value::Null),
                        )
                    })
                    .collect(),
            })
            .collect();
        CheckSheetOutput {
            profile: profile.name,
            hands_per_round,
            hands: report.hands.clone(),
            totals: report.totals,
            vp: report.vp,
            violations,
            report,
        }
    }

    /// The sheet breaks a rule (CLI exit code 1).
    pub fn is_rule_break(&self) -> bool {
        self.report.has_violations()
    }

    /// The only problems are totals written wrong (a referee may accept the
    /// computed ones).
    pub fn only_declared_mismatch(&self) -> bool {
        self.report.only_declared_mismatch()
    }

    /// 0 valid, 1 rule broken.
    pub fn exit_code(&self) -> i32 {
        i32::from(self.is_rule_break())
    }
}

/// Checks a sheet given as JSON (see [`CheckSheetInput`]).
pub fn check_sheet(json: &str, lang: Lang) -> Result<CheckSheetOutput, InputError> {
    let input: CheckSheetInput = parse_json(json, lang)?;
    check_sheet_input(input, lang)
}

/// Checks a sheet already parsed.
pub fn check_sheet_input(
    input: CheckSheetInput,
    lang: Lang,
) -> Result<CheckSheetOutput, InputError> {
    let profile = profile_named(input.profile.as_deref(), lang)?;
    let hands_per_round = input.hands_per_round.unwrap_or(DEFAULT_HANDS_PER_ROUND);
    if hands_per_round == 0 {
        return Err(InputError::new(
            "invalid_field",
            lang,
            "rules.input.hands_per_round_zero",
            &[],
        ));
    }
    let scale = scale_for(hands_per_round, input.vp_scale, "vp_scale", lang)?;
    let sheet = ScoreSheet {
        hands: input.hands,
        declared: input.declared,
        mode: crate::rules::score_sheet::SheetMode::Full,
    };
    let hpr = usize::try_from(hands_per_round).unwrap_or(usize::MAX);
    let report = check(&sheet, profile, hpr, &scale);
    Ok(CheckSheetOutput::from_report(
        report,
        profile,
        hands_per_round,
        lang,
    ))
}

// ----------------------------------------------------------------- melds --

/// A meld reading: `{"valid":true,"kind":"sequence","cards":7,"points":65,"burraco":"clean"}`
/// (`burraco` null below 7 cards) or `{"valid":false,"reason":"…","reason_code":"…"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(untagged)]
pub enum MeldOutput {
    Valid {
        valid: bool,
        kind: MeldKind,
        cards: usize,
        points: i64,
        burraco: Option<BurracoType>,
    },
    Invalid {
        valid: bool,
        reason: String,
        reason_code: &'static str,
    },
}

impl MeldOutput {
    /// Not a valid meld (CLI exit code 1).
    pub fn is_rule_break(&self) -> bool {
        matches!(self, MeldOutput::Invalid { .. })
    }

    pub fn exit_code(&self) -> i32 {
        i32::from(self.is_rule_break())
    }
}

/// Reads cards in notation as a meld under the named profile.
pub fn meld(cards: &[String], profile: &str, lang: Lang) -> Result<MeldOutput, InputError> {
    let profile = profile_named(Some(profile), lang)?;
    let cards: Vec<Card> = parse_cards(cards).map_err(|e| InputError::card(&e, lang))?;
    Ok(match read_meld(&cards, profile) {
        Ok(r) => MeldOutput::Valid {
            valid: true,
            kind: r.kind,
            cards: r.cards,
            points: r.points,
            burraco: r.burraco,
        },
        Err(reason) => MeldOutput::Invalid {
            valid: false,
            reason: reason.message(lang),
            reason_code: reason.code(),
        },
    })
}

/// `readMeld`'s body: cards in notation (`7H`, `10S`, `JK` for a joker…)
/// and an optional rule profile.
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MeldBody {
    pub cards: Vec<String>,
    #[serde(default)]
    pub profile: Option<String>,
}

/// `{"cards":["7H","8H"],"profile":"codice"}` (profile optional).
pub fn meld_json(json: &str, lang: Lang) -> Result<MeldOutput, InputError> {
    let body: MeldBody = parse_json(json, lang)?;
    let profile = body
        .profile
        .unwrap_or_else(|| RuleProfile::default_profile().name.to_string());
    meld(&body.cards, &profile, lang)
}

// -------------------------------------------------------------------- VP --

/// `{"vp":[5,15]}`: first the side whose difference was given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VpOutput {
    pub vp: [u8; 2],
}

/// VP for an MP difference with the preset scale for `hands` (3 or 4), or
/// with `scale` when given.
pub fn vp(
    hands: u32,
    difference: i64,
    scale: Option<Vec<i64>>,
    lang: Lang,
) -> Result<VpOutput, InputError> {
    let scale = scale_for(hands, scale, "scale", lang)?;
    let (a, b) = scale.vp_for_difference(difference);
    Ok(VpOutput { vp: [a, b] })
}

/// `convertVp`'s body: the MP difference, the hands per round (default 3)
/// and an optional VP scale (its band bounds).
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VpBody {
    #[serde(default)]
    pub hands: Option<u32>,
    pub difference: i64,
    #[serde(default)]
    pub scale: Option<Vec<i64>>,
}

/// `{"hands":3,"difference":-560}` (hands default 3; optional `scale`).
pub fn vp_json(json: &str, lang: Lang) -> Result<VpOutput, InputError> {
    let body: VpBody = parse_json(json, lang)?;
    vp(
        body.hands.unwrap_or(DEFAULT_HANDS_PER_ROUND),
        body.difference,
        body.scale,
        lang,
    )
}

// ------------------------------------------------------------- seat draw --

/// `{"chooser":4,"dealer":1}` or `{"redraw":[1,3]}`. A redraw is not a rule
/// break (exit code 0).
pub type SeatDrawOutput = SeatDraw;

/// The seat draw from four cards (players 1–4; 1 and 2 are one pair) and an
/// optional suit order (`HDCS` when absent).
pub fn seat_draw(
    cards: &[String],
    suit_order: Option<&str>,
    lang: Lang,
) -> Result<SeatDrawOutput, InputError> {
    let order = match suit_order {
        None => SuitOrder::default(),
        Some(text) => SuitOrder::parse(text).map_err(|e| {
            InputError::new(
                "invalid_suit_order",
                lang,
                "rules.input.invalid_suit_order",
                &[("text", e.text)],
            )
        })?,
    };
    // Each card as referees write it: notation (`10H`), symbols (`10♥`) or
    // words in Italian or English (`10 di cuori`, `king of spades`, `jolly`).
    let parsed: Vec<Card> = cards
        .iter()
        .map(|c| super::parse_spoken_card(c))
        .collect::<Result<_, _>>()
        .map_err(|e| InputError::card(&e, lang))?;
    let four: [Card; 4] = parsed.try_into().map_err(|v: Vec<Card>| {
        InputError::new(
            "invalid_field",
            lang,
            "rules.input.seat_draw_count",
            &[("count", v.len().to_string())],
        )
    })?;
    Ok(draw_seats(four, order))
}

/// `seatDraw`'s body: the four cards drawn (players 1–4) and an optional
/// suit order (`HDCS` when absent).
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SeatDrawBody {
    pub cards: Vec<String>,
    #[serde(default)]
    pub suit_order: Option<String>,
}

/// `{"cards":["10H","KS","10D","JK"],"suit_order":"HDCS"}` (suit order optional).
pub fn seat_draw_json(json: &str, lang: Lang) -> Result<SeatDrawOutput, InputError> {
    let body: SeatDrawBody = parse_json(json, lang)?;
    seat_draw(&body.cards, body.suit_order.as_deref(), lang)
}

// ---------------------------------------------------------------- prizes --

/// One payout tier: from `min_entries` entries, the percentages per place.
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TierBody {
    pub min_entries: u32,
    pub scheme: Vec<Decimal>,
}

/// Amounts and percentages are decimal strings ("20.00") or JSON numbers.
/// `guaranteed_pool` defaults to 0; `places` defaults to 1, 2, 3… (no ties);
/// give `scheme` or `payout` (a list of `{min_entries, scheme}`), not both.
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PrizesBody {
    pub entries: u32,
    pub entry_fee: Decimal,
    pub prize_share_percent: Decimal,
    #[serde(default)]
    pub guaranteed_pool: Option<Decimal>,
    #[serde(default)]
    pub scheme: Option<Vec<Decimal>>,
    #[serde(default)]
    pub payout: Option<Vec<TierBody>>,
    #[serde(default)]
    pub places: Option<Vec<u32>>,
}

/// `{"pool":"336.00","organiser_fee":"144.00","prizes":[…],"per_player":[["84.00","84.00"],…]}`:
/// amounts as strings with two decimals, one prize per entry in the order of
/// `places`. `organiser_fee` is negative when a guarantee tops the pool up.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PrizesOutput {
    pub pool: String,
    pub organiser_fee: String,
    pub scheme: Vec<String>,
    pub prizes: Vec<String>,
    pub per_player: Vec<[String; 2]>,
}

/// Computes prizes from typed input.
pub fn prizes(input: &PrizeInput, lang: Lang) -> Result<PrizesOutput, InputError> {
    let p = compute(input).map_err(|e| InputError::prize(&e, lang))?;
    Ok(PrizesOutput {
        pool: p.pool.to_string(),
        organiser_fee: p.organiser_fee.to_string(),
        scheme: p.scheme.iter().map(|d| d.normalize().to_string()).collect(),
        prizes: p.prizes.iter().map(|d| d.to_string()).collect(),
        per_player: p
            .per_player
            .iter()
            .map(|[a, b]| [a.to_string(), b.to_string()])
            .collect(),
    })
}

/// Computes prizes from the JSON body (see the module doc of `prize_pool`).
pub fn prizes_json(json: &str, lang: Lang) -> Result<PrizesOutput, InputError> {
    let body: PrizesBody = parse_json(json, lang)?;
    let payout = match (body.scheme, body.payout) {
        (Some(_), Some(_)) => {
            return Err(InputError::new(
                "invalid_scheme",
                lang,
                "rules.input.scheme_and_payout",
                &[],
            ))
        }
        (Some(scheme), None) => vec![PayoutTier {
            min_entries: 0,
            scheme,
        }],
        (None, Some(tiers)) => tiers
            .into_iter()
            .map(|t| PayoutTier {
                min_entries: t.min_entries,
                scheme: t.scheme,
            })
            .collect(),
        (None, None) => Vec::new(),
    };
    let places = match body.places {
        Some(p) => p,
        // No places: 1, 2, 3… (bounded: `compute` refuses more entries).
        None => (1..=body.entries.min(MAX_ENTRIES)).collect(),
    };
    let input = PrizeInput {
        entries: body.entries,
        entry_fee: body.entry_fee,
        prize_share_percent: body.prize_share_percent,
        guaranteed_pool: body.guaranteed_pool.unwrap_or(Decimal::ZERO),
        payout,
        places,
    };
    prizes(&input, lang)
}

/// Every violation code, for documentation pages and the CLI `--help`.
pub fn violation_codes() -> Vec<&'static str> {
    ViolationCode::ALL.iter().map(|c| c.code()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn to_json<T: Serialize>(v: &T) -> Value {
        serde_json::to_value(v).unwrap()
    }

    const EXAMPLE: &str = r#"{"profile":"codice","hands_per_round":3,"hands":[{"end":"closure",
        "ns":{"clean":1,"semi_clean":0,"dirty":0,"super":0,"royal":0,"melded_points":245,"hand_points":0,"closed":true,"took_pozzetto":true},
        "ew":{"melded_points":40,"hand_points":75,"closed":false,"took_pozzetto":false}}],
        "declared":{"ns":545,"ew":-135}}"#;

    #[test]
    fn check_sheet_worked_example() {
        let out = check_sheet(EXAMPLE, Lang::En).unwrap();
        let v = to_json(&out);
        assert_eq!(v["totals"], json!({"ns": 545, "ew": -135}));
        assert_eq!(v["vp"], json!({"ns": 16, "ew": 4}));
        assert_eq!(
            v["hands"][0]["ns"],
            json!({"card_points": 245, "bonuses": 200, "closing": 100, "pozzetto": 0, "total": 545})
        );
        assert_eq!(v["hands"][0]["ew"]["total"], json!(-135));
        assert_eq!(v["violations"].as_array().unwrap().len(), 1);
        let viol = &v["violations"][0];
        assert_eq!(viol["code"], json!("MISSING_HANDS"));
        assert_eq!(viol["hand"], Value::Null);
        assert_eq!(viol["line"], Value::Null);
        assert_eq!(viol["params"], json!({"count": 1, "expected": 3}));
        assert!(viol["message"].as_str().unwrap().contains('3'));
        assert!(out.is_rule_break());
        assert_eq!(out.exit_code(), 1);
        let it = check_sheet(EXAMPLE, Lang::It).unwrap();
        assert_ne!(it.violations[0].message, out.violations[0].message);
    }

    #[test]
    fn check_sheet_defaults_and_unknown_fields() {
        let out = check_sheet(
            r#"{"hands":[{"end":"time_out","ns":{},"ew":{},"note":"x"}],"comment":"ignored"}"#,
            Lang::It,
        )
        .unwrap();
        assert_eq!(out.profile, "codice");
        assert_eq!(out.hands_per_round, 3);
        assert!(!out.is_rule_break(), "{:?}", out.violations);
        assert_eq!(out.exit_code(), 0);
    }

    #[test]
    fn check_sheet_line_and_hand_in_json() {
        let out = check_sheet(
            r#"{"hands":[{"end":"stalemate","ns":{"melded_points":12},"ew":{}}]}"#,
            Lang::En,
        )
        .unwrap();
        let v = to_json(&out);
        let first = &v["violations"][0];
        assert_eq!(first["code"], json!("NOT_MULTIPLE_OF_5"));
        assert_eq!(first["hand"], json!(1));
        assert_eq!(first["line"], json!("ns"));
        assert_eq!(first["params"]["field"], json!("melded_points"));
    }

    #[test]
    fn check_sheet_input_errors() {
        let e = check_sheet(
            r#"{"hands":[{"end":"closure","ns":{"melded_points":"lots"},"ew":{}}]}"#,
            Lang::En,
        )
        .unwrap_err();
        assert_eq!(e.code, "invalid_field");
        assert_eq!(e.http_status(), 422);
        assert!(
            e.message
                .starts_with("hands[0].ns.melded_points: invalid type"),
            "{}",
            e.message
        );
        let e =
            check_sheet(r#"{"hands":[{"end":"closed","ns":{},"ew":{}}]}"#, Lang::It).unwrap_err();
        assert!(e.message.starts_with("hands[0].end"), "{}", e.message);
        let e = check_sheet(r#"{"hands":[}"#, Lang::En).unwrap_err();
        assert_eq!(
            (e.code, e.http_status(), e.exit_code()),
            ("invalid_json", 400, 2)
        );
        let e = check_sheet(r#"{"hands":[]} x"#, Lang::En).unwrap_err();
        assert_eq!(e.code, "invalid_json");
        let e = check_sheet("[1]", Lang::En).unwrap_err();
        assert_eq!(e.code, "invalid_field");
        let e = check_sheet(r#"{"profile":"casa","hands":[]}"#, Lang::En).unwrap_err();
        assert_eq!(e.code, "invalid_profile");
        assert!(e.message.contains("casa") && e.message.contains("codice"));
        let e = check_sheet(r#"{"hands_per_round":2,"hands":[]}"#, Lang::En).unwrap_err();
        assert_eq!(e.code, "invalid_scale");
        let e = check_sheet(r#"{"hands_per_round":0,"hands":[]}"#, Lang::En).unwrap_err();
        assert_eq!(e.code, "invalid_field");
        let e = check_sheet(
            r#"{"hands_per_round":2,"vp_scale":[1,2],"hands":[]}"#,
            Lang::En,
        )
        .unwrap_err();
        assert_eq!(e.code, "invalid_scale");
        assert!(e.message.contains("vp_scale"), "{}", e.message);
        let ok = check_sheet(
            r#"{"hands_per_round":2,"vp_scale":[50,100,150,200,300,400,500,600,700,800],"hands":[]}"#,
            Lang::En,
        )
        .unwrap();
        assert_eq!(ok.hands_per_round, 2);
        let e = check_sheet(
            r#"{"hands":[{"end":"closure","ns":{"clean":-1.5},"ew":{}}]}"#,
            Lang::En,
        )
        .unwrap_err();
        assert!(e.message.starts_with("hands[0].ns.clean"), "{}", e.message);
    }

    #[test]
    fn meld_api() {
        let cards: Vec<String> = "7H 8H 9H 10H JH QH KH"
            .split(' ')
            .map(String::from)
            .collect();
        let out = meld(&cards, "codice", Lang::En).unwrap();
        assert_eq!(
            to_json(&out),
            json!({"valid": true, "kind": "sequence", "cards": 7, "points": 65, "burraco": "clean"})
        );
        assert_eq!(out.exit_code(), 0);
        let out = meld_json(r#"{"cards":["7H","8H"],"profile":"codice"}"#, Lang::It).unwrap();
        let v = to_json(&out);
        assert_eq!(v["valid"], json!(false));
        assert_eq!(v["reason_code"], json!("too_few_cards"));
        assert!(out.is_rule_break());
        let v = to_json(&meld_json(r#"{"cards":["7H","8H","9h"]}"#, Lang::It).unwrap());
        assert_eq!(v["burraco"], Value::Null);
        let e = meld_json(r#"{"cards":["7H","8X"]}"#, Lang::En).unwrap_err();
        assert_eq!(e.code, "invalid_card");
        assert!(e.message.contains("8X"));
        let e = meld(&cards, "nope", Lang::En).unwrap_err();
        assert_eq!(e.code, "invalid_profile");
    }

    #[test]
    fn vp_api() {
        assert_eq!(
            to_json(&vp(3, -560, None, Lang::En).unwrap()),
            json!({"vp": [5, 15]})
        );
        assert_eq!(
            vp_json(r#"{"hands":3,"difference":-560}"#, Lang::En)
                .unwrap()
                .vp,
            [5, 15]
        );
        assert_eq!(
            vp_json(r#"{"hands":4,"difference":705}"#, Lang::En)
                .unwrap()
                .vp,
            [14, 6]
        );
        let e = vp_json(r#"{"hands":2,"difference":5}"#, Lang::En).unwrap_err();
        assert_eq!(e.code, "invalid_scale");
        let out = vp_json(
            r#"{"hands":2,"difference":55,"scale":[50,100,150,200,300,400,500,600,700,800]}"#,
            Lang::En,
        )
        .unwrap();
        assert_eq!(out.vp, [11, 9]);
        let e = vp_json(
            r#"{"hands":3,"difference":5,"scale":[50,40,150,200,300,400,500,600,700,800]}"#,
            Lang::It,
        )
        .unwrap_err();
        assert_eq!(e.code, "invalid_scale");
        let e = vp_json(r#"{"hands":3}"#, Lang::En).unwrap_err();
        assert_eq!(e.code, "invalid_field");
    }

    #[test]
    fn seat_draw_api() {
        let out = seat_draw_json(
            r#"{"cards":["10H","KS","10D","JK"],"suit_order":"HDCS"}"#,
            Lang::En,
        )
        .unwrap();
        assert_eq!(to_json(&out), json!({"chooser": 4, "dealer": 1}));
        // The same cards in Italian and English words.
        let out = seat_draw_json(
            r#"{"cards":["10 di cuori","re di picche","10♦","joker"],"suit_order":"HDCS"}"#,
            Lang::It,
        )
        .unwrap();
        assert_eq!(to_json(&out), json!({"chooser": 4, "dealer": 1}));
        let out = seat_draw_json(r#"{"cards":["JK","5H","jk","7C"]}"#, Lang::En).unwrap();
        assert_eq!(to_json(&out), json!({"redraw": [1, 3]}));
        let e = seat_draw_json(r#"{"cards":["JK","5H","JK"]}"#, Lang::En).unwrap_err();
        assert_eq!(e.code, "invalid_field");
        let e = seat_draw_json(
            r#"{"cards":["JK","5H","JK","7C"],"suit_order":"HDC"}"#,
            Lang::En,
        )
        .unwrap_err();
        assert_eq!(e.code, "invalid_suit_order");
        let e = seat_draw_json(r#"{"cards":["JK","5Z","JK","7C"]}"#, Lang::En).unwrap_err();
        assert_eq!(e.code, "invalid_card");
    }

    #[test]
    fn prizes_api() {
        let places: Vec<u32> = [1, 2, 2].into_iter().chain(4..=24).collect();
        let body = json!({
            "entries": 24, "entry_fee": "20.00", "prize_share_percent": "70",
            "guaranteed_pool": "0", "scheme": ["50", "30", "20"], "places": places
        });
        let out = prizes_json(&body.to_string(), Lang::En).unwrap();
        let v = to_json(&out);
        assert_eq!(v["pool"], json!("336.00"));
        assert_eq!(v["organiser_fee"], json!("144.00"));
        assert_eq!(v["prizes"][0], json!("168.00"));
        assert_eq!(v["prizes"][1], json!("84.00"));
        assert_eq!(v["prizes"][23], json!("0.00"));
        assert_eq!(v["per_player"][0], json!(["84.00", "84.00"]));
        assert_eq!(out.prizes.len(), 24);

        let body = json!({
            "entries": 3, "entry_fee": 10, "prize_share_percent": 100,
            "payout": [{"min_entries": 0, "scheme": ["100"]}, {"min_entries": 3, "scheme": ["60", "40"]}]
        });
        let out = prizes_json(&body.to_string(), Lang::En).unwrap();
        assert_eq!(out.prizes, vec!["18.00", "12.00", "0.00"]);

        let e = prizes_json(
            r#"{"entries":3,"entry_fee":"10","prize_share_percent":"100","scheme":["50","40"]}"#,
            Lang::It,
        )
        .unwrap_err();
        assert_eq!((e.code, e.http_status()), ("invalid_scheme", 422));
        assert!(e.message.contains("90"), "{}", e.message);
        let e = prizes_json(
            r#"{"entries":3,"entry_fee":"10","prize_share_percent":"100","scheme":["100"],"payout":[]}"#,
            Lang::En,
        )
        .unwrap_err();
        assert_eq!(e.code, "invalid_scheme");
        let e = prizes_json(
            r#"{"entries":3,"entry_fee":"10","prize_share_percent":"100","scheme":["100"],"places":[1,1,2]}"#,
            Lang::En,
        )
        .unwrap_err();
        assert_eq!(e.code, "invalid_places");
        let e = prizes_json(
            r#"{"entries":3,"entry_fee":"ten","prize_share_percent":"100","scheme":["100"]}"#,
            Lang::En,
        )
        .unwrap_err();
        assert_eq!(e.code, "invalid_field");
        assert!(e.message.starts_with("entry_fee"), "{}", e.message);
    }

    #[test]
    fn every_input_error_has_a_message_in_both_languages() {
        use crate::i18n::try_catalog;
        let mut keys: Vec<String> = [
            "rules.input.invalid_json",
            "rules.input.invalid_field",
            "rules.input.invalid_value",
            "rules.input.invalid_card",
            "rules.input.invalid_profile",
            "rules.input.no_preset_scale",
            "rules.input.hands_per_round_zero",
            "rules.input.seat_draw_count",
            "rules.input.invalid_suit_order",
            "rules.input.scheme_and_payout",
            "rules.input.scale.wrong_length",
            "rules.input.scale.not_positive_multiple",
            "rules.input.scale.not_increasing",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let d = Decimal::ONE;
        for e in [
            PrizeError::NegativeAmount {
                field: "f",
                value: d,
            },
            PrizeError::TooManyDecimals {
                field: "f",
                value: d,
                max: 2,
            },
            PrizeError::ShareOutOfRange { value: d },
            PrizeError::AmountTooLarge,
            PrizeError::NoScheme,
            PrizeError::EmptyScheme { min_entries: 0 },
            PrizeError::PercentNotPositive {
                min_entries: 0,
                place: 1,
                value: d,
            },
            PrizeError::PercentTooPrecise {
                min_entries: 0,
                place: 1,
                value: d,
                max: 6,
            },
            PrizeError::SchemeNotHundred {
                min_entries: 0,
                sum: d,
            },
            PrizeError::DuplicateTier { min_entries: 0 },
            PrizeError::NoTierFor { entries: 1 },
            PrizeError::PlacesCountMismatch {
                entries: 1,
                places: 2,
            },
            PrizeError::ImpossiblePlace {
                place: 3,
                entries: 2,
            },
            PrizeError::NoEntriesToPay { pool: d },
            PrizeError::TooManyEntries { entries: 1, max: 1 },
        ] {
            for lang in Lang::ALL {
                let (key, params) = prize_catalog(&e, lang);
                let text = try_catalog(lang)
                    .unwrap()
                    .get(&key)
                    .unwrap_or_else(|| panic!("{key} missing"));
                for (name, _) in &params {
                    assert!(
                        text.contains(&format!("{{{name}}}")),
                        "{key} {lang} lacks {{{name}}}"
                    );
                }
            }
            keys.push(prize_catalog(&e, Lang::En).0);
        }
        keys.push("rules.input.prize.the_scheme".into());
        keys.push("rules.input.prize.the_scheme_from".into());
        for lang in Lang::ALL {
            let c = try_catalog(lang).unwrap();
            for k in &keys {
                assert!(c.get(k).is_some(), "{k} missing in {lang}");
            }
        }
    }
}
