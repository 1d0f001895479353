//! The director's pages: tournaments, pairs, check-in, the draw and the
//! Mitchell/Danish rounds, printouts. The `/director` scope is role-guarded.

use std::collections::HashMap;

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;

use super::context::{FieldErrors, PageCtx};
use super::{render, render_status, see_other, AppState};
use crate::auth::Role;
use crate::db::tournaments::{
    self as tdb, PairError, PairRow, RoundRow, SeatingRow, TournamentRow,
};
use crate::error::AppError;
use crate::i18n::tf;
use crate::movement::{self, Layout, MitchellPlan, PairNo, RosterChange};
use crate::tournament::csv_import::{self, Preview};
use crate::tournament::pairs::{PairEntry, PairForm};
use crate::tournament::settings::{Settings, SettingsForm};
use crate::tournament::{FieldProblem, RoundMovement, Status};

fn errors_of(ctx: &PageCtx, problems: &[FieldProblem]) -> FieldErrors {
    let mut e = FieldErrors::default();
    for p in problems {
        e.add(p.field, p.message(ctx.lang));
    }
    e
}

/// Runs a database closure off the async workers.
async fn db<T: Send + 'static>(
    state: &AppState,
    f: impl FnOnce(&mut crate::db::DbConn) -> Result<T, AppError> + Send + 'static,
) -> Result<T, AppError> {
    let pool = state.pool.clone();
    web::block(move || {
        let mut conn = pool.get()?;
        f(&mut conn)
    })
    .await?
}

/// A tournament with its pairs and rounds, as the director's pages need it.
pub struct Loaded {
    pub t: TournamentRow,
    pub settings: Settings,
    pub pairs: Vec<PairRow>,
    pub rounds: Vec<RoundRow>,
}

impl Loaded {
    pub fn status(&self) -> Status {
        self.t.status()
    }
    pub fn pair(&self, id: Option<i64>) -> Option<&PairRow> {
        id.and_then(|id| self.pairs.iter().find(|p| p.id == id))
    }
    pub fn next_round(&self) -> i32 {
        i32::try_from(self.rounds.len()).unwrap_or(i32::MAX) + 1
    }
}

async fn load(state: &AppState, id: i64) -> Result<Loaded, AppError> {
    db(state, move |c| {
        let t = tdb::find(c, id)?.ok_or(AppError::NotFound)?;
        let settings = t.settings()?;
        let pairs = tdb::list_pairs(c, id)?;
        let rounds = tdb::list_rounds(c, id)?;
        Ok(Loaded {
            t,
            settings,
            pairs,
            rounds,
        })
    })
    .await
}

// ---- tournaments ----

#[derive(Template)]
#[template(path = "director/tournaments.html")]
struct ListPage<'a> {
    ctx: &'a PageCtx,
    tournaments: Vec<TournamentRow>,
}

pub async fn list(ctx: PageCtx, state: web::Data<AppState>) -> Result<HttpResponse, AppError> {
    ctx.require(Role::Director)?;
    let tournaments = db(&state, |c| Ok(tdb::list(c)?)).await?;
    render(&ListPage {
        ctx: &ctx,
        tournaments,
    })
}

#[derive(Template)]
#[template(path = "director/settings_form.html")]
struct SettingsPage<'a> {
    ctx: &'a PageCtx,
    /// None for a new tournament.
    id: Option<i64>,
    locked: bool,
    form: SettingsForm,
    errors: FieldErrors,
    profiles: Vec<&'static str>,
}

fn settings_page<'a>(
    ctx: &'a PageCtx,
    id: Option<i64>,
    locked: bool,
    form: SettingsForm,
    errors: FieldErrors,
) -> SettingsPage<'a> {
    SettingsPage {
        ctx,
        id,
        locked,
        form,
        errors,
        profiles: crate::rules::RuleProfile::names(),
    }
}

