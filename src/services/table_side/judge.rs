//! One verdict on a sheet entered at a table (issue 31, "the phone checks
//! as it is filled"): the submission refuses exactly what this refuses, and
//! the phone's live check (the preview, the hand totals of the page) shows
//! the same — the engine's `rules::check` and the table-side rule that a
//! hand ended by time-out needs time-out called in the round.

use super::view;
use crate::rules::{ScoreSheet, SheetReport};
use crate::services::entries::check;
use crate::services::{Loaded, ServiceError, SheetRejection};
use crate::tournament::sheet_form::{InputProblem, SheetForm};
use crate::tournament::FieldProblem;

/// The engine's report on a sheet and the table-side refusal, if any.
#[derive(Debug, Clone)]
pub struct Verdict {
    pub report: SheetReport,
    /// A hand ended by time-out in a round without time-out called (the
    /// referee decides): the field of that hand's end.
    pub time_out: Option<FieldProblem>,
}

impl Verdict {
    /// The submission would take this sheet.
    pub fn accepted(&self) -> bool {
        !self.report.has_violations() && self.time_out.is_none()
    }

    /// The submission's answer: the report when the sheet is taken, else
    /// the refusal (the rules first, then the time-out).
    pub fn into_result(self) -> Result<SheetReport, ServiceError> {
        if self.report.has_violations() {
            return Err(ServiceError::Sheet(Box::new(SheetRejection {
                report: self.report,
                problems: Vec::new(),
            })));
        }
        match self.time_out {
            Some(p) => Err(ServiceError::Invalid(vec![p])),
            None => Ok(self.report),
        }
    }
}

/// The verdict on `sheet` at a table of `l` in a round where time-out was
/// called or not.
pub fn judge(l: &Loaded, time_out_called: bool, sheet: &ScoreSheet) -> Verdict {
    Verdict {
        report: check(l, sheet),
        time_out: time_out_not_called(time_out_called, sheet),
    }
}

/// The verdict on a phone's form at the table `v` (its round), or the boxes
/// that are not even numbers.
pub fn judge_form(v: &view::TableView, form: &SheetForm) -> Result<Verdict, Vec<InputProblem>> {
    let sheet = form.parse(v.l.settings.hands_per_round as usize, v.l.settings.profile)?;
    Ok(judge(&v.l, v.time_out_called, &sheet))
}

/// The time-out end of hand of a sheet entered at the table when the round
/// had no time-out called: the referee decides (the desk may accept it with
/// a reason).
fn time_out_not_called(called: bool, sheet: &ScoreSheet) -> Option<FieldProblem> {
    if called {
        return None;
    }
    let n = sheet
        .hands
        .iter()
        .position(|h| h.end == crate::rules::HandEnd::TimeOut)?;
    const ENDS: [&str; 8] = [
        "h1_end", "h2_end", "h3_end", "h4_end", "h5_end", "h6_end", "h7_end", "h8_end",
    ];
    Some(FieldProblem::new(
        ENDS.get(n).copied().unwrap_or("sheet"),
        "table.error.time_out_not_called",
    ))
}
