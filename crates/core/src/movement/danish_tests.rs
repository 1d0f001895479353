//! The pairs' Danish round, case by case (the properties are in
//! `proptests.rs`).

use super::danish::*;
use super::error::MovementError;
use super::seating::{Line, PairNo, RoundSeating};

fn entries(pairs: &[PairNo], met: &[(PairNo, PairNo)]) -> Vec<DanishEntry> {
    pairs
        .iter()
        .map(|&pair| DanishEntry {
            pair,
            prev_opponent: met.iter().find_map(|&(a, b)| {
                if a == pair {
                    Some(b)
                } else if b == pair {
                    Some(a)
                } else {
                    None
                }
            }),
            last_line: None,
            byes: 0,
        })
        .collect()
}

fn couples(r: &RoundSeating) -> Vec<(PairNo, PairNo)> {
    r.tables
        .iter()
        .map(|s| {
            let (a, b) = (s.ns.unwrap(), s.ew.unwrap());
            (a.min(b), a.max(b))
        })
        .collect()
}

#[test]
fn pure_danish_pairs_neighbours_even_if_they_just_met() {
    let e = entries(&[5, 2, 8, 1, 7, 3, 6, 4], &[(5, 2), (8, 1)]);
    let r = danish_round(4, &e, false).unwrap();
    assert_eq!(couples(&r), vec![(2, 5), (1, 8), (3, 7), (4, 6)]);
    assert_eq!(
        r.tables.iter().map(|s| s.table).collect::<Vec<_>>(),
        vec![1, 2, 3, 4]
    );
    assert!(r.byes.is_empty());
    assert_eq!(r.round, 4);
}

#[test]
fn modified_danish_avoids_the_previous_opponent() {
    let e = entries(&[1, 2, 3, 4], &[(1, 2), (3, 4)]);
    assert_eq!(
        couples(&danish_round(2, &e, true).unwrap()),
        vec![(1, 3), (2, 4)]
    );
    let e = entries(&[1, 2, 3, 4], &[(1, 3), (2, 4)]);
    assert_eq!(
        couples(&danish_round(2, &e, true).unwrap()),
        vec![(1, 2), (3, 4)]
    );
}

#[test]
fn modified_danish_looks_ahead_where_greedy_would_strand_the_bottom() {
    // Greedy: 1-2, 3-4, leaves 5-6 who just met. Correct: 3 takes 5.
    let e = entries(&[1, 2, 3, 4, 5, 6], &[(1, 3), (2, 4), (5, 6)]);
    assert_eq!(
        couples(&danish_round(3, &e, true).unwrap()),
        vec![(1, 2), (3, 5), (4, 6)]
    );
    // 8 pairs: the look-ahead only matters for the last two tables.
    let e = entries(
        &[10, 20, 30, 40, 50, 60, 70, 80],
        &[(10, 30), (20, 40), (50, 60), (70, 80)],
    );
    let r = danish_round(3, &e, true).unwrap();
    assert_eq!(couples(&r), vec![(10, 20), (30, 40), (50, 70), (60, 80)]);
}

#[test]
fn odd_count_rests_the_lowest_pair_that_has_not_rested() {
    let mut e = entries(&[1, 2, 3, 4, 5], &[]);
    let r = danish_round(2, &e, false).unwrap();
    assert_eq!(r.byes, vec![5]);
    assert_eq!(couples(&r), vec![(1, 2), (3, 4)]);
    e[4].byes = 1;
    let r = danish_round(3, &e, false).unwrap();
    assert_eq!(r.byes, vec![4]);
    assert_eq!(couples(&r), vec![(1, 2), (3, 5)]);
    for x in e.iter_mut() {
        x.byes = 1;
    }
    e[0].byes = 0;
    let r = danish_round(3, &e, true).unwrap();
    assert_eq!(
        r.byes,
        vec![1],
        "the only pair without a bye rests, even if first"
    );
}

#[test]
fn resting_pair_must_leave_the_others_pairable() {
    // 3 pairs: 1 and 2 just met; 3 has the fewest byes but resting it
    // would leave 1 v 2 again, so 2 rests.
    let e = entries(&[1, 2, 3], &[(1, 2)]);
    let r = danish_round(2, &e, true).unwrap();
    assert_eq!(r.byes, vec![2]);
    assert_eq!(couples(&r), vec![(1, 3)]);
    assert_eq!(danish_round(2, &e, false).unwrap().byes, vec![3]);
}

