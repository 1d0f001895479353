//! The fast desk (issue 13, part 3): totals mode, save and next missing,
//! jump to a table, the printed score card, and the live totals that come
//! from the rules engine.

use serde_json::Value;

use crate::helpers::{location, Browser, TestApp};
use crate::scoring::{started, tables_of};

/// The tournament id at the end of a tournament page's path.
pub fn tid(t: &str) -> &str {
    t.rsplit('/').next().unwrap()
}

fn owned(fields: &[(&str, &str)]) -> Vec<(String, String)> {
    fields
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

/// The rows of a hand on the sheet, in the paper's order (the end of the
/// hand before them, the declared totals after).
pub const SHEET_ROWS: [&str; 8] = [
    "melded_points",
    "hand_points",
    "clean",
    "dirty",
    "semi_clean",
    "no_pozzetto",
    "royal",
    "super",
];

/// The typical hand totals of the e2e test: NS 545 / EW −135, 120 / 410,
/// 80 / 60 (NS 745, EW 335), in the totals mode.
pub fn hand_totals() -> Vec<(String, String)> {
    owned(&[
        ("mode", "totals"),
        ("h1_end", "closure_ns"),
        ("h1_ns_total", "545"),
        ("h1_ew_total", "-135"),
        ("h2_end", "closure_ew"),
        ("h2_ns_total", "120"),
        ("h2_ew_total", "410"),
        ("h3_end", "stock_exhausted"),
        ("h3_ns_total", "80"),
        ("h3_ew_total", "60"),
    ])
}

/// [`hand_totals`] on the desk's card.
fn totals_sheet() -> Vec<(String, String)> {
    let mut f = hand_totals();
    f.push(("layout".into(), "card".into()));
    f
}

/// The same round as a full sheet in the card layout (same totals).
fn full_sheet() -> Vec<(String, String)> {
    let mut f = owned(&crate::shared::TYPICAL_FULL);
    f.extend(owned(&[("layout", "card"), ("h1_ew_no_pozzetto", "on")]));
    f
}

async fn post(b: &Browser, t: &str, table: i32, fields: &[(String, String)]) -> reqwest::Response {
    let path = format!("/desk/t/{}/rounds/1/tables/{table}", tid(t));
    let refs: Vec<(&str, &str)> = fields
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    b.submit(&path, &path, &refs).await
}

/// The stored sheet JSON of a table of round 1, if any.
fn stored(app: &TestApp, t: &str, table: i32) -> Option<Value> {
    crate::peek::stored_sheet(app, crate::helpers::tid_of(t), table)
        .map(|s| serde_json::from_str(&s).unwrap())
}

fn sheet_count(app: &TestApp) -> i64 {
    crate::peek::sheet_count(app)
}

#[tokio::test]
async fn a_totals_sheet_is_checked_stored_with_its_mode_and_counts() {
    let (app, dora, t) = started(6).await;
    let table = tables_of(&app, 1)[0];
    let res = post(&dora, &t, table, &totals_sheet()).await;
    assert_eq!(res.status().as_u16(), 303, "{}", res.text().await.unwrap());
    let s = stored(&app, &t, table).expect("saved");
    assert_eq!(s["mode"], "totals");
    assert_eq!(s["hands"][0]["ns"]["melded_points"], 545);
    assert_eq!(s["hands"][0]["ew"]["hand_points"], 135);
    assert_eq!(s["hands"][0]["ns"]["closed"], true);
    // The round page shows the engine's totals and marks the sheet.
    let round = dora
        .get_html(&format!("/desk/t/{}/rounds/1", tid(&t)))
        .await;
    assert!(round.contains("745&nbsp;/ 335"), "{round}");
    assert!(round.contains("solo totali"), "badge: {round}");
    // The sheet page says the burraco checks were not possible.
    let page = dora
        .get_html(&format!("/desk/t/{}/rounds/1/tables/{table}", tid(&t)))
        .await;
    assert!(page.contains("id=\"totals-note\""), "{page}");
    assert!(page.contains("i controlli sui burrachi"));
    assert!(page.contains("name=\"h2_ew_total\" id=\"h2_ew_total\" value=\"410\""));
    // The tournament file carries the mode, and standings count it.
    let export = dora
        .get(&format!("/director/t/{}/export.json", tid(&t)))
        .await
        .text()
        .await
        .unwrap();
    assert!(export.contains("\"mode\": \"totals\"") || export.contains("\"mode\":\"totals\""));
    let public = dora.get_html(&format!("/t/{}", tid(&t))).await;
    assert!(
        public.contains("745") || public.contains("410"),
        "standings: {public}"
    );
}

#[tokio::test]
async fn a_wrong_totals_sheet_is_refused_with_messages_next_to_the_boxes() {
    let (app, dora, t) = started(6).await;
    let table = tables_of(&app, 1)[0];
    let mut fields = totals_sheet();
    for (k, v) in fields.iter_mut() {
        if k == "h2_ew_total" {
            *v = "412".into(); // not a multiple of 5
        }
        if k == "h1_ns_total" {
            *v = "200".into(); // the closer scores at least 250
        }
    }
    fields.push(("declared_ns".into(), "1".into()));
    fields.push(("declared_ew".into(), "2".into()));
    let res = post(&dora, &t, table, &fields).await;
    assert_eq!(res.status().as_u16(), 422);
    let html = res.text().await.unwrap();
    assert_eq!(sheet_count(&app), 0, "nothing saved");
    // Each message sits in the box of its field.
    let boxed = |name: &str, needle: &str| {
        let at = html.find(&format!("name=\"{name}\"")).expect(name);
        let rest = &html[at..];
        let end = rest.find("</label>").unwrap_or(rest.len());
        assert!(rest[..end].contains(needle), "{name}: {}", &rest[..end]);
    };
    boxed("h2_ew_total", "multiplo di 5");
    boxed("h1_ns_total", "almeno 250");
    assert!(html.contains("aria-invalid=\"true\""));
    // The focus goes to the first box with an error, in card order.
    assert!(html.contains("data-focus=\"h1_ns_total\""), "{html}");
    assert!(html.contains(
        "name=\"h1_ns_total\" id=\"h1_ns_total\" value=\"200\" autocomplete=\"off\" autofocus"
    ));
    // The written total's message is next to the written total.
    let at = html.find("id=\"declared_ns\"").unwrap();
    assert!(
        html[at..at + 800].contains("field-error"),
        "{}",
        &html[at..at + 800]
    );
    // Hands with totals but no end of hand: named at the end box, nothing saved.
    let res = post(
        &dora,
        &t,
        table,
        &owned(&[("mode", "totals"), ("h1_ns_total", "50")]),
    )
    .await;
    assert_eq!(res.status().as_u16(), 422);
    let html = res.text().await.unwrap();
    assert!(html.contains("data-focus=\"h1_end\""));
    assert_eq!(sheet_count(&app), 0);
}

#[tokio::test]
async fn save_and_next_missing_goes_to_the_next_table_then_back_to_the_round() {
    let (app, dora, t) = started(8).await;
    let tables = tables_of(&app, 1);
    assert!(tables.len() >= 3, "{tables:?}");
    let with_next = |mut f: Vec<(String, String)>| {
        f.push(("after".into(), "next".into()));
        f
    };
    // From the second table: the third is next.
    let res = post(&dora, &t, tables[1], &with_next(full_sheet())).await;
    assert_eq!(res.status().as_u16(), 303, "{}", res.text().await.unwrap());
    assert_eq!(
        location(&res),
        format!(
            "/desk/t/{}/rounds/1/tables/{}?done=sheet_saved",
            tid(&t),
            tables[2]
        )
    );
    // The next page opens with the focus on its first box and the notice.
    let page = dora.get_html(&location(&res)).await;
    assert!(page.contains("data-focus=\"h1_end\""));
    assert!(
        page.contains("name=\"h1_end\" data-role=\"end\" autofocus"),
        "{page}"
    );
    assert!(page.contains("role=\"status\""));
    // In totals mode the mode goes along; past the last table it wraps round.
    let last = *tables.last().unwrap();
    let res = post(&dora, &t, last, &with_next(totals_sheet())).await;
    assert_eq!(
        location(&res),
        format!(
            "/desk/t/{}/rounds/1/tables/{}?done=sheet_saved&mode=totals",
            tid(&t),
            tables[0]
        )
    );
    for &table in &tables {
        if stored(&app, &t, table).is_none() && table != *tables.last().unwrap() {
            let res = post(&dora, &t, table, &with_next(full_sheet())).await;
            assert_eq!(res.status().as_u16(), 303);
        }
    }
    // None missing: the round page, with a notice.
    let missing: Vec<i32> = tables
        .iter()
        .copied()
        .filter(|n| stored(&app, &t, *n).is_none())
        .collect();
    assert!(missing.is_empty(), "{missing:?}");
    // A correction (all entered) also lands on the round page.
    let mut fix = with_next(full_sheet());
    fix.push(("version".into(), "1".into()));
    fix.push(("reason".into(), "typo".into()));
    let res = post(&dora, &t, tables[0], &fix).await;
    assert_eq!(
        location(&res),
        format!("/desk/t/{}/rounds/1?done=all_entered", tid(&t))
    );
    let html = dora.get_html(&location(&res)).await;
    assert!(html.contains("Ora ogni tavolo del turno ha il suo foglio"));
    // Without `after`, the old behaviour: back to the round.
    let res = post(&dora, &t, tables[1], &{
        let mut f = full_sheet();
        f.push(("version".into(), "1".into()));
        f.push(("reason".into(), "again".into()));
        f
    })
    .await;
    assert!(location(&res).contains("?done=sheet_saved#table-"));
}

#[tokio::test]
async fn jump_to_a_table_by_number() {
    let (app, dora, t) = started(6).await;
    let table = tables_of(&app, 1)[1];
    let res = dora
        .get(&format!("/desk/t/{}/rounds/1/go?table={table}", tid(&t)))
        .await;
    assert_eq!(res.status().as_u16(), 303);
    assert_eq!(
        location(&res),
        format!("/desk/t/{}/rounds/1/tables/{table}", tid(&t))
    );
    let res = dora
        .get(&format!(
            "/desk/t/{}/rounds/1/go?table=+{table}+&mode=totals",
            tid(&t)
        ))
        .await;
    assert_eq!(
        location(&res),
        format!("/desk/t/{}/rounds/1/tables/{table}?mode=totals", tid(&t))
    );
    assert!(dora
        .get_html(&location(&res))
        .await
        .contains("name=\"h1_ns_total\""));
    // An unknown table: the round page with a clear message, not a 404 page.
    let res = dora
        .get(&format!("/desk/t/{}/rounds/1/go?table=99", tid(&t)))
        .await;
    assert_eq!(res.status().as_u16(), 200);
    let html = res.text().await.unwrap();
    assert!(html.contains("Il turno 1 non ha un tavolo 99."), "{html}");
    assert!(html.contains("id=\"jump-error\""));
    assert!(html.contains("value=\"99\""));
    let html = dora
        .get_html(&format!("/desk/t/{}/rounds/1/go?table=sette", tid(&t)))
        .await;
    assert!(html.contains("Scrivi il numero di un tavolo."));
    // The jump box is on the round page and on the sheet page.
    for page in [
        format!("/desk/t/{}/rounds/1", tid(&t)),
        format!("/desk/t/{}/rounds/1/tables/{table}", tid(&t)),
    ] {
        assert!(
            dora.get_html(&page).await.contains("id=\"jump-form\""),
            "{page}"
        );
    }
}

/// The `data-row` / box names in document order.
fn attr_values(html: &str, attr: &str) -> Vec<String> {
    html.match_indices(&format!("{attr}=\""))
        .map(|(i, m)| {
            let rest = &html[i + m.len()..];
            rest[..rest.find('"').unwrap()].to_string()
        })
        .collect()
}

#[tokio::test]
async fn the_score_card_has_the_form_s_rows_in_the_form_s_order() {
    let (app, dora, t) = started(6).await;
    let tables = tables_of(&app, 1);
    let res = dora
        .get(&format!("/desk/t/{}/rounds/1/score-cards", tid(&t)))
        .await;
    assert_eq!(res.status().as_u16(), 200);
    let cards = res.text().await.unwrap();
    assert_eq!(
        attr_values(&cards, "data-score-card"),
        tables.iter().map(|t| t.to_string()).collect::<Vec<_>>()
    );
    let first = &cards[cards.find("data-score-card").unwrap()..];
    let first = &first[..first[10..]
        .find("data-score-card")
        .map(|i| i + 10)
        .unwrap_or(first.len())];
    let rows = attr_values(first, "data-row");
    assert_eq!(rows, [&["end"][..], &SHEET_ROWS, &["declared"]].concat());
    // The desk form asks for exactly these boxes, in this order, hand by hand.
    let form = dora
        .get_html(&format!(
            "/desk/t/{}/rounds/1/tables/{}",
            tid(&t),
            tables[0]
        ))
        .await;
    let form = &form[form.find("id=\"sheet-form\"").unwrap()..];
    let names: Vec<String> = attr_values(form, "name")
        .into_iter()
        .filter(|n| n.starts_with('h') || n.starts_with("declared"))
        .collect();
    let mut expected = Vec::new();
    for h in 1..=3 {
        expected.push(format!("h{h}_end"));
        for line in ["ns", "ew"] {
            for r in &rows[1..rows.len() - 1] {
                expected.push(format!("h{h}_{line}_{r}"));
            }
        }
    }
    expected.push("declared_ns".into());
    expected.push("declared_ew".into());
    assert_eq!(names, expected);
    // Pairs, names, table and round on each card; the director reaches it too.
    assert!(cards.contains("Turno <strong>1</strong>"));
    let director = dora
        .get(&format!(
            "/director/t/{}/rounds/1/score-cards?mode=totals",
            tid(&t)
        ))
        .await;
    assert_eq!(director.status().as_u16(), 200);
    let totals = director.text().await.unwrap();
    let first = &totals[totals.find("data-score-card").unwrap()..];
    assert_eq!(
        &attr_values(first, "data-row")[..3],
        ["end", "total", "declared"]
    );
}

#[tokio::test]
async fn live_totals_come_from_the_engine() {
    let (app, dora, t) = started(6).await;
    let table = tables_of(&app, 1)[0];
    let query = serde_urlencoded::to_string(full_sheet()).unwrap();
    let res = dora
        .get(&format!(
            "/desk/t/{}/rounds/1/tables/{table}/preview?{query}",
            tid(&t)
        ))
        .await;
    assert_eq!(res.status().as_u16(), 200);
    let v: Value = res.json().await.unwrap();
    // Computed by the engine: the same numbers the totals sheet has.
    assert_eq!(v["ok"], true);
    assert_eq!(v["hands"][0]["ns"], 545);
    assert_eq!(v["hands"][0]["ew"], -135);
    assert_eq!(v["totals"]["ns"], 745);
    assert_eq!(v["totals"]["ew"], 335);
    let burraco = burraco_td::rules::VpScale::three_hands().vp_for_difference(410);
    assert_eq!(v["vp"]["ns"], burraco.0);
    let query = serde_urlencoded::to_string(totals_sheet()).unwrap();
    let v: Value = dora
        .get_json(&format!(
            "/desk/t/{}/rounds/1/tables/{table}/preview?{query}",
            tid(&t)
        ))
        .await;
    assert_eq!(v["totals"]["ns"], 745);
    let v: Value = dora
        .get_json(&format!(
            "/desk/t/{}/rounds/1/tables/{table}/preview?h1_end=stalemate&h1_ns_melded_points=1x",
            tid(&t)
        ))
        .await;
    assert_eq!(v["ok"], false);
    // A hand that breaks a rule (a closing without a burraco): no total.
    let v: Value = dora
        .get_json(&format!(
            "/desk/t/{}/rounds/1/tables/{table}/preview?h1_end=closure_ns&h1_ns_melded_points=245",
            tid(&t)
        ))
        .await;
    assert!(v["hands"][0].is_null(), "{v}");
    // Without a script the page shows the same totals after a refused save.
    let page = post(&dora, &t, table, &{
        let mut f = full_sheet();
        f.push(("declared_ns".into(), "700".into()));
        f.push(("declared_ew".into(), "335".into()));
        f
    })
    .await
    .text()
    .await
    .unwrap();
    assert!(
        page.contains("<output id=\"total-ns\">745</output>"),
        "{page}"
    );
    // Staff only.
    let anon = dora.another_browser();
    let res = anon
        .get(&format!(
            "/desk/t/{}/rounds/1/tables/{table}/preview",
            tid(&t)
        ))
        .await;
    assert_ne!(res.status().as_u16(), 200);
}
