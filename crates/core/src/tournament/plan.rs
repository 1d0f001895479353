//! The plan of a big field (RULES.md §13) and the tournament's level
//! (§15), as the settings form gives them.
//!
//! Decisions:
//! - The plan runs in at most three phases, in this order: Mitchell (the
//!   first `mitchell_rounds`, as before), Danish over the whole field, and
//!   Danish in groups (the last `group_rounds`). Mitchell continues from
//!   round 1 and the groups never change once cut, so a Mitchell phase
//!   after a Danish one, or a whole-field round after the cut, would break
//!   §7 and §13; the form cannot say them.
//! - Groups are made by tables per group (`group_tables`, e.g. "7, 9, 9")
//!   or, when that is empty, by a number of groups (`group_count`).
//! - Group prizes are typed one group a line, A first:
//!   `A 50: 40 30 20 10` (the group's share of the pool in percent, then
//!   its scheme in percent per place). Empty: the payout is paid on the
//!   overall places.
//! - The level's limits are warnings (a derogation may exist), never
//!   refusals; they live in [`LEVEL_LIMITS`].

use rust_decimal::Decimal;

use super::money::Percent;
use super::FieldProblem;
use crate::movement::groups::{group_letter, GroupPlan, MAX_GROUPS};

/// A tournament's level (RULES.md §15).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Level {
    #[default]
    Club,
    Federal,
    Regional,
    National,
}

impl Level {
    pub const ALL: [Level; 4] = [
        Level::Club,
        Level::Federal,
        Level::Regional,
        Level::National,
    ];

    pub fn code(self) -> &'static str {
        match self {
            Level::Club => "club",
            Level::Federal => "federal",
            Level::Regional => "regional",
            Level::National => "national",
        }
    }

    pub fn parse(text: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.code() == text.trim())
    }

    pub fn label_key(self) -> &'static str {
        match self {
            Level::Club => "level.club",
            Level::Federal => "level.federal",
            Level::Regional => "level.regional",
            Level::National => "level.national",
        }
    }

    /// The limits the regulation sets for this level.
    pub fn limits(self) -> &'static LevelLimits {
        LEVEL_LIMITS
            .iter()
            .find(|l| l.level == self)
            .unwrap_or(&NO_LIMITS)
    }
}

/// What the regulation asks of a level's plan (RULES.md §15).
#[derive(Debug, PartialEq, Eq)]
pub struct LevelLimits {
    pub level: Level,
    /// Most rounds (without the regional delegate's authorisation).
    pub max_rounds: Option<u32>,
    /// Fewest rounds for a number of hands per round: `(hands, rounds)`;
    /// a hand count not listed is below the level's minimum.
    pub min_rounds: &'static [(u32, u32)],
}

/// The regulation's limits, one place. The national level keeps at least
/// the regional minimum (RULES.md is silent; a national event is never
/// shorter than a regional one).
pub const LEVEL_LIMITS: &[LevelLimits] = &[
    LevelLimits {
        level: Level::Club,
        max_rounds: Some(4),
        min_rounds: &[],
    },
    LevelLimits {
        level: Level::Regional,
        max_rounds: None,
        min_rounds: &[(3, 6), (4, 5)],
    },
    LevelLimits {
        level: Level::National,
        max_rounds: None,
        min_rounds: &[(3, 6), (4, 5)],
    },
];

const NO_LIMITS: LevelLimits = LevelLimits {
    level: Level::Federal,
    max_rounds: None,
    min_rounds: &[],
};

/// The warnings a plan gets for its level: each quotes the rule, none
/// refuses (field `planned_rounds`).
pub fn level_warnings(level: Level, planned_rounds: u32, hands: u32) -> Vec<FieldProblem> {
    let limits = level.limits();
    let mut out = Vec::new();
    if let Some(max) = limits.max_rounds.filter(|&m| planned_rounds > m) {
        out.push(
            FieldProblem::new("planned_rounds", "level.warn.too_many_rounds")
                .with("level", level.code())
                .with("max", max)
                .with("rounds", planned_rounds),
        );
    }
    if !limits.min_rounds.is_empty() {
        let enough = limits
            .min_rounds
            .iter()
            .any(|&(h, r)| hands >= h && planned_rounds >= r);
        if !enough {
            out.push(
                FieldProblem::new("planned_rounds", "level.warn.too_few_rounds")
                    .with("level", level.code())
                    .with("rounds", planned_rounds)
                    .with("hands", hands),
            );
        }
    }
    out
}