pub async fn new_form(ctx: PageCtx) -> Result<HttpResponse, AppError> {
    ctx.require(Role::Director)?;
    let today = chrono::Utc::now().with_timezone(&ctx.timezone).date_naive();
    render(&settings_page(
        &ctx,
        None,
        false,
        SettingsForm::defaults(today),
        FieldErrors::default(),
    ))
}

pub async fn create(
    ctx: PageCtx,
    state: web::Data<AppState>,
    form: web::Form<SettingsForm>,
) -> Result<HttpResponse, AppError> {
    let user = ctx.require(Role::Director)?.clone();
    let form = form.into_inner();
    match Settings::parse(&form, ctx.timezone) {
        Ok(settings) => {
            let id = db(&state, move |c| Ok(tdb::create(c, &settings, user.id)?)).await?;
            tracing::info!(tournament_id = id, "tournament created");
            Ok(see_other(&format!(
                "/director/t/{id}?done=tournament_created"
            )))
        }
        Err(problems) => render_status(
            &settings_page(&ctx, None, false, form, errors_of(&ctx, &problems)),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
    }
}

pub async fn edit_form(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    ctx.require(Role::Director)?;
    let l = load(&state, *id).await?;
    let form = SettingsForm::from_settings(&l.settings, ctx.timezone);
    render(&settings_page(
        &ctx,
        Some(l.t.id),
        l.status() != Status::Draft,
        form,
        FieldErrors::default(),
    ))
}

pub async fn update(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<i64>,
    form: web::Form<SettingsForm>,
) -> Result<HttpResponse, AppError> {
    ctx.require(Role::Director)?;
    let l = load(&state, *id).await?;
    let locked = l.status() != Status::Draft;
    let mut form = form.into_inner();
    if locked {
        // Game-shaping settings are locked once the first round is drawn.
        form = form.with_locked_fields_of(&SettingsForm::from_settings(&l.settings, ctx.timezone));
    }
    match Settings::parse(&form, ctx.timezone) {
        Ok(settings) => {
            let tid = l.t.id;
            db(&state, move |c| {
                Ok(tdb::update_settings(c, tid, &settings)?)
            })
            .await?;
            Ok(see_other(&format!("/director/t/{tid}?done=settings_saved")))
        }
        Err(problems) => render_status(
            &settings_page(&ctx, Some(l.t.id), locked, form, errors_of(&ctx, &problems)),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
    }
}

// ---- the tournament's page ----

#[derive(Template)]
#[template(path = "director/tournament.html")]
struct TournamentPage<'a> {
    ctx: &'a PageCtx,
    l: &'a Loaded,
    error: Option<String>,
    checked_in: usize,
    active: usize,
}

fn tournament_page<'a>(
    ctx: &'a PageCtx,
    l: &'a Loaded,
    error: Option<String>,
) -> TournamentPage<'a> {
    TournamentPage {
        ctx,
        l,
        error,
        checked_in: l
            .pairs
            .iter()
            .filter(|p| p.checked_in && p.withdrawn_from_round.is_none())
            .count(),
        active: l
            .pairs
            .iter()
            .filter(|p| p.withdrawn_from_round.is_none())
            .count(),
    }
}

pub async fn show(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    ctx.require(Role::Director)?;
    let l = load(&state, *id).await?;
    render(&tournament_page(&ctx, &l, None))
}

async fn show_with_error(
    ctx: &PageCtx,
    state: &AppState,
    id: i64,
    error: String,
) -> Result<HttpResponse, AppError> {
    let l = load(state, id).await?;
    render_status(
        &tournament_page(ctx, &l, Some(error)),
        StatusCode::UNPROCESSABLE_ENTITY,
    )
}

// ---- pairs ----

#[derive(Template)]
#[template(path = "director/pair_form.html")]
struct PairPage<'a> {
    ctx: &'a PageCtx,
    t: &'a TournamentRow,
    pair_id: Option<i64>,
    number: Option<i32>,
    form: PairForm,
    errors: FieldErrors,
}

pub async fn new_pair(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    ctx.require(Role::Director)?;
    let l = load(&state, *id).await?;
    render(&PairPage {
        ctx: &ctx,
        t: &l.t,
        pair_id: None,
        number: None,
        form: PairForm::default(),
        errors: FieldErrors::default(),
    })
}

