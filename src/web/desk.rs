//! The scoring desk (referees and directors): each round's tables, the
//! score-sheet form checked by the rules engine, adjusted scores, penalties
//! and the audit log. The `/desk` scope is role-guarded (referee and up);
//! each handler parses, calls one service, renders.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;

use super::context::{FieldErrors, PageCtx};
use super::error::AppError;
use super::{render, render_status, see_other, AppState};
use crate::auth::Role;
use crate::db::scoring::{AuditRow, PenaltyRow, SheetRow};
use crate::db::tournaments::{PairRow, RoundRow, SeatingRow};
use crate::i18n::{t, tf, Lang};
use crate::rules::{BurracoType, Line, SheetReport, ViolationCode};
use crate::services::scoring::{AdjustedForm, PenaltyForm, SheetInput, TableAudit, TableState};
use crate::services::{self, Actor, Conflict, Loaded, ServiceError};
use crate::tournament::sheet_form::{field_name, SheetForm, ENDS};
use crate::tournament::FieldProblem;

// ---- the round at the desk ----

pub struct DeskTable<'a> {
    pub seating: SeatingRow,
    pub ns: Option<&'a PairRow>,
    pub ew: Option<&'a PairRow>,
    pub sheet: Option<SheetRow>,
}

#[derive(Template)]
#[template(path = "desk/round.html")]
struct RoundDeskPage<'a> {
    ctx: &'a PageCtx,
    l: &'a Loaded,
    round: &'a RoundRow,
    tables: Vec<DeskTable<'a>>,
    missing: usize,
    /// Seconds left on the round clock (staff only), if it runs.
    ends_at_ms: Option<i64>,
}

/// When the round's time runs out (UTC, ms since the epoch).
fn ends_at_ms(l: &Loaded, r: &RoundRow) -> Option<i64> {
    let start = r.started_at?;
    let end = start + chrono::Duration::minutes(i64::from(l.settings.minutes_per_round));
    Some(end.and_utc().timestamp_millis())
}

pub async fn round_desk(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Referee)?;
    let (tid, n) = path.into_inner();
    let (l, rows) = services::scoring::round_tables(&state.db, actor, tid, n).await?;
    let round = l.round(n).ok_or(AppError::NotFound)?;
    let tables: Vec<DeskTable> = rows
        .into_iter()
        .map(|(seating, sheet)| DeskTable {
            ns: l.pair(seating.ns_pair),
            ew: l.pair(seating.ew_pair),
            seating,
            sheet,
        })
        .collect();
    let missing = tables.iter().filter(|t| t.sheet.is_none()).count();
    render(&RoundDeskPage {
        ctx: &ctx,
        l: &l,
        round,
        missing,
        ends_at_ms: ends_at_ms(&l, round).filter(|_| round.time_out_at.is_none()),
        tables,
    })
}

// ---- the score sheet ----

/// One line of one hand in the form.
pub struct LineView {
    pub line: &'static str,
    pub errors: Vec<String>,
}

/// One hand in the form, with the messages that concern it.
pub struct HandView {
    pub n: usize,
    pub errors: Vec<String>,
    pub lines: [LineView; 2],
}

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
    hands: Vec<HandView>,
    /// Messages about the whole sheet.
    sheet_errors: Vec<String>,
    /// Anything at all to correct (the banner at the top).
    has_errors: bool,
    field_errors: FieldErrors,
    version: Option<i32>,
    saved: Option<SheetRow>,
    /// Only DECLARED_TOTAL_MISMATCH is wrong: a referee may accept it.
    can_accept_mismatch: bool,
    conflict: bool,
    audit: Vec<(AuditRow, Option<String>)>,
    counts: Vec<&'static str>,
    profile_json: String,
    /// Typical adjusted scores for this tournament's hands: (reason key, present VP, other VP).
    adjusted_presets: Vec<(&'static str, i64, i64)>,
}

impl SheetPage<'_> {
    fn value(&self, hand: &usize, line: &str, field: &str) -> &str {
        let l = if line == "ns" { Line::Ns } else { Line::Ew };
        self.form.get(&field_name(*hand, l, field))
    }
    fn field_error(&self, hand: &usize, line: &str, field: &str) -> Option<&str> {
        let l = if line == "ns" { Line::Ns } else { Line::Ew };
        self.field_errors.get(&field_name(*hand, l, field))
    }
    fn hand_value(&self, hand: &usize, field: &str) -> &str {
        self.form.get(&format!("h{hand}_{field}"))
    }
    fn end_selected(&self, hand: &usize, code: &str) -> bool {
        self.hand_value(hand, "end") == code
    }
    fn end_codes(&self) -> Vec<&'static str> {
        ENDS.iter().map(|e| e.code()).collect()
    }
    fn burraco_label(&self, code: &str) -> &'static str {
        t(self.ctx.lang, &format!("sheet.count.{code}"))
    }
}

