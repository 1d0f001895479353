//! States that say what they are (issue 14, item 3): the banner, read-only
//! forms and 409s in the wrong state, confirmation pages for the
//! irreversible actions, undoing a round, the clock's pause and warnings.
//! The clock is tested without sleeping: the stored times are moved back.

use crate::helpers::tid_of;
use chrono::Duration;

use crate::helpers::{location, Browser, TestApp};
use crate::scoring::{
    at_a_table, correction, play_rounds, post_sheet, score_round, sheet, started, tables_of,
};
use crate::tournaments::with_director;

use crate::peek::{audit_codes, clock_of, round_numbers, shift_clock, status_of};

/// The database id of a tournament's first pair.
fn first_pair_id(app: &TestApp, tid: i64) -> i64 {
    crate::peek::pair_id(app, tid, 1)
}

async fn clock_post(b: &Browser, t: &str, n: i32, fields: &[(&str, &str)]) -> reqwest::Response {
    let tid = tid_of(t);
    b.submit(
        &format!("/desk/t/{tid}/rounds/{n}"),
        &format!("{t}/rounds/{n}/clock"),
        fields,
    )
    .await
}

#[tokio::test]
async fn starting_asks_first_and_a_post_without_confirmation_only_shows_the_page() {
    let (app, dora) = with_director().await;
    let t = app
        .tournament("Serata")
        .pairs(8)
        .checked_in()
        .build()
        .await
        .path;
    let tid = tid_of(&t);
    // Pair 8 is not checked in after all.
    let pid = crate::peek::pair_id(&app, tid, 8);
    dora.submit(
        &t,
        &format!("{t}/pairs/{pid}/checkin"),
        &[("value", "false")],
    )
    .await;
    // The tournament page leads to the confirmation page, not to a POST.
    let html = dora.get_html(&t).await;
    assert!(
        html.contains(&format!("href=\"{t}/confirm-start\"")),
        "{html}"
    );
    assert!(!html.contains(&format!("action=\"{t}/draw\"")));
    assert!(html.contains("state-banner state-draft"), "{html}");
    // A POST without confirmation acts on nothing and goes to the page.
    let res = dora.submit(&t, &format!("{t}/draw"), &[]).await;
    assert_eq!(res.status().as_u16(), 303);
    assert_eq!(location(&res), format!("{t}/confirm-start"));
    let res = dora
        .submit(&t, &format!("{t}/draw"), &[("confirm", "yes please")])
        .await;
    assert_eq!(location(&res), format!("{t}/confirm-start"));
    assert_eq!(status_of(&app, tid), "draft");
    assert!(round_numbers(&app, tid).is_empty());
    // The page says what happens, warns of the absent and odd pairs.
    let res = dora.get(&format!("{t}/confirm-start")).await;
    assert_eq!(res.status().as_u16(), 200);
    let html = res.text().await.unwrap();
    assert!(html.contains("Avviare il torneo"), "{html}");
    assert!(html.contains("7 coppie presenti"), "{html}");
    assert!(html.contains("non presenti, che non vengono sorteggiate: 8."));
    assert!(html.contains("Numero dispari"));
    assert!(html.contains("name=\"confirm\" value=\"1\""));
    // Confirmed: round 1 is drawn.
    let res = dora
        .submit(
            &format!("{t}/confirm-start"),
            &format!("{t}/draw"),
            &[("confirm", "1")],
        )
        .await;
    assert_eq!(location(&res), format!("{t}/rounds/1?done=round_drawn"));
    assert_eq!(status_of(&app, tid), "running");
    // In English too, and now as a redraw.
    dora.get("/lang/en?next=/").await;
    let html = dora.get_html(&format!("{t}/confirm-redraw")).await;
    assert!(html.contains("Draw round 1 again"), "{html}");
    assert!(html.contains("Yes, draw again"));
    // The start's own page now says it cannot start twice.
    let html = dora.get_html(&format!("{t}/confirm-start")).await;
    assert!(html.contains("already started"), "{html}");
    assert!(!html.contains("name=\"confirm\" value=\"1\""));
}

