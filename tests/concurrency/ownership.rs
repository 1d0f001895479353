//! Test 7, ownership: a tournament belongs to the director who created
//! it. Another director gets 404 on every route of it and does not see it
//! in the list; an admin opens every page of it.

use crate::helpers::{spawn_app, ADMIN, ADMIN_PW};
use crate::races::backend;
use crate::support::*;

/// Every `/director/t/{id}/…` and `/desk/t/{id}/…` route of `src/web/mod.rs`,
/// with real ids: (method, path).
fn routes(tid: i64, pid: i64, table: i64, penalty: i64) -> Vec<(&'static str, String)> {
    let d = format!("/director/t/{tid}");
    let k = format!("/desk/t/{tid}");
    vec![
        ("GET", d.clone()),
        ("GET", format!("{d}/edit")),
        ("POST", format!("{d}/edit")),
        ("POST", format!("{d}/pairs")),
        ("GET", format!("{d}/pairs/new")),
        ("GET", format!("{d}/pairs/{pid}")),
        ("POST", format!("{d}/pairs/{pid}")),
        ("POST", format!("{d}/pairs/{pid}/checkin")),
        ("POST", format!("{d}/pairs/{pid}/withdraw")),
        ("GET", format!("{d}/import")),
        ("POST", format!("{d}/import")),
        ("POST", format!("{d}/draw")),
        ("POST", format!("{d}/rounds")),
        ("GET", format!("{d}/rounds/1")),
        ("GET", format!("{d}/rounds/1/cards")),
        ("GET", format!("{d}/movement-cards")),
        ("POST", format!("{d}/rounds/1/clock")),
        ("POST", format!("{d}/close")),
        ("GET", format!("{d}/confirm-start")),
        ("GET", format!("{d}/confirm-round")),
        ("GET", format!("{d}/confirm-close")),
        ("GET", format!("{d}/rounds/1/confirm-time-out")),
        ("GET", format!("{d}/rounds/1/confirm-undo")),
        ("POST", format!("{d}/rounds/1/undo")),
        ("GET", format!("{d}/export.json")),
        ("GET", format!("{d}/standings.csv")),
        ("GET", format!("{d}/sheets.csv")),
        ("GET", format!("{k}/rounds/1")),
        ("GET", format!("{k}/rounds/1/tables/{table}")),
        ("POST", format!("{k}/rounds/1/tables/{table}")),
        ("POST", format!("{k}/rounds/1/tables/{table}/adjusted")),
        ("GET", format!("{k}/penalties")),
        ("POST", format!("{k}/penalties")),
        ("POST", format!("{k}/penalties/{penalty}/withdraw")),
        ("POST", format!("{k}/penalties/{penalty}/reinstate")),
        ("GET", format!("{k}/audit")),
    ]
}

/// Plausible form fields, so that a POST fails only on ownership.
fn post_fields(table_sheet: bool) -> Vec<(String, String)> {
    let mut f = if table_sheet {
        sheet(150, 90)
    } else {
        Vec::new()
    };
    f.extend(fields(&[
        ("value", "false"),
        ("action", "start"),
        ("confirm", "1"),
        ("round", "2"),
        ("ns_vp", "10"),
        ("ew_vp", "10"),
        ("reason", "prova"),
        ("p1_surname", "Estranei"),
        ("p1_name", "Eva"),
        ("p2_surname", "Estranei"),
        ("p2_name", "Ugo"),
    ]));
    f
}

async fn call(s: &Staff, method: &str, path: &str) -> Answer {
    if method == "GET" {
        s.get(path).await
    } else {
        let sheet_post = path.contains("/tables/") && !path.ends_with("/adjusted");
        let mut f = post_fields(sheet_post);
        if !sheet_post {
            f.extend(settings("Rubato"));
        }
        s.post(path, &f).await
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn ownership_role_matrix() {
    let app = spawn_app().await;
    app.setup_admin().await;
    app.create_user("dora", "director", DIRECTOR_PW).await;
    app.create_user("bruno", "director", DIRECTOR_PW).await;
    let dora = Staff::login(&app.address, "dora", DIRECTOR_PW).await;
    let tid = running_tournament(&app.handle, "dora", "Di Dora", 8).await;
    let pid = pair_ids(&app.handle, tid).await[0];
    let table = tables_of(&export(&dora, tid).await, 1)[0].table;
    let a = dora
        .post(
            &format!("/desk/t/{tid}/penalties"),
            &fields(&[
                ("pair", &pid.to_string()),
                ("round", "1"),
                ("kind", ""),
                ("amount", ""),
                ("reason_preset", ""),
                ("reason", "ritardo"),
            ]),
        )
        .await;
    assert!(a.status < 500, "penalty: {a:?}");
    let penalties = dora.html(&format!("/desk/t/{tid}/penalties")).await;
    let marker = format!("/desk/t/{tid}/penalties/");
    let penalty = penalties
        .find(&marker)
        .map(|i| {
            penalties[i + marker.len()..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect::<String>()
        })
        .and_then(|d| d.parse().ok())
        .unwrap_or(1);
    let routes = routes(tid, pid, table, penalty);
    let gets: Vec<&String> = routes
        .iter()
        .filter(|(m, _)| *m == "GET")
        .map(|(_, p)| p)
        .collect();

    // The owner and an admin open every page.
    let admin = Staff::login(&app.address, ADMIN, ADMIN_PW).await;
    let mut owner_refused = Vec::new();
    let mut admin_refused = Vec::new();
    for path in &gets {
        let a = dora.get(path).await;
        if a.status != 200 {
            owner_refused.push(format!("{path} → {}", a.status));
        }
        let a = admin.get(path).await;
        if a.status != 200 {
            admin_refused.push(format!("{path} → {}", a.status));
        }
    }

    // Another director: 404 everywhere, and no trace in the list.
    let bruno = Staff::login(&app.address, "bruno", DIRECTOR_PW).await;
    let list = bruno.html("/director/tournaments").await;
    let listed = list.contains(&format!("/director/t/{tid}\""));
    let mut tally = Tally::default();
    let mut not_404 = Vec::new();
    for (method, path) in &routes {
        let a = call(&bruno, method, path).await;
        tally.add(&a);
        if a.status != 404 {
            not_404.push(format!("{method} {path} → {}", a.status));
        }
    }
    // Nothing of dora's tournament changed.
    let file = export(&dora, tid).await;
    let rounds = rounds_of(&file).len();
    let status = file["status"].as_str().unwrap_or_default().to_string();
    let pairs = file["pairs"].as_array().map(Vec::len).unwrap_or(0);
    println!(
        "ownership matrix [{}]: {} routes as another director: {}×404, {} not 404, {}×5xx, listed to him: {listed}; owner GETs 200: {}/{}, admin GETs 200: {}/{}; afterwards {pairs} pairs, {rounds} rounds, status {status}; statuses {tally}",
        backend(&app.db),
        routes.len(),
        tally.count(404),
        not_404.len(),
        tally.count_5xx(),
        gets.len() - owner_refused.len(),
        gets.len(),
        gets.len() - admin_refused.len(),
        gets.len(),
    );
    assert!(owner_refused.is_empty(), "owner: {owner_refused:?}");
    assert!(admin_refused.is_empty(), "admin: {admin_refused:?}");
    assert!(
        !listed,
        "another director's list does not show the tournament"
    );
    assert!(
        not_404.is_empty(),
        "not 404 for another director: {not_404:#?}"
    );
    assert_eq!(
        (pairs, rounds, status.as_str()),
        (8, 1, "running"),
        "nothing changed"
    );
}
