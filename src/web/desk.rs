//! The scoring desk (referees and directors): each round's tables, the
//! score-sheet form checked by the rules engine, adjusted scores, penalties
//! and the audit log. The `/desk` scope is role-guarded (referee and up);
//! each handler parses, calls one service, renders.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;

use super::context::{FieldErrors, PageCtx};
use super::error::AppError;
use super::score_card::{
    end_views, hand_views, line_label, read_hands, EndView, HandView, Placed, ReadHand,
};
use super::{render, render_status, see_other, AppState};
use crate::auth::Role;
use crate::db::scoring::{AuditRow, PenaltyRow, SheetRow};
use crate::db::tournaments::{PairRow, RoundRow, SeatingRow};
use crate::i18n::{t, tf, Lang};
use crate::rules::{Line, PerLine, SheetMode, SheetReport, ViolationCode};
use crate::services::scoring::{AdjustedForm, PenaltyForm, SheetInput, TableAudit, TableState};
use crate::services::{self, Actor, Conflict, Loaded, ServiceError};
use crate::tournament::sheet_form::{card_rows, field_name, score_card, CardRow, SheetForm};
use crate::tournament::FieldProblem;

// ---- the round at the desk ----

pub struct DeskTable<'a> {
    pub seating: SeatingRow,
    pub ns: Option<&'a PairRow>,
    pub ew: Option<&'a PairRow>,
    pub sheet: Option<SheetRow>,
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
        self.sheet.as_ref().is_some_and(sheet_is_totals)
    }
}

/// Whether a stored sheet was entered as hand totals only.
pub fn sheet_is_totals(row: &SheetRow) -> bool {
    row.score_sheet()
        .ok()
        .flatten()
        .is_some_and(|s| s.mode == SheetMode::Totals)
}

#[derive(Template)]
#[template(path = "desk/round.html")]
struct RoundDeskPage<'a> {
    ctx: &'a PageCtx,
    l: &'a Loaded,
    round: &'a RoundRow,
    tables: Vec<DeskTable<'a>>,
    missing: usize,
    /// How many tables are in each state (only the states that occur).
    counts: Vec<(services::board::DeskState, usize)>,
    /// The tables' states in one string: the page polls for a change.
    fingerprint: String,
    /// The round clock (staff only).
    clock: super::clock::ClockView,
    /// Where the clock's buttons come back to.
    clock_back: &'static str,
    /// The jump-to-table form: what was typed and what is wrong with it.
    jump: JumpView,
}

/// The small "go to table" form (round page and sheet page).
#[derive(Default)]
pub struct JumpView {
    pub value: String,
    pub error: Option<String>,
    /// `totals` when the desk enters hand totals.
    pub mode: &'static str,
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct ModeQuery {
    mode: String,
}

/// `totals` or `` (full), from a query or form value.
fn mode_code(text: &str) -> &'static str {
    match SheetMode::parse(text) {
        Some(SheetMode::Totals) => "totals",
        _ => "",
    }
}

fn mode_suffix(mode: &str, first: char) -> String {
    if mode == "totals" {
        format!("{first}mode=totals")
    } else {
        String::new()
    }
}

pub async fn round_desk(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
    query: web::Query<ModeQuery>,
) -> Result<HttpResponse, AppError> {
    let jump = JumpView {
        mode: mode_code(&query.mode),
        ..JumpView::default()
    };
    round_desk_page(&ctx, &state, path.into_inner(), jump).await
}

async fn round_desk_page(
    ctx: &PageCtx,
    state: &AppState,
    (tid, n): (i64, i32),
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
        clock: super::clock::ClockView::of(ctx, &l, round, crate::db::now()),
        clock_back: "desk",
        tables,
        jump,
    })
}

/// Why a table's counted result differs from its sheet: "1090 → 990 after
/// penalty −100 to pair 3".
fn penalty_note(lang: Lang, p: &services::board::LinePenalty) -> String {
    tf(
        lang,
        "entries.desk.after_penalty",
        &[
            ("before", &p.before),
            ("after", &p.after),
            ("amount", &p.amount),
            ("pair", &p.pair),
        ],
    )
}

