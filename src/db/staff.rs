//! A tournament's staff: co-directors and referees (`tournament_staff`).

use crate::ids::TournamentId;
use crate::ids::UserId;
use diesel::prelude::*;

use super::schema::{tournament_staff, users};
use super::DbConn;
use crate::auth::Role;
use chrono::NaiveDateTime;

/// A stored staff role; an unknown word is an error naming it.
fn role(s: String) -> QueryResult<Role> {
    Role::try_from(s).map_err(|e| diesel::result::Error::DeserializationError(e.into()))
}

/// The role `user_id` holds on the tournament's staff.
pub fn role_of(conn: &mut DbConn, tid: TournamentId, user_id: UserId) -> QueryResult<Option<Role>> {
    tournament_staff::table
        .filter(tournament_staff::tournament_id.eq(tid))
        .filter(tournament_staff::user_id.eq(user_id))
        .select(tournament_staff::role)
        .first::<String>(conn)
        .optional()?
        .map(role)
        .transpose()
}

/// The staff: (user id, username, role), by username.
pub fn list(conn: &mut DbConn, tid: TournamentId) -> QueryResult<Vec<(UserId, String, Role)>> {
    tournament_staff::table
        .inner_join(users::table)
        .filter(tournament_staff::tournament_id.eq(tid))
        .select((users::id, users::username, tournament_staff::role))
        .order(users::username)
        .load::<(UserId, String, String)>(conn)?
        .into_iter()
        .map(|(id, name, r)| Ok((id, name, role(r)?)))
        .collect()
}

/// The user ids on the staff.
pub fn user_ids(conn: &mut DbConn, tid: TournamentId) -> QueryResult<Vec<UserId>> {
    tournament_staff::table
        .filter(tournament_staff::tournament_id.eq(tid))
        .select(tournament_staff::user_id)
        .load(conn)
}

/// One member: (username, role).
pub fn member(
    conn: &mut DbConn,
    tid: TournamentId,
    user_id: UserId,
) -> QueryResult<Option<(String, Role)>> {
    tournament_staff::table
        .inner_join(users::table)
        .filter(tournament_staff::tournament_id.eq(tid))
        .filter(tournament_staff::user_id.eq(user_id))
        .select((users::username, tournament_staff::role))
        .first::<(String, String)>(conn)
        .optional()?
        .map(|(name, r)| Ok((name, role(r)?)))
        .transpose()
}

/// Takes `user_id` off the staff (nothing when not on it).
pub fn remove(conn: &mut DbConn, tid: TournamentId, user_id: UserId) -> QueryResult<()> {
    diesel::delete(
        tournament_staff::table
            .filter(tournament_staff::tournament_id.eq(tid))
            .filter(tournament_staff::user_id.eq(user_id)),
    )
    .execute(conn)
    .map(|_| ())
}

/// Puts `user_id` on the staff with `role` (replacing a role held before).
pub fn put(
    conn: &mut DbConn,
    tid: TournamentId,
    user_id: UserId,
    role: Role,
    by: UserId,
    now: NaiveDateTime,
) -> QueryResult<()> {
    remove(conn, tid, user_id)?;
    diesel::insert_into(tournament_staff::table)
        .values((
            tournament_staff::tournament_id.eq(tid),
            tournament_staff::user_id.eq(user_id),
            tournament_staff::role.eq(role.as_str()),
            tournament_staff::added_by.eq(Some(by)),
            tournament_staff::added_at.eq(now),
        ))
        .execute(conn)
        .map(|_| ())
}
