//! Public pages for a hall of phones (issue 12): rendered once per revision,
//! HTTP caching done right, nothing staff-only in public.

use std::io::Read;

use serde_json::Value;

use crate::helpers::{header, new_client, Browser, TestApp};
use crate::scoring::{pair_id, scored, tables_of};

async fn warn(dora: &Browser, app: &TestApp, tid: &str, pair: i32, reason: &str) {
    let res = dora
        .penalty(&tid, pair_id(app, pair), "warning", "", reason)
        .await;
    assert_eq!(res.status().as_u16(), 303, "warning given");
}

/// The standings page, pair `pair`'s card and the standings JSON.
pub fn public_paths(tid: &str, pair: u32) -> Vec<String> {
    vec![
        format!("/t/{tid}"),
        format!("/t/{tid}/pairs/{pair}"),
        format!("/api/v1/tournaments/{tid}/standings"),
    ]
}

#[tokio::test]
async fn public_pages_answer_304_to_their_etag_and_revalidate_every_time() {
    let (_app, _dora, _t, tid) = scored().await;
    let anon = new_client();
    for path in public_paths(&tid, 1) {
        let url = format!("{}{path}", _app.address);
        let res = anon.get(&url).send().await.unwrap();
        assert_eq!(res.status().as_u16(), 200, "{path}");
        let etag = header(&res, "etag");
        assert!(
            etag.starts_with('"') && etag.ends_with('"'),
            "{path}: a strong ETag, got {etag:?}"
        );
        assert_eq!(header(&res, "cache-control"), "no-cache", "{path}");
        assert!(
            header(&res, "vary").contains("Accept-Encoding"),
            "{path}: Vary"
        );
        assert!(
            header(&res, "content-security-policy").contains("default-src"),
            "{path}: the security headers stay"
        );
        let body = res.bytes().await.unwrap();
        assert!(!body.is_empty());
        let res = anon
            .get(&url)
            .header("if-none-match", &etag)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status().as_u16(), 304, "{path}: matching ETag");
        assert_eq!(header(&res, "etag"), etag, "{path}: 304 names the ETag");
        assert!(res.bytes().await.unwrap().is_empty(), "{path}: no body");
        let res = anon
            .get(&url)
            .header("if-none-match", "\"something-else\"")
            .send()
            .await
            .unwrap();
        assert_eq!(res.status().as_u16(), 200, "{path}: another ETag");
        // gzip, compressed once: the same bytes, and an ETag of its own.
        let res = anon
            .get(&url)
            .header("accept-encoding", "gzip")
            .send()
            .await
            .unwrap();
        assert_eq!(header(&res, "content-encoding"), "gzip", "{path}");
        let gz_etag = header(&res, "etag");
        assert_ne!(gz_etag, etag, "{path}: each encoding has its ETag");
        let packed = res.bytes().await.unwrap();
        let mut plain = Vec::new();
        flate2::read::GzDecoder::new(&packed[..])
            .read_to_end(&mut plain)
            .unwrap();
        assert_eq!(plain, body, "{path}: gzip holds the same page");
        let res = anon
            .get(&url)
            .header("accept-encoding", "gzip")
            .header("if-none-match", &gz_etag)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status().as_u16(), 304, "{path}: gzip ETag");
        // The identity response carries no Content-Encoding at all.
        let res = anon.get(&url).send().await.unwrap();
        assert!(res.headers().get("content-encoding").is_none(), "{path}");
    }
}

#[tokio::test]
async fn public_gets_set_no_cookie_forms_still_do() {
    let (app, _dora, _t, tid) = scored().await;
    let anon = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let mut paths = public_paths(&tid, 1);
    paths.extend(
        [
            "/",
            "/healthz",
            "/static/style.css",
            "/no/such/page",
            "/t/999999",
        ]
        .map(String::from),
    );
    for path in &paths {
        for method in [reqwest::Method::GET, reqwest::Method::HEAD] {
            let res = anon
                .request(method.clone(), app.url(path))
                .send()
                .await
                .unwrap();
            assert!(
                res.headers().get("set-cookie").is_none(),
                "{method} {path} sets {:?}",
                res.headers().get("set-cookie")
            );
        }
    }
    // The login form needs its anonymous CSRF cookie, and gets it.
    let res = anon.get(app.url("/login")).send().await.unwrap();
    assert!(header(&res, "set-cookie").starts_with("btd_anon="));
    // A language chosen by the visitor is remembered.
    let res = anon.get(app.url("/lang/en?next=/")).send().await.unwrap();
    assert!(header(&res, "set-cookie").starts_with("lang=en"));
    // And logging in still works from a fresh browser.
    let b = app.another_browser();
    assert_eq!(
        b.login("dora", "director pass").await.status().as_u16(),
        303
    );
}

