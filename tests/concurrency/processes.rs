//! The real binary: two instances on one PostgreSQL database, and kill -9
//! under load.

use std::time::Duration;

use crate::helpers::{TestDb, ADMIN, ADMIN_PW};
use crate::races::backend;
use crate::support::*;

const START: Duration = Duration::from_secs(30);

/// Two instances, A and B, on one fresh PostgreSQL database with the
/// administrator, both serving, her logged in on A, and her running
/// tournament `name` of 8 pairs (its id); `None` (the test `what` says it
/// is skipped) without TEST_DATABASE_URL.
async fn two_instances(what: &str, name: &str) -> Option<(TestDb, Server, Server, Staff, i64)> {
    let db = TestDb::new();
    if !db.is_postgres() {
        println!("{what}: skipped (needs TEST_DATABASE_URL)");
        return None;
    }
    let url = db.url();
    create_admin_cli(&url, ADMIN, ADMIN_PW);
    let mut a = Server::start(&url);
    let mut b = Server::start(&url);
    assert!(a.wait_healthy(START).await, "A serves: {}", a.output());
    assert!(b.wait_healthy(START).await, "B serves: {}", b.output());
    let sa = Staff::login(&a.address, ADMIN, ADMIN_PW).await;
    let tid = running_tournament(&db_of(&url), ADMIN, name, 8).await;
    Some((db, a, b, sa, tid))
}

/// 6a. Two instances started at the same moment on a fresh PostgreSQL
/// database both serve (three fresh databases).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn race_two_instances_start_on_fresh_postgres() {
    const TRIALS: usize = 3;
    if !TestDb::new().is_postgres() {
        println!("race two instances: skipped (needs TEST_DATABASE_URL)");
        return;
    }
    let mut failed = Vec::new();
    for trial in 1..=TRIALS {
        let db = TestDb::new();
        let url = db.url();
        let mut a = Server::start(&url);
        let mut b = Server::start(&url);
        let (ha, hb) = tokio::join!(a.wait_healthy(START), b.wait_healthy(START));
        if !(ha && hb) {
            failed.push(format!(
                "trial {trial}: A healthy {ha}, B healthy {hb}\nA: {}\nB: {}",
                a.output(),
                b.output()
            ));
        }
        drop((a, b));
        drop(db);
    }
    println!(
        "race two instances [postgresql]: {TRIALS} fresh databases × 2 instances started at once, {} trials with an instance not serving /healthz",
        failed.len()
    );
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
}

/// 6b. A sheet saved through instance A shows on instance B's public pair
/// card at the next request.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_see_each_others_sheets() {
    let Some((_db, _a, b, sa, tid)) = two_instances("cross-instance sheet", "Due server").await
    else {
        return;
    };
    let t = tables_of(&export(&sa, tid).await, 1)[0];
    let public = client();
    let card = format!("{}/t/{tid}/pairs/{}", b.address, t.ns);
    let standings = format!("{}/t/{tid}", b.address);
    let text = |url: String| {
        let c = public.clone();
        async move {
            let res = c.get(url).send().await.expect("GET on B");
            assert_eq!(res.status().as_u16(), 200);
            res.text().await.expect("body")
        }
    };
    let before = text(card.clone()).await;
    let standings_before = text(standings.clone()).await;
    assert!(!before.contains("MP 1.260"), "no score yet");
    // NS 3 × 420 = 1260.
    let saved = sa.post(&sheet_path(tid, 1, t.table), &sheet(120, 90)).await;
    assert_eq!(saved.status, 303, "sheet saved through A: {saved:?}");
    let after = text(card).await;
    let standings_after = text(standings).await;
    let card_shows = after.contains("MP 1.260");
    let standings_changed = standings_after != standings_before;
    println!(
        "cross-instance sheet [postgresql]: saved through A, B's pair card shows it at the next request: {card_shows}, B's standings page changed: {standings_changed}"
    );
    assert!(card_shows, "B's pair card shows the sheet saved through A");
    assert!(standings_changed, "B's standings page changed");
}