#[tokio::test]
async fn generating_a_round_asks_first_with_the_unscored_tables_and_keeps_the_reason() {
    let (app, dora, t) = started(8).await;
    let tid = tid_of(&t);
    let tables = tables_of(&app, 1);
    post_sheet(&dora, &t, 1, tables[0], &sheet(120, 90)).await;
    // The old form fields, without confirm: the page, with the reason kept.
    let res = dora
        .submit(
            &t,
            &format!("{t}/rounds"),
            &[("round", "2"), ("force_reason", "gli altri dopo")],
        )
        .await;
    assert_eq!(res.status().as_u16(), 303);
    let page = location(&res);
    assert!(
        page.starts_with(&format!("{t}/confirm-round?round=2&force_reason=gli")),
        "{page}"
    );
    assert_eq!(round_numbers(&app, tid), vec![1]);
    let html = dora.get_html(&page).await;
    assert!(html.contains("Generare il turno 2"), "{html}");
    let missing: Vec<String> = tables[1..].iter().map(i32::to_string).collect();
    assert!(
        html.contains(&format!("senza punteggio: {}", missing.join(", "))),
        "{html}"
    );
    assert!(html.contains("non è stato chiamato il time-out"));
    assert!(html.contains("name=\"force_reason\" value=\"gli altri dopo\""));
    // Whatever comes in the query is shown escaped, never as markup.
    let html = dora
        .get_html(&format!(
            "{t}/confirm-round?round=9&force_reason=%22%3E%3Cscript%3Ex%3C%2Fscript%3E"
        ))
        .await;
    assert!(!html.contains("<script>x"), "{html}");
    assert!(
        html.contains("name=\"round\" value=\"2\""),
        "the round is the next one"
    );
    assert!(html.contains("name=\"round\" value=\"2\""));
    // Confirmed without a reason: refused (409), nothing made.
    let res = dora
        .submit(
            &page,
            &format!("{t}/rounds"),
            &[("confirm", "1"), ("round", "2")],
        )
        .await;
    assert_eq!(res.status().as_u16(), 409);
    assert_eq!(round_numbers(&app, tid), vec![1]);
    // Confirmed with the reason: made, and the reason is on the record.
    let res = dora
        .submit(
            &page,
            &format!("{t}/rounds"),
            &[
                ("confirm", "1"),
                ("round", "2"),
                ("force_reason", "gli altri dopo"),
            ],
        )
        .await;
    assert_eq!(location(&res), format!("{t}/rounds/2?done=round_generated"));
    assert_eq!(round_numbers(&app, tid), vec![1, 2]);
    let audit = dora.get_html(&format!("/desk/t/{tid}/audit")).await;
    assert!(audit.contains("gli altri dopo"));
}

#[tokio::test]
async fn time_out_and_close_ask_first_and_close_is_blocked_while_sheets_are_missing() {
    let (app, dora, t) = started(8).await;
    let tid = tid_of(&t);
    // Starting the clock needs no confirmation.
    let res = clock_post(&dora, &t, 1, &[("action", "start")]).await;
    assert_eq!(location(&res), format!("/desk/t/{tid}/rounds/1#clock"));
    assert!(clock_of(&app, tid, 1).0.is_some());
    // Time-out without confirmation: the page, nothing recorded.
    let res = clock_post(&dora, &t, 1, &[("action", "time_out")]).await;
    assert_eq!(
        location(&res),
        format!("{t}/rounds/1/confirm-time-out?back=desk")
    );
    assert!(clock_of(&app, tid, 1).3.is_none());
    let desk = dora.get_html(&format!("/desk/t/{tid}/rounds/1")).await;
    assert!(desk.contains(&format!("href=\"{t}/rounds/1/confirm-time-out?back=desk\"")));
    let html = dora
        .get_html(&format!("{t}/rounds/1/confirm-time-out"))
        .await;
    assert!(html.contains("Chiamare il time-out del turno 1"), "{html}");
    assert!(html.contains("restano ancora"), "{html}");
    assert!(html.contains("name=\"action\" value=\"time_out\""));
    let res = clock_post(
        &dora,
        &t,
        1,
        &[
            ("action", "time_out"),
            ("confirm", "1"),
            ("back", "director"),
        ],
    )
    .await;
    assert_eq!(location(&res), format!("{t}/rounds/1#clock"));
    assert!(clock_of(&app, tid, 1).3.is_some());
    // Called: the page says so and offers no form.
    let html = dora
        .get_html(&format!("{t}/rounds/1/confirm-time-out"))
        .await;
    assert!(html.contains("Time-out chiamato"), "{html}");
    assert!(!html.contains("name=\"confirm\""));
    // Close: without confirmation the page; with sheets missing it says so.
    let res = dora.submit(&t, &format!("{t}/close"), &[]).await;
    assert_eq!(location(&res), format!("{t}/confirm-close"));
    assert_eq!(status_of(&app, tid), "running");
    let html = dora.get_html(&format!("{t}/confirm-close")).await;
    assert!(html.contains("Adesso non si può fare"), "{html}");
    assert!(html.contains("turno 1"), "{html}");
    assert!(!html.contains("name=\"confirm\""));
    score_round(&app, &dora, &t, 1, 100, 90).await;
    let html = dora.get_html(&format!("{t}/confirm-close")).await;
    assert!(html.contains("giocati 1 turni sui 4 previsti"), "{html}");
    assert!(html.contains("name=\"confirm\" value=\"1\""));
    let res = dora
        .submit(
            &format!("{t}/confirm-close"),
            &format!("{t}/close"),
            &[("confirm", "1")],
        )
        .await;
    assert_eq!(location(&res), format!("{t}?done=tournament_closed"));
    assert_eq!(status_of(&app, tid), "finished");
}

