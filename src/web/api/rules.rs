//! The rules engine over JSON: `POST /api/v1/rules/{check-sheet, meld, vp,
//! seat-draw, prizes}` with the same bodies as the CLI. Pure computations:
//! no login, no CSRF, nothing stored.

use actix_web::{post, web, HttpResponse};

use super::body::read_payload;
use super::reply::ErrorBody;
use crate::i18n::Lang;
use crate::rules::{api, InputError};
use crate::web::context::PageCtx;
use crate::web::error::{ApiError, ErrorCode};

fn reply<T: serde::Serialize>(result: Result<T, InputError>) -> Result<HttpResponse, ApiError> {
    match result {
        Ok(out) => Ok(HttpResponse::Ok().json(out)),
        Err(e) => Err(ApiError::new(ErrorCode::of_rules(e.code), e.message)),
    }
}

type Engine<T> = fn(&str, Lang) -> Result<T, InputError>;

/// The engine answers in microseconds: it runs on the async worker.
async fn run<T: serde::Serialize>(
    ctx: PageCtx,
    payload: web::Payload,
    engine: Engine<T>,
) -> Result<HttpResponse, ApiError> {
    let body = read_payload(payload).await?;
    let text = std::str::from_utf8(&body)
        .map_err(|_| ApiError::new(ErrorCode::InvalidJson, "the body is not UTF-8 text"))?;
    reply(engine(text, ctx.lang))
}

/// Checks a score sheet against the rules (RULES.md §4).
#[utoipa::path(tag = "rules", operation_id = "checkSheet",
    request_body(content = crate::rules::api::CheckSheetInput, description = "As `burraco-td check-sheet`: profile, hands, scale, sheet.",
        example = json!({"hands_per_round": 1, "vp_scale": [5, 10, 15, 20, 25, 30, 35, 40, 45, 50], "hands": [{"end": "closure", "ns": {"clean": 1, "melded_points": 120, "closed": true, "took_pozzetto": true}, "ew": {"hand_points": 30, "took_pozzetto": true}}]})),
    responses((status = 200, description = "The engine's report", body = crate::rules::api::CheckSheetOutput),
        (status = 400, description = "Not JSON", body = ErrorBody),
        (status = 413, description = "Body too large", body = ErrorBody),
        (status = 422, description = "A value the engine refuses", body = ErrorBody)))]
#[post("/api/v1/rules/check-sheet")]
pub async fn check_sheet(ctx: PageCtx, body: web::Payload) -> Result<HttpResponse, ApiError> {
    run(ctx, body, api::check_sheet).await
}

/// Reads a meld: valid or not, its burraco type and points.
#[utoipa::path(tag = "rules", operation_id = "readMeld",
    request_body(content = crate::rules::api::MeldBody, example = json!({"cards": ["5H", "6H", "7H"]})),
    responses((status = 200, description = "The meld", body = crate::rules::api::MeldOutput),
        (status = 400, description = "Not JSON", body = ErrorBody),
        (status = 413, description = "Body too large", body = ErrorBody),
        (status = 422, description = "A value the engine refuses", body = ErrorBody)))]
#[post("/api/v1/rules/meld")]
pub async fn meld(ctx: PageCtx, body: web::Payload) -> Result<HttpResponse, ApiError> {
    run(ctx, body, api::meld_json).await
}

/// Converts an MP difference to victory points.
#[utoipa::path(tag = "rules", operation_id = "convertVp",
    request_body(content = crate::rules::api::VpBody, example = json!({"difference": 215, "hands": 3})),
    responses((status = 200, description = "The VP of both lines", body = crate::rules::api::VpOutput),
        (status = 400, description = "Not JSON", body = ErrorBody),
        (status = 413, description = "Body too large", body = ErrorBody),
        (status = 422, description = "A value the engine refuses", body = ErrorBody)))]
#[post("/api/v1/rules/vp")]
pub async fn vp(ctx: PageCtx, body: web::Payload) -> Result<HttpResponse, ApiError> {
    run(ctx, body, api::vp_json).await
}

/// The seat draw at a table (RULES.md §8).
#[utoipa::path(tag = "rules", operation_id = "seatDraw",
    request_body(content = crate::rules::api::SeatDrawBody, example = json!({"cards": ["AS", "7H", "KD", "2C"]})),
    responses((status = 200, description = "Seats and dealer", body = crate::rules::seat_draw::SeatDraw),
        (status = 400, description = "Not JSON", body = ErrorBody),
        (status = 413, description = "Body too large", body = ErrorBody),
        (status = 422, description = "A value the engine refuses", body = ErrorBody)))]
#[post("/api/v1/rules/seat-draw")]
pub async fn seat_draw(ctx: PageCtx, body: web::Payload) -> Result<HttpResponse, ApiError> {
    run(ctx, body, api::seat_draw_json).await
}

/// Splits a prize pool (RULES.md §10).
#[utoipa::path(tag = "rules", operation_id = "splitPrizes",
    request_body(content = crate::rules::api::PrizesBody, example = json!({"entries": 20, "entry_fee": "10", "prize_share_percent": "70", "scheme": ["50", "30", "20"]})),
    responses((status = 200, description = "The prizes", body = crate::rules::api::PrizesOutput),
        (status = 400, description = "Not JSON", body = ErrorBody),
        (status = 413, description = "Body too large", body = ErrorBody),
        (status = 422, description = "A value the engine refuses", body = ErrorBody)))]
#[post("/api/v1/rules/prizes")]
pub async fn prizes(ctx: PageCtx, body: web::Payload) -> Result<HttpResponse, ApiError> {
    run(ctx, body, api::prizes_json).await
}
