//! The file commands a club runs: `burraco-td circuit` (RULES.md §11,
//! FORMAT.md "The circuit file") and `burraco-td standings` on a team
//! tournament (§12) or an individual one (§14, with `next-round`).

use std::process::Command;

use burraco_td::tournament_file::{self, fixtures, Status};
use serde_json::Value;

use crate::api_v1::bin;

struct Dir(std::path::PathBuf);

impl Dir {
    fn new() -> Dir {
        let d = std::env::temp_dir().join(format!("btd_cli_{}", uuid::Uuid::new_v4().simple()));
        std::fs::create_dir_all(&d).unwrap();
        Dir(d)
    }
    fn write(&self, name: &str, text: &str) -> String {
        let p = self.0.join(name);
        std::fs::write(&p, text).unwrap();
        p.display().to_string()
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(bin()).args(args).output().expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_circuit_command_ranks_the_season_and_names_a_broken_stage() {
    let dir = Dir::new();
    let circuit = dir.write(
        "circuit.json",
        r#"{"format":"burraco-td/circuit@1","name":"Inverno","rank":"player",
            "points":{"method":"placing","first":"entries","step":5,"min":0},
            "best_of":2,"finals":{"stage_top_percent":20}}"#,
    );
    let mut stages = Vec::new();
    for seed in 1..=3 {
        let mut f = fixtures::sample_tournament(8, 3, seed);
        f.status = Some(Status::Finished);
        stages.push(dir.write(
            &format!("t{seed}.json"),
            &tournament_file::to_json(&f).unwrap(),
        ));
    }
    let mut args = vec!["circuit", circuit.as_str()];
    args.extend(stages.iter().map(String::as_str));
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let rows = v["standings"].as_array().unwrap();
    assert!(!rows.is_empty());
    assert_eq!(rows[0]["place"], 1);
    assert!(rows[0]["player"]["surname"].is_string());
    assert!(
        rows[0]["points"].as_str().unwrap().contains('.'),
        "two decimals"
    );
    assert!(
        rows[0]["counted"].as_array().unwrap().len() <= 2,
        "best 2 of 3"
    );
    assert!(!v["finalists"].as_array().unwrap().is_empty());

    // A stage that is not a tournament file: exit 1, the file named.
    let broken = dir.write("broken.json", "{\"format\": \"burraco-td/tournament@1\"}");
    let (code, _, err) = run(&["circuit", &circuit, &stages[0], &broken]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("broken.json"), "{err}");
    // A file that cannot be read: exit 2.
    let (code, _, _) = run(&["circuit", &circuit, "/nonexistent/t.json"]);
    assert_eq!(code, 2);
}

#[test]
fn standings_of_a_team_tournament_name_teams() {
    let dir = Dir::new();
    let f = fixtures::sample_team_tournament(6, 3, 7);
    let path = dir.write("teams.json", &tournament_file::teams_to_json(&f).unwrap());
    let (code, out, err) = run(&["standings", &path]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let rows = v["standings"].as_array().unwrap();
    assert_eq!(rows.len(), 6);
    assert!(rows[0]["team"].is_number(), "{out}");
    assert!(rows[0].get("pair").is_none());
}

/// The file of a test's SQLite database (the CLI opens it as the server does).
fn sqlite_path(app: &crate::helpers::TestApp) -> String {
    match &app.db {
        crate::helpers::TestDb::Sqlite(p) => p.display().to_string(),
        crate::helpers::TestDb::Postgres { .. } => unreachable!("a SQLite test"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn backup_copies_a_live_database_with_every_acknowledged_write() {
    let db = crate::helpers::TestDb::sqlite();
    let (app, _dora) = crate::tournaments::director_with(db, |_| {}).await;
    let t = app.tournament("Copia").pairs(30).build().await.path;
    let path = sqlite_path(&app);
    // More pairs registered while the copy is made.
    let writer = {
        let dora = app.another_browser();
        dora.login("dora", "director pass").await;
        let t = t.clone();
        tokio::spawn(async move {
            for i in 0..20 {
                let res = dora
                    .add_pair(
                        &t,
                        &[
                            ("p1_surname", &format!("Tardi{i}")),
                            ("p1_name", "Anna"),
                            ("p2_surname", &format!("Ultimi{i}")),
                            ("p2_name", "Carlo"),
                        ],
                    )
                    .await;
                assert_eq!(res.status(), 303);
            }
        })
    };
    let dir = Dir::new();
    let target = dir.0.join("copy.db").display().to_string();
    let out = tokio::task::spawn_blocking({
        let (path, target) = (path.clone(), target.clone());
        move || {
            Command::new(bin())
                .args(["backup", &target])
                .env("DATABASE_URL", &path)
                .output()
                .unwrap()
        }
    })
    .await
    .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    writer.await.unwrap();
    // The copy opens, is whole, and has every pair acknowledged before it.
    let (n, check) = crate::peek::sqlite_file_pairs_and_check(&target);
    assert!((30..=50).contains(&n), "{n} pairs in the copy");
    assert_eq!(check, "ok");
    // A second backup into the same file is refused.
    let out = Command::new(bin())
        .args(["backup", &target])
        .env("DATABASE_URL", &path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn import_from_the_shell_gives_the_owner_and_the_codes() {
    let db = crate::helpers::TestDb::sqlite();
    let (app, _dora) = crate::tournaments::director_with(db, |_| {}).await;
    let dir = Dir::new();
    let mut f = fixtures::sample_tournament(8, 2, 5);
    f.status = Some(Status::Running);
    let file = dir.write("t.json", &tournament_file::to_json(&f).unwrap());
    let path = sqlite_path(&app);
    let run_import = |owner: &str| {
        Command::new(bin())
            .args(["import", "--owner", owner, &file])
            .env("DATABASE_URL", &path)
            .output()
            .unwrap()
    };
    let out = run_import("nobody");
    assert_eq!(out.status.code(), Some(2), "an unknown owner is named");
    assert!(String::from_utf8_lossy(&out.stderr).contains("owner"));
    let out = run_import("Dora");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let tid: i64 = stdout.trim().rsplit(' ').next().unwrap().parse().unwrap();
    // Dora owns it: it is on her list; the running tournament has its codes.
    let dora = app.another_browser();
    dora.login("dora", "director pass").await;
    let list = dora.get_html("/director/tournaments").await;
    assert!(list.contains(&format!("/director/t/{tid}\"")), "{list}");
    let cards = dora
        .get_html(&format!("/director/t/{tid}/rounds/1/cards"))
        .await;
    assert!(
        cards.contains("data-table-code=\""),
        "table codes from the shell"
    );
    let moves = dora
        .get_html(&format!("/director/t/{tid}/movement-cards"))
        .await;
    assert!(
        moves.contains("data-pair-code=\""),
        "pair codes from the shell"
    );
}

/// `sample-tournament` writes only files the program reads: more pairs
/// than a file holds is refused with the limit named, and nothing written;
/// the largest allowed field validates.
#[test]
fn sample_tournament_keeps_to_the_file_limit() {
    let max = tournament_file::MAX_PAIRS;
    let (code, out, err) = run(&[
        "sample-tournament",
        "--pairs",
        &(max + 1).to_string(),
        "--rounds",
        "1",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty(), "nothing written: {out}");
    assert!(err.contains(&max.to_string()), "names the limit: {err}");
    let (code, out, err) = run(&[
        "sample-tournament",
        "--pairs",
        &max.to_string(),
        "--rounds",
        "1",
    ]);
    assert_eq!(code, 0, "{err}");
    let file = tournament_file::parse(&out).expect("parses");
    assert!(
        tournament_file::validate(&file).is_ok(),
        "the largest sample validates"
    );
}

#[test]
fn next_round_draws_follows_the_plan_into_groups_and_says_when_it_is_over() {
    let dir = Dir::new();
    // No round yet: the draw, from the seed only.
    let fresh = dir.write(
        "fresh.json",
        &tournament_file::to_json(&fixtures::sample_tournament(9, 0, 1)).unwrap(),
    );
    let (code, out, err) = run(&["next-round", &fresh, "--seed", "5"]);
    assert_eq!(code, 0, "{err}");
    let round: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(round["number"], 1);
    assert_eq!(round["tables"].as_array().unwrap().len(), 4);
    assert!(round["bye"].is_u64(), "{out}");
    assert_eq!(run(&["next-round", &fresh, "--seed", "5"]).1, out);
    // Two rounds played, the third in groups: the cut comes with it.
    let mut f = fixtures::sample_tournament(8, 2, 1);
    f.status = None;
    f.movements = Some(vec![
        tournament_file::MovementKind::Mitchell,
        tournament_file::MovementKind::Mitchell,
        tournament_file::MovementKind::DanishGroups,
    ]);
    f.planned_rounds = Some(3);
    f.group_plan = Some(burraco_td::movement::groups::GroupPlan::Count(2));
    let grouped = dir.write("grouped.json", &tournament_file::to_json(&f).unwrap());
    let (code, out, err) = run(&["next-round", &grouped]);
    assert_eq!(code, 0, "{err}");
    let round: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(round["number"], 3);
    assert_eq!(round["movement"], "danish_groups");
    assert_eq!(round["tables"][0]["group"], "A");
    assert_eq!(round["tables"][3]["group"], "B");
    assert_eq!(round["groups"].as_array().unwrap().len(), 2);
    // The plan is complete: exit 1 with the reason.
    let done = dir.write(
        "done.json",
        &tournament_file::to_json(&fixtures::sample_tournament(8, 3, 1)).unwrap(),
    );
    let (code, out, err) = run(&["next-round", &done, "--lang", "en"]);
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(err.contains("The plan is complete"), "{err}");
}

#[test]
fn an_individual_evening_from_the_shell_draws_scores_and_ranks_players() {
    let dir = Dir::new();
    let players: Vec<Value> = (1..=9)
        .map(|n| serde_json::json!({"number": n, "surname": format!("Rossi{n}"), "name": "Maria"}))
        .collect();
    let mut file = serde_json::json!({
        "format": "burraco-td/tournament@1", "kind": "individual", "name": "Individuale",
        "date": "2026-11-20", "hands_per_round": 3, "entry_fee": "10.00",
        "prize_share_percent": "70", "payout": [{"min_entries": 1, "scheme": ["100"]}],
        "players": players, "rounds": []
    });
    let fresh = dir.write("fresh.json", &file.to_string());
    let (code, out, err) = run(&["next-round", &fresh, "--seed", "9"]);
    assert_eq!(code, 0, "{err}");
    let mut round: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(round["movement"], "draw");
    assert_eq!(round["tables"].as_array().unwrap().len(), 2);
    assert_eq!(round["bye"].as_array().unwrap().len(), 1);
    let sheet = serde_json::to_value(fixtures::simple_sheet(600, 200, 3)).unwrap();
    for t in round["tables"].as_array_mut().unwrap() {
        t["sheet"] = sheet.clone();
    }
    file["rounds"] = Value::Array(vec![round]);
    let played = dir.write("played.json", &file.to_string());
    let (code, out, err) = run(&["standings", &played]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let rows = v["standings"].as_array().unwrap();
    assert_eq!(rows.len(), 9);
    assert!(
        rows[0]["player"].is_number() && rows[0].get("pair").is_none(),
        "{out}"
    );
    // The four NS players won 14–6 and share the first place and the prize.
    assert_eq!(rows[3]["place"], 1);
    assert_eq!(v["prizes"].as_array().unwrap().len(), 4);
    assert!(v["prizes"][0]["player"].is_number());
    let (code, out, err) = run(&["next-round", &played]);
    assert_eq!(code, 0, "{err}");
    let next: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (next["number"].clone(), next["movement"].clone()),
        (2.into(), "danish".into())
    );
}
