//! The referee's evening (issue 14): her home (with a disputed table) →
//! the desk → a table's sheet → an `mp` penalty → withdraw (a reason is
//! required, the message next to the field) → reinstate → the audit log,
//! and the seat draw as referees speak (Italian names, the card grid, the
//! tournament's suit order, the redraw step). Screenshots at 1280 and 360 px.

use burraco_td::auth::Role;
use burraco_td::services::{self, Actor, Need};
use burraco_td::tournament::pairs::{PairEntry, PairForm};
use burraco_td::tournament::settings::SettingsForm;

use crate::browser::{start_driver, start_server, Page};

const RITA_PW: &str = "referee pass 1";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_referees_evening() {
    let server = start_server().await;
    let db = &server.db;
    let mut ids = Vec::new();
    for (name, role) in [("dora", Role::Director), ("rita", Role::Referee)] {
        let hash = burraco_td::auth::password::hash_password(RITA_PW).expect("hash");
        let id = db
            .write(move |c| {
                burraco_td::db::users::create(c, name, &hash, role)
                    .map_err(services::ServiceError::corrupt)
            })
            .await
            .expect("user");
        ids.push(id);
    }
    let dora = Actor {
        user_id: ids[0],
        role: Role::Director,
    };
    let tz = chrono_tz::Europe::Rome;
    let today = chrono::Utc::now().with_timezone(&tz).date_naive();
    let mut form = SettingsForm::defaults(today);
    form.name = "Serata dell'arbitro".into();
    let tid = services::tournaments::create(db, dora, form, tz)
        .await
        .expect("tournament");
    services::tournaments::add_staff(db, dora, tid, "rita".into(), Role::Referee)
        .await
        .expect("staff");
    let entries = (1..=8)
        .map(|i| {
            PairEntry::parse(&PairForm {
                p1_surname: format!("Rossi{i}"),
                p1_name: "Anna".into(),
                p2_surname: format!("Verdi{i}"),
                p2_name: "Luca".into(),
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
    let (l, _, tables, _) = services::rounds::seating(db, dora, tid, 1, Need::Direct)
        .await
        .unwrap();
    let table = tables[0].table_no;
    let ns = l.pair(tables[0].ns_pair).unwrap().clone();
    let sheet = burraco_td::tournament_file::fixtures::simple_sheet(1090, 700, 3);
    services::scoring::save_sheet(
        db,
        dora,
        tid,
        1,
        table,
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

    let (driver, client) = start_driver().await;
    let p = Page {
        c: &client,
        base: &server.base,
    };
    let run = async {
        p.go("/login").await;
        p.fill("#username", "rita").await;
        p.fill("#password", RITA_PW).await;
        p.submit("form[action='/login'] button[type=submit]").await;
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
        p.select("#pair", &ns.id.to_string()).await;
        p.select("#round", "1").await;
        p.select("#kind", "mp").await;
        p.fill("#amount", "100").await;
        p.fill("#reason", "parla al compagno durante il gioco")
            .await;
        p.submit("form[action$='/penalties'] button[type=submit]")
            .await;
        assert!(p.html().await.contains("Penalità registrata"));
        p.shot("72-referee-penalty-given").await;
        // The table's sheet says what counts after the penalty, and why.
        p.go(&format!("/desk/t/{tid}/rounds/1/tables/{table}"))
            .await;
        let html = p.html().await;
        assert!(html.contains("id=\"counted-result\""), "{html}");
        assert!(html.contains("1090 → 990 dopo la penalità −100"), "{html}");
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
