//! One vocabulary and registration without retyping (issue 14, items 5 and
//! 8): the player directory on the pair form (by surname, by card, without
//! JavaScript, directors only), money and numbers as each language writes
//! them, CSV headers in the page's language, Italian staff pages with no
//! English word.

use crate::helpers::tid_of;
use crate::helpers::{location, spawn_app, Browser, TestApp};
use crate::scoring::started;
use crate::tournaments::{edit_through_the_form, new_through_the_form, with_director};

/// Registers one pair through the form.
async fn register(b: &Browser, t: &str, p1: [&str; 4], p2: [&str; 4]) {
    let res = b
        .add_pair(
            t,
            &[
                ("p1_surname", p1[0]),
                ("p1_name", p1[1]),
                ("p1_card", p1[2]),
                ("p1_club", p1[3]),
                ("p2_surname", p2[0]),
                ("p2_name", p2[1]),
                ("p2_card", p2[2]),
                ("p2_club", p2[3]),
            ],
        )
        .await;
    assert_eq!(res.status().as_u16(), 303, "{}", res.text().await.unwrap());
}

async fn json(b: &Browser, path: &str) -> serde_json::Value {
    let res = b.get(path).await;
    assert_eq!(res.status().as_u16(), 200, "{path}");
    res.json().await.unwrap()
}

