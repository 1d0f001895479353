//! `next-round` on worked files: the draw, Mitchell continued, Danish,
//! Danish in groups (with the cut), teams, and the refusals.

use super::*;
use crate::i18n::Lang;
use crate::movement::groups::GroupPlan;
use crate::tournament_file::fixtures::{pair, simple_sheet, team};
use crate::tournament_file::{
    to_json, GroupFile, MovementKind, RoundFile, TeamMovementKind, TeamTournamentFile,
    TournamentFile,
};

fn tour(n: u32, plan: &[MovementKind]) -> TournamentFile {
    let mut f = TournamentFile::new(
        "Prossimo turno",
        chrono::NaiveDate::from_ymd_opt(2026, 11, 20).unwrap(),
    );
    f.pairs = (1..=n).map(pair).collect();
    f.movements = Some(plan.to_vec());
    f
}

/// Plays `round`: the higher pair number scores 100 MP a number more.
fn play(f: &mut TournamentFile, mut round: RoundFile) {
    for t in &mut round.tables {
        t.sheet = Some(simple_sheet(
            100 * i64::from(t.ns),
            100 * i64::from(t.ew),
            3,
        ));
    }
    f.rounds.push(round);
}

fn next(f: &TournamentFile) -> NextPairsRound {
    next_pairs_round(f, 7).unwrap()
}

/// Every pair of the round, tables and byes, sorted.
fn everyone(r: &RoundFile) -> Vec<u32> {
    let mut v: Vec<u32> = r
        .tables
        .iter()
        .flat_map(|t| [t.ns, t.ew])
        .chain(r.byes.iter().copied())
        .collect();
    v.sort_unstable();
    v
}

use MovementKind::{DanishGroups, DanishGroupsModified, DanishModified, Mitchell};

#[test]
fn the_first_round_draws_every_entrant_from_the_seed() {
    let mut f = tour(9, &[Mitchell; 3]);
    f.pairs[3].no_show = true;
    f.pairs[4].withdrawn_from_round = Some(1);
    let r = next(&f);
    assert_eq!(r.round.number, 1);
    assert_eq!(r.round.movement, Some(Mitchell));
    assert_eq!(everyone(&r.round), vec![1, 2, 3, 6, 7, 8, 9]);
    assert_eq!(r.round.tables.len(), 3);
    assert_eq!(r.round.byes.len(), 1);
    assert!(r.groups.is_none());
    // The same seed draws the same; the seed is all it depends on.
    assert_eq!(next_pairs_round(&f, 7).unwrap(), r);
    let others: Vec<_> = (0..8).map(|s| next_pairs_round(&f, s).unwrap()).collect();
    assert!(others.iter().any(|o| o != &r));
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["number"], 1);
    assert_eq!(json["movement"], "mitchell");
    assert!(json["tables"][0].get("sheet").is_none());
    assert!(json.get("groups").is_none());
}

#[test]
fn club_separation_keeps_a_clubs_pairs_on_one_line() {
    let mut f = tour(8, &[Mitchell; 4]);
    f.separate_clubs = Some(true);
    for p in [0, 1, 2] {
        f.pairs[p].players[0].club = Some("Circolo Sole".into());
    }
    for seed in 0..20 {
        let r = next_pairs_round(&f, seed).unwrap().round;
        let line = |pair: u32| {
            r.tables
                .iter()
                .find_map(|t| (t.ns == pair).then_some(0).or((t.ew == pair).then_some(1)))
        };
        assert_eq!(line(1), line(2));
        assert_eq!(line(2), line(3));
    }
}

#[test]
fn mitchell_continues_from_round_one_the_moving_line_advancing() {
    let mut f = tour(7, &[Mitchell; 3]);
    let first = next(&f).round;
    play(&mut f, first.clone());
    let second = next(&f).round;
    assert_eq!(second.number, 2);
    // 4 tables, the phantom fixed at table 4: the moving pair of table t
    // goes to table t + 1; the one at the last table to table 1.
    let mut moving: Vec<u32> = first.tables.iter().map(|t| t.ew).collect();
    moving.push(first.byes[0]);
    for t in &second.tables {
        let fixed = first.tables.iter().find(|x| x.table == t.table).unwrap().ns;
        assert_eq!(t.ns, fixed);
        let from = (t.table as usize + 2) % 4;
        assert_eq!(t.ew, moving[from]);
    }
    assert_eq!(second.tables.len(), 3);
    assert_eq!(second.byes, vec![moving[2]]);
}

