use std::path::PathBuf;

use burraco_td::auth::password::{HashCost, Hasher};
use burraco_td::auth::{Role, Username};
use burraco_td::config::Settings;
use burraco_td::startup::Application;
use reqwest::redirect::Policy;
use reqwest::Response;

pub const ADMIN: &str = "admin";
pub const ADMIN_PW: &str = "correct horse battery";

/// A pair that comes late: Tardi Anna and Ultimi Carlo.
pub const LATE: [(&str, &str); 4] = pair_form("Tardi", "Anna", "Ultimi", "Carlo");

/// The pair form's fields for two players (surname, name).
pub const fn pair_form<'a>(
    s1: &'a str,
    n1: &'a str,
    s2: &'a str,
    n2: &'a str,
) -> [(&'static str, &'a str); 4] {
    [
        ("p1_surname", s1),
        ("p1_name", n1),
        ("p2_surname", s2),
        ("p2_name", n2),
    ]
}

/// A database that lives as long as its test.
pub enum TestDb {
    Sqlite(PathBuf),
    Postgres { server: String, name: String },
}

impl TestDb {
    /// A SQLite file, whatever TEST_DATABASE_URL says.
    pub fn sqlite() -> TestDb {
        let id = uuid::Uuid::new_v4().simple().to_string();
        TestDb::Sqlite(std::env::temp_dir().join(format!("btd_test_{id}.db")))
    }

    pub fn new() -> TestDb {
        let id = uuid::Uuid::new_v4().simple().to_string();
        match std::env::var("TEST_DATABASE_URL") {
            Ok(server) if !server.is_empty() => {
                let name = format!("btd_test_{id}");
                let template = pg_template(&server);
                // A copy of the migrated template: no migrations per test.
                crate::peek::pg_admin(
                    &without_tls(&server),
                    &format!("CREATE DATABASE {name} TEMPLATE {template}"),
                )
                .unwrap_or_else(|e| panic!("create a test database on TEST_DATABASE_URL: {e}"));
                TestDb::Postgres { server, name }
            }
            _ => TestDb::Sqlite(std::env::temp_dir().join(format!("btd_test_{id}.db"))),
        }
    }

    pub fn url(&self) -> String {
        match self {
            TestDb::Sqlite(p) => p.display().to_string(),
            TestDb::Postgres { server, name } => {
                // Replace the database part of the server URL. The tests
                // talk to a local server without TLS: with TLS, OpenSSL's
                // clean-up at process exit can race the server threads that
                // still hold connections ("free(): invalid pointer").
                let (server, query) = match server.split_once('?') {
                    Some((s, q)) => (s, q.to_string()),
                    None => (server.as_str(), "sslmode=disable".to_string()),
                };
                let base = match server.rsplit_once('/') {
                    Some((b, _)) if b.contains("://") && b.len() > "postgres://".len() => {
                        b.to_string()
                    }
                    _ => server.trim_end_matches('/').to_string(),
                };
                format!("{base}/{name}?{query}")
            }
        }
    }

    pub fn is_postgres(&self) -> bool {
        matches!(self, TestDb::Postgres { .. })
    }

    /// A PostgreSQL database dropped while the app still uses it (the
    /// database stops answering); nothing on SQLite.
    pub fn drop_now(&self) {
        if let TestDb::Postgres { server, name } = self {
            crate::peek::pg_admin(
                &without_tls(server),
                &format!("DROP DATABASE {name} WITH (FORCE)"),
            )
            .expect("dropped");
        }
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        match self {
            TestDb::Sqlite(p) => {
                for suffix in ["", "-wal", "-shm"] {
                    let _ = std::fs::remove_file(format!("{}{suffix}", p.display()));
                }
            }
            TestDb::Postgres { server, name } => {
                let _ = crate::peek::pg_admin(
                    &without_tls(server),
                    &format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
                );
            }
        }
    }
}

