//! `burraco-td next-round` (FORMAT.md): the round the program would seat
//! next for the state a tournament file holds — exactly what the
//! director's button seats — as JSON in the shape of a round of the file.
//! Pure Rust, on the movement engine, the standings and the file.
//!
//! - [`pairs`]: a pairs file: its plan (`movements`, `group_plan`), the
//!   first draw (with club separation), Mitchell continued from round 1,
//!   Danish over the whole field or in groups (with the cut).
//! - [`teams`]: a team file: round robin (in groups or not) and Danish.
//! - [`individual`]: an individual file (RULES.md §14): the random first
//!   round, then Danish foursomes.
//! - [`error`]: why no round can be seated (exit 1 with the reason).
//! - [`cli`]: the whole command on a file's text.

pub mod cli;
pub mod error;
pub mod individual;
pub mod pairs;
mod plan;
pub mod teams;

#[cfg(test)]
mod individual_tests;
#[cfg(test)]
mod tests;

pub use cli::{next_round_json, run_cli};
pub use error::NextRoundError;
pub use individual::{next_individual_round, NextIndividualRound};
pub use pairs::{next_pairs_round, NextPairsRound};
pub use teams::{next_team_round, NextTeamRound};