#[tokio::test]
async fn a_round_is_undone_while_empty_and_refused_once_anything_is_recorded() {
    let (app, dora, t) = started(8).await;
    let tid = tid_of(&t);
    dora.confirm(&t, "rounds", &[("round", "2"), ("force_reason", "prova")])
        .await;
    assert_eq!(round_numbers(&app, tid), vec![1, 2]);
    // Round 1 is not the last one.
    let res = dora.confirm(&t, "rounds/1/undo", &[]).await;
    assert_eq!(res.status().as_u16(), 409);
    assert!(res.text().await.unwrap().contains("ultimo turno generato"));
    // The round page offers the undo; without confirmation, the page.
    let html = dora.get_html(&format!("{t}/rounds/2")).await;
    assert!(html.contains(&format!("href=\"{t}/rounds/2/confirm-undo\"")));
    let res = dora.submit(&t, &format!("{t}/rounds/2/undo"), &[]).await;
    assert_eq!(location(&res), format!("{t}/rounds/2/confirm-undo"));
    assert_eq!(round_numbers(&app, tid), vec![1, 2]);
    let html = dora.get_html(&format!("{t}/rounds/2/confirm-undo")).await;
    assert!(html.contains("Annullare il turno 2"), "{html}");
    assert!(html.contains("il turno 1 torna a essere"));
    // A penalty for round 2 refuses the undo (the page says so, the POST 409s).
    let pair = first_pair_id(&app, tid);
    let penalty = crate::peek::insert_warning(&app, tid, 2, pair, app.clock().now());
    let html = dora.get_html(&format!("{t}/rounds/2/confirm-undo")).await;
    assert!(html.contains("penalità: 1"), "{html}");
    assert!(!html.contains("name=\"confirm\""));
    assert!(!dora
        .get_html(&format!("{t}/rounds/2"))
        .await
        .contains("confirm-undo"));
    let res = dora.confirm(&t, "rounds/2/undo", &[]).await;
    assert_eq!(res.status().as_u16(), 409);
    assert_eq!(round_numbers(&app, tid), vec![1, 2]);
    crate::peek::delete_penalty(&app, penalty);
    // Nothing recorded: undone, on the record, round 1 is the last again.
    let res = dora
        .submit(
            &format!("{t}/rounds/2/confirm-undo"),
            &format!("{t}/rounds/2/undo"),
            &[("confirm", "1")],
        )
        .await;
    assert_eq!(location(&res), format!("{t}/rounds/1?done=round_undone"));
    assert_eq!(round_numbers(&app, tid), vec![1]);
    // A double click: the round is already gone, nothing else happens.
    let res = dora.confirm(&t, "rounds/2/undo", &[]).await;
    assert_eq!(location(&res), format!("{t}/rounds/1?done=round_undone"));
    assert_eq!(round_numbers(&app, tid), vec![1]);
    assert_eq!(
        audit_codes(&app, tid)
            .iter()
            .filter(|c| *c == "round.undone")
            .count(),
        1
    );
    assert!(audit_codes(&app, tid).contains(&"round.undone".to_string()));
    assert!(dora
        .get_html(&format!("/desk/t/{tid}/audit"))
        .await
        .contains("Turno annullato"));
    // A sheet in round 1: it cannot be undone any more.
    let table = tables_of(&app, 1)[0];
    post_sheet(&dora, &t, 1, table, &sheet(120, 90)).await;
    let res = dora.confirm(&t, "rounds/1/undo", &[]).await;
    assert_eq!(res.status().as_u16(), 409);
    assert!(res.text().await.unwrap().contains("score: 1"));
    assert_eq!(round_numbers(&app, tid), vec![1]);
    assert_eq!(status_of(&app, tid), "running");
}

