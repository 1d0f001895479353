//! Team tournaments over JSON (issue 25): the teams (registration,
//! check-in, withdrawal), the team settings, the line-ups (staff, or the
//! captain with the team code) and a team's card — the services of
//! `services::teams`. Starting, the next round, sheets, penalties and the
//! standings are the pairs tournament's operations (`startTournament`,
//! `nextRound`, `saveSheet`, `addPenalty`, `getStandings`), which serve a
//! team tournament too.

use actix_web::http::StatusCode;
use actix_web::{get, post, put, web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::body::parse_body;
use super::reply::{done, json};
use crate::ids::{TeamId, TournamentId};
use crate::services::teams::{self as teams, LineUpBy, LineUpForm, Team};
use crate::services::ServiceError;
use crate::tournament::pairs::PlayerForm;
use crate::web::bearer::ApiActor;
use crate::web::context::PageCtx;
use crate::web::error::{ApiError, AppError, ErrorCode};
use crate::web::roles::{ApiDirector, ApiStaff};
use crate::web::AppState;

/// A player of a team (surname and name required).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TeamPlayerIn {
    pub surname: String,
    pub name: String,
    #[serde(default)]
    pub card: String,
    #[serde(default)]
    pub club: String,
}

/// A team: a name and 4 to 6 players.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[schema(example = json!({"name": "Circolo Sole", "players": [
    {"surname": "Rossi", "name": "Maria"}, {"surname": "Bianchi", "name": "Luca"},
    {"surname": "Verdi", "name": "Anna"}, {"surname": "Neri", "name": "Paolo"}]}))]
pub struct TeamIn {
    pub name: String,
    pub players: Vec<TeamPlayerIn>,
}

/// A registered team (staff: with its private code once the tournament
/// started).
#[derive(Debug, Serialize, ToSchema)]
pub struct TeamOut {
    pub id: TeamId,
    pub number: i32,
    pub name: String,
    pub players: Vec<TeamPlayerIn>,
    pub checked_in: bool,
    pub withdrawn_from_round: Option<i32>,
    pub no_show: bool,
    /// The round-robin group, once drawn.
    pub group: Option<String>,
    /// The captain's code (line-ups, confirming at the tables); directors
    /// only, once the tournament started.
    pub code: Option<String>,
}

impl TeamOut {
    fn of(t: &Team) -> TeamOut {
        TeamOut {
            id: t.id,
            number: t.number,
            name: t.name.clone(),
            players: t
                .players
                .iter()
                .map(|p| TeamPlayerIn {
                    surname: p.surname().into(),
                    name: p.name().into(),
                    card: p.card().into(),
                    club: p.club().into(),
                })
                .collect(),
            checked_in: t.checked_in,
            withdrawn_from_round: t.withdrawn_from_round,
            no_show: t.no_show,
            group: t.group.clone(),
            code: t.code.clone(),
        }
    }
}

/// How a match's VP are made (RULES.md §12).
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum MatchScoringIn {
    /// The sum of the two tables' VP (0–40).
    Tables,
    /// The two tables' MP difference on a team scale (0–20).
    Scale,
}

/// A team tournament's settings (before the start).
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[schema(example = json!({"scoring": "tables", "groups": 1}))]
pub struct TeamSettingsIn {
    pub scoring: MatchScoringIn,
    /// With `scale`: ten increasing upper bounds for 10…19 VP.
    #[serde(default)]
    pub scale: Option<Vec<i64>>,
    /// The resting team's VP (absent: the rules' default).
    #[serde(default)]
    pub team_bye_vp: Option<u32>,
    /// Round-robin groups (default 1).
    #[serde(default)]
    pub groups: Option<u32>,
    /// Round-robin rounds before the Danish ones (absent: the whole round
    /// robin).
    #[serde(default)]
    pub round_robin_rounds: Option<u32>,
}

/// Check a team in, or undo it.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"checked_in": true}))]
pub struct TeamCheckInIn {
    pub checked_in: bool,
}

/// A line-up: the team's first pair (the match's first table) and second
/// pair, each two players by their index in the team (from 0, as in the
/// tournament file). `code`: the team code, when the captain sends it.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"round": 2, "pairs": [[0, 2], [1, 3]]}))]
pub struct LineUpIn {
    pub round: i32,
    pub pairs: [[u32; 2]; 2],
    #[serde(default)]
    pub code: Option<String>,
}

