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
use crate::i18n::{t, tf, Lang};
use crate::rules::{Line, PerLine, SheetMode, SheetReport, ViolationCode};
use crate::services::scoring::{AdjustedForm, PenaltyForm, SheetInput, TableAudit, TableState};
use crate::services::view::AuditEntry;
use crate::services::view::Pair;
use crate::services::view::Penalty;
use crate::services::view::Sheet;
use crate::services::view::{Round, Seating};
use crate::services::{self, Actor, Conflict, Loaded, ServiceError};
use crate::tournament::sheet_form::{card_rows, field_name, score_card, CardRow, SheetForm};
use crate::tournament::FieldProblem;
use crate::web::score_card::{
    end_views, hand_views, line_label, read_hands, EndView, HandView, Placed, ReadHand,
};

// ---- the round at the desk ----

pub mod audit;
pub mod cards;
pub mod penalties;
pub mod round;
pub mod save;
pub mod sheet;

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

/// Why a table's counted result differs from its sheet: "1090 → 990 after
/// penalty −100 to pair 3".
fn penalty_note(lang: Lang, p: &services::board::LinePenalty) -> String {
    tf(
        lang,
        "entries.desk.after_penalty",
        &[
            ("before", &crate::i18n::format::integer(lang, p.before)),
            ("after", &crate::i18n::format::integer(lang, p.after)),
            ("amount", &crate::i18n::format::integer(lang, p.amount)),
            ("pair", &p.pair),
        ],
    )
}

pub fn mismatch_note(lang: Lang, row: &Sheet) -> Option<String> {
    row.accepted_mismatch
        .then(|| tf(lang, "sheet.accepted_mismatch", &[("reason", &row.note)]))
}

/// Used by templates: the violation code that a referee may accept.
pub const ACCEPTABLE: ViolationCode = ViolationCode::DeclaredTotalMismatch;
