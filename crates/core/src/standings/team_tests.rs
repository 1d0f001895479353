use super::*;
use crate::i18n::Lang;
use crate::movement::teams::{
    default_lineup, round_robin, round_robin_groups, seat_match, split_into_groups,
    team_danish_round, team_entries_from_history, TeamRoundPlan,
};
use crate::rules::score_sheet::Line;
use crate::rules::score_sheet::{Hand, HandEnd, LineHand, PerLine};
use crate::tournament_file::fixtures::{sample_team_tournament, simple_sheet, team};
use crate::tournament_file::PenaltyKind;
use crate::tournament_file::{
    parse_teams, teams_to_json, Adjusted, LineRef, MatchFile, MatchTableFile, PayoutTierFile,
    SheetFile, TeamMovementKind, TeamPenaltyFile, TeamRoundFile, TeamScoringFile,
    TeamTournamentFile,
};
use rust_decimal::Decimal;

/// Teams of the given sizes, numbered 1…; fee 80.00, 70% share, 60/40.
fn tour(sizes: &[usize]) -> TeamTournamentFile {
    let mut f = TeamTournamentFile::new(
        "Prova a squadre",
        chrono::NaiveDate::from_ymd_opt(2026, 11, 21).unwrap(),
    );
    (f.entry_fee, f.prize_share_percent, f.payout) = super::test_kit::sixty_forty(8000);
    f.teams = sizes
        .iter()
        .enumerate()
        .map(|(i, &s)| team(u32::try_from(i + 1).unwrap(), s))
        .collect();
    f
}

/// The team scale of the tests (twice the 3-hand pairs' scale).
fn team_scale() -> Vec<i64> {
    vec![100, 300, 500, 700, 1000, 1300, 1600, 2000, 2500, 3000]
}

#[derive(Clone)]
enum T {
    /// NS MP, EW MP.
    Sheet(i64, i64),
    /// NS VP, EW VP.
    Adj(i64, i64),
    Open,
}

/// Adds a round: per match (home, away, [first table, second table]); at
/// the first table home NS (players 0,1) v away EW (0,1), at the second
/// away NS (2,3) v home EW (2,3); match m at tables 2m − 1, 2m.
fn add_round(f: &mut TeamTournamentFile, matches: &[(u32, u32, [T; 2])], byes: &[u32]) {
    let number = u32::try_from(f.rounds.len() + 1).unwrap();
    let table = |n: u32, ns: LineRef, ew: LineRef, t: &T| MatchTableFile {
        table: n,
        ns,
        ew,
        sheet: match t {
            T::Sheet(a, b) => Some(simple_sheet(*a, *b, 3)),
            _ => None,
        },
        adjusted: match t {
            T::Adj(a, b) => Some(Adjusted {
                ns_vp: *a,
                ew_vp: *b,
                ns_mp_diff: None,
                ew_mp_diff: None,
            }),
            _ => None,
        },
    };
    let line = |team: u32, players: [u32; 2]| LineRef { team, players };
    let matches = matches
        .iter()
        .enumerate()
        .map(|(m, (home, away, [t1, t2]))| {
            let first = u32::try_from(2 * m + 1).unwrap();
            MatchFile {
                home: *home,
                away: *away,
                group: None,
                tables: vec![
                    table(first, line(*home, [0, 1]), line(*away, [0, 1]), t1),
                    table(first + 1, line(*away, [2, 3]), line(*home, [2, 3]), t2),
                ],
            }
        })
        .collect();
    f.rounds.push(TeamRoundFile {
        number,
        movement: Some(TeamMovementKind::RoundRobin),
        matches,
        byes: byes.to_vec(),
    });
}

fn penalty(
    f: &mut TeamTournamentFile,
    round: u32,
    team: u32,
    table: Option<u32>,
    kind: PenaltyKind,
    amount: Option<i64>,
) -> usize {
    f.penalties.push(TeamPenaltyFile {
        round,
        team,
        table,
        kind,
        amount,
        reason: format!("{kind} to team {team}"),
        withdrawn: false,
        by: None,
        at: None,
        withdrawn_by: None,
        withdrawn_at: None,
        withdrawn_reason: String::new(),
    });
    f.penalties.len() - 1
}

