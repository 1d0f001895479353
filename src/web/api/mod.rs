//! The JSON API under `/api/v1`: one operation per use case. Each handler
//! parses JSON into the domain's types, calls the service the web pages call
//! and serialises what comes back; errors are mapped once
//! (`From<ServiceError> for ApiError`: a handler's `?`). The OpenAPI document (`GET
//! /api/openapi.json`) is generated from these handlers by `utoipa` and
//! `utoipa-actix-web` (the same registration function builds the app's
//! routes and the document, so they cannot drift).

pub mod circuits;
pub mod openapi;
pub mod pairs;
pub mod penalties;
pub mod play;
pub mod rules;
pub mod score;
pub mod teams;
pub mod tournaments;

use std::collections::BTreeMap;

use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::web::{self, Bytes};
use actix_web::{HttpRequest, HttpResponse};
use serde::de::DeserializeOwned;
use serde_json::Value;
use utoipa::ToSchema;

use crate::web::error::{ApiError, ErrorCode};

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

/// Reads the whole body (the session layer already refused a declared
/// length over the API's limit; this cuts a chunked one).
pub async fn read_payload(payload: web::Payload) -> Result<Bytes, ApiError> {
    match payload.to_bytes_limited(super::limits::API_JSON).await {
        Ok(Ok(b)) => Ok(b),
        Ok(Err(e))
            if matches!(
                e.as_error::<actix_web::error::PayloadError>(),
                Some(actix_web::error::PayloadError::Overflow)
            ) =>
        {
            Err(too_large())
        }
        Err(_) => Err(too_large()),
        Ok(Err(_)) => Err(ApiError::new(
            ErrorCode::BadRequest,
            "the body could not be read",
        )),
    }
}

fn too_large() -> ApiError {
    ApiError::new(ErrorCode::PayloadTooLarge, "the body is too large")
}

/// Parses a JSON body into `T`, reporting **every** missing or mistyped
/// field together (path → message), not only the first: each failure is
/// recorded, the offending value is set aside and parsing goes on.
/// An empty body is `{}`. A content type other than JSON is 415.
pub async fn parse_body<T: DeserializeOwned>(
    req: &HttpRequest,
    payload: web::Payload,
) -> Result<T, ApiError> {
    if let Some(ct) = req.headers().get(header::CONTENT_TYPE) {
        let ct = ct.to_str().unwrap_or("").to_ascii_lowercase();
        let essence = ct.split(';').next().unwrap_or("").trim().to_string();
        if essence != "application/json" && !essence.ends_with("+json") {
            return Err(ApiError::new(
                ErrorCode::UnsupportedMediaType,
                "send the body as application/json",
            ));
        }
    }
    let body = read_payload(payload).await?;
    let value = json_value(&body)?;
    // Numbers outside the document's bounds are refused, naming the field,
    // even where the use case would not read them (a locked setting).
    let bounds = openapi::check_bounds(req.match_pattern().as_deref(), req.method(), &value);
    match from_value::<T>(value, body.len()) {
        Ok(t) if bounds.is_empty() => Ok(t),
        Ok(_) => Err(ApiError::invalid(
            "some values are outside what the schema allows",
            bounds,
        )),
        Err(mut e) => {
            if let Some(fields) = e.fields.as_mut() {
                for (path, message) in bounds {
                    fields.entry(path).or_insert(message);
                }
            }
            Err(e)
        }
    }
}

/// See [`parse_body`].
pub fn parse_json<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    from_value(json_value(body)?, body.len())
}

/// The body as JSON (an empty body is `{}`).
fn json_value(body: &[u8]) -> Result<Value, ApiError> {
    Ok(if body.iter().all(u8::is_ascii_whitespace) {
        Value::Object(Default::default())
    } else {
        serde_json::from_slice(body).map_err(|e| {
            ApiError::new(
                ErrorCode::InvalidJson,
                format!("the body is not valid JSON: {e}"),
            )
        })?
    })
}

fn from_value<T: DeserializeOwned>(value: Value, body_len: usize) -> Result<T, ApiError> {
    if body_len > LENIENT_MAX_BYTES {
        // A large body (a tournament file): the first problem only, so
        // that a hostile body cannot make the server parse it many times.
        return serde_path_to_error::deserialize::<_, T>(value).map_err(|e| {
            let path = display_path(&segments(e.path()));
            ApiError::invalid(
                "some fields are missing or not valid",
                vec![(path, e.inner().to_string())],
            )
        });
    }
    lenient::<T>(value)
}

/// Bodies up to this size get every problem reported at once.
const LENIENT_MAX_BYTES: usize = 64 * 1024;

/// Placeholders tried for a value that is missing or of the wrong type, so
/// that parsing can go on to the next field.
fn placeholders() -> [Value; 6] {
    [
        Value::from(0),
        Value::from(""),
        Value::from(false),
        Value::Array(Vec::new()),
        Value::Object(Default::default()),
        Value::Null,
    ]
}

fn segments(path: &serde_path_to_error::Path) -> Vec<String> {
    path.iter()
        .filter_map(|s| match s {
            serde_path_to_error::Segment::Map { key } => Some(key.clone()),
            serde_path_to_error::Segment::Seq { index } => Some(index.to_string()),
            serde_path_to_error::Segment::Enum { variant } => Some(variant.clone()),
            serde_path_to_error::Segment::Unknown => None,
        })
        .collect()
}

