//! Circuits (issue 24) over HTTP, on both databases: a circuit of three
//! stages with one still running, its public pages (cached per revision,
//! ETag, HEAD, no cookie), the season card, the CSV, the links both ways;
//! a merge in the player directory changes the ranking on the next
//! request, and a split changes it back; the API's circuit operations.

use burraco_td::auth::Role;
use burraco_td::circuit::{compute, parse, stage_of_file, CircuitSpec};
use burraco_td::i18n::Lang;
use burraco_td::ids::TournamentId;
use burraco_td::services::Actor;
use burraco_td::tournament_file::fixtures::sample_tournament;
use burraco_td::tournament_file::{Player, Status, TournamentFile};
use serde_json::{json, Value};

use crate::helpers::{spawn_app, Browser, TestApp, ADMIN};
use crate::shared::player;

pub const CIRCUIT_FORM: &[(&str, &str)] = &[
    ("name", "Circuito d'inverno"),
    ("season", "2026/27"),
    ("rank", "player"),
    ("method", "placing"),
    ("best_of", "2"),
    ("min_attendances", "2"),
    ("stage_top_percent", "25"),
];

/// The spec the form above describes (the test's own reference).
fn form_spec() -> CircuitSpec {
    parse(
        r#"{"format":"burraco-td/circuit@1","name":"Circuito d'inverno","season":"2026/27",
            "points":{"method":"placing"},"best_of":2,"min_attendances":2,
            "finals":{"stage_top_percent":25}}"#,
    )
    .unwrap()
}

/// A stage: a generated tournament of 8 pairs and 3 rounds, pair 1 played
/// by the given two people.
fn stage_file(seed: u64, finished: bool, a: Player, b: Player) -> TournamentFile {
    let mut f = sample_tournament(8, 3, seed);
    f.name = format!("Tappa {seed}");
    f.status = Some(if finished {
        Status::Finished
    } else {
        Status::Running
    });
    f.pairs[0].players = vec![a, b];
    f
}

/// The id of an account, read through the services.
pub async fn user_id(app: &TestApp, username: &str) -> burraco_td::ids::UserId {
    crate::builders::actor_of(&app.handle, username)
        .await
        .user_id
}

async fn admin(app: &TestApp) -> Actor {
    Actor {
        user_id: user_id(app, ADMIN).await,
        role: Role::Admin,
    }
}

/// Imports the files as tournaments owned by `owner` (seeded through the
/// services, as an admin imports them); their ids in order.
async fn import_all(app: &TestApp, owner: &str, files: &[TournamentFile]) -> Vec<i64> {
    let actor = admin(app).await;
    let mut ids = Vec::new();
    for f in files {
        ids.push(
            burraco_td::services::files::import(
                &app.handle,
                actor,
                Some(owner.to_string()),
                f.clone(),
                chrono_tz::Europe::Rome,
            )
            .await
            .unwrap()
            .0,
        );
    }
    ids
}

async fn director(app: &TestApp) -> Browser {
    app.setup_admin().await;
    app.create_user("dora", "director", "director pass").await;
    let dora = app.another_browser();
    dora.login("dora", "director pass").await;
    dora
}

/// Creates the circuit through the form and adds the stages in order.
async fn make_circuit(dora: &Browser, stages: &[i64]) -> i64 {
    let res = dora.circuit_form(CIRCUIT_FORM).await;
    assert_eq!(res.status().as_u16(), 303);
    let id = crate::helpers::circuit_id_of(&res);
    let page = format!("/director/circuits/{id}");
    for tid in stages {
        let res = dora
            .submit(
                &page,
                &format!("{page}/stages"),
                &[("tournament", &tid.to_string())],
            )
            .await;
        assert_eq!(res.status().as_u16(), 303, "stage {tid}");
    }
    id
}

/// A season on a new app: the stages (seed, finished, pair 1's two
/// people) imported for the director dora, and the circuit made of them
/// through the forms: (app, dora, files, their tournaments, the circuit).
async fn season(
    stages: Vec<(u64, bool, Player, Player)>,
) -> (TestApp, Browser, Vec<TournamentFile>, Vec<i64>, i64) {
    let app = spawn_app().await;
    let dora = director(&app).await;
    let files: Vec<TournamentFile> = stages
        .into_iter()
        .map(|(seed, finished, a, b)| stage_file(seed, finished, a, b))
        .collect();
    let tids = import_all(&app, "dora", &files).await;
    let id = make_circuit(&dora, &tids).await;
    (app, dora, files, tids, id)
}