/// A pair's pending entry as the desk shows it.
fn pending_entry(lang: Lang, l: &Loaded, e: &crate::db::table_side::EntryRow) -> PendingEntry {
    let by = match e.entered_by.as_str() {
        "ns" => "NS".to_string(),
        "ew" => crate::rules::Line::Ew.label(lang).to_string(),
        other => other.to_string(),
    };
    let totals = e
        .sheet
        .as_deref()
        .and_then(|s| serde_json::from_str::<crate::rules::ScoreSheet>(s).ok())
        .map(|sheet| {
            let r = crate::rules::check(
                &sheet,
                l.settings.profile,
                l.settings.hands_per_round as usize,
                &l.settings.vp_scale,
            );
            format!(
                "{} / {} · {}–{}",
                r.totals.ns, r.totals.ew, r.vp.ns, r.vp.ew
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
fn board_fingerprint(tables: &[DeskTable]) -> String {
    tables
        .iter()
        .map(|t| format!("{}:{}", t.seating.table_no, t.state.code()))
        .collect::<Vec<_>>()
        .join(",")
}

/// The round's table states, for the desk page to notice a change.
pub async fn round_states(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Referee)?;
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
    state: web::Data<AppState>,
    path: web::Path<(i64, i32, i32)>,
    form: web::Form<ConfirmEntryForm>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Referee)?;
    let (tid, n, table_no) = path.into_inner();
    let table_page = format!("/desk/t/{tid}/rounds/{n}/tables/{table_no}");
    let Ok(seen) = form.entry_version.trim().parse::<i32>() else {
        return Ok(see_other(&format!("{table_page}#pending")));
    };
    match services::table_side::desk_confirm(&state.db, actor, tid, n, table_no, seen).await {
        Ok(()) => Ok(see_other(&format!(
            "/desk/t/{tid}/rounds/{n}?done=sheet_saved#table-{table_no}"
        ))),
        Err(ServiceError::Conflict(Conflict::SheetChanged)) => {
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
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
    query: web::Query<JumpQuery>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Referee)?;
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

// ---- the score sheet ----

#[derive(Template)]
#[template(path = "desk/sheet.html")]
struct SheetPage<'a> {
    ctx: &'a PageCtx,
    l: &'a Loaded,
    round: &'a RoundRow,
    table_no: i32,
    ns: Option<&'a PairRow>,
    ew: Option<&'a PairRow>,
    form: SheetForm,
    /// `totals` or `full`.
    mode: &'static str,
    /// The end-of-hand choices in the card's words.
    ends: Vec<EndView>,
    hands: Vec<HandView>,
    /// Messages about the whole sheet.
    sheet_errors: Vec<String>,
    /// Anything at all to correct (the banner at the top).
    has_errors: bool,
    field_errors: FieldErrors,
    /// Messages next to the written totals.
    declared_errors: [Vec<String>; 2],
    /// The focus goes here (the first box with an error, or the first box).
    focus: String,
    version: Option<i32>,
    saved: Option<SheetRow>,
    saved_totals: bool,
    /// The saved sheet's result as the standings count it after `mp`
    /// penalties, and why (one line per penalised pair).
    counted: Option<services::board::Counted>,
    counted_notes: Vec<String>,
    /// Only DECLARED_TOTAL_MISMATCH is wrong: a referee may accept it.
    can_accept_mismatch: bool,
    /// A hand ends in time-out although time-out was not called: a referee
    /// may accept it with a reason.
    time_out_pending: bool,
    conflict: bool,
    audit: Vec<(AuditRow, Option<String>)>,
    /// The engine's totals and VP for the form as it stands.
    computed: Option<(PerLine<i64>, PerLine<u8>)>,
    /// Typical adjusted scores for this tournament's hands: (reason key, present VP, other VP).
    adjusted_presets: Vec<(&'static str, i64, i64)>,
    jump: JumpView,
    /// A pair's entry waiting (the form opened with its values), and its
    /// hands read-only.
    pending: Option<PendingView>,
    read: Vec<ReadHand>,
}

impl SheetPage<'_> {
    fn is_totals(&self) -> bool {
        self.mode == "totals"
    }
}

/// A table of a round as the sheet page shows it.
struct TableCtx<'a> {
    round: &'a RoundRow,
    seating: SeatingRow,
    sheet: Option<SheetRow>,
    audit: TableAudit,
    /// The result the standings count when `mp` penalties change the sheet's.
    counted: Option<services::board::Counted>,
    /// A pair's entry waiting (entered or disputed): the form opens with it.
    pending: Option<services::table_side::Pending>,
}

/// The tournament and the table, read together.
async fn load_table(
    state: &AppState,
    actor: Actor,
    tid: i64,
    n: i32,
    table_no: i32,
) -> Result<(Loaded, TableState, TableAudit), AppError> {
    Ok(services::scoring::table(&state.db, actor, tid, n, table_no).await?)
}

/// The table as the sheet page shows it: with its counted result when a
/// saved sheet is changed by `mp` penalties.
async fn table_ctx<'a>(
    state: &AppState,
    actor: Actor,
    l: &'a Loaded,
    ts: TableState,
    audit: TableAudit,
) -> Result<TableCtx<'a>, AppError> {
    let round = l.round(ts.round.number).ok_or(AppError::NotFound)?;
    let counted = match ts.sheet {
        Some(_) => {
            services::board::counted_table(
                &state.db,
                actor,
                l.t.id,
                round.number,
                ts.seating.table_no,
                state.settings.timezone,
            )
            .await?
        }
        None => None,
    };
    Ok(TableCtx {
        round,
        seating: ts.seating,
        sheet: ts.sheet,
        audit,
        counted,
        pending: ts.pending,
    })
}

