//! Standings of individual tournaments (RULES.md §14) against worked
//! examples: both players of a line get the line's result, resting
//! players the bye award, penalties per player, head-to-head of two
//! players who sat as opponents, prizes per player, the CLI.

use super::*;
use crate::i18n::Lang;
use crate::rules::score_sheet::ViolationCode;
use crate::tournament_file::individual_kit::{add_round4, individual, one_round, penalty4, T4};
use crate::tournament_file::{Adjusted, IndividualTournamentFile, PenaltyKind};
use rust_decimal::Decimal;

fn run(f: &IndividualTournamentFile) -> PlayerStandings {
    match compute_individual_file(f, Lang::En) {
        Ok(s) => s,
        Err(e) => panic!("{}", e.message(Lang::En)),
    }
}

/// (place, player, vp, mp_diff, mp) of every row.
fn rows(s: &PlayerStandings) -> Vec<(u32, u32, i64, i64, i64)> {
    s.rows
        .iter()
        .map(|r| (r.place, r.number, r.vp, r.mp_diff, r.mp))
        .collect()
}

#[test]
fn both_players_of_a_line_get_its_result_and_partners_share_the_place() {
    let s = run(&one_round());
    assert_eq!(
        rows(&s),
        vec![
            (1, 1, 14, 400, 600),
            (1, 2, 14, 400, 600),
            (3, 5, 10, 0, 300),
            (3, 6, 10, 0, 300),
            (3, 7, 10, 0, 300),
            (3, 8, 10, 0, 300),
            (7, 3, 6, -400, 200),
            (7, 4, 6, -400, 200),
        ]
    );
    // Partners never met as opponents: no head-to-head.
    assert!(s.rows.iter().all(|r| r.tie_break.is_none()));
    let c = &s.card(3).unwrap().rounds[0];
    assert_eq!(c.partner, Some(4));
    assert_eq!(c.opponents, vec![1, 2]);
    assert_eq!(c.line.table, Some(1));
    assert_eq!(c.line.line, Some(crate::rules::Line::Ew));
    assert_eq!(c.line.opponent, None);
    assert_eq!((c.line.vp, c.line.opponent_vp), (Some(6), Some(14)));
    assert_eq!((c.line.mp_for, c.line.mp_against), (Some(200), Some(600)));
    assert_eq!(s.entries, 8);
}

#[test]
fn resting_players_score_the_bye_award_with_the_bands_lower_edge() {
    // 7 players: 3 rest (RULES.md §14); 14 VP and 355 MP on 3 hands.
    let mut f = individual(7);
    add_round4(
        &mut f,
        vec![T4::Sheet(1, [1, 2], [3, 4], 600, 200)],
        &[5, 6, 7],
    );
    let s = run(&f);
    assert_eq!(
        rows(&s),
        vec![
            (1, 1, 14, 400, 600),
            (1, 2, 14, 400, 600),
            (3, 5, 14, 355, 0),
            (3, 6, 14, 355, 0),
            (3, 7, 14, 355, 0),
            (6, 3, 6, -400, 200),
            (6, 4, 6, -400, 200),
        ]
    );
    let r5 = s.row(5).unwrap();
    assert_eq!((r5.played, r5.byes), (0, 1));
    let c = &s.card(5).unwrap().rounds[0];
    assert_eq!((c.line.outcome, c.partner), (Outcome::Bye, None));
    assert!(c.opponents.is_empty());
    // 4 hands: 705.
    let mut f = individual(5);
    f.hands_per_round = 4;
    add_round4(&mut f, vec![T4::Sheet(1, [1, 2], [3, 4], 600, 200)], &[5]);
    assert_eq!(run(&f).row(5).map(|r| (r.vp, r.mp_diff)), Some((14, 705)));
}

