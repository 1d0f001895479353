//! The settings every tournament file has, whatever its kind of entrant
//! (name, profile, hands, VP scale, bye, money, payout, planned rounds…),
//! checked once for every kind, with the limits of the settings form.

use super::problem::{too_long, FileProblem, ProblemCause, ProblemCode};
use crate::rules::prize_pool::{compute, PayoutTier, PrizeError, PrizeInput, MONEY_DECIMALS};
use crate::rules::profile::RuleProfile;
use crate::rules::seat_draw::SuitOrder;
use crate::rules::vp::{VpScale, TOTAL_VP};
use crate::tournament::money::{MoneyField, ENTRY_FEE, GUARANTEED_POOL};
use crate::tournament::settings::{MAX_PAYOUT_ENTRIES, MAX_PAYOUT_TIERS};
use crate::tournament_file::PayoutTierFile;
use rust_decimal::Decimal;

/// Most pairs in a tournament file.
pub const MAX_PAIRS: usize = 1000;
/// Most rounds in a tournament file: the settings form's limit, one number.
pub const MAX_ROUNDS: usize = crate::tournament::settings::MAX_ROUNDS as usize;
/// Fewest and most hands per round.
pub const MIN_HANDS_PER_ROUND: i64 = 2;
pub const MAX_HANDS_PER_ROUND: i64 = 4;
/// Largest MP amount (an `mp` penalty, an adjusted MP difference): far
/// above any real round, it only keeps sums far from overflowing.
pub const MAX_MP_AMOUNT: i64 = 100_000;
/// Largest VP amount of a `vp` penalty.
pub const MAX_VP_AMOUNT: i64 = 100;
/// Text limits, as in the forms: tournament name and venue; a player's
/// surname and name; card number; club.
pub const MAX_TOURNAMENT_NAME_CHARS: usize = 120;
pub const MAX_PLAYER_NAME_CHARS: usize = 60;
pub const MAX_CARD_CHARS: usize = 20;
pub const MAX_CLUB_CHARS: usize = 80;
/// Ranges of the settings form.
pub const MINUTES_PER_ROUND: std::ops::RangeInclusive<u32> = 10..=180;
pub const MITCHELL_ADVANCE: std::ops::RangeInclusive<u32> = 1..=10;

/// Checks an amount as the settings form does (the same limits).
pub(crate) fn money_problems(
    limit: MoneyField,
    value: Decimal,
    out: &mut Vec<FileProblem>,
) -> bool {
    let before = out.len();
    let path = limit.field;
    if value > limit.max {
        out.push(
            FileProblem::new(path, ProblemCode::MoneyTooLarge)
                .with("value", value)
                .with("max", limit.max),
        );
    } else if value.is_sign_negative() && !value.is_zero() {
        out.push(FileProblem::new(path, ProblemCode::MoneyNegative).with("value", value));
    } else if value.normalize().scale() > MONEY_DECIMALS {
        out.push(
            FileProblem::new(path, ProblemCode::MoneyTooPrecise)
                .with("value", value)
                .with("max", MONEY_DECIMALS),
        );
    }
    out.len() == before
}

/// Where a prize error points in the document (`entries`: the list of
/// entries, `pairs` or `teams`).
fn payout_path(payout: &[PayoutTierFile], entries: &'static str, e: &PrizeError) -> String {
    let tier = |m: u32| payout.iter().position(|p| p.min_entries == m);
    match e {
        PrizeError::EmptyScheme { min_entries }
        | PrizeError::SchemeNotHundred { min_entries, .. } => match tier(*min_entries) {
            Some(i) => format!("payout[{i}].scheme"),
            None => "payout".to_string(),
        },
        PrizeError::PercentNotPositive {
            min_entries, place, ..
        }
        | PrizeError::PercentTooPrecise {
            min_entries, place, ..
        } => match tier(*min_entries) {
            Some(i) => format!("payout[{i}].scheme[{}]", place.saturating_sub(1)),
            None => "payout".to_string(),
        },
        PrizeError::DuplicateTier { min_entries } => {
            let second = payout
                .iter()
                .enumerate()
                .filter(|(_, p)| p.min_entries == *min_entries)
                .nth(1)
                .map(|(i, _)| i);
            match second {
                Some(i) => format!("payout[{i}].min_entries"),
                None => "payout".to_string(),
            }
        }
        PrizeError::NegativeAmount { field, .. } | PrizeError::TooManyDecimals { field, .. } => {
            (*field).to_string()
        }
        PrizeError::ShareOutOfRange { .. } => "prize_share_percent".to_string(),
        PrizeError::AmountTooLarge => "entry_fee".to_string(),
        PrizeError::NoEntriesToPay { .. } => "guaranteed_pool".to_string(),
        PrizeError::NoScheme | PrizeError::NoTierFor { .. } => "payout".to_string(),
        PrizeError::PlacesCountMismatch { .. }
        | PrizeError::ImpossiblePlace { .. }
        | PrizeError::TooManyEntries { .. } => entries.to_string(),
    }
}