#[allow(clippy::too_many_arguments)]
fn sheet_page<'a>(
    ctx: &'a PageCtx,
    l: &'a Loaded,
    tc: &TableCtx<'a>,
    form: SheetForm,
    report: Option<&SheetReport>,
    problems: &[(String, String)],
    mut field_errors: FieldErrors,
    extra_errors: Vec<String>,
    conflict: bool,
) -> SheetPage<'a> {
    let hands = l.settings.hands_per_round as usize;
    let mode = form.mode();
    let time_out_pending =
        tc.round.time_out_at.is_none() && (1..=hands).any(|h| form.end_choice(h) == "time_out");
    let lang = ctx.lang;
    let mut placed = Placed::default();
    if let Some(r) = report {
        placed.violations(r, mode, lang);
    }
    for (field, msg) in problems {
        placed.add(field, msg.clone());
    }
    placed.sheet.extend(extra_errors);
    // The engine's totals of the form as it stands (no script needed).
    let live = services::scoring::read_form(l, &form);
    let card = score_card(l.settings.profile, mode);
    // The players' entry, to show what the desk changes against it.
    let was = tc
        .pending
        .as_ref()
        .filter(|p| p.sheet.mode == mode)
        .map(|p| SheetForm::from_sheet(&p.sheet));
    let mut views = hand_views(
        lang,
        &card,
        hands,
        &form,
        was.as_ref(),
        &mut placed,
        live.as_ref(),
    );
    let mut first_error: Option<String> = None;
    for h in &views {
        if first_error.is_some() {
            break;
        }
        if !h.end_errors.is_empty() {
            first_error = Some(format!("h{}_end", h.n));
            break;
        }
        for lv in &h.lines {
            if !lv.errors.is_empty() {
                first_error = lv.boxes.first().map(|b| b.name.clone());
            } else if let Some(b) = lv.boxes.iter().find(|b| !b.errors.is_empty()) {
                first_error = Some(b.name.clone());
            }
            if first_error.is_some() {
                break;
            }
        }
    }
    let declared_errors = ["declared_ns", "declared_ew"].map(|f| {
        let e = placed.boxes.remove(f).unwrap_or_default();
        if !e.is_empty() && first_error.is_none() {
            first_error = Some(f.to_string());
        }
        e
    });
    // Anything left (the reason…).
    for (field, msgs) in placed.boxes.drain() {
        match field_key(&field) {
            Some(k) => {
                for m in msgs {
                    field_errors.add(k, m);
                }
                if first_error.is_none() {
                    first_error = Some(field.clone());
                }
            }
            None => placed.sheet.extend(msgs),
        }
    }
    if first_error.is_none() && !field_errors.is_empty() {
        first_error = Some("reason".into());
    }
    if first_error.is_none() && !placed.sheet.is_empty() {
        // A whole-sheet message (a missing hand): the first blank end of hand.
        first_error = views
            .iter()
            .find(|h| h.end.is_empty())
            .map(|h| format!("h{}_end", h.n));
    }
    let focus = first_error.unwrap_or_else(|| "h1_end".to_string());
    for h in &mut views {
        h.end_autofocus = focus == format!("h{}_end", h.n);
        for lv in &mut h.lines {
            for b in &mut lv.boxes {
                b.autofocus = b.name == focus;
            }
        }
    }
    let has_errors = !placed.sheet.is_empty()
        || !field_errors.is_empty()
        || declared_errors.iter().any(|e| !e.is_empty())
        || views.iter().any(|h| {
            !h.end_errors.is_empty()
                || h.lines
                    .iter()
                    .any(|l| !l.errors.is_empty() || l.boxes.iter().any(|b| !b.errors.is_empty()))
        });
    let pending = tc.pending.as_ref().map(|p| PendingView {
        version: p.version,
        by: line_label(p.entered_by, lang),
        pair: pair_number(l, &tc.seating, p.entered_by),
        disputed_by: p.disputed_by.map(|d| line_label(d, lang)),
        note: p.note.clone(),
        totals: p.report.totals,
        vp: p.report.vp,
        violations: p
            .report
            .violations
            .iter()
            .map(|v| v.message(lang))
            .collect(),
    });
    let read = tc
        .pending
        .as_ref()
        .map(|p| {
            read_hands(
                lang,
                &score_card(l.settings.profile, p.sheet.mode),
                &p.sheet,
                &p.report,
            )
        })
        .unwrap_or_default();
    SheetPage {
        has_errors,
        ctx,
        l,
        round: tc.round,
        table_no: tc.seating.table_no,
        ns: l.pair(tc.seating.ns_pair),
        ew: l.pair(tc.seating.ew_pair),
        mode: if mode == SheetMode::Totals {
            "totals"
        } else {
            "full"
        },
        form,
        ends: end_views(lang),
        hands: views,
        sheet_errors: placed.sheet,
        field_errors,
        declared_errors,
        focus,
        version: tc.sheet.as_ref().map(|s| s.version),
        saved_totals: tc.sheet.as_ref().is_some_and(sheet_is_totals),
        saved: tc.sheet.clone(),
        counted: tc.counted.clone(),
        counted_notes: tc
            .counted
            .iter()
            .flat_map(|c| &c.penalties)
            .map(|p| penalty_note(lang, p))
            .collect(),
        can_accept_mismatch: report
            .is_some_and(|r| r.has_violations() && r.only_declared_mismatch()),
        time_out_pending,
        conflict,
        audit: tc.audit.clone(),
        computed: live.map(|r| (r.totals, r.vp)),
        adjusted_presets: crate::tournament::penalty::adjusted_presets()
            .iter()
            .filter_map(|p| {
                p.adjusted_vp(l.settings.hands_per_round)
                    .map(|(a, b)| (p.key, a, b))
            })
            .collect(),
        jump: JumpView {
            mode: mode_code(mode.code()),
            ..JumpView::default()
        },
        pending,
        read,
    }
}

