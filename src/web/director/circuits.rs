//! A director's circuits (issue 24): the list with a form for a new one,
//! and each circuit's page (its settings, its stages in order, the
//! tournaments to add). Each handler parses, calls one service, renders.

use super::errors_of;
use crate::circuit::CircuitForm;
use crate::ids::CircuitId;
use crate::services::circuits::{self as circuits, Editing, Summary};
use crate::services::{Actor, ServiceError};
use crate::web::context::{FieldErrors, PageCtx};
use crate::web::error::AppError;
use crate::web::roles::Director;
use crate::web::{render_status, see_other, AppState};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;

/// A text field of the circuit's form: its input name, the path its
/// problems are reported under, its label, value and hint (catalog keys).
pub struct FormField {
    pub input: &'static str,
    pub key: &'static str,
    pub label: &'static str,
    pub value: String,
    pub hint: &'static str,
}

/// The form's text fields: the heading ones, then the points and finals.
fn fields(form: &CircuitForm) -> (Vec<FormField>, Vec<FormField>) {
    let f = |input, key, label, value: &String, hint| FormField {
        input,
        key,
        label,
        value: value.clone(),
        hint,
    };
    (
        vec![
            f("name", "name", "circuit.field.name", &form.name, ""),
            f(
                "season",
                "season",
                "circuit.field.season",
                &form.season,
                "circuit.hint.season",
            ),
        ],
        vec![
            f(
                "first",
                "points.first",
                "circuit.field.first",
                &form.first,
                "circuit.hint.first",
            ),
            f(
                "step",
                "points.step",
                "circuit.field.step",
                &form.step,
                "circuit.hint.step",
            ),
            f("min", "points.min", "circuit.field.min", &form.min, ""),
            f(
                "table",
                "points.table",
                "circuit.field.table",
                &form.table,
                "circuit.hint.table",
            ),
            f(
                "best_of",
                "best_of",
                "circuit.best_of",
                &form.best_of,
                "circuit.hint.best_of",
            ),
            f(
                "min_attendances",
                "min_attendances",
                "circuit.min_attendances",
                &form.min_attendances,
                "circuit.hint.min_attendances",
            ),
            f(
                "stage_top_percent",
                "finals.stage_top_percent",
                "circuit.field.stage_top_percent",
                &form.stage_top_percent,
                "circuit.hint.stage_top_percent",
            ),
            f(
                "overall_top_percent",
                "finals.overall_top_percent",
                "circuit.field.overall_top_percent",
                &form.overall_top_percent,
                "circuit.hint.overall_top_percent",
            ),
            f(
                "overall_min_attendances",
                "finals.overall_min_attendances",
                "circuit.field.overall_min_attendances",
                &form.overall_min_attendances,
                "",
            ),
        ],
    )
}

#[derive(Template)]
#[template(path = "director/circuits.html")]
struct ListPage<'a> {
    ctx: &'a PageCtx,
    circuits: Vec<Summary>,
    form: CircuitForm,
    head_fields: Vec<FormField>,
    points_fields: Vec<FormField>,
    errors: FieldErrors,
}

#[derive(Template)]
#[template(path = "director/circuit.html")]
struct EditPage<'a> {
    ctx: &'a PageCtx,
    e: &'a Editing,
    form: CircuitForm,
    head_fields: Vec<FormField>,
    points_fields: Vec<FormField>,
    errors: FieldErrors,
    error: Option<String>,
}

/// A new circuit's form: points by placing, every entrant of a stage
/// scoring (step 1: the last of 24 still gets a point, where the file
/// format's default step of 5 left two thirds of an evening at 0).
fn new_form() -> CircuitForm {
    CircuitForm {
        rank: "player".into(),
        method: "placing".into(),
        step: "1".into(),
        ..CircuitForm::default()
    }
}

async fn list_page(
    ctx: &PageCtx,
    state: &AppState,
    actor: Actor,
    form: CircuitForm,
    errors: FieldErrors,
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    let circuits = circuits::list(&state.db, actor).await?;
    let (head_fields, points_fields) = fields(&form);
    render_status(
        &ListPage {
            ctx,
            circuits,
            form,
            head_fields,
            points_fields,
            errors,
        },
        status,
    )
}

/// `GET /director/circuits`.
pub async fn list(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
) -> Result<HttpResponse, AppError> {
    list_page(
        &ctx,
        &state,
        actor,
        new_form(),
        FieldErrors::default(),
        StatusCode::OK,
    )
    .await
}

