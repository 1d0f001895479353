//! The JSON API under `/api/v1`: a whole tournament through the API alone,
//! the error shapes, the role checks, the public cached documents and the
//! generated OpenAPI document.

use std::process::Command;

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{spawn_app, TestApp};
use crate::table_side::sheet;

/// A staff member's API client.
struct Api {
    client: reqwest::Client,
    base: String,
    token: Option<String>,
}

struct Reply {
    status: StatusCode,
    body: Value,
    headers: reqwest::header::HeaderMap,
}

impl Api {
    fn anonymous(app: &TestApp) -> Api {
        Api {
            client: crate::helpers::new_client(),
            base: app.address.clone(),
            token: None,
        }
    }

    /// The API as `username`, with a token from `burraco-td create-token`.
    fn as_user(app: &TestApp, username: &str) -> Api {
        let out = Command::new(bin())
            .args(["create-token", username, "--name", "api test"])
            .env("DATABASE_URL", app.db.url())
            .output()
            .expect("run burraco-td");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        Api {
            client: crate::helpers::new_client(),
            base: app.address.clone(),
            token: Some(String::from_utf8(out.stdout).unwrap().trim().to_string()),
        }
    }

    /// POSTs `body`, expects `status` (see [`ok`]): the answer's body.
    async fn post_ok(&self, path: &str, body: Value, status: u16) -> Value {
        ok(&self.post(path, body).await, status).clone()
    }

    /// GETs `path`, expects `status` (see [`ok`]): the answer's body.
    async fn get_ok(&self, path: &str, status: u16) -> Value {
        ok(&self.get(path).await, status).clone()
    }

    /// PUTs `body`, expects `status` (see [`ok`]): the answer's body.
    async fn put_ok(&self, path: &str, body: Value, status: u16) -> Value {
        ok(&self.put(path, body).await, status).clone()
    }

    /// A new tournament from [`settings`]: its id.
    async fn create(&self, name: &str, rounds: u32, mitchell: u32) -> i64 {
        let created = self
            .post_ok("/api/v1/tournaments", settings(name, rounds, mitchell), 201)
            .await;
        created["id"].as_i64().unwrap()
    }

    async fn send(&self, method: reqwest::Method, path: &str, body: Option<&Value>) -> Reply {
        let mut req = self
            .client
            .request(method, format!("{}{}", self.base, path))
            .header("accept-language", "en");
        if let Some(t) = &self.token {
            req = req.bearer_auth(t);
        }
        if let Some(b) = body {
            req = req.json(b);
        }
        let res = req.send().await.expect("request");
        let status = res.status();
        let headers = res.headers().clone();
        let text = res.text().await.unwrap_or_default();
        let body = if text.is_empty() {
            Value::Null
        } else {
            serde_json::from_str(&text)
                .unwrap_or_else(|_| panic!("{path}: not JSON ({status}): {text}"))
        };
        Reply {
            status,
            body,
            headers,
        }
    }

    async fn get(&self, path: &str) -> Reply {
        self.send(reqwest::Method::GET, path, None).await
    }
    async fn post(&self, path: &str, body: Value) -> Reply {
        self.send(reqwest::Method::POST, path, Some(&body)).await
    }
    async fn put(&self, path: &str, body: Value) -> Reply {
        self.send(reqwest::Method::PUT, path, Some(&body)).await
    }

    /// Raw bytes with a content type.
    async fn raw(&self, path: &str, content_type: &str, body: Vec<u8>) -> Reply {
        let mut req = self
            .client
            .post(format!("{}{}", self.base, path))
            .header("content-type", content_type)
            .body(body);
        if let Some(t) = &self.token {
            req = req.bearer_auth(t);
        }
        let res = req.send().await.expect("request");
        let status = res.status();
        let headers = res.headers().clone();
        let text = res.text().await.unwrap_or_default();
        Reply {
            status,
            body: serde_json::from_str(&text)
                .unwrap_or_else(|_| panic!("{path}: not JSON ({status}): {text}")),
            headers,
        }
    }
}

#[track_caller]
fn ok(r: &Reply, status: u16) -> &Value {
    assert_eq!(r.status.as_u16(), status, "{}", r.body);
    assert!(
        r.headers.get("set-cookie").is_none(),
        "API responses set no cookie"
    );
    &r.body
}

#[track_caller]
fn error_code(r: &Reply, status: u16) -> String {
    assert_eq!(r.status.as_u16(), status, "{}", r.body);
    let ct = r.headers["content-type"].to_str().unwrap();
    assert!(ct.starts_with("application/json"), "{ct}");
    let e = &r.body["error"];
    assert!(e["message"].is_string(), "{}", r.body);
    e["code"].as_str().expect("a code").to_string()
}

/// The reply is the error `code` with `status`, in the one JSON shape.
#[track_caller]
fn assert_error(r: &Reply, status: u16, code: &str) {
    assert_eq!(error_code(r, status), code);
}

fn settings(name: &str, rounds: u32, mitchell: u32) -> Value {
    json!({
        "name": name, "date": "2026-11-23", "start_time": "20:30", "venue": "Circolo",
        "profile": "codice", "planned_rounds": rounds, "hands_per_round": 3,
        "mitchell_rounds": mitchell, "mitchell_advance": 1, "entry_fee": "10.00",
        "prize_share_percent": "70", "payout": [{"min_entries": 1, "percents": ["60", "40"]}]
    })
}

