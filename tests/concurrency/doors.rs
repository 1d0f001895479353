//! Issue 22, doors that hold under attack, against the real binary: bursts
//! of wrong passwords, pair codes and table codes (one server on SQLite;
//! on PostgreSQL two instances on one database, the burst spread over
//! both), 300 concurrent logins under a memory bound, slow bodies cut while
//! `/healthz` answers, connections over the per-address cap shut, and each
//! status code a JSON endpoint owes. Other loopback addresses (127.0.0.x)
//! stand for other clients. Each test prints one line with its figures.

use std::future::Future;
use std::pin::Pin;
use std::time::{Duration, Instant};

use burraco_td::db::rate_limits::Policy;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::helpers::{TestDb, ADMIN, ADMIN_PW};
use crate::races::backend;
use crate::support::*;

const START: Duration = Duration::from_secs(30);

type Job = Pin<Box<dyn Future<Output = Answer> + Send>>;

/// The servers of a test: one on SQLite, two instances on one PostgreSQL
/// database.
async fn servers(db: &TestDb, env: &[(&str, &str)]) -> Vec<Server> {
    let n = if db.is_postgres() { 2 } else { 1 };
    let mut out: Vec<Server> = (0..n).map(|_| Server::start_with(&db.url(), env)).collect();
    for s in &mut out {
        assert!(s.wait_healthy(START).await, "serves: {}", s.output());
    }
    out
}

/// A fresh database with the administrator, and [`servers`] on it with
/// their addresses.
async fn admin_and_servers() -> (TestDb, Vec<Server>, Vec<String>) {
    let db = TestDb::new();
    create_admin_cli(&db.url(), ADMIN, ADMIN_PW);
    let servers = servers(&db, &[]).await;
    let bases = servers.iter().map(|s| s.address.clone()).collect();
    (db, servers, bases)
}

/// The login form's CSRF token for `c` (which keeps its anonymous cookie).
async fn login_token(c: &reqwest::Client, base: &str) -> String {
    let res = c
        .get(format!("{base}/login"))
        .send()
        .await
        .expect("login form");
    crate::helpers::csrf_in(&res.text().await.expect("login page"))
}

async fn post_login(c: &reqwest::Client, base: &str, token: &str, user: &str, pw: &str) -> Answer {
    let res = c
        .post(format!("{base}/login"))
        .form(&[("username", user), ("password", pw), ("csrf_token", token)])
        .send()
        .await;
    answer_of(res, Instant::now()).await
}

/// Logs in from `local`, trying again when the server says it is busy
/// (503 with `Retry-After`); the last answer and the number of tries.
async fn login_patiently(local: &str, base: &str, user: &str, pw: &str) -> (u16, usize) {
    let c = client_from(local);
    let token = login_token(&c, base).await;
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut tries = 0;
    loop {
        tries += 1;
        let res = c
            .post(format!("{base}/login"))
            .form(&[("username", user), ("password", pw), ("csrf_token", &token)])
            .send()
            .await
            .expect("login");
        let status = res.status().as_u16();
        if status != 503 || Instant::now() > deadline {
            return (status, tries);
        }
        let wait: u64 = res
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok()?.parse().ok())
            .expect("a busy answer says when to try again");
        tokio::time::sleep(Duration::from_secs(wait)).await;
    }
}

