//! The pages players look for (issue 12, parts 4 and 5): where do I sit,
//! round results, the prize list, the hall screen, the revision check, and
//! honest labels at every stage. Each goes through the public cache: ETag,
//! 304, HEAD, no cookie.

use crate::helpers::tid_of;
use serde_json::{json, Value};

use crate::helpers::{header, new_client, Browser, TestApp};
use crate::scoring::{at_a_table, pair_id, post_sheet, score_round, sheet, started, tables_of};

/// A visitor without cookies: (status, ETag, Location, body).
async fn visit(
    app: &TestApp,
    path: &str,
    lang: Option<&str>,
    etag: Option<&str>,
) -> (u16, String, String, String) {
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let mut req = client.get(app.url(path));
    if let Some(l) = lang {
        req = req.header("accept-language", l);
    }
    if let Some(e) = etag {
        req = req.header("if-none-match", e);
    }
    let res = req.send().await.unwrap();
    assert!(
        res.headers().get("set-cookie").is_none(),
        "GET {path} sets a cookie"
    );
    let status = res.status().as_u16();
    let (etag, location) = (header(&res, "etag"), header(&res, "location"));
    (status, etag, location, res.text().await.unwrap())
}

async fn page(app: &TestApp, path: &str) -> String {
    let (status, _, _, body) = visit(app, path, None, None).await;
    assert_eq!(status, 200, "GET {path}");
    body
}

/// A penalty on pair number `pair` in round 1 (see `Browser::penalty`).
async fn penalty(
    dora: &Browser,
    app: &TestApp,
    tid: i64,
    pair: i32,
    kind_amount_reason: [&str; 3],
) {
    let [kind, amount, reason] = kind_amount_reason;
    let res = dora
        .penalty(&tid, pair_id(app, pair), kind, amount, reason)
        .await;
    assert_eq!(res.status().as_u16(), 303, "penalty given");
}