fn csv(pairs: usize) -> String {
    let mut s = String::from("cognome1;nome1;tessera1;circolo1;cognome2;nome2;tessera2;circolo2\n");
    for i in 1..=pairs {
        s.push_str(&format!("Verdi{i};Anna;;;Neri{i};Paolo;;\n"));
    }
    s
}

/// The binary: BURRACO_TD_BIN names another build of it (a target
/// directory shared by several checkouts may hold somebody else's).
pub fn bin() -> String {
    std::env::var("BURRACO_TD_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_burraco-td").to_string())
}

/// `burraco-td standings` on a file.
pub(crate) fn cli_standings(file: &str) -> Value {
    let (code, stdout, stderr) = crate::rules_api::cli(&["standings"], Some(file));
    assert_eq!(code, 0, "{stderr}");
    serde_json::from_str(&stdout).expect("CLI prints JSON")
}

/// An app with an admin, a director (dora) and a referee (remo).
async fn staffed() -> (TestApp, Api, Api) {
    let app = spawn_app().await;
    app.setup_admin().await;
    app.create_user("dora", "director", "director pass").await;
    app.create_user("remo", "referee", "referee pass").await;
    let dora = Api::as_user(&app, "dora");
    let remo = Api::as_user(&app, "remo");
    (app, dora, remo)
}

#[tokio::test]
async fn a_whole_tournament_through_the_api_alone() {
    let (app, dora, _) = staffed().await;

    // Create; read back.
    let t = dora
        .post("/api/v1/tournaments", settings("Lunedì", 3, 2))
        .await;
    let t = ok(&t, 201).clone();
    let tid = t["id"].as_i64().unwrap();
    assert_eq!(t["status"], "draft");
    assert_eq!(t["settings"]["planned_rounds"], 3);
    let base = format!("/api/v1/tournaments/{tid}");
    let list = dora.get("/api/v1/tournaments").await;
    assert!(ok(&list, 200)
        .as_array()
        .unwrap()
        .iter()
        .any(|x| x["id"] == tid));

    // Pairs: six from a CSV, two by hand, one corrected; all checked in.
    let r = dora
        .post(&format!("{base}/pairs/import"), json!({"csv": csv(6)}))
        .await;
    assert_eq!(ok(&r, 201)["imported"], 6);
    for i in 7..=8 {
        let r = dora
            .post(
                &format!("{base}/pairs"),
                json!({"p1_surname": format!("Gialli{i}"), "p1_name": "Eva",
                       "p2_surname": format!("Blu{i}"), "p2_name": "Ugo"}),
            )
            .await;
        assert_eq!(ok(&r, 201)["number"], i);
    }
    let pairs = dora.get_ok(&format!("{base}/pairs"), 200).await;
    let pairs = pairs.as_array().unwrap();
    assert_eq!(pairs.len(), 8);
    let first = pairs[0]["id"].as_i64().unwrap();
    let r = dora
        .put(
            &format!("{base}/pairs/{first}"),
            json!({"p1_surname": "Verdi", "p1_name": "Anna", "p2_surname": "Neri", "p2_name": "Paola"}),
        )
        .await;
    assert_eq!(ok(&r, 200)["p2_name"], "Paola");
    for p in pairs {
        let r = dora
            .post(
                &format!("{base}/pairs/{}/checkin", p["id"]),
                json!({"action": "check_in"}),
            )
            .await;
        assert_eq!(ok(&r, 200)["checked_in"], true);
    }

    // Start: round 1 drawn.
    dora.post_ok(&format!("{base}/start"), json!({}), 200).await;
    let mut penalty_pair = 0;
    for round in 1..=3 {
        if round > 1 {
            let r = dora
                .post(&format!("{base}/rounds"), json!({"round": round}))
                .await;
            assert_eq!(ok(&r, 201)["round"], round);
        }
        dora.post_ok(
            &format!("{base}/rounds/{round}/clock"),
            json!({"action": "start"}),
            200,
        )
        .await;
        if round == 1 {
            // An interruption at the tables: pause (a second click changes
            // nothing, as on the web page), resume; an unknown action is a 422.
            let clock = format!("{base}/rounds/{round}/clock");
            dora.post_ok(&clock, json!({"action": "pause"}), 200).await;
            dora.post_ok(&clock, json!({"action": "pause"}), 200).await;
            dora.post_ok(&clock, json!({"action": "resume"}), 200).await;
            let bad = dora.post(&clock, json!({"action": "stop"})).await;
            assert_eq!(bad.status.as_u16(), 422, "{:?}", bad.body);
        }
        let r = dora.get_ok(&format!("{base}/rounds/{round}"), 200).await;
        let tables = r["tables"].as_array().unwrap();
        assert_eq!(tables.len(), 4);
        for (i, table) in tables.iter().enumerate() {
            let no = table["table"].as_i64().unwrap();
            let path = format!("{base}/rounds/{round}/tables/{no}/sheet");
            let s = dora
                .put(
                    &path,
                    json!({"sheet": sheet(100 + 20 * i as i64 + 10 * round, 40 + 5 * i as i64)}),
                )
                .await;
            let s = ok(&s, 200);
            assert_eq!(s["version"], 1);
            assert!(s["ns_vp"].as_i64().unwrap() >= s["ew_vp"].as_i64().unwrap());
            let back = dora.get_ok(&path, 200).await;
            assert_eq!(back["sheet"]["hands"].as_array().unwrap().len(), 3);
        }
        if round == 1 {
            penalty_pair = tables[0]["ns_pair"].as_i64().unwrap();
        }
    }

    // Penalties: one given, one given and withdrawn.
    let pid_of = |n: i64| {
        pairs.iter().find(|p| p["number"] == n).unwrap()["id"]
            .as_i64()
            .unwrap()
    };
    let r = dora
        .post(
            &format!("{base}/penalties"),
            json!({"pair": pid_of(penalty_pair), "round": 2, "kind": "vp", "amount": 1, "reason": "slow play"}),
        )
        .await;
    ok(&r, 201);
    let r = dora
        .post(
            &format!("{base}/penalties"),
            json!({"pair": pid_of(1), "round": 1, "kind": "vp", "amount": 2, "reason": "wrong pair"}),
        )
        .await;
    let wrong = ok(&r, 201)["id"].as_i64().unwrap();
    let r = dora
        .post(
            &format!("{base}/penalties/{wrong}/withdraw"),
            json!({"reason": "given by mistake"}),
        )
        .await;
    ok(&r, 200);
    let list = dora.get_ok(&format!("{base}/penalties"), 200).await;
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), 2);
    assert_eq!(list.iter().filter(|p| p["withdrawn"] == true).count(), 1);

    // The public standings equal the CLI's on the exported file.
    let public = Api::anonymous(&app);
    let st = public.get_ok(&format!("{base}/standings"), 200).await;
    let export = dora.get(&format!("{base}/export")).await;
    let file = ok(&export, 200).clone();
    let cli = cli_standings(&file.to_string());
    let api_rows = st["rows"].as_array().unwrap();
    let cli_rows = cli["standings"].as_array().unwrap();
    assert_eq!(api_rows.len(), 8);
    assert_eq!(api_rows.len(), cli_rows.len());
    for (a, c) in api_rows.iter().zip(cli_rows) {
        for key in ["place", "pair", "vp", "mp_diff", "mp", "played", "byes"] {
            assert_eq!(a[key], c[key], "{key} of {a} vs {c}");
        }
    }
    let penalised = api_rows.iter().find(|r| r["pair"] == penalty_pair).unwrap();
    assert_eq!(penalised["penalty_vp"], 1, "{penalised}");

    // Close; the tournament is final.
    dora.post_ok(&format!("{base}/close"), json!({}), 200).await;
    let t = dora.get_ok(&base, 200).await;
    assert_eq!(t["status"], "finished");
    let code = error_code(&dora.post(&format!("{base}/close"), json!({})).await, 409);
    assert_eq!(code, "not_running");
    let st = public.get_ok(&format!("{base}/standings"), 200).await;
    assert_eq!(st["status"], "finished");
}

