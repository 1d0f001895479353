//! Victory points (RULES.md §5): the MP difference of a round → VP on a
//! 0–20 scale, the two lines' VP adding up to 20.
//!
//! A scale is ten upper bounds, one per band 10–10, 11–9 … 19–1; above the
//! last bound the winner takes 20–0. A difference on a bound belongs to that
//! band. Scales are data: the presets below, or one a director enters.

use serde::{Deserialize, Serialize};

/// VP a pair scores for a round it rests (bye) *(federation practice)*.
pub const DEFAULT_BYE_VP: u8 = 14;

/// VP of a drawn round, and the least a winner gets.
pub const DRAW_VP: u8 = 10;
/// VP the two lines share.
pub const TOTAL_VP: u8 = 20;
/// Number of bands with an upper bound (10–10 … 19–1).
pub const BANDS: usize = 10;
/// Every bound is a multiple of this (hand scores are).
pub const BOUND_STEP: i64 = 5;

const THREE_HANDS: [i64; BANDS] = [50, 150, 250, 350, 500, 650, 800, 1000, 1250, 1500];
const FOUR_HANDS: [i64; BANDS] = [100, 300, 500, 700, 900, 1100, 1300, 1500, 1700, 2000];

/// Upper bounds of the 10..19 VP bands. Invariant: 10 positive multiples of
/// 5, strictly increasing (checked by [`VpScale::parse`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(transparent)]
pub struct VpScale {
    bounds: [i64; BANDS],
}

/// Why a list of numbers is not a VP scale.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScaleError {
    #[error("a VP scale has {expected} upper bounds, not {got}")]
    WrongLength { expected: usize, got: usize },
    #[error("bound {position} ({value}) is not a positive multiple of {step}")]
    NotPositiveMultiple {
        position: usize,
        value: i64,
        step: i64,
    },
    #[error("bound {position} ({value}) is not above the one before it ({previous})")]
    NotIncreasing {
        position: usize,
        value: i64,
        previous: i64,
    },
}

impl ScaleError {
    /// Catalog key (`rules.input.scale.<kind>`) and its placeholder values.
    pub fn catalog(&self) -> (&'static str, Vec<(&'static str, String)>) {
        match self {
            ScaleError::WrongLength { expected, got } => (
                "rules.input.scale.wrong_length",
                vec![("expected", expected.to_string()), ("got", got.to_string())],
            ),
            ScaleError::NotPositiveMultiple {
                position,
                value,
                step,
            } => (
                "rules.input.scale.not_positive_multiple",
                vec![
                    ("position", position.to_string()),
                    ("value", value.to_string()),
                    ("step", step.to_string()),
                ],
            ),
            ScaleError::NotIncreasing {
                position,
                value,
                previous,
            } => (
                "rules.input.scale.not_increasing",
                vec![
                    ("position", position.to_string()),
                    ("value", value.to_string()),
                    ("previous", previous.to_string()),
                ],
            ),
        }
    }
}

impl<'de> Deserialize<'de> for VpScale {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<VpScale, D::Error> {
        let v = Vec::<i64>::deserialize(d)?;
        VpScale::parse(v).map_err(serde::de::Error::custom)
    }
}

impl VpScale {
    /// The 3-hand scale (federation practice).
    pub fn three_hands() -> VpScale {
        VpScale {
            bounds: THREE_HANDS,
        }
    }

    /// The 4-hand scale (federation practice).
    pub fn four_hands() -> VpScale {
        VpScale { bounds: FOUR_HANDS }
    }

    /// The preset scale for a number of hands per round (3 or 4).
    pub fn preset(hands: u32) -> Option<VpScale> {
        match hands {
            3 => Some(VpScale::three_hands()),
            4 => Some(VpScale::four_hands()),
            _ => None,
        }
    }

    /// Validates a scale a director entered (positions in errors are 1-based).
    pub fn parse(bounds: Vec<i64>) -> Result<VpScale, ScaleError> {
        let arr: [i64; BANDS] =
            bounds
                .as_slice()
                .try_into()
                .map_err(|_| ScaleError::WrongLength {
                    expected: BANDS,
                    got: bounds.len(),
                })?;
        let mut previous: Option<i64> = None;
        for (i, &value) in arr.iter().enumerate() {
            let position = i.saturating_add(1);
            if value <= 0 || value % BOUND_STEP != 0 {
                return Err(ScaleError::NotPositiveMultiple {
                    position,
                    value,
                    step: BOUND_STEP,
                });
            }
            if let Some(prev) = previous {
                if value <= prev {
                    return Err(ScaleError::NotIncreasing {
                        position,
                        value,
                        previous: prev,
                    });
                }
            }
            previous = Some(value);
        }
        Ok(VpScale { bounds: arr })
    }

    /// The ten upper bounds.
    pub fn bounds(&self) -> &[i64; BANDS] {
        &self.bounds
    }

    /// VP for an MP difference: (VP of the side whose difference is given,
    /// VP of the other side). 0 → 10–10; a difference on a bound belongs to
    /// that band; the two always add up to 20.
    pub fn vp_for_difference(&self, diff: i64) -> (u8, u8) {
        let magnitude = diff.unsigned_abs();
        let band = self
            .bounds
            .iter()
            .position(|&b| magnitude <= b.unsigned_abs())
            .unwrap_or(BANDS);
        let winner = DRAW_VP.saturating_add(u8::try_from(band).unwrap_or(DRAW_VP));
        let winner = winner.min(TOTAL_VP);
        let loser = TOTAL_VP.saturating_sub(winner);
        if diff >= 0 {
            (winner, loser)
        } else {
            (loser, winner)
        }
    }

