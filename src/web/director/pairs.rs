//! Registrations: a pair's form, check-in (one by one or the whole hall), withdrawal, no-shows, deletion.

use super::{errors_of, load, refused};
use crate::ids::PairId;
use crate::ids::TournamentId;
use crate::services;
use crate::services::view::{Pair, Tournament};
use crate::services::Refusal;
use crate::services::{Actor, ServiceError};
use crate::tournament::pairs::{PairEntry, PairForm};
use crate::tournament::{FieldProblem, Status};
use crate::web::context::{FieldErrors, PageCtx};
use crate::web::error::AppError;
use crate::web::roles::Director;
use crate::web::{render, render_status, see_other, AppState};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;

// ---- pairs ----

#[derive(Template)]
#[template(path = "director/pair_form.html")]
pub(super) struct PairPage<'a> {
    ctx: &'a PageCtx,
    t: &'a Tournament,
    pair_id: Option<PairId>,
    number: Option<i32>,
    form: PairForm,
    errors: FieldErrors,
}

/// The empty pair form, or filled in from the query (a player picked from
/// the directory: `web::directory`).
pub async fn new_pair(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    id: web::Path<crate::ids::TournamentId>,
    prefill: web::Query<PairForm>,
) -> Result<HttpResponse, AppError> {
    let l = load(&state, actor, *id).await?;
    render(&PairPage {
        ctx: &ctx,
        t: &l.t,
        pair_id: None,
        number: None,
        form: prefill.into_inner(),
        errors: FieldErrors::default(),
    })
}

/// The pair form again, with its problems (422).
pub(super) async fn pair_form_again(
    ctx: &PageCtx,
    state: &AppState,
    actor: Actor,
    tid: TournamentId,
    pid: Option<crate::ids::PairId>,
    form: PairForm,
    problems: &[FieldProblem],
) -> Result<HttpResponse, AppError> {
    let l = load(state, actor, tid).await?;
    let number = match pid {
        Some(pid) => Some(l.pair(Some(pid)).ok_or(AppError::NotFound)?.number),
        None => None,
    };
    render_status(
        &PairPage {
            ctx,
            t: &l.t,
            pair_id: pid,
            number,
            form,
            errors: errors_of(ctx, problems),
        },
        StatusCode::UNPROCESSABLE_ENTITY,
    )
}

pub async fn add_pair(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    id: web::Path<crate::ids::TournamentId>,
    form: web::Form<PairForm>,
) -> Result<HttpResponse, AppError> {
    let tid = *id;
    let form = form.into_inner();
    let entry = match PairEntry::parse(&form) {
        Ok(entry) => entry,
        Err(problems) => {
            return pair_form_again(&ctx, &state, actor, tid, None, form, &problems).await
        }
    };
    match services::pairs::register(&state.db, actor, tid, entry).await {
        Ok(number) => {
            tracing::info!(tournament_id = tid.0, pair = number, "pair registered");
            Ok(see_other(&format!(
                "/director/t/{tid}?done=pair_added#pairs"
            )))
        }
        Err(ServiceError::Invalid(problems)) => {
            pair_form_again(&ctx, &state, actor, tid, None, form, &problems).await
        }
        Err(e) => refused(&ctx, &state, actor, tid, e).await,
    }
}

pub async fn edit_pair(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    path: web::Path<(crate::ids::TournamentId, crate::ids::PairId)>,
) -> Result<HttpResponse, AppError> {
    let (tid, pid) = path.into_inner();
    let l = load(&state, actor, tid).await?;
    let pair = l.pair(Some(pid)).ok_or(AppError::NotFound)?;
    render(&PairPage {
        ctx: &ctx,
        t: &l.t,
        pair_id: Some(pid),
        number: Some(pair.number),
        form: pair.entry().to_form(),
        errors: FieldErrors::default(),
    })
}

