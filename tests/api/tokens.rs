//! Personal API tokens and Bearer authentication: the CLI, the account page,
//! the extractor (`web::bearer`) and the session/CSRF layer's handling of
//! bearer requests. The helpers [`token_for`] and [`user_with_token`] give
//! other test files a staff member and a working token.

use std::sync::Arc;

use actix_web::http::StatusCode as ActixStatus;
use actix_web::middleware::from_fn;
use actix_web::{test as atest, web, App, HttpResponse};
use burraco_td::auth::tokens::{token_hash, TokenLabel};
use burraco_td::auth::{password, Role};
use burraco_td::db::{Db, DbUrl};
use burraco_td::services::{self, Actor};
use burraco_td::web::bearer::{ApiActor, OptionalApiActor};
use burraco_td::web::error::ApiError;
use serde_json::Value;

use crate::helpers::{csrf_in, location, spawn_app, TestApp, ADMIN, ADMIN_PW};
use crate::peek::account_audit;

/// The application's database handle on the test's database.
pub fn db_of(app: &TestApp) -> Db {
    Db::new(app.pool.clone(), &DbUrl::parse(&app.db.url()))
}

/// Creates an account `username` with `role` (password `ADMIN_PW`) and a
/// token for it through the token service; returns the user's id and the token.
pub async fn user_with_token(
    app: &TestApp,
    username: &str,
    role: Role,
) -> (burraco_td::ids::UserId, String) {
    let hash = password::hash_password(ADMIN_PW).expect("hash");
    let mut conn = app.pool.get().expect("connection");
    let id = burraco_td::db::users::create(&mut conn, username, &hash, role, app.clock().now())
        .expect("user");
    drop(conn);
    let token = services::tokens::create(
        &db_of(app),
        Actor { user_id: id, role },
        TokenLabel::parse("tests").unwrap(),
    )
    .await
    .expect("token");
    (id, token.token)
}

/// A working bearer token of a new staff member with `role` (for tests of
/// the JSON API: `Authorization: Bearer {token}`).
pub async fn token_for(app: &TestApp, role: Role) -> String {
    let name = format!(
        "api-{}-{}",
        role.as_str(),
        &uuid::Uuid::new_v4().simple().to_string()[..8]
    );
    user_with_token(app, &name, role).await.1
}

async fn get_me(app: &TestApp, auth: Option<&str>) -> reqwest::Response {
    let client = reqwest::Client::new();
    let mut req = client.get(app.url("/api/v1/me"));
    if let Some(a) = auth {
        req = req.header("Authorization", a);
    }
    req.send().await.expect("GET /api/v1/me")
}

