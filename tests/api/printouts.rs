//! The printouts carry the table-side codes: each table card a QR code that
//! a phone reads (decoded here with `rqrr`, as a camera would) and the code
//! in letters; each movement card its pair's private code.

use crate::helpers::{spawn_app_with, TestDb};
use crate::scoring::started;

use crate::qr_read::decode;

/// (table number, table code, svg) of every table card.
fn table_cards(html: &str) -> Vec<(String, String, String)> {
    html.split("<section class=\"table-card\"")
        .skip(1)
        .map(|card| {
            let value = |name: &str| {
                let start = card.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
                card[start..].split('"').next().unwrap().to_string()
            };
            let svg_start = card.find("<svg").expect("a QR code on the card");
            let svg_end = card.find("</svg>").unwrap() + 6;
            (
                value("data-table"),
                value("data-table-code"),
                card[svg_start..svg_end].to_string(),
            )
        })
        .collect()
}

#[tokio::test]
async fn table_cards_carry_a_qr_code_a_phone_reads_and_movement_cards_the_pair_codes() {
    let (app, dora, t) = started(8).await;
    let html = dora.get_html(&format!("{t}/rounds/1/cards")).await;
    let cards = table_cards(&html);
    assert_eq!(cards.len(), 4, "one card per table");
    let (tables, pairs) = (
        crate::peek::table_codes(&app),
        crate::peek::pair_codes(&app),
    );
    for (table, code, svg) in &cards {
        let stored = tables
            .iter()
            .find(|(n, _)| n.to_string() == *table)
            .expect("the table has a code");
        assert_eq!(&stored.1, code);
        // The QR code is the player's page of this table, on this server.
        assert_eq!(decode(svg), app.url(&format!("/s/{code}")));
        // The code is printed in letters too.
        assert!(html.contains(&format!("<p class=\"tc-code\">{code}</p>")));
    }
    // The address in the QR code is the table's page.
    let (_, code, _) = &cards[0];
    let res = app.another_browser().get(&format!("/s/{code}")).await;
    assert_eq!(res.status().as_u16(), 200);

    let html = dora.get_html(&format!("{t}/movement-cards")).await;
    assert_eq!(pairs.len(), 8);
    for (number, code) in &pairs {
        assert!(
            html.contains(&format!("data-pair=\"{number}\" data-pair-code=\"{code}\"")),
            "pair {number}'s card carries its code"
        );
    }
}

#[tokio::test]
async fn the_qr_code_follows_public_url() {
    let app = spawn_app_with(TestDb::new(), |s| {
        s.public_url = Some("https://burraco.club.example".into())
    })
    .await;
    app.setup_admin().await;
    let t = app
        .tournament("Serata")
        .owner("admin")
        .pairs(8)
        .drawn()
        .build()
        .await
        .path;
    let html = app.get_html(&format!("{t}/rounds/1/cards")).await;
    let cards = table_cards(&html);
    assert_eq!(cards.len(), 4);
    for (_, code, svg) in &cards {
        assert_eq!(
            decode(svg),
            format!("https://burraco.club.example/s/{code}")
        );
    }
}
