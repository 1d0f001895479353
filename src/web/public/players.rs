//! The pages players look for (issue 12): where do I sit (a search by
//! surname or pair number), each round's table results, the prize list, the
//! hall screen, and the cheap revision check their script polls. Every page
//! goes through the public cache (`serve_public`: once per revision and
//! language, ETag, 304, HEAD, no cookie); the search, whose answer depends
//! on what was typed, renders from the cached snapshot and is never stored.

use crate::ids::TournamentId;
use crate::web::context::MoneyFacts;
use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use rust_decimal::Decimal;

use super::{line_words, prize_rows, serve_public};
use crate::i18n::format::money;
use crate::services::players::{
    find_pairs, round_results, seating_in_play, RoundResults, Score, SeatLine, SeatRow,
    ShownPenalty, Stage, MAX_QUERY_CHARS,
};
use crate::services::public::{pair_names, Snapshot};
use crate::standings::Row;
use crate::web::cache::{self, Page, Rendered};
use crate::web::context::{web_query_value, PageCtx};
use crate::web::error::AppError;
use crate::web::AppState;

/// What a penalty shows in public: its kind and amount, and the reason.
fn penalty_words(ctx: &PageCtx, p: &ShownPenalty) -> String {
    let kind = ctx.t(&format!("penalty.kind.{}", p.kind));
    match p.amount {
        Some(a) => format!("{kind} {a}: {}", p.reason),
        None => format!("{kind}: {}", p.reason),
    }
}

// ---- where do I sit: the search ----

#[derive(Template)]
#[template(path = "public/find.html")]
struct FindPage<'a> {
    ctx: &'a PageCtx,
    tid: TournamentId,
    name: &'a str,
    query: &'a str,
    found: Vec<u32>,
    /// The seating is not drawn yet (a draft): nobody can be found.
    drawn: bool,
    file: Option<&'a crate::tournament_file::TournamentFile>,
}

impl FindPage<'_> {
    fn names(&self, pair: &u32) -> String {
        pair_names(self.file, *pair)
    }
}

/// `GET /t/{id}/find?q=`: one pair found → its card (303); several → a
/// short list; none → a clear message. A plain GET form on the tournament
/// page, no JavaScript needed.
pub async fn find(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<crate::ids::TournamentId>,
) -> Result<HttpResponse, AppError> {
    let tid = *id;
    let query: String = web_query_value(req.query_string(), "q")
        .unwrap_or_default()
        .trim()
        .chars()
        .take(MAX_QUERY_CHARS)
        .collect();
    let ctx = PageCtx::from_request(&req);
    // A team tournament lists its teams on its page: no pair to find.
    if state.public.kind(&state, tid).await? == crate::tournament_file::FileKind::Teams {
        return Ok(HttpResponse::SeeOther()
            .insert_header((actix_web::http::header::LOCATION, format!("/t/{tid}")))
            .finish());
    }
    let rev = crate::services::current_revision(&state.db, tid)
        .await?
        .ok_or(AppError::NotFound)?;
    let snap = state.public.snapshot(&state, tid, rev, ctx.lang).await?;
    let found = snap
        .file
        .as_ref()
        .map(|f| find_pairs(f, &query))
        .unwrap_or_default();
    if let [one] = found[..] {
        return Ok(HttpResponse::SeeOther()
            .insert_header((header::LOCATION, format!("/t/{tid}/pairs/{one}")))
            .insert_header((header::CACHE_CONTROL, cache::LIVE_CACHE_CONTROL))
            .finish());
    }
    let render = |ctx: &PageCtx| -> Result<String, AppError> {
        Ok(FindPage {
            ctx,
            tid,
            name: &snap.loaded.t.name,
            query: &query,
            found: found.clone(),
            drawn: snap.file.is_some(),
            file: snap.file.as_ref(),
        }
        .render()?)
    };
    if ctx.user.is_some() {
        return Ok(HttpResponse::Ok()
            .content_type("text/html; charset=utf-8")
            .body(render(&ctx)?));
    }
    let body = render(&ctx.anonymous())?;
    // The same answer for the same words at the same revision: an ETag of
    // its own (never stored in the cache, so typing cannot evict pages).
    let key = {
        use sha2::{Digest, Sha256};
        hex::encode(&Sha256::digest(query.to_lowercase().as_bytes())[..6])
    };
    let etag = format!("{}-{tid}-{rev}-{}-f{key}", cache::build_tag(), ctx.lang);
    let rendered = Rendered::new("text/html; charset=utf-8", body, etag);
    Ok(cache::respond(&req, &rendered))
}

// ---- a round's results ----

