//! The scoring desk (referees and directors): each round's tables, the
//! score-sheet form checked by the rules engine, adjusted scores, penalties
//! and the audit log. The `/desk` scope is role-guarded (referee and up).

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;

use super::context::{FieldErrors, PageCtx};
use super::director::{db, db_write, load, Loaded};
use super::{render, render_status, see_other, AppState};
use crate::auth::Role;
use crate::db::export;
use crate::db::scoring::{
    self, AuditRow, NewPenalty, PenaltyRow, SaveError, SheetRow, SheetWrite, TablePlace,
};
use crate::db::tournaments::{PairRow, RoundRow, SeatingRow};
use crate::error::AppError;
use crate::i18n::{t, tf, Lang};
use crate::rules::{BurracoType, Line, SheetReport, ViolationCode};
use crate::tournament::sheet_form::{field_name, SheetForm, ENDS};

/// Results change only while the tournament runs (not in a draft, not once
/// closed: the final standings and prizes are published).
fn ensure_running(l: &Loaded) -> Result<(), AppError> {
    if l.status() == crate::tournament::Status::Running {
        Ok(())
    } else {
        Err(AppError::BadRequest("tournament.error.not_running"))
    }
}

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

fn find_round(l: &Loaded, n: i32) -> Result<&RoundRow, AppError> {
    l.rounds
        .iter()
        .find(|r| r.number == n)
        .ok_or(AppError::NotFound)
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
    ctx.require(Role::Referee)?;
    let (tid, n) = path.into_inner();
    let l = load(&state, tid).await?;
    let round = find_round(&l, n)?;
    let rid = round.id;
    let rows = db(&state, move |c| Ok(export::round_tables(c, rid)?)).await?;
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

struct TableCtx<'a> {
    round: &'a RoundRow,
    seating: SeatingRow,
    sheet: Option<SheetRow>,
    audit: Vec<(AuditRow, Option<String>)>,
}

