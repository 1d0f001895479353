//! Results the hall can trust (issue 21), in Chromium with phones of
//! 360 × 780 px:
//! - the sheet one hand at a time (only the current step shown, back and
//!   forth), a reload and a new tab in the middle bring the draft back;
//! - the network switched off (DevTools offline emulation) when the sheet
//!   is sent: it waits on the phone and goes when the network is back,
//!   exactly once (and once more when the phone never got the answer);
//! - "hand the phone over": NS enters, EW reads the whole entry on the same
//!   phone and confirms with its code, then sees where everybody goes next;
//! - a dispute settled at the desk from the form filled in with the
//!   players' sheet (the referee changes one box, gives a reason, saves);
//! - the Back button after "Yes, start": the old confirmation page posted
//!   again is refused (409) and round 1 stays as drawn;
//! - the touches (taps + keystrokes, pair code and submit included) of the
//!   typical 3-hand sheet of `main.rs` (NS 745 – EW 335), in full mode and
//!   in a totals-mode tournament.
//!
//! Screenshots (`target/e2e-screenshots/9*`): `-phone` at 360 px, `-desktop`
//! at 1280 px.

use std::time::Duration;

use burraco_td::auth::Role;
use burraco_td::db::Db;
use burraco_td::i18n::{t, tf, Lang};
use burraco_td::services::{self, Actor};
use fantoccini::key::Key;
use fantoccini::Client;
use serde_json::json;

use crate::browser::{another_session, shots_dir, start_driver, start_server, Driver, Page};
use crate::setup;

const DORA_PW: &str = "director pass 1";
const RITA_PW: &str = "referee pass 1";
const PHONE: (u32, u32) = (360, 780);

/// One table of round 1: its number, its code, the NS and EW pairs'
/// numbers and codes.
#[derive(Clone, Debug)]
struct Table {
    no: i32,
    code: String,
    ns: i32,
    ns_code: String,
    ew: i32,
    ew_code: String,
}

/// A tournament of 8 pairs checked in (Dora directs, Rita referees), in
/// `sheet_mode`; started (round 1 drawn) when `start`.
async fn stage(
    db: &Db,
    name: &str,
    sheet_mode: &str,
    start: bool,
) -> (Actor, burraco_td::ids::TournamentId) {
    let dora = setup::user(db, "dora", DORA_PW, Role::Director).await;
    setup::user(db, "rita", RITA_PW, Role::Referee).await;
    let mut form = setup::settings(name);
    form.sheet_mode = sheet_mode.into();
    let pairs = setup::pairs(8, ("Ferri", "Elena"), ("Galli", "Marco"));
    let (tid, _) = setup::tournament(db, dora, form, &pairs, true).await;
    setup::referee(db, dora, tid).await;
    if start {
        setup::draw(db, dora, tid).await;
    }
    (dora, tid)
}

/// Round 1's seating as stored: (seating id, table, NS pair id, EW pair id).
async fn seating_rows(
    db: &Db,
    dora: Actor,
    tid: burraco_td::ids::TournamentId,
) -> Vec<(
    burraco_td::ids::SeatingId,
    i32,
    Option<burraco_td::ids::PairId>,
    Option<burraco_td::ids::PairId>,
)> {
    let (_, rows) = setup::seating(db, dora, tid, 1).await;
    rows.iter()
        .map(|s| (s.id, s.table_no, s.ns_pair, s.ew_pair))
        .collect()
}

/// Round 1's tables with their codes.
async fn tables(db: &Db, dora: Actor, tid: burraco_td::ids::TournamentId) -> Vec<Table> {
    let codes = services::entries::codes(db, dora, tid)
        .await
        .expect("codes");
    let (l, rows) = setup::seating(db, dora, tid, 1).await;
    let number = |id: Option<burraco_td::ids::PairId>| l.pair(id).expect("a pair").number;
    rows.iter()
        .map(|s| {
            let (ns, ew) = (number(s.ns_pair), number(s.ew_pair));
            Table {
                no: s.table_no,
                code: codes.table(s.table_no).expect("table code").to_string(),
                ns,
                ns_code: codes.pair(ns).expect("NS code").to_string(),
                ew,
                ew_code: codes.pair(ew).expect("EW code").to_string(),
            }
        })
        .collect()
}

/// What the database holds for a table of round 1: (the pending entry's
/// status and version, how many times a sheet was entered or replaced
/// there, the counted sheet's totals).
#[derive(Debug, PartialEq)]
struct Stored {
    entry: Option<(String, i32)>,
    entered: i64,
    counted: Option<(i64, i64)>,
}

async fn stored(db: &Db, tid: burraco_td::ids::TournamentId, table: i32) -> Stored {
    let (entry, entered, counted) = crate::peek::stored_table(db, tid.0, table);
    Stored {
        entry,
        entered,
        counted,
    }
}

/// The browser's network on or off (ChromeDriver's network conditions: the
/// DevTools offline emulation).
async fn network(driver: &Driver, c: &Client, online: bool) {
    let session = c
        .session_id()
        .await
        .expect("session id")
        .expect("a session");
    let res = reqwest::Client::new()
        .post(format!(
            "{}/session/{session}/chromium/network_conditions",
            driver.url
        ))
        .json(&json!({"network_conditions": {
            "offline": !online, "latency": 0,
            "download_throughput": -1, "upload_throughput": -1,
        }}))
        .send()
        .await
        .expect("chromedriver answers");
    assert!(
        res.status().is_success(),
        "network conditions: {}",
        res.text().await.unwrap_or_default()
    );
}

