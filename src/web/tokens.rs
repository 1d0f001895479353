//! The account page (`/account`): the signed-in staff member's personal API
//! tokens, listed, created (shown once) and revoked; and `GET /api/v1/me`,
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
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Referee)?;
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
    state: web::Data<AppState>,
    form: web::Form<CreateForm>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Referee)?;
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
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<crate::ids::TokenId>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Referee)?;
    let id = id.into_inner();
    services::tokens::revoke(&state.db, actor, id).await?;
    tracing::info!(
        user_id = actor.user_id.0,
        token_id = id.0,
        "API token revoked"
    );
    Ok(see_other("/account?done=token_revoked"))
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
            ),
    );
}
