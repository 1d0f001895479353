//! Danish in groups (RULES.md §13): odd groups, byes, table numbers.

use super::*;
use crate::movement::groups::{cut_into_groups, GroupPlan};
use crate::movement::Line;
use proptest::prelude::*;

fn fresh(pair: PairNo) -> DanishEntry {
    DanishEntry {
        pair,
        prev_opponent: None,
        last_line: None,
        byes: 0,
    }
}

fn group(name: &str, members: Vec<DanishEntry>) -> GroupCut<DanishEntry> {
    GroupCut {
        name: name.to_string(),
        members,
    }
}

/// (group, table, ns, ew) of each table.
fn tables(r: &GroupsRound) -> Vec<(&str, TableNo, PairNo, PairNo)> {
    r.tables
        .iter()
        .map(|t| {
            (
                t.group.as_str(),
                t.seat.table,
                t.seat.ns.unwrap(),
                t.seat.ew.unwrap(),
            )
        })
        .collect()
}

#[test]
fn each_group_is_paired_on_its_own_tables_numbered_group_after_group() {
    // A: 5, 3, 8, 1 (in the group's standings order); B: 2, 7, 4, 6.
    let a = group("A", [5, 3, 8, 1].map(fresh).to_vec());
    let b = group("B", [2, 7, 4, 6].map(fresh).to_vec());
    let r = danish_groups_round(9, &[a, b], false).unwrap();
    assert_eq!(
        tables(&r),
        vec![
            ("A", 1, 5, 3),
            ("A", 2, 8, 1),
            ("B", 3, 2, 7),
            ("B", 4, 4, 6)
        ]
    );
    assert!(r.byes.is_empty());
    assert_eq!(r.seating().tables.len(), 4);
}

#[test]
fn an_odd_group_rests_its_lowest_pair_with_the_fewest_byes() {
    // A has 5 pairs: 9 rested already, so 4 (the next lowest) rests.
    let mut a: Vec<DanishEntry> = [1, 2, 3, 4, 9].map(fresh).to_vec();
    a[4].byes = 1;
    let b: Vec<DanishEntry> = [5, 6, 7].map(fresh).to_vec();
    let r = danish_groups_round(10, &[group("A", a), group("B", b)], false).unwrap();
    assert_eq!(
        tables(&r),
        vec![("A", 1, 1, 2), ("A", 2, 3, 9), ("B", 3, 5, 6)]
    );
    assert_eq!(r.byes, vec![("A".to_string(), 4), ("B".to_string(), 7)]);
    assert_eq!(r.seating().byes, vec![4, 7]);
}

#[test]
fn modified_groups_avoid_the_previous_opponent_inside_the_group() {
    // A: 1 and 2 just met, 3 and 4 just met: 1 v 3, 2 v 4.
    let mut a: Vec<DanishEntry> = [1, 2, 3, 4].map(fresh).to_vec();
    for (i, o) in [(0, 2), (1, 1), (2, 4), (3, 3)] {
        a[i].prev_opponent = Some(o);
        a[i].last_line = Some(if i % 2 == 0 { Line::Ns } else { Line::Ew });
    }
    let r = danish_groups_round(10, &[group("A", a.clone())], true).unwrap();
    let pairs: Vec<_> = tables(&r)
        .into_iter()
        .map(|(_, t, ns, ew)| (t, ns.min(ew), ns.max(ew)))
        .collect();
    assert_eq!(pairs, vec![(1, 1, 3), (2, 2, 4)]);
    // Pure: 1 v 2 again.
    let r = danish_groups_round(10, &[group("A", a)], false).unwrap();
    assert_eq!(r.tables[0].seat.table, 1);
    let first = r.tables[0].seat;
    assert_eq!((first.ns.unwrap().min(first.ew.unwrap())), 1);
    assert_eq!((first.ns.unwrap().max(first.ew.unwrap())), 2);
}

