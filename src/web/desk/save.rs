//! Saving a table's sheet or adjusted score at the desk, and the live preview.

use super::sheet::{field_key, load_table, sheet_page, table_ctx, TableCtx};
use super::{mode_code, mode_suffix, ModeQuery};
use crate::i18n::t;
use crate::ids::TournamentId;
use crate::rules::{SheetMode, SheetReport};
use crate::services;
use crate::services::scoring::{AdjustedForm, SheetInput};
use crate::services::view::{Seating, Sheet};
use crate::services::Refusal;
use crate::services::{Actor, Conflict, ServiceError};
use crate::tournament::sheet_form::SheetForm;
use crate::tournament::FieldProblem;
use crate::web::context::{FieldErrors, PageCtx};
use crate::web::error::AppError;
use crate::web::roles::Staff;
use crate::web::{render, render_status, see_other, AppState};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};

/// The form for a table: the saved sheet, in the mode asked for (`?mode=`)
/// or else the mode it was saved in.
/// With nothing saved, a pair's pending entry fills the form (the referee
/// settles a dispute with the players' sheet in view); with nothing at
/// all, a blank form in the tournament's mode.
pub(super) fn form_for(
    tc: &TableCtx,
    mode: &str,
    default: SheetMode,
) -> Result<SheetForm, AppError> {
    let mut form = match (&tc.sheet, &tc.pending) {
        (Some(_), _) => saved_form(tc.sheet.as_ref())?,
        (None, Some(p)) => SheetForm::from_sheet(&p.sheet),
        (None, None) => {
            let mut blank = SheetForm::default();
            blank.set("mode", default.code());
            blank
        }
    };
    match SheetMode::parse(mode) {
        Some(m) if m != form.mode() => {
            // Another mode than the saved sheet's: start from a blank form.
            let mut blank = SheetForm::default();
            blank.set("mode", m.code());
            form = blank;
        }
        _ => {}
    }
    Ok(form)
}

pub async fn sheet_form(
    ctx: PageCtx,
    Staff(actor): Staff,
    state: web::Data<AppState>,
    path: web::Path<(crate::ids::TournamentId, i32, i32)>,
    query: web::Query<ModeQuery>,
) -> Result<HttpResponse, AppError> {
    let (tid, n, table_no) = path.into_inner();
    let (l, ts, audit) = load_table(&state, actor, tid, n, table_no).await?;
    let tc = table_ctx(&state, actor, &l, ts, audit).await?;
    let form = form_for(&tc, &query.mode, l.settings.sheet_mode)?;
    render(&sheet_page(
        &ctx,
        &l,
        &tc,
        form,
        None,
        &[],
        FieldErrors::default(),
        Vec::new(),
        false,
    ))
}

/// The form showing the sheet saved now (empty when none is).
pub(super) fn saved_form(sheet: Option<&Sheet>) -> Result<SheetForm, AppError> {
    Ok(sheet
        .and_then(|s| s.sheet.as_ref())
        .map(SheetForm::from_sheet)
        .unwrap_or_default())
}

/// The engine's totals for the form as typed (the live totals beside the
/// form): `{"ok":true,"hands":[{"ns":545,"ew":-135},…],"totals":{…},"vp":{…}}`,
/// or `{"ok":false}` while a box is not a number. The one scoring
/// implementation is the engine's; the page only shows what this returns.
pub async fn preview(
    Staff(actor): Staff,
    state: web::Data<AppState>,
    path: web::Path<(crate::ids::TournamentId, i32, i32)>,
    query: web::Query<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    let (tid, n, table_no) = path.into_inner();
    let (l, _, _) = load_table(&state, actor, tid, n, table_no).await?;
    let form = SheetForm::from_pairs(query.into_inner());
    Ok(crate::web::preview_response(
        services::scoring::read_form(&l, &form).as_ref(),
    ))
}

/// The sheet page again, read fresh: after a conflict (409, the current
/// version and nothing of the stale edit but the message) or with the
/// problems of a refused save (422).
#[allow(clippy::too_many_arguments)]
pub(super) async fn sheet_again(
    ctx: &PageCtx,
    state: &AppState,
    actor: Actor,
    (tid, n, table_no): (TournamentId, i32, i32),
    form: Option<SheetForm>,
    report: Option<&SheetReport>,
    problems: &[FieldProblem],
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    let (l, ts, audit) = load_table(state, actor, tid, n, table_no).await?;
    let tc = table_ctx(state, actor, &l, ts, audit).await?;
    let form = match form {
        Some(f) => f,
        None => form_for(&tc, "", l.settings.sheet_mode)?,
    };
    let mut fe = FieldErrors::default();
    let mut boxes = Vec::new();
    for p in problems {
        match field_key(p.field) {
            Some(k) if !k.starts_with('h') && !k.starts_with("declared") => {
                fe.add(k, p.message(ctx.lang))
            }
            _ => boxes.push((p.field.to_string(), p.message(ctx.lang))),
        }
    }
    render_status(
        &sheet_page(
            ctx,
            &l,
            &tc,
            form,
            report,
            &boxes,
            fe,
            Vec::new(),
            status == StatusCode::CONFLICT,
        ),
        status,
    )
}

