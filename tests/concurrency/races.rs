//! Races inside one server: registrations, a double-clicked next round, two
//! admins demoting each other, a close racing sheet saves, and mixed load on
//! SQLite.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::helpers::{csrf_in, spawn_app, spawn_app_with, TestApp, TestDb, ADMIN_PW};
use crate::support::*;

pub fn backend(db: &TestDb) -> &'static str {
    if db.is_postgres() {
        "postgresql"
    } else {
        "sqlite"
    }
}

/// `location` is round `n`'s page (`/director/t/{tid}/rounds/{n}`, then
/// nothing, a query, a fragment or a sub-path).
fn is_round_page(location: &str, tid: i64, n: i64) -> bool {
    let prefix = format!("/director/t/{tid}/rounds/{n}");
    location
        .strip_prefix(&prefix)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(['?', '#', '/']))
}

/// 1. Thirty sessions of the owner add a pair at the same moment.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn race_registrations() {
    const N: usize = 30;
    let (app, owner) = with_director().await;
    let tid = app.tournament("Iscrizioni").build().await.tid;
    let clients = Staff::logins(&app.address, "dora", DIRECTOR_PW, N).await;
    let jobs: Vec<_> = clients
        .into_iter()
        .enumerate()
        .map(|(i, s)| async move {
            let f = fields(&[
                ("p1_surname", &format!("Verdi{i}")),
                ("p1_name", "Anna"),
                ("p1_card", &format!("C{i}A")),
                ("p1_club", "Circolo"),
                ("p2_surname", &format!("Neri{i}")),
                ("p2_name", "Marco"),
                ("p2_card", &format!("C{i}B")),
                ("p2_club", ""),
            ]);
            s.post(&format!("/director/t/{tid}/pairs"), &f).await
        })
        .collect();
    let answers = all_at_once(jobs).await;
    let tally = Tally::of(&answers);
    let file = export(&owner, tid).await;
    let mut numbers: Vec<i64> = file["pairs"]
        .as_array()
        .expect("pairs")
        .iter()
        .filter_map(|p| p["number"].as_i64())
        .collect();
    numbers.sort_unstable();
    let expected: Vec<i64> = (1..=N as i64).collect();
    let mut unique = numbers.clone();
    unique.dedup();
    println!(
        "race registrations [{}]: {N} requests, {}×5xx, {} pairs stored, numbers {} {}, statuses {tally}",
        backend(&app.db),
        tally.count_5xx(),
        numbers.len(),
        if numbers == expected {
            format!("1..={N}")
        } else {
            format!("{numbers:?}")
        },
        if unique.len() == numbers.len() {
            "unique"
        } else {
            "WITH DUPLICATES"
        },
    );
    assert_eq!(tally.count_5xx(), 0, "no 5xx: {tally}");
    assert_eq!(
        tally.count(303),
        N,
        "every registration answered 303: {tally}"
    );
    assert_eq!(numbers, expected, "numbers exactly 1..={N}");
}

/// 2. "Generate round 2" posted ten times at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn race_next_round_double_click() {
    const N: usize = 10;
    let (app, owner) = with_director().await;
    let tid = running_tournament(&app.handle, "dora", "Turni", 8).await;
    score_round(&owner, tid, 1).await;
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
    let file = export(&owner, tid).await;
    let rounds: Vec<i64> = rounds_of(&file)
        .iter()
        .filter_map(|r| r["number"].as_i64())
        .collect();
    let to_round_2 = answers
        .iter()
        .filter(|a| a.status == 303 && is_round_page(&a.location, tid, 2))
        .count();
    let other: Vec<String> = answers
        .iter()
        .filter(|a| !(a.status == 303 && is_round_page(&a.location, tid, 2)))
        .map(|a| format!("{} {}", a.status, a.location))
        .collect();
    println!(
        "race next round [{}]: {N} requests, {}×5xx, rounds now {rounds:?} ({} round 2), {to_round_2}/{N} answers 303 → round 2, statuses {tally}",
        backend(&app.db),
        tally.count_5xx(),
        rounds.iter().filter(|n| **n == 2).count(),
    );
    assert_eq!(tally.count_5xx(), 0, "no 5xx: {tally}");
    assert_eq!(rounds, vec![1, 2], "exactly one round 2, nothing beyond");
    assert_eq!(to_round_2, N, "every answer is a 303 to round 2: {other:?}");
}