#[tokio::test]
async fn undoing_round_one_undoes_the_start_and_the_tournament_can_start_again() {
    let (app, dora, t) = started(6).await;
    let tid = tid_of(&t);
    let html = dora.get_html(&format!("{t}/rounds/1/confirm-undo")).await;
    assert!(html.contains("avvio viene annullato"), "{html}");
    let res = dora.confirm(&t, "rounds/1/undo", &[]).await;
    assert_eq!(location(&res), format!("{t}?done=start_undone"));
    assert_eq!(status_of(&app, tid), "draft");
    assert!(round_numbers(&app, tid).is_empty());
    // The table codes stay; a phone that opens one is told, no error.
    let code = crate::peek::table_codes_of(&app, tid).remove(0);
    for path in [format!("/s/{code}"), format!("/api/v1/score/{code}")] {
        let status = app.get_status(&path).await;
        assert!(status < 500, "{path}: {status}");
    }
    // Twice: still in preparation, no error.
    let res = dora.confirm(&t, "rounds/1/undo", &[]).await;
    assert_eq!(location(&res), format!("{t}?done=start_undone"));
    assert_eq!(status_of(&app, tid), "draft");
    let html = dora.get_html(&format!("{t}?done=start_undone")).await;
    assert!(html.contains("Avvio annullato"));
    assert!(html.contains("state-banner state-draft"));
    // The settings are open again.
    let html = dora.get_html(&format!("{t}/edit")).await;
    assert!(!html.contains("readonly"), "{html}");
    // And it starts again.
    let res = dora.confirm(&t, "draw", &[]).await;
    assert_eq!(location(&res), format!("{t}/rounds/1?done=round_drawn"));
    assert_eq!(round_numbers(&app, tid), vec![1]);
}

