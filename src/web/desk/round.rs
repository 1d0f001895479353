//! A round at the desk, the control room: every table's state, the entries waiting, the jump to a table, the desk's confirmation of an entry as seen.

use super::save::sheet_again;
use super::{mode_code, mode_suffix, penalty_note, JumpView, ModeQuery};
use crate::auth::Role;
use crate::i18n::{t, tf, Lang};
use crate::ids::TournamentId;
use crate::services;
use crate::services::view::{Pair, Round, Seating, Sheet};
use crate::services::Refusal;
use crate::services::{Conflict, Loaded, ServiceError};
use crate::web::context::PageCtx;
use crate::web::error::AppError;
use crate::web::roles::Staff;
use crate::web::{render, see_other, AppState};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;

pub struct DeskTable<'a> {
    pub seating: Seating,
    pub ns: Option<&'a Pair>,
    pub ew: Option<&'a Pair>,
    pub sheet: Option<Sheet>,
    pub state: services::board::DeskState,
    /// A pair's entry waiting at the table: who entered it, its totals and
    /// VP as the engine reads them, the other pair's note when disputed.
    pub pending: Option<PendingEntry>,
    /// The result the standings count when `mp` penalties change the
    /// sheet's (RULES.md §9), and why, one line per penalised pair.
    pub counted: Option<services::board::Counted>,
    pub counted_notes: Vec<String>,
}

/// A table-side entry that does not count yet.
pub struct PendingEntry {
    pub by: String,
    pub totals: String,
    pub note: String,
}

impl DeskTable<'_> {
    /// The saved sheet is in totals mode (its burraco checks were not possible).
    pub fn is_totals(&self) -> bool {
        self.sheet.as_ref().is_some_and(Sheet::is_totals)
    }
}

#[derive(Template)]
#[template(path = "desk/round.html")]
pub(super) struct RoundDeskPage<'a> {
    ctx: &'a PageCtx,
    l: &'a Loaded,
    round: &'a Round,
    tables: Vec<DeskTable<'a>>,
    missing: usize,
    /// How many tables are in each state (only the states that occur).
    counts: Vec<(services::board::DeskState, usize)>,
    /// The tables' states in one string: the page polls for a change.
    fingerprint: String,
    /// The round clock (staff only).
    clock: crate::web::clock::ClockView,
    /// Where the clock's buttons come back to.
    clock_back: &'static str,
    /// The jump-to-table form: what was typed and what is wrong with it.
    jump: JumpView,
}

pub async fn round_desk(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<(crate::ids::TournamentId, i32)>,
    query: web::Query<ModeQuery>,
) -> Result<HttpResponse, AppError> {
    let jump = JumpView {
        mode: mode_code(&query.mode),
        ..JumpView::default()
    };
    round_desk_page(&ctx, &state, path.into_inner(), jump).await
}

pub(super) async fn round_desk_page(
    ctx: &PageCtx,
    state: &AppState,
    (tid, n): (TournamentId, i32),
    jump: JumpView,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Referee)?;
    let (l, rows) =
        services::board::round(&state.db, actor, tid, n, Some(state.settings.timezone)).await?;
    let round = l.round(n).ok_or(AppError::NotFound)?;
    let tables: Vec<DeskTable> = rows
        .into_iter()
        .map(|b| {
            let pending = b
                .entry
                .as_ref()
                .filter(|_| !b.state.counts())
                .map(|e| pending_entry(ctx.lang, &l, e));
            let counted_notes = b
                .counted
                .iter()
                .flat_map(|c| &c.penalties)
                .map(|p| penalty_note(ctx.lang, p))
                .collect();
            DeskTable {
                ns: l.pair(b.seating.ns_pair),
                ew: l.pair(b.seating.ew_pair),
                seating: b.seating,
                sheet: b.sheet,
                state: b.state,
                pending,
                counted: b.counted,
                counted_notes,
            }
        })
        .collect();
    let missing = tables.iter().filter(|t| !t.state.counts()).count();
    let counts = services::board::DeskState::ALL
        .iter()
        .map(|s| (*s, tables.iter().filter(|t| t.state == *s).count()))
        .filter(|(_, n)| *n > 0)
        .collect();
    render(&RoundDeskPage {
        ctx,
        l: &l,
        round,
        missing,
        counts,
        fingerprint: board_fingerprint(&tables),
        clock: crate::web::clock::ClockView::of(ctx, &l, round, state.db.now()),
        clock_back: "desk",
        tables,
        jump,
    })
}

