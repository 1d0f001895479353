//! The rules engine behind the JSON API and the CLI: same bodies, same answers.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{json, Value};

use crate::helpers::spawn_app;

const SHEET: &str = r#"{"profile":"codice","hands_per_round":3,"hands":[{"end":"closure","ns":{"clean":1,"semi_clean":0,"dirty":0,"super":0,"royal":0,"melded_points":245,"hand_points":0,"closed":true,"took_pozzetto":true},"ew":{"melded_points":0,"hand_points":35,"took_pozzetto":false}}],"declared":{"ns":545,"ew":-135}}"#;

fn cli(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_burraco-td"))
        .args(args)
        .env("LANG", "en_GB.UTF-8")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    if let Some(input) = stdin {
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
    } else {
        drop(child.stdin.take());
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

async fn post(app: &crate::helpers::TestApp, path: &str, body: &str) -> (u16, Value) {
    let res = app
        .client
        .post(app.url(path))
        .header("content-type", "application/json")
        .header("accept-language", "en")
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    let status = res.status().as_u16();
    assert!(res.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("application/json"));
    (status, res.json().await.unwrap())
}

#[tokio::test]
async fn check_sheet_over_http_and_cli_agree() {
    let app = spawn_app().await;
    let (status, body) = post(&app, "/api/v1/rules/check-sheet", SHEET).await;
    assert_eq!(status, 200);
    assert_eq!(body["hands"][0]["ns"]["total"], 545);
    assert_eq!(body["hands"][0]["ew"]["total"], -135);
    assert_eq!(body["totals"], json!({"ns": 545, "ew": -135}));
    assert_eq!(body["vp"], json!({"ns": 16, "ew": 4}));
    let codes: Vec<&str> = body["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["MISSING_HANDS"]);
    assert!(body["violations"][0]["hand"].is_null());

    let (code, stdout, _) = cli(&["rules", "check-sheet"], Some(SHEET));
    assert_eq!(code, 1, "valid input that breaks a rule");
    let cli_body: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(cli_body, body);
}

#[tokio::test]
async fn violations_name_the_hand_and_line_in_both_languages() {
    let app = spawn_app().await;
    let sheet = r#"{"hands":[{"end":"closure","ns":{"melded_points":240,"closed":true,"took_pozzetto":true},"ew":{"melded_points":100}}]}"#;
    let (status, body) = post(&app, "/api/v1/rules/check-sheet", sheet).await;
    assert_eq!(status, 200);
    let v = body["violations"].as_array().unwrap();
    let closed = v
        .iter()
        .find(|v| v["code"] == "CLOSED_WITHOUT_BURRACO")
        .expect("closing without a burraco");
    assert_eq!(closed["hand"], 1);
    assert_eq!(closed["line"], "ns");
    assert!(!closed["message"].as_str().unwrap().is_empty());
    let res = app
        .client
        .post(app.url("/api/v1/rules/check-sheet"))
        .header("accept-language", "it")
        .body(sheet)
        .send()
        .await
        .unwrap();
    let it: Value = res.json().await.unwrap();
    assert_ne!(
        it["violations"][0]["message"], body["violations"][0]["message"],
        "Italian differs from English"
    );
}

#[tokio::test]
async fn meld_vp_seat_draw_and_prizes_answer_as_documented() {
    let app = spawn_app().await;
    let (s, b) = post(
        &app,
        "/api/v1/rules/meld",
        r#"{"cards":["7H","8H","9H","10H","JH","QH","KH"]}"#,
    )
    .await;
    assert_eq!(s, 200);
    assert_eq!(
        b,
        json!({"valid": true, "kind": "sequence", "cards": 7, "points": 65, "burraco": "clean"})
    );
    let (_, b) = post(
        &app,
        "/api/v1/rules/meld",
        r#"{"cards":["7H","8H","JK","2C"]}"#,
    )
    .await;
    assert_eq!(b["valid"], false);
    assert!(b["reason"].as_str().unwrap().len() > 5);

    let (_, b) = post(&app, "/api/v1/rules/vp", r#"{"hands":3,"difference":-560}"#).await;
    assert_eq!(b, json!({"vp": [5, 15]}));
    let (_, b) = post(
        &app,
        "/api/v1/rules/seat-draw",
        r#"{"cards":["10H","KS","10D","JK"]}"#,
    )
    .await;
    assert_eq!(b, json!({"chooser": 4, "dealer": 1}));
    let (_, b) = post(
        &app,
        "/api/v1/rules/prizes",
        r#"{"entries":24,"entry_fee":"20.00","prize_share_percent":"70","guaranteed_pool":"0","scheme":["50","30","20"],"places":[1,2,2,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24]}"#,
    )
    .await;
    assert_eq!(b["pool"], "336.00");
    assert_eq!(b["organiser_fee"], "144.00");
    assert_eq!(b["prizes"][0], "168.00");
    assert_eq!(b["prizes"][1], "84.00");
    assert_eq!(b["prizes"][2], "84.00");
    assert_eq!(b["prizes"][3], "0.00");
}

#[tokio::test]
async fn api_errors_are_json_with_a_stable_code() {
    let app = spawn_app().await;
    let (s, b) = post(&app, "/api/v1/rules/check-sheet", "{not json").await;
    assert_eq!(s, 400);
    assert_eq!(b["error"]["code"], "invalid_json");
    let (s, b) = post(&app, "/api/v1/rules/meld", r#"{"cards":["7H","ZZ"]}"#).await;
    assert_eq!(s, 422);
    assert_eq!(b["error"]["code"], "invalid_card");
    assert!(b["error"]["message"].as_str().unwrap().contains("ZZ"));
    let (s, b) = post(
        &app,
        "/api/v1/rules/check-sheet",
        r#"{"hands":[{"end":"closure","ns":{"melded_points":"x"},"ew":{}}]}"#,
    )
    .await;
    assert!(s == 400 || s == 422);
    assert!(
        b["error"]["message"]
            .as_str()
            .unwrap()
            .contains("hands[0].ns.melded_points"),
        "{b}"
    );
    // Unknown API path and wrong method: JSON too.
    let res = app
        .client
        .get(app.url("/api/v1/rules/meld"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 405);
    let b: Value = res.json().await.unwrap();
    assert_eq!(b["error"]["code"], "method_not_allowed");
    let res = app
        .client
        .get(app.url("/api/v1/rules/nothing-here"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 404);
    let b: Value = res.json().await.unwrap();
    assert_eq!(b["error"]["code"], "not_found");
}

#[test]
fn cli_exit_codes_follow_the_contract() {
    let (code, out, _) = cli(
        &["rules", "meld", "7H", "8H", "9H", "10H", "JH", "QH", "KH"],
        None,
    );
    assert_eq!(code, 0);
    assert_eq!(
        serde_json::from_str::<Value>(&out).unwrap(),
        json!({"valid": true, "kind": "sequence", "cards": 7, "points": 65, "burraco": "clean"})
    );
    let (code, out, _) = cli(&["rules", "meld", "--profile", "classic", "JK", "2H"], None);
    assert_eq!(code, 1);
    assert_eq!(serde_json::from_str::<Value>(&out).unwrap()["valid"], false);
    let (code, _, err) = cli(&["rules", "meld", "7H", "1H", "9H"], None);
    assert_eq!(code, 2);
    assert!(err.contains("1H"), "{err}");

    let (code, out, _) = cli(&["rules", "vp", "--hands", "3", "--", "-560"], None);
    assert_eq!(code, 0);
    assert_eq!(out.trim(), r#"{"vp":[5,15]}"#);
    let (code, out, _) = cli(&["rules", "vp", "--hands", "4", "--", "1300"], None);
    assert_eq!(code, 0);
    assert_eq!(out.trim(), r#"{"vp":[16,4]}"#);

    let (code, out, _) = cli(&["rules", "seat-draw", "10H", "KS", "10D", "JK"], None);
    assert_eq!(code, 0);
    assert_eq!(out.trim(), r#"{"chooser":4,"dealer":1}"#);
    let (code, out, _) = cli(
        &[
            "rules",
            "seat-draw",
            "--suit-order",
            "SHDC",
            "10H",
            "10S",
            "5C",
            "5D",
        ],
        None,
    );
    assert_eq!(code, 0);
    assert_eq!(
        out.trim(),
        r#"{"chooser":2,"dealer":3}"#,
        "spades first: 10S chooses; 5C is the lowest of the other pair"
    );

    let (code, _, err) = cli(&["rules", "check-sheet"], Some("[1,2"));
    assert_eq!(code, 2);
    assert!(!err.is_empty());
    let (code, out, _) = cli(
        &["rules", "prizes"],
        Some(
            r#"{"entries":3,"entry_fee":"10","prize_share_percent":"100","scheme":["100"],"places":[1,1,1]}"#,
        ),
    );
    assert_eq!(code, 0);
    let b: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(b["prizes"], json!(["10.00", "10.00", "10.00"]));
}

#[test]
fn movement_cli_prints_the_plan_or_refuses_it() {
    let (code, out, _) = cli(
        &[
            "movement", "mitchell", "--pairs", "7", "--rounds", "4", "--seed", "3",
        ],
        None,
    );
    assert_eq!(code, 0);
    let b: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(b["tables"], 4);
    assert_eq!(b["rounds"].as_array().unwrap().len(), 4);
    for r in b["rounds"].as_array().unwrap() {
        assert!(r["bye"].is_u64(), "odd pairs: someone rests each round");
    }
    let (code, _, err) = cli(
        &[
            "movement",
            "mitchell",
            "--pairs",
            "8",
            "--rounds",
            "2",
            "--advance",
            "2",
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = cli(
        &[
            "movement",
            "mitchell",
            "--pairs",
            "8",
            "--rounds",
            "3",
            "--advance",
            "2",
        ],
        None,
    );
    assert_eq!(code, 2);
    assert!(err.contains("factor") || err.contains("fattore"), "{err}");
}

#[test]
fn standings_cli_reads_a_tournament_file() {
    use burraco_td::tournament_file::{fixtures, to_json};
    let file = fixtures::sample_tournament(12, 4, 7);
    let json = to_json(&file).unwrap();
    let (code, out, err) = cli(&["standings"], Some(&json));
    assert_eq!(code, 0, "{err}");
    let b: Value = serde_json::from_str(&out).unwrap();
    let rows = b["standings"].as_array().unwrap();
    assert_eq!(rows.len(), 12);
    assert_eq!(rows[0]["place"], 1);
    for key in ["pair", "vp", "mp_diff", "mp", "played", "byes"] {
        assert!(rows[0].get(key).is_some(), "{key}");
    }
    assert!(b["pool"].is_string());
    // The prizes add up to the pool.
    let total: f64 = b["prizes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["amount"].as_str().unwrap().parse::<f64>().unwrap())
        .sum();
    assert!((total - b["pool"].as_str().unwrap().parse::<f64>().unwrap()).abs() < 0.001);

    // A file path works too, and the result is the same.
    let path = std::env::temp_dir().join(format!("btd-{}.json", uuid::Uuid::new_v4()));
    std::fs::write(&path, &json).unwrap();
    let (code, out2, _) = cli(&["standings", path.to_str().unwrap()], None);
    std::fs::remove_file(&path).ok();
    assert_eq!(code, 0);
    assert_eq!(out, out2);

    // A sheet that breaks a rule: exit 1 with round and table.
    let mut broken = file.clone();
    let sheet = broken.rounds[1].tables[0].sheet.as_mut().expect("a sheet");
    sheet.hands[0].ns.melded_points = 12;
    let (code, _, err) = cli(&["standings"], Some(&to_json(&broken).unwrap()));
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains('2') && err.to_lowercase().contains("round"),
        "{err}"
    );

    // An unreadable file: exit 2 naming the place.
    let mut v: Value = serde_json::from_str(&json).unwrap();
    v["rounds"][1]["tables"][0]["ew"] = json!("seven");
    let (code, _, err) = cli(&["standings"], Some(&v.to_string()));
    assert_eq!(code, 2);
    assert!(err.contains("rounds[1].tables[0].ew"), "{err}");
}

#[test]
fn two_naturals_and_a_wild_card_make_a_meld() {
    // RULES.md §2: 7♥ 8♥ and a joker standing for the 9.
    let (code, out, err) = cli(&["rules", "meld", "7H", "8H", "JK"], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"valid\":true"), "{out}");
}

#[test]
fn serve_takes_its_flags_after_the_subcommand() {
    let (code, out, _) = cli(&["serve", "--help"], None);
    assert_eq!(code, 0);
    assert!(
        out.contains("--bind") && out.contains("--database-url"),
        "{out}"
    );
    // A bad value after `serve` is read as the flag's (and refused), not as
    // an unknown argument.
    let (code, _, err) = cli(&["serve", "--session-idle-minutes", "soon"], None);
    assert_eq!(code, 2);
    assert!(err.contains("--session-idle-minutes"), "{err}");
    assert!(!err.contains("unexpected argument"), "{err}");
}

/// The example the document gives for each rules operation is one the
/// engine takes (the fuzzer starts from them: `splitPrizes`' lacked its
/// scheme and `checkSheet`'s one hand had no VP scale, both refused 422).
#[tokio::test]
async fn every_documented_rules_example_is_answered_200() {
    let app = spawn_app().await;
    let doc: Value = app.get("/api/openapi.json").await.json().await.unwrap();
    let mut checked = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        if !path.starts_with("/api/v1/rules/") {
            continue;
        }
        let example = &item["post"]["requestBody"]["content"]["application/json"]["example"];
        assert!(example.is_object(), "{path} has no example");
        let (status, body) = post(&app, path, &example.to_string()).await;
        assert_eq!(status, 200, "{path}: {body}");
        checked += 1;
    }
    assert_eq!(checked, 5);
}