/// One group's prize: its share of the pool and its scheme (percent per
/// place in the group), RULES.md §13.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct GroupPrize {
    pub group: String,
    #[serde(with = "rust_decimal::serde::str")]
    pub share_percent: Decimal,
    pub scheme: Vec<PercentText>,
}

/// A percentage written as a string in files (`"40"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct PercentText(#[serde(with = "rust_decimal::serde::str")] pub Decimal);

/// The rounds in groups of a plan.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct GroupPhase {
    /// How many rounds, the last of the plan, are played in groups.
    pub rounds: u32,
    /// Danish modified (true) or pure.
    pub modified: bool,
    pub plan: GroupPlan,
    /// Prizes per group; `None`: the payout on the overall places.
    pub prizes: Option<Vec<GroupPrize>>,
}

impl GroupPhase {
    /// The first round in groups.
    pub fn first_round(&self, planned_rounds: u32) -> u32 {
        planned_rounds.saturating_sub(self.rounds) + 1
    }
}

/// The group fields of the settings form, as typed.
#[derive(Debug, Clone, Copy)]
pub struct GroupFields<'a> {
    pub rounds: &'a str,
    pub form: &'a str,
    pub count: &'a str,
    pub tables: &'a str,
    pub prizes: &'a str,
}

/// The groups of a plan of `planned` rounds whose first `mitchell` are
/// Mitchell: `Ok(None)` without rounds in groups.
pub fn parse_groups(
    f: GroupFields<'_>,
    planned: Option<u32>,
    mitchell: Option<u32>,
    p: &mut Vec<FieldProblem>,
) -> Option<GroupPhase> {
    let rounds = match f.rounds.trim() {
        "" | "0" => return None,
        text => match text.parse::<u32>() {
            Ok(r) => r,
            Err(_) => {
                p.push(FieldProblem::new(
                    "group_rounds",
                    "settings.error.group_rounds",
                ));
                return None;
            }
        },
    };
    if let (Some(planned), Some(mitchell)) = (planned, mitchell) {
        if mitchell + rounds > planned {
            p.push(
                FieldProblem::new("group_rounds", "settings.error.group_rounds_room")
                    .with("max", planned.saturating_sub(mitchell)),
            );
        }
    }
    let modified = match f.form.trim() {
        "modified" | "" => true,
        "pure" => false,
        _ => {
            p.push(FieldProblem::new("group_form", "settings.error.choice"));
            true
        }
    };
    let plan = if f.tables.trim().is_empty() {
        match f.count.trim().parse::<u32>() {
            Ok(g) if (1..=MAX_GROUPS as u32).contains(&g) => GroupPlan::Count(g),
            _ => {
                p.push(
                    FieldProblem::new("group_count", "settings.error.group_count")
                        .with("max", MAX_GROUPS),
                );
                return None;
            }
        }
    } else {
        match parse_tables(f.tables) {
            Some(t) => GroupPlan::Tables(t),
            None => {
                p.push(
                    FieldProblem::new("group_tables", "settings.error.group_tables")
                        .with("max", MAX_GROUPS),
                );
                return None;
            }
        }
    };
    let prizes = if f.prizes.trim().is_empty() {
        None
    } else {
        match parse_group_prizes(f.prizes) {
            Ok(prizes) => Some(prizes),
            Err(problem) => {
                p.push(problem);
                return None;
            }
        }
    };
    Some(GroupPhase {
        rounds,
        modified,
        plan,
        prizes,
    })
}

fn parse_tables(text: &str) -> Option<Vec<u32>> {
    let tables: Option<Vec<u32>> = text
        .split(|c: char| c.is_whitespace() || c == ',' || c == ';' || c == '+')
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<u32>().ok().filter(|&t| t >= 1))
        .collect();
    tables.filter(|t| !t.is_empty() && t.len() <= MAX_GROUPS)
}

