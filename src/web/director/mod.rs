//! The director's pages: tournaments, settings, staff, pairs, check-in, the
//! draw and the Mitchell/Danish rounds, printouts, exports. The `/director`
//! scope is role-guarded; each handler parses, calls one service, renders.

use crate::ids::TournamentId;
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;

use super::context::{FieldErrors, PageCtx};
use super::error::AppError;
use super::{render_status, AppState};
use crate::auth::Role;
use crate::services::tournaments::StaffMember;
use crate::services::{self, Actor, Loaded, Need, ServiceError};
use crate::tournament::FieldProblem;
use crate::web::roles::Director;

pub mod circuits;
pub mod clock;
pub mod close;
pub mod csv;
pub mod exports;
pub mod individual;
pub mod individual_csv;
pub mod individual_rounds;
pub mod lineups;
pub mod members;
pub mod online;
pub mod pairs;
pub mod people;
pub mod plan;
pub mod printouts;
pub mod rounds;
pub mod staff;
pub mod team_csv;
pub mod teams;
pub mod tournaments;

fn errors_of(ctx: &PageCtx, problems: &[FieldProblem]) -> FieldErrors {
    let mut e = FieldErrors::default();
    for p in problems {
        e.add(p.field, p.message(ctx.lang));
    }
    e
}

/// A refusal's words for the page it comes back to (409/422 with the
/// reason), or `None` for an error the error page says.
fn conflict_text(ctx: &PageCtx, e: &ServiceError) -> Option<String> {
    match e {
        ServiceError::Conflict(c) => Some(c.message(ctx.lang)),
        ServiceError::Invalid(p) => Some(
            p.iter()
                .map(|p| p.message(ctx.lang))
                .collect::<Vec<_>>()
                .join(" "),
        ),
        _ => None,
    }
}

async fn load(state: &AppState, actor: Actor, tid: TournamentId) -> Result<Loaded, AppError> {
    Ok(services::tournaments::load(&state.db, actor, tid, Need::Direct).await?)
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
    /// The plan in phases, in words, and the level's warnings.
    phases: Vec<String>,
    warnings: Vec<String>,
    /// Entries online (issue 36): the numbers of the pairs that entered
    /// online, and the waiting list in order.
    online_numbers: Vec<i32>,
    waiting: Vec<services::waiting_list::Listed>,
    /// With the member check off: the online pairs whose cards the member
    /// list would not let in ("Rossi Mario: tessera scaduta"), by number.
    card_flags: Vec<(i32, String)>,
}

impl TournamentPage<'_> {
    fn entered_online(&self, number: &i32) -> bool {
        self.online_numbers.contains(number)
    }

    fn card_flags_of(&self, number: &i32) -> Vec<&str> {
        card_flags_of(&self.card_flags, number)
    }
}

/// The flags of registration `number`.
fn card_flags_of<'a>(flags: &'a [(i32, String)], number: &i32) -> Vec<&'a str> {
    flags
        .iter()
        .filter(|(n, _)| n == number)
        .map(|(_, text)| text.as_str())
        .collect()
}

/// "Rossi Mario: tessera scaduta", by registration number, for each card
/// of a confirmed entry that the member list would not let in.
fn card_flags(ctx: &PageCtx, online: &[services::waiting_list::Listed]) -> Vec<(i32, String)> {
    online
        .iter()
        .filter_map(|e| e.number.map(|n| (n, e)))
        .flat_map(|(n, e)| {
            e.card_problems
                .iter()
                .map(move |(who, why)| (n, format!("{who}: {}", ctx.t(why.key()))))
        })
        .collect()
}

/// The director's page of a tournament, with an error if one is given.
async fn tournament_page(
    ctx: &PageCtx,
    state: &AppState,
    actor: Actor,
    tid: TournamentId,
    error: Option<String>,
    staff_error: Option<String>,
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    let l = load(state, actor, tid).await?;
    let staff = services::tournaments::staff(&state.db, actor, tid).await?;
    let candidates = services::tournaments::staff_candidates(&state.db, actor, tid).await?;
    let owner = services::tournaments::owner_name(&state.db, &l.t).await?;
    let missing = services::rounds::missing_in_last_round(&state.db, actor, tid).await?;
    let online = services::waiting_list::list(&state.db, actor, tid).await?;
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
            phases: plan::plan_words(ctx, &l.settings),
            warnings: plan::level_warnings(ctx, &l.settings),
            online_numbers: online.iter().filter_map(|e| e.number).collect(),
            card_flags: card_flags(ctx, &online),
            waiting: online
                .into_iter()
                .filter(|e| e.position.is_some())
                .collect(),
        },
        status,
    )
}

pub async fn show(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    id: web::Path<crate::ids::TournamentId>,
) -> Result<HttpResponse, AppError> {
    tournament_page(&ctx, &state, actor, *id, None, None, StatusCode::OK).await
}

/// An action the tournament's state does not allow: the tournament page
/// with the reason (409), or the input's problems (422). Anything else is
/// an error page.
async fn refused(
    ctx: &PageCtx,
    state: &AppState,
    actor: Actor,
    tid: TournamentId,
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
    /// The groups a round's cut will make (RULES.md §13), shown before.
    groups: Vec<GroupPreview>,
}

/// One group of a cut to come: "Girone A · 7 tavoli" and its pairs in the
/// order of the cut.
struct GroupPreview {
    name: String,
    heading: String,
    pairs: Vec<String>,
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
            groups: Vec::new(),
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

/// Why a confirmation page has no form: a conflict's message.
fn blocked_reason(e: &ServiceError, lang: crate::i18n::Lang) -> String {
    match e {
        ServiceError::Conflict(c) => c.message(lang),
        other => other.to_string(),
    }
}
