//! Big fields (RULES.md §13, §15): the plan with rounds in groups, the cut
//! shown before it is made, group rounds numbered group after group,
//! standings and prizes per group, the plan locked at the cut, and the
//! level's warnings.

use serde_json::Value;

use crate::helpers::{tid_of, Browser, TestApp};
use crate::tournaments::with_director;

/// 20 pairs, 5 rounds: 2 Mitchell, 1 Danish, 2 Danish in 2 groups with
/// prizes per group; the first `played` rounds played.
async fn national(app: &TestApp, played: u32) -> String {
    app.tournament("Nazionale")
        .with(&[
            ("planned_rounds", "5"),
            ("mitchell_rounds", "2"),
            ("group_rounds", "2"),
            ("group_count", "2"),
            ("group_prizes", "A 60: 60 40\nB 40: 100"),
            ("level", "national"),
        ])
        .pairs(20)
        .played(played)
        .build()
        .await
        .path
}

async fn json_of(b: &Browser, path: &str) -> Value {
    let res = b.get(path).await;
    assert_eq!(res.status().as_u16(), 200, "{path}");
    res.json().await.unwrap()
}

/// The pair numbers of each group in the exported file.
fn groups_of(file: &Value) -> Vec<(String, Vec<u64>)> {
    file["groups"]
        .as_array()
        .map(|g| {
            g.iter()
                .map(|g| {
                    (
                        g["name"].as_str().unwrap().to_string(),
                        g["pairs"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|p| p.as_u64().unwrap())
                            .collect(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test]
async fn the_cut_is_shown_before_it_is_made_and_made_once() {
    let (app, dora) = with_director().await;
    let t = national(&app, 3).await;
    let page = dora.get_html(&format!("{t}/confirm-round")).await;
    assert!(page.contains("id=\"cut\""), "{page}");
    assert!(page.contains("Girone A · 5 tavoli · 10 coppie"), "{page}");
    assert!(page.contains("Girone B · 5 tavoli · 10 coppie"), "{page}");
    let file = json_of(&dora, &format!("{t}/export.json")).await;
    assert!(groups_of(&file).is_empty(), "nothing cut before the round");

    // Two clicks at once: one round 4, one cut.
    let rounds_path = format!("{t}/rounds");
    let click = [("confirm", "1"), ("round", "4")];
    let (a, b) = tokio::join!(
        dora.submit(&t, &rounds_path, &click),
        dora.submit(&t, &rounds_path, &click),
    );
    assert_eq!(a.status().as_u16(), 303);
    assert_eq!(b.status().as_u16(), 303);
    let file = json_of(&dora, &format!("{t}/export.json")).await;
    let rounds = file["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 4);
    let groups = groups_of(&file);
    assert_eq!(groups.len(), 2);
    assert_eq!(groups[0].1.len(), 10);
    assert_eq!(groups[1].1.len(), 10);
    // The cut follows the standings after round 3: A holds the first ten.
    let standings = json_of(
        &dora,
        &format!("/api/v1/tournaments/{}/standings", tid_of(&t)),
    )
    .await;
    let rows = standings["rows"].as_array().unwrap();
    let a: Vec<u64> = groups[0].1.clone();
    for row in rows.iter().filter(|r| r["group"] == "A") {
        assert!(a.contains(&row["pair"].as_u64().unwrap()));
    }
    // Round 4: A's tables first (1–5), then B's (6–10), each within its group.
    let round4 = &rounds[3];
    assert_eq!(round4["movement"], "danish_groups_modified");
    for table in round4["tables"].as_array().unwrap() {
        let n = table["table"].as_u64().unwrap();
        let group = table["group"].as_str().unwrap();
        assert_eq!(group, if n <= 5 { "A" } else { "B" }, "table {n}");
        let members = &groups.iter().find(|g| g.0 == group).unwrap().1;
        assert!(members.contains(&table["ns"].as_u64().unwrap()));
        assert!(members.contains(&table["ew"].as_u64().unwrap()));
    }
    // The plan's group fields are locked once cut: a change is not saved.
    let edit = dora.get_html(&format!("{t}/edit")).await;
    assert!(edit.contains("name=\"group_count\" value=\"2\""), "{edit}");
}

#[tokio::test]
async fn a_plan_with_groups_ends_in_group_standings_and_prizes() {
    let (app, dora) = with_director().await;
    let t = national(&app, 5).await;
    let standings = json_of(
        &dora,
        &format!("/api/v1/tournaments/{}/standings", tid_of(&t)),
    )
    .await;
    let rows = standings["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 20);
    // Group A above group B whatever the VP; places run on; group places.
    for (i, row) in rows.iter().enumerate() {
        let group = if i < 10 { "A" } else { "B" };
        assert_eq!(row["group"], group, "{row}");
        assert!(row["place"].as_u64().unwrap() > (i as u64 / 10) * 10);
        assert!(row["group_place"].as_u64().unwrap() <= 10);
    }
    // Prizes per group: A's share 60 % paid 60/40, B's 40 % to its first.
    let prizes = standings["prizes"].as_array().unwrap();
    let of = |g: &str| prizes.iter().filter(|p| p["group"] == g).count();
    assert!(of("A") >= 2, "{prizes:?}");
    assert!(of("B") >= 1, "{prizes:?}");
    // The public page has a section per group.
    let public = app
        .another_browser()
        .get_html(&format!("/t/{}", tid_of(&t)))
        .await;
    assert!(public.contains("id=\"group-A\""), "{public}");
    assert!(public.contains("id=\"group-B\""), "{public}");
}

#[tokio::test]
async fn undoing_the_first_round_in_groups_undoes_the_cut() {
    let (app, dora) = with_director().await;
    let t = national(&app, 3).await;
    dora.submit(
        &t,
        &format!("{t}/rounds"),
        &[("confirm", "1"), ("round", "4")],
    )
    .await;
    assert_eq!(
        groups_of(&json_of(&dora, &format!("{t}/export.json")).await).len(),
        2
    );
    let res = dora
        .submit(&t, &format!("{t}/rounds/4/undo"), &[("confirm", "1")])
        .await;
    assert_eq!(res.status().as_u16(), 303);
    let file = json_of(&dora, &format!("{t}/export.json")).await;
    assert_eq!(file["rounds"].as_array().unwrap().len(), 3);
    assert!(groups_of(&file).is_empty(), "{file}");
}

#[tokio::test]
async fn group_fields_are_checked_next_to_them_and_open_until_the_cut() {
    let (app, dora) = with_director().await;
    let t = app
        .tournament("Regionale")
        .with(&[("planned_rounds", "6"), ("mitchell_rounds", "3")])
        .pairs(12)
        .played(1)
        .build()
        .await
        .path;
    let edit = format!("{t}/edit");
    let mut form: Vec<(String, String)> = crate::builders::SETTINGS
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let set = |form: &mut Vec<(String, String)>, k: &str, v: &str| {
        form.retain(|(key, _)| key != k);
        form.push((k.into(), v.into()));
    };
    set(&mut form, "name", "Regionale");
    set(&mut form, "planned_rounds", "6");
    set(&mut form, "mitchell_rounds", "3");
    set(&mut form, "group_rounds", "4");
    set(&mut form, "group_count", "2");
    let fields: Vec<(&str, &str)> = form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let res = dora.submit(&edit, &edit, &fields).await;
    assert_eq!(res.status().as_u16(), 422);
    let html = res.text().await.unwrap();
    assert!(
        html.contains("Dopo i turni Mitchell restano al massimo 3 turni per i gironi."),
        "{html}"
    );

    // Running, before the cut: the plan's groups can still be set.
    set(&mut form, "group_rounds", "2");
    set(&mut form, "group_tables", "3, 3");
    set(&mut form, "level", "regional");
    let fields: Vec<(&str, &str)> = form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let res = dora.submit(&edit, &edit, &fields).await;
    assert_eq!(res.status().as_u16(), 303);
    let page = dora.get_html(&t).await;
    assert!(
        page.contains("Fase 3: 2 × Danese a gironi modificato (gironi di 3, 3 tavoli)"),
        "{page}"
    );
    assert!(page.contains("Regionale"), "{page}");
    let file = json_of(&dora, &format!("{t}/export.json")).await;
    assert_eq!(file["group_plan"], serde_json::json!({"tables": [3, 3]}));
    assert_eq!(file["movements"][4], "danish_groups_modified");
}

#[tokio::test]
async fn the_level_warns_without_refusing() {
    let (app, dora) = with_director().await;
    let t = app
        .tournament("Circolo lungo")
        .with(&[("planned_rounds", "5"), ("level", "club")])
        .build()
        .await
        .path;
    let page = dora.get_html(&t).await;
    let warning = burraco_td::i18n::tf(
        burraco_td::i18n::Lang::It,
        "level.warn.too_many_rounds",
        &[("max", &4), ("rounds", &5), ("level", &"club")],
    );
    assert!(page.contains(&warning), "{page}");
    let edit = dora.get_html(&format!("{t}/edit")).await;
    assert!(edit.contains(&warning), "{edit}");
    let short = app
        .tournament("Regionale corto")
        .with(&[("planned_rounds", "5"), ("level", "regional")])
        .build()
        .await
        .path;
    let page = dora.get_html(&short).await;
    assert!(page.contains("6 turni da 3 smazzate o 5 da 4"), "{page}");
}