#[test]
fn danish_pairs_first_v_second_by_the_standings() {
    let mut f = tour(6, &[Mitchell, DanishModified]);
    let first = next(&f).round;
    play(&mut f, first);
    let r = next(&f).round;
    assert_eq!(r.movement, Some(DanishModified));
    let standings = crate::standings::compute_file(&f, Lang::En).unwrap();
    let order: Vec<u32> = standings.rows.iter().map(|r| r.number).collect();
    let opponent = |p: u32| {
        r.tables
            .iter()
            .find_map(|t| (t.ns == p).then_some(t.ew).or((t.ew == p).then_some(t.ns)))
    };
    let prev = |p: u32| {
        f.rounds[0]
            .tables
            .iter()
            .find_map(|t| (t.ns == p).then_some(t.ew).or((t.ew == p).then_some(t.ns)))
    };
    // The leader meets the highest-placed pair it did not just meet.
    let leader = order[0];
    let expected = order[1..]
        .iter()
        .copied()
        .find(|&p| prev(leader) != Some(p));
    assert_eq!(opponent(leader), expected);
    assert_eq!(r.tables[0].table, 1);
}

#[test]
fn the_first_round_in_groups_makes_the_cut_and_pairs_each_group() {
    let mut f = tour(9, &[Mitchell, DanishGroups, DanishGroupsModified]);
    f.group_plan = Some(GroupPlan::Tables(vec![2, 2]));
    let first = next(&f).round;
    play(&mut f, first);
    let standings = crate::standings::compute_file(&f, Lang::En).unwrap();
    let order: Vec<u32> = standings.rows.iter().map(|r| r.number).collect();
    let r = next(&f);
    let groups = r.groups.clone().unwrap();
    assert_eq!(
        groups,
        vec![
            GroupFile {
                name: "A".into(),
                pairs: order[..4].to_vec()
            },
            GroupFile {
                name: "B".into(),
                pairs: order[4..].to_vec()
            },
        ]
    );
    let tables: Vec<(u32, Option<&str>, [u32; 2])> = r
        .round
        .tables
        .iter()
        .map(|t| {
            let mut p = [t.ns, t.ew];
            p.sort_unstable();
            (t.table, t.group.as_deref(), p)
        })
        .collect();
    let sorted = |a: u32, b: u32| [a.min(b), a.max(b)];
    assert_eq!(
        tables,
        vec![
            (1, Some("A"), sorted(order[0], order[1])),
            (2, Some("A"), sorted(order[2], order[3])),
            (3, Some("B"), sorted(order[4], order[5])),
            (4, Some("B"), sorted(order[6], order[7])),
        ]
    );
    // B has 5 pairs: its last rests (if it has not rested yet).
    assert_eq!(r.round.byes.len(), 1);
    assert!(groups[1].pairs.contains(&r.round.byes[0]));
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["tables"][0]["group"], "A");
    assert_eq!(json["groups"][1]["name"], "B");

    // The round is seated: the file now has its groups, and the next round
    // in groups takes them as they are (no `groups` in the output).
    f.groups = Some(groups);
    play(&mut f, r.round);
    assert!(crate::tournament_file::validate(&f).is_ok());
    let third = next(&f);
    assert!(third.groups.is_none());
    assert_eq!(third.round.movement, Some(DanishGroupsModified));
    for t in &third.round.tables {
        let g = f
            .groups
            .as_ref()
            .unwrap()
            .iter()
            .find(|g| Some(&g.name) == t.group.as_ref());
        assert!(g.unwrap().pairs.contains(&t.ns) && g.unwrap().pairs.contains(&t.ew));
    }
    f.rounds.push(third.round);
    let err = next_pairs_round(&f, 7).unwrap_err();
    assert!(matches!(err, NextRoundError::PlanComplete { rounds: 3 }));
}