impl LineUpIn {
    fn form(&self) -> LineUpForm {
        let p = |i: usize, j: usize| (self.pairs[i][j].saturating_add(1)).to_string();
        LineUpForm {
            round: self.round.to_string(),
            a1: p(0, 0),
            a2: p(0, 1),
            b1: p(1, 0),
            b2: p(1, 1),
            code: self.code.clone().unwrap_or_default(),
        }
    }
}

async fn teams_out(
    state: &AppState,
    actor: crate::services::Actor,
    tid: TournamentId,
) -> Result<Vec<TeamOut>, ApiError> {
    // The codes are the directors' (as the pair codes): a referee reads
    // the teams without them.
    let (t, directs) = teams::load_directing(&state.db, actor, tid).await?;
    Ok(t.teams
        .iter()
        .map(TeamOut::of)
        .map(|mut out| {
            if !directs {
                out.code = None;
            }
            out
        })
        .collect())
}

/// The teams of a team tournament, by number.
#[utoipa::path(tag = "teams", operation_id = "listTeams", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id")),
    responses((status = 200, description = "By number", body = Vec<TeamOut>)))]
#[get("/api/v1/tournaments/{id}/teams")]
pub async fn list_teams(
    state: web::Data<AppState>,
    actor: ApiActor,
    id: web::Path<TournamentId>,
) -> Result<HttpResponse, ApiError> {
    let out = teams_out(&state, actor.0, *id).await?;
    Ok(json(StatusCode::OK, &out))
}

/// Registers a team (before the start).
#[utoipa::path(tag = "teams", operation_id = "addTeam", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id")),
    request_body = TeamIn,
    responses((status = 201, description = "Registered", body = TeamOut)))]
#[post("/api/v1/tournaments/{id}/teams")]
pub async fn add_team(
    ctx: PageCtx,
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiDirector(actor): ApiDirector,
    id: web::Path<TournamentId>,
    body: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let input: TeamIn = parse_body(&req, body).await?;
    let form = teams::TeamForm {
        name: input.name,
        players: input
            .players
            .into_iter()
            .map(|p| PlayerForm {
                surname: p.surname,
                name: p.name,
                card: p.card,
                club: p.club,
            })
            .collect(),
    };
    let number = teams::register(&state.db, actor, *id, form).await?;
    let out = teams_out(&state, actor, *id).await?;
    let team = out
        .into_iter()
        .find(|t| t.number == number)
        .ok_or_else(|| ApiError::from_service(ServiceError::NotFound, ctx.lang))?;
    Ok(json(StatusCode::CREATED, &team))
}

/// Checks a team in, or undoes it (before the start).
#[utoipa::path(tag = "teams", operation_id = "checkInTeam", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id"), ("team" = i64, Path, description = "Team id")),
    request_body = TeamCheckInIn,
    responses((status = 200, description = "Done", body = super::reply::Done)))]
#[post("/api/v1/tournaments/{id}/teams/{team}/checkin")]
pub async fn check_in_team(
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiDirector(actor): ApiDirector,
    path: web::Path<(TournamentId, TeamId)>,
    body: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let (tid, team) = path.into_inner();
    let input: TeamCheckInIn = parse_body(&req, body).await?;
    teams::check_in(&state.db, actor, tid, team, input.checked_in).await?;
    Ok(done())
}

/// Withdraws a team from the next round on.
#[utoipa::path(tag = "teams", operation_id = "withdrawTeam", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id"), ("team" = i64, Path, description = "Team id")),
    responses((status = 200, description = "Done", body = super::reply::Done)))]
#[post("/api/v1/tournaments/{id}/teams/{team}/withdraw")]
pub async fn withdraw_team(
    state: web::Data<AppState>,
    ApiDirector(actor): ApiDirector,
    path: web::Path<(TournamentId, TeamId)>,
) -> Result<HttpResponse, ApiError> {
    let (tid, team) = path.into_inner();
    teams::withdraw(&state.db, actor, tid, team).await?;
    Ok(done())
}

/// Sets a team tournament's settings (before the start).
#[utoipa::path(tag = "teams", operation_id = "updateTeamSettings", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id")),
    request_body = TeamSettingsIn,
    responses((status = 200, description = "Saved", body = super::reply::Done)))]
