//! What the races share: logged-in clients with their CSRF token, a status
//! histogram, a tournament set up through the pages, the director export,
//! and the real binary as a child process.

use std::collections::BTreeMap;
use std::fmt;
use std::future::Future;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::redirect::Policy;
use serde_json::Value;
use tokio::sync::Barrier;

use burraco_td::db::{build_pool, Db, DbUrl};
use burraco_td::ids::TournamentId;

use crate::helpers::{csrf_in, location, Browser};

pub const DIRECTOR_PW: &str = "director pass";

/// An app with the administrator and the director dora.
pub async fn app_with_director() -> crate::helpers::TestApp {
    let app = crate::helpers::spawn_app().await;
    app.setup_admin().await;
    app.create_user("dora", "director", DIRECTOR_PW).await;
    app
}

/// [`app_with_director`] with dora logged in.
pub async fn with_director() -> (crate::helpers::TestApp, Staff) {
    let app = app_with_director().await;
    let dora = Staff::login(&app.address, "dora", DIRECTOR_PW).await;
    (app, dora)
}

/// A client with its own cookies and a timeout, so no test hangs.
pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(Policy::none())
        .cookie_store(true)
        .timeout(Duration::from_secs(30))
        .build()
        .expect("client")
}

pub fn browser(address: &str) -> Browser {
    Browser {
        address: address.to_string(),
        client: client(),
    }
}

/// One answer: status (0 when the request failed: refused, reset, timed out),
/// `Location`, and the start of the body for a 5xx (to show the cause).
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: u16,
    pub location: String,
    pub error: String,
    /// When the answer arrived, from the start of the test's clock.
    pub at: Duration,
}

impl Answer {
    pub fn is_5xx(&self) -> bool {
        self.status >= 500
    }
}

pub async fn answer_of(result: reqwest::Result<reqwest::Response>, clock: Instant) -> Answer {
    match result {
        Ok(res) => {
            let status = res.status().as_u16();
            let loc = location(&res);
            let error = if status >= 500 {
                let body = res.text().await.unwrap_or_default();
                snippet(&body)
            } else {
                // Read the body so the connection can be reused.
                let _ = res.bytes().await;
                String::new()
            };
            Answer {
                status,
                location: loc,
                error,
                at: clock.elapsed(),
            }
        }
        Err(e) => Answer {
            status: 0,
            location: String::new(),
            error: error_chain(&e),
            at: clock.elapsed(),
        },
    }
}

/// An error and its causes on one line.
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        out.push_str(": ");
        out.push_str(&c.to_string());
        cause = c.source();
    }
    out
}

