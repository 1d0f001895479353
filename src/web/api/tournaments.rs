//! Tournaments and pairs over JSON: the services of `services::tournaments`,
//! `services::rounds::draw`, `services::files` and `services::pairs`.

use crate::ids::TournamentId;
use actix_web::http::StatusCode;
use actix_web::{get, post, put, web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::body::parse_body;
use super::reply::{done, json, Done};
use crate::services::rounds::DrawKind;
use crate::services::{self, Loaded, Need};
use crate::web::bearer::ApiActor;
use crate::web::context::PageCtx;
use crate::web::error::ApiError;
use crate::web::roles::{ApiAdmin, ApiDirector};
use crate::web::AppState;

pub use super::tournament_in::schema_bounds;
pub use super::tournament_in::{DanishForm, KindIn, PayoutTier, SheetModeIn, TournamentIn};

/// A tournament as staff see it.
#[derive(Debug, Serialize, ToSchema)]
pub struct TournamentOut {
    pub id: TournamentId,
    /// `draft`, `running` or `finished`.
    pub status: String,
    /// Goes up with every change.
    pub revision: i64,
    /// Start, UTC (RFC 3339).
    pub starts_at: String,
    pub pairs: usize,
    /// The numbers of the rounds drawn so far.
    pub rounds: Vec<i32>,
    pub settings: TournamentIn,
}

impl TournamentOut {
    fn of(l: &Loaded, tz: chrono_tz::Tz) -> TournamentOut {
        TournamentOut {
            id: l.t.id,
            status: l.t.status.as_str().to_string(),
            revision: l.t.revision,
            starts_at: l.t.starts_at.and_utc().to_rfc3339(),
            pairs: l.pairs.len(),
            rounds: l.rounds.iter().map(|r| r.number).collect(),
            settings: TournamentIn {
                kind: Some(KindIn::of(l.t.kind)),
                ..TournamentIn::of(&l.settings, tz)
            },
        }
    }
}

/// A tournament in a list.
#[derive(Debug, Serialize, ToSchema)]
pub struct TournamentSummary {
    pub id: TournamentId,
    pub name: String,
    pub status: String,
    pub starts_at: String,
    pub venue: String,
}

/// The id of what was made.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"id": 7}))]
pub struct Created {
    pub id: i64,
}

/// Why a closed tournament is opened again (on the record).
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"reason": "a sheet of round 3 was entered wrong"}))]
pub struct ReasonIn {
    pub reason: String,
}

pub(super) async fn loaded(
    state: &AppState,
    actor: crate::services::Actor,
    tid: TournamentId,
) -> Result<Loaded, ApiError> {
    services::tournaments::load(&state.db, actor, tid, Need::Referee)
        .await
        .map_err(ApiError::from)
}

/// The tournaments the caller works on.
#[utoipa::path(tag = "tournaments", operation_id = "listTournaments", security(("bearer" = [])),
    responses((status = 200, description = "Newest first", body = Vec<TournamentSummary>)))]
#[get("/api/v1/tournaments")]
pub async fn list_tournaments(
    state: web::Data<AppState>,
    actor: ApiActor,
) -> Result<HttpResponse, ApiError> {
    let list = services::tournaments::list(&state.db, actor.0).await?;
    let out: Vec<TournamentSummary> = list
        .into_iter()
        .map(|t| TournamentSummary {
            id: t.id,
            name: t.name,
            status: t.status.as_str().to_string(),
            starts_at: t.starts_at.and_utc().to_rfc3339(),
            venue: t.venue,
        })
        .collect();
    Ok(json(StatusCode::OK, &out))
}

/// Creates a tournament owned by the caller (a director).
#[utoipa::path(tag = "tournaments", operation_id = "createTournament", security(("bearer" = [])),
    request_body = TournamentIn,
    responses((status = 201, description = "Created", body = TournamentOut)))]
