//! The OpenAPI document, generated from the handlers' `#[utoipa::path]`
//! annotations as they are registered ([`super::register`]), plus the
//! operations other web modules serve (`getStandings`, the table-side
//! score API). Every operation gets the error responses it can give (the
//! one error body), and the bearer security scheme is declared once.

use std::sync::OnceLock;

use actix_web::http::header;
use actix_web::HttpResponse;
use serde_json::{json, Value};
use utoipa::OpenApi;
use utoipa_actix_web::AppExt;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "burraco-td",
        description = "Burraco pairs tournaments: everything staff do, as JSON. \
            Staff send `Authorization: Bearer TOKEN` (a token from `burraco-td create-token USERNAME`); \
            every error is `{\"error\": {\"code\", \"message\", \"fields\"?}}`."
    ),
    paths(
        crate::web::public::standings_json,
        crate::web::table_side::api_view,
        crate::web::table_side::api_sheet,
        crate::web::table_side::api_confirm,
        crate::web::tokens::me,
    ),
    components(schemas(super::ErrorBody, super::ErrorDetail)),
    tags(
        (name = "tournaments", description = "Create, set up, start, close"),
        (name = "pairs", description = "Registration and check-in"),
        (name = "rounds", description = "Rounds, clock, sheets, penalties"),
        (name = "public", description = "No token: standings and pair cards, cached by revision"),
        (name = "table-side", description = "Players score from the table with their pair code"),
        (name = "rules", description = "The rules engine: pure computations"),
        (name = "tokens", description = "Who a personal API token acts as"),
    )
)]
struct ApiDoc;

const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// The operations registered by [`super::register`], as utoipa collects them.
fn registered() -> utoipa::openapi::OpenApi {
    let (_, doc) = actix_web::App::new()
        .into_utoipa_app()
        .configure(super::register)
        .split_for_parts();
    doc
}

/// The paths this module registers, with their methods (upper case).
pub fn own_paths() -> Vec<(String, Vec<String>)> {
    let doc = serde_json::to_value(registered()).unwrap_or(Value::Null);
    let mut out = Vec::new();
    if let Some(paths) = doc.get("paths").and_then(Value::as_object) {
        for (path, item) in paths {
            let methods = METHODS
                .iter()
                .filter(|m| item.get(**m).is_some())
                .map(|m| m.to_ascii_uppercase())
                .collect();
            out.push((path.clone(), methods));
        }
    }
    out
}

fn error_response(description: &str) -> Value {
    json!({
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}
    })
}

/// The whole document as JSON.
pub fn document() -> Value {
    let mut doc = registered();
    doc.merge(ApiDoc::openapi());
    doc.info = ApiDoc::openapi().info;
    doc.tags = ApiDoc::openapi().tags;
    let mut v = serde_json::to_value(doc).unwrap_or(Value::Null);
    v["info"]["version"] = json!(env!("CARGO_PKG_VERSION"));
    v["components"]["securitySchemes"] = json!({
        "bearer": {"type": "http", "scheme": "bearer",
            "description": "A personal API token: `burraco-td create-token USERNAME`."}
    });
    if let Some(paths) = v.get_mut("paths").and_then(Value::as_object_mut) {
        for (path, item) in paths.iter_mut() {
            let has_params = path.contains('{');
            for m in METHODS {
                let Some(op) = item.get_mut(m).and_then(Value::as_object_mut) else {
                    continue;
                };
                let secured = op.get("security").is_some();
                let has_body = op.get("requestBody").is_some();
                let writes = m != "get";
                let mut extra: Vec<(&str, &str)> = Vec::new();
                if has_body {
                    extra.push(("400", "The body is not JSON"));
                    extra.push(("413", "The body is too large"));
                    extra.push(("415", "The body is not application/json"));
                    extra.push(("422", "Invalid input: `fields` names each invalid field"));
                }
                if secured {
                    extra.push(("401", "No token, or not a valid one"));
                    extra.push(("403", "The token's role does not allow this"));
                }
                if has_params || secured {
                    extra.push(("404", "Does not exist, or is not the caller's"));
                }
                if writes && secured {
                    extra.push(("409", "Not possible in the current state"));
                }
                extra.push(("503", "The database is busy; try again"));
                let responses = op
                    .entry("responses")
                    .or_insert_with(|| json!({}))
                    .as_object_mut();
                if let Some(responses) = responses {
                    for (status, description) in extra {
                        responses
                            .entry(status.to_string())
                            .or_insert_with(|| error_response(description));
                    }
                }
            }
        }
    }
    v
}

/// `GET /api/openapi.json`.
pub async fn serve() -> HttpResponse {
    static DOC: OnceLock<String> = OnceLock::new();
    let body = DOC.get_or_init(|| document().to_string());
    HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .content_type("application/json")
        .body(body.clone())
}
