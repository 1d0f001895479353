//! A tournament's settings: parsed from the director's form, every field
//! checked with a message next to it. Rule numbers come from the rule
//! profiles and VP scales (`crate::rules`), never from literals here.

use std::str::FromStr;

use chrono::{NaiveDate, NaiveDateTime, NaiveTime, TimeZone};
use rust_decimal::Decimal;

use super::{FieldProblem, RoundMovement};
use crate::rules::prize_pool::{self, PayoutTier, PrizeInput};
use crate::rules::{RuleProfile, SuitOrder, VpScale, DEFAULT_BYE_VP};

/// Limits of the settings form.
pub const MAX_ROUNDS: u32 = 30;
pub const MAX_NAME_CHARS: usize = 120;
pub const HANDS_PER_ROUND: std::ops::RangeInclusive<u32> = 2..=4;
pub const MINUTES_PER_ROUND: std::ops::RangeInclusive<u32> = 10..=180;
pub const MAX_ADVANCE: u32 = 10;
/// Minutes for 3 hands (RULES.md §5); other hand counts scale from it.
pub const MINUTES_FOR_THREE_HANDS: u32 = 40;

/// The settings form as typed (every field a string, so that nothing the
/// director typed is lost when the form comes back with messages).
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct SettingsForm {
    pub name: String,
    pub date: String,
    pub start_time: String,
    pub venue: String,
    pub profile: String,
    pub planned_rounds: String,
    pub hands_per_round: String,
    pub vp_scale: String,
    pub minutes_per_round: String,
    pub mitchell_rounds: String,
    pub danish_form: String,
    pub mitchell_advance: String,
    pub allow_repeats: String,
    pub bye_vp: String,
    pub entry_fee: String,
    pub prize_share_percent: String,
    pub guaranteed_pool: String,
    pub payout: String,
    pub suit_order: String,
}

/// Valid settings. Built only by [`Settings::parse`] (or from the database
/// through the same checks), so every value here has passed the rules.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Settings {
    pub name: String,
    /// UTC.
    pub starts_at: NaiveDateTime,
    pub venue: String,
    pub profile: &'static RuleProfile,
    pub planned_rounds: u32,
    pub hands_per_round: u32,
    pub vp_scale: VpScale,
    pub minutes_per_round: u32,
    pub mitchell_rounds: u32,
    pub danish_modified: bool,
    pub mitchell_advance: u32,
    pub allow_repeats: bool,
    pub bye_vp: u8,
    pub entry_fee: Decimal,
    pub prize_share_percent: Decimal,
    pub guaranteed_pool: Decimal,
    pub payout: Vec<PayoutTier>,
    pub suit_order: SuitOrder,
}

/// Default minutes for a round of `hands` hands (40 for 3).
pub fn default_minutes(hands: u32) -> u32 {
    (MINUTES_FOR_THREE_HANDS * hands + 1) / 3
}

fn int_in(
    problems: &mut Vec<FieldProblem>,
    field: &'static str,
    text: &str,
    range: std::ops::RangeInclusive<u32>,
) -> Option<u32> {
    match text.trim().parse::<u32>() {
        Ok(n) if range.contains(&n) => Some(n),
        _ => {
            problems.push(
                FieldProblem::new(field, "settings.error.int_range")
                    .with("min", range.start())
                    .with("max", range.end()),
            );
            None
        }
    }
}

/// A sum of money as people type it: `20`, `20.50`, `20,50`, `€ 20`.
pub fn parse_money(text: &str) -> Option<Decimal> {
    let t: String = text
        .trim()
        .trim_start_matches('€')
        .trim()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let t = if t.contains(',') && !t.contains('.') {
        t.replace(',', ".")
    } else {
        t
    };
    let d = Decimal::from_str(&t).ok()?;
    (d >= Decimal::ZERO && d.scale() <= 2).then(|| d.round_dp(2))
}

/// A percentage: `70`, `70.5`, `70,5`, `70%`.
pub fn parse_percent(text: &str) -> Option<Decimal> {
    let t = text.trim().trim_end_matches('%').trim().replace(',', ".");
    let d = Decimal::from_str(&t).ok()?;
    (d >= Decimal::ZERO && d <= Decimal::ONE_HUNDRED && d.scale() <= 6).then(|| d.normalize())
}