#[test]
fn penalties_name_a_player() {
    let mut f = one_round();
    // MP: both partners' penalties reduce the line's MP before the VP
    // conversion: 600 − 200 − 200 = 200 → 12–8.
    penalty4(&mut f, 1, 1, PenaltyKind::Mp, Some(100));
    penalty4(&mut f, 1, 2, PenaltyKind::Mp, Some(100));
    // VP: off the named player only.
    penalty4(&mut f, 1, 3, PenaltyKind::Vp, Some(2));
    // Every second warning to a player: −1 VP to that player.
    penalty4(&mut f, 1, 5, PenaltyKind::Warning, None);
    penalty4(&mut f, 1, 6, PenaltyKind::Warning, None);
    penalty4(&mut f, 1, 5, PenaltyKind::Warning, None);
    let s = run(&f);
    let row = |n| {
        let r = s.row(n).unwrap();
        (r.vp, r.mp_diff, r.mp, r.penalty_vp)
    };
    assert_eq!(row(1), (12, 200, 400, 0));
    assert_eq!(row(2), (12, 200, 400, 0));
    // The opponents' own MP stay; their VP and difference follow.
    assert_eq!(row(3), (8 - 2, -200, 200, 2));
    assert_eq!(row(4), (8, -200, 200, 0));
    assert_eq!(row(5), (9, 0, 300, 1));
    assert_eq!(row(6), (10, 0, 300, 0), "one warning costs nothing");
    let c1 = &s.card(1).unwrap().rounds[0];
    assert_eq!((c1.line.mp_for, c1.line.mp_penalty), (Some(400), 200));
    assert_eq!(c1.line.penalties.len(), 1, "only the player's own penalty");
    assert!(c1.line.penalties[0].counts);
    let c5 = &s.card(5).unwrap().rounds[0];
    assert_eq!(
        c5.line.penalties.len(),
        3,
        "two warnings and the automatic VP"
    );
    assert!(c5.line.penalties[2].automatic);
    // Withdrawn: nothing.
    for p in &mut f.penalties {
        p.withdrawn = true;
    }
    assert_eq!(rows(&run(&f)), rows(&run(&one_round())));
}

#[test]
fn an_adjusted_table_gives_each_line_its_vp_and_difference() {
    let mut f = individual(8);
    let adj = Adjusted {
        ns_vp: 14,
        ew_vp: 6,
        ns_mp_diff: Some(100),
        ew_mp_diff: None,
    };
    add_round4(
        &mut f,
        vec![
            T4::Adj(1, [1, 2], [3, 4], adj),
            T4::Sheet(2, [5, 6], [7, 8], 300, 300),
        ],
        &[],
    );
    penalty4(&mut f, 1, 1, PenaltyKind::Mp, Some(100));
    let s = run(&f);
    for (n, expected) in [
        (1, (14, 100, 0)),
        (2, (14, 100, 0)),
        (3, (6, 0, 0)),
        (4, (6, 0, 0)),
    ] {
        let r = s.row(n).unwrap();
        assert_eq!((r.vp, r.mp_diff, r.mp), expected, "player {n}");
    }
    let c = &s.card(1).unwrap().rounds[0];
    assert!(c.line.adjusted);
    assert!(
        !c.line.penalties[0].counts,
        "an MP penalty on an adjusted table"
    );
}

/// Two rounds where two pairs of players end tied on VP, MP difference and
/// MP: 1 and 3 (opponents in round 1, 1 won 14–6), and 2 and 4 after a VP
/// penalty each (opponents in round 1, 2 won). 5 and 8 tie and drew their
/// meeting; 6 and 7 too.
fn two_rounds() -> IndividualTournamentFile {
    let mut f = one_round();
    add_round4(
        &mut f,
        vec![
            T4::Sheet(1, [3, 5], [2, 6], 700, 300),
            T4::Sheet(2, [1, 7], [4, 8], 300, 700),
        ],
        &[],
    );
    penalty4(&mut f, 2, 2, PenaltyKind::Vp, Some(1));
    penalty4(&mut f, 2, 4, PenaltyKind::Vp, Some(1));
    f
}