/// `POST /director/circuits`: a new circuit.
pub async fn create(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    form: web::Form<CircuitForm>,
) -> Result<HttpResponse, AppError> {
    let form = form.into_inner();
    let result = match form.parse() {
        Ok(spec) => circuits::create(&state.db, actor, spec).await,
        Err(p) => Err(ServiceError::Invalid(p)),
    };
    match result {
        Ok(id) => Ok(see_other(&format!(
            "/director/circuits/{id}?done=circuit_created"
        ))),
        Err(ServiceError::Invalid(p)) => {
            let errors = errors_of(&ctx, &p);
            list_page(
                &ctx,
                &state,
                actor,
                form,
                errors,
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await
        }
        Err(e) => Err(e.into()),
    }
}

/// What the circuit's page shows besides the circuit: the form as sent
/// (`None`: as saved), its problems, a refusal.
#[derive(Default)]
struct Shown {
    form: Option<CircuitForm>,
    errors: FieldErrors,
    error: Option<String>,
}

async fn edit_page(
    ctx: &PageCtx,
    state: &AppState,
    actor: Actor,
    id: CircuitId,
    shown: Shown,
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    let Shown {
        form,
        errors,
        error,
    } = shown;
    let e = circuits::editing(&state.db, actor, id).await?;
    let form = form.unwrap_or_else(|| CircuitForm::of(&e.circuit.spec));
    let (head_fields, points_fields) = fields(&form);
    render_status(
        &EditPage {
            ctx,
            e: &e,
            form,
            head_fields,
            points_fields,
            errors,
            error,
        },
        status,
    )
}

/// The circuit's page again (422) with one message next to `field`.
async fn field_refused(
    ctx: &PageCtx,
    state: &AppState,
    actor: Actor,
    id: CircuitId,
    field: &'static str,
    key: &str,
) -> Result<HttpResponse, AppError> {
    let mut errors = FieldErrors::default();
    errors.add(field, ctx.t(key));
    edit_page(
        ctx,
        state,
        actor,
        id,
        Shown {
            errors,
            ..Shown::default()
        },
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await
}

/// What a refused change shows: the circuit's page with the reason.
async fn refused(
    ctx: &PageCtx,
    state: &AppState,
    actor: Actor,
    id: CircuitId,
    e: ServiceError,
) -> Result<HttpResponse, AppError> {
    match e {
        ServiceError::Conflict(c) => {
            edit_page(
                ctx,
                state,
                actor,
                id,
                Shown {
                    error: Some(c.message(ctx.lang)),
                    ..Shown::default()
                },
                StatusCode::CONFLICT,
            )
            .await
        }
        e => Err(e.into()),
    }
}

/// `GET /director/circuits/{id}`.
pub async fn edit(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    id: web::Path<CircuitId>,
) -> Result<HttpResponse, AppError> {
    edit_page(&ctx, &state, actor, *id, Shown::default(), StatusCode::OK).await
}

/// `POST /director/circuits/{id}`: saves the settings.
pub async fn update(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    id: web::Path<CircuitId>,
    form: web::Form<CircuitForm>,
) -> Result<HttpResponse, AppError> {
    let id = *id;
    let form = form.into_inner();
    let result = match form.parse() {
        Ok(spec) => circuits::update(&state.db, actor, id, spec).await,
        Err(p) => Err(ServiceError::Invalid(p)),
    };
    match result {
        Ok(()) => Ok(see_other(&format!(
            "/director/circuits/{id}?done=circuit_saved"
        ))),
        Err(ServiceError::Invalid(p)) => {
            let errors = errors_of(&ctx, &p);
            edit_page(
                &ctx,
                &state,
                actor,
                id,
                Shown {
                    form: Some(form),
                    errors,
                    error: None,
                },
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await
        }
        Err(e) => refused(&ctx, &state, actor, id, e).await,
    }
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct StageForm {
    tournament: String,
}

/// `POST /director/circuits/{id}/stages`: adds a tournament as the last
/// stage.
pub async fn add_stage(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    id: web::Path<CircuitId>,
    form: web::Form<StageForm>,
) -> Result<HttpResponse, AppError> {
    let id = *id;
    let Ok(tid) = form.tournament.trim().parse::<crate::ids::TournamentId>() else {
        return field_refused(
            &ctx,
            &state,
            actor,
            id,
            "tournament",
            "circuit.error.choose_tournament",
        )
        .await;
    };
    match circuits::add_stage(&state.db, actor, id, tid).await {
        Ok(()) => Ok(see_other(&format!(
            "/director/circuits/{id}?done=stage_added#stages"
        ))),
        // A tournament that is not the director's: said next to the field.
        Err(ServiceError::NotFound) if circuits::editing(&state.db, actor, id).await.is_ok() => {
            field_refused(
                &ctx,
                &state,
                actor,
                id,
                "tournament",
                "circuit.error.choose_tournament",
            )
            .await
        }
        Err(e) => refused(&ctx, &state, actor, id, e).await,
    }
}

/// `POST /director/circuits/{id}/stages/{tid}/remove`.
pub async fn remove_stage(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    path: web::Path<(CircuitId, crate::ids::TournamentId)>,
) -> Result<HttpResponse, AppError> {
    let (id, tid) = path.into_inner();
    match circuits::remove_stage(&state.db, actor, id, tid).await {
        Ok(()) => Ok(see_other(&format!(
            "/director/circuits/{id}?done=stage_removed#stages"
        ))),
        Err(e) => refused(&ctx, &state, actor, id, e).await,
    }
}

/// `GET /director/circuits/{id}/export.json`: the circuit and its stages'
/// tournament files in one JSON document (`burraco-td/circuit-bundle@1`).
pub async fn export(
    Director(actor): Director,
    state: web::Data<AppState>,
    id: web::Path<CircuitId>,
) -> Result<HttpResponse, AppError> {
    let id = *id;
    let bundle = circuits::export(&state.db, actor, id, state.settings.timezone).await?;
    let json = serde_json::to_string_pretty(&bundle)
        .map_err(|e| AppError::Corrupt(format!("circuit {id}: export: {e}")))?;
    Ok(super::exports::download(
        json,
        "application/json",
        &format!("circuit-{id}.json"),
    ))
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct DeleteForm {
    /// The confirmation box ("on" when ticked).
    confirm: String,
}

/// `POST /director/circuits/{id}/delete`: only with the confirmation box
/// ticked (no JavaScript needed); the tournaments stay.
pub async fn delete(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    id: web::Path<CircuitId>,
    form: web::Form<DeleteForm>,
) -> Result<HttpResponse, AppError> {
    let id = *id;
    if form.confirm != "on" {
        return field_refused(
            &ctx,
            &state,
            actor,
            id,
            "confirm",
            "circuit.error.confirm_delete",
        )
        .await;
    }
    match circuits::delete(&state.db, actor, id).await {
        Ok(()) => Ok(see_other("/director/circuits?done=circuit_deleted")),
        Err(e) => refused(&ctx, &state, actor, id, e).await,
    }
}
