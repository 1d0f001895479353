//! The draw and the rounds: start, round 1 again, the next round, undo — each behind its confirmation page.

use super::{blocked_reason, confirmed, load, numbers, refused, ConfirmForm, ConfirmPage};
use crate::auth::Role;
use crate::i18n::tf;
use crate::ids::TournamentId;
use crate::services;
use crate::services::rounds::DrawKind;
use crate::services::Refusal;
use crate::services::{Conflict, ServiceError};
use crate::web::context::PageCtx;
use crate::web::error::AppError;
use crate::web::roles::Director;
use crate::web::{render_status, see_other, AppState};
use actix_web::{web, HttpResponse};

/// What starting (`redraw` false) or drawing round 1 again will do. The
/// precondition is the action's own ([`services::rounds::plan_draw`]).
pub(super) async fn draw_page(
    ctx: &PageCtx,
    state: &AppState,
    tid: TournamentId,
    kind: DrawKind,
    stale: bool,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Director)?;
    let l = load(state, actor, tid).await?;
    if kind == DrawKind::Start && l.t.is_teams() {
        return team_start_page(ctx, state, actor, tid, stale).await;
    }
    if kind == DrawKind::Start && l.t.is_individual() {
        return super::individual_rounds::start_page(ctx, state, actor, tid, stale).await;
    }
    let lang = ctx.lang;
    let redraw = kind == DrawKind::Redraw;
    let (title, action) = if redraw {
        (ctx.t("states.redraw.title"), "redraw")
    } else {
        (ctx.t("states.start.title"), "draw")
    };
    let mut page = ConfirmPage::new(
        ctx,
        &l,
        title.to_string(),
        format!("/director/t/{tid}/{action}"),
    );
    page.stale = stale;
    let present = l.drawable().count();
    let absent: Vec<i32> = l.not_checked_in().map(|p| p.number).collect();
    let tables = present.div_ceil(2);
    page.lines.push(tf(
        lang,
        "states.start.drawn",
        &[("pairs", &present), ("tables", &tables)],
    ));
    if redraw {
        page.lines.push(ctx.t("states.redraw.changes").to_string());
        if l.round(1).is_some_and(|r| r.started_at.is_some()) {
            page.warnings.push(ctx.t("states.redraw.clock").to_string());
        }
        page.submit = ctx.t("states.redraw.submit").to_string();
    } else {
        page.lines.push(ctx.t("states.start.locks").to_string());
        page.submit = ctx.t("states.start.submit").to_string();
    }
    page.lines.push(ctx.t("states.start.undo").to_string());
    match services::rounds::clubs_crossing(&l) {
        Some(0) => page
            .lines
            .push(ctx.t("states.start.clubs_apart").to_string()),
        Some(n) => page
            .warnings
            .push(tf(lang, "states.start.clubs_cross", &[("pairs", &n)])),
        None => {}
    }
    if !absent.is_empty() {
        page.warnings.push(tf(
            lang,
            "states.start.not_checked_in",
            &[("pairs", &numbers(&absent))],
        ));
    }
    if present % 2 == 1 {
        page.warnings.push(ctx.t("states.start.odd").to_string());
    }
    page.blocked = services::rounds::plan_draw(&l, kind)
        .err()
        .map(|e| blocked_reason(&e, lang));
    render_status(&page, page.status())
}

/// What starting a team tournament will do: the teams drawn, round 1's
/// matches and tables, the teams left out, from the start's own plan
/// (`services::teams::plan_start`).
async fn team_start_page(
    ctx: &PageCtx,
    state: &AppState,
    actor: services::Actor,
    tid: TournamentId,
    stale: bool,
) -> Result<HttpResponse, AppError> {
    let (t, plan) = services::teams::plan_start_of(&state.db, actor, tid).await?;
    let lang = ctx.lang;
    let mut page = ConfirmPage::new(
        ctx,
        &t.l,
        ctx.t("states.start.title").to_string(),
        format!("/director/t/{tid}/draw"),
    );
    page.stale = stale;
    page.back = format!("/director/t/{tid}/teams#rounds");
    match &plan {
        Ok(plan) => {
            page.lines.push(tf(
                lang,
                "states.teams_start.drawn",
                &[
                    ("teams", &plan.teams),
                    ("matches", &plan.matches),
                    ("tables", &plan.tables),
                ],
            ));
            if !plan.left_out.is_empty() {
                page.warnings.push(tf(
                    lang,
                    "states.teams_start.left_out",
                    &[("teams", &numbers(&plan.left_out))],
                ));
            }
            if plan.resting {
                page.warnings
                    .push(ctx.t("states.teams_start.resting").to_string());
            }
        }
        Err(e) => page.blocked = Some(blocked_reason(e, lang)),
    }
    page.lines.push(ctx.t("states.start.locks").to_string());
    page.lines.push(ctx.t("states.start.undo").to_string());
    page.submit = ctx.t("states.start.submit").to_string();
    render_status(&page, page.status())
}

