//! The score-sheet form: what the desk types for one table's round, hand by
//! hand and line by line, parsed into a `ScoreSheet` for the rules engine.
//! Field names: `h{hand}_end`, `h{hand}_closed` (`ns`/`ew`/empty),
//! `h{hand}_{line}_{count or points}`, `h{hand}_{line}_pozzetto`,
//! `declared_ns`, `declared_ew`.
//!
//! One score card (issue 21): the printed card, the desk's form and the
//! phone's form are drawn from [`score_card`] — the same end-of-hand choices
//! ([`END_CHOICES`], with their labels) and the same rows ([`card_rows`]), in
//! the same order, with the same words and the same defaults. A blank box is
//! nobody or 0; the pozzetto is asked as the paper asks it: the box
//! `h{hand}_{line}_no_pozzetto` is ticked only in the rare case (the line
//! never took it), so a blank box on paper is a blank box on screen.
//! `h{hand}_end` carries the closer (`closure_ns`, `closure_ew`: one choice);
//! the older pair `h{hand}_end=closure` + `h{hand}_closed=ns|ew` is still
//! read. With `mode=totals` each line has one box, `h{hand}_{line}_total`.

use std::collections::HashMap;

use crate::rules::{
    BurracoType, Hand, HandEnd, HandTotals, Line, LineHand, PerLine, RuleProfile, ScoreSheet,
    SheetMode, TotalsSheet,
};

/// The end-of-hand choices of the card layout, in the order printed on the
/// card (the digit typed is the position, 1-based).
pub const END_CHOICES: [&str; 5] = [
    "closure_ns",
    "closure_ew",
    "stock_exhausted",
    "time_out",
    "stalemate",
];

/// The catalog key of an end-of-hand choice's label (`1 · chiude NS`…).
pub fn end_label(choice: &str) -> String {
    format!("deskentry.end.{choice}")
}

/// The one score card: the end-of-hand choices and each line's rows, for
/// the printed card, the desk's form and the phone's form alike.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScoreCard {
    pub mode: SheetMode,
    /// The end-of-hand choices, in card order (the digit is the position).
    pub ends: &'static [&'static str],
    /// A line's rows, in card order.
    pub rows: Vec<CardRow>,
}

/// The score card of a profile in a mode.
pub fn score_card(profile: &RuleProfile, mode: SheetMode) -> ScoreCard {
    ScoreCard {
        mode,
        ends: &END_CHOICES,
        rows: card_rows(profile, mode),
    }
}

/// What kind of box a row of the card is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowKind {
    /// A count or points (a number; blank = 0).
    Number,
    /// A box ticked in the rare case.
    Check,
}

/// One row of a line's column on the score card and in the desk form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CardRow {
    /// The field suffix (`h{hand}_{line}_{field}`).
    pub field: &'static str,
    /// The catalog key of its label.
    pub label: &'static str,
    pub kind: RowKind,
    /// Rare (after the common rows; the Enter key skips it).
    pub rare: bool,
}

/// A line's rows, in card order: the points every line has first, then the
/// common burrachi, then the rare boxes; kinds the profile does not know are
/// left out. In totals mode, the hand total only. The end of hand comes
/// before both lines' rows, once per hand.
pub fn card_rows(profile: &RuleProfile, mode: SheetMode) -> Vec<CardRow> {
    let row = |field, label, kind, rare| CardRow {
        field,
        label,
        kind,
        rare,
    };
    if mode == SheetMode::Totals {
        return vec![row("total", "deskentry.hand_total", RowKind::Number, false)];
    }
    let mut rows = vec![
        row(
            "melded_points",
            "sheet.melded_points",
            RowKind::Number,
            false,
        ),
        row("hand_points", "sheet.hand_points", RowKind::Number, false),
        row("clean", "sheet.count.clean", RowKind::Number, false),
        row("dirty", "sheet.count.dirty", RowKind::Number, false),
        row(
            "semi_clean",
            "sheet.count.semi_clean",
            RowKind::Number,
            true,
        ),
        row("no_pozzetto", "deskentry.no_pozzetto", RowKind::Check, true),
    ];
    if profile.has_type(BurracoType::Royal) {
        rows.push(row("royal", "sheet.count.royal", RowKind::Number, true));
    }
    if profile.has_type(BurracoType::Super) {
        rows.push(row("super", "sheet.count.super", RowKind::Number, true));
    }
    rows
}

