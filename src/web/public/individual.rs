//! An individual tournament's public pages (issue 35): the standings per
//! player (and the hall screen, both following the tournament with
//! `live.js`), the prize list, each round's seating, a player's page, and
//! the standings as JSON — at the addresses of a pairs tournament's. Each
//! is computed on the request (no per-revision cache yet).

use actix_web::{HttpRequest, HttpResponse};
use askama::Template;

use crate::ids::TournamentId;
use crate::services::individual::seating::{seating_of_file, RoundSeating};
use crate::services::individual::standings::{self, IndView, PlayerStandingsDoc};
use crate::standings::Row;
use crate::web::context::PageCtx;
use crate::web::error::AppError;
use crate::web::AppState;

async fn view_of(
    req: &HttpRequest,
    state: &AppState,
    tid: TournamentId,
) -> Result<(PageCtx, IndView), AppError> {
    let ctx = PageCtx::from_request(req);
    let v = standings::view(&state.db, tid, state.settings.timezone, ctx.lang)
        .await?
        .ok_or(AppError::NotFound)?;
    Ok((ctx, v))
}

fn page(body: String) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .insert_header(("Cache-Control", "no-cache"))
        .body(body)
}

#[derive(Template)]
#[template(path = "public/individual_standings.html")]
struct StandingsPage<'a> {
    ctx: &'a PageCtx,
    v: &'a IndView,
    /// The hall screen's layout (large type, no links).
    screen: bool,
}

impl StandingsPage<'_> {
    fn rows(&self) -> &[Row<crate::standings::Individual>] {
        &self.v.standings.rows
    }
    fn name(&self, n: &u32) -> String {
        self.v.player_name(*n)
    }
    fn rounds(&self) -> Vec<u32> {
        self.v.file.rounds.iter().map(|r| r.number).collect()
    }
    fn finished(&self) -> bool {
        self.v.status == crate::tournament::Status::Finished
    }
}

/// The standings per player (the tournament's public page, or the hall
/// screen).
pub async fn standings_page(
    req: &HttpRequest,
    state: &AppState,
    tid: TournamentId,
    screen: bool,
) -> Result<HttpResponse, AppError> {
    let (ctx, v) = view_of(req, state, tid).await?;
    Ok(page(
        StandingsPage {
            ctx: &ctx,
            v: &v,
            screen,
        }
        .render()?,
    ))
}

#[derive(Template)]
#[template(path = "public/individual_prizes.html")]
struct PrizesPage<'a> {
    ctx: &'a PageCtx,
    v: &'a IndView,
}

/// The prize list: each prize to one player.
pub async fn prizes(
    req: &HttpRequest,
    state: &AppState,
    tid: TournamentId,
) -> Result<HttpResponse, AppError> {
    let (ctx, v) = view_of(req, state, tid).await?;
    Ok(page(PrizesPage { ctx: &ctx, v: &v }.render()?))
}

#[derive(Template)]
#[template(path = "public/individual_round.html")]
struct RoundPage<'a> {
    ctx: &'a PageCtx,
    v: &'a IndView,
    s: RoundSeating,
}

/// Round `n`'s seating, by table and by name.
pub async fn round(
    req: &HttpRequest,
    state: &AppState,
    tid: TournamentId,
    n: u32,
) -> Result<HttpResponse, AppError> {
    let (ctx, v) = view_of(req, state, tid).await?;
    let s = seating_of_file(&v.file, n).ok_or(AppError::NotFound)?;
    Ok(page(
        RoundPage {
            ctx: &ctx,
            v: &v,
            s,
        }
        .render()?,
    ))
}

/// The standings as JSON (`getStandings` of an individual tournament).
pub async fn standings_json(
    req: &HttpRequest,
    state: &AppState,
    tid: TournamentId,
) -> Result<HttpResponse, AppError> {
    let (_, v) = view_of(req, state, tid).await?;
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-cache"))
        .json(PlayerStandingsDoc::of(&v)))
}

/// One round on a player's page.
pub struct PlayerRound {
    pub round: u32,
    pub table: Option<u32>,
    /// `NS` or `EW` ("" when resting or absent).
    pub line: &'static str,
    pub partner: Option<String>,
    pub opponents: Vec<String>,
    pub vp: Option<i64>,
    pub mp_diff: i64,
    pub outcome: crate::standings::Outcome,
}

impl PlayerRound {
    /// The outcome's words (played, adjusted, resting, to play, absent).
    pub fn outcome_key(&self) -> &'static str {
        use crate::standings::Outcome;
        match self.outcome {
            Outcome::Played => "individual.player_page.played",
            Outcome::Adjusted => "individual.player_page.adjusted",
            Outcome::Bye => "round.rests",
            Outcome::Pending => "individual.player_page.pending",
            Outcome::Absent => "individual.player_page.absent",
        }
    }
}

#[derive(Template)]
#[template(path = "public/individual_player.html")]
struct PlayerPage<'a> {
    ctx: &'a PageCtx,
    v: &'a IndView,
    number: u32,
    name: String,
    row: Option<&'a Row<crate::standings::Individual>>,
    /// Every round, the last first (the seat in play at the top).
    rounds: Vec<PlayerRound>,
}

/// A player's page: where they sit now (table, line, partner, opponents),
/// then every round with partner, opponents and result.
pub async fn player(
    req: &HttpRequest,
    state: &AppState,
    tid: TournamentId,
    n: u32,
) -> Result<HttpResponse, AppError> {
    let (ctx, v) = view_of(req, state, tid).await?;
    if !v.file.players.iter().any(|p| p.number == n) {
        return Err(AppError::NotFound);
    }
    let card = v.standings.card(n);
    let mut rounds: Vec<PlayerRound> = card
        .map(|c| {
            c.rounds
                .iter()
                .map(|r| PlayerRound {
                    round: r.line.round,
                    table: r.line.table,
                    line: match r.line.line {
                        Some(crate::rules::Line::Ns) => "NS",
                        Some(_) => "EW",
                        None => "",
                    },
                    partner: r.partner.map(|p| v.player_name(p)),
                    opponents: r.opponents.iter().map(|&p| v.player_name(p)).collect(),
                    vp: r.line.vp,
                    mp_diff: r.line.mp_diff,
                    outcome: r.line.outcome,
                })
                .collect()
        })
        .unwrap_or_default();
    rounds.reverse();
    let row = v.standings.rows.iter().find(|r| r.number == n);
    Ok(page(
        PlayerPage {
            ctx: &ctx,
            v: &v,
            number: n,
            name: v.player_name(n),
            row,
            rounds,
        }
        .render()?,
    ))
}

/// `GET /t/{id}/players/{n}`: a player's page (an individual tournament's).
pub async fn player_page(
    req: HttpRequest,
    state: actix_web::web::Data<AppState>,
    path: actix_web::web::Path<(TournamentId, u32)>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    player(&req, &state, tid, n).await
}
