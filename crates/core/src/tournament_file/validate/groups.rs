//! The groups part of a pairs file's validation (FORMAT.md "Plans, groups
//! and prizes per group", RULES.md §13): the group plan, the groups as cut,
//! each table of a round in groups, the prizes per group.
//!
//! Decisions:
//! - `groups` are named A, B, C… in order, each with at least one pair;
//!   a pair is in at most one group; every pair is a registered entry.
//! - A plan (`movements`) with rounds in groups needs `group_plan` or
//!   `groups`; a round in groups needs `groups`; each of its tables names
//!   a group of the file that holds both its pairs.
//! - `group_prizes`: one entry per group (the groups of the file, or
//!   before the cut the groups of `group_plan`), each share 0–100, the
//!   shares adding up to 100; a group's scheme is checked as a payout
//!   scheme (percentages adding up to 100) unless its share is 0.

use super::problem::{At, FileProblem, ProblemCause, ProblemCode};
use crate::movement::groups::{group_letter, GroupPlan, MAX_GROUPS};
use crate::rules::prize_pool::{self, PayoutTier, PrizeInput};
use crate::tournament_file::{GroupPrizeFile, RoundFile, TournamentFile};
use rust_decimal::Decimal;
use std::collections::hash_map::Entry;
use std::collections::HashMap;

/// Each pair's group (its first, if listed twice).
pub(super) type GroupOf<'f> = HashMap<u32, &'f str>;

/// The plan, the groups and the group prizes of a pairs file.
pub(super) fn check_groups(file: &TournamentFile, out: &mut Vec<FileProblem>) {
    let in_groups = file.movements.iter().flatten().any(|m| m.in_groups());
    if let Some(plan) = &file.group_plan {
        check_plan(plan, out);
    } else if in_groups && file.groups.is_none() {
        out.push(FileProblem::new(
            "group_plan",
            ProblemCode::GroupPlanMissing,
        ));
    }
    if let Some(groups) = &file.groups {
        let entries: HashMap<u32, bool> = file
            .pairs
            .iter()
            .map(|p| (p.number, p.is_entry()))
            .collect();
        let mut seen: HashMap<u32, &str> = HashMap::new();
        for (i, g) in groups.iter().enumerate() {
            let at = At::root("groups", i);
            let expected = group_letter(i);
            if g.name != expected || i >= MAX_GROUPS {
                out.push(
                    FileProblem::new(format!("{at}.name"), ProblemCode::GroupNameInvalid)
                        .with("index", i.saturating_add(1))
                        .with("expected", expected)
                        .with("name", &g.name),
                );
            }
            if g.pairs.is_empty() {
                out.push(
                    FileProblem::new(format!("{at}.pairs"), ProblemCode::GroupNoPairs)
                        .with("group", &g.name),
                );
            }
            for (j, &pair) in g.pairs.iter().enumerate() {
                let place = || at.item("pairs", j).to_string();
                match entries.get(&pair) {
                    None => out.push(
                        FileProblem::new(place(), ProblemCode::PairUnknown).with("pair", pair),
                    ),
                    Some(false) => out.push(
                        FileProblem::new(place(), ProblemCode::PairNoShow).with("pair", pair),
                    ),
                    Some(true) => {}
                }
                match seen.entry(pair) {
                    Entry::Vacant(slot) => {
                        slot.insert(&g.name);
                    }
                    Entry::Occupied(slot) => out.push(
                        FileProblem::new(place(), ProblemCode::GroupPairTwice)
                            .with("pair", pair)
                            .with("previous", slot.get()),
                    ),
                }
            }
        }
    }
    if let Some(prizes) = &file.group_prizes {
        check_prizes(file, prizes, out);
    }
}

/// A plan gives 1 to 26 groups, each at least one table.
fn check_plan(plan: &GroupPlan, out: &mut Vec<FileProblem>) {
    let ok = match plan {
        GroupPlan::Tables(t) => !t.is_empty() && t.len() <= MAX_GROUPS && !t.contains(&0),
        GroupPlan::Count(g) => (1..=MAX_GROUPS).contains(&(*g as usize)),
    };
    if !ok {
        out.push(
            FileProblem::new("group_plan", ProblemCode::GroupPlanInvalid).with("max", MAX_GROUPS),
        );
    }
}

/// The names of the groups prizes must cover: the file's groups, else the
/// plan's.
fn group_names(file: &TournamentFile) -> Option<Vec<String>> {
    if let Some(groups) = &file.groups {
        return Some(groups.iter().map(|g| g.name.clone()).collect());
    }
    let count = match file.group_plan.as_ref()? {
        GroupPlan::Tables(t) => t.len(),
        GroupPlan::Count(g) => *g as usize,
    };
    Some((0..count.min(MAX_GROUPS)).map(group_letter).collect())
}

