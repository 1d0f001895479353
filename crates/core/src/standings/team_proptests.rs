//! Property tests over generated team tournaments (kept small: a few
//! seconds in a debug build).

use super::teams::{compute_teams_file, MatchOutcome};
use crate::i18n::Lang;
use crate::tournament_file::fixtures::sample_team_tournament;
use crate::tournament_file::{parse_teams, teams_to_json, TeamScoringFile};
use proptest::prelude::*;
use rust_decimal::Decimal;
use std::collections::HashSet;

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn team_standings_hold_their_invariants(
        teams in 0usize..11, rounds in 0usize..7, seed in any::<u64>(), scale in any::<bool>(),
    ) {
        let mut file = sample_team_tournament(teams, rounds, seed);
        if scale {
            file.team_scoring = TeamScoringFile::Scale {
                scale: vec![100, 300, 500, 700, 1000, 1300, 1600, 2000, 2500, 3000],
            };
        }
        let total = if scale { 20 } else { 40 };
        let s = match compute_teams_file(&file, Lang::En) {
            Ok(s) => s,
            Err(e) => return Err(TestCaseError::fail(e.message(Lang::En))),
        };

        for (round, results) in file.rounds.iter().zip(&s.rounds) {
            // No team twice in a round.
            let mut seen = HashSet::new();
            for m in &round.matches {
                prop_assert!(seen.insert(m.home) && seen.insert(m.away));
            }
            for b in &round.byes {
                prop_assert!(seen.insert(*b));
            }
            // Match VP add up to 40 (tables) or 20 (scale) without an
            // adjusted table, whatever the MP penalties.
            for (m, r) in round.matches.iter().zip(&results.matches) {
                prop_assert!(r.complete);
                let adjusted = m.tables.iter().any(|t| t.adjusted.is_some());
                let (Some(h), Some(a)) = (r.home_vp, r.away_vp) else {
                    return Err(TestCaseError::fail("a complete match without VP"));
                };
                if !adjusted {
                    prop_assert_eq!(h + a, total);
                    prop_assert_eq!(r.home_mp_diff.map(|d| -d), r.away_mp_diff);
                    for t in &r.tables {
                        prop_assert_eq!(t.ns_vp.zip(t.ew_vp).map(|(x, y)| x + y), Some(20));
                    }
                }
                prop_assert!((0..=total).contains(&h) && (0..=total).contains(&a));
            }
        }

        // A permutation of the teams, places 1, 2, 2, 4…
        let mut listed: Vec<u32> = s.rows.iter().map(|r| r.team).collect();
        let mut registered: Vec<u32> = file.teams.iter().map(|t| t.number).collect();
        listed.sort_unstable();
        registered.sort_unstable();
        prop_assert_eq!(listed, registered);
        for (i, row) in s.rows.iter().enumerate() {
            let position = u32::try_from(i + 1).unwrap_or(u32::MAX);
            match i.checked_sub(1).and_then(|j| s.rows.get(j)) {
                None => prop_assert_eq!(row.place, 1),
                Some(prev) => {
                    prop_assert!(row.place == prev.place || row.place == position);
                    prop_assert!((prev.vp, prev.mp_diff, prev.mp) >= (row.vp, row.mp_diff, row.mp));
                }
            }
        }

        // Every round is a match or a rest; VP = the card's minus penalties.
        for row in &s.rows {
            let card = s.card(row.team).map(|c| {
                prop_assert!(c.rounds.iter().all(|r| matches!(r.outcome, MatchOutcome::Played | MatchOutcome::Bye)));
                Ok(c.rounds.iter().filter_map(|r| r.vp).sum::<i64>())
            });
            let sum = match card {
                Some(r) => r?,
                None => return Err(TestCaseError::fail("a row without a card")),
            };
            prop_assert_eq!(sum, row.vp + row.penalty_vp);
            prop_assert_eq!(row.played + row.byes, u32::try_from(file.rounds.len()).unwrap_or(0));
        }

        // The prizes add up to the pool; each splits among its players.
        if !file.teams.is_empty() {
            let paid: Decimal = s.prizes.iter().map(|p| p.amount).sum();
            prop_assert_eq!(paid, s.pool);
            for p in &s.prizes {
                prop_assert_eq!(p.per_player.iter().copied().sum::<Decimal>(), p.amount);
            }
        }
    }

    #[test]
    fn team_export_import_export_is_stable(teams in 0usize..9, rounds in 0usize..5, seed in any::<u64>()) {
        let file = sample_team_tournament(teams, rounds, seed);
        let text = teams_to_json(&file).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let again = match parse_teams(&text) {
            Ok(f) => f,
            Err(e) => return Err(TestCaseError::fail(e.to_string())),
        };
        prop_assert_eq!(&again, &file);
        prop_assert_eq!(teams_to_json(&again).map_err(|e| TestCaseError::fail(e.to_string()))?, text);
    }
}