fn active_admins(app: &TestApp) -> Vec<(i64, String)> {
    crate::peek::active_admins(app)
}

async fn user_id(app: &TestApp, name: &str) -> i64 {
    crate::builders::actor_of(&app.handle, name).await.user_id.0
}

async fn demote(by: Staff, id: i64) -> Answer {
    by.post(
        &format!("/admin/users/{id}/role"),
        &fields(&[("role", "director")]),
    )
    .await
}

/// 3. Two admins demote each other at the same moment, ten times, each
/// time with a fresh pair (the survivor and a newly created admin).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn race_admins_demote_each_other() {
    const ROUNDS: usize = 10;
    let app = spawn_app().await;
    app.setup_admin().await;
    let mut tally = Tally::default();
    let mut no_admin_left = 0;
    let mut bad_answers = Vec::new();
    for round in 1..=ROUNDS {
        // Exactly two admins (every admin's password is ADMIN_PW).
        let mut admins = active_admins(&app);
        if admins.len() < 2 {
            let creator = Staff::login(&app.address, &admins[0].1, ADMIN_PW).await;
            let name = format!("adm{round}");
            creator
                .b
                .create_user_through_the_form(&name, "admin", ADMIN_PW)
                .await;
            admins.push((user_id(&app, &name).await, name));
        }
        let (a_id, a_name) = admins[0].clone();
        let (b_id, b_name) = admins[1].clone();
        let a = Staff::login(&app.address, &a_name, ADMIN_PW).await;
        let b = Staff::login(&app.address, &b_name, ADMIN_PW).await;
        let jobs = vec![demote(a, b_id), demote(b, a_id)];
        let answers = all_at_once(jobs).await;
        for ans in &answers {
            tally.add(ans);
            if !matches!(ans.status, 303 | 403 | 409 | 422) {
                bad_answers.push(format!("round {round}: {}", ans.status));
            }
        }
        if active_admins(&app).is_empty() {
            no_admin_left += 1;
            // Put one back, to go on measuring.
            crate::peek::make_admin(&app, a_id);
        }
    }
    let refusals = tally.count(403) + tally.count(409) + tally.count(422);
    println!(
        "race admins [{}]: {ROUNDS} rounds × 2 requests, {}×5xx, zero active admins after {no_admin_left}/{ROUNDS} rounds, {refusals} refusals, statuses {tally}",
        backend(&app.db),
        tally.count_5xx(),
    );
    assert_eq!(tally.count_5xx(), 0, "no 5xx: {tally}");
    assert!(
        bad_answers.is_empty(),
        "unexpected answers: {bad_answers:?}"
    );
    assert_eq!(
        no_admin_left, 0,
        "an admin is always left ({no_admin_left}/{ROUNDS} rounds ended with none)"
    );
}

type Job = Pin<Box<dyn Future<Output = (Option<i64>, Answer)> + Send>>;

/// What one close-versus-sheets trial found.
#[derive(Default)]
struct CloseTrial {
    tally: Tally,
    close_status: u16,
    status: String,
    acked: usize,
    lost: Vec<i64>,
    phantom: Vec<i64>,
    saved_after_close: usize,
    acked_after_close_answer: usize,
    reposts: Tally,
}

