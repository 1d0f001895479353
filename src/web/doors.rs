//! The server's doors under attack: who a request comes from, how many
//! connections each client address and the whole server may hold open,
//! and the refusals made before a handler runs (a JSON endpoint sent
//! another type of body: 415; a table-code lookup past its address's
//! allowance: 429).
//!
//! Connections: every accepted connection takes a slot, per client address
//! (IPv6 by its /64) and in total; one over either cap is shut at once, so
//! a flood of idle or slow connections from one address cannot take the
//! server's file descriptors (the headers of a request must arrive within
//! actix-web's `client_request_timeout`, its body within
//! `web::limits`' deadline). Behind a reverse proxy every connection comes
//! from the proxy: the per-address cap is then the proxy's (README), only
//! the total applies here. At start the soft `RLIMIT_NOFILE` is raised to
//! the hard one, and the total cap is kept below it.

use std::any::Any;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use actix_web::body::BoxBody;
use actix_web::dev::{Extensions, ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderValue};
use actix_web::http::Method;
use actix_web::middleware::Next;
use actix_web::{web, Error, ResponseError};

use super::error::{ApiError, AppError, ErrorCode};
use super::AppState;
use crate::services::brakes::Lookup;

pub use super::client::{client_addr, client_ip, network};

// ---- connections ----

/// Open connections, in total and per client address, and their caps.
#[derive(Debug)]
pub struct Connections {
    total_cap: usize,
    /// `None`: no per-address cap (behind a proxy, every peer is the proxy).
    per_address_cap: Option<usize>,
    open: AtomicUsize,
    by_address: Mutex<HashMap<IpAddr, usize>>,
    refused: AtomicU64,
}

/// A connection's place; given back when the connection closes (actix-web
/// drops the connection's data with it).
#[derive(Debug)]
pub struct ConnectionSlot {
    conns: Arc<Connections>,
    address: Option<IpAddr>,
}

impl Drop for ConnectionSlot {
    fn drop(&mut self) {
        self.conns.open.fetch_sub(1, Ordering::AcqRel);
        if let Some(a) = self.address {
            let mut by = self.conns.lock();
            if let Some(n) = by.get_mut(&a) {
                *n -= 1;
                if *n == 0 {
                    by.remove(&a);
                }
            }
        }
    }
}

