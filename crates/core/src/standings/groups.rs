//! Standings and prizes with groups (RULES.md §13, FORMAT.md "Plans,
//! groups and prizes per group"), on the one engine's order and payout.
//!
//! - **Order**: group by group, A first: every entrant of group A ranks
//!   above every entrant of group B. Inside a group, §5's order over all
//!   rounds ([`order_rows`]: VP, MP difference, MP, then the meeting of
//!   exactly two entrants of the group still tied). Places run on across
//!   the groups; each row carries its group and its place in the group;
//!   entrants share a place only inside their group. Entrants in no group
//!   (withdrawn before the cut) rank after the last group, by §5 among
//!   themselves.
//! - **Prizes per group**: the pool is the tournament's (§10, every entry
//!   counts); a group's pool is the pool × its share, rounded down to the
//!   cent, the cents left over going one at a time to groups A, B … in
//!   order ([`group_pools`]); each group's pool is paid by §10 over the
//!   group's places ([`pay`]: ties share, a scheme longer than the group is
//!   scaled). A group with no entry in `group_prizes` (refused by
//!   validation) or a share of 0 pays nothing. Each prize shows the
//!   entrant's place in the whole standings and its group.
//!
//! Decisions: a number listed in two groups counts in the first (refused
//! by validation); a group member that is not an entry (a no-show) is
//! ignored. With group prizes the standings' `scheme` is empty (each group
//! has its own).

use super::kind::{Field, GroupRef, Kind, Money};
use super::order::order_rows;
use super::prizes::{pay, prizes_of};
use super::{Card, Prize, Row, StandingsError};
use crate::i18n::Lang;
use crate::tournament_file::{GroupPrizeFile, PayoutTierFile};
use rust_decimal::{Decimal, RoundingStrategy};
use std::collections::HashMap;

/// The rows (the standings of the whole field) in the order of the groups
/// (see the module doc), each with its group and place in the group.
pub fn in_groups<K: Kind>(
    rows: &[Row<K>],
    groups: &[GroupRef<'_>],
    cards: &[Card<K>],
    lang: Lang,
) -> Vec<Row<K>> {
    let mut group_of: HashMap<u32, usize> = HashMap::new();
    for (g, group) in groups.iter().enumerate() {
        for &number in group.members {
            group_of.entry(number).or_insert(g);
        }
    }
    let mut parts: Vec<Vec<Row<K>>> = vec![Vec::new(); groups.len().saturating_add(1)];
    for row in rows {
        let g = group_of.get(&row.number).copied().unwrap_or(groups.len());
        if let Some(part) = parts.get_mut(g) {
            part.push(row.clone());
        }
    }
    let mut out = Vec::with_capacity(rows.len());
    let mut before = 0u32;
    for (g, part) in parts.iter().enumerate() {
        let name = groups.get(g).map(|group| group.name.to_string());
        for mut row in order_rows(part, cards, lang) {
            row.group_place = name.as_ref().map(|_| row.place);
            row.group.clone_from(&name);
            row.place = row.place.saturating_add(before);
            out.push(row);
        }
        before = before.saturating_add(u32::try_from(part.len()).unwrap_or(u32::MAX));
    }
    out
}

/// Each group's pool: `pool` × its share (percent), rounded down to the
/// cent; the cents left over go one at a time to the groups in order (A,
/// B …). Adds up to `pool` when the shares add up to 100.
pub fn group_pools(pool: Decimal, shares: &[Decimal]) -> Vec<Decimal> {
    let mut pools: Vec<Decimal> = shares
        .iter()
        .map(|share| {
            (pool * share / Decimal::ONE_HUNDRED)
                .round_dp_with_strategy(2, RoundingStrategy::ToZero)
        })
        .collect();
    let cent = Decimal::new(1, 2);
    let mut left = pool - pools.iter().copied().sum::<Decimal>();
    let paying = shares.iter().filter(|s| !s.is_zero()).count();
    let mut i = 0usize;
    while left >= cent && paying > 0 {
        let k = i % pools.len();
        if shares.get(k).is_some_and(|s| !s.is_zero()) {
            if let Some(p) = pools.get_mut(k) {
                *p += cent;
                left -= cent;
            }
        }
        i = i.wrapping_add(1);
    }
    pools
}

type PrizeParts<K> = (Decimal, Decimal, Vec<Decimal>, Vec<Prize<K>>);

/// Pool, organiser's fee, no scheme, and the prizes of every group (rows
/// already [`in_groups`]).
pub(crate) fn group_prizes<K: Kind>(
    field: &Field<'_>,
    rows: &[Row<K>],
    shares: &[GroupPrizeFile],
) -> Result<PrizeParts<K>, StandingsError> {
    let places: Vec<u32> = rows.iter().map(|r| r.place).collect();
    let whole = Money {
        payout: &[],
        ..field.money
    };
    let (pool, fee, _, _) = pay(whole, &places)?;
    let entry = |name: &str| shares.iter().find(|s| s.group == name);
    let share_list: Vec<Decimal> = field
        .groups
        .iter()
        .map(|g| entry(g.name).map_or(Decimal::ZERO, |s| s.share_percent))
        .collect();
    let mut list = Vec::new();
    for (group, group_pool) in field.groups.iter().zip(group_pools(pool, &share_list)) {
        let Some(prize) = entry(group.name).filter(|_| !group_pool.is_zero()) else {
            continue;
        };
        let members: Vec<Row<K>> = rows
            .iter()
            .filter(|r| r.group.as_deref() == Some(group.name))
            .cloned()
            .collect();
        let group_places: Vec<u32> = members
            .iter()
            .map(|r| r.group_place.unwrap_or(r.place))
            .collect();
        let tier = [PayoutTierFile {
            min_entries: 1,
            scheme: prize.scheme.clone(),
        }];
        let money = Money {
            entry_fee: Decimal::ZERO,
            prize_share_percent: Decimal::ZERO,
            guaranteed_pool: group_pool,
            payout: &tier,
        };
        let (_, _, _, paid) = pay(money, &group_places)?;
        list.extend(prizes_of(field, &members, paid));
    }
    Ok((pool, fee, Vec::new(), list))
}
