//! Races on team tournaments (issue 25), on both databases: ten teams
//! registered at once get ten numbers; the same next round asked ten times
//! at once is made once; a captain's and the desk's line-ups racing each
//! other and the match's first sheet never leave a match half of one
//! line-up and half of another, nor a line-up changed under a result.

use crate::helpers::TestApp;
use crate::races::backend;
use crate::support::*;

fn team_fields(name: &str) -> Vec<(String, String)> {
    let mut f = vec![("name".to_string(), name.to_string())];
    for (i, s) in ["a", "b", "c", "d"].iter().enumerate() {
        f.push((format!("p{}_surname", i + 1), format!("{name}{s}")));
        f.push((format!("p{}_name", i + 1), "Ugo".to_string()));
    }
    f
}

/// (number, id, code) of the teams, by number.
async fn teams_of(app: &TestApp, tid: i64) -> Vec<(i32, i64, Option<String>)> {
    let t = burraco_td::services::teams::load(
        &app.handle,
        crate::builders::admin(),
        burraco_td::ids::TournamentId(tid),
        burraco_td::services::Need::Direct,
    )
    .await
    .expect("the teams");
    let mut out: Vec<_> = t
        .teams
        .iter()
        .map(|t| (t.number, t.id.0, t.code.clone()))
        .collect();
    out.sort();
    out
}

