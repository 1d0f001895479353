//! Staff accounts and their sessions.

use crate::ids::UserId;
use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError};

use super::schema::{app_settings, sessions, users};
use super::DbConn;
use crate::auth::Role;

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = users)]
pub struct UserRow {
    pub id: UserId,
    pub username: String,
    pub password_hash: String,
    /// Read through its text: an unknown role is a query error, never a
    /// fallback.
    #[diesel(deserialize_as = String)]
    pub role: Role,
    pub active: bool,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

impl UserRow {
    pub fn role(&self) -> Role {
        self.role
    }
}

#[derive(Debug, thiserror::Error)]
pub enum UserError {
    #[error("the username is taken")]
    UsernameTaken,
    #[error("setup is already done")]
    SetupDone,
    #[error("the last active administrator cannot be disabled or demoted")]
    LastAdmin,
    #[error("no such user")]
    NotFound,
    #[error(transparent)]
    Db(#[from] DieselError),
}

#[derive(Insertable)]
#[diesel(table_name = users)]
struct NewUser<'a> {
    username: &'a str,
    password_hash: &'a str,
    role: &'a str,
    active: bool,
    created_at: NaiveDateTime,
    updated_at: NaiveDateTime,
}

/// Serialises changes to accounts: on PostgreSQL a table lock that other
/// account changes wait for (reads go on); SQLite's single writer already
/// serialises them.
pub fn lock_users(conn: &mut DbConn) -> QueryResult<()> {
    if let DbConn::Postgres(pg) = conn {
        use diesel::connection::SimpleConnection;
        pg.batch_execute("LOCK TABLE users IN SHARE ROW EXCLUSIVE MODE")?;
    }
    Ok(())
}

pub fn count(conn: &mut DbConn) -> QueryResult<i64> {
    users::table.count().get_result(conn)
}

pub fn create(
    conn: &mut DbConn,
    username: &str,
    password_hash: &str,
    role: Role,
    now: NaiveDateTime,
) -> Result<UserId, UserError> {
    let t = now;
    diesel::insert_into(users::table)
        .values(NewUser {
            username,
            password_hash,
            role: role.as_str(),
            active: true,
            created_at: t,
            updated_at: t,
        })
        .returning(users::id)
        .get_result(conn)
        .map_err(|e| match e {
            DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _) => {
                UserError::UsernameTaken
            }
            other => UserError::Db(other),
        })
}

const SETUP_MARKER: &str = "setup_done_at";

/// Creates the first administrator, once: the marker row makes a second,
/// concurrent setup fail on its primary key instead of adding an admin.
pub fn create_first_admin(
    conn: &mut DbConn,
    username: &str,
    password_hash: &str,
    now: NaiveDateTime,
) -> Result<UserId, UserError> {
    conn.transaction(|conn| {
        if count(conn)? > 0 {
            return Err(UserError::SetupDone);
        }
        diesel::insert_into(app_settings::table)
            .values((
                app_settings::key.eq(SETUP_MARKER),
                app_settings::value.eq(now.to_string()),
            ))
            .execute(conn)
            .map_err(|e| match e {
                DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _) => {
                    UserError::SetupDone
                }
                other => UserError::Db(other),
            })?;
        create(conn, username, password_hash, Role::Admin, now)
    })
}

pub fn find_by_username(conn: &mut DbConn, username: &str) -> QueryResult<Option<UserRow>> {
    users::table
        .filter(users::username.eq(username))
        .select(UserRow::as_select())
        .first(conn)
        .optional()
}

pub fn find(conn: &mut DbConn, id: UserId) -> QueryResult<Option<UserRow>> {
    users::table
        .find(id)
        .select(UserRow::as_select())
        .first(conn)
        .optional()
}

pub fn list(conn: &mut DbConn) -> QueryResult<Vec<UserRow>> {
    users::table
        .order(users::username.asc())
        .select(UserRow::as_select())
        .load(conn)
}

fn other_active_admins(conn: &mut DbConn, id: UserId) -> QueryResult<i64> {
    users::table
        .filter(users::role.eq(Role::Admin.as_str()))
        .filter(users::active.eq(true))
        .filter(users::id.ne(id))
        .count()
        .get_result(conn)
}

/// Enables or disables an account; disabling ends its sessions. The last
/// active administrator cannot be disabled.
pub fn set_active(
    conn: &mut DbConn,
    id: UserId,
    active: bool,
    now: NaiveDateTime,
) -> Result<(), UserError> {
    conn.transaction(|conn| {
        let user = find(conn, id)?.ok_or(UserError::NotFound)?;
        if !active
            && user.role() == Role::Admin
            && user.active
            && other_active_admins(conn, id)? == 0
        {
            return Err(UserError::LastAdmin);
        }
        diesel::update(users::table.find(id))
            .set((users::active.eq(active), users::updated_at.eq(now)))
            .execute(conn)?;
        if !active {
            delete_sessions_of(conn, id)?;
        }
        Ok(())
    })
}

