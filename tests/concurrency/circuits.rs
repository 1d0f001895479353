//! Races on the directory and on circuits (issue 24): the same new player
//! registered in ten tournaments at once is one person; two directors'
//! opposite merges of two people leave one merge and no loop; the same
//! stage added ten times at once is added once.

use crate::helpers::TestApp;
use crate::races::backend;
use crate::support::*;

fn pair_fields(surname: &str, card: &str, partner: &str) -> Vec<(String, String)> {
    fields(&[
        ("p1_surname", surname),
        ("p1_name", "Pino"),
        ("p1_card", card),
        ("p1_club", ""),
        ("p2_surname", partner),
        ("p2_name", "Ada"),
        ("p2_card", ""),
        ("p2_club", ""),
    ])
}

/// (id, merged_into) of the people with this surname.
fn people_named(app: &TestApp, surname: &str) -> Vec<(i64, Option<i64>)> {
    crate::peek::people_named(app, surname)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn race_one_new_player_registered_in_ten_tournaments_is_one_person() {
    const N: usize = 10;
    let app = app_with_director().await;
    let mut tids = Vec::new();
    for i in 0..N {
        tids.push(app.tournament(&format!("Sera {i}")).build().await.tid);
    }
    let clients = Staff::logins(&app.address, "dora", DIRECTOR_PW, N).await;
    let jobs: Vec<_> = clients
        .into_iter()
        .zip(tids.clone())
        .enumerate()
        .map(|(i, (s, tid))| async move {
            s.post(
                &format!("/director/t/{tid}/pairs"),
                &pair_fields("Zznuovo", "NEW-1", &format!("Zzaltro{i}")),
            )
            .await
        })
        .collect();
    let tally = Tally::of(&all_at_once(jobs).await);
    let people = people_named(&app, "Zznuovo");
    println!(
        "race one new player [{}]: {N} registrations, {}×5xx, {} people made, statuses {tally}",
        backend(&app.db),
        tally.count_5xx(),
        people.len()
    );
    assert_eq!(tally.count_5xx(), 0, "{tally}");
    assert_eq!(tally.count(303), N, "{tally}");
    assert_eq!(people.len(), 1, "one person: {people:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn race_opposite_merges_leave_one_merge_and_no_loop() {
    const N: usize = 20;
    let (app, owner) = with_director().await;
    // One name with two cards: two people, likely duplicates.
    for (i, card) in ["D-1", "D-2"].iter().enumerate() {
        let tid = app.tournament(&format!("Tappa {i}")).build().await.tid;
        let a = owner
            .post(
                &format!("/director/t/{tid}/pairs"),
                &pair_fields("Zzduo", card, &format!("Zzcompagno{i}")),
            )
            .await;
        assert_eq!(a.status, 303);
    }
    let ids: Vec<i64> = people_named(&app, "Zzduo")
        .into_iter()
        .map(|p| p.0)
        .collect();
    assert_eq!(ids.len(), 2);
    let clients = Staff::logins(&app.address, "dora", DIRECTOR_PW, N).await;
    let jobs: Vec<_> = clients
        .into_iter()
        .enumerate()
        .map(|(i, s)| {
            let (keep, gone) = if i % 2 == 0 {
                (ids[0], ids[1])
            } else {
                (ids[1], ids[0])
            };
            async move {
                s.post(
                    "/director/people/merge",
                    &fields(&[("keep", &keep.to_string()), ("gone", &gone.to_string())]),
                )
                .await
            }
        })
        .collect();
    let tally = Tally::of(&all_at_once(jobs).await);
    let after = people_named(&app, "Zzduo");
    let merged: Vec<_> = after.iter().filter(|p| p.1.is_some()).collect();
    println!(
        "race opposite merges [{}]: {N} requests, {}×5xx, {} merged, statuses {tally}",
        backend(&app.db),
        tally.count_5xx(),
        merged.len()
    );
    assert_eq!(tally.count_5xx(), 0, "{tally}");
    assert_eq!(tally.count(303), 1, "one merge: {tally}");
    assert_eq!(tally.count(409), N - 1, "{tally}");
    assert_eq!(merged.len(), 1, "one of the two stays: {after:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn race_one_stage_added_ten_times_is_added_once() {
    const N: usize = 10;
    let (app, owner) = with_director().await;
    let tid = app.tournament("Tappa unica").build().await.tid;
    let a = owner
        .post(
            "/director/circuits",
            &fields(&[("name", "Circuito"), ("method", "vp")]),
        )
        .await;
    assert_eq!(a.status, 303, "{a:?}");
    let cid = crate::helpers::circuit_id_in(&a.location);
    let clients = Staff::logins(&app.address, "dora", DIRECTOR_PW, N).await;
    let jobs: Vec<_> = clients
        .into_iter()
        .map(|s| async move {
            s.post(
                &format!("/director/circuits/{cid}/stages"),
                &fields(&[("tournament", &tid.to_string())]),
            )
            .await
        })
        .collect();
    let tally = Tally::of(&all_at_once(jobs).await);
    let stages = crate::peek::stage_count(&app, cid);
    println!(
        "race one stage [{}]: {N} requests, {}×5xx, {stages} stage(s), statuses {tally}",
        backend(&app.db),
        tally.count_5xx()
    );
    assert_eq!(tally.count_5xx(), 0, "{tally}");
    assert_eq!(tally.count(303), 1, "{tally}");
    assert_eq!(tally.count(409), N - 1, "{tally}");
    assert_eq!(stages, 1);
}
