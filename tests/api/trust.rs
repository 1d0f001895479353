//! Results the hall can trust (issue 21): one score card everywhere, the
//! confirmation of exactly the entry seen, one answer per submission,
//! disputes settled with the sheet in view, stale forms refused, QR codes
//! a phone can open, and the smaller defects of the evening played from
//! phones. Each runs on SQLite, and on PostgreSQL with TEST_DATABASE_URL.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{location, tid_of, Browser, TestApp};
use crate::scoring::{at_a_table, started, tables_of};
use crate::table_side::{
    codes, count, enter, err_code, get_view, phone, post, seat, send, sheet, table_audit,
};

/// A confirmation naming the entry version it read.
async fn answer_seen(
    b: &Browser,
    code: &str,
    pair: &str,
    agree: bool,
    note: &str,
    seen: Value,
) -> crate::table_side::Reply {
    let mut body = json!({"pair_code": pair, "agree": agree, "note": note});
    if !seen.is_null() {
        body["entry_version"] = seen;
    }
    post(b, code, "confirm", body, None).await
}

/// The counted sheet's NS total at a table of round 1 (None: nothing counts).
fn counted_ns_total(app: &TestApp, tid: i64, table: i32) -> Option<i64> {
    crate::peek::counted_ns_total(app, tid, table)
}

#[tokio::test]
async fn a_confirmation_counts_only_the_entry_the_pair_read() {
    let (app, _dora, _t, tid, table) = at_a_table(6).await;
    let (code, ns, ew) = codes(&app, tid, 1, table);

    let v = get_view(&app, &code).await;
    assert_eq!(v.body["entry_version"], Value::Null, "nothing entered");

    // NS enters sheet A; EW reads it (version 1).
    let a = enter(&app, &code, &ns, sheet(120, 90)).await;
    assert_eq!(a.status, 200, "{:?}", a.body);
    assert_eq!(a.body["entry_version"], json!(1));
    let read_by_ew = get_view(&app, &code).await.body["entry_version"].clone();
    assert_eq!(read_by_ew, json!(1));

    // NS replaces it with B before EW confirms: a new version.
    let b = enter(&app, &code, &ns, sheet(200, 90)).await;
    assert_eq!(b.body["entry_version"], json!(2));
    assert_eq!(get_view(&app, &code).await.body["entry_version"], json!(2));

    // Without the version: 422 naming the field, for agree and dispute alike.
    for agree in [true, false] {
        let r = answer_seen(&app, &code, &ew, agree, "wrong", Value::Null).await;
        assert_eq!(r.status, 422, "{:?}", r.body);
        assert!(
            r.body["error"]["fields"]["entry_version"].is_string(),
            "{:?}",
            r.body
        );
    }
    // The version EW read (A) is not the current one: 409, nothing counts.
    for agree in [true, false] {
        let r = answer_seen(&app, &code, &ew, agree, "wrong", read_by_ew.clone()).await;
        assert_eq!((r.status.as_u16(), err_code(&r)), (409, "entry_changed"));
    }
    assert_eq!(count(&app, "sheets"), 0);
    assert_eq!(get_view(&app, &code).await.body["status"], "entered");

    // EW confirms B, which it now read: B counts.
    let r = answer_seen(&app, &code, &ew, true, "", json!(2)).await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    assert_eq!(r.body["status"], "confirmed");
    assert_eq!(r.body["entry_version"], json!(2));
    assert_eq!(counted_ns_total(&app, tid, table), Some(3 * (200 + 300)));
}

