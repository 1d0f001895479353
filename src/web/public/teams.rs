//! A team tournament's public pages (issue 25): the team standings, each
//! team's card (its line-ups and results), each round's match results,
//! the prize list and the hall screen, all from the cache (computed once
//! per revision and language); and the captain's line-up page (the team
//! code is the credential, never cached).

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;

use crate::ids::TournamentId;
use crate::services::teams::{self as teams, LineUpForm, TeamView};
use crate::services::ServiceError;
use crate::standings::{MatchOutcome, TeamCard, TeamRow};
use crate::tournament_file::TeamFile;
use crate::web::cache::{self, TeamPage};
use crate::web::context::{FieldErrors, PageCtx};
use crate::web::error::AppError;
use crate::web::AppState;

/// What the pages say of where the tournament is: "after round 2 · round 3
/// in play", "final".
fn stage(ctx: &PageCtx, v: &TeamView) -> String {
    let played = v
        .standings
        .rounds()
        .iter()
        .filter(|r| r.matches.iter().all(|m| m.complete))
        .map(|r| r.round)
        .max();
    let playing = v
        .standings
        .rounds()
        .iter()
        .filter(|r| r.matches.iter().any(|m| !m.complete))
        .map(|r| r.round)
        .max();
    if v.status == crate::tournament::Status::Finished {
        return ctx.t("public.final").to_string();
    }
    let mut parts = Vec::new();
    if let Some(n) = played {
        parts.push(crate::i18n::tf(
            ctx.lang,
            "teams.public.after",
            &[("round", &n)],
        ));
    }
    if let Some(n) = playing {
        parts.push(crate::i18n::tf(
            ctx.lang,
            "teams.public.playing",
            &[("round", &n)],
        ));
    }
    if parts.is_empty() {
        ctx.t("teams.public.no_results").to_string()
    } else {
        parts.join(" · ")
    }
}

fn team_of(v: &TeamView, n: u32) -> Option<&TeamFile> {
    v.file.teams.iter().find(|t| t.number == n)
}

#[derive(Template)]
#[template(path = "public/team_standings.html")]
struct StandingsPage<'a> {
    ctx: &'a PageCtx,
    v: &'a TeamView,
    rev: i64,
    stage: String,
    /// The hall screen's layout (large type, no links).
    screen: bool,
}

impl StandingsPage<'_> {
    fn name(&self, n: &u32) -> String {
        self.v.team_name(*n)
    }
    fn rows(&self) -> &[TeamRow] {
        &self.v.standings.rows
    }
    fn rounds(&self) -> Vec<u32> {
        self.v.file.rounds.iter().map(|r| r.number).collect()
    }
    fn finished(&self) -> bool {
        self.v.status == crate::tournament::Status::Finished
    }
}

/// The team standings (the tournament's public page).
pub async fn standings(
    req: &HttpRequest,
    state: &AppState,
    tid: TournamentId,
    screen: bool,
) -> Result<HttpResponse, AppError> {
    let page = if screen {
        TeamPage::Screen
    } else {
        TeamPage::Standings
    };
    cache::teams::serve_teams(req, state, tid, page, |ctx, v, rev| {
        Ok(StandingsPage {
            ctx,
            v,
            rev,
            stage: stage(ctx, v),
            screen,
        }
        .render()?)
    })
    .await
}

/// One table of a card or a match as the pages show it.
pub struct TableView {
    pub table: u32,
    /// `NS` or `EO`/`EW`.
    pub line: &'static str,
    pub players: String,
    pub opponents: String,
    pub mp_for: String,
    pub mp_against: String,
    pub vp: String,
    pub note: String,
}

/// One round on a team's card.
pub struct CardRoundView {
    pub round: u32,
    pub what: String,
    pub tables: Vec<TableView>,
    pub vp: String,
    pub mp_diff: i64,
    pub penalties: Vec<String>,
}

#[derive(Template)]
#[template(path = "public/team_card.html")]
struct CardPage<'a> {
    ctx: &'a PageCtx,
    v: &'a TeamView,
    team: &'a TeamFile,
    row: Option<&'a TeamRow>,
    rounds: Vec<CardRoundView>,
    rev: i64,
}

