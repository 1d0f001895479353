//! One vocabulary on a phone (issue 14, item 8): every staff page at 360 px
//! (nothing wider than the window: `Page::shot` checks it), and the pair
//! form's suggestions from the player directory (issue 14, item 5).

use std::time::Duration;

use burraco_td::auth::Role;
use burraco_td::services;
use burraco_td::tournament::pairs::PairForm;

use crate::browser::{start_driver, start_server, Page};
use crate::setup;

const DORA_PW: &str = "director pass 2";
const ANNA_PW: &str = "admin pass 2";

/// Dora's running tournament of 8 pairs (registered with cards and clubs)
/// and a new one to register for; Anna, the administrator.
async fn stage(
    db: &burraco_td::db::Db,
) -> (burraco_td::ids::TournamentId, burraco_td::ids::TournamentId) {
    let dora = setup::user(db, "dora", DORA_PW, Role::Director).await;
    setup::user(db, "anna", ANNA_PW, Role::Admin).await;
    let mut form = setup::settings("Torneo del lunedì sera al Circolo");
    form.entry_fee = "250".into();
    let pairs: Vec<PairForm> = (1..=8)
        .map(|i| PairForm {
            p1_surname: format!("Rossi-Bianchi{i}"),
            p1_name: "Anna Maria".into(),
            p1_card: format!("FIB{i}0001"),
            p1_club: "Circolo Tennis Sole e Mare".into(),
            p2_surname: format!("Esposito{i}"),
            p2_name: "Gianfranco".into(),
            p2_card: format!("FIB{i}0002"),
            p2_club: "Associazione Burraco Napoli".into(),
        })
        .collect();
    let (tid, _) = setup::tournament(db, dora, form.clone(), &pairs, true).await;
    setup::draw(db, dora, tid).await;
    form.name = "La settimana dopo".into();
    let next = services::tournaments::create(db, dora, form, setup::TZ)
        .await
        .expect("next tournament");
    (tid, next)
}

async fn js_number(p: &Page<'_>, script: &str) -> i64 {
    p.c.execute(script, vec![])
        .await
        .ok()
        .and_then(|v| v.as_i64())
        .unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_staff_page_at_360_px() {
    let server = start_server().await;
    let (tid, next) = stage(&server.db).await;
    let (_driver, client) = start_driver().await;
    let p = Page {
        c: &client,
        base: &server.base,
    };
    let run = async {
        p.login("dora", DORA_PW).await;
        // The pair form suggests players registered before (JavaScript on).
        p.go(&format!("/director/t/{next}/pairs/new")).await;
        p.fill("#p1_surname", "bianchi3").await;
        let mut options = 0;
        for _ in 0..100 {
            options = js_number(
                &p,
                "return document.querySelectorAll('#dir-p1_surname option').length",
            )
            .await;
            if options > 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert_eq!(options, 1, "one suggestion for bianchi3");
        p.shot("vocab-01-pair-form-suggestions").await;
        // Picking the suggestion fills the player's four fields.
        p.c.execute(
            "var i = document.getElementById('p1_surname');
             i.value = document.querySelector('#dir-p1_surname option').value;
             i.dispatchEvent(new Event('input', {bubbles: true}));",
            vec![],
        )
        .await
        .expect("pick");
        let card =
            p.c.execute("return document.getElementById('p1_card').value", vec![])
                .await
                .unwrap();
        assert_eq!(card.as_str(), Some("FIB30001"));
        let surname =
            p.c.execute("return document.getElementById('p1_surname').value", vec![])
                .await
                .unwrap();
        assert_eq!(surname.as_str(), Some("Rossi-Bianchi3"));
        // Without JavaScript: the plain search and its pick links.
        p.go(&format!("/director/t/{next}/players?q=esposito"))
            .await;
        p.shot("vocab-02-player-search").await;
        p.click("td.picks a").await;
        assert!(p.path().await.contains("p1_surname=Esposito"));
        p.shot("vocab-03-pair-form-picked").await;

        for (name, path) in [
            (
                "vocab-04-director-tournaments",
                "/director/tournaments".to_string(),
            ),
            ("vocab-05-director-tournament", format!("/director/t/{tid}")),
            (
                "vocab-06-settings-locked",
                format!("/director/t/{tid}/edit"),
            ),
            ("vocab-07-round", format!("/director/t/{tid}/rounds/1")),
            ("vocab-08-desk", format!("/desk/t/{tid}/rounds/1")),
            ("vocab-09-penalties", format!("/desk/t/{tid}/penalties")),
            ("vocab-10-audit", format!("/desk/t/{tid}/audit")),
            ("vocab-11-public", format!("/t/{tid}")),
        ] {
            p.go(&path).await;
            p.shot(name).await;
        }
        // Locked settings look locked: a grey, dashed field.
        p.go(&format!("/director/t/{tid}/edit")).await;
        let style = p
            .c
            .execute(
                "var e = document.querySelector('input[readonly]'); return e ? getComputedStyle(e).borderStyle : ''",
                vec![],
            )
            .await
            .unwrap();
        assert!(style.as_str().unwrap_or("").contains("dashed"), "{style:?}");
        p.go("/").await;
        p.submit("form[action='/logout'] button").await;
        p.login("anna", ANNA_PW).await;
        p.go("/admin/users").await;
        p.shot("vocab-12-admin-users").await;
        // A user's page: role, password reset and her API tokens (issue 32).
        p.submit_sees(
            "a[href^='/admin/users/']",
            "id=\"tokens\"",
            "vocab-13-admin-user",
        )
        .await;
        // One's own account: API tokens and the password change.
        p.go("/account").await;
        assert!(p.html().await.contains("id=\"change-password\""));
        p.shot("vocab-14-account").await;
    };
    let result = tokio::time::timeout(Duration::from_secs(240), run).await;
    client.close().await.ok();
    result.expect("the 360-px tour finishes in 4 minutes");
}
