//! Circuits over JSON (issue 24): the services of `services::circuits`.
//! The settings travel as the `burraco-td/circuit@1` document (FORMAT.md),
//! read by the core's reader, so every problem is named by its path in
//! that document. The standings and a season card are public (no token),
//! cached per revision like the pages.

use crate::ids::CircuitId;
use crate::ids::PersonId;
use crate::ids::TournamentId;
use actix_web::http::StatusCode;
use actix_web::{delete, get, post, put, web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::body::parse_body;
use super::reply::{done, json, Done};
use crate::circuit::{CircuitSpec, CliCircuit, Entrant};
use crate::services::circuits::{self as circuits, CircuitView, StageInfo};
use crate::web::bearer::ApiActor;
use crate::web::cache::{self, CircuitPage};
use crate::web::error::{ApiError, AppError, ErrorCode};
use crate::web::roles::ApiDirector;
use crate::web::AppState;

/// Reads the body as a circuit document: every problem by its path.
async fn spec_of(req: &HttpRequest, body: web::Payload) -> Result<CircuitSpec, ApiError> {
    let mut value: Value = parse_body::<Value>(req, body).await?;
    let Some(obj) = value.as_object_mut() else {
        return Err(ApiError::invalid(
            "the body must be a circuit document",
            vec![(".".to_string(), "expected an object".to_string())],
        ));
    };
    obj.entry("format")
        .or_insert_with(|| Value::from(crate::circuit::FORMAT));
    crate::circuit::parse(&value.to_string()).map_err(|problems| {
        ApiError::invalid(
            "some fields are not valid",
            problems
                .iter()
                .map(|p| (p.path.clone(), p.message(crate::i18n::Lang::En)))
                .collect(),
        )
    })
}

/// A stage as the API shows it.
#[derive(Debug, Serialize, ToSchema)]
pub struct StageOut {
    /// 1-based, in the circuit's order.
    pub number: u32,
    pub tournament_id: TournamentId,
    pub name: String,
    /// `draft`, `running` or `finished`; only finished stages count.
    pub status: String,
    pub counts: bool,
}

impl StageOut {
    fn of(s: &StageInfo) -> StageOut {
        StageOut {
            number: s.number,
            tournament_id: s.tournament_id,
            name: s.name.clone(),
            status: s.status.as_str().to_string(),
            counts: s.counts(),
        }
    }
}

/// A circuit as its director sees it.
#[derive(Debug, Serialize, ToSchema)]
pub struct CircuitOut {
    pub id: CircuitId,
    /// The `burraco-td/circuit@1` document.
    pub circuit: CircuitSpec,
    pub stages: Vec<StageOut>,
}

/// A circuit in a list.
#[derive(Debug, Serialize, ToSchema)]
pub struct CircuitSummary {
    pub id: CircuitId,
    pub name: String,
    pub season: Option<String>,
    pub stages: usize,
}

async fn circuit_out(
    state: &AppState,
    actor: crate::services::Actor,
    id: CircuitId,
) -> Result<CircuitOut, ApiError> {
    let e = circuits::editing(&state.db, actor, id).await?;
    Ok(CircuitOut {
        id,
        circuit: e.circuit.spec,
        stages: e.stages.iter().map(StageOut::of).collect(),
    })
}

/// The circuits the caller may change.
#[utoipa::path(tag = "circuits", operation_id = "listCircuits", security(("bearer" = [])),
    responses((status = 200, description = "Newest first", body = Vec<CircuitSummary>)))]
#[get("/api/v1/circuits")]
pub async fn list_circuits(
    state: web::Data<AppState>,
    ApiDirector(actor): ApiDirector,
) -> Result<HttpResponse, ApiError> {
    let list = circuits::list(&state.db, actor).await?;
    let out: Vec<CircuitSummary> = list
        .into_iter()
        .map(|c| CircuitSummary {
            id: c.id,
            name: c.name,
            season: c.season,
            stages: c.stages,
        })
        .collect();
    Ok(json(StatusCode::OK, &out))
}

/// Creates a circuit owned by the caller (a director).
#[utoipa::path(tag = "circuits", operation_id = "createCircuit", security(("bearer" = [])),
    request_body = CircuitSpec,
    responses((status = 201, description = "Created", body = CircuitOut)))]
#[post("/api/v1/circuits")]
pub async fn create_circuit(
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiDirector(actor): ApiDirector,
    body: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let spec = spec_of(&req, body).await?;
    let id = circuits::create(&state.db, actor, spec).await?;
    let out = circuit_out(&state, actor, id).await?;
    Ok(json(StatusCode::CREATED, &out))
}