#[tokio::test]
async fn a_submission_sent_twice_is_stored_once() {
    let (app, _dora, _t, tid, table) = at_a_table(6).await;
    let (code, ns, ew) = codes(&app, tid, 1, table);
    let with_key = |key: &str, body: Value| {
        phone()
            .post(app.url(&format!("/api/v1/score/{code}/sheet")))
            .header("idempotency-key", key)
            .json(&body)
    };
    let body = json!({"pair_code": ns, "round": 1, "sheet": sheet(120, 90)});
    let first = send(&app, with_key("phone-key-0001", body.clone()), "").await;
    let again = send(&app, with_key("phone-key-0001", body.clone()), "").await;
    assert_eq!(first.status, 200, "{:?}", first.body);
    assert_eq!(again.status, 200);
    assert_eq!(first.body, again.body, "the first answer again");
    assert_eq!(table_audit(&app, tid).len(), 1, "stored once");
    assert_eq!(get_view(&app, &code).await.body["entry_version"], json!(1));

    // Ten at once with one key: one entry.
    let mut all = Vec::new();
    for _ in 0..10 {
        let req = with_key("phone-key-0002", body.clone());
        all.push(tokio::spawn(
            async move { req.send().await.unwrap().status() },
        ));
    }
    for h in all {
        assert_eq!(h.await.unwrap(), StatusCode::OK);
    }
    assert_eq!(table_audit(&app, tid).len(), 2, "one more entry, not ten");
    assert_eq!(get_view(&app, &code).await.body["entry_version"], json!(2));

    // The key in the body works too; a malformed key is named.
    let mut b = body.clone();
    b["idempotency_key"] = json!("x");
    let r = post(&app, &code, "sheet", b, None).await;
    assert_eq!(r.status, 422);
    assert!(r.body["error"]["fields"]["idempotency_key"].is_string());

    // The page's form: the same key posted twice (a reload of the POST,
    // the phone's queue sending again) redirects both times, stored once.
    let form = [
        ("pair_code", ew.as_str()),
        ("idempotency_key", "page-key-000003"),
        ("h1_end", "closure_ns"),
        ("h1_ns_clean", "1"),
        ("h1_ns_melded_points", "120"),
        ("h1_ew_melded_points", "90"),
        ("h1_ew_hand_points", "20"),
        ("h2_end", "closure_ns"),
        ("h2_ns_clean", "1"),
        ("h2_ns_melded_points", "120"),
        ("h2_ew_melded_points", "90"),
        ("h2_ew_hand_points", "20"),
        ("h3_end", "closure_ns"),
        ("h3_ns_clean", "1"),
        ("h3_ns_melded_points", "120"),
        ("h3_ew_melded_points", "90"),
        ("h3_ew_hand_points", "20"),
    ];
    let client = phone();
    for _ in 0..2 {
        let res = client
            .post(app.url(&format!("/s/{code}/sheet")))
            .form(&form)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 303);
        assert_eq!(location(&res), format!("/s/{code}?ok=entered"));
    }
    assert_eq!(table_audit(&app, tid).len(), 3);
    // A blank pozzetto box on the phone is the paper's blank: taken.
    let v = get_view(&app, &code).await;
    assert_eq!(
        v.body["sheet"]["hands"][0]["ew"]["took_pozzetto"],
        json!(true)
    );
    assert_eq!(
        v.body["sheet"]["hands"][0]["ns"]["took_pozzetto"],
        json!(true)
    );
}

/// `field`s of the rows of one line in the order a page has them.
fn row_fields(html: &str, marker: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(i) = rest.find(marker) {
        rest = &rest[i + marker.len()..];
        let end = rest.find('"').unwrap();
        let f = rest[..end].to_string();
        if !out.contains(&f) {
            out.push(f);
        }
    }
    out
}

