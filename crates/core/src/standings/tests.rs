use super::*;
use crate::i18n::Lang;
use crate::rules::score_sheet::{Line, ViolationCode};
use crate::tournament_file::fixtures::{pair, sample_tournament, simple_sheet};
use crate::tournament_file::{
    to_json, Adjusted, PayoutTierFile, PenaltyFile, RoundFile, TableFile, TournamentFile,
};
use crate::tournament_file::{validate, PenaltyKind};
use rust_decimal::Decimal;
use std::time::Instant;

/// `n` pairs, 3 hands, fee 20.00, 70% share, 60/40 from 1 entry.
fn tour(n: u32) -> TournamentFile {
    let mut f = TournamentFile::new(
        "Prova",
        chrono::NaiveDate::from_ymd_opt(2026, 11, 20).unwrap(),
    );
    (f.entry_fee, f.prize_share_percent, f.payout) = super::test_kit::sixty_forty(2000);
    f.pairs = (1..=n).map(pair).collect();
    f
}

enum T {
    /// (table, ns, ew, ns MP, ew MP)
    Sheet(u32, u32, u32, i64, i64),
    /// (table, ns, ew, adjusted)
    Adj(u32, u32, u32, Adjusted),
    /// (table, ns, ew) not played yet
    Open(u32, u32, u32),
}

fn add_round(f: &mut TournamentFile, tables: Vec<T>, byes: &[u32]) {
    let hands = usize::try_from(f.hands_per_round).unwrap();
    let number = u32::try_from(f.rounds.len() + 1).unwrap();
    let tables = tables
        .into_iter()
        .map(|t| match t {
            T::Sheet(table, ns, ew, a, b) => TableFile {
                group: None,
                table,
                ns,
                ew,
                sheet: Some(simple_sheet(a, b, hands)),
                adjusted: None,
            },
            T::Adj(table, ns, ew, adj) => TableFile {
                group: None,
                table,
                ns,
                ew,
                sheet: None,
                adjusted: Some(adj),
            },
            T::Open(table, ns, ew) => TableFile {
                group: None,
                table,
                ns,
                ew,
                sheet: None,
                adjusted: None,
            },
        })
        .collect();
    f.rounds.push(RoundFile {
        number,
        movement: None,
        tables,
        byes: byes.to_vec(),
    });
}

fn adj(ns_vp: i64, ew_vp: i64) -> Adjusted {
    Adjusted {
        ns_vp,
        ew_vp,
        ns_mp_diff: None,
        ew_mp_diff: None,
    }
}

fn penalty(f: &mut TournamentFile, round: u32, pair: u32, kind: PenaltyKind, amount: Option<i64>) {
    f.penalties.push(PenaltyFile {
        round,
        pair,
        kind,
        amount,
        reason: format!("{kind} for {pair}"),
        withdrawn: false,
        table: None,
        by: None,
        at: None,
        withdrawn_by: None,
        withdrawn_at: None,
        withdrawn_reason: String::new(),
    });
}

fn run(f: &TournamentFile) -> Standings {
    match compute_file(f, Lang::En) {
        Ok(s) => s,
        Err(e) => panic!("{}", e.message(Lang::En)),
    }
}

/// (place, pair, vp, mp_diff, mp) of every row.
fn table(s: &Standings) -> Vec<(u32, u32, i64, i64, i64)> {
    s.rows
        .iter()
        .map(|r| (r.place, r.number, r.vp, r.mp_diff, r.mp))
        .collect()
}

#[test]
fn vp_mp_and_shared_places_1_2_2_4() {
    let mut f = tour(4);
    add_round(
        &mut f,
        vec![T::Sheet(1, 1, 2, 600, 100), T::Sheet(2, 3, 4, 300, 300)],
        &[],
    );
    let s = run(&f);
    assert_eq!(
        table(&s),
        vec![
            (1, 1, 14, 500, 600),
            (2, 3, 10, 0, 300),
            (2, 4, 10, 0, 300),
            (4, 2, 6, -500, 100),
        ]
    );
    // 3 and 4 met and drew: still tied, no head-to-head note.
    assert!(s.rows.iter().all(|r| r.tie_break.is_none()));
    let r = s.row(1).unwrap();
    assert_eq!((r.played, r.byes, r.penalty_vp), (1, 0, 0));
    let c = &s.card(2).unwrap().rounds[0];
    assert_eq!(c.outcome, Outcome::Played);
    assert_eq!(
        (c.table, c.line, c.opponent),
        (Some(1), Some(Line::Ew), Some(1))
    );
    assert_eq!(
        (c.mp_for, c.mp_against, c.vp, c.opponent_vp),
        (Some(100), Some(600), Some(6), Some(14))
    );
}

