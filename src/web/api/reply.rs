//! What the API answers with: the one error body, `{"ok": true}`, a JSON
//! response no cache keeps, and a service's error in the caller's language.

use std::collections::BTreeMap;

use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::HttpResponse;
use utoipa::ToSchema;

/// Every error: a stable code, a message and, for invalid input, the
/// message of each invalid field by its path.
#[derive(Debug, serde::Serialize, ToSchema)]
#[schema(example = json!({"error": {"code": "invalid_input", "message": "some fields are not valid",
    "fields": {"name": "missing field", "planned_rounds": "missing field"}}}))]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

#[derive(Debug, serde::Serialize, ToSchema)]
pub struct ErrorDetail {
    /// Stable, snake_case: `not_found`, `forbidden`, `unauthorized`,
    /// `invalid_input`, `invalid_json`, `sheet_rejected`, or the conflict's
    /// own code (`not_running`, `finished`, `too_late`…).
    pub code: String,
    pub message: String,
    /// Path of each invalid field → its message (422 only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fields: Option<BTreeMap<String, String>>,
}

/// An operation with no result to show: `{"ok": true}`.
#[derive(Debug, serde::Serialize, ToSchema)]
#[schema(example = json!({"ok": true}))]
pub struct Done {
    pub ok: bool,
}

pub fn done() -> HttpResponse {
    json(StatusCode::OK, &Done { ok: true })
}

/// A JSON response that no cache keeps (staff data).
pub fn json<T: serde::Serialize>(status: StatusCode, body: &T) -> HttpResponse {
    HttpResponse::build(status)
        .insert_header((header::CACHE_CONTROL, HeaderValue::from_static("no-store")))
        .json(body)
}
