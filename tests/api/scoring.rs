//! The scoring desk: sheets checked by the rules, corrections on the record,
//! conflicts, time-out, penalties, standings, prizes, export and import.

use serde_json::Value;

use crate::helpers::{location, Browser, TestApp};
use crate::tournaments::with_director;

pub use crate::builders::{closing_hand, sheet};

pub async fn post_sheet(
    b: &Browser,
    t: &str,
    round: u32,
    table: i32,
    fields: &[(String, String)],
) -> reqwest::Response {
    let tid = t.rsplit('/').next().unwrap();
    let path = format!("/desk/t/{tid}/rounds/{round}/tables/{table}");
    let refs: Vec<(&str, &str)> = fields
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    b.submit(&path, &path, &refs).await
}

/// Table numbers of a round.
pub fn tables_of(app: &TestApp, round: i32) -> Vec<i32> {
    crate::peek::tables_of_round(app, round)
}

/// A running tournament of `pairs` pairs, built (round 1 drawn), and its
/// director dora logged in: (app, dora, its page).
pub async fn started(pairs: usize) -> (TestApp, Browser, String) {
    let (app, dora) = with_director().await;
    let t = app.tournament("Serata").pairs(pairs).drawn().build().await;
    (app, dora, t.path)
}

/// As [`started`], with the tournament's id and the first table of round
/// 1: (app, dora, page, id, table).
pub async fn at_a_table(pairs: usize) -> (TestApp, Browser, String, i64, i32) {
    let (app, dora, t) = started(pairs).await;
    let table = tables_of(&app, 1)[0];
    let tid = crate::helpers::tid_of(&t);
    (app, dora, t, tid, table)
}

/// Plays rounds 1..=`rounds` at the desk: each new round generated (303),
/// every table's sheet 120–90 saved (303).
pub async fn play_rounds(app: &TestApp, dora: &Browser, t: &str, rounds: u32) {
    for round in 1..=rounds {
        if round > 1 {
            let r = round.to_string();
            let res = dora.confirm(t, "rounds", &[("round", &r)]).await;
            assert_eq!(res.status().as_u16(), 303);
        }
        for table in tables_of(app, round as i32) {
            let res = post_sheet(dora, t, round, table, &sheet(120, 90)).await;
            assert_eq!(res.status().as_u16(), 303);
        }
    }
}

/// Saves every table's sheet of `round` at the desk (NS melds `ns`, EW
/// `ew`), whatever the answers.
pub async fn score_round(app: &TestApp, dora: &Browser, t: &str, round: u32, ns: i64, ew: i64) {
    for table in tables_of(app, round as i32) {
        post_sheet(dora, t, round, table, &sheet(ns, ew)).await;
    }
}

/// A running tournament of 6 pairs with round 1 scored 100–90 at the desk:
/// (app, director, director's tournament path, id).
pub async fn scored() -> (TestApp, Browser, String, String) {
    let (app, dora, t) = started(6).await;
    score_round(&app, &dora, &t, 1, 100, 90).await;
    let tid = t.rsplit('/').next().unwrap().to_string();
    (app, dora, t, tid)
}

/// A correction of a saved sheet: NS melds `ns`, EW 90, over `version`,
/// with its reason.
pub fn correction(ns: i64, version: u32, reason: &str) -> Vec<(String, String)> {
    let mut f = sheet(ns, 90);
    f.push(("version".into(), version.to_string()));
    f.push(("reason".into(), reason.into()));
    f
}

/// The database id of pair `number` (forms name pairs by id).
pub fn pair_id(app: &TestApp, number: i32) -> String {
    crate::peek::pair_id_numbered(app, number).to_string()
}

fn sheet_count(app: &TestApp) -> i64 {
    crate::peek::sheet_count(app)
}

