//! Individual tournaments (issue 35) over HTTP, on both databases: created
//! as individual (the settings form and the API), players registered one
//! by one (refused with the reason next to the field, from the directory)
//! and from a CSV file (a preview, all or nothing), corrected, removed and
//! checked in; the start (a random draw of foursomes, players resting),
//! Danish rounds through the confirmation pages, clicked twice, undone;
//! the seating lists by table and by name; a whole evening played from the
//! phones and the desk to the public standings per player, the prize list,
//! the hall screen, getStandings and the exported file.

use serde_json::{json, Value};

use burraco_td::tournament_file::IndividualTournamentFile;

use crate::helpers::{location, spawn_app, tid_of, Browser, TestApp};
use crate::table_side::{answer, enter, sheet, table_code};
use crate::tournaments::create_through_the_form;

/// (number, id, checked in, club) of the players.
pub fn players_of(app: &TestApp, tid: i64) -> Vec<(i32, i64, bool, String)> {
    crate::peek::individual_players_of(app, tid)
}

/// Registers a player through the players page's form.
pub async fn add_player(
    b: &Browser,
    t: &str,
    surname: &str,
    name: &str,
    club: &str,
) -> reqwest::Response {
    b.submit(
        &format!("{t}/individual"),
        &format!("{t}/individual"),
        &[("surname", surname), ("name", name), ("club", club)],
    )
    .await
}

/// A CSV of `n` players: "Giocatore{i} Nome{i}".
pub fn players_csv(from: usize, n: usize) -> String {
    let mut s = String::from("cognome;nome;tessera;circolo\n");
    for i in from..from + n {
        s.push_str(&format!("Giocatore{i};Nome{i};C{i};Circolo Sole\n"));
    }
    s
}

/// Previews then confirms a CSV import of players.
pub async fn import_players(b: &Browser, t: &str, text: &str) -> reqwest::Response {
    let import = format!("{t}/individual/import");
    let res = b.submit(&import, &import, &[("csv", text)]).await;
    assert_eq!(res.status().as_u16(), 200, "preview");
    b.submit(&import, &import, &[("csv", text), ("confirm", "yes")])
        .await
}

/// An individual tournament of `n` players (imported), all checked in.
pub async fn individual_evening(app: &TestApp, n: usize, rounds: &str) -> String {
    let t = create_through_the_form(
        app,
        "Individuale del venerdì",
        &[("kind", "individual"), ("planned_rounds", rounds)],
    )
    .await;
    let res = import_players(app, &t, &players_csv(1, n)).await;
    assert_eq!(res.status().as_u16(), 303, "{}", res.text().await.unwrap());
    let res = app
        .submit(
            &format!("{t}/individual"),
            &format!("{t}/individual/checkin"),
            &[("all", "1")],
        )
        .await;
    assert_eq!(res.status().as_u16(), 303);
    t
}

