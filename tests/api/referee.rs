//! The referee's place (issue 14, items 4 and 7): penalties on the record
//! (who, when, round, table; withdraw and reinstate with a reason, both
//! audited, both re-checked), the disputed tables on the staff home, and
//! the seat draw as referees speak (Italian card names, the card grid,
//! the tournament's suit order, the redraw step).

use serde_json::Value;

use crate::helpers::{location, Browser, TestApp};
use crate::scoring::{pair_id, score_round, started};

/// The newest penalty's id and whether it is withdrawn.
fn last_penalty(app: &TestApp) -> (i64, bool) {
    let (id, withdrawn, _) = crate::peek::last_penalty(app);
    (id, withdrawn)
}

fn audit_actions(app: &TestApp) -> Vec<(String, String)> {
    crate::peek::audit_like(app, None, "penalty.%")
}

/// A started 6-pair tournament with a referee (rita, logged in) assigned.
async fn with_referee() -> (TestApp, Browser, Browser, String, String) {
    let (app, dora, t) = started(6).await;
    app.create_user("rita", "referee", "referee pass").await;
    dora.assign(&t, "rita", "referee").await;
    let rita = app.another_browser();
    assert_eq!(
        rita.login("rita", "referee pass").await.status().as_u16(),
        303
    );
    let tid = t.rsplit('/').next().unwrap().to_string();
    (app, dora, rita, t, tid)
}

async fn give_mp_penalty(app: &TestApp, b: &Browser, tid: &str) -> i64 {
    let pid = pair_id(app, 1);
    let res = b
        .penalty(&tid, &pid, "mp", "100", "in ritardo di 7 minuti")
        .await;
    assert_eq!(res.status().as_u16(), 303);
    last_penalty(app).0
}

#[tokio::test]
async fn the_penalty_list_says_who_when_round_table_and_state() {
    let (app, _dora, rita, _t, tid) = with_referee().await;
    give_mp_penalty(&app, &rita, &tid).await;
    let (_, _, table) = crate::peek::last_penalty(&app);
    let table = table.expect("an MP penalty names its table");
    let html = rita.get_html(&format!("/desk/t/{tid}/penalties")).await;
    for want in [
        "Data da",
        "<dd>rita</dd>",
        "Quando",
        "Tavolo",
        &format!("<dd>{table}</dd>"),
        "in ritardo di 7 minuti",
        "conta",
        "Motivo del ritiro",
    ] {
        assert!(html.contains(want), "{want} missing in {html}");
    }
    // The time is local (Europe/Rome), written dd/mm/yyyy hh:mm.
    let local = chrono::Utc::now()
        .with_timezone(&chrono_tz::Europe::Rome)
        .format("%d/%m/%Y")
        .to_string();
    assert!(html.contains(&local));
}

#[tokio::test]
async fn withdrawing_needs_a_reason_next_to_the_field_and_nothing_changes() {
    let (app, _dora, rita, _t, tid) = with_referee().await;
    let id = give_mp_penalty(&app, &rita, &tid).await;
    for blank in ["", "   "] {
        let res = rita.withdraw_penalty(&tid, id, blank).await;
        assert_eq!(res.status().as_u16(), 422);
        let html = res.text().await.unwrap();
        let field = html
            .find(&format!("id=\"change_reason_{id}\""))
            .expect("the reason field");
        let msg = html
            .find("Scrivi il motivo: resta nel registro.")
            .expect("the message");
        assert!(msg > field && msg - field < 600, "next to the field");
        assert_eq!(last_penalty(&app), (id, false), "still counts");
    }
    assert!(audit_actions(&app)
        .iter()
        .all(|(a, _)| a != "penalty.withdrawn"));
}

