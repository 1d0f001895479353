//! Table-side scoring for players: the JSON API (`/api/v1/score/{code}…`)
//! and the player's page (`/s/{code}`, a phone at the table, no login,
//! works without JavaScript). Both parse, call `services::table_side` and
//! render. No cookie is read or set on these paths and their POSTs need no
//! CSRF token (`middleware::cookieless`): the pair code typed into each
//! request is the credential.

use std::net::IpAddr;

use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::web::{self, Bytes};
use actix_web::{HttpRequest, HttpResponse};
use askama::Template;
use serde::Deserialize;
use serde_json::{json, Map, Value};

use super::context::{web_query_value, FieldErrors, PageCtx};
use super::doors::client_ip;
use super::error::AppError;
use super::{render_status, see_other, AppState};
use crate::db::tournaments::PairRow;
use crate::i18n::{t, tf, Lang};
use crate::rules::api::{parse_json, CheckSheetOutput, InputError};
use crate::rules::{BurracoType, Line, RuleProfile, ScoreSheet, SheetReport};
use crate::services::table_side::{self as ts, TableSideError, TableStatus, TableView};
use crate::tournament::sheet_form::{field_name, SheetForm, ENDS};

/// The address the wrong-code brake counts by: the connection's peer
/// (`X-Forwarded-For` only when the `trust_forwarded_for` setting is on),
/// as for the login brake.
fn client(req: &HttpRequest, state: &AppState) -> Option<IpAddr> {
    let forwarded = req
        .headers()
        .get("x-forwarded-for")
        .and_then(|v| v.to_str().ok());
    client_ip(
        req.peer_addr(),
        forwarded,
        state.settings.trust_forwarded_for,
    )
}

fn no_store(res: &mut HttpResponse) {
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
}

/// "Rossi Maria – Bianchi Luca".
pub fn names(p: &PairRow) -> String {
    format!(
        "{} {} – {} {}",
        p.p1_surname, p.p1_name, p.p2_surname, p.p2_name
    )
}

// ---- JSON ----

fn json_reply(status: StatusCode, body: Value) -> HttpResponse {
    let mut res = HttpResponse::build(status).json(body);
    no_store(&mut res);
    res
}

fn violations(report: &SheetReport, lang: Lang) -> Value {
    let out =
        CheckSheetOutput::from_report(report.clone(), RuleProfile::default_profile(), 0, lang);
    serde_json::to_value(&out.violations).unwrap_or(Value::Null)
}

/// A refusal as `{"error":{"code","message",…}}`, in the request's language.
fn api_error(e: TableSideError, lang: Lang) -> HttpResponse {
    let code = e.code();
    let mut error = Map::new();
    error.insert("code".into(), Value::from(code));
    let (status, message) = match &e {
        TableSideError::NotFound => (StatusCode::NOT_FOUND, t(lang, e.message_key()).to_string()),
        TableSideError::WrongCode | TableSideError::SamePair => {
            (StatusCode::FORBIDDEN, t(lang, e.message_key()).to_string())
        }
        TableSideError::Throttled { .. } => (
            StatusCode::TOO_MANY_REQUESTS,
            t(lang, e.message_key()).to_string(),
        ),
        TableSideError::Conflict(_) => (StatusCode::CONFLICT, t(lang, e.message_key()).to_string()),
        TableSideError::Sheet(report) => {
            let v = violations(report, lang);
            error.insert("violations".into(), v);
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                t(lang, e.message_key()).to_string(),
            )
        }
        TableSideError::Input(i) => (
            StatusCode::from_u16(i.http_status()).unwrap_or(StatusCode::UNPROCESSABLE_ENTITY),
            i.message.clone(),
        ),
        TableSideError::Invalid(problems) => {
            let fields: Map<String, Value> = problems
                .iter()
                .map(|p| (p.field.to_string(), Value::from(p.message(lang))))
                .collect();
            let message = problems
                .iter()
                .map(|p| p.message(lang))
                .collect::<Vec<_>>()
                .join(" ");
            error.insert("fields".into(), Value::Object(fields));
            (StatusCode::UNPROCESSABLE_ENTITY, message)
        }
        TableSideError::Service(crate::services::ServiceError::NotFound) => (
            StatusCode::NOT_FOUND,
            t(lang, "table.error.not_found").to_string(),
        ),
        TableSideError::Service(s) => {
            tracing::error!(error = %s, "table-side request failed");
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                t(lang, "error.internal.message").to_string(),
            )
        }
    };
    error.insert("message".into(), Value::from(message));
    let mut body = json!({ "error": Value::Object(error) });
    if let (TableSideError::Sheet(report), Some(m)) = (&e, body.as_object_mut()) {
        m.insert("violations".into(), violations(report, lang));
        m.insert("totals".into(), json!(report.totals));
        m.insert("vp".into(), json!(report.vp));
    }
    let mut res = json_reply(status, body);
    if let TableSideError::Throttled { wait_seconds } = e {
        if let Ok(v) = HeaderValue::from_str(&wait_seconds.to_string()) {
            res.headers_mut().insert(header::RETRY_AFTER, v);
        }
    }
    res
}

