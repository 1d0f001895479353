//! Club separation in the first draw (RULES.md §13): when it applies, the
//! pairs with their clubs, what the start will do, the clubs that meet.

use crate::movement::{self, Layout};
use crate::services::Loaded;
use crate::tournament::RoundMovement;

/// Whether the first draw keeps clubs apart (RULES.md §13): the setting is
/// on and the plan starts with Mitchell rounds.
pub fn separates_clubs(l: &Loaded) -> bool {
    l.settings.separate_clubs && l.settings.movement_of(1) == RoundMovement::Mitchell
}

/// The pairs a draw takes with their players' clubs.
pub(super) fn pair_clubs(l: &Loaded) -> Vec<movement::clubs::PairClubs> {
    l.drawable()
        .map(|p| movement::clubs::PairClubs {
            pair: p.pair_no(),
            clubs: p
                .entry()
                .players
                .iter()
                .map(|pl| pl.club().to_string())
                .collect(),
        })
        .collect()
}

/// Club separation before the start: how many pairs will have to face
/// pairs of their own club (0: every club kept apart), from the same draw
/// the start makes (the number does not depend on the seed). `None` when
/// the draw does not keep clubs apart.
pub fn clubs_crossing(l: &Loaded) -> Option<usize> {
    if !separates_clubs(l) {
        return None;
    }
    let draw = movement::clubs::first_round_draw_apart(&pair_clubs(l), 0).ok()?;
    Some(draw.crossing)
}

/// The clubs whose pairs meet in the Mitchell rounds of round 1 as drawn
/// (empty when the draw does not keep clubs apart or kept them all apart).
pub fn club_meetings(l: &Loaded, layout: &Layout) -> Vec<movement::clubs::ClubMeeting> {
    if !separates_clubs(l) {
        return Vec::new();
    }
    movement::clubs::meetings_of(&pair_clubs(l), layout)
}
