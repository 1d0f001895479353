//! A team's line-up for a match (RULES.md §12): which two of its players
//! form each of its two pairs, and the match's two tables seated with them.
//!
//! Decisions where the rules are silent:
//! - **Line-up**: two pairs of the team's players (indexes into the team's
//!   list); with 5 or 6 players, one or two sit out. The default is the
//!   previous match's line-up, else players 0,1 and 2,3.

use super::error::TeamMovementError;
use super::plan::{TeamMatch, TeamNo};
use crate::movement::seating::TableNo;
use crate::rules::teams::MIN_TEAM_PLAYERS;
use crate::tournament_file::{LineRef, MatchFile, MatchTableFile};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// A team's line-up for a match: its first pair (first table) and second
/// pair (second table), each two indexes into the team's players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LineUp {
    pub pairs: [[u32; 2]; 2],
}

impl LineUp {
    /// The first four players: 0,1 and 2,3.
    pub const FIRST_FOUR: LineUp = LineUp {
        pairs: [[0, 1], [2, 3]],
    };

    /// The players of the team who sit out (5 or 6 players: one or two).
    pub fn sitting_out(&self, team_size: usize) -> Vec<u32> {
        (0..u32::try_from(team_size).unwrap_or(u32::MAX))
            .filter(|p| !self.pairs.iter().flatten().any(|q| q == p))
            .collect()
    }
}

/// A line-up is four different players of a team of at least 4.
pub fn check_lineup(lineup: &LineUp, team_size: usize) -> Result<(), TeamMovementError> {
    if team_size < MIN_TEAM_PLAYERS {
        return Err(TeamMovementError::LineUpTooFewPlayers {
            players: team_size,
            min: MIN_TEAM_PLAYERS,
        });
    }
    let mut seen = HashSet::new();
    for &p in lineup.pairs.iter().flatten() {
        if usize::try_from(p).map_or(true, |p| p >= team_size) {
            return Err(TeamMovementError::LineUpPlayerUnknown {
                index: p,
                last: team_size - 1,
            });
        }
        if !seen.insert(p) {
            return Err(TeamMovementError::LineUpPlayerTwice { index: p });
        }
    }
    Ok(())
}

/// The default line-up: the previous one when it still fits the team,
/// else players 0,1 and 2,3.
pub fn default_lineup(previous: Option<&LineUp>, team_size: usize) -> LineUp {
    previous
        .filter(|l| check_lineup(l, team_size).is_ok())
        .copied()
        .unwrap_or(LineUp::FIRST_FOUR)
}

/// The line-up `team` used in a match of the file (its line at the lower
/// table number is its first pair).
pub fn lineup_in(game: &MatchFile, team: TeamNo) -> Option<LineUp> {
    let mut lines: Vec<(TableNo, [u32; 2])> = game
        .tables
        .iter()
        .flat_map(|t| [(t.table, t.ns), (t.table, t.ew)])
        .filter(|(_, l)| l.team == team)
        .map(|(table, l)| (table, l.players))
        .collect();
    lines.sort_by_key(|(table, _)| *table);
    match lines.as_slice() {
        [(_, first), (_, second)] => Some(LineUp {
            pairs: [*first, *second],
        }),
        _ => None,
    }
}

/// The two tables of a planned match with the teams' line-ups, ready for
/// the file (not scored yet).
pub fn seat_match(game: &TeamMatch, home: &LineUp, away: &LineUp) -> MatchFile {
    let [first, second] = game.tables;
    let line = |team: TeamNo, players: [u32; 2]| LineRef { team, players };
    let table = |table: TableNo, ns: LineRef, ew: LineRef| MatchTableFile {
        table,
        ns,
        ew,
        sheet: None,
        adjusted: None,
    };
    MatchFile {
        home: game.home,
        away: game.away,
        group: game.group.clone(),
        tables: vec![
            table(
                first,
                line(game.home, home.pairs[0]),
                line(game.away, away.pairs[0]),
            ),
            table(
                second,
                line(game.away, away.pairs[1]),
                line(game.home, home.pairs[1]),
            ),
        ],
    }
}