    /// The least MP difference that earns `vp` (the lower edge of its band):
    /// 10 → 0; 11…20 → the previous band's bound + 5 (14 on the 3-hand scale
    /// → 355). For a losing score (0…9) the mirror: the difference nearest to
    /// zero of that band, negative (6 on the 3-hand scale → −355). Above 20
    /// counts as 20. This is the MP difference a bye counts for tie-breaks.
    pub fn lower_edge_of(&self, vp: u8) -> i64 {
        let vp = vp.min(TOTAL_VP);
        if vp < DRAW_VP {
            return self
                .lower_edge_of(TOTAL_VP.saturating_sub(vp))
                .saturating_neg();
        }
        let band = usize::from(vp.saturating_sub(DRAW_VP));
        match band.checked_sub(1).and_then(|i| self.bounds.get(i)) {
            Some(previous_bound) => previous_bound.saturating_add(BOUND_STEP),
            None => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn presets() {
        assert_eq!(VpScale::preset(3), Some(VpScale::three_hands()));
        assert_eq!(VpScale::preset(4), Some(VpScale::four_hands()));
        assert_eq!(VpScale::preset(2), None);
        assert_eq!(VpScale::three_hands().bounds(), &THREE_HANDS);
    }

    #[test]
    fn every_band_edge_on_both_scales() {
        for scale in [VpScale::three_hands(), VpScale::four_hands()] {
            for (i, &bound) in scale.bounds().iter().enumerate() {
                let vp = 10 + i as u8;
                assert_eq!(
                    scale.vp_for_difference(bound),
                    (vp, 20 - vp),
                    "on bound {bound}"
                );
                assert_eq!(
                    scale.vp_for_difference(-bound),
                    (20 - vp, vp),
                    "on -{bound}"
                );
                assert_eq!(
                    scale.vp_for_difference(bound + 5),
                    (vp + 1, 19 - vp),
                    "bound+5 {bound}"
                );
                assert_eq!(scale.vp_for_difference(-(bound + 5)), (19 - vp, vp + 1));
                assert_eq!(scale.lower_edge_of(vp + 1), bound + 5);
            }
        }
    }

    #[test]
    fn named_examples() {
        let three = VpScale::three_hands();
        assert_eq!(three.vp_for_difference(0), (10, 10));
        assert_eq!(three.vp_for_difference(680), (16, 4));
        assert_eq!(three.vp_for_difference(-560), (5, 15));
        assert_eq!(three.vp_for_difference(1505), (20, 0));
        assert_eq!(three.vp_for_difference(i64::MIN), (0, 20));
        assert_eq!(three.vp_for_difference(i64::MAX), (20, 0));
        assert_eq!(three.lower_edge_of(14), 355);
        assert_eq!(VpScale::four_hands().lower_edge_of(14), 705);
        assert_eq!(three.lower_edge_of(DEFAULT_BYE_VP), 355);
        assert_eq!(three.lower_edge_of(10), 0);
        assert_eq!(three.lower_edge_of(11), 55);
        assert_eq!(three.lower_edge_of(20), 1505);
        assert_eq!(three.lower_edge_of(6), -355);
        assert_eq!(three.lower_edge_of(99), 1505);
    }

    #[test]
    fn parse_validates() {
        assert_eq!(
            VpScale::parse(THREE_HANDS.to_vec()),
            Ok(VpScale::three_hands())
        );
        assert!(matches!(
            VpScale::parse(vec![50, 150]),
            Err(ScaleError::WrongLength { got: 2, .. })
        ));
        let mut v = THREE_HANDS.to_vec();
        v[3] = 352;
        assert!(matches!(
            VpScale::parse(v),
            Err(ScaleError::NotPositiveMultiple { position: 4, .. })
        ));
        let mut v = THREE_HANDS.to_vec();
        v[0] = 0;
        assert!(matches!(
            VpScale::parse(v),
            Err(ScaleError::NotPositiveMultiple { position: 1, .. })
        ));
        let mut v = THREE_HANDS.to_vec();
        v[5] = 500;
        assert!(matches!(
            VpScale::parse(v),
            Err(ScaleError::NotIncreasing { position: 6, .. })
        ));
        let s: Result<VpScale, _> =
            serde_json::from_str("[50,150,250,350,500,650,800,1000,1250,1500]");
        assert_eq!(s.unwrap(), VpScale::three_hands());
        assert!(serde_json::from_str::<VpScale>("[1,2,3]").is_err());
    }

    fn any_scale() -> impl Strategy<Value = VpScale> {
        prop::collection::btree_set(1i64..2000, BANDS)
            .prop_map(|s| VpScale::parse(s.into_iter().map(|x| x * 5).collect()).unwrap())
    }

    proptest! {
        #[test]
        fn vp_add_to_20_and_never_decrease(scale in any_scale(), a in any::<i64>(), b in any::<i64>()) {
            let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
            let (x, y) = scale.vp_for_difference(lo);
            let (x2, y2) = scale.vp_for_difference(hi);
            prop_assert_eq!(x + y, 20);
            prop_assert_eq!(x2 + y2, 20);
            prop_assert!(x <= x2);
        }

        #[test]
        fn vp_is_symmetric(d in -5000i64..5000) {
            let s = VpScale::three_hands();
            let (a, b) = s.vp_for_difference(d);
            prop_assert_eq!(s.vp_for_difference(-d), (b, a));
        }

        #[test]
        fn lower_edge_earns_its_vp(vp in 10u8..=20) {
            for s in [VpScale::three_hands(), VpScale::four_hands()] {
                let edge = s.lower_edge_of(vp);
                prop_assert_eq!(s.vp_for_difference(edge).0, vp);
                if vp > 10 {
                    prop_assert_eq!(s.vp_for_difference(edge - 5).0, vp - 1);
                }
            }
        }
    }
}