fn standings(f: &TeamTournamentFile) -> TeamStandings {
    match compute_teams_file(f, Lang::En) {
        Ok(s) => s,
        Err(e) => panic!("{}", e.message(Lang::En)),
    }
}

fn one_match() -> TeamTournamentFile {
    let mut f = tour(&[4, 4]);
    // Table 1: home +400 → 14–6. Table 2: away (NS) 460 v home 300 → 12–8.
    add_round(
        &mut f,
        &[(1, 2, [T::Sheet(900, 500), T::Sheet(460, 300)])],
        &[],
    );
    f
}

#[test]
fn tables_method_sums_the_tables_vp() {
    let s = standings(&one_match());
    let (a, b) = (s.row(1).unwrap(), s.row(2).unwrap());
    assert_eq!((a.vp, a.mp_diff, a.mp, a.played), (22, 240, 1200, 1));
    assert_eq!((b.vp, b.mp_diff, b.mp, b.played), (18, -240, 960, 1));
    assert_eq!((a.place, b.place), (1, 2));
    assert_eq!((s.scoring(), s.match_vp()), ("tables", 40));
    let m = s.match_of(1, 2).unwrap();
    assert!(m.complete);
    assert_eq!((m.home_vp, m.away_vp), (Some(22), Some(18)));
    assert_eq!(m.tables[0].ns_vp, Some(14));
    assert_eq!((m.tables[1].ns_vp, m.tables[1].ew_vp), (Some(12), Some(8)));
    assert_eq!(
        (m.tables[1].ns_mp_diff, m.tables[1].ew_mp_diff),
        (160, -160)
    );
    // The card: the line-up and each table from the team's side.
    let c = &s.card(1).unwrap().rounds[0];
    assert_eq!(c.outcome, MatchOutcome::Played);
    assert_eq!(
        (c.opponent, c.home, c.vp, c.opponent_vp),
        (Some(2), Some(true), Some(22), Some(18))
    );
    assert_eq!(c.tables[0].line, Line::Ns);
    assert_eq!(c.tables[1].line, Line::Ew);
    assert_eq!(c.tables[1].players, [2, 3]);
    assert_eq!(
        (c.tables[1].mp_for, c.tables[1].mp_against),
        (Some(300), Some(460))
    );
    assert_eq!((c.tables[1].vp, c.tables[1].mp_diff), (Some(8), -160));
    assert_eq!((c.mp_diff, c.mp), (240, 1200));
}

#[test]
fn scale_method_converts_the_sum_on_the_team_scale() {
    let mut f = one_match();
    f.team_scoring = TeamScoringFile::Scale {
        scale: team_scale(),
    };
    let s = standings(&f);
    // +400 − 160 = +240 → 11–9.
    assert_eq!((s.row(1).unwrap().vp, s.row(2).unwrap().vp), (11, 9));
    assert_eq!(s.row(1).unwrap().mp_diff, 240);
    assert_eq!((s.scoring(), s.match_vp()), ("scale", 20));
    // The tables still show the pairs' VP.
    assert_eq!(s.match_of(1, 1).unwrap().tables[0].ns_vp, Some(14));
}

#[test]
fn a_resting_team_scores_the_team_bye_award() {
    let mut f = tour(&[4, 4, 5]);
    add_round(
        &mut f,
        &[(1, 2, [T::Sheet(900, 500), T::Sheet(460, 300)])],
        &[3],
    );
    let s = standings(&f);
    let r = s.row(3).unwrap();
    assert_eq!(
        (r.vp, r.mp_diff, r.mp, r.byes, r.played),
        (28, 710, 0, 1, 0)
    );
    assert_eq!(r.place, 1);
    let c = &s.card(3).unwrap().rounds[0];
    assert_eq!(
        (c.outcome, c.vp, c.mp_diff),
        (MatchOutcome::Bye, Some(28), 710)
    );
    assert_eq!(s.rounds()[0].byes, vec![3]);
    // The file's award; on 4 hands the band edges move.
    f.team_bye_vp = Some(30);
    assert_eq!(s_row(&f, 3), (30, 1010));
    f.team_bye_vp = None;
    f.hands_per_round = 4;
    f.rounds[0].matches[0].tables[0].sheet = Some(simple_sheet(900, 500, 4));
    f.rounds[0].matches[0].tables[1].sheet = Some(simple_sheet(460, 300, 4));
    assert_eq!(s_row(&f, 3), (28, 1410));
    // Under `scale`: the pairs' award, its band edge on the team scale.
    f.hands_per_round = 3;
    f.rounds[0].matches[0].tables[0].sheet = Some(simple_sheet(900, 500, 3));
    f.rounds[0].matches[0].tables[1].sheet = Some(simple_sheet(460, 300, 3));
    f.team_scoring = TeamScoringFile::Scale {
        scale: team_scale(),
    };
    assert_eq!(s_row(&f, 3), (14, 705));
}

