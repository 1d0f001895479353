//! Movement engine: who sits where, round by round. Pure Rust: no web,
//! database or template code here.
//!
//! - [`seating`]: pair and table numbers, a table's seats, a round's seating.
//! - [`draw`]: the random first-round draw (seeded, reproducible).
//! - [`mitchell`]: the Mitchell movement (fixed line stays, moving line
//!   advances), with plan validation, withdrawn and late pairs.
//! - [`pairing`]: the Danish toolkit every kind shares: pairing over a
//!   ranking (any entrant), who may not meet whom, the bye, table numbers.
//! - [`danish`]: the Danish movement of pairs (matched by standings), pure
//!   or modified, on the toolkit.
//! - [`individual`]: individual tournaments (RULES.md §14): the random
//!   first round and the Danish round of foursomes, with resting players.
//! - [`teams`]: team tournaments: round robin (in groups or not), Danish
//!   for teams on the toolkit, line-ups.
//! - [`cli`]: the JSON printed by `burraco-td movement mitchell`.
//! - [`error`]: why the engine refuses a request, and its catalog messages.
//!
//! Vocabulary (RULES.md §7): NS is the fixed line of a Mitchell, EW the moving
//! line. A seat holding `None` is the phantom pair (coppia fantasma): the real
//! pair facing it rests that round (riposo) and gets the bye award. The
//! decisions taken where the rules are silent are listed in each module's
//! documentation.

pub mod cli;
pub mod clubs;
pub mod danish;
pub mod danish_groups;
pub mod draw;
pub mod error;
pub mod groups;
pub mod individual;
pub mod mitchell;
pub mod pairing;
pub mod seating;
pub mod teams;

#[cfg(test)]
mod danish_tests;
#[cfg(test)]
mod error_tests;
#[cfg(test)]
mod individual_tests;
#[cfg(test)]
mod pairing_tests;
#[cfg(test)]
mod proptests;

pub use cli::{mitchell_json, MitchellJson, MitchellJsonRound, MitchellJsonTable};
pub use danish::{
    danish_round, danish_round_from, ensure_previous_round_complete, entries_from_history,
    DanishEntry,
};
pub use danish_groups::{danish_groups_round, group_entries, GroupSeat, GroupsRound};
pub use draw::{ensure_redraw_allowed, first_round_draw, new_seed, seat_of, tables_for, Layout};
pub use error::MovementError;
pub use individual::{
    individual_danish_round, individual_draw, individual_entries_from_history, FourSeat,
    IndividualEntry, IndividualMovementError, IndividualRound, PlayerNo,
};
pub use mitchell::{max_rounds, round_seating, schedule, MitchellPlan, RosterChange};
pub use seating::{Line, PairNo, RoundSeating, Seat, TableNo, MAX_PAIRS, MAX_ROUNDS, MIN_PAIRS};
pub use teams::{
    check_lineup, default_lineup, draw_order, drop_withdrawn, group_name, lineup_in, match_tables,
    round_robin, round_robin_groups, round_robin_rounds, seat_match, split_into_groups,
    team_danish_round, team_entries_from_history, Group, LineUp, TeamDanishEntry, TeamDanishRound,
    TeamMatch, TeamMovementError, TeamNo, TeamRoundPlan,
};
