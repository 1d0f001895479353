//! An individual tournament's director pages (issue 35): the players,
//! registered one by one (from the player directory or typed), corrected,
//! checked in, withdrawn, removed, or imported from a file. Each handler
//! parses, calls one service, renders.

use super::{conflict_text, errors_of};
use crate::ids::{IndividualPlayerId, TournamentId};
use crate::services::directory::{self, DirectoryPlayer};
use crate::services::individual::{self as ind, IndLoaded};
use crate::services::{Actor, Need, ServiceError};
use crate::tournament::pairs::PlayerForm;
use crate::tournament::Status;
use crate::web::context::{FieldErrors, PageCtx};
use crate::web::error::AppError;
use crate::web::roles::Director;
use crate::web::{render_status, see_other, AppState};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;

/// One player's fields as posted (and as a directory pick fills them).
#[derive(Debug, Clone, Default, serde::Deserialize, serde::Serialize)]
#[serde(default)]
pub struct FlatPlayer {
    pub surname: String,
    pub name: String,
    pub card: String,
    pub club: String,
}

impl FlatPlayer {
    /// The form's fields: (name, label key, value, required).
    pub fn fields(&self) -> [(&'static str, &'static str, &str, bool); 4] {
        [
            ("surname", "field.surname", &self.surname, true),
            ("name", "field.first_name", &self.name, true),
            ("card", "field.card", &self.card, false),
            ("club", "field.club", &self.club, false),
        ]
    }

    fn form(&self) -> PlayerForm {
        PlayerForm {
            surname: self.surname.clone(),
            name: self.name.clone(),
            card: self.card.clone(),
            club: self.club.clone(),
        }
    }
}

/// The page's query: a directory search (`q`) and a picked player.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct PageQuery {
    q: String,
    #[serde(flatten)]
    pick: FlatPlayer,
}

/// A directory result and the link that fills the form with it.
pub struct Found {
    pub player: DirectoryPlayer,
    pub pick: String,
}

#[derive(Template)]
#[template(path = "director/individual.html")]
struct PlayersPage<'a> {
    ctx: &'a PageCtx,
    t: &'a IndLoaded,
    form: FlatPlayer,
    errors: FieldErrors,
    error: Option<String>,
    q: String,
    searched: bool,
    found: Vec<Found>,
    /// The numbers of the players who entered online (issue 36), and the
    /// cards the member list would not let in (the check off), by number.
    online_numbers: Vec<i32>,
    card_flags: Vec<(i32, String)>,
}

impl PlayersPage<'_> {
    fn entered_online(&self, number: &i32) -> bool {
        self.online_numbers.contains(number)
    }

    fn card_flags_of(&self, number: &i32) -> Vec<&str> {
        super::card_flags_of(&self.card_flags, number)
    }

    fn draft(&self) -> bool {
        self.t.l.status() == Status::Draft
    }
    fn open(&self) -> bool {
        self.t.l.status() != Status::Finished
    }
    fn running(&self) -> bool {
        self.t.l.status() == Status::Running
    }
    fn more_rounds(&self) -> bool {
        self.t.l.rounds.len() < self.t.l.settings.planned_rounds as usize
    }
}

/// The players page with the add form as given.
#[allow(clippy::too_many_arguments)]
async fn players_page(
    ctx: &PageCtx,
    state: &AppState,
    actor: Actor,
    tid: TournamentId,
    form: FlatPlayer,
    errors: FieldErrors,
    error: Option<String>,
    q: String,
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    let t = ind::load(&state.db, actor, tid, Need::Direct).await?;
    let searched = directory::normalise_query(&q).is_some();
    let found = if searched {
        directory::search(&state.db, actor, tid, &q)
            .await?
            .into_iter()
            .map(|player| {
                let pick = FlatPlayer {
                    surname: player.surname.clone(),
                    name: player.name.clone(),
                    card: player.card.clone(),
                    club: player.club.clone(),
                };
                Found {
                    pick: format!(
                        "/director/t/{tid}/individual?{}#add-player",
                        serde_urlencoded::to_string(&pick).unwrap_or_default()
                    ),
                    player,
                }
            })
            .collect()
    } else {
        Vec::new()
    };
    let online = crate::services::waiting_list::list(&state.db, actor, tid).await?;
    render_status(
        &PlayersPage {
            ctx,
            t: &t,
            form,
            errors,
            error,
            q,
            searched,
            found,
            online_numbers: online.iter().filter_map(|e| e.number).collect(),
            card_flags: super::card_flags(ctx, &online),
        },
        status,
    )
}

