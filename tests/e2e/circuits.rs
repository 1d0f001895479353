//! A season in a real browser (issue 24): three small tournaments played
//! to the end (imported as played files: every sheet through the rules
//! engine), a circuit made of them through the director's forms, its
//! public page, a season card and the player directory, at 360 and 1280 px.
//! The ranking on the page is checked against the core's computation over
//! the same files.

use burraco_td::auth::Role;
use burraco_td::circuit::{compute, parse, stage_of_file, Resolver};
use burraco_td::i18n::Lang;
use burraco_td::tournament_file::fixtures::sample_tournament;
use burraco_td::tournament_file::{Player, Status};

use crate::browser::{start_driver, start_server, Page};
use crate::setup;
use crate::shared::player;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_season_of_three_evenings() {
    let server = start_server().await;
    let db = &server.db;
    let admin = setup::user(db, "admin", "admin password 1", Role::Admin).await;
    setup::user(db, "dora", "director pass 1", Role::Director).await;
    // Three evenings of six pairs; Maria Rossi plays all three (with her
    // card once, without it twice), with a different partner each time.
    let partners = ["Bianchi", "Verdi", "Neri"];
    let mut files = Vec::new();
    let mut tids = Vec::new();
    for (i, partner) in partners.iter().enumerate() {
        let seed = 40 + i as u64;
        let mut f = sample_tournament(6, 3, seed);
        f.name = format!("Serata {}", i + 1);
        f.status = Some(Status::Finished);
        f.pairs[0].players = vec![
            player("Rossi", "Maria", (i == 0).then_some("RM-77")),
            player(partner, "Luca", None),
        ];
        // Anna Verdi renewed her card between the second and the third
        // evening: two people by the rules, one in the hall.
        if i > 0 {
            let card = format!("VA-{i}");
            f.pairs[1].players[0] = player("Verdi", "Anna", Some(card.as_str()));
        }
        let tid = burraco_td::services::files::import(
            db,
            admin,
            Some("dora".into()),
            f.clone(),
            setup::TZ,
        )
        .await
        .expect("import");
        files.push(f);
        tids.push(tid);
    }
    // The reference: the core over the files, as `burraco-td circuit`.
    let spec = parse(
        r#"{"format":"burraco-td/circuit@1","name":"Circuito del Sole","season":"2026/27",
            "points":{"method":"placing"},"best_of":2,"finals":{"stage_top_percent":20}}"#,
    )
    .unwrap();
    let resolver = Resolver::from_files(files.iter());
    let stages: Vec<_> = files
        .iter()
        .map(|f| stage_of_file(f, |p: &Player| resolver.key_of(p), Lang::It).unwrap())
        .collect();
    let reference = compute(&spec, &stages);
    let rossi = reference
        .rows
        .iter()
        .find(|r| r.players[0].surname == "Rossi")
        .unwrap();

    let (driver, client) = start_driver().await;
    let p = Page {
        c: &client,
        base: &server.base,
    };
    let run = async {
        p.login("dora", "director pass 1").await;
        // The circuit through its form.
        p.go("/director/circuits").await;
        p.fill("#c-name", "Circuito del Sole").await;
        p.fill("#c-season", "2026/27").await;
        p.select("#c-method", "placing").await;
        p.fill("#c-best_of", "2").await;
        p.fill("#c-stage_top_percent", "20").await;
        p.shot("a0-circuit-new").await;
        p.submit("form.circuit-form button[type=submit]").await;
        let path = p.path().await;
        assert!(path.starts_with("/director/circuits/"), "{path}");
        let cid: i64 = path
            .trim_start_matches("/director/circuits/")
            .split(['?', '#'])
            .next()
            .unwrap()
            .parse()
            .unwrap();
        for tid in &tids {
            p.select("#tournament", &tid.to_string()).await;
            p.submit("form.add-stage button[type=submit]").await;
        }
        let html = p.html().await;
        for n in 1..=3 {
            assert!(html.contains(&format!("Serata {n}")), "{html}");
        }
        p.shot("a1-circuit-director").await;

        // The public page, logged out: Rossi's points as the core has them.
        p.submit("form[action='/logout'] button").await;
        p.go(&format!("/c/{cid}")).await;
        let html = p.html().await;
        assert!(html.contains("Circuito del Sole"), "{html}");
        assert!(html.contains("Rossi Maria"), "{html}");
        let points = burraco_td::i18n::format::decimal(Lang::It, rossi.points);
        assert!(
            html.contains(&format!("<strong>{points}</strong>")),
            "{points} in {html}"
        );
        p.shot("a2-circuit-public").await;
        // Her season card: three evenings, the counted ones marked, each
        // linked to that evening's pair card.
        let end = html.find("\">Rossi Maria</a>").expect("her link");
        let start = html[..end].rfind("href=\"").expect("href") + "href=\"".len();
        let card = html[start..end].to_string();
        assert!(card.starts_with(&format!("/c/{cid}/people/")), "{card}");
        p.go(&card).await;
        let card_html = p.html().await;
        assert!(card_html.contains("Scheda stagionale"), "{card_html}");
        for tid in &tids {
            assert!(
                card_html.contains(&format!("/t/{tid}/pairs/1")),
                "{card_html}"
            );
        }
        assert_eq!(
            card_html.matches("class=\"counted\"").count(),
            rossi.counted.len(),
            "{card_html}"
        );
        p.shot("a3-season-card").await;

        // The director merges the two Anna Verdi of the directory.
        p.login("dora", "director pass 1").await;
        p.go("/director/people").await;
        let html = p.html().await;
        assert!(html.contains("Verdi Anna"), "{html}");
        p.shot("a4-people-duplicates").await;
        // The merge button of her group (the generated evenings may hold
        // other homonyms).
        client
            .execute("window.__btd_old_page = true", vec![])
            .await
            .expect("mark page");
        client
            .find(fantoccini::Locator::XPath(
                "//div[contains(@class,'dup-group')][.//strong[text()='Verdi Anna']]//form//button",
            ))
            .await
            .expect("her merge button")
            .click()
            .await
            .expect("merge");
        p.wait_new_page().await;
        let html = p.html().await;
        assert!(html.contains("Uniti"), "{html}");
        assert!(html.contains("/split"), "{html}");
        p.shot("a5-people-merged").await;
        // The ranking counts her once now, with both evenings.
        p.submit("form[action='/logout'] button").await;
        p.go(&format!("/api/v1/circuits/{cid}/standings")).await;
        let text = client
            .find(fantoccini::Locator::Css("body"))
            .await
            .expect("body")
            .text()
            .await
            .expect("text");
        let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        let verdi: Vec<&serde_json::Value> = v["standings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["player"]["surname"] == "Verdi" && r["player"]["name"] == "Anna")
            .collect();
        assert_eq!(verdi.len(), 1, "{text}");
        assert_eq!(verdi[0]["attendances"], 2);
    };
    run.await;
    client.close().await.ok();
    drop(driver);
}
