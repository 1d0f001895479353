//! The first night from the phones (issue 31): the phone checks as it is
//! filled with the submission's own verdict, a refused send names every
//! step with an error, a disputed table waits for the referee, a closed
//! tournament gives each pair its final place and prize.

use crate::helpers::{tid_of, TestApp};
use serde_json::Value;

use crate::scoring::{at_a_table, closing_hand, post_sheet, started, tables_of};
use crate::table_side::{answer, codes, enter, phone, sheet};

async fn preview(app: &crate::helpers::TestApp, code: &str, q: &str) -> Value {
    let res =
        crate::helpers::get_in(&phone(), app.url(&format!("/s/{code}/preview?{q}")), "it").await;
    assert_eq!(res.status(), 200);
    res.json().await.unwrap()
}

fn query(fields: &[(String, String)]) -> String {
    fields
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join("&")
}

/// A phone sends its sheet form to the table `code` (in Italian): the
/// status and the page it gets back.
async fn send_sheet(app: &TestApp, code: &str, form: &[(String, String)]) -> (u16, String) {
    let res = phone()
        .post(app.url(&format!("/s/{code}/sheet")))
        .header("accept-language", "it")
        .form(form)
        .send()
        .await
        .unwrap();
    (res.status().as_u16(), res.text().await.unwrap())
}

#[tokio::test]
async fn the_preview_answers_as_the_submission_would() {
    let (app, _dora, _t, tid, table) = at_a_table(6).await;
    let (code, _, _) = codes(&app, tid, 1, table);

    // A whole valid sheet: ok, with the round's totals and VP.
    let v = preview(&app, &code, &query(&crate::scoring::sheet(120, 90))).await;
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(v["totals"]["ns"], 1260, "{v}");
    assert_eq!(v["hands"][2]["ns"], 420, "{v}");

    // A totals sheet with a hand total of 747: not ok, the message in the
    // place of that line's total, no total and no VP anywhere.
    let q = "mode=totals&h1_end=closure_ns&h1_ns_total=747&h1_ew_total=-135\
             &h2_end=closure_ew&h2_ns_total=120&h2_ew_total=410\
             &h3_end=stock_exhausted&h3_ns_total=80&h3_ew_total=60";
    let v = preview(&app, &code, q).await;
    assert_eq!(v["ok"], false, "{v}");
    assert!(v["totals"].is_null() && v["vp"].is_null(), "{v}");
    assert!(
        v["hands"][0]["ns"].is_null(),
        "no total for a hand that breaks a rule: {v}"
    );
    let msg = v["hands"][0]["errors"]["ns"][0]
        .as_str()
        .unwrap_or_default();
    assert_eq!(
        msg, "747 (totale della smazzata) non è un multiplo di 5.",
        "{v}"
    );
    assert_eq!(v["hands"][1]["ns"], 120, "the other hands keep theirs: {v}");
    // The same sheet sent: refused, with the same words.
    let (code2, ns2, _) = codes(&app, tid, 1, tables_of(&app, 1)[1]);
    let mut form: Vec<(String, String)> = q
        .split('&')
        .map(|kv| {
            let (k, v) = kv.split_once('=').unwrap();
            (k.to_string(), v.to_string())
        })
        .collect();
    form.push(("pair_code".into(), ns2.clone()));
    form.push(("round".into(), "1".into()));
    let (status, html) = send_sheet(&app, &code2, &form).await;
    assert_eq!(status, 422);
    assert!(
        html.contains("747 (totale della smazzata) non è un multiplo di 5."),
        "{html}"
    );
    assert!(!html.contains("i totale della smazzata"), "{html}");

    // A closing without a burraco: not ok, the message beside the closer.
    let mut fields = crate::scoring::sheet(120, 90);
    fields.retain(|(k, _)| k != "h1_ns_clean");
    let v = preview(&app, &code, &query(&fields)).await;
    assert_eq!(v["ok"], false, "{v}");
    assert!(
        v["hands"][0]["ns"].is_null() && v["hands"][0]["ew"].is_null(),
        "{v}"
    );
    assert!(
        v["hands"][0]["errors"]["ns"][0]
            .as_str()
            .unwrap_or_default()
            .contains("senza aver realizzato un burraco"),
        "{v}"
    );
    assert!(v["vp"].is_null(), "no VP for an illegal sheet: {v}");

    // Hand 1 alone of 3: its total, but the sheet cannot be sent yet.
    let v = preview(&app, &code, &query(&closing_hand(1, 120, 90, 20))).await;
    assert_eq!(v["ok"], false, "{v}");
    assert_eq!(v["hands"][0]["ns"], 420, "{v}");
    assert!(
        !v["errors"].as_array().unwrap().is_empty(),
        "hands missing: {v}"
    );

    // Totals mode: an end of hand not chosen is proposed from the totals.
    let v = preview(
        &app,
        &code,
        "mode=totals&h1_ns_total=545&h1_ew_total=-135&h2_ns_total=120&h2_ew_total=410\
         &h3_ns_total=80&h3_ew_total=60",
    )
    .await;
    assert_eq!(v["hands"][0]["suggest"], "closure_ns", "{v}");
    assert_eq!(v["hands"][1]["suggest"], "closure_ew", "{v}");
    assert_eq!(v["hands"][2]["suggest"], "stock_exhausted", "{v}");
    assert_eq!(v["ok"], false, "a proposal is not a choice: {v}");
    assert_eq!(
        v["hands"][0]["errors"]["end"],
        serde_json::json!([]),
        "not asked to choose what the phone proposes: {v}"
    );

    // The server-rendered page never shows a total for a hand that breaks
    // a rule (a refused send keeps the form).
    let mut form = fields.clone();
    form.push(("pair_code".into(), ns2));
    form.push(("round".into(), "1".into()));
    let (_, html) = send_sheet(&app, &code2, &form).await;
    let hand1 = &html[html.find("id=\"hand-1\"").unwrap()..html.find("id=\"hand-2\"").unwrap()];
    assert!(!hand1.contains("= "), "no green total in hand 1: {hand1}");
}

