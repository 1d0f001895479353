use crate::helpers::{csrf_in, location, spawn_app, ADMIN, ADMIN_PW};

#[tokio::test]
async fn a_fresh_installation_leads_to_the_one_time_setup() {
    let app = spawn_app().await;
    let res = app.get("/").await;
    assert_eq!(res.status().as_u16(), 303);
    assert_eq!(location(&res), "/setup");
    assert_eq!(location(&app.get("/login").await), "/setup");
    let html = app.get_html("/setup").await;
    assert!(html.contains("name=\"password2\""));

    app.setup_admin().await;
    // Logged in straight away, on the users page.
    let html = app.get_html("/admin/users").await;
    assert!(html.contains(ADMIN));
    // Setup is closed for good, even to someone else.
    let other = app.another_browser();
    assert_eq!(location(&other.get("/setup").await), "/login");
    let res = other
        .submit(
            "/login",
            "/setup",
            &[
                ("username", "intruder"),
                ("password", "intruder-pass"),
                ("password2", "intruder-pass"),
            ],
        )
        .await;
    assert_eq!(location(&res), "/login");
    let mut conn = app.pool.get().unwrap();
    assert_eq!(burraco_td::db::users::count(&mut conn).unwrap(), 1);
}

#[tokio::test]
async fn setup_refuses_bad_input_with_messages_next_to_the_fields() {
    let app = spawn_app().await;
    let res = app
        .submit(
            "/setup",
            "/setup",
            &[
                ("username", "a b"),
                ("password", "short"),
                ("password2", "short"),
            ],
        )
        .await;
    assert_eq!(res.status().as_u16(), 422);
    let html = res.text().await.unwrap();
    assert!(
        html.contains("Il nome utente deve avere da 3 a 32 caratteri"),
        "{html}"
    );
    assert!(html.contains("La password deve avere almeno 10 caratteri"));
    let res = app
        .submit(
            "/setup",
            "/setup",
            &[
                ("username", "anna"),
                ("password", "long enough 1"),
                ("password2", "long enough 2"),
            ],
        )
        .await;
    assert_eq!(res.status().as_u16(), 422);
    assert!(res
        .text()
        .await
        .unwrap()
        .contains("Le due password non coincidono"));
    let mut conn = app.pool.get().unwrap();
    assert_eq!(
        burraco_td::db::users::count(&mut conn).unwrap(),
        0,
        "nothing saved"
    );
}

#[tokio::test]
async fn login_and_logout() {
    let app = spawn_app().await;
    app.setup_admin().await;
    app.logout().await;
    assert_eq!(
        app.get("/admin/users").await.status().as_u16(),
        303,
        "logged out"
    );

    let res = app.login("ADMIN", ADMIN_PW).await;
    assert_eq!(res.status().as_u16(), 303, "usernames are case-insensitive");
    assert_eq!(location(&res), "/admin/users");
    assert_eq!(app.get("/admin/users").await.status().as_u16(), 200);

    app.logout().await;
    assert_eq!(app.get("/admin/users").await.status().as_u16(), 303);
}

#[tokio::test]
async fn wrong_password_and_unknown_user_get_the_same_answer() {
    let app = spawn_app().await;
    app.setup_admin().await;
    app.logout().await;
    let res = app.login(ADMIN, "wrong password!").await;
    assert_eq!(res.status().as_u16(), 401);
    let wrong = res.text().await.unwrap();
    assert!(wrong.contains("Nome utente o password errati"));
    let res = app.login("nobody", "wrong password!").await;
    assert_eq!(res.status().as_u16(), 401);
    assert!(res
        .text()
        .await
        .unwrap()
        .contains("Nome utente o password errati"));
    assert_eq!(app.get("/admin/users").await.status().as_u16(), 303);
}

#[tokio::test]
async fn the_session_id_is_renewed_at_login_and_purged_at_logout() {
    let app = spawn_app().await;
    app.setup_admin().await;
    let before: Vec<String> = session_ids(&app);
    assert_eq!(before.len(), 1);
    app.login(ADMIN, ADMIN_PW).await;
    let after = session_ids(&app);
    assert_eq!(after.len(), 1, "the old session is ended at login");
    assert_ne!(before, after, "a new session id");
    app.logout().await;
    assert!(
        session_ids(&app).is_empty(),
        "logout removes the session from the database"
    );
}