#[test]
fn impossible_or_bad_input_is_refused() {
    let e = entries(&[1, 2], &[(1, 2)]);
    assert_eq!(
        danish_round(2, &e, true),
        Err(MovementError::NoLegalPairing)
    );
    assert!(danish_round(2, &e, false).is_ok());
    assert_eq!(
        danish_round(2, &e[..1], false),
        Err(MovementError::TooFewPairs { pairs: 1, min: 2 })
    );
    assert_eq!(
        danish_round(0, &e, false),
        Err(MovementError::InvalidRound { round: 0 })
    );
    let mut bad = entries(&[1, 2, 3, 4], &[(1, 2)]);
    bad[1].prev_opponent = Some(3);
    assert_eq!(
        danish_round(2, &bad, true),
        Err(MovementError::InconsistentOpponents {
            pair: 1,
            opponent: 2
        })
    );
    let mut selfish = entries(&[1, 2, 3, 4], &[]);
    selfish[0].prev_opponent = Some(1);
    assert!(matches!(
        danish_round(2, &selfish, true),
        Err(MovementError::InconsistentOpponents { .. })
    ));
    let dup = entries(&[1, 2, 2, 4], &[]);
    assert_eq!(
        danish_round(2, &dup, false),
        Err(MovementError::DuplicatePair { pair: 2 })
    );
    // a previous opponent who has withdrawn is ignored
    let gone = entries(&[1, 2, 3, 4], &[(1, 9)]);
    assert!(danish_round(2, &gone, true).is_ok());
}

#[test]
fn higher_pair_alternates_its_line() {
    let mut e = entries(&[1, 2, 3, 4, 5, 6], &[]);
    e[0].last_line = Some(Line::Ns); // 1 was NS → EW
    e[1].last_line = Some(Line::Ns);
    e[2].last_line = Some(Line::Ew); // 3 was EW → NS
    e[4].last_line = None; // 5 never played; 6 was NS → 6 takes EW, 5 NS
    e[5].last_line = Some(Line::Ns);
    let r = danish_round(2, &e, false).unwrap();
    assert_eq!((r.tables[0].ns, r.tables[0].ew), (Some(2), Some(1)));
    assert_eq!((r.tables[1].ns, r.tables[1].ew), (Some(3), Some(4)));
    assert_eq!((r.tables[2].ns, r.tables[2].ew), (Some(5), Some(6)));
    let fresh = entries(&[7, 8], &[]);
    let r = danish_round(2, &fresh, false).unwrap();
    assert_eq!(
        (r.tables[0].ns, r.tables[0].ew),
        (Some(7), Some(8)),
        "neither played: higher NS"
    );
}

#[test]
fn entries_come_from_the_history() {
    let l = crate::movement::first_round_draw(&[1, 2, 3, 4, 5], 3).unwrap();
    let p = crate::movement::MitchellPlan::for_layout(&l, 3);
    let hist = crate::movement::schedule(&l, &p, &[]).unwrap();
    let ranking = [3, 1, 4, 5, 2];
    let e = entries_from_history(&ranking, &hist);
    for x in &e {
        let last = &hist[2];
        assert_eq!(x.prev_opponent, last.opponent(x.pair));
        assert_eq!(x.byes, u32::from(hist.iter().any(|r| r.rests(x.pair))));
        let expect = if last.rests(x.pair) {
            hist[1].line(x.pair)
        } else {
            last.line(x.pair)
        };
        assert_eq!(x.last_line, expect);
    }
    let r = danish_round(4, &e, true).unwrap();
    assert_eq!(r.byes.len(), 1);
    let resting = r.byes[0];
    assert!(e
        .iter()
        .all(|x| x.byes >= e.iter().find(|y| y.pair == resting).unwrap().byes));
}

#[test]
fn incomplete_previous_round_is_refused() {
    assert!(ensure_previous_round_complete(&[]).is_ok());
    let e = ensure_previous_round_complete(&[7, 3, 7]).unwrap_err();
    assert_eq!(
        e,
        MovementError::PreviousRoundIncomplete {
            tables: "3, 7".into()
        }
    );
}

#[test]
fn a_group_numbers_its_tables_after_the_previous_group() {
    let e = entries(&[4, 2, 7, 1, 9], &[]);
    let whole = danish_round(3, &e, false).unwrap();
    let group = danish_round_from(3, &e, false, 6).unwrap();
    assert_eq!(
        group.tables.iter().map(|s| s.table).collect::<Vec<_>>(),
        vec![6, 7]
    );
    assert_eq!(group.byes, whole.byes);
    for (g, w) in group.tables.iter().zip(&whole.tables) {
        assert_eq!((g.ns, g.ew), (w.ns, w.ew));
    }
}
