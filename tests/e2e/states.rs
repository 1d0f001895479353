//! States that say what they are (issue 14, item 3), in Chromium: the
//! confirmation pages of start, undo, time-out, next round and close, the
//! staff clock paused and warning, and a closed tournament that is
//! reopened with a reason. Screenshots at 1280 and 360 px.

use std::time::Duration;

use burraco_td::auth::Role;
use burraco_td::i18n::{t, Lang};
use burraco_td::services::scoring::AdjustedForm;
use burraco_td::services::{self, Actor};

use crate::browser::{start_driver, start_server, Page};
use crate::setup;

const DORA_PW: &str = "director pass 1";

/// A tournament in preparation: 8 pairs checked in, two Mitchell rounds.
async fn stage(db: &burraco_td::db::Db) -> (Actor, burraco_td::ids::TournamentId) {
    let dora = setup::user(db, "dora", DORA_PW, Role::Director).await;
    let mut form = setup::settings("Torneo degli stati");
    form.planned_rounds = "2".into();
    form.mitchell_rounds = "2".into();
    let pairs = setup::pairs(8, ("Gialli", "Carla"), ("Blu", "Marco"));
    let (tid, _) = setup::tournament(db, dora, form, &pairs, true).await;
    (dora, tid)
}

/// Every table of a round gets an adjusted score (the quickest way to a
/// complete round: the sheets themselves are another test's business).
async fn score_round(
    db: &burraco_td::db::Db,
    dora: Actor,
    tid: burraco_td::ids::TournamentId,
    n: i32,
) {
    let (_, tables) = setup::seating(db, dora, tid, n).await;
    for s in tables {
        services::scoring::set_adjusted(
            db,
            dora,
            tid,
            n,
            s.table_no,
            AdjustedForm {
                ns_vp: "12".into(),
                ew_vp: "8".into(),
                ns_mp_diff: String::new(),
                ew_mp_diff: String::new(),
                reason: "prova del browser".into(),
                version: String::new(),
            },
        )
        .await
        .expect("adjusted score");
    }
}

/// Moves round `n`'s clock `minutes` into the past (instead of waiting).
async fn age_clock(
    db: &burraco_td::db::Db,
    tid: burraco_td::ids::TournamentId,
    n: i32,
    minutes: i64,
) {
    crate::peek::age_round_start(db, tid.0, n, chrono::Duration::minutes(minutes));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn confirmations_clock_and_a_closed_tournament_reopened() {
    let server = start_server().await;
    let (dora, tid) = stage(&server.db).await;
    let (_driver, client) = start_driver().await;
    let p = Page {
        c: &client,
        base: &server.base,
    };
    let db = &server.db;
    let run = async {
        p.login("dora", DORA_PW).await;
        let home = format!("/director/t/{tid}");

        // In preparation: the banner says so; Start leads to its page.
        p.go(&home).await;
        assert!(p.html().await.contains("state-banner state-draft"));
        p.shot("40-states-draft").await;
        p.submit("a[href$='/confirm-start']").await;
        assert_eq!(p.path().await, format!("{home}/confirm-start"));
        assert!(p.html().await.contains("8 coppie presenti"));
        p.shot("41-confirm-start").await;
        p.submit("form[action$='/draw'] button[type=submit]").await;
        assert!(p.path().await.starts_with(&format!("{home}/rounds/1")));

        // Round 1 can be undone while empty: back to preparation.
        p.shot("42-round-undo-offered").await;
        p.submit("a[href$='/rounds/1/confirm-undo']").await;
        p.shot("43-confirm-undo-start").await;
        p.submit("form[action$='/rounds/1/undo'] button[type=submit]")
            .await;
        assert!(p
            .html()
            .await
            .contains(t(Lang::It, "states.notice.start_undone")));
        assert!(p.html().await.contains("state-banner state-draft"));
        // Started again.
        p.go(&format!("{home}/confirm-start")).await;
        p.submit("form[action$='/draw'] button[type=submit]").await;

        // The clock on the director's round page: start, pause, resume.
        p.go(&format!("{home}/rounds/1")).await;
        p.submit("#clock form button").await;
        assert!(p.html().await.contains("clock-box clock-running"));
        p.submit_sees(
            "#clock form button",
            "clock-box clock-paused",
            "44-clock-paused",
        )
        .await;
        p.submit("#clock form button").await;
        assert!(p.html().await.contains("clock-box clock-running"));
        // 31 minutes later: the 10-minute warning, right on a plain reload.
        age_clock(db, tid, 1, 31).await;
        p.go(&format!("{home}/rounds/1")).await;
        let html = p.html().await;
        assert!(html.contains("warn-ten"), "{html}");
        assert!(html.contains(t(Lang::It, "states.clock.warning_ten")));
        p.shot("45-clock-warning-ten").await;
        age_clock(db, tid, 1, 5).await;
        p.go(&format!("/desk/t/{tid}/rounds/1")).await;
        assert!(p.html().await.contains("warn-five"));
        p.shot("46-desk-clock-warning-five").await;
        // Time-out asks first.
        p.submit_sees(
            "a[href*='/confirm-time-out']",
            "restano ancora",
            "47-confirm-time-out",
        )
        .await;
        p.submit("form[action$='/clock'] button[type=submit]").await;
        assert!(p.html().await.contains("clock-box clock-time_out"));

        // Round 2 asks first, then close asks first.
        score_round(db, dora, tid, 1).await;
        p.go(&home).await;
        p.submit("a[href*='/confirm-round']").await;
        p.shot("48-confirm-round").await;
        p.submit("form[action$='/rounds'] button[type=submit]")
            .await;
        assert!(p.path().await.starts_with(&format!("{home}/rounds/2")));
        score_round(db, dora, tid, 2).await;
        p.go(&home).await;
        p.submit("a[href$='/confirm-close']").await;
        p.shot("49-confirm-close").await;
        p.submit("form[action$='/close'] button[type=submit]").await;

        // Closed: every staff page says so; forms are read-only.
        let html = p.html().await;
        assert!(html.contains("state-banner state-finished"));
        assert!(!html.contains("/checkin\""));
        p.shot("50-closed-tournament").await;
        p.go(&format!("{home}/edit")).await;
        assert!(p.html().await.contains("fieldset class=\"whole\" disabled"));
        p.shot("51-closed-settings-read-only").await;
        p.go(&format!("/desk/t/{tid}/rounds/2")).await;
        assert!(p.html().await.contains("state-banner state-finished"));
        p.shot("52-closed-desk").await;

        // Reopened with a reason, from the banner's link.
        p.go(&home).await;
        p.click("#state-banner a").await;
        p.fill("#reopen input[name=reason]", "tavolo 3 trascritto male")
            .await;
        p.submit("#reopen button[type=submit]").await;
        let html = p.html().await;
        assert!(html.contains("state-banner state-running"), "{html}");
        p.shot("53-reopened").await;
        p.go(&format!("{home}/edit")).await;
        assert!(p.html().await.contains("Bloccato dall"));
        p.shot("54-running-settings-locked").await;
        p.go(&format!("/desk/t/{tid}/audit")).await;
        assert!(p.html().await.contains("tavolo 3 trascritto male"));
    };
    let result = tokio::time::timeout(Duration::from_secs(300), run).await;
    client.close().await.ok();
    result.expect("the scenario finishes in 5 minutes");
}
