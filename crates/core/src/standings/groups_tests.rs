//! Standings and prizes with groups (RULES.md §13) on worked examples.

use super::*;
use crate::tournament_file::fixtures::{pair, simple_sheet};
use crate::tournament_file::{
    GroupFile, GroupPrizeFile, MovementKind, RoundFile, TableFile, TournamentFile,
};
use rust_decimal::Decimal;

fn d(s: &str) -> Decimal {
    s.parse().unwrap()
}

/// A table (group, table, ns, ew, ns MP, ew MP).
type T = (Option<&'static str>, u32, u32, u32, i64, i64);

fn round(number: u32, movement: MovementKind, tables: &[T]) -> RoundFile {
    RoundFile {
        number,
        movement: Some(movement),
        tables: tables
            .iter()
            .map(|&(group, table, ns, ew, a, b)| TableFile {
                table,
                group: group.map(str::to_string),
                ns,
                ew,
                sheet: Some(simple_sheet(a, b, 3)),
                adjusted: None,
            })
            .collect(),
        byes: Vec::new(),
    }
}

/// Eight pairs; round 1 over the whole field (1 v 2 1000–0, 3 v 4 500–0,
/// 5 v 6 0–1000, 7 v 8 1500–0); 7 and 8 withdraw before the cut; A = 1, 6,
/// 3, 4 and B = 2, 5; round 2 in groups (1 v 6 600–600, 3 v 4 0–1500; 2 v
/// 5 1500–0).
fn two_groups() -> TournamentFile {
    let mut f = TournamentFile::new(
        "Gironi",
        chrono::NaiveDate::from_ymd_opt(2026, 11, 20).unwrap(),
    );
    f.entry_fee = d("10.00");
    f.prize_share_percent = d("70");
    f.pairs = (1..=8).map(pair).collect();
    for p in &mut f.pairs[6..] {
        p.withdrawn_from_round = Some(2);
    }
    f.movements = Some(vec![MovementKind::Mitchell, MovementKind::DanishGroups]);
    f.groups = Some(vec![
        GroupFile {
            name: "A".into(),
            pairs: vec![1, 6, 3, 4],
        },
        GroupFile {
            name: "B".into(),
            pairs: vec![2, 5],
        },
    ]);
    f.rounds = vec![
        round(
            1,
            MovementKind::Mitchell,
            &[
                (None, 1, 1, 2, 1000, 0),
                (None, 2, 3, 4, 500, 0),
                (None, 3, 5, 6, 0, 1000),
                (None, 4, 7, 8, 1500, 0),
            ],
        ),
        round(
            2,
            MovementKind::DanishGroups,
            &[
                (Some("A"), 1, 1, 6, 600, 600),
                (Some("A"), 2, 3, 4, 0, 1500),
                (Some("B"), 3, 2, 5, 1500, 0),
            ],
        ),
    ];
    f
}

/// (place, pair, group, group place, VP) of a row.
type Placed<'a> = (u32, u32, Option<&'a str>, Option<u32>, i64);

/// Each row's [`Placed`].
fn places(s: &Standings) -> Vec<Placed<'_>> {
    s.rows
        .iter()
        .map(|r| (r.place, r.number, r.group.as_deref(), r.group_place, r.vp))
        .collect()
}

#[test]
fn groups_rank_group_by_group_and_places_run_on() {
    let s = compute_file(&two_groups(), Lang::En).unwrap();
    assert_eq!(
        places(&s),
        vec![
            // 1 and 6: tied on VP, MP difference and MP, 10–10 when they met.
            (1, 1, Some("A"), Some(1), 27),
            (1, 6, Some("A"), Some(1), 27),
            (3, 4, Some("A"), Some(3), 25),
            (4, 3, Some("A"), Some(4), 15),
            // 2 has more VP than 3, but B ranks below A.
            (5, 2, Some("B"), Some(1), 22),
            (6, 5, Some("B"), Some(2), 4),
            // Withdrawn before the cut: after the last group, by §5.
            (7, 7, None, None, 19),
            (8, 8, None, None, 1),
        ]
    );
    assert_eq!(s.row(3).unwrap().place, 4);
    // Without group prizes the payout (60/40 of the default… here 100) is
    // paid on the places above.
    assert_eq!(s.pool, d("56.00"));
    let paid: Vec<(u32, Decimal)> = s.prizes.iter().map(|p| (p.number, p.amount)).collect();
    assert_eq!(paid, vec![(1, d("28.00")), (6, d("28.00"))]);
}

#[test]
fn head_to_head_decides_two_tied_pairs_of_a_group() {
    let mut f = two_groups();
    // 1 beats 6 by 100 (11–9) in round 2; in round 1 1 v 2 450–100 (13–7)
    // and 5 v 6 0–550 (15–5): both end on 24 VP, 450 MP difference and
    // 1150 MP.
    f.rounds[0].tables[0].sheet = Some(simple_sheet(450, 100, 3));
    f.rounds[0].tables[2].sheet = Some(simple_sheet(0, 550, 3));
    f.rounds[1].tables[0].sheet = Some(simple_sheet(700, 600, 3));
    let s = compute_file(&f, Lang::En).unwrap();
    let top: Vec<_> = places(&s).into_iter().take(3).collect();
    assert_eq!(
        top,
        vec![
            (1, 4, Some("A"), Some(1), 25),
            (2, 1, Some("A"), Some(2), 24),
            (3, 6, Some("A"), Some(3), 24)
        ]
    );
    let tie = s.row(1).unwrap().tie_break.as_ref().unwrap();
    assert_eq!(
        (tie.other, tie.vp_for, tie.vp_against, tie.won),
        (6, 11, 9, true)
    );
}

