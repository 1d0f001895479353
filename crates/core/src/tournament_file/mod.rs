//! The tournament file `burraco-td/tournament@1` (shared/FORMAT.md): one
//! JSON document with a whole tournament. Pure Rust: no web, database or
//! template code here.
//!
//! - [`parse`]: JSON text → [`TournamentFile`]; an unreadable document or a
//!   missing/ill-typed field is a [`FileError`] naming the place
//!   (`rounds[2].tables[4].ew`). Unknown fields are ignored.
//! - [`validate`]: the checks the forms make (references, ranges, money…);
//!   each [`FileProblem`] names its place and has a stable code.
//! - [`to_json`]: the export; fields in a fixed order, optional fields only
//!   when present, so export → import → export gives the same text.
//! - [`fixtures::sample_tournament`]: a generated valid tournament (tests,
//!   benchmarks); [`fixtures::sample_team_tournament`] for teams.
//!
//! One skeleton for every kind of entrant (`skeleton.rs`: header,
//! settings, money, plan, entrants, rounds, tables, byes, penalties, written
//! once as shapes a kind fills in, from the shared pieces of `pieces.rs`)
//! and one validator (`validate/`: the
//! shared checks once, each kind's own checks in its part). A kind is a
//! small part beside them: pairs (`pairs.rs`, `validate/pairs.rs`:
//! [`TournamentFile`], [`validate`], [`to_json`]) and teams (`"kind":
//! "teams"`, RULES.md §12; `teams.rs`, `validate/teams.rs`:
//! [`TeamTournamentFile`], [`validate_teams`], [`teams_to_json`]).
//! Individual tournaments (`"kind": "individual"`, RULES.md §14;
//! `individual.rs`, `validate/individual.rs`: [`IndividualTournamentFile`],
//! [`validate_individual`], [`parse_individual`]) are the third kind.
//! [`parse_any`] reads any kind; [`parse`] reads pairs only and refuses a
//! team file naming `kind` ([`FileError::WrongKind`]). The team decisions
//! are in the `teams` and `validate::teams` module docs.
//!
//! Decisions where FORMAT.md is silent:
//! - `bye` may also be a list of pair numbers: after a withdrawal a round can
//!   have several resting pairs. One pair is written as a number, none as
//!   `null`, several as a list.
//! - Defaults when absent: `profile` `codice`, `bye_vp` 14, `guaranteed_pool`
//!   0, `penalties` empty. `reason` of a penalty must not be empty.
//! - Text lengths and setting ranges are the forms' (name and venue ≤ 120
//!   characters, player names ≤ 60, card ≤ 20 of letters, digits, `-`, `/`,
//!   club ≤ 80; minutes per round 10–180, advance 1–10, planned rounds 1–30).
//! - `payout` may be empty only when the pool is certainly 0. A tournament
//!   that has started must have a scheme for its number of entries; a draft
//!   need not (registrations are still open).
//! - An `mp` penalty needs the pair at a table in that round (not resting,
//!   not absent); a penalty's `table`, when given, must be the pair's table.
//! - A pair with `withdrawn_from_round` = R may not be seated (or rest) in
//!   round R or later.
//! - A `no_show` pair may not be seated or rest in any round; no penalty may
//!   name a pair that is not an entry (a no-show, or withdrawn from round 1).
//! - A table with neither `sheet` nor `adjusted` (still to score) is allowed
//!   in any round while `status` is `running` (Mitchell rounds may be seated
//!   before every sheet is in), only in the last round when there is no
//!   status, and never when `status` is `finished`.

#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

#[doc(hidden)]
pub mod fixtures;
mod groups;
mod individual;
#[cfg(test)]
pub(crate) mod individual_kit;
mod pairs;
mod parse;
mod pieces;
mod skeleton;
mod teams;
mod validate;

#[cfg(test)]
mod tests;

pub use groups::{GroupFile, GroupPrizeFile};
pub use individual::{
    IndividualMovementKind, IndividualPenaltyFile, IndividualPlayerFile, IndividualRoundFile,
    IndividualTableFile, IndividualTag, IndividualTournamentFile,
};
pub use pairs::{MovementKind, PairFile, PenaltyFile, RoundFile, TableFile, TournamentFile};
pub(crate) use parse::from_json;
pub use parse::{
    parse, parse_any, parse_individual, parse_teams, teams_to_json, teams_to_json_compact, to_json,
    to_json_compact, AnyTournamentFile, FileError,
};
pub(crate) use pieces::fixed_tag;
pub use pieces::{
    Adjusted, FormatTag, PayoutTierFile, PenaltyKind, Player, SheetFile, Status, DEFAULT_PROFILE,
    FORMAT,
};
pub use skeleton::{AsPlayers, Entrant, Penalty, Round, Tournament};
pub use teams::{
    FileKind, LineRef, MatchFile, MatchTableFile, TeamFile, TeamMovementKind, TeamPenaltyFile,
    TeamRoundFile, TeamScoringFile, TeamTournamentFile, TeamsTag,
};
pub(crate) use validate::problem::render;
pub use validate::{
    payout_tiers, pool_is_zero, tiers_of, validate, validate_individual, validate_teams,
    FileProblem, ProblemCause, ProblemCode, TeamSettings, Valid, ValidFile, ValidIndividualFile,
    ValidTeamFile, MAX_CARD_CHARS, MAX_CLUB_CHARS, MAX_GROUP_CHARS, MAX_HANDS_PER_ROUND,
    MAX_MP_AMOUNT, MAX_PAIRS, MAX_PLAYERS, MAX_PLAYER_NAME_CHARS, MAX_ROUNDS, MAX_TEAMS,
    MAX_TEAM_NAME_CHARS, MAX_TOURNAMENT_NAME_CHARS, MAX_VP_AMOUNT, MINUTES_PER_ROUND,
    MIN_HANDS_PER_ROUND, MITCHELL_ADVANCE,
};
