//! A tournament's settings over JSON: the body of `createTournament` and
//! `updateTournament`, and what `getTournament` gives back (the settings
//! form the services parse, both ways).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::tournament::settings::{format_payout, scale_text, Settings, SettingsForm};

use super::online::OnlineIn;
pub use super::plan::DanishForm;
use super::plan::{GroupPlanIn, GroupPrizeIn, LevelIn, PlanIn};

/// One line of the payout: from how many entries it applies, and the
/// percentage of the pool for each place.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PayoutTier {
    pub min_entries: u32,
    /// Percentages as decimal strings (`"60"`, `"27.5"`).
    pub percents: Vec<String>,
}

/// A tournament's settings (createTournament, updateTournament). Once round
/// 1 is drawn only name, venue, date, start time, minutes and table entry
/// change; the rest keeps its saved values.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"name": "Torneo del lunedì", "date": "2026-11-23", "start_time": "20:30",
    "venue": "Circolo", "profile": "codice", "planned_rounds": 4, "hands_per_round": 3,
    "mitchell_rounds": 2, "mitchell_advance": 1, "entry_fee": "10.00", "prize_share_percent": "70",
    "payout": [{"min_entries": 1, "percents": ["60", "40"]}]}))]
pub struct TournamentIn {
    pub name: String,
    /// Local date, `YYYY-MM-DD`.
    pub date: String,
    /// Local time, `HH:MM`.
    pub start_time: String,
    #[serde(default)]
    pub venue: Option<String>,
    /// Rule profile: `codice` or `classic`.
    pub profile: String,
    pub planned_rounds: u32,
    pub hands_per_round: u32,
    /// VP scale bounds; absent: the preset for the hands per round.
    #[serde(default)]
    pub vp_scale: Option<Vec<i64>>,
    /// Absent: the default for the hands per round.
    #[serde(default)]
    pub minutes_per_round: Option<u32>,
    pub mitchell_rounds: u32,
    #[serde(default)]
    pub danish_form: Option<DanishForm>,
    pub mitchell_advance: u32,
    #[serde(default)]
    pub allow_repeats: Option<bool>,
    /// Club separation in the first draw (RULES.md §13): pairs of one club
    /// on the same line of the Mitchell (default false).
    #[serde(default)]
    pub separate_clubs: Option<bool>,
    #[serde(default)]
    pub bye_vp: Option<u32>,
    /// Money as a decimal string (`"10.00"`).
    pub entry_fee: String,
    pub prize_share_percent: String,
    #[serde(default)]
    pub guaranteed_pool: Option<String>,
    pub payout: Vec<PayoutTier>,
    /// Suit order of the seat draw, e.g. `HDCS`.
    #[serde(default)]
    pub suit_order: Option<String>,
    /// Players enter their sheets from the table (default true).
    #[serde(default)]
    pub table_entry: Option<bool>,
    /// How the tables enter their sheets: `full` (default) or `totals`
    /// (hand totals only).
    #[serde(default)]
    pub sheet_mode: Option<SheetModeIn>,
    /// `pairs` (default), `teams` (issue 25) or `individual` (issue 35):
    /// chosen when the tournament is created, never changed after (ignored
    /// by an update).
    #[serde(default)]
    pub kind: Option<KindIn>,
    /// How many of the plan's last rounds are Danish in groups (RULES.md
    /// §13; 0 or absent: none).
    #[serde(default)]
    pub group_rounds: Option<u32>,
    /// Danish in the groups: modified (default) or pure.
    #[serde(default)]
    pub group_form: Option<DanishForm>,
    /// How the groups are made: `{"tables": [7, 9, 9]}` or `{"count": 3}`;
    /// required with rounds in groups.
    #[serde(default)]
    pub group_plan: Option<GroupPlanIn>,
    /// Prizes per group, shares adding up to 100; absent: the payout on
    /// the overall places.
    #[serde(default)]
    pub group_prizes: Option<Vec<GroupPrizeIn>>,
    /// The tournament's level (RULES.md §15): club (default), federal,
    /// regional or national; it only warns.
    #[serde(default)]
    pub level: Option<LevelIn>,
    /// The public entry form takes entries (issue 36; default false).
    #[serde(default)]
    pub online_entries: Option<bool>,
    /// Entries confirmed at most (≥ 1); null: no limit.
    #[serde(default)]
    pub capacity: Option<i64>,
    /// When entries close, RFC 3339 (given back in UTC); null: at the
    /// start. A past time closes entries at once.
    #[serde(default)]
    pub entries_close_at: Option<String>,
    /// Cards are checked against the member list (default false).
    #[serde(default)]
    pub member_check: Option<bool>,
}