/// Changes an account's role; the last active administrator keeps hers.
pub fn set_role(
    conn: &mut DbConn,
    id: UserId,
    role: Role,
    now: NaiveDateTime,
) -> Result<(), UserError> {
    conn.transaction(|conn| {
        let user = find(conn, id)?.ok_or(UserError::NotFound)?;
        if user.role() == Role::Admin
            && role != Role::Admin
            && user.active
            && other_active_admins(conn, id)? == 0
        {
            return Err(UserError::LastAdmin);
        }
        diesel::update(users::table.find(id))
            .set((users::role.eq(role.as_str()), users::updated_at.eq(now)))
            .execute(conn)?;
        Ok(())
    })
}

/// Sets a new password hash and ends every session of the account.
pub fn set_password(
    conn: &mut DbConn,
    id: UserId,
    password_hash: &str,
    now: NaiveDateTime,
) -> Result<(), UserError> {
    conn.transaction(|conn| {
        let n = diesel::update(users::table.find(id))
            .set((
                users::password_hash.eq(password_hash),
                users::updated_at.eq(now),
            ))
            .execute(conn)?;
        if n == 0 {
            return Err(UserError::NotFound);
        }
        delete_sessions_of(conn, id)?;
        Ok(())
    })
}

/// Appends an entry to the account audit (`by`: `None` for the command line).
pub fn insert_audit(
    conn: &mut DbConn,
    by: Option<UserId>,
    subject: UserId,
    action: &str,
    before: Option<String>,
    after: Option<String>,
    now: NaiveDateTime,
) -> QueryResult<()> {
    use super::schema::user_audit;
    diesel::insert_into(user_audit::table)
        .values((
            user_audit::subject_id.eq(Some(subject)),
            user_audit::action.eq(action),
            user_audit::before_value.eq(before),
            user_audit::after_value.eq(after),
            user_audit::user_id.eq(by),
            user_audit::at.eq(now),
        ))
        .execute(conn)
        .map(|_| ())
}

/// An account audit entry: when, action, subject, by, before, after.
pub type AuditTuple = (
    NaiveDateTime,
    String,
    Option<UserId>,
    Option<UserId>,
    Option<String>,
    Option<String>,
);

/// The latest `limit` account audit entries, newest first.
pub fn audit_log(conn: &mut DbConn, limit: i64) -> QueryResult<Vec<AuditTuple>> {
    use super::schema::user_audit;
    user_audit::table
        .order(user_audit::id.desc())
        .limit(limit)
        .select((
            user_audit::at,
            user_audit::action,
            user_audit::subject_id,
            user_audit::user_id,
            user_audit::before_value,
            user_audit::after_value,
        ))
        .load(conn)
}

// ---- sessions ----

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = sessions)]
pub struct SessionRow {
    pub id: String,
    pub user_id: UserId,
    pub created_at: NaiveDateTime,
    pub last_seen_at: NaiveDateTime,
}

pub fn insert_session(
    conn: &mut DbConn,
    id: &str,
    user_id: UserId,
    now: NaiveDateTime,
) -> QueryResult<()> {
    let t = now;
    diesel::insert_into(sessions::table)
        .values((
            sessions::id.eq(id),
            sessions::user_id.eq(user_id),
            sessions::created_at.eq(t),
            sessions::last_seen_at.eq(t),
        ))
        .execute(conn)
        .map(|_| ())
}

/// The session and its (active) user.
pub fn find_session(conn: &mut DbConn, id: &str) -> QueryResult<Option<(SessionRow, UserRow)>> {
    sessions::table
        .inner_join(users::table)
        .filter(sessions::id.eq(id))
        .filter(users::active.eq(true))
        .select((SessionRow::as_select(), UserRow::as_select()))
        .first(conn)
        .optional()
}

pub fn touch_session(conn: &mut DbConn, id: &str, now: NaiveDateTime) -> QueryResult<()> {
    diesel::update(sessions::table.find(id))
        .set(sessions::last_seen_at.eq(now))
        .execute(conn)
        .map(|_| ())
}

pub fn delete_session(conn: &mut DbConn, id: &str) -> QueryResult<()> {
    diesel::delete(sessions::table.find(id))
        .execute(conn)
        .map(|_| ())
}

pub fn delete_sessions_of(conn: &mut DbConn, user_id: UserId) -> QueryResult<usize> {
    diesel::delete(sessions::table.filter(sessions::user_id.eq(user_id))).execute(conn)
}

/// Removes sessions idle since before `cutoff`.
pub fn delete_idle_sessions(conn: &mut DbConn, cutoff: NaiveDateTime) -> QueryResult<usize> {
    diesel::delete(sessions::table.filter(sessions::last_seen_at.lt(cutoff))).execute(conn)
}

/// Removes sessions idle since before `idle_cutoff` or begun before
/// `created_cutoff` (past the absolute lifetime).
pub fn delete_expired_sessions(
    conn: &mut DbConn,
    idle_cutoff: NaiveDateTime,
    created_cutoff: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::delete(
        sessions::table.filter(
            sessions::last_seen_at
                .lt(idle_cutoff)
                .or(sessions::created_at.lt(created_cutoff)),
        ),
    )
    .execute(conn)
}
