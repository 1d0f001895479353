//! The doors of the staff pages: the first administrator, login, the
//! session behind a cookie, logout. The web layer parses the form and sets
//! the cookie; everything that touches accounts and sessions is here.

use crate::ids::UserId;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use serde_json::json;

use super::view::User;
use super::{brakes, ServiceError};
use crate::auth::password::{Hasher, Ticket};
use crate::auth::{session, Role, Username};
use crate::db::rate_limits::Verdict;
use crate::db::users::{self as udb, UserError};
use crate::db::Db;

/// How long a session lives: idle at most `idle`, in all at most `max`.
#[derive(Debug, Clone, Copy)]
pub struct SessionLimits {
    pub idle: chrono::Duration,
    pub max: chrono::Duration,
}

impl SessionLimits {
    pub fn new(idle: Duration, max: Duration) -> SessionLimits {
        SessionLimits {
            idle: chrono::Duration::from_std(idle).unwrap_or(chrono::Duration::hours(2)),
            max: chrono::Duration::from_std(max).unwrap_or(chrono::Duration::hours(12)),
        }
    }
}

/// What a login goes through besides the database: the hasher's places
/// and the logins being checked (the brake's waiting room).
#[derive(Clone)]
pub struct LoginDoors {
    pub hasher: Arc<Hasher>,
    pub in_flight: Arc<brakes::LoginsInFlight>,
}

/// A new session: its account and the cookie's token (shown once, only
/// its SHA-256 is stored).
#[derive(Debug)]
pub struct SignedIn {
    pub user: User,
    pub token: String,
}

/// The account behind a session cookie.
#[derive(Debug, Clone)]
pub struct SessionUser {
    pub id: UserId,
    pub username: String,
    pub role: Role,
    /// The session's id (SHA-256 of the cookie token), for logout.
    pub session_id: String,
}

/// Whether the first administrator is still to be created.
pub async fn setup_needed(db: &Db) -> Result<bool, ServiceError> {
    db.read(|c| Ok(udb::count(c)? == 0)).await
}

/// Creates the first administrator (only while no account exists) with an
/// already hashed password, audited as her own act, and signs her in.
/// `None` when the setup was done already (by another browser, say).
pub async fn create_first_admin(
    db: &Db,
    username: Username,
    password_hash: String,
) -> Result<Option<SignedIn>, ServiceError> {
    let name = username.as_str().to_string();
    db.write_at(move |c, now| {
        let id = match udb::create_first_admin(c, &name, &password_hash, now) {
            Ok(id) => id,
            Err(UserError::SetupDone) => return Ok(None),
            Err(e) => return Err(super::users::user_error(e)),
        };
        super::users::record_by(
            c,
            Some(id),
            id,
            "user.created",
            None,
            Some(json!({"username": name, "role": Role::Admin.as_str(), "setup": true})),
            now,
        )?;
        let token = session::new_token();
        udb::insert_session(c, &session::token_id(&token), id, now)?;
        let user = udb::find(c, id)?.ok_or(ServiceError::NotFound)?;
        Ok(Some(SignedIn {
            user: User::of(&user),
            token,
        }))
    })
    .await
}

/// How a login ended.
#[derive(Debug)]
pub enum Login {
    /// Too many password checks at once (the hasher's bound): nothing
    /// else was done.
    Busy {
        retry_after: Duration,
    },
    /// No attempts left for this account from this address, or for the
    /// address: the password was not looked at.
    Throttled {
        retry_after: Duration,
    },
    /// Unknown user, disabled account or wrong password (one answer).
    Failed,
    SignedIn(SignedIn),
}

/// A login attempt, in this order so that a burst costs little: a place in
/// the hasher's queue, an attempt from the brakes' allowances, then the
/// user and the password (as slow for an unknown user as for a known one).
/// On success the old session (`old_token`) ends, expired sessions are
/// swept and the new one begins, with the attempt given back.
pub async fn login(
    db: &Db,
    doors: &LoginDoors,
    username: &str,
    password: String,
    client: Option<IpAddr>,
    old_token: Option<&str>,
    limits: SessionLimits,
) -> Result<Login, ServiceError> {
    let ticket: Ticket = match doors.hasher.admit() {
        Ok(t) => t,
        Err(busy) => {
            return Ok(Login::Busy {
                retry_after: busy.retry_after,
            })
        }
    };
    // Refused while other logins of this account from this address are
    // being checked: wait for them (a right one gives its attempt back).
    let until = tokio::time::Instant::now() + brakes::LOGIN_WAIT;
    loop {
        match db
            .take_attempts(brakes::login_keys(username, client))
            .await?
        {
            Verdict::Granted => break,
            Verdict::Refused { retry_after } => {
                if !doors
                    .in_flight
                    .wait_for_others(username, client, until)
                    .await
                {
                    return Ok(Login::Throttled { retry_after });
                }
            }
        }
    }
    // Settled (dropped) once the attempt is given back or kept.
    let _checking = doors.in_flight.enter(username, client);
    let lookup = username.trim().to_ascii_lowercase();
    let user = db
        .read(move |c| -> Result<_, ServiceError> { Ok(udb::find_by_username(c, &lookup)?) })
        .await?;
    let stored = user
        .as_ref()
        .filter(|u| u.active)
        .map(|u| u.password_hash.clone());
    let matches = ticket
        .verify(password, stored)
        .await
        .map_err(|e| ServiceError::corrupt(format!("password check: {e}")))?;
    let Some(user) = user.filter(|_| matches) else {
        return Ok(Login::Failed);
    };
    let old = old_token.map(session::token_id);
    let name = username.to_string();
    let limiter = db.limiter();
    let user_id = user.id;
    let now = db.now();
    let token = db
        .write(move |c| -> Result<String, ServiceError> {
            if let Some(old) = old {
                udb::delete_session(c, &old)?;
            }
            // Sweep sessions idle or older than the limits (the table stays small).
            udb::delete_expired_sessions(c, now - limits.idle, now - limits.max)?;
            let token = session::new_token();
            udb::insert_session(c, &session::token_id(&token), user_id, now)?;
            brakes::login_succeeded(c, &limiter, &name, client)?;
            Ok(token)
        })
        .await?;
    Ok(Login::SignedIn(SignedIn {
        user: User::of(&user),
        token,
    }))
}

