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
use crate::i18n::tf;
use crate::movement;
use crate::services::rounds::DrawKind;
use crate::services::tournaments::StaffMember;
use crate::services::{self, Actor, Conflict, Loaded, Need, ServiceError};
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
    /// The tournament's state (None for a new one): closed, the whole
    /// form is read-only.
    status: Option<Status>,
    form: SettingsForm,
    errors: FieldErrors,
    profiles: Vec<&'static str>,
}

impl SettingsPage<'_> {
    fn read_only(&self) -> bool {
        self.status == Some(Status::Finished)
    }
    fn status_code(&self) -> &'static str {
        self.status.map_or("", Status::as_str)
    }
}

fn settings_page<'a>(
    ctx: &'a PageCtx,
    id: Option<i64>,
    status: Option<Status>,
    form: SettingsForm,
    errors: FieldErrors,
) -> SettingsPage<'a> {
    SettingsPage {
        ctx,
        id,
        locked: status.is_some_and(|s| s != Status::Draft),
        status,
        form: form.localised(ctx.lang),
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
        None,
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
            &settings_page(&ctx, None, None, form, errors_of(&ctx, &problems)),
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
        Some(l.status()),
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
                &settings_page(
                    &ctx,
                    Some(tid),
                    Some(l.status()),
                    form,
                    errors_of(&ctx, &problems),
                ),
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
    /// Entries (RULES.md §10) and the registrations that are not.
    entries: usize,
    no_shows: usize,
    owner: Option<String>,
    staff: Vec<StaffMember>,
    staff_error: Option<String>,
    /// Tables of the last round still without a score.
    missing: Vec<u32>,
    /// Registrations still to check in.
    to_check_in: usize,
    /// Accounts the staff form offers (username, role).
    candidates: Vec<(String, Role)>,
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
    let candidates = services::tournaments::staff_candidates(&state.db, actor, tid).await?;
    let owner = services::tournaments::owner_name(&state.db, &l.t).await?;
    let missing = services::rounds::missing_in_last_round(&state.db, actor, tid).await?;
    render_status(
        &TournamentPage {
            ctx,
            l: &l,
            error,
            checked_in: l.drawable().count(),
            to_check_in: l.not_checked_in().count(),
            candidates,
            active: l
                .pairs
                .iter()
                .filter(|p| p.withdrawn_from_round.is_none() && !p.no_show)
                .count(),
            entries: l.pairs.iter().filter(|p| p.is_entry()).count(),
            no_shows: l.pairs.iter().filter(|p| !p.is_entry()).count(),
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

/// The empty pair form, or filled in from the query (a player picked from
/// the directory: `web::directory`).
pub async fn new_pair(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<i64>,
    prefill: web::Query<PairForm>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Director)?;
    let l = load(&state, actor, *id).await?;
    render(&PairPage {
        ctx: &ctx,
        t: &l.t,
        pair_id: None,
        number: None,
        form: prefill.into_inner(),
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

/// Checks in the ticked pairs (`pair` fields), or every pair still to
/// check in (`all=1`): one click for the whole hall.
pub async fn check_in_many(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<i64>,
    form: web::Form<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Director)?;
    let tid = *id;
    let fields = form.into_inner();
    let all = fields.iter().any(|(k, v)| k == "all" && v == "1");
    let ids: Vec<i64> = fields
        .iter()
        .filter(|(k, _)| k == "pair")
        .filter_map(|(_, v)| v.trim().parse().ok())
        .collect();
    let pids = if all { None } else { Some(ids) };
    match services::pairs::check_in_many(&state.db, actor, tid, pids).await {
        Ok(_) => Ok(see_other(&format!(
            "/director/t/{tid}?done=pairs_checked_in#pairs"
        ))),
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

/// Marks a pair no-show (or undoes it) before the start.
pub async fn no_show(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    form: web::Form<FlagForm>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Director)?;
    let (tid, pid) = path.into_inner();
    let value = form.value == "true";
    match services::pairs::set_no_show(&state.db, actor, tid, pid, value).await {
        Ok(()) => Ok(see_other(&format!("/director/t/{tid}#pair-{pid}"))),
        Err(e) => refused(&ctx, &state, actor, tid, e).await,
    }
}

#[derive(Template)]
#[template(path = "director/pair_delete.html")]
struct DeletePairPage<'a> {
    ctx: &'a PageCtx,
    t: &'a TournamentRow,
    pair: &'a PairRow,
}

/// The confirmation step of a deletion (a page of its own: no JavaScript).
pub async fn delete_pair_confirm(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Director)?;
    let (tid, pid) = path.into_inner();
    let l = load(&state, actor, tid).await?;
    let Some(pair) = l.pair(Some(pid)) else {
        return Err(ServiceError::NotFound.into());
    };
    if l.status() != Status::Draft {
        return refused(
            &ctx,
            &state,
            actor,
            tid,
            ServiceError::conflict("entries.error.started"),
        )
        .await;
    }
    render(&DeletePairPage {
        ctx: &ctx,
        t: &l.t,
        pair,
    })
}

/// Deletes a registration before the start.
pub async fn delete_pair(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Director)?;
    let (tid, pid) = path.into_inner();
    match services::pairs::delete(&state.db, actor, tid, pid).await {
        Ok(number) => {
            tracing::info!(tournament_id = tid, pair = number, "registration deleted");
            Ok(see_other(&format!("/director/t/{tid}#pairs")))
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
    // Withdrawn and no-show registrations do not hold their players (the
    // import's own check agrees).
    let existing: Vec<PairEntry> = l
        .pairs
        .iter()
        .filter(|p| p.holds_players())
        .map(PairRow::entry)
        .collect();
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

// ---- confirmations of the irreversible actions ----

/// A confirmation page: what an action will do, what to look at first, and
/// a form that carries `confirm=1` (plain HTML: works without JavaScript).
/// A POST without the confirmation comes here instead of acting.
#[derive(Template)]
#[template(path = "director/confirm.html")]
struct ConfirmPage<'a> {
    ctx: &'a PageCtx,
    l: &'a Loaded,
    title: String,
    lines: Vec<String>,
    warnings: Vec<String>,
    /// Why the action cannot happen now (then there is no form).
    blocked: Option<String>,
    action: String,
    hidden: Vec<(&'static str, String)>,
    /// A reason the action needs: (field, label key, value).
    reason: Option<(&'static str, &'static str, String)>,
    submit: String,
    danger: bool,
    back: String,
    /// The form posted was shown before the tournament last changed: this
    /// page (409) says so above what the action does now.
    stale: bool,
}

impl<'a> ConfirmPage<'a> {
    fn new(ctx: &'a PageCtx, l: &'a Loaded, title: String, action: String) -> ConfirmPage<'a> {
        ConfirmPage {
            ctx,
            l,
            title,
            lines: Vec::new(),
            warnings: Vec::new(),
            blocked: None,
            action,
            // The revision the page shows: the action refuses a form
            // posted after anything changed (a Back button, another director).
            hidden: vec![("revision", l.t.revision.to_string())],
            reason: None,
            submit: String::new(),
            danger: false,
            back: format!("/director/t/{}#rounds", l.t.id),
            stale: false,
        }
    }

    /// 409 when the page answers a stale form, else 200.
    fn status(&self) -> StatusCode {
        if self.stale {
            StatusCode::CONFLICT
        } else {
            StatusCode::OK
        }
    }
}

/// `confirm=1` on an action's form, and the revision its page showed.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct ConfirmForm {
    confirm: String,
    revision: String,
}

impl ConfirmForm {
    /// The revision the confirmation page was shown at.
    fn seen(&self) -> Option<i64> {
        self.revision.trim().parse().ok()
    }
}

fn confirmed(value: &str) -> bool {
    value.trim() == "1"
}

fn numbers<T: std::fmt::Display>(items: &[T]) -> String {
    items
        .iter()
        .map(T::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// What starting (`redraw` false) or drawing round 1 again will do. The
/// precondition is the action's own ([`services::rounds::plan_draw`]).
async fn draw_page(
    ctx: &PageCtx,
    state: &AppState,
    tid: i64,
    kind: DrawKind,
    stale: bool,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Director)?;
    let l = load(state, actor, tid).await?;
    let lang = ctx.lang;
    let redraw = kind == DrawKind::Redraw;
    let (title, action) = if redraw {
        (ctx.t("states.redraw.title"), "redraw")
    } else {
        (ctx.t("states.start.title"), "draw")
    };
    let mut page = ConfirmPage::new(
        ctx,
        &l,
        title.to_string(),
        format!("/director/t/{tid}/{action}"),
    );
    page.stale = stale;
    let present = l.drawable().count();
    let absent: Vec<i32> = l.not_checked_in().map(|p| p.number).collect();
    let tables = present.div_ceil(2);
    page.lines.push(tf(
        lang,
        "states.start.drawn",
        &[("pairs", &present), ("tables", &tables)],
    ));
    if redraw {
        page.lines.push(ctx.t("states.redraw.changes").to_string());
        if l.round(1).is_some_and(|r| r.started_at.is_some()) {
            page.warnings.push(ctx.t("states.redraw.clock").to_string());
        }
        page.submit = ctx.t("states.redraw.submit").to_string();
    } else {
        page.lines.push(ctx.t("states.start.locks").to_string());
        page.submit = ctx.t("states.start.submit").to_string();
    }
    page.lines.push(ctx.t("states.start.undo").to_string());
    if !absent.is_empty() {
        page.warnings.push(tf(
            lang,
            "states.start.not_checked_in",
            &[("pairs", &numbers(&absent))],
        ));
    }
    if present % 2 == 1 {
        page.warnings.push(ctx.t("states.start.odd").to_string());
    }
    page.blocked = services::rounds::plan_draw(&l, kind)
        .err()
        .map(|e| blocked_reason(&e, lang));
    render_status(&page, page.status())
}

/// Why a confirmation page has no form: a conflict's message.
fn blocked_reason(e: &ServiceError, lang: crate::i18n::Lang) -> String {
    match e {
        ServiceError::Conflict(c) => c.message(lang),
        other => other.to_string(),
    }
}

/// What starting will do.
pub async fn confirm_start(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    draw_page(&ctx, &state, *id, DrawKind::Start, false).await
}

/// What drawing round 1 again will do.
pub async fn confirm_redraw(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    draw_page(&ctx, &state, *id, DrawKind::Redraw, false).await
}

/// Starts the tournament: checked-in pairs drawn at random to tables and
/// lines; the seed is stored. Without `confirm=1` the confirmation page
/// answers instead; a tournament that has started is a conflict (drawing
/// round 1 again is its own action, [`redraw`]).
pub async fn draw(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<i64>,
    form: web::Form<ConfirmForm>,
) -> Result<HttpResponse, AppError> {
    draw_action(&ctx, &state, *id, form.into_inner(), DrawKind::Start).await
}

/// Draws round 1 again (nothing recorded for it yet).
pub async fn redraw(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<i64>,
    form: web::Form<ConfirmForm>,
) -> Result<HttpResponse, AppError> {
    draw_action(&ctx, &state, *id, form.into_inner(), DrawKind::Redraw).await
}

async fn draw_action(
    ctx: &PageCtx,
    state: &AppState,
    tid: i64,
    form: ConfirmForm,
    kind: DrawKind,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Director)?;
    let page = match kind {
        DrawKind::Start => "confirm-start",
        DrawKind::Redraw => "confirm-redraw",
    };
    if !confirmed(&form.confirm) {
        return Ok(see_other(&format!("/director/t/{tid}/{page}")));
    }
    match services::rounds::draw(&state.db, actor, tid, kind, form.seen()).await {
        Ok(()) => Ok(see_other(&format!(
            "/director/t/{tid}/rounds/1?done=round_drawn"
        ))),
        Err(ServiceError::Conflict(Conflict::Stale)) => {
            draw_page(ctx, state, tid, kind, true).await
        }
        Err(e) => refused(ctx, state, actor, tid, e).await,
    }
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct NextRoundForm {
    /// The round the form creates (its page showed "Generate round N").
    round: String,
    /// Why the round is generated with tables of the last round unscored.
    force_reason: String,
    confirm: String,
    /// The revision the confirmation page was shown at.
    revision: String,
}

/// What generating the next round will do: the tables of the last round
/// still without a score (then a reason is asked), a round without time-out.
pub async fn confirm_round(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<i64>,
    query: web::Query<NextRoundForm>,
) -> Result<HttpResponse, AppError> {
    round_page(&ctx, &state, *id, &query, false).await
}

async fn round_page(
    ctx: &PageCtx,
    state: &AppState,
    tid: i64,
    query: &NextRoundForm,
    stale: bool,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Director)?;
    let l = load(state, actor, tid).await?;
    let missing = services::rounds::missing_in_last_round(&state.db, actor, tid).await?;
    let lang = ctx.lang;
    let n = l.next_round();
    let mut page = ConfirmPage::new(
        ctx,
        &l,
        tf(lang, "states.round.title", &[("round", &n)]),
        format!("/director/t/{tid}/rounds"),
    );
    let kind = l.settings.movement_of(u32::try_from(n).unwrap_or(1));
    let movement = ctx.t(kind.label_key());
    // A Danish round follows the standings: every sheet must be in first.
    let danish_waits = if kind == crate::tournament::RoundMovement::Mitchell {
        None
    } else {
        movement::ensure_previous_round_complete(&missing)
            .err()
            .map(|e| e.message(lang))
    };
    page.lines.push(tf(
        lang,
        "states.round.seated",
        &[("round", &n), ("movement", &movement)],
    ));
    page.lines.push(ctx.t("states.round.undo").to_string());
    if let Some(last) = l.rounds.last() {
        if last.time_out_at.is_none() {
            page.warnings.push(tf(
                lang,
                "states.round.no_time_out",
                &[("round", &last.number)],
            ));
        }
        if !missing.is_empty() {
            page.warnings.push(tf(
                lang,
                "states.round.missing",
                &[("round", &last.number), ("tables", &numbers(&missing))],
            ));
            page.reason = Some((
                "force_reason",
                "rounds.force_reason",
                query.force_reason.clone(),
            ));
        }
    }
    page.hidden.push(("round", n.to_string()));
    page.submit = tf(lang, "states.round.submit", &[("round", &n)]);
    page.stale = stale;
    page.blocked = if l.status() != Status::Running {
        Some(ctx.t("round.error.not_started").to_string())
    } else if u32::try_from(n).unwrap_or(u32::MAX) > l.settings.planned_rounds {
        Some(ctx.t("round.error.all_generated").to_string())
    } else {
        danish_waits
    };
    render_status(&page, page.status())
}

/// Generates the next round by the tournament's plan. The form names the
/// round it creates: posting it twice answers with that round. Without
/// `confirm=1` the confirmation page answers instead (the reason typed on
/// the tournament page comes along).
pub async fn next_round(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<i64>,
    form: web::Form<NextRoundForm>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Director)?;
    let tid = *id;
    if !confirmed(&form.confirm) {
        let query = serde_urlencoded::to_string([
            ("round", form.round.as_str()),
            ("force_reason", form.force_reason.as_str()),
        ])
        .map_err(|e| AppError::Internal(e.into()))?;
        return Ok(see_other(&format!(
            "/director/t/{tid}/confirm-round?{query}"
        )));
    }
    let requested = form.round.trim().parse::<i32>().ok();
    let force = Some(form.force_reason.clone());
    let seen = form.revision.trim().parse().ok();
    let tz = state.settings.timezone;
    match services::rounds::next_round(&state.db, actor, tid, requested, force, seen, tz).await {
        Ok(n) => Ok(see_other(&format!(
            "/director/t/{tid}/rounds/{n}?done=round_generated"
        ))),
        Err(ServiceError::Conflict(Conflict::Stale)) => {
            round_page(&ctx, &state, tid, &form, true).await
        }
        Err(e) => refused(&ctx, &state, actor, tid, e).await,
    }
}

/// What undoing a round will do (round 1: the start is undone).
pub async fn confirm_undo(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
) -> Result<HttpResponse, AppError> {
    undo_page(&ctx, &state, path.into_inner(), false).await
}

async fn undo_page(
    ctx: &PageCtx,
    state: &AppState,
    (tid, n): (i64, i32),
    stale: bool,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Director)?;
    let l = load(state, actor, tid).await?;
    let round = l.round(n).ok_or(AppError::NotFound)?;
    let results = services::rounds::results_of(&state.db, actor, tid, n).await?;
    let lang = ctx.lang;
    let mut page = ConfirmPage::new(
        ctx,
        &l,
        tf(lang, "states.undo.title", &[("round", &n)]),
        format!("/director/t/{tid}/rounds/{n}/undo"),
    );
    page.back = format!("/director/t/{tid}/rounds/{n}");
    if n == 1 {
        page.lines.push(ctx.t("states.undo.start").to_string());
    } else {
        page.lines.push(tf(
            lang,
            "states.undo.deletes",
            &[("round", &n), ("previous", &(n - 1))],
        ));
    }
    page.lines.push(ctx.t("states.undo.codes").to_string());
    if round.started_at.is_some() {
        page.warnings
            .push(tf(lang, "states.undo.clock", &[("round", &n)]));
    }
    page.submit = tf(lang, "states.undo.submit", &[("round", &n)]);
    page.danger = true;
    page.stale = stale;
    page.blocked = if l.status() != Status::Running {
        Some(ctx.t("tournament.error.not_running").to_string())
    } else if l.rounds.last().map(|r| r.number) != Some(n) {
        Some(tf(lang, "states.undo.error.not_last", &[("round", &n)]))
    } else if !results.is_empty() {
        Some(tf(
            lang,
            "states.undo.error.results",
            &[
                ("round", &n),
                ("sheets", &results.sheets),
                ("entries", &results.entries),
                ("penalties", &results.penalties),
            ],
        ))
    } else {
        None
    };
    render_status(&page, page.status())
}

/// Undoes the last round while nothing is recorded for it (round 1: the
/// tournament is back in preparation).
pub async fn undo_round(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
    form: web::Form<ConfirmForm>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Director)?;
    let (tid, n) = path.into_inner();
    if !confirmed(&form.confirm) {
        return Ok(see_other(&format!(
            "/director/t/{tid}/rounds/{n}/confirm-undo"
        )));
    }
    match services::rounds::undo_round(&state.db, actor, tid, n, form.seen()).await {
        Err(ServiceError::Conflict(Conflict::Stale)) => {
            undo_page(&ctx, &state, (tid, n), true).await
        }
        Ok(0) => Ok(see_other(&format!("/director/t/{tid}?done=start_undone"))),
        Ok(last) => Ok(see_other(&format!(
            "/director/t/{tid}/rounds/{last}?done=round_undone"
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
    /// The round clock (staff only).
    clock: super::clock::ClockView,
    clock_back: &'static str,
    /// The last round, with nothing recorded yet: it can be undone.
    can_undo: bool,
}

#[derive(Template)]
#[template(path = "director/table_cards.html")]
struct TableCardsPage<'a> {
    ctx: &'a PageCtx,
    l: &'a Loaded,
    round: &'a RoundRow,
    tables: Vec<TableView<'a>>,
    loopback: Option<LoopbackWarning>,
}

/// The table cards would print an address only this machine can open.
pub struct LoopbackWarning {
    pub base: String,
    /// This machine's network addresses (a phone on the hall's network can
    /// open one of them).
    pub addresses: Vec<String>,
    /// The reader may save the public address (an administrator).
    pub admin: bool,
    /// `PUBLIC_URL` itself is the loopback address.
    pub from_env: bool,
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
            add(p, Some(s.table_no), crate::rules::Line::Ew.label(ctx.lang));
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
    let round = &l.rounds[idx];
    let can_undo = l.status() == Status::Running
        && idx + 1 == l.rounds.len()
        && services::rounds::results_of(&state.db, actor, tid, n)
            .await?
            .is_empty();
    let page = RoundPage {
        ctx: &ctx,
        l: &l,
        round,
        tables: table_views(&l, &tables),
        resting: resting.iter().filter_map(|id| l.pair(Some(*id))).collect(),
        by_player,
        clock: super::clock::ClockView::of(&ctx, &l, round, crate::db::now()),
        clock_back: "director",
        can_undo,
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
    let base = super::qr::base_url(&state, &req).await?;
    // A card printed with an address only this machine opens is useless:
    // say so above the cards and offer this machine's network addresses.
    let loopback = crate::tournament::text::is_loopback_url(&base).then(|| LoopbackWarning {
        base: base.clone(),
        addresses: super::qr::network_addresses(&req),
        admin: ctx.is_role("admin"),
        from_env: state.settings.public_url.is_some(),
    });
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
        loopback,
    };
    render(&page)
}

/// Where a pair plays each Mitchell round.
pub struct MovementCard<'a> {
    pub pair: &'a PairRow,
    /// The pair's private code (to enter and confirm scores at the table).
    pub code: Option<String>,
    /// (round, table, line, what the card says without a table: resting,
    /// not yet registered, withdrawn).
    pub rounds: Vec<(u32, Option<u32>, &'static str, &'static str)>,
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
    let ew = crate::rules::Line::Ew.label(ctx.lang);
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
                    let round = i32::try_from(r.round).unwrap_or(i32::MAX);
                    // Not a rest: a late pair before it joined, a withdrawn
                    // pair once it left.
                    if p.joined_from_round.is_some_and(|j| round < j) {
                        return (r.round, None, "", "movement_cards.not_yet");
                    }
                    if p.withdrawn_from_round.is_some_and(|w| round >= w) {
                        return (r.round, None, "", "movement_cards.withdrawn");
                    }
                    let line = match r.line(no) {
                        Some(movement::Line::Ns) => "NS",
                        Some(movement::Line::Ew) => ew,
                        None => "",
                    };
                    (
                        r.round,
                        r.table_of(no).filter(|_| !r.rests(no)),
                        line,
                        "round.rests",
                    )
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
    /// `director`: back to the director's round page (else the desk).
    back: String,
    confirm: String,
    /// The revision the time-out confirmation page was shown at.
    revision: String,
}

/// What calling time-out will do, with the time still on the clock.
pub async fn confirm_time_out(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
    query: web::Query<ClockForm>,
) -> Result<HttpResponse, AppError> {
    time_out_page(&ctx, &state, path.into_inner(), &query, false).await
}

async fn time_out_page(
    ctx: &PageCtx,
    state: &AppState,
    (tid, n): (i64, i32),
    query: &ClockForm,
    stale: bool,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Director)?;
    let l = load(state, actor, tid).await?;
    let round = l.round(n).ok_or(AppError::NotFound)?;
    let clock = super::clock::ClockView::of(ctx, &l, round, crate::db::now());
    let lang = ctx.lang;
    let mut page = ConfirmPage::new(
        ctx,
        &l,
        tf(lang, "states.time_out.title", &[("round", &n)]),
        format!("/director/t/{tid}/rounds/{n}/clock"),
    );
    let back_director = query.back == "director";
    page.back = if back_director {
        format!("/director/t/{tid}/rounds/{n}")
    } else {
        format!("/desk/t/{tid}/rounds/{n}")
    };
    page.lines.push(ctx.t("states.time_out.lap").to_string());
    page.lines.push(ctx.t("states.time_out.sheets").to_string());
    page.lines.push(ctx.t("states.time_out.final").to_string());
    match clock.state {
        "running" => page
            .warnings
            .push(tf(lang, "states.time_out.left", &[("left", &clock.left)])),
        "paused" => {
            page.warnings
                .push(tf(lang, "states.time_out.left", &[("left", &clock.left)]));
            page.warnings
                .push(ctx.t("states.time_out.paused").to_string());
        }
        _ => {}
    }
    page.hidden.push(("action", "time_out".to_string()));
    page.hidden.push((
        "back",
        if back_director { "director" } else { "desk" }.to_string(),
    ));
    page.submit = ctx.t("states.time_out.submit").to_string();
    page.danger = true;
    page.stale = stale;
    page.blocked = if l.status() != Status::Running {
        Some(ctx.t("tournament.error.not_running").to_string())
    } else if let Some(at) = clock.time_out_at {
        Some(ctx.said_at("clock.time_out_called", &at))
    } else if !clock.started() {
        Some(ctx.t("clock.not_started").to_string())
    } else {
        None
    };
    render_status(&page, page.status())
}

/// Starts a round's clock, pauses or resumes it, or calls time-out (the
/// time is recorded). Time-out cannot be undone: without `confirm=1` the
/// confirmation page answers instead.
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
    let back = if form.back == "director" {
        "director"
    } else {
        "desk"
    };
    if action == services::rounds::ClockAction::TimeOut && !confirmed(&form.confirm) {
        return Ok(see_other(&format!(
            "/director/t/{tid}/rounds/{n}/confirm-time-out?back={back}"
        )));
    }
    let seen = form.revision.trim().parse().ok();
    match services::rounds::clock(&state.db, actor, tid, n, action, seen).await {
        Ok(()) => {}
        Err(ServiceError::Conflict(Conflict::Stale)) => {
            return time_out_page(&ctx, &state, (tid, n), &form, true).await;
        }
        Err(e) => return Err(e.into()),
    }
    tracing::info!(
        tournament_id = tid,
        round = n,
        action = action.as_str(),
        "round clock"
    );
    Ok(see_other(&format!("/{back}/t/{tid}/rounds/{n}#clock")))
}