/// The players page (`?q=` searches the directory, a pick fills the form).
pub async fn show(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    id: web::Path<TournamentId>,
    query: web::Query<PageQuery>,
) -> Result<HttpResponse, AppError> {
    let PageQuery { q, pick } = query.into_inner();
    players_page(
        &ctx,
        &state,
        actor,
        *id,
        pick,
        FieldErrors::default(),
        None,
        q,
        StatusCode::OK,
    )
    .await
}

/// Registers a player; the form comes back with its problems (422).
pub async fn add(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    id: web::Path<TournamentId>,
    form: web::Form<FlatPlayer>,
) -> Result<HttpResponse, AppError> {
    let tid = *id;
    let form = form.into_inner();
    match ind::register(&state.db, actor, tid, form.form()).await {
        Ok(n) => {
            tracing::info!(tournament_id = tid.0, player = n, "player registered");
            Ok(see_other(&format!(
                "/director/t/{tid}/individual?done=player_added#add-player"
            )))
        }
        Err(ServiceError::Invalid(problems)) => {
            players_page(
                &ctx,
                &state,
                actor,
                tid,
                form,
                errors_of(&ctx, &problems),
                None,
                String::new(),
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await
        }
        Err(e) => back(&ctx, &state, actor, tid, Err(e)).await,
    }
}

/// Runs a write and comes back to the players page (409 with the reason on
/// the page when the state refuses it).
async fn back(
    ctx: &PageCtx,
    state: &AppState,
    actor: Actor,
    tid: TournamentId,
    done: Result<String, ServiceError>,
) -> Result<HttpResponse, AppError> {
    match done {
        Ok(anchor) => Ok(see_other(&format!("/director/t/{tid}/individual{anchor}"))),
        Err(e) => match conflict_text(ctx, &e) {
            Some(text) => {
                players_page(
                    ctx,
                    state,
                    actor,
                    tid,
                    FlatPlayer::default(),
                    FieldErrors::default(),
                    Some(text),
                    String::new(),
                    StatusCode::CONFLICT,
                )
                .await
            }
            None => Err(e.into()),
        },
    }
}

#[derive(Template)]
#[template(path = "director/individual_player.html")]
struct EditPage<'a> {
    ctx: &'a PageCtx,
    t: &'a IndLoaded,
    id: IndividualPlayerId,
    number: i32,
    form: FlatPlayer,
    errors: FieldErrors,
}

/// A player's correction form.
pub async fn edit(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, IndividualPlayerId)>,
) -> Result<HttpResponse, AppError> {
    let (tid, pid) = path.into_inner();
    let t = ind::load(&state.db, actor, tid, Need::Direct).await?;
    let p = t.player(pid).ok_or(ServiceError::NotFound)?;
    let form = FlatPlayer {
        surname: p.player.surname().to_string(),
        name: p.player.name().to_string(),
        card: p.player.card().to_string(),
        club: p.player.club().to_string(),
    };
    render_status(
        &EditPage {
            ctx: &ctx,
            t: &t,
            id: pid,
            number: p.number,
            form,
            errors: FieldErrors::default(),
        },
        StatusCode::OK,
    )
}

/// Saves a player's correction.
pub async fn save(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, IndividualPlayerId)>,
    form: web::Form<FlatPlayer>,
) -> Result<HttpResponse, AppError> {
    let (tid, pid) = path.into_inner();
    let form = form.into_inner();
    match ind::update(&state.db, actor, tid, pid, form.form()).await {
        Ok(n) => Ok(see_other(&format!(
            "/director/t/{tid}/individual#player-{n}"
        ))),
        Err(ServiceError::Invalid(problems)) => {
            let t = ind::load(&state.db, actor, tid, Need::Direct).await?;
            let number = t.player(pid).ok_or(ServiceError::NotFound)?.number;
            render_status(
                &EditPage {
                    ctx: &ctx,
                    t: &t,
                    id: pid,
                    number,
                    form,
                    errors: errors_of(&ctx, &problems),
                },
                StatusCode::UNPROCESSABLE_ENTITY,
            )
        }
        Err(e) => back(&ctx, &state, actor, tid, Err(e)).await,
    }
}