/// What a tournament holds: pairs, teams or players alone.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum KindIn {
    Pairs,
    Teams,
    Individual,
}

impl KindIn {
    /// The kind of a stored tournament.
    pub fn of(kind: crate::tournament_file::FileKind) -> KindIn {
        match kind {
            crate::tournament_file::FileKind::Pairs => KindIn::Pairs,
            crate::tournament_file::FileKind::Teams => KindIn::Teams,
            crate::tournament_file::FileKind::Individual => KindIn::Individual,
        }
    }
}

/// How the tables enter their sheets.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum SheetModeIn {
    Full,
    Totals,
}

/// The bounds of the settings' numbers, from the core's limits: the
/// document states them (`openapi::document`) and a body outside them is
/// refused with 422 naming the field, whether or not the use case reads
/// the value (a locked setting of a running tournament).
pub fn schema_bounds() -> Vec<(&'static str, &'static str, i64, i64)> {
    use crate::tournament::settings::{
        BYE_VP, HANDS_PER_ROUND, MAX_ADVANCE, MAX_PAYOUT_ENTRIES, MAX_ROUNDS, MINUTES_PER_ROUND,
    };
    let range = |r: std::ops::RangeInclusive<u32>| (i64::from(*r.start()), i64::from(*r.end()));
    let t = "TournamentIn";
    vec![
        (t, "planned_rounds", 1, i64::from(MAX_ROUNDS)),
        (
            t,
            "hands_per_round",
            range(HANDS_PER_ROUND).0,
            range(HANDS_PER_ROUND).1,
        ),
        (
            t,
            "minutes_per_round",
            range(MINUTES_PER_ROUND).0,
            range(MINUTES_PER_ROUND).1,
        ),
        (t, "mitchell_rounds", 1, i64::from(MAX_ROUNDS)),
        (t, "mitchell_advance", 1, i64::from(MAX_ADVANCE)),
        (t, "bye_vp", range(BYE_VP).0, range(BYE_VP).1),
        (
            "PayoutTier",
            "min_entries",
            0,
            i64::from(MAX_PAYOUT_ENTRIES),
        ),
    ]
}

