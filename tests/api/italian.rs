//! Italian without a slip (issue 31, item 5): every page and printout a
//! person reads — the director's, the desk's, the administrator's, the
//! public and the players' — of a pairs and a team tournament, running and
//! finished, and the CSV files meant for people, rendered in Italian, are
//! free of
//! - a raw catalog key shown as text (`teams.title`),
//! - an English message: the English side of a catalog entry that differs
//!   from its Italian side, shown as a whole text node ("Save"),
//! - an enum's or a stored field's code shown as text ("mitchell",
//!   "captain", "confirmed", "lineup"…),
//! - a number of four digits or more without the thousands separator
//!   (MP "7265", money "1400,00").
//!
//! The pages are found the way a person finds them: from a few starting
//! points, every link of the site is followed (GET only, no language
//! switch). Attributes, scripts, styles and URLs are not read; the codes
//! the tournaments hand out (table, pair and team codes) and the names the
//! test typed are not words.

use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};

use burraco_td::i18n::{try_catalog, Lang};

use crate::helpers::{location, tid_of, Browser, TestApp, ADMIN, ADMIN_PW};
use crate::scoring::{pair_id, play_rounds, post_sheet, sheet, started, tables_of};

use crate::table_side::{answer, codes, enter};
use crate::teams::{
    add_team, check_in_teams, code_of, new_team_tournament, play_round, start, team_ids,
};
use crate::tournaments::edit_through_the_form;

/// Codes the program stores or computes, that a page must say in words.
/// Words that are also Italian words of the catalogs are dropped from the
/// list (see [`Vocabulary::codes`]).
const CODES: &[&str] = &[
    // Movements, states, kinds.
    "mitchell",
    "danish",
    "danish_modified",
    "round_robin",
    "draft",
    "running",
    "finished",
    "pairs",
    "teams",
    // Roles, who acted, why tokens went.
    "admin",
    "director",
    "referee",
    "captain",
    "command line",
    "disabled",
    "role",
    // Sheet and table states.
    "open",
    "entered",
    "confirmed",
    "disputed",
    "adjusted",
    "missing",
    "desk",
    "closed",
    // Sheets, hands, lines.
    "closure",
    "stock_exhausted",
    "time_out",
    "stalemate",
    "full",
    "totals",
    "ns",
    "ew",
    "clean",
    "semi_clean",
    "dirty",
    "royal",
    "sequence",
    // Penalties, scoring methods, circuit points.
    "warning",
    "mp",
    "vp",
    "tables",
    "scale",
    "placing",
    "table",
    "modified",
    "classic",
    // The clock.
    "start",
    "pause",
    "resume",
    // Stored field names of the audit log.
    "lineup",
    "by",
    "matches",
    "no_shows",
    "team_scoring",
    "groups",
    "imported",
    "players",
    "team",
    "count",
    "because",
    "setup",
    "username",
    "label",
    "true",
    "false",
    "on",
    "off",
];

/// What the catalogs say, read once.
struct Vocabulary {
    families: BTreeSet<String>,
    keys: HashSet<String>,
    /// English messages without placeholders that no Italian message is.
    english: HashSet<String>,
    /// English messages with placeholders: their literal pieces.
    english_patterns: Vec<(String, Vec<String>)>,
    /// The glossary's English terms and line names ("VP", "EW") that are
    /// no Italian word: wrong even inside a longer text.
    english_terms: HashSet<String>,
    codes: HashSet<&'static str>,
}