#[post("/api/v1/tournaments")]
pub async fn create_tournament(
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiDirector(actor): ApiDirector,
    body: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let input: TournamentIn = parse_body(&req, body).await?;
    let tz = state.settings.timezone;
    let id = services::tournaments::create(&state.db, actor, input.form(), tz).await?;
    let l = loaded(&state, actor, id).await?;
    Ok(json(StatusCode::CREATED, &TournamentOut::of(&l, tz)))
}

/// A tournament with its settings.
#[utoipa::path(tag = "tournaments", operation_id = "getTournament", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id")),
    responses((status = 200, description = "The tournament", body = TournamentOut)))]
#[get("/api/v1/tournaments/{id}")]
pub async fn get_tournament(
    state: web::Data<AppState>,
    actor: ApiActor,
    id: web::Path<crate::ids::TournamentId>,
) -> Result<HttpResponse, ApiError> {
    let l = loaded(&state, actor.0, *id).await?;
    Ok(json(
        StatusCode::OK,
        &TournamentOut::of(&l, state.settings.timezone),
    ))
}

/// Saves the settings (the whole set).
#[utoipa::path(tag = "tournaments", operation_id = "updateTournament", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id")),
    request_body = TournamentIn,
    responses((status = 200, description = "Saved", body = TournamentOut)))]
#[put("/api/v1/tournaments/{id}")]
pub async fn update_tournament(
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiDirector(actor): ApiDirector,
    id: web::Path<crate::ids::TournamentId>,
    body: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let input: TournamentIn = parse_body(&req, body).await?;
    let tz = state.settings.timezone;
    services::tournaments::update_settings(&state.db, actor, *id, input.form(), tz).await?;
    let l = loaded(&state, actor, *id).await?;
    Ok(json(StatusCode::OK, &TournamentOut::of(&l, tz)))
}

/// Closes the tournament: the standings become final.
#[utoipa::path(tag = "tournaments", operation_id = "closeTournament", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id")),
    responses((status = 200, description = "Closed", body = Done)))]
#[post("/api/v1/tournaments/{id}/close")]
pub async fn close_tournament(
    state: web::Data<AppState>,
    ApiDirector(actor): ApiDirector,
    id: web::Path<crate::ids::TournamentId>,
) -> Result<HttpResponse, ApiError> {
    services::tournaments::close(&state.db, actor, *id, None).await?;
    Ok(done())
}

/// Reopens a closed tournament, with the reason on the record.
#[utoipa::path(tag = "tournaments", operation_id = "reopenTournament", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id")),
    request_body = ReasonIn,
    responses((status = 200, description = "Running again", body = Done)))]
#[post("/api/v1/tournaments/{id}/reopen")]
pub async fn reopen_tournament(
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiDirector(actor): ApiDirector,
    id: web::Path<crate::ids::TournamentId>,
    body: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let input: ReasonIn = parse_body(&req, body).await?;
    services::tournaments::reopen(&state.db, actor, *id, input.reason).await?;
    Ok(done())
}

/// Starts the tournament: the checked-in pairs drawn at random to the
/// tables of round 1. A tournament that has started is a conflict (409
/// `started`): drawing round 1 again is `redrawTournament`.
#[utoipa::path(tag = "tournaments", operation_id = "startTournament", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id")),
    responses((status = 200, description = "Round 1 drawn", body = Done),
        (status = 409, description = "Already started (`started`)", body = super::reply::ErrorBody)))]
#[post("/api/v1/tournaments/{id}/start")]
pub async fn start_tournament(
    state: web::Data<AppState>,
    ApiDirector(actor): ApiDirector,
    id: web::Path<crate::ids::TournamentId>,
) -> Result<HttpResponse, ApiError> {
    services::rounds::draw(&state.db, actor, *id, DrawKind::Start, None).await?;
    Ok(done())
}