fn s_row(f: &TeamTournamentFile, team: u32) -> (i64, i64) {
    let s = standings(f);
    let r = s.row(team).unwrap();
    (r.vp, r.mp_diff)
}

#[test]
fn mp_penalty_reduces_one_table_before_its_conversion() {
    let mut f = one_match();
    let k = penalty(&mut f, 1, 1, Some(1), PenaltyKind::Mp, Some(100));
    let s = standings(&f);
    // Table 1: 800 v 500 → +300 → 13–7; table 2 unchanged 8–12.
    let (a, b) = (s.row(1).unwrap(), s.row(2).unwrap());
    assert_eq!((a.vp, b.vp), (21, 19), "the two still add up to 40");
    assert_eq!((a.mp_diff, a.mp), (140, 1100));
    assert_eq!((b.mp_diff, b.mp), (-140, 960), "the opponents' MP stay");
    let m = s.match_of(1, 1).unwrap();
    assert_eq!(m.tables[0].ns_mp, Some(800));
    assert_eq!(m.tables[0].ns_mp_penalty, 100);
    assert_eq!((m.tables[0].ns_vp, m.tables[0].ew_vp), (Some(13), Some(7)));
    assert_eq!(m.tables[0].penalties, vec![k]);
    assert!(m.tables[1].penalties.is_empty());
    let c = &s.card(1).unwrap().rounds[0];
    assert_eq!(c.tables[0].mp_penalty, 100);
    assert!(c.penalties[0].counts);
    // On the second table (team 1 EW there: 300 → 200): away +260 → 13–7.
    let mut f = one_match();
    penalty(&mut f, 1, 1, Some(2), PenaltyKind::Mp, Some(100));
    let s = standings(&f);
    assert_eq!(
        (s.row(1).unwrap().vp, s.row(2).unwrap().vp),
        (14 + 7, 6 + 13)
    );
    assert_eq!(s.match_of(1, 1).unwrap().tables[1].ew_mp_penalty, 100);
    // Under `scale` the team sum follows: +300 − 160 − 300 → −160 → 9–11.
    let mut f = one_match();
    f.team_scoring = TeamScoringFile::Scale {
        scale: team_scale(),
    };
    penalty(&mut f, 1, 1, Some(1), PenaltyKind::Mp, Some(100));
    penalty(&mut f, 1, 1, Some(2), PenaltyKind::Mp, Some(300));
    let s = standings(&f);
    assert_eq!((s.row(1).unwrap().vp, s.row(2).unwrap().vp), (9, 11));
    assert_eq!(s.row(1).unwrap().mp_diff, -160);
    // Withdrawn: nothing.
    let mut f = one_match();
    let k = penalty(&mut f, 1, 1, Some(1), PenaltyKind::Mp, Some(100));
    f.penalties[k].withdrawn = true;
    let s = standings(&f);
    assert_eq!(s.row(1).unwrap().vp, 22);
    assert!(!s.card(1).unwrap().rounds[0].penalties[0].counts);
    assert_eq!(s.match_of(1, 1).unwrap().tables[0].penalties, vec![k]);
}

