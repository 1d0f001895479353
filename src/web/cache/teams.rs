//! A team tournament's public pages in the cache (issue 25): the team view
//! once per revision and language, each page rendered once on top of it,
//! and each tournament's kind read once.

use super::team_page::TeamPage;
use super::{build_tag, respond, PublicCache, Rendered};
use crate::i18n::Lang;
use crate::services::teams::TeamView;
use crate::tournament_file::FileKind;
use crate::web::error::AppError;
use crate::web::AppState;
use actix_web::{HttpRequest, HttpResponse};
use std::sync::atomic::Ordering;
use std::sync::Arc;

impl PublicCache {
    /// Whether tournament `tid` holds pairs or teams (read once: a
    /// tournament's kind never changes).
    pub async fn kind(
        &self,
        state: &AppState,
        tid: crate::ids::TournamentId,
    ) -> Result<FileKind, AppError> {
        if let Some(k) = self
            .kinds
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&tid.0)
        {
            return Ok(*k);
        }
        let k = crate::services::teams::kind(&state.db, tid).await?;
        let mut map = self.kinds.lock().unwrap_or_else(|p| p.into_inner());
        if map.len() > 100_000 {
            map.clear();
        }
        map.insert(tid.0, k);
        Ok(k)
    }

    /// The team view of `tid` at `rev`, computed once.
    pub async fn teams(
        &self,
        state: &AppState,
        tid: crate::ids::TournamentId,
        rev: i64,
        lang: Lang,
    ) -> Result<Arc<TeamView>, AppError> {
        self.teams
            .get_or_try(tid.0, rev, lang, || async {
                self.computations.fetch_add(1, Ordering::SeqCst);
                let v = crate::services::teams::view(&state.db, tid, state.settings.timezone, lang)
                    .await?
                    .ok_or(AppError::NotFound)?;
                Ok::<_, AppError>(v)
            })
            .await
    }

    /// A team tournament's page, rendered once per revision.
    pub async fn team_page<F>(
        &self,
        state: &AppState,
        tid: crate::ids::TournamentId,
        rev: i64,
        lang: Lang,
        page: TeamPage,
        render: F,
    ) -> Result<Arc<Rendered>, AppError>
    where
        F: FnOnce(&TeamView) -> Result<String, AppError>,
    {
        self.team_pages
            .get_or_try(tid.0, rev, (lang, page), || async {
                let view = self.teams(state, tid, rev, lang).await?;
                self.renders.fetch_add(1, Ordering::SeqCst);
                let body = render(&view)?;
                let etag = format!("{}-{tid}-{rev}-{lang}-{}", build_tag(), page.tag());
                Ok::<_, AppError>(Rendered::new(page.content_type(), body, etag))
            })
            .await
    }
}

/// A team tournament's public page or document, from the cache for
/// everyone: rendered once per revision and language, answered with its
/// ETag. `render` gets the anonymous context, the team view and the
/// revision.
pub async fn serve_teams<F>(
    req: &HttpRequest,
    state: &AppState,
    tid: crate::ids::TournamentId,
    page: TeamPage,
    render: F,
) -> Result<HttpResponse, AppError>
where
    F: FnOnce(&crate::web::context::PageCtx, &TeamView, i64) -> Result<String, AppError>,
{
    let ctx = crate::web::context::PageCtx::from_request(req).anonymous();
    let rev = crate::services::current_revision(&state.db, tid)
        .await?
        .ok_or(AppError::NotFound)?;
    let rendered = state
        .public
        .team_page(state, tid, rev, ctx.lang, page, |view| {
            render(&ctx, view, rev)
        })
        .await?;
    Ok(respond(req, &rendered))
}