/// Group prizes typed one group a line (`A 50: 40 30 20 10`; the letter may
/// be left out, lines go A, B, … in order). Shares must add up to 100 and
/// each scheme to 100.
pub fn parse_group_prizes(text: &str) -> Result<Vec<GroupPrize>, FieldProblem> {
    let mut out = Vec::new();
    for (i, line) in text.lines().filter(|l| !l.trim().is_empty()).enumerate() {
        let line_no = i + 1;
        let bad = || {
            FieldProblem::new("group_prizes", "settings.error.group_prize_line")
                .with("line", line_no)
        };
        if i >= MAX_GROUPS {
            return Err(bad());
        }
        let letter = group_letter(i);
        let line = line.trim();
        let rest = match line.split_once(|c: char| c.is_whitespace() || c == ':') {
            Some((head, rest)) if head.eq_ignore_ascii_case(&letter) => rest,
            Some((head, _)) if head.chars().all(|c| c.is_ascii_alphabetic()) => {
                return Err(
                    FieldProblem::new("group_prizes", "settings.error.group_prize_order")
                        .with("line", line_no)
                        .with("group", letter),
                )
            }
            _ => line,
        };
        let (share, scheme) = rest.split_once(':').ok_or_else(bad)?;
        let share = Percent::parse(share.trim().trim_end_matches('%')).ok_or_else(bad)?;
        let scheme: Option<Vec<PercentText>> = scheme
            .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
            .filter(|s| !s.is_empty())
            .map(|s| Percent::parse(s.trim_end_matches('%')).map(|p| PercentText(p.value())))
            .collect();
        let scheme = scheme.filter(|s| !s.is_empty()).ok_or_else(bad)?;
        let total: Decimal = scheme.iter().map(|p| p.0).sum();
        if total != Decimal::ONE_HUNDRED {
            return Err(
                FieldProblem::new("group_prizes", "settings.error.group_scheme_total")
                    .with("group", &letter)
                    .with("total", total.normalize()),
            );
        }
        out.push(GroupPrize {
            group: letter,
            share_percent: share.value(),
            scheme,
        });
    }
    let shares: Decimal = out.iter().map(|g| g.share_percent).sum();
    if shares != Decimal::ONE_HUNDRED {
        return Err(
            FieldProblem::new("group_prizes", "settings.error.group_shares_total")
                .with("total", shares.normalize()),
        );
    }
    Ok(out)
}

/// Group prizes as the form and the database write them.
pub fn format_group_prizes(prizes: &[GroupPrize]) -> String {
    prizes
        .iter()
        .map(|g| {
            let scheme: Vec<String> = g
                .scheme
                .iter()
                .map(|p| p.0.normalize().to_string())
                .collect();
            format!(
                "{} {}: {}",
                g.group,
                g.share_percent.normalize(),
                scheme.join(" ")
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A group plan as the form's two fields show it: (count, tables).
pub fn group_plan_fields(plan: &GroupPlan) -> (String, String) {
    match plan {
        GroupPlan::Count(g) => (g.to_string(), String::new()),
        GroupPlan::Tables(t) => (
            String::new(),
            t.iter().map(u32::to_string).collect::<Vec<_>>().join(", "),
        ),
    }
}

/// The rounds in groups as the database keeps them: JSON, empty for none.
pub fn stored_groups(groups: Option<&GroupPhase>) -> String {
    groups
        .and_then(|g| serde_json::to_string(g).ok())
        .unwrap_or_default()
}

/// Stored rounds in groups read back and checked against the form's
/// bounds: the error names what does not read.
pub fn read_stored_groups(text: &str, planned_rounds: u32) -> Result<Option<GroupPhase>, String> {
    if text.trim().is_empty() {
        return Ok(None);
    }
    let g: GroupPhase = serde_json::from_str(text).map_err(|e| format!("groups {text:?}: {e}"))?;
    let plan_ok = match &g.plan {
        GroupPlan::Count(c) => (1..=MAX_GROUPS as u32).contains(c),
        GroupPlan::Tables(t) => !t.is_empty() && t.len() <= MAX_GROUPS && !t.contains(&0),
    };
    if g.rounds == 0 || g.rounds >= planned_rounds || !plan_ok {
        return Err(format!(
            "groups {text:?} do not fit {planned_rounds} rounds"
        ));
    }
    if let Some(prizes) = &g.prizes {
        parse_group_prizes(&format_group_prizes(prizes))
            .map_err(|p| format!("groups {text:?}: {}", p.key))?;
    }
    Ok(Some(g))
}

/// The stored text of a group plan (`count:3`, `tables:7,9,9`).
pub fn group_plan_text(plan: &GroupPlan) -> String {
    match plan {
        GroupPlan::Count(g) => format!("count:{g}"),
        GroupPlan::Tables(t) => format!(
            "tables:{}",
            t.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
        ),
    }
}

/// A stored group plan read back.
pub fn parse_group_plan_text(text: &str) -> Option<GroupPlan> {
    match text.trim().split_once(':')? {
        ("count", g) => g.parse().ok().filter(|&g| g >= 1).map(GroupPlan::Count),
        ("tables", t) => parse_tables(t).map(GroupPlan::Tables),
        _ => None,
    }
}

#[cfg(test)]
#[path = "plan_tests.rs"]
mod tests;