/// 6c. SIGKILL while clients save sheets; after a restart every sheet that
/// was answered 303 is in the export. Each client owns one table and saves
/// it again and again (a correction each time, with a new mark); a table's
/// stored mark must be its last acknowledged one, or the one still in flight
/// when the process died (committed but never answered).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn kill_9_under_load_loses_no_acknowledged_sheet() {
    const PAIRS: usize = 32; // 16 tables, one client each
    const LOAD: Duration = Duration::from_millis(1500);
    let db = TestDb::new();
    let url = db.url();
    create_admin_cli(&url, ADMIN, ADMIN_PW);
    let mut server = Server::start(&url);
    assert!(server.wait_healthy(START).await, "{}", server.output());
    let admin = Staff::login(&server.address, ADMIN, ADMIN_PW).await;
    let tid = running_tournament(&db_of(&url), ADMIN, "Kill", PAIRS).await;
    let tables: Vec<i64> = tables_of(&export(&admin, tid).await, 1)
        .iter()
        .map(|t| t.table)
        .collect();
    // The k-th save of a table carries mark 100 + 5k (k = 0, 1, …).
    let mark = |k: i64| 100 + 5 * (k % 300);
    let mut workers = Vec::new();
    for &t in &tables {
        let s = Staff::login(&server.address, ADMIN, ADMIN_PW).await;
        workers.push(tokio::spawn(async move {
            let mut tally = Tally::default();
            let mut acked: i64 = 0; // saves acknowledged
            loop {
                let f = if acked == 0 {
                    sheet(mark(0), 90)
                } else {
                    correction(mark(acked), acked)
                };
                let a = s.post(&sheet_path(tid, 1, t), &f).await;
                tally.add(&a);
                match a.status {
                    303 => acked += 1,
                    0 => break, // the server is gone
                    _ => {}
                }
            }
            (t, acked, tally)
        }));
    }
    tokio::time::sleep(LOAD).await;
    server.kill9();
    let mut tally = Tally::default();
    let mut acked = Vec::new();
    for w in workers {
        let (t, n, ta) = w.await.expect("worker");
        tally.merge(&ta);
        acked.push((t, n));
    }
    let total_acked: i64 = acked.iter().map(|(_, n)| n).sum();
    let mut restarted = Server::start(&url);
    let healthy = restarted.wait_healthy(START).await;
    assert!(healthy, "restart: {}", restarted.output());
    let admin = Staff::login(&restarted.address, ADMIN, ADMIN_PW).await;
    let file = export(&admin, tid).await;
    let mut lost = Vec::new();
    let mut in_flight_committed = 0;
    for &(t, n) in &acked {
        let stored = sheet_mark(&file, 1, t);
        if n == 0 {
            continue;
        }
        if stored == Some(mark(n - 1)) {
            continue;
        }
        if stored == Some(mark(n)) {
            in_flight_committed += 1;
            continue;
        }
        lost.push(format!(
            "table {t}: {n} saves acknowledged, stored mark {stored:?}"
        ));
    }
    println!(
        "race kill -9 [{}]: {} sheet saves from {} clients, {total_acked} acknowledged before SIGKILL, {} acknowledged lost, {in_flight_committed} unanswered but committed, {}×5xx, restarted healthy: {healthy}, statuses {tally}",
        backend(&db),
        tally.total(),
        tables.len(),
        lost.len(),
        tally.count_5xx(),
    );
    assert!(
        total_acked > 0,
        "some sheets were acknowledged before the kill"
    );
    assert!(lost.is_empty(), "acknowledged sheets lost: {lost:?}");
    assert_eq!(tally.count_5xx(), 0, "no 5xx: {tally}");
}

