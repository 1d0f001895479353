//! Every error the server answers, named once: its HTTP status and its
//! stable snake_case code (the `code` of `{"error":{"code","message"}}`).
//! JSON errors ([`super::error::ApiError`]), error pages
//! ([`super::error::AppError`]) and the framework's own errors
//! (`web::errors`) all take their status from here. The services' refusals
//! are not retyped here: [`ErrorCode::Refused`] carries a
//! [`crate::services::Refusal`], whose code and status are its own.

use std::borrow::Cow;

use actix_web::http::StatusCode;

use crate::services::{Conflict, Refusal};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErrorCode {
    /// The request cannot be read (a form, a query, a body cut short).
    BadRequest,
    /// The body is not JSON, or not UTF-8.
    InvalidJson,
    /// No bearer token where the API needs one.
    MissingToken,
    /// A bearer token that is unknown, revoked or its owner disabled.
    InvalidToken,
    /// The framework's own 401.
    Unauthorized,
    Forbidden,
    /// The form's security token is missing or wrong.
    Csrf,
    NotFound,
    MethodNotAllowed,
    RequestTimeout,
    PayloadTooLarge,
    UnsupportedMediaType,
    /// Some fields are not valid (each named in `fields`).
    InvalidInput,
    /// A field of the table-side forms is not valid.
    InvalidField,
    /// The sheet breaks the rules; nothing was saved.
    SheetRejected,
    /// The table's sheet breaks the rules (table side, with `violations`).
    SheetBreaksRules,
    /// A value the rules engine refuses, with the engine's own code
    /// (`invalid_card`, `invalid_scale`…).
    Rules(&'static str),
    /// A service's refusal (`page_stale`, `round_closed`, `table_not_found`…):
    /// its code and status are the refusal's.
    Refused(Refusal),
    /// The movement engine's reason (409), with the engine's code
    /// (`TOO_FEW_PAIRS`, said in lower case).
    Movement(&'static str),
    /// No attempts left for now (the limiter).
    TooManyAttempts,
    /// Too many requests (the framework's 429).
    TooManyRequests,
    /// Too many password checks at once: try again shortly.
    Busy,
    /// The database is busy or unreachable: try again.
    Unavailable,
    Internal,
    /// Any other status the framework answers by itself (`http_NNN`).
    Http(u16),
}

impl ErrorCode {
    /// The one HTTP status of this error.
    pub fn status(&self) -> StatusCode {
        use ErrorCode::*;
        match self {
            BadRequest | InvalidJson => StatusCode::BAD_REQUEST,
            MissingToken | InvalidToken | Unauthorized => StatusCode::UNAUTHORIZED,
            Forbidden | Csrf => StatusCode::FORBIDDEN,
            NotFound => StatusCode::NOT_FOUND,
            MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            RequestTimeout => StatusCode::REQUEST_TIMEOUT,
            PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            InvalidInput | InvalidField | SheetRejected | SheetBreaksRules | Rules(_) => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            Refused(r) => {
                StatusCode::from_u16(r.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
            }
            Movement(_) => StatusCode::CONFLICT,
            TooManyAttempts | TooManyRequests => StatusCode::TOO_MANY_REQUESTS,
            Busy | Unavailable => StatusCode::SERVICE_UNAVAILABLE,
            Internal => StatusCode::INTERNAL_SERVER_ERROR,
            Http(n) => StatusCode::from_u16(*n).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
        }
    }

    /// The stable snake_case code.
    pub fn code(&self) -> Cow<'static, str> {
        use ErrorCode::*;
        Cow::Borrowed(match self {
            BadRequest => "bad_request",
            InvalidJson => "invalid_json",
            MissingToken => "missing_token",
            InvalidToken => "invalid_token",
            Unauthorized => "unauthorized",
            Forbidden => "forbidden",
            Csrf => "csrf",
            NotFound => "not_found",
            MethodNotAllowed => "method_not_allowed",
            RequestTimeout => "request_timeout",
            PayloadTooLarge => "payload_too_large",
            UnsupportedMediaType => "unsupported_media_type",
            InvalidInput => "invalid_input",
            InvalidField => "invalid_field",
            SheetRejected => "sheet_rejected",
            SheetBreaksRules => "sheet_breaks_rules",
            Rules(code) => code,
            Refused(r) => r.code(),
            Movement(code) => return Cow::Owned(code.to_ascii_lowercase()),
            TooManyAttempts => "too_many_attempts",
            TooManyRequests => "too_many_requests",
            Busy => "busy",
            Unavailable => "unavailable",
            Internal => "internal",
            Http(n) => return Cow::Owned(format!("http_{n}")),
        })
    }

    /// The code of a service's conflict: its refusal, or the movement
    /// engine's reason.
    pub fn of_conflict(c: &Conflict) -> ErrorCode {
        match c {
            Conflict::Refused(r, _) => ErrorCode::Refused(*r),
            Conflict::Movement(e) => ErrorCode::Movement(e.code()),
            Conflict::Groups(e) => ErrorCode::Movement(e.code()),
        }
    }

    /// An error of the rules engine: unreadable JSON, or a value it refuses.
    pub fn of_rules(code: &'static str) -> ErrorCode {
        match code {
            "invalid_json" => ErrorCode::InvalidJson,
            code => ErrorCode::Rules(code),
        }
    }

    /// The code of a status the framework answered by itself.
    pub fn of_status(status: StatusCode) -> ErrorCode {
        use ErrorCode::*;
        match status.as_u16() {
            400 => BadRequest,
            401 => Unauthorized,
            403 => Forbidden,
            404 => NotFound,
            405 => MethodNotAllowed,
            408 => RequestTimeout,
            413 => PayloadTooLarge,
            415 => UnsupportedMediaType,
            429 => TooManyRequests,
            503 => Unavailable,
            500 => Internal,
            n => Http(n),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_status_the_framework_answers_keeps_its_code_and_status() {
        for n in [400u16, 403, 404, 405, 408, 413, 415, 429, 500, 503, 418] {
            let s = StatusCode::from_u16(n).unwrap();
            assert_eq!(ErrorCode::of_status(s).status(), s, "{n}");
        }
        assert_eq!(
            ErrorCode::of_status(StatusCode::IM_A_TEAPOT).code(),
            "http_418"
        );
        assert_eq!(
            ErrorCode::of_rules("invalid_json").status(),
            StatusCode::BAD_REQUEST
        );
        assert_eq!(ErrorCode::of_rules("invalid_card").code(), "invalid_card");
        assert_eq!(
            ErrorCode::Refused(Refusal::Stale).status(),
            StatusCode::CONFLICT
        );
        assert_eq!(ErrorCode::Refused(Refusal::Stale).code(), "page_stale");
        assert_eq!(
            ErrorCode::Refused(Refusal::TableNotFound).status(),
            StatusCode::NOT_FOUND
        );
    }
}
