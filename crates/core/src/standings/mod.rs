//! The standings (RULES.md §5, §9, §10, §12): one engine for the whole
//! program and every kind of entrant. The public page, the pair and team
//! cards, the prize lists, the CSV export and `burraco-td standings` all
//! call it. Pure Rust: no web, database or template code here.
//!
//! - [`Kind`] ([`kind`]): what an entrant is — who, and what a table gives
//!   it; [`Pair`] ([`pairs`]), [`Team`] ([`teams`]) and [`Individual`]
//!   ([`players`], RULES.md §14: each player of a line gets the line's
//!   result) are the kinds.
//! - [`engine`]: accumulate, byes, penalties, head-to-head, rank with
//!   shared places, cards — written once; [`prizes`]: the prizes.
//! - `types`: the rows, cards, prizes and standings of any kind
//!   (`Standings<Pair>` is [`Standings`] by default, `Standings<Team>` is
//!   [`TeamStandings`]).
//!
//! What counts, per pair:
//! - **VP** = table VP of every round played (from the sheet, or the
//!   adjusted score) + the bye award for every round rested − VP penalties
//!   (`vp` penalties and the automatic −1 of every second warning).
//! - **MP difference** = Σ (own MP − opponents' MP) over the sheets, after
//!   MP penalties; + the referee's MP difference of an adjusted score (0 if
//!   none); + for a bye the lower edge of the bye award's band on the
//!   tournament's scale (14 VP → 355 on 3 hands, 705 on 4).
//! - **MP** = Σ own MP over the sheets, after MP penalties (a bye or an
//!   adjusted score adds 0).
//!
//! Penalties (RULES.md §9, decisions of the team):
//! - `mp`: N MP are taken from the pair's MP of that round *before* the VP
//!   conversion; both lines' VP are computed from the penalised difference
//!   (they still add up to 20); the opponents' own MP stay as they are. On a
//!   table not yet played it waits for the sheet; on an adjusted table it has
//!   no effect (the referee's score replaces the sheet and already says
//!   everything about that round).
//! - `vp`: N VP taken from the pair's total, in the round given.
//! - `warning`: every second warning to a pair (2nd, 4th…, counted over the
//!   tournament in round order, then in file order within a round; withdrawn
//!   warnings not counted) adds an automatic −1 VP in the round of that
//!   warning, shown with its reason. The opponents gain nothing.
//! - A withdrawn penalty keeps its record (shown on the pair card) and counts
//!   for nothing.
//!
//! Order: VP, MP difference, MP, all higher first. Then, when exactly two
//! pairs are still tied and they met, the one with more VP in their
//! meeting(s) (summed when they met more than once) goes first. Pairs still
//! tied share the place (1, 2, 2, 4…) and are listed by pair number.
//!
//! Sheets: any rule violation other than `DECLARED_TOTAL_MISMATCH` makes the
//! computation fail ([`StandingsError::SheetRuleBroken`], every broken sheet
//! listed); on a mismatch only, the computed totals win and the card flags it.
//!
//! Entries (RULES.md §10): every pair of the file except the no-shows
//! (`no_show`, or withdrawn from round 1: they never played). A pair
//! withdrawn after it played paid its entry and stays. No-shows have no
//! row, no card and no share of the pool.
//!
//! Prizes: places from these standings (shared places share the prizes);
//! the tier with the largest `min_entries` not above the entries.

#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

mod cli;
pub mod engine;
mod error;
pub mod groups;
pub mod kind;
mod order;
pub mod pairs;
pub mod players;
pub mod prizes;
#[cfg(feature = "openapi")]
mod schema;
pub mod teams;
mod types;

#[cfg(test)]
mod groups_tests;
#[cfg(test)]
mod invariants;
#[cfg(test)]
mod player_tests;
#[cfg(test)]
mod proptests;
#[cfg(test)]
mod team_proptests;
#[cfg(test)]
mod team_tests;
#[cfg(test)]
pub(crate) mod test_kit;
#[cfg(test)]
mod tests;

pub use cli::{run_cli, CliPrize, CliRow, CliStandings};
pub use error::{BrokenSheet, StandingsError};
pub use groups::{group_pools, in_groups};
pub use kind::{GroupRef, Kind, Ledger, RoundCard};
pub use pairs::{CardRound, Pair};
pub use players::{
    compute_individual, compute_individual_file, Individual, PlayerCard, PlayerCardRound,
    PlayerStandings,
};
pub use prizes::split_evenly;
pub use teams::{
    compute_teams, compute_teams_file, MatchOutcome, MatchResult, MatchTableResult, RoundResults,
    Team, TeamCard, TeamCardRound, TeamCardTable, TeamPrize, TeamResults, TeamRow, TeamStandings,
};
pub use types::{Card, CardPenalty, Outcome, Prize, Row, SheetRef, Standings, TieBreak};

use crate::i18n::Lang;
use crate::tournament_file::{TournamentFile, ValidFile};

/// A pair's card: its rounds, one per round of the tournament.
pub type PairCard = Card<Pair>;

/// Validates, then computes (for callers holding a plain file).
pub fn compute_file(file: &TournamentFile, lang: Lang) -> Result<Standings, StandingsError> {
    engine::compute_file::<Pair>(file, lang)
}

/// Computes the standings, the pair cards and the prizes of a valid file.
/// `lang` is the language of the texts inside (automatic penalties' reason,
/// head-to-head notes).
pub fn compute(valid: &ValidFile<'_>, lang: Lang) -> Result<Standings, StandingsError> {
    engine::compute::<Pair>(valid, lang)
}
