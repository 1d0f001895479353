//! Every error the server answers, named once: its HTTP status and its
//! stable snake_case code (the `code` of `{"error":{"code","message"}}`).
//! JSON errors ([`super::error::ApiError`]), error pages
//! ([`super::error::AppError`]), the table-side refusals and the
//! framework's own errors (`web::errors`) all take their status from here.

use std::borrow::Cow;

use actix_web::http::StatusCode;

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
    /// No table has this code.
    TableNotFound,
    /// The pair code does not belong to the table.
    PairCodeWrong,
    /// The pair that entered the sheet cannot also confirm it.
    SamePair,
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
    /// The state does not allow the action, with the conflict's own code
    /// (`page_stale`, `round_closed`…).
    Conflict(Cow<'static, str>),
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
            Forbidden | Csrf | PairCodeWrong | SamePair => StatusCode::FORBIDDEN,
            NotFound | TableNotFound => StatusCode::NOT_FOUND,
            MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            RequestTimeout => StatusCode::REQUEST_TIMEOUT,
            PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            InvalidInput | InvalidField | SheetRejected | SheetBreaksRules | Rules(_) => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            Conflict(_) => StatusCode::CONFLICT,
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
            TableNotFound => "table_not_found",
            PairCodeWrong => "pair_code_wrong",
            SamePair => "same_pair",
            MethodNotAllowed => "method_not_allowed",
            RequestTimeout => "request_timeout",
            PayloadTooLarge => "payload_too_large",
            UnsupportedMediaType => "unsupported_media_type",
            InvalidInput => "invalid_input",
            InvalidField => "invalid_field",
            SheetRejected => "sheet_rejected",
            SheetBreaksRules => "sheet_breaks_rules",
            Rules(code) => code,
            Conflict(code) => return code.clone(),
            TooManyAttempts => "too_many_attempts",
            TooManyRequests => "too_many_requests",
            Busy => "busy",
            Unavailable => "unavailable",
            Internal => "internal",
            Http(n) => return Cow::Owned(format!("http_{n}")),
        })
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
            ErrorCode::Conflict("page_stale".into()).status(),
            StatusCode::CONFLICT
        );
    }
}
