//! The cut into groups (gironi) of a big field, RULES.md §13: at the first
//! round in groups, the active entrants in standings order are cut in that
//! order, group A first. Generic over the entrant's id (a pair today).
//!
//! Decisions:
//! - `{"tables": [tA, tB, …]}`: group X takes the next 2 × tX entrants; the
//!   last group takes every entrant left, whatever its own number says (with
//!   an odd field it holds the resting one). A list that leaves the last
//!   group fewer than 2 entrants, or gives a group 0 tables, is refused.
//! - `{"count": g}`: the T = ⌊entrants / 2⌋ tables are shared as evenly as
//!   possible, the extra tables going to the last groups (25 tables in 3
//!   groups: 8, 8, 9); g must leave every group a table.
//! - At most 26 groups (A to Z).
//! - A group seats ⌊entrants / 2⌋ tables; tables are numbered group after
//!   group (A's first), see [`first_tables`].

use super::error::{catalog_message, params};
use serde::{Deserialize, Serialize};

/// Most groups: one letter each.
pub const MAX_GROUPS: usize = 26;

/// How the groups are made (the file's `group_plan`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum GroupPlan {
    /// The tables of each group, A first.
    Tables(Vec<u32>),
    /// The number of groups; the tables are shared evenly.
    Count(u32),
}

/// One group as cut: its letter and its entrants in standings order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupCut<E> {
    pub name: String,
    pub members: Vec<E>,
}

/// Why a group plan cannot cut this field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GroupPlanError {
    #[error("a group plan needs at least one group, at most {max}")]
    GroupsOutOfRange { groups: usize, max: usize },
    #[error("group {group} is given no table")]
    EmptyGroup { group: String },
    #[error("{entrants} entrants cannot fill the groups: the groups before the last take {taken}, and the last needs at least 2")]
    TooFewEntrants { entrants: usize, taken: usize },
}

impl GroupPlanError {
    /// The stable code (upper snake case, like the movement's codes).
    pub fn code(&self) -> &'static str {
        match self {
            GroupPlanError::GroupsOutOfRange { .. } => "GROUPS_OUT_OF_RANGE",
            GroupPlanError::EmptyGroup { .. } => "EMPTY_GROUP",
            GroupPlanError::TooFewEntrants { .. } => "TOO_FEW_ENTRANTS_FOR_GROUPS",
        }
    }

    /// The message in `lang` (`movement.group_error.<CODE>`).
    pub fn message(&self, lang: crate::i18n::Lang) -> String {
        let params: Vec<(&'static str, String)> = match self {
            GroupPlanError::GroupsOutOfRange { groups, max } => params!(groups, max),
            GroupPlanError::EmptyGroup { group } => params!(group),
            GroupPlanError::TooFewEntrants { entrants, taken } => params!(entrants, taken),
        };
        catalog_message(
            lang,
            &format!("movement.group_error.{}", self.code()),
            &params,
        )
    }
}

/// The name of group `i` (0-based): `A`, `B`, … `Z`.
pub fn group_letter(i: usize) -> String {
    u8::try_from(i)
        .ok()
        .filter(|&i| usize::from(i) < MAX_GROUPS)
        .map(|i| char::from(b'A' + i).to_string())
        .unwrap_or_else(|| format!("G{}", i.saturating_add(1)))
}

/// The tables the plan gives each group for a field of `entrants` (before
/// the last group takes what is left): what the cut's confirmation page
/// shows.
pub fn tables_per_group(entrants: usize, plan: &GroupPlan) -> Result<Vec<u32>, GroupPlanError> {
    let tables = u32::try_from(entrants / 2).unwrap_or(u32::MAX);
    let wanted: Vec<u32> = match plan {
        GroupPlan::Tables(t) => t.clone(),
        GroupPlan::Count(g) => {
            let g = *g as usize;
            if g == 0 || g > MAX_GROUPS || g > tables as usize {
                return Err(GroupPlanError::GroupsOutOfRange {
                    groups: g,
                    max: MAX_GROUPS.min(tables as usize),
                });
            }
            let base = tables / g as u32;
            let extra = (tables % g as u32) as usize;
            (0..g).map(|i| base + u32::from(i >= g - extra)).collect()
        }
    };
    if wanted.is_empty() || wanted.len() > MAX_GROUPS {
        return Err(GroupPlanError::GroupsOutOfRange {
            groups: wanted.len(),
            max: MAX_GROUPS,
        });
    }
    if let Some(i) = wanted.iter().position(|&t| t == 0) {
        return Err(GroupPlanError::EmptyGroup {
            group: group_letter(i),
        });
    }
    let before_last: usize = wanted[..wanted.len() - 1]
        .iter()
        .map(|&t| 2 * t as usize)
        .sum();
    if entrants < before_last + 2 {
        return Err(GroupPlanError::TooFewEntrants {
            entrants,
            taken: before_last,
        });
    }
    let mut out = wanted;
    if let Some(last) = out.last_mut() {
        *last = u32::try_from((entrants - before_last) / 2).unwrap_or(u32::MAX);
    }
    Ok(out)
}

/// Cuts `ranking` (the active entrants in standings order) into groups.
pub fn cut_into_groups<E: Copy>(
    ranking: &[E],
    plan: &GroupPlan,
) -> Result<Vec<GroupCut<E>>, GroupPlanError> {
    let tables = tables_per_group(ranking.len(), plan)?;
    let mut rest = ranking;
    let last = tables.len() - 1;
    Ok(tables
        .iter()
        .enumerate()
        .map(|(i, &t)| {
            let take = if i == last {
                rest.len()
            } else {
                2 * t as usize
            };
            let (members, left) = rest.split_at(take);
            rest = left;
            GroupCut {
                name: group_letter(i),
                members: members.to_vec(),
            }
        })
        .collect())
}

/// The number of each group's first table: A's tables come first, then
/// B's (a group of n entrants seats ⌊n / 2⌋ tables: in a Danish round the
/// resting entrant has no table).
pub fn first_tables<E>(groups: &[GroupCut<E>]) -> Vec<u32> {
    let mut next = 1u32;
    groups
        .iter()
        .map(|g| {
            let first = next;
            next += u32::try_from(g.members.len() / 2).unwrap_or(u32::MAX);
            first
        })
        .collect()
}

#[cfg(test)]
#[path = "groups_tests.rs"]
mod tests;