fn normalise(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The literal pieces of a message around its `{placeholders}`.
fn pieces(message: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut depth = 0;
    for c in message.chars() {
        match c {
            '{' => {
                depth += 1;
                out.push(String::new());
            }
            '}' => depth -= 1,
            c if depth == 0 => out.last_mut().unwrap().push(c),
            _ => {}
        }
    }
    out.into_iter().map(|p| normalise(&p)).collect()
}

impl Vocabulary {
    fn read() -> Vocabulary {
        let it = try_catalog(Lang::It).unwrap();
        let en = try_catalog(Lang::En).unwrap();
        let keys: HashSet<String> = it.keys().chain(en.keys()).map(str::to_string).collect();
        let families = keys
            .iter()
            .filter_map(|k| k.split_once('.').map(|(f, _)| f.to_string()))
            .collect();
        let italian: HashSet<String> = it.keys().map(|k| normalise(it.get(k).unwrap())).collect();
        let italian_words: HashSet<String> = italian
            .iter()
            .flat_map(|m| words(m).into_iter().map(|w| w.to_string()))
            .collect();
        let mut english = HashSet::new();
        let mut english_patterns = Vec::new();
        for k in en.keys() {
            let value = normalise(en.get(k).unwrap());
            if it.get(k).map(normalise).as_deref() == Some(value.as_str())
                || italian.contains(&value)
                || !value.chars().any(char::is_alphabetic)
            {
                continue;
            }
            if value.contains('{') {
                let p = pieces(&value);
                let letters: usize = p
                    .iter()
                    .map(|x| x.chars().filter(|c| c.is_alphabetic()).count())
                    .sum();
                // A pattern needs words to recognise it by.
                if letters >= 8 {
                    english_patterns.push((k.to_string(), p));
                }
            } else {
                english.insert(value);
            }
        }
        let english_terms = en
            .keys()
            .filter(|k| k.starts_with("term.") || k.starts_with("rules.line."))
            .map(|k| en.get(k).unwrap())
            .filter(|v| words(v).len() == 1 && !italian_words.contains(*v))
            .map(str::to_string)
            .collect();
        let codes = CODES
            .iter()
            .copied()
            .filter(|c| !italian_words.contains(*c))
            .collect();
        Vocabulary {
            families,
            keys,
            english,
            english_patterns,
            english_terms,
            codes,
        }
    }

    /// What is wrong with one text node, as "kind: text".
    fn slips(&self, node: &str) -> Vec<String> {
        let mut out = Vec::new();
        if self.english.contains(node) {
            out.push(format!("English: {node:?}"));
        }
        for (key, p) in &self.english_patterns {
            if matches_pattern(node, p) {
                out.push(format!("English ({key}): {node:?}"));
            }
        }
        for token in node.split_whitespace() {
            // URLs, paths, addresses, times and commands are not words.
            let inner_colon = token.trim_end_matches(':').contains(':');
            if token.contains('/') || token.contains('@') || inner_colon || token.starts_with("--")
            {
                continue;
            }
            let bare = token.trim_matches(|c: char| !(c.is_alphanumeric() || c == '_'));
            if self.is_key(bare) {
                out.push(format!("raw key: {bare:?} in {node:?}"));
            }
            if let Some(n) = unseparated_number(bare) {
                out.push(format!("number without separator: {n:?} in {node:?}"));
            }
            for w in words(token) {
                if self.english_terms.contains(w) {
                    out.push(format!("English term: {w:?} in {node:?}"));
                }
                if self.codes.contains(w) {
                    out.push(format!("code: {w:?} in {node:?}"));
                }
            }
        }
        // Two-word codes.
        for c in self.codes.iter().filter(|c| c.contains(' ')) {
            if node.contains(*c) {
                out.push(format!("code: {c:?} in {node:?}"));
            }
        }
        out
    }

    fn is_key(&self, token: &str) -> bool {
        if self.keys.contains(token) {
            return true;
        }
        let Some((family, rest)) = token.split_once('.') else {
            return false;
        };
        !rest.is_empty()
            && self.families.contains(family)
            && token
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '.')
            && token.chars().next().is_some_and(|c| c.is_ascii_lowercase())
    }
}

/// The words of a text (letters, digits and `_`).
fn words(text: &str) -> Vec<&str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect()
}

/// A whole text node that is an English message with placeholders filled.
fn matches_pattern(node: &str, p: &[String]) -> bool {
    let (first, last) = (&p[0], &p[p.len() - 1]);
    if !node.starts_with(first.as_str()) || !node.ends_with(last.as_str()) {
        return false;
    }
    if node.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &node[first.len()..node.len() - last.len()];
    for piece in &p[1..p.len() - 1] {
        match rest.find(piece.as_str()) {
            Some(i) => rest = &rest[i + piece.len()..],
            None => return false,
        }
    }
    true
}

/// A token that is a number of 1000 or more written without the
/// thousands separator ("7265", "1400,00", "-1234"); years are dates.
fn unseparated_number(token: &str) -> Option<&str> {
    let t = token.strip_prefix('-').unwrap_or(token);
    let int = match t.split_once(',') {
        Some((i, f)) if !f.is_empty() && f.chars().all(|c| c.is_ascii_digit()) => i,
        Some(_) => return None,
        None => t,
    };
    // Past 12 digits a number is a code (a draw's seed), not points.
    if int.len() < 4 || int.len() > 12 || !int.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let year = int.len() == 4 && t == int && (1990..=2100).contains(&int.parse::<u32>().ok()?);
    (!year).then_some(token)
}