/// The number fields of a line, in the order the paper sheet has them.
pub const COUNT_FIELDS: [&str; 5] = ["royal", "super", "clean", "semi_clean", "dirty"];
pub const POINT_FIELDS: [&str; 2] = ["melded_points", "hand_points"];
/// Every field of a line in a hand: the counts, then the points (the one
/// list the desk's and the table's forms name their inputs from).
pub const LINE_FIELDS: [&str; 7] = [
    COUNT_FIELDS[0],
    COUNT_FIELDS[1],
    COUNT_FIELDS[2],
    COUNT_FIELDS[3],
    COUNT_FIELDS[4],
    POINT_FIELDS[0],
    POINT_FIELDS[1],
];
pub const ENDS: [HandEnd; 4] = [
    HandEnd::Closure,
    HandEnd::StockExhausted,
    HandEnd::TimeOut,
    HandEnd::Stalemate,
];

/// A hand's end as one choice of [`END_CHOICES`]: a closure names its
/// closer (`closure_ns`); a closure without one stays `closure`, so that
/// the checks name the missing closer.
fn end_text(end: HandEnd, closer: &str) -> String {
    match (end, closer) {
        (HandEnd::Closure, "ns" | "ew") => format!("closure_{closer}"),
        _ => end.code().to_string(),
    }
}

/// The form as submitted (field name → value).
#[derive(Debug, Clone, Default)]
pub struct SheetForm {
    values: HashMap<String, String>,
}

/// A problem with one input of the sheet form (a catalog key).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputProblem {
    pub field: String,
    pub key: &'static str,
}

fn line_code(line: Line) -> &'static str {
    match line {
        Line::Ns => "ns",
        Line::Ew => "ew",
    }
}

pub fn field_name(hand: usize, line: Line, field: &str) -> String {
    format!("h{hand}_{}_{field}", line_code(line))
}

impl SheetForm {
    pub fn from_pairs(pairs: Vec<(String, String)>) -> SheetForm {
        SheetForm {
            values: pairs.into_iter().collect(),
        }
    }

    pub fn get(&self, name: &str) -> &str {
        self.values.get(name).map(String::as_str).unwrap_or("")
    }

    /// Sets a value (the desk sets `mode` and `layout`).
    pub fn set(&mut self, name: &str, value: &str) {
        self.values.insert(name.to_string(), value.to_string());
    }

    /// The entry mode the form asks for (`mode=totals`; full otherwise).
    pub fn mode(&self) -> SheetMode {
        SheetMode::parse(self.get("mode")).unwrap_or_default()
    }

    /// Hand `n`'s end as one choice of [`END_CHOICES`] (the closer folded
    /// into a closure), or empty.
    pub fn end_choice(&self, n: usize) -> String {
        let end = self.get(&format!("h{n}_end")).trim();
        if end == "closure" {
            match self.get(&format!("h{n}_closed")).trim() {
                "ns" => "closure_ns".into(),
                "ew" => "closure_ew".into(),
                _ => "closure".into(),
            }
        } else {
            end.to_string()
        }
    }