async fn error_code(res: reqwest::Response) -> String {
    let body: Value = res.json().await.expect("JSON error body");
    assert!(
        body["error"]["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty()),
        "{body}"
    );
    body["error"]["code"].as_str().expect("code").to_string()
}

fn last_used(app: &TestApp, token: &str) -> Option<chrono::NaiveDateTime> {
    crate::peek::token_last_used(app, &token_hash(token))
}

#[tokio::test]
async fn a_valid_token_acts_as_its_owner_with_her_role() {
    let app = spawn_app().await;
    let (id, token) = user_with_token(&app, "carla", Role::Referee).await;
    let res = get_me(&app, Some(&format!("Bearer {token}"))).await;
    assert_eq!(res.status().as_u16(), 200);
    assert!(res.headers().get("set-cookie").is_none());
    assert_eq!(
        res.headers()
            .get("cache-control")
            .and_then(|v| v.to_str().ok()),
        Some("no-store")
    );
    let me: Value = res.json().await.unwrap();
    assert_eq!(me["id"], id.0);
    assert_eq!(me["username"], "carla");
    assert_eq!(me["role"], "referee");
    // The scheme is case-insensitive (RFC 7235).
    let res = get_me(&app, Some(&format!("bearer {token}"))).await;
    assert_eq!(res.status().as_u16(), 200);
}

#[tokio::test]
async fn missing_wrong_revoked_and_disabled_tokens_get_401_json() {
    let app = spawn_app().await;
    let (id, token) = user_with_token(&app, "dario", Role::Director).await;

    let res = get_me(&app, None).await;
    assert_eq!(res.status().as_u16(), 401);
    assert!(res
        .headers()
        .get("www-authenticate")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("Bearer")));
    assert!(res.headers().get("set-cookie").is_none());
    assert_eq!(error_code(res).await, "missing_token");

    let wrong = burraco_td::auth::tokens::new_token();
    for auth in [
        format!("Bearer {wrong}"),
        "Bearer not-a-token".to_string(),
        format!("Bearer {}", &token[..token.len() - 1]),
        format!("Bearer {token}x"),
        format!("Basic {token}"),
        "Bearer".to_string(),
    ] {
        let res = get_me(&app, Some(&auth)).await;
        assert_eq!(res.status().as_u16(), 401, "{auth}");
        assert!(res.headers().get("set-cookie").is_none());
        assert_eq!(error_code(res).await, "invalid_token", "{auth}");
    }
    // The right one works…
    assert_eq!(
        get_me(&app, Some(&format!("Bearer {token}")))
            .await
            .status()
            .as_u16(),
        200
    );

    // …until its owner is disabled; enabling her again revives none.
    let db = db_of(&app);
    let admin = {
        let hash = password::hash_password(ADMIN_PW).unwrap();
        let mut conn = app.pool.get().unwrap();
        burraco_td::db::users::create(&mut conn, "boss", &hash, Role::Admin, app.clock().now())
            .unwrap()
    };
    let admin = Actor {
        user_id: admin,
        role: Role::Admin,
    };
    services::users::set_active(&db, admin, id, false)
        .await
        .unwrap();
    let res = get_me(&app, Some(&format!("Bearer {token}"))).await;
    assert_eq!(res.status().as_u16(), 401);
    assert_eq!(error_code(res).await, "invalid_token");
    services::users::set_active(&db, admin, id, true)
        .await
        .unwrap();
    let res = get_me(&app, Some(&format!("Bearer {token}"))).await;
    assert_eq!(res.status().as_u16(), 401, "re-enabling revives no token");
    assert_eq!(error_code(res).await, "invalid_token");

    // A revoked token is dead for good.
    let owner = Actor {
        user_id: id,
        role: Role::Director,
    };
    let token = services::tokens::create(&db, owner, TokenLabel::parse("again").unwrap())
        .await
        .unwrap()
        .token;
    let listed = services::tokens::list(&db, owner).await.unwrap();
    assert_eq!(listed.len(), 1);
    services::tokens::revoke(&db, owner, listed[0].id)
        .await
        .unwrap();
    let res = get_me(&app, Some(&format!("Bearer {token}"))).await;
    assert_eq!(res.status().as_u16(), 401);
    assert_eq!(error_code(res).await, "invalid_token");
}

