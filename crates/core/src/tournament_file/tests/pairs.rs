use super::super::fixtures::{pair, sample_tournament, simple_sheet};
use super::super::*;
use super::{
    assert_has, assert_messages_filled, assert_setting_cases, has, problems_of,
    shared_settings_cases,
};
use crate::i18n::Lang;
use crate::rules::check::check;
use serde_json::{json, Value};

/// A small valid tournament as JSON: 4 pairs, 2 rounds, one adjusted score,
/// the last round with one table still to play.
pub(super) fn base() -> Value {
    let sheet = |ns: i64, ew: i64| serde_json::to_value(simple_sheet(ns, ew, 3)).unwrap();
    json!({
        "format": "burraco-td/tournament@1",
        "name": "Torneo del venerdì",
        "date": "2026-11-20",
        "profile": "codice",
        "hands_per_round": 3,
        "vp_scale": [50, 150, 250, 350, 500, 650, 800, 1000, 1250, 1500],
        "bye_vp": 14,
        "entry_fee": "20.00",
        "prize_share_percent": "70",
        "guaranteed_pool": "0",
        "payout": [
            {"min_entries": 1, "scheme": ["60", "40"]},
            {"min_entries": 12, "scheme": ["50", "30", "20"]}
        ],
        "pairs": [
            {"number": 1, "players": [{"surname": "Rossi", "name": "Maria", "card": "AB123", "club": "Circolo Sole"},
                                      {"surname": "Bianchi", "name": "Luca"}]},
            {"number": 2, "players": [{"surname": "Verdi", "name": "Anna"}, {"surname": "Neri", "name": "Paolo"}]},
            {"number": 3, "players": [{"surname": "Gallo", "name": "Sara"}, {"surname": "Conti", "name": "Marco"}]},
            {"number": 4, "players": [{"surname": "Greco", "name": "Elena"}, {"surname": "Costa", "name": "Luca"}]}
        ],
        "rounds": [
            {"number": 1, "movement": "mitchell", "tables": [
                {"table": 1, "ns": 1, "ew": 2, "sheet": sheet(600, 200)},
                {"table": 2, "ns": 3, "ew": 4, "adjusted": {"ns_vp": 14, "ew_vp": 6, "ns_mp_diff": 0, "ew_mp_diff": 0}}
            ], "bye": null},
            {"number": 2, "movement": "mitchell", "tables": [
                {"table": 1, "ns": 1, "ew": 4, "sheet": sheet(300, 300)},
                {"table": 2, "ns": 3, "ew": 2}
            ], "bye": null}
        ],
        "penalties": [
            {"round": 2, "pair": 1, "kind": "warning", "reason": "late by 4 minutes"},
            {"round": 2, "pair": 4, "kind": "mp", "amount": 100, "reason": "late by 7 minutes",
             "table": 1, "by": "Arbitro", "at": "2026-11-20T21:05:00Z"},
            {"round": 1, "pair": 3, "kind": "vp", "amount": 1, "reason": "phone", "withdrawn": true,
             "withdrawn_by": "Direttore", "withdrawn_at": "2026-11-20T22:00:00+01:00"}
        ]
    })
}

fn parse_value(v: &Value) -> Result<TournamentFile, FileError> {
    parse(&v.to_string())
}

fn problems(v: &Value) -> Vec<FileProblem> {
    problems_of(v, parse, |f| validate(f).err())
}

fn expect(v: &Value, path: &str, code: ProblemCode) {
    assert_has(&problems(v), path, code);
}

fn field_error(v: &Value) -> (String, String) {
    match parse_value(v) {
        Err(FileError::InvalidField { path, detail }) => (path, detail),
        other => panic!("expected a field error, got {other:?}"),
    }
}

#[test]
fn the_example_parses_and_validates() {
    let file = parse_value(&base()).unwrap();
    assert_eq!(file.name, "Torneo del venerdì");
    assert_eq!(file.entry_fee.to_string(), "20.00");
    assert_eq!(file.rounds[1].tables[1].sheet, None);
    assert_eq!(file.penalties[1].kind, PenaltyKind::Mp);
    assert_eq!(
        file.penalties[2].withdrawn_at.map(|t| t.to_rfc3339()),
        Some("2026-11-20T21:00:00+00:00".to_string())
    );
    let valid = validate(&file).unwrap();
    assert_eq!(valid.bye_mp_diff(), 355);
    assert_eq!(valid.pair_index(3), Some(2));
}

