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
use super::score_card::{
    end_views, hand_views, line_label, read_hands, EndView, HandView, Placed, ReadHand,
};
use super::{render_status, see_other, AppState};
use crate::db::pairs::PairRow;
use crate::i18n::{t, tf, Lang};
use crate::rules::api::{parse_json, CheckSheetOutput, InputError};
use crate::rules::{Line, RuleProfile, ScoreSheet, SheetMode, SheetReport};
use crate::services::table_side::{self as ts, TableSideError, TableStatus, TableView};
use crate::tournament::sheet_form::{score_card, SheetForm};

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
        TableSideError::Replay => (
            StatusCode::CONFLICT,
            t(lang, "table.error.entry_changed").to_string(),
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
        "entry_version": v.entry_version,
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
    /// The version of the entry the confirming pair read (required to
    /// answer).
    #[serde(default)]
    entry_version: Option<i32>,
    #[serde(default)]
    note: Option<String>,
    /// Or the `Idempotency-Key` header: the same key again gets the first
    /// answer, and nothing is stored twice.
    #[serde(default)]
    idempotency_key: Option<String>,
}

/// The submission's idempotency key: the `Idempotency-Key` header, else
/// the body's `idempotency_key`.
fn idempotency_of(req: &HttpRequest, body: &ScoreBody) -> Result<Option<String>, TableSideError> {
    let header = req
        .headers()
        .get("idempotency-key")
        .and_then(|v| v.to_str().ok());
    ts::parse_idempotency_key(header.or(body.idempotency_key.as_deref()).unwrap_or(""))
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
        "entry_version": o.entry_version,
        "totals": o.totals,
        "vp": o.vp,
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
    let key = match idempotency_of(&req, &body) {
        Ok(k) => k,
        Err(e) => return api_error(e, ctx.lang),
    };
    let sheet = sheet_of(body.sheet, ctx.lang);
    let result = ts::enter_sheet(
        &state.db,
        code,
        code_text(&body.pair_code),
        body.round,
        sheet,
        key,
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
    request_body(content = Object, description = "`pair_code` of the other pair, `agree`, `entry_version` (the version of the entry it read, from `getTableScore`; required), `note` (required to dispute); optional `idempotency_key` (or the `Idempotency-Key` header)",
        example = json!({"pair_code": "551903", "agree": true, "entry_version": 1})),
    responses((status = 200, description = "Confirmed (or disputed)", body = Object),
        (status = 400, description = "Not JSON", body = crate::web::api::ErrorBody),
        (status = 403, description = "Wrong pair code", body = crate::web::api::ErrorBody),
        (status = 404, description = "No such table", body = crate::web::api::ErrorBody),
        (status = 409, description = "Not possible now (`entry_changed`: the entry is not the one read)", body = crate::web::api::ErrorBody),
        (status = 413, description = "Body too large", body = crate::web::api::ErrorBody),
        (status = 422, description = "Invalid input (`entry_version` missing…)", body = crate::web::api::ErrorBody),
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
    let key = match idempotency_of(&req, &body) {
        Ok(k) => k,
        Err(e) => return api_error(e, ctx.lang),
    };
    let answer = ts::Answer {
        agree: body.agree,
        entry_version: body.entry_version,
        note: body.note.unwrap_or_default(),
        idempotency_key: key,
    };
    let result = ts::confirm(
        &state.db,
        code,
        code_text(&body.pair_code),
        body.round,
        answer,
        client(&req, &state),
    )
    .await;
    match result {
        Ok(o) => json_reply(StatusCode::OK, outcome_json(&o)),
        Err(e) => api_error(e, ctx.lang),
    }
}

// ---- the player's page ----

/// Where a pair of the table plays next, in words.
pub struct NextView {
    pub pair: i32,
    pub text: String,
}

#[derive(Template)]
#[template(path = "player/table.html")]
struct PlayerPage<'a> {
    ctx: &'a PageCtx,
    v: &'a TableView,
    form: SheetForm,
    /// The card's end-of-hand choices, in its words.
    ends: Vec<EndView>,
    hands: Vec<HandView>,
    /// Totals mode: one box per line and hand.
    totals: bool,
    sheet_errors: Vec<String>,
    field_errors: FieldErrors,
    /// A refusal shown at the top of the page.
    message: Option<String>,
    notice: Option<&'static str>,
    /// The sheet entered, read-only, in the card's rows and words.
    read: Vec<ReadHand>,
    /// A fresh key for each form shown: a form sent twice (a reload, a
    /// phone sending again when the network is back) counts once.
    sheet_key: String,
    answer_key: String,
    /// The other pair's code typed on a refused answer (kept, as the
    /// entering pair's code is kept in the sheet form).
    answer_code: String,
    next: Vec<NextView>,
    /// The form is blank or the entry's (not what a refused POST sent):
    /// the phone may bring back its draft.
    fresh: bool,
}

impl PlayerPage<'_> {
    fn status_label(&self) -> &'static str {
        t(
            self.ctx.lang,
            &format!("table.status.{}", self.v.status.code()),
        )
    }
    /// The line that entered the sheet and the one that answers.
    fn entered_line(&self) -> Option<Line> {
        match self.v.entered_by.as_deref() {
            Some("ns") => Some(Line::Ns),
            Some("ew") => Some(Line::Ew),
            _ => None,
        }
    }
    fn line_pair(&self, line: Line) -> Option<&PairRow> {
        match line {
            Line::Ns => self.v.ns.as_ref(),
            Line::Ew => self.v.ew.as_ref(),
        }
    }
    /// "NS · pair 3" for a line.
    fn line_and_pair(&self, line: Line) -> String {
        let label = line_label(line, self.ctx.lang);
        match self.line_pair(line) {
            Some(p) => format!(
                "{label} · {}",
                tf(self.ctx.lang, "table.page.pair", &[("pair", &p.number)])
            ),
            None => label.to_string(),
        }
    }
    fn who_label(&self) -> String {
        match (self.v.entered_by.as_deref(), self.entered_line()) {
            (Some("desk"), _) => t(self.ctx.lang, "table.page.entered_by_desk").to_string(),
            (_, Some(line)) => self.line_and_pair(line),
            _ => String::new(),
        }
    }
    /// "Pass the phone to EW · pair 7": who answers an entry.
    fn answering(&self) -> String {
        match self.entered_line() {
            Some(Line::Ns) => self.line_and_pair(Line::Ew),
            Some(Line::Ew) => self.line_and_pair(Line::Ns),
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
    fn ew_label(&self) -> &'static str {
        line_label(Line::Ew, self.ctx.lang)
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
            && self.v.entry_version.is_some()
            && self.entered_line().is_some()
    }
    /// The result counts (or the round is over): the table's result and
    /// where each pair plays next.
    fn is_done(&self) -> bool {
        matches!(self.v.status, TableStatus::Confirmed | TableStatus::Closed)
    }
    fn has_errors(&self) -> bool {
        !self.field_errors.is_empty()
            || !self.sheet_errors.is_empty()
            || self.hands.iter().any(|h| {
                !h.end_errors.is_empty()
                    || h.lines.iter().any(|l| {
                        !l.errors.is_empty() || l.boxes.iter().any(|b| !b.errors.is_empty())
                    })
            })
    }
    fn result(&self) -> Option<(i64, i64, u8, u8)> {
        self.v
            .report
            .as_ref()
            .map(|r| (r.totals.ns, r.totals.ew, r.vp.ns, r.vp.ew))
    }
    /// The public standings and pair cards (no login).
    fn standings_href(&self) -> String {
        format!("/t/{}", self.v.l.t.id)
    }
    fn pair_href(&self, p: &PairRow) -> String {
        format!("/t/{}/pairs/{}", self.v.l.t.id, p.number)
    }
}