fn pair_json(p: Option<&PairRow>) -> Value {
    match p {
        Some(p) => json!({"pair": p.number, "names": names(p)}),
        None => Value::Null,
    }
}

/// The table as JSON (the shape of issue 13's interface, plus what the
/// engine computes of the sheet).
pub fn view_json(v: &TableView) -> Value {
    json!({
        "tournament": v.l.t.id,
        "round": v.round,
        "table": v.table_no,
        "ns": pair_json(v.ns.as_ref()),
        "ew": pair_json(v.ew.as_ref()),
        "status": v.status.code(),
        "entered_by": v.entered_by,
        "sheet": v.sheet,
        "totals": v.report.as_ref().map(|r| json!(r.totals)),
        "vp": match (&v.report, v.adjusted) {
            (_, Some((ns, ew))) => json!({"ns": ns, "ew": ew}),
            (Some(r), None) => json!(r.vp),
            (None, None) => Value::Null,
        },
        "adjusted": v.adjusted.is_some(),
        "note": (!v.note.is_empty()).then(|| v.note.clone()),
        "hands_per_round": v.l.settings.hands_per_round,
    })
}

/// `GET /api/v1/score/{table_code}`.
#[utoipa::path(get, path = "/api/v1/score/{code}", tag = "table-side", operation_id = "getTableScore",
    params(("code" = String, Path, description = "The table's code (on its card)")),
    responses((status = 200, description = "The table, its pairs and the sheet entered", body = Object),
        (status = 404, description = "No such table", body = crate::web::api::ErrorBody),
        (status = 409, description = "Table-side entry is off", body = crate::web::api::ErrorBody),
        (status = 429, description = "Too many wrong codes: wait", body = crate::web::api::ErrorBody)))]
pub async fn api_view(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> HttpResponse {
    match ts::table_view(&state.db, path.into_inner()).await {
        Ok(v) if !v.table_entry() => {
            api_error(TableSideError::Conflict("table_entry_off"), ctx.lang)
        }
        Ok(v) => json_reply(StatusCode::OK, view_json(&v)),
        Err(e) => api_error(e, ctx.lang),
    }
}

/// The fields every score POST may carry; the rest is read per endpoint.
#[derive(Debug, Deserialize)]
struct ScoreBody {
    #[serde(default)]
    pair_code: Value,
    /// The round the client scores (optional: the pair's last round at the table).
    #[serde(default)]
    round: Option<i32>,
    #[serde(default)]
    sheet: Option<Value>,
    #[serde(default)]
    agree: Option<bool>,
    #[serde(default)]
    note: Option<String>,
}

fn code_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => String::new(),
    }
}

fn read_body(body: &Bytes, lang: Lang) -> Result<ScoreBody, TableSideError> {
    let text = std::str::from_utf8(body).map_err(|_| {
        TableSideError::Input(InputError {
            code: "invalid_json",
            message: t(lang, "error.bad_request.message").to_string(),
        })
    })?;
    parse_json::<ScoreBody>(text, lang).map_err(TableSideError::Input)
}