#[tokio::test]
async fn errors_have_one_json_shape() {
    let (app, dora, remo) = staffed().await;
    let anon = Api::anonymous(&app);

    // 401 without a token.
    assert_error(&anon.get("/api/v1/tournaments").await, 401, "missing_token");
    let r = anon.post("/api/v1/tournaments", settings("x", 3, 2)).await;
    assert_error(&r, 401, "missing_token");
    let mut wrong = Api::anonymous(&app);
    wrong.token = Some("btd_not-a-real-token".into());
    assert_error(
        &wrong.get("/api/v1/tournaments").await,
        401,
        "invalid_token",
    );

    // 422: an empty body names every missing field together.
    let r = dora
        .raw("/api/v1/tournaments", "application/json", Vec::new())
        .await;
    assert_error(&r, 422, "invalid_input");
    let fields = r.body["error"]["fields"].as_object().unwrap();
    for f in [
        "name",
        "date",
        "start_time",
        "profile",
        "planned_rounds",
        "hands_per_round",
        "mitchell_rounds",
        "mitchell_advance",
        "entry_fee",
        "prize_share_percent",
        "payout",
    ] {
        assert!(fields.contains_key(f), "{f} missing from {fields:?}");
    }
    // A wrong type and a bad value, each under its own path.
    let mut bad = settings("x", 3, 2);
    bad["planned_rounds"] = json!("four");
    bad["payout"][0]["min_entries"] = json!(-1);
    let r = dora.post("/api/v1/tournaments", bad).await;
    assert_error(&r, 422, "invalid_input");
    let fields = r.body["error"]["fields"].as_object().unwrap();
    assert!(fields.contains_key("planned_rounds"), "{fields:?}");
    assert!(fields.contains_key("payout[0].min_entries"), "{fields:?}");
    // A value the rules refuse (the service's own check).
    let mut bad = settings("x", 3, 2);
    bad["mitchell_rounds"] = json!(9);
    bad["date"] = json!("yesterday");
    let r = dora.post("/api/v1/tournaments", bad).await;
    assert_error(&r, 422, "invalid_input");
    let fields = r.body["error"]["fields"].as_object().unwrap();
    assert!(
        fields.contains_key("mitchell_rounds") && fields.contains_key("date"),
        "{fields:?}"
    );

    // 400 malformed JSON, 415 another content type, 413 too large.
    let r = dora
        .raw(
            "/api/v1/tournaments",
            "application/json",
            b"{\"name\":".to_vec(),
        )
        .await;
    assert_error(&r, 400, "invalid_json");
    let r = dora
        .raw("/api/v1/tournaments", "text/plain", b"{}".to_vec())
        .await;
    assert_error(&r, 415, "unsupported_media_type");
    let big = vec![b' '; 3 * 1024 * 1024];
    let r = dora
        .raw("/api/v1/tournaments", "application/json", big)
        .await;
    assert_eq!(r.status.as_u16(), 413);
    assert!(r.body["error"]["code"].is_string());

    // 404: nothing there, not a number, not yours.
    assert_error(
        &dora.get("/api/v1/tournaments/999999").await,
        404,
        "not_found",
    );
    assert_error(&dora.get("/api/v1/tournaments/abc").await, 404, "not_found");
    assert_error(
        &dora
            .get("/api/v1/tournaments/99999999999999999999999")
            .await,
        404,
        "not_found",
    );
    let t = dora.create("Mine", 3, 2).await;
    let (mine, close) = (
        format!("/api/v1/tournaments/{t}"),
        format!("/api/v1/tournaments/{t}/close"),
    );
    assert_error(&remo.get(&mine).await, 404, "not_found");

    // 403: a referee cannot direct, whatever the tournament.
    assert_error(&remo.post(&close, json!({})).await, 403, "forbidden");
    let nope = settings("Nope", 3, 2);
    assert_error(
        &remo.post("/api/v1/tournaments", nope).await,
        403,
        "forbidden",
    );

    // 409: a draft cannot be closed, nor its clock started.
    assert_error(&dora.post(&close, json!({})).await, 409, "not_running");
    // A bad enum value is 422 with its field.
    let r = dora
        .post(
            &format!("/api/v1/tournaments/{t}/rounds/1/clock"),
            json!({"action": "explode"}),
        )
        .await;
    assert_error(&r, 422, "invalid_input");
    assert!(r.body["error"]["fields"]["action"].is_string());

    // 405 for a known path with another method, in JSON.
    let r = dora
        .send(reqwest::Method::DELETE, "/api/v1/tournaments", None)
        .await;
    assert_error(&r, 405, "method_not_allowed");
    assert!(r.headers["allow"].to_str().unwrap().contains("POST"));
}

