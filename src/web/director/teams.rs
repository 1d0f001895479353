//! A team tournament's director pages (issue 25): the team settings, the
//! teams (registered one by one, checked in, withdrawn), the start and each
//! next round with its matches, and a team's line-up named at the desk.
//! Each handler parses, calls one service, renders.

use super::{conflict_text, errors_of};
use crate::ids::TournamentId;
use crate::services;
use crate::services::teams::{
    self as teams, round_lines, RoundLine, SetupForm, TeamForm, TeamsLoaded,
};
use crate::services::{Actor, Need, ServiceError};
use crate::tournament::Status;
use crate::web::context::{FieldErrors, PageCtx};
use crate::web::error::AppError;
use crate::web::roles::Director;
use crate::web::{render, render_status, see_other, AppState};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;

burraco_core::flat_player_form! {
    /// The team form as posted: a name and six players' fields (`p1_surname`…).
    #[derive(Debug, Clone, Default, serde::Deserialize, serde::Serialize)]
    #[serde(default)]
    pub struct FlatTeamForm {
        pub name: String,
        players {
            [p1_surname, p1_name, p1_card, p1_club],
            [p2_surname, p2_name, p2_card, p2_club],
            [p3_surname, p3_name, p3_card, p3_club],
            [p4_surname, p4_name, p4_card, p4_club],
            [p5_surname, p5_name, p5_card, p5_club],
            [p6_surname, p6_name, p6_card, p6_club],
        }
    }
}

impl FlatTeamForm {
    fn team(&self) -> TeamForm {
        TeamForm {
            name: self.name.clone(),
            players: self.player_forms(),
        }
    }
}

#[derive(Template)]
#[template(path = "director/teams.html")]
struct TeamsPage<'a> {
    ctx: &'a PageCtx,
    t: &'a TeamsLoaded,
    setup: SetupForm,
    setup_errors: FieldErrors,
    rounds: Vec<RoundLine>,
    error: Option<String>,
    /// Tables of the last round without a result.
    missing: Vec<u32>,
    /// The numbers of the teams that entered online (issue 36), and the
    /// cards the member list would not let in (the check off), by number.
    online_numbers: Vec<i32>,
    card_flags: Vec<(i32, String)>,
}

impl TeamsPage<'_> {
    /// The settings form's text fields: (name, label, value, hint).
    fn setup_fields(&self) -> Vec<(&'static str, &'static str, String, &'static str)> {
        vec![
            (
                "scale",
                "teams.field.scale",
                self.setup.scale.clone(),
                "teams.hint.scale",
            ),
            (
                "team_bye_vp",
                "teams.field.bye_vp",
                self.setup.team_bye_vp.clone(),
                "teams.hint.bye_vp",
            ),
            (
                "groups",
                "teams.field.groups",
                self.setup.groups.clone(),
                "teams.hint.groups",
            ),
            (
                "round_robin_rounds",
                "teams.field.round_robin_rounds",
                self.setup.round_robin_rounds.clone(),
                "teams.hint.round_robin_rounds",
            ),
        ]
    }
    fn draft(&self) -> bool {
        self.t.l.status() == Status::Draft
    }
    fn running(&self) -> bool {
        self.t.l.status() == Status::Running
    }
    fn drawable(&self) -> usize {
        self.t.teams.iter().filter(|x| x.drawable()).count()
    }
    fn entered_online(&self, number: &i32) -> bool {
        self.online_numbers.contains(number)
    }

    fn card_flags_of(&self, number: &i32) -> Vec<&str> {
        super::card_flags_of(&self.card_flags, number)
    }

    fn more_rounds(&self) -> bool {
        (self.t.l.rounds.len() as u32) < self.t.l.settings.planned_rounds
    }
}

