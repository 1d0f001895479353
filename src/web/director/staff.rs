//! A tournament's staff: co-directors and referees.

use super::{refused, tournament_page};
use crate::auth::Role;
use crate::services;
use crate::services::ServiceError;
use crate::web::context::PageCtx;
use crate::web::error::AppError;
use crate::web::roles::Director;
use crate::web::{see_other, AppState};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};

// ---- staff ----

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct StaffForm {
    username: String,
    role: String,
}

/// Adds a co-director or a referee.
pub async fn add_staff(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    id: web::Path<crate::ids::TournamentId>,
    form: web::Form<StaffForm>,
) -> Result<HttpResponse, AppError> {
    let tid = *id;
    let role = match form.role.as_str() {
        "director" => Role::Director,
        _ => Role::Referee,
    };
    match services::tournaments::add_staff(&state.db, actor, tid, form.username.clone(), role).await
    {
        Ok(()) => Ok(see_other(&format!(
            "/director/t/{tid}?done=staff_added#staff"
        ))),
        Err(ServiceError::Invalid(p)) => {
            let message = p
                .iter()
                .map(|p| p.message(ctx.lang))
                .collect::<Vec<_>>()
                .join(" ");
            tournament_page(
                &ctx,
                &state,
                actor,
                tid,
                None,
                Some(message),
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await
        }
        Err(e) => refused(&ctx, &state, actor, tid, e).await,
    }
}

/// Removes a member of the staff.
pub async fn remove_staff(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    path: web::Path<(crate::ids::TournamentId, crate::ids::UserId)>,
) -> Result<HttpResponse, AppError> {
    let (tid, uid) = path.into_inner();
    match services::tournaments::remove_staff(&state.db, actor, tid, uid).await {
        Ok(()) => Ok(see_other(&format!(
            "/director/t/{tid}?done=staff_removed#staff"
        ))),
        Err(e) => refused(&ctx, &state, actor, tid, e).await,
    }
}
