//! The team movements, case by case; the properties are in the movement's
//! `proptests.rs`, which uses the helpers here.

use super::plan::number_tables;
use super::*;
use crate::movement::error_tests::assert_catalog_complete;
use crate::tournament_file::LineRef;
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{HashMap, HashSet};

pub(crate) fn numbers(n: usize) -> Vec<TeamNo> {
    (1..=u32::try_from(n).unwrap()).collect()
}

/// Each unordered meeting and how often it happens.
pub(crate) fn meetings(plans: &[TeamRoundPlan]) -> HashMap<(TeamNo, TeamNo), usize> {
    let mut out = HashMap::new();
    for p in plans {
        for m in &p.matches {
            *out.entry((m.home.min(m.away), m.home.max(m.away)))
                .or_insert(0) += 1;
        }
    }
    out
}

/// No team twice in a round; every team plays or rests in every round.
pub(crate) fn check_rounds(plans: &[TeamRoundPlan], teams: &[TeamNo]) -> Result<(), TestCaseError> {
    for p in plans {
        let mut seen = HashSet::new();
        for m in &p.matches {
            prop_assert!(m.home != m.away);
            prop_assert!(seen.insert(m.home), "team {} twice", m.home);
            prop_assert!(seen.insert(m.away), "team {} twice", m.away);
        }
        for &b in &p.byes {
            prop_assert!(seen.insert(b), "team {b} plays and rests");
        }
        prop_assert_eq!(seen.len(), teams.len());
        for (i, m) in p.matches.iter().enumerate() {
            prop_assert_eq!(m.tables, match_tables(i + 1));
        }
    }
    Ok(())
}

#[test]
fn tables_of_a_match() {
    assert_eq!(match_tables(1), [1, 2]);
    assert_eq!(match_tables(4), [7, 8]);
}

#[test]
fn round_robin_of_four_and_five() {
    let plans = round_robin(&[1, 2, 3, 4], 1).unwrap();
    assert_eq!(plans.len(), 3);
    assert!(plans
        .iter()
        .all(|p| p.byes.is_empty() && p.matches.len() == 2));
    let m = meetings(&plans);
    assert_eq!(m.len(), 6);
    assert!(m.values().all(|&c| c == 1));
    // The last team is fixed: home in rounds 1 and 3.
    assert_eq!(plans[0].is_home(4), Some(true));
    assert_eq!(plans[1].is_home(4), Some(false));
    assert_eq!(plans[2].is_home(4), Some(true));
    let plans = round_robin(&[10, 20, 30, 40, 50], 3).unwrap();
    assert_eq!(plans.len(), 5);
    assert_eq!(plans[0].round, 3);
    let mut rested: Vec<TeamNo> = plans.iter().flat_map(|p| p.byes.clone()).collect();
    rested.sort_unstable();
    assert_eq!(rested, vec![10, 20, 30, 40, 50], "each team rests once");
    assert_eq!(
        round_robin(&[1], 1),
        Err(TeamMovementError::TooFewTeams { teams: 1, min: 2 })
    );
    assert_eq!(
        round_robin(&[1, 2, 2], 1),
        Err(TeamMovementError::DuplicateTeam { team: 2 })
    );
    assert_eq!(
        round_robin(&[0, 2], 1),
        Err(TeamMovementError::InvalidTeamNumber)
    );
    assert_eq!(
        round_robin(&[1, 2], 0),
        Err(TeamMovementError::InvalidRound { round: 0 })
    );
    assert_eq!(round_robin_rounds(14), 13);
    assert_eq!(round_robin_rounds(7), 7);
}

