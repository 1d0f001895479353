//! Rounds, the clock, score sheets, adjusted scores, penalties, and the
//! public pair card: the services of `services::rounds` and
//! `services::scoring`.

use crate::ids::TournamentId;
use actix_web::http::StatusCode;
use actix_web::{get, post, put, web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::body::parse_body;
use super::reply::{done, json, Done};
use crate::rules::ScoreSheet;
use crate::services::clock::ClockAction;
use crate::services::scoring::{AdjustedForm, SheetInput};
use crate::services::view::Sheet;
use crate::services::{self, Need, ServiceError};
use crate::web::context::PageCtx;
use crate::web::error::{ApiError, AppError, ErrorCode};
use crate::web::roles::{ApiDirector, ApiStaff};
use crate::web::AppState;

// ---- rounds ----

/// The next round: `round` names the round the caller expects to make (a
/// repeated request returns it instead of making another); while a table
/// of the last round has no score, a `force_reason` is needed.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[schema(example = json!({"round": 2}))]
pub struct NextRoundIn {
    #[serde(default)]
    pub round: Option<i32>,
    #[serde(default)]
    pub force_reason: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"round": 2}))]
pub struct RoundMade {
    pub round: i32,
}

/// A table of a round.
#[derive(Debug, Serialize, ToSchema)]
pub struct TableOut {
    pub table: i32,
    /// Pair numbers (none: a bye line).
    pub ns_pair: Option<i32>,
    pub ew_pair: Option<i32>,
    /// A counted sheet or an adjusted score is in.
    pub scored: bool,
}

/// A round: its movement, clock and tables.
#[derive(Debug, Serialize, ToSchema)]
pub struct RoundOut {
    pub round: i32,
    /// `mitchell`, `danish` or `danish_modified`; a team tournament's
    /// `round_robin` or `danish`.
    pub movement: String,
    /// UTC, RFC 3339.
    pub started_at: Option<String>,
    pub time_out_at: Option<String>,
    pub tables: Vec<TableOut>,
    /// Pair numbers of the pairs that rest (bye).
    pub resting: Vec<i32>,
}

/// What the director does with a round's clock: start it, pause and resume
/// it (an interruption at the tables), or call time-out.
#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ClockActionIn {
    Start,
    Pause,
    Resume,
    TimeOut,
}

#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"action": "start"}))]
pub struct ClockIn {
    pub action: ClockActionIn,
}

/// Makes the next round by the tournament's plan.
#[utoipa::path(tag = "rounds", operation_id = "nextRound", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id")),
    request_body = NextRoundIn,
    responses((status = 201, description = "The round made (or the one named, already made). Without `round`: the round after the last one when the request arrived; when another request drew it meanwhile, 409 `already_drawn` and nothing more is drawn", body = RoundMade),
        (status = 409, description = "Not possible now (the round was drawn by another request, tables missing a score…)", body = crate::web::api::reply::ErrorBody)))]
#[post("/api/v1/tournaments/{id}/rounds")]
pub async fn next_round(
    arrived: crate::web::context::Arrived,
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiDirector(actor): ApiDirector,
    id: web::Path<crate::ids::TournamentId>,
    body: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let input: NextRoundIn = parse_body(&req, body).await?;
    let tz = state.settings.timezone;
    let n = match input.round {
        Some(round) => {
            services::rounds::next_round(
                &state.db,
                actor,
                *id,
                Some(round),
                input.force_reason,
                None,
                tz,
            )
            .await
        }
        None => {
            services::rounds::next_round_after_arrival(
                &state.db,
                actor,
                *id,
                arrived.0,
                input.force_reason,
                tz,
            )
            .await
        }
    }?;
    Ok(json(StatusCode::CREATED, &RoundMade { round: n }))
}

/// A round's seating, clock and which tables are scored.
#[utoipa::path(tag = "rounds", operation_id = "getRound", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id"), ("n" = i32, Path, description = "Round number")),
    responses((status = 200, description = "The round", body = RoundOut)))]
