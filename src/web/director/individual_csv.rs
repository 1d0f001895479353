//! Players of an individual tournament from a CSV or spreadsheet file (one
//! player per line): a preview, then all or nothing.

use super::conflict_text;
use crate::ids::TournamentId;
use crate::services::individual as ind;
use crate::services::view::Tournament;
use crate::services::Need;
use crate::tournament::player_csv::{self, PlayerPreview};
use crate::tournament::Status;
use crate::web::context::PageCtx;
use crate::web::error::AppError;
use crate::web::roles::Director;
use crate::web::{render, render_status, see_other, AppState};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;

#[derive(Template)]
#[template(path = "director/individual_import.html")]
struct ImportPage<'a> {
    ctx: &'a PageCtx,
    t: &'a Tournament,
    csv: String,
    preview: Option<PlayerPreview>,
    error: Option<String>,
}

pub async fn form(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    id: web::Path<TournamentId>,
) -> Result<HttpResponse, AppError> {
    let t = ind::load(&state.db, actor, *id, Need::Direct).await?;
    render(&ImportPage {
        ctx: &ctx,
        t: &t.l.t,
        csv: String::new(),
        preview: None,
        error: None,
    })
}

/// First the preview (nothing saved); with `confirm`, the same text is
/// read again and saved all or nothing.
pub async fn import(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    id: web::Path<TournamentId>,
    upload: crate::web::upload::ImportUpload,
) -> Result<HttpResponse, AppError> {
    let t = ind::load(&state.db, actor, *id, Need::Direct).await?;
    let tid = t.l.t.id;
    let existing = ind::existing(&t);
    let (text, step) = upload.preview(
        ctx.lang,
        |text| player_csv::preview(text, &existing),
        PlayerPreview::is_clean,
    );
    let page = |preview: Option<PlayerPreview>, error: Option<String>, status: StatusCode| {
        render_status(
            &ImportPage {
                ctx: &ctx,
                t: &t.l.t,
                csv: text.clone(),
                preview,
                error,
            },
            status,
        )
    };
    if t.l.status() != Status::Draft {
        return page(
            None,
            Some(ctx.t("individual.error.started").to_string()),
            StatusCode::CONFLICT,
        );
    }
    let preview = match step {
        Ok(p) => p,
        Err(again) => return page(again.preview, again.error, again.status),
    };
    let players = preview.players.iter().map(|l| l.player.clone()).collect();
    match ind::import(&state.db, actor, tid, players).await {
        Ok(n) => {
            tracing::info!(tournament_id = tid.0, players = n, "players imported");
            Ok(see_other(&format!(
                "/director/t/{tid}/individual?done=players_imported#players"
            )))
        }
        Err(e) => match conflict_text(&ctx, &e) {
            Some(text) => page(Some(preview), Some(text), StatusCode::CONFLICT),
            None => Err(e.into()),
        },
    }
}