#[test]
fn groups_split_snake_wise_and_play_in_the_same_rounds() {
    let g = split_into_groups(&numbers(9), 2).unwrap();
    assert_eq!(g[0].name.as_deref(), Some("A"));
    assert_eq!(g[0].teams, vec![1, 4, 5, 8, 9]);
    assert_eq!(g[1].teams, vec![2, 3, 6, 7]);
    let plans = round_robin_groups(&g, 1).unwrap();
    // 5 teams need 5 rounds; the 4 of B need 3, then rest.
    assert_eq!(plans.len(), 5);
    for p in &plans[3..] {
        for t in &g[1].teams {
            assert!(p.rests(*t));
        }
    }
    for p in &plans {
        for m in &p.matches {
            let ga = g.iter().position(|x| x.teams.contains(&m.home));
            let gb = g.iter().position(|x| x.teams.contains(&m.away));
            assert_eq!(ga, gb, "no match across groups");
            assert_eq!(m.group, g[ga.unwrap()].name);
        }
    }
    assert!(matches!(
        split_into_groups(&numbers(5), 3),
        Err(TeamMovementError::GroupTooSmall { .. })
    ));
    assert!(matches!(
        split_into_groups(&numbers(5), 0),
        Err(TeamMovementError::GroupsOutOfRange { .. })
    ));
    let twice = vec![
        Group {
            name: Some("A".into()),
            teams: vec![1, 2],
        },
        Group {
            name: Some("A".into()),
            teams: vec![3, 4],
        },
    ];
    assert!(matches!(
        round_robin_groups(&twice, 1),
        Err(TeamMovementError::DuplicateGroup { .. })
    ));
    assert_eq!(group_name(25), "Z");
    assert_eq!(group_name(26), "G27");
}

#[test]
fn withdrawn_teams_leave_their_opponents_resting() {
    let plans = round_robin(&numbers(6), 1).unwrap();
    let p = drop_withdrawn(&plans[1], &[3]);
    let opponent = plans[1].opponent(3).unwrap();
    assert!(p.rests(opponent));
    assert!(p.match_of(3).is_none());
    assert_eq!(p.matches.len(), 2);
    assert_eq!(p.matches[1].tables, [3, 4]);
    let both = drop_withdrawn(&plans[1], &[3, opponent]);
    assert!(both.byes.is_empty());
}

pub(crate) fn entry(
    team: TeamNo,
    met: &[TeamNo],
    prev: Option<TeamNo>,
    byes: u32,
) -> TeamDanishEntry {
    TeamDanishEntry {
        team,
        met: met.to_vec(),
        prev_opponent: prev,
        byes,
        homes: 0,
        aways: 0,
    }
}

pub(crate) fn couples(r: &TeamDanishRound) -> Vec<(TeamNo, TeamNo)> {
    r.plan
        .matches
        .iter()
        .map(|m| (m.home.min(m.away), m.home.max(m.away)))
        .collect()
}

#[test]
fn danish_pairs_by_ranking_never_a_team_already_met() {
    // 1 met 2 and 3: 1 takes 4; 2 and 3 met each other before: 2 takes 5.
    let e = vec![
        entry(1, &[2, 3], Some(3), 0),
        entry(2, &[1, 3], Some(3), 0),
        entry(3, &[1, 2], Some(1), 0),
        entry(4, &[], None, 0),
        entry(5, &[], None, 0),
        entry(6, &[], None, 0),
    ];
    let r = team_danish_round(3, &e).unwrap();
    assert_eq!(couples(&r), vec![(1, 4), (2, 5), (3, 6)]);
    assert!(r.rematches.is_empty());
    assert_eq!(r.plan.matches[0].tables, [1, 2]);
    // Backtracking: greedy 1-2, 3-4 would leave 5-6, who met.
    let e = vec![
        entry(1, &[3], None, 0),
        entry(2, &[4], None, 0),
        entry(3, &[1], None, 0),
        entry(4, &[2], None, 0),
        entry(5, &[6], None, 0),
        entry(6, &[5], None, 0),
    ];
    let r = team_danish_round(2, &e).unwrap();
    assert_eq!(couples(&r), vec![(1, 2), (3, 5), (4, 6)]);
}

