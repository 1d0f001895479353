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
pub async fn db<T: Send + 'static>(
    state: &AppState,
    f: impl FnOnce(&mut crate::db::DbConn) -> Result<T, AppError> + Send + 'static,
) -> Result<T, AppError> {
    state.db.read(f).await
}

/// Runs a database closure that writes: one at a time on SQLite.
pub async fn db_write<T: Send + 'static>(
    state: &AppState,
    f: impl FnOnce(&mut crate::db::DbConn) -> Result<T, AppError> + Send + 'static,
) -> Result<T, AppError> {
    state.db.write(f).await
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

pub async fn load(state: &AppState, id: i64) -> Result<Loaded, AppError> {
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
            let id = db_write(&state, move |c| Ok(tdb::create(c, &settings, user.id)?)).await?;
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
            db_write(&state, move |c| {
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
    if let (Some(round), Some(layout)) = (joined, l.t.layout()) {
        let round_no = u32::try_from(round).unwrap_or(u32::MAX);
        if round_no <= l.settings.mitchell_rounds {
            // The Mitchell movement must have a seat for it (a phantom's).
            let next_no = l.pairs.iter().map(PairRow::pair_no).max().unwrap_or(0) + 1;
            let mut changes = roster_changes(&l);
            changes.push(RosterChange::Joined {
                pair: next_no,
                from_round: round_no,
            });
            if let Err(e) =
                movement::round_seating(&layout, &mitchell_plan(&l, &layout), round_no, &changes)
            {
                return show_with_error(&ctx, &state, l.t.id, e.message(ctx.lang)).await;
            }
        }
    }
    let errors = match PairEntry::parse(&form) {
        Ok(entry) => {
            let tid = l.t.id;
            let saved =
                db_write(&state, move |c| Ok(tdb::add_pair(c, tid, &entry, joined))).await?;
            match saved {
                Ok((_, number)) => {
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
    if l.status() == Status::Finished {
        return show_with_error(&ctx, &state, tid, ctx.t("tournament.error.finished").into()).await;
    }
    let number = l.pair(Some(pid)).ok_or(AppError::NotFound)?.number;
    let form = form.into_inner();
    let errors = match PairEntry::parse(&form) {
        Ok(entry) => {
            match db_write(&state, move |c| Ok(tdb::update_pair(c, tid, pid, &entry))).await? {
                Ok(()) => {
                    return Ok(see_other(&format!(
                        "/director/t/{tid}?done=pair_saved#pairs"
                    )))
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
    let n = db_write(&state, move |c| {
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
    if l.status() == Status::Finished {
        return show_with_error(&ctx, &state, tid, ctx.t("tournament.error.finished").into()).await;
    }
    let from = match (form.value.as_str(), l.status()) {
        // Already withdrawn: the round it left stays on the record.
        ("true", _) if pair.withdrawn_from_round.is_some() => pair.withdrawn_from_round,
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
    db_write(&state, move |c| Ok(tdb::set_withdrawn(c, tid, pid, from)?)).await?;
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
    fn line_messages(&self, line: &csv_import::LineProblem) -> String {
        line.message(self.ctx.lang)
    }
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
    upload: super::upload::ImportUpload,
) -> Result<HttpResponse, AppError> {
    ctx.require(Role::Director)?;
    let l = load(&state, *id).await?;
    if l.status() != Status::Draft {
        return show_with_error(&ctx, &state, l.t.id, ctx.t("import.error.started").into()).await;
    }
    let (text, decoded) = match upload.text {
        Ok(text) => (text, None),
        Err(problem) => (String::new(), Some(problem)),
    };
    let existing: Vec<PairEntry> = l.pairs.iter().map(PairRow::entry).collect();
    let page = |preview: Option<Preview>, error: Option<String>, status: StatusCode| {
        render_status(
            &ImportPage {
                ctx: &ctx,
                t: &l.t,
                csv: text.clone(),
                preview,
                error,
            },
            status,
        )
    };
    let preview = match decoded.map_or_else(|| csv_import::preview(&text, &existing), Err) {
        Ok(p) => p,
        Err(problem) => {
            return page(
                None,
                Some(problem.message(ctx.lang)),
                StatusCode::UNPROCESSABLE_ENTITY,
            )
        }
    };
    if !upload.confirm || !preview.is_clean() {
        let status = if preview.is_clean() {
            StatusCode::OK
        } else {
            StatusCode::UNPROCESSABLE_ENTITY
        };
        return page(Some(preview), None, status);
    }
    let tid = l.t.id;
    let entries: Vec<PairEntry> = preview.pairs.iter().map(|(_, e)| e.clone()).collect();
    match db_write(&state, move |c| Ok(tdb::import_pairs(c, tid, &entries))).await? {
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
            // Redraw: allowed until the first score is entered.
            let rid = l.rounds.first().map(|r| r.id).unwrap_or(0);
            let scores = db(&state, move |c| {
                Ok(crate::db::scoring::sheets_of_round(c, rid)?.len())
            })
            .await?;
            if let Err(e) = movement::ensure_redraw_allowed(scores) {
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
    let saved = db_write(&state, move |c| {
        Ok(tdb::save_draw(c, tid, &layout, &round1, &ids))
    })
    .await?;
    match saved {
        Ok(_) => {}
        Err(tdb::DrawError::ScoresIn) => {
            return show_with_error(&ctx, &state, tid, ctx.t("draw.error.scores_in").into()).await;
        }
        Err(tdb::DrawError::Db(e)) => return Err(e.into()),
    }
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
        // A late pair withdrawn before its first round never took a seat.
        if let (Some(joined), Some(gone)) = (p.joined_from_round, p.withdrawn_from_round) {
            if gone <= joined {
                continue;
            }
        }
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
            let modified = movement_kind == RoundMovement::DanishModified;
            match danish_seating(&ctx, &state, &l, round_no, modified).await? {
                Ok(s) => Ok(s),
                Err(msg) => return show_with_error(&ctx, &state, tid, msg).await,
            }
        }
    };
    let seating = match seating {
        Ok(s) => s,
        Err(e) => return show_with_error(&ctx, &state, tid, e.message(ctx.lang)).await,
    };
    let ids = pair_ids(&l);
    db_write(&state, move |c| {
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

// ---- standings (the one computation) ----

/// The tournament file and its standings, from the database.
pub async fn standings_of(
    state: &AppState,
    tid: i64,
    lang: crate::i18n::Lang,
) -> Result<
    (
        crate::tournament_file::TournamentFile,
        crate::standings::Standings,
    ),
    AppError,
> {
    let tz = state.settings.timezone;
    let file = db(state, move |c| {
        crate::db::export::load_file(c, tid, tz)?.ok_or(AppError::NotFound)
    })
    .await?;
    let standings = crate::standings::compute_file(&file, lang).map_err(|e| {
        AppError::Internal(anyhow::anyhow!(
            "standings of tournament {tid}: {}",
            e.message(lang)
        ))
    })?;
    Ok((file, standings))
}

/// The rounds so far as the movement engine sees them (pair numbers).
async fn history(state: &AppState, l: &Loaded) -> Result<Vec<movement::RoundSeating>, AppError> {
    let number_of: HashMap<i64, PairNo> = l.pairs.iter().map(|p| (p.id, p.pair_no())).collect();
    let rounds: Vec<(u32, i64)> = l
        .rounds
        .iter()
        .map(|r| (u32::try_from(r.number).unwrap_or(0), r.id))
        .collect();
    db(state, move |c| {
        let mut out = Vec::new();
        for (n, rid) in rounds {
            let (tables, resting) = tdb::seating_of(c, rid)?;
            out.push(movement::RoundSeating {
                round: n,
                tables: tables
                    .iter()
                    .map(|s| movement::Seat {
                        table: u32::try_from(s.table_no).unwrap_or(0),
                        ns: s.ns_pair.and_then(|id| number_of.get(&id).copied()),
                        ew: s.ew_pair.and_then(|id| number_of.get(&id).copied()),
                    })
                    .collect(),
                byes: resting
                    .iter()
                    .filter_map(|id| number_of.get(id).copied())
                    .collect(),
            });
        }
        Ok(out)
    })
    .await
}

/// Tables of a round that have no score yet.
async fn tables_without_score(state: &AppState, round_id: i64) -> Result<Vec<u32>, AppError> {
    let rows = db(state, move |c| {
        Ok(crate::db::export::round_tables(c, round_id)?)
    })
    .await?;
    Ok(rows
        .iter()
        .filter(|(_, sheet)| sheet.is_none())
        .map(|(s, _)| u32::try_from(s.table_no).unwrap_or(0))
        .collect())
}

/// A Danish round: pairs matched by the current standings.
pub(crate) async fn danish_seating(
    ctx: &PageCtx,
    state: &AppState,
    l: &Loaded,
    round_no: u32,
    modified: bool,
) -> Result<Result<movement::RoundSeating, String>, AppError> {
    let last = l.rounds.last().ok_or(AppError::NotFound)?;
    let missing = tables_without_score(state, last.id).await?;
    if let Err(e) = movement::ensure_previous_round_complete(&missing) {
        return Ok(Err(e.message(ctx.lang)));
    }
    let (_, standings) = standings_of(state, l.t.id, ctx.lang).await?;
    let history = history(state, l).await?;
    let seen: std::collections::HashSet<PairNo> = history
        .iter()
        .flat_map(|r| {
            r.tables
                .iter()
                .flat_map(|s| [s.ns, s.ew])
                .flatten()
                .chain(r.byes.iter().copied())
        })
        .collect();
    let n = i32::try_from(round_no).unwrap_or(i32::MAX);
    let active: std::collections::HashSet<PairNo> = l
        .pairs
        .iter()
        .filter(|p| !p.withdrawn_by(n))
        .filter(|p| seen.contains(&p.pair_no()) || p.joined_from_round.is_some_and(|j| j <= n))
        .map(PairRow::pair_no)
        .collect();
    let ranking: Vec<PairNo> = standings
        .rows
        .iter()
        .map(|r| r.pair)
        .filter(|p| active.contains(p))
        .collect();
    let entries = movement::entries_from_history(&ranking, &history);
    Ok(movement::danish_round(round_no, &entries, modified).map_err(|e| e.message(ctx.lang)))
}

// ---- the round clock and closing ----

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct ClockForm {
    action: String,
}

/// Starts a round's clock, or calls time-out (the time is recorded).
pub async fn clock(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
    form: web::Form<ClockForm>,
) -> Result<HttpResponse, AppError> {
    let user = ctx.require(Role::Director)?.clone();
    let (tid, n) = path.into_inner();
    let l = load(&state, tid).await?;
    let round = l
        .rounds
        .iter()
        .find(|r| r.number == n)
        .ok_or(AppError::NotFound)?;
    let rid = round.id;
    let action = match form.action.as_str() {
        "start" if round.started_at.is_none() => "clock.started",
        "time_out" if round.started_at.is_some() && round.time_out_at.is_none() => "clock.time_out",
        _ => return Ok(see_other(&format!("/desk/t/{tid}/rounds/{n}"))),
    };
    let start = action == "clock.started";
    db_write(&state, move |c| {
        Ok(tdb::record_clock(c, tid, rid, n, start, user.id)?)
    })
    .await?;
    tracing::info!(tournament_id = tid, round = n, action, "round clock");
    Ok(see_other(&format!("/desk/t/{tid}/rounds/{n}")))
}

/// Closes the tournament: final standings (every sheet must be in).
pub async fn close(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let user = ctx.require(Role::Director)?.clone();
    let l = load(&state, *id).await?;
    let tid = l.t.id;
    if l.status() != Status::Running {
        return show_with_error(&ctx, &state, tid, ctx.t("close.error.not_running").into()).await;
    }
    for r in &l.rounds {
        let missing = tables_without_score(&state, r.id).await?;
        if !missing.is_empty() {
            let tables = missing
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", ");
            return show_with_error(
                &ctx,
                &state,
                tid,
                tf(
                    ctx.lang,
                    "close.error.missing",
                    &[("round", &r.number), ("tables", &tables)],
                ),
            )
            .await;
        }
    }
    db_write(&state, move |c| Ok(tdb::finish(c, tid, user.id)?)).await?;
    tracing::info!(tournament_id = tid, "tournament closed");
    Ok(see_other(&format!(
        "/director/t/{tid}?done=tournament_closed"
    )))
}

// ---- exports ----

fn download(body: String, content_type: &str, filename: &str) -> HttpResponse {
    HttpResponse::Ok()
        .content_type(content_type)
        .insert_header((
            actix_web::http::header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"{filename}\""),
        ))
        .body(body)
}

/// The whole tournament as `burraco-td/tournament@1`.
pub async fn export_json(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    ctx.require(Role::Director)?;
    let tid = *id;
    let tz = state.settings.timezone;
    let file = db(&state, move |c| {
        crate::db::export::load_file(c, tid, tz)?.ok_or(AppError::NotFound)
    })
    .await?;
    Ok(download(
        crate::tournament_file::to_json(&file),
        "application/json",
        &format!("tournament-{tid}.json"),
    ))
}

/// The standings as CSV (semicolons, UTF-8 with BOM: opens in a spreadsheet).
pub async fn export_standings_csv(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    ctx.require(Role::Director)?;
    let tid = *id;
    let (file, st) = standings_of(&state, tid, ctx.lang).await?;
    let out = crate::tournament::csv_export::standings_csv(&file, &st, ctx.lang)
        .map_err(|e| AppError::Internal(e.into()))?;
    Ok(download(
        out,
        "text/csv; charset=utf-8",
        &format!("standings-{tid}.csv"),
    ))
}

/// Every sheet as CSV: one line per hand and table.
pub async fn export_sheets_csv(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    ctx.require(Role::Director)?;
    let tid = *id;
    let tz = state.settings.timezone;
    let file = db(&state, move |c| {
        crate::db::export::load_file(c, tid, tz)?.ok_or(AppError::NotFound)
    })
    .await?;
    let out = crate::tournament::csv_export::sheets_csv(&file, ctx.lang)
        .map_err(|e| AppError::Internal(e.into()))?;
    Ok(download(
        out,
        "text/csv; charset=utf-8",
        &format!("sheets-{tid}.csv"),
    ))
}