#[tokio::test]
async fn a_valid_sheet_is_saved_and_shows_on_the_desk() {
    let (app, dora, t) = started(6).await;
    let table = tables_of(&app, 1)[0];
    let res = post_sheet(&dora, &t, 1, table, &sheet(120, 90)).await;
    assert_eq!(res.status().as_u16(), 303, "{}", res.text().await.unwrap());
    let tid = t.rsplit('/').next().unwrap();
    let html = dora.get_html(&format!("/desk/t/{tid}/rounds/1")).await;
    // NS 3 × 420 = 1260, EW 3 × 70 = 210: difference 1050 → 18–2.
    assert!(html.contains("1.260&nbsp;/ 210"), "{html}");
    assert!(html.contains("18–2"));
    assert!(
        html.contains("Score mancanti: 2"),
        "the other tables are still missing"
    );
}

#[tokio::test]
async fn every_kind_of_violation_reaches_the_page_and_nothing_is_saved() {
    let (app, dora, t) = started(6).await;
    let table = tables_of(&app, 1)[0];
    // Hand 1: NS closes without the pozzetto; hand 2: both lines closed;
    // hand 3: a melded total that is not a multiple of 5.
    let mut f = sheet(120, 90);
    f.retain(|(k, _)| k != "h1_ns_pozzetto");
    f.push(("h2_ew_clean".into(), "1".into()));
    for (k, v) in f.iter_mut() {
        if k == "h3_ew_melded_points" {
            *v = "93".into();
        }
    }
    let res = post_sheet(&dora, &t, 1, table, &f).await;
    assert_eq!(res.status().as_u16(), 422);
    let html = res.text().await.unwrap();
    assert!(html.contains("Lo score non è stato salvato"));
    assert!(
        html.contains("pozzetto"),
        "closing without the pozzetto is named"
    );
    assert!(html.contains("multiplo di 5"), "{html}");
    assert_eq!(sheet_count(&app), 0);
    // Not a number: the message sits next to the field.
    let mut f = sheet(120, 90);
    f.push(("h2_ns_hand_points".into(), "dieci".into()));
    let res = post_sheet(&dora, &t, 1, table, &f).await;
    assert_eq!(res.status().as_u16(), 422);
    assert!(res.text().await.unwrap().contains("Un numero intero."));
    // Fewer hands than the round has, the last not ended by time-out.
    let f: Vec<_> = closing_hand(1, 120, 90, 20);
    let res = post_sheet(&dora, &t, 1, table, &f).await;
    assert_eq!(res.status().as_u16(), 422);
    assert_eq!(sheet_count(&app), 0);
}

#[tokio::test]
async fn a_time_out_hand_scores_by_the_time_out_rule_and_ends_the_sheet() {
    let (app, dora, t) = started(6).await;
    let table = tables_of(&app, 1)[0];
    // Hand 1 normal; hand 2 ended by time-out: nobody took the pozzetto,
    // so nobody loses 100.
    let mut f = closing_hand(1, 120, 90, 20);
    f.extend([
        ("h2_end".to_string(), "time_out".to_string()),
        ("h2_ns_melded_points".into(), "60".into()),
        ("h2_ew_melded_points".into(), "30".into()),
    ]);
    let tid = t.rsplit('/').next().unwrap();
    // Time-out was not called: the hand cannot end in time-out yet, and the
    // page offers the referee's override (nothing saved).
    let res = post_sheet(&dora, &t, 1, table, &f).await;
    assert_eq!(res.status().as_u16(), 422);
    let html = res.text().await.unwrap();
    assert!(html.contains("time-out non è stato chiamato"), "{html}");
    assert!(html.contains("name=\"accept_time_out\""), "{html}");
    assert_eq!(sheet_count(&app), 0);
    // The override needs a reason.
    let mut over = f.clone();
    over.push(("accept_time_out".into(), "on".into()));
    let res = post_sheet(&dora, &t, 1, table, &over).await;
    assert_eq!(res.status().as_u16(), 422);
    // Once the desk starts the clock and calls time-out, the sheet counts.
    for action in ["start", "time_out"] {
        let res = dora
            .submit(
                &format!("/desk/t/{tid}/rounds/1"),
                &format!("{t}/rounds/1/clock"),
                &[("confirm", "1"), ("action", action)],
            )
            .await;
        assert_eq!(res.status().as_u16(), 303);
    }
    let res = post_sheet(&dora, &t, 1, table, &f).await;
    assert_eq!(res.status().as_u16(), 303, "{}", res.text().await.unwrap());
    let html = dora.get_html(&format!("/desk/t/{tid}/rounds/1")).await;
    // NS 420 + 60 = 480; EW 70 + 30 = 100.
    assert!(html.contains("480&nbsp;/ 100"), "{html}");
    // In another tournament, still without time-out: the referee's override
    // with a reason is accepted.
    let (app2, dora2, t2) = started(6).await;
    let table2 = tables_of(&app2, 1)[0];
    over.push((
        "reason".into(),
        "orologio guasto, time-out dato a voce".into(),
    ));
    let res = post_sheet(&dora2, &t2, 1, table2, &over).await;
    assert_eq!(res.status().as_u16(), 303, "{}", res.text().await.unwrap());
}