#[test]
fn mp_penalty_changes_the_vp_of_both_lines_but_not_the_opponents_mp() {
    let mut f = tour(4);
    add_round(
        &mut f,
        vec![T::Sheet(1, 1, 2, 600, 200), T::Sheet(2, 3, 4, 300, 300)],
        &[],
    );
    let before = run(&f);
    assert_eq!(before.row(1).map(|r| r.vp), Some(14));
    penalty(&mut f, 1, 1, PenaltyKind::Mp, Some(100));
    let s = run(&f);
    // 500 − 200 = 300 → 13–7 (was 400 → 14–6).
    let (a, b) = (s.row(1).unwrap(), s.row(2).unwrap());
    assert_eq!((a.vp, a.mp_diff, a.mp), (13, 300, 500));
    assert_eq!((b.vp, b.mp_diff, b.mp), (7, -300, 200));
    assert_eq!(a.penalty_vp, 0, "an MP penalty is not a VP penalty");
    let c = &s.card(1).unwrap().rounds[0];
    assert_eq!((c.mp_for, c.mp_penalty, c.vp), (Some(500), 100, Some(13)));
    assert!(c.penalties[0].counts);
    assert_eq!(s.card(2).unwrap().rounds[0].mp_against, Some(500));

    // Withdrawn: counts for nothing, the record stays.
    f.penalties[0].withdrawn = true;
    let s = run(&f);
    assert_eq!(table(&s), table(&before));
    let c = &s.card(1).unwrap().rounds[0];
    assert_eq!(c.penalties.len(), 1);
    assert!(c.penalties[0].withdrawn && !c.penalties[0].counts);
    assert_eq!(c.mp_penalty, 0);
}

#[test]
fn mp_penalties_on_both_lines_and_on_open_or_adjusted_tables() {
    let mut f = tour(4);
    add_round(
        &mut f,
        vec![T::Sheet(1, 1, 2, 600, 200), T::Adj(2, 3, 4, adj(12, 8))],
        &[],
    );
    add_round(&mut f, vec![T::Open(1, 1, 3), T::Open(2, 2, 4)], &[]);
    penalty(&mut f, 1, 1, PenaltyKind::Mp, Some(100));
    penalty(&mut f, 1, 2, PenaltyKind::Mp, Some(150));
    penalty(&mut f, 1, 3, PenaltyKind::Mp, Some(100));
    penalty(&mut f, 2, 4, PenaltyKind::Mp, Some(100));
    let s = run(&f);
    // 500 − 50 = 450 → 14–6.
    assert_eq!(
        s.row(1).map(|r| (r.vp, r.mp_diff, r.mp)),
        Some((14, 450, 500))
    );
    assert_eq!(
        s.row(2).map(|r| (r.vp, r.mp_diff, r.mp)),
        Some((6, -450, 50))
    );
    // Adjusted: the referee's score stands.
    assert_eq!(s.row(3).map(|r| (r.vp, r.mp_diff, r.mp)), Some((12, 0, 0)));
    assert!(!s.card(3).unwrap().rounds[0].penalties[0].counts);
    // Not played yet: waits.
    let c = &s.card(4).unwrap().rounds[1];
    assert_eq!(c.outcome, Outcome::Pending);
    assert!(!c.penalties[0].counts);
    assert_eq!(s.row(4).map(|r| r.played), Some(1));
}

