//! The first night (issue 31, item 1): a server started as the README
//! says (every interface, `--bind [::]:PORT`) prints where the desk and the
//! phones open it; the director opens the table cards from the hall's
//! network address; and a phone on another network host (a network
//! namespace this test makes, joined by a veth pair: 10.213.x.1 is the
//! server's side, 10.213.x.2 the phone's) opens the QR code's URL in
//! headless Chromium.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use burraco_td::auth::Role;
use burraco_td::db::{Db, DbUrl};

use crate::browser::{shots_dir, TempDir};
use crate::qr_read::decode;
use crate::setup;

const DORA_PW: &str = "director pass 9";

/// A second host on a network of its own: a namespace and a veth pair,
/// removed when dropped.
struct PhoneHost {
    ns: String,
    veth: String,
    server_ip: String,
}

/// iproute2's `ip` (in /usr/sbin, which a PATH may leave out).
fn ip_bin() -> &'static str {
    ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists())
        .unwrap_or("ip")
}

fn ip(args: &[&str]) {
    let out = Command::new(ip_bin())
        .args(args)
        .output()
        .expect("the `ip` command (iproute2) runs");
    assert!(
        out.status.success(),
        "ip {}: {} (this test makes a network namespace: it runs as root)",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
}

impl PhoneHost {
    fn new() -> PhoneHost {
        let n = std::process::id() % 250 + 1;
        let ns = format!("btd-phone{n}");
        let veth = format!("btd-h{n}");
        let peer = format!("btd-p{n}");
        let server_ip = format!("10.213.{n}.1");
        // A namespace left by a killed run goes first.
        let _ = Command::new(ip_bin()).args(["netns", "del", &ns]).output();
        let _ = Command::new(ip_bin()).args(["link", "del", &veth]).output();
        ip(&["netns", "add", &ns]);
        ip(&["link", "add", &veth, "type", "veth", "peer", "name", &peer]);
        ip(&["link", "set", &peer, "netns", &ns]);
        ip(&["addr", "add", &format!("{server_ip}/30"), "dev", &veth]);
        ip(&["link", "set", &veth, "up"]);
        let in_ns = |args: &[&str]| {
            let mut all = vec!["netns", "exec", &ns, "ip"];
            all.extend_from_slice(args);
            ip(&all);
        };
        in_ns(&["addr", "add", &format!("10.213.{n}.2/30"), "dev", &peer]);
        in_ns(&["link", "set", &peer, "up"]);
        in_ns(&["link", "set", "lo", "up"]);
        PhoneHost {
            ns,
            veth,
            server_ip,
        }
    }

    /// Headless Chromium on this host, at 360 px: the page's DOM once
    /// loaded, and a screenshot under `shot`.
    fn open(&self, url: &str, shot: &str) -> String {
        let profile = TempDir::new("btd-chromium-hall");
        let out = Command::new(ip_bin())
            .args(["netns", "exec", &self.ns])
            .arg(std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into()))
            .args([
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--disable-quic",
                "--hide-scrollbars",
                "--lang=it-IT",
                "--accept-lang=it-IT,it",
                "--window-size=360,900",
            ])
            .arg(format!("--user-data-dir={}", profile.0.display()))
            .arg(format!(
                "--screenshot={}",
                shots_dir().join(format!("{shot}.png")).display()
            ))
            .arg("--dump-dom")
            .arg(url)
            .output()
            .expect("chromium runs in the phone's namespace");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }
}

impl Drop for PhoneHost {
    fn drop(&mut self) {
        let _ = Command::new(ip_bin())
            .args(["netns", "del", &self.ns])
            .output();
        let _ = Command::new(ip_bin())
            .args(["link", "del", &self.veth])
            .output();
    }
}