fn check_prizes(file: &TournamentFile, prizes: &[GroupPrizeFile], out: &mut Vec<FileProblem>) {
    let names = group_names(file);
    let mut given: HashMap<&str, usize> = HashMap::new();
    let mut sum = Decimal::ZERO;
    for (k, prize) in prizes.iter().enumerate() {
        let at = At::root("group_prizes", k);
        let group = prize.group.as_str();
        if names
            .as_ref()
            .is_some_and(|n| !n.iter().any(|name| name == group))
        {
            out.push(
                FileProblem::new(format!("{at}.group"), ProblemCode::GroupPrizeUnknown)
                    .with("group", group),
            );
        }
        if given.insert(group, k).is_some() {
            out.push(
                FileProblem::new(format!("{at}.group"), ProblemCode::GroupPrizeDuplicate)
                    .with("group", group),
            );
        }
        let share = prize.share_percent;
        if share < Decimal::ZERO || share > Decimal::ONE_HUNDRED {
            out.push(
                FileProblem::new(
                    format!("{at}.share_percent"),
                    ProblemCode::GroupShareOutOfRange,
                )
                .with("value", share),
            );
        }
        sum = sum.saturating_add(share);
        if !share.is_zero() {
            if let Err(e) = scheme_check(&prize.scheme) {
                let mut p =
                    FileProblem::new(format!("{at}.scheme"), ProblemCode::GroupSchemeInvalid)
                        .with("group", group);
                p.cause = Some(ProblemCause::Prize(e));
                out.push(p);
            }
        }
    }
    if sum != Decimal::ONE_HUNDRED {
        out.push(
            FileProblem::new("group_prizes", ProblemCode::GroupSharesNotHundred)
                .with("sum", sum.normalize()),
        );
    }
    for name in names.iter().flatten() {
        if !given.contains_key(name.as_str()) {
            out.push(
                FileProblem::new("group_prizes", ProblemCode::GroupPrizeMissing)
                    .with("group", name),
            );
        }
    }
}

/// A group's scheme, checked by the prize engine (RULES.md §10) on one
/// entry.
fn scheme_check(scheme: &[Decimal]) -> Result<(), prize_pool::PrizeError> {
    prize_pool::compute(&PrizeInput {
        entries: 1,
        entry_fee: Decimal::ZERO,
        prize_share_percent: Decimal::ZERO,
        guaranteed_pool: Decimal::ZERO,
        payout: vec![PayoutTier {
            min_entries: 1,
            scheme: scheme.to_vec(),
        }],
        places: vec![1],
    })
    .map(|_| ())
}

/// Each pair's group in the file's `groups`.
pub(super) fn group_of(file: &TournamentFile) -> GroupOf<'_> {
    let mut map = GroupOf::new();
    for g in file.groups.iter().flatten() {
        for &pair in &g.pairs {
            map.entry(pair).or_insert(&g.name);
        }
    }
    map
}

/// A round in groups: the file has groups, and each table names a group
/// that holds both its pairs.
pub(super) fn check_round_groups(
    file: &TournamentFile,
    group_of: &GroupOf<'_>,
    r: usize,
    round: &RoundFile,
    out: &mut Vec<FileProblem>,
) {
    if !round.movement.is_some_and(|m| m.in_groups()) {
        return;
    }
    let at = At::root("rounds", r);
    let Some(groups) = &file.groups else {
        out.push(
            FileProblem::new(format!("{at}.movement"), ProblemCode::GroupsMissing)
                .with("round", round.number),
        );
        return;
    };
    for (j, table) in round.tables.iter().enumerate() {
        let tat = at.item("tables", j);
        let Some(group) = &table.group else {
            out.push(
                FileProblem::new(format!("{tat}.group"), ProblemCode::TableGroupMissing)
                    .with("round", round.number),
            );
            continue;
        };
        if !groups.iter().any(|g| &g.name == group) {
            out.push(
                FileProblem::new(format!("{tat}.group"), ProblemCode::TableGroupUnknown)
                    .with("group", group),
            );
            continue;
        }
        for (line, pair) in [("ns", table.ns), ("ew", table.ew)] {
            if group_of.get(&pair) != Some(&group.as_str()) {
                out.push(
                    FileProblem::new(format!("{tat}.{line}"), ProblemCode::TableGroupMismatch)
                        .with("pair", pair)
                        .with("group", group),
                );
            }
        }
    }
}