#[tokio::test]
async fn withdraw_then_reinstate_each_with_a_reason_both_audited_and_rechecked() {
    let (app, _dora, rita, _t, tid) = with_referee().await;
    let id = give_mp_penalty(&app, &rita, &tid).await;
    let pen = format!("/desk/t/{tid}/penalties");
    // Reinstating one that counts: a conflict.
    let res = rita
        .submit(&pen, &format!("{pen}/{id}/reinstate"), &[("reason", "x")])
        .await;
    assert_eq!(res.status().as_u16(), 409);
    let res = rita.withdraw_penalty(&tid, id, "errore di persona").await;
    assert_eq!(res.status().as_u16(), 303);
    assert!(location(&res).contains("done=penalty_withdrawn"));
    assert_eq!(last_penalty(&app), (id, true));
    // Withdrawing it again: 409 with the reason, one audit entry only.
    let res = rita.withdraw_penalty(&tid, id, "di nuovo").await;
    assert_eq!(res.status().as_u16(), 409);
    assert!(res
        .text()
        .await
        .unwrap()
        .contains("Questa penalità è già stata ritirata."));
    let html = rita.get_html(&pen).await;
    assert!(html.contains("ritirata") && html.contains("errore di persona"));
    assert!(html.contains("Motivo del ripristino"));
    // Reinstating needs a reason too.
    let res = rita
        .submit(&pen, &format!("{pen}/{id}/reinstate"), &[("reason", "")])
        .await;
    assert_eq!(res.status().as_u16(), 422);
    assert_eq!(last_penalty(&app), (id, true));
    let res = rita
        .submit(
            &pen,
            &format!("{pen}/{id}/reinstate"),
            &[("reason", "era proprio lui")],
        )
        .await;
    assert_eq!(res.status().as_u16(), 303);
    assert_eq!(last_penalty(&app), (id, false));
    let html = rita.get_html(&pen).await;
    assert!(html.contains("Ripristinata") && html.contains("era proprio lui"));
    assert_eq!(
        audit_actions(&app),
        vec![
            ("penalty.given".into(), "in ritardo di 7 minuti".into()),
            ("penalty.withdrawn".into(), "errore di persona".into()),
            ("penalty.reinstated".into(), "era proprio lui".into()),
        ]
    );
    // The audit log reads both in words.
    let log = rita.get_html(&format!("/desk/t/{tid}/audit")).await;
    assert!(log.contains("Penalità ritirata") && log.contains("errore di persona"));
    assert!(log.contains("Penalità ripristinata") && log.contains("era proprio lui"));
    // A penalty of another tournament, or none: 404.
    let res = rita.withdraw_penalty(&tid, id + 100, "x").await;
    assert_eq!(res.status().as_u16(), 404);
}

#[tokio::test]
async fn a_withdrawn_penalty_no_longer_counts_and_a_reinstated_one_counts_again() {
    let (app, dora, rita, t, tid) = with_referee().await;
    score_round(&app, &dora, &t, 1, 100, 100).await;
    let vp = |html: &str| -> i64 {
        // "PV" on the Italian card (the glossary's term for victory points).
        let label = "<dt>PV</dt><dd>";
        let start = html.find(label).expect("PV on the card") + label.len();
        html[start..start + html[start..].find('<').unwrap()]
            .parse()
            .unwrap()
    };
    let card = format!("/t/{tid}/pairs/1");
    let before = vp(&app.another_browser().get_html(&card).await);
    let pen = format!("/desk/t/{tid}/penalties");
    let pid = pair_id(&app, 1);
    rita.penalty(&tid, &pid, "vp", "2", "telefono").await;
    let id = last_penalty(&app).0;
    assert_eq!(vp(&app.another_browser().get_html(&card).await), before - 2);
    rita.withdraw_penalty(&tid, id, "non era suo").await;
    assert_eq!(vp(&app.another_browser().get_html(&card).await), before);
    rita.submit(
        &pen,
        &format!("{pen}/{id}/reinstate"),
        &[("reason", "invece sì")],
    )
    .await;
    assert_eq!(vp(&app.another_browser().get_html(&card).await), before - 2);
}

