//! Property tests over generated tournaments (kept small: a few seconds in
//! a debug build).

use super::*;
use crate::tournament_file::fixtures::sample_tournament;
use crate::tournament_file::{parse, to_json};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn standings_hold_their_invariants(pairs in 0usize..40, rounds in 0usize..6, seed in any::<u64>()) {
        let file = sample_tournament(pairs, rounds, seed);
        let s = match compute_file(&file, Lang::En) {
            Ok(s) => s,
            Err(e) => return Err(TestCaseError::fail(e.message(Lang::En))),
        };

        // The VP of a table scored from its sheet add up to 20.
        for (r, round) in file.rounds.iter().enumerate() {
            for t in &round.tables {
                let vp = |pair: u32| s.card(pair).and_then(|c| c.rounds.get(r)).and_then(|c| c.vp);
                let (Some(a), Some(b)) = (vp(t.ns), vp(t.ew)) else {
                    return Err(TestCaseError::fail("a seated pair has no VP"));
                };
                if t.adjusted.is_none() {
                    prop_assert_eq!(a + b, 20);
                } else {
                    prop_assert_eq!((a, b), t.adjusted.map(|x| (x.ns_vp, x.ew_vp)).unwrap_or_default());
                }
            }
        }

        // The standings are a permutation of the pairs, places 1, 2, 2, 4…
        let mut listed: Vec<u32> = s.rows.iter().map(|r| r.pair).collect();
        let mut registered: Vec<u32> = file.pairs.iter().map(|p| p.number).collect();
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

        // The prizes add up to the pool.
        if !file.pairs.is_empty() {
            let paid: Decimal = s.prizes.iter().map(|p| p.amount).sum();
            prop_assert_eq!(paid, s.pool);
            for p in &s.prizes {
                prop_assert_eq!(p.per_player[0] + p.per_player[1], p.amount);
            }
        }

        // VP: table and bye VP minus penalties.
        for row in &s.rows {
            let card = s.card(row.pair).map(|c| c.rounds.iter().filter_map(|r| r.vp).sum::<i64>());
            prop_assert_eq!(card, Some(row.vp + row.penalty_vp));
        }
    }

    #[test]
    fn export_import_export_is_stable(pairs in 0usize..12, rounds in 0usize..4, seed in any::<u64>()) {
        let file = sample_tournament(pairs, rounds, seed);
        let text = to_json(&file).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let again = match parse(&text) {
            Ok(f) => f,
            Err(e) => return Err(TestCaseError::fail(e.to_string())),
        };
        prop_assert_eq!(&again, &file);
        prop_assert_eq!(to_json(&again).map_err(|e| TestCaseError::fail(e.to_string()))?, text);
    }
}