#[test]
fn vp_penalty_and_withdrawn_vp_penalty() {
    let mut f = tour(4);
    add_round(
        &mut f,
        vec![T::Sheet(1, 1, 2, 600, 200), T::Sheet(2, 3, 4, 300, 300)],
        &[],
    );
    penalty(&mut f, 1, 1, PenaltyKind::Vp, Some(3));
    penalty(&mut f, 1, 3, PenaltyKind::Vp, Some(2));
    f.penalties[1].withdrawn = true;
    let s = run(&f);
    let r = s.row(1).unwrap();
    assert_eq!((r.vp, r.mp_diff, r.penalty_vp), (11, 400, 3));
    assert_eq!(s.row(2).map(|r| r.vp), Some(6), "opponents gain nothing");
    assert_eq!(s.row(3).map(|r| (r.vp, r.penalty_vp)), Some((10, 0)));
    assert_eq!(s.card(1).unwrap().rounds[0].penalty_vp, 3);
    assert_eq!(
        s.card(1).unwrap().rounds[0].vp,
        Some(14),
        "table VP before penalties"
    );
}

#[test]
fn every_second_warning_costs_one_vp_in_its_round() {
    let mut f = tour(2);
    for _ in 0..4 {
        add_round(&mut f, vec![T::Sheet(1, 1, 2, 300, 300)], &[]);
    }
    penalty(&mut f, 1, 1, PenaltyKind::Warning, None);
    penalty(&mut f, 2, 1, PenaltyKind::Warning, None);
    penalty(&mut f, 2, 1, PenaltyKind::Warning, None);
    f.penalties[2].withdrawn = true;
    penalty(&mut f, 4, 1, PenaltyKind::Warning, None);
    // Listed out of round order: counted in round order.
    penalty(&mut f, 3, 1, PenaltyKind::Warning, None);
    let s = run(&f);
    let r = s.row(1).unwrap();
    assert_eq!((r.vp, r.penalty_vp), (38, 2));
    assert_eq!(s.row(2).map(|r| r.vp), Some(40), "opponents gain nothing");
    let card = s.card(1).unwrap();
    let autos: Vec<(u32, &str)> = card
        .rounds
        .iter()
        .flat_map(|c| c.penalties.iter().map(move |p| (c.round, p)))
        .filter(|(_, p)| p.automatic)
        .map(|(round, p)| (round, p.reason.as_str()))
        .collect();
    assert_eq!(autos.len(), 2);
    assert_eq!(autos[0].0, 2);
    assert_eq!(autos[1].0, 4);
    assert!(
        autos[0].1.contains("Second warning") && autos[0].1.contains('2'),
        "{}",
        autos[0].1
    );
    assert!(autos[1].1.contains('4'));
    let numbers: Vec<Option<u32>> = card
        .rounds
        .iter()
        .flat_map(|c| &c.penalties)
        .filter(|p| p.kind == PenaltyKind::Warning)
        .map(|p| p.warning_no)
        .collect();
    assert_eq!(numbers, vec![Some(1), Some(2), None, Some(3), Some(4)]);
    assert_eq!(
        card.rounds[2].penalty_vp, 0,
        "the third warning costs nothing"
    );
    assert_eq!(
        card.rounds[1].penalties.len(),
        3,
        "warning, automatic VP, withdrawn warning"
    );
    assert!(card.rounds[1].penalties[1].automatic);
    // In Italian too.
    let it = compute_file(&f, Lang::It).unwrap();
    let reason = &it.card(1).unwrap().rounds[1].penalties[1].reason;
    assert!(reason.contains("ammonizione"), "{reason}");
}

#[test]
fn byes_on_three_and_four_hand_scales() {
    let mut f = tour(3);
    add_round(&mut f, vec![T::Sheet(1, 1, 2, 300, 300)], &[3]);
    let s = run(&f);
    let r = s.row(3).unwrap();
    assert_eq!(
        (r.vp, r.mp_diff, r.mp, r.played, r.byes),
        (14, 355, 0, 0, 1)
    );
    assert_eq!(r.place, 1);
    let c = &s.card(3).unwrap().rounds[0];
    assert_eq!(
        (c.outcome, c.vp, c.mp_diff, c.opponent),
        (Outcome::Bye, Some(14), 355, None)
    );

    let mut f = tour(3);
    f.hands_per_round = 4;
    add_round(&mut f, vec![T::Sheet(1, 1, 2, 300, 300)], &[3]);
    let r = run(&f).row(3).cloned().unwrap();
    assert_eq!((r.vp, r.mp_diff, r.byes), (14, 705, 1));

    let mut f = tour(3);
    f.bye_vp = 12;
    add_round(&mut f, vec![T::Sheet(1, 1, 2, 300, 300)], &[3]);
    assert_eq!(run(&f).row(3).map(|r| (r.vp, r.mp_diff)), Some((12, 155)));
}

