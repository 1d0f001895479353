//! A director's tournaments: the list, a new tournament and its settings.

use super::plan::{level_warnings, plan_words};
use super::{errors_of, load, refused};
use crate::services;
use crate::services::view::Tournament;
use crate::services::ServiceError;
use crate::tournament::plan::Level;
use crate::tournament::settings::{Settings, SettingsForm};
use crate::tournament::Status;
use crate::web::context::{FieldErrors, PageCtx};
use crate::web::error::AppError;
use crate::web::roles::Director;
use crate::web::{render, render_status, see_other, AppState};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;

// ---- tournaments ----

#[derive(Template)]
#[template(path = "director/tournaments.html")]
pub(super) struct ListPage<'a> {
    ctx: &'a PageCtx,
    tournaments: Vec<Tournament>,
}

pub async fn list(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
) -> Result<HttpResponse, AppError> {
    let tournaments = services::tournaments::list(&state.db, actor).await?;
    render(&ListPage {
        ctx: &ctx,
        tournaments,
    })
}

#[derive(Template)]
#[template(path = "director/settings_form.html")]
pub(super) struct SettingsPage<'a> {
    ctx: &'a PageCtx,
    /// None for a new tournament.
    id: Option<crate::ids::TournamentId>,
    locked: bool,
    /// The tournament's state (None for a new one): closed, the whole
    /// form is read-only.
    status: Option<Status>,
    form: SettingsForm,
    errors: FieldErrors,
    profiles: Vec<&'static str>,
    levels: [Level; 4],
    /// The group fields are read-only: the field is cut (or closed).
    groups_locked: bool,
    /// The plan in phases, in words (when the form reads).
    phases: Vec<String>,
    /// The level's warnings (RULES.md §15): shown, never refusing.
    warnings: Vec<String>,
}

impl SettingsPage<'_> {
    fn read_only(&self) -> bool {
        self.status == Some(Status::Finished)
    }
    fn status_code(&self) -> &'static str {
        self.status.map_or("", Status::as_str)
    }
}

pub(super) fn settings_page<'a>(
    ctx: &'a PageCtx,
    id: Option<crate::ids::TournamentId>,
    status: Option<Status>,
    form: SettingsForm,
    errors: FieldErrors,
) -> SettingsPage<'a> {
    let parsed = Settings::parse(&form, ctx.timezone).ok();
    SettingsPage {
        ctx,
        id,
        locked: status.is_some_and(|s| s != Status::Draft),
        groups_locked: status == Some(Status::Finished),
        status,
        phases: parsed
            .as_ref()
            .map(|s| plan_words(ctx, s))
            .unwrap_or_default(),
        warnings: parsed
            .as_ref()
            .map(|s| level_warnings(ctx, s))
            .unwrap_or_default(),
        form: form.localised(ctx.lang),
        errors,
        profiles: crate::rules::RuleProfile::names(),
        levels: Level::ALL,
    }
}

pub async fn new_form(ctx: PageCtx, _: Director) -> Result<HttpResponse, AppError> {
    let today = chrono::Utc::now().with_timezone(&ctx.timezone).date_naive();
    render(&settings_page(
        &ctx,
        None,
        None,
        SettingsForm::defaults(today),
        FieldErrors::default(),
    ))
}

pub async fn create(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    form: web::Form<SettingsForm>,
) -> Result<HttpResponse, AppError> {
    let form = form.into_inner();
    match services::tournaments::create(&state.db, actor, form.clone(), ctx.timezone).await {
        Ok(id) => {
            tracing::info!(tournament_id = id.0, "tournament created");
            Ok(see_other(&format!(
                "/director/t/{id}?done=tournament_created"
            )))
        }
        Err(ServiceError::Invalid(problems)) => render_status(
            &settings_page(&ctx, None, None, form, errors_of(&ctx, &problems)),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        Err(e) => Err(e.into()),
    }
}

pub async fn edit_form(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    id: web::Path<crate::ids::TournamentId>,
) -> Result<HttpResponse, AppError> {
    let l = load(&state, actor, *id).await?;
    let mut form = SettingsForm::from_settings(&l.settings, ctx.timezone).share_as_typed();
    form.kind = l.t.kind.code().into();
    render(&settings_page(
        &ctx,
        Some(l.t.id),
        Some(l.status()),
        form,
        FieldErrors::default(),
    ))
}

pub async fn update(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    id: web::Path<crate::ids::TournamentId>,
    form: web::Form<SettingsForm>,
) -> Result<HttpResponse, AppError> {
    let tid = *id;
    let form = form.into_inner();
    match services::tournaments::update_settings(&state.db, actor, tid, form.clone(), ctx.timezone)
        .await
    {
        Ok(()) => Ok(see_other(&format!("/director/t/{tid}?done=settings_saved"))),
        Err(ServiceError::Invalid(problems)) => {
            let l = load(&state, actor, tid).await?;
            let locked = l.status() != Status::Draft;
            let form = if locked {
                form.with_locked_fields_of(
                    &SettingsForm::from_settings(&l.settings, ctx.timezone),
                    l.cut_made(),
                )
            } else {
                form
            };
            render_status(
                &settings_page(
                    &ctx,
                    Some(tid),
                    Some(l.status()),
                    form,
                    errors_of(&ctx, &problems),
                ),
                StatusCode::UNPROCESSABLE_ENTITY,
            )
        }
        Err(e) => refused(&ctx, &state, actor, tid, e).await,
    }
}
