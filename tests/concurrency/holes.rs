//! Issue 32, the holes an attack found, run for real against running
//! servers on both databases: large bodies from a caller who may not use
//! the route (the server's memory measured), twenty `nextRound` calls at
//! once, twenty correct logins at once from one address.

use std::time::{Duration, Instant};

use serde_json::json;

use crate::helpers::{spawn_app, TestDb, ADMIN, ADMIN_PW};
use crate::races::backend;
use crate::support::*;

const START: Duration = Duration::from_secs(30);

/// Ten bodies of 40 MiB at once from a referee's session to the
/// administrator's tournament-file import, and ten to a tournament's pairs
/// import from a director who does not direct it: every one refused
/// before it is read, and the server (its own process) stays under 200 MiB.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn large_bodies_from_callers_who_may_not_use_the_route_are_refused_unread() {
    const BODY: usize = 40 * 1024 * 1024;
    const N: usize = 10;
    const BOUND_MIB: f64 = 200.0;
    let db = TestDb::new();
    create_admin_cli(&db.url(), ADMIN, ADMIN_PW);
    create_user_cli(&db.url(), "referee", "rita", DIRECTOR_PW);
    create_user_cli(&db.url(), "director", "dora", DIRECTOR_PW);
    create_user_cli(&db.url(), "director", "dino", DIRECTOR_PW);
    let mut server = Server::start_with(&db.url(), &[]);
    assert!(server.wait_healthy(START).await, "{}", server.output());
    let base = server.address.clone();
    let dora = Staff::login(&base, "dora", DIRECTOR_PW).await;
    let tid = TournamentBuilder::new(&db_of(&db.url()), "Non di Dino")
        .build()
        .await
        .tid;
    let rita = Staff::login(&base, "rita", DIRECTOR_PW).await;
    let dino = Staff::login(&base, "dino", DIRECTOR_PW).await;
    let before = server.memory_mib("VmRSS");
    let body = bytes_of(BODY);
    let clock = Instant::now();
    let mut jobs = Vec::new();
    for i in 0..2 * N {
        let (who, path) = if i < N {
            (&rita, "/admin/import".to_string())
        } else {
            (&dino, format!("/director/t/{tid}/import"))
        };
        let (client, url, token, body) = (
            who.b.client.clone(),
            who.b.url(&path),
            who.token.clone(),
            body.clone(),
        );
        jobs.push(async move {
            let res = client
                .post(url)
                .header("content-type", "application/x-www-form-urlencoded")
                .header("x-csrf-token", token)
                .body(body)
                .send()
                .await;
            answer_of(res, Instant::now()).await
        });
    }
    let answers = all_at_once(jobs).await;
    let elapsed = clock.elapsed();
    let peak = server.memory_mib("VmHWM");
    let after = server.memory_mib("VmRSS");
    let referee = Tally::of(&answers[..N]);
    let stranger = Tally::of(&answers[N..]);
    println!(
        "{N} × 40 MiB from a referee to /admin/import and {N} from another director to a tournament's import [{}]: RSS {before:.0} MiB before, peak {peak:.0} MiB (bound {BOUND_MIB:.0}), {after:.0} MiB after, in {elapsed:.1?}; referee {referee}, other director {stranger}",
        backend(&db)
    );
    // Refused unread: the answer, or (a client still sending when the
    // server closed the connection after answering) no answer read.
    assert_eq!(
        referee.count(403) + referee.count(0),
        N,
        "the referee: 403 each: {referee}"
    );
    assert_eq!(
        stranger.count(404) + stranger.count(0),
        N,
        "not his tournament: 404 each: {stranger}"
    );
    assert!(referee.count(403) + stranger.count(404) > 0, "answered");
    assert!(peak > 0.0 && peak < BOUND_MIB, "peak RSS {peak:.0} MiB");
    // The director of the tournament still gets its import's limit.
    let csv = pairs_csv(4);
    let a = dora
        .post(
            &format!("/director/t/{tid}/import"),
            &fields(&[("csv", &csv)]),
        )
        .await;
    assert_eq!(a.status, 200, "the director's own import: {a:?}");
    // And a team tournament's CSV gets the same limit (not the form's).
    let big = format!("{}{}", pairs_csv(4), "#".repeat(100 * 1024));
    let a = dora
        .post(
            &format!("/director/t/{tid}/teams/import"),
            &fields(&[("csv", &big)]),
        )
        .await;
    assert_ne!(a.status, 413, "100 KiB of team CSV is read: {a:?}");
}

