//! A tournament's settings: parsed from the director's form, every field
//! checked with a message next to it. Rule numbers come from the rule
//! profiles and VP scales (`crate::rules`), never from literals here.

use chrono::{NaiveDate, NaiveDateTime, NaiveTime, TimeZone};
use rust_decimal::Decimal;

use super::money::{Money, Percent, ENTRY_FEE, GUARANTEED_POOL};
use super::online::{OnlineForm, OnlineSwitches};
use super::plan::{self, GroupFields, GroupPhase, Level};
use super::text::clean_line;
use super::{FieldProblem, RoundMovement};
use crate::rules::prize_pool::{self, PayoutTier, PrizeInput};
use crate::rules::{RuleProfile, SheetMode, SuitOrder, VpScale, DEFAULT_BYE_VP};

/// Limits of the settings form.
pub const MAX_ROUNDS: u32 = 30;
pub const MAX_NAME_CHARS: usize = 120;
pub const HANDS_PER_ROUND: std::ops::RangeInclusive<u32> = 2..=4;
pub const MINUTES_PER_ROUND: std::ops::RangeInclusive<u32> = 10..=180;
pub const MAX_ADVANCE: u32 = 10;
/// The VP a bye may be given.
pub const BYE_VP: std::ops::RangeInclusive<u32> = 0..=20;
/// Most lines of a payout scheme, and the largest "from N entries" and
/// number of paid places of a line (the most pairs a tournament file holds).
pub const MAX_PAYOUT_TIERS: usize = 20;
pub const MAX_PAYOUT_ENTRIES: u32 = crate::tournament_file::MAX_PAIRS as u32;
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
    /// Club separation in the first draw (RULES.md §13): a checkbox, `on`
    /// or empty.
    pub separate_clubs: String,
    /// The last rounds of the plan, played in groups (RULES.md §13).
    pub group_rounds: String,
    pub group_form: String,
    pub group_count: String,
    pub group_tables: String,
    pub group_prizes: String,
    /// club, federal, regional or national (RULES.md §15).
    pub level: String,
    pub bye_vp: String,
    pub entry_fee: String,
    /// The prize share: a percentage of each entry fee, or with
    /// `prize_share_unit` = `amount` the amount of each fee that goes to
    /// the pool (`15` of a 20 € fee is 75 %).
    pub prize_share_percent: String,
    /// `percent` (also when empty: the default) or `amount` (per entry).
    /// Only how the share was typed: the settings keep the percentage.
    #[serde(skip_serializing)]
    pub prize_share_unit: String,
    pub guaranteed_pool: String,
    pub payout: String,
    pub suit_order: String,
    /// Table-side entry (players score on their phones): `on` (also when
    /// empty: the default) or `off`.
    pub table_entry: String,
    /// How sheets are entered, at the tables and by default at the desk:
    /// `full` (also when empty: the default) or `totals` (hand totals only).
    pub sheet_mode: String,
    /// `pairs` (also when empty: the default) or `teams` (issue 25): chosen
    /// when the tournament is created, never changed after.
    pub kind: String,
    /// Entries online (issue 36).
    #[serde(flatten)]
    pub online: OnlineForm,
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
    /// Pairs of one club on the same line of the first draw, so that they
    /// do not meet in the Mitchell rounds (RULES.md §13).
    pub separate_clubs: bool,
    /// The rounds in groups, when the plan has them.
    pub groups: Option<GroupPhase>,
    pub level: Level,
    pub bye_vp: u8,
    pub entry_fee: Decimal,
    pub prize_share_percent: Decimal,
    pub guaranteed_pool: Decimal,
    pub payout: Vec<PayoutTier>,
    pub suit_order: SuitOrder,
    /// Players may enter and confirm their sheets from the table (on by
    /// default; the desk can always enter, confirm or override).
    pub table_entry: bool,
    /// How the tables enter their sheets (and the desk's default): the whole
    /// card, or hand totals only (RULES.md §4 checks that need the card are
    /// then not possible; the sheet says so).
    pub sheet_mode: SheetMode,
    /// Entries online (issue 36; stored beside the tournament's row).
    pub online: OnlineSwitches,
}