#[test]
fn adjusted_scores_replace_the_sheet() {
    let mut f = tour(2);
    add_round(
        &mut f,
        vec![T::Adj(
            1,
            1,
            2,
            Adjusted {
                ns_vp: 14,
                ew_vp: 8,
                ns_mp_diff: Some(100),
                ew_mp_diff: None,
            },
        )],
        &[],
    );
    let s = run(&f);
    assert_eq!(
        s.row(1).map(|r| (r.vp, r.mp_diff, r.mp, r.played)),
        Some((14, 100, 0, 1))
    );
    assert_eq!(
        s.row(2).map(|r| (r.vp, r.mp_diff, r.mp, r.played)),
        Some((8, 0, 0, 1))
    );
    let c = &s.card(2).unwrap().rounds[0];
    assert!(c.adjusted);
    assert_eq!(
        (c.outcome, c.mp_for, c.vp, c.opponent_vp),
        (Outcome::Adjusted, None, Some(8), Some(14))
    );
}

#[test]
fn ties_broken_by_mp_difference_then_by_mp() {
    let mut f = tour(4);
    add_round(
        &mut f,
        vec![T::Sheet(1, 1, 2, 600, 200), T::Sheet(2, 3, 4, 700, 250)],
        &[],
    );
    let order: Vec<u32> = run(&f).rows.iter().map(|r| r.number).collect();
    assert_eq!(order, vec![3, 1, 2, 4]);

    let mut f = tour(4);
    add_round(
        &mut f,
        vec![T::Sheet(1, 1, 2, 600, 200), T::Sheet(2, 3, 4, 700, 300)],
        &[],
    );
    assert_eq!(
        table(&run(&f)),
        vec![
            (1, 3, 14, 400, 700),
            (2, 1, 14, 400, 600),
            (3, 4, 6, -400, 300),
            (4, 2, 6, -400, 200),
        ]
    );
}

#[test]
fn two_tied_pairs_that_met_are_ordered_head_to_head() {
    let mut f = tour(4);
    add_round(
        &mut f,
        vec![T::Sheet(1, 2, 1, 400, 500), T::Sheet(2, 3, 4, 500, 500)],
        &[],
    );
    add_round(
        &mut f,
        vec![T::Sheet(1, 1, 3, 300, 300), T::Sheet(2, 2, 4, 400, 200)],
        &[],
    );
    let s = run(&f);
    assert_eq!(
        table(&s),
        vec![
            (1, 1, 21, 100, 800),
            (2, 2, 21, 100, 800),
            (3, 3, 20, 0, 800),
            (4, 4, 18, -200, 700),
        ]
    );
    let t1 = s.rows[0].tie_break.clone().unwrap();
    assert_eq!(
        (t1.other, t1.vp_for, t1.vp_against, t1.won),
        (2, 11, 9, true)
    );
    assert!(t1.note.contains("head-to-head"), "{}", t1.note);
    let t2 = s.rows[1].tie_break.clone().unwrap();
    assert_eq!(
        (t2.other, t2.vp_for, t2.vp_against, t2.won),
        (1, 9, 11, false)
    );
    assert!(s.rows[2].tie_break.is_none());

    // Met twice: the VP of both meetings are added.
    let mut f = tour(4);
    add_round(
        &mut f,
        vec![T::Adj(1, 1, 2, adj(12, 8)), T::Adj(2, 3, 4, adj(5, 5))],
        &[],
    );
    add_round(
        &mut f,
        vec![T::Adj(1, 2, 1, adj(13, 7)), T::Adj(2, 3, 4, adj(5, 5))],
        &[],
    );
    add_round(
        &mut f,
        vec![T::Adj(1, 1, 3, adj(12, 5)), T::Adj(2, 2, 4, adj(10, 5))],
        &[],
    );
    let s = run(&f);
    assert_eq!(
        table(&s),
        vec![
            (1, 2, 31, 0, 0),
            (2, 1, 31, 0, 0),
            (3, 3, 15, 0, 0),
            (3, 4, 15, 0, 0)
        ]
    );
    let t = s.rows[0].tie_break.clone().unwrap();
    assert_eq!((t.vp_for, t.vp_against), (21, 19));
    assert!(s.rows[2].tie_break.is_none() && s.rows[3].tie_break.is_none());
}