/// The director joins person `gone` into person `keep` in the directory.
async fn merge(dora: &Browser, keep: i64, gone: i64) -> reqwest::Response {
    let (keep, gone) = (keep.to_string(), gone.to_string());
    let fields = [("keep", keep.as_str()), ("gone", gone.as_str())];
    dora.submit("/director/people", "/director/people/merge", &fields)
        .await
}

/// The circuit's ranking computed by the core straight from the files (as
/// `burraco-td circuit` does), over the first `counted` files, people told
/// apart by the core's resolver over all of them.
fn reference(files: &[TournamentFile], counted: usize) -> Vec<(String, String, u32)> {
    let resolver = burraco_td::circuit::Resolver::from_files(files.iter());
    let stages: Vec<_> = files[..counted]
        .iter()
        .map(|f| stage_of_file(f, |p: &Player| resolver.key_of(p), Lang::En).unwrap())
        .collect();
    let st = compute(&form_spec(), &stages);
    st.rows
        .iter()
        .map(|r| {
            (
                r.players[0].surname.clone(),
                burraco_td::circuit::points_text(r.points),
                r.attendances,
            )
        })
        .collect()
}

async fn standings(app: &TestApp, id: i64) -> (Value, String) {
    let res = app
        .another_browser()
        .get(&format!("/api/v1/circuits/{id}/standings"))
        .await;
    assert_eq!(res.status().as_u16(), 200);
    let etag = res.headers()["etag"].to_str().unwrap().to_string();
    (res.json().await.unwrap(), etag)
}

fn row_of<'a>(v: &'a Value, surname: &str) -> Vec<&'a Value> {
    v["standings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["player"]["surname"] == surname)
        .collect()
}

