//! Individual tournaments over JSON (issue 35): the players (listed,
//! registered, checked in, withdrawn) — the services of
//! `services::individual`. Starting, the next round, sheets, penalties (a
//! penalty's `pair` is the player's number), the standings and the export
//! are the pairs tournament's operations (`startTournament`, `nextRound`,
//! `saveSheet`, `addPenalty`, `getStandings`, `exportTournament`), which
//! serve an individual tournament too.

use actix_web::http::StatusCode;
use actix_web::{get, post, web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::body::parse_body;
use super::reply::{done, json};
use crate::ids::{IndividualPlayerId, TournamentId};
use crate::services::individual::{self as ind, IndPlayer};
use crate::services::Need;
use crate::tournament::pairs::PlayerForm;
use crate::web::error::ApiError;
use crate::web::roles::ApiDirector;
use crate::web::AppState;

/// A player (surname and name required).
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[schema(example = json!({"surname": "Rossi", "name": "Maria", "card": "AB123", "club": "Circolo Sole"}))]
pub struct PlayerIn {
    pub surname: String,
    pub name: String,
    #[serde(default)]
    pub card: String,
    #[serde(default)]
    pub club: String,
}

/// A registered player of an individual tournament.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PlayerOut {
    pub id: IndividualPlayerId,
    pub number: i32,
    pub surname: String,
    pub name: String,
    pub card: String,
    pub club: String,
    pub checked_in: bool,
    pub withdrawn_from_round: Option<i32>,
    pub no_show: bool,
    /// The personal code, the player's credential at the tables (given
    /// at the start; the directors' only).
    pub code: Option<String>,
}

impl PlayerOut {
    fn of(p: &IndPlayer) -> PlayerOut {
        PlayerOut {
            id: p.id,
            number: p.number,
            surname: p.player.surname().to_string(),
            name: p.player.name().to_string(),
            card: p.player.card().to_string(),
            club: p.player.club().to_string(),
            checked_in: p.checked_in,
            withdrawn_from_round: p.withdrawn_from_round,
            no_show: p.no_show,
            code: p.code.clone(),
        }
    }
}

/// Check a player in, or undo it.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"checked_in": true}))]
pub struct PlayerCheckInIn {
    pub checked_in: bool,
}

/// The players of an individual tournament, by number.
#[utoipa::path(tag = "players", operation_id = "listPlayers", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id")),
    responses((status = 200, description = "By number", body = Vec<PlayerOut>)))]
#[get("/api/v1/tournaments/{id}/players")]
pub async fn list_players(
    state: web::Data<AppState>,
    ApiDirector(actor): ApiDirector,
    id: web::Path<TournamentId>,
) -> Result<HttpResponse, ApiError> {
    let t = ind::load(&state.db, actor, *id, Need::Direct).await?;
    let out: Vec<PlayerOut> = t.players.iter().map(PlayerOut::of).collect();
    Ok(json(StatusCode::OK, &out))
}

/// Registers a player (before the start).
#[utoipa::path(tag = "players", operation_id = "addPlayer", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id")),
    request_body = PlayerIn,
    responses((status = 201, description = "Registered", body = PlayerOut)))]
#[post("/api/v1/tournaments/{id}/players")]
pub async fn add_player(
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiDirector(actor): ApiDirector,
    id: web::Path<TournamentId>,
    body: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let input: PlayerIn = parse_body(&req, body).await?;
    let form = PlayerForm {
        surname: input.surname,
        name: input.name,
        card: input.card,
        club: input.club,
    };
    let number = ind::register(&state.db, actor, *id, form).await?;
    let t = ind::load(&state.db, actor, *id, Need::Direct).await?;
    let p = t
        .by_number(number)
        .ok_or(crate::services::ServiceError::NotFound)?;
    Ok(json(StatusCode::CREATED, &PlayerOut::of(p)))
}

/// Checks a player in, or undoes it (before the start).
#[utoipa::path(tag = "players", operation_id = "checkInPlayer", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id"), ("player" = i64, Path, description = "Player id")),
    request_body = PlayerCheckInIn,
    responses((status = 200, description = "Done", body = super::reply::Done)))]
#[post("/api/v1/tournaments/{id}/players/{player}/checkin")]
pub async fn check_in_player(
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiDirector(actor): ApiDirector,
    path: web::Path<(TournamentId, IndividualPlayerId)>,
    body: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let (tid, player) = path.into_inner();
    let input: PlayerCheckInIn = parse_body(&req, body).await?;
    ind::check_in(&state.db, actor, tid, vec![player], input.checked_in).await?;
    Ok(done())
}

/// Withdraws a player from the next round on.
#[utoipa::path(tag = "players", operation_id = "withdrawPlayer", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id"), ("player" = i64, Path, description = "Player id")),
    responses((status = 200, description = "Done", body = super::reply::Done)))]
#[post("/api/v1/tournaments/{id}/players/{player}/withdraw")]
pub async fn withdraw_player(
    state: web::Data<AppState>,
    ApiDirector(actor): ApiDirector,
    path: web::Path<(TournamentId, IndividualPlayerId)>,
) -> Result<HttpResponse, ApiError> {
    let (tid, player) = path.into_inner();
    ind::withdraw(&state.db, actor, tid, player).await?;
    Ok(done())
}
