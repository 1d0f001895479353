//! Table-side scoring as JSON (`/api/v1/score/{code}…`): a phone or a
//! program enters its table's sheet and the other pair confirms it, the
//! pair code as the credential. No cookie is read or set on these paths and
//! their POSTs need no CSRF token (`middleware::cookieless`).

#![allow(unused_imports)]

use crate::ids::TournamentId;
use std::net::IpAddr;

use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::web::{self, Bytes};
use actix_web::{HttpRequest, HttpResponse};
use askama::Template;
use serde::Deserialize;
use serde_json::{json, Map, Value};

use crate::i18n::{t, tf, Lang};
use crate::rules::api::{parse_json, CheckSheetOutput, InputError};
use crate::rules::{Line, PerLine, RuleProfile, ScoreSheet, SheetMode, SheetReport};
use crate::services::table_side::submit::{self as ts_submit, Answer, Outcome};
use crate::services::table_side::view::SeatedPair;
use crate::services::table_side::view::{self as ts_view, TableView};
use crate::services::table_side::{PairCode, TableCode, TableStatus};
use crate::services::{Refusal, ServiceError};
use crate::tournament::sheet_form::{score_card, SheetForm};
use crate::web::client::client_ip;
use crate::web::context::{web_query_value, FieldErrors, PageCtx};
use crate::web::error::{AppError, ErrorCode};
use crate::web::score_card::{
    end_views, hand_views, line_label, read_hands, EndView, HandView, Placed, ReadHand,
};
use crate::web::{render_status, see_other, AppState};

// ---- JSON ----

fn json_reply(status: StatusCode, body: Value) -> HttpResponse {
    let mut res = HttpResponse::build(status).json(body);
    crate::web::no_store(&mut res);
    res
}

/// The violations of a refused sheet, as `checkSheet` lists them.
fn violations(e: &ServiceError, lang: Lang) -> Value {
    let ServiceError::Sheet(r) = e else {
        return Value::Null;
    };
    let out =
        CheckSheetOutput::from_report(r.report.clone(), RuleProfile::default_profile(), 0, lang);
    serde_json::to_value(&out.violations).unwrap_or(Value::Null)
}

/// The code of a table-side error (and so its one status): the table
/// side's dialect of the API's errors (a missing table, an invalid field,
/// a sheet with its violations).
fn error_code(e: &ServiceError) -> ErrorCode {
    match e {
        ServiceError::NotFound => ErrorCode::Refused(Refusal::TableNotFound),
        ServiceError::Throttled { .. } => ErrorCode::TooManyAttempts,
        ServiceError::Conflict(c) => ErrorCode::of_conflict(c),
        // A concurrent twin stored its answer first: the entry changed.
        ServiceError::Replay => ErrorCode::Refused(Refusal::EntryChanged),
        ServiceError::Sheet(_) => ErrorCode::SheetBreaksRules,
        ServiceError::Unreadable(i) => ErrorCode::of_rules(i.code),
        ServiceError::Invalid(_) => ErrorCode::InvalidField,
        _ => ErrorCode::Internal,
    }
}

/// A table-side refusal as `{"error":{"code","message",…}}`, in the
/// request's language.
fn api_error(e: ServiceError, lang: Lang) -> HttpResponse {
    let code = error_code(&e);
    let status = code.status();
    let mut error = Map::new();
    error.insert("code".into(), Value::from(code.code().into_owned()));
    let message = match &e {
        ServiceError::Sheet(_) => {
            let v = violations(&e, lang);
            error.insert("violations".into(), v);
            t(lang, "table.error.sheet").to_string()
        }
        ServiceError::Unreadable(i) => i.message.clone(),
        ServiceError::Invalid(problems) => {
            let fields: Map<String, Value> = problems
                .iter()
                .map(|p| (p.field.to_string(), Value::from(p.message(lang))))
                .collect();
            error.insert("fields".into(), Value::Object(fields));
            problems
                .iter()
                .map(|p| p.message(lang))
                .collect::<Vec<_>>()
                .join(" ")
        }
        ServiceError::NotFound => t(lang, Refusal::TableNotFound.key()).to_string(),
        ServiceError::Replay => t(lang, Refusal::EntryChanged.key()).to_string(),
        ServiceError::Throttled { .. } => t(lang, "table.error.throttled").to_string(),
        ServiceError::Conflict(c) => c.message(lang),
        s => {
            tracing::error!(error = %s, "table-side request failed");
            t(lang, "error.internal.message").to_string()
        }
    };
    error.insert("message".into(), Value::from(message));
    let mut body = json!({ "error": Value::Object(error) });
    if let (ServiceError::Sheet(r), Some(m)) = (&e, body.as_object_mut()) {
        m.insert("violations".into(), violations(&e, lang));
        m.insert("totals".into(), json!(r.report.totals));
        m.insert("vp".into(), json!(r.report.vp));
    }
    let mut res = json_reply(status, body);
    if let ServiceError::Throttled { wait_seconds } = e {
        if let Ok(v) = HeaderValue::from_str(&wait_seconds.to_string()) {
            res.headers_mut().insert(header::RETRY_AFTER, v);
        }
    }
    res
}

