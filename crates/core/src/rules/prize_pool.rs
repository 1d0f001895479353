//! Entry fees and the prize pool (RULES.md §10). Exact decimals, no floats.
//!
//! - pool = max(entries × fee × share / 100, guaranteed pool), rounded to the
//!   cent (half away from zero);
//! - organiser's fee = entries × fee − pool. It is **negative** when the
//!   guarantee tops the pool up: that is what the organiser pays in;
//! - the payout scheme used is the one with the largest `min_entries` not
//!   above the number of entries;
//! - entries tied on a place share the sum of the places they cover (places
//!   beyond the paid ones are worth 0); each entry's share is cut to the cent
//!   and the cents left over go one by one to the best-placed entries
//!   (entries tied on a place: in the order given), so the prizes always add
//!   up to the pool exactly;
//! - a pair's prize is split between its two players, the odd cent to the
//!   first player;
//! - fewer entries than paid places: the places nobody can fill are dropped
//!   and the percentages of the places that exist are scaled up in proportion
//!   (so they add up to 100): the whole pool is still paid out.

use rust_decimal::{Decimal, RoundingStrategy};

/// Money has at most this many decimals (cents).
pub const MONEY_DECIMALS: u32 = 2;
/// Scheme percentages have at most this many decimals.
pub const PERCENT_DECIMALS: u32 = 6;
/// Most entries a prize computation accepts (a sanity bound, far above any
/// real tournament, that keeps the work per request small).
pub const MAX_ENTRIES: u32 = 100_000;

/// A payout scheme and the least number of entries it applies from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PayoutTier {
    pub min_entries: u32,
    /// Percentage of the pool for place 1, 2, 3…
    pub scheme: Vec<Decimal>,
}

/// What the prize computation needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrizeInput {
    pub entries: u32,
    pub entry_fee: Decimal,
    pub prize_share_percent: Decimal,
    pub guaranteed_pool: Decimal,
    pub payout: Vec<PayoutTier>,
    /// Each entry's (shared) place, one per entry: 1, 2, 2, 4…
    pub places: Vec<u32>,
}

/// The computed prizes. Amounts carry exactly two decimals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prizes {
    pub pool: Decimal,
    pub organiser_fee: Decimal,
    /// The scheme that applied.
    pub scheme: Vec<Decimal>,
    /// One prize per entry, in the order of `places`.
    pub prizes: Vec<Decimal>,
    /// Each prize split between the pair's two players.
    pub per_player: Vec<[Decimal; 2]>,
}

/// Why prizes cannot be computed. `code()` is the API error code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PrizeError {
    #[error("{field} must not be negative ({value})")]
    NegativeAmount { field: &'static str, value: Decimal },
    #[error("{field} has more than {max} decimals ({value})")]
    TooManyDecimals {
        field: &'static str,
        value: Decimal,
        max: u32,
    },
    #[error("the prize share must be between 0 and 100 percent ({value})")]
    ShareOutOfRange { value: Decimal },
    #[error("the amounts are too large to compute")]
    AmountTooLarge,
    #[error("no payout scheme given")]
    NoScheme,
    #[error("the payout scheme from {min_entries} entries is empty")]
    EmptyScheme { min_entries: u32 },
    #[error("place {place} of the scheme from {min_entries} entries: {value} is not a positive percentage")]
    PercentNotPositive {
        min_entries: u32,
        place: usize,
        value: Decimal,
    },
    #[error("place {place} of the scheme from {min_entries} entries: {value} has more than {max} decimals")]
    PercentTooPrecise {
        min_entries: u32,
        place: usize,
        value: Decimal,
        max: u32,
    },
    #[error("the scheme from {min_entries} entries adds up to {sum}%, not 100%")]
    SchemeNotHundred { min_entries: u32, sum: Decimal },
    #[error("two payout schemes start from {min_entries} entries")]
    DuplicateTier { min_entries: u32 },
    #[error("no payout scheme applies to {entries} entries")]
    NoTierFor { entries: u32 },
    #[error("{places} places given for {entries} entries")]
    PlacesCountMismatch { entries: u32, places: usize },
    #[error("place {place} is not possible in standings of {entries} entries (ties share a place: 1, 2, 2, 4…)")]
    ImpossiblePlace { place: u32, entries: u32 },
    #[error("no entries to pay a pool of {pool}")]
    NoEntriesToPay { pool: Decimal },
    #[error("{entries} entries: at most {max} are accepted")]
    TooManyEntries { entries: u32, max: u32 },
}