fn bytes_of(n: usize) -> Vec<u8> {
    let mut v = b"csrf_token=x&csv=".to_vec();
    v.resize(n, b'a');
    v
}

/// Twenty `nextRound` calls at once through the API, with a force reason
/// and no round number (on PostgreSQL spread over two instances): one
/// draws round 2, the others get 409, and the tournament has two rounds.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn twenty_next_round_calls_draw_one_round() {
    const N: usize = 20;
    let db = TestDb::new();
    let (servers, bases, token, dora) = race_servers(&db).await;
    let n = servers.len();
    let tid = running_tournament(&db_of(&db.url()), "dora", "Venti clic", 8).await;
    // One table of round 1 scored: the others are forced past.
    let first = tables_of(&export(&dora, tid).await, 1)[0].table;
    let a = dora.post(&sheet_path(tid, 1, first), &sheet(120, 90)).await;
    assert_eq!(a.status, 303, "{a:?}");
    let answers = next_round_burst(
        &bases,
        tid,
        &token,
        json!({"force_reason": "the hall is late"}),
        N,
    )
    .await;
    let t = Tally::of(&answers);
    let file = export(&dora, tid).await;
    let rounds: Vec<i64> = rounds_of(&file)
        .iter()
        .filter_map(|r| r["number"].as_i64())
        .collect();
    println!(
        "{N} concurrent nextRound without a round [{}, {n} instance(s)]: rounds now {rounds:?}, answers {t}",
        backend(&db)
    );
    assert_eq!(t.count_5xx(), 0, "{t}");
    assert_eq!(t.count(201), 1, "one draws: {t}");
    assert_eq!(t.count(409), N - 1, "the rest are refused: {t}");
    assert_eq!(rounds, vec![1, 2], "one round drawn");
    // Naming the round stays idempotent: round 2 again answers round 2.
    let res = client()
        .post(format!("{}/api/v1/tournaments/{tid}/rounds", bases[0]))
        .bearer_auth(&token)
        .json(&json!({"round": 2, "force_reason": "again"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 201);
    let body: serde_json::Value = res.json().await.unwrap();
    assert_eq!(body["round"], 2);
    assert_eq!(rounds_of(&export(&dora, tid).await).len(), 2);
}

/// Twenty correct logins of one account at once from one address all get
/// in (a right password gives its attempt back, and the logins refused
/// meanwhile wait for it); a burst of wrong ones from another address
/// still stops at the allowance.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn twenty_correct_logins_at_once_all_get_in() {
    const N: usize = 20;
    let app = spawn_app().await;
    app.setup_admin().await;
    app.create_user("desk", "director", DIRECTOR_PW).await;
    let mut clients = Vec::new();
    for _ in 0..N {
        let b = browser(&app.address);
        let token = crate::helpers::csrf_in(&b.get_html("/login").await);
        clients.push((b, token));
    }
    let jobs: Vec<_> = clients
        .into_iter()
        .map(|(b, token)| async move {
            let res = b
                .client
                .post(b.url("/login"))
                .form(&[
                    ("username", "desk"),
                    ("password", DIRECTOR_PW),
                    ("csrf_token", token.as_str()),
                ])
                .send()
                .await;
            answer_of(res, Instant::now()).await
        })
        .collect();
    let right = Tally::of(&all_at_once(jobs).await);
    // Wrong passwords, from the same address, after those: at most the
    // allowance is checked, and the right one is refused with them.
    let mut wrong_jobs = Vec::new();
    for i in 0..N {
        let b = browser(&app.address);
        let token = crate::helpers::csrf_in(&b.get_html("/login").await);
        wrong_jobs.push(async move {
            let res = b
                .client
                .post(b.url("/login"))
                .form(&[
                    ("username", "desk"),
                    ("password", format!("wrong {i}").as_str()),
                    ("csrf_token", token.as_str()),
                ])
                .send()
                .await;
            answer_of(res, Instant::now()).await
        });
    }
    let wrong = Tally::of(&all_at_once(wrong_jobs).await);
    let allowance = burraco_td::db::rate_limits::Policy::default().login.burst;
    println!(
        "{N} concurrent correct logins of one account from one address [{}]: {right}; then {N} wrong ones: {wrong} (allowance {allowance})",
        backend(&app.db)
    );
    assert_eq!(right.count(303), N, "all get in: {right}");
    assert!(
        wrong.count(401) as u64 <= u64::from(allowance),
        "checked past the allowance: {wrong}"
    );
    assert_eq!(wrong.count(401) + wrong.count(429), N, "{wrong}");
}
