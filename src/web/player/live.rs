//! The phone's live check (issue 31): `GET /s/{code}/preview` answers, for
//! the form as typed, what the submission would answer — the same verdict
//! (`services::table_side::judge`): each hand's totals only when the hand
//! breaks no rule, else its messages, placed by line; the round's totals
//! and VP only when the whole sheet would be taken. In totals mode it also
//! proposes each unchosen end of hand from the two totals typed.

use actix_web::http::header;
use actix_web::{web, HttpResponse};
use serde::Serialize;

use crate::i18n::{t, Lang};
use crate::rules::{Line, PerLine};
use crate::services::table_side::judge::judge_form;
use crate::services::table_side::view::{self as ts_view, TableView};
use crate::services::table_side::TableCode;
use crate::services::{Refusal, ServiceError};
use crate::tournament::sheet_form::SheetForm;
use crate::web::context::PageCtx;
use crate::web::error::AppError;
use crate::web::AppState;

/// The messages of one hand, where the phone shows them.
#[derive(Debug, Default, Serialize)]
pub struct HandErrors {
    /// Beside each line's total (in its place).
    pub ns: Vec<String>,
    pub ew: Vec<String>,
    /// Beside the end of hand (the whole hand).
    pub end: Vec<String>,
}

impl HandErrors {
    pub fn is_empty(&self) -> bool {
        self.ns.is_empty() && self.ew.is_empty() && self.end.is_empty()
    }
    fn line(&mut self, line: Line) -> &mut Vec<String> {
        match line {
            Line::Ns => &mut self.ns,
            Line::Ew => &mut self.ew,
        }
    }
}

/// One hand of the form as the engine reads it.
#[derive(Debug, Default, Serialize)]
pub struct HandCheck {
    /// Each line's hand score, only when the hand breaks no rule.
    pub ns: Option<i64>,
    pub ew: Option<i64>,
    pub errors: HandErrors,
    /// Totals mode: the end of hand proposed (`closure_ns`…) while none is
    /// chosen.
    pub suggest: Option<&'static str>,
}

/// The answer of the preview.
#[derive(Debug, Serialize)]
pub struct LiveCheck {
    /// The submission would take this sheet.
    pub ok: bool,
    /// Every hand of the round, in order.
    pub hands: Vec<HandCheck>,
    /// The round's totals and VP, only when `ok`.
    pub totals: Option<PerLine<i64>>,
    pub vp: Option<PerLine<u8>>,
    /// What concerns the whole sheet (hands missing, written totals).
    pub errors: Vec<String>,
}

/// Hand `n` and the line of a form field (`h2_ew_total` → (2, EW)).
fn field_place(field: &str) -> Option<(usize, Option<Line>)> {
    let rest = field.strip_prefix('h')?;
    let (n, tail) = rest.split_once('_')?;
    let n: usize = n.parse().ok()?;
    let line = if tail.starts_with("ns_") {
        Some(Line::Ns)
    } else if tail.starts_with("ew_") {
        Some(Line::Ew)
    } else {
        None
    };
    Some((n, line))
}

/// A message about a form field, by its hand and line (or the sheet's).
fn place(hands: &mut [HandCheck], errors: &mut Vec<String>, field: &str, msg: String) {
    let hand =
        field_place(field).and_then(|(n, line)| Some((hands.get_mut(n.checked_sub(1)?)?, line)));
    match hand {
        Some((h, Some(line))) => h.errors.line(line).push(msg),
        Some((h, None)) => h.errors.end.push(msg),
        None => errors.push(msg),
    }
}

/// The verdict on `form` at the table `v`, in `lang`.
pub fn live_check(lang: Lang, v: &TableView, form: &SheetForm) -> LiveCheck {
    let count = v.l.settings.hands_per_round as usize;
    let mut hands: Vec<HandCheck> = (1..=count)
        .map(|n| HandCheck {
            suggest: form.suggested_end(n, v.l.settings.profile),
            ..HandCheck::default()
        })
        .collect();
    let mut errors = Vec::new();
    let mut out = LiveCheck {
        ok: false,
        hands: Vec::new(),
        totals: None,
        vp: None,
        errors: Vec::new(),
    };
    match judge_form(v, form) {
        Err(problems) => {
            for p in problems {
                place(
                    &mut hands,
                    &mut errors,
                    &p.field,
                    t(lang, p.key).to_string(),
                );
            }
        }
        Ok(verdict) => {
            let r = &verdict.report;
            for viol in &r.violations {
                let h = viol.hand.and_then(|n| hands.get_mut(n.checked_sub(1)?));
                match (h, viol.line) {
                    (Some(h), Some(line)) => h.errors.line(line).push(capital(&viol.body(lang))),
                    (Some(h), None) => h.errors.end.push(capital(&viol.body(lang))),
                    (None, _) => errors.push(viol.message(lang)),
                }
            }
            if let Some(p) = &verdict.time_out {
                place(&mut hands, &mut errors, p.field, p.message(lang));
            }
            for (h, score) in hands.iter_mut().zip(&r.hands) {
                if h.errors.is_empty() {
                    h.ns = Some(score.ns.total);
                    h.ew = Some(score.ew.total);
                }
            }
            if verdict.accepted() {
                out.ok = true;
                out.totals = Some(r.totals);
                out.vp = Some(r.vp);
            }
        }
    }
    // A hand whose end is proposed is not asked for its end: the phone
    // fills it in.
    for h in hands.iter_mut().filter(|h| h.suggest.is_some()) {
        h.errors.end.clear();
    }
    out.hands = hands;
    out.errors = errors;
    out
}

/// "la linea…" → "La linea…" (a message shown on its own).
fn capital(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// A table-side error as a page: a table that does not exist is the
/// plain not-found page.
pub fn view_error(e: ServiceError) -> AppError {
    match e.refusal() {
        Some(Refusal::TableNotFound) => AppError::NotFound,
        _ => e.into(),
    }
}

/// `GET /s/{table_code}/preview?<form>`: the live check of the phone's form
/// (read only; no code needed).
pub async fn page_preview(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<String>,
    query: web::Query<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    let v = ts_view::table_view(&state.db, TableCode::parse(&path))
        .await
        .map_err(view_error)?;
    let form = SheetForm::from_pairs(query.into_inner());
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(live_check(ctx.lang, &v, &form)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_names_its_hand_and_line() {
        assert_eq!(field_place("h2_ew_total"), Some((2, Some(Line::Ew))));
        assert_eq!(
            field_place("h1_ns_melded_points"),
            Some((1, Some(Line::Ns)))
        );
        assert_eq!(field_place("h3_end"), Some((3, None)));
        assert_eq!(field_place("declared_ns"), None);
        assert_eq!(capital("la linea"), "La linea");
    }
}
