//! Entries as directors count them (RULES.md §10): deleting a registration
//! or marking it no-show before the start, the start turning unchecked
//! pairs into no-shows, no-shows out of the standings, the pool and the
//! file; a withdrawn pair registering again; the desk showing a table's
//! result after an `mp` penalty (RULES.md §9).

use crate::helpers::tid_of;
use serde_json::Value;

use crate::helpers::{location, Browser, TestApp};
use crate::scoring::{at_a_table, post_sheet, sheet, tables_of};
use crate::tournaments::{csv, import, with_director};

/// The database id of pair `number` of tournament `t`.
fn id_of(app: &TestApp, t: &str, number: i32) -> i64 {
    crate::peek::pair_id(app, tid_of(t), number)
}

/// (number, checked_in, no_show, withdrawn_from_round) of every pair.
fn pair_rows(app: &TestApp, t: &str) -> Vec<(i32, bool, bool, Option<i32>)> {
    crate::peek::pair_rows(app, tid_of(t))
}

/// Pair numbers seated or resting in round 1.
fn seated_in_round_1(app: &TestApp, t: &str) -> Vec<i32> {
    let tid = tid_of(t);
    let mut ids: Vec<i64> = crate::peek::seatings_of(app, tid, 1)
        .into_iter()
        .flat_map(|(_, a, b)| [a, b])
        .flatten()
        .collect();
    ids.extend(crate::peek::byes_of(app, tid, 1));
    let mut numbers: Vec<i32> = ids
        .into_iter()
        .map(|id| crate::peek::pair_number(app, id))
        .collect();
    numbers.sort_unstable();
    numbers
}

async fn check_in(b: &Browser, t: &str, pid: i64, value: &str) -> reqwest::Response {
    b.submit(t, &format!("{t}/pairs/{pid}/checkin"), &[("value", value)])
        .await
}

async fn no_show(b: &Browser, t: &str, pid: i64, value: &str) -> reqwest::Response {
    b.submit(t, &format!("{t}/pairs/{pid}/no-show"), &[("value", value)])
        .await
}

async fn withdraw(b: &Browser, t: &str, pid: i64, value: &str) -> reqwest::Response {
    b.submit(t, &format!("{t}/pairs/{pid}/withdraw"), &[("value", value)])
        .await
}

/// Registers "Rossi{i} Maria – Bianchi{i} Luca" (the players of `csv`'s pair i).
async fn register_again(b: &Browser, t: &str, i: usize) -> reqwest::Response {
    let (s1, s2) = (format!("Rossi{i}"), format!("Bianchi{i}"));
    let (c1, c2) = (format!("T{i}A"), format!("T{i}B"));
    b.add_pair(
        t,
        &[
            ("p1_surname", &s1),
            ("p1_name", "Maria"),
            ("p1_card", &c1),
            ("p1_club", "Circolo Sole"),
            ("p2_surname", &s2),
            ("p2_name", "Luca"),
            ("p2_card", &c2),
            ("p2_club", ""),
        ],
    )
    .await
}

async fn export_json(b: &Browser, t: &str) -> Value {
    let res = b.get(&format!("{t}/export.json")).await;
    assert_eq!(res.status().as_u16(), 200);
    serde_json::from_str(&res.text().await.unwrap()).unwrap()
}