#[test]
fn no_head_to_head_when_three_are_tied_or_the_two_never_met() {
    let mut f = tour(4);
    add_round(
        &mut f,
        vec![T::Adj(1, 1, 2, adj(12, 8)), T::Adj(2, 3, 4, adj(10, 10))],
        &[],
    );
    add_round(
        &mut f,
        vec![T::Adj(1, 1, 4, adj(8, 5)), T::Adj(2, 2, 3, adj(12, 10))],
        &[],
    );
    let s = run(&f);
    assert_eq!(
        table(&s),
        vec![
            (1, 1, 20, 0, 0),
            (1, 2, 20, 0, 0),
            (1, 3, 20, 0, 0),
            (4, 4, 15, 0, 0)
        ]
    );
    assert!(s.rows.iter().all(|r| r.tie_break.is_none()));

    // Two tied, never met.
    let mut f = tour(4);
    add_round(
        &mut f,
        vec![T::Sheet(1, 1, 2, 500, 400), T::Sheet(2, 3, 4, 500, 400)],
        &[],
    );
    let s = run(&f);
    assert_eq!(
        table(&s),
        vec![
            (1, 1, 11, 100, 500),
            (1, 3, 11, 100, 500),
            (3, 2, 9, -100, 400),
            (3, 4, 9, -100, 400)
        ]
    );
    assert!(s.rows.iter().all(|r| r.tie_break.is_none()));
}

#[test]
fn prizes_follow_the_standings_and_shared_places_share() {
    let mut f = tour(4);
    add_round(
        &mut f,
        vec![T::Sheet(1, 1, 2, 600, 100), T::Sheet(2, 3, 4, 300, 300)],
        &[],
    );
    let s = run(&f);
    assert_eq!(s.pool.to_string(), "56.00");
    assert_eq!(s.organiser_fee.to_string(), "24.00");
    assert_eq!(s.prizes.len(), 3);
    assert_eq!(
        (s.prizes[0].number, s.prizes[0].amount.to_string()),
        (1, "33.60".to_string())
    );
    // Pairs 3 and 4 share place 2 and its 22.40.
    assert_eq!(s.prizes[1].amount.to_string(), "11.20");
    assert_eq!(s.prizes[2].amount.to_string(), "11.20");
    assert_eq!(s.prizes[1].per_player[0].to_string(), "5.60");
    assert_eq!(s.prize(2), None);
    // A pair withdrawn after it played is still an entry.
    f.pairs.push(pair(5));
    f.pairs.push(pair(6));
    f.pairs[4].withdrawn_from_round = Some(2);
    f.rounds[0].byes = vec![5];
    // Pair 6 was withdrawn before the start (round 1): never played, no entry.
    f.pairs[5].withdrawn_from_round = Some(1);
    let s = run(&f);
    assert_eq!(s.entries, 5);
    assert_eq!(s.pool.to_string(), "70.00");
    assert!(s.row(5).unwrap().withdrawn);
    assert_eq!(s.row(6), None);
    assert!(s.card(6).is_none());
    f.pairs.pop();
    // The tier is the one with the largest min_entries not above the entries.
    f.payout.push(PayoutTierFile {
        min_entries: 5,
        scheme: vec![Decimal::from(100)],
    });
    let s = run(&f);
    assert_eq!(s.prizes.len(), 1);
    assert_eq!(s.prizes[0].amount, s.pool);
}