pub async fn update_pair(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    path: web::Path<(crate::ids::TournamentId, crate::ids::PairId)>,
    form: web::Form<PairForm>,
) -> Result<HttpResponse, AppError> {
    let (tid, pid) = path.into_inner();
    let form = form.into_inner();
    let entry = match PairEntry::parse(&form) {
        Ok(entry) => entry,
        Err(problems) => {
            return pair_form_again(&ctx, &state, actor, tid, Some(pid), form, &problems).await
        }
    };
    match services::pairs::update(&state.db, actor, tid, pid, entry).await {
        Ok(()) => Ok(see_other(&format!(
            "/director/t/{tid}?done=pair_saved#pairs"
        ))),
        Err(ServiceError::Invalid(problems)) => {
            pair_form_again(&ctx, &state, actor, tid, Some(pid), form, &problems).await
        }
        Err(e) => refused(&ctx, &state, actor, tid, e).await,
    }
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct FlagForm {
    value: String,
}

pub async fn check_in(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    path: web::Path<(crate::ids::TournamentId, crate::ids::PairId)>,
    form: web::Form<FlagForm>,
) -> Result<HttpResponse, AppError> {
    let (tid, pid) = path.into_inner();
    let value = form.value == "true";
    match services::pairs::set_checked_in(&state.db, actor, tid, pid, value).await {
        Ok(()) => Ok(see_other(&format!("/director/t/{tid}#pair-{pid}"))),
        Err(e) => refused(&ctx, &state, actor, tid, e).await,
    }
}

/// Checks in the ticked pairs (`pair` fields), or every pair still to
/// check in (`all=1`): one click for the whole hall.
pub async fn check_in_many(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    id: web::Path<crate::ids::TournamentId>,
    form: web::Form<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    let tid = *id;
    let fields = form.into_inner();
    let all = fields.iter().any(|(k, v)| k == "all" && v == "1");
    let ids: Vec<crate::ids::PairId> = fields
        .iter()
        .filter(|(k, _)| k == "pair")
        .filter_map(|(_, v)| v.trim().parse().ok())
        .collect();
    let pids = if all { None } else { Some(ids) };
    match services::pairs::check_in_many(&state.db, actor, tid, pids).await {
        Ok(_) => Ok(see_other(&format!(
            "/director/t/{tid}?done=pairs_checked_in#pairs"
        ))),
        Err(e) => refused(&ctx, &state, actor, tid, e).await,
    }
}

/// Withdraws a pair (from the next round on, once the tournament runs) or
/// reinstates it.
pub async fn withdraw(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    path: web::Path<(crate::ids::TournamentId, crate::ids::PairId)>,
    form: web::Form<FlagForm>,
) -> Result<HttpResponse, AppError> {
    let (tid, pid) = path.into_inner();
    let withdraw = form.value == "true";
    match services::pairs::set_withdrawn(&state.db, actor, tid, pid, withdraw).await {
        Ok(()) => {
            tracing::info!(
                tournament_id = tid.0,
                pair_id = pid.0,
                withdraw,
                "pair withdrawal changed"
            );
            Ok(see_other(&format!("/director/t/{tid}#pair-{pid}")))
        }
        Err(e) => refused(&ctx, &state, actor, tid, e).await,
    }
}

/// Marks a pair no-show (or undoes it) before the start.
pub async fn no_show(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    path: web::Path<(crate::ids::TournamentId, crate::ids::PairId)>,
    form: web::Form<FlagForm>,
) -> Result<HttpResponse, AppError> {
    let (tid, pid) = path.into_inner();
    let value = form.value == "true";
    match services::pairs::set_no_show(&state.db, actor, tid, pid, value).await {
        Ok(()) => Ok(see_other(&format!("/director/t/{tid}#pair-{pid}"))),
        Err(e) => refused(&ctx, &state, actor, tid, e).await,
    }
}

#[derive(Template)]
#[template(path = "director/pair_delete.html")]
pub(super) struct DeletePairPage<'a> {
    ctx: &'a PageCtx,
    t: &'a Tournament,
    pair: &'a Pair,
}

/// The confirmation step of a deletion (a page of its own: no JavaScript).
pub async fn delete_pair_confirm(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    path: web::Path<(crate::ids::TournamentId, crate::ids::PairId)>,
) -> Result<HttpResponse, AppError> {
    let (tid, pid) = path.into_inner();
    let l = load(&state, actor, tid).await?;
    let Some(pair) = l.pair(Some(pid)) else {
        return Err(ServiceError::NotFound.into());
    };
    if l.status() != Status::Draft {
        return refused(
            &ctx,
            &state,
            actor,
            tid,
            ServiceError::refused(Refusal::EntriesStarted),
        )
        .await;
    }
    render(&DeletePairPage {
        ctx: &ctx,
        t: &l.t,
        pair,
    })
}

/// Deletes a registration before the start.
pub async fn delete_pair(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    path: web::Path<(crate::ids::TournamentId, crate::ids::PairId)>,
) -> Result<HttpResponse, AppError> {
    let (tid, pid) = path.into_inner();
    match services::pairs::delete(&state.db, actor, tid, pid).await {
        Ok(number) => {
            tracing::info!(tournament_id = tid.0, pair = number, "registration deleted");
            Ok(see_other(&format!("/director/t/{tid}#pairs")))
        }
        Err(e) => refused(&ctx, &state, actor, tid, e).await,
    }
}