#[tokio::test]
async fn a_circuit_of_three_stages_ranks_the_finished_ones_and_shows_the_running_one_as_provisional(
) {
    // One person under three spellings: a card in the first file, none in
    // the others (case, an accent, spaces).
    let (app, _dora, files, tids, id) = season(vec![
        (
            1,
            true,
            player("Zzrossi", "Maria", Some("AB123")),
            player("Zzbianchi", "Luca", None),
        ),
        (
            2,
            true,
            player("ZZROSSI", "Marìa", None),
            player("Zzverdi", "Anna", None),
        ),
        (
            3,
            false,
            player("Zzrossi ", " maria", None),
            player("Zzbianchi", "Luca", None),
        ),
    ])
    .await;

    // The ranking is the core's over the finished stages only.
    let (v, etag) = standings(&app, id).await;
    let expected = reference(&files, 2);
    let rossi = row_of(&v, "Zzrossi");
    assert_eq!(rossi.len(), 1, "one person: {v}");
    let want = expected.iter().find(|r| r.0 == "Zzrossi").unwrap();
    assert_eq!(rossi[0]["points"], want.1.as_str());
    assert_eq!(rossi[0]["attendances"], 2);
    assert_eq!(rossi[0]["player"]["card"], "AB123");
    assert_eq!(
        v["standings"].as_array().unwrap().len(),
        expected.len(),
        "every person of the finished stages once"
    );
    assert_eq!(v["stages"][2]["counts"], false);
    assert_eq!(v["stages"][2]["status"], "running");

    // The public page: provisional stage, the unclassified, finalists; from
    // the cache (ETag, 304, HEAD), no cookie.
    let anon = app.another_browser();
    let res = anon.get(&format!("/c/{id}")).await;
    assert_eq!(res.status().as_u16(), 200);
    assert!(res.headers().get("set-cookie").is_none());
    let page_etag = res.headers()["etag"].to_str().unwrap().to_string();
    let html = res.text().await.unwrap();
    assert!(html.contains("<h1>Circuito d&#39;inverno</h1>"), "{html}");
    assert!(html.contains("provvisoria"), "the running stage");
    assert!(html.contains("Zzrossi"));
    assert!(html.contains("Non classificati"), "min attendances 2");
    assert!(html.contains("Finalisti"));
    // A legend names the finalist mark, the counted and dropped points and
    // each stage column (issue 31).
    let legend = &html[html.find("id=\"circuit-legend\"").expect("the legend")..];
    assert!(legend.contains("qualificato per la finale"), "{legend}");
    assert!(legend.contains("non contano"), "{legend}");
    assert!(legend.contains("tappa"), "{legend}");
    let res = anon
        .client
        .get(anon.url(&format!("/c/{id}")))
        .header("if-none-match", &page_etag)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 304);
    let res = anon
        .client
        .head(anon.url(&format!("/c/{id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 200);
    assert!(res.text().await.unwrap().is_empty());

    // The season card links each stage's pair card.
    let person = v["people"][v["standings"]
        .as_array()
        .unwrap()
        .iter()
        .position(|r| r["player"]["surname"] == "Zzrossi")
        .unwrap()][0]
        .as_i64()
        .unwrap();
    let card = anon.get_html(&format!("/c/{id}/people/{person}")).await;
    assert!(card.contains(&format!("/t/{}/pairs/1", tids[0])), "{card}");
    assert!(card.contains(&format!("/t/{}/pairs/1", tids[1])));
    let json_card: Value = anon
        .get_json(&format!("/api/v1/circuits/{id}/people/{person}"))
        .await;
    assert_eq!(json_card["rows"][0]["stages"].as_array().unwrap().len(), 2);
    assert_eq!(
        anon.get(&format!("/c/{id}/people/999999")).await.status(),
        404
    );

    // Links both ways, and the CSV with Italian headers.
    let t1 = anon.get_html(&format!("/t/{}", tids[0])).await;
    assert!(t1.contains(&format!("href=\"/c/{id}\"")), "{t1}");
    let csv = anon.get_html(&format!("/c/{id}/standings.csv")).await;
    assert!(csv.contains("Posto;"), "{csv}");
    assert!(csv.contains("Zzrossi Maria"));

    // Closing the running stage is a new revision: it counts now.
    let dora_actor = Actor {
        user_id: user_id(&app, "dora").await,
        role: Role::Director,
    };
    burraco_td::services::tournaments::close(&app.handle, dora_actor, TournamentId(tids[2]), None)
        .await
        .unwrap();
    let (v2, etag2) = standings(&app, id).await;
    assert_ne!(etag, etag2);
    let rossi = row_of(&v2, "Zzrossi");
    assert_eq!(rossi[0]["attendances"], 3);
    let mut closed = files.clone();
    closed[2].status = Some(Status::Finished);
    let want = reference(&closed, 3);
    assert_eq!(
        rossi[0]["points"],
        want.iter().find(|r| r.0 == "Zzrossi").unwrap().1.as_str()
    );
    assert_eq!(v2["stages"][2]["counts"], true);
}

#[tokio::test]
async fn a_merge_in_the_directory_changes_the_ranking_on_the_next_request_and_a_split_undoes_it() {
    // The same name with two cards: two people the rules cannot join.
    let (app, dora, _, _, id) = season(vec![
        (
            4,
            true,
            player("Zzneri", "Paolo", Some("N-1")),
            player("Zzgialli", "Ugo", None),
        ),
        (
            5,
            true,
            player("Zzneri", "Paolo", Some("N-2")),
            player("Zzgialli", "Ugo", None),
        ),
    ])
    .await;
    let (before, etag) = standings(&app, id).await;
    assert_eq!(row_of(&before, "Zzneri").len(), 2, "two people: {before}");
    assert_eq!(row_of(&before, "Zzgialli")[0]["attendances"], 2);

    // The directory shows them as likely duplicates; the director merges.
    let page = dora.get_html("/director/people").await;
    assert!(page.contains("Zzneri"), "{page}");
    let ids: Vec<i64> = {
        let i = before["standings"].as_array().unwrap();
        i.iter()
            .enumerate()
            .filter(|(_, r)| r["player"]["surname"] == "Zzneri")
            .map(|(n, _)| before["people"][n][0].as_i64().unwrap())
            .collect()
    };
    let res = merge(&dora, ids[0], ids[1]).await;
    assert_eq!(res.status().as_u16(), 303);
    let (merged, etag2) = standings(&app, id).await;
    assert_ne!(etag, etag2, "a new revision");
    let neri = row_of(&merged, "Zzneri");
    assert_eq!(neri.len(), 1, "{merged}");
    assert_eq!(neri[0]["attendances"], 2);
    // The same merge again is refused (the other one is gone already).
    let res = merge(&dora, ids[0], ids[1]).await;
    assert_eq!(res.status().as_u16(), 409);

    // The merge is listed; splitting it gives two people again.
    let page = dora.get_html("/director/people").await;
    let split = format!("/director/people/{}/split", ids[1]);
    assert!(page.contains(&split), "{page}");
    let res = dora.submit("/director/people", &split, &[]).await;
    assert_eq!(res.status().as_u16(), 303);
    let (again, _) = standings(&app, id).await;
    assert_eq!(row_of(&again, "Zzneri").len(), 2);

    // Another director sees neither the people nor the circuit.
    app.create_user("dario", "director", "director pass 2")
        .await;
    let dario = app.another_browser();
    dario.login("dario", "director pass 2").await;
    assert!(!dario.get_html("/director/people").await.contains("Zzneri"));
    assert_eq!(
        dario.get_status(&format!("/director/circuits/{id}")).await,
        404
    );
}

#[tokio::test]
async fn the_circuit_form_says_what_is_wrong_next_to_each_field_and_saves_nothing() {
    let app = spawn_app().await;
    let dora = director(&app).await;
    let res = dora
        .circuit_form(&[
            ("name", ""),
            ("method", "table"),
            ("table", "25; venti"),
            ("best_of", "0"),
            ("stage_top_percent", "150"),
        ])
        .await;
    assert_eq!(res.status().as_u16(), 422);
    let html = res.text().await.unwrap();
    assert_eq!(html.matches("class=\"field-error\"").count(), 4, "{html}");
    assert!(html.contains("Non è un numero: venti"));
    assert!(dora
        .get_html("/director/circuits")
        .await
        .contains("Ancora nessun circuito"));
}

#[tokio::test]
async fn circuits_over_the_api() {
    let app = spawn_app().await;
    let _dora = director(&app).await;
    let files = vec![
        stage_file(
            6,
            true,
            player("Zzrosa", "Ida", None),
            player("Zzblu", "Ivo", None),
        ),
        stage_file(
            7,
            true,
            player("Zzrosa", "Ida", None),
            player("Zzblu", "Ivo", None),
        ),
    ];
    let tids = import_all(&app, "dora", &files).await;
    let handle = app.handle.clone();
    let token = tokio::task::spawn_blocking(move || {
        burraco_td::services::tokens::create_for_username(
            &handle,
            "dora",
            burraco_td::auth::tokens::TokenLabel::parse("api").unwrap(),
        )
        .unwrap()
        .token
    })
    .await
    .unwrap();
    let client = crate::helpers::new_client();
    let url = |p: &str| format!("{}{}", app.address, p);
    // A POST with the token: its status and its JSON (null if none).
    let post = |path: String, body: Value| {
        let req = client.post(url(&path)).bearer_auth(&token).json(&body);
        async move {
            let res = req.send().await.unwrap();
            (
                res.status().as_u16(),
                res.json::<Value>().await.unwrap_or(Value::Null),
            )
        }
    };

    // Every problem by its path in the circuit document.
    let bad = json!({"name": "", "points": {"method": "table", "table": [25, -1]}, "best_of": 0});
    let (status, e) = post("/api/v1/circuits".into(), bad).await;
    assert_eq!(status, 422);
    assert_eq!(e["error"]["code"], "invalid_input");
    for path in ["name", "points.table[1]", "best_of"] {
        assert!(e["error"]["fields"].get(path).is_some(), "{path}: {e}");
    }

    // Create (as pairs), add both stages, read the public standings.
    let pairs = json!({"name": "Coppie 2026", "rank": "pair", "points": {"method": "vp"}});
    let (status, c) = post("/api/v1/circuits".into(), pairs).await;
    assert_eq!(status, 201);
    let id = c["id"].as_i64().unwrap();
    assert_eq!(c["circuit"]["format"], "burraco-td/circuit@1");
    for tid in &tids {
        let stage = json!({"tournament_id": tid});
        assert_eq!(
            post(format!("/api/v1/circuits/{id}/stages"), stage).await.0,
            200
        );
    }
    let again = json!({"tournament_id": tids[0]});
    let (status, e) = post(format!("/api/v1/circuits/{id}/stages"), again).await;
    assert_eq!(status, 409);
    assert_eq!(e["error"]["code"], "stage_already");
    let v: Value =
        crate::helpers::json_of(client.get(url(&format!("/api/v1/circuits/{id}/standings")))).await;
    let rows = v["standings"].as_array().unwrap();
    let pair = rows
        .iter()
        .find(|r| r["pair"]["players"][0]["surname"] == "Zzblu")
        .unwrap();
    assert_eq!(pair["attendances"], 2);

    // Removing a stage: the later one moves up; unknown ids are 404.
    let res = client
        .delete(url(&format!("/api/v1/circuits/{id}/stages/{}", tids[0])))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 200);
    let c: Value = crate::helpers::json_of(
        client
            .get(url(&format!("/api/v1/circuits/{id}")))
            .bearer_auth(&token),
    )
    .await;
    assert_eq!(c["stages"][0]["tournament_id"], tids[1]);
    assert_eq!(c["stages"][0]["number"], 1);
    let status_of = |path: String| {
        let req = client.get(url(&path));
        async move { req.send().await.unwrap().status().as_u16() }
    };
    assert_eq!(
        status_of("/api/v1/circuits/999999/standings".into()).await,
        404
    );
    // Deleting: the circuit goes, its tournaments stay and stop naming it.
    let res = client
        .delete(url(&format!("/api/v1/circuits/{id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 401, "no token");
    let res = client
        .delete(url(&format!("/api/v1/circuits/{id}")))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 200);
    assert_eq!(
        status_of(format!("/api/v1/circuits/{id}/standings")).await,
        404
    );
    let t = crate::helpers::text_of(client.get(url(&format!("/t/{}", tids[1])))).await;
    assert!(!t.contains(&format!("/c/{id}\"")), "{t}");
    // Without a token, the changes are refused.
    assert_eq!(
        client
            .put(url(&format!("/api/v1/circuits/{id}")))
            .json(&json!({"name": "X", "points": {"method": "vp"}}))
            .send()
            .await
            .unwrap()
            .status()
            .as_u16(),
        401
    );
}

#[tokio::test]
async fn a_circuit_exports_with_its_stages_and_imports_back_with_the_same_ranking() {
    let (app, dora, _, _, id) = season(vec![
        (
            8,
            true,
            player("Zzoro", "Eva", Some("O-1")),
            player("Zzargento", "Teo", None),
        ),
        (
            9,
            true,
            player("Zzoro", "Eva", None),
            player("Zzargento", "Teo", None),
        ),
    ])
    .await;
    let res = dora
        .get(&format!("/director/circuits/{id}/export.json"))
        .await;
    assert_eq!(res.status().as_u16(), 200);
    let bundle = res.text().await.unwrap();
    let v: Value = serde_json::from_str(&bundle).unwrap();
    assert_eq!(v["format"], "burraco-td/circuit-bundle@1");
    assert_eq!(v["circuit"]["format"], "burraco-td/circuit@1");
    assert_eq!(v["stages"].as_array().unwrap().len(), 2);
    // Another director cannot export it.
    app.create_user("dario", "director", "director pass 2")
        .await;
    let dario = app.another_browser();
    dario.login("dario", "director pass 2").await;
    assert_eq!(
        dario
            .get_status(&format!("/director/circuits/{id}/export.json"))
            .await,
        404
    );

    // A broken stage: nothing is imported, the stage is named.
    let mut broken = v.clone();
    broken["stages"][1]["rounds"][0]["tables"][0]["ns"] = json!(999);
    let res = app.import_file(&broken.to_string()).await;
    assert_eq!(res.status().as_u16(), 422);
    assert!(res.text().await.unwrap().contains("stages[1]"));
    // The bundle as exported: a new circuit of new tournaments, the same
    // ranking.
    let res = app.import_file(&bundle).await;
    assert_eq!(res.status().as_u16(), 303);
    let copy = crate::helpers::circuit_id_of(&res);
    assert_ne!(copy, id);
    let (a, _) = standings(&app, id).await;
    let (b, _) = standings(&app, copy).await;
    assert_eq!(a["standings"], b["standings"]);
    assert_eq!(a["finalists"], b["finalists"]);
    assert_ne!(
        a["stages"][0]["tournament_id"],
        b["stages"][0]["tournament_id"]
    );
}
