//! Danish for teams (RULES.md §12): by the current standings, never a team
//! already met, on the Danish toolkit ([`crate::movement::pairing`]: the
//! bye, the pairing from the top, the exact search).
//!
//! Decisions where the rules are silent:
//! - The best remaining team meets the highest-placed team it has not met
//!   such that every team below can still be paired without a rematch;
//!   with an odd count the lowest-placed team among those that rested least
//!   rests, unless that leaves no pairing without rematch (then the next
//!   one up). A search longer than the toolkit's `DANISH_SEARCH_STEPS`
//!   counts as impossible at that level.
//! - When no pairing without rematch exists at all (Danish rounds after a
//!   complete round robin), rematches are allowed, fewest meetings first
//!   and never against the previous round's opponent; the rematches are
//!   reported. Only two teams that just met are paired again regardless.
//! - Home: the team that has been home less often (home − away), the
//!   higher-placed on a tie. Matches are listed in ranking order, at tables
//!   2m − 1 and 2m.

use super::error::{check_teams, TeamMovementError};
use super::plan::{number_tables, TeamMatch, TeamNo, TeamRoundPlan};
use crate::movement::pairing::{danish_pairing, positions, previous_positions, Avoid, Pairing};
use serde::{Deserialize, Serialize};

/// One team in the ranking given to [`team_danish_round`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamDanishEntry {
    pub team: TeamNo,
    /// Every opponent met so far, once per meeting.
    pub met: Vec<TeamNo>,
    /// The opponent of the previous round (`None` after a rest).
    pub prev_opponent: Option<TeamNo>,
    /// Rounds rested so far.
    pub byes: u32,
    /// Matches played at home and away so far.
    pub homes: u32,
    pub aways: u32,
}

/// The entries from the ranking (active teams, best first) and the rounds
/// so far (any order; the previous round is the highest number).
pub fn team_entries_from_history(
    ranking: &[TeamNo],
    history: &[TeamRoundPlan],
) -> Vec<TeamDanishEntry> {
    let last = history.iter().max_by_key(|r| r.round);
    ranking
        .iter()
        .map(|&team| {
            let mut e = TeamDanishEntry {
                team,
                met: Vec::new(),
                prev_opponent: last.and_then(|r| r.opponent(team)),
                byes: 0,
                homes: 0,
                aways: 0,
            };
            for r in history {
                if r.rests(team) {
                    e.byes = e.byes.saturating_add(1);
                }
                if let Some(m) = r.match_of(team) {
                    if let Some(o) = m.opponent(team) {
                        e.met.push(o);
                    }
                    if m.home == team {
                        e.homes = e.homes.saturating_add(1);
                    } else {
                        e.aways = e.aways.saturating_add(1);
                    }
                }
            }
            e
        })
        .collect()
}

/// A Danish round and the meetings it repeats.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamDanishRound {
    pub plan: TeamRoundPlan,
    /// Matches between teams that had already met (only when no pairing
    /// without rematch exists).
    pub rematches: Vec<(TeamNo, TeamNo)>,
}

/// The Danish round `round` for `ranking` (active teams, best first): see
/// the module doc.
pub fn team_danish_round(
    round: u32,
    ranking: &[TeamDanishEntry],
) -> Result<TeamDanishRound, TeamMovementError> {
    if round == 0 {
        return Err(TeamMovementError::InvalidRound { round });
    }
    let teams: Vec<TeamNo> = ranking.iter().map(|e| e.team).collect();
    check_teams(&teams)?;
    let n = ranking.len();
    let index = positions(&teams);
    // Meetings between ranked teams (withdrawn opponents ignored), and the
    // previous round's opponent.
    let mut met = vec![0u32; n.saturating_mul(n)];
    for (i, e) in ranking.iter().enumerate() {
        for o in &e.met {
            if let Some(&j) = index.get(o) {
                if let Some(c) = met.get_mut(i * n + j) {
                    *c = c.saturating_add(1);
                }
                if let Some(c) = met.get_mut(j * n + i) {
                    *c = c.saturating_add(1);
                }
            }
        }
    }
    let prev = previous_positions(&teams, ranking.iter().map(|e| e.prev_opponent));
    // Each meeting is listed by both teams: halve.
    let meetings = |a: usize, b: usize| met.get(a * n + b).copied().unwrap_or(0) / 2;
    let just_met = |a: usize, b: usize| {
        prev.get(a).copied().flatten() == Some(b) || prev.get(b).copied().flatten() == Some(a)
    };
    let most = (0..n)
        .flat_map(|a| (0..n).map(move |b| (a, b)))
        .map(|(a, b)| meetings(a, b))
        .max()
        .unwrap_or(0);
    let rests: Vec<u32> = ranking.iter().map(|e| e.byes).collect();
    let mut found = danish_pairing(&rests, Avoid::Allowed(&|a, b| meetings(a, b) == 0));
    let mut level = 1;
    while found.is_none() && level <= most {
        let allowed = |a: usize, b: usize| meetings(a, b) <= level && !just_met(a, b);
        found = danish_pairing(&rests, Avoid::Allowed(&allowed));
        level += 1;
    }
    let Pairing { rest, games } = found
        .or_else(|| danish_pairing(&rests, Avoid::Nobody))
        .unwrap_or(Pairing {
            rest: None,
            games: Vec::new(),
        });
    let mut matches = Vec::with_capacity(games.len());
    let mut rematches = Vec::new();
    for (hi, lo) in games {
        let (Some(h), Some(l)) = (ranking.get(hi), ranking.get(lo)) else {
            continue;
        };
        let balance = |e: &TeamDanishEntry| i64::from(e.homes) - i64::from(e.aways);
        let (home, away) = if balance(l) < balance(h) {
            (l.team, h.team)
        } else {
            (h.team, l.team)
        };
        if meetings(hi, lo) > 0 {
            rematches.push((h.team, l.team));
        }
        matches.push(TeamMatch {
            home,
            away,
            group: None,
            tables: [0, 0],
        });
    }
    number_tables(&mut matches);
    Ok(TeamDanishRound {
        plan: TeamRoundPlan {
            round,
            matches,
            byes: rest
                .and_then(|r| ranking.get(r))
                .map(|e| vec![e.team])
                .unwrap_or_default(),
        },
        rematches,
    })
}