#[tokio::test]
async fn players_are_registered_alone_by_hand_from_the_directory_and_from_a_file_then_checked_in() {
    let app = spawn_app().await;
    app.setup_admin().await;
    let t = create_through_the_form(
        &app,
        "Individuale",
        &[("kind", "individual"), ("planned_rounds", "4")],
    )
    .await;
    let tid = tid_of(&t);
    let page = app.get_html(&t).await;
    assert!(page.contains(&format!("{t}/individual")), "{page}");
    // Its settings keep the kind and a movement of its own: no Mitchell
    // fields on the edit form.
    let edit = app.get_html(&format!("{t}/edit")).await;
    assert!(
        edit.contains("name=\"kind\" value=\"individual\""),
        "{edit}"
    );
    assert!(!edit.contains("id=\"mitchell_rounds\""));

    // A player without a name is refused next to the field.
    let res = add_player(&app, &t, "Rossi", "", "").await;
    assert_eq!(res.status().as_u16(), 422);
    let html = res.text().await.unwrap();
    assert!(html.contains("field-error"), "{html}");
    let res = add_player(&app, &t, "Rossi", "Maria", "Circolo Sole").await;
    assert_eq!(res.status().as_u16(), 303);
    assert!(location(&res).contains("done=player_added"));
    // The same person twice is refused, naming the number she has.
    let res = add_player(&app, &t, "ROSSI", "maria", "").await;
    assert_eq!(res.status().as_u16(), 422);
    assert!(res.text().await.unwrap().contains("(giocatore 1)"));
    // Pairs are not registered in an individual tournament.
    let res = app
        .submit(
            &format!("{t}/individual"),
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

    // The directory knows Maria Rossi: a pick fills the form.
    let found = app.get_html(&format!("{t}/individual?q=rossi")).await;
    let pick = found
        .split("href=\"")
        .map(|s| s.split('"').next().unwrap())
        .find(|h| h.contains("surname=Rossi"))
        .unwrap_or_else(|| panic!("a pick link: {found}"))
        .replace("&#38;", "&");
    let filled = app.get_html(&pick).await;
    assert!(filled.contains("value=\"Maria\""), "{filled}");

    // A file with a bad line and a player already in is refused whole.
    let bad = "cognome;nome\nVerdi;Anna\nRossi;Maria\n;Luca\n";
    let import = format!("{t}/individual/import");
    let res = app.submit(&import, &import, &[("csv", bad)]).await;
    assert_eq!(res.status().as_u16(), 422);
    let html = res.text().await.unwrap();
    assert!(!html.contains("confirm-import"), "{html}");
    let res = app
        .submit(&import, &import, &[("csv", bad), ("confirm", "yes")])
        .await;
    assert_eq!(res.status().as_u16(), 422);
    assert_eq!(players_of(&app, tid).len(), 1);
    // A good one registers every line, numbered on.
    let res = import_players(&app, &t, &players_csv(2, 21)).await;
    assert_eq!(res.status().as_u16(), 303, "{}", res.text().await.unwrap());
    let players = players_of(&app, tid);
    assert_eq!(players.len(), 22);
    assert_eq!(players[21].0, 22);

    // Corrected, removed by mistake, checked in one by one and all.
    let (_, second, _, _) = players[1].clone();
    let res = app
        .submit(
            &format!("{t}/individual/{second}"),
            &format!("{t}/individual/{second}"),
            &[
                ("surname", "Giocatore2"),
                ("name", "Nome2"),
                ("club", "Circolo Luna"),
            ],
        )
        .await;
    assert_eq!(res.status().as_u16(), 303);
    assert_eq!(players_of(&app, tid)[1].3, "Circolo Luna");
    let (_, last, _, _) = players[21].clone();
    let res = app
        .submit(
            &format!("{t}/individual"),
            &format!("{t}/individual/{last}/delete"),
            &[],
        )
        .await;
    assert_eq!(res.status().as_u16(), 303);
    assert_eq!(players_of(&app, tid).len(), 21);
    let (_, first, _, _) = players[0].clone();
    let res = app
        .submit(
            &format!("{t}/individual"),
            &format!("{t}/individual/{first}/checkin"),
            &[("value", "true")],
        )
        .await;
    assert_eq!(res.status().as_u16(), 303);
    let checked: Vec<bool> = players_of(&app, tid).iter().map(|p| p.2).collect();
    assert_eq!(checked.iter().filter(|c| **c).count(), 1);
    let res = app
        .submit(
            &format!("{t}/individual"),
            &format!("{t}/individual/checkin"),
            &[("all", "1")],
        )
        .await;
    assert!(location(&res).contains("done=players_checked_in"));
    assert!(players_of(&app, tid).iter().all(|p| p.2));
    let page = app.get_html(&format!("{t}/individual")).await;
    assert!(page.contains("Circolo Luna") && !page.contains("Giocatore22"));
    // The audit log names what happened.
    let audit = app.get_html(&format!("/desk/t/{tid}/audit")).await;
    assert!(audit.contains("Players imported") || audit.contains("Giocatori importati"));
}

#[tokio::test]
async fn the_api_creates_an_individual_tournament() {
    let app = spawn_app().await;
    app.setup_admin().await;
    let token = api_token(&app, "admin");
    let client = crate::helpers::new_client();
    let body = json!({
        "name": "Individuale API", "date": "2026-11-23", "start_time": "20:30", "venue": "Circolo",
        "profile": "codice", "planned_rounds": 4, "hands_per_round": 3,
        "mitchell_rounds": 1, "mitchell_advance": 1, "entry_fee": "10.00",
        "prize_share_percent": "70", "payout": [{"min_entries": 1, "percents": ["60", "40"]}],
        "kind": "individual"
    });
    let res = client
        .post(format!("{}/api/v1/tournaments", app.address))
        .bearer_auth(&token)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 201);
    let id = res.json::<Value>().await.unwrap()["id"].as_i64().unwrap();
    let got: Value = client
        .get(format!("{}/api/v1/tournaments/{id}", app.address))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(got["settings"]["kind"], "individual", "{got}");
    assert_eq!(got["settings"]["mitchell_rounds"], 1, "{got}");
    // Players through the API: registered, listed, checked in; the start
    // (startTournament) draws them and gives each a personal code.
    let api = |method: reqwest::Method, path: String| {
        client
            .request(method, format!("{}{path}", app.address))
            .bearer_auth(&token)
    };
    for i in 1..=9 {
        let res = api(
            reqwest::Method::POST,
            format!("/api/v1/tournaments/{id}/players"),
        )
        .json(&json!({"surname": format!("Api{i}"), "name": "Ugo", "club": "Circolo"}))
        .send()
        .await
        .unwrap();
        assert_eq!(res.status().as_u16(), 201);
        let p: Value = res.json().await.unwrap();
        assert_eq!(p["number"], i);
    }
    let res = api(
        reqwest::Method::POST,
        format!("/api/v1/tournaments/{id}/players"),
    )
    .json(&json!({"surname": "API1", "name": "ugo"}))
    .send()
    .await
    .unwrap();
    assert_eq!(res.status().as_u16(), 422, "the same person twice");
    let list: Value = api(
        reqwest::Method::GET,
        format!("/api/v1/tournaments/{id}/players"),
    )
    .send()
    .await
    .unwrap()
    .json()
    .await
    .unwrap();
    assert_eq!(list.as_array().unwrap().len(), 9);
    for p in list.as_array().unwrap().iter().take(8) {
        let res = api(
            reqwest::Method::POST,
            format!("/api/v1/tournaments/{id}/players/{}/checkin", p["id"]),
        )
        .json(&json!({"checked_in": true}))
        .send()
        .await
        .unwrap();
        assert_eq!(res.status().as_u16(), 200);
    }
    let res = api(
        reqwest::Method::POST,
        format!("/api/v1/tournaments/{id}/start"),
    )
    .send()
    .await
    .unwrap();
    assert_eq!(res.status().as_u16(), 200, "{}", res.text().await.unwrap());
    let list: Value = api(
        reqwest::Method::GET,
        format!("/api/v1/tournaments/{id}/players"),
    )
    .send()
    .await
    .unwrap()
    .json()
    .await
    .unwrap();
    let rows = list.as_array().unwrap();
    assert!(rows.iter().take(8).all(|p| p["code"].is_string()), "{list}");
    assert_eq!(rows[8]["no_show"], true, "not checked in: a no-show");
    // A penalty through the API names the player by number.
    let res = api(
        reqwest::Method::POST,
        format!("/api/v1/tournaments/{id}/penalties"),
    )
    .json(&json!({"pair": 2, "round": 1, "kind": "vp", "amount": 1, "reason": "gioco lento"}))
    .send()
    .await
    .unwrap();
    assert_eq!(res.status().as_u16(), 201, "{}", res.text().await.unwrap());
    let st: Value = client
        .get(format!("{}/api/v1/tournaments/{id}/standings", app.address))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let two = st["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["player"] == 2)
        .unwrap()
        .clone();
    assert_eq!(two["penalty_vp"], 1, "{st}");
    // Its page is the players'.
    let page = app.get_html(&format!("/director/t/{id}/individual")).await;
    assert!(
        page.contains("id=\"players\"") && page.contains("Api9 Ugo"),
        "{page}"
    );
}

/// An API token for `username` (the command line's `create-token`).
pub fn api_token(app: &TestApp, username: &str) -> String {
    let out = std::process::Command::new(crate::api_v1::bin())
        .args(["create-token", username, "--name", "individual test"])
        .env("DATABASE_URL", app.db.url())
        .output()
        .expect("run burraco-td");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// The individual file as the database has it now (through the services,
/// on a thread of its own: the test's runtime is busy awaiting).
pub fn ind_file(app: &TestApp, tid: i64) -> IndividualTournamentFile {
    let handle = app.handle.clone();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            burraco_td::services::individual::rounds::file(
                &handle,
                crate::builders::admin(),
                burraco_td::ids::TournamentId(tid),
                chrono_tz::Europe::Rome,
            )
            .await
            .unwrap()
        })
    })
    .join()
    .unwrap()
}

