//! Every staff route refuses anonymous visitors and the wrong roles, on the server.

use reqwest::Method;

use crate::helpers::{csrf_in, location, spawn_app, Browser, ADMIN, ADMIN_PW};

/// Every staff route, with the least role that may use it.
const STAFF_ROUTES: &[(&str, &str, &str)] = &[
    ("GET", "/admin/users", "admin"),
    ("POST", "/admin/users", "admin"),
    ("GET", "/admin/users/1", "admin"),
    ("POST", "/admin/users/1/active", "admin"),
    ("POST", "/admin/users/1/role", "admin"),
    ("POST", "/admin/users/1/password", "admin"),
    ("GET", "/director/tournaments", "director"),
    ("POST", "/director/tournaments", "director"),
    ("GET", "/director/tournaments/new", "director"),
    ("GET", "/director/t/1", "director"),
    ("GET", "/director/t/1/edit", "director"),
    ("POST", "/director/t/1/edit", "director"),
    ("POST", "/director/t/1/pairs", "director"),
    ("GET", "/director/t/1/pairs/new", "director"),
    ("GET", "/director/t/1/pairs/1", "director"),
    ("POST", "/director/t/1/pairs/1", "director"),
    ("POST", "/director/t/1/pairs/1/checkin", "director"),
    ("POST", "/director/t/1/pairs/1/withdraw", "director"),
    ("GET", "/director/t/1/import", "director"),
    ("POST", "/director/t/1/import", "director"),
    ("POST", "/director/t/1/draw", "director"),
    ("POST", "/director/t/1/rounds", "director"),
    ("GET", "/director/t/1/rounds/1", "director"),
    ("GET", "/director/t/1/rounds/1/cards", "director"),
    ("GET", "/director/t/1/movement-cards", "director"),
    ("GET", "/desk/seat-draw", "referee"),
    ("POST", "/desk/seat-draw", "referee"),
    ("GET", "/desk/t/1/rounds/1", "referee"),
    ("GET", "/desk/t/1/rounds/1/tables/1", "referee"),
    ("POST", "/desk/t/1/rounds/1/tables/1", "referee"),
    ("POST", "/desk/t/1/rounds/1/tables/1/adjusted", "referee"),
    ("GET", "/desk/t/1/penalties", "referee"),
    ("POST", "/desk/t/1/penalties", "referee"),
    ("POST", "/desk/t/1/penalties/1/withdraw", "referee"),
    ("POST", "/desk/t/1/penalties/1/reinstate", "referee"),
    ("GET", "/desk/t/1/audit", "referee"),
    ("POST", "/director/t/1/rounds/1/clock", "director"),
    ("POST", "/director/t/1/close", "director"),
    ("GET", "/director/t/1/confirm-start", "director"),
    ("GET", "/director/t/1/confirm-round", "director"),
    ("GET", "/director/t/1/confirm-close", "director"),
    ("GET", "/director/t/1/rounds/1/confirm-time-out", "director"),
    ("GET", "/director/t/1/rounds/1/confirm-undo", "director"),
    ("POST", "/director/t/1/rounds/1/undo", "director"),
    ("GET", "/director/t/1/export.json", "director"),
    ("GET", "/director/t/1/standings.csv", "director"),
    ("GET", "/director/t/1/sheets.csv", "director"),
    ("GET", "/admin/import", "admin"),
    ("POST", "/admin/import", "admin"),
];

const RANK: &[&str] = &["referee", "director", "admin"];

fn rank(role: &str) -> usize {
    RANK.iter().position(|r| *r == role).unwrap()
}

/// `method` on `path` with a valid CSRF token (taken from `token_page`),
/// so that only the role decides.
async fn call_from(b: &Browser, token_page: &str, method: &str, path: &str) -> reqwest::Response {
    let token = csrf_in(&b.get_html(token_page).await);
    let m = Method::from_bytes(method.as_bytes()).unwrap();
    let req = b.client.request(m.clone(), b.url(path));
    let req = if m == Method::GET {
        req
    } else {
        req.form(&[
            ("csrf_token", token.as_str()),
            ("active", "false"),
            ("role", "referee"),
        ])
    };
    req.send().await.unwrap()
}

async fn call(b: &Browser, method: &str, path: &str) -> reqwest::Response {
    call_from(b, "/login", method, path).await
}

async fn call_logged_in(b: &Browser, method: &str, path: &str) -> reqwest::Response {
    call_from(b, "/", method, path).await
}

#[tokio::test]
async fn each_staff_route_refuses_anonymous_and_wrong_role_users() {
    let app = spawn_app().await;
    app.setup_admin().await;
    app.create_user("dora", "director", "director pass").await;
    app.create_user("rita", "referee", "referee pass").await;

    let anonymous = app.another_browser();
    for (method, path, _) in STAFF_ROUTES {
        let res = call(&anonymous, method, path).await;
        assert_eq!(res.status().as_u16(), 303, "{method} {path} anonymous");
        assert!(
            location(&res).starts_with("/login?next="),
            "{method} {path}"
        );
    }

    for (user, pw, role) in [
        ("dora", "director pass", "director"),
        ("rita", "referee pass", "referee"),
    ] {
        let b = app.another_browser();
        assert_eq!(b.login(user, pw).await.status().as_u16(), 303);
        for (method, path, needed) in STAFF_ROUTES {
            let res = call_logged_in(&b, method, path).await;
            if rank(role) < rank(needed) {
                assert_eq!(res.status().as_u16(), 403, "{method} {path} as {role}");
            } else {
                assert_ne!(res.status().as_u16(), 403, "{method} {path} as {role}");
            }
        }
    }

    // The admin account is untouched by all those refused POSTs.
    let admin = app.another_browser();
    assert_eq!(admin.login(ADMIN, ADMIN_PW).await.status().as_u16(), 303);
    let html = admin.get_html("/admin/users/1").await;
    assert!(html.contains("Amministratore"));
}