#[tokio::test]
async fn standings_and_pair_cards_are_public_and_cached() {
    let (app, dora, _) = staffed().await;
    let t = dora.create("Pubblico", 3, 2).await;
    let base = format!("/api/v1/tournaments/{t}");
    dora.post_ok(&format!("{base}/pairs/import"), json!({"csv": csv(4)}), 201)
        .await;
    for p in dora
        .get_ok(&format!("{base}/pairs"), 200)
        .await
        .as_array()
        .unwrap()
    {
        dora.post_ok(
            &format!("{base}/pairs/{}/checkin", p["id"]),
            json!({"action": "check_in"}),
            200,
        )
        .await;
    }
    dora.post_ok(&format!("{base}/start"), json!({}), 200).await;

    let anon = Api::anonymous(&app);
    for path in [format!("{base}/standings"), format!("{base}/pairs/1/card")] {
        let r = anon.get(&path).await;
        assert_eq!(r.status.as_u16(), 200, "{path}: {}", r.body);
        assert!(r.headers.get("set-cookie").is_none());
        let etag = r.headers["etag"].to_str().unwrap().to_string();
        let again = anon
            .client
            .get(format!("{}{}", anon.base, path))
            .header("if-none-match", &etag)
            .header("accept-language", "en")
            .send()
            .await
            .unwrap();
        assert_eq!(again.status().as_u16(), 304, "{path}");
    }
    let card = anon.get(&format!("{base}/pairs/1/card")).await;
    assert_eq!(card.body["pair"], 1);
    assert!(card.body["card"]["rounds"].is_array());
    assert_error(
        &anon.get(&format!("{base}/pairs/99/card")).await,
        404,
        "not_found",
    );
    assert_error(
        &anon.get("/api/v1/tournaments/424242/pairs/1/card").await,
        404,
        "not_found",
    );
}

/// The operations the issue names (its interface).
const REQUIRED: [&str; 34] = [
    "listTournaments",
    "createTournament",
    "getTournament",
    "updateTournament",
    "closeTournament",
    "reopenTournament",
    "startTournament",
    "exportTournament",
    "importTournament",
    "listPairs",
    "addPair",
    "updatePair",
    "checkInPair",
    "withdrawPair",
    "importPairsCsv",
    "getRound",
    "nextRound",
    "clockAction",
    "getSheet",
    "saveSheet",
    "setAdjustedScore",
    "listPenalties",
    "addPenalty",
    "withdrawPenalty",
    "getStandings",
    "getPairCard",
    "getTableScore",
    "submitTableSheet",
    "confirmTableSheet",
    "checkSheet",
    "readMeld",
    "convertVp",
    "seatDraw",
    "splitPrizes",
];

