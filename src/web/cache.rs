//! The public pages' cache: every page rendered once per (tournament,
//! revision, language, page), compressed once, then served from memory.
//!
//! - **Key**: the tournament's revision goes up with every write (see
//!   `services::lock`), so an entry is never invalidated: a write makes a new
//!   key, and the entries of older revisions of that tournament are evicted
//!   when the first entry of the new revision arrives.
//! - **Single flight**: each key holds a `OnceCell`; of 500 requests that
//!   arrive together after a change, one computes and the others wait for
//!   its result. A computation that fails is not kept (the next request tries
//!   again).
//! - **Bounded**: at most `cap` entries per map; beyond that the least
//!   recently used entry goes.
//! - Two levels: the snapshot (database read + standings, the expensive
//!   part) per (tournament, revision, language), and the rendered page per
//!   (tournament, revision, language, page) on top of it.

use std::collections::HashMap;
use std::future::Future;
use std::hash::Hash;
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse};
use tokio::sync::OnceCell;

use crate::i18n::Lang;
use crate::services::public::Snapshot;
use crate::web::error::AppError;
use crate::web::AppState;

type Slot<V> = Arc<OnceCell<Arc<V>>>;

struct Entry<V> {
    used: u64,
    slot: Slot<V>,
}

struct Inner<S, V> {
    map: HashMap<(i64, i64, S), Entry<V>>,
    clock: u64,
}

/// A bounded single-flight map keyed by (tournament, revision, `S`).
pub struct Flight<S, V> {
    inner: Mutex<Inner<S, V>>,
    cap: usize,
}

impl<S: Hash + Eq + Clone, V> Flight<S, V> {
    pub fn new(cap: usize) -> Self {
        Flight {
            inner: Mutex::new(Inner {
                map: HashMap::new(),
                clock: 0,
            }),
            cap: cap.max(1),
        }
    }

    /// The value of a key, computed by `f` if nobody has it yet; callers
    /// that arrive while it is being computed wait for it.
    pub async fn get_or_try<E, F, Fut>(&self, tid: i64, rev: i64, sub: S, f: F) -> Result<Arc<V>, E>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<V, E>>,
    {
        let slot = self.slot(tid, rev, sub);
        slot.get_or_try_init(|| async { f().await.map(Arc::new) })
            .await
            .cloned()
    }

    fn slot(&self, tid: i64, rev: i64, sub: S) -> Slot<V> {
        let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        inner.clock += 1;
        let now = inner.clock;
        let key = (tid, rev, sub);
        if let Some(e) = inner.map.get_mut(&key) {
            e.used = now;
            return e.slot.clone();
        }
        // A new revision: the older ones of this tournament will not be asked for again.
        inner.map.retain(|k, _| !(k.0 == tid && k.1 < rev));
        while inner.map.len() >= self.cap {
            let oldest = inner
                .map
                .iter()
                .min_by_key(|(_, e)| e.used)
                .map(|(k, _)| k.clone());
            match oldest {
                Some(k) => inner.map.remove(&k),
                None => break,
            };
        }
        let slot = Slot::default();
        inner.map.insert(
            key,
            Entry {
                used: now,
                slot: slot.clone(),
            },
        );
        slot
    }

