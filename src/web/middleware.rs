//! Request plumbing: one tracing span per request with a request id; the
//! session, language and CSRF layer; role guards for staff scopes.

use std::time::Instant;

use actix_web::body::{BoxBody, MessageBody};
use actix_web::cookie::{time::Duration as CookieDuration, Cookie, SameSite};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{
    HeaderName, HeaderValue, ACCEPT_LANGUAGE, CACHE_CONTROL, CONTENT_ENCODING,
    CONTENT_SECURITY_POLICY as CONTENT_SECURITY_POLICY_HEADER, CONTENT_TYPE, REFERRER_POLICY,
    X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS,
};
use actix_web::http::Method;
use actix_web::middleware::Next;
use actix_web::web;
use actix_web::{Error, HttpMessage, ResponseError};
use tracing::Instrument;

use super::context::{web_query_value, CsrfToken, RequestCtx, SessionUser};
use super::AppState;
use crate::auth::{csrf, session, Role};
use crate::i18n::Lang;
use crate::web::error::AppError;

/// The request id, also sent back as `X-Request-Id`.
#[derive(Debug, Clone, Copy)]
pub struct RequestId(pub uuid::Uuid);

/// One span per request: id, method and path (never the query string, which
/// may carry a CSRF token), then one line with the status and duration, at
/// a level a hall can afford ([`log_level`]): public reads, static files and
/// health checks at `debug`; writes, refusals and errors at `info` or above,
/// with the request id. A body that came too slowly closes its connection.
pub async fn request_span(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, Error> {
    let id = uuid::Uuid::new_v4();
    let span = tracing::info_span!(
        "request",
        request_id = %id,
        method = %req.method(),
        path = %loggable_path(req.path()),
    );
    req.extensions_mut().insert(RequestId(id));
    let method = req.method().clone();
    let staff = is_staff_path(req.path()) || is_bearer(&req);
    let started = Instant::now();
    let result = next.call(req).instrument(span.clone()).await;
    let elapsed_ms = started.elapsed().as_secs_f64() * 1000.0;
    span.in_scope(|| match &result {
        Ok(res) => {
            let status = res.status().as_u16();
            match log_level(&method, status, staff) {
                tracing::Level::WARN => tracing::warn!(status, elapsed_ms, "done"),
                tracing::Level::INFO => tracing::info!(status, elapsed_ms, "done"),
                _ => tracing::debug!(status, elapsed_ms, "done"),
            }
        }
        Err(e) => tracing::warn!(error = %e, elapsed_ms, "failed"),
    });
    let mut res = result?;
    if let Ok(v) = HeaderValue::from_str(&id.to_string()) {
        res.headers_mut()
            .insert(HeaderName::from_static("x-request-id"), v);
    }
    if super::limits::too_slow(res.request()) {
        res.response_mut()
            .head_mut()
            .set_connection_type(actix_web::http::ConnectionType::Close);
    }
    Ok(res)
}

/// The paths whose next segment is a private token or code (an entry's
/// link, a table's code): never written to the log.
const SECRET_SEGMENT_AFTER: &[&str] = &["/entry/", "/api/v1/entries/", "/api/v1/score/", "/s/"];

/// A request's path as the log shows it: a private token or table code in
/// it replaced by `…`.
pub fn loggable_path(path: &str) -> std::borrow::Cow<'_, str> {
    for prefix in SECRET_SEGMENT_AFTER {
        if let Some(rest) = path.strip_prefix(prefix) {
            let tail = rest.find('/').map_or("", |i| &rest[i..]);
            return format!("{prefix}…{tail}").into();
        }
    }
    path.into()
}

/// The level of a request's log line: errors at `warn`; writes, refusals
/// (a brake, a body too slow or too large, a busy server) and a staff
/// member's 4xx at `info`; the rest (public reads, static files, health
/// checks, a visitor's 404) at `debug`.
pub fn log_level(method: &Method, status: u16, staff: bool) -> tracing::Level {
    let read = matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS);
    let refusal = matches!(status, 408 | 413 | 415 | 429 | 503);
    if status >= 500 && status != 503 {
        tracing::Level::WARN
    } else if !read || refusal || (staff && status >= 400) {
        tracing::Level::INFO
    } else {
        tracing::Level::DEBUG
    }
}