#[tokio::test]
async fn a_paused_clock_keeps_its_time_and_the_staff_see_the_ten_and_five_minute_warnings() {
    let (app, dora, t) = started(8).await;
    let tid = tid_of(&t);
    let desk = format!("/desk/t/{tid}/rounds/1");
    // Not started: nothing to pause.
    clock_post(&dora, &t, 1, &[("action", "pause")]).await;
    assert_eq!(clock_of(&app, tid, 1).1, None);
    clock_post(&dora, &t, 1, &[("action", "start")]).await;
    let html = dora.get_html(&desk).await;
    assert!(html.contains("clock-box clock-running\""), "{html}");
    assert!(
        html.contains("<strong class=\"clock-value\">40:00</strong>") || html.contains(">39:59<")
    );
    // 25 minutes later: 15 left, no warning yet.
    shift_clock(&app, tid, 1, Duration::minutes(25));
    let html = dora.get_html(&desk).await;
    assert!(
        html.contains(">15:00<") || html.contains(">14:59<"),
        "{html}"
    );
    assert!(!html.contains("warn-"), "{html}");
    // Paused: the time left is frozen however long the pause lasts.
    clock_post(&dora, &t, 1, &[("action", "pause")]).await;
    assert!(clock_of(&app, tid, 1).1.is_some());
    shift_clock(&app, tid, 1, Duration::minutes(30));
    let html = dora.get_html(&desk).await;
    assert!(html.contains("clock-box clock-paused"), "{html}");
    assert!(html.contains("Orologio in pausa dalle"), "{html}");
    assert!(
        html.contains(">15:00<") || html.contains(">14:59<"),
        "{html}"
    );
    assert!(html.contains("name=\"action\" value=\"resume\""));
    // Resumed: the 30 minutes of the pause are added to the round's time.
    clock_post(&dora, &t, 1, &[("action", "resume")]).await;
    let (_, paused_at, paused_seconds, _) = clock_of(&app, tid, 1);
    assert_eq!(paused_at, None);
    assert!((1800..1805).contains(&paused_seconds), "{paused_seconds}");
    let html = dora.get_html(&desk).await;
    assert!(html.contains("clock-box clock-running\""), "{html}");
    assert!(
        html.contains(">15:00<") || html.contains(">14:59<"),
        "{html}"
    );
    // Five minutes later: the 10-minute warning, on the desk and the director's page.
    shift_clock(&app, tid, 1, Duration::minutes(5));
    for page in [desk.clone(), format!("{t}/rounds/1")] {
        let html = dora.get_html(&page).await;
        assert!(html.contains("clock-box clock-running warn-ten"), "{html}");
        assert!(html.contains("Mancano 10 minuti o meno"), "{html}");
    }
    // From the director's page, time-out comes back there.
    let html = dora.get_html(&format!("{t}/rounds/1")).await;
    assert!(html.contains("confirm-time-out?back=director"), "{html}");
    let html = dora
        .get_html(&format!("{t}/rounds/1/confirm-time-out?back=director"))
        .await;
    assert!(html.contains("name=\"back\" value=\"director\""), "{html}");
    // Five more: the 5-minute warning.
    shift_clock(&app, tid, 1, Duration::minutes(5));
    let html = dora.get_html(&desk).await;
    assert!(html.contains("clock-box clock-running warn-five"), "{html}");
    assert!(html.contains("Mancano 5 minuti o meno"));
    // Players never see the time left.
    let public = dora.get_html(&format!("/t/{tid}")).await;
    assert!(!public.contains("clock-value") && !public.contains("clock-warning"));
    // Paused again, then time-out: the pause ends with it.
    clock_post(&dora, &t, 1, &[("action", "pause")]).await;
    shift_clock(&app, tid, 1, Duration::minutes(2));
    clock_post(&dora, &t, 1, &[("action", "time_out"), ("confirm", "1")]).await;
    let (_, paused_at, paused_seconds, time_out) = clock_of(&app, tid, 1);
    assert!(time_out.is_some());
    assert_eq!(paused_at, None);
    assert!(paused_seconds >= 1800 + 120, "{paused_seconds}");
    // Resume after time-out changes nothing.
    clock_post(&dora, &t, 1, &[("action", "resume")]).await;
    assert_eq!(clock_of(&app, tid, 1).1, None);
    let codes = audit_codes(&app, tid);
    assert_eq!(
        codes.iter().filter(|c| *c == "clock.paused").count(),
        2,
        "{codes:?}"
    );
    assert_eq!(codes.iter().filter(|c| *c == "clock.resumed").count(), 1);
    let audit = dora.get_html(&format!("/desk/t/{tid}/audit")).await;
    assert!(audit.contains("Orologio in pausa") && audit.contains("Orologio ripreso"));
}

