//! Entries online (issue 36) in a real browser, as a player on a 360-px
//! phone in Italian: the tournament's public page links the entry form,
//! a missing consent is named next to its box, the entry is confirmed and
//! its private page shown; a second pair waits; the first withdraws from
//! its private page and the second is confirmed at once. Screenshots at
//! 360 and 1280 px.

use burraco_td::auth::Role;

use crate::browser::{another_session, start_driver, start_server, Page};
use crate::setup;

const DORA_PW: &str = "director pass 1";

/// Fills the entry form for a pair (`i` makes the names unique).
async fn fill_pair(p: &Page<'_>, i: usize) {
    for (field, value) in [
        ("p1_surname", format!("Rossi{i}")),
        ("p1_name", "Anna".to_string()),
        ("p1_card", format!("T{i}A")),
        ("p1_club", "Circolo del Sole".to_string()),
        ("p2_surname", format!("Bianchi{i}")),
        ("p2_name", "Luca".to_string()),
        ("p2_card", format!("T{i}B")),
        ("phone", format!("333 12345{i}")),
    ] {
        p.fill(&format!("#{field}"), &value).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_enters_from_a_phone_withdraws_and_the_next_pair_is_confirmed() {
    let server = start_server().await;
    let db = &server.db;
    let dora = setup::user(db, "dora", DORA_PW, Role::Director).await;
    let mut form = setup::settings("Torneo d'autunno");
    form.online.online_entries = "on".into();
    form.online.capacity = "1".into();
    let (tid, _) = setup::tournament(db, dora, form, &[], false).await;

    let (driver, desk) = start_driver().await;
    let (_profile, phone) = another_session(&driver, 360, 800).await;
    let p = Page {
        c: &phone,
        base: &server.base,
    };
    let run = async {
        // The public page links the form.
        p.go(&format!("/t/{tid}")).await;
        p.shot("70-online-public-link").await;
        p.click("#enter-online").await;
        p.wait_new_page().await;
        assert_eq!(p.path().await, format!("/t/{tid}/enter"));
        p.shot("71-online-form").await;

        // Without the consent: named next to its box, nothing saved.
        fill_pair(&p, 1).await;
        p.submit("#send-entry").await;
        let html = p.html().await;
        assert!(
            html.contains("has-error") && html.contains("consenso"),
            "{html}"
        );
        assert!(html.contains("value=\"Rossi1\""), "what was typed is kept");
        p.shot("72-online-form-consent").await;

        // With it: confirmed, the private page.
        p.click("#consent").await;
        p.submit("#send-entry").await;
        let first = p.path().await;
        assert!(first.starts_with("/entry/"), "{first}");
        let html = p.html().await;
        assert!(html.contains("status-confirmed"), "{html}");
        assert!(
            html.contains("id=\"keep-link\""),
            "no mail server: keep the link"
        );
        p.shot("73-online-confirmed").await;

        // A second pair: the tournament is full, it waits first in line.
        p.go(&format!("/t/{tid}/enter")).await;
        fill_pair(&p, 2).await;
        p.click("#consent").await;
        p.submit("#send-entry").await;
        let second = p.path().await;
        let html = p.html().await;
        assert!(html.contains("status-waiting"), "{html}");
        p.shot("74-online-waiting").await;

        // The first withdraws from its private page.
        p.go(&first).await;
        p.submit("#withdraw").await;
        let html = p.html().await;
        assert!(html.contains("status-withdrawn"), "{html}");
        p.shot("75-online-withdrawn").await;

        // The second is confirmed at once, as its own page says.
        p.go(&second).await;
        let html = p.html().await;
        assert!(html.contains("status-confirmed"), "{html}");
        p.shot("76-online-moved-up").await;

        // The director sees the pair marked as entered online.
        let d = Page {
            c: &desk,
            base: &server.base,
        };
        d.login("dora", DORA_PW).await;
        d.go(&format!("/director/t/{tid}")).await;
        let html = d.html().await;
        assert!(
            html.contains("Rossi2 Anna") && html.contains("badge online"),
            "{html}"
        );
        assert!(!html.contains("Rossi1 Anna"), "the withdrawn pair is gone");
        d.shot("77-online-director").await;
    };
    run.await;
    phone.close().await.ok();
    desk.close().await.ok();
    drop(driver);
}
