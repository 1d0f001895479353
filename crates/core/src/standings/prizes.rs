//! The prizes (RULES.md §10) from the places of the standings, for every
//! kind of entrant: shared places share the prizes; the tier with the
//! largest `min_entries` not above the entries applies.

use super::kind::{Field, Kind, Money};
use super::{Prize, Row, StandingsError};
use crate::rules::prize_pool::{self, PayoutTier, PrizeError, PrizeInput};
use crate::tournament_file::tiers_of;
use rust_decimal::{Decimal, RoundingStrategy};

/// Pool, organiser's fee, the scheme applied, and per entry (in the order
/// of `places`) its prize and the two-way split, for the entries that win.
pub(crate) type Payout = (
    Decimal,
    Decimal,
    Vec<Decimal>,
    Vec<(usize, Decimal, [Decimal; 2])>,
);

/// The prizes for entries at `places` (RULES.md §10).
pub(crate) fn pay(money: Money<'_>, places: &[u32]) -> Result<Payout, StandingsError> {
    let entries = u32::try_from(places.len()).unwrap_or(u32::MAX);
    if entries == 0 {
        return Ok((
            Decimal::new(0, 2),
            Decimal::new(0, 2),
            Vec::new(),
            Vec::new(),
        ));
    }
    let whole = || {
        vec![PayoutTier {
            min_entries: 0,
            scheme: vec![Decimal::ONE_HUNDRED],
        }]
    };
    let mut input = PrizeInput {
        entries,
        entry_fee: money.entry_fee,
        prize_share_percent: money.prize_share_percent,
        guaranteed_pool: money.guaranteed_pool,
        payout: if money.payout.is_empty() {
            whole()
        } else {
            tiers_of(money.payout)
        },
        places: places.to_vec(),
    };
    let (computed, pay) = match prize_pool::compute(&input) {
        Ok(p) => (p, true),
        // A draft without a scheme for its entries yet: the pool, no prizes.
        Err(PrizeError::NoTierFor { .. }) => {
            input.payout = whole();
            let p = prize_pool::compute(&input).map_err(StandingsError::Prize)?;
            (p, false)
        }
        Err(e) => return Err(StandingsError::Prize(e)),
    };
    let paying = pay && !money.payout.is_empty();
    let mut list = Vec::new();
    if paying {
        for (k, (amount, split)) in computed.prizes.iter().zip(&computed.per_player).enumerate() {
            if !amount.is_zero() {
                list.push((k, *amount, *split));
            }
        }
    }
    let scheme = if paying { computed.scheme } else { Vec::new() };
    Ok((computed.pool, computed.organiser_fee, scheme, list))
}

type PrizeParts<K> = (Decimal, Decimal, Vec<Decimal>, Vec<Prize<K>>);

/// Pool, organiser's fee, the scheme applied and the entrants that win
/// money, each prize split as the kind splits it.
pub(crate) fn prizes<K: Kind>(
    field: &Field<'_>,
    rows: &[Row<K>],
) -> Result<PrizeParts<K>, StandingsError> {
    let places: Vec<u32> = rows.iter().map(|r| r.place).collect();
    let (pool, fee, scheme, paid) = pay(field.money, &places)?;
    Ok((pool, fee, scheme, prizes_of(field, rows, paid)))
}

/// The prizes `paid` (indexes into `rows`, as [`pay`] gives them), each
/// split as the kind splits it.
pub(crate) fn prizes_of<K: Kind>(
    field: &Field<'_>,
    rows: &[Row<K>],
    paid: Vec<(usize, Decimal, [Decimal; 2])>,
) -> Vec<Prize<K>> {
    paid.into_iter()
        .filter_map(|(k, amount, two_way)| {
            let row = rows.get(k)?;
            let players = field
                .entrants
                .iter()
                .find(|e| e.number == row.number)
                .map_or(1, |e| e.players);
            Some(Prize {
                number: row.number,
                place: row.place,
                amount,
                per_player: K::split(amount, two_way, players),
                group: row.group.clone(),
            })
        })
        .collect()
}

/// `amount` in `ways` shares to the cent, the odd cents to the first.
pub fn split_evenly(amount: Decimal, ways: usize) -> Vec<Decimal> {
    let ways = ways.max(1);
    let count = Decimal::from(u32::try_from(ways).unwrap_or(u32::MAX));
    let base = (amount / count).round_dp_with_strategy(2, RoundingStrategy::ToZero);
    let mut left = amount - base * count;
    let cent = Decimal::new(1, 2);
    (0..ways)
        .map(|_| {
            if left >= cent {
                left -= cent;
                base + cent
            } else {
                base
            }
        })
        .collect()
}