#[derive(Template)]
#[template(path = "public/round.html")]
struct RoundPage<'a> {
    ctx: &'a PageCtx,
    tid: TournamentId,
    rev: i64,
    name: &'a str,
    stage: String,
    results: RoundResults,
    rounds: Vec<u32>,
    snap: &'a Snapshot,
}

impl RoundPage<'_> {
    fn names(&self, pair: &u32) -> String {
        self.snap.pair_names(*pair)
    }
    fn penalty(&self, p: &ShownPenalty) -> String {
        penalty_words(self.ctx, p)
    }
    fn is_current(&self, n: &u32) -> bool {
        *n == self.results.round
    }
    /// A line's MP (after its MP penalties), "—" for an adjusted score.
    fn mp_cell(&self, sc: &Score, ns: bool) -> String {
        sc.mp
            .map(|(a, b)| self.ctx.int(if ns { a } else { b }))
            .unwrap_or_else(|| "—".to_string())
    }
    fn mp_pen(&self, sc: &Score, ns: bool) -> i64 {
        if ns {
            sc.mp_penalty.0
        } else {
            sc.mp_penalty.1
        }
    }
    fn vp_cell(&self, sc: &Score, ns: bool) -> i64 {
        if ns {
            sc.vp.0
        } else {
            sc.vp.1
        }
    }
}

/// `GET /t/{id}/rounds/{n}`: every table of round `n`; a table's result
/// only once its sheet counts.
pub async fn round(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(crate::ids::TournamentId, u32)>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    serve_public(&req, &state, tid, Page::Round(n), true, |ctx, snap, rev| {
        let results = round_results(snap, n).ok_or(AppError::NotFound)?;
        let rounds = snap
            .file
            .as_ref()
            .map(|f| f.rounds.iter().map(|r| r.number).collect())
            .unwrap_or_default();
        Ok(RoundPage {
            ctx,
            tid,
            rev,
            name: &snap.loaded.t.name,
            stage: Stage::of(snap).label(ctx.lang),
            results,
            rounds,
            snap,
        }
        .render()?)
    })
    .await
}

// ---- the prize list ----

/// One line of the prize list.
struct PrizeLine {
    place: u32,
    /// `None` before any result: the places and what they pay, nobody's yet.
    pair: Option<u32>,
    amount: Decimal,
    per_player: Option<[Decimal; 2]>,
    /// On the first line of a group's prizes (RULES.md §13): "Girone A ·
    /// 7 tavoli · 250,00 €".
    group_head: Option<(String, String)>,
}

#[derive(Template)]
#[template(path = "public/prizes.html")]
struct PrizesPage<'a> {
    ctx: &'a PageCtx,
    tid: TournamentId,
    rev: i64,
    name: &'a str,
    stage: String,
    finished: bool,
    /// Some result counts: the pairs are shown (provisional until the close).
    with_pairs: bool,
    /// Where the entry fees go (none: the settings give no pool).
    facts: Option<MoneyFacts>,
    entries_label: &'static str,
    lines: Vec<PrizeLine>,
    snap: &'a Snapshot,
}

impl PrizesPage<'_> {
    fn names(&self, pair: &u32) -> String {
        self.snap.pair_names(*pair)
    }
    fn money(&self, d: &Decimal) -> String {
        money(self.ctx.lang, *d)
    }
}

/// A group's heading on the prize list: its letter, its tables and what
/// its prizes pay in all.
fn group_heading(ctx: &PageCtx, st: &crate::standings::Standings, group: &str) -> String {
    let pairs = st
        .rows
        .iter()
        .filter(|r| r.group.as_deref() == Some(group))
        .count();
    let pool: Decimal = st
        .prizes
        .iter()
        .filter(|p| p.group.as_deref() == Some(group))
        .map(|p| p.amount)
        .sum();
    crate::i18n::tf(
        ctx.lang,
        "groups.prizes.heading",
        &[
            ("group", &group),
            ("tables", &(pairs / 2)),
            ("pool", &money(ctx.lang, pool)),
        ],
    )
}