    /// In totals mode, the end the phone proposes for hand `n` when its end
    /// is not chosen yet and both totals are typed ([`crate::rules::likely_end`]).
    pub fn suggested_end(&self, n: usize, profile: &RuleProfile) -> Option<&'static str> {
        if self.mode() != SheetMode::Totals || !self.end_choice(n).is_empty() {
            return None;
        }
        let total = |line| {
            self.get(&field_name(n, line, "total"))
                .trim()
                .parse::<i64>()
                .ok()
        };
        let totals = PerLine {
            ns: total(Line::Ns)?,
            ew: total(Line::Ew)?,
        };
        let choice = match crate::rules::likely_end(profile, totals)? {
            (HandEnd::Closure, Some(Line::Ns)) => "closure_ns",
            (HandEnd::Closure, Some(Line::Ew)) => "closure_ew",
            (end, _) => end.code(),
        };
        END_CHOICES.iter().copied().find(|c| *c == choice)
    }

    /// Hand `n`'s end and closer, from either layout.
    fn end_and_closer(&self, n: usize) -> (String, String) {
        let end = self.get(&format!("h{n}_end")).trim().to_string();
        match end.as_str() {
            "closure_ns" => ("closure".into(), "ns".into()),
            "closure_ew" => ("closure".into(), "ew".into()),
            _ => (end, self.get(&format!("h{n}_closed")).trim().to_string()),
        }
    }

    /// The form showing a saved sheet.
    pub fn from_sheet(sheet: &ScoreSheet) -> SheetForm {
        let mut v = HashMap::new();
        if sheet.mode == SheetMode::Totals {
            v.insert("mode".to_string(), "totals".to_string());
            let t = TotalsSheet::from_score_sheet(sheet);
            for (i, h) in t.hands.iter().enumerate() {
                let n = i + 1;
                let closer = match (h.closed.ns, h.closed.ew) {
                    (true, false) => "ns",
                    (false, true) => "ew",
                    _ => "",
                };
                v.insert(format!("h{n}_end"), end_text(h.end, closer));
                v.insert(field_name(n, Line::Ns, "total"), h.totals.ns.to_string());
                v.insert(field_name(n, Line::Ew, "total"), h.totals.ew.to_string());
            }
            if let Some(d) = &sheet.declared {
                v.insert("declared_ns".into(), d.ns.to_string());
                v.insert("declared_ew".into(), d.ew.to_string());
            }
            return SheetForm { values: v };
        }
        for (i, h) in sheet.hands.iter().enumerate() {
            let n = i + 1;
            let closed = if h.ns.closed {
                "ns"
            } else if h.ew.closed {
                "ew"
            } else {
                ""
            };
            v.insert(format!("h{n}_end"), end_text(h.end, closed));
            for line in [Line::Ns, Line::Ew] {
                let lh = h.line(line);
                for (f, value) in [
                    ("royal", lh.royal),
                    ("super", lh.super_),
                    ("clean", lh.clean),
                    ("semi_clean", lh.semi_clean),
                    ("dirty", lh.dirty),
                    ("melded_points", lh.melded_points),
                    ("hand_points", lh.hand_points),
                ] {
                    // A blank box is 0, as on the paper card.
                    if value != 0 {
                        v.insert(field_name(n, line, f), value.to_string());
                    }
                }
                if !lh.took_pozzetto {
                    v.insert(field_name(n, line, "no_pozzetto"), "on".into());
                }
            }
        }
        if let Some(d) = &sheet.declared {
            v.insert("declared_ns".into(), d.ns.to_string());
            v.insert("declared_ew".into(), d.ew.to_string());
        }
        SheetForm { values: v }
    }

    fn number(&self, name: &str, problems: &mut Vec<InputProblem>) -> i64 {
        let t = self.get(name).trim();
        if t.is_empty() {
            return 0;
        }
        match t.parse::<i64>() {
            Ok(n) => n,
            Err(_) => {
                problems.push(InputProblem {
                    field: name.to_string(),
                    key: "sheet.error.not_a_number",
                });
                0
            }
        }
    }

    /// The sheet, or the inputs that are not even numbers. Rule checks are
    /// the engine's job (`rules::check`), not this parser's.
    pub fn parse(
        &self,
        hands_per_round: usize,
        profile: &RuleProfile,
    ) -> Result<ScoreSheet, Vec<InputProblem>> {
        if self.mode() == SheetMode::Totals {
            return self.parse_totals(hands_per_round);
        }
        let mut problems = Vec::new();
        let mut hands = Vec::new();
        let mut gap_at: Option<usize> = None;
        for n in 1..=hands_per_round {
            let (end_text, closed) = self.end_and_closer(n);
            let end_text = end_text.as_str();
            if end_text.is_empty() {
                gap_at.get_or_insert(n);
                continue;
            }
            let Some(end) = ENDS.iter().copied().find(|e| e.code() == end_text) else {
                problems.push(InputProblem {
                    field: format!("h{n}_end"),
                    key: "sheet.error.end",
                });
                continue;
            };
            if gap_at.is_some() {
                problems.push(InputProblem {
                    field: format!("h{n}_end"),
                    key: "sheet.error.hand_order",
                });
            }
            let mut line_hand = |line: Line| -> LineHand {
                let f = |name: &str| field_name(n, line, name);
                let has = |t: crate::rules::BurracoType| profile.has_type(t);
                LineHand {
                    royal: if has(crate::rules::BurracoType::Royal) {
                        self.number(&f("royal"), &mut problems)
                    } else {
                        0
                    },
                    super_: if has(crate::rules::BurracoType::Super) {
                        self.number(&f("super"), &mut problems)
                    } else {
                        0
                    },
                    clean: self.number(&f("clean"), &mut problems),
                    semi_clean: self.number(&f("semi_clean"), &mut problems),
                    dirty: self.number(&f("dirty"), &mut problems),
                    melded_points: self.number(&f("melded_points"), &mut problems),
                    hand_points: self.number(&f("hand_points"), &mut problems),
                    closed: closed == line_code(line),
                    // The box marks the exception (blank = taken).
                    took_pozzetto: !matches!(self.get(&f("no_pozzetto")), "on" | "true" | "1"),
                }
            };
            let ns = line_hand(Line::Ns);
            let ew = line_hand(Line::Ew);
            hands.push(Hand { end, ns, ew });
        }
        let declared = self.declared(&mut problems);
        if hands.is_empty() && problems.is_empty() {
            problems.push(InputProblem {
                field: "h1_end".into(),
                key: "sheet.error.no_hands",
            });
        }
        if problems.is_empty() {
            Ok(ScoreSheet {
                hands,
                declared,
                mode: crate::rules::SheetMode::Full,
            })
        } else {
            Err(problems)
        }
    }
}