/// The migrated database the PostgreSQL test databases are copied from:
/// made once per test process, dropped when the process exits.
fn pg_template(server: &str) -> String {
    static TEMPLATE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    static SERVER: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEMPLATE
        .get_or_init(|| {
            let name = format!("btd_template_{}", uuid::Uuid::new_v4().simple());
            crate::peek::pg_admin(&without_tls(server), &format!("CREATE DATABASE {name}"))
                .unwrap_or_else(|e| panic!("create the template on TEST_DATABASE_URL: {e}"));
            let db = TestDb::Postgres {
                server: server.to_string(),
                name: name.clone(),
            };
            let url = burraco_td::db::DbUrl::parse(&db.url());
            // Migrated, then every connection closed (a template must have none).
            drop(burraco_td::startup::prepare_database(&url, 1).expect("migrate the template"));
            std::mem::forget(db);
            let _ = SERVER.set(server.to_string());
            extern "C" fn drop_template() {
                if let (Some(server), Some(name)) = (SERVER.get(), TEMPLATE.get()) {
                    let _ = crate::peek::pg_admin(
                        &without_tls(server),
                        &format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
                    );
                }
            }
            // SAFETY: registers a plain function to run at process exit.
            unsafe {
                libc::atexit(drop_template);
            }
            name
        })
        .clone()
}

/// The id at the end of a tournament's page path (`/director/t/3` → 3).
pub fn tid_of(t: &str) -> i64 {
    t.split('?')
        .next()
        .and_then(|p| p.rsplit('/').next())
        .and_then(|id| id.parse().ok())
        .unwrap_or_else(|| panic!("no tournament id at the end of {t}"))
}

/// One browser (its own cookies) talking to the test server.
pub struct Browser {
    pub address: String,
    pub client: reqwest::Client,
}

/// The server URL with `sslmode=disable` unless it names a mode.
pub fn without_tls(url: &str) -> String {
    if url.contains("sslmode=") {
        url.to_string()
    } else if url.contains('?') {
        format!("{url}&sslmode=disable")
    } else {
        format!("{url}?sslmode=disable")
    }
}

pub struct TestApp {
    pub browser: Browser,
    pub db: TestDb,
    pub pool: burraco_td::db::Pool,
    /// The handle the services take: tests seed through it, and move its
    /// clock instead of sleeping.
    pub handle: burraco_td::db::Db,
    /// The first browser's cookies (a session seeded through the services
    /// goes in here).
    pub jar: std::sync::Arc<reqwest::cookie::Jar>,
    /// The server's public page cache (its computation counter).
    pub public: std::sync::Arc<burraco_td::web::cache::PublicCache>,
}

impl crate::peek::Pooled for TestApp {
    fn conn(&self) -> burraco_td::db::PooledConn {
        self.pool.get().expect("a connection")
    }
}

impl std::ops::Deref for TestApp {
    type Target = Browser;
    fn deref(&self) -> &Browser {
        &self.browser
    }
}

pub fn new_client() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(Policy::none())
        .cookie_store(true)
        .build()
        .expect("client")
}

pub async fn spawn_app() -> TestApp {
    spawn_app_with(TestDb::new(), |_| {}).await
}

/// An app on a given database, with settings changed by `configure`.
pub async fn spawn_app_with(db: TestDb, configure: impl FnOnce(&mut Settings)) -> TestApp {
    if std::env::var("TEST_LOG").is_ok() {
        burraco_td::telemetry::init("debug");
    }
    let mut settings = Settings::for_database(&db.url());
    settings.bind = "127.0.0.1:0".to_string();
    // Tests spend their time on what they test, not on argon2.
    settings.hash_cost = HashCost::TestsOnly;
    configure(&mut settings);
    let app = Application::build(settings).expect("application builds");
    let address = format!("http://127.0.0.1:{}", app.port());
    let pool = app.pool();
    let public = app.public_cache();
    let handle = app.db();
    tokio::spawn(app.run_until_stopped());
    let jar = std::sync::Arc::new(reqwest::cookie::Jar::default());
    TestApp {
        browser: Browser {
            address,
            client: client_with(jar.clone()),
        },
        db,
        pool,
        handle,
        jar,
        public,
    }
}

fn client_with(jar: std::sync::Arc<reqwest::cookie::Jar>) -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(Policy::none())
        .cookie_provider(jar)
        .build()
        .expect("client")
}

/// A password hash as a test server makes them (cheap).
pub async fn test_hash(password: &str) -> String {
    let hasher = std::sync::Arc::new(Hasher::with_cost(1, 1, HashCost::TestsOnly));
    hasher
        .admit()
        .expect("a place")
        .hash(password.to_string())
        .await
        .expect("hash")
}