#[test]
fn defaults_and_unknown_fields() {
    let mut v = base();
    let o = v.as_object_mut().unwrap();
    for k in [
        "profile",
        "vp_scale",
        "bye_vp",
        "guaranteed_pool",
        "penalties",
    ] {
        o.remove(k);
    }
    o.insert("sponsor".into(), json!({"name": "Bar Sport"}));
    v["pairs"][0]["players"][0]["email"] = json!("x@example.org");
    v["rounds"][0]["tables"][0]["sheet"]["note"] = json!("ok");
    let file = parse_value(&v).unwrap();
    assert_eq!(file.profile, "codice");
    assert_eq!(file.bye_vp, 14);
    assert!(file.guaranteed_pool.is_zero());
    assert!(file.penalties.is_empty());
    assert!(validate(&file).is_ok());
}

#[test]
fn file_errors_name_the_place() {
    let mut v = base();
    v["rounds"][1]["tables"][1]["ew"] = json!("two");
    let (path, detail) = field_error(&v);
    assert_eq!(path, "rounds[1].tables[1].ew");
    assert!(detail.contains("invalid type"), "{detail}");

    let mut v = base();
    v["rounds"][1]["tables"][0]
        .as_object_mut()
        .unwrap()
        .remove("ew");
    assert_eq!(field_error(&v).0, "rounds[1].tables[0].ew");

    let mut v = base();
    v.as_object_mut().unwrap().remove("pairs");
    assert_eq!(field_error(&v).0, "pairs");

    let mut v = base();
    v["format"] = json!("burraco-td/tournament@2");
    let (path, detail) = field_error(&v);
    assert_eq!(path, "format");
    assert!(detail.contains("tournament@1"), "{detail}");

    let mut v = base();
    v["date"] = json!("20/11/2026");
    assert_eq!(field_error(&v).0, "date");

    let mut v = base();
    v["entry_fee"] = json!("venti");
    assert_eq!(field_error(&v).0, "entry_fee");

    let mut v = base();
    v["penalties"][0]["kind"] = json!("yellow_card");
    assert_eq!(field_error(&v).0, "penalties[0].kind");

    let mut v = base();
    v["rounds"][0]["bye"] = json!("x");
    assert_eq!(field_error(&v).0, "rounds[0].bye");

    let mut v = base();
    v["start_time"] = json!("25:00");
    assert_eq!(field_error(&v).0, "start_time");

    let mut v = base();
    v["rounds"][0]["tables"][0]["sheet"]["hands"][2]["ns"]["melded_points"] = json!(1.5);
    assert_eq!(
        field_error(&v).0,
        "rounds[0].tables[0].sheet.hands[2].ns.melded_points"
    );

    let mut v = base();
    v["pairs"][1]["number"] = json!(-2);
    assert_eq!(field_error(&v).0, "pairs[1].number");

    let e = parse("{\"format\": ").unwrap_err();
    assert_eq!(e.code(), "invalid_json");
    assert_eq!(e.http_status(), 400);
    let e = parse(&format!("{} x", base())).unwrap_err();
    assert_eq!(e.code(), "invalid_json");
    let e = parse("[1, 2]").unwrap_err();
    assert_eq!(e.code(), "invalid_field");

    let mut v = base();
    v["rounds"][1]["tables"][1]["ew"] = json!("two");
    let e = parse_value(&v).unwrap_err();
    for lang in Lang::ALL {
        let m = e.message(lang);
        assert!(m.starts_with("rounds[1].tables[1].ew: "), "{m}");
    }
    assert_ne!(e.message(Lang::It), e.message(Lang::En));
}

#[test]
fn byes_read_and_write_as_null_number_or_list() {
    let mut v = base();
    v["rounds"][0]["bye"] = json!([]);
    let file = parse_value(&v).unwrap();
    assert!(file.rounds[0].byes.is_empty());
    let out: Value = serde_json::from_str(&to_json(&file).unwrap()).unwrap();
    assert_eq!(out["rounds"][0]["bye"], Value::Null);

    let mut file = parse_value(&base()).unwrap();
    file.rounds[0].byes = vec![7];
    let out: Value = serde_json::from_str(&to_json(&file).unwrap()).unwrap();
    assert_eq!(out["rounds"][0]["bye"], json!(7));
    file.rounds[0].byes = vec![7, 9];
    let text = to_json(&file).unwrap();
    let out: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(out["rounds"][0]["bye"], json!([7, 9]));
    assert_eq!(parse(&text).unwrap().rounds[0].byes, vec![7, 9]);
    let mut v = base();
    v["rounds"][0].as_object_mut().unwrap().remove("bye");
    assert!(parse_value(&v).unwrap().rounds[0].byes.is_empty());
}

