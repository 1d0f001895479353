//! Circuits (issue 24): a circuit's settings (the `circuit@1` document) and
//! its stages in order.
//!
//! A circuit's public pages are cached by [`revision`]: the circuit's own
//! revision plus the revisions of its stages' tournaments plus the
//! directory's (`db::people`). Each term only goes up (a tournament's
//! revision with every write to it, the circuit's with every change to it,
//! the directory's with every merge or split), and removing a stage raises
//! the circuit's own revision by more than that stage's term, so any change
//! gives a higher number. A merge touches no circuit row: it holds only the
//! directory (no lock order to keep with the circuits' writers).

use crate::ids::CircuitId;
use crate::ids::TournamentId;
use crate::ids::UserId;
use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::schema::{circuit_stages, circuits, tournaments};
use super::DbConn;

/// A row of `circuits`.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = circuits)]
pub struct CircuitRow {
    pub id: CircuitId,
    pub owner_id: Option<UserId>,
    pub spec: String,
    pub revision: i64,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

/// A stage: its tournament, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StageRow {
    pub position: i32,
    pub tournament_id: TournamentId,
    pub revision: i64,
}

pub fn insert(
    conn: &mut DbConn,
    owner: UserId,
    spec: &str,
    now: NaiveDateTime,
) -> QueryResult<CircuitId> {
    let at = now;
    diesel::insert_into(circuits::table)
        .values((
            circuits::owner_id.eq(owner),
            circuits::spec.eq(spec),
            circuits::revision.eq(1_i64),
            circuits::created_at.eq(at),
            circuits::updated_at.eq(at),
        ))
        .returning(circuits::id)
        .get_result(conn)
}

pub fn find(conn: &mut DbConn, id: CircuitId) -> QueryResult<Option<CircuitRow>> {
    circuits::table
        .find(id)
        .select(CircuitRow::as_select())
        .first(conn)
        .optional()
}

/// Raises the circuit's revision by `by` (a row lock on PostgreSQL, the
/// write lock on SQLite: later writers to this circuit wait) and returns
/// the row; `None` when there is no such circuit.
pub fn lock(
    conn: &mut DbConn,
    id: CircuitId,
    by: i64,
    now: NaiveDateTime,
) -> QueryResult<Option<CircuitRow>> {
    let n = diesel::update(circuits::table.find(id))
        .set((
            circuits::revision.eq(circuits::revision + by),
            circuits::updated_at.eq(now),
        ))
        .execute(conn)?;
    if n == 0 {
        return Ok(None);
    }
    find(conn, id)
}

/// Deletes a circuit (its stages go with it; the tournaments stay).
pub fn delete(conn: &mut DbConn, id: CircuitId) -> QueryResult<usize> {
    diesel::delete(circuit_stages::table.filter(circuit_stages::circuit_id.eq(id)))
        .execute(conn)?;
    diesel::delete(circuits::table.find(id)).execute(conn)
}

pub fn set_spec(conn: &mut DbConn, id: CircuitId, spec: &str) -> QueryResult<usize> {
    diesel::update(circuits::table.find(id))
        .set(circuits::spec.eq(spec))
        .execute(conn)
}

/// The circuits a director sees (`None`: all, for an admin), newest first.
pub fn list(conn: &mut DbConn, owner: Option<UserId>) -> QueryResult<Vec<CircuitRow>> {
    let mut q = circuits::table
        .select(CircuitRow::as_select())
        .order(circuits::id.desc())
        .into_boxed();
    if let Some(o) = owner {
        q = q.filter(circuits::owner_id.eq(o));
    }
    q.load(conn)
}

/// The stages of a circuit in order, with their tournaments' revisions.
pub fn stages(conn: &mut DbConn, id: CircuitId) -> QueryResult<Vec<StageRow>> {
    let rows: Vec<(i32, TournamentId, i64)> = circuit_stages::table
        .inner_join(tournaments::table)
        .filter(circuit_stages::circuit_id.eq(id))
        .order(circuit_stages::position.asc())
        .select((
            circuit_stages::position,
            circuit_stages::tournament_id,
            tournaments::revision,
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(position, tournament_id, revision)| StageRow {
            position,
            tournament_id,
            revision,
        })
        .collect())
}

/// Appends a tournament as the last stage; `false` when it is a stage
/// already.
pub fn add_stage(conn: &mut DbConn, id: CircuitId, tid: TournamentId) -> QueryResult<bool> {
    let exists: i64 = circuit_stages::table
        .filter(circuit_stages::circuit_id.eq(id))
        .filter(circuit_stages::tournament_id.eq(tid))
        .count()
        .get_result(conn)?;
    if exists > 0 {
        return Ok(false);
    }
    let last: Option<i32> = circuit_stages::table
        .filter(circuit_stages::circuit_id.eq(id))
        .select(diesel::dsl::max(circuit_stages::position))
        .first(conn)?;
    diesel::insert_into(circuit_stages::table)
        .values((
            circuit_stages::circuit_id.eq(id),
            circuit_stages::tournament_id.eq(tid),
            circuit_stages::position.eq(last.unwrap_or(0) + 1),
        ))
        .execute(conn)?;
    Ok(true)
}

/// Removes a stage and renumbers the later ones; `false` when it was not
/// a stage.
pub fn remove_stage(conn: &mut DbConn, id: CircuitId, tid: TournamentId) -> QueryResult<bool> {
    let position: Option<i32> = circuit_stages::table
        .filter(circuit_stages::circuit_id.eq(id))
        .filter(circuit_stages::tournament_id.eq(tid))
        .select(circuit_stages::position)
        .first(conn)
        .optional()?;
    let Some(position) = position else {
        return Ok(false);
    };
    diesel::delete(
        circuit_stages::table
            .filter(circuit_stages::circuit_id.eq(id))
            .filter(circuit_stages::tournament_id.eq(tid)),
    )
    .execute(conn)?;
    diesel::update(
        circuit_stages::table
            .filter(circuit_stages::circuit_id.eq(id))
            .filter(circuit_stages::position.gt(position)),
    )
    .set(circuit_stages::position.eq(circuit_stages::position - 1))
    .execute(conn)?;
    Ok(true)
}

/// The circuits a tournament is a stage of: (circuit id, spec).
pub fn of_tournament(conn: &mut DbConn, tid: TournamentId) -> QueryResult<Vec<(i64, String)>> {
    circuit_stages::table
        .inner_join(circuits::table)
        .filter(circuit_stages::tournament_id.eq(tid))
        .order(circuits::id.asc())
        .select((circuits::id, circuits::spec))
        .load(conn)
}

/// The revision a circuit's public pages are cached by (see the module
/// documentation); `None` for no such circuit.
pub fn revision(conn: &mut DbConn, id: CircuitId) -> QueryResult<Option<i64>> {
    let Some(own) = circuits::table
        .find(id)
        .select(circuits::revision)
        .first::<i64>(conn)
        .optional()?
    else {
        return Ok(None);
    };
    let stages: Vec<i64> = circuit_stages::table
        .inner_join(tournaments::table)
        .filter(circuit_stages::circuit_id.eq(id))
        .select(tournaments::revision)
        .load(conn)?;
    let directory = super::people::directory_revision(conn)?;
    Ok(Some(
        stages
            .into_iter()
            .fold(own.saturating_add(directory), i64::saturating_add),
    ))
}
