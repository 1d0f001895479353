//! Entries online (issue 36): the switches in the tournament's API, the
//! public entry confirmed up to the capacity and waiting after it, the
//! private link, withdrawals moving the list up, duplicates, closing, the
//! start and a burst for the last places.

use burraco_td::auth::Role;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{spawn_app, TestApp};
use crate::tokens::token_for;

async fn app_with_director() -> TestApp {
    let app = spawn_app().await;
    app.setup_admin().await;
    app.create_user("dora", "director", "director pass").await;
    app
}

/// A tournament taking entries online with `capacity` places.
pub async fn open_tournament(app: &TestApp, capacity: &str) -> i64 {
    app.tournament("Online")
        .with(&[("online_entries", "on"), ("capacity", capacity)])
        .build()
        .await
        .tid
}

pub fn pair(i: usize) -> Value {
    json!({"players": [
        {"surname": format!("Rossi{i}"), "name": "Anna", "card": format!("C{i}A"), "club": "Sole"},
        {"surname": format!("Bianchi{i}"), "name": "Luca", "card": format!("C{i}B")}],
        "email": format!("p{i}@example.org"), "consent": true})
}

pub async fn send(
    app: &TestApp,
    method: reqwest::Method,
    path: &str,
    body: Option<&Value>,
    token: Option<&str>,
) -> (StatusCode, Value) {
    let mut req = reqwest::Client::new()
        .request(method, app.url(path))
        .header("accept-language", "en");
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    if let Some(b) = body {
        req = req.json(b);
    }
    let res = req.send().await.expect("request");
    let status = res.status();
    let text = res.text().await.unwrap_or_default();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

pub async fn enter(app: &TestApp, tid: i64, body: &Value) -> (StatusCode, Value) {
    let path = format!("/api/v1/tournaments/{tid}/entries");
    send(app, reqwest::Method::POST, &path, Some(body), None).await
}

pub async fn entry(app: &TestApp, token: &str) -> Value {
    let (s, v) = send(
        app,
        reqwest::Method::GET,
        &format!("/api/v1/entries/{token}"),
        None,
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v
}

pub async fn withdraw(app: &TestApp, token: &str) -> (StatusCode, Value) {
    let path = format!("/api/v1/entries/{token}");
    send(app, reqwest::Method::DELETE, &path, None, None).await
}

#[tokio::test]
async fn the_switches_are_tournament_fields_given_back_in_utc() {
    let app = app_with_director().await;
    let tid = app
        .tournament("Switches")
        .with(&[
            ("online_entries", "on"),
            ("capacity", "12"),
            ("entries_close_at", "2026-11-20T18:00:00+01:00"),
            ("member_check", "on"),
        ])
        .build()
        .await
        .tid;
    let token = token_for(&app, Role::Admin).await;
    let path = format!("/api/v1/tournaments/{tid}");
    let (s, t) = send(&app, reqwest::Method::GET, &path, None, Some(&token)).await;
    assert_eq!(s, StatusCode::OK, "{t}");
    let set = &t["settings"];
    assert_eq!(set["online_entries"], json!(true), "{t}");
    assert_eq!(set["capacity"], json!(12));
    assert_eq!(set["entries_close_at"], json!("2026-11-20T17:00:00Z"));
    assert_eq!(set["member_check"], json!(true));

    let mut body = set.clone();
    body["capacity"] = json!(0);
    body["entries_close_at"] = json!("soon");
    let (s, e) = send(&app, reqwest::Method::PUT, &path, Some(&body), Some(&token)).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    assert!(e["error"]["fields"]["capacity"].is_string(), "{e}");
    assert!(e["error"]["fields"]["entries_close_at"].is_string(), "{e}");

    body["capacity"] = Value::Null;
    body["entries_close_at"] = Value::Null;
    body["online_entries"] = json!(false);
    let (s, t) = send(&app, reqwest::Method::PUT, &path, Some(&body), Some(&token)).await;
    assert_eq!(s, StatusCode::OK, "{t}");
    assert_eq!(t["settings"]["capacity"], Value::Null);
    assert_eq!(t["settings"]["online_entries"], json!(false));
    // The changes are on the record.
    let log = app.get_html(&format!("/desk/t/{tid}/audit")).await;
    assert!(log.contains("capienza"), "{log}");
}

#[tokio::test]
async fn entries_are_confirmed_up_to_the_capacity_then_wait_and_move_up() {
    let app = app_with_director().await;
    let tid = open_tournament(&app, "2").await;
    let mut tokens = Vec::new();
    for i in 1..=4 {
        let (s, v) = enter(&app, tid, &pair(i)).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        tokens.push(v["token"].as_str().unwrap().to_string());
        match i {
            1 | 2 => assert_eq!(
                v,
                json!({"token": tokens[i - 1], "status": "confirmed", "number": i})
            ),
            _ => assert_eq!(
                v,
                json!({"token": tokens[i - 1], "status": "waiting", "position": i - 2})
            ),
        }
    }
    assert_eq!(
        entry(&app, &tokens[3]).await,
        json!({"status": "waiting", "number": null, "position": 2, "tournament": tid})
    );
    let staff = token_for(&app, Role::Admin).await;
    let list_path = format!("/api/v1/tournaments/{tid}/entries");
    let (s, list) = send(&app, reqwest::Method::GET, &list_path, None, Some(&staff)).await;
    assert_eq!(s, StatusCode::OK);
    let positions: Vec<_> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["position"].clone())
        .collect();
    assert_eq!(positions, [json!(1), json!(2)], "{list}");
    let (s, _) = send(&app, reqwest::Method::GET, &list_path, None, None).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED, "the list is the staff's");

    // Pair 1 withdraws: the first waiting entry is confirmed at once.
    let (s, v) = withdraw(&app, &tokens[0]).await;
    assert_eq!((s, v), (StatusCode::OK, json!({"status": "withdrawn"})));
    assert_eq!(entry(&app, &tokens[0]).await["status"], "withdrawn");
    assert_eq!(
        entry(&app, &tokens[2]).await,
        json!({"status": "confirmed", "number": 3, "position": null, "tournament": tid})
    );
    assert_eq!(entry(&app, &tokens[3]).await["position"], 1);
    // Twice is once.
    assert_eq!(withdraw(&app, &tokens[0]).await.0, StatusCode::OK);
    assert_eq!(entry(&app, &tokens[3]).await["status"], "waiting");
    // A withdrawal from the waiting list moves nobody in.
    assert_eq!(withdraw(&app, &tokens[3]).await.0, StatusCode::OK);
    let pairs = burraco_td::services::tournaments::load(
        &app.handle,
        crate::builders::admin(),
        burraco_td::ids::TournamentId(tid),
        burraco_td::services::Need::Direct,
    )
    .await
    .unwrap()
    .pairs;
    let numbers: Vec<i32> = pairs.iter().map(|p| p.number).collect();
    assert_eq!(
        numbers,
        [2, 3],
        "the confirmed entries are the registrations"
    );
    // An unknown token.
    let (s, _) = send(
        &app,
        reqwest::Method::GET,
        "/api/v1/entries/nope",
        None,
        None,
    )
    .await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_same_player_cannot_hold_two_live_entries() {
    let app = app_with_director().await;
    let tid = open_tournament(&app, "1").await;
    assert_eq!(enter(&app, tid, &pair(1)).await.0, StatusCode::CREATED);
    // The same card, spaced and in other letters, with another partner.
    let mut same_card = pair(2);
    same_card["players"][0]["card"] = json!("  c1a ");
    let (s, e) = enter(&app, tid, &same_card).await;
    assert_eq!(s, StatusCode::CONFLICT, "{e}");
    assert_eq!(e["error"]["code"], "already_entered");
    // The same surname and name without cards, waiting or confirmed.
    let nameless = |other: &str| {
        json!({"players": [{"surname": "Verdi", "name": "Gino"}, {"surname": other, "name": "Ada"}],
            "phone": "+39 333 1234567", "consent": true})
    };
    assert_eq!(
        enter(&app, tid, &nameless("Neri")).await.0,
        StatusCode::CREATED
    );
    let (s, e) = enter(&app, tid, &nameless("Gialli")).await;
    assert_eq!(
        (s, e["error"]["code"].clone()),
        (StatusCode::CONFLICT, json!("already_entered"))
    );
}

#[tokio::test]
async fn consent_and_contacts_are_named_next_to_their_fields() {
    let app = app_with_director().await;
    let tid = open_tournament(&app, "").await;
    let mut body = pair(1);
    body["consent"] = json!(false);
    body["email"] = json!("not an address");
    let (s, e) = enter(&app, tid, &body).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    assert!(e["error"]["fields"]["consent"].is_string(), "{e}");
    assert!(e["error"]["fields"]["email"].is_string(), "{e}");
    body.as_object_mut().unwrap().remove("consent");
    assert_eq!(
        enter(&app, tid, &body).await.0,
        StatusCode::UNPROCESSABLE_ENTITY
    );
}

#[tokio::test]
async fn entries_close_when_off_past_their_time_or_at_the_start() {
    let app = app_with_director().await;
    let off = app.tournament("Off").build().await.tid;
    let (s, e) = enter(&app, off, &pair(1)).await;
    assert_eq!(
        (s, e["error"]["code"].clone()),
        (StatusCode::CONFLICT, json!("entries_closed"))
    );

    let past = app
        .tournament("Past")
        .with(&[
            ("online_entries", "on"),
            ("entries_close_at", "2020-01-01T00:00:00Z"),
        ])
        .build()
        .await
        .tid;
    let (s, e) = enter(&app, past, &pair(1)).await;
    assert_eq!(
        (s, e["error"]["code"].clone()),
        (StatusCode::CONFLICT, json!("entries_closed"))
    );

    // The start: the waiting list closes and nothing is withdrawn after it.
    let tid = open_tournament(&app, "8").await;
    let mut tokens = Vec::new();
    for i in 1..=9 {
        let (s, v) = enter(&app, tid, &pair(i)).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        tokens.push(v["token"].as_str().unwrap().to_string());
    }
    let staff = token_for(&app, Role::Admin).await;
    let path = format!("/api/v1/tournaments/{tid}/pairs");
    let (_, pairs) = send(&app, reqwest::Method::GET, &path, None, Some(&staff)).await;
    for p in pairs.as_array().expect("the pairs") {
        let id = p["id"].as_i64().unwrap();
        let path = format!("/api/v1/tournaments/{tid}/pairs/{id}/checkin");
        let (s, v) = send(
            &app,
            reqwest::Method::POST,
            &path,
            Some(&json!({"action": "check_in"})),
            Some(&staff),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    let path = format!("/api/v1/tournaments/{tid}/start");
    let (s, v) = send(&app, reqwest::Method::POST, &path, None, Some(&staff)).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, e) = enter(&app, tid, &pair(19)).await;
    assert_eq!(
        (s, e["error"]["code"].clone()),
        (StatusCode::CONFLICT, json!("entries_closed"))
    );
    let (s, e) = withdraw(&app, &tokens[0]).await;
    assert_eq!(
        (s, e["error"]["code"].clone()),
        (StatusCode::CONFLICT, json!("started"))
    );
    let last = entry(&app, &tokens[8]).await;
    assert_eq!(last["status"], "closed", "{last}");
    assert_eq!(last["position"], Value::Null);
}

#[tokio::test]
async fn forty_entries_at_once_for_ten_places_confirm_exactly_ten() {
    let app = app_with_director().await;
    let tid = open_tournament(&app, "10").await;
    let answers = futures_util::future::join_all((1..=40).map(|i| {
        let app = &app;
        async move { enter(app, tid, &pair(i)).await }
    }))
    .await;
    let mut numbers = Vec::new();
    let mut positions = Vec::new();
    for (s, v) in &answers {
        assert_eq!(*s, StatusCode::CREATED, "{v}");
        match v["status"].as_str() {
            Some("confirmed") => numbers.push(v["number"].as_i64().unwrap()),
            Some("waiting") => positions.push(v["position"].as_i64().unwrap()),
            _ => panic!("{v}"),
        }
    }
    numbers.sort_unstable();
    positions.sort_unstable();
    assert_eq!(numbers, (1..=10).collect::<Vec<_>>());
    assert_eq!(positions, (1..=30).collect::<Vec<_>>());

    // Ten confirmed entries withdrawing at once: the first ten waiting
    // move in, in order.
    let confirmed: Vec<String> = answers
        .iter()
        .filter(|(_, v)| v["status"] == "confirmed")
        .map(|(_, v)| v["token"].as_str().unwrap().to_string())
        .collect();
    let waiting: Vec<(i64, String)> = answers
        .iter()
        .filter(|(_, v)| v["status"] == "waiting")
        .map(|(_, v)| {
            (
                v["position"].as_i64().unwrap(),
                v["token"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let out = futures_util::future::join_all(confirmed.iter().map(|t| withdraw(&app, t))).await;
    assert!(out.iter().all(|(s, _)| *s == StatusCode::OK), "{out:?}");
    for (position, token) in &waiting {
        let e = entry(&app, token).await;
        if *position <= 10 {
            assert_eq!(e["status"], "confirmed", "{position}: {e}");
        } else {
            assert_eq!(e["position"], json!(position - 10), "{e}");
        }
    }
}

#[tokio::test]
async fn the_settings_form_has_the_switches_with_messages_next_to_them() {
    let (app, dora) = crate::tournaments::with_director().await;
    let page = crate::tournaments::create_through_the_form(
        &dora,
        "Modulo",
        &[
            ("online_entries", "on"),
            ("capacity", "20"),
            ("entries_close_at", "2026-11-20T18:00"),
        ],
    )
    .await;
    let edit = dora.get_html(&format!("{page}/edit")).await;
    assert!(edit.contains("id=\"online\""), "{edit}");
    assert!(
        edit.contains("name=\"online_entries\" aria-describedby=\"online_entries-hint\" checked"),
        "{edit}"
    );
    assert!(
        edit.contains("value=\"2026-11-20T18:00\""),
        "local time back: {edit}"
    );
    let tid = crate::helpers::tid_of(&page);
    let token = token_for(&app, Role::Admin).await;
    let path = format!("/api/v1/tournaments/{tid}");
    let (_, t) = send(&app, reqwest::Method::GET, &path, None, Some(&token)).await;
    assert_eq!(
        t["settings"]["entries_close_at"],
        json!("2026-11-20T17:00:00Z"),
        "{t}"
    );
    let mut fields: Vec<(String, String)> = crate::builders::SETTINGS
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    fields.retain(|(k, _)| k != "name");
    fields.push(("name".into(), "Modulo".into()));
    fields.push(("online_entries".into(), "on".into()));
    fields.push(("capacity".into(), "tanti".into()));
    let refs: Vec<(&str, &str)> = fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let res = dora
        .submit(&format!("{page}/edit"), &format!("{page}/edit"), &refs)
        .await;
    assert_eq!(res.status().as_u16(), 422);
    let html = res.text().await.unwrap();
    let at = html.find("id=\"capacity\"").expect("the capacity field");
    let error = html[at..].find("field-error").expect("its message");
    assert!(error < 600, "the message is next to the field: {html}");
}

#[tokio::test]
async fn a_player_enters_from_the_form_and_withdraws_from_the_private_page() {
    let app = app_with_director().await;
    let tid = open_tournament(&app, "1").await;
    let anna = app.another_browser();
    let public = anna.get_html(&format!("/t/{tid}")).await;
    assert!(
        public.contains(&format!("href=\"/t/{tid}/enter\"")),
        "{public}"
    );
    let form_path = format!("/t/{tid}/enter");
    let form = anna.get_html(&form_path).await;
    assert!(form.contains("name=\"consent\""), "{form}");
    assert!(form.contains("name=\"csrf_token\""), "{form}");
    let fields = |consent: &'static str| {
        vec![
            ("p1_surname", "Rossi"),
            ("p1_name", "Anna"),
            ("p1_card", "AB1"),
            ("p2_surname", "Bianchi"),
            ("p2_name", "Luca"),
            ("email", "anna@example.org"),
            ("consent", consent),
        ]
    };
    let res = anna.submit(&form_path, &form_path, &fields("")).await;
    assert_eq!(res.status().as_u16(), 422);
    let html = res.text().await.unwrap();
    let at = html.find("name=\"consent\"").expect("the consent box");
    assert!(
        html[at..].find("field-error").expect("its message") < 700,
        "{html}"
    );
    assert!(
        html.contains("value=\"Rossi\""),
        "what was typed stays: {html}"
    );

    let res = anna.submit(&form_path, &form_path, &fields("on")).await;
    assert_eq!(res.status().as_u16(), 303);
    let entry_path = crate::helpers::location(&res);
    assert!(entry_path.starts_with("/entry/"), "{entry_path}");
    let page = anna.get_html(&entry_path).await;
    assert!(page.contains("status-confirmed"), "{page}");
    assert!(
        page.contains("id=\"keep-link\""),
        "no mail server: keep the link"
    );

    // Another pair waits.
    let (_, second) = enter(&app, tid, &pair(2)).await;
    let second = second["token"].as_str().unwrap().to_string();
    // Without its CSRF token the withdrawal is refused.
    let forged = anna.post_raw(&format!("{entry_path}/withdraw"), &[]).await;
    assert_eq!(forged.status().as_u16(), 403);
    let res = anna
        .submit(&entry_path, &format!("{entry_path}/withdraw"), &[])
        .await;
    assert_eq!(res.status().as_u16(), 303);
    let page = anna.get_html(&entry_path).await;
    assert!(page.contains("status-withdrawn"), "{page}");
    assert!(!page.contains("id=\"withdraw\""), "{page}");
    assert_eq!(entry(&app, &second).await["status"], "confirmed");
    // Entries off: the form says they are closed.
    let off = app.tournament("Chiuso").build().await.tid;
    let closed = anna.get_html(&format!("/t/{off}/enter")).await;
    assert!(closed.contains("id=\"entries-closed\""), "{closed}");
}

#[tokio::test]
async fn a_brake_per_address_stops_a_flood_but_not_a_club() {
    let app = crate::helpers::spawn_app_with(crate::helpers::TestDb::new(), |s| {
        s.rate_limits.entry.burst = 12;
    })
    .await;
    app.setup_admin().await;
    app.create_user("dora", "director", "director pass").await;
    let tid = open_tournament(&app, "").await;
    // A club enters its twelve pairs from one address.
    for i in 1..=12 {
        assert_eq!(
            enter(&app, tid, &pair(i)).await.0,
            StatusCode::CREATED,
            "{i}"
        );
    }
    // The thirteenth attempt at once is braked, whatever it sends.
    let (s, e) = enter(&app, tid, &pair(13)).await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{e}");
    let (s, _) = enter(&app, tid, &json!({"players": []})).await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn the_director_reorders_confirms_and_refuses_the_waiting_list() {
    let (app, dora) = crate::tournaments::with_director().await;
    let tid = open_tournament(&app, "1").await;
    let mut tokens = Vec::new();
    for i in 1..=4 {
        let (_, v) = enter(&app, tid, &pair(i)).await;
        tokens.push(v["token"].as_str().unwrap().to_string());
    }
    let page_path = format!("/director/t/{tid}");
    let page = dora.get_html(&page_path).await;
    assert!(page.contains("id=\"waiting\""), "{page}");
    assert!(
        page.contains("badge online"),
        "the online pair is marked: {page}"
    );
    let staff = token_for(&app, Role::Admin).await;
    let list_path = format!("/api/v1/tournaments/{tid}/entries");
    let ids = |list: &Value| -> Vec<i64> {
        list.as_array()
            .unwrap()
            .iter()
            .map(|e| e["id"].as_i64().unwrap())
            .collect()
    };
    let (_, list) = send(&app, reqwest::Method::GET, &list_path, None, Some(&staff)).await;
    let before = ids(&list);
    assert_eq!(before.len(), 3);
    let act = |id: i64, what: &'static str| {
        let dora = &dora;
        let page_path = page_path.clone();
        async move {
            dora.submit(
                &page_path,
                &format!("/director/t/{tid}/entries/{id}"),
                &[("do", what)],
            )
            .await
            .status()
            .as_u16()
        }
    };
    assert_eq!(act(before[0], "down").await, 303);
    let (_, list) = send(&app, reqwest::Method::GET, &list_path, None, Some(&staff)).await;
    assert_eq!(ids(&list), [before[1], before[0], before[2]]);
    assert_eq!(entry(&app, &tokens[2]).await["position"], 1);
    assert_eq!(act(before[2], "confirm").await, 303);
    assert_eq!(entry(&app, &tokens[3]).await["status"], "confirmed");
    assert_eq!(act(before[1], "refuse").await, 303);
    assert_eq!(entry(&app, &tokens[2]).await["status"], "refused");
    assert_eq!(entry(&app, &tokens[1]).await["position"], 1);
    // A refused entry is not on the list any more.
    assert_eq!(act(before[1], "confirm").await, 409);
    let log = app.get_html(&format!("/desk/t/{tid}/audit")).await;
    assert!(log.contains("Iscrizione in attesa rifiutata"), "{log}");
    assert!(log.contains("riordinata"), "{log}");
}

#[tokio::test]
async fn with_the_member_check_an_unknown_expired_or_ridotta_card_is_refused_naming_the_player() {
    let app = app_with_director().await;
    let token = token_for(&app, Role::Director).await;
    let csv = "tessera;cognome;nome;scadenza;tipo\n\
               C1A;Rossi1;Anna;2026-12-31;ordinaria\n\
               C1B;Bianchi1;Luca;2026-12-31;\n\
               C2A;Rossi2;Anna;2025-12-31;ordinaria\n\
               C3A;Rossi3;Anna;2026-12-31;ridotta\n";
    let res = reqwest::Client::new()
        .post(app.url("/api/v1/members/import"))
        .bearer_auth(&token)
        .header("content-type", "text/csv")
        .body(csv)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.json::<Value>().await.unwrap(), json!({"imported": 4}));
    let bad = reqwest::Client::new()
        .post(app.url("/api/v1/members/import"))
        .bearer_auth(&token)
        .body("a,b\n1,2\n")
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let anonymous = reqwest::Client::new()
        .post(app.url("/api/v1/members/import"))
        .body(csv)
        .send()
        .await
        .unwrap();
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);

    let tid = app
        .tournament("Controllo")
        .with(&[
            ("online_entries", "on"),
            ("member_check", "on"),
            ("level", "national"),
        ])
        .build()
        .await
        .tid;
    assert_eq!(enter(&app, tid, &pair(1)).await.0, StatusCode::CREATED);
    for (i, who) in [(2, "Rossi2 Anna"), (3, "Rossi3 Anna"), (4, "Rossi4 Anna")] {
        let mut body = pair(i);
        body["players"][1]["card"] = json!("C1B");
        body["players"][1]["surname"] = json!(format!("Other{i}"));
        let (s, e) = enter(&app, tid, &body).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
        assert_eq!(e["error"]["code"], "membership", "{e}");
        assert!(e["error"]["message"].as_str().unwrap().contains(who), "{e}");
    }
}

#[tokio::test]
async fn burraco_td_members_import_reads_a_csv_file() {
    let app = app_with_director().await;
    let dir = std::env::temp_dir().join(format!("members-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("soci.csv");
    std::fs::write(
        &file,
        "tessera,cognome,nome,scadenza\nZ1,Verdi,Ada,2026-12-31\nZ2,Neri,Ugo,2026-12-31\n",
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_burraco-td"))
        .args(["members", "import"])
        .arg(&file)
        .env("DATABASE_URL", app.db.url())
        .output()
        .expect("run burraco-td");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("imported 2 members"));
    let tid = app
        .tournament("Soci")
        .with(&[("online_entries", "on"), ("member_check", "on")])
        .build()
        .await
        .tid;
    let body = json!({"players": [{"surname": "Verdi", "name": "Ada", "card": "z1"},
        {"surname": "Neri", "name": "Ugo", "card": " Z2 "}], "phone": "333", "consent": true});
    assert_eq!(enter(&app, tid, &body).await.0, StatusCode::CREATED);
}