/// A pair at the table.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
pub struct SeatedPairOut {
    pub pair: i32,
    /// "Rossi Maria – Bianchi Luca".
    pub names: String,
}

fn pair_out(p: Option<&SeatedPair>) -> Option<SeatedPairOut> {
    p.map(|p| SeatedPairOut {
        pair: p.number,
        names: p.names.clone(),
    })
}

/// The table as the table-side API shows it (`getTableScore`): its round,
/// pairs, state and the sheet entered with what the engine computes of it.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
pub struct TableScoreOut {
    pub tournament: TournamentId,
    pub round: i32,
    pub table: i32,
    pub ns: Option<SeatedPairOut>,
    pub ew: Option<SeatedPairOut>,
    /// `empty`, `entered`, `confirmed`, `disputed`…
    pub status: &'static str,
    /// `ns`, `ew` or `desk`.
    pub entered_by: Option<&'static str>,
    /// The sheet entered, as `checkSheet` takes it (FORMAT.md).
    pub sheet: Option<ScoreSheet>,
    pub totals: Option<PerLine<i64>>,
    /// The sheet's VP, or the adjusted score set at the desk.
    pub vp: Option<PerLine<i64>>,
    pub adjusted: bool,
    /// The entry's version: a confirmation names it.
    pub entry_version: Option<i32>,
    /// The dispute's note.
    pub note: Option<String>,
    pub hands_per_round: u32,
}

/// The table as JSON (the shape of issue 13's interface, plus what the
/// engine computes of the sheet).
pub fn view_out(v: &TableView) -> TableScoreOut {
    TableScoreOut {
        tournament: v.l.t.id,
        round: v.round,
        table: v.table_no,
        ns: pair_out(v.ns.as_ref()),
        ew: pair_out(v.ew.as_ref()),
        status: v.status.code(),
        entered_by: v.entered_by.map(|e| e.as_str()),
        sheet: v.sheet.clone(),
        totals: v.report.as_ref().map(|r| r.totals),
        vp: match (&v.report, v.adjusted) {
            (_, Some((ns, ew))) => Some(PerLine {
                ns: i64::from(ns),
                ew: i64::from(ew),
            }),
            (Some(r), None) => Some(PerLine {
                ns: i64::from(r.vp.ns),
                ew: i64::from(r.vp.ew),
            }),
            (None, None) => None,
        },
        adjusted: v.adjusted.is_some(),
        entry_version: v.entry_version,
        note: (!v.note.is_empty()).then(|| v.note.clone()),
        hands_per_round: v.l.settings.hands_per_round,
    }
}

/// `GET /api/v1/score/{table_code}`.
#[utoipa::path(get, path = "/api/v1/score/{code}", tag = "table-side", operation_id = "getTableScore",
    params(("code" = String, Path, description = "The table's code (on its card)")),
    responses((status = 200, description = "The table, its pairs and the sheet entered", body = TableScoreOut),
        (status = 404, description = "No such table", body = crate::web::api::reply::ErrorBody),
        (status = 409, description = "Table-side entry is off", body = crate::web::api::reply::ErrorBody),
        (status = 429, description = "Too many wrong codes: wait", body = crate::web::api::reply::ErrorBody)))]
