//! A tournament's settings read back from their typed columns: each
//! column in its own type, checked against the same bounds as the form
//! (a stored value outside them is a data error naming the column), with
//! no round trip through the form's strings.

use chrono::NaiveDateTime;

use super::money::{Money, Percent, ENTRY_FEE, GUARANTEED_POOL};
use super::plan::{self, Level};
use super::settings::{
    parse_payout, scale_from_text, Settings, BYE_VP, HANDS_PER_ROUND, MAX_ADVANCE, MAX_ROUNDS,
    MINUTES_PER_ROUND,
};
use crate::rules::{RuleProfile, SheetMode, SuitOrder};

/// The settings columns of a tournament, as the database keeps them.
#[derive(Debug, Clone, Copy)]
pub struct StoredSettings<'a> {
    pub name: &'a str,
    /// UTC.
    pub starts_at: NaiveDateTime,
    pub venue: &'a str,
    pub profile: &'a str,
    pub planned_rounds: i32,
    pub hands_per_round: i32,
    /// Empty: the preset of the hands per round.
    pub vp_scale: &'a str,
    pub minutes_per_round: i32,
    pub mitchell_rounds: i32,
    pub danish_modified: bool,
    pub mitchell_advance: i32,
    pub allow_repeats: bool,
    pub separate_clubs: bool,
    /// The rounds in groups as JSON ([`plan::stored_groups`]); empty: none.
    pub groups: &'a str,
    pub level: &'a str,
    pub bye_vp: i32,
    pub entry_fee_cents: i64,
    pub prize_share_percent: &'a str,
    pub guaranteed_pool_cents: i64,
    pub payout: &'a str,
    pub suit_order: &'a str,
    pub table_entry: bool,
    pub sheet_mode: &'a str,
}

/// `value` of `column` within `range`.
fn within(column: &str, value: i32, range: std::ops::RangeInclusive<u32>) -> Result<u32, String> {
    u32::try_from(value)
        .ok()
        .filter(|v| range.contains(v))
        .ok_or_else(|| format!("{column} {value} is outside {range:?}"))
}

