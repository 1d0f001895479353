//! The public pages' cache: every page rendered once per (tournament,
//! revision, language, page), compressed once per encoding (gzip, brotli)
//! when first asked for, then served from memory.
//!
//! - **Key**: the tournament's revision goes up with every write (see
//!   `services::lock`), so an entry is never invalidated: a write makes a new
//!   key, and the entries of older revisions of that tournament are evicted
//!   when the first entry of the new revision arrives.
//! - **Single flight**: each key holds a `OnceCell`; of 500 requests that
//!   arrive together after a change, one computes and the others wait for
//!   its result. A computation that fails is not kept (the next request tries
//!   again). (moka's `try_get_with` does the same; measured with
//!   `.ci/bench-public` it served the cached standings 7–9% slower under
//!   wrk and took 0.18–0.21 ms instead of 0.15–0.16 ms per cached page
//!   in-process, so this small map stays.)
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

use actix_web::http::header::{self, EntityTag, Header, HeaderValue, IfNoneMatch};
use actix_web::http::StatusCode;
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse};
use tokio::sync::OnceCell;

use crate::i18n::Lang;
use crate::services::circuits::CircuitView;
use crate::services::public::Snapshot;
use crate::services::teams::TeamView;
use crate::tournament_file::FileKind;

mod team_page;
pub mod teams;
use crate::web::error::AppError;
use crate::web::AppState;
pub use team_page::TeamPage;

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
    /// A pair's card as JSON (`getPairCard`).
    PairJson(u32),
    /// A round's table results (`/t/{id}/rounds/{n}`).
    Round(u32),
    /// The prize list (`/t/{id}/prizes`).
    Prizes,
    /// The hall screen (`/t/{id}/screen`).
    Screen,
}

impl Page {
    pub fn content_type(self) -> &'static str {
        match self {
            Page::StandingsJson | Page::PairJson(_) => "application/json",
            _ => "text/html; charset=utf-8",
        }
    }

    fn tag(self) -> String {
        match self {
            Page::Tournament => "t".into(),
            Page::Pair(n) => format!("p{n}"),
            Page::StandingsJson => "json".into(),
            Page::PairJson(n) => format!("pj{n}"),
            Page::Round(n) => format!("r{n}"),
            Page::Prizes => "prizes".into(),
            Page::Screen => "screen".into(),
        }
    }
}

/// A content coding the public pages are sent in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Identity,
    Gzip,
    Brotli,
}

impl Encoding {
    /// The `Content-Encoding` token.
    pub fn token(self) -> &'static str {
        match self {
            Encoding::Identity => "identity",
            Encoding::Gzip => "gzip",
            Encoding::Brotli => "br",
        }
    }

    /// What the ETag of this encoding ends with (a representation of its own).
    fn etag_suffix(self) -> &'static str {
        match self {
            Encoding::Identity => "",
            Encoding::Gzip => "-gz",
            Encoding::Brotli => "-br",
        }
    }
}

/// A page ready to send: its bytes, and each compressed form made once, the
/// first time a client asks for it (a page nobody asks for in brotli is
/// never compressed with it), each with its strong ETag.
pub struct Rendered {
    pub content_type: &'static str,
    pub identity: Bytes,
    gzip: OnceLock<Bytes>,
    brotli: OnceLock<Bytes>,
    /// Without quotes: `"{etag}{suffix}"` per encoding.
    etag: String,
}

impl Rendered {
    pub fn new(content_type: &'static str, body: String, etag: String) -> Rendered {
        Rendered {
            content_type,
            identity: Bytes::from(body),
            gzip: OnceLock::new(),
            brotli: OnceLock::new(),
            etag,
        }
    }

    /// The strong ETag of the page in encoding `e`.
    pub fn etag(&self, e: Encoding) -> EntityTag {
        EntityTag::new_strong(format!("{}{}", self.etag, e.etag_suffix()))
    }

    /// The bytes in encoding `e`, compressed on first use (callers asking
    /// meanwhile wait for that one compression).
    pub fn bytes(&self, e: Encoding) -> Bytes {
        match e {
            Encoding::Identity => self.identity.clone(),
            Encoding::Gzip => self.gzip.get_or_init(|| gzip(&self.identity)).clone(),
            Encoding::Brotli => self.brotli.get_or_init(|| brotli(&self.identity)).clone(),
        }
    }
}

/// Gzip, fast level: once per page and revision, yet on the path of the
/// first visitor.
fn gzip(body: &[u8]) -> Bytes {
    let mut enc = flate2::write::GzEncoder::new(
        Vec::with_capacity(body.len() / 4),
        flate2::Compression::fast(),
    );
    let out = enc.write_all(body).and_then(|_| enc.finish());
    // Writing to a Vec cannot fail.
    Bytes::from(out.unwrap_or_default())
}