/// The Content-Security-Policy of every response: no inline scripts or
/// styles, no framing, forms and resources from this site only.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'self'; \
     form-action 'self'";

/// Paths whose responses are for staff (pages, forms, exports): never stored
/// by a browser or a proxy.
const STAFF_PREFIXES: &[&str] = &[
    "/director",
    "/desk",
    "/admin",
    "/account",
    "/login",
    "/logout",
    "/setup",
];

fn is_staff_path(path: &str) -> bool {
    STAFF_PREFIXES.iter().any(|p| {
        path.strip_prefix(p)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    })
}

fn add_security_headers(h: &mut actix_web::http::header::HeaderMap, no_store: bool) {
    h.insert(
        CONTENT_SECURITY_POLICY_HEADER,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    h.insert(X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(REFERRER_POLICY, HeaderValue::from_static("same-origin"));
    if no_store {
        h.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
}

/// Security headers on every response, error pages included; `no-store` on
/// staff pages and exports, and on any page shown to a signed-in user.
pub async fn security_headers<B: MessageBody + 'static>(
    req: ServiceRequest,
    next: Next<B>,
) -> Result<ServiceResponse<B>, Error> {
    // A bearer request is a staff member's too: its answer is hers alone.
    let staff = is_staff_path(req.path()) || is_bearer(&req);
    match next.call(req).await {
        Ok(mut res) => {
            let signed_in = res
                .request()
                .extensions()
                .get::<RequestCtx>()
                .is_some_and(|c| c.user.is_some());
            add_security_headers(res.headers_mut(), staff || signed_in);
            // `identity` only told the compression layer (inside this one)
            // to leave a cached page's bytes alone; it is not for clients.
            if res
                .headers()
                .get(CONTENT_ENCODING)
                .is_some_and(|v| v == "identity")
            {
                res.headers_mut().remove(CONTENT_ENCODING);
            }
            Ok(res)
        }
        Err(e) => {
            // An error that no layer turned into a response yet: give the
            // response it will become the same headers.
            let mut res = e.error_response();
            add_security_headers(res.headers_mut(), true);
            Err(actix_web::error::InternalError::from_response(e, res).into())
        }
    }
}

/// `HEAD` answers like `GET` on every route: the request is routed as a
/// `GET` (actix matches `web::get()` routes on the method), and the HTTP
/// layer, which still knows the request was a `HEAD`, sends the headers
/// (Content-Length included) without the body.
pub async fn head_as_get<B: MessageBody + 'static>(
    mut req: ServiceRequest,
    next: Next<B>,
) -> Result<ServiceResponse<B>, Error> {
    if req.method() == Method::HEAD {
        req.head_mut().method = Method::GET;
        req.extensions_mut().insert(WasHead);
    }
    next.call(req).await
}

/// Marks a request that arrived as `HEAD`.
#[derive(Debug, Clone, Copy)]
pub struct WasHead;

fn is_state_changing(method: &Method) -> bool {
    !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

/// Paths whose POSTs carry no CSRF token: the cookieless ones, where no
/// session is read, so a forged cross-site request has nothing ambient to
/// ride on: the whole JSON API (staff authenticate with a bearer token, the
/// rules computations change nothing, table-side scoring takes the pair
/// code typed into each request) and the player's page forms.
pub fn csrf_exempt(path: &str) -> bool {
    cookieless(path)
}

/// The JSON API (`/api/…`) and the player's page (`/s/…`): no session is
/// read from a cookie and no cookie is ever set on a response.
pub fn cookieless(path: &str) -> bool {
    path.starts_with("/api/") || path.starts_with("/s/")
}

/// Whether a request authenticates with `Authorization: Bearer …` (a
/// personal API token, checked by `web::bearer`). Such a request is
/// cookieless wherever it goes: its session cookie, if any, is ignored
/// (so it cannot lend a session to a request without a CSRF token), no
/// CSRF token is asked for, and no cookie is set on its response. A browser
/// never adds this header to a cross-site request by itself.
pub fn is_bearer(req: &ServiceRequest) -> bool {
    req.headers()
        .get(actix_web::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(crate::auth::tokens::from_authorization)
        .is_some()
}

/// Builds a cookie with the project's attributes.
pub fn cookie(
    name: &'static str,
    value: String,
    secure: bool,
    max_age: Option<CookieDuration>,
) -> Cookie<'static> {
    let mut c = Cookie::build(name, value)
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(secure)
        .finish();
    if let Some(age) = max_age {
        c.set_max_age(age);
    }
    c
}

/// A cookie that removes `name` from the browser.
pub fn removal_cookie(name: &'static str, secure: bool) -> Cookie<'static> {
    let mut c = cookie(name, String::new(), secure, None);
    c.make_removal();
    c
}

fn pick_lang(req: &ServiceRequest) -> Lang {
    req.cookie("lang")
        .and_then(|c| Lang::parse(c.value()))
        .or_else(|| {
            req.headers()
                .get(ACCEPT_LANGUAGE)
                .and_then(|h| h.to_str().ok())
                .and_then(Lang::from_accept_language)
        })
        .unwrap_or_default()
}

/// The idle timeout and the absolute lifetime of a session.
pub fn session_limits(state: &AppState) -> crate::services::accounts::SessionLimits {
    crate::services::accounts::SessionLimits::new(
        state.settings.session_idle,
        state.settings.session_max,
    )
}

/// The session of a cookie token (ended when idle too long or older than
/// the absolute lifetime).
async fn load_session(state: &AppState, token: String) -> Result<Option<SessionUser>, AppError> {
    let limits = session_limits(state);
    Ok(crate::services::accounts::session(&state.db, &token, limits).await?)
}

/// The CSRF token a request submitted: header, query string (multipart
/// forms), or the urlencoded body (read and put back for the handler).
async fn submitted_token(req: &mut ServiceRequest) -> Result<Option<String>, Error> {
    if let Some(v) = req
        .headers()
        .get(csrf::HEADER)
        .and_then(|v| v.to_str().ok())
    {
        return Ok(Some(v.to_string()));
    }
    if let Some(v) = web_query_value(req.query_string(), csrf::FIELD) {
        return Ok(Some(v));
    }
    let is_form = req
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.starts_with("application/x-www-form-urlencoded"));
    if !is_form {
        return Ok(None);
    }
    // Capped by `limits::apply` before this point: never more than the route allows.
    let body = super::limits::read_body(req).await?;
    let token = serde_urlencoded::from_bytes::<Vec<(String, String)>>(&body)
        .ok()
        .and_then(|pairs| {
            pairs
                .into_iter()
                .find(|(k, _)| k == csrf::FIELD)
                .map(|(_, v)| v)
        });
    req.set_payload(actix_web::dev::Payload::from(body));
    Ok(token)
}

/// Language, session and CSRF for every request. A state-changing request
/// without a valid token is refused with 403 before any handler runs.
pub async fn session_layer(
    mut req: ServiceRequest,
    next: Next<BoxBody>,
) -> Result<ServiceResponse<BoxBody>, Error> {
    let Some(state) = req.app_data::<web::Data<AppState>>().cloned() else {
        return Ok(req.error_response(AppError::BadRequest("error.internal.message")));
    };
    let secure = state.settings.secure_cookies;
    let lang = pick_lang(&req);

    let mut user = None;
    let mut drop_session_cookie = false;
    let cookieless = cookieless(req.path()) || is_bearer(&req);
    if let Some(c) = req.cookie(session::COOKIE).filter(|_| !cookieless) {
        let token = c.value().to_string();
        if session::looks_like_token(&token) {
            match load_session(&state, token.clone()).await {
                Ok(found) => user = found,
                Err(e) => return Ok(req.error_response(e)),
            }
        }
        drop_session_cookie = user.is_none();
    }

    // The body limit, before anything reads the body (the CSRF check below).
    // A large route's limit only for a caller who may use it; anyone else
    // sending a body there is refused now, before a byte of it is read.
    let limit = match super::limits::LargeRoute::of(req.path()) {
        Some(route) if super::limits::has_body(&req) => {
            match may_use(&state, user.as_ref(), route).await {
                Ok(()) => route.limit(),
                Err(e) => {
                    tracing::debug!(?route, "refused a body on a route the caller may not use");
                    return Ok(refuse_early(req, lang, &state, e));
                }
            }
        }
        _ => super::limits::body_limit(req.path()),
    };
    if let Err(e) = super::limits::apply(&mut req, limit) {
        tracing::debug!(limit, "refused a request body over the route's limit");
        return Ok(refuse_early(req, lang, &state, e));
    }

    // CSRF tokens bind to the session, or before login to an anonymous
    // cookie, made when a page first writes a token into a form.
    let binding = match (&user, req.cookie(session::ANON_COOKIE)) {
        (Some(_), _) => Some(
            req.cookie(session::COOKIE)
                .map(|c| c.value().to_string())
                .unwrap_or_default(),
        ),
        (None, Some(c)) if session::looks_like_token(c.value()) => Some(c.value().to_string()),
        (None, _) => None,
    };

    if is_state_changing(req.method()) && !cookieless {
        let ok = match submitted_token(&mut req).await {
            Ok(Some(token)) => binding
                .as_deref()
                .is_some_and(|b| state.csrf_key.verify(b, &token)),
            Ok(None) => false,
            Err(e) => return Ok(req.error_response(e)),
        };
        if !ok {
            tracing::debug!("refused a request without a valid CSRF token");
            req.extensions_mut().insert(RequestCtx {
                lang,
                user: None,
                csrf: Default::default(),
                timezone: state.settings.timezone,
            });
            return Ok(req.error_response(AppError::Csrf));
        }
    }

    // The player's page, the API and bearer requests take no cookie at
    // all: no CSRF token there, so no anonymous cookie.
    let csrf = if cookieless {
        CsrfToken::default()
    } else {
        CsrfToken::lazy(state.csrf_key.clone(), binding)
    };
    req.extensions_mut().insert(RequestCtx {
        lang,
        user,
        csrf: csrf.clone(),
        timezone: state.settings.timezone,
    });
    let mut res = next.call(req).await?;
    // The anonymous cookie only where a page carries a form that needs it
    // (login, setup…): public pages set no cookie.
    if let Some(anon) = csrf.new_anon() {
        let _ = res.response_mut().add_cookie(&cookie(
            session::ANON_COOKIE,
            anon.to_string(),
            secure,
            Some(CookieDuration::days(30)),
        ));
    }
    if drop_session_cookie {
        let _ = res
            .response_mut()
            .add_cookie(&removal_cookie(session::COOKIE, secure));
    }
    Ok(res)
}

/// A refusal before the session layer's handlers ran: the error page in
/// the visitor's language, as nobody in particular.
fn refuse_early(
    req: ServiceRequest,
    lang: Lang,
    state: &AppState,
    e: impl ResponseError + 'static,
) -> ServiceResponse<BoxBody> {
    req.extensions_mut().insert(RequestCtx {
        lang,
        user: None,
        csrf: Default::default(),
        timezone: state.settings.timezone,
    });
    req.error_response(e)
}

/// Whether the caller may use a large route: an administrator the
/// tournament-file import, a director of the tournament its imports, a
/// director or an administrator the member list. The
/// refusal is the one the route itself would give (sign in; 403; a
/// tournament not the caller's does not exist for her).
async fn may_use(
    state: &AppState,
    user: Option<&SessionUser>,
    route: super::limits::LargeRoute,
) -> Result<(), AppError> {
    use super::limits::LargeRoute;
    let Some(user) = user else {
        return Err(AppError::LoginRequired {
            next: match route {
                LargeRoute::AdminImport => "/admin/import".to_string(),
                LargeRoute::TournamentImport(tid) => format!("/director/t/{tid}/import"),
                LargeRoute::Members => "/director/members".to_string(),
            },
        });
    };
    let actor = crate::services::Actor {
        user_id: user.id,
        role: user.role,
    };
    match route {
        LargeRoute::AdminImport if user.role == Role::Admin => Ok(()),
        LargeRoute::AdminImport => Err(AppError::Forbidden),
        LargeRoute::TournamentImport(_) | LargeRoute::Members
            if !user.role.allows(Role::Director) =>
        {
            Err(AppError::Forbidden)
        }
        LargeRoute::Members => Ok(()),
        LargeRoute::TournamentImport(tid) => {
            Ok(crate::services::tournaments::may_direct(&state.db, actor, tid).await?)
        }
    }
}

async fn guard(
    role: Role,
    req: ServiceRequest,
    next: Next<BoxBody>,
) -> Result<ServiceResponse<BoxBody>, Error> {
    let user = req
        .extensions()
        .get::<RequestCtx>()
        .and_then(|c| c.user.as_ref().map(|u| u.role));
    let refusal = match user {
        None => Some(AppError::LoginRequired {
            next: match req.query_string() {
                "" => req.path().to_string(),
                q => format!("{}?{}", req.path(), q),
            },
        }),
        Some(r) if !r.allows(role) => Some(AppError::Forbidden),
        Some(_) => None,
    };
    match refusal {
        Some(e) => {
            let res = e.error_response();
            Ok(req.into_response(res))
        }
        None => next.call(req).await,
    }
}

/// Guards the `/admin` scope.
pub async fn admin_only(
    req: ServiceRequest,
    next: Next<BoxBody>,
) -> Result<ServiceResponse<BoxBody>, Error> {
    guard(Role::Admin, req, next).await
}

/// Guards the `/director` scope (directors and admins).
pub async fn director_only(
    req: ServiceRequest,
    next: Next<BoxBody>,
) -> Result<ServiceResponse<BoxBody>, Error> {
    guard(Role::Director, req, next).await
}

/// Guards the `/desk` scope (referees, directors, admins).
pub async fn referee_only(
    req: ServiceRequest,
    next: Next<BoxBody>,
) -> Result<ServiceResponse<BoxBody>, Error> {
    guard(Role::Referee, req, next).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use tracing::Level;

    #[test]
    fn private_tokens_and_table_codes_stay_out_of_the_log() {
        assert_eq!(loggable_path("/entry/ab12cd"), "/entry/…");
        assert_eq!(loggable_path("/entry/ab12cd/withdraw"), "/entry/…/withdraw");
        assert_eq!(loggable_path("/api/v1/entries/ab12cd"), "/api/v1/entries/…");
        assert_eq!(
            loggable_path("/api/v1/score/KX7MPA/sheet"),
            "/api/v1/score/…/sheet"
        );
        assert_eq!(loggable_path("/s/KX7MPA/preview"), "/s/…/preview");
        assert_eq!(loggable_path("/t/4/standings"), "/t/4/standings");
    }

    #[test]
    fn public_reads_stay_quiet_and_writes_refusals_errors_speak() {
        assert_eq!(log_level(&Method::GET, 200, false), Level::DEBUG);
        assert_eq!(log_level(&Method::GET, 304, false), Level::DEBUG);
        assert_eq!(log_level(&Method::GET, 404, false), Level::DEBUG);
        assert_eq!(log_level(&Method::HEAD, 200, false), Level::DEBUG);
        assert_eq!(log_level(&Method::GET, 200, true), Level::DEBUG);
        assert_eq!(log_level(&Method::POST, 303, false), Level::INFO);
        assert_eq!(log_level(&Method::PUT, 200, true), Level::INFO);
        for refusal in [408, 413, 415, 429, 503] {
            assert_eq!(log_level(&Method::GET, refusal, false), Level::INFO);
        }
        assert_eq!(log_level(&Method::GET, 403, true), Level::INFO);
        assert_eq!(log_level(&Method::GET, 500, false), Level::WARN);
    }
}