fn session_ids(app: &crate::helpers::TestApp) -> Vec<String> {
    use burraco_td::db::schema::sessions;
    use diesel::prelude::*;
    let mut conn = app.pool.get().unwrap();
    sessions::table
        .select(sessions::id)
        .load(&mut *conn)
        .unwrap()
}

#[tokio::test]
async fn session_cookie_is_httponly_and_samesite_lax() {
    let app = spawn_app().await;
    let token = csrf_in(&app.get_html("/setup").await);
    let res = app
        .post_raw(
            "/setup",
            &[
                ("username", ADMIN),
                ("password", ADMIN_PW),
                ("password2", ADMIN_PW),
                ("csrf_token", &token),
            ],
        )
        .await;
    let cookie = res
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .find(|c| c.starts_with("btd_session="))
        .expect("session cookie");
    assert!(cookie.contains("HttpOnly"));
    assert!(cookie.contains("SameSite=Lax"));
    assert!(!cookie.contains("Secure"), "plain HTTP in tests");
}

#[tokio::test]
async fn repeated_failed_logins_are_slowed_down() {
    let app = spawn_app().await;
    app.setup_admin().await;
    app.logout().await;
    for _ in 0..5 {
        assert_eq!(
            app.login(ADMIN, "not the password").await.status().as_u16(),
            401
        );
    }
    // The brake is on: even the right password must wait.
    let res = app.login(ADMIN, ADMIN_PW).await;
    assert_eq!(res.status().as_u16(), 429);
    assert!(res.text().await.unwrap().contains("Riprova tra"));
    // Another username from the same address is braked as well (per address).
    let res = app.login("someone", "whatever password").await;
    assert_eq!(res.status().as_u16(), 429);
}

#[tokio::test]
async fn next_parameter_only_redirects_locally() {
    let app = spawn_app().await;
    app.setup_admin().await;
    app.logout().await;
    let res = app.get("/admin/users").await;
    assert_eq!(location(&res), "/login?next=%2Fadmin%2Fusers");
    let html = app.get_html("/login?next=%2Fadmin%2Fusers").await;
    assert!(html.contains("value=\"/admin/users\""));
    let res = app
        .submit(
            "/login",
            "/login",
            &[
                ("username", ADMIN),
                ("password", ADMIN_PW),
                ("next", "https://evil.example/"),
            ],
        )
        .await;
    assert_eq!(location(&res), "/admin/users");
}

#[tokio::test]
async fn the_language_follows_the_switch_and_accept_language() {
    let app = spawn_app().await;
    app.setup_admin().await;
    let html = app.get_html("/").await;
    assert!(html.contains("<html lang=\"it\">"));
    let res = app.get("/lang/en?next=%2Fadmin%2Fusers").await;
    assert_eq!(location(&res), "/admin/users");
    let html = app.get_html("/admin/users").await;
    assert!(html.contains("<html lang=\"en\">"));
    assert!(html.contains("Staff accounts"));
    let other = app.another_browser();
    let res = other
        .client
        .get(other.url("/login"))
        .header("accept-language", "en-US,en;q=0.8")
        .send()
        .await
        .unwrap();
    assert!(res.text().await.unwrap().contains("Staff login"));
}

#[tokio::test]
async fn an_idle_session_expires() {
    let app = crate::helpers::spawn_app_with(crate::helpers::TestDb::new(), |s| {
        s.session_idle = std::time::Duration::from_secs(1);
    })
    .await;
    app.setup_admin().await;
    assert_eq!(app.get("/admin/users").await.status().as_u16(), 200);
    tokio::time::sleep(std::time::Duration::from_millis(1600)).await;
    // Another login sweeps the idle session away, even untouched.
    let other = app.another_browser();
    assert_eq!(other.login(ADMIN, ADMIN_PW).await.status().as_u16(), 303);
    assert_eq!(session_ids(&app).len(), 1, "only the new session is left");
    let res = app.get("/admin/users").await;
    assert_eq!(
        res.status().as_u16(),
        303,
        "idle too long: back to the login"
    );
    assert_eq!(session_ids(&app).len(), 1, "the idle session is gone");
}