#[test]
fn vp_penalties_and_every_second_warning() {
    let mut f = one_match();
    penalty(&mut f, 1, 2, None, PenaltyKind::Vp, Some(2));
    let s = standings(&f);
    let b = s.row(2).unwrap();
    assert_eq!((b.vp, b.penalty_vp), (16, 2));
    assert_eq!(s.card(2).unwrap().rounds[0].vp, Some(18), "match VP stay");
    assert_eq!(s.row(1).unwrap().vp, 22, "the opponents gain nothing");

    let mut f = one_match();
    add_round(
        &mut f,
        &[(2, 1, [T::Sheet(500, 500), T::Sheet(500, 500)])],
        &[],
    );
    penalty(&mut f, 1, 2, Some(1), PenaltyKind::Warning, None);
    let w = penalty(&mut f, 1, 2, None, PenaltyKind::Warning, None);
    f.penalties[w].withdrawn = true;
    penalty(&mut f, 2, 2, None, PenaltyKind::Warning, None);
    penalty(&mut f, 2, 2, Some(2), PenaltyKind::Warning, None);
    penalty(&mut f, 2, 1, None, PenaltyKind::Warning, None);
    let s = standings(&f);
    // Team 2: warnings 1 (round 1), 2 and 3 (round 2): −1 at the 2nd.
    let b = s.row(2).unwrap();
    assert_eq!((b.vp, b.penalty_vp), (18 + 20 - 1, 1));
    let r2 = &s.card(2).unwrap().rounds[1];
    assert_eq!(r2.penalty_vp, 1);
    assert_eq!(r2.penalties.len(), 3, "warning, its automatic −1, warning");
    assert!(r2.penalties[1].automatic);
    assert_eq!(r2.penalties[0].warning_no, Some(2));
    assert_eq!(r2.penalties[2].warning_no, Some(3));
    assert_eq!(s.row(1).unwrap().penalty_vp, 0, "one warning costs nothing");
    // A fourth warning: −1 more.
    penalty(&mut f, 2, 2, None, PenaltyKind::Warning, None);
    assert_eq!(standings(&f).row(2).unwrap().penalty_vp, 2);
}

#[test]
fn adjusted_tables() {
    let mut f = tour(&[4, 4]);
    add_round(&mut f, &[(1, 2, [T::Adj(14, 6), T::Sheet(460, 300)])], &[]);
    let s = standings(&f);
    let (a, b) = (s.row(1).unwrap(), s.row(2).unwrap());
    assert_eq!((a.vp, b.vp), (14 + 8, 6 + 12));
    assert_eq!((a.mp_diff, a.mp), (-160, 300));
    assert_eq!((b.mp_diff, b.mp), (160, 460));
    let m = s.match_of(1, 1).unwrap();
    assert_eq!(m.tables[0].outcome, Outcome::Adjusted);
    assert!(s.card(1).unwrap().rounds[0].tables[0].adjusted);
    // An MP penalty on the adjusted table changes nothing.
    penalty(&mut f, 1, 1, Some(1), PenaltyKind::Mp, Some(200));
    assert_eq!(standings(&f).row(1).unwrap().vp, 22);
    // `scale`: the adjusted 14 counts +355, 6 counts −355: home +195 → 11.
    f.penalties.clear();
    f.team_scoring = TeamScoringFile::Scale {
        scale: team_scale(),
    };
    let s = standings(&f);
    assert_eq!((s.row(1).unwrap().vp, s.row(2).unwrap().vp), (11, 9));
    assert_eq!(
        s.row(1).unwrap().mp_diff,
        -160,
        "the standings' MP difference is the pairs' one"
    );
    // Both lines punished (6 and 6): each side −355 ± 160.
    f.rounds[0].matches[0].tables[0].adjusted = Some(Adjusted {
        ns_vp: 6,
        ew_vp: 6,
        ns_mp_diff: None,
        ew_mp_diff: None,
    });
    let s = standings(&f);
    // Home −355 − 160 = −515 → 7; away −355 + 160 = −195 → 9.
    assert_eq!((s.row(1).unwrap().vp, s.row(2).unwrap().vp), (7, 9));
}

