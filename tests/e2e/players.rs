//! The pages players look for (issue 12), logged out on a phone: the
//! tournament page's search → the pair's card with its table in large type,
//! a round's results, the prize list (provisional) and the hall screen.
//! Screenshots at 1280 and 360 px (the screen at 1280 only: it is a
//! projector's page).

use burraco_td::auth::Role;
use burraco_td::services::{self, Actor, Need};
use burraco_td::tournament::pairs::{PairEntry, PairForm};
use burraco_td::tournament::settings::SettingsForm;

use crate::browser::{start_driver, start_server, Page};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pages_players_look_for() {
    let server = start_server().await;
    let db = &server.db;
    let hash = burraco_td::auth::password::hash_password("director pass 1").expect("hash");
    let uid = db
        .write(move |c| {
            burraco_td::db::users::create(c, "dora", &hash, Role::Director)
                .map_err(services::ServiceError::corrupt)
        })
        .await
        .expect("user");
    let dora = Actor {
        user_id: uid,
        role: Role::Director,
    };
    let tz = chrono_tz::Europe::Rome;
    let today = chrono::Utc::now().with_timezone(&tz).date_naive();
    let mut form = SettingsForm::defaults(today);
    form.name = "Torneo del giovedì".into();
    form.entry_fee = "15".into();
    let tid = services::tournaments::create(db, dora, form, tz)
        .await
        .expect("tournament");
    let surnames = [
        "Esposito", "Bianchi", "Romano", "Colombo", "Ricci", "Marino", "Greco", "Bruno",
    ];
    let entries = surnames
        .iter()
        .map(|s| {
            PairEntry::parse(&PairForm {
                p1_surname: (*s).into(),
                p1_name: "Giulia".into(),
                p2_surname: format!("{s}-Neri"),
                p2_name: "Paolo".into(),
                ..PairForm::default()
            })
            .expect("pair")
        })
        .collect();
    services::pairs::import(db, dora, tid, entries)
        .await
        .expect("pairs");
    let l = services::tournaments::load(db, dora, tid, Need::Direct)
        .await
        .unwrap();
    for p in &l.pairs {
        services::pairs::set_checked_in(db, dora, tid, p.id, true)
            .await
            .unwrap();
    }
    services::rounds::draw(db, dora, tid).await.expect("draw");
    let (_, _, tables, _) = services::rounds::seating(db, dora, tid, 1, Need::Direct)
        .await
        .unwrap();
    for (i, t) in tables.iter().enumerate() {
        let ns = 900 + 100 * i64::try_from(i).unwrap();
        let sheet = burraco_td::tournament_file::fixtures::simple_sheet(ns, 600, 3);
        services::scoring::save_sheet(
            db,
            dora,
            tid,
            1,
            t.table_no,
            services::scoring::SheetInput {
                sheet: sheet.to_score_sheet(),
                accept_mismatch: false,
                accept_time_out: false,
                reason: String::new(),
                version: None,
            },
        )
        .await
        .expect("sheet");
    }
    services::rounds::next_round(db, dora, tid, None, None, tz)
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