/// The text nodes of a page: text between tags (entities decoded, blanks
/// folded), never inside scripts, styles or comments, nor an attribute.
fn text_nodes(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = html;
    loop {
        let (text, after) = match rest.find('<') {
            Some(i) => (&rest[..i], Some(&rest[i..])),
            None => (rest, None),
        };
        let node = normalise(&decode(text));
        if !node.is_empty() {
            out.push(node);
        }
        let Some(after) = after else { break };
        let lower = after.get(..8).unwrap_or(after).to_ascii_lowercase();
        let end = if lower.starts_with("<script") {
            after.find("</script>").map(|e| e + 9)
        } else if lower.starts_with("<style") {
            after.find("</style>").map(|e| e + 8)
        } else if after.starts_with("<!--") {
            after.find("-->").map(|e| e + 3)
        } else {
            after.find('>').map(|e| e + 1)
        };
        match end {
            Some(n) => rest = &after[n..],
            None => break,
        }
    }
    out
}

fn decode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        let after = &rest[i..];
        let Some(end) = after.find(';').filter(|e| *e <= 10) else {
            out.push('&');
            rest = &after[1..];
            continue;
        };
        let entity = &after[1..end];
        let c = match entity {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            "nbsp" => Some('\u{a0}'),
            e if e.starts_with("#x") => u32::from_str_radix(&e[2..], 16)
                .ok()
                .and_then(char::from_u32),
            e if e.starts_with('#') => e[1..].parse().ok().and_then(char::from_u32),
            _ => None,
        };
        match c {
            Some(c) => {
                out.push(c);
                rest = &after[end + 1..];
            }
            None => {
                out.push('&');
                rest = &after[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The cells of a CSV file (`;`, quotes, a byte-order mark).
fn csv_cells(body: &str) -> Vec<String> {
    let mut r = csv::ReaderBuilder::new()
        .delimiter(b';')
        .has_headers(false)
        .flexible(true)
        .from_reader(body.trim_start_matches('\u{feff}').as_bytes());
    r.records()
        .flat_map(|rec| {
            rec.unwrap()
                .iter()
                .map(normalise)
                .filter(|c| !c.is_empty())
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The links of a page worth following: this site's pages, not files,
/// the language switch or the API.
fn links(html: &str) -> Vec<String> {
    html.split("href=\"")
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .map(decode)
        .map(|h| h.split('#').next().unwrap_or_default().to_string())
        .filter(|h| {
            h.starts_with('/')
                && !h.starts_with("//")
                && !h.starts_with("/lang/")
                && !h.starts_with("/static/")
                && !h.starts_with("/api/")
                && !h.contains(".json")
                && !h.contains("/export")
        })
        .collect()
}

/// Pages read, and what was found on them.
struct Reader {
    vocabulary: Vocabulary,
    /// Codes and names the tournaments hand out: not words.
    ignore: HashSet<String>,
    seen: HashSet<String>,
    per_path: HashMap<String, usize>,
    slips: Vec<String>,
    pages: usize,
}

impl Reader {
    fn new() -> Reader {
        Reader {
            vocabulary: Vocabulary::read(),
            ignore: HashSet::new(),
            seen: HashSet::new(),
            per_path: HashMap::new(),
            slips: Vec::new(),
            pages: 0,
        }
    }

    fn check(&mut self, page: &str, nodes: Vec<String>) {
        self.pages += 1;
        for node in nodes {
            if self.ignore.contains(&node) {
                continue;
            }
            for s in self.vocabulary.slips(&node) {
                if self.ignore.iter().any(|i| s.contains(&format!("{i:?}"))) {
                    continue;
                }
                self.slips.push(format!("{page}: {s}"));
            }
        }
    }

    /// Reads `starts` as `who` and every page they lead to.
    async fn crawl(&mut self, who: &Browser, starts: &[String]) {
        let mut queue: VecDeque<String> = starts.iter().cloned().collect();
        while let Some(page) = queue.pop_front() {
            if !self.seen.insert(page.clone()) {
                continue;
            }
            // The same page with other queries: a few are enough.
            let path = page.split('?').next().unwrap_or_default().to_string();
            let n = self.per_path.entry(path.clone()).or_default();
            *n += 1;
            if *n > 3 || self.pages > 600 {
                continue;
            }
            let res = who.get(&page).await;
            let status = res.status().as_u16();
            if status == 303 || status == 302 {
                queue.push_back(location(&res));
                continue;
            }
            let kind = crate::helpers::header(&res, "content-type");
            let body = res.text().await.unwrap();
            // ITALIAN_DUMP=dir keeps every page read, for a person to look at.
            if let Ok(dir) = std::env::var("ITALIAN_DUMP") {
                let name: String = page
                    .chars()
                    .map(|c| if c.is_alphanumeric() { c } else { '_' })
                    .collect();
                let _ = std::fs::create_dir_all(&dir);
                let _ = std::fs::write(format!("{dir}/{name}.html"), &body);
            }
            if kind.starts_with("text/csv") {
                let cells = csv_cells(&body);
                self.check(&page, cells);
            } else if kind.starts_with("text/html") {
                // A starting page must answer; one found by a link may
                // answer with its reason (a 409 page is read too).
                assert!(
                    status < 500,
                    "{page}: {status}: {}",
                    &body[..body.len().min(500)]
                );
                for l in links(&body) {
                    if !self.seen.contains(&l) {
                        queue.push_back(l);
                    }
                }
                self.check(&page, text_nodes(&body));
            }
        }
    }

    fn finish(mut self, at_least: usize) {
        assert!(
            self.pages >= at_least,
            "only {} pages read: {:#?}",
            self.pages,
            self.seen
        );
        self.slips.sort();
        self.slips.dedup();
        assert!(
            self.slips.is_empty(),
            "{} slips on Italian pages ({} pages read):\n{}",
            self.slips.len(),
            self.pages,
            self.slips.join("\n")
        );
    }
}

/// Every code of a tournament (tables, pairs, teams): not words.
fn handed_out(app: &TestApp, tid: i64) -> Vec<String> {
    crate::peek::codes_handed_out(app, tid)
}

/// The pages of a tournament no link leads to (a person gets there by a
/// button, a QR code or a typed code).
fn tournament_starts(t: &str, tid: i64, rounds: i32) -> Vec<String> {
    let mut v = vec![
        t.to_string(),
        format!("{t}/edit"),
        format!("{t}/confirm-close"),
        format!("{t}/confirm-round"),
        format!("{t}/standings.csv"),
        format!("{t}/sheets.csv"),
        format!("/t/{tid}"),
        format!("/t/{tid}/prizes"),
        format!("/t/{tid}/screen"),
        format!("/t/{tid}/find?q=Rossi1"),
        format!("/desk/t/{tid}/penalties"),
        format!("/desk/t/{tid}/audit"),
        format!("/desk/seat-draw?t={tid}"),
    ];
    for r in 1..=rounds {
        v.push(format!("{t}/rounds/{r}"));
        v.push(format!("{t}/rounds/{r}/cards"));
        v.push(format!("{t}/rounds/{r}/score-cards"));
        v.push(format!("{t}/rounds/{r}/confirm-undo"));
        v.push(format!("{t}/rounds/{r}/confirm-time-out"));
        v.push(format!("/desk/t/{tid}/rounds/{r}"));
        v.push(format!("/desk/t/{tid}/rounds/{r}/score-cards"));
        v.push(format!("/desk/t/{tid}/rounds/{r}/tables/1"));
        v.push(format!("/desk/t/{tid}/rounds/{r}/tables/2"));
        v.push(format!("/t/{tid}/rounds/{r}"));
    }
    v
}

/// The phones' pages of every table.
fn phone_pages(app: &TestApp, tid: i64) -> Vec<String> {
    crate::peek::table_codes_of(app, tid)
        .into_iter()
        .map(|code| format!("/s/{code}"))
        .collect()
}

/// Plays every round of tournament `t` at the desk (sheets 120–90).
async fn play_all(app: &TestApp, dora: &Browser, t: &str, rounds: u32) {
    let tid = tid_of(t);
    for round in 1..=rounds {
        if round > 1 {
            let r = round.to_string();
            let res = dora.confirm(t, "rounds", &[("round", &r)]).await;
            assert_eq!(res.status().as_u16(), 303);
        }
        let tables = crate::peek::tables_of(app, tid, round as i32);
        for table in tables {
            let res = post_sheet(dora, t, round, table, &sheet(120, 90)).await;
            assert_eq!(res.status().as_u16(), 303);
        }
    }
}

async fn close(dora: &Browser, t: &str) {
    let res = dora
        .submit(
            &format!("{t}/confirm-close"),
            &format!("{t}/close"),
            &[("confirm", "1")],
        )
        .await;
    assert_eq!(res.status().as_u16(), 303, "{}", res.text().await.unwrap());
    assert!(location(&res).contains("tournament_closed"), "{t}");
}

/// Accounts whose audit says every kind of thing: a token revoked by a
/// password reset, by a deactivation and by a role change; an account
/// created at the command line; the referee setting and the public address.
async fn accounts_with_history(app: &TestApp) {
    for (name, role) in [("pia", "referee"), ("ugo", "referee"), ("rino", "referee")] {
        app.create_user(name, role, "long enough pass").await;
        let b = app.another_browser();
        assert_eq!(
            b.login(name, "long enough pass").await.status().as_u16(),
            303
        );
        let res = b
            .submit("/account", "/account/tokens", &[("label", "tabellone")])
            .await;
        assert!(res.status().as_u16() < 400, "token for {name}");
    }
    let id_of = |name: &'static str| async move { crate::circuits::user_id(app, name).await.0 };
    let pia = format!("/admin/users/{}", id_of("pia").await);
    let ugo = format!("/admin/users/{}", id_of("ugo").await);
    let rino = format!("/admin/users/{}", id_of("rino").await);
    let ok = |res: reqwest::Response| {
        assert_eq!(res.status().as_u16(), 303);
    };
    ok(app
        .submit(
            &pia,
            &format!("{pia}/password"),
            &[
                ("password", "brand new pass"),
                ("password2", "brand new pass"),
            ],
        )
        .await);
    ok(app
        .submit(&ugo, &format!("{ugo}/active"), &[("active", "false")])
        .await);
    ok(app
        .submit(&rino, &format!("{rino}/role"), &[("role", "director")])
        .await);
    ok(app
        .submit("/admin/users", "/admin/referees", &[("all", "on")])
        .await);
}

#[tokio::test]
async fn every_page_of_a_pairs_tournament_reads_in_italian() {
    let (app, dora, t) = started(8).await;
    let tid = tid_of(&t);
    // Running: round 1 played at the desk with a penalty, a settings
    // change, round 2 drawn with a table entered and disputed from the
    // phones, one entered and waiting, one saved at the desk.
    play_rounds(&app, &dora, &t, 1).await;
    let res = dora
        .penalty(&tid, &pair_id(&app, 1), "mp", "100", "in ritardo")
        .await;
    assert_eq!(res.status().as_u16(), 303);
    let res = edit_through_the_form(&dora, &t, "Serata", &[("danish_form", "pure")]).await;
    assert_eq!(res.status().as_u16(), 303);
    let res = dora.confirm(&t, "rounds", &[("round", "2")]).await;
    assert_eq!(res.status().as_u16(), 303);
    let tables = tables_of(&app, 2);
    let (code, ns, ew) = codes(&app, tid, 2, tables[0]);
    assert_eq!(
        enter(&app, &code, &ns, crate::table_side::sheet(120, 90))
            .await
            .status,
        200
    );
    assert_eq!(
        answer(&app, &code, &ew, false, "manca una smazzata")
            .await
            .status,
        200
    );
    let (code, ns, _) = codes(&app, tid, 2, tables[1]);
    assert_eq!(
        enter(&app, &code, &ns, crate::table_side::sheet(150, 60))
            .await
            .status,
        200
    );
    let res = post_sheet(&dora, &t, 2, tables[2], &sheet(100, 100)).await;
    assert_eq!(res.status().as_u16(), 303);

    // Finished: a tournament with a fee of 250 € (a pool of 1.400,00 €),
    // every round played, closed.
    let fin = app
        .tournament("Gran premio")
        .set("entry_fee", "250")
        .pairs(8)
        .drawn()
        .build()
        .await
        .path;
    let fid = tid_of(&fin);
    play_all(&app, &dora, &fin, 4).await;
    close(&dora, &fin).await;

    // A circuit of both.
    let res = dora
        .circuit_form(&[
            ("name", "Circuito d'inverno"),
            ("season", "2026/27"),
            ("rank", "player"),
            ("method", "placing"),
            ("best_of", "2"),
            ("min_attendances", "1"),
            ("stage_top_percent", "25"),
        ])
        .await;
    assert_eq!(res.status().as_u16(), 303);
    let circuit = location(&res).split('?').next().unwrap().to_string();
    for id in [tid, fid] {
        let res = dora
            .submit(
                &circuit,
                &format!("{circuit}/stages"),
                &[("tournament", &id.to_string())],
            )
            .await;
        assert_eq!(res.status().as_u16(), 303);
    }
    let cid = circuit.rsplit('/').next().unwrap().to_string();

    accounts_with_history(&app).await;

    // In preparation: four pairs, two of them present.
    let draft = app
        .tournament("Questa settimana")
        .pairs(4)
        .checked_in_pairs(&[1, 2])
        .build()
        .await;
    let (did, draft) = (draft.tid, draft.path);

    // What the issue saw, said right: the suits with Italian initials, one
    // word for melded points, grouped points and money in the CSV files,
    // the accounts' log in words.
    let edit = dora.get_html(&format!("{t}/edit")).await;
    assert!(edit.contains("value=\"CQFP\""), "{edit}");
    let sheets = dora.get_html(&format!("{fin}/sheets.csv")).await;
    assert!(
        sheets.contains(";Punti a terra;") && !sheets.contains("tavola"),
        "{sheets}"
    );
    let standings = dora.get_html(&format!("{fin}/standings.csv")).await;
    assert!(
        standings.contains(";5.040;") && standings.contains(";700,00"),
        "{standings}"
    );
    let log = app.get_html("/admin/users").await;
    for words in [
        "password reimpostata",
        "account disattivato",
        "ruolo cambiato",
        "creato alla prima configurazione del programma",
        "token revocati",
    ] {
        assert!(log.contains(words), "{words}: {log}");
    }

    let mut reader = Reader::new();
    reader.ignore.insert(ADMIN.to_string());
    for id in [tid, fid] {
        reader.ignore.extend(handed_out(&app, id));
    }
    // The director (her pages, the desk's, her account).
    let mut starts = vec![
        "/".to_string(),
        "/director/tournaments".into(),
        "/director/tournaments/new".into(),
        "/director/people".into(),
        circuit.clone(),
        "/account".into(),
        "/desk/seat-draw".into(),
        format!("{t}/pairs/new"),
        format!("{t}/players?q=rossi"),
        format!("{t}/import"),
        format!("{t}/movement-cards"),
    ];
    starts.extend(tournament_starts(&t, tid, 2));
    starts.extend(tournament_starts(&fin, fid, 4));
    starts.extend([
        draft.clone(),
        format!("{draft}/edit"),
        format!("{draft}/confirm-start"),
        format!("/t/{did}"),
    ]);
    reader.crawl(&dora, &starts).await;
    // The administrator.
    let admin = app.another_browser();
    admin.login(ADMIN, ADMIN_PW).await;
    reader
        .crawl(
            &admin,
            &[
                "/admin/users".into(),
                "/admin/import".into(),
                "/account".into(),
            ],
        )
        .await;
    // The public and the phones.
    let anon = app.another_browser();
    let mut starts = vec![
        "/".to_string(),
        "/login".into(),
        format!("/c/{cid}"),
        format!("/c/{cid}/standings.csv"),
        format!("/t/{tid}"),
        format!("/t/{fid}"),
        format!("/t/{fid}/find?q=Rossi1"),
    ];
    starts.extend(phone_pages(&app, tid));
    starts.extend(phone_pages(&app, fid));
    reader.crawl(&anon, &starts).await;
    reader.finish(80);
}

#[tokio::test]
async fn every_page_of_a_team_tournament_reads_in_italian() {
    let app = crate::helpers::spawn_app().await;
    app.setup_admin().await;
    // Running: four teams, round 1 played from the phones after a captain
    // named the line-up, a penalty, round 2 drawn.
    let t = new_team_tournament(&app, "3", &[("entry_fee", "250")]).await;
    let tid = tid_of(&t);
    let fin = new_team_tournament(&app, "3", &[("entry_fee", "250")]).await;
    let fid = tid_of(&fin);
    let draft = new_team_tournament(&app, "3", &[]).await;
    let did = tid_of(&draft);
    for tour in [&t, &fin, &draft] {
        for name in ["Sole", "Luna", "Stelle", "Mare"] {
            let players: Vec<(String, String)> = ["Anna", "Bruno", "Carla", "Dario"]
                .iter()
                .enumerate()
                .map(|(i, n)| (format!("{name}{}", (b'a' + i as u8) as char), n.to_string()))
                .collect();
            let refs: Vec<(&str, &str)> = players
                .iter()
                .map(|(a, b)| (a.as_str(), b.as_str()))
                .collect();
            let res = add_team(&app, tour, name, &refs).await;
            assert_eq!(res.status().as_u16(), 303);
        }
        let setup = format!("{tour}/teams");
        let res = app
            .submit(
                &setup,
                &format!("{tour}/teams/settings"),
                &[("method", "tables"), ("groups", "")],
            )
            .await;
        assert_eq!(res.status().as_u16(), 303, "{}", res.text().await.unwrap());
        if *tour != draft {
            check_in_teams(&app, tour).await;
            start(&app, tour).await;
        }
    }
    // In preparation, the team page counts teams.
    let (_, first, _) = team_ids(&app, did)[0];
    let res = app
        .submit(
            &format!("{draft}/teams"),
            &format!("{draft}/teams/{first}/checkin"),
            &[("value", "true")],
        )
        .await;
    assert_eq!(res.status().as_u16(), 303);
    let page = app.get_html(&format!("{draft}/teams")).await;
    assert!(page.contains("Squadre presenti"), "{page}");
    assert!(!page.contains("Coppie presenti"), "{page}");
    let lineup = format!("/t/{tid}/teams/1/lineup");
    let code = code_of(&app, tid, 1);
    let res = app
        .another_browser()
        .submit(
            &lineup,
            &lineup,
            &[
                ("round", "1"),
                ("a1", "1"),
                ("a2", "3"),
                ("b1", "2"),
                ("b2", "4"),
                ("code", &code),
            ],
        )
        .await;
    assert_eq!(res.status().as_u16(), 303);
    play_round(&app, tid, 1, 200, 100).await;
    let pair = crate::peek::first_team_pair(&app, tid);
    let res = app
        .penalty(&tid, &pair.to_string(), "vp", "1", "in ritardo")
        .await;
    assert_eq!(res.status().as_u16(), 303, "{}", res.text().await.unwrap());
    let res = crate::teams::next_round(&app, &t, "2").await;
    assert_eq!(res.status().as_u16(), 303);

    // Finished: three rounds of round robin, closed.
    for r in 1..=3u32 {
        if r > 1 {
            let res = crate::teams::next_round(&app, &fin, &r.to_string()).await;
            assert_eq!(res.status().as_u16(), 303);
        }
        play_round(&app, fid, r, 200, 100).await;
    }
    close(&app, &fin).await;

    // The line-up's entry in words; the team MP grouped (3 rounds of
    // 1.500 + 240).
    let audit = app.get_html(&format!("/desk/t/{tid}/audit")).await;
    assert!(
        audit.contains("il capitano, con il codice della squadra") && audit.contains("formazione"),
        "{audit}"
    );
    let standings = app.another_browser().get_html(&format!("/t/{fid}")).await;
    assert!(standings.contains("5.220"), "{standings}");

    let mut reader = Reader::new();
    reader.ignore.insert(ADMIN.to_string());
    for id in [tid, fid, did] {
        reader.ignore.extend(handed_out(&app, id));
    }
    let mut starts = vec!["/".to_string(), "/director/tournaments".into()];
    starts.extend([
        draft.clone(),
        format!("{draft}/teams"),
        format!("{draft}/edit"),
        format!("/t/{did}"),
    ]);
    for (tour, id, rounds) in [(&t, tid, 2), (&fin, fid, 3)] {
        starts.extend(tournament_starts(tour, id, rounds));
        starts.push(format!("{tour}/teams"));
        starts.push(format!("{tour}/teams/new"));
        starts.push(format!("{tour}/teams/import"));
        starts.push(format!("{tour}/teams/cards"));
        for (n, _, _) in team_ids(&app, id) {
            starts.push(format!("{tour}/teams/{n}/lineup"));
        }
    }
    reader.crawl(&app, &starts).await;
    let anon = app.another_browser();
    let mut starts = Vec::new();
    for id in [tid, fid] {
        starts.push(format!("/t/{id}"));
        for (n, _, _) in team_ids(&app, id) {
            starts.push(format!("/t/{id}/teams/{n}"));
            starts.push(format!("/t/{id}/teams/{n}/lineup"));
        }
        starts.extend(phone_pages(&app, id));
    }
    reader.crawl(&anon, &starts).await;
    reader.finish(60);
}