impl TestApp {
    /// The administrator, seeded through the services (the setup form has
    /// tests of its own), with this browser signed in as her.
    pub async fn setup_admin(&self) {
        let hash = test_hash(ADMIN_PW).await;
        let signed = burraco_td::services::accounts::create_first_admin(
            &self.handle,
            Username::parse(ADMIN).expect("a username"),
            hash,
        )
        .await
        .expect("seed the administrator")
        .expect("the first administrator");
        self.jar.add_cookie_str(
            &format!(
                "{}={}; Path=/",
                burraco_td::auth::session::COOKIE,
                signed.token
            ),
            &self.address.parse().expect("the server's address"),
        );
    }

    /// An account, seeded through the services.
    pub async fn create_user(&self, username: &str, role: &str, password: &str) {
        let role = Role::parse(role).expect("a role");
        burraco_td::services::users::create_from_command_line(
            &self.handle,
            username.to_string(),
            test_hash(password).await,
            role,
        )
        .await
        .unwrap_or_else(|e| panic!("seed {username}: {e}"));
    }

    /// The server's clock (moved forward instead of sleeping).
    pub fn clock(&self) -> &burraco_td::db::Clock {
        self.handle.clock()
    }
}

/// The CSRF token in a page's first form.
pub fn csrf_in(html: &str) -> String {
    let marker = "name=\"csrf_token\" value=\"";
    let start = html.find(marker).expect("page has a CSRF field") + marker.len();
    let end = html[start..].find('"').expect("closing quote") + start;
    html[start..end].to_string()
}

/// The JSON an answer to `req` carries.
pub async fn json_of<T: serde::de::DeserializeOwned>(req: reqwest::RequestBuilder) -> T {
    req.send()
        .await
        .expect("sent")
        .json()
        .await
        .expect("a JSON body")
}

/// GET `url` with `c`, in the language `lang` (`Accept-Language`).
pub async fn get_in(c: &reqwest::Client, url: String, lang: &str) -> Response {
    c.get(url)
        .header("accept-language", lang)
        .send()
        .await
        .expect("GET")
}

/// The text an answer to `req` carries.
pub async fn text_of(req: reqwest::RequestBuilder) -> String {
    req.send()
        .await
        .expect("sent")
        .text()
        .await
        .expect("a body")
}

/// A header of an answer, empty when it has none.
pub fn header(res: &Response, name: &str) -> String {
    res.headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string()
}

/// The id of the circuit a redirect leads to (`/director/circuits/{id}…`).
pub fn circuit_id_of(res: &Response) -> i64 {
    circuit_id_in(&location(res))
}

/// The id of the circuit at `to` (`/director/circuits/{id}…`).
pub fn circuit_id_in(to: &str) -> i64 {
    let id = to
        .trim_start_matches("/director/circuits/")
        .split('?')
        .next();
    id.and_then(|id| id.parse().ok())
        .unwrap_or_else(|| panic!("no circuit at {to}"))
}

pub fn location(res: &Response) -> String {
    res.headers()
        .get("location")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string()
}

