//! Teams from a CSV file (one player per line, the team's name in its
//! column): a preview, then all or nothing.

use super::conflict_text;
use crate::ids::TournamentId;
use crate::services::teams;
use crate::services::view::Tournament;
use crate::services::Need;
use crate::tournament::team_csv::{self, TeamPreview};
use crate::tournament::Status;
use crate::web::context::PageCtx;
use crate::web::error::AppError;
use crate::web::roles::Director;
use crate::web::{render, render_status, see_other, AppState};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;

#[derive(Template)]
#[template(path = "director/team_import.html")]
struct TeamImportPage<'a> {
    ctx: &'a PageCtx,
    t: &'a Tournament,
    csv: String,
    preview: Option<TeamPreview>,
    error: Option<String>,
}

pub async fn form(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    id: web::Path<TournamentId>,
) -> Result<HttpResponse, AppError> {
    let t = teams::load(&state.db, actor, *id, Need::Direct).await?;
    render(&TeamImportPage {
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
    let t = teams::load(&state.db, actor, *id, Need::Direct).await?;
    let tid = t.l.t.id;
    let existing: Vec<crate::tournament::pairs::Player> = t
        .teams
        .iter()
        .filter(|x| !x.no_show && x.withdrawn_from_round.is_none())
        .flat_map(|x| x.players.iter().cloned())
        .collect();
    let (text, step) = upload.preview(
        ctx.lang,
        |text| team_csv::preview(text, &existing),
        TeamPreview::is_clean,
    );
    let page = |preview: Option<TeamPreview>, error: Option<String>, status: StatusCode| {
        render_status(
            &TeamImportPage {
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
            Some(ctx.t("teams.error.started").to_string()),
            StatusCode::CONFLICT,
        );
    }
    let preview = match step {
        Ok(p) => p,
        Err(again) => return page(again.preview, again.error, again.status),
    };
    match teams::import(&state.db, actor, tid, preview.teams.clone()).await {
        Ok(n) => {
            tracing::info!(tournament_id = tid.0, teams = n, "teams imported");
            Ok(see_other(&format!("/director/t/{tid}/teams#teams")))
        }
        Err(e) => match conflict_text(&ctx, &e) {
            Some(text) => page(Some(preview), Some(text), StatusCode::CONFLICT),
            None => Err(e.into()),
        },
    }
}
