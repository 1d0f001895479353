use crate::helpers::{csrf_in, spawn_app, Browser, ADMIN, ADMIN_PW};

#[tokio::test]
async fn every_state_changing_form_carries_a_csrf_token() {
    let app = spawn_app().await;
    for page in ["/setup"] {
        let html = app.get_html(page).await;
        assert_eq!(
            html.matches("<form").count(),
            html.matches("name=\"csrf_token\"").count(),
            "{page}"
        );
    }
    app.setup_admin().await;
    app.create_user("dora", "director", "director pass").await;
    for page in ["/", "/admin/users", "/admin/users/1", "/admin/users/2"] {
        let html = app.get_html(page).await;
        let forms = html.matches("method=\"post\"").count();
        assert!(forms > 0, "{page} has forms");
        assert_eq!(forms, html.matches("name=\"csrf_token\"").count(), "{page}");
    }
}

/// The setup form posted as it is: the administrator's fields, and
/// `token` when given.
pub async fn raw_setup(b: &Browser, token: Option<&str>) -> reqwest::Response {
    let mut fields = vec![
        ("username", ADMIN),
        ("password", ADMIN_PW),
        ("password2", ADMIN_PW),
    ];
    fields.extend(token.map(|t| ("csrf_token", t)));
    b.post_raw("/setup", &fields).await
}

/// The new-account form posted as it is (eve, an administrator), with
/// `token` when given.
async fn raw_new_admin(b: &Browser, token: Option<&str>) -> reqwest::Response {
    let mut fields = vec![
        ("username", "eve"),
        ("role", "admin"),
        ("password", "eve password"),
        ("password2", "eve password"),
    ];
    fields.extend(token.map(|t| ("csrf_token", t)));
    b.post_raw("/admin/users", &fields).await
}

#[tokio::test]
async fn a_post_without_a_valid_token_gets_403_and_changes_nothing() {
    let app = spawn_app().await;
    // Setup without a token: refused, no admin created.
    app.get("/setup").await;
    let res = raw_setup(&app, None).await;
    assert_eq!(res.status().as_u16(), 403);
    assert!(res.text().await.unwrap().contains("Modulo non valido"));
    // A tampered token: refused too.
    let mut token = csrf_in(&app.get_html("/setup").await);
    token.replace_range(0..2, if token.starts_with("00") { "11" } else { "00" });
    let res = raw_setup(&app, Some(&token)).await;
    assert_eq!(res.status().as_u16(), 403);
    {
        let mut conn = app.pool.get().unwrap();
        assert_eq!(burraco_td::db::users::count(&mut conn).unwrap(), 0);
    }

    app.setup_admin().await;
    // A logged-in admin's form without the token: refused, no user created.
    let res = raw_new_admin(&app, None).await;
    assert_eq!(res.status().as_u16(), 403);
    // A token from another browser does not work in this one.
    let other = app.another_browser();
    let foreign = csrf_in(&other.get_html("/login").await);
    let res = raw_new_admin(&app, Some(&foreign)).await;
    assert_eq!(res.status().as_u16(), 403);
    let mut conn = app.pool.get().unwrap();
    assert_eq!(burraco_td::db::users::count(&mut conn).unwrap(), 1);
}

#[tokio::test]
async fn logout_needs_the_token_too() {
    let app = spawn_app().await;
    app.setup_admin().await;
    assert_eq!(app.post_raw("/logout", &[]).await.status().as_u16(), 403);
    assert_eq!(app.get_status("/admin/users").await, 200, "still logged in");
}

#[tokio::test]
async fn the_token_may_come_in_a_header() {
    let app = spawn_app().await;
    app.setup_admin().await;
    let token = csrf_in(&app.get_html("/admin/users").await);
    let res = app
        .client
        .post(app.url("/admin/users"))
        .header("x-csrf-token", token)
        .form(&[
            ("username", "rita"),
            ("role", "referee"),
            ("password", "referee pass"),
            ("password2", "referee pass"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 303);
}