#[tokio::test]
async fn the_printed_card_the_desk_and_the_phone_have_the_same_rows_and_words() {
    let (app, dora, _t, tid, table) = at_a_table(6).await;
    let (code, _, _) = codes(&app, tid, 1, table);
    let card = dora
        .get_html(&format!("/desk/t/{tid}/rounds/1/score-cards"))
        .await;
    let desk = dora
        .get_html(&format!("/desk/t/{tid}/rounds/1/tables/{table}"))
        .await;
    let phone_page = app.another_browser().get_html(&format!("/s/{code}")).await;

    let printed = row_fields(&card, "<tr data-row=\"");
    let printed: Vec<String> = printed
        .into_iter()
        .filter(|f| f != "end" && f != "declared")
        .collect();
    let desk_rows: Vec<String> = row_fields(&desk, "name=\"h1_ns_").into_iter().collect();
    let phone_rows: Vec<String> = row_fields(&phone_page, "data-row=\"h1_ns_")
        .into_iter()
        .collect();
    assert_eq!(printed, crate::deskentry::SHEET_ROWS);
    assert_eq!(desk_rows, printed, "desk form");
    assert_eq!(phone_rows, printed, "phone form");
    // The same words: the pozzetto is asked as the paper asks it.
    for page in [&card, &desk, &phone_page] {
        assert!(
            page.contains("Pozzetto NON preso"),
            "every form asks NOT taken"
        );
        assert!(!page.contains("Pozzetto preso"), "none asks taken");
        for end in ["1 · chiude NS", "2 · chiude EO", "3 · tallone esaurito"] {
            assert!(
                page.contains(end) || (page == &card && card.contains("1 chiude NS")),
                "{end}"
            );
        }
    }
    // The phone has no box pre-ticked and numeric keyboards.
    assert!(!phone_page.contains("_no_pozzetto\" checked"));
    assert!(phone_page.contains("inputmode=\"numeric\""));
}

