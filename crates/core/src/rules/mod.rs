//! The rules engine: pure Rust, no web, database or template code.
//!
//! - [`profile`]: every number of the game as data (`codice`, `classic`);
//! - [`cards`]: cards and their notation (`10H`, `AS`, `2C`, `JK`);
//! - [`meld`]: the meld reader (set or sequence, burraco type);
//! - [`vp`]: VP scales (MP difference → victory points);
//! - [`score_sheet`]: scoring and checking a round's score sheet;
//! - [`seat_draw`]: the seat draw at the table;
//! - [`prize_pool`]: the prize pool and each entry's prize;
//! - [`teams`]: team matches (two tables → match VP, team bye award);
//! - [`api`]: the JSON contract shared by the CLI and the HTTP API.
//!
//! The engine never panics on any input: arithmetic on user numbers
//! saturates or is checked, and `unwrap`/`expect`/`panic!` are denied outside
//! tests. Messages come from the catalogs `rules.it.json` / `rules.en.json`
//! (keys `rules.*`).

#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

pub mod api;
pub mod cards;
pub mod check;
pub mod meld;
pub mod prize_pool;
pub mod profile;
pub mod score_sheet;
pub mod seat_draw;
pub mod spoken_card;
pub mod teams;
pub mod totals;
pub mod vp;

pub use api::{
    check_sheet, check_sheet_input, meld as meld_api, meld_json, prizes, prizes_json,
    seat_draw as seat_draw_api, seat_draw_json, vp as vp_api, vp_json, CheckSheetInput,
    CheckSheetOutput, InputError, MeldOutput, PrizesOutput, SeatDrawOutput, ViolationOutput,
    VpOutput,
};
pub use cards::{parse_card_list, parse_cards, Card, CardParseError, Rank, Suit};
pub use check::check;
pub use meld::{read_meld, MeldKind, MeldReading, MeldReason};
pub use prize_pool::{PayoutTier, PrizeError, PrizeInput, Prizes};
pub use profile::{BurracoRule, BurracoType, RuleProfile};
pub use score_sheet::{
    Hand, HandEnd, Line, LineHand, LineScore, PerLine, ScoreSheet, SheetMode, SheetReport,
    Violation, ViolationCode,
};
pub use seat_draw::{resolve_draws, resolve_redraw, SeatDraw, SuitOrder};
pub use spoken_card::{parse_spoken_card, spoken_name};
pub use teams::{match_score, MatchScore, TableResult, TableScore, TeamScoring};
pub use totals::{check_totals, hand_total_bounds, likely_end, HandTotals, TotalsSheet};
pub use vp::{ScaleError, VpScale, DEFAULT_BYE_VP};

#[cfg(test)]
mod catalog_tests {
    use super::*;
    use crate::i18n::{try_catalog, Lang};