#[tokio::test]
async fn export_and_import_keep_a_withdrawn_penalty_with_who_when_and_why() {
    let (app, dora, rita, t, tid) = with_referee().await;
    let id = give_mp_penalty(&app, &rita, &tid).await;
    rita.withdraw_penalty(&tid, id, "errore di trascrizione")
        .await;
    let first = dora.get_html(&format!("{t}/export.json")).await;
    let v: Value = serde_json::from_str(&first).unwrap();
    let p = &v["penalties"][0];
    assert_eq!(p["withdrawn"], true);
    assert_eq!(p["by"], "rita");
    assert_eq!(p["withdrawn_by"], "rita");
    assert_eq!(p["withdrawn_reason"], "errore di trascrizione");
    assert!(p["at"].as_str().unwrap().ends_with('Z'));
    assert!(p["withdrawn_at"].is_string());
    let res = app.import_file(&first).await;
    assert_eq!(res.status().as_u16(), 303, "{}", res.text().await.unwrap());
    let new = location(&res).split('?').next().unwrap().to_string();
    let second: Value =
        serde_json::from_str(&app.get_html(&format!("{new}/export.json")).await).unwrap();
    assert_eq!(second["penalties"], v["penalties"]);
}

#[tokio::test]
async fn a_second_browser_racing_the_same_withdrawal_gets_one_303_and_one_409() {
    let (app, _dora, rita, _t, tid) = with_referee().await;
    let id = give_mp_penalty(&app, &rita, &tid).await;
    let pen = format!("/desk/t/{tid}/penalties");
    let token = crate::helpers::csrf_in(&rita.get_html(&pen).await);
    let action = format!("{pen}/{id}/withdraw");
    let form_a = [("reason", "primo"), ("csrf_token", token.as_str())];
    let form_b = [("reason", "secondo"), ("csrf_token", token.as_str())];
    let (a, b) = tokio::join!(
        rita.post_raw(&action, &form_a),
        rita.post_raw(&action, &form_b)
    );
    let mut codes = vec![a.status().as_u16(), b.status().as_u16()];
    codes.sort_unstable();
    assert_eq!(codes, vec![303, 409]);
    let withdrawn: Vec<_> = audit_actions(&app)
        .into_iter()
        .filter(|(a, _)| a == "penalty.withdrawn")
        .collect();
    assert_eq!(withdrawn.len(), 1);
}

/// Posts the seat-draw form and returns (status, page).
async fn seat_draw(b: &Browser, fields: &[(&str, &str)]) -> (u16, String) {
    let res = b.submit("/desk/seat-draw", "/desk/seat-draw", fields).await;
    let status = res.status().as_u16();
    (status, res.text().await.unwrap())
}

#[tokio::test]
async fn the_seat_draw_takes_italian_card_names_and_the_card_grid() {
    let (_app, _dora, rita, _t, _tid) = with_referee().await;
    // The same four cards as the notation test: 10H KS 10D JK under HDCS.
    let (status, html) = seat_draw(
        &rita,
        &[
            ("c1", "10 di cuori"),
            ("c2", "Re di Picche"),
            ("c3", "10♦"),
            ("c4", "jolly"),
            ("suit_order", "HDCS"),
        ],
    )
    .await;
    assert_eq!(status, 200, "{html}");
    assert!(html.contains("Giocatore 4</strong> sceglie"), "{html}");
    assert!(html.contains("Giocatore 1</strong> fa le carte"), "{html}");
    // Read back in words, so the referee sees what was understood.
    assert!(html.contains("Giocatore 2: re di picche"), "{html}");
    assert!(html.contains("Giocatore 3: 10 di quadri"), "{html}");
    // Picked from the grid instead of typed.
    let (status, html) = seat_draw(
        &rita,
        &[
            ("rank1", "10"),
            ("suit1", "H"),
            ("rank2", "K"),
            ("suit2", "S"),
            ("rank3", "10"),
            ("suit3", "D"),
            ("rank4", "JK"),
            ("suit_order", "HDCS"),
        ],
    )
    .await;
    assert_eq!(status, 200, "{html}");
    assert!(html.contains("Giocatore 4</strong> sceglie"), "{html}");
    // A word that is not a card: the message next to the field, in Italian.
    let (status, html) = seat_draw(
        &rita,
        &[
            ("c1", "cavallo di spade"),
            ("c2", "re di picche"),
            ("c3", "10 quadri"),
            ("c4", "jolly"),
        ],
    )
    .await;
    assert_eq!(status, 422);
    assert!(
        html.contains("«cavallo di spade» non è una carta"),
        "{html}"
    );
}

