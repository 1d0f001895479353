//! The individual tournament file (`"kind": "individual"`, FORMAT.md
//! "Individual tournaments"): reading, writing back, validation.

use super::super::fixtures::simple_sheet;
use super::super::individual_kit::player;
use super::super::*;
use super::{
    assert_has, assert_messages_filled, assert_setting_cases, has, problems_of,
    shared_settings_cases,
};
use crate::i18n::Lang;
use serde_json::{json, Value};

/// A small valid individual tournament as JSON: 10 players (one no-show),
/// a drawn round with one resting player, a Danish round with one table
/// adjusted and one still to play, penalties of every kind.
fn base() -> Value {
    let sheet = |ns: i64, ew: i64| serde_json::to_value(simple_sheet(ns, ew, 3)).unwrap();
    let mut players: Vec<Value> = (1..=10)
        .map(|n| serde_json::to_value(player(n)).unwrap())
        .collect();
    players[9]["no_show"] = json!(true);
    json!({
        "format": "burraco-td/tournament@1",
        "kind": "individual",
        "name": "Campionato individuale",
        "date": "2026-11-21",
        "hands_per_round": 3,
        "entry_fee": "10.00",
        "prize_share_percent": "70",
        "payout": [{"min_entries": 1, "scheme": ["60", "40"]}],
        "players": players,
        "rounds": [
            {"number": 1, "movement": "draw", "bye": [8], "tables": [
                {"table": 1, "ns": [3, 7], "ew": [5, 1], "sheet": sheet(900, 500)},
                {"table": 2, "ns": [2, 6], "ew": [4, 9], "sheet": sheet(600, 600)}]},
            {"number": 2, "movement": "danish", "bye": [2], "tables": [
                {"table": 1, "ns": [3, 1], "ew": [7, 5], "adjusted": {"ns_vp": 14, "ew_vp": 6}},
                {"table": 2, "ns": [6, 4], "ew": [8, 9]}]}
        ],
        "penalties": [
            {"round": 1, "player": 7, "table": 1, "kind": "mp", "amount": 100, "reason": "late by 7 minutes"},
            {"round": 2, "player": 4, "kind": "warning", "reason": "phone"},
            {"round": 2, "player": 3, "kind": "vp", "amount": 1, "reason": "phone", "withdrawn": true}
        ]
    })
}

fn problems(v: &Value) -> Vec<FileProblem> {
    problems_of(v, parse_individual, |f| validate_individual(f).err())
}

#[test]
fn the_format_example_reads_and_writes_back_the_same() {
    let v = base();
    let file = parse_individual(&v.to_string()).unwrap();
    assert_eq!(file.players.len(), 10);
    assert_eq!(file.players[0].player.surname, player(1).player.surname);
    assert_eq!(file.rounds[0].tables[0].ns, [3, 7]);
    assert_eq!(file.rounds[0].byes, vec![8]);
    assert_eq!(
        file.rounds[1].movement,
        Some(IndividualMovementKind::Danish)
    );
    assert_eq!(file.penalties[0].player, 7);
    assert!(
        validate_individual(&file).is_ok(),
        "{:?}",
        validate_individual(&file).err()
    );
    let text = AnyTournamentFile::Individual(file.clone())
        .to_json()
        .unwrap();
    let again = parse_individual(&text).unwrap();
    assert_eq!(again, file);
    assert_eq!(
        AnyTournamentFile::Individual(again).to_json().unwrap(),
        text
    );
    // The kind, the players' names at their own place, the bye as a list.
    let out: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(out["kind"], json!("individual"));
    assert_eq!(out["players"][0]["number"], json!(1));
    assert!(out["players"][0]["surname"].is_string());
    assert_eq!(out["rounds"][0]["bye"], json!([8]));
    assert!(matches!(
        parse_any(&text),
        Ok(AnyTournamentFile::Individual(_))
    ));
    assert_eq!(parse_any(&text).unwrap().kind(), FileKind::Individual);
}

#[test]
fn a_bye_reads_as_null_a_number_or_a_list_and_writes_as_a_list() {
    for (bye, expected) in [
        (json!(null), vec![]),
        (json!(8), vec![8]),
        (json!([8]), vec![8]),
    ] {
        let mut v = base();
        v["rounds"][0]["bye"] = bye;
        let f = parse_individual(&v.to_string()).unwrap();
        assert_eq!(f.rounds[0].byes, expected);
        let out = serde_json::to_value(&f).unwrap();
        assert_eq!(out["rounds"][0]["bye"], json!(expected));
    }
    let mut v = base();
    v["rounds"][0].as_object_mut().unwrap().remove("bye");
    assert!(parse_individual(&v.to_string()).unwrap().rounds[0]
        .byes
        .is_empty());
}

#[test]
fn other_kinds_are_refused_by_name() {
    let text = base().to_string();
    for err in [parse(&text).err(), parse_teams(&text).err()] {
        assert_eq!(
            err.as_ref().map(FileError::code),
            Some("wrong_kind"),
            "{err:?}"
        );
        let e = err.unwrap();
        assert_eq!(e.path(), "kind");
        for lang in Lang::ALL {
            assert!(e.message(lang).contains("individual"));
        }
    }
    let mut pairs = base();
    pairs["kind"] = json!("pairs");
    let e = parse_individual(&pairs.to_string()).unwrap_err();
    assert_eq!(
        e,
        FileError::WrongKind {
            expected: FileKind::Individual,
            found: FileKind::Pairs
        }
    );
    assert!(!e.message(Lang::It).contains('{'));
    let mut unknown = base();
    unknown["kind"] = json!("singles");
    assert_eq!(parse_any(&unknown.to_string()).unwrap_err().path(), "kind");
}

