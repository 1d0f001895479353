//! The player's page at the table (`/s/{code}`, a phone, no login, works
//! without JavaScript): the one score card as a form a hand at a time, the
//! entry read in full by the other pair before it confirms, the table's
//! result and where each pair plays next. The pair code typed into each
//! request is the credential; no cookie is read or set here.

#![allow(unused_imports)]

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
use crate::rules::{Line, RuleProfile, ScoreSheet, SheetMode, SheetReport};
use crate::services::table_side::submit::{self as ts_submit, Answer, Outcome};
use crate::services::table_side::view::SeatedPair;
use crate::services::table_side::view::{self as ts_view, TableView};
use crate::services::table_side::{PairCode, TableCode, TableStatus};
use crate::services::{Refusal, ServiceError};
use crate::tournament::sheet_form::{score_card, SheetForm};
use crate::web::context::{web_query_value, FieldErrors, PageCtx};
use crate::web::doors::client_ip;
use crate::web::error::AppError;
use crate::web::score_card::{
    end_views, hand_views, line_label, read_hands, EndView, HandView, Placed, ReadHand,
};
use crate::web::{render_status, see_other, AppState};

pub mod finals;
pub mod live;
pub mod steps;

use finals::{next_views, FinalView, NextView};
use live::view_error;
use steps::StepLink;

// ---- the player's page ----

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
    /// After a refused send: every step with an error (one banner).
    error_steps: Vec<StepLink>,
    /// The tournament is closed: the final place and prize of each pair.
    finals: Option<Vec<FinalView>>,
}

impl PlayerPage<'_> {
    fn status_label(&self) -> &'static str {
        if self.finals.is_some() {
            return t(self.ctx.lang, "table.status.finished");
        }
        t(
            self.ctx.lang,
            &format!("table.status.{}", self.v.status.code()),
        )
    }
    /// The line that entered the sheet and the one that answers.
    fn entered_line(&self) -> Option<Line> {
        self.v.entered_by.and_then(|side| side.line())
    }
    fn line_pair(&self, line: Line) -> Option<&SeatedPair> {
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
        match (self.v.entered_by, self.entered_line()) {
            (Some(crate::services::view::EntrySide::Desk), _) => {
                t(self.ctx.lang, "table.page.entered_by_desk").to_string()
            }
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
    fn pair_label(&self, p: &SeatedPair) -> String {
        tf(self.ctx.lang, "table.page.pair", &[("pair", &p.number)])
    }
    fn names(&self, p: &SeatedPair) -> String {
        p.names.clone()
    }
    fn ew_label(&self) -> &'static str {
        line_label(Line::Ew, self.ctx.lang)
    }
    /// The form to enter (or enter again) is shown.
    fn can_enter(&self) -> bool {
        matches!(self.v.status, TableStatus::Open | TableStatus::Entered)
    }
    /// The other pair disputed the entry: the referee decides, the phone
    /// offers neither a confirmation nor a new entry.
    fn is_disputed(&self) -> bool {
        self.v.status == TableStatus::Disputed
    }
    /// The confirm / dispute choice is shown.
    fn can_answer(&self) -> bool {
        self.v.status == TableStatus::Entered
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
            || self.hands.iter().any(steps::hand_has_error)
    }
    fn final_title(&self) -> &'static str {
        finals::title(self.ctx.lang)
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
    fn pair_href(&self, p: &SeatedPair) -> String {
        format!("/t/{}/pairs/{}", self.v.l.t.id, p.number)
    }
}

/// A fresh idempotency key (random, URL-safe).
fn fresh_key() -> String {
    uuid::Uuid::new_v4().simple().to_string()
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
    finals: Option<Vec<FinalView>>,
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
    // The same verdict as the submission's (the engine and the table's
    // rules): a hand that breaks one shows no total.
    let live = crate::services::table_side::judge::judge_form(v, &form)
        .ok()
        .map(|j| j.report);
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
    let error_steps = if fresh {
        Vec::new()
    } else {
        steps::error_steps(lang, &hand_views, &sheet_errors, &field_errors)
    };
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
            error_steps,
            finals: x.finals,
        },
        status,
    )?;
    crate::web::no_store(&mut res);
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
    crate::web::no_store(&mut res);
    Ok(res)
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
    let v = ts_view::table_view_of(&state.db, TableCode::parse(&path), round)
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
    let finals = finals::finals(&state, ctx.lang, &v).await?;
    page(
        &ctx,
        &v,
        StatusCode::OK,
        Extras {
            notice,
            finals,
            ..Extras::default()
        },
    )
}