#[tokio::test]
async fn a_registration_is_deleted_before_the_start_after_a_confirmation_and_never_after() {
    let (app, dora) = with_director().await;
    let t = app.tournament("Serata").build().await.path;
    assert_eq!(import(&dora, &t, &csv(7)).await.status().as_u16(), 303);
    let pid = id_of(&app, &t, 7);
    // The tournament page links to a confirmation page (no JavaScript).
    let page = dora.get_html(&t).await;
    let link = format!("{t}/pairs/{pid}/delete");
    assert!(page.contains(&format!("href=\"{link}\"")), "{page}");
    let confirm = dora.get_html(&link).await;
    assert!(
        confirm.contains("Rossi7 Maria – Bianchi7 Luca"),
        "{confirm}"
    );
    assert!(confirm.contains(&format!("action=\"{link}\"")));
    // Without the CSRF token nothing happens.
    let res = dora.post_raw(&link, &[]).await;
    assert_eq!(res.status().as_u16(), 403);
    assert_eq!(pair_rows(&app, &t).len(), 7);
    let res = dora.submit(&link, &link, &[]).await;
    assert_eq!(res.status().as_u16(), 303);
    assert_eq!(location(&res), format!("{t}#pairs"));
    let numbers: Vec<i32> = pair_rows(&app, &t).iter().map(|r| r.0).collect();
    assert_eq!(numbers, vec![1, 2, 3, 4, 5, 6]);
    let audit = dora
        .get_html(&format!("/desk/t/{}/audit", tid_of(&t)))
        .await;
    assert!(audit.contains("Iscrizione cancellata"), "{audit}");
    // A second delete of the same pair: it no longer exists.
    assert_eq!(dora.submit(&t, &link, &[]).await.status().as_u16(), 404);

    // After the start: refused with a clear 409, the pair stays.
    for n in 1..=6 {
        check_in(&dora, &t, id_of(&app, &t, n), "true").await;
    }
    assert_eq!(dora.confirm(&t, "draw", &[]).await.status().as_u16(), 303);
    let pid = id_of(&app, &t, 4);
    let link = format!("{t}/pairs/{pid}/delete");
    let res = dora.submit(&t, &link, &[]).await;
    assert_eq!(res.status().as_u16(), 409);
    assert!(res
        .text()
        .await
        .unwrap()
        .contains("Il torneo è già iniziato"));
    assert_eq!(dora.get_status(&link).await, 409);
    assert_eq!(pair_rows(&app, &t).len(), 6);
    // No delete button once the tournament runs.
    assert!(!dora.get_html(&t).await.contains("/delete\""));
}