#[test]
fn no_shows_are_not_entries_not_ranked_and_not_in_the_pool() {
    // 4 entries and 2 registrations that never played (RULES.md §10).
    let mut f = tour(6);
    f.pairs[4].no_show = true;
    f.pairs[5].withdrawn_from_round = Some(1);
    add_round(
        &mut f,
        vec![T::Sheet(1, 1, 2, 600, 100), T::Sheet(2, 3, 4, 500, 300)],
        &[],
    );
    let s = run(&f);
    assert_eq!(s.entries, 4);
    // 4 × 20.00 × 70% = 56.00, not 6 × …
    assert_eq!(s.pool.to_string(), "56.00");
    assert_eq!(s.rows.len(), 4);
    assert_eq!(s.cards.len(), 4);
    assert!(s.row(5).is_none() && s.card(5).is_none());
    assert!(s.row(6).is_none() && s.card(6).is_none());
    // The places are those of the four entries: nobody is placed behind a
    // pair that never played.
    let places: Vec<u32> = s.rows.iter().map(|r| r.place).collect();
    assert_eq!(places, vec![1, 2, 3, 4]);
    let total: Decimal = s.prizes.iter().map(|p| p.amount).sum();
    assert_eq!(total, s.pool);

    // A no-show seated is a broken file, not a silent score.
    let mut g = f.clone();
    g.rounds[0].byes = vec![5];
    let problems = crate::tournament_file::validate(&g).err().unwrap();
    assert!(problems.iter().any(
        |p| p.code == crate::tournament_file::ProblemCode::PairNoShow && p.path == "rounds[0].bye"
    ));
    // Nor can one be penalised.
    let mut g = f.clone();
    penalty(&mut g, 1, 5, PenaltyKind::Warning, None);
    let problems = crate::tournament_file::validate(&g).err().unwrap();
    assert!(problems
        .iter()
        .any(|p| p.code == crate::tournament_file::ProblemCode::PairNoShow));

    // The file keeps the mark both ways.
    let json = to_json(&f).unwrap();
    assert!(json.contains("\"no_show\": true"));
    let back = crate::tournament_file::parse(&json).unwrap();
    assert!(back.pairs[4].no_show && !back.pairs[0].no_show);
    assert_eq!(run(&back).entries, 4);
}