/// Runs a script and returns its value as JSON.
async fn js(p: &Page<'_>, script: &str) -> serde_json::Value {
    p.c.execute(script, vec![])
        .await
        .unwrap_or_else(|e| panic!("script {script}: {e}"))
}

async fn js_str(p: &Page<'_>, script: &str) -> String {
    js(p, script).await.as_str().unwrap_or_default().to_string()
}

/// The steps of the sheet form a player can see (their ids).
async fn visible_steps(p: &Page<'_>) -> Vec<String> {
    let v = js(
        p,
        "return Array.from(document.querySelectorAll('#phone-sheet .step'))\
         .filter(s => s.getClientRects().length > 0).map(s => s.id)",
    )
    .await;
    serde_json::from_value(v).expect("step ids")
}

async fn value_of(p: &Page<'_>, name: &str) -> String {
    js_str(
        p,
        &format!("var e = document.querySelector('[name={name}]'); return e ? e.value : '';"),
    )
    .await
}

async fn checked(p: &Page<'_>, css: &str) -> bool {
    js(p, &format!("return !!document.querySelector(\"{css}\")"))
        .await
        .as_bool()
        .unwrap_or(false)
}

async fn end_chosen(p: &Page<'_>, hand: u32) -> String {
    js_str(
        p,
        &format!(
            "var e = document.querySelector('input[name=h{hand}_end]:checked'); return e ? e.value : '';"
        ),
    )
    .await
}

/// The name (or id) of the element with the focus.
async fn focused(p: &Page<'_>) -> String {
    js_str(
        p,
        "var a = document.activeElement; return a ? (a.name || a.id || a.tagName) : '';",
    )
    .await
}

/// Polls `cond` (a script returning a boolean) for up to `secs` seconds.
async fn wait_for(p: &Page<'_>, cond: &str, secs: u64, what: &str) {
    for _ in 0..secs * 10 {
        if p.c
            .execute(cond, vec![])
            .await
            .ok()
            .and_then(|v| v.as_bool())
            .unwrap_or(false)
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{what}: not after {secs} s ({})", p.path().await);
}

/// The HTTP status of the page shown (the Navigation Timing entry).
async fn status_code(p: &Page<'_>) -> u64 {
    js(
        p,
        "return performance.getEntriesByType('navigation')[0].responseStatus",
    )
    .await
    .as_u64()
    .unwrap_or(0)
}

/// A full-page screenshot at `width`, the window back to a phone's
/// afterwards; nothing may be wider than the window.
async fn shot_at(p: &Page<'_>, name: &str, width: u32) {
    p.c.set_window_size(width, PHONE.1).await.expect("resize");
    let height = js(p, "return document.documentElement.scrollHeight")
        .await
        .as_u64()
        .unwrap_or(u64::from(PHONE.1))
        .clamp(u64::from(PHONE.1), 6000) as u32;
    p.c.set_window_size(width, height).await.expect("resize");
    let overflow = js(
        p,
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth",
    )
    .await
    .as_i64()
    .unwrap_or(0);
    assert!(
        overflow <= 1,
        "{name} is {overflow}px wider than a {width}px window"
    );
    let png = p.c.screenshot().await.expect("screenshot");
    let tag = if width == PHONE.0 { "phone" } else { "desktop" };
    std::fs::write(shots_dir().join(format!("{name}-{tag}.png")), png).expect("write screenshot");
    p.c.set_window_size(PHONE.0, PHONE.1).await.expect("resize");
}

/// The phone's screen as the player sees it (the 360 × 780 window).
async fn screen(p: &Page<'_>, name: &str) {
    let png = p.c.screenshot().await.expect("screenshot");
    std::fs::write(shots_dir().join(format!("{name}-phone.png")), png).expect("write screenshot");
}

/// A phone user's touches: taps (clicks) plus keystrokes. Every character
/// typed counts, whoever put the focus there.
struct Touches<'a> {
    p: &'a Page<'a>,
    n: usize,
}

impl<'a> Touches<'a> {
    fn new(p: &'a Page<'a>) -> Touches<'a> {
        Touches { p, n: 0 }
    }

    /// One tap on what `css` names.
    async fn tap(&mut self, css: &str) {
        self.p.click(css).await;
        self.n += 1;
    }

    /// Taps an end-of-hand choice (its label: the large target).
    async fn end(&mut self, hand: u32, choice: &str) {
        self.tap(&format!(
            "label.choice:has(input[name=h{hand}_end][value={choice}])"
        ))
        .await;
    }

    /// Types `text` into the box with the focus, which must be `name`.
    async fn type_in(&mut self, name: &str, text: &str) {
        assert_eq!(
            focused(self.p).await,
            name,
            "the focus before typing {text}"
        );
        let el = self.p.c.active_element().await.expect("focus");
        el.send_keys(text).await.expect("keys");
        self.n += text.chars().count();
    }

    /// The keyboard's Enter ("Next" on a phone's keypad).
    async fn enter(&mut self) {
        let el = self.p.c.active_element().await.expect("focus");
        el.send_keys(&char::from(Key::Enter).to_string())
            .await
            .expect("enter");
        self.n += 1;
    }

    /// Taps a box, then types into it.
    async fn tap_type(&mut self, name: &str, text: &str) {
        self.tap(&format!("input[name={name}]")).await;
        self.type_in(name, text).await;
    }
}

