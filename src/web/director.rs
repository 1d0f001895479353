//! The director's pages: tournaments, settings, staff, pairs, check-in, the
//! draw and the Mitchell/Danish rounds, printouts, exports. The `/director`
//! scope is role-guarded; each handler parses, calls one service, renders.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;

use super::context::{FieldErrors, PageCtx};
use super::error::AppError;
use super::{render, render_status, see_other, AppState};
use crate::auth::Role;
use crate::db::tournaments::{PairRow, RoundRow, SeatingRow, TournamentRow};
use crate::movement;
use crate::services::tournaments::StaffMember;
use crate::services::{self, Actor, Loaded, Need, ServiceError};
use crate::tournament::csv_import::{self, Preview};
use crate::tournament::pairs::{PairEntry, PairForm};
use crate::tournament::settings::SettingsForm;
use crate::tournament::{FieldProblem, Status};

fn errors_of(ctx: &PageCtx, problems: &[FieldProblem]) -> FieldErrors {
    let mut e = FieldErrors::default();
    for p in problems {
        e.add(p.field, p.message(ctx.lang));
    }
    e
}

async fn load(state: &AppState, actor: Actor, tid: i64) -> Result<Loaded, AppError> {
    Ok(services::tournaments::load(&state.db, actor, tid, Need::Direct).await?)
}

// ---- tournaments ----

#[derive(Template)]
#[template(path = "director/tournaments.html")]
struct ListPage<'a> {
    ctx: &'a PageCtx,
    tournaments: Vec<TournamentRow>,
}

pub async fn list(ctx: PageCtx, state: web::Data<AppState>) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Director)?;
    let tournaments = services::tournaments::list(&state.db, actor).await?;
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
    let actor = ctx.actor(Role::Director)?;
    let form = form.into_inner();
    match services::tournaments::create(&state.db, actor, form.clone(), ctx.timezone).await {
        Ok(id) => {
            tracing::info!(tournament_id = id, "tournament created");
            Ok(see_other(&format!(
                "/director/t/{id}?done=tournament_created"
            )))
        }
        Err(ServiceError::Invalid(problems)) => render_status(
            &settings_page(&ctx, None, false, form, errors_of(&ctx, &problems)),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        Err(e) => Err(e.into()),
    }
}

pub async fn edit_form(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Director)?;
    let l = load(&state, actor, *id).await?;
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
    let actor = ctx.actor(Role::Director)?;
    let tid = *id;
    let form = form.into_inner();
    match services::tournaments::update_settings(&state.db, actor, tid, form.clone(), ctx.timezone)
        .await
    {
        Ok(()) => Ok(see_other(&format!("/director/t/{tid}?done=settings_saved"))),
        Err(ServiceError::Invalid(problems)) => {
            let l = load(&state, actor, tid).await?;
            let locked = l.status() != Status::Draft;
            let form = if locked {
                form.with_locked_fields_of(&SettingsForm::from_settings(&l.settings, ctx.timezone))
            } else {
                form
            };
            render_status(
                &settings_page(&ctx, Some(tid), locked, form, errors_of(&ctx, &problems)),
                StatusCode::UNPROCESSABLE_ENTITY,
            )
        }
        Err(e) => refused(&ctx, &state, actor, tid, e).await,
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
    owner: Option<String>,
    staff: Vec<StaffMember>,
    staff_error: Option<String>,
    /// Tables of the last round still without a score.
    missing: Vec<u32>,
}

/// The director's page of a tournament, with an error if one is given.
async fn tournament_page(
    ctx: &PageCtx,
    state: &AppState,
    actor: Actor,
    tid: i64,
    error: Option<String>,
    staff_error: Option<String>,
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    let l = load(state, actor, tid).await?;
    let staff = services::tournaments::staff(&state.db, actor, tid).await?;
    let owner = services::tournaments::owner_name(&state.db, &l.t).await?;
    let missing = services::rounds::missing_in_last_round(&state.db, actor, tid).await?;
    render_status(
        &TournamentPage {
            ctx,
            l: &l,
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
            owner,
            staff,
            staff_error,
            missing,
        },
        status,
    )
}

pub async fn show(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Director)?;
    tournament_page(&ctx, &state, actor, *id, None, None, StatusCode::OK).await
}

