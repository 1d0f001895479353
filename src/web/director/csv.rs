//! Pairs from a CSV file: a preview, then all or nothing.

use super::{load, refused};
use crate::services;
use crate::services::view::{Pair, Tournament};
use crate::services::Refusal;
use crate::services::ServiceError;
use crate::tournament::csv_import::Preview;
use crate::tournament::pairs::PairEntry;
use crate::tournament::{csv_import, Status};
use crate::web::context::PageCtx;
use crate::web::error::AppError;
use crate::web::roles::Director;
use crate::web::{render, render_status, see_other, AppState};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;

// ---- CSV import ----

#[derive(Template)]
#[template(path = "director/import.html")]
pub(super) struct ImportPage<'a> {
    ctx: &'a PageCtx,
    t: &'a Tournament,
    csv: String,
    preview: Option<Preview>,
    error: Option<String>,
}

pub async fn import_form(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    id: web::Path<crate::ids::TournamentId>,
) -> Result<HttpResponse, AppError> {
    let l = load(&state, actor, *id).await?;
    render(&ImportPage {
        ctx: &ctx,
        t: &l.t,
        csv: String::new(),
        preview: None,
        error: None,
    })
}

/// First the preview (nothing saved); with `confirm`, the same text is read
/// again and saved all or nothing.
pub async fn import(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    id: web::Path<crate::ids::TournamentId>,
    upload: crate::web::upload::ImportUpload,
) -> Result<HttpResponse, AppError> {
    let l = load(&state, actor, *id).await?;
    let tid = l.t.id;
    if l.status() != Status::Draft {
        return refused(
            &ctx,
            &state,
            actor,
            tid,
            ServiceError::refused(Refusal::ImportStarted),
        )
        .await;
    }
    // Withdrawn and no-show registrations do not hold their players (the
    // import's own check agrees).
    let existing: Vec<PairEntry> = l
        .pairs
        .iter()
        .filter(|p| p.holds_players())
        .map(Pair::entry)
        .collect();
    let (text, step) = upload.preview(
        ctx.lang,
        |text| csv_import::preview(text, &existing),
        Preview::is_clean,
    );
    let page = |preview: Option<Preview>, error: Option<String>, status: StatusCode| {
        render_status(
            &ImportPage {
                ctx: &ctx,
                t: &l.t,
                csv: text.clone(),
                preview,
                error,
            },
            status,
        )
    };
    let preview = match step {
        Ok(p) => p,
        Err(again) => return page(again.preview, again.error, again.status),
    };
    let entries: Vec<PairEntry> = preview.pairs.iter().map(|(_, e)| e.clone()).collect();
    match services::pairs::import(&state.db, actor, tid, entries).await {
        Ok(n) => {
            tracing::info!(tournament_id = tid.0, pairs = n, "pairs imported");
            Ok(see_other(&format!(
                "/director/t/{tid}?done=pairs_imported#pairs"
            )))
        }
        Err(ServiceError::Invalid(problems)) => page(
            Some(preview),
            Some(
                problems
                    .iter()
                    .map(|p| p.message(ctx.lang))
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        Err(e) => refused(&ctx, &state, actor, tid, e).await,
    }
}
