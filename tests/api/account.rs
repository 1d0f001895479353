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

    app.browser.setup_admin_through_the_form().await;
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
    let res = app.setup_form("a b", "short", "short").await;
    assert_eq!(res.status().as_u16(), 422);
    let html = res.text().await.unwrap();
    assert!(
        html.contains("Il nome utente deve avere da 3 a 32 caratteri"),
        "{html}"
    );
    assert!(html.contains("La password deve avere almeno 10 caratteri"));
    let res = app
        .setup_form("anna", "long enough 1", "long enough 2")
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
    assert_eq!(app.get_status("/admin/users").await, 303, "logged out");

    let res = app.login("ADMIN", ADMIN_PW).await;
    assert_eq!(res.status().as_u16(), 303, "usernames are case-insensitive");
    assert_eq!(location(&res), "/admin/users");
    assert_eq!(app.get_status("/admin/users").await, 200);

    app.logout().await;
    assert_eq!(app.get_status("/admin/users").await, 303);
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
    assert_eq!(app.get_status("/admin/users").await, 303);
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
    crate::peek::session_ids(app)
}

#[tokio::test]
async fn session_cookie_is_httponly_and_samesite_lax() {
    let app = spawn_app().await;
    let token = csrf_in(&app.get_html("/setup").await);
    let res = crate::csrf::raw_setup(&app, Some(&token)).await;
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
    assert!(res.headers().contains_key("retry-after"));
    assert!(res.text().await.unwrap().contains("Riprova tra"));
    // Another account from the same address is not braked yet: the address
    // alone has more free failures (a club's staff may share one address).
    let res = app.login("someone", "whatever password").await;
    assert_eq!(res.status().as_u16(), 401);
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
    let res = crate::helpers::get_in(&other.client, other.url("/login"), "en-US,en;q=0.8").await;
    assert!(res.text().await.unwrap().contains("Staff login"));
}