/// The sheet of a body: the body of `POST /api/v1/rules/check-sheet`
/// (`hands`, `declared`); `profile`, `hands_per_round` and `vp_scale` are
/// the tournament's and ignored if sent.
fn sheet_of(v: Option<Value>, lang: Lang) -> Result<ScoreSheet, InputError> {
    let Some(v) = v.filter(|v| !v.is_null()) else {
        return Err(InputError {
            code: "invalid_field",
            message: tf(
                lang,
                "rules.input.invalid_field",
                &[("path", &"sheet"), ("detail", &"missing")],
            ),
        });
    };
    parse_json::<ScoreSheet>(&v.to_string(), lang).map_err(|mut e| {
        e.message = format!("sheet: {}", e.message);
        e
    })
}

fn outcome_json(o: &ts::Outcome) -> Value {
    json!({
        "status": o.status.code(),
        "round": o.round,
        "table": o.table_no,
        "by": o.by.code(),
        "entered_by": (o.status == TableStatus::Entered).then(|| o.by.code()),
        "replaced": o.replaced,
        "totals": o.report.as_ref().map(|r| json!(r.totals)),
        "vp": o.report.as_ref().map(|r| json!(r.vp)),
    })
}

/// An unreadable body: 404 when the table does not exist either.
async fn unreadable(state: &AppState, code: String, e: TableSideError, lang: Lang) -> HttpResponse {
    match ts::table_view(&state.db, code).await {
        Err(TableSideError::NotFound) => api_error(TableSideError::NotFound, lang),
        _ => api_error(e, lang),
    }
}

/// `POST /api/v1/score/{table_code}/sheet`.
#[utoipa::path(post, path = "/api/v1/score/{code}/sheet", tag = "table-side", operation_id = "submitTableSheet",
    params(("code" = String, Path, description = "The table's code (on its card)")),
    request_body(content = Object, description = "`pair_code`, `round` (optional) and the `sheet`",
        example = json!({"pair_code": "K7WQ", "sheet": {"hands": [{"end": "closure", "ns": {"clean": 1, "melded_points": 120, "closed": true, "took_pozzetto": true}, "ew": {"hand_points": 30, "took_pozzetto": true}}]}})),
    responses((status = 200, description = "Entered: the other pair confirms", body = Object),
        (status = 400, description = "Not JSON", body = crate::web::api::ErrorBody),
        (status = 403, description = "Wrong pair code", body = crate::web::api::ErrorBody),
        (status = 404, description = "No such table", body = crate::web::api::ErrorBody),
        (status = 409, description = "Not possible now", body = crate::web::api::ErrorBody),
        (status = 413, description = "Body too large", body = crate::web::api::ErrorBody),
        (status = 422, description = "The sheet breaks the rules", body = crate::web::api::ErrorBody),
        (status = 429, description = "Too many wrong codes: wait", body = crate::web::api::ErrorBody)))]
pub async fn api_sheet(
    ctx: PageCtx,
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    body: Bytes,
) -> HttpResponse {
    let code = path.into_inner();
    let body = match read_body(&body, ctx.lang) {
        Ok(b) => b,
        Err(e) => return unreadable(&state, code, e, ctx.lang).await,
    };
    let sheet = sheet_of(body.sheet, ctx.lang);
    let result = ts::enter_sheet(
        &state.db,
        code,
        code_text(&body.pair_code),
        body.round,
        sheet,
        client(&req, &state),
    )
    .await;
    match result {
        Ok(o) => json_reply(StatusCode::OK, outcome_json(&o)),
        Err(e) => api_error(e, ctx.lang),
    }
}