/// A fresh idempotency key (random, URL-safe).
fn fresh_key() -> String {
    uuid::Uuid::new_v4().simple().to_string()
}

/// Where each pair of the table plays next, in words.
fn next_views(v: &TableView, lang: Lang) -> Vec<NextView> {
    let Some(round) = v.next_round else {
        return Vec::new();
    };
    v.next
        .iter()
        .map(|n| NextView {
            pair: n.pair,
            text: match n.seat {
                Some((table, line)) => tf(
                    lang,
                    "table.next.seat",
                    &[
                        ("pair", &n.pair),
                        ("round", &round),
                        ("table", &table),
                        ("line", &line_label(line, lang)),
                    ],
                ),
                None => tf(
                    lang,
                    "table.next.rest",
                    &[("pair", &n.pair), ("round", &round)],
                ),
            },
        })
        .collect()
}

/// What a page shows besides the table's state.
#[derive(Default)]
struct Extras {
    /// The form as posted (a refused entry keeps everything typed, the
    /// pair code included).
    form: Option<SheetForm>,
    report: Option<SheetReport>,
    /// The parser's problems, by box.
    problems: Vec<(String, String)>,
    field_errors: FieldErrors,
    message: Option<String>,
    notice: Option<&'static str>,
    /// The key of the refused submission: correcting and sending again is
    /// a new submission only when the sheet changed (a new page, a new key).
    sheet_key: Option<String>,
    answer_code: String,
}