pub async fn api_view(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> HttpResponse {
    match ts_view::table_view(&state.db, TableCode::parse(&path)).await {
        Ok(v) if !v.table_entry() => api_error(Refusal::TableEntryOff.into(), ctx.lang),
        Ok(v) => json_reply(StatusCode::OK, json!(view_out(&v))),
        Err(e) => api_error(e, ctx.lang),
    }
}

/// The fields every score POST may carry (`submitTableSheet`: `pair_code`,
/// `round`, `sheet`; `confirmTableSheet`: `pair_code`, `agree`,
/// `entry_version`, `note`); the rest is read per endpoint.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct ScoreBody {
    /// The pair's private 6-digit code (text or number).
    #[serde(default)]
    #[schema(value_type = String)]
    pair_code: Value,
    /// The round the client scores: required by `submitTableSheet` (the
    /// round of `getTableScore`; a sheet is filed only under the round it
    /// names, 409 `round_closed` once that round is over), optional for
    /// `confirmTableSheet` (the pair's last round at the table).
    #[serde(default)]
    round: Option<i32>,
    /// The sheet, as `checkSheet` takes it (`hands`, `declared`).
    #[serde(default)]
    #[schema(value_type = Option<ScoreSheet>)]
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
fn idempotency_of(req: &HttpRequest, body: &ScoreBody) -> Result<Option<String>, ServiceError> {
    let header = req
        .headers()
        .get("idempotency-key")
        .and_then(|v| v.to_str().ok());
    ts_submit::parse_idempotency_key(header.or(body.idempotency_key.as_deref()).unwrap_or(""))
}

fn code_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => String::new(),
    }
}

fn read_body(body: &Bytes, lang: Lang) -> Result<ScoreBody, ServiceError> {
    let text = std::str::from_utf8(body).map_err(|_| {
        ServiceError::Unreadable(InputError {
            code: "invalid_json",
            message: t(lang, "error.bad_request.message").to_string(),
        })
    })?;
    parse_json::<ScoreBody>(text, lang).map_err(ServiceError::Unreadable)
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

/// What a submission or a confirmation did (`submitTableSheet`,
/// `confirmTableSheet`).
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
pub struct TableOutcomeOut {
    /// The table's state now: `entered`, `confirmed`, `disputed`.
    pub status: &'static str,
    pub round: i32,
    pub table: i32,
    /// `ns` or `ew`: who acted.
    pub by: &'static str,
    /// Who entered the sheet, when it waits for the other pair.
    pub entered_by: Option<&'static str>,
    /// The entry replaced an earlier one.
    pub replaced: bool,
    pub entry_version: Option<i32>,
    pub totals: Option<PerLine<i64>>,
    pub vp: Option<PerLine<u8>>,
}

fn outcome_out(o: &Outcome) -> TableOutcomeOut {
    TableOutcomeOut {
        status: o.status.code(),
        round: o.round,
        table: o.table_no,
        by: o.by.code(),
        entered_by: (o.status == TableStatus::Entered).then(|| o.by.code()),
        replaced: o.replaced,
        entry_version: o.entry_version,
        totals: o.totals,
        vp: o.vp,
    }
}

/// An unreadable body: 404 when the table does not exist either.
async fn unreadable(
    state: &AppState,
    code: TableCode,
    e: ServiceError,
    lang: Lang,
) -> HttpResponse {
    match ts_view::table_view(&state.db, code).await {
        Err(nf) if nf.refusal() == Some(Refusal::TableNotFound) => api_error(nf, lang),
        _ => api_error(e, lang),
    }
}

/// A table's request as sent: the table's code, the body and its
/// idempotency key; else the answer (an unreadable body, a bad key).
async fn read_request(
    state: &AppState,
    req: &HttpRequest,
    path: &str,
    body: &Bytes,
    lang: Lang,
) -> Result<(TableCode, ScoreBody, Option<String>), HttpResponse> {
    let code = TableCode::parse(path);
    let body = match read_body(body, lang) {
        Ok(b) => b,
        Err(e) => return Err(unreadable(state, code, e, lang).await),
    };
    let key = idempotency_of(req, &body).map_err(|e| api_error(e, lang))?;
    Ok((code, body, key))
}

/// `POST /api/v1/score/{table_code}/sheet`.
#[utoipa::path(post, path = "/api/v1/score/{code}/sheet", tag = "table-side", operation_id = "submitTableSheet",
    params(("code" = String, Path, description = "The table's code (on its card)")),
    request_body(content = ScoreBody, description = "`pair_code`, `round` (required: the round the sheet was played in) and the `sheet`",
        example = json!({"pair_code": "K7WQ", "round": 1, "sheet": {"hands": [{"end": "closure", "ns": {"clean": 1, "melded_points": 120, "closed": true, "took_pozzetto": true}, "ew": {"hand_points": 30, "took_pozzetto": true}}]}})),
    responses((status = 200, description = "Entered: the other pair confirms", body = TableOutcomeOut),
        (status = 400, description = "Not JSON", body = crate::web::api::reply::ErrorBody),
        (status = 403, description = "Wrong pair code", body = crate::web::api::reply::ErrorBody),
        (status = 404, description = "No such table", body = crate::web::api::reply::ErrorBody),
        (status = 409, description = "Not possible now (`round_closed`: the round named is over)", body = crate::web::api::reply::ErrorBody),
        (status = 413, description = "Body too large", body = crate::web::api::reply::ErrorBody),
        (status = 422, description = "The sheet breaks the rules, or `round_required`: no round named", body = crate::web::api::reply::ErrorBody),
        (status = 429, description = "Too many wrong codes: wait", body = crate::web::api::reply::ErrorBody)))]
