//! The OpenAPI document, generated from the handlers' `#[utoipa::path]`
//! annotations as they are registered ([`super::operations::register`]), plus the
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
        description = "Burraco tournaments, pairs and teams: everything staff do, as JSON. \
            Staff send `Authorization: Bearer TOKEN` (a token from `burraco-td create-token USERNAME`); \
            every error is `{\"error\": {\"code\", \"message\", \"fields\"?}}`."
    ),
    paths(
        crate::web::public::standings_json,
        crate::web::api::score::api_view,
        crate::web::api::score::api_sheet,
        crate::web::api::score::api_confirm,
        crate::web::tokens::me,
    ),
    components(schemas(super::reply::ErrorBody, super::reply::ErrorDetail)),
    tags(
        (name = "tournaments", description = "Create, set up, start, close"),
        (name = "pairs", description = "Registration and check-in"),
        (name = "teams", description = "Team tournaments: teams, team settings, line-ups"),
        (name = "players", description = "Individual tournaments: the players (RULES.md §14)"),
        (name = "rounds", description = "Rounds, clock, sheets, penalties"),
        (name = "public", description = "No token: standings and pair cards, cached by revision"),
        (name = "table-side", description = "Players score from the table with their pair code"),
        (name = "circuits", description = "Seasons: circuits of tournaments and their rankings"),
        (name = "rules", description = "The rules engine: pure computations"),
        (name = "tokens", description = "Who a personal API token acts as"),
    )
)]
struct ApiDoc;

const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// The operations registered by [`super::operations::register`], as utoipa collects them.
fn registered() -> utoipa::openapi::OpenApi {
    let (_, doc) = actix_web::App::new()
        .into_utoipa_app()
        .configure(super::operations::register)
        .split_for_parts();
    doc
}

/// The methods each path of the document takes (upper case; `HEAD` with
/// `GET`), the document's own path included, as path templates split in
/// segments (`{id}` matches any one segment).
fn methods_by_path() -> &'static Vec<(Vec<String>, Vec<String>)> {
    static PATHS: OnceLock<Vec<(Vec<String>, Vec<String>)>> = OnceLock::new();
    PATHS.get_or_init(|| {
        let mut out = vec![(segments_of("/api/openapi.json"), vec!["GET".to_string()])];
        if let Some(paths) = document_value().get("paths").and_then(Value::as_object) {
            for (path, item) in paths {
                let methods = METHODS
                    .iter()
                    .filter(|m| item.get(**m).is_some())
                    .map(|m| m.to_ascii_uppercase())
                    .collect();
                out.push((segments_of(path), methods));
            }
        }
        out
    })
}

fn segments_of(path: &str) -> Vec<String> {
    path.split('/').map(str::to_string).collect()
}

/// The methods `path` takes when the document has it, `None` when it does
/// not (a path of no operation: 404). When several templates match (a
/// literal segment and a parameter), every method of any of them.
pub fn allowed_methods(path: &str) -> Option<Vec<String>> {
    let segs: Vec<&str> = path.split('/').collect();
    let mut allowed: Option<Vec<String>> = None;
    for (template, methods) in methods_by_path() {
        let matches = template.len() == segs.len()
            && template.iter().zip(&segs).all(|(t, s)| {
                if t.starts_with('{') && t.ends_with('}') {
                    !s.is_empty()
                } else {
                    t == s
                }
            });
        if matches {
            let list = allowed.get_or_insert_with(Vec::new);
            for m in methods {
                if !list.contains(m) {
                    list.push(m.clone());
                }
            }
        }
    }
    if let Some(list) = allowed.as_mut() {
        if list.iter().any(|m| m == "GET") && !list.iter().any(|m| m == "HEAD") {
            list.push("HEAD".to_string());
        }
    }
    allowed
}

fn error_response(description: &str) -> Value {
    json!({
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}
    })
}

/// The whole document as JSON, built once.
pub fn document_value() -> &'static Value {
    static DOC: OnceLock<Value> = OnceLock::new();
    DOC.get_or_init(document)
}

