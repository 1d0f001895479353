//! How large a request body may be, per route, enforced before anything is
//! buffered: a declared `Content-Length` over the limit is refused at once
//! (413), and a body without one (chunked) is cut off with 413 as soon as it
//! passes the limit while streaming. The same numbers are set on the
//! extractors (`FormConfig`, `JsonConfig`, `PayloadConfig`) of each route.
//!
//! The large limits ([`LargeRoute`]) apply only once the caller may use the
//! route: an administrator on `/admin/import`, a director of the tournament
//! on its imports. Anyone else's body on such a route is refused before it
//! is read (nobody buffers more than [`FORM`] on a route they may not use).
//!
//! A body must also arrive in time ([`BodyDeadline`]): within 20 s, plus
//! one second for each `min_rate` bytes received (a large upload over a
//! slow line goes on as long as it keeps that pace); past it the body's
//! reader gets an error, the request is answered 408 and the connection
//! closed ([`bodies`]), so a client sending a byte now and then cannot
//! hold a connection, or a worker's attention, for long. Whatever layer
//! read the body and however it reported the failure, [`bodies`] answers
//! with the status it deserves: 413 for a body over its limit (chunked
//! ones included), 408 for one too slow.

use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

use actix_web::body::BoxBody;
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::error::PayloadError;
use actix_web::http::header::CONTENT_LENGTH;
use actix_web::http::StatusCode;
use actix_web::middleware::Next;
use actix_web::web::{self, Bytes, BytesMut};
use actix_web::{Error, HttpMessage, HttpResponse};
use futures_util::Stream;
use tokio::time::{Instant, Sleep};

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

/// A route whose body may be larger than a form: its limit applies only
/// once the caller may use the route (`middleware::session_layer` asks
/// before anything reads the body); everyone else gets [`FORM`] and is
/// refused before the body is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LargeRoute {
    /// `/admin/import`: administrators.
    AdminImport,
    /// `/director/t/{id}/import` and `/director/t/{id}/teams/import`: the
    /// tournament's directors.
    TournamentImport(crate::ids::TournamentId),
    /// `/director/members`: the member list's import, directors and
    /// administrators.
    Members,
}

impl LargeRoute {
    /// The route of `path`, if it is one of the large ones.
    pub fn of(path: &str) -> Option<LargeRoute> {
        match path {
            "/admin/import" => return Some(LargeRoute::AdminImport),
            "/director/members" => return Some(LargeRoute::Members),
            _ => {}
        }
        let (id, tail) = path.strip_prefix("/director/t/")?.split_once('/')?;
        if tail != "import" && tail != "teams/import" {
            return None;
        }
        let id = id.parse::<i64>().ok().filter(|n| *n > 0)?;
        Some(LargeRoute::TournamentImport(crate::ids::TournamentId(id)))
    }

    /// The most such a route takes from a caller who may use it.
    pub fn limit(self) -> usize {
        match self {
            LargeRoute::AdminImport => TOURNAMENT_FILE,
            LargeRoute::TournamentImport(_) | LargeRoute::Members => PAIRS_CSV,
        }
    }
}