/// The revision a confirmation page was shown at.
fn revision_of(page: &str) -> String {
    page.split("name=\"revision\" value=\"")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .unwrap_or_else(|| panic!("a revision: {page}"))
        .to_string()
}

/// Starts through the confirmation page.
pub async fn start(app: &TestApp, t: &str) -> String {
    let page = app.get_html(&format!("{t}/confirm-start")).await;
    let res = app
        .submit(
            &format!("{t}/confirm-start"),
            &format!("{t}/draw"),
            &[("revision", &revision_of(&page)), ("confirm", "1")],
        )
        .await;
    assert_eq!(res.status().as_u16(), 303, "{}", res.text().await.unwrap());
    page
}

/// Seats round `n` through its confirmation page: the answer.
pub async fn next_round(app: &TestApp, t: &str, n: u32) -> reqwest::Response {
    let confirm = format!("{t}/confirm-round?round={n}");
    let page = app.get_html(&confirm).await;
    app.submit(
        &confirm,
        &format!("{t}/rounds"),
        &[
            ("round", &n.to_string()),
            (
                "revision",
                page.split("name=\"revision\" value=\"")
                    .nth(1)
                    .and_then(|s| s.split('"').next())
                    .unwrap_or_default(),
            ),
            ("confirm", "1"),
        ],
    )
    .await
}