fn card_rounds(ctx: &PageCtx, v: &TeamView, team: u32, card: &TeamCard) -> Vec<CardRoundView> {
    let ew = ctx.t("teams.public.ew");
    card.rounds
        .iter()
        .map(|r| {
            let what = match (r.outcome, r.opponent) {
                (MatchOutcome::Bye, _) => ctx.t("teams.resting").to_string(),
                (MatchOutcome::Absent, _) => ctx.t("teams.public.absent").to_string(),
                (_, Some(o)) => format!("{} {o} {}", ctx.t("teams.against"), v.team_name(o)),
                (_, None) => String::new(),
            };
            let opponent = r.opponent.unwrap_or(0);
            CardRoundView {
                round: r.round,
                what,
                tables: r
                    .tables
                    .iter()
                    .map(|t| TableView {
                        table: t.table,
                        line: if t.line == crate::rules::Line::Ns {
                            "NS"
                        } else {
                            ew
                        },
                        players: v.pair_label(team, t.players),
                        opponents: v.pair_label(opponent, t.opponent_players),
                        mp_for: t.mp_for.map(|n| ctx.int(n)).unwrap_or_default(),
                        mp_against: t.mp_against.map(|n| ctx.int(n)).unwrap_or_default(),
                        vp: match (t.vp, t.opponent_vp) {
                            (Some(a), Some(b)) => format!("{a} – {b}"),
                            _ => String::new(),
                        },
                        note: if t.adjusted {
                            ctx.t("teams.public.adjusted").to_string()
                        } else if t.mp_penalty > 0 {
                            format!("−{} MP", ctx.int(t.mp_penalty))
                        } else {
                            String::new()
                        },
                    })
                    .collect(),
                vp: match (r.vp, r.opponent_vp) {
                    (Some(a), Some(b)) => format!("{a} – {b}"),
                    (Some(a), None) => a.to_string(),
                    _ => String::new(),
                },
                mp_diff: r.mp_diff,
                penalties: r
                    .penalties
                    .iter()
                    .filter(|p| crate::services::public::shows_in_public(p))
                    .map(|p| {
                        let kind = ctx.t(&format!("penalty.kind.{}", p.kind.code()));
                        let amount = p.amount.map(|a| format!(" −{a}")).unwrap_or_default();
                        let table = p
                            .table
                            .map(|t| format!(" · {} {t}", ctx.t("teams.table")))
                            .unwrap_or_default();
                        format!("{kind}{amount}{table}: {}", p.reason)
                    })
                    .collect(),
            }
        })
        .collect()
}

/// A team's card: its players, and round by round its opponent, its
/// line-up at each table and the results.
pub async fn team(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, u32)>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    if state.public.kind(&state, tid).await? != crate::tournament_file::FileKind::Teams {
        return Err(AppError::NotFound);
    }
    cache::teams::serve_teams(&req, &state, tid, TeamPage::Team(n), |ctx, v, rev| {
        let team = team_of(v, n).ok_or(AppError::NotFound)?;
        let card = v.standings.card(n).ok_or(AppError::NotFound)?;
        Ok(CardPage {
            ctx,
            v,
            team,
            row: v.standings.row(n),
            rounds: card_rounds(ctx, v, n, card),
            rev,
        }
        .render()?)
    })
    .await
}

#[derive(Template)]
#[template(path = "public/team_round.html")]
struct RoundPage<'a> {
    ctx: &'a PageCtx,
    v: &'a TeamView,
    round: crate::services::teams::RoundLine,
    rev: i64,
}

/// A round's match results: both tables of each match and the match VP.
pub async fn round(
    req: &HttpRequest,
    state: &AppState,
    tid: TournamentId,
    n: u32,
) -> Result<HttpResponse, AppError> {
    cache::teams::serve_teams(req, state, tid, TeamPage::Round(n), |ctx, v, rev| {
        let round = teams::round_lines(v)
            .into_iter()
            .find(|r| r.number == n)
            .ok_or(AppError::NotFound)?;
        Ok(RoundPage { ctx, v, round, rev }.render()?)
    })
    .await
}

#[derive(Template)]
#[template(path = "public/team_prizes.html")]
struct PrizesPage<'a> {
    ctx: &'a PageCtx,
    v: &'a TeamView,
    facts: crate::web::context::MoneyFacts,
    entries_label: &'static str,
}

/// The prize list: teams as entries, each prize split among its players.
pub async fn prizes(
    req: &HttpRequest,
    state: &AppState,
    tid: TournamentId,
) -> Result<HttpResponse, AppError> {
    cache::teams::serve_teams(req, state, tid, TeamPage::Prizes, |ctx, v, _| {
        let facts = crate::web::context::MoneyFacts::of(
            v.standings.entries,
            v.standings.pool,
            v.standings.organiser_fee,
            v.status == crate::tournament::Status::Finished,
        );
        Ok(PrizesPage {
            ctx,
            v,
            facts,
            entries_label: "teams.list",
        }
        .render()?)
    })
    .await
}

