use crate::helpers::spawn_app;

#[tokio::test]
async fn health_check_answers_200_when_the_database_answers() {
    let app = spawn_app().await;
    let res = app.get("/healthz").await;
    assert_eq!(res.status().as_u16(), 200);
    let body: serde_json::Value = res.json().await.unwrap();
    assert_eq!(body["database"], "ok");
}

#[tokio::test]
async fn health_check_answers_503_when_the_database_does_not() {
    let app = spawn_app().await;
    // Make the database stop answering: on PostgreSQL drop it; on SQLite
    // hold every pooled connection so that none is free for the check.
    let mut held = Vec::new();
    match &app.db {
        crate::helpers::TestDb::Sqlite(_) => {
            while let Ok(c) = app.pool.get_timeout(std::time::Duration::from_millis(200)) {
                held.push(c);
            }
            assert!(!held.is_empty());
        }
        crate::helpers::TestDb::Postgres { .. } => app.db.drop_now(),
    }
    let res = app.get("/healthz").await;
    assert_eq!(res.status().as_u16(), 503);
    drop(held);
    assert_eq!(
        app.get_status("/healthz").await,
        if app.db.is_postgres() { 503 } else { 200 }
    );
}

#[tokio::test]
async fn every_response_carries_a_request_id() {
    let app = spawn_app().await;
    let res = app.get("/healthz").await;
    let id = res
        .headers()
        .get("x-request-id")
        .expect("request id header");
    assert_eq!(id.to_str().unwrap().len(), 36);
}

#[tokio::test]
async fn static_assets_are_served_from_the_binary_with_cache_headers() {
    let app = spawn_app().await;
    let res = app.get("/static/style.css").await;
    assert_eq!(res.status().as_u16(), 200);
    assert!(res.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/css"));
    // By its plain name: revalidated (pages link the hashed, immutable URL).
    assert_eq!(res.headers()["cache-control"].to_str().unwrap(), "no-cache");
    assert!(res.headers().contains_key("etag"));
    let hashed = burraco_td::web::assets::url("style.css");
    let res = app.get(&hashed).await;
    assert_eq!(res.status().as_u16(), 200);
    assert!(res.headers()["cache-control"]
        .to_str()
        .unwrap()
        .contains("max-age=31536000"));
    assert_eq!(app.get_status("/static/nope.css").await, 404);
}

#[tokio::test]
async fn unknown_pages_get_a_styled_404_in_the_visitors_language() {
    let app = spawn_app().await;
    let res = crate::helpers::get_in(&app.client, app.url("/no/such/page"), "en-GB,en;q=0.9").await;
    assert_eq!(res.status().as_u16(), 404);
    let html = res.text().await.unwrap();
    assert!(html.contains("Page not found"), "{html}");
    assert!(
        html.contains("/static/style."),
        "the stylesheet, by its hashed URL"
    );
    let html = app.get_html("/no/such/page").await;
    assert!(
        html.contains("Pagina non trovata"),
        "Italian is the default"
    );
}