/// How stale `last_seen_at` may get before a request refreshes it: a write
/// per request would queue every read behind the SQLite writer.
const TOUCH_EVERY: chrono::Duration = chrono::Duration::seconds(60);

/// The session of a cookie token, ended when idle too long or older than
/// its absolute lifetime. Reads; the rare writes (ending a session,
/// refreshing `last_seen_at`) go through the writer.
pub async fn session(
    db: &Db,
    token: &str,
    limits: SessionLimits,
) -> Result<Option<SessionUser>, ServiceError> {
    let id = session::token_id(token);
    let sid = id.clone();
    let found = db
        .read(move |c| -> Result<_, ServiceError> { Ok(udb::find_session(c, &sid)?) })
        .await?;
    let Some((s, u)) = found else {
        return Ok(None);
    };
    let now = db.now();
    let expired = now - s.last_seen_at > limits.idle || now - s.created_at > limits.max;
    if expired || now - s.last_seen_at > TOUCH_EVERY {
        let sid = id.clone();
        db.write(move |c| -> Result<(), ServiceError> {
            if expired {
                udb::delete_session(c, &sid)?;
            } else {
                udb::touch_session(c, &sid, now)?;
            }
            Ok(())
        })
        .await?;
    }
    if expired {
        return Ok(None);
    }
    let user = User::of(&u);
    Ok(Some(SessionUser {
        id: user.id,
        username: user.username,
        role: user.role,
        session_id: id,
    }))
}

/// Ends a session (by its id).
pub async fn logout(db: &Db, session_id: String) -> Result<(), ServiceError> {
    db.write(move |c| Ok(udb::delete_session(c, &session_id)?))
        .await
}

/// Every staff account, for the administrator.
pub async fn list(db: &Db, actor: super::Actor) -> Result<Vec<User>, ServiceError> {
    super::users::require_admin(&actor)?;
    db.read(|c| Ok(udb::list(c)?.iter().map(User::of).collect()))
        .await
}

/// One staff account, for the administrator.
pub async fn find(db: &Db, actor: super::Actor, id: UserId) -> Result<User, ServiceError> {
    super::users::require_admin(&actor)?;
    db.read(move |c| Ok(User::of(&udb::find(c, id)?.ok_or(ServiceError::NotFound)?)))
        .await
}

/// What became of a staff member's change of her own password.
#[derive(Debug)]
pub enum PasswordChange {
    /// Every place in the hasher's queue is taken: nothing was looked at.
    Busy { retry_after: Duration },
    /// The login brake of this account and address is spent: the current
    /// password was not looked at.
    Throttled { retry_after: Duration },
    /// The current password is wrong (the attempt counts, as a login's).
    WrongCurrent,
    /// Changed: every session of the account ended and its API tokens
    /// were revoked.
    Changed,
}

/// A staff member changes her own password: the current one is checked
/// through the login brake (a stolen session guesses no faster than the
/// login page), then in one transaction the new hash is stored, every
/// session ends and every API token is revoked (audited).
pub async fn change_own_password(
    db: &Db,
    doors: &LoginDoors,
    user: &SessionUser,
    current: String,
    new_password: crate::auth::NewPassword,
    client: Option<IpAddr>,
) -> Result<PasswordChange, ServiceError> {
    let busy = |b: crate::auth::password::Busy| PasswordChange::Busy {
        retry_after: b.retry_after,
    };
    let ticket = match doors.hasher.admit() {
        Ok(t) => t,
        Err(b) => return Ok(busy(b)),
    };
    if let Verdict::Refused { retry_after } = db
        .take_attempts(brakes::login_keys(&user.username, client))
        .await?
    {
        return Ok(PasswordChange::Throttled { retry_after });
    }
    let id = user.id;
    let stored = db
        .read(move |c| -> Result<_, ServiceError> { Ok(udb::find(c, id)?) })
        .await?
        .filter(|u| u.active)
        .ok_or(ServiceError::NotFound)?;
    let matches = ticket
        .verify(current, Some(stored.password_hash))
        .await
        .map_err(|e| ServiceError::corrupt(format!("password check: {e}")))?;
    if !matches {
        return Ok(PasswordChange::WrongCurrent);
    }
    let ticket = match doors.hasher.admit() {
        Ok(t) => t,
        Err(b) => return Ok(busy(b)),
    };
    let hash = ticket
        .hash(new_password.expose().to_string())
        .await
        .map_err(|e| ServiceError::corrupt(format!("password hash: {e}")))?;
    let limiter = db.limiter();
    let name = user.username.clone();
    let clock = db.clock().clone();
    db.write(move |c| -> Result<(), ServiceError> {
        let now = clock.now();
        udb::set_password(c, id, &hash, now).map_err(super::users::user_error)?;
        super::users::revoke_all(c, Some(id), id, super::users::RevokedBecause::Password, now)?;
        super::users::record_by(c, Some(id), id, "user.password", None, None, now)?;
        brakes::login_succeeded(c, &limiter, &name, client)?;
        Ok(())
    })
    .await?;
    Ok(PasswordChange::Changed)
}
