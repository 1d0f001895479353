use std::path::PathBuf;

use burraco_td::config::Settings;
use burraco_td::startup::Application;
use diesel::connection::SimpleConnection;
use diesel::Connection;
use reqwest::redirect::Policy;

pub const ADMIN: &str = "admin";
pub const ADMIN_PW: &str = "correct horse battery";

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
                let mut conn = diesel::PgConnection::establish(&without_tls(&server))
                    .unwrap_or_else(|e| panic!("cannot reach TEST_DATABASE_URL: {e}"));
                conn.batch_execute(&format!("CREATE DATABASE {name}"))
                    .expect("create test database");
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
                if let Ok(mut conn) = diesel::PgConnection::establish(&without_tls(server)) {
                    let _ =
                        conn.batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"));
                }
            }
        }
    }
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
    /// The server's public page cache (its computation counter).
    pub public: std::sync::Arc<burraco_td::web::cache::PublicCache>,
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
    configure(&mut settings);
    let app = Application::build(settings).expect("application builds");
    let address = format!("http://127.0.0.1:{}", app.port());
    let pool = app.pool();
    let public = app.public_cache();
    tokio::spawn(app.run_until_stopped());
    TestApp {
        browser: Browser {
            address,
            client: new_client(),
        },
        db,
        pool,
        public,
    }
}

/// The CSRF token in a page's first form.
pub fn csrf_in(html: &str) -> String {
    let marker = "name=\"csrf_token\" value=\"";
    let start = html.find(marker).expect("page has a CSRF field") + marker.len();
    let end = html[start..].find('"').expect("closing quote") + start;
    html[start..end].to_string()
}

pub fn location(res: &reqwest::Response) -> String {
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

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client.get(self.url(path)).send().await.expect("GET")
    }

    pub async fn get_html(&self, path: &str) -> String {
        self.get(path).await.text().await.expect("body")
    }

    /// GETs `page` for its CSRF token, then POSTs the form to `action`.
    pub async fn submit(
        &self,
        page: &str,
        action: &str,
        fields: &[(&str, &str)],
    ) -> reqwest::Response {
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

    pub async fn post_raw(&self, action: &str, fields: &[(&str, &str)]) -> reqwest::Response {
        self.client
            .post(self.url(action))
            .form(fields)
            .send()
            .await
            .expect("POST")
    }

    pub async fn setup_admin(&self) {
        let res = self
            .submit(
                "/setup",
                "/setup",
                &[
                    ("username", ADMIN),
                    ("password", ADMIN_PW),
                    ("password2", ADMIN_PW),
                ],
            )
            .await;
        assert_eq!(res.status().as_u16(), 303, "setup redirects");
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

    pub async fn login(&self, username: &str, password: &str) -> reqwest::Response {
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

    /// As the admin (already logged in), creates an account.
    pub async fn create_user(&self, username: &str, role: &str, password: &str) {
        let res = self
            .submit(
                "/admin/users",
                "/admin/users",
                &[
                    ("username", username),
                    ("role", role),
                    ("password", password),
                    ("password2", password),
                ],
            )
            .await;
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