impl PrizeError {
    /// Stable API code: `invalid_amount`, `invalid_scheme` or `invalid_places`.
    pub fn code(&self) -> &'static str {
        match self {
            PrizeError::NegativeAmount { .. }
            | PrizeError::TooManyDecimals { .. }
            | PrizeError::ShareOutOfRange { .. }
            | PrizeError::AmountTooLarge
            | PrizeError::NoEntriesToPay { .. } => "invalid_amount",
            PrizeError::TooManyEntries { .. } => "invalid_places",
            PrizeError::NoScheme
            | PrizeError::EmptyScheme { .. }
            | PrizeError::PercentNotPositive { .. }
            | PrizeError::PercentTooPrecise { .. }
            | PrizeError::SchemeNotHundred { .. }
            | PrizeError::DuplicateTier { .. }
            | PrizeError::NoTierFor { .. } => "invalid_scheme",
            PrizeError::PlacesCountMismatch { .. } | PrizeError::ImpossiblePlace { .. } => {
                "invalid_places"
            }
        }
    }

    /// Catalog key suffix (`rules.input.prize.<kind>`) and placeholder values.
    pub fn catalog(&self) -> (&'static str, Vec<(&'static str, String)>) {
        fn s<T: ToString>(v: &T) -> String {
            v.to_string()
        }
        match self {
            PrizeError::NegativeAmount { field, value } => (
                "negative_amount",
                vec![("field", s(field)), ("value", s(value))],
            ),
            PrizeError::TooManyDecimals { field, value, max } => (
                "too_many_decimals",
                vec![("field", s(field)), ("value", s(value)), ("max", s(max))],
            ),
            PrizeError::ShareOutOfRange { value } => {
                ("share_out_of_range", vec![("value", s(value))])
            }
            PrizeError::AmountTooLarge => ("amount_too_large", vec![]),
            PrizeError::NoScheme => ("no_scheme", vec![]),
            PrizeError::EmptyScheme { min_entries } => {
                ("empty_scheme", vec![("min_entries", s(min_entries))])
            }
            PrizeError::PercentNotPositive {
                min_entries,
                place,
                value,
            } => (
                "percent_not_positive",
                vec![
                    ("min_entries", s(min_entries)),
                    ("place", s(place)),
                    ("value", s(value)),
                ],
            ),
            PrizeError::PercentTooPrecise {
                min_entries,
                place,
                value,
                max,
            } => (
                "percent_too_precise",
                vec![
                    ("min_entries", s(min_entries)),
                    ("place", s(place)),
                    ("value", s(value)),
                    ("max", s(max)),
                ],
            ),
            PrizeError::SchemeNotHundred { min_entries, sum } => (
                "scheme_not_hundred",
                vec![("min_entries", s(min_entries)), ("sum", s(sum))],
            ),
            PrizeError::DuplicateTier { min_entries } => {
                ("duplicate_tier", vec![("min_entries", s(min_entries))])
            }
            PrizeError::NoTierFor { entries } => ("no_tier_for", vec![("entries", s(entries))]),
            PrizeError::PlacesCountMismatch { entries, places } => (
                "places_count_mismatch",
                vec![("entries", s(entries)), ("places", s(places))],
            ),
            PrizeError::ImpossiblePlace { place, entries } => (
                "impossible_place",
                vec![("place", s(place)), ("entries", s(entries))],
            ),
            PrizeError::NoEntriesToPay { pool } => ("no_entries_to_pay", vec![("pool", s(pool))]),
            PrizeError::TooManyEntries { entries, max } => (
                "too_many_entries",
                vec![("entries", s(entries)), ("max", s(max))],
            ),
        }
    }
}