/// `POST /api/v1/score/{table_code}/confirm`.
#[utoipa::path(post, path = "/api/v1/score/{code}/confirm", tag = "table-side", operation_id = "confirmTableSheet",
    params(("code" = String, Path, description = "The table's code (on its card)")),
    request_body(content = Object, description = "`pair_code` of the other pair, `agree`, `note`",
        example = json!({"pair_code": "M3XR", "agree": true})),
    responses((status = 200, description = "Confirmed (or disputed)", body = Object),
        (status = 400, description = "Not JSON", body = crate::web::api::ErrorBody),
        (status = 403, description = "Wrong pair code", body = crate::web::api::ErrorBody),
        (status = 404, description = "No such table", body = crate::web::api::ErrorBody),
        (status = 409, description = "Not possible now", body = crate::web::api::ErrorBody),
        (status = 413, description = "Body too large", body = crate::web::api::ErrorBody),
        (status = 422, description = "Invalid input", body = crate::web::api::ErrorBody),
        (status = 429, description = "Too many wrong codes: wait", body = crate::web::api::ErrorBody)))]
pub async fn api_confirm(
    ctx: PageCtx,
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    body: Bytes,
) -> HttpResponse {
    let code = path.into_inner();
    let body = match read_body(&body, ctx.lang) {
        Ok(b) => b,
        Err(e) => return unreadable(&state, code, e, ctx.lang).await,
    };
    let result = ts::confirm(
        &state.db,
        code,
        code_text(&body.pair_code),
        body.round,
        body.agree,
        body.note.unwrap_or_default(),
        client(&req, &state),
    )
    .await;
    match result {
        Ok(o) => json_reply(StatusCode::OK, outcome_json(&o)),
        Err(e) => api_error(e, ctx.lang),
    }
}

// ---- the player's page ----

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

/// One line of a hand read-only: its label, (label, value) cells, its total.
pub type LineRow = (&'static str, Vec<(String, String)>, i64);

/// One hand of the sheet entered, read-only, with the engine's totals.
pub struct HandRow {
    pub n: usize,
    pub end: String,
    pub closed_by: &'static str,
    /// NS then EW: (label, value) cells and the hand's total.
    pub lines: Vec<LineRow>,
}

#[derive(Template)]
#[template(path = "player/table.html")]
struct PlayerPage<'a> {
    ctx: &'a PageCtx,
    v: &'a TableView,
    form: SheetForm,
    hands: Vec<HandView>,
    sheet_errors: Vec<String>,
    field_errors: FieldErrors,
    /// A refusal shown at the top of the page.
    message: Option<String>,
    notice: Option<&'static str>,
    rows: Vec<HandRow>,
    counts: Vec<&'static str>,
}

impl PlayerPage<'_> {
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
    fn status_label(&self) -> &'static str {
        t(
            self.ctx.lang,
            &format!("table.status.{}", self.v.status.code()),
        )
    }
    fn who_label(&self) -> String {
        match self.v.entered_by.as_deref() {
            Some("desk") => t(self.ctx.lang, "table.page.entered_by_desk").to_string(),
            Some(line) => {
                let pair = if line == "ns" { &self.v.ns } else { &self.v.ew };
                let label = t(self.ctx.lang, &format!("table.who.{line}"));
                match pair {
                    Some(p) => format!(
                        "{} · {}",
                        label,
                        tf(self.ctx.lang, "table.page.pair", &[("pair", &p.number)])
                    ),
                    None => label.to_string(),
                }
            }
            None => String::new(),
        }
    }
    fn title(&self) -> String {
        tf(
            self.ctx.lang,
            "table.page.title",
            &[("table", &self.v.table_no)],
        )
    }
    fn round_label(&self) -> String {
        tf(
            self.ctx.lang,
            "table.page.round",
            &[("round", &self.v.round)],
        )
    }
    fn pair_label(&self, p: &PairRow) -> String {
        tf(self.ctx.lang, "table.page.pair", &[("pair", &p.number)])
    }
    fn names(&self, p: &PairRow) -> String {
        names(p)
    }
    /// The form to enter (or enter again) is shown.
    fn can_enter(&self) -> bool {
        matches!(
            self.v.status,
            TableStatus::Open | TableStatus::Entered | TableStatus::Disputed
        )
    }
    /// The confirm / dispute choice is shown.
    fn can_answer(&self) -> bool {
        matches!(self.v.status, TableStatus::Entered | TableStatus::Disputed)
    }
    fn has_errors(&self) -> bool {
        !self.field_errors.is_empty()
            || !self.sheet_errors.is_empty()
            || self
                .hands
                .iter()
                .any(|h| !h.errors.is_empty() || h.lines.iter().any(|l| !l.errors.is_empty()))
    }
    fn totals(&self) -> Option<(i64, i64, u8, u8)> {
        self.v
            .report
            .as_ref()
            .map(|r| (r.totals.ns, r.totals.ew, r.vp.ns, r.vp.ew))
    }
}

