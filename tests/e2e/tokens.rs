//! The account page in a real browser: a referee reaches it from the
//! navigation, creates an API token (shown once), sees it listed with its
//! times, uses it, and revokes it. Screenshots at 1280 and 360 px.

use std::time::Duration;

use burraco_td::auth::Role;

use crate::browser::{start_driver, start_server, Page};

const RITA_PW: &str = "referee pass 1";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_referee_creates_uses_and_revokes_an_api_token() {
    let server = start_server().await;
    let hash = burraco_td::auth::password::hash_password(RITA_PW).expect("hash");
    let now = server.db.now();
    server
        .db
        .write(move |c| {
            burraco_td::db::users::create(c, "rita", &hash, Role::Referee, now)
                .map_err(burraco_td::services::ServiceError::corrupt)
        })
        .await
        .expect("rita");
    let (_driver, client) = start_driver().await;
    let p = Page {
        c: &client,
        base: &server.base,
    };
    let run = async {
        p.login("rita", RITA_PW).await;

        // From the navigation, without JavaScript-only controls.
        p.submit("nav a[href='/account']").await;
        assert_eq!(p.path().await, "/account");
        assert!(p.html().await.contains("Non hai token API"));

        p.fill("#label", "Tabellone in sala").await;
        p.submit("form[action='/account/tokens'] button").await;
        let html = p.html().await;
        assert!(html.contains("Copialo adesso"), "the copy-now message");
        let token = p
            .el("#token-value")
            .await
            .prop("value")
            .await
            .expect("value")
            .expect("a token");
        assert!(burraco_td::auth::tokens::looks_like_token(&token));
        p.shot("tokens-01-created").await;

        // The token works as Rita.
        let me: serde_json::Value = reqwest::Client::new()
            .get(format!("{}/api/v1/me", server.base))
            .bearer_auth(&token)
            .send()
            .await
            .expect("GET /api/v1/me")
            .json()
            .await
            .expect("JSON");
        assert_eq!(me["username"], "rita");

        // Listed, with its times, never again in full.
        p.go("/account").await;
        let html = p.html().await;
        assert!(html.contains("Tabellone in sala"));
        assert!(!html.contains(&token));
        assert!(!html.contains("Non hai token API"));
        p.shot("tokens-02-list").await;

        p.submit_sees(
            "form[action$='/revoke'] button",
            "Il token è revocato",
            "tokens-03-revoked",
        )
        .await;
        let status = reqwest::Client::new()
            .get(format!("{}/api/v1/me", server.base))
            .bearer_auth(&token)
            .send()
            .await
            .expect("GET /api/v1/me")
            .status();
        assert_eq!(status.as_u16(), 401);
    };
    let result = tokio::time::timeout(Duration::from_secs(180), run).await;
    client.close().await.ok();
    result.expect("the account scenario finishes in 3 minutes");
}
