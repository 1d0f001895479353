//! Validation: a parsed file is checked as strictly as the program's forms
//! check what a director types. Every problem names its place in the
//! document (`pairs[3].players[0].surname`, 0-based indexes as in the JSON),
//! has a stable code and a message from the catalog (`file.problem.<code>`).
//!
//! One validator for every kind of file: [`problem`] (codes, places,
//! messages), [`settings`] (the settings every file has) and [`skeleton`]
//! (entrants, rounds, seating, tables, byes, penalties) are written once;
//! each kind adds only its own checks through [`skeleton::KindChecks`]:
//! [`pairs`] (two players a pair, tables of two pairs), [`teams`] (team
//! names and sizes, scoring, matches, line-ups, groups) and [`individual`]
//! (one player an entrant, two players a line).
//!
//! Score sheets are not checked against the rules here: that is the
//! standings step's job (`SheetRuleBroken`, CLI exit code 1).

mod groups;
mod individual;
mod pairs;
pub(crate) mod problem;
pub(crate) mod settings;
mod skeleton;
mod teams;
mod valid;

pub use individual::{validate_individual, ValidIndividualFile, MAX_PLAYERS};
pub use pairs::validate;
pub use pairs::{payout_tiers, pool_is_zero};
pub use problem::{FileProblem, ProblemCause, ProblemCode};
pub use settings::{
    tiers_of, MAX_CARD_CHARS, MAX_CLUB_CHARS, MAX_HANDS_PER_ROUND, MAX_MP_AMOUNT, MAX_PAIRS,
    MAX_PLAYER_NAME_CHARS, MAX_ROUNDS, MAX_TOURNAMENT_NAME_CHARS, MAX_VP_AMOUNT, MINUTES_PER_ROUND,
    MIN_HANDS_PER_ROUND, MITCHELL_ADVANCE,
};
pub use teams::{
    validate_teams, TeamSettings, ValidTeamFile, MAX_GROUP_CHARS, MAX_TEAMS, MAX_TEAM_NAME_CHARS,
};
pub use valid::{Valid, ValidFile};
