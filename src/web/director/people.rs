//! The player directory's people (issue 24): likely duplicates (the same
//! normalised name, or the same card) with a merge button, and the merges
//! made, each with a split button. Both are on the record and change every
//! circuit that counts the two people.

use crate::i18n::tf;
use crate::ids::PersonId;
use crate::services::people::{self as people, Duplicates};
use crate::services::{Actor, ServiceError};
use crate::web::context::PageCtx;
use crate::web::error::AppError;
use crate::web::roles::Director;
use crate::web::{render_status, see_other, AppState};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;

#[derive(Template)]
#[template(path = "director/people.html")]
struct PeoplePage<'a> {
    ctx: &'a PageCtx,
    d: &'a Duplicates,
    error: Option<String>,
}

impl PeoplePage<'_> {
    /// "Merge #17 into #6".
    fn merge_label(&self, gone: &PersonId, keep: &PersonId) -> String {
        tf(
            self.ctx.lang,
            "people.merge_into",
            &[("gone", gone), ("keep", keep)],
        )
    }
}

async fn page(
    ctx: &PageCtx,
    state: &AppState,
    actor: Actor,
    error: Option<String>,
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    let d = people::duplicates(&state.db, actor).await?;
    render_status(&PeoplePage { ctx, d: &d, error }, status)
}

/// `GET /director/people`.
pub async fn list(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
) -> Result<HttpResponse, AppError> {
    page(&ctx, &state, actor, None, StatusCode::OK).await
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct MergeForm {
    keep: PersonId,
    gone: PersonId,
}

async fn outcome(
    ctx: &PageCtx,
    state: &AppState,
    actor: Actor,
    result: Result<(), ServiceError>,
    done: &str,
) -> Result<HttpResponse, AppError> {
    match result {
        Ok(()) => Ok(see_other(&format!("/director/people?done={done}"))),
        Err(ServiceError::Conflict(c)) => {
            page(
                ctx,
                state,
                actor,
                Some(c.message(ctx.lang)),
                StatusCode::CONFLICT,
            )
            .await
        }
        Err(e) => Err(e.into()),
    }
}

/// `POST /director/people/merge`: `gone` becomes `keep`.
pub async fn merge(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    form: web::Form<MergeForm>,
) -> Result<HttpResponse, AppError> {
    let result = people::merge(&state.db, actor, form.keep, form.gone).await;
    outcome(&ctx, &state, actor, result, "people_merged").await
}

/// `POST /director/people/{id}/split`: undoes the merge of `id`.
pub async fn split(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    id: web::Path<PersonId>,
) -> Result<HttpResponse, AppError> {
    let result = people::split(&state.db, actor, *id).await;
    outcome(&ctx, &state, actor, result, "people_split").await
}
