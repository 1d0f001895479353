//! The service layer seen from outside: tournament staff and referee
//! assignment, reopening with a reason, the audit log in words, hostile
//! reasons refused on both databases.

use crate::helpers::location;
use crate::helpers::tid_of;
use crate::scoring::{correction, play_rounds, post_sheet, sheet, started, tables_of};
use crate::tournaments::with_director;

#[tokio::test]
async fn co_directors_and_assigned_referees_work_on_a_tournament_others_do_not_see() {
    let (app, dora) = with_director().await;
    app.create_user("dario", "director", "director pass 2")
        .await;
    app.create_user("rita", "referee", "referee pass").await;
    let t = app.tournament("Serata").build().await.path;
    let tid = tid_of(&t);
    let dario = app.another_browser();
    dario.login("dario", "director pass 2").await;
    let rita = app.another_browser();
    rita.login("rita", "referee pass").await;

    // Not on the staff: the tournament does not exist for them.
    assert_eq!(dario.get_status(&t).await, 404);
    assert_eq!(
        rita.get_status(&format!("/desk/t/{tid}/penalties")).await,
        404
    );
    assert!(!dario
        .get_html("/director/tournaments")
        .await
        .contains(&format!("{t}\"")));
    // The referee's home says how a tournament reaches her.
    assert!(rita.get_html("/").await.contains("Ancora nessun torneo"));

    // The owner adds both; a username that is no account is refused next
    // to the field, and a referee cannot become a co-director.
    let res = dora
        .submit(
            &t,
            &format!("{t}/staff"),
            &[("username", "nobody"), ("role", "referee")],
        )
        .await;
    assert_eq!(res.status().as_u16(), 422);
    assert!(res.text().await.unwrap().contains("Nessun account attivo"));
    let res = dora
        .submit(
            &t,
            &format!("{t}/staff"),
            &[("username", "rita"), ("role", "director")],
        )
        .await;
    assert_eq!(res.status().as_u16(), 422);
    dora.assign(&t, "dario", "director").await;
    dora.assign(&t, "rita", "referee").await;
    assert_eq!(dario.get_status(&t).await, 200);
    assert!(dario
        .get_html("/director/tournaments")
        .await
        .contains(&format!("{t}\"")));
    assert_eq!(
        rita.get_status(&format!("/desk/t/{tid}/penalties")).await,
        200
    );
    // Her home lists it with the links to its desk, penalties and log.
    let home = rita.get_html("/").await;
    assert!(home.contains(&format!("/desk/t/{tid}/penalties")), "{home}");
    assert!(home.contains(&format!("/desk/t/{tid}/audit")));
    // A co-director may assign referees but not other co-directors.
    app.create_user("diana", "director", "director pass 3")
        .await;
    let res = dario
        .submit(
            &t,
            &format!("{t}/staff"),
            &[("username", "diana"), ("role", "director")],
        )
        .await;
    assert_eq!(res.status().as_u16(), 403);

    // Removing rita takes the tournament away from her again.
    let html = dora.get_html(&t).await;
    let rita_id = crate::builders::actor_of(&app.handle, "rita")
        .await
        .user_id
        .0;
    assert!(html.contains(&format!("{t}/staff/{rita_id}/remove")));
    let res = dora
        .submit(&t, &format!("{t}/staff/{rita_id}/remove"), &[])
        .await;
    assert_eq!(res.status().as_u16(), 303);
    assert_eq!(
        rita.get_status(&format!("/desk/t/{tid}/penalties")).await,
        404
    );

    // The admin setting lets every referee work on every tournament.
    let res = app
        .submit("/admin/users", "/admin/referees", &[("all", "true")])
        .await;
    assert_eq!(res.status().as_u16(), 303);
    assert_eq!(
        rita.get_status(&format!("/desk/t/{tid}/penalties")).await,
        200
    );
    // ... and the users page shows it, with the account changes in words.
    let admin_page = app.get_html("/admin/users").await;
    assert!(admin_page.contains("name=\"all\" value=\"true\" checked"));
    assert!(admin_page.contains("Account creato"), "{admin_page}");
    assert!(!admin_page.contains("{&quot;"), "no raw JSON");

    // The staff changes are on the tournament's record.
    let audit = dora.get_html(&format!("/desk/t/{tid}/audit")).await;
    assert!(audit.contains("Aggiunto allo staff"), "{audit}");
    assert!(audit.contains("Tolto dallo staff"));
}

