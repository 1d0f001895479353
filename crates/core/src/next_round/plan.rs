//! What every kind's next round starts from: its number and planned
//! movement, and the last round over.

use super::error::NextRoundError;
use crate::tournament_file::{IndividualRoundFile, RoundFile, TeamRoundFile};

/// A round of a file, as the next round looks at it: its number and its
/// tables without a result.
pub(super) trait PlayedRound {
    fn number(&self) -> u32;
    fn open_tables(&self) -> Vec<u32>;
}

impl PlayedRound for RoundFile {
    fn number(&self) -> u32 {
        self.number
    }
    fn open_tables(&self) -> Vec<u32> {
        self.tables
            .iter()
            .filter(|t| !t.is_scored())
            .map(|t| t.table)
            .collect()
    }
}

impl PlayedRound for TeamRoundFile {
    fn number(&self) -> u32 {
        self.number
    }
    fn open_tables(&self) -> Vec<u32> {
        self.matches
            .iter()
            .flat_map(|m| &m.tables)
            .filter(|t| !t.is_scored())
            .map(|t| t.table)
            .collect()
    }
}

impl PlayedRound for IndividualRoundFile {
    fn number(&self) -> u32 {
        self.number
    }
    fn open_tables(&self) -> Vec<u32> {
        self.tables
            .iter()
            .filter(|t| !t.is_scored())
            .map(|t| t.table)
            .collect()
    }
}

/// The next round of a file's `rounds` by its plan: its number and planned
/// movement ([`next_in_plan`]), once the last round is over ([`ensure_over`]).
pub(super) fn next_of<M: Copy, R: PlayedRound>(
    rounds: &[R],
    movements: Option<&[M]>,
    planned_rounds: Option<u32>,
) -> Result<(u32, Option<M>), NextRoundError> {
    let next = next_in_plan(rounds.len(), movements, planned_rounds)?;
    let last = rounds.last();
    ensure_over(
        last.map(PlayedRound::number),
        last.map(PlayedRound::open_tables)
            .unwrap_or_default()
            .into_iter(),
    )?;
    Ok(next)
}

/// The next round's number (the rounds so far + 1) and its movement in the
/// plan (`movements`, round 1 first; `None` without a plan). Past the plan
/// (`movements`, else `planned_rounds`) the plan is complete.
fn next_in_plan<M: Copy>(
    rounds: usize,
    movements: Option<&[M]>,
    planned_rounds: Option<u32>,
) -> Result<(u32, Option<M>), NextRoundError> {
    let n = u32::try_from(rounds).unwrap_or(u32::MAX).saturating_add(1);
    let planned = movements
        .map(|m| u32::try_from(m.len()).unwrap_or(u32::MAX))
        .or(planned_rounds);
    if let Some(rounds) = planned.filter(|&p| n > p) {
        return Err(NextRoundError::PlanComplete { rounds });
    }
    Ok((n, movements.and_then(|m| m.get(rounds).copied())))
}

/// Refuses while tables of the last round (its number, and its tables
/// without a result) have no result.
fn ensure_over(last: Option<u32>, open: impl Iterator<Item = u32>) -> Result<(), NextRoundError> {
    let open: Vec<String> = open.map(|t| t.to_string()).collect();
    match last {
        Some(round) if !open.is_empty() => Err(NextRoundError::RoundIncomplete {
            round,
            tables: open.join(", "),
        }),
        _ => Ok(()),
    }
}