#[tokio::test]
async fn a_referee_accepts_a_wrong_written_total_with_a_reason() {
    let (app, dora, t) = started(6).await;
    app.create_user("rita", "referee", "referee pass").await;
    dora.assign(&t, "rita", "referee").await;
    let rita = app.another_browser();
    rita.login("rita", "referee pass").await;
    let table = tables_of(&app, 1)[0];
    let mut f = sheet(120, 90);
    f.push(("declared_ns".into(), "1250".into()));
    f.push(("declared_ew".into(), "210".into()));
    let res = post_sheet(&rita, &t, 1, table, &f).await;
    assert_eq!(res.status().as_u16(), 422);
    let html = res.text().await.unwrap();
    assert!(
        html.contains("name=\"accept_mismatch\""),
        "the referee is offered the override"
    );
    f.push(("accept_mismatch".into(), "on".into()));
    let res = post_sheet(&rita, &t, 1, table, &f).await;
    assert_eq!(res.status().as_u16(), 422, "a reason is needed");
    f.push(("reason".into(), "somma sbagliata sullo score".into()));
    let res = post_sheet(&rita, &t, 1, table, &f).await;
    assert_eq!(res.status().as_u16(), 303);
    let tid = t.rsplit('/').next().unwrap();
    let html = rita
        .get_html(&format!("/desk/t/{tid}/rounds/1/tables/{table}"))
        .await;
    assert!(html.contains("somma sbagliata sullo score"));
    assert!(html.contains("1.260"), "the computed totals win");
}

#[tokio::test]
async fn a_correction_keeps_before_after_who_and_why() {
    let (app, dora, t) = started(6).await;
    let table = tables_of(&app, 1)[0];
    post_sheet(&dora, &t, 1, table, &sheet(120, 90)).await;
    let mut f = sheet(130, 90);
    f.push(("version".into(), "1".into()));
    let res = post_sheet(&dora, &t, 1, table, &f).await;
    assert_eq!(res.status().as_u16(), 422, "a correction needs a reason");
    f.push(("reason".into(), "punti a terra ricontati".into()));
    let res = post_sheet(&dora, &t, 1, table, &f).await;
    assert_eq!(res.status().as_u16(), 303);
    let tid = t.rsplit('/').next().unwrap();
    let html = dora
        .get_html(&format!("/desk/t/{tid}/audit"))
        .await
        .replace("&#34;", "\"")
        .replace("&quot;", "\"");
    assert!(html.contains("Score corretto"));
    assert!(html.contains("punti a terra ricontati"));
    assert!(html.contains("dora"));
    // Before and after in words: the totals the engine makes of each
    // version (NS 3 × (120 + 300) → 3 × (130 + 300)), never raw JSON.
    assert!(html.contains("<del>NS 1.260"), "before: {html}");
    assert!(html.contains("<ins>NS 1.290"), "after: {html}");
    assert!(!html.contains("\"melded_points\""), "no raw JSON");
}