/// Every `/api/v1` path the web layer registers (handler attributes,
/// `route`, `resource` and `scope` calls): a scope counts as a prefix.
fn api_paths_in_source() -> Vec<String> {
    let mut out = Vec::new();
    let mut dirs = vec![std::path::PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src/web"
    ))];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let mut from = 0;
            while let Some(i) = text[from..].find("\"/api/v1") {
                let at = from + i;
                let before: String = text[..at]
                    .chars()
                    .rev()
                    .filter(|c| !c.is_whitespace())
                    .take(12)
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect();
                let s = &text[at + 1..];
                let end = s.find('"').unwrap_or(s.len());
                let registers = [
                    "route(",
                    "scope(",
                    "resource(",
                    "get(",
                    "post(",
                    "put(",
                    "delete(",
                    "patch(",
                ]
                .iter()
                .any(|m| before.ends_with(m));
                if registers {
                    out.push(s[..end].trim_end_matches('/').to_string());
                }
                from = at + 1 + end;
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

#[tokio::test]
async fn the_openapi_document_describes_every_operation() {
    let app = spawn_app().await;
    let r = Api::anonymous(&app).get("/api/openapi.json").await;
    let doc = ok(&r, 200).clone();
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    assert_eq!(
        doc["components"]["securitySchemes"]["bearer"]["scheme"],
        "bearer"
    );
    let paths = doc["paths"].as_object().unwrap();
    let mut ids = Vec::new();
    for (path, item) in paths {
        for (method, op) in item.as_object().unwrap() {
            let id = op["operationId"]
                .as_str()
                .unwrap_or_else(|| panic!("{method} {path}: no operationId"));
            ids.push(id.to_string());
            let responses = op["responses"].as_object().unwrap();
            assert!(
                responses.keys().any(|s| s.starts_with('2')),
                "{id}: a success response"
            );
            for (status, res) in responses {
                if status.starts_with('4') || status.starts_with('5') {
                    assert_eq!(
                        res["content"]["application/json"]["schema"]["$ref"],
                        "#/components/schemas/ErrorBody",
                        "{id} {status}"
                    );
                }
            }
            if op.get("security").is_some() {
                assert!(
                    responses.contains_key("401") && responses.contains_key("403"),
                    "{id}"
                );
            }
            if op.get("requestBody").is_some() {
                assert!(responses.contains_key("422"), "{id}");
            }
        }
    }
    for id in REQUIRED {
        assert!(ids.iter().any(|i| i == id), "{id} is in the document");
    }
    let mut unique = ids.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), ids.len(), "operationIds are unique");
    // Public operations need no token.
    let st = &paths["/api/v1/tournaments/{id}/standings"]["get"];
    assert!(st.get("security").is_none());
    assert!(paths["/api/v1/tournaments/{id}/pairs/{number}/card"]["get"]
        .get("security")
        .is_none());
    assert!(paths["/api/v1/tournaments"]["post"]
        .get("security")
        .is_some());

    // Every /api/v1 route of the app is in the document (a scope's prefix
    // is covered by the paths under it).
    for p in api_paths_in_source() {
        assert!(
            paths.contains_key(&p) || paths.keys().any(|k| k.starts_with(&format!("{p}/"))),
            "{p} is registered but not documented"
        );
    }
}