async fn close_trial(
    app: &TestApp,
    owner: &Staff,
    closer: &Arc<Staff>,
    savers: &[Arc<Staff>],
    trial: usize,
) -> CloseTrial {
    const PAIRS: usize = 24; // 12 tables
    let tid = running_tournament(&app.handle, "dora", &format!("Chiusura {trial}"), PAIRS).await;
    score_round(owner, tid, 1).await; // mark 120, version 1
    let tables: Vec<i64> = tables_of(&export(owner, tid).await, 1)
        .iter()
        .map(|t| t.table)
        .collect();
    let mark = |t: i64| 200 + 5 * t;
    let clock = Instant::now();
    let c = closer.clone();
    let mut jobs: Vec<Job> = vec![Box::pin(async move {
        let a = c
            .post_at(
                &format!("/director/t/{tid}/close"),
                &fields(&[("confirm", "1")]),
                clock,
            )
            .await;
        (None, a)
    })];
    for (s, &t) in savers.iter().zip(&tables) {
        let s = s.clone();
        jobs.push(Box::pin(async move {
            let a = s
                .post_at(&sheet_path(tid, 1, t), &correction(mark(t), 1), clock)
                .await;
            (Some(t), a)
        }));
    }
    let answers = all_at_once(jobs).await;
    let mut out = CloseTrial {
        tally: Tally::of(&answers.iter().map(|(_, a)| a.clone()).collect::<Vec<_>>()),
        ..CloseTrial::default()
    };
    let close = answers
        .iter()
        .find(|(t, _)| t.is_none())
        .map(|(_, a)| a.clone())
        .expect("close answer");
    out.close_status = close.status;
    let file = export(owner, tid).await;
    out.status = file["status"].as_str().unwrap_or_default().to_string();
    // Every acknowledged correction is in the file; a refused one left the
    // sheet as it was.
    for (t, a) in answers.iter().filter_map(|(t, a)| t.map(|t| (t, a))) {
        let stored = sheet_mark(&file, 1, t);
        if a.status == 303 {
            out.acked += 1;
            if a.at > close.at {
                out.acked_after_close_answer += 1;
            }
            if stored != Some(mark(t)) {
                out.lost.push(t);
            }
        } else if !a.is_5xx() && stored != Some(120) {
            out.phantom.push(t);
        }
    }
    // Commit order, from the audit log: no sheet change after the close.
    out.saved_after_close = {
        let rows = crate::peek::audit_tables(app, tid);
        match rows.iter().position(|(a, _)| a == "tournament.closed") {
            Some(i) => rows[i + 1..].iter().filter(|(_, t)| t.is_some()).count(),
            None => 0,
        }
    };
    // Once closed, a sheet is refused (with the version the editor has).
    for &t in &tables {
        let version = if sheet_mark(&file, 1, t) == Some(mark(t)) {
            2
        } else {
            1
        };
        let a = owner
            .post(&sheet_path(tid, 1, t), &correction(300, version))
            .await;
        out.reposts.add(&a);
    }
    out
}

/// 4. The director closes while every table's sheet is being corrected
/// (three tournaments, one after the other).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn race_close_while_sheets_are_saved() {
    const TRIALS: usize = 3;
    const TABLES: usize = 12;
    let (app, owner) = with_director().await;
    let closer = Arc::new(Staff::login(&app.address, "dora", DIRECTOR_PW).await);
    let savers: Vec<Arc<Staff>> = Staff::logins(&app.address, "dora", DIRECTOR_PW, TABLES)
        .await
        .into_iter()
        .map(Arc::new)
        .collect();
    let mut trials = Vec::new();
    for trial in 1..=TRIALS {
        trials.push(close_trial(&app, &owner, &closer, &savers, trial).await);
    }
    let mut tally = Tally::default();
    let mut reposts = Tally::default();
    for t in &trials {
        tally.merge(&t.tally);
        reposts.merge(&t.reposts);
    }
    let sum = |f: fn(&CloseTrial) -> usize| trials.iter().map(f).sum::<usize>();
    let closes: Vec<u16> = trials.iter().map(|t| t.close_status).collect();
    let states: Vec<&str> = trials.iter().map(|t| t.status.as_str()).collect();
    let lost = sum(|t| t.lost.len());
    let phantom = sum(|t| t.phantom.len());
    let after = sum(|t| t.saved_after_close);
    println!(
        "race close vs sheets [{}]: {TRIALS} × (1 close + {TABLES} sheet saves at once), {}×5xx, closes {closes:?}, {} acknowledged, {lost} acknowledged lost, {phantom} refused-but-stored, {after} saved after the close (audit order), {} acks after the close's answer (weak), states {states:?}; re-posts after close: {} accepted of {} {reposts}; statuses {tally}",
        backend(&app.db),
        tally.count_5xx(),
        sum(|t| t.acked),
        sum(|t| t.acked_after_close_answer),
        reposts.count(303),
        reposts.total(),
    );
    assert_eq!(tally.count_5xx(), 0, "no 5xx: {tally}");
    assert!(closes.iter().all(|s| *s == 303), "every close acknowledged");
    assert!(
        states.iter().all(|s| *s == "finished"),
        "the files say closed"
    );
    assert_eq!(lost, 0, "acknowledged sheets missing from the export");
    assert_eq!(phantom, 0, "refused sheets stored");
    assert_eq!(after, 0, "sheet changes committed after the close");
    assert_eq!(reposts.count_5xx(), 0, "re-posts: no 5xx: {reposts}");
    assert_eq!(
        reposts.count(303),
        0,
        "re-posts after close refused: {reposts}"
    );
}

