//! The round clock: start, pause, resume and time-out (behind its confirmation page).

use super::{confirmed, load, ConfirmPage};
use crate::auth::Role;
use crate::i18n::tf;
use crate::ids::TournamentId;
use crate::services;
use crate::services::clock::TimeOutBlocked;
use crate::services::Refusal;
use crate::services::{Conflict, ServiceError};
use crate::web::clock::Phase;
use crate::web::context::PageCtx;
use crate::web::error::AppError;
use crate::web::roles::Director;
use crate::web::{render_status, see_other, AppState};
use actix_web::{web, HttpResponse};

// ---- the round clock and closing ----

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct ClockForm {
    action: String,
    /// `director`: back to the director's round page (else the desk).
    back: String,
    confirm: String,
    /// The revision the time-out confirmation page was shown at.
    revision: String,
}

/// What calling time-out will do, with the time still on the clock.
pub async fn confirm_time_out(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<(crate::ids::TournamentId, i32)>,
    query: web::Query<ClockForm>,
) -> Result<HttpResponse, AppError> {
    time_out_page(&ctx, &state, path.into_inner(), &query, false).await
}

pub(super) async fn time_out_page(
    ctx: &PageCtx,
    state: &AppState,
    (tid, n): (TournamentId, i32),
    query: &ClockForm,
    stale: bool,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Director)?;
    let l = load(state, actor, tid).await?;
    let round = l.round(n).ok_or(AppError::NotFound)?;
    let clock = crate::web::clock::ClockView::of(ctx, &l, round, state.db.now());
    let lang = ctx.lang;
    let mut page = ConfirmPage::new(
        ctx,
        &l,
        tf(lang, "states.time_out.title", &[("round", &n)]),
        format!("/director/t/{tid}/rounds/{n}/clock"),
    );
    let back_director = query.back == "director";
    page.back = if back_director {
        format!("/director/t/{tid}/rounds/{n}")
    } else {
        format!("/desk/t/{tid}/rounds/{n}")
    };
    page.lines.push(ctx.t("states.time_out.lap").to_string());
    page.lines.push(ctx.t("states.time_out.sheets").to_string());
    page.lines.push(ctx.t("states.time_out.final").to_string());
    match clock.state {
        Phase::Running => {
            page.warnings
                .push(tf(lang, "states.time_out.left", &[("left", &clock.left)]))
        }
        Phase::Paused => {
            page.warnings
                .push(tf(lang, "states.time_out.left", &[("left", &clock.left)]));
            page.warnings
                .push(ctx.t("states.time_out.paused").to_string());
        }
        _ => {}
    }
    page.hidden.push(("action", "time_out".to_string()));
    page.hidden.push((
        "back",
        if back_director { "director" } else { "desk" }.to_string(),
    ));
    page.submit = ctx.t("states.time_out.submit").to_string();
    page.danger = true;
    page.stale = stale;
    page.blocked = match crate::services::clock::plan_time_out(&l, round) {
        Ok(()) => None,
        Err(TimeOutBlocked::NotRunning) => Some(ctx.t("tournament.error.not_running").to_string()),
        Err(TimeOutBlocked::Called(at)) => Some(ctx.said_at("clock.time_out_called", &at)),
        Err(TimeOutBlocked::NotStarted) => Some(ctx.t("clock.not_started").to_string()),
    };
    render_status(&page, page.status())
}

/// Starts a round's clock, pauses or resumes it, or calls time-out (the
/// time is recorded). Time-out cannot be undone: without `confirm=1` the
/// confirmation page answers instead.
pub async fn clock(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    path: web::Path<(crate::ids::TournamentId, i32)>,
    form: web::Form<ClockForm>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    let Some(action) = services::clock::ClockAction::parse(&form.action) else {
        return Err(AppError::BadRequest("error.bad_request.message"));
    };
    let back = if form.back == "director" {
        "director"
    } else {
        "desk"
    };
    if action == services::clock::ClockAction::TimeOut && !confirmed(&form.confirm) {
        return Ok(see_other(&format!(
            "/director/t/{tid}/rounds/{n}/confirm-time-out?back={back}"
        )));
    }
    let seen = form.revision.trim().parse().ok();
    match services::clock::clock(&state.db, actor, tid, n, action, seen).await {
        Ok(()) => {}
        Err(ServiceError::Conflict(Conflict::Refused(Refusal::Stale, _))) => {
            return time_out_page(&ctx, &state, (tid, n), &form, true).await;
        }
        Err(e) => return Err(e.into()),
    }
    tracing::info!(
        tournament_id = tid.0,
        round = n,
        action = action.as_str(),
        "round clock"
    );
    Ok(see_other(&format!("/{back}/t/{tid}/rounds/{n}#clock")))
}