#[tokio::test]
async fn settings_withdrawals_adjusted_scores_reopen_and_import() {
    let (app, dora, remo) = staffed().await;
    let admin = Api::as_user(&app, crate::helpers::ADMIN);
    let tid = dora.create("Martedì", 2, 1).await;
    let base = format!("/api/v1/tournaments/{tid}");

    // Settings: saved whole, read back.
    let mut s = settings("Martedì sera", 2, 1);
    s["venue"] = json!("Bar Sport");
    let t = dora.put_ok(&base, s, 200).await;
    assert_eq!(t["settings"]["name"], "Martedì sera");
    assert_eq!(t["settings"]["venue"], "Bar Sport");

    // Six pairs; one withdrawn before the draw, reinstated, withdrawn again.
    dora.post_ok(&format!("{base}/pairs/import"), json!({"csv": csv(6)}), 201)
        .await;
    let pairs = dora.get_ok(&format!("{base}/pairs"), 200).await;
    let pairs = pairs.as_array().unwrap().clone();
    for p in &pairs {
        dora.post_ok(
            &format!("{base}/pairs/{}/checkin", p["id"]),
            json!({"action": "check_in"}),
            200,
        )
        .await;
    }
    let last = pairs[5]["id"].as_i64().unwrap();
    let w = format!("{base}/pairs/{last}/withdraw");
    let r = dora.post(&w, json!({"action": "withdraw"})).await;
    assert_eq!(ok(&r, 200)["withdrawn_from_round"], 1);
    let r = dora.post(&w, json!({"action": "reinstate"})).await;
    assert!(ok(&r, 200)["withdrawn_from_round"].is_null());
    dora.post_ok(&w, json!({"action": "withdraw"}), 200).await;
    // A pair of another tournament's id does not exist here.
    assert_error(
        &dora
            .post(
                &format!("{base}/pairs/999999/withdraw"),
                json!({"action": "withdraw"}),
            )
            .await,
        404,
        "not_found",
    );

    dora.post_ok(&format!("{base}/start"), json!({}), 200).await;
    // The game-shaping settings are kept once started.
    let mut s = settings("Martedì sera", 5, 1);
    s["venue"] = json!("Bar Sport");
    let t = dora.put_ok(&base, s, 200).await;
    assert_eq!(t["settings"]["planned_rounds"], 2);
    assert_eq!(t["status"], "running");

    for round in 1..=2 {
        if round == 2 {
            dora.post_ok(&format!("{base}/rounds"), json!({"round": 2}), 201)
                .await;
            // The same request again returns the same round.
            let again = dora
                .post(&format!("{base}/rounds"), json!({"round": 2}))
                .await;
            assert_eq!(ok(&again, 201)["round"], 2);
        }
        // Not the referee's tournament: it does not exist for them.
        assert_error(
            &remo.get(&format!("{base}/rounds/{round}")).await,
            404,
            "not_found",
        );
        let r = dora.get_ok(&format!("{base}/rounds/{round}"), 200).await;
        let tables = r["tables"].as_array().unwrap();
        // Five pairs: two tables and a bye.
        assert_eq!(tables.len(), 2, "{r}");
        assert_eq!(r["resting"].as_array().unwrap().len(), 1, "{r}");
        for (i, table) in tables.iter().enumerate() {
            let no = table["table"].as_i64().unwrap();
            if i == 0 {
                // An adjusted score instead of a sheet.
                let r = dora
                    .put(
                        &format!("{base}/rounds/{round}/tables/{no}/adjusted"),
                        json!({"ns_vp": 12, "ew_vp": 8, "reason": "table late"}),
                    )
                    .await;
                let s = ok(&r, 200);
                assert_eq!(s["adjusted"]["ns_vp"], 12);
                assert!(s["sheet"].is_null());
                continue;
            }
            // A sheet that breaks a rule is refused, nothing saved.
            let mut bad = sheet(103, 40);
            bad["hands"][0]["ns"]["melded_points"] = json!(103);
            let path = format!("{base}/rounds/{round}/tables/{no}/sheet");
            let r = dora.put(&path, json!({"sheet": bad})).await;
            assert_error(&r, 422, "sheet_rejected");
            let fields = r.body["error"]["fields"].as_object().unwrap();
            assert!(
                fields.keys().any(|k| k.starts_with("sheet.hands[0]")),
                "the broken rule under its hand: {fields:?}"
            );
            assert!(dora.get_ok(&path, 200).await["version"].is_null());
            dora.put_ok(&path, json!({"sheet": sheet(100, 40)}), 200)
                .await;
            // A correction needs the version read and a reason.
            let r = dora
                .put(&path, json!({"sheet": sheet(120, 40), "version": 1}))
                .await;
            assert_error(&r, 422, "sheet_rejected");
            let r = dora
                .put(
                    &path,
                    json!({"sheet": sheet(120, 40), "version": 1, "reason": "typo"}),
                )
                .await;
            assert_eq!(ok(&r, 200)["version"], 2);
            // A stale version is a conflict, never a lost update.
            let r = dora
                .put(
                    &path,
                    json!({"sheet": sheet(140, 40), "version": 1, "reason": "again"}),
                )
                .await;
            assert_error(&r, 409, "sheet_changed");
        }
    }
    dora.post_ok(&format!("{base}/close"), json!({}), 200).await;
    // Closed: changes are conflicts.
    let r = dora
        .post(
            &format!("{base}/pairs"),
            json!({"p1_surname": "A", "p1_name": "B", "p2_surname": "C", "p2_name": "D"}),
        )
        .await;
    assert_error(&r, 409, "finished");
    // Reopen needs a reason; then it runs again and closes again.
    let r = dora
        .post(&format!("{base}/reopen"), json!({"reason": ""}))
        .await;
    assert_error(&r, 422, "invalid_input");
    dora.post_ok(
        &format!("{base}/reopen"),
        json!({"reason": "wrong sheet"}),
        200,
    )
    .await;
    assert_eq!(dora.get_ok(&base, 200).await["status"], "running");
    dora.post_ok(&format!("{base}/close"), json!({}), 200).await;

    // The exported file imports as a new tournament (administrators only),
    // with the same standings.
    let file = dora.get_ok(&format!("{base}/export"), 200).await;
    assert_error(
        &dora.post("/api/v1/tournaments/import", file.clone()).await,
        403,
        "forbidden",
    );
    let r = admin.post("/api/v1/tournaments/import", file).await;
    let copy = ok(&r, 201)["id"].as_i64().unwrap();
    let anon = Api::anonymous(&app);
    let a = anon.get_ok(&format!("{base}/standings"), 200).await;
    let b = anon
        .get_ok(&format!("/api/v1/tournaments/{copy}/standings"), 200)
        .await;
    assert_eq!(a["rows"], b["rows"]);
    let r = admin
        .post("/api/v1/tournaments/import", json!({"name": "not a file"}))
        .await;
    assert_error(&r, 422, "invalid_input");
}

