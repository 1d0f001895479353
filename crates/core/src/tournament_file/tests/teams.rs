use super::super::fixtures::{sample_team_tournament, simple_sheet, team};
use super::super::*;
use super::{
    assert_has, assert_messages_filled, assert_setting_cases, has, problems_of,
    shared_settings_cases,
};
use crate::i18n::Lang;
use serde_json::{json, Value};

/// A small valid team tournament as JSON: 4 teams (4, 5, 6 and 4
/// players), 2 rounds, one adjusted table, the last round with one table
/// still to play, penalties of every kind.
fn base() -> Value {
    let sheet = |ns: i64, ew: i64| serde_json::to_value(simple_sheet(ns, ew, 3)).unwrap();
    let teams: Vec<Value> = [(1, 4), (2, 5), (3, 6), (4, 4)]
        .iter()
        .map(|&(n, size)| serde_json::to_value(team(n, size)).unwrap())
        .collect();
    json!({
        "format": "burraco-td/tournament@1",
        "kind": "teams",
        "name": "Campionato a squadre",
        "date": "2026-11-21",
        "hands_per_round": 3,
        "team_scoring": {"method": "tables"},
        "entry_fee": "80.00",
        "prize_share_percent": "70",
        "payout": [{"min_entries": 1, "scheme": ["60", "40"]}],
        "teams": teams,
        "rounds": [
            {"number": 1, "movement": "round_robin", "bye": null, "matches": [
                {"home": 1, "away": 2, "tables": [
                    {"table": 1, "ns": {"team": 1, "players": [0, 1]}, "ew": {"team": 2, "players": [0, 1]}, "sheet": sheet(900, 500)},
                    {"table": 2, "ns": {"team": 2, "players": [2, 3]}, "ew": {"team": 1, "players": [2, 3]}, "sheet": sheet(460, 300)}]},
                {"home": 3, "away": 4, "tables": [
                    {"table": 3, "ns": {"team": 3, "players": [4, 5]}, "ew": {"team": 4, "players": [0, 1]}, "sheet": sheet(600, 600)},
                    {"table": 4, "ns": {"team": 4, "players": [2, 3]}, "ew": {"team": 3, "players": [0, 1]},
                     "adjusted": {"ns_vp": 14, "ew_vp": 6}}]}
            ]},
            {"number": 2, "movement": "round_robin", "bye": null, "matches": [
                {"home": 1, "away": 3, "tables": [
                    {"table": 1, "ns": {"team": 1, "players": [0, 1]}, "ew": {"team": 3, "players": [0, 1]}, "sheet": sheet(300, 300)},
                    {"table": 2, "ns": {"team": 3, "players": [2, 3]}, "ew": {"team": 1, "players": [2, 3]}}]},
                {"home": 4, "away": 2, "tables": [
                    {"table": 3, "ns": {"team": 4, "players": [0, 1]}, "ew": {"team": 2, "players": [0, 4]}, "sheet": sheet(1200, 100)},
                    {"table": 4, "ns": {"team": 2, "players": [2, 3]}, "ew": {"team": 4, "players": [2, 3]}, "sheet": sheet(800, 200)}]}
            ]}
        ],
        "penalties": [
            {"round": 1, "team": 2, "table": 1, "kind": "mp", "amount": 100, "reason": "late by 7 minutes"},
            {"round": 2, "team": 4, "kind": "warning", "reason": "late line-up"},
            {"round": 2, "team": 4, "table": 3, "kind": "vp", "amount": 1, "reason": "phone", "withdrawn": true}
        ]
    })
}

fn parse_value(v: &Value) -> Result<TeamTournamentFile, FileError> {
    parse_teams(&v.to_string())
}

fn problems(v: &Value) -> Vec<FileProblem> {
    problems_of(v, parse_teams, |f| validate_teams(f).err())
}

fn expect(v: &Value, path: &str, code: ProblemCode) {
    assert_has(&problems(v), path, code);
}

