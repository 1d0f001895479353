//! First-run setup, login and logout.

use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use serde::Deserialize;

use super::context::{web_query_value, FieldErrors, PageCtx};
use super::middleware::{cookie, removal_cookie};
use super::{render, render_status, safe_next, see_other, AppState};
use crate::auth::{session, NewPassword, Role, Username};
use crate::db::rate_limits::Verdict;
use crate::db::users::{self, UserError};
use crate::services::brakes;
use crate::web::error::AppError;

// ---- setup ----

#[derive(Template)]
#[template(path = "setup.html")]
struct SetupPage<'a> {
    ctx: &'a PageCtx,
    username: &'a str,
    errors: FieldErrors,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct SetupForm {
    username: String,
    password: String,
    password2: String,
}

async fn user_count(state: &AppState) -> Result<i64, AppError> {
    state
        .db
        .read(|c| -> Result<i64, AppError> { Ok(users::count(c)?) })
        .await
}

pub async fn setup_form(
    ctx: PageCtx,
    state: web::Data<AppState>,
) -> Result<HttpResponse, AppError> {
    if user_count(&state).await? > 0 {
        return Ok(see_other("/login"));
    }
    render(&SetupPage {
        ctx: &ctx,
        username: "",
        errors: FieldErrors::default(),
    })
}

/// Creates the administrator (only while no account exists) and signs her in.
pub async fn setup_submit(
    ctx: PageCtx,
    state: web::Data<AppState>,
    form: web::Form<SetupForm>,
) -> Result<HttpResponse, AppError> {
    if user_count(&state).await? > 0 {
        return Ok(see_other("/login"));
    }
    let mut errors = FieldErrors::default();
    let username =
        Username::parse(&form.username).map_err(|e| errors.add("username", ctx.t(e.key())));
    let password = NewPassword::parse(&form.password, &form.password2).map_err(|e| {
        let field = if e == crate::auth::CredentialError::PasswordsDiffer {
            "password2"
        } else {
            "password"
        };
        errors.add(field, ctx.t(e.key()))
    });
    let (Ok(username), Ok(password)) = (username, password) else {
        return render_status(
            &SetupPage {
                ctx: &ctx,
                username: &form.username,
                errors,
            },
            StatusCode::UNPROCESSABLE_ENTITY,
        );
    };
    // Hash under the hasher's bound, outside the write transaction.
    let hash = state
        .hasher
        .admit()
        .map_err(AppError::from)?
        .hash(password.expose().to_string())
        .await
        .map_err(|e| AppError::Internal(e.into()))?;
    let name = username.as_str().to_string();
    let created = state
        .db
        .write(
            move |c| -> Result<Result<(i64, String), UserError>, AppError> {
                Ok(users::create_first_admin(c, &name, &hash).and_then(|id| {
                    let token = session::new_token();
                    users::insert_session(c, &session::token_id(&token), id)?;
                    Ok((id, token))
                }))
            },
        )
        .await?;
    match created {
        Ok((id, token)) => {
            tracing::info!(user_id = id, "administrator created at first-run setup");
            let mut res = see_other("/admin/users?done=setup_done");
            let _ = res.add_cookie(&cookie(
                session::COOKIE,
                token,
                state.settings.secure_cookies,
                None,
            ));
            Ok(res)
        }
        Err(UserError::SetupDone) => Ok(see_other("/login")),
        Err(UserError::Db(e)) => Err(e.into()),
        Err(_) => Err(AppError::BadRequest("error.bad_request.message")),
    }
}

// ---- login ----

#[derive(Template)]
#[template(path = "login.html")]
struct LoginPage<'a> {
    ctx: &'a PageCtx,
    username: &'a str,
    next: &'a str,
    error: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct LoginForm {
    username: String,
    password: String,
    next: String,
}

