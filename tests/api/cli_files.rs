//! The file commands a club runs: `burraco-td circuit` (RULES.md §11,
//! FORMAT.md "The circuit file") and `burraco-td standings` on a team
//! tournament (§12).

use std::process::Command;

use burraco_td::tournament_file::{self, fixtures, Status};
use serde_json::Value;

fn bin() -> String {
    std::env::var("BURRACO_TD_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_burraco-td").to_string())
}

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