#[tokio::test]
async fn an_idle_session_expires() {
    let app = crate::helpers::spawn_app_with(crate::helpers::TestDb::new(), |s| {
        s.session_idle = std::time::Duration::from_secs(1);
    })
    .await;
    app.setup_admin().await;
    assert_eq!(app.get_status("/admin/users").await, 200);
    // Time passes on the server's clock (no sleep).
    app.clock().advance(std::time::Duration::from_secs(2));
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

/// A browser whose requests claim to come from `addr` (the test server
/// trusts `X-Forwarded-For`, as it would behind a reverse proxy).
fn browser_from(app: &crate::helpers::TestApp, addr: &str) -> crate::helpers::Browser {
    let mut headers = reqwest::header::HeaderMap::new();
    headers.insert("x-forwarded-for", addr.parse().unwrap());
    crate::helpers::Browser {
        address: app.address.clone(),
        client: reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .cookie_store(true)
            .default_headers(headers)
            .build()
            .unwrap(),
    }
}

#[tokio::test]
async fn an_attacker_cannot_lock_the_administrator_out() {
    let app = crate::helpers::spawn_app_with(crate::helpers::TestDb::new(), |s| {
        s.trust_forwarded_for = true;
    })
    .await;
    app.setup_admin().await;
    let attacker = browser_from(&app, "203.0.113.66");
    let admin = browser_from(&app, "198.51.100.7");
    for _ in 0..5 {
        let res = attacker.login(ADMIN, "not the password").await;
        assert_eq!(res.status().as_u16(), 401);
    }
    for _ in 0..5 {
        let res = attacker.login(ADMIN, "still not it").await;
        assert_eq!(res.status().as_u16(), 429, "the attacker's address waits");
        // Even with the right password: the attacker learns nothing more.
        assert_eq!(attacker.login(ADMIN, ADMIN_PW).await.status().as_u16(), 429);
        // The administrator, from her own address, gets in at once.
        let res = admin.login(ADMIN, ADMIN_PW).await;
        assert_eq!(res.status().as_u16(), 303, "the right password gets in");
        assert_eq!(admin.get_status("/admin/users").await, 200);
        admin.logout().await;
    }
    // Her own typo does not reset the attacker's brake, nor lock her out.
    assert_eq!(admin.login(ADMIN, "typo").await.status().as_u16(), 401);
    assert_eq!(admin.login(ADMIN, ADMIN_PW).await.status().as_u16(), 303);
    assert_eq!(attacker.login(ADMIN, ADMIN_PW).await.status().as_u16(), 429);
}

#[tokio::test]
async fn the_forwarded_address_is_ignored_unless_trusted() {
    let app = spawn_app().await;
    app.setup_admin().await;
    app.logout().await;
    // Without the setting, a client cannot pick its address: all these come
    // from 127.0.0.1, whatever they claim.
    for i in 0..5 {
        let b = browser_from(&app, &format!("203.0.113.{i}"));
        assert_eq!(
            b.login(ADMIN, "not the password").await.status().as_u16(),
            401
        );
    }
    let b = browser_from(&app, "198.51.100.7");
    assert_eq!(b.login(ADMIN, ADMIN_PW).await.status().as_u16(), 429);
}

/// The one limiter's table on both backends: rows are hashes, a bucket
/// full again goes at the next pruning, the table keeps its bound, and a
/// login counts per account and address (time passed in: no sleeps).
#[tokio::test]
async fn rate_limit_rows_are_hashed_and_stay_bounded() {
    use burraco_td::db::rate_limits::{self, Allowance, Verdict};
    use burraco_td::db::{self, DbError};
    use burraco_td::services::brakes;
    let test_db = crate::helpers::TestDb::new();
    let url = db::DbUrl::parse(&test_db.url());
    let pool = burraco_td::startup::prepare_database(&url, 2).unwrap();
    let database = db::Db::new(pool, &url);
    let login = Allowance {
        burst: 5,
        every: std::time::Duration::from_secs(240),
    };
    let t0 = 1_700_000_000_000;
    let addr = |i: u32| {
        Some(std::net::IpAddr::from([
            10,
            0,
            (i / 256) as u8,
            (i % 256) as u8,
        ]))
    };
    for i in 0..200 {
        let key = brakes::login_account_key(&format!("user{i}"), addr(i));
        database
            .write_blocking(|c| -> Result<_, DbError> {
                let v = rate_limits::take(c, &key, login, t0 + i64::from(i))?;
                Ok(rate_limits::prune(c, t0, 50).map(|_| v)?)
            })
            .unwrap();
    }
    let (count, keys) = database
        .read_blocking(|c| -> Result<_, DbError> {
            let keys = crate::peek::rate_limit_keys_on(c)?;
            Ok((rate_limits::count(c)?, keys))
        })
        .unwrap();
    assert!(count <= 51, "{count} rows");
    assert!(count >= 40, "the newest are kept: {count}");
    assert!(keys
        .iter()
        .all(|k| k.len() == 64 && k.bytes().all(|b| b.is_ascii_hexdigit()) && !k.contains("user")));

    // A bucket one attempt short is full again one interval later.
    let later = t0 + 1000 + 240_000;
    let n = database
        .write_blocking(|c| -> Result<_, DbError> { Ok(rate_limits::prune(c, later, 50)?) })
        .unwrap();
    assert!(n >= 40, "the full buckets went: {n}");
    let count = database
        .read_blocking(|c| -> Result<_, DbError> { Ok(rate_limits::count(c)?) })
        .unwrap();
    assert_eq!(count, 0);

    // Per account and address: one address refused, another free.
    let a = brakes::login_account_key("admin", addr(1));
    let b = brakes::login_account_key("Admin ", addr(2));
    let take = |k: &rate_limits::Key| {
        database
            .write_blocking(|c| -> Result<_, DbError> { Ok(rate_limits::take(c, k, login, t0)?) })
            .unwrap()
    };
    for _ in 0..5 {
        assert_eq!(take(&a), Verdict::Granted);
    }
    assert_eq!(
        take(&a),
        Verdict::Refused {
            retry_after: std::time::Duration::from_secs(240)
        }
    );
    assert_eq!(take(&b), Verdict::Granted);
}

#[tokio::test]
async fn a_session_ends_at_its_absolute_lifetime_even_if_active() {
    let app = spawn_app().await;
    app.setup_admin().await;
    assert_eq!(app.get_status("/admin/users").await, 200);
    let now = app.clock().now();
    // Logged in 13 hours ago, active a moment ago.
    crate::peek::set_session_times(&app, now - chrono::Duration::hours(13), now);
    let res = app.get("/admin/users").await;
    assert_eq!(res.status().as_u16(), 303, "back to the login");
    assert!(session_ids(&app).is_empty(), "the session is deleted");
    // A fresh login starts a new 12-hour session.
    assert_eq!(app.login(ADMIN, ADMIN_PW).await.status().as_u16(), 303);
    assert_eq!(app.get_status("/admin/users").await, 200);
}

#[tokio::test]
async fn common_passwords_are_refused_at_setup() {
    let app = spawn_app().await;
    for (pw, message) in [
        ("Password123", "Questa password è troppo comune"),
        ("short", "La password deve avere almeno 10 caratteri"),
    ] {
        let res = app.setup_form("anna", pw, pw).await;
        assert_eq!(res.status().as_u16(), 422);
        let html = res.text().await.unwrap();
        assert!(html.contains(message), "{html}");
    }
    let mut conn = app.pool.get().unwrap();
    assert_eq!(burraco_td::db::users::count(&mut conn).unwrap(), 0);
}
