//! Bearer authentication for the JSON API: `Authorization: Bearer TOKEN`
//! with a personal API token (`services::tokens`). The extractors give a
//! handler the same [`Actor`] a session gives (the owner's current role), so
//! the services apply exactly the web's role and access checks.
//!
//! - [`ApiActor`]: a valid token is required; none or a wrong one → 401 JSON
//!   with `WWW-Authenticate: Bearer` (RFC 6750).
//! - [`OptionalApiActor`]: no token → `None` (public operations); a wrong
//!   token is still a 401, never silently anonymous.
//!
//! Bearer requests read no session cookie and need no CSRF token (see
//! `middleware::cookieless`): a browser never attaches an `Authorization`
//! header to a cross-site request on its own, so there is nothing ambient
//! for a forged request to ride on.

use std::future::Future;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{FromRequest, HttpMessage, HttpRequest, ResponseError};

use super::context::RequestCtx;
use super::AppState;
use crate::auth::tokens;
use crate::auth::Role;
use crate::i18n::{t, Lang};
use crate::services::{self, Actor};
use crate::web::error::{ApiError, ErrorCode};

/// The caller of an API operation, authenticated by a bearer token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ApiActor(pub crate::services::Actor);

/// The caller of a public API operation: `Some` with a valid token, `None`
/// without one (a wrong token is refused all the same).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OptionalApiActor(pub Option<Actor>);

impl ApiActor {
    /// The actor when her role includes `needed`; otherwise 403 JSON
    /// (`forbidden`). Handlers name their role with `web::roles` instead.
    pub fn require(&self, needed: Role, lang: Lang) -> Result<Actor, ApiError> {
        if self.0.role.allows(needed) {
            Ok(self.0)
        } else {
            Err(forbidden(lang))
        }
    }
}

/// The 403 of the API: the caller's role does not allow the operation.
pub fn forbidden(lang: Lang) -> ApiError {
    ApiError::new(ErrorCode::Forbidden, t(lang, "tokens.api.forbidden"))
}

/// What a request's bearer token came to (kept in the request's extensions,
/// so that a token is looked up once per request).
#[derive(Debug, Clone, Copy)]
enum Bearer {
    Absent,
    Invalid,
    Valid(Actor),
}

fn lang_of(req: &HttpRequest) -> Lang {
    req.extensions()
        .get::<RequestCtx>()
        .map(|c| c.lang)
        .unwrap_or_default()
}

/// 401 JSON with the challenge a client needs.
fn unauthorized(req: &HttpRequest, invalid: bool) -> actix_web::Error {
    let lang = lang_of(req);
    let (code, key, challenge) = if invalid {
        (
            ErrorCode::InvalidToken,
            "tokens.api.invalid",
            r#"Bearer realm="burraco-td", error="invalid_token""#,
        )
    } else {
        (
            ErrorCode::MissingToken,
            "tokens.api.missing",
            r#"Bearer realm="burraco-td""#,
        )
    };
    let err = ApiError::new(code, t(lang, key));
    let mut res = err.error_response();
    res.headers_mut().insert(
        header::WWW_AUTHENTICATE,
        HeaderValue::from_static(challenge),
    );
    actix_web::error::InternalError::from_response(err, res).into()
}

async fn resolve(req: &HttpRequest) -> Result<Bearer, actix_web::Error> {
    if let Some(found) = req.extensions().get::<Bearer>() {
        return Ok(*found);
    }
    let header = req.headers().get(header::AUTHORIZATION);
    let found = match header {
        None => Bearer::Absent,
        Some(value) => match value.to_str().ok().and_then(tokens::from_authorization) {
            // Another scheme (Basic…) or an unreadable header is not a token.
            None => Bearer::Invalid,
            Some(token) => {
                let Some(state) = req.app_data::<actix_web::web::Data<AppState>>() else {
                    return Err(ApiError::new(
                        ErrorCode::Internal,
                        "the application state is missing",
                    )
                    .into());
                };
                match services::tokens::authenticate(&state.db, token).await {
                    Ok(Some(actor)) => Bearer::Valid(actor),
                    Ok(None) => Bearer::Invalid,
                    Err(e) => {
                        tracing::error!(error = %e, "bearer token lookup failed");
                        let unavailable = e.is_unavailable();
                        let lang = lang_of(req);
                        return Err(if unavailable {
                            ApiError::new(
                                ErrorCode::Unavailable,
                                t(lang, "error.unavailable.message"),
                            )
                        } else {
                            ApiError::new(ErrorCode::Internal, t(lang, "error.internal.message"))
                        }
                        .into());
                    }
                }
            }
        },
    };
    if let Bearer::Invalid = found {
        tracing::debug!("refused an API request with an invalid bearer token");
    }
    req.extensions_mut().insert(found);
    Ok(found)
}

type Extracting<T> = Pin<Box<dyn Future<Output = Result<T, actix_web::Error>>>>;

impl FromRequest for ApiActor {
    type Error = actix_web::Error;
    type Future = Extracting<Self>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move {
            match resolve(&req).await? {
                Bearer::Valid(actor) => Ok(ApiActor(actor)),
                Bearer::Absent => Err(unauthorized(&req, false)),
                Bearer::Invalid => Err(unauthorized(&req, true)),
            }
        })
    }
}

impl FromRequest for OptionalApiActor {
    type Error = actix_web::Error;
    type Future = Extracting<Self>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move {
            match resolve(&req).await? {
                Bearer::Valid(actor) => Ok(OptionalApiActor(Some(actor))),
                Bearer::Absent => Ok(OptionalApiActor(None)),
                Bearer::Invalid => Err(unauthorized(&req, true)),
            }
        })
    }
}
