//! Penalties over JSON (RULES.md §9): list, give, withdraw, reinstate —
//! the services of `services::scoring`.

use crate::ids::PairId;
use actix_web::http::StatusCode;
use actix_web::{get, post, web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::body::parse_body;
use super::reply::{done, json, Done};
use crate::services::scoring::{PenaltyChange, PenaltyForm};
use crate::services::{self, Actor};
use crate::web::context::PageCtx;
use crate::web::error::ApiError;
use crate::web::roles::ApiStaff;
use crate::web::AppState;

/// The kind of a penalty (RULES.md §9).
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PenaltyKindIn {
    Warning,
    Mp,
    Vp,
}

impl PenaltyKindIn {
    fn code(self) -> &'static str {
        match self {
            PenaltyKindIn::Warning => "warning",
            PenaltyKindIn::Mp => "mp",
            PenaltyKindIn::Vp => "vp",
        }
    }
}

/// A penalty: a typical reason (`reason_preset`) brings its kind and
/// amount; what is given explicitly wins.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"pair": 3, "round": 1, "kind": "vp", "amount": 1, "reason": "slow play"}))]
pub struct PenaltyIn {
    /// The pair's id (in an individual tournament: the number of the
    /// player the penalty names, RULES.md §14).
    pub pair: i64,
    pub round: i32,
    #[serde(default)]
    pub kind: Option<PenaltyKindIn>,
    #[serde(default)]
    pub amount: Option<i64>,
    #[serde(default)]
    pub reason_preset: Option<String>,
    #[serde(default)]
    pub reason: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PenaltyOut {
    pub id: crate::ids::PenaltyId,
    pub round: i32,
    /// The pair's id and number.
    pub pair_id: PairId,
    pub pair: Option<i32>,
    pub table: Option<i32>,
    /// `warning`, `mp` or `vp`.
    pub kind: String,
    pub amount: Option<i64>,
    pub reason: String,
    /// UTC, RFC 3339.
    pub given_at: String,
    /// Who gave it (username), when known.
    pub given_by: Option<String>,
    pub withdrawn: bool,
    pub withdrawn_at: Option<String>,
    pub withdrawn_by: Option<String>,
    /// Why it was withdrawn (empty while it counts).
    pub withdrawn_reason: String,
    /// When a withdrawn penalty was reinstated, by whom and why.
    pub reinstated_at: Option<String>,
    pub reinstated_by: Option<String>,
    pub reinstated_reason: String,
}

/// Why a penalty is withdrawn (it stays on the record).
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"reason": "given to the wrong pair"}))]
pub struct WithdrawPenaltyIn {
    #[serde(default)]
    pub reason: String,
}

/// The tournament's penalties.
#[utoipa::path(tag = "rounds", operation_id = "listPenalties", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id")),
    responses((status = 200, description = "By round", body = Vec<PenaltyOut>)))]
#[get("/api/v1/tournaments/{id}/penalties")]
pub async fn list_penalties(
    state: web::Data<AppState>,
    ApiStaff(actor): ApiStaff,
    id: web::Path<crate::ids::TournamentId>,
) -> Result<HttpResponse, ApiError> {
    let (l, rows) = services::scoring::penalties(&state.db, actor, *id).await?;
    let out: Vec<PenaltyOut> = rows
        .into_iter()
        .map(|p| PenaltyOut {
            id: p.id,
            round: p.round_no,
            pair_id: p.pair_id,
            pair: l.pair(Some(p.pair_id)).map(|r| r.number),
            table: p.table_no,
            kind: p.kind.as_str().to_string(),
            amount: p.amount,
            reason: p.reason,
            given_at: p.given_at.and_utc().to_rfc3339(),
            given_by: p.given_by,
            withdrawn: p.withdrawn_at.is_some(),
            withdrawn_at: p.withdrawn_at.map(|t| t.and_utc().to_rfc3339()),
            withdrawn_by: p.withdrawn_by,
            withdrawn_reason: p.withdrawn_reason,
            reinstated_at: p.reinstated_at.map(|t| t.and_utc().to_rfc3339()),
            reinstated_by: p.reinstated_by,
            reinstated_reason: p.reinstated_reason,
        })
        .collect();
    Ok(json(StatusCode::OK, &out))
}

/// Records a penalty.
#[utoipa::path(tag = "rounds", operation_id = "addPenalty", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id")),
    request_body = PenaltyIn,
    responses((status = 201, description = "Recorded", body = super::tournaments::Created)))]
#[post("/api/v1/tournaments/{id}/penalties")]
pub async fn add_penalty(
    ctx: PageCtx,
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiStaff(actor): ApiStaff,
    id: web::Path<crate::ids::TournamentId>,
    body: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let input: PenaltyIn = parse_body(&req, body).await?;
    let form = PenaltyForm {
        pair: input.pair.to_string(),
        round: input.round.to_string(),
        kind: input.kind.map(|k| k.code().to_string()).unwrap_or_default(),
        amount: input.amount.map(|a| a.to_string()).unwrap_or_default(),
        reason_preset: input.reason_preset.unwrap_or_default(),
        reason: input.reason.unwrap_or_default(),
    };
    let pid = services::scoring::add_penalty(&state.db, actor, *id, form, ctx.lang).await?;
    Ok(json(
        StatusCode::CREATED,
        &super::tournaments::Created { id: pid.0 },
    ))
}

/// Withdraws a penalty: it stays on the record and no longer counts.
#[utoipa::path(tag = "rounds", operation_id = "withdrawPenalty", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id"), ("pid" = i64, Path, description = "Penalty id")),
    request_body = WithdrawPenaltyIn,
    responses((status = 200, description = "Withdrawn", body = Done)))]
#[post("/api/v1/tournaments/{id}/penalties/{pid}/withdraw")]
pub async fn withdraw_penalty(
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiStaff(actor): ApiStaff,
    path: web::Path<(crate::ids::TournamentId, crate::ids::PenaltyId)>,
    body: web::Payload,
) -> Result<HttpResponse, ApiError> {
    change_penalty(req, state, actor, path, body, PenaltyChange::Withdraw).await
}

/// Reinstates a withdrawn penalty: it counts again (a reason is required).
#[utoipa::path(tag = "rounds", operation_id = "reinstatePenalty", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id"), ("pid" = i64, Path, description = "Penalty id")),
    request_body = WithdrawPenaltyIn,
    responses((status = 200, description = "Counts again", body = Done)))]
#[post("/api/v1/tournaments/{id}/penalties/{pid}/reinstate")]
pub async fn reinstate_penalty(
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiStaff(actor): ApiStaff,
    path: web::Path<(crate::ids::TournamentId, crate::ids::PenaltyId)>,
    body: web::Payload,
) -> Result<HttpResponse, ApiError> {
    change_penalty(req, state, actor, path, body, PenaltyChange::Reinstate).await
}

/// Withdraws or reinstates a penalty with the reason in the body (one
/// service call: it re-checks the penalty's state in its transaction).
async fn change_penalty(
    req: HttpRequest,
    state: web::Data<AppState>,
    actor: Actor,
    path: web::Path<(crate::ids::TournamentId, crate::ids::PenaltyId)>,
    body: web::Payload,
    change: PenaltyChange,
) -> Result<HttpResponse, ApiError> {
    let (tid, pid) = path.into_inner();
    let input: WithdrawPenaltyIn = parse_body(&req, body).await?;
    services::scoring::change_penalty(&state.db, actor, tid, pid, change, input.reason).await?;
    Ok(done())
}