#[test]
fn a_file_without_groups_has_no_group_fields() {
    let mut f = two_groups();
    f.groups = None;
    f.movements = None;
    for r in &mut f.rounds {
        r.movement = Some(MovementKind::Mitchell);
        for t in &mut r.tables {
            t.group = None;
        }
    }
    let s = compute_file(&f, Lang::En).unwrap();
    assert!(s
        .rows
        .iter()
        .all(|r| r.group.is_none() && r.group_place.is_none()));
    let json = s.to_cli_json();
    assert!(!json.contains("group"), "{json}");
}

#[test]
fn group_pools_round_down_and_give_the_cents_left_to_a_then_b() {
    let shares = [d("33.33"), d("33.33"), d("33.34")];
    assert_eq!(
        group_pools(d("100.00"), &shares),
        vec![d("33.33"), d("33.33"), d("33.34")]
    );
    // 3.333, 3.333, 3.334 → 3.33 each, one cent left: to A.
    assert_eq!(
        group_pools(d("10.00"), &shares),
        vec![d("3.34"), d("3.33"), d("3.33")]
    );
    // 0.035 each: two cents left, one to A, one to B.
    let halves = [d("25"), d("25"), d("25"), d("25")];
    assert_eq!(
        group_pools(d("0.14"), &halves),
        vec![d("0.04"), d("0.04"), d("0.03"), d("0.03")]
    );
    // A share of 0 pays nothing, not even a cent left over.
    assert_eq!(
        group_pools(d("0.05"), &[d("0"), d("50"), d("50")]),
        vec![d("0"), d("0.03"), d("0.02")]
    );
}

fn with_group_prizes(mut f: TournamentFile) -> TournamentFile {
    f.group_prizes = Some(vec![
        GroupPrizeFile {
            group: "A".into(),
            share_percent: d("60"),
            scheme: vec![d("50"), d("30"), d("20")],
        },
        GroupPrizeFile {
            group: "B".into(),
            share_percent: d("40"),
            scheme: vec![d("100")],
        },
    ]);
    f
}

fn prizes_of(s: &Standings) -> Vec<(u32, u32, Option<&str>, Decimal)> {
    s.prizes
        .iter()
        .map(|p| (p.number, p.place, p.group.as_deref(), p.amount))
        .collect()
}

#[test]
fn each_group_pays_its_share_by_its_own_scheme() {
    let s = compute_file(&with_group_prizes(two_groups()), Lang::En).unwrap();
    assert_eq!(s.pool, d("56.00"));
    // A: 33.60; places 1, 1 share 50 + 30 %, place 3 has 20 %, place 4
    // nothing. B: 22.40 to its first.
    assert_eq!(
        prizes_of(&s),
        vec![
            (1, 1, Some("A"), d("13.44")),
            (6, 1, Some("A"), d("13.44")),
            (4, 3, Some("A"), d("6.72")),
            (2, 5, Some("B"), d("22.40")),
        ]
    );
    assert!(s.scheme.is_empty());
}

#[test]
fn group_prizes_with_cents_left_over() {
    let mut f = with_group_prizes(two_groups());
    (f.entry_fee, f.prize_share_percent, f.guaranteed_pool) = (d("0"), d("0"), d("56.01"));
    let s = compute_file(&f, Lang::En).unwrap();
    // 33.606 → 33.60 and 22.404 → 22.40: the cent left goes to A (33.61);
    // inside A the odd cent goes to the better placed of the tie.
    assert_eq!(
        prizes_of(&s),
        vec![
            (1, 1, Some("A"), d("13.45")),
            (6, 1, Some("A"), d("13.44")),
            (4, 3, Some("A"), d("6.72")),
            (2, 5, Some("B"), d("22.40")),
        ]
    );
    let total: Decimal = s.prizes.iter().map(|p| p.amount).sum();
    assert_eq!(total, d("56.01"));
}

#[test]
fn a_scheme_longer_than_its_group_is_scaled() {
    let mut f = with_group_prizes(two_groups());
    f.group_prizes.as_mut().unwrap()[1].scheme = vec![d("50"), d("30"), d("20")];
    let s = compute_file(&f, Lang::En).unwrap();
    // B has 2 pairs: 50 and 30 scaled to 62.5 and 37.5 of 22.40.
    let b: Vec<_> = prizes_of(&s)
        .into_iter()
        .filter(|p| p.2 == Some("B"))
        .collect();
    assert_eq!(
        b,
        vec![(2, 5, Some("B"), d("14.00")), (5, 6, Some("B"), d("8.40"))]
    );
}

#[test]
fn the_cli_adds_group_and_group_place_to_rows_and_group_to_prizes() {
    let f = with_group_prizes(two_groups());
    let text = crate::tournament_file::to_json(&f).unwrap();
    let (code, out, err) = run_cli(&text, Lang::En);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v["standings"][4],
        serde_json::json!({"place": 5, "pair": 2, "vp": 22, "mp_diff": 500, "mp": 1500,
                           "played": 2, "byes": 0, "group": "B", "group_place": 1})
    );
    assert_eq!(v["standings"][6]["group"], serde_json::Value::Null);
    assert!(v["standings"][6].get("group").is_none());
    assert_eq!(
        v["prizes"][3],
        serde_json::json!({"pair": 2, "place": 5, "amount": "22.40", "group": "B"})
    );
}