#[test]
fn refusals_give_exit_one_and_a_reason_in_both_languages() {
    let mut f = tour(4, &[Mitchell, MovementKind::Danish]);
    let mut first = next(&f).round;
    first.tables[1].sheet = None;
    f.rounds.push(first.clone());
    f.rounds[0].tables[0].sheet = Some(simple_sheet(100, 200, 3));
    let text = to_json(&f).unwrap();
    let (code, out, err) = run_cli(&text, 1, Lang::En);
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(err.contains("Round 1 is not over"), "{err}");
    let (_, _, err) = run_cli(&text, 1, Lang::It);
    assert!(err.contains("Il turno 1 non è finito"), "{err}");
    // A plan that cannot cut this field: 4 pairs, A wants 3 tables.
    let mut f = tour(4, &[Mitchell, DanishGroups]);
    play(&mut f, first.clone());
    f.group_plan = Some(GroupPlan::Tables(vec![3, 1]));
    let (code, _, err) = run_cli(&to_json(&f).unwrap(), 1, Lang::En);
    assert_eq!(code, 1);
    assert!(err.contains("4 pairs cannot fill the groups"), "{err}");
    // Without a group plan the file itself is refused (exit 2).
    f.group_plan = None;
    let (code, _, err) = run_cli(&to_json(&f).unwrap(), 1, Lang::En);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("group_plan"), "{err}");
    let (code, _, err) = run_cli("{", 1, Lang::En);
    assert_eq!(code, 2, "{err}");
    let mut plain = tour(4, &[Mitchell]);
    plain.rounds.clear();
    let (code, out, _) = run_cli(&to_json(&plain).unwrap(), 3, Lang::En);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("{\"number\":1,\"movement\":\"mitchell\",\"tables\":["),
        "{out}"
    );
}

fn teams_tour(n: u32, plan: &[TeamMovementKind]) -> TeamTournamentFile {
    let mut f = TeamTournamentFile::new(
        "Squadre",
        chrono::NaiveDate::from_ymd_opt(2026, 11, 20).unwrap(),
    );
    f.teams = (1..=n).map(|t| team(t, 4)).collect();
    f.movements = Some(plan.to_vec());
    f
}

#[test]
fn teams_play_the_drawn_round_robin_then_danish() {
    use TeamMovementKind::{Danish, RoundRobin};
    let mut f = teams_tour(5, &[RoundRobin, RoundRobin, Danish]);
    let r1 = next_team_round(&f, 11).unwrap().round;
    assert_eq!(r1.movement, Some(RoundRobin));
    assert_eq!(r1.matches.len(), 2);
    assert_eq!(r1.byes.len(), 1);
    assert_eq!(r1.matches[0].tables[0].table, 1);
    assert_eq!(r1.matches[1].tables[1].table, 4);
    let score = |mut r: crate::tournament_file::TeamRoundFile| {
        for m in &mut r.matches {
            for t in &mut m.tables {
                t.sheet = Some(simple_sheet(
                    100 * i64::from(t.ns.team),
                    100 * i64::from(t.ew.team),
                    3,
                ));
            }
        }
        r
    };
    f.draw_seed = Some(11);
    f.rounds.push(score(r1.clone()));
    let r2 = next_team_round(&f, 999).unwrap().round;
    assert_eq!(r2.movement, Some(RoundRobin));
    // The schedule of seed 11: nobody meets a team twice.
    let met = |r: &crate::tournament_file::TeamRoundFile| {
        r.matches
            .iter()
            .map(|m| (m.home.min(m.away), m.home.max(m.away)))
            .collect::<Vec<_>>()
    };
    assert!(met(&r2).iter().all(|m| !met(&r1).contains(m)));
    f.rounds.push(score(r2));
    let r3 = next_team_round(&f, 0).unwrap().round;
    assert_eq!(r3.movement, Some(Danish));
    assert_eq!(r3.matches.len(), 2);
    f.rounds.push(score(r3));
    let err = next_team_round(&f, 0).unwrap_err();
    assert!(matches!(err, NextRoundError::PlanComplete { rounds: 3 }));
    let (code, _, _) = run_cli(
        &crate::tournament_file::teams_to_json(&f).unwrap(),
        0,
        Lang::En,
    );
    assert_eq!(code, 1);
}