/// Sets the bounds of the settings' numbers in their schemas.
fn set_bounds(v: &mut Value) {
    for (schema, field, min, max) in super::tournaments::schema_bounds() {
        let schema = &mut v["components"]["schemas"][schema];
        // A schema with a flattened part is an `allOf` of its pieces.
        let pieces: Vec<&mut Value> = match schema.get_mut("allOf") {
            Some(Value::Array(all)) => all.iter_mut().collect(),
            _ => vec![schema],
        };
        for piece in pieces {
            let Some(prop) = piece.get_mut("properties").and_then(|p| p.get_mut(field)) else {
                continue;
            };
            if prop.is_object() {
                prop["minimum"] = json!(min);
                prop["maximum"] = json!(max);
            }
        }
    }
}

/// The numbers of a request body outside the bounds its operation's
/// schema gives them (`minimum`, `maximum`, an `int32` format): each
/// field's path with a message. `pattern` is the route's path pattern.
pub fn check_bounds(
    pattern: Option<&str>,
    method: &actix_web::http::Method,
    body: &Value,
) -> Vec<(String, String)> {
    let doc = document_value();
    let Some(schema) = pattern.and_then(|p| {
        doc["paths"][p][method.as_str().to_ascii_lowercase()]["requestBody"]["content"]
            ["application/json"]["schema"]
            .as_object()
    }) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut path = Vec::new();
    walk(
        doc,
        &Value::Object(schema.clone()),
        body,
        &mut path,
        &mut out,
        0,
    );
    out
}

/// The schema a `$ref` names (`#/components/schemas/Name`).
fn resolve<'a>(doc: &'a Value, schema: &'a Value) -> &'a Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(r) => r
            .strip_prefix("#/")
            .map_or(&Value::Null, |p| p.split('/').fold(doc, |v, seg| &v[seg])),
        None => schema,
    }
}

fn walk(
    doc: &Value,
    schema: &Value,
    value: &Value,
    path: &mut Vec<String>,
    out: &mut Vec<(String, String)>,
    depth: usize,
) {
    if depth > 32 || value.is_null() {
        return;
    }
    let schema = resolve(doc, schema);
    for key in ["allOf", "oneOf", "anyOf"] {
        if let Some(branches) = schema.get(key).and_then(Value::as_array) {
            // An optional value (`oneOf: [null, X]`) or all branches at once.
            let real: Vec<&Value> = branches
                .iter()
                .filter(|b| b.get("type").and_then(Value::as_str) != Some("null"))
                .collect();
            if key == "allOf" || real.len() == 1 {
                for b in real {
                    walk(doc, b, value, path, out, depth + 1);
                }
            }
        }
    }
    match value {
        Value::Number(n) => {
            let Some(x) = n.as_f64() else { return };
            let mut min = schema.get("minimum").and_then(Value::as_f64);
            let mut max = schema.get("maximum").and_then(Value::as_f64);
            if schema.get("format").and_then(Value::as_str) == Some("int32") {
                min = Some(min.map_or(f64::from(i32::MIN), |m| m.max(f64::from(i32::MIN))));
                max = Some(max.map_or(f64::from(i32::MAX), |m| m.min(f64::from(i32::MAX))));
            }
            let field = super::body::display_path(path);
            if let Some(m) = min.filter(|m| x < *m) {
                out.push((field, format!("must be at least {m}")));
            } else if let Some(m) = max.filter(|m| x > *m) {
                out.push((field, format!("must be at most {m}")));
            }
        }
        Value::Object(map) => {
            if let Some(props) = schema.get("properties").and_then(Value::as_object) {
                for (k, v) in map {
                    if let Some(s) = props.get(k) {
                        path.push(k.clone());
                        walk(doc, s, v, path, out, depth + 1);
                        path.pop();
                    }
                }
            }
        }
        Value::Array(items) => {
            if let Some(s) = schema.get("items") {
                for (i, v) in items.iter().enumerate() {
                    path.push(i.to_string());
                    walk(doc, s, v, path, out, depth + 1);
                    path.pop();
                }
            }
        }
        _ => {}
    }
}