/// A burst of wrong passwords for one account from one address gets at
/// most the allowance checked, across instances; the owner, from her own
/// address, logs in during the attack.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_burst_of_wrong_passwords_gets_at_most_the_allowance_checked() {
    const N: usize = 300;
    let (db, _servers, bases) = admin_and_servers().await;
    let attacker = client_from("127.0.0.2");
    let token = login_token(&attacker, &bases[0]).await;
    let clock = Instant::now();
    let mut jobs: Vec<Job> = (0..N)
        .map(|i| {
            let (c, base, token) = (
                attacker.clone(),
                bases[i % bases.len()].clone(),
                token.clone(),
            );
            Box::pin(
                async move { post_login(&c, &base, &token, ADMIN, &format!("wrong {i}")).await },
            ) as Job
        })
        .collect();
    let owner_base = bases[bases.len() - 1].clone();
    jobs.push(Box::pin(async move {
        let (status, tries) = login_patiently("127.0.0.3", &owner_base, ADMIN, ADMIN_PW).await;
        Answer {
            status,
            location: String::new(),
            error: format!("{tries} tries"),
            at: Duration::ZERO,
        }
    }));
    let mut answers = all_at_once(jobs).await;
    let owner = answers.pop().expect("the owner's answer");
    let elapsed = clock.elapsed();
    let t = Tally::of(&answers);
    let allowed = Policy::default().login.within(elapsed);
    println!(
        "login burst [{}, {} instance(s)]: {N} concurrent wrong passwords for one account from one address: {} checked (allowance {allowed}), {} refused (429), {} turned away (503) {t}; the owner from another address meanwhile: {} ({})",
        backend(&db),
        bases.len(),
        t.count(401),
        t.count(429),
        t.count(503),
        owner.status,
        owner.error
    );
    assert!(
        t.count(401) as u64 <= allowed,
        "checked past the allowance: {t}"
    );
    assert_eq!(
        t.count(401) + t.count(429) + t.count(503),
        N,
        "only checked, refused or busy: {t}"
    );
    assert_eq!(owner.status, 303, "the owner logs in during the attack");
    // From the attacker's address even the right password is refused now.
    let a = post_login(&attacker, &bases[0], &token, ADMIN, ADMIN_PW).await;
    assert_eq!(a.status, 429, "{a:?}");
}

/// The code of table 1 of round 1 and the pair code of its NS pair.
fn table_and_pair_code(db: &TestDb, tid: i64) -> (String, String) {
    let pool = db_of(&db.url());
    let (ns, _) = crate::peek::seat(&pool, tid, 1, 1);
    (
        crate::peek::table_code(&pool, tid, 1),
        crate::peek::pair_code(&pool, tid, ns).expect("a pair code"),
    )
}

/// Bursts of wrong pair codes at one table and of unknown table codes get
/// at most their allowances checked, across instances; the players, from
/// their own addresses, are not locked out.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn bursts_of_wrong_pair_codes_and_table_codes_get_at_most_the_allowance_checked() {
    const N: usize = 300;
    let (db, _servers, bases) = admin_and_servers().await;
    let tid = running_tournament(&db_of(&db.url()), ADMIN, "Porte chiuse", 8).await;
    let (code, ns_code) = table_and_pair_code(&db, tid);
    let policy = Policy::default();

    // Wrong pair codes at one table from one address.
    let attacker = client_from("127.0.0.4");
    let clock = Instant::now();
    let jobs: Vec<Job> = (0..N)
        .map(|i| {
            let c = attacker.clone();
            let url = format!("{}/api/v1/score/{code}/sheet", bases[i % bases.len()]);
            Box::pin(async move {
                let body = json!({"pair_code": format!("{i:06}x"), "sheet": {"hands": []}});
                answer_of(c.post(url).json(&body).send().await, Instant::now()).await
            }) as Job
        })
        .collect();
    let t = Tally::of(&all_at_once(jobs).await);
    let allowed = policy.pair_code.within(clock.elapsed());
    // The pair, from its phone's address, enters the table's sheet (an
    // unreadable one: 422 says the code was checked and right).
    let phone = client_from("127.0.0.5");
    let mine = phone
        .post(format!(
            "{}/api/v1/score/{code}/sheet",
            bases[bases.len() - 1]
        ))
        .json(&json!({"pair_code": ns_code, "round": 1, "sheet": {"hands": "unreadable"}}))
        .send()
        .await
        .expect("the pair's entry");
    println!(
        "pair-code burst [{}, {} instance(s)]: {N} concurrent wrong codes at one table from one address: {} checked (allowance {allowed}), {} refused {t}; the pair from its own address: {}",
        backend(&db),
        bases.len(),
        t.count(403),
        t.count(429),
        mine.status()
    );
    assert!(
        t.count(403) as u64 <= allowed,
        "checked past the allowance: {t}"
    );
    assert_eq!(t.count(403) + t.count(429), N, "{t}");
    assert_eq!(mine.status().as_u16(), 422, "the right code is checked");

    // Unknown table codes from one address.
    let guesser = client_from("127.0.0.6");
    let clock = Instant::now();
    let jobs: Vec<Job> = (0..N)
        .map(|i| {
            let c = guesser.clone();
            let url = format!("{}/api/v1/score/ZZ{i:04}", bases[i % bases.len()]);
            Box::pin(async move { answer_of(c.get(url).send().await, Instant::now()).await }) as Job
        })
        .collect();
    let t = Tally::of(&all_at_once(jobs).await);
    let allowed = policy.table_lookup.within(clock.elapsed());
    let known = phone
        .get(format!("{}/api/v1/score/{code}", bases[0]))
        .send()
        .await
        .expect("a known code");
    println!(
        "table-code burst [{}, {} instance(s)]: {N} concurrent unknown codes from one address: {} answered 404 (allowance {allowed}), {} refused {t}; a known code from another address: {}",
        backend(&db),
        bases.len(),
        t.count(404),
        t.count(429),
        known.status()
    );
    assert!(
        t.count(404) as u64 <= allowed,
        "answered past the allowance: {t}"
    );
    assert_eq!(t.count(404) + t.count(429), N, "{t}");
    assert_eq!(known.status().as_u16(), 200);
}

