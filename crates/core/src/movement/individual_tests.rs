//! Individual rounds (RULES.md §14): worked examples and properties of the
//! draw and the Danish round.

use super::error_tests::assert_catalog_complete;
use super::individual::*;
use proptest::prelude::*;
use std::collections::HashSet;

fn numbers(n: u32) -> Vec<PlayerNo> {
    (1..=n).collect()
}

/// Entries of players 1..=n in that order, with no history.
fn fresh(n: u32) -> Vec<IndividualEntry> {
    numbers(n)
        .into_iter()
        .map(|player| IndividualEntry {
            player,
            prev_partner: None,
            rests: 0,
        })
        .collect()
}

/// Sets `a` and `b` as each other's previous partner.
fn partners(entries: &mut [IndividualEntry], a: PlayerNo, b: PlayerNo) {
    for e in entries.iter_mut() {
        if e.player == a {
            e.prev_partner = Some(b);
        } else if e.player == b {
            e.prev_partner = Some(a);
        }
    }
}

fn seat(table: u32, ns: [u32; 2], ew: [u32; 2]) -> FourSeat {
    FourSeat { table, ns, ew }
}

/// Every player once, at a table or resting.
fn assert_each_once(round: &IndividualRound, players: &[PlayerNo]) {
    let mut seen: Vec<PlayerNo> = round
        .tables
        .iter()
        .flat_map(FourSeat::players)
        .chain(round.byes.iter().copied())
        .collect();
    seen.sort_unstable();
    let mut expected = players.to_vec();
    expected.sort_unstable();
    assert_eq!(seen, expected);
    let tables: Vec<u32> = round.tables.iter().map(|t| t.table).collect();
    assert_eq!(
        tables,
        (1..=u32::try_from(tables.len()).unwrap()).collect::<Vec<_>>()
    );
}

#[test]
fn the_danish_round_takes_four_at_a_time_in_ranking_order() {
    let r = individual_danish_round(2, &fresh(8)).unwrap();
    assert_eq!(
        r.tables,
        vec![seat(1, [1, 2], [3, 4]), seat(2, [5, 6], [7, 8])]
    );
    assert!(r.byes.is_empty());
    assert_eq!(r.round, 2);
}

#[test]
fn a_repeated_partnership_is_avoided() {
    // 1 and 2 were partners: 1 + 3 against 2 + 4.
    let mut e = fresh(8);
    partners(&mut e, 1, 2);
    // 7 and 8 were partners: 5 + 7 against 6 + 8.
    partners(&mut e, 7, 8);
    let r = individual_danish_round(2, &e).unwrap();
    assert_eq!(
        r.tables,
        vec![seat(1, [1, 3], [2, 4]), seat(2, [5, 7], [6, 8])]
    );
}

#[test]
fn two_repeats_in_a_foursome() {
    // a + b and c + d both repeat: a + c against b + d.
    let mut e = fresh(4);
    partners(&mut e, 1, 2);
    partners(&mut e, 3, 4);
    let r = individual_danish_round(3, &e).unwrap();
    assert_eq!(r.tables, vec![seat(1, [1, 3], [2, 4])]);
    // a + c and b + d repeat, a + b is free: the first seating stands.
    let mut e = fresh(4);
    partners(&mut e, 1, 3);
    partners(&mut e, 2, 4);
    let r = individual_danish_round(3, &e).unwrap();
    assert_eq!(r.tables, vec![seat(1, [1, 2], [3, 4])]);
    // Both of the first two seatings repeat (a one-sided history): the
    // third, a + d against b + c.
    let mut e = fresh(4);
    e[0].prev_partner = Some(2);
    e[2].prev_partner = Some(1);
    let r = individual_danish_round(3, &e).unwrap();
    assert_eq!(r.tables, vec![seat(1, [1, 4], [2, 3])]);
}

#[test]
fn resting_players_are_the_lowest_ranked_with_the_fewest_rests() {
    // 9 players: the 9th rests.
    let r = individual_danish_round(2, &fresh(9)).unwrap();
    assert_eq!(r.byes, vec![9]);
    assert_eq!(r.tables[1], seat(2, [5, 6], [7, 8]));
    // 11: three rest, chosen one at a time from the bottom.
    let r = individual_danish_round(2, &fresh(11)).unwrap();
    assert_eq!(r.byes, vec![11, 10, 9]);
    // 10 has rested already: 11, 9 and 8 rest; 10 plays.
    let mut e = fresh(11);
    e[9].rests = 1;
    let r = individual_danish_round(3, &e).unwrap();
    assert_eq!(r.byes, vec![11, 9, 8]);
    assert_eq!(r.tables[1], seat(2, [5, 6], [7, 10]));
    // 10 players, 9 and 10 have rested: 8 and 7 rest.
    let mut e = fresh(10);
    e[8].rests = 1;
    e[9].rests = 1;
    let r = individual_danish_round(3, &e).unwrap();
    assert_eq!(r.byes, vec![8, 7]);
    assert_each_once(&r, &numbers(10));
}

