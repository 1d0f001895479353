//! The tournament's audit log: every write leaves an entry (who, when, what before and after, why); nothing is deleted.

use super::schema::audit_log;
use super::DbConn;
use crate::ids::TournamentId;
use crate::ids::UserId;
use chrono::NaiveDateTime;
use diesel::prelude::*;

/// An entry by a staff account (`Some`) or by a player with a code
/// (`None`: who acted is in `after`).
#[allow(clippy::too_many_arguments)]
pub fn audit_by(
    conn: &mut DbConn,
    tournament_id: TournamentId,
    round_no: Option<i32>,
    table_no: Option<i32>,
    action: &str,
    before: Option<String>,
    after: Option<String>,
    reason: &str,
    user_id: Option<UserId>,
    now: NaiveDateTime,
) -> QueryResult<()> {
    diesel::insert_into(audit_log::table)
        .values((
            audit_log::tournament_id.eq(tournament_id),
            audit_log::round_no.eq(round_no),
            audit_log::table_no.eq(table_no),
            audit_log::action.eq(action),
            audit_log::before_value.eq(before),
            audit_log::after_value.eq(after),
            audit_log::reason.eq(reason),
            audit_log::user_id.eq(user_id),
            audit_log::at.eq(now),
        ))
        .execute(conn)
        .map(|_| ())
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = audit_log)]
pub struct AuditRow {
    pub id: i64,
    pub tournament_id: TournamentId,
    pub round_no: Option<i32>,
    pub table_no: Option<i32>,
    pub action: String,
    pub before_value: Option<String>,
    pub after_value: Option<String>,
    pub reason: String,
    pub user_id: Option<UserId>,
    pub at: NaiveDateTime,
}

/// The audit log of a tournament (optionally one table of one round), newest first.
pub fn audit_of(
    conn: &mut DbConn,
    tournament_id: TournamentId,
    table: Option<(i32, i32)>,
) -> QueryResult<Vec<(AuditRow, Option<String>)>> {
    use super::schema::users;
    let mut q = audit_log::table
        .left_join(users::table)
        .filter(audit_log::tournament_id.eq(tournament_id))
        .select((AuditRow::as_select(), users::username.nullable()))
        .order(audit_log::id.desc())
        .into_boxed();
    if let Some((round, table_no)) = table {
        q = q
            .filter(audit_log::round_no.eq(round))
            .filter(audit_log::table_no.eq(table_no));
    }
    q.load(conn)
}
