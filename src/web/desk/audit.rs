//! The tournament's audit log, in words.

use super::*;

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
    state: web::Data<AppState>,
    id: web::Path<crate::ids::TournamentId>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Referee)?;
    let (l, entries) = services::scoring::audit_log(&state.db, actor, *id).await?;
    render(&AuditPage {
        ctx: &ctx,
        l: &l,
        entries,
    })
}