#[allow(clippy::too_many_arguments)]
async fn teams_page(
    ctx: &PageCtx,
    state: &AppState,
    actor: Actor,
    tid: TournamentId,
    setup: Option<SetupForm>,
    setup_errors: FieldErrors,
    error: Option<String>,
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    let (t, v) =
        teams::load_view(&state.db, actor, tid, Need::Direct, ctx.timezone, ctx.lang).await?;
    let missing = services::rounds::missing_in_last_round(&state.db, actor, tid).await?;
    let online = services::waiting_list::list(&state.db, actor, tid).await?;
    render_status(
        &TeamsPage {
            online_numbers: online.iter().filter_map(|e| e.number).collect(),
            card_flags: super::card_flags(ctx, &online),
            ctx,
            setup: setup.unwrap_or_else(|| t.setup.form()),
            t: &t,
            setup_errors,
            rounds: round_lines(&v),
            error,
            missing,
        },
        status,
    )
}

/// The teams page.
pub async fn show(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    id: web::Path<TournamentId>,
) -> Result<HttpResponse, AppError> {
    teams_page(
        &ctx,
        &state,
        actor,
        *id,
        None,
        FieldErrors::default(),
        None,
        StatusCode::OK,
    )
    .await
}

/// Saves the team settings.
pub async fn save_setup(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    id: web::Path<TournamentId>,
    form: web::Form<SetupForm>,
) -> Result<HttpResponse, AppError> {
    let tid = *id;
    let form = form.into_inner();
    match teams::save_setup(&state.db, actor, tid, form.clone()).await {
        Ok(()) => Ok(see_other(&format!("/director/t/{tid}/teams?done=saved"))),
        Err(ServiceError::Invalid(problems)) => {
            teams_page(
                &ctx,
                &state,
                actor,
                tid,
                Some(form),
                errors_of(&ctx, &problems),
                None,
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await
        }
        Err(e) => then_back(&ctx, &state, actor, tid, Err(e)).await,
    }
}

#[derive(Template)]
#[template(path = "director/team_form.html")]
struct TeamFormPage<'a> {
    ctx: &'a PageCtx,
    t: &'a crate::services::view::Tournament,
    form: FlatTeamForm,
    errors: FieldErrors,
}

/// The empty team form.
pub async fn new_team(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    id: web::Path<TournamentId>,
) -> Result<HttpResponse, AppError> {
    let t = teams::load(&state.db, actor, *id, Need::Direct).await?;
    render(&TeamFormPage {
        ctx: &ctx,
        t: &t.l.t,
        form: FlatTeamForm::default(),
        errors: FieldErrors::default(),
    })
}

/// Registers a team; the form comes back with its problems (422).
pub async fn add_team(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    id: web::Path<TournamentId>,
    form: web::Form<FlatTeamForm>,
) -> Result<HttpResponse, AppError> {
    let tid = *id;
    let form = form.into_inner();
    match teams::register(&state.db, actor, tid, form.team()).await {
        Ok(n) => {
            tracing::info!(tournament_id = tid.0, team = n, "team registered");
            Ok(see_other(&format!("/director/t/{tid}/teams#team-{n}")))
        }
        Err(ServiceError::Invalid(problems)) => {
            let t = teams::load(&state.db, actor, tid, Need::Direct).await?;
            render_status(
                &TeamFormPage {
                    ctx: &ctx,
                    t: &t.l.t,
                    form,
                    errors: errors_of(&ctx, &problems),
                },
                StatusCode::UNPROCESSABLE_ENTITY,
            )
        }
        Err(e) => then_back(&ctx, &state, actor, tid, Err(e)).await,
    }
}

/// A yes/no form value.
#[derive(Debug, serde::Deserialize)]
pub struct Toggle {
    #[serde(default)]
    pub value: String,
}