/// `1: 60 40` per line: from how many entries a scheme applies, then the
/// percentage of the pool for each place.
pub fn parse_payout(text: &str) -> Result<Vec<PayoutTier>, FieldProblem> {
    let mut tiers = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let bad = || FieldProblem::new("payout", "settings.error.payout_line").with("line", i + 1);
        let (min, rest) = line.split_once(':').ok_or_else(bad)?;
        let min_entries = min.trim().parse::<u32>().map_err(|_| bad())?;
        let scheme = rest
            .split(|c: char| c.is_whitespace() || c == ';' || c == '/')
            .filter(|s| !s.is_empty())
            .map(parse_percent)
            .collect::<Option<Vec<Decimal>>>()
            .ok_or_else(bad)?;
        tiers.push(PayoutTier {
            min_entries,
            scheme,
        });
    }
    if tiers.is_empty() {
        return Err(FieldProblem::new("payout", "settings.error.payout_empty"));
    }
    // Every tier must be a valid scheme: compute a prize list for each.
    for tier in &tiers {
        let entries = tier.min_entries.max(tier.scheme.len() as u32).max(1);
        let input = PrizeInput {
            entries,
            entry_fee: Decimal::ONE,
            prize_share_percent: Decimal::ONE_HUNDRED,
            guaranteed_pool: Decimal::ZERO,
            payout: tiers.clone(),
            places: (1..=entries).collect(),
        };
        if let Err(e) = prize_pool::compute(&input) {
            let mut p = FieldProblem::new("payout", "settings.error.payout_line");
            p.prize = Some(e);
            return Err(p);
        }
    }
    Ok(tiers)
}

