//! A round of Danish in groups (RULES.md §13): each group is paired on its
//! own by the Danish rule of §7 (pure or modified) over its pairs in the
//! order of the group's standings, with the bye of §7 in a group with an
//! odd number of pairs; tables are numbered group after group, A's first.
//! Built on the Danish movement ([`danish_round_from`]) and its toolkit.
//!
//! Decisions:
//! - The input is each group's ranking of its ACTIVE pairs (withdrawn ones
//!   left out), best first, as [`group_entries`] builds it from the
//!   standings with groups and the rounds so far.
//! - A group left with a single active pair (the others withdrew) rests it;
//!   an empty group seats nothing. Every other group needs a legal pairing
//!   of its own: a modified round with two pairs who just met is refused
//!   ([`MovementError::NoLegalPairing`]), as for the whole field.
//! - A group seats ⌊active pairs / 2⌋ tables, from the table after the
//!   previous group's last.

use super::danish::{danish_round_from, entries_from_history, DanishEntry};
use super::error::MovementError;
use super::groups::GroupCut;
use super::seating::{PairNo, RoundSeating, Seat, TableNo};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// A table of a round in groups: its group and its seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupSeat {
    pub group: String,
    #[serde(flatten)]
    pub seat: Seat,
}

/// A round of Danish in groups: its tables (A's first) and, per group with
/// an odd number of pairs, its resting pair.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupsRound {
    pub round: u32,
    pub tables: Vec<GroupSeat>,
    /// (group, resting pair), in group order.
    pub byes: Vec<(String, PairNo)>,
}

impl GroupsRound {
    /// The round as the movement engine's seating (groups dropped).
    pub fn seating(&self) -> RoundSeating {
        RoundSeating {
            round: self.round,
            tables: self.tables.iter().map(|t| t.seat).collect(),
            byes: self.byes.iter().map(|b| b.1).collect(),
        }
    }
}

/// Each group's Danish entries: its members that are in `ranking` (the
/// active pairs in the order of the standings with groups), in that order,
/// with their history ([`entries_from_history`]).
pub fn group_entries(
    groups: &[GroupCut<PairNo>],
    ranking: &[PairNo],
    history: &[RoundSeating],
) -> Vec<GroupCut<DanishEntry>> {
    let position: HashMap<PairNo, usize> =
        ranking.iter().enumerate().map(|(i, &p)| (p, i)).collect();
    groups
        .iter()
        .map(|g| {
            let mut members: Vec<PairNo> = g
                .members
                .iter()
                .copied()
                .filter(|p| position.contains_key(p))
                .collect();
            members.sort_by_key(|p| position.get(p).copied());
            GroupCut {
                name: g.name.clone(),
                members: entries_from_history(&members, history),
            }
        })
        .collect()
}

/// The Danish round `round` in groups: `groups` in order (A first), each
/// with its ranking (see the module doc).
pub fn danish_groups_round(
    round: u32,
    groups: &[GroupCut<DanishEntry>],
    modified: bool,
) -> Result<GroupsRound, MovementError> {
    if round == 0 {
        return Err(MovementError::InvalidRound { round });
    }
    let mut next: TableNo = 1;
    let mut out = GroupsRound {
        round,
        tables: Vec::new(),
        byes: Vec::new(),
    };
    for group in groups {
        if let [only] = group.members.as_slice() {
            out.byes.push((group.name.clone(), only.pair));
            continue;
        }
        if group.members.is_empty() {
            continue;
        }
        let seating = danish_round_from(round, &group.members, modified, next)?;
        next = next.saturating_add(TableNo::try_from(seating.tables.len()).unwrap_or(0));
        out.tables
            .extend(seating.tables.into_iter().map(|seat| GroupSeat {
                group: group.name.clone(),
                seat,
            }));
        out.byes
            .extend(seating.byes.into_iter().map(|p| (group.name.clone(), p)));
    }
    Ok(out)
}

#[cfg(test)]
#[path = "danish_groups_tests.rs"]
mod tests;