/// The numbers the page's script needs to add up a sheet as the engine does
/// (the server stays the judge): bonuses, closing, pozzetto, VP bounds.
fn profile_json(l: &Loaded) -> String {
    let p = l.settings.profile;
    let bonus = |t: BurracoType| {
        if p.has_type(t) {
            p.bonus(t)
        } else {
            p.bonus(BurracoType::Clean)
        }
    };
    serde_json::json!({
        "bonus": {
            "royal": bonus(BurracoType::Royal), "super": bonus(BurracoType::Super),
            "clean": bonus(BurracoType::Clean), "semi_clean": bonus(BurracoType::SemiClean),
            "dirty": bonus(BurracoType::Dirty),
        },
        "closing": p.closing_bonus,
        "pozzetto": p.pozzetto_penalty,
        "scale": l.settings.vp_scale.bounds(),
    })
    .to_string()
}

fn count_fields(l: &Loaded) -> Vec<&'static str> {
    let p = l.settings.profile;
    let mut v = Vec::new();
    if p.has_type(BurracoType::Royal) {
        v.push("royal");
    }
    if p.has_type(BurracoType::Super) {
        v.push("super");
    }
    v.extend(["clean", "semi_clean", "dirty"]);
    v
}

fn hand_views(
    hands: usize,
    report: Option<&SheetReport>,
    lang: Lang,
) -> (Vec<HandView>, Vec<String>) {
    let mut views: Vec<HandView> = (1..=hands)
        .map(|n| HandView {
            n,
            errors: Vec::new(),
            lines: [
                LineView {
                    line: "ns",
                    errors: Vec::new(),
                },
                LineView {
                    line: "ew",
                    errors: Vec::new(),
                },
            ],
        })
        .collect();
    let mut whole = Vec::new();
    if let Some(r) = report {
        for v in &r.violations {
            let msg = v.message(lang);
            match (
                v.hand.and_then(|h| views.get_mut(h.wrapping_sub(1))),
                v.line,
            ) {
                (Some(h), Some(Line::Ns)) => h.lines[0].errors.push(msg),
                (Some(h), Some(Line::Ew)) => h.lines[1].errors.push(msg),
                (Some(h), None) => h.errors.push(msg),
                (None, _) => whole.push(msg),
            }
        }
    }
    (views, whole)
}

/// A table of a round as the sheet page shows it.
struct TableCtx<'a> {
    round: &'a RoundRow,
    seating: SeatingRow,
    sheet: Option<SheetRow>,
    audit: TableAudit,
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

fn table_ctx<'a>(
    l: &'a Loaded,
    ts: TableState,
    audit: TableAudit,
) -> Result<TableCtx<'a>, AppError> {
    Ok(TableCtx {
        round: l.round(ts.round.number).ok_or(AppError::NotFound)?,
        seating: ts.seating,
        sheet: ts.sheet,
        audit,
    })
}

#[allow(clippy::too_many_arguments)]
fn sheet_page<'a>(
    ctx: &'a PageCtx,
    l: &'a Loaded,
    tc: &TableCtx<'a>,
    form: SheetForm,
    report: Option<&SheetReport>,
    field_errors: FieldErrors,
    extra_errors: Vec<String>,
    conflict: bool,
) -> SheetPage<'a> {
    let hands = l.settings.hands_per_round as usize;
    let (hand_views, mut sheet_errors) = hand_views(hands, report, ctx.lang);
    sheet_errors.extend(extra_errors);
    let has_errors = !sheet_errors.is_empty()
        || !field_errors.is_empty()
        || hand_views
            .iter()
            .any(|h| !h.errors.is_empty() || h.lines.iter().any(|l| !l.errors.is_empty()));
    SheetPage {
        has_errors,
        ctx,
        l,
        round: tc.round,
        table_no: tc.seating.table_no,
        ns: l.pair(tc.seating.ns_pair),
        ew: l.pair(tc.seating.ew_pair),
        form,
        hands: hand_views,
        sheet_errors,
        field_errors,
        version: tc.sheet.as_ref().map(|s| s.version),
        saved: tc.sheet.clone(),
        can_accept_mismatch: report
            .is_some_and(|r| r.has_violations() && r.only_declared_mismatch()),
        conflict,
        audit: tc.audit.clone(),
        counts: count_fields(l),
        profile_json: profile_json(l),
        adjusted_presets: crate::tournament::penalty::adjusted_presets()
            .iter()
            .filter_map(|p| {
                p.adjusted_vp(l.settings.hands_per_round)
                    .map(|(a, b)| (p.key, a, b))
            })
            .collect(),
    }
}

