//! The administrator's page: staff accounts (list, create, disable, enable,
//! change role, reset password). The `/admin` scope is guarded by role.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use serde::Deserialize;

use super::context::{FieldErrors, PageCtx};
use super::{render, render_status, see_other, AppState};
use crate::auth::{CredentialError, NewPassword, Role, Username};
use crate::services::view::User as UserRow;
use crate::services::{self, ServiceError};
use crate::web::error::AppError;
use crate::web::roles::Admin;

#[derive(Template)]
#[template(path = "admin/users.html")]
struct UsersPage<'a> {
    ctx: &'a PageCtx,
    users: Vec<UserRow>,
    roles: [Role; 3],
    form: CreateUserForm,
    errors: FieldErrors,
    referees_see_all: bool,
    log: Vec<services::users::UserAuditEntry>,
    /// The public address as saved (or as typed, when refused).
    public_url: String,
    /// `PUBLIC_URL` from the environment (it overrides the saved one).
    public_url_env: Option<String>,
}

/// The users page, with the form as typed and its problems.
async fn users_page(
    ctx: &PageCtx,
    state: &AppState,
    form: CreateUserForm,
    errors: FieldErrors,
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    users_page_with(ctx, state, form, errors, status, None).await
}

async fn users_page_with(
    ctx: &PageCtx,
    state: &AppState,
    form: CreateUserForm,
    errors: FieldErrors,
    status: StatusCode,
    public_url_typed: Option<String>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Admin)?;
    let users = load_users(ctx, state).await?;
    let referees_see_all = services::users::referees_see_all(&state.db).await?;
    let log = services::users::audit_log(&state.db, actor, 50).await?;
    let public_url = match public_url_typed {
        Some(typed) => typed,
        None => services::users::public_url(&state.db)
            .await?
            .unwrap_or_default(),
    };
    render_status(
        &UsersPage {
            ctx,
            users,
            roles: Role::ALL,
            form,
            errors,
            referees_see_all,
            log,
            public_url,
            public_url_env: state.settings.public_url.clone(),
        },
        status,
    )
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct PublicUrlForm {
    public_url: String,
    /// Where to go back to (the table cards that offered the address).
    next: String,
}

/// Saves the address players reach the server at (the QR codes of the
/// table cards). A wrong address comes back next to its field (422).
pub async fn set_public_url(
    ctx: PageCtx,
    Admin(actor): Admin,
    state: web::Data<AppState>,
    form: web::Form<PublicUrlForm>,
) -> Result<HttpResponse, AppError> {
    let form = form.into_inner();
    match services::users::set_public_url(&state.db, actor, form.public_url.clone()).await {
        Ok(()) => Ok(see_other(
            &super::safe_next(Some(&form.next))
                .unwrap_or_else(|| "/admin/users?done=admin_setting_saved#public-url".to_string()),
        )),
        Err(ServiceError::Invalid(problems)) => {
            let mut errors = FieldErrors::default();
            for p in &problems {
                errors.add(p.field, p.message(ctx.lang));
            }
            users_page_with(
                &ctx,
                &state,
                CreateUserForm::default(),
                errors,
                StatusCode::UNPROCESSABLE_ENTITY,
                Some(form.public_url),
            )
            .await
        }
        Err(e) => Err(e.into()),
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct RefereesForm {
    all: String,
}

/// Whether every referee works on every tournament (default: only on the
/// tournaments a director assigned them to).
pub async fn set_referees(
    Admin(actor): Admin,
    state: web::Data<AppState>,
    form: web::Form<RefereesForm>,
) -> Result<HttpResponse, AppError> {
    services::users::set_referees_see_all(&state.db, actor, form.all == "true").await?;
    Ok(see_other("/admin/users?done=admin_setting_saved"))
}

#[derive(Template)]
#[template(path = "admin/user.html")]
struct UserPage<'a> {
    ctx: &'a PageCtx,
    user: UserRow,
    roles: [Role; 3],
    errors: FieldErrors,
    /// The account's API tokens (never the tokens themselves).
    tokens: Vec<crate::services::tokens::TokenInfo>,
}

impl UserPage<'_> {
    fn revoke_url(&self, token: &crate::ids::TokenId) -> String {
        format!("/admin/users/{}/tokens/{token}/revoke", self.user.id)
    }
}

