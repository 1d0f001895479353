//! Pairs over JSON: registration, the CSV import, check-in, withdrawal —
//! the services of `services::pairs`.

use crate::ids::TournamentId;
use actix_web::http::StatusCode;
use actix_web::{get, post, put, web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::body::parse_body;
use super::reply::json;
use super::tournaments::loaded;
use crate::services::view::Pair;
use crate::services::{self, Need};
use crate::tournament::pairs::{PairEntry, PairForm};
use crate::web::bearer::ApiActor;
use crate::web::context::PageCtx;
use crate::web::error::ApiError;
use crate::web::roles::ApiDirector;
use crate::web::AppState;

/// A pair: two players (surname and name required).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"p1_surname": "Rossi", "p1_name": "Anna", "p2_surname": "Bianchi", "p2_name": "Luca"}))]
pub struct PairIn {
    pub p1_surname: String,
    pub p1_name: String,
    #[serde(default)]
    pub p1_card: String,
    #[serde(default)]
    pub p1_club: String,
    pub p2_surname: String,
    pub p2_name: String,
    #[serde(default)]
    pub p2_card: String,
    #[serde(default)]
    pub p2_club: String,
}

impl PairIn {
    fn entry(&self, lang: crate::i18n::Lang) -> Result<PairEntry, ApiError> {
        let form = PairForm {
            p1_surname: self.p1_surname.clone(),
            p1_name: self.p1_name.clone(),
            p1_card: self.p1_card.clone(),
            p1_club: self.p1_club.clone(),
            p2_surname: self.p2_surname.clone(),
            p2_name: self.p2_name.clone(),
            p2_card: self.p2_card.clone(),
            p2_club: self.p2_club.clone(),
        };
        PairEntry::parse(&form)
            .map_err(|p| ApiError::from_service(crate::services::ServiceError::Invalid(p), lang))
    }
}

/// A registered pair.
#[derive(Debug, Serialize, ToSchema)]
pub struct PairOut {
    pub id: crate::ids::PairId,
    pub number: i32,
    pub p1_surname: String,
    pub p1_name: String,
    pub p1_card: String,
    pub p1_club: String,
    pub p2_surname: String,
    pub p2_name: String,
    pub p2_card: String,
    pub p2_club: String,
    pub checked_in: bool,
    /// A late pair: the round it joined.
    pub joined_from_round: Option<i32>,
    /// A withdrawn pair: the first round it misses.
    pub withdrawn_from_round: Option<i32>,
}

impl PairOut {
    fn of(p: &Pair) -> PairOut {
        PairOut {
            id: p.id,
            number: p.number,
            p1_surname: p.p1_surname.clone(),
            p1_name: p.p1_name.clone(),
            p1_card: p.p1_card.clone(),
            p1_club: p.p1_club.clone(),
            p2_surname: p.p2_surname.clone(),
            p2_name: p.p2_name.clone(),
            p2_card: p.p2_card.clone(),
            p2_club: p.p2_club.clone(),
            checked_in: p.checked_in,
            joined_from_round: p.joined_from_round,
            withdrawn_from_round: p.withdrawn_from_round,
        }
    }
}

/// What to do with a pair's check-in.
#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CheckInAction {
    CheckIn,
    Undo,
}

#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"action": "check_in"}))]
pub struct CheckInIn {
    pub action: CheckInAction,
}

/// What to do with a pair's presence in the next rounds.
#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum WithdrawAction {
    /// Out from the next round on (from round 1 before the draw).
    Withdraw,
    /// Back in (only before it missed a round).
    Reinstate,
}

#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"action": "withdraw"}))]
pub struct WithdrawIn {
    pub action: WithdrawAction,
}

/// The pairs of a CSV file (the same columns as the director's import),
/// all or nothing, before the draw.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"csv": "cognome1;nome1;cognome2;nome2\nRossi;Anna;Bianchi;Luca\n"}))]
pub struct PairsCsvIn {
    pub csv: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Imported {
    pub imported: usize,
}

/// The tournament's pairs.
#[utoipa::path(tag = "pairs", operation_id = "listPairs", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id")),
    responses((status = 200, description = "By number", body = Vec<PairOut>)))]
#[get("/api/v1/tournaments/{id}/pairs")]
pub async fn list_pairs(
    state: web::Data<AppState>,
    actor: ApiActor,
    id: web::Path<crate::ids::TournamentId>,
) -> Result<HttpResponse, ApiError> {
    let l = loaded(&state, actor.0, *id).await?;
    let out: Vec<PairOut> = l.pairs.iter().map(PairOut::of).collect();
    Ok(json(StatusCode::OK, &out))
}

async fn pair_out(
    state: &AppState,
    actor: crate::services::Actor,
    tid: TournamentId,
    number: Option<i32>,
    pid: Option<crate::ids::PairId>,
    lang: crate::i18n::Lang,
) -> Result<HttpResponse, ApiError> {
    let l = loaded(state, actor, tid).await?;
    let p = l
        .pairs
        .iter()
        .find(|p| Some(p.number) == number || Some(p.id) == pid)
        .ok_or_else(|| ApiError::from_service(crate::services::ServiceError::NotFound, lang))?;
    Ok(json(StatusCode::OK, &PairOut::of(p)))
}