/// What closing will do; the tables still without a score keep it open.
pub async fn confirm_close(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    close_page(&ctx, &state, *id, false).await
}

async fn close_page(
    ctx: &PageCtx,
    state: &AppState,
    tid: i64,
    stale: bool,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Director)?;
    let l = load(state, actor, tid).await?;
    let missing = services::rounds::missing_by_round(&state.db, actor, tid).await?;
    let lang = ctx.lang;
    let mut page = ConfirmPage::new(
        ctx,
        &l,
        ctx.t("states.close.title").to_string(),
        format!("/director/t/{tid}/close"),
    );
    page.lines.push(ctx.t("states.close.final").to_string());
    page.lines.push(ctx.t("states.close.reopen").to_string());
    let played = l.rounds.len();
    if u32::try_from(played).unwrap_or(u32::MAX) < l.settings.planned_rounds {
        page.warnings.push(tf(
            lang,
            "states.close.rounds",
            &[("played", &played), ("planned", &l.settings.planned_rounds)],
        ));
    }
    page.submit = ctx.t("states.close.submit").to_string();
    page.stale = stale;
    page.blocked = if l.status() != Status::Running {
        Some(ctx.t("close.error.not_running").to_string())
    } else if let Some((round, tables)) = missing.first() {
        Some(tf(
            lang,
            "close.error.missing",
            &[("round", round), ("tables", &numbers(tables))],
        ))
    } else {
        None
    };
    render_status(&page, page.status())
}

/// Closes the tournament: final standings (every sheet must be in).
/// Without `confirm=1` the confirmation page answers instead.
pub async fn close(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<i64>,
    form: web::Form<ConfirmForm>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Director)?;
    let tid = *id;
    if !confirmed(&form.confirm) {
        return Ok(see_other(&format!("/director/t/{tid}/confirm-close")));
    }
    match services::tournaments::close(&state.db, actor, tid, form.seen()).await {
        Err(ServiceError::Conflict(Conflict::Stale)) => close_page(&ctx, &state, tid, true).await,
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
