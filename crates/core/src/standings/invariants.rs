//! What any kind's standings hold, whatever the tournament (shared by the
//! pairs' and the teams' property tests).

use super::kind::{Kind, RoundCard};
use super::Standings;
use proptest::prelude::*;
use rust_decimal::Decimal;

/// The standings are a permutation of the `registered` entrants with places
/// 1, 2, 2, 4… in order; the prizes (when anyone entered) add up to the
/// pool, each split adding up to its prize; every row's VP are its card's
/// table, match and bye VP minus its penalties.
pub(super) fn hold<K: Kind>(
    s: &Standings<K>,
    mut registered: Vec<u32>,
) -> Result<(), TestCaseError> {
    let mut listed: Vec<u32> = s.rows.iter().map(|r| r.number).collect();
    listed.sort_unstable();
    registered.sort_unstable();
    let anyone = !registered.is_empty();
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

    if anyone {
        let paid: Decimal = s.prizes.iter().map(|p| p.amount).sum();
        prop_assert_eq!(paid, s.pool);
        for p in &s.prizes {
            let split: Decimal = p.per_player.as_ref().iter().copied().sum();
            prop_assert_eq!(split, p.amount);
        }
    }

    for row in &s.rows {
        let card = s
            .card(row.number)
            .map(|c| c.rounds.iter().filter_map(RoundCard::vp).sum::<i64>());
        prop_assert_eq!(card, Some(row.vp + row.penalty_vp));
    }
    Ok(())
}