#[test]
fn the_example_parses_and_validates() {
    let file = parse_value(&base()).unwrap();
    assert_eq!(file.teams.len(), 4);
    assert_eq!(file.teams[2].players.len(), 6);
    assert_eq!(file.rounds[0].matches[1].tables[1].ns.players, [2, 3]);
    assert_eq!(file.team_scoring, TeamScoringFile::Tables);
    assert_eq!(file.team_bye_vp, None);
    let valid = validate_teams(&file).unwrap();
    assert_eq!(valid.team_bye_vp(), 28);
    assert_eq!(valid.team_bye_mp_diff(), 710);
    assert_eq!(valid.team_index(3), Some(2));
    assert_eq!(valid.scoring().total_vp(), 40);
    // Defaults: no team_scoring → tables.
    let mut v = base();
    v.as_object_mut().unwrap().remove("team_scoring");
    assert_eq!(
        parse_value(&v).unwrap().team_scoring,
        TeamScoringFile::Tables
    );
    // Scale: its own bye default (the pairs' 14).
    let mut v = base();
    v["team_scoring"] = json!({"method": "scale",
        "scale": [100, 300, 500, 700, 1000, 1300, 1600, 2000, 2500, 3000]});
    let file = parse_value(&v).unwrap();
    let valid = validate_teams(&file).unwrap();
    assert_eq!(valid.team_bye_vp(), 14);
    assert_eq!(valid.team_bye_mp_diff(), 705);
}

#[test]
fn kinds_are_told_apart() {
    let text = base().to_string();
    // The pairs reader refuses a team file, naming `kind`.
    let e = parse(&text).unwrap_err();
    assert_eq!(e.code(), "wrong_kind");
    assert_eq!(e.path(), "kind");
    assert_eq!(e.http_status(), 422);
    for lang in Lang::ALL {
        let m = e.message(lang);
        assert!(m.starts_with("kind: "), "{m}");
        assert!(!m.contains("file.error"), "{m}");
    }
    assert_ne!(e.message(Lang::It), e.message(Lang::En));
    assert!(e.message(Lang::En).contains("team tournament"));
    // parse_any reads both kinds.
    assert!(matches!(parse_any(&text), Ok(AnyTournamentFile::Teams(_))));
    let pairs = to_json(&super::super::fixtures::sample_tournament(4, 1, 1)).unwrap();
    let any = parse_any(&pairs).unwrap();
    assert_eq!(any.kind(), FileKind::Pairs);
    assert_eq!(any.to_json().unwrap(), pairs);
    // The team reader refuses a pairs file.
    let e = parse_teams(&pairs).unwrap_err();
    assert_eq!(
        e,
        FileError::WrongKind {
            expected: FileKind::Teams,
            found: FileKind::Pairs
        }
    );
    assert!(e.message(Lang::En).contains("pairs tournament"));
    // An explicit `"kind": "pairs"` is a pairs file.
    let mut v: Value = serde_json::from_str(&pairs).unwrap();
    v["kind"] = json!("pairs");
    assert!(parse(&v.to_string()).is_ok());
    assert!(matches!(
        parse_any(&v.to_string()),
        Ok(AnyTournamentFile::Pairs(_))
    ));
    // An unknown kind is a field error at `kind`, for every reader.
    v["kind"] = json!("trios");
    for e in [
        parse(&v.to_string()).unwrap_err(),
        parse_any(&v.to_string()).unwrap_err(),
        parse_teams(&v.to_string()).unwrap_err(),
    ] {
        assert_eq!(e.code(), "invalid_field");
        assert_eq!(e.path(), "kind");
    }
    // Not an object: the full read names the fault.
    assert_eq!(
        parse_any("[\"teams\"]").unwrap_err().code(),
        "invalid_field"
    );
    assert_eq!(parse_any("{\"kind\": ").unwrap_err().code(), "invalid_json");
}