fn with_extras() -> TournamentFile {
    let mut file = parse_value(&base()).unwrap();
    file.venue = Some("Circolo del Sole".into());
    file.start_time = chrono::NaiveTime::from_hms_opt(20, 45, 0);
    file.minutes_per_round = Some(40);
    file.planned_rounds = Some(4);
    file.movements = Some(vec![
        MovementKind::Mitchell,
        MovementKind::Mitchell,
        MovementKind::Danish,
        MovementKind::DanishModified,
    ]);
    file.mitchell_advance = Some(2);
    file.allow_repeats = Some(false);
    file.suit_order = Some("SHDC".into());
    file.draw_seed = Some(9_007_199_254_740_993);
    file.status = Some(Status::Running);
    file.declared_closed_at = None;
    file.pairs[0].checked_in = Some(true);
    file.pairs[3].withdrawn_from_round = Some(3);
    file
}

#[test]
fn round_trip_is_lossless_and_deterministic() {
    for file in [
        parse_value(&base()).unwrap(),
        with_extras(),
        sample_tournament(9, 4, 3),
        sample_tournament(0, 0, 1),
    ] {
        let text = to_json(&file).unwrap();
        let again = parse(&text).unwrap();
        assert_eq!(again, file);
        assert_eq!(to_json(&again).unwrap(), text);
        assert_eq!(
            to_json(&parse(&to_json_compact(&file).unwrap()).unwrap()).unwrap(),
            text
        );
    }
    let text = to_json(&with_extras()).unwrap();
    assert!(text.contains("\"start_time\": \"20:45\""), "{text}");
    assert!(text.contains("\"draw_seed\": 9007199254740993"));
    assert!(text.contains("\"danish_modified\""));
    assert!(text.contains("\"entry_fee\": \"20.00\""));
    // Absent optional fields are not written.
    let plain = to_json(&parse_value(&base()).unwrap()).unwrap();
    for absent in [
        "venue",
        "status",
        "checked_in",
        "withdrawn_from_round",
        "\"withdrawn\": false",
    ] {
        assert!(!plain.contains(absent), "{absent} written");
    }
    // Field order is the documented one.
    let pos = |k: &str| plain.find(&format!("\"{k}\"")).unwrap();
    assert!(pos("format") < pos("name") && pos("name") < pos("date"));
    assert!(pos("payout") < pos("pairs") && pos("pairs") < pos("rounds"));
    assert!(pos("rounds") < pos("penalties"));
}

#[test]
fn validation_pair_seated_twice_and_unknown_pair() {
    let mut v = base();
    v["rounds"][0]["tables"][1]["ns"] = json!(1);
    let p = problems(&v);
    assert!(
        has(&p, "rounds[0].tables[1].ns", ProblemCode::PairSeatedTwice),
        "{p:?}"
    );

    let mut v = base();
    v["rounds"][0]["bye"] = json!(2);
    let p = problems(&v);
    assert!(
        has(&p, "rounds[0].bye", ProblemCode::PairSeatedTwice),
        "{p:?}"
    );

    let mut v = base();
    v["rounds"][1]["tables"][1]["ew"] = json!(12);
    let p = problems(&v);
    assert!(
        has(&p, "rounds[1].tables[1].ew", ProblemCode::PairUnknown),
        "{p:?}"
    );

    let mut v = base();
    v["rounds"][1]["bye"] = json!([5, 2]);
    let p = problems(&v);
    assert!(
        has(&p, "rounds[1].bye[0]", ProblemCode::PairUnknown),
        "{p:?}"
    );
    assert!(
        has(&p, "rounds[1].bye[1]", ProblemCode::PairSeatedTwice),
        "{p:?}"
    );
}