/// 6d. Issue 12: each instance caches public pages per revision; a write
/// acknowledged by one instance is seen by the other at its next request
/// (a new revision, a new ETag, never a 304 for the old page), both ways.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_never_serve_a_stale_public_page_after_a_write() {
    let Some((db, a, b, sa, tid)) = two_instances("cross-instance revision", "Due cache").await
    else {
        return;
    };
    let url = db.url();
    let sb = Staff::login(&b.address, ADMIN, ADMIN_PW).await;
    let built_on = db_of(&url);
    let pid = pair_ids(&built_on, tid).await[0].to_string();
    let public = client();
    // (revision, ETag of the standings page) as `server` serves them now,
    // asked with the ETag the visitor holds.
    let look = |server: String, held: String| {
        let c = public.clone();
        async move {
            let json: serde_json::Value = c
                .get(format!("{server}/api/v1/tournaments/{tid}/standings"))
                .send()
                .await
                .expect("JSON")
                .json()
                .await
                .expect("JSON body");
            let res = c
                .get(format!("{server}/t/{tid}"))
                .header("if-none-match", held)
                .send()
                .await
                .expect("page");
            let status = res.status().as_u16();
            let etag = crate::helpers::header(&res, "etag");
            (json, status, etag)
        }
    };
    let (mut last_json, _, mut etag_b) = look(b.address.clone(), String::new()).await;
    let (_, _, mut etag_a) = look(a.address.clone(), String::new()).await;
    let mut stale = Vec::new();
    for i in 0..6 {
        // Write through one instance, read at once through the other.
        let (writer, reader) = if i % 2 == 0 { (&sa, &b) } else { (&sb, &a) };
        let reason = format!("ammonizione {i}");
        let saved = writer
            .post(
                &format!("/desk/t/{tid}/penalties"),
                &fields(&[
                    ("pair", &pid),
                    ("round", "1"),
                    ("kind", "warning"),
                    ("reason", &reason),
                ]),
            )
            .await;
        assert_eq!(saved.status, 303, "warning saved: {saved:?}");
        let held = if i % 2 == 0 { &etag_b } else { &etag_a };
        let (json, status, etag) = look(reader.address.clone(), held.clone()).await;
        let rev = json["revision"].as_i64().unwrap_or(0);
        let shows = json.to_string().contains(&reason);
        if status != 200
            || etag == *held
            || !shows
            || rev <= last_json["revision"].as_i64().unwrap_or(0)
        {
            stale.push(format!(
                "write {i}: status {status}, etag {etag} (held {held}), revision {rev}, shows the warning: {shows}"
            ));
        }
        if i % 2 == 0 {
            etag_b = etag;
        } else {
            etag_a = etag;
        }
        last_json = json;
    }
    println!(
        "cross-instance revision [postgresql]: 6 writes alternating A/B, stale answers on the other instance: {}",
        stale.len()
    );
    assert!(stale.is_empty(), "{}", stale.join("\n"));
}

/// 6e. Issue 24: a circuit's public page is cached by the revisions of the
/// circuit, its stages and the directory; a sheet saved on a stage through
/// instance A, then the circuit renamed through A, are each seen by
/// instance B at its next request (a new ETag, never a 304 for the old
/// page).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_never_serve_a_stale_circuit_page() {
    let Some((_db, _a, b, sa, tid)) = two_instances("cross-instance circuit", "Tappa viva").await
    else {
        return;
    };
    let made = sa
        .post(
            "/director/circuits",
            &fields(&[("name", "Circuito A"), ("method", "vp")]),
        )
        .await;
    assert_eq!(made.status, 303, "{made:?}");
    let cid = crate::helpers::circuit_id_in(&made.location);
    let added = sa
        .post(
            &format!("/director/circuits/{cid}/stages"),
            &fields(&[("tournament", &tid.to_string())]),
        )
        .await;
    assert_eq!(added.status, 303, "{added:?}");
    let public = client();
    let page = format!("{}/c/{cid}", b.address);
    let look = |held: String| {
        let (c, page) = (public.clone(), page.clone());
        async move {
            let res = c
                .get(page)
                .header("if-none-match", held)
                .send()
                .await
                .expect("B's circuit page");
            let status = res.status().as_u16();
            let etag = crate::helpers::header(&res, "etag");
            (status, etag, res.text().await.unwrap_or_default())
        }
    };
    let (_, etag0, _) = look(String::new()).await;
    assert_eq!(look(etag0.clone()).await.0, 304, "unchanged: 304");
    // A sheet on the stage, through A.
    let t = tables_of(&export(&sa, tid).await, 1)[0];
    let saved = sa.post(&sheet_path(tid, 1, t.table), &sheet(120, 90)).await;
    assert_eq!(saved.status, 303, "{saved:?}");
    let (status1, etag1, _) = look(etag0.clone()).await;
    // The circuit renamed, through A.
    let renamed = sa
        .post(
            &format!("/director/circuits/{cid}"),
            &fields(&[("name", "Circuito B"), ("method", "vp")]),
        )
        .await;
    assert_eq!(renamed.status, 303, "{renamed:?}");
    let (status2, etag2, body2) = look(etag1.clone()).await;
    println!(
        "cross-instance circuit [postgresql]: after a sheet on a stage B answers {status1} (new ETag: {}), after a rename {status2} (new ETag: {}, new name shown: {})",
        etag1 != etag0,
        etag2 != etag1,
        body2.contains("Circuito B")
    );
    assert_eq!(status1, 200, "the stage's sheet is a new revision");
    assert_ne!(etag1, etag0);
    assert_eq!(status2, 200, "the rename is a new revision");
    assert_ne!(etag2, etag1);
    assert!(body2.contains("Circuito B"));
}
