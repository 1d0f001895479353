//! A director prepares and seats a tournament through the pages.

use crate::helpers::{location, Browser, TestApp, TestDb};

/// The settings form's fields (defaults of a club evening).
pub fn settings(name: &str) -> Vec<(&'static str, String)> {
    vec![
        ("name", name.to_string()),
        ("date", "2026-11-20".into()),
        ("start_time", "21:00".into()),
        ("venue", "Circolo del Sole".into()),
        ("profile", "codice".into()),
        ("planned_rounds", "4".into()),
        ("hands_per_round", "3".into()),
        ("vp_scale", "".into()),
        ("minutes_per_round", "40".into()),
        ("mitchell_rounds", "3".into()),
        ("danish_form", "modified".into()),
        ("mitchell_advance", "1".into()),
        ("bye_vp", "14".into()),
        ("entry_fee", "20,00".into()),
        ("prize_share_percent", "70".into()),
        ("guaranteed_pool", "0".into()),
        ("payout", "1: 100\n8: 60 40\n12: 50 30 20".into()),
        ("suit_order", "HDCS".into()),
    ]
}

fn as_refs<'a>(v: &'a [(&'static str, String)]) -> Vec<(&'static str, &'a str)> {
    v.iter().map(|(k, v)| (*k, v.as_str())).collect()
}

/// An app with an admin and a logged-in director browser.
pub async fn with_director() -> (TestApp, Browser) {
    director_with(TestDb::new(), |_| {}).await
}

/// An app on `db` with settings changed by `configure`, an admin and a
/// logged-in director browser (dora).
pub async fn director_with(
    db: TestDb,
    configure: impl FnOnce(&mut burraco_td::config::Settings),
) -> (TestApp, Browser) {
    let app = crate::helpers::spawn_app_with(db, configure).await;
    app.setup_admin().await;
    app.create_user("dora", "director", "director pass").await;
    let dora = app.another_browser();
    assert_eq!(
        dora.login("dora", "director pass").await.status().as_u16(),
        303
    );
    (app, dora)
}

/// The usual settings but for `changes` (field, value); a field they lack
/// is added.
pub fn settings_with(name: &str, changes: &[(&'static str, &str)]) -> Vec<(&'static str, String)> {
    let mut fields = settings(name);
    for (k, v) in changes {
        match fields.iter_mut().find(|(f, _)| f == k) {
            Some((_, old)) => *old = v.to_string(),
            None => fields.push((k, v.to_string())),
        }
    }
    fields
}

/// Posts the new-tournament form: the usual settings but for `changes`.
/// Only the tests of that form post it: every other test builds its
/// tournament (`builders.rs`).
pub async fn new_through_the_form(
    b: &Browser,
    name: &str,
    changes: &[(&'static str, &str)],
) -> reqwest::Response {
    let fields = settings_with(name, changes);
    b.submit(
        "/director/tournaments/new",
        "/director/tournaments",
        &as_refs(&fields),
    )
    .await
}

/// Posts the settings form of the tournament at `t`: the usual settings
/// but for `changes`.
pub async fn edit_through_the_form(
    b: &Browser,
    t: &str,
    name: &str,
    changes: &[(&'static str, &str)],
) -> reqwest::Response {
    let edit = format!("{t}/edit");
    let fields = settings_with(name, changes);
    b.submit(&edit, &edit, &as_refs(&fields)).await
}

/// A tournament created through the settings form with the usual settings
/// but for `changes` (field, value); its page.
pub async fn create_through_the_form(
    b: &Browser,
    name: &str,
    changes: &[(&'static str, &str)],
) -> String {
    let res = new_through_the_form(b, name, changes).await;
    assert_eq!(res.status().as_u16(), 303, "{}", res.text().await.unwrap());
    let loc = location(&res);
    loc.split('?').next().unwrap().to_string()
}

pub fn csv(pairs: usize) -> String {
    let mut s = String::from("cognome1;nome1;tessera1;circolo1;cognome2;nome2;tessera2;circolo2\n");
    for i in 1..=pairs {
        s.push_str(&format!(
            "Rossi{i};Maria;T{i}A;Circolo Sole;Bianchi{i};Luca;T{i}B;\n"
        ));
    }
    s
}

pub async fn import(b: &Browser, t: &str, text: &str) -> reqwest::Response {
    let import = format!("{t}/import");
    let res = b.submit(&import, &import, &[("csv", text)]).await;
    assert_eq!(res.status().as_u16(), 200, "preview");
    b.submit(&import, &import, &[("csv", text), ("confirm", "yes")])
        .await
}

pub async fn check_in_all(app: &TestApp, b: &Browser, t: &str) {
    let ids = crate::peek::pair_ids_of(app, crate::helpers::tid_of(t));
    for id in ids {
        let res = b
            .submit(t, &format!("{t}/pairs/{id}/checkin"), &[("value", "true")])
            .await;
        assert_eq!(res.status().as_u16(), 303);
    }
}

#[tokio::test]
async fn bad_settings_are_refused_field_by_field_and_nothing_is_saved() {
    let (app, dora) = with_director().await;
    let wrong = [
        ("date", "2026-02-30"),
        ("hands_per_round", "5"),
        ("entry_fee", "venti"),
        ("payout", "1: 60 30"),
    ];
    let res = new_through_the_form(&dora, "", &wrong).await;
    assert_eq!(res.status().as_u16(), 422);
    let html = res.text().await.unwrap();
    for msg in [
        "Il nome è obbligatorio",
        "Data non valida",
        "Un numero intero da 2 a 4",
        "Un importo in euro",
        "non al 100%",
    ] {
        assert!(html.contains(msg), "missing message {msg:?}");
    }
    assert!(html.contains("value=\"venti\""), "what was typed stays");
    let mut c = app.pool.get().unwrap();
    assert!(burraco_td::db::tournaments::list(&mut c)
        .unwrap()
        .is_empty());
}

#[tokio::test]
async fn a_director_registers_edits_and_refuses_duplicate_players() {
    let (app, dora) = with_director().await;
    let t = app.tournament("Torneo del venerdì").build().await.path;
    let res = dora
        .add_pair(
            &t,
            &crate::helpers::pair_form("Rossi", "Maria", "Bianchi", "Luca"),
        )
        .await;
    assert_eq!(res.status().as_u16(), 303);
    let res = dora
        .add_pair(
            &t,
            &[
                ("p1_surname", ""),
                ("p1_name", "Anna"),
                ("p2_surname", "Verdi"),
            ],
        )
        .await;
    assert_eq!(res.status().as_u16(), 422);
    assert!(res.text().await.unwrap().contains("Campo obbligatorio"));
    let res = dora
        .add_pair(
            &t,
            &crate::helpers::pair_form("BIANCHI", "luca", "Neri", "Ada"),
        )
        .await;
    assert_eq!(res.status().as_u16(), 422);
    assert!(res
        .text()
        .await
        .unwrap()
        .contains("già iscritto nella coppia 1"));
    let html = dora.get_html(&t).await;
    assert!(html.contains("Rossi Maria – Bianchi Luca"));
    assert!(!html.contains("Neri"));
}

#[tokio::test]
async fn a_bad_csv_saves_nothing_and_a_good_one_saves_every_pair() {
    let (app, dora) = with_director().await;
    let t = app.tournament("Import").build().await.path;
    let import = format!("{t}/import");
    let bad = "cognome1;nome1;cognome2;nome2\nRossi;Maria;Bianchi;Luca\n;Anna;Verdi;Ugo\nRossi;Maria;Neri;Ada\n";
    let res = dora
        .submit(&import, &import, &[("csv", bad), ("confirm", "yes")])
        .await;
    assert_eq!(res.status().as_u16(), 422);
    let html = res.text().await.unwrap();
    assert!(html.contains("Riga 3"), "{html}");
    assert!(html.contains("Riga 4"));
    let count = |app: &TestApp| {
        let mut c = app.pool.get().unwrap();
        burraco_td::db::pairs::list_pairs(&mut c, burraco_td::ids::TournamentId(1))
            .unwrap()
            .len()
    };
    assert_eq!(count(&app), 0, "nothing saved");

    let good = "surname1,name1,card1,club1,surname2,name2,card2,club2\nD'Angelo,Nicolò,AB1,\"Club \"\"Fante\"\"\",Esposito,Chiara,,\nRossi,Maria,,,Bianchi,Luca,,\n";
    let res = dora.submit(&import, &import, &[("csv", good)]).await;
    assert_eq!(res.status().as_u16(), 200);
    let html = res.text().await.unwrap();
    assert!(
        html.contains("D&#x27;Angelo Nicolò") || html.contains("D&#39;Angelo Nicolò"),
        "{html}"
    );
    assert_eq!(count(&app), 0, "a preview saves nothing");
    let res = dora
        .submit(&import, &import, &[("csv", good), ("confirm", "yes")])
        .await;
    assert_eq!(res.status().as_u16(), 303);
    assert_eq!(count(&app), 2);
}

async fn round_html(b: &Browser, t: &str, n: u32) -> String {
    b.get_html(&format!("{t}/rounds/{n}")).await
}

/// (table, NS pair id, EW pair id) of a round, and its resting pairs.
type Seated = (Vec<(i32, Option<i64>, Option<i64>)>, Vec<i64>);

fn seated(app: &TestApp, t: &str, round: i32) -> Seated {
    let tid = crate::helpers::tid_of(t);
    let t = crate::peek::seatings_of(app, tid, round);
    (t, crate::peek::byes_of(app, tid, round))
}

#[tokio::test]
async fn starting_with_an_odd_count_seats_everyone_and_rests_one_pair() {
    let (app, dora) = with_director().await;
    let t = app.tournament("Dispari").build().await.path;
    assert_eq!(import(&dora, &t, &csv(7)).await.status().as_u16(), 303);
    // Only checked-in pairs are seated: check in all but pair 7.
    check_in_all(&app, &dora, &t).await;
    let res = dora
        .submit(&t, &format!("{t}/pairs/7/checkin"), &[("value", "false")])
        .await;
    assert_eq!(res.status().as_u16(), 303);
    let res = dora.confirm(&t, "draw", &[]).await;
    assert_eq!(location(&res), format!("{t}/rounds/1?done=round_drawn"));
    let (tables, byes) = seated(&app, &t, 1);
    assert_eq!(tables.len(), 3, "6 pairs: 3 tables");
    assert!(byes.is_empty());
    let html = round_html(&dora, &t, 1).await;
    assert!(html.contains("Rossi1 Maria"), "alphabetical list by player");
    assert!(!html.contains("Rossi7"), "pair 7 is not checked in");

    // Settings are locked now: the page says so and the hands stay 3.
    let html = dora.get_html(&format!("{t}/edit")).await;
    assert!(html.contains("le impostazioni di gioco sono bloccate"));
}

#[tokio::test]
async fn mitchell_rounds_then_danish_waits_for_the_scores() {
    let (app, dora) = with_director().await;
    let t = app.tournament("Mitchell").build().await.path;
    import(&dora, &t, &csv(5)).await;
    check_in_all(&app, &dora, &t).await;
    dora.confirm(&t, "draw", &[]).await;
    let (tables1, byes1) = seated(&app, &t, 1);
    assert_eq!(
        (tables1.len(), byes1.len()),
        (2, 1),
        "5 pairs: 2 tables and a bye"
    );
    for n in 2..=3 {
        let res = dora
            .confirm(
                &t,
                "rounds",
                &[("force_reason", "movement only, no scores")],
            )
            .await;
        assert_eq!(
            location(&res),
            format!("{t}/rounds/{n}?done=round_generated")
        );
    }
    let (tables3, byes3) = seated(&app, &t, 3);
    // Fixed pairs stay at their table.
    for (a, b) in tables1.iter().zip(&tables3) {
        assert_eq!(a.1, b.1, "fixed line stays");
    }
    // Three different pairs rested.
    let mut rested = vec![byes1[0], seated(&app, &t, 2).1[0], byes3[0]];
    rested.sort();
    rested.dedup();
    assert_eq!(rested.len(), 3, "no pair rests twice");
    // Round 4 is Danish: it needs every score of round 3.
    let res = dora.confirm(&t, "rounds", &[]).await;
    assert_eq!(res.status().as_u16(), 409);
    let html = res.text().await.unwrap();
    assert!(html.contains("form-error"), "{html}");
    // Printouts.
    let cards = dora.get_html(&format!("{t}/rounds/1/cards")).await;
    assert!(cards.contains("table-card"));
    let mc = dora.get_html(&format!("{t}/movement-cards")).await;
    assert_eq!(mc.matches("class=\"movement-card\"").count(), 5);
}

#[tokio::test]
async fn a_plan_that_repeats_opponents_is_refused_with_the_reason() {
    let (app, dora) = with_director().await;
    let six = [("planned_rounds", "6"), ("mitchell_rounds", "6")];
    let res = new_through_the_form(&dora, "Troppi turni", &six).await;
    let t = location(&res).split('?').next().unwrap().to_string();
    import(&dora, &t, &csv(8)).await;
    check_in_all(&app, &dora, &t).await;
    let res = dora.confirm(&t, "draw", &[]).await;
    assert_eq!(res.status().as_u16(), 409);
    let html = res.text().await.unwrap();
    assert!(
        html.contains("4") && html.contains("6"),
        "names the tables and rounds: {html}"
    );
    let mut c = app.pool.get().unwrap();
    assert!(
        burraco_td::db::rounds::list_rounds(&mut c, burraco_td::ids::TournamentId(1))
            .unwrap()
            .is_empty(),
        "nothing drawn"
    );
}

#[tokio::test]
async fn a_pair_withdrawn_mid_tournament_leaves_its_opponent_resting() {
    let (app, dora) = with_director().await;
    let t = app.tournament("Ritiro").build().await.path;
    import(&dora, &t, &csv(8)).await;
    check_in_all(&app, &dora, &t).await;
    dora.confirm(&t, "draw", &[]).await;
    // Withdraw the fixed pair of table 1: from round 2 on.
    let (tables1, _) = seated(&app, &t, 1);
    let gone = tables1[0].1.unwrap();
    let res = dora
        .submit(
            &t,
            &format!("{t}/pairs/{gone}/withdraw"),
            &[("value", "true")],
        )
        .await;
    assert_eq!(res.status().as_u16(), 303);
    dora.confirm(
        &t,
        "rounds",
        &[("force_reason", "movement only, no scores")],
    )
    .await;
    let (tables2, byes2) = seated(&app, &t, 2);
    assert_eq!(tables2.len(), 3);
    assert_eq!(byes2.len(), 1, "its would-be opponent rests");
    assert!(tables2
        .iter()
        .all(|s| s.1 != Some(gone) && s.2 != Some(gone)));
    let html = dora.get_html(&t).await;
    assert!(html.contains("Ritirata dal turno 2"));
}

#[tokio::test]
async fn the_public_page_shows_format_fee_and_pool_without_login() {
    let (app, dora) = with_director().await;
    let t = app.tournament("Pubblico").build().await.path;
    import(&dora, &t, &csv(12)).await;
    let tid = t.rsplit('/').next().unwrap();
    let anon = app.another_browser();
    let res = anon.get(&format!("/t/{tid}")).await;
    assert_eq!(res.status().as_u16(), 200);
    let html = res.text().await.unwrap();
    // 12 pairs × 20 € × 70 % = 168 €; scheme from 12 pairs: 50 30 20.
    // Italian money format (RULES.md §10 amounts, `1.234,50 €`).
    assert!(html.contains("168,00\u{a0}€"), "{html}");
    assert!(html.contains("84,00") && html.contains("50,40") && html.contains("33,60"));
    // No reload every 30 s: the page's script checks the revision instead.
    assert!(!html.contains("http-equiv=\"refresh\""));
    assert!(html.contains(&format!("data-rev-url=\"/t/{tid}/rev\"")));
    assert!(anon.get_html("/").await.contains("Pubblico"));
}

#[tokio::test]
async fn the_seat_draw_helper_tells_who_chooses_and_who_deals() {
    let (app, _dora) = with_director().await;
    app.create_user("rita", "referee", "referee pass").await;
    let rita = app.another_browser();
    rita.login("rita", "referee pass").await;
    let res = rita
        .submit(
            "/desk/seat-draw",
            "/desk/seat-draw",
            &[
                ("c1", "10H"),
                ("c2", "KS"),
                ("c3", "10D"),
                ("c4", "JK"),
                ("suit_order", "HDCS"),
            ],
        )
        .await;
    let html = res.text().await.unwrap();
    assert!(html.contains("Giocatore 4</strong> sceglie"), "{html}");
    assert!(html.contains("Giocatore 1</strong> fa le carte"));
    let res = rita
        .submit(
            "/desk/seat-draw",
            "/desk/seat-draw",
            &[
                ("c1", "XX"),
                ("c2", "KS"),
                ("c3", "10D"),
                ("c4", "JK"),
                ("suit_order", "HDCS"),
            ],
        )
        .await;
    assert_eq!(res.status().as_u16(), 422);
    assert!(res.text().await.unwrap().contains("«XX» non è una carta"));
    let res = rita
        .submit(
            "/desk/seat-draw",
            "/desk/seat-draw",
            &[("random", "yes"), ("suit_order", "HDCS")],
        )
        .await;
    assert_eq!(res.status().as_u16(), 200);
    // A referee cannot open the director's pages.
    assert_eq!(rita.get_status("/director/tournaments").await, 403);
}