impl Browser {
    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.address, path)
    }

    pub async fn get(&self, path: &str) -> Response {
        self.client.get(self.url(path)).send().await.expect("GET")
    }

    pub async fn get_html(&self, path: &str) -> String {
        self.get(path).await.text().await.expect("body")
    }

    pub async fn get_json<T: serde::de::DeserializeOwned>(&self, path: &str) -> T {
        self.get(path).await.json().await.expect("a JSON body")
    }

    pub async fn get_status(&self, path: &str) -> u16 {
        self.get(path).await.status().as_u16()
    }

    /// The administrator imports a tournament file through the form.
    pub async fn import_file(&self, json: &str) -> Response {
        self.submit("/admin/import", "/admin/import", &[("json", json)])
            .await
    }

    /// GETs `page` for its CSRF token, then POSTs the form to `action`.
    pub async fn submit(&self, page: &str, action: &str, fields: &[(&str, &str)]) -> Response {
        let token = csrf_in(&self.get_html(page).await);
        let mut form: Vec<(&str, &str)> = fields.to_vec();
        form.push(("csrf_token", &token));
        self.client
            .post(self.url(action))
            .form(&form)
            .send()
            .await
            .expect("POST")
    }

    /// Confirms the action `{t}/{action}` from the page `t` (`confirm=1`
    /// and `extra`).
    pub async fn confirm(&self, t: &str, action: &str, extra: &[(&str, &str)]) -> Response {
        let mut fields = vec![("confirm", "1")];
        fields.extend_from_slice(extra);
        self.submit(t, &format!("{t}/{action}"), &fields).await
    }

    /// A penalty in round 1 through the desk's form: `pair` is the pair's
    /// database id, `kind` warning, vp, mp (or empty: the reason decides),
    /// `amount` empty for none.
    pub async fn penalty(
        &self,
        tid: impl std::fmt::Display,
        pair: impl std::fmt::Display,
        kind: &str,
        amount: &str,
        reason: &str,
    ) -> Response {
        let pen = format!("/desk/t/{tid}/penalties");
        let pair = pair.to_string();
        let mut fields = vec![("pair", pair.as_str()), ("round", "1"), ("kind", kind)];
        if !amount.is_empty() {
            fields.push(("amount", amount));
        }
        fields.push(("reason", reason));
        self.submit(&pen, &pen, &fields).await
    }

    /// Withdraws the penalty `id` through the desk's form, with `reason`.
    pub async fn withdraw_penalty(
        &self,
        tid: impl std::fmt::Display,
        id: impl std::fmt::Display,
        reason: &str,
    ) -> Response {
        let pen = format!("/desk/t/{tid}/penalties");
        self.submit(&pen, &format!("{pen}/{id}/withdraw"), &[("reason", reason)])
            .await
    }

    /// Registers a pair at the tournament `t` through its form.
    pub async fn add_pair(&self, t: &str, fields: &[(&str, &str)]) -> Response {
        self.submit(&format!("{t}/pairs/new"), &format!("{t}/pairs"), fields)
            .await
    }

    /// Posts the new-circuit form.
    pub async fn circuit_form(&self, fields: &[(&str, &str)]) -> Response {
        self.submit("/director/circuits", "/director/circuits", fields)
            .await
    }

    pub async fn post_raw(&self, action: &str, fields: &[(&str, &str)]) -> Response {
        self.client
            .post(self.url(action))
            .form(fields)
            .send()
            .await
            .expect("POST")
    }

    /// Posts the one-time setup form.
    pub async fn setup_form(&self, username: &str, password: &str, password2: &str) -> Response {
        let fields = [
            ("username", username),
            ("password", password),
            ("password2", password2),
        ];
        self.submit("/setup", "/setup", &fields).await
    }

    /// The one-time setup, through its form.
    pub async fn setup_admin_through_the_form(&self) {
        let res = self.setup_form(ADMIN, ADMIN_PW, ADMIN_PW).await;
        assert_eq!(res.status().as_u16(), 303, "setup redirects");
    }

    /// Posts the administrator's new-account form.
    pub async fn user_form(
        &self,
        username: &str,
        role: &str,
        password: &str,
        password2: &str,
    ) -> Response {
        let fields = [
            ("username", username),
            ("role", role),
            ("password", password),
            ("password2", password2),
        ];
        self.submit("/admin/users", "/admin/users", &fields).await
    }

    /// Posts a form of the user page of account `id` (`action`: its action
    /// below `/admin/users/{id}/`).
    pub async fn user_action(
        &self,
        id: impl std::fmt::Display,
        action: &str,
        fields: &[(&str, &str)],
    ) -> Response {
        let page = format!("/admin/users/{id}");
        self.submit(&page, &format!("{page}/{action}"), fields)
            .await
    }

    /// Adds `username` to the staff of the tournament at `t` (a director's
    /// page path like `/director/t/3`) as `role` (referee or director).
    pub async fn assign(&self, t: &str, username: &str, role: &str) {
        let res = self
            .submit(
                t,
                &format!("{t}/staff"),
                &[("username", username), ("role", role)],
            )
            .await;
        assert_eq!(res.status().as_u16(), 303, "assign {username} as {role}");
    }

    pub async fn login(&self, username: &str, password: &str) -> Response {
        self.submit(
            "/login",
            "/login",
            &[("username", username), ("password", password)],
        )
        .await
    }

    pub async fn logout(&self) {
        let res = self.submit("/", "/logout", &[]).await;
        assert_eq!(res.status().as_u16(), 303);
    }

    /// As the admin (already logged in), creates an account through the form.
    pub async fn create_user_through_the_form(&self, username: &str, role: &str, password: &str) {
        let res = self.user_form(username, role, password, password).await;
        assert_eq!(res.status().as_u16(), 303, "user {username} created");
    }

    /// A second browser (fresh cookies) on the same server.
    pub fn another_browser(&self) -> Browser {
        Browser {
            address: self.address.clone(),
            client: new_client(),
        }
    }
}