#[test]
fn a_sheet_that_breaks_a_rule_is_an_error_a_wrong_total_is_not() {
    let mut f = tour(4);
    add_round(
        &mut f,
        vec![T::Sheet(1, 1, 2, 600, 100), T::Sheet(2, 3, 4, 300, 300)],
        &[],
    );
    // Wrong declared total only: the computed totals count.
    if let Some(s) = f.rounds[0].tables[0].sheet.as_mut() {
        s.declared = Some(crate::rules::score_sheet::PerLine { ns: 650, ew: 100 });
    }
    let s = run(&f);
    assert_eq!(s.row(1).map(|r| r.mp), Some(600));
    assert_eq!(s.declared_mismatches, vec![SheetRef { round: 1, table: 1 }]);
    assert!(s.card(1).unwrap().rounds[0].declared_mismatch);
    // A missing hand breaks a rule.
    if let Some(s) = f.rounds[0].tables[1].sheet.as_mut() {
        s.hands.pop();
    }
    match compute_file(&f, Lang::En) {
        Err(StandingsError::SheetRuleBroken(sheets)) => {
            assert_eq!(sheets.len(), 1);
            assert_eq!((sheets[0].round, sheets[0].table), (1, 2));
            assert_eq!(sheets[0].violations[0].code, ViolationCode::MissingHands);
            let lines = sheets[0].lines(Lang::En);
            assert!(lines[0].starts_with("Round 1, table 2"), "{}", lines[0]);
            assert!(lines[0].contains("MISSING_HANDS"));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn cli_json_is_exactly_the_format() {
    let mut f = tour(3);
    add_round(&mut f, vec![T::Sheet(1, 1, 2, 600, 100)], &[3]);
    let (code, out, err) = run_cli(&to_json(&f).unwrap(), Lang::En);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        out,
        concat!(
            r#"{"standings":["#,
            r#"{"place":1,"pair":1,"vp":14,"mp_diff":500,"mp":600,"played":1,"byes":0},"#,
            r#"{"place":2,"pair":3,"vp":14,"mp_diff":355,"mp":0,"played":0,"byes":1},"#,
            r#"{"place":3,"pair":2,"vp":6,"mp_diff":-500,"mp":100,"played":1,"byes":0}],"#,
            r#""pool":"42.00","prizes":[{"pair":1,"place":1,"amount":"25.20"},"#,
            r#"{"pair":3,"place":2,"amount":"16.80"}]}"#,
            "\n"
        )
    );
}

#[test]
fn cli_exit_codes() {
    let (code, out, err) = run_cli("{\"format\":", Lang::En);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("line 1"), "{err}");

    let mut f = tour(4);
    add_round(
        &mut f,
        vec![T::Sheet(1, 1, 2, 600, 100), T::Sheet(2, 3, 4, 300, 300)],
        &[],
    );
    let mut v: serde_json::Value = serde_json::from_str(&to_json(&f).unwrap()).unwrap();
    v["rounds"][0]["tables"][1]["ew"] = serde_json::json!("four");
    let (code, _, err) = run_cli(&v.to_string(), Lang::It);
    assert_eq!(code, 2);
    assert!(err.contains("rounds[0].tables[1].ew"), "{err}");

    v["rounds"][0]["tables"][1]["ew"] = serde_json::json!(1);
    let (code, _, err) = run_cli(&v.to_string(), Lang::En);
    assert_eq!(code, 2);
    assert!(
        err.contains("rounds[0].tables[1].ew: Pair 1 is already seated"),
        "{err}"
    );

    if let Some(s) = f.rounds[0].tables[1].sheet.as_mut() {
        s.hands[0].ns.melded_points = 12;
    }
    let (code, out, err) = run_cli(&to_json(&f).unwrap(), Lang::It);
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(err.contains("Turno 1, tavolo 2"), "{err}");
    assert!(err.contains("NOT_MULTIPLE_OF_5"), "{err}");
}

#[test]
fn a_sample_computes() {
    let f = sample_tournament(41, 5, 11);
    let s = run(&f);
    assert_eq!(s.rows.len(), 41);
    assert_eq!(s.cards.len(), 41);
    assert!(s.rows.iter().all(|r| r.played + r.byes <= 5));
    assert_eq!(s.rows.iter().map(|r| r.byes).sum::<u32>(), 5);
    let total: Decimal = s.prizes.iter().map(|p| p.amount).sum();
    assert_eq!(total, s.pool);
    let json: serde_json::Value = serde_json::from_str(&s.to_cli_json()).unwrap();
    assert_eq!(json["standings"].as_array().map(Vec::len), Some(41));
    // The full output serializes too (for the JSON API).
    assert!(serde_json::to_string(&s).is_ok());
}

#[test]
#[ignore]
fn bench_standings_300x8() {
    let file = sample_tournament(300, 8, 2026);
    let runs = 200;
    let mut best = f64::MAX;
    let mut best_all = f64::MAX;
    let mut total = 0.0;
    let mut bytes = 0;
    for _ in 0..runs {
        let t0 = Instant::now();
        let valid = validate(&file).unwrap();
        let t1 = Instant::now();
        let s = compute(&valid, Lang::It).unwrap();
        let json = s.to_cli_json();
        let t2 = Instant::now();
        bytes = json.len();
        let ms = (t2 - t1).as_secs_f64() * 1e3;
        total += ms;
        best = best.min(ms);
        best_all = best_all.min((t2 - t0).as_secs_f64() * 1e3);
    }
    let text = to_json(&file).unwrap();
    let t0 = Instant::now();
    let (code, _, _) = run_cli(&text, Lang::It);
    let cli = t0.elapsed().as_secs_f64() * 1e3;
    assert_eq!(code, 0);
    println!(
        "bench_standings_300x8: compute + to_cli_json best {best:.3} ms, mean {:.3} ms; \
         with validate best {best_all:.3} ms; run_cli on {} KB of JSON {cli:.3} ms; output {bytes} B",
        total / f64::from(runs),
        text.len() / 1024
    );
}