/// The payout as the form shows it.
pub fn format_payout(tiers: &[PayoutTier]) -> String {
    tiers
        .iter()
        .map(|t| {
            let scheme: Vec<String> = t.scheme.iter().map(|d| d.normalize().to_string()).collect();
            format!("{}: {}", t.min_entries, scheme.join(" "))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn parse_date(text: &str) -> Option<NaiveDate> {
    let t = text.trim();
    NaiveDate::parse_from_str(t, "%Y-%m-%d")
        .or_else(|_| NaiveDate::parse_from_str(t, "%d/%m/%Y"))
        .ok()
}

fn parse_time(text: &str) -> Option<NaiveTime> {
    let t = text.trim().replace('.', ":");
    NaiveTime::parse_from_str(&t, "%H:%M").ok()
}

impl Settings {
    /// Parses the form; `tz` is the local time zone of the date and time.
    pub fn parse(form: &SettingsForm, tz: chrono_tz::Tz) -> Result<Settings, Vec<FieldProblem>> {
        let mut p = Vec::new();
        let name = form.name.trim().to_string();
        if name.is_empty() || name.chars().count() > MAX_NAME_CHARS {
            p.push(FieldProblem::new("name", "settings.error.name").with("max", MAX_NAME_CHARS));
        }
        let venue = form.venue.trim().to_string();
        if venue.chars().count() > MAX_NAME_CHARS {
            p.push(
                FieldProblem::new("venue", "settings.error.too_long").with("max", MAX_NAME_CHARS),
            );
        }
        let date = parse_date(&form.date);
        if date.is_none() {
            p.push(FieldProblem::new("date", "settings.error.date"));
        }
        let time = parse_time(&form.start_time);
        if time.is_none() {
            p.push(FieldProblem::new("start_time", "settings.error.time"));
        }
        let starts_at = match (date, time) {
            (Some(d), Some(t)) => match tz.from_local_datetime(&d.and_time(t)).earliest() {
                Some(local) => Some(local.naive_utc()),
                None => {
                    p.push(FieldProblem::new("start_time", "settings.error.time"));
                    None
                }
            },
            _ => None,
        };
        let profile = RuleProfile::by_name(form.profile.trim());
        if profile.is_none() {
            p.push(FieldProblem::new("profile", "settings.error.profile"));
        }
        let planned_rounds = int_in(
            &mut p,
            "planned_rounds",
            &form.planned_rounds,
            1..=MAX_ROUNDS,
        );
        let hands = int_in(
            &mut p,
            "hands_per_round",
            &form.hands_per_round,
            HANDS_PER_ROUND,
        );
        let vp_scale = hands.and_then(|h| {
            let text = form.vp_scale.trim();
            if text.is_empty() {
                let preset = VpScale::preset(h);
                if preset.is_none() {
                    p.push(
                        FieldProblem::new("vp_scale", "settings.error.scale_needed")
                            .with("hands", h),
                    );
                }
                return preset;
            }
            let numbers: Option<Vec<i64>> = text
                .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
                .filter(|s| !s.is_empty())
                .map(|s| s.parse::<i64>().ok())
                .collect();
            match numbers.map(VpScale::parse) {
                Some(Ok(scale)) => Some(scale),
                _ => {
                    p.push(FieldProblem::new("vp_scale", "settings.error.scale"));
                    None
                }
            }
        });
        let minutes = if form.minutes_per_round.trim().is_empty() {
            hands.map(default_minutes)
        } else {
            int_in(
                &mut p,
                "minutes_per_round",
                &form.minutes_per_round,
                MINUTES_PER_ROUND,
            )
        };
        let mitchell_rounds = planned_rounds
            .and_then(|r| int_in(&mut p, "mitchell_rounds", &form.mitchell_rounds, 1..=r));
        let danish_modified = match form.danish_form.trim() {
            "modified" | "" => Some(true),
            "pure" => Some(false),
            _ => {
                p.push(FieldProblem::new("danish_form", "settings.error.choice"));
                None
            }
        };
        let advance = int_in(
            &mut p,
            "mitchell_advance",
            &form.mitchell_advance,
            1..=MAX_ADVANCE,
        );
        let allow_repeats = matches!(form.allow_repeats.trim(), "on" | "true" | "1" | "yes");
        let bye_vp = if form.bye_vp.trim().is_empty() {
            Some(u32::from(DEFAULT_BYE_VP))
        } else {
            int_in(&mut p, "bye_vp", &form.bye_vp, 0..=20)
        };
        let entry_fee = parse_money(&form.entry_fee);
        if entry_fee.is_none() {
            p.push(FieldProblem::new("entry_fee", "settings.error.money"));
        }
        let share = parse_percent(&form.prize_share_percent);
        if share.is_none() {
            p.push(FieldProblem::new(
                "prize_share_percent",
                "settings.error.percent",
            ));
        }
        let guaranteed = if form.guaranteed_pool.trim().is_empty() {
            Some(Decimal::ZERO)
        } else {
            parse_money(&form.guaranteed_pool)
        };
        if guaranteed.is_none() {
            p.push(FieldProblem::new("guaranteed_pool", "settings.error.money"));
        }
        let payout = parse_payout(&form.payout).map_err(|e| p.push(e)).ok();
        let suit_order = if form.suit_order.trim().is_empty() {
            Some(SuitOrder::default())
        } else {
            SuitOrder::parse(form.suit_order.trim()).ok()
        };
        if suit_order.is_none() {
            p.push(FieldProblem::new("suit_order", "settings.error.suit_order"));
        }
        if !p.is_empty() {
            return Err(p);
        }
        match (
            starts_at,
            profile,
            planned_rounds,
            hands,
            vp_scale,
            minutes,
            mitchell_rounds,
            danish_modified,
            advance,
            bye_vp,
            entry_fee,
            share,
            guaranteed,
            payout,
            suit_order,
        ) {
            (
                Some(starts_at),
                Some(profile),
                Some(planned_rounds),
                Some(hands_per_round),
                Some(vp_scale),
                Some(minutes_per_round),
                Some(mitchell_rounds),
                Some(danish_modified),
                Some(mitchell_advance),
                Some(bye_vp),
                Some(entry_fee),
                Some(prize_share_percent),
                Some(guaranteed_pool),
                Some(payout),
                Some(suit_order),
            ) => Ok(Settings {
                name,
                starts_at,
                venue,
                profile,
                planned_rounds,
                hands_per_round,
                vp_scale,
                minutes_per_round,
                mitchell_rounds,
                danish_modified,
                mitchell_advance,
                allow_repeats,
                bye_vp: u8::try_from(bye_vp).unwrap_or(DEFAULT_BYE_VP),
                entry_fee,
                prize_share_percent,
                guaranteed_pool,
                payout,
                suit_order,
            }),
            _ => Err(vec![FieldProblem::new("name", "settings.error.incomplete")]),
        }
    }

    /// The movement of round `n` (1-based): Mitchell for the first
    /// `mitchell_rounds`, then Danish.
    pub fn movement_of(&self, n: u32) -> RoundMovement {
        if n <= self.mitchell_rounds {
            RoundMovement::Mitchell
        } else if self.danish_modified {
            RoundMovement::DanishModified
        } else {
            RoundMovement::Danish
        }
    }

    /// The prize pool for a number of entries (pairs).
    pub fn pool_for(&self, entries: u32) -> Result<prize_pool::Prizes, prize_pool::PrizeError> {
        prize_pool::compute(&PrizeInput {
            entries,
            entry_fee: self.entry_fee,
            prize_share_percent: self.prize_share_percent,
            guaranteed_pool: self.guaranteed_pool,
            payout: self.payout.clone(),
            places: (1..=entries).collect(),
        })
    }
}

impl SettingsForm {
    /// The form a new tournament starts from (club-evening defaults).
    pub fn defaults(today: NaiveDate) -> SettingsForm {
        let three = VpScale::three_hands();
        SettingsForm {
            name: String::new(),
            date: today.format("%Y-%m-%d").to_string(),
            start_time: "21:00".into(),
            venue: String::new(),
            profile: RuleProfile::default_profile().name.to_string(),
            planned_rounds: "4".into(),
            hands_per_round: "3".into(),
            vp_scale: scale_text(&three),
            minutes_per_round: MINUTES_FOR_THREE_HANDS.to_string(),
            mitchell_rounds: "3".into(),
            danish_form: "modified".into(),
            mitchell_advance: "1".into(),
            allow_repeats: String::new(),
            bye_vp: DEFAULT_BYE_VP.to_string(),
            entry_fee: "20.00".into(),
            prize_share_percent: "70".into(),
            guaranteed_pool: "0.00".into(),
            payout: "1: 100\n8: 60 40\n16: 50 30 20".into(),
            suit_order: "HDCS".into(),
        }
    }

    /// The form showing saved settings (for editing).
    pub fn from_settings(s: &Settings, tz: chrono_tz::Tz) -> SettingsForm {
        let local = s.starts_at.and_utc().with_timezone(&tz);
        SettingsForm {
            name: s.name.clone(),
            date: local.format("%Y-%m-%d").to_string(),
            start_time: local.format("%H:%M").to_string(),
            venue: s.venue.clone(),
            profile: s.profile.name.to_string(),
            planned_rounds: s.planned_rounds.to_string(),
            hands_per_round: s.hands_per_round.to_string(),
            vp_scale: scale_text(&s.vp_scale),
            minutes_per_round: s.minutes_per_round.to_string(),
            mitchell_rounds: s.mitchell_rounds.to_string(),
            danish_form: if s.danish_modified {
                "modified"
            } else {
                "pure"
            }
            .into(),
            mitchell_advance: s.mitchell_advance.to_string(),
            allow_repeats: if s.allow_repeats {
                "on".into()
            } else {
                String::new()
            },
            bye_vp: s.bye_vp.to_string(),
            entry_fee: format!("{:.2}", s.entry_fee),
            prize_share_percent: s.prize_share_percent.normalize().to_string(),
            guaranteed_pool: format!("{:.2}", s.guaranteed_pool),
            payout: format_payout(&s.payout),
            suit_order: s.suit_order.to_string(),
        }
    }

    /// Keeps the locked (game-shaping) fields of `saved` once a tournament
    /// has started: only name, venue, date, time and minutes may change.
    pub fn with_locked_fields_of(mut self, saved: &SettingsForm) -> SettingsForm {
        let keep = self.clone();
        self = saved.clone();
        self.name = keep.name;
        self.venue = keep.venue;
        self.date = keep.date;
        self.start_time = keep.start_time;
        self.minutes_per_round = keep.minutes_per_round;
        self
    }
}

/// A VP scale as the form shows it.
pub fn scale_text(scale: &VpScale) -> String {
    scale
        .bounds()
        .iter()
        .map(|b| b.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form() -> SettingsForm {
        let mut f = SettingsForm::defaults(NaiveDate::from_ymd_opt(2026, 11, 20).unwrap());
        f.name = "Torneo del venerdì".into();
        f
    }

    #[test]
    fn the_default_form_is_valid() {
        let s = Settings::parse(&form(), chrono_tz::Europe::Rome).unwrap();
        assert_eq!(s.hands_per_round, 3);
        assert_eq!(s.vp_scale, VpScale::three_hands());
        // 21:00 in Rome in November is 20:00 UTC.
        assert_eq!(s.starts_at.format("%H:%M").to_string(), "20:00");
        assert_eq!(s.movement_of(3), RoundMovement::Mitchell);
        assert_eq!(s.movement_of(4), RoundMovement::DanishModified);
        let back = SettingsForm::from_settings(&s, chrono_tz::Europe::Rome);
        assert_eq!(Settings::parse(&back, chrono_tz::Europe::Rome).unwrap(), s);
    }

    #[test]
    fn every_bad_field_is_reported_next_to_it() {
        let mut f = form();
        f.name = " ".into();
        f.date = "31/02/2026".into();
        f.start_time = "25:00".into();
        f.profile = "home".into();
        f.planned_rounds = "0".into();
        f.entry_fee = "20.555".into();
        f.prize_share_percent = "120".into();
        f.payout = "1: 60 30".into();
        f.suit_order = "HHCS".into();
        let problems = Settings::parse(&f, chrono_tz::Europe::Rome).unwrap_err();
        let fields: Vec<&str> = problems.iter().map(|p| p.field).collect();
        for field in [
            "name",
            "date",
            "start_time",
            "profile",
            "planned_rounds",
            "entry_fee",
            "prize_share_percent",
            "payout",
            "suit_order",
        ] {
            assert!(fields.contains(&field), "{field} missing in {fields:?}");
        }
    }

    #[test]
    fn two_hands_need_a_scale_and_accept_one() {
        let mut f = form();
        f.hands_per_round = "2".into();
        f.vp_scale = String::new();
        let problems = Settings::parse(&f, chrono_tz::Europe::Rome).unwrap_err();
        assert_eq!(problems[0].field, "vp_scale");
        f.vp_scale = "30 100 170 240 330 430 530 670 830 1000".into();
        f.minutes_per_round = String::new();
        let s = Settings::parse(&f, chrono_tz::Europe::Rome).unwrap();
        assert_eq!(s.minutes_per_round, 27);
    }

    #[test]
    fn money_and_percentages_as_people_type_them() {
        assert_eq!(parse_money("20,50"), Some(Decimal::new(2050, 2)));
        assert_eq!(parse_money("€ 15"), Some(Decimal::new(1500, 2)));
        assert_eq!(parse_money("-1"), None);
        assert_eq!(parse_money("1.234"), None);
        assert_eq!(parse_percent("70,5%"), Some(Decimal::new(705, 1)));
        assert_eq!(parse_percent("101"), None);
    }

    #[test]
    fn payout_lines_are_checked() {
        let tiers = parse_payout("1: 60 40\n12: 50 30 20").unwrap();
        assert_eq!(tiers.len(), 2);
        assert_eq!(format_payout(&tiers), "1: 60 40\n12: 50 30 20");
        assert!(parse_payout("1 60 40").is_err());
        assert!(parse_payout("").is_err());
        assert!(parse_payout("1: 60 41").is_err(), "must add up to 100");
    }

    #[test]
    fn mitchell_rounds_cannot_exceed_the_rounds() {
        let mut f = form();
        f.mitchell_rounds = "5".into();
        let problems = Settings::parse(&f, chrono_tz::Europe::Rome).unwrap_err();
        assert_eq!(problems[0].field, "mitchell_rounds");
    }
}