#[test]
fn team_file_errors_name_the_place() {
    let field = |v: &Value| match parse_value(v) {
        Err(FileError::InvalidField { path, .. }) => path,
        other => panic!("expected a field error, got {other:?}"),
    };
    let mut v = base();
    v["rounds"][0]["matches"][1]["tables"][0]["ns"]["players"] = json!([0, 1, 2]);
    assert_eq!(field(&v), "rounds[0].matches[1].tables[0].ns.players");
    let mut v = base();
    v["rounds"][1]["matches"][0]["tables"][1]["ew"]
        .as_object_mut()
        .unwrap()
        .remove("team");
    assert_eq!(field(&v), "rounds[1].matches[0].tables[1].ew.team");
    let mut v = base();
    v["rounds"][0]["movement"] = json!("mitchell");
    assert_eq!(field(&v), "rounds[0].movement");
    let mut v = base();
    v.as_object_mut().unwrap().remove("teams");
    assert_eq!(field(&v), "teams");
    let mut v = base();
    v["team_scoring"] = json!({"method": "points"});
    assert_eq!(field(&v), "team_scoring.method");
    let mut v = base();
    v["penalties"][0]["team"] = json!("two");
    assert_eq!(field(&v), "penalties[0].team");
}

#[test]
fn round_trip_is_lossless_and_deterministic() {
    let mut with_extras = parse_value(&base()).unwrap();
    with_extras.team_bye_vp = Some(30);
    with_extras.team_scoring = TeamScoringFile::Scale {
        scale: vec![100, 300, 500, 700, 1000, 1300, 1600, 2000, 2500, 3000],
    };
    with_extras.rounds[0].matches[0].group = Some("A".into());
    with_extras.rounds[1].byes = vec![7, 9];
    with_extras.movements = Some(vec![TeamMovementKind::RoundRobin, TeamMovementKind::Danish]);
    with_extras.status = Some(Status::Running);
    with_extras.teams[1].withdrawn_from_round = Some(3);
    for file in [
        parse_value(&base()).unwrap(),
        with_extras,
        sample_team_tournament(7, 9, 3),
        sample_team_tournament(0, 0, 1),
    ] {
        let text = teams_to_json(&file).unwrap();
        let again = parse_teams(&text).unwrap();
        assert_eq!(again, file);
        assert_eq!(teams_to_json(&again).unwrap(), text);
        assert_eq!(
            teams_to_json(&parse_teams(&teams_to_json_compact(&file).unwrap()).unwrap()).unwrap(),
            text
        );
        let any = parse_any(&text).unwrap();
        assert_eq!(any.to_json().unwrap(), text);
    }
    let plain = teams_to_json(&parse_value(&base()).unwrap()).unwrap();
    let pos = |k: &str| plain.find(&format!("\"{k}\"")).unwrap();
    assert!(pos("format") < pos("kind") && pos("kind") < pos("name"));
    assert!(pos("team_scoring") < pos("entry_fee"));
    let teams = plain.find("\"teams\": [").unwrap();
    assert!(pos("payout") < teams && teams < pos("rounds"));
    assert!(plain.contains("\"kind\": \"teams\""));
    assert!(plain.contains("\"method\": \"tables\""));
    for absent in ["team_bye_vp", "group", "status", "\"withdrawn\": false"] {
        assert!(!plain.contains(absent), "{absent} written");
    }
}

#[test]
fn validation_teams() {
    let mut v = base();
    v["teams"][0]["players"].as_array_mut().unwrap().pop();
    expect(&v, "teams[0].players", ProblemCode::TeamSize);
    let mut v = base();
    v["teams"][2]["players"]
        .as_array_mut()
        .unwrap()
        .push(json!({"surname": "Neri", "name": "Ugo"}));
    expect(&v, "teams[2].players", ProblemCode::TeamSize);
    let mut v = base();
    v["teams"][1]["number"] = json!(1);
    expect(&v, "teams[1].number", ProblemCode::TeamNumberDuplicate);
    let mut v = base();
    v["teams"][1]["number"] = json!(0);
    expect(&v, "teams[1].number", ProblemCode::NotPositive);
    let mut v = base();
    v["teams"][3]["name"] = json!(" ");
    expect(&v, "teams[3].name", ProblemCode::TeamNameEmpty);
    let mut v = base();
    v["teams"][3]["players"][2]["surname"] = json!("");
    expect(
        &v,
        "teams[3].players[2].surname",
        ProblemCode::PlayerSurnameEmpty,
    );
    let mut v = base();
    v["teams"][3]["players"][3]["card"] = json!("AB 1");
    expect(&v, "teams[3].players[3].card", ProblemCode::CardInvalid);
    let mut v = base();
    let many: Vec<Value> = (1..=501)
        .map(|n| serde_json::to_value(team(n, 4)).unwrap())
        .collect();
    v["teams"] = Value::Array(many);
    expect(&v, "teams", ProblemCode::TooManyTeams);
}

