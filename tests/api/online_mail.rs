//! The entries' e-mails (issue 36) against a local SMTP sink: the private
//! link on entry, another when confirmed from the waiting list, the
//! waiting list told at the start, and a mail server that is down at the
//! entry's time getting the message once it is back (the outbox).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use reqwest::StatusCode;

use crate::online::{enter, open_tournament, pair, withdraw};

use crate::helpers::{spawn_app_with, TestApp, TestDb};
use crate::tokens::token_for;
use burraco_td::auth::Role;

async fn app_mailing_to(url: String) -> TestApp {
    let app = spawn_app_with(TestDb::new(), |s| {
        s.smtp = Some((url, "torneo@example.org".into()));
    })
    .await;
    app.setup_admin().await;
    app.create_user("dora", "director", "director pass").await;
    app
}

/// Waits up to `secs` seconds for the sink to hold `n` messages.
async fn messages(got: &Kept, n: usize, secs: u64) -> Vec<String> {
    for _ in 0..secs * 20 {
        if got.lock().unwrap().len() >= n {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let all = got.lock().unwrap().clone();
    assert!(all.len() >= n, "{n} messages expected: {all:?}");
    all
}

/// A mail server for the tests: enough SMTP to take messages (no
/// STARTTLS offered), each message's text kept.
pub async fn smtp_sink() -> (String, Kept) {
    let (url, got, _) = switched_sink(true).await;
    (url, got)
}

/// A sink that, while its switch is off, answers every connection
/// `421` (a mail server that is down) and counts them.
async fn switched_sink(on: bool) -> (String, Kept, Switch) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let switch = Switch::default();
    switch.on.store(on, Ordering::SeqCst);
    let (url, got) = sink_on(listener, switch.clone());
    (url, got, switch)
}

/// The sink's switch and how many connections it turned away.
#[derive(Clone, Default)]
struct Switch {
    on: std::sync::Arc<AtomicBool>,
    refused: std::sync::Arc<AtomicUsize>,
}

/// The messages a sink kept.
pub type Kept = std::sync::Arc<std::sync::Mutex<Vec<String>>>;

fn sink_on(listener: tokio::net::TcpListener, switch: Switch) -> (String, Kept) {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let port = listener.local_addr().unwrap().port();
    let got = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let kept = got.clone();
    tokio::spawn(async move {
        loop {
            let Ok((socket, _)) = listener.accept().await else {
                return;
            };
            let kept = kept.clone();
            let switch = switch.clone();
            tokio::spawn(async move {
                let (r, mut w) = socket.into_split();
                if !switch.on.load(Ordering::SeqCst) {
                    switch.refused.fetch_add(1, Ordering::SeqCst);
                    let _ = w.write_all(b"421 sink down\r\n").await;
                    return;
                }
                let mut lines = BufReader::new(r).lines();
                let _ = w.write_all(b"220 sink ESMTP\r\n").await;
                let mut data: Option<String> = None;
                while let Ok(Some(line)) = lines.next_line().await {
                    if let Some(d) = data.as_mut() {
                        if line == "." {
                            kept.lock().unwrap().push(data.take().unwrap());
                            let _ = w.write_all(b"250 kept\r\n").await;
                        } else {
                            d.push_str(&line);
                            d.push('\n');
                        }
                        continue;
                    }
                    let verb = line.get(..4).unwrap_or("").to_ascii_uppercase();
                    let answer: &[u8] = match verb.as_str() {
                        "EHLO" => b"250-sink\r\n250 8BITMIME\r\n",
                        "DATA" => {
                            data = Some(String::new());
                            b"354 go on\r\n"
                        }
                        "QUIT" => {
                            let _ = w.write_all(b"221 bye\r\n").await;
                            return;
                        }
                        _ => b"250 OK\r\n",
                    };
                    let _ = w.write_all(answer).await;
                }
            });
        }
    });
    (format!("smtp://127.0.0.1:{port}"), got)
}

#[tokio::test]
async fn each_entry_gets_its_private_link_by_mail_and_another_when_confirmed() {
    let (url, got) = smtp_sink().await;
    let app = app_mailing_to(url).await;
    let tid = open_tournament(&app, "1").await;
    let (_, first) = enter(&app, tid, &pair(1)).await;
    let (_, second) = enter(&app, tid, &pair(2)).await;
    let wait_for = |n: usize| messages(&got, n, 5);
    wait_for(2).await;
    let page = app
        .get_html(&format!("/entry/{}", first["token"].as_str().unwrap()))
        .await;
    assert!(!page.contains("id=\"keep-link\""), "the link went by mail");
    assert_eq!(
        withdraw(&app, first["token"].as_str().unwrap()).await.0,
        StatusCode::OK
    );
    wait_for(3).await;
    let all = got.lock().unwrap().clone();
    let second_link = format!("/entry/{}", second["token"].as_str().unwrap());
    assert_eq!(
        all.iter().filter(|m| m.contains(&second_link)).count(),
        2,
        "{all:?}"
    );
    assert!(
        all.iter()
            .any(|m| m.contains("p2@example.org") && m.contains("confermata")),
        "{all:?}"
    );
}

#[tokio::test]
async fn a_mail_server_down_at_entry_time_gets_the_message_once_it_is_back() {
    let (url, got, switch) = switched_sink(false).await;
    let app = app_mailing_to(url).await;
    let tid = open_tournament(&app, "4").await;
    let (status, entered) = enter(&app, tid, &pair(1)).await;
    assert_eq!(status, StatusCode::CREATED, "the entry is taken: {entered}");
    // The mail server turns the sender away, which tries again later.
    for _ in 0..100 {
        if switch.refused.load(Ordering::SeqCst) >= 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(switch.refused.load(Ordering::SeqCst) >= 2, "tried again");
    assert!(got.lock().unwrap().is_empty());
    // The mail server comes back: the queued message goes, once.
    switch.on.store(true, Ordering::SeqCst);
    let all = messages(&got, 1, 20).await;
    let link = format!("/entry/{}", entered["token"].as_str().unwrap());
    assert!(
        all[0].contains(&link) && all[0].contains("p1@example.org"),
        "{all:?}"
    );
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    assert_eq!(got.lock().unwrap().len(), 1, "sent once");
}

#[tokio::test]
async fn two_senders_on_one_database_send_each_message_once() {
    let (url, got) = smtp_sink().await;
    let app = app_mailing_to(url.clone()).await;
    // A second instance's sender, on the same database.
    let mut settings = burraco_td::config::Settings::for_database(&app.db.url());
    settings.smtp = Some((url, "torneo@example.org".into()));
    let wake = std::sync::Arc::new(tokio::sync::Notify::new());
    burraco_td::web::mail::spawn_sender(&settings, app.handle.clone(), wake.clone());
    let tid = open_tournament(&app, "30").await;
    let entries = futures_util::future::join_all((1..=12).map(|i| {
        let app = &app;
        async move { enter(app, tid, &pair(i)).await }
    }))
    .await;
    assert!(entries.iter().all(|(s, _)| *s == StatusCode::CREATED));
    wake.notify_one();
    messages(&got, 12, 10).await;
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    let all = got.lock().unwrap().clone();
    for i in 1..=12 {
        let to = format!("p{i}@example.org");
        assert_eq!(
            all.iter().filter(|m| m.contains(&to)).count(),
            1,
            "{to}: {all:?}"
        );
    }
}

#[tokio::test]
async fn the_start_tells_the_entries_still_waiting_that_the_list_is_closed() {
    let (url, got) = smtp_sink().await;
    let app = app_mailing_to(url).await;
    let built = app
        .tournament("Chiusura")
        .with(&[("online_entries", "on"), ("capacity", "8")])
        .pairs(8)
        .checked_in()
        .build()
        .await;
    let (_, waiting) = enter(&app, built.tid, &pair(9)).await;
    assert_eq!(waiting["status"], "waiting", "{waiting}");
    messages(&got, 1, 5).await;
    let token = token_for(&app, Role::Admin).await;
    let res = reqwest::Client::new()
        .post(app.url(&format!("/api/v1/tournaments/{}/start", built.tid)))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success(), "{}", res.text().await.unwrap());
    let all = messages(&got, 2, 5).await;
    let link = format!("/entry/{}", waiting["token"].as_str().unwrap());
    assert!(
        all[1].contains(&link) && all[1].contains("chiusa"),
        "{all:?}"
    );
}
