//! Rounds in groups (RULES.md §13): the cut and each group's Danish round,
//! seated by the core's `next_round` over the tournament's file — the very
//! function `burraco-td next-round` prints, so the button and the command
//! line seat the same round.

use std::collections::HashMap;

use crate::db::DbConn;
use crate::ids::PairId;
use crate::movement::{self, PairNo};
use crate::next_round::{next_pairs_round, NextPairsRound, NextRoundError};
use crate::services::{Conflict, Loaded, ServiceError};
use crate::tournament_file::GroupFile;

/// The next round in groups as the core seats it for the tournament's
/// state: the seating, and the groups when this round makes the cut.
pub(super) fn next_in_groups(
    c: &mut DbConn,
    l: &Loaded,
    tz: chrono_tz::Tz,
) -> Result<(movement::RoundSeating, Option<Vec<GroupFile>>), ServiceError> {
    let file = crate::db::export::load_file(c, l.t.id, tz)?.ok_or(ServiceError::NotFound)?;
    // The seed only draws round 1, never a round in groups.
    let NextPairsRound { round, groups } = next_pairs_round(&file, 0).map_err(refusal)?;
    let seating = movement::RoundSeating {
        round: round.number,
        tables: round
            .tables
            .iter()
            .map(|t| movement::Seat {
                table: t.table,
                ns: Some(t.ns),
                ew: Some(t.ew),
            })
            .collect(),
        byes: round.byes.clone(),
    };
    Ok((seating, groups))
}

/// The groups the next round would cut, before they are made (the cut's
/// confirmation page): `None` when the field is cut already or the next
/// round is not in groups.
pub(super) fn cut_preview(
    c: &mut DbConn,
    l: &Loaded,
    tz: chrono_tz::Tz,
) -> Result<Option<Vec<GroupFile>>, ServiceError> {
    Ok(next_in_groups(c, l, tz)?.1)
}

/// Writes the cut: each pair's group.
pub(super) fn save_cut(
    c: &mut DbConn,
    l: &Loaded,
    groups: &[GroupFile],
    pair_ids: &HashMap<PairNo, PairId>,
) -> Result<(), ServiceError> {
    for g in groups {
        let ids: Vec<PairId> = g
            .pairs
            .iter()
            .map(|n| {
                pair_ids.get(n).copied().ok_or_else(|| {
                    ServiceError::corrupt(format!("group {}: pair {n} is not registered", g.name))
                })
            })
            .collect::<Result<_, _>>()?;
        crate::db::pairs::set_group(c, l.t.id, &ids, Some(&g.name))?;
    }
    Ok(())
}

/// The core's reason as a refusal (409 with its own code), or a data error
/// for what the services checked before asking.
fn refusal(e: NextRoundError) -> ServiceError {
    match e {
        NextRoundError::Movement(m) => ServiceError::Conflict(Conflict::Movement(m)),
        NextRoundError::GroupPlan(g) => ServiceError::Conflict(Conflict::Groups(g)),
        other => ServiceError::corrupt(format!(
            "next round in groups: {}",
            other.message(crate::i18n::Lang::En)
        )),
    }
}