impl SheetForm {
    fn declared(&self, problems: &mut Vec<InputProblem>) -> Option<PerLine<i64>> {
        let declared_ns = self.get("declared_ns").trim().to_string();
        let declared_ew = self.get("declared_ew").trim().to_string();
        if declared_ns.is_empty() && declared_ew.is_empty() {
            None
        } else {
            Some(PerLine {
                ns: self.number("declared_ns", problems),
                ew: self.number("declared_ew", problems),
            })
        }
    }

    /// A totals-mode form: per hand the end (with the closer) and each
    /// line's total (blank = 0), into the stored form of a totals sheet.
    fn parse_totals(&self, hands_per_round: usize) -> Result<ScoreSheet, Vec<InputProblem>> {
        let mut problems = Vec::new();
        let mut hands = Vec::new();
        let mut gap_at: Option<usize> = None;
        for n in 1..=hands_per_round {
            let (end_text, closed) = self.end_and_closer(n);
            let ns_name = field_name(n, Line::Ns, "total");
            let ew_name = field_name(n, Line::Ew, "total");
            if end_text.is_empty() {
                if !self.get(&ns_name).trim().is_empty() || !self.get(&ew_name).trim().is_empty() {
                    problems.push(InputProblem {
                        field: format!("h{n}_end"),
                        key: "sheet.error.end",
                    });
                }
                gap_at.get_or_insert(n);
                continue;
            }
            let Some(end) = ENDS.iter().copied().find(|e| e.code() == end_text) else {
                problems.push(InputProblem {
                    field: format!("h{n}_end"),
                    key: "sheet.error.end",
                });
                continue;
            };
            if gap_at.is_some() {
                problems.push(InputProblem {
                    field: format!("h{n}_end"),
                    key: "sheet.error.hand_order",
                });
            }
            let ns = self.number(&ns_name, &mut problems);
            let ew = self.number(&ew_name, &mut problems);
            hands.push(HandTotals {
                end,
                closed: PerLine {
                    ns: closed == "ns",
                    ew: closed == "ew",
                },
                totals: PerLine { ns, ew },
            });
        }
        let declared = self.declared(&mut problems);
        if hands.is_empty() && problems.is_empty() {
            problems.push(InputProblem {
                field: "h1_end".into(),
                key: "sheet.error.no_hands",
            });
        }
        if problems.is_empty() {
            Ok(TotalsSheet { hands, declared }.to_score_sheet())
        } else {
            Err(problems)
        }
    }
}

