//! The public pages in brotli and gzip (issue 12): each cached page
//! compressed once per encoding, chosen by `Accept-Encoding` (q-values
//! honoured), an ETag per encoding, 304 only for the representation the
//! client would get, HEAD like GET.

use std::io::Read;

use crate::deskentry::tid;
use crate::helpers::{header, new_client, TestApp};
use crate::scoring::{correction, post_sheet, scored, sheet, started, tables_of};

/// (status, Content-Encoding, ETag, body) of an anonymous GET.
async fn get(
    app: &TestApp,
    path: &str,
    accept: Option<&str>,
    if_none_match: Option<&str>,
) -> (u16, String, String, Vec<u8>) {
    let mut req = new_client().get(app.url(path));
    if let Some(a) = accept {
        req = req.header("accept-encoding", a);
    }
    if let Some(e) = if_none_match {
        req = req.header("if-none-match", e);
    }
    let res = req.send().await.unwrap();
    let status = res.status().as_u16();
    let enc = header(&res, "content-encoding");
    let etag = header(&res, "etag");
    (status, enc, etag, res.bytes().await.unwrap().to_vec())
}

fn unbrotli(b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    brotli::Decompressor::new(b, 4096)
        .read_to_end(&mut out)
        .expect("valid brotli");
    out
}

fn gunzip(b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(b)
        .read_to_end(&mut out)
        .expect("valid gzip");
    out
}

#[tokio::test]
async fn brotli_goes_to_who_takes_it_and_decodes_to_the_same_page() {
    let (app, _, _, tid) = scored().await;
    for path in crate::public::public_paths(&tid, 2) {
        let (s, enc, plain_etag, plain) = get(&app, &path, None, None).await;
        assert_eq!(s, 200, "{path}");
        assert_eq!(enc, "", "{path}: no header, no coding");
        // What a phone's browser sends.
        let res = new_client()
            .get(app.url(&path))
            .header("accept-encoding", "gzip, deflate, br")
            .send()
            .await
            .unwrap();
        assert_eq!(res.status().as_u16(), 200, "{path}");
        assert_eq!(header(&res, "content-encoding"), "br", "{path}");
        assert!(
            header(&res, "vary").contains("Accept-Encoding"),
            "{path}: Vary"
        );
        assert_eq!(header(&res, "cache-control"), "no-cache", "{path}");
        let br_etag = header(&res, "etag");
        let packed = res.bytes().await.unwrap();
        assert!(packed.len() < plain.len(), "{path}: brotli is smaller");
        assert_eq!(unbrotli(&packed), plain, "{path}: the same page");
        let (_, enc, gz_etag, gz) = get(&app, &path, Some("gzip"), None).await;
        assert_eq!(enc, "gzip", "{path}");
        assert_eq!(gunzip(&gz), plain, "{path}: the same page in gzip");
        // One representation, one ETag, all strong.
        for e in [&plain_etag, &gz_etag, &br_etag] {
            assert!(e.starts_with('"') && e.ends_with('"'), "{path}: {e}");
        }
        assert_ne!(br_etag, plain_etag, "{path}");
        assert_ne!(br_etag, gz_etag, "{path}");
        // Compressed once: the very same bytes the next time.
        let (_, _, again_etag, again) = get(&app, &path, Some("br"), None).await;
        assert_eq!(again_etag, br_etag, "{path}");
        assert_eq!(again, packed.to_vec(), "{path}");
    }
}

