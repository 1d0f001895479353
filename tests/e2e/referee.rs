//! The referee's evening (issue 14): her home (with a disputed table) →
//! the desk → a table's sheet → an `mp` penalty → withdraw (a reason is
//! required, the message next to the field) → reinstate → the audit log,
//! and the seat draw as referees speak (Italian names, the card grid, the
//! tournament's suit order, the redraw step). Screenshots at 1280 and 360 px.

use burraco_td::auth::Role;

use crate::browser::{start_driver, start_server, Page};
use crate::setup;

const RITA_PW: &str = "referee pass 1";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_referees_evening() {
    let server = start_server().await;
    let db = &server.db;
    let dora = setup::user(db, "dora", "director pass 1", Role::Director).await;
    setup::user(db, "rita", RITA_PW, Role::Referee).await;
    let pairs = setup::pairs(8, ("Rossi", "Anna"), ("Verdi", "Luca"));
    let (tid, _) = setup::tournament(
        db,
        dora,
        setup::settings("Serata dell'arbitro"),
        &pairs,
        true,
    )
    .await;
    setup::referee(db, dora, tid).await;
    setup::draw(db, dora, tid).await;
    let (l, tables) = setup::seating(db, dora, tid, 1).await;
    let table = tables[0].table_no;
    let ns = l.pair(tables[0].ns_pair).unwrap().clone();
    setup::save_sheet(db, dora, tid, 1, table, 1090, 700).await;

    let (driver, client) = start_driver().await;
    let p = Page {
        c: &client,
        base: &server.base,
    };
    let run = async {
        p.login("rita", RITA_PW).await;
        // Home: the tournament with its desk, penalties, audit and seat draw.
        p.go("/").await;
        let home = p.html().await;
        assert!(home.contains(&format!("/desk/t/{tid}/rounds/1")), "{home}");
        assert!(home.contains(&format!("/desk/seat-draw?t={tid}")), "{home}");
        p.shot("70-referee-home").await;
        p.go(&format!("/desk/t/{tid}/rounds/1")).await;
        p.shot("71-referee-desk").await;

        // A penalty of 100 MP to the NS pair of the scored table.
        let pen = format!("/desk/t/{tid}/penalties");
        p.go(&pen).await;
        p.penalty_form(&ns.id.to_string(), "1", "mp", "100").await;
        p.fill("#reason", "parla al compagno durante il gioco")
            .await;
        p.save_penalty("72-referee-penalty-given").await;
        // The table's sheet says what counts after the penalty, and why.
        p.go(&format!("/desk/t/{tid}/rounds/1/tables/{table}"))
            .await;
        let html = p.html().await;
        assert!(html.contains("id=\"counted-result\""), "{html}");
        assert!(html.contains("1.090 → 990 dopo la penalità −100"), "{html}");
        p.shot("73-referee-sheet-after-penalty").await;

        // Withdraw: without a reason, refused next to the field.
        p.go(&pen).await;
        p.submit("form.penalty-change button[type=submit]").await;
        let html = p.html().await;
        assert!(html.contains("class=\"field-error\""), "{html}");
        assert!(html.contains("/withdraw\""), "nothing changed: {html}");
        p.shot("74-referee-withdraw-needs-reason").await;
        p.fill(
            "form.penalty-change input[name=reason]",
            "era il compagno a parlare, non lui",
        )
        .await;
        p.submit("form.penalty-change button[type=submit]").await;
        let html = p.html().await;
        assert!(
            html.contains("era il compagno a parlare, non lui"),
            "{html}"
        );
        assert!(html.contains("/reinstate"), "{html}");
        p.shot("75-referee-withdrawn").await;
        // Reinstate, with its own reason.
        p.fill(
            "form.penalty-change input[name=reason]",
            "confermato dal direttore",
        )
        .await;
        p.submit("form.penalty-change button[type=submit]").await;
        let html = p.html().await;
        assert!(html.contains("confermato dal direttore"), "{html}");
        p.shot("76-referee-reinstated").await;
        // The audit log has all three, in words.
        p.go(&format!("/desk/t/{tid}/audit")).await;
        let audit = p.html().await;
        assert!(
            audit.contains("era il compagno a parlare, non lui"),
            "{audit}"
        );
        assert!(audit.contains("confermato dal direttore"), "{audit}");
        p.shot("77-referee-audit").await;

        // The seat draw from her home: Italian names, one card from the grid.
        p.go(&format!("/desk/seat-draw?t={tid}")).await;
        p.fill("#c1", "jolly").await;
        p.fill("#c2", "jolly").await;
        p.fill("#c3", "7 di quadri").await;
        p.click("#c4 ~ details summary").await;
        p.click("label.chip:has(input[name=rank4][value='3']) span")
            .await;
        p.click("label.chip:has(input[name=suit4][value='S']) span")
            .await;
        p.shot("78-seat-draw-grid").await;
        p.submit("form[action='/desk/seat-draw'] button.primary")
            .await;
        let html = p.html().await;
        assert!(html.contains("Giocatore 4: 3 di picche"), "{html}");
        assert!(html.contains("id=\"redraw-next\""), "{html}");
        p.shot("79-seat-draw-redraw").await;
        p.fill("#s1_p1", "re di cuori").await;
        p.fill("#s1_p2", "3 di fiori").await;
        p.submit("form[action='/desk/seat-draw'] button.primary")
            .await;
        let html = p.html().await;
        assert!(html.contains("Giocatore 1</strong> sceglie"), "{html}");
        assert!(html.contains("Giocatore 4</strong> fa le carte"), "{html}");
        p.shot("80-seat-draw-decided").await;
    };
    run.await;
    client.close().await.ok();
    drop(driver);
}