#[tokio::test]
async fn a_refused_sheet_keeps_everything_posted_and_players_pages_have_no_staff_link() {
    let (app, _dora, _t, tid, table) = at_a_table(6).await;
    let (code, ns, _) = codes(&app, tid, 1, table);
    let client = phone();
    // Melded points that are not a multiple of 5: the engine refuses.
    let res = client
        .post(app.url(&format!("/s/{code}/sheet")))
        .form(&[
            ("pair_code", ns.as_str()),
            ("idempotency_key", "refused-key-01"),
            ("h1_end", "closure_ns"),
            ("h1_ns_clean", "1"),
            ("h1_ns_melded_points", "123"),
            ("h1_ew_hand_points", "20"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    assert!(
        html.contains(&format!("value=\"{ns}\"")),
        "the pair code is kept"
    );
    assert!(html.contains("value=\"123\""), "the typed value is kept");
    assert!(
        html.contains("value=\"closure_ns\" checked"),
        "the end of hand is kept"
    );
    assert!(
        html.contains("value=\"refused-key-01\""),
        "the same submission key"
    );
    assert_eq!(count(&app, "sheet_entries"), 0, "nothing saved");
    // No staff login on a player's page; the way to the standings.
    let page = app.another_browser().get_html(&format!("/s/{code}")).await;
    assert!(!page.contains("href=\"/login\""), "no staff login link");
    assert!(
        page.contains(&format!("href=\"/t/{tid}\"")),
        "the standings"
    );
    assert!(
        page.contains(&format!("href=\"/t/{tid}/find\"")),
        "find my table"
    );
}

#[tokio::test]
async fn after_confirmation_the_page_shows_the_result_and_where_each_pair_plays_next() {
    let (app, dora, t, tid, table) = at_a_table(8).await;
    let (code, ns, ew) = codes(&app, tid, 1, table);
    let (ns_no, ew_no) = seat(&app, tid, 1, table);
    enter(&app, &code, &ns, sheet(120, 90)).await;
    // The confirming pair reads the whole entry above the confirm button,
    // with the version it confirms, and is told to take the phone.
    let page = app
        .another_browser()
        .get_html(&format!("/s/{code}?ok=entered"))
        .await;
    let sheet_at = page
        .find("id=\"entered-sheet\"")
        .expect("the entry in full");
    let button_at = page.find("name=\"agree\" value=\"yes\"").unwrap();
    assert!(
        sheet_at < button_at,
        "the sheet comes before the confirm button"
    );
    assert!(page.contains("name=\"entry_version\" value=\"1\""));
    assert!(
        page.contains(&format!("EO · Coppia {ew_no}")),
        "pass the phone to EW"
    );
    let r = crate::table_side::answer(&app, &code, &ew, true, "").await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    let done = app
        .another_browser()
        .get_html(&format!("/s/{code}?ok=confirmed&round=1"))
        .await;
    assert!(done.contains("id=\"result\""));
    assert!(
        done.contains("13–7") || done.contains("18–2") || done.contains("VP"),
        "{done}"
    );
    assert!(
        done.contains("non è ancora stato sorteggiato"),
        "wait for the next round"
    );
    assert!(done.contains(&format!("/t/{tid}/pairs/{ns_no}")));
    assert!(done.contains(&format!("/t/{tid}/pairs/{ew_no}")));
    // The next round is drawn: each pair's table and line.
    let res = dora
        .confirm(
            &t,
            "rounds",
            &[("round", "2"), ("force_reason", "the others later")],
        )
        .await;
    assert_eq!(res.status(), 303);
    let done = app
        .another_browser()
        .get_html(&format!("/s/{code}?ok=confirmed&round=1"))
        .await;
    assert!(
        done.contains(&format!("Coppia {ns_no}: turno 2, tavolo")),
        "{done}"
    );
    assert!(
        done.contains(&format!("Coppia {ew_no}: turno 2, tavolo")),
        "{done}"
    );
}

#[tokio::test]
async fn the_desk_settles_a_dispute_with_the_players_sheet_filled_in() {
    let (app, dora, t, tid, table) = at_a_table(6).await;
    let (code, ns, ew) = codes(&app, tid, 1, table);
    enter(&app, &code, &ns, sheet(120, 90)).await;
    let r = crate::table_side::answer(&app, &code, &ew, false, "Hand 2: EW had 40 more").await;
    assert_eq!(r.body["status"], "disputed");
    let path = format!("/desk/t/{tid}/rounds/1/tables/{table}");
    let html = dora.get_html(&path).await;
    // The note at the top, the entry's values in the form's fields.
    let note_at = html
        .find("Hand 2: EW had 40 more")
        .expect("the note as text");
    let form_at = html.find("id=\"sheet-form\"").unwrap();
    assert!(note_at < form_at, "the note comes before the form");
    assert!(html.contains("name=\"h2_ns_melded_points\" id=\"h2_ns_melded_points\" value=\"120\""));
    assert!(html.contains("name=\"h2_ew_melded_points\" id=\"h2_ew_melded_points\" value=\"90\""));
    assert!(html.contains("<option value=\"closure_ns\" data-key=\"1\" selected>"));
    // The history in words, not raw keys.
    assert!(html.contains("ha contestato il foglio"), "{html}");
    assert!(!html.contains("disputed by: ew"));

    // The desk's Confirm names the entry it showed: without it, the page.
    let res = dora.submit(&path, &format!("{path}/confirm"), &[]).await;
    assert_eq!(res.status(), 303);
    assert!(location(&res).ends_with("#pending"));
    assert_eq!(count(&app, "sheets"), 0);
    // The pair enters again meanwhile: the desk's stale Confirm is refused.
    enter(&app, &code, &ns, sheet(125, 90)).await;
    let res = dora
        .submit(&path, &format!("{path}/confirm"), &[("entry_version", "1")])
        .await;
    assert_eq!(res.status(), 409);
    assert_eq!(count(&app, "sheets"), 0);
    // A correction of the entry needs a reason; one box changed.
    let mut fields: Vec<(String, String)> = vec![("after".into(), "round".into())];
    for h in 1..=3 {
        fields.push((format!("h{h}_end"), "closure_ns".into()));
        fields.push((format!("h{h}_ns_clean"), "1".into()));
        fields.push((format!("h{h}_ns_melded_points"), "125".into()));
        fields.push((
            format!("h{h}_ew_melded_points"),
            if h == 2 { "130" } else { "90" }.into(),
        ));
        fields.push((format!("h{h}_ew_hand_points"), "20".into()));
    }
    let res = crate::scoring::post_sheet(&dora, &t, 1, table, &fields).await;
    assert_eq!(res.status(), 422, "a reason is needed");
    let again = res.text().await.unwrap();
    assert!(
        again.contains("class=\"box changed\""),
        "the changed box is marked"
    );
    fields.push((
        "reason".into(),
        "EW 40 more in hand 2, seen by the referee".into(),
    ));
    let res = crate::scoring::post_sheet(&dora, &t, 1, table, &fields).await;
    assert_eq!(res.status(), 303);
    assert_eq!(counted_ns_total(&app, tid, table), Some(3 * 425));
}

#[tokio::test]
async fn the_back_button_cannot_draw_round_1_again() {
    let (app, dora) = crate::tournaments::with_director().await;
    let t = app
        .tournament("Serata")
        .pairs(8)
        .checked_in()
        .build()
        .await
        .path;
    let tid = tid_of(&t);
    let page = dora.get_html(&format!("{t}/confirm-start")).await;
    let revision = {
        let m = "name=\"revision\" value=\"";
        let i = page.find(m).expect("the form carries its revision") + m.len();
        page[i..i + page[i..].find('"').unwrap()].to_string()
    };
    let token = crate::helpers::csrf_in(&page);
    let post = |fields: Vec<(&'static str, String)>| {
        let mut f = fields;
        f.push(("csrf_token", token.clone()));
        dora.client
            .post(dora.url(&format!("{t}/draw")))
            .form(&f)
            .send()
    };
    let res = post(vec![
        ("confirm", "1".into()),
        ("revision", revision.clone()),
    ])
    .await
    .unwrap();
    assert_eq!(res.status(), 303);
    let seating = |app: &TestApp| {
        (1..=4)
            .map(|table| seat(app, tid, 1, table))
            .collect::<Vec<_>>()
    };
    let before = seating(&app);
    // Back, and "Yes, start" again: out of date, nothing drawn.
    let res = post(vec![("confirm", "1".into()), ("revision", revision)])
        .await
        .unwrap();
    assert_eq!(res.status(), 409);
    let html = res.text().await.unwrap();
    assert!(html.contains("non era aggiornata"), "{html}");
    assert_eq!(seating(&app), before, "round 1 as printed");
    // Without the revision (an old form), start on a running tournament is
    // still refused: drawing again is its own action.
    let res = post(vec![("confirm", "1".into())]).await.unwrap();
    assert_eq!(res.status(), 409);
    assert_eq!(seating(&app), before);
    // The redraw, from its own page, works.
    let page = dora.get_html(&format!("{t}/confirm-redraw")).await;
    assert!(page.contains(&format!("action=\"/director/t/{tid}/redraw\"")));
    let m = "name=\"revision\" value=\"";
    let i = page.find(m).unwrap() + m.len();
    let rev = &page[i..i + page[i..].find('"').unwrap()];
    let res = dora
        .submit(
            &format!("{t}/confirm-redraw"),
            &format!("{t}/redraw"),
            &[("confirm", "1"), ("revision", rev)],
        )
        .await;
    assert_eq!(res.status(), 303);
    // The API: start on a running tournament is 409 too.
    let token = {
        let dora_id = {
            let mut c = app.pool.get().unwrap();
            burraco_td::db::users::find_by_username(&mut c, "dora")
                .unwrap()
                .unwrap()
                .id
        };
        burraco_td::services::tokens::create(
            &crate::tokens::db_of(&app),
            burraco_td::services::Actor {
                user_id: dora_id,
                role: burraco_td::auth::Role::Director,
            },
            burraco_td::auth::tokens::TokenLabel::parse("tests").unwrap(),
        )
        .await
        .unwrap()
        .token
    };
    let res = reqwest::Client::new()
        .post(app.url(&format!("/api/v1/tournaments/{tid}/start")))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 409);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["error"]["code"], "started");
}

#[tokio::test]
async fn every_irreversible_form_refuses_an_older_revision() {
    let (app, dora, t) = started(6).await;
    let tid = tid_of(&t);
    let rev_of = |page: &str| {
        let m = "name=\"revision\" value=\"";
        let i = page.find(m).expect("revision field") + m.len();
        page[i..i + page[i..].find('"').unwrap()].to_string()
    };
    // Time-out (the clock runs): the page is shown, then a sheet comes in
    // from a table.
    let res = dora
        .submit(
            &format!("{t}/rounds/1"),
            &format!("{t}/rounds/1/clock"),
            &[("action", "start"), ("back", "director")],
        )
        .await;
    assert_eq!(res.status(), 303);
    let page = dora
        .get_html(&format!("{t}/rounds/1/confirm-time-out?back=director"))
        .await;
    let old = rev_of(&page);
    let table = tables_of(&app, 1)[0];
    let (code, ns, ew) = codes(&app, tid, 1, table);
    enter(&app, &code, &ns, sheet(120, 90)).await;
    crate::table_side::answer(&app, &code, &ew, true, "").await;
    let res = dora
        .submit(
            &format!("{t}/rounds/1/confirm-time-out?back=director"),
            &format!("{t}/rounds/1/clock"),
            &[
                ("action", "time_out"),
                ("confirm", "1"),
                ("back", "director"),
                ("revision", &old),
            ],
        )
        .await;
    assert_eq!(res.status(), 409);
    let html = res.text().await.unwrap();
    assert!(html.contains("non era aggiornata"));
    let fresh = rev_of(&html);
    assert_ne!(fresh, old, "the page again, current");
    // Undo of round 1 and close: the same.
    for (page, action) in [
        (
            format!("{t}/rounds/1/confirm-undo"),
            format!("{t}/rounds/1/undo"),
        ),
        (format!("{t}/confirm-close"), format!("{t}/close")),
    ] {
        let res = dora
            .submit(&page, &action, &[("confirm", "1"), ("revision", &old)])
            .await;
        assert_eq!(res.status(), 409, "{action}");
    }
    // The next round with an old revision: refused, no round 2.
    let res = dora
        .confirm(
            &t,
            "rounds",
            &[
                ("round", "2"),
                ("force_reason", "x y z"),
                ("revision", &old),
            ],
        )
        .await;
    assert_eq!(res.status(), 409);
    assert!(tables_of(&app, 2).is_empty());
    // With the current revision the time-out is called.
    let res = dora
        .submit(
            &format!("{t}/rounds/1/confirm-time-out?back=director"),
            &format!("{t}/rounds/1/clock"),
            &[
                ("action", "time_out"),
                ("confirm", "1"),
                ("back", "director"),
                ("revision", &fresh),
            ],
        )
        .await;
    assert_eq!(res.status(), 303);
}

#[tokio::test]
async fn table_cards_warn_of_a_loopback_address_and_the_admin_sets_the_public_one() {
    let (app, dora, t) = started(8).await;
    let cards = dora.get_html(&format!("{t}/rounds/1/cards")).await;
    assert!(
        cards.contains("id=\"loopback-warning\""),
        "127.0.0.1 cannot be scanned: {cards}"
    );
    // The administrator saves the address players use.
    app.login(crate::helpers::ADMIN, crate::helpers::ADMIN_PW)
        .await;
    let res = app
        .submit(
            "/admin/users",
            "/admin/public-url",
            &[("public_url", "burraco.club.it")],
        )
        .await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    assert!(
        html.contains("http://192.168.1.20:8080"),
        "the message names the shape"
    );
    let res = app
        .submit(
            "/admin/users",
            "/admin/public-url",
            &[("public_url", "http://192.168.1.20:8080/")],
        )
        .await;
    assert_eq!(res.status(), 303);
    let cards = dora.get_html(&format!("{t}/rounds/1/cards")).await;
    assert!(!cards.contains("id=\"loopback-warning\""));
    assert!(
        cards.contains("http://192.168.1.20:8080/s/"),
        "the QR codes' address"
    );
    // Cleared: back to the request's address, with the warning.
    let res = app
        .submit("/admin/users", "/admin/public-url", &[("public_url", "")])
        .await;
    assert_eq!(res.status(), 303);
    let cards = dora.get_html(&format!("{t}/rounds/1/cards")).await;
    assert!(cards.contains("id=\"loopback-warning\""));
}

#[tokio::test]
async fn the_evenings_smaller_defects_stay_fixed() {
    let (app, dora) = crate::tournaments::with_director().await;
    let t = app.tournament("Serata").build().await.path;
    let tid = tid_of(&t);
    // A CSV "Circolo" column for the pair is read; an unknown one is named.
    let csv = "Cognome1;Nome1;Cognome2;Nome2;Circolo;Note\nRossi;Anna;Bianchi;Luca;Circolo Sole;x\nVerdi;Eva;Neri;Ugo;Circolo Luna;y\nGialli;Ada;Blu;Leo;Sole;z\nRosa;Ida;Viola;Teo;Luna;w\nMori;Lia;Conti;Dino;Luna;v\nPoli;Gea;Sala;Remo;Sole;u\n";
    let res = dora
        .submit(
            &format!("{t}/import"),
            &format!("{t}/import"),
            &[("csv", csv)],
        )
        .await;
    let html = res.text().await.unwrap();
    assert!(html.contains("id=\"ignored-columns\""), "{html}");
    assert!(html.contains("Note"));
    assert!(html.contains("Circolo Sole"));
    crate::tournaments::import(&dora, &t, csv).await;
    // One click checks in the whole hall.
    let page = dora.get_html(&t).await;
    assert!(page.contains("id=\"bulk-checkin\""));
    let res = dora
        .submit(&t, &format!("{t}/checkin"), &[("all", "1")])
        .await;
    assert_eq!(res.status(), 303);
    let page = dora.get_html(&t).await;
    assert_eq!(page.matches("✓ Presente").count(), 6, "{page}");
    let res = dora.confirm(&t, "draw", &[]).await;
    assert_eq!(res.status(), 303);
    // After the start, "present" is a state, not a button that cancels it.
    let page = dora.get_html(&t).await;
    assert!(!page.contains("pairs.undo_checkin"));
    let pid = crate::peek::pair_id(&app, tid, 1);
    let res = dora
        .submit(
            &t,
            &format!("{t}/pairs/{pid}/checkin"),
            &[("value", "false")],
        )
        .await;
    assert_eq!(
        res.status(),
        409,
        "a playing pair's check-in cannot be undone"
    );
    // Staff usernames are found whatever their case, with a picker.
    app.login(crate::helpers::ADMIN, crate::helpers::ADMIN_PW)
        .await;
    app.create_user("rita", "referee", "a long password 12")
        .await;
    let page = dora.get_html(&t).await;
    assert!(page.contains("<datalist id=\"staff-candidates\">"));
    assert!(page.contains("<option value=\"rita\">"));
    let res = dora
        .submit(
            &t,
            &format!("{t}/staff"),
            &[("username", "Rita"), ("role", "referee")],
        )
        .await;
    assert_eq!(res.status(), 303, "Rita is rita");
    // English places are ordinals; the standings name pairs on one line at 360 px.
    let en = app.another_browser();
    en.get("/lang/en").await;
    let html = en.get_html(&format!("/t/{tid}")).await;
    assert!(!html.contains("°"), "no Italian degree sign in English");
    assert!(html.contains("class=\"names-short\""));
    // A time-out end when no time-out was called is the referee's: refused
    // from the table, named at the end of hand.
    let table = tables_of(&app, 1)[0];
    let (code, ns, _) = codes(&app, tid, 1, table);
    let mut s = sheet(120, 90);
    s["hands"][2] = json!({"end": "time_out", "ns": {"melded_points": 50, "took_pozzetto": true}, "ew": {"melded_points": 40, "took_pozzetto": true}});
    let r = enter(&app, &code, &ns, s).await;
    assert_eq!(r.status, 422, "{:?}", r.body);
    assert!(
        r.body["error"]["fields"]["h3_end"].is_string(),
        "{:?}",
        r.body
    );
    // Ten wrong codes: the table's own message, not the staff login's.
    let client = phone();
    let mut last = None;
    for _ in 0..12 {
        let res = client
            .post(app.url(&format!("/s/{code}/sheet")))
            .form(&[("pair_code", "000000"), ("h1_end", "stalemate")])
            .send()
            .await
            .unwrap();
        last = Some(res);
    }
    let res = last.unwrap();
    assert_eq!(res.status(), 429);
    let html = res.text().await.unwrap();
    assert!(html.contains("codici sbagliati"), "{html}");
    assert!(!html.contains("accesso"), "not the login message");
}

#[tokio::test]
async fn movement_cards_say_withdrawn_and_not_yet_rather_than_rest() {
    let (app, dora, t) = started(8).await;
    let tid = tid_of(&t);
    let pid = |number: i32| crate::peek::pair_id(&app, tid, number);
    let res = dora
        .submit(
            &t,
            &format!("{t}/pairs/{}/withdraw", pid(3)),
            &[("value", "true")],
        )
        .await;
    assert_eq!(res.status(), 303);
    let res = dora.add_pair(&t, &crate::helpers::LATE).await;
    assert_eq!(res.status(), 303);
    let html = dora.get_html(&format!("{t}/movement-cards")).await;
    let card = |n: i32| {
        let start = html.find(&format!("data-pair=\"{n}\"")).unwrap();
        let end = html[start..].find("</section>").unwrap() + start;
        html[start..end].to_string()
    };
    assert!(card(3).contains("ritirata"), "{}", card(3));
    assert!(card(9).contains("non ancora iscritta"), "{}", card(9));
}

#[tokio::test]
async fn players_enter_hand_totals_when_the_tournament_takes_totals() {
    let (app, dora) = crate::tournaments::with_director().await;
    let t = app
        .tournament("Totali")
        .set("sheet_mode", "totals")
        .pairs(6)
        .drawn()
        .build()
        .await
        .path;
    let tid = tid_of(&t);
    let table = tables_of(&app, 1)[0];
    let (code, ns, ew) = codes(&app, tid, 1, table);
    let page = app.another_browser().get_html(&format!("/s/{code}")).await;
    assert!(
        page.contains("name=\"h1_ns_total\""),
        "one box per line and hand"
    );
    assert!(!page.contains("name=\"h1_ns_melded_points\""));
    assert!(page.contains("name=\"mode\" value=\"totals\""));
    // The desk opens in the tournament's mode too.
    let desk = dora
        .get_html(&format!("/desk/t/{tid}/rounds/1/tables/{table}"))
        .await;
    assert!(desk.contains("name=\"h1_ns_total\""));
    // The same checks as the desk's totals mode: a closer below what a
    // closing line scores is refused, named at its box.
    let bad = phone()
        .post(app.url(&format!("/s/{code}/sheet")))
        .form(&[
            ("mode", "totals"),
            ("pair_code", ns.as_str()),
            ("h1_end", "closure_ns"),
            ("h1_ns_total", "50"),
            ("h1_ew_total", "-20"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status(), 422);
    // NS 545 / EW −135, 120 / 410, 80 / 60: entered and confirmed.
    let mut form = crate::deskentry::hand_totals();
    form.push(("pair_code".into(), ns.clone()));
    let res = phone()
        .post(app.url(&format!("/s/{code}/sheet")))
        .form(&form)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 303, "{}", res.text().await.unwrap());
    let v = get_view(&app, &code).await;
    assert_eq!(v.body["sheet"]["mode"], "totals");
    assert_eq!(v.body["totals"], json!({"ns": 745, "ew": 335}));
    let r = crate::table_side::answer(&app, &code, &ew, true, "").await;
    assert_eq!(r.body["status"], "confirmed");
}
