//! The one score card on screen (issue 21): the desk's form, the phone's
//! form and the read-only sheet a confirming pair checks are all drawn
//! from `tournament::sheet_form::score_card` — the same end-of-hand
//! choices and rows, in the same order, with the same words and defaults
//! as the printed card. Both the desk and the table-side pages build their
//! hands here; the rules engine's messages are placed next to the box, the
//! line or the hand they concern.

use std::collections::HashMap;

use crate::i18n::{t, Lang};
use crate::rules::score_sheet::Param;
use crate::rules::{Line, ScoreSheet, SheetMode, SheetReport};
use crate::tournament::sheet_form::{
    end_label, field_name, RowKind, ScoreCard, SheetForm, END_CHOICES,
};

/// One box of the form (a number or a check box).
pub struct BoxView {
    pub name: String,
    pub label: &'static str,
    pub check: bool,
    pub value: String,
    /// The players' entry in this box, when the form corrects a pair's
    /// entry (the desk settling a dispute).
    pub was: Option<String>,
    /// The value differs from the players' entry.
    pub changed: bool,
    pub errors: Vec<String>,
    pub autofocus: bool,
    pub rare: bool,
}

/// One line of one hand in the form, with the messages that concern it.
pub struct LineView {
    /// `ns` or `ew`.
    pub line: &'static str,
    /// `NS`, `EO`/`EW` as the language writes it.
    pub label: &'static str,
    pub boxes: Vec<BoxView>,
    pub errors: Vec<String>,
    /// The engine's score of this line's hand, when the form reads.
    pub total: Option<i64>,
}

/// One hand in the form.
pub struct HandView {
    pub n: usize,
    /// The end-of-hand choice (`closure_ns`…, or empty).
    pub end: String,
    /// The players' choice, when the form shows another one (its label).
    pub end_was: Option<&'static str>,
    pub end_errors: Vec<String>,
    pub end_autofocus: bool,
    pub lines: [LineView; 2],
}

/// An end-of-hand choice and its label (the same words as the card).
pub struct EndView {
    pub code: &'static str,
    pub label: &'static str,
}

/// The end-of-hand choices of the card, with their labels.
pub fn end_views(lang: Lang) -> Vec<EndView> {
    END_CHOICES
        .iter()
        .map(|c| EndView {
            code: c,
            label: t(lang, &end_label(c)),
        })
        .collect()
}

/// A line's label in the language (`NS`; `EO` in Italian, `EW` in English).
pub fn line_label(line: Line, lang: Lang) -> &'static str {
    match line {
        Line::Ns => "NS",
        Line::Ew => Line::Ew.label(lang),
    }
}

/// Where a message goes: a box of the form, a line, or the whole sheet.
#[derive(Default)]
pub struct Placed {
    pub boxes: HashMap<String, Vec<String>>,
    pub lines: HashMap<(usize, Line), Vec<String>>,
    pub sheet: Vec<String>,
}

impl Placed {
    /// Messages for a named box (`h2_ns_clean`, `h1_end`, `declared_ns`…).
    pub fn add(&mut self, field: &str, msg: String) {
        self.boxes.entry(field.to_string()).or_default().push(msg);
    }

    /// Places the engine's violations: a box when the violation names a
    /// field, else the line, the hand's end, a written total, or the sheet.
    pub fn violations(&mut self, report: &SheetReport, mode: SheetMode, lang: Lang) {
        for v in &report.violations {
            let msg = v.message(lang);
            match (v.hand, v.line) {
                (Some(h), Some(line)) => {
                    let field = match (mode, v.param("field")) {
                        (SheetMode::Totals, _) => Some("total"),
                        (SheetMode::Full, Some(Param::Field(f))) => Some(*f),
                        _ => None,
                    };
                    match field {
                        Some(f) => self.add(&field_name(h, line, f), msg),
                        None => self.lines.entry((h, line)).or_default().push(msg),
                    }
                }
                (Some(h), None) => self.add(&format!("h{h}_end"), msg),
                (None, Some(line)) => self.add(&format!("declared_{}", line.code()), msg),
                (None, None) => self.sheet.push(msg),
            }
        }
    }
}