#[put("/api/v1/tournaments/{id}/team-settings")]
pub async fn update_team_settings(
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiDirector(actor): ApiDirector,
    id: web::Path<TournamentId>,
    body: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let input: TeamSettingsIn = parse_body(&req, body).await?;
    let opt = |v: Option<u32>| v.map(|n| n.to_string()).unwrap_or_default();
    let form = teams::SetupForm {
        method: match input.scoring {
            MatchScoringIn::Tables => "tables".into(),
            MatchScoringIn::Scale => "scale".into(),
        },
        scale: input
            .scale
            .map(|v| v.iter().map(i64::to_string).collect::<Vec<_>>().join(" "))
            .unwrap_or_default(),
        team_bye_vp: opt(input.team_bye_vp),
        groups: opt(input.groups),
        round_robin_rounds: opt(input.round_robin_rounds),
    };
    teams::save_setup(&state.db, actor, *id, form).await?;
    Ok(done())
}

/// Names a team's line-up for the current round, as staff (until a table
/// of its match has a result).
#[utoipa::path(tag = "teams", operation_id = "setLineUp", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id"), ("number" = i32, Path, description = "Team number")),
    request_body = LineUpIn,
    responses((status = 200, description = "Seated", body = super::reply::Done)))]
#[put("/api/v1/tournaments/{id}/teams/{number}/lineup")]
pub async fn set_lineup(
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiStaff(actor): ApiStaff,
    path: web::Path<(TournamentId, i32)>,
    body: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let (tid, number) = path.into_inner();
    let input: LineUpIn = parse_body(&req, body).await?;
    teams::set_lineup(
        &state.db,
        LineUpBy::Staff(actor),
        tid,
        number,
        input.round,
        input.form(),
    )
    .await?;
    Ok(done())
}

/// The captain names the team's line-up with the team code (no token).
/// Every code counts against the team from the address before it is
/// checked: ten at once, then one a minute (429 `too_many_attempts`).
#[utoipa::path(tag = "teams", operation_id = "submitLineUp",
    params(("id" = i64, Path, description = "Tournament id"), ("number" = i32, Path, description = "Team number")),
    request_body = LineUpIn,
    responses((status = 200, description = "Seated", body = super::reply::Done)))]
#[post("/api/v1/tournaments/{id}/teams/{number}/lineup")]
pub async fn submit_lineup(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, i32)>,
    body: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let (tid, number) = path.into_inner();
    let input: LineUpIn = parse_body(&req, body).await?;
    let client = crate::web::client::client_addr(&req, state.settings.trust_forwarded_for);
    match teams::captain_lineup(&state.db, tid, number, input.form(), client).await {
        Ok(()) => Ok(done()),
        Err(ServiceError::Throttled { wait_seconds }) => {
            use actix_web::ResponseError;
            let mut res = ApiError::new(
                ErrorCode::TooManyAttempts,
                "too many wrong codes for this team: wait and try again",
            )
            .error_response();
            if let Ok(v) = actix_web::http::header::HeaderValue::from_str(&wait_seconds.to_string())
            {
                res.headers_mut()
                    .insert(actix_web::http::header::RETRY_AFTER, v);
            }
            Ok(res)
        }
        Err(e) => Err(e.into()),
    }
}

/// A team's card: its players, and round by round its opponent, its
/// line-up at each table and the results (public, no token; cached per
/// revision with an ETag).
#[utoipa::path(tag = "public", operation_id = "getTeamCard",
    params(("id" = i64, Path, description = "Tournament id"), ("number" = u32, Path, description = "Team number")),
    responses((status = 200, description = "The card", body = crate::services::teams::TeamCardDoc),
        (status = 304, description = "Not modified (If-None-Match)")))]
#[get("/api/v1/tournaments/{id}/teams/{number}/card")]
pub async fn get_team_card(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, u32)>,
) -> Result<HttpResponse, ApiError> {
    let (tid, number) = path.into_inner();
    let lang = PageCtx::from_request(&req).lang;
    let kind = state.public.kind(&state, tid).await;
    let served = match kind {
        Ok(crate::tournament_file::FileKind::Teams) => {
            crate::web::cache::teams::serve_teams(
                &req,
                &state,
                tid,
                crate::web::cache::TeamPage::TeamJson(number),
                |_, v, rev| {
                    let doc = v.card_doc(number, rev).ok_or(AppError::NotFound)?;
                    serde_json::to_string(&doc).map_err(|e| AppError::Internal(e.into()))
                },
            )
            .await
        }
        Ok(_) => Err(AppError::NotFound),
        Err(e) => Err(e),
    };
    served.map_err(|e| match e {
        AppError::NotFound => ApiError::from_service(ServiceError::NotFound, lang),
        e => {
            tracing::error!(error = %e, "team card failed");
            ApiError::new(ErrorCode::Internal, "the card cannot be computed now")
        }
    })
}