    pub fn len(&self) -> usize {
        self.inner.lock().map(|i| i.map.len()).unwrap_or(0)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Which public page (part of the key and of the ETag).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Page {
    Tournament,
    Pair(u32),
    StandingsJson,
}

impl Page {
    pub fn content_type(self) -> &'static str {
        match self {
            Page::StandingsJson => "application/json",
            _ => "text/html; charset=utf-8",
        }
    }

    fn tag(self) -> String {
        match self {
            Page::Tournament => "t".into(),
            Page::Pair(n) => format!("p{n}"),
            Page::StandingsJson => "json".into(),
        }
    }
}

/// A page ready to send: its bytes, gzipped once, and their strong ETags.
pub struct Rendered {
    pub content_type: &'static str,
    pub identity: Bytes,
    pub gzip: Bytes,
    pub etag: String,
    pub etag_gzip: String,
}

impl Rendered {
    pub fn new(content_type: &'static str, body: String, etag: String) -> Rendered {
        let mut enc = flate2::write::GzEncoder::new(
            Vec::with_capacity(body.len() / 4),
            // Fast: once per revision, yet on the path of the first visitor.
            flate2::Compression::fast(),
        );
        let gzip = enc
            .write_all(body.as_bytes())
            .and_then(|_| enc.finish())
            .unwrap_or_default();
        Rendered {
            content_type,
            identity: Bytes::from(body),
            gzip: Bytes::from(gzip),
            etag_gzip: format!("\"{etag}-gz\""),
            etag: format!("\"{etag}\""),
        }
    }
}

/// Changes with every build, the same for every instance of one binary: a
/// new version's pages never match an old ETag.
fn build_tag() -> &'static str {
    static TAG: OnceLock<String> = OnceLock::new();
    TAG.get_or_init(|| {
        use sha2::{Digest, Sha256};
        let mut h = Sha256::new();
        h.update(env!("CARGO_PKG_VERSION"));
        if let Some(meta) = std::env::current_exe()
            .ok()
            .and_then(|p| std::fs::metadata(p).ok())
        {
            h.update(meta.len().to_le_bytes());
            if let Ok(t) = meta.modified() {
                h.update(format!("{t:?}"));
            }
        }
        hex::encode(&h.finalize()[..4])
    })
}

/// The public caches of one server process.
pub struct PublicCache {
    snapshots: Flight<Lang, Snapshot>,
    pages: Flight<(Lang, Page), Rendered>,
    computations: AtomicU64,
    renders: AtomicU64,
}

impl Default for PublicCache {
    fn default() -> Self {
        PublicCache::new(16, 2048)
    }
}

impl PublicCache {
    pub fn new(snapshots: usize, pages: usize) -> Self {
        PublicCache {
            snapshots: Flight::new(snapshots),
            pages: Flight::new(pages),
            computations: AtomicU64::new(0),
            renders: AtomicU64::new(0),
        }
    }

    /// How many times the standings were computed (tests: once per revision
    /// and language, however many requests).
    pub fn computations(&self) -> u64 {
        self.computations.load(Ordering::SeqCst)
    }

    /// How many pages were rendered for the cache.
    pub fn renders(&self) -> u64 {
        self.renders.load(Ordering::SeqCst)
    }

    /// The snapshot of `tid` at `rev`, computed once.
    pub async fn snapshot(
        &self,
        state: &AppState,
        tid: i64,
        rev: i64,
        lang: Lang,
    ) -> Result<Arc<Snapshot>, AppError> {
        self.snapshots
            .get_or_try(tid, rev, lang, || async {
                self.computations.fetch_add(1, Ordering::SeqCst);
                let s = crate::services::public::snapshot(
                    &state.db,
                    tid,
                    state.settings.timezone,
                    lang,
                )
                .await?;
                Ok::<_, AppError>(s)
            })
            .await
    }

    /// A rendered page, rendered once per revision.
    pub async fn page<F>(
        &self,
        state: &AppState,
        tid: i64,
        rev: i64,
        lang: Lang,
        page: Page,
        render: F,
    ) -> Result<Arc<Rendered>, AppError>
    where
        F: FnOnce(&Snapshot) -> Result<String, AppError>,
    {
        self.pages
            .get_or_try(tid, rev, (lang, page), || async {
                let snap = self.snapshot(state, tid, rev, lang).await?;
                self.renders.fetch_add(1, Ordering::SeqCst);
                let t0 = std::time::Instant::now();
                let body = render(&snap)?;
                let t1 = std::time::Instant::now();
                let etag = format!("{}-{tid}-{rev}-{lang}-{}", build_tag(), page.tag());
                let r = Rendered::new(page.content_type(), body, etag);
                tracing::debug!(
                    tid,
                    rev,
                    page = ?page,
                    render_ms = (t1 - t0).as_secs_f64() * 1e3,
                    gzip_ms = t1.elapsed().as_secs_f64() * 1e3,
                    bytes = r.identity.len(),
                    "public page rendered"
                );
                Ok::<_, AppError>(r)
            })
            .await
    }
}