/// The whole document as JSON.
pub fn document() -> Value {
    let mut doc = registered();
    doc.merge(ApiDoc::openapi());
    doc.info = ApiDoc::openapi().info;
    doc.tags = ApiDoc::openapi().tags;
    let mut v = serde_json::to_value(doc).unwrap_or(Value::Null);
    v["info"]["version"] = json!(env!("CARGO_PKG_VERSION"));
    set_bounds(&mut v);
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
                    extra.push((
                        "408",
                        "The body did not arrive in time (the connection is closed)",
                    ));
                    extra.push(("413", "The body is too large"));
                    extra.push(("415", "The body is not application/json"));
                    extra.push((
                        "422",
                        "Invalid input: `fields` names each invalid field \
                         (a number outside its schema's bounds included)",
                    ));
                }
                if path.starts_with("/api/v1/score/") {
                    extra.push((
                        "429",
                        "Too many wrong codes from this address: wait `Retry-After` seconds",
                    ));
                }
                extra.push((
                    "405",
                    "Another method on this path: `Allow` names the methods it takes",
                ));
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
    let body = DOC.get_or_init(|| document_value().to_string());
    HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .content_type("application/json")
        .body(body.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::http::Method;

    #[test]
    fn numbers_outside_the_schema_are_named() {
        let body = json!({
            "name": "x",
            "planned_rounds": 2_147_483_648_u64,
            "hands_per_round": 3,
            "minutes_per_round": 5,
            "bye_vp": null,
            "payout": [{"min_entries": 1, "percents": ["100"]}, {"min_entries": 4_294_967_295_u64}],
        });
        let mut found = check_bounds(Some("/api/v1/tournaments/{id}"), &Method::PUT, &body);
        found.sort();
        assert_eq!(
            found,
            vec![
                (
                    "minutes_per_round".to_string(),
                    "must be at least 10".to_string()
                ),
                (
                    "payout[1].min_entries".to_string(),
                    "must be at most 1000".to_string()
                ),
                (
                    "planned_rounds".to_string(),
                    "must be at most 30".to_string()
                ),
            ]
        );
        // Within bounds, or a path without a body schema: nothing.
        let ok = json!({"planned_rounds": 4, "hands_per_round": 3});
        assert!(check_bounds(Some("/api/v1/tournaments/{id}"), &Method::PUT, &ok).is_empty());
        assert!(check_bounds(Some("/nowhere"), &Method::PUT, &body).is_empty());
        assert!(check_bounds(None, &Method::PUT, &body).is_empty());
    }

    #[test]
    fn an_int32_field_refuses_what_a_u32_would_take() {
        let doc = json!({});
        let schema = json!({"type": ["integer", "null"], "format": "int32", "minimum": 0});
        let mut out = Vec::new();
        walk(
            &doc,
            &schema,
            &json!(3_000_000_000_u64),
            &mut vec!["n".into()],
            &mut out,
            0,
        );
        assert_eq!(
            out,
            vec![("n".to_string(), "must be at most 2147483647".to_string())]
        );
    }

    #[test]
    fn the_methods_of_a_path_come_from_the_document() {
        assert_eq!(
            allowed_methods("/api/v1/tournaments/7"),
            Some(vec![
                "GET".to_string(),
                "PUT".to_string(),
                "HEAD".to_string()
            ])
        );
        assert_eq!(
            allowed_methods("/api/v1/rules/vp"),
            Some(vec!["POST".to_string()])
        );
        let score = allowed_methods("/api/v1/score/KX7MPA").unwrap();
        assert!(score.contains(&"GET".to_string()));
        assert_eq!(
            allowed_methods("/api/openapi.json"),
            Some(vec!["GET".to_string(), "HEAD".to_string()])
        );
        assert_eq!(allowed_methods("/api/v1/nothing"), None);
        assert_eq!(allowed_methods("/api/v1/tournaments//pairs"), None);
        // Every operation says what a refused body or method gets.
        let doc = document_value();
        let put = &doc["paths"]["/api/v1/tournaments/{id}"]["put"]["responses"];
        for status in ["405", "408", "413", "415", "422"] {
            assert!(put[status].is_object(), "{status}");
        }
    }
}
