//! The pages players look for (issue 12), logged out on a phone: the
//! tournament page's search → the pair's card with its table in large type,
//! a round's results, the prize list (provisional) and the hall screen.
//! Screenshots at 1280 and 360 px (the screen at 1280 only: it is a
//! projector's page).

use burraco_td::auth::Role;
use burraco_td::services;
use burraco_td::tournament::pairs::PairForm;

use crate::browser::{start_driver, start_server, Page};
use crate::setup;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pages_players_look_for() {
    let server = start_server().await;
    let db = &server.db;
    let dora = setup::user(db, "dora", "director pass 1", Role::Director).await;
    let mut form = setup::settings("Torneo del giovedì");
    form.entry_fee = "15".into();
    let surnames = [
        "Esposito", "Bianchi", "Romano", "Colombo", "Ricci", "Marino", "Greco", "Bruno",
    ];
    let pairs: Vec<PairForm> = surnames
        .iter()
        .map(|s| PairForm {
            p1_surname: (*s).into(),
            p1_name: "Giulia".into(),
            p2_surname: format!("{s}-Neri"),
            p2_name: "Paolo".into(),
            ..PairForm::default()
        })
        .collect();
    let (tid, _) = setup::tournament(db, dora, form, &pairs, true).await;
    setup::draw(db, dora, tid).await;
    let (_, tables) = setup::seating(db, dora, tid, 1).await;
    for (i, t) in tables.iter().enumerate() {
        let ns = 900 + 100 * i64::try_from(i).unwrap();
        setup::save_sheet(db, dora, tid, 1, t.table_no, ns, 600).await;
    }
    services::rounds::next_round(db, dora, tid, None, None, None, setup::TZ)
        .await
        .expect("round 2");

    let (driver, client) = start_driver().await;
    let p = Page {
        c: &client,
        base: &server.base,
    };
    let run = async {
        p.go(&format!("/t/{tid}")).await;
        let html = p.html().await;
        assert!(html.contains("id=\"find\""), "{html}");
        p.shot("90-players-tournament").await;
        // "Where do I sit": a surname → the pair's card, table at the top.
        p.fill("#q", "esposito").await;
        p.submit("form.find-form button[type=submit]").await;
        let html = p.html().await;
        assert!(html.contains("class=\"seat-table\""), "{html}");
        assert!(html.contains("Esposito"), "{html}");
        p.shot("91-players-pair-card-seat").await;
        // A part of a name that several pairs share: a list to choose from.
        p.go(&format!("/t/{tid}/find?q=neri")).await;
        p.shot("92-players-find-list").await;
        // Round 1's results, every table.
        p.go(&format!("/t/{tid}/rounds/1")).await;
        let html = p.html().await;
        assert!(html.contains("Esposito"), "{html}");
        p.shot("93-players-round-results").await;
        // The prize list, provisional while the tournament runs, in euro.
        p.go(&format!("/t/{tid}/prizes")).await;
        let html = p.html().await;
        assert!(html.contains("84,00&nbsp;€"), "{html}");
        assert!(
            html.contains("provvisori") || html.contains("Provvisori"),
            "{html}"
        );
        p.shot("94-players-prizes").await;
        // The hall screen: standings and the next round's seating; no clock.
        p.go(&format!("/t/{tid}/screen")).await;
        let html = p.html().await;
        assert!(
            !html.contains("id=\"clock\"") && !html.contains("data-ends-at"),
            "no time left on the screen"
        );
        client.set_window_size(1280, 720).await.expect("resize");
        p.shot_as_is("95-players-screen-desktop").await;
    };
    run.await;
    client.close().await.ok();
    drop(driver);
}