/// What starting will do.
pub async fn confirm_start(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<crate::ids::TournamentId>,
) -> Result<HttpResponse, AppError> {
    draw_page(&ctx, &state, *id, DrawKind::Start, false).await
}

/// What drawing round 1 again will do.
pub async fn confirm_redraw(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<crate::ids::TournamentId>,
) -> Result<HttpResponse, AppError> {
    draw_page(&ctx, &state, *id, DrawKind::Redraw, false).await
}

/// Starts the tournament: checked-in pairs drawn at random to tables and
/// lines; the seed is stored. Without `confirm=1` the confirmation page
/// answers instead; a tournament that has started is a conflict (drawing
/// round 1 again is its own action, [`redraw`]).
pub async fn draw(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<crate::ids::TournamentId>,
    form: web::Form<ConfirmForm>,
) -> Result<HttpResponse, AppError> {
    draw_action(&ctx, &state, *id, form.into_inner(), DrawKind::Start).await
}

/// Draws round 1 again (nothing recorded for it yet).
pub async fn redraw(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<crate::ids::TournamentId>,
    form: web::Form<ConfirmForm>,
) -> Result<HttpResponse, AppError> {
    draw_action(&ctx, &state, *id, form.into_inner(), DrawKind::Redraw).await
}

pub(super) async fn draw_action(
    ctx: &PageCtx,
    state: &AppState,
    tid: TournamentId,
    form: ConfirmForm,
    kind: DrawKind,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Director)?;
    let page = match kind {
        DrawKind::Start => "confirm-start",
        DrawKind::Redraw => "confirm-redraw",
    };
    if !confirmed(&form.confirm) {
        return Ok(see_other(&format!("/director/t/{tid}/{page}")));
    }
    match services::rounds::draw(&state.db, actor, tid, kind, form.seen()).await {
        Ok(()) => Ok(see_other(&format!(
            "/director/t/{tid}/rounds/1?done=round_drawn"
        ))),
        Err(ServiceError::Conflict(Conflict::Refused(Refusal::Stale, _))) => {
            draw_page(ctx, state, tid, kind, true).await
        }
        Err(e) => refused(ctx, state, actor, tid, e).await,
    }
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct NextRoundForm {
    /// The round the form creates (its page showed "Generate round N").
    round: String,
    /// Why the round is generated with tables of the last round unscored.
    force_reason: String,
    confirm: String,
    /// The revision the confirmation page was shown at.
    revision: String,
}

/// What generating the next round will do: the tables of the last round
/// still without a score (then a reason is asked), a round without time-out.
pub async fn confirm_round(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<crate::ids::TournamentId>,
    query: web::Query<NextRoundForm>,
) -> Result<HttpResponse, AppError> {
    round_page(&ctx, &state, *id, &query, false).await
}

pub(super) async fn round_page(
    ctx: &PageCtx,
    state: &AppState,
    tid: TournamentId,
    query: &NextRoundForm,
    stale: bool,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Director)?;
    let (l, plan) = services::rounds::plan_next_round(&state.db, actor, tid, ctx.timezone).await?;
    let lang = ctx.lang;
    let n = l.next_round();
    let mut page = ConfirmPage::new(
        ctx,
        &l,
        tf(lang, "states.round.title", &[("round", &n)]),
        format!("/director/t/{tid}/rounds"),
    );
    let kind = l.settings.movement_of(u32::try_from(n).unwrap_or(1));
    let movement = ctx.t(kind.label_key());
    page.lines.push(tf(
        lang,
        "states.round.seated",
        &[("round", &n), ("movement", &movement)],
    ));
    page.lines.push(ctx.t("states.round.undo").to_string());
    match &plan {
        Ok(plan) => {
            if let Some(cut) = &plan.cut {
                page.lines.push(tf(
                    lang,
                    "groups.cut.line",
                    &[("round", &n), ("groups", &cut.len())],
                ));
                page.groups = cut
                    .iter()
                    .map(|g| super::GroupPreview {
                        name: g.name.clone(),
                        heading: tf(
                            lang,
                            "groups.cut.heading",
                            &[
                                ("group", &g.name),
                                ("tables", &(g.pairs.len() / 2)),
                                ("pairs", &g.pairs.len()),
                            ],
                        ),
                        pairs: g
                            .pairs
                            .iter()
                            .map(|&n| {
                                l.pairs.iter().find(|p| p.pair_no() == n).map_or_else(
                                    || n.to_string(),
                                    |p| format!("{n} · {}", p.names()),
                                )
                            })
                            .collect(),
                    })
                    .collect();
            }
            if let Some(last) = plan.no_time_out {
                page.warnings
                    .push(tf(lang, "states.round.no_time_out", &[("round", &last)]));
            }
            if !plan.missing.is_empty() {
                page.warnings.push(tf(
                    lang,
                    "states.round.missing",
                    &[("round", &(n - 1)), ("tables", &numbers(&plan.missing))],
                ));
                page.reason = Some((
                    "force_reason",
                    "rounds.force_reason",
                    query.force_reason.clone(),
                ));
            }
        }
        Err(e) => page.blocked = Some(blocked_reason(e, lang)),
    }
    page.hidden.push(("round", n.to_string()));
    page.submit = tf(lang, "states.round.submit", &[("round", &n)]);
    page.stale = stale;
    render_status(&page, page.status())
}