#[test]
fn head_to_head_decides_two_tied_teams_that_met() {
    let mut f = tour(&[4, 4, 4, 4]);
    add_round(
        &mut f,
        &[
            (1, 2, [T::Adj(12, 8), T::Adj(10, 10)]),
            (3, 4, [T::Adj(10, 10), T::Adj(10, 10)]),
        ],
        &[],
    );
    add_round(
        &mut f,
        &[
            (1, 3, [T::Adj(9, 11), T::Adj(11, 9)]),
            (2, 4, [T::Adj(11, 9), T::Adj(9, 11)]),
        ],
        &[],
    );
    let s = standings(&f);
    let order: Vec<(u32, u32, i64)> = s.rows.iter().map(|r| (r.number, r.place, r.vp)).collect();
    assert_eq!(order, vec![(3, 1, 42), (1, 2, 40), (2, 3, 40), (4, 4, 38)]);
    let t = s.row(1).unwrap().tie_break.clone().unwrap();
    assert_eq!((t.other, t.vp_for, t.vp_against, t.won), (2, 22, 18, true));
    assert!(
        t.note.contains("Team 1") && t.note.contains("team 2"),
        "{}",
        t.note
    );
    assert!(!s.row(2).unwrap().tie_break.clone().unwrap().won);
    let it = compute_teams_file(&f, Lang::It).unwrap();
    assert!(it
        .row(1)
        .unwrap()
        .tie_break
        .clone()
        .unwrap()
        .note
        .contains("squadra"));
    // A drawn meeting: still tied → shared place.
    f.rounds[0].matches[0].tables[0].adjusted = Some(Adjusted {
        ns_vp: 10,
        ns_mp_diff: None,
        ew_vp: 10,
        ew_mp_diff: None,
    });
    f.rounds[0].matches[1].tables[0].adjusted = Some(Adjusted {
        ns_vp: 8,
        ns_mp_diff: None,
        ew_vp: 12,
        ew_mp_diff: None,
    });
    let s = standings(&f);
    let order: Vec<(u32, u32)> = s.rows.iter().map(|r| (r.number, r.place)).collect();
    // 1: 20 + 18 = 38, 2: 20 + 22 = 42, 3: 18 + 22 = 40, 4: 22 + 18 = 40.
    // 3 and 4 met in round 1: 18 v 22 → 4 first.
    assert_eq!(order, vec![(2, 1), (4, 2), (3, 3), (1, 4)]);
    // Three tied teams share the place.
    let mut f = tour(&[4, 4, 4]);
    add_round(&mut f, &[(1, 2, [T::Adj(10, 10), T::Adj(10, 10)])], &[3]);
    f.team_bye_vp = Some(20);
    f.rounds[0].matches[0].tables[0].adjusted = Some(Adjusted {
        ns_vp: 10,
        ew_vp: 10,
        ns_mp_diff: None,
        ew_mp_diff: None,
    });
    let s = standings(&f);
    // 3 rests with 20 VP but the bye's MP difference (0 for 20 = 10 + 10).
    let places: Vec<u32> = s.rows.iter().map(|r| r.place).collect();
    assert_eq!(places, vec![1, 1, 1]);
    assert!(s.rows.iter().all(|r| r.tie_break.is_none()));
}

#[test]
fn a_match_counts_once_both_tables_are_scored() {
    let mut f = tour(&[4, 4]);
    add_round(&mut f, &[(1, 2, [T::Sheet(900, 500), T::Open])], &[]);
    let s = standings(&f);
    assert_eq!(s.row(1).unwrap().played, 0);
    assert_eq!(s.row(1).unwrap().vp, 0);
    let m = s.match_of(1, 1).unwrap();
    assert!(!m.complete);
    assert_eq!(m.home_vp, None);
    assert_eq!(m.tables[0].ns_vp, Some(14), "the scored table shows");
    assert_eq!(m.tables[1].outcome, Outcome::Pending);
    let c = &s.card(2).unwrap().rounds[0];
    assert_eq!((c.outcome, c.vp), (MatchOutcome::Pending, None));
    assert_eq!(c.tables[0].vp, Some(6));
}

