//! Reading a JSON body: the whole payload under the API's limit, parsed
//! into the operation's type with every invalid field reported together,
//! and the numbers checked against the bounds of the OpenAPI document
//! ([`SchemaBounds`], which `api::routes` puts in the app's data: the
//! document is built from the handlers that parse with this module).

use actix_web::http::header;
use actix_web::http::Method;
use actix_web::web::{self, Bytes};
use actix_web::HttpRequest;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::web::error::{ApiError, ErrorCode};
use crate::web::limits;

/// The check of a body's numbers against the document's bounds: the
/// request's route pattern, its method and the body → each field outside
/// its bounds with its message.
#[derive(Clone, Copy)]
pub struct SchemaBounds(pub BoundsCheck);

/// See [`SchemaBounds`]: each field outside its bounds, with its message.
pub type BoundsCheck = fn(Option<&str>, &Method, &Value) -> Vec<(String, String)>;

/// Reads the whole body (the session layer already refused a declared
/// length over the API's limit; this cuts a chunked one).
pub async fn read_payload(payload: web::Payload) -> Result<Bytes, ApiError> {
    match payload.to_bytes_limited(limits::API_JSON).await {
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
    let bounds = match req.app_data::<SchemaBounds>() {
        Some(check) => (check.0)(req.match_pattern().as_deref(), req.method(), &value),
        None => Vec::new(),
    };
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

pub(super) fn display_path(path: &[String]) -> String {
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