async fn table_ctx<'a>(
    state: &AppState,
    l: &'a Loaded,
    n: i32,
    table_no: i32,
) -> Result<TableCtx<'a>, AppError> {
    let round = find_round(l, n)?;
    let rid = round.id;
    let tid = l.t.id;
    let (rows, audit) = db(state, move |c| {
        Ok((
            export::round_tables(c, rid)?,
            scoring::audit_of(c, tid, Some((n, table_no)))?,
        ))
    })
    .await?;
    let (seating, sheet) = rows
        .into_iter()
        .find(|(s, _)| s.table_no == table_no)
        .ok_or(AppError::NotFound)?;
    Ok(TableCtx {
        round,
        seating,
        sheet,
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
    ctx.require(Role::Referee)?;
    let (tid, n, table_no) = path.into_inner();
    let l = load(&state, tid).await?;
    let tc = table_ctx(&state, &l, n, table_no).await?;
    let form = saved_form(tc.sheet.as_ref());
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
fn saved_form(sheet: Option<&SheetRow>) -> SheetForm {
    sheet
        .and_then(SheetRow::score_sheet)
        .map(|s| SheetForm::from_sheet(&s))
        .unwrap_or_default()
}

/// Someone saved the table meanwhile: show the current version (409), keep
/// nothing of the stale edit but the message.
async fn conflict_page(
    ctx: &PageCtx,
    state: &AppState,
    l: &Loaded,
    n: i32,
    table_no: i32,
) -> Result<HttpResponse, AppError> {
    let tc = table_ctx(state, l, n, table_no).await?;
    let form = saved_form(tc.sheet.as_ref());
    render_status(
        &sheet_page(
            ctx,
            l,
            &tc,
            form,
            None,
            FieldErrors::default(),
            Vec::new(),
            true,
        ),
        StatusCode::CONFLICT,
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
    let user = ctx.require(Role::Referee)?.clone();
    let (tid, n, table_no) = path.into_inner();
    let l = load(&state, tid).await?;
    ensure_running(&l)?;
    let tc = table_ctx(&state, &l, n, table_no).await?;
    let form = SheetForm::from_pairs(body.into_inner());
    let hands = l.settings.hands_per_round as usize;
    let bad = |report: Option<&SheetReport>, fe: FieldErrors, extra: Vec<String>| {
        render_status(
            &sheet_page(&ctx, &l, &tc, form.clone(), report, fe, extra, false),
            StatusCode::UNPROCESSABLE_ENTITY,
        )
    };
    let sheet = match form.parse(hands, l.settings.profile) {
        Ok(s) => s,
        Err(problems) => {
            let mut fe = FieldErrors::default();
            let mut extra = Vec::new();
            for p in problems {
                let msg = t(ctx.lang, p.key).to_string();
                match field_key(&p.field) {
                    Some(k) => fe.add(k, msg),
                    None => extra.push(msg),
                }
            }
            return bad(None, fe, extra);
        }
    };
    let report = crate::rules::check(&sheet, l.settings.profile, hands, &l.settings.vp_scale);
    let reason = form.get("reason").trim().to_string();
    let accept = form.get("accept_mismatch") == "on";
    let mut fe = FieldErrors::default();
    if tc.sheet.is_some() && reason.is_empty() {
        fe.add("reason", ctx.t("sheet.error.reason_needed"));
    }
    let accepted = report.has_violations() && report.only_declared_mismatch() && accept;
    if accepted && reason.is_empty() {
        fe.add("reason", ctx.t("sheet.error.reason_needed"));
    }
    if (report.has_violations() && !accepted) || !fe.is_empty() {
        return bad(Some(&report), fe, Vec::new());
    }
    let version: Option<i32> = form.get("version").trim().parse().ok();
    let write = SheetWrite {
        sheet: Some(serde_json::to_string(&sheet).map_err(|e| AppError::Internal(e.into()))?),
        adjusted: None,
        ns_total: report.totals.ns,
        ew_total: report.totals.ew,
        ns_vp: i32::from(report.vp.ns),
        ew_vp: i32::from(report.vp.ew),
        accepted_mismatch: accepted,
        note: if accepted {
            reason.clone()
        } else {
            String::new()
        },
    };
    let place = TablePlace {
        tournament_id: tid,
        round_no: n,
        table_no,
        seating_id: tc.seating.id,
    };
    let saved = db_write(&state, move |c| {
        Ok(scoring::save_sheet(
            c, place, version, &write, user.id, &reason,
        ))
    })
    .await?;
    match saved {
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
        Err(SaveError::Conflict { .. }) => conflict_page(&ctx, &state, &l, n, table_no).await,
        Err(SaveError::Db(e)) => Err(e.into()),
    }
}

/// Form field names are `String`s from the request; errors are keyed by
/// `&'static str`: map the known shapes to interned names.
fn field_key(field: &str) -> Option<&'static str> {
    static NAMES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let names = NAMES.get_or_init(|| {
        let mut v = vec!["declared_ns".to_string(), "declared_ew".to_string()];
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

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct AdjustedForm {
    ns_vp: String,
    ew_vp: String,
    ns_mp_diff: String,
    ew_mp_diff: String,
    reason: String,
    version: String,
}

/// A referee's adjusted score (RULES.md §9): replaces the table's sheet.
pub async fn adjusted(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32, i32)>,
    form: web::Form<AdjustedForm>,
) -> Result<HttpResponse, AppError> {
    let user = ctx.require(Role::Referee)?.clone();
    let (tid, n, table_no) = path.into_inner();
    let l = load(&state, tid).await?;
    ensure_running(&l)?;
    let tc = table_ctx(&state, &l, n, table_no).await?;
    let mut fe = FieldErrors::default();
    let vp = |s: &str, field: &'static str, fe: &mut FieldErrors| match s.trim().parse::<i32>() {
        Ok(v) if (0..=i32::from(crate::rules::vp::TOTAL_VP)).contains(&v) => Some(v),
        _ => {
            fe.add(field, t(ctx.lang, "adjusted.error.vp"));
            None
        }
    };
    // Empty: no MP difference set (it counts as 0 in the standings).
    let mp = |s: &str, field: &'static str, fe: &mut FieldErrors| {
        if s.trim().is_empty() {
            return Some(None);
        }
        match s.trim().parse::<i64>() {
            Ok(v)
                if v % l.settings.profile.points_step == 0
                    && v.abs() <= crate::tournament::penalty::MAX_ADJUSTED_MP_DIFF =>
            {
                Some(Some(v))
            }
            _ => {
                fe.add(field, t(ctx.lang, "adjusted.error.mp"));
                None
            }
        }
    };
    let ns_vp = vp(&form.ns_vp, "ns_vp", &mut fe);
    let ew_vp = vp(&form.ew_vp, "ew_vp", &mut fe);
    let ns_mp = mp(&form.ns_mp_diff, "ns_mp_diff", &mut fe);
    let ew_mp = mp(&form.ew_mp_diff, "ew_mp_diff", &mut fe);
    let reason = form.reason.trim().to_string();
    if reason.is_empty() {
        fe.add("adj_reason", t(ctx.lang, "sheet.error.reason_needed"));
    }
    let (Some(ns_vp), Some(ew_vp), Some(ns_mp), Some(ew_mp), true) =
        (ns_vp, ew_vp, ns_mp, ew_mp, fe.is_empty())
    else {
        let form_now = saved_form(tc.sheet.as_ref());
        return render_status(
            &sheet_page(&ctx, &l, &tc, form_now, None, fe, Vec::new(), false),
            StatusCode::UNPROCESSABLE_ENTITY,
        );
    };
    let write = SheetWrite {
        sheet: None,
        adjusted: Some((ns_vp, ew_vp, ns_mp, ew_mp)),
        ns_total: 0,
        ew_total: 0,
        ns_vp,
        ew_vp,
        accepted_mismatch: false,
        note: reason.clone(),
    };
    let place = TablePlace {
        tournament_id: tid,
        round_no: n,
        table_no,
        seating_id: tc.seating.id,
    };
    let version = form.version.trim().parse().ok();
    match db_write(&state, move |c| {
        Ok(scoring::save_sheet(
            c, place, version, &write, user.id, &reason,
        ))
    })
    .await?
    {
        Ok(_) => Ok(see_other(&format!(
            "/desk/t/{tid}/rounds/{n}?done=sheet_saved#table-{table_no}"
        ))),
        Err(SaveError::Conflict { .. }) => conflict_page(&ctx, &state, &l, n, table_no).await,
        Err(SaveError::Db(e)) => Err(e.into()),
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

#[derive(Debug, Default, Clone, serde::Deserialize)]
#[serde(default)]
pub struct PenaltyForm {
    pub pair: String,
    pub round: String,
    pub kind: String,
    pub amount: String,
    pub reason_preset: String,
    pub reason: String,
}

async fn penalties_page(
    ctx: &PageCtx,
    state: &AppState,
    l: &Loaded,
    form: PenaltyForm,
    errors: FieldErrors,
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    let tid = l.t.id;
    let penalties = db(state, move |c| Ok(scoring::penalties_of(c, tid)?)).await?;
    render_status(
        &PenaltiesPage {
            ctx,
            l,
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
    ctx.require(Role::Referee)?;
    let l = load(&state, *id).await?;
    let form = PenaltyForm {
        round: l
            .rounds
            .last()
            .map(|r| r.number.to_string())
            .unwrap_or_default(),
        ..Default::default()
    };
    penalties_page(
        &ctx,
        &state,
        &l,
        form,
        FieldErrors::default(),
        StatusCode::OK,
    )
    .await
}

pub async fn add_penalty(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<i64>,
    form: web::Form<PenaltyForm>,
) -> Result<HttpResponse, AppError> {
    let user = ctx.require(Role::Referee)?.clone();
    let l = load(&state, *id).await?;
    ensure_running(&l)?;
    let form = form.into_inner();
    let mut fe = FieldErrors::default();
    let pair = form
        .pair
        .trim()
        .parse::<i64>()
        .ok()
        .and_then(|pid| l.pair(Some(pid)));
    if pair.is_none() {
        fe.add("pair", ctx.t("penalty.error.pair"));
    }
    let round = form
        .round
        .trim()
        .parse::<i32>()
        .ok()
        .filter(|r| l.rounds.iter().any(|x| x.number == *r));
    if round.is_none() {
        fe.add("round", ctx.t("penalty.error.round"));
    }
    // A typical reason brings its kind and amount (RULES.md §9); what the
    // referee chose explicitly wins.
    let preset = crate::tournament::penalty::preset(&form.reason_preset).and_then(|p| p.penalty());
    let kind: Option<&'static str> = ["warning", "mp", "vp"]
        .into_iter()
        .find(|k| *k == form.kind)
        .or_else(|| {
            form.kind
                .is_empty()
                .then(|| preset.map(|(k, _)| k))
                .flatten()
        });
    if kind.is_none() {
        fe.add("kind", ctx.t("penalty.error.kind"));
    }
    let amount_text = match (form.amount.trim(), preset) {
        ("", Some((k, Some(a)))) if Some(k) == kind => a.to_string(),
        (t, _) => t.to_string(),
    };
    let amount = match kind {
        Some("warning") => None,
        Some(k) => match amount_text.parse::<i64>() {
            Ok(a)
                if a > 0
                    && (k != "mp" || a % 5 == 0)
                    && a <= if k == "mp" {
                        crate::tournament_file::MAX_MP_AMOUNT
                    } else {
                        crate::tournament_file::MAX_VP_AMOUNT
                    } =>
            {
                Some(a)
            }
            _ => {
                fe.add(
                    "amount",
                    if k == "mp" {
                        ctx.t("penalty.error.amount_mp")
                    } else {
                        ctx.t("penalty.error.amount")
                    },
                );
                None
            }
        },
        None => None,
    };
    let reason = if form.reason.trim().is_empty() {
        reasons()
            .iter()
            .find(|r| **r == form.reason_preset)
            .map(|k| ctx.t(k).to_string())
            .unwrap_or_default()
    } else {
        form.reason.trim().to_string()
    };
    if reason.is_empty() {
        fe.add("reason", ctx.t("penalty.error.reason"));
    }
    // An MP penalty needs the pair at a table that round.
    let mut table_no = None;
    if let (Some(p), Some(r), Some(k)) = (pair, round, kind) {
        let rid = l
            .rounds
            .iter()
            .find(|x| x.number == r)
            .map(|x| x.id)
            .unwrap_or(0);
        let pid = p.id;
        let (tables, _) = db(&state, move |c| {
            Ok(crate::db::tournaments::seating_of(c, rid)?)
        })
        .await?;
        table_no = tables
            .iter()
            .find(|s| s.ns_pair == Some(pid) || s.ew_pair == Some(pid))
            .map(|s| s.table_no);
        if k == "mp" && table_no.is_none() {
            fe.add("kind", ctx.t("penalty.error.mp_needs_table"));
        }
    }
    let (Some(pair), Some(round), Some(kind), true) = (pair, round, kind, fe.is_empty()) else {
        return penalties_page(&ctx, &state, &l, form, fe, StatusCode::UNPROCESSABLE_ENTITY).await;
    };
    let tid = l.t.id;
    let p = NewPenalty {
        round_no: round,
        pair_id: pair.id,
        table_no,
        kind,
        amount,
        reason,
    };
    db_write(&state, move |c| {
        Ok(scoring::add_penalty(c, tid, &p, user.id)?)
    })
    .await?;
    tracing::info!(tournament_id = tid, round, kind, "penalty recorded");
    Ok(see_other(&format!(
        "/desk/t/{tid}/penalties?done=penalty_added"
    )))
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
    let user = ctx.require(Role::Referee)?.clone();
    let (tid, pid) = path.into_inner();
    ensure_running(&load(&state, tid).await?)?;
    let reason = form.reason.trim().to_string();
    let done = db_write(&state, move |c| {
        Ok(scoring::withdraw_penalty(c, tid, pid, user.id, &reason)?)
    })
    .await?;
    if !done {
        return Err(AppError::NotFound);
    }
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
    ctx.require(Role::Referee)?;
    let l = load(&state, *id).await?;
    let tid = l.t.id;
    let entries = db(&state, move |c| Ok(scoring::audit_of(c, tid, None)?)).await?;
    render(&AuditPage {
        ctx: &ctx,
        l: &l,
        entries,
    })
}

/// A readable line for an audit action.
pub fn action_label(lang: &Lang, action: &str) -> String {
    let key = format!("audit.action.{action}");
    let text = t(*lang, &key);
    if text == key {
        action.to_string()
    } else {
        text.to_string()
    }
}

pub fn mismatch_note(lang: Lang, row: &SheetRow) -> Option<String> {
    row.accepted_mismatch
        .then(|| tf(lang, "sheet.accepted_mismatch", &[("reason", &row.note)]))
}

/// Used by templates: the violation code that a referee may accept.
pub const ACCEPTABLE: ViolationCode = ViolationCode::DeclaredTotalMismatch;