#[tokio::test]
async fn two_people_saving_the_same_table_lose_no_update() {
    let (app, dora, t) = started(6).await;
    let table = tables_of(&app, 1)[0];
    post_sheet(&dora, &t, 1, table, &sheet(120, 90)).await;
    // Both editors loaded version 1.
    let a = correction(130, 1, "A");
    let b = correction(140, 1, "B");
    assert_eq!(
        post_sheet(&dora, &t, 1, table, &a).await.status().as_u16(),
        303
    );
    let res = post_sheet(&dora, &t, 1, table, &b).await;
    assert_eq!(res.status().as_u16(), 409);
    let html = res.text().await.unwrap();
    assert!(html.contains("Qualcun altro ha salvato"));
    assert!(
        html.contains("value=\"130\""),
        "the current version is shown"
    );
}

#[tokio::test]
async fn penalties_second_warning_and_withdrawal_reach_the_standings() {
    let (app, dora, t) = started(6).await;
    score_round(&app, &dora, &t, 1, 100, 100).await;
    let tid = t.rsplit('/').next().unwrap();
    let pen = format!("/desk/t/{tid}/penalties");
    let pid = pair_id(&app, 1);
    let vp_of = |html: &str| -> i64 {
        let start = html.find("<dt>PV</dt><dd>").expect("PV on the card") + "<dt>PV</dt><dd>".len();
        html[start..start + html[start..].find('<').unwrap()]
            .parse()
            .unwrap()
    };
    let before = vp_of(
        &app.another_browser()
            .get_html(&format!("/t/{tid}/pairs/1"))
            .await,
    );
    for reason in ["in ritardo", "parla al compagno"] {
        let res = dora.penalty(&tid, &pid, "warning", "", reason).await;
        assert_eq!(res.status().as_u16(), 303);
    }
    // The second warning takes 1 VP, automatically and with its reason.
    let html = app
        .another_browser()
        .get_html(&format!("/t/{tid}/pairs/1"))
        .await;
    assert!(html.contains("parla al compagno"));
    assert!(html.contains("Seconda ammonizione"));
    assert_eq!(vp_of(&html), before - 1);
    // An MP penalty needs an amount.
    let res = dora.penalty(&tid, &pid, "mp", "", "x").await;
    assert_eq!(res.status().as_u16(), 422);
    // Withdraw the second warning: the VP comes back; the record stays.
    let (second, _, _) = crate::peek::last_penalty(&app);
    let res = dora.withdraw_penalty(&tid, second, "errore").await;
    assert_eq!(res.status().as_u16(), 303);
    let html = app
        .another_browser()
        .get_html(&format!("/t/{tid}/pairs/1"))
        .await;
    assert_eq!(vp_of(&html), before);
    // The public card shows only what counts (issue 12, part 5); the desk
    // keeps the record.
    assert!(!html.contains("parla al compagno"), "withdrawn: not public");
    assert!(
        html.contains("in ritardo"),
        "the first warning still counts"
    );
    let desk = dora.get_html(&pen).await;
    assert!(desk.contains("parla al compagno") && desk.contains("ritirata"));
}