#[test]
fn validation_tables_and_rounds() {
    let mut v = base();
    v["rounds"][0]["tables"][1]["table"] = json!(1);
    expect(
        &v,
        "rounds[0].tables[1].table",
        ProblemCode::TableNumberDuplicate,
    );

    let mut v = base();
    v["rounds"][1]["number"] = json!(3);
    expect(&v, "rounds[1].number", ProblemCode::RoundNumberOutOfOrder);

    let mut v = base();
    v["rounds"][0]["tables"][0]["adjusted"] = json!({"ns_vp": 10, "ew_vp": 10});
    expect(&v, "rounds[0].tables[0]", ProblemCode::SheetAndAdjusted);

    // A table still to play: fine in the last round, not before it.
    let mut v = base();
    v["rounds"][0]["tables"][0]
        .as_object_mut()
        .unwrap()
        .remove("sheet");
    expect(&v, "rounds[0].tables[0]", ProblemCode::TableNotPlayed);
    let mut v = base();
    v["status"] = json!("finished");
    expect(
        &v,
        "rounds[1].tables[1]",
        ProblemCode::TableNotPlayedFinished,
    );

    let mut v = base();
    v["rounds"][0]["tables"][1]["adjusted"]["ew_vp"] = json!(21);
    expect(
        &v,
        "rounds[0].tables[1].adjusted.ew_vp",
        ProblemCode::AdjustedVpOutOfRange,
    );

    let mut v = base();
    let rounds: Vec<Value> = (1..=31)
        .map(|n| json!({"number": n, "tables": [], "bye": null}))
        .collect();
    v["rounds"] = Value::Array(rounds);
    v["penalties"] = json!([]);
    expect(&v, "rounds", ProblemCode::TooManyRounds);

    let mut v = base();
    v["pairs"][3]["withdrawn_from_round"] = json!(2);
    expect(
        &v,
        "rounds[1].tables[0].ew",
        ProblemCode::PairWithdrawnSeated,
    );
}

#[test]
fn validation_pairs() {
    let mut v = base();
    v["pairs"][0]["players"][0]["surname"] = json!("  ");
    v["pairs"][2]["players"][1]["name"] = json!("");
    let p = problems(&v);
    assert!(has(
        &p,
        "pairs[0].players[0].surname",
        ProblemCode::PlayerSurnameEmpty
    ));
    assert!(has(
        &p,
        "pairs[2].players[1].name",
        ProblemCode::PlayerNameEmpty
    ));

    let mut v = base();
    v["pairs"][0]["players"][0]["card"] = json!("AB 123");
    v["pairs"][0]["players"][1]["name"] = json!("é".repeat(61));
    v["pairs"][1]["players"][1]["club"] = json!("c".repeat(81));
    let p = problems(&v);
    assert!(has(
        &p,
        "pairs[0].players[0].card",
        ProblemCode::CardInvalid
    ));
    assert!(has(
        &p,
        "pairs[0].players[1].name",
        ProblemCode::TextTooLong
    ));
    assert!(has(
        &p,
        "pairs[1].players[1].club",
        ProblemCode::TextTooLong
    ));
    v["pairs"][0]["players"][1]["name"] = json!("é".repeat(60));
    assert!(!has(
        &problems(&v),
        "pairs[0].players[1].name",
        ProblemCode::TextTooLong
    ));

    let mut v = base();
    v["pairs"][1]["number"] = json!(1);
    expect(&v, "pairs[1].number", ProblemCode::PairNumberDuplicate);

    let mut v = base();
    v["pairs"][1]["number"] = json!(0);
    expect(&v, "pairs[1].number", ProblemCode::NotPositive);

    let mut v = base();
    v["pairs"][1]["players"].as_array_mut().unwrap().pop();
    expect(&v, "pairs[1].players", ProblemCode::PlayersCount);

    let mut v = base();
    let pairs: Vec<Value> = (1..=1001)
        .map(|n| serde_json::to_value(pair(n)).unwrap())
        .collect();
    v["pairs"] = Value::Array(pairs);
    let p = problems(&v);
    assert!(has(&p, "pairs", ProblemCode::TooManyPairs), "{p:?}");
    let mut v = base();
    let pairs: Vec<Value> = (1..=1000)
        .map(|n| serde_json::to_value(pair(n)).unwrap())
        .collect();
    v["pairs"] = Value::Array(pairs);
    assert_eq!(problems(&v), Vec::new());
}

#[test]
fn validation_settings_and_money() {
    let mut cases = shared_settings_cases();
    cases.extend(vec![(
        "mitchell_advance",
        json!(0),
        "mitchell_advance",
        ProblemCode::OutOfRange,
    )]);
    assert_setting_cases(base, problems, cases);
    // 2 hands need a scale; with one they are fine.
    let mut v = base();
    v["hands_per_round"] = json!(2);
    v.as_object_mut().unwrap().remove("vp_scale");
    expect(&v, "vp_scale", ProblemCode::VpScaleMissing);
    // No money, no scheme: fine.
    let mut v = base();
    v["entry_fee"] = json!("0");
    v["payout"] = json!([]);
    assert_eq!(problems(&v), Vec::new());
    // A draft need not have a scheme for its entries yet.
    let mut v = base();
    v["rounds"] = json!([]);
    v["penalties"] = json!([]);
    v["payout"] = json!([{"min_entries": 12, "scheme": ["100"]}]);
    assert_eq!(problems(&v), Vec::new());
}