fn hundred() -> Decimal {
    Decimal::ONE_HUNDRED
}

fn check_money(field: &'static str, value: Decimal) -> Result<(), PrizeError> {
    if value.is_sign_negative() && !value.is_zero() {
        return Err(PrizeError::NegativeAmount { field, value });
    }
    if value.normalize().scale() > MONEY_DECIMALS {
        return Err(PrizeError::TooManyDecimals {
            field,
            value,
            max: MONEY_DECIMALS,
        });
    }
    Ok(())
}

/// An amount as integer cents (the amount has at most 2 decimals).
fn to_cents(value: Decimal) -> Result<i128, PrizeError> {
    let mut v =
        value.round_dp_with_strategy(MONEY_DECIMALS, RoundingStrategy::MidpointAwayFromZero);
    v.rescale(MONEY_DECIMALS);
    if v.scale() != MONEY_DECIMALS {
        return Err(PrizeError::AmountTooLarge);
    }
    Ok(v.mantissa())
}

/// Integer cents → an amount with two decimals.
fn from_cents(cents: i128) -> Result<Decimal, PrizeError> {
    Decimal::try_from_i128_with_scale(cents, MONEY_DECIMALS).map_err(|_| PrizeError::AmountTooLarge)
}

/// Validates a scheme; returns its percentages in millionths of a percent.
fn scheme_units(tier: &PayoutTier) -> Result<Vec<i128>, PrizeError> {
    let min_entries = tier.min_entries;
    if tier.scheme.is_empty() {
        return Err(PrizeError::EmptyScheme { min_entries });
    }
    for (i, &pct) in tier.scheme.iter().enumerate() {
        if pct <= Decimal::ZERO {
            return Err(PrizeError::PercentNotPositive {
                min_entries,
                place: i.saturating_add(1),
                value: pct,
            });
        }
    }
    let sum = tier
        .scheme
        .iter()
        .fold(Decimal::ZERO, |a, &b| a.saturating_add(b));
    if sum != hundred() {
        return Err(PrizeError::SchemeNotHundred { min_entries, sum });
    }
    // Every percentage is now in (0, 100].
    let mut units = Vec::with_capacity(tier.scheme.len());
    for (i, &pct) in tier.scheme.iter().enumerate() {
        let n = pct.normalize();
        if n.scale() > PERCENT_DECIMALS {
            return Err(PrizeError::PercentTooPrecise {
                min_entries,
                place: i.saturating_add(1),
                value: pct,
                max: PERCENT_DECIMALS,
            });
        }
        // n = m / 10^s with s ≤ 6, so pct × 10^6 = m × 10^(6−s) exactly.
        let scale_up = 10i128.pow(PERCENT_DECIMALS.saturating_sub(n.scale()));
        let u = n
            .mantissa()
            .checked_mul(scale_up)
            .ok_or(PrizeError::AmountTooLarge)?;
        units.push(u);
    }
    Ok(units)
}

/// Checks `places` are standings of `entries` entries (1, 2, 2, 4…).
fn check_places(places: &[u32], entries: u32) -> Result<(), PrizeError> {
    if places.len() != usize::try_from(entries).unwrap_or(usize::MAX) {
        return Err(PrizeError::PlacesCountMismatch {
            entries,
            places: places.len(),
        });
    }
    let mut sorted = places.to_vec();
    sorted.sort_unstable();
    let mut previous: Option<u32> = None;
    for (i, &p) in sorted.iter().enumerate() {
        let expected = u32::try_from(i.saturating_add(1)).unwrap_or(u32::MAX);
        let ok = previous == Some(p) || p == expected;
        if !ok {
            return Err(PrizeError::ImpossiblePlace { place: p, entries });
        }
        previous = Some(p);
    }
    Ok(())
}