/// The payout tiers of a file's `payout` as the prize engine takes them.
pub fn tiers_of(payout: &[PayoutTierFile]) -> Vec<PayoutTier> {
    payout
        .iter()
        .map(|p| PayoutTier {
            min_entries: p.min_entries,
            scheme: p.scheme.clone(),
        })
        .collect()
}

/// The settings every tournament file has (pairs or teams), as the checks
/// take them: one set of checks for both kinds.
pub(crate) struct Settings<'a> {
    pub name: &'a str,
    pub venue: Option<&'a str>,
    pub profile: &'a str,
    pub hands_per_round: i64,
    pub vp_scale: Option<&'a [i64]>,
    pub bye_vp: i64,
    pub entry_fee: Decimal,
    pub prize_share_percent: Decimal,
    pub guaranteed_pool: Decimal,
    pub payout: &'a [PayoutTierFile],
    pub minutes_per_round: Option<u32>,
    pub planned_rounds: Option<u32>,
    /// How many planned movements are listed.
    pub movements: Option<usize>,
    pub mitchell_advance: Option<u32>,
    pub suit_order: Option<&'a str>,
    /// Registered entries (pairs or teams) and the name of their list.
    pub registered: usize,
    pub entries_field: &'static str,
    /// At least one round exists.
    pub started: bool,
}

impl<'a> Settings<'a> {
    /// True when the pool is certainly zero (no fee share, no guarantee).
    pub(crate) fn pool_is_zero(&self) -> bool {
        (self.entry_fee.is_zero() || self.prize_share_percent.is_zero())
            && self.guaranteed_pool.is_zero()
    }
}

fn check_payout(s: &Settings<'_>, out: &mut Vec<FileProblem>) {
    if s.payout.is_empty() && s.pool_is_zero() {
        return;
    }
    let registered = u32::try_from(s.registered).unwrap_or(u32::MAX);
    // A draft (no round yet) need not have a scheme for its current number
    // of entries: registrations are still open.
    let entries = registered.max(1);
    let input = PrizeInput {
        entries,
        entry_fee: s.entry_fee,
        prize_share_percent: s.prize_share_percent,
        guaranteed_pool: s.guaranteed_pool,
        payout: tiers_of(s.payout),
        places: (1..=entries).collect(),
    };
    if let Err(e) = compute(&input) {
        if matches!(e, PrizeError::NoTierFor { .. }) && (!s.started || registered == 0) {
            return;
        }
        let mut p = FileProblem::new(
            payout_path(s.payout, s.entries_field, &e),
            ProblemCode::PayoutInvalid,
        );
        p.cause = Some(ProblemCause::Prize(e));
        out.push(p);
    }
}

/// The payout's size within the settings form's limits (lines, entries,
/// places), checked before any prize is computed.
fn check_payout_limits(payout: &[PayoutTierFile], out: &mut Vec<FileProblem>) -> bool {
    let before = out.len();
    if payout.len() > MAX_PAYOUT_TIERS {
        out.push(
            FileProblem::new("payout", ProblemCode::OutOfRange)
                .with("value", payout.len())
                .with("min", 1)
                .with("max", MAX_PAYOUT_TIERS),
        );
        return false;
    }
    for (i, tier) in payout.iter().enumerate() {
        if tier.min_entries > MAX_PAYOUT_ENTRIES {
            out.push(
                FileProblem::new(format!("payout[{i}].min_entries"), ProblemCode::OutOfRange)
                    .with("value", tier.min_entries)
                    .with("min", 0)
                    .with("max", MAX_PAYOUT_ENTRIES),
            );
        }
        if tier.scheme.len() > MAX_PAYOUT_ENTRIES as usize {
            out.push(
                FileProblem::new(format!("payout[{i}].scheme"), ProblemCode::OutOfRange)
                    .with("value", tier.scheme.len())
                    .with("min", 1)
                    .with("max", MAX_PAYOUT_ENTRIES),
            );
        }
    }
    out.len() == before
}