struct Served(Child);

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// The CSRF token in a page's first form.
fn csrf_in(html: &str) -> String {
    let marker = "name=\"csrf_token\" value=\"";
    let start = html.find(marker).expect("a CSRF field") + marker.len();
    html[start..]
        .split('"')
        .next()
        .unwrap_or_default()
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_phone_on_the_hall_network_opens_the_qr_code_of_a_server_started_as_the_readme_says() {
    let phone = PhoneHost::new();
    let dir = TempDir::new("btd-hall-db");
    let path = dir.0.join("hall.db").display().to_string();
    let port = free_port();
    // The README's command, on a free port (8080 may be taken here).
    let mut child = Command::new(env!("CARGO_BIN_EXE_burraco-td"))
        .args(["--bind", &format!("[::]:{port}")])
        .env("DATABASE_URL", &path)
        .env("LANG", "it_IT.UTF-8")
        .env_remove("LC_ALL")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server starts");
    let stdout = child.stdout.take().expect("stdout");
    let _served = Served(child);
    // What it prints on standard output: the desk's address and the hall's.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut banner = Vec::new();
    let until = Instant::now() + Duration::from_secs(60);
    let hall_url = format!("http://{}:{port}", phone.server_ip);
    while Instant::now() < until && !banner.iter().any(|l: &String| l.contains(&hall_url)) {
        if let Ok(line) = rx.recv_timeout(Duration::from_millis(200)) {
            banner.push(line);
        }
    }
    let banner = banner.join("\n");
    println!("{banner}");
    assert!(
        banner.contains(&format!("http://127.0.0.1:{port}/")),
        "the desk's address: {banner}"
    );
    assert!(banner.contains("Telefoni in sala:"), "{banner}");
    assert!(
        banner.contains(&format!("{hall_url}/")),
        "the hall's address: {banner}"
    );

    // A running evening, seeded through the services on the same file.
    let url = DbUrl::parse(&path);
    let db = Db::new(
        burraco_td::startup::prepare_database(&url, 2).expect("the database"),
        &url,
    );
    let dora = setup::user(&db, "dora", DORA_PW, Role::Director).await;
    let pairs = setup::pairs(8, ("Rossi", "Maria"), ("Bianchi", "Luca"));
    let (tid, _) =
        setup::tournament(&db, dora, setup::settings("Prima serata"), &pairs, true).await;
    setup::draw(&db, dora, tid).await;

    // The director opens the table cards at the hall's address.
    let director = reqwest::Client::builder()
        .cookie_store(true)
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(30))
        .build()
        .expect("client");
    let text_at = |path: String| {
        let req = director.get(format!("{hall_url}{path}"));
        async move { req.send().await.expect(&path).text().await.expect("text") }
    };
    let login = text_at("/login".into()).await;
    let res = director
        .post(format!("{hall_url}/login"))
        .form(&[
            ("username", "dora"),
            ("password", DORA_PW),
            ("csrf_token", csrf_in(&login).as_str()),
        ])
        .send()
        .await
        .expect("login");
    assert_eq!(res.status().as_u16(), 303, "dora signs in");
    let cards = text_at(format!("/director/t/{tid}/rounds/1/cards")).await;
    assert!(
        !cards.contains("id=\"loopback-warning\""),
        "no warning: phones can open these cards"
    );
    let start = cards.find("<svg").expect("a QR code");
    let end = cards[start..].find("</svg>").expect("its end") + start + 6;
    let qr = decode(&cards[start..end]);
    assert!(
        qr.starts_with(&format!("{hall_url}/s/")),
        "the QR code carries the hall's address: {qr}"
    );

    // The phone, on the other host, opens what the QR code says.
    let dom = phone.open(&qr, "00-hall-phone-opens-the-qr-code-phone");
    assert!(
        dom.contains("id=\"phone-sheet\""),
        "the table's sheet: {dom}"
    );
    assert!(dom.contains("Prima serata"), "{dom}");
    assert!(dom.contains("Tavolo 1"), "in Italian: {dom}");
}