/// Registers a pair (a late pair once the tournament runs).
#[utoipa::path(tag = "pairs", operation_id = "addPair", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id")),
    request_body = PairIn,
    responses((status = 201, description = "Registered", body = PairOut)))]
#[post("/api/v1/tournaments/{id}/pairs")]
pub async fn add_pair(
    ctx: PageCtx,
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiDirector(actor): ApiDirector,
    id: web::Path<crate::ids::TournamentId>,
    body: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let input: PairIn = parse_body(&req, body).await?;
    let entry = input.entry(ctx.lang)?;
    let number = services::pairs::register(&state.db, actor, *id, entry).await?;
    let mut res = pair_out(&state, actor, *id, Some(number), None, ctx.lang).await?;
    *res.status_mut() = StatusCode::CREATED;
    Ok(res)
}

/// Registers the pairs of a CSV file, all or nothing, before the draw.
#[utoipa::path(tag = "pairs", operation_id = "importPairsCsv", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id")),
    request_body = PairsCsvIn,
    responses((status = 201, description = "Imported", body = Imported)))]
#[post("/api/v1/tournaments/{id}/pairs/import")]
pub async fn import_pairs_csv(
    ctx: PageCtx,
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiDirector(actor): ApiDirector,
    id: web::Path<crate::ids::TournamentId>,
    body: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let input: PairsCsvIn = parse_body(&req, body).await?;
    let l = services::tournaments::load(&state.db, actor, *id, Need::Direct).await?;
    let existing: Vec<PairEntry> = l.pairs.iter().map(Pair::entry).collect();
    let preview = crate::tournament::csv_import::preview(&input.csv, &existing).map_err(|p| {
        ApiError::invalid(
            "the CSV cannot be read",
            vec![("csv".into(), p.message(ctx.lang))],
        )
    })?;
    if !preview.bad_lines.is_empty() {
        let fields = preview
            .bad_lines
            .iter()
            .map(|b| (format!("csv.line{}", b.line), b.message(ctx.lang)))
            .collect();
        return Err(ApiError::invalid("some lines are not valid", fields));
    }
    let entries: Vec<PairEntry> = preview.pairs.into_iter().map(|(_, e)| e).collect();
    if entries.is_empty() {
        return Err(ApiError::invalid(
            "the CSV has no pairs",
            vec![("csv".into(), "no pairs".into())],
        ));
    }
    let n = services::pairs::import(&state.db, actor, *id, entries).await?;
    Ok(json(StatusCode::CREATED, &Imported { imported: n }))
}

/// Changes a pair's players.
#[utoipa::path(tag = "pairs", operation_id = "updatePair", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id"), ("pid" = i64, Path, description = "Pair id")),
    request_body = PairIn,
    responses((status = 200, description = "Saved", body = PairOut)))]
#[put("/api/v1/tournaments/{id}/pairs/{pid}")]
pub async fn update_pair(
    ctx: PageCtx,
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiDirector(actor): ApiDirector,
    path: web::Path<(crate::ids::TournamentId, crate::ids::PairId)>,
    body: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let (tid, pid) = path.into_inner();
    let input: PairIn = parse_body(&req, body).await?;
    let entry = input.entry(ctx.lang)?;
    services::pairs::update(&state.db, actor, tid, pid, entry).await?;
    pair_out(&state, actor, tid, None, Some(pid), ctx.lang).await
}

/// Checks a pair in, or undoes it.
#[utoipa::path(tag = "pairs", operation_id = "checkInPair", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id"), ("pid" = i64, Path, description = "Pair id")),
    request_body = CheckInIn,
    responses((status = 200, description = "Saved", body = PairOut)))]
#[post("/api/v1/tournaments/{id}/pairs/{pid}/checkin")]
pub async fn check_in_pair(
    ctx: PageCtx,
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiDirector(actor): ApiDirector,
    path: web::Path<(crate::ids::TournamentId, crate::ids::PairId)>,
    body: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let (tid, pid) = path.into_inner();
    let input: CheckInIn = parse_body(&req, body).await?;
    let value = matches!(input.action, CheckInAction::CheckIn);
    services::pairs::set_checked_in(&state.db, actor, tid, pid, value).await?;
    pair_out(&state, actor, tid, None, Some(pid), ctx.lang).await
}

/// Withdraws a pair from the next rounds, or reinstates it.
#[utoipa::path(tag = "pairs", operation_id = "withdrawPair", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id"), ("pid" = i64, Path, description = "Pair id")),
    request_body = WithdrawIn,
    responses((status = 200, description = "Saved", body = PairOut)))]
#[post("/api/v1/tournaments/{id}/pairs/{pid}/withdraw")]
pub async fn withdraw_pair(
    ctx: PageCtx,
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiDirector(actor): ApiDirector,
    path: web::Path<(crate::ids::TournamentId, crate::ids::PairId)>,
    body: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let (tid, pid) = path.into_inner();
    let input: WithdrawIn = parse_body(&req, body).await?;
    let withdraw = matches!(input.action, WithdrawAction::Withdraw);
    services::pairs::set_withdrawn(&state.db, actor, tid, pid, withdraw).await?;
    pair_out(&state, actor, tid, None, Some(pid), ctx.lang).await
}
