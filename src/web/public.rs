//! Pages anyone may open (players on their phones) and the seat-draw helper.
//! The pages players look for besides the standings and the pair cards
//! (search, round results, prizes, hall screen) are in `players`.

pub mod circuits;
pub mod enter;
pub mod individual;
pub mod players;
pub mod teams;

use crate::ids::TournamentId;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;

use super::context::PageCtx;
use super::AppState;
use crate::rules::prize_pool::Prizes;
use crate::services::players::{current_seat, Seat, SeatLine, Stage};
use crate::services::public::{pair_names, shows_in_public, PublicStandings, Snapshot};
use crate::services::view::Tournament;
use crate::standings::{CardPenalty, CardRound, Outcome, PairCard, Row, Standings};
use crate::tournament::settings::Settings;
use crate::tournament_file::TournamentFile;
use crate::web::cache::{self, Page};
use crate::web::error::{ApiError, AppError, ErrorCode};

#[derive(Template)]
#[template(path = "public/tournament.html")]
struct TournamentPage<'a> {
    ctx: &'a PageCtx,
    t: &'a Tournament,
    settings: &'a Settings,
    entries: u32,
    pool: Option<Prizes>,
    /// The places the pool pays now: (place, percent, amount). A scheme with
    /// more places than entries pays the places that exist, its percentages
    /// scaled so the pool is paid whole (RULES.md §10).
    prize_rows: Vec<(usize, rust_decimal::Decimal, rust_decimal::Decimal)>,
    standings: Option<&'a Standings>,
    file: Option<&'a TournamentFile>,
    /// The rounds drawn, for the links to their results.
    rounds: Vec<u32>,
    /// "no results yet", "after round 2 · round 3 in play"…
    stage: String,
    rev: i64,
    circuits: &'a [(i64, String)],
}

impl TournamentPage<'_> {
    /// Where the entry fees of `p` go (the prize list's facts).
    fn money_facts(&self, p: &Prizes) -> crate::web::context::MoneyFacts {
        crate::web::context::MoneyFacts::of(self.entries, p.pool, p.organiser_fee, self.finished())
    }

    fn names(&self, pair: &u32) -> String {
        pair_names(self.file, *pair)
    }
    fn surnames(&self, pair: &u32) -> String {
        crate::services::public::pair_surnames(self.file, *pair)
    }
    /// Entries online are open now (issue 36): the page links to the form.
    fn entries_open(&self) -> bool {
        let started = self.t.status != crate::tournament::Status::Draft;
        self.settings
            .online
            .open(chrono::Utc::now().naive_utc(), started)
    }
    fn finished(&self) -> bool {
        self.t.finished()
    }
    /// The standings in sections, one per group (RULES.md §13), A first,
    /// then the pairs withdrawn before the cut; one section without groups.
    fn sections<'s>(&self, st: &'s Standings) -> Vec<(Option<String>, Vec<&'s Row>)> {
        let mut out: Vec<(Option<String>, Vec<&Row>)> = Vec::new();
        for r in &st.rows {
            match out.last_mut() {
                Some((g, rows)) if *g == r.group => rows.push(r),
                _ => out.push((r.group.clone(), vec![r])),
            }
        }
        out
    }
    /// Whether prize `i` is the first of its group.
    fn group_starts(&self, st: &Standings, i: &usize) -> bool {
        *i > 0 && st.prizes.get(*i).map(|p| &p.group) != st.prizes.get(*i - 1).map(|p| &p.group)
    }
}

