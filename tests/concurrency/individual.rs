//! Races on individual tournaments (issue 35), on both databases: the next
//! round asked ten times at once is seated once; the two players of a
//! table's other line confirming its sheet at the same moment count it
//! once, as it was entered; `nextRound` over the API, on PostgreSQL spread
//! over two instances, seats one round.

use serde_json::{json, Value};

use crate::confirm::{post_json, sheet_json};
use crate::races::backend;
use crate::support::*;

/// The tables of round `n` of an individual export.
fn tables(file: &Value, n: i64) -> Vec<Value> {
    rounds_of(file)
        .iter()
        .find(|r| r["number"].as_i64() == Some(n))
        .and_then(|r| r["tables"].as_array())
        .cloned()
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn race_individual_next_round_ten_at_once() {
    const N: usize = 10;
    let (app, dora) = with_director().await;
    let tid = app
        .tournament("Individuale")
        .players(22)
        .set("planned_rounds", "4")
        .played(1)
        .build()
        .await
        .tid;
    let clients = Staff::logins(&app.address, "dora", DIRECTOR_PW, N).await;
    let jobs: Vec<_> = clients
        .into_iter()
        .map(|s| async move {
            s.post(
                &format!("/director/t/{tid}/rounds"),
                &fields(&[("confirm", "1"), ("round", "2")]),
            )
            .await
        })
        .collect();
    let answers = all_at_once(jobs).await;
    let tally = Tally::of(&answers);
    let file = export(&dora, tid).await;
    assert_eq!(file["kind"], "individual");
    let rounds: Vec<i64> = rounds_of(&file)
        .iter()
        .filter_map(|r| r["number"].as_i64())
        .collect();
    println!(
        "race individual next round [{}]: {N} requests, rounds now {rounds:?}, statuses {tally}",
        backend(&app.db)
    );
    assert_eq!(tally.count_5xx(), 0, "no 5xx: {tally}");
    assert_eq!(rounds, vec![1, 2], "exactly one round 2");
    assert!(
        answers.iter().all(|a| a.status == 303
            && a.location
                .starts_with(&format!("/director/t/{tid}/rounds/2"))),
        "every answer leads to round 2: {answers:?}"
    );
    assert_eq!(tables(&file, 2).len(), 5);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn race_two_confirmations_of_one_individual_table() {
    let (app, dora) = with_director().await;
    let tid = app
        .tournament("Individuale")
        .players(8)
        .set("planned_rounds", "3")
        .drawn()
        .build()
        .await
        .tid;
    let file = export(&dora, tid).await;
    let phone = reqwest::Client::new();
    let url = |code: &str, what: &str| format!("{}/api/v1/score/{code}/{what}", app.address);
    for t in tables(&file, 1) {
        let table = t["table"].as_i64().unwrap() as i32;
        let code = crate::peek::table_code(&app, tid, table);
        let code_of = |line: &str, i: usize| {
            crate::peek::individual_code(&app, tid, t[line][i].as_u64().unwrap() as u32)
        };
        let ns = code_of("ns", 0);
        let (s, _) = post_json(
            phone.clone(),
            url(&code, "sheet"),
            json!({"pair_code": ns, "round": 1, "sheet": sheet_json(100 + 10 * table as i64)}),
        )
        .await;
        assert_eq!(s, 200);
        // Both players of the EW line confirm at the same moment, each
        // with their own code.
        let confirm = |c: reqwest::Client, who: String| {
            post_json(
                c,
                url(&code, "confirm"),
                json!({"pair_code": who, "agree": true, "entry_version": 1}),
            )
        };
        let (a, b) = tokio::join!(
            confirm(phone.clone(), code_of("ew", 0)),
            confirm(reqwest::Client::new(), code_of("ew", 1))
        );
        let statuses = [a.0, b.0];
        assert!(
            statuses.iter().all(|s| *s == 200 || *s == 409),
            "table {table}: {statuses:?} {a:?} {b:?}"
        );
        assert!(statuses.contains(&200), "table {table}: one counts");
    }
    let file = export(&dora, tid).await;
    for t in tables(&file, 1) {
        let table = t["table"].as_i64().unwrap();
        assert_eq!(
            t["sheet"]["hands"][0]["ns"]["melded_points"].as_i64(),
            Some(100 + 10 * table),
            "table {table}: the sheet as entered, once"
        );
    }
    println!(
        "race individual confirmations [{}]: {} tables confirmed",
        backend(&app.db),
        tables(&file, 1).len()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn race_individual_next_round_over_the_api_on_two_instances() {
    const N: usize = 12;
    let db = crate::helpers::TestDb::new();
    let (servers, bases, token, dora) = race_servers(&db).await;
    let n = servers.len();
    let tid = TournamentBuilder::new(&db_of(&db.url()), "Individuale conteso")
        .owner("dora")
        .players(22)
        .set("planned_rounds", "4")
        .played(1)
        .build()
        .await
        .tid;
    let answers = next_round_burst(&bases, tid, &token, json!({"round": 2}), N).await;
    let t = Tally::of(&answers);
    let file = export(&dora, tid).await;
    println!(
        "{N} concurrent nextRound of an individual tournament [{}, {n} instance(s)]: answers {t}",
        backend(&db)
    );
    assert_eq!(t.count_5xx(), 0, "{t}");
    assert_eq!(t.count(201), N, "round 2 named: every call answers it: {t}");
    let rounds: Vec<i64> = rounds_of(&file)
        .iter()
        .filter_map(|r| r["number"].as_i64())
        .collect();
    assert_eq!(rounds, vec![1, 2], "exactly one round 2");
    assert_eq!(tables(&file, 2).len(), 5, "22 players: 5 tables, 2 resting");
}
