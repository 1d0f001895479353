//! Request body limits, security headers, no inline scripts.

use std::time::Duration;

use reqwest::header::CONTENT_TYPE;

use crate::helpers::{csrf_in, header, spawn_app, Browser, ADMIN, ADMIN_PW};

/// Just under 16 MiB: more than any form needs, less than the old 16 MiB cap.
const HUGE: usize = 16_000_000;

/// POSTs `body` as a form with the CSRF token in the header (so that the
/// CSRF layer does not need the body, as a script could do). Returns the
/// status, or 0 when the server closed the connection without an answer.
async fn post_form(b: &Browser, path: &str, token: &str, body: actix_web::web::Bytes) -> u16 {
    match b
        .client
        .post(b.url(path))
        .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
        .header("x-csrf-token", token)
        .body(body)
        .send()
        .await
    {
        Ok(res) => res.status().as_u16(),
        Err(e) => {
            eprintln!("{path}: {e}");
            0
        }
    }
}

#[tokio::test]
async fn a_huge_body_with_the_token_inside_is_refused_before_the_csrf_check_buffers_it() {
    let app = spawn_app().await;
    app.setup_admin().await;
    app.logout().await;
    let token = csrf_in(&app.get_html("/login").await);
    let mut body = format!("csrf_token={token}&username=admin&password=").into_bytes();
    body.resize(HUGE, b'a');
    let res = app
        .client
        .post(app.url("/login"))
        .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 413);
    assert!(res
        .text()
        .await
        .unwrap()
        .contains("Richiesta troppo grande"));
}

#[tokio::test]
async fn a_chunked_body_is_cut_off_while_streaming() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let app = spawn_app().await;
    let host = app.address.trim_start_matches("http://").to_string();
    let mut stream = tokio::net::TcpStream::connect(&host).await.unwrap();
    let head = format!(
        "POST /login HTTP/1.1\r\nHost: {host}\r\n\
         Content-Type: application/x-www-form-urlencoded\r\n\
         Transfer-Encoding: chunked\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let chunk = vec![b'a'; 64 * 1024];
    let mut sent = 0;
    // Up to 16 MiB, stopping when the server stops reading.
    for _ in 0..256 {
        let framed = [
            format!("{:x}\r\n", chunk.len()).into_bytes(),
            chunk.clone(),
            b"\r\n".to_vec(),
        ]
        .concat();
        match tokio::time::timeout(Duration::from_secs(2), stream.write_all(&framed)).await {
            Ok(Ok(())) => sent += chunk.len(),
            _ => break,
        }
    }
    let _ = stream.write_all(b"0\r\n\r\n").await;
    let mut answer = vec![0u8; 4096];
    let n = tokio::time::timeout(Duration::from_secs(10), stream.read(&mut answer))
        .await
        .expect("an answer")
        .unwrap_or(0);
    let answer = String::from_utf8_lossy(&answer[..n]);
    assert!(
        answer.starts_with("HTTP/1.1 413"),
        "after {sent} bytes: {answer}"
    );
}

#[tokio::test]
async fn each_route_has_its_own_limit() {
    let app = spawn_app().await;
    app.setup_admin().await;
    let token = csrf_in(&app.get_html("/admin/users").await);
    let form = |field: &str, size: usize| {
        let mut body = format!("{field}=").into_bytes();
        body.resize(size, b'a');
        actix_web::web::Bytes::from(body)
    };
    // A staff form: 64 KiB.
    assert_eq!(
        post_form(&app, "/admin/users", &token, form("username", 60_000)).await,
        422
    );
    assert_eq!(
        post_form(&app, "/admin/users", &token, form("username", 70_000)).await,
        413
    );
    // The pairs CSV import: 2 MiB for the tournament's directors.
    let t = app.tournament("Limiti").owner("admin").build().await.path;
    let import = format!("{t}/import");
    assert_ne!(
        post_form(&app, &import, &token, form("csv", 1_500_000)).await,
        413
    );
    assert_eq!(
        post_form(&app, &import, &token, form("csv", 2_200_000)).await,
        413
    );
    // No such tournament: refused before the body is read, whatever its size.
    for size in [1_500_000, 2_200_000] {
        assert_eq!(
            post_form(&app, "/director/t/999/import", &token, form("csv", size)).await,
            404
        );
    }
    // The tournament file: 50 MiB (not a valid file: 422, past the limit).
    assert_eq!(
        post_form(&app, "/admin/import", &token, form("json", 3_000_000)).await,
        422
    );
    assert_eq!(
        post_form(
            &app,
            "/admin/import",
            &token,
            form("json", 51 * 1024 * 1024)
        )
        .await,
        413
    );
    // Without a session, the large limits do not apply: sign in first,
    // before a byte of the body is read.
    let visitor = app.another_browser();
    let vtoken = csrf_in(&visitor.get_html("/login").await);
    assert_eq!(
        post_form(&visitor, "/admin/import", &vtoken, form("json", 3_000_000)).await,
        303
    );
    // The JSON API: 2 MiB.
    let api = |size: usize| {
        let mut body = b"{\"x\":\"".to_vec();
        body.resize(size, b'a');
        body.extend_from_slice(b"\"}");
        app.client
            .post(app.url("/api/v1/rules/vp"))
            .header(CONTENT_TYPE, "application/json")
            .body(body)
            .send()
    };
    assert_ne!(api(1_500_000).await.unwrap().status().as_u16(), 413);
    assert_eq!(api(2_200_000).await.unwrap().status().as_u16(), 413);
}