/// Draws round 1 again (the tournament runs and nothing is recorded for
/// round 1 yet).
#[utoipa::path(tag = "tournaments", operation_id = "redrawTournament", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id")),
    responses((status = 200, description = "Round 1 drawn again", body = Done),
        (status = 409, description = "Not running, or round 1 has results or later rounds", body = super::reply::ErrorBody)))]
#[post("/api/v1/tournaments/{id}/redraw")]
pub async fn redraw_tournament(
    state: web::Data<AppState>,
    ApiDirector(actor): ApiDirector,
    id: web::Path<crate::ids::TournamentId>,
) -> Result<HttpResponse, ApiError> {
    services::rounds::draw(&state.db, actor, *id, DrawKind::Redraw, None).await?;
    Ok(done())
}

/// The exported file of either kind of tournament (for the document: the
/// handler writes the file itself).
#[derive(serde::Serialize, ToSchema)]
#[serde(untagged)]
pub enum ExportDoc {
    Pairs(crate::tournament_file::TournamentFile),
    Teams(crate::tournament_file::TeamTournamentFile),
}

/// The whole tournament as a tournament file (FORMAT.md).
#[utoipa::path(tag = "tournaments", operation_id = "exportTournament", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id")),
    responses((status = 200, description = "The tournament file (FORMAT.md): a pairs tournament's, or a team tournament's (`kind` `teams`)", body = ExportDoc)))]
#[get("/api/v1/tournaments/{id}/export")]
pub async fn export_tournament(
    ctx: PageCtx,
    state: web::Data<AppState>,
    ApiDirector(actor): ApiDirector,
    id: web::Path<crate::ids::TournamentId>,
) -> Result<HttpResponse, ApiError> {
    let file = services::files::export_any(&state.db, actor, *id, state.settings.timezone).await?;
    let body = file.to_json().map_err(|e| {
        ApiError::from_service(
            crate::services::ServiceError::corrupt(format!("tournament {id}: export: {e}")),
            ctx.lang,
        )
    })?;
    Ok(HttpResponse::Ok()
        .insert_header((actix_web::http::header::CACHE_CONTROL, "no-store"))
        .content_type("application/json")
        .body(body))
}

/// Imports a tournament file as a new tournament (administrators).
#[utoipa::path(tag = "tournaments", operation_id = "importTournament", security(("bearer" = [])),
    request_body(content = crate::tournament_file::TournamentFile, description = "A tournament file (FORMAT.md)"),
    responses((status = 201, description = "Imported", body = Created)))]
#[post("/api/v1/tournaments/import")]
pub async fn import_tournament(
    ctx: PageCtx,
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiAdmin(actor): ApiAdmin,
    body: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let value: serde_json::Value = parse_body(&req, body).await?;
    let text = value.to_string();
    let file = crate::tournament_file::parse_any(&text).map_err(|e| {
        ApiError::invalid(
            "not a valid tournament file",
            vec![(e.path().to_string(), e.message(ctx.lang))],
        )
    })?;
    let checked = match &file {
        crate::tournament_file::AnyTournamentFile::Pairs(f) => {
            crate::standings::compute_file(f, ctx.lang).map(|_| ())
        }
        crate::tournament_file::AnyTournamentFile::Teams(f) => {
            crate::standings::compute_teams_file(f, ctx.lang).map(|_| ())
        }
        crate::tournament_file::AnyTournamentFile::Individual(f) => {
            crate::standings::compute_individual_file(f, ctx.lang).map(|_| ())
        }
    };
    checked.map_err(|e| {
        let fields = match e {
            crate::standings::StandingsError::Invalid(problems) => problems
                .iter()
                .map(|p| ("file".to_string(), p.line(ctx.lang)))
                .collect(),
            other => vec![("file".to_string(), other.message(ctx.lang))],
        };
        ApiError::invalid("the file does not add up", fields)
    })?;
    let id =
        services::files::import_any(&state.db, actor, None, file, state.settings.timezone).await?;
    Ok(json(StatusCode::CREATED, &Created { id: id.0 }))
}
