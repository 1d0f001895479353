//! The start and the next round of a tournament that is not of pairs: a
//! team tournament's (issue 25) and an individual one's (issue 35) are
//! their own, reached through the pairs' use cases so the confirmation
//! pages, the double click and the stale page are shared.

use crate::db::DbConn;
use crate::services::{Actor, Loaded, Refusal, Rows, ServiceError};
use crate::tournament_file::FileKind;
use chrono::NaiveDateTime;

/// Starts a team or individual tournament the caller locked.
pub(super) fn start_locked(
    c: &mut DbConn,
    actor: &Actor,
    rows: Rows,
    seed: u64,
    now: NaiveDateTime,
) -> Result<(), ServiceError> {
    match rows.t.kind {
        FileKind::Individual => {
            crate::services::individual::start_locked(c, actor, rows, seed, now)
        }
        _ => crate::services::teams::start_locked(c, actor, rows, seed, now),
    }
}

/// Seats the next round of a team or individual tournament the caller
/// locked; `requested` names the round the form meant.
pub(super) fn next_round_locked(
    c: &mut DbConn,
    actor: &Actor,
    rows: Rows,
    requested: Option<i32>,
    now: NaiveDateTime,
) -> Result<i32, ServiceError> {
    match rows.t.kind {
        FileKind::Individual => {
            crate::services::individual::next_round_locked(c, actor, rows, requested, now)
        }
        _ => crate::services::teams::next_round_locked(c, actor, rows, requested, now),
    }
}

/// The number of the next round of a tournament that is not of pairs,
/// when it can be seated now (for the pairs' confirmation page): an
/// individual tournament's Danish round, every result of the last round
/// in; a team tournament's is the teams' page's.
pub(super) fn next_of_kind(c: &mut DbConn, l: &Loaded) -> Result<i32, ServiceError> {
    if !l.t.is_individual() {
        return Err(ServiceError::refused(Refusal::TeamsPairsOnly));
    }
    let row = crate::db::tournaments::find(c, l.t.id)?.ok_or(ServiceError::NotFound)?;
    let rows = crate::services::load_rows(c, row)?;
    let t = crate::services::individual::loaded(c, rows)?;
    crate::services::individual::check_next(c, &t)
}
