//! Personal API tokens: create (the plaintext is returned once), list,
//! revoke, and authenticate a bearer request. Each is one transaction;
//! creating and revoking are audited in the account audit like the other
//! account changes. A token acts as its owner with the owner's current role.
//! Tokens follow their account: a password reset (by an administrator or
//! by the owner), a deactivation or a role change revokes every token made
//! before it, in the same transaction, so re-enabling the account never
//! revives one. Administrators see and revoke any account's tokens.

use crate::ids::TokenId;
use crate::ids::UserId;
use crate::services::Refusal;
use chrono::NaiveDateTime;
use serde_json::json;

use super::users::record_by;
use super::{Actor, ServiceError};
use crate::auth::tokens::{self as auth_tokens, TokenLabel};
use crate::db::tokens::{self as tdb};
use crate::db::users::{self as udb, UserRow};
use crate::db::{Db, DbConn};

/// How many tokens one account may hold (a bound, not a rate).
pub const MAX_PER_USER: i64 = 50;

/// How stale `last_used_at` may get before a request refreshes it: a
/// write per API call would queue every request behind SQLite's writer.
pub const TOUCH_EVERY: chrono::Duration = chrono::Duration::seconds(60);

/// A token as its owner sees it in the list (never the token itself).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenInfo {
    pub id: TokenId,
    pub label: String,
    pub created_at: chrono::NaiveDateTime,
    pub last_used_at: Option<chrono::NaiveDateTime>,
}

/// A token just created: `token` is shown once and stored nowhere.
#[derive(Clone)]
pub struct NewToken {
    pub id: TokenId,
    pub label: String,
    pub token: String,
}

impl std::fmt::Debug for NewToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NewToken")
            .field("id", &self.id)
            .field("label", &self.label)
            .field("token", &"<redacted>")
            .finish()
    }
}

/// Creates a token for `user` (re-read in this transaction) and audits it.
fn insert(
    c: &mut DbConn,
    by: Option<UserId>,
    user: &UserRow,
    label: &TokenLabel,
    now: NaiveDateTime,
) -> Result<NewToken, ServiceError> {
    if !user.active {
        return Err(ServiceError::refused(Refusal::TokensInactive));
    }
    let held = tdb::list_for_user(c, user.id)?.len();
    if i64::try_from(held).unwrap_or(i64::MAX) >= MAX_PER_USER {
        return Err(ServiceError::refused(Refusal::TokensTooMany));
    }
    let token = auth_tokens::new_token();
    let id = tdb::insert(
        c,
        user.id,
        label.as_str(),
        &auth_tokens::token_hash(&token),
        now,
    )?;
    record_by(
        c,
        by,
        user.id,
        "token.created",
        None,
        Some(json!({"id": id, "label": label.as_str()})),
        now,
    )?;
    Ok(NewToken {
        id,
        label: label.as_str().to_string(),
        token,
    })
}

/// The signed-in staff member creates a token for herself.
pub async fn create(db: &Db, actor: Actor, label: TokenLabel) -> Result<NewToken, ServiceError> {
    db.write_at(move |c, now| {
        let user = udb::find(c, actor.user_id)?.ok_or(ServiceError::NotFound)?;
        insert(c, Some(actor.user_id), &user, &label, now)
    })
    .await
}

/// The command line creates a token for an account by its username (the
/// audit names nobody as the author: whoever runs the command line owns
/// the server anyway).
pub fn create_for_username(
    db: &Db,
    username: &str,
    label: TokenLabel,
) -> Result<NewToken, ServiceError> {
    let now = db.now();
    let username = username.trim().to_ascii_lowercase();
    db.write_blocking(move |c| {
        let user = udb::find_by_username(c, &username)?.ok_or(ServiceError::NotFound)?;
        insert(c, None, &user, &label, now)
    })
}

/// The caller's own tokens, newest first.
pub async fn list(db: &Db, actor: Actor) -> Result<Vec<TokenInfo>, ServiceError> {
    db.read(move |c| {
        Ok(tdb::list_for_user(c, actor.user_id)?
            .into_iter()
            .map(info)
            .collect())
    })
    .await
}

/// Revokes one of the caller's tokens (somebody else's does not exist for her).
pub async fn revoke(db: &Db, actor: Actor, id: TokenId) -> Result<(), ServiceError> {
    let clock = db.clock().clone();
    db.write(move |c| revoke_one(c, actor.user_id, actor.user_id, id, clock.now()))
        .await
}

fn info(t: tdb::TokenRow) -> TokenInfo {
    TokenInfo {
        id: t.id,
        label: t.label,
        created_at: t.created_at,
        last_used_at: t.last_used_at,
    }
}

/// An account's tokens as an administrator sees them (never the tokens).
pub async fn list_of(db: &Db, actor: Actor, user: UserId) -> Result<Vec<TokenInfo>, ServiceError> {
    super::users::require_admin(&actor)?;
    db.read(move |c| Ok(tdb::list_for_user(c, user)?.into_iter().map(info).collect()))
        .await
}

/// An administrator revokes one token of an account (audited as hers).
pub async fn revoke_of(
    db: &Db,
    actor: Actor,
    user: UserId,
    id: TokenId,
) -> Result<(), ServiceError> {
    super::users::require_admin(&actor)?;
    let clock = db.clock().clone();
    db.write(move |c| revoke_one(c, actor.user_id, user, id, clock.now()))
        .await
}

fn revoke_one(
    c: &mut DbConn,
    by: UserId,
    user: UserId,
    id: TokenId,
    now: NaiveDateTime,
) -> Result<(), ServiceError> {
    let token = tdb::find_for_user(c, id, user)?.ok_or(ServiceError::NotFound)?;
    if tdb::delete_for_user(c, id, user)? == 0 {
        return Err(ServiceError::NotFound);
    }
    record_by(
        c,
        Some(by),
        user,
        "token.revoked",
        Some(json!({"id": token.id, "label": token.label})),
        None,
        now,
    )
}

/// Who a bearer token acts as: its owner with her current role; `None` for
/// an unknown or revoked token, or a disabled owner. Reads first; writes
/// only when `last_used_at` is more than [`TOUCH_EVERY`] old (the update is
/// conditional, so a burst of requests writes it once).
pub async fn authenticate(db: &Db, token: &str) -> Result<Option<Actor>, ServiceError> {
    if !auth_tokens::looks_like_token(token) {
        return Ok(None);
    }
    let hash = auth_tokens::token_hash(token);
    let found = db
        .read(move |c| -> Result<_, ServiceError> { Ok(tdb::find_by_hash(c, &hash)?) })
        .await?;
    let Some((t, user)) = found.filter(|(_, u)| u.active) else {
        return Ok(None);
    };
    let at = db.now();
    let stale_before = at - TOUCH_EVERY;
    if t.last_used_at.is_none_or(|last| last < stale_before) {
        db.write(move |c| -> Result<(), ServiceError> {
            tdb::touch(c, t.id, at, stale_before)?;
            Ok(())
        })
        .await?;
    }
    Ok(Some(Actor {
        user_id: user.id,
        role: user.role(),
    }))
}

/// The account a token acts for (`GET /api/v1/me`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Owner {
    pub id: UserId,
    pub username: String,
}

/// The caller's account.
pub async fn owner(db: &Db, actor: Actor) -> Result<Owner, ServiceError> {
    db.read(move |c| {
        let u = udb::find(c, actor.user_id)?.ok_or(ServiceError::NotFound)?;
        Ok(Owner {
            id: u.id,
            username: u.username,
        })
    })
    .await
}