/// Every table of `round` entered by a player of its NS line and confirmed
/// by a player of its EW line from the phones, each with their personal
/// code; NS scores `ns`, EW `ew` at table 1, and the
/// tables after swap the lead so that places differ.
pub async fn play_round(app: &TestApp, tid: i64, round: u32) {
    play_round_from(app, tid, round, 0).await;
}

/// As [`play_round`] from the `first`-th table on (the ones before are the
/// desk's).
pub async fn play_round_from(app: &TestApp, tid: i64, round: u32, first: usize) {
    let f = ind_file(app, tid);
    let r = f.rounds.iter().find(|r| r.number == round).unwrap();
    for (i, t) in r.tables.iter().enumerate().skip(first) {
        let table = t.table as i32;
        let code = table_code(app, tid, table);
        // One NS player enters with their personal code, one EW player
        // confirms with theirs.
        let ns_code = crate::peek::individual_code(app, tid, t.ns[i % 2]);
        let ew_code = crate::peek::individual_code(app, tid, t.ew[(i + 1) % 2]);
        let (a, b) = if i % 2 == 0 {
            (600, 200 + 10 * i as i64)
        } else {
            (250, 500)
        };
        let res = enter(app, &code, &ns_code, sheet(a, b)).await;
        assert_eq!(
            res.status.as_u16(),
            200,
            "enter table {table}: {:?}",
            res.body
        );
        let res = answer(app, &code, &ew_code, true, "").await;
        assert_eq!(
            res.status.as_u16(),
            200,
            "confirm table {table}: {:?}",
            res.body
        );
    }
}

/// The partnerships of a round, each as (lower, higher) player number.
fn partners(f: &IndividualTournamentFile, round: u32) -> Vec<(u32, u32)> {
    let r = f.rounds.iter().find(|r| r.number == round).unwrap();
    r.tables
        .iter()
        .flat_map(|t| [t.ns, t.ew])
        .map(|[a, b]| (a.min(b), a.max(b)))
        .collect()
}

