//! The first round in groups (RULES.md §13) raced: many `nextRound` calls
//! at once, on PostgreSQL spread over two instances, draw one round and
//! make one cut.

use serde_json::json;

use crate::helpers::TestDb;
use crate::races::backend;
use crate::support::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_cut_raced_by_many_calls_is_made_once() {
    const N: usize = 12;
    let db = TestDb::new();
    let (servers, bases, token, dora) = race_servers(&db).await;
    let n = servers.len();
    // 24 pairs, 5 rounds: 2 Mitchell, 1 Danish, 2 in groups of 6 tables;
    // 3 rounds played, so the next round makes the cut.
    let tid = TournamentBuilder::new(&db_of(&db.url()), "Gironi contesi")
        .owner("dora")
        .with(&[
            ("planned_rounds", "5"),
            ("mitchell_rounds", "2"),
            ("group_rounds", "2"),
            ("group_tables", "6, 6"),
        ])
        .pairs(24)
        .played(3)
        .build()
        .await
        .tid;
    let answers = next_round_burst(&bases, tid, &token, json!({"round": 4}), N).await;
    let t = Tally::of(&answers);
    let file = export(&dora, tid).await;
    println!(
        "{N} concurrent nextRound making the cut [{}, {n} instance(s)]: answers {t}",
        backend(&db)
    );
    assert_eq!(t.count_5xx(), 0, "{t}");
    assert_eq!(t.count(201), N, "round 4 named: every call answers it: {t}");
    assert_eq!(rounds_of(&file).len(), 4, "one round drawn");
    let groups = file["groups"].as_array().expect("the cut is made");
    assert_eq!(groups.len(), 2);
    let mut all: Vec<u64> = groups
        .iter()
        .flat_map(|g| {
            g["pairs"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_u64().unwrap())
        })
        .collect();
    all.sort_unstable();
    assert_eq!(
        all,
        (1..=24).collect::<Vec<u64>>(),
        "every pair in one group, once"
    );
    let round4 = &rounds_of(&file)[3];
    assert_eq!(round4["tables"].as_array().unwrap().len(), 12);
}
