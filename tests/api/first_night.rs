//! Issue 31, the first night: where the entry fees go on the prize list,
//! the prize share typed as an amount per entry, a new circuit whose
//! defaults give every entrant points, stages offered in date order.

use burraco_td::i18n::{t as tr, Lang};

use crate::helpers::tid_of;
use crate::tournaments::{csv, import, new_through_the_form, with_director};

#[tokio::test]
async fn the_prize_list_shows_the_fees_collected_the_organisers_share_and_the_pool() {
    let (app, dora) = with_director().await;
    // 15 € of each 20 € entry to the pool: 75 %.
    let t = app
        .tournament("Quote")
        .with(&[
            ("prize_share_percent", "15"),
            ("prize_share_unit", "amount"),
        ])
        .build()
        .await
        .path;
    assert_eq!(import(&dora, &t, &csv(6)).await.status().as_u16(), 303);
    let tid = tid_of(&t);
    let prizes = dora.get_html(&format!("/t/{tid}/prizes")).await;
    for (key, amount) in [
        ("prizes.collected", "120,00"),
        ("prizes.organiser_share", "30,00"),
        ("prizes.pool_now", "90,00"),
    ] {
        let label = tr(Lang::It, key).replace('\'', "&#39;");
        let at = prizes
            .find(&label)
            .unwrap_or_else(|| panic!("{key} on the prize list: {prizes}"));
        assert!(
            prizes[at..].split("</dd>").next().unwrap().contains(amount),
            "{key}: {amount}"
        );
    }
    assert!(!prizes.contains(tr(Lang::It, "prizes.pool_final")));
    // The public page says where the money goes too.
    let public = dora.get_html(&format!("/t/{tid}")).await;
    assert!(public.contains("120,00") && public.contains("30,00"));
    // The settings form shows 75 % (a percentage that reads well).
    let form = dora.get_html(&format!("{t}/edit")).await;
    assert!(form.contains("value=\"75\""), "75 %");
}

#[tokio::test]
async fn a_share_per_entry_that_is_no_round_percentage_shows_as_typed_and_too_much_is_refused() {
    let (app, dora) = with_director().await;
    // 10 € of each 15 €: 66.666667 %, shown back as 10,00 € per entry.
    let t = app
        .tournament("Dieci su quindici")
        .with(&[
            ("entry_fee", "15,00"),
            ("prize_share_percent", "10"),
            ("prize_share_unit", "amount"),
        ])
        .build()
        .await
        .path;
    let form = dora.get_html(&format!("{t}/edit")).await;
    assert!(form.contains("value=\"10,00\""), "the amount per entry");
    assert!(form.contains("<option value=\"amount\" selected>"));
    assert_eq!(import(&dora, &t, &csv(30)).await.status().as_u16(), 303);
    let prizes = dora.get_html(&format!("/t/{}/prizes", tid_of(&t))).await;
    assert!(prizes.contains("300,00"), "30 × 10 € exactly: {prizes}");
    // More than the fee: refused next to the field, nothing saved.
    let share = [
        ("prize_share_percent", "25"),
        ("prize_share_unit", "amount"),
    ];
    let res = new_through_the_form(&dora, "Troppo", &share).await;
    assert_eq!(res.status().as_u16(), 422);
    let page = res.text().await.unwrap();
    let message = tr(Lang::It, "settings.error.share_amount").replace('\'', "&#39;");
    assert!(page.contains(&message), "{page}");
    assert!(!dora.get_html("/director").await.contains("Troppo"));
}

#[tokio::test]
async fn a_new_circuit_scores_every_entrant_and_offers_stages_in_date_order() {
    let (app, dora) = with_director().await;
    let page = dora.get_html("/director/circuits").await;
    let step = &page[page.find("name=\"step\"").expect("the step field")..];
    assert!(
        step.split('>').next().unwrap().contains("value=\"1\""),
        "step 1: {step}"
    );
    // Three evenings created out of order are offered by date.
    for (name, date) in [
        ("Terza serata", "2026-12-20"),
        ("Prima serata", "2026-10-04"),
        ("Seconda serata", "2026-11-08"),
    ] {
        app.tournament(name).set("date", date).build().await;
    }
    let res = dora
        .circuit_form(&[
            ("name", "Circuito"),
            ("season", "2026/27"),
            ("rank", "player"),
            ("method", "placing"),
            ("step", "1"),
        ])
        .await;
    assert_eq!(res.status().as_u16(), 303);
    let circuit = crate::helpers::location(&res);
    let html = dora.get_html(circuit.split('?').next().unwrap()).await;
    let at = |name: &str| html.find(name).unwrap_or_else(|| panic!("{name} offered"));
    assert!(at("Prima serata") < at("Seconda serata"));
    assert!(at("Seconda serata") < at("Terza serata"));
}