/// An action the tournament's state does not allow: the tournament page
/// with the reason (409), or the input's problems (422). Anything else is
/// an error page.
async fn refused(
    ctx: &PageCtx,
    state: &AppState,
    actor: Actor,
    tid: i64,
    e: ServiceError,
) -> Result<HttpResponse, AppError> {
    let (message, status) = match &e {
        ServiceError::Conflict(c) => (c.message(ctx.lang), StatusCode::CONFLICT),
        ServiceError::Invalid(p) => (
            p.iter()
                .map(|p| p.message(ctx.lang))
                .collect::<Vec<_>>()
                .join(" "),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        _ => return Err(e.into()),
    };
    tournament_page(ctx, state, actor, tid, Some(message), None, status).await
}

// ---- staff ----

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct StaffForm {
    username: String,
    role: String,
}

/// Adds a co-director or a referee.
pub async fn add_staff(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<i64>,
    form: web::Form<StaffForm>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Director)?;
    let tid = *id;
    let role = match form.role.as_str() {
        "director" => Role::Director,
        _ => Role::Referee,
    };
    match services::tournaments::add_staff(&state.db, actor, tid, form.username.clone(), role).await
    {
        Ok(()) => Ok(see_other(&format!(
            "/director/t/{tid}?done=staff_added#staff"
        ))),
        Err(ServiceError::Invalid(p)) => {
            let message = p
                .iter()
                .map(|p| p.message(ctx.lang))
                .collect::<Vec<_>>()
                .join(" ");
            tournament_page(
                &ctx,
                &state,
                actor,
                tid,
                None,
                Some(message),
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await
        }
        Err(e) => refused(&ctx, &state, actor, tid, e).await,
    }
}

/// Removes a member of the staff.
pub async fn remove_staff(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Director)?;
    let (tid, uid) = path.into_inner();
    match services::tournaments::remove_staff(&state.db, actor, tid, uid).await {
        Ok(()) => Ok(see_other(&format!(
            "/director/t/{tid}?done=staff_removed#staff"
        ))),
        Err(e) => refused(&ctx, &state, actor, tid, e).await,
    }
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
    let actor = ctx.actor(Role::Director)?;
    let l = load(&state, actor, *id).await?;
    render(&PairPage {
        ctx: &ctx,
        t: &l.t,
        pair_id: None,
        number: None,
        form: PairForm::default(),
        errors: FieldErrors::default(),
    })
}

/// The pair form again, with its problems (422).
async fn pair_form_again(
    ctx: &PageCtx,
    state: &AppState,
    actor: Actor,
    tid: i64,
    pid: Option<i64>,
    form: PairForm,
    problems: &[FieldProblem],
) -> Result<HttpResponse, AppError> {
    let l = load(state, actor, tid).await?;
    let number = match pid {
        Some(pid) => Some(l.pair(Some(pid)).ok_or(AppError::NotFound)?.number),
        None => None,
    };
    render_status(
        &PairPage {
            ctx,
            t: &l.t,
            pair_id: pid,
            number,
            form,
            errors: errors_of(ctx, problems),
        },
        StatusCode::UNPROCESSABLE_ENTITY,
    )
}

pub async fn add_pair(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<i64>,
    form: web::Form<PairForm>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Director)?;
    let tid = *id;
    let form = form.into_inner();
    let entry = match PairEntry::parse(&form) {
        Ok(entry) => entry,
        Err(problems) => {
            return pair_form_again(&ctx, &state, actor, tid, None, form, &problems).await
        }
    };
    match services::pairs::register(&state.db, actor, tid, entry).await {
        Ok(number) => {
            tracing::info!(tournament_id = tid, pair = number, "pair registered");
            Ok(see_other(&format!(
                "/director/t/{tid}?done=pair_added#pairs"
            )))
        }
        Err(ServiceError::Invalid(problems)) => {
            pair_form_again(&ctx, &state, actor, tid, None, form, &problems).await
        }
        Err(e) => refused(&ctx, &state, actor, tid, e).await,
    }
}

pub async fn edit_pair(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Director)?;
    let (tid, pid) = path.into_inner();
    let l = load(&state, actor, tid).await?;
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
    let actor = ctx.actor(Role::Director)?;
    let (tid, pid) = path.into_inner();
    let form = form.into_inner();
    let entry = match PairEntry::parse(&form) {
        Ok(entry) => entry,
        Err(problems) => {
            return pair_form_again(&ctx, &state, actor, tid, Some(pid), form, &problems).await
        }
    };
    match services::pairs::update(&state.db, actor, tid, pid, entry).await {
        Ok(()) => Ok(see_other(&format!(
            "/director/t/{tid}?done=pair_saved#pairs"
        ))),
        Err(ServiceError::Invalid(problems)) => {
            pair_form_again(&ctx, &state, actor, tid, Some(pid), form, &problems).await
        }
        Err(e) => refused(&ctx, &state, actor, tid, e).await,
    }
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
    let actor = ctx.actor(Role::Director)?;
    let (tid, pid) = path.into_inner();
    let value = form.value == "true";
    match services::pairs::set_checked_in(&state.db, actor, tid, pid, value).await {
        Ok(()) => Ok(see_other(&format!("/director/t/{tid}#pair-{pid}"))),
        Err(e) => refused(&ctx, &state, actor, tid, e).await,
    }
}

