//! The tournament's audit log, in words.

use crate::services;
use crate::services::view::AuditEntry;
use crate::services::Loaded;
use crate::web::context::PageCtx;
use crate::web::error::AppError;
use crate::web::roles::Staff;
use crate::web::{render, AppState};
use actix_web::{web, HttpResponse};
use askama::Template;

// ---- audit log ----

#[derive(Template)]
#[template(path = "desk/audit.html")]
pub(super) struct AuditPage<'a> {
    ctx: &'a PageCtx,
    l: &'a Loaded,
    entries: Vec<(AuditEntry, Option<String>)>,
}

pub async fn audit(
    ctx: PageCtx,
    Staff(actor): Staff,
    state: web::Data<AppState>,
    id: web::Path<crate::ids::TournamentId>,
) -> Result<HttpResponse, AppError> {
    let (l, entries) = services::scoring::audit_log(&state.db, actor, *id).await?;
    render(&AuditPage {
        ctx: &ctx,
        l: &l,
        entries,
    })
}