/// Runs a team write and comes back to the teams page (409 with the reason
/// on the page when the state refuses it).
async fn then_back(
    ctx: &PageCtx,
    state: &AppState,
    actor: Actor,
    tid: TournamentId,
    done: Result<String, ServiceError>,
) -> Result<HttpResponse, AppError> {
    match done {
        Ok(anchor) => Ok(see_other(&format!("/director/t/{tid}/teams{anchor}"))),
        Err(e) => match conflict_text(ctx, &e) {
            Some(text) => {
                teams_page(
                    ctx,
                    state,
                    actor,
                    tid,
                    None,
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

/// Checks a team in or undoes it.
pub async fn check_in(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, crate::ids::TeamId)>,
    form: web::Form<Toggle>,
) -> Result<HttpResponse, AppError> {
    let (tid, team) = path.into_inner();
    let on = form.value != "false";
    let done = teams::check_in(&state.db, actor, tid, team, on)
        .await
        .map(|()| format!("#teamid-{team}"));
    then_back(&ctx, &state, actor, tid, done).await
}

/// Withdraws a team from the next round on.
pub async fn withdraw(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, crate::ids::TeamId)>,
) -> Result<HttpResponse, AppError> {
    let (tid, team) = path.into_inner();
    let done = teams::withdraw(&state.db, actor, tid, team)
        .await
        .map(|_| format!("#teamid-{team}"));
    then_back(&ctx, &state, actor, tid, done).await
}

/// The start and next-round forms: the page's revision and the round.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct RoundForm {
    pub revision: String,
    pub round: String,
}

/// The start goes through its confirmation page, as every start does
/// (`/director/t/{id}/confirm-start`, whose form draws round 1).
pub async fn start(_: Director, id: web::Path<TournamentId>) -> Result<HttpResponse, AppError> {
    Ok(see_other(&format!("/director/t/{}/confirm-start", *id)))
}

/// Makes the next round.
pub async fn next_round(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    id: web::Path<TournamentId>,
    form: web::Form<RoundForm>,
) -> Result<HttpResponse, AppError> {
    let tid = *id;
    let requested = form.round.trim().parse().ok();
    let done = services::rounds::next_round(
        &state.db,
        actor,
        tid,
        requested,
        None,
        None,
        state.settings.timezone,
    )
    .await
    .map(|n| format!("#round-{n}"));
    then_back(&ctx, &state, actor, tid, done).await
}

/// The team pages of the director's scope (role-guarded by the scope).
pub fn routes(cfg: &mut web::ServiceConfig) {
    use crate::web::noted;
    cfg.service(
        web::resource(crate::web::noted_all(
            &["GET", "POST"],
            "/director",
            "/t/{id}/teams/import",
        ))
        .app_data(crate::web::limits::form(crate::web::limits::PAIRS_CSV))
        .route(web::get().to(super::team_csv::form))
        .route(web::post().to(super::team_csv::import)),
    )
    .route(
        noted("GET", "/director", "/t/{id}/teams"),
        web::get().to(super::teams::show),
    )
    .route(
        noted("POST", "/director", "/t/{id}/teams"),
        web::post().to(super::teams::add_team),
    )
    .route(
        noted("GET", "/director", "/t/{id}/teams/new"),
        web::get().to(super::teams::new_team),
    )
    .route(
        noted("POST", "/director", "/t/{id}/teams/settings"),
        web::post().to(super::teams::save_setup),
    )
    .route(
        noted("POST", "/director", "/t/{id}/teams/start"),
        web::post().to(super::teams::start),
    )
    .route(
        noted("POST", "/director", "/t/{id}/teams/round"),
        web::post().to(super::teams::next_round),
    )
    .route(
        noted("GET", "/director", "/t/{id}/teams/cards"),
        web::get().to(super::lineups::cards),
    )
    .route(
        noted("POST", "/director", "/t/{id}/teams/{team}/checkin"),
        web::post().to(super::teams::check_in),
    )
    .route(
        noted("POST", "/director", "/t/{id}/teams/{team}/withdraw"),
        web::post().to(super::teams::withdraw),
    )
    .route(
        noted("GET", "/director", "/t/{id}/teams/{n}/lineup"),
        web::get().to(super::lineups::lineup),
    )
    .route(
        noted("POST", "/director", "/t/{id}/teams/{n}/lineup"),
        web::post().to(super::lineups::save_lineup),
    );
}