/// Withdraws a pair (from the next round on, once the tournament runs) or
/// reinstates it.
pub async fn withdraw(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    form: web::Form<FlagForm>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Director)?;
    let (tid, pid) = path.into_inner();
    let withdraw = form.value == "true";
    match services::pairs::set_withdrawn(&state.db, actor, tid, pid, withdraw).await {
        Ok(()) => {
            tracing::info!(
                tournament_id = tid,
                pair_id = pid,
                withdraw,
                "pair withdrawal changed"
            );
            Ok(see_other(&format!("/director/t/{tid}#pair-{pid}")))
        }
        Err(e) => refused(&ctx, &state, actor, tid, e).await,
    }
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
    let actor = ctx.actor(Role::Director)?;
    let l = load(&state, actor, *id).await?;
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
    let actor = ctx.actor(Role::Director)?;
    let l = load(&state, actor, *id).await?;
    let tid = l.t.id;
    if l.status() != Status::Draft {
        return refused(
            &ctx,
            &state,
            actor,
            tid,
            ServiceError::conflict("import.error.started"),
        )
        .await;
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
    let entries: Vec<PairEntry> = preview.pairs.iter().map(|(_, e)| e.clone()).collect();
    match services::pairs::import(&state.db, actor, tid, entries).await {
        Ok(n) => {
            tracing::info!(tournament_id = tid, pairs = n, "pairs imported");
            Ok(see_other(&format!(
                "/director/t/{tid}?done=pairs_imported#pairs"
            )))
        }
        Err(ServiceError::Invalid(problems)) => page(
            Some(preview),
            Some(
                problems
                    .iter()
                    .map(|p| p.message(ctx.lang))
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        Err(e) => refused(&ctx, &state, actor, tid, e).await,
    }
}

// ---- the draw and the rounds ----

/// Starts the tournament (or draws round 1 again): checked-in pairs drawn
/// at random to tables and lines; the seed is stored.
pub async fn draw(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Director)?;
    let tid = *id;
    match services::rounds::draw(&state.db, actor, tid).await {
        Ok(()) => Ok(see_other(&format!(
            "/director/t/{tid}/rounds/1?done=round_drawn"
        ))),
        Err(e) => refused(&ctx, &state, actor, tid, e).await,
    }
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct NextRoundForm {
    /// The round the form creates (its page showed "Generate round N").
    round: String,
    /// Why the round is generated with tables of the last round unscored.
    force_reason: String,
}

/// Generates the next round by the tournament's plan. The form names the
/// round it creates: posting it twice answers with that round.
pub async fn next_round(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<i64>,
    form: web::Form<NextRoundForm>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Director)?;
    let tid = *id;
    let requested = form.round.trim().parse::<i32>().ok();
    let force = Some(form.force_reason.clone());
    let tz = state.settings.timezone;
    match services::rounds::next_round(&state.db, actor, tid, requested, force, tz).await {
        Ok(n) => Ok(see_other(&format!(
            "/director/t/{tid}/rounds/{n}?done=round_generated"
        ))),
        Err(e) => refused(&ctx, &state, actor, tid, e).await,
    }
}

/// One table of a round, with the pairs' names.
pub struct TableView<'a> {
    pub table_no: i32,
    pub ns: Option<&'a PairRow>,
    pub ew: Option<&'a PairRow>,
    /// On the table cards: the table's code, its player page's address and
    /// that address as a QR code (inline SVG).
    pub code: Option<String>,
    pub url: Option<String>,
    pub qr: Option<String>,
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
    actor: Actor,
    tid: i64,
    n: i32,
) -> Result<(Loaded, usize, Vec<SeatingRow>, Vec<i64>), AppError> {
    Ok(services::rounds::seating(&state.db, actor, tid, n, Need::Direct).await?)
}