pub async fn api_sheet(
    ctx: PageCtx,
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    body: Bytes,
) -> HttpResponse {
    let (code, body, key) = match read_request(&state, &req, &path, &body, ctx.lang).await {
        Ok(r) => r,
        Err(res) => return res,
    };
    // Without its round a sheet sent late would be filed under the round
    // drawn since: refused (422 `round_required`) once the code was
    // checked, as an unreadable sheet is.
    let sheet = match body.round {
        Some(_) => sheet_of(body.sheet, ctx.lang),
        None => Err(InputError {
            code: "round_required",
            message: t(ctx.lang, "table.api.round_required").to_string(),
        }),
    };
    let result = ts_submit::enter_sheet(
        &state.db,
        code,
        PairCode::parse(&code_text(&body.pair_code)),
        body.round,
        sheet,
        key,
        crate::web::client::client_addr(&req, state.settings.trust_forwarded_for),
    )
    .await;
    match result {
        Ok(o) => json_reply(StatusCode::OK, json!(outcome_out(&o))),
        Err(e) => api_error(e, ctx.lang),
    }
}

/// `POST /api/v1/score/{table_code}/confirm`.
#[utoipa::path(post, path = "/api/v1/score/{code}/confirm", tag = "table-side", operation_id = "confirmTableSheet",
    params(("code" = String, Path, description = "The table's code (on its card)")),
    request_body(content = ScoreBody, description = "`pair_code` of the other pair, `agree`, `entry_version` (the version of the entry it read, from `getTableScore`; required), `note` (required to dispute); optional `idempotency_key` (or the `Idempotency-Key` header)",
        example = json!({"pair_code": "551903", "agree": true, "entry_version": 1})),
    responses((status = 200, description = "Confirmed (or disputed)", body = TableOutcomeOut),
        (status = 400, description = "Not JSON", body = crate::web::api::reply::ErrorBody),
        (status = 403, description = "Wrong pair code", body = crate::web::api::reply::ErrorBody),
        (status = 404, description = "No such table", body = crate::web::api::reply::ErrorBody),
        (status = 409, description = "Not possible now (`entry_changed`: the entry is not the one read)", body = crate::web::api::reply::ErrorBody),
        (status = 413, description = "Body too large", body = crate::web::api::reply::ErrorBody),
        (status = 422, description = "Invalid input (`entry_version` missing…)", body = crate::web::api::reply::ErrorBody),
        (status = 429, description = "Too many wrong codes: wait", body = crate::web::api::reply::ErrorBody)))]
pub async fn api_confirm(
    ctx: PageCtx,
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    body: Bytes,
) -> HttpResponse {
    let (code, body, key) = match read_request(&state, &req, &path, &body, ctx.lang).await {
        Ok(r) => r,
        Err(res) => return res,
    };
    let answer = Answer {
        agree: body.agree,
        entry_version: body.entry_version,
        note: body.note.unwrap_or_default(),
        idempotency_key: key,
    };
    let result = ts_submit::confirm(
        &state.db,
        code,
        PairCode::parse(&code_text(&body.pair_code)),
        body.round,
        answer,
        crate::web::client::client_addr(&req, state.settings.trust_forwarded_for),
    )
    .await;
    match result {
        Ok(o) => json_reply(StatusCode::OK, json!(outcome_out(&o))),
        Err(e) => api_error(e, ctx.lang),
    }
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::scope("/api/v1/score")
            .app_data(web::PayloadConfig::new(crate::web::limits::SCORE_JSON))
            .route(
                crate::web::registry::noted("GET", "/api/v1/score", "/{code}"),
                web::get().to(api_view),
            )
            .route(
                crate::web::registry::noted("POST", "/api/v1/score", "/{code}/sheet"),
                web::post().to(api_sheet),
            )
            .route(
                crate::web::registry::noted("POST", "/api/v1/score", "/{code}/confirm"),
                web::post().to(api_confirm),
            ),
    );
}