fn slot<'v>(v: &'v mut Value, path: &[String]) -> Option<&'v mut Value> {
    let mut cur = v;
    for seg in path {
        cur = match cur {
            Value::Object(m) => m.get_mut(seg)?,
            Value::Array(a) => a.get_mut(seg.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(cur)
}

fn display_path(path: &[String]) -> String {
    let mut s = String::new();
    for seg in path {
        if seg.parse::<usize>().is_ok() {
            s.push_str(&format!("[{seg}]"));
        } else {
            if !s.is_empty() {
                s.push('.');
            }
            s.push_str(seg);
        }
    }
    if s.is_empty() {
        "body".into()
    } else {
        s
    }
}

fn missing_field(msg: &str) -> Option<String> {
    let rest = msg.strip_prefix("missing field `")?;
    Some(rest.split('`').next()?.to_string())
}

fn lenient<T: DeserializeOwned>(mut value: Value) -> Result<T, ApiError> {
    let mut fields: Vec<(String, String)> = Vec::new();
    // Each round fixes one field; a body has far fewer fields than this.
    for _ in 0..64 {
        let err = match serde_path_to_error::deserialize::<_, T>(value.clone()) {
            Ok(t) if fields.is_empty() => return Ok(t),
            Ok(_) => break,
            Err(e) => e,
        };
        let mut path = segments(err.path());
        let msg = err.inner().to_string();
        let target = match missing_field(&msg) {
            Some(name) => {
                path.push(name);
                fields.push((display_path(&path), "missing field".into()));
                let (parent, last) = path.split_at(path.len() - 1);
                match slot(&mut value, parent) {
                    Some(Value::Object(m)) => {
                        m.insert(last[0].clone(), Value::Null);
                        path.clone()
                    }
                    _ => break,
                }
            }
            None => {
                let text = msg.split(" at line ").next().unwrap_or(&msg).to_string();
                fields.push((display_path(&path), text));
                path.clone()
            }
        };
        if path.is_empty() {
            // The body itself is of the wrong type: nothing to go on with.
            break;
        }
        // Find a placeholder past which parsing moves on.
        let mut moved = false;
        for p in placeholders() {
            let Some(s) = slot(&mut value, &target) else {
                break;
            };
            *s = p;
            match serde_path_to_error::deserialize::<_, T>(value.clone()) {
                Ok(_) => {
                    moved = true;
                    break;
                }
                Err(e)
                    if segments(e.path()) != target
                        || missing_field(&e.inner().to_string()).is_some() =>
                {
                    moved = true;
                    break;
                }
                Err(_) => {}
            }
        }
        if !moved {
            break;
        }
    }
    if fields.is_empty() {
        fields.push(("body".into(), "not the expected shape".into()));
    }
    Err(ApiError::invalid(
        "some fields are missing or not valid",
        fields,
    ))
}

/// Registers every documented operation (the app and the document both
/// come from here).
pub fn register(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(rules::check_sheet)
        .service(rules::meld)
        .service(rules::vp)
        .service(rules::seat_draw)
        .service(rules::prizes)
        .service(tournaments::list_tournaments)
        .service(tournaments::create_tournament)
        .service(tournaments::import_tournament)
        .service(tournaments::get_tournament)
        .service(tournaments::update_tournament)
        .service(tournaments::close_tournament)
        .service(tournaments::reopen_tournament)
        .service(tournaments::start_tournament)
        .service(tournaments::redraw_tournament)
        .service(tournaments::export_tournament)
        .service(pairs::list_pairs)
        .service(pairs::add_pair)
        .service(pairs::import_pairs_csv)
        .service(pairs::update_pair)
        .service(pairs::check_in_pair)
        .service(pairs::withdraw_pair)
        .service(play::next_round)
        .service(play::get_round)
        .service(play::clock_action)
        .service(play::get_sheet)
        .service(play::save_sheet)
        .service(play::set_adjusted_score)
        .service(penalties::list_penalties)
        .service(penalties::add_penalty)
        .service(penalties::withdraw_penalty)
        .service(penalties::reinstate_penalty)
        .service(play::get_pair_card)
        .service(teams::list_teams)
        .service(teams::add_team)
        .service(teams::check_in_team)
        .service(teams::withdraw_team)
        .service(teams::update_team_settings)
        .service(teams::set_lineup)
        .service(teams::submit_lineup)
        .service(teams::get_team_card)
        .service(circuits::list_circuits)
        .service(circuits::create_circuit)
        .service(circuits::get_circuit)
        .service(circuits::update_circuit)
        .service(circuits::delete_circuit)
        .service(circuits::add_circuit_stage)
        .service(circuits::remove_circuit_stage)
        .service(circuits::get_circuit_standings)
        .service(circuits::get_season_card);
}

/// The API's routes: the operations and the document. Another method on a
/// documented path answers 405 with `Allow` (`web::doors::gate`, for every
/// path under `/api/`, whichever module serves it).
pub fn routes(cfg: &mut web::ServiceConfig) {
    register(&mut utoipa_actix_web::service_config::ServiceConfig::new(
        cfg,
    ));
    cfg.route(
        crate::web::registry::noted("GET", "", "/api/openapi.json"),
        web::get().to(openapi::serve),
    );
}
