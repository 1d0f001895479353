//! Downloads: the tournament file, the standings and the sheets as CSV.

use crate::services;
use crate::web::context::PageCtx;
use crate::web::error::AppError;
use crate::web::roles::Director;
use crate::web::AppState;
use actix_web::{web, HttpResponse};

// ---- exports ----

pub(super) fn download(body: String, content_type: &str, filename: &str) -> HttpResponse {
    HttpResponse::Ok()
        .content_type(content_type)
        .insert_header((
            actix_web::http::header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"{filename}\""),
        ))
        .body(body)
}

/// The whole tournament as `burraco-td/tournament@1`.
pub async fn export_json(
    Director(actor): Director,
    state: web::Data<AppState>,
    id: web::Path<crate::ids::TournamentId>,
) -> Result<HttpResponse, AppError> {
    let tid = *id;
    let file = services::files::export_any(&state.db, actor, tid, state.settings.timezone).await?;
    let json = file
        .to_json()
        .map_err(|e| AppError::Corrupt(format!("tournament {tid}: export: {e}")))?;
    Ok(download(
        json,
        "application/json",
        &format!("tournament-{tid}.json"),
    ))
}

/// The standings as CSV (semicolons, UTF-8 with BOM: opens in a spreadsheet).
pub async fn export_standings_csv(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    id: web::Path<crate::ids::TournamentId>,
) -> Result<HttpResponse, AppError> {
    let tid = *id;
    let tz = state.settings.timezone;
    // An individual tournament's standings rank players (issue 35).
    let out = if services::teams::kind(&state.db, tid).await?
        == crate::tournament_file::FileKind::Individual
    {
        let file = services::individual::rounds::file(&state.db, actor, tid, tz).await?;
        let st = crate::standings::compute_individual_file(&file, ctx.lang)
            .map_err(|e| AppError::Internal(anyhow::anyhow!(e.message(ctx.lang))))?;
        crate::tournament::csv_export::player_standings_csv(&file, &st, ctx.lang)
    } else {
        let (file, st) = services::files::standings(&state.db, actor, tid, tz, ctx.lang).await?;
        crate::tournament::csv_export::standings_csv(&file, &st, ctx.lang)
    }
    .map_err(|e| AppError::Internal(e.into()))?;
    Ok(download(
        out,
        "text/csv; charset=utf-8",
        &format!("standings-{tid}.csv"),
    ))
}

/// Every sheet as CSV: one line per hand and table.
pub async fn export_sheets_csv(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    id: web::Path<crate::ids::TournamentId>,
) -> Result<HttpResponse, AppError> {
    let tid = *id;
    let file = services::files::export(&state.db, actor, tid, state.settings.timezone).await?;
    let out = crate::tournament::csv_export::sheets_csv(&file, ctx.lang)
        .map_err(|e| AppError::Internal(e.into()))?;
    Ok(download(
        out,
        "text/csv; charset=utf-8",
        &format!("sheets-{tid}.csv"),
    ))
}