/// Whether the client takes gzip (`Accept-Encoding`, `q=0` refuses).
fn accepts_gzip(req: &HttpRequest) -> bool {
    req.headers()
        .get_all(header::ACCEPT_ENCODING)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|item| {
            let mut parts = item.split(';').map(str::trim);
            let coding = parts.next().unwrap_or("");
            let q_zero = parts.any(|p| {
                p.strip_prefix("q=")
                    .and_then(|q| q.trim().parse::<f32>().ok())
                    .is_some_and(|q| q <= 0.0)
            });
            (coding.eq_ignore_ascii_case("gzip") || coding == "*") && !q_zero
        })
}

/// Whether `If-None-Match` names one of the page's ETags (weak comparison,
/// as RFC 9110 §13.1.2 asks).
fn not_modified(req: &HttpRequest, r: &Rendered) -> bool {
    req.headers()
        .get_all(header::IF_NONE_MATCH)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|t| t.trim().trim_start_matches("W/"))
        .any(|t| t == "*" || t == r.etag || t == r.etag_gzip)
}

/// What every public page says about caching: revalidate each time (the
/// ETag makes that cheap); the content depends on the language and the
/// encoding.
pub const LIVE_CACHE_CONTROL: &str = "no-cache";
pub const VARY: &str = "Accept-Encoding, Accept-Language, Cookie";

/// The response for a cached page: 304 when the client has it, else the
/// gzip or plain bytes (never compressed again here).
pub fn respond(req: &HttpRequest, r: &Rendered) -> HttpResponse {
    let gzip = accepts_gzip(req);
    let etag = if gzip { &r.etag_gzip } else { &r.etag };
    let mut res = if not_modified(req, r) {
        HttpResponse::build(StatusCode::NOT_MODIFIED).finish()
    } else if gzip {
        let mut res = HttpResponse::Ok()
            .content_type(r.content_type)
            .body(r.gzip.clone());
        res.headers_mut()
            .insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
        res
    } else {
        let mut res = HttpResponse::Ok()
            .content_type(r.content_type)
            .body(r.identity.clone());
        // Tells the compression middleware to leave it as it is.
        res.headers_mut().insert(
            header::CONTENT_ENCODING,
            HeaderValue::from_static("identity"),
        );
        res
    };
    let h = res.headers_mut();
    if let Ok(v) = HeaderValue::from_str(etag) {
        h.insert(header::ETAG, v);
    }
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(LIVE_CACHE_CONTROL),
    );
    h.insert(header::VARY, HeaderValue::from_static(VARY));
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn one_computation_per_key_and_old_revisions_go() {
        let f: Flight<u8, u32> = Flight::new(3);
        let calls = AtomicU64::new(0);
        for _ in 0..3 {
            let v = f
                .get_or_try(1, 1, 0, || async {
                    calls.fetch_add(1, Ordering::SeqCst);
                    Ok::<_, ()>(7)
                })
                .await
                .unwrap();
            assert_eq!(*v, 7);
        }
        assert_eq!(calls.load(Ordering::SeqCst), 1);
        f.get_or_try(1, 1, 1, || async { Ok::<_, ()>(8) })
            .await
            .unwrap();
        assert_eq!(f.len(), 2);
        // Revision 2 of tournament 1 evicts both entries of revision 1.
        f.get_or_try(1, 2, 0, || async { Ok::<_, ()>(9) })
            .await
            .unwrap();
        assert_eq!(f.len(), 1);
        // The cap: three entries at most, the least recently used goes.
        for tid in 2..6 {
            f.get_or_try(tid, 1, 0, || async { Ok::<_, ()>(1) })
                .await
                .unwrap();
        }
        assert_eq!(f.len(), 3);
    }

    #[tokio::test]
    async fn a_failure_is_not_kept() {
        let f: Flight<u8, u32> = Flight::new(3);
        assert!(f
            .get_or_try(1, 1, 0, || async { Err::<u32, _>("down") })
            .await
            .is_err());
        let v = f
            .get_or_try(1, 1, 0, || async { Ok::<_, &str>(5) })
            .await
            .unwrap();
        assert_eq!(*v, 5);
    }
}
