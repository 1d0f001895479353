//! Error pages: every 4xx/5xx response that is not already a page (or JSON)
//! becomes a styled page in the visitor's language, keeping its status and
//! the headers that matter (cookies, Retry-After).

use actix_web::dev::ServiceResponse;
use actix_web::http::header::{self, HeaderMap};
use actix_web::http::StatusCode;
use actix_web::middleware::{ErrorHandlerResponse, ErrorHandlers};
use actix_web::{HttpResponse, ResponseError};
use askama::Template;

use super::context::PageCtx;
use crate::web::error::{ErrorInfo, Said};

#[derive(Template)]
#[template(path = "error.html")]
struct ErrorPage<'a> {
    ctx: &'a PageCtx,
    status: u16,
    title: &'a str,
    message: String,
}

fn info_for_status(status: StatusCode) -> ErrorInfo {
    let (title_key, message_key) = match status.as_u16() {
        408 => ("error.timeout.title", "error.timeout.message"),
        409 => ("error.conflict.title", "error.conflict.message"),
        413 => ("error.too_large.title", "error.too_large.message"),
        400 | 415 => ("error.bad_request.title", "error.bad_request.message"),
        401 | 403 => ("error.forbidden.title", "error.forbidden.message"),
        404 | 405 => ("error.not_found.title", "error.not_found.message"),
        429 => ("error.throttled.title", "error.throttled.message"),
        503 => ("error.unavailable.title", "error.unavailable.message"),
        _ => ("error.internal.title", "error.internal.message"),
    };
    ErrorInfo {
        title_key,
        message_key,
        wait_seconds: None,
        detail: None,
    }
}

fn already_rendered(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.starts_with("text/html") || ct.starts_with("application/json"))
}

fn render_error<B>(res: ServiceResponse<B>) -> actix_web::Result<ErrorHandlerResponse<B>> {
    let said = res.response().extensions().get::<Said>().cloned();
    if let Some(said) = said {
        // A service's error from the JSON API, said in the request's language.
        let (req, old) = res.into_parts();
        let mut new = said
            .in_lang(PageCtx::from_request(&req).lang)
            .error_response();
        for name in [header::SET_COOKIE, header::RETRY_AFTER] {
            for v in old.headers().get_all(&name) {
                new.headers_mut().append(name.clone(), v.clone());
            }
        }
        return Ok(ErrorHandlerResponse::Response(
            ServiceResponse::new(req, new).map_into_right_body(),
        ));
    }
    if already_rendered(res.headers()) {
        return Ok(ErrorHandlerResponse::Response(res.map_into_left_body()));
    }
    let (req, old) = res.into_parts();
    let status = old.status();
    if req.path().starts_with("/api/") {
        // The JSON API answers its errors in JSON, whatever produced them.
        let code = crate::web::error_code::ErrorCode::of_status(status).code();
        let body = serde_json::json!({"error": {"code": code, "message": status.canonical_reason().unwrap_or("error")}});
        let mut new = HttpResponse::build(status).json(body);
        for name in [header::RETRY_AFTER, header::ALLOW] {
            for v in old.headers().get_all(&name) {
                new.headers_mut().append(name.clone(), v.clone());
            }
        }
        return Ok(ErrorHandlerResponse::Response(
            ServiceResponse::new(req, new).map_into_right_body(),
        ));
    }
    let info = old
        .extensions()
        .get::<ErrorInfo>()
        .cloned()
        .unwrap_or_else(|| info_for_status(status));
    let ctx = PageCtx::from_request(&req);
    let message = match (&info.detail, info.wait_seconds) {
        (Some(d), _) => d.message(ctx.lang),
        (None, Some(s)) => crate::i18n::tf(ctx.lang, info.message_key, &[("seconds", &s)]),
        (None, None) => ctx.t(info.message_key).to_string(),
    };
    let page = ErrorPage {
        ctx: &ctx,
        status: status.as_u16(),
        title: ctx.t(info.title_key),
        message,
    };
    let body = page.render().unwrap_or_else(|_| status.to_string());
    let mut new = HttpResponse::build(status)
        .content_type("text/html; charset=utf-8")
        .body(body);
    for name in [header::SET_COOKIE, header::RETRY_AFTER, header::LOCATION] {
        for v in old.headers().get_all(&name) {
            new.headers_mut().append(name.clone(), v.clone());
        }
    }
    Ok(ErrorHandlerResponse::Response(
        ServiceResponse::new(req, new).map_into_right_body(),
    ))
}

/// The middleware that styles error responses.
pub fn handlers<B: 'static>() -> ErrorHandlers<B> {
    ErrorHandlers::new()
        .default_handler_client(render_error)
        .default_handler_server(render_error)
}