/// The reason of a corrected or accepted sheet, or of an adjusted score
/// (`field` is `reason` or `adj_reason`): required, several lines allowed,
/// no control characters, at most
/// [`MAX_REASON_CHARS`](crate::tournament::text::MAX_REASON_CHARS).
pub fn parse_reason(
    field: &'static str,
    text: &str,
) -> Result<String, crate::tournament::FieldProblem> {
    crate::tournament::text::clean_reason(field, text, "sheet.error.reason_needed")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::profile::CODICE;

    fn form(pairs: &[(&str, &str)]) -> SheetForm {
        SheetForm::from_pairs(
            pairs
                .iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect(),
        )
    }

    #[test]
    fn a_typed_sheet_becomes_a_score_sheet_and_back() {
        let f = form(&[
            ("h1_end", "closure"),
            ("h1_closed", "ns"),
            ("h1_ns_clean", "1"),
            ("h1_ns_melded_points", "245"),
            ("h1_ew_hand_points", "35"),
            ("h1_ew_no_pozzetto", "on"),
            ("h2_end", "time_out"),
            ("declared_ns", "545"),
            ("declared_ew", "-135"),
        ]);
        let s = f.parse(3, &CODICE).unwrap();
        assert_eq!(s.hands.len(), 2);
        assert!(s.hands[0].ns.closed && s.hands[0].ns.took_pozzetto);
        assert!(!s.hands[0].ew.took_pozzetto);
        assert_eq!(s.hands[0].ew.hand_points, 35);
        assert_eq!(s.declared, Some(PerLine { ns: 545, ew: -135 }));
        let back = SheetForm::from_sheet(&s);
        assert_eq!(
            back.get("h1_end"),
            "closure_ns",
            "one choice, as on the card"
        );
        assert_eq!(back.parse(3, &CODICE).unwrap(), s);
    }

    #[test]
    fn the_pozzetto_box_marks_the_exception_on_every_form() {
        let f = form(&[
            ("h1_end", "closure_ns"),
            ("h1_ns_clean", "1"),
            ("h1_ns_melded_points", "245"),
            ("h1_ew_melded_points", "40"),
            ("h1_ew_hand_points", "75"),
            ("h1_ew_no_pozzetto", "on"),
            ("h2_end", "stock_exhausted"),
        ]);
        let s = f.parse(3, &CODICE).unwrap();
        assert!(s.hands[0].ns.closed && !s.hands[0].ew.closed);
        assert_eq!(s.hands[0].end, HandEnd::Closure);
        assert!(s.hands[0].ns.took_pozzetto, "blank box: taken");
        assert!(!s.hands[0].ew.took_pozzetto, "ticked: not taken");
        assert!(s.hands[1].ns.took_pozzetto && s.hands[1].ew.took_pozzetto);
        // A blank hand copied from a blank paper card takes nothing away:
        // the pozzetto counts as taken, whatever other field the form has.
        let blank = form(&[("h1_end", "stock_exhausted"), ("h1_ns_pozzetto", "")])
            .parse(3, &CODICE)
            .unwrap();
        assert!(blank.hands[0].ns.took_pozzetto && blank.hands[0].ew.took_pozzetto);
        // Shown again, the combined choice and the ticked box come back.
        let back = SheetForm::from_sheet(&s);
        assert_eq!(back.end_choice(1), "closure_ns");
        assert_eq!(back.get("h1_ew_no_pozzetto"), "on");
        assert_eq!(back.get("h1_ns_no_pozzetto"), "");
        assert_eq!(back.parse(3, &CODICE).unwrap(), s);
    }

    #[test]
    fn one_score_card_for_every_form() {
        let card = score_card(&CODICE, SheetMode::Full);
        assert_eq!(card.rows, card_rows(&CODICE, SheetMode::Full));
        assert_eq!(card.ends, &END_CHOICES);
        assert_eq!(end_label("closure_ns"), "deskentry.end.closure_ns");
        let no_pozzetto = card.rows.iter().find(|r| r.field == "no_pozzetto").unwrap();
        assert_eq!(
            (no_pozzetto.kind, no_pozzetto.label),
            (RowKind::Check, "deskentry.no_pozzetto")
        );
    }

    #[test]
    fn totals_mode_parses_into_a_totals_sheet_and_back() {
        let f = form(&[
            ("mode", "totals"),
            ("h1_end", "closure_ns"),
            ("h1_ns_total", "545"),
            ("h1_ew_total", "-135"),
            ("h2_end", "closure_ew"),
            ("h2_ns_total", "120"),
            ("h2_ew_total", "410"),
            ("h3_end", "stock_exhausted"),
            ("h3_ns_total", "80"),
            ("h3_ew_total", ""),
        ]);
        let s = f.parse(3, &CODICE).unwrap();
        assert_eq!(s.mode, SheetMode::Totals);
        let t = TotalsSheet::from_score_sheet(&s);
        assert_eq!(t.hands[0].totals, PerLine { ns: 545, ew: -135 });
        assert!(t.hands[1].closed.ew && !t.hands[1].closed.ns);
        assert_eq!(t.hands[2].totals, PerLine { ns: 80, ew: 0 });
        let back = SheetForm::from_sheet(&s);
        assert_eq!(back.mode(), SheetMode::Totals);
        assert_eq!(back.end_choice(2), "closure_ew");
        assert_eq!(back.parse(3, &CODICE).unwrap(), s);
        // A total typed without its end of hand is named at the end box.
        let e = form(&[("mode", "totals"), ("h1_ns_total", "50")])
            .parse(3, &CODICE)
            .unwrap_err();
        assert_eq!(
            (e[0].field.as_str(), e[0].key),
            ("h1_end", "sheet.error.end")
        );
        let e = form(&[
            ("mode", "totals"),
            ("h1_end", "stalemate"),
            ("h1_ns_total", "5x"),
        ])
        .parse(3, &CODICE)
        .unwrap_err();
        assert_eq!(e[0].field, "h1_ns_total");
    }

    #[test]
    fn card_rows_follow_the_profile_and_the_mode() {
        use crate::rules::profile::CLASSIC;
        let fields = |p, m| -> Vec<&str> { card_rows(p, m).iter().map(|r| r.field).collect() };
        assert_eq!(
            fields(&CODICE, SheetMode::Full),
            [
                "melded_points",
                "hand_points",
                "clean",
                "dirty",
                "semi_clean",
                "no_pozzetto",
                "royal",
                "super"
            ]
        );
        assert!(!fields(&CLASSIC, SheetMode::Full).contains(&"royal"));
        assert_eq!(fields(&CODICE, SheetMode::Totals), ["total"]);
        // Rare rows come after every common one.
        let rows = card_rows(&CODICE, SheetMode::Full);
        let first_rare = rows.iter().position(|r| r.rare).unwrap();
        assert!(rows[first_rare..].iter().all(|r| r.rare));
    }

    #[test]
    fn bad_inputs_are_named() {
        let f = form(&[
            ("h1_end", "closure"),
            ("h1_ns_melded_points", "12a"),
            ("h3_end", "closure"),
        ]);
        let e = f.parse(3, &CODICE).unwrap_err();
        assert!(e
            .iter()
            .any(|p| p.field == "h1_ns_melded_points" && p.key == "sheet.error.not_a_number"));
        assert!(e
            .iter()
            .any(|p| p.field == "h3_end" && p.key == "sheet.error.hand_order"));
        assert_eq!(
            form(&[]).parse(3, &CODICE).unwrap_err()[0].key,
            "sheet.error.no_hands"
        );
    }

    #[test]
    fn a_reason_is_required_and_refuses_control_characters() {
        assert_eq!(
            parse_reason("reason", " Errore di somma ").unwrap(),
            "Errore di somma"
        );
        assert_eq!(
            parse_reason("adj_reason", "").unwrap_err().key,
            "sheet.error.reason_needed"
        );
        let e = parse_reason("adj_reason", "a\u{1b}b").unwrap_err();
        assert_eq!(
            (e.field, e.key.as_str()),
            ("adj_reason", "text.error.control")
        );
    }
}