#[tokio::test]
async fn an_evening_of_22_starts_with_two_resting_and_seats_danish_rounds_without_repeated_partners(
) {
    let app = spawn_app().await;
    app.setup_admin().await;
    let t = individual_evening(&app, 22, "4").await;
    let tid = tid_of(&t);
    // The next round is not before the start.
    let page = app.get_html(&format!("{t}/individual")).await;
    assert!(page.contains(&format!("{t}/confirm-start")), "{page}");
    let confirm = start(&app, &t).await;
    assert!(
        confirm.contains("22 giocatori sorteggiati a 5 tavoli"),
        "{confirm}"
    );
    assert!(confirm.contains("2 giocatori riposano"), "{confirm}");
    let f = ind_file(&app, tid);
    assert_eq!(f.rounds.len(), 1);
    let r1 = &f.rounds[0];
    assert_eq!((r1.tables.len(), r1.byes.len()), (5, 2));
    let mut seated: Vec<u32> = r1
        .tables
        .iter()
        .flat_map(|t| t.ns.into_iter().chain(t.ew))
        .collect();
    seated.extend(&r1.byes);
    seated.sort_unstable();
    assert_eq!(seated, (1..=22).collect::<Vec<_>>(), "everybody once");

    // The seating lists: by table, by name (with partner), the resting.
    let list = app.get_html(&format!("/desk/t/{tid}/seating/1")).await;
    assert!(list.contains("id=\"by-table\"") && list.contains("id=\"by-name\""));
    assert!(list.contains("id=\"resting\""), "{list}");
    let [a, b] = r1.tables[0].ns;
    let name_a = format!("Giocatore{a} Nome{a}");
    assert!(list.contains(&name_a), "{list}");
    assert_eq!(
        app.get_status(&format!("/desk/t/{tid}/seating/2")).await,
        404
    );

    // Round 2 waits for every result of round 1.
    let page = app.get_html(&format!("{t}/confirm-round?round=2")).await;
    assert!(page.contains("ancora senza risultato"), "{page}");
    let res = next_round(&app, &t, 2).await;
    assert_eq!(res.status().as_u16(), 409);
    play_round(&app, tid, 1).await;

    // Clicked twice: one round 2.
    let res = next_round(&app, &t, 2).await;
    assert_eq!(res.status().as_u16(), 303, "{}", res.text().await.unwrap());
    let res = next_round(&app, &t, 2).await;
    assert_eq!(res.status().as_u16(), 303);
    let f = ind_file(&app, tid);
    assert_eq!(f.rounds.len(), 2);
    let r2 = &f.rounds[1];
    assert_eq!((r2.tables.len(), r2.byes.len()), (5, 2));
    // Nobody rests twice while others have not rested, nobody partners
    // the previous round's partner.
    assert!(
        r2.byes.iter().all(|p| !r1.byes.contains(p)),
        "{:?} {:?}",
        r1.byes,
        r2.byes
    );
    let before = partners(&f, 1);
    for p in partners(&f, 2) {
        assert!(!before.contains(&p), "partners again: {p:?}");
    }
    assert!(partners(&f, 1).contains(&(a.min(b), a.max(b))));

    // Undo round 2 (nothing recorded) and seat it again; round 1 with its
    // results is not undone.
    let undo = format!("{t}/rounds/2/confirm-undo");
    let page = app.get_html(&undo).await;
    let res = app
        .submit(
            &undo,
            &format!("{t}/rounds/2/undo"),
            &[("revision", &revision_of(&page)), ("confirm", "1")],
        )
        .await;
    assert_eq!(res.status().as_u16(), 303, "{}", res.text().await.unwrap());
    assert_eq!(ind_file(&app, tid).rounds.len(), 1);
    let page = app.get_html(&format!("{t}/rounds/1/confirm-undo")).await;
    assert!(page.contains("non si può annullare"), "{page}");
    let res = next_round(&app, &t, 2).await;
    assert_eq!(res.status().as_u16(), 303);
    assert_eq!(
        ind_file(&app, tid).rounds[1].byes,
        r2.byes,
        "the same round again"
    );
}

#[tokio::test]
async fn the_start_undone_gives_the_players_back_and_too_few_cannot_start() {
    let app = spawn_app().await;
    app.setup_admin().await;
    let t = create_through_the_form(
        &app,
        "Tre soli",
        &[("kind", "individual"), ("planned_rounds", "3")],
    )
    .await;
    let tid = tid_of(&t);
    let res = import_players(&app, &t, &players_csv(1, 6)).await;
    assert_eq!(res.status().as_u16(), 303);
    // Three checked in: not a table.
    for (_, id, _, _) in players_of(&app, tid).into_iter().take(3) {
        app.submit(
            &format!("{t}/individual"),
            &format!("{t}/individual/{id}/checkin"),
            &[("value", "true")],
        )
        .await;
    }
    let page = app.get_html(&format!("{t}/confirm-start")).await;
    assert!(page.contains("almeno 4"), "{page}");
    let id4 = players_of(&app, tid)[3].1;
    app.submit(
        &format!("{t}/individual"),
        &format!("{t}/individual/{id4}/checkin"),
        &[("value", "true")],
    )
    .await;
    let confirm = start(&app, &t).await;
    assert!(confirm.contains("5, 6"), "the two left out: {confirm}");
    let f = ind_file(&app, tid);
    assert_eq!(f.rounds[0].tables.len(), 1);
    assert!(f.players.iter().filter(|p| p.no_show).count() == 2);
    // Registration is closed once started.
    let res = add_player(&app, &t, "Tardi", "Ugo", "").await;
    assert_eq!(res.status().as_u16(), 409);
    // Undoing round 1 undoes the start: back in preparation, nobody a
    // no-show.
    let undo = format!("{t}/rounds/1/confirm-undo");
    let page = app.get_html(&undo).await;
    let res = app
        .submit(
            &undo,
            &format!("{t}/rounds/1/undo"),
            &[("revision", &revision_of(&page)), ("confirm", "1")],
        )
        .await;
    assert_eq!(res.status().as_u16(), 303, "{}", res.text().await.unwrap());
    let f = ind_file(&app, tid);
    assert!(f.rounds.is_empty() && f.players.iter().all(|p| !p.no_show));
    let res = add_player(&app, &t, "Tardi", "Ugo", "").await;
    assert_eq!(res.status().as_u16(), 303);
}

