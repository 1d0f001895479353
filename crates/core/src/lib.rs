//! The pure core of burraco-td: no web framework, no database (its manifest
//! has neither, so the boundary is a compile error, not a habit).
//!
//! - `rules`: cards, melds, score sheets, VP scales, seat draw, prize pool,
//!   team matches.
//! - `movement`: the first-round draw, Mitchell and Danish rounds; team
//!   round robin (in groups or not), team Danish, line-ups.
//! - `standings`: the one standings computation (pairs, and teams).
//! - `tournament_file`: the `burraco-td/tournament@1` file (FORMAT.md),
//!   pairs or teams.
//! - `circuit`: circuits and season rankings (the `circuit@1` file).
//! - `tournament`: forms parsed into domain types (settings, pairs, sheets, penalties).
//! - `i18n`: Italian and English message catalogs.

pub mod circuit;
pub mod i18n;
pub mod movement;
pub mod next_round;
pub mod rules;
pub mod standings;
pub mod tournament;
pub mod tournament_file;
