//! Tests of the tournament file: the helpers and checks every kind shares
//! here, each kind's own in `pairs.rs` and `teams.rs`.

mod groups;
mod individual;
mod pairs;
mod teams;

use super::{FileError, FileProblem, ProblemCode};
use crate::i18n::{try_catalog, Lang};
use serde_json::{json, Value};

/// The problems `check` finds in a document that `read` must read.
fn problems_of<F>(
    v: &Value,
    read: fn(&str) -> Result<F, FileError>,
    check: fn(&F) -> Option<Vec<FileProblem>>,
) -> Vec<FileProblem> {
    let file = match read(&v.to_string()) {
        Ok(f) => f,
        Err(e) => panic!("does not parse: {e}"),
    };
    check(&file).unwrap_or_default()
}

fn has(problems: &[FileProblem], path: &str, code: ProblemCode) -> bool {
    problems.iter().any(|p| p.path == path && p.code == code)
}

/// `problems` has one at `path` with `code`.
fn assert_has(problems: &[FileProblem], path: &str, code: ProblemCode) {
    assert!(has(problems, path, code), "{path} {code}: {problems:?}");
}

/// Real problems' messages fill every placeholder, in both languages, and
/// the two languages differ.
fn assert_messages_filled(problems: &[FileProblem]) {
    for problem in problems {
        for lang in Lang::ALL {
            let m = problem.message(lang);
            assert!(!m.is_empty() && !m.contains('{'), "{problem:?}: {m}");
            assert!(!m.contains("file.problem"), "{m}");
        }
        assert_ne!(problem.message(Lang::It), problem.message(Lang::En));
    }
}

/// A field set to a value, and the problem it gives: (field, value, path,
/// code).
type SettingCase = (&'static str, Value, &'static str, ProblemCode);

/// The settings every kind checks the same way (the skeleton's).
fn shared_settings_cases() -> Vec<SettingCase> {
    vec![
        (
            "entry_fee",
            json!("1000.01"),
            "entry_fee",
            ProblemCode::MoneyTooLarge,
        ),
        (
            "guaranteed_pool",
            json!("79228162514264337593543950335"),
            "guaranteed_pool",
            ProblemCode::MoneyTooLarge,
        ),
        (
            "name",
            json!("Torneo\u{0}"),
            "name",
            ProblemCode::ControlCharacter,
        ),
        (
            "venue",
            json!("Circolo\u{1b}[31m"),
            "venue",
            ProblemCode::ControlCharacter,
        ),
        (
            "entry_fee",
            json!("-1"),
            "entry_fee",
            ProblemCode::MoneyNegative,
        ),
        (
            "entry_fee",
            json!("20.005"),
            "entry_fee",
            ProblemCode::MoneyTooPrecise,
        ),
        (
            "guaranteed_pool",
            json!("-0.01"),
            "guaranteed_pool",
            ProblemCode::MoneyNegative,
        ),
        (
            "guaranteed_pool",
            json!("0.001"),
            "guaranteed_pool",
            ProblemCode::MoneyTooPrecise,
        ),
        (
            "prize_share_percent",
            json!("100.5"),
            "prize_share_percent",
            ProblemCode::PercentOutOfRange,
        ),
        (
            "prize_share_percent",
            json!("101"),
            "prize_share_percent",
            ProblemCode::PercentOutOfRange,
        ),
        (
            "profile",
            json!("casa"),
            "profile",
            ProblemCode::ProfileUnknown,
        ),
        (
            "hands_per_round",
            json!(5),
            "hands_per_round",
            ProblemCode::HandsPerRoundOutOfRange,
        ),
        ("bye_vp", json!(21), "bye_vp", ProblemCode::ByeVpOutOfRange),
        (
            "vp_scale",
            json!([50, 40]),
            "vp_scale",
            ProblemCode::VpScaleInvalid,
        ),
        ("name", json!(" "), "name", ProblemCode::NameEmpty),
        ("name", json!(""), "name", ProblemCode::NameEmpty),
        (
            "suit_order",
            json!("HDC"),
            "suit_order",
            ProblemCode::SuitOrderInvalid,
        ),
        (
            "minutes_per_round",
            json!(200),
            "minutes_per_round",
            ProblemCode::OutOfRange,
        ),
        (
            "minutes_per_round",
            json!(5),
            "minutes_per_round",
            ProblemCode::OutOfRange,
        ),
        (
            "planned_rounds",
            json!(31),
            "planned_rounds",
            ProblemCode::OutOfRange,
        ),
        (
            "venue",
            json!("x".repeat(121)),
            "venue",
            ProblemCode::TextTooLong,
        ),
        (
            "payout",
            json!([{"min_entries": 1, "scheme": ["60", "30"]}]),
            "payout[0].scheme",
            ProblemCode::PayoutInvalid,
        ),
        (
            "payout",
            json!([{"min_entries": 1, "scheme": ["100", "0"]}]),
            "payout[0].scheme[1]",
            ProblemCode::PayoutInvalid,
        ),
        (
            "payout",
            json!([{"min_entries": 1, "scheme": ["100"]}, {"min_entries": 1, "scheme": ["100"]}]),
            "payout[1].min_entries",
            ProblemCode::PayoutInvalid,
        ),
        (
            "payout",
            json!([{"min_entries": 5, "scheme": ["100"]}]),
            "payout",
            ProblemCode::PayoutInvalid,
        ),
        ("payout", json!([]), "payout", ProblemCode::PayoutInvalid),
    ]
}

/// Each case, set on `base()`, gives its problem.
fn assert_setting_cases(
    base: fn() -> Value,
    problems: fn(&Value) -> Vec<FileProblem>,
    cases: Vec<SettingCase>,
) {
    for (field, value, path, code) in cases {
        let mut v = base();
        v[field] = value;
        let p = problems(&v);
        assert!(has(&p, path, code), "{field} → {path} {code}: {p:?}");
    }
}

#[test]
fn every_problem_has_a_message_in_both_languages() {
    for lang in Lang::ALL {
        let catalog = try_catalog(lang).unwrap();
        for code in ProblemCode::ALL {
            assert!(catalog.get(&code.catalog_key()).is_some(), "{code} {lang}");
        }
    }
}