/// The text of an error page, squeezed to one short line.
fn snippet(html: &str) -> String {
    let mut text = String::new();
    let mut in_tag = false;
    for ch in html.chars() {
        match ch {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                text.push(' ');
            }
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    words.join(" ").chars().take(160).collect()
}

/// A logged-in staff browser and its session's CSRF token.
pub struct Staff {
    pub b: Browser,
    pub token: String,
}

impl Staff {
    pub async fn login(address: &str, user: &str, password: &str) -> Staff {
        let b = browser(address);
        let res = b.login(user, password).await;
        assert_eq!(res.status().as_u16(), 303, "{user} logs in");
        let token = csrf_in(&b.get_html("/").await);
        Staff { b, token }
    }

    /// `n` browsers of the same account, each logged in on its own.
    pub async fn logins(address: &str, user: &str, password: &str, n: usize) -> Vec<Staff> {
        let mut all = Vec::new();
        for _ in 0..n {
            all.push(Staff::login(address, user, password).await);
        }
        all
    }

    /// POSTs a form with the session's token; never panics on the answer.
    pub async fn post(&self, path: &str, fields: &[(String, String)]) -> Answer {
        self.post_at(path, fields, Instant::now()).await
    }

    pub async fn post_at(&self, path: &str, fields: &[(String, String)], clock: Instant) -> Answer {
        let mut form: Vec<(&str, &str)> = fields
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        form.push(("csrf_token", &self.token));
        let res = self
            .b
            .client
            .post(self.b.url(path))
            .form(&form)
            .send()
            .await;
        answer_of(res, clock).await
    }

    pub async fn get(&self, path: &str) -> Answer {
        let res = self.b.client.get(self.b.url(path)).send().await;
        answer_of(res, Instant::now()).await
    }

    /// GET: the answer and the page's text.
    pub async fn page(&self, path: &str) -> (Answer, String) {
        let clock = Instant::now();
        match self.b.client.get(self.b.url(path)).send().await {
            Ok(res) => {
                let status = res.status().as_u16();
                let text = res.text().await.unwrap_or_default();
                let error = if status >= 500 {
                    snippet(&text)
                } else {
                    String::new()
                };
                let a = Answer {
                    status,
                    location: String::new(),
                    error,
                    at: clock.elapsed(),
                };
                (a, text)
            }
            Err(e) => (answer_of(Err(e), clock).await, String::new()),
        }
    }

    pub async fn html(&self, path: &str) -> String {
        self.b.get_html(path).await
    }
}

/// Anonymous GET (public pages, health).
pub async fn get_anon(c: &reqwest::Client, url: &str) -> Answer {
    answer_of(c.get(url).send().await, Instant::now()).await
}

pub fn fields(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// A status histogram.
#[derive(Default, Debug, Clone)]
pub struct Tally {
    pub by_status: BTreeMap<u16, usize>,
    /// The first few distinct 5xx / transport errors, to name the cause.
    pub errors: Vec<String>,
}

impl Tally {
    pub fn add(&mut self, a: &Answer) {
        *self.by_status.entry(a.status).or_default() += 1;
        if (a.is_5xx() || a.status == 0) && self.errors.len() < 3 {
            let e = format!("{} {}", a.status, a.error);
            if !self.errors.contains(&e) {
                self.errors.push(e);
            }
        }
    }

    pub fn of(answers: &[Answer]) -> Tally {
        let mut t = Tally::default();
        for a in answers {
            t.add(a);
        }
        t
    }

    pub fn merge(&mut self, other: &Tally) {
        for (s, n) in &other.by_status {
            *self.by_status.entry(*s).or_default() += n;
        }
        for e in &other.errors {
            if self.errors.len() < 3 && !self.errors.contains(e) {
                self.errors.push(e.clone());
            }
        }
    }

    pub fn total(&self) -> usize {
        self.by_status.values().sum()
    }

    pub fn count_5xx(&self) -> usize {
        self.by_status
            .iter()
            .filter(|(s, _)| **s >= 500)
            .map(|(_, n)| n)
            .sum()
    }

    pub fn count(&self, status: u16) -> usize {
        self.by_status.get(&status).copied().unwrap_or(0)
    }
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self
            .by_status
            .iter()
            .map(|(s, n)| {
                if *s == 0 {
                    format!("err×{n}")
                } else {
                    format!("{s}×{n}")
                }
            })
            .collect();
        write!(f, "[{}]", parts.join(" "))?;
        if !self.errors.is_empty() {
            write!(f, " first errors: {:?}", self.errors)?;
        }
        Ok(())
    }
}

/// Runs the futures at the same moment: each waits on one barrier, then goes.
pub async fn all_at_once<F, T>(jobs: Vec<F>) -> Vec<T>
where
    F: Future<Output = T> + Send + 'static,
    T: Send + 'static,
{
    let barrier = Arc::new(Barrier::new(jobs.len()));
    let handles: Vec<_> = jobs
        .into_iter()
        .map(|job| {
            let barrier = barrier.clone();
            tokio::spawn(async move {
                barrier.wait().await;
                job.await
            })
        })
        .collect();
    let mut out = Vec::with_capacity(handles.len());
    for h in handles {
        out.push(h.await.expect("task"));
    }
    out
}

// ---- a tournament built through the services ----

/// The services' handle on a test database (a tournament is built on it
/// while servers started on the same database run).
pub fn db_of(url: &str) -> Db {
    let url = DbUrl::parse(url);
    Db::new(build_pool(&url, 2).expect("a pool"), &url)
}

/// A running tournament owned by `owner`: `pairs` pairs (numbers
/// 1..=pairs), checked in, round 1 drawn.
pub async fn running_tournament(db: &Db, owner: &str, name: &str, pairs: usize) -> i64 {
    TournamentBuilder::new(db, name)
        .owner(owner)
        .pairs(pairs)
        .drawn()
        .build()
        .await
        .tid
}

/// The pairs' ids by number.
pub async fn pair_ids(db: &Db, tid: i64) -> Vec<i64> {
    crate::builders::pair_ids(db, crate::builders::admin(), TournamentId(tid))
        .await
        .into_iter()
        .map(|id| id.0)
        .collect()
}

pub use crate::builders::{pairs_csv, TournamentBuilder};

/// The settings form's fields (a club evening, 4 rounds of which 3 Mitchell),
/// for the tests that post the form.
pub fn settings(name: &str) -> Vec<(String, String)> {
    let mut f: Vec<(String, String)> = crate::builders::SETTINGS
        .iter()
        .filter(|(k, _)| *k != "name")
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    f.push(("name".into(), name.into()));
    f
}

/// The director's export of the tournament (FORMAT.md).
pub async fn export(s: &Staff, tid: i64) -> Value {
    let res =
        s.b.client
            .get(s.b.url(&format!("/director/t/{tid}/export.json")))
            .send()
            .await
            .expect("export");
    assert_eq!(res.status().as_u16(), 200, "export of {tid}");
    res.json().await.expect("export is JSON")
}

/// One table of a round in the export.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Table {
    pub table: i64,
    pub ns: i64,
    pub ew: i64,
}