#[test]
fn validation_matches() {
    // A team at two matches in one round.
    let mut v = base();
    v["rounds"][0]["matches"][1]["home"] = json!(1);
    expect(
        &v,
        "rounds[0].matches[1].home",
        ProblemCode::TeamSeatedTwice,
    );
    // Playing and resting.
    let mut v = base();
    v["rounds"][0]["bye"] = json!(2);
    expect(&v, "rounds[0].bye", ProblemCode::TeamSeatedTwice);
    let mut v = base();
    v["rounds"][0]["bye"] = json!([9, 3]);
    expect(&v, "rounds[0].bye[0]", ProblemCode::TeamUnknown);
    expect(&v, "rounds[0].bye[1]", ProblemCode::TeamSeatedTwice);
    // Unknown teams.
    let mut v = base();
    v["rounds"][1]["matches"][1]["away"] = json!(12);
    expect(&v, "rounds[1].matches[1].away", ProblemCode::TeamUnknown);
    // A match against itself.
    let mut v = base();
    v["rounds"][0]["matches"][0]["away"] = json!(1);
    expect(&v, "rounds[0].matches[0].away", ProblemCode::MatchSameTeam);
    // A player index not in the team (team 1 has 4 players: 0…3).
    let mut v = base();
    v["rounds"][0]["matches"][0]["tables"][0]["ns"]["players"] = json!([0, 4]);
    expect(
        &v,
        "rounds[0].matches[0].tables[0].ns.players[1]",
        ProblemCode::PlayerNotInTeam,
    );
    // …while team 2 has 5 (index 4 is fine).
    let mut v = base();
    v["rounds"][0]["matches"][0]["tables"][0]["ew"]["players"] = json!([4, 1]);
    assert_eq!(problems(&v), Vec::new());
    // The same player at both tables of a match, or twice in a line.
    let mut v = base();
    v["rounds"][0]["matches"][0]["tables"][1]["ew"]["players"] = json!([1, 3]);
    expect(
        &v,
        "rounds[0].matches[0].tables[1].ew.players[0]",
        ProblemCode::PlayerSeatedTwice,
    );
    let mut v = base();
    v["rounds"][0]["matches"][0]["tables"][0]["ns"]["players"] = json!([2, 2]);
    expect(
        &v,
        "rounds[0].matches[0].tables[0].ns.players[1]",
        ProblemCode::PlayerSeatedTwice,
    );
    // One table, three tables.
    let mut v = base();
    v["rounds"][0]["matches"][0]["tables"]
        .as_array_mut()
        .unwrap()
        .pop();
    expect(
        &v,
        "rounds[0].matches[0].tables",
        ProblemCode::MatchTablesCount,
    );
    let mut v = base();
    let third = json!({"table": 9, "ns": {"team": 1, "players": [0, 1]},
        "ew": {"team": 2, "players": [0, 1]}, "sheet": serde_json::to_value(simple_sheet(0, 0, 3)).unwrap()});
    v["rounds"][0]["matches"][0]["tables"]
        .as_array_mut()
        .unwrap()
        .push(third);
    expect(
        &v,
        "rounds[0].matches[0].tables",
        ProblemCode::MatchTablesCount,
    );
    // Each team once NS and once EW.
    let mut v = base();
    v["rounds"][0]["matches"][0]["tables"][1]["ns"] = json!({"team": 1, "players": [2, 3]});
    v["rounds"][0]["matches"][0]["tables"][1]["ew"] = json!({"team": 2, "players": [2, 3]});
    let p = problems(&v);
    assert!(
        has(
            &p,
            "rounds[0].matches[0].tables[1].ns.team",
            ProblemCode::MatchLinesUnbalanced
        ),
        "{p:?}"
    );
    assert!(has(
        &p,
        "rounds[0].matches[0].tables[1].ew.team",
        ProblemCode::MatchLinesUnbalanced
    ));
    // One team on both lines of a table.
    let mut v = base();
    v["rounds"][0]["matches"][0]["tables"][0]["ew"] = json!({"team": 1, "players": [2, 3]});
    v["rounds"][0]["matches"][0]["tables"][1]["ns"] = json!({"team": 2, "players": [2, 3]});
    v["rounds"][0]["matches"][0]["tables"][1]["ew"] = json!({"team": 2, "players": [0, 1]});
    let p = problems(&v);
    for t in [0, 1] {
        let path = format!("rounds[0].matches[0].tables[{t}].ew.team");
        assert!(
            has(&p, &path, ProblemCode::MatchLinesUnbalanced),
            "{path}: {p:?}"
        );
    }
    // A line of a team that is not in the match.
    let mut v = base();
    v["rounds"][0]["matches"][0]["tables"][1]["ew"]["team"] = json!(3);
    expect(
        &v,
        "rounds[0].matches[0].tables[1].ew.team",
        ProblemCode::LineTeamNotInMatch,
    );
    // Table numbers are unique across the round's matches.
    let mut v = base();
    v["rounds"][0]["matches"][1]["tables"][0]["table"] = json!(2);
    expect(
        &v,
        "rounds[0].matches[1].tables[0].table",
        ProblemCode::TableNumberDuplicate,
    );
    // Sheets and adjusted scores as in pairs.
    let mut v = base();
    v["rounds"][0]["matches"][1]["tables"][1]["sheet"] =
        serde_json::to_value(simple_sheet(0, 0, 3)).unwrap();
    expect(
        &v,
        "rounds[0].matches[1].tables[1]",
        ProblemCode::SheetAndAdjusted,
    );
    let mut v = base();
    v["rounds"][0]["matches"][1]["tables"][1]["adjusted"]["ew_vp"] = json!(21);
    expect(
        &v,
        "rounds[0].matches[1].tables[1].adjusted.ew_vp",
        ProblemCode::AdjustedVpOutOfRange,
    );
    let mut v = base();
    v["rounds"][0]["matches"][0]["tables"][0]
        .as_object_mut()
        .unwrap()
        .remove("sheet");
    expect(
        &v,
        "rounds[0].matches[0].tables[0]",
        ProblemCode::TableNotPlayed,
    );
    let mut v = base();
    v["status"] = json!("finished");
    expect(
        &v,
        "rounds[1].matches[0].tables[1]",
        ProblemCode::TableNotPlayedFinished,
    );
    let mut v = base();
    v["rounds"][1]["number"] = json!(3);
    expect(&v, "rounds[1].number", ProblemCode::RoundNumberOutOfOrder);
    // Withdrawn and no-show teams.
    let mut v = base();
    v["teams"][3]["withdrawn_from_round"] = json!(2);
    expect(
        &v,
        "rounds[1].matches[1].home",
        ProblemCode::TeamWithdrawnSeated,
    );
    let mut v = base();
    v["teams"][3]["no_show"] = json!(true);
    expect(&v, "rounds[0].matches[1].away", ProblemCode::TeamNoShow);
}