#[tokio::test]
async fn a_closed_tournament_shows_read_only_forms_answers_409_and_reopens_with_a_reason() {
    let (app, dora, t) = started(8).await;
    let tid = tid_of(&t);
    // Running: the game settings look locked.
    let html = dora.get_html(&format!("{t}/edit")).await;
    assert!(html.contains("Bloccato dall"), "{html}");
    assert!(html.contains("id=\"planned_rounds\" name=\"planned_rounds\" value=\"4\" readonly"));
    assert!(html.contains("state-banner state-running"));
    play_rounds(&app, &dora, &t, 4).await;
    dora.confirm(&t, "close", &[]).await;
    assert_eq!(status_of(&app, tid), "finished");
    // Every staff page of it says so.
    for page in [
        t.clone(),
        format!("{t}/edit"),
        format!("{t}/rounds/1"),
        format!("/desk/t/{tid}/rounds/1"),
        format!("/desk/t/{tid}/penalties"),
        format!("/desk/t/{tid}/audit"),
    ] {
        let html = dora.get_html(&page).await;
        assert!(
            html.contains("state-banner state-finished"),
            "{page}: {html}"
        );
        assert!(html.contains("La classifica è definitiva"), "{page}");
    }
    // Forms are read-only: no save button, fields disabled.
    let html = dora.get_html(&format!("{t}/edit")).await;
    assert!(
        html.contains("<fieldset class=\"whole\" disabled>"),
        "{html}"
    );
    assert!(!html.contains(">Salva<"));
    let pid = first_pair_id(&app, tid);
    let html = dora.get_html(&format!("{t}/pairs/{pid}")).await;
    assert!(
        html.contains("<fieldset class=\"whole\" disabled>"),
        "{html}"
    );
    assert!(!html.contains(">Salva<"));
    let table = tables_of(&app, 1)[0];
    for page in [
        format!("/desk/t/{tid}/rounds/1/tables/{table}"),
        format!("/desk/t/{tid}/penalties"),
    ] {
        let html = dora.get_html(&page).await;
        assert!(
            html.contains("<fieldset class=\"whole\" disabled>"),
            "{page}: {html}"
        );
        assert!(!html.contains("/withdraw\""), "{page}");
    }
    let html = dora.get_html(&t).await;
    assert!(!html.contains("/checkin\""), "{html}");
    assert!(!html.contains("/pairs/new"));
    assert!(!html.contains("confirm-close"));
    // Posted anyway: 409 with the reason, nothing changed.
    let res = crate::tournaments::edit_through_the_form(&dora, &t, "Cambiato", &[]).await;
    assert_eq!(res.status().as_u16(), 409);
    assert!(res.text().await.unwrap().contains("Il torneo è concluso."));
    let res = dora
        .submit(
            &t,
            &format!("{t}/pairs/{pid}/checkin"),
            &[("value", "false")],
        )
        .await;
    assert_eq!(res.status().as_u16(), 409);
    let f = correction(200, 1, "dopo la chiusura");
    let res = post_sheet(&dora, &t, 1, table, &f).await;
    assert_eq!(res.status().as_u16(), 409);
    assert!(res.text().await.unwrap().contains("non è in corso"));
    let res = dora.confirm(&t, "rounds/4/undo", &[]).await;
    assert_eq!(res.status().as_u16(), 409);
    let res = dora.confirm(&t, "rounds", &[("round", "5")]).await;
    assert_eq!(res.status().as_u16(), 409);
    // The banner leads to the reopen form; reopened with a reason.
    assert!(dora.get_html(&t).await.contains("id=\"reopen\""));
    let res = dora
        .submit(
            &t,
            &format!("{t}/reopen"),
            &[("reason", "tavolo 1 da rivedere")],
        )
        .await;
    assert_eq!(location(&res), format!("{t}?done=tournament_reopened"));
    assert_eq!(status_of(&app, tid), "running");
    let html = dora.get_html(&format!("{t}/edit")).await;
    assert!(html.contains("state-banner state-running"));
    assert!(html.contains(">Salva<"));
    let audit = dora.get_html(&format!("/desk/t/{tid}/audit")).await;
    assert!(audit.contains("Torneo riaperto") && audit.contains("tavolo 1 da rivedere"));
}

#[tokio::test]
async fn an_undo_racing_a_sheet_either_keeps_the_round_with_its_sheet_or_removes_both() {
    for attempt in 0..4 {
        let (app, dora, t, tid, table) = at_a_table(8).await;
        let path = format!("/desk/t/{tid}/rounds/1/tables/{table}");
        // Both forms loaded first, then both posted at once.
        let undo_token = crate::helpers::csrf_in(&dora.get_html(&t).await);
        let sheet_token = crate::helpers::csrf_in(&dora.get_html(&path).await);
        let mut fields = sheet(120, 90);
        fields.push(("csrf_token".into(), sheet_token));
        let undo = dora
            .client
            .post(dora.url(&format!("{t}/rounds/1/undo")))
            .form(&[("confirm", "1"), ("csrf_token", undo_token.as_str())]);
        let save = dora.client.post(dora.url(&path)).form(&fields);
        let (u, s) = tokio::join!(undo.send(), save.send());
        let (u, s) = (u.unwrap().status().as_u16(), s.unwrap().status().as_u16());
        assert!(u < 500 && s < 500, "attempt {attempt}: undo {u}, sheet {s}");
        let sheets = crate::peek::sheet_count(&app);
        let rounds = round_numbers(&app, tid);
        if rounds.is_empty() {
            assert_eq!(sheets, 0, "attempt {attempt}: undone, yet a sheet");
            assert_eq!(u, 303, "attempt {attempt}");
            assert_eq!(status_of(&app, tid), "draft");
        } else {
            assert_eq!(
                sheets, 1,
                "attempt {attempt}: the round stayed, its sheet too"
            );
            assert_eq!(s, 303, "attempt {attempt}");
            assert_eq!(u, 409, "attempt {attempt}");
        }
    }
}