#[tokio::test]
async fn a_304_only_for_the_representation_the_client_would_get() {
    let (app, _, _, tid) = scored().await;
    for path in crate::public::public_paths(&tid, 2) {
        let (_, _, br_etag, _) = get(&app, &path, Some("br"), None).await;
        let (_, _, gz_etag, _) = get(&app, &path, Some("gzip"), None).await;
        let (_, _, plain_etag, _) = get(&app, &path, None, None).await;
        // Its own ETag: 304, naming it, no body.
        let (s, _, e, body) = get(&app, &path, Some("br"), Some(&br_etag)).await;
        assert_eq!((s, e.as_str()), (304, br_etag.as_str()), "{path}");
        assert!(body.is_empty(), "{path}");
        // Weak comparison (RFC 9110 §13.1.2): W/ of the same tag matches.
        let (s, ..) = get(&app, &path, Some("br"), Some(&format!("W/{br_etag}"))).await;
        assert_eq!(s, 304, "{path}: weak form");
        // A cache holding the gzip bytes asks for a client that takes only
        // brotli: those bytes would not do, so the page comes whole.
        let (s, enc, e, body) = get(&app, &path, Some("br"), Some(&gz_etag)).await;
        assert_eq!(
            (s, enc.as_str(), e.as_str()),
            (200, "br", br_etag.as_str()),
            "{path}"
        );
        assert!(!body.is_empty(), "{path}");
        let (s, enc, ..) = get(&app, &path, None, Some(&br_etag)).await;
        assert_eq!((s, enc.as_str()), (200, ""), "{path}: identity wanted");
        // A cache holding several variants lists them: the 304 names the
        // one to use.
        let list = format!("{plain_etag}, {gz_etag}, {br_etag}");
        let (s, _, e, _) = get(&app, &path, Some("gzip"), Some(&list)).await;
        assert_eq!((s, e.as_str()), (304, gz_etag.as_str()), "{path}");
        let (s, ..) = get(&app, &path, Some("br"), Some("*")).await;
        assert_eq!(s, 304, "{path}: * matches any current page");
    }
}

#[tokio::test]
async fn q_values_choose_the_encoding() {
    let (app, _, _, tid) = scored().await;
    let path = format!("/t/{tid}");
    for (accept, want) in [
        ("br", "br"),
        ("gzip", "gzip"),
        ("gzip, br", "br"),
        ("br;q=0.5, gzip", "gzip"),
        ("br;q=0, gzip;q=0.1", "gzip"),
        ("BR;Q=0.9, GZIP;q=0.8", "br"),
        // `*` names no coding: actix-web's negotiation keeps identity.
        ("*", ""),
        ("*;q=0.5, br;q=0", ""),
        ("gzip;q=0", ""),
        ("br;q=0, gzip;q=0", ""),
        ("identity", ""),
        ("deflate", ""),
        ("identity;q=1, br;q=0.5", ""),
        ("br;q=nonsense, gzip", "gzip"),
    ] {
        let (s, enc, _, body) = get(&app, &path, Some(accept), None).await;
        assert_eq!(s, 200, "{accept}");
        assert_eq!(enc, want, "Accept-Encoding: {accept}");
        let html = match want {
            "br" => unbrotli(&body),
            "gzip" => gunzip(&body),
            _ => body,
        };
        assert!(
            String::from_utf8(html).unwrap().contains("</html>"),
            "{accept}: a whole page"
        );
    }
    // Refusing every coding, identity included: 406 Not Acceptable (RFC
    // 9110 §12.5.3 allows it; the compression middleware says so first).
    let (s, ..) = get(&app, &path, Some("identity;q=0, *;q=0"), None).await;
    assert_eq!(s, 406);
}

#[tokio::test]
async fn head_in_brotli_answers_like_get_without_a_body() {
    let (app, _, _, tid) = scored().await;
    for path in crate::public::public_paths(&tid, 2) {
        let get = new_client()
            .get(app.url(&path))
            .header("accept-encoding", "br")
            .send()
            .await
            .unwrap();
        let (get_etag, get_len) = (header(&get, "etag"), get.bytes().await.unwrap().len());
        let head = new_client()
            .head(app.url(&path))
            .header("accept-encoding", "br")
            .send()
            .await
            .unwrap();
        assert_eq!(head.status().as_u16(), 200, "{path}");
        assert_eq!(header(&head, "content-encoding"), "br", "{path}");
        assert_eq!(header(&head, "etag"), get_etag, "{path}");
        assert_eq!(
            header(&head, "content-length"),
            get_len.to_string(),
            "{path}: the length of the brotli bytes"
        );
        assert!(head.headers().get("set-cookie").is_none(), "{path}");
        assert!(head.bytes().await.unwrap().is_empty(), "{path}: no body");
    }
}