/// A team tournament through the API alone (issue 25): created as teams,
/// its settings, four teams, check-in, the start (`startTournament`),
/// line-ups by staff and by the captain with the team code (braked), the
/// sheets, the team standings (`getStandings`, `kind` teams) equal to the
/// CLI's over the export, a team's card, the next round (`nextRound`).
#[tokio::test]
async fn a_team_tournament_through_the_api() {
    let (app, dora, remo) = staffed().await;
    let mut body = settings("Squadre via API", 3, 3);
    body["kind"] = json!("teams");
    let tid = dora.post_ok("/api/v1/tournaments", body, 201).await["id"]
        .as_i64()
        .unwrap();
    let got = dora.get(&format!("/api/v1/tournaments/{tid}")).await;
    assert_eq!(ok(&got, 200)["settings"]["kind"], "teams");
    // A scale of nine bounds is refused naming the field.
    let r = dora
        .put(
            &format!("/api/v1/tournaments/{tid}/team-settings"),
            json!({"scoring": "scale", "scale": [1, 2, 3, 4, 5, 6, 7, 8, 9]}),
        )
        .await;
    assert_error(&r, 422, "invalid_input");
    assert!(r.body["error"]["fields"]["scale"].is_string(), "{}", r.body);
    dora.put_ok(
        &format!("/api/v1/tournaments/{tid}/team-settings"),
        json!({"scoring": "tables", "groups": 1}),
        200,
    )
    .await;
    for name in ["Sole", "Luna", "Mare", "Vento"] {
        let players: Vec<Value> = ["a", "b", "c", "d"]
            .iter()
            .map(|s| json!({"surname": format!("{name}{s}"), "name": "X"}))
            .collect();
        let r = dora
            .post(
                &format!("/api/v1/tournaments/{tid}/teams"),
                json!({"name": name, "players": players}),
            )
            .await;
        assert_eq!(ok(&r, 201)["name"], name);
    }
    // A team of three is refused, each missing player named.
    let r = dora
        .post(
            &format!("/api/v1/tournaments/{tid}/teams"),
            json!({"name": "Tre", "players": [{"surname": "A", "name": "B"}, {"surname": "C", "name": "D"}, {"surname": "E", "name": "F"}]}),
        )
        .await;
    assert_error(&r, 422, "invalid_input");
    assert!(
        r.body["error"]["fields"]["p4_surname"].is_string(),
        "{}",
        r.body
    );
    // A referee cannot register teams.
    let r = remo
        .post(
            &format!("/api/v1/tournaments/{tid}/teams"),
            json!({"name": "X", "players": []}),
        )
        .await;
    assert_error(&r, 403, "forbidden");
    let teams = dora
        .get_ok(&format!("/api/v1/tournaments/{tid}/teams"), 200)
        .await;
    for t in teams.as_array().unwrap() {
        let id = t["id"].as_i64().unwrap();
        dora.post_ok(
            &format!("/api/v1/tournaments/{tid}/teams/{id}/checkin"),
            json!({"checked_in": true}),
            200,
        )
        .await;
    }
    dora.post_ok(&format!("/api/v1/tournaments/{tid}/start"), json!({}), 200)
        .await;
    let teams = dora
        .get_ok(&format!("/api/v1/tournaments/{tid}/teams"), 200)
        .await;
    let code = |n: i64| -> String {
        teams
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["number"] == n)
            .unwrap()["code"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let lineup = |team: u32| format!("/api/v1/tournaments/{tid}/teams/{team}/lineup");
    // Staff seat team 1's line-up; the captain of team 2 seats hers.
    dora.put_ok(
        &lineup(1),
        json!({"round": 1, "pairs": [[0, 2], [1, 3]]}),
        200,
    )
    .await;
    let anon = Api::anonymous(&app);
    let r = anon
        .post(
            &lineup(2),
            json!({"round": 1, "pairs": [[0, 3], [1, 2]], "code": code(2)}),
        )
        .await;
    ok(&r, 200);
    // Twice the same player: refused.
    let r = anon
        .post(
            &lineup(2),
            json!({"round": 1, "pairs": [[0, 0], [1, 2]], "code": code(2)}),
        )
        .await;
    assert_error(&r, 422, "invalid_input");
    // Wrong codes for team 3 from one address: ten refused as wrong, then
    // the brake, even for the right code.
    for _ in 0..10 {
        let r = anon
            .post(
                &lineup(3),
                json!({"round": 1, "pairs": [[0, 1], [2, 3]], "code": "000000"}),
            )
            .await;
        assert_error(&r, 422, "invalid_input");
    }
    let r = anon
        .post(
            &lineup(3),
            json!({"round": 1, "pairs": [[0, 1], [2, 3]], "code": code(3)}),
        )
        .await;
    assert_error(&r, 429, "too_many_attempts");
    assert!(r.headers.get("retry-after").is_some());

    // A referee of the tournament reads the teams, never their codes.
    app.assign(&format!("/director/t/{tid}"), "remo", "referee")
        .await;
    let seen = remo
        .get_ok(&format!("/api/v1/tournaments/{tid}/teams"), 200)
        .await;
    assert_eq!(seen.as_array().unwrap().len(), 4);
    assert!(
        seen.as_array().unwrap().iter().all(|t| t["code"].is_null()),
        "{seen}"
    );
    // Every table's sheet from the desk (the pairs' operation).
    let round = dora
        .get_ok(&format!("/api/v1/tournaments/{tid}/rounds/1"), 200)
        .await;
    let tables = round["tables"].as_array().unwrap().clone();
    assert_eq!(tables.len(), 4, "two matches on two tables each");
    for (i, t) in tables.iter().enumerate() {
        let n = t["table"].as_i64().unwrap();
        dora.put_ok(
            &format!("/api/v1/tournaments/{tid}/rounds/1/tables/{n}/sheet"),
            json!({"sheet": sheet(100 + 50 * i as i64, 80)}),
            200,
        )
        .await;
    }
    // Line-ups are final now.
    let r = dora
        .put(&lineup(1), json!({"round": 1, "pairs": [[0, 1], [2, 3]]}))
        .await;
    assert_error(&r, 409, "lineup_final");

    let st = anon
        .get_ok(&format!("/api/v1/tournaments/{tid}/standings"), 200)
        .await;
    assert_eq!(st["kind"], "teams");
    let rows = st["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    let export = dora.get(&format!("/api/v1/tournaments/{tid}/export")).await;
    let file = ok(&export, 200).to_string();
    let cli = cli_standings(&file);
    let cli_rows = cli["standings"].as_array().unwrap();
    for (a, b) in rows.iter().zip(cli_rows) {
        assert_eq!(
            (&a["team"], &a["vp"], &a["mp_diff"]),
            (&b["team"], &b["vp"], &b["mp_diff"])
        );
    }
    let card = anon
        .get_ok(&format!("/api/v1/tournaments/{tid}/teams/1/card"), 200)
        .await;
    assert_eq!(card["rounds"][0]["tables"][0]["players"], json!([0, 2]));
    assert_eq!(card["rounds"][0]["outcome"], "played");
    // A pairs document of a team tournament does not exist.
    let r = anon
        .get(&format!("/api/v1/tournaments/{tid}/pairs/1/card"))
        .await;
    assert_error(&r, 404, "not_found");
    // Round 2: the round robin goes on.
    let r = dora
        .post(&format!("/api/v1/tournaments/{tid}/rounds"), json!({}))
        .await;
    assert_eq!(ok(&r, 201)["round"], 2);
    let round2 = dora
        .get_ok(&format!("/api/v1/tournaments/{tid}/rounds/2"), 200)
        .await;
    assert_eq!(round2["tables"].as_array().unwrap().len(), 4);
}

/// Issue 32: card numbers are read trimmed (RULES.md §11) wherever they
/// come in: the API's pair form, a CSV import, and a tournament file (a
/// circuit stage's card with spaces around it no longer invalidates the
/// whole file).
#[tokio::test]
async fn cards_are_read_trimmed_everywhere() {
    let (app, dora, _) = staffed().await;
    let admin = Api::as_user(&app, crate::helpers::ADMIN);
    let t = dora
        .post("/api/v1/tournaments", settings("Tessere", 3, 2))
        .await;
    let tid = ok(&t, 201)["id"].as_i64().unwrap();
    let base = format!("/api/v1/tournaments/{tid}");
    let r = dora
        .post(
            &format!("{base}/pairs"),
            json!({"p1_surname": "Gialli", "p1_name": "Eva", "p1_card": " fb100037 ",
                   "p2_surname": "Blu", "p2_name": "Ugo", "p2_card": "  FB100038  "}),
        )
        .await;
    ok(&r, 201);
    let csv = "cognome1;nome1;tessera1;circolo1;cognome2;nome2;tessera2;circolo2\n\
               Verdi;Anna; FB100039 ;;Neri;Paolo;  fb100040;\n";
    let r = dora
        .post(&format!("{base}/pairs/import"), json!({"csv": csv}))
        .await;
    assert_eq!(ok(&r, 201)["imported"], 1);
    let pairs = dora.get_ok(&format!("{base}/pairs"), 200).await;
    let cards: Vec<&str> = pairs
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| [p["p1_card"].as_str(), p["p2_card"].as_str()])
        .flatten()
        .collect();
    assert_eq!(cards, ["FB100037", "FB100038", "FB100039", "FB100040"]);
    // A tournament file whose card has spaces around it imports, trimmed.
    let mut file = dora.get_ok(&format!("{base}/export"), 200).await;
    file["pairs"][0]["players"][0]["card"] = json!(" FB100037 ");
    let r = admin.post("/api/v1/tournaments/import", file).await;
    let copy = ok(&r, 201)["id"].as_i64().unwrap();
    let back = admin
        .get_ok(&format!("/api/v1/tournaments/{copy}/export"), 200)
        .await;
    assert_eq!(back["pairs"][0]["players"][0]["card"], "FB100037");
}

/// The plan of a big field over JSON (RULES.md §13, §15): set at creation,
/// given back by getTournament, a wrong plan named by field, changed by an
/// update.
#[tokio::test]
async fn the_plan_in_groups_and_the_level_through_the_api() {
    let (_app, dora, _) = staffed().await;
    let mut body = settings("Nazionale via API", 11, 6);
    body["group_rounds"] = json!(3);
    body["group_form"] = json!("pure");
    body["group_plan"] = json!({"tables": [7, 9, 9]});
    body["group_prizes"] = json!([
        {"group": "A", "share_percent": "50", "scheme": ["40", "30", "20", "10"]},
        {"group": "B", "share_percent": "30", "scheme": ["50", "30", "20"]},
        {"group": "C", "share_percent": "20", "scheme": ["60", "40"]}
    ]);
    body["level"] = json!("national");
    let id = dora.post_ok("/api/v1/tournaments", body.clone(), 201).await["id"]
        .as_i64()
        .unwrap();
    let base = format!("/api/v1/tournaments/{id}");
    let t = dora.get_ok(&base, 200).await;
    let s = if t["settings"].is_object() {
        &t["settings"]
    } else {
        &t
    };
    assert_eq!(s["group_rounds"], 3, "{t}");
    assert_eq!(s["group_form"], "pure");
    assert_eq!(s["group_plan"], json!({"tables": [7, 9, 9]}));
    assert_eq!(
        s["group_prizes"][2],
        json!({"group": "C", "share_percent": "20", "scheme": ["60", "40"]})
    );
    assert_eq!(s["level"], "national");
    // Shares that do not add up to 100: 422 naming the field.
    body["group_prizes"][0]["share_percent"] = json!("40");
    let r = dora.post("/api/v1/tournaments", body.clone()).await;
    assert_eq!(r.status.as_u16(), 422, "{:?}", r.body);
    assert!(r.body.to_string().contains("group_prizes"), "{}", r.body);
    // An update to 2 groups by count.
    let mut update = settings("Nazionale via API", 11, 6);
    update["group_rounds"] = json!(3);
    update["group_plan"] = json!({"count": 2});
    update["level"] = json!("regional");
    ok(&dora.put(&base, update).await, 200);
    let t = dora.get_ok(&base, 200).await;
    let s = if t["settings"].is_object() {
        &t["settings"]
    } else {
        &t
    };
    assert_eq!(s["group_plan"], json!({"count": 2}));
    assert_eq!(s["group_prizes"], Value::Null);
    assert_eq!(s["level"], "regional");
}
