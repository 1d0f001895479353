//! `next-round` on individual files (RULES.md §14): the draw, then Danish
//! foursomes by the standings, the refusals.

use super::*;
use crate::i18n::Lang;
use crate::movement::individual::individual_draw;
use crate::tournament_file::individual_kit::{add_round4, individual, one_round, T4};
use crate::tournament_file::{IndividualMovementKind, IndividualRoundFile};

/// Every player of a round (seated or resting), sorted.
fn everyone(r: &IndividualRoundFile) -> Vec<u32> {
    let mut all: Vec<u32> = r
        .tables
        .iter()
        .flat_map(|t| t.ns.into_iter().chain(t.ew))
        .chain(r.byes.iter().copied())
        .collect();
    all.sort_unstable();
    all
}

#[test]
fn the_first_round_is_the_seeded_draw_of_every_player_who_plays() {
    let mut f = individual(11);
    f.players[10].no_show = true;
    f.players[9].withdrawn_from_round = Some(1);
    let next = next_individual_round(&f, 77).unwrap();
    assert_eq!(next.round.number, 1);
    assert_eq!(next.round.movement, Some(IndividualMovementKind::Draw));
    assert_eq!(everyone(&next.round), (1..=9).collect::<Vec<_>>());
    assert_eq!(next.round.byes.len(), 1);
    let drawn = individual_draw(&(1..=9).collect::<Vec<_>>(), 77).unwrap();
    assert_eq!(individual::seating_of(&next.round).tables, drawn.tables);
    assert!(next.round.tables.iter().all(|t| !t.is_scored()));
    // The JSON: a round of the file, the bye a list.
    let (code, out, err) = cli::run_cli(&serde_json::to_string(&f).unwrap(), 77, Lang::En);
    assert_eq!((code, err.as_str()), (0, ""));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["number"], 1);
    assert_eq!(v["movement"], "draw");
    assert_eq!(v["bye"], serde_json::json!(drawn.byes));
    assert_eq!(v["tables"][0]["ns"], serde_json::json!(drawn.tables[0].ns));
}

#[test]
fn later_rounds_are_danish_by_the_standings_without_repeating_partners() {
    // Round 1: 1+2 beat 3+4 (14–6), 5+6 beat 7+8 by more (16–4), 9 rests.
    let mut f = individual(9);
    add_round4(
        &mut f,
        vec![
            T4::Sheet(1, [1, 2], [3, 4], 600, 200),
            T4::Sheet(2, [5, 6], [7, 8], 900, 200),
        ],
        &[9],
    );
    // Standings: 5, 6 (16), 9 (14, 355), 1, 2 (14, 400 — ahead of 9),
    // so 5, 6, 1, 2, 9, 3, 4, 7, 8. The one with the fewest rests and the
    // lowest place rests: 8. Foursomes: 5, 6, 1, 2 (5 and 6 were partners:
    // 5+1 v 6+2), 9, 3, 4, 7 (3 and 4 partners? c+d: 4 and 7 no; a+b 9 and
    // 3 no: 9+3 v 4+7).
    let next = next_individual_round(&f, 0).unwrap();
    let r = &next.round;
    assert_eq!(
        (r.number, r.movement),
        (2, Some(IndividualMovementKind::Danish))
    );
    assert_eq!(r.byes, vec![8]);
    let seats: Vec<([u32; 2], [u32; 2])> = r.tables.iter().map(|t| (t.ns, t.ew)).collect();
    assert_eq!(seats, vec![([5, 1], [6, 2]), ([9, 3], [4, 7])]);
    assert_eq!(everyone(r), (1..=9).collect::<Vec<_>>());
}

#[test]
fn refusals_give_exit_one_and_a_reason() {
    let mut f = individual(8);
    add_round4(
        &mut f,
        vec![
            T4::Sheet(1, [1, 2], [3, 4], 600, 200),
            T4::Open(2, [5, 6], [7, 8]),
        ],
        &[],
    );
    f.status = Some(crate::tournament_file::Status::Running);
    let e = next_individual_round(&f, 0).unwrap_err();
    assert_eq!(
        e,
        NextRoundError::RoundIncomplete {
            round: 1,
            tables: "2".into()
        }
    );
    assert_eq!(e.exit_code(), 1);
    // The plan is complete.
    let mut f = one_round();
    f.planned_rounds = Some(1);
    assert_eq!(
        next_individual_round(&f, 0),
        Err(NextRoundError::PlanComplete { rounds: 1 })
    );
    // Too few players.
    let e = next_individual_round(&individual(3), 0).unwrap_err();
    assert_eq!(e.exit_code(), 1);
    for lang in Lang::ALL {
        assert!(e.message(lang).contains('3'), "{}", e.message(lang));
    }
    // An invalid file: exit 2.
    let mut f = individual(8);
    f.players[1].number = 1;
    let (code, _, err) = cli::run_cli(&serde_json::to_string(&f).unwrap(), 0, Lang::En);
    assert_eq!(code, 2, "{err}");
}
