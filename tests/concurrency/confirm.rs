//! Issue 21: a confirmation counts exactly the entry the confirming pair
//! read. At 20 tables at once, NS replaces its entry while EW confirms the
//! version it read: whatever wins, the sheet that counts is the one
//! confirmed — never the replacement EW did not see. Runs on SQLite, and
//! on PostgreSQL with TEST_DATABASE_URL.

use serde_json::{json, Value};

use crate::races::backend;
use crate::support::*;

/// `name="…" value="…"`-free attribute reader: every value of `attr` in a page.
fn attr_values(html: &str, attr: &str) -> Vec<String> {
    let marker = format!("{attr}=\"");
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(i) = rest.find(&marker) {
        rest = &rest[i + marker.len()..];
        let end = rest.find('"').unwrap_or(0);
        out.push(rest[..end].to_string());
    }
    out
}

/// A 3-hand sheet whose hand 1 NS melded points are `mark` (read back to
/// tell entries apart).
pub fn sheet_json(mark: i64) -> Value {
    let hand = json!({
        "end": "closure",
        "ns": {"clean": 1, "melded_points": mark, "closed": true, "took_pozzetto": true},
        "ew": {"melded_points": 90, "hand_points": 20, "took_pozzetto": true},
    });
    json!({"hands": [hand, hand, hand]})
}

pub async fn post_json(c: reqwest::Client, url: String, body: Value) -> (u16, Value) {
    match c.post(url).json(&body).send().await {
        Ok(res) => {
            let status = res.status().as_u16();
            let v = res.json().await.unwrap_or(Value::Null);
            (status, v)
        }
        Err(_) => (0, Value::Null),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn race_replace_versus_confirm() {
    const TABLES: usize = 20;
    let db = crate::helpers::TestDb::new();
    let kind = backend(&db);
    let app = crate::helpers::spawn_app_with(db, |_| {}).await;
    app.setup_admin().await;
    app.create_user("dora", "director", DIRECTOR_PW).await;
    let dora = Staff::login(&app.address, "dora", DIRECTOR_PW).await;
    let tid = running_tournament(&app.handle, "dora", "Conferme", TABLES * 2).await;

    // The codes, as printed: table cards and movement cards.
    let cards = dora
        .b
        .get_html(&format!("/director/t/{tid}/rounds/1/cards"))
        .await;
    let table_codes = attr_values(&cards, "data-table-code");
    let movement = dora
        .b
        .get_html(&format!("/director/t/{tid}/movement-cards"))
        .await;
    let pair_numbers = attr_values(&movement, "data-pair");
    let pair_codes = attr_values(&movement, "data-pair-code");
    assert_eq!(table_codes.len(), TABLES);
    assert_eq!(pair_numbers.len(), pair_codes.len());
    let code_of = |n: i64| -> String {
        let i = pair_numbers
            .iter()
            .position(|p| p.parse::<i64>().ok() == Some(n))
            .expect("pair on the movement cards");
        pair_codes[i].clone()
    };
    let file = export(&dora, tid).await;
    let seats = tables_of(&file, 1);
    let phone = reqwest::Client::new();
    let url = |code: &str, what: &str| format!("{}/api/v1/score/{code}/{what}", app.address);

    // Every table: NS enters A; EW reads it (version 1).
    let mut jobs = Vec::new();
    for (k, t) in seats.iter().enumerate() {
        let code = table_codes[k].clone();
        let (ns, ew) = (code_of(t.ns), code_of(t.ew));
        let (a, _) = post_json(
            phone.clone(),
            url(&code, "sheet"),
            json!({"pair_code": ns, "round": 1, "sheet": sheet_json(100)}),
        )
        .await;
        assert_eq!(a, 200);
        let view: Value = phone
            .get(format!("{}/api/v1/score/{code}", app.address))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let seen = view["entry_version"].clone();
        assert_eq!(seen, json!(1));
        jobs.push((code, ns, ew, seen));
    }
    // At once at every table: NS replaces A with B, EW confirms version 1.
    let mut tasks = Vec::new();
    for (code, ns, ew, seen) in jobs.clone() {
        let replace = post_json(
            phone.clone(),
            url(&code, "sheet"),
            json!({"pair_code": ns, "round": 1, "sheet": sheet_json(200)}),
        );
        let confirm = post_json(
            phone.clone(),
            url(&code, "confirm"),
            json!({"pair_code": ew, "agree": true, "entry_version": seen}),
        );
        tasks.push(tokio::spawn(async move {
            let (r, c) = tokio::join!(replace, confirm);
            (r.0, c.0, c.1)
        }));
    }
    let mut outcomes = Vec::new();
    for t in tasks {
        outcomes.push(t.await.unwrap());
    }
    let fivexx = outcomes
        .iter()
        .filter(|(r, c, _)| *r >= 500 || *c >= 500 || *r == 0 || *c == 0)
        .count();
    assert_eq!(fivexx, 0, "no 5xx, no dropped request: {outcomes:?}");
    let file = export(&dora, tid).await;
    let mut confirmed_first = 0;
    let mut replaced_first = 0;
    for (k, t) in seats.iter().enumerate() {
        let (r, c, body) = &outcomes[k];
        let counted = sheet_mark(&file, 1, t.table);
        match (*c, counted) {
            // EW confirmed what it read (A): A counts, the late
            // replacement was refused.
            (200, Some(100)) => {
                assert_eq!(*r, 409, "table {}: {outcomes:?}", t.table);
                confirmed_first += 1;
            }
            // The replacement won: EW's confirmation of A is refused and
            // nothing counts until EW reads B.
            (409, None) => {
                assert_eq!(body["error"]["code"], "entry_changed");
                assert_eq!(*r, 200);
                replaced_first += 1;
            }
            other => panic!(
                "table {}: confirmation {:?} with counted sheet {:?}: a sheet EW never saw?",
                t.table, other.0, other.1
            ),
        }
    }
    // Where B won, EW now reads B (version 2) and confirms it: B counts.
    for (k, _) in seats.iter().enumerate() {
        if outcomes[k].1 != 409 {
            continue;
        }
        let (code, _, ew, _) = &jobs[k];
        let (s, v) = post_json(
            phone.clone(),
            url(code, "confirm"),
            json!({"pair_code": ew, "agree": true, "entry_version": 2}),
        )
        .await;
        assert_eq!(s, 200, "{v:?}");
    }
    let file = export(&dora, tid).await;
    for (k, t) in seats.iter().enumerate() {
        let want = if outcomes[k].1 == 200 { 100 } else { 200 };
        assert_eq!(
            sheet_mark(&file, 1, t.table),
            Some(want),
            "table {}",
            t.table
        );
    }
    println!(
        "race_replace_versus_confirm on {kind}: {TABLES} tables, confirmation first at {confirmed_first}, replacement first at {replaced_first}; every counted sheet is the one confirmed, 0 5xx"
    );
}