/// The number of the pair sitting in `line` at a table.
fn pair_number(l: &Loaded, seating: &SeatingRow, line: Line) -> Option<i32> {
    let id = match line {
        Line::Ns => seating.ns_pair,
        Line::Ew => seating.ew_pair,
    };
    l.pair(id).map(|p| p.number)
}

/// A pair's pending entry on the desk's sheet page: read-only, with the
/// dispute's note at the top.
pub struct PendingView {
    pub version: i32,
    pub by: &'static str,
    pub pair: Option<i32>,
    pub disputed_by: Option<&'static str>,
    pub note: String,
    pub totals: PerLine<i64>,
    pub vp: PerLine<u8>,
    /// Rule violations of the entry under the current settings (normally none).
    pub violations: Vec<String>,
}

/// The form for a table: the saved sheet, in the mode asked for (`?mode=`)
/// or else the mode it was saved in.
/// With nothing saved, a pair's pending entry fills the form (the referee
/// settles a dispute with the players' sheet in view); with nothing at
/// all, a blank form in the tournament's mode.
fn form_for(tc: &TableCtx, mode: &str, default: SheetMode) -> Result<SheetForm, AppError> {
    let mut form = match (&tc.sheet, &tc.pending) {
        (Some(_), _) => saved_form(tc.sheet.as_ref())?,
        (None, Some(p)) => SheetForm::from_sheet(&p.sheet),
        (None, None) => {
            let mut blank = SheetForm::default();
            blank.set("mode", default.code());
            blank
        }
    };
    match SheetMode::parse(mode) {
        Some(m) if m != form.mode() => {
            // Another mode than the saved sheet's: start from a blank form.
            let mut blank = SheetForm::default();
            blank.set("mode", m.code());
            form = blank;
        }
        _ => {}
    }
    Ok(form)
}

pub async fn sheet_form(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32, i32)>,
    query: web::Query<ModeQuery>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Referee)?;
    let (tid, n, table_no) = path.into_inner();
    let (l, ts, audit) = load_table(&state, actor, tid, n, table_no).await?;
    let tc = table_ctx(&state, actor, &l, ts, audit).await?;
    let form = form_for(&tc, &query.mode, l.settings.sheet_mode)?;
    render(&sheet_page(
        &ctx,
        &l,
        &tc,
        form,
        None,
        &[],
        FieldErrors::default(),
        Vec::new(),
        false,
    ))
}

