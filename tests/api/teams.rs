//! Team tournaments (issue 25) over HTTP, on both databases: created as
//! teams, teams registered with their players (refused with the reason next
//! to the field), checked in, the start (round robin), line-ups at the desk
//! and from a phone with the team code (braked; final once a table has a
//! result), sheets entered and confirmed from the tables with the team
//! codes, the team standings, cards and match results (cached per
//! revision), the next rounds (round robin, then Danish), export and import
//! giving the same standings.

use burraco_td::i18n::Lang;
use burraco_td::tournament_file::{parse_any, AnyTournamentFile, TeamTournamentFile};
use serde_json::{json, Value};

use crate::helpers::{location, spawn_app, tid_of, Browser, TestApp};
use crate::table_side::{answer, enter, sheet, table_code};
use crate::tournaments::create_through_the_form;

/// Registers team `name` with `players` (surname, name) through the form.
pub async fn add_team(
    b: &Browser,
    t: &str,
    name: &str,
    players: &[(&str, &str)],
) -> reqwest::Response {
    let keys = [
        ["p1_surname", "p1_name"],
        ["p2_surname", "p2_name"],
        ["p3_surname", "p3_name"],
        ["p4_surname", "p4_name"],
        ["p5_surname", "p5_name"],
        ["p6_surname", "p6_name"],
    ];
    let mut form: Vec<(&str, &str)> = vec![("name", name)];
    for (i, (s, n)) in players.iter().enumerate() {
        form.push((keys[i][0], s));
        form.push((keys[i][1], n));
    }
    b.submit(&format!("{t}/teams/new"), &format!("{t}/teams"), &form)
        .await
}

/// A team's four players: "<team>a Anna", "<team>b Bruno", …
fn four(team: &str) -> Vec<(String, String)> {
    ["Anna", "Bruno", "Carla", "Dario"]
        .iter()
        .enumerate()
        .map(|(i, n)| (format!("{team}{}", (b'a' + i as u8) as char), n.to_string()))
        .collect()
}

fn refs(v: &[(String, String)]) -> Vec<(&str, &str)> {
    v.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect()
}

/// Ids of the teams of a tournament, by number.
pub fn team_ids(app: &TestApp, tid: i64) -> Vec<(i32, i64, Option<String>)> {
    crate::peek::teams_of(app, tid)
}

/// The team file as the database has it now.
pub fn team_file(app: &TestApp, tid: i64) -> TeamTournamentFile {
    teams_in(&export_text(app, tid))
}

/// The team tournament a file holds.
fn teams_in(text: &str) -> TeamTournamentFile {
    match parse_any(text).unwrap() {
        AnyTournamentFile::Teams(f) => f,
        other => panic!("not a team file: {:?}", other.kind()),
    }
}

/// The export of tournament `tid` through the services (on a thread of its
/// own: the tests' runtime is busy awaiting).
fn export_text(app: &TestApp, tid: i64) -> String {
    let handle = app.handle.clone();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let actor = burraco_td::services::Actor {
                user_id: burraco_td::ids::UserId(1),
                role: burraco_td::auth::Role::Admin,
            };
            burraco_td::services::files::export_any(
                &handle,
                actor,
                burraco_td::ids::TournamentId(tid),
                chrono_tz::Europe::Rome,
            )
            .await
            .unwrap()
            .to_json()
            .unwrap()
        })
    })
    .join()
    .unwrap()
}

/// The tables of a round: (table, NS team, EW team).
fn tables(f: &TeamTournamentFile, round: u32) -> Vec<(u32, u32, u32)> {
    let r = f.rounds.iter().find(|r| r.number == round).unwrap();
    r.matches
        .iter()
        .flat_map(|m| m.tables.iter().map(|t| (t.table, t.ns.team, t.ew.team)))
        .collect()
}

pub fn code_of(app: &TestApp, tid: i64, team: u32) -> String {
    team_ids(app, tid)
        .into_iter()
        .find(|(n, _, _)| *n as u32 == team)
        .and_then(|(_, _, c)| c)
        .expect("a team code")
}