/// 300 concurrent logins with unknown names from 300 addresses: the
/// server stays under 400 MiB, `/healthz` answers within 2 s meanwhile,
/// and the memory comes back after.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn three_hundred_concurrent_logins_keep_the_memory_bound() {
    const N: usize = 300;
    const BOUND_MIB: f64 = 400.0;
    let db = TestDb::new();
    create_admin_cli(&db.url(), ADMIN, ADMIN_PW);
    let mut server = Server::start_with(&db.url(), &[("TRUST_FORWARDED_FOR", "true")]);
    assert!(server.wait_healthy(START).await, "{}", server.output());
    let base = server.address.clone();
    let c = client_from("127.0.0.1");
    let token = login_token(&c, &base).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let before = server.memory_mib("VmRSS");
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let health = {
        let (stop, base) = (stop.clone(), base.clone());
        tokio::spawn(async move {
            let c = reqwest::Client::builder()
                .timeout(Duration::from_secs(2))
                .local_address("127.0.0.2".parse::<std::net::IpAddr>().unwrap())
                .build()
                .unwrap();
            let (mut slowest, mut failed, mut asked) = (Duration::ZERO, 0, 0);
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let t = Instant::now();
                let ok = c
                    .get(format!("{base}/healthz"))
                    .send()
                    .await
                    .is_ok_and(|r| r.status().as_u16() == 200);
                slowest = slowest.max(t.elapsed());
                asked += 1;
                failed += usize::from(!ok);
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            (slowest, failed, asked)
        })
    };
    let jobs: Vec<Job> = (0..N)
        .map(|i| {
            let (c, base, token) = (c.clone(), base.clone(), token.clone());
            Box::pin(async move {
                let res = c
                    .post(format!("{base}/login"))
                    .header(
                        "x-forwarded-for",
                        format!("10.9.{}.{}", i / 250, i % 250 + 1),
                    )
                    .form(&[
                        ("username", format!("nobody{i:04}").as_str()),
                        ("password", "not a password at all"),
                        ("csrf_token", &token),
                    ])
                    .send()
                    .await;
                answer_of(res, Instant::now()).await
            }) as Job
        })
        .collect();
    let answers = all_at_once(jobs).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let (slowest, failed, asked) = health.await.unwrap();
    let peak = server.memory_mib("VmHWM");
    tokio::time::sleep(Duration::from_secs(3)).await;
    let after = server.memory_mib("VmRSS");
    let t = Tally::of(&answers);
    println!(
        "300 logins [{}]: {N} concurrent, unknown names, {N} addresses: RSS {before:.0} MiB before, peak {peak:.0} MiB (bound {BOUND_MIB:.0}), {after:.0} MiB 3 s after; /healthz asked {asked} times, slowest {:.2} s, failed {failed}; answers {t}",
        backend(&db),
        slowest.as_secs_f64()
    );
    assert!(peak > 0.0 && peak < BOUND_MIB, "peak RSS {peak:.0} MiB");
    assert_eq!(failed, 0, "/healthz answered within 2 s throughout");
    assert_eq!(t.count(401) + t.count(503), N, "checked or busy: {t}");
    assert!(t.count(401) > 0, "some were checked: {t}");
    assert!(
        after < before + 64.0,
        "the hash memory came back: {before:.0} → {after:.0} MiB"
    );
}