/// The VP scale a settings text names for `hands` hands: the preset when
/// empty, else the bounds it lists.
pub fn scale_from_text(text: &str, hands: u32) -> Result<VpScale, FieldProblem> {
    let text = text.trim();
    if text.is_empty() {
        return VpScale::preset(hands).ok_or_else(|| {
            FieldProblem::new("vp_scale", "settings.error.scale_needed").with("hands", hands)
        });
    }
    let numbers: Option<Vec<i64>> = text
        .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<i64>().ok())
        .collect();
    match numbers.map(VpScale::parse) {
        Some(Ok(scale)) => Ok(scale),
        _ => Err(FieldProblem::new("vp_scale", "settings.error.scale")),
    }
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

/// A sum of money as people type it (`20`, `20.50`, `20,50`, `€ 20`),
/// within the entry fee's limit. The settings form parses each money field
/// with its own limit through [`Money::parse`].
pub fn parse_money(text: &str) -> Option<Decimal> {
    Money::parse(text, ENTRY_FEE).ok().map(Money::amount)
}

/// A percentage: `70`, `70.5`, `70,5`, `70%`.
pub fn parse_percent(text: &str) -> Option<Decimal> {
    Percent::parse(text).map(Percent::value)
}

/// `1: 60 40` per line: from how many entries a scheme applies, then the
/// percentage of the pool for each place. At most [`MAX_PAYOUT_TIERS`]
/// lines, [`MAX_PAYOUT_ENTRIES`] entries and as many paid places.
pub fn parse_payout(text: &str) -> Result<Vec<PayoutTier>, FieldProblem> {
    let mut tiers = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let bad = || FieldProblem::new("payout", "settings.error.payout_line").with("line", i + 1);
        let too_big = || {
            FieldProblem::new("payout", "settings.error.payout_limits")
                .with("line", i + 1)
                .with("max_tiers", MAX_PAYOUT_TIERS)
                .with("max_entries", MAX_PAYOUT_ENTRIES)
        };
        if tiers.len() >= MAX_PAYOUT_TIERS {
            return Err(too_big());
        }
        let (min, rest) = line.split_once(':').ok_or_else(bad)?;
        let min_entries = min.trim().parse::<u32>().map_err(|_| bad())?;
        if min_entries > MAX_PAYOUT_ENTRIES {
            return Err(too_big());
        }
        let cells: Vec<&str> = rest
            .split(|c: char| c.is_whitespace() || c == ';' || c == '/')
            .filter(|s| !s.is_empty())
            .collect();
        if cells.len() > MAX_PAYOUT_ENTRIES as usize {
            return Err(too_big());
        }
        let scheme = cells
            .into_iter()
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
    // Every tier must be a valid scheme: compute a prize list for each
    // (bounded above: at most MAX_PAYOUT_TIERS × MAX_PAYOUT_ENTRIES places).
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
        let name = match clean_line("name", &form.name, MAX_NAME_CHARS) {
            Ok(name) if name.is_empty() => {
                p.push(
                    FieldProblem::new("name", "settings.error.name").with("max", MAX_NAME_CHARS),
                );
                name
            }
            Ok(name) => name,
            Err(e) => {
                p.push(e);
                String::new()
            }
        };
        let venue = clean_line("venue", &form.venue, MAX_NAME_CHARS)
            .map_err(|e| p.push(e))
            .unwrap_or_default();
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
            scale_from_text(&form.vp_scale, h)
                .map_err(|e| p.push(e))
                .ok()
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
        let separate_clubs = matches!(form.separate_clubs.trim(), "on" | "true" | "1" | "yes");
        let groups = plan::parse_groups(
            GroupFields {
                rounds: &form.group_rounds,
                form: &form.group_form,
                count: &form.group_count,
                tables: &form.group_tables,
                prizes: &form.group_prizes,
            },
            planned_rounds,
            mitchell_rounds,
            &mut p,
        );
        let level = match form.level.trim() {
            "" => Level::Club,
            text => Level::parse(text).unwrap_or_else(|| {
                p.push(FieldProblem::new("level", "settings.error.choice"));
                Level::Club
            }),
        };
        let bye_vp = if form.bye_vp.trim().is_empty() {
            Some(u32::from(DEFAULT_BYE_VP))
        } else {
            int_in(&mut p, "bye_vp", &form.bye_vp, BYE_VP)
        };
        let entry_fee = Money::parse(&form.entry_fee, ENTRY_FEE)
            .map_err(|e| p.push(e))
            .ok();
        let share = if form.prize_share_unit.trim() == "amount" {
            super::money::share_of_amount(&form.prize_share_percent, entry_fee.map(|f| f.amount()))
                .map_err(|key| p.push(FieldProblem::new("prize_share_percent", key)))
                .ok()
        } else {
            let share = Percent::parse(&form.prize_share_percent);
            if share.is_none() {
                p.push(FieldProblem::new(
                    "prize_share_percent",
                    "settings.error.percent",
                ));
            }
            share
        };
        let guaranteed = if form.guaranteed_pool.trim().is_empty() {
            Some(Money::ZERO)
        } else {
            Money::parse(&form.guaranteed_pool, GUARANTEED_POOL)
                .map_err(|e| p.push(e))
                .ok()
        };
        let payout = parse_payout(&form.payout).map_err(|e| p.push(e)).ok();
        let suit_order = if form.suit_order.trim().is_empty() {
            Some(SuitOrder::default())
        } else {
            SuitOrder::parse_typed(form.suit_order.trim()).ok()
        };
        if suit_order.is_none() {
            p.push(FieldProblem::new("suit_order", "settings.error.suit_order"));
        }
        let table_entry = match form.table_entry.trim() {
            "" | "on" => true,
            "off" => false,
            _ => {
                p.push(FieldProblem::new("table_entry", "settings.error.choice"));
                true
            }
        };
        let sheet_mode = match form.sheet_mode.trim() {
            "" => SheetMode::Full,
            text => SheetMode::parse(text).unwrap_or_else(|| {
                p.push(FieldProblem::new("sheet_mode", "settings.error.choice"));
                SheetMode::Full
            }),
        };
        let online = OnlineSwitches::parse(&form.online, tz)
            .map_err(|e| p.extend(e))
            .unwrap_or_default();
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
                separate_clubs,
                groups,
                level,
                bye_vp: u8::try_from(bye_vp).unwrap_or(DEFAULT_BYE_VP),
                entry_fee: entry_fee.amount(),
                prize_share_percent: prize_share_percent.value(),
                guaranteed_pool: guaranteed_pool.amount(),
                payout,
                suit_order,
                table_entry,
                sheet_mode,
                online,
            }),
            _ => Err(vec![FieldProblem::new("name", "settings.error.incomplete")]),
        }
    }

    /// The movement of round `n` (1-based): Mitchell for the first
    /// `mitchell_rounds`, Danish in groups for the plan's last
    /// `groups.rounds`, Danish over the whole field between.
    pub fn movement_of(&self, n: u32) -> RoundMovement {
        if n <= self.mitchell_rounds {
            RoundMovement::Mitchell
        } else if let Some(g) = self
            .groups
            .as_ref()
            .filter(|g| n >= g.first_round(self.planned_rounds))
        {
            if g.modified {
                RoundMovement::DanishGroupsModified
            } else {
                RoundMovement::DanishGroups
            }
        } else if self.danish_modified {
            RoundMovement::DanishModified
        } else {
            RoundMovement::Danish
        }
    }

    /// The plan in phases, round 1 first: how many rounds of each movement.
    pub fn phases(&self) -> Vec<(u32, RoundMovement)> {
        let mut out: Vec<(u32, RoundMovement)> = Vec::new();
        for n in 1..=self.planned_rounds {
            let m = self.movement_of(n);
            match out.last_mut() {
                Some((count, last)) if *last == m => *count += 1,
                _ => out.push((1, m)),
            }
        }
        out
    }

    /// The regulation's warnings for this plan at its level (RULES.md §15).
    pub fn level_warnings(&self) -> Vec<FieldProblem> {
        plan::level_warnings(self.level, self.planned_rounds, self.hands_per_round)
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
            separate_clubs: String::new(),
            group_rounds: "0".into(),
            group_form: "modified".into(),
            group_count: String::new(),
            group_tables: String::new(),
            group_prizes: String::new(),
            level: Level::Club.code().into(),
            bye_vp: DEFAULT_BYE_VP.to_string(),
            entry_fee: "20.00".into(),
            prize_share_percent: "70".into(),
            prize_share_unit: String::new(),
            guaranteed_pool: "0.00".into(),
            payout: "1: 100\n8: 60 40\n16: 50 30 20".into(),
            suit_order: "HDCS".into(),
            table_entry: "on".into(),
            sheet_mode: SheetMode::Full.code().into(),
            kind: String::new(),
            online: OnlineForm::default(),
        }
    }

    /// The form showing saved settings (for editing).
    pub fn from_settings(s: &Settings, tz: chrono_tz::Tz) -> SettingsForm {
        let local = s.starts_at.and_utc().with_timezone(&tz);
        let group_fields = s
            .groups
            .as_ref()
            .map(|g| plan::group_plan_fields(&g.plan))
            .unwrap_or_default();
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
            separate_clubs: if s.separate_clubs {
                "on".into()
            } else {
                String::new()
            },
            group_rounds: s.groups.as_ref().map_or(0, |g| g.rounds).to_string(),
            group_form: if s.groups.as_ref().is_some_and(|g| !g.modified) {
                "pure"
            } else {
                "modified"
            }
            .into(),
            group_count: group_fields.0,
            group_tables: group_fields.1,
            group_prizes: s
                .groups
                .as_ref()
                .and_then(|g| g.prizes.as_deref())
                .map(plan::format_group_prizes)
                .unwrap_or_default(),
            level: s.level.code().into(),
            bye_vp: s.bye_vp.to_string(),
            entry_fee: format!("{:.2}", s.entry_fee),
            prize_share_percent: s.prize_share_percent.normalize().to_string(),
            prize_share_unit: String::new(),
            guaranteed_pool: format!("{:.2}", s.guaranteed_pool),
            payout: format_payout(&s.payout),
            suit_order: s.suit_order.to_string(),
            table_entry: if s.table_entry { "on" } else { "off" }.into(),
            sheet_mode: s.sheet_mode.code().into(),
            kind: String::new(),
            online: s.online.form(tz),
        }
    }

    /// The amounts and the prize share written as `lang` writes numbers
    /// (`20,00` and `70,5` in Italian, `20.00` and `70.5` in English), for
    /// showing the form; text that is not a number stays as typed.
    pub fn localised(mut self, lang: crate::i18n::Lang) -> SettingsForm {
        use crate::i18n::format;
        for field in [&mut self.entry_fee, &mut self.guaranteed_pool] {
            if let Some(d) = super::money::decimal_as_typed(field.trim()) {
                if d.normalize().scale() <= 2 {
                    *field = format::spreadsheet_amount(lang, d);
                }
            }
        }
        if self.prize_share_unit.trim() == "amount" {
            if let Some(d) = super::money::decimal_as_typed(self.prize_share_percent.trim()) {
                if d.normalize().scale() <= 2 {
                    self.prize_share_percent = format::spreadsheet_amount(lang, d);
                }
            }
        } else if let Some(p) = super::money::Percent::parse(&self.prize_share_percent) {
            self.prize_share_percent = format::decimal(lang, p.value());
        }
        // The suits with the language's initials (CQFP in Italian).
        if let Ok(o) = SuitOrder::parse_typed(&self.suit_order) {
            self.suit_order = o.initials(lang);
        }
        self
    }

    /// The prize share shown as the amount per entry when that is how it
    /// reads best: a percentage with more than two decimals that is a
    /// whole number of cents of the fee (`10` of 15 € rather than
    /// 66.666667 %).
    pub fn share_as_typed(mut self) -> SettingsForm {
        let (Some(fee), Some(p)) = (
            super::money::decimal_as_typed(self.entry_fee.trim()),
            super::money::Percent::parse(&self.prize_share_percent),
        ) else {
            return self;
        };
        if let Some(amount) = super::money::amount_of_share(p.value(), fee) {
            self.prize_share_percent = format!("{amount:.2}");
            self.prize_share_unit = "amount".into();
        }
        self
    }

    /// Keeps the locked (game-shaping) fields of `saved` once a tournament
    /// has started: only [`EDITABLE_WHEN_RUNNING`] may change.
    pub fn with_locked_fields_of(mut self, saved: &SettingsForm, cut_made: bool) -> SettingsForm {
        let keep = self.clone();
        self = saved.clone();
        self.name = keep.name;
        self.venue = keep.venue;
        self.date = keep.date;
        self.start_time = keep.start_time;
        self.minutes_per_round = keep.minutes_per_round;
        self.table_entry = keep.table_entry;
        self.sheet_mode = keep.sheet_mode;
        self.level = keep.level;
        self.group_prizes = keep.group_prizes;
        if !cut_made {
            self.group_rounds = keep.group_rounds;
            self.group_form = keep.group_form;
            self.group_count = keep.group_count;
            self.group_tables = keep.group_tables;
        }
        self
    }
}