fn surnames(v: &serde_json::Value) -> Vec<String> {
    v["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["surname"].as_str().unwrap().to_string())
        .collect()
}

/// Last week's tournament with two pairs, and this week's, empty.
async fn two_weeks(app: &TestApp, dora: &Browser) -> (String, String) {
    let last = app.tournament("Settimana scorsa").build().await.path;
    for (p1, p2) in [
        (
            ["Rossi", "Mario", "FIB-1234", "Circolo del Sole"],
            ["D'Alò", "Anna", "FIB-5678", "Circolo del Sole"],
        ),
        (
            ["Brambilla Rossi", "Carla", "", "Tennis Club"],
            ["Verdi", "Luigi", "FIB-9999", ""],
        ),
    ] {
        register(dora, &last, p1, p2).await;
    }
    let this = app.tournament("Questa settimana").build().await.path;
    (last, this)
}

#[tokio::test]
async fn the_directory_finds_players_by_surname_and_by_card() {
    let (app, dora) = with_director().await;
    let (_, this) = two_weeks(&app, &dora).await;
    let tid = tid_of(&this);
    let by_surname = json(&dora, &format!("/director/t/{tid}/players.json?q=ROSS")).await;
    // Surnames starting with the query first, then those containing it.
    assert_eq!(surnames(&by_surname), ["Rossi", "Brambilla Rossi"]);
    assert_eq!(by_surname["players"][0]["card"], "FIB-1234");
    assert_eq!(by_surname["players"][0]["club"], "Circolo del Sole");
    let by_card = json(&dora, &format!("/director/t/{tid}/players.json?q=fib-56")).await;
    assert_eq!(surnames(&by_card), ["D'Alò"]);
    // Wildcards are taken literally; one letter does not search.
    let none = json(&dora, &format!("/director/t/{tid}/players.json?q=%25%25")).await;
    assert!(surnames(&none).is_empty(), "{none}");
    let short = json(&dora, &format!("/director/t/{tid}/players.json?q=r")).await;
    assert!(surnames(&short).is_empty());
    // The same search as a page: a plain form, results in a table.
    let html = dora
        .get_html(&format!("/director/t/{tid}/players?q=9999"))
        .await;
    assert!(html.contains("Verdi") && html.contains("Luigi"), "{html}");
    assert!(!html.contains("Mario"));
}

#[tokio::test]
async fn without_javascript_a_pick_fills_the_pair_form_seat_by_seat() {
    let (app, dora) = with_director().await;
    let (_, this) = two_weeks(&app, &dora).await;
    let tid = tid_of(&this);
    // The pair form offers the search as a plain GET form.
    let form = dora.get_html(&format!("/director/t/{tid}/pairs/new")).await;
    assert!(
        form.contains(&format!("action=\"/director/t/{tid}/players\"")),
        "{form}"
    );
    // Search, pick "Rossi" as player 1.
    let results = dora
        .get_html(&format!("/director/t/{tid}/players?q=rossi"))
        .await;
    let pick1 = pick_links(&results, "Mario").0;
    let form = dora.get_html(&pick1).await;
    assert!(form.contains("value=\"Rossi\""), "{form}");
    assert!(form.contains("value=\"FIB-1234\""));
    // The search form carries player 1 on; pick Verdi as player 2.
    assert!(form.contains("type=\"hidden\" name=\"p1_surname\" value=\"Rossi\""));
    let results = dora
        .get_html(&format!(
            "/director/t/{tid}/players?q=verdi&p1_surname=Rossi&p1_name=Mario&p1_card=FIB-1234&p1_club=Circolo+del+Sole"
        ))
        .await;
    let pick2 = pick_links(&results, "Luigi").1;
    let form = dora.get_html(&pick2).await;
    for v in ["Rossi", "Mario", "FIB-1234", "Verdi", "Luigi", "FIB-9999"] {
        assert!(form.contains(&format!("value=\"{v}\"")), "{v}: {form}");
    }
    // Saving the filled-in form registers the pair.
    let fields: Vec<(String, String)> =
        serde_urlencoded::from_str(pick2.split_once('?').unwrap().1).unwrap();
    let refs: Vec<(&str, &str)> = fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let res = dora.submit(&pick2, &format!("{this}/pairs"), &refs).await;
    assert_eq!(res.status().as_u16(), 303);
    let saved = crate::peek::pair_players(&app, tid);
    assert_eq!(
        saved,
        [(
            "Rossi".into(),
            "FIB-1234".into(),
            "Verdi".into(),
            "FIB-9999".into()
        )]
    );
}

/// The (player 1, player 2) pick links of the result row naming `name`.
fn pick_links(html: &str, name: &str) -> (String, String) {
    let row_start = html.find(&format!("<td>{name}</td>")).expect("result row");
    let row = &html[row_start..];
    let row = &row[..row.find("</tr>").unwrap()];
    let hrefs: Vec<String> = row
        .split("href=\"")
        .skip(1)
        .map(|s| {
            s[..s.find('"').unwrap()]
                .replace("&#38;", "&")
                .replace("&amp;", "&")
        })
        .collect();
    assert_eq!(hrefs.len(), 2, "{row}");
    (hrefs[0].clone(), hrefs[1].clone())
}

#[tokio::test]
async fn the_directory_is_for_the_tournaments_directors_only() {
    let (app, dora) = with_director().await;
    let (_, this) = two_weeks(&app, &dora).await;
    let tid = tid_of(&this);
    // Anonymous: to the login page.
    let anon = app.another_browser();
    let res = anon
        .get(&format!("/director/t/{tid}/players.json?q=rossi"))
        .await;
    assert_eq!(res.status().as_u16(), 303);
    assert!(location(&res).starts_with("/login"));
    // A referee: refused.
    app.create_user("rita", "referee", "referee pass").await;
    let rita = app.another_browser();
    rita.login("rita", "referee pass").await;
    let res = rita
        .get(&format!("/director/t/{tid}/players?q=rossi"))
        .await;
    assert_eq!(res.status().as_u16(), 403);
    // Another director: neither the tournament nor Dora's players exist.
    app.create_user("dino", "director", "director pass").await;
    let dino = app.another_browser();
    dino.login("dino", "director pass").await;
    let res = dino
        .get(&format!("/director/t/{tid}/players.json?q=rossi"))
        .await;
    assert_eq!(res.status().as_u16(), 404);
    let own = app
        .tournament("Altro circolo")
        .owner("dino")
        .build()
        .await
        .path;
    let found = json(
        &dino,
        &format!("/director/t/{}/players.json?q=rossi", tid_of(&own)),
    )
    .await;
    assert!(surnames(&found).is_empty(), "{found}");
    // The public never sees it.
    let html = anon.get_html(&format!("/t/{tid}")).await;
    assert!(!html.contains("FIB-1234"));
}

/// A tournament with a fee of 250 € and 8 pairs: a pool of 1.400,00 €.
async fn expensive(app: &TestApp) -> String {
    let t = app
        .tournament("Gran premio")
        .set("entry_fee", "250")
        .pairs(8)
        .build()
        .await
        .path;
    t
}

#[tokio::test]
async fn money_is_written_as_each_language_writes_it() {
    let (app, dora) = with_director().await;
    let t = expensive(&app).await;
    let tid = tid_of(&t);
    let anon = app.another_browser();
    let it = anon.get_html(&format!("/t/{tid}")).await;
    assert!(it.contains("250,00\u{a0}€"), "entry fee: {it}");
    assert!(it.contains("1.400,00\u{a0}€"), "pool");
    // The places the pool pays (8 entries: 60 % and 40 %).
    assert!(it.contains(">840,00<") && it.contains(">560,00<"), "{it}");
    assert!(!it.contains("€ 250") && !it.contains("250.00"));
    let director = dora.get_html(&t).await;
    assert!(director.contains("250,00\u{a0}€"), "{director}");
    // The settings form shows the fee as Italians type it, and saving it
    // unchanged keeps it.
    let edit = dora.get_html(&format!("{t}/edit")).await;
    assert!(edit.contains("value=\"250,00\""), "{edit}");
    let res = edit_through_the_form(&dora, &t, "Gran premio", &[("entry_fee", "250,00")]).await;
    assert_eq!(res.status().as_u16(), 303);
    assert!(dora.get_html(&t).await.contains("250,00\u{a0}€"));

    anon.get("/lang/en?next=/").await;
    dora.get("/lang/en?next=/").await;
    let en = anon.get_html(&format!("/t/{tid}")).await;
    assert!(en.contains("€250.00") && en.contains("€1,400.00"), "{en}");
    assert!(en.contains(">840.00<"));
    let director = dora.get_html(&t).await;
    assert!(director.contains("€250.00"), "{director}");
    let edit = dora.get_html(&format!("{t}/edit")).await;
    assert!(edit.contains("value=\"250.00\""), "{edit}");
}

#[tokio::test]
async fn csv_headers_follow_the_pages_language() {
    let (_app, dora, t) = started(8).await;
    let header = |body: String| -> String {
        body.trim_start_matches('\u{feff}')
            .lines()
            .next()
            .unwrap()
            .to_string()
    };
    let it = header(dora.get_html(&format!("{t}/standings.csv")).await);
    assert_eq!(
        it,
        "Posto;Coppia;Giocatore 1;Giocatore 2;PV;Differenza MP;MP;Turni giocati;Riposi;PV di penalità;Premio"
    );
    let sheets = header(dora.get_html(&format!("{t}/sheets.csv")).await);
    assert!(sheets.starts_with("Turno;Tavolo;"), "{sheets}");
    dora.get("/lang/en?next=/").await;
    let en = header(dora.get_html(&format!("{t}/standings.csv")).await);
    assert!(en.contains(";VP;") && !en.contains("PV"), "{en}");
}

/// Words of the English catalogs that no Italian page may show ("score"
/// and "staff" are Italian club words too: the glossary keeps them).
const ENGLISH_ONLY: &[&str] = &[
    "Pair",
    "Pairs",
    "Round",
    "Rounds",
    "Table",
    "Tables",
    "Hand",
    "Hands",
    "Save",
    "Settings",
    "Standings",
    "Penalty",
    "Penalties",
    "Withdraw",
    "Player",
    "Players",
    "Search",
    "Prize",
    "Entry",
    "Edit",
    "Print",
    "Referee",
    "Referees",
    "Director",
    "Users",
    "Close",
    "Start",
    "Sheet",
    "Sheets",
    "Check",
    "Checked",
    "Movement",
    "Seating",
    "Sign",
    "Log",
    "Tournament",
    "Tournaments",
    "New",
    "Back",
    "Add",
    "Remove",
    "Name",
    "Surname",
    "Club",
    "Card",
    "Date",
    "Venue",
    "fee",
    "pool",
    "the",
    "and",
    "of",
    "VP",
    "Yes",
    "No",
];

/// The words a person reads on a page: text outside tags, scripts and styles.
fn visible_words(html: &str) -> Vec<String> {
    let mut text = String::new();
    let mut rest = html;
    while let Some(i) = rest.find('<') {
        text.push_str(&rest[..i]);
        text.push(' ');
        let after = &rest[i..];
        let skip_to = if after.starts_with("<script") {
            after.find("</script>").map(|e| e + 9)
        } else if after.starts_with("<style") {
            after.find("</style>").map(|e| e + 8)
        } else {
            after.find('>').map(|e| e + 1)
        };
        match skip_to {
            Some(n) => rest = &after[n..],
            None => {
                rest = "";
            }
        }
    }
    text.push_str(rest);
    text.split(|c: char| !(c.is_alphanumeric() || c == '-'))
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

#[tokio::test]
async fn italian_staff_pages_are_wholly_italian() {
    let (app, dora, t) = started(8).await;
    let tid = tid_of(&t);
    // A settings change after the start, so the audit log lists settings.
    let res =
        edit_through_the_form(&dora, &t, "Serata del lunedì", &[("danish_form", "pure")]).await;
    assert_eq!(res.status().as_u16(), 303);
    let mut pages = vec![
        "/".to_string(),
        "/director/tournaments".to_string(),
        t.clone(),
        format!("{t}/edit"),
        format!("{t}/pairs/new"),
        format!("{t}/players?q=rossi"),
        format!("{t}/import"),
        format!("{t}/rounds/1"),
        format!("/desk/t/{tid}/rounds/1"),
        format!("/desk/t/{tid}/penalties"),
        format!("/desk/t/{tid}/audit"),
        format!("/desk/t/{tid}/rounds/1/tables/1"),
        format!("/desk/t/{tid}/rounds/1/score-cards"),
        format!("{t}/rounds/1/cards"),
        format!("{t}/movement-cards"),
        "/desk/seat-draw".to_string(),
        format!("/t/{tid}"),
    ];
    let mut leaks = Vec::new();
    let mut seen: Vec<(String, String)> = Vec::new();
    for page in pages.drain(..) {
        let res = dora.get(&page).await;
        assert_eq!(res.status().as_u16(), 200, "{page}");
        let html = res.text().await.unwrap();
        for w in visible_words(&html) {
            if ENGLISH_ONLY.contains(&w.as_str()) {
                leaks.push(format!("{page}: {w}"));
            }
        }
        seen.push((page, html));
    }
    let admin = app.another_browser();
    admin
        .login(crate::helpers::ADMIN, crate::helpers::ADMIN_PW)
        .await;
    seen.push(("/admin/users".into(), admin.get_html("/admin/users").await));
    for w in visible_words(&seen.last().unwrap().1) {
        if ENGLISH_ONLY.contains(&w.as_str()) {
            leaks.push(format!("/admin/users: {w}"));
        }
    }
    // And every word only the English catalogs have (4 letters or more,
    // without case).
    let words = |lang| -> std::collections::HashSet<String> {
        let c = burraco_td::i18n::try_catalog(lang).unwrap();
        c.keys()
            .flat_map(|k| visible_words(c.get(k).unwrap()))
            .filter(|w| w.chars().count() >= 4)
            .map(|w| w.to_lowercase())
            .collect()
    };
    let italian = words(burraco_td::i18n::Lang::It);
    let english_only: Vec<String> = words(burraco_td::i18n::Lang::En)
        .into_iter()
        .filter(|w| !italian.contains(w))
        .collect();
    assert!(english_only.len() > 100, "{english_only:?}");
    for (page, html) in &seen {
        for w in visible_words(html) {
            if english_only.contains(&w.to_lowercase()) {
                leaks.push(format!("{page}: {w}"));
            }
        }
    }
    leaks.dedup();
    assert!(
        leaks.is_empty(),
        "English words on Italian pages: {leaks:#?}"
    );
}

#[tokio::test]
async fn the_first_field_with_an_error_has_the_focus() {
    let (app, dora) = with_director().await;
    let t = app.tournament("Serata").build().await.path;
    let res = dora
        .add_pair(
            &t,
            &[("p1_surname", "Rossi"), ("p1_name", ""), ("p2_surname", "")],
        )
        .await;
    assert_eq!(res.status().as_u16(), 422);
    let html = res.text().await.unwrap();
    assert_eq!(html.matches(" autofocus").count(), 1, "{html}");
    let at = html.find(" autofocus").unwrap();
    let input = &html[html[..at].rfind("<input").unwrap()..at];
    assert!(input.contains("name=\"p1_name\""), "{input}");
}

/// The one `autofocus` of a page is on the input named `field`.
fn focus_is_on(html: &str, field: &str) {
    assert_eq!(html.matches(" autofocus").count(), 1, "{html}");
    let at = html.find(" autofocus").unwrap();
    let tag_start = html[..at].rfind('<').unwrap();
    let tag = &html[tag_start..at];
    assert!(tag.contains(&format!("name=\"{field}\"")), "{tag}");
}

#[tokio::test]
async fn the_settings_form_focuses_its_first_wrong_field() {
    let (_app, dora) = with_director().await;
    let mut wrong = vec![
        ("date", "2026-02-30"),
        ("entry_fee", "venti"),
        ("payout", "1: 60 30"),
    ];
    let res = new_through_the_form(&dora, "Serata", &wrong).await;
    assert_eq!(res.status().as_u16(), 422);
    focus_is_on(&res.text().await.unwrap(), "date");
    // Only the payout wrong: the focus goes there, past the good fields.
    wrong.extend([("date", "2026-11-20"), ("entry_fee", "20")]);
    let res = new_through_the_form(&dora, "Serata", &wrong).await;
    assert_eq!(res.status().as_u16(), 422);
    focus_is_on(&res.text().await.unwrap(), "payout");
}

#[tokio::test]
async fn hostile_searches_are_answered_not_crashed() {
    let (app, dora) = with_director().await;
    let (_, this) = two_weeks(&app, &dora).await;
    let tid = tid_of(&this);
    let long = "r".repeat(5000);
    for q in [
        long.as_str(),
        "%27%20OR%201%3D1--",
        "%5C%5C%5C",
        "%E2%80%AE%F0%9F%82%A1",
        "__",
        "%00%00%00",
    ] {
        let res = dora
            .get(&format!("/director/t/{tid}/players.json?q={q}"))
            .await;
        assert_eq!(res.status().as_u16(), 200, "{q}");
        let v: serde_json::Value = res.json().await.unwrap();
        assert!(surnames(&v).is_empty(), "{q}: {v}");
        let res = dora.get(&format!("/director/t/{tid}/players?q={q}")).await;
        assert_eq!(res.status().as_u16(), 200, "{q}");
    }
    // A NUL byte (an error to PostgreSQL) is dropped, not sent.
    let v = json(&dora, &format!("/director/t/{tid}/players.json?q=ROS%00SI")).await;
    assert_eq!(surnames(&v), ["Rossi", "Brambilla Rossi"]);
    // A tournament that does not exist: 404, not an empty list.
    let res = dora.get("/director/t/999999/players.json?q=rossi").await;
    assert_eq!(res.status().as_u16(), 404);
}

#[tokio::test]
async fn italian_presets_have_italian_names() {
    let app = spawn_app().await;
    app.setup_admin().await;
    let html = app.get_html("/director/tournaments/new").await;
    assert!(html.contains(">Codice di gara</option>"), "{html}");
    assert!(!html.contains(">classic</option>") && !html.contains(">codice</option>"));
}