/// Every table of `round` entered by its NS team and confirmed by its EW
/// team from the phones (the team codes): NS scores `ns`, EW `ew` on each.
pub async fn play_round(app: &TestApp, tid: i64, round: u32, ns: i64, ew: i64) {
    let f = team_file(app, tid);
    for (table, ns_team, ew_team) in tables(&f, round) {
        let code = table_code(app, tid, table as i32);
        let r = enter(app, &code, &code_of(app, tid, ns_team), sheet(ns, ew)).await;
        assert_eq!(r.status.as_u16(), 200, "enter table {table}: {:?}", r.body);
        let r = answer(app, &code, &code_of(app, tid, ew_team), true, "").await;
        assert_eq!(
            r.status.as_u16(),
            200,
            "confirm table {table}: {:?}",
            r.body
        );
    }
}

pub async fn new_team_tournament(
    app: &TestApp,
    rounds: &str,
    extra: &[(&'static str, &str)],
) -> String {
    app.tournament("Campionato a squadre")
        .owner("admin")
        .teams(0)
        .set("planned_rounds", rounds)
        .with(extra)
        .build()
        .await
        .path
}

pub async fn check_in_teams(app: &TestApp, t: &str) {
    for (_, id, _) in team_ids(app, tid_of(t)) {
        let res = app
            .submit(
                &format!("{t}/teams"),
                &format!("{t}/teams/{id}/checkin"),
                &[("value", "true")],
            )
            .await;
        assert_eq!(res.status().as_u16(), 303);
    }
}

pub async fn start(app: &TestApp, t: &str) {
    let page = app.get_html(&format!("{t}/confirm-start")).await;
    let rev = page
        .split("name=\"revision\" value=\"")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .unwrap()
        .to_string();
    // The start button leads to the confirmation page, which says what
    // the start does; its form draws round 1.
    let res = app
        .submit(&format!("{t}/teams"), &format!("{t}/teams/start"), &[])
        .await;
    assert_eq!(location(&res), format!("{t}/confirm-start"));
    assert!(page.contains(&format!("action=\"{t}/draw\"")), "{page}");
    let res = app
        .submit(
            &format!("{t}/confirm-start"),
            &format!("{t}/draw"),
            &[("revision", &rev), ("confirm", "1")],
        )
        .await;
    assert_eq!(res.status().as_u16(), 303, "{}", res.text().await.unwrap());
}

pub async fn next_round(app: &TestApp, t: &str, n: &str) -> reqwest::Response {
    app.submit(
        &format!("{t}/teams"),
        &format!("{t}/teams/round"),
        &[("round", n)],
    )
    .await
}

#[tokio::test]
async fn a_team_evening_from_registration_to_standings_and_back_from_its_file() {
    let app = spawn_app().await;
    app.setup_admin().await;
    // Created as teams through the settings form (its kind field).
    let t = create_through_the_form(
        &app,
        "Campionato a squadre",
        &[("kind", "teams"), ("planned_rounds", "5")],
    )
    .await;
    let tid = tid_of(&t);
    assert!(
        app.get_html(&t).await.contains(&format!("{t}/teams")),
        "the tournament page leads to the teams"
    );

    // A team of three is refused, the reason next to the fourth player.
    let res = add_team(
        &app,
        &t,
        "Tre soli",
        &[("Uno", "A"), ("Due", "B"), ("Tre", "C")],
    )
    .await;
    assert_eq!(res.status().as_u16(), 422);
    let html = res.text().await.unwrap();
    assert!(
        html.contains("p4_surname") && html.contains("field-error"),
        "{html}"
    );
    // Five teams, one of five players.
    for (i, name) in ["Sole", "Luna", "Stelle", "Mare", "Vento"]
        .iter()
        .enumerate()
    {
        let mut players = four(name);
        if i == 0 {
            players.push(("Sole_e".into(), "Elena".into()));
        }
        let res = add_team(&app, &t, name, &refs(&players)).await;
        assert_eq!(
            res.status().as_u16(),
            303,
            "team {name}: {}",
            res.text().await.unwrap()
        );
    }
    // A player already in a team cannot join another.
    let mut twice = four("Nuvole");
    twice[2] = ("Solea".into(), "Anna".into());
    let res = add_team(&app, &t, "Nuvole", &refs(&twice)).await;
    assert_eq!(res.status().as_u16(), 422);
    assert!(res.text().await.unwrap().contains("1"));
    assert_eq!(team_ids(&app, tid).len(), 5);

    check_in_teams(&app, &t).await;
    start(&app, &t).await;
    // The pairs' draw is not for a team tournament.
    let res = app
        .submit(
            &format!("{t}/teams"),
            &format!("{t}/draw"),
            &[("confirm", "1")],
        )
        .await;
    assert_eq!(res.status().as_u16(), 409);

    let f = team_file(&app, tid);
    let r1 = &f.rounds[0];
    assert_eq!(r1.matches.len(), 2, "five teams: two matches");
    assert_eq!(r1.byes.len(), 1, "and one team rests");
    for m in &r1.matches {
        assert_eq!(m.tables.len(), 2);
        assert_eq!((m.tables[0].ns.team, m.tables[0].ew.team), (m.home, m.away));
        assert_eq!((m.tables[1].ns.team, m.tables[1].ew.team), (m.away, m.home));
        assert_eq!(m.tables[0].ns.players, [0, 1]);
        assert_eq!(m.tables[1].ew.players, [2, 3]);
    }
    // Every team has a code, shown on the director's page and the cards.
    let codes = team_ids(&app, tid);
    assert!(codes
        .iter()
        .all(|(_, _, c)| c.as_ref().is_some_and(|c| c.len() == 6)));
    let cards = app.get_html(&format!("{t}/teams/cards")).await;
    assert!(cards.contains(codes[0].2.as_deref().unwrap()));

    // Team 1 (five players) is playing or resting; find a playing team of
    // five players: Sole is team 1.
    let sole_plays = r1.matches.iter().any(|m| m.has(1));
    let captain = if sole_plays { 1 } else { r1.matches[0].home };
    let lineup = format!("/t/{tid}/teams/{captain}/lineup");
    let page = app.another_browser();
    let html = page.get_html(&lineup).await;
    assert!(html.contains("name=\"code\""), "{html}");
    // A wrong code is refused next to the code field, and nothing changes.
    let form = [
        ("round", "1"),
        ("a1", "1"),
        ("a2", "3"),
        ("b1", "2"),
        ("b2", "4"),
        ("code", "000000"),
    ];
    let res = page.submit(&lineup, &lineup, &form).await;
    assert_eq!(res.status().as_u16(), 422);
    assert!(res.text().await.unwrap().contains("field-error"));
    // Twice the same player is refused.
    let code = code_of(&app, tid, captain);
    let bad = [
        ("round", "1"),
        ("a1", "1"),
        ("a2", "1"),
        ("b1", "2"),
        ("b2", "4"),
        ("code", code.as_str()),
    ];
    assert_eq!(
        page.submit(&lineup, &lineup, &bad).await.status().as_u16(),
        422
    );
    let good = [
        ("round", "1"),
        ("a1", "1"),
        ("a2", "3"),
        ("b1", "2"),
        ("b2", "4"),
        ("code", code.as_str()),
    ];
    let res = page.submit(&lineup, &lineup, &good).await;
    assert_eq!(res.status().as_u16(), 303, "{}", res.text().await.unwrap());
    let f = team_file(&app, tid);
    let m = f.rounds[0].matches.iter().find(|m| m.has(captain)).unwrap();
    let lines: Vec<[u32; 2]> = m
        .tables
        .iter()
        .flat_map(|t| [t.ns, t.ew])
        .filter(|l| l.team == captain)
        .map(|l| l.players)
        .collect();
    assert_eq!(lines, vec![[0, 2], [1, 3]], "the captain's line-up sits");
    // The desk can name it too.
    let desk = format!("{t}/teams/{captain}/lineup");
    let res = app
        .submit(
            &desk,
            &desk,
            &[
                ("round", "1"),
                ("a1", "1"),
                ("a2", "2"),
                ("b1", "3"),
                ("b2", "4"),
            ],
        )
        .await;
    assert_eq!(res.status().as_u16(), 303);

    // Round 1 from the phones: every table entered by NS, confirmed by EW
    // with the team codes.
    play_round(&app, tid, 1, 200, 100).await;
    // Once a table has a result the line-up is final.
    let res = page.submit(&lineup, &lineup, &good).await;
    assert_eq!(res.status().as_u16(), 409);

    // The public standings: every team, computed as the core computes the file.
    let f = team_file(&app, tid);
    let st = burraco_td::standings::compute_teams_file(&f, Lang::En).unwrap();
    let html = app.another_browser().get_html(&format!("/t/{tid}")).await;
    assert!(html.contains("team-standings"), "{html}");
    for row in &st.rows {
        assert!(html.contains(&format!("<b>{}</b>", row.number)));
    }
    let resting = f.rounds[0].byes[0];
    let rest_row = st.row(resting).unwrap();
    assert_eq!(
        rest_row.vp, 28,
        "the resting team gets twice the pairs' bye"
    );
    // Each match shares 40 VP.
    for m in &st.rounds()[0].matches {
        assert_eq!(m.home_vp.unwrap() + m.away_vp.unwrap(), 40);
    }
    // The match results and a team card.
    let round = app
        .another_browser()
        .get_html(&format!("/t/{tid}/rounds/1"))
        .await;
    assert!(round.contains("match-score"), "{round}");
    let card = app
        .another_browser()
        .get_html(&format!("/t/{tid}/teams/{captain}"))
        .await;
    assert!(
        card.contains("team-card") && card.contains("card-round-1"),
        "{card}"
    );
    // The JSON standings say teams.
    let v: Value = app
        .another_browser()
        .get_json(&format!("/api/v1/tournaments/{tid}/standings"))
        .await;
    assert_eq!(v["kind"], "teams");
    assert_eq!(v["rows"].as_array().unwrap().len(), 5);
    // A pair card does not exist in a team tournament.
    assert_eq!(app.get_status(&format!("/t/{tid}/pairs/1")).await, 404);

    // The round's printouts and pages work for a team round.
    for page in [
        format!("{t}/rounds/1"),
        format!("{t}/rounds/1/cards"),
        format!("/desk/t/{tid}/rounds/1"),
        format!("/desk/t/{tid}/rounds/1/score-cards"),
        format!("/desk/t/{tid}/rounds/1/tables/1"),
        format!("{t}/teams/cards"),
        format!("/desk/t/{tid}/penalties"),
    ] {
        let res = app.get(&page).await;
        assert_eq!(
            res.status().as_u16(),
            200,
            "{page}: {}",
            res.text().await.unwrap()
        );
    }
    // The pairs' downloads say to export the team file.
    assert_eq!(app.get_status(&format!("{t}/standings.csv")).await, 409);

    // An MP penalty to the team's pair at table 1 (the desk's form names
    // the pair that sat there): the team's MP at that table go down by 100
    // before its VP.
    let f = team_file(&app, tid);
    let t1 = f.rounds[0].matches[0].tables[0].clone();
    let pair_id = crate::peek::line_up_pair(
        &app,
        tid,
        t1.ns.team as i32,
        t1.ns.players[0] as i32,
        t1.ns.players[1] as i32,
    );
    let before = st.card(t1.ns.team).unwrap().rounds[0].tables[0].mp_for;
    let res = app
        .penalty(&tid, &pair_id.to_string(), "mp", "100", "carte scoperte")
        .await;
    assert_eq!(res.status().as_u16(), 303, "{}", res.text().await.unwrap());
    let f = team_file(&app, tid);
    assert_eq!(f.penalties.len(), 1);
    assert_eq!(
        (f.penalties[0].team, f.penalties[0].table),
        (t1.ns.team, Some(t1.table))
    );
    let st = burraco_td::standings::compute_teams_file(&f, Lang::En).unwrap();
    let card = st.card(t1.ns.team).unwrap();
    let table = card.rounds[0]
        .tables
        .iter()
        .find(|x| x.table == t1.table)
        .unwrap();
    assert_eq!(table.mp_for, before.map(|m| m - 100));
    assert_eq!(table.mp_penalty, 100);
    let public = app
        .another_browser()
        .get_html(&format!("/t/{tid}/teams/{}", t1.ns.team))
        .await;
    assert!(
        public.contains("carte scoperte"),
        "the penalty on the team card"
    );

    // Round 2 (round robin), played; round 3 waits for its tables.
    let res = next_round(&app, &t, "2").await;
    assert_eq!(res.status().as_u16(), 303, "{}", res.text().await.unwrap());
    let res = next_round(&app, &t, "3").await;
    assert_eq!(res.status().as_u16(), 409, "round 2 has no results yet");
    play_round(&app, tid, 2, 150, 150).await;

    // Export, import: the same standings.
    let exported = app.get_html(&format!("{t}/export.json")).await;
    let before = burraco_td::standings::compute_teams_file(&teams_in(&exported), Lang::En).unwrap();
    let res = app.import_file(&exported).await;
    assert_eq!(res.status().as_u16(), 303, "{}", res.text().await.unwrap());
    let new_t = location(&res);
    let new_tid = tid_of(new_t.split('?').next().unwrap());
    assert_ne!(new_tid, tid);
    let after =
        burraco_td::standings::compute_teams_file(&team_file(&app, new_tid), Lang::En).unwrap();
    assert_eq!(
        before.rows, after.rows,
        "the same standings after export and import"
    );
    assert_eq!(before.rounds(), after.rounds());
    // And the imported tournament goes on: round 3.
    let nt = format!("/director/t/{new_tid}");
    let res = next_round(&app, &nt, "3").await;
    assert_eq!(res.status().as_u16(), 303, "{}", res.text().await.unwrap());
}

#[tokio::test]
async fn teams_from_a_csv_file_preview_then_all_or_nothing() {
    let app = spawn_app().await;
    app.setup_admin().await;
    let t = new_team_tournament(&app, "3", &[]).await;
    let tid = tid_of(&t);
    let page = format!("{t}/teams/import");
    // A team of three: the preview names its line, nothing is saved.
    let bad = "squadra;cognome;nome;tessera\nSole;Rossi;Maria;AB1\nSole;Bianchi;Luca;\nSole;Verdi;Anna;\nLuna;Neri;Ugo;\nLuna;Gialli;Ada;\nLuna;Blu;Eva;\nLuna;Rosa;Ivo;\n";
    let res = app.submit(&page, &page, &[("csv", bad)]).await;
    assert_eq!(res.status().as_u16(), 422);
    let html = res.text().await.unwrap();
    assert!(
        html.contains("Sole") && html.contains("form-error"),
        "{html}"
    );
    let res = app
        .submit(&page, &page, &[("csv", bad), ("confirm", "yes")])
        .await;
    assert_eq!(res.status().as_u16(), 422);
    assert!(team_ids(&app, tid).is_empty(), "nothing saved");
    // Fixed: a preview, then the import.
    let good = format!("{bad}Sole;Viola;Pia;\n");
    let res = app.submit(&page, &page, &[("csv", &good)]).await;
    assert_eq!(res.status().as_u16(), 200);
    assert!(res.text().await.unwrap().contains("confirm-import"));
    let res = app
        .submit(&page, &page, &[("csv", &good), ("confirm", "yes")])
        .await;
    assert_eq!(res.status().as_u16(), 303, "{}", res.text().await.unwrap());
    assert_eq!(team_ids(&app, tid).len(), 2);
    let html = app.get_html(&format!("{t}/teams")).await;
    assert!(
        html.contains("1. Rossi Maria, 2. Bianchi Luca, 3. Verdi Anna, 4. Viola Pia"),
        "{html}"
    );
    // The same file again: its players are taken now.
    let res = app
        .submit(&page, &page, &[("csv", &good), ("confirm", "yes")])
        .await;
    assert_eq!(res.status().as_u16(), 422);
    assert_eq!(team_ids(&app, tid).len(), 2);
}

#[tokio::test]
async fn what_a_team_tournament_refuses_and_undoing_the_start() {
    let app = spawn_app().await;
    app.setup_admin().await;
    let t = new_team_tournament(&app, "3", &[]).await;
    let tid = tid_of(&t);
    let teams_page = format!("{t}/teams");
    let settings = format!("{t}/teams/settings");
    // A team scale the core would refuse is refused here, next to its field.
    for scale in [
        "0 5 10 15 20 25 30 35 40 45",
        "10 20 30 40 50 60 70 80 90 93",
    ] {
        let res = app
            .submit(
                &teams_page,
                &settings,
                &[("method", "scale"), ("scale", scale)],
            )
            .await;
        assert_eq!(res.status().as_u16(), 422, "{scale}");
        assert!(res.text().await.unwrap().contains("field-error"));
    }
    let res = app
        .submit(
            &teams_page,
            &settings,
            &[
                ("method", "scale"),
                ("scale", "50 150 250 350 500 650 800 1000 1250 1500"),
                ("team_bye_vp", "30"),
            ],
        )
        .await;
    assert_eq!(
        res.status().as_u16(),
        422,
        "a team bye above 20 with a scale"
    );
    // Pairs are not registered in a team tournament.
    let res = app
        .submit(
            &t,
            &format!("{t}/pairs"),
            &[
                ("p1_surname", "A"),
                ("p1_name", "B"),
                ("p2_surname", "C"),
                ("p2_name", "D"),
            ],
        )
        .await;
    assert_eq!(res.status().as_u16(), 409);
    for name in ["Sole", "Luna", "Mare", "Vento"] {
        let res = add_team(&app, &t, name, &refs(&four(name))).await;
        assert_eq!(res.status().as_u16(), 303);
    }
    // Three teams checked in: the fourth is a no-show at the start.
    for (_, id, _) in team_ids(&app, tid).into_iter().take(3) {
        let res = app
            .submit(
                &teams_page,
                &format!("{t}/teams/{id}/checkin"),
                &[("value", "true")],
            )
            .await;
        assert_eq!(res.status().as_u16(), 303);
    }
    start(&app, &t).await;
    let f = team_file(&app, tid);
    assert!(f.teams[3].no_show);
    assert_eq!(f.rounds[0].matches.len() + f.rounds[0].byes.len(), 2);
    // Round 1 undone: in preparation again, the fourth team may come.
    let rev_page = app.get_html(&format!("{t}/rounds/1/confirm-undo")).await;
    let rev = rev_page
        .split("name=\"revision\" value=\"")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .unwrap()
        .to_string();
    let res = app
        .submit(
            &format!("{t}/rounds/1/confirm-undo"),
            &format!("{t}/rounds/1/undo"),
            &[("confirm", "1"), ("revision", &rev)],
        )
        .await;
    assert_eq!(res.status().as_u16(), 303, "{}", res.text().await.unwrap());
    let f = team_file(&app, tid);
    assert!(
        f.rounds.is_empty() && !f.teams[3].no_show,
        "no-show mark gone"
    );
    let last = team_ids(&app, tid)[3].1;
    let res = app
        .submit(
            &teams_page,
            &format!("{t}/teams/{last}/checkin"),
            &[("value", "true")],
        )
        .await;
    assert_eq!(res.status().as_u16(), 303);
    start(&app, &t).await;
    let f = team_file(&app, tid);
    assert_eq!(f.rounds[0].matches.len(), 2, "four teams drawn");
}

#[tokio::test]
async fn a_team_file_numbered_its_own_way_imports_with_the_same_standings() {
    let app = spawn_app().await;
    app.setup_admin().await;
    let t = new_team_tournament(&app, "3", &[]).await;
    let tid = tid_of(&t);
    for name in ["Sole", "Luna", "Mare", "Vento"] {
        add_team(&app, &t, name, &refs(&four(name))).await;
    }
    check_in_teams(&app, &t).await;
    start(&app, &t).await;
    play_round(&app, tid, 1, 200, 100).await;
    let mut file: Value = serde_json::from_str(&export_text(&app, tid)).unwrap();
    // Another program's numbering: each match's tables 10 apart, the away
    // team's table first; a penalty at one of them.
    let mut moved = None;
    for (i, m) in file["rounds"][0]["matches"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .enumerate()
    {
        let tables = m["tables"].as_array_mut().unwrap();
        tables.reverse();
        for (k, table) in tables.iter_mut().enumerate() {
            let n = 10 * (k as u64 + 1) + i as u64;
            table["table"] = json!(n);
            if moved.is_none() {
                moved = Some((n, table["ns"]["team"].clone()));
            }
        }
    }
    let (table, team) = moved.unwrap();
    file["penalties"] = json!([{"round": 1, "team": team, "table": table, "kind": "mp", "amount": 100, "reason": "carte"}]);
    let text = file.to_string();
    let reference = burraco_td::standings::compute_teams_file(&teams_in(&text), Lang::En).unwrap();
    let res = app.import_file(&text).await;
    assert_eq!(res.status().as_u16(), 303, "{}", res.text().await.unwrap());
    let new_tid = tid_of(location(&res).split('?').next().unwrap());
    let after =
        burraco_td::standings::compute_teams_file(&team_file(&app, new_tid), Lang::En).unwrap();
    let key = |st: &burraco_td::standings::TeamStandings| {
        st.rows
            .iter()
            .map(|r| (r.number, r.vp, r.mp_diff, r.mp))
            .collect::<Vec<_>>()
    };
    assert_eq!(key(&reference), key(&after), "the same standings");
    // Its pages work, and it goes on.
    assert_eq!(app.get_status(&format!("/t/{new_tid}")).await, 200);
    let res = next_round(&app, &format!("/director/t/{new_tid}"), "2").await;
    assert_eq!(res.status().as_u16(), 303, "{}", res.text().await.unwrap());
}
