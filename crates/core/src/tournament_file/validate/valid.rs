//! A file that passed validation, and the one run of the shared checks
//! with a kind's own ([`super::skeleton::KindChecks`]).

use super::problem::FileProblem;
use super::settings;
use super::skeleton::{check_entrants, check_penalties, check_rounds, KindChecks};
use crate::rules::profile::RuleProfile;
use crate::rules::vp::VpScale;
use std::collections::HashMap;

/// A pairs file that passed [`validate`].
pub type ValidFile<'a> = Valid<'a, crate::tournament_file::TournamentFile>;

/// A file of any kind that passed validation, with what the standings need
/// resolved; `O` is what the kind resolves of its own settings (nothing for
/// pairs; the scoring and the team bye for teams).
#[derive(Debug, Clone)]
pub struct Valid<'a, F, O = ()> {
    file: &'a F,
    profile: &'static RuleProfile,
    scale: VpScale,
    hands_per_round: usize,
    bye_vp: u8,
    index: HashMap<u32, usize>,
    pub(super) own: O,
}

impl<'a, F, O> Valid<'a, F, O> {
    pub fn file(&self) -> &'a F {
        self.file
    }

    pub fn profile(&self) -> &'static RuleProfile {
        self.profile
    }

    /// The tournament's VP scale (the one given, else the preset): the
    /// pairs' scale each table converts on.
    pub fn scale(&self) -> &VpScale {
        &self.scale
    }

    pub fn hands_per_round(&self) -> usize {
        self.hands_per_round
    }

    /// VP of a pair's bye (0..=20).
    pub fn bye_vp(&self) -> u8 {
        self.bye_vp
    }

    /// The MP difference a bye counts: the lower edge of the bye award's band.
    pub fn bye_mp_diff(&self) -> i64 {
        self.scale.lower_edge_of(self.bye_vp)
    }

    /// Index in the file's entrants (`pairs`, `teams`) of an entrant number.
    pub fn entrant_index(&self, number: u32) -> Option<usize> {
        self.index.get(&number).copied()
    }
}

impl<'a> ValidFile<'a> {
    /// Index in `file().pairs` of a pair number.
    pub fn pair_index(&self, number: u32) -> Option<usize> {
        self.entrant_index(number)
    }
}

/// Checks everything but the score sheets' rules. All problems are listed,
/// in document order (settings, the kind's own settings, entrants, rounds,
/// penalties).
pub(super) fn validate_file<F: KindChecks>(
    file: &F,
) -> Result<Valid<'_, F, F::Own>, Vec<FileProblem>> {
    let mut out = Vec::new();
    let settings = file.settings();
    let (profile, scale, bye_vp) = settings::check_settings(&settings, &mut out);
    let own = file.check_own_settings(bye_vp, &mut out);
    let index = check_entrants(file, &mut out);
    let seats = check_rounds(file, &index, &mut out);
    check_penalties(file, &index, &seats, &mut out);
    match (profile, scale, bye_vp, own) {
        (Some(profile), Some(scale), Some(bye_vp), Some(own)) if out.is_empty() => Ok(Valid {
            file,
            profile,
            scale,
            hands_per_round: usize::try_from(settings.hands_per_round).unwrap_or(0),
            bye_vp,
            index,
            own,
        }),
        _ => Err(out),
    }
}