/// Whether `got` holds a whole response (headers and `Content-Length` bytes).
fn whole_response(got: &[u8]) -> bool {
    let text = String::from_utf8_lossy(got);
    let Some(end) = text.find("\r\n\r\n") else {
        return false;
    };
    let length = text[..end]
        .lines()
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case("content-length")
                .then(|| v.trim().parse::<usize>().ok())?
        })
        .unwrap_or(0);
    got.len() >= end + 4 + length
}

/// A raw HTTP/1.1 exchange from `local`: sends `head`, then each chunk of
/// `body` after `pause`; reads until the server closes or answers whole.
/// The status and when it came (`None`: no answer within `within`).
async fn raw(
    addr: &str,
    local: &str,
    head: String,
    body: Vec<Vec<u8>>,
    pause: Duration,
    within: Duration,
) -> (Option<u16>, Duration, String) {
    let sock = tokio::net::TcpSocket::new_v4().expect("socket");
    sock.bind(format!("{local}:0").parse().unwrap())
        .expect("bind");
    let stream = sock
        .connect(addr.trim_start_matches("http://").parse().unwrap())
        .await
        .expect("connect");
    let (mut rd, mut wr) = stream.into_split();
    let started = Instant::now();
    let writer = tokio::spawn(async move {
        if wr.write_all(head.as_bytes()).await.is_err() {
            return;
        }
        for chunk in body {
            tokio::time::sleep(pause).await;
            if wr.write_all(&chunk).await.is_err() {
                return;
            }
        }
    });
    let mut got = Vec::new();
    let read = tokio::time::timeout(within, async {
        let mut buf = [0u8; 4096];
        loop {
            match rd.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => got.extend_from_slice(&buf[..n]),
            }
            if whole_response(&got) {
                break;
            }
        }
    })
    .await;
    writer.abort();
    let text = String::from_utf8_lossy(&got).to_string();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .filter(|_| text.starts_with("HTTP/1.1"));
    let _ = read;
    (status, started.elapsed(), text)
}

/// 200 bodies sent a byte every half second are answered 408 and closed at
/// the deadline (2 s here) while `/healthz` answers; a large body that
/// keeps the minimum rate is read whole.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn slow_bodies_are_cut_while_health_answers() {
    const N: usize = 200;
    let db = TestDb::new();
    let mut server = Server::start_with(&db.url(), &[("BODY_TIMEOUT_SECS", "2")]);
    assert!(server.wait_healthy(START).await, "{}", server.output());
    let addr = server.address.clone();
    let slow = |path: &str, ct: &str| {
        format!(
            "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: {ct}\r\nContent-Length: 1000\r\n\r\n"
        )
    };
    let mut conns = Vec::new();
    for i in 0..N {
        let (path, ct) = if i % 2 == 0 {
            ("/login", "application/x-www-form-urlencoded")
        } else {
            ("/api/v1/rules/vp", "application/json")
        };
        let head = slow(path, ct);
        let addr = addr.clone();
        conns.push(tokio::spawn(async move {
            raw(
                &addr,
                "127.0.0.1",
                head,
                vec![b"a".to_vec(); 100],
                Duration::from_millis(500),
                Duration::from_secs(20),
            )
            .await
        }));
    }
    let health = client_from("127.0.0.2");
    let (mut slowest, mut failed) = (Duration::ZERO, 0);
    let clock = Instant::now();
    while clock.elapsed() < Duration::from_secs(3) {
        let t = Instant::now();
        let ok = tokio::time::timeout(
            Duration::from_secs(2),
            health.get(format!("{addr}/healthz")).send(),
        )
        .await
        .is_ok_and(|r| r.is_ok_and(|r| r.status().as_u16() == 200));
        slowest = slowest.max(t.elapsed());
        failed += usize::from(!ok);
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let mut cut = 0;
    let mut last = Duration::ZERO;
    let mut other = Vec::new();
    for c in conns {
        let (status, at, text) = c.await.unwrap();
        if status == Some(408) {
            cut += 1;
            last = last.max(at);
        } else if other.len() < 3 {
            other.push(format!(
                "{status:?} after {at:?}: {}",
                text.lines().next().unwrap_or("")
            ));
        }
    }
    // A body at a good pace: 200 KB in 16 KB pieces, 4 a second (64 KB/s),
    // longer than the 2 s deadline, within the minimum rate.
    let pad = vec![b' '; 16 * 1024];
    let mut pieces = vec![b"{\"difference\": 215, ".to_vec()];
    pieces.extend(std::iter::repeat_n(pad, 12));
    pieces.push(b"\"hands\": 3}".to_vec());
    let len: usize = pieces.iter().map(Vec::len).sum();
    let head = format!(
        "POST /api/v1/rules/vp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {len}\r\nConnection: close\r\n\r\n"
    );
    let (steady, took, text) = raw(
        &addr,
        "127.0.0.3",
        head,
        pieces,
        Duration::from_millis(250),
        Duration::from_secs(20),
    )
    .await;
    println!(
        "slow bodies [{}]: {N} bodies at a byte every 0.5 s, deadline 2 s: {cut} answered 408 and closed, the last after {:.1} s; /healthz meanwhile: slowest {:.2} s, failed {failed}; a {len}-byte body at 64 KB/s: {steady:?} after {:.1} s",
        backend(&db),
        last.as_secs_f64(),
        slowest.as_secs_f64(),
        took.as_secs_f64()
    );
    assert_eq!(cut, N, "every slow body cut: {other:?}");
    assert!(
        last < Duration::from_secs(12),
        "cut near the deadline: {last:?}"
    );
    assert_eq!(failed, 0, "/healthz answered within 2 s throughout");
    assert_eq!(steady, Some(200), "{text}");
}