#[tokio::test]
async fn no_shows_and_pairs_not_checked_in_at_the_start_are_not_entries() {
    let (app, dora) = with_director().await;
    let t = app.tournament("Serata").build().await.path;
    import(&dora, &t, &csv(7)).await;
    for n in 1..=5 {
        check_in(&dora, &t, id_of(&app, &t, n), "true").await;
    }
    // Pair 6 is marked no-show, pair 7 is simply not checked in.
    let six = id_of(&app, &t, 6);
    assert_eq!(no_show(&dora, &t, six, "true").await.status().as_u16(), 303);
    // A no-show cannot be checked in until the mark is undone.
    let res = check_in(&dora, &t, six, "true").await;
    assert_eq!(res.status().as_u16(), 409);
    assert_eq!(
        no_show(&dora, &t, six, "false").await.status().as_u16(),
        303
    );
    assert_eq!(no_show(&dora, &t, six, "true").await.status().as_u16(), 303);
    // Marking a checked-in pair no-show undoes its check-in.
    let five = id_of(&app, &t, 5);
    no_show(&dora, &t, five, "true").await;
    assert!(!pair_rows(&app, &t)[4].1, "a no-show is not checked in");
    no_show(&dora, &t, five, "false").await;
    check_in(&dora, &t, five, "true").await;

    let page = dora.get_html(&t).await;
    assert!(
        page.contains("Iscrizioni: <strong>7</strong> · In gara: <strong>6</strong> · Assenti o ritirate prima dell&#39;inizio: <strong>1</strong>"),
        "{page}"
    );
    // The start warns how many registrations are not checked in.
    assert!(page.contains("id=\"unchecked-warning\""), "{page}");
    assert!(
        page.contains("diventeranno assenti: <strong>1</strong>"),
        "{page}"
    );

    assert_eq!(dora.confirm(&t, "draw", &[]).await.status().as_u16(), 303);
    let rows = pair_rows(&app, &t);
    let marks: Vec<(i32, bool)> = rows.iter().map(|r| (r.0, r.2)).collect();
    assert_eq!(
        marks,
        vec![
            (1, false),
            (2, false),
            (3, false),
            (4, false),
            (5, false),
            (6, true),
            (7, true)
        ]
    );
    assert_eq!(seated_in_round_1(&app, &t), vec![1, 2, 3, 4, 5]);
    let page = dora.get_html(&t).await;
    assert!(
        page.contains("In gara: <strong>5</strong> · Assenti o ritirate prima dell&#39;inizio: <strong>2</strong>"),
        "{page}"
    );
    // After the start the mark stays.
    let res = no_show(&dora, &t, six, "false").await;
    assert_eq!(res.status().as_u16(), 409);
    assert!(res
        .text()
        .await
        .unwrap()
        .contains("Il torneo è già iniziato"));
    assert_eq!(
        no_show(&dora, &t, id_of(&app, &t, 1), "true")
            .await
            .status()
            .as_u16(),
        409
    );

    // The file says so (FORMAT.md), and the standings count 5 entries.
    let file = export_json(&dora, &t).await;
    let marked: Vec<u64> = file["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["no_show"] == Value::Bool(true))
        .map(|p| p["number"].as_u64().unwrap())
        .collect();
    assert_eq!(marked, vec![6, 7]);
    let parsed = burraco_td::tournament_file::parse(&file.to_string()).unwrap();
    let s = burraco_td::standings::compute_file(&parsed, burraco_td::i18n::Lang::It).unwrap();
    assert_eq!(s.entries, 5);
    // 5 × 20,00 × 70% = 70,00 (7 registrations would make 98,00).
    assert_eq!(s.pool.to_string(), "70.00");
    assert!(s.row(6).is_none() && s.row(7).is_none());
    // The public standings list five pairs.
    let anon = app.another_browser();
    let public = anon.get_html(&format!("/t/{}", tid_of(&t))).await;
    assert!(!public.contains("Rossi6") && !public.contains("Rossi7"));
    assert!(public.contains("Rossi5"));
    // Its pool is that of the five entries.
    assert!(
        public.contains("€ 70.00") || public.contains("70,00"),
        "{public}"
    );
    assert!(
        !public.contains("98.00") && !public.contains("98,00"),
        "{public}"
    );

    // Imported back, the marks come back the same.
    let tz: chrono_tz::Tz = "Europe/Rome".parse().unwrap();
    let new_id = {
        let mut c = app.pool.get().unwrap();
        burraco_td::db::import::import_file(
            &mut c,
            &parsed,
            tz,
            burraco_td::ids::UserId(1),
            app.clock().now(),
        )
        .unwrap()
    };
    let again = {
        let mut c = app.pool.get().unwrap();
        burraco_td::db::export::load_file(&mut c, new_id, tz)
            .unwrap()
            .unwrap()
    };
    let marks: Vec<bool> = again.pairs.iter().map(|p| p.no_show).collect();
    assert_eq!(marks, vec![false, false, false, false, false, true, true]);
}

#[tokio::test]
async fn a_withdrawn_or_no_show_pair_can_register_again_but_not_be_doubled() {
    let (app, dora) = with_director().await;
    let t = app.tournament("Serata").build().await.path;
    import(&dora, &t, &csv(6)).await;
    // Withdrawn before the start: its players are free again.
    let one = id_of(&app, &t, 1);
    assert_eq!(
        withdraw(&dora, &t, one, "true").await.status().as_u16(),
        303
    );
    let res = register_again(&dora, &t, 1).await;
    assert_eq!(res.status().as_u16(), 303, "{}", res.text().await.unwrap());
    assert_eq!(pair_rows(&app, &t).len(), 7);
    // The old registration cannot come back while they play in pair 7.
    let res = withdraw(&dora, &t, one, "false").await;
    assert_eq!(res.status().as_u16(), 422);
    assert!(res
        .text()
        .await
        .unwrap()
        .contains("è già iscritto nella coppia 7"));
    // Same for a no-show.
    let two = id_of(&app, &t, 2);
    no_show(&dora, &t, two, "true").await;
    assert_eq!(register_again(&dora, &t, 2).await.status().as_u16(), 303);
    assert_eq!(
        no_show(&dora, &t, two, "false").await.status().as_u16(),
        422
    );
    // An active pair still holds its players.
    assert_eq!(register_again(&dora, &t, 3).await.status().as_u16(), 422);
    // A CSV with the players of a withdrawn pair: the preview agrees they
    // are free (it used to call them taken), and the import saves them.
    let four = id_of(&app, &t, 4);
    withdraw(&dora, &t, four, "true").await;
    let again = format!(
        "{}Rossi4;Maria;T4A;Circolo Sole;Bianchi4;Luca;T4B;\n",
        csv(0)
    );
    let import_page = format!("{t}/import");
    let preview = dora
        .submit(&import_page, &import_page, &[("csv", &again)])
        .await;
    let preview = preview.text().await.unwrap();
    assert!(!preview.contains("già iscritto"), "{preview}");
    assert_eq!(import(&dora, &t, &again).await.status().as_u16(), 303);
    assert_eq!(pair_rows(&app, &t).len(), 9);

    // After the start: a pair withdrawn after playing registers again as
    // a late pair (it missed rounds: reinstating is refused).
    for n in [3, 5, 6, 7, 8, 9] {
        check_in(&dora, &t, id_of(&app, &t, n), "true").await;
    }
    dora.confirm(&t, "draw", &[]).await;
    let tables = tables_of(&app, 1);
    for table in &tables {
        post_sheet(&dora, &t, 1, *table, &sheet(100, 90)).await;
    }
    let three = id_of(&app, &t, 3);
    assert_eq!(
        withdraw(&dora, &t, three, "true").await.status().as_u16(),
        303
    );
    let res = dora.confirm(&t, "rounds", &[("round", "2")]).await;
    assert_eq!(res.status().as_u16(), 303, "{}", res.text().await.unwrap());
    assert_eq!(
        withdraw(&dora, &t, three, "false").await.status().as_u16(),
        409
    );
    let res = register_again(&dora, &t, 3).await;
    assert_eq!(res.status().as_u16(), 303, "{}", res.text().await.unwrap());
    let rows = pair_rows(&app, &t);
    assert_eq!(rows.len(), 10);
    // Pair 3 played round 1: still an entry; the old pairs 1, 2, 4 are not.
    let file = export_json(&dora, &t).await;
    let parsed = burraco_td::tournament_file::parse(&file.to_string()).unwrap();
    let s = burraco_td::standings::compute_file(&parsed, burraco_td::i18n::Lang::It).unwrap();
    assert!(s.row(3).is_some_and(|r| r.withdrawn));
    assert!(s.row(1).is_none() && s.row(2).is_none() && s.row(4).is_none());
    assert_eq!(s.entries, 7);
}

/// (ns pair number, ew pair number) at table `table` of round 1.
fn pairs_at(app: &TestApp, tid: i64, table: i32) -> (i32, i32) {
    crate::peek::seat(app, tid, 1, table)
}

#[tokio::test]
async fn the_desk_shows_a_table_after_its_mp_penalty_and_why() {
    let (app, dora, t, tid, table) = at_a_table(6).await;
    // NS 3 × 400 = 1200, EW 3 × 70 = 210: difference 990.
    post_sheet(&dora, &t, 1, table, &sheet(100, 90)).await;
    let (ns, _) = pairs_at(&app, tid, table);
    let desk = format!("/desk/t/{tid}/rounds/1");
    let before = dora.get_html(&desk).await;
    assert!(!before.contains("dopo la penalità"), "{before}");
    let unpenalised = dora.get_html(&format!("{desk}/tables/{table}")).await;
    assert!(
        !unpenalised.contains("id=\"counted-result\""),
        "{unpenalised}"
    );
    let vp_cell = |html: &str| -> String {
        let row = &html[html.find(&format!("id=\"table-{table}\"")).unwrap()..];
        let row = &row[..row.find("</tr>").unwrap()];
        let start = row.find("<strong>").unwrap() + "<strong>".len();
        let start = start + row[start..].find("<strong>").unwrap() + "<strong>".len();
        row[start..start + row[start..].find("</strong>").unwrap()].to_string()
    };
    let written = vp_cell(&before);

    let ns_id = id_of(&app, &t, ns).to_string();
    let res = dora
        .penalty(&tid, &ns_id, "mp", "300", "in ritardo di 7 minuti")
        .await;
    assert_eq!(res.status().as_u16(), 303, "{}", res.text().await.unwrap());

    // The standings count the penalised result; the desk shows the same.
    let file = export_json(&dora, &t).await;
    let parsed = burraco_td::tournament_file::parse(&file.to_string()).unwrap();
    let s = burraco_td::standings::compute_file(&parsed, burraco_td::i18n::Lang::It).unwrap();
    let card = &s.card(ns as u32).unwrap().rounds[0];
    assert_eq!(card.mp_penalty, 300);
    let counted = format!("{}–{}", card.vp.unwrap(), card.opponent_vp.unwrap());
    assert_ne!(counted, written, "the penalty changes the VP");
    let html = dora.get_html(&desk).await;
    assert_eq!(vp_cell(&html), counted, "{html}");
    assert!(html.contains(&format!("sul foglio {written}")), "{html}");
    let mp_for = card.mp_for.unwrap();
    let note = format!(
        "{} → {} dopo la penalità −300 alla coppia {ns}",
        burraco_td::i18n::format::integer(burraco_td::i18n::Lang::It, mp_for + 300),
        burraco_td::i18n::format::integer(burraco_td::i18n::Lang::It, mp_for)
    );
    assert!(html.contains(&note), "{html}");
    // The table's own page says the same next to the saved sheet.
    let sheet_page = format!("{desk}/tables/{table}");
    let before_sheet = dora.get_html(&sheet_page).await;
    let box_start = before_sheet
        .find("id=\"counted-result\"")
        .expect("the counted result on the table's page");
    let counted_box = &before_sheet[box_start..];
    let counted_box = &counted_box[..counted_box.find("</p>").unwrap()];
    assert!(
        counted_box.contains(&format!("<strong>{counted}</strong>")),
        "{counted_box}"
    );
    assert!(counted_box.contains(&note), "{counted_box}");
    // In English too.
    dora.get(&format!("/lang/en?next={desk}")).await;
    let html = dora.get_html(&desk).await;
    assert!(
        html.contains(&format!("after penalty −300 to pair {ns}")),
        "{html}"
    );
}

#[tokio::test]
async fn deleting_or_marking_a_pair_while_the_draw_runs_leaves_one_consistent_story() {
    for _ in 0..4 {
        let (app, dora) = with_director().await;
        let t = app.tournament("Serata").build().await.path;
        // 8 pairs: with both changes first, 6 remain (3 tables, 3 rounds).
        import(&dora, &t, &csv(8)).await;
        for n in 1..=8 {
            check_in(&dora, &t, id_of(&app, &t, n), "true").await;
        }
        let six = id_of(&app, &t, 6);
        let five = id_of(&app, &t, 5);
        let token = crate::helpers::csrf_in(&dora.get_html(&t).await);
        let other = &dora;
        let delete = format!("{t}/pairs/{six}/delete");
        let mark = format!("{t}/pairs/{five}/no-show");
        let draw = format!("{t}/draw");
        let with_token = [("csrf_token", token.as_str())];
        let draw_fields = [("csrf_token", token.as_str()), ("confirm", "1")];
        let mark_fields = [("csrf_token", token.as_str()), ("value", "true")];
        let (drawn, deleted, marked) = tokio::join!(
            dora.post_raw(&draw, &draw_fields),
            other.post_raw(&delete, &with_token),
            other.post_raw(&mark, &mark_fields),
        );
        assert_eq!(drawn.status().as_u16(), 303);
        let deleted = deleted.status().as_u16();
        let marked = marked.status().as_u16();
        assert!([303, 409].contains(&deleted), "delete answered {deleted}");
        assert!([303, 409].contains(&marked), "no-show answered {marked}");
        let rows = pair_rows(&app, &t);
        let seated = seated_in_round_1(&app, &t);
        // Deleted before the draw: gone and not seated; else seated.
        assert_eq!(rows.iter().any(|r| r.0 == 6), deleted == 409);
        assert_eq!(seated.contains(&6), deleted == 409);
        // Marked before the draw: a no-show, not seated; else seated.
        let five_row = rows.iter().find(|r| r.0 == 5).unwrap();
        assert_eq!(five_row.2, marked == 303);
        assert_eq!(seated.contains(&5), marked == 409);
    }
}