fn pair_error(ctx: &PageCtx, e: PairError) -> Result<FieldErrors, AppError> {
    match e {
        PairError::PlayerTaken { player, number } => {
            let mut errors = FieldErrors::default();
            errors.add(
                "p1_surname",
                tf(
                    ctx.lang,
                    "pairs.error.player_taken",
                    &[("player", &player), ("number", &number)],
                ),
            );
            Ok(errors)
        }
        PairError::NotFound => Err(AppError::NotFound),
        PairError::Db(e) => Err(e.into()),
    }
}

pub async fn add_pair(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<i64>,
    form: web::Form<PairForm>,
) -> Result<HttpResponse, AppError> {
    ctx.require(Role::Director)?;
    let l = load(&state, *id).await?;
    if l.status() == Status::Finished {
        return show_with_error(
            &ctx,
            &state,
            l.t.id,
            ctx.t("tournament.error.finished").into(),
        )
        .await;
    }
    let form = form.into_inner();
    // A pair added after the draw joins from the next round (late pair).
    let joined = (l.status() == Status::Running).then(|| l.next_round());
    let errors = match PairEntry::parse(&form) {
        Ok(entry) => {
            let tid = l.t.id;
            let saved = db(&state, move |c| Ok(tdb::add_pair(c, tid, &entry, joined))).await?;
            match saved {
                Ok((pid, number)) => {
                    if joined.is_some() {
                        db(&state, move |c| Ok(tdb::set_checked_in(c, tid, pid, true)?)).await?;
                    }
                    tracing::info!(tournament_id = tid, pair = number, "pair registered");
                    return Ok(see_other(&format!(
                        "/director/t/{tid}?done=pair_added#pairs"
                    )));
                }
                Err(e) => pair_error(&ctx, e)?,
            }
        }
        Err(problems) => errors_of(&ctx, &problems),
    };
    render_status(
        &PairPage {
            ctx: &ctx,
            t: &l.t,
            pair_id: None,
            number: None,
            form,
            errors,
        },
        StatusCode::UNPROCESSABLE_ENTITY,
    )
}

pub async fn edit_pair(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
) -> Result<HttpResponse, AppError> {
    ctx.require(Role::Director)?;
    let (tid, pid) = path.into_inner();
    let l = load(&state, tid).await?;
    let pair = l.pair(Some(pid)).ok_or(AppError::NotFound)?;
    render(&PairPage {
        ctx: &ctx,
        t: &l.t,
        pair_id: Some(pid),
        number: Some(pair.number),
        form: pair.entry().to_form(),
        errors: FieldErrors::default(),
    })
}

