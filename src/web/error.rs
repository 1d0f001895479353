//! Expected failures, mapped once: to a styled HTML page (in the visitor's
//! language, by `web::errors`) or, for the JSON API, to
//! `{"error":{"code":…,"message":…}}`.

use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};

pub use super::error_code::ErrorCode;
use crate::i18n::Lang;
use crate::services::{Conflict, Refusal, ServiceError, SheetRejection};
use crate::tournament::FieldProblem;

/// What an error page says: catalog keys, filled in by `web::errors`.
#[derive(Debug, Clone)]
pub struct ErrorInfo {
    pub title_key: &'static str,
    pub message_key: &'static str,
    /// A number of seconds to wait, for throttled requests.
    pub wait_seconds: Option<u64>,
    /// What exactly cannot happen, when the message says more than the key.
    pub detail: Option<Detail>,
}

/// The specific message of an error page.
#[derive(Debug, Clone)]
pub enum Detail {
    Conflict(Conflict),
    Problems(Vec<FieldProblem>),
}

impl Detail {
    pub fn message(&self, lang: crate::i18n::Lang) -> String {
        match self {
            Detail::Conflict(c) => c.message(lang),
            Detail::Problems(p) => p
                .iter()
                .map(|p| p.message(lang))
                .collect::<Vec<_>>()
                .join(" "),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("not found")]
    NotFound,
    #[error("this page needs a login")]
    LoginRequired { next: String },
    #[error("your role does not allow this")]
    Forbidden,
    #[error("the form's security token is missing or invalid")]
    Csrf,
    #[error("too many failed attempts")]
    TooManyAttempts { wait_seconds: u64 },
    /// Too many password checks at once (the hasher's bound): 503.
    #[error("too many password checks at once")]
    Busy { wait_seconds: u64 },
    #[error("bad request: {0}")]
    BadRequest(&'static str),
    #[error("conflict: {0:?}")]
    Conflict(Conflict),
    #[error("invalid input: {0:?}")]
    Invalid(Vec<FieldProblem>),
    #[error("stored data cannot be read: {0}")]
    Corrupt(String),
    /// The database could not be reached in time: 503, try again.
    #[error("the database is busy")]
    Unavailable,
    /// The database failed (a query, a connection): 500, logged.
    #[error(transparent)]
    Storage(ServiceError),
    #[error("template error: {0}")]
    Template(#[from] askama::Error),
    #[error("a background task failed: {0}")]
    Blocking(#[from] actix_web::error::BlockingError),
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl From<ServiceError> for AppError {
    fn from(e: ServiceError) -> Self {
        match e {
            ServiceError::NotFound => AppError::NotFound,
            ServiceError::Forbidden => AppError::Forbidden,
            ServiceError::Conflict(c) => AppError::Conflict(c),
            ServiceError::Invalid(p) => AppError::Invalid(p),
            ServiceError::Sheet(r) => AppError::Invalid(r.problems),
            ServiceError::Unreadable(_) => AppError::BadRequest("error.bad_request.message"),
            ServiceError::Throttled { wait_seconds } => AppError::TooManyAttempts { wait_seconds },
            // A twin's answer was stored first: the entry changed.
            ServiceError::Replay => {
                AppError::Conflict(Conflict::Refused(Refusal::EntryChanged, Vec::new()))
            }
            ServiceError::Corrupt(what) => AppError::Corrupt(what),
            e @ ServiceError::Db(_) if e.is_unavailable() => AppError::Unavailable,
            e @ ServiceError::Db(_) => AppError::Storage(e),
        }
    }
}

impl From<crate::auth::password::Busy> for AppError {
    fn from(b: crate::auth::password::Busy) -> Self {
        AppError::Busy {
            wait_seconds: crate::services::brakes::wait_seconds(b.retry_after),
        }
    }
}

impl AppError {
    pub fn info(&self) -> ErrorInfo {
        let (title_key, message_key) = match self {
            AppError::NotFound => ("error.not_found.title", "error.not_found.message"),
            AppError::LoginRequired { .. } => {
                ("error.login_required.title", "error.login_required.message")
            }
            AppError::Forbidden => ("error.forbidden.title", "error.forbidden.message"),
            AppError::Csrf => ("error.csrf.title", "error.csrf.message"),
            AppError::TooManyAttempts { .. } => {
                ("error.throttled.title", "error.throttled.message")
            }
            AppError::Busy { .. } => ("error.busy.title", "error.busy.message"),
            AppError::BadRequest(key) => ("error.bad_request.title", *key),
            AppError::Conflict(_) => ("error.conflict.title", "error.conflict.message"),
            AppError::Invalid(_) => ("error.bad_request.title", "error.bad_request.message"),
            AppError::Unavailable => ("error.unavailable.title", "error.unavailable.message"),
            _ => ("error.internal.title", "error.internal.message"),
        };
        ErrorInfo {
            title_key,
            message_key,
            wait_seconds: match self {
                AppError::TooManyAttempts { wait_seconds } | AppError::Busy { wait_seconds } => {
                    Some(*wait_seconds)
                }
                _ => None,
            },
            detail: match self {
                AppError::Conflict(c) => Some(Detail::Conflict(c.clone())),
                AppError::Invalid(p) => Some(Detail::Problems(p.clone())),
                _ => None,
            },
        }
    }
}

impl AppError {
    /// The error's code (and so its one status); a login that is needed
    /// is a redirect, not an error code.
    pub fn code(&self) -> Option<ErrorCode> {
        Some(match self {
            AppError::NotFound => ErrorCode::NotFound,
            AppError::LoginRequired { .. } => return None,
            AppError::Forbidden => ErrorCode::Forbidden,
            AppError::Csrf => ErrorCode::Csrf,
            AppError::TooManyAttempts { .. } => ErrorCode::TooManyAttempts,
            AppError::Busy { .. } => ErrorCode::Busy,
            AppError::BadRequest(_) => ErrorCode::BadRequest,
            AppError::Conflict(c) => ErrorCode::of_conflict(c),
            AppError::Invalid(_) => ErrorCode::InvalidInput,
            AppError::Unavailable => ErrorCode::Unavailable,
            _ => ErrorCode::Internal,
        })
    }
}

impl ResponseError for AppError {
    fn status_code(&self) -> StatusCode {
        self.code()
            .map_or(StatusCode::SEE_OTHER, |code| code.status())
    }

    fn error_response(&self) -> HttpResponse {
        let status = self.status_code();
        if status.is_server_error() && !matches!(self, AppError::Busy { .. }) {
            tracing::error!(error = %self, "request failed");
        }
        if let AppError::LoginRequired { next } = self {
            let target = format!("/login?next={}", encode_query(next));
            return HttpResponse::SeeOther()
                .insert_header((header::LOCATION, target))
                .finish();
        }
        let mut res = HttpResponse::build(status);
        if let AppError::TooManyAttempts { wait_seconds } | AppError::Busy { wait_seconds } = self {
            if let Ok(v) = HeaderValue::from_str(&wait_seconds.to_string()) {
                res.insert_header((header::RETRY_AFTER, v));
            }
        }
        let mut res = res.finish();
        res.extensions_mut().insert(self.info());
        res
    }
}

/// An error of the JSON API: `{"error": {"code", "message", "fields"?}}`,
/// a stable snake_case code (with its one status: [`ErrorCode`]), a plain
/// message and, for invalid input, each invalid field's path with its
/// message.
///
/// A service's error becomes one with `?` ([`From<ServiceError>`]): what
/// it says is kept ([`Said`]) and put into words in the request's language
/// when the response is made (`web::errors`).
#[derive(Debug, thiserror::Error)]
#[error("{}: {message}", code.code())]
pub struct ApiError {
    pub code: ErrorCode,
    pub message: String,
    pub fields: Option<std::collections::BTreeMap<String, String>>,
    said: Option<Said>,
}

/// What a service's error says, kept until the request's language is known.
#[derive(Debug, Clone)]
pub enum Said {
    Conflict(Conflict),
    Invalid(Vec<FieldProblem>),
    Sheet(Box<SheetRejection>),
}

impl Said {
    /// The JSON error in `lang`.
    pub fn in_lang(&self, lang: Lang) -> ApiError {
        match self {
            Said::Conflict(c) => ApiError::new(ErrorCode::of_conflict(c), c.message(lang)),
            Said::Invalid(problems) => ApiError::invalid(
                "some fields are not valid",
                problems
                    .iter()
                    .map(|p| (p.field.to_string(), p.message(lang)))
                    .collect(),
            ),
            Said::Sheet(r) => {
                let mut fields: Vec<(String, String)> = r
                    .problems
                    .iter()
                    .map(|p| (p.field.to_string(), p.message(lang)))
                    .collect();
                for v in &r.report.violations {
                    let mut path = "sheet".to_string();
                    if let Some(h) = v.hand {
                        path.push_str(&format!(".hands[{}]", h.saturating_sub(1)));
                    }
                    match v.line {
                        Some(crate::rules::Line::Ns) => path.push_str(".ns"),
                        Some(crate::rules::Line::Ew) => path.push_str(".ew"),
                        None => {}
                    }
                    fields.push((path, v.message(lang)));
                }
                let mut e =
                    ApiError::invalid("the sheet breaks the rules; nothing was saved", fields);
                e.code = ErrorCode::SheetRejected;
                e
            }
        }
    }
}

impl ApiError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        ApiError {
            code,
            message: message.into(),
            fields: None,
            said: None,
        }
    }

    /// 422 with a message per invalid field (path → message).
    pub fn invalid(message: impl Into<String>, fields: Vec<(String, String)>) -> Self {
        let mut map = std::collections::BTreeMap::new();
        for (path, msg) in fields {
            map.entry(path)
                .and_modify(|m: &mut String| {
                    m.push(' ');
                    m.push_str(&msg);
                })
                .or_insert(msg);
        }
        ApiError {
            code: ErrorCode::InvalidInput,
            message: message.into(),
            fields: Some(map),
            said: None,
        }
    }

    /// Every [`ServiceError`], mapped once for the JSON API (messages in `lang`).
    pub fn from_service(e: ServiceError, lang: Lang) -> Self {
        let mut out = ApiError::from(e);
        if let Some(said) = out.said.take() {
            out = said.in_lang(lang);
        }
        out
    }

    /// What a service's error says, to be put into words in the request's
    /// language.
    pub fn said(&self) -> Option<&Said> {
        self.said.as_ref()
    }
}

impl From<ServiceError> for ApiError {
    fn from(e: ServiceError) -> Self {
        let said = match e {
            ServiceError::NotFound => {
                return ApiError::new(ErrorCode::NotFound, "no such resource, or not yours to see")
            }
            ServiceError::Forbidden => {
                return ApiError::new(ErrorCode::Forbidden, "your role does not allow this")
            }
            ServiceError::Conflict(c) => Said::Conflict(c),
            // A twin's answer was stored first: the entry changed.
            ServiceError::Replay => {
                Said::Conflict(Conflict::Refused(Refusal::EntryChanged, Vec::new()))
            }
            ServiceError::Invalid(problems) => Said::Invalid(problems),
            ServiceError::Sheet(r) => Said::Sheet(r),
            ServiceError::Unreadable(i) => {
                return ApiError::new(ErrorCode::of_rules(i.code), i.message)
            }
            ServiceError::Throttled { .. } => {
                return ApiError::new(ErrorCode::TooManyAttempts, "too many attempts; wait")
            }
            e if e.is_unavailable() => {
                return ApiError::new(ErrorCode::Unavailable, "the database is busy; try again")
            }
            e => {
                tracing::error!(error = %e, "API request failed");
                return ApiError::new(ErrorCode::Internal, "something went wrong on the server");
            }
        };
        let mut out = said.in_lang(Lang::default());
        out.said = Some(said);
        out
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.code.status()
    }

    fn error_response(&self) -> HttpResponse {
        let mut error = serde_json::json!({"code": self.code.code(), "message": self.message});
        if let Some(fields) = &self.fields {
            error["fields"] = serde_json::json!(fields);
        }
        let mut res = HttpResponse::build(self.code.status())
            .insert_header((header::CACHE_CONTROL, "no-store"))
            .json(serde_json::json!({ "error": error }));
        if let Some(said) = &self.said {
            res.extensions_mut().insert(said.clone());
        }
        res
    }
}

/// `s` as one query-string value (percent-encoded).
pub fn encode_query(s: &str) -> String {
    serde_urlencoded::to_string([("v", s)])
        .map(|q| q.trim_start_matches("v=").to_string())
        .unwrap_or_default()
}