/// The most a request to `path` may send, when it is not a [`LargeRoute`]
/// (or its caller may not use it).
pub fn body_limit(path: &str) -> usize {
    // Table-side scoring: a sheet is a few kilobytes, and nobody signs in.
    if path.starts_with("/api/v1/score/") {
        return SCORE_JSON;
    }
    if path.starts_with("/api/") {
        return API_JSON;
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

pub use crate::config::BodyDeadline;

/// Why a request's body was not read whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyFailure {
    /// Over the route's limit (413).
    TooLarge,
    /// Did not arrive in time (408, and the connection is closed).
    TooSlow,
}

/// What became of a request's body, noted by the body's stream for the
/// layers that answer (in the request's extensions).
#[derive(Debug, Default)]
pub struct BodyState(Cell<Option<BodyFailure>>);

impl BodyState {
    pub fn failure(&self) -> Option<BodyFailure> {
        self.0.get()
    }

    fn fail(&self, f: BodyFailure) {
        if self.0.get().is_none() {
            self.0.set(Some(f));
        }
    }
}

/// The body state of a request, made on first use.
pub fn body_state(req: &ServiceRequest) -> Rc<BodyState> {
    if let Some(s) = req.extensions().get::<Rc<BodyState>>() {
        return s.clone();
    }
    let s = Rc::new(BodyState::default());
    req.extensions_mut().insert(s.clone());
    s
}

/// Whether a request's body came too slowly (its connection must close).
pub fn too_slow(req: &actix_web::HttpRequest) -> bool {
    req.extensions()
        .get::<Rc<BodyState>>()
        .is_some_and(|s| s.failure() == Some(BodyFailure::TooSlow))
}

/// Puts the deadline on the request's body (every reader after this point
/// reads through it), and answers a body that failed with its status: 408
/// for one too slow, 413 for one too large, whatever the reader made of the
/// error. Wraps the session layer (which applies the size limit).
pub async fn bodies(
    mut req: ServiceRequest,
    next: Next<BoxBody>,
) -> Result<ServiceResponse<BoxBody>, Error> {
    let deadline = req.app_data::<BodyDeadline>().copied().unwrap_or_default();
    let state = body_state(&req);
    if !has_body(&req) {
        return next.call(req).await;
    }
    let inner = req.take_payload();
    let timed: BoxedStream = Box::pin(Timed {
        inner,
        deadline,
        received: 0,
        sleep: Box::pin(tokio::time::sleep(deadline.base)),
        started: Instant::now(),
        state: state.clone(),
        done: false,
    });
    req.set_payload(Payload::from(timed));
    let res = next.call(req).await?;
    let status = match state.failure() {
        Some(BodyFailure::TooSlow) => StatusCode::REQUEST_TIMEOUT,
        Some(BodyFailure::TooLarge) => StatusCode::PAYLOAD_TOO_LARGE,
        None => return Ok(res),
    };
    if res.status() == status {
        return Ok(res);
    }
    // The request's own line (`middleware::request_span`) says 408 or 413.
    tracing::debug!(
        status = status.as_u16(),
        answered = res.status().as_u16(),
        "request body refused"
    );
    Ok(res.into_response(HttpResponse::build(status).finish()))
}

/// Whether a request says it carries a body (a length above zero, or chunks).
pub fn has_body(req: &ServiceRequest) -> bool {
    req.headers()
        .contains_key(actix_web::http::header::TRANSFER_ENCODING)
        || req
            .headers()
            .get(CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.trim() != "0")
}

/// Refuses a declared length over `limit`, and caps the body's stream at
/// `limit` for every reader after this point (the CSRF check, extractors).
pub fn apply(req: &mut ServiceRequest, limit: usize) -> Result<(), PayloadError> {
    let state = body_state(req);
    let declared = req
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit as u64) {
        state.fail(BodyFailure::TooLarge);
        return Err(PayloadError::Overflow);
    }
    let inner = req.take_payload();
    let limited: BoxedStream = Box::pin(Limited {
        inner,
        left: limit,
        done: false,
        state,
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
    state: Rc<BodyState>,
}

/// A body stream that fails once its deadline passes (see [`BodyDeadline`]).
struct Timed {
    inner: Payload,
    deadline: BodyDeadline,
    received: u64,
    sleep: Pin<Box<Sleep>>,
    started: Instant,
    state: Rc<BodyState>,
    done: bool,
}

impl Stream for Timed {
    type Item = Result<Bytes, PayloadError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.done {
            return Poll::Ready(None);
        }
        match Pin::new(&mut self.inner).poll_next(cx) {
            Poll::Ready(Some(Ok(chunk))) => {
                self.received += chunk.len() as u64;
                let until = self.started + self.deadline.allowed(self.received);
                self.sleep.as_mut().reset(until);
                Poll::Ready(Some(Ok(chunk)))
            }
            Poll::Pending => {
                if self.sleep.as_mut().poll(cx).is_ready() {
                    self.done = true;
                    self.state.fail(BodyFailure::TooSlow);
                    return Poll::Ready(Some(Err(PayloadError::Io(std::io::Error::new(
                        std::io::ErrorKind::TimedOut,
                        "the body did not arrive in time",
                    )))));
                }
                Poll::Pending
            }
            other => other,
        }
    }
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
                    self.state.fail(BodyFailure::TooLarge);
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
    use std::time::Duration;

    #[test]
    fn limits_per_route() {
        use crate::ids::TournamentId;
        assert_eq!(body_limit("/login"), FORM);
        assert_eq!(body_limit("/director/t/7/import"), FORM);
        assert_eq!(body_limit("/admin/import"), FORM);
        assert_eq!(body_limit("/api/v1/rules/vp"), API_JSON);
        assert_eq!(body_limit("/api/v1/score/ACDEFH/sheet"), SCORE_JSON);
        let t7 = Some(LargeRoute::TournamentImport(TournamentId(7)));
        assert_eq!(LargeRoute::of("/director/t/7/import"), t7);
        assert_eq!(LargeRoute::of("/director/t/7/teams/import"), t7);
        assert_eq!(LargeRoute::of("/director/t/7/pairs"), None);
        assert_eq!(LargeRoute::of("/director/t//import"), None);
        assert_eq!(LargeRoute::of("/director/t/x/import"), None);
        assert_eq!(LargeRoute::of("/director/t/7/import/x"), None);
        assert_eq!(
            LargeRoute::of("/admin/import"),
            Some(LargeRoute::AdminImport)
        );
        assert_eq!(LargeRoute::AdminImport.limit(), TOURNAMENT_FILE);
        assert_eq!(t7.map(LargeRoute::limit), Some(PAIRS_CSV));
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
        assert_eq!(body_state(&sreq).failure(), Some(BodyFailure::TooLarge));
    }

    #[test]
    fn the_deadline_grows_with_what_arrived() {
        let d = BodyDeadline {
            base: Duration::from_secs(20),
            min_rate: 1000,
        };
        assert_eq!(d.allowed(0), Duration::from_secs(20));
        assert_eq!(d.allowed(500), Duration::from_millis(20_500));
        assert_eq!(d.allowed(10_000), Duration::from_secs(30));
    }

    #[actix_web::test]
    async fn a_body_that_stops_coming_is_cut_at_its_deadline() {
        use actix_web::test::TestRequest;
        let first: Vec<Result<Bytes, PayloadError>> = vec![Ok(Bytes::from_static(b"a=1"))];
        let stalled: BoxedStream = Box::pin(futures_util::StreamExt::chain(
            futures_util::stream::iter(first),
            futures_util::stream::pending(),
        ));
        let (req, _) = TestRequest::default().to_http_parts();
        let sreq = ServiceRequest::from_parts(req, Payload::from(stalled));
        let state = body_state(&sreq);
        let (req, payload) = sreq.into_parts();
        let timed: BoxedStream = Box::pin(Timed {
            inner: payload,
            deadline: BodyDeadline {
                base: Duration::from_millis(50),
                min_rate: 1_000_000,
            },
            received: 0,
            sleep: Box::pin(tokio::time::sleep(Duration::from_millis(50))),
            started: Instant::now(),
            state: state.clone(),
            done: false,
        });
        let mut sreq = ServiceRequest::from_parts(req, Payload::from(timed));
        match read_body(&mut sreq).await {
            Err(PayloadError::Io(e)) => assert_eq!(e.kind(), std::io::ErrorKind::TimedOut),
            other => panic!("cut, not {other:?}"),
        }
        assert_eq!(state.failure(), Some(BodyFailure::TooSlow));
    }
}