/// The form showing the sheet saved now (empty when none is).
fn saved_form(sheet: Option<&SheetRow>) -> Result<SheetForm, AppError> {
    Ok(sheet
        .map(SheetRow::score_sheet)
        .transpose()?
        .flatten()
        .map(|s| SheetForm::from_sheet(&s))
        .unwrap_or_default())
}

/// The engine's totals for the form as typed (the live totals beside the
/// form): `{"ok":true,"hands":[{"ns":545,"ew":-135},…],"totals":{…},"vp":{…}}`,
/// or `{"ok":false}` while a box is not a number. The one scoring
/// implementation is the engine's; the page only shows what this returns.
pub async fn preview(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32, i32)>,
    query: web::Query<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Referee)?;
    let (tid, n, table_no) = path.into_inner();
    let (l, _, _) = load_table(&state, actor, tid, n, table_no).await?;
    let form = SheetForm::from_pairs(query.into_inner());
    Ok(super::preview_response(
        services::scoring::read_form(&l, &form).as_ref(),
    ))
}

/// The sheet page again, read fresh: after a conflict (409, the current
/// version and nothing of the stale edit but the message) or with the
/// problems of a refused save (422).
#[allow(clippy::too_many_arguments)]
async fn sheet_again(
    ctx: &PageCtx,
    state: &AppState,
    actor: Actor,
    (tid, n, table_no): (i64, i32, i32),
    form: Option<SheetForm>,
    report: Option<&SheetReport>,
    problems: &[FieldProblem],
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    let (l, ts, audit) = load_table(state, actor, tid, n, table_no).await?;
    let tc = table_ctx(state, actor, &l, ts, audit).await?;
    let form = match form {
        Some(f) => f,
        None => form_for(&tc, "", l.settings.sheet_mode)?,
    };
    let mut fe = FieldErrors::default();
    let mut boxes = Vec::new();
    for p in problems {
        match field_key(p.field) {
            Some(k) if !k.starts_with('h') && !k.starts_with("declared") => {
                fe.add(k, p.message(ctx.lang))
            }
            _ => boxes.push((p.field.to_string(), p.message(ctx.lang))),
        }
    }
    render_status(
        &sheet_page(
            ctx,
            &l,
            &tc,
            form,
            report,
            &boxes,
            fe,
            Vec::new(),
            status == StatusCode::CONFLICT,
        ),
        status,
    )
}

/// The next table of the round after `table_no` (wrapping round) that has
/// no counted sheet yet.
fn next_missing(rows: &[(SeatingRow, Option<SheetRow>)], table_no: i32) -> Option<i32> {
    let mut missing: Vec<i32> = rows
        .iter()
        .filter(|(s, sheet)| sheet.is_none() && s.table_no != table_no)
        .map(|(s, _)| s.table_no)
        .collect();
    missing.sort_unstable();
    missing
        .iter()
        .copied()
        .find(|t| *t > table_no)
        .or_else(|| missing.first().copied())
}

/// Checks the sheet with the rules engine; saves it only when it passes
/// (or when its only fault is a wrong written total that a referee accepts
/// with a reason). A correction needs a reason; a concurrent change is a
/// conflict shown with the current version. After a save, `after=next`
/// opens the next table without a sheet (the round page once none is left).
pub async fn save_sheet(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32, i32)>,
    body: web::Form<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Referee)?;
    let place = path.into_inner();
    let (tid, n, table_no) = place;
    let form = SheetForm::from_pairs(body.into_inner());
    let (l, _, _) = load_table(&state, actor, tid, n, table_no).await?;
    let sheet = match form.parse(l.settings.hands_per_round as usize, l.settings.profile) {
        Ok(s) => s,
        Err(problems) => {
            let boxes: Vec<(String, String)> = problems
                .into_iter()
                .map(|p| (p.field, t(ctx.lang, p.key).to_string()))
                .collect();
            let (l, ts, audit) = load_table(&state, actor, tid, n, table_no).await?;
            let tc = table_ctx(&state, actor, &l, ts, audit).await?;
            return render_status(
                &sheet_page(
                    &ctx,
                    &l,
                    &tc,
                    form,
                    None,
                    &boxes,
                    FieldErrors::default(),
                    Vec::new(),
                    false,
                ),
                StatusCode::UNPROCESSABLE_ENTITY,
            );
        }
    };
    let mode = form.mode();
    let input = SheetInput {
        sheet,
        accept_mismatch: form.get("accept_mismatch") == "on",
        accept_time_out: form.get("accept_time_out") == "on",
        reason: form.get("reason").to_string(),
        version: form.get("version").trim().parse().ok(),
    };
    match services::scoring::save_sheet(&state.db, actor, tid, n, table_no, input).await {
        Ok(v) => {
            tracing::info!(
                tournament_id = tid,
                round = n,
                table = table_no,
                version = v,
                mode = mode.code(),
                "score sheet saved"
            );
            if form.get("after") == "next" {
                let (_, rows) = services::scoring::round_tables(&state.db, actor, tid, n).await?;
                let suffix = mode_suffix(mode_code(mode.code()), '&');
                return Ok(see_other(&match next_missing(&rows, table_no) {
                    Some(next) => {
                        format!("/desk/t/{tid}/rounds/{n}/tables/{next}?done=sheet_saved{suffix}")
                    }
                    None => format!("/desk/t/{tid}/rounds/{n}?done=all_entered{suffix}"),
                }));
            }
            Ok(see_other(&format!(
                "/desk/t/{tid}/rounds/{n}?done=sheet_saved#table-{table_no}"
            )))
        }
        Err(e) => sheet_refused(&ctx, &state, actor, place, Some(form), e).await,
    }
}

