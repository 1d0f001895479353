//! Movements of a team tournament (RULES.md §12): round robin (optionally in
//! groups), Danish for teams, and line-ups. Pure; the only randomness (the
//! order teams are drawn into the schedule) is seeded. What is the teams'
//! own lives here — a match on two tables, home and away, line-ups, the
//! round robin; the Danish pairing, the bye order and table numbers come
//! from the toolkit every kind shares ([`crate::movement::pairing`]).
//!
//! - [`plan`]: a planned round (matches, byes), its tables, a withdrawn team.
//! - [`round_robin`](mod@round_robin): the circle method, groups (gironi), the drawn order.
//! - [`danish`]: Danish for teams, never a team already met.
//! - [`lineup`]: line-ups and a match's two tables seated with them.
//! - [`error`]: why a team movement is refused.
//!
//! Each file lists the decisions taken where the rules are silent.

pub mod danish;
pub mod error;
pub mod lineup;
pub mod plan;
pub mod round_robin;

#[cfg(test)]
pub(crate) mod tests;

pub use crate::movement::pairing::DANISH_SEARCH_STEPS;
pub use danish::{team_danish_round, team_entries_from_history, TeamDanishEntry, TeamDanishRound};
pub use error::TeamMovementError;
pub use lineup::{check_lineup, default_lineup, lineup_in, seat_match, LineUp};
pub use plan::{
    drop_withdrawn, match_tables, TeamMatch, TeamNo, TeamRoundPlan, MAX_TEAMS, MIN_TEAMS,
};
pub use round_robin::{
    draw_order, group_name, round_robin, round_robin_groups, round_robin_rounds, split_into_groups,
    Group, MAX_GROUPS, MIN_GROUP_TEAMS,
};