/// The response of a public page: rendered once per revision and language
/// for every visitor without a session (ETag, 304, gzip: `web::cache`);
/// rendered for a signed-in member of staff, whose page carries their menu
/// (and is never stored: `middleware::security_headers`).
async fn serve_public<F>(
    req: &HttpRequest,
    state: &AppState,
    tid: TournamentId,
    page: Page,
    personal: bool,
    render: F,
) -> Result<HttpResponse, AppError>
where
    F: FnOnce(&PageCtx, &Snapshot, i64) -> Result<String, AppError>,
{
    // A team tournament has its own pages at the same addresses (issue 25).
    if state.public.kind(state, tid).await? == crate::tournament_file::FileKind::Teams {
        return match page {
            Page::Tournament => teams::standings(req, state, tid, false).await,
            Page::Screen => teams::standings(req, state, tid, true).await,
            Page::Round(n) => teams::round(req, state, tid, n).await,
            Page::Prizes => teams::prizes(req, state, tid).await,
            Page::StandingsJson => teams::standings_json(req, state, tid).await,
            Page::Pair(_) | Page::PairJson(_) => Err(AppError::NotFound),
        };
    }
    // And an individual tournament its own (issue 35).
    if state.public.kind(state, tid).await? == crate::tournament_file::FileKind::Individual {
        return match page {
            Page::Tournament => individual::standings_page(req, state, tid, false).await,
            Page::Screen => individual::standings_page(req, state, tid, true).await,
            Page::Round(n) => individual::round(req, state, tid, n).await,
            Page::Prizes => individual::prizes(req, state, tid).await,
            Page::StandingsJson => individual::standings_json(req, state, tid).await,
            Page::Pair(_) | Page::PairJson(_) => Err(AppError::NotFound),
        };
    }
    let ctx = PageCtx::from_request(req);
    let rev = crate::services::current_revision(&state.db, tid)
        .await?
        .ok_or(AppError::NotFound)?;
    if personal && ctx.user.is_some() {
        let snap = state.public.snapshot(state, tid, rev, ctx.lang).await?;
        let body = render(&ctx, &snap, rev)?;
        return Ok(HttpResponse::Ok()
            .content_type(page.content_type())
            .body(body));
    }
    let anon = ctx.anonymous();
    let rendered = state
        .public
        .page(state, tid, rev, ctx.lang, page, |snap| {
            render(&anon, snap, rev)
        })
        .await?;
    Ok(cache::respond(req, &rendered))
}

/// The public page of a tournament: format, rounds, fee, the pool so far
/// and how it is split (seed 000: shown during the whole tournament).
pub async fn tournament(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<crate::ids::TournamentId>,
) -> Result<HttpResponse, AppError> {
    serve_public(&req, &state, *id, Page::Tournament, true, render_tournament).await
}

/// The places a pool pays: never more rows than there are entries.
fn prize_rows(
    p: &crate::rules::prize_pool::Prizes,
) -> Vec<(usize, rust_decimal::Decimal, rust_decimal::Decimal)> {
    let paid = p.scheme.len().min(p.prizes.len());
    let shown: rust_decimal::Decimal = p.scheme.iter().take(paid).sum();
    p.scheme
        .iter()
        .zip(&p.prizes)
        .enumerate()
        .map(|(i, (pct, amount))| {
            let pct = if paid < p.scheme.len() && !shown.is_zero() {
                (pct * rust_decimal::Decimal::ONE_HUNDRED / shown).round_dp(2)
            } else {
                *pct
            };
            (i + 1, pct.normalize(), *amount)
        })
        .collect()
}

fn render_tournament(ctx: &PageCtx, snap: &Snapshot, rev: i64) -> Result<String, AppError> {
    let l = &snap.loaded;
    // Entries as RULES.md §10 counts them: no-shows paid nothing.
    let entries =
        u32::try_from(l.pairs.iter().filter(|p| p.is_entry()).count()).unwrap_or(u32::MAX);
    let pool = l.settings.pool_for(entries).ok();
    let prize_rows = pool.as_ref().map(prize_rows).unwrap_or_default();
    let rounds = snap
        .file
        .as_ref()
        .map(|f| f.rounds.iter().map(|r| r.number).collect())
        .unwrap_or_default();
    Ok(TournamentPage {
        ctx,
        t: &l.t,
        settings: &l.settings,
        entries,
        pool,
        prize_rows,
        standings: snap.standings.as_ref(),
        file: snap.file.as_ref(),
        rounds,
        stage: Stage::of(snap).label(ctx.lang),
        rev,
        circuits: &snap.circuits,
    }
    .render()?)
}

/// The standings document of either kind of tournament.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum StandingsDoc {
    Pairs(PublicStandings),
    Teams(crate::services::teams::TeamStandingsDoc),
    Individual(crate::services::individual::standings::PlayerStandingsDoc),
}

/// `GET /api/v1/tournaments/{id}/standings`: the public standings as JSON
/// (the `getStandings` operation), cached like the pages.
#[utoipa::path(get, path = "/api/v1/tournaments/{id}/standings", tag = "public",
    operation_id = "getStandings",
    params(("id" = i64, Path, description = "Tournament id")),
    responses((status = 200, description = "The standings, prizes and penalties (no token; ETag per revision): a pairs tournament's, a team tournament's (`kind` `teams`) or an individual one's (`kind` `individual`)",
            body = StandingsDoc),
        (status = 304, description = "Not modified (If-None-Match)"),
        (status = 404, description = "No such tournament", body = crate::web::api::reply::ErrorBody)))]