#[tokio::test]
async fn standings_byes_danish_round_and_the_final_prize_list() {
    // 5 pairs, 4 rounds (3 Mitchell + Danish): a bye every round.
    let (app, dora, t) = started(5).await;
    let tid = t.rsplit('/').next().unwrap().to_string();
    for round in 1..=3u32 {
        if round > 1 {
            let res = dora.confirm(&t, "rounds", &[]).await;
            assert_eq!(
                location(&res),
                format!("{t}/rounds/{round}?done=round_generated")
            );
        }
        for (i, table) in tables_of(&app, round as i32).into_iter().enumerate() {
            let res = post_sheet(&dora, &t, round, table, &sheet(100 + 50 * i as i64, 100)).await;
            assert_eq!(res.status().as_u16(), 303);
        }
    }
    // Round 4 is Danish, generated from the standings.
    let res = dora.confirm(&t, "rounds", &[]).await;
    assert_eq!(
        location(&res),
        format!("{t}/rounds/4?done=round_generated"),
        "{}",
        res.text().await.unwrap()
    );
    let res = dora.confirm(&t, "close", &[]).await;
    assert_eq!(res.status().as_u16(), 409, "round 4 sheets are missing");
    score_round(&app, &dora, &t, 4, 100, 100).await;
    let res = dora.confirm(&t, "close", &[]).await;
    assert_eq!(location(&res), format!("{t}?done=tournament_closed"));

    // The public page and the CLI agree on the standings.
    let export = dora.get_html(&format!("{t}/export.json")).await;
    let st = burraco_td::standings::compute_file(
        &burraco_td::tournament_file::parse(&export).unwrap(),
        burraco_td::i18n::Lang::It,
    )
    .unwrap();
    let anon = app.another_browser();
    let html = anon.get_html(&format!("/t/{tid}")).await;
    assert!(html.contains("Classifica definitiva"));
    assert!(
        !html.contains("http-equiv=\"refresh\""),
        "a final page does not refresh"
    );
    let first = &st.rows[0];
    assert!(html.contains(&format!("<strong>{}</strong>", first.vp)));
    // Five pairs, four rounds: four different pairs rested once (bye = 14
    // VP, MP difference 355); every pair played or rested every round.
    assert!(st
        .rows
        .iter()
        .all(|r| r.byes <= 1 && r.played + r.byes == 4));
    assert_eq!(st.rows.iter().map(|r| r.byes).sum::<u32>(), 4);
    let rested = st
        .cards
        .iter()
        .find(|c| {
            c.rounds
                .iter()
                .any(|r| r.outcome == burraco_td::standings::Outcome::Bye)
        })
        .unwrap();
    let bye = rested
        .rounds
        .iter()
        .find(|r| r.outcome == burraco_td::standings::Outcome::Bye)
        .unwrap();
    assert_eq!((bye.vp, bye.mp_diff), (Some(14), 355));
    // 5 pairs × 20 € × 70 % = 70 €, one scheme "1: 100" → all to the winner(s).
    assert!(html.contains("70,00\u{a0}€"), "Italian money");
    let prizes: rust_decimal::Decimal = st.prizes.iter().map(|p| p.amount).sum();
    assert_eq!(prizes, st.pool);
    // CSV exports.
    let csv = dora.get_html(&format!("{t}/standings.csv")).await;
    assert_eq!(csv.lines().count(), 6);
    let sheets = dora.get_html(&format!("{t}/sheets.csv")).await;
    assert!(sheets.lines().count() > 20);
}

#[tokio::test]
async fn export_then_import_gives_the_same_file_and_standings() {
    let (app, dora, t) = started(6).await;
    score_round(&app, &dora, &t, 1, 150, 100).await;
    let tid = t.rsplit('/').next().unwrap();
    let pid = pair_id(&app, 2);
    dora.penalty(&tid, &pid, "vp", "2", "gioco lento").await;
    let first = dora.get_html(&format!("{t}/export.json")).await;
    let v: Value = serde_json::from_str(&first).unwrap();
    assert_eq!(v["format"], "burraco-td/tournament@1");

    // The admin imports it: a new tournament with the same content.
    let res = app.import_file(&first).await;
    assert_eq!(res.status().as_u16(), 303, "{}", res.text().await.unwrap());
    let new = location(&res).split('?').next().unwrap().to_string();
    assert_ne!(new, t);
    // The importing admin owns the new tournament.
    let second = app.get_html(&format!("{new}/export.json")).await;
    assert_eq!(strip_volatile(&first), strip_volatile(&second));
    let lang = burraco_td::i18n::Lang::En;
    let a = burraco_td::standings::compute_file(
        &burraco_td::tournament_file::parse(&first).unwrap(),
        lang,
    )
    .unwrap();
    let b = burraco_td::standings::compute_file(
        &burraco_td::tournament_file::parse(&second).unwrap(),
        lang,
    )
    .unwrap();
    assert_eq!(a.to_cli_json(), b.to_cli_json());

    // A broken file is refused with the place named, and nothing is written.
    let mut bad: Value = serde_json::from_str(&first).unwrap();
    bad["rounds"][0]["tables"][0]["ew"] = serde_json::json!(99);
    let res = app.import_file(&bad.to_string()).await;
    assert_eq!(res.status().as_u16(), 422);
    assert!(res.text().await.unwrap().contains("rounds[0].tables[0].ew"));
    let mut c = app.pool.get().unwrap();
    assert_eq!(burraco_td::db::tournaments::list(&mut c).unwrap().len(), 2);
}

