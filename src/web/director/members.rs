//! The member list's page (issue 36, RULES.md §15): how many cards it
//! holds, and its import from CSV or Excel (Italian headers tessera,
//! cognome, nome, scadenza, tipo), a preview first, then all or nothing.

use crate::services;
use crate::services::members::ListSummary;
use crate::tournament::members::{parse_members, Member};
use crate::tournament::FieldProblem;
use crate::web::context::PageCtx;
use crate::web::error::AppError;
use crate::web::roles::Director;
use crate::web::upload::ImportUpload;
use crate::web::{render_status, see_other, AppState};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;

/// The list as read from the file: its members, or the lines to mend.
pub struct MembersPreview {
    pub members: Vec<Member>,
    pub problems: Vec<FieldProblem>,
}

impl MembersPreview {
    fn read(text: &str) -> Result<MembersPreview, FieldProblem> {
        match parse_members(text) {
            Ok(members) => Ok(MembersPreview {
                members,
                problems: Vec::new(),
            }),
            // A list without its columns is a problem of the file itself.
            Err(mut p) if p.len() == 1 && p[0].key == "members.error.header" => Err(p.remove(0)),
            Err(problems) => Ok(MembersPreview {
                members: Vec::new(),
                problems,
            }),
        }
    }

    fn is_clean(&self) -> bool {
        self.problems.is_empty() && !self.members.is_empty()
    }
}

#[derive(Template)]
#[template(path = "director/members.html")]
struct MembersPage<'a> {
    ctx: &'a PageCtx,
    list: ListSummary,
    csv: String,
    preview: Option<MembersPreview>,
    error: Option<String>,
    /// How many were imported just now.
    imported: Option<usize>,
}

impl MembersPage<'_> {
    /// The first rows of a preview.
    fn first_rows<'p>(&self, p: &'p MembersPreview) -> &'p [Member] {
        &p.members[..p.members.len().min(20)]
    }
}

#[derive(Debug, Default, serde::Deserialize)]
pub struct Shown {
    pub imported: Option<usize>,
}

/// `GET /director/members`.
pub async fn show(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    query: web::Query<Shown>,
) -> Result<HttpResponse, AppError> {
    let list = services::members::summary(&state.db, actor).await?;
    render_status(
        &MembersPage {
            ctx: &ctx,
            list,
            csv: String::new(),
            preview: None,
            error: None,
            imported: query.imported,
        },
        StatusCode::OK,
    )
}

/// `POST /director/members`: the preview; with `confirm`, the import.
pub async fn import(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    upload: ImportUpload,
) -> Result<HttpResponse, AppError> {
    let (csv, step) = upload.preview(ctx.lang, MembersPreview::read, MembersPreview::is_clean);
    match step {
        Ok(p) => {
            let n = services::members::import_members(&state.db, actor, p.members).await?;
            Ok(see_other(&format!("/director/members?imported={n}")))
        }
        Err(again) => {
            let list = services::members::summary(&state.db, actor).await?;
            render_status(
                &MembersPage {
                    ctx: &ctx,
                    list,
                    csv,
                    preview: again.preview,
                    error: again.error,
                    imported: None,
                },
                again.status,
            )
        }
    }
}