#[test]
fn a_group_left_with_one_pair_rests_it_and_an_empty_group_seats_nothing() {
    let groups = [
        group("A", [1, 2].map(fresh).to_vec()),
        group("B", vec![fresh(3)]),
        group("C", Vec::new()),
        group("D", [4, 5].map(fresh).to_vec()),
    ];
    let r = danish_groups_round(3, &groups, false).unwrap();
    assert_eq!(tables(&r), vec![("A", 1, 1, 2), ("D", 2, 4, 5)]);
    assert_eq!(r.byes, vec![("B".to_string(), 3)]);
}

#[test]
fn no_legal_pairing_in_a_group_is_refused() {
    let mut a: Vec<DanishEntry> = [1, 2].map(fresh).to_vec();
    a[0].prev_opponent = Some(2);
    a[1].prev_opponent = Some(1);
    assert_eq!(
        danish_groups_round(4, &[group("A", a)], true),
        Err(MovementError::NoLegalPairing)
    );
    assert_eq!(
        danish_groups_round(0, &[], true),
        Err(MovementError::InvalidRound { round: 0 })
    );
}

#[test]
fn group_entries_follow_the_ranking_and_drop_withdrawn_pairs() {
    let groups = vec![
        GroupCut {
            name: "A".to_string(),
            members: vec![1, 2, 3],
        },
        GroupCut {
            name: "B".to_string(),
            members: vec![4, 5, 6],
        },
    ];
    // 2 withdrew; the group standings put 3 above 1, 6 above 4.
    let ranking = [3, 1, 6, 5, 4];
    let history = vec![RoundSeating {
        round: 1,
        tables: vec![Seat {
            table: 1,
            ns: Some(3),
            ew: Some(1),
        }],
        byes: vec![6],
    }];
    let e = group_entries(&groups, &ranking, &history);
    let pairs: Vec<Vec<PairNo>> = e
        .iter()
        .map(|g| g.members.iter().map(|m| m.pair).collect())
        .collect();
    assert_eq!(pairs, vec![vec![3, 1], vec![6, 5, 4]]);
    assert_eq!(e[0].members[0].prev_opponent, Some(1));
    assert_eq!(e[1].members[0].byes, 1);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// Every pair once (a table or a bye), tables 1..=T in order, each
    /// table inside one group, one bye per odd group, and each group's
    /// tables are its own Danish round numbered after the previous group.
    #[test]
    fn groups_round_is_each_groups_danish_round_in_turn(
        n in 4usize..60,
        count in 1u32..5,
        modified in any::<bool>(),
    ) {
        let ranking: Vec<PairNo> = (1..=u32::try_from(n).unwrap()).collect();
        let Ok(cut) = cut_into_groups(&ranking, &GroupPlan::Count(count)) else {
            return Ok(());
        };
        let groups: Vec<GroupCut<DanishEntry>> = cut
            .iter()
            .map(|g| group(&g.name, g.members.iter().copied().map(fresh).collect()))
            .collect();
        let r = danish_groups_round(7, &groups, modified).unwrap();
        let numbers: Vec<TableNo> = r.tables.iter().map(|t| t.seat.table).collect();
        let expected: Vec<TableNo> = (1..=u32::try_from(numbers.len()).unwrap()).collect();
        prop_assert_eq!(&numbers, &expected);
        let mut seen: Vec<PairNo> = r
            .tables
            .iter()
            .flat_map(|t| [t.seat.ns.unwrap(), t.seat.ew.unwrap()])
            .chain(r.byes.iter().map(|b| b.1))
            .collect();
        seen.sort_unstable();
        prop_assert_eq!(seen, ranking.clone());
        let odd = cut.iter().filter(|g| g.members.len() % 2 == 1).count();
        prop_assert_eq!(r.byes.len(), odd);
        let mut first = 1;
        for g in &groups {
            let alone = danish_round_from(7, &g.members, modified, first).unwrap();
            let mine: Vec<Seat> = r
                .tables
                .iter()
                .filter(|t| t.group == g.name)
                .map(|t| t.seat)
                .collect();
            prop_assert_eq!(&mine, &alone.tables);
            first += u32::try_from(alone.tables.len()).unwrap();
        }
    }
}