#[derive(Debug, Default, Clone, Deserialize)]
#[serde(default)]
pub struct CreateUserForm {
    pub username: String,
    pub role: String,
    password: String,
    password2: String,
}

async fn load_users(ctx: &PageCtx, state: &AppState) -> Result<Vec<UserRow>, AppError> {
    let actor = ctx.actor(Role::Admin)?;
    Ok(services::accounts::list(&state.db, actor).await?)
}

async fn load_user(
    ctx: &PageCtx,
    state: &AppState,
    id: crate::ids::UserId,
) -> Result<UserRow, AppError> {
    let actor = ctx.actor(Role::Admin)?;
    Ok(services::accounts::find(&state.db, actor, id).await?)
}

pub async fn list_users(
    ctx: PageCtx,
    state: web::Data<AppState>,
) -> Result<HttpResponse, AppError> {
    users_page(
        &ctx,
        &state,
        CreateUserForm {
            role: Role::Director.as_str().to_string(),
            ..Default::default()
        },
        FieldErrors::default(),
        StatusCode::OK,
    )
    .await
}

fn password_error(ctx: &PageCtx, errors: &mut FieldErrors, e: CredentialError) {
    let field = if e == CredentialError::PasswordsDiffer {
        "password2"
    } else {
        "password"
    };
    errors.add(field, ctx.t(e.key()));
}

/// Hashes a password under the hasher's bound (argon2 is slow on purpose).
async fn hash(state: &AppState, password: NewPassword) -> Result<String, AppError> {
    state
        .hasher
        .admit()
        .map_err(AppError::from)?
        .hash(password.expose().to_string())
        .await
        .map_err(|e| AppError::Internal(e.into()))
}

