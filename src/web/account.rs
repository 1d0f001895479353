//! First-run setup, login and logout.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use serde::Deserialize;

use super::context::{web_query_value, FieldErrors, PageCtx};
use super::middleware::{cookie, removal_cookie};
use super::{render, render_status, safe_next, see_other, AppState};
use crate::auth::throttle::{addr_key, user_key};
use crate::auth::{password, session, NewPassword, Role, Username};
use crate::db::users::{self, UserError};
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
    let pool = state.db.pool().clone();
    web::block(move || -> Result<i64, AppError> { Ok(users::count(&mut *pool.get()?)?) }).await?
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
    let pool = state.db.pool().clone();
    let name = username.as_str().to_string();
    let created = web::block(
        move || -> Result<Result<(i64, String), UserError>, AppError> {
            let hash = password::hash_password(password.expose())
                .map_err(|e| AppError::Internal(e.into()))?;
            let mut conn = pool.get()?;
            Ok(
                users::create_first_admin(&mut conn, &name, &hash).and_then(|id| {
                    let token = session::new_token();
                    users::insert_session(&mut conn, &session::token_id(&token), id)?;
                    Ok((id, token))
                }),
            )
        },
    )
    .await??;
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

fn client_addr(req: &HttpRequest) -> String {
    req.peer_addr()
        .map(|a| a.ip().to_string())
        .unwrap_or_else(|| "unknown".to_string())
}

/// Checks the password off the async workers; the same cost whether or not
/// the username exists. On success the session is new (any old one is ended).
pub async fn login_submit(
    ctx: PageCtx,
    req: HttpRequest,
    state: web::Data<AppState>,
    form: web::Form<LoginForm>,
) -> Result<HttpResponse, AppError> {
    let form = form.into_inner();
    let next = safe_next(Some(&form.next)).unwrap_or_default();
    let keys = vec![user_key(&form.username), addr_key(&client_addr(&req))];
    let page = |error: String, status: StatusCode| {
        render_status(
            &LoginPage {
                ctx: &ctx,
                username: &form.username,
                next: &next,
                error: Some(error),
            },
            status,
        )
    };
    if let Some(wait) = state.throttle.check(&keys) {
        let seconds = wait.as_secs().max(1);
        tracing::warn!("login refused: too many failed attempts");
        return page(
            crate::i18n::tf(
                ctx.lang,
                "error.throttled.message",
                &[("seconds", &seconds)],
            ),
            StatusCode::TOO_MANY_REQUESTS,
        );
    }
    let old_session = req
        .cookie(session::COOKIE)
        .map(|c| session::token_id(c.value()));
    let pool = state.db.pool().clone();
    let username = form.username.trim().to_ascii_lowercase();
    let password = form.password.clone();
    let idle = chrono::Duration::from_std(state.settings.session_idle)
        .unwrap_or(chrono::Duration::hours(2));
    let outcome = web::block(move || -> Result<Option<(i64, Role, String)>, AppError> {
        let user = users::find_by_username(&mut *pool.get()?, &username)?;
        let (hash, candidate) = match &user {
            Some(u) if u.active => (u.password_hash.as_str(), Some(u)),
            _ => (password::dummy_hash(), None),
        };
        let matches = password::verify_password(&password, hash);
        let Some(user) = candidate.filter(|_| matches) else {
            return Ok(None);
        };
        let mut conn = pool.get()?;
        if let Some(old) = old_session {
            users::delete_session(&mut conn, &old)?;
        }
        // Sweep sessions left idle past the limit (the table stays small).
        users::delete_idle_sessions(&mut conn, crate::db::now() - idle)?;
        let token = session::new_token();
        users::insert_session(&mut conn, &session::token_id(&token), user.id)?;
        Ok(Some((user.id, user.role(), token)))
    })
    .await??;
    match outcome {
        Some((id, role, token)) => {
            state.throttle.record_success(&keys[0]);
            tracing::info!(user_id = id, "login");
            let target = if next.is_empty() {
                match role {
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
        None => {
            state.throttle.record_failure(&keys);
            tracing::info!("login failed");
            page(
                ctx.t("error.login_failed").to_string(),
                StatusCode::UNAUTHORIZED,
            )
        }
    }
}

/// Ends the session (in the database too) and forgets the cookie.
pub async fn logout(ctx: PageCtx, state: web::Data<AppState>) -> Result<HttpResponse, AppError> {
    if let Some(user) = ctx.user {
        let pool = state.db.pool().clone();
        let id = user.session_id.clone();
        web::block(move || -> Result<(), AppError> {
            Ok(users::delete_session(&mut *pool.get()?, &id)?)
        })
        .await??;
        tracing::info!(user_id = user.id, "logout");
    }
    let mut res = see_other("/?done=logged_out");
    let _ = res.add_cookie(&removal_cookie(
        session::COOKIE,
        state.settings.secure_cookies,
    ));
    Ok(res)
}