/// Generates the next round by the tournament's plan. The form names the
/// round it creates: posting it twice answers with that round. Without
/// `confirm=1` the confirmation page answers instead (the reason typed on
/// the tournament page comes along).
pub async fn next_round(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    id: web::Path<crate::ids::TournamentId>,
    form: web::Form<NextRoundForm>,
) -> Result<HttpResponse, AppError> {
    let tid = *id;
    if !confirmed(&form.confirm) {
        let query = serde_urlencoded::to_string([
            ("round", form.round.as_str()),
            ("force_reason", form.force_reason.as_str()),
        ])
        .map_err(|e| AppError::Internal(e.into()))?;
        return Ok(see_other(&format!(
            "/director/t/{tid}/confirm-round?{query}"
        )));
    }
    let requested = form.round.trim().parse::<i32>().ok();
    let force = Some(form.force_reason.clone());
    let seen = form.revision.trim().parse().ok();
    let tz = state.settings.timezone;
    match services::rounds::next_round(&state.db, actor, tid, requested, force, seen, tz).await {
        Ok(n) => Ok(see_other(&format!(
            "/director/t/{tid}/rounds/{n}?done=round_generated"
        ))),
        Err(ServiceError::Conflict(Conflict::Refused(Refusal::Stale, _))) => {
            round_page(&ctx, &state, tid, &form, true).await
        }
        Err(e) => refused(&ctx, &state, actor, tid, e).await,
    }
}

/// What undoing a round will do (round 1: the start is undone).
pub async fn confirm_undo(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<(crate::ids::TournamentId, i32)>,
) -> Result<HttpResponse, AppError> {
    undo_page(&ctx, &state, path.into_inner(), false).await
}

pub(super) async fn undo_page(
    ctx: &PageCtx,
    state: &AppState,
    (tid, n): (TournamentId, i32),
    stale: bool,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Director)?;
    let (l, plan) = services::rounds::plan_undo(&state.db, actor, tid, n).await?;
    let lang = ctx.lang;
    let mut page = ConfirmPage::new(
        ctx,
        &l,
        tf(lang, "states.undo.title", &[("round", &n)]),
        format!("/director/t/{tid}/rounds/{n}/undo"),
    );
    page.back = format!("/director/t/{tid}/rounds/{n}");
    if n == 1 {
        page.lines.push(ctx.t("states.undo.start").to_string());
    } else {
        page.lines.push(tf(
            lang,
            "states.undo.deletes",
            &[("round", &n), ("previous", &(n - 1))],
        ));
    }
    page.lines.push(ctx.t("states.undo.codes").to_string());
    match &plan {
        Ok(plan) if plan.clock_started => {
            page.warnings
                .push(tf(lang, "states.undo.clock", &[("round", &n)]))
        }
        Ok(_) => {}
        Err(e) => page.blocked = Some(blocked_reason(e, lang)),
    }
    page.submit = tf(lang, "states.undo.submit", &[("round", &n)]);
    page.danger = true;
    page.stale = stale;
    render_status(&page, page.status())
}

/// Undoes the last round while nothing is recorded for it (round 1: the
/// tournament is back in preparation).
pub async fn undo_round(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    path: web::Path<(crate::ids::TournamentId, i32)>,
    form: web::Form<ConfirmForm>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    if !confirmed(&form.confirm) {
        return Ok(see_other(&format!(
            "/director/t/{tid}/rounds/{n}/confirm-undo"
        )));
    }
    match services::rounds::undo_round(&state.db, actor, tid, n, form.seen()).await {
        Err(ServiceError::Conflict(Conflict::Refused(Refusal::Stale, _))) => {
            undo_page(&ctx, &state, (tid, n), true).await
        }
        Ok(0) => Ok(see_other(&format!("/director/t/{tid}?done=start_undone"))),
        Ok(last) => Ok(see_other(&format!(
            "/director/t/{tid}/rounds/{last}?done=round_undone"
        ))),
        Err(e) => refused(&ctx, &state, actor, tid, e).await,
    }
}