pub async fn update_pair(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    form: web::Form<PairForm>,
) -> Result<HttpResponse, AppError> {
    ctx.require(Role::Director)?;
    let (tid, pid) = path.into_inner();
    let l = load(&state, tid).await?;
    let number = l.pair(Some(pid)).ok_or(AppError::NotFound)?.number;
    let form = form.into_inner();
    let errors = match PairEntry::parse(&form) {
        Ok(entry) => match db(&state, move |c| Ok(tdb::update_pair(c, tid, pid, &entry))).await? {
            Ok(()) => {
                return Ok(see_other(&format!(
                    "/director/t/{tid}?done=pair_saved#pairs"
                )))
            }
            Err(e) => pair_error(&ctx, e)?,
        },
        Err(problems) => errors_of(&ctx, &problems),
    };
    render_status(
        &PairPage {
            ctx: &ctx,
            t: &l.t,
            pair_id: Some(pid),
            number: Some(number),
            form,
            errors,
        },
        StatusCode::UNPROCESSABLE_ENTITY,
    )
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct FlagForm {
    value: String,
}

pub async fn check_in(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    form: web::Form<FlagForm>,
) -> Result<HttpResponse, AppError> {
    ctx.require(Role::Director)?;
    let (tid, pid) = path.into_inner();
    let value = form.value == "true";
    let n = db(&state, move |c| {
        Ok(tdb::set_checked_in(c, tid, pid, value)?)
    })
    .await?;
    if n == 0 {
        return Err(AppError::NotFound);
    }
    Ok(see_other(&format!("/director/t/{tid}#pair-{pid}")))
}

/// Withdraws a pair (from the next round on, once the tournament runs) or
/// reinstates it.
pub async fn withdraw(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    form: web::Form<FlagForm>,
) -> Result<HttpResponse, AppError> {
    ctx.require(Role::Director)?;
    let (tid, pid) = path.into_inner();
    let l = load(&state, tid).await?;
    let pair = l.pair(Some(pid)).ok_or(AppError::NotFound)?;
    let from = match (form.value.as_str(), l.status()) {
        ("true", Status::Draft) => Some(1),
        ("true", _) => Some(l.next_round()),
        _ => None,
    };
    // Reinstating a pair that has already missed rounds: it comes back as a
    // late pair from the next round (it takes a free seat).
    if from.is_none() && pair.withdrawn_by(l.next_round() - 1) && l.status() == Status::Running {
        return show_with_error(
            &ctx,
            &state,
            tid,
            ctx.t("pairs.error.reinstate_after_rounds").into(),
        )
        .await;
    }
    db(&state, move |c| Ok(tdb::set_withdrawn(c, tid, pid, from)?)).await?;
    tracing::info!(tournament_id = tid, pair_id = pid, withdrawn_from = ?from, "pair withdrawal changed");
    Ok(see_other(&format!("/director/t/{tid}#pair-{pid}")))
}

// ---- CSV import ----

#[derive(Template)]
#[template(path = "director/import.html")]
struct ImportPage<'a> {
    ctx: &'a PageCtx,
    t: &'a TournamentRow,
    csv: String,
    preview: Option<Preview>,
    error: Option<String>,
}

