//! Entries online by the tournament's kind (issue 36): a team's name and
//! four to six players, confirmed up to the capacity in teams, waiting
//! after, a withdrawal moving the list up, the same player refused in two
//! teams, the public form asking for a team; a player alone for an
//! individual tournament.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{Browser, TestApp};
use crate::online::{enter, entry, withdraw};

fn team(i: usize, players: usize) -> Value {
    let players: Vec<Value> = (1..=players)
        .map(|k| json!({"surname": format!("Verdi{i}x{k}"), "name": "Ada", "card": format!("S{i}K{k}")}))
        .collect();
    json!({"team_name": format!("Squadra {i}"), "players": players,
        "email": format!("t{i}@example.org"), "consent": true})
}

/// A tournament of `kind` taking entries online for one place, its
/// director's browser, and its entry form.
async fn one_place(kind: &str) -> (TestApp, Browser, i64, String) {
    let (app, dora) = crate::tournaments::with_director().await;
    let tid = app
        .tournament("Online")
        .with(&[("kind", kind), ("online_entries", "on"), ("capacity", "1")])
        .build()
        .await
        .tid;
    let form = app.get_html(&format!("/t/{tid}/enter")).await;
    (app, dora, tid, form)
}

#[tokio::test]
async fn a_team_enters_online_waits_when_full_and_moves_up() {
    // The form asks for the team's name and six players (5 and 6 optional).
    let (app, dora, tid, form) = one_place("teams").await;
    assert!(
        form.contains("id=\"team_name\"") && form.contains("id=\"p6_surname\""),
        "{form}"
    );

    // Problems named next to their fields.
    let mut bad = team(9, 3);
    bad["team_name"] = json!("");
    let (s, e) = enter(&app, tid, &bad).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    let fields = e["error"]["fields"].to_string();
    assert!(
        fields.contains("team_name") && fields.contains("p4_surname"),
        "{e}"
    );

    let (s, first) = enter(&app, tid, &team(1, 5)).await;
    assert_eq!(s, StatusCode::CREATED, "{first}");
    assert_eq!(first["status"], "confirmed");
    assert_eq!(first["number"], 1);
    let (_, second) = enter(&app, tid, &team(2, 4)).await;
    assert_eq!(second["status"], "waiting", "{second}");
    assert_eq!(second["position"], 1);

    // The same player cannot be in two teams' entries.
    let mut twice = team(3, 4);
    twice["players"][2] = json!({"surname": "Verdi1x2", "name": "Ada", "card": "s1k2"});
    let (s, e) = enter(&app, tid, &twice).await;
    assert_eq!(s, StatusCode::CONFLICT, "{e}");
    assert_eq!(e["error"]["code"], "already_entered", "{e}");

    // The confirmed team is on the director's teams page, marked online.
    let page = dora.get_html(&format!("/director/t/{tid}/teams")).await;
    assert!(
        page.contains("Squadra 1") && page.contains("badge online"),
        "{page}"
    );

    // The first withdraws: the second is confirmed, with the next number
    // (none is left after the withdrawn team's).
    let (s, _) = withdraw(&app, first["token"].as_str().unwrap()).await;
    assert_eq!(s, StatusCode::OK);
    let now = entry(&app, second["token"].as_str().unwrap()).await;
    assert_eq!(now["status"], "confirmed", "{now}");
    assert_eq!(now["number"], 1, "{now}");
    let page = dora.get_html(&format!("/director/t/{tid}/teams")).await;
    assert!(
        !page.contains("Squadra 1<"),
        "the withdrawn team is gone: {page}"
    );
    assert!(page.contains("Squadra 2"), "{page}");
}

