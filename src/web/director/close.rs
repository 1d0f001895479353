//! Closing (final standings) and reopening a tournament.

use super::{blocked_reason, confirmed, refused, ConfirmForm, ConfirmPage};
use crate::auth::Role;
use crate::i18n::tf;
use crate::ids::TournamentId;
use crate::services;
use crate::services::Refusal;
use crate::services::{Conflict, ServiceError};
use crate::web::context::PageCtx;
use crate::web::error::AppError;
use crate::web::roles::Director;
use crate::web::{render_status, see_other, AppState};
use actix_web::{web, HttpResponse};

/// What closing will do; the tables still without a score keep it open.
pub async fn confirm_close(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<crate::ids::TournamentId>,
) -> Result<HttpResponse, AppError> {
    close_page(&ctx, &state, *id, false).await
}

pub(super) async fn close_page(
    ctx: &PageCtx,
    state: &AppState,
    tid: TournamentId,
    stale: bool,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Director)?;
    let (l, plan) = services::tournaments::plan_close(&state.db, actor, tid).await?;
    let lang = ctx.lang;
    let mut page = ConfirmPage::new(
        ctx,
        &l,
        ctx.t("states.close.title").to_string(),
        format!("/director/t/{tid}/close"),
    );
    page.lines.push(ctx.t("states.close.final").to_string());
    page.lines.push(ctx.t("states.close.reopen").to_string());
    let played = l.rounds.len();
    if u32::try_from(played).unwrap_or(u32::MAX) < l.settings.planned_rounds {
        page.warnings.push(tf(
            lang,
            "states.close.rounds",
            &[("played", &played), ("planned", &l.settings.planned_rounds)],
        ));
    }
    page.submit = ctx.t("states.close.submit").to_string();
    page.stale = stale;
    page.blocked = plan.err().map(|e| blocked_reason(&e, lang));
    render_status(&page, page.status())
}

/// Closes the tournament: final standings (every sheet must be in).
/// Without `confirm=1` the confirmation page answers instead.
pub async fn close(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    id: web::Path<crate::ids::TournamentId>,
    form: web::Form<ConfirmForm>,
) -> Result<HttpResponse, AppError> {
    let tid = *id;
    if !confirmed(&form.confirm) {
        return Ok(see_other(&format!("/director/t/{tid}/confirm-close")));
    }
    match services::tournaments::close(&state.db, actor, tid, form.seen()).await {
        Err(ServiceError::Conflict(Conflict::Refused(Refusal::Stale, _))) => {
            close_page(&ctx, &state, tid, true).await
        }
        Ok(()) => {
            tracing::info!(tournament_id = tid.0, "tournament closed");
            Ok(see_other(&format!(
                "/director/t/{tid}?done=tournament_closed"
            )))
        }
        Err(e) => refused(&ctx, &state, actor, tid, e).await,
    }
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct ReopenForm {
    reason: String,
}

/// Reopens a closed tournament, with a reason.
pub async fn reopen(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    id: web::Path<crate::ids::TournamentId>,
    form: web::Form<ReopenForm>,
) -> Result<HttpResponse, AppError> {
    let tid = *id;
    match services::tournaments::reopen(&state.db, actor, tid, form.into_inner().reason).await {
        Ok(()) => {
            tracing::info!(tournament_id = tid.0, "tournament reopened");
            Ok(see_other(&format!(
                "/director/t/{tid}?done=tournament_reopened"
            )))
        }
        Err(e) => refused(&ctx, &state, actor, tid, e).await,
    }
}
