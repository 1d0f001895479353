//! Staff accounts: create, enable or disable, change role, reset password.
//! Every change is audited; the last active administrator cannot be
//! disabled or demoted, even by two administrators acting at once.

use crate::ids::UserId;
use crate::services::Refusal;
use chrono::NaiveDateTime;
use serde_json::{json, Value};

use super::{Actor, ServiceError};
use crate::auth::Role;
use crate::db::users::{self as udb, UserError, UserRow};
use crate::db::{Db, DbConn};

fn lock_users(c: &mut DbConn) -> Result<(), ServiceError> {
    Ok(udb::lock_users(c)?)
}

pub(super) fn user_error(e: UserError) -> ServiceError {
    match e {
        UserError::UsernameTaken => ServiceError::invalid("username", "error.username_taken"),
        UserError::SetupDone => ServiceError::refused(Refusal::SetupDone),
        UserError::LastAdmin => ServiceError::refused(Refusal::LastAdmin),
        UserError::NotFound => ServiceError::NotFound,
        UserError::Db(e) => e.into(),
    }
}

fn record(
    c: &mut DbConn,
    actor: &Actor,
    subject: UserId,
    action: &str,
    before: Option<Value>,
    after: Option<Value>,
    now: NaiveDateTime,
) -> Result<(), ServiceError> {
    record_by(c, Some(actor.user_id), subject, action, before, after, now)
}

/// Appends an entry to the account audit; `by` is `None` for the command
/// line (which acts as nobody in particular).
pub(super) fn record_by(
    c: &mut DbConn,
    by: Option<UserId>,
    subject: UserId,
    action: &str,
    before: Option<Value>,
    after: Option<Value>,
    now: NaiveDateTime,
) -> Result<(), ServiceError> {
    udb::insert_audit(
        c,
        by,
        subject,
        action,
        before.map(|v| v.to_string()),
        after.map(|v| v.to_string()),
        now,
    )?;
    Ok(())
}

/// Why an account's tokens were all revoked (the audit's words).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RevokedBecause {
    Password,
    Disabled,
    Role,
}

impl RevokedBecause {
    fn code(self) -> &'static str {
        match self {
            RevokedBecause::Password => "password",
            RevokedBecause::Disabled => "disabled",
            RevokedBecause::Role => "role",
        }
    }
}

/// Revokes every token of `user` inside the caller's transaction (the
/// account change that makes them stale), audited when there were any.
pub(super) fn revoke_all(
    c: &mut DbConn,
    by: Option<UserId>,
    user: UserId,
    because: RevokedBecause,
    now: NaiveDateTime,
) -> Result<usize, ServiceError> {
    let n = crate::db::tokens::delete_all_for_user(c, user)?;
    if n > 0 {
        record_by(
            c,
            by,
            user,
            "token.revoked_all",
            None,
            Some(json!({"count": n, "because": because.code()})),
            now,
        )?;
    }
    Ok(n)
}

pub(super) fn require_admin(actor: &Actor) -> Result<(), ServiceError> {
    if actor.role == Role::Admin {
        Ok(())
    } else {
        Err(ServiceError::Forbidden)
    }
}

fn find(c: &mut DbConn, id: UserId) -> Result<UserRow, ServiceError> {
    udb::find(c, id)?.ok_or(ServiceError::NotFound)
}

/// Creates an account (the password is already hashed).
pub async fn create(
    db: &Db,
    actor: Actor,
    username: String,
    password_hash: String,
    role: Role,
) -> Result<UserId, ServiceError> {
    require_admin(&actor)?;
    let clock = db.clock().clone();
    db.write(move |c| {
        insert_user(
            c,
            Some(actor.user_id),
            &username,
            &password_hash,
            role,
            clock.now(),
        )
    })
    .await
}

/// Creates an account from the command line (`burraco-td create-user`),
/// audited as done by nobody in particular (the password is hashed).
pub async fn create_from_command_line(
    db: &Db,
    username: String,
    password_hash: String,
    role: Role,
) -> Result<UserId, ServiceError> {
    let clock = db.clock().clone();
    db.write(move |c| insert_user(c, None, &username, &password_hash, role, clock.now()))
        .await
}

/// Inserts an account and its audit entry, by an administrator or (`by`
/// `None`) the command line.
fn insert_user(
    c: &mut DbConn,
    by: Option<UserId>,
    username: &str,
    password_hash: &str,
    role: Role,
    now: NaiveDateTime,
) -> Result<UserId, ServiceError> {
    lock_users(c)?;
    let id = udb::create(c, username, password_hash, role, now).map_err(user_error)?;
    let mut after = json!({"username": username, "role": role.as_str()});
    if by.is_none() {
        after["by"] = json!("command line");
    }
    record_by(c, by, id, "user.created", None, Some(after), now)?;
    Ok(id)
}

/// An admin's change to an account: the accounts locked, then `f` with
/// the account as it was and the time of the write.
async fn change_user(
    db: &Db,
    actor: Actor,
    id: UserId,
    f: impl FnOnce(&mut DbConn, UserRow, NaiveDateTime) -> Result<(), ServiceError> + Send + 'static,
) -> Result<(), ServiceError> {
    require_admin(&actor)?;
    db.write_at(move |c, now| {
        lock_users(c)?;
        let before = find(c, id)?;
        f(c, before, now)
    })
    .await
}