/// Connections over the per-address cap are shut at once; other addresses
/// are served, and the address gets its places back when it lets go.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn connections_over_the_per_address_cap_are_shut() {
    const CAP: usize = 20;
    let db = TestDb::new();
    let mut server = Server::start_with(&db.url(), &[("MAX_CONNECTIONS_PER_ADDRESS", "20")]);
    assert!(server.wait_healthy(START).await, "{}", server.output());
    let addr: std::net::SocketAddr = server
        .address
        .trim_start_matches("http://")
        .parse()
        .unwrap();
    // All at once, then each looked at (an idle connection is closed anyway
    // after the 5 s a request's headers may take).
    let mut conns = Vec::new();
    for _ in 0..2 * CAP {
        let sock = tokio::net::TcpSocket::new_v4().unwrap();
        sock.bind("127.0.0.8:0".parse().unwrap()).unwrap();
        conns.push(sock.connect(addr).await.expect("connect"));
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut open = Vec::new();
    let mut shut = 0;
    for mut stream in conns {
        let mut buf = [0u8; 16];
        match tokio::time::timeout(Duration::from_millis(50), stream.read(&mut buf)).await {
            Err(_) => open.push(stream),
            Ok(_) => shut += 1,
        }
    }
    let other = client_from("127.0.0.9")
        .get(format!("{}/healthz", server.address))
        .send()
        .await
        .expect("another address");
    println!(
        "connection cap [{}]: {} connections from one address with a cap of {CAP}: {} kept, {shut} shut at once; another address: {}",
        backend(&db),
        2 * CAP,
        open.len(),
        other.status()
    );
    assert_eq!(open.len(), CAP);
    assert_eq!(shut, CAP);
    assert_eq!(other.status().as_u16(), 200);
    drop(open);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let again = client_from("127.0.0.8")
        .get(format!("{}/healthz", server.address))
        .send()
        .await
        .expect("the address again");
    assert_eq!(again.status().as_u16(), 200);
}