#[test]
fn two_tied_players_who_sat_as_opponents_are_ordered_head_to_head() {
    let s = run(&two_rounds());
    assert_eq!(
        rows(&s),
        vec![
            (1, 5, 24, 400, 1000),
            (1, 8, 24, 400, 1000),
            (3, 1, 20, 0, 900),
            (4, 3, 20, 0, 900),
            (5, 2, 19, 0, 900),
            (6, 4, 19, 0, 900),
            (7, 6, 16, -400, 600),
            (7, 7, 16, -400, 600),
        ]
    );
    let t1 = s.row(1).unwrap().tie_break.clone().unwrap();
    assert_eq!(
        (t1.other, t1.vp_for, t1.vp_against, t1.won),
        (3, 14, 6, true)
    );
    assert_eq!(
        t1.note,
        "Player 1 ranks ahead of player 3 on head-to-head (14 to 6 VP)."
    );
    let t3 = s.row(3).unwrap().tie_break.clone().unwrap();
    assert!(!t3.won && t3.other == 1);
    assert!(s.row(2).unwrap().tie_break.as_ref().is_some_and(|t| t.won));
    // Drawn meetings decide nothing: the place is shared.
    assert!(s.row(5).unwrap().tie_break.is_none());
    assert!(s.row(6).unwrap().tie_break.is_none());
}

#[test]
fn prizes_go_to_one_player_each_and_shared_places_share() {
    // 8 × 20.00 × 70 % = 112.00; 60/40 for places 1 and 2, shared by 1 and 2.
    let s = run(&one_round());
    assert_eq!(s.pool, Decimal::new(11200, 2));
    let prizes: Vec<(u32, u32, Decimal, [Decimal; 1])> = s
        .prizes
        .iter()
        .map(|p| (p.number, p.place, p.amount, p.per_player))
        .collect();
    let half = Decimal::new(5600, 2);
    assert_eq!(prizes, vec![(1, 1, half, [half]), (2, 1, half, [half])]);
    // A no-show is no entry.
    let mut f = one_round();
    f.players
        .push(crate::tournament_file::individual_kit::player(9));
    f.players[8].no_show = true;
    let s = run(&f);
    assert_eq!((s.entries, s.rows.len()), (8, 8));
    assert!(s.card(9).is_none());
}

#[test]
fn the_cli_prints_players() {
    let mut f = individual(5);
    add_round4(&mut f, vec![T4::Sheet(1, [1, 2], [3, 4], 600, 100)], &[5]);
    let text = serde_json::to_string(&f).unwrap();
    let (code, out, err) = run_cli(&text, Lang::En);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        out,
        concat!(
            r#"{"standings":["#,
            r#"{"place":1,"player":1,"vp":14,"mp_diff":500,"mp":600,"played":1,"byes":0},"#,
            r#"{"place":1,"player":2,"vp":14,"mp_diff":500,"mp":600,"played":1,"byes":0},"#,
            r#"{"place":3,"player":5,"vp":14,"mp_diff":355,"mp":0,"played":0,"byes":1},"#,
            r#"{"place":4,"player":3,"vp":6,"mp_diff":-500,"mp":100,"played":1,"byes":0},"#,
            r#"{"place":4,"player":4,"vp":6,"mp_diff":-500,"mp":100,"played":1,"byes":0}],"#,
            r#""pool":"70.00","prizes":[{"player":1,"place":1,"amount":"35.00"},"#,
            r#"{"player":2,"place":1,"amount":"35.00"}]}"#,
            "\n"
        )
    );
    // A broken sheet names the four players; an invalid file its place.
    if let Some(s) = f.rounds[0].tables[0].sheet.as_mut() {
        s.hands.pop();
    }
    let text = serde_json::to_string(&f).unwrap();
    let (code, _, err) = run_cli(&text, Lang::En);
    assert_eq!(code, 1);
    assert!(
        err.contains("Round 1, table 1 (NS players 1 and 2, EW players 3 and 4)"),
        "{err}"
    );
    assert!(err.contains(ViolationCode::MissingHands.code()), "{err}");
    let (code, _, err) = run_cli(&text.replace("\"bye\":[5]", "\"bye\":[1]"), Lang::En);
    assert_eq!(code, 2);
    assert!(
        err.contains("rounds[0].bye: Player 1 is already seated"),
        "{err}"
    );
}