/// The export without what differs between two databases (timestamps).
fn strip_volatile(json: &str) -> Value {
    let mut v: Value = serde_json::from_str(json).unwrap();
    if let Some(ps) = v["penalties"].as_array_mut() {
        for p in ps {
            if let Some(o) = p.as_object_mut() {
                o.remove("at");
                o.remove("withdrawn_at");
            }
        }
    }
    v
}

#[tokio::test]
async fn one_hundred_fifty_sheets_submitted_at_once_all_land() {
    // 300 pairs: 150 tables whose sheets arrive at the same moment.
    let (app, dora) = with_director().await;
    let t = app
        .tournament("Federale")
        .pairs(300)
        .drawn()
        .build()
        .await
        .path;
    let tables = tables_of(&app, 1);
    assert_eq!(tables.len(), 150);
    let tid = t.rsplit('/').next().unwrap().to_string();
    let token = crate::helpers::csrf_in(&dora.get_html(&format!("/desk/t/{tid}/rounds/1")).await);
    let mut tasks = Vec::new();
    for table in tables {
        let client = dora.client.clone();
        let url = dora.url(&format!("/desk/t/{tid}/rounds/1/tables/{table}"));
        let mut form = sheet(100 + i64::from(table) * 5, 100);
        form.push(("csrf_token".into(), token.clone()));
        tasks.push(tokio::spawn(async move {
            client
                .post(url)
                .form(&form)
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        }));
    }
    for task in tasks {
        assert_eq!(task.await.unwrap(), 303);
    }
    assert_eq!(sheet_count(&app), 150);
}

#[tokio::test]
async fn round_one_can_be_drawn_again_only_before_the_first_score() {
    let (app, dora, t) = started(6).await;
    let before = tables_of(&app, 1).len();
    // Starting again is refused: drawing round 1 again is its own action.
    let res = dora.confirm(&t, "draw", &[]).await;
    assert_eq!(res.status().as_u16(), 409, "start on a running tournament");
    let res = dora.confirm(&t, "redraw", &[]).await;
    assert_eq!(
        location(&res),
        format!("{t}/rounds/1?done=round_drawn"),
        "redraw before any score"
    );
    assert_eq!(tables_of(&app, 1).len(), before);
    let table = tables_of(&app, 1)[0];
    post_sheet(&dora, &t, 1, table, &sheet(120, 90)).await;
    let res = dora.confirm(&t, "redraw", &[]).await;
    assert_eq!(res.status().as_u16(), 409, "a score is in: no redraw");
    assert_eq!(sheet_count(&app), 1, "the score is kept");
}

#[tokio::test]
async fn twenty_three_pairs_reach_a_seated_danish_round_four() {
    let (app, dora, t) = started(23).await;
    for round in 1..=3u32 {
        if round > 1 {
            dora.confirm(&t, "rounds", &[]).await;
        }
        let tables = tables_of(&app, round as i32);
        assert_eq!(tables.len(), 11, "23 pairs: 11 tables and a bye");
        for (i, table) in tables.into_iter().enumerate() {
            let res = post_sheet(
                &dora,
                &t,
                round,
                table,
                &sheet(100 + 10 * i as i64, 100 + 5 * round as i64),
            )
            .await;
            assert_eq!(res.status().as_u16(), 303);
        }
    }
    let res = dora.confirm(&t, "rounds", &[]).await;
    assert_eq!(location(&res), format!("{t}/rounds/4?done=round_generated"));
    assert_eq!(tables_of(&app, 4).len(), 11);
    let html = dora.get_html(&format!("{t}/rounds/4")).await;
    assert!(html.contains("Danese modificato"));
    assert!(html.contains("Riposo"), "one pair rests");
}

