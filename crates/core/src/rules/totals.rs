//! Totals mode: a score sheet of per-hand totals only, for clubs whose paper
//! cards hold nothing else (issue 13, "a fast desk for paper sheets").
//!
//! Per hand the desk has each line's hand total, how the hand ended and who
//! closed. That allows fewer checks than a full sheet ([`super::check`]):
//! every total a multiple of the profile's points step, within what a hand
//! can score, the closer's total at least what a closing line scores, a
//! valid end of hand (a closure has exactly one closer, a time-out ends the
//! round), the number of hands and the written round totals. The burraco
//! checks (types, least points, wild cards, the deck) are not possible: the
//! sheet says so ([`SheetMode::Totals`]) wherever it is shown.
//!
//! Stored form: an ordinary [`ScoreSheet`] with `mode: totals` whose lines
//! carry the hand total where the engine sums card points: `melded_points`
//! (or `hand_points` when negative), the pozzetto taken, no burraco, `closed`
//! for the closer. [`super::check`] sends such a sheet here, so standings,
//! exports and the tournament file read it like any other sheet.

use super::profile::{BurracoType, RuleProfile};
use super::score_sheet::{
    finish, Hand, HandEnd, Line, LineHand, LineScore, Param, PerLine, ScoreSheet, SheetMode,
    SheetReport, Violation, ViolationCode,
};
use super::vp::VpScale;

/// One hand as a totals card has it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HandTotals {
    pub end: HandEnd,
    /// Who closed (both flags set is a violation, not a parse error).
    pub closed: PerLine<bool>,
    /// Each line's hand total (MP).
    pub totals: PerLine<i64>,
}

/// A round's sheet in totals mode.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TotalsSheet {
    pub hands: Vec<HandTotals>,
    /// The round totals the players wrote, if the desk typed them.
    pub declared: Option<PerLine<i64>>,
}

impl TotalsSheet {
    /// The stored form (see the module notes).
    pub fn to_score_sheet(&self) -> ScoreSheet {
        let line = |total: i64, closed: bool| LineHand {
            melded_points: total.max(0),
            hand_points: total.saturating_neg().max(0),
            took_pozzetto: true,
            closed,
            ..LineHand::default()
        };
        ScoreSheet {
            hands: self
                .hands
                .iter()
                .map(|h| Hand {
                    end: h.end,
                    ns: line(h.totals.ns, h.closed.ns),
                    ew: line(h.totals.ew, h.closed.ew),
                })
                .collect(),
            declared: self.declared,
            mode: SheetMode::Totals,
        }
    }

    /// Reads the stored form back: a line's total is its melded points less
    /// its points in hand; nothing else of the line is read.
    pub fn from_score_sheet(sheet: &ScoreSheet) -> TotalsSheet {
        let total = |l: &LineHand| l.melded_points.saturating_sub(l.hand_points);
        TotalsSheet {
            hands: sheet
                .hands
                .iter()
                .map(|h| HandTotals {
                    end: h.end,
                    closed: PerLine {
                        ns: h.ns.closed,
                        ew: h.ew.closed,
                    },
                    totals: PerLine {
                        ns: total(&h.ns),
                        ew: total(&h.ew),
                    },
                })
                .collect(),
            declared: sheet.declared,
        }
    }
}

/// The least and the most one line can score in one hand under a profile:
/// from every card of the deck left in hand with the pozzetto not taken, to
/// every card melded in as many burrachi of the best kind as the deck holds,
/// with the closing bonus. Loose on purpose: it catches a slipped digit, never
/// a possible hand.
pub fn hand_total_bounds(profile: &RuleProfile) -> (i64, i64) {
    let min = profile
        .deck_points
        .saturating_add(profile.pozzetto_penalty)
        .saturating_neg();
    let fewest_cards = BurracoType::ALL
        .iter()
        .map(|&t| profile.rule(t).min_cards)
        .filter(|&c| c > 0)
        .min()
        .unwrap_or(1);
    let best_bonus = BurracoType::ALL
        .iter()
        .map(|&t| profile.bonus(t))
        .max()
        .unwrap_or(0);
    let most_burrachi = profile.deck_cards.checked_div(fewest_cards).unwrap_or(0);
    let max = profile
        .deck_points
        .saturating_add(profile.closing_bonus)
        .saturating_add(most_burrachi.saturating_mul(best_bonus));
    (min, max)
}

/// The least a closing line scores: the closing bonus and the cheapest
/// burraco of the profile (its bonus and its least card points); nothing left
/// in hand, the pozzetto taken.
pub fn closer_minimum(profile: &RuleProfile) -> i64 {
    let cheapest = BurracoType::ALL
        .iter()
        .filter(|&&t| profile.has_type(t))
        .map(|&t| {
            let r = profile.rule(t);
            r.bonus.saturating_add(r.min_points)
        })
        .min()
        .unwrap_or(0);
    profile.closing_bonus.saturating_add(cheapest)
}