/// `GET /t/{id}/prizes`: places, pairs and amounts; provisional until the
/// director closes the tournament; before any result only what each place
/// pays. A scheme wider than the field pays the places that exist (RULES.md §10).
pub async fn prizes(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<crate::ids::TournamentId>,
) -> Result<HttpResponse, AppError> {
    let tid = *id;
    serve_public(&req, &state, tid, Page::Prizes, true, |ctx, snap, rev| {
        let stage = Stage::of(snap);
        let finished = snap.finished();
        let with_pairs = stage != Stage::NoResults && snap.standings.is_some();
        let (facts, lines) = match &snap.standings {
            Some(st) if with_pairs => (
                Some(MoneyFacts::of(
                    st.entries,
                    st.pool,
                    st.organiser_fee,
                    finished,
                )),
                st.prizes
                    .iter()
                    .enumerate()
                    .map(|(i, p)| PrizeLine {
                        place: p.place,
                        pair: Some(p.number),
                        amount: p.amount,
                        per_player: Some(p.per_player),
                        group_head: p
                            .group
                            .as_ref()
                            .filter(|g| i == 0 || st.prizes[i - 1].group.as_ref() != Some(*g))
                            .map(|g| (g.clone(), group_heading(ctx, st, g))),
                    })
                    .collect(),
            ),
            _ => {
                let entries = snap
                    .standings
                    .as_ref()
                    .map(|s| s.entries)
                    .unwrap_or_else(|| u32::try_from(snap.loaded.pairs.len()).unwrap_or(0));
                let pool = snap.loaded.settings.pool_for(entries).ok();
                let lines = pool
                    .as_ref()
                    .map(prize_rows)
                    .unwrap_or_default()
                    .into_iter()
                    .map(|(place, _, amount)| PrizeLine {
                        place: u32::try_from(place).unwrap_or(u32::MAX),
                        pair: None,
                        amount,
                        per_player: None,
                        group_head: None,
                    })
                    .collect();
                let facts =
                    pool.map(|p| MoneyFacts::of(entries, p.pool, p.organiser_fee, finished));
                (facts, lines)
            }
        };
        Ok(PrizesPage {
            ctx,
            tid,
            rev,
            name: &snap.loaded.t.name,
            stage: stage.label(ctx.lang),
            finished,
            with_pairs,
            facts,
            entries_label: "public.entries",
            lines,
            snap,
        }
        .render()?)
    })
    .await
}

// ---- the hall screen ----

#[derive(Template)]
#[template(path = "public/screen.html")]
struct ScreenPage<'a> {
    ctx: &'a PageCtx,
    tid: TournamentId,
    rev: i64,
    name: &'a str,
    stage: String,
    rows: &'a [Row],
    /// The round in play, whose seating the screen shows.
    seat_round: Option<u32>,
    seat_rows: Vec<SeatRow>,
    snap: &'a Snapshot,
}

impl ScreenPage<'_> {
    fn names(&self, pair: &u32) -> String {
        self.snap.pair_names(*pair)
    }
    fn line(&self, l: &SeatLine) -> String {
        line_words(self.ctx, l)
    }
}

/// `GET /t/{id}/screen`: the hall screen, large type, the standings (paged
/// by its script) and the seating of the round in play. Never the time
/// left (RULES.md §6).
pub async fn screen(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<crate::ids::TournamentId>,
) -> Result<HttpResponse, AppError> {
    let tid = *id;
    serve_public(&req, &state, tid, Page::Screen, false, |ctx, snap, rev| {
        let rows: &[Row] = snap.standings.as_ref().map_or(&[], |s| &s.rows[..]);
        let (seat_round, seat_rows) = match seating_in_play(snap) {
            Some((n, rows)) => (Some(n), rows),
            None => (None, Vec::new()),
        };
        Ok(ScreenPage {
            ctx,
            tid,
            rev,
            name: &snap.loaded.t.name,
            stage: Stage::of(snap).label(ctx.lang),
            rows,
            seat_round,
            seat_rows,
            snap,
        }
        .render()?)
    })
    .await
}

// ---- the revision check ----

/// `GET /t/{id}/rev`: `{"revision":N}`, the cheap check the pages' script
/// polls (no standings computed, a few bytes, 304 to its ETag).
pub async fn revision(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<crate::ids::TournamentId>,
) -> Result<HttpResponse, AppError> {
    let tid = *id;
    let rev = crate::services::current_revision(&state.db, tid)
        .await?
        .ok_or(AppError::NotFound)?;
    let etag = format!("\"{}-{tid}-{rev}-rev\"", cache::build_tag());
    let fresh = req
        .headers()
        .get_all(header::IF_NONE_MATCH)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|t| t.trim().trim_start_matches("W/"))
        .any(|t| t == "*" || t == etag);
    let mut res = if fresh {
        HttpResponse::build(StatusCode::NOT_MODIFIED).finish()
    } else {
        HttpResponse::Ok()
            .content_type("application/json")
            .body(format!("{{\"revision\":{rev}}}"))
    };
    let h = res.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&etag) {
        h.insert(header::ETAG, v);
    }
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(cache::LIVE_CACHE_CONTROL),
    );
    Ok(res)
}
