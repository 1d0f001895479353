//! Helpers the pairs' and the teams' standings tests share.

use crate::tournament_file::PayoutTierFile;
use rust_decimal::Decimal;

/// The tests' money: `fee_cents` a head, 70% share, 60/40 from 1 entry —
/// (entry fee, prize share, payout), as a pairs' or a team file has them.
pub(crate) fn sixty_forty(fee_cents: i64) -> (Decimal, Decimal, Vec<PayoutTierFile>) {
    (
        Decimal::new(fee_cents, 2),
        Decimal::from(70),
        vec![PayoutTierFile {
            min_entries: 1,
            scheme: vec![Decimal::from(60), Decimal::from(40)],
        }],
    )
}