#[test]
fn validation_groups() {
    let mut v = base();
    v["rounds"][0]["matches"][0]["group"] = json!("A");
    v["rounds"][0]["matches"][1]["group"] = json!("B");
    // Round 2 pairs 1 (A) with 3 (B) in a round-robin round.
    v["rounds"][1]["matches"][0]["group"] = json!("A");
    v["rounds"][1]["matches"][1]["group"] = json!("B");
    let p = problems(&v);
    assert!(
        has(
            &p,
            "rounds[1].matches[0].group",
            ProblemCode::TeamGroupChanged
        ),
        "{p:?}"
    );
    assert!(has(
        &p,
        "rounds[1].matches[1].group",
        ProblemCode::TeamGroupChanged
    ));
    let changed = p
        .iter()
        .find(|x| x.code == ProblemCode::TeamGroupChanged)
        .unwrap();
    assert!(changed.message(Lang::En).contains("group B"), "{changed:?}");
    // The same in a Danish round is fine (groups may mix there).
    v["rounds"][1]["movement"] = json!("danish");
    assert_eq!(problems(&v), Vec::new());
    // A team in a group, then without one.
    let mut v = base();
    v["rounds"][0]["matches"][0]["group"] = json!("A");
    v["rounds"][0]["matches"][1]["group"] = json!("A");
    expect(
        &v,
        "rounds[1].matches[0].group",
        ProblemCode::TeamGroupChanged,
    );
    let mut v = base();
    v["rounds"][0]["matches"][0]["group"] = json!(" ");
    expect(&v, "rounds[0].matches[0].group", ProblemCode::GroupEmpty);
    let mut v = base();
    v["rounds"][0]["matches"][0]["group"] = json!("x".repeat(21));
    expect(&v, "rounds[0].matches[0].group", ProblemCode::TextTooLong);
}

