//! The account page (`/account`): the signed-in staff member's personal API
//! tokens, listed, created (shown once) and revoked, and her own password
//! changed; and `GET /api/v1/me`,
//! which tells a token's holder whom it acts as.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use serde::{Deserialize, Serialize};

use super::bearer::ApiActor;
use super::context::{web_query_value, FieldErrors, PageCtx};
use super::{render_status, see_other, AppState};
use crate::auth::tokens::TokenLabel;
use crate::auth::Role;
use crate::services::tokens::{NewToken, TokenInfo};
use crate::services::{self, Actor, ServiceError};
use crate::web::error::{ApiError, AppError, ErrorCode};
use crate::web::roles::Staff;

#[derive(Template)]
#[template(path = "account/tokens.html")]
struct AccountPage<'a> {
    ctx: &'a PageCtx,
    username: &'a str,
    role: Role,
    tokens: Vec<TokenInfo>,
    created: Option<NewToken>,
    revoked: bool,
    label: &'a str,
    errors: FieldErrors,
}

impl AccountPage<'_> {
    fn revoke_url(&self, token: &crate::ids::TokenId) -> String {
        format!("/account/tokens/{token}/revoke")
    }
}

/// What the account page shows besides the list.
#[derive(Default)]
struct View<'a> {
    created: Option<NewToken>,
    revoked: bool,
    label: &'a str,
    errors: FieldErrors,
}

async fn page(
    ctx: &PageCtx,
    state: &AppState,
    actor: Actor,
    view: View<'_>,
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    let user = ctx.require_user()?;
    let tokens = services::tokens::list(&state.db, actor).await?;
    render_status(
        &AccountPage {
            ctx,
            username: &user.username,
            role: user.role,
            tokens,
            created: view.created,
            revoked: view.revoked,
            label: view.label,
            errors: view.errors,
        },
        status,
    )
}

