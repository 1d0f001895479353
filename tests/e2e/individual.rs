//! An individual evening in Chromium (issue 35): 20 players (one through
//! the director's form, the others from a file), all checked in with one
//! click, the start through its confirmation page, three rounds whose
//! every table is entered by a player of one line on a phone and confirmed
//! by a player of the other with their own personal code,
//! the next rounds through their confirmation pages; the public standings
//! per player are the core's over the exported file. Screenshots (360 and
//! 1280 px): the players page, the import preview, the start's
//! confirmation, the seating lists, the desk, the public seating, the
//! standings per player, the prize list, the hall screen.

use std::time::Duration;

use burraco_td::auth::Role;
use burraco_td::i18n::{t, Lang};
use burraco_td::services::{self, individual};
use burraco_td::tournament_file::AnyTournamentFile;

use crate::browser::{another_session, start_driver, start_server, Page};
use crate::phones::{answer, enter_sheet};
use crate::setup;

const DORA_PW: &str = "director pass 1";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_20_player_individual_evening_from_phones() {
    let server = start_server().await;
    let db = &server.db;
    let dora = setup::user(db, "dora", DORA_PW, Role::Director).await;
    let mut form = setup::settings("Individuale del giovedì");
    form.kind = "individual".into();
    form.planned_rounds = "3".into();
    let tid = services::tournaments::create(db, dora, form, setup::TZ)
        .await
        .expect("tournament");

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
        // Nineteen players from a file: its preview first.
        let mut csv = String::from("cognome;nome;tessera;circolo\n");
        for i in 1..=19 {
            csv.push_str(&format!("Giocatore{i};Nome{i};T{i};Circolo Sole\n"));
        }
        p.go(&format!("/director/t/{tid}/individual/import")).await;
        p.fill("#csv", &csv).await;
        p.submit("form.import-form button[type=submit]").await;
        assert!(p.html().await.contains("id=\"confirm-import\""));
        p.shot("i0-import-preview").await;
        p.submit("#confirm-import").await;
        // The twentieth through the form.
        p.fill("#surname", "Verdi").await;
        p.fill("#name", "Anna").await;
        p.fill("#club", "Circolo Luna").await;
        p.submit("#player-form button[type=submit]").await;
        let html = p.html().await;
        assert!(html.contains("Verdi Anna"), "{html}");
        // Everybody checked in with one click, then the start through its
        // confirmation page.
        p.submit("#bulk-checkin button[name=all]").await;
        p.shot("i1-players").await;
        p.submit("#rounds a[href$='/confirm-start']").await;
        let html = p.html().await;
        assert!(
            html.contains("20 giocatori sorteggiati a 5 tavoli"),
            "{html}"
        );
        p.shot("i2-confirm-start").await;
        p.submit("form[action$='/draw'] button[type=submit]").await;

        for round in 1..=3u32 {
            if round > 1 {
                p.go(&format!("/director/t/{tid}/individual")).await;
                p.submit("#rounds a[href*='/confirm-round']").await;
                p.submit("form[action$='/rounds'] button[type=submit]")
                    .await;
            }
            let f = individual::rounds::file(db, dora, tid, setup::TZ)
                .await
                .unwrap();
            let r = f.rounds.iter().find(|r| r.number == round).unwrap();
            assert_eq!((r.tables.len(), r.byes.len()), (5, 0));
            let table_codes = services::entries::codes(db, dora, tid).await.unwrap();
            let players = individual::load(db, dora, tid, services::Need::Direct)
                .await
                .unwrap();
            let code_of = |n: u32| {
                players
                    .players
                    .iter()
                    .find(|p| p.player_no() == n)
                    .and_then(|p| p.code.clone())
                    .expect("a personal code")
            };
            if round == 1 {
                p.go(&format!("/desk/t/{tid}/seating/1")).await;
                assert!(p.html().await.contains("id=\"by-name\""));
                p.shot("i3-seating-lists").await;
            }
            for (k, tb) in r.tables.iter().enumerate() {
                let code = table_codes.table(tb.table as i32).unwrap().to_string();
                // A player of each line, with their personal code.
                let ns_code = code_of(tb.ns[k % 2]);
                let ew_code = code_of(tb.ew[(k + 1) % 2]);
                let ns = 100 + 20 * ((round as usize + k) % 5) as u32;
                if round == 1 && k == 0 {
                    a.go(&format!("/s/{code}")).await;
                    a.shot("i3b-phone-table").await;
                }
                enter_sheet(&a, &code, &ns_code, ns, 90).await;
                answer(&b, &code, &ew_code, None).await;
                assert!(
                    b.html()
                        .await
                        .contains(t(Lang::It, "table.notice.confirmed")),
                    "round {round} table {} confirmed",
                    tb.table
                );
            }
            if round == 1 {
                p.go(&format!("/desk/t/{tid}/rounds/1")).await;
                p.shot("i4-desk").await;
                // A penalty names a player: 1 VP off player 7.
                p.go(&format!("/desk/t/{tid}/penalties")).await;
                p.penalty_form("7", "1", "vp", "1").await;
                p.fill("#reason", "gioco lento").await;
                p.save_penalty("i4b-penalty-to-a-player").await;
                assert!(p.html().await.contains("7 · Giocatore7 Nome7"));
            }
        }

        // The public pages, logged out on a phone: the standings per
        // player are the core's over the exported file.
        let AnyTournamentFile::Individual(file) =
            services::files::export_any(db, dora, tid, setup::TZ)
                .await
                .unwrap()
        else {
            panic!("an individual file");
        };
        let reference = burraco_td::standings::compute_individual_file(&file, Lang::It).unwrap();
        b.go(&format!("/t/{tid}/rounds/2")).await;
        b.shot("i5-public-seating").await;
        b.go(&format!("/t/{tid}")).await;
        let rows = b
            .c
            .execute(
                "var num = t => parseInt(t.replace(/\\./g, '')); \
                 return Array.from(document.querySelectorAll('table.player-standings tbody tr')).map(tr => \
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
        assert_eq!(rows.len(), 20);
        b.shot("i6-standings-per-player").await;
        let best = reference.rows[0].number;
        b.go(&format!("/t/{tid}/players/{best}")).await;
        assert!(b.html().await.contains("id=\"seat-now\""));
        b.shot("i6b-player-page").await;
        b.go(&format!("/t/{tid}/prizes")).await;
        assert!(b.html().await.contains("id=\"player-prizes\""));
        b.shot("i7-prizes").await;
        p.go(&format!("/t/{tid}/screen")).await;
        p.shot("i8-hall-screen").await;
        p.go(&format!("/director/t/{tid}/individual")).await;
        p.shot("i9-players-running").await;
        p.go(&format!("/director/t/{tid}/individual/cards")).await;
        assert_eq!(p.html().await.matches("data-player-code=").count(), 20);
        p.shot("i10-player-cards").await;
    };
    let result = tokio::time::timeout(Duration::from_secs(420), run).await;
    for c in [desk_client, phone_a, phone_b] {
        c.close().await.ok();
    }
    result.expect("the individual evening finishes in 7 minutes");
}