/// A circuit with its settings and stages (its owner).
#[utoipa::path(tag = "circuits", operation_id = "getCircuit", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Circuit id")),
    responses((status = 200, description = "The circuit", body = CircuitOut)))]
#[get("/api/v1/circuits/{id}")]
pub async fn get_circuit(
    state: web::Data<AppState>,
    actor: ApiActor,
    id: web::Path<CircuitId>,
) -> Result<HttpResponse, ApiError> {
    let out = circuit_out(&state, actor.0, *id).await?;
    Ok(json(StatusCode::OK, &out))
}

/// Saves a circuit's settings (the whole document).
#[utoipa::path(tag = "circuits", operation_id = "updateCircuit", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Circuit id")),
    request_body = CircuitSpec,
    responses((status = 200, description = "Saved", body = CircuitOut)))]
#[put("/api/v1/circuits/{id}")]
pub async fn update_circuit(
    req: HttpRequest,
    state: web::Data<AppState>,
    actor: ApiActor,
    id: web::Path<CircuitId>,
    body: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let spec = spec_of(&req, body).await?;
    circuits::update(&state.db, actor.0, *id, spec).await?;
    let out = circuit_out(&state, actor.0, *id).await?;
    Ok(json(StatusCode::OK, &out))
}

/// Deletes a circuit (its owner or an admin); its tournaments stay.
#[utoipa::path(tag = "circuits", operation_id = "deleteCircuit", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Circuit id")),
    responses((status = 200, description = "Deleted", body = Done)))]
#[delete("/api/v1/circuits/{id}")]
pub async fn delete_circuit(
    state: web::Data<AppState>,
    actor: ApiActor,
    id: web::Path<CircuitId>,
) -> Result<HttpResponse, ApiError> {
    circuits::delete(&state.db, actor.0, *id).await?;
    Ok(done())
}

/// A tournament to add as the last stage.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"tournament_id": 7}))]
pub struct StageIn {
    pub tournament_id: TournamentId,
}

/// Adds a tournament the caller directs as the circuit's last stage.
#[utoipa::path(tag = "circuits", operation_id = "addCircuitStage", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Circuit id")),
    request_body = StageIn,
    responses((status = 200, description = "Added", body = CircuitOut)))]
#[post("/api/v1/circuits/{id}/stages")]
pub async fn add_circuit_stage(
    req: HttpRequest,
    state: web::Data<AppState>,
    actor: ApiActor,
    id: web::Path<CircuitId>,
    body: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let input: StageIn = parse_body(&req, body).await?;
    circuits::add_stage(&state.db, actor.0, *id, input.tournament_id).await?;
    let out = circuit_out(&state, actor.0, *id).await?;
    Ok(json(StatusCode::OK, &out))
}

/// Removes a stage (the later ones move up).
#[utoipa::path(tag = "circuits", operation_id = "removeCircuitStage", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Circuit id"),
        ("tournament_id" = i64, Path, description = "The stage's tournament")),
    responses((status = 200, description = "Removed", body = Done)))]
#[delete("/api/v1/circuits/{id}/stages/{tournament_id}")]
pub async fn remove_circuit_stage(
    state: web::Data<AppState>,
    actor: ApiActor,
    path: web::Path<(CircuitId, crate::ids::TournamentId)>,
) -> Result<HttpResponse, ApiError> {
    let (id, tid) = path.into_inner();
    circuits::remove_stage(&state.db, actor.0, id, tid).await?;
    Ok(done())
}

/// The public standings of a circuit: FORMAT.md's `standings` and
/// `finalists`, with the circuit, its stages and each row's people.
#[derive(Debug, Serialize, ToSchema)]
pub struct CircuitStandingsOut {
    pub circuit: CircuitId,
    pub name: String,
    /// Goes up with every change of the circuit, its stages or the directory.
    pub revision: i64,
    pub stages: Vec<StageOut>,
    /// The directory ids of each row's people, in the order of `standings`
    /// (`/api/v1/circuits/{id}/people/{person}` is their season card).
    pub people: Vec<Vec<PersonId>>,
    /// FORMAT.md's `{"standings": […], "finalists": […]}`.
    #[serde(flatten)]
    pub ranking: CliCircuit,
}

fn keys(e: &Entrant<PersonId>) -> Vec<PersonId> {
    match e {
        Entrant::Player(k) => vec![*k],
        Entrant::Pair(a, b) => vec![*a, *b],
    }
}

fn standings_out(v: &CircuitView, rev: i64) -> CircuitStandingsOut {
    CircuitStandingsOut {
        circuit: v.circuit.id,
        name: v.circuit.spec.name.clone(),
        revision: rev,
        stages: v.stages.iter().map(StageOut::of).collect(),
        people: v.standings.rows.iter().map(|r| keys(&r.entrant)).collect(),
        ranking: v.standings.to_cli(),
    }
}