#[tokio::test]
async fn a_change_gives_new_compressed_pages() {
    let (app, _, _, tid) = scored().await;
    let path = format!("/t/{tid}/pairs/3");
    let (_, _, before_etag, before) = get(&app, &path, Some("br"), None).await;
    assert!(!String::from_utf8(unbrotli(&before))
        .unwrap()
        .contains("slow play"));
    // A warning given at the desk: a write, a new revision.
    let pid = crate::peek::pair_id(&app, tid.parse().unwrap(), 3).to_string();
    let res = app
        .browser
        .penalty(&tid, &pid, "warning", "", "slow play")
        .await;
    assert_eq!(res.status().as_u16(), 303, "warning given");
    let (s, enc, after_etag, after) = get(&app, &path, Some("br"), Some(&before_etag)).await;
    assert_eq!(
        (s, enc.as_str()),
        (200, "br"),
        "the old ETag no longer matches"
    );
    assert_ne!(after_etag, before_etag);
    let html = String::from_utf8(unbrotli(&after)).unwrap();
    assert!(html.contains("slow play"), "the new page, compressed anew");
    let (_, _, _, plain) = get(&app, &path, None, None).await;
    assert_eq!(html.as_bytes(), &plain[..]);
}

/// The parsed sheets are kept between revisions (`db::export`): a
/// corrected sheet must show at once, on every public page, never the
/// version parsed before.
/// The most MP any pair has, from the public standings JSON.
async fn best_mp(app: &TestApp, tid: &str) -> i64 {
    let url = app.url(&format!("/api/v1/tournaments/{tid}/standings"));
    let v: serde_json::Value = crate::helpers::json_of(new_client().get(url)).await;
    v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["mp"].as_i64().unwrap())
        .max()
        .unwrap()
}

#[tokio::test]
async fn a_corrected_sheet_shows_at_once_on_the_public_pages() {
    let (app, dora, t) = started(6).await;
    let id = tid(&t);
    let table = tables_of(&app, 1)[0];
    post_sheet(&dora, &t, 1, table, &sheet(120, 90)).await;
    // NS 3 × (120 + 300).
    assert_eq!(best_mp(&app, id).await, 1260);
    let f = correction(130, 1, "ricontati");
    assert_eq!(
        post_sheet(&dora, &t, 1, table, &f).await.status().as_u16(),
        303
    );
    assert_eq!(
        best_mp(&app, id).await,
        1290,
        "the corrected sheet, not the memo"
    );
    // And back: the text of the first version again, under a new version.
    let f = correction(120, 2, "come prima");
    assert_eq!(
        post_sheet(&dora, &t, 1, table, &f).await.status().as_u16(),
        303
    );
    assert_eq!(best_mp(&app, id).await, 1260);
}

#[tokio::test]
async fn two_databases_in_one_process_never_share_a_sheet() {
    // Both fresh databases give their first sheet the same id and version:
    // what the public pages know of one says nothing about the other.
    let (a, dora_a, t_a) = started(6).await;
    let (b, dora_b, t_b) = started(6).await;
    post_sheet(&dora_a, &t_a, 1, tables_of(&a, 1)[0], &sheet(120, 90)).await;
    // NS 3 × (120 + 300).
    assert_eq!(best_mp(&a, tid(&t_a)).await, 1260);
    post_sheet(&dora_b, &t_b, 1, tables_of(&b, 1)[0], &sheet(150, 90)).await;
    assert_eq!(best_mp(&b, tid(&t_b)).await, 1350, "b's own sheet");
    assert_eq!(best_mp(&a, tid(&t_a)).await, 1260, "a's own sheet");
}