fn count_fields(v: &TableView) -> Vec<&'static str> {
    let p = v.l.settings.profile;
    let mut out = Vec::new();
    if p.has_type(BurracoType::Royal) {
        out.push("royal");
    }
    if p.has_type(BurracoType::Super) {
        out.push("super");
    }
    out.extend(["clean", "semi_clean", "dirty"]);
    out
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

/// The sheet entered, hand by hand, with the engine's totals per line.
fn hand_rows(v: &TableView, lang: Lang) -> Vec<HandRow> {
    let (Some(sheet), Some(report)) = (&v.sheet, &v.report) else {
        return Vec::new();
    };
    let counts = count_fields(v);
    sheet
        .hands
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let closed_by = if h.ns.closed {
                "NS"
            } else if h.ew.closed {
                crate::rules::Line::Ew.label(lang)
            } else {
                t(lang, "sheet.nobody")
            };
            let lines = [Line::Ns, Line::Ew]
                .into_iter()
                .map(|line| {
                    let lh = h.line(line);
                    let mut cells: Vec<(String, String)> = counts
                        .iter()
                        .map(|c| {
                            let n = match *c {
                                "royal" => lh.royal,
                                "super" => lh.super_,
                                "clean" => lh.clean,
                                "semi_clean" => lh.semi_clean,
                                _ => lh.dirty,
                            };
                            (
                                t(lang, &format!("sheet.count.{c}")).to_string(),
                                n.to_string(),
                            )
                        })
                        .collect();
                    cells.push((
                        t(lang, "sheet.melded_points").to_string(),
                        lh.melded_points.to_string(),
                    ));
                    cells.push((
                        t(lang, "sheet.hand_points").to_string(),
                        lh.hand_points.to_string(),
                    ));
                    cells.push((
                        t(lang, "sheet.took_pozzetto").to_string(),
                        if lh.took_pozzetto { "✓" } else { "—" }.to_string(),
                    ));
                    let total = report
                        .hands
                        .get(i)
                        .map(|s| s.get(line).total)
                        .unwrap_or_default();
                    let label = if line == Line::Ns {
                        "NS"
                    } else {
                        crate::rules::Line::Ew.label(lang)
                    };
                    (label, cells, total)
                })
                .collect();
            HandRow {
                n: i + 1,
                end: t(lang, &format!("rules.end.{}", h.end.code())).to_string(),
                closed_by,
                lines,
            }
        })
        .collect()
}

/// What a page shows besides the table's state.
#[derive(Default)]
struct Extras {
    form: Option<SheetForm>,
    report: Option<SheetReport>,
    field_errors: FieldErrors,
    message: Option<String>,
    notice: Option<&'static str>,
}

fn page(
    ctx: &PageCtx,
    v: &TableView,
    status: StatusCode,
    x: Extras,
) -> Result<HttpResponse, AppError> {
    let hands = v.l.settings.hands_per_round as usize;
    let (hand_views, sheet_errors) = hand_views(hands, x.report.as_ref(), ctx.lang);
    let form = x.form.unwrap_or_else(|| {
        // Entering again starts from the sheet entered.
        match (&v.sheet, v.status) {
            (Some(s), TableStatus::Entered | TableStatus::Disputed) => SheetForm::from_sheet(s),
            _ => SheetForm::default(),
        }
    });
    let mut res = render_status(
        &PlayerPage {
            ctx,
            v,
            form,
            hands: hand_views,
            sheet_errors,
            field_errors: x.field_errors,
            message: x.message,
            notice: x.notice,
            rows: hand_rows(v, ctx.lang),
            counts: count_fields(v),
        },
        status,
    )?;
    no_store(&mut res);
    Ok(res)
}

