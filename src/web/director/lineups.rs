//! A team's line-up named at the desk, and the team cards (each team's
//! code, players and matches) to print.

use super::{conflict_text, errors_of};
use crate::ids::TournamentId;
use crate::services::teams::{
    self as teams, round_lines, LineUpBy, LineUpForm, RoundLine, Team, TeamMatchSeats, TeamsLoaded,
};
use crate::services::{Actor, Need, ServiceError};
use crate::web::context::{FieldErrors, PageCtx};
use crate::web::error::AppError;
use crate::web::roles::Director;
use crate::web::{render, render_status, see_other, AppState};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;

#[derive(Template)]
#[template(path = "director/lineup.html")]
struct LineUpPage<'a> {
    ctx: &'a PageCtx,
    t: &'a TeamsLoaded,
    team: &'a Team,
    seats: Option<&'a TeamMatchSeats>,
    form: LineUpForm,
    errors: FieldErrors,
    error: Option<String>,
}

impl LineUpPage<'_> {
    fn opponent_name(&self) -> String {
        self.seats
            .and_then(|s| s.opponent)
            .and_then(|n| self.t.team_by_number(i32::try_from(n).unwrap_or(0)))
            .map(|x| format!("{} {}", x.number, x.name))
            .unwrap_or_default()
    }
}

#[allow(clippy::too_many_arguments)]
async fn lineup_page(
    ctx: &PageCtx,
    state: &AppState,
    actor: Actor,
    tid: TournamentId,
    number: i32,
    form: Option<LineUpForm>,
    errors: FieldErrors,
    error: Option<String>,
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    let (t, team, seats) = teams::lineup_page(&state.db, tid, number, Some(actor)).await?;
    render_status(
        &LineUpPage {
            ctx,
            t: &t,
            team: &team,
            seats: seats.as_ref(),
            form: form.unwrap_or_else(|| LineUpForm::of(seats.as_ref())),
            errors,
            error,
        },
        status,
    )
}

/// A team's line-up for the current round, at the desk.
pub async fn lineup(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, i32)>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    lineup_page(
        &ctx,
        &state,
        actor,
        tid,
        n,
        None,
        FieldErrors::default(),
        None,
        StatusCode::OK,
    )
    .await
}

/// Names a team's line-up at the desk.
pub async fn save_lineup(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, i32)>,
    form: web::Form<LineUpForm>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    let form = form.into_inner();
    let round = form.round.trim().parse().unwrap_or(0);
    match teams::set_lineup(
        &state.db,
        LineUpBy::Staff(actor),
        tid,
        n,
        round,
        form.clone(),
    )
    .await
    {
        Ok(()) => Ok(see_other(&format!(
            "/director/t/{tid}/teams/{n}/lineup?done=saved"
        ))),
        Err(ServiceError::Invalid(problems)) => {
            lineup_page(
                &ctx,
                &state,
                actor,
                tid,
                n,
                Some(form),
                errors_of(&ctx, &problems),
                None,
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await
        }
        Err(e) => match conflict_text(&ctx, &e) {
            Some(text) => {
                lineup_page(
                    &ctx,
                    &state,
                    actor,
                    tid,
                    n,
                    Some(form),
                    FieldErrors::default(),
                    Some(text),
                    StatusCode::CONFLICT,
                )
                .await
            }
            None => Err(e.into()),
        },
    }
}

#[derive(Template)]
#[template(path = "director/team_cards.html")]
struct TeamCardsPage<'a> {
    ctx: &'a PageCtx,
    t: &'a TeamsLoaded,
    rounds: Vec<RoundLine>,
}

impl TeamCardsPage<'_> {
    /// Team `n`'s match in each round: (round, "v 3 Luna · tables 5–6") or
    /// resting.
    fn schedule(&self, n: &i32) -> Vec<(u32, String)> {
        let n = u32::try_from(*n).unwrap_or(0);
        self.rounds
            .iter()
            .map(|r| {
                let m = r.matches.iter().find(|m| m.home == n || m.away == n);
                let text = match m {
                    Some(m) => {
                        let (o, name) = if m.home == n {
                            (m.away, &m.away_name)
                        } else {
                            (m.home, &m.home_name)
                        };
                        let tables: Vec<String> =
                            m.tables.iter().map(|t| t.table.to_string()).collect();
                        format!(
                            "{} {o} {name} · {} {}",
                            self.ctx.t("teams.against"),
                            self.ctx.t("teams.tables"),
                            tables.join("–")
                        )
                    }
                    None => self.ctx.t("teams.resting").to_string(),
                };
                (r.number, text)
            })
            .collect()
    }
}

/// Each team's card: its private code (for its line-ups and for
/// confirming at the tables), its players and its matches so far.
pub async fn cards(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    id: web::Path<TournamentId>,
) -> Result<HttpResponse, AppError> {
    let (t, v) =
        teams::load_view(&state.db, actor, *id, Need::Direct, ctx.timezone, ctx.lang).await?;
    render(&TeamCardsPage {
        ctx: &ctx,
        t: &t,
        rounds: round_lines(&v),
    })
}