#[get("/api/v1/tournaments/{id}/rounds/{n}")]
pub async fn get_round(
    state: web::Data<AppState>,
    ApiStaff(actor): ApiStaff,
    path: web::Path<(crate::ids::TournamentId, i32)>,
) -> Result<HttpResponse, ApiError> {
    let (tid, n) = path.into_inner();
    let (l, idx, _, resting) =
        services::rounds::seating(&state.db, actor, tid, n, Need::Referee).await?;
    let (_, rows) = services::scoring::round_tables(&state.db, actor, tid, n).await?;
    let number = |pid: Option<crate::ids::PairId>| l.pair(pid).map(|p| p.number);
    let r = &l.rounds[idx];
    let out = RoundOut {
        round: r.number,
        movement: r.movement.as_str().to_string(),
        started_at: r.started_at.map(|t| t.and_utc().to_rfc3339()),
        time_out_at: r.time_out_at.map(|t| t.and_utc().to_rfc3339()),
        tables: rows
            .iter()
            .map(|(s, sheet)| TableOut {
                table: s.table_no,
                ns_pair: number(s.ns_pair),
                ew_pair: number(s.ew_pair),
                scored: sheet.is_some(),
            })
            .collect(),
        resting: resting.iter().filter_map(|p| number(Some(*p))).collect(),
    };
    Ok(json(StatusCode::OK, &out))
}

/// Starts a round's clock, pauses or resumes it, or calls time-out (start
/// and time-out happen once; a pause only while the clock runs).
#[utoipa::path(tag = "rounds", operation_id = "clockAction", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id"), ("n" = i32, Path, description = "Round number")),
    request_body = ClockIn,
    responses((status = 200, description = "Done", body = Done)))]
#[post("/api/v1/tournaments/{id}/rounds/{n}/clock")]
pub async fn clock_action(
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiDirector(actor): ApiDirector,
    path: web::Path<(crate::ids::TournamentId, i32)>,
    body: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let (tid, n) = path.into_inner();
    let input: ClockIn = parse_body(&req, body).await?;
    let action = match input.action {
        ClockActionIn::Start => ClockAction::Start,
        ClockActionIn::Pause => ClockAction::Pause,
        ClockActionIn::Resume => ClockAction::Resume,
        ClockActionIn::TimeOut => ClockAction::TimeOut,
    };
    services::clock::clock(&state.db, actor, tid, n, action, None).await?;
    Ok(done())
}

// ---- sheets ----

/// The documentation of a score sheet (the rules engine's `ScoreSheet`).
#[allow(dead_code)]
#[derive(ToSchema)]
#[schema(as = ScoreSheet, example = json!({"hands": [{"end": "closure",
    "ns": {"clean": 1, "melded_points": 120, "closed": true, "took_pozzetto": true},
    "ew": {"hand_points": 30, "took_pozzetto": true}}]}))]
pub struct ScoreSheetDoc {
    /// One per hand of the round.
    hands: Vec<HandDoc>,
    /// The round totals the players wrote, if any.
    declared: Option<PerLineDoc>,
    /// `full` (default) or `totals` (hand totals only).
    mode: Option<String>,
}

#[allow(dead_code)]
#[derive(ToSchema)]
#[schema(as = Hand)]
pub struct HandDoc {
    /// `closure`, `stock_exhausted`, `time_out` or `stalemate`.
    end: String,
    ns: LineHandDoc,
    ew: LineHandDoc,
}

/// One line's entries for one hand; missing numbers are 0, flags false.
#[allow(dead_code)]
#[derive(ToSchema)]
#[schema(as = LineHand)]
pub struct LineHandDoc {
    clean: Option<i64>,
    semi_clean: Option<i64>,
    dirty: Option<i64>,
    #[schema(rename = "super")]
    super_: Option<i64>,
    royal: Option<i64>,
    melded_points: Option<i64>,
    hand_points: Option<i64>,
    closed: Option<bool>,
    took_pozzetto: Option<bool>,
}

#[allow(dead_code)]
#[derive(ToSchema)]
#[schema(as = PerLine)]
pub struct PerLineDoc {
    ns: i64,
    ew: i64,
}

/// A table's sheet as the desk enters it.
#[derive(Debug, Deserialize, ToSchema)]
pub struct SheetIn {
    #[schema(value_type = ScoreSheetDoc)]
    pub sheet: ScoreSheet,
    /// The referee accepts a wrong written total (with a reason).
    #[serde(default)]
    pub accept_mismatch: bool,
    /// The referee accepts a time-out hand before time-out was called.
    #[serde(default)]
    pub accept_time_out: bool,
    /// Needed for a correction or an accepted fault.
    #[serde(default)]
    pub reason: String,
    /// The version read (`getSheet`); absent for a first entry.
    #[serde(default)]
    pub version: Option<i32>,
}

