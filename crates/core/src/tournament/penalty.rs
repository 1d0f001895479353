//! Typical penalties and adjusted scores (RULES.md §9, federation practice),
//! as data: a referee picks a reason and the kind and amount follow, scaled
//! to the tournament's hands per round. The referee may change any of them.

use crate::rules::vp::TOTAL_VP;

/// The largest MP difference a referee may set in an adjusted score.
pub const MAX_ADJUSTED_MP_DIFF: i64 = 10_000;

/// The kinds of penalty (RULES.md §9): one enum, the tournament file's.
pub use crate::tournament_file::PenaltyKind;

/// What a typical reason leads to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PresetKind {
    Warning,
    Mp(i64),
    Vp(i64),
    /// An adjusted score: the VP of the pair present (as a percentage of the
    /// maximum) and of the late or leaving pair, for 3 and for 4 hands.
    Adjusted {
        present_pct: [i64; 2],
        other_vp: [i64; 2],
    },
}

#[derive(Debug, Clone, Copy)]
pub struct Preset {
    /// Catalog key of the reason.
    pub key: &'static str,
    pub kind: PresetKind,
}

pub const PRESETS: &[Preset] = &[
    Preset {
        key: "penalty.reason.not_ready",
        kind: PresetKind::Warning,
    },
    Preset {
        key: "penalty.reason.late_5",
        kind: PresetKind::Mp(100),
    },
    Preset {
        key: "penalty.reason.late_10",
        kind: PresetKind::Adjusted {
            present_pct: [70, 60],
            other_vp: [6, 8],
        },
    },
    Preset {
        key: "penalty.reason.abandon",
        kind: PresetKind::Adjusted {
            present_pct: [70, 60],
            other_vp: [6, 8],
        },
    },
    Preset {
        key: "penalty.reason.slow_play",
        kind: PresetKind::Warning,
    },
    Preset {
        key: "penalty.reason.conduct",
        kind: PresetKind::Vp(1),
    },
];

/// A penalty's reason (or a withdrawal's) as the referee writes it:
/// required, several lines allowed, no control characters, at most
/// [`MAX_REASON_CHARS`](crate::tournament::text::MAX_REASON_CHARS). The
/// problem names `field` with the message `penalty.error.reason` when empty.
pub fn parse_reason(
    field: &'static str,
    text: &str,
) -> Result<String, crate::tournament::FieldProblem> {
    crate::tournament::text::clean_reason(field, text, "penalty.error.reason")
}

pub fn preset(key: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.key == key)
}

/// The presets that are penalties (not adjusted scores), for the penalty form.
pub fn penalty_presets() -> Vec<&'static Preset> {
    PRESETS
        .iter()
        .filter(|p| !matches!(p.kind, PresetKind::Adjusted { .. }))
        .collect()
}

/// The presets that are adjusted scores, for the sheet page.
pub fn adjusted_presets() -> Vec<&'static Preset> {
    PRESETS
        .iter()
        .filter(|p| matches!(p.kind, PresetKind::Adjusted { .. }))
        .collect()
}

impl Preset {
    /// (kind, amount) of a penalty preset.
    pub fn penalty(&self) -> Option<(PenaltyKind, Option<i64>)> {
        match self.kind {
            PresetKind::Warning => Some((PenaltyKind::Warning, None)),
            PresetKind::Mp(n) => Some((PenaltyKind::Mp, Some(n))),
            PresetKind::Vp(n) => Some((PenaltyKind::Vp, Some(n))),
            PresetKind::Adjusted { .. } => None,
        }
    }

    /// (VP of the pair present, VP of the other) for a number of hands: the
    /// 3-hand values for 2 or 3 hands, the 4-hand ones for 4.
    pub fn adjusted_vp(&self, hands: u32) -> Option<(i64, i64)> {
        match self.kind {
            PresetKind::Adjusted {
                present_pct,
                other_vp,
            } => {
                let i = usize::from(hands >= 4);
                Some((i64::from(TOTAL_VP) * present_pct[i] / 100, other_vp[i]))
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_late_pair_scores_as_rules_md_says() {
        let late = preset("penalty.reason.late_10").unwrap();
        assert_eq!(late.adjusted_vp(3), Some((14, 6)));
        assert_eq!(late.adjusted_vp(4), Some((12, 8)));
        assert_eq!(
            preset("penalty.reason.late_5").unwrap().penalty(),
            Some((PenaltyKind::Mp, Some(100)))
        );
        assert!(penalty_presets().iter().all(|p| p.penalty().is_some()));
        assert!(adjusted_presets()
            .iter()
            .all(|p| p.adjusted_vp(3).is_some()));
    }

    #[test]
    fn a_reason_is_required_and_refuses_control_characters() {
        assert_eq!(
            parse_reason("reason", "  Ritardo\r\n10 min ").unwrap(),
            "Ritardo\n10 min"
        );
        assert_eq!(
            parse_reason("reason", " ").unwrap_err().key,
            "penalty.error.reason"
        );
        let e = parse_reason("reason", "Ritardo\0").unwrap_err();
        assert_eq!((e.field, e.key.as_str()), ("reason", "text.error.control"));
        assert_eq!(
            parse_reason("reason", &"x".repeat(501)).unwrap_err().key,
            "text.error.too_long"
        );
    }
}