pub async fn standings_json(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<crate::ids::TournamentId>,
) -> Result<HttpResponse, ApiError> {
    serve_public(
        &req,
        &state,
        *id,
        Page::StandingsJson,
        false,
        |_, snap, rev| {
            serde_json::to_string(&PublicStandings::of(snap, rev))
                .map_err(|e| AppError::Internal(e.into()))
        },
    )
    .await
    .map_err(|e| match e {
        AppError::NotFound => ApiError::new(ErrorCode::NotFound, "no such tournament"),
        e => {
            tracing::error!(error = %e, "public standings failed");
            ApiError::new(ErrorCode::Internal, "the standings cannot be computed now")
        }
    })
}

// ---- a pair's card ----

#[derive(Template)]
#[template(path = "public/pair.html")]
struct PairPage<'a> {
    ctx: &'a PageCtx,
    tid: TournamentId,
    name: &'a str,
    finished: bool,
    pair: u32,
    names: String,
    card: &'a PairCard,
    row: Option<&'a crate::standings::Row>,
    prize: Option<&'a crate::standings::Prize>,
    file: &'a TournamentFile,
    /// Where the pair sits in the round in play (large, at the top).
    seat: Option<Seat>,
    stage: String,
    rev: i64,
}

impl PairPage<'_> {
    fn seat_line(&self, l: &SeatLine) -> String {
        line_words(self.ctx, l)
    }
    /// The round's results exist as a page once the round is drawn; a link
    /// to the pair's table there.
    fn opponent_names(&self, o: &u32) -> String {
        pair_names(Some(self.file), *o)
    }
    fn results_href(&self, r: &CardRound) -> String {
        match r.table {
            Some(t) => format!("/t/{}/rounds/{}#table-{t}", self.tid, r.round),
            None => format!("/t/{}/rounds/{}", self.tid, r.round),
        }
    }
    fn opponent(&self, r: &CardRound) -> String {
        match r.opponent {
            Some(o) => format!("{o} · {}", pair_names(Some(self.file), o)),
            None => String::new(),
        }
    }
    fn outcome_key(&self, r: &CardRound) -> &'static str {
        match r.outcome {
            Outcome::Played => "card.outcome.played",
            Outcome::Adjusted => "card.outcome.adjusted",
            Outcome::Bye => "card.outcome.bye",
            Outcome::Pending => "card.outcome.pending",
            Outcome::Absent => "card.outcome.absent",
        }
    }
    fn line_label(&self, r: &CardRound) -> &'static str {
        match r.line {
            Some(crate::rules::Line::Ns) => "NS",
            Some(crate::rules::Line::Ew) => crate::rules::Line::Ew.label(self.ctx.lang),
            None => "",
        }
    }
    /// The penalties that count (never a withdrawn one, never who gave it).
    fn public_penalties<'b>(&self, r: &'b CardRound) -> Vec<&'b CardPenalty> {
        r.penalties.iter().filter(|p| shows_in_public(p)).collect()
    }
}

/// A pair's card: round by round, public (no login).
pub async fn pair_card(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(crate::ids::TournamentId, u32)>,
) -> Result<HttpResponse, AppError> {
    let (tid, pair) = path.into_inner();
    serve_public(
        &req,
        &state,
        tid,
        Page::Pair(pair),
        true,
        |ctx, snap, rev| render_pair(ctx, snap, tid, pair, rev),
    )
    .await
}

fn render_pair(
    ctx: &PageCtx,
    snap: &Snapshot,
    tid: TournamentId,
    pair: u32,
    rev: i64,
) -> Result<String, AppError> {
    let (Some(file), Some(standings)) = (snap.file.as_ref(), snap.standings.as_ref()) else {
        return Err(AppError::NotFound);
    };
    let card = standings.card(pair).ok_or(AppError::NotFound)?;
    Ok(PairPage {
        ctx,
        tid,
        name: &file.name,
        finished: file.status == Some(crate::tournament_file::Status::Finished),
        pair,
        names: pair_names(Some(file), pair),
        card,
        row: standings.row(pair),
        prize: standings.prize(pair),
        file,
        seat: current_seat(snap, pair),
        stage: Stage::of(snap).label(ctx.lang),
        rev,
    }
    .render()?)
}

/// The line in words: "NS · fixed line", "EW · moving line" (Mitchell), or
/// "NS" / "EW" (Danish).
pub fn line_words(ctx: &PageCtx, line: &SeatLine) -> String {
    match line {
        SeatLine::Ns { fixed: true } => ctx.t("players.line.ns_fixed").to_string(),
        SeatLine::Ns { fixed: false } => ctx.t("rules.line.ns").to_string(),
        SeatLine::Ew { moving: true } => ctx.t("players.line.ew_moving").to_string(),
        SeatLine::Ew { moving: false } => ctx.t("rules.line.ew").to_string(),
    }
}