/// A referee's adjusted score (RULES.md §9), replacing the sheet.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"ns_vp": 12, "ew_vp": 8, "reason": "table called late"}))]
pub struct AdjustedIn {
    pub ns_vp: i32,
    pub ew_vp: i32,
    #[serde(default)]
    pub ns_mp_diff: Option<i64>,
    #[serde(default)]
    pub ew_mp_diff: Option<i64>,
    pub reason: String,
    #[serde(default)]
    pub version: Option<i32>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AdjustedOut {
    pub ns_vp: Option<i32>,
    pub ew_vp: Option<i32>,
    pub ns_mp_diff: Option<i64>,
    pub ew_mp_diff: Option<i64>,
}

/// A table with its score, if any.
#[derive(Debug, Serialize, ToSchema)]
pub struct SheetOut {
    pub round: i32,
    pub table: i32,
    pub ns_pair: Option<i32>,
    pub ew_pair: Option<i32>,
    /// The sheet (absent: no score, or an adjusted score).
    #[schema(value_type = Option<ScoreSheetDoc>)]
    pub sheet: Option<ScoreSheet>,
    pub adjusted: Option<AdjustedOut>,
    pub ns_total: Option<i64>,
    pub ew_total: Option<i64>,
    pub ns_vp: Option<i32>,
    pub ew_vp: Option<i32>,
    pub accepted_mismatch: bool,
    pub note: String,
    /// Send it back with a correction (absent: nothing saved yet).
    pub version: Option<i32>,
}

async fn sheet_out(
    state: &AppState,
    actor: crate::services::Actor,
    tid: TournamentId,
    n: i32,
    table: i32,
) -> Result<SheetOut, ApiError> {
    let (l, ts, _) = services::scoring::table(&state.db, actor, tid, n, table).await?;
    let number = |pid: Option<crate::ids::PairId>| l.pair(pid).map(|p| p.number);
    let row: Option<&Sheet> = ts.sheet.as_ref();
    let sheet = row.and_then(|r| r.sheet.clone());
    Ok(SheetOut {
        round: n,
        table,
        ns_pair: number(ts.seating.ns_pair),
        ew_pair: number(ts.seating.ew_pair),
        sheet,
        adjusted: row.filter(|r| r.is_adjusted()).map(|r| AdjustedOut {
            ns_vp: r.adjusted_ns_vp,
            ew_vp: r.adjusted_ew_vp,
            ns_mp_diff: r.adjusted_ns_mp_diff,
            ew_mp_diff: r.adjusted_ew_mp_diff,
        }),
        ns_total: row.map(|r| r.ns_total),
        ew_total: row.map(|r| r.ew_total),
        ns_vp: row.map(|r| r.ns_vp),
        ew_vp: row.map(|r| r.ew_vp),
        accepted_mismatch: row.is_some_and(|r| r.accepted_mismatch),
        note: row.map(|r| r.note.clone()).unwrap_or_default(),
        version: row.map(|r| r.version),
    })
}

/// A table's score sheet.
#[utoipa::path(tag = "rounds", operation_id = "getSheet", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id"), ("n" = i32, Path, description = "Round number"),
        ("table" = i32, Path, description = "Table number")),
    responses((status = 200, description = "The table and its score", body = SheetOut)))]
#[get("/api/v1/tournaments/{id}/rounds/{n}/tables/{table}/sheet")]
pub async fn get_sheet(
    state: web::Data<AppState>,
    ApiStaff(actor): ApiStaff,
    path: web::Path<(crate::ids::TournamentId, i32, i32)>,
) -> Result<HttpResponse, ApiError> {
    let (tid, n, table) = path.into_inner();
    let out = sheet_out(&state, actor, tid, n, table).await?;
    Ok(json(StatusCode::OK, &out))
}

/// Saves a table's sheet if it passes the rules (nothing saved otherwise:
/// 422 `sheet_rejected`, each broken rule under its path).
#[utoipa::path(tag = "rounds", operation_id = "saveSheet", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id"), ("n" = i32, Path, description = "Round number"),
        ("table" = i32, Path, description = "Table number")),
    request_body = SheetIn,
    responses((status = 200, description = "Saved", body = SheetOut)))]