/// A team tournament of `rounds` rounds owned by dora: `n` teams checked
/// in and round 1 drawn when `n` > 0.
async fn team_tournament(app: &TestApp, name: &str, rounds: &str, n: usize) -> i64 {
    let b = app.tournament(name).teams(n).set("planned_rounds", rounds);
    let b = if n > 0 { b.drawn() } else { b };
    b.build().await.tid
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn race_ten_teams_registered_at_once_get_ten_numbers() {
    const N: usize = 10;
    let app = app_with_director().await;
    let tid = team_tournament(&app, "Dieci", "3", 0).await;
    let clients = Staff::logins(&app.address, "dora", DIRECTOR_PW, N).await;
    let jobs: Vec<_> = clients
        .into_iter()
        .enumerate()
        .map(|(i, s)| async move {
            s.post(
                &format!("/director/t/{tid}/teams"),
                &team_fields(&format!("R{i}x")),
            )
            .await
        })
        .collect();
    let tally = Tally::of(&all_at_once(jobs).await);
    let numbers: Vec<i32> = teams_of(&app, tid).await.iter().map(|t| t.0).collect();
    println!(
        "race team registrations [{}]: {N} at once, {}×5xx, numbers {numbers:?}, statuses {tally}",
        backend(&app.db),
        tally.count_5xx()
    );
    assert_eq!(tally.count_5xx(), 0, "{tally}");
    assert_eq!(tally.count(303), N, "{tally}");
    assert_eq!(numbers, (1..=N as i32).collect::<Vec<_>>());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn race_the_next_round_asked_ten_times_is_made_once() {
    const N: usize = 10;
    let (app, owner) = with_director().await;
    let tid = team_tournament(&app, "Squadre", "3", 4).await;
    // Round 1's four tables from the desk.
    for table in 1..=4 {
        let a = owner
            .post(
                &format!("/desk/t/{tid}/rounds/1/tables/{table}"),
                &sheet(120 + 5 * table, 90),
            )
            .await;
        assert_eq!(a.status, 303, "table {table}: {a:?}");
    }
    let clients = Staff::logins(&app.address, "dora", DIRECTOR_PW, N).await;
    let jobs: Vec<_> = clients
        .into_iter()
        .map(|s| async move {
            s.post(
                &format!("/director/t/{tid}/teams/round"),
                &fields(&[("round", "2")]),
            )
            .await
        })
        .collect();
    let tally = Tally::of(&all_at_once(jobs).await);
    let rounds = crate::peek::round_numbers(&app, tid).len();
    println!(
        "race team next round [{}]: {N} at once, {}×5xx, rounds {rounds}, statuses {tally}",
        backend(&app.db),
        tally.count_5xx()
    );
    assert_eq!(tally.count_5xx(), 0, "{tally}");
    assert_eq!(
        tally.count(303),
        N,
        "every click lands on the round: {tally}"
    );
    assert_eq!(rounds, 2, "round 2 made once");
}

/// The players (positions) seated for `team` in round 1, by table.
fn seated(app: &TestApp, tid: i64, team: i64) -> Vec<(i32, i32, i32)> {
    let mut out = Vec::new();
    for (table, ns, ew) in crate::peek::seatings_of(app, tid, 1) {
        for p in [ns, ew].into_iter().flatten() {
            let (t, a, b) = crate::peek::pair_team(app, p);
            if t == Some(team) {
                out.push((table, a.unwrap(), b.unwrap()));
            }
        }
    }
    out.sort_unstable();
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn race_line_ups_and_the_first_sheet_never_mix_line_ups() {
    const N: usize = 12;
    let (app, owner) = with_director().await;
    let tid = team_tournament(&app, "Squadre", "1", 2).await;
    let teams = teams_of(&app, tid).await;
    let (team_no, team_id, code) = teams[0].clone();
    let code = code.unwrap();
    // Three line-ups (1-based, as the form sends them), posted at once by
    // captains' phones and the desk, with the match's first sheet.
    let lineups = [
        ("1", "2", "3", "4"),
        ("1", "3", "2", "4"),
        ("1", "4", "2", "3"),
    ];
    let mut jobs = Vec::new();
    for i in 0..N {
        let (a1, a2, b1, b2) = lineups[i % 3];
        let form = fields(&[
            ("round", "1"),
            ("a1", a1),
            ("a2", a2),
            ("b1", b1),
            ("b2", b2),
            ("code", &code),
        ]);
        let path = if i % 2 == 0 {
            format!("/t/{tid}/teams/{team_no}/lineup")
        } else {
            format!("/director/t/{tid}/teams/{team_no}/lineup")
        };
        let s = Staff::login(&app.address, "dora", DIRECTOR_PW).await;
        jobs.push(Box::pin(async move { s.post(&path, &form).await })
            as std::pin::Pin<
                Box<dyn std::future::Future<Output = Answer> + Send>,
            >);
    }
    let desk = Staff::login(&app.address, "dora", DIRECTOR_PW).await;
    jobs.push(Box::pin(async move {
        desk.post(&format!("/desk/t/{tid}/rounds/1/tables/1"), &sheet(150, 90))
            .await
    }));
    let tally = Tally::of(&all_at_once(jobs).await);
    let seats = seated(&app, tid, team_id);
    println!(
        "race line-ups and a sheet [{}]: {} at once, {}×5xx, seated {seats:?}, statuses {tally}",
        backend(&app.db),
        N + 1,
        tally.count_5xx()
    );
    assert_eq!(tally.count_5xx(), 0, "{tally}");
    assert_eq!(seats.len(), 2, "the team sits at both tables");
    // One line-up, whole: the two pairs are four different players.
    let mut players: Vec<i32> = seats.iter().flat_map(|s| [s.1, s.2]).collect();
    players.sort_unstable();
    assert_eq!(players, vec![0, 1, 2, 3], "one line-up, not two halves");
    // The sheet is in; any line-up asked after it was refused (409), so a
    // further change is refused now.
    let a = owner
        .post(
            &format!("/director/t/{tid}/teams/{team_no}/lineup"),
            &fields(&[
                ("round", "1"),
                ("a1", "1"),
                ("a2", "2"),
                ("b1", "3"),
                ("b2", "4"),
            ]),
        )
        .await;
    assert_eq!(a.status, 409, "{a:?}");
    assert!(tally.count(303) >= 1, "{tally}");
}
