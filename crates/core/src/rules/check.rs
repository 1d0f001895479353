//! Checking a round's score sheet, whichever its mode: a full sheet goes to
//! [`super::score_sheet`], a sheet of hand totals to [`super::totals`].

use super::profile::RuleProfile;
use super::score_sheet::{check_full, ScoreSheet, SheetMode, SheetReport};
use super::totals::{check_totals, TotalsSheet};
use super::vp::VpScale;

/// Checks and scores a sheet for a round of `hands_per_round` hands.
pub fn check(
    sheet: &ScoreSheet,
    profile: &RuleProfile,
    hands_per_round: usize,
    vp_scale: &VpScale,
) -> SheetReport {
    if sheet.mode == SheetMode::Totals {
        return check_totals(
            &TotalsSheet::from_score_sheet(sheet),
            profile,
            hands_per_round,
            vp_scale,
        );
    }
    check_full(sheet, profile, hands_per_round, vp_scale)
}
