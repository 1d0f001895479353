//! Undoing the last round (round 1: the start): what it will do, shown on
//! the confirmation page, and the action, under the one precondition.

use crate::ids::TournamentId;
use crate::services::Refusal;

use serde_json::Value;

use super::super::audit::{self, Action, Entry};
use super::super::{lock, Actor, Loaded, Need, ServiceError};
use crate::db::tournaments::{self as tdb};
use crate::db::{Db, DbConn};
use crate::tournament::Status;

/// What undoing a round will do.
#[derive(Debug, Clone, Copy)]
pub struct UndoPlan {
    /// Round 1: the tournament is back in preparation.
    pub back_to_draft: bool,
    /// The round's clock was started.
    pub clock_started: bool,
}

/// Whether round `n` can be undone now: the tournament runs, it is the
/// last round and nothing is recorded for it (the one precondition of the
/// confirmation page and the action).
fn check_undo(c: &mut DbConn, l: &Loaded, n: i32) -> Result<UndoPlan, ServiceError> {
    l.ensure_running()?;
    let round = l.round(n).ok_or(ServiceError::NotFound)?;
    if l.rounds.last().map(|r| r.number) != Some(n) {
        return Err(ServiceError::refused_with(
            Refusal::UndoNotLast,
            vec![("round", n.to_string())],
        ));
    }
    let results = crate::db::rounds::round_results(c, l.t.id, round.id, n)?;
    if !results.is_empty() {
        return Err(ServiceError::refused_with(
            Refusal::UndoResults,
            vec![
                ("round", n.to_string()),
                ("sheets", results.sheets.to_string()),
                ("entries", results.entries.to_string()),
                ("penalties", results.penalties.to_string()),
            ],
        ));
    }
    Ok(UndoPlan {
        back_to_draft: n == 1,
        clock_started: round.started_at.is_some(),
    })
}

/// The tournament and what undoing round `n` would do, or why it cannot
/// happen now (the confirmation page).
pub async fn plan_undo(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    n: i32,
) -> Result<(Loaded, Result<UndoPlan, ServiceError>), ServiceError> {
    db.read(move |c| {
        let l = super::super::read(c, &actor, tid, Need::Direct)?;
        l.round(n).ok_or(ServiceError::NotFound)?;
        let plan = check_undo(c, &l, n);
        Ok((l, plan))
    })
    .await
}

/// Undoes the last generated round while nothing was recorded for it: no
/// sheet or adjusted score, no entry made at a table, no penalty (checked
/// inside the transaction: a sheet saved a moment ago refuses the undo).
/// Undoing round 1 undoes the start: the tournament is back in preparation
/// (settings and pairs open again, check-in as it was); the table and pair
/// codes stay, so printed cards remain good for the next start. Returns
/// the number of the round that is now the last one (0: none). A round
/// that is already gone (a double click, a second director) is not an
/// error: nothing happens and the last round is named.
pub async fn undo_round(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    n: i32,
    seen: Option<i64>,
) -> Result<i32, ServiceError> {
    let clock = db.clock().clone();
    db.write(move |c| {
        let now = clock.now();
        let l = lock(c, &actor, tid, Need::Direct)?;
        let last = l.rounds.last().map_or(0, |r| r.number);
        if n > last && n >= 1 && l.status() != Status::Finished {
            return Ok(last);
        }
        l.ensure_seen(seen)?;
        let plan = check_undo(c, &l, n)?;
        let round = l.round(n).ok_or(ServiceError::NotFound)?;
        let (tables, _) = crate::db::rounds::seating_of(c, round.id)?;
        crate::db::rounds::delete_round(c, round.id)?;
        // Undoing the only round in groups undoes the cut.
        if round.movement.in_groups()
            && l.rounds.iter().filter(|r| r.movement.in_groups()).count() == 1
        {
            crate::db::pairs::clear_groups(c, tid)?;
        }
        let back_to_draft = plan.back_to_draft;
        if back_to_draft {
            tdb::unstart(c, tid, now)?;
        }
        audit::record(
            c,
            tid,
            &actor,
            Entry::new(Action::RoundUndone)
                .round(n)
                .before(audit::values([
                    ("movement", Value::from(round.movement().as_str())),
                    ("tables", Value::from(tables.len())),
                ]))
                .after(audit::values([(
                    "back_to_draft",
                    Value::from(back_to_draft),
                )])),
            now,
        )?;
        tracing::info!(
            tournament_id = tid.0,
            round = n,
            back_to_draft,
            "round undone"
        );
        Ok(n - 1)
    })
    .await
}
