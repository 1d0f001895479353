//! Expected failures, mapped once: to a styled HTML page (in the visitor's
//! language, by `web::errors`) or, for the JSON API, to
//! `{"error":{"code":…,"message":…}}`.

use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};

use crate::db::DbError;
use crate::services::{Conflict, ServiceError};
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
    #[error("bad request: {0}")]
    BadRequest(&'static str),
    #[error("conflict: {0:?}")]
    Conflict(Conflict),
    #[error("invalid input: {0:?}")]
    Invalid(Vec<FieldProblem>),
    #[error("stored data cannot be read: {0}")]
    Corrupt(String),
    #[error(transparent)]
    Db(#[from] DbError),
    #[error("template error: {0}")]
    Template(#[from] askama::Error),
    #[error("a background task failed: {0}")]
    Blocking(#[from] actix_web::error::BlockingError),
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl From<diesel::result::Error> for AppError {
    fn from(e: diesel::result::Error) -> Self {
        AppError::Db(DbError::Query(e))
    }
}

impl From<ServiceError> for AppError {
    fn from(e: ServiceError) -> Self {
        match e {
            ServiceError::NotFound => AppError::NotFound,
            ServiceError::Forbidden => AppError::Forbidden,
            ServiceError::Conflict(c) => AppError::Conflict(c),
            ServiceError::Invalid(p) => AppError::Invalid(p),
            ServiceError::Sheet(r) => AppError::Invalid(r.problems),
            ServiceError::Corrupt(what) => AppError::Corrupt(what),
            ServiceError::Db(e) => AppError::Db(e),
        }
    }
}

impl From<diesel::r2d2::PoolError> for AppError {
    fn from(e: diesel::r2d2::PoolError) -> Self {
        AppError::Db(DbError::Pool(e))
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
            AppError::BadRequest(key) => ("error.bad_request.title", *key),
            AppError::Conflict(_) => ("error.conflict.title", "error.conflict.message"),
            AppError::Invalid(_) => ("error.bad_request.title", "error.bad_request.message"),
            AppError::Db(DbError::Pool(_)) => {
                ("error.unavailable.title", "error.unavailable.message")
            }
            _ => ("error.internal.title", "error.internal.message"),
        };
        ErrorInfo {
            title_key,
            message_key,
            wait_seconds: match self {
                AppError::TooManyAttempts { wait_seconds } => Some(*wait_seconds),
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

impl ResponseError for AppError {
    fn status_code(&self) -> StatusCode {
        match self {
            AppError::NotFound => StatusCode::NOT_FOUND,
            AppError::LoginRequired { .. } => StatusCode::SEE_OTHER,
            AppError::Forbidden | AppError::Csrf => StatusCode::FORBIDDEN,
            AppError::TooManyAttempts { .. } => StatusCode::TOO_MANY_REQUESTS,
            AppError::BadRequest(_) => StatusCode::BAD_REQUEST,
            AppError::Conflict(_) => StatusCode::CONFLICT,
            AppError::Invalid(_) => StatusCode::UNPROCESSABLE_ENTITY,
            AppError::Db(DbError::Pool(_)) => StatusCode::SERVICE_UNAVAILABLE,
            _ => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        let status = self.status_code();
        if status.is_server_error() {
            tracing::error!(error = %self, "request failed");
        }
        if let AppError::LoginRequired { next } = self {
            let target = format!("/login?next={}", crate::web::encode_query(next));
            return HttpResponse::SeeOther()
                .insert_header((header::LOCATION, target))
                .finish();
        }
        let mut res = HttpResponse::build(status);
        if let AppError::TooManyAttempts { wait_seconds } = self {
            if let Ok(v) = HeaderValue::from_str(&wait_seconds.to_string()) {
                res.insert_header((header::RETRY_AFTER, v));
            }
        }
        let mut res = res.finish();
        res.extensions_mut().insert(self.info());
        res
    }
}

/// An error of the JSON API: a stable code and a plain message.
#[derive(Debug, thiserror::Error)]
#[error("{code}: {message}")]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            status,
            code,
            message: message.into(),
        }
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.status
    }

    fn error_response(&self) -> HttpResponse {
        HttpResponse::build(self.status).json(serde_json::json!({
            "error": {"code": self.code, "message": self.message}
        }))
    }
}