/// A yes/no form value.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct Toggle {
    value: String,
}

/// Checks a player in or undoes it.
pub async fn check_in(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, IndividualPlayerId)>,
    form: web::Form<Toggle>,
) -> Result<HttpResponse, AppError> {
    let (tid, pid) = path.into_inner();
    let on = form.value != "false";
    let done = ind::check_in(&state.db, actor, tid, vec![pid], on)
        .await
        .map(|_| format!("#playerid-{pid}"));
    back(&ctx, &state, actor, tid, done).await
}

/// Checks in the ticked players (`player` fields), or every player still to
/// check in (`all=1`).
pub async fn check_in_many(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    id: web::Path<TournamentId>,
    form: web::Form<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    let tid = *id;
    let fields = form.into_inner();
    let all = fields.iter().any(|(k, v)| k == "all" && v == "1");
    let ids: Vec<IndividualPlayerId> = fields
        .iter()
        .filter(|(k, _)| k == "player")
        .filter_map(|(_, v)| v.trim().parse().ok())
        .collect();
    if !all && ids.is_empty() {
        return Ok(see_other(&format!("/director/t/{tid}/individual#players")));
    }
    let done = ind::check_in(&state.db, actor, tid, ids, true)
        .await
        .map(|_| "?done=players_checked_in#players".to_string());
    back(&ctx, &state, actor, tid, done).await
}

/// Withdraws a player from the next round on.
pub async fn withdraw(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, IndividualPlayerId)>,
) -> Result<HttpResponse, AppError> {
    let (tid, pid) = path.into_inner();
    let done = ind::withdraw(&state.db, actor, tid, pid)
        .await
        .map(|_| format!("#playerid-{pid}"));
    back(&ctx, &state, actor, tid, done).await
}

/// Removes a player registered by mistake (before the start).
pub async fn delete(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, IndividualPlayerId)>,
) -> Result<HttpResponse, AppError> {
    let (tid, pid) = path.into_inner();
    let done = ind::delete(&state.db, actor, tid, pid)
        .await
        .map(|()| "#players".to_string());
    back(&ctx, &state, actor, tid, done).await
}

/// The individual pages of the director's scope (role-guarded by the
/// scope).
pub fn routes(cfg: &mut web::ServiceConfig) {
    use crate::web::noted;
    cfg.service(
        web::resource(crate::web::noted_all(
            &["GET", "POST"],
            "/director",
            "/t/{id}/individual/import",
        ))
        .app_data(crate::web::limits::form(crate::web::limits::PAIRS_CSV))
        .route(web::get().to(super::individual_csv::form))
        .route(web::post().to(super::individual_csv::import)),
    )
    .route(
        noted("GET", "/director", "/t/{id}/individual"),
        web::get().to(show),
    )
    .route(
        noted("POST", "/director", "/t/{id}/individual"),
        web::post().to(add),
    )
    .route(
        noted("POST", "/director", "/t/{id}/individual/checkin"),
        web::post().to(check_in_many),
    )
    .route(
        noted("GET", "/director", "/t/{id}/individual/cards"),
        web::get().to(super::individual_rounds::cards),
    )
    .route(
        noted("GET", "/director", "/t/{id}/individual/{pid}"),
        web::get().to(edit),
    )
    .route(
        noted("POST", "/director", "/t/{id}/individual/{pid}"),
        web::post().to(save),
    )
    .route(
        noted("POST", "/director", "/t/{id}/individual/{pid}/checkin"),
        web::post().to(check_in),
    )
    .route(
        noted("POST", "/director", "/t/{id}/individual/{pid}/withdraw"),
        web::post().to(withdraw),
    )
    .route(
        noted("POST", "/director", "/t/{id}/individual/{pid}/delete"),
        web::post().to(delete),
    );
}
