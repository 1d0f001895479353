use crate::helpers::{location, spawn_app, ADMIN, ADMIN_PW};

#[tokio::test]
async fn the_admin_creates_disables_and_resets_accounts() {
    let app = spawn_app().await;
    app.setup_admin().await;
    app.browser
        .create_user_through_the_form("Dora", "director", "director pass")
        .await;
    let html = app.get_html("/admin/users?done=user_created").await;
    assert!(html.contains("Utente creato"));
    assert!(html.contains(">dora<"), "stored lower-case");

    // The director can log in.
    let dora = app.another_browser();
    assert_eq!(
        dora.login("dora", "director pass").await.status().as_u16(),
        303
    );
    assert_eq!(dora.get_status("/").await, 200);

    // Disabling ends her session and her logins.
    let res = app.user_action(2, "active", &[("active", "false")]).await;
    assert_eq!(location(&res), "/admin/users?done=user_disabled");
    let html = dora.get_html("/").await;
    assert!(!html.contains("dora"), "session ended");
    assert_eq!(
        dora.login("dora", "director pass").await.status().as_u16(),
        401
    );

    // Enable again and reset her password.
    app.user_action(2, "active", &[("active", "true")]).await;
    let res = app
        .user_action(
            2,
            "password",
            &[
                ("password", "brand new pass"),
                ("password2", "brand new pass"),
            ],
        )
        .await;
    assert_eq!(location(&res), "/admin/users?done=password_reset");
    assert_eq!(
        dora.login("dora", "director pass").await.status().as_u16(),
        401
    );
    assert_eq!(
        dora.login("dora", "brand new pass").await.status().as_u16(),
        303
    );
}

#[tokio::test]
async fn bad_account_input_is_refused_next_to_the_field() {
    let app = spawn_app().await;
    app.setup_admin().await;
    let res = app
        .user_form(ADMIN, "director", "long enough", "long enough")
        .await;
    assert_eq!(res.status().as_u16(), 422);
    assert!(res.text().await.unwrap().contains("già in uso"));
    let res = app.user_form("x", "king", "a", "b").await;
    assert_eq!(res.status().as_u16(), 422);
    let html = res.text().await.unwrap();
    assert!(html.contains("Scegli un ruolo"));
    assert!(html.contains("almeno 10 caratteri"));
    assert!(
        html.contains("value=\"x\""),
        "the form keeps what was typed"
    );
    let mut conn = app.pool.get().unwrap();
    assert_eq!(burraco_td::db::users::count(&mut conn).unwrap(), 1);
}

#[tokio::test]
async fn the_last_admin_cannot_be_disabled_or_demoted() {
    let app = spawn_app().await;
    app.setup_admin().await;
    let res = app.user_action(1, "active", &[("active", "false")]).await;
    assert_eq!(res.status().as_u16(), 422);
    assert!(res.text().await.unwrap().contains("ultimo amministratore"));
    let res = app.user_action(1, "role", &[("role", "director")]).await;
    assert_eq!(res.status().as_u16(), 422);
    // With a second admin, the first may step down.
    app.create_user("second", "admin", "second admin pass")
        .await;
    let res = app.user_action(1, "role", &[("role", "director")]).await;
    assert_eq!(location(&res), "/admin/users?done=role_changed");
    let _ = ADMIN_PW;
}

#[tokio::test]
async fn the_admin_cannot_set_short_or_common_passwords() {
    let app = spawn_app().await;
    app.setup_admin().await;
    for (pw, message) in [
        ("qwertyuiop", "Questa password è troppo comune"),
        ("short", "La password deve avere almeno 10 caratteri"),
    ] {
        let res = app.user_form("dora", "director", pw, pw).await;
        assert_eq!(res.status().as_u16(), 422, "create with {pw}");
        assert!(res.text().await.unwrap().contains(message));
    }
    app.create_user("dora", "director", "director pass").await;
    for (pw, message) in [
        ("PASSWORD1234", "Questa password è troppo comune"),
        ("short", "La password deve avere almeno 10 caratteri"),
    ] {
        let res = app
            .user_action(2, "password", &[("password", pw), ("password2", pw)])
            .await;
        assert_eq!(res.status().as_u16(), 422, "reset to {pw}");
        assert!(res.text().await.unwrap().contains(message));
    }
    let dora = app.another_browser();
    assert_eq!(
        dora.login("dora", "director pass").await.status().as_u16(),
        303,
        "the password is unchanged"
    );
}