/// The next table of the round after `table_no` (wrapping round) that has
/// no counted sheet yet.
pub(super) fn next_missing(rows: &[(Seating, Option<Sheet>)], table_no: i32) -> Option<i32> {
    let mut missing: Vec<i32> = rows
        .iter()
        .filter(|(s, sheet)| sheet.is_none() && s.table_no != table_no)
        .map(|(s, _)| s.table_no)
        .collect();
    missing.sort_unstable();
    missing
        .iter()
        .copied()
        .find(|t| *t > table_no)
        .or_else(|| missing.first().copied())
}

/// Checks the sheet with the rules engine; saves it only when it passes
/// (or when its only fault is a wrong written total that a referee accepts
/// with a reason). A correction needs a reason; a concurrent change is a
/// conflict shown with the current version. After a save, `after=next`
/// opens the next table without a sheet (the round page once none is left).
pub async fn save_sheet(
    ctx: PageCtx,
    Staff(actor): Staff,
    state: web::Data<AppState>,
    path: web::Path<(crate::ids::TournamentId, i32, i32)>,
    body: web::Form<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    let place = path.into_inner();
    let (tid, n, table_no) = place;
    let form = SheetForm::from_pairs(body.into_inner());
    let (l, _, _) = load_table(&state, actor, tid, n, table_no).await?;
    let sheet = match form.parse(l.settings.hands_per_round as usize, l.settings.profile) {
        Ok(s) => s,
        Err(problems) => {
            let boxes: Vec<(String, String)> = problems
                .into_iter()
                .map(|p| (p.field, t(ctx.lang, p.key).to_string()))
                .collect();
            let (l, ts, audit) = load_table(&state, actor, tid, n, table_no).await?;
            let tc = table_ctx(&state, actor, &l, ts, audit).await?;
            return render_status(
                &sheet_page(
                    &ctx,
                    &l,
                    &tc,
                    form,
                    None,
                    &boxes,
                    FieldErrors::default(),
                    Vec::new(),
                    false,
                ),
                StatusCode::UNPROCESSABLE_ENTITY,
            );
        }
    };
    let mode = form.mode();
    let input = SheetInput {
        sheet,
        accept_mismatch: form.get("accept_mismatch") == "on",
        accept_time_out: form.get("accept_time_out") == "on",
        reason: form.get("reason").to_string(),
        version: form.get("version").trim().parse().ok(),
    };
    match services::scoring::save_sheet(&state.db, actor, tid, n, table_no, input).await {
        Ok(v) => {
            tracing::info!(
                tournament_id = tid.0,
                round = n,
                table = table_no,
                version = v,
                mode = mode.code(),
                "score sheet saved"
            );
            if form.get("after") == "next" {
                let (_, rows) = services::scoring::round_tables(&state.db, actor, tid, n).await?;
                let suffix = mode_suffix(mode_code(mode.code()), '&');
                return Ok(see_other(&match next_missing(&rows, table_no) {
                    Some(next) => {
                        format!("/desk/t/{tid}/rounds/{n}/tables/{next}?done=sheet_saved{suffix}")
                    }
                    None => format!("/desk/t/{tid}/rounds/{n}?done=all_entered{suffix}"),
                }));
            }
            Ok(see_other(&format!(
                "/desk/t/{tid}/rounds/{n}?done=sheet_saved#table-{table_no}"
            )))
        }
        Err(e) => sheet_refused(&ctx, &state, actor, place, Some(form), e).await,
    }
}

/// A save the service refused: the sheet page again, with the engine's
/// report and the problems next to their boxes (422, the form as typed),
/// or the current version after a concurrent change (409).
pub(super) async fn sheet_refused(
    ctx: &PageCtx,
    state: &AppState,
    actor: Actor,
    place: (TournamentId, i32, i32),
    form: Option<SheetForm>,
    e: ServiceError,
) -> Result<HttpResponse, AppError> {
    let (form, report, problems, status) = match &e {
        ServiceError::Sheet(r) => (
            form,
            Some(&r.report),
            r.problems.as_slice(),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        ServiceError::Invalid(problems) => (
            None,
            None,
            problems.as_slice(),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        ServiceError::Conflict(Conflict::Refused(Refusal::SheetChanged, _)) => {
            (None, None, &[][..], StatusCode::CONFLICT)
        }
        _ => return Err(e.into()),
    };
    sheet_again(ctx, state, actor, place, form, report, problems, status).await
}

// ---- adjusted score ----

/// A referee's adjusted score (RULES.md §9): replaces the table's sheet.
pub async fn adjusted(
    ctx: PageCtx,
    Staff(actor): Staff,
    state: web::Data<AppState>,
    path: web::Path<(crate::ids::TournamentId, i32, i32)>,
    form: web::Form<AdjustedForm>,
) -> Result<HttpResponse, AppError> {
    let place = path.into_inner();
    let (tid, n, table_no) = place;
    match services::scoring::set_adjusted(&state.db, actor, tid, n, table_no, form.into_inner())
        .await
    {
        Ok(_) => Ok(see_other(&format!(
            "/desk/t/{tid}/rounds/{n}?done=sheet_saved#table-{table_no}"
        ))),
        Err(e) => sheet_refused(&ctx, &state, actor, place, None, e).await,
    }
}