#[test]
fn validation_penalties() {
    let cases: Vec<(Value, &str, ProblemCode)> = vec![
        (
            json!({"round": 3, "pair": 1, "kind": "warning", "reason": "x"}),
            "penalties[0].round",
            ProblemCode::PenaltyRoundUnknown,
        ),
        (
            json!({"round": 1, "pair": 9, "kind": "warning", "reason": "x"}),
            "penalties[0].pair",
            ProblemCode::PenaltyPairUnknown,
        ),
        (
            json!({"round": 1, "pair": 1, "kind": "mp", "reason": "x"}),
            "penalties[0].amount",
            ProblemCode::PenaltyAmountMissing,
        ),
        (
            json!({"round": 1, "pair": 1, "kind": "vp", "amount": 0, "reason": "x"}),
            "penalties[0].amount",
            ProblemCode::PenaltyAmountNotPositive,
        ),
        (
            json!({"round": 1, "pair": 1, "kind": "vp", "amount": -2, "reason": "x"}),
            "penalties[0].amount",
            ProblemCode::PenaltyAmountNotPositive,
        ),
        (
            json!({"round": 1, "pair": 1, "kind": "warning", "amount": 1, "reason": "x"}),
            "penalties[0].amount",
            ProblemCode::PenaltyAmountNotAllowed,
        ),
        (
            json!({"round": 1, "pair": 1, "kind": "warning"}),
            "penalties[0].reason",
            ProblemCode::PenaltyReasonEmpty,
        ),
        (
            json!({"round": 1, "pair": 1, "kind": "warning", "reason": "x", "table": 2}),
            "penalties[0].table",
            ProblemCode::PenaltyTableMismatch,
        ),
        (
            json!({"round": 1, "pair": 1, "kind": "mp", "amount": 1000000, "reason": "x"}),
            "penalties[0].amount",
            ProblemCode::ValueTooLarge,
        ),
    ];
    for (penalty, path, code) in cases {
        let mut v = base();
        v["penalties"] = json!([penalty]);
        let p = problems(&v);
        assert!(has(&p, path, code), "{path} {code}: {p:?}");
    }
    // An MP penalty for a resting pair.
    let mut v = base();
    v["pairs"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::to_value(pair(5)).unwrap());
    v["rounds"][0]["bye"] = json!(5);
    v["penalties"] = json!([{"round": 1, "pair": 5, "kind": "mp", "amount": 100, "reason": "x"}]);
    expect(&v, "penalties[0].pair", ProblemCode::PenaltyMpNotSeated);
    v["penalties"] = json!([{"round": 1, "pair": 5, "kind": "vp", "amount": 1, "reason": "x"}]);
    assert_eq!(problems(&v), Vec::new());
}

#[test]
fn pair_problems_fill_their_messages() {
    // Messages of real problems fill every placeholder.
    let mut v = base();
    v["entry_fee"] = json!("-1");
    v["vp_scale"] = json!([50, 40, 60, 70, 80, 90, 100, 110, 120, 130]);
    v["payout"] = json!([{"min_entries": 1, "scheme": ["60", "30"]}]);
    v["guaranteed_pool"] = json!("1.001");
    v["rounds"][0]["tables"][1]["ns"] = json!(1);
    v["penalties"][0]["amount"] = json!(3);
    v["penalties"][1]["table"] = json!(2);
    let mut p = problems(&v);
    v["entry_fee"] = json!("10");
    v["guaranteed_pool"] = json!("0");
    p.extend(problems(&v));
    assert!(p.len() >= 7, "{p:?}");
    assert_messages_filled(&p);
    let scale = p
        .iter()
        .find(|x| x.code == ProblemCode::VpScaleInvalid)
        .unwrap();
    assert!(
        scale.message(Lang::It).contains("scala PV"),
        "{}",
        scale.message(Lang::It)
    );
    let payout = p
        .iter()
        .find(|x| x.code == ProblemCode::PayoutInvalid)
        .unwrap();
    assert!(
        payout.message(Lang::En).contains("90"),
        "{}",
        payout.message(Lang::En)
    );
}

