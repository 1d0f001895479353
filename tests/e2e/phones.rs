//! A round of four tables scored from phones (issue 13): at each table one
//! phone (360 px) enters the sheet, the other pair's phone confirms it; one
//! table disputes and the referee settles it at the desk, which shows the
//! states change. Screenshots of the player's page, the desk, the printed
//! table card and the score card.

use std::time::Duration;

use burraco_td::auth::Role;
use burraco_td::i18n::{t, Lang};
use burraco_td::services;

use crate::browser::{another_session, start_driver, start_server, Page};
use crate::setup;

const DORA_PW: &str = "director pass 1";
const RITA_PW: &str = "referee pass 1";

/// A running tournament of 8 pairs (4 tables), its owner Dora, and Rita on
/// its staff as referee. Returns (tournament id, table → (code, NS code, EW code)).
async fn stage(
    db: &burraco_td::db::Db,
) -> (
    burraco_td::ids::TournamentId,
    Vec<(i32, String, String, String)>,
) {
    let dora = setup::user(db, "dora", DORA_PW, Role::Director).await;
    setup::user(db, "rita", RITA_PW, Role::Referee).await;
    // Long names, as real ones can be: the desk must keep them readable.
    let pairs = setup::pairs(
        8,
        ("Della Valle-Scognamiglio", "Maria Francesca"),
        ("Santangelo Bonaventura", "Gianpierluigi"),
    );
    let (tid, _) = setup::tournament(
        db,
        dora,
        setup::settings("Torneo dai telefoni"),
        &pairs,
        true,
    )
    .await;
    setup::referee(db, dora, tid).await;
    setup::draw(db, dora, tid).await;
    let codes = services::entries::codes(db, dora, tid).await.unwrap();
    let (l, tables) = setup::seating(db, dora, tid, 1).await;
    let number = |id: Option<burraco_td::ids::PairId>| l.pair(id).unwrap().number;
    let tables = tables
        .iter()
        .map(|s| {
            (
                s.table_no,
                codes.table(s.table_no).unwrap().to_string(),
                codes.pair(number(s.ns_pair)).unwrap().to_string(),
                codes.pair(number(s.ew_pair)).unwrap().to_string(),
            )
        })
        .collect();
    (tid, tables)
}

/// The phone of the pair that enters: three hands, one step each, NS
/// closes each with a clean burraco (NS 3 × (ns + 300), EW 3 × (ew − 20));
/// both lines took the pozzetto (its box, "NOT taken", stays blank); then
/// its code.
pub(crate) async fn enter_sheet(p: &Page<'_>, code: &str, pair_code: &str, ns: u32, ew: u32) {
    p.go(&format!("/s/{code}")).await;
    for h in 1..=3 {
        p.click(&format!("input[name=h{h}_end][value=closure_ns]"))
            .await;
        p.fill(&format!("input[name=h{h}_ns_clean]"), "1").await;
        p.fill(
            &format!("input[name=h{h}_ns_melded_points]"),
            &ns.to_string(),
        )
        .await;
        p.fill(
            &format!("input[name=h{h}_ew_melded_points]"),
            &ew.to_string(),
        )
        .await;
        p.fill(&format!("input[name=h{h}_ew_hand_points]"), "20")
            .await;
        p.click(&format!("#hand-{h} [data-step=next]")).await;
    }
    p.fill("#pair_code", pair_code).await;
    p.submit("#send-sheet").await;
    assert!(
        p.html().await.contains(t(Lang::It, "table.notice.entered")),
        "entered at table {code}"
    );
}

/// The other pair's phone: confirms, or disputes with a note.
pub(crate) async fn answer(p: &Page<'_>, code: &str, pair_code: &str, note: Option<&str>) {
    p.go(&format!("/s/{code}")).await;
    p.fill("#answer_code", pair_code).await;
    match note {
        None => p.submit("form.answer-form button[value=yes]").await,
        Some(n) => {
            p.click("form.answer-form details summary").await;
            p.fill("#note", n).await;
            p.submit("form.answer-form button[value=no]").await
        }
    }
}