fn page(
    ctx: &PageCtx,
    v: &TableView,
    status: StatusCode,
    x: Extras,
) -> Result<HttpResponse, AppError> {
    let lang = ctx.lang;
    let hands = v.l.settings.hands_per_round as usize;
    let fresh = x.form.is_none();
    let form = x.form.unwrap_or_else(|| {
        // Entering again starts from the sheet entered; a first entry from
        // a blank card in the tournament's mode.
        match (&v.sheet, v.status) {
            (Some(s), TableStatus::Entered | TableStatus::Disputed) => SheetForm::from_sheet(s),
            _ => {
                let mut f = SheetForm::default();
                f.set("mode", v.l.settings.sheet_mode.code());
                f
            }
        }
    });
    let mode = form.mode();
    let mut placed = Placed::default();
    if let Some(r) = &x.report {
        placed.violations(r, mode, lang);
    }
    for (field, msg) in x.problems {
        placed.add(&field, msg);
    }
    let card = score_card(v.l.settings.profile, mode);
    let live = crate::services::scoring::read_form(&v.l, &form);
    let hand_views = hand_views(lang, &card, hands, &form, None, &mut placed, live.as_ref());
    let mut field_errors = x.field_errors;
    for f in ["declared_ns", "declared_ew"] {
        if let Some(msgs) = placed.boxes.remove(f) {
            field_errors.add(f, msgs.join(" "));
        }
    }
    // Anything not shown next to a box of this card.
    let mut sheet_errors = placed.sheet;
    sheet_errors.extend(placed.boxes.into_values().flatten());
    sheet_errors.extend(placed.lines.into_values().flatten());
    let read = match (&v.sheet, &v.report) {
        (Some(sheet), Some(report)) => read_hands(
            lang,
            &score_card(v.l.settings.profile, sheet.mode),
            sheet,
            report,
        ),
        _ => Vec::new(),
    };
    let mut res = render_status(
        &PlayerPage {
            ctx,
            v,
            totals: mode == SheetMode::Totals,
            form,
            ends: end_views(lang),
            hands: hand_views,
            sheet_errors,
            field_errors,
            message: x.message,
            notice: x.notice,
            read,
            sheet_key: x.sheet_key.unwrap_or_else(fresh_key),
            answer_key: fresh_key(),
            answer_code: x.answer_code,
            next: next_views(v, lang),
            fresh,
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
    let round = web_query_value(req.query_string(), "round").and_then(|r| r.parse().ok());
    let v = ts::table_view_of(&state.db, path.into_inner(), round)
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
            x.message = Some(tf(
                lang,
                "table.error.throttled_wait",
                &[("minutes", &wait_seconds.div_ceil(60).max(1))],
            ));
            x.field_errors
                .add(code_field, t(lang, "table.error.throttled").to_string());
            let mut res = page(ctx, &v, StatusCode::TOO_MANY_REQUESTS, x)?;
            if let Ok(h) = HeaderValue::from_str(&wait_seconds.to_string()) {
                res.headers_mut().insert(header::RETRY_AFTER, h);
            }
            return Ok(res);
        }
        TableSideError::Conflict("entry_changed") if code_field == "answer_code" => {
            // The entry changed since this pair read it: the page again
            // with the new entry to read, nothing confirmed.
            x.message = Some(t(lang, "table.error.entry_changed_read_again").to_string());
            StatusCode::CONFLICT
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
                if p.field.starts_with('h') {
                    x.problems.push((p.field.to_string(), p.message(lang)));
                } else {
                    x.field_errors.add(p.field, p.message(lang));
                }
            }
            StatusCode::UNPROCESSABLE_ENTITY
        }
        TableSideError::Replay | TableSideError::Service(_) => return Err(view_error(e)),
    };
    page(ctx, &v, status, x)
}