#[test]
fn danish_rests_the_lowest_team_that_has_not_rested() {
    let e: Vec<_> = (1..=5).map(|t| entry(t, &[], None, 0)).collect();
    let r = team_danish_round(1, &e).unwrap();
    assert_eq!(r.plan.byes, vec![5]);
    let mut e = e;
    e[4].byes = 1;
    let r = team_danish_round(2, &e).unwrap();
    assert_eq!(r.plan.byes, vec![4]);
    // 3 teams, 1 and 2 met: resting 3 would force a rematch; 2 rests.
    let e = vec![
        entry(1, &[2], Some(2), 0),
        entry(2, &[1], Some(1), 0),
        entry(3, &[], None, 0),
    ];
    let r = team_danish_round(2, &e).unwrap();
    assert_eq!(r.plan.byes, vec![2]);
    assert_eq!(couples(&r), vec![(1, 3)]);
}

#[test]
fn danish_after_a_complete_round_robin_repeats_the_fewest_meetings() {
    let plans = round_robin(&numbers(4), 1).unwrap();
    let ranking = [2, 4, 1, 3];
    let e = team_entries_from_history(&ranking, &plans);
    let r = team_danish_round(4, &e).unwrap();
    assert_eq!(r.plan.matches.len(), 2);
    assert_eq!(r.rematches.len(), 2, "everyone has met everyone");
    // Never the previous round's opponent while avoidable.
    for m in &r.plan.matches {
        assert_ne!(plans[2].opponent(m.home), Some(m.away));
    }
    // Two teams only: they meet again regardless.
    let e = vec![entry(1, &[2], Some(2), 0), entry(2, &[1], Some(1), 0)];
    let r = team_danish_round(2, &e).unwrap();
    assert_eq!(r.rematches, vec![(1, 2)]);
}

#[test]
fn danish_sees_an_odd_part_at_once_and_is_quick_on_large_fields() {
    // 1…7 met every one of 8…14 and nobody of their own half: the
    // teams not met form two parts of 7, so no pairing avoids a rematch.
    let plans: Vec<TeamRoundPlan> = (0..7u32)
        .map(|r| TeamRoundPlan {
            round: r + 1,
            matches: (0..7u32)
                .map(|i| TeamMatch {
                    home: i + 1,
                    away: 8 + (i + r) % 7,
                    group: None,
                    tables: [0, 0],
                })
                .collect(),
            byes: vec![],
        })
        .collect();
    let e = team_entries_from_history(&numbers(14), &plans);
    let start = std::time::Instant::now();
    let r = team_danish_round(8, &e).unwrap();
    assert!(!r.rematches.is_empty());
    assert_eq!(r.plan.matches.len(), 7);
    // 60 teams after 25 random rounds.
    let hist = history(60, 25, 7);
    let e = team_entries_from_history(&numbers(60), &hist);
    let r = team_danish_round(26, &e).unwrap();
    assert_eq!(r.plan.matches.len(), 30);
    assert!(r.rematches.is_empty());
    assert!(start.elapsed().as_secs() < 10, "{:?}", start.elapsed());
}

#[test]
fn danish_home_goes_to_the_team_that_was_home_less() {
    let mut e: Vec<_> = (1..=4).map(|t| entry(t, &[], None, 0)).collect();
    e[0].homes = 2;
    e[1].aways = 1;
    let r = team_danish_round(3, &e).unwrap();
    assert_eq!((r.plan.matches[0].home, r.plan.matches[0].away), (2, 1));
    assert_eq!((r.plan.matches[1].home, r.plan.matches[1].away), (3, 4));
}

#[test]
fn entries_come_from_the_history() {
    let plans = round_robin(&numbers(5), 1).unwrap();
    let e = team_entries_from_history(&numbers(5), &plans[..3]);
    for x in &e {
        assert_eq!(x.prev_opponent, plans[2].opponent(x.team));
        let played = u32::try_from(x.met.len()).unwrap();
        assert_eq!(played + x.byes, 3);
        assert_eq!(x.homes + x.aways, played);
    }
}