/// One stage of a season card.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeasonStageOut {
    pub stage: u32,
    pub tournament_id: TournamentId,
    pub pair_number: u32,
    pub place: u32,
    pub vp: i64,
    pub mp_diff: i64,
    /// Two decimals.
    pub points: String,
    pub counted: bool,
}

/// One line of a season card (one per pair played in, ranking pairs).
#[derive(Debug, Serialize, ToSchema)]
pub struct SeasonRowOut {
    pub place: Option<u32>,
    pub people: Vec<PersonId>,
    pub points: String,
    pub mp_diff: i64,
    pub attendances: u32,
    pub stages: Vec<SeasonStageOut>,
    /// `"stage N, place P"` or `"overall, place P"` for a finalist.
    pub finalist: Option<String>,
}

/// A person's season card.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeasonCardOut {
    pub circuit: CircuitId,
    pub person: PersonId,
    pub surname: String,
    pub name: String,
    pub rows: Vec<SeasonRowOut>,
}

fn card_out(v: &CircuitView, person: PersonId) -> Option<SeasonCardOut> {
    let card = v.season_card(person)?;
    Some(SeasonCardOut {
        circuit: v.circuit.id,
        person,
        surname: card.surname.clone(),
        name: card.name.clone(),
        rows: card
            .rows
            .iter()
            .map(|r| SeasonRowOut {
                place: r.place,
                people: keys(&r.entrant),
                points: crate::circuit::points_text(r.points),
                mp_diff: r.mp_diff,
                attendances: r.attendances,
                stages: r
                    .stages
                    .iter()
                    .flatten()
                    .filter_map(|s| {
                        let t = v.stage(s.stage)?;
                        Some(SeasonStageOut {
                            stage: s.stage,
                            tournament_id: t.tournament_id,
                            pair_number: s.pair_number,
                            place: s.place,
                            vp: s.vp,
                            mp_diff: s.mp_diff,
                            points: crate::circuit::points_text(s.points),
                            counted: s.counted,
                        })
                    })
                    .collect(),
                finalist: v
                    .standings
                    .finalist(&r.entrant)
                    .map(|f| f.reason.to_string()),
            })
            .collect(),
    })
}

async fn serve_json<F>(
    req: &HttpRequest,
    state: &AppState,
    cid: CircuitId,
    page: CircuitPage,
    render: F,
) -> Result<HttpResponse, ApiError>
where
    F: FnOnce(&CircuitView, i64) -> Result<String, AppError>,
{
    let result = cache::serve_circuit(req, state, cid, page, |_, v, rev| render(v, rev)).await;
    result.map_err(|e| match e {
        AppError::NotFound => ApiError::new(ErrorCode::NotFound, "no such circuit or person"),
        e => {
            tracing::error!(error = %e, "circuit standings failed");
            ApiError::new(ErrorCode::Internal, "the standings cannot be computed now")
        }
    })
}

/// A circuit's season ranking and finalists (no token; ETag per revision).
#[utoipa::path(tag = "public", operation_id = "getCircuitStandings",
    params(("id" = i64, Path, description = "Circuit id")),
    responses((status = 200, description = "The ranking", body = CircuitStandingsOut),
        (status = 304, description = "Not modified (If-None-Match)")))]
#[get("/api/v1/circuits/{id}/standings")]
pub async fn get_circuit_standings(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<CircuitId>,
) -> Result<HttpResponse, ApiError> {
    serve_json(&req, &state, *id, CircuitPage::Json, |v, rev| {
        serde_json::to_string(&standings_out(v, rev)).map_err(|e| AppError::Internal(e.into()))
    })
    .await
}

/// A person's season card in a circuit (no token; ETag per revision).
#[utoipa::path(tag = "public", operation_id = "getSeasonCard",
    params(("id" = i64, Path, description = "Circuit id"),
        ("person" = i64, Path, description = "The person's id in the player directory")),
    responses((status = 200, description = "The season card", body = SeasonCardOut),
        (status = 304, description = "Not modified (If-None-Match)")))]
#[get("/api/v1/circuits/{id}/people/{person}")]
pub async fn get_season_card(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(CircuitId, PersonId)>,
) -> Result<HttpResponse, ApiError> {
    let (cid, person) = path.into_inner();
    serve_json(&req, &state, cid, CircuitPage::CardJson(person), |v, _| {
        let card = card_out(v, person).ok_or(AppError::NotFound)?;
        serde_json::to_string(&card).map_err(|e| AppError::Internal(e.into()))
    })
    .await
}