#[tokio::test]
async fn where_do_i_sit_finds_a_pair_by_surname_or_number() {
    let (app, _dora, t) = started(6).await;
    let tid = tid_of(&t);
    // The tournament page carries the search: a plain GET form.
    let home = page(&app, &format!("/t/{tid}")).await;
    assert!(
        home.contains(&format!("action=\"/t/{tid}/find\"")) && home.contains("method=\"get\""),
        "{home}"
    );
    // One pair: straight to its card, by surname, by number, with '#'.
    for q in ["rossi3", "Rossi3", "3", "%233", "bianchi3+luca"] {
        let (status, _, location, _) =
            visit(&app, &format!("/t/{tid}/find?q={q}"), None, None).await;
        assert_eq!(status, 303, "q={q}");
        assert_eq!(location, format!("/t/{tid}/pairs/3"), "q={q}");
    }
    // The card says where the pair sits now, in large type at the top.
    let table = tables_of(&app, 1)
        .into_iter()
        .find(|&tn| {
            let (ns, ew) = crate::peek::seat(&app, tid, 1, tn);
            ns == 3 || ew == 3
        })
        .expect("pair 3 is seated");
    let (ns, _) = crate::peek::seat(&app, tid, 1, table);
    let card = page(&app, &format!("/t/{tid}/pairs/3")).await;
    let hero = &card[card.find("seat-hero").expect("the seat at the top")..];
    let hero = &hero[..hero.find("</section>").unwrap()];
    assert!(
        hero.contains(&format!("Tavolo <strong>{table}</strong>")),
        "{hero}"
    );
    let line = if ns == 3 {
        "NS · linea fissa"
    } else {
        "EO · linea mobile"
    };
    assert!(hero.contains(line), "{hero}");
    assert!(card.find("seat-hero") < card.find("<h1>"), "the seat first");
    // English.
    let (_, _, _, en) = visit(&app, &format!("/t/{tid}/pairs/3"), Some("en"), None).await;
    let line_en = if ns == 3 {
        "NS · fixed line"
    } else {
        "EW · moving line"
    };
    assert!(en.contains(&format!("Table <strong>{table}</strong>")) && en.contains(line_en));
    // Several pairs: a short list to choose from.
    let (status, _, _, list) = visit(&app, &format!("/t/{tid}/find?q=maria"), None, None).await;
    assert_eq!(status, 200);
    for n in 1..=6 {
        assert!(
            list.contains(&format!("href=\"/t/{tid}/pairs/{n}\"")),
            "{list}"
        );
    }
    assert!(list.contains("Più coppie corrispondono"));
    // None: a clear message, in either language.
    let (status, _, _, none) = visit(&app, &format!("/t/{tid}/find?q=zorro"), None, None).await;
    assert_eq!(status, 200);
    assert!(
        none.contains("Nessuna coppia trovata per «zorro»"),
        "{none}"
    );
    let (_, _, _, none) = visit(&app, &format!("/t/{tid}/find?q=99"), Some("en"), None).await;
    assert!(none.contains("No pair found for «99»"), "{none}");
    // Empty, hostile or absurd input: a page, never an error.
    let long = "x".repeat(5000);
    for q in ["", "%3Cscript%3E", long.as_str(), "%FF%FE", "'%20OR%201=1"] {
        let (status, _, _, body) = visit(&app, &format!("/t/{tid}/find?q={q}"), None, None).await;
        assert_eq!(status, 200, "q={}", &q[..q.len().min(20)]);
        assert!(!body.contains("<script>"), "escaped");
    }
    // The search answers 304 to its ETag, and HEAD like GET.
    let path = format!("/t/{tid}/find?q=maria");
    let (_, etag, _, body) = visit(&app, &path, None, None).await;
    assert!(etag.starts_with('"'));
    let (status, _, _, _) = visit(&app, &path, None, Some(&etag)).await;
    assert_eq!(status, 304);
    let head = new_client().head(app.url(&path)).send().await.unwrap();
    assert_eq!(head.status().as_u16(), 200);
    assert_eq!(header(&head, "content-length"), body.len().to_string());
    assert!(head.headers().get("set-cookie").is_none());
    // Another search, another ETag.
    let (_, other, _, _) = visit(&app, &format!("/t/{tid}/find?q=luca"), None, None).await;
    assert_ne!(other, etag);
    // An unknown tournament: 404.
    let (status, _, _, _) = visit(&app, "/t/999999/find?q=rossi", None, None).await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn labels_stay_honest_from_the_draw_to_the_close() {
    let (app, dora, t) = started(6).await;
    let tid = tid_of(&t);
    let home = format!("/t/{tid}");
    let prizes = format!("/t/{tid}/prizes");
    // Round 1 drawn, no result: no "after round 1", no pair wins anything.
    let html = page(&app, &home).await;
    assert!(html.contains("nessun risultato ancora"), "{html}");
    assert!(!html.contains("dopo il turno"));
    let p = page(&app, &prizes).await;
    assert!(p.contains("In palio") && p.contains("Nessun risultato ancora"));
    assert!(!p.contains("Rossi"), "nobody's prize yet: {p}");
    // 6 × 20 € × 70 % = 84 €, the "1: 100" tier: in Italian money format.
    assert!(p.contains("84,00\u{a0}€"), "{p}");
    let (_, _, _, en) = visit(&app, &prizes, Some("en"), None).await;
    assert!(en.contains("€84.00") && en.contains("At stake"), "{en}");
    // One table of round 1 counts: round 1 in play, its result shown.
    let tables = tables_of(&app, 1);
    post_sheet(&dora, &t, 1, tables[0], &sheet(100, 90)).await;
    let html = page(&app, &home).await;
    assert!(html.contains("turno 1 in corso"), "{html}");
    let r1 = page(&app, &format!("/t/{tid}/rounds/1")).await;
    assert!(
        r1.contains("Turno in corso") && r1.contains("(1/3)"),
        "{r1}"
    );
    // NS 3 × 400 = 1200, EW 3 × 70 = 210: difference 990 → 17–3.
    let first = &r1[r1.find(&format!("id=\"table-{}\"", tables[0])).unwrap()..];
    let first = &first[..first.find("</li>").unwrap()];
    assert!(first.contains("1.200") && first.contains("210"), "{first}");
    assert!(first.contains("<strong>17</strong>") && first.contains("<strong>3</strong>"));
    let second = &r1[r1.find(&format!("id=\"table-{}\"", tables[1])).unwrap()..];
    let second = &second[..second.find("</li>").unwrap()];
    assert!(
        second.contains("in corso") && !second.contains("<td class=\"num\"><strong>"),
        "{second}"
    );
    // Every table: after round 1; prizes provisional with pairs.
    for &tn in &tables[1..] {
        post_sheet(&dora, &t, 1, tn, &sheet(100, 90)).await;
    }
    let html = page(&app, &home).await;
    assert!(
        html.contains("dopo il turno 1<") || html.contains("dopo il turno 1 "),
        "{html}"
    );
    assert!(!html.contains("in corso"));
    let p = page(&app, &prizes).await;
    assert!(
        p.contains("Provvisorio.") && p.contains("Premio provvisorio"),
        "{p}"
    );
    assert!(p.contains("Rossi"), "the pairs placed now");
    assert!(!p.contains("Premi definitivi"));
    // Round 2 drawn: after round 1 · round 2 in play; the screen shows its seating.
    let res = dora.confirm(&t, "rounds", &[]).await;
    assert_eq!(res.status().as_u16(), 303);
    let html = page(&app, &home).await;
    assert!(
        html.contains("dopo il turno 1 · turno 2 in corso"),
        "{html}"
    );
    let (_, _, _, en) = visit(&app, &home, Some("en"), None).await;
    assert!(en.contains("after round 1 · round 2 in play"));
    let screen = page(&app, &format!("/t/{tid}/screen")).await;
    assert!(screen.contains("Posti · Turno 2"), "{screen}");
    assert!(screen.contains("dopo il turno 1 · turno 2 in corso"));
    // The round links: from the standings and from the pair cards.
    assert!(html.contains(&format!("href=\"/t/{tid}/rounds/1\"")));
    assert!(html.contains(&format!("href=\"/t/{tid}/rounds/2\"")));
    assert!(html.contains(&format!("href=\"/t/{tid}/prizes\"")));
    assert!(html.contains(&format!("href=\"/t/{tid}/screen\"")));
    let card = page(&app, &format!("/t/{tid}/pairs/1")).await;
    assert!(
        card.contains(&format!("/t/{tid}/rounds/1#table-")),
        "{card}"
    );
    // Play on to the close.
    for round in 2..=4u32 {
        if round > 2 {
            let res = dora.confirm(&t, "rounds", &[]).await;
            assert_eq!(res.status().as_u16(), 303);
        }
        for tn in tables_of(&app, round as i32) {
            post_sheet(&dora, &t, round, tn, &sheet(100 + 10 * tn as i64, 90)).await;
        }
    }
    let html = page(&app, &home).await;
    assert!(html.contains("dopo il turno 4"));
    let res = dora.confirm(&t, "close", &[]).await;
    assert_eq!(res.status().as_u16(), 303);
    let html = page(&app, &home).await;
    assert!(html.contains("classifica finale dopo il turno 4"), "{html}");
    let p = page(&app, &prizes).await;
    assert!(
        p.contains("Premi definitivi") && !p.contains("rovvisori"),
        "{p}"
    );
    assert!(
        p.contains("84,00\u{a0}€") || p.contains("42,00\u{a0}€"),
        "{p}"
    );
    // A finished tournament: no seat to show, no polling script.
    let card = page(&app, &format!("/t/{tid}/pairs/1")).await;
    assert!(!card.contains("seat-hero") && !card.contains("live."));
    let screen = page(&app, &format!("/t/{tid}/screen")).await;
    assert!(!screen.contains("Posti ·"), "no seating after the close");
}

#[tokio::test]
async fn a_tables_result_shows_only_once_its_sheet_counts() {
    let (app, _dora, _t, tid, table) = at_a_table(6).await;
    let (ns, ew) = crate::peek::seat(&app, tid, 1, table);
    let code = crate::peek::table_code(&app, tid, table);
    let path = format!("/t/{tid}/rounds/1");
    let (_, etag, _, before) = visit(&app, &path, None, None).await;
    let (_, rev_etag, _, rev) = visit(&app, &format!("/t/{tid}/rev"), None, None).await;
    let rev: Value = serde_json::from_str(&rev).unwrap();
    // The NS pair enters its sheet: not confirmed, it does not count.
    let res = new_client()
        .post(app.url(&format!("/api/v1/score/{code}/sheet")))
        .json(&json!({"pair_code": crate::peek::pair_code(&app, tid, ns).unwrap(), "round": 1, "sheet": crate::table_side::sheet(100, 90)}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 200, "{}", res.text().await.unwrap());
    let (_, _, _, entered) = visit(&app, &path, None, None).await;
    let row = |html: &str| {
        let s = &html[html.find(&format!("id=\"table-{table}\"")).unwrap()..];
        s[..s.find("</li>").unwrap()].to_string()
    };
    assert!(!row(&entered).contains("1.200"), "{}", row(&entered));
    assert!(row(&entered).contains("in corso"));
    assert!(!row(&before).contains("1.200"));
    // The EW pair confirms: it counts, the revision moved, the page shows it.
    let res = new_client()
        .post(app.url(&format!("/api/v1/score/{code}/confirm")))
        .json(&json!({"pair_code": crate::peek::pair_code(&app, tid, ew).unwrap(), "agree": true, "entry_version": 1}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 200, "{}", res.text().await.unwrap());
    let (status, new_rev_etag, _, new_rev) =
        visit(&app, &format!("/t/{tid}/rev"), None, Some(&rev_etag)).await;
    assert_eq!(status, 200, "the revision check sees the change");
    assert_ne!(new_rev_etag, rev_etag);
    let new_rev: Value = serde_json::from_str(&new_rev).unwrap();
    assert!(new_rev["revision"].as_i64() > rev["revision"].as_i64());
    let (status, _, _, confirmed) = visit(&app, &path, None, Some(&etag)).await;
    assert_eq!(status, 200, "not a 304 after the change");
    assert!(row(&confirmed).contains("1.200") && row(&confirmed).contains("210"));
    assert!(row(&confirmed).contains("<strong>17</strong>"));
    // Nothing changed since: 304 to the current ETags.
    let (_, cur, _, _) = visit(&app, &path, None, None).await;
    assert_eq!(visit(&app, &path, None, Some(&cur)).await.0, 304);
    assert_eq!(
        visit(&app, &format!("/t/{tid}/rev"), None, Some(&new_rev_etag))
            .await
            .0,
        304
    );
}

#[tokio::test]
async fn new_public_pages_revalidate_answer_head_and_set_no_cookie() {
    let (app, dora, t) = started(6).await;
    let tid = tid_of(&t);
    score_round(&app, &dora, &t, 1, 100, 90).await;
    let paths = [
        format!("/t/{tid}/rounds/1"),
        format!("/t/{tid}/prizes"),
        format!("/t/{tid}/screen"),
        format!("/t/{tid}/rev"),
        format!("/t/{tid}/find?q=bianchi"),
    ];
    let mut etags = Vec::new();
    for path in &paths {
        let res = new_client().get(app.url(path)).send().await.unwrap();
        assert_eq!(res.status().as_u16(), 200, "{path}");
        assert_eq!(header(&res, "cache-control"), "no-cache", "{path}");
        assert!(res.headers().get("set-cookie").is_none(), "{path}");
        assert!(
            header(&res, "content-security-policy").contains("script-src 'self'"),
            "{path}"
        );
        let etag = header(&res, "etag");
        assert!(
            etag.starts_with('"') && etag.ends_with('"'),
            "{path}: {etag}"
        );
        let body = res.bytes().await.unwrap();
        // No inline script: the CSP forbids it; the script is a static file.
        let text = String::from_utf8_lossy(&body);
        assert!(!text.contains("<script>"), "{path}: an inline script");
        let res = new_client()
            .get(app.url(path))
            .header("if-none-match", &etag)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status().as_u16(), 304, "{path}");
        let head = new_client().head(app.url(path)).send().await.unwrap();
        assert_eq!(head.status().as_u16(), 200, "HEAD {path}");
        assert_eq!(
            header(&head, "content-length"),
            body.len().to_string(),
            "HEAD {path}"
        );
        assert!(head.headers().get("set-cookie").is_none());
        assert!(head.bytes().await.unwrap().is_empty());
        etags.push(etag);
    }
    // Pages that follow the tournament link the polling script and say
    // where to poll; the revision check is tiny JSON.
    let screen = page(&app, &format!("/t/{tid}/screen")).await;
    assert!(screen.contains("/static/live.") && screen.contains("data-rev-url"));
    let rev: Value = serde_json::from_str(&page(&app, &format!("/t/{tid}/rev")).await).unwrap();
    assert!(rev["revision"].as_i64().unwrap() > 0);
    assert!(screen.contains(&format!("data-rev=\"{}\"", rev["revision"])));
    let js = new_client()
        .get(app.url("/static/live.js"))
        .send()
        .await
        .unwrap();
    assert_eq!(js.status().as_u16(), 200);
    assert!(js.text().await.unwrap().contains("data-rev-url"));
    // A write: every page's old ETag now gets the new content.
    penalty(&dora, &app, tid, 2, ["warning", "", "in ritardo"]).await;
    for (path, etag) in paths.iter().zip(&etags) {
        let (status, new, _, _) = visit(&app, path, None, Some(etag)).await;
        assert_eq!(status, 200, "{path} after a write");
        assert_ne!(&new, etag, "{path}");
    }
    let r1 = page(&app, &format!("/t/{tid}/rounds/1")).await;
    assert!(r1.contains("in ritardo"), "the new warning shows");
    // Unknown tournaments and rounds: 404, never a 5xx.
    for path in [
        "/t/999999/rounds/1".to_string(),
        "/t/999999/prizes".into(),
        "/t/999999/screen".into(),
        "/t/999999/rev".into(),
        format!("/t/{tid}/rounds/9"),
        format!("/t/{tid}/rounds/0"),
    ] {
        assert_eq!(visit(&app, &path, None, None).await.0, 404, "{path}");
    }
}

#[tokio::test]
async fn only_penalties_that_count_reach_the_new_pages_and_never_the_clock() {
    let (app, dora, t) = started(6).await;
    let tid = tid_of(&t);
    score_round(&app, &dora, &t, 1, 100, 90).await;
    penalty(&dora, &app, tid, 1, ["warning", "", "in ritardo"]).await;
    penalty(&dora, &app, tid, 1, ["warning", "", "parla al compagno"]).await;
    penalty(&dora, &app, tid, 2, ["mp", "100", "scambio di carte"]).await;
    let last = crate::peek::penalty_for(&app, "parla al compagno");
    let res = dora.withdraw_penalty(&tid, last, "errore del tavolo").await;
    assert_eq!(res.status().as_u16(), 303);
    // The director starts the round clock of round 2: the public never sees it.
    let res = dora.confirm(&t, "rounds", &[]).await;
    assert_eq!(res.status().as_u16(), 303);
    let round2 = format!("{t}/rounds/2");
    let res = dora
        .submit(&round2, &format!("{round2}/clock"), &[("action", "start")])
        .await;
    assert_eq!(res.status().as_u16(), 303, "the clock runs");
    let r1 = page(&app, &format!("/t/{tid}/rounds/1")).await;
    assert!(r1.contains("in ritardo"), "the warning that counts");
    assert!(
        r1.contains("scambio di carte") && r1.contains("(−100)"),
        "{r1}"
    );
    for path in [
        format!("/t/{tid}/rounds/1"),
        format!("/t/{tid}/rounds/2"),
        format!("/t/{tid}/prizes"),
        format!("/t/{tid}/screen"),
        format!("/t/{tid}/find?q=rossi"),
    ] {
        let body = page(&app, &path).await;
        for hidden in [
            "parla al compagno",
            "errore del tavolo",
            "dora",
            "ritirat",
            "data-ends-at",
            "clock",
        ] {
            assert!(!body.contains(hidden), "{path} shows {hidden:?}");
        }
    }
    // The MP penalty is in the result: pair 2's MP 1200 − 100.
    let table = tables_of(&app, 1)
        .into_iter()
        .find(|&tn| {
            let (ns, ew) = crate::peek::seat(&app, tid, 1, tn);
            ns == 2 || ew == 2
        })
        .unwrap();
    let (ns, _) = crate::peek::seat(&app, tid, 1, table);
    let s = &r1[r1.find(&format!("id=\"table-{table}\"")).unwrap()..];
    let s = &s[..s.find("</li>").unwrap()];
    if ns == 2 {
        assert!(
            s.contains("1.100 <small class=\"pen\">(−100)</small>"),
            "{s}"
        );
    } else {
        assert!(s.contains("110 <small class=\"pen\">(−100)</small>"), "{s}");
    }
}

#[tokio::test]
async fn the_prize_list_pays_the_places_that_exist() {
    // A scheme of 3 places, 2 pairs registered: 2 places at stake (RULES.md §10).
    let (app, dora) = crate::tournaments::with_director().await;
    let t = app
        .tournament("Serata piccola")
        .with(&[("payout", "1: 50 30 20"), ("entry_fee", "1000")])
        .pairs(2)
        .build()
        .await
        .path;
    let tid = tid_of(&t);
    let p = crate::helpers::text_of(new_client().get(dora.url(&format!("/t/{tid}/prizes")))).await;
    assert!(
        p.contains("<td>2°</td>") && !p.contains("<td>3°</td>"),
        "{p}"
    );
    // 2 × 1.000 € × 70 % = 1.400 €: 62,5 % and 37,5 % of it.
    assert!(p.contains("1.400,00\u{a0}€"), "{p}");
    assert!(
        p.contains("875,00\u{a0}€") && p.contains("525,00\u{a0}€"),
        "{p}"
    );
    // A draft: the search says the tables are not drawn yet.
    let f = new_client()
        .get(dora.url(&format!("/t/{tid}/find?q=rossi1")))
        .send()
        .await
        .unwrap();
    assert_eq!(f.status().as_u16(), 200);
    assert!(f
        .text()
        .await
        .unwrap()
        .contains("non sono ancora stati sorteggiati"));
}
