//! First-run setup, login and logout.

use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use serde::Deserialize;

use super::context::{web_query_value, FieldErrors, PageCtx};
use super::middleware::{cookie, removal_cookie, session_limits};
use super::{render, render_status, safe_next, see_other, AppState};
use crate::auth::{session, NewPassword, Role, Username};
use crate::services::accounts::{self, Login};
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

async fn setup_done(state: &AppState) -> Result<bool, AppError> {
    Ok(!accounts::setup_needed(&state.db).await?)
}

pub async fn setup_form(
    ctx: PageCtx,
    state: web::Data<AppState>,
) -> Result<HttpResponse, AppError> {
    if setup_done(&state).await? {
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
    if setup_done(&state).await? {
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
    match accounts::create_first_admin(&state.db, username, hash).await? {
        Some(signed) => {
            tracing::info!(
                user_id = signed.user.id.0,
                "administrator created at first-run setup"
            );
            let mut res = see_other("/admin/users?done=setup_done");
            let _ = res.add_cookie(&cookie(
                session::COOKIE,
                signed.token,
                state.settings.secure_cookies,
                None,
            ));
            Ok(res)
        }
        None => Ok(see_other("/login")),
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
    if !setup_done(&state).await? {
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
    let client = super::client::client_addr(&req, state.settings.trust_forwarded_for);
    let old_token = req.cookie(session::COOKIE).map(|c| c.value().to_string());
    let signed = match accounts::login(
        &state.db,
        &state.login_doors(),
        &form.username,
        form.password.clone(),
        client,
        old_token.as_deref(),
        session_limits(&state),
    )
    .await?
    {
        Login::Busy { retry_after } => {
            tracing::debug!("login refused: too many password checks at once");
            let message = ctx.wait_message("error.busy.message", retry_after);
            let seconds = brakes::wait_seconds(retry_after);
            return page(message, StatusCode::SERVICE_UNAVAILABLE, Some(seconds));
        }
        Login::Throttled { retry_after } => {
            tracing::debug!("login refused: too many attempts");
            let message = ctx.wait_message("error.throttled.message", retry_after);
            let seconds = brakes::wait_seconds(retry_after);
            return page(message, StatusCode::TOO_MANY_REQUESTS, Some(seconds));
        }
        Login::Failed => {
            tracing::debug!("login failed");
            return page(
                ctx.t("error.login_failed").to_string(),
                StatusCode::UNAUTHORIZED,
                None,
            );
        }
        Login::SignedIn(signed) => signed,
    };
    tracing::info!(user_id = signed.user.id.0, "login");
    let target = if next.is_empty() {
        match signed.user.role() {
            Role::Admin => "/admin/users".to_string(),
            _ => "/".to_string(),
        }
    } else {
        next
    };
    let mut res = see_other(&target);
    let _ = res.add_cookie(&cookie(
        session::COOKIE,
        signed.token,
        state.settings.secure_cookies,
        None,
    ));
    Ok(res)
}

/// Ends the session (in the database too) and forgets the cookie.
pub async fn logout(ctx: PageCtx, state: web::Data<AppState>) -> Result<HttpResponse, AppError> {
    if let Some(user) = ctx.user {
        accounts::logout(&state.db, user.session_id.clone()).await?;
        tracing::info!(user_id = user.id.0, "logout");
    }
    let mut res = see_other("/?done=logged_out");
    let _ = res.add_cookie(&removal_cookie(
        session::COOKIE,
        state.settings.secure_cookies,
    ));
    Ok(res)
}
