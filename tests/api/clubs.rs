//! Club separation in the first draw (RULES.md §13), from the settings form
//! to round 1's seating and the director's pages.

use burraco_td::i18n::{t as tr, Lang};

use crate::helpers::Browser;
use crate::tournaments::{check_in_all, create_through_the_form, import, with_director};

/// A pairs list whose player 1 plays for `clubs[i]` (blank: no club).
fn list(clubs: &[&str]) -> String {
    let mut s = String::from("cognome1;nome1;circolo1;cognome2;nome2;circolo2\n");
    for (i, club) in clubs.iter().enumerate() {
        s.push_str(&format!("Rossi{i};Maria;{club};Bianchi{i};Luca;\n"));
    }
    s
}

/// Round `n`'s seating as the director's round page shows it: per table,
/// the NS and EW pair numbers.
async fn seating(b: &Browser, t: &str, n: u32) -> Vec<(Option<u32>, Option<u32>)> {
    let html = b.get_html(&format!("{t}/rounds/{n}")).await;
    let start = html
        .find("<table class=\"data seating\">")
        .expect("seating");
    let body = &html[start..start + html[start..].find("</table>").unwrap()];
    body.split("<tr>")
        .skip(2)
        .map(|row| {
            let cells: Vec<&str> = row.split("<td").skip(2).collect();
            let pair = |cell: Option<&&str>| {
                let cell = cell?;
                let from = cell.find("<b>")? + 3;
                cell[from..from + cell[from..].find("</b>")?].parse().ok()
            };
            (pair(cells.first()), pair(cells.get(1)))
        })
        .collect()
}

#[tokio::test]
async fn clubs_kept_apart_sit_on_one_line_and_the_pages_say_so() {
    let (app, dora) = with_director().await;
    // Through the settings form: the setting is the form's.
    let t = create_through_the_form(&dora, "Circoli separati", &[("separate_clubs", "on")]).await;
    // Pairs 1–4 Aurora, 5–7 Sole (one spelled otherwise), 8–12 no club.
    let clubs = [
        "Circolo Aurora",
        "circolo aurora",
        "Circolo Aurora",
        "Circolo Aurora",
        "Sole",
        "SOLE ",
        "Sole",
        "",
        "",
        "",
        "",
        "",
    ];
    assert_eq!(
        import(&dora, &t, &list(&clubs)).await.status().as_u16(),
        303
    );
    // The setting reads back on the settings form.
    let form = dora.get_html(&format!("{t}/edit")).await;
    assert!(
        form.contains("name=\"separate_clubs\" aria-describedby=\"separate_clubs-hint\" checked")
    );
    check_in_all(&app, &dora, &t).await;
    let confirm = dora.get_html(&format!("{t}/confirm-start")).await;
    assert!(
        confirm.contains(tr(Lang::It, "states.start.clubs_apart")),
        "{confirm}"
    );
    let res = dora.confirm(&t, "draw", &[]).await;
    assert_eq!(res.status().as_u16(), 303);
    let seats = seating(&dora, &t, 1).await;
    assert_eq!(seats.len(), 6);
    let line_of = |pair: u32| {
        if seats.iter().any(|s| s.0 == Some(pair)) {
            "NS"
        } else {
            assert!(
                seats.iter().any(|s| s.1 == Some(pair)),
                "pair {pair} seated"
            );
            "EW"
        }
    };
    for club in [1..=4, 5..=7] {
        let lines: Vec<_> = club.map(line_of).collect();
        assert!(
            lines.iter().all(|l| *l == lines[0]),
            "{lines:?} in {seats:?}"
        );
    }
    let round = dora.get_html(&format!("{t}/rounds/1")).await;
    assert!(
        !round.contains("id=\"club-meetings\""),
        "every club kept apart"
    );
}

#[tokio::test]
async fn clubs_that_cannot_be_kept_apart_are_named() {
    let (app, dora) = with_director().await;
    let t = app
        .tournament("Un circolo solo")
        .set("separate_clubs", "on")
        .build()
        .await
        .path;
    // 8 pairs, 4 on each line: Aurora 6, Sole 2; 2 of Aurora's cross.
    let clubs = [
        "Aurora", "Aurora", "Aurora", "Aurora", "Aurora", "Aurora", "Sole", "Sole",
    ];
    assert_eq!(
        import(&dora, &t, &list(&clubs)).await.status().as_u16(),
        303
    );
    check_in_all(&app, &dora, &t).await;
    let confirm = dora.get_html(&format!("{t}/confirm-start")).await;
    let warning = burraco_td::i18n::tf(Lang::It, "states.start.clubs_cross", &[("pairs", &2)]);
    assert!(confirm.contains(&warning), "{confirm}");
    dora.confirm(&t, "draw", &[]).await;
    let round = dora.get_html(&format!("{t}/rounds/1")).await;
    assert!(round.contains("id=\"club-meetings\""), "{round}");
    assert!(round.contains("<li>Aurora: "), "{round}");
    assert!(!round.contains("<li>Sole: "), "Sole stays whole");
    let seats = seating(&dora, &t, 1).await;
    let ns: Vec<u32> = seats.iter().filter_map(|s| s.0).collect();
    let sole_line = if ns.contains(&7) { "NS" } else { "EW" };
    assert_eq!(ns.contains(&8), sole_line == "NS", "Sole's pairs together");
}

#[tokio::test]
async fn without_the_setting_the_draw_is_the_plain_draw() {
    let (app, dora) = with_director().await;
    let t = app.tournament("Sorteggio libero").build().await.path;
    let clubs = ["Aurora"; 8];
    assert_eq!(
        import(&dora, &t, &list(&clubs)).await.status().as_u16(),
        303
    );
    check_in_all(&app, &dora, &t).await;
    let confirm = dora.get_html(&format!("{t}/confirm-start")).await;
    assert!(!confirm.contains(tr(Lang::It, "states.start.clubs_apart")));
    dora.confirm(&t, "draw", &[]).await;
    let round = dora.get_html(&format!("{t}/rounds/1")).await;
    assert!(!round.contains("id=\"club-meetings\""));
}
