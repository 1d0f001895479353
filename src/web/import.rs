//! The administrator's import of a tournament file (FORMAT.md), or of a
//! circuit with its stages (`burraco-td/circuit-bundle@1`): checked as
//! strictly as the forms, then written, all or nothing.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;

use super::context::PageCtx;
use super::{render, render_status, see_other, AppState};
use crate::web::error::AppError;
use crate::web::roles::Admin;

#[derive(Template)]
#[template(path = "admin/import.html")]
struct ImportPage<'a> {
    ctx: &'a PageCtx,
    json: String,
    problems: Vec<String>,
}

pub async fn form(ctx: PageCtx, _: Admin) -> Result<HttpResponse, AppError> {
    render(&ImportPage {
        ctx: &ctx,
        json: String::new(),
        problems: Vec::new(),
    })
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct ImportForm {
    json: String,
}

pub async fn submit(
    ctx: PageCtx,
    Admin(actor): Admin,
    state: web::Data<AppState>,
    form: web::Form<ImportForm>,
) -> Result<HttpResponse, AppError> {
    let json = form.into_inner().json;
    let bad = |problems: Vec<String>| {
        render_status(
            &ImportPage {
                ctx: &ctx,
                json: json.clone(),
                problems,
            },
            StatusCode::UNPROCESSABLE_ENTITY,
        )
    };
    if crate::services::circuits::is_bundle(&json) {
        let bundle = match crate::services::circuits::check_bundle(&json, ctx.lang) {
            Ok(b) => b,
            Err(problems) => return bad(problems),
        };
        return match crate::services::circuits::import(
            &state.db,
            actor,
            bundle,
            state.settings.timezone,
        )
        .await
        {
            Ok(id) => Ok(see_other(&format!(
                "/director/circuits/{id}?done=circuit_imported"
            ))),
            Err(crate::services::ServiceError::Invalid(problems)) => bad(problems
                .iter()
                .map(|p| {
                    p.params
                        .first()
                        .map(|(_, m)| m.clone())
                        .unwrap_or_else(|| p.message(ctx.lang))
                })
                .collect()),
            Err(e) => Err(e.into()),
        };
    }
    let file = match crate::services::files::check_any(&json, ctx.lang) {
        Ok(f) => f,
        Err(problems) => return bad(problems),
    };
    match crate::services::files::import_any(&state.db, actor, None, file, state.settings.timezone)
        .await
    {
        Ok(tid) => {
            tracing::info!(tournament_id = tid.0, "tournament imported");
            Ok(see_other(&format!(
                "/director/t/{tid}?done=tournament_imported"
            )))
        }
        Err(crate::services::ServiceError::Invalid(problems)) => bad(problems
            .iter()
            .map(|p| p.params.first().map(|(_, m)| m.clone()).unwrap_or_default())
            .collect()),
        Err(e) => Err(e.into()),
    }
}