#[test]
fn a_team_withdrawn_mid_tournament_keeps_what_it_played() {
    let mut f = tour(&[4, 4, 4, 4]);
    add_round(
        &mut f,
        &[
            (1, 2, [T::Sheet(900, 500), T::Sheet(460, 300)]),
            (3, 4, [T::Sheet(500, 700), T::Sheet(500, 500)]),
        ],
        &[],
    );
    f.teams[3].withdrawn_from_round = Some(2);
    // Round 2 of the round robin without team 4: its opponent rests.
    let plan = crate::movement::teams::drop_withdrawn(
        &TeamRoundPlan {
            round: 2,
            matches: vec![
                crate::movement::teams::TeamMatch {
                    home: 1,
                    away: 3,
                    group: None,
                    tables: [1, 2],
                },
                crate::movement::teams::TeamMatch {
                    home: 4,
                    away: 2,
                    group: None,
                    tables: [3, 4],
                },
            ],
            byes: vec![],
        },
        &[4],
    );
    assert_eq!(plan.byes, vec![2]);
    add_round(
        &mut f,
        &[(1, 3, [T::Sheet(500, 500), T::Sheet(500, 500)])],
        &plan.byes,
    );
    let s = standings(&f);
    let r = s.row(4).unwrap();
    assert!(r.withdrawn);
    assert_eq!((r.played, r.vp), (1, 12 + 10));
    assert_eq!(s.card(4).unwrap().rounds[1].outcome, MatchOutcome::Absent);
    assert_eq!(s.entries, 4);
    assert_eq!(s.row(2).unwrap().byes, 1);
    // A no-show team is no entry: no row, no card, no share.
    let mut f = f.clone();
    f.teams.push(team(5, 4));
    f.teams[4].no_show = true;
    let s = standings(&f);
    assert_eq!(s.entries, 4);
    assert!(s.row(5).is_none() && s.card(5).is_none());
}

#[test]
fn prizes_count_teams_as_entries() {
    let mut f = tour(&[4, 5, 4, 6]);
    add_round(
        &mut f,
        &[
            (2, 1, [T::Sheet(900, 500), T::Sheet(460, 300)]),
            (4, 3, [T::Sheet(700, 500), T::Sheet(500, 500)]),
        ],
        &[],
    );
    let s = standings(&f);
    assert_eq!(s.entries, 4);
    assert_eq!(s.pool.to_string(), "224.00");
    assert_eq!(s.organiser_fee.to_string(), "96.00");
    let first = s.prize(2).unwrap();
    assert_eq!(
        (first.place, first.amount.to_string()),
        (1, "134.40".into())
    );
    assert_eq!(first.per_player.len(), 5);
    assert!(first.per_player.iter().all(|p| p.to_string() == "26.88"));
    let second = s.prize(4).unwrap();
    assert_eq!(second.amount.to_string(), "89.60");
    let split: Vec<String> = second.per_player.iter().map(|p| p.to_string()).collect();
    assert_eq!(
        split,
        vec!["14.94", "14.94", "14.93", "14.93", "14.93", "14.93"]
    );
    assert_eq!(
        second.per_player.iter().copied().sum::<Decimal>(),
        second.amount
    );
    // Tied on first: the two share 60% + 40%.
    let mut f = tour(&[4, 4, 4]);
    add_round(&mut f, &[(1, 2, [T::Adj(10, 10), T::Adj(10, 10)])], &[3]);
    f.team_bye_vp = Some(20);
    f.payout = vec![PayoutTierFile {
        min_entries: 1,
        scheme: vec![Decimal::from(60), Decimal::from(40)],
    }];
    let s = standings(&f);
    assert_eq!(s.rows.iter().filter(|r| r.place == 1).count(), 3);
    let total: Decimal = s.prizes.iter().map(|p| p.amount).sum();
    assert_eq!(total, s.pool);
    assert!(s.prizes.iter().all(|p| p.amount == s.prizes[0].amount));
}