#[tokio::test]
async fn a_team_enters_through_the_public_form() {
    let (app, _dora) = crate::tournaments::with_director().await;
    let tid = app
        .tournament("Squadre dal modulo")
        .with(&[("kind", "teams"), ("online_entries", "on")])
        .build()
        .await
        .tid;
    let path = format!("/t/{tid}/enter");
    let mut fields: Vec<(String, String)> = vec![
        ("team_name".into(), "I Leoni".into()),
        ("phone".into(), "333 1234567".into()),
        ("consent".into(), "on".into()),
    ];
    for k in 1..=4 {
        fields.push((format!("p{k}_surname"), format!("Leone{k}")));
        fields.push((format!("p{k}_name"), "Rita".into()));
    }
    let refs: Vec<(&str, &str)> = fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let res = app.submit(&path, &path, &refs).await;
    assert_eq!(res.status().as_u16(), 303);
    let to = res.headers()["location"].to_str().unwrap().to_string();
    assert!(to.starts_with("/entry/"), "{to}");
    let page = app.get_html(&to).await;
    assert!(
        page.contains("status-confirmed") && page.contains("Leone4 Rita"),
        "{page}"
    );
}

#[tokio::test]
async fn the_start_of_a_team_tournament_closes_its_waiting_list() {
    let (app, _dora) = crate::tournaments::with_director().await;
    let built = app
        .tournament("Squadre al via")
        .with(&[
            ("kind", "teams"),
            ("online_entries", "on"),
            ("capacity", "4"),
        ])
        .teams(4)
        .checked_in()
        .build()
        .await;
    let (s, waiting) = enter(&app, built.tid, &team(7, 4)).await;
    assert_eq!(s, StatusCode::CREATED, "{waiting}");
    assert_eq!(waiting["status"], "waiting", "{waiting}");
    let token = crate::tokens::token_for(&app, burraco_td::auth::Role::Admin).await;
    let res = reqwest::Client::new()
        .post(app.url(&format!("/api/v1/tournaments/{}/start", built.tid)))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success(), "{}", res.text().await.unwrap());
    let now = entry(&app, waiting["token"].as_str().unwrap()).await;
    assert_eq!(now["status"], "closed", "{now}");
    assert_eq!(now["position"], Value::Null, "{now}");
}

#[tokio::test]
async fn a_player_alone_enters_an_individual_tournament() {
    let (app, dora, tid, form) = one_place("individual").await;
    assert!(
        form.contains("id=\"p1_surname\"") && !form.contains("id=\"p2_surname\""),
        "{form}"
    );
    let one = |i: usize| {
        json!({"players": [{"surname": format!("Solo{i}"), "name": "Ida", "card": format!("I{i}")}],
            "phone": "333 1234567", "consent": true})
    };
    let mut two = one(8);
    two["players"]
        .as_array_mut()
        .unwrap()
        .push(json!({"surname": "Extra", "name": "Eva"}));
    let (s, e) = enter(&app, tid, &two).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "one player only: {e}");
    let (s, first) = enter(&app, tid, &one(1)).await;
    assert_eq!(s, StatusCode::CREATED, "{first}");
    assert_eq!(first["status"], "confirmed");
    assert_eq!(first["number"], 1);
    let (_, second) = enter(&app, tid, &one(2)).await;
    assert_eq!(second["status"], "waiting", "{second}");
    let (s, _) = enter(&app, tid, &one(1)).await;
    assert_eq!(s, StatusCode::CONFLICT, "the same player twice");
    let page = dora
        .get_html(&format!("/director/t/{tid}/individual"))
        .await;
    assert!(page.contains("Solo1"), "registered: {page}");
    assert!(
        page.contains("badge online"),
        "marked as entered online: {page}"
    );
    let (s, _) = withdraw(&app, first["token"].as_str().unwrap()).await;
    assert_eq!(s, StatusCode::OK);
    let now = entry(&app, second["token"].as_str().unwrap()).await;
    assert_eq!(now["status"], "confirmed", "{now}");
    let page = dora
        .get_html(&format!("/director/t/{tid}/individual"))
        .await;
    assert!(page.contains("Solo2") && !page.contains("Solo1"), "{page}");
}