/// The hands of the card as a form: the values typed (`form`), the
/// players' entry to show changes against (`was`), the messages placed
/// (taken out of `placed`), and the engine's live hand totals.
pub fn hand_views(
    lang: Lang,
    card: &ScoreCard,
    hands: usize,
    form: &SheetForm,
    was: Option<&SheetForm>,
    placed: &mut Placed,
    live: Option<&SheetReport>,
) -> Vec<HandView> {
    (1..=hands)
        .map(|n| {
            let end_name = format!("h{n}_end");
            let end = form.end_choice(n);
            let lines = [Line::Ns, Line::Ew].map(|line| {
                let boxes = card
                    .rows
                    .iter()
                    .map(|r| {
                        let name = field_name(n, line, r.field);
                        let value = form.get(&name).to_string();
                        let was = was.map(|w| w.get(&name).to_string());
                        BoxView {
                            changed: was.as_ref().is_some_and(|w| !same_value(w, &value)),
                            was,
                            errors: placed.boxes.remove(&name).unwrap_or_default(),
                            label: t(lang, r.label),
                            check: r.kind == RowKind::Check,
                            autofocus: false,
                            rare: r.rare,
                            value,
                            name,
                        }
                    })
                    .collect();
                LineView {
                    line: line.code(),
                    label: line_label(line, lang),
                    boxes,
                    errors: placed.lines.remove(&(n, line)).unwrap_or_default(),
                    // A hand that breaks a rule has no total to show.
                    total: live
                        .filter(|r| !r.violations.iter().any(|v| v.hand == Some(n)))
                        .and_then(|r| r.hands.get(n.wrapping_sub(1)))
                        .map(|h| h.get(line).total),
                }
            });
            HandView {
                n,
                end_was: was
                    .map(|w| w.end_choice(n))
                    .filter(|w| *w != end)
                    .map(|w| end_text(lang, &w)),
                end,
                end_errors: placed.boxes.remove(&end_name).unwrap_or_default(),
                end_autofocus: false,
                lines,
            }
        })
        .collect()
}

/// An end-of-hand choice in the card's words (`—` for none).
fn end_text(lang: Lang, choice: &str) -> &'static str {
    if choice.is_empty() {
        t(lang, "deskentry.end.none")
    } else {
        t(lang, &end_label(choice))
    }
}

/// Two values of a box are the same entry (a blank box is 0 or unticked).
fn same_value(a: &str, b: &str) -> bool {
    let norm = |s: &str| match s.trim() {
        "" | "0" | "off" => String::new(),
        other => other.to_string(),
    };
    norm(a) == norm(b)
}

/// One line of a hand, read-only: its label, (label, value) cells in card
/// order, its total.
pub struct ReadLine {
    pub label: &'static str,
    pub cells: Vec<(&'static str, String)>,
    pub total: i64,
}

/// One hand of a sheet, read-only, with the engine's totals.
pub struct ReadHand {
    pub n: usize,
    /// The end of hand in the card's words.
    pub end: &'static str,
    pub lines: Vec<ReadLine>,
}

/// A sheet as the confirming pair (or the referee) reads it: every hand,
/// the card's rows in the card's order and words, each line's total. A
/// blank box stays blank, as on paper.
pub fn read_hands(
    lang: Lang,
    card: &ScoreCard,
    sheet: &ScoreSheet,
    report: &SheetReport,
) -> Vec<ReadHand> {
    let form = SheetForm::from_sheet(sheet);
    (1..=sheet.hands.len())
        .map(|n| ReadHand {
            n,
            end: t(lang, &end_label(&form.end_choice(n))),
            lines: [Line::Ns, Line::Ew]
                .into_iter()
                .map(|line| ReadLine {
                    label: line_label(line, lang),
                    cells: card
                        .rows
                        .iter()
                        .map(|r| {
                            let v = form.get(&field_name(n, line, r.field));
                            let shown = match (r.kind, v.trim()) {
                                (_, "" | "0") => String::new(),
                                (RowKind::Check, _) => "✓".to_string(),
                                (RowKind::Number, v) => v.to_string(),
                            };
                            (t(lang, r.label), shown)
                        })
                        .collect(),
                    total: report
                        .hands
                        .get(n - 1)
                        .map(|h| h.get(line).total)
                        .unwrap_or_default(),
                })
                .collect(),
        })
        .collect()
}