/// The end a totals card most likely means for a hand, from its two totals
/// alone: a closure by the only line whose total is at least what a closing
/// line scores ([`closer_minimum`]), the stock exhausted when neither line
/// reaches it, nothing when both could have closed. A suggestion the players
/// see and may change: in totals mode the end of a hand never changes its
/// score, only which checks apply.
pub fn likely_end(profile: &RuleProfile, totals: PerLine<i64>) -> Option<(HandEnd, Option<Line>)> {
    let min = closer_minimum(profile);
    match (totals.ns >= min, totals.ew >= min) {
        (true, false) => Some((HandEnd::Closure, Some(Line::Ns))),
        (false, true) => Some((HandEnd::Closure, Some(Line::Ew))),
        (false, false) => Some((HandEnd::StockExhausted, None)),
        (true, true) => None,
    }
}

/// Checks and scores a totals sheet for a round of `hands_per_round` hands.
/// Each line's hand score is its total (reported as card points and total).
pub fn check_totals(
    sheet: &TotalsSheet,
    profile: &RuleProfile,
    hands_per_round: usize,
    vp_scale: &VpScale,
) -> SheetReport {
    let (min, max) = hand_total_bounds(profile);
    let closer_min = closer_minimum(profile);
    let mut violations = Vec::new();
    let mut hands = Vec::with_capacity(sheet.hands.len());
    let mut totals = PerLine { ns: 0i64, ew: 0i64 };
    for (i, hand) in sheet.hands.iter().enumerate() {
        let h = Some(i.saturating_add(1));
        for line in Line::BOTH {
            let total = *hand.totals.get(line);
            let l = Some(line);
            if profile.points_step > 0 && total % profile.points_step != 0 {
                violations.push(
                    Violation::new(ViolationCode::NotMultipleOf5, h, l)
                        .with("field", Param::Field("hand_total"))
                        .int("value", total)
                        .int("step", profile.points_step),
                );
            }
            if total < min || total > max {
                violations.push(
                    Violation::new(ViolationCode::HandTotalOutOfBounds, h, l)
                        .int("total", total)
                        .int("min", min)
                        .int("max", max),
                );
            }
            if *hand.closed.get(line) {
                if hand.end != HandEnd::Closure {
                    violations.push(Violation::new(ViolationCode::ClosedButNotClosure, h, l));
                } else if total < closer_min {
                    violations.push(
                        Violation::new(ViolationCode::CloserTotalTooLow, h, l)
                            .int("total", total)
                            .int("minimum", closer_min),
                    );
                }
            }
        }
        if hand.end == HandEnd::Closure && !hand.closed.ns && !hand.closed.ew {
            violations.push(Violation::new(ViolationCode::ClosureWithoutCloser, h, None));
        }
        if hand.closed.ns && hand.closed.ew {
            violations.push(Violation::new(ViolationCode::TwoClosers, h, None));
        }
        let score = |t: i64| LineScore {
            card_points: t,
            total: t,
            ..LineScore::default()
        };
        totals.ns = totals.ns.saturating_add(hand.totals.ns);
        totals.ew = totals.ew.saturating_add(hand.totals.ew);
        hands.push(PerLine {
            ns: score(hand.totals.ns),
            ew: score(hand.totals.ew),
        });
    }
    let ends: Vec<HandEnd> = sheet.hands.iter().map(|h| h.end).collect();
    finish(
        &ends,
        hands,
        totals,
        sheet.declared.as_ref(),
        hands_per_round,
        vp_scale,
        violations,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use crate::rules::check;
    use crate::rules::profile::{CLASSIC, CODICE};
    use proptest::prelude::*;

    fn hand(end: HandEnd, closer: Option<Line>, ns: i64, ew: i64) -> HandTotals {
        HandTotals {
            end,
            closed: PerLine {
                ns: closer == Some(Line::Ns),
                ew: closer == Some(Line::Ew),
            },
            totals: PerLine { ns, ew },
        }
    }

    /// The typical sheet of the e2e keystroke test.
    fn typical() -> TotalsSheet {
        TotalsSheet {
            hands: vec![
                hand(HandEnd::Closure, Some(Line::Ns), 545, -135),
                hand(HandEnd::Closure, Some(Line::Ew), 120, 410),
                hand(HandEnd::StockExhausted, None, 80, 60),
            ],
            declared: None,
        }
    }

    fn run(s: &TotalsSheet) -> SheetReport {
        check_totals(s, &CODICE, 3, &VpScale::three_hands())
    }

    fn codes(s: &TotalsSheet) -> Vec<&'static str> {
        run(s).violations.iter().map(|v| v.code.code()).collect()
    }

    fn only(s: &TotalsSheet, code: &str) -> Violation {
        let r = run(s);
        assert_eq!(codes(s), vec![code], "{:?}", r.violations);
        r.violations[0].clone()
    }

    #[test]
    fn a_typical_sheet_is_clean_and_scored() {
        let r = run(&typical());
        assert!(!r.has_violations(), "{:?}", r.violations);
        assert_eq!(r.totals, PerLine { ns: 745, ew: 335 });
        assert_eq!(r.hands[0].ns.total, 545);
        assert_eq!(r.hands[0].ew.total, -135);
        let (a, b) = VpScale::three_hands().vp_for_difference(745 - 335);
        assert_eq!(r.vp, PerLine { ns: a, ew: b });
        assert!(r.vp.ns > r.vp.ew);
    }

    #[test]
    fn bounds_and_closer_minimum_follow_the_profile() {
        // codice: 1080 card points, 108 cards / 7 = 15 burrachi × 300, closing 100.
        assert_eq!(hand_total_bounds(&CODICE), (-1180, 1080 + 100 + 15 * 300));
        // classic: no royal, the best bonus is the clean 200.
        assert_eq!(hand_total_bounds(&CLASSIC), (-1180, 1080 + 100 + 15 * 200));
        // Closing 100 + the cheapest burraco: dirty, 100 bonus + 50 points.
        assert_eq!(closer_minimum(&CODICE), 250);
        assert_eq!(closer_minimum(&CLASSIC), 250);
    }

    #[test]
    fn not_a_multiple_of_the_step() {
        let mut s = typical();
        s.hands[1].totals.ew = 412;
        let v = only(&s, "NOT_MULTIPLE_OF_5");
        assert_eq!((v.hand, v.line), (Some(2), Some(Line::Ew)));
        assert_eq!(v.param("field"), Some(&Param::Field("hand_total")));
        assert_eq!(v.param("value"), Some(&Param::Int(412)));
        s.hands[1].totals.ew = 415;
        assert!(codes(&s).is_empty());
    }

    #[test]
    fn out_of_bounds() {
        let mut s = typical();
        s.hands[2].totals.ns = 8000; // a slipped zero
        let v = only(&s, "HAND_TOTAL_OUT_OF_BOUNDS");
        assert_eq!((v.hand, v.line), (Some(3), Some(Line::Ns)));
        assert_eq!(v.param("max"), Some(&Param::Int(5680)));
        s.hands[2].totals.ns = 5680;
        assert!(codes(&s).is_empty());
        s.hands[2].totals.ns = -1185;
        only(&s, "HAND_TOTAL_OUT_OF_BOUNDS");
        s.hands[2].totals.ns = -1180;
        assert!(codes(&s).is_empty());
    }

    #[test]
    fn closer_total_too_low() {
        let mut s = typical();
        s.hands[0].totals.ns = 245; // the closer lost its bonuses
        let v = only(&s, "CLOSER_TOTAL_TOO_LOW");
        assert_eq!((v.hand, v.line), (Some(1), Some(Line::Ns)));
        assert_eq!(v.param("minimum"), Some(&Param::Int(250)));
        s.hands[0].totals.ns = 250;
        assert!(codes(&s).is_empty());
    }

    #[test]
    fn end_of_hand_checks() {
        let mut s = typical();
        s.hands[0].closed.ns = false;
        let v = only(&s, "CLOSURE_WITHOUT_CLOSER");
        assert_eq!((v.hand, v.line), (Some(1), None));
        s.hands[0].closed = PerLine { ns: true, ew: true };
        assert!(codes(&s).contains(&"TWO_CLOSERS"));
        let mut s = typical();
        s.hands[2].closed.ew = true;
        let v = only(&s, "CLOSED_BUT_NOT_CLOSURE");
        assert_eq!(v.line, Some(Line::Ew));
        let mut s = typical();
        s.hands[1].end = HandEnd::TimeOut;
        s.hands[1].closed.ew = false;
        assert_eq!(codes(&s), vec!["TIME_OUT_NOT_LAST"]);
        s.hands.truncate(2);
        assert!(codes(&s).is_empty(), "a time-out may end the round early");
        let mut s = typical();
        s.hands.pop();
        assert_eq!(codes(&s), vec!["MISSING_HANDS"]);
        let mut s = typical();
        s.hands.push(hand(HandEnd::Stalemate, None, 0, 0));
        assert_eq!(codes(&s), vec!["TOO_MANY_HANDS"]);
    }

    #[test]
    fn the_round_total_is_checked() {
        let mut s = typical();
        s.declared = Some(PerLine { ns: 745, ew: 335 });
        assert!(codes(&s).is_empty());
        s.declared = Some(PerLine { ns: 745, ew: 330 });
        let v = only(&s, "DECLARED_TOTAL_MISMATCH");
        assert_eq!(v.line, Some(Line::Ew));
        assert!(run(&s).only_declared_mismatch());
    }

    #[test]
    fn stored_as_a_sheet_that_check_reads_in_totals_mode() {
        let s = typical();
        let stored = s.to_score_sheet();
        assert_eq!(stored.mode, SheetMode::Totals);
        assert_eq!(stored.hands[0].ew.hand_points, 135);
        assert_eq!(stored.hands[0].ew.melded_points, 0);
        assert!(stored.hands[0].ns.closed && stored.hands[0].ns.took_pozzetto);
        assert_eq!(TotalsSheet::from_score_sheet(&stored), s);
        // `check` sends it here: same report as check_totals.
        let r = check(&stored, &CODICE, 3, &VpScale::three_hands());
        assert_eq!(r, run(&s));
        // Read as a full sheet it would break the burraco rules: the mode matters.
        let mut full = stored.clone();
        full.mode = SheetMode::Full;
        assert!(check(&full, &CODICE, 3, &VpScale::three_hands()).has_violations());
        // JSON: the mode is written, and read back.
        let json = serde_json::to_string(&stored).unwrap();
        assert!(json.contains(r#""mode":"totals""#), "{json}");
        let back: ScoreSheet = serde_json::from_str(&json).unwrap();
        assert_eq!(back, stored);
        // A full sheet writes no mode and reads as full.
        let json = serde_json::to_string(&full).unwrap();
        assert!(!json.contains("mode"), "{json}");
        let back: ScoreSheet = serde_json::from_str(&json).unwrap();
        assert_eq!(back.mode, SheetMode::Full);
    }

    #[test]
    fn every_new_message_reads_in_both_languages() {
        for code in [
            ViolationCode::HandTotalOutOfBounds,
            ViolationCode::CloserTotalTooLow,
        ] {
            for lang in Lang::ALL {
                let v = Violation::new(code, Some(1), Some(Line::Ns))
                    .int("total", 5)
                    .int("min", 1)
                    .int("max", 2)
                    .int("minimum", 3);
                let text = v.message(lang);
                assert!(!text.contains("rules.") && !text.contains('{'), "{text}");
            }
        }
        let v = Violation::new(ViolationCode::NotMultipleOf5, Some(1), Some(Line::Ns))
            .with("field", Param::Field("hand_total"))
            .int("value", 3)
            .int("step", 5);
        assert!(!v.message(Lang::It).contains("rules."));
    }

    fn any_end() -> impl Strategy<Value = HandEnd> {
        prop_oneof![
            Just(HandEnd::Closure),
            Just(HandEnd::StockExhausted),
            Just(HandEnd::TimeOut),
            Just(HandEnd::Stalemate)
        ]
    }

    proptest! {
        #[test]
        fn no_totals_sheet_panics_and_totals_add_up(
            hands in prop::collection::vec(
                (any_end(), any::<bool>(), any::<bool>(), any::<i64>(), any::<i64>()), 0..6),
            hpr in 0usize..6,
        ) {
            let s = TotalsSheet {
                hands: hands.iter().map(|&(end, a, b, ns, ew)| HandTotals {
                    end, closed: PerLine { ns: a, ew: b }, totals: PerLine { ns, ew },
                }).collect(),
                declared: None,
            };
            let r = check_totals(&s, &CODICE, hpr, &VpScale::three_hands());
            prop_assert_eq!(r.vp.ns + r.vp.ew, 20);
            let ns = s.hands.iter().fold(0i64, |a, h| a.saturating_add(h.totals.ns));
            prop_assert_eq!(r.totals.ns, ns);
            for v in &r.violations { let _ = v.message(Lang::En); }
            // Stored and read back, totals within i64 survive.
            let back = TotalsSheet::from_score_sheet(&s.to_score_sheet());
            for (a, b) in s.hands.iter().zip(&back.hands) {
                if a.totals.ns > i64::MIN { prop_assert_eq!(a.totals.ns, b.totals.ns); }
            }
        }
    }

    #[test]
    fn the_likely_end_of_a_totals_hand() {
        let p = &CODICE;
        let min = closer_minimum(p);
        let end = |ns, ew| likely_end(p, PerLine { ns, ew });
        assert_eq!(end(545, -135), Some((HandEnd::Closure, Some(Line::Ns))));
        assert_eq!(end(120, 410), Some((HandEnd::Closure, Some(Line::Ew))));
        assert_eq!(end(80, 60), Some((HandEnd::StockExhausted, None)));
        assert_eq!(end(min, min - 5), Some((HandEnd::Closure, Some(Line::Ns))));
        assert_eq!(
            end(min, min),
            None,
            "both could have closed: the players say"
        );
    }
}
