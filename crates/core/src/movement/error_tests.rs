//! The movement errors: one catalog entry each, codes distinct, the
//! English text equal to `Display`.

use super::error::*;
use crate::i18n::{try_catalog, Lang};

fn one_of_each() -> Vec<MovementError> {
    use MovementError as E;
    vec![
        E::TooFewPairs { pairs: 2, min: 3 },
        E::TooManyPairs {
            pairs: 2001,
            max: 2000,
        },
        E::InvalidPairNumber,
        E::DuplicatePair { pair: 7 },
        E::InvalidRound { round: 0 },
        E::TooFewTables { tables: 1 },
        E::RoundsOutOfRange {
            rounds: 0,
            max: 1000,
        },
        E::AdvanceOutOfRange {
            advance: 9,
            tables: 9,
            max: 8,
        },
        E::TooManyRoundsForTables {
            rounds: 10,
            tables: 9,
        },
        E::AdvanceSharesFactor {
            advance: 3,
            tables: 9,
            factor: 3,
            max_rounds: 3,
            rounds: 4,
        },
        E::TablesMismatch { plan: 8, layout: 9 },
        E::InvalidLayout { detail: "x".into() },
        E::RoundOutOfPlan {
            round: 5,
            rounds: 4,
        },
        E::UnknownPair { pair: 3 },
        E::AlreadySeated { pair: 3 },
        E::NoFreeSeat { pair: 3 },
        E::InconsistentOpponents {
            pair: 1,
            opponent: 2,
        },
        E::NoLegalPairing,
        E::PreviousRoundIncomplete {
            tables: "3, 7".into(),
        },
        E::RedrawAfterScores,
        E::SeedUnavailable,
    ]
}

/// Every error of a kind (pairs' movement, teams' movement): a catalog
/// entry in both languages, the English text equal to `Display`, the
/// Italian text filled, the codes distinct, no stale key under `prefix`.
pub(crate) fn assert_catalog_complete<E: std::fmt::Display>(
    errors: &[E],
    prefix: &str,
    code: impl Fn(&E) -> &'static str,
    message: impl Fn(&E, Lang) -> String,
) {
    let it = try_catalog(Lang::It).expect("Italian catalog loads");
    let en = try_catalog(Lang::En).expect("English catalog loads");
    let mut codes: Vec<&str> = errors.iter().map(&code).collect();
    codes.sort_unstable();
    codes.dedup();
    assert_eq!(codes.len(), errors.len(), "codes are distinct");
    for e in errors {
        let key = format!("{prefix}{}", code(e));
        assert!(it.get(&key).is_some(), "Italian catalog lacks {key}");
        assert!(en.get(&key).is_some(), "English catalog lacks {key}");
        assert_eq!(message(e, Lang::En), e.to_string(), "English text of {key}");
        let italian = message(e, Lang::It);
        assert!(
            !italian.contains('{') && !italian.contains("movement."),
            "unfilled placeholder in {italian}"
        );
    }
    let keys = it.keys().filter(|k| k.starts_with(prefix)).count();
    assert_eq!(keys, errors.len(), "one key per error, none stale");
}

#[test]
fn every_error_has_a_catalog_entry_and_english_matches_display() {
    let errors = one_of_each();
    assert!(errors
        .iter()
        .all(|e| e.catalog_key() == format!("movement.error.{}", e.code())));
    assert_catalog_complete(
        &errors,
        "movement.error.",
        MovementError::code,
        MovementError::message,
    );
}

#[test]
fn italian_message_is_filled() {
    let e = MovementError::TooManyRoundsForTables {
        rounds: 10,
        tables: 9,
    };
    let m = e.message(Lang::It);
    assert!(m.contains("10") && m.contains('9'), "{m}");
}