/// 5. Sheets, logins, logouts and public reads at once, on SQLite.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn race_mixed_sqlite_load() {
    const PAIRS: usize = 24; // 12 tables
    const SAVERS: usize = 10;
    const LOGINS: usize = 10;
    const READERS: usize = 20;
    const REFEREES: usize = 5;
    const REFEREE_PW: &str = "referee pass";
    let secs = 10;
    let app = spawn_app_with(TestDb::sqlite(), |_| {}).await;
    app.setup_admin().await;
    app.create_user("dora", "director", DIRECTOR_PW).await;
    for i in 1..=REFEREES {
        app.create_user(&format!("ref{i}"), "referee", REFEREE_PW)
            .await;
    }
    let owner = Staff::login(&app.address, "dora", DIRECTOR_PW).await;
    let tid = running_tournament(&app.handle, "dora", "Carico", PAIRS).await;
    let tables: Vec<i64> = tables_of(&export(&owner, tid).await, 1)
        .iter()
        .map(|t| t.table)
        .collect();
    let mut savers = Vec::new();
    for i in 0..SAVERS {
        let user = format!("ref{}", i % REFEREES + 1);
        savers.push(Staff::login(&app.address, &user, REFEREE_PW).await);
    }
    let deadline = Instant::now() + Duration::from_secs(secs);
    let address = app.address.clone();
    let mut handles = Vec::new();
    // Sheet savers: each owns a table and corrects it again and again.
    for (s, t) in savers.into_iter().zip(tables.clone()) {
        handles.push(tokio::spawn(async move {
            let mut tally = Tally::default();
            let mut saved = 0;
            while Instant::now() < deadline {
                let f = if saved == 0 {
                    sheet(120, 90)
                } else {
                    correction(120 + 5 * (saved % 20), saved)
                };
                let a = s.post(&sheet_path(tid, 1, t), &f).await;
                if a.status == 303 {
                    saved += 1;
                }
                tally.add(&a);
            }
            tally
        }));
    }
    // Logins with the right password, then logouts.
    for i in 0..LOGINS {
        let address = address.clone();
        let user = format!("ref{}", i % REFEREES + 1);
        handles.push(tokio::spawn(async move {
            let mut tally = Tally::default();
            while Instant::now() < deadline {
                let staff = Staff {
                    b: browser(&address),
                    token: String::new(),
                };
                let (page, html) = staff.page("/login").await;
                let status = page.status;
                tally.add(&page);
                if status != 200 || !html.contains("csrf_token") {
                    continue;
                }
                let staff = Staff {
                    token: csrf_in(&html),
                    ..staff
                };
                let a = staff
                    .post(
                        "/login",
                        &fields(&[("username", &user), ("password", REFEREE_PW)]),
                    )
                    .await;
                tally.add(&a);
                if a.status != 303 {
                    continue;
                }
                let (home, html) = staff.page("/").await;
                tally.add(&home);
                if !html.contains("csrf_token") {
                    continue;
                }
                let staff = Staff {
                    token: csrf_in(&html),
                    ..staff
                };
                tally.add(&staff.post("/logout", &[]).await);
            }
            tally
        }));
    }
    // Public readers: the standings and the pair cards.
    let reads = Arc::new(AtomicUsize::new(0));
    for i in 0..READERS {
        let address = address.clone();
        let reads = reads.clone();
        handles.push(tokio::spawn(async move {
            let c = client();
            let mut tally = Tally::default();
            let mut n = i % PAIRS + 1;
            while Instant::now() < deadline {
                let url = if reads.fetch_add(1, Ordering::Relaxed).is_multiple_of(2) {
                    format!("{address}/t/{tid}")
                } else {
                    n = n % PAIRS + 1;
                    format!("{address}/t/{tid}/pairs/{n}")
                };
                tally.add(&get_anon(&c, &url).await);
            }
            tally
        }));
    }
    let mut tally = Tally::default();
    for h in handles {
        tally.merge(&h.await.expect("task"));
    }
    println!(
        "race mixed sqlite load: {} requests in {secs} s from {} clients ({SAVERS} sheet savers, {LOGINS} login/logout loops, {READERS} public readers), {}×5xx, {} failed requests, statuses {tally}",
        tally.total(),
        SAVERS + LOGINS + READERS,
        tally.count_5xx(),
        tally.count(0),
    );
    assert_eq!(tally.count_5xx(), 0, "no 5xx: {tally}");
    assert_eq!(tally.count(0), 0, "no failed request: {tally}");
}
