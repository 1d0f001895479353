//! Club separation: worked cases of RULES.md §13 and the draw's properties.

use std::collections::BTreeMap;

use super::*;
use crate::movement::mitchell::{schedule, MitchellPlan};

fn field(clubs: &[&[&str]]) -> Vec<PairClubs> {
    clubs
        .iter()
        .zip(1..)
        .map(|(c, pair)| PairClubs {
            pair,
            clubs: c.iter().map(|s| s.to_string()).collect(),
        })
        .collect()
}

fn line_of(layout: &Layout, pair: PairNo) -> &'static str {
    if layout.fixed.contains(&Some(pair)) {
        "fixed"
    } else {
        assert!(layout.moving.contains(&Some(pair)), "pair {pair} seated");
        "moving"
    }
}

/// No two pairs sharing a club meet in any Mitchell round of the layout.
fn meetings_in_mitchell(pairs: &[PairClubs], layout: &Layout) -> usize {
    let clubs: BTreeMap<PairNo, Vec<String>> = pairs
        .iter()
        .map(|p| (p.pair, p.clubs.iter().map(|c| club_key(c)).collect()))
        .collect();
    let plan = MitchellPlan::for_layout(layout, layout.tables);
    let mut met = 0;
    for round in schedule(layout, &plan, &[]).unwrap() {
        for seat in round.played() {
            let (ns, ew) = (seat.ns.unwrap(), seat.ew.unwrap());
            if clubs[&ns]
                .iter()
                .any(|c| !c.is_empty() && clubs[&ew].contains(c))
            {
                met += 1;
            }
        }
    }
    met
}

#[test]
fn clubs_that_can_be_kept_apart_never_meet() {
    // 12 pairs: Aurora 4, Sole 3, Luna 2 (one pair of Luna and Sole links
    // them: a block of 5), 3 pairs without a club. Fixed line: 6 pairs.
    let pairs = field(&[
        &["Circolo Aurora", "Circolo Aurora"],
        &["circolo aurora "],
        &["CIRCOLO AURORA", ""],
        &["Circolo Auròra"],
        &["Sole"],
        &["Sole", "Luna"],
        &["Sole"],
        &["Luna"],
        &[""],
        &[],
        &["", ""],
        &["Mare"],
    ]);
    for seed in 0..50 {
        let d = first_round_draw_apart(&pairs, seed).unwrap();
        assert!(d.meetings.is_empty(), "seed {seed}: {:?}", d.meetings);
        assert_eq!(d.crossing, 0);
        assert_eq!(d.layout.tables, 6);
        assert_eq!(d.layout.fixed.iter().flatten().count(), 6);
        let aurora: Vec<_> = (1..=4).map(|p| line_of(&d.layout, p)).collect();
        assert!(aurora.iter().all(|l| *l == aurora[0]), "{aurora:?}");
        let sole_luna: Vec<_> = (5..=8).map(|p| line_of(&d.layout, p)).collect();
        assert!(sole_luna.iter().all(|l| *l == sole_luna[0]));
        assert_eq!(meetings_in_mitchell(&pairs, &d.layout), 0, "seed {seed}");
        // The same seed, the same draw, whatever order the pairs come in.
        let mut reversed = pairs.clone();
        reversed.reverse();
        assert_eq!(first_round_draw_apart(&reversed, seed).unwrap(), d);
    }
}

#[test]
fn an_odd_field_keeps_the_phantom_on_the_fixed_line_of_the_last_table() {
    // 9 pairs, 5 tables: fixed 4 real + the phantom, moving 5.
    let pairs = field(&[
        &["A"],
        &["A"],
        &["A"],
        &["A"],
        &["A"],
        &["B"],
        &["B"],
        &["B"],
        &["B"],
    ]);
    for seed in 0..20 {
        let d = first_round_draw_apart(&pairs, seed).unwrap();
        assert_eq!(d.layout.fixed.last(), Some(&None), "the phantom");
        assert_eq!(d.layout.fixed.iter().flatten().count(), 4);
        assert_eq!(d.layout.moving.iter().flatten().count(), 5);
        // B's 4 pairs hold the fixed line, A's 5 the moving one.
        for p in 6..=9 {
            assert_eq!(line_of(&d.layout, p), "fixed");
        }
        assert!(d.meetings.is_empty());
        assert_eq!(meetings_in_mitchell(&pairs, &d.layout), 0);
    }
}

#[test]
fn when_clubs_cannot_be_kept_apart_the_fewest_pairs_cross_and_the_clubs_are_named() {
    // 8 pairs, fixed line 4: Aurora 6, Sole 2. Whole blocks give 2 or 6;
    // Sole stays whole and 2 of Aurora's pairs join it.
    let pairs = field(&[
        &["Aurora"],
        &["Aurora"],
        &["Aurora"],
        &["Aurora"],
        &["Aurora"],
        &["Aurora"],
        &["Sole"],
        &["Sole"],
    ]);
    for seed in 0..20 {
        let d = first_round_draw_apart(&pairs, seed).unwrap();
        assert_eq!(line_of(&d.layout, 7), line_of(&d.layout, 8));
        assert_eq!(d.meetings.len(), 1, "{:?}", d.meetings);
        assert_eq!(d.crossing, 2);
        let m = &d.meetings[0];
        assert_eq!(m.club, "Aurora");
        let (few, many) = if m.fixed.len() < m.moving.len() {
            (&m.fixed, &m.moving)
        } else {
            (&m.moving, &m.fixed)
        };
        assert_eq!((few.len(), many.len()), (2, 4));
    }
}

#[test]
fn the_sharings_are_drawn_uniformly() {
    // 4 pairs without clubs, 2 on the fixed line: 6 sharings, each about
    // 1 in 6 of 1,200 seeds.
    let pairs = field(&[&[], &[], &[], &[]]);
    let mut seen: BTreeMap<Vec<PairNo>, usize> = BTreeMap::new();
    for seed in 0..1200 {
        let d = first_round_draw_apart(&pairs, seed).unwrap();
        let mut fixed: Vec<PairNo> = d.layout.fixed.iter().flatten().copied().collect();
        fixed.sort_unstable();
        *seen.entry(fixed).or_default() += 1;
    }
    assert_eq!(seen.len(), 6, "{seen:?}");
    for (sharing, n) in &seen {
        assert!((140..=260).contains(n), "{sharing:?} drawn {n} times");
    }
}

#[test]
fn the_draw_refuses_what_the_plain_draw_refuses() {
    assert!(matches!(
        first_round_draw_apart(&field(&[&["A"], &["A"]]), 1),
        Err(MovementError::TooFewPairs { .. })
    ));
    let mut twice = field(&[&["A"], &["B"], &["C"]]);
    twice[2].pair = 1;
    assert!(first_round_draw_apart(&twice, 1).is_err());
}