impl ImportPage<'_> {
    fn line_messages(&self, problems: &[FieldProblem]) -> String {
        problems
            .iter()
            .map(|p| p.message(self.ctx.lang))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct ImportForm {
    csv: String,
    confirm: String,
}

pub async fn import_form(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    ctx.require(Role::Director)?;
    let l = load(&state, *id).await?;
    render(&ImportPage {
        ctx: &ctx,
        t: &l.t,
        csv: String::new(),
        preview: None,
        error: None,
    })
}

/// First the preview (nothing saved); with `confirm`, the same text is read
/// again and saved all or nothing.
pub async fn import(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<i64>,
    form: web::Form<ImportForm>,
) -> Result<HttpResponse, AppError> {
    ctx.require(Role::Director)?;
    let l = load(&state, *id).await?;
    if l.status() != Status::Draft {
        return show_with_error(&ctx, &state, l.t.id, ctx.t("import.error.started").into()).await;
    }
    let form = form.into_inner();
    let existing: Vec<PairEntry> = l.pairs.iter().map(PairRow::entry).collect();
    let page = |preview: Option<Preview>, error: Option<String>, status: StatusCode| {
        render_status(
            &ImportPage {
                ctx: &ctx,
                t: &l.t,
                csv: form.csv.clone(),
                preview,
                error,
            },
            status,
        )
    };
    let preview = match csv_import::preview(&form.csv, &existing) {
        Ok(p) => p,
        Err(problem) => {
            return page(
                None,
                Some(problem.message(ctx.lang)),
                StatusCode::UNPROCESSABLE_ENTITY,
            )
        }
    };
    if form.confirm != "yes" || !preview.is_clean() {
        let status = if preview.is_clean() {
            StatusCode::OK
        } else {
            StatusCode::UNPROCESSABLE_ENTITY
        };
        return page(Some(preview), None, status);
    }
    let tid = l.t.id;
    let entries: Vec<PairEntry> = preview.pairs.iter().map(|(_, e)| e.clone()).collect();
    match db(&state, move |c| Ok(tdb::import_pairs(c, tid, &entries))).await? {
        Ok(n) => {
            tracing::info!(tournament_id = tid, pairs = n, "pairs imported");
            Ok(see_other(&format!(
                "/director/t/{tid}?done=pairs_imported#pairs"
            )))
        }
        Err(PairError::PlayerTaken { player, number }) => page(
            Some(preview),
            Some(tf(
                ctx.lang,
                "pairs.error.player_taken",
                &[("player", &player), ("number", &number)],
            )),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        Err(PairError::NotFound) => Err(AppError::NotFound),
        Err(PairError::Db(e)) => Err(e.into()),
    }
}

// ---- the draw and the rounds ----

fn pair_ids(l: &Loaded) -> HashMap<PairNo, i64> {
    l.pairs.iter().map(|p| (p.pair_no(), p.id)).collect()
}

/// The Mitchell plan of the tournament for a layout.
fn mitchell_plan(l: &Loaded, layout: &Layout) -> MitchellPlan {
    MitchellPlan {
        tables: layout.tables,
        rounds: l.settings.mitchell_rounds,
        advance: l.settings.mitchell_advance,
        allow_repeats: l.settings.allow_repeats,
    }
}

/// Starts the tournament (or draws round 1 again): checked-in pairs drawn
/// at random to tables and lines; the seed is stored.
pub async fn draw(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    ctx.require(Role::Director)?;
    let l = load(&state, *id).await?;
    let tid = l.t.id;
    match l.status() {
        Status::Draft => {}
        Status::Running if l.rounds.len() <= 1 => {
            // Redraw: allowed until the first score is entered (scores come
            // with the score sheets; none exist before round 2 is made).
            if let Err(e) = movement::ensure_redraw_allowed(0) {
                return show_with_error(&ctx, &state, tid, e.message(ctx.lang)).await;
            }
        }
        _ => return show_with_error(&ctx, &state, tid, ctx.t("draw.error.too_late").into()).await,
    }
    let players: Vec<PairNo> = l
        .pairs
        .iter()
        .filter(|p| p.checked_in && p.withdrawn_from_round.is_none())
        .map(PairRow::pair_no)
        .collect();
    let seed = match movement::new_seed() {
        Ok(s) => s,
        Err(e) => return show_with_error(&ctx, &state, tid, e.message(ctx.lang)).await,
    };
    let layout = match movement::first_round_draw(&players, seed) {
        Ok(layout) => layout,
        Err(e) => return show_with_error(&ctx, &state, tid, e.message(ctx.lang)).await,
    };
    let plan = mitchell_plan(&l, &layout);
    if let Err(e) = plan.validate() {
        return show_with_error(&ctx, &state, tid, e.message(ctx.lang)).await;
    }
    let round1 = match movement::round_seating(&layout, &plan, 1, &[]) {
        Ok(r) => r,
        Err(e) => return show_with_error(&ctx, &state, tid, e.message(ctx.lang)).await,
    };
    let ids = pair_ids(&l);
    db(&state, move |c| {
        Ok(tdb::save_draw(c, tid, &layout, &round1, &ids)?)
    })
    .await?;
    tracing::info!(
        tournament_id = tid,
        seed,
        pairs = players.len(),
        "first round drawn"
    );
    Ok(see_other(&format!(
        "/director/t/{tid}/rounds/1?done=round_drawn"
    )))
}

fn roster_changes(l: &Loaded) -> Vec<RosterChange> {
    let mut changes = Vec::new();
    for p in &l.pairs {
        let pair = p.pair_no();
        if let Some(from) = p.joined_from_round {
            changes.push(RosterChange::Joined {
                pair,
                from_round: u32::try_from(from).unwrap_or(1),
            });
        }
        if let Some(from) = p.withdrawn_from_round {
            changes.push(RosterChange::Withdrawn {
                pair,
                from_round: u32::try_from(from).unwrap_or(1),
            });
        }
    }
    changes
}

/// Generates the next round by the tournament's plan.
pub async fn next_round(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    ctx.require(Role::Director)?;
    let l = load(&state, *id).await?;
    let tid = l.t.id;
    let n = l.next_round();
    let Some(layout) = l.t.layout().filter(|_| l.status() == Status::Running) else {
        return show_with_error(&ctx, &state, tid, ctx.t("round.error.not_started").into()).await;
    };
    if u32::try_from(n).unwrap_or(u32::MAX) > l.settings.planned_rounds {
        return show_with_error(&ctx, &state, tid, ctx.t("round.error.all_generated").into()).await;
    }
    let round_no = u32::try_from(n).unwrap_or(1);
    let movement_kind = l.settings.movement_of(round_no);
    let seating = match movement_kind {
        RoundMovement::Mitchell => movement::round_seating(
            &layout,
            &mitchell_plan(&l, &layout),
            round_no,
            &roster_changes(&l),
        ),
        RoundMovement::Danish | RoundMovement::DanishModified => {
            // Danish pairs by the standings: every score of the previous
            // round must be in. Score sheets are entered at the scoring desk;
            // until they are, every played table of the round is missing.
            let last = l.rounds.last().ok_or(AppError::NotFound)?;
            let last_id = last.id;
            let (tables, _) = db(&state, move |c| Ok(tdb::seating_of(c, last_id)?)).await?;
            let missing: Vec<u32> = tables
                .iter()
                .filter(|s| s.ns_pair.is_some() && s.ew_pair.is_some())
                .map(|s| u32::try_from(s.table_no).unwrap_or(0))
                .collect();
            movement::ensure_previous_round_complete(&missing).map(|_| movement::RoundSeating {
                round: round_no,
                tables: Vec::new(),
                byes: Vec::new(),
            })
        }
    };
    let seating = match seating {
        Ok(s) => s,
        Err(e) => return show_with_error(&ctx, &state, tid, e.message(ctx.lang)).await,
    };
    let ids = pair_ids(&l);
    db(&state, move |c| {
        Ok(tdb::insert_round(c, tid, movement_kind, &seating, &ids)?)
    })
    .await?;
    tracing::info!(
        tournament_id = tid,
        round = n,
        movement = movement_kind.as_str(),
        "round generated"
    );
    Ok(see_other(&format!(
        "/director/t/{tid}/rounds/{n}?done=round_generated"
    )))
}

/// One table of a round, with the pairs' names.
pub struct TableView<'a> {
    pub table_no: i32,
    pub ns: Option<&'a PairRow>,
    pub ew: Option<&'a PairRow>,
}

/// Where a player sits, for the alphabetical list.
pub struct PlayerSeat {
    pub player: String,
    pub pair: i32,
    pub table: Option<i32>,
    pub line: &'static str,
}

#[derive(Template)]
#[template(path = "director/round.html")]
struct RoundPage<'a> {
    ctx: &'a PageCtx,
    l: &'a Loaded,
    round: &'a RoundRow,
    tables: Vec<TableView<'a>>,
    resting: Vec<&'a PairRow>,
    by_player: Vec<PlayerSeat>,
}