#[test]
fn line_ups() {
    let l = LineUp {
        pairs: [[4, 1], [0, 3]],
    };
    assert!(check_lineup(&l, 5).is_ok());
    assert_eq!(l.sitting_out(5), vec![2]);
    assert_eq!(l.sitting_out(6), vec![2, 5]);
    assert_eq!(
        check_lineup(&l, 4),
        Err(TeamMovementError::LineUpPlayerUnknown { index: 4, last: 3 })
    );
    assert_eq!(
        check_lineup(
            &LineUp {
                pairs: [[0, 1], [1, 2]]
            },
            4
        ),
        Err(TeamMovementError::LineUpPlayerTwice { index: 1 })
    );
    assert!(matches!(
        check_lineup(&LineUp::FIRST_FOUR, 3),
        Err(TeamMovementError::LineUpTooFewPlayers { .. })
    ));
    assert_eq!(default_lineup(None, 6), LineUp::FIRST_FOUR);
    assert_eq!(default_lineup(Some(&l), 6), l);
    assert_eq!(default_lineup(Some(&l), 4), LineUp::FIRST_FOUR);
    // Seated: home's first pair NS at the first table, its second pair
    // EW at the second.
    let game = TeamMatch {
        home: 7,
        away: 9,
        group: None,
        tables: match_tables(2),
    };
    let other = LineUp {
        pairs: [[2, 3], [0, 1]],
    };
    let m = seat_match(&game, &l, &other);
    let line = |team, players| LineRef { team, players };
    let seated = |t: usize| (m.tables[t].table, m.tables[t].ns, m.tables[t].ew);
    assert_eq!(seated(0), (3, line(7, [4, 1]), line(9, [2, 3])));
    assert_eq!(seated(1), (4, line(9, [0, 1]), line(7, [0, 3])));
    assert_eq!(lineup_in(&m, 7), Some(l));
    assert_eq!(lineup_in(&m, 9), Some(other));
    assert_eq!(lineup_in(&m, 8), None);
}

#[test]
fn every_error_has_a_catalog_entry() {
    use TeamMovementError as E;
    let errors = vec![
        E::TooFewTeams { teams: 1, min: 2 },
        E::TooManyTeams {
            teams: 501,
            max: 500,
        },
        E::InvalidTeamNumber,
        E::DuplicateTeam { team: 3 },
        E::InvalidRound { round: 0 },
        E::GroupsOutOfRange {
            groups: 30,
            max: 26,
        },
        E::GroupTooSmall {
            group: "B".into(),
            teams: 1,
            min: 2,
        },
        E::DuplicateGroup { group: "A".into() },
        E::LineUpTooFewPlayers { players: 3, min: 4 },
        E::LineUpPlayerUnknown { index: 7, last: 5 },
        E::LineUpPlayerTwice { index: 2 },
    ];
    assert_catalog_complete(
        &errors,
        "movement.team_error.",
        TeamMovementError::code,
        TeamMovementError::message,
    );
}

/// A random history of `rounds` rounds among `n` teams (random pairings).
pub(crate) fn history(n: usize, rounds: usize, seed: u64) -> Vec<TeamRoundPlan> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..rounds)
        .map(|r| {
            let order = draw_order(&numbers(n), rng.gen());
            let mut matches: Vec<TeamMatch> = order
                .chunks_exact(2)
                .map(|c| TeamMatch {
                    home: c[0],
                    away: c[1],
                    group: None,
                    tables: [0, 0],
                })
                .collect();
            number_tables(&mut matches);
            TeamRoundPlan {
                round: u32::try_from(r + 1).unwrap(),
                matches,
                byes: if n % 2 == 1 {
                    vec![order[n - 1]]
                } else {
                    vec![]
                },
            }
        })
        .collect()
}
