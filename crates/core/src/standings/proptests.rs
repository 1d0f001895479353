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

        // A permutation of the pairs, places 1, 2, 2, 4…; the prizes add
        // up to the pool; VP: table and bye VP minus penalties.
        super::invariants::hold(&s, file.pairs.iter().map(|p| p.number).collect())?;
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