#[derive(Template)]
#[template(path = "player/off.html")]
struct OffPage<'a> {
    ctx: &'a PageCtx,
    v: &'a TableView,
}

fn off_page(ctx: &PageCtx, v: &TableView) -> Result<HttpResponse, AppError> {
    let mut res = render_status(&OffPage { ctx, v }, StatusCode::CONFLICT)?;
    no_store(&mut res);
    Ok(res)
}

fn view_error(e: TableSideError) -> AppError {
    match e {
        TableSideError::NotFound => AppError::NotFound,
        TableSideError::Service(s) => s.into(),
        other => AppError::Internal(anyhow::anyhow!("{other}")),
    }
}

/// `GET /s/{table_code}/preview?<form>`: the live totals of the phone's
/// form, from the rules engine (read only; no code needed).
pub async fn page_preview(
    state: web::Data<AppState>,
    path: web::Path<String>,
    query: web::Query<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    let v = ts::table_view(&state.db, path.into_inner())
        .await
        .map_err(view_error)?;
    let form = crate::tournament::sheet_form::SheetForm::from_pairs(query.into_inner());
    Ok(super::preview_response(
        crate::services::scoring::read_form(&v.l, &form).as_ref(),
    ))
}

/// `GET /s/{table_code}`: the table's round, the sheet form or the sheet
/// entered with the confirm / dispute choice.
pub async fn page_view(
    ctx: PageCtx,
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let v = ts::table_view(&state.db, path.into_inner())
        .await
        .map_err(view_error)?;
    if !v.table_entry() {
        return off_page(&ctx, &v);
    }
    let notice = match web_query_value(req.query_string(), "ok").as_deref() {
        Some("entered") => Some("table.notice.entered"),
        Some("confirmed") => Some("table.notice.confirmed"),
        Some("disputed") => Some("table.notice.disputed"),
        _ => None,
    };
    page(
        &ctx,
        &v,
        StatusCode::OK,
        Extras {
            notice,
            ..Extras::default()
        },
    )
}

/// A refused form: the page again with the message where it belongs.
async fn refused(
    ctx: &PageCtx,
    state: &AppState,
    code: String,
    e: TableSideError,
    mut x: Extras,
    code_field: &'static str,
) -> Result<HttpResponse, AppError> {
    let v = ts::table_view(&state.db, code).await.map_err(view_error)?;
    if !v.table_entry() {
        return off_page(ctx, &v);
    }
    let lang = ctx.lang;
    let status = match &e {
        TableSideError::NotFound => return Err(AppError::NotFound),
        TableSideError::WrongCode | TableSideError::SamePair => {
            x.field_errors.add(code_field, t(lang, e.message_key()));
            StatusCode::FORBIDDEN
        }
        TableSideError::Throttled { wait_seconds } => {
            return Err(AppError::TooManyAttempts {
                wait_seconds: *wait_seconds,
            })
        }
        TableSideError::Conflict(_) => {
            x.message = Some(t(lang, e.message_key()).to_string());
            StatusCode::CONFLICT
        }
        TableSideError::Sheet(report) => {
            x.message = Some(t(lang, e.message_key()).to_string());
            x.report = Some((**report).clone());
            StatusCode::UNPROCESSABLE_ENTITY
        }
        TableSideError::Input(_) => {
            x.message = Some(t(lang, "table.error.sheet").to_string());
            StatusCode::UNPROCESSABLE_ENTITY
        }
        TableSideError::Invalid(problems) => {
            for p in problems {
                x.field_errors.add(p.field, p.message(lang));
            }
            StatusCode::UNPROCESSABLE_ENTITY
        }
        TableSideError::Service(_) => return Err(view_error(e)),
    };
    page(ctx, &v, status, x)
}

