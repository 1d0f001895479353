//! The score-sheet form: what the desk types for one table's round, hand by
//! hand and line by line, parsed into a `ScoreSheet` for the rules engine.
//! Field names: `h{hand}_end`, `h{hand}_closed` (`ns`/`ew`/empty),
//! `h{hand}_{line}_{count or points}`, `h{hand}_{line}_pozzetto`,
//! `declared_ns`, `declared_ew`.

use std::collections::HashMap;

use crate::rules::{Hand, HandEnd, Line, LineHand, PerLine, RuleProfile, ScoreSheet};

/// The number fields of a line, in the order the paper sheet has them.
pub const COUNT_FIELDS: [&str; 5] = ["royal", "super", "clean", "semi_clean", "dirty"];
pub const POINT_FIELDS: [&str; 2] = ["melded_points", "hand_points"];
pub const ENDS: [HandEnd; 4] = [
    HandEnd::Closure,
    HandEnd::StockExhausted,
    HandEnd::TimeOut,
    HandEnd::Stalemate,
];

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

    /// The form showing a saved sheet.
    pub fn from_sheet(sheet: &ScoreSheet) -> SheetForm {
        let mut v = HashMap::new();
        for (i, h) in sheet.hands.iter().enumerate() {
            let n = i + 1;
            v.insert(format!("h{n}_end"), h.end.code().to_string());
            let closed = if h.ns.closed {
                "ns"
            } else if h.ew.closed {
                "ew"
            } else {
                ""
            };
            v.insert(format!("h{n}_closed"), closed.to_string());
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
                    v.insert(field_name(n, line, f), value.to_string());
                }
                if lh.took_pozzetto {
                    v.insert(field_name(n, line, "pozzetto"), "on".into());
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
        let mut problems = Vec::new();
        let mut hands = Vec::new();
        let mut gap_at: Option<usize> = None;
        for n in 1..=hands_per_round {
            let end_text = self.get(&format!("h{n}_end")).trim();
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
            let closed = self.get(&format!("h{n}_closed")).trim().to_string();
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
                    took_pozzetto: matches!(self.get(&f("pozzetto")), "on" | "true" | "1"),
                }
            };
            let ns = line_hand(Line::Ns);
            let ew = line_hand(Line::Ew);
            hands.push(Hand { end, ns, ew });
        }
        let declared_ns = self.get("declared_ns").trim().to_string();
        let declared_ew = self.get("declared_ew").trim().to_string();
        let declared = if declared_ns.is_empty() && declared_ew.is_empty() {
            None
        } else {
            Some(PerLine {
                ns: self.number("declared_ns", &mut problems),
                ew: self.number("declared_ew", &mut problems),
            })
        };
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
            ("h1_ns_pozzetto", "on"),
            ("h1_ew_hand_points", "35"),
            ("h2_end", "time_out"),
            ("declared_ns", "545"),
            ("declared_ew", "-135"),
        ]);
        let s = f.parse(3, &CODICE).unwrap();
        assert_eq!(s.hands.len(), 2);
        assert!(s.hands[0].ns.closed && s.hands[0].ns.took_pozzetto);
        assert_eq!(s.hands[0].ew.hand_points, 35);
        assert_eq!(s.declared, Some(PerLine { ns: 545, ew: -135 }));
        let back = SheetForm::from_sheet(&s).parse(3, &CODICE).unwrap();
        assert_eq!(back, s);
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
