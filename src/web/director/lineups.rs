//! A team's line-up named at the desk, and the team cards (each team's
//! code, players and matches) to print.

use super::*;
use crate::services::teams::{
    self as teams, round_lines, LineUpBy, LineUpForm, RoundLine, Team, TeamMatchSeats, TeamsLoaded,
};

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
    /// The two fields of the pair at table `i` of the match.
    /// The match's tables with the form fields of the team's pair there.
    fn tables(&self) -> Vec<(i32, bool, [&'static str; 2])> {
        self.seats
            .map(|s| {
                s.tables
                    .iter()
                    .zip([["a1", "a2"], ["b1", "b2"]])
                    .map(|(t, names)| (t.table, t.ns, names))
                    .collect()
            })
            .unwrap_or_default()
    }

    fn opponent_name(&self) -> String {
        self.seats
            .and_then(|s| s.opponent)
            .and_then(|n| self.t.team_by_number(i32::try_from(n).unwrap_or(0)))
            .map(|x| format!("{} {}", x.number, x.name))
            .unwrap_or_default()
    }
}

/// The form showing a match's line-up as seated (1-based positions).
fn form_of(seats: Option<&TeamMatchSeats>) -> LineUpForm {
    let p = |i: usize, j: usize| {
        seats
            .and_then(|s| s.tables.get(i))
            .map(|x| (x.players[j] + 1).to_string())
            .unwrap_or_default()
    };
    LineUpForm {
        round: seats.map(|s| s.round.to_string()).unwrap_or_default(),
        a1: p(0, 0),
        a2: p(0, 1),
        b1: p(1, 0),
        b2: p(1, 1),
        code: String::new(),
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
    // Access first: the page is staff's.
    teams::load(&state.db, actor, tid, Need::Direct).await?;
    let (t, team, seats) = teams::lineup_page(&state.db, tid, number).await?;
    render_status(
        &LineUpPage {
            ctx,
            t: &t,
            team: &team,
            seats: seats.as_ref(),
            form: form.unwrap_or_else(|| form_of(seats.as_ref())),
            errors,
            error,
        },
        status,
    )
}

/// A team's line-up for the current round, at the desk.
pub async fn lineup(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, i32)>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Director)?;
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
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, i32)>,
    form: web::Form<LineUpForm>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Director)?;
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
    state: web::Data<AppState>,
    id: web::Path<TournamentId>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Director)?;
    let t = teams::load(&state.db, actor, *id, Need::Direct).await?;
    let v = teams::view(&state.db, *id, ctx.timezone, ctx.lang)
        .await?
        .ok_or(AppError::NotFound)?;
    render(&TeamCardsPage {
        ctx: &ctx,
        t: &t,
        rounds: round_lines(&v),
    })
}