impl TournamentIn {
    /// The settings form the services parse (every value as typed).
    pub fn form(&self) -> SettingsForm {
        let opt = |v: Option<u32>| v.map(|n| n.to_string()).unwrap_or_default();
        let mut form = SettingsForm {
            name: self.name.clone(),
            date: self.date.clone(),
            start_time: self.start_time.clone(),
            venue: self.venue.clone().unwrap_or_default(),
            profile: self.profile.clone(),
            planned_rounds: self.planned_rounds.to_string(),
            hands_per_round: self.hands_per_round.to_string(),
            vp_scale: self
                .vp_scale
                .as_ref()
                .map(|s| s.iter().map(i64::to_string).collect::<Vec<_>>().join(" "))
                .unwrap_or_default(),
            minutes_per_round: opt(self.minutes_per_round),
            mitchell_rounds: self.mitchell_rounds.to_string(),
            danish_form: match self.danish_form {
                Some(DanishForm::Pure) => "pure".into(),
                _ => "modified".into(),
            },
            mitchell_advance: self.mitchell_advance.to_string(),
            allow_repeats: if self.allow_repeats == Some(true) {
                "on".into()
            } else {
                String::new()
            },
            separate_clubs: if self.separate_clubs == Some(true) {
                "on".into()
            } else {
                String::new()
            },
            bye_vp: opt(self.bye_vp),
            entry_fee: self.entry_fee.clone(),
            prize_share_percent: self.prize_share_percent.clone(),
            prize_share_unit: String::new(),
            guaranteed_pool: self.guaranteed_pool.clone().unwrap_or_default(),
            payout: self
                .payout
                .iter()
                .map(|t| format!("{}: {}", t.min_entries, t.percents.join(" ")))
                .collect::<Vec<_>>()
                .join("\n"),
            suit_order: self.suit_order.clone().unwrap_or_default(),
            table_entry: match self.table_entry {
                Some(false) => "off".into(),
                _ => "on".into(),
            },
            sheet_mode: match self.sheet_mode {
                Some(SheetModeIn::Totals) => "totals".into(),
                _ => "full".into(),
            },
            kind: match self.kind {
                Some(KindIn::Teams) => "teams".into(),
                Some(KindIn::Individual) => "individual".into(),
                _ => "pairs".into(),
            },
            ..SettingsForm::default()
        };
        PlanIn {
            group_rounds: self.group_rounds,
            group_form: self.group_form,
            group_plan: self.group_plan.clone(),
            group_prizes: self.group_prizes.clone(),
            level: self.level,
        }
        .fill(&mut form);
        OnlineIn {
            online_entries: self.online_entries,
            capacity: self.capacity,
            entries_close_at: self.entries_close_at.clone(),
            member_check: self.member_check,
        }
        .fill(&mut form);
        form
    }

    pub fn of(s: &Settings, tz: chrono_tz::Tz) -> TournamentIn {
        let f = SettingsForm::from_settings(s, tz);
        let plan = PlanIn::of(s);
        let online = OnlineIn::of(&s.online);
        TournamentIn {
            name: s.name.clone(),
            date: f.date,
            start_time: f.start_time,
            venue: Some(s.venue.clone()),
            profile: s.profile.name.to_string(),
            planned_rounds: s.planned_rounds,
            hands_per_round: s.hands_per_round,
            vp_scale: Some(
                scale_text(&s.vp_scale)
                    .split_whitespace()
                    .filter_map(|n| n.parse().ok())
                    .collect(),
            ),
            minutes_per_round: Some(s.minutes_per_round),
            mitchell_rounds: s.mitchell_rounds,
            danish_form: Some(if s.danish_modified {
                DanishForm::Modified
            } else {
                DanishForm::Pure
            }),
            mitchell_advance: s.mitchell_advance,
            allow_repeats: Some(s.allow_repeats),
            separate_clubs: Some(s.separate_clubs),
            bye_vp: Some(u32::from(s.bye_vp)),
            entry_fee: f.entry_fee,
            prize_share_percent: f.prize_share_percent,
            guaranteed_pool: Some(f.guaranteed_pool),
            payout: format_payout(&s.payout)
                .lines()
                .filter_map(|l| {
                    let (min, rest) = l.split_once(':')?;
                    Some(PayoutTier {
                        min_entries: min.trim().parse().ok()?,
                        percents: rest.split_whitespace().map(str::to_string).collect(),
                    })
                })
                .collect(),
            suit_order: Some(f.suit_order),
            table_entry: Some(s.table_entry),
            sheet_mode: Some(match s.sheet_mode {
                crate::rules::SheetMode::Totals => SheetModeIn::Totals,
                crate::rules::SheetMode::Full => SheetModeIn::Full,
            }),
            kind: None,
            group_rounds: plan.group_rounds,
            group_form: plan.group_form,
            group_plan: plan.group_plan,
            group_prizes: plan.group_prizes,
            level: plan.level,
            online_entries: online.online_entries,
            capacity: online.capacity,
            entries_close_at: online.entries_close_at,
            member_check: online.member_check,
        }
    }
}
