//! A team tournament played from phones (issue 25): six teams registered
//! (one through the director's form), the start from the teams page, a
//! captain naming the line-up on a phone with the team code, three rounds
//! whose every table is entered by one team's phone and confirmed by the
//! other's with its team code, the next rounds from the teams page. The
//! team standings on the public page are the core's over the exported
//! file. Screenshots (360 and 1280 px): the line-up page, the desk, the
//! team standings, a team card, the director's teams page.

use std::time::Duration;

use burraco_td::auth::Role;
use burraco_td::i18n::{t, Lang};
use burraco_td::services::{self, Need};
use burraco_td::tournament::pairs::PlayerForm;
use burraco_td::tournament_file::AnyTournamentFile;

use crate::browser::{another_session, start_driver, start_server, Page};
use crate::phones::{answer, enter_sheet};
use crate::setup;

const DORA_PW: &str = "director pass 1";
const NAMES: [&str; 6] = ["Sole", "Luna", "Stelle", "Mare", "Vento", "Fiume"];

fn players(team: &str) -> Vec<PlayerForm> {
    ["Anna", "Bruno", "Carla", "Dario"]
        .iter()
        .enumerate()
        .map(|(i, n)| PlayerForm {
            surname: format!("{team}{}", ["a", "b", "c", "d"][i]),
            name: n.to_string(),
            ..PlayerForm::default()
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn six_teams_three_rounds_from_phones() {
    let server = start_server().await;
    let db = &server.db;
    let dora = setup::user(db, "dora", DORA_PW, Role::Director).await;
    let mut form = setup::settings("Campionato a squadre");
    form.kind = "teams".into();
    form.planned_rounds = "3".into();
    let tid = services::tournaments::create(db, dora, form, setup::TZ)
        .await
        .expect("tournament");
    // Five teams through the services; the sixth through the form below.
    for name in &NAMES[..5] {
        services::teams::register(
            db,
            dora,
            tid,
            services::teams::TeamForm {
                name: name.to_string(),
                players: players(name),
            },
        )
        .await
        .expect("team");
    }

    let (driver, desk_client) = start_driver().await;
    let (_pa, phone_a) = another_session(&driver, 360, 800).await;
    let (_pb, phone_b) = another_session(&driver, 360, 800).await;
    let p = Page {
        c: &desk_client,
        base: &server.base,
    };
    let a = Page {
        c: &phone_a,
        base: &server.base,
    };
    let b = Page {
        c: &phone_b,
        base: &server.base,
    };
    let run = async {
        p.login("dora", DORA_PW).await;
        // The sixth team through the form, five players.
        p.go(&format!("/director/t/{tid}/teams/new")).await;
        p.fill("#name", "Fiume").await;
        for (i, pl) in players("Fiume").iter().enumerate() {
            p.fill(&format!("#p{}_surname", i + 1), &pl.surname).await;
            p.fill(&format!("#p{}_name", i + 1), &pl.name).await;
        }
        p.fill("#p5_surname", "Fiumee").await;
        p.fill("#p5_name", "Elena").await;
        p.shot("t0-team-form").await;
        p.submit("form.team-form button[type=submit]").await;
        let html = p.html().await;
        assert!(html.contains("Fiumee Elena"), "{html}");
        // Check every team in, then start.
        for _ in 0..6 {
            p.submit("#teams form[action$='/checkin'] button.button")
                .await;
        }
        // Start leads to its confirmation page, which names the teams,
        // matches and tables before anything is drawn.
        p.submit("#start-teams").await;
        assert!(p.path().await.ends_with("/confirm-start"));
        let html = p.html().await;
        assert!(
            html.contains("6 squadre presenti: 3 incontri su 6 tavoli"),
            "{html}"
        );
        p.shot("t0b-teams-confirm-start").await;
        p.submit("form[action$='/draw'] button[type=submit]").await;
        p.go(&format!("/director/t/{tid}/teams")).await;
        let html = p.html().await;
        assert!(html.contains("id=\"round-1\""), "round 1 drawn");
        p.shot("t1-teams-director").await;

        let loaded = services::teams::load(db, dora, tid, Need::Direct)
            .await
            .unwrap();
        let code_of = |n: u32| {
            loaded
                .teams
                .iter()
                .find(|x| x.number as u32 == n)
                .and_then(|x| x.code.clone())
                .unwrap()
        };
        let table_codes = services::entries::codes(db, dora, tid).await.unwrap();

        for round in 1..=3u32 {
            if round > 1 {
                p.go(&format!("/director/t/{tid}/teams")).await;
                p.submit("#next-round").await;
                assert!(p.html().await.contains(&format!("id=\"round-{round}\"")));
            }
            let view = services::teams::view(db, tid, setup::TZ, Lang::It)
                .await
                .unwrap()
                .unwrap();
            let r = view.file.rounds.iter().find(|r| r.number == round).unwrap();
            assert_eq!(r.matches.len(), 3, "six teams: three matches");
            if round == 1 {
                // Team 6 (five players) names its line-up from a phone.
                let captain = 6u32;
                let lineup = format!("/t/{tid}/teams/{captain}/lineup");
                a.go(&lineup).await;
                a.select("#a1", "1").await;
                a.select("#a2", "5").await;
                a.select("#b1", "2").await;
                a.select("#b2", "3").await;
                a.fill("#code", &code_of(captain)).await;
                a.shot_as_is("t2-lineup-phone").await;
                a.submit("#save-lineup").await;
                assert!(
                    a.html().await.contains("id=\"lineup-saved\""),
                    "{}",
                    a.html().await
                );
                a.shot("t2b-lineup-saved").await;
            }
            let view = services::teams::view(db, tid, setup::TZ, Lang::It)
                .await
                .unwrap()
                .unwrap();
            let r = view.file.rounds.iter().find(|r| r.number == round).unwrap();
            for (k, m) in r.matches.iter().enumerate() {
                for (j, tb) in m.tables.iter().enumerate() {
                    let code = table_codes.table(tb.table as i32).unwrap().to_string();
                    let ns = 100 + 10 * ((round as usize + k + j) % 5) as u32;
                    enter_sheet(&a, &code, &code_of(tb.ns.team), ns, 90).await;
                    answer(&b, &code, &code_of(tb.ew.team), None).await;
                    assert!(
                        b.html()
                            .await
                            .contains(t(Lang::It, "table.notice.confirmed")),
                        "round {round} table {} confirmed",
                        tb.table
                    );
                }
            }
            if round == 1 {
                p.go(&format!("/desk/t/{tid}/rounds/1")).await;
                p.shot("t3-desk").await;
                // Both tables of every match have their card and QR code.
                p.go(&format!("/director/t/{tid}/rounds/1/cards")).await;
                assert_eq!(p.html().await.matches("data-table-code=").count(), 6);
                p.shot("t3b-table-cards").await;
            }
        }

        // The public team standings, logged out on a phone: the core's
        // computation over the exported file.
        let file = services::files::export_any(db, dora, tid, setup::TZ)
            .await
            .unwrap();
        let AnyTournamentFile::Teams(file) = file else {
            panic!("a team file");
        };
        let reference = burraco_td::standings::compute_teams_file(&file, Lang::It).unwrap();
        assert_eq!(reference.rounds().len(), 3);
        assert!(reference
            .rounds()
            .iter()
            .all(|r| r.matches.iter().all(|m| m.complete)));
        b.go(&format!("/t/{tid}")).await;
        let rows = b
            .c
            .execute(
                "var num = t => parseInt(t.replace(/\\./g, '')); \
                 return Array.from(document.querySelectorAll('table.team-standings tbody tr')).map(tr => \
                 [parseInt(tr.cells[1].querySelector('b').innerText), num(tr.cells[2].innerText), \
                  num(tr.cells[3].innerText)])",
                vec![],
            )
            .await
            .expect("rows");
        let rows: Vec<(u32, i64, i64)> = serde_json::from_value(rows).unwrap();
        let want: Vec<(u32, i64, i64)> = reference
            .rows
            .iter()
            .map(|r| (r.number, r.vp, r.mp_diff))
            .collect();
        assert_eq!(rows, want);
        b.shot("t4-team-standings").await;
        let best = reference.rows[0].number;
        b.go(&format!("/t/{tid}/teams/{best}")).await;
        let card = b.html().await;
        assert!(card.contains("card-round-3"), "{card}");
        b.shot("t5-team-card").await;
        b.go(&format!("/t/{tid}/rounds/3")).await;
        b.shot("t6-match-results").await;

        // Closed: a table's page gives each pair its team's final place
        // and prize instead of "wait for the next round".
        services::tournaments::close(db, dora, tid, None)
            .await
            .expect("close");
        let code = table_codes.table(1).unwrap().to_string();
        b.go(&format!("/s/{code}")).await;
        let html = b.html().await;
        assert!(!html.contains(t(Lang::It, "table.next.wait")), "{html}");
        assert!(html.contains(t(Lang::It, "table.final.title")), "{html}");
        let places =
            b.c.execute(
                "return document.querySelector('.final-places').innerText",
                vec![],
            )
            .await
            .expect("places");
        let places = places.as_str().unwrap_or_default().to_string();
        assert_eq!(places.matches("° posto").count(), 2, "{places}");
        assert!(places.contains("Squadra "), "{places}");
        b.shot("t7-table-closed-team-places").await;
    };
    let result = tokio::time::timeout(Duration::from_secs(420), run).await;
    for c in [desk_client, phone_a, phone_b] {
        c.close().await.ok();
    }
    result.expect("the team evening finishes in 7 minutes");
}