pub async fn sheet_form(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32, i32)>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Referee)?;
    let (tid, n, table_no) = path.into_inner();
    let (l, ts, audit) = load_table(&state, actor, tid, n, table_no).await?;
    let tc = table_ctx(&l, ts, audit)?;
    let form = saved_form(tc.sheet.as_ref())?;
    render(&sheet_page(
        &ctx,
        &l,
        &tc,
        form,
        None,
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
    let tc = table_ctx(&l, ts, audit)?;
    let form = match form {
        Some(f) => f,
        None => saved_form(tc.sheet.as_ref())?,
    };
    let mut fe = FieldErrors::default();
    let mut extra = Vec::new();
    for p in problems {
        match field_key(p.field) {
            Some(k) => fe.add(k, p.message(ctx.lang)),
            None => extra.push(p.message(ctx.lang)),
        }
    }
    render_status(
        &sheet_page(
            ctx,
            &l,
            &tc,
            form,
            report,
            fe,
            extra,
            status == StatusCode::CONFLICT,
        ),
        status,
    )
}

/// Checks the sheet with the rules engine; saves it only when it passes
/// (or when its only fault is a wrong written total that a referee accepts
/// with a reason). A correction needs a reason; a concurrent change is a
/// conflict shown with the current version.
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
            let problems: Vec<FieldProblem> = problems
                .into_iter()
                .map(|p| FieldProblem::new(field_key(&p.field).unwrap_or("sheet"), p.key))
                .collect();
            return sheet_again(
                &ctx,
                &state,
                actor,
                place,
                Some(form),
                None,
                &problems,
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await;
        }
    };
    let input = SheetInput {
        sheet,
        accept_mismatch: form.get("accept_mismatch") == "on",
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
                "score sheet saved"
            );
            Ok(see_other(&format!(
                "/desk/t/{tid}/rounds/{n}?done=sheet_saved#table-{table_no}"
            )))
        }
        Err(ServiceError::Sheet(r)) => {
            sheet_again(
                &ctx,
                &state,
                actor,
                place,
                Some(form),
                Some(&r.report),
                &r.problems,
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await
        }
        Err(ServiceError::Conflict(Conflict::SheetChanged)) => {
            sheet_again(
                &ctx,
                &state,
                actor,
                place,
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
                for f in [
                    "royal",
                    "super",
                    "clean",
                    "semi_clean",
                    "dirty",
                    "melded_points",
                    "hand_points",
                ] {
                    v.push(field_name(h, line, f));
                }
            }
        }
        v
    });
    names.iter().find(|n| *n == field).map(String::as_str)
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
        Err(ServiceError::Invalid(problems)) => {
            sheet_again(
                &ctx,
                &state,
                actor,
                place,
                None,
                None,
                &problems,
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await
        }
        Err(ServiceError::Conflict(Conflict::SheetChanged)) => {
            sheet_again(
                &ctx,
                &state,
                actor,
                place,
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

// ---- penalties ----

#[derive(Template)]
#[template(path = "desk/penalties.html")]
struct PenaltiesPage<'a> {
    ctx: &'a PageCtx,
    l: &'a Loaded,
    penalties: Vec<PenaltyRow>,
    form: PenaltyForm,
    errors: FieldErrors,
    reasons: Vec<&'static str>,
}

impl PenaltiesPage<'_> {
    fn pair_label(&self, id: &i64) -> String {
        self.l
            .pair(Some(*id))
            .map(|p| format!("{} · {}", p.number, p.label()))
            .unwrap_or_default()
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

async fn penalties_page(
    ctx: &PageCtx,
    state: &AppState,
    actor: Actor,
    tid: i64,
    form: Option<PenaltyForm>,
    problems: &[FieldProblem],
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    let (l, penalties) = services::scoring::penalties(&state.db, actor, tid).await?;
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
    penalties_page(&ctx, &state, actor, *id, None, &[], StatusCode::OK).await
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
            penalties_page(
                &ctx,
                &state,
                actor,
                tid,
                Some(form),
                &problems,
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await
        }
        Err(e) => Err(e.into()),
    }
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct WithdrawForm {
    reason: String,
}

pub async fn withdraw_penalty(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    form: web::Form<WithdrawForm>,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Referee)?;
    let (tid, pid) = path.into_inner();
    services::scoring::withdraw_penalty(&state.db, actor, tid, pid, form.into_inner().reason)
        .await?;
    Ok(see_other(&format!(
        "/desk/t/{tid}/penalties?done=penalty_withdrawn"
    )))
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
