//! What every kind's next round starts from: its number and planned
//! movement, and the last round over.

use super::error::NextRoundError;

/// The next round's number (the rounds so far + 1) and its movement in the
/// plan (`movements`, round 1 first; `None` without a plan). Past the plan
/// (`movements`, else `planned_rounds`) the plan is complete.
pub(super) fn next_in_plan<M: Copy>(
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
pub(super) fn ensure_over(
    last: Option<u32>,
    open: impl Iterator<Item = u32>,
) -> Result<(), NextRoundError> {
    let open: Vec<String> = open.map(|t| t.to_string()).collect();
    match last {
        Some(round) if !open.is_empty() => Err(NextRoundError::RoundIncomplete {
            round,
            tables: open.join(", "),
        }),
        _ => Ok(()),
    }
}