/// Brotli quality 2, window 2^20: it runs on the first visitor's path after
/// every change. On the 98 KB standings page of 300 pairs (measured with the
/// reference library): quality 2, 10.4 KB in 0.34 ms; quality 4, 9.9 KB in
/// 0.64 ms; quality 5, 9.0 KB in 1 ms; gzip fast 12.6 KB in 0.32 ms.
pub const BROTLI_QUALITY: u32 = 2;
const BROTLI_LGWIN: u32 = 20;

fn brotli(body: &[u8]) -> Bytes {
    let mut out = Vec::with_capacity(body.len() / 5);
    {
        let mut w =
            ::brotli::CompressorWriter::new(&mut out, 16 * 1024, BROTLI_QUALITY, BROTLI_LGWIN);
        // Writing to a Vec cannot fail.
        let _ = w.write_all(body);
    }
    Bytes::from(out)
}

/// Changes with every build, the same for every instance of one binary: a
/// new version's pages never match an old ETag.
pub fn build_tag() -> &'static str {
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

/// A circuit's public page (part of the key and of the ETag).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CircuitPage {
    Standings,
    /// A person's season card.
    Card(crate::ids::PersonId),
    /// The standings as CSV (`/c/{id}/standings.csv`).
    Csv,
    /// The standings as JSON (`getCircuitStandings`).
    Json,
    /// A season card as JSON (`getSeasonCard`).
    CardJson(crate::ids::PersonId),
}

impl CircuitPage {
    pub fn content_type(self) -> &'static str {
        match self {
            CircuitPage::Json | CircuitPage::CardJson(_) => "application/json",
            CircuitPage::Csv => "text/csv; charset=utf-8",
            _ => "text/html; charset=utf-8",
        }
    }

    fn tag(self) -> String {
        match self {
            CircuitPage::Standings => "c".into(),
            CircuitPage::Card(p) => format!("c{p}"),
            CircuitPage::Csv => "csv".into(),
            CircuitPage::Json => "cjson".into(),
            CircuitPage::CardJson(p) => format!("cj{p}"),
        }
    }
}