pub async fn login_form(
    ctx: PageCtx,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, AppError> {
    if user_count(&state).await? == 0 {
        return Ok(see_other("/setup"));
    }
    let next =
        safe_next(web_query_value(req.query_string(), "next").as_deref()).unwrap_or_default();
    render(&LoginPage {
        ctx: &ctx,
        username: "",
        next: &next,
        error: None,
    })
}

/// Checks the password; the same cost whether or not the username exists.
/// In this order, so that a burst costs little: a place in the hasher's
/// queue (none left: 503, nothing else done), an attempt from the brakes'
/// allowances (none left: 429, the password is not looked at), then the
/// user and the password. On success the session is new (any old one is
/// ended).
pub async fn login_submit(
    ctx: PageCtx,
    req: HttpRequest,
    state: web::Data<AppState>,
    form: web::Form<LoginForm>,
) -> Result<HttpResponse, AppError> {
    let form = form.into_inner();
    let next = safe_next(Some(&form.next)).unwrap_or_default();
    let page = |error: String, status: StatusCode, wait: Option<u64>| {
        let mut res = render_status(
            &LoginPage {
                ctx: &ctx,
                username: &form.username,
                next: &next,
                error: Some(error),
            },
            status,
        )?;
        if let Some(v) = wait.and_then(|w| HeaderValue::from_str(&w.to_string()).ok()) {
            res.headers_mut().insert(header::RETRY_AFTER, v);
        }
        Ok::<_, AppError>(res)
    };
    let ticket = match state.hasher.admit() {
        Ok(t) => t,
        Err(busy) => {
            let seconds = brakes::wait_seconds(busy.retry_after);
            tracing::debug!("login refused: too many password checks at once");
            let message = crate::i18n::tf(ctx.lang, "error.busy.message", &[("seconds", &seconds)]);
            return page(message, StatusCode::SERVICE_UNAVAILABLE, Some(seconds));
        }
    };
    let client = super::doors::client_addr(&req, state.settings.trust_forwarded_for);
    let keys = brakes::login_keys(&form.username, client);
    if let Verdict::Refused { retry_after } = state.db.take_attempts(keys).await? {
        let seconds = brakes::wait_seconds(retry_after);
        tracing::debug!("login refused: too many attempts");
        let message = crate::i18n::tf(
            ctx.lang,
            "error.throttled.message",
            &[("seconds", &seconds)],
        );
        return page(message, StatusCode::TOO_MANY_REQUESTS, Some(seconds));
    }
    let username = form.username.trim().to_ascii_lowercase();
    let user = state
        .db
        .read(move |c| -> Result<_, AppError> { Ok(users::find_by_username(c, &username)?) })
        .await?;
    // The password check is slow on purpose: under the hasher's bound,
    // outside any transaction, and as slow for an unknown user as for a
    // known one.
    let stored = user
        .as_ref()
        .filter(|u| u.active)
        .map(|u| u.password_hash.clone());
    let matches = ticket
        .verify(form.password.clone(), stored)
        .await
        .map_err(|e| AppError::Internal(e.into()))?;
    let Some(user) = user.filter(|_| matches) else {
        tracing::debug!("login failed");
        return page(
            ctx.t("error.login_failed").to_string(),
            StatusCode::UNAUTHORIZED,
            None,
        );
    };
    let old_session = req
        .cookie(session::COOKIE)
        .map(|c| session::token_id(c.value()));
    let (idle, max) = session_limits(&state);
    let user_id = user.id;
    let name = form.username.clone();
    let limiter = state.db.limiter();
    let token = state
        .db
        .write(move |c| -> Result<String, AppError> {
            if let Some(old) = old_session {
                users::delete_session(c, &old)?;
            }
            // Sweep sessions idle or older than the limits (the table stays small).
            let now = crate::db::now();
            users::delete_expired_sessions(c, now - idle, now - max)?;
            let token = session::new_token();
            users::insert_session(c, &session::token_id(&token), user_id)?;
            brakes::login_succeeded(c, &limiter, &name, client)?;
            Ok(token)
        })
        .await?;
    tracing::info!(user_id = user.id, "login");
    let target = if next.is_empty() {
        match user.role() {
            Role::Admin => "/admin/users".to_string(),
            _ => "/".to_string(),
        }
    } else {
        next
    };
    let mut res = see_other(&target);
    let _ = res.add_cookie(&cookie(
        session::COOKIE,
        token,
        state.settings.secure_cookies,
        None,
    ));
    Ok(res)
}

/// The idle timeout and the absolute lifetime of a session.
pub fn session_limits(state: &AppState) -> (chrono::Duration, chrono::Duration) {
    let idle = chrono::Duration::from_std(state.settings.session_idle)
        .unwrap_or(chrono::Duration::hours(2));
    let max = chrono::Duration::from_std(state.settings.session_max)
        .unwrap_or(chrono::Duration::hours(12));
    (idle, max)
}

/// Ends the session (in the database too) and forgets the cookie.
pub async fn logout(ctx: PageCtx, state: web::Data<AppState>) -> Result<HttpResponse, AppError> {
    if let Some(user) = ctx.user {
        let id = user.session_id.clone();
        state
            .db
            .write(move |c| -> Result<(), AppError> { Ok(users::delete_session(c, &id)?) })
            .await?;
        tracing::info!(user_id = user.id, "logout");
    }
    let mut res = see_other("/?done=logged_out");
    let _ = res.add_cookie(&removal_cookie(
        session::COOKIE,
        state.settings.secure_cookies,
    ));
    Ok(res)
}