#[tokio::test]
async fn a_22_player_evening_from_the_phones_and_the_desk_to_the_standings_per_player() {
    let app = spawn_app().await;
    app.setup_admin().await;
    let t = individual_evening(&app, 22, "4").await;
    let tid = tid_of(&t);
    start(&app, &t).await;
    for round in 1..=4u32 {
        if round > 1 {
            let res = next_round(&app, &t, round).await;
            assert_eq!(res.status().as_u16(), 303, "round {round}");
        }
        // Table 1 at the desk (its line's VP goes to both partners), the
        // others from the phones.
        let res =
            crate::scoring::post_sheet(&app, &t, round, 1, &crate::builders::sheet(500, 200)).await;
        assert_eq!(res.status().as_u16(), 303, "desk table 1 round {round}");
        play_round_from(&app, tid, round, 1).await;
    }
    // The desk names each line by its two players' numbers.
    let desk = app.get_html(&format!("/desk/t/{tid}/rounds/4")).await;
    let [x, y] = ind_file(&app, tid).rounds[3].tables[0].ns;
    assert!(
        desk.contains(&format!("<b>{}–{}</b>", x.min(y), x.max(y))),
        "{desk}"
    );
    // Penalties name a player (RULES.md §14): 1 VP off player x alone; 100
    // MP off player z's line in round 1 (the partner shares the line's
    // result); none to a player who rested that round.
    let r1 = ind_file(&app, tid).rounds[0].clone();
    let [x, x_partner] = r1.tables[1].ns;
    let [z, z_partner] = r1.tables[2].ew;
    let penalties = format!("/desk/t/{tid}/penalties");
    for (who, kind, amount) in [(x, "vp", "1"), (z, "mp", "100")] {
        let res = app
            .submit(
                &penalties,
                &penalties,
                &[
                    ("pair", &who.to_string()),
                    ("round", "1"),
                    ("kind", kind),
                    ("amount", amount),
                    ("reason", "gioco lento"),
                ],
            )
            .await;
        assert_eq!(res.status().as_u16(), 303, "{}", res.text().await.unwrap());
    }
    let resting = r1.byes[0];
    let res = app
        .submit(
            &penalties,
            &penalties,
            &[
                ("pair", &resting.to_string()),
                ("round", "1"),
                ("kind", "warning"),
                ("reason", "gioco lento"),
            ],
        )
        .await;
    assert_eq!(res.status().as_u16(), 422);
    let list = app.get_html(&penalties).await;
    assert!(
        list.contains(&format!("{x} · Giocatore{x} Nome{x}")),
        "{list}"
    );
    let f = ind_file(&app, tid);
    // Everybody rested at most once in 4 rounds of 2 resting out of 22.
    let mut rests = std::collections::HashMap::new();
    for r in &f.rounds {
        for p in &r.byes {
            *rests.entry(*p).or_insert(0) += 1;
        }
    }
    assert_eq!(rests.len(), 8);
    assert!(rests.values().all(|n| *n == 1));

    // getStandings: a row per player, partners with the same VP at table 1
    // of round 1 as far as that round goes, every round counted.
    let doc: Value = app
        .get(&format!("/api/v1/tournaments/{tid}/standings"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(doc["kind"], "individual", "{doc}");
    let rows = doc["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 22);
    assert_eq!(doc["entries"], 22);
    for r in rows {
        assert_eq!(
            r["played"].as_u64().unwrap() + r["byes"].as_u64().unwrap(),
            4,
            "{r}"
        );
    }
    let row = |n: u32| rows.iter().find(|r| r["player"] == n).unwrap().clone();
    assert_eq!(row(x)["penalty_vp"], 1);
    assert_eq!(row(x_partner)["penalty_vp"], 0);
    // The exported file gives the same standings.
    let export = app.get_html(&format!("{t}/export.json")).await;
    let file = match burraco_td::tournament_file::parse_any(&export).unwrap() {
        burraco_td::tournament_file::AnyTournamentFile::Individual(f) => f,
        other => panic!("not an individual file: {:?}", other.kind()),
    };
    let st =
        burraco_td::standings::compute_individual_file(&file, burraco_td::i18n::Lang::En).unwrap();
    let from_file: Vec<(u64, i64)> = st
        .rows
        .iter()
        .map(|r| (u64::from(r.number), r.vp))
        .collect();
    let from_doc: Vec<(u64, i64)> = rows
        .iter()
        .map(|r| (r["player"].as_u64().unwrap(), r["vp"].as_i64().unwrap()))
        .collect();
    assert_eq!(from_file, from_doc);
    // Both partners of a line share its VP: at table 1 of round 1 (the
    // desk's sheet), the two NS players' cards agree.
    assert_eq!(file.penalties.len(), 2);
    assert_eq!((file.penalties[0].player, file.penalties[1].player), (x, z));
    let [a, b] = file.rounds[0].tables[0].ns;
    let vp_of =
        |p: u32| serde_json::to_value(&st.card(p).unwrap().rounds[0]).unwrap()["vp"].clone();
    assert_eq!(vp_of(a), vp_of(b));
    assert!(vp_of(a).is_i64(), "{}", vp_of(a));
    // Z's MP penalty is the line's: z and the partner share its round.
    let mp_of =
        |p: u32| serde_json::to_value(&st.card(p).unwrap().rounds[0]).unwrap()["mp_for"].clone();
    assert_eq!(vp_of(z), vp_of(z_partner));
    assert_eq!(mp_of(z), mp_of(z_partner));
    assert!(mp_of(z).is_i64());

    // The public pages: standings per player, seating, prizes, screen.
    let page = app.get_html(&format!("/t/{tid}")).await;
    assert!(page.contains("Classifica per giocatore"), "{page}");
    assert_eq!(page.matches("<tr id=\"player-").count(), 22);
    // It follows the tournament: the revision it shows is the current one.
    let rev: Value = app.get_json(&format!("/t/{tid}/rev")).await;
    assert!(
        page.contains(&format!("data-rev=\"{}\"", rev["revision"])),
        "{rev}"
    );
    let seating = app.get_html(&format!("/t/{tid}/rounds/2")).await;
    assert!(seating.contains("id=\"by-name\""), "{seating}");
    assert_eq!(app.get_status(&format!("/t/{tid}/screen")).await, 200);
    let prizes = app.get_html(&format!("/t/{tid}/prizes")).await;
    assert!(prizes.contains("id=\"player-prizes\""), "{prizes}");
    assert!(!doc["prizes"].as_array().unwrap().is_empty());

    // A player's page: the seat of the last round (table, partner,
    // opponents) on top, then every round with partner, opponents, result.
    let last = &file.rounds[3].tables[0];
    let [me, partner] = last.ns;
    let page = app.get_html(&format!("/t/{tid}/players/{me}")).await;
    assert!(page.contains("id=\"seat-now\""), "{page}");
    let now = page
        .split("id=\"seat-now\"")
        .nth(1)
        .unwrap()
        .split("</div>")
        .next()
        .unwrap();
    assert!(
        now.contains(&format!("Giocatore{partner} Nome{partner}")),
        "{now}"
    );
    for o in last.ew {
        assert!(now.contains(&format!("Giocatore{o} Nome{o}")), "{now}");
    }
    assert_eq!(page.matches("<tr id=\"round-").count(), 4);
    let round1 = file.rounds[0]
        .tables
        .iter()
        .find_map(|t| t.seat_of(me))
        .map(|(_, p)| p);
    if let Some(p1) = round1 {
        let row = page
            .split("<tr id=\"round-1\"")
            .nth(1)
            .unwrap()
            .split("</tr>")
            .next()
            .unwrap();
        assert!(row.contains(&format!("Giocatore{p1} Nome{p1}")), "{row}");
    }
    assert_eq!(app.get_status(&format!("/t/{tid}/players/99")).await, 404);

    // The standings as CSV, a line per player.
    let csv = app.get_html(&format!("{t}/standings.csv")).await;
    assert_eq!(csv.lines().count(), 23, "{csv}");
    assert!(
        csv.contains(&format!("Giocatore{me};Nome{me};Circolo Sole")),
        "{csv}"
    );

    // Closed: final.
    let close = format!("{t}/confirm-close");
    let page = app.get_html(&close).await;
    let res = app
        .submit(
            &close,
            &format!("{t}/close"),
            &[("revision", &revision_of(&page)), ("confirm", "1")],
        )
        .await;
    assert_eq!(res.status().as_u16(), 303, "{}", res.text().await.unwrap());
    let page = app.get_html(&format!("/t/{tid}")).await;
    assert!(page.contains("final"), "{page}");
}

#[tokio::test]
async fn every_page_answers_for_an_individual_tournament_and_a_circuit_ranking_players_counts_it() {
    let app = spawn_app().await;
    app.setup_admin().await;
    let t = individual_evening(&app, 9, "3").await;
    let tid = tid_of(&t);
    start(&app, &t).await;
    play_round(&app, tid, 1).await;
    // No page of the server fails on an individual tournament: each
    // answers, or refuses with a reason (4xx), never a 5xx.
    let routes: Vec<String> = burraco_td::web::registered_routes()
        .into_iter()
        .filter(|(method, _)| *method == "GET")
        .map(|(_, path)| path)
        .filter(|p| {
            p.contains("{id}")
                && (p.starts_with("/t/")
                    || p.starts_with("/director/t/")
                    || p.starts_with("/desk/t/")
                    || p.starts_with("/api/v1/tournaments/"))
        })
        .collect();
    assert!(routes.len() > 20, "{routes:?}");
    let first = players_of(&app, tid)[0].1.to_string();
    for route in &routes {
        let path = route
            .replace("{id}", &tid.to_string())
            .replace("{pid}", &first)
            .replace("{n}", "1")
            .replace("{round}", "1")
            .replace("{table}", "1")
            .replace("{pair}", "1")
            .replace("{number}", "1");
        if path.contains('{') {
            continue;
        }
        let status = app.get_status(&path).await;
        assert!(status < 500, "GET {path}: {status}");
        // Only the pages of another kind refuse: a pairs tournament's
        // (movement cards, a pair's page, the pairs' CSV files) and a team
        // tournament's.
        let other_kind = ["/movement-cards", "/pairs/", "/sheets.csv", "/teams"]
            .iter()
            .any(|k| path.contains(k));
        assert!(status == 200 || other_kind, "GET {path}: {status}");
    }
    // A circuit ranking pairs does not take it; one ranking players does
    // (RULES.md §11): once closed, each player's own place counts.
    let pairs_form: Vec<(&str, &str)> = crate::circuits::CIRCUIT_FORM
        .iter()
        .map(|(k, v)| if *k == "rank" { (*k, "pair") } else { (*k, *v) })
        .collect();
    let res = app.circuit_form(&pairs_form).await;
    assert_eq!(res.status().as_u16(), 303);
    let pairs_id = crate::helpers::circuit_id_of(&res);
    let page = format!("/director/circuits/{pairs_id}");
    assert!(!app
        .get_html(&page)
        .await
        .contains("Individuale del venerdì"));
    let res = app
        .submit(
            &page,
            &format!("{page}/stages"),
            &[("tournament", &tid.to_string())],
        )
        .await;
    assert_eq!(res.status().as_u16(), 409);
    let res = app.circuit_form(crate::circuits::CIRCUIT_FORM).await;
    let id = crate::helpers::circuit_id_of(&res);
    let page = format!("/director/circuits/{id}");
    assert!(app
        .get_html(&page)
        .await
        .contains("Individuale del venerdì"));
    let res = app
        .submit(
            &page,
            &format!("{page}/stages"),
            &[("tournament", &tid.to_string())],
        )
        .await;
    assert_eq!(res.status().as_u16(), 303);
    let close = format!("{t}/confirm-close");
    let confirm = app.get_html(&close).await;
    let res = app
        .submit(
            &close,
            &format!("{t}/close"),
            &[("revision", &revision_of(&confirm)), ("confirm", "1")],
        )
        .await;
    assert_eq!(res.status().as_u16(), 303);
    let v: Value = app
        .get(&format!("/api/v1/circuits/{id}/standings"))
        .await
        .json()
        .await
        .unwrap();
    let rows = v["standings"].as_array().unwrap();
    assert_eq!(rows.len(), 9, "one row per player: {v}");
    assert!(rows.iter().all(|r| r["player"]["surname"]
        .as_str()
        .is_some_and(|s| s.starts_with("Giocatore"))));
    assert_eq!(v["stages"][0]["counts"], true, "{v}");
}