#[test]
fn cards_serialize_with_the_player_partner_and_opponents() {
    let s = run(&one_round());
    let v = serde_json::to_value(s.card(1).unwrap()).unwrap();
    assert_eq!(v["player"], 1);
    assert_eq!(v["rounds"][0]["partner"], 2);
    assert_eq!(v["rounds"][0]["opponents"], serde_json::json!([3, 4]));
    assert_eq!(v["rounds"][0]["vp"], 14);
    let v = serde_json::to_value(&s).unwrap();
    assert_eq!(v["rows"][0]["player"], 1);
    assert_eq!(v["prizes"][0]["per_player"], serde_json::json!(["56.00"]));
}

/// A whole individual tournament of `n` players over `rounds` rounds, each
/// seated by `next-round` (the draw, then Danish) and played with sheets
/// from `seed`.
fn simulated(n: u32, rounds: u32, seed: u64) -> IndividualTournamentFile {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut f = individual(n);
    for _ in 0..rounds {
        let Ok(next) = crate::next_round::next_individual_round(&f, seed) else {
            break;
        };
        let mut round = next.round;
        for t in &mut round.tables {
            let mp = |rng: &mut rand_chacha::ChaCha8Rng| 5 * rng.gen_range(0i64..300);
            t.sheet = Some(crate::tournament_file::fixtures::simple_sheet(
                mp(&mut rng),
                mp(&mut rng),
                3,
            ));
        }
        f.rounds.push(round);
    }
    f
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(32))]

    /// Whatever the field: every player seated once or resting each round,
    /// no partnership of the previous round repeated, a table's two lines'
    /// VP adding up to 20 for each of their players, and the standings'
    /// invariants of every kind.
    #[test]
    fn simulated_individual_tournaments_hold(n in 4u32..30, rounds in 1u32..5, seed in proptest::prelude::any::<u64>()) {
        let f = simulated(n, rounds, seed);
        proptest::prop_assert_eq!(f.rounds.len(), rounds as usize);
        let s = run(&f);
        for (r, round) in f.rounds.iter().enumerate() {
            let mut all: Vec<u32> = round.tables.iter().flat_map(|t| t.ns.into_iter().chain(t.ew)).chain(round.byes.iter().copied()).collect();
            all.sort_unstable();
            proptest::prop_assert_eq!(all, (1..=n).collect::<Vec<_>>());
            proptest::prop_assert_eq!(round.byes.len(), (n % 4) as usize);
            for t in &round.tables {
                let vp = |p: u32| s.card(p).and_then(|c| c.rounds.get(r)).and_then(|c| c.line.vp);
                for (a, b) in [(t.ns[0], t.ew[0]), (t.ns[1], t.ew[1])] {
                    proptest::prop_assert_eq!(vp(a).zip(vp(b)).map(|(x, y)| x + y), Some(20));
                }
                proptest::prop_assert_eq!(vp(t.ns[0]), vp(t.ns[1]));
                if let Some(prev) = r.checked_sub(1).and_then(|p| f.rounds.get(p)) {
                    for [a, b] in [t.ns, t.ew] {
                        let before = prev.tables.iter().find_map(|pt| pt.seat_of(a)).map(|(_, partner)| partner);
                        proptest::prop_assert_ne!(before, Some(b));
                    }
                }
            }
        }
        super::invariants::hold(&s, (1..=n).collect())?;
    }
}