#[test]
fn samples_are_valid_with_sheets_that_break_no_rule() {
    for (pairs, rounds, seed) in [
        (0, 0, 1),
        (1, 2, 2),
        (2, 1, 3),
        (7, 5, 4),
        (30, 6, 5),
        (301, 8, 6),
    ] {
        let file = sample_tournament(pairs, rounds, seed);
        assert_eq!(
            file,
            sample_tournament(pairs, rounds, seed),
            "deterministic"
        );
        let valid = match validate(&file) {
            Ok(v) => v,
            Err(p) => panic!("{pairs}x{rounds}: {:?}", &p[..p.len().min(5)]),
        };
        assert_eq!(file.pairs.len(), pairs);
        assert_eq!(file.rounds.len(), rounds);
        for round in &file.rounds {
            if pairs % 2 == 1 {
                assert_eq!(round.byes.len(), 1);
            }
            for t in &round.tables {
                if let Some(s) = &t.sheet {
                    let report = check(&s.to_score_sheet(), valid.profile(), 3, valid.scale());
                    assert!(report.violations.is_empty(), "{:?}", report.violations);
                }
            }
        }
    }
    let big = sample_tournament(300, 8, 7);
    assert!(big.penalties.iter().any(|p| p.kind == PenaltyKind::Mp));
    assert!(big.penalties.iter().any(|p| p.withdrawn));
    assert!(big
        .rounds
        .iter()
        .flat_map(|r| &r.tables)
        .any(|t| t.adjusted.is_some()));
}

#[test]
fn simple_sheets_total_what_they_say() {
    let profile = crate::rules::profile::RuleProfile::default_profile();
    let scale = crate::rules::vp::VpScale::three_hands();
    for (ns, ew, hands) in [
        (600, 200, 3),
        (-135, 545, 3),
        (0, 0, 4),
        (1500, -1500, 3),
        (5, 10, 2),
    ] {
        let s = simple_sheet(ns, ew, hands);
        let r = check(&s.to_score_sheet(), profile, hands, &scale);
        assert!(r.violations.is_empty(), "{ns} {ew}: {:?}", r.violations);
        assert_eq!((r.totals.ns, r.totals.ew), (ns, ew));
    }
}

#[test]
fn control_characters_and_huge_payouts_in_a_file_are_named() {
    let mut v = base();
    v["pairs"][0]["players"][0]["surname"] = json!("Ros\u{0}si");
    v["pairs"][1]["players"][1]["club"] = json!("Club\r");
    v["pairs"][2]["players"][0]["card"] = json!("AB\t1");
    v["penalties"][0]["reason"] = json!("Ritardo\u{7}");
    let p = problems(&v);
    for path in [
        "pairs[0].players[0].surname",
        "pairs[1].players[1].club",
        "pairs[2].players[0].card",
        "penalties[0].reason",
    ] {
        assert!(
            has(&p, path, ProblemCode::ControlCharacter),
            "{path}: {p:?}"
        );
    }
    for lang in Lang::ALL {
        let msg = p[0].message(lang);
        assert!(!msg.contains("file.problem"), "{msg}");
    }
    let mut v = base();
    v["payout"] = json!([{"min_entries": 4294967295u32, "scheme": ["100"]}]);
    expect(&v, "payout[0].min_entries", ProblemCode::OutOfRange);
    // The largest money the forms accept is accepted here too.
    let mut v = base();
    v["entry_fee"] = json!("1000.00");
    v["guaranteed_pool"] = json!("1000000.00");
    v["prize_share_percent"] = json!("100");
    assert_eq!(problems(&v), Vec::new());
}

/// RULES.md §11 compares cards trimmed: a card with spaces around it is
/// read trimmed (valid), a card of spaces only is no card, and a card with
/// a space inside is still refused.
#[test]
fn cards_are_read_trimmed() {
    let mut v = base();
    v["pairs"][0]["players"][0]["card"] = json!(" FB100037 ");
    v["pairs"][1]["players"][0]["card"] = json!("   ");
    assert!(problems(&v).is_empty(), "{:?}", problems(&v));
    let file = parse_value(&v).unwrap();
    assert_eq!(file.pairs[0].players[0].card.as_deref(), Some("FB100037"));
    assert_eq!(file.pairs[1].players[0].card, None);
    v["pairs"][0]["players"][0]["card"] = json!(" FB 100037 ");
    expect(&v, "pairs[0].players[0].card", ProblemCode::CardInvalid);
}