#[derive(Template)]
#[template(path = "director/table_cards.html")]
struct TableCardsPage<'a> {
    ctx: &'a PageCtx,
    l: &'a Loaded,
    round: &'a RoundRow,
    tables: Vec<TableView<'a>>,
}

async fn round_data(
    state: &AppState,
    tid: i64,
    n: i32,
) -> Result<(Loaded, usize, Vec<SeatingRow>, Vec<i64>), AppError> {
    let l = load(state, tid).await?;
    let idx = l
        .rounds
        .iter()
        .position(|r| r.number == n)
        .ok_or(AppError::NotFound)?;
    let rid = l.rounds[idx].id;
    let (tables, resting) = db(state, move |c| Ok(tdb::seating_of(c, rid)?)).await?;
    Ok((l, idx, tables, resting))
}

fn table_views<'a>(l: &'a Loaded, tables: &[SeatingRow]) -> Vec<TableView<'a>> {
    tables
        .iter()
        .map(|s| TableView {
            table_no: s.table_no,
            ns: l.pair(s.ns_pair),
            ew: l.pair(s.ew_pair),
        })
        .collect()
}

fn players_alphabetical(
    ctx: &PageCtx,
    l: &Loaded,
    tables: &[SeatingRow],
    resting: &[i64],
) -> Vec<PlayerSeat> {
    let mut out = Vec::new();
    let mut add = |p: &PairRow, table: Option<i32>, line: &'static str| {
        for (surname, name) in [(&p.p1_surname, &p.p1_name), (&p.p2_surname, &p.p2_name)] {
            out.push(PlayerSeat {
                player: format!("{surname} {name}"),
                pair: p.number,
                table,
                line,
            });
        }
    };
    for s in tables {
        if let Some(p) = l.pair(s.ns_pair) {
            add(p, Some(s.table_no), "NS");
        }
        if let Some(p) = l.pair(s.ew_pair) {
            add(p, Some(s.table_no), ctx.t("line.ew_short"));
        }
    }
    for id in resting {
        if let Some(p) = l.pair(Some(*id)) {
            add(p, None, "");
        }
    }
    out.sort_by_key(|a| crate::tournament::pairs::fold(&a.player));
    out
}