async fn desk_count(p: &Page<'_>, desk: &str, key: &str) -> Option<String> {
    p.go(desk).await;
    let html = p.html().await;
    let label = format!("{}: <strong>", t(Lang::It, key));
    let start = html.find(&label)? + label.len();
    Some(html[start..].split('<').next().unwrap_or("").to_string())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_scored_from_phones() {
    let server = start_server().await;
    let (tid, tables) = stage(&server.db).await;
    let (driver, desk_client) = start_driver().await;
    let (_pa, phone_a) = another_session(&driver, 360, 800).await;
    let (_pb, phone_b) = another_session(&driver, 360, 800).await;
    let desk = Page {
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
        // The desk: Rita, the referee, watches the round.
        desk.login("rita", RITA_PW).await;
        let round = format!("/desk/t/{tid}/rounds/1");
        assert_eq!(
            desk_count(&desk, &round, "board.state.missing")
                .await
                .as_deref(),
            Some("4")
        );
        desk.shot("20-desk-before-phones").await;

        for (i, (table, code, ns, ew)) in tables.iter().enumerate() {
            enter_sheet(&a, code, ns, 120 + 5 * i as u32, 90).await;
            if i == 0 {
                a.shot_as_is("21-player-entered-phone").await;
            }
            if i == 3 {
                // The last table disagrees.
                answer(
                    &b,
                    code,
                    ew,
                    Some("la terza smazzata era 80 e non 180: abbiamo contato due volte le carte rimaste in mano a Est, ricontrollate per favore"),
                )
                .await;
                assert!(b
                    .html()
                    .await
                    .contains(t(Lang::It, "table.notice.disputed")));
                b.shot_as_is("22-player-disputed-phone").await;
            } else {
                answer(&b, code, ew, None).await;
                assert!(
                    b.html()
                        .await
                        .contains(t(Lang::It, "table.notice.confirmed")),
                    "table {table} confirmed"
                );
            }
        }
        // The desk shows three confirmed tables and one dispute, with its note.
        assert_eq!(
            desk_count(&desk, &round, "board.state.confirmed")
                .await
                .as_deref(),
            Some("3")
        );
        assert!(desk.html().await.contains("la terza smazzata era 80"));
        assert_eq!(
            desk_count(&desk, &round, "board.state.disputed")
                .await
                .as_deref(),
            Some("1")
        );
        desk.shot("23-desk-dispute").await;
        // At 1280 px the desk's table fits its box with the dispute's note.
        assert_eq!(
            desk.table_overflow_at(1280).await,
            0,
            "the desk scrolls sideways at 1280 px"
        );
        // The referee settles it: she opens the entry (the table's page,
        // the entry read-only above the form), and counts it as it stands.
        let (last, ..) = &tables[3];
        desk.submit(&format!(
            "a[href='/desk/t/{tid}/rounds/1/tables/{last}#pending']"
        ))
        .await;
        assert!(desk.html().await.contains("la terza smazzata era 80"));
        desk.submit("#pending #confirm-entry").await;
        assert_eq!(
            desk_count(&desk, &round, "board.state.disputed").await,
            None
        );
        assert_eq!(
            desk_count(&desk, &round, "board.state.missing").await,
            None,
            "every table counts"
        );
        desk.shot("24-desk-all-in").await;
        // The phone that confirmed sees its table's result, no form.
        let (_, code, ..) = &tables[0];
        b.go(&format!("/s/{code}")).await;
        let html = b.html().await;
        assert!(html.contains("data-status=\"confirmed\""), "{html}");
        assert!(html.contains("id=\"result\""), "{html}");
        assert!(!html.contains("id=\"phone-sheet\""), "{html}");
        b.shot_as_is("25-player-confirmed-phone").await;

        // The printouts: table cards with their QR codes, score cards.
        desk.go("/").await;
        desk.submit("form[action='/logout'] button").await;
        desk.login("dora", DORA_PW).await;
        desk.go(&format!("/director/t/{tid}/rounds/1/cards")).await;
        assert!(desk.html().await.contains("data-table-code="));
        desk.shot("26-table-cards-qr").await;
        desk.go(&format!("/desk/t/{tid}/rounds/1/score-cards"))
            .await;
        desk.shot("27-score-cards").await;
    };
    let result = tokio::time::timeout(Duration::from_secs(300), run).await;
    for c in [desk_client, phone_a, phone_b] {
        c.close().await.ok();
    }
    result.expect("the phones' round finishes in 5 minutes");
}