#[test]
fn groups_then_danish() {
    // 8 teams in 2 groups of 4: 3 round-robin rounds, then one Danish.
    let numbers: Vec<u32> = (1..=8).collect();
    let mut f = tour(&[4, 5, 6, 4, 4, 5, 6, 4]);
    let groups = split_into_groups(&numbers, 2).unwrap();
    let plans = round_robin_groups(&groups, 1).unwrap();
    assert_eq!(plans.len(), 3);
    let play = |f: &mut TeamTournamentFile, plan: &TeamRoundPlan, movement, k: i64| {
        let matches = plan
            .matches
            .iter()
            .enumerate()
            .map(|(i, g)| {
                let lineup = |t: u32| default_lineup(None, f.teams[t as usize - 1].players.len());
                let mut m = seat_match(g, &lineup(g.home), &lineup(g.away));
                let i = i64::try_from(i).unwrap();
                m.tables[0].sheet = Some(simple_sheet(300 + 100 * ((i + k) % 7), 400, 3));
                m.tables[1].sheet = Some(simple_sheet(500, 200 + 150 * ((i * k) % 5), 3));
                m
            })
            .collect();
        f.rounds.push(TeamRoundFile {
            number: plan.round,
            movement: Some(movement),
            matches,
            byes: plan.byes.clone(),
        });
    };
    for (k, p) in plans.iter().enumerate() {
        play(
            &mut f,
            p,
            TeamMovementKind::RoundRobin,
            i64::try_from(k).unwrap(),
        );
    }
    let s = standings(&f);
    assert!(s.rows.iter().all(|r| r.played == 3));
    assert_eq!(s.rounds()[0].matches[0].group.as_deref(), Some("A"));
    // Danish: by the standings, never a team already met.
    let ranking: Vec<u32> = s.rows.iter().map(|r| r.number).collect();
    let history: Vec<TeamRoundPlan> = f.rounds.iter().map(TeamRoundPlan::from_file).collect();
    let entries = team_entries_from_history(&ranking, &history);
    let d = team_danish_round(4, &entries).unwrap();
    assert!(d.rematches.is_empty());
    let group_of = |t: u32| groups.iter().position(|g| g.teams.contains(&t));
    for m in &d.plan.matches {
        assert_ne!(
            group_of(m.home),
            group_of(m.away),
            "all in-group opponents met"
        );
    }
    let top = ranking[0];
    let best = ranking[1..]
        .iter()
        .copied()
        .find(|&t| group_of(t) != group_of(top))
        .unwrap();
    assert_eq!(d.plan.opponent(top), Some(best));
    play(&mut f, &d.plan, TeamMovementKind::Danish, 4);
    let s = standings(&f);
    assert!(s.rows.iter().all(|r| r.played == 4));
}

#[test]
fn danish_after_a_complete_round_robin() {
    // 5 teams: 5 round-robin rounds (each rests once), then Danish.
    let mut f = tour(&[4; 5]);
    let plans = round_robin(&[1, 2, 3, 4, 5], 1).unwrap();
    for (k, p) in plans.iter().enumerate() {
        let k = i64::try_from(k).unwrap();
        let matches: Vec<(u32, u32, [T; 2])> = p
            .matches
            .iter()
            .map(|m| {
                let edge = i64::from(m.home) * 100 - i64::from(m.away) * 40 + k * 15;
                (
                    m.home,
                    m.away,
                    [T::Sheet(600 + edge, 500), T::Sheet(500, 450)],
                )
            })
            .collect();
        add_round(&mut f, &matches, &p.byes);
    }
    let s = standings(&f);
    assert!(s.rows.iter().all(|r| r.played == 4 && r.byes == 1));
    let ranking: Vec<u32> = s.rows.iter().map(|r| r.number).collect();
    let history: Vec<TeamRoundPlan> = f.rounds.iter().map(TeamRoundPlan::from_file).collect();
    let d = team_danish_round(6, &team_entries_from_history(&ranking, &history)).unwrap();
    assert_eq!(
        d.plan.byes,
        vec![ranking[4]],
        "all rested once: the last rests"
    );
    assert_eq!(d.rematches.len(), 2, "everyone has met everyone");
    let last = &history[4];
    for m in &d.plan.matches {
        assert_ne!(
            last.opponent(m.home),
            Some(m.away),
            "not the previous opponent"
        );
    }
}

