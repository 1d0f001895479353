//! How large a request body may be, per route, enforced before anything is
//! buffered: a declared `Content-Length` over the limit is refused at once
//! (413), and a body without one (chunked) is cut off with 413 as soon as it
//! passes the limit while streaming. The same numbers are set on the
//! extractors (`FormConfig`, `JsonConfig`, `PayloadConfig`) of each route.
//!
//! The large limits are for signed-in staff only (their routes refuse
//! everyone else anyway): a visitor without a session never gets past the
//! form limit, even on a route that allows more.

use std::pin::Pin;
use std::task::{Context, Poll};

use actix_web::dev::{Payload, ServiceRequest};
use actix_web::error::PayloadError;
use actix_web::http::header::CONTENT_LENGTH;
use actix_web::web::{self, Bytes, BytesMut};
use actix_web::HttpMessage;
use futures_util::Stream;

/// Every HTML form (login, setup, staff forms).
pub const FORM: usize = 64 * 1024;
/// The pairs CSV import (`/director/t/{id}/import`): the file's own limit
/// plus room for the form around it, so that a file just over its limit
/// gets the import page's message rather than a bare 413.
pub const PAIRS_CSV: usize = crate::tournament::csv_import::MAX_FILE_BYTES + FORM;
/// The administrator's tournament-file import (`/admin/import`).
pub const TOURNAMENT_FILE: usize = 50 * 1024 * 1024;
/// JSON bodies of the API (`/api/v1/...`).
pub const API_JSON: usize = 2 * 1024 * 1024;
/// A table-side sheet (`/api/v1/score/...`).
pub const SCORE_JSON: usize = FORM;

fn is_pairs_import(path: &str) -> bool {
    path.strip_prefix("/director/t/")
        .and_then(|rest| rest.split_once('/'))
        .is_some_and(|(id, tail)| !id.is_empty() && tail == "import")
}

/// The most a request to `path` may send.
pub fn body_limit(path: &str, signed_in: bool) -> usize {
    // Table-side scoring: a sheet is a few kilobytes, and nobody signs in.
    if path.starts_with("/api/v1/score/") {
        return SCORE_JSON;
    }
    if path.starts_with("/api/") {
        return API_JSON;
    }
    if signed_in && path == "/admin/import" {
        return TOURNAMENT_FILE;
    }
    if signed_in && is_pairs_import(path) {
        return PAIRS_CSV;
    }
    FORM
}

/// Extractor settings for the application (forms and JSON by default).
pub fn configure_app(cfg: &mut web::ServiceConfig) {
    cfg.app_data(web::FormConfig::default().limit(FORM))
        .app_data(web::JsonConfig::default().limit(API_JSON))
        .app_data(web::PayloadConfig::new(FORM));
}

/// The form extractor's settings for a route that allows `limit` bytes.
pub fn form(limit: usize) -> web::FormConfig {
    web::FormConfig::default().limit(limit)
}

type BoxedStream = Pin<Box<dyn Stream<Item = Result<Bytes, PayloadError>>>>;

/// Refuses a declared length over `limit`, and caps the body's stream at
/// `limit` for every reader after this point (the CSRF check, extractors).
pub fn apply(req: &mut ServiceRequest, limit: usize) -> Result<(), PayloadError> {
    let declared = req
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit as u64) {
        return Err(PayloadError::Overflow);
    }
    let inner = req.take_payload();
    let limited: BoxedStream = Box::pin(Limited {
        inner,
        left: limit,
        done: false,
    });
    req.set_payload(Payload::from(limited));
    Ok(())
}

/// Reads the whole (already capped) body.
pub async fn read_body(req: &mut ServiceRequest) -> Result<Bytes, PayloadError> {
    let mut payload = req.take_payload();
    let mut body = BytesMut::new();
    while let Some(chunk) = std::future::poll_fn(|cx| Pin::new(&mut payload).poll_next(cx)).await {
        body.extend_from_slice(&chunk?);
    }
    Ok(body.freeze())
}

/// A body stream that fails with `Overflow` once it passes its limit.
struct Limited {
    inner: Payload,
    left: usize,
    done: bool,
}

impl Stream for Limited {
    type Item = Result<Bytes, PayloadError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.done {
            return Poll::Ready(None);
        }
        match Pin::new(&mut self.inner).poll_next(cx) {
            Poll::Ready(Some(Ok(chunk))) => {
                if chunk.len() > self.left {
                    self.done = true;
                    Poll::Ready(Some(Err(PayloadError::Overflow)))
                } else {
                    self.left -= chunk.len();
                    Poll::Ready(Some(Ok(chunk)))
                }
            }
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_per_route() {
        assert_eq!(body_limit("/login", false), FORM);
        assert_eq!(body_limit("/director/t/7/pairs", true), FORM);
        assert_eq!(body_limit("/director/t/7/import", true), PAIRS_CSV);
        assert_eq!(body_limit("/director/t/7/import", false), FORM);
        assert_eq!(body_limit("/director/t//import", true), FORM);
        assert_eq!(body_limit("/director/t/7/import/x", true), FORM);
        assert_eq!(body_limit("/admin/import", true), TOURNAMENT_FILE);
        assert_eq!(body_limit("/admin/import", false), FORM);
        assert_eq!(body_limit("/api/v1/rules/vp", false), API_JSON);
        assert_eq!(body_limit("/api/v1/score/ACDEFH/sheet", false), SCORE_JSON);
    }

    #[actix_web::test]
    async fn a_stream_is_cut_at_its_limit() {
        use actix_web::test::TestRequest;
        let chunks: Vec<Result<Bytes, PayloadError>> =
            (0..10).map(|_| Ok(Bytes::from(vec![b'a'; 1000]))).collect();
        let stream: BoxedStream = Box::pin(futures_util::stream::iter(chunks));
        let (req, _) = TestRequest::default().to_http_parts();
        let mut sreq = ServiceRequest::from_parts(req, Payload::from(stream));
        apply(&mut sreq, 2500).unwrap();
        assert!(matches!(
            read_body(&mut sreq).await,
            Err(PayloadError::Overflow)
        ));

        let chunks: Vec<Result<Bytes, PayloadError>> =
            (0..2).map(|_| Ok(Bytes::from(vec![b'a'; 1000]))).collect();
        let stream: BoxedStream = Box::pin(futures_util::stream::iter(chunks));
        let (req, _) = TestRequest::default().to_http_parts();
        let mut sreq = ServiceRequest::from_parts(req, Payload::from(stream));
        apply(&mut sreq, 2500).unwrap();
        assert_eq!(read_body(&mut sreq).await.unwrap().len(), 2000);

        let (req, _) = TestRequest::default()
            .insert_header((CONTENT_LENGTH, "999999"))
            .to_http_parts();
        let mut sreq = ServiceRequest::from_parts(req, Payload::None);
        assert!(matches!(
            apply(&mut sreq, 1000),
            Err(PayloadError::Overflow)
        ));
    }
}