#[test]
fn entries_come_from_the_last_round_and_the_rests_so_far() {
    let r1 = IndividualRound {
        round: 1,
        tables: vec![seat(1, [3, 7], [5, 1])],
        byes: vec![2],
    };
    let r2 = IndividualRound {
        round: 2,
        tables: vec![seat(1, [2, 5], [1, 3])],
        byes: vec![7],
    };
    let e = individual_entries_from_history(&[1, 2, 3, 5, 7], &[r2, r1]);
    let got: Vec<(u32, Option<u32>, u32)> = e
        .iter()
        .map(|e| (e.player, e.prev_partner, e.rests))
        .collect();
    assert_eq!(
        got,
        vec![
            (1, Some(3), 0),
            (2, Some(5), 1),
            (3, Some(1), 0),
            (5, Some(2), 0),
            (7, None, 1)
        ]
    );
}

#[test]
fn the_draw_is_reproducible_seats_everyone_and_rests_the_remainder() {
    for n in [4u32, 5, 6, 7, 8, 22, 23] {
        let r = individual_draw(&numbers(n), 2026).unwrap();
        assert_eq!(r.round, 1);
        assert_eq!(r.byes.len(), (n % 4) as usize, "{n} players");
        assert_each_once(&r, &numbers(n));
        let mut reversed = numbers(n);
        reversed.reverse();
        assert_eq!(individual_draw(&reversed, 2026).unwrap(), r);
    }
    assert_ne!(
        individual_draw(&numbers(22), 1).unwrap(),
        individual_draw(&numbers(22), 2).unwrap()
    );
    // Pinned: a stored seed must give the same draw forever.
    let r = individual_draw(&numbers(9), 0).unwrap();
    let flat: Vec<u32> = r.tables.iter().flat_map(FourSeat::players).collect();
    assert_eq!(
        (flat.as_slice(), r.byes.as_slice()),
        (&PINNED_9_SEED_0.0[..], &PINNED_9_SEED_0.1[..])
    );
}

/// The draw of 9 players with seed 0: the tables' players (NS then EW,
/// table by table), then the resting player.
const PINNED_9_SEED_0: ([u32; 8], [u32; 1]) = ([8, 5, 4, 1, 2, 3, 6, 7], [9]);

#[test]
fn bad_inputs_are_refused_with_catalog_messages() {
    use IndividualMovementError as E;
    assert_eq!(
        individual_draw(&[1, 2, 3], 1),
        Err(E::TooFewPlayers { players: 3, min: 4 })
    );
    assert_eq!(
        individual_draw(&[1, 2, 2, 4], 1),
        Err(E::DuplicatePlayer { player: 2 })
    );
    assert_eq!(
        individual_draw(&[0, 1, 2, 3], 1),
        Err(E::InvalidPlayerNumber)
    );
    assert_eq!(
        individual_danish_round(0, &fresh(4)),
        Err(E::InvalidRound { round: 0 })
    );
    let many: Vec<u32> = (1..=u32::try_from(MAX_PLAYERS).unwrap() + 1).collect();
    assert!(matches!(
        individual_draw(&many, 1),
        Err(E::TooManyPlayers { .. })
    ));
    let errors = vec![
        E::TooFewPlayers { players: 3, min: 4 },
        E::TooManyPlayers {
            players: 4001,
            max: 4000,
        },
        E::InvalidPlayerNumber,
        E::DuplicatePlayer { player: 7 },
        E::InvalidRound { round: 0 },
    ];
    assert_catalog_complete(
        &errors,
        "movement.individual_error.",
        IndividualMovementError::code,
        IndividualMovementError::message,
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The draw seats every player once or rests them (n mod 4 rest).
    #[test]
    fn draw_seats_every_player_once(n in 4u32..80, seed in any::<u64>()) {
        let r = individual_draw(&numbers(n), seed).unwrap();
        prop_assert_eq!(r.byes.len(), (n % 4) as usize);
        assert_each_once(&r, &numbers(n));
    }

    /// After any previous round, a Danish round in any ranking seats every
    /// active player once or rests them, repeats no partnership of the
    /// previous round, and rests the lowest-ranked of those with the
    /// fewest rests.
    #[test]
    fn danish_seats_everyone_and_repeats_no_partnership(
        n in 4u32..60,
        prev_seed in any::<u64>(),
        rank_seed in any::<u64>(),
        rests in proptest::collection::vec(0u32..3, 60),
    ) {
        let previous = individual_draw(&numbers(n), prev_seed).unwrap();
        // A random ranking: another draw's order.
        let ranking: Vec<u32> = individual_draw(&numbers(n), rank_seed)
            .map(|r| {
                r.tables
                    .iter()
                    .flat_map(FourSeat::players)
                    .chain(r.byes.iter().copied())
                    .collect()
            })
            .unwrap();
        let mut entries = individual_entries_from_history(&ranking, std::slice::from_ref(&previous));
        for (e, &k) in entries.iter_mut().zip(&rests) {
            e.rests = k;
        }
        let r = individual_danish_round(2, &entries).unwrap();
        assert_each_once(&r, &numbers(n));
        for t in &r.tables {
            for [a, b] in [t.ns, t.ew] {
                prop_assert_ne!(previous.partner_of(a), Some(b), "{:?}", t);
            }
        }
        // The resting players: fewest rests first, then the lowest-ranked.
        let key = |p: u32| {
            let i = ranking.iter().position(|&q| q == p).unwrap();
            (entries[i].rests, std::cmp::Reverse(i))
        };
        let resting: HashSet<u32> = r.byes.iter().copied().collect();
        for &b in &r.byes {
            for p in ranking.iter().filter(|p| !resting.contains(p)) {
                prop_assert!(key(b) <= key(*p), "{} rests before {}", b, p);
            }
        }
    }
}