// The typical 3-hand sheet of `main.rs` (NS 745 – EW 335), hand by hand as
// a player enters it on the phone with the fewest touches the page allows:
// hand 1 NS closes (245 melded, a clean burraco), EW 40 melded, 75 in hand,
// pozzetto NOT taken (EW 545 – −135); hand 2 EW closes (210 melded, a dirty
// burraco), NS 150 melded, 30 in hand (120 – 410); hand 3 stock exhausted,
// NS 60 melded, 80 in hand, a dirty burraco, EW 85 melded, 25 in hand
// (80 – 60).

async fn full_hand1(k: &mut Touches<'_>) {
    // Choosing the end puts the cursor in the hand's first box.
    k.end(1, "closure_ns").await;
    k.type_in("h1_ns_melded_points", "245").await;
    k.tap_type("h1_ns_clean", "1").await;
    k.tap_type("h1_ew_melded_points", "40").await;
    k.enter().await;
    k.type_in("h1_ew_hand_points", "75").await;
    k.tap("label[data-row=h1_ew_no_pozzetto]").await;
}

async fn full_hand2(k: &mut Touches<'_>) {
    k.end(2, "closure_ew").await;
    k.type_in("h2_ns_melded_points", "150").await;
    k.enter().await;
    k.type_in("h2_ns_hand_points", "30").await;
    k.tap_type("h2_ew_melded_points", "210").await;
    k.tap_type("h2_ew_dirty", "1").await;
}

async fn full_hand3(k: &mut Touches<'_>) {
    k.end(3, "stock_exhausted").await;
    k.type_in("h3_ns_melded_points", "60").await;
    k.enter().await;
    k.type_in("h3_ns_hand_points", "80").await;
    k.tap_type("h3_ns_dirty", "1").await;
    // Enter skips the rare rows: from the last common box to EW's first.
    k.enter().await;
    k.type_in("h3_ew_melded_points", "85").await;
    k.enter().await;
    k.type_in("h3_ew_hand_points", "25").await;
}

/// The whole typical sheet in full mode, its code and the submit; returns
/// the touches.
async fn typical_full(p: &Page<'_>, t: &Table, shots: bool) -> usize {
    let mut k = Touches::new(p);
    full_hand1(&mut k).await;
    if shots {
        screen(p, "95-phone-full-hand1").await;
    }
    k.tap("#hand-1 [data-step=next]").await;
    full_hand2(&mut k).await;
    if shots {
        screen(p, "95b-phone-full-hand2").await;
    }
    // Enter after the hand's last common box: on to the next hand.
    k.enter().await;
    assert_eq!(visible_steps(p).await, ["hand-3"]);
    full_hand3(&mut k).await;
    if shots {
        screen(p, "95c-phone-full-hand3").await;
    }
    // On to the totals: the cursor goes to the pair code.
    k.tap("#hand-3 [data-step=next]").await;
    assert_eq!(visible_steps(p).await, ["finish"]);
    live_totals(p, "745", "335").await;
    if shots {
        screen(p, "95d-phone-full-finish").await;
    }
    k.type_in("pair_code", &t.ns_code).await;
    p.c.execute("window.__btd_old_page = true", vec![])
        .await
        .expect("mark page");
    k.enter().await;
    p.wait_new_page().await;
    k.n
}

/// The same sheet in a totals-mode tournament: one box per line and hand
/// (the ± key for a negative total). The end of each hand is proposed from
/// its two totals (a closure by the only line that scores enough to have
/// closed, else the stock exhausted): the pair checks it and moves on; the
/// cursor goes from box to box and from hand to hand with the keypad's Next.
async fn typical_totals(p: &Page<'_>, t: &Table) -> usize {
    let mut k = Touches::new(p);
    k.tap("input[name=h1_ns_total]").await;
    k.type_in("h1_ns_total", "545").await;
    k.enter().await;
    k.tap("label[data-row=h1_ew_total] button.sign").await;
    k.type_in("h1_ew_total", "135").await;
    assert_eq!(value_of(p, "h1_ew_total").await, "-135");
    proposed(p, 1, "closure_ns").await;
    screen(p, "99-phone-totals-hand1").await;
    k.enter().await;
    assert_eq!(visible_steps(p).await, ["hand-2"]);
    k.type_in("h2_ns_total", "120").await;
    k.enter().await;
    k.type_in("h2_ew_total", "410").await;
    proposed(p, 2, "closure_ew").await;
    k.enter().await;
    k.type_in("h3_ns_total", "80").await;
    k.enter().await;
    k.type_in("h3_ew_total", "60").await;
    proposed(p, 3, "stock_exhausted").await;
    screen(p, "99b-phone-totals-hand3").await;
    k.enter().await;
    assert_eq!(visible_steps(p).await, ["finish"]);
    live_totals(p, "745", "335").await;
    k.type_in("pair_code", &t.ns_code).await;
    screen(p, "99c-phone-totals-finish").await;
    p.c.execute("window.__btd_old_page = true", vec![])
        .await
        .expect("mark page");
    k.enter().await;
    p.wait_new_page().await;
    k.n
}

/// Waits until the end of hand `hand` proposed from its totals is `choice`
/// (checked, with the note that says it was proposed).
async fn proposed(p: &Page<'_>, hand: u32, choice: &str) {
    wait_for(
        p,
        &format!(
            "var c = document.querySelector('input[name=h{hand}_end]:checked'); \
             var n = document.querySelector('#hand-{hand} .end-suggested'); \
             return !!c && c.value === '{choice}' && !!n && !n.hidden"
        ),
        10,
        &format!("hand {hand} proposed {choice}"),
    )
    .await;
}