fn assert_security_headers(res: &reqwest::Response, what: &str) {
    let csp = header(res, "content-security-policy");
    for part in [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "frame-ancestors 'none'",
        "base-uri 'self'",
        "form-action 'self'",
    ] {
        assert!(csp.contains(part), "{what}: CSP {csp:?} lacks {part}");
    }
    assert!(!csp.contains("unsafe-inline"), "{what}");
    assert_eq!(header(res, "x-frame-options"), "DENY", "{what}");
    assert_eq!(header(res, "x-content-type-options"), "nosniff", "{what}");
    assert_eq!(header(res, "referrer-policy"), "same-origin", "{what}");
}

#[tokio::test]
async fn every_response_carries_the_security_headers_and_staff_pages_are_not_stored() {
    let (app, dora) = crate::tournaments::with_director().await;
    let t = app.tournament("Torneo").build().await.path;
    let visitor = app.another_browser();

    let public = visitor
        .get(&format!("/t/{}", t.rsplit('/').next().unwrap()))
        .await;
    assert_eq!(public.status().as_u16(), 200);
    assert_security_headers(&public, "public page");
    assert_eq!(
        header(&public, "cache-control"),
        "no-cache",
        "public pages may be cached, revalidated each time (issue 12)"
    );
    let home = visitor.get("/").await;
    assert_security_headers(&home, "home");

    let missing = visitor.get("/no-such-page").await;
    assert_eq!(missing.status().as_u16(), 404);
    assert_security_headers(&missing, "error page");
    let login = visitor.get("/login").await;
    assert_security_headers(&login, "login");
    assert_eq!(header(&login, "cache-control"), "no-store", "login");

    for path in [
        "/admin/users".to_string(),
        "/admin/import".to_string(),
        "/director/tournaments".to_string(),
        t.clone(),
        format!("{t}/export.json"),
        format!("{t}/standings.csv"),
        format!("{t}/sheets.csv"),
        "/desk/seat-draw".to_string(),
    ] {
        let b: &Browser = if path.starts_with("/admin") {
            &app
        } else {
            &dora
        };
        let res = b.get(&path).await;
        assert_eq!(res.status().as_u16(), 200, "{path}");
        assert_security_headers(&res, &path);
        assert_eq!(header(&res, "cache-control"), "no-store", "{path}");
    }
    // A staff page refused to a visitor is not stored either.
    let res = visitor.get("/admin/users").await;
    assert_eq!(res.status().as_u16(), 303);
    assert_eq!(header(&res, "cache-control"), "no-store");
    assert_security_headers(&res, "redirect to login");
    // A signed-in user's view of a public page is not stored.
    assert_eq!(header(&dora.get("/").await, "cache-control"), "no-store");
    let _ = (ADMIN, ADMIN_PW);
}

/// Every template, with its path.
fn templates() -> Vec<(String, String)> {
    fn walk(dir: &std::path::Path, out: &mut Vec<(String, String)>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else {
                out.push((
                    p.display().to_string(),
                    std::fs::read_to_string(&p).unwrap(),
                ));
            }
        }
    }
    let mut out = Vec::new();
    walk(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("templates"),
        &mut out,
    );
    assert!(out.len() > 10);
    out
}

#[test]
fn templates_have_no_inline_script_or_style() {
    let mut problems = Vec::new();
    for (path, text) in templates() {
        let lower = text.to_ascii_lowercase();
        // <script> elements: only with src=, or a JSON data block.
        let mut rest = lower.as_str();
        while let Some(i) = rest.find("<script") {
            let tag_end = rest[i..].find('>').map_or(rest.len(), |j| i + j);
            let tag = &rest[i..tag_end];
            if !tag.contains(" src=") && !tag.contains("type=\"application/json\"") {
                problems.push(format!("{path}: inline script {tag}>"));
            }
            rest = &rest[tag_end..];
        }
        if lower.contains("<style") {
            problems.push(format!("{path}: <style> element"));
        }
        if lower.contains("javascript:") {
            problems.push(format!("{path}: javascript: URL"));
        }
        // Event-handler and style attributes: ` onclick=`, ` style=` …
        let bytes = lower.as_bytes();
        for (i, _) in lower.match_indices('=') {
            let mut j = i;
            while j > 0 && bytes[j - 1].is_ascii_alphanumeric() {
                j -= 1;
            }
            let name = &lower[j..i];
            let attr_start = j > 0 && bytes[j - 1].is_ascii_whitespace();
            if attr_start && (name == "style" || (name.starts_with("on") && name.len() > 2)) {
                problems.push(format!("{path}: attribute {name}="));
            }
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}