/// A pair's pending entry as the desk shows it.
pub(super) fn pending_entry(
    lang: Lang,
    l: &Loaded,
    e: &crate::services::view::Entry,
) -> PendingEntry {
    use crate::services::view::EntrySide;
    let by = match e.entered_by {
        EntrySide::Ns => "NS".to_string(),
        EntrySide::Ew => crate::rules::Line::Ew.label(lang).to_string(),
        EntrySide::Desk => crate::i18n::t(lang, "table.page.entered_by_desk").to_string(),
    };
    let totals = e
        .sheet
        .as_ref()
        .map(|sheet| {
            let r = crate::rules::check(
                sheet,
                l.settings.profile,
                l.settings.hands_per_round as usize,
                &l.settings.vp_scale,
            );
            format!(
                "{} / {} · {}–{}",
                crate::i18n::format::integer(lang, r.totals.ns),
                crate::i18n::format::integer(lang, r.totals.ew),
                r.vp.ns,
                r.vp.ew
            )
        })
        .unwrap_or_default();
    PendingEntry {
        by,
        totals,
        note: e.note.clone(),
    }
}

/// What changes when any table's state changes (the page reloads itself).
pub(super) fn board_fingerprint(tables: &[DeskTable]) -> String {
    tables
        .iter()
        .map(|t| format!("{}:{}", t.seating.table_no, t.state.code()))
        .collect::<Vec<_>>()
        .join(",")
}

/// The round's table states, for the desk page to notice a change.
pub async fn round_states(
    Staff(actor): Staff,
    state: web::Data<AppState>,
    path: web::Path<(crate::ids::TournamentId, i32)>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    let (_, rows) = services::board::round(&state.db, actor, tid, n, None).await?;
    let fingerprint = rows
        .iter()
        .map(|b| format!("{}:{}", b.seating.table_no, b.state.code()))
        .collect::<Vec<_>>()
        .join(",");
    Ok(HttpResponse::Ok()
        .insert_header((actix_web::http::header::CACHE_CONTROL, "no-store"))
        .json(serde_json::json!({ "fingerprint": fingerprint })))
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct ConfirmEntryForm {
    /// The version of the entry the page showed.
    entry_version: String,
}

/// The desk counts a pair's pending entry as the referee saw it (entered,
/// or disputed and settled as entered), on the record. The entry is shown
/// first: without the version of the entry shown, the table's page (with
/// the entry in full) answers instead; an entry replaced since is a
/// conflict shown with the new entry, and nothing counts.
pub async fn confirm_entry(
    ctx: PageCtx,
    Staff(actor): Staff,
    state: web::Data<AppState>,
    path: web::Path<(crate::ids::TournamentId, i32, i32)>,
    form: web::Form<ConfirmEntryForm>,
) -> Result<HttpResponse, AppError> {
    let (tid, n, table_no) = path.into_inner();
    let table_page = format!("/desk/t/{tid}/rounds/{n}/tables/{table_no}");
    let Ok(seen) = form.entry_version.trim().parse::<i32>() else {
        return Ok(see_other(&format!("{table_page}#pending")));
    };
    match services::entries::desk_confirm(&state.db, actor, tid, n, table_no, seen).await {
        Ok(()) => Ok(see_other(&format!(
            "/desk/t/{tid}/rounds/{n}?done=sheet_saved#table-{table_no}"
        ))),
        Err(ServiceError::Conflict(Conflict::Refused(Refusal::SheetChanged, _))) => {
            sheet_again(
                &ctx,
                &state,
                actor,
                (tid, n, table_no),
                None,
                None,
                &[],
                StatusCode::CONFLICT,
            )
            .await
        }
        Err(e) => Err(e.into()),
    }
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct JumpQuery {
    table: String,
    mode: String,
}

/// Jump to a table by number (`7` Enter): its sheet, or the round page with
/// a message next to the box when the round has no such table.
pub async fn jump(
    ctx: PageCtx,
    Staff(actor): Staff,
    state: web::Data<AppState>,
    path: web::Path<(crate::ids::TournamentId, i32)>,
    query: web::Query<JumpQuery>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    let mode = mode_code(&query.mode);
    let typed = query.table.trim().to_string();
    let error = match typed.parse::<i32>() {
        Ok(table) => {
            let (_, rows) = services::scoring::round_tables(&state.db, actor, tid, n).await?;
            if rows.iter().any(|(s, _)| s.table_no == table) {
                return Ok(see_other(&format!(
                    "/desk/t/{tid}/rounds/{n}/tables/{table}{}",
                    mode_suffix(mode, '?')
                )));
            }
            tf(
                ctx.lang,
                "deskentry.jump.unknown",
                &[("table", &table), ("round", &n)],
            )
        }
        Err(_) => t(ctx.lang, "deskentry.jump.not_a_number").to_string(),
    };
    let jump = JumpView {
        value: typed,
        error: Some(error),
        mode,
    };
    round_desk_page(&ctx, &state, (tid, n), jump).await
}
