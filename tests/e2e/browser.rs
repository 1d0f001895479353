//! A headless Chromium driven through ChromeDriver (Debian's packages,
//! installed by `.ci/browser`), and the server under test.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use burraco_td::config::Settings;
use burraco_td::startup::Application;
use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;

/// ChromeDriver running on a free port; stopped when dropped.
pub struct Driver {
    child: Child,
    _profile: TempDir,
    /// The WebDriver address, for more sessions (more phones).
    pub url: String,
}

/// A folder removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(prefix: &str) -> TempDir {
        let p = std::env::temp_dir().join(format!("{prefix}-{}", uuid::Uuid::new_v4().simple()));
        std::fs::create_dir_all(&p).expect("temp dir");
        TempDir(p)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

fn find(candidates: &[&str], env: &str) -> String {
    if let Ok(p) = std::env::var(env) {
        return p;
    }
    for c in candidates {
        if std::path::Path::new(c).exists() {
            return c.to_string();
        }
    }
    panic!(
        "{} not found: run `bash .ci/browser` (installs chromium and chromium-driver)",
        candidates[0]
    );
}

pub async fn start_driver() -> (Driver, Client) {
    let chromedriver = find(
        &["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"],
        "CHROMEDRIVER",
    );
    let port = free_port();
    let child = Command::new(chromedriver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let url = format!("http://127.0.0.1:{port}");
    let profile = TempDir::new("btd-chromium");
    let driver = Driver {
        child,
        _profile: profile,
        url: url.clone(),
    };
    let http = reqwest::Client::new();
    for _ in 0..100 {
        if http.get(format!("{url}/status")).send().await.is_ok() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let client = session(&url, &driver._profile, 1280, 900, "a WebDriver session").await;
    (driver, client)
}

/// A new session of the ChromeDriver at `url`: headless Chromium in
/// Italian, with its profile in `profile` and a window of `width` ×
/// `height`.
async fn session(url: &str, profile: &TempDir, width: u32, height: u32, what: &str) -> Client {
    let chromium = find(
        &["/usr/bin/chromium", "/usr/bin/chromium-browser"],
        "CHROMIUM",
    );
    let caps = json!({
        "goog:chromeOptions": {
            "binary": chromium,
            "args": [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--no-first-run", "--disable-quic", "--disable-extensions", "--hide-scrollbars",
                format!("--user-data-dir={}", profile.0.display()),
                format!("--window-size={width},{height}"), "--lang=it-IT",
            ],
            "prefs": {"intl.accept_languages": "it-IT,it"},
        }
    });
    let serde_json::Value::Object(caps) = caps else {
        unreachable!()
    };
    ClientBuilder::native()
        .capabilities(caps)
        .connect(url)
        .await
        .expect(what)
}

/// The server under test, on a fresh SQLite file.
pub struct Server {
    pub base: String,
    /// The server's database, for scenarios that set the stage directly.
    pub db: burraco_td::db::Db,
    _db: TempDir,
}

pub async fn start_server() -> Server {
    let dir = TempDir::new("btd-e2e-db");
    let mut settings = Settings::for_database(&dir.0.join("e2e.db").display().to_string());
    settings.bind = "127.0.0.1:0".into();
    // The browser's time goes to the pages, not to argon2.
    settings.hash_cost = burraco_td::auth::password::HashCost::TestsOnly;
    let app = Application::build(settings).expect("server builds");
    let base = format!("http://127.0.0.1:{}", app.port());
    let db = app.db();
    tokio::spawn(app.run_until_stopped());
    Server { base, db, _db: dir }
}

/// Another browser session (its own profile and cookies: another phone),
/// with a window of `width` × `height`.
pub async fn another_session(driver: &Driver, width: u32, height: u32) -> (TempDir, Client) {
    let profile = TempDir::new("btd-chromium-phone");
    let client = session(
        &driver.url,
        &profile,
        width,
        height,
        "another WebDriver session",
    )
    .await;
    client
        .set_window_size(width, height)
        .await
        .expect("phone size");
    (profile, client)
}

/// The page helpers the scenario uses.
pub struct Page<'a> {
    pub c: &'a Client,
    pub base: &'a str,
}

pub fn shots_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("target")
        .join("e2e-screenshots");
    std::fs::create_dir_all(&dir).expect("screenshot folder");
    dir
}

