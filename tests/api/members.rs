//! The member list (issue 36, RULES.md §15): its page (a preview, then all
//! or nothing) and, with the member check off, the director's page
//! flagging the online entries the list would not let in.

use burraco_td::auth::Role;
use serde_json::{json, Value};

use crate::tokens::token_for;

const LIST: &str = "tessera;cognome;nome;scadenza;tipo\n\
                    C1A;Rossi1;Anna;2026-12-31;ordinaria\n\
                    C1B;Bianchi1;Luca;2026-12-31;\n\
                    C2A;Rossi2;Anna;2025-12-31;ordinaria\n";

/// Posts the member list's form: its status and page.
async fn post_list(dora: &crate::helpers::Browser, fields: &[(&str, &str)]) -> (u16, String) {
    let res = dora
        .submit("/director/members", "/director/members", fields)
        .await;
    (res.status().as_u16(), res.text().await.unwrap())
}

async fn no_list_yet(dora: &crate::helpers::Browser) -> bool {
    dora.get_html("/director/members")
        .await
        .contains("Nessun elenco importato")
}

#[tokio::test]
async fn the_member_list_is_imported_from_its_page_after_a_preview() {
    let (_app, dora) = crate::tournaments::with_director().await;
    let page = dora.get_html("/director/tournaments").await;
    assert!(page.contains("href=\"/director/members\""), "{page}");
    assert!(no_list_yet(&dora).await);

    // A list without its columns: the problem next to the file field.
    let (status, body) = post_list(&dora, &[("csv", "a;b\n1;2\n")]).await;
    assert_eq!(status, 422);
    assert!(
        body.contains("id=\"members-error\"") && body.contains("tessera"),
        "{body}"
    );

    // A line without a date: named, nothing imported.
    let broken = format!("{LIST}C9;Verdi;Ada;;\n");
    let (status, body) = post_list(&dora, &[("csv", &broken)]).await;
    assert_eq!(status, 422);
    assert!(
        body.contains("id=\"members-problems\"") && body.contains("5"),
        "{body}"
    );
    assert!(no_list_yet(&dora).await);

    // The preview saves nothing; the confirmation imports all three.
    let (status, body) = post_list(&dora, &[("csv", LIST)]).await;
    assert_eq!(status, 200);
    assert!(
        body.contains("Soci da importare") && body.contains("Rossi2"),
        "{body}"
    );
    assert!(no_list_yet(&dora).await);
    let (status, _) = post_list(&dora, &[("csv", LIST), ("confirm", "yes")]).await;
    assert_eq!(status, 303);
    let page = dora.get_html("/director/members?imported=3").await;
    assert!(page.contains("id=\"members-imported\""), "{page}");
    assert!(
        page.contains("Tessere nell&#39;elenco: <strong>3</strong>"),
        "{page}"
    );
}

#[tokio::test]
async fn a_referee_cannot_open_the_member_list() {
    let (app, _dora) = crate::tournaments::with_director().await;
    app.create_user("rita", "referee", "referee pass").await;
    app.login("rita", "referee pass").await;
    assert_eq!(app.get_status("/director/members").await, 403);
}

#[tokio::test]
async fn with_the_check_off_the_directors_page_flags_the_cards_the_list_would_refuse() {
    let (app, dora) = crate::tournaments::with_director().await;
    let token = token_for(&app, Role::Director).await;
    let res = reqwest::Client::new()
        .post(app.url("/api/v1/members/import"))
        .bearer_auth(&token)
        .header("content-type", "text/csv")
        .body(LIST)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 200);
    let tid = app
        .tournament("Senza controllo")
        .with(&[("online_entries", "on"), ("capacity", "1")])
        .build()
        .await
        .tid;
    let enter = |body: Value| {
        let app = &app;
        async move {
            reqwest::Client::new()
                .post(app.url(&format!("/api/v1/tournaments/{tid}/entries")))
                .json(&body)
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        }
    };
    // Confirmed: Rossi2's card expired; waiting: an unknown card.
    let expired = json!({"players": [
        {"surname": "Rossi2", "name": "Anna", "card": "C2A"},
        {"surname": "Bianchi1", "name": "Luca", "card": "C1B"}], "phone": "1", "consent": true});
    let unknown = json!({"players": [
        {"surname": "Rossi1", "name": "Anna", "card": "C1A"},
        {"surname": "Neri", "name": "Ugo", "card": "ZZ9"}], "phone": "2", "consent": true});
    assert_eq!(enter(expired).await, 201, "the check is off: taken");
    assert_eq!(enter(unknown).await, 201);
    let page = dora.get_html(&format!("/director/t/{tid}")).await;
    assert!(
        page.contains("Rossi2 Anna: tessera scaduta"),
        "the confirmed pair is flagged: {page}"
    );
    assert!(
        page.contains("Neri Ugo: tessera non nell&#39;elenco dei soci"),
        "the waiting entry is flagged: {page}"
    );
    assert!(
        !page.contains("Bianchi1 Luca: "),
        "a valid card is not flagged"
    );
}

#[tokio::test]
async fn a_member_list_of_thousands_of_cards_fits_the_page() {
    let (_app, dora) = crate::tournaments::with_director().await;
    let mut list = String::from("tessera;cognome;nome;scadenza;tipo\n");
    for i in 0..4000 {
        list.push_str(&format!(
            "T{i:05};Cognome{i};Nome{i};2026-12-31;ordinaria\n"
        ));
    }
    assert!(list.len() > 150 * 1024, "{}", list.len());
    let (status, body) = post_list(&dora, &[("csv", &list)]).await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("<strong>4000</strong>"), "{body}");
    let (status, _) = post_list(&dora, &[("csv", &list), ("confirm", "yes")]).await;
    assert_eq!(status, 303);
    assert!(dora
        .get_html("/director/members")
        .await
        .contains("<strong>4000</strong>"));
}