/// Every GET route the running server registered (`web::registered_routes`).
fn get_routes() -> Vec<String> {
    burraco_td::web::registered_routes()
        .into_iter()
        .filter(|(method, _)| *method == "GET")
        .map(|(_, path)| path)
        .collect()
}

#[tokio::test]
async fn head_answers_like_get_on_every_get_route() {
    let (app, _dora, t, tid) = scored().await;
    let mut routes = get_routes();
    assert!(routes.len() >= 30, "the route list was read: {routes:?}");
    // The API's GET operations, as the running server documents them.
    let doc: Value = app.get_json("/api/openapi.json").await;
    let api: Vec<String> = doc["paths"]
        .as_object()
        .expect("paths")
        .iter()
        .filter(|(_, ops)| ops.get("get").is_some())
        .map(|(p, _)| p.clone())
        .collect();
    assert!(api.len() >= 5, "the API's GET operations: {api:?}");
    for p in api {
        if !routes.contains(&p) {
            routes.push(p);
        }
    }
    for known in [
        "/director/t/{id}/import",
        "/admin/import",
        "/s/{code}",
        "/account",
        "/c/{id}/people/{person}",
        "/api/openapi.json",
    ] {
        assert!(routes.contains(&known.to_string()), "{known} in {routes:?}");
    }
    let pid = pair_id(&app, 1);
    let uid = crate::builders::actor_of(&app.handle, crate::helpers::ADMIN)
        .await
        .user_id
        .0
        .to_string();
    let table = tables_of(&app, 1)[0].to_string();
    assert!(t.ends_with(&tid));
    let anon = app.another_browser();
    let mut checked = 0;
    for route in &routes {
        let path = route
            .replace("{id}", &tid)
            .replace("{pid}", &pid)
            .replace("{pair_id}", &pid)
            .replace("{number}", "1")
            .replace("{round}", "1")
            .replace("{uid}", &uid)
            .replace("{n}", "1")
            .replace("{table}", &table)
            .replace("{pair}", "1")
            .replace("{person}", "1")
            .replace("{name}", "style.css")
            .replace("{code}", "en")
            .replace("{token}", "no-such-entry");
        let path = if route.starts_with("/admin/users/{id}") {
            route.replace("{id}", &uid)
        } else {
            path
        };
        assert!(!path.contains('{'), "a value for every parameter: {path}");
        // The admin (signed in) and a visitor without a session.
        for b in [&app.browser, &anon] {
            let get = b.client.get(b.url(&path)).send().await.unwrap();
            let get_status = get.status().as_u16();
            let get_len = get.bytes().await.unwrap().len();
            let head = b.client.head(b.url(&path)).send().await.unwrap();
            assert_eq!(
                head.status().as_u16(),
                get_status,
                "HEAD {path} answers like GET"
            );
            let declared: Option<usize> = head
                .headers()
                .get("content-length")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.parse().ok());
            if get_status == 200 && !route.starts_with("/admin/import") {
                // Pages with a fresh CSRF token or time differ in length;
                // public and static pages must declare the same length.
                if route.starts_with("/t/")
                    || route.starts_with("/c/")
                    || route.starts_with("/static")
                {
                    assert_eq!(declared, Some(get_len), "HEAD {path} Content-Length");
                }
            }
            assert!(
                head.bytes().await.unwrap().is_empty(),
                "HEAD {path}: no body"
            );
            checked += 1;
        }
    }
    assert!(checked >= 60);
}