impl Page<'_> {
    pub async fn go(&self, path: &str) {
        self.c
            .goto(&format!("{}{}", self.base, path))
            .await
            .expect("navigate");
    }

    pub async fn html(&self) -> String {
        self.c.source().await.expect("page source")
    }

    pub async fn el(&self, css: &str) -> Element {
        self.c
            .wait()
            .at_most(Duration::from_secs(10))
            .for_element(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("element {css}: {e}"))
    }

    pub async fn fill(&self, css: &str, value: &str) {
        let e = self.el(css).await;
        e.clear().await.expect("clear");
        if !value.is_empty() {
            e.send_keys(value).await.expect("type");
        }
    }

    pub async fn click(&self, css: &str) {
        self.el(css)
            .await
            .click()
            .await
            .unwrap_or_else(|e| panic!("click {css}: {e}"));
    }

    /// Clicks `css` (a new page), checks that the page says `text`, and
    /// takes its screenshot `shot`.
    pub async fn submit_sees(&self, css: &str, text: &str, shot: &str) {
        self.submit(css).await;
        let html = self.html().await;
        assert!(html.contains(text), "after {css}: no {text:?} in {html}");
        self.shot(shot).await;
    }

    /// Fills the penalty form's pair, round, kind and amount.
    pub async fn penalty_form(&self, pair: &str, round: &str, kind: &str, amount: &str) {
        self.select("#pair", pair).await;
        self.select("#round", round).await;
        self.select("#kind", kind).await;
        self.fill("#amount", amount).await;
    }

    /// Saves the penalty form (the desk says so) and takes the screenshot
    /// `shot`.
    pub async fn save_penalty(&self, shot: &str) {
        let save = "form[action$='/penalties'] button[type=submit]";
        self.submit_sees(save, "Penalità registrata", shot).await;
    }

    /// Logs `user` in through the login form.
    pub async fn login(&self, user: &str, pw: &str) {
        self.go("/login").await;
        self.fill("#username", user).await;
        self.fill("#password", pw).await;
        self.submit("form[action='/login'] button[type=submit]")
            .await;
    }

    /// Clicks something that loads a new page, and waits for that page.
    pub async fn submit(&self, css: &str) {
        self.c
            .execute("window.__btd_old_page = true", vec![])
            .await
            .expect("mark page");
        self.click(css).await;
        self.wait_new_page().await;
    }

    /// Waits until the marked page has been replaced and the new one loaded.
    pub async fn wait_new_page(&self) {
        for _ in 0..200 {
            let done = self
                .c
                .execute(
                    "return window.__btd_old_page === undefined && document.readyState === 'complete'",
                    vec![],
                )
                .await
                .ok()
                .and_then(|v| v.as_bool())
                .unwrap_or(false);
            if done {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("no new page after 10 s");
    }

    pub async fn select(&self, css: &str, value: &str) {
        self.el(css)
            .await
            .select_by_value(value)
            .await
            .unwrap_or_else(|e| panic!("select {value} in {css}: {e}"));
    }

    pub async fn path(&self) -> String {
        let url = self.c.current_url().await.expect("url");
        let mut p = url.path().to_string();
        if let Some(q) = url.query() {
            p.push('?');
            p.push_str(q);
        }
        p
    }

    /// How far the widest table box scrolls sideways at `width` px (0: every
    /// table fits its box, nothing to scroll).
    pub async fn table_overflow_at(&self, width: u32) -> i64 {
        self.c.set_window_size(width, 900).await.expect("resize");
        let overflow = self
            .c
            .execute(
                "return Math.max(0, ...Array.from(document.querySelectorAll('.table-wrap')) \
                   .map(w => w.scrollWidth - w.clientWidth))",
                vec![],
            )
            .await
            .ok()
            .and_then(|v| v.as_i64())
            .unwrap_or(0);
        self.c.set_window_size(1280, 900).await.expect("resize");
        overflow
    }

    /// A full-page screenshot at the window's current width (a phone stays a
    /// phone), under `name`.
    pub async fn shot_as_is(&self, name: &str) {
        let png = self.c.screenshot().await.expect("screenshot");
        std::fs::write(shots_dir().join(format!("{name}.png")), png).expect("write screenshot");
    }

    /// Full-page screenshots at desktop width and at 360 px (a phone).
    pub async fn shot(&self, name: &str) {
        for (width, tag) in [(1280u32, "desktop"), (360, "phone")] {
            self.c.set_window_size(width, 900).await.expect("resize");
            let height = self
                .c
                .execute("return document.documentElement.scrollHeight", vec![])
                .await
                .ok()
                .and_then(|v| v.as_u64())
                .unwrap_or(900)
                .clamp(600, 6000) as u32;
            self.c.set_window_size(width, height).await.expect("resize");
            // Nothing may be wider than the window (tables scroll inside their box).
            let overflow = self
                .c
                .execute(
                    "return document.documentElement.scrollWidth - document.documentElement.clientWidth",
                    vec![],
                )
                .await
                .ok()
                .and_then(|v| v.as_i64())
                .unwrap_or(0);
            assert!(
                overflow <= 1,
                "{name} is {overflow}px wider than a {width}px window"
            );
            let png = self.c.screenshot().await.expect("screenshot");
            std::fs::write(shots_dir().join(format!("{name}-{tag}.png")), png)
                .expect("write screenshot");
        }
        self.c.set_window_size(1280, 900).await.expect("resize");
    }
}
