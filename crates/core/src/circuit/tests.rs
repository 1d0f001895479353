//! Worked examples of RULES.md §11 and the circuit file of FORMAT.md.

use super::*;
use crate::i18n::{try_catalog, Lang};
use crate::tournament_file::fixtures::{sample_tournament, simple_sheet};
use crate::tournament_file::{
    to_json as file_to_json, PairFile, Player, RoundFile, Status, TableFile, TournamentFile,
};
use rust_decimal::Decimal;

// ---------------------------------------------------------------- helpers

fn d(text: &str) -> Decimal {
    text.parse().unwrap()
}

fn sp(key: &'static str) -> StagePlayer<&'static str> {
    StagePlayer {
        key,
        surname: key.to_string(),
        name: "X".to_string(),
        card: None,
    }
}

/// A result of pair `pair` (players `a`, `b`) at `place` with `vp` and
/// `mp` difference.
fn res(
    pair: u32,
    place: u32,
    vp: i64,
    mp: i64,
    a: &'static str,
    b: &'static str,
) -> StageResult<&'static str> {
    StageResult {
        pair_number: pair,
        place,
        vp,
        mp_diff: mp,
        players: [sp(a), sp(b)],
    }
}

fn stage(entries: u32, results: Vec<StageResult<&'static str>>) -> Stage<&'static str> {
    Stage {
        title: "tappa".to_string(),
        finished: true,
        entries,
        results,
    }
}

fn table(points: &[&str]) -> PointsMethod {
    PointsMethod::Table {
        table: points.iter().map(|p| d(p)).collect(),
    }
}

fn spec(points: PointsMethod) -> CircuitSpec {
    CircuitSpec::new("Circuito", points)
}

/// (player key, place, points, mp_diff, attendances, counted) of each row.
type Line = (&'static str, Option<u32>, Decimal, i64, u32, Vec<u32>);

fn lines(s: &CircuitStandings<&'static str>) -> Vec<Line> {
    s.rows
        .iter()
        .map(|r| {
            let key = match &r.entrant {
                Entrant::Player(k) => *k,
                Entrant::Pair(a, _) => *a,
            };
            (
                key,
                r.place,
                r.points,
                r.mp_diff,
                r.attendances,
                r.counted.clone(),
            )
        })
        .collect()
}

fn points_of(s: &CircuitStandings<&'static str>, key: &'static str) -> Decimal {
    s.row(&Entrant::Player(key)).unwrap().points
}

// ---------------------------------------------------------------- points

#[test]
fn placing_points_follow_the_formula_with_its_defaults() {
    let m = PointsMethod::placing();
    let got: Vec<_> = (1..=4).map(|p| place_points(&m, 10, p).unwrap()).collect();
    // first = entries (10), step 5, min 0.
    assert_eq!(got, vec![d("10"), d("5"), d("0"), d("0")]);

    let m = PointsMethod::Placing {
        first: First::Fixed(d("50")),
        step: d("7.5"),
        min: d("20"),
    };
    let got: Vec<_> = (1..=6).map(|p| place_points(&m, 10, p).unwrap()).collect();
    assert_eq!(
        got,
        vec![d("50"), d("42.5"), d("35"), d("27.5"), d("20"), d("20")]
    );
}

#[test]
fn table_points_are_zero_beyond_the_list_and_vp_is_the_stage_vp() {
    let m = table(&["25", "18", "15"]);
    assert_eq!(place_points(&m, 8, 3), Some(d("15")));
    assert_eq!(place_points(&m, 8, 4), Some(Decimal::ZERO));
    assert_eq!(place_points(&PointsMethod::Vp, 8, 1), None);

    let st = stage(
        3,
        vec![
            res(1, 1, 52, 900, "a", "b"),
            res(2, 2, 40, 100, "c", "d"),
            res(3, 3, -2, -1000, "e", "f"),
        ],
    );
    assert_eq!(
        stage_points(&PointsMethod::Vp, &st),
        vec![d("52"), d("40"), d("-2")]
    );
}

#[test]
fn shared_places_get_the_mean_of_the_places_they_cover() {
    let m = table(&["25", "18", "15", "12", "10"]);
    // Places 1, 2, 2, 4, 5: the two second share (18 + 15) / 2.
    let st = stage(
        5,
        vec![
            res(1, 1, 50, 0, "a", "b"),
            res(2, 2, 40, 0, "c", "d"),
            res(3, 2, 40, 0, "e", "f"),
            res(4, 4, 30, 0, "g", "h"),
            res(5, 5, 20, 0, "i", "j"),
        ],
    );
    assert_eq!(
        stage_points(&m, &st),
        vec![d("25"), d("16.5"), d("16.5"), d("12"), d("10")]
    );
    // Three sharing the first place: (25 + 18 + 15) / 3 = 19.333… → 19.33.
    let st = stage(
        3,
        vec![
            res(1, 1, 50, 0, "a", "b"),
            res(2, 1, 50, 0, "c", "d"),
            res(3, 1, 50, 0, "e", "f"),
        ],
    );
    assert_eq!(stage_points(&m, &st), vec![d("19.33"); 3]);
    // Two sharing the last place of a placing circuit: (5 + 0) / 2.
    let st = stage(
        3,
        vec![
            res(1, 1, 50, 0, "a", "b"),
            res(2, 2, 40, 0, "c", "d"),
            res(3, 2, 40, 0, "e", "f"),
        ],
    );
    assert_eq!(
        stage_points(&PointsMethod::placing(), &st),
        vec![d("3"), d("0"), d("0")]
    );
    // first = entries 3: places 3, max(0, −2), max(0, −7) → 3, 0, 0.
}

#[test]
fn a_shared_mean_is_rounded_half_up() {
    // (25 + 18.01) / 2 = 21.505 → 21.51 (banker's rounding would give 21.50).
    assert_eq!(
        shared_points(&table(&["25", "18.01"]), 2, 1, 2),
        Some(d("21.51"))
    );
    // (10 + 10 + 10.01) / 3 = 10.00333… → 10.00.
    assert_eq!(
        shared_points(&table(&["10", "10", "10.01"]), 3, 1, 3),
        Some(d("10.00"))
    );
    // (10.01 + 10.02 + 10.02) / 3 = 10.01666… → 10.02.
    assert_eq!(
        shared_points(&table(&["10.01", "10.02", "10.02"]), 3, 1, 3),
        Some(d("10.02"))
    );
}

// ---------------------------------------------------------------- ranking

#[test]
fn best_of_counts_the_highest_stages() {
    let mut c = spec(table(&["30", "20", "10"]));
    c.best_of = Some(3);
    // A: 1st, 3rd, 2nd, 1st → 30, 10, 20, 30; best 3: stages 1, 3, 4.
    let stages = vec![
        stage(
            3,
            vec![res(1, 1, 0, 100, "a", "z1"), res(2, 2, 0, 0, "b", "z2")],
        ),
        stage(
            3,
            vec![res(1, 3, 0, -50, "a", "z1"), res(2, 1, 0, 0, "b", "z2")],
        ),
        stage(
            3,
            vec![res(1, 2, 0, 10, "a", "z1"), res(2, 1, 0, 0, "b", "z2")],
        ),
        stage(3, vec![res(1, 1, 0, 200, "a", "z1")]),
    ];
    let s = compute(&c, &stages);
    let a = s.row(&Entrant::Player("a")).unwrap();
    assert_eq!(a.points, d("80"));
    assert_eq!(a.counted, vec![1, 3, 4]);
    assert_eq!(a.mp_diff, 310); // the 3rd place (−50) does not count
    assert_eq!(a.attendances, 4);
    assert_eq!(a.best_stage, d("30"));
    let cards: Vec<_> = a
        .stages
        .iter()
        .map(|s| s.as_ref().map(|s| s.counted))
        .collect();
    assert_eq!(cards, vec![Some(true), Some(false), Some(true), Some(true)]);
    // Without best_of everything counts.
    c.best_of = None;
    let s = compute(&c, &stages);
    assert_eq!(points_of(&s, "a"), d("90"));
}

#[test]
fn best_of_between_equal_points_takes_the_higher_mp_difference_then_the_earlier_stage() {
    let mut c = spec(table(&["30"]));
    c.best_of = Some(1);
    // Three wins: MP difference 100, 300, 300. The 2nd counts (300, earlier).
    let stages = vec![
        stage(2, vec![res(1, 1, 0, 100, "a", "z1")]),
        stage(2, vec![res(1, 1, 0, 300, "a", "z1")]),
        stage(2, vec![res(1, 1, 0, 300, "a", "z1")]),
    ];
    let s = compute(&c, &stages);
    let a = s.row(&Entrant::Player("a")).unwrap();
    assert_eq!((a.points, a.mp_diff), (d("30"), 300));
    assert_eq!(a.counted, vec![2]);
}

#[test]
fn a_season_of_three_stages_with_best_of_and_shared_places() {
    let mut c = spec(table(&["30", "20", "15", "10", "5"]));
    c.best_of = Some(2);
    let stages = vec![
        stage(
            5,
            vec![
                res(1, 1, 0, 100, "best", "p"),  // 30
                res(2, 2, 0, 50, "moremp", "q"), // 20
                res(3, 3, 0, 0, "att", "r"),     // 15
                res(4, 4, 0, 0, "tie1", "tie2"), // 10
            ],
        ),
        stage(
            5,
            vec![
                res(1, 2, 0, 0, "moremp", "q"),   // (20 + 15) / 2 = 17.5
                res(2, 2, 0, -50, "lessmp", "s"), // 17.5
                res(3, 4, 0, 0, "att", "r"),      // (10 + 5) / 2 = 7.5
                res(4, 4, 0, 0, "tie1", "tie2"),  // 7.5
            ],
        ),
        stage(
            5,
            vec![
                res(1, 3, 0, 0, "att", "r"),      // 15
                res(2, 1, 0, 0, "hi", "lo"),      // (30 + 20) / 2 = 25
                res(3, 1, 0, -50, "lessmp", "s"), // 25
            ],
        ),
    ];
    let s = compute(&c, &stages);
    let got: Vec<_> = lines(&s)
        .into_iter()
        .map(|(k, place, points, mp, att, _)| (k, place, points, mp, att))
        .collect();
    assert_eq!(
        got,
        vec![
            ("lessmp", Some(1), d("42.5"), -100, 2),
            ("s", Some(1), d("42.5"), -100, 2),
            ("moremp", Some(3), d("37.5"), 50, 2),
            ("q", Some(3), d("37.5"), 50, 2),
            // 30 each: the MP difference decides before attendances.
            ("best", Some(5), d("30"), 100, 1),
            ("p", Some(5), d("30"), 100, 1),
            // Best 2 of 3: 15 + 15, the 7.5 does not count.
            ("att", Some(7), d("30"), 0, 3),
            ("r", Some(7), d("30"), 0, 3),
            ("hi", Some(9), d("25"), 0, 1),
            ("lo", Some(9), d("25"), 0, 1),
            ("tie1", Some(11), d("17.5"), 0, 2),
            ("tie2", Some(11), d("17.5"), 0, 2),
        ]
    );
    assert_eq!(s.row(&Entrant::Player("att")).unwrap().counted, vec![1, 3]);
}

#[test]
fn each_tie_break_in_turn() {
    let c = spec(table(&["30", "20", "10", "0"]));
    // Equal points; MP difference decides.
    let s = compute(
        &c,
        &[stage(
            4,
            vec![res(1, 2, 0, 10, "x", "x2"), res(2, 2, 0, 90, "y", "y2")],
        )],
    );
    // Both at place 2 of the stage: (20 + 10) / 2 = 15 each; y has more MP.
    assert_eq!(
        lines(&s)
            .iter()
            .map(|l| (l.0, l.1, l.3))
            .collect::<Vec<_>>(),
        vec![
            ("y", Some(1), 90),
            ("y2", Some(1), 90),
            ("x", Some(3), 10),
            ("x2", Some(3), 10)
        ]
    );

    // Equal points, MP difference and attendances: the best stage decides.
    let s = compute(
        &c,
        &[
            stage(
                4,
                vec![res(1, 2, 0, 0, "two", "t2"), res(2, 1, 0, 0, "one", "o2")],
            ),
            stage(
                4,
                vec![res(1, 2, 0, 0, "two", "t2"), res(2, 3, 0, 0, "one", "o2")],
            ),
        ],
    );
    // two: 20 + 20; one: 30 + 10 → 40 each, MP 0, 2 attendances each;
    // one's best stage (30) beats two's (20).
    let order: Vec<_> = lines(&s).iter().map(|l| (l.0, l.1)).collect();
    assert_eq!(
        order,
        vec![
            ("o2", Some(1)),
            ("one", Some(1)),
            ("t2", Some(3)),
            ("two", Some(3))
        ]
    );

    // Equal points, MP difference and attendances: the best stage again.
    let s = compute(
        &c,
        &[
            stage(4, vec![res(1, 1, 0, 0, "a", "a2")]),
            stage(4, vec![res(1, 2, 0, 0, "b", "b2")]),
            stage(
                4,
                vec![res(1, 3, 0, 0, "b", "b2"), res(2, 4, 0, 0, "a", "a2")],
            ),
        ],
    );
    // a: 30 + 0 in 2 stages; b: 20 + 10 in 2 stages → equal attendances;
    // best stage: a (30) ahead.
    assert_eq!(s.rows[0].entrant, Entrant::Player("a"));
    let s = compute(
        &c,
        &[
            stage(4, vec![res(1, 1, 0, 0, "a", "a2")]),
            stage(4, vec![res(1, 2, 0, 0, "b", "b2")]),
            stage(
                4,
                vec![res(1, 3, 0, 0, "b", "b2"), res(2, 4, 0, 0, "b3", "b4")],
            ),
            stage(4, vec![res(1, 4, 0, 0, "b", "b2")]),
        ],
    );
    // Equal points and MP difference, different attendances.
    // a: 30 in 1 stage; b: 20 + 10 + 0 = 30 in 3 stages → b ahead although a
    // has the highest single stage.
    let order: Vec<_> = lines(&s).iter().map(|l| (l.0, l.1, l.4)).collect();
    assert_eq!(
        &order[..4],
        &[
            ("b", Some(1), 3),
            ("b2", Some(1), 3),
            ("a", Some(3), 1),
            ("a2", Some(3), 1)
        ]
    );

    // Everything equal: a shared place, listed by name.
    let s = compute(&c, &[stage(4, vec![res(1, 1, 0, 0, "zeta", "alfa")])]);
    assert_eq!(
        lines(&s).iter().map(|l| (l.0, l.1)).collect::<Vec<_>>(),
        vec![("alfa", Some(1)), ("zeta", Some(1))]
    );
}

#[test]
fn tied_entrants_are_listed_by_name_not_by_key() {
    let who = |key: u32, surname: &str, name: &str| StagePlayer {
        key,
        surname: surname.to_string(),
        name: name.to_string(),
        card: None,
    };
    let st = Stage {
        title: "T".to_string(),
        finished: true,
        entries: 1,
        results: vec![StageResult {
            pair_number: 1,
            place: 1,
            vp: 20,
            mp_diff: 0,
            players: [who(1, "Zanetti", "Ugo"), who(2, "Àlberti", "Eva")],
        }],
    };
    let s = compute(&spec(PointsMethod::Vp), std::slice::from_ref(&st));
    let shown: Vec<_> = s
        .rows
        .iter()
        .map(|r| (r.place, r.players[0].surname.as_str()))
        .collect();
    assert_eq!(shown, vec![(Some(1), "Àlberti"), (Some(1), "Zanetti")]);
    // A pair shows its players by name too.
    let mut c = spec(PointsMethod::Vp);
    c.rank = RankBy::Pair;
    let s = compute(&c, &[st]);
    assert_eq!(s.rows[0].entrant, Entrant::Pair(1, 2));
    let names: Vec<_> = s.rows[0].players.iter().map(|p| p.key).collect();
    assert_eq!(names, vec![2, 1]);
}

#[test]
fn minimum_attendance_lists_the_unclassified_last_without_a_place() {
    let mut c = spec(table(&["30", "20", "10"]));
    c.min_attendances = Some(2);
    let s = compute(
        &c,
        &[
            stage(
                3,
                vec![res(1, 1, 0, 0, "once", "o2"), res(2, 2, 0, 0, "a", "b")],
            ),
            stage(
                3,
                vec![res(1, 3, 0, 0, "a", "b"), res(2, 1, 0, 0, "c", "d")],
            ),
            stage(3, vec![res(1, 3, 0, 0, "c", "d")]),
        ],
    );
    let got: Vec<_> = lines(&s).iter().map(|l| (l.0, l.1, l.2)).collect();
    assert_eq!(
        got,
        vec![
            ("c", Some(1), d("40")),
            ("d", Some(1), d("40")),
            ("a", Some(3), d("30")),
            ("b", Some(3), d("30")),
            // Not classified (one attendance), in the same order: 30 first.
            ("o2", None, d("30")),
            ("once", None, d("30")),
        ]
    );
}

#[test]
fn pairs_are_the_same_entrant_with_players_swapped_or_another_number() {
    let mut c = spec(table(&["10", "5"]));
    c.rank = RankBy::Pair;
    let s = compute(
        &c,
        &[
            stage(
                2,
                vec![
                    res(3, 1, 0, 100, "rossi", "bianchi"),
                    res(4, 2, 0, 0, "x", "y"),
                ],
            ),
            stage(
                2,
                vec![
                    res(7, 2, 0, -20, "bianchi", "rossi"),
                    res(1, 1, 0, 0, "y", "z"),
                ],
            ),
        ],
    );
    assert_eq!(s.rows.len(), 3);
    let r = s.row(&Entrant::pair("rossi", "bianchi")).unwrap();
    assert_eq!(r.entrant, Entrant::Pair("bianchi", "rossi"));
    assert_eq!((r.points, r.mp_diff, r.attendances), (d("15"), 80, 2));
    assert_eq!(
        r.stages
            .iter()
            .map(|s| s.as_ref().map(|s| s.pair_number))
            .collect::<Vec<_>>(),
        vec![Some(3), Some(7)]
    );
    // Shown sorted by name.
    assert_eq!(
        r.players.iter().map(|p| p.key).collect::<Vec<_>>(),
        vec!["bianchi", "rossi"]
    );
    // A player's season card: every pair they played in.
    assert_eq!(s.rows_of(&"y").count(), 2);
}

#[test]
fn an_unfinished_stage_is_provisional_and_counts_nowhere() {
    let mut c = spec(table(&["10", "5"]));
    c.finals = Some(Finals {
        stage_top_percent: Some(d("100")),
        overall_top_percent: None,
        overall_min_attendances: 0,
    });
    let mut running = stage(2, vec![res(1, 1, 0, 0, "new", "a")]);
    running.finished = false;
    let s = compute(
        &c,
        &[
            stage(2, vec![res(1, 1, 0, 0, "a", "b")]),
            running,
            stage(2, vec![res(1, 2, 0, 0, "a", "b")]),
        ],
    );
    assert_eq!(s.provisional, vec![2]);
    let a = s.row(&Entrant::Player("a")).unwrap();
    assert_eq!((a.points, a.attendances), (d("15"), 2));
    assert_eq!(a.counted, vec![1, 3]);
    assert!(a.stages[1].is_none());
    assert!(s.row(&Entrant::Player("new")).is_none());
    assert!(s.finalist(&Entrant::Player("new")).is_none());
}

#[test]
fn a_person_twice_in_one_stage_counts_once_with_the_better_result() {
    let c = spec(table(&["10", "5", "1"]));
    let s = compute(
        &c,
        &[stage(
            3,
            vec![res(1, 3, 0, 0, "twin", "a"), res(2, 1, 0, 0, "b", "twin")],
        )],
    );
    let t = s.row(&Entrant::Player("twin")).unwrap();
    assert_eq!((t.points, t.attendances), (d("10"), 1));
    assert_eq!(t.stages[0].as_ref().map(|s| s.pair_number), Some(2));
}

// ---------------------------------------------------------------- finalists

#[test]
fn finalists_include_ties_at_the_cut_off_stages_before_overall() {
    let mut c = spec(table(&["30", "20", "10", "5", "1"]));
    c.finals = Some(Finals {
        // 5 entries × 30 % = 1.5 → places 1 and 2 (the shared 2nd too).
        stage_top_percent: Some(d("30")),
        // Of those with 2 attendances: 25 % of 6 = 1.5 → places 1 and 2.
        overall_top_percent: Some(d("25")),
        overall_min_attendances: 2,
    });
    c.min_attendances = Some(1);
    let stages = vec![
        stage(
            5,
            vec![
                res(1, 1, 0, 0, "a", "b"),
                res(2, 2, 0, 0, "c", "d"),
                res(3, 2, 0, 0, "e", "f"),
                res(4, 4, 0, 0, "g", "h"),
                res(5, 5, 0, 0, "i", "j"),
            ],
        ),
        stage(
            5,
            vec![
                res(1, 1, 0, 0, "k", "l"),
                res(2, 3, 0, 0, "g", "h"),
                res(3, 4, 0, 0, "i", "j"),
                res(4, 5, 0, 0, "a", "b"),
            ],
        ),
    ];
    let s = compute(&c, &stages);
    let got: Vec<_> = s
        .finalists
        .iter()
        .map(|f| match &f.entrant {
            Entrant::Player(k) => (*k, f.reason.to_string()),
            Entrant::Pair(..) => unreachable!(),
        })
        .collect();
    // Ranking: a, b 31; k, l 30; g, h 15; c, d, e, f 15 (one attendance: MP
    // equal, attendances decide → g, h first); i, j 6.
    // Overall pool (2 attendances): a, b, g, h, i, j → places 1, 1, 3, 3, 5, 5;
    // cut-off 2: a and b (already stage 1).
    assert_eq!(
        got,
        vec![
            ("a", "stage 1, place 1".to_string()),
            ("b", "stage 1, place 1".to_string()),
            ("k", "stage 2, place 1".to_string()),
            ("l", "stage 2, place 1".to_string()),
            ("c", "stage 1, place 2".to_string()),
            ("d", "stage 1, place 2".to_string()),
            ("e", "stage 1, place 2".to_string()),
            ("f", "stage 1, place 2".to_string()),
        ]
    );
}

#[test]
fn overall_finalists_are_ranked_among_those_with_enough_attendances() {
    let mut c = spec(table(&["30", "20", "10", "5"]));
    c.finals = Some(Finals {
        stage_top_percent: None,
        // 50 % of the pool.
        overall_top_percent: Some(d("50")),
        overall_min_attendances: 2,
    });
    let stages = vec![
        stage(
            4,
            vec![
                res(1, 1, 0, 0, "solo", "s2"),
                res(2, 2, 0, 0, "a", "b"),
                res(3, 3, 0, 0, "c", "e"),
                res(4, 4, 0, 9, "f", "g"),
            ],
        ),
        stage(
            4,
            vec![
                res(1, 2, 0, 0, "a", "b"),
                res(2, 3, 0, 0, "c", "f"),
                res(3, 4, 0, 0, "e", "g"),
            ],
        ),
    ];
    // a, b 40 (2); solo, s2 30 (1); c 20 (2); e 15 (2); f 15 (2, MP 9); g 10.
    // Pool: a, b, c, f, e, g → 1, 1, 3, 4, 5, 6; cut-off ceil(3) = 3.
    let s = compute(&c, &stages);
    let got: Vec<_> = s
        .finalists
        .iter()
        .map(|f| (f.entrant.clone(), f.reason))
        .collect();
    assert_eq!(
        got,
        vec![
            (Entrant::Player("a"), FinalistReason::Overall { place: 1 }),
            (Entrant::Player("b"), FinalistReason::Overall { place: 1 }),
            (Entrant::Player("c"), FinalistReason::Overall { place: 3 }),
        ]
    );
    // c is 5th in the circuit (behind solo and s2), 3rd in the pool.
    assert_eq!(s.row(&Entrant::Player("c")).unwrap().place, Some(5));
}

#[test]
fn cut_off_is_the_ceiling() {
    assert_eq!(cut_off(d("20"), 10), 2);
    assert_eq!(cut_off(d("15"), 10), 2);
    assert_eq!(cut_off(d("10"), 10), 1);
    assert_eq!(cut_off(d("12.5"), 7), 1);
    assert_eq!(cut_off(d("0"), 10), 0);
    assert_eq!(cut_off(d("100"), 7), 7);
}

// ---------------------------------------------------------------- identity

#[test]
fn names_compare_without_case_accents_and_extra_spaces() {
    assert_eq!(
        normalize_name("Rossi", "Marìa"),
        normalize_name("ROSSI ", "  MARIA")
    );
    assert_eq!(
        normalize_name("De  Luca", "Niccolò"),
        normalize_name("de luca", "NICCOLO")
    );
    assert_eq!(
        normalize_name("Çelik", "Françoise"),
        normalize_name("celik", "francoise")
    );
    // A decomposed accent (i + U+0300) and a typographic apostrophe.
    assert_eq!(
        normalize_name("D\u{2019}Angelo", "Mari\u{0300}a"),
        normalize_name("d'angelo", "maria")
    );
    assert_eq!(
        normalize_name("Œuvray", "Ștefan"),
        normalize_name("oeuvray", "ștefan")
    );
    // Surname and name stay apart.
    assert_ne!(
        normalize_name("Rossi", "Maria Luisa"),
        normalize_name("Rossi Maria", "Luisa")
    );
    assert_ne!(
        normalize_name("Rossi", "Maria"),
        normalize_name("Rossi", "Mario")
    );
}

#[test]
fn cards_compare_trimmed_and_case_insensitive() {
    assert_eq!(normalize_card(" ab123 "), normalize_card("AB123"));
    assert_eq!(normalize_card("   "), None);
    let a = PersonName::new("Rossi", "Maria", Some("AB123"));
    let b = PersonName::new("Rossi", "Marìa", Some("ab123 "));
    let c = PersonName::new("Rossi", "Maria", Some("CD456"));
    let n = PersonName::new("ROSSI", "MARIA", None);
    let typo = PersonName::new("Rosi", "Maria", Some("AB123"));
    assert!(same_person(&a, &b));
    assert!(!same_person(&a, &c)); // both carry a card: the cards decide
    assert!(same_person(&a, &typo)); // same card, whatever the name
    assert!(same_person(&a, &n) && same_person(&c, &n)); // the rule is not transitive
    assert!(same_person(
        &n,
        &PersonName::new("rossi", "maria", Some(""))
    ));
}

#[test]
fn the_resolver_joins_a_card_less_entry_to_the_only_card_holder_with_its_name() {
    let mut r = Resolver::new();
    let carded = PersonName::new("Rossi", "Maria", Some("AB123"));
    let bare = PersonName::new("ROSSI", "Marìa", None);
    r.observe(&bare);
    r.observe(&carded);
    assert_eq!(r.key(&bare), PersonKey::Card("ab123".to_string()));
    assert_eq!(r.key(&carded), r.key(&bare));
    // A name nobody carries a card with: a person of its own.
    let other = PersonName::new("Verdi", "Anna", None);
    assert_eq!(
        r.key(&other),
        PersonKey::Name(normalize_name("verdi", "anna"))
    );
}

#[test]
fn two_card_holders_with_one_name_stay_two_and_the_card_less_one_a_third() {
    let mut r = Resolver::new();
    let a = PersonName::new("Rossi", "Maria", Some("AB123"));
    let b = PersonName::new("Rossi", "Maria", Some("CD456"));
    let bare = PersonName::new("Rossi", "Maria", None);
    for p in [&a, &bare, &b] {
        r.observe(p);
    }
    let keys = [r.key(&a), r.key(&b), r.key(&bare)];
    assert_ne!(keys[0], keys[1]);
    assert_ne!(keys[0], keys[2]);
    assert_ne!(keys[1], keys[2]);
    assert_eq!(keys[2], PersonKey::Name(normalize_name("rossi", "maria")));
    // The same entries observed in another order give the same keys.
    let mut again = Resolver::new();
    for p in [&b, &a, &bare] {
        again.observe(p);
    }
    assert_eq!([again.key(&a), again.key(&b), again.key(&bare)], keys);
}

// ---------------------------------------------------------------- the file

const EXAMPLE: &str = r#"{
  "format": "burraco-td/circuit@1",
  "name": "Circuito d'inverno 2026",
  "rank": "player",
  "points": {"method": "placing", "first": "entries", "step": 5, "min": 0},
  "best_of": 3,
  "min_attendances": 2,
  "finals": {"stage_top_percent": 20, "overall_top_percent": 15, "overall_min_attendances": 3}
}"#;

#[test]
fn the_format_md_example_reads_and_writes_back() {
    let spec = parse(EXAMPLE).unwrap();
    assert_eq!(spec.name, "Circuito d'inverno 2026");
    assert_eq!(spec.rank, RankBy::Player);
    assert_eq!(spec.points, PointsMethod::placing());
    assert_eq!((spec.best_of, spec.min_attendances), (Some(3), Some(2)));
    let finals = spec.finals.clone().unwrap();
    assert_eq!(finals.stage_top_percent, Some(d("20")));
    assert_eq!(finals.overall_top_percent, Some(d("15")));
    assert_eq!(finals.overall_min_attendances, 3);
    let text = to_json(&spec).unwrap();
    assert_eq!(parse(&text).unwrap(), spec);
    assert_eq!(to_json(&parse(&text).unwrap()).unwrap(), text);
    // Numbers are written as JSON numbers, as FORMAT.md shows them.
    assert!(text.contains(r#""step": 5"#), "{text}");
    assert!(text.contains(r#""first": "entries""#), "{text}");
}

#[test]
fn defaults_and_the_other_methods_read() {
    let s =
        parse(r#"{"format":"burraco-td/circuit@1","name":"C","points":{"method":"vp"}}"#).unwrap();
    assert_eq!(s.rank, RankBy::Player);
    assert_eq!(s.points, PointsMethod::Vp);
    assert_eq!((s.best_of, s.min_attendances, s.finals), (None, None, None));

    let s = parse(
        r#"{"format":"burraco-td/circuit@1","name":"C","rank":"pair","season":"2026/27",
            "points":{"method":"table","table":[25, 18.5, "15"]}}"#,
    )
    .unwrap();
    assert_eq!(s.rank, RankBy::Pair);
    assert_eq!(s.season.as_deref(), Some("2026/27"));
    assert_eq!(s.points, table(&["25", "18.5", "15"]));
    let text = to_json(&s).unwrap();
    assert!(text.contains("18.5"), "{text}");
    assert_eq!(parse(&text).unwrap(), s);

    let s = parse(
        r#"{"format":"burraco-td/circuit@1","name":"C","points":{"method":"placing","first":40}}"#,
    )
    .unwrap();
    assert_eq!(
        s.points,
        PointsMethod::Placing {
            first: First::Fixed(d("40")),
            step: d("5"),
            min: d("0")
        }
    );
}

fn problems(text: &str) -> Vec<(String, &'static str)> {
    match parse(text) {
        Ok(_) => Vec::new(),
        Err(p) => p.iter().map(|p| (p.path.clone(), p.code.code())).collect(),
    }
}

#[test]
fn problems_name_the_field_and_have_stable_codes() {
    let head = r#""format":"burraco-td/circuit@1","name":"C""#;
    let case = |rest: &str| problems(&format!("{{{head},{rest}}}"));
    assert_eq!(
        case(r#""points":{"method":"vp"},"best_of":0,"min_attendances":0"#),
        vec![
            ("best_of".to_string(), "not_positive"),
            ("min_attendances".to_string(), "not_positive")
        ]
    );
    assert_eq!(
        case(r#""points":{"method":"table","table":[]}"#),
        vec![("points.table".to_string(), "table_empty")]
    );
    assert_eq!(
        case(r#""points":{"method":"table","table":[25,-1,1.005]}"#),
        vec![
            ("points.table[1]".to_string(), "points_negative"),
            ("points.table[2]".to_string(), "too_precise")
        ]
    );
    assert_eq!(
        case(r#""points":{"method":"placing","first":0,"step":100001}"#),
        vec![
            ("points.first".to_string(), "not_positive"),
            ("points.step".to_string(), "points_too_large")
        ]
    );
    assert_eq!(
        case(
            r#""points":{"method":"vp"},"finals":{"stage_top_percent":101,"overall_top_percent":-5}"#
        ),
        vec![
            (
                "finals.stage_top_percent".to_string(),
                "percent_out_of_range"
            ),
            (
                "finals.overall_top_percent".to_string(),
                "percent_out_of_range"
            )
        ]
    );
    assert_eq!(
        case(r#""points":{"method":"vp"},"finals":{"overall_min_attendances":2}"#),
        vec![("finals".to_string(), "finals_empty")]
    );
    assert_eq!(
        case(r#""points":{"method":"elo"}"#),
        vec![("points.method".to_string(), "invalid_field")]
    );
    assert_eq!(
        case(r#""points":{"method":"placing","first":"players"}"#),
        vec![("points.first".to_string(), "invalid_field")]
    );
    assert_eq!(
        case(r#""points":{"method":"table"}"#),
        vec![("points.table".to_string(), "invalid_field")]
    );
    assert_eq!(
        case(r#""points":{"step":5}"#),
        vec![("points.method".to_string(), "invalid_field")]
    );
    assert_eq!(
        case(r#""points":{"method":"placing","step":"five"}"#),
        vec![("points.step".to_string(), "invalid_field")]
    );
    assert_eq!(
        case(r#""rank":"team","points":{"method":"vp"}"#),
        vec![("rank".to_string(), "invalid_field")]
    );
    assert_eq!(
        case(r#""season":"x""#),
        vec![("points".to_string(), "invalid_field")]
    );
    assert_eq!(
        problems(r#"{"format":"burraco-td/tournament@1","name":"C","points":{"method":"vp"}}"#),
        vec![("format".to_string(), "invalid_field")]
    );
    assert_eq!(
        problems(r#"{"format":"burraco-td/circuit@1","name":" ","points":{"method":"vp"}}"#),
        vec![("name".to_string(), "name_empty")]
    );
    assert_eq!(problems("{"), vec![(".".to_string(), "invalid_json")]);
}

#[test]
fn every_problem_code_has_a_message_in_both_languages() {
    for lang in Lang::ALL {
        let catalog = try_catalog(lang).unwrap();
        for code in ProblemCode::ALL {
            assert!(
                catalog.get(&code.catalog_key()).is_some(),
                "{} missing in {lang}",
                code.catalog_key()
            );
        }
        for key in ["circuit.cli.invalid_circuit", "circuit.cli.in_file"] {
            assert!(catalog.get(key).is_some(), "{key} missing in {lang}");
        }
    }
}

// ---------------------------------------------------------------- files and CLI

type Who = (&'static str, &'static str, Option<&'static str>);

fn player(w: Who) -> Player {
    Player {
        surname: w.0.to_string(),
        name: w.1.to_string(),
        card: w.2.map(str::to_string),
        club: None,
    }
}

/// A one-round tournament: `pairs` numbered 1…, `tables` (ns, ew, ns MP,
/// ew MP), 3 hands.
fn tournament(
    name: &str,
    pairs: &[(Who, Who)],
    tables: &[(u32, u32, i64, i64)],
    status: Status,
) -> TournamentFile {
    let mut f = TournamentFile::new(name, chrono::NaiveDate::from_ymd_opt(2026, 1, 9).unwrap());
    f.pairs = pairs
        .iter()
        .enumerate()
        .map(|(i, (a, b))| PairFile {
            number: u32::try_from(i + 1).unwrap(),
            players: vec![player(*a), player(*b)],
            checked_in: Some(true),
            withdrawn_from_round: None,
            no_show: false,
        })
        .collect();
    f.rounds.push(RoundFile {
        number: 1,
        movement: None,
        tables: tables
            .iter()
            .enumerate()
            .map(|(t, &(ns, ew, a, b))| TableFile {
                group: None,
                table: u32::try_from(t + 1).unwrap(),
                ns,
                ew,
                sheet: Some(simple_sheet(a, b, 3)),
                adjusted: None,
            })
            .collect(),
        byes: Vec::new(),
    });
    f.status = Some(status);
    f
}

const ROSSI: Who = ("Rossi", "Maria", Some("AB123"));
const ROSSI_BARE: Who = ("ROSSI ", " Marìa", None);
const BIANCHI: Who = ("Bianchi", "Luca", None);
const VERDI: Who = ("Verdi", "Anna", None);
const NERI: Who = ("Neri", "Paolo", None);
const GALLO: Who = ("Gallo", "Sara", None);
const CONTI: Who = ("Conti", "Marco", None);
const COSTA: Who = ("Costa", "Elena", None);
const GRECO: Who = ("Greco", "Davide", None);
const FONTANA: Who = ("Fontana", "Laura", None);
const MORETTI: Who = ("Moretti", "Chiara", None);

fn season() -> Vec<(String, String)> {
    // T1: 1 beats 2 by 500 (14–6), 3 and 4 draw: places 1, 4, 2, 2.
    let t1 = tournament(
        "T1",
        &[
            (ROSSI, BIANCHI),
            (VERDI, NERI),
            (GALLO, CONTI),
            (COSTA, GRECO),
        ],
        &[(1, 2, 600, 100), (3, 4, 300, 300)],
        Status::Finished,
    );
    // Still running: provisional, counts nowhere.
    let t2 = tournament(
        "T2",
        &[(MORETTI, BIANCHI), (VERDI, GRECO)],
        &[(1, 2, 900, 100)],
        Status::Running,
    );
    // T3: 2 beats 1 by 500, 3 beats 4 by 200 (12–8): places 4, 1, 2, 3.
    // Rossi without her card and with an accent: the same person.
    let t3 = tournament(
        "T3",
        &[
            (ROSSI_BARE, GALLO),
            (BIANCHI, VERDI),
            (CONTI, COSTA),
            (GRECO, FONTANA),
        ],
        &[(1, 2, 100, 600), (3, 4, 400, 200)],
        Status::Finished,
    );
    [("t1.json", t1), ("t2.json", t2), ("t3.json", t3)]
        .into_iter()
        .map(|(n, f)| (n.to_string(), file_to_json(&f).unwrap()))
        .collect()
}

const SEASON_CIRCUIT: &str = r#"{"format": "burraco-td/circuit@1", "name": "Inverno",
  "points": {"method": "table", "table": [25, 18, 15, 12]},
  "min_attendances": 2,
  "finals": {"stage_top_percent": 25, "overall_top_percent": 50, "overall_min_attendances": 2}}"#;

#[test]
fn the_command_prints_the_format_md_json() {
    let (code, out, err) = run_cli("circuit.json", SEASON_CIRCUIT, &season(), Lang::En);
    assert_eq!((code, err.as_str()), (0, ""));
    let p = |card: Option<&str>, s: &str, n: &str| {
        format!(
            r#"{{"card":{},"surname":"{s}","name":"{n}"}}"#,
            card.map_or("null".to_string(), |c| format!("\"{c}\""))
        )
    };
    let row = |place: &str, who: String, points: &str, mp: i64, att: u32, counted: &str| {
        format!(
            r#"{{"place":{place},"player":{who},"points":"{points}","mp_diff":{mp},"attendances":{att},"counted":{counted}}}"#
        )
    };
    // Stage 1 (table 25, 18, 15, 12): Rossi, Bianchi 25; Gallo, Conti,
    // Costa, Greco (18 + 15) / 2 = 16.5; Verdi, Neri 12. Stage 3: Bianchi,
    // Verdi 25; Conti, Costa 18; Greco, Fontana 15; Rossi, Gallo 12.
    let standings = [
        row("1", p(None, "Bianchi", "Luca"), "50.00", 1000, 2, "[1,3]"),
        row(
            "2",
            p(Some("AB123"), "Rossi", "Maria"),
            "37.00",
            0,
            2,
            "[1,3]",
        ),
        row("2", p(None, "Verdi", "Anna"), "37.00", 0, 2, "[1,3]"),
        row("4", p(None, "Conti", "Marco"), "34.50", 200, 2, "[1,3]"),
        row("4", p(None, "Costa", "Elena"), "34.50", 200, 2, "[1,3]"),
        row("6", p(None, "Greco", "Davide"), "31.50", -200, 2, "[1,3]"),
        row("7", p(None, "Gallo", "Sara"), "28.50", -500, 2, "[1,3]"),
        row("null", p(None, "Fontana", "Laura"), "15.00", -200, 1, "[3]"),
        row("null", p(None, "Neri", "Paolo"), "12.00", -500, 1, "[1]"),
    ];
    let fin = |who: String, reason: &str| format!(r#"{{"player":{who},"reason":"{reason}"}}"#);
    let finalists = [
        fin(p(None, "Bianchi", "Luca"), "stage 1, place 1"),
        fin(p(Some("AB123"), "Rossi", "Maria"), "stage 1, place 1"),
        fin(p(None, "Verdi", "Anna"), "stage 3, place 1"),
        fin(p(None, "Conti", "Marco"), "overall, place 4"),
        fin(p(None, "Costa", "Elena"), "overall, place 4"),
    ];
    let expected = format!(
        r#"{{"standings":[{}],"finalists":[{}]}}"#,
        standings.join(","),
        finalists.join(",")
    );
    assert_eq!(out, format!("{expected}\n"));
}

#[test]
fn the_command_ranks_pairs_as_two_players() {
    let circuit = r#"{"format":"burraco-td/circuit@1","name":"Coppie","rank":"pair",
        "points":{"method":"vp"}}"#;
    let t1 = tournament(
        "T1",
        &[(ROSSI, BIANCHI), (VERDI, NERI)],
        &[(1, 2, 600, 100)],
        Status::Finished,
    );
    // The same two people, swapped, with another pair number.
    let t2 = tournament(
        "T2",
        &[(VERDI, NERI), (BIANCHI, ROSSI_BARE)],
        &[(1, 2, 300, 300)],
        Status::Finished,
    );
    let files: Vec<(String, String)> = [("a.json", t1), ("b.json", t2)]
        .into_iter()
        .map(|(n, f)| (n.to_string(), file_to_json(&f).unwrap()))
        .collect();
    let (code, out, err) = run_cli("c.json", circuit, &files, Lang::It);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        out,
        concat!(
            r#"{"standings":["#,
            r#"{"place":1,"pair":{"players":[{"card":null,"surname":"Bianchi","name":"Luca"},{"card":"AB123","surname":"Rossi","name":"Maria"}]},"points":"24.00","mp_diff":500,"attendances":2,"counted":[1,2]},"#,
            r#"{"place":2,"pair":{"players":[{"card":null,"surname":"Neri","name":"Paolo"},{"card":null,"surname":"Verdi","name":"Anna"}]},"points":"16.00","mp_diff":-500,"attendances":2,"counted":[1,2]}"#,
            r#"],"finalists":[]}"#,
            "\n"
        )
    );
}

#[test]
fn a_bad_stage_file_is_exit_1_naming_the_file_and_the_problem() {
    let mut files = season();
    // Not JSON.
    files[0].1 = "{ nope".to_string();
    // A pair with one player.
    let mut bad = tournament(
        "T3",
        &[(ROSSI, BIANCHI), (VERDI, NERI)],
        &[(1, 2, 600, 100)],
        Status::Finished,
    );
    bad.pairs[1].players.pop();
    files[2].1 = file_to_json(&bad).unwrap();
    let (code, out, err) = run_cli("circuit.json", SEASON_CIRCUIT, &files, Lang::En);
    assert_eq!(code, 1);
    assert_eq!(out, "");
    assert!(
        err.contains("t1.json: Cannot read the tournament file"),
        "{err}"
    );
    assert!(
        err.contains("t3.json: The tournament file is not valid"),
        "{err}"
    );
    assert!(err.contains("pairs[1].players"), "{err}");
    assert!(!err.contains("t2.json"), "{err}");
}

#[test]
fn a_sheet_that_breaks_a_rule_is_exit_1_with_its_round_and_table() {
    let mut f = tournament(
        "T1",
        &[(ROSSI, BIANCHI), (VERDI, NERI)],
        &[(1, 2, 600, 100)],
        Status::Finished,
    );
    // Four hands in a three-hand round.
    f.rounds[0].tables[0].sheet = Some(simple_sheet(600, 100, 4));
    let files = vec![("serata.json".to_string(), file_to_json(&f).unwrap())];
    let (code, out, err) = run_cli("c.json", SEASON_CIRCUIT, &files, Lang::It);
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(err.starts_with("serata.json: "), "{err}");
    assert!(err.contains("TOO_MANY_HANDS"), "{err}");
    assert!(err.contains("Turno 1, tavolo 1"), "{err}");
}

#[test]
fn a_bad_circuit_file_is_exit_1_naming_the_field() {
    let circuit =
        r#"{"format":"burraco-td/circuit@1","name":"C","points":{"method":"vp"},"best_of":0}"#;
    let (code, out, err) = run_cli("circuit.json", circuit, &season(), Lang::En);
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(
        err.starts_with("circuit.json: The circuit file is not valid (1 problems):"),
        "{err}"
    );
    assert!(err.contains("best_of: "), "{err}");
    let (code, _, err) = run_cli("circuit.json", "[]", &season(), Lang::En);
    assert_eq!(code, 1);
    assert!(err.contains("circuit.json"), "{err}");
}

#[test]
fn stage_of_file_takes_the_final_standings_without_no_shows() {
    let mut f = sample_tournament(9, 3, 7);
    f.pairs[4].no_show = true;
    // A no-show is never seated: take pair 5 out of the rounds.
    for round in &mut f.rounds {
        round.tables.retain(|t| t.ns != 5 && t.ew != 5);
        round.byes.retain(|&b| b != 5);
    }
    f.penalties.retain(|p| p.pair != 5);
    let standings = crate::standings::compute_file(&f, Lang::En).unwrap();
    let st = stage_of_file(&f, |p| p.surname.clone(), Lang::En).unwrap();
    assert!(st.finished);
    assert_eq!(st.entries, 8);
    assert_eq!(st.results.len(), 8);
    assert!(st.results.iter().all(|r| r.pair_number != 5));
    for (r, row) in st.results.iter().zip(&standings.rows) {
        assert_eq!(
            (r.pair_number, r.place, r.vp, r.mp_diff),
            (row.number, row.place, row.vp, row.mp_diff)
        );
        let pair = f.pairs.iter().find(|p| p.number == r.pair_number).unwrap();
        assert_eq!(r.players[0].key, pair.players[0].surname);
        assert_eq!(r.players[1].card, pair.players[1].card);
    }
    f.status = Some(Status::Running);
    assert!(
        !stage_of_file(&f, |p| p.surname.clone(), Lang::En)
            .unwrap()
            .finished
    );
    f.status = None;
    assert!(
        !stage_of_file(&f, |p| p.surname.clone(), Lang::En)
            .unwrap()
            .finished
    );
}

#[test]
fn generated_seasons_run_through_the_command() {
    // Four evenings of the same 24 people in other pairs (their cards and
    // names from one generated tournament).
    let people: Vec<Player> = sample_tournament(12, 3, 0)
        .pairs
        .iter()
        .flat_map(|p| p.players.clone())
        .collect();
    let files: Vec<(String, String)> = (0..4usize)
        .map(|s| {
            let mut f = sample_tournament(12, 3, 100 + s as u64);
            for (i, pair) in f.pairs.iter_mut().enumerate() {
                pair.players = vec![
                    people[(2 * i + s) % 24].clone(),
                    people[(2 * i + 1 + 3 * s) % 24].clone(),
                ];
            }
            (format!("t{s}.json"), file_to_json(&f).unwrap())
        })
        .collect();
    let (code, out, err) = run_cli("c.json", EXAMPLE, &files, Lang::En);
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(
        out.starts_with(r#"{"standings":[{"place":1,"player":{"card":"#),
        "{out}"
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let rows = v["standings"].as_array().unwrap();
    assert_eq!(rows.len(), 24);
    for row in rows {
        let mut keys: Vec<&String> = row.as_object().unwrap().keys().collect();
        keys.sort();
        assert_eq!(
            keys,
            [
                "attendances",
                "counted",
                "mp_diff",
                "place",
                "player",
                "points"
            ]
        );
        // Four attendances, best 3 count; everyone classified.
        assert_eq!(row["attendances"], 4);
        assert_eq!(row["counted"].as_array().unwrap().len(), 3);
        assert!(row["place"].is_u64());
    }
}
