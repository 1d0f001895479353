//! The JSON API of the rules engine: `POST /api/v1/rules/{check-sheet, meld,
//! vp, seat-draw, prizes}` with the same bodies as the CLI. Pure
//! computations: no login, no CSRF, nothing stored. Errors are
//! `{"error":{"code":…,"message":…}}` with 400 (unreadable) or 422 (a bad value).

use actix_web::http::StatusCode;
use actix_web::web::{self, Bytes};
use actix_web::HttpResponse;

use super::context::PageCtx;
use crate::i18n::Lang;
use crate::rules::{api, InputError};
use crate::web::error::ApiError;

fn body_text(body: &Bytes) -> Result<&str, ApiError> {
    std::str::from_utf8(body).map_err(|_| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid_json",
            "the body is not UTF-8 text",
        )
    })
}

fn reply<T: serde::Serialize>(result: Result<T, InputError>) -> Result<HttpResponse, ApiError> {
    match result {
        Ok(out) => Ok(HttpResponse::Ok().json(out)),
        Err(e) => Err(ApiError::new(
            StatusCode::from_u16(e.http_status()).unwrap_or(StatusCode::UNPROCESSABLE_ENTITY),
            e.code,
            e.message,
        )),
    }
}

type Engine<T> = fn(&str, Lang) -> Result<T, InputError>;

/// The engine answers in microseconds: it runs on the async worker.
async fn run<T: serde::Serialize>(
    ctx: PageCtx,
    body: Bytes,
    engine: Engine<T>,
) -> Result<HttpResponse, ApiError> {
    reply(engine(body_text(&body)?, ctx.lang))
}

pub async fn check_sheet(ctx: PageCtx, body: Bytes) -> Result<HttpResponse, ApiError> {
    run(ctx, body, api::check_sheet).await
}

pub async fn meld(ctx: PageCtx, body: Bytes) -> Result<HttpResponse, ApiError> {
    run(ctx, body, api::meld_json).await
}

pub async fn vp(ctx: PageCtx, body: Bytes) -> Result<HttpResponse, ApiError> {
    run(ctx, body, api::vp_json).await
}

pub async fn seat_draw(ctx: PageCtx, body: Bytes) -> Result<HttpResponse, ApiError> {
    run(ctx, body, api::seat_draw_json).await
}

pub async fn prizes(ctx: PageCtx, body: Bytes) -> Result<HttpResponse, ApiError> {
    run(ctx, body, api::prizes_json).await
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::scope("/api/v1/rules")
            .app_data(web::PayloadConfig::new(super::limits::API_JSON))
            .route("/check-sheet", web::post().to(check_sheet))
            .route("/meld", web::post().to(meld))
            .route("/vp", web::post().to(vp))
            .route("/seat-draw", web::post().to(seat_draw))
            .route("/prizes", web::post().to(prizes)),
    );
}