#[tokio::test]
async fn a_refused_send_names_every_step_with_an_error() {
    let (app, _dora, _t, tid, table) = at_a_table(6).await;
    let (code, ns, _) = codes(&app, tid, 1, table);
    let mut form = crate::scoring::sheet(120, 90);
    for (k, v) in form.iter_mut() {
        match k.as_str() {
            // Hand 1: not a multiple of 5; hand 2: a closing without a burraco.
            "h1_ew_melded_points" => *v = "93".into(),
            "h2_ns_clean" => *v = String::new(),
            _ => {}
        }
    }
    // The written totals wrong too (the totals step).
    form.push(("declared_ns".into(), "1".into()));
    form.push(("declared_ew".into(), "2".into()));
    form.push(("pair_code".into(), ns));
    form.push(("round".into(), "1".into()));
    let (status, html) = send_sheet(&app, &code, &form).await;
    assert_eq!(status, 422);
    let start = html.find("step-errors").expect("the banner");
    let banner = &html[start..start + html[start..].find("</p>").unwrap()];
    for (id, label) in [
        ("hand-1", "Smazzata 1"),
        ("hand-2", "Smazzata 2"),
        ("finish", "Totali"),
    ] {
        assert!(
            banner.contains(&format!("href=\"#{id}\" data-goto=\"{id}\">{label}</a>")),
            "{label} in the banner: {banner}"
        );
    }
    assert!(!banner.contains("#hand-3"), "hand 3 is right: {banner}");
    assert_eq!(html.matches("step-errors").count(), 1, "one banner");
    // Every step is on the page (no JavaScript needed), each with its id.
    for id in ["hand-1", "hand-2", "hand-3", "finish"] {
        assert!(html.contains(&format!("id=\"{id}\"")), "{id}");
    }
}

#[tokio::test]
async fn a_disputed_table_waits_for_the_referee_on_every_page() {
    let (app, _dora, _t, tid, table) = at_a_table(6).await;
    let (code, ns, ew) = codes(&app, tid, 1, table);
    assert_eq!(enter(&app, &code, &ns, sheet(120, 90)).await.status, 200);
    assert_eq!(
        answer(&app, &code, &ew, false, "the last hand was 80")
            .await
            .status,
        200
    );
    // The page of the table, whoever opens it (either pair's phone, a
    // reload, the notice after the dispute).
    for path in [
        format!("/s/{code}"),
        format!("/s/{code}?ok=disputed&round=1"),
    ] {
        let html = crate::helpers::get_in(&phone(), app.url(&path), "it")
            .await
            .text()
            .await
            .unwrap();
        assert!(html.contains("decide l&#39;arbitro"), "{html}");
        assert!(html.contains("id=\"disputed\""), "{html}");
        assert!(
            !html.contains("Passate il telefono a"),
            "no hand-over: {html}"
        );
        assert!(
            !html.contains("Confermo lo score"),
            "no confirmation: {html}"
        );
        assert!(!html.contains("name=\"answer_code\""), "{html}");
        assert!(!html.contains("name=\"pair_code\""), "{html}");
        assert!(html.contains("the last hand was 80"), "the note: {html}");
    }
}

#[tokio::test]
async fn a_closed_tournament_gives_each_pair_its_place_and_prize() {
    let (app, dora, t) = started(6).await;
    let tid = tid_of(&t);
    let tables = tables_of(&app, 1);
    for &tn in &tables {
        let res = post_sheet(
            &dora,
            &t,
            1,
            tn,
            &crate::scoring::sheet(100 + 10 * tn as i64, 90),
        )
        .await;
        assert_eq!(res.status().as_u16(), 303);
    }
    let (code, _, _) = codes(&app, tid, 1, tables[0]);
    let before = crate::helpers::get_in(&phone(), app.url(&format!("/s/{code}")), "it")
        .await
        .text()
        .await
        .unwrap();
    assert!(before.contains("Aspettate il prossimo turno"), "{before}");
    let res = dora.confirm(&t, "close", &[]).await;
    assert_eq!(res.status().as_u16(), 303);
    // The winners' table (the highest NS melded points) and another.
    let best = *tables.iter().max().unwrap();
    for (tn, winner) in [(best, true), (tables[0], false)] {
        let (code, _, _) = codes(&app, tid, 1, tn);
        let html = crate::helpers::get_in(&phone(), app.url(&format!("/s/{code}")), "it")
            .await
            .text()
            .await
            .unwrap();
        assert!(!html.contains("Aspettate il prossimo turno"), "{html}");
        assert!(html.contains("Classifica finale"), "{html}");
        assert!(html.contains("° posto"), "{html}");
        assert!(!html.contains("live.js"), "nothing to wait for: {html}");
        if winner {
            assert!(
                html.contains("Coppia") && html.contains("1° posto"),
                "{html}"
            );
            assert!(html.contains("premio") && html.contains("€"), "{html}");
        }
    }
}