pub async fn create_user(
    ctx: PageCtx,
    Admin(actor): Admin,
    state: web::Data<AppState>,
    form: web::Form<CreateUserForm>,
) -> Result<HttpResponse, AppError> {
    let form = form.into_inner();
    let mut errors = FieldErrors::default();
    let username =
        Username::parse(&form.username).map_err(|e| errors.add("username", ctx.t(e.key())));
    let role =
        Role::parse(&form.role).ok_or_else(|| errors.add("role", ctx.t("error.role_invalid")));
    let password = NewPassword::parse(&form.password, &form.password2)
        .map_err(|e| password_error(&ctx, &mut errors, e));
    if let (Ok(username), Ok(role), Ok(password)) = (username, role, password) {
        let name = username.as_str().to_string();
        let hash = hash(&state, password).await?;
        match services::users::create(&state.db, actor, name, hash, role).await {
            Ok(id) => {
                tracing::info!(user_id = id.0, role = %role, "user created");
                return Ok(see_other("/admin/users?done=user_created"));
            }
            Err(ServiceError::Invalid(problems)) => {
                for p in problems {
                    errors.add(p.field, p.message(ctx.lang));
                }
            }
            Err(e) => return Err(e.into()),
        }
    }
    users_page(
        &ctx,
        &state,
        CreateUserForm {
            password: String::new(),
            password2: String::new(),
            ..form
        },
        errors,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await
}

pub async fn edit_user(
    ctx: PageCtx,
    Admin(actor): Admin,
    state: web::Data<AppState>,
    id: web::Path<crate::ids::UserId>,
) -> Result<HttpResponse, AppError> {
    let user = load_user(&ctx, &state, *id).await?;
    let tokens = services::tokens::list_of(&state.db, actor, user.id).await?;
    render(&UserPage {
        ctx: &ctx,
        user,
        roles: Role::ALL,
        errors: FieldErrors::default(),
        tokens,
    })
}

/// `POST /admin/users/{id}/tokens/{token}/revoke`: an administrator
/// revokes one of an account's API tokens (audited as hers).
pub async fn revoke_token(
    Admin(actor): Admin,
    state: web::Data<AppState>,
    path: web::Path<(crate::ids::UserId, crate::ids::TokenId)>,
) -> Result<HttpResponse, AppError> {
    let (user, token) = path.into_inner();
    services::tokens::revoke_of(&state.db, actor, user, token).await?;
    tracing::info!(
        user_id = user.0,
        token_id = token.0,
        "API token revoked by an administrator"
    );
    Ok(see_other(&format!(
        "/admin/users/{user}?done=token_revoked_admin#tokens"
    )))
}

async fn user_page_with_error(
    ctx: &PageCtx,
    state: &AppState,
    id: crate::ids::UserId,
    field: &'static str,
    key: &str,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Admin)?;
    let user = load_user(ctx, state, id).await?;
    let tokens = services::tokens::list_of(&state.db, actor, user.id).await?;
    let mut errors = FieldErrors::default();
    errors.add(field, ctx.t(key));
    render_status(
        &UserPage {
            ctx,
            user,
            roles: Role::ALL,
            errors,
            tokens,
        },
        StatusCode::UNPROCESSABLE_ENTITY,
    )
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ActiveForm {
    active: String,
}

pub async fn set_active(
    ctx: PageCtx,
    Admin(actor): Admin,
    state: web::Data<AppState>,
    id: web::Path<crate::ids::UserId>,
    form: web::Form<ActiveForm>,
) -> Result<HttpResponse, AppError> {
    let id = *id;
    let active = match form.active.as_str() {
        "true" => true,
        "false" => false,
        _ => return Err(AppError::BadRequest("error.bad_request.message")),
    };
    match services::users::set_active(&state.db, actor, id, active).await {
        Ok(()) => {
            tracing::info!(user_id = id.0, active, "user active flag changed");
            Ok(see_other(if active {
                "/admin/users?done=user_enabled"
            } else {
                "/admin/users?done=user_disabled"
            }))
        }
        Err(ServiceError::Conflict(_)) => {
            user_page_with_error(&ctx, &state, id, "active", "error.last_admin").await
        }
        Err(e) => Err(e.into()),
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct RoleForm {
    role: String,
}

pub async fn set_role(
    ctx: PageCtx,
    Admin(actor): Admin,
    state: web::Data<AppState>,
    id: web::Path<crate::ids::UserId>,
    form: web::Form<RoleForm>,
) -> Result<HttpResponse, AppError> {
    let id = *id;
    let Some(role) = Role::parse(&form.role) else {
        return user_page_with_error(&ctx, &state, id, "role", "error.role_invalid").await;
    };
    match services::users::set_role(&state.db, actor, id, role).await {
        Ok(()) => {
            tracing::info!(user_id = id.0, role = %role, "user role changed");
            Ok(see_other("/admin/users?done=role_changed"))
        }
        Err(ServiceError::Conflict(_)) => {
            user_page_with_error(&ctx, &state, id, "role", "error.last_admin").await
        }
        Err(e) => Err(e.into()),
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct PasswordForm {
    password: String,
    password2: String,
}

pub async fn reset_password(
    ctx: PageCtx,
    Admin(actor): Admin,
    state: web::Data<AppState>,
    id: web::Path<crate::ids::UserId>,
    form: web::Form<PasswordForm>,
) -> Result<HttpResponse, AppError> {
    let id = *id;
    let password = match NewPassword::parse(&form.password, &form.password2) {
        Ok(p) => p,
        Err(e) => {
            let field = if e == CredentialError::PasswordsDiffer {
                "password2"
            } else {
                "password"
            };
            return user_page_with_error(&ctx, &state, id, field, e.key()).await;
        }
    };
    let hash = hash(&state, password).await?;
    services::users::reset_password(&state.db, actor, id, hash).await?;
    tracing::info!(user_id = id.0, "password reset by an administrator");
    Ok(see_other("/admin/users?done=password_reset"))
}
