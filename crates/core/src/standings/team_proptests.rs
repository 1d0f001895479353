//! Property tests over generated team tournaments (kept small: a few
//! seconds in a debug build).

use super::teams::{compute_teams_file, MatchOutcome};
use crate::i18n::Lang;
use crate::tournament_file::fixtures::sample_team_tournament;
use crate::tournament_file::{parse_teams, teams_to_json, TeamScoringFile};
use proptest::prelude::*;
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

        for (round, results) in file.rounds.iter().zip(s.rounds()) {
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

        // Every round is a match or a rest.
        for row in &s.rows {
            let Some(c) = s.card(row.number) else {
                return Err(TestCaseError::fail("a row without a card"));
            };
            prop_assert!(c.rounds.iter().all(|r| matches!(r.outcome, MatchOutcome::Played | MatchOutcome::Bye)));
            prop_assert_eq!(row.played + row.byes, u32::try_from(file.rounds.len()).unwrap_or(0));
        }

        // A permutation of the teams, places 1, 2, 2, 4…; the prizes add
        // up to the pool, each split among its players; VP = the card's
        // minus penalties.
        super::invariants::hold(&s, file.teams.iter().map(|t| t.number).collect())?;
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