#[test]
fn a_line_is_exactly_two_players_named_at_its_place() {
    let mut v = base();
    v["rounds"][0]["tables"][1]["ew"] = json!([4, 9, 10]);
    let e = parse_individual(&v.to_string()).unwrap_err();
    assert_eq!(e.path(), "rounds[0].tables[1].ew", "{e:?}");
    let mut v = base();
    v["players"][2].as_object_mut().unwrap().remove("surname");
    let e = parse_individual(&v.to_string()).unwrap_err();
    assert!(e.path().starts_with("players[2]"), "{e:?}");
}

#[test]
fn the_base_file_is_valid_and_its_faults_are_named() {
    assert!(problems(&base()).is_empty(), "{:?}", problems(&base()));
    type Case = (fn(&mut Value), &'static str, ProblemCode);
    let cases: Vec<Case> = vec![
        (
            |v| v["players"][1]["number"] = json!(1),
            "players[1].number",
            ProblemCode::PlayerNumberDuplicate,
        ),
        (
            |v| v["players"][1]["surname"] = json!(" "),
            "players[1].surname",
            ProblemCode::PlayerSurnameEmpty,
        ),
        (
            |v| v["players"][1]["card"] = json!("AB 1"),
            "players[1].card",
            ProblemCode::CardInvalid,
        ),
        (
            |v| v["rounds"][0]["tables"][0]["ns"] = json!([3, 3]),
            "rounds[0].tables[0].ns[1]",
            ProblemCode::PlayerAlreadySeated,
        ),
        (
            |v| v["rounds"][0]["tables"][1]["ew"] = json!([4, 99]),
            "rounds[0].tables[1].ew[1]",
            ProblemCode::PlayerUnknown,
        ),
        (
            |v| v["rounds"][0]["bye"] = json!([8, 1]),
            "rounds[0].bye[1]",
            ProblemCode::PlayerAlreadySeated,
        ),
        (
            |v| v["rounds"][0]["bye"] = json!([10]),
            "rounds[0].bye",
            ProblemCode::PlayerNoShow,
        ),
        (
            |v| v["players"][6]["withdrawn_from_round"] = json!(2),
            "rounds[1].tables[0].ew[0]",
            ProblemCode::PlayerWithdrawnSeated,
        ),
        (
            |v| v["rounds"][1]["tables"][1]["table"] = json!(1),
            "rounds[1].tables[1].table",
            ProblemCode::TableNumberDuplicate,
        ),
        (
            |v| v["penalties"][0]["player"] = json!(42),
            "penalties[0].player",
            ProblemCode::PenaltyPlayerUnknown,
        ),
        (
            |v| v["penalties"][0]["player"] = json!(10),
            "penalties[0].player",
            ProblemCode::PlayerNoShow,
        ),
        (
            |v| v["penalties"][0]["table"] = json!(2),
            "penalties[0].table",
            ProblemCode::PenaltyPlayerTableMismatch,
        ),
        (
            |v| {
                v["penalties"][0]["player"] = json!(8);
                v["penalties"][0]["table"] = Value::Null;
            },
            "penalties[0].player",
            ProblemCode::PenaltyPlayerMpNotSeated,
        ),
        (
            |v| v["penalties"][1]["amount"] = json!(1),
            "penalties[1].amount",
            ProblemCode::PenaltyAmountNotAllowed,
        ),
        (
            |v| {
                v["rounds"][0]["tables"][0]
                    .as_object_mut()
                    .unwrap()
                    .remove("sheet")
                    .map(|_| ())
                    .unwrap_or(())
            },
            "rounds[0].tables[0]",
            ProblemCode::TableNotPlayed,
        ),
    ];
    let mut all = Vec::new();
    for (change, path, code) in cases {
        let mut v = base();
        change(&mut v);
        let p = problems(&v);
        assert_has(&p, path, code);
        all.extend(p);
    }
    assert_messages_filled(&all);
}

#[test]
fn too_many_players_and_the_shared_settings() {
    let mut v = base();
    let many: Vec<Value> = (1..=u32::try_from(MAX_PLAYERS).unwrap() + 1)
        .map(|n| serde_json::to_value(player(n)).unwrap())
        .collect();
    v["players"] = json!(many);
    let p = problems(&v);
    assert!(
        has(&p, "players", ProblemCode::TooManyPlayers),
        "{:?}",
        &p[..p.len().min(3)]
    );
    // Ten players: a scheme from 5 entries is fine, one from 12 is not.
    let mut cases = shared_settings_cases();
    let from_5 = json!([{"min_entries": 5, "scheme": ["100"]}]);
    for case in &mut cases {
        if case.1 == from_5 {
            case.1 = json!([{"min_entries": 12, "scheme": ["100"]}]);
        }
    }
    assert_setting_cases(base, problems, cases);
}