/// A file written by one database imports into the other unchanged (runs
/// when TEST_DATABASE_URL names a PostgreSQL server).
#[tokio::test]
async fn a_file_moves_between_sqlite_and_postgresql_unchanged() {
    if std::env::var("TEST_DATABASE_URL")
        .map(|u| u.is_empty())
        .unwrap_or(true)
    {
        return;
    }
    // Played on PostgreSQL…
    let (app, dora, t) = started(7).await;
    assert!(app.db.is_postgres());
    score_round(&app, &dora, &t, 1, 130, 95).await;
    let from_pg = dora.get_html(&format!("{t}/export.json")).await;
    // …moved to SQLite…
    let lite = crate::helpers::spawn_app_with(crate::helpers::TestDb::sqlite(), |_| {}).await;
    lite.setup_admin().await;
    let res = lite.import_file(&from_pg).await;
    assert_eq!(res.status().as_u16(), 303, "{}", res.text().await.unwrap());
    let tl = location(&res).split('?').next().unwrap().to_string();
    let from_lite = lite.get_html(&format!("{tl}/export.json")).await;
    assert_eq!(strip_volatile(&from_pg), strip_volatile(&from_lite));
    // …and back to PostgreSQL.
    let res = app.import_file(&from_lite).await;
    assert_eq!(res.status().as_u16(), 303);
    let back = location(&res).split('?').next().unwrap().to_string();
    let again = app.get_html(&format!("{back}/export.json")).await;
    assert_eq!(strip_volatile(&from_pg), strip_volatile(&again));
}

#[tokio::test]
async fn a_typical_reason_brings_its_kind_and_amount() {
    let (app, dora, t) = started(6).await;
    let tid = t.rsplit('/').next().unwrap();
    let pen = format!("/desk/t/{tid}/penalties");
    let pid = pair_id(&app, 3);
    // The kind follows the reason unless the referee picks one.
    let html = dora.get_html(&pen).await;
    assert!(html.contains("secondo il motivo"));
    assert!(!html.contains("value=\"warning\" selected"));
    // "Over 5 minutes late" → an MP penalty of 100 (RULES.md §9).
    let res = dora
        .submit(
            &pen,
            &pen,
            &[
                ("pair", &pid),
                ("round", "1"),
                ("kind", ""),
                ("reason_preset", "penalty.reason.late_5"),
            ],
        )
        .await;
    assert_eq!(res.status().as_u16(), 303, "{}", res.text().await.unwrap());
    let (kind, amount, reason) = crate::peek::first_penalty(&app);
    assert_eq!((kind.as_str(), amount), ("mp", Some(100)));
    assert_eq!(reason, "Ritardo oltre 5 minuti");
    // The sheet page offers the typical adjusted scores for 3 hands: 14–6.
    let table = tables_of(&app, 1)[0];
    let html = dora
        .get_html(&format!("/desk/t/{tid}/rounds/1/tables/{table}"))
        .await;
    assert!(html.contains("presente NS: 14–6"), "{html}");
}