impl Settings {
    /// The settings of stored columns; the first column that does not
    /// read is the error.
    pub fn from_stored(s: &StoredSettings) -> Result<Settings, String> {
        let hands_per_round = within("hands_per_round", s.hands_per_round, HANDS_PER_ROUND)?;
        let planned_rounds = within("planned_rounds", s.planned_rounds, 1..=MAX_ROUNDS)?;
        let bye_vp = within("bye_vp", s.bye_vp, BYE_VP)?;
        let groups = plan::read_stored_groups(s.groups, planned_rounds)?;
        Ok(Settings {
            name: s.name.to_string(),
            starts_at: s.starts_at,
            venue: s.venue.to_string(),
            profile: RuleProfile::by_name(s.profile)
                .ok_or_else(|| format!("profile {:?} is unknown", s.profile))?,
            planned_rounds,
            hands_per_round,
            vp_scale: scale_from_text(s.vp_scale, hands_per_round)
                .map_err(|_| format!("vp_scale {:?} does not read", s.vp_scale))?,
            minutes_per_round: within("minutes_per_round", s.minutes_per_round, MINUTES_PER_ROUND)?,
            mitchell_rounds: within("mitchell_rounds", s.mitchell_rounds, 1..=planned_rounds)?,
            danish_modified: s.danish_modified,
            mitchell_advance: within("mitchell_advance", s.mitchell_advance, 1..=MAX_ADVANCE)?,
            allow_repeats: s.allow_repeats,
            separate_clubs: s.separate_clubs,
            groups,
            level: Level::parse(s.level).ok_or_else(|| format!("level {:?}", s.level))?,
            bye_vp: u8::try_from(bye_vp).map_err(|_| format!("bye_vp {bye_vp}"))?,
            entry_fee: Money::from_cents(s.entry_fee_cents, ENTRY_FEE)
                .map_err(|e| format!("entry_fee_cents {}: {e:?}", s.entry_fee_cents))?
                .amount(),
            prize_share_percent: Percent::parse(s.prize_share_percent)
                .ok_or_else(|| format!("prize_share_percent {:?}", s.prize_share_percent))?
                .value(),
            guaranteed_pool: Money::from_cents(s.guaranteed_pool_cents, GUARANTEED_POOL)
                .map_err(|e| format!("guaranteed_pool_cents {}: {e:?}", s.guaranteed_pool_cents))?
                .amount(),
            payout: parse_payout(s.payout).map_err(|_| format!("payout {:?}", s.payout))?,
            suit_order: if s.suit_order.trim().is_empty() {
                SuitOrder::default()
            } else {
                SuitOrder::parse(s.suit_order.trim())
                    .map_err(|_| format!("suit_order {:?}", s.suit_order))?
            },
            table_entry: s.table_entry,
            sheet_mode: SheetMode::parse(s.sheet_mode)
                .ok_or_else(|| format!("sheet_mode {:?}", s.sheet_mode))?,
            // Read beside the row (`tournament_online`) by the services.
            online: super::online::OnlineSwitches::default(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::settings::{format_payout, scale_text, SettingsForm};

    fn stored_of<'a>(
        s: &'a Settings,
        scale: &'a str,
        payout: &'a str,
        share: &'a str,
        suits: &'a str,
    ) -> StoredSettings<'a> {
        StoredSettings {
            name: &s.name,
            starts_at: s.starts_at,
            venue: &s.venue,
            profile: s.profile.name,
            planned_rounds: s.planned_rounds as i32,
            hands_per_round: s.hands_per_round as i32,
            vp_scale: scale,
            minutes_per_round: s.minutes_per_round as i32,
            mitchell_rounds: s.mitchell_rounds as i32,
            danish_modified: s.danish_modified,
            mitchell_advance: s.mitchell_advance as i32,
            allow_repeats: s.allow_repeats,
            separate_clubs: s.separate_clubs,
            groups: "",
            level: s.level.code(),
            bye_vp: i32::from(s.bye_vp),
            entry_fee_cents: Money::new(s.entry_fee, ENTRY_FEE).unwrap().cents(),
            prize_share_percent: share,
            guaranteed_pool_cents: Money::new(s.guaranteed_pool, GUARANTEED_POOL)
                .unwrap()
                .cents(),
            payout,
            suit_order: suits,
            table_entry: s.table_entry,
            sheet_mode: s.sheet_mode.code(),
        }
    }

    #[test]
    fn stored_columns_read_back_as_the_settings_the_form_made() {
        let mut form =
            SettingsForm::defaults(chrono::NaiveDate::from_ymd_opt(2026, 11, 26).unwrap());
        form.name = "Torneo del giovedì".into();
        form.entry_fee = "12,50".into();
        form.guaranteed_pool = "100".into();
        form.hands_per_round = "4".into();
        let s = Settings::parse(&form, chrono_tz::Europe::Rome).unwrap();
        let (scale, payout) = (scale_text(&s.vp_scale), format_payout(&s.payout));
        let share = s.prize_share_percent.normalize().to_string();
        let suits = s.suit_order.to_string();
        let back = Settings::from_stored(&stored_of(&s, &scale, &payout, &share, &suits)).unwrap();
        assert_eq!(format!("{back:?}"), format!("{s:?}"));
        assert_eq!(back.entry_fee.to_string(), "12.50");
    }

    #[test]
    fn a_column_outside_the_forms_bounds_is_an_error_naming_it() {
        let form = SettingsForm {
            name: "x".into(),
            ..SettingsForm::defaults(chrono::NaiveDate::from_ymd_opt(2026, 11, 26).unwrap())
        };
        let s = Settings::parse(&form, chrono_tz::UTC).unwrap();
        let (scale, payout) = (scale_text(&s.vp_scale), format_payout(&s.payout));
        let share = s.prize_share_percent.normalize().to_string();
        let suits = s.suit_order.to_string();
        let good = stored_of(&s, &scale, &payout, &share, &suits);
        for (bad, column) in [
            (
                StoredSettings {
                    hands_per_round: 9,
                    ..good
                },
                "hands_per_round",
            ),
            (StoredSettings { bye_vp: -1, ..good }, "bye_vp"),
            (
                StoredSettings {
                    entry_fee_cents: -5,
                    ..good
                },
                "entry_fee_cents",
            ),
            (
                StoredSettings {
                    profile: "poker",
                    ..good
                },
                "profile",
            ),
            (
                StoredSettings {
                    sheet_mode: "half",
                    ..good
                },
                "sheet_mode",
            ),
            (
                StoredSettings {
                    mitchell_rounds: 99,
                    ..good
                },
                "mitchell_rounds",
            ),
        ] {
            let e = Settings::from_stored(&bad).unwrap_err();
            assert!(e.contains(column), "{column}: {e}");
        }
    }
}