/// Every JSON endpoint answers what happened: 413 for a chunked body over
/// the limit, 415 for another content type, 422 naming a number outside
/// its schema's bounds (even a locked setting of a running tournament),
/// 405 with `Allow` for another method; the document says so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_endpoints_answer_honest_status_codes() {
    let db = TestDb::new();
    create_admin_cli(&db.url(), ADMIN, ADMIN_PW);
    let token = create_token_cli(&db.url(), ADMIN);
    let mut server = Server::start(&db.url());
    assert!(server.wait_healthy(START).await, "{}", server.output());
    let a = server.address.clone();
    let c = client();
    let bearer = format!("Bearer {token}");
    // A running tournament (the CLI's sample, imported through the API).
    let sample = std::process::Command::new(bin())
        .args([
            "sample-tournament",
            "--pairs",
            "8",
            "--rounds",
            "2",
            "--running",
        ])
        .output()
        .expect("sample");
    let res = c
        .post(format!("{a}/api/v1/tournaments/import"))
        .header("authorization", &bearer)
        .header("content-type", "application/json")
        .body(sample.stdout)
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success(), "import: {}", res.status());
    let tid = res.json::<Value>().await.unwrap()["id"].as_i64().unwrap();
    let mut seen = Vec::new();

    // 413: a chunked body over the limit, JSON and form alike.
    let big = vec![b' '; 256 * 1024];
    for (path, ct, limit) in [
        (
            format!("/api/v1/tournaments/{tid}/pairs/import"),
            "application/json",
            2 * 1024 * 1024,
        ),
        (
            "/login".to_string(),
            "application/x-www-form-urlencoded",
            64 * 1024,
        ),
    ] {
        let pieces = limit / big.len() + 2;
        let mut chunks: Vec<Vec<u8>> = (0..pieces)
            .map(|_| {
                let mut c = format!("{:x}\r\n", big.len()).into_bytes();
                c.extend_from_slice(&big);
                c.extend_from_slice(b"\r\n");
                c
            })
            .collect();
        chunks.push(b"0\r\n\r\n".to_vec());
        let head = format!(
            "POST {path} HTTP/1.1\r\nHost: x\r\nAuthorization: {bearer}\r\nContent-Type: {ct}\r\nTransfer-Encoding: chunked\r\n\r\n"
        );
        let (status, _, text) = raw(&a, "127.0.0.1", head, chunks, Duration::ZERO, START).await;
        assert_eq!(
            status,
            Some(413),
            "{path}: {}",
            text.lines().next().unwrap_or("")
        );
        seen.push(format!("{path} chunked over the limit → 413"));
    }

    // 415: a body of another type, on every kind of JSON endpoint.
    for (method, path) in [
        (reqwest::Method::POST, "/api/v1/rules/vp".to_string()),
        (reqwest::Method::PUT, format!("/api/v1/tournaments/{tid}")),
        (
            reqwest::Method::POST,
            "/api/v1/score/ABCDEF/sheet".to_string(),
        ),
    ] {
        let res = c
            .request(method.clone(), format!("{a}{path}"))
            .header("authorization", &bearer)
            .header("content-type", "text/plain")
            .body("{\"difference\": 215, \"hands\": 3}")
            .send()
            .await
            .unwrap();
        assert_eq!(res.status().as_u16(), 415, "{method} {path}");
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["error"]["code"], "unsupported_media_type");
        seen.push(format!("{method} {path} text/plain → 415"));
    }

    // 422: a locked setting of a running tournament out of its schema's
    // bounds is refused, not silently ignored.
    let mut settings = c
        .get(format!("{a}/api/v1/tournaments/{tid}"))
        .header("authorization", &bearer)
        .send()
        .await
        .unwrap()
        .json::<Value>()
        .await
        .unwrap()["settings"]
        .clone();
    settings["planned_rounds"] = json!(2_147_483_648_u64);
    settings["payout"][0]["min_entries"] = json!(4_294_967_295_u64);
    let res = c
        .put(format!("{a}/api/v1/tournaments/{tid}"))
        .header("authorization", &bearer)
        .json(&settings)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 422);
    let body: Value = res.json().await.unwrap();
    let fields = &body["error"]["fields"];
    assert!(fields["planned_rounds"].is_string(), "{body}");
    assert!(fields["payout[0].min_entries"].is_string(), "{body}");
    seen.push("PUT planned_rounds 2147483648 → 422 naming planned_rounds".into());

    // 405 with Allow, whichever module serves the path.
    for (path, allow) in [
        (format!("/api/v1/tournaments/{tid}"), "GET, PUT"),
        (format!("/api/v1/tournaments/{tid}/standings"), "GET"),
        ("/api/v1/score/ABCDEF".to_string(), "GET"),
        ("/api/openapi.json".to_string(), "GET"),
        ("/api/v1/rules/vp".to_string(), "POST"),
    ] {
        let res = c
            .request(reqwest::Method::TRACE, format!("{a}{path}"))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status().as_u16(), 405, "TRACE {path}");
        let got = res.headers()["allow"].to_str().unwrap().to_string();
        assert!(got.starts_with(allow), "TRACE {path}: Allow {got}");
        seen.push(format!("TRACE {path} → 405 Allow: {got}"));
    }

    // The document says so.
    let doc: Value = c
        .get(format!("{a}/api/openapi.json"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let put = &doc["paths"]["/api/v1/tournaments/{id}"]["put"]["responses"];
    for status in ["405", "408", "413", "415", "422"] {
        assert!(
            put[status].is_object(),
            "updateTournament documents {status}"
        );
    }
    let planned = &doc["components"]["schemas"]["TournamentIn"]["properties"]["planned_rounds"];
    assert_eq!(
        planned["maximum"],
        json!(burraco_td::tournament::settings::MAX_ROUNDS)
    );
    println!("status codes [{}]: {}", backend(&db), seen.join("; "));
}

/// A urlencoded body of `size` bytes: `username=aaaa…&password=x`.
fn huge_form(size: usize) -> Vec<u8> {
    let mut body = b"username=".to_vec();
    body.resize(size - b"&password=x".len(), b'a');
    body.extend_from_slice(b"&password=x");
    body
}

/// POSTs `body` as a form with the CSRF token in the header (so that the
/// CSRF layer does not need the body, as a script could do); the status,
/// or 0 when the server closed the connection without an answer.
async fn post_huge(c: &reqwest::Client, url: String, token: &str, body: Vec<u8>) -> u16 {
    match c
        .post(url)
        .header("content-type", "application/x-www-form-urlencoded")
        .header("x-csrf-token", token)
        .body(body)
        .send()
        .await
    {
        Ok(res) => res.status().as_u16(),
        Err(_) => 0,
    }
}

/// Sixteen bodies of 16 MB, four at a time, to the login form and to an
/// administrator's form: each is refused with 413 before it is buffered,
/// and the server's own memory (its process, alone) does not grow.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn huge_bodies_get_413_without_memory_growth() {
    const HUGE: usize = 16_000_000;
    let db = TestDb::new();
    create_admin_cli(&db.url(), ADMIN, ADMIN_PW);
    let mut server = Server::start_with(&db.url(), &[]);
    assert!(server.wait_healthy(START).await, "{}", server.output());
    let base = server.address.clone();
    let admin = client_from("127.0.0.1");
    let token = login_token(&admin, &base).await;
    let signed = post_login(&admin, &base, &token, ADMIN, ADMIN_PW).await;
    assert_eq!(signed.status, 303, "the administrator signs in");
    let page = admin
        .get(format!("{base}/admin/users"))
        .send()
        .await
        .expect("users page");
    let admin_token = crate::helpers::csrf_in(&page.text().await.expect("page"));
    let visitor = client_from("127.0.0.1");
    let visitor_token = login_token(&visitor, &base).await;
    // Warm up the allocator and the connection pools with small requests.
    post_huge(
        &visitor,
        format!("{base}/login"),
        &visitor_token,
        huge_form(1000),
    )
    .await;
    post_huge(
        &admin,
        format!("{base}/admin/users"),
        &admin_token,
        huge_form(1000),
    )
    .await;
    let before = server.memory_mib("VmRSS");
    let started = Instant::now();
    for _ in 0..4 {
        let mut tasks = Vec::new();
        for i in 0..4 {
            let (c, token, path) = if i % 2 == 0 {
                (visitor.clone(), visitor_token.clone(), "/login")
            } else {
                (admin.clone(), admin_token.clone(), "/admin/users")
            };
            let url = format!("{base}{path}");
            tasks.push(tokio::spawn(async move {
                (path, post_huge(&c, url, &token, huge_form(HUGE)).await)
            }));
        }
        for t in tasks {
            let (path, status) = t.await.expect("task");
            assert_eq!(status, 413, "{path}");
        }
    }
    let elapsed = started.elapsed();
    let after = server.memory_mib("VmRSS");
    let growth = after - before;
    println!(
        "16 × 16 MB bodies: server RSS {before:.1} MiB → {after:.1} MiB ({growth:+.1} MiB) in {elapsed:?}"
    );
    assert!(growth < 8.0, "the server's memory grew by {growth:.1} MiB");
    // The server still answers, and nothing was counted as a login.
    let res = admin
        .get(format!("{base}/admin/users"))
        .send()
        .await
        .expect("users page");
    assert_eq!(res.status().as_u16(), 200);
}
