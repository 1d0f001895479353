//! A 60-pair event through its plan in groups (RULES.md §13, §15): the
//! plan typed on the settings page (with the level's warning), the cut
//! shown on its confirmation page and made from it, a round in groups at
//! the desk and on the round's printout, then the final group standings
//! and prizes per group on the public pages. Screenshots at 360 and
//! 1280 px: the plan, the cut, the round by group, the desk, the group
//! standings, the prize list per group.

use burraco_td::auth::Role;
use burraco_td::services::{self, Need};

use crate::browser::{start_driver, start_server, Page};
use crate::setup;

const DORA_PW: &str = "director pass 1";

/// Every table of round `n` scored at the desk, with scores that spread
/// the field (so the cut has an order to follow).
async fn play(
    db: &burraco_td::db::Db,
    dora: services::Actor,
    tid: burraco_td::ids::TournamentId,
    n: i32,
) {
    let (_, _, tables, _) = services::rounds::seating(db, dora, tid, n, Need::Direct)
        .await
        .expect("seating");
    for s in tables {
        let t = i64::from(s.table_no);
        setup::save_sheet(
            db,
            dora,
            tid,
            n,
            s.table_no,
            100 + 5 * ((t * 7 + i64::from(n) * 3) % 18),
            60 + 5 * ((t * 3) % 14),
        )
        .await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sixty_pairs_through_the_plan_to_group_prizes() {
    let server = start_server().await;
    let db = &server.db;
    let dora = setup::user(db, "dora", DORA_PW, Role::Director).await;
    let (driver, desk) = start_driver().await;
    let p = Page {
        c: &desk,
        base: &server.base,
    };
    let run = async {
        p.login("dora", DORA_PW).await;
        // The plan on the settings page: 5 rounds, 2 Mitchell, 1 Danish,
        // 2 in two groups, prizes per group; national level.
        p.go("/director/tournaments/new").await;
        p.fill("#name", "Regionale a gironi").await;
        p.fill("#planned_rounds", "5").await;
        p.fill("#mitchell_rounds", "2").await;
        p.fill("#group_rounds", "2").await;
        p.fill("#group_count", "2").await;
        p.fill("#group_prizes", "A 60: 50 30 20\nB 40: 60 40").await;
        p.select("#level", "national").await;
        p.submit("form.settings button[type=submit]").await;
        let html = p.html().await;
        assert!(
            html.contains("Fase 3: 2 × Danese a gironi modificato (2 gironi)"),
            "{html}"
        );
        assert!(
            html.contains("6 turni da 3 smazzate o 5 da 4"),
            "the level's warning: {html}"
        );
        p.shot("g0-plan-on-the-tournament-page").await;
        let path = p.path().await;
        let tid = burraco_td::ids::TournamentId(
            path.trim_start_matches("/director/t/")
                .split(['/', '?'])
                .next()
                .unwrap()
                .parse()
                .unwrap(),
        );
        p.go(&format!("/director/t/{}/edit", tid.0)).await;
        p.shot("g0b-plan-editor").await;

        let pairs = setup::pairs(60, ("Rossi", "Maria"), ("Bianchi", "Luca"));
        let entries = pairs
            .iter()
            .map(|f| burraco_td::tournament::pairs::PairEntry::parse(f).expect("pair"))
            .collect();
        services::pairs::import(db, dora, tid, entries)
            .await
            .expect("pairs");
        services::pairs::check_in_many(db, dora, tid, None)
            .await
            .expect("check in");
        services::rounds::draw(db, dora, tid, services::rounds::DrawKind::Start, None)
            .await
            .expect("start");
        play(db, dora, tid, 1).await;
        for n in 2..=3 {
            services::rounds::next_round(db, dora, tid, Some(n), None, None, setup::TZ)
                .await
                .expect("round");
            play(db, dora, tid, n).await;
        }
        // The cut, shown before it is made.
        p.go(&format!("/director/t/{}/confirm-round", tid.0)).await;
        let html = p.html().await;
        assert!(html.contains("Girone A · 15 tavoli · 30 coppie"), "{html}");
        assert!(html.contains("Girone B · 15 tavoli · 30 coppie"), "{html}");
        p.shot("g1-the-cut-before-it-is-made").await;
        p.submit("form.confirm-form button[type=submit]").await;
        p.go(&format!("/director/t/{}/rounds/4", tid.0)).await;
        let html = p.html().await;
        assert!(html.contains("<td class=\"group-cell\">A</td>"), "{html}");
        p.shot("g2-round-by-group").await;
        p.go(&format!("/desk/t/{}/rounds/4", tid.0)).await;
        p.shot("g3-desk-by-group").await;
        play(db, dora, tid, 4).await;
        services::rounds::next_round(db, dora, tid, Some(5), None, None, setup::TZ)
            .await
            .expect("round 5");
        play(db, dora, tid, 5).await;
        services::tournaments::close(db, dora, tid, None)
            .await
            .expect("close");

        // The final group standings and the prizes per group, as anyone sees them.
        p.go(&format!("/t/{}", tid.0)).await;
        let html = p.html().await;
        assert!(html.contains("id=\"group-A\""), "{html}");
        assert!(html.contains("id=\"group-B\""), "{html}");
        p.shot("g4-final-group-standings").await;
        p.go(&format!("/t/{}/prizes", tid.0)).await;
        let html = p.html().await;
        assert!(html.contains("Girone A · 15 tavoli · "), "{html}");
        assert!(html.contains("Girone B · 15 tavoli · "), "{html}");
        p.shot("g5-prizes-per-group").await;
    };
    let result = tokio::time::timeout(std::time::Duration::from_secs(300), run).await;
    desk.close().await.ok();
    drop(driver);
    result.expect("the event finishes in 5 minutes");
}