/// Computes the pool, the organiser's fee and every entry's prize.
pub fn compute(input: &PrizeInput) -> Result<Prizes, PrizeError> {
    if input.entries > MAX_ENTRIES {
        return Err(PrizeError::TooManyEntries {
            entries: input.entries,
            max: MAX_ENTRIES,
        });
    }
    check_money("entry_fee", input.entry_fee)?;
    check_money("guaranteed_pool", input.guaranteed_pool)?;
    let share = input.prize_share_percent;
    if share < Decimal::ZERO || share > hundred() {
        return Err(PrizeError::ShareOutOfRange { value: share });
    }
    if input.payout.is_empty() {
        return Err(PrizeError::NoScheme);
    }
    let mut tiers: Vec<(u32, Vec<i128>, &PayoutTier)> = Vec::with_capacity(input.payout.len());
    for tier in &input.payout {
        if tiers.iter().any(|(m, _, _)| *m == tier.min_entries) {
            return Err(PrizeError::DuplicateTier {
                min_entries: tier.min_entries,
            });
        }
        tiers.push((tier.min_entries, scheme_units(tier)?, tier));
    }
    check_places(&input.places, input.entries)?;

    let entries = Decimal::from(input.entries);
    let gross = entries
        .checked_mul(input.entry_fee)
        .ok_or(PrizeError::AmountTooLarge)?;
    let from_share = gross
        .checked_mul(share)
        .and_then(|v| v.checked_div(hundred()))
        .ok_or(PrizeError::AmountTooLarge)?;
    let pool = from_share.max(input.guaranteed_pool);
    let pool_cents = to_cents(pool)?;
    let gross_cents = to_cents(gross)?;
    let fee_cents = gross_cents
        .checked_sub(pool_cents)
        .ok_or(PrizeError::AmountTooLarge)?;

    let Some((_, units, tier)) = tiers
        .iter()
        .filter(|(m, _, _)| *m <= input.entries)
        .max_by_key(|(m, _, _)| *m)
    else {
        return Err(PrizeError::NoTierFor {
            entries: input.entries,
        });
    };

    let n = input.places.len();
    if n == 0 {
        if pool_cents > 0 {
            return Err(PrizeError::NoEntriesToPay {
                pool: from_cents(pool_cents)?,
            });
        }
        return Ok(Prizes {
            pool: from_cents(0)?,
            organiser_fee: from_cents(fee_cents)?,
            scheme: tier.scheme.clone(),
            prizes: Vec::new(),
            per_player: Vec::new(),
        });
    }

    // Places that exist: with fewer entries than paid places, the others drop.
    let covered = units.len().min(n);
    let denominator: i128 = units.iter().take(covered).sum();
    // Entries best first; equal places keep the input order.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| (input.places.get(i).copied().unwrap_or(u32::MAX), i));

    let mut cents = vec![0i128; n];
    let mut weights = vec![0i128; n];
    let mut distributed: i128 = 0;
    let mut start = 0usize;
    while start < order.len() {
        let place = order
            .get(start)
            .and_then(|&i| input.places.get(i))
            .copied()
            .unwrap_or(0);
        let end = order
            .iter()
            .skip(start)
            .position(|&i| input.places.get(i).copied() != Some(place))
            .map_or(order.len(), |k| start.saturating_add(k));
        let k = end.saturating_sub(start);
        // Places covered by the group: place … place + k − 1 (1-based).
        let first = usize::try_from(place)
            .unwrap_or(usize::MAX)
            .saturating_sub(1);
        let group: i128 = units
            .iter()
            .skip(first)
            .take(k.min(covered.saturating_sub(first)))
            .sum();
        let k_i = i128::try_from(k).map_err(|_| PrizeError::AmountTooLarge)?;
        let share_cents = pool_cents
            .checked_mul(group)
            .and_then(|v| v.checked_div(denominator.checked_mul(k_i)?))
            .ok_or(PrizeError::AmountTooLarge)?;
        for &i in order.iter().skip(start).take(k) {
            if let (Some(c), Some(w)) = (cents.get_mut(i), weights.get_mut(i)) {
                *c = share_cents;
                *w = group;
            }
            distributed = distributed.saturating_add(share_cents);
        }
        start = end;
    }

    // Leftover cents: one each to the best-placed entries with a share.
    let mut leftover = pool_cents.saturating_sub(distributed);
    let paid: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&i| weights.get(i).is_some_and(|&w| w > 0))
        .collect();
    while leftover > 0 && !paid.is_empty() {
        for &i in &paid {
            if leftover == 0 {
                break;
            }
            if let Some(c) = cents.get_mut(i) {
                *c = c.saturating_add(1);
                leftover = leftover.saturating_sub(1);
            }
        }
    }

    let mut prizes = Vec::with_capacity(n);
    let mut per_player = Vec::with_capacity(n);
    for &c in &cents {
        prizes.push(from_cents(c)?);
        let second = c / 2;
        let first = c.saturating_sub(second);
        per_player.push([from_cents(first)?, from_cents(second)?]);
    }
    Ok(Prizes {
        pool: from_cents(pool_cents)?,
        organiser_fee: from_cents(fee_cents)?,
        scheme: tier.scheme.clone(),
        prizes,
        per_player,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::str::FromStr;

    fn d(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    fn strs(v: &[Decimal]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    fn input(
        entries: u32,
        fee: &str,
        share: &str,
        guaranteed: &str,
        scheme: &[&str],
        places: Vec<u32>,
    ) -> PrizeInput {
        PrizeInput {
            entries,
            entry_fee: d(fee),
            prize_share_percent: d(share),
            guaranteed_pool: d(guaranteed),
            payout: vec![PayoutTier {
                min_entries: 0,
                scheme: scheme.iter().map(|s| d(s)).collect(),
            }],
            places,
        }
    }

    fn ranks(n: u32) -> Vec<u32> {
        (1..=n).collect()
    }

    #[test]
    fn the_api_example() {
        let mut places = vec![1, 2, 2];
        places.extend(4..=24);
        let p = compute(&input(24, "20.00", "70", "0", &["50", "30", "20"], places)).unwrap();
        assert_eq!(p.pool.to_string(), "336.00");
        assert_eq!(p.organiser_fee.to_string(), "144.00");
        // Places 2 and 3 shared: (30 + 20) / 2 = 25% each = 84.00.
        assert_eq!(
            strs(&p.prizes[..4]),
            vec!["168.00", "84.00", "84.00", "0.00"]
        );
        assert_eq!(strs(&p.per_player[0]), vec!["84.00", "84.00"]);
        assert_eq!(strs(&p.per_player[1]), vec!["42.00", "42.00"]);
    }

    #[test]
    fn three_tied_places_share_100_with_the_odd_cent_first() {
        let p = compute(&input(
            3,
            "50",
            "66.67",
            "100",
            &["50", "30", "20"],
            vec![1, 1, 1],
        ))
        .unwrap();
        assert_eq!(p.pool.to_string(), "100.01");
        let p = compute(&input(
            3,
            "0",
            "0",
            "100.00",
            &["50", "30", "20"],
            vec![1, 1, 1],
        ))
        .unwrap();
        assert_eq!(p.pool.to_string(), "100.00");
        assert_eq!(strs(&p.prizes), vec!["33.34", "33.33", "33.33"]);
        assert_eq!(p.organiser_fee.to_string(), "-100.00");
        assert_eq!(strs(&p.per_player[0]), vec!["16.67", "16.67"]);
        assert_eq!(strs(&p.per_player[1]), vec!["16.67", "16.66"]);
    }

    #[test]
    fn leftover_cents_go_to_the_better_placed() {
        // Pool 100.00, 40/35/25, places given in any order.
        let p = compute(&input(
            4,
            "25",
            "100",
            "0",
            &["40", "35", "25"],
            vec![4, 1, 2, 3],
        ))
        .unwrap();
        assert_eq!(strs(&p.prizes), vec!["0.00", "40.00", "35.00", "25.00"]);
        let p = compute(&input(3, "0.01", "100", "0", &["50", "30", "20"], ranks(3))).unwrap();
        // 0.03: 0.015, 0.009, 0.006 → floors 1, 0, 0 → leftover 2 to places 1 and 2.
        assert_eq!(strs(&p.prizes), vec!["0.02", "0.01", "0.00"]);
        let total: Decimal = p.prizes.iter().sum();
        assert_eq!(total, p.pool);
        // Tie in the middle, order of input kept for tied entries.
        let p = compute(&input(
            7,
            "1",
            "100",
            "0",
            &["60", "40"],
            vec![3, 1, 2, 3, 3, 6, 7],
        ))
        .unwrap();
        assert_eq!(
            strs(&p.prizes),
            vec!["0.00", "4.20", "2.80", "0.00", "0.00", "0.00", "0.00"]
        );
        let p = compute(&input(
            3,
            "1",
            "100",
            "0",
            &["50", "25", "25"],
            vec![2, 1, 2],
        ))
        .unwrap();
        // 0.75 and 0.75 to the two tied at 2nd; 1.50 to the first.
        assert_eq!(strs(&p.prizes), vec!["0.75", "1.50", "0.75"]);
    }

    #[test]
    fn guarantee_tops_up_and_the_fee_goes_negative() {
        let p = compute(&input(10, "20", "70", "200", &["100"], ranks(10))).unwrap();
        assert_eq!(p.pool.to_string(), "200.00");
        assert_eq!(p.organiser_fee.to_string(), "0.00");
        let p = compute(&input(10, "20", "50", "150", &["100"], ranks(10))).unwrap();
        assert_eq!(
            (p.pool.to_string(), p.organiser_fee.to_string()),
            ("150.00".into(), "50.00".into())
        );
        let p = compute(&input(5, "20", "70", "100", &["100"], ranks(5))).unwrap();
        assert_eq!(p.organiser_fee.to_string(), "0.00");
        let p = compute(&input(4, "20", "70", "100", &["100"], ranks(4))).unwrap();
        assert_eq!(p.organiser_fee.to_string(), "-20.00");
    }

    #[test]
    fn tier_with_largest_min_entries_applies() {
        let mut i = input(12, "10", "100", "0", &["100"], ranks(12));
        i.payout = vec![
            PayoutTier {
                min_entries: 0,
                scheme: vec![d("100")],
            },
            PayoutTier {
                min_entries: 10,
                scheme: vec![d("60"), d("40")],
            },
            PayoutTier {
                min_entries: 20,
                scheme: vec![d("50"), d("30"), d("20")],
            },
        ];
        let p = compute(&i).unwrap();
        assert_eq!(strs(&p.prizes[..3]), vec!["72.00", "48.00", "0.00"]);
        i.payout.remove(0);
        i.entries = 9;
        i.places = ranks(9);
        assert_eq!(
            compute(&i).unwrap_err(),
            PrizeError::NoTierFor { entries: 9 }
        );
        i.payout.push(PayoutTier {
            min_entries: 10,
            scheme: vec![d("100")],
        });
        assert!(matches!(
            compute(&i),
            Err(PrizeError::DuplicateTier { min_entries: 10 })
        ));
    }

    #[test]
    fn fewer_entries_than_paid_places_scale_up() {
        let p = compute(&input(2, "10", "100", "0", &["50", "30", "20"], vec![1, 2])).unwrap();
        // 50:30 of 20.00 → 12.50 and 7.50.
        assert_eq!(strs(&p.prizes), vec!["12.50", "7.50"]);
        let p = compute(&input(2, "10", "100", "0", &["50", "30", "20"], vec![1, 1])).unwrap();
        assert_eq!(strs(&p.prizes), vec!["10.00", "10.00"]);
        let p = compute(&input(0, "10", "100", "0", &["100"], vec![])).unwrap();
        assert!(p.prizes.is_empty());
        assert!(matches!(
            compute(&input(0, "10", "100", "50", &["100"], vec![])),
            Err(PrizeError::NoEntriesToPay { .. })
        ));
    }

    #[test]
    fn validation_errors() {
        let ok = |s: &[&str]| compute(&input(3, "10", "100", "0", s, ranks(3)));
        assert!(matches!(
            ok(&["50", "30", "10"]),
            Err(PrizeError::SchemeNotHundred { .. })
        ));
        assert!(matches!(
            ok(&["50", "60", "-10"]),
            Err(PrizeError::PercentNotPositive { place: 3, .. })
        ));
        assert!(matches!(
            ok(&["100", "0"]),
            Err(PrizeError::PercentNotPositive { place: 2, .. })
        ));
        assert!(matches!(ok(&[]), Err(PrizeError::EmptyScheme { .. })));
        assert!(matches!(
            ok(&["150", "-50"]),
            Err(PrizeError::PercentNotPositive { place: 2, .. })
        ));
        assert!(matches!(
            ok(&["150"]),
            Err(PrizeError::SchemeNotHundred { .. })
        ));
        assert!(matches!(
            ok(&["33.3333333", "33.3333333", "33.3333334"]),
            Err(PrizeError::PercentTooPrecise { .. })
        ));
        assert!(ok(&["33.333333", "33.333333", "33.333334"]).is_ok());
        let e = compute(&input(3, "-1", "100", "0", &["100"], ranks(3))).unwrap_err();
        assert_eq!(e.code(), "invalid_amount");
        let e = compute(&input(3, "1.001", "100", "0", &["100"], ranks(3))).unwrap_err();
        assert!(matches!(e, PrizeError::TooManyDecimals { .. }));
        let e = compute(&input(3, "1", "101", "0", &["100"], ranks(3))).unwrap_err();
        assert!(matches!(e, PrizeError::ShareOutOfRange { .. }));
        let e = compute(&input(3, "1", "100", "0", &["100"], vec![1, 2])).unwrap_err();
        assert_eq!(e.code(), "invalid_places");
        let e = compute(&input(MAX_ENTRIES + 1, "1", "100", "0", &["100"], vec![])).unwrap_err();
        assert!(matches!(e, PrizeError::TooManyEntries { .. }));
        for bad in [
            vec![1, 1, 2],
            vec![0, 1, 2],
            vec![2, 2, 3],
            vec![1, 3, 3],
            vec![1, 2, 4],
        ] {
            let e = compute(&input(3, "1", "100", "0", &["100"], bad.clone())).unwrap_err();
            assert!(matches!(e, PrizeError::ImpossiblePlace { .. }), "{bad:?}");
        }
        let mut i = input(3, "1", "100", "0", &["100"], ranks(3));
        i.payout.clear();
        assert_eq!(compute(&i).unwrap_err(), PrizeError::NoScheme);
        let big = compute(&input(
            3,
            "79228162514264337593543950335",
            "100",
            "0",
            &["100"],
            ranks(3),
        ));
        assert_eq!(big.unwrap_err(), PrizeError::AmountTooLarge);
    }

    #[test]
    fn extreme_amounts_are_errors_never_panics() {
        let max = Decimal::MAX.to_string();
        for (fee, guaranteed) in [
            (max.as_str(), "0"),
            ("0", max.as_str()),
            (max.as_str(), max.as_str()),
            ("7922816251426433759354395033.5", "0"),
            ("0", "792281625142643375935439503.35"),
        ] {
            let i = input(
                MAX_ENTRIES,
                fee,
                "100",
                guaranteed,
                &["50", "30", "20"],
                ranks(MAX_ENTRIES),
            );
            // Too large to compute, or computed exactly: never a panic.
            match compute(&i) {
                Err(e) => assert_eq!(e, PrizeError::AmountTooLarge, "{fee} {guaranteed}"),
                Ok(p) => assert_eq!(p.prizes.iter().copied().sum::<Decimal>(), p.pool),
            }
        }
        // The largest the forms accept, with the most entries this accepts.
        let i = input(
            MAX_ENTRIES,
            "1000.00",
            "100",
            "1000000.00",
            &["50", "30", "20"],
            ranks(MAX_ENTRIES),
        );
        let p = compute(&i).unwrap();
        assert_eq!(p.pool.to_string(), "100000000.00");
        assert_eq!(p.prizes.iter().copied().sum::<Decimal>(), p.pool);
    }

    fn standings() -> impl Strategy<Value = Vec<u32>> {
        // Random standings with ties, shuffled.
        (prop::collection::vec(any::<bool>(), 0..40), any::<u64>()).prop_map(|(ties, seed)| {
            let mut places = Vec::new();
            for (i, tie) in ties.iter().enumerate() {
                let p = if *tie && i > 0 {
                    places[i - 1]
                } else {
                    i as u32 + 1
                };
                places.push(p);
            }
            // Deterministic shuffle.
            let mut s = seed | 1;
            for i in (1..places.len()).rev() {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                places.swap(i, (s % (i as u64 + 1)) as usize);
            }
            places
        })
    }

    fn scheme() -> impl Strategy<Value = Vec<Decimal>> {
        prop::collection::vec(1u32..1000, 1..8).prop_map(|w| {
            // Percentages with 2 decimals summing to 100.
            let total: u32 = w.iter().sum();
            let mut cents: Vec<i64> = w
                .iter()
                .map(|&x| (x as i64 * 10_000) / total as i64)
                .collect();
            let diff = 10_000 - cents.iter().sum::<i64>();
            cents[0] += diff;
            cents.retain(|&c| c > 0);
            cents.into_iter().map(|c| Decimal::new(c, 2)).collect()
        })
    }

    proptest! {
        /// RULES.md §10: a scheme with more places than entries pays the
        /// places that exist, percentages scaled so the pool is paid whole;
        /// each place gets its scaled share within a cent, and the better
        /// place gets the leftover cents.
        #[test]
        fn a_scheme_wider_than_the_field_pays_the_places_that_exist(
            scheme in scheme(),
            n in 1u32..8,
            fee in 1i64..10_000,
            share in 1i64..=100,
        ) {
            prop_assume!((n as usize) < scheme.len());
            let i = PrizeInput {
                entries: n,
                entry_fee: Decimal::new(fee, 2),
                prize_share_percent: Decimal::from(share),
                guaranteed_pool: Decimal::ZERO,
                payout: vec![PayoutTier { min_entries: 0, scheme: scheme.clone() }],
                places: ranks(n),
            };
            let p = compute(&i).unwrap();
            prop_assert_eq!(p.prizes.iter().copied().sum::<Decimal>(), p.pool);
            let covered: Decimal = scheme.iter().take(n as usize).copied().sum();
            let cent = Decimal::new(1, 2);
            for (k, prize) in p.prizes.iter().enumerate() {
                let exact = p.pool * scheme[k] / covered;
                prop_assert!((*prize - exact).abs() < cent * Decimal::from(2),
                    "place {} gets {} for an exact {}", k + 1, prize, exact);
            }
        }

        #[test]
        fn prizes_always_sum_to_the_pool(
            places in standings(),
            fee in 0i64..100_000,
            share in 0i64..=100,
            guaranteed in 0i64..1_000_000,
            scheme in scheme(),
        ) {
            let entries = places.len() as u32;
            let i = PrizeInput {
                entries,
                entry_fee: Decimal::new(fee, 2),
                prize_share_percent: Decimal::from(share),
                guaranteed_pool: Decimal::new(guaranteed, 2),
                payout: vec![PayoutTier { min_entries: 0, scheme }],
                places: places.clone(),
            };
            match compute(&i) {
                Ok(p) => {
                    let total: Decimal = p.prizes.iter().sum();
                    prop_assert_eq!(total, p.pool);
                    prop_assert_eq!(p.prizes.len(), places.len());
                    for (prize, split) in p.prizes.iter().zip(&p.per_player) {
                        prop_assert_eq!(split[0] + split[1], *prize);
                        prop_assert!(split[0] >= split[1]);
                        prop_assert!(*prize >= Decimal::ZERO);
                        prop_assert_eq!(prize.scale(), 2);
                    }
                    // Better place never gets less than a worse one.
                    for a in 0..places.len() {
                        for b in 0..places.len() {
                            if places[a] < places[b] {
                                prop_assert!(p.prizes[a] >= p.prizes[b]
                                    || i.payout[0].scheme.windows(2).any(|w| w[0] < w[1]));
                            }
                        }
                    }
                    prop_assert_eq!(p.organiser_fee + p.pool, Decimal::from(entries) * Decimal::new(fee, 2));
                }
                Err(e) => {
                    prop_assert!(entries == 0, "unexpected error {e:?}");
                }
            }
        }
    }
}