/// Enables or disables an account (disabling ends its sessions and revokes
/// its API tokens: enabling it again revives none).
pub async fn set_active(
    db: &Db,
    actor: Actor,
    id: UserId,
    active: bool,
) -> Result<(), ServiceError> {
    change_user(db, actor, id, move |c, before, now| {
        if before.active == active {
            return Ok(());
        }
        udb::set_active(c, id, active, now).map_err(user_error)?;
        if !active {
            revoke_all(c, Some(actor.user_id), id, RevokedBecause::Disabled, now)?;
        }
        record(
            c,
            &actor,
            id,
            "user.active",
            Some(json!({"active": before.active})),
            Some(json!({"active": active})),
            now,
        )
    })
    .await
}

/// Changes an account's role (its API tokens, made for the old role, are
/// revoked).
pub async fn set_role(db: &Db, actor: Actor, id: UserId, role: Role) -> Result<(), ServiceError> {
    change_user(db, actor, id, move |c, before, now| {
        if before.role() == role {
            return Ok(());
        }
        udb::set_role(c, id, role, now).map_err(user_error)?;
        revoke_all(c, Some(actor.user_id), id, RevokedBecause::Role, now)?;
        record(
            c,
            &actor,
            id,
            "user.role",
            Some(json!({"role": before.role().as_str()})),
            Some(json!({"role": role.as_str()})),
            now,
        )
    })
    .await
}

/// Sets a new password (already hashed), ends the account's sessions and
/// revokes its API tokens.
pub async fn reset_password(
    db: &Db,
    actor: Actor,
    id: UserId,
    password_hash: String,
) -> Result<(), ServiceError> {
    require_admin(&actor)?;
    db.write_at(move |c, now| {
        lock_users(c)?;
        udb::set_password(c, id, &password_hash, now).map_err(user_error)?;
        revoke_all(c, Some(actor.user_id), id, RevokedBecause::Password, now)?;
        record(c, &actor, id, "user.password", None, None, now)
    })
    .await
}

/// Whether every referee works on every tournament (see `REFEREES_SEE_ALL`).
pub async fn set_referees_see_all(db: &Db, actor: Actor, all: bool) -> Result<(), ServiceError> {
    require_admin(&actor)?;
    db.write_at(move |c, now| {
        super::set_app_setting(
            c,
            super::REFEREES_SEE_ALL,
            if all { "true" } else { "false" },
        )?;
        record(
            c,
            &actor,
            actor.user_id,
            "settings.referees_see_all",
            None,
            Some(json!({ "referees_see_all": all })),
            now,
        )
    })
    .await
}

/// Who the command line acts as: the first active administrator (the
/// record needs a user). `NotFound` when there is none yet.
pub async fn command_line_actor(db: &Db) -> Result<Actor, ServiceError> {
    db.read(|c| {
        udb::list(c)?
            .into_iter()
            .find(|u| u.role() == Role::Admin && u.active)
            .map(|u| Actor {
                user_id: u.id,
                role: Role::Admin,
            })
            .ok_or(ServiceError::NotFound)
    })
    .await
}

/// The `app_settings` key of the public address (see [`set_public_url`]).
pub const PUBLIC_URL: &str = "public_url";

/// Sets the address players reach the server at, printed in the table
/// cards' QR codes (administrators; empty clears it: the request's own
/// address is used). `PUBLIC_URL` in the environment still overrides it.
pub async fn set_public_url(db: &Db, actor: Actor, text: String) -> Result<(), ServiceError> {
    require_admin(&actor)?;
    let url = crate::tournament::text::parse_public_url("public_url", &text)
        .map_err(|p| ServiceError::Invalid(vec![p]))?;
    db.write_at(move |c, now| {
        let before = crate::db::settings::get(c, PUBLIC_URL)?;
        super::set_app_setting(c, PUBLIC_URL, url.as_deref().unwrap_or(""))?;
        record(
            c,
            &actor,
            actor.user_id,
            "settings.public_url",
            Some(json!({ "public_url": before.unwrap_or_default() })),
            Some(json!({ "public_url": url.unwrap_or_default() })),
            now,
        )
    })
    .await
}

/// The public address an administrator set, if any.
pub async fn public_url(db: &Db) -> Result<Option<String>, ServiceError> {
    db.read(|c| Ok(crate::db::settings::get(c, PUBLIC_URL)?.filter(|v| !v.trim().is_empty())))
        .await
}

/// An entry of the account audit, with the names of the account and of
/// the administrator who acted.
#[derive(Debug, Clone)]
pub struct UserAuditEntry {
    pub at: chrono::NaiveDateTime,
    pub action: String,
    pub subject: Option<String>,
    pub by: Option<String>,
    pub before: Option<String>,
    pub after: Option<String>,
}

/// The latest account changes, newest first.
pub async fn audit_log(
    db: &Db,
    actor: Actor,
    limit: i64,
) -> Result<Vec<UserAuditEntry>, ServiceError> {
    require_admin(&actor)?;
    db.read(move |c| {
        let rows = udb::audit_log(c, limit)?;
        let names: std::collections::HashMap<UserId, String> = udb::list(c)?
            .into_iter()
            .map(|u| (u.id, u.username))
            .collect();
        Ok(rows
            .into_iter()
            .map(|(at, action, subject, by, before, after)| UserAuditEntry {
                at,
                action,
                subject: subject.and_then(|id| names.get(&id).cloned()),
                by: by.and_then(|id| names.get(&id).cloned()),
                before,
                after,
            })
            .collect())
    })
    .await
}

/// Whether every referee works on every tournament.
pub async fn referees_see_all(db: &Db) -> Result<bool, ServiceError> {
    db.read(super::referees_see_all).await
}