/// The settings a director may still change once the tournament runs (the
/// form greys out the others): the one list the form and
/// [`SettingsForm::with_locked_fields_of`] follow.
pub const EDITABLE_WHEN_RUNNING: [&str; 9] = [
    "name",
    "venue",
    "date",
    "start_time",
    "minutes_per_round",
    "table_entry",
    "sheet_mode",
    "level",
    "group_prizes",
];

/// The plan's group fields: they stay open once the tournament runs, until
/// the first round in groups is seated (the cut); the service then checks
/// that the plan's rounds in groups all lie after the rounds seated.
pub const EDITABLE_UNTIL_CUT: [&str; 4] =
    ["group_rounds", "group_form", "group_count", "group_tables"];

/// Whether a settings field is locked once the tournament runs.
pub fn locked_when_running(field: &str) -> bool {
    !EDITABLE_WHEN_RUNNING.contains(&field)
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

    #[test]
    fn the_form_shows_amounts_as_the_language_writes_them() {
        let today = chrono::NaiveDate::from_ymd_opt(2026, 11, 23).unwrap();
        let mut form = SettingsForm::defaults(today);
        form.name = "Serata".into();
        form.prize_share_percent = "70.5".into();
        form.guaranteed_pool = "1000".into();
        let it = form.clone().localised(crate::i18n::Lang::It);
        assert_eq!(
            (it.entry_fee.as_str(), it.guaranteed_pool.as_str()),
            ("20,00", "1000,00")
        );
        assert_eq!(it.prize_share_percent, "70,5");
        let en = it.clone().localised(crate::i18n::Lang::En);
        assert_eq!(
            (en.entry_fee.as_str(), en.prize_share_percent.as_str()),
            ("20.00", "70.5")
        );
        // What is not a number stays as the director typed it.
        form.entry_fee = "venti".into();
        assert_eq!(form.localised(crate::i18n::Lang::It).entry_fee, "venti");
        // The Italian form parses back to the same settings.
        let back = Settings::parse(&it, chrono_tz::Europe::Rome).unwrap();
        assert_eq!(back.entry_fee, rust_decimal::Decimal::new(2000, 2));
        // The suits with Italian initials, stored with the notation's.
        assert_eq!(
            (it.suit_order.as_str(), en.suit_order.as_str()),
            ("CQFP", "HDCS")
        );
        assert_eq!(back.suit_order, crate::rules::SuitOrder::default());
        let mut old = it.clone();
        old.suit_order = "SHDC".into();
        let back = Settings::parse(&old, chrono_tz::Europe::Rome).unwrap();
        assert_eq!(
            back.suit_order.to_string(),
            "SHDC",
            "the old initials still read"
        );
        assert_eq!(old.localised(crate::i18n::Lang::It).suit_order, "PCQF");
    }

    #[test]
    fn the_fields_kept_after_the_start_are_the_listed_ones() {
        let today = chrono::NaiveDate::from_ymd_opt(2026, 11, 23).unwrap();
        let saved = SettingsForm::defaults(today);
        let edited: SettingsForm = serde_json::from_value(
            serde_json::to_value(&saved)
                .unwrap()
                .as_object()
                .unwrap()
                .keys()
                .map(|k| (k.clone(), serde_json::Value::String(format!("x-{k}"))))
                .collect::<serde_json::Map<_, _>>()
                .into(),
        )
        .unwrap();
        // Once cut, only the listed ones; before the cut, the plan's group
        // fields too.
        for cut_made in [true, false] {
            let kept = serde_json::to_value(edited.clone().with_locked_fields_of(&saved, cut_made))
                .unwrap();
            for (k, v) in kept.as_object().unwrap() {
                let changed = v.as_str() == Some(&format!("x-{k}"));
                let open = !locked_when_running(k)
                    || (!cut_made && EDITABLE_UNTIL_CUT.contains(&k.as_str()));
                assert_eq!(changed, open, "{k} (cut made: {cut_made})");
            }
        }
    }

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
    fn table_side_entry_is_on_by_default_and_stays_editable_after_the_start() {
        let mut f = form();
        assert!(
            Settings::parse(&f, chrono_tz::Europe::Rome)
                .unwrap()
                .table_entry
        );
        f.table_entry = String::new();
        assert!(
            Settings::parse(&f, chrono_tz::Europe::Rome)
                .unwrap()
                .table_entry
        );
        f.table_entry = "off".into();
        let s = Settings::parse(&f, chrono_tz::Europe::Rome).unwrap();
        assert!(!s.table_entry);
        assert_eq!(
            SettingsForm::from_settings(&s, chrono_tz::Europe::Rome).table_entry,
            "off"
        );
        let mut edited = form();
        edited.table_entry = "off".into();
        edited.hands_per_round = "4".into();
        let kept = edited.with_locked_fields_of(&form(), false);
        assert_eq!(
            (kept.table_entry.as_str(), kept.hands_per_round.as_str()),
            ("off", "3")
        );
        f.table_entry = "maybe".into();
        let problems = Settings::parse(&f, chrono_tz::Europe::Rome).unwrap_err();
        assert_eq!(problems[0].field, "table_entry");
    }

    #[test]
    fn mitchell_rounds_cannot_exceed_the_rounds() {
        let mut f = form();
        f.mitchell_rounds = "5".into();
        let problems = Settings::parse(&f, chrono_tz::Europe::Rome).unwrap_err();
        assert_eq!(problems[0].field, "mitchell_rounds");
    }

    #[test]
    fn money_is_bounded_and_the_largest_values_compute() {
        use crate::tournament::money::{MAX_ENTRY_FEE, MAX_GUARANTEED_POOL};
        let mut f = form();
        f.entry_fee = "1.000,00".into();
        f.guaranteed_pool = "1000000,00".into();
        f.prize_share_percent = "100".into();
        let s = Settings::parse(&f, chrono_tz::Europe::Rome).unwrap();
        assert_eq!(
            (s.entry_fee, s.guaranteed_pool),
            (MAX_ENTRY_FEE, MAX_GUARANTEED_POOL)
        );
        let entries = crate::tournament_file::MAX_PAIRS as u32;
        let pool = s.pool_for(entries).unwrap();
        assert_eq!(pool.pool, MAX_GUARANTEED_POOL);
        assert_eq!(pool.prizes.iter().copied().sum::<Decimal>(), pool.pool);
        f.guaranteed_pool = "0".into();
        let s = Settings::parse(&f, chrono_tz::Europe::Rome).unwrap();
        assert_eq!(
            s.pool_for(entries).unwrap().pool,
            Decimal::new(100_000_000, 2)
        );

        for (fee, pool) in [
            ("1000,01", "0"),
            ("0", "1000000,01"),
            (
                "79228162514264337593543950335",
                "79228162514264337593543950335",
            ),
            (
                "99999999999999999999999999999999",
                "-79228162514264337593543950335",
            ),
        ] {
            f.entry_fee = fee.into();
            f.guaranteed_pool = pool.into();
            let problems = Settings::parse(&f, chrono_tz::Europe::Rome).unwrap_err();
            let fields: Vec<&str> = problems.iter().map(|p| p.field).collect();
            assert!(
                fields.contains(&"entry_fee") || fields.contains(&"guaranteed_pool"),
                "{fee} {pool}"
            );
            for p in &problems {
                assert!(p
                    .message(crate::i18n::Lang::It)
                    .contains("Un importo in euro da 0 a"));
            }
        }
    }

    #[test]
    fn payout_schemes_are_bounded_before_any_work() {
        // A tier "from 4 billion pairs" would have built 4 billion places.
        let e = parse_payout("4294967295: 100").unwrap_err();
        assert_eq!(e.key, "settings.error.payout_limits");
        let e = parse_payout(&format!("{}: 100", MAX_PAYOUT_ENTRIES + 1)).unwrap_err();
        assert_eq!(e.key, "settings.error.payout_limits");
        let many_places = format!("1: {}", vec!["0.05"; 2000].join(" "));
        assert_eq!(
            parse_payout(&many_places).unwrap_err().key,
            "settings.error.payout_limits"
        );
        let many_tiers: String = (1..=MAX_PAYOUT_TIERS + 1)
            .map(|i| format!("{i}: 100\n"))
            .collect();
        assert_eq!(
            parse_payout(&many_tiers).unwrap_err().key,
            "settings.error.payout_limits"
        );
        // The largest accepted: a tier from the most pairs, paying 1000 places.
        let widest = format!(
            "1: 100\n{}: {}",
            MAX_PAYOUT_ENTRIES,
            vec!["0.1"; 1000].join(" ")
        );
        assert_eq!(parse_payout(&widest).unwrap().len(), 2);
        // Italian decimal commas in a scheme; a tier wider than the field.
        let tiers = parse_payout("1: 50 30 20\n8: 33,5 33,5 33").unwrap();
        assert_eq!(tiers[1].scheme[0], Decimal::new(335, 1));
        assert!(parse_payout("1: 60,5 40").is_err(), "must add up to 100");
    }
}