/// `POST /s/{table_code}/sheet`: the sheet form (no JavaScript needed).
pub async fn page_sheet(
    ctx: PageCtx,
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    body: web::Form<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    let code = path.into_inner();
    let form = SheetForm::from_pairs(body.into_inner());
    let v = ts::table_view(&state.db, code.clone())
        .await
        .map_err(view_error)?;
    let hands = v.l.settings.hands_per_round as usize;
    let mut field_errors = FieldErrors::default();
    let sheet = form.parse(hands, v.l.settings.profile).map_err(|problems| {
        for p in &problems {
            if let Some(k) = form_field(&p.field, hands) {
                field_errors.add(k, t(ctx.lang, p.key));
            }
        }
        InputError {
            code: "invalid_field",
            message: problems
                .iter()
                .map(|p| t(ctx.lang, p.key))
                .collect::<Vec<_>>()
                .join(" "),
        }
    });
    let round = form.get("round").trim().parse().ok();
    let result = ts::enter_sheet(
        &state.db,
        code.clone(),
        form.get("pair_code").to_string(),
        round,
        sheet,
        client(&req, &state),
    )
    .await;
    match result {
        Ok(_) => Ok(see_other(&format!("/s/{}?ok=entered", v.code))),
        Err(e) => {
            let x = Extras {
                form: Some(form),
                field_errors,
                ..Extras::default()
            };
            refused(&ctx, &state, code, e, x, "pair_code").await
        }
    }
}

/// `POST /s/{table_code}/confirm`: the other pair confirms (`agree=yes`) or
/// disputes (`agree=no`, with a note).
pub async fn page_confirm(
    ctx: PageCtx,
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    body: web::Form<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    let code = path.into_inner();
    let form = SheetForm::from_pairs(body.into_inner());
    let agree = match form.get("agree") {
        "yes" | "true" | "on" => Some(true),
        "no" | "false" => Some(false),
        _ => None,
    };
    let result = ts::confirm(
        &state.db,
        code.clone(),
        form.get("answer_code").to_string(),
        form.get("round").trim().parse().ok(),
        agree,
        form.get("note").to_string(),
        client(&req, &state),
    )
    .await;
    match result {
        Ok(o) => Ok(see_other(&format!(
            "/s/{}?ok={}",
            crate::db::table_side::normalize_code(&code),
            o.status.code()
        ))),
        Err(e) => refused(&ctx, &state, code, e, Extras::default(), "answer_code").await,
    }
}

/// The form field a parser problem names, as a `'static` key for `FieldErrors`.
fn form_field(name: &str, hands: usize) -> Option<&'static str> {
    const STATIC: &[&str] = &["declared_ns", "declared_ew", "pair_code"];
    if let Some(s) = STATIC.iter().find(|s| **s == name) {
        return Some(s);
    }
    // Hand fields: leak-free lookup in a fixed table of names.
    static NAMES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let names = NAMES.get_or_init(|| {
        let mut v = Vec::new();
        for n in 1..=8 {
            v.push(format!("h{n}_end"));
            for line in [Line::Ns, Line::Ew] {
                for f in crate::tournament::sheet_form::LINE_FIELDS {
                    v.push(field_name(n, line, f));
                }
            }
        }
        v
    });
    let _ = hands;
    names
        .iter()
        .find(|s| s.as_str() == name)
        .map(String::as_str)
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::scope("/api/v1/score")
            .app_data(web::PayloadConfig::new(super::limits::SCORE_JSON))
            .route("/{code}", web::get().to(api_view))
            .route("/{code}/sheet", web::post().to(api_sheet))
            .route("/{code}/confirm", web::post().to(api_confirm)),
    )
    .service(
        web::scope("/s")
            .route("/{code}", web::get().to(page_view))
            .route("/{code}/preview", web::get().to(page_preview))
            .route("/{code}/sheet", web::post().to(page_sheet))
            .route("/{code}/confirm", web::post().to(page_confirm)),
    );
}