/// Waits until the live totals (the engine's, from the server) read so.
async fn live_totals(p: &Page<'_>, ns: &str, ew: &str) {
    wait_for(
        p,
        &format!(
            "return document.getElementById('total-ns').textContent === '{ns}' \
             && document.getElementById('total-ew').textContent === '{ew}'"
        ),
        10,
        &format!("live totals {ns} – {ew}"),
    )
    .await;
}

/// Waits until hand `hand`'s two totals (the engine's) read so.
async fn hand_totals(p: &Page<'_>, hand: u32, ns: &str, ew: &str) {
    wait_for(
        p,
        &format!(
            "return document.querySelector('#hand-{hand} [data-total-of=ns]').textContent === '{ns}' \
             && document.querySelector('#hand-{hand} [data-total-of=ew]').textContent === '{ew}'"
        ),
        10,
        &format!("hand {hand}: {ns} / {ew}"),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_phone_that_loses_nothing_and_a_dispute_settled_in_view() {
    let server = start_server().await;
    let db = &server.db;
    let (dora, tid) = stage(db, "Serata dei telefoni", "full", true).await;
    let tables = tables(db, dora, tid).await;
    let (driver, desk_client) = start_driver().await;
    let (_profile, phone_client) = another_session(&driver, PHONE.0, PHONE.1).await;
    let desk = Page {
        c: &desk_client,
        base: &server.base,
    };
    let phone = Page {
        c: &phone_client,
        base: &server.base,
    };
    let run = async {
        let p = &phone;
        // ---- table 1: one hand at a time, a reload, the network off ----
        let t1 = &tables[0];
        p.go(&format!("/s/{}", t1.code)).await;
        assert_eq!(visible_steps(p).await, ["hand-1"], "one hand at a time");
        screen(p, "90-phone-hand1-only").await;
        shot_at(p, "90-phone-hand1-only", 1280).await;
        let mut k = Touches::new(p);
        full_hand1(&mut k).await;
        // The hand's totals from the engine; the round's only once the
        // whole sheet could be sent (hands 2 and 3 are missing).
        hand_totals(p, 1, "= 545", "= -135").await;
        assert_eq!(
            js_str(p, "return document.getElementById('vp').textContent").await,
            "—"
        );
        screen(p, "90b-phone-hand1-filled").await;
        k.tap("#hand-1 [data-step=next]").await;
        assert_eq!(visible_steps(p).await, ["hand-2"]);
        screen(p, "90c-phone-hand2").await;
        // Back to hand 1: everything typed is there; forth again.
        k.tap("#hand-2 [data-step=prev]").await;
        assert_eq!(visible_steps(p).await, ["hand-1"]);
        assert_eq!(value_of(p, "h1_ns_melded_points").await, "245");
        assert!(checked(p, "input[name=h1_ew_no_pozzetto]:checked").await);
        screen(p, "90d-phone-back-to-hand1").await;
        k.tap("#hand-1 [data-step=next]").await;
        assert_eq!(visible_steps(p).await, ["hand-2"]);
        full_hand2(&mut k).await;

        // A reload in the middle (pull to refresh): the draft comes back,
        // on the hand being entered.
        p.c.refresh().await.expect("reload");
        wait_for(
            p,
            "return document.readyState === 'complete'",
            10,
            "reloaded",
        )
        .await;
        assert_eq!(visible_steps(p).await, ["hand-2"], "back on hand 2");
        for (name, want) in [
            ("h1_ns_melded_points", "245"),
            ("h1_ns_clean", "1"),
            ("h1_ew_melded_points", "40"),
            ("h1_ew_hand_points", "75"),
            ("h2_ns_melded_points", "150"),
            ("h2_ns_hand_points", "30"),
            ("h2_ew_melded_points", "210"),
            ("h2_ew_dirty", "1"),
        ] {
            assert_eq!(value_of(p, name).await, want, "{name} after the reload");
        }
        assert_eq!(end_chosen(p, 1).await, "closure_ns");
        assert_eq!(end_chosen(p, 2).await, "closure_ew");
        assert!(checked(p, "input[name=h1_ew_no_pozzetto]:checked").await);
        assert!(!checked(p, "input[name=h1_ns_no_pozzetto]:checked").await);
        hand_totals(p, 2, "= 120", "= 410").await;
        js(
            p,
            "document.querySelector('#phone-sheet .step.current').scrollIntoView()",
        )
        .await;
        screen(p, "91-phone-draft-restored").await;
        // A tab opened afresh (a discarded tab, a closed browser) too.
        let first = p.c.window().await.expect("window");
        let tab = p.c.new_window(true).await.expect("new tab");
        p.c.switch_to_window(tab.handle.clone())
            .await
            .expect("switch");
        p.go(&format!("/s/{}", t1.code)).await;
        assert_eq!(visible_steps(p).await, ["hand-2"]);
        assert_eq!(value_of(p, "h2_ew_melded_points").await, "210");
        js(
            p,
            "document.querySelector('#phone-sheet .step.current').scrollIntoView()",
        )
        .await;
        screen(p, "91b-phone-draft-in-a-new-tab").await;
        p.c.close_window().await.expect("close tab");
        p.c.switch_to_window(first).await.expect("switch back");

        // The rest of the sheet and the code…
        k.tap("#hand-2 [data-step=next]").await;
        full_hand3(&mut k).await;
        k.tap("#hand-3 [data-step=next]").await;
        assert_eq!(visible_steps(p).await, ["finish"]);
        assert_eq!(focused(p).await, "pair_code", "the cursor in the pair code");
        live_totals(p, "745", "335").await;
        k.type_in("pair_code", &t1.ns_code).await;
        screen(p, "92-phone-finish").await;
        shot_at(p, "92-phone-finish", 1280).await;
        // The pair code is never kept on the phone.
        let draft = js_str(
            p,
            &format!(
                "return localStorage.getItem('btd-draft:{}:1') || ''",
                t1.code
            ),
        )
        .await;
        assert!(draft.contains("h3_ew_hand_points"), "the draft: {draft}");
        assert!(!draft.contains(&t1.ns_code), "no pair code in the draft");

        // …sent with the network off: it waits on the phone.
        network(&driver, p.c, false).await;
        k.tap("#send-sheet").await;
        wait_for(
            p,
            "var s = document.querySelector('.queue-state'); \
             return !!s && !s.hidden && s.getAttribute('data-state') === 'queued'",
            10,
            "queued on the phone",
        )
        .await;
        assert!(p.html().await.contains(t(Lang::It, "table.queue.queued")));
        screen(p, "93-phone-offline-queued").await;
        // A second tap while offline queues nothing more.
        k.tap("#send-sheet").await;
        wait_for(
            p,
            "return document.querySelector('#send-sheet').disabled === false",
            10,
            "the second try failed",
        )
        .await;
        let queue = js(
            p,
            "return JSON.parse(localStorage.getItem('btd-queue') || '[]')",
        )
        .await;
        assert_eq!(queue.as_array().map(Vec::len), Some(1), "{queue}");
        assert!(
            !queue.to_string().contains(&t1.ns_code),
            "no pair code in the phone's queue: {queue}"
        );
        assert_eq!(
            stored(db, tid, t1.no).await,
            Stored {
                entry: None,
                entered: 0,
                counted: None
            },
            "nothing reached the server"
        );
        // The network back: sent by itself, the page follows.
        p.c.execute("window.__btd_old_page = true", vec![])
            .await
            .expect("mark page");
        network(&driver, p.c, true).await;
        p.wait_new_page().await;
        wait_for(
            p,
            "return location.search.indexOf('ok=entered') >= 0",
            15,
            "the queued sheet sent",
        )
        .await;
        assert_eq!(
            stored(db, tid, t1.no).await,
            Stored {
                entry: Some(("entered".into(), 1)),
                entered: 1,
                counted: None
            },
            "exactly one entry"
        );
        assert_eq!(
            js_str(p, "return localStorage.getItem('btd-queue') || '[]'").await,
            "[]"
        );
        assert_eq!(
            js_str(
                p,
                &format!(
                    "return localStorage.getItem('btd-draft:{}:1') || ''",
                    t1.code
                )
            )
            .await,
            "",
            "the draft is gone once sent"
        );
        screen(p, "93b-phone-back-online-sent").await;
        // A queued form found after a reload holds no code: nothing is
        // sent, the pair is asked to type its code again, and nothing is
        // stored twice.
        let again = queue.to_string();
        p.c.execute(
            "localStorage.setItem('btd-queue', arguments[0]); location.reload()",
            vec![json!(again)],
        )
        .await
        .expect("queue again");
        wait_for(
            p,
            "var s = document.querySelector('.queue-state'); \
             return (localStorage.getItem('btd-queue') || '[]') === '[]' \
               && !!s && s.getAttribute('data-state') === 'retype'",
            15,
            "the queued form without its code dropped, the code asked again",
        )
        .await;
        assert_eq!(
            stored(db, tid, t1.no).await,
            Stored {
                entry: Some(("entered".into(), 1)),
                entered: 1,
                counted: None
            },
            "still exactly one entry"
        );

        // ---- hand the phone over: EW reads the whole entry, confirms ----
        let html = p.html().await;
        assert!(html.contains(t(Lang::It, "table.notice.entered")));
        let handover = js_str(
            p,
            "return document.querySelector('#answer .handover').innerText",
        )
        .await;
        assert!(
            handover.contains(t(Lang::It, "table.answer.handover"))
                && handover.contains(&tf(Lang::It, "table.page.pair", &[("pair", &t1.ew)])),
            "{handover}"
        );
        let by = js_str(
            p,
            "return document.querySelector('#answer .hint').innerText",
        )
        .await;
        assert!(
            by.contains(&format!(
                "NS · {}",
                tf(Lang::It, "table.page.pair", &[("pair", &t1.ns)])
            )),
            "entered by: {by}"
        );
        let read = js_str(
            p,
            "return document.getElementById('entered-sheet').innerText",
        )
        .await;
        for v in ["245", "75", "150", "210", "85", "25"] {
            assert!(read.contains(v), "{v} in the entry shown: {read}");
        }
        let totals = js_str(
            p,
            "return document.querySelector('#answer .live-totals').innerText",
        )
        .await;
        assert!(totals.contains("745") && totals.contains("335"), "{totals}");
        assert!(
            js(
                p,
                "return document.getElementById('entered-sheet').getBoundingClientRect().bottom \
                   <= document.getElementById('answer-form').getBoundingClientRect().top"
            )
            .await
            .as_bool()
            .unwrap_or(false),
            "the entry above the confirm button"
        );
        assert!(
            !value_of(p, "entry_version").await.is_empty(),
            "the confirm form names the entry read"
        );
        shot_at(p, "94-phone-handover", PHONE.0).await;
        shot_at(p, "94-phone-handover", 1280).await;
        p.click("#answer_code").await;
        p.el("#answer_code")
            .await
            .send_keys(&t1.ew_code)
            .await
            .expect("code");
        p.submit("#answer-form button[name=agree][value=yes]").await;
        wait_for(
            p,
            "return location.search.indexOf('ok=confirmed') >= 0",
            10,
            "confirmed",
        )
        .await;
        let html = p.html().await;
        assert!(
            html.contains(t(Lang::It, "table.notice.confirmed")),
            "{html}"
        );
        assert!(html.contains("id=\"result\""));
        assert!(html.contains(t(Lang::It, "table.next.wait")), "{html}");
        assert!(
            html.contains(&format!("/t/{tid}/pairs/")),
            "pair cards linked"
        );
        assert!(!html.contains("href=\"/login\""), "no staff login link");
        assert_eq!(
            stored(db, tid, t1.no).await.counted,
            Some((745, 335)),
            "the confirmed sheet counts"
        );
        shot_at(p, "94b-phone-confirmed-result", PHONE.0).await;
        shot_at(p, "94b-phone-confirmed-result", 1280).await;

        // ---- table 2: the typical sheet, touches counted ----
        let t2 = &tables[1];
        p.go(&format!("/s/{}", t2.code)).await;
        let n = typical_full(p, t2, true).await;
        println!("TOUCHES full mode, typical 3-hand sheet: {n}");
        assert!(n <= 60, "{n} touches in full mode (goal ≤ 60)");
        assert!(p.html().await.contains(t(Lang::It, "table.notice.entered")));

        // EW disagrees, on the same phone.
        let note = "prima smazzata: noi EO avevamo 60 a terra, non 40";
        p.click("#answer details summary").await;
        p.fill("#note", note).await;
        p.fill("#answer_code", &t2.ew_code).await;
        shot_at(p, "96-phone-dispute", PHONE.0).await;
        p.submit("#answer-form button[name=agree][value=no]").await;
        wait_for(
            p,
            "return location.search.indexOf('ok=disputed') >= 0",
            10,
            "disputed",
        )
        .await;
        assert!(p
            .html()
            .await
            .contains(t(Lang::It, "table.notice.disputed")));
        // Every page of the table now says the referee decides, and offers
        // no confirmation (the page after the dispute, the table's page as
        // either pair opens it again).
        for path in [String::new(), format!("/s/{}", t2.code)] {
            if !path.is_empty() {
                p.go(&path).await;
            }
            let html = p.html().await;
            assert!(html.contains("id=\"disputed\""), "{html}");
            assert!(
                html.contains(t(Lang::It, "table.disputed.referee")),
                "{html}"
            );
            assert!(
                !html.contains(t(Lang::It, "table.answer.handover")),
                "{html}"
            );
            assert!(!html.contains(t(Lang::It, "table.page.confirm")), "{html}");
            assert!(!html.contains("name=\"pair_code\""), "{html}");
        }
        shot_at(p, "96b-phone-disputed-referee-decides", PHONE.0).await;
        shot_at(p, "96b-phone-disputed-referee-decides", 1280).await;

        // ---- the desk settles it with the players' sheet in view ----
        desk.login("rita", RITA_PW).await;
        desk.go(&format!("/desk/t/{tid}/rounds/1")).await;
        desk.shot("97-desk-dispute-round").await;
        desk.submit(&format!("a[href$='/tables/{}#pending']", t2.no))
            .await;
        assert_eq!(
            desk.path().await,
            format!("/desk/t/{tid}/rounds/1/tables/{}", t2.no)
        );
        let dispute = js_str(
            &desk,
            "return document.querySelector('#pending .dispute-note').innerText",
        )
        .await;
        assert!(dispute.contains(note), "the note at the top: {dispute}");
        assert!(
            js(
                &desk,
                "return document.querySelector('#pending').getBoundingClientRect().top \
                       < document.getElementById('sheet-form').getBoundingClientRect().top"
            )
            .await
            .as_bool()
            .unwrap_or(false),
            "the dispute above the form"
        );
        // The form is the players' sheet, filled in.
        for (name, want) in crate::shared::TYPICAL_FULL {
            assert_eq!(
                value_of(&desk, name).await,
                want,
                "{name} filled in from the players' entry"
            );
        }
        assert!(checked(&desk, "#sheet-form input[name=h1_ew_no_pozzetto]:checked").await);
        assert!(!checked(&desk, "#sheet-form input[name=h1_ns_no_pozzetto]:checked").await);
        desk.shot("97b-desk-dispute-filled-in").await;
        // One box changed: marked, with the players' value beside it.
        desk.fill("#h1_ew_melded_points", "60").await;
        assert!(checked(&desk, "label.changed #h1_ew_melded_points").await);
        let was = js_str(
            &desk,
            "return document.getElementById('h1_ew_melded_points').closest('label').querySelector('small.was').textContent",
        )
        .await;
        assert_eq!(was, format!("{}: 40", t(Lang::It, "desk.pending.was")));
        assert_eq!(
            js(
                &desk,
                "return document.querySelectorAll('#sheet-form label.changed').length"
            )
            .await,
            json!(1),
            "only the box changed is marked"
        );
        // Without a reason the correction is refused, the change kept.
        desk.submit("#save-round").await;
        assert!(
            checked(&desk, ".field.has-error #reason").await,
            "a reason is asked"
        );
        assert!(checked(&desk, "label.changed #h1_ew_melded_points").await);
        assert_eq!(value_of(&desk, "h1_ew_melded_points").await, "60");
        assert_eq!(
            stored(db, tid, t2.no).await.counted,
            None,
            "nothing counted"
        );
        desk.shot("97c-desk-correction-needs-reason").await;
        desk.fill(
            "#reason",
            "EO aveva 60 a terra nella prima smazzata (verificato)",
        )
        .await;
        desk.submit("#save-round").await;
        assert!(desk
            .path()
            .await
            .starts_with(&format!("/desk/t/{tid}/rounds/1")));
        // The count follows the corrected box: EW 335 + 20.
        assert_eq!(stored(db, tid, t2.no).await.counted, Some((745, 355)));
        desk.go(&format!("/desk/t/{tid}/rounds/1/tables/{}", t2.no))
            .await;
        let html = desk.html().await;
        assert!(html.contains("NS 745 – EO 355"), "{html}");
        assert!(!html.contains("id=\"pending\""), "settled");
        desk.shot("97d-desk-dispute-settled").await;
        // The players' phone shows the count.
        p.go(&format!("/s/{}?round=1", t2.code)).await;
        let html = p.html().await;
        assert!(
            html.contains("id=\"result\"") && html.contains("355"),
            "{html}"
        );
        screen(p, "97e-phone-after-the-desk").await;

        // ---- table 3: a sheet that breaks the rules, checked as typed ----
        let t3 = &tables[2];
        p.go(&format!("/s/{}", t3.code)).await;
        let mut k = Touches::new(p);
        // Hand 1: NS closes without a burraco.
        k.end(1, "closure_ns").await;
        k.type_in("h1_ns_melded_points", "245").await;
        k.tap_type("h1_ew_melded_points", "40").await;
        let no_burraco = t(Lang::It, "rules.violation.CLOSED_WITHOUT_BURRACO");
        wait_for(
            p,
            "var o = document.querySelector('#hand-1 [data-total-of=ns]'); \
             return o.classList.contains('bad') && o.textContent.indexOf('burraco') >= 0",
            10,
            "the rule broken where the total would be",
        )
        .await;
        let shown = js_str(
            p,
            "return document.querySelector('#hand-1 [data-total-of=ns]').textContent",
        )
        .await;
        assert!(no_burraco.ends_with(&shown[1..]), "{shown}");
        assert!(
            !js_str(
                p,
                "return document.querySelector('#hand-1 .line-boxes, #hand-1').innerText"
            )
            .await
            .contains("= "),
            "no total for a hand that breaks a rule"
        );
        screen(p, "98c-phone-hand-breaks-a-rule").await;
        shot_at(p, "98c-phone-hand-breaks-a-rule", 1280).await;
        k.tap("#hand-1 [data-step=next]").await;
        // Hand 2: melded points that are not a multiple of 5.
        k.end(2, "closure_ew").await;
        k.type_in("h2_ns_melded_points", "93").await;
        k.tap_type("h2_ew_melded_points", "210").await;
        k.tap_type("h2_ew_dirty", "1").await;
        wait_for(
            p,
            "return document.querySelector('#hand-2 [data-total-of=ns]').textContent.indexOf('93') >= 0",
            10,
            "not a multiple of 5, in words",
        )
        .await;
        k.tap("#hand-2 [data-step=next]").await;
        k.end(3, "stock_exhausted").await;
        k.type_in("h3_ns_melded_points", "60").await;
        k.tap("#hand-3 [data-step=next]").await;
        assert_eq!(visible_steps(p).await, ["finish"]);
        // No computed VP for a sheet the server would refuse.
        assert_eq!(
            js_str(p, "return document.getElementById('vp').textContent").await,
            "—"
        );
        assert_eq!(
            js_str(p, "return document.getElementById('total-ns').textContent").await,
            "—"
        );
        k.type_in("pair_code", &t3.ns_code).await;
        k.tap("#send-sheet").await;
        // Refused: one banner names every step with an error, each a link.
        wait_for(
            p,
            "return document.querySelectorAll('.step-errors a[data-goto]').length > 0",
            10,
            "the banner of the refused send",
        )
        .await;
        // The live check of the form sent takes the place of the server's
        // messages (no message twice).
        wait_for(
            p,
            "return document.getElementById('phone-sheet').hasAttribute('data-preview-seq')",
            10,
            "the live check of the refused form",
        )
        .await;
        assert_eq!(
            js(
                p,
                "return Array.from(document.querySelectorAll('#hand-1 .field-error, #hand-1 .hand-total.bad'))\
                 .filter(e => e.getClientRects().length > 0 && e.textContent.trim()).length"
            )
            .await,
            json!(1),
            "hand 1's message once"
        );
        let links = js(
            p,
            "return Array.from(document.querySelectorAll('.step-errors a')).map(a => a.textContent + ' ' + a.getAttribute('href'))",
        )
        .await;
        assert_eq!(
            links,
            json!(["Smazzata 1 #hand-1", "Smazzata 2 #hand-2"]),
            "the steps with an error"
        );
        assert_eq!(
            js(p, "return document.querySelectorAll('.step-errors').length").await,
            json!(1)
        );
        shot_at(p, "98d-phone-refused-banner", PHONE.0).await;
        shot_at(p, "98d-phone-refused-banner", 1280).await;
        // A tap on a step's name shows that step.
        p.click(".step-errors a[data-goto=hand-2]").await;
        assert_eq!(visible_steps(p).await, ["hand-2"]);
        assert!(
            js_str(p, "return document.getElementById('hand-2').innerText")
                .await
                .contains("93"),
            "hand 2's error in view"
        );
        screen(p, "98e-phone-banner-link-to-hand-2").await;
        p.click(".step-errors a[data-goto=hand-1]").await;
        assert_eq!(visible_steps(p).await, ["hand-1"]);
        assert_eq!(stored(db, tid, t3.no).await.entry, None, "nothing stored");

        // ---- the tournament closed: final places and prizes ----
        for t in &tables[2..] {
            setup::save_sheet(db, dora, tid, 1, t.no, 745, 335).await;
        }
        services::tournaments::close(db, dora, tid, None)
            .await
            .expect("close");
        p.go(&format!("/s/{}", t1.code)).await;
        let html = p.html().await;
        assert!(!html.contains(t(Lang::It, "table.next.wait")), "{html}");
        assert!(html.contains(t(Lang::It, "table.final.title")), "{html}");
        let places = js_str(
            p,
            "return document.querySelector('.final-places').innerText",
        )
        .await;
        for pair in [t1.ns, t1.ew] {
            assert!(
                places.contains(&format!("Coppia {pair}: ")) && places.contains("° posto"),
                "{places}"
            );
        }
        shot_at(p, "98f-phone-closed-final-place", PHONE.0).await;
        shot_at(p, "98f-phone-closed-final-place", 1280).await;
    };
    let result = tokio::time::timeout(Duration::from_secs(420), run).await;
    for c in [desk_client, phone_client] {
        c.close().await.ok();
    }
    result.expect("the phones' evening finishes in 7 minutes");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stale_start_refused_and_a_totals_sheet_from_a_phone() {
    let server = start_server().await;
    let db = &server.db;
    let (dora, tid) = stage(db, "Serata a totali", "totals", false).await;
    let (driver, desk_client) = start_driver().await;
    let (_profile, phone_client) = another_session(&driver, PHONE.0, PHONE.1).await;
    let desk = Page {
        c: &desk_client,
        base: &server.base,
    };
    let phone = Page {
        c: &phone_client,
        base: &server.base,
    };
    let run = async {
        // ---- "Yes, start", Back, the old page posted again ----
        desk.login("dora", DORA_PW).await;
        let home = format!("/director/t/{tid}");
        desk.go(&format!("{home}/confirm-start")).await;
        assert!(desk.html().await.contains("name=\"revision\""));
        desk.shot("98-start-confirm").await;
        desk.submit("form[action$='/draw'] button[type=submit]")
            .await;
        assert!(desk.path().await.starts_with(&format!("{home}/rounds/1")));
        let drawn = seating_rows(db, dora, tid).await;
        assert_eq!(drawn.len(), 4);
        desk.c.back().await.expect("back");
        wait_for(
            &desk,
            "return location.pathname.endsWith('/confirm-start') && document.readyState === 'complete'",
            10,
            "back on the confirmation page",
        )
        .await;
        desk.submit("form[action$='/draw'] button[type=submit]")
            .await;
        let html = desk.html().await;
        assert_eq!(status_code(&desk).await, 409, "{html}");
        assert!(html.contains("stale-page"), "{html}");
        assert!(html.contains(t(Lang::It, "states.error.stale")));
        assert_eq!(
            seating_rows(db, dora, tid).await,
            drawn,
            "round 1 unchanged"
        );
        desk.shot("98b-start-again-refused").await;

        // ---- the typical sheet in totals mode, touches counted ----
        let tables = tables(db, dora, tid).await;
        let t1 = &tables[0];
        let p = &phone;
        p.go(&format!("/s/{}", t1.code)).await;
        assert_eq!(visible_steps(p).await, ["hand-1"]);
        assert!(
            p.html().await.contains("name=\"h1_ns_total\""),
            "totals mode"
        );
        let n = typical_totals(p, t1).await;
        println!("TOUCHES totals mode, typical 3-hand sheet: {n}");
        // 33 before the ends were proposed. The goal is 25, but
        // this sheet's own characters (17 digits and signs) and the pair
        // code (6) are 23 by themselves; the 6 boxes and the code need a
        // tap into the first box, 6 Next and a Send: 31 is the floor unless
        // the phone guessed where a number ends or dropped the code.
        assert!(n <= 31, "{n} touches in totals mode");
        assert!(p.html().await.contains(t(Lang::It, "table.notice.entered")));
        let read = js_str(
            p,
            "return document.getElementById('entered-sheet').innerText",
        )
        .await;
        for v in ["545", "-135", "120", "410", "80", "60"] {
            assert!(read.contains(v), "{v} in the entry shown: {read}");
        }
        assert_eq!(
            stored(db, tid, t1.no).await.entry,
            Some(("entered".into(), 1))
        );
        shot_at(p, "99d-phone-totals-entered", PHONE.0).await;
    };
    let result = tokio::time::timeout(Duration::from_secs(300), run).await;
    for c in [desk_client, phone_client] {
        c.close().await.ok();
    }
    result.expect("the scenario finishes in 5 minutes");
}