/// `GET /account`.
pub async fn show(
    ctx: PageCtx,
    Staff(actor): Staff,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, AppError> {
    let revoked = web_query_value(req.query_string(), "done").as_deref() == Some("token_revoked");
    let view = View {
        revoked,
        ..View::default()
    };
    page(&ctx, &state, actor, view, StatusCode::OK).await
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct CreateForm {
    label: String,
}

/// `POST /account/tokens`: the new token is in this response only (never
/// in a redirect's URL, never stored).
pub async fn create(
    ctx: PageCtx,
    Staff(actor): Staff,
    state: web::Data<AppState>,
    form: web::Form<CreateForm>,
) -> Result<HttpResponse, AppError> {
    let mut errors = FieldErrors::default();
    let label = match TokenLabel::parse(&form.label) {
        Ok(l) => l,
        Err(e) => {
            errors.add("label", ctx.t(e.key()));
            let view = View {
                label: &form.label,
                errors,
                ..View::default()
            };
            return page(&ctx, &state, actor, view, StatusCode::UNPROCESSABLE_ENTITY).await;
        }
    };
    match services::tokens::create(&state.db, actor, label).await {
        Ok(created) => {
            tracing::info!(
                user_id = actor.user_id.0,
                token_id = created.id.0,
                "API token created"
            );
            let view = View {
                created: Some(created),
                ..View::default()
            };
            page(&ctx, &state, actor, view, StatusCode::OK).await
        }
        Err(ServiceError::Conflict(c)) => {
            errors.add("label", c.message(ctx.lang));
            let view = View {
                label: &form.label,
                errors,
                ..View::default()
            };
            page(&ctx, &state, actor, view, StatusCode::CONFLICT).await
        }
        Err(e) => Err(e.into()),
    }
}

/// `POST /account/tokens/{id}/revoke`.
pub async fn revoke(
    Staff(actor): Staff,
    state: web::Data<AppState>,
    id: web::Path<crate::ids::TokenId>,
) -> Result<HttpResponse, AppError> {
    let id = id.into_inner();
    services::tokens::revoke(&state.db, actor, id).await?;
    tracing::info!(
        user_id = actor.user_id.0,
        token_id = id.0,
        "API token revoked"
    );
    Ok(see_other("/account?done=token_revoked"))
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct PasswordForm {
    current_password: String,
    password: String,
    password2: String,
}

/// `POST /account/password`: the signed-in staff member changes her own
/// password (the current one checked through the login brake). Every
/// session of the account ends and its API tokens are revoked: she signs
/// in again with the new one.
pub async fn change_password(
    ctx: PageCtx,
    Staff(actor): Staff,
    req: HttpRequest,
    state: web::Data<AppState>,
    form: web::Form<PasswordForm>,
) -> Result<HttpResponse, AppError> {
    use crate::services::accounts::{self, PasswordChange};
    let user = ctx.require_user()?.clone();
    let mut errors = FieldErrors::default();
    let refused = |errors: FieldErrors, status: StatusCode| {
        let view = View {
            errors,
            ..View::default()
        };
        (view, status)
    };
    let new_password = match crate::auth::NewPassword::parse(&form.password, &form.password2) {
        Ok(p) => p,
        Err(e) => {
            let field = if e == crate::auth::CredentialError::PasswordsDiffer {
                "password2"
            } else {
                "password"
            };
            errors.add(field, ctx.t(e.key()));
            let (view, status) = refused(errors, StatusCode::UNPROCESSABLE_ENTITY);
            return page(&ctx, &state, actor, view, status).await;
        }
    };
    let client = super::client::client_addr(&req, state.settings.trust_forwarded_for);
    let done = accounts::change_own_password(
        &state.db,
        &state.login_doors(),
        &user,
        form.current_password.clone(),
        new_password,
        client,
    )
    .await?;
    let (message, status) = match done {
        PasswordChange::Changed => {
            tracing::info!(user_id = user.id.0, "password changed by its owner");
            let mut res = see_other("/login?done=password_changed");
            let _ = res.add_cookie(&super::middleware::removal_cookie(
                crate::auth::session::COOKIE,
                state.settings.secure_cookies,
            ));
            return Ok(res);
        }
        PasswordChange::WrongCurrent => (
            ctx.t("account.password.wrong_current").to_string(),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        PasswordChange::Throttled { retry_after } => (
            ctx.wait_message("error.throttled.message", retry_after),
            StatusCode::TOO_MANY_REQUESTS,
        ),
        PasswordChange::Busy { retry_after } => (
            ctx.wait_message("error.busy.message", retry_after),
            StatusCode::SERVICE_UNAVAILABLE,
        ),
    };
    errors.add("current_password", message);
    let (view, status) = refused(errors, status);
    page(&ctx, &state, actor, view, status).await
}

/// Whom a token acts as.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(example = json!({"id": 2, "username": "dora", "role": "director"}))]
pub struct Me {
    pub id: crate::ids::UserId,
    pub username: String,
    pub role: &'static str,
}

/// `GET /api/v1/me`: the token's owner and her current role.
#[utoipa::path(get, path = "/api/v1/me", tag = "tokens", operation_id = "getMe",
    security(("bearer" = [])),
    responses((status = 200, description = "The token's owner and her current role", body = Me)))]
pub async fn me(
    req: HttpRequest,
    actor: ApiActor,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let lang = PageCtx::from_request(&req).lang;
    let user = services::tokens::owner(&state.db, actor.0)
        .await
        .map_err(|e| {
            tracing::error!(error = %e, "reading the token's owner failed");
            ApiError::new(
                ErrorCode::Internal,
                crate::i18n::t(lang, "error.internal.message"),
            )
        })?;
    Ok(HttpResponse::Ok().json(Me {
        id: user.id,
        username: user.username,
        role: actor.0.role.as_str(),
    }))
}

/// The routes of this module.
pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route(
        crate::web::registry::noted("GET", "", "/api/v1/me"),
        web::get().to(me),
    )
    .service(
        web::scope("/account")
            .wrap(actix_web::middleware::from_fn(
                super::middleware::referee_only,
            ))
            .route(
                crate::web::registry::noted("GET", "/account", ""),
                web::get().to(show),
            )
            .route(
                crate::web::registry::noted("POST", "/account", "/tokens"),
                web::post().to(create),
            )
            .route(
                crate::web::registry::noted("POST", "/account", "/tokens/{id}/revoke"),
                web::post().to(revoke),
            )
            .route(
                crate::web::registry::noted("POST", "/account", "/password"),
                web::post().to(change_password),
            ),
    );
}