#[test]
fn validation_penalties() {
    let cases: Vec<(Value, &str, ProblemCode)> = vec![
        (
            json!({"round": 1, "team": 1, "table": 3, "kind": "warning", "reason": "x"}),
            "penalties[0].table",
            ProblemCode::PenaltyTeamTableMismatch,
        ),
        (
            json!({"round": 2, "team": 2, "table": 1, "kind": "mp", "amount": 50, "reason": "x"}),
            "penalties[0].table",
            ProblemCode::PenaltyTeamTableMismatch,
        ),
        (
            json!({"round": 1, "team": 1, "kind": "mp", "amount": 50, "reason": "x"}),
            "penalties[0].table",
            ProblemCode::PenaltyTableMissing,
        ),
        (
            json!({"round": 1, "team": 8, "kind": "warning", "reason": "x"}),
            "penalties[0].team",
            ProblemCode::PenaltyTeamUnknown,
        ),
        (
            json!({"round": 3, "team": 1, "kind": "warning", "reason": "x"}),
            "penalties[0].round",
            ProblemCode::PenaltyRoundUnknown,
        ),
        (
            json!({"round": 1, "team": 1, "table": 1, "kind": "vp", "reason": "x"}),
            "penalties[0].amount",
            ProblemCode::PenaltyAmountMissing,
        ),
        (
            json!({"round": 1, "team": 1, "kind": "warning", "amount": 1, "reason": "x"}),
            "penalties[0].amount",
            ProblemCode::PenaltyAmountNotAllowed,
        ),
        (
            json!({"round": 1, "team": 1, "kind": "vp", "amount": 101, "reason": "x"}),
            "penalties[0].amount",
            ProblemCode::ValueTooLarge,
        ),
        (
            json!({"round": 1, "team": 1, "kind": "warning"}),
            "penalties[0].reason",
            ProblemCode::PenaltyReasonEmpty,
        ),
    ];
    for (penalty, path, code) in cases {
        let mut v = base();
        v["penalties"] = json!([penalty]);
        expect(&v, path, code);
    }
    // A resting team: a VP penalty is fine, naming a table is not.
    let mut v = base();
    v["teams"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::to_value(team(5, 4)).unwrap());
    v["rounds"][0]["bye"] = json!(5);
    v["penalties"] = json!([{"round": 1, "team": 5, "kind": "vp", "amount": 1, "reason": "x"}]);
    assert_eq!(problems(&v), Vec::new());
    v["penalties"][0]["table"] = json!(1);
    expect(
        &v,
        "penalties[0].table",
        ProblemCode::PenaltyTeamTableMismatch,
    );
    // A no-show team's penalty.
    let mut v = base();
    v["teams"]
        .as_array_mut()
        .unwrap()
        .push(json!({"number": 6, "name": "Assente", "no_show": true,
                     "players": serde_json::to_value(team(6, 4)).unwrap()["players"]}));
    v["penalties"] = json!([{"round": 1, "team": 6, "kind": "warning", "reason": "x"}]);
    expect(&v, "penalties[0].team", ProblemCode::TeamNoShow);
}