/// A save the service refused: the sheet page again, with the engine's
/// report and the problems next to their boxes (422, the form as typed),
/// or the current version after a concurrent change (409).
async fn sheet_refused(
    ctx: &PageCtx,
    state: &AppState,
    actor: Actor,
    place: (i64, i32, i32),
    form: Option<SheetForm>,
    e: ServiceError,
) -> Result<HttpResponse, AppError> {
    let (form, report, problems, status) = match &e {
        ServiceError::Sheet(r) => (
            form,
            Some(&r.report),
            r.problems.as_slice(),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        ServiceError::Invalid(problems) => (
            None,
            None,
            problems.as_slice(),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        ServiceError::Conflict(Conflict::SheetChanged) => {
            (None, None, &[][..], StatusCode::CONFLICT)
        }
        _ => return Err(e.into()),
    };
    sheet_again(ctx, state, actor, place, form, report, problems, status).await
}

/// Form field names are `String`s from the request; errors are keyed by
/// `&'static str`: map the known shapes to interned names.
fn field_key(field: &str) -> Option<&'static str> {
    static NAMES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let names = NAMES.get_or_init(|| {
        let mut v = vec![
            "declared_ns".to_string(),
            "declared_ew".to_string(),
            "reason".to_string(),
            "ns_vp".to_string(),
            "ew_vp".to_string(),
            "ns_mp_diff".to_string(),
            "ew_mp_diff".to_string(),
            "adj_reason".to_string(),
        ];
        for h in 1..=crate::tournament::settings::HANDS_PER_ROUND
            .end()
            .to_owned() as usize
        {
            v.push(format!("h{h}_end"));
            for line in [Line::Ns, Line::Ew] {
                let fields = crate::tournament::sheet_form::LINE_FIELDS;
                for f in fields.iter().copied().chain(["total"]) {
                    v.push(field_name(h, line, f));
                }
            }
        }
        v
    });
    names.iter().find(|n| *n == field).map(String::as_str)
}

// ---- score cards ----

/// One table's printed score card.
pub struct ScoreCard<'a> {
    pub table_no: i32,
    pub ns: Option<&'a PairRow>,
    pub ew: Option<&'a PairRow>,
}

#[derive(Template)]
#[template(path = "desk/score_cards.html")]
struct ScoreCardsPage<'a> {
    ctx: &'a PageCtx,
    l: &'a Loaded,
    round: &'a RoundRow,
    cards: Vec<ScoreCard<'a>>,
    /// The rows of a line, in the desk form's order.
    rows: Vec<CardRow>,
    totals: bool,
    hands: Vec<usize>,
}

/// The score cards of a round (A4, one table a page): exactly the boxes the
/// desk form asks for, in its order (`?mode=totals` for hand totals only).
pub async fn score_cards(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
    query: web::Query<ModeQuery>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Referee)?;
    let (tid, n) = path.into_inner();
    let (l, rows) = services::scoring::round_tables(&state.db, actor, tid, n).await?;
    let round = l.round(n).ok_or(AppError::NotFound)?;
    let mode = SheetMode::parse(&query.mode).unwrap_or_default();
    let cards = rows
        .iter()
        .map(|(s, _)| ScoreCard {
            table_no: s.table_no,
            ns: l.pair(s.ns_pair),
            ew: l.pair(s.ew_pair),
        })
        .collect();
    render(&ScoreCardsPage {
        ctx: &ctx,
        l: &l,
        round,
        cards,
        rows: card_rows(l.settings.profile, mode),
        totals: mode == SheetMode::Totals,
        hands: (1..=l.settings.hands_per_round as usize).collect(),
    })
}