/// `POST /s/{table_code}/sheet`: the sheet form (no JavaScript needed). A
/// sheet accepted redirects (a reload does not send it again); a refused
/// one comes back with everything typed, the pair code included.
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
    let mut problems = Vec::new();
    let sheet = form.parse(hands, v.l.settings.profile).map_err(|found| {
        for p in &found {
            problems.push((p.field.clone(), t(ctx.lang, p.key).to_string()));
        }
        InputError {
            code: "invalid_field",
            message: found
                .iter()
                .map(|p| t(ctx.lang, p.key))
                .collect::<Vec<_>>()
                .join(" "),
        }
    });
    let key_text = form.get("idempotency_key").to_string();
    let result = match ts::parse_idempotency_key(&key_text) {
        Ok(key) => {
            ts::enter_sheet(
                &state.db,
                code.clone(),
                form.get("pair_code").to_string(),
                form.get("round").trim().parse().ok(),
                sheet,
                key,
                client(&req, &state),
            )
            .await
        }
        Err(e) => Err(e),
    };
    match result {
        Ok(_) => Ok(see_other(&format!("/s/{}?ok=entered", v.code))),
        Err(e) => {
            let x = Extras {
                sheet_key: (!key_text.trim().is_empty()).then(|| key_text.trim().to_string()),
                form: Some(form),
                problems,
                ..Extras::default()
            };
            refused(&ctx, &state, code, e, x, "pair_code").await
        }
    }
}

/// `POST /s/{table_code}/confirm`: the other pair confirms (`agree=yes`) or
/// disputes (`agree=no`, with a note) the entry it read (`entry_version`).
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
    let answer_code = form.get("answer_code").to_string();
    let result = match ts::parse_idempotency_key(form.get("idempotency_key")) {
        Ok(key) => {
            let answer = ts::Answer {
                agree,
                entry_version: form.get("entry_version").trim().parse().ok(),
                note: form.get("note").to_string(),
                idempotency_key: key,
            };
            ts::confirm(
                &state.db,
                code.clone(),
                answer_code.clone(),
                form.get("round").trim().parse().ok(),
                answer,
                client(&req, &state),
            )
            .await
        }
        Err(e) => Err(e),
    };
    match result {
        // The page stays on the round answered (after the next round is
        // drawn it shows where each pair goes).
        Ok(o) => Ok(see_other(&format!(
            "/s/{}?ok={}&round={}",
            crate::db::table_side::normalize_code(&code),
            o.status.code(),
            o.round
        ))),
        Err(e) => {
            let x = Extras {
                answer_code,
                ..Extras::default()
            };
            refused(&ctx, &state, code, e, x, "answer_code").await
        }
    }
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