#[tokio::test]
async fn the_audit_log_reads_as_words_not_json() {
    let (app, dora) = with_director().await;
    let t = app.tournament("Serata").build().await.path;
    let fee = [("entry_fee", "25,00")];
    let res =
        crate::tournaments::edit_through_the_form(&dora, &t, "Serata del giovedì", &fee).await;
    assert_eq!(res.status().as_u16(), 303);
    let html = dora
        .get_html(&format!("/desk/t/{}/audit", tid_of(&t)))
        .await;
    assert!(html.contains("Impostazioni modificate"), "{html}");
    assert!(html.contains("quota d"), "{html}");
    assert!(html.contains("<del>20") && html.contains("25"), "{html}");
    assert!(html.contains("Torneo creato"));
    assert!(!html.contains("{&quot;"), "no raw JSON: {html}");
}

#[tokio::test]
async fn a_closed_tournament_reopens_only_with_a_reason_on_the_record() {
    let (app, dora, t) = started(8).await;
    let tid = tid_of(&t).to_string();
    // Play the four rounds, then close.
    play_rounds(&app, &dora, &t, 4).await;
    let res = dora.confirm(&t, "close", &[]).await;
    assert_eq!(location(&res), format!("{t}?done=tournament_closed"));
    // Reopening needs a reason.
    let res = dora
        .submit(&t, &format!("{t}/reopen"), &[("reason", "  ")])
        .await;
    assert_eq!(res.status().as_u16(), 422);
    assert!(res.text().await.unwrap().contains("Indica perché"));
    let res = dora
        .submit(
            &t,
            &format!("{t}/reopen"),
            &[("reason", "tavolo 2 del turno 1 trascritto male")],
        )
        .await;
    assert_eq!(location(&res), format!("{t}?done=tournament_reopened"));
    // Running again: a correction is accepted, then it closes again.
    let table = tables_of(&app, 1)[0];
    let f = correction(200, 1, "trascritto male");
    assert_eq!(
        post_sheet(&dora, &t, 1, table, &f).await.status().as_u16(),
        303
    );
    let html = dora.get_html(&format!("/desk/t/{tid}/audit")).await;
    assert!(html.contains("Torneo riaperto"));
    assert!(html.contains("tavolo 2 del turno 1 trascritto male"));
    // A running tournament cannot be reopened.
    let res = dora
        .submit(&t, &format!("{t}/reopen"), &[("reason", "x")])
        .await;
    assert_eq!(res.status().as_u16(), 409);
}

#[tokio::test]
async fn hostile_reasons_are_refused_next_to_the_field_on_both_databases() {
    let (app, dora, t) = started(8).await;
    let tid = tid_of(&t);
    let pid = crate::peek::pair_id(&app, tid, 1).to_string();
    let res = dora
        .penalty(&tid, &pid, "warning", "", "ritardo\u{0}")
        .await;
    assert_eq!(res.status().as_u16(), 422);
    assert!(res.text().await.unwrap().contains("U+0000"));
    // A correction whose reason carries a NUL byte: refused, not a 500.
    let table = tables_of(&app, 1)[0];
    assert_eq!(
        post_sheet(&dora, &t, 1, table, &sheet(120, 90))
            .await
            .status()
            .as_u16(),
        303
    );
    let f = correction(200, 1, "errore\u{0}");
    let res = post_sheet(&dora, &t, 1, table, &f).await;
    assert_eq!(res.status().as_u16(), 422);
    // A staff username with a NUL byte, too.
    let res = dora
        .submit(
            &t,
            &format!("{t}/staff"),
            &[("username", "ri\u{0}ta"), ("role", "referee")],
        )
        .await;
    assert_eq!(res.status().as_u16(), 422);
}
