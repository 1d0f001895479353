//! Entries as directors count them (issue 14): the tournament page with the
//! entries count, no-show and delete buttons, the delete confirmation page
//! (no JavaScript), then the desk showing a table after an `mp` penalty.
//! Screenshots at 1280 and 360 px.

use burraco_td::auth::Role;
use burraco_td::services;

use crate::browser::{start_driver, start_server, Page};
use crate::setup;

const DORA_PW: &str = "director pass 1";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn entries_and_the_desk_after_a_penalty() {
    let server = start_server().await;
    let db = &server.db;
    let dora = setup::user(db, "dora", DORA_PW, Role::Director).await;
    let pairs = setup::pairs(9, ("Gialli", "Carla"), ("Blu", "Marco"));
    let (tid, ids) = setup::tournament(
        db,
        dora,
        setup::settings("Torneo delle iscrizioni"),
        &pairs,
        false,
    )
    .await;
    for id in &ids[..6] {
        services::pairs::set_checked_in(db, dora, tid, *id, true)
            .await
            .unwrap();
    }
    services::pairs::set_no_show(db, dora, tid, ids[6], true)
        .await
        .unwrap();

    let (driver, client) = start_driver().await;
    let p = Page {
        c: &client,
        base: &server.base,
    };
    let run = async {
        p.login("dora", DORA_PW).await;
        let t = format!("/director/t/{tid}");
        p.go(&t).await;
        let html = p.html().await;
        assert!(html.contains("id=\"entries-count\""), "{html}");
        p.shot("60-entries-draft").await;
        // Delete pair 9: a confirmation page, then the list without it.
        p.go(&format!("{t}/pairs/{}/delete", ids[8])).await;
        assert!(p.html().await.contains("Gialli9 Carla – Blu9 Marco"));
        p.shot("61-entries-delete-confirm").await;
        p.submit("form[action$='/delete'] button[type=submit]")
            .await;
        assert!(!p.html().await.contains("Gialli9"));

        // Start (pair 8 not checked in becomes a no-show), a sheet, a penalty.
        setup::draw(db, dora, tid).await;
        let (l, tables) = setup::seating(db, dora, tid, 1).await;
        let table = tables[0].table_no;
        let ns = l.pair(tables[0].ns_pair).unwrap();
        setup::save_sheet(db, dora, tid, 1, table, 1090, 700).await;
        services::scoring::add_penalty(
            db,
            dora,
            tid,
            services::scoring::PenaltyForm {
                pair: ns.id.to_string(),
                round: "1".into(),
                kind: "mp".into(),
                amount: "100".into(),
                reason_preset: String::new(),
                reason: "in ritardo di 7 minuti".into(),
            },
            burraco_td::i18n::Lang::It,
        )
        .await
        .expect("penalty");
        p.go(&t).await;
        p.shot("62-entries-started").await;
        p.go(&format!("/desk/t/{tid}/rounds/1")).await;
        let html = p.html().await;
        assert!(
            html.contains(&format!(
                "1.090 → 990 dopo la penalità −100 alla coppia {}",
                ns.number
            )),
            "{html}"
        );
        p.shot("63-desk-after-penalty").await;
    };
    run.await;
    client.close().await.ok();
    drop(driver);
}