// ---- adjusted score ----

/// A referee's adjusted score (RULES.md §9): replaces the table's sheet.
pub async fn adjusted(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32, i32)>,
    form: web::Form<AdjustedForm>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Referee)?;
    let place = path.into_inner();
    let (tid, n, table_no) = place;
    match services::scoring::set_adjusted(&state.db, actor, tid, n, table_no, form.into_inner())
        .await
    {
        Ok(_) => Ok(see_other(&format!(
            "/desk/t/{tid}/rounds/{n}?done=sheet_saved#table-{table_no}"
        ))),
        Err(e) => sheet_refused(&ctx, &state, actor, place, None, e).await,
    }
}

// ---- penalties ----

#[derive(Template)]
#[template(path = "desk/penalties.html")]
struct PenaltiesPage<'a> {
    ctx: &'a PageCtx,
    l: &'a Loaded,
    penalties: Vec<PenaltyLine>,
    form: PenaltyForm,
    errors: FieldErrors,
    reasons: Vec<&'static str>,
}

/// A penalty as the list shows it: who gave it, when (local time), round,
/// table, pair, kind and amount, reason, and its state with who changed it.
struct PenaltyLine {
    id: i64,
    round: i32,
    table: Option<i32>,
    pair: String,
    kind: &'static str,
    amount: Option<i64>,
    reason: String,
    given_by: String,
    given_at: String,
    /// Withdrawn: (who, when, why).
    withdrawn: Option<(String, String, String)>,
    /// Reinstated after a withdrawal: (who, when, why).
    reinstated: Option<(String, String, String)>,
    /// The reason typed in this row's withdraw/reinstate form, and the
    /// message next to it, when that form was refused.
    change_reason: String,
    change_error: Option<String>,
}

impl PenaltyLine {
    fn of(
        ctx: &PageCtx,
        l: &Loaded,
        row: PenaltyRow,
        names: crate::db::scoring::PenaltyNames,
    ) -> PenaltyLine {
        let who = |n: Option<String>| n.unwrap_or_else(|| "—".to_string());
        let withdrawn = row.withdrawn_at.map(|at| {
            (
                who(names.withdrawn_by.clone()),
                ctx.local_time(&at),
                row.withdrawn_reason.clone(),
            )
        });
        let reinstated = row.reinstated_at.map(|at| {
            (
                who(names.reinstated_by.clone()),
                ctx.local_time(&at),
                row.reinstated_reason.clone(),
            )
        });
        PenaltyLine {
            id: row.id,
            round: row.round_no,
            table: row.table_no,
            pair: l
                .pair(Some(row.pair_id))
                .map(|p| format!("{} · {}", p.number, p.label()))
                .unwrap_or_default(),
            kind: t(ctx.lang, &format!("penalty.kind.{}", row.kind)),
            amount: row.amount,
            reason: row.reason,
            given_by: who(names.given_by),
            given_at: ctx.local_time(&row.given_at),
            withdrawn,
            reinstated,
            change_reason: String::new(),
            change_error: None,
        }
    }
}

impl PenaltiesPage<'_> {
    /// Penalties change only while the tournament runs.
    fn running(&self) -> bool {
        self.l.status() == crate::tournament::Status::Running
    }
    fn kind_label(&self, kind: &str) -> &'static str {
        t(self.ctx.lang, &format!("penalty.kind.{kind}"))
    }
}

/// Typical reasons (RULES.md §9), offered as presets; free text is allowed.
fn reasons() -> Vec<&'static str> {
    crate::tournament::penalty::penalty_presets()
        .iter()
        .map(|p| p.key)
        .collect()
}

/// A refused withdraw/reinstate: the penalty, what was typed, the problems.
struct ChangeRefused<'a> {
    penalty: i64,
    reason: &'a str,
    problems: &'a [FieldProblem],
}