pub async fn round(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
) -> Result<HttpResponse, AppError> {
    ctx.require(Role::Director)?;
    let (tid, n) = path.into_inner();
    let (l, idx, tables, resting) = round_data(&state, tid, n).await?;
    let by_player = players_alphabetical(&ctx, &l, &tables, &resting);
    let page = RoundPage {
        ctx: &ctx,
        l: &l,
        round: &l.rounds[idx],
        tables: table_views(&l, &tables),
        resting: resting.iter().filter_map(|id| l.pair(Some(*id))).collect(),
        by_player,
    };
    render(&page)
}

pub async fn table_cards(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
) -> Result<HttpResponse, AppError> {
    ctx.require(Role::Director)?;
    let (tid, n) = path.into_inner();
    let (l, idx, tables, _) = round_data(&state, tid, n).await?;
    let page = TableCardsPage {
        ctx: &ctx,
        l: &l,
        round: &l.rounds[idx],
        tables: table_views(&l, &tables),
    };
    render(&page)
}

/// Where a pair plays each Mitchell round.
pub struct MovementCard<'a> {
    pub pair: &'a PairRow,
    /// (round, table, line) — table None when resting.
    pub rounds: Vec<(u32, Option<u32>, &'static str)>,
}

#[derive(Template)]
#[template(path = "director/movement_cards.html")]
struct MovementCardsPage<'a> {
    ctx: &'a PageCtx,
    l: &'a Loaded,
    cards: Vec<MovementCard<'a>>,
}

pub async fn movement_cards(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    ctx.require(Role::Director)?;
    let l = load(&state, *id).await?;
    let Some(layout) = l.t.layout() else {
        return show_with_error(
            &ctx,
            &state,
            l.t.id,
            ctx.t("round.error.not_started").into(),
        )
        .await;
    };
    let plan = mitchell_plan(&l, &layout);
    let schedule = movement::schedule(&layout, &plan, &roster_changes(&l))
        .map_err(|e| AppError::Internal(anyhow::anyhow!("movement schedule: {e}")))?;
    let ew = ctx.t("line.ew_short");
    let cards = l
        .pairs
        .iter()
        .filter(|p| layout.pairs().any(|q| q == p.pair_no()) || p.joined_from_round.is_some())
        .map(|p| MovementCard {
            pair: p,
            rounds: schedule
                .iter()
                .map(|r| {
                    let no = p.pair_no();
                    let line = match r.line(no) {
                        Some(movement::Line::Ns) => "NS",
                        Some(movement::Line::Ew) => ew,
                        None => "",
                    };
                    (r.round, r.table_of(no).filter(|_| !r.rests(no)), line)
                })
                .collect(),
        })
        .collect();
    render(&MovementCardsPage {
        ctx: &ctx,
        l: &l,
        cards,
    })
}
