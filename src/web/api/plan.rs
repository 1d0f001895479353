//! The plan of a big field over JSON (RULES.md §13, FORMAT.md "Plans,
//! groups and prizes per group") and the tournament's level (§15): the
//! fields `createTournament`, `updateTournament` and `getTournament` share.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::movement::groups::GroupPlan;
use crate::tournament::plan::{self, GroupPrize, Level};
use crate::tournament::settings::{Settings, SettingsForm};

/// How the Danish rounds pair the tables.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DanishForm {
    Modified,
    Pure,
}

/// How the groups are made: tables per group (the last takes every pair
/// left) or a number of groups sharing the tables evenly.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum GroupPlanIn {
    Tables(Vec<u32>),
    Count(u32),
}

/// One group's prize: its share of the pool and its scheme, percentages
/// as decimal strings.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct GroupPrizeIn {
    pub group: String,
    pub share_percent: String,
    pub scheme: Vec<String>,
}

/// RULES.md §15.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum LevelIn {
    Club,
    Federal,
    Regional,
    National,
}

/// The plan's rounds in groups and the level as `TournamentIn` carries
/// them (all optional: absent, no groups and a club tournament).
#[derive(Debug, Clone, Default)]
pub struct PlanIn {
    pub group_rounds: Option<u32>,
    pub group_form: Option<DanishForm>,
    pub group_plan: Option<GroupPlanIn>,
    pub group_prizes: Option<Vec<GroupPrizeIn>>,
    pub level: Option<LevelIn>,
}

impl PlanIn {
    /// Writes the plan into the settings form the services parse.
    pub fn fill(&self, form: &mut SettingsForm) {
        form.group_rounds = self.group_rounds.unwrap_or(0).to_string();
        form.group_form = match self.group_form {
            Some(DanishForm::Pure) => "pure".into(),
            _ => "modified".into(),
        };
        (form.group_count, form.group_tables) = match &self.group_plan {
            Some(GroupPlanIn::Count(g)) => plan::group_plan_fields(&GroupPlan::Count(*g)),
            Some(GroupPlanIn::Tables(t)) if !t.is_empty() => {
                plan::group_plan_fields(&GroupPlan::Tables(t.clone()))
            }
            // An empty list is no plan: the form says so next to the field.
            Some(GroupPlanIn::Tables(_)) | None => (String::new(), String::new()),
        };
        form.group_prizes = self
            .group_prizes
            .as_deref()
            .unwrap_or_default()
            .iter()
            .map(|g| format!("{} {}: {}", g.group, g.share_percent, g.scheme.join(" ")))
            .collect::<Vec<_>>()
            .join("\n");
        form.level = self
            .level
            .map(|l| match l {
                LevelIn::Club => Level::Club,
                LevelIn::Federal => Level::Federal,
                LevelIn::Regional => Level::Regional,
                LevelIn::National => Level::National,
            })
            .unwrap_or_default()
            .code()
            .into();
    }

    /// The plan of saved settings.
    pub fn of(s: &Settings) -> PlanIn {
        let g = s.groups.as_ref();
        PlanIn {
            group_rounds: Some(g.map_or(0, |g| g.rounds)),
            group_form: g.map(|g| {
                if g.modified {
                    DanishForm::Modified
                } else {
                    DanishForm::Pure
                }
            }),
            group_plan: g.map(|g| match &g.plan {
                GroupPlan::Tables(t) => GroupPlanIn::Tables(t.clone()),
                GroupPlan::Count(c) => GroupPlanIn::Count(*c),
            }),
            group_prizes: g
                .and_then(|g| g.prizes.as_deref())
                .map(|p| p.iter().map(prize_out).collect()),
            level: Some(match s.level {
                Level::Club => LevelIn::Club,
                Level::Federal => LevelIn::Federal,
                Level::Regional => LevelIn::Regional,
                Level::National => LevelIn::National,
            }),
        }
    }
}

fn prize_out(p: &GroupPrize) -> GroupPrizeIn {
    GroupPrizeIn {
        group: p.group.clone(),
        share_percent: p.share_percent.normalize().to_string(),
        scheme: p
            .scheme
            .iter()
            .map(|s| s.0.normalize().to_string())
            .collect(),
    }
}