#[put("/api/v1/tournaments/{id}/rounds/{n}/tables/{table}/sheet")]
pub async fn save_sheet(
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiStaff(actor): ApiStaff,
    path: web::Path<(crate::ids::TournamentId, i32, i32)>,
    body: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let (tid, n, table) = path.into_inner();
    let input: SheetIn = parse_body(&req, body).await?;
    let sheet = SheetInput {
        sheet: input.sheet,
        accept_mismatch: input.accept_mismatch,
        accept_time_out: input.accept_time_out,
        reason: input.reason,
        version: input.version,
    };
    services::scoring::save_sheet(&state.db, actor, tid, n, table, sheet).await?;
    let out = sheet_out(&state, actor, tid, n, table).await?;
    Ok(json(StatusCode::OK, &out))
}

/// Sets an adjusted score for a table (RULES.md §9).
#[utoipa::path(tag = "rounds", operation_id = "setAdjustedScore", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id"), ("n" = i32, Path, description = "Round number"),
        ("table" = i32, Path, description = "Table number")),
    request_body = AdjustedIn,
    responses((status = 200, description = "Saved", body = SheetOut)))]
#[put("/api/v1/tournaments/{id}/rounds/{n}/tables/{table}/adjusted")]
pub async fn set_adjusted_score(
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiStaff(actor): ApiStaff,
    path: web::Path<(crate::ids::TournamentId, i32, i32)>,
    body: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let (tid, n, table) = path.into_inner();
    let input: AdjustedIn = parse_body(&req, body).await?;
    let opt = |v: Option<i64>| v.map(|n| n.to_string()).unwrap_or_default();
    let form = AdjustedForm {
        ns_vp: input.ns_vp.to_string(),
        ew_vp: input.ew_vp.to_string(),
        ns_mp_diff: opt(input.ns_mp_diff),
        ew_mp_diff: opt(input.ew_mp_diff),
        reason: input.reason,
        version: input.version.map(|v| v.to_string()).unwrap_or_default(),
    };
    services::scoring::set_adjusted(&state.db, actor, tid, n, table, form).await?;
    let out = sheet_out(&state, actor, tid, n, table).await?;
    Ok(json(StatusCode::OK, &out))
}

// ---- public ----

/// A pair's card as the public sees it: its line in the standings, its
/// prize, and every round (only the penalties that count, never who gave
/// them).
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
pub struct PairCardOut {
    pub tournament: TournamentId,
    /// Goes up with every change; the same revision is the same content.
    pub revision: i64,
    pub name: String,
    pub pair: u32,
    /// "Rossi Maria – Bianchi Luca".
    pub names: String,
    pub row: Option<crate::standings::Row>,
    pub prize: Option<crate::standings::Prize>,
    pub card: crate::standings::PairCard,
}

/// A pair's card, round by round (public, no token; cached per revision
/// and language with an ETag, like the public pages).
#[utoipa::path(tag = "public", operation_id = "getPairCard",
    params(("id" = i64, Path, description = "Tournament id"), ("number" = u32, Path, description = "Pair number")),
    responses((status = 200, description = "The card", body = PairCardOut),
        (status = 304, description = "Not modified (If-None-Match)")))]
#[get("/api/v1/tournaments/{id}/pairs/{number}/card")]
pub async fn get_pair_card(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(crate::ids::TournamentId, u32)>,
) -> Result<HttpResponse, ApiError> {
    let (tid, number) = path.into_inner();
    let lang = PageCtx::from_request(&req).lang;
    crate::web::cache::serve_public_json(
        &req,
        &state,
        tid,
        crate::web::cache::Page::PairJson(number),
        |snap, rev| {
            let (Some(file), Some(st)) = (snap.file.as_ref(), snap.standings.as_ref()) else {
                return Err(AppError::NotFound);
            };
            let mut card = st.card(number).ok_or(AppError::NotFound)?.clone();
            for r in &mut card.rounds {
                r.penalties.retain(crate::services::public::shows_in_public);
                for p in &mut r.penalties {
                    p.by = None;
                }
            }
            let body = PairCardOut {
                tournament: tid,
                revision: rev,
                name: file.name.clone(),
                pair: number,
                names: crate::services::public::pair_names(Some(file), number),
                row: st.row(number).cloned(),
                prize: st.prize(number).cloned(),
                card,
            };
            serde_json::to_string(&body).map_err(|e| AppError::Internal(e.into()))
        },
    )
    .await
    .map_err(|e| match e {
        AppError::NotFound => ApiError::from_service(ServiceError::NotFound, lang),
        e => {
            tracing::error!(error = %e, "pair card failed");
            ApiError::new(ErrorCode::Internal, "the card cannot be computed now")
        }
    })
}