#[tokio::test]
async fn the_seat_draw_applies_the_tournaments_suit_order() {
    let (app, _dora, rita, _t, tid) = with_referee().await;
    crate::peek::set_suit_order(&app, tid.parse().unwrap(), "SCDH");
    // From the staff home, the helper opens with the tournament's order.
    let page = rita.get_html(&format!("/desk/seat-draw?t={tid}")).await;
    // Typed with the Italian initials (picche, fiori, quadri, cuori).
    assert!(page.contains("value=\"PFQC\""), "{page}");
    // Two kings: with hearts first (HDCS) the king of hearts wins; with this
    // tournament's order (spades first) the king of spades does.
    let cards = [
        ("c1", "re di cuori"),
        ("c2", "3 di fiori"),
        ("c3", "re di picche"),
        ("c4", "4 di fiori"),
    ];
    let mut with_default: Vec<(&str, &str)> = cards.to_vec();
    with_default.push(("suit_order", "HDCS"));
    let (_, html) = seat_draw(&rita, &with_default).await;
    assert!(html.contains("Giocatore 1</strong> sceglie"), "{html}");
    let mut with_tournament: Vec<(&str, &str)> = cards.to_vec();
    with_tournament.push(("t", &tid));
    with_tournament.push(("suit_order", ""));
    let (status, html) = seat_draw(&rita, &with_tournament).await;
    assert_eq!(status, 200, "{html}");
    assert!(html.contains("Giocatore 3</strong> sceglie"), "{html}");
    // Another tournament's order is not the referee's to read.
    let (status, _) = seat_draw(&rita, &[("t", "999999"), ("c1", "jolly")]).await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn identical_cards_lead_to_the_redraw_step_until_it_is_decided() {
    let (_app, _dora, rita, _t, _tid) = with_referee().await;
    let first = [
        ("c1", "jolly"),
        ("c2", "jolly"),
        ("c3", "7 di quadri"),
        ("c4", "7 di quadri"),
        ("suit_order", "HDCS"),
    ];
    let (status, html) = seat_draw(&rita, &first).await;
    assert_eq!(status, 200, "{html}");
    assert!(html.contains("id=\"redraw-next\""), "{html}");
    assert!(html.contains("name=\"s1_p1\"") && html.contains("name=\"s1_p2\""));
    assert!(
        !html.contains("name=\"s1_p3\""),
        "only the tied players redraw"
    );
    // Step 1 settles the chooser; the dealers are still tied: step 2.
    let mut step1 = first.to_vec();
    step1.extend([("s1_p1", "re di cuori"), ("s1_p2", "3 di picche")]);
    let (_, html) = seat_draw(&rita, &step1).await;
    assert!(
        html.contains("name=\"s2_p3\"") && html.contains("name=\"s2_p4\""),
        "{html}"
    );
    assert!(
        html.contains("Nuova estrazione 1 · Giocatore 1: re di cuori"),
        "{html}"
    );
    let mut step2 = step1.clone();
    step2.extend([("s2_p3", "asso di fiori"), ("s2_p4", "5 di fiori")]);
    let (_, html) = seat_draw(&rita, &step2).await;
    assert!(html.contains("Giocatore 1</strong> sceglie"), "{html}");
    assert!(html.contains("Giocatore 4</strong> fa le carte"), "{html}");
    assert!(!html.contains("id=\"redraw-next\""));
}
