//! A team round as planned: its matches (home and away, two tables each)
//! and its resting teams.
//!
//! Decisions where the rules are silent:
//! - **Tables**: match m of a round (1-based, in the order listed) sits at
//!   tables 2m − 1 and 2m (the toolkit's
//!   `pairing::game_tables`, two tables a
//!   game). At the first table the home team's first pair sits NS against
//!   the away team's first pair; at the second the away team's second pair
//!   sits NS against the home team's second pair, so each team is once NS
//!   and once EW.
//! - **Withdrawn team**: [`drop_withdrawn`] takes its matches off a planned
//!   round; its opponent rests (team bye award).

use crate::movement::pairing::game_tables;
use crate::movement::seating::{side_of, Line, TableNo};
use crate::rules::teams::TABLES_PER_MATCH;
use crate::tournament_file::TeamRoundFile;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// A team's number (1, 2, …).
pub type TeamNo = u32;

/// Fewest teams a movement accepts.
pub const MIN_TEAMS: usize = 2;
/// Most teams a movement accepts (as the file).
pub const MAX_TEAMS: usize = crate::tournament_file::MAX_TEAMS;

/// The two tables of match `m` (1-based) of a round: 2m − 1 and 2m.
pub fn match_tables(m: usize) -> [TableNo; TABLES_PER_MATCH] {
    game_tables::<TABLES_PER_MATCH>(1, m.max(1) - 1)
}

/// One planned match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamMatch {
    pub home: TeamNo,
    pub away: TeamNo,
    /// The group, for a round robin in groups.
    pub group: Option<String>,
    /// The first table (home NS) and the second (away NS).
    pub tables: [TableNo; TABLES_PER_MATCH],
}

impl TeamMatch {
    pub fn has(&self, team: TeamNo) -> bool {
        self.home == team || self.away == team
    }

    /// The other team of the match (`None` if `team` does not play it).
    pub fn opponent(&self, team: TeamNo) -> Option<TeamNo> {
        side_of(&team, &self.home, &self.away).map(|side| match side {
            Line::Ns => self.away,
            Line::Ew => self.home,
        })
    }
}

/// One planned round: its matches and the resting teams.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamRoundPlan {
    pub round: u32,
    pub matches: Vec<TeamMatch>,
    pub byes: Vec<TeamNo>,
}

impl TeamRoundPlan {
    /// The match `team` plays this round.
    pub fn match_of(&self, team: TeamNo) -> Option<&TeamMatch> {
        self.matches.iter().find(|m| m.has(team))
    }

    pub fn opponent(&self, team: TeamNo) -> Option<TeamNo> {
        self.match_of(team).and_then(|m| m.opponent(team))
    }

    /// `Some(true)` when `team` plays at home.
    pub fn is_home(&self, team: TeamNo) -> Option<bool> {
        self.match_of(team).map(|m| m.home == team)
    }

    pub fn rests(&self, team: TeamNo) -> bool {
        self.byes.contains(&team)
    }

    /// A round as the file has it (line-ups are not needed here).
    pub fn from_file(round: &TeamRoundFile) -> TeamRoundPlan {
        TeamRoundPlan {
            round: round.number,
            matches: round
                .matches
                .iter()
                .enumerate()
                .map(|(i, m)| {
                    let mut tables: Vec<TableNo> = m.tables.iter().map(|t| t.table).collect();
                    tables.sort_unstable();
                    let default = match_tables(i.saturating_add(1));
                    TeamMatch {
                        home: m.home,
                        away: m.away,
                        group: m.group.clone(),
                        tables: [
                            tables.first().copied().unwrap_or(default[0]),
                            tables.get(1).copied().unwrap_or(default[1]),
                        ],
                    }
                })
                .collect(),
            byes: round.byes.clone(),
        }
    }
}

/// Numbers the matches of a round: match m at tables 2m − 1, 2m.
pub(super) fn number_tables(matches: &mut [TeamMatch]) {
    for (i, m) in matches.iter_mut().enumerate() {
        m.tables = match_tables(i.saturating_add(1));
    }
}

/// A planned round without the `withdrawn` teams: their matches are taken
/// off (their opponents rest), the tables renumbered.
pub fn drop_withdrawn(plan: &TeamRoundPlan, withdrawn: &[TeamNo]) -> TeamRoundPlan {
    let gone: HashSet<TeamNo> = withdrawn.iter().copied().collect();
    let mut byes: Vec<TeamNo> = plan
        .byes
        .iter()
        .copied()
        .filter(|t| !gone.contains(t))
        .collect();
    let mut matches = Vec::with_capacity(plan.matches.len());
    for m in &plan.matches {
        match (gone.contains(&m.home), gone.contains(&m.away)) {
            (false, false) => matches.push(m.clone()),
            (true, false) => byes.push(m.away),
            (false, true) => byes.push(m.home),
            (true, true) => {}
        }
    }
    number_tables(&mut matches);
    TeamRoundPlan {
        round: plan.round,
        matches,
        byes,
    }
}