/// The public caches of one server process.
pub struct PublicCache {
    snapshots: Flight<Lang, Snapshot>,
    pages: Flight<(Lang, Page), Rendered>,
    /// Circuits: the ranking per (circuit, revision, language), and its
    /// pages on top (keyed by the circuit's id: maps of their own).
    circuits: Flight<Lang, CircuitView>,
    circuit_pages: Flight<(Lang, CircuitPage), Rendered>,
    /// Team tournaments: the team view per (tournament, revision,
    /// language), and its pages on top.
    teams: Flight<Lang, TeamView>,
    team_pages: Flight<(Lang, TeamPage), Rendered>,
    /// Each tournament's kind, once read (it never changes).
    kinds: Mutex<HashMap<i64, FileKind>>,
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
            circuits: Flight::new(snapshots),
            circuit_pages: Flight::new(pages),
            teams: Flight::new(snapshots),
            team_pages: Flight::new(pages),
            kinds: Mutex::new(HashMap::new()),
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
        tid: crate::ids::TournamentId,
        rev: i64,
        lang: Lang,
    ) -> Result<Arc<Snapshot>, AppError> {
        self.snapshots
            .get_or_try(tid.0, rev, lang, || async {
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
        tid: crate::ids::TournamentId,
        rev: i64,
        lang: Lang,
        page: Page,
        render: F,
    ) -> Result<Arc<Rendered>, AppError>
    where
        F: FnOnce(&Snapshot) -> Result<String, AppError>,
    {
        self.pages
            .get_or_try(tid.0, rev, (lang, page), || async {
                let snap = self.snapshot(state, tid, rev, lang).await?;
                self.renders.fetch_add(1, Ordering::SeqCst);
                let t0 = std::time::Instant::now();
                let body = render(&snap)?;
                let etag = format!("{}-{tid}-{rev}-{lang}-{}", build_tag(), page.tag());
                let r = Rendered::new(page.content_type(), body, etag);
                tracing::debug!(
                    tid = tid.0,
                    rev,
                    page = ?page,
                    render_ms = t0.elapsed().as_secs_f64() * 1e3,
                    bytes = r.identity.len(),
                    "public page rendered"
                );
                Ok::<_, AppError>(r)
            })
            .await
    }
}

impl PublicCache {
    /// The ranking of circuit `cid` at `rev`, computed once.
    pub async fn circuit(
        &self,
        state: &AppState,
        cid: crate::ids::CircuitId,
        rev: i64,
        lang: Lang,
    ) -> Result<Arc<CircuitView>, AppError> {
        self.circuits
            .get_or_try(cid.0, rev, lang, || async {
                self.computations.fetch_add(1, Ordering::SeqCst);
                let v =
                    crate::services::circuits::view(&state.db, cid, state.settings.timezone, lang)
                        .await?;
                Ok::<_, AppError>(v)
            })
            .await
    }

    /// A circuit's page, rendered once per revision.
    pub async fn circuit_page<F>(
        &self,
        state: &AppState,
        cid: crate::ids::CircuitId,
        rev: i64,
        lang: Lang,
        page: CircuitPage,
        render: F,
    ) -> Result<Arc<Rendered>, AppError>
    where
        F: FnOnce(&CircuitView) -> Result<String, AppError>,
    {
        self.circuit_pages
            .get_or_try(cid.0, rev, (lang, page), || async {
                let view = self.circuit(state, cid, rev, lang).await?;
                self.renders.fetch_add(1, Ordering::SeqCst);
                let body = render(&view)?;
                let etag = format!("{}-c{cid}-{rev}-{lang}-{}", build_tag(), page.tag());
                Ok::<_, AppError>(Rendered::new(page.content_type(), body, etag))
            })
            .await
    }
}

/// A public JSON document of `tid` (no personal variant): rendered once
/// per revision and language, answered with its ETag (304 when the client
/// has it). `render` gets the snapshot and the revision.
pub async fn serve_public_json<F>(
    req: &HttpRequest,
    state: &AppState,
    tid: crate::ids::TournamentId,
    page: Page,
    render: F,
) -> Result<HttpResponse, AppError>
where
    F: FnOnce(&Snapshot, i64) -> Result<String, AppError>,
{
    let lang = crate::web::context::PageCtx::from_request(req).lang;
    // A team or individual tournament has no pairs' documents (its own).
    if state.public.kind(state, tid).await? != FileKind::Pairs {
        return Err(AppError::NotFound);
    }
    let rev = crate::services::current_revision(&state.db, tid)
        .await?
        .ok_or(AppError::NotFound)?;
    let rendered = state
        .public
        .page(state, tid, rev, lang, page, |snap| render(snap, rev))
        .await?;
    Ok(respond(req, &rendered))
}

/// A circuit's public page or document, from the cache for everyone (a
/// circuit's pages carry no staff menu worth a render per visitor):
/// rendered once per revision and language, answered with its ETag.
/// `render` gets the anonymous context, the ranking and the revision.
pub async fn serve_circuit<F>(
    req: &HttpRequest,
    state: &AppState,
    cid: crate::ids::CircuitId,
    page: CircuitPage,
    render: F,
) -> Result<HttpResponse, AppError>
where
    F: FnOnce(&crate::web::context::PageCtx, &CircuitView, i64) -> Result<String, AppError>,
{
    let ctx = crate::web::context::PageCtx::from_request(req).anonymous();
    let rev = crate::services::circuits::revision(&state.db, cid)
        .await?
        .ok_or(AppError::NotFound)?;
    let rendered = state
        .public
        .circuit_page(state, cid, rev, ctx.lang, page, |view| {
            render(&ctx, view, rev)
        })
        .await?;
    Ok(respond(req, &rendered))
}

/// The encoding to send, by actix-web's `Accept-Encoding` negotiation
/// (RFC 9110 §12.5.3): the highest q-value among brotli, gzip and
/// identity; on a tie brotli, then gzip. No header, an unreadable one, or
/// one that refuses everything: identity (a page rather than a 406).
pub fn negotiate(req: &HttpRequest) -> Encoding {
    use actix_web::http::header::{AcceptEncoding, ContentEncoding, Encoding as Coding, Header};
    let offered = [
        Coding::Known(ContentEncoding::Brotli),
        Coding::Known(ContentEncoding::Gzip),
        Coding::identity(),
    ];
    let chosen = AcceptEncoding::parse(req)
        .ok()
        .and_then(|accept| accept.negotiate(offered.iter()));
    match chosen {
        Some(Coding::Known(ContentEncoding::Brotli)) => Encoding::Brotli,
        Some(Coding::Known(ContentEncoding::Gzip)) => Encoding::Gzip,
        _ => Encoding::Identity,
    }
}

/// Whether `If-None-Match` (actix-web's typed header) names the ETag of
/// the representation this request would get (weak comparison, RFC 9110
/// §13.1.2), or `*`. The ETag of another encoding does not match: a cache
/// holding the gzip bytes must not be told they suit a client that takes
/// only brotli.
fn not_modified(req: &HttpRequest, etag: &EntityTag) -> bool {
    match IfNoneMatch::parse(req) {
        Ok(IfNoneMatch::Any) => true,
        Ok(IfNoneMatch::Items(tags)) => tags.iter().any(|t| t.weak_eq(etag)),
        Err(_) => false,
    }
}

/// What every public page says about caching: revalidate each time (the
/// ETag makes that cheap); the content depends on the language and the
/// encoding.
pub const LIVE_CACHE_CONTROL: &str = "no-cache";
pub const VARY: &str = "Accept-Encoding, Accept-Language, Cookie";

/// The response for a cached page: 304 when the client has the
/// representation it would get, else the bytes in the negotiated encoding
/// (compressed once per page, never again per request).
pub fn respond(req: &HttpRequest, r: &Rendered) -> HttpResponse {
    let enc = negotiate(req);
    let etag = r.etag(enc);
    let mut res = if not_modified(req, &etag) {
        HttpResponse::build(StatusCode::NOT_MODIFIED).finish()
    } else {
        let mut res = HttpResponse::Ok()
            .content_type(r.content_type)
            .body(r.bytes(enc));
        // `identity` also tells the compression middleware to leave it as it is.
        res.headers_mut().insert(
            header::CONTENT_ENCODING,
            HeaderValue::from_static(enc.token()),
        );
        res
    };
    let h = res.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&etag.to_string()) {
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

    fn enc(accept: &[&str]) -> Encoding {
        let mut req = actix_web::test::TestRequest::default();
        for a in accept {
            req = req.append_header((header::ACCEPT_ENCODING, *a));
        }
        negotiate(&req.to_http_request())
    }

    #[test]
    fn accept_encoding_q_values_pick_the_encoding() {
        use Encoding::*;
        assert_eq!(enc(&[]), Identity);
        assert_eq!(enc(&["gzip, deflate, br"]), Brotli);
        assert_eq!(enc(&["gzip", "br;q=0.2"]), Gzip, "several header lines");
        assert_eq!(enc(&["br;q=0.2, gzip;q=0.8"]), Gzip);
        assert_eq!(enc(&["br;q=0.8, gzip;q=0.8"]), Brotli, "a tie: the smaller");
        // `*` names no coding: actix-web keeps identity, which it allows.
        assert_eq!(enc(&["*"]), Identity);
        assert_eq!(enc(&["*;q=0.3, br;q=0"]), Identity);
        assert_eq!(enc(&["identity;q=1, br;q=0.5"]), Identity);
        assert_eq!(
            enc(&["identity;q=0, *;q=0"]),
            Identity,
            "a page all the same"
        );
        // The old alias is not read as gzip: identity, which every client takes.
        assert_eq!(enc(&["x-gzip"]), Identity);
        assert_eq!(enc(&["br;q=abc, gzip"]), Gzip, "an unreadable q refuses");
        assert_eq!(enc(&["br;q=NaN"]), Identity);
        assert_eq!(enc(&[" , ;q=1, br ; q=1.0 "]), Brotli);
        assert_eq!(
            enc(&["br;q=0, gzip;q=0.1"]),
            Gzip,
            "a named coding beats unnamed identity"
        );
        assert_eq!(enc(&["identity;q=0.5, gzip;q=0.1"]), Identity);
    }

    #[test]
    fn each_encoding_is_made_once_and_decodes_to_the_page() {
        use std::io::Read;
        let page = "<tr><td>Rossi Maria – Bianchi Luca</td></tr>".repeat(500);
        let r = Rendered::new("text/html", page.clone(), "b-1-2-it-t".into());
        let br = r.bytes(Encoding::Brotli);
        assert!(br.len() < page.len() / 10);
        assert_eq!(br.as_ptr(), r.bytes(Encoding::Brotli).as_ptr(), "made once");
        let mut out = String::new();
        brotli::Decompressor::new(&br[..], 4096)
            .read_to_string(&mut out)
            .unwrap();
        assert_eq!(out, page);
        let gz = r.bytes(Encoding::Gzip);
        let mut out = String::new();
        flate2::read::GzDecoder::new(&gz[..])
            .read_to_string(&mut out)
            .unwrap();
        assert_eq!(out, page);
        assert_eq!(r.etag(Encoding::Identity).to_string(), "\"b-1-2-it-t\"");
        assert_eq!(r.etag(Encoding::Gzip).to_string(), "\"b-1-2-it-t-gz\"");
        assert_eq!(r.etag(Encoding::Brotli).to_string(), "\"b-1-2-it-t-br\"");
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