    /// Every key the engine asks for, with the placeholders it fills.
    fn expected_keys() -> Vec<(String, Vec<&'static str>)> {
        let mut keys: Vec<(String, Vec<&'static str>)> = Vec::new();
        let violation_params: &[(ViolationCode, &[&str])] = &[
            (ViolationCode::NotMultipleOf5, &["field", "value", "step"]),
            (ViolationCode::NegativeField, &["field", "value"]),
            (ViolationCode::ClosureWithoutCloser, &[]),
            (ViolationCode::TwoClosers, &[]),
            (ViolationCode::ClosedButNotClosure, &[]),
            (ViolationCode::ClosedWithoutBurraco, &[]),
            (ViolationCode::ClosedWithoutPozzetto, &[]),
            (ViolationCode::TypeNotInProfile, &["type", "count"]),
            (ViolationCode::BurracoPointsTooLow, &["melded", "minimum"]),
            (ViolationCode::TooManyWildBurrachi, &["count", "max"]),
            (ViolationCode::TooManyBurrachi, &["cards", "max"]),
            (ViolationCode::CardPointsExceedDeck, &["points", "max"]),
            (
                ViolationCode::DeclaredTotalMismatch,
                &["declared", "computed"],
            ),
            (ViolationCode::TooManyHands, &["count", "max"]),
            (ViolationCode::MissingHands, &["count", "expected"]),
            (ViolationCode::TimeOutNotLast, &[]),
            (
                ViolationCode::HandTotalOutOfBounds,
                &["total", "min", "max"],
            ),
            (ViolationCode::CloserTotalTooLow, &["total", "minimum"]),
        ];
        assert_eq!(violation_params.len(), ViolationCode::ALL.len());
        for (code, params) in violation_params {
            keys.push((code.catalog_key(), params.to_vec()));
        }
        let card: Card = "7H".parse().unwrap_or(Card::Joker);
        for reason in [
            MeldReason::TooFewCards { min: 3 },
            MeldReason::OnlyWildCards,
            MeldReason::TooManyWildCards { count: 2, max: 1 },
            MeldReason::TooFewNaturals { min: 3 },
            MeldReason::NotSameRankOrSuit,
            MeldReason::TooManyInSet { max: 8 },
            MeldReason::DuplicateInSequence { card },
            MeldReason::AceBothEnds,
            MeldReason::SequenceGap { missing: 2 },
            MeldReason::TooManyCopies { card, max: 2 },
        ] {
            let params = reason.params().into_iter().map(|(k, _)| k).collect();
            keys.push((reason.catalog_key(), params));
        }
        for t in BurracoType::ALL {
            keys.push((t.catalog_key(), vec![]));
        }
        for f in [
            "clean",
            "semi_clean",
            "dirty",
            "super",
            "royal",
            "melded_points",
            "hand_points",
            "hand_total",
        ] {
            keys.push((format!("rules.field.{f}"), vec![]));
        }
        for l in Line::BOTH {
            keys.push((format!("rules.line.{}", l.code()), vec![]));
        }
        for e in [
            HandEnd::Closure,
            HandEnd::StockExhausted,
            HandEnd::TimeOut,
            HandEnd::Stalemate,
        ] {
            keys.push((format!("rules.end.{}", e.code()), vec![]));
        }
        for k in [MeldKind::Set, MeldKind::Sequence] {
            keys.push((format!("rules.meld.kind.{}", k.code()), vec![]));
        }
        keys.push(("rules.where.hand_line".into(), vec!["hand", "line"]));
        keys.push(("rules.where.hand".into(), vec!["hand"]));
        keys.push(("rules.where.line".into(), vec!["line"]));
        keys.push(("rules.input.invalid_json".into(), vec!["detail"]));
        keys.push(("rules.input.invalid_field".into(), vec!["path", "detail"]));
        keys.push(("rules.input.invalid_value".into(), vec!["detail"]));
        keys.push(("rules.input.invalid_card".into(), vec!["token"]));
        keys.push(("rules.input.invalid_profile".into(), vec!["name", "known"]));
        keys.push(("rules.input.no_preset_scale".into(), vec!["hands", "field"]));
        keys.push(("rules.input.seat_draw_count".into(), vec!["count"]));
        keys.push(("rules.input.invalid_suit_order".into(), vec!["text"]));
        keys.push((
            "rules.input.scale.wrong_length".into(),
            vec!["field", "expected", "got"],
        ));
        keys.push((
            "rules.input.scale.not_positive_multiple".into(),
            vec!["field", "position", "value", "step"],
        ));
        keys.push((
            "rules.input.scale.not_increasing".into(),
            vec!["field", "position", "value", "previous"],
        ));
        keys
    }

    #[test]
    fn every_key_exists_with_its_placeholders_in_both_languages() {
        for lang in Lang::ALL {
            let catalog = match try_catalog(lang) {
                Ok(c) => c,
                Err(e) => panic!("catalog {lang} broken: {e}"),
            };
            for (key, params) in expected_keys() {
                let Some(text) = catalog.get(&key) else {
                    panic!("{key} missing in {lang}");
                };
                for p in params {
                    assert!(
                        text.contains(&format!("{{{p}}}")),
                        "{key} ({lang}) lacks {{{p}}}: {text}"
                    );
                }
            }
        }
    }

    #[test]
    fn every_rules_key_in_the_catalog_is_used() {
        let expected: Vec<String> = expected_keys().into_iter().map(|(k, _)| k).collect();
        let Ok(catalog) = try_catalog(Lang::En) else {
            panic!("English catalog broken");
        };
        for key in catalog.keys().filter(|k| k.starts_with("rules.")) {
            let used = expected.iter().any(|k| k == key)
                || key.starts_with("rules.input.prize.")
                || key == "rules.input.hands_per_round_zero"
                || key == "rules.input.scheme_and_payout";
            assert!(used, "{key} is in the catalog but never used");
        }
    }
}
