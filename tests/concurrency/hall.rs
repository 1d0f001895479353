//! Issue 34: a hall entering and confirming at once. Entries lock their own
//! table only and do not move the tournament's revision; a confirmation
//! bumps it with its commit not waiting for the disk under the lock. At
//! every table at the same moment: both pairs enter (and NS taps twice),
//! then the other pair confirms twice at once while the entering pair tries
//! too. No 5xx, no lost update: each table's entry version counts every
//! accepted entry, exactly one confirmation per table counts the entry it
//! read, the revision goes up once per counted sheet and not for an entry.
//! Runs on SQLite, and on PostgreSQL with TEST_DATABASE_URL.

use std::collections::HashMap;

use serde_json::{json, Value};

use crate::confirm::{post_json, sheet_json};
use crate::peek;
use crate::races::backend;
use crate::support::*;
use burraco_td::ids::TournamentId;

async fn revision(db: &burraco_td::db::Db, tid: i64) -> i64 {
    burraco_td::services::current_revision(db, TournamentId(tid))
        .await
        .expect("the revision")
        .expect("the tournament")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn hall_enters_and_confirms_at_once() {
    const TABLES: usize = 24;
    let db = crate::helpers::TestDb::new();
    let kind = backend(&db);
    let app = crate::helpers::spawn_app_with(db, |_| {}).await;
    app.setup_admin().await;
    app.create_user("dora", "director", DIRECTOR_PW).await;
    let dora = Staff::login(&app.address, "dora", DIRECTOR_PW).await;
    let tid = running_tournament(&app.handle, "dora", "Sala", TABLES * 2).await;
    let file = export(&dora, tid).await;
    let seats = tables_of(&file, 1);
    assert_eq!(seats.len(), TABLES);
    let pair_code = |n: i64| peek::pair_code(&app.handle, tid, n as i32).expect("a pair code");
    let tables: Vec<(i64, String, String, String)> = seats
        .iter()
        .map(|t| {
            (
                t.table,
                peek::table_code(&app.handle, tid, t.table as i32),
                pair_code(t.ns),
                pair_code(t.ew),
            )
        })
        .collect();
    let phone = reqwest::Client::new();
    let url = |code: &str, what: &str| format!("{}/api/v1/score/{code}/{what}", app.address);

    // Wave 1: at every table NS enters twice and EW once, all at once.
    let before_entries = revision(&app.handle, tid).await;
    let mut tasks = Vec::new();
    for (k, (_, code, ns, ew)) in tables.iter().enumerate() {
        let k = k as i64;
        for (pair, mark) in [(ns, 100 + 5 * k), (ns, 300 + 5 * k), (ew, 500 + 5 * k)] {
            let body = json!({"pair_code": pair, "round": 1, "sheet": sheet_json(mark)});
            let (c, u) = (phone.clone(), url(code, "sheet"));
            tasks.push(tokio::spawn(async move {
                let (s, v) = post_json(c, u, body).await;
                (k as usize, mark, s, v)
            }));
        }
    }
    let mut accepted: HashMap<usize, Vec<(i64, i64)>> = HashMap::new();
    let mut refused = 0;
    for t in tasks {
        let (k, mark, s, v) = t.await.unwrap();
        match s {
            200 => accepted
                .entry(k)
                .or_default()
                .push((v["entry_version"].as_i64().expect("a version"), mark)),
            409 => {
                assert_eq!(v["error"]["code"], "entry_changed", "{v}");
                refused += 1;
            }
            other => panic!("table {k}: an entry answered {other}: {v}"),
        }
    }
    assert_eq!(
        revision(&app.handle, tid).await,
        before_entries,
        "an entry waiting for confirmation changes no public page"
    );
    // No lost update: the versions of a table's accepted entries are 1..n,
    // each once, and the entry shown is the last one accepted.
    let mut shown = Vec::new();
    for (k, (_, code, _, _)) in tables.iter().enumerate() {
        let mut got = accepted.remove(&k).unwrap_or_default();
        got.sort();
        let versions: Vec<i64> = got.iter().map(|(v, _)| *v).collect();
        let want: Vec<i64> = (1..=got.len() as i64).collect();
        assert_eq!(versions, want, "table {k}: {got:?}");
        let view: Value = phone
            .get(format!("{}/api/v1/score/{code}", app.address))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let (last_version, last_mark) = *got.last().expect("an entry accepted");
        assert_eq!(view["entry_version"].as_i64(), Some(last_version));
        assert_eq!(
            view["sheet"]["hands"][0]["ns"]["melded_points"].as_i64(),
            Some(last_mark)
        );
        // The other pair confirms: the entry's author is NS for marks
        // under 500.
        shown.push((last_version, last_mark, last_mark >= 500));
    }

    // Wave 2: the other pair confirms twice at once, the author tries too.
    let before_confirms = revision(&app.handle, tid).await;
    let mut tasks = Vec::new();
    for (k, (_, code, ns, ew)) in tables.iter().enumerate() {
        let (version, _, by_ew) = shown[k];
        let (other, author) = if by_ew { (ns, ew) } else { (ew, ns) };
        for pair in [other, other, author] {
            let body = json!({"pair_code": pair, "agree": true, "entry_version": version});
            let (c, u) = (phone.clone(), url(code, "confirm"));
            let by_author = pair == author;
            tasks.push(tokio::spawn(async move {
                let (s, v) = post_json(c, u, body).await;
                (k, by_author, s, v)
            }));
        }
    }
    let mut counted = vec![0; TABLES];
    for t in tasks {
        let (k, by_author, s, v) = t.await.unwrap();
        match (by_author, s) {
            (false, 200) => {
                assert_eq!(v["status"], "confirmed", "{v}");
                counted[k] += 1;
            }
            (false, 409) => assert_eq!(v["error"]["code"], "already_confirmed", "{v}"),
            // The author may not confirm its own entry (or finds it counted).
            (true, 403) => assert_eq!(v["error"]["code"], "same_pair", "{v}"),
            (true, 409) => assert_eq!(v["error"]["code"], "already_confirmed", "{v}"),
            other => panic!("table {k}: a confirmation answered {other:?}: {v}"),
        }
    }
    assert_eq!(
        counted,
        vec![1; TABLES],
        "one confirmation counts per table"
    );
    assert_eq!(
        revision(&app.handle, tid).await,
        before_confirms + TABLES as i64,
        "every counted sheet moves the revision once"
    );
    let file = export(&dora, tid).await;
    for (k, (table, _, _, _)) in tables.iter().enumerate() {
        assert_eq!(
            sheet_mark(&file, 1, *table),
            Some(shown[k].1),
            "table {table}"
        );
    }
    assert_eq!(
        peek::audit_like(&app.handle, Some(tid), "table.sheet_confirmed").len(),
        TABLES
    );
    println!(
        "hall_enters_and_confirms_at_once on {kind}: {TABLES} tables, 3 entries and 3 confirmations each at once ({refused} entries refused as changed), one counted sheet per table, revision +{TABLES}, 0 5xx"
    );
}
