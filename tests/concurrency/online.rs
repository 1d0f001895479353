//! Entries online (issue 36) for real: forty entries at the same moment
//! for ten places, then ten withdrawals at once, against running servers
//! (PostgreSQL: two instances on one database).

use std::time::Duration;

use serde_json::{json, Value};

use crate::builders::TournamentBuilder;
use crate::helpers::{TestDb, ADMIN, ADMIN_PW};
use crate::races::backend;
use crate::support::*;

const START: Duration = Duration::from_secs(30);

fn pair(i: usize) -> Value {
    json!({"players": [
        {"surname": format!("Rossi{i}"), "name": "Anna", "card": format!("K{i}A")},
        {"surname": format!("Bianchi{i}"), "name": "Luca", "card": format!("K{i}B")}],
        "email": format!("p{i}@example.org"), "consent": true})
}

async fn status_and_body(res: reqwest::Result<reqwest::Response>) -> (u16, Value) {
    match res {
        Ok(r) => {
            let s = r.status().as_u16();
            (s, r.json().await.unwrap_or(Value::Null))
        }
        Err(e) => (0, json!(e.to_string())),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn forty_entries_at_once_for_ten_places_and_ten_withdrawals_racing() {
    const N: usize = 40;
    let db = TestDb::new();
    create_admin_cli(&db.url(), ADMIN, ADMIN_PW);
    create_user_cli(&db.url(), "director", "dora", DIRECTOR_PW);
    let n = if db.is_postgres() { 2 } else { 1 };
    let mut servers: Vec<Server> = (0..n).map(|_| Server::start_with(&db.url(), &[])).collect();
    for s in &mut servers {
        assert!(s.wait_healthy(START).await, "{}", s.output());
    }
    let bases: Vec<String> = servers.iter().map(|s| s.address.clone()).collect();
    let tid = TournamentBuilder::new(&db_of(&db.url()), "Quaranta")
        .with(&[("online_entries", "on"), ("capacity", "10")])
        .build()
        .await
        .tid;
    let client = client();
    let jobs: Vec<_> = (1..=N)
        .map(|i| {
            let client = client.clone();
            let url = format!(
                "{}/api/v1/tournaments/{tid}/entries",
                bases[i % bases.len()]
            );
            async move { status_and_body(client.post(url).json(&pair(i)).send().await).await }
        })
        .collect();
    let answers = all_at_once(jobs).await;
    let statuses: Vec<u16> = answers.iter().map(|(s, _)| *s).collect();
    assert!(statuses.iter().all(|s| *s == 201), "{answers:?}");
    let mut numbers: Vec<i64> = answers
        .iter()
        .filter_map(|(_, v)| v["number"].as_i64())
        .collect();
    let mut positions: Vec<i64> = answers
        .iter()
        .filter_map(|(_, v)| v["position"].as_i64())
        .collect();
    numbers.sort_unstable();
    positions.sort_unstable();
    println!(
        "{N} entries at once for 10 places [{}, {n} instance(s)]: confirmed {numbers:?}, waiting {}",
        backend(&db),
        positions.len()
    );
    assert_eq!(numbers, (1..=10).collect::<Vec<_>>(), "exactly ten, no gap");
    assert_eq!(
        positions,
        (1..=30).collect::<Vec<_>>(),
        "the rest wait in order"
    );

    // The ten confirmed withdraw at once: the first ten waiting move in.
    let token = |v: &Value| v["token"].as_str().unwrap().to_string();
    let confirmed: Vec<String> = answers
        .iter()
        .filter(|(_, v)| v["status"] == "confirmed")
        .map(|(_, v)| token(v))
        .collect();
    let jobs: Vec<_> = confirmed
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let client = client.clone();
            let url = format!("{}/api/v1/entries/{t}", bases[i % bases.len()]);
            async move { status_and_body(client.delete(url).send().await).await }
        })
        .collect();
    let out = all_at_once(jobs).await;
    assert!(out.iter().all(|(s, _)| *s == 200), "{out:?}");
    let mut moved_in = Vec::new();
    for (_, v) in answers.iter().filter(|(_, v)| v["status"] == "waiting") {
        let url = format!("{}/api/v1/entries/{}", bases[0], token(v));
        let (s, e) = status_and_body(client.get(url).send().await).await;
        assert_eq!(s, 200, "{e}");
        let was = v["position"].as_i64().unwrap();
        if was <= 10 {
            assert_eq!(e["status"], "confirmed", "{was}: {e}");
            moved_in.push(e["number"].as_i64().unwrap());
        } else {
            assert_eq!(e["position"], json!(was - 10), "{e}");
        }
    }
    moved_in.sort_unstable();
    assert_eq!(
        moved_in,
        (11..=20).collect::<Vec<_>>(),
        "numbers follow, none twice"
    );
}
