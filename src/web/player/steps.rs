//! After a refused send (issue 31): one banner names every step of the
//! phone's form that holds an error ("Smazzata 1 · Smazzata 2 · Totali"),
//! each a link to its step (the step's fieldset id). Without JavaScript
//! every step is on the page anyway; with it, the link shows that step.

use crate::i18n::{t, Lang};
use crate::web::context::FieldErrors;
use crate::web::score_card::HandView;

/// A step of the form with an error: its fieldset id and its name.
pub struct StepLink {
    pub id: String,
    pub label: String,
}

/// A hand shows an error somewhere (its end, a line, a box).
pub fn hand_has_error(h: &HandView) -> bool {
    !h.end_errors.is_empty()
        || h.lines
            .iter()
            .any(|l| !l.errors.is_empty() || l.boxes.iter().any(|b| !b.errors.is_empty()))
}

/// The fields of the last step (the totals and the code).
const FINISH_FIELDS: [&str; 3] = ["declared_ns", "declared_ew", "pair_code"];

/// Every step with an error, in the form's order.
pub fn error_steps(
    lang: Lang,
    hands: &[HandView],
    sheet_errors: &[String],
    field_errors: &FieldErrors,
) -> Vec<StepLink> {
    let mut out: Vec<StepLink> = hands
        .iter()
        .filter(|h| hand_has_error(h))
        .map(|h| StepLink {
            id: format!("hand-{}", h.n),
            label: format!("{} {}", t(lang, "sheet.hand"), h.n),
        })
        .collect();
    if !sheet_errors.is_empty() || FINISH_FIELDS.iter().any(|f| field_errors.get(f).is_some()) {
        out.push(StepLink {
            id: "finish".into(),
            label: t(lang, "sheet.totals").to_string(),
        });
    }
    out
}