#[test]
fn declared_totals_that_are_wrong_are_flagged_not_fatal() {
    let mut f = one_match();
    if let Some(sheet) = f.rounds[0].matches[0].tables[1].sheet.as_mut() {
        sheet.declared = Some(PerLine { ns: 465, ew: 300 });
    }
    let s = standings(&f);
    assert_eq!(s.declared_mismatches, vec![SheetRef { round: 1, table: 2 }]);
    assert!(s.match_of(1, 1).unwrap().tables[1].declared_mismatch);
    assert!(s.card(2).unwrap().rounds[0].tables[1].declared_mismatch);
    assert_eq!(s.row(1).unwrap().vp, 22);
}

fn broken_sheet() -> SheetFile {
    let mut s = simple_sheet(460, 300, 3);
    s.hands[0] = Hand {
        end: HandEnd::Closure,
        ns: LineHand {
            melded_points: 103,
            took_pozzetto: true,
            ..LineHand::default()
        },
        ew: LineHand::default(),
    };
    s
}

#[test]
fn the_cli_prints_team_standings_as_format_md_shows() {
    let text = teams_to_json(&one_match()).unwrap();
    let (code, out, err) = run_cli(&text, Lang::En);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        out,
        "{\"standings\":[\
         {\"place\":1,\"team\":1,\"vp\":22,\"mp_diff\":240,\"mp\":1200,\"played\":1,\"byes\":0},\
         {\"place\":2,\"team\":2,\"vp\":18,\"mp_diff\":-240,\"mp\":960,\"played\":1,\"byes\":0}],\
         \"pool\":\"112.00\",\
         \"prizes\":[{\"team\":1,\"place\":1,\"amount\":\"67.20\"},{\"team\":2,\"place\":2,\"amount\":\"44.80\"}]}\n"
    );
    // A broken sheet: exit 1, its round, table and teams named.
    let mut f = one_match();
    f.rounds[0].matches[0].tables[1].sheet = Some(broken_sheet());
    let (code, out, err) = run_cli(&teams_to_json(&f).unwrap(), Lang::En);
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(
        err.contains("Round 1, table 2 (NS team 2, EW team 1)"),
        "{err}"
    );
    assert!(err.contains("NOT_MULTIPLE_OF_5"), "{err}");
    let (_, _, err_it) = run_cli(&teams_to_json(&f).unwrap(), Lang::It);
    assert!(
        err_it.contains("Turno 1, tavolo 2 (NS squadra 2, EO squadra 1)"),
        "{err_it}"
    );
    match compute_teams_file(&f, Lang::En) {
        Err(e @ StandingsError::SheetRuleBroken(_)) => {
            assert_eq!((e.code(), e.exit_code()), ("sheet_rule_broken", 1));
        }
        other => panic!("{other:?}"),
    }
    // An invalid file: the place named, as for pairs (exit 2).
    let mut f = one_match();
    f.teams[0].players.pop();
    let (code, _, err) = run_cli(&teams_to_json(&f).unwrap(), Lang::En);
    assert_eq!(code, 2);
    assert!(err.contains("teams[0].players: "), "{err}");
    let (code, _, err) = run_cli("{\"kind\": \"teams\", \"format\": 1}", Lang::En);
    assert_eq!(code, 2);
    assert!(err.contains("format"), "{err}");
    // Pairs files go on as before.
    let pairs = crate::tournament_file::to_json(
        &crate::tournament_file::fixtures::sample_tournament(6, 2, 1),
    )
    .unwrap();
    let (code, out, _) = run_cli(&pairs, Lang::En);
    assert_eq!(code, 0);
    assert!(out.contains("\"pair\":"), "{out}");
}

#[test]
fn export_import_gives_the_same_standings_and_text() {
    for (teams, rounds, seed) in [(5, 5, 1), (8, 9, 2), (12, 4, 3)] {
        let file = sample_team_tournament(teams, rounds, seed);
        let text = teams_to_json(&file).unwrap();
        let again = parse_teams(&text).unwrap();
        assert_eq!(teams_to_json(&again).unwrap(), text);
        assert_eq!(standings(&again), standings(&file));
        let s = standings(&file);
        assert_eq!(s.rows.len(), teams);
        assert!(s
            .rows
            .iter()
            .all(|r| r.played + r.byes == u32::try_from(rounds).unwrap()));
    }
}