/// Checks the settings; returns the profile, scale and bye VP when usable.
pub(crate) fn check_settings(
    file: &Settings<'_>,
    out: &mut Vec<FileProblem>,
) -> (Option<&'static RuleProfile>, Option<VpScale>, Option<u8>) {
    if file.name.trim().is_empty() {
        out.push(FileProblem::new("name", ProblemCode::NameEmpty));
    }
    too_long("name", file.name, MAX_TOURNAMENT_NAME_CHARS, out);
    if let Some(venue) = file.venue {
        too_long("venue", venue, MAX_TOURNAMENT_NAME_CHARS, out);
    }
    let profile = RuleProfile::by_name(file.profile);
    if profile.is_none() {
        out.push(
            FileProblem::new("profile", ProblemCode::ProfileUnknown)
                .with("name", file.profile.chars().take(32).collect::<String>())
                .with("known", RuleProfile::names().join(", ")),
        );
    }
    let hands = file.hands_per_round;
    let hands_ok = (MIN_HANDS_PER_ROUND..=MAX_HANDS_PER_ROUND).contains(&hands);
    if !hands_ok {
        out.push(
            FileProblem::new("hands_per_round", ProblemCode::HandsPerRoundOutOfRange)
                .with("value", hands)
                .with("min", MIN_HANDS_PER_ROUND)
                .with("max", MAX_HANDS_PER_ROUND),
        );
    }
    let scale = match file.vp_scale {
        Some(bounds) => match VpScale::parse(bounds.to_vec()) {
            Ok(s) => Some(s),
            Err(e) => {
                let mut p = FileProblem::new("vp_scale", ProblemCode::VpScaleInvalid);
                p.cause = Some(ProblemCause::Scale(e));
                out.push(p);
                None
            }
        },
        None => {
            let preset = u32::try_from(hands).ok().and_then(VpScale::preset);
            if preset.is_none() && hands_ok {
                out.push(
                    FileProblem::new("vp_scale", ProblemCode::VpScaleMissing).with("hands", hands),
                );
            }
            preset
        }
    };
    let bye_vp = match u8::try_from(file.bye_vp) {
        Ok(v) if v <= TOTAL_VP => Some(v),
        _ => {
            out.push(
                FileProblem::new("bye_vp", ProblemCode::ByeVpOutOfRange)
                    .with("value", file.bye_vp)
                    .with("max", TOTAL_VP),
            );
            None
        }
    };
    let fee_ok = money_problems(ENTRY_FEE, file.entry_fee, out);
    let pool_ok = money_problems(GUARANTEED_POOL, file.guaranteed_pool, out);
    let payout_ok = check_payout_limits(file.payout, out);
    let share = file.prize_share_percent;
    let share_ok = share >= Decimal::ZERO && share <= Decimal::ONE_HUNDRED;
    if !share_ok {
        out.push(
            FileProblem::new("prize_share_percent", ProblemCode::PercentOutOfRange)
                .with("value", share),
        );
    }
    if fee_ok && pool_ok && share_ok && payout_ok {
        check_payout(file, out);
    }
    let planned = 1..=u32::try_from(MAX_ROUNDS).unwrap_or(u32::MAX);
    for (field, value, range) in [
        (
            "minutes_per_round",
            file.minutes_per_round,
            MINUTES_PER_ROUND,
        ),
        ("planned_rounds", file.planned_rounds, planned),
        ("mitchell_advance", file.mitchell_advance, MITCHELL_ADVANCE),
    ] {
        if let Some(v) = value.filter(|v| !range.contains(v)) {
            out.push(
                FileProblem::new(field, ProblemCode::OutOfRange)
                    .with("value", v)
                    .with("min", range.start())
                    .with("max", range.end()),
            );
        }
    }
    if let Some(count) = file.movements {
        if count > MAX_ROUNDS {
            out.push(
                FileProblem::new("movements", ProblemCode::TooManyRounds)
                    .with("count", count)
                    .with("max", MAX_ROUNDS),
            );
        }
    }
    if let Some(text) = file.suit_order {
        if let Err(e) = SuitOrder::parse(text) {
            out.push(
                FileProblem::new("suit_order", ProblemCode::SuitOrderInvalid).with("text", e.text),
            );
        }
    }
    (profile, scale, bye_vp)
}