#[tokio::test]
async fn the_cli_prints_a_token_that_works_and_names_unknown_accounts() {
    let app = spawn_app().await;
    let hash = password::hash_password(ADMIN_PW).unwrap();
    burraco_td::db::users::create(
        &mut app.pool.get().unwrap(),
        "elena",
        &hash,
        Role::Director,
        app.clock().now(),
    )
    .unwrap();
    let run = |args: &[&str]| {
        // BURRACO_TD_BIN: another build of the binary (a target directory
        // shared by several checkouts may hold somebody else's).
        let bin = std::env::var("BURRACO_TD_BIN")
            .unwrap_or_else(|_| env!("CARGO_BIN_EXE_burraco-td").to_string());
        std::process::Command::new(bin)
            .args(args)
            .env("DATABASE_URL", app.db.url())
            .output()
            .expect("run burraco-td")
    };
    let out = run(&["create-token", "Elena", "--name", "scoreboard"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let token = stdout.trim();
    assert_eq!(
        stdout.lines().count(),
        1,
        "the token alone on stdout: {stdout}"
    );
    assert!(burraco_td::auth::tokens::looks_like_token(token), "{token}");
    let res = get_me(&app, Some(&format!("Bearer {token}"))).await;
    assert_eq!(res.status().as_u16(), 200);
    let me: Value = res.json().await.unwrap();
    assert_eq!(me["username"], "elena");
    assert_eq!(me["role"], "director");

    // The label is what the account page lists; the default is "CLI".
    let out = run(&["create-token", "elena"]);
    assert!(out.status.success());
    let db = db_of(&app);
    let elena = Actor {
        user_id: burraco_td::ids::UserId(me["id"].as_i64().unwrap()),
        role: Role::Director,
    };
    let mut labels: Vec<String> = services::tokens::list(&db, elena)
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.label)
        .collect();
    labels.sort();
    assert_eq!(labels, ["CLI", "scoreboard"]);

    // Unknown accounts and empty labels are refused, with nothing stored.
    let out = run(&["create-token", "nobody"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("nobody"));
    assert!(out.stdout.is_empty());
    let out = run(&["create-token", "elena", "--name", "  "]);
    assert!(!out.status.success());
    assert_eq!(services::tokens::list(&db, elena).await.unwrap().len(), 2);
}

#[tokio::test]
async fn tokens_are_stored_hashed_and_the_plaintext_is_nowhere_in_the_database() {
    let app = spawn_app().await;
    let (_, token) = user_with_token(&app, "franca", Role::Admin).await;
    // Used once, so that every write path has run.
    assert_eq!(
        get_me(&app, Some(&format!("Bearer {token}")))
            .await
            .status()
            .as_u16(),
        200
    );
    let text = crate::peek::whole_database_text(&app);
    assert!(text.contains(&token_hash(&token)), "the hash is stored");
    let secret = token.trim_start_matches(burraco_td::auth::tokens::PREFIX);
    assert!(!text.contains(secret), "the token itself is stored nowhere");
    assert!(!text.contains(&secret[..32]), "nor half of it");
}

#[tokio::test]
async fn last_used_is_written_at_most_once_a_minute() {
    let app = spawn_app().await;
    let (_, token) = user_with_token(&app, "gino", Role::Referee).await;
    assert_eq!(last_used(&app, &token), None);
    let auth = format!("Bearer {token}");
    assert_eq!(get_me(&app, Some(&auth)).await.status().as_u16(), 200);
    let first = last_used(&app, &token).expect("set on first use");
    let age = app.clock().now() - first;
    assert!(age >= chrono::Duration::zero() && age < chrono::Duration::seconds(30));
    // A burst within the minute writes nothing.
    for _ in 0..5 {
        assert_eq!(get_me(&app, Some(&auth)).await.status().as_u16(), 200);
    }
    assert_eq!(last_used(&app, &token), Some(first));
    // Once it is more than a minute old, the next request refreshes it.
    let old = first - chrono::Duration::seconds(61);
    crate::peek::set_token_last_used(&app, &token_hash(&token), Some(old));
    assert_eq!(get_me(&app, Some(&auth)).await.status().as_u16(), 200);
    let refreshed = last_used(&app, &token).unwrap();
    assert!(refreshed >= first, "{refreshed} >= {first}");
    // A failed request (wrong token) writes nothing either.
    let wrong = burraco_td::auth::tokens::new_token();
    assert_eq!(
        get_me(&app, Some(&format!("Bearer {wrong}")))
            .await
            .status()
            .as_u16(),
        401
    );
    assert_eq!(last_used(&app, &token), Some(refreshed));
}

async fn director_action(actor: ApiActor) -> Result<HttpResponse, ApiError> {
    let a = actor.require(Role::Director, burraco_td::i18n::Lang::En)?;
    Ok(HttpResponse::Ok().json(serde_json::json!({"user_id": a.user_id})))
}

async fn public_read(actor: OptionalApiActor) -> HttpResponse {
    HttpResponse::Ok().json(serde_json::json!({"signed_in": actor.0.is_some()}))
}

/// The application's state on the test's database (for probe routes).
fn state_of(app: &TestApp) -> web::Data<burraco_td::web::AppState> {
    let mut settings = burraco_td::config::Settings::for_database(&app.db.url());
    settings.bind = "127.0.0.1:0".into();
    let key = burraco_td::db::settings::csrf_key(&mut app.pool.get().unwrap()).unwrap();
    web::Data::new(burraco_td::web::AppState::new(
        db_of(app),
        burraco_td::auth::csrf::CsrfKey::from_bytes(key),
        settings,
        Arc::new(burraco_td::web::cache::PublicCache::default()),
    ))
}

#[tokio::test]
async fn role_checks_are_the_webs_and_bearer_posts_need_no_csrf() {
    let app = spawn_app().await;
    let referee = token_for(&app, Role::Referee).await;
    let director = token_for(&app, Role::Director).await;
    let admin = token_for(&app, Role::Admin).await;
    // Two probe routes that use the extractors the way the JSON API does (a
    // director's action, a public read), behind the real server's session
    // and CSRF layer and its JSON error bodies under `/api/`.
    let svc = atest::init_service(
        App::new()
            .app_data(state_of(&app))
            .wrap(from_fn(burraco_td::web::middleware::session_layer))
            .wrap(burraco_td::web::errors::handlers())
            .route("/api/v1/probe/director", web::post().to(director_action))
            .route("/api/v1/probe/public", web::get().to(public_read)),
    )
    .await;
    let post = |token: Option<&str>| {
        let mut req = atest::TestRequest::post()
            .uri("/api/v1/probe/director")
            .insert_header(("content-type", "application/json"))
            .set_payload("{}");
        if let Some(t) = token {
            req = req.insert_header(("authorization", format!("Bearer {t}")));
        }
        req.to_request()
    };
    // A referee's token may not do a director's action: 403 JSON.
    let res = atest::call_service(&svc, post(Some(&referee))).await;
    assert_eq!(res.status(), ActixStatus::FORBIDDEN);
    let body: Value = atest::read_body_json(res).await;
    assert_eq!(body["error"]["code"], "forbidden");
    // Directors and admins may, with no cookie and no CSRF token.
    for t in [&director, &admin] {
        let res = atest::call_service(&svc, post(Some(t))).await;
        assert_eq!(res.status(), ActixStatus::OK);
        assert!(res.headers().get("set-cookie").is_none());
    }
    // No token: 401 JSON.
    let res = atest::call_service(&svc, post(None)).await;
    assert_eq!(res.status(), ActixStatus::UNAUTHORIZED);
    let body: Value = atest::read_body_json(res).await;
    assert_eq!(body["error"]["code"], "missing_token");

    // A public read: anonymous without a token, signed in with one, and a
    // wrong token is refused rather than read as anonymous.
    let get = |auth: Option<String>| {
        let mut req = atest::TestRequest::get().uri("/api/v1/probe/public");
        if let Some(a) = auth {
            req = req.insert_header(("authorization", a));
        }
        req.to_request()
    };
    let res = atest::call_service(&svc, get(None)).await;
    assert_eq!(res.status(), ActixStatus::OK);
    let body: Value = atest::read_body_json(res).await;
    assert_eq!(body["signed_in"], false);
    let res = atest::call_service(&svc, get(Some(format!("Bearer {referee}")))).await;
    let body: Value = atest::read_body_json(res).await;
    assert_eq!(body["signed_in"], true);
    let wrong = burraco_td::auth::tokens::new_token();
    let res = atest::call_service(&svc, get(Some(format!("Bearer {wrong}")))).await;
    assert_eq!(res.status(), ActixStatus::UNAUTHORIZED);
}

#[tokio::test]
async fn a_bearer_header_never_lends_a_session_to_a_request_without_csrf() {
    let app = spawn_app().await;
    app.setup_admin().await; // signed in: the browser holds a session cookie
    let res = app
        .submit("/account", "/account/tokens", &[("label", "mine")])
        .await;
    assert_eq!(res.status().as_u16(), 200);
    let db = db_of(&app);
    let admin_id = burraco_td::db::users::find_by_username(&mut app.pool.get().unwrap(), ADMIN)
        .unwrap()
        .unwrap()
        .id;
    let admin = Actor {
        user_id: admin_id,
        role: Role::Admin,
    };
    let id = services::tokens::list(&db, admin).await.unwrap()[0].id;
    // A cross-site-style POST with the session cookie, no CSRF token, and a
    // made-up bearer header: the session is not read, so nothing happens.
    let res = app
        .client
        .post(app.url(&format!("/account/tokens/{id}/revoke")))
        .header("Authorization", "Bearer whatever")
        .form(&[("x", "y")])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 303);
    assert!(location(&res).starts_with("/login"), "{}", location(&res));
    assert!(
        res.headers().get("set-cookie").is_none(),
        "the session cookie is left alone"
    );
    assert_eq!(services::tokens::list(&db, admin).await.unwrap().len(), 1);
    // The session still works afterwards.
    assert!(app.get_html("/account").await.contains("mine"));
}

#[tokio::test]
async fn api_responses_set_no_cookie_even_with_a_stale_session_cookie() {
    let app = spawn_app().await;
    let (_, token) = user_with_token(&app, "ivo", Role::Referee).await;
    let client = reqwest::Client::new();
    let stale = "a".repeat(64);
    for auth in [None, Some(format!("Bearer {token}"))] {
        let mut req = client
            .get(app.url("/api/v1/me"))
            .header("Cookie", format!("btd_session={stale}; btd_anon={stale}"));
        if let Some(a) = &auth {
            req = req.header("Authorization", a);
        }
        let res = req.send().await.unwrap();
        assert!(res.headers().get("set-cookie").is_none(), "{auth:?}");
    }
}

#[tokio::test]
async fn the_account_page_lists_creates_and_revokes_tokens() {
    let app = spawn_app().await;
    app.setup_admin().await;
    app.create_user("lucia", "referee", ADMIN_PW).await;
    app.logout().await;
    assert_eq!(app.login("lucia", ADMIN_PW).await.status().as_u16(), 303);

    // Reachable from the navigation of every signed-in user.
    assert!(app.get_html("/").await.contains("href=\"/account\""));
    let html = app.get_html("/account").await;
    assert!(html.contains("Non hai token API"), "{html}");

    // Creating needs the CSRF token.
    let res = app
        .post_raw("/account/tokens", &[("label", "tabellone")])
        .await;
    assert_eq!(res.status().as_u16(), 403);
    // An empty label: the message next to the field, nothing stored.
    let res = app
        .submit("/account", "/account/tokens", &[("label", "   ")])
        .await;
    assert_eq!(res.status().as_u16(), 422);
    let html = res.text().await.unwrap();
    assert!(html.contains("Dai un nome al token"), "{html}");
    let res = app
        .submit("/account", "/account/tokens", &[("label", &"x".repeat(61))])
        .await;
    assert_eq!(res.status().as_u16(), 422);

    let res = app
        .submit("/account", "/account/tokens", &[("label", "tabellone <b>")])
        .await;
    assert_eq!(res.status().as_u16(), 200);
    assert_eq!(
        res.headers()
            .get("cache-control")
            .and_then(|v| v.to_str().ok()),
        Some("no-store")
    );
    let html = res.text().await.unwrap();
    assert!(html.contains("Copialo adesso"), "{html}");
    assert!(html.contains("tabellone &#60;b&#62;"), "labels are escaped");
    assert!(!html.contains("tabellone <b>"));
    let start = html.find("value=\"btd_").expect("the new token is shown") + "value=\"".len();
    let token = html[start..start + 68].to_string();
    assert!(
        burraco_td::auth::tokens::looks_like_token(&token),
        "{token}"
    );
    assert_eq!(
        get_me(&app, Some(&format!("Bearer {token}")))
            .await
            .status()
            .as_u16(),
        200
    );

    // The list: label, created and last used in local time; never the token.
    let html = app.get_html("/account").await;
    assert!(!html.contains(&token[4..]), "the token is shown only once");
    assert!(html.contains("tabellone &#60;b&#62;"));
    let lucia = burraco_td::db::users::find_by_username(&mut app.pool.get().unwrap(), "lucia")
        .unwrap()
        .unwrap();
    let actor = Actor {
        user_id: lucia.id,
        role: Role::Referee,
    };
    let db = db_of(&app);
    let listed = services::tokens::list(&db, actor).await.unwrap();
    assert_eq!(listed.len(), 1);
    let local = |t: chrono::NaiveDateTime| {
        t.and_utc()
            .with_timezone(&chrono_tz::Europe::Rome)
            .format("%d/%m/%Y %H:%M")
            .to_string()
    };
    assert!(html.contains(&local(listed[0].created_at)), "{html}");
    assert!(html.contains(&local(listed[0].last_used_at.expect("used"))));

    // Somebody else's token cannot be revoked from here.
    let (_, other) = user_with_token(&app, "mario", Role::Director).await;
    let mario = burraco_td::db::users::find_by_username(&mut app.pool.get().unwrap(), "mario")
        .unwrap()
        .unwrap();
    let other_id = services::tokens::list(
        &db,
        Actor {
            user_id: mario.id,
            role: Role::Director,
        },
    )
    .await
    .unwrap()[0]
        .id;
    let res = app
        .submit(
            "/account",
            &format!("/account/tokens/{other_id}/revoke"),
            &[],
        )
        .await;
    assert_eq!(res.status().as_u16(), 404);
    assert_eq!(
        get_me(&app, Some(&format!("Bearer {other}")))
            .await
            .status()
            .as_u16(),
        200
    );

    // Revoking needs the CSRF token too; then the token is dead.
    let id = listed[0].id;
    let res = app
        .post_raw(&format!("/account/tokens/{id}/revoke"), &[])
        .await;
    assert_eq!(res.status().as_u16(), 403);
    let res = app
        .submit("/account", &format!("/account/tokens/{id}/revoke"), &[])
        .await;
    assert_eq!(res.status().as_u16(), 303);
    assert_eq!(location(&res), "/account?done=token_revoked");
    let html = app.get_html("/account?done=token_revoked").await;
    assert!(html.contains("Il token è revocato"));
    assert!(html.contains("Non hai token API"));
    assert_eq!(
        get_me(&app, Some(&format!("Bearer {token}")))
            .await
            .status()
            .as_u16(),
        401
    );

    // Both changes are in the account audit, by lucia, with the label.
    let rows = account_audit(&app, lucia.id.0, "token.%");
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert_eq!(rows[0].0, "token.created");
    assert_eq!(rows[0].2, Some(lucia.id.0));
    assert!(rows[0].4.as_deref().unwrap().contains("tabellone"));
    assert_eq!(rows[1].0, "token.revoked");
    assert!(rows[1].3.as_deref().unwrap().contains("tabellone"));
    // …and the administrator reads them in words.
    app.logout().await;
    app.login(ADMIN, ADMIN_PW).await;
    let html = app.get_html("/admin/users").await;
    assert!(
        html.contains("Token API creato") && html.contains("Token API revocato"),
        "{html}"
    );
}

#[tokio::test]
async fn the_account_page_needs_a_login() {
    let app = spawn_app().await;
    app.setup_admin().await;
    let other = app.another_browser();
    let res = other.get("/account").await;
    assert_eq!(res.status().as_u16(), 303);
    assert!(location(&res).starts_with("/login"));
    let html = app.get_html("/account").await;
    let token = csrf_in(&html);
    assert!(!token.is_empty());
}

/// The administrator posts a form of the user page (`what`: its action
/// below `/admin/users/{id}/`); the answer's status.
async fn admin_acts(
    app: &TestApp,
    id: burraco_td::ids::UserId,
    what: &str,
    fields: &[(&str, &str)],
) -> u16 {
    app.user_action(id, what, fields).await.status().as_u16()
}

/// Issue 32: tokens follow their account. A password reset (by an
/// administrator or by the owner on her account page), a deactivation or a
/// role change refuses every token made before it, for good; the
/// administrator's user page lists an account's tokens and revokes them,
/// on the record.
#[tokio::test]
async fn tokens_follow_their_account() {
    let app = spawn_app().await;
    app.setup_admin().await;
    let db = db_of(&app);
    let (id, first) = user_with_token(&app, "tiziana", Role::Director).await;
    let owner = Actor {
        user_id: id,
        role: Role::Director,
    };
    let new_token = |label: &'static str| {
        let db = db.clone();
        async move {
            services::tokens::create(&db, owner, TokenLabel::parse(label).unwrap())
                .await
                .unwrap()
                .token
        }
    };
    let status = |token: String| {
        let app = &app;
        async move {
            get_me(app, Some(&format!("Bearer {token}")))
                .await
                .status()
                .as_u16()
        }
    };
    assert_eq!(status(first.clone()).await, 200);

    // The owner changes her own password on her account page: her
    // session ends and the token is refused.
    let her = app.another_browser();
    assert_eq!(her.login("tiziana", ADMIN_PW).await.status().as_u16(), 303);
    let wrong = her
        .submit(
            "/account",
            "/account/password",
            &[
                ("current_password", "not her password"),
                ("password", "a brand new secret"),
                ("password2", "a brand new secret"),
            ],
        )
        .await;
    assert_eq!(wrong.status().as_u16(), 422);
    assert!(wrong.text().await.unwrap().contains("current_password"));
    assert_eq!(
        status(first.clone()).await,
        200,
        "a refused change revokes nothing"
    );
    let changed = her
        .submit(
            "/account",
            "/account/password",
            &[
                ("current_password", ADMIN_PW),
                ("password", "a brand new secret"),
                ("password2", "a brand new secret"),
            ],
        )
        .await;
    assert_eq!(changed.status().as_u16(), 303);
    assert_eq!(location(&changed), "/login?done=password_changed");
    assert_eq!(status(first).await, 401, "her own password change");
    assert_eq!(her.get_status("/account").await, 303, "signed out");
    assert_eq!(
        her.login("tiziana", "a brand new secret")
            .await
            .status()
            .as_u16(),
        303
    );

    // The administrator resets it.
    let second = new_token("second").await;
    assert_eq!(status(second.clone()).await, 200);
    let page = app.get_html(&format!("/admin/users/{id}")).await;
    assert!(page.contains("second"), "the user page lists the token");
    assert_eq!(page.matches("id=\"tokens\"").count(), 1, "one list");
    let account = her.get_html("/account").await;
    assert_eq!(
        account.matches("id=\"change-password\"").count(),
        1,
        "one form"
    );
    assert_eq!(
        admin_acts(
            &app,
            id,
            "password",
            &[
                ("password", "reset by the admin"),
                ("password2", "reset by the admin")
            ]
        )
        .await,
        303
    );
    assert_eq!(status(second).await, 401, "an administrator's reset");

    // Disabled, then enabled again: refused for good.
    let third = new_token("third").await;
    assert_eq!(
        admin_acts(&app, id, "active", &[("active", "false")]).await,
        303
    );
    assert_eq!(status(third.clone()).await, 401);
    assert_eq!(
        admin_acts(&app, id, "active", &[("active", "true")]).await,
        303
    );
    assert_eq!(status(third).await, 401, "re-enabling revives nothing");

    // A role change.
    let fourth = new_token("fourth").await;
    assert_eq!(
        admin_acts(&app, id, "role", &[("role", "referee")]).await,
        303
    );
    assert_eq!(status(fourth).await, 401, "a role change");

    // The administrator revokes one token from the user page.
    let referee = Actor {
        user_id: id,
        role: Role::Referee,
    };
    let fifth = services::tokens::create(&db, referee, TokenLabel::parse("fifth").unwrap())
        .await
        .unwrap();
    assert_eq!(status(fifth.token.clone()).await, 200);
    assert_eq!(
        admin_acts(&app, id, &format!("tokens/{}/revoke", fifth.id), &[]).await,
        303
    );
    assert_eq!(
        status(fifth.token).await,
        401,
        "revoked by the administrator"
    );
    let page = app.get_html(&format!("/admin/users/{id}")).await;
    assert!(!page.contains("fifth"), "no longer listed");
    // Another account's token id is not found under this one.
    assert_eq!(
        admin_acts(&app, id, &format!("tokens/{}/revoke", fifth.id), &[]).await,
        404
    );

    // On the record: who revoked what, and why.
    let rows = account_audit(&app, id.0, "token.revoked%");
    let summary: Vec<(String, Option<i64>, String)> = rows
        .iter()
        .map(|r| {
            (
                r.0.clone(),
                r.2,
                r.4.clone().or(r.3.clone()).unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(summary.len(), 5, "{summary:?}");
    assert_eq!(summary[0].1, Some(id.0), "she revoked her own: {summary:?}");
    assert!(summary[0].2.contains("\"because\":\"password\""));
    for (row, because) in summary[1..4].iter().zip(["password", "disabled", "role"]) {
        assert_eq!(row.0, "token.revoked_all");
        assert_ne!(row.1, Some(id.0), "by the administrator");
        assert!(
            row.2.contains(&format!("\"because\":\"{because}\"")),
            "{row:?}"
        );
    }
    assert_eq!(summary[4].0, "token.revoked");
    assert!(summary[4].2.contains("fifth"));
}