/// The body of a public page as a visitor without cookies sees it.
async fn anon_get(app: &TestApp, path: &str, etag: Option<&str>) -> (u16, String, String) {
    let mut req = new_client().get(app.url(path));
    if let Some(e) = etag {
        req = req.header("if-none-match", e);
    }
    let res = req.send().await.unwrap();
    let status = res.status().as_u16();
    let etag = header(&res, "etag");
    (status, etag, res.text().await.unwrap())
}

#[tokio::test]
async fn a_write_bumps_the_revision_and_the_next_request_shows_it() {
    let (app, dora, _t, tid) = scored().await;
    let json_path = format!("/api/v1/tournaments/{tid}/standings");
    let card_path = format!("/t/{tid}/pairs/2");
    let page_path = format!("/t/{tid}");
    let (_, json_etag, body) = anon_get(&app, &json_path, None).await;
    let before: Value = serde_json::from_str(&body).unwrap();
    let (_, card_etag, card) = anon_get(&app, &card_path, None).await;
    let (_, page_etag, _) = anon_get(&app, &page_path, None).await;
    assert!(!card.contains("suggerisce la carta"));
    for i in 1..=3 {
        let reason = format!("suggerisce la carta {i}");
        warn(&dora, &app, &tid, 2, &reason).await;
        // The very next request of a client that holds the old page.
        let (status, new_etag, body) = anon_get(&app, &json_path, Some(&json_etag)).await;
        assert_eq!(status, 200, "not a 304 after a write");
        assert_ne!(new_etag, json_etag);
        let after: Value = serde_json::from_str(&body).unwrap();
        assert!(
            after["revision"].as_i64().unwrap() >= before["revision"].as_i64().unwrap() + i,
            "the revision went up: {} → {}",
            before["revision"],
            after["revision"]
        );
        assert!(body.contains(&reason), "the JSON shows the new warning");
        let (status, _, card) = anon_get(&app, &card_path, Some(&card_etag)).await;
        assert_eq!(status, 200);
        assert!(card.contains(&reason), "the card shows the new warning");
        let (status, _, _) = anon_get(&app, &page_path, Some(&page_etag)).await;
        assert_eq!(status, 200);
    }
    // The second warning took a VP: the standings page shows it at once
    // (in Italian: PV).
    let (_, _, page) = anon_get(&app, &page_path, None).await;
    assert!(page.contains("−1 PV"), "the standings show the penalty");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn five_hundred_concurrent_first_requests_compute_the_standings_once() {
    const N: usize = 500;
    let (app, dora, _t, tid) = scored().await;
    warn(&dora, &app, &tid, 3, "in ritardo").await;
    let path = format!("/t/{tid}");
    let computed = app.public.computations();
    let rendered = app.public.renders();
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(N)
        .build()
        .unwrap();
    let start = std::sync::Arc::new(tokio::sync::Barrier::new(N));
    let mut jobs = Vec::new();
    for _ in 0..N {
        let (c, url, start) = (client.clone(), app.url(&path), start.clone());
        jobs.push(tokio::spawn(async move {
            start.wait().await;
            let res = c.get(url).send().await.expect("GET");
            (res.status().as_u16(), header(&res, "etag"))
        }));
    }
    let mut etags = std::collections::HashSet::new();
    for j in jobs {
        let (status, etag) = j.await.unwrap();
        assert_eq!(status, 200);
        etags.insert(etag);
    }
    assert_eq!(etags.len(), 1, "every visitor got the same page");
    assert_eq!(
        app.public.computations() - computed,
        1,
        "{N} first requests after a change compute the standings once"
    );
    assert_eq!(app.public.renders() - rendered, 1, "and render once");
    // The pair cards of that revision reuse the same computation.
    for pair in 1..=6 {
        let (status, _, _) = anon_get(&app, &format!("/t/{tid}/pairs/{pair}"), None).await;
        assert_eq!(status, 200);
    }
    assert_eq!(app.public.computations() - computed, 1);
}

#[tokio::test]
async fn static_assets_have_hashed_urls_and_are_immutable() {
    use sha2::{Digest, Sha256};
    let (app, _dora, _t, tid) = scored().await;
    let html = app.another_browser().get_html(&format!("/t/{tid}")).await;
    let start = html.find("/static/style.").expect("stylesheet link");
    let href = &html[start..start + html[start..].find('"').unwrap()];
    let hash = href
        .trim_start_matches("/static/style.")
        .trim_end_matches(".css");
    assert_eq!(hash.len(), 12, "{href}");
    let res = app.another_browser().get(href).await;
    assert_eq!(res.status().as_u16(), 200);
    assert_eq!(
        header(&res, "cache-control"),
        "public, max-age=31536000, immutable"
    );
    let body = res.bytes().await.unwrap();
    assert_eq!(
        hex::encode(&Sha256::digest(&body)[..6]),
        hash,
        "the URL names the content"
    );
    // Another build's hash, or no hash: the content, but revalidated.
    for other in ["/static/style.000000000000.css", "/static/style.css"] {
        let res = app.another_browser().get(other).await;
        assert_eq!(res.status().as_u16(), 200, "{other}");
        assert_eq!(header(&res, "cache-control"), "no-cache", "{other}");
    }
}

#[tokio::test]
async fn withdrawn_penalties_and_staff_data_never_reach_public_pages() {
    let (app, dora, _t, tid) = scored().await;
    warn(&dora, &app, &tid, 1, "in ritardo").await;
    warn(&dora, &app, &tid, 1, "parla al compagno").await;
    let (last, _, _) = crate::peek::last_penalty(&app);
    let pen = format!("/desk/t/{tid}/penalties");
    let res = dora.withdraw_penalty(&tid, last, "errore del tavolo").await;
    assert_eq!(res.status().as_u16(), 303);
    for path in public_paths(&tid, 1) {
        let (status, _, body) = anon_get(&app, &path, None).await;
        assert_eq!(status, 200, "{path}");
        if !path.ends_with(&format!("/t/{tid}")) {
            assert!(
                body.contains("in ritardo"),
                "{path}: the warning that counts"
            );
        }
        for hidden in ["parla al compagno", "errore del tavolo", "dora", "ritirat"] {
            assert!(!body.contains(hidden), "{path} shows {hidden:?}");
        }
    }
    // A signed-in director sees the public page the same way.
    let page = dora.get_html(&format!("/t/{tid}/pairs/1")).await;
    assert!(!page.contains("parla al compagno"));
    let json: Value = serde_json::from_str(
        &anon_get(&app, &format!("/api/v1/tournaments/{tid}/standings"), None)
            .await
            .2,
    )
    .unwrap();
    let pens = json["penalties"].as_array().unwrap();
    assert_eq!(pens.len(), 1, "{pens:?}");
    assert_eq!(pens[0]["reason"], "in ritardo");
    assert!(pens[0].get("by").is_none() && pens[0].get("withdrawn").is_none());
    // The desk keeps the whole record.
    let desk = dora.get_html(&pen).await;
    assert!(desk.contains("parla al compagno"));
}

#[tokio::test]
async fn a_payout_tier_wider_than_the_field_pays_the_places_that_exist() {
    // The scheme pays 3 places; only 2 pairs are registered: the public page
    // (which once indexed past the prizes and panicked) shows 2 places,
    // their percentages scaled so the pool is paid whole (RULES.md §10).
    let (app, dora) = crate::tournaments::with_director().await;
    let t = app
        .tournament("Serata piccola")
        .with(&[("payout", "1: 50 30 20")])
        .build()
        .await
        .path;
    crate::tournaments::import(&dora, &t, &crate::tournaments::csv(2)).await;
    let tid = t.rsplit('/').next().unwrap();
    let res = new_client()
        .get(dora.url(&format!("/t/{tid}")))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 200);
    let html = res.text().await.unwrap();
    assert!(html.contains("<td>2°</td>"), "{html}");
    assert!(
        !html.contains("<td>3°</td>"),
        "no third place with 2 entries"
    );
    // 50 : 30 scaled to the places that exist: 62,5 % and 37,5 %.
    assert!(html.contains("62,5") && html.contains("37,5"), "{html}");
}