#[tokio::test]
async fn the_next_mitchell_round_is_seated_before_every_sheet_is_in_only_with_a_reason() {
    let (app, dora, t) = started(6).await;
    let tables = tables_of(&app, 1);
    post_sheet(&dora, &t, 1, tables[0], &sheet(120, 90)).await;
    // Tables without a score: refused, naming them, and the page offers to
    // force it with a reason.
    let res = dora.confirm(&t, "rounds", &[("round", "2")]).await;
    assert_eq!(res.status().as_u16(), 409);
    let html = res.text().await.unwrap();
    assert!(html.contains("senza uno score valido"), "{html}");
    assert!(
        html.contains(&format!("{}, {}", tables[1], tables[2])),
        "{html}"
    );
    assert!(html.contains("name=\"force_reason\""));
    let res = dora
        .confirm(
            &t,
            "rounds",
            &[
                ("round", "2"),
                ("force_reason", "i tavoli 2 e 3 consegnano dopo"),
            ],
        )
        .await;
    assert_eq!(location(&res), format!("{t}/rounds/2?done=round_generated"));
    let tid = t.rsplit('/').next().unwrap();
    let audit = dora.get_html(&format!("/desk/t/{tid}/audit")).await;
    assert!(
        audit.contains("i tavoli 2 e 3 consegnano dopo"),
        "the reason is on the record"
    );
    // The public standings still show, with the missing tables pending.
    let anon = app.another_browser();
    assert_eq!(anon.get_status(&format!("/t/{tid}")).await, 200);
    let html = anon.get_html(&format!("/t/{tid}/pairs/1")).await;
    assert!(
        html.contains("in corso") || html.contains("giocato"),
        "{html}"
    );
    // But the tournament cannot close with sheets missing.
    assert_eq!(dora.confirm(&t, "close", &[]).await.status().as_u16(), 409);
}

#[tokio::test]
async fn a_closed_tournament_keeps_its_results_and_penalties_stay_in_bounds() {
    let (app, dora, t) = started(6).await;
    let tid = t.rsplit('/').next().unwrap();
    let pen = format!("/desk/t/{tid}/penalties");
    let pid = pair_id(&app, 1);
    // An absurd amount is refused (it would break the standings).
    let res = dora.penalty(&tid, &pid, "vp", "150", "x").await;
    assert_eq!(res.status().as_u16(), 422);
    // A penalty fixes the draw: no redraw any more.
    let res = dora.penalty(&tid, &pid, "warning", "", "x").await;
    assert_eq!(res.status().as_u16(), 303);
    let res = dora.confirm(&t, "draw", &[]).await;
    assert_eq!(res.status().as_u16(), 409);
    // Play every round and close.
    play_rounds(&app, &dora, &t, 4).await;
    assert_eq!(
        location(&dora.confirm(&t, "close", &[]).await),
        format!("{t}?done=tournament_closed")
    );
    // After closing, results and penalties no longer change.
    let table = tables_of(&app, 1)[0];
    let f = correction(200, 1, "late change");
    assert_eq!(
        post_sheet(&dora, &t, 1, table, &f).await.status().as_u16(),
        409
    );
    let res = dora
        .submit(
            &t,
            &pen,
            &[
                ("pair", &pid),
                ("round", "1"),
                ("kind", "warning"),
                ("reason", "x"),
            ],
        )
        .await;
    assert_eq!(res.status().as_u16(), 409);
    assert!(res.text().await.unwrap().contains("non è in corso"));
}

#[tokio::test]
async fn a_late_pair_takes_the_phantom_seat_or_is_refused_before_anything_is_saved() {
    let late = [
        ("p1_surname", "Tardi"),
        ("p1_name", "Ada"),
        ("p2_surname", "Ritardo"),
        ("p2_name", "Ugo"),
    ];
    // Odd: the phantom's seat is free from round 2.
    let (app, dora, t) = started(5).await;
    let res = dora.add_pair(&t, &late).await;
    assert_eq!(res.status().as_u16(), 303);
    dora.confirm(
        &t,
        "rounds",
        &[("round", "2"), ("force_reason", "round 1 scored later")],
    )
    .await;
    assert_eq!(tables_of(&app, 2).len(), 3, "six pairs now: three tables");
    assert!(dora
        .get_html(&format!("{t}/rounds/2"))
        .await
        .contains("Tardi"));
    // Even: no free seat in a Mitchell, refused with the reason, nothing saved.
    let (app, dora, t) = started(6).await;
    let res = dora.add_pair(&t, &late).await;
    assert_eq!(res.status().as_u16(), 409);
    let mut c = app.pool.get().unwrap();
    assert_eq!(
        burraco_td::db::pairs::list_pairs(&mut c, burraco_td::ids::TournamentId(1))
            .unwrap()
            .len(),
        6
    );
}
