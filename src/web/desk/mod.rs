//! The scoring desk (referees and directors): each round's tables, the
//! score-sheet form checked by the rules engine, adjusted scores, penalties
//! and the audit log. The `/desk` scope is role-guarded (referee and up);
//! each handler parses, calls one service, renders.

use crate::i18n::{tf, Lang};
use crate::rules::{SheetMode, ViolationCode};
use crate::services::view::Sheet;
use crate::services::{self};

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
