//! Rows of the login brake (`login_throttle`): failures per hashed key. The
//! policy (how many failures, how long to wait) lives in `auth::throttle`.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError};

use super::schema::login_throttle;
use super::DbConn;

#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = login_throttle)]
pub struct ThrottleRow {
    pub key: String,
    pub failures: i32,
    pub last_failure_at: NaiveDateTime,
}

/// The rows of `keys` with a failure since `since` (older ones are forgotten).
pub fn find(
    conn: &mut DbConn,
    keys: &[&str],
    since: NaiveDateTime,
) -> QueryResult<Vec<ThrottleRow>> {
    login_throttle::table
        .filter(login_throttle::key.eq_any(keys))
        .filter(login_throttle::last_failure_at.ge(since))
        .select(ThrottleRow::as_select())
        .load(conn)
}

/// Counts one more failure for `key` at `now`; a row whose last failure is
/// older than `since` starts again from one. Atomic on both backends: the
/// counter is bumped in place, and two first failures racing to insert the
/// row end as two failures (the loser bumps the winner's row).
pub fn record_failure(
    conn: &mut DbConn,
    key: &str,
    now: NaiveDateTime,
    since: NaiveDateTime,
) -> QueryResult<()> {
    for _ in 0..2 {
        let bumped = diesel::update(
            login_throttle::table
                .filter(login_throttle::key.eq(key))
                .filter(login_throttle::last_failure_at.ge(since)),
        )
        .set((
            login_throttle::failures.eq(login_throttle::failures + 1),
            login_throttle::last_failure_at.eq(now),
        ))
        .execute(conn)?;
        if bumped > 0 {
            return Ok(());
        }
        let restarted = diesel::update(login_throttle::table.filter(login_throttle::key.eq(key)))
            .set((
                login_throttle::failures.eq(1),
                login_throttle::last_failure_at.eq(now),
            ))
            .execute(conn)?;
        if restarted > 0 {
            return Ok(());
        }
        // A savepoint: on PostgreSQL a failed INSERT would otherwise abort
        // the whole transaction.
        let inserted = conn.transaction(|c| {
            diesel::insert_into(login_throttle::table)
                .values((
                    login_throttle::key.eq(key),
                    login_throttle::failures.eq(1),
                    login_throttle::last_failure_at.eq(now),
                ))
                .execute(c)
        });
        match inserted {
            Ok(_) => return Ok(()),
            Err(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _)) => continue,
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Forgets `key` (a successful login clears its account-and-address row).
pub fn forget(conn: &mut DbConn, key: &str) -> QueryResult<()> {
    diesel::delete(login_throttle::table.filter(login_throttle::key.eq(key)))
        .execute(conn)
        .map(|_| ())
}

/// Keeps the table small: deletes the rows whose last failure is before
/// `expired_before`, then the oldest rows beyond `max_rows`. Returns how many
/// rows went.
pub fn prune(
    conn: &mut DbConn,
    expired_before: NaiveDateTime,
    max_rows: i64,
) -> QueryResult<usize> {
    let mut deleted = diesel::delete(
        login_throttle::table.filter(login_throttle::last_failure_at.lt(expired_before)),
    )
    .execute(conn)?;
    let count: i64 = login_throttle::table.count().get_result(conn)?;
    let excess = count - max_rows.max(0);
    if excess > 0 {
        let oldest: Vec<String> = login_throttle::table
            .order((
                login_throttle::last_failure_at.asc(),
                login_throttle::key.asc(),
            ))
            .select(login_throttle::key)
            .limit(excess)
            .load(conn)?;
        deleted += diesel::delete(login_throttle::table.filter(login_throttle::key.eq_any(oldest)))
            .execute(conn)?;
    }
    Ok(deleted)
}

/// How many rows the table holds.
pub fn count(conn: &mut DbConn) -> QueryResult<i64> {
    login_throttle::table.count().get_result(conn)
}