#[test]
fn validation_settings_are_the_pairs_checks() {
    let mut cases = shared_settings_cases();
    cases.extend(vec![
        (
            "team_bye_vp",
            json!(41),
            "team_bye_vp",
            ProblemCode::TeamByeVpOutOfRange,
        ),
        (
            "team_scoring",
            json!({"method": "scale", "scale": [100, 50]}),
            "team_scoring.scale",
            ProblemCode::VpScaleInvalid,
        ),
    ]);
    assert_setting_cases(base, problems, cases);
    // 40 fits `tables`; under `scale` the award is at most 20.
    let mut v = base();
    v["team_bye_vp"] = json!(40);
    assert_eq!(problems(&v), Vec::new());
    v["team_scoring"] = json!({"method": "scale",
        "scale": [100, 300, 500, 700, 1000, 1300, 1600, 2000, 2500, 3000]});
    expect(&v, "team_bye_vp", ProblemCode::TeamByeVpOutOfRange);
    v["team_bye_vp"] = json!(20);
    assert_eq!(problems(&v), Vec::new());
    // The team scale's message names the team scale.
    let mut v = base();
    v["team_scoring"] = json!({"method": "scale", "scale": [100, 50]});
    let p = problems(&v);
    assert!(p[0].message(Lang::En).contains("team VP scale"), "{p:?}");
    assert!(p[0].message(Lang::It).contains("squadre"), "{p:?}");
}

#[test]
fn team_problems_fill_their_messages() {
    // Real problems of every team kind fill every placeholder.
    let mut v = base();
    v["teams"][0]["players"].as_array_mut().unwrap().pop();
    v["teams"][3]["name"] = json!("");
    v["rounds"][0]["matches"][0]["tables"][0]["ew"]["players"] = json!([0, 9]);
    v["rounds"][0]["matches"][0]["tables"][1]["ew"]["team"] = json!(4);
    v["rounds"][0]["matches"][1]["tables"]
        .as_array_mut()
        .unwrap()
        .pop();
    v["rounds"][1]["matches"][1]["away"] = json!(4);
    v["rounds"][1]["bye"] = json!(2);
    v["team_bye_vp"] = json!(50);
    v["penalties"][0]["table"] = json!(4);
    v["penalties"][1]["team"] = json!(11);
    v["penalties"][2].as_object_mut().unwrap().remove("table");
    v["penalties"][2]["kind"] = json!("mp");
    let p = problems(&v);
    assert!(p.len() >= 9, "{p:?}");
    assert_messages_filled(&p);
}

#[test]
fn team_samples_are_valid() {
    for (teams, rounds, seed) in [
        (0, 0, 1),
        (1, 2, 2),
        (2, 3, 3),
        (5, 5, 4),
        (6, 8, 5),
        (14, 16, 6),
        (40, 6, 7),
    ] {
        let file = sample_team_tournament(teams, rounds, seed);
        assert_eq!(file, sample_team_tournament(teams, rounds, seed));
        if let Err(p) = validate_teams(&file) {
            panic!("{teams}x{rounds}: {:?}", &p[..p.len().min(5)]);
        }
        assert_eq!(file.teams.len(), teams);
        assert_eq!(file.rounds.len(), rounds);
        for t in &file.teams {
            assert!((4..=6).contains(&t.players.len()));
        }
    }
    let big = sample_team_tournament(30, 8, 9);
    assert!(big.penalties.iter().any(|p| p.kind == PenaltyKind::Mp));
    assert!(big.penalties.iter().any(|p| p.withdrawn));
    let danish = sample_team_tournament(6, 8, 10);
    assert_eq!(
        danish.rounds[6].movement,
        Some(TeamMovementKind::Danish),
        "6 teams: 5 round-robin rounds, then Danish"
    );
}