#[tokio::test]
async fn a_danish_round_is_not_offered_while_sheets_of_the_last_round_are_missing() {
    let (app, dora, t) = started(8).await;
    // Three Mitchell rounds (the last without sheets), then Danish.
    for round in 2..=3 {
        let r = round.to_string();
        dora.confirm(&t, "rounds", &[("round", &r), ("force_reason", "prova")])
            .await;
    }
    let html = dora.get_html(&format!("{t}/confirm-round")).await;
    assert!(html.contains("Generare il turno 4"), "{html}");
    assert!(html.contains("Adesso non si può fare"), "{html}");
    assert!(!html.contains("name=\"confirm\""));
    score_round(&app, &dora, &t, 3, 110, 90).await;
    let html = dora.get_html(&format!("{t}/confirm-round")).await;
    assert!(html.contains("name=\"confirm\" value=\"1\""), "{html}");
    assert!(!html.contains("name=\"force_reason\""));
}

#[tokio::test]
async fn a_referee_sees_the_clock_and_its_warnings_but_only_directors_work_it() {
    let (app, dora, t) = started(8).await;
    let tid = tid_of(&t);
    app.create_user("rita", "referee", "referee pass").await;
    dora.assign(&t, "rita", "referee").await;
    let rita = app.another_browser();
    rita.login("rita", "referee pass").await;
    clock_post(&dora, &t, 1, &[("action", "start")]).await;
    shift_clock(&app, tid, 1, Duration::minutes(36));
    let desk = format!("/desk/t/{tid}/rounds/1");
    let html = rita.get_html(&desk).await;
    assert!(html.contains("warn-five"), "{html}");
    assert!(html.contains("state-banner state-running"));
    assert!(!html.contains("/clock\""), "no clock buttons for a referee");
    assert!(!html.contains("confirm-time-out"));
    // Posted anyway: refused, the clock runs on.
    let res = rita
        .submit(
            &desk,
            &format!("{t}/rounds/1/clock"),
            &[("action", "pause")],
        )
        .await;
    assert!(
        [403, 404].contains(&res.status().as_u16()),
        "{}",
        res.status()
    );
    assert_eq!(clock_of(&app, tid, 1).1, None);
}

/// A stored status or penalty kind that does not read (typed columns) is an
/// error on every page that reads it, never a tournament left out of a
/// list or a penalty dropped from a card.
#[tokio::test]
async fn a_stored_word_that_does_not_read_is_an_error_never_a_missing_row() {
    let (app, dora) = with_director().await;
    let t = app.tournament("Parole illeggibili").build().await.path;
    let tid = tid_of(&t);
    assert_eq!(dora.get_status(&t).await, 200);
    crate::peek::write_past_the_checks(
        &app,
        "tournaments",
        &format!("UPDATE tournaments SET status = 'paused' WHERE id = {tid}"),
    );
    assert_eq!(dora.get_status(&t).await, 500, "the director's page");
    assert_eq!(
        dora.get_status("/director/tournaments").await,
        500,
        "the list, rather than a list without it"
    );
    let public = app.another_browser();
    assert_eq!(public.get_status(&format!("/t/{tid}")).await, 500);
    // Back to a word that reads: a penalty of an unknown kind breaks the card.
    let (app, dora, t) = started(8).await;
    let tid = tid_of(&t);
    let pair = first_pair_id(&app, tid);
    crate::peek::write_past_the_checks(
        &app,
        "penalties",
        &format!(
            "INSERT INTO penalties (tournament_id, round_no, pair_id, kind, reason, given_at) \
             VALUES ({tid}, 1, {pair}, 'yellow_card', 'prova', CURRENT_TIMESTAMP)"
        ),
    );
    assert_eq!(
        dora.get_status(&format!("/desk/t/{tid}/penalties")).await,
        500,
        "the penalty list"
    );
}