pub fn rounds_of(file: &Value) -> &Vec<Value> {
    file["rounds"].as_array().expect("rounds")
}

pub fn tables_of(file: &Value, round: i64) -> Vec<Table> {
    rounds_of(file)
        .iter()
        .find(|r| r["number"].as_i64() == Some(round))
        .and_then(|r| r["tables"].as_array())
        .map(|ts| {
            ts.iter()
                .map(|t| Table {
                    table: t["table"].as_i64().unwrap_or(0),
                    ns: t["ns"].as_i64().unwrap_or(0),
                    ew: t["ew"].as_i64().unwrap_or(0),
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The NS melded points of hand 1 of a table's sheet, if it has a sheet
/// (the tests write a distinct value per save to recognise it).
pub fn sheet_mark(file: &Value, round: i64, table: i64) -> Option<i64> {
    rounds_of(file)
        .iter()
        .find(|r| r["number"].as_i64() == Some(round))?["tables"]
        .as_array()?
        .iter()
        .find(|t| t["table"].as_i64() == Some(table))?["sheet"]["hands"][0]["ns"]["melded_points"]
        .as_i64()
}

/// A whole 3-hand sheet: NS = 3 × (ns + 300), EW = 3 × (ew − 20). `ns` is
/// the mark [`sheet_mark`] reads back (a multiple of 5).
pub use crate::builders::sheet;

/// A correction of a saved sheet: the version the editor loaded and a reason.
pub fn correction(ns: i64, version: i64) -> Vec<(String, String)> {
    let mut f = sheet(ns, 90);
    f.push(("version".into(), version.to_string()));
    f.push(("reason".into(), "ricontato".into()));
    f
}

pub fn sheet_path(tid: i64, round: i64, table: i64) -> String {
    format!("/desk/t/{tid}/rounds/{round}/tables/{table}")
}

/// Saves every table of a round once (mark 120); panics on anything but 303.
pub async fn score_round(s: &Staff, tid: i64, round: i64) {
    let file = export(s, tid).await;
    for t in tables_of(&file, round) {
        let a = s
            .post(&sheet_path(tid, round, t.table), &sheet(120, 90))
            .await;
        assert_eq!(a.status, 303, "sheet of table {}: {a:?}", t.table);
    }
}

// ---- the real binary ----

pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_burraco-td")
}

/// A free local port (bound, then released).
pub fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind :0");
    l.local_addr().expect("addr").port()
}

/// A server process; killed (SIGKILL) when dropped.
pub struct Server {
    pub child: Child,
    pub address: String,
    pub log: PathBuf,
}

impl Server {
    /// Starts `burraco-td` (serve) on a free port with `BIND`/`DATABASE_URL`.
    pub fn start(database_url: &str) -> Server {
        Server::start_with(database_url, &[])
    }

    /// [`Server::start`] with more environment (settings such as
    /// `BODY_TIMEOUT_SECS`).
    pub fn start_with(database_url: &str, env: &[(&str, &str)]) -> Server {
        let port = free_port();
        let log = std::env::temp_dir().join(format!(
            "btd_conc_{}_{port}.log",
            uuid::Uuid::new_v4().simple()
        ));
        let out = std::fs::File::create(&log).expect("log file");
        let err = out.try_clone().expect("log file");
        let child = Command::new(bin())
            .env("BIND", format!("127.0.0.1:{port}"))
            .env("DATABASE_URL", database_url)
            .env("RUST_LOG", "warn")
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::from(out))
            .stderr(Stdio::from(err))
            .spawn()
            .expect("start burraco-td");
        Server {
            child,
            address: format!("http://127.0.0.1:{port}"),
            log,
        }
    }

    /// Waits until `/healthz` answers 200, the process exits, or the
    /// deadline passes. True when healthy.
    pub async fn wait_healthy(&mut self, within: Duration) -> bool {
        let c = client();
        let deadline = Instant::now() + within;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return false;
            }
            if let Ok(res) = c.get(format!("{}/healthz", self.address)).send().await {
                if res.status().as_u16() == 200 {
                    return true;
                }
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        false
    }

    /// The process's output (for a failure message).
    pub fn output(&self) -> String {
        let s = std::fs::read_to_string(&self.log).unwrap_or_default();
        let tail: Vec<&str> = s.lines().rev().take(15).collect();
        tail.into_iter().rev().collect::<Vec<_>>().join("\n")
    }

    /// A memory figure of the process from `/proc` (`VmRSS`, `VmHWM`: the
    /// peak), in MiB.
    pub fn memory_mib(&self, field: &str) -> f64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .unwrap_or_default();
        status
            .lines()
            .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
            .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
            .map_or(0.0, |kib| kib / 1024.0)
    }

    /// SIGKILL (std's `Child::kill` on Unix), then reap.
    pub fn kill9(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill9();
        let _ = std::fs::remove_file(&self.log);
    }
}

/// `burraco-td create-token USERNAME`: the token it prints.
pub fn create_token_cli(database_url: &str, user: &str) -> String {
    let out = Command::new(bin())
        .args(["create-token", user, "--name", "tests"])
        .env("DATABASE_URL", database_url)
        .stdin(Stdio::null())
        .output()
        .expect("create-token");
    assert!(
        out.status.success(),
        "create-token: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// A client whose connections leave from `local` (another loopback address
/// is another client address for the server's brakes and caps).
pub fn client_from(local: &str) -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(Policy::none())
        .cookie_store(true)
        .timeout(Duration::from_secs(60))
        .local_address(local.parse::<std::net::IpAddr>().expect("an address"))
        .build()
        .expect("client")
}

/// `burraco-td create-user --role admin NAME`, the password on stdin.
pub fn create_admin_cli(database_url: &str, name: &str, password: &str) {
    create_user_cli(database_url, "admin", name, password)
}

/// `burraco-td create-user --role ROLE NAME`, the password on stdin.
pub fn create_user_cli(database_url: &str, role: &str, name: &str, password: &str) {
    use std::io::Write;
    let mut child = Command::new(bin())
        .args(["create-user", "--role", role, name])
        .env("DATABASE_URL", database_url)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("create-user");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(format!("{password}\n").as_bytes())
        .expect("password on stdin");
    let out = child.wait_with_output().expect("create-user ends");
    assert!(
        out.status.success(),
        "create-user: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The servers a race runs against (on PostgreSQL two instances of one
/// database, on SQLite one), an administrator, the director `dora` signed
/// in on the first, and her API token: (servers, their addresses, token,
/// dora).
pub async fn race_servers(
    db: &crate::helpers::TestDb,
) -> (Vec<Server>, Vec<String>, String, Staff) {
    create_admin_cli(&db.url(), crate::helpers::ADMIN, crate::helpers::ADMIN_PW);
    create_user_cli(&db.url(), "director", "dora", DIRECTOR_PW);
    let token = create_token_cli(&db.url(), "dora");
    let n = if db.is_postgres() { 2 } else { 1 };
    let mut servers: Vec<Server> = (0..n).map(|_| Server::start_with(&db.url(), &[])).collect();
    for s in &mut servers {
        assert!(
            s.wait_healthy(std::time::Duration::from_secs(30)).await,
            "{}",
            s.output()
        );
    }
    let bases: Vec<String> = servers.iter().map(|s| s.address.clone()).collect();
    let dora = Staff::login(&bases[0], "dora", DIRECTOR_PW).await;
    (servers, bases, token, dora)
}

/// `n` `nextRound` calls with `body` at once through the API, spread over
/// the servers `bases`, with dora's `token`: their answers.
pub async fn next_round_burst(
    bases: &[String],
    tid: i64,
    token: &str,
    body: serde_json::Value,
    n: usize,
) -> Vec<Answer> {
    let client = client();
    let clock = std::time::Instant::now();
    let jobs: Vec<_> = (0..n)
        .map(|i| {
            let (client, token, body) = (client.clone(), token.to_string(), body.clone());
            let url = format!("{}/api/v1/tournaments/{tid}/rounds", bases[i % bases.len()]);
            async move {
                let res = client.post(url).bearer_auth(token).json(&body).send().await;
                answer_of(res, clock).await
            }
        })
        .collect();
    all_at_once(jobs).await
}