impl Connections {
    pub fn new(total_cap: usize, per_address_cap: Option<usize>) -> Arc<Connections> {
        Arc::new(Connections {
            total_cap: total_cap.max(1),
            per_address_cap: per_address_cap.map(|n| n.max(1)),
            open: AtomicUsize::new(0),
            by_address: Mutex::new(HashMap::new()),
            refused: AtomicU64::new(0),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<IpAddr, usize>> {
        self.by_address.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub fn total_cap(&self) -> usize {
        self.total_cap
    }

    /// Connections open now.
    pub fn open(&self) -> usize {
        self.open.load(Ordering::Acquire)
    }

    /// A slot for a connection from `address`, or `None` over a cap.
    pub fn admit(self: &Arc<Self>, address: Option<IpAddr>) -> Option<ConnectionSlot> {
        let counted = address.filter(|_| self.per_address_cap.is_some());
        if let (Some(a), Some(cap)) = (counted, self.per_address_cap) {
            let mut by = self.lock();
            let n = by.entry(a).or_insert(0);
            if *n >= cap {
                if *n == 0 {
                    by.remove(&a);
                }
                return None;
            }
            *n += 1;
        }
        if self.open.fetch_add(1, Ordering::AcqRel) >= self.total_cap {
            // Over the total: undo both counts (the slot's drop does).
            drop(ConnectionSlot {
                conns: self.clone(),
                address: counted,
            });
            return None;
        }
        Some(ConnectionSlot {
            conns: self.clone(),
            address: counted,
        })
    }

    /// actix-web's `on_connect`: takes the connection's slot, or shuts the
    /// connection at once when over a cap.
    pub fn on_connect(self: &Arc<Self>, conn: &dyn Any, data: &mut Extensions) {
        let Some(stream) = conn.downcast_ref::<actix_web::rt::net::TcpStream>() else {
            return;
        };
        let address = stream.peer_addr().ok().map(|a| network(a.ip()));
        match self.admit(address) {
            Some(slot) => {
                data.insert(slot);
            }
            None => {
                let _ = socket2::SockRef::from(stream).shutdown(std::net::Shutdown::Both);
                let n = self.refused.fetch_add(1, Ordering::Relaxed) + 1;
                // A line per power of two: an attack does not fill the log.
                if n.is_power_of_two() {
                    tracing::info!(
                        refused = n,
                        open = self.open(),
                        "connection refused: over the connection cap"
                    );
                }
            }
        }
    }
}

/// Raises the soft limit on open files to the hard one; the limit now.
pub fn raise_file_limit() -> Option<u64> {
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(n) => Some(n),
        Err(e) => {
            tracing::warn!(error = %e, "cannot raise the open-file limit");
            rlimit::getrlimit(rlimit::Resource::NOFILE)
                .ok()
                .map(|(soft, _)| soft)
        }
    }
}

/// File descriptors kept for everything but client connections: the
/// database pool, the listener, log and static files, the runtime.
pub const RESERVED_FILES: u64 = 256;

/// The total connection cap: `wanted`, below the file limit.
pub fn connection_cap(wanted: usize, file_limit: Option<u64>) -> usize {
    let room = file_limit.map_or(u64::MAX, |l| l.saturating_sub(RESERVED_FILES).max(16));
    wanted
        .min(usize::try_from(room).unwrap_or(usize::MAX))
        .max(1)
}

// ---- refusals before the handler ----

/// Paths whose first segment after the prefix is a table code.
const TABLE_CODE_PREFIXES: [&str; 2] = ["/s/", "/api/v1/score/"];

/// The table code a path names, if it is a table-side path.
pub fn table_code_of(path: &str) -> Option<&str> {
    TABLE_CODE_PREFIXES.iter().find_map(|p| {
        let code = path.strip_prefix(p)?.split('/').next()?;
        (!code.is_empty()).then_some(code)
    })
}

/// A JSON endpoint's write sent a body of another declared type.
fn wrong_body_type(req: &ServiceRequest) -> bool {
    if !req.path().starts_with("/api/")
        || !matches!(
            *req.method(),
            Method::POST | Method::PUT | Method::PATCH | Method::DELETE
        )
    {
        return false;
    }
    let h = req.headers();
    let has_body = h.contains_key(header::TRANSFER_ENCODING)
        || h.get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok())
            .is_some_and(|n| n > 0);
    let Some(ct) = h.get(header::CONTENT_TYPE) else {
        // No type: read as JSON (what `curl -d` users mean).
        return false;
    };
    let ct = ct.to_str().unwrap_or("").to_ascii_lowercase();
    let essence = ct.split(';').next().unwrap_or("").trim();
    // The member list comes as the file itself (issue 36).
    let member_file = req.path() == "/api/v1/members/import"
        && (essence.starts_with("text/") || essence.starts_with("application/vnd."));
    has_body && essence != "application/json" && !essence.ends_with("+json") && !member_file
}

/// Refusals made before any handler: 405 with `Allow` for a method a
/// documented API path does not take (whichever module serves the path),
/// 415 for a body a JSON endpoint cannot read, 429 for a table-code lookup
/// past its address's allowance (see `services::brakes`). Runs inside the
/// session layer (the language is known) and inside `head_as_get` (a `HEAD`
/// arrives as a `GET`).
pub async fn gate(
    req: ServiceRequest,
    next: Next<BoxBody>,
) -> Result<ServiceResponse<BoxBody>, Error> {
    if req.path().starts_with("/api/") {
        if let Some(allowed) = super::api::openapi::allowed_methods(req.path()) {
            if !allowed.iter().any(|m| m == req.method().as_str()) {
                let mut res = ApiError::new(
                    ErrorCode::MethodNotAllowed,
                    "this path does not take this method",
                )
                .error_response();
                if let Ok(v) = HeaderValue::from_str(&allowed.join(", ")) {
                    res.headers_mut().insert(header::ALLOW, v);
                }
                return Ok(req.into_response(res));
            }
        }
    }
    if wrong_body_type(&req) {
        let e = ApiError::new(
            ErrorCode::UnsupportedMediaType,
            "send the body as application/json",
        );
        return Ok(req.error_response(e));
    }
    if let Some(code) = table_code_of(req.path()) {
        let Some(state) = req.app_data::<web::Data<AppState>>().cloned() else {
            return next.call(req).await;
        };
        let client = client_addr(req.request(), state.settings.trust_forwarded_for);
        let lookup = state.lookups.check(&state.db, code, client).await;
        match lookup {
            Ok(Lookup::Found | Lookup::Unknown) => {}
            Ok(Lookup::Refused { wait_seconds }) => {
                tracing::info!(
                    wait_seconds,
                    "table-code lookup refused: too many unknown codes"
                );
                let mut res = if req.path().starts_with("/api/") {
                    ApiError::new(
                        ErrorCode::TooManyAttempts,
                        "too many unknown table codes from this address: wait",
                    )
                    .error_response()
                } else {
                    AppError::TooManyAttempts { wait_seconds }.error_response()
                };
                if let Ok(v) = HeaderValue::from_str(&wait_seconds.to_string()) {
                    res.headers_mut().insert(header::RETRY_AFTER, v);
                }
                return Ok(req.into_response(res));
            }
            Err(e) => return Ok(req.error_response(AppError::from(e))),
        }
    }
    next.call(req).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::SocketAddr;

    #[test]
    fn the_forwarded_address_counts_only_when_trusted() {
        let peer: SocketAddr = "127.0.0.1:5000".parse().unwrap();
        let xff = Some("203.0.113.9, 198.51.100.7");
        assert_eq!(
            client_ip(Some(peer), xff, false),
            Some("127.0.0.1".parse().unwrap())
        );
        assert_eq!(
            client_ip(Some(peer), xff, true),
            Some("198.51.100.7".parse().unwrap())
        );
        assert_eq!(
            client_ip(Some(peer), Some("garbage"), true),
            Some("127.0.0.1".parse().unwrap())
        );
        // One IPv6 client owns a /64; a v4-mapped address is the v4 one.
        let v6: SocketAddr = "[2001:db8:1:2:3:4:5:6]:443".parse().unwrap();
        assert_eq!(
            client_ip(Some(v6), None, false),
            Some("2001:db8:1:2::".parse().unwrap())
        );
        let mapped: SocketAddr = "[::ffff:192.0.2.1]:443".parse().unwrap();
        assert_eq!(
            client_ip(Some(mapped), None, false),
            Some("192.0.2.1".parse().unwrap())
        );
    }

    #[test]
    fn connections_are_capped_per_address_and_in_total() {
        let c = Connections::new(5, Some(2));
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let a1 = c.admit(Some(a)).unwrap();
        let _a2 = c.admit(Some(a)).unwrap();
        assert!(c.admit(Some(a)).is_none(), "a third from one address");
        let _b1 = c.admit(Some(b)).unwrap();
        assert_eq!(c.open(), 3);
        drop(a1);
        let _a3 = c.admit(Some(a)).unwrap();
        let _b2 = c.admit(Some(b)).unwrap();
        let _n = c.admit(None).unwrap();
        assert_eq!(c.open(), 5);
        assert!(c.admit(None).is_none(), "over the total");
        assert!(c.admit(Some("10.0.0.3".parse().unwrap())).is_none());
        assert_eq!(c.open(), 5);
        assert!(!c.lock().contains_key(&"10.0.0.3".parse().unwrap()));
        // Without a per-address cap (behind a proxy) only the total counts.
        let p = Connections::new(3, None);
        let _x: Vec<_> = (0..3).map(|_| p.admit(Some(a)).unwrap()).collect();
        assert!(p.admit(Some(a)).is_none());
    }

    #[test]
    fn the_cap_stays_below_the_file_limit() {
        assert_eq!(
            connection_cap(10_000, Some(1024)),
            1024 - RESERVED_FILES as usize
        );
        assert_eq!(connection_cap(10_000, Some(1_048_576)), 10_000);
        assert_eq!(connection_cap(10_000, None), 10_000);
        assert_eq!(connection_cap(10_000, Some(10)), 16);
    }

    #[test]
    fn table_codes_in_paths() {
        assert_eq!(table_code_of("/s/KX7MPA"), Some("KX7MPA"));
        assert_eq!(table_code_of("/s/KX7MPA/sheet"), Some("KX7MPA"));
        assert_eq!(
            table_code_of("/api/v1/score/KX7MPA/confirm"),
            Some("KX7MPA")
        );
        assert_eq!(table_code_of("/s/"), None);
        assert_eq!(table_code_of("/static/app.js"), None);
        assert_eq!(table_code_of("/t/1"), None);
    }
}