async fn penalties_page(
    ctx: &PageCtx,
    state: &AppState,
    actor: Actor,
    tid: i64,
    form: Option<PenaltyForm>,
    problems: &[FieldProblem],
    refused: Option<ChangeRefused<'_>>,
) -> Result<HttpResponse, AppError> {
    // Anything refused (the new penalty's form or a withdraw/reinstate) is a 422.
    let status = if problems.is_empty() && refused.is_none() {
        StatusCode::OK
    } else {
        StatusCode::UNPROCESSABLE_ENTITY
    };
    let (l, rows) = services::scoring::penalties(&state.db, actor, tid).await?;
    let form = form.unwrap_or_else(|| PenaltyForm {
        round: l
            .rounds
            .last()
            .map(|r| r.number.to_string())
            .unwrap_or_default(),
        ..Default::default()
    });
    let mut errors = FieldErrors::default();
    for p in problems {
        errors.add(p.field, p.message(ctx.lang));
    }
    let mut penalties: Vec<PenaltyLine> = rows
        .into_iter()
        .map(|(row, names)| PenaltyLine::of(ctx, &l, row, names))
        .collect();
    if let Some(r) = refused {
        if let Some(line) = penalties.iter_mut().find(|p| p.id == r.penalty) {
            line.change_reason = r.reason.to_string();
            line.change_error = r.problems.first().map(|p| p.message(ctx.lang));
        }
    }
    render_status(
        &PenaltiesPage {
            ctx,
            l: &l,
            penalties,
            form,
            errors,
            reasons: reasons(),
        },
        status,
    )
}

pub async fn penalties(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Referee)?;
    penalties_page(&ctx, &state, actor, *id, None, &[], None).await
}

pub async fn add_penalty(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<i64>,
    form: web::Form<PenaltyForm>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Referee)?;
    let tid = *id;
    let form = form.into_inner();
    match services::scoring::add_penalty(&state.db, actor, tid, form.clone(), ctx.lang).await {
        Ok(_) => Ok(see_other(&format!(
            "/desk/t/{tid}/penalties?done=penalty_added"
        ))),
        Err(ServiceError::Invalid(problems)) => {
            penalties_page(&ctx, &state, actor, tid, Some(form), &problems, None).await
        }
        Err(e) => Err(e.into()),
    }
}

/// The withdraw and reinstate forms: the reason (required).
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct PenaltyChangeForm {
    reason: String,
}

async fn change_penalty(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    form: web::Form<PenaltyChangeForm>,
    change: services::scoring::PenaltyChange,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Referee)?;
    let (tid, pid) = path.into_inner();
    let reason = form.into_inner().reason;
    match services::scoring::change_penalty(&state.db, actor, tid, pid, change, reason.clone())
        .await
    {
        Ok(()) => {
            let done = match change {
                services::scoring::PenaltyChange::Withdraw => "penalty_withdrawn",
                services::scoring::PenaltyChange::Reinstate => "penalty_reinstated",
            };
            Ok(see_other(&format!(
                "/desk/t/{tid}/penalties?done={done}#penalty-{pid}"
            )))
        }
        Err(ServiceError::Invalid(problems)) => {
            penalties_page(
                &ctx,
                &state,
                actor,
                tid,
                None,
                &[],
                Some(ChangeRefused {
                    penalty: pid,
                    reason: &reason,
                    problems: &problems,
                }),
            )
            .await
        }
        Err(e) => Err(e.into()),
    }
}

pub async fn withdraw_penalty(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    form: web::Form<PenaltyChangeForm>,
) -> Result<HttpResponse, AppError> {
    use services::scoring::PenaltyChange;
    change_penalty(ctx, state, path, form, PenaltyChange::Withdraw).await
}

pub async fn reinstate_penalty(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    form: web::Form<PenaltyChangeForm>,
) -> Result<HttpResponse, AppError> {
    use services::scoring::PenaltyChange;
    change_penalty(ctx, state, path, form, PenaltyChange::Reinstate).await
}

// ---- audit log ----

#[derive(Template)]
#[template(path = "desk/audit.html")]
struct AuditPage<'a> {
    ctx: &'a PageCtx,
    l: &'a Loaded,
    entries: Vec<(AuditRow, Option<String>)>,
}

pub async fn audit(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Referee)?;
    let (l, entries) = services::scoring::audit_log(&state.db, actor, *id).await?;
    render(&AuditPage {
        ctx: &ctx,
        l: &l,
        entries,
    })
}

pub fn mismatch_note(lang: Lang, row: &SheetRow) -> Option<String> {
    row.accepted_mismatch
        .then(|| tf(lang, "sheet.accepted_mismatch", &[("reason", &row.note)]))
}

/// Used by templates: the violation code that a referee may accept.
pub const ACCEPTABLE: ViolationCode = ViolationCode::DeclaredTotalMismatch;
