//! The tables of a round without a score, and the refusal that lists them:
//! what the next round and the close of every kind of tournament check.

use crate::db::DbConn;
use crate::ids::RoundId;
use crate::services::{Refusal, ServiceError};

/// Tables of a round that have no score yet.
pub(crate) fn tables_without_score(
    c: &mut DbConn,
    round_id: RoundId,
) -> Result<Vec<u32>, ServiceError> {
    Ok(crate::db::export::round_tables(c, round_id)?
        .iter()
        .filter(|(_, sheet)| sheet.is_none())
        .map(|(s, _)| u32::try_from(s.table_no).unwrap_or(0))
        .collect())
}

/// The refusal `why` for round `round` whose `tables` have no score yet
/// (the message lists them).
pub(crate) fn tables_missing(why: Refusal, round: i32, tables: &[u32]) -> ServiceError {
    let tables = tables
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    ServiceError::refused_with(why, vec![("round", round.to_string()), ("tables", tables)])
}