fn table_views<'a>(l: &'a Loaded, tables: &[SeatingRow]) -> Vec<TableView<'a>> {
    tables
        .iter()
        .map(|s| TableView {
            table_no: s.table_no,
            ns: l.pair(s.ns_pair),
            ew: l.pair(s.ew_pair),
            code: None,
            url: None,
            qr: None,
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
    let actor = ctx.actor(Role::Director)?;
    let (tid, n) = path.into_inner();
    let (l, idx, tables, resting) = round_data(&state, actor, tid, n).await?;
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
    req: actix_web::HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Director)?;
    let (tid, n) = path.into_inner();
    let (l, idx, tables, _) = round_data(&state, actor, tid, n).await?;
    let codes = services::table_side::codes(&state.db, actor, tid).await?;
    let base = super::qr::base_url(&state, &req);
    let mut views = table_views(&l, &tables);
    for v in &mut views {
        if let Some(code) = codes.table(v.table_no) {
            let url = format!("{base}/s/{code}");
            v.qr = Some(
                super::qr::svg(&url)
                    .map_err(|e| AppError::Internal(anyhow::anyhow!("QR code: {e}")))?,
            );
            v.code = Some(code.to_string());
            v.url = Some(url);
        }
    }
    let page = TableCardsPage {
        ctx: &ctx,
        l: &l,
        round: &l.rounds[idx],
        tables: views,
    };
    render(&page)
}

/// Where a pair plays each Mitchell round.
pub struct MovementCard<'a> {
    pub pair: &'a PairRow,
    /// The pair's private code (to enter and confirm scores at the table).
    pub code: Option<String>,
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
    let actor = ctx.actor(Role::Director)?;
    let tid = *id;
    let l = load(&state, actor, tid).await?;
    let codes = services::table_side::codes(&state.db, actor, tid).await?;
    let Some((layout, schedule)) = services::rounds::mitchell_schedule(&l)? else {
        return refused(
            &ctx,
            &state,
            actor,
            tid,
            ServiceError::conflict("round.error.not_started"),
        )
        .await;
    };
    let ew = ctx.t("line.ew_short");
    let cards = l
        .pairs
        .iter()
        .filter(|p| layout.pairs().any(|q| q == p.pair_no()) || p.joined_from_round.is_some())
        .map(|p| MovementCard {
            pair: p,
            code: codes.pair(p.number).map(str::to_string),
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
    let actor = ctx.actor(Role::Director)?;
    let (tid, n) = path.into_inner();
    let Some(action) = services::rounds::ClockAction::parse(&form.action) else {
        return Err(AppError::BadRequest("error.bad_request.message"));
    };
    services::rounds::clock(&state.db, actor, tid, n, action).await?;
    tracing::info!(
        tournament_id = tid,
        round = n,
        action = form.action,
        "round clock"
    );
    Ok(see_other(&format!("/desk/t/{tid}/rounds/{n}")))
}

/// Closes the tournament: final standings (every sheet must be in).
pub async fn close(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Director)?;
    let tid = *id;
    match services::tournaments::close(&state.db, actor, tid).await {
        Ok(()) => {
            tracing::info!(tournament_id = tid, "tournament closed");
            Ok(see_other(&format!(
                "/director/t/{tid}?done=tournament_closed"
            )))
        }
        Err(e) => refused(&ctx, &state, actor, tid, e).await,
    }
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct ReopenForm {
    reason: String,
}

/// Reopens a closed tournament, with a reason.
pub async fn reopen(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<i64>,
    form: web::Form<ReopenForm>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Director)?;
    let tid = *id;
    match services::tournaments::reopen(&state.db, actor, tid, form.into_inner().reason).await {
        Ok(()) => {
            tracing::info!(tournament_id = tid, "tournament reopened");
            Ok(see_other(&format!(
                "/director/t/{tid}?done=tournament_reopened"
            )))
        }
        Err(e) => refused(&ctx, &state, actor, tid, e).await,
    }
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
    let actor = ctx.actor(Role::Director)?;
    let tid = *id;
    let file = services::files::export(&state.db, actor, tid, state.settings.timezone).await?;
    let json = crate::tournament_file::to_json(&file)
        .map_err(|e| AppError::Corrupt(format!("tournament {tid}: export: {e}")))?;
    Ok(download(
        json,
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
    let actor = ctx.actor(Role::Director)?;
    let tid = *id;
    let (file, st) =
        services::files::standings(&state.db, actor, tid, state.settings.timezone, ctx.lang)
            .await?;
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
    let actor = ctx.actor(Role::Director)?;
    let tid = *id;
    let file = services::files::export(&state.db, actor, tid, state.settings.timezone).await?;
    let out = crate::tournament::csv_export::sheets_csv(&file, ctx.lang)
        .map_err(|e| AppError::Internal(e.into()))?;
    Ok(download(
        out,
        "text/csv; charset=utf-8",
        &format!("sheets-{tid}.csv"),
    ))
}