/// The team standings as JSON (FORMAT.md's shape with `team`).
pub async fn standings_json(
    req: &HttpRequest,
    state: &AppState,
    tid: TournamentId,
) -> Result<HttpResponse, AppError> {
    cache::teams::serve_teams(req, state, tid, TeamPage::Json, |_, v, rev| {
        serde_json::to_string(&v.standings_doc(rev)).map_err(|e| AppError::Internal(e.into()))
    })
    .await
}

// ---- the captain's line-up ----

#[derive(Template)]
#[template(path = "public/team_lineup.html")]
struct LineUpPage<'a> {
    ctx: &'a PageCtx,
    tid: TournamentId,
    tname: &'a str,
    team: &'a crate::services::teams::Team,
    opponent: String,
    seats: Option<&'a crate::services::teams::TeamMatchSeats>,
    form: LineUpForm,
    errors: FieldErrors,
    error: Option<String>,
    saved: bool,
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct Done {
    pub done: String,
}

#[allow(clippy::too_many_arguments)]
async fn lineup_page(
    ctx: &PageCtx,
    state: &AppState,
    tid: TournamentId,
    n: i32,
    form: Option<LineUpForm>,
    errors: FieldErrors,
    error: Option<String>,
    saved: bool,
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    let (t, team, seats) = teams::lineup_page(&state.db, tid, n, None).await?;
    let opponent = seats
        .as_ref()
        .and_then(|s| s.opponent)
        .and_then(|o| t.team_by_number(i32::try_from(o).unwrap_or(0)))
        .map(|x| format!("{} {}", x.number, x.name))
        .unwrap_or_default();
    let form = form.unwrap_or_else(|| LineUpForm::of(seats.as_ref()));
    let body = LineUpPage {
        ctx,
        tid,
        tname: &t.l.t.name,
        team: &team,
        opponent,
        seats: seats.as_ref(),
        form,
        errors,
        error,
        saved,
    }
    .render()?;
    Ok(HttpResponse::build(status)
        .content_type("text/html; charset=utf-8")
        .insert_header(("Cache-Control", "no-store"))
        .body(body))
}

/// The captain's line-up page: the team's match this round, its players,
/// and the form (with the team code).
pub async fn lineup(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, i32)>,
    q: web::Query<Done>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    lineup_page(
        &ctx,
        &state,
        tid,
        n,
        None,
        FieldErrors::default(),
        None,
        q.done == "saved",
        StatusCode::OK,
    )
    .await
}

/// Names the line-up with the team code.
pub async fn save_lineup(
    req: HttpRequest,
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, i32)>,
    form: web::Form<LineUpForm>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    let form = form.into_inner();
    let client = crate::web::client::client_addr(&req, state.settings.trust_forwarded_for);
    let again = |errors: FieldErrors, error: Option<String>, status: StatusCode| {
        let mut kept = form.clone();
        // The code is never sent back into the page.
        kept.code = String::new();
        lineup_page(
            &ctx,
            &state,
            tid,
            n,
            Some(kept),
            errors,
            error,
            false,
            status,
        )
    };
    match teams::captain_lineup(&state.db, tid, n, form.clone(), client).await {
        Ok(()) => Ok(crate::web::see_other(&format!(
            "/t/{tid}/teams/{n}/lineup?done=saved"
        ))),
        Err(ServiceError::Invalid(problems)) => {
            let mut errors = FieldErrors::default();
            for p in &problems {
                errors.add(p.field, p.message(ctx.lang));
            }
            again(errors, None, StatusCode::UNPROCESSABLE_ENTITY).await
        }
        Err(ServiceError::Conflict(c)) => {
            again(
                FieldErrors::default(),
                Some(c.message(ctx.lang)),
                StatusCode::CONFLICT,
            )
            .await
        }
        Err(e) => Err(e.into()),
    }
}

/// The team pages anyone may open.
pub fn routes(cfg: &mut web::ServiceConfig) {
    use crate::web::noted;
    cfg.route(
        noted("GET", "", "/t/{id}/teams/{n}"),
        web::get().to(self::team),
    )
    .route(
        noted("GET", "", "/t/{id}/teams/{n}/lineup"),
        web::get().to(self::lineup),
    )
    .route(
        noted("POST", "", "/t/{id}/teams/{n}/lineup"),
        web::post().to(self::save_lineup),
    );
}