/// A refused form: the page again with the message where it belongs.
async fn refused(
    ctx: &PageCtx,
    state: &AppState,
    code: TableCode,
    e: ServiceError,
    mut x: Extras,
    code_field: &'static str,
) -> Result<HttpResponse, AppError> {
    let v = ts_view::table_view(&state.db, code)
        .await
        .map_err(view_error)?;
    if !v.table_entry() {
        return off_page(ctx, &v);
    }
    let lang = ctx.lang;
    x.finals = finals::finals(state, lang, &v).await?;
    let status = match &e {
        ServiceError::Throttled { wait_seconds } => {
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
        ServiceError::Conflict(c) => match c.refusal() {
            Some(Refusal::TableNotFound) => return Err(AppError::NotFound),
            Some(r @ (Refusal::PairCodeWrong | Refusal::SamePair)) => {
                x.field_errors.add(code_field, t(lang, r.key()));
                StatusCode::FORBIDDEN
            }
            // The entry changed since this pair read it: the page again
            // with the new entry to read, nothing confirmed.
            Some(Refusal::EntryChanged) if code_field == "answer_code" => {
                x.message = Some(t(lang, "table.error.entry_changed_read_again").to_string());
                StatusCode::CONFLICT
            }
            _ => {
                x.message = Some(c.message(lang));
                StatusCode::CONFLICT
            }
        },
        ServiceError::Sheet(r) => {
            x.message = Some(t(lang, "table.error.sheet").to_string());
            x.report = Some(r.report.clone());
            StatusCode::UNPROCESSABLE_ENTITY
        }
        ServiceError::Unreadable(_) => {
            x.message = Some(t(lang, "table.error.sheet").to_string());
            StatusCode::UNPROCESSABLE_ENTITY
        }
        ServiceError::Invalid(problems) => {
            for p in problems {
                if p.field.starts_with('h') {
                    x.problems.push((p.field.to_string(), p.message(lang)));
                } else {
                    x.field_errors.add(p.field, p.message(lang));
                }
            }
            StatusCode::UNPROCESSABLE_ENTITY
        }
        _ => return Err(view_error(e)),
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
    let code = TableCode::parse(&path);
    let form = SheetForm::from_pairs(body.into_inner());
    let v = ts_view::table_view(&state.db, code.clone())
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
    let result = match ts_submit::parse_idempotency_key(&key_text) {
        Ok(key) => {
            ts_submit::enter_sheet(
                &state.db,
                code.clone(),
                PairCode::parse(form.get("pair_code")),
                form.get("round").trim().parse().ok(),
                sheet,
                key,
                crate::web::client::client_addr(&req, state.settings.trust_forwarded_for),
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
    let code = TableCode::parse(&path);
    let form = SheetForm::from_pairs(body.into_inner());
    let agree = match form.get("agree") {
        "yes" | "true" | "on" => Some(true),
        "no" | "false" => Some(false),
        _ => None,
    };
    let answer_code = form.get("answer_code").to_string();
    let result = match ts_submit::parse_idempotency_key(form.get("idempotency_key")) {
        Ok(key) => {
            let answer = Answer {
                agree,
                entry_version: form.get("entry_version").trim().parse().ok(),
                note: form.get("note").to_string(),
                idempotency_key: key,
            };
            ts_submit::confirm(
                &state.db,
                code.clone(),
                PairCode::parse(&answer_code),
                form.get("round").trim().parse().ok(),
                answer,
                crate::web::client::client_addr(&req, state.settings.trust_forwarded_for),
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
            code,
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
        web::scope("/s")
            .route(
                crate::web::registry::noted("GET", "/s", "/{code}"),
                web::get().to(page_view),
            )
            .route(
                crate::web::registry::noted("GET", "/s", "/{code}/preview"),
                web::get().to(live::page_preview),
            )
            .route(
                crate::web::registry::noted("POST", "/s", "/{code}/sheet"),
                web::post().to(page_sheet),
            )
            .route(
                crate::web::registry::noted("POST", "/s", "/{code}/confirm"),
                web::post().to(page_confirm),
            ),
    );
}
